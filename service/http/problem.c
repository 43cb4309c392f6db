/*
 * problem.c - RFC 9457 problem details, and the one table from sb_code to
 * HTTP status: every problem answer (svc_req_problem, _error, _gate,
 * _unevaluated, _disabled, and the 504 of svc_req_timeout) is written
 * here, over the request's send API (request.c), which never calls back.
 *
 * Body shape: {"type", "title", "status", "detail", "instance", and when
 * known "line"/"column" (where in the input) and "choices" (acceptable values),
 * and for a failed CI gate "violations" (one object per finding)}.
 */
#include "request_int.h"
#include "../budget.h"
#include "../../core/gate.h"
#include "../../core/jsonw.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* Every kind of problem sbomd answers, one row each: its type
 * (urn:sbomd:problem:<slug>), status, title, and when it is answered.
 * openapi/openapi.yaml lists the same rows (tests/unit/test_problem.c holds
 * the two together), so a client can switch on `type` and never on `detail`. */
static const svc_ptype_row ptypes[SVC_PT_N] = {
    [SVC_PT_MALFORMED_INPUT] = {"malformed-input", 400, "Malformed input",
                                "the body could not be read as the kind it was taken to be (line and column say where)"},
    [SVC_PT_INVALID_PARAMETER] = {"invalid-parameter", 400, "Invalid query parameter",
                                  "a query parameter is unknown, repeated, or its value is outside its type or set "
                                  "(choices lists the set; did-you-mean names the closest parameter)"},
    [SVC_PT_MISSING_PARAMETER] = {"missing-parameter", 400, "Missing query parameter",
                                  "a parameter the asked format needs is absent (format=github-snapshot: sha, ref, "
                                  "correlator, job-id)"},
    [SVC_PT_MALFORMED_REQUEST] = {"malformed-request", 400, "Malformed request",
                                  "the request head is ambiguous (two Content-Length, Content-Length with "
                                  "Transfer-Encoding, no Host); the connection is closed"},
    [SVC_PT_UNDECODABLE_BODY] = {"undecodable-body", 400, "Undecodable body",
                                 "the body's Content-Encoding (gzip, deflate, zstd) cannot be decoded"},
    [SVC_PT_FEATURE_DISABLED] = {"feature-disabled", 400, "Feature disabled on this server",
                                 "a gate or parameter needs a feature this server was started without "
                                 "(--vulnerabilities, --lookups)"},
    [SVC_PT_UNAUTHORIZED] = {"unauthorized", 401, "Unauthorized",
                             "the endpoint needs an Authorization: Bearer token, or the token is not accepted"},
    [SVC_PT_NOT_FOUND] = {"not-found", 404, "Not found", "no such endpoint or report (did-you-mean in detail)"},
    [SVC_PT_METHOD_NOT_ALLOWED] = {"method-not-allowed", 405, "Method not allowed",
                                   "the endpoint exists, not for this method (Allow lists those it takes)"},
    [SVC_PT_NOT_ACCEPTABLE] = {"not-acceptable", 406, "Not acceptable",
                               "no output the endpoint writes matches the Accept header (choices lists them)"},
    [SVC_PT_UPLOAD_STALLED] = {"upload-stalled", 408, "Upload stalled",
                               "the body arrived slower than the server's minimum upload rate"},
    [SVC_PT_BODY_TOO_LARGE] = {"body-too-large", 413, "Body too large",
                               "the body (or what it inflates to) is larger than --max-body"},
    [SVC_PT_LIMIT_EXCEEDED] = {"limit-exceeded", 413, "Input limit exceeded",
                               "the input passes one of the readers' limits (packages, depth, a string's length)"},
    [SVC_PT_MEMORY_EXCEEDED] = {"memory-exceeded", 413, "Memory budget exceeded",
                                "reading this request alone would need more than the server's whole memory "
                                "budget (--memory-budget)"},
    [SVC_PT_UNSUPPORTED_MEDIA_TYPE] = {"unsupported-media-type", 415, "Unsupported media type",
                                       "the body is not a kind of input sbomd reads"},
    [SVC_PT_UNSUPPORTED_ENCODING] = {"unsupported-content-encoding", 415, "Unsupported content encoding",
                                     "the body's Content-Encoding is not gzip, deflate or zstd (Accept-Encoding "
                                     "lists those taken)"},
    [SVC_PT_UNSUPPORTED_INPUT] = {"unsupported-input", 422, "Unsupported input",
                                  "the input was read but what it holds cannot be turned into an SBOM (a "
                                  "version or feature of the format sbomd does not take)"},
    [SVC_PT_UNKNOWN_CHOICE] = {"unknown-choice", 422, "Unknown choice",
                               "a named environment, platform or package is not in the input (choices lists "
                               "those that are)"},
    [SVC_PT_POLICY_VIOLATION] = {"policy-violation", 422, "License policy violated",
                                 "fail-on=license: the license policy's violations"},
    [SVC_PT_VULNERABLE] = {"vulnerable", 422, "Vulnerable packages",
                           "fail-on-severity, fail-on-kev, fail-on-epss: the findings at or past the threshold"},
    [SVC_PT_QUALITY_FAILED] = {"quality-failed", 422, "Quality profile not met",
                               "fail-on-quality: each element of the profile not met, its lacking packages and "
                               "the remedy"},
    [SVC_PT_YANKED] = {"yanked", 422, "Yanked releases", "fail-on-yanked: each locked release its index yanked"},
    [SVC_PT_SCORECARD] = {"scorecard", 422, "OpenSSF Scorecard below the threshold",
                          "fail-on-scorecard: each package whose repository scores below the threshold"},
    [SVC_PT_DIFF] = {"diff", 422, "The lockfiles differ", "/v1/diff fail-on: each change of a gated kind"},
    [SVC_PT_INTERNAL] = {"internal-error", 500, "Internal error", "a defect of sbomd (please report it)"},
    [SVC_PT_IO] = {"io-error", 500, "I/O error", "a file the server reads (a package cache) could not be read"},
    [SVC_PT_UPSTREAM_FAILED] = {"upstream-failed", 502, "Upstream failed",
                                "an upstream the request depends on (an index, OSV) answered badly"},
    [SVC_PT_BUSY] = {"busy", 503, "Server busy",
                     "the server is at its concurrent request limit (--max-requests); retry after Retry-After"},
    [SVC_PT_MEMORY_BUSY] = {"memory-busy", 503, "Memory budget in use",
                            "requests in flight hold the memory budget this one needs; retry after Retry-After"},
    [SVC_PT_OUT_OF_MEMORY] = {"out-of-memory", 503, "Out of memory", "the system refused memory"},
    [SVC_PT_GATE_UNEVALUATED] = {"gate-unevaluated", 503, "A gate could not be evaluated",
                                 "a gate's data is missing (an upstream failed, timed out or was capped); "
                                 "unevaluated lists each gate and step; gate-incomplete=pass evaluates on what "
                                 "is known"},
    [SVC_PT_TIMEOUT] = {"timeout", 504, "Request deadline passed",
                        "the answer could not be started within --request-timeout"},
};

