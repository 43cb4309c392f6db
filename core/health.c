/*
 * health.c - yanked flags and outdated distance from a PyPI project page
 * (see health.h): the digest made from the page, read back per package,
 * and the pixi:yanked properties.
 */
#include "health.h"
#include "ecosystem.h"
#include "github.h"
#include "vercmp.h"

#include <ctype.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* s with tabs and line breaks as spaces (a digest line holds one release) */
static void one_line(char *s)
{
    for (; *s; s++)
        if (*s == '\t' || *s == '\n' || *s == '\r')
            *s = ' ';
}

static sb_code add(sb_arena *a, char **o, size_t *n, size_t *cap, const char *s)
{
    size_t k = strlen(s);
    char *nv = sb_arena_reserve(a, *o, cap, *n, *n + k + 1, 1, 1024);
    if (NULL == nv)
        return SB_ENOMEM;
    *o = nv;
    memcpy(*o + *n, s, k + 1);
    *n += k;
    return SB_OK;
}

/* The GitHub repository a project page names: a project_urls entry whose
 * label says source code ("Source", "Source Code", "Repository", "Code",
 * "GitHub"), else any project_urls entry, else home_page. */
static const char *project_repo(sb_arena *a, json_t *info)
{
    static const char *const labels[] = {"source", "repo", "code", "github"};
    json_t *urls = json_object_get(info, "project_urls"), *v;
    const char *k;
    for (int pass = 0; pass < 2; pass++)
        json_object_foreach(urls, k, v) {
            int labelled = 0;
            for (size_t i = 0; i < sizeof labels / sizeof *labels && !labelled; i++)
                labelled = NULL != strcasestr(k, labels[i]);
            if (pass == 0 && !labelled)
                continue;
            const char *r = sb_github_repo(a, json_string_value(v));
            if (r)
                return r;
        }
    return sb_github_repo(a, json_string_value(json_object_get(info, "home_page")));
}

sb_code sb_health_pypi_digest(sb_arena *a, const char *json, size_t len, const char **digest, size_t *dlen)
{
    json_error_t je;
    json_t *root = json_loadb(json, len, 0, &je);
    const char *latest = json_is_object(root)
                             ? json_string_value(json_object_get(json_object_get(root, "info"), "version"))
                             : NULL;
    if (NULL == latest || !latest[0]) {
        json_decref(root);
        return SB_EPARSE;
    }
    char *o = NULL;
    size_t n = 0, cap = 0;
    sb_code rc = SB_OK;
    char *l = sb_arena_printf(a, "latest\t%s\n", latest);
    if (NULL == l)
        rc = SB_ENOMEM;
    else
        one_line(l + 7), l[strlen(l) - 1] = '\n', rc = add(a, &o, &n, &cap, l);
    const char *repo = rc == SB_OK ? project_repo(a, json_object_get(root, "info")) : NULL;
    if (repo && (rc = add(a, &o, &n, &cap, "repo\t")) == SB_OK && (rc = add(a, &o, &n, &cap, repo)) == SB_OK)
        rc = add(a, &o, &n, &cap, "\n");
    const char *ver;
    json_t *files;
    json_object_foreach(json_object_get(root, "releases"), ver, files) {
        if (rc != SB_OK)
            break;
        size_t nf = json_array_size(files), yanked = 0, k;
        if (0 == nf || !ver[0])
            continue; /* a version with no files was never installable */
        const char *first = NULL, *reason = NULL;
        json_t *f;
        json_array_foreach(files, k, f) {
            const char *t = json_string_value(json_object_get(f, "upload_time_iso_8601"));
            if (NULL == t)
                t = json_string_value(json_object_get(f, "upload_time"));
            if (t && strlen(t) >= 10 && (NULL == first || strncmp(t, first, 10) < 0))
                first = t;
            if (json_is_true(json_object_get(f, "yanked"))) {
                yanked++;
                const char *r = json_string_value(json_object_get(f, "yanked_reason"));
                if (r && r[0] && NULL == reason)
                    reason = r;
            }
        }
        char date[11] = "-";
        if (first && isdigit((unsigned char)first[0]))
            snprintf(date, sizeof date, "%.10s", first);
        char *line = sb_arena_printf(a, "%s\t%s\t%c\t%s", ver, date, yanked == nf ? 'y' : 'n',
                                     yanked == nf && reason ? reason : "");
        if (NULL == line) {
            rc = SB_ENOMEM;
            break;
        }
        one_line(line);
        /* the separators one_line flattened: put the three back */
        char *p = line + strlen(ver);
        *p = '\t';
        p += 1 + strlen(date);
        *p = '\t';
        p[2] = '\t';
        if ((rc = add(a, &o, &n, &cap, line)) == SB_OK)
            rc = add(a, &o, &n, &cap, "\n");
    }
    json_decref(root);
    if (rc != SB_OK)
        return rc;
    *digest = o;
    *dlen = n;
    return SB_OK;
}

