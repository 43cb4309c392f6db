/*
 * lock_gem.c - Bundler's Gemfile.lock (and gems.locked), read line by line.
 *
 * The lock is sections headed by an unindented name. A source section (GEM,
 * GIT, PATH, PLUGIN SOURCE) has two-space options (`remote:`, `revision:`,
 * `branch:`, `tag:`, `ref:`, `glob:`, `submodules:`), then `specs:` with one
 * four-space `name (version[-platform])` line per gem and six-space lines
 * naming what that gem depends on. PLATFORMS lists the platforms resolved
 * for, DEPENDENCIES what the Gemfile asks for (`!` when from a source of its
 * own), CHECKSUMS (Bundler 2.5+) `name (version[-platform]) sha256=<hex>`,
 * RUBY VERSION and BUNDLED WITH one value each.
 *
 * One component per spec line: a gem locked for several platforms is one
 * component per platform, its purl's `platform` qualifier saying which, and
 * a dependency on the name is an edge to each. The version is split from
 * the platform at the first '-', as Bundler does. GEM specs are registry
 * gems (a remote other than rubygems.org is the purl's repository_url), GIT
 * specs carry the repository and revision as vcs_url, PATH specs are
 * pkg:generic. The lock states no groups, so no scope is set.
 */
#include "ecosystem.h"
#include "lock.h"
#include "lock_int.h"
#include "lock_keyed.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

/* The newest Bundler major whose lock this reader knows: the format has not
 * changed from 1 to 4, and a later one may. */
#define GEM_MAX_BUNDLER 4

static int gem_detect(const char *data, size_t len, const char *filename)
{
    if (filename) {
        const char *base = strrchr(filename, '/');
        base = base ? base + 1 : filename;
        size_t n = strlen(base);
        if (!strcmp(base, "Gemfile.lock") || !strcmp(base, "gems.locked") ||
            (n > 13 && !strcmp(base + n - 13, ".gemfile.lock")))
            return 2;
    }
    size_t n = len < 65536 ? len : 65536;
    int source = sb_lock__has_line(data, n, "GEM\n") || sb_lock__has_line(data, n, "GEM\r\n") ||
                 sb_lock__has_line(data, n, "GIT\n") || sb_lock__has_line(data, n, "GIT\r\n") ||
                 sb_lock__has_line(data, n, "PATH\n") || sb_lock__has_line(data, n, "PATH\r\n");
    if (source && sb_lock__has_line(data, n, "  specs:"))
        return 1;
    return sb_lock__has_line(data, n, "DEPENDENCIES\n") && sb_lock__has_line(data, n, "PLATFORMS\n") ? 1 : 0;
}

typedef enum { S_NONE, S_SOURCE, S_PLATFORMS, S_DEPS, S_CHECKSUMS, S_ONE, S_OTHER } section;
typedef enum { SRC_GEM, SRC_GIT, SRC_PATH, SRC_PLUGIN } source_type;

typedef struct source {
    source_type type;
    const char *remote, *revision, *branch, *tag, *ref, *glob, *submodules;
    unsigned line;
    int specs; /* `specs:` seen */
} source;

typedef struct ctx {
    sb_kl kl;
    sb_arena *a;
    sb_err *err;
    source src;
    sb_pkg *cur; /* the spec the next dependency line belongs to */
    unsigned line;
} ctx;

static sb_code oom(ctx *c)
{
    return sb_err_set(c->err, SB_ENOMEM, "out of memory");
}

static sb_code bad(ctx *c, unsigned col, const char *what, const char *s, size_t n)
{
    return sb_err_set_at(c->err, SB_EPARSE, c->line, col, "Gemfile.lock: %s: '%.*s'", what, (int)(n > 200 ? 200 : n),
                         s);
}

static const char *copy(ctx *c, const char *s, size_t n)
{
    return sb_arena_strndup(c->a, s, n);
}

/* `name` or `name (something)`, with an optional trailing `!`: the name's
 * length and, when there, the parenthesised text (*in, *inlen). 0 when the
 * line is not that shape. */