const svc_ptype_row *svc_ptypes(size_t *n)
{
    *n = SVC_PT_N;
    return ptypes;
}

/* The one table from sb_code to a kind of problem (and so to a status). */
static svc_ptype ptype_for(sb_code code)
{
    switch (code) {
    case SB_EPARSE: return SVC_PT_MALFORMED_INPUT;
    case SB_EINVAL: return SVC_PT_INVALID_PARAMETER;
    case SB_ELIMIT: return SVC_PT_LIMIT_EXCEEDED;
    case SB_EFORMAT: return SVC_PT_UNSUPPORTED_MEDIA_TYPE;
    case SB_EUNSUPPORTED: return SVC_PT_UNSUPPORTED_INPUT;
    case SB_ENOTFOUND: return SVC_PT_UNKNOWN_CHOICE;
    case SB_ENOMEM: return SVC_PT_OUT_OF_MEMORY;
    case SB_EUPSTREAM: return SVC_PT_UPSTREAM_FAILED;
    case SB_ETIMEOUT: return SVC_PT_TIMEOUT;
    case SB_EIO: return SVC_PT_IO;
    default: return SVC_PT_INTERNAL;
    }
}

unsigned svc_status_for(sb_code code)
{
    return ptypes[ptype_for(code)].status;
}

