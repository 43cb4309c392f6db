/*
 * lock_go.c - a Go module's go.mod and go.sum, alone or together.
 *
 * go.mod is the module's requirements: `require` lines (with `// indirect`
 * for what the main module does not import itself), `replace` (by another
 * module at a version, or by a folder), `exclude`, `retract`, `go`,
 * `toolchain` and the rest, in line and block form. go.sum is the checksum
 * database of what the build downloaded: `path version h1:...` for a
 * module's files and `path version/go.mod h1:...` for its go.mod alone.
 * The two together are one input: the service joins a go.mod and a go.sum
 * posted as the `lockfile` and `manifest` parts (sb_lock_join_parts) with
 * GO_JOIN between them, and this reader reads any mix of the two syntaxes
 * line by line, telling each line by its shape.
 *
 * Which modules are components:
 *  - with go.mod: every required module. From go 1.17 on go.mod lists every
 *    module the build needs (module graph pruning), so go.sum only adds
 *    hashes; before (or without a `go` line) go.mod may leave indirect
 *    modules out, and each module go.sum holds files for that go.mod does
 *    not require joins as indirect, at its highest version (the one minimal
 *    version selection picks), unless excluded.
 *  - go.sum alone: each module with files in it, at its highest version.
 *    Modules with only a /go.mod line were read while resolving, never
 *    built, and are left out.
 * The h1: value is a SHA-256 over the list of the module's files and their
 * own SHA-256s (Go's dirhash), not a digest of one artifact: it is carried
 * as the property pixi:go-h1 ("h1:<base64>"), the go.mod file's as
 * pixi:go-mod-h1. A replaced module keeps the name and version it is
 * required as; pixi:go-replaced-by names what replaces it, and its purl and
 * hashes are the replacement's (what is built); a folder replacement is a
 * pkg:generic. go.mod states the root's direct dependencies, never an edge
 * between two modules: edges are unknown (no_dep_data).
 */
#include "deadline.h"
#include "ecosystem.h"
#include "lock.h"
#include "lock_int.h"
#include "strmap.h"
#include "vercmp.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

/* The line the service puts between a joined go.mod and go.sum: a go.mod
 * comment, so the joined text is still go.mod syntax up to it. */
#define GO_JOIN "// sbomd: go.sum follows"

typedef struct go_req {
    const char *path, *version;
    unsigned line;
    bool indirect;
} go_req;

typedef struct go_rep {
    const char *old, *oldv; /* oldv NULL: every version */
    const char *neu, *newv; /* newv NULL: neu is a folder */
} go_rep;

typedef struct go_sum {
    const char *path, *version, *h1;
    bool gomod;
} go_sum;

typedef struct go_ctx {
    sb_arena *a, *s; /* the lock's; this read's scratch */
    sb_err *err;
    const sb_limits *lim;
    sb_deadline dl;
    go_req *reqs;
    size_t nreq, rcap;
    go_rep *reps;
    size_t nrep, pcap;
    go_sum *sums;
    size_t nsum, scap;
    const char **excl; /* "path@version" */
    size_t nexcl, ecap;
    const char *module;
    int go_major, go_minor; /* -1: no go line */
    bool have_mod, have_sum;
    const char *file; /* "go.mod" / "go.sum": for messages */
    unsigned line0;   /* the line the current file starts at, less one */
} go_ctx;

static sb_code oom(go_ctx *c)
{
    return sb_err_set(c->err, SB_ENOMEM, "out of memory");
}

/* ---- tokens ----------------------------------------------------------------- */

typedef struct go_tok {
    const char *s;
    size_t n;
    bool quoted;
} go_tok;

enum { GO_MAXTOK = 8 };

typedef struct go_line {
    go_tok t[GO_MAXTOK];
    int n;
    const char *comment; /* after "//", NULL when none */
    size_t ncomment;
} go_line;

/* Cut one line into go.mod tokens: words, "quoted" and `raw` strings, the
 * parentheses and "=>"; a "//" comment ends it. -1 on an unterminated
 * string or too many tokens. */
