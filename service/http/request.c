/*
 * request.c - the handler-facing request API over libmicrohttpd.
 *
 * It writes no problem documents: problem.c does, over svc_req_send, and a
 * query svc_req_parse_query refuses is answered by the dispatch
 * (server.c), so this file never calls the problem writer.
 */
#include "request_int.h"
#include "gzip.h"
#include "../params.h"
#include "rcache.h"
#include "../../core/report.h"
#include "../../core/uuid.h"
#include "../lookup/mapsrc.h"
#include "../../core/version.h"

#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <strings.h>
#include <stdlib.h>
#include <string.h>
#include "../../core/alloc.h"

/* The buffer MHD allocates, zeroed, with every streamed answer: a chunked
 * (HTTP/1.1) answer is written into the connection's own pool and never
 * uses it (chunks stay 32 KiB either way); only an HTTP/1.0 answer is read
 * through it. 64 KiB cost a small request ~80,000 instructions of memset. */
#define SVC_STREAM_BLOCK (16 * 1024)

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

static int none_match(const char *inm, const char *etag);
static int not_modified(svc_req *r, const char *etag);

/* A gzip answer is other bytes, so it has its own strong ETag (RFC 9110
 * 8.8.3): "<tag>-gzip" of the identity answer's "<tag>" into out. */
static void gzip_etag(char *out, size_t cap, const char *etag)
{
    size_t n = strlen(etag);
    if (n >= 2)
        snprintf(out, cap, "%.*s-gzip\"", (int)(n - 1), etag);
}

