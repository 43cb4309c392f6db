/*
 * lock_yarn.c - yarn.lock, classic (`# yarn lockfile v1`, its own indented
 * text format) and berry (YAML with __metadata.version 4 to 10), into an
 * sb_jsl (lock_js.h).
 *
 * Both are entries keyed by one or more `name@range` descriptors; both are
 * read into one entry list, then resolved the same way:
 *   classic: <descs>: { version, resolved, integrity, dependencies,
 *            optionalDependencies } (fields "key value", maps one level deeper)
 *   berry:   <descs>: { version, resolution, checksum, dependencies,
 *            optionalDependencies(none: dependenciesMeta), languageName, linkType }
 * A dependency `name: range` is the descriptor name@range (berry adds npm:
 * to a range without a protocol, and binds a relative one to the
 * dependent's locator: lookup). Berry's `name@workspace:.` entry is the
 * document root; other workspaces are local members (pkg:generic). Sources:
 * registry (npm:, registry tarballs, a classic offline mirror's file name)
 * adds nothing to the identity; git (#commit=), tarball URLs, patch: (the
 * patched package, its resolution kept as pixi:yarn-resolution; a patch, yarn's
 * own or the user's, is the package it patches: patched_locator),
 * file:/link:/portal: do. Berry's `0.0.0-use.local` (a workspace's unknown
 * version) is no version. Scopes: neither kind can tell development from
 * production (berry folds a workspace's devDependencies into its
 * dependencies, classic states no root), so the lock gives only `optional`,
 * to what every path reaches through an optional edge (classic's
 * optionalDependencies, berry's dependenciesMeta), and leaves the rest to a
 * manifest (sb_lock.scopes_guessed: select.c manifest_scopes).
 * Berry's `checksum` is a
 * hash of yarn's cache zip, not of the registry tarball: kept as
 * pixi:yarn-checksum, never as a hash.
 */
#include "buf.h"
#include "lock_int.h"
#include "lock_js.h"
#include "purl.h"
#include "yaml_tree.h"

#include <stdlib.h>
#include <string.h>

/* A string of the entry as read: a slice of the input (classic) or a
 * NUL-terminated string of the YAML tree (berry; n its length); s NULL when
 * absent. Everything read is held as slices while reading, so a 100,000-entry
 * lock does not copy its descriptors, ranges, integrities and URLs into the
 * arena; only what a record keeps is copied (yl_dup), and nothing kept
 * points into the input or the scratch arena. */
typedef struct yl_str {
    const char *s;
    uint32_t n;
} yl_str;

/* A dependency as two spans, 16 bytes (a 100,000-entry classic lock has
 * some 300,000): offsets into the input, or (a decoded token, berry's tree
 * strings) into yl_ctx.side; *_side says which. */
typedef struct yl_dep {
    uint32_t no, ro;
    uint32_t nl : 31, name_side : 1;
    uint32_t rl : 30, range_side : 1, optional : 1;
} yl_dep;

/* The entry being read (one at a time: its package is made as soon as it
 * ends, see ent_done), its fields slices as above. */
typedef struct yl_ent {
    yl_str *descs; /* yl_ctx.descs, reused by every entry */
    uint32_t ndescs;
    unsigned line;
    yl_str version, resolved, resolution, integrity, checksum;
    uint32_t dep0, ndeps; /* its dependencies: yl_ctx.deps[dep0, dep0 + ndeps) */
    sb_js_pkg *pkg;
    bool root;
    bool patched; /* berry: a patch: entry, one package with what it patches (patched_locator) */
} yl_ent;

/* What the edges need of an entry once its package is made: 32 bytes a
 * package rather than the 128 of a whole yl_ent kept until every entry
 * was read (12.8 MB of a 100,000-entry lock). */
typedef struct yl_done {
    sb_js_pkg *pkg;         /* NULL for berry's root */
    const char *resolution; /* berry: the tree's string (workspace members) */
    uint32_t dep0, ndeps;
    bool root;
} yl_done;

typedef struct yl_ctx {
    sb_arena *a;
    sb_err *err;
    bool berry;
    sb_jsl l;
    sb_arena *scr; /* entries, decoded tokens, by_desc: dropped once resolved,
                          * before sb_jsl_build adds its properties */
    yl_ent cur;    /* the entry being read */
    bool open;     /* cur holds an entry not yet made a package */
    yl_str *descs; /* cur's descriptors (malloc, reused) */
    size_t descs_cap;
    yl_done *ents; /* the entries read, by_desc's values index them */
    size_t n, cap;
    sb_strmap by_desc; /* descriptor -> entry index; keys are slices */
    yl_dep *deps;      /* every entry's dependencies, in entry order (malloc) */
    const char *data;  /* the input, which yl_dep spans point into */
    size_t len;
    sb_buf side; /* the dependency strings that are not in it */
    size_t ndeps, dcap;
    char *scratch; /* a descriptor being looked up, a string decoded for one use */
    size_t scratch_cap;
} yl_ctx;

static sb_code oom(yl_ctx *c)
{
    return sb_err_set(c->err, SB_ENOMEM, "out of memory");
}

static yl_str cstr(const char *s)
{
    return (yl_str){s, s ? (uint32_t)strlen(s) : 0};
}

/* An arena copy of a slice a record keeps; NULL when absent (or out of
 * memory: the callers that must have it check). */
static const char *yl_dup(sb_arena *a, yl_str v)
{
    return v.s ? sb_arena_strndup(a, v.s, v.n) : NULL;
}

/* A slice NUL-terminated in the reusable scratch buffer (valid until the
 * next use of it); NULL when absent or out of memory. */
