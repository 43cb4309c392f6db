/*
 * log.h - one JSON line per request, and plain startup/shutdown lines, on stderr.
 */
#ifndef SVC_LOG_H
#define SVC_LOG_H

#include <stdint.h>

typedef struct svc_log_entry {
    const char *id, *method, *path, *format, *client;
    unsigned status;
    long packages;
    uint64_t bytes_in, bytes_out;
    double duration_ms;
    int stream_failed;      /* the server cut the response short (level error) */
    int client_left;        /* the client went before the response's end (level info) */
    const char *reason;     /* an error answer's problem detail, NULL = none */
    const char *incomplete; /* the answer's Sbomd-Incomplete steps, NULL = whole */
} svc_log_entry;

/* Levels of request lines, least to most severe. */
typedef enum svc_log_level { SVC_LOG_DEBUG = 0, SVC_LOG_INFO = 1, SVC_LOG_WARN = 2, SVC_LOG_ERROR = 3 } svc_log_level;

/* "info", "warn" or "error" as a level; -1 when none of them. */
int svc_log_level_parse(const char *name);

/* Request lines below `level` are not written (--log-level); service events
 * (listening, stopping, reloads) always are. Set once at startup. */
void svc_log_set_level(svc_log_level level);

/* The level of a request line: error for 5xx and cut streams; warn for the
 * client errors an operator should look at (authentication, timeouts,
 * limits, too many requests); info otherwise. */
svc_log_level svc_log_level_of(const char *path, unsigned status, int stream_failed);

void svc_log_request(const svc_log_entry *e);

/* A service event ("listening", "stopping") as a JSON line. */
void svc_log_event(const char *event, const char *detail);

/* The same at level error (a failure an operator should see). */
void svc_log_error(const char *event, const char *detail);

/* The same at level warn: something the operator should fix, served anyway. */
void svc_log_warn(const char *event, const char *detail);

#endif