static int tokenize(const char *p, size_t n, go_line *out)
{
    out->n = 0;
    out->comment = NULL;
    size_t i = 0;
    while (i < n) {
        char ch = p[i];
        if (ch == ' ' || ch == '\t' || ch == '\r') {
            i++;
            continue;
        }
        if (ch == '/' && i + 1 < n && p[i + 1] == '/') {
            out->comment = p + i + 2;
            out->ncomment = n - i - 2;
            return 0;
        }
        if (out->n == GO_MAXTOK)
            return -1;
        go_tok *t = &out->t[out->n++];
        t->quoted = false;
        if (ch == '"' || ch == '`') {
            size_t j = i + 1;
            while (j < n && p[j] != ch)
                j += (ch == '"' && p[j] == '\\' && j + 1 < n) ? 2 : 1;
            if (j >= n)
                return -1;
            t->s = p + i + 1;
            t->n = j - i - 1;
            t->quoted = true;
            i = j + 1;
            continue;
        }
        if (ch == '(' || ch == ')') {
            t->s = p + i;
            t->n = 1;
            i++;
            continue;
        }
        size_t j = i;
        /* "//" only starts a comment where a token would (base64 holds it) */
        while (j < n && p[j] != ' ' && p[j] != '\t' && p[j] != '\r' && p[j] != '(' && p[j] != ')' && p[j] != '"' &&
               p[j] != '`')
            j++;
        t->s = p + i;
        t->n = j - i;
        i = j;
    }
    return 0;
}

static int tok_is(const go_tok *t, const char *w)
{
    return !t->quoted && t->n == strlen(w) && !memcmp(t->s, w, t->n);
}

/* A token as a string: a quoted one unescaped (\" and \\). */
static const char *tok_str(go_ctx *c, const go_tok *t)
{
    char *d = sb_arena_stralloc(c->s, t->n + 1);
    if (NULL == d)
        return NULL;
    size_t o = 0;
    for (size_t i = 0; i < t->n; i++) {
        if (t->quoted && t->s[i] == '\\' && i + 1 < t->n)
            i++;
        d[o++] = t->s[i];
    }
    d[o] = 0;
    return d;
}

static sb_code bad(go_ctx *c, unsigned line, const char *what)
{
    return sb_err_set_at(c->err, SB_EPARSE, line, 1, "%s line %u: %s", c->file, line - c->line0, what);
}

/* A module path as go.mod may spell it: no spaces or control bytes. */
static int path_ok(const char *s)
{
    if (!*s)
        return 0;
    for (const unsigned char *p = (const unsigned char *)s; *p; p++)
        if (*p <= ' ' || *p == 0x7f)
            return 0;
    return 1;
}

/* A module version: "v" then a digit (canonical SemVer, pseudo-versions,
 * +incompatible). */
static int version_ok(const char *s)
{
    if (s[0] != 'v' || !isdigit((unsigned char)s[1]))
        return 0;
    for (const unsigned char *p = (const unsigned char *)s; *p; p++)
        if (!isalnum(*p) && *p != '.' && *p != '-' && *p != '+')
            return 0;
    return 1;
}

/* A replacement folder: what Go takes for one (a path, not a module). */
static int is_folder(const char *s)
{
    return s[0] == '.' || s[0] == '/' || (isalpha((unsigned char)s[0]) && s[1] == ':') || strchr(s, '\\');
}

/* ---- go.mod ----------------------------------------------------------------- */

static sb_code scalar_ok(go_ctx *c, const go_line *l, unsigned line)
{
    for (int i = 0; i < l->n; i++)
        if (l->t[i].n > c->lim->max_scalar)
            return sb_err_set_at(c->err, SB_ELIMIT, line, 1, "%s line %u: a value longer than %zu bytes", c->file,
                                 line - c->line0, c->lim->max_scalar);
    return SB_OK;
}

