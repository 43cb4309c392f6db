/*
 * server.h - the daemon: libmicrohttpd with a thread pool, the request
 * lifecycle (three-phase access handler, bounded body, NOTIFY_COMPLETED
 * cleanup) and the process-wide counters.
 */
#ifndef SVC_SERVER_H
#define SVC_SERVER_H

#include "../core/lock.h"
#include "auth.h"
#include "budget.h"
#include "config.h"
#include "metrics.h"
#include "router.h"

#include <stdatomic.h>

typedef struct svc_server {
    svc_cfg cfg;
    svc_router router;
    sb_limits limits;
    struct MHD_Daemon *mhd;
    atomic_ullong next_id;
    unsigned long long id_salt;
    atomic_long in_flight;
    atomic_ullong requests;
    atomic_int ready;          /* 1 while accepting; 0 once shutdown began */
    svc_metrics metrics;
    svc_auth auth;             /* bearer tokens (off unless --tokens-file) */
    char *tls_cert_pem, *tls_key_pem; /* held for the daemon's lifetime */
    struct svc_lookup *lookup; /* license and OSV lookups (NULL unless --lookups or --vulnerabilities) */
    struct sb_pypimap *pypimap; /* --pypi-mapping-file, read-only after start (NULL = none) */
    struct svc_mapsrc *mapsrc;  /* --pypi-mapping-url (NULL = none) */
    struct svc_guard *guard;   /* the request-head deadline (guard.h) */
    svc_budget budget;         /* --memory-budget: what bodies and their parsing hold */
} svc_server;

/* Start listening. 0 or -1 with a message. */
int svc_server_start(svc_server *s, char *eb, size_t en);


/* The bound port (useful with --port 0). */
unsigned svc_server_port(const svc_server *s);

/* Stop accepting new connections; in-flight requests continue. */
void svc_server_quiesce(svc_server *s);

/* Stop and release everything. */
void svc_server_stop(svc_server *s);

#endif