static const char *yl_tmp(yl_ctx *c, yl_str v)
{
    if (NULL == v.s)
        return NULL;
    if ((size_t)v.n + 1 > c->scratch_cap) {
        char *nb = realloc(c->scratch, (size_t)v.n + 64);
        if (NULL == nb)
            return NULL;
        c->scratch = nb;
        c->scratch_cap = (size_t)v.n + 64;
    }
    memcpy(c->scratch, v.s, v.n);
    c->scratch[v.n] = '\0';
    return c->scratch;
}

static yl_ent *ent_add(yl_ctx *c, unsigned line)
{
    yl_done *nv = sb_arena_grow(c->scr, c->ents, &c->cap, c->n, sizeof *nv, 256);
    if (NULL == nv)
        return NULL;
    c->ents = nv;
    memset(&c->ents[c->n++], 0, sizeof *nv);
    yl_ent *e = &c->cur;
    memset(e, 0, sizeof *e);
    e->descs = c->descs;
    e->line = line;
    c->open = true;
    return e;
}

/* The span of v: its offset in the input, else of a copy of it appended to
 * c->side; *side tells which. -1 when out of memory or past 4 GiB. */
static int64_t dep_span(yl_ctx *c, yl_str v, bool *side)
{
    *side = !(v.s >= c->data && v.s + v.n <= c->data + c->len);
    if (!*side)
        return v.s - c->data;
    size_t at = c->side.len;
    if (at + v.n > UINT32_MAX || sb_buf_append(&c->side, v.s, v.n) != SB_OK)
        return -1;
    return (int64_t)at;
}

static const char *dep_str(const yl_ctx *c, uint32_t off, bool side)
{
    return (side ? c->side.data : c->data) + off;
}

static sb_code dep_add(yl_ctx *c, yl_ent *e, yl_str name, yl_str range, bool optional)
{
    if (range.n >= 1u << 30 || name.n >= 1u << 31)
        return sb_err_set_at(c->err, SB_ELIMIT, e->line, 1, "yarn.lock: a dependency name or range longer than 1 GiB");
    if (c->ndeps == c->dcap) {
        /* one array for all entries (an entry's are added together), sized
         * from a count of the lines up front in classic, so not regrown */
        size_t nc = c->dcap ? c->dcap * 2 : 256;
        yl_dep *nv = nc > UINT32_MAX ? NULL : realloc(c->deps, nc * sizeof *nv);
        if (NULL == nv)
            return oom(c);
        c->deps = nv;
        c->dcap = nc;
    }
    if (0 == e->ndeps)
        e->dep0 = (uint32_t)c->ndeps;
    bool ns, rs;
    int64_t no = dep_span(c, name, &ns), ro = dep_span(c, range, &rs);
    if (no < 0 || ro < 0)
        return oom(c);
    c->deps[c->ndeps++] = (yl_dep){(uint32_t)no, (uint32_t)ro, name.n, ns, range.n, rs, optional};
    e->ndeps++;
    return SB_OK;
}

/* "a@^1, \"b@^2\"" -> the entry's descriptors, each registered. */
static sb_code descriptors(yl_ctx *c, yl_ent *e, const char *s, size_t n)
{
    size_t cap = 1;
    for (size_t i = 0; i < n; i++)
        cap += s[i] == ',';
    if (cap > c->descs_cap) {
        yl_str *nv = realloc(c->descs, cap * sizeof *nv);
        if (NULL == nv)
            return oom(c);
        c->descs = e->descs = nv;
        c->descs_cap = cap;
    }
    for (size_t i = 0; i < n;) {
        while (i < n && (s[i] == ' ' || s[i] == ','))
            i++;
        size_t j = i;
        while (j < n && s[j] != ',')
            j++;
        size_t b = i, k = j;
        while (k > b && s[k - 1] == ' ')
            k--;
        if (k > b + 1 && s[b] == '"' && s[k - 1] == '"') {
            b++;
            k--;
        }
        if (k > b) {
            /* a slice of the line: the map and the entry only read it */
            if (sb_strmap_put(&c->by_desc, s + b, k - b, c->n - 1, NULL) < 0)
                return oom(c);
            e->descs[e->ndescs++] = (yl_str){s + b, (uint32_t)(k - b)};
        }
        i = j;
    }
    if (0 == e->ndescs)
        return sb_err_set_at(c->err, SB_EPARSE, e->line, 1, "yarn.lock: an entry without a descriptor");
    return SB_OK;
}

static sb_code ent_done(yl_ctx *c);

/* ---- classic ---- */

/* A classic token: "quoted" (\" and \\ escapes) or bare up to a space: a
 * slice of the line, or when it has escapes a decoded copy in the scratch
 * arena. s NULL on allocation failure. */
static yl_str token(yl_ctx *c, const char **p, const char *end)
{
    const char *s = *p;
    if (s < end && *s == '"') {
        const char *q = memchr(s + 1, '"', (size_t)(end - s - 1));
        const char *qe = q ? q : end;
        if (NULL == memchr(s + 1, '\\', (size_t)(qe - s - 1))) {
            *p = q ? q + 1 : end;
            return (yl_str){s + 1, (uint32_t)(qe - s - 1)};
        }
        char *o = sb_arena_alloc(c->scr, (size_t)(end - s));
        if (NULL == o)
            return (yl_str){NULL, 0};
        size_t k = 0;
        for (s++; s < end && *s != '"'; s++) {
            if (*s == '\\' && s + 1 < end)
                s++;
            o[k++] = *s;
        }
        o[k] = '\0';
        *p = s < end ? s + 1 : s;
        return (yl_str){o, (uint32_t)k};
    }
    const char *t = s;
    while (t < end && *t != ' ')
        t++;
    *p = t;
    return (yl_str){s, (uint32_t)(t - s)};
}