/* `path version [// indirect]` of a require */
static sb_code add_require(go_ctx *c, const go_line *l, int at, unsigned line)
{
    if (l->n - at != 2)
        return bad(c, line, "a requirement is `path version`");
    const char *path = tok_str(c, &l->t[at]), *ver = tok_str(c, &l->t[at + 1]);
    if (NULL == path || NULL == ver)
        return oom(c);
    if (!path_ok(path) || !version_ok(ver))
        return bad(c, line, "a requirement is a module path and a version starting with v");
    if (c->nreq >= c->lim->max_packages)
        return sb_err_set_at(c->err, SB_ELIMIT, line, 1, "more than %zu packages", c->lim->max_packages);
    go_req *r = sb_arena_grow(c->s, c->reqs, &c->rcap, c->nreq, sizeof *r, 64);
    if (NULL == r)
        return oom(c);
    c->reqs = r;
    bool ind = false;
    if (l->comment) {
        const char *m = l->comment;
        size_t n = l->ncomment;
        while (n && (*m == ' ' || *m == '\t'))
            m++, n--;
        while (n && (m[n - 1] == ' ' || m[n - 1] == '\t' || m[n - 1] == '\r'))
            n--;
        ind = (n == 8 && !memcmp(m, "indirect", 8)) || (n > 8 && !memcmp(m, "indirect;", 9));
    }
    r[c->nreq++] = (go_req){path, ver, line, ind};
    return SB_OK;
}

/* `old [v] => new [v]` of a replace */
static sb_code add_replace(go_ctx *c, const go_line *l, int at, unsigned line)
{
    int n = l->n - at, arrow = -1;
    for (int i = at; i < l->n; i++)
        if (tok_is(&l->t[i], "=>"))
            arrow = i - at;
    if ((arrow != 1 && arrow != 2) || n - arrow - 1 < 1 || n - arrow - 1 > 2)
        return bad(c, line, "a replacement is `path [version] => path [version]`");
    go_rep *r = sb_arena_grow(c->s, c->reps, &c->pcap, c->nrep, sizeof *r, 8);
    if (NULL == r)
        return oom(c);
    c->reps = r;
    go_rep *e = &r[c->nrep];
    e->old = tok_str(c, &l->t[at]);
    e->oldv = arrow == 2 ? tok_str(c, &l->t[at + 1]) : NULL;
    e->neu = tok_str(c, &l->t[at + arrow + 1]);
    e->newv = n - arrow - 1 == 2 ? tok_str(c, &l->t[at + arrow + 2]) : NULL;
    if (NULL == e->old || NULL == e->neu || (arrow == 2 && NULL == e->oldv) || (n - arrow - 1 == 2 && !e->newv))
        return oom(c);
    if (!path_ok(e->old) || !path_ok(e->neu) || (e->oldv && !version_ok(e->oldv)) || (e->newv && !version_ok(e->newv)))
        return bad(c, line, "a replacement names module paths and versions starting with v");
    if (NULL == e->newv && !is_folder(e->neu))
        return bad(c, line, "a replacement module needs a version (a folder starts with ./, ../ or /)");
    if (e->newv && is_folder(e->neu))
        return bad(c, line, "a replacement folder takes no version");
    c->nrep++;
    return SB_OK;
}

static sb_code add_exclude(go_ctx *c, const go_line *l, int at, unsigned line)
{
    if (l->n - at != 2)
        return bad(c, line, "an exclusion is `path version`");
    const char *path = tok_str(c, &l->t[at]), *ver = tok_str(c, &l->t[at + 1]);
    const char **e = sb_arena_grow(c->s, c->excl, &c->ecap, c->nexcl, sizeof *e, 8);
    if (NULL == path || NULL == ver || NULL == e)
        return oom(c);
    if (!path_ok(path) || !version_ok(ver))
        return bad(c, line, "an exclusion is a module path and a version starting with v");
    c->excl = e;
    e[c->nexcl] = sb_arena_printf(c->s, "%s@%s", path, ver);
    if (NULL == e[c->nexcl++])
        return oom(c);
    return SB_OK;
}

/* `go 1.N[.P]`: Go 1 is all there is; a later major is refused rather
 * than read by rules that may no longer hold. */
