/*
 * lock_swift.c - SwiftPM's Package.resolved, versions 1 to 3.
 *
 * Version 1 holds `object.pins`, each with `package`, `repositoryURL` and
 * `state` {branch, revision, version}; versions 2 and 3 hold `pins` with
 * `identity`, `kind` (remoteSourceControl, localSourceControl, registry),
 * `location` and the same `state`; version 3 adds `originHash`, a hash of
 * the manifests the pins were resolved from (not of any package: it is not
 * carried). Every pin is a package; the file states no edges and not
 * which pins the root asked for (Package.swift, which does, is Swift code).
 *
 * Identity: a remote pin's repository URL gives host/owner/name (the purl's
 * namespace and name, ".git" dropped), which is also the component's name;
 * its version is the pinned version, or the revision for a pin on a branch
 * or a bare revision. The revision and branch are pixi:source-rev and
 * pixi:source-branch (a commit is not a digest of an artifact), the
 * location a git source; a local pin is a pkg:generic at its path; a
 * registry pin is scope/name.
 */
#include "deadline.h"
#include "ecosystem.h"
#include "lock.h"
#include "lock_int.h"

#include <ctype.h>
#include <jansson.h>
#include <stdio.h>
#include <string.h>

static sb_code oom(sb_err *err)
{
    return sb_err_set(err, SB_ENOMEM, "out of memory");
}

/* The line of the top-level "version": N, for messages (1 when not found). */
static unsigned version_line(const char *data, size_t len)
{
    unsigned line = 1, found = 1;
    for (size_t i = 0; i < len; i++) {
        if (data[i] == '\n')
            line++;
        else if (data[i] == '"' && len - i > 9 && !memcmp(data + i, "\"version\"", 9)) {
            size_t j = i + 9;
            while (j < len && (data[j] == ' ' || data[j] == '\t' || data[j] == ':' || data[j] == '\r'))
                j++;
            if (j < len && (isdigit((unsigned char)data[j]) || data[j] == '-'))
                found = line;
        }
    }
    return found;
}

static const char *str_of(json_t *o, const char *key)
{
    json_t *v = json_object_get(o, key);
    return json_is_string(v) ? json_string_value(v) : NULL;
}

static sb_code push(sb_pkg *p, sb_arena *a, const char *name, const char *value)
{
    const char *v = sb_arena_strdup(a, value);
    if (NULL == v || sb_strv_push(&p->reader_props, a, name) != SB_OK || sb_strv_push(&p->reader_props, a, v) != SB_OK)
        return SB_ENOMEM;
    return SB_OK;
}

/* "https://github.com/apple/swift-nio.git", "git@github.com:apple/swift-nio",
 * "ssh://git@host:22/a/b" -> "github.com/apple/swift-nio"; NULL when the
 * URL has no host and path. */
static const char *url_identity(sb_arena *a, const char *url)
{
    const char *p = strstr(url, "://");
    const char *host;
    if (p) {
        host = p + 3;
    } else {
        const char *colon = strchr(url, ':');
        if (NULL == colon || strchr(url, '/') < colon)
            return NULL;
        host = url;
    }
    const char *at = strchr(host, '@');
    const char *slash0 = strpbrk(host, "/");
    if (at && (NULL == slash0 || at < slash0))
        host = at + 1;
    size_t hn = strcspn(host, p ? ":/" : ":");
    const char *path = host + hn;
    if (*path == ':') { /* a port, or scp-like host:path */
        path++;
        if (p) {
            while (isdigit((unsigned char)*path))
                path++;
        }
    }
    while (*path == '/')
        path++;
    size_t pn = strcspn(path, "?#");
    while (pn && path[pn - 1] == '/')
        pn--;
    if (pn > 4 && !memcmp(path + pn - 4, ".git", 4))
        pn -= 4;
    if (0 == hn || 0 == pn || NULL == memchr(path, '/', pn))
        return NULL;
    char *out = sb_arena_printf(a, "%.*s/%.*s", (int)hn, host, (int)pn, path);
    if (out)
        for (char *c = out; *c && c < out + hn; c++)
            *c = (char)tolower((unsigned char)*c); /* host names are case-insensitive */
    return out;
}

