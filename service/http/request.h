/*
 * request.h - what a handler may do with a request (h2o style: handlers
 * parse, call core, and hand back a response; they never touch MHD).
 *
 * Every string returned lives until the request completes. The arena is the
 * request's: handlers allocate from it and never free.
 */
#ifndef SVC_REQUEST_H
#define SVC_REQUEST_H

#include "../../core/arena.h"
#include "../../core/doc.h"
#include "../../core/err.h"
#include "../../core/gate.h"
#include "../config.h"
#include "multipart.h"

#include <stddef.h>
#include <time.h>

typedef struct svc_req svc_req;

const char *svc_req_method(const svc_req *r);
const char *svc_req_path(const svc_req *r);
struct svc_query;
/* The answer's documents lack these pixi:incomplete steps (comma-separated):
 * the Sbomd-Incomplete header, and the request's log line says so (warn when
 * an upstream's step is among them). */
void svc_req_incomplete(svc_req *r, const char *steps);

/* The request's query parameters, parsed once at dispatch for the route's
 * endpoint (service/params.h): what handlers, intake and gates read. */
const struct svc_query *svc_req_q(const svc_req *r);
/* The report the request's route serves (router.h), NULL when none. */
const struct sb_report_kind *svc_req_report(const svc_req *r);
/* Parse the query for endpoint `ep` (the server does, before the handler):
 * 0, or 1 with *err saying why (unknown, repeated, malformed, outside its
 * set: *choices lists the set, NULL-ended, *nchoices long); the caller
 * answers it, so the request never writes a problem itself. */
int svc_req_parse_query(svc_req *r, unsigned ep, sb_err *err, const char *const **choices, size_t *nchoices);
/* Call fn for every query argument in order (repeats included; value NULL
 * for a bare `?flag`); stops at the first nonzero return and returns it. */
/* End of a phase ("upload", "parse", "model"): streamed answers carry
 * Server-Timing with each phase's duration (from the previous mark). */
void svc_req_mark(svc_req *r, const char *phase);

int svc_req_query_each(svc_req *r, int (*fn)(void *cls, const char *key, const char *value), void *cls);
/* Request header (case-insensitive) or NULL. */
const char *svc_req_header(svc_req *r, const char *name);
/* The whole body (NUL-terminated; len excludes the NUL). */
const char *svc_req_body(const svc_req *r, size_t *len);
/* Free the body once it has been read (the readers copy what they keep):
 * a large lockfile's bytes need not stay while its document streams. */
void svc_req_drop_body(svc_req *r);
/* The SHA-1 of exactly these bytes when they are the whole body and it was
 * already hashed (svc_req_repeat keys the result cache by it), else NULL:
 * the input digest of the document serial is then not computed twice. */
const unsigned char *svc_req_body_sha1(const svc_req *r, const char *data, size_t len);
sb_arena *svc_req_arena(svc_req *r);

typedef struct svc_upload {
    svc_part lockfile; /* the raw body, or the `lockfile` part */
    svc_part manifest; /* the `manifest` part (multipart only) */
    int has_manifest;
    svc_part vex; /* the `vex` part: a CycloneDX VEX or OpenVEX document */
    int has_vex;
    svc_part *sboms; /* the `sbom` parts, in body order: merged into one document */
    size_t nsboms;
    svc_part *locks; /* several `lockfile` parts: a repository's lockfiles, in body order */
    size_t nlocks;
} svc_upload;

/* At most this many `lockfile` parts in one request (more is a 413). */
#define SVC_MAX_LOCK_PARTS 256

/* At most this many `sbom` parts in one request (more is a 413). */
#define SVC_MAX_SBOM_PARTS 16

/* The uploaded inputs: a raw body is the lockfile (its name from the
 * request's Content-Disposition); a multipart/form-data body must have a
 * `lockfile` part and may have `manifest` and `vex` parts, or instead of the
 * lockfile up to SVC_MAX_SBOM_PARTS `sbom` parts (SBOMs to merge). 0, or -1
 * with err set for a malformed multipart body. */
