/*
 * request.c - the handler-facing request API over libmicrohttpd: what a
 * request is (method, path, id, query, headers, body, clock, arena), the
 * headers it adds, whole answers (svc_req_send, svc_req_send_asset) and the
 * metrics text. Streaming a document is stream.c's, the result cache and
 * conditional requests repeat.c's, pricing against the budget admission.c's.
 *
 * It writes no problem documents: problem.c does, over svc_req_send, and a
 * query svc_req_parse_query refuses is answered by the dispatch
 * (server.c), so this file never calls the problem writer.
 */
#include "request_int.h"
#include "../params.h"
#include "../../core/report.h"
#include "../lookup/mapsrc.h"
#include "../../core/deadline.h"

#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <strings.h>
#include <stdlib.h>
#include <string.h>
#include "../../core/alloc.h"

const char *svc_req_method(const svc_req *r)
{
    return r->method;
}
const char *svc_req_path(const svc_req *r)
{
    return r->path;
}
sb_arena *svc_req_arena(svc_req *r)
{
    return r->arena;
}
/* sb_alloc_release_now sets the allocator's decommit delay to 0 and back, a
 * process-wide option: two requests doing it at once could interleave so
 * the second restores the first's 0 for good, and every later free would
 * decommit (twice the CPU per request, measured). One at a time. */
static pthread_mutex_t release_lock = PTHREAD_MUTEX_INITIALIZER;

void svc_req__release_now(void)
{
    pthread_mutex_lock(&release_lock);
    sb_alloc_release_now();
    pthread_mutex_unlock(&release_lock);
}

/* The server fell idle after a request that held at least a megabyte: the
 * allocator keeps such a request's freed pages on the thread that freed
 * them until that thread allocates again, and an idle server's threads do
 * not, so without this a burst's pages stayed resident (+16 to +28 MiB 10 s
 * after a burst of 100 mixed requests). At most once a second: a client
 * posting large lockfiles back to back idles the server between every two,
 * and returning the pages each time made the next request fault them in
 * again (+17% on the median 2.4 MB pixi.lock, measured). */
#define RELEASE_IDLE_EVERY_NS 1000000000LL

static _Atomic long long release_last; /* when the last idle release began */
static atomic_int release_owed;        /* one was put off */

void svc_req__release_idle_at(long long now)
{
    long long was = atomic_load(&release_last);
    if (now - was >= RELEASE_IDLE_EVERY_NS && atomic_compare_exchange_strong(&release_last, &was, now)) {
        atomic_store(&release_owed, 0);
        svc_req__release_now();
    } else {
        atomic_store(&release_owed, 1);
    }
}

void svc_req__release_idle(void)
{
    svc_req__release_idle_at(sb_deadline_now_ns());
}

void svc_req__release_owed_at(long long now)
{
    if (atomic_load(&release_owed))
        svc_req__release_idle_at(now);
}

void svc_req__release_owed(void)
{
    svc_req__release_owed_at(sb_deadline_now_ns());
}

int svc_req__release_pending(void)
{
    return atomic_load(&release_owed);
}

void svc_req_drop_body(svc_req *r)
{
    size_t had = r->body.alloc;
    sb_buf_free(&r->body);
    if (had >= SVC_BODY_RELEASE_MIN)
        svc_req__release_now();
}
const svc_cfg *svc_req_cfg(const svc_req *r)
{
    return &r->srv->cfg;
}
const char *svc_req_id(const svc_req *r)
{
    return r->id;
}

void svc_req_incomplete(svc_req *r, const char *steps)
{
    const char *v = sb_arena_strdup(r->arena, steps);
    if (NULL == v)
        return;
    r->incomplete = v;
    svc_req_add_header(r, "Sbomd-Incomplete", v);
}

const sb_report_kind *svc_req_report(const svc_req *r)
{
    return r->route ? r->route->report : NULL;
}

const svc_query *svc_req_q(const svc_req *r)
{
    return &r->query;
}

static void *query_alloc(void *cls, size_t n)
{
    return sb_arena_alloc(cls, n);
}

static int parse_step(void *cls, const char *key, const char *value)
{
    return svc_query_parse_arg(cls, key, value);
}

int svc_req_parse_query(svc_req *r, unsigned ep, sb_err *err, const char *const **choices, size_t *nchoices)
{
    svc_query_parser p;
    svc_query_parse_begin(&p, &r->query, ep, query_alloc, r->arena);
    if (svc_req_query_each(r, parse_step, &p) || svc_query_parse_end(&p)) {
        sb_err_set(err, p.nomem ? SB_ENOMEM : SB_EINVAL, "%s", p.why);
        *choices = p.choices;
        *nchoices = p.nchoices;
        return 1;
    }
    return 0;
}

typedef struct query_walk {
    int (*fn)(void *cls, const char *key, const char *value);
    void *cls;
    int rc;
} query_walk;