static sb_code go_line_version(go_ctx *c, const go_line *l, int at, unsigned line)
{
    if (l->n - at != 1)
        return bad(c, line, "the go directive is `go 1.N`");
    const go_tok *t = &l->t[at];
    int major = 0, minor = 0;
    size_t i = 0;
    for (; i < t->n && isdigit((unsigned char)t->s[i]) && major < 1000; i++)
        major = major * 10 + (t->s[i] - '0');
    if (0 == i)
        return bad(c, line, "the go directive is `go 1.N`");
    if (i < t->n && t->s[i] == '.')
        for (i++; i < t->n && isdigit((unsigned char)t->s[i]) && minor < 100000; i++)
            minor = minor * 10 + (t->s[i] - '0');
    if (major != 1)
        return sb_err_set_at(c->err, SB_EUNSUPPORTED, line, 1,
                             "%s line %u: go %.*s: sbomd reads the go.mod of Go 1 (go 1.N)", c->file, line - c->line0,
                             (int)(t->n > 32 ? 32 : t->n), t->s);
    c->go_major = major;
    c->go_minor = minor;
    return SB_OK;
}

typedef enum { V_NONE, V_MODULE, V_GO, V_REQUIRE, V_REPLACE, V_EXCLUDE, V_OTHER } go_verb;

static go_verb verb_of(const go_tok *t)
{
    static const struct {
        const char *w;
        go_verb v;
    } verbs[] = {{"module", V_MODULE},   {"go", V_GO},           {"require", V_REQUIRE}, {"replace", V_REPLACE},
                 {"exclude", V_EXCLUDE}, {"toolchain", V_OTHER}, {"retract", V_OTHER},   {"godebug", V_OTHER},
                 {"tool", V_OTHER},      {"ignore", V_OTHER}};
    for (size_t i = 0; i < sizeof verbs / sizeof *verbs; i++)
        if (tok_is(t, verbs[i].w))
            return verbs[i].v;
    return V_NONE;
}

/* One entry of a verb, in line form (at = 1) or inside its block (at = 0). */
static sb_code entry(go_ctx *c, go_verb v, const go_line *l, int at, unsigned line)
{
    switch (v) {
    case V_REQUIRE: return add_require(c, l, at, line);
    case V_REPLACE: return add_replace(c, l, at, line);
    case V_EXCLUDE: return add_exclude(c, l, at, line);
    case V_GO: return go_line_version(c, l, at, line);
    case V_MODULE:
        if (l->n - at != 1)
            return bad(c, line, "the module directive is `module path`");
        if (NULL == (c->module = tok_str(c, &l->t[at])))
            return oom(c);
        if (!path_ok(c->module))
            return bad(c, line, "the module path is empty or holds spaces");
        return SB_OK;
    default: return SB_OK; /* toolchain, retract, godebug, tool, ignore: nothing a component is */
    }
}

/* ---- go.sum ----------------------------------------------------------------- */

/* `path version[/go.mod] hN:...`; 1 when the line has that shape. */
static int sum_shape(const go_line *l)
{
    if (l->n != 3 || l->comment || l->t[0].quoted || l->t[1].quoted || l->t[2].quoted)
        return 0;
    const go_tok *h = &l->t[2];
    size_t i = 1;
    if (h->n < 3 || h->s[0] != 'h')
        return 0;
    while (i < h->n && isdigit((unsigned char)h->s[i]))
        i++;
    return i > 1 && i < h->n && h->s[i] == ':';
}

static sb_code add_sum(go_ctx *c, const go_line *l, unsigned line)
{
    const go_tok *h = &l->t[2];
    if (h->n < 3 || memcmp(h->s, "h1:", 3))
        return sb_err_set_at(c->err, SB_EUNSUPPORTED, line, 1,
                             "%s line %u: the hash %.*s is not one sbomd reads (h1:, the only one Go writes)", c->file,
                             line - c->line0, (int)(strcspn(h->s, ":") + 1), h->s);
    /* h1: is base64 of 32 bytes: 44 characters ending in '=' */
    int ok = h->n == 47 && h->s[46] == '=';
    for (size_t i = 3; ok && i < 46; i++)
        ok = isalnum((unsigned char)h->s[i]) || h->s[i] == '+' || h->s[i] == '/';
    if (!ok)
        return bad(c, line, "an h1: hash is 44 base64 characters");
    const char *path = tok_str(c, &l->t[0]), *ver = tok_str(c, &l->t[1]), *hv = tok_str(c, h);
    if (NULL == path || NULL == ver || NULL == hv)
        return oom(c);
    size_t vn = strlen(ver);
    bool gomod = vn > 7 && !strcmp(ver + vn - 7, "/go.mod");
    if (gomod)
        ((char *)ver)[vn - 7] = 0;
    if (!path_ok(path) || !version_ok(ver))
        return bad(c, line, "a go.sum line is `path version h1:hash`");
    if (c->nsum >= 2 * c->lim->max_packages)
        return sb_err_set_at(c->err, SB_ELIMIT, line, 1, "more than %zu packages", c->lim->max_packages);
    go_sum *s = sb_arena_grow(c->s, c->sums, &c->scap, c->nsum, sizeof *s, 128);
    if (NULL == s)
        return oom(c);
    c->sums = s;
    s[c->nsum++] = (go_sum){path, ver, hv, gomod};
    return SB_OK;
}

