/*
 * main.c - wiring only, in a fixed order: config, routes, server start, wait
 * for a signal, quiesce, drain in-flight requests (bounded), stop.
 *
 * Start-up and reload failures travel up to here as an sb_code with an
 * sb_err (core/err.h: code and message) and only here become an exit
 * status or a log line; nothing below main exits.
 */
#include "../core/doc.h"
#include "../core/pypimap.h"
#include "lookup/mapsrc.h"
#include "../handlers/handlers.h"
#include "config.h"
#include "filewatch.h"
#include "lookup/lookup.h"
#include "lookup/shared_cache.h"
#include "log.h"
#include "http/server.h"
#include "intake.h"

#include <curl/curl.h>
#include <jansson.h>
#include <mimalloc.h>
#include <arpa/inet.h>
#include <sys/socket.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#define MAPPING_MAX (256L << 20) /* the real mapping is a few MiB */

/* --pypi-mapping-file: read once, shared read-only by every request. */
static sb_code load_mapping(svc_server *srv, sb_err *err)
{
    FILE *f = fopen(srv->cfg.pypi_mapping_file, "rb");
    if (NULL == f)
        return sb_err_set(err, SB_EIO, "pypi-mapping-file '%.200s' cannot be read", srv->cfg.pypi_mapping_file);
    sb_buf b = SB_BUF_INIT(MAPPING_MAX);
    char chunk[65536];
    size_t got;
    sb_code rc = SB_OK;
    while (SB_OK == rc && (got = fread(chunk, 1, sizeof chunk, f)) > 0)
        rc = sb_buf_append(&b, chunk, got);
    fclose(f);
    sb_err perr;
    sb_err_clear(&perr);
    if (rc != SB_OK)
        sb_err_set(err, rc, "pypi-mapping-file '%.200s' is larger than %ld bytes", srv->cfg.pypi_mapping_file,
                   MAPPING_MAX);
    else if ((rc = sb_pypimap_parse(&srv->pypimap, b.data ? b.data : "", b.len, &perr)) != SB_OK)
        sb_err_set(err, rc, "pypi-mapping-file '%.200s': %s", srv->cfg.pypi_mapping_file, perr.msg);
    sb_buf_free(&b);
    if (SB_OK == rc) {
        char detail[64];
        snprintf(detail, sizeof detail, "%zu conda names", sb_pypimap_count(srv->pypimap));
        svc_log_event("pypi mapping loaded", detail);
    }
    return rc;
}

/* SIGHUP, or a watched file replaced: the tokens and/or the TLS files read
 * again; a failure keeps what was loaded and says so at level error. */
static void reload(svc_server *srv, int tokens, int tls, const char *why)
{
    char detail[160];
    sb_err err;
    if (tokens) {
        size_t n = 0;
        if (svc_auth_reload(&srv->auth, &n, &err) == SB_OK) {
            snprintf(detail, sizeof detail, "%zu token(s)%s (%s)", n, srv->auth.enabled ? "" : " (no tokens-file)",
                     why);
            svc_log_event("tokens reloaded", detail);
        } else {
            svc_log_error("tokens reload failed, keeping the previous set", err.msg);
        }
    }
    int st = tls ? svc_server_reload_tls(srv, &err) : 1;
    if (st == 0) {
        snprintf(detail, sizeof detail, "%.120s (%s)", srv->cfg.tls_cert, why);
        svc_log_event("TLS certificate reloaded", detail);
    } else if (st < 0) {
        svc_log_error("TLS reload failed, keeping the previous certificate", err.msg);
    }
}

/* --check-config: the listen addresses and the tokens file as a start
 * would read them, then the settings. The exit status. */
static int check_config(svc_server *srv)
{
    sb_err err;
    struct sockaddr_storage probe;
    int family;
    if (svc_listen_parse(srv->cfg.listen, srv->cfg.port, &probe, &family, &err) != SB_OK ||
        (srv->cfg.probe_listen[0] &&
         svc_listen_parse(srv->cfg.probe_listen, srv->cfg.probe_port, &probe, &family, &err) != SB_OK)) {
        fprintf(stderr, "sbomd: %s\n", err.msg);
        return 2;
    }
    /* the tokens too: a file with none is as wrong as a missing one */
    sb_code tokens_bad = svc_auth_init(&srv->auth, srv->cfg.tokens_file, srv->cfg.auth_open, &err);
    svc_auth_free(&srv->auth);
    if (tokens_bad != SB_OK) {
        fprintf(stderr, "sbomd: %s\n", err.msg);
        return 2;
    }
    svc_cfg_print(&srv->cfg);
    printf("config ok\n");
    return 0;
}

