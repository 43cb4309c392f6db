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

/* An EPSS probability threshold "0", "0.1", "1" (plain decimal in [0, 1],
 * at most 12 characters); NULL out allowed. 0 ok, -1 bad. */
int svc_param_epss(const char *s, double *out);

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

/* The query parameters of the API, one row each: what the strict check
 * (svc_query_check) accepts and a unit test holds openapi/openapi.yaml to. */
typedef enum svc_qtype {
    SVC_Q_STRING, /* free text (names, file names) */
    SVC_Q_BOOL,   /* true|false|1|0|"" */
    SVC_Q_COUNT   /* a decimal count in [0, max] */
} svc_qtype;

/* Which endpoints take a parameter. */
enum {
    SVC_EP_SBOM = 1u << 0,    /* POST /v1/sbom */
    SVC_EP_REPORT = 1u << 1,  /* POST /v1/report/{kind} */
    SVC_EP_TREE = 1u << 2,    /* POST /v1/report/tree only */
    SVC_EP_QUALITY = 1u << 3, /* POST /v1/report/quality only */
    SVC_EP_DIFF = 1u << 4,    /* POST /v1/diff */
    SVC_EP_EXPLAIN = 1u << 5  /* POST /v1/report/explain only */
};

typedef struct svc_qparam {
    const char *name;
    svc_qtype type;
    long long max;      /* SVC_Q_COUNT only */
    unsigned endpoints; /* SVC_EP_* bits */
    int repeat;         /* may be given more than once (a list) */
    int upstream;       /* given (a boolean: true), the answer depends on an upstream's (lookups,
                              * OSV, KEV/EPSS, PyPI pages): no ETag, never kept for repeats */
} svc_qparam;

/* The table, terminated by a row whose name is NULL. */
const svc_qparam *svc_qparams(void);

/* The row for `name` when endpoint `ep` takes it, else NULL. */
const svc_qparam *svc_qparam_find(const char *name, unsigned ep);

/* The parameter of endpoint `ep` closest to a misspelled `name` (edit
 * distance after folding case and '_' to '-'), or NULL when none is within
 * a third of the name's length (then a suggestion would only confuse). */
const char *svc_qparam_closest(const char *name, unsigned ep);

/* Check one query argument against the table: 0 when fine; otherwise -1 and
 * a sentence for the problem detail in why[n] ("unknown query parameter
 * 'plaform' (did you mean 'platform'?)", "... must be true or false"). */
int svc_qparam_check(const char *name, const char *value, unsigned ep, char *why, size_t n);

/* The strict check of a whole query (service/intake.c runs it on every
 * request; pure, so it is unit tested): every argument must be one of the
 * endpoint's, given once unless its row repeats; a selection and its all-*
 * form exclude each other. A typo is a 400 naming the closest parameter, not
 * a silent default the client never asked for. */
typedef struct svc_query_check {
    unsigned ep;
    const char *seen[32];
    size_t nseen;
    char why[256];
} svc_query_check;

/* One argument, in the query's order: 0, or 1 with c->why set. */
int svc_query_check_arg(svc_query_check *c, const char *key, const char *value);

/* After every argument: get(cls, name) is the query's value of name (NULL
 * when absent). 0, or 1 with c->why set. */
int svc_query_check_pairs(svc_query_check *c, const char *(*get)(void *cls, const char *name), void *cls);

#endif
