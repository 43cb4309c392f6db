/*
 * multipart.h - multipart/form-data bodies (RFC 7578) read into parts.
 */
#ifndef SVC_MULTIPART_H
#define SVC_MULTIPART_H
#include "../../core/arena.h"
#include "../../core/err.h"

#include <stddef.h>

/* One uploaded input: a multipart part or the raw body. */
typedef struct svc_part {
    const char *name;     /* the form field: "lockfile", "manifest", "vex", "base", "head" */
    const char *filename; /* last path component of filename=, NULL when none */
    const char *data;     /* NUL-terminated */
    size_t len;
} svc_part;

/* The parts of a body whose Content-Type is `ct` (its boundary parameter
 * delimits them), in body order; parts without a form name are skipped.
 * Each part's data points into `body`, NUL-terminated in place (the CR that
 * starts the next delimiter is overwritten), so a 64 MiB upload is not
 * held twice; names and the parts array are in `a`. 0, or -1 with err set
 * (SB_EPARSE for a malformed body, SB_ENOMEM). */
int svc_multipart_parse(sb_arena *a, const char *ct, char *body, size_t blen, svc_part **out, size_t *nout,
                        sb_err *err);

/* Value of parameter `name` in a header value like
 * `form-data; name="lockfile"; filename="pixi.lock"` (quotes optional), in
 * `a`; NULL when absent. */
const char *svc_multipart_param(sb_arena *a, const char *value, const char *name);

/* The last path component of a client's file name (a hint for detection,
 * never a path); NULL when empty. */
const char *svc_multipart_safe_name(const char *n);

#endif