/* Routes and what they count, the mapping, the log level, then the
 * subsystems with threads in the order they depend on each other (the
 * shared cache before the engine that writes to it). 0, or the exit status
 * with the reason printed. */
static int init_server(svc_server *srv)
{
    sb_err err;
    svc_account_json_install(); /* jansson's trees charged to the request that builds them */
    srv->metrics.started = (long long)time(NULL);
    if (h_health_register(&srv->router) || h_sbom_register(&srv->router) || h_formats_register(&srv->router) ||
        h_metrics_register(&srv->router) || h_openapi_register(&srv->router) || h_report_register(&srv->router) ||
        h_page_register(&srv->router) || h_version_register(&srv->router) || h_diff_register(&srv->router)) {
        fprintf(stderr, "sbomd: too many routes\n");
        return 1;
    }
    for (unsigned i = 0; i < srv->router.n; i++)
        svc_metrics_route(&srv->metrics, srv->router.routes[i].path);
    /* output=vex documents are counted under their own names */
    for (const sb_doc_ops *const *f = sb_doc_formats(); *f; f++) {
        svc_metrics_format(&srv->metrics, (*f)->name);
        if ((*f)->vex)
            svc_metrics_format(&srv->metrics, (*f)->vex->name);
    }
    /* reports and diffs by their output (report-json, report-csv, ...) */
    for (int o = 0; svc_intake_report_label(o); o++)
        svc_metrics_format(&srv->metrics, svc_intake_report_label(o));
    if (srv->cfg.pypi_mapping_file[0] && load_mapping(srv, &err) != SB_OK) {
        fprintf(stderr, "sbomd: %s\n", err.msg);
        return 2;
    }
    curl_global_init(CURL_GLOBAL_DEFAULT);                                     /* before any thread */
    svc_log_set_level((svc_log_level)svc_log_level_parse(srv->cfg.log_level)); /* checked when loaded */
    if (svc_shared_init(&srv->cfg, &srv->metrics, &err) != SB_OK ||
        (srv->cfg.pypi_mapping_url[0] && svc_mapsrc_start(&srv->mapsrc, &srv->cfg, &err) != SB_OK) ||
        ((srv->cfg.lookups || srv->cfg.vulns) &&
         svc_lookup_start(&srv->lookup, &srv->cfg, &srv->metrics, &err) != SB_OK)) {
        fprintf(stderr, "sbomd: %s\n", err.msg);
        return 1;
    }
    if (svc_auth_init(&srv->auth, srv->cfg.tokens_file, srv->cfg.auth_open, &err) != SB_OK) {
        fprintf(stderr, "sbomd: %s\n", err.msg);
        return 2;
    }
    return 0;
}

/* The start's log lines: where it listens, and a lowered max-body. */
static void log_started(svc_server *srv)
{
    char detail[128];
    int v6 = strchr(srv->cfg.listen, ':') && srv->cfg.listen[0] != '[';
    snprintf(detail, sizeof detail, "%s://%s%s%s:%u", srv->cfg.tls_cert[0] ? "https" : "http", v6 ? "[" : "",
             srv->cfg.listen, v6 ? "]" : "", svc_server_port(srv));
    svc_log_event("listening", detail);
    if (srv->probe) {
        const char *pl = srv->cfg.probe_listen[0] ? srv->cfg.probe_listen : srv->cfg.listen;
        int pv6 = strchr(pl, ':') && pl[0] != '[';
        snprintf(detail, sizeof detail, "http://%s%s%s:%u", pv6 ? "[" : "", pl, pv6 ? "]" : "",
                 svc_server_probe_port(srv));
        svc_log_event("probe listener", detail);
    }
    if (srv->cfg.max_body_lowered) {
        snprintf(detail, sizeof detail, "max-body %ld: the most that the memory budget of %ld bytes holds",
                 srv->cfg.max_body, srv->cfg.memory_budget);
        svc_log_event("max-body lowered to fit the memory budget", detail);
    }
}