typedef struct yl_line {
    const char *s, *end; /* content after the indentation */
    unsigned indent, no;
} yl_line;

/* The bare key of a field line [s, end) up to a space, unquoted when quoted
 * without escapes: compared in place, never copied (it is dropped). */
static size_t field_key(const char *s, const char *end, const char **k)
{
    const char *t = s;
    if (s < end && *s == '"') {
        const char *q = memchr(s + 1, '"', (size_t)(end - s - 1));
        if (q && !memchr(s + 1, '\\', (size_t)(q - s - 1))) {
            *k = s + 1;
            return (size_t)(q - s - 1);
        }
        *k = NULL; /* escaped: no field name of ours is spelled so */
        return 0;
    }
    while (t < end && *t != ' ')
        t++;
    *k = s;
    return (size_t)(t - s);
}

static bool key_is(const char *k, size_t n, const char *lit)
{
    return k && n == strlen(lit) && 0 == memcmp(k, lit, n);
}

static sb_code classic_field(yl_ctx *c, yl_ent *e, const yl_line *ln, const char **section)
{
    const char *p = ln->s;
    if (ln->indent == 4) {
        if (NULL == *section)
            return sb_err_set_at(c->err, SB_EPARSE, ln->no, 5, "yarn.lock: a nested value outside a section");
        bool deps = !strcmp(*section, "dependencies"), opt = !strcmp(*section, "optionalDependencies");
        if (!deps && !opt)
            return SB_OK; /* a section not read */
        yl_str key = token(c, &p, ln->end);
        if (NULL == key.s)
            return oom(c);
        while (p < ln->end && *p == ' ')
            p++;
        yl_str val = token(c, &p, ln->end);
        if (NULL == val.s)
            return oom(c);
        return dep_add(c, e, key, val, opt);
    }
    const char *k;
    size_t kl = field_key(p, ln->end, &k);
    const char *after = k ? k + kl + (*p == '"') : ln->end;
    if (NULL == k) {
        /* a quoted key with escapes: decoded as token() does */
        const char *q = p;
        yl_str dk = token(c, &q, ln->end);
        if (NULL == (k = dk.s))
            return oom(c);
        kl = dk.n;
        after = q;
    }
    p = after;
    while (p < ln->end && *p == ' ')
        p++;
    if (p == ln->end && kl && k[kl - 1] == ':') {
        /* a section header; only the two dependency sections are read, the
         * others are kept as a name no field matches */
        *section = key_is(k, kl - 1, "dependencies")           ? "dependencies"
                   : key_is(k, kl - 1, "optionalDependencies") ? "optionalDependencies"
                                                               : "";
        return SB_OK;
    }
    *section = NULL;
    yl_str *slot = key_is(k, kl, "version")     ? &e->version
                   : key_is(k, kl, "resolved")  ? &e->resolved
                   : key_is(k, kl, "integrity") ? &e->integrity
                                                : NULL;
    if (NULL == slot)
        return SB_OK;
    yl_str val = token(c, &p, ln->end);
    if (NULL == val.s)
        return oom(c);
    *slot = val;
    return SB_OK;
}

static sb_code classic_line(yl_ctx *c, const yl_line *ln, yl_ent **cur, const char **section)
{
    if (!strncmp(ln->s, "<<<<<<<", 7) || !strncmp(ln->s, "=======", 7) || !strncmp(ln->s, ">>>>>>>", 7))
        return sb_err_set_at(c->err, SB_EPARSE, ln->no, 1,
                             "yarn.lock: a merge-conflict marker; resolve the conflict first");
    if (ln->indent == 0) {
        if (ln->end[-1] != ':')
            return sb_err_set_at(c->err, SB_EPARSE, ln->no, 1, "yarn.lock: an entry line must end with ':'");
        if (c->n >= c->l.max_packages)
            return sb_err_set(c->err, SB_ELIMIT, "more than %zu packages", c->l.max_packages);
        sb_code rc = ent_done(c);
        if (rc != SB_OK)
            return rc;
        *cur = ent_add(c, ln->no);
        *section = NULL;
        return *cur ? descriptors(c, *cur, ln->s, (size_t)(ln->end - ln->s - 1)) : oom(c);
    }
    if (NULL == *cur || (ln->indent != 2 && ln->indent != 4))
        return sb_err_set_at(c->err, SB_EPARSE, ln->no, ln->indent + 1, "yarn.lock: unexpected indentation");
    return classic_field(c, *cur, ln, section);
}

static sb_code read_classic(yl_ctx *c, const char *data, size_t len)
{
    yl_ent *cur = NULL;
    const char *section = NULL;
    unsigned no = 0;
    for (const char *p = data, *end = data + len; p < end;) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        const char *le = nl ? nl : end;
        no++;
        yl_line ln = {p, le, 0, no};
        while (ln.s < le && *ln.s == ' ')
            ln.s++;
        while (le > ln.s && (le[-1] == '\r' || le[-1] == ' '))
            le--;
        ln.end = le;
        ln.indent = (unsigned)(ln.s - p);
        p = nl ? nl + 1 : end;
        if (ln.s == ln.end || *ln.s == '#')
            continue;
        sb_code rc = sb_jsl_tick(&c->l, c->err);
        if (rc == SB_OK)
            rc = classic_line(c, &ln, &cur, &section);
        if (rc != SB_OK)
            return rc;
    }
    return ent_done(c);
}

/* ---- berry ---- */

