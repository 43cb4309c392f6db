/*
 * lock_gradle.c - Gradle's dependency lockfiles: gradle.lockfile (one per
 * project), buildscript-gradle.lockfile and settings-gradle.lockfile (the
 * build's own classpath), and the older one-file-per-configuration
 * gradle/dependency-locks/<configuration>.lockfile.
 *
 * A line is `group:artifact:version=conf1,conf2` (the configurations that
 * resolve that artifact), `empty=conf1,...` (configurations that resolve
 * nothing) or, in the older files, a bare `group:artifact:version`; `#`
 * starts a comment. Every artifact line is a package; the file states no
 * edges and not which artifacts the build script asked for (build.gradle is
 * code).
 *
 * Scope from the configurations: an artifact in a compile or runtime
 * classpath of the product (compileClasspath, runtimeClasspath and their
 * variants such as releaseRuntimeClasspath, and the older compile and
 * runtime) is required; one only in test configurations (test...,
 * ...Test..., such as androidTestCompileClasspath or
 * debugUnitTestRuntimeClasspath) or in the build's tools (kotlin compiler,
 * lint, detekt, annotation processors, the buildscript and settings
 * `classpath`) is development. A bare line names no configuration: its
 * scope is not stated. The configurations are pixi:gradle-configurations.
 */
#include "deadline.h"
#include "ecosystem.h"
#include "lock.h"
#include "lock_int.h"
#include "strmap.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

static sb_code oom(sb_err *err)
{
    return sb_err_set(err, SB_ENOMEM, "out of memory");
}

static int ends_with(const char *s, size_t n, const char *suf)
{
    size_t k = strlen(suf);
    return n >= k && !memcmp(s + n - k, suf, k);
}

static int conf_is_test(const char *s, size_t n)
{
    return (n >= 4 && !memcmp(s, "test", 4)) || memmem(s, n, "Test", 4) != NULL;
}

/* A classpath the product is compiled or run with. */
static int conf_is_product(const char *s, size_t n)
{
    if (conf_is_test(s, n))
        return 0;
    return ends_with(s, n, "ompileClasspath") || ends_with(s, n, "untimeClasspath") ||
           (n == 7 && !memcmp(s, "compile", 7)) || (n == 7 && !memcmp(s, "runtime", 7)) ||
           (n == 7 && !memcmp(s, "default", 7));
}

/* A coordinate, a configuration or a version: printable, no separators
 * of the line's syntax. */
static int word_ok(const char *s, size_t n, const char *stop)
{
    if (0 == n)
        return 0;
    for (size_t i = 0; i < n; i++)
        if ((unsigned char)s[i] <= ' ' || s[i] == 0x7f || strchr(stop, s[i]))
            return 0;
    return 1;
}

static sb_code bad(sb_err *err, unsigned line, const char *what)
{
    return sb_err_set_at(err, SB_EPARSE, line, 1, "gradle lockfile line %u: %s", line, what);
}