int svc_upload_read(svc_req *r, svc_upload *up, sb_err *err);

/* The part named `name` of a multipart/form-data body (/v1/diff's `base`
 * and `head`): 0 with a NUL-terminated arena copy of its bytes and its
 * file name (last path component, NULL when none); -1 with err set when the
 * body is not multipart, is malformed, or has no such part. The body stays. */
int svc_upload_part(svc_req *r, const char *name, const char **data, size_t *len, const char **filename, sb_err *err);

const svc_cfg *svc_req_cfg(const svc_req *r);
const char *svc_req_id(const svc_req *r);

/* Facts for the request log line. */
void svc_req_note(svc_req *r, const char *format, long packages);

/* Answer with a complete body. */
int svc_req_send(svc_req *r, unsigned status, const char *content_type, const char *body, size_t len);

/* The kinds of problem sbomd answers, each one type URI
 * (urn:sbomd:problem:<slug>) and one status (the table in problem.c, which
 * openapi/openapi.yaml lists). */
typedef enum svc_ptype {
    SVC_PT_MALFORMED_INPUT,
    SVC_PT_INVALID_PARAMETER,
    SVC_PT_MISSING_PARAMETER,
    SVC_PT_MALFORMED_REQUEST,
    SVC_PT_UNDECODABLE_BODY,
    SVC_PT_FEATURE_DISABLED,
    SVC_PT_UNAUTHORIZED,
    SVC_PT_NOT_FOUND,
    SVC_PT_METHOD_NOT_ALLOWED,
    SVC_PT_NOT_ACCEPTABLE,
    SVC_PT_UPLOAD_STALLED,
    SVC_PT_BODY_TOO_LARGE,
    SVC_PT_LIMIT_EXCEEDED,
    SVC_PT_MEMORY_EXCEEDED,
    SVC_PT_UNSUPPORTED_MEDIA_TYPE,
    SVC_PT_UNSUPPORTED_ENCODING,
    SVC_PT_UNSUPPORTED_INPUT,
    SVC_PT_UNKNOWN_CHOICE,
    SVC_PT_POLICY_VIOLATION, /* the CI gates' kinds (core/gate.h slugs) */
    SVC_PT_VULNERABLE,
    SVC_PT_QUALITY_FAILED,
    SVC_PT_YANKED,
    SVC_PT_SCORECARD,
    SVC_PT_DIFF,
    SVC_PT_INTERNAL,
    SVC_PT_IO,
    SVC_PT_UPSTREAM_FAILED,
    SVC_PT_BUSY,
    SVC_PT_MEMORY_BUSY,
    SVC_PT_OUT_OF_MEMORY,
    SVC_PT_GATE_UNEVALUATED,
    SVC_PT_TIMEOUT,
    SVC_PT_N
} svc_ptype;

typedef struct svc_ptype_row {
    const char *slug; /* the type is urn:sbomd:problem:<slug> */
    unsigned status;
    const char *title;
    const char *when; /* when it is answered (the OpenAPI's words; the detail when none is given) */
} svc_ptype_row;

/* The table, indexed by svc_ptype (*n = SVC_PT_N). */
const svc_ptype_row *svc_ptypes(size_t *n);

/* Answer with an RFC 9457 problem document of kind t and its status;
 * `choices` (may be NULL) lists acceptable values. */
int svc_req_problem(svc_req *r, svc_ptype t, const char *detail, const char *const *choices, size_t nchoices);

/* A failed CI gate (core/gate.h): 422 problem+json of type
 * urn:sbomd:problem:<g->slug> with a `violations` array (the first 1000
 * findings) and `violationCount`, so `curl --fail-with-body` fails the job. */
struct sb_gate;
int svc_req_gate(svc_req *r, const struct sb_gate *g, const char *detail);