static sb_code berry_deps(yl_ctx *c, yl_ent *e, const sb_yn *deps, bool optional)
{
    for (size_t i = 0; deps && deps->type == SB_YN_MAP && i < deps->n; i++) {
        const sb_yn *v = sb_yn_val(deps, i);
        if (v->type == SB_YN_SCALAR && v->s) {
            sb_code rc = dep_add(c, e, cstr(sb_yn_key(deps, i)), cstr(v->s), optional);
            if (rc != SB_OK)
                return rc;
        }
    }
    return SB_OK;
}

/* Berry has no optionalDependencies field: an optional dependency is
 * written as dependenciesMeta: {name: {optional: true}} beside it (fsevents
 * under chokidar); its edges are marked so. A key may be "name@range". */
static sb_code berry_meta(yl_ctx *c, yl_ent *e, const sb_yn *meta)
{
    for (size_t i = 0; meta && meta->type == SB_YN_MAP && i < meta->n; i++) {
        if (sb_jsl_tick(&c->l, c->err) != SB_OK)
            return SB_ETIMEOUT;
        const char *opt = sb_yn_str(sb_yn_val(meta, i), "optional");
        if (NULL == opt || strcmp(opt, "true"))
            continue;
        const char *k = sb_yn_key(meta, i);
        size_t kl = sb_js_name_len(k);
        for (uint32_t d = 0; d < e->ndeps; d++) {
            yl_dep *x = &c->deps[e->dep0 + d];
            if (x->nl == kl && !memcmp(dep_str(c, x->no, x->name_side), k, kl))
                x->optional = 1;
        }
    }
    return SB_OK;
}

static sb_code read_berry(yl_ctx *c, const sb_yn *doc)
{
    for (size_t i = 0; i < doc->n; i++) {
        const char *key = sb_yn_key(doc, i);
        const sb_yn *v = sb_yn_val(doc, i);
        if (!strcmp(key, "__metadata"))
            continue;
        if (sb_jsl_tick(&c->l, c->err) != SB_OK)
            return SB_ETIMEOUT;
        if (v->type != SB_YN_MAP)
            return sb_err_set_at(c->err, SB_EPARSE, v->line, v->col, "yarn.lock: entry '%.100s' must be a mapping",
                                 key);
        if (c->n >= c->l.max_packages)
            return sb_err_set(c->err, SB_ELIMIT, "more than %zu packages", c->l.max_packages);
        yl_ent *e = ent_add(c, v->line);
        if (NULL == e)
            return oom(c);
        sb_code rc = descriptors(c, e, key, strlen(key));
        if (rc != SB_OK)
            return rc;
        e->version = cstr(sb_yn_str(v, "version"));
        e->resolution = cstr(sb_yn_str(v, "resolution"));
        e->checksum = cstr(sb_yn_str(v, "checksum"));
        if (NULL == e->resolution.s)
            return sb_err_set_at(c->err, SB_EPARSE, v->line, v->col, "yarn.lock: entry '%.100s' has no resolution",
                                 key);
        if ((rc = berry_deps(c, e, sb_yn_get(v, "dependencies"), false)) != SB_OK ||
            (rc = berry_deps(c, e, sb_yn_get(v, "optionalDependencies"), true)) != SB_OK ||
            (rc = berry_meta(c, e, sb_yn_get(v, "dependenciesMeta"))) != SB_OK || (rc = ent_done(c)) != SB_OK)
            return rc;
    }
    return SB_OK;
}

/* ---- identities ---- */

/* After "npm:", the real package of an alias: "real@^1", or in classic a
 * bare "real" (an alias without range); a range or version is no alias. */
static int npm_alias(const yl_ctx *c, const char *r)
{
    size_t nl = sb_js_name_len(r);
    if (nl && r[nl] == '@')
        return 1;
    return !c->berry && ((r[0] >= 'a' && r[0] <= 'z') || r[0] == '@') && strcspn(r, " <>=^~*|") == strlen(r) &&
           strcmp(r, "latest") && strcmp(r, "next");
}

/* The name of a descriptor or resolution "name@range" (scoped names keep
 * their '@'); an alias "x@npm:real@^1" names `real`. */
static const char *desc_name(yl_ctx *c, const char *d, const char **range)
{
    size_t nl = sb_js_name_len(d);
    const char *r = d[nl] == '@' ? d + nl + 1 : d + nl;
    if (!strncmp(r, "npm:", 4) && npm_alias(c, r + 4)) {
        const char *real = r + 4;
        size_t rl = sb_js_name_len(real);
        if (range)
            *range = real[rl] == '@' ? real + rl + 1 : real + rl;
        return sb_arena_strndup(c->a, real, rl);
    }
    if (range)
        *range = r;
    return sb_arena_strndup(c->a, d, nl);
}

/* "https://h/x.git#commit=abc" -> "git+https://h/x.git#abc" */
static const char *git_url(yl_ctx *c, const char *url)
{
    const char *hash = strchr(url, '#');
    const char *commit = hash ? strstr(hash, "commit=") : NULL;
    size_t ul = hash ? (size_t)(hash - url) : strlen(url);
    if (commit)
        return sb_js_git_url(c->a, url, ul, commit + 7, strcspn(commit + 7, "&"));
    return sb_js_git_url(c->a, url, ul, hash ? hash + 1 : NULL, hash ? strlen(hash + 1) : 0);
}

static int is_git(const char *url)
{
    const char *h = strchr(url, '#');
    size_t n = h ? (size_t)(h - url) : strlen(url);
    return !strncmp(url, "git", 3) || (n > 4 && !strncmp(url + n - 4, ".git", 4));
}

