/*
 * server.c - libmicrohttpd daemon and the request lifecycle.
 *
 * DESIGN (three-phase access handler, libmicrohttpd largepost.c pattern):
 *  1. headers only: create the svc_req (arena, id, clock), route it; a
 *     declared Content-Length over the limit is answered 413 right away (MHD
 *     then closes the connection instead of reading the body).
 *  2. body data: appended to a capped sb_buf; past the cap the rest is
 *     drained and dropped and the answer will be 413.
 *  3. final call: the handler runs and queues its answer.
 * NOTIFY_COMPLETED logs the request and frees everything it owned (arena,
 * body, document), whatever way the request ended.
 */
#include "server.h"
#include "admission.h"
#include "decode.h"
#include "../cgroup.h"
#include "guard.h"
#include "../log.h"
#include "request_int.h"
#include "rcache.h"
#include "../../core/alloc.h"

#include <microhttpd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/random.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <errno.h>
#include <stdarg.h>
#include <unistd.h>

static void make_id(svc_req *r, svc_server *s)
{
    const char *given = MHD_lookup_connection_value(r->conn, MHD_HEADER_KIND, "X-Request-Id");
    if (given) {
        size_t n = strlen(given);
        int ok = n > 0 && n < sizeof r->id;
        for (size_t i = 0; ok && i < n; i++) {
            char c = given[i];
            ok = (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '-' || c == '_' ||
                 c == '.';
        }
        if (ok) {
            memcpy(r->id, given, n + 1);
            return;
        }
    }
    unsigned long long n = atomic_fetch_add(&s->next_id, 1);
    snprintf(r->id, sizeof r->id, "%012llx-%08llx", s->id_salt & 0xffffffffffffULL, n);
}

static svc_req *req_new(svc_server *s, struct MHD_Connection *conn, const char *method, const char *url)
{
    svc_req *r = calloc(1, sizeof *r);
    if (NULL == r)
        return NULL;
    r->arena = sb_arena_new(0);
    if (NULL == r->arena) {
        free(r);
        return NULL;
    }
    atomic_init(&r->charged, 0);
    svc_account_init(&r->acct, &s->budget, &r->charged, atomic_fetch_add(&s->next_scope, 1) + 1);
    /* the arena is metered once the route is known to take a body
     * (svc_admit_meter): probes, metrics and the other small answers never
     * depend on the budget */
    r->conn = conn;
    r->srv = s;
    r->packages = -1;
    svc_query_init(&r->query);
    clock_gettime(CLOCK_MONOTONIC, &r->start);
    r->acct.deadline_ns = (long long)r->start.tv_sec * 1000000000LL + r->start.tv_nsec +
                          (long long)s->cfg.request_timeout * 1000000000LL;
    r->wall = time(NULL);
    r->method = sb_arena_strdup(r->arena, method);
    r->path = sb_arena_strdup(r->arena, url);
    sb_buf_init(&r->body, (size_t)s->cfg.max_body);
    make_id(r, s);
    return r;
}

/* A request that held this much gives it back to the system when it ends;
 * smaller ones leave it to the allocator's caches. */
#define RELEASE_AFTER ((size_t)16 << 20)
/* ... and one that held this much when it leaves the server idle
 * (svc_req__release_idle) */
#define RELEASE_IDLE ((size_t)1 << 20)

/* The guard's sweeper, every quarter second: a release req_free put off
 * (svc_req__release_idle's once-a-second rule) is made once the server is
 * idle. On the sweeper's thread, which has no mimalloc heap of its own,
 * only malloc_trim does work there: it returns the free pages of every
 * glibc malloc arena (where libyaml, jansson and libcurl allocate), not
 * mimalloc's, which stay with the pool threads' heaps until those threads
 * next run. */
static void release_owed(void *cls)
{
    svc_server *s = cls;
    if (0 == atomic_load(&s->in_flight))
        svc_req__release_owed();
}

static void req_free(svc_req *r)
{
    for (size_t i = 0; i < sizeof r->on_done / sizeof r->on_done[0]; i++)
        if (r->on_done[i])
            r->on_done[i](r->on_done_cls[i]);
    size_t held = sb_arena_used(r->arena) + r->body.alloc;
    if (held < atomic_load(&r->acct.peak))
        held = (size_t)atomic_load(&r->acct.peak);        /* JSON trees count: they were as big */
    int released = r->body.alloc >= SVC_BODY_RELEASE_MIN; /* by svc_req_drop_body below */
    sb_doc_free(r->doc);
    svc_rentry_release(r->hit);
    sb_buf_free(&r->capture);
    sb_arena_destroy(r->arena);
    svc_req_drop_body(r); /* a large body's release takes what was freed above too */
    if (!released && held >= RELEASE_AFTER)
        svc_req__release_now();
    else if (!released && held >= RELEASE_IDLE && 0 == atomic_load(&r->srv->in_flight))
        svc_req__release_idle();
    /* last: while the allocator still kept this request's pages, another
     * request given its charge would put the process past the budget (the
     * allocator's decommit delay; four stopped requests at once measured
     * 193 MB against a 150 MiB budget before) */
    svc_account_done(&r->acct);
    svc_budget_release(&r->srv->budget, r->charged + atomic_load(&r->acct.granted));
    free(r);
}

/* Whether the upload outlived the deadline or trickles below the minimum
 * rate; the reason goes to detail. */
static int upload_too_slow(svc_req *r, char *detail, size_t cap)
{
    svc_server *s = r->srv;
    double t = svc_req__elapsed(r);
    if (t > (double)s->cfg.request_timeout)
        snprintf(detail, cap, "the request was not received within the %ld-second request deadline",
                 s->cfg.request_timeout);
    else if (s->cfg.min_upload_rate > 0 && t > (double)s->cfg.upload_grace &&
             (double)r->bytes_in / t < (double)s->cfg.min_upload_rate)
        snprintf(detail, cap, "the upload averaged %.0f bytes/s, below the server's minimum of %ld",
                 (double)r->bytes_in / t, s->cfg.min_upload_rate);
    else
        return 0;
    r->timed_out = 1;
    atomic_fetch_add(&s->metrics.timeouts, 1);
    return 1;
}

static int charge_inflated(void *ctx, size_t len)
{
    svc_req *r = ctx;
    return svc_admit_body(r, (uint64_t)r->body.len + len);
}

/* Replace a coded body by its inflated bytes. 0 when the body is ready,
 * 1 when an answer was sent instead, -1 when sending it failed. */
static int decode_body(svc_req *r)
{
    const char *coding = svc_req_header(r, "Content-Encoding");
    char why[160], detail[256];
    sb_buf out;
    svc_decode_rc rc = svc_decode_body(coding, &r->body, (size_t)r->srv->cfg.max_body, &out, charge_inflated, r, why,
                                       sizeof why);
    sb_buf_free(&r->body);
    if (rc == SVC_DECODE_OK) {
        r->body = out;
        return 0;
    }
    sb_buf_free(&out);
    int sent;
    switch (rc) {
    case SVC_DECODE_UNKNOWN:
        svc_req_add_header(r, "Accept-Encoding", "gzip, deflate, zstd");
        sent = svc_req_problem(r, SVC_PT_UNSUPPORTED_ENCODING, why, NULL, 0);
        break;
    case SVC_DECODE_CORRUPT:
        snprintf(detail, sizeof detail, "the %.20s request body cannot be decoded: %s", coding, why);
        sent = svc_req_problem(r, SVC_PT_UNDECODABLE_BODY, detail, NULL, 0);
        break;
    case SVC_DECODE_TOO_BIG:
        snprintf(detail, sizeof detail, "the request body inflates past %ld bytes (max-body)", r->srv->cfg.max_body);
        sent = svc_req_problem(r, SVC_PT_BODY_TOO_LARGE, detail, NULL, 0);
        break;
    case SVC_DECODE_REFUSED: sent = svc_admit_refuse(r); break;
    default:
        sent = svc_req_problem(r, SVC_PT_OUT_OF_MEMORY, "out of memory inflating the request body", NULL, 0);
        break;
    }
    return sent == 0 ? 1 : -1;
}

static int dispatch(svc_req *r)
{
    svc_server *s = r->srv;
    char why[160];
    if (upload_too_slow(r, why, sizeof why)) {
        sb_buf_free(&r->body);
        return svc_req_problem(r, SVC_PT_UPLOAD_STALLED, why, NULL, 0);
    }
    if (r->over_budget)
        return svc_admit_refuse(r);
    if (r->too_large) {
        /* in the unit the operator set it in, with the setting's name: a
         * client cannot guess that 67108864 is the server's --max-body */
        char detail[320], size[64]; /* two longs in digits fit */
        long mb = s->cfg.max_body;
        if (mb >= 1L << 20 && mb % (1L << 20) == 0)
            snprintf(size, sizeof size, "%ld MiB (%ld bytes)", mb >> 20, mb);
        else if (mb >= 1000000 && mb % 1000000 == 0)
            snprintf(size, sizeof size, "%ld MB (%ld bytes)", mb / 1000000, mb);
        else if (mb >= 1L << 10 && mb % (1L << 10) == 0)
            snprintf(size, sizeof size, "%ld KiB (%ld bytes)", mb >> 10, mb);
        else
            snprintf(size, sizeof size, "%ld bytes", mb);
        snprintf(detail, sizeof detail,
                 "the request body is larger than the server's limit of %s, its max-body setting "
                 "(--max-body, SBOMD_MAX_BODY): split the input, or ask the operator to raise it",
                 size);
        return svc_req_problem(r, SVC_PT_BODY_TOO_LARGE, detail, NULL, 0);
    }
    if (NULL == r->route) {
        int known = 0;
        svc_router_match(&s->router, r->method, r->path, &known);
        if (known) {
            char allowed[128];
            svc_router_allowed(&s->router, r->path, allowed, sizeof allowed);
            char *a = sb_arena_strdup(r->arena, allowed);
            svc_req_add_header(r, "Allow", a ? a : "");
            char detail[200];
            snprintf(detail, sizeof detail, "%.16s is not allowed here; allowed: %s", r->method, allowed);
            return svc_req_problem(r, SVC_PT_METHOD_NOT_ALLOWED, detail, NULL, 0);
        }
        const char *close = svc_router_closest(&s->router, r->path);
        char detail[160];
        snprintf(detail, sizeof detail, "no such endpoint%s%.64s%s", close ? " (did you mean " : "", close ? close : "",
                 close ? "?)" : "");
        return svc_req_problem(r, SVC_PT_NOT_FOUND, detail, NULL, 0);
    }
    if (r->route->wants_body && svc_decode_needed(svc_req_header(r, "Content-Encoding"))) {
        int st = decode_body(r);
        if (st)
            return st < 0 ? -1 : 0;
    }
    /* the query, parsed once for everything after: a bad one is answered here */
    sb_err qe;
    const char *const *choices = NULL;
    size_t nchoices = 0;
    if (r->route->query_ep && svc_req_parse_query(r, r->route->query_ep, &qe, &choices, &nchoices)) {
        svc_req_error(r, &qe, choices, nchoices);
        svc_query_init(&r->query); /* nothing half-parsed is read after the answer */
        return 0;
    }
    svc_account_enter(&r->acct); /* the JSON trees its code builds are the request's */
    int rc = r->route->fn(r);
    svc_account_enter(NULL);
    if (!r->responded) {
        /* a handler that neither answered nor failed loudly: never leave the client hanging */
        sb_err e;
        sb_err_set(&e, SB_EMISUSE, "the request could not be answered");
        return svc_req_error(r, &e, NULL, 0);
    }
    return rc;
}

/* The Origin to allow for this request under --cors-origins, or NULL. */
static const char *cors_origin(svc_req *r, const char *origin)
{
    const char *list = r->srv->cfg.cors_origins;
    if (!list[0] || NULL == origin || !origin[0])
        return NULL;
    size_t ol = strlen(origin);
    for (const char *p = list; *p;) {
        const char *end = strchr(p, ',');
        size_t n = end ? (size_t)(end - p) : strlen(p);
        while (n && *p == ' ')
            p++, n--;
        while (n && p[n - 1] == ' ')
            n--;
        if ((n == 1 && *p == '*') || (n == ol && !strncasecmp(p, origin, n)))
            return sb_arena_strdup(r->arena, origin);
        if (NULL == end)
            break;
        p = end + 1;
    }
    return NULL;
}

/* A CORS preflight: 204 with what a browser may send. */
static int preflight(svc_req *r)
{
    struct MHD_Response *resp = MHD_create_response_from_buffer(0, (void *)"", MHD_RESPMEM_PERSISTENT);
    if (NULL == resp)
        return -1;
    MHD_add_response_header(resp, "Access-Control-Allow-Methods", "GET, POST");
    MHD_add_response_header(resp, "Access-Control-Allow-Headers",
                            "Authorization, Content-Type, Content-Disposition, Accept, X-Request-Id");
    MHD_add_response_header(resp, "Access-Control-Max-Age", "600");
    return svc_req__queue(r, 204, resp);
}

typedef struct header_count {
    const char *name;
    int n;
} header_count;

static enum MHD_Result count_header(void *cls, enum MHD_ValueKind kind, const char *key, const char *value)
{
    (void)kind;
    (void)value;
    header_count *c = cls;
    if (key && !strcasecmp(key, c->name))
        c->n++;
    return MHD_YES;
}

static int header_times(struct MHD_Connection *conn, const char *name)
{
    header_count c = {name, 0};
    MHD_get_connection_values(conn, MHD_HEADER_KIND, count_header, &c);
    return c.n;
}

/* Why a request head is refused before anything else looks at it, or NULL.
 * Each is a shape where two parsers (a proxy in front, and us) could read
 * the same bytes as different requests (RFC 9112 6.1, 6.3, 3.2), or where
 * one header could be checked while another is acted on. */
static const char *head_defect(struct MHD_Connection *conn, const char *version)
{
    if (header_times(conn, MHD_HTTP_HEADER_CONTENT_LENGTH) > 1)
        return "the request has more than one Content-Length header";
    if (header_times(conn, MHD_HTTP_HEADER_TRANSFER_ENCODING) > 0 &&
        header_times(conn, MHD_HTTP_HEADER_CONTENT_LENGTH) > 0)
        return "the request has both Content-Length and Transfer-Encoding; send one";
    if (header_times(conn, MHD_HTTP_HEADER_AUTHORIZATION) > 1)
        return "the request has more than one Authorization header";
    if (version && !strcmp(version, MHD_HTTP_VERSION_1_1) && header_times(conn, MHD_HTTP_HEADER_HOST) != 1)
        return "an HTTP/1.1 request needs exactly one Host header";
    return NULL;
}

/* 400 and close: after a malformed head, where the next request begins on
 * this connection is not known, so nothing more is read from it. */
static int refuse_head(svc_req *r, const char *why)
{
    svc_req_add_header(r, MHD_HTTP_HEADER_CONNECTION, "close");
    return svc_req_problem(r, SVC_PT_MALFORMED_REQUEST, why, NULL, 0);
}

/* What the probe listener serves: liveness, readiness and the counters,
 * all answered from memory without a body or a worker's time. */
static int probe_path(const char *url)
{
    return !strcmp(url, "/healthz") || !strcmp(url, "/readyz") || !strcmp(url, "/metrics");
}

static enum MHD_Result on_request(void *cls, struct MHD_Connection *conn, const char *url, const char *method,
                                  const char *version, const char *upload_data, size_t *upload_data_size,
                                  void **req_cls)
{
    svc_listener *l = cls;
    svc_server *s = l->srv;
    svc_req *r = *req_cls;
    if (NULL == r) {
        svc_guard_head_done(l->guard, conn);
        r = req_new(s, conn, method, url);
        if (NULL == r)
            return MHD_NO;
        *req_cls = r;
        long now_in = atomic_fetch_add(&s->in_flight, 1) + 1;
        int known;
        r->route = svc_router_match(&s->router, method, url, &known);
        const char *defect = head_defect(conn, version);
        if (defect)
            return refuse_head(r, defect) == 0 ? MHD_YES : MHD_NO;
        if (l->probe && !probe_path(url))
            return svc_req_problem(r, SVC_PT_NOT_FOUND, "the probe listener serves only /healthz, /readyz and /metrics",
                                   NULL, 0) == 0
                       ? MHD_YES
                       : MHD_NO;
        if (!l->probe && !s->cfg.metrics_on_main && !strcmp(url, "/metrics"))
            return svc_req_problem(r, SVC_PT_NOT_FOUND,
                                   "/metrics is served on the probe listener only (metrics-on-main=0)", NULL, 0) == 0
                       ? MHD_YES
                       : MHD_NO;
        r->cors_origin = cors_origin(r, MHD_lookup_connection_value(conn, MHD_HEADER_KIND, "Origin"));
        /* a preflight carries no credentials: answer it before auth */
        if (r->cors_origin && !strcmp(method, "OPTIONS") &&
            MHD_lookup_connection_value(conn, MHD_HEADER_KIND, "Access-Control-Request-Method") && known)
            return preflight(r) == 0 ? MHD_YES : MHD_NO;
        /* a kubelet sends no token: on the probe listener the probes are open */
        int probe_open = l->probe && strcmp(url, "/metrics");
        if (s->auth.enabled && !probe_open && !svc_auth_is_open(&s->auth, url)) {
            int ok = svc_auth_check(&s->auth,
                                    MHD_lookup_connection_value(conn, MHD_HEADER_KIND, MHD_HTTP_HEADER_AUTHORIZATION));
            if (ok != 1) {
                atomic_fetch_add(&s->metrics.auth_failures, 1);
                svc_req_add_header(r, "WWW-Authenticate",
                                   ok < 0 ? "Bearer realm=\"sbomd\", error=\"invalid_token\""
                                          : "Bearer realm=\"sbomd\"");
                return svc_req_problem(r, SVC_PT_UNAUTHORIZED,
                                       ok < 0 ? "the bearer token is not one this server accepts"
                                              : "this endpoint needs an Authorization: Bearer <token> header",
                                       NULL, 0) == 0
                           ? MHD_YES
                           : MHD_NO;
            }
        }
        /* probes and metrics are never refused: a busy replica is not a dead one */
        if (now_in > s->cfg.max_requests && r->route && r->route->wants_body) {
            atomic_fetch_add(&s->metrics.rejected_busy, 1);
            svc_req_add_header(r, "Retry-After", "1");
            return svc_req_problem(r, SVC_PT_BUSY, "sbomd is at its concurrent request limit; retry shortly", NULL,
                                   0) == 0
                       ? MHD_YES
                       : MHD_NO;
        }
        if (r->route && r->route->wants_body && svc_admit_meter(r) != 0)
            return svc_admit_refuse(r) == 0 ? MHD_YES : MHD_NO;
        const char *cl = MHD_lookup_connection_value(conn, MHD_HEADER_KIND, MHD_HTTP_HEADER_CONTENT_LENGTH);
        if (cl) {
            char *end;
            unsigned long long n = strtoull(cl, &end, 10);
            if (*end == '\0' && n > (unsigned long long)s->cfg.max_body) {
                r->too_large = 1;
                return dispatch(r) == 0 ? MHD_YES : MHD_NO;
            }
            /* the whole declared body at once, before a byte of it is read */
            if (*end == '\0' && n > 0 && r->route && r->route->wants_body && svc_admit_body(r, n) != 0)
                return svc_admit_refuse(r) == 0 ? MHD_YES : MHD_NO;
            /* the declared size at once: growing by doubling would copy the
             * body repeatedly and leave up to twice its size allocated. Not
             * past 32 MiB on a client's word alone: beyond, it grows as it arrives. */
            if (*end == '\0' && n > 0 && n <= (32ull << 20) && r->route && r->route->wants_body)
                sb_buf_expect(&r->body, (size_t)n);
        }
        return MHD_YES;
    }
    if (*upload_data_size) {
        r->bytes_in += *upload_data_size;
        char why[160];
        if (!r->responded && upload_too_slow(r, why, sizeof why)) {
            /* libmicrohttpd queues no answer mid-body: drop the connection, so a
             * trickling client holds neither a thread's time nor its memory */
            svc_log_warn("upload dropped", why);
            r->status = 408;
            r->dropped = 1;
            return MHD_NO;
        }
        if (!r->too_large && !r->responded) {
            if (r->over_budget) {
                /* drained: the 503 goes out once the body is over */
            } else if (r->route && r->route->wants_body && svc_admit_body(r, r->body.len + *upload_data_size) != 0) {
                /* a chunked body grew past what the budget holds: drop it */
                r->over_budget = 1;
                sb_buf_free(&r->body);
                svc_budget_release(&s->budget, r->charged);
                r->charged = 0;
            } else if (r->route && r->route->wants_body) {
                sb_code rc = sb_buf_append(&r->body, upload_data, *upload_data_size);
                if (rc == SB_ELIMIT) {
                    r->too_large = 1;
                    sb_buf_free(&r->body);
                } else if (rc != SB_OK) {
                    return MHD_NO;
                }
            } else if (r->bytes_in > (uint64_t)s->cfg.max_body) {
                r->too_large = 1;
            }
        }
        *upload_data_size = 0;
        return MHD_YES;
    }
    if (r->responded)
        return MHD_YES;
    return dispatch(r) == 0 ? MHD_YES : MHD_NO;
}

static void on_completed(void *cls, struct MHD_Connection *conn, void **req_cls, enum MHD_RequestTerminationCode toe)
{
    svc_listener *l = cls;
    svc_server *s = l->srv;
    svc_guard_head_wait(l->guard, conn);
    svc_req *r = *req_cls;
    if (NULL == r)
        return;
    *req_cls = NULL;
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    double ms = (double)(now.tv_sec - r->start.tv_sec) * 1e3 + (double)(now.tv_nsec - r->start.tv_nsec) / 1e6;
    /* an answer that did not go out whole: the server's doing when the
     * producer or the deadline cut it (stream_failed already set) or the
     * daemon stopped; otherwise the client went (closed, reset, stopped
     * reading), which is no failure of ours and is counted apart */
    int client_left = 0;
    if (toe != MHD_REQUEST_TERMINATED_COMPLETED_OK && r->responded && !r->stream_failed) {
        if (toe == MHD_REQUEST_TERMINATED_DAEMON_SHUTDOWN)
            r->stream_failed = r->doc != NULL;
        else
            client_left = 1;
    }
    if (client_left)
        atomic_fetch_add(&s->metrics.client_disconnects, 1);
    if (r->timed_out && r->status != 408)
        atomic_fetch_add(&s->metrics.timeouts, 1);
    /* an upload that stopped sending altogether never reaches the rate
     * check (it runs as bytes arrive): libmicrohttpd closes the idle
     * connection after --conn-timeout with nothing answered. It is a
     * timeout like a trickle, counted and logged with its reason. */
    if (toe == MHD_REQUEST_TERMINATED_TIMEOUT_REACHED && !r->responded && !r->timed_out) {
        r->timed_out = 1;
        atomic_fetch_add(&s->metrics.timeouts, 1);
        snprintf(r->reason, sizeof r->reason,
                 "the upload stalled: no byte for %ld s (conn-timeout) after %llu byte(s) of the body; the connection "
                 "was closed without an answer",
                 s->cfg.conn_timeout, (unsigned long long)r->bytes_in);
    }
    if (!s->cfg.quiet) {
        char client[64] = "";
        const union MHD_ConnectionInfo *ci = MHD_get_connection_info(conn, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
        if (ci && ci->client_addr && ci->client_addr->sa_family == AF_INET) {
            const struct sockaddr_in *sin = (const struct sockaddr_in *)ci->client_addr;
            const unsigned char *b = (const unsigned char *)&sin->sin_addr;
            snprintf(client, sizeof client, "%u.%u.%u.%u", b[0], b[1], b[2], b[3]);
        }
        svc_log_entry e = {r->id,
                           r->method,
                           r->path,
                           r->format,
                           client[0] ? client : NULL,
                           r->responded || r->dropped ? r->status : 0,
                           r->packages,
                           r->bytes_in,
                           r->bytes_out,
                           ms,
                           r->stream_failed,
                           client_left,
                           r->reason,
                           r->incomplete};
        svc_log_request(&e);
    }
    unsigned slot = r->route ? (unsigned)(r->route - s->router.routes) : SVC_METRICS_ROUTES - 1;
    svc_metrics_request(&s->metrics, slot, r->responded || r->dropped ? r->status : 0, r->format, ms / 1e3, r->bytes_in,
                        r->bytes_out, r->packages, r->stream_failed, r->ndocs, r->kind);
    atomic_fetch_add(&s->requests, 1);
    atomic_fetch_sub(&s->in_flight, 1);
    req_free(r);
}

static void log_mhd(void *cls, const char *fmt, va_list ap)
{
    (void)cls;
    char msg[256];
    vsnprintf(msg, sizeof msg, fmt, ap);
    size_t n = strlen(msg);
    while (n && (msg[n - 1] == '\n' || msg[n - 1] == '\r'))
        msg[--n] = '\0';
    svc_log_event("libmicrohttpd", msg);
}

/* A PEM file, whole, NUL-terminated (libmicrohttpd takes them in memory). */
static sb_code read_pem(const char *path, char **out, sb_err *err)
{
    FILE *f = fopen(path, "rb");
    if (NULL == f)
        return sb_err_set(err, SB_EIO, "cannot read '%.200s'", path);
    sb_buf b = SB_BUF_INIT(1 << 20);
    char chunk[4096];
    size_t got;
    int rc = 0;
    while (rc == 0 && (got = fread(chunk, 1, sizeof chunk, f)) > 0)
        rc = sb_buf_append(&b, chunk, got) == SB_OK ? 0 : -1;
    fclose(f);
    if (rc || !b.len || sb_buf_append(&b, "", 1) != SB_OK) {
        sb_buf_free(&b);
        return sb_err_set(err, SB_EINVAL, "'%.200s' is empty or larger than 1 MiB", path);
    }
    *out = b.data;
    return SB_OK;
}

/* "ADDR port N", IPv6 in brackets, for messages about a listener. */
static void where(char *out, size_t n, const char *listen, long port)
{
    int v6 = strchr(listen, ':') && listen[0] != '[';
    snprintf(out, n, "%s%s%s port %ld", v6 ? "[" : "", listen, v6 ? "]" : "", port);
}

static long worker_threads(const svc_server *s)
{
    long threads = s->cfg.threads;
    if (threads <= 0) {
        /* the container's CPU quota, not the node's core count: a pod
         * limited to 2 CPUs on a 64-core node gets 2 workers, not 64 */
        threads = sysconf(_SC_NPROCESSORS_ONLN);
        long quota = svc_cgroup_cpus(SVC_CGROUP_ROOT, SVC_CGROUP_SELF);
        if (quota > 0 && quota < threads)
            threads = quota;
        if (threads < 1)
            threads = 1;
    }
    return threads;
}

/* Each connection's pool in libmicrohttpd: the request head, and one
 * record per query argument (some 60 bytes each, for as few as 2 bytes of
 * URL). At the default 32 KiB about 400 arguments filled it, and a head
 * that does not fit is never answered: the connection waited for the head
 * deadline. 128 KiB holds the head buffer's own limit in arguments of a
 * realistic size (every list at its 256 values); its pages are touched
 * only as a head needs them. */
#define SVC_CONN_POOL ((size_t)128 << 10)

/* The main daemon: on a fresh socket bound to `addr` (listen_fd < 0), or on
 * an already listening one (a TLS reload). NULL with errno as MHD left it. */
static struct MHD_Daemon *start_main(svc_server *s, const struct sockaddr_storage *addr, int family, int listen_fd,
                                     const char *cert_pem, const char *key_pem)
{
    unsigned flags = MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_EPOLL | MHD_USE_ITC | MHD_USE_ERROR_LOG;
    if (family == AF_INET6 && listen_fd < 0) {
        /* the unspecified address "::" also takes IPv4 (dual stack); a
         * specific IPv6 address only its own family */
        const struct in6_addr any = IN6ADDR_ANY_INIT;
        int is_any = !memcmp(&((const struct sockaddr_in6 *)addr)->sin6_addr, &any, sizeof any);
        flags |= is_any ? MHD_USE_DUAL_STACK : MHD_USE_IPv6;
    }
    struct MHD_OptionItem extra[4] = {{MHD_OPTION_END, 0, NULL},
                                      {MHD_OPTION_END, 0, NULL},
                                      {MHD_OPTION_END, 0, NULL},
                                      {MHD_OPTION_END, 0, NULL}};
    int k = 0;
    if (cert_pem) {
        flags |= MHD_USE_TLS;
        extra[k++] = (struct MHD_OptionItem){MHD_OPTION_HTTPS_MEM_CERT, 0, (void *)cert_pem};
        extra[k++] = (struct MHD_OptionItem){MHD_OPTION_HTTPS_MEM_KEY, 0, (void *)key_pem};
    }
    if (listen_fd >= 0)
        extra[k++] = (struct MHD_OptionItem){MHD_OPTION_LISTEN_SOCKET, listen_fd, NULL};
    else
        extra[k++] = (struct MHD_OptionItem){MHD_OPTION_SOCK_ADDR, 0, (void *)addr};
    errno = 0;
    return MHD_start_daemon(flags, 0, NULL, NULL, on_request, &s->main_l, MHD_OPTION_EXTERNAL_LOGGER, log_mhd, NULL,
                            MHD_OPTION_THREAD_POOL_SIZE, (unsigned)worker_threads(s), MHD_OPTION_CONNECTION_LIMIT,
                            (unsigned)s->cfg.max_connections, MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)SVC_CONN_POOL,
                            MHD_OPTION_CONNECTION_TIMEOUT, (unsigned)s->cfg.conn_timeout, MHD_OPTION_NOTIFY_COMPLETED,
                            on_completed, &s->main_l, MHD_OPTION_NOTIFY_CONNECTION, svc_guard_notify, s->main_l.guard,
                            MHD_OPTION_PER_IP_CONNECTION_LIMIT, (unsigned)s->cfg.max_connections_per_ip,
                            MHD_OPTION_ARRAY, extra, MHD_OPTION_END);
}

/* The probe listener's budget: a kubelet opens one connection per probe and
 * closes it, so a few slots are plenty; a head must arrive within 5 s and
 * an idle connection goes after 5 s, so a client trickling into this port
 * too (it should not be reachable from outside the pod network) holds its
 * slots only briefly. One thread: every probe route answers from memory. */
#define PROBE_CONNECTIONS 32
#define PROBE_TIMEOUT 5

static sb_code start_probe(svc_server *s, sb_err *err)
{
    const char *addr_s = s->cfg.probe_listen[0] ? s->cfg.probe_listen : s->cfg.listen;
    struct sockaddr_storage addr;
    int family;
    if (svc_listen_parse(addr_s, s->cfg.probe_port, &addr, &family, err) != SB_OK)
        return err->code;
    unsigned flags = MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_EPOLL | MHD_USE_ITC | MHD_USE_ERROR_LOG;
    if (family == AF_INET6) {
        const struct in6_addr any = IN6ADDR_ANY_INIT;
        int is_any = !memcmp(&((struct sockaddr_in6 *)&addr)->sin6_addr, &any, sizeof any);
        flags |= is_any ? MHD_USE_DUAL_STACK : MHD_USE_IPv6;
    }
    long head = s->cfg.head_timeout < PROBE_TIMEOUT ? s->cfg.head_timeout : PROBE_TIMEOUT;
    s->probe_l = (svc_listener){s, NULL, 1};
    s->probe_l.guard = svc_guard_start(head, &s->metrics.head_timeouts, err);
    if (NULL == s->probe_l.guard)
        return err->code;
    errno = 0;
    s->probe = MHD_start_daemon(flags, 0, NULL, NULL, on_request, &s->probe_l, MHD_OPTION_EXTERNAL_LOGGER, log_mhd,
                                NULL, MHD_OPTION_SOCK_ADDR, (struct sockaddr *)&addr, MHD_OPTION_CONNECTION_LIMIT,
                                (unsigned)PROBE_CONNECTIONS, MHD_OPTION_CONNECTION_TIMEOUT, (unsigned)PROBE_TIMEOUT,
                                MHD_OPTION_NOTIFY_COMPLETED, on_completed, &s->probe_l, MHD_OPTION_NOTIFY_CONNECTION,
                                svc_guard_notify, s->probe_l.guard, MHD_OPTION_END);
    if (NULL == s->probe) {
        int e = errno;
        char w[128];
        where(w, sizeof w, addr_s, s->cfg.probe_port);
        svc_guard_stop(s->probe_l.guard);
        s->probe_l.guard = NULL;
        return sb_err_set(err, SB_EIO, "cannot listen for probes on %s%s%s%s", w, e ? ": " : "", e ? strerror(e) : "",
                          e == EADDRINUSE ? " (another process holds it: choose another with --probe-port or "
                                            "SBOMD_PROBE_PORT)"
                                          : "");
    }
    return SB_OK;
}

sb_code svc_server_start(svc_server *s, sb_err *err)
{
    struct sockaddr_storage addr;
    int family;
    if (svc_listen_parse(s->cfg.listen, s->cfg.port, &addr, &family, err) != SB_OK)
        return err->code;
    unsigned long long salt = 0;
    if (getrandom(&salt, sizeof salt, 0) != (ssize_t)sizeof salt)
        salt = (unsigned long long)getpid() * 2654435761ULL ^ (unsigned long long)time(NULL);
    s->id_salt = salt;
    atomic_store(&s->next_id, 1);
    atomic_store(&s->in_flight, 0);
    atomic_store(&s->requests, 0);
    atomic_store(&s->ready, 1);
    svc_budget_init(&s->budget, (unsigned long long)s->cfg.memory_budget);
    if (s->cfg.tls_cert[0]) {
        if (MHD_is_feature_supported(MHD_FEATURE_TLS) != MHD_YES)
            return sb_err_set(err, SB_EUNSUPPORTED,
                              "this libmicrohttpd was built without TLS; tls-cert cannot be used");
        if (read_pem(s->cfg.tls_cert, &s->tls_cert_pem, err) != SB_OK ||
            read_pem(s->cfg.tls_key, &s->tls_key_pem, err) != SB_OK)
            return err->code;
    }
    s->rcache = svc_rcache_new((size_t)s->cfg.result_cache_size, (size_t)s->cfg.result_cache_max_entry);
    if (NULL == s->rcache && s->cfg.result_cache_size > 0)
        return sb_err_set(err, SB_ENOMEM, "no memory for the result cache (result-cache-size %ld)",
                          s->cfg.result_cache_size);
    s->main_l = (svc_listener){s, NULL, 0};
    s->main_l.guard = svc_guard_start(s->cfg.head_timeout, &s->metrics.head_timeouts, err);
    if (NULL == s->main_l.guard)
        return err->code;
    svc_guard_on_sweep(s->main_l.guard, release_owed, s);
    s->mhd = start_main(s, &addr, family, -1, s->tls_cert_pem, s->tls_key_pem);
    if (NULL == s->mhd) {
        int e = errno;
        char w[128];
        where(w, sizeof w, s->cfg.listen, s->cfg.port);
        /* the first run of a newcomer often meets another server on 8080:
         * name the ways to pick another port, make run's included */
        sb_err_set(err, SB_EIO, "cannot listen on %s%s%s%s", w, e ? ": " : "", e ? strerror(e) : "",
                   e == EADDRINUSE ? " (another process holds it: choose another port with --port or "
                                     "SBOMD_PORT, or PORT= with make run, e.g. PORT=9000 make run)"
                                   : "");
        svc_server_stop(s);
        return err->code;
    }
    if (s->cfg.probe_port >= 0 && start_probe(s, err) != SB_OK) {
        svc_server_stop(s);
        return err->code;
    }
    return SB_OK;
}

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static void retire_stop(svc_retired *r)
{
    MHD_stop_daemon(r->mhd);
    free(r->cert_pem);
    free(r->key_pem);
    memset(r, 0, sizeof *r);
}

/* libmicrohttpd 0.9.75 reads the certificate and key once, when a daemon
 * starts (MHD_OPTION_HTTPS_MEM_CERT/KEY into its GnuTLS credentials), and
 * has no call to replace them in a running daemon; its per-handshake
 * callback (MHD_OPTION_HTTPS_CERT_CALLBACK) would mean linking GnuTLS and
 * building its certificate structures here. Instead a new daemon starts on
 * the very listening socket (MHD_OPTION_LISTEN_SOCKET, a dup(2) of it) with the new files,
 * which also proves they load; only then does the old daemon stop
 * accepting (MHD_quiesce_daemon). Both accept for a moment, no connection
 * is refused, and requests the old one holds finish on the old certificate. */
int svc_server_reload_tls(svc_server *s, sb_err *err)
{
    if (!s->cfg.tls_cert[0] || NULL == s->mhd)
        return 1;
    const union MHD_DaemonInfo *di = MHD_get_daemon_info(s->mhd, MHD_DAEMON_INFO_LISTEN_FD);
    if (NULL == di || di->listen_fd == MHD_INVALID_SOCKET)
        return sb_err_set(err, SB_EMISUSE, "the listener is closed (shutting down)");
    char *cert = NULL, *key = NULL;
    if (read_pem(s->cfg.tls_cert, &cert, err) != SB_OK || read_pem(s->cfg.tls_key, &key, err) != SB_OK) {
        free(cert);
        return err->code;
    }
    svc_retired *slot = NULL;
    for (int i = 0; i < SVC_RETIRED_MAX; i++)
        if (NULL == s->retired[i].mhd && NULL == slot)
            slot = &s->retired[i];
    if (NULL == slot) { /* reloads faster than requests end: the oldest goes now */
        slot = &s->retired[0];
        for (int i = 1; i < SVC_RETIRED_MAX; i++)
            if (s->retired[i].since < slot->since)
                slot = &s->retired[i];
        retire_stop(slot);
    }
    /* a duplicate: a daemon that fails to start closes the socket it was
     * given, which must not be the one the running daemon listens on */
    int fd = dup(di->listen_fd);
    struct MHD_Daemon *fresh = fd < 0 ? NULL : start_main(s, NULL, AF_UNSPEC, fd, cert, key);
    if (NULL == fresh) {
        free(cert);
        free(key);
        return sb_err_set(err, SB_EIO,
                          "'%.200s' and '%.200s' do not make a TLS listener (libmicrohttpd refused them; see its log "
                          "line)",
                          s->cfg.tls_cert, s->cfg.tls_key);
    }
    /* the new daemon listens on its duplicate; the old one's copy goes */
    MHD_socket old_fd = MHD_quiesce_daemon(s->mhd);
    if (old_fd != MHD_INVALID_SOCKET)
        close(old_fd);
    *slot = (svc_retired){s->mhd, s->tls_cert_pem, s->tls_key_pem, now_s()};
    s->mhd = fresh;
    s->tls_cert_pem = cert;
    s->tls_key_pem = key;
    return 0;
}

void svc_server_tick(svc_server *s)
{
    double now = now_s();
    for (int i = 0; i < SVC_RETIRED_MAX; i++) {
        svc_retired *r = &s->retired[i];
        if (NULL == r->mhd)
            continue;
        const union MHD_DaemonInfo *di = MHD_get_daemon_info(r->mhd, MHD_DAEMON_INFO_CURRENT_CONNECTIONS);
        int idle = di && di->num_connections == 0;
        if (idle || now - r->since > (double)s->cfg.request_timeout + (double)s->cfg.head_timeout)
            retire_stop(r);
    }
}

unsigned svc_server_port(const svc_server *s)
{
    const union MHD_DaemonInfo *di = MHD_get_daemon_info(s->mhd, MHD_DAEMON_INFO_BIND_PORT);
    return di ? di->port : 0;
}

unsigned svc_server_probe_port(const svc_server *s)
{
    if (NULL == s->probe)
        return 0;
    const union MHD_DaemonInfo *di = MHD_get_daemon_info(s->probe, MHD_DAEMON_INFO_BIND_PORT);
    return di ? di->port : 0;
}

/* The main listener only: the probe listener keeps answering (/readyz 503)
 * while requests drain. */
void svc_server_quiesce(svc_server *s)
{
    if (s->mhd) {
        MHD_socket fd = MHD_quiesce_daemon(s->mhd);
        if (fd != MHD_INVALID_SOCKET)
            close(fd);
    }
}

void svc_server_stop(svc_server *s)
{
    if (s->mhd)
        MHD_stop_daemon(s->mhd);
    s->mhd = NULL;
    for (int i = 0; i < SVC_RETIRED_MAX; i++)
        if (s->retired[i].mhd)
            retire_stop(&s->retired[i]);
    if (s->probe)
        MHD_stop_daemon(s->probe);
    s->probe = NULL;
    /* after the daemons: no more notifications */
    svc_guard_stop(s->main_l.guard);
    svc_guard_stop(s->probe_l.guard);
    s->main_l.guard = s->probe_l.guard = NULL;
    svc_rcache_free(s->rcache);
    s->rcache = NULL;
    free(s->tls_cert_pem);
    free(s->tls_key_pem);
    s->tls_cert_pem = s->tls_key_pem = NULL;
}
