/*
 * model-peak.c - what reading a lockfile and selecting one platform of it
 * holds at its peak: VmHWM less VmRSS after the input is loaded, per input
 * byte and per record, and the arena bytes per record of each stage. The
 * figures core/lock.c's sb_lock_estimate table is drawn from (see
 * loadtest/model-peak.sh). Figures only; no pass or fail.
 */
#include "../core/lock.h"
#include "../core/model.h"
#include "../core/select.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static long status_kb(const char *key)
{
    FILE *f = fopen("/proc/self/status", "r");
    char line[256];
    long v = -1;
    size_t n = strlen(key);
    while (f && fgets(line, sizeof line, f))
        if (!strncmp(line, key, n) && line[n] == ':')
            v = atol(line + n + 1);
    if (f)
        fclose(f);
    return v;
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: model-peak LOCKFILE\n");
        return 2;
    }
    FILE *f = fopen(argv[1], "rb");
    if (NULL == f || fseek(f, 0, SEEK_END) != 0) {
        perror(argv[1]);
        return 1;
    }
    long sz = ftell(f);
    rewind(f);
    char *data = malloc((size_t)sz + 1);
    if (NULL == data || fread(data, 1, (size_t)sz, f) != (size_t)sz) {
        perror(argv[1]);
        return 1;
    }
    fclose(f);
    long rss0 = status_kb("VmRSS");
    sb_arena *a = sb_arena_new(0);
    sb_lock *l = NULL;
    sb_err err;
    sb_err_clear(&err);
    sb_limits lim = SB_LIMITS_DEFAULT;
    lim.platform = "linux-64"; /* what the service asks for by default */
    if (sb_lock_read(&l, a, NULL, data, (size_t)sz, argv[1], &lim, &err) != SB_OK) {
        fprintf(stderr, "%s: %s\n", argv[1], err.msg);
        return 1;
    }
    size_t read_used = sb_arena_used(a);
    sb_sbom *s = NULL;
    sb_select_opts o = {0};
    o.consume = true; /* one selection of the lock, as the service and sbomgen make */
    if (sb_select(&s, a, l, &o, &err) != SB_OK) {
        fprintf(stderr, "%s: %s\n", argv[1], err.msg);
        return 1;
    }
    size_t n = s->npkgs ? s->npkgs : 1;
    long peak = status_kb("VmHWM") - rss0;
    size_t est = sb_lock_estimate(NULL, data, (size_t)sz, argv[1]);
    printf(
        "%-40s %10ld bytes %8zu pkgs  read %5zu B/pkg  select %5zu B/pkg  peak +%7ld kB = %6.1fx input, %6zu B/pkg"
        "  estimate %7zu kB\n",
        strrchr(argv[1], '/') ? strrchr(argv[1], '/') + 1 : argv[1], sz, s->npkgs, read_used / n,
        (sb_arena_used(a) - read_used) / n, peak, (double)peak * 1024 / (double)sz, (size_t)peak * 1024 / n,
        est / 1024);
    sb_arena_destroy(a);
    free(data);
    return 0;
}
