/*
 * log.c - request and event log lines. Each line is assembled in a local
 * buffer through jsonw (so client-controlled strings are escaped) and
 * written with one write(2), so lines from worker threads never interleave.
 * Every string field is cut at LOG_FIELD_MAX bytes with a marker, so a line
 * always fits its buffer and stays one valid JSON text, whatever a client
 * sent as its method or path.
 */
#include "log.h"
#include "../core/buf.h"
#include "../core/jsonw.h"

#include <stdio.h>
#include <string.h>
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

/* Bytes of one string field kept in a line: escaped, at most 6x this, and a
 * request line's few such fields stay far below LOG_LINE_MAX. */
#define LOG_FIELD_MAX 1024
#define LOG_LINE_MAX 65536

/* Write the line, or if it could not be built whole (no memory), a short
 * line that says so: never a cut one. */
static void emit(sb_jw *jw, sb_buf *b)
{
    static const char fallback[] = "{\"level\":\"error\",\"msg\":\"log line could not be built\"}\n";
    int whole = jw->status == SB_OK && sb_buf_append(b, "\n", 1) == SB_OK && b->data;
    ssize_t w = whole ? write(2, b->data, b->len) : write(2, fallback, sizeof fallback - 1);
    (void)w;
    sb_buf_free(b);
}

/* "key": value, cut at LOG_FIELD_MAX bytes (backed off to a UTF-8 sequence
 * start) and ended with a marker saying how many bytes were left out. */
static void kstr_capped(sb_jw *jw, const char *key, const char *v)
{
    size_t n = strlen(v);
    if (n <= LOG_FIELD_MAX) {
        sb_jw_kstr(jw, key, v);
        return;
    }
    size_t cut = LOG_FIELD_MAX;
    while (cut > 0 && ((unsigned char)v[cut] & 0xC0) == 0x80)
        cut--;
    char marker[64];
    int ml = snprintf(marker, sizeof marker, "\u2026[truncated %zu bytes]", n - cut);
    sb_jw_key(jw, key);
    sb_jw_str_begin(jw);
    sb_jw_str_chunk(jw, v, cut);
    sb_jw_str_chunk(jw, marker, (size_t)ml);
    sb_jw_str_end(jw);
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
    kstr_capped(jw, "msg", msg);
}

/* --log-level: written once by main before any request thread starts */
static svc_log_level min_level = SVC_LOG_INFO;

int svc_log_level_parse(const char *name)
{
    static const char *const names[] = {"debug", "info", "warn", "error"};
    for (int i = 0; i < 4; i++)
        if (name && !strcmp(name, names[i]))
            return i;
    return -1;
}

void svc_log_set_level(svc_log_level level)
{
    min_level = level;
}

/* Kubelet probes and scrapes: some 36 lines a minute per pod at info, so
 * their answers are debug; a drain's /readyz 503 is the replica saying it is
 * going, which is info, not an error. */
static int probe(const char *path)
{
    return path && (!strcmp(path, "/healthz") || !strcmp(path, "/readyz") || !strcmp(path, "/metrics"));
}

svc_log_level svc_log_level_of(const char *path, unsigned status, int stream_failed)
{
    if (probe(path) && !stream_failed && (status < 500 || (status == 503 && !strcmp(path, "/readyz"))))
        return status < 500 ? SVC_LOG_DEBUG : SVC_LOG_INFO;
    if (status >= 500 || stream_failed)
        return SVC_LOG_ERROR;
    switch (status) {
    case 401:
    case 403:
    case 408:
    case 413:
    case 429: return SVC_LOG_WARN;
    default: return SVC_LOG_INFO;
    }
}

/* Whether `steps` (comma-separated) names a step an upstream failed to
 * answer: such an answer lacks what the operator turned on, worth a warn.
 * Steps the lockfile itself decides (hashes, licenses it does not record)
 * are not. */
static int upstream_missing(const char *steps)
{
    static const char *const up[] = {"osv", "kev", "epss", "pypi-releases", "scorecard", "conda-index"};
    if (NULL == steps)
        return 0;
    for (const char *p = steps; *p;) {
        size_t n = strcspn(p, ",");
        for (size_t i = 0; i < sizeof up / sizeof up[0]; i++)
            if (strlen(up[i]) == n && !strncmp(p, up[i], n))
                return 1;
        p += n;
        while (*p == ',' || *p == ' ')
            p++;
    }
    return 0;
}

void svc_log_request(const svc_log_entry *e)
{
    static const char *const level_names[] = {"debug", "info", "warn", "error"};
    svc_log_level lv = svc_log_level_of(e->path, e->status, e->stream_failed);
    if (lv < SVC_LOG_WARN && upstream_missing(e->incomplete))
        lv = SVC_LOG_WARN;
    if (lv < min_level)
        return;
    sb_buf b = SB_BUF_INIT(LOG_LINE_MAX);
    sb_jw jw;
    line_begin(&jw, &b, level_names[lv], "request");
    kstr_capped(&jw, "request_id", e->id);
    kstr_capped(&jw, "method", e->method ? e->method : "");
    kstr_capped(&jw, "path", e->path ? e->path : "");
    sb_jw_key(&jw, "status");
    sb_jw_int(&jw, e->status);
    if (e->format)
        kstr_capped(&jw, "format", e->format);
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
        kstr_capped(&jw, "client", e->client);
    if (e->stream_failed) {
        sb_jw_key(&jw, "stream_failed");
        sb_jw_bool(&jw, 1);
    }
    if (e->client_left) {
        sb_jw_key(&jw, "client_left");
        sb_jw_bool(&jw, 1);
    }
    if (e->reason && e->reason[0])
        kstr_capped(&jw, "reason", e->reason);
    if (e->incomplete)
        kstr_capped(&jw, "incomplete", e->incomplete);
    sb_jw_obj_end(&jw);
    emit(&jw, &b);
}

static void event_line(const char *level, const char *event, const char *detail)
{
    sb_buf b = SB_BUF_INIT(LOG_LINE_MAX);
    sb_jw jw;
    line_begin(&jw, &b, level, event);
    if (detail)
        kstr_capped(&jw, "detail", detail);
    sb_jw_obj_end(&jw);
    emit(&jw, &b);
}

void svc_log_event(const char *event, const char *detail)
{
    event_line("info", event, detail);
}

void svc_log_error(const char *event, const char *detail)
{
    event_line("error", event, detail);
}

void svc_log_warn(const char *event, const char *detail)
{
    event_line("warn", event, detail);
}