/* the release segments of a PEP 440 version, after any epoch: up to 3 */
static size_t release_of(const char *v, long long *seg, long long *epoch)
{
    const char *bang = strchr(v, '!');
    *epoch = 0;
    if (bang) {
        *epoch = atoll(v);
        v = bang + 1;
    }
    if (*v == 'v' || *v == 'V')
        v++;
    size_t n = 0;
    while (n < 3 && isdigit((unsigned char)*v)) {
        char *end;
        seg[n++] = strtoll(v, &end, 10);
        v = end;
        if (*v != '.' || !isdigit((unsigned char)v[1]))
            break;
        v++;
    }
    for (size_t k = n; k < 3; k++)
        seg[k] = 0;
    return n;
}

const char *sb_health_step(const char *from, const char *to)
{
    if (NULL == from || NULL == to || sb_vercmp_pep440(from, to) >= 0)
        return NULL;
    long long a[3], b[3], ea, eb;
    size_t na = release_of(from, a, &ea), nb = release_of(to, b, &eb);
    if (0 == na || 0 == nb || ea != eb || a[0] != b[0])
        return "major";
    if (a[1] != b[1])
        return "minor";
    if (a[2] != b[2])
        return "patch";
    return "other";
}

int sb_health_queryable(const sb_pkg *p)
{
    const char *u = sb_pkg_ref_purl(p);
    return sb_eco_is(p->kind, SB_ECO_PYPI_INDEX) && p->version && u && !strncmp(u, "pkg:pypi/", 9) && !strchr(u, '?') &&
           !strchr(u, '#');
}

