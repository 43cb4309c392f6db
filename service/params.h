/*
 * params.h - the one table of query parameters and their pure parsers:
 * booleans, byte counts, timestamps (content negotiation is
 * http/negotiate.h). No HTTP types here, so the fuzzer
 * (tests/fuzz/fuzz_params.c) drives them with arbitrary strings; handlers
 * call them on what libmicrohttpd decoded.
 */
#ifndef SVC_PARAMS_H
#define SVC_PARAMS_H

#include "../core/doc.h"
#include "distance.h"
#include "http/negotiate.h"

#include <stdbool.h>

#include <stddef.h>

/* The words a boolean takes, settings and query parameters alike, in any
 * case: people write what their other tools take (True, on, yes). */
#define SVC_BOOL_WORDS "true, false, on, off, yes, no, 1 or 0 (any case)"

/* One of SVC_BOOL_WORDS: 1 or 0; anything else (the empty string too) -1. */
int svc_bool_word(const char *s);

/* A word of SVC_BOOL_WORDS or "" (a bare parameter: true); NULL -> dflt.
 * 0 on success, -1 otherwise. */
int svc_param_bool(const char *s, int dflt, int *out);

/* A decimal count in [0, max]; NULL leaves *out alone. 0 ok, -1 bad. */
int svc_param_count(const char *s, long long max, long long *out);

/* An EPSS probability threshold "0", "0.1", "1" (plain decimal in [0, 1],
 * at most 12 characters); NULL out allowed. 0 ok, -1 bad. */
int svc_param_epss(const char *s, double *out);

/* The query parameters of the API, one row each: what the strict check
 * accepts, where its value goes in svc_query, and what a unit test holds
 * openapi/openapi.yaml and the docs to. */
