/*
 * cgroup.c - reading the cgroup limits (cgroup.h).
 *
 * /proc/self/cgroup names the process's cgroup in each hierarchy ("0::/path"
 * for v2, "4:memory:/path" for v1). Limits nest, so every directory from
 * that cgroup up to the mount is read and the smallest limit wins; inside a
 * container the path may not exist under the mount (the mount is the
 * container's own cgroup), and then the mount's own files are what count.
 */
#include "cgroup.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define V1_UNLIMITED (1ULL << 60) /* v1 writes "no limit" as a page-rounded LLONG_MAX */

/* The cgroup path for hierarchy `want` ("" = the v2 unified one, else a v1
 * controller name such as "memory" or "cpu") into out; 0 when found. */
static int self_path(const char *self, const char *want, char *out, size_t cap)
{
    FILE *f = fopen(self, "r");
    if (NULL == f)
        return -1;
    char line[4096];
    int found = -1;
    while (found && fgets(line, sizeof line, f)) {
        line[strcspn(line, "\n")] = '\0';
        char *c1 = strchr(line, ':'), *c2 = c1 ? strchr(c1 + 1, ':') : NULL;
        if (NULL == c2)
            continue;
        *c2 = '\0';
        const char *ctrls = c1 + 1, *path = c2 + 1;
        int match = !want[0] ? !ctrls[0] : 0;
        for (const char *p = ctrls; want[0] && *p && !match;) {
            size_t n = strcspn(p, ",");
            match = n == strlen(want) && !strncmp(p, want, n);
            p += n + (p[n] == ',');
        }
        if (match && strlen(path) < cap) {
            strcpy(out, path);
            found = 0;
        }
    }
    fclose(f);
    return found;
}

/* The file's first line, trimmed, into out; 0 when read. */
static int read_line(const char *path, char *out, size_t cap)
{
    FILE *f = fopen(path, "r");
    if (NULL == f)
        return -1;
    int rc = fgets(out, (int)cap, f) ? 0 : -1;
    fclose(f);
    out[strcspn(out, "\n")] = '\0';
    return rc;
}

/* Reads one limit file; 0 when it sets a limit. */
typedef int (*limit_fn)(const char *dir, double *limit);

/* The smallest limit from `dir` (mount + cgroup path) up to the mount. */
static double walk_up(const char *mount, const char *cgpath, limit_fn fn)
{
    char dir[4096];
    if ((size_t)snprintf(dir, sizeof dir, "%s%s", mount, cgpath) >= sizeof dir)
        return 0;
    size_t floor = strlen(mount);
    double best = 0;
    for (;;) {
        double v;
        if (fn(dir, &v) == 0 && v > 0 && (best == 0 || v < best))
            best = v;
        char *slash = strrchr(dir, '/');
        if (strlen(dir) <= floor || NULL == slash || (size_t)(slash - dir) < floor)
            break;
        *slash = '\0';
    }
    return best;
}

/* A plain unsigned decimal ("max", "-1" and the empty string are not). */
static int number(const char *s, double *out)
{
    if (*s < '0' || *s > '9')
        return -1;
    char *end;
    unsigned long long v = strtoull(s, &end, 10);
    if (end == s || *end)
        return -1;
    *out = (double)v;
    return 0;
}

static int mem_v2(const char *dir, double *limit)
{
    char path[4200], line[64];
    snprintf(path, sizeof path, "%s/memory.max", dir);
    return read_line(path, line, sizeof line) == 0 ? number(line, limit) : -1; /* "max": none */
}

static int mem_v1(const char *dir, double *limit)
{
    char path[4200], line[64];
    snprintf(path, sizeof path, "%s/memory.limit_in_bytes", dir);
    if (read_line(path, line, sizeof line) || number(line, limit))
        return -1;
    return *limit >= (double)V1_UNLIMITED ? -1 : 0;
}

static int cpu_v2(const char *dir, double *cpus)
{
    char path[4200], line[64], quota[32];
    unsigned long long period;
    snprintf(path, sizeof path, "%s/cpu.max", dir);
    if (read_line(path, line, sizeof line) || sscanf(line, "%31s %llu", quota, &period) != 2 || 0 == period)
        return -1;
    double q;
    if (number(quota, &q)) /* "max": none */
        return -1;
    *cpus = q / (double)period;
    return 0;
}

static int cpu_v1(const char *dir, double *cpus)
{
    char path[4200], line[64];
    double q, period;
    snprintf(path, sizeof path, "%s/cpu.cfs_quota_us", dir);
    if (read_line(path, line, sizeof line) || number(line, &q)) /* -1: none */
        return -1;
    snprintf(path, sizeof path, "%s/cpu.cfs_period_us", dir);
    if (read_line(path, line, sizeof line) || number(line, &period) || period <= 0)
        return -1;
    *cpus = q / period;
    return 0;
}

/* The smallest limit in the v2 hierarchy, else in v1 controller `ctrl`
 * mounted at one of `mounts` (under root). */
static double limit_of(const char *root, const char *self, limit_fn v2, const char *ctrl, const char *const *mounts,
                       limit_fn v1)
{
    char cg[4096];
    double v = 0;
    if (self_path(self, "", cg, sizeof cg) == 0)
        v = walk_up(root, strcmp(cg, "/") ? cg : "", v2);
    if (v > 0 || self_path(self, ctrl, cg, sizeof cg) != 0)
        return v;
    for (const char *const *m = mounts; *m && v == 0; m++) {
        char mount[4096];
        snprintf(mount, sizeof mount, "%s/%s", root, *m);
        v = walk_up(mount, strcmp(cg, "/") ? cg : "", v1);
    }
    return v;
}

unsigned long long svc_cgroup_memory_limit(const char *root, const char *self)
{
    static const char *const mounts[] = {"memory", NULL};
    return (unsigned long long)limit_of(root, self, mem_v2, "memory", mounts, mem_v1);
}

long svc_cgroup_cpus(const char *root, const char *self)
{
    static const char *const mounts[] = {"cpu", "cpu,cpuacct", "cpuacct,cpu", NULL};
    double c = limit_of(root, self, cpu_v2, "cpu", mounts, cpu_v1);
    long n = (long)c;
    return (double)n < c ? n + 1 : n;
}