static enum MHD_Result query_step(void *cls, enum MHD_ValueKind kind, const char *key, const char *value)
{
    (void)kind;
    query_walk *w = cls;
    w->rc = w->fn(w->cls, key, value);
    return w->rc ? MHD_NO : MHD_YES;
}

int svc_req_query_each(svc_req *r, int (*fn)(void *cls, const char *key, const char *value), void *cls)
{
    query_walk w = {fn, cls, 0};
    MHD_get_connection_values(r->conn, MHD_GET_ARGUMENT_KIND, query_step, &w);
    return w.rc;
}

const char *svc_req_header(svc_req *r, const char *name)
{
    return MHD_lookup_connection_value(r->conn, MHD_HEADER_KIND, name);
}

const char *svc_req_body(const svc_req *r, size_t *len)
{
    *len = r->body.len;
    return r->body.data ? r->body.data : "";
}

const unsigned char *svc_req_body_sha1(const svc_req *r, const char *data, size_t len)
{
    if (!r->body_hashed || len != r->body.len || (len && data != r->body.data))
        return NULL;
    return r->body_sha1;
}

void svc_req_note(svc_req *r, const char *format, long packages)
{
    if (format)
        r->format = format;
    if (packages >= 0)
        r->packages = packages;
}

/* A header value as it may go on the wire: no control characters (a CR or
 * LF would end the header; libmicrohttpd drops such a header whole), and
 * inside a Warning's quoted text no quote or backslash (it would end the
 * text early). Values are often built from input (file names, details): the
 * one place that cleans them is here. The value itself when already clean. */
static const char *clean_header(svc_req *r, const char *name, const char *value)
{
    int warning = !strcasecmp(name, "Warning");
    const char *open = warning ? strchr(value, '"') : NULL, *close = open ? strrchr(value, '"') : NULL;
    size_t n = strlen(value), bad = 0;
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)value[i];
        bad += c < 0x20 || c == 0x7f || (open && value + i > open && value + i < close && (c == '"' || c == '\\'));
    }
    if (0 == bad)
        return value;
    char *v = sb_arena_strndup(r->arena, value, n);
    if (NULL == v)
        return NULL;
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)v[i];
        if (c < 0x20 || c == 0x7f)
            v[i] = ' ';
        else if (open && value + i > open && value + i < close && (c == '"' || c == '\\'))
            v[i] = '\'';
    }
    return v;
}

void svc_req_add_header(svc_req *r, const char *name, const char *value)
{
    value = value ? clean_header(r, name, value) : NULL;
    if (NULL == value)
        return;
    if (r->nheaders < SVC_MAX_EXTRA_HEADERS) {
        r->headers[r->nheaders].name = name;
        r->headers[r->nheaders].value = value;
        r->nheaders++;
    }
    /* Warning is obsolete (RFC 9111 5.5): the notice's text also goes in a
     * header of sbomd's own, the one clients should read; Warning stays for
     * the clients that read it today */
    const char *open = strcasecmp(name, "Warning") ? NULL : strchr(value, '"');
    const char *close = open ? strrchr(value, '"') : NULL;
    if (close > open + 1) {
        const char *text = sb_arena_strndup(r->arena, open + 1, (size_t)(close - open - 1));
        if (text)
            svc_req_add_header(r, "Sbomd-Notice", text);
    }
}

int svc_req__queue(svc_req *r, unsigned status, struct MHD_Response *resp)
{
    if (NULL == resp)
        return -1;
    MHD_add_response_header(resp, "X-Request-Id", r->id);
    if (r->cors_origin) {
        MHD_add_response_header(resp, "Access-Control-Allow-Origin", r->cors_origin);
        MHD_add_response_header(resp, "Access-Control-Expose-Headers",
                                "X-Request-Id, Warning, Sbomd-Notice, Retry-After, Sbomd-Incomplete");
        MHD_add_response_header(resp, "Vary", "Origin");
    }
    for (unsigned i = 0; i < r->nheaders; i++)
        MHD_add_response_header(resp, r->headers[i].name, r->headers[i].value);
    enum MHD_Result ok = MHD_queue_response(r->conn, status, resp);
    MHD_destroy_response(resp);
    if (ok != MHD_YES)
        return -1;
    r->status = status;
    r->responded = 1;
    return 0;
}

int svc_req_send(svc_req *r, unsigned status, const char *content_type, const char *body, size_t len)
{
    struct MHD_Response *resp = MHD_create_response_from_buffer(len, (void *)body, MHD_RESPMEM_MUST_COPY);
    if (NULL == resp)
        return -1;
    MHD_add_response_header(resp, MHD_HTTP_HEADER_CONTENT_TYPE, content_type);
    r->bytes_out += len;
    return svc_req__queue(r, status, resp);
}

double svc_req__elapsed(const svc_req *r)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)(now.tv_sec - r->start.tv_sec) + (double)(now.tv_nsec - r->start.tv_nsec) / 1e9;
}