typedef enum svc_qtype {
    SVC_Q_STRING, /* free text (names, file names), or one of a closed set the row's check knows */
    SVC_Q_BOOL,   /* true|false|1|0|"" */
    SVC_Q_COUNT,  /* a decimal count in [0, max] */
    SVC_Q_LIST    /* repeatable non-empty text, kept in the order given (at most SVC_QLIST_MAX values) */
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

#define SVC_QLIST_MAX 256 /* values of one list parameter */

/* The values of a list parameter, in the order given. */
typedef struct svc_qlist {
    const char **v;
    size_t n;
} svc_qlist;

/* A request's query, parsed once (svc_query_parse_*) when the request is
 * dispatched: the handlers, intake and the gates read these fields and
 * never the query string. Absent: a string is NULL, a boolean or count -1,
 * a list empty, a threshold -1. Strings point into the request (they live
 * as long as it does). */
typedef struct svc_query {
    /* selection and output */
    const char *format, *output, *environment, *platform, *kind, *filename, *name, *version, *author, *package;
    int all_environments, all_platforms, pretty, license_texts, keep_orphans;
    long long timestamp, license_file_max, license_texts_max, depth; /* timestamp: Unix seconds */
    const char *timestamp_text; /* as given: Unix seconds or an RFC 3339 date-time */
    svc_qlist include, exclude, exclude_kind;
    const char *scope, *primary_purl, *fail_on_quality_name; /* as given */
    bool required_only;                                      /* scope=required (scope=all: false) */
    unsigned kinds;                                          /* exclude-kind as sb_filter_kind_bit()s */
    bool primary_pypi;                                       /* primary-purl=pypi */
    /* license policy and its gate */
    const char *policy, *fail_on;
    svc_qlist allow_license, deny_license, ignore_license;
    int require_license;
    bool fail_on_license; /* fail-on=license (/v1/sbom, reports) */
    unsigned diff_gate;   /* /v1/diff's fail-on: bits 1 << sb_diff_change gated (diff: every kind); 0 = none */
    bool diff_direct;     /* fail-on's `direct`: only changes of direct dependencies */
    /* quality */
    int fail_on_quality; /* an sb_quality_profile, -1 absent */
    const char *profile;
    unsigned profiles; /* profile= as 1 << sb_quality_profile; 0 = all (or absent) */
    /* network: lookups, vulnerabilities, health, scorecard */
    int fetch_licenses, fail_on_kev, kev, epss, yanked, fail_on_yanked, scorecard;
    const char *vulnerabilities;                                  /* "osv" or NULL */
    const char *fail_on_severity;                                 /* as given, for messages */
    int severity;                                                 /* its sb_sev, 0 when absent */
    const char *fail_on_epss, *scorecard_min, *fail_on_scorecard; /* as given, for messages */
    double epss_min, scorecard_floor, scorecard_gate;             /* parsed; -1 absent */
    const char *gate_incomplete;                                  /* fail (absent) | pass */
    bool gate_incomplete_pass; /* gates evaluated on what is known, the answer saying what is not */
    /* format=github-snapshot: the commit and job the snapshot is for (sha
     * checked as 40 or 64 hex digits, ref as refs/...), the lockfile's path */
    const char *sha, *ref, *correlator, *job_id, *job_url, *path;
    /* a repository sent whole (an archive, or several lockfile parts):
     * path globs read and skipped, and whether one lockfile that does not
     * read fails the request */
    svc_qlist paths, skip_paths;
    int strict;
} svc_query;

/* A query with nothing given (what a route that takes no query sees). */
void svc_query_init(svc_query *q);

typedef struct svc_qparam {
    const char *name;
    svc_qtype type;
    long long max;      /* SVC_Q_COUNT only */
    unsigned endpoints; /* SVC_EP_* bits */
    int repeat;         /* may be given more than once (a list) */
    int upstream;       /* given (a boolean: true), the answer depends on an upstream's (lookups,
                         * OSV, KEV/EPSS, PyPI pages): no ETag, never kept for repeats */
    size_t off;         /* the svc_query field the value goes to */
    /* a closed set or a format beyond the type: 0, or -1 with *why (the rest
     * of "query parameter 'NAME' ...") and, for a closed set, the choices */
    int (*check)(svc_query *q, unsigned ep, const char *v, const char **why, const char *const **choices);
} svc_qparam;

/* The table, terminated by a row whose name is NULL. */
const svc_qparam *svc_qparams(void);

/* The row for `name` when endpoint `ep` takes it, else NULL. */
const svc_qparam *svc_qparam_find(const char *name, unsigned ep);

/* Whether the query gave row `p` (a boolean: as true). */
int svc_query_on(const svc_query *q, const svc_qparam *p);

/* timestamp=: Unix seconds (0 to 253402300799) or an RFC 3339 date-time
 * ("2020-01-01T00:00:00Z", "2020-01-01T02:00:00.5+02:00"; a fraction is
 * dropped, a leap second taken as :59). 0 with *out, -1 when neither. */
int svc_param_time(const char *s, long long *out);


/* The parameter of endpoint `ep` closest to a misspelled `name` (edit
 * distance after folding case and '_' to '-'), or NULL when none is within
 * a third of the name's length (then a suggestion would only confuse). */
const char *svc_qparam_closest(const char *name, unsigned ep);

/* Check one query argument against the table: 0 when fine; otherwise -1 and
 * a sentence for the problem detail in why[n] ("unknown query parameter
 * 'plaform' (did you mean 'platform'?)", "... must be a boolean: ..."). */
int svc_qparam_check(const char *name, const char *value, unsigned ep, char *why, size_t n);

/* The one parse of a whole query (the server runs it at dispatch; pure, so
 * it is unit tested and fuzzed): every argument must be one of the
 * endpoint's, given once unless its row repeats, of its row's type and set;
 * a selection and its all-* form exclude each other. A typo is a 400 naming
 * the closest parameter, not a silent default the client never asked for.
 * List values are stored in arrays from alloc(cls, bytes). */
#define SVC_QPARAM_ROWS 128 /* at least the rows of the table (a static assertion checks) */
typedef struct svc_query_parser {
    svc_query *q;
    unsigned ep;
    void *(*alloc)(void *cls, size_t n);
    void *alloc_cls;
    /* one flag per row of the table: a repeated parameter is refused
     * however many others come first (a fixed list of names stopped
     * looking after 48) */
    unsigned char seen[SVC_QPARAM_ROWS];
    char why[256];
    const char *const *choices; /* for a value outside a closed set */
    size_t nchoices;
    int nomem; /* the refusal is out of memory, not the client's */
} svc_query_parser;

/* Start: q is reset to svc_query_init's. */
void svc_query_parse_begin(svc_query_parser *p, svc_query *q, unsigned ep, void *(*alloc)(void *, size_t), void *cls);

/* One argument, in the query's order: 0, or 1 with p->why set. */
int svc_query_parse_arg(svc_query_parser *p, const char *key, const char *value);

/* After every argument: 0, or 1 with p->why set. */
int svc_query_parse_end(svc_query_parser *p);

#endif