static int name_paren(const char *s, size_t n, size_t *nlen, const char **in, size_t *inlen, int *bang)
{
    *in = NULL;
    *inlen = 0;
    *bang = n && s[n - 1] == '!';
    if (*bang)
        n--;
    size_t i = 0;
    while (i < n && s[i] != ' ' && s[i] != '(' && s[i] != '!')
        i++;
    *nlen = i;
    if (0 == i)
        return 0;
    if (i == n)
        return 1;
    if (n - i < 3 || s[i] != ' ' || s[i + 1] != '(' || s[n - 1] != ')')
        return 0;
    *in = s + i + 2;
    *inlen = n - i - 3;
    return memchr(*in, '(', *inlen) == NULL && memchr(*in, ')', *inlen) == NULL;
}

static int is_rubygems(const char *remote)
{
    return remote && (!strcmp(remote, "https://rubygems.org/") || !strcmp(remote, "https://rubygems.org") ||
                      !strcmp(remote, "http://rubygems.org/") || !strcmp(remote, "https://rubygems.org/gems/"));
}

/* A four-space spec line of the current source. */
static sb_code spec_line(ctx *c, const char *s, size_t n)
{
    size_t nl, vl;
    const char *v;
    int bang;
    if (!c->src.specs)
        return bad(c, 5, "a gem before its source's `specs:`", s, n);
    if (!name_paren(s, n, &nl, &v, &vl, &bang) || bang || NULL == v || 0 == vl)
        return bad(c, 5, "expected `name (version)`", s, n);
    const char *dash = memchr(v, '-', vl);
    size_t verl = dash ? (size_t)(dash - v) : vl;
    if (0 == verl || (dash && dash + 1 == v + vl))
        return bad(c, 5, "expected `name (version)` or `name (version-platform)`", s, n);
    const char *name = copy(c, s, nl), *version = copy(c, v, verl);
    const char *platform = dash ? copy(c, dash + 1, (size_t)(v + vl - dash - 1)) : NULL;
    const char *key = sb_arena_printf(c->a, "%.*s@%.*s", (int)nl, s, (int)vl, v);
    if (!name || !version || !key || (dash && !platform))
        return oom(c);
    sb_pkg *p = NULL;
    sb_code rc = sb_kl_add(&c->kl, &p, SB_KIND_GEM, key, name, version, c->line, c->err);
    if (rc != SB_OK)
        return rc;
    c->cur = p; /* NULL for a gem listed twice: its second list of dependencies is not read again */
    c->src.specs = 2;
    if (NULL == p)
        return SB_OK;
    const source *src = &c->src;
    sb_prop q[2];
    size_t nq = 0;
    if (platform) {
        q[nq++] = (sb_prop){"platform", platform};
        if (sb_kl_prop(&c->kl, p, "pixi:gem-platform", platform) != SB_OK)
            return oom(c);
    }
    const char *purl_loc = NULL;
    int registry = 1;
    switch (src->type) {
    case SRC_GEM:
        if (src->remote && !is_rubygems(src->remote)) {
            q[nq++] = (sb_prop){"repository_url", src->remote};
            p->location = src->remote;
        }
        break;
    case SRC_GIT:
        p->location = src->revision ? sb_arena_printf(c->a, "git+%s#%s", src->remote, src->revision)
                                    : sb_arena_printf(c->a, "git+%s", src->remote);
        purl_loc = p->location;
        registry = 0;
        if (NULL == p->location)
            return oom(c);
        break;
    case SRC_PATH:
        purl_loc = src->remote;
        registry = 0;
        p->location = sb_lock__location(c->a, src->remote);
        if (NULL == p->location)
            return oom(c);
        break;
    case SRC_PLUGIN:
        purl_loc = p->location = src->remote;
        registry = 0;
        break;
    }
    p->purl = sb_eco_purl(c->a, SB_KIND_GEM, name, version, purl_loc, registry, q, nq);
    if (NULL == p->purl)
        return oom(c);
    static const char *const kinds[] = {"gem", "git", "path", "plugin"};
    rc = sb_kl_prop(&c->kl, p, "pixi:gem-source", kinds[src->type]);
    if (rc == SB_OK && src->type == SRC_GIT) {
        if (src->branch)
            rc = sb_kl_prop(&c->kl, p, "pixi:git-branch", src->branch);
        if (rc == SB_OK && src->tag)
            rc = sb_kl_prop(&c->kl, p, "pixi:git-tag", src->tag);
        if (rc == SB_OK && src->ref)
            rc = sb_kl_prop(&c->kl, p, "pixi:git-ref", src->ref);
        if (rc == SB_OK && src->glob)
            rc = sb_kl_prop(&c->kl, p, "pixi:gem-glob", src->glob);
    }
    return rc == SB_OK ? SB_OK : oom(c);
}