/* Berry: where the resolution says the package comes from; NULL = registry. */
static const char *berry_source(yl_ctx *c, const char *proto)
{
    if (!strncmp(proto, "npm:", 4))
        return NULL;
    if (!strncmp(proto, "workspace:", 10) || !strncmp(proto, "file:", 5) || !strncmp(proto, "link:", 5) ||
        !strncmp(proto, "portal:", 7))
        return sb_lock__location(c->a, strchr(proto, ':') + 1);
    if ((strstr(proto, "://") || !strncmp(proto, "git@", 4)) && is_git(proto)) /* a URL or scp-like git@host:o/r.git */
        return git_url(c, proto);
    if (strstr(proto, "://") && !sb_model_npm_registry(proto))
        return proto;
    return proto; /* patch:, exec: ...: the resolution itself */
}

/* A range the registry resolves: a semver range or dist-tag, "npm:" one, or
 * none; not a path, URL, git or hosted-git shorthand (o/r), tarball file. */
static bool registry_range(const char *r, size_t n)
{
    if (n >= 4 && !memcmp(r, "npm:", 4)) {
        r += 4;
        n -= 4;
    }
    for (size_t i = 0; i < n; i++)
        if (r[i] == ':' || r[i] == '/' || r[i] == '\\')
            return false;
    return !(n && r[0] == '.') && !(n >= 4 && !memcmp(r + n - 4, ".tgz", 4)) &&
           !(n >= 4 && !memcmp(r + n - 4, ".tar", 4)) && !(n >= 7 && !memcmp(r + n - 7, ".tar.gz", 7));
}

/* Every descriptor of the classic entry asks the registry (after an npm:
 * alias's real name: "al@npm:real@^1" asks for real@^1). */
static bool registry_entry(const yl_ent *e)
{
    for (uint32_t d = 0; d < e->ndescs; d++) {
        const char *s = e->descs[d].s;
        size_t n = e->descs[d].n, nl = 0;
        while (nl < n && (s[nl] != '@' || 0 == nl))
            nl++;
        const char *r = nl < n ? s + nl + 1 : s + n;
        size_t rn = (size_t)(s + n - r);
        if (rn > 4 && !memcmp(r, "npm:", 4)) {
            /* an alias "npm:real@^1", "npm:@s/real@^1": the range after the
             * real name; "npm:@s/real" has none (latest) */
            size_t k = 5;
            while (k < rn && r[k] != '@')
                k++;
            if (k < rn) {
                r += k + 1;
                rn -= k + 1;
            } else if (r[4] == '@') {
                rn = 0;
            }
        }
        if (!registry_range(r, rn))
            return false;
    }
    return true;
}

/* Classic: NULL for a registry tarball, else the identity part (always an
 * arena string: `resolved` may be the scratch buffer). An offline mirror
 * (yarn-offline-mirror) writes the tarball's bare file name,
 * "helpers-3.0.16.tgz#<sha1>": for an entry the registry resolved that is
 * the registry package all the same, not a local one. */
static const char *classic_source(yl_ctx *c, const char *resolved, bool registry)
{
    if (NULL == resolved || sb_model_npm_registry(resolved))
        return NULL;
    if (is_git(resolved))
        return git_url(c, resolved);
    if (!strncmp(resolved, "file:", 5) || !strncmp(resolved, "link:", 5))
        return sb_lock__location(c->a, resolved + 5);
    if (strstr(resolved, "://"))
        return sb_arena_strdup(c->a, resolved);
    return registry ? NULL : sb_lock__location(c->a, resolved);
}

static sb_code push_prop(yl_ctx *c, sb_pkg *p, const char *name, const char *value)
{
    if (sb_strv_push(&p->reader_props, c->a, name) != SB_OK || sb_strv_push(&p->reader_props, c->a, value) != SB_OK)
        return oom(c);
    return SB_OK;
}

/* The value of property `name`, replaced when it is there and `replace`
 * says so; added when it is not. */
static sb_code set_prop(yl_ctx *c, sb_pkg *p, const char *name, const char *value, bool replace)
{
    for (size_t i = 0; i + 1 < p->reader_props.n; i += 2)
        if (!strcmp(p->reader_props.v[i], name)) {
            if (replace)
                p->reader_props.v[i + 1] = value;
            return SB_OK;
        }
    return push_prop(c, p, name, value);
}

/* A registry tarball URL's "#<sha1 hex>" fragment: the hash yarn v1 knew
 * before integrity. */
static void classic_sha1(yl_ctx *c, sb_pkg *p, const char *resolved)
{
    const char *h = resolved ? strchr(resolved, '#') : NULL;
    if (NULL == h || p->sha1 || strlen(h + 1) != 40 || strspn(h + 1, "0123456789abcdef") != 40)
        return;
    p->sha1 = sb_arena_strdup(c->a, h + 1);
}

/* name and source are arena strings; `resolved` is left in the scratch
 * buffer for entry_pkg */
static sb_code take_classic(yl_ctx *c, yl_ent *e, const char **name, const char **source)
{
    const char *d0 = yl_tmp(c, e->descs[0]), *range = NULL;
    *name = d0 ? desc_name(c, d0, &range) : NULL;
    if (NULL == *name)
        return oom(c);
    if (NULL == e->resolved.s) {
        /* none: a registry package, or what the descriptor names (a
         * file: folder has no resolved), never a registry package it is not */
        if (registry_entry(e))
            *source = NULL;
        else if (!strncmp(range, "file:", 5) || !strncmp(range, "link:", 5))
            *source = sb_lock__location(c->a, range + 5);
        else /* a hosted-git shorthand or URL yarn did not resolve: only the range says */
            *source = sb_lock__location(c->a, range);
        return *source || registry_entry(e) ? SB_OK : oom(c);
    }
    bool registry = e->resolved.s && !memchr(e->resolved.s, ':', e->resolved.n) && registry_entry(e);
    const char *resolved = yl_tmp(c, e->resolved);
    if (e->resolved.s && NULL == resolved)
        return oom(c);
    *source = classic_source(c, resolved, registry);
    return resolved && !*source && !registry && !sb_model_npm_registry(resolved) ? oom(c) : SB_OK;
}