static sb_code add_pin(sb_arena *a, sb_lock_platform *lp, sb_pkg *p, json_t *pin, size_t i, int version,
                       const sb_limits *lim, sb_err *err)
{
    if (!json_is_object(pin))
        return sb_err_set(err, SB_EPARSE, "Package.resolved: pin %zu is not an object", i + 1);
    const char *ident = str_of(pin, version == 1 ? "package" : "identity");
    const char *loc = str_of(pin, version == 1 ? "repositoryURL" : "location");
    const char *kind = version == 1 ? "remoteSourceControl" : str_of(pin, "kind");
    json_t *state = json_object_get(pin, "state");
    if (NULL == ident || NULL == loc || NULL == kind || !json_is_object(state))
        return sb_err_set(err, SB_EPARSE, "Package.resolved: pin %zu lacks %s", i + 1,
                          NULL == ident  ? (version == 1 ? "package" : "identity")
                          : NULL == loc  ? (version == 1 ? "repositoryURL" : "location")
                          : NULL == kind ? "kind"
                                         : "state");
    const char *ver = str_of(state, "version"), *rev = str_of(state, "revision"), *branch = str_of(state, "branch");
    const char *all[] = {ident, loc, kind, ver, rev, branch};
    for (size_t k = 0; k < sizeof all / sizeof *all; k++)
        if (all[k] && strlen(all[k]) > lim->max_scalar)
            return sb_err_set(err, SB_ELIMIT, "Package.resolved: pin %zu holds a value longer than %zu bytes", i + 1,
                              lim->max_scalar);
    if (NULL == ver && NULL == rev)
        return sb_err_set(err, SB_EPARSE, "Package.resolved: pin %zu ('%.100s') has neither a version nor a revision",
                          i + 1, ident);
    p->kind = SB_KIND_SWIFT;
    p->version = sb_arena_strdup(a, ver ? ver : rev);
    if (NULL == p->version)
        return oom(err);
    if (!strcmp(kind, "remoteSourceControl")) {
        p->name = url_identity(a, loc);
        if (NULL == p->name)
            return sb_err_set(err, SB_EPARSE,
                              "Package.resolved: pin %zu ('%.100s'): the location '%.200s' names no host and "
                              "repository",
                              i + 1, ident, loc);
        p->purl = sb_eco_purl(a, SB_KIND_SWIFT, p->name, p->version, NULL, 1, NULL, 0);
        p->location = rev ? sb_arena_printf(a, "git+%s#%s", loc, rev) : sb_arena_printf(a, "git+%s", loc);
    } else if (!strcmp(kind, "localSourceControl") || !strcmp(kind, "fileSystem")) {
        p->name = sb_arena_strdup(a, ident);
        p->location = sb_lock__location(a, loc);
        p->purl = p->name ? sb_eco_purl(a, SB_KIND_SWIFT, p->name, p->version, loc[0] ? loc : ".", 0, NULL, 0) : NULL;
    } else if (!strcmp(kind, "registry")) {
        /* a registry identity is scope.name */
        const char *dot = strchr(ident, '.');
        if (NULL == dot || dot == ident || !dot[1])
            return sb_err_set(err, SB_EPARSE,
                              "Package.resolved: pin %zu: a registry identity is scope.name, not '%.100s'", i + 1,
                              ident);
        p->name = sb_arena_printf(a, "%.*s/%s", (int)(dot - ident), ident, dot + 1);
        p->purl = p->name ? sb_eco_purl(a, SB_KIND_SWIFT, p->name, p->version, NULL, 1, NULL, 0) : NULL;
    } else {
        return sb_err_set(err, SB_EUNSUPPORTED,
                          "Package.resolved: pin %zu ('%.100s') is of kind '%.40s', which "
                          "sbomd does not read (remoteSourceControl, localSourceControl, registry)",
                          i + 1, ident, kind);
    }
    if (NULL == p->name || NULL == p->purl || (rev && NULL == p->location && !strcmp(kind, "remoteSourceControl")))
        return oom(err);
    p->key = sb_arena_printf(a, "%s@%s", p->name, p->version);
    if (NULL == p->key || push(p, a, "pixi:swift-identity", ident) != SB_OK ||
        (rev && push(p, a, "pixi:source-rev", rev) != SB_OK) ||
        (branch && push(p, a, "pixi:source-branch", branch) != SB_OK))
        return oom(err);
    return sb_lock_platform_add(lp, a, p) == SB_OK ? SB_OK : oom(err);
}