/* ---- reading ---------------------------------------------------------------- */

static sb_code parse(go_ctx *c, const char *data, size_t len, const char *kind)
{
    go_verb block = V_NONE;
    unsigned block_line = 0;
    unsigned line = 0;
    /* a joined input starts with its go.mod; else lines are the kind's */
    c->file = sb_lock__has_line(data, len, GO_JOIN) ? "go.mod" : kind;
    for (const char *p = data, *end = data + len; p < end;) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);
        const char *lp = p;
        p = nl ? nl + 1 : end;
        line++;
        if (sb_deadline_tick(&c->dl, c->err) != SB_OK)
            return SB_ETIMEOUT;
        if (memchr(lp, '\0', n))
            return bad(c, line, "a NUL byte");
        size_t tn = n;
        while (tn && (lp[tn - 1] == '\r' || lp[tn - 1] == ' ' || lp[tn - 1] == '\t'))
            tn--;
        if (tn == sizeof GO_JOIN - 1 && !memcmp(lp, GO_JOIN, tn)) {
            if (block != V_NONE)
                return bad(c, block_line, "a block is not closed");
            c->file = "go.sum";
            c->line0 = line;
            continue;
        }
        go_line l;
        if (tokenize(lp, n, &l))
            return bad(c, line, "an unterminated string or too many fields");
        if (0 == l.n)
            continue;
        sb_code rc = scalar_ok(c, &l, line);
        if (rc != SB_OK)
            return rc;
        if (block != V_NONE) {
            if (l.n == 1 && tok_is(&l.t[0], ")")) {
                block = V_NONE;
                continue;
            }
            if ((rc = entry(c, block, &l, 0, line)) != SB_OK)
                return rc;
            continue;
        }
        go_verb v = verb_of(&l.t[0]);
        if (v == V_NONE) {
            if (!sum_shape(&l))
                return bad(c, line, "neither a go.mod directive nor a go.sum line (path version h1:hash)");
            c->have_sum = true;
            if ((rc = add_sum(c, &l, line)) != SB_OK)
                return rc;
            continue;
        }
        c->have_mod = true;
        if (l.n >= 2 && tok_is(&l.t[1], "(")) {
            if (l.n > 2 && !(l.n == 3 && tok_is(&l.t[2], ")")))
                return bad(c, line, "a block opens with `verb (` alone on its line");
            if (l.n == 2) {
                block = v;
                block_line = line;
            }
            continue;
        }
        if (l.n < 2 && v != V_OTHER)
            return bad(c, line, "a directive without its value");
        if ((rc = entry(c, v, &l, 1, line)) != SB_OK)
            return rc;
    }
    if (block != V_NONE)
        return bad(c, block_line, "a block is not closed");
    if (!c->have_mod && !c->have_sum)
        return sb_err_set(c->err, SB_EPARSE, "neither a go.mod directive nor a go.sum line found");
    return SB_OK;
}

/* ---- the lock ---------------------------------------------------------------- */

/* A Go purl: the module path split at its last '/', lower-cased as the
 * purl type says (Go's own paths are case-sensitive: the component's name
 * keeps them). */
static const char *go_purl(sb_arena *a, const char *path, const char *version)
{
    char *low = sb_arena_strdup_lower(a, path);
    if (NULL == low)
        return NULL;
    return sb_eco_purl(a, SB_KIND_GOLANG, low, version, NULL, 1, NULL, 0);
}