/* A patch: entry is what yarn installs for every dependency on the
 * package it patches, whether the patch is one of yarn's own
 * (optional!builtin<compat/fsevents>, resolve, typescript) or the user's
 * (`yarn patch`, a file under .yarn/patches): the unpatched entry it names
 * (left-pad@npm:1.3.0) is only its source. So both are one package, taking
 * every incoming edge; two components with one purl, the installed one
 * without incoming edges, told nothing true. The locator it patches,
 * "npm:1.3.0" of "patch:left-pad@npm%3A1.3.0#~/.yarn/patches/...::...",
 * URI-decoded into the request's arena (berry_source may keep it); NULL
 * when the entry is no patch or its locator does not decode. */
static const char *patched_locator(yl_ctx *c, const char *proto)
{
    if (strncmp(proto, "patch:", 6))
        return NULL;
    const char *hash = strchr(proto, '#');
    if (NULL == hash)
        return NULL;
    const char *inner = sb_pct_decode(c->a, proto + 6, (size_t)(hash - proto - 6));
    if (NULL == inner) /* a bad escape (or no memory): left its own package */
        return NULL;
    size_t nl = sb_js_name_len(inner);
    return inner[nl] == '@' && inner[nl + 1] && strncmp(inner + nl + 1, "patch:", 6) ? inner + nl + 1 : NULL;
}

static sb_code take_berry(yl_ctx *c, yl_ent *e, const char **name, const char **source)
{
    const char *proto = NULL;
    *name = desc_name(c, e->resolution.s, &proto);
    if (NULL == *name)
        return oom(c);
    const char *patched = patched_locator(c, proto);
    e->patched = NULL != patched;
    *source = berry_source(c, patched ? patched : proto);
    e->root = !strcmp(proto, "workspace:.");
    if (e->root) {
        c->l.root_name = *name;
        c->l.root_version = e->version.s && strcmp(e->version.s, "0.0.0-use.local") ? e->version.s : NULL;
    }
    return SB_OK;
}

static sb_code entry_pkg(yl_ctx *c, yl_ent *e)
{
    const char *name, *source;
    sb_code rc = c->berry ? take_berry(c, e, &name, &source) : take_classic(c, e, &name, &source);
    if (rc != SB_OK || e->root)
        return rc;
    if (!name[0])
        return sb_err_set_at(c->err, SB_EPARSE, e->line, 1, "yarn.lock: entry '%.*s' has no name",
                             (int)(e->descs[0].n < 100 ? e->descs[0].n : 100), e->descs[0].s);
    /* berry's strings are the YAML tree's (in the request's arena); classic's
     * are slices of the input, copied only when kept */
    const char *version = c->berry ? e->version.s : yl_dup(c->a, e->version);
    if (e->version.s && NULL == version)
        return oom(c);
    /* what berry writes for a workspace's version it does not know is no
     * version of anything */
    if (c->berry && version && !strcmp(version, "0.0.0-use.local"))
        version = NULL;
    bool added;
    sb_js_pkg *p = sb_jsl_get(&c->l, c->a, name, version, source, &added, &rc);
    if (NULL == p)
        return rc == SB_ELIMIT ? sb_err_set(c->err, SB_ELIMIT, "more than %zu packages", c->l.max_packages) : oom(c);
    e->pkg = p;
    for (size_t d = 0; d < e->ndescs; d++) {
        const char *path = yl_dup(c->a, e->descs[d]);
        if (NULL == path || sb_js_path(p, c->a, path) != SB_OK)
            return oom(c);
    }
    if (c->berry && e->patched) {
        if (added)
            p->rec->location = source;
        /* the patch recorded; the checksum the installed, patched one's */
        rc = set_prop(c, p->rec, "pixi:yarn-resolution", e->resolution.s, true);
        return rc == SB_OK && e->checksum.s ? set_prop(c, p->rec, "pixi:yarn-checksum", e->checksum.s, true) : rc;
    }
    if (!added) /* the unpatched source of a patch: its checksum when the patched one has none */
        return c->berry && e->checksum.s ? set_prop(c, p->rec, "pixi:yarn-checksum", e->checksum.s, false) : SB_OK;
    if (c->berry) {
        p->rec->location = source && strncmp(e->resolution.s + strlen(name) + 1, "patch:", 6) ? source : NULL;
        if (source && NULL == p->rec->location &&
            (rc = push_prop(c, p->rec, "pixi:yarn-resolution", e->resolution.s)) != SB_OK)
            return rc;
        return e->checksum.s ? push_prop(c, p->rec, "pixi:yarn-checksum", e->checksum.s) : SB_OK;
    }
    /* the scratch buffer still holds `resolved` (take_classic) */
    const char *resolved = e->resolved.s ? c->scratch : NULL;
    /* a mirror's bare file name is no location; a source is, resolved or not */
    if (source || (resolved && strstr(resolved, "://"))) {
        p->rec->location = source ? source : sb_arena_strndup(c->a, resolved, strcspn(resolved, "#"));
        if (NULL == p->rec->location)
            return oom(c);
    }
    classic_sha1(c, p->rec, resolved);
    if (e->integrity.s) {
        const char *sri = yl_tmp(c, e->integrity);
        if (NULL == sri)
            return oom(c);
        sb_js_integrity(c->a, p->rec, sri);
    }
    return SB_OK;
}

/* ---- edges ---- */

