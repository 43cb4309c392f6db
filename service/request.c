/*
 * request.c - the handler-facing request API over libmicrohttpd.
 */
#include "request_int.h"
#include "gzip.h"
#include "mapsrc.h"

#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *svc_req_method(const svc_req *r) { return r->method; }
const char *svc_req_path(const svc_req *r) { return r->path; }
sb_arena *svc_req_arena(svc_req *r) { return r->arena; }
void svc_req_drop_body(svc_req *r) { sb_buf_free(&r->body); }
const svc_cfg *svc_req_cfg(const svc_req *r) { return &r->srv->cfg; }
const char *svc_req_id(const svc_req *r) { return r->id; }

const char *svc_req_query(svc_req *r, const char *key)
{
    return MHD_lookup_connection_value(r->conn, MHD_GET_ARGUMENT_KIND, key);
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

void svc_req_note(svc_req *r, const char *format, long packages)
{
    if (format)
        r->format = format;
    if (packages >= 0)
        r->packages = packages;
}

void svc_req_add_header(svc_req *r, const char *name, const char *value)
{
    if (r->nheaders < SVC_MAX_EXTRA_HEADERS) {
        r->headers[r->nheaders].name = name;
        r->headers[r->nheaders].value = value;
        r->nheaders++;
    }
}

int svc_req__queue(svc_req *r, unsigned status, struct MHD_Response *resp)
{
    if (NULL == resp)
        return -1;
    MHD_add_response_header(resp, "X-Request-Id", r->id);
    if (r->cors_origin) {
        MHD_add_response_header(resp, "Access-Control-Allow-Origin", r->cors_origin);
        MHD_add_response_header(resp, "Access-Control-Expose-Headers", "X-Request-Id, Warning, Retry-After");
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
    struct MHD_Response *resp =
        MHD_create_response_from_buffer(len, (void *)body, MHD_RESPMEM_MUST_COPY);
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

struct svc_lookup *svc_req_lookups(const svc_req *r) { return r->srv->lookup; }
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

int svc_req_timeout(svc_req *r)
{
    char detail[128];
    snprintf(detail, sizeof detail, "the document could not be started within the %ld-second request deadline",
             r->srv->cfg.request_timeout);
    r->timed_out = 1;
    return svc_req_problem(r, 504, NULL, detail, NULL, NULL, 0);
}

/* MHD pulls the document through here; the cursor lives in the sb_doc. Past
 * the deadline the stream ends with an error: MHD closes the connection
 * without the last chunk, so the client sees a truncated transfer and an
 * unterminated JSON text, never a short document that parses. */
static ssize_t stream_reader(void *cls, uint64_t pos, char *buf, size_t max)
{
    (void)pos;
    svc_req *r = cls;
    if (svc_req_expired(r)) {
        r->timed_out = 1;
        r->stream_failed = 1;
        return MHD_CONTENT_READER_END_WITH_ERROR;
    }
    ssize_t n = r->gz ? svc_gzip_read(r->gz, buf, max) : sb_doc_produce(r->doc, buf, max);
    if (n < 0) {
        r->stream_failed = 1;
        return MHD_CONTENT_READER_END_WITH_ERROR;
    }
    if (n == 0)
        return MHD_CONTENT_READER_END_OF_STREAM;
    r->bytes_out += (uint64_t)n;
    return n;
}

void svc_req_mark(svc_req *r, const char *phase)
{
    if (r->nmarks < sizeof r->marks / sizeof r->marks[0]) {
        r->marks[r->nmarks].name = phase;
        r->marks[r->nmarks].at = svc_req__elapsed(r);
        r->nmarks++;
    }
}

/* "upload;dur=1.2, parse;dur=30.5, model;dur=4.0" in milliseconds */
static void server_timing(svc_req *r, struct MHD_Response *resp)
{
    char v[256];
    size_t n = 0;
    double prev = 0;
    for (unsigned i = 0; i < r->nmarks && n < sizeof v; i++) {
        int w = snprintf(v + n, sizeof v - n, "%s%s;dur=%.1f", i ? ", " : "", r->marks[i].name,
                         (r->marks[i].at - prev) * 1000.0);
        if (w < 0 || (size_t)w >= sizeof v - n)
            break;
        n += (size_t)w;
        prev = r->marks[i].at;
    }
    if (n)
        MHD_add_response_header(resp, "Server-Timing", v);
}

int svc_req_stream(svc_req *r, const char *content_type, sb_doc *doc)
{
    r->doc = doc;
    /* compressed when asked: chunk by chunk, like the plain stream */
    if (svc_gzip_wanted(svc_req_header(r, "Accept-Encoding")))
        r->gz = svc_gzip_new(r->arena, doc, SVC_GZIP_LEVEL);
    struct MHD_Response *resp =
        MHD_create_response_from_callback(MHD_SIZE_UNKNOWN, 64 * 1024, stream_reader, r, NULL);
    if (NULL == resp)
        return -1;
    MHD_add_response_header(resp, MHD_HTTP_HEADER_CONTENT_TYPE, content_type);
    MHD_add_response_header(resp, MHD_HTTP_HEADER_VARY, "Accept-Encoding");
    server_timing(r, resp);
    if (r->gz)
        MHD_add_response_header(resp, MHD_HTTP_HEADER_CONTENT_ENCODING, "gzip");
    return svc_req__queue(r, 200, resp);
}

int svc_req_server_ready(const svc_req *r)
{
    return atomic_load(&r->srv->ready);
}

int svc_req_metrics_text(svc_req *r, const char **out, size_t *len)
{
    sb_buf b = SB_BUF_INIT(1 << 20);
    int rc = svc_metrics_render(&r->srv->metrics, &b, atomic_load(&r->srv->in_flight),
                                atomic_load(&r->srv->ready), r->srv->budget.total, svc_budget_used(&r->srv->budget));
    if (rc == 0) {
        *out = sb_arena_strndup(r->arena, b.data ? b.data : "", b.len);
        *len = b.len;
        rc = *out ? 0 : -1;
    }
    sb_buf_free(&b);
    return rc;
}