int svc_req_expired(const svc_req *r)
{
    return svc_req__elapsed(r) > (double)r->srv->cfg.request_timeout;
}

struct svc_lookup *svc_req_lookups(const svc_req *r)
{
    return r->srv->lookup;
}
const struct sb_pypimap *svc_req_pypimap(svc_req *r)
{
    if (NULL == r->srv->mapsrc)
        return r->srv->pypimap;
    /* a refresh may replace the map mid-request: this request keeps the one it took */
    void *ref;
    const struct sb_pypimap *m = svc_mapsrc_take(r->srv->mapsrc, &ref);
    if (ref)
        svc_req_on_done(r, svc_mapsrc_release, ref);
    return m;
}

int svc_req_client_gone(svc_req *r)
{
    /* the handler runs on the connection's own thread: MHD is not reading
     * the socket meanwhile, so a peek at its state is safe. A client that
     * only half-closes (FIN, still reading) counts as gone: HTTP clients
     * waiting for an answer do not. */
    const union MHD_ConnectionInfo *ci = MHD_get_connection_info(r->conn, MHD_CONNECTION_INFO_CONNECTION_FD);
    if (NULL == ci || ci->connect_fd == MHD_INVALID_SOCKET)
        return 0;
    struct pollfd p = {.fd = ci->connect_fd, .events = POLLRDHUP};
    return poll(&p, 1, 0) == 1 && (p.revents & (POLLRDHUP | POLLHUP | POLLERR)) != 0;
}

void svc_req_on_done(svc_req *r, void (*fn)(void *), void *cls)
{
    /* two users: the lookups' claims and the PyPI mapping's reference */
    for (size_t i = 0; i < sizeof r->on_done / sizeof r->on_done[0]; i++)
        if (NULL == r->on_done[i]) {
            r->on_done[i] = fn;
            r->on_done_cls[i] = cls;
            return;
        }
    abort(); /* a third user must widen the array: dropping a release would leak */
}

double svc_req_time_left(const svc_req *r)
{
    return (double)r->srv->cfg.request_timeout - svc_req__elapsed(r);
}


void svc_req_mark(svc_req *r, const char *phase)
{
    if (r->nmarks < sizeof r->marks / sizeof r->marks[0]) {
        r->marks[r->nmarks].name = phase;
        r->marks[r->nmarks].at = svc_req__elapsed(r);
        r->nmarks++;
    }
}


void svc_req_disposition(svc_req *r, const char *what, const char *env, const char *plat, const char *ext)
{
    char name[200];
    int pre = snprintf(name, sizeof name, "%.40s-", what);
    int n = snprintf(name + pre, sizeof name - (size_t)pre, "%.60s-%.60s%s", env ? env : "-", plat ? plat : "-",
                     ext ? ext : "");
    if (pre < 0 || n < 0)
        return;
    for (char *c = name + pre; *c && c < name + sizeof name; c++)
        if (!((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9') || *c == '.' ||
              *c == '-' || *c == '_'))
            *c = '_';
    const char *v = sb_arena_printf(r->arena, "attachment; filename=\"%s\"", name);
    if (v)
        svc_req_add_header(r, "Content-Disposition", v);
}

const char *svc_media_ext(const char *media_type)
{
    static const struct {
        const char *prefix, *ext;
    } map[] = {{"application/sarif+json", ".sarif"},
               {"application/json", ".json"},
               {"text/plain", ".txt"},
               {"text/markdown", ".md"},
               {"text/csv", ".csv"},
               {"application/x-ndjson", ".ndjson"}};
    for (size_t i = 0; media_type && i < sizeof map / sizeof map[0]; i++)
        if (!strncmp(media_type, map[i].prefix, strlen(map[i].prefix)))
            return map[i].ext;
    return ".out";
}


time_t svc_req_wall(const svc_req *r)
{
    return r->srv->cfg.source_date_epoch >= 0 ? (time_t)r->srv->cfg.source_date_epoch : r->wall;
}

void svc_req_count(svc_req *r, unsigned ndocs, const char *kind)
{
    if (ndocs)
        r->ndocs = ndocs;
    if (kind)
        r->kind = kind;
}


int svc_req_server_ready(const svc_req *r)
{
    return atomic_load(&r->srv->ready);
}

int svc_req_metrics_text(svc_req *r, const char **out, size_t *len)
{
    sb_buf b = SB_BUF_INIT(1 << 20);
    /* the scrape is itself in flight: an idle replica reads 0, not 1 */
    long in_flight = atomic_load(&r->srv->in_flight) - 1;
    int rc = svc_metrics_render(&r->srv->metrics, &b, in_flight > 0 ? in_flight : 0, atomic_load(&r->srv->ready),
                                r->srv->budget.total, svc_budget_used(&r->srv->budget));
    if (rc == 0) {
        *out = sb_arena_strndup(r->arena, b.data ? b.data : "", b.len);
        *len = b.len;
        rc = *out ? 0 : -1;
    }
    sb_buf_free(&b);
    return rc;
}
