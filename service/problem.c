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
#include "../core/gate.h"
#include "../core/jsonw.h"

#include <stdio.h>
#include <string.h>

static const struct {
    sb_code code;
    unsigned status;
    const char *slug;
} status_table[] = {
    {SB_EPARSE, 400, "malformed-input"},
    {SB_EINVAL, 400, "invalid-parameter"},
    {SB_ELIMIT, 413, "limit-exceeded"},
    {SB_EFORMAT, 415, "unsupported-media-type"},
    {SB_EUNSUPPORTED, 422, "unsupported-input"},
    {SB_ENOTFOUND, 422, "unknown-choice"},
    {SB_ENOMEM, 503, "out-of-memory"},
    {SB_EUPSTREAM, 502, "upstream-failed"},
    {SB_ETIMEOUT, 504, "timeout"},
    {SB_EIO, 500, "io-error"},
    {SB_EMISUSE, 500, "internal-error"},
};

unsigned svc_status_for(sb_code code)
{
    for (size_t i = 0; i < sizeof status_table / sizeof status_table[0]; i++)
        if (status_table[i].code == code)
            return status_table[i].status;
    return 500;
}

static const char *title_for(unsigned status)
{
    switch (status) {
    case 400: return "Bad Request";
    case 401: return "Unauthorized";
    case 404: return "Not Found";
    case 405: return "Method Not Allowed";
    case 406: return "Not Acceptable";
    case 408: return "Request Timeout";
    case 413: return "Content Too Large";
    case 415: return "Unsupported Media Type";
    case 422: return "Unprocessable Content";
    case 500: return "Internal Server Error";
    case 502: return "Bad Gateway";
    case 503: return "Service Unavailable";
    case 504: return "Gateway Timeout";
    }
    return "Error";
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
        sb_jw_obj_end(jw);
    }
    sb_jw_arr_end(jw);
    if (!unevaluated) {
        sb_jw_key(jw, "violationCount");
        sb_jw_int(jw, (long long)g->n);
    }
}

static int problem(svc_req *r, unsigned status, const char *title, const char *detail, const sb_err *err,
                   const char *const *choices, size_t nchoices, const sb_gate *gate, int unevaluated,
                   const char *type_slug)
{
    sb_buf b = SB_BUF_INIT(1 << 20);
    sb_jw jw;
    sb_jw_init(&jw, (sb_sink){to_buf, &b}, false);
    const char *slug = type_slug ? type_slug : gate ? gate->slug : "error";
    if (err)
        for (size_t i = 0; i < sizeof status_table / sizeof status_table[0]; i++)
            if (status_table[i].code == err->code)
                slug = status_table[i].slug;
    if (!err && !gate && !type_slug) {
        switch (status) {
        case 404: slug = "not-found"; break;
        case 405: slug = "method-not-allowed"; break;
        case 406: slug = "not-acceptable"; break;
        case 413: slug = "limit-exceeded"; break;
        default: break;
        }
    }
    char type[96];
    snprintf(type, sizeof type, "urn:sbomd:problem:%s", slug);
    sb_jw_obj_begin(&jw);
    sb_jw_kstr(&jw, "type", type);
    sb_jw_kstr(&jw, "title", title ? title : title_for(status));
    sb_jw_key(&jw, "status");
    sb_jw_int(&jw, status);
    const char *said = detail ? detail : (err ? err->msg : title_for(status));
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
        static const char fallback[] = "{\"type\":\"about:blank\",\"status\":500}\n";
        rc = svc_req_send(r, 500, "application/problem+json", fallback, sizeof fallback - 1);
    } else {
        char *body = sb_arena_strndup(r->arena, b.data, b.len);
        rc = body ? svc_req_send(r, status, "application/problem+json", body, b.len) : -1;
    }
    sb_buf_free(&b);
    return rc;
}

int svc_req_problem(svc_req *r, unsigned status, const char *title, const char *detail, const sb_err *err,
                    const char *const *choices, size_t nchoices)
{
    return problem(r, status, title, detail, err, choices, nchoices, NULL, 0, NULL);
}

int svc_req_gate(svc_req *r, const sb_gate *g, const char *detail)
{
    return problem(r, 422, g->title, detail, NULL, NULL, 0, g, 0, NULL);
}

int svc_req_unevaluated(svc_req *r, const sb_gate *g, const char *detail)
{
    svc_req_add_header(r, "Retry-After", "60"); /* an upstream's failure is usually brief */
    return problem(r, 503, g->title, detail, NULL, NULL, 0, g, 1, NULL);
}

int svc_req_disabled(svc_req *r, const char *detail)
{
    return problem(r, 400, "Feature disabled on this server", detail, NULL, NULL, 0, NULL, 0, "feature-disabled");
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
        return svc_req_problem(r, 413, NULL, detail, NULL, NULL, 0);
    }
    snprintf(detail, sizeof detail,
             "building this request needed more memory than sbomd's budget had free (it asked for about %llu MiB "
             "of %llu MiB when stopped; requests in flight hold the rest); retry shortly",
             took, s->budget.total / mib);
    svc_req_add_header(r, "Retry-After", "2");
    return svc_req_problem(r, 503, NULL, detail, NULL, NULL, 0);
}

int svc_req_error(svc_req *r, const sb_err *err, const char *const *choices, size_t nchoices)
{
    unsigned why = atomic_load(&r->acct.refused);
    if (why)
        return stopped_for_memory(r, why);
    unsigned status = svc_status_for(err->code);
    return svc_req_problem(r, status, NULL, err->msg, err, choices, nchoices);
}

int svc_req_timeout(svc_req *r)
{
    char detail[128];
    snprintf(detail, sizeof detail, "the document could not be started within the %ld-second request deadline",
             r->srv->cfg.request_timeout);
    r->timed_out = 1;
    return svc_req_problem(r, 504, NULL, detail, NULL, NULL, 0);
}