/* Until SIGTERM or SIGINT: a second's tick (replaced files are noticed,
 * daemons a TLS reload replaced are stopped once idle), SIGHUP reloads.
 * The signal that ended it. */
static int serve(svc_server *srv, const sigset_t *set)
{
    /* a Secret volume is updated by the kubelet, which sends no SIGHUP */
    svc_filewatch watch_tokens, watch_cert, watch_key;
    svc_filewatch_init(&watch_tokens, srv->cfg.tokens_file);
    svc_filewatch_init(&watch_cert, srv->cfg.tls_cert);
    svc_filewatch_init(&watch_key, srv->cfg.tls_key);
    for (;;) {
        struct timespec tick = {1, 0};
        int sig = sigtimedwait(set, NULL, &tick);
        svc_server_tick(srv);
        if (sig == SIGHUP) {
            reload(srv, 1, 1, "SIGHUP");
            svc_filewatch_init(&watch_tokens, srv->cfg.tokens_file); /* what is loaded now */
            svc_filewatch_init(&watch_cert, srv->cfg.tls_cert);
            svc_filewatch_init(&watch_key, srv->cfg.tls_key);
            continue;
        }
        if (sig > 0)
            return sig;
        int tokens = svc_filewatch_poll(&watch_tokens);
        int cert = svc_filewatch_poll(&watch_cert), key = svc_filewatch_poll(&watch_key);
        if (tokens || cert || key)
            reload(srv, tokens, cert || key, "file changed");
    }
}

/* The drain: /readyz 503 for shutdown-delay so endpoints drop the pod, the
 * listener closed, requests in flight given their deadline at most, then
 * every subsystem stopped in the reverse order of its start. */
static void drain_and_stop(svc_server *srv, int sig)
{
    svc_log_event("stopping", sig == SIGTERM ? "SIGTERM" : "SIGINT");
    atomic_store(&srv->ready, 0);
    for (long i = 0; i < srv->cfg.shutdown_delay * 10; i++) {
        struct timespec ts = {0, 100 * 1000 * 1000};
        nanosleep(&ts, NULL);
    }
    svc_server_quiesce(srv);
    /* no request outlives --request-timeout (408, 504, or a cut stream), so
     * the drain waits that long at most; the pod's grace period covers it */
    for (long i = 0; i < (srv->cfg.request_timeout + 1) * 10 && atomic_load(&srv->in_flight) > 0; i++) {
        struct timespec ts = {0, 100 * 1000 * 1000};
        nanosleep(&ts, NULL);
    }
    svc_server_stop(srv);
    svc_lookup_stop(srv->lookup);
    svc_shared_shutdown(); /* after the engine: it writes answers there */
    sb_pypimap_free(srv->pypimap);
    svc_mapsrc_stop(srv->mapsrc);
    curl_global_cleanup();
    svc_auth_free(&srv->auth);
    svc_log_event("stopped", NULL);
}

/* Settings, then (as redis's main) init, start, serve, drain: each phase
 * its own function above. */
int main(int argc, char **argv)
{
    static svc_server srv; /* owned by main; reached by callbacks through their cls */
    sb_err err;
    int rc = svc_cfg_load(&srv.cfg, argc, argv, &err);
    if (rc == 1)
        return 0;
    if (rc < 0) {
        fprintf(stderr, "sbomd: %s\n", err.msg);
        return 2;
    }
    char unknown[512];
    if (svc_cfg_unknown_env(unknown, sizeof unknown)) {
        /* --check-config fails on it; a server starts and says so */
        if (srv.cfg.check_only) {
            fprintf(stderr, "sbomd: %s\n", unknown);
            return 2;
        }
        svc_log_warn("config", unknown);
    }
    if (srv.cfg.check_only)
        return check_config(&srv);
    if ((rc = init_server(&srv)) != 0)
        return rc;
    /* signals are taken synchronously by this thread only */
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGINT);
    sigaddset(&set, SIGTERM);
    sigaddset(&set, SIGHUP);
    pthread_sigmask(SIG_BLOCK, &set, NULL);
    signal(SIGPIPE, SIG_IGN);
    if (svc_server_start(&srv, &err) != SB_OK) {
        fprintf(stderr, "sbomd: %s\n", err.msg);
        return 1;
    }
    log_started(&srv);
    drain_and_stop(&srv, serve(&srv, &set));
    return 0;
}