sb_code sb_health_from_digest(sb_health *h, sb_arena *a, const char *digest, const char *version)
{
    memset(h, 0, sizeof *h);
    if (NULL == digest || !digest[0]) {
        h->state = SB_HEALTH_UNKNOWN;
        return SB_OK;
    }
    h->state = SB_HEALTH_ANSWERED;
    const char *p = digest;
    if (!strncmp(p, "latest\t", 7)) {
        const char *e = strchr(p, '\n');
        if (NULL == e || NULL == (h->latest = sb_arena_strndup(a, p + 7, (size_t)(e - p - 7))))
            return e ? SB_ENOMEM : SB_EPARSE;
        p = e + 1;
    }
    if (!strncmp(p, "repo\t", 5)) {
        const char *e = strchr(p, '\n');
        if (NULL == e || NULL == (h->repo = sb_arena_strndup(a, p + 5, (size_t)(e - p - 5))))
            return e ? SB_ENOMEM : SB_EPARSE;
        p = e + 1;
    }
    int exact = 0;
    while (*p) {
        const char *e = strchr(p, '\n');
        size_t n = e ? (size_t)(e - p) : strlen(p);
        char *line = sb_arena_strndup(a, p, n);
        if (NULL == line)
            return SB_ENOMEM;
        p += n + (e != NULL);
        char *date = strchr(line, '\t'), *flag = date ? strchr(date + 1, '\t') : NULL;
        char *reason = flag ? strchr(flag + 1, '\t') : NULL;
        if (NULL == reason)
            continue;
        *date++ = '\0';
        *flag++ = '\0';
        *reason++ = '\0';
        const char *day = strcmp(date, "-") ? date : NULL;
        int is_yanked = flag[0] == 'y';
        int same = !strcmp(line, version);
        /* the locked spelling first, else the PEP 440-equal one ("2.0" = "2.0.0") */
        if (same || (!exact && 0 == sb_vercmp_pep440(line, version))) {
            exact |= same;
            h->released = day;
            h->yanked = is_yanked;
            h->yanked_reason = is_yanked && reason[0] ? reason : NULL;
        }
        if (h->latest && !strcmp(line, h->latest))
            h->latest_released = day;
        /* newer than the lock, not past the project's newest (pre-releases of
         * what comes next do not count), and installable */
        if (!is_yanked && sb_vercmp_pep440(line, version) > 0 &&
            (NULL == h->latest || sb_vercmp_pep440(line, h->latest) <= 0))
            h->behind++;
    }
    h->step = sb_health_step(version, h->latest);
    return SB_OK;
}

sb_code sb_health_props(sb_sbom *s, sb_arena *a)
{
    if (NULL == s->health)
        return SB_OK;
    for (size_t i = 0; i < s->npkgs; i++) {
        const sb_health *h = &s->health[i];
        if (h->state != SB_HEALTH_ANSWERED || !h->yanked)
            continue;
        sb_code rc = sb_pkg_prop_insert(&s->pkgs[i], a, "pixi:yanked", "true");
        if (rc == SB_OK && h->yanked_reason)
            rc = sb_pkg_prop_insert(&s->pkgs[i], a, "pixi:yanked-reason", h->yanked_reason);
        if (rc != SB_OK)
            return rc;
    }
    return SB_OK;
}

/* --- conda channel indexes (the outdated report) ------------------------- */

static int plain_name(const char *s)
{
    size_t n = s ? strlen(s) : 0;
    if (0 == n || n > 200 || !strcmp(s, ".") || !strcmp(s, ".."))
        return 0;
    return strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-") == n;
}

const char *sb_health_channel_url(sb_arena *a, const char *tmpl, const char *channel, const char *subdir)
{
    if (NULL == tmpl || !tmpl[0] || !plain_name(channel) || !plain_name(subdir))
        return NULL;
    const char *out = "";
    for (const char *p = tmpl; *p;) {
        const char *rep = NULL;
        size_t skip = 0;
        if (!strncmp(p, "{channel}", 9))
            rep = channel, skip = 9;
        else if (!strncmp(p, "{subdir}", 8))
            rep = subdir, skip = 8;
        if (rep) {
            out = sb_arena_printf(a, "%s%s", out, rep);
            p += skip;
        } else {
            size_t k = strcspn(p + 1, "{") + 1;
            out = sb_arena_printf(a, "%s%.*s", out, (int)k, p);
            p += k;
        }
        if (NULL == out)
            return NULL;
    }
    return out;
}