/* A gate's kind by its slug (core/gate.h names gates by slug: core knows
 * no HTTP); an unknown slug is a defect, answered as one. */
static svc_ptype ptype_of_gate(const char *slug)
{
    for (int t = 0; t < SVC_PT_N; t++)
        if (!strcmp(ptypes[t].slug, slug))
            return (svc_ptype)t;
    return SVC_PT_INTERNAL;
}

static int to_buf(void *payload, const char *p, size_t n)
{
    return sb_buf_append(payload, p, n) == SB_OK ? 0 : -1;
}

/* At most this many findings in a failed gate's problem document: it is
 * built in memory, and a CI log needs the first ones, not all. */
#define GATE_MAX_LISTED 1000

/* The gate's findings as `violations` + `violationCount` (a failed gate), or
 * as `unevaluated` (a gate that could not be evaluated: rule the gate, value
 * the missing step, reason what the step lacked). */
static void put_violations(sb_jw *jw, const sb_gate *g, int unevaluated)
{
    static const char *const keys[] = {"package", "version", "rule", "value", "reason"};
    static const char *const ukeys[] = {"package", "version", "gate", "step", "detail"};
    size_t n = g->n < GATE_MAX_LISTED ? g->n : GATE_MAX_LISTED;
    sb_jw_key(jw, unevaluated ? "unevaluated" : "violations");
    sb_jw_arr_begin(jw);
    for (size_t i = 0; i < n; i++) {
        const sb_finding *f = &g->items[i];
        const char *vals[] = {f->package, f->version, f->rule, f->value, f->reason};
        sb_jw_obj_begin(jw);
        for (size_t k = 0; k < sizeof keys / sizeof *keys; k++)
            if (vals[k])
                sb_jw_kstr(jw, unevaluated ? ukeys[k] : keys[k], vals[k]);
        if (f->remedy)
            sb_jw_kstr(jw, "remedy", f->remedy);
        if (f->npkgs) { /* a finding about many packages: the first ones, and how many */
            sb_jw_key(jw, "packages");
            sb_jw_arr_begin(jw);
            for (size_t p = 0; p < f->npkgs; p++) {
                sb_jw_obj_begin(jw);
                sb_jw_kstr(jw, "name", f->pkgs[p].name ? f->pkgs[p].name : "");
                if (f->pkgs[p].version)
                    sb_jw_kstr(jw, "version", f->pkgs[p].version);
                if (f->pkgs[p].reason)
                    sb_jw_kstr(jw, "reason", f->pkgs[p].reason);
                sb_jw_obj_end(jw);
            }
            sb_jw_arr_end(jw);
            sb_jw_key(jw, "packageCount");
            sb_jw_int(jw, (long long)f->count);
        }
        sb_jw_obj_end(jw);
    }
    sb_jw_arr_end(jw);
    if (!unevaluated) {
        sb_jw_key(jw, "violationCount");
        sb_jw_int(jw, (long long)g->n);
    }
}

/* The answer: a problem document of kind t; err (may be NULL) adds where in
 * the input, choices the acceptable values, gate its findings. */
