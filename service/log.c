/*
 * log.c - request and event log lines. Each line is assembled in a local
 * buffer through jsonw (so client-controlled strings are escaped) and
 * written with one write(2), so lines from worker threads never interleave.
 */
#include "log.h"
#include "../core/buf.h"
#include "../core/jsonw.h"

#include <stdio.h>
#include <time.h>
#include <unistd.h>

static int to_buf(void *payload, const char *p, size_t n)
{
    return sb_buf_append(payload, p, n) == SB_OK ? 0 : -1;
}

static void now_rfc3339(char out[32])
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    struct tm tm;
    gmtime_r(&ts.tv_sec, &tm);
    size_t n = strftime(out, 32, "%Y-%m-%dT%H:%M:%S", &tm);
    snprintf(out + n, 32 - n, ".%03ldZ", ts.tv_nsec / 1000000);
}

static void emit(sb_buf *b)
{
    sb_buf_append(b, "\n", 1);
    if (b->data) {
        ssize_t w = write(2, b->data, b->len);
        (void)w;
    }
    sb_buf_free(b);
}

/* Open a log line: {"time", "level", "msg", ... */
static void line_begin(sb_jw *jw, sb_buf *b, const char *level, const char *msg)
{
    sb_jw_init(jw, (sb_sink){to_buf, b}, false);
    char ts[32];
    now_rfc3339(ts);
    sb_jw_obj_begin(jw);
    sb_jw_kstr(jw, "time", ts);
    sb_jw_kstr(jw, "level", level);
    sb_jw_kstr(jw, "msg", msg);
}

void svc_log_request(const svc_log_entry *e)
{
    sb_buf b = SB_BUF_INIT(16384);
    sb_jw jw;
    line_begin(&jw, &b, e->status >= 500 || e->stream_failed ? "error" : "info", "request");
    sb_jw_kstr(&jw, "request_id", e->id);
    sb_jw_kstr(&jw, "method", e->method);
    sb_jw_kstr(&jw, "path", e->path);
    sb_jw_key(&jw, "status");
    sb_jw_int(&jw, e->status);
    if (e->format)
        sb_jw_kstr(&jw, "format", e->format);
    if (e->packages >= 0) {
        sb_jw_key(&jw, "packages");
        sb_jw_int(&jw, e->packages);
    }
    sb_jw_key(&jw, "bytes_in");
    sb_jw_int(&jw, (long long)e->bytes_in);
    sb_jw_key(&jw, "bytes_out");
    sb_jw_int(&jw, (long long)e->bytes_out);
    sb_jw_key(&jw, "duration_us");
    sb_jw_int(&jw, (long long)(e->duration_ms * 1000.0));
    if (e->client)
        sb_jw_kstr(&jw, "client", e->client);
    if (e->stream_failed) {
        sb_jw_key(&jw, "stream_failed");
        sb_jw_bool(&jw, 1);
    }
    sb_jw_obj_end(&jw);
    emit(&b);
}

void svc_log_event(const char *event, const char *detail)
{
    sb_buf b = SB_BUF_INIT(4096);
    sb_jw jw;
    line_begin(&jw, &b, "info", event);
    if (detail)
        sb_jw_kstr(&jw, "detail", detail);
    sb_jw_obj_end(&jw);
    emit(&b);
}