sb_code sb_health_channel_digest(sb_arena *a, const char *json, size_t len, const char **digest, size_t *dlen)
{
    json_error_t je;
    json_t *root = json_loadb(json, len, 0, &je);
    json_t *lists[2] = {json_object_get(root, "packages"), json_object_get(root, "packages.conda")};
    if (!json_is_object(root) || (!json_is_object(lists[0]) && !json_is_object(lists[1]))) {
        json_decref(root);
        return SB_EPARSE;
    }
    /* "name\tversion" -> earliest timestamp (ms; 0 = none), in first-seen order */
    json_t *seen = json_object();
    sb_code rc = seen ? SB_OK : SB_ENOMEM;
    for (int l = 0; l < 2 && rc == SB_OK; l++) {
        const char *fn;
        json_t *rec;
        json_object_foreach(lists[l], fn, rec) {
            const char *name = json_string_value(json_object_get(rec, "name"));
            const char *ver = json_string_value(json_object_get(rec, "version"));
            if (!name || !ver || !name[0] || !ver[0] || strpbrk(name, "\t\r\n") || strpbrk(ver, "\t\r\n"))
                continue;
            json_t *ts = json_object_get(rec, "timestamp");
            long long t = json_is_integer(ts) ? json_integer_value(ts) : 0;
            if (t > 0 && t < 100000000000LL)
                t *= 1000; /* old records give seconds */
            char *key = sb_arena_printf(a, "%s\t%s", name, ver);
            if (NULL == key) {
                rc = SB_ENOMEM;
                break;
            }
            json_t *have = json_object_get(seen, key);
            long long h = have ? json_integer_value(have) : -1;
            if (h < 0 || (t > 0 && (h == 0 || t < h)))
                if (json_object_set_new(seen, key, json_integer(t < 0 ? 0 : t))) {
                    rc = SB_ENOMEM;
                    break;
                }
        }
    }
    char *o = NULL;
    size_t n = 0, cap = 0;
    const char *key;
    json_t *v;
    if (rc == SB_OK && SB_OK != (rc = add(a, &o, &n, &cap, "")))
        o = NULL;
    json_object_foreach(seen, key, v) {
        if (rc != SB_OK)
            break;
        long long t = json_integer_value(v);
        char day[16] = "-";
        if (t > 0) {
            time_t secs = (time_t)(t / 1000);
            struct tm tm;
            if (gmtime_r(&secs, &tm))
                strftime(day, sizeof day, "%Y-%m-%d", &tm);
        }
        const char *line = sb_arena_printf(a, "%s\t%s\n", key, day);
        rc = line ? add(a, &o, &n, &cap, line) : SB_ENOMEM;
    }
    json_decref(seen);
    json_decref(root);
    if (rc != SB_OK)
        return rc;
    *digest = o;
    *dlen = n;
    return SB_OK;
}

sb_code sb_health_from_channel(sb_health *h, sb_arena *a, const char *digest, const char *name, const char *version)
{
    memset(h, 0, sizeof *h);
    h->state = SB_HEALTH_UNKNOWN;
    if (NULL == digest || NULL == version)
        return SB_OK;
    size_t nl = strlen(name);
    /* two passes: the newest version first, then what lies between */
    for (int pass = 0; pass < 2; pass++)
        for (const char *p = digest; *p;) {
            const char *e = strchr(p, '\n');
            size_t n = e ? (size_t)(e - p) : strlen(p);
            const char *line = p;
            p += n + (e != NULL);
            if (n <= nl + 1 || strncmp(line, name, nl) || line[nl] != '\t')
                continue;
            const char *v = line + nl + 1, *t = memchr(v, '\t', n - nl - 1);
            if (NULL == t)
                continue;
            char *ver = sb_arena_strndup(a, v, (size_t)(t - v)),
                 *day = sb_arena_strndup(a, t + 1, n - (size_t)(t + 1 - line));
            if (!ver || !day)
                return SB_ENOMEM;
            const char *d = strcmp(day, "-") ? day : NULL;
            h->state = SB_HEALTH_ANSWERED;
            if (pass == 0) {
                if (NULL == h->latest || sb_vercmp_conda(ver, h->latest) > 0)
                    h->latest = ver, h->latest_released = d;
                if (!strcmp(ver, version))
                    h->released = d;
            } else if (sb_vercmp_conda(ver, version) > 0 && sb_vercmp_conda(ver, h->latest) <= 0) {
                h->behind++;
            }
        }
    if (h->latest && sb_vercmp_conda(version, h->latest) < 0)
        h->step = sb_health_step(version, h->latest);
    return SB_OK;
}