static int problem(svc_req *r, svc_ptype t, const char *detail, const sb_err *err, const char *const *choices,
                   size_t nchoices, const sb_gate *gate, int unevaluated)
{
    const svc_ptype_row *row = &ptypes[t < SVC_PT_N ? t : SVC_PT_INTERNAL];
    sb_buf b = SB_BUF_INIT(1 << 20);
    sb_jw jw;
    sb_jw_init(&jw, (sb_sink){to_buf, &b}, false);
    char type[96];
    snprintf(type, sizeof type, "urn:sbomd:problem:%s", row->slug);
    sb_jw_obj_begin(&jw);
    sb_jw_kstr(&jw, "type", type);
    sb_jw_kstr(&jw, "title", row->title);
    sb_jw_key(&jw, "status");
    sb_jw_int(&jw, row->status);
    const char *said = detail ? detail : (err ? err->msg : row->when);
    sb_jw_kstr(&jw, "detail", said);
    snprintf(r->reason, sizeof r->reason, "%.1023s", said); /* the log line says why too */
    char inst[80];
    snprintf(inst, sizeof inst, "urn:sbomd:request:%s", r->id);
    sb_jw_kstr(&jw, "instance", inst);
    if (err && err->line) {
        sb_jw_key(&jw, "line");
        sb_jw_int(&jw, err->line);
        sb_jw_key(&jw, "column");
        sb_jw_int(&jw, err->column);
    }
    if (choices && nchoices) {
        sb_jw_key(&jw, "choices");
        sb_jw_arr_begin(&jw);
        for (size_t i = 0; i < nchoices; i++)
            sb_jw_str(&jw, choices[i]);
        sb_jw_arr_end(&jw);
    }
    if (gate)
        put_violations(&jw, gate, unevaluated);
    sb_jw_obj_end(&jw);
    sb_buf_append(&b, "\n", 1);
    int rc;
    if (jw.status != SB_OK || NULL == b.data) {
        static const char fallback[] =
            "{\"type\":\"urn:sbomd:problem:out-of-memory\",\"title\":\"Out of "
            "memory\",\"status\":503}\n";
        rc = svc_req_send(r, 503, "application/problem+json", fallback, sizeof fallback - 1);
    } else {
        /* straight from the buffer (libmicrohttpd copies it): never through
         * the request's arena, whose meter refuses a request stopped for
         * memory, which would then go unanswered */
        rc = svc_req_send(r, row->status, "application/problem+json", b.data, b.len);
    }
    sb_buf_free(&b);
    return rc;
}

int svc_req_problem(svc_req *r, svc_ptype t, const char *detail, const char *const *choices, size_t nchoices)
{
    return problem(r, t, detail, NULL, choices, nchoices, NULL, 0);
}

void svc_req_gate_fired(svc_req *r, const char *slug)
{
    svc_metrics_gate(&r->srv->metrics, svc_metrics_gate_label(slug), 0);
}

int svc_req_gate(svc_req *r, const sb_gate *g, const char *detail)
{
    svc_req_gate_fired(r, g->slug);
    return problem(r, ptype_of_gate(g->slug), detail, NULL, NULL, 0, g, 0);
}

int svc_req_unevaluated(svc_req *r, const sb_gate *g, const char *detail)
{
    /* once per gate the request asked, however many steps it lacked */
    unsigned seen = 0;
    for (size_t i = 0; i < g->n; i++) {
        int l = svc_metrics_gate_label(g->items[i].rule);
        if (l >= 0 && !(seen & 1u << l)) {
            seen |= 1u << l;
            svc_metrics_gate(&r->srv->metrics, l, 1);
        }
    }
    svc_req_add_header(r, "Retry-After", "60"); /* an upstream's failure is usually brief */
    return problem(r, SVC_PT_GATE_UNEVALUATED, detail, NULL, NULL, 0, g, 1);
}

int svc_req_disabled(svc_req *r, const char *detail)
{
    return problem(r, SVC_PT_FEATURE_DISABLED, detail, NULL, NULL, 0, NULL, 0);
}

void svc_req_retry_after(svc_req *r)
{
    static const char *const secs[] = {"0", "1", "2", "3", "4", "5", "6", "7", "8", "9"};
    _Static_assert(SVC_BUDGET_RETRY_MAX < sizeof secs / sizeof secs[0], "every delay has its text");
    svc_req_add_header(r, "Retry-After", secs[svc_budget_retry_secs(r->acct.scope ^ r->srv->id_salt)]);
}

/* A request whose account refused memory (budget.h): whatever error that
 * surfaced as (an out-of-memory, a parser that could not grow), the answer
 * is the budget's, and the memory is returned when the request ends. */