static sb_code gradle_read(sb_lock **out, sb_arena *a, const char *data, size_t len, const sb_limits *lim, sb_err *err)
{
    static const sb_limits defaults = SB_LIMITS_DEFAULT;
    if (NULL == lim)
        lim = &defaults;
    sb_lock *lk = sb_arena_calloc(a, 1, sizeof *lk);
    sb_lock_env *env = lk ? sb_lock_env_get(lk, a, "default") : NULL;
    sb_lock_platform *lp = env ? sb_lock_platform_get(env, a, "noarch") : NULL;
    sb_arena *s = sb_arena_child(a);
    sb_strmap seen;
    if (NULL == lp || NULL == s || sb_strmap_init(&seen, s, 64) != SB_OK) {
        sb_arena_destroy(s);
        return oom(err);
    }
    lk->kind = "gradle.lockfile";
    lk->version = 1;
    lk->no_dep_data = true; /* the lock lists what each configuration resolves, never why */
    sb_deadline dl = {lim->deadline_ns, 0, "reading the lockfile"};
    sb_code rc = SB_OK;
    unsigned line = 0;
    for (const char *p = data, *end = data + len; p < end && rc == SB_OK;) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);
        const char *lp0 = p;
        p = nl ? nl + 1 : end;
        line++;
        if ((rc = sb_deadline_tick(&dl, err)) != SB_OK)
            break;
        while (n && (lp0[n - 1] == '\r' || lp0[n - 1] == ' ' || lp0[n - 1] == '\t'))
            n--;
        while (n && (*lp0 == ' ' || *lp0 == '\t'))
            lp0++, n--;
        if (0 == n || lp0[0] == '#')
            continue;
        if (n > lim->max_scalar) {
            rc = sb_err_set_at(err, SB_ELIMIT, line, 1, "gradle lockfile line %u: longer than %zu bytes", line,
                               lim->max_scalar);
            break;
        }
        const char *eq = memchr(lp0, '=', n);
        size_t cn = eq ? (size_t)(eq - lp0) : n;
        const char *confs = eq ? eq + 1 : NULL;
        size_t fn = eq ? n - cn - 1 : 0;
        if (confs && !word_ok(confs, fn, "=:")) {
            if (fn || !(cn == 5 && !memcmp(lp0, "empty", 5))) {
                rc = bad(err, line, "the configurations after '=' are names separated by commas");
                break;
            }
        }
        if (cn == 5 && !memcmp(lp0, "empty", 5) && eq)
            continue; /* configurations that resolve nothing */
        const char *c1 = memchr(lp0, ':', cn);
        const char *c2 = c1 ? memchr(c1 + 1, ':', cn - (size_t)(c1 + 1 - lp0)) : NULL;
        if (NULL == c1 || NULL == c2 || memchr(c2 + 1, ':', cn - (size_t)(c2 + 1 - lp0)) ||
            !word_ok(lp0, (size_t)(c1 - lp0), ":=,") || !word_ok(c1 + 1, (size_t)(c2 - c1 - 1), ":=,") ||
            !word_ok(c2 + 1, cn - (size_t)(c2 + 1 - lp0), ":=,")) {
            rc = bad(err, line, "expected group:artifact:version=configurations, empty=configurations or a comment");
            break;
        }
        size_t dup;
        int had = sb_strmap_put(&seen, lp0, cn, lk->nrecords, &dup);
        if (had < 0) {
            rc = oom(err);
            break;
        }
        if (had) {
            rc = sb_err_set_at(err, SB_EPARSE, line, 1, "gradle lockfile line %u: %.*s is listed twice", line,
                               (int)(cn > 200 ? 200 : cn), lp0);
            break;
        }
        if (lk->nrecords >= lim->max_packages) {
            rc = sb_err_set_at(err, SB_ELIMIT, line, 1, "more than %zu packages", lim->max_packages);
            break;
        }
        sb_pkg *pk = sb_arena_calloc(a, 1, sizeof *pk);
        if (NULL == pk) {
            rc = oom(err);
            break;
        }
        pk->kind = SB_KIND_MAVEN;
        pk->name = sb_arena_strndup(a, lp0, (size_t)(c2 - lp0));
        pk->version = sb_arena_strndup(a, c2 + 1, cn - (size_t)(c2 + 1 - lp0));
        pk->key = sb_arena_strndup(a, lp0, cn);
        pk->purl = pk->name && pk->version ? sb_eco_purl(a, SB_KIND_MAVEN, pk->name, pk->version, NULL, 1, NULL, 0)
                                           : NULL;
        if (NULL == pk->key || NULL == pk->purl) {
            rc = oom(err);
            break;
        }
        if (confs && fn) {
            int product = 0;
            for (const char *q = confs, *qe = confs + fn; q < qe;) {
                const char *comma = memchr(q, ',', (size_t)(qe - q));
                size_t k = comma ? (size_t)(comma - q) : (size_t)(qe - q);
                if (0 == k) {
                    rc = bad(err, line, "an empty configuration name");
                    break;
                }
                product |= conf_is_product(q, k);
                q = comma ? comma + 1 : qe;
                if ((rc = sb_deadline_tick(&dl, err)) != SB_OK)
                    break;
            }
            if (rc != SB_OK)
                break;
            pk->scope = product ? SB_SCOPE_REQUIRED : SB_SCOPE_DEVELOPMENT;
            const char *cv = sb_arena_strndup(a, confs, fn);
            if (NULL == cv || sb_strv_push(&pk->reader_props, a, "pixi:gradle-configurations") != SB_OK ||
                sb_strv_push(&pk->reader_props, a, cv) != SB_OK) {
                rc = oom(err);
                break;
            }
        }
        if (sb_lock_platform_add(lp, a, pk) != SB_OK) {
            rc = oom(err);
            break;
        }
        lk->nrecords++;
    }
    sb_arena_destroy(s);
    if (rc != SB_OK)
        return rc;
    *out = lk;
    return SB_OK;
}

static int gradle_detect(const char *data, size_t len, const char *filename)
{
    if (filename) {
        size_t n = strlen(filename);
        if (n >= 9 && !strcmp(filename + n - 9, ".lockfile"))
            return 2;
    }
    if (sb_lock__has_line(data, len, "# This is a Gradle generated file for dependency locking."))
        return 1;
    return 0;
}

const sb_reader sb_reader_gradle = {.kind = "gradle.lockfile",
                                    .detect = gradle_detect,
                                    .read = gradle_read,
                                    .record_line = "",
                                    .per_record = 750,
                                    .per_byte = 2};