/* Count a gate that failed the request without svc_req_gate (the diff's
 * text and Markdown 422 is the diff itself): sbomd_gate_failures_total. */
void svc_req_gate_fired(svc_req *r, const char *slug);

/* A gate that could not be evaluated (service/gates.c): 503 problem+json of
 * type urn:sbomd:problem:<g->slug> with Retry-After and an `unevaluated`
 * array ({gate, step, detail}: which data each gate lacked). */
int svc_req_unevaluated(svc_req *r, const struct sb_gate *g, const char *detail);

/* Add Retry-After to a request the memory budget refused or stopped: a
 * few seconds, spread per request (svc_budget_retry_secs). */
void svc_req_retry_after(svc_req *r);

/* A gate this server cannot evaluate at all: 400 problem+json of type
 * urn:sbomd:problem:feature-disabled (detail names the server option). */
int svc_req_disabled(svc_req *r, const char *detail);

/* Problem from an sb_err with the status its code maps to. */
int svc_req_error(svc_req *r, const sb_err *err, const char *const *choices, size_t nchoices);

/*
 * An answer a request stage decided but did not give: the stages (intake,
 * gates) fill one and return 1, and the handler answers it once with
 * svc_req_answer. It holds its own copy of the detail and the gate, so it
 * needs no memory of the request's (whose account may be what stopped it).
 */
typedef enum svc_answer_kind {
    SVC_ANSWER_ERROR = 0,   /* err: the status its code maps to */
    SVC_ANSWER_TYPE,        /* type, with err.msg as the detail */
    SVC_ANSWER_GATE,        /* a gate that fired: 422 with its violations */
    SVC_ANSWER_UNEVALUATED, /* a gate without its data: 503 */
    SVC_ANSWER_TIMEOUT      /* past the deadline: 504 */
} svc_answer_kind;

typedef struct svc_problem {
    svc_answer_kind how;
    svc_ptype type;
    sb_err err;
    const char *const *choices; /* static, or the request's arena */
    size_t nchoices;
    sb_gate gate; /* GATE / UNEVALUATED: the gate (its findings in the request's arena) */
} svc_problem;