static int stopped_for_memory(svc_req *r, unsigned why)
{
    svc_server *s = r->srv;
    atomic_fetch_add(&s->metrics.stopped_memory, 1);
    char detail[320];
    unsigned long long mib = 1ULL << 20;
    unsigned long long took = (atomic_load(&r->acct.wanted) + mib - 1) / mib;
    if (why == 413) {
        snprintf(detail, sizeof detail,
                 "reading and building this request took more memory than the server's whole memory budget "
                 "(%llu MiB; it asked for about %llu MiB when stopped); split the input or ask for a larger "
                 "--memory-budget",
                 s->budget.total / mib, took);
        return svc_req_problem(r, SVC_PT_MEMORY_EXCEEDED, detail, NULL, 0);
    }
    snprintf(detail, sizeof detail,
             "building this request needed more memory than sbomd's budget had free (it asked for about %llu MiB "
             "of %llu MiB when stopped; requests in flight hold the rest); retry shortly",
             took, s->budget.total / mib);
    svc_req_retry_after(r);
    return svc_req_problem(r, SVC_PT_MEMORY_BUSY, detail, NULL, 0);
}

int svc_req_error(svc_req *r, const sb_err *err, const char *const *choices, size_t nchoices)
{
    unsigned why = atomic_load(&r->acct.refused);
    if (why)
        return stopped_for_memory(r, why);
    return problem(r, ptype_for(err->code), err->msg, err, choices, nchoices, NULL, 0);
}

int svc_problem_err(svc_problem *p, const sb_err *err, const char *const *choices, size_t nchoices)
{
    memset(p, 0, sizeof *p);
    p->how = SVC_ANSWER_ERROR;
    p->err = *err;
    p->choices = choices;
    p->nchoices = nchoices;
    return 1;
}

int svc_problem_code(svc_problem *p, sb_code code, const char *fmt, ...)
{
    memset(p, 0, sizeof *p);
    p->how = SVC_ANSWER_ERROR;
    p->err.code = code;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(p->err.msg, sizeof p->err.msg, fmt, ap);
    va_end(ap);
    return 1;
}

int svc_problem_param(svc_problem *p, const char *name, const char *why)
{
    return svc_problem_code(p, SB_EINVAL, "query parameter '%s' %s", name, why);
}

int svc_problem_type(svc_problem *p, svc_ptype t, const char *detail, const char *const *choices, size_t nchoices)
{
    svc_problem_code(p, SB_EINVAL, "%s", detail ? detail : "");
    p->how = SVC_ANSWER_TYPE;
    p->type = t;
    p->choices = choices;
    p->nchoices = nchoices;
    return 1;
}

int svc_problem_gate(svc_problem *p, const sb_gate *g, const char *detail, int unevaluated)
{
    svc_problem_code(p, SB_EINVAL, "%s", detail ? detail : "");
    p->how = unevaluated ? SVC_ANSWER_UNEVALUATED : SVC_ANSWER_GATE;
    p->gate = *g;
    return 1;
}

int svc_problem_timeout(svc_problem *p)
{
    memset(p, 0, sizeof *p);
    p->how = SVC_ANSWER_TIMEOUT;
    p->err.code = SB_ETIMEOUT;
    return 1;
}

int svc_bad_param(svc_req *r, const char *name, const char *why)
{
    svc_problem p;
    svc_problem_param(&p, name, why);
    return svc_req_error(r, &p.err, NULL, 0);
}

int svc_req_answer(svc_req *r, const svc_problem *p)
{
    switch (p->how) {
    case SVC_ANSWER_TYPE: return svc_req_problem(r, p->type, p->err.msg, p->choices, p->nchoices);
    case SVC_ANSWER_GATE: return svc_req_gate(r, &p->gate, p->err.msg);
    case SVC_ANSWER_UNEVALUATED: return svc_req_unevaluated(r, &p->gate, p->err.msg);
    case SVC_ANSWER_TIMEOUT: return svc_req_timeout(r);
    case SVC_ANSWER_ERROR: break;
    }
    return svc_req_error(r, &p->err, p->choices, p->nchoices);
}

int svc_req_timeout(svc_req *r)
{
    char detail[128];
    snprintf(detail, sizeof detail, "the document could not be started within the %ld-second request deadline",
             r->srv->cfg.request_timeout);
    r->timed_out = 1;
    return svc_req_problem(r, SVC_PT_TIMEOUT, detail, NULL, 0);
}
