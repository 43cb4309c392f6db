/*
 * guard.h - the bound libmicrohttpd does not keep by itself: how long a
 * request head may take to arrive.
 *
 * MHD's --conn-timeout is an idle timeout, reset by every byte, and sbomd's
 * --request-timeout starts once the head is complete, so a client sending a
 * header line every few seconds held a connection (and a slot of
 * --max-connections) for ever. The guard knows every open connection (MHD's
 * connection notifications), when its current head began (the connection's
 * start, or the end of the previous answer on a kept-alive connection) and
 * whether that head has arrived; a sweeper thread shuts down the socket of
 * any connection still waiting for its head past the bound. shutdown(2),
 * not close(2): the descriptor stays MHD's, which sees the end of the stream
 * and closes the connection in its own thread.
 */
#ifndef SVC_GUARD_H
#define SVC_GUARD_H

#include "../../core/err.h"

#include <microhttpd.h>
#include <stdatomic.h>
#include <stddef.h>

typedef struct svc_guard svc_guard;

/* Start the sweeper: heads older than `head_timeout` seconds are cut, each
 * counted in *cut_count. NULL with *err set on failure. */
svc_guard *svc_guard_start(long head_timeout, atomic_ullong *cut_count, sb_err *err);

/* Have the sweeper call fn(cls) after each pass (every quarter second),
 * on its own thread: the server's errands that must happen while no
 * request comes to trigger them. Set once, before any connection. */
void svc_guard_on_sweep(svc_guard *g, void (*fn)(void *), void *cls);

/* Stop the sweeper and free the guard (after the daemon stopped). */
void svc_guard_stop(svc_guard *g);

/* MHD_OPTION_NOTIFY_CONNECTION callback (cls = the guard). */
void svc_guard_notify(void *cls, struct MHD_Connection *c, void **socket_context,
                      enum MHD_ConnectionNotificationCode toe);

/* The connection's request head has arrived (first access-handler call). */
void svc_guard_head_done(svc_guard *g, struct MHD_Connection *c);

/* The connection's answer is over: the clock for its next head starts. */
void svc_guard_head_wait(svc_guard *g, struct MHD_Connection *c);

#endif