/* A two-space option line of a source section. */
static sb_code option_line(ctx *c, const char *s, size_t n)
{
    if (n == 6 && !memcmp(s, "specs:", 6)) {
        if (NULL == c->src.remote)
            return sb_err_set_at(c->err, SB_EPARSE, c->src.line, 1, "Gemfile.lock: a source section without `remote:`");
        c->src.specs = 1;
        return SB_OK;
    }
    const char *colon = memchr(s, ':', n);
    if (NULL == colon || colon + 1 == s + n || colon[1] != ' ' || colon == s)
        return bad(c, 3, "expected `option: value` or `specs:`", s, n);
    size_t kl = (size_t)(colon - s);
    const char *v = copy(c, colon + 2, n - kl - 2);
    if (NULL == v)
        return oom(c);
    struct {
        const char *k;
        const char **slot;
    } opts[] = {{"remote", &c->src.remote},
                {"revision", &c->src.revision},
                {"branch", &c->src.branch},
                {"tag", &c->src.tag},
                {"ref", &c->src.ref},
                {"glob", &c->src.glob},
                {"submodules", &c->src.submodules}};
    for (size_t i = 0; i < sizeof opts / sizeof opts[0]; i++)
        if (strlen(opts[i].k) == kl && !memcmp(opts[i].k, s, kl)) {
            /* an old GEM section lists several remotes: the first is where its gems are said to come from */
            if (NULL == *opts[i].slot)
                *opts[i].slot = v;
            return SB_OK;
        }
    return SB_OK; /* other options (a plugin source's `type:`...) say nothing about identity */
}

static int all_hex(const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!isxdigit((unsigned char)s[i]))
            return 0;
    return n > 0;
}

/* `  name (version[-platform]) sha256=<hex>[,algo=<value>...]` */
static sb_code checksum_line(ctx *c, const char *s, size_t n)
{
    const char *close = memchr(s, ')', n);
    size_t nl, vl;
    const char *v;
    int bang;
    size_t head = close ? (size_t)(close - s + 1) : n;
    if (!name_paren(s, head, &nl, &v, &vl, &bang) || bang || NULL == v || 0 == vl)
        return bad(c, 3, "expected `name (version) sha256=<hex>`", s, n);
    const char *key = sb_arena_printf(c->a, "%.*s@%.*s", (int)nl, s, (int)vl, v);
    if (NULL == key)
        return oom(c);
    sb_pkg *p = sb_kl_find(&c->kl, key);
    if (head == n)
        return SB_OK; /* a gem without a checksum (git, path, or not known when locking) */
    if (s[head] != ' ' || head + 1 == n)
        return bad(c, (unsigned)head + 3, "expected ` algorithm=value` after the gem", s, n);
    const char *q = s + head + 1, *end = s + n;
    while (q < end) {
        if (sb_kl_tick(&c->kl, c->err) != SB_OK)
            return SB_ETIMEOUT;
        const char *comma = memchr(q, ',', (size_t)(end - q));
        const char *e = comma ? comma : end;
        const char *eq = memchr(q, '=', (size_t)(e - q));
        if (NULL == eq || eq == q || eq + 1 == e)
            return bad(c, (unsigned)(q - s) + 3, "expected `algorithm=value`", q, (size_t)(e - q));
        size_t al = (size_t)(eq - q), hl = (size_t)(e - eq - 1);
        if (al == 6 && !memcmp(q, "sha256", 6)) {
            if (hl != 64 || !all_hex(eq + 1, hl))
                return bad(c, (unsigned)(eq - s) + 4, "a sha256 checksum is 64 hex digits", eq + 1, hl);
            if (p && NULL == p->sha256) {
                char *h = sb_arena_strndup(c->a, eq + 1, hl);
                if (NULL == h)
                    return oom(c);
                for (char *x = h; *x; x++)
                    *x = (char)tolower((unsigned char)*x);
                p->sha256 = h;
            }
        } else if (p) {
            /* an algorithm a later Bundler may add: kept as stated, not as a digest we can check the form of */
            const char *kv = copy(c, q, (size_t)(e - q));
            if (NULL == kv || sb_kl_prop(&c->kl, p, "pixi:gem-checksum", kv) != SB_OK)
                return oom(c);
        }
        q = comma ? comma + 1 : end;
    }
    return SB_OK;
}

