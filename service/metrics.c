/*
 * metrics.c - counters behind GET /metrics (Prometheus text format 0.0.4).
 *
 * DESIGN: fixed tables of atomics indexed by route slot, a small status list
 * and a format slot, so recording a request is a handful of relaxed atomic
 * adds and no lock; labels are registered once at startup.
 */
#include "metrics.h"

#include "../core/version.h"

#include <dirent.h>
#include <pthread.h>
#include <sys/resource.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static const unsigned statuses[SVC_METRICS_STATUSES] = {200, 304, 400, 401, 403, 404, 405, 406, 408, 411,
                                                        413, 415, 422, 429, 500, 501, 502, 503, 504, 0};
static const char *const upstream_names[SVC_UP_N] = {"pypi", "conda", "osv", "kev", "epss", "scorecard", "channel"};
/* up to 120 s: a request may run SBOMD_REQUEST_TIMEOUT (60 s deployed, 120
 * s at most sensibly) and a histogram that stops at 10 s hides exactly the
 * slow requests an operator looks for */
static const double bucket_le[SVC_METRICS_BUCKETS] = {0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25,
                                                      0.5,   1,      2.5,   5,    10,    30,   60,  120};
static const char *const gate_names[SVC_GATE_N] = {"license", "quality",   "vulnerabilities",
                                                   "yanked",  "scorecard", "diff"};

unsigned svc_metrics_route(svc_metrics *m, const char *label)
{
    for (unsigned i = 0; i < m->nroutes; i++)
        if (!strcmp(m->route_names[i], label))
            return i;
    if (m->nroutes >= SVC_METRICS_ROUTES - 1)
        return SVC_METRICS_ROUTES - 1;
    m->route_names[m->nroutes] = label;
    return m->nroutes++;
}

void svc_metrics_format(svc_metrics *m, const char *name)
{
    if (m->nformats < SVC_METRICS_FORMATS)
        m->format_names[m->nformats++] = name;
}

/* Input kinds are few and fixed by the readers; the first request of each
 * claims a slot under a lock, every later one only reads the claimed names
 * (a name is written before nkinds covers it). The last slot is "other". */
static pthread_mutex_t kinds_mu = PTHREAD_MUTEX_INITIALIZER;

static void count_input(svc_metrics *m, const char *kind)
{
    unsigned n = atomic_load(&m->nkinds);
    for (unsigned i = 0; i < n; i++)
        if (!strcmp(m->kind_names[i], kind)) {
            atomic_fetch_add_explicit(&m->inputs[i], 1, memory_order_relaxed);
            return;
        }
    pthread_mutex_lock(&kinds_mu);
    n = atomic_load(&m->nkinds);
    unsigned i = 0;
    while (i < n && strcmp(m->kind_names[i], kind))
        i++;
    if (i == n) {
        if (n < SVC_METRICS_KINDS - 1 && strlen(kind) < sizeof m->kind_names[0]) {
            memcpy(m->kind_names[n], kind, strlen(kind) + 1);
            atomic_store(&m->nkinds, n + 1);
        } else {
            i = SVC_METRICS_KINDS - 1;
        }
    }
    pthread_mutex_unlock(&kinds_mu);
    atomic_fetch_add_explicit(&m->inputs[i], 1, memory_order_relaxed);
}

static unsigned status_slot(unsigned status)
{
    for (unsigned i = 0; i < SVC_METRICS_STATUSES - 1; i++)
        if (statuses[i] == status)
            return i;
    return SVC_METRICS_STATUSES - 1; /* other */
}

