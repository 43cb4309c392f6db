/*
 * bench.c - core micro-benchmarks (make bench): each stage of a request on
 * one lockfile, the median of R runs (clock_gettime, CLOCK_MONOTONIC), and
 * each as a ratio to the floors: a bare libyaml event scan of the same bytes
 * (the least any YAML reader must do) and a memcpy of the output's size.
 *
 *   bench [-r RUNS] [-C PACKAGE_CACHE] [-F] LOCKFILE   (-F: the scan floor alone, in ms)
 *
 * A benchmark: it prints figures and never fails on a duration.
 */
#include "../core/arena.h"
#include "../core/doc.h"
#include "../core/enrich.h"
#include "../core/license.h"
#include "../core/lock.h"
#include "../core/model.h"
#include "../core/select.h"
#include "../core/par.h"
#include "../core/report.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>
#include <yaml.h>

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

/* CPU time of the process (every thread), to tell work from waiting. */
static double cpu_ms(void)
{
    struct rusage u;
    getrusage(RUSAGE_SELF, &u);
    return (double)(u.ru_utime.tv_sec + u.ru_stime.tv_sec) * 1e3 +
           (double)(u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e3;
}

static int dbl_cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, dbl_cmp);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

typedef struct ctx {
    const char *data;
    size_t len;
    const char *path, *cache;
    const sb_doc_ops *ops;
    int fd; /* write target for the sink stages, -1 = none */
    size_t out_bytes;
    volatile unsigned sink;
} ctx;

/* ---- the stages: each runs once per call ------------------------------------ */

static int yaml_scan(ctx *c)
{
    yaml_parser_t p;
    yaml_event_t e;
    yaml_parser_initialize(&p);
    yaml_parser_set_input_string(&p, (const unsigned char *)c->data, c->len);
    int ok = 1, n = 0;
    for (;;) {
        if (!yaml_parser_parse(&p, &e)) {
            ok = 0;
            break;
        }
        int end = e.type == YAML_STREAM_END_EVENT;
        yaml_event_delete(&e);
        n++;
        if (end)
            break;
    }
    yaml_parser_delete(&p);
    c->sink += (unsigned)n;
    return ok ? 0 : -1;
}

static int read_lock(ctx *c, sb_arena *a, sb_lock **lock)
{
    sb_err err;
    sb_err_clear(&err);
    return sb_lock_read(lock, a, "auto", c->data, c->len, c->path, NULL, &err) == SB_OK ? 0 : -1;
}

static int select_model(ctx *c, sb_arena *a, sb_sbom **s, int with_cache)
{
    sb_lock *lock = NULL;
    if (read_lock(c, a, &lock))
        return -1;
    sb_select_opts o = {0};
    o.package_cache = with_cache ? c->cache : NULL;
    sb_err err;
    sb_err_clear(&err);
    return sb_select(s, a, lock, &o, &err) == SB_OK ? 0 : -1;
}

/* Produce a document in 64 KiB pieces; to c->fd when >= 0. */
static int produce(ctx *c, sb_arena *a, const sb_doc_ops *ops, const sb_sbom *s)
{
    static char buf[65536];
    sb_doc_opts o = {0};
    o.input = c->data;
    o.input_len = c->len;
    sb_doc *d = NULL;
    sb_err err;
    sb_err_clear(&err);
    if (sb_doc_new(&d, a, ops, s, &o, &err) != SB_OK)
        return -1;
    size_t total = 0;
    for (;;) {
        ssize_t n = sb_doc_produce(d, buf, sizeof buf);
        if (n < 0) {
            sb_doc_free(d);
            return -1;
        }
        if (n == 0)
            break;
        total += (size_t)n;
        for (ssize_t off = 0; c->fd >= 0 && off < n;) {
            ssize_t w = write(c->fd, buf + off, (size_t)(n - off));
            if (w < 0 && errno != EINTR) {
                sb_doc_free(d);
                return -1;
            }
            off += w > 0 ? w : 0;
        }
        c->sink += (unsigned char)buf[0];
    }
    sb_doc_free(d);
    c->out_bytes = total;
    return 0;
}