/* A section name: capital letters and single spaces. */
static int is_header(const char *s, size_t n)
{
    if (0 == n || s[0] == ' ')
        return 0;
    for (size_t i = 0; i < n; i++)
        if (!(s[i] >= 'A' && s[i] <= 'Z') && !(s[i] == ' ' && i + 1 < n && s[i + 1] != ' '))
            return 0;
    return 1;
}

static sb_code header(ctx *c, const char *s, size_t n, section *sec)
{
    c->cur = NULL;
#define IS(lit) (n == sizeof lit - 1 && !memcmp(s, lit, n))
    if (IS("GEM") || IS("GIT") || IS("PATH") || IS("PLUGIN SOURCE")) {
        memset(&c->src, 0, sizeof c->src);
        c->src.type = IS("GEM") ? SRC_GEM : IS("GIT") ? SRC_GIT : IS("PATH") ? SRC_PATH : SRC_PLUGIN;
        c->src.line = c->line;
        *sec = S_SOURCE;
    } else if (IS("PLATFORMS")) {
        *sec = S_PLATFORMS;
    } else if (IS("DEPENDENCIES")) {
        *sec = S_DEPS;
        c->kl.has_roots = true;
    } else if (IS("CHECKSUMS")) {
        *sec = S_CHECKSUMS;
    } else if (IS("RUBY VERSION") || IS("BUNDLED WITH")) {
        *sec = S_ONE;
    } else {
        *sec = S_OTHER; /* a section a later Bundler may add: its lines are not about the gems read here */
    }
#undef IS
    return SB_OK;
}

/* `BUNDLED WITH` names the Bundler that wrote the lock. */
static sb_code bundled_with(ctx *c, sb_lock *l, const char *v, size_t n)
{
    if (0 == n || !isdigit((unsigned char)v[0]))
        return bad(c, 4, "expected a Bundler version", v, n);
    long major = strtol(v, NULL, 10);
    if (major > GEM_MAX_BUNDLER)
        return sb_err_set_at(c->err, SB_EUNSUPPORTED, c->line, 4,
                             "Gemfile.lock written by Bundler %.*s: this reader knows the locks Bundler 1 to %d "
                             "writes",
                             (int)(n > 40 ? 40 : n), v, GEM_MAX_BUNDLER);
    l->version = (int)major;
    return SB_OK;
}