static const go_rep *replacement(const go_ctx *c, const char *path, const char *version)
{
    const go_rep *any = NULL;
    for (size_t i = c->nrep; i-- > 0;) { /* the last one wins, as in Go */
        if (strcmp(c->reps[i].old, path))
            continue;
        if (c->reps[i].oldv && !strcmp(c->reps[i].oldv, version))
            return &c->reps[i];
        if (NULL == c->reps[i].oldv && NULL == any)
            any = &c->reps[i];
    }
    return any;
}

static sb_code build(go_ctx *c, sb_lock **out)
{
    sb_arena *a = c->a;
    sb_lock *lk = sb_arena_calloc(a, 1, sizeof *lk);
    sb_lock_env *env = lk ? sb_lock_env_get(lk, a, "default") : NULL;
    sb_lock_platform *lp = env ? sb_lock_platform_get(env, a, "noarch") : NULL;
    if (NULL == lp)
        return oom(c);
    lk->version = 1;
    lk->no_dep_data = true; /* neither file says which module needs which */
    lk->root_name = c->module ? sb_arena_strdup(a, c->module) : NULL;
    /* hashes by "path@version" and "path@version/go.mod"; best zip version by path */
    sb_strmap sums, best, reqs, excl;
    if (sb_strmap_init(&sums, c->s, c->nsum) != SB_OK || sb_strmap_init(&best, c->s, c->nsum) != SB_OK ||
        sb_strmap_init(&reqs, c->s, c->nreq) != SB_OK || sb_strmap_init(&excl, c->s, c->nexcl) != SB_OK)
        return oom(c);
    for (size_t i = 0; i < c->nexcl; i++)
        if (sb_strmap_put(&excl, c->excl[i], strlen(c->excl[i]), i, NULL) < 0)
            return oom(c);
    for (size_t i = 0; i < c->nsum; i++) {
        if (sb_deadline_tick(&c->dl, c->err) != SB_OK)
            return SB_ETIMEOUT;
        const go_sum *s = &c->sums[i];
        const char *k = sb_arena_printf(c->s, "%s@%s%s", s->path, s->version, s->gomod ? "/go.mod" : "");
        if (NULL == k || sb_strmap_put(&sums, k, strlen(k), i, NULL) < 0)
            return oom(c);
        if (s->gomod)
            continue;
        if (sb_strmap_put(&best, s->path, strlen(s->path), i, NULL) < 0) /* the first of the path */
            return oom(c);
    }
    /* the highest zip version per path: win[first of the path] */
    size_t *win = sb_arena_alloc(c->s, (c->nsum ? c->nsum : 1) * sizeof *win);
    unsigned char *is_win = sb_arena_calloc(c->s, c->nsum ? c->nsum : 1, 1);
    if (NULL == win || NULL == is_win)
        return oom(c);
    for (size_t i = 0; i < c->nsum; i++) {
        const go_sum *s = &c->sums[i];
        size_t first;
        if (s->gomod || !sb_strmap_get(&best, s->path, strlen(s->path), &first))
            continue;
        if (first == i || sb_vercmp_go(s->version, c->sums[win[first]].version) > 0) {
            if (first != i)
                is_win[win[first]] = 0;
            win[first] = i;
            is_win[i] = 1;
        }
    }
    /* the components: go.mod's requirements (the highest of a path required
     * twice), then what go.sum adds */
    typedef struct {
        const char *path, *version;
        int direct; /* 1, 0; -1 unknown */
    } comp;
    size_t cap = c->nreq + c->nsum + 1, nc = 0;
    comp *cs = sb_arena_alloc(c->s, cap * sizeof *cs);
    if (NULL == cs)
        return oom(c);
    for (size_t i = 0; i < c->nreq; i++) {
        const go_req *r = &c->reqs[i];
        size_t at;
        int had = sb_strmap_put(&reqs, r->path, strlen(r->path), nc, &at);
        if (had < 0)
            return oom(c);
        if (had) {
            if (sb_vercmp_go(r->version, cs[at].version) > 0)
                cs[at].version = r->version;
            if (!r->indirect)
                cs[at].direct = 1;
            continue;
        }
        cs[nc++] = (comp){r->path, r->version, r->indirect ? 0 : 1};
    }
    bool pruned = c->go_major == 1 && c->go_minor >= 17;
    if (!c->have_mod || !pruned) {
        for (size_t i = 0; i < c->nsum; i++) {
            const go_sum *s = &c->sums[i];
            size_t at;
            if (!is_win[i] || sb_strmap_get(&reqs, s->path, strlen(s->path), &at))
                continue;
            const char *k = sb_arena_printf(c->s, "%s@%s", s->path, s->version);
            if (NULL == k)
                return oom(c);
            if (sb_strmap_get(&excl, k, strlen(k), &at))
                continue;
            if (nc >= c->lim->max_packages)
                return sb_err_set(c->err, SB_ELIMIT, "more than %zu packages", c->lim->max_packages);
            cs[nc++] = (comp){s->path, s->version, c->have_mod ? 0 : -1};
        }
    }
    sb_pkg *recs = nc ? sb_arena_calloc(a, nc, sizeof *recs) : NULL;
    if (nc && NULL == recs)
        return oom(c);
    if (c->have_mod)
        lp->has_root_names = true;
    for (size_t i = 0; i < nc; i++) {
        if (sb_deadline_tick(&c->dl, c->err) != SB_OK)
            return SB_ETIMEOUT;
        sb_pkg *p = &recs[i];
        p->kind = SB_KIND_GOLANG;
        p->name = sb_arena_strdup(a, cs[i].path);
        p->version = sb_arena_strdup(a, cs[i].version);
        p->key = sb_arena_printf(a, "%s@%s", cs[i].path, cs[i].version);
        if (NULL == p->name || NULL == p->version || NULL == p->key)
            return oom(c);
        const go_rep *rep = replacement(c, cs[i].path, cs[i].version);
        const char *fpath = cs[i].path, *fver = cs[i].version;
        if (rep && NULL == rep->newv) {
            p->location = sb_lock__location(a, rep->neu);
            p->purl = sb_eco_purl(a, SB_KIND_GOLANG, p->name, p->version, rep->neu, 0, NULL, 0);
            if (NULL == p->location ||
                sb_pkg_reader_prop(p, a, "pixi:go-replaced-by", sb_arena_strdup(a, rep->neu), NULL) != SB_OK)
                return oom(c);
            fpath = NULL;
        } else if (rep) {
            fpath = rep->neu;
            fver = rep->newv;
            const char *by = sb_arena_printf(a, "%s %s", fpath, fver);
            if (NULL == by || sb_pkg_reader_prop(p, a, "pixi:go-replaced-by", by, NULL) != SB_OK)
                return oom(c);
        }
        if (fpath) {
            p->purl = go_purl(a, fpath, fver);
            size_t at;
            const char *k = sb_arena_printf(c->s, "%s@%s", fpath, fver);
            const char *km = sb_arena_printf(c->s, "%s@%s/go.mod", fpath, fver);
            if (NULL == k || NULL == km)
                return oom(c);
            if (sb_strmap_get(&sums, k, strlen(k), &at) &&
                sb_pkg_reader_prop(p, a, "pixi:go-h1", c->sums[at].h1, NULL) != SB_OK)
                return oom(c);
            if (sb_strmap_get(&sums, km, strlen(km), &at) &&
                sb_pkg_reader_prop(p, a, "pixi:go-mod-h1", c->sums[at].h1, NULL) != SB_OK)
                return oom(c);
        }
        if (NULL == p->purl)
            return oom(c);
        if (cs[i].direct >= 0 &&
            sb_pkg_reader_prop(p, a, "pixi:direct", cs[i].direct ? "true" : "false", NULL) != SB_OK)
            return oom(c);
        if (cs[i].direct == 1 && sb_strv_push(&lp->root_names, a, p->key) != SB_OK)
            return oom(c);
        if (sb_lock_platform_add(lp, a, p) != SB_OK)
            return oom(c);
    }
    /* the props' strings point into the scratch arena: copy them out */
    for (size_t i = 0; i < nc; i++)
        for (size_t k = 1; k < recs[i].reader_props.n; k += 2)
            if (NULL == (recs[i].reader_props.v[k] = sb_arena_strdup(a, recs[i].reader_props.v[k])))
                return oom(c);
    lp->recs = recs;
    lk->nrecords = nc;
    *out = lk;
    return SB_OK;
}

