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
    int stream_failed;   /* the server cut the response short (level error) */
    int client_left;     /* the client went before the response's end (level info) */
} svc_log_entry;

void svc_log_request(const svc_log_entry *e);

/* A service event ("listening", "stopping") as a JSON line. */
void svc_log_event(const char *event, const char *detail);

/* The same at level error (a failure an operator should see). */
void svc_log_error(const char *event, const char *detail);

#endif
