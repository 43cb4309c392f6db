/*
 * guard.c - the request-head deadline over libmicrohttpd's connections (see
 * guard.h): a list of open connections under one mutex, and a sweeper
 * thread that cuts those whose head is late.
 *
 * The mutex is what makes shutdown(2) from another thread safe: MHD calls the
 * CLOSED notification (which unlinks the entry under the mutex) before it
 * closes the descriptor, so while the sweeper holds the mutex every linked
 * entry's descriptor is still that connection's, never a reused number.
 */
#include "guard.h"
#include "../../core/deadline.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <time.h>

#define SWEEP_MS 250 /* how late past the bound a head may be cut */

typedef struct guard_conn {
    struct guard_conn *prev, *next;
    MHD_socket fd;
    struct timespec since; /* when the current head began */
    int waiting;           /* 1 while the head has not arrived */
    int cut;               /* shut down already: MHD closes it soon */
} guard_conn;

struct svc_guard {
    pthread_mutex_t mu;
    pthread_cond_t wake;
    pthread_t sweeper;
    int stopping;
    long head_timeout;
    atomic_ullong *cut_count;
    guard_conn *head; /* the open connections */
    size_t n;
    void (*on_sweep)(void *); /* svc_guard_on_sweep */
    void *on_sweep_cls;
};

static double seconds_since(const struct timespec *t, const struct timespec *now)
{
    return (double)(now->tv_sec - t->tv_sec) + (double)(now->tv_nsec - t->tv_nsec) / 1e9;
}

/* One pass: cut every connection whose head is later than the bound. */
static void sweep(svc_guard *g)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    pthread_mutex_lock(&g->mu);
    for (guard_conn *e = g->head; e; e = e->next) {
        if (!e->waiting || e->cut || seconds_since(&e->since, &now) <= (double)g->head_timeout)
            continue;
        e->cut = 1;
        shutdown(e->fd, SHUT_RDWR);
        if (g->cut_count)
            atomic_fetch_add(g->cut_count, 1);
    }
    pthread_mutex_unlock(&g->mu);
}

static void *sweeper_run(void *cls)
{
    svc_guard *g = cls;
    pthread_mutex_lock(&g->mu);
    while (!g->stopping) {
        struct timespec until;
        sb_deadline_after(CLOCK_REALTIME, SWEEP_MS * 1000000L, &until);
        int rc = pthread_cond_timedwait(&g->wake, &g->mu, &until);
        if (rc == ETIMEDOUT && !g->stopping) {
            void (*fn)(void *) = g->on_sweep; /* read under the mutex svc_guard_on_sweep sets it under */
            void *fn_cls = g->on_sweep_cls;
            pthread_mutex_unlock(&g->mu);
            sweep(g);
            if (fn)
                fn(fn_cls);
            pthread_mutex_lock(&g->mu);
        }
    }
    pthread_mutex_unlock(&g->mu);
    return NULL;
}

svc_guard *svc_guard_start(long head_timeout, atomic_ullong *cut_count, sb_err *err)
{
    svc_guard *g = calloc(1, sizeof *g);
    if (NULL == g) {
        sb_err_set(err, SB_ENOMEM, "out of memory starting the connection guard");
        return NULL;
    }
    pthread_mutex_init(&g->mu, NULL);
    pthread_cond_init(&g->wake, NULL);
    g->head_timeout = head_timeout;
    g->cut_count = cut_count;
    if (pthread_create(&g->sweeper, NULL, sweeper_run, g) != 0) {
        sb_err_set(err, SB_EIO, "cannot start the connection guard's thread");
        pthread_cond_destroy(&g->wake);
        pthread_mutex_destroy(&g->mu);
        free(g);
        return NULL;
    }
    return g;
}

void svc_guard_on_sweep(svc_guard *g, void (*fn)(void *), void *cls)
{
    pthread_mutex_lock(&g->mu);
    g->on_sweep = fn;
    g->on_sweep_cls = cls;
    pthread_mutex_unlock(&g->mu);
}

void svc_guard_stop(svc_guard *g)
{
    if (NULL == g)
        return;
    pthread_mutex_lock(&g->mu);
    g->stopping = 1;
    pthread_cond_signal(&g->wake);
    pthread_mutex_unlock(&g->mu);
    pthread_join(g->sweeper, NULL);
    /* the daemon has stopped: every CLOSED notification came, but be safe */
    while (g->head) {
        guard_conn *e = g->head;
        g->head = e->next;
        free(e);
    }
    pthread_cond_destroy(&g->wake);
    pthread_mutex_destroy(&g->mu);
    free(g);
}

static void link_conn(svc_guard *g, guard_conn *e)
{
    pthread_mutex_lock(&g->mu);
    e->next = g->head;
    if (g->head)
        g->head->prev = e;
    g->head = e;
    g->n++;
    pthread_mutex_unlock(&g->mu);
}

static void unlink_conn(svc_guard *g, guard_conn *e)
{
    pthread_mutex_lock(&g->mu);
    if (e->prev)
        e->prev->next = e->next;
    else
        g->head = e->next;
    if (e->next)
        e->next->prev = e->prev;
    g->n--;
    pthread_mutex_unlock(&g->mu);
}

void svc_guard_notify(void *cls, struct MHD_Connection *c, void **socket_context,
                      enum MHD_ConnectionNotificationCode toe)
{
    svc_guard *g = cls;
    if (toe == MHD_CONNECTION_NOTIFY_STARTED) {
        const union MHD_ConnectionInfo *ci = MHD_get_connection_info(c, MHD_CONNECTION_INFO_CONNECTION_FD);
        guard_conn *e = ci ? calloc(1, sizeof *e) : NULL;
        if (NULL == e)
            return; /* unguarded: MHD's own timeouts still apply */
        e->fd = ci->connect_fd;
        e->waiting = 1;
        clock_gettime(CLOCK_MONOTONIC, &e->since);
        link_conn(g, e);
        *socket_context = e;
    } else if (toe == MHD_CONNECTION_NOTIFY_CLOSED && *socket_context) {
        guard_conn *e = *socket_context;
        *socket_context = NULL;
        unlink_conn(g, e);
        free(e);
    }
}

static guard_conn *conn_entry(struct MHD_Connection *c)
{
    const union MHD_ConnectionInfo *ci = MHD_get_connection_info(c, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
    return ci ? ci->socket_context : NULL;
}

void svc_guard_head_done(svc_guard *g, struct MHD_Connection *c)
{
    guard_conn *e = g ? conn_entry(c) : NULL;
    if (NULL == e)
        return;
    pthread_mutex_lock(&g->mu);
    e->waiting = 0;
    pthread_mutex_unlock(&g->mu);
}

void svc_guard_head_wait(svc_guard *g, struct MHD_Connection *c)
{
    guard_conn *e = g ? conn_entry(c) : NULL;
    if (NULL == e)
        return;
    pthread_mutex_lock(&g->mu);
    clock_gettime(CLOCK_MONOTONIC, &e->since);
    e->waiting = 1;
    pthread_mutex_unlock(&g->mu);
}
