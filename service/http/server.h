/*
 * server.h - the daemon: libmicrohttpd with a thread pool, the request
 * lifecycle (three-phase access handler, bounded body, NOTIFY_COMPLETED
 * cleanup) and the process-wide counters.
 */
#ifndef SVC_SERVER_H
#define SVC_SERVER_H

#include "../../core/lock.h"
#include "auth.h"
#include "../budget.h"
#include "../config.h"
#include "../metrics.h"
#include "router.h"

#include <stdatomic.h>

/* One libmicrohttpd daemon's context (its callbacks' cls): the main
 * listener, or the probe listener (--probe-port), which serves only the
 * probe routes, in plain HTTP, on its own thread and connection budget, so
 * a main listener full of slow clients does not keep a kubelet from its
 * answer. */
typedef struct svc_listener {
    struct svc_server *srv;
    struct svc_guard *guard; /* this listener's request-head deadline */
    int probe;               /* 1: the probe listener */
} svc_listener;

/* Daemons a TLS reload replaced: no longer accepting, still finishing their
 * connections; stopped once idle or past the request deadline. */
#define SVC_RETIRED_MAX 4
typedef struct svc_retired {
    struct MHD_Daemon *mhd;
    char *cert_pem, *key_pem;
    double since; /* CLOCK_MONOTONIC seconds */
} svc_retired;

typedef struct svc_server {
    svc_cfg cfg;
    svc_router router;
    sb_limits limits;
    struct MHD_Daemon *mhd;
    atomic_ullong next_id;
    atomic_ullong next_scope; /* a request's account scope (budget.h), never 0 */
    unsigned long long id_salt;
    atomic_long in_flight;
    atomic_ullong requests;
    atomic_int ready; /* 1 while accepting; 0 once shutdown began */
    svc_metrics metrics;
    svc_auth auth;                        /* bearer tokens (off unless --tokens-file) */
    char *tls_cert_pem, *tls_key_pem;     /* held for the daemon's lifetime */
    struct svc_lookup *lookup;            /* license and OSV lookups (NULL unless --lookups or --vulnerabilities) */
    struct sb_pypimap *pypimap;           /* --pypi-mapping-file, read-only after start (NULL = none) */
    struct svc_mapsrc *mapsrc;            /* --pypi-mapping-url (NULL = none) */
    svc_budget budget;                    /* --memory-budget: what bodies and their parsing hold */
    svc_listener main_l;                  /* the main daemon's context */
    svc_listener probe_l;                 /* the probe daemon's context */
    struct MHD_Daemon *probe;             /* --probe-port's daemon (NULL when off) */
    svc_retired retired[SVC_RETIRED_MAX]; /* daemons replaced by TLS reloads */
    struct svc_rcache *rcache;            /* finished responses for repeats (NULL = --result-cache-size 0) */
} svc_server;

/* Start listening. SB_OK, or an sb_code with *err saying why. */
sb_code svc_server_start(svc_server *s, sb_err *err);


/* The bound port (useful with --port 0). */
unsigned svc_server_port(const svc_server *s);

/* The probe listener's bound port, 0 when it is off. */
unsigned svc_server_probe_port(const svc_server *s);

/* SIGHUP for TLS: read --tls-cert / --tls-key again and start a daemon with
 * them on the same listening socket; only once it runs does the old one stop
 * accepting (it finishes its connections, then svc_server_tick stops it).
 * 1 when TLS is off (nothing to do), 0 reloaded, or a negative sb_code with
 * *err saying why (the old certificate keeps serving). */
int svc_server_reload_tls(svc_server *s, sb_err *err);

/* Stop replaced daemons that are idle or past the request deadline; called
 * about once a second by the main thread. */
void svc_server_tick(svc_server *s);

/* Stop accepting new connections; in-flight requests continue. */
void svc_server_quiesce(svc_server *s);

/* Stop and release everything. */
void svc_server_stop(svc_server *s);

#endif