/* encodeURIComponent's unreserved characters, which yarn leaves as they are */
static bool uri_plain(unsigned char ch)
{
    return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ||
           strchr("-_.!~*'()", ch) != NULL;
}

/* The entry of a dependency's descriptor "name@range". Berry binds a
 * relative range (portal:../b, link:../b, file:../b, a patch file) to the
 * dependent's locator: when "name@range" is no key, the key is
 * "name@range::locator=<the dependent's resolution, URI-encoded>" (
 * defect 4: a portal: between two non-workspace packages lost its edge). */
static yl_done *lookup(yl_ctx *c, const yl_dep *d, const char *locator)
{
    /* "name@range" in a reusable buffer: built for every edge, kept by none */
    size_t nl = d->nl, rl = d->rl;
    const char *name = dep_str(c, d->no, d->name_side), *range = dep_str(c, d->ro, d->range_side);
    bool npm = c->berry && NULL == memchr(range, ':', rl);
    size_t n = nl + 1 + (npm ? 4 : 0) + rl;
    size_t room = n + 12 + (locator ? 3 * strlen(locator) : 0); /* "::locator=", each byte as %XX at most */
    if (room + 1 > c->scratch_cap) {
        char *nb = realloc(c->scratch, room + 64);
        if (NULL == nb)
            return NULL;
        c->scratch = nb;
        c->scratch_cap = room + 64;
    }
    char *o = c->scratch;
    memcpy(o, name, nl);
    o[nl] = '@';
    size_t k = nl + 1;
    if (npm) {
        memcpy(o + k, "npm:", 4);
        k += 4;
    }
    memcpy(o + k, range, rl);
    size_t at;
    if (sb_strmap_get(&c->by_desc, o, n, &at))
        return &c->ents[at];
    if (NULL == locator || npm)
        return NULL;
    /* params already after "::" take the locator after '&' */
    bool params = false;
    for (size_t i = 0; i + 1 < rl && !params; i++)
        params = range[i] == ':' && range[i + 1] == ':';
    k = n;
    memcpy(o + k, params ? "&locator=" : "::locator=", params ? 9 : 10);
    k += params ? 9 : 10;
    for (const unsigned char *u = (const unsigned char *)locator; *u; u++) {
        if (uri_plain(*u)) {
            o[k++] = (char)*u;
        } else {
            o[k++] = '%';
            o[k++] = "0123456789ABCDEF"[*u >> 4];
            o[k++] = "0123456789ABCDEF"[*u & 15];
        }
    }
    return sb_strmap_get(&c->by_desc, o, k, &at) ? &c->ents[at] : NULL;
}

static sb_code entry_edges(yl_ctx *c, yl_done *e)
{
    for (size_t i = 0; i < e->ndeps; i++) {
        const yl_dep *d = &c->deps[e->dep0 + i];
        yl_done *t = lookup(c, d, c->berry ? e->resolution : NULL);
        if (NULL == t || NULL == t->pkg || t->pkg == e->pkg)
            continue;
        sb_js_scope how = d->optional ? SB_JS_OPTIONAL : SB_JS_REQUIRED;
        sb_code rc = e->root ? sb_jsl_root_scoped(&c->l, c->a, t->pkg->rec->key, how)
                             : sb_js_dep_scoped(e->pkg, c->a, t->pkg->rec->key, how);
        if (rc != SB_OK)
            return oom(c);
    }
    /* a workspace member hangs off the root */
    if (c->berry && e->pkg && !strncmp(e->resolution + strlen(e->pkg->rec->name) + 1, "workspace:", 10))
        return sb_jsl_root_scoped(&c->l, c->a, e->pkg->rec->key, SB_JS_REQUIRED) == SB_OK ? SB_OK : oom(c);
    return SB_OK;
}

/* The entry just read made its package (read_classic, read_berry call this
 * as each entry ends); what its edges need is kept. */
static sb_code ent_done(yl_ctx *c)
{
    if (!c->open)
        return SB_OK;
    c->open = false;
    yl_ent *e = &c->cur;
    sb_code rc = entry_pkg(c, e);
    if (rc == SB_OK)
        c->ents[c->n - 1] = (yl_done){e->pkg, e->resolution.s, e->dep0, e->ndeps, e->root};
    return rc;
}

/* What the lock alone can say of scopes (see the top of the file): a path
 * from the root, or from a package nothing depends on (classic states no
 * root: those are what the project asked for), taken as required; a
 * package every such path reaches through an optional edge is optional,
 * every other is left without a scope. */
static sb_code guess_scopes(yl_ctx *c)
{
    sb_jsl *l = &c->l;
    l->scopes_guessed = true;
    unsigned char *reached = sb_arena_calloc(l->tmp, l->n ? l->n : 1, 1);
    if (NULL == reached)
        return oom(c);
    for (size_t i = 0; i < l->n; i++) {
        if (sb_jsl_tick(l, c->err) != SB_OK)
            return SB_ETIMEOUT;
        const sb_pkg *rec = l->pkgs[i]->rec;
        for (size_t d = 0; d < rec->depends.n; d++) {
            const sb_js_pkg *t = sb_jsl_find(l, rec->depends.v[d]);
            if (t && t != l->pkgs[i])
                reached[t->rec - l->recs] = 1; /* pkgs[i]->rec == &recs[i] */
        }
    }
    for (size_t i = 0; i < l->n; i++)
        if (!reached[i] && !l->pkgs[i]->paths)
            l->pkgs[i]->paths = 1; /* class 0: a required path */
    sb_code rc = sb_jsl_scopes(l, c->a, c->err);
    for (size_t i = 0; rc == SB_OK && i < l->n; i++)
        if (l->pkgs[i]->scope != SB_JS_OPTIONAL)
            l->pkgs[i]->scope = SB_JS_UNSET;
    return rc;
}