static sb_code go_read_as(sb_lock **out, sb_arena *a, const char *data, size_t len, const sb_limits *lim, sb_err *err,
                          const char *kind)
{
    static const sb_limits defaults = SB_LIMITS_DEFAULT;
    go_ctx c = {.a = a, .err = err, .lim = lim ? lim : &defaults, .go_major = -1, .go_minor = -1};
    c.dl = (sb_deadline){c.lim->deadline_ns, 0, "reading the lockfile"};
    c.s = sb_arena_child(a);
    if (NULL == c.s)
        return oom(&c);
    sb_code rc = parse(&c, data, len, kind);
    if (rc == SB_OK)
        rc = build(&c, out);
    if (rc == SB_OK)
        (*out)->kind = kind;
    sb_arena_destroy(c.s);
    return rc;
}

static sb_code gomod_read(sb_lock **out, sb_arena *a, const char *data, size_t len, const sb_limits *lim, sb_err *err)
{
    return go_read_as(out, a, data, len, lim, err, "go.mod");
}

static sb_code gosum_read(sb_lock **out, sb_arena *a, const char *data, size_t len, const sb_limits *lim, sb_err *err)
{
    return go_read_as(out, a, data, len, lim, err, "go.sum");
}

static const char *base_name(const char *f)
{
    const char *b = f;
    for (const char *p = f; *p; p++)
        if (*p == '/' || *p == '\\')
            b = p + 1;
    return b;
}