int svc_req_send_asset(svc_req *r, const char *content_type, const char *body, size_t len, const char *etag)
{
    int gz = len >= 1024 && svc_gzip_wanted(svc_req_header(r, "Accept-Encoding"));
    const char *tag = etag;
    char zt[64];
    if (etag && gz && strlen(etag) + 6 <= sizeof zt) {
        gzip_etag(zt, sizeof zt, etag);
        tag = zt;
    }
    if (tag && none_match(svc_req_header(r, "If-None-Match"), tag))
        return not_modified(r, tag);
    char *z = NULL;
    size_t zn = 0;
    if (gz && svc_gzip_buffer(r->arena, body, len, SVC_GZIP_LEVEL, &z, &zn) != 0)
        gz = 0, tag = etag;
    struct MHD_Response *resp = MHD_create_response_from_buffer(gz ? zn : len, (void *)(gz ? z : body),
                                                                MHD_RESPMEM_MUST_COPY);
    if (NULL == resp)
        return -1;
    MHD_add_response_header(resp, MHD_HTTP_HEADER_CONTENT_TYPE, content_type);
    MHD_add_response_header(resp, MHD_HTTP_HEADER_VARY, "Accept-Encoding");
    if (gz)
        MHD_add_response_header(resp, MHD_HTTP_HEADER_CONTENT_ENCODING, "gzip");
    if (tag)
        MHD_add_response_header(resp, MHD_HTTP_HEADER_ETAG, tag);
    r->bytes_out += gz ? zn : len;
    return svc_req__queue(r, 200, resp);
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

/* The bytes of the answer, in order: the cached entry's, else the
 * producer's, copied into the capture while it still holds the whole answer
 * and fits the result cache (charged to the memory budget like a body; a
 * refused charge just ends the copy). At the end a complete capture becomes
 * a cache entry. */
static void capture_stop(svc_req *r)
{
    r->capturing = 0;
    unsigned long long held = r->capture.alloc;
    sb_buf_free(&r->capture);
    svc_budget_release(&r->srv->budget, held);
    r->charged -= held;
}

static void capture_keep(svc_req *r)
{
    const char *hn[SVC_RCACHE_MAX_HEADERS], *hv[SVC_RCACHE_MAX_HEADERS];
    unsigned nh = 0;
    for (unsigned i = 0; i < r->nheaders && nh < SVC_RCACHE_MAX_HEADERS; i++, nh++) {
        hn[nh] = r->headers[i].name;
        hv[nh] = r->headers[i].value;
    }
    if (nh == r->nheaders)
        svc_rcache_put(r->srv->rcache,
                       svc_rentry_new(r->rkey, r->etag_base, r->ctype, r->format, r->kind, hn, hv, nh,
                                      r->ndocs ? r->ndocs : 1, r->packages, r->capture.data, r->capture.len, 0));
    capture_stop(r);
}

static ssize_t produce(void *cls, char *buf, size_t max)
{
    svc_req *r = cls;
    if (r->hit) {
        size_t n = r->hit->len - r->hit_pos;
        if (n > max)
            n = max;
        memcpy(buf, r->hit->body + r->hit_pos, n);
        r->hit_pos += n;
        return (ssize_t)n;
    }
    ssize_t n = sb_doc_produce(r->doc, buf, max);
    if (r->capturing) {
        if (n < 0 || !svc_rcache_fits(r->srv->rcache, r->capture.len + (size_t)(n > 0 ? n : 0))) {
            capture_stop(r);
        } else if (0 == n) {
            capture_keep(r);
        } else {
            size_t before = r->capture.alloc;
            if (sb_buf_append(&r->capture, buf, (size_t)n) != SB_OK) {
                capture_stop(r);
            } else if (r->capture.alloc > before) {
                unsigned long long more = r->capture.alloc - before;
                r->charged += more;
                if (!svc_budget_charge(&r->srv->budget, more)) {
                    r->charged -= more;
                    /* capture_stop releases alloc: count only what was charged */
                    r->capture.alloc = before;
                    capture_stop(r);
                }
            }
        }
    }
    return n;
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
    svc_account_enter(&r->acct);
    ssize_t n = r->gz ? svc_gzip_read(r->gz, buf, max) : produce(r, buf, max);
    svc_account_enter(NULL);
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

/* The answer's own headers (the extra ones come in svc_req__queue). */
static int queue_answer(svc_req *r, unsigned status, const char *content_type, struct MHD_Response *resp)
{
    if (NULL == resp)
        return -1;
    MHD_add_response_header(resp, MHD_HTTP_HEADER_CONTENT_TYPE, content_type);
    MHD_add_response_header(resp, MHD_HTTP_HEADER_VARY, "Accept-Encoding");
    if (r->etag[0])
        MHD_add_response_header(resp, MHD_HTTP_HEADER_ETAG, r->etag);
    server_timing(r, resp);
    if (r->gz)
        MHD_add_response_header(resp, MHD_HTTP_HEADER_CONTENT_ENCODING, "gzip");
    return svc_req__queue(r, status, resp);
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

int svc_req_stream(svc_req *r, const char *content_type, sb_doc *doc)
{
    return svc_req_stream_status(r, 200, content_type, doc);
}

int svc_req_stream_status(svc_req *r, unsigned status, const char *content_type, sb_doc *doc)
{
    if (status != 200)
        r->etag[0] = '\0'; /* a failed gate is answered anew, never 304 */
    r->doc = doc;
    r->ctype = content_type;
    if (r->keyed && r->srv->rcache && status == 200) {
        /* a request's peak stays within 2 x its input + 16 MiB:
         * the copy kept for the cache gets half of what the request leaves of
         * that (half: the buffer doubles, old and new held for a moment), so
         * an answer far larger than its input (a 10,000-package document) is
         * streamed and not kept, however large max-entry is. The request is
         * counted as 1.5 x its arena: its RSS runs about that much above the
         * arena (the freed input's pages, parser buffers, allocator slack:
         * 23.7 MB of growth over a 16.8 MB arena for 10,000 packages). */
        unsigned long long bound = 2 * r->bytes_in + 16ull * 1024 * 1024, used = sb_arena_used(r->arena);
        used += used / 2;
        unsigned long long room = used < bound ? (bound - used) / 2 : 0, cap = r->srv->cfg.result_cache_max_entry;
        sb_buf_init(&r->capture, (size_t)(room < cap ? room : cap));
        r->capturing = room > 0;
    }
    /* compressed when asked: chunk by chunk, like the plain stream */
    if (svc_gzip_wanted(svc_req_header(r, "Accept-Encoding")))
        r->gz = svc_gzip_new(r->arena, produce, r, SVC_GZIP_LEVEL);
    return queue_answer(r, status, content_type,
                        MHD_create_response_from_callback(MHD_SIZE_UNKNOWN, SVC_STREAM_BLOCK, stream_reader, r, NULL));
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

static void key_str(sb_sha1 *c, const char *tag, const char *v)
{
    sb_sha1_update(c, tag, strlen(tag) + 1);
    if (v)
        sb_sha1_update(c, v, strlen(v) + 1);
    else
        sb_sha1_update(c, "\xff", 1); /* absent differs from empty */
}

static void key_num(sb_sha1 *c, const char *tag, long long v)
{
    /* "%lld" by hand: the key of every request hashes several numbers */
    char n[32], *e = n + sizeof n;
    unsigned long long u = v < 0 ? 0ull - (unsigned long long)v : (unsigned long long)v;
    *--e = '\0';
    do
        *--e = (char)('0' + u % 10);
    while (u /= 10);
    if (v < 0)
        *--e = '-';
    key_str(c, tag, e);
}

static int key_query(void *cls, const char *key, const char *value)
{
    key_str(cls, "?", key);
    key_str(cls, "=", value);
    return 0;
}

/* Whether the answer depends on network answers (license lookups, OSV,
 * KEV/EPSS, PyPI releases):
 * those bytes change with what the indexes say, so they get no validator
 * and are not kept. -1 when a parameter is malformed (the handler answers). */
static int needs_network(svc_req *r)
{
    const sb_report_kind *k = svc_req_report(r);
    if (k && (k->needs_vulns || k->needs_health)) /* a report about upstream data */
        return 1;
    /* the parameters the table marks as asking an upstream (a boolean only
     * when true), as the query's one parse left them */
    for (const svc_qparam *q = svc_qparams(); q->name; q++)
        if (q->upstream && svc_query_on(&r->query, q))
            return 1;
    return 0;
}

/* Whether If-None-Match lists etag (weak comparison, as RFC 9110 asks for
 * If-None-Match; "*" is not taken: the answer is computed, not stored). */
static int none_match(const char *inm, const char *etag)
{
    if (NULL == inm || !etag[0])
        return 0;
    size_t n = strlen(etag);
    const char *p = inm;
    while (*p) {
        while (*p == ' ' || *p == '\t' || *p == ',')
            p++;
        if (!strncmp(p, "W/", 2))
            p += 2;
        size_t k = strcspn(p, ",");
        size_t t = k;
        while (t && (p[t - 1] == ' ' || p[t - 1] == '\t'))
            t--;
        if (t == n && !memcmp(p, etag, n))
            return 1;
        p += k;
    }
    return 0;
}

static int not_modified(svc_req *r, const char *etag)
{
    struct MHD_Response *resp = MHD_create_response_from_buffer(0, (void *)"", MHD_RESPMEM_PERSISTENT);
    if (NULL == resp)
        return -1;
    MHD_add_response_header(resp, MHD_HTTP_HEADER_ETAG, etag);
    MHD_add_response_header(resp, MHD_HTTP_HEADER_VARY, "Accept-Encoding");
    return svc_req__queue(r, 304, resp);
}

/* svc_req_repeat's "answered" path: the 304 queued, 1 returned, what the
 * queueing gave in *rc (the return stays visible at the call). */
static int answer_not_modified(svc_req *r, int *rc)
{
    *rc = not_modified(r, r->etag);
    return 1;
}

/* r->etag (the identity answer's) kept as etag_base, and made the ETag of
 * the coding this request gets (gzip_etag). */
static void etag_for_coding(svc_req *r)
{
    snprintf(r->etag_base, sizeof r->etag_base, "%s", r->etag);
    if (svc_gzip_wanted(svc_req_header(r, "Accept-Encoding")))
        gzip_etag(r->etag, sizeof r->etag, r->etag_base);
}

int svc_req_repeat(svc_req *r, int *rc)
{
    const svc_cfg *cfg = &r->srv->cfg;
    if (needs_network(r))
        return 0;
    /* the timestamp as the document will have it */
    long long ts = r->query.timestamp >= 0 ? r->query.timestamp : (long long)svc_req_wall(r);
    sb_sha1 c;
    sb_sha1_init(&c);
    /* the server: its version and every setting that changes output bytes */
    key_str(&c, "sbomd", SB_VERSION);
    key_num(&c, "source-date-epoch", cfg->source_date_epoch);
    key_str(&c, "package-cache", cfg->package_cache);
    key_num(&c, "license-file-max", cfg->license_file_max);
    key_num(&c, "license-texts-max", cfg->license_texts_max);
    key_str(&c, "author", cfg->sbom_author);
    if (cfg->detector_url[0]) /* absent adds nothing: keys without it stay as they were */
        key_str(&c, "detector-url", cfg->detector_url);
    key_str(&c, "pypi-mapping-file", cfg->pypi_mapping_file);
    unsigned char md[20];
    if (svc_mapsrc_digest(r->srv->mapsrc, md)) { /* --pypi-mapping-url: the bytes it gave last */
        key_num(&c, "pypi-mapping", (long long)sizeof md);
        sb_sha1_update(&c, md, sizeof md);
    }
    key_str(&c, "policy-file", cfg->policy_file);
    key_num(&c, "max-packages", cfg->max_packages);
    key_num(&c, "max-documents", cfg->max_documents);
    key_num(&c, "max-depth", cfg->max_depth);
    key_num(&c, "max-scalar", cfg->max_scalar);
    /* the request */
    key_str(&c, "method", r->method);
    key_str(&c, "path", r->path);
    svc_req_query_each(r, key_query, &c);
    static const char *const heads[] = {"Accept", "Content-Type", "Content-Disposition", "Content-Encoding"};
    for (size_t i = 0; i < sizeof heads / sizeof heads[0]; i++)
        key_str(&c, heads[i], svc_req_header(r, heads[i]));
    /* the body by its digest, which the intake reuses for the serial */
    sb_sha1 bc;
    sb_sha1_init(&bc);
    sb_sha1_update(&bc, r->body.data ? r->body.data : "", r->body.len);
    sb_sha1_final(&bc, r->body_sha1);
    r->body_hashed = 1;
    key_num(&c, "body", (long long)r->body.len);
    sb_sha1_update(&c, r->body_sha1, sizeof r->body_sha1);
    sb_sha1_final(&c, r->rkey);
    r->keyed = 1;
    /* the ETag: the key and the timestamp (a request without timestamp=
     * gets its arrival, so the same key a second later is other bytes) */
    unsigned char tag[20];
    sb_sha1_init(&c);
    sb_sha1_update(&c, r->rkey, sizeof r->rkey);
    key_num(&c, "timestamp", ts);
    sb_sha1_final(&c, tag);
    char *e = r->etag;
    *e++ = '"';
    for (size_t i = 0; i < 16; i++) { /* "%02x" without sprintf */
        *e++ = "0123456789abcdef"[tag[i] >> 4];
        *e++ = "0123456789abcdef"[tag[i] & 15];
    }
    *e++ = '"';
    *e = '\0';
    etag_for_coding(r);

    const char *inm = svc_req_header(r, "If-None-Match");
    svc_rentry *hit = svc_rcache_get(r->srv->rcache, r->rkey);
    if (r->srv->rcache)
        atomic_fetch_add(hit ? &r->srv->metrics.rcache_hits : &r->srv->metrics.rcache_misses, 1);
    if (NULL == hit) {
        if (none_match(inm, r->etag))
            return answer_not_modified(r, rc);
        return 0;
    }
    /* the answer made the first time, timestamp and serial included */
    r->hit = hit;
    r->keyed = 0; /* nothing to capture */
    snprintf(r->etag, sizeof r->etag, "%s", hit->etag);
    etag_for_coding(r);
    svc_req_note(r, hit->format, hit->packages);
    svc_req_count(r, hit->ndocs, hit->kind);
    svc_req_mark(r, "cache");
    if (none_match(inm, r->etag))
        return answer_not_modified(r, rc);
    for (unsigned i = 0; i < hit->nheaders; i++)
        svc_req_add_header(r, hit->hname[i], hit->hvalue[i]);
    r->ctype = hit->ctype;
    /* streamed from the entry (the request holds a reference) like any
     * document: chunked, as the contract says, gzip when asked */
    if (svc_gzip_wanted(svc_req_header(r, "Accept-Encoding")))
        r->gz = svc_gzip_new(r->arena, produce, r, SVC_GZIP_LEVEL);
    *rc = queue_answer(r, 200, hit->ctype,
                       MHD_create_response_from_callback(MHD_SIZE_UNKNOWN, SVC_STREAM_BLOCK, stream_reader, r, NULL));
    return 1;
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