static void *drain(void *arg)
{
    int fd = *(int *)arg;
    char buf[65536];
    while (read(fd, buf, sizeof buf) > 0)
        ;
    return NULL;
}

typedef struct stage {
    const char *name;
    double ms;
    size_t bytes;
} stage;

#define MAXSTAGES 40
static stage stages[MAXSTAGES];
static int nstages;

static void record(const char *name, double *v, int runs, size_t bytes)
{
    if (nstages < MAXSTAGES)
        stages[nstages++] = (stage){name, median(v, runs), bytes};
}

int main(int argc, char **argv)
{
    int runs = 7, opt, floor_only = 0;
    const char *cache = NULL;
    while ((opt = getopt(argc, argv, "r:C:F")) != -1) {
        if (opt == 'r')
            runs = atoi(optarg);
        else if (opt == 'F')
            floor_only = 1; /* loadtest/first-request.sh: the scan's median ms alone */
        else if (opt == 'C')
            cache = optarg;
        else
            return 2;
    }
    if (optind != argc - 1 || runs < 1 || runs > 1001) {
        fprintf(stderr, "usage: bench [-r RUNS] [-C PACKAGE_CACHE] [-F] LOCKFILE\n");
        return 2;
    }
    ctx c = {0};
    c.path = argv[optind];
    c.cache = cache;
    c.fd = -1;
    FILE *f = fopen(c.path, "rb");
    if (!f) {
        fprintf(stderr, "bench: %s: %s\n", c.path, strerror(errno));
        return 1;
    }
    fseek(f, 0, SEEK_END);
    long sz = ftell(f);
    rewind(f);
    char *data = malloc((size_t)sz + 1);
    if (!data || fread(data, 1, (size_t)sz, f) != (size_t)sz) {
        fclose(f);
        return 1;
    }
    fclose(f);
    c.data = data;
    c.len = (size_t)sz;
    double *t = calloc((size_t)runs, sizeof *t);
    int is_yaml = c.len && strstr(c.path, ".lock") && !strstr(c.path, "uv.lock") && !strstr(c.path, "poetry") &&
                  !strstr(c.path, "pdm");

    /* floor 1: libyaml events over the same bytes */
    if (is_yaml) {
        for (int r = 0; r < runs; r++) {
            double t0 = now_ms();
            yaml_scan(&c);
            t[r] = now_ms() - t0;
        }
        record("floor: libyaml event scan", t, runs, 0);
        if (floor_only) {
            printf("%.3f\n", stages[nstages - 1].ms);
            return 0;
        }
    }
    /* parse, model */
    for (int r = 0; r < runs; r++) {
        sb_arena *a = sb_arena_new(0);
        sb_lock *lock = NULL;
        double t0 = now_ms();
        if (read_lock(&c, a, &lock)) {
            fprintf(stderr, "bench: %s does not parse\n", c.path);
            return 1;
        }
        t[r] = now_ms() - t0;
        sb_arena_destroy(a);
    }
    record("parse (sb_lock_read)", t, runs, 0);
    /* the same on one thread (sb_par_configure: no pieces) */
    sb_par_configure(1, 0);
    for (int r = 0; r < runs; r++) {
        sb_arena *a = sb_arena_new(0);
        sb_lock *lock = NULL;
        double t0 = now_ms();
        read_lock(&c, a, &lock);
        t[r] = now_ms() - t0;
        sb_arena_destroy(a);
    }
    sb_par_configure(SIZE_MAX, 0);
    record("parse, one thread", t, runs, 0);
    /* end to end as a request does it: parse, select, CycloneDX 1.6 into
     * memory; and the CPU time that took (all threads) */
    double *cpu = calloc((size_t)runs, sizeof *cpu);
    for (int r = 0; r < runs; r++) {
        sb_arena *a = sb_arena_new(0);
        sb_sbom *es = NULL;
        double t0 = now_ms(), c0 = cpu_ms();
        if (select_model(&c, a, &es, 0) || produce(&c, a, &sb_doc_cyclonedx_16, es))
            return 1;
        t[r] = now_ms() - t0;
        cpu[r] = cpu_ms() - c0;
        sb_arena_destroy(a);
    }
    record("end to end: parse, model, cyclonedx-1.6", t, runs, c.out_bytes);
    record("  its CPU time (all threads)", cpu, runs, 0);
    free(cpu);
    for (int r = 0; r < runs; r++) {
        sb_arena *a = sb_arena_new(0);
        sb_lock *lock = NULL;
        read_lock(&c, a, &lock);
        size_t parsed = sb_arena_used(a);
        sb_select_opts o = {0};
        sb_sbom *s = NULL;
        sb_err err;
        sb_err_clear(&err);
        double t0 = now_ms();
        if (sb_select(&s, a, lock, &o, &err) != SB_OK) {
            fprintf(stderr, "bench: %s\n", err.msg);
            return 1;
        }
        t[r] = now_ms() - t0;
        if (r == 0)
            printf("arena: %zu bytes after parse, %zu after the selection\n", parsed, sb_arena_used(a));
        sb_arena_destroy(a);
    }
    record("model (sb_select)", t, runs, 0);
    if (cache) {
        for (int r = 0; r < runs; r++) {
            sb_arena *a = sb_arena_new(0);
            sb_lock *lock = NULL;
            read_lock(&c, a, &lock);
            sb_select_opts o = {0};
            o.package_cache = cache;
            sb_sbom *s = NULL;
            sb_err err;
            sb_err_clear(&err);
            double t0 = now_ms();
            sb_select(&s, a, lock, &o, &err);
            t[r] = now_ms() - t0;
            sb_arena_destroy(a);
        }
        record("model + package-cache enrichment", t, runs, 0);
    }
    /* writers, into memory */
    sb_arena *ma = sb_arena_new(0);
    sb_sbom *s = NULL;
    if (select_model(&c, ma, &s, 0)) {
        fprintf(stderr, "bench: no model\n");
        return 1;
    }
    size_t cdx_bytes = 0;
    for (const sb_doc_ops *const *fmt = sb_doc_formats(); *fmt; fmt++) {
        for (int r = 0; r < runs; r++) {
            sb_arena *a = sb_arena_new(0);
            double t0 = now_ms();
            produce(&c, a, *fmt, s);
            t[r] = now_ms() - t0;
            sb_arena_destroy(a);
        }
        char *name = malloc(64);
        snprintf(name, 64, "write %s (memory)", (*fmt)->name);
        record(name, t, runs, c.out_bytes);
        if (*fmt == &sb_doc_cyclonedx_16)
            cdx_bytes = c.out_bytes;
    }
    /* CycloneDX 1.6 on one thread: what writing on two saves */
    sb_par_configure(1, 0);
    for (int r = 0; r < runs; r++) {
        sb_arena *a = sb_arena_new(0);
        double t0 = now_ms();
        produce(&c, a, &sb_doc_cyclonedx_16, s);
        t[r] = now_ms() - t0;
        sb_arena_destroy(a);
    }
    sb_par_configure(SIZE_MAX, 0);
    record("write cyclonedx-1.6, one thread", t, runs, c.out_bytes);
    /* the same CycloneDX 1.6 document into a file, a pipe and a socket */
    const char *sinks[] = {"file", "pipe", "socket"};
    for (int k = 0; k < 3; k++) {
        for (int r = 0; r < runs; r++) {
            int fds[2] = {-1, -1};
            pthread_t th;
            int reader = 0;
            if (k == 0) {
                fds[1] = open("/dev/null", O_WRONLY);
            } else if (k == 1) {
                if (pipe(fds))
                    return 1;
                reader = 1;
            } else {
                if (socketpair(AF_UNIX, SOCK_STREAM, 0, fds))
                    return 1;
                reader = 1;
            }
            if (reader)
                pthread_create(&th, NULL, drain, &fds[0]);
            c.fd = fds[1];
            sb_arena *a = sb_arena_new(0);
            double t0 = now_ms();
            produce(&c, a, &sb_doc_cyclonedx_16, s);
            close(fds[1]);
            if (reader)
                pthread_join(th, NULL);
            t[r] = now_ms() - t0;
            if (reader)
                close(fds[0]);
            sb_arena_destroy(a);
            c.fd = -1;
        }
        char *name = malloc(64);
        snprintf(name, 64, "write cyclonedx-1.6 to a %s", sinks[k]);
        record(name, t, runs, c.out_bytes);
    }
    /* floor 2: copying the output's size */
    {
        char *src = malloc(cdx_bytes + 1), *dst = malloc(cdx_bytes + 1);
        memset(src, 'x', cdx_bytes + 1);
        for (int r = 0; r < runs; r++) {
            double t0 = now_ms();
            memcpy(dst, src, cdx_bytes);
            c.sink += (unsigned char)dst[cdx_bytes / 2];
            t[r] = now_ms() - t0;
        }
        record("floor: memcpy of the CycloneDX output size", t, runs, cdx_bytes);
        free(src);
        free(dst);
    }
    /* reports */
    for (const sb_report_kind *const *k = sb_report_registry(); *k; k++)
        for (int out = 0; out < 2; out++) {
            const char *const *kind = &(*k)->name;
            const sb_doc_ops *ops = sb_report_find(*kind, out ? SB_REPORT_TEXT : SB_REPORT_JSON);
            for (int r = 0; r < runs; r++) {
                sb_arena *a = sb_arena_new(0);
                double t0 = now_ms();
                produce(&c, a, ops, s);
                t[r] = now_ms() - t0;
                sb_arena_destroy(a);
            }
            char *name = malloc(64);
            snprintf(name, 64, "report %s (%s)", *kind, out ? "text" : "json");
            record(name, t, runs, c.out_bytes);
        }
    /* license normalization: 8 real strings, per call of all 8 */
    {
        static const char *const exprs[] = {"MIT",
                                            "BSD 3-Clause",
                                            "Apache 2.0",
                                            "GPLv3+",
                                            "MIT License",
                                            "LGPL-2.1-or-later AND (MIT OR Apache-2.0)",
                                            "GPL-2.0-or-later WITH Classpath-exception-2.0",
                                            "Proprietary"};
        const int reps = 1000;
        for (int r = 0; r < runs; r++) {
            sb_arena *a = sb_arena_new(0);
            double t0 = now_ms();
            for (int k = 0; k < reps; k++)
                for (size_t e = 0; e < 8; e++)
                    c.sink += (unsigned)sb_lic_normalize(a, exprs[e]).kind;
            t[r] = (now_ms() - t0) / reps;
            sb_arena_destroy(a);
        }
        record("license normalize (8 expressions)", t, runs, 0);
    }
    size_t npkgs = s->npkgs;
    sb_arena_destroy(ma);

    double scan = is_yaml ? stages[0].ms : 0, copy = 0;
    for (int i = 0; i < nstages; i++)
        if (!strncmp(stages[i].name, "floor: memcpy", 13))
            copy = stages[i].ms;
    printf("bench: %s, %zu bytes, %zu packages (default/default platform), median of %d runs\n", c.path, c.len, npkgs,
           runs);
    printf("%-46s %12s %12s %10s %10s\n", "stage", "median ms", "bytes out", "x scan", "x memcpy");
    for (int i = 0; i < nstages; i++) {
        char rs[16] = "-", rc[16] = "-";
        if (scan > 0)
            snprintf(rs, sizeof rs, "%.2f", stages[i].ms / scan);
        if (copy > 0 && stages[i].bytes)
            snprintf(rc, sizeof rc, "%.1f", stages[i].ms / copy);
        char bytes[24] = "";
        if (stages[i].bytes)
            snprintf(bytes, sizeof bytes, "%zu", stages[i].bytes);
        printf("%-46s %12.3f %12s %10s %10s\n", stages[i].name, stages[i].ms, bytes, rs, rc);
    }
    free(t);
    free(data);
    return c.sink == 0xdeadbeef; /* keeps the work observable */
}