static sb_code gem_read(sb_lock **out, sb_arena *a, const char *data, size_t len, const sb_limits *lim, sb_err *err)
{
    ctx c = {.a = a, .err = err};
    if (sb_kl_init(&c.kl, a, "Gemfile.lock", lim) != SB_OK)
        return oom(&c);
    sb_lock tmp = {0};
    section sec = S_NONE;
    const char *one = NULL; /* which single-value section */
    const char *p = data, *end = data + len;
    int any = 0;
    sb_code rc = SB_OK;
    for (c.line = 1; rc == SB_OK && p < end; c.line++) {
        if (sb_kl_tick(&c.kl, err) != SB_OK)
            return SB_ETIMEOUT;
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);
        const char *s = p;
        p = nl ? nl + 1 : end;
        if (n && s[n - 1] == '\r')
            n--;
        while (n && s[n - 1] == ' ')
            n--;
        if (0 == n)
            continue;
        size_t ind = 0;
        while (ind < n && s[ind] == ' ')
            ind++;
        if (ind < n && s[ind] == '\t')
            return sb_err_set_at(err, SB_EPARSE, c.line, (unsigned)ind + 1, "Gemfile.lock: a tab in the indentation");
        if (0 == ind) {
            if (!is_header(s, n))
                return bad(&c, 1, "expected a section name (GEM, GIT, PATH, PLATFORMS, DEPENDENCIES, ...)", s, n);
            one = s;
            rc = header(&c, s, n, &sec);
            any = 1;
            continue;
        }
        const char *t = s + ind;
        size_t tn = n - ind;
        switch (sec) {
        case S_NONE: return bad(&c, 1, "a line before any section", s, n);
        case S_OTHER: break;
        case S_SOURCE:
            if (ind == 2)
                rc = option_line(&c, t, tn);
            else if (ind == 4)
                rc = spec_line(&c, t, tn);
            else if (ind == 6) {
                size_t dl, il;
                const char *in;
                int bang;
                if (!c.src.specs || !name_paren(t, tn, &dl, &in, &il, &bang) || bang)
                    return bad(&c, 7, "expected a dependency `name` or `name (requirement)` under a gem", t, tn);
                const char *dn = copy(&c, t, dl);
                if (NULL == dn || (c.cur && sb_strv_push(&c.cur->depends, a, dn) != SB_OK))
                    return oom(&c);
                if (c.src.specs != 2)
                    return bad(&c, 7, "a dependency before any gem", t, tn);
            } else
                return bad(&c, (unsigned)ind + 1, "unexpected indentation in a source section", s, n);
            break;
        case S_PLATFORMS:
            if (ind != 2 || memchr(t, ' ', tn))
                return bad(&c, (unsigned)ind + 1, "expected one platform per line", s, n);
            break;
        case S_DEPS: {
            size_t dl, il;
            const char *in;
            int bang;
            if (ind != 2 || !name_paren(t, tn, &dl, &in, &il, &bang))
                return bad(&c, (unsigned)ind + 1, "expected `name`, `name (requirement)` or either with `!`", s, n);
            const char *dn = copy(&c, t, dl);
            if (NULL == dn || sb_strv_push(&c.kl.roots, a, dn) != SB_OK)
                return oom(&c);
            break;
        }
        case S_CHECKSUMS:
            if (ind != 2)
                return bad(&c, (unsigned)ind + 1, "unexpected indentation in CHECKSUMS", s, n);
            rc = checksum_line(&c, t, tn);
            break;
        case S_ONE:
            if (!memcmp(one, "BUNDLED WITH", 12))
                rc = bundled_with(&c, &tmp, t, tn);
            else if (tn < 5 || memcmp(t, "ruby ", 5))
                return bad(&c, (unsigned)ind + 1, "expected `ruby <version>`", s, n);
            break;
        }
    }
    if (rc != SB_OK)
        return rc;
    if (!any)
        return sb_err_set_at(err, SB_EPARSE, 1, 1, "Gemfile.lock: no sections (GEM, GIT, PATH, DEPENDENCIES...)");
    sb_lock *l = NULL;
    if ((rc = sb_kl_build(&l, &c.kl, err)) != SB_OK)
        return rc;
    l->version = tmp.version;
    *out = l;
    return SB_OK;
}

const sb_reader sb_reader_gem = {.kind = "Gemfile.lock",
                                 .detect = gem_detect,
                                 .read = gem_read,
                                 .record_line = "",
                                 .record_char = 0,
                                 .per_record = 60,
                                 .per_byte = 5};
