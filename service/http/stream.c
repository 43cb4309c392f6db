/*
 * stream.c - a document streamed as the answer: MHD pulls it through
 * stream_reader chunk by chunk, from the producer (or a result-cache
 * entry), gzip-compressed when asked, cut past the deadline; the bytes are
 * copied for the result cache while they fit (the capture).
 */
#include "request_int.h"
#include "gzip.h"
#include "rcache.h"

#include <stdio.h>
#include <string.h>


/* The buffer MHD allocates, zeroed, with every streamed answer: a chunked
 * (HTTP/1.1) answer is written into the connection's own pool and never
 * uses it (chunks stay 32 KiB either way); only an HTTP/1.0 answer is read
 * through it. 64 KiB cost a small request ~80,000 instructions of memset. */
#define SVC_STREAM_BLOCK (16 * 1024)

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

int svc_req__stream_answer(svc_req *r, unsigned status, const char *content_type)
{
    /* compressed when asked: chunk by chunk, like the plain stream */
    if (svc_gzip_wanted(svc_req_header(r, "Accept-Encoding")))
        r->gz = svc_gzip_new(r->arena, produce, r, SVC_GZIP_LEVEL);
    return queue_answer(r, status, content_type,
                        MHD_create_response_from_callback(MHD_SIZE_UNKNOWN, SVC_STREAM_BLOCK, stream_reader, r, NULL));
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
    return svc_req__stream_answer(r, status, content_type);
}