static sb_code read_root(sb_lock **out, sb_arena *a, json_t *root, const char *data, size_t len, const sb_limits *lim,
                         sb_err *err)
{
    json_t *jv = json_object_get(root, "version");
    if (!json_is_integer(jv))
        return sb_err_set_at(err, SB_EPARSE, 1, 1, "Package.resolved: no top-level \"version\" number");
    json_int_t version = json_integer_value(jv);
    if (version < 1 || version > 3)
        return sb_err_set_at(err, SB_EUNSUPPORTED, version_line(data, len), 1,
                             "Package.resolved version %lld: sbomd reads versions 1, 2 and 3", (long long)version);
    json_t *pins = version == 1 ? json_object_get(json_object_get(root, "object"), "pins")
                                : json_object_get(root, "pins");
    if (!json_is_array(pins))
        return sb_err_set(err, SB_EPARSE, "Package.resolved version %lld: no %s array", (long long)version,
                          version == 1 ? "object.pins" : "pins");
    size_t n = json_array_size(pins);
    if (n > lim->max_packages)
        return sb_err_set(err, SB_ELIMIT, "more than %zu packages", lim->max_packages);
    sb_lock *lk = sb_arena_calloc(a, 1, sizeof *lk);
    sb_lock_env *env = lk ? sb_lock_env_get(lk, a, "default") : NULL;
    sb_lock_platform *lp = env ? sb_lock_platform_get(env, a, "noarch") : NULL;
    sb_pkg *recs = n ? sb_arena_calloc(a, n, sizeof *recs) : NULL;
    if (NULL == lp || (n && NULL == recs))
        return oom(err);
    lk->kind = "Package.resolved";
    lk->version = (int)version;
    lk->no_dep_data = true; /* pins only: which needs which is in each package's manifest */
    sb_deadline dl = {lim->deadline_ns, 0, "reading the lockfile"};
    for (size_t i = 0; i < n; i++) {
        if (sb_deadline_tick(&dl, err) != SB_OK)
            return SB_ETIMEOUT;
        sb_code rc = add_pin(a, lp, &recs[i], json_array_get(pins, i), i, (int)version, lim, err);
        if (rc != SB_OK)
            return rc;
    }
    lp->recs = recs;
    lk->nrecords = n;
    *out = lk;
    return SB_OK;
}

static sb_code swift_read(sb_lock **out, sb_arena *a, const char *data, size_t len, const sb_limits *lim, sb_err *err)
{
    static const sb_limits defaults = SB_LIMITS_DEFAULT;
    if (NULL == lim)
        lim = &defaults;
    json_error_t je;
    json_t *root = json_loadb(data, len, JSON_REJECT_DUPLICATES, &je);
    if (NULL == root)
        return sb_err_set_at(err, SB_EPARSE, (unsigned)(je.line > 0 ? je.line : 1),
                             (unsigned)(je.column > 0 ? je.column : 1), "Package.resolved: %s", je.text);
    sb_code rc = json_is_object(root) ? read_root(out, a, root, data, len, lim, err)
                                      : sb_err_set_at(err, SB_EPARSE, 1, 1, "Package.resolved: not a JSON object");
    json_decref(root);
    return rc;
}

static int swift_detect(const char *data, size_t len, const char *filename)
{
    if (filename) {
        const char *b = filename;
        for (const char *p = filename; *p; p++)
            if (*p == '/' || *p == '\\')
                b = p + 1;
        if (!strcmp(b, "Package.resolved"))
            return 2;
    }
    size_t i = 0;
    while (i < len && isspace((unsigned char)data[i]))
        i++;
    if (i == len || data[i] != '{')
        return 0;
    size_t n = len - i < 4096 ? len - i : 4096;
    const char *h = data + i;
    return memmem(h, n, "\"pins\"", 6) && memmem(h, n, "\"state\"", 7) &&
                   (memmem(h, n, "\"repositoryURL\"", 15) || memmem(h, n, "\"location\"", 10))
               ? 1
               : 0;
}

const sb_reader sb_reader_swift = {.kind = "Package.resolved",
                                   .detect = swift_detect,
                                   .read = swift_read,
                                   .record_char = '{',
                                   .per_record = 600,
                                   .per_byte = 3};
