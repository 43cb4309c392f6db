/*
 * params.h - pure parsers of request parameters: booleans, byte counts,
 * timestamps and the Accept header. No HTTP types here, so the fuzzer
 * (tests/fuzz/fuzz_params.c) drives them with arbitrary strings; handlers
 * call them on what libmicrohttpd decoded.
 */
#ifndef SVC_PARAMS_H
#define SVC_PARAMS_H

#include "../core/doc.h"

#include <stddef.h>

/* true|1|"" -> 1, false|0 -> 0, NULL -> dflt. 0 on success, -1 otherwise. */
int svc_param_bool(const char *s, int dflt, int *out);

/* A decimal count in [0, max]; NULL leaves *out alone. 0 ok, -1 bad. */
int svc_param_count(const char *s, long long max, long long *out);

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

/* Of `n` media types (no parameters), the index the Accept header prefers;
 * absent or empty -> 0; -1 when none is acceptable. Ties go to the earlier. */
int svc_negotiate_type(const char *accept, const char *const *types, size_t n);

#endif