void svc_metrics_request(svc_metrics *m, unsigned route, unsigned status, const char *format, double seconds,
                         uint64_t bytes_in, uint64_t bytes_out, long packages, int stream_failed, unsigned ndocs,
                         const char *kind)
{
    if (kind)
        count_input(m, kind);
    if (route >= SVC_METRICS_ROUTES)
        route = SVC_METRICS_ROUTES - 1;
    atomic_fetch_add_explicit(&m->by_route_status[route][status_slot(status)], 1, memory_order_relaxed);
    atomic_fetch_add_explicit(&m->bytes_in, bytes_in, memory_order_relaxed);
    atomic_fetch_add_explicit(&m->bytes_out, bytes_out, memory_order_relaxed);
    if (stream_failed)
        atomic_fetch_add_explicit(&m->stream_failures, 1, memory_order_relaxed);
    if (status == 200 && format) {
        for (unsigned i = 0; i < m->nformats; i++)
            if (!strcmp(m->format_names[i], format))
                atomic_fetch_add_explicit(&m->documents[i], ndocs ? ndocs : 1, memory_order_relaxed);
        if (packages > 0)
            atomic_fetch_add_explicit(&m->packages, (unsigned long long)packages, memory_order_relaxed);
    }
    unsigned b = 0, st = status_slot(status);
    while (b < SVC_METRICS_BUCKETS && seconds > bucket_le[b])
        b++;
    if (b < SVC_METRICS_BUCKETS)
        atomic_fetch_add_explicit(&m->duration_buckets[route][st][b], 1, memory_order_relaxed);
    atomic_fetch_add_explicit(&m->duration_count[route][st], 1, memory_order_relaxed);
    atomic_fetch_add_explicit(&m->duration_us_sum[route][st], (unsigned long long)(seconds * 1e6),
                              memory_order_relaxed);
}

int svc_metrics_gate_label(const char *name)
{
    static const struct {
        const char *name;
        svc_gate_label label;
    } map[] = {
        {"policy-violation", SVC_GATE_LICENSE},
        {"quality-failed", SVC_GATE_QUALITY},
        {"vulnerable", SVC_GATE_VULNERABILITIES},
        {"fail-on-severity", SVC_GATE_VULNERABILITIES},
        {"fail-on-kev", SVC_GATE_VULNERABILITIES},
        {"fail-on-epss", SVC_GATE_VULNERABILITIES},
        {"yanked", SVC_GATE_YANKED},
        {"fail-on-yanked", SVC_GATE_YANKED},
        {"scorecard", SVC_GATE_SCORECARD},
        {"fail-on-scorecard", SVC_GATE_SCORECARD},
        {"diff", SVC_GATE_DIFF},
    };
    for (size_t i = 0; name && i < sizeof map / sizeof map[0]; i++)
        if (!strcmp(name, map[i].name))
            return (int)map[i].label;
    return -1;
}

void svc_metrics_gate(svc_metrics *m, int label, int unevaluated)
{
    if (label < 0 || label >= SVC_GATE_N)
        return;
    atomic_fetch_add_explicit(unevaluated ? &m->gate_unevaluated[label] : &m->gate_failures[label], 1,
                              memory_order_relaxed);
}

void svc_metrics_lookup(svc_metrics *m, svc_upstream up, int ok, double seconds)
{
    if (up >= SVC_UP_N)
        return;
    atomic_fetch_add_explicit(&m->up_lookups[up], 1, memory_order_relaxed);
    if (!ok)
        atomic_fetch_add_explicit(&m->up_failures[up], 1, memory_order_relaxed);
    atomic_fetch_add_explicit(&m->up_us[up], (unsigned long long)(seconds * 1e6), memory_order_relaxed);
}