static int version_ok_n(const char *s, size_t n)
{
    return n > 1 && s[0] == 'v' && isdigit((unsigned char)s[1]);
}

/* The first line that is not blank or a comment has go.sum's shape. */
static int sum_first(const char *data, size_t len)
{
    for (const char *p = data, *end = data + len; p < end;) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);
        go_line l;
        if (tokenize(p, n, &l))
            return 0;
        if (l.n)
            return sum_shape(&l) && version_ok_n(l.t[1].s, l.t[1].n);
        p = nl ? nl + 1 : end;
    }
    return 0;
}

static int gomod_detect(const char *data, size_t len, const char *filename)
{
    if (filename && !strcmp(base_name(filename), "go.mod"))
        return 2;
    return sb_lock__has_line(data, len, "module ") && !sb_lock__has_line(data, len, "[") &&
                   !sb_lock__has_line(data, len, "{")
               ? 1
               : 0;
}

static int gosum_detect(const char *data, size_t len, const char *filename)
{
    if (filename && !strcmp(base_name(filename), "go.sum"))
        return 2;
    return sum_first(data, len) && !sb_lock__has_line(data, len, "module ") ? 1 : 0;
}

int sb_lock_join_parts(sb_arena *a, const char **data, size_t *len, const char *filename, const char *other,
                       size_t olen, const char *ofilename)
{
    const char *mod = NULL, *sum = NULL;
    size_t mlen = 0, slen = 0;
    if (gomod_detect(*data, *len, filename) && gosum_detect(other, olen, ofilename)) {
        mod = *data, mlen = *len, sum = other, slen = olen;
    } else if (gosum_detect(*data, *len, filename) && gomod_detect(other, olen, ofilename)) {
        mod = other, mlen = olen, sum = *data, slen = *len;
    } else {
        return 0;
    }
    size_t n = mlen + slen + sizeof GO_JOIN + 2;
    char *j = sb_arena_stralloc(a, n + 1);
    if (NULL == j)
        return -1;
    size_t o = 0;
    memcpy(j, mod, mlen);
    o = mlen;
    if (o && j[o - 1] != '\n')
        j[o++] = '\n';
    memcpy(j + o, GO_JOIN "\n", sizeof GO_JOIN);
    o += sizeof GO_JOIN;
    memcpy(j + o, sum, slen);
    o += slen;
    j[o] = 0;
    *data = j;
    *len = o;
    return 1;
}

const sb_reader sb_reader_gomod = {
    .kind = "go.mod", .detect = gomod_detect, .read = gomod_read, .record_line = "", .per_record = 800, .per_byte = 2};

const sb_reader sb_reader_gosum = {
    .kind = "go.sum", .detect = gosum_detect, .read = gosum_read, .record_line = "", .per_record = 800, .per_byte = 2};