/* Fill p; each returns 1, for `return svc_problem_...(p, ...);`. */
int svc_problem_err(svc_problem *p, const sb_err *err, const char *const *choices, size_t nchoices);
int svc_problem_code(svc_problem *p, sb_code code, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
int svc_problem_param(svc_problem *p, const char *name, const char *why); /* 400 "query parameter 'NAME' WHY" */
int svc_problem_type(svc_problem *p, svc_ptype t, const char *detail, const char *const *choices, size_t nchoices);
int svc_problem_gate(svc_problem *p, const sb_gate *g, const char *detail, int unevaluated);
int svc_problem_timeout(svc_problem *p);

/* Answer 400 for a query parameter: "query parameter 'NAME' WHY" (for
 * handlers; a stage fills a problem with svc_problem_param). */
int svc_bad_param(svc_req *r, const char *name, const char *why);

/* Give the answer a stage decided; what the handler returns. */
int svc_req_answer(svc_req *r, const svc_problem *p);

/* Stream a document produced by `doc` (chunked, bounded memory). The request
 * owns `doc` from here on and frees it on completion. */
int svc_req_stream(svc_req *r, const char *content_type, sb_doc *doc);

/* A whole answer in memory (the page, the OpenAPI document, /metrics):
 * gzip when the client asks for it and it is worth it; with a strong
 * `etag` (NULL: none) an If-None-Match naming it is a 304, and the gzip
 * answer has its own ETag ("<tag>-gzip"). */
int svc_req_send_asset(svc_req *r, const char *content_type, const char *body, size_t len, const char *etag);

/* Content-Disposition: attachment; filename="<what>-<env>-<platform><ext>",
 * the name a browser or `curl -OJ` saves under (characters outside
 * [A-Za-z0-9._-] of env and platform become '_'). */
void svc_req_disposition(svc_req *r, const char *what, const char *env, const char *plat, const char *ext);

/* The file extension of a media type sbomd answers with (".json", ".txt",
 * ".md", ".csv", ".sarif"), ".out" for any other. */
const char *svc_media_ext(const char *media_type);

/* As svc_req_stream, answered with `status` (a gate that failed but whose
 * answer is still the document the client asked for, e.g. /v1/diff's
 * Markdown for a pull-request comment). Never kept by the result cache. */
int svc_req_stream_status(svc_req *r, unsigned status, const char *content_type, sb_doc *doc);

/* Repeat uploads (before the body is read): the request's result key, a
 * digest of everything that shapes the answer's bytes (the server's
 * output-changing settings and version, method, path, query, Accept,
 * Content-Type, Content-Disposition, Content-Encoding and the body), and its
 * strong ETag (the key and the document timestamp). A response in the
 * result cache is sent from there (or 304 when If-None-Match names its
 * ETag); else an If-None-Match naming this request's ETag is a 304. Either
 * way 1 is returned with *rc set. Otherwise 0: the ETag goes on the streamed
 * answer, which is kept in the cache when it ends complete and small enough.
 * Requests whose bytes depend on network answers (fetch-licenses=true,
 * vulnerabilities) get neither. */
int svc_req_repeat(svc_req *r, int *rc);

/* The document timestamp a request without timestamp= gets: its arrival
 * (or --source-date-epoch). */
time_t svc_req_wall(const svc_req *r);

/* Facts for the metrics: documents in the answer (NDJSON: many) and the
 * input's kind (pixi.lock, uv.lock...). */
void svc_req_count(svc_req *r, unsigned ndocs, const char *kind);

/* Add a response header to whatever is sent next. */
void svc_req_add_header(svc_req *r, const char *name, const char *value);

/* 1 while the server accepts work (for /readyz). */
int svc_req_server_ready(const svc_req *r);

/* Whether the request is past its deadline (--request-timeout); a handler
 * checks before starting a response and answers 504 through
 * svc_req_timeout() (problem.c, with the other problem answers). */
int svc_req_expired(const svc_req *r);
int svc_req_timeout(svc_req *r);

/* The memory budget, once the body is read and its model estimated
 * (sb_lock_estimate): the request's charge becomes the body it holds plus
 * `model` bytes and the models of the inputs it admitted before (a diff's
 * base, a merge's earlier parts), before anything is built. 0 when admitted; otherwise the
 * request is refused (413 when the estimate exceeds the whole budget, 503
 * with Retry-After when requests in flight hold too much of it now) in *pb,
 * and 1 returned. */
int svc_req_admit(svc_req *r, unsigned long long model, svc_problem *pb);

/* The process's license lookup engine, NULL when the server makes none. */
struct svc_lookup *svc_req_lookups(const svc_req *r);
/* The server's conda -> PyPI mapping, NULL when none was configured. */
struct sb_pypimap;
/* The PyPI mapping for this request (--pypi-mapping-file, or the current
 * --pypi-mapping-url generation, held until the request ends); NULL = none. */
const struct sb_pypimap *svc_req_pypimap(svc_req *r);

/* 1 when the client has closed its end of the connection (or it broke):
 * checked without blocking, for a handler waiting on something else. */
int svc_req_client_gone(svc_req *r);

/* Run fn(cls) once when the request ends, whatever way, before its arena
 * goes (one hook per request; a second replaces the first). */
void svc_req_on_done(svc_req *r, void (*fn)(void *), void *cls);

/* Seconds left before the request's deadline (may be negative). */
double svc_req_time_left(const svc_req *r);

/* The server's metrics in Prometheus text format, in the request's arena. */
int svc_req_metrics_text(svc_req *r, const char **out, size_t *len);

/* HTTP status an sb_code maps to (one table for the whole service). */
unsigned svc_status_for(sb_code code);

#endif
