/*
 * request_int.h - svc_req's fields, shared by the request's own files only:
 * server.c, request.c, stream.c, repeat.c and admission.c.
 */
#ifndef SVC_REQUEST_INT_H
#define SVC_REQUEST_INT_H

#include "../../core/buf.h"
#include "../params.h"
#include "request.h"
#include "server.h"

#include <microhttpd.h>
#include <stdint.h>
#include <time.h>

#define SVC_MAX_EXTRA_HEADERS 16

/* A body of this size or more, when freed (svc_req_drop_body: after the
 * read, or at the request's end), returns the request's freed pages to the
 * system at once. The body itself is a mapping of its own from that size
 * (core/buf.c); what this returns is the rest: the smaller steps a chunked
 * body grew through (kept, they piled up over chunked uploads read on
 * different threads: +12.5, +16.8, +17.6 MB peak for three in a row), and
 * at the end whatever the request freed. Only from 4 MiB: returning pages
 * costs CPU (the next request faults them in again: +35% CPU for the 2.4 MB
 * reference pixi.lock when done from 1 MiB, and decommitting on every free
 * doubled it). */
#define SVC_BODY_RELEASE_MIN ((size_t)4 << 20)

struct svc_req {
    struct MHD_Connection *conn;
    svc_server *srv;
    const svc_route *route;
    svc_query query;        /* parsed at dispatch (svc_req_parse_query); all absent for a route that takes none */
    const char *incomplete; /* the Sbomd-Incomplete steps (svc_req_incomplete), for the log line */
    sb_arena *arena;
    sb_buf body;
    svc_part *parts; /* the multipart parts, read once (upload.c); point into body */
    size_t nparts;
    int parts_read;
    const char *method, *path;
    char id[48];
    unsigned status;
    int responded;
    int too_large;
    sb_doc *doc;
    struct svc_gzip *gz; /* the document is sent gzip-compressed through this */
    struct {
        const char *name;
        double at; /* seconds since the head arrived */
    } marks[6];    /* phases for Server-Timing (svc_req_mark) */
    unsigned nmarks;
    struct {
        const char *name, *value;
    } headers[SVC_MAX_EXTRA_HEADERS];
    unsigned nheaders;
    struct timespec start;
    uint64_t bytes_in, bytes_out;
    const char *format;
    long packages;
    int stream_failed;
    char reason[1024];           /* a problem's detail, for the request's log line ("" = none) */
    int timed_out;               /* the deadline cut the request short */
    int dropped;                 /* connection closed mid-upload (status says why) */
    int over_budget;             /* the body outgrew the memory budget: drained, answered 503 */
    atomic_ullong charged;       /* bytes of the memory budget this request holds for body, capture, estimates */
    svc_account acct;            /* what its arenas and JSON trees take, charged as taken (budget.h) */
    unsigned long long admitted; /* the models of the inputs admitted so far (svc_req_admit adds each) */
    int query_priced;            /* the query's cost is in admitted (svc_req_admit, once) */
    const char *cors_origin;     /* Access-Control-Allow-Origin to send, or NULL */
    time_t wall;                 /* arrival, Unix seconds: the default document timestamp */
    unsigned char rkey[20];      /* result key (svc_req_repeat); valid when keyed */
    int keyed;
    unsigned char body_sha1[20]; /* SHA-1 of the body; valid when body_hashed */
    int body_hashed;
    char etag[48];          /* strong ETag of the answer as sent (its coding's), "" = none */
    char etag_base[48];     /* the same for the identity coding: what the result cache keeps */
    sb_buf capture;         /* the streamed bytes, for the result cache */
    int capturing;          /* 1 while capture holds the whole answer so far */
    const char *ctype;      /* Content-Type of the streamed answer */
    struct svc_rentry *hit; /* the cached answer being sent (a reference) */
    size_t hit_pos;
    unsigned ndocs;             /* documents in the answer (0 = 1) */
    const char *kind;           /* the input's kind, for the metrics */
    void (*on_done[2])(void *); /* svc_req_on_done: run when the request is freed, in order */
    void *on_done_cls[2];
};

/* Seconds since the request's headers arrived. */
double svc_req__elapsed(const svc_req *r);
/* Give freed memory back to the system now, the allocator's delay skipped
 * (one thread at a time: it flips a process-wide option). */
void svc_req__release_now(void);
/* The same when the server has fallen idle, at most once a second; a
 * release the once-a-second rule put off is owed... */
void svc_req__release_idle(void);
/* ... and made by this, called now and then while the server is idle (the
 * guard's sweeper): the last request of a burst that ends within a second
 * of the previous release still has the malloc arenas trimmed (server.c
 * release_owed says what that thread can and cannot return). */
void svc_req__release_owed(void);
/* The two above at a given time (CLOCK_MONOTONIC ns), and 1 while a
 * release is owed: for tests, which pass the time instead of waiting. */
void svc_req__release_idle_at(long long now);
void svc_req__release_owed_at(long long now);
int svc_req__release_pending(void);

/* Queue a finished MHD response with the request's extra headers. */
int svc_req__queue(svc_req *r, unsigned status, struct MHD_Response *resp);

/* Queue the streamed answer (stream.c): r->doc's bytes, or r->hit's, gzip
 * when Accept-Encoding allows it. */
int svc_req__stream_answer(svc_req *r, unsigned status, const char *content_type);

/* Conditional requests (repeat.c): whether If-None-Match lists etag; the
 * 304 for etag; a gzip answer's ETag of the identity answer's etag. */
int svc_req__none_match(const char *inm, const char *etag);
int svc_req__not_modified(svc_req *r, const char *etag);
void svc_req__gzip_etag(char *out, size_t cap, const char *etag);

#endif