static int put(sb_buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int put(sb_buf *b, const char *fmt, ...)
{
    char line[512];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    if (n < 0)
        return -1;
    return sb_buf_append(b, line, (size_t)n < sizeof line ? (size_t)n : sizeof line - 1) == SB_OK ? 0 : -1;
}

static long rss_bytes(void)
{
    FILE *f = fopen("/proc/self/statm", "r");
    long pages = 0, rss = 0;
    if (f) {
        if (fscanf(f, "%ld %ld", &pages, &rss) != 2)
            rss = 0;
        fclose(f);
    }
    return rss * sysconf(_SC_PAGESIZE);
}

#define LOAD(x) atomic_load_explicit(&(x), memory_order_relaxed)

/* Open file descriptors: the entries of /proc/self/fd (less the one reading it). */
static long open_fds(void)
{
    DIR *d = opendir("/proc/self/fd");
    long n = 0;
    if (NULL == d)
        return -1;
    while (readdir(d))
        n++;
    closedir(d);
    return n - 3; /* ".", ".." and the directory's own descriptor */
}

/* The standard process_* families (Prometheus client conventions), from
 * /proc and getrusage: a dashboard built for any exporter reads them. */
static int process_metrics(const svc_metrics *m, sb_buf *b)
{
    struct rusage ru;
    double cpu = 0;
    if (0 == getrusage(RUSAGE_SELF, &ru))
        cpu = (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6 + (double)ru.ru_stime.tv_sec +
              (double)ru.ru_stime.tv_usec / 1e6;
    struct rlimit rl;
    long long max_fds = 0 == getrlimit(RLIMIT_NOFILE, &rl) && rl.rlim_cur != RLIM_INFINITY ? (long long)rl.rlim_cur
                                                                                           : -1;
    int rc = put(b,
                 "# HELP process_cpu_seconds_total Total user and system CPU time spent in seconds.\n"
                 "# TYPE process_cpu_seconds_total counter\nprocess_cpu_seconds_total %.6f\n",
                 cpu);
    rc |= put(b,
              "# HELP process_resident_memory_bytes Resident memory size in bytes.\n"
              "# TYPE process_resident_memory_bytes gauge\nprocess_resident_memory_bytes %ld\n",
              rss_bytes());
    rc |= put(b,
              "# HELP process_start_time_seconds Start time of the process since unix epoch in seconds.\n"
              "# TYPE process_start_time_seconds gauge\nprocess_start_time_seconds %lld\n",
              m->started);
    rc |= put(b,
              "# HELP process_open_fds Number of open file descriptors.\n"
              "# TYPE process_open_fds gauge\nprocess_open_fds %ld\n",
              open_fds());
    if (max_fds >= 0)
        rc |= put(b,
                  "# HELP process_max_fds Maximum number of open file descriptors.\n"
                  "# TYPE process_max_fds gauge\nprocess_max_fds %lld\n",
                  max_fds);
    return rc;
}

int svc_metrics_render(const svc_metrics *cm, sb_buf *b, long in_flight, int ready, unsigned long long budget,
                       unsigned long long charged)
{
    svc_metrics *m = (svc_metrics *)cm; /* atomics are read, never written, here */
    int rc = 0;
    rc |= put(b,
              "# HELP sbomd_requests_total Requests answered, by route and status.\n"
              "# TYPE sbomd_requests_total counter\n");
    for (unsigned r = 0; r < SVC_METRICS_ROUTES; r++) {
        const char *name = r < m->nroutes ? m->route_names[r] : (r == SVC_METRICS_ROUTES - 1 ? "unmatched" : NULL);
        if (!name)
            continue;
        for (unsigned s = 0; s < SVC_METRICS_STATUSES; s++) {
            unsigned long long v = LOAD(m->by_route_status[r][s]);
            if (!v)
                continue;
            if (s == SVC_METRICS_STATUSES - 1)
                rc |= put(b, "sbomd_requests_total{route=\"%s\",status=\"other\"} %llu\n", name, v);
            else
                rc |= put(b, "sbomd_requests_total{route=\"%s\",status=\"%u\"} %llu\n", name, statuses[s], v);
        }
    }
    rc |= put(
        b,
        "# HELP sbomd_documents_total Documents and reports answered 200, by format: the document's, or report-OUTPUT for a report or a diff (an NDJSON answer counts each document it holds).\n"
        "# TYPE sbomd_documents_total counter\n");
    for (unsigned i = 0; i < m->nformats; i++)
        rc |= put(b, "sbomd_documents_total{format=\"%s\"} %llu\n", m->format_names[i], LOAD(m->documents[i]));
    rc |= put(
        b,
        "# HELP sbomd_inputs_total Lockfiles and manifests read, by kind (answers from the result cache count too).\n"
        "# TYPE sbomd_inputs_total counter\n");
    unsigned nk = atomic_load(&m->nkinds);
    for (unsigned i = 0; i < nk; i++)
        rc |= put(b, "sbomd_inputs_total{kind=\"%s\"} %llu\n", m->kind_names[i], LOAD(m->inputs[i]));
    if (LOAD(m->inputs[SVC_METRICS_KINDS - 1]))
        rc |= put(b, "sbomd_inputs_total{kind=\"other\"} %llu\n", LOAD(m->inputs[SVC_METRICS_KINDS - 1]));
    rc |= put(b,
              "# HELP sbomd_request_duration_seconds Time from request start to completion, by route and status "
              "(the labels of sbomd_requests_total).\n"
              "# TYPE sbomd_request_duration_seconds histogram\n");
    for (unsigned r = 0; r < SVC_METRICS_ROUTES; r++) {
        const char *name = r < m->nroutes ? m->route_names[r] : r == SVC_METRICS_ROUTES - 1 ? "unmatched" : NULL;
        if (NULL == name)
            continue;
        for (unsigned s = 0; s < SVC_METRICS_STATUSES; s++) {
            unsigned long long count = LOAD(m->duration_count[r][s]);
            if (!count) /* as sbomd_requests_total: a pair seen once is kept from then on */
                continue;
            char st[8];
            if (s == SVC_METRICS_STATUSES - 1)
                snprintf(st, sizeof st, "other");
            else
                snprintf(st, sizeof st, "%u", statuses[s]);
            unsigned long long cum = 0;
            for (unsigned i = 0; i < SVC_METRICS_BUCKETS; i++) {
                cum += LOAD(m->duration_buckets[r][s][i]);
                rc |= put(b, "sbomd_request_duration_seconds_bucket{route=\"%s\",status=\"%s\",le=\"%g\"} %llu\n", name,
                          st, bucket_le[i], cum);
            }
            rc |= put(b, "sbomd_request_duration_seconds_bucket{route=\"%s\",status=\"%s\",le=\"+Inf\"} %llu\n", name,
                      st, count);
            rc |= put(b, "sbomd_request_duration_seconds_sum{route=\"%s\",status=\"%s\"} %.6f\n", name, st,
                      (double)LOAD(m->duration_us_sum[r][s]) / 1e6);
            rc |= put(b, "sbomd_request_duration_seconds_count{route=\"%s\",status=\"%s\"} %llu\n", name, st, count);
        }
    }
    /* every gate always listed: a rule or panel on a gate that never fired
     * reads 0, not an absent series */
    rc |= put(b,
              "# HELP sbomd_gate_failures_total Requests a gate failed (422), by gate.\n"
              "# TYPE sbomd_gate_failures_total counter\n");
    for (int g = 0; g < SVC_GATE_N; g++)
        rc |= put(b, "sbomd_gate_failures_total{gate=\"%s\"} %llu\n", gate_names[g], LOAD(m->gate_failures[g]));
    rc |= put(b,
              "# HELP sbomd_gates_unevaluated_total Requests answered 503 gate-unevaluated because the data a gate "
              "reads was incomplete (an upstream failed), by gate.\n"
              "# TYPE sbomd_gates_unevaluated_total counter\n");
    for (int g = 0; g < SVC_GATE_N; g++)
        rc |= put(b, "sbomd_gates_unevaluated_total{gate=\"%s\"} %llu\n", gate_names[g], LOAD(m->gate_unevaluated[g]));
    /* lookups by upstream: which service failed or slowed is what an operator asks first */
    static const struct {
        const char *name, *help, *type;
    } up_families[3] = {
        {"sbomd_lookups_total", "Lookup transfers made, by upstream.", "counter"},
        {"sbomd_lookup_failures_total", "Lookup transfers that failed (error, timeout, bad answer), by upstream.",
         "counter"},
        {"sbomd_lookup_seconds_total", "Time spent in lookup transfers, by upstream.", "counter"},
    };
    for (int f = 0; f < 3; f++) {
        rc |= put(b, "# HELP %s %s\n# TYPE %s %s\n", up_families[f].name, up_families[f].help, up_families[f].name,
                  up_families[f].type);
        for (int u = 0; u < SVC_UP_N; u++) {
            if (f == 2)
                rc |= put(b, "%s{upstream=\"%s\"} %.6f\n", up_families[f].name, upstream_names[u],
                          (double)LOAD(m->up_us[u]) / 1e6);
            else
                rc |= put(b, "%s{upstream=\"%s\"} %llu\n", up_families[f].name, upstream_names[u],
                          f ? LOAD(m->up_failures[u]) : LOAD(m->up_lookups[u]));
        }
    }
    /* the plain counters: name, help, value */
    const struct {
        const char *name, *help;
        unsigned long long v;
    } counters[] = {
        {"sbomd_bytes_received_total", "Request body bytes received.", LOAD(m->bytes_in)},
        {"sbomd_bytes_sent_total", "Response bytes sent.", LOAD(m->bytes_out)},
        {"sbomd_packages_total", "Packages in the documents written.", LOAD(m->packages)},
        {"sbomd_stream_failures_total", "Responses the server cut short (deadline, producer error, shutdown).",
         LOAD(m->stream_failures)},
        {"sbomd_client_disconnects_total", "Responses the client left before their end (not stream failures).",
         LOAD(m->client_disconnects)},
        {"sbomd_rejected_busy_total", "Requests refused with 503 at the concurrency limit.", LOAD(m->rejected_busy)},
        {"sbomd_rejected_memory_total",
         "Requests refused for the memory budget: 503 when it cannot hold the body or its model now, 413 when the "
         "model exceeds all of it.",
         LOAD(m->rejected_memory)},
        {"sbomd_stopped_memory_total",
         "Requests stopped while reading or building: the memory they took outgrew what the budget could give "
         "(413 past the whole budget, 503 when others held the rest).",
         LOAD(m->stopped_memory)},
        {"sbomd_timeouts_total",
         "Requests cut short by the request deadline or the minimum upload rate, or whose upload stalled past "
         "--conn-timeout.",
         LOAD(m->timeouts)},
        {"sbomd_head_timeouts_total",
         "Connections closed because their request head was not complete within --head-timeout.",
         LOAD(m->head_timeouts)},
        {"sbomd_auth_failures_total", "Requests answered 401 (missing or unknown bearer token).",
         LOAD(m->auth_failures)},
        {"sbomd_lookup_cache_hits_total", "Lookups answered from the cache or by a transfer already in flight.",
         LOAD(m->lookup_hits)},
        {"sbomd_lookup_cache_misses_total", "Lookups the cache could not answer: they waited for a transfer.",
         LOAD(m->lookup_misses)},
        {"sbomd_result_cache_hits_total", "Requests answered from the result cache (--result-cache-size).",
         LOAD(m->rcache_hits)},
        {"sbomd_result_cache_misses_total", "Requests the result cache could have answered but did not hold.",
         LOAD(m->rcache_misses)},
        {"sbomd_lookups_cancelled_total",
         "Lookups dropped from the queue or aborted mid-transfer because no request waited for them any more.",
         LOAD(m->lookups_cancelled)},
        {"sbomd_shared_cache_hits_total", "Shared-cache (Redis, --cache-url) keys found.", LOAD(m->shared_hits)},
        {"sbomd_shared_cache_misses_total", "Shared-cache keys asked for and not found.", LOAD(m->shared_misses)},
        {"sbomd_shared_cache_errors_total",
         "Shared-cache commands that failed (unreachable, past --cache-timeout-ms, refused); each read is a miss.",
         LOAD(m->shared_errors)},
        {"sbomd_shared_cache_writes_total", "Values written to the shared cache.", LOAD(m->shared_puts)},
        {"sbomd_shared_cache_dropped_total",
         "Values not written to the shared cache (over --cache-max-value, queue full).", LOAD(m->shared_dropped)},
    };
    for (size_t i = 0; i < sizeof counters / sizeof counters[0]; i++)
        rc |= put(b, "# HELP %s %s\n# TYPE %s counter\n%s %llu\n", counters[i].name, counters[i].help, counters[i].name,
                  counters[i].name, counters[i].v);
    rc |= put(b,
              "# HELP sbomd_in_flight Requests being served now (not counting this scrape).\n"
              "# TYPE sbomd_in_flight gauge\nsbomd_in_flight %ld\n",
              in_flight);
    rc |= put(b,
              "# HELP sbomd_ready 1 when the replica takes requests (/readyz answers 200), 0 while draining.\n"
              "# TYPE sbomd_ready gauge\nsbomd_ready %d\n",
              ready);
    rc |= put(b,
              "# HELP sbomd_build_info The binary serving: its version and the commit it was built from.\n"
              "# TYPE sbomd_build_info gauge\nsbomd_build_info{version=\"%s\",revision=\"%s\"} 1\n",
              SB_VERSION, svc_revision);
    rc |= put(b,
              "# HELP sbomd_memory_budget_bytes The memory budget (--memory-budget).\n"
              "# TYPE sbomd_memory_budget_bytes gauge\nsbomd_memory_budget_bytes %llu\n",
              budget);
    rc |= put(b,
              "# HELP sbomd_memory_charged_bytes What requests in flight hold of the budget.\n"
              "# TYPE sbomd_memory_charged_bytes gauge\nsbomd_memory_charged_bytes %llu\n",
              charged);
    rc |= put(b,
              "# HELP sbomd_resident_memory_bytes Resident memory (the same as process_resident_memory_bytes).\n"
              "# TYPE sbomd_resident_memory_bytes gauge\nsbomd_resident_memory_bytes %ld\n",
              rss_bytes());
    rc |= process_metrics(m, b);
    return rc ? -1 : 0;
}