/* The edges, once every descriptor is known (entries name others read later). */
static sb_code resolve_all(yl_ctx *c)
{
    for (size_t i = 0; i < c->n; i++) {
        yl_done *e = &c->ents[i];
        if (sb_jsl_tick(&c->l, c->err) != SB_OK)
            return SB_ETIMEOUT;
        if ((e->pkg || e->root) && entry_edges(c, e) != SB_OK)
            return oom(c);
    }
    return guess_scopes(c);
}

/* ---- reader ---- */

static sb_code berry_version(yl_ctx *c, const sb_yn *doc)
{
    const sb_yn *v = sb_yn_get(sb_yn_get(doc, "__metadata"), "version");
    if (NULL == v || v->type != SB_YN_SCALAR || NULL == v->s)
        return sb_err_set(c->err, SB_EPARSE, "yarn.lock: __metadata has no version");
    char *end = NULL;
    long ver = strtol(v->s, &end, 10);
    if (*end || ver < 4 || ver > 10)
        return sb_err_set_at(c->err, SB_EUNSUPPORTED, v->line, v->col,
                             "yarn.lock __metadata version %.32s is not supported (versions 4 to 10 are read)", v->s);
    c->l.version = (int)ver;
    return SB_OK;
}

static sb_code read_berry_doc(yl_ctx *c, const char *data, size_t len, const sb_limits *lim)
{
    sb_yn **docs = NULL;
    size_t ndocs = 0;
    sb_code rc = sb_yt_parse(&docs, &ndocs, c->a, data, len, lim, c->err);
    if (rc != SB_OK)
        return rc;
    if (1 != ndocs || docs[0]->type != SB_YN_MAP)
        return sb_err_set(c->err, SB_EPARSE, "yarn.lock (berry) must be one YAML mapping");
    if ((rc = berry_version(c, docs[0])) != SB_OK)
        return rc;
    return read_berry(c, docs[0]);
}

/* Lines starting in column 1 other than comments: the entries (and berry's
 * __metadata), an estimate to size the tables by; *nested the lines indented
 * four spaces (classic's dependencies, at most). */
static size_t count_entries(const char *data, size_t len, size_t *nested)
{
    size_t n = 0;
    *nested = 0;
    for (const char *p = data, *end = data + len; p < end;) {
        if (*p != ' ' && *p != '#' && *p != '\r' && *p != '\n')
            n++;
        else if (end - p > 4 && !memcmp(p, "    ", 4) && p[4] != ' ')
            ++*nested;
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        p = nl ? nl + 1 : end;
    }
    return n;
}

static sb_code yarn_read(sb_lock **out, sb_arena *a, const char *data, size_t len, const sb_limits *lim, sb_err *err)
{
    if (len >= 3 && !memcmp(data, "\xEF\xBB\xBF", 3)) {
        data += 3;
        len -= 3;
    }
    yl_ctx c = {.a = a, .err = err, .data = data, .len = len};
    c.berry = sb_lock__has_line(data, len < 4096 ? len : 4096, "__metadata:");
    sb_code rc = SB_OK;
    if (sb_jsl_init(&c.l, a, "yarn.lock", lim) != SB_OK || NULL == (c.scr = sb_arena_child(a)) ||
        sb_strmap_init(&c.by_desc, c.scr, 256) != SB_OK)
        rc = oom(&c);
    c.l.version = 1;
    size_t nested, n = count_entries(data, len, &nested);
    if (rc == SB_OK && !c.berry && nested > 256 && nested < UINT32_MAX) {
        if (NULL == (c.deps = malloc(nested * sizeof *c.deps)))
            rc = oom(&c);
        c.dcap = c.deps ? nested : 0;
    }
    if (rc == SB_OK && n > 256) {
        /* sized once: no table grown and left behind in copies */
        c.ents = sb_arena_alloc(c.scr, n * sizeof *c.ents);
        c.cap = n;
        if (NULL == c.ents || sb_strmap_init(&c.by_desc, c.scr, n) != SB_OK || sb_jsl_expect(&c.l, a, n) != SB_OK)
            rc = oom(&c);
    }
    if (rc == SB_OK)
        rc = c.berry ? read_berry_doc(&c, data, len, lim) : read_classic(&c, data, len);
    if (rc == SB_OK)
        rc = resolve_all(&c);
    /* nothing a record keeps points into these (kept strings are copies) */
    free(c.scratch);
    free(c.deps);
    free(c.descs);
    sb_buf_free(&c.side);
    sb_arena_destroy(c.scr);
    if (rc == SB_OK)
        rc = sb_jsl_build(out, a, &c.l, err);
    sb_jsl_free(&c.l);
    return rc;
}

static int yarn_detect(const char *data, size_t len, const char *filename)
{
    if (filename) {
        const char *base = strrchr(filename, '/');
        base = base ? base + 1 : filename;
        if (!strcmp(base, "yarn.lock"))
            return 2;
    }
    /* content: classic's header or field lines; berry's __metadata with resolutions */
    size_t n = len < 4096 ? len : 4096;
    if (sb_lock__has_line(data, n, "# yarn lockfile v1"))
        return 1;
    if (sb_lock__has_line(data, n, "__metadata:") && sb_lock__has_line(data, n, "  resolution: "))
        return 1;
    return sb_lock__has_line(data, n, "  version \"") && sb_lock__has_line(data, n, "  resolved ");
}

const sb_reader sb_reader_yarn = {.kind = "yarn.lock",
                                  .detect = yarn_detect,
                                  .read = yarn_read,
                                  .record_line = NULL,
                                  .record_char = 0,
                                  .per_record = 0,
                                  .per_byte = 9};
