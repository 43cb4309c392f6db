/*
 * negotiate.h - HTTP content negotiation: the Accept header's media ranges
 * and which document format or media type it prefers. Pure: the fuzzer
 * (tests/fuzz/fuzz_params.c) drives it with arbitrary strings.
 */
#ifndef SVC_NEGOTIATE_H
#define SVC_NEGOTIATE_H

#include "../../core/doc.h"

#include <stddef.h>

/* One media range of an Accept header: type/subtype, its version= and q=
 * (0..1, default 1) parameters. Lengths bounded; longer values truncated. */
typedef struct svc_accept_item {
    char type[96];
    char version[16];
    double q;
} svc_accept_item;

/* Iterate the items of an Accept header: *pos starts at 0; returns 1 with an
 * item, 0 at the end. Never reads past the terminating NUL. */
int svc_accept_next(const char *accept, size_t *pos, svc_accept_item *item);

/* The document format an Accept header prefers (q-values, version=, the
 * wildcards); absent or empty -> CycloneDX 1.6; NULL when none is ours. */
const sb_doc_ops *svc_negotiate_format(const char *accept);
/* The same for a request of several documents (all-*), whose answer is
 * NDJSON: `application/x-ndjson` is then acceptable and, when no format is
 * named, means the default format. */
const sb_doc_ops *svc_negotiate_format_for(const char *accept, int seq);

/* Of `n` media types (no parameters), the index the Accept header prefers;
 * absent or empty -> 0; -1 when none is acceptable. Ties go to the earlier. */
int svc_negotiate_type(const char *accept, const char *const *types, size_t n);

#endif
