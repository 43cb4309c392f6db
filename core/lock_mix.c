/*
 * lock_mix.c - Elixir's mix.lock: one Elixir term, read (never evaluated)
 * with a small parser of the terms a lock holds: maps `%{...}`, keyword
 * lists `[key: value]`, tuples, lists, strings, atoms (`:name`,
 * `:"quoted"`, `true`), numbers.
 *
 * The term is a map (a keyword list in 2014's locks) of the dependency's
 * application name to an entry:
 *  - {:hex, :package, "version"} with, as Hex grew, the inner checksum, the
 *    build tools, the dependencies ({:app, "requirement", [hex: :package,
 *    repo: "hexpm", optional: bool]}), the repository and the outer
 *    checksum: 3 to 8 elements;
 *  - {:package, "version"}, Hex's first form;
 *  - {:git, "url", "commit", [branch: / tag: / ref: / sparse: / ...]}.
 *
 * The outer checksum is the SHA-256 of the package tarball, the component's
 * hash; the inner one is Hex's digest of the package's metadata and
 * contents, the property pixi:hex-inner-checksum. A dependency is an edge to
 * the entry of that application name; `optional: true` ones are also named
 * in pixi:hex-optional-dependencies. A package of a Hex organization
 * (repository "hexpm:org") has the organization as its purl namespace; a
 * git entry is the package with vcs_url, its commit as version. The lock
 * does not say which dependencies the project names (mix.exs is code), so
 * the root depends on what nothing else depends on.
 */
#include "ecosystem.h"
#include "lock.h"
#include "lock_int.h"
#include "lock_keyed.h"

#include <ctype.h>
#include <string.h>

static int mix_detect(const char *data, size_t len, const char *filename)
{
    if (filename) {
        const char *base = strrchr(filename, '/');
        base = base ? base + 1 : filename;
        if (!strcmp(base, "mix.lock"))
            return 2;
    }
    size_t i = 0;
    while (i < len && isspace((unsigned char)data[i]))
        i++;
    if (i + 2 > len || !((data[i] == '%' && data[i + 1] == '{') || data[i] == '['))
        return 0;
    size_t n = len - i < 4096 ? len - i : 4096;
    const char *h = data + i;
    for (size_t k = 0; k + 6 <= n; k++)
        if (!memcmp(h + k, "{:hex,", 6) || !memcmp(h + k, "{:git,", 6) ||
            (k + 10 <= n && !memcmp(h + k, "{:package,", 10)))
            return 1;
    return 0;
}

typedef enum { T_MAP, T_LIST, T_TUPLE, T_STR, T_ATOM, T_NUM } ttype;

/* One term: a container's items (a map's or a keyword's pairs as 2-tuples,
 * as Elixir has them), or a string / atom / number's text. */
typedef struct term {
    ttype type;
    const char *s; /* text (strings unescaped) */
    size_t n;      /* text length, or number of items */
    struct term **kids;
    unsigned line, col;
} term;

typedef struct parser {
    sb_arena *a;
    sb_err *err;
    sb_kl *kl;
    const char *p, *end, *line_start;
    unsigned line;
    unsigned depth, max_depth;
    size_t max_scalar;
} parser;

static sb_code fail(parser *ps, const char *what)
{
    return sb_err_set_at(ps->err, SB_EPARSE, ps->line, (unsigned)(ps->p - ps->line_start) + 1, "mix.lock: %s", what);
}

static void skip_ws(parser *ps)
{
    while (ps->p < ps->end) {
        char c = *ps->p;
        if (c == '\n') {
            ps->line++;
            ps->line_start = ++ps->p;
        } else if (c == ' ' || c == '\t' || c == '\r') {
            ps->p++;
        } else if (c == '#') { /* a comment to the end of the line */
            while (ps->p < ps->end && *ps->p != '\n')
                ps->p++;
        } else {
            break;
        }
    }
}

static term *node(parser *ps, ttype t)
{
    term *x = sb_arena_calloc(ps->a, 1, sizeof *x);
    if (x) {
        x->type = t;
        x->line = ps->line;
        x->col = (unsigned)(ps->p - ps->line_start) + 1;
    }
    return x;
}

static int name_char(char c)
{
    return isalnum((unsigned char)c) || c == '_' || c == '@' || c == '?' || c == '!';
}

/* "..." or '...' from ps->p (at the quote), escapes taken literally but
 * for the quoted character and the backslash. */
static sb_code string(parser *ps, term **out, ttype t)
{
    char q = *ps->p;
    term *x = node(ps, t);
    if (NULL == x)
        return sb_err_set(ps->err, SB_ENOMEM, "out of memory");
    const char *s = ++ps->p;
    size_t n = 0;
    char *buf = NULL;
    for (;; ps->p++) {
        if (ps->p >= ps->end)
            return fail(ps, "a string without its closing quote");
        if (*ps->p == q)
            break;
        if (*ps->p == '\n') {
            ps->line++;
            ps->line_start = ps->p + 1;
        }
        if (*ps->p == '\\' && ps->p + 1 < ps->end)
            ps->p++;
    }
    size_t raw = (size_t)(ps->p - s);
    if (raw > ps->max_scalar)
        return sb_err_set_at(ps->err, SB_ELIMIT, x->line, x->col, "mix.lock: a string of more than %zu bytes",
                             ps->max_scalar);
    if (NULL == (buf = sb_arena_stralloc(ps->a, raw + 1)))
        return sb_err_set(ps->err, SB_ENOMEM, "out of memory");
    for (const char *c = s; c < ps->p; c++) {
        if (*c == '\\' && c + 1 < ps->p)
            c++;
        buf[n++] = *c;
    }
    buf[n] = '\0';
    ps->p++;
    x->s = buf;
    x->n = n;
    *out = x;
    return SB_OK;
}

static sb_code value(parser *ps, term **out);

/* A keyword key (`name:` or `"name":`) at ps->p: the atom, else NULL with
 * ps->p unmoved. */
static sb_code keyword_key(parser *ps, term **key)
{
    *key = NULL;
    if (ps->p >= ps->end) /* the input is not NUL-terminated: nothing past its end is read */
        return SB_OK;
    const char *at = ps->p, *ls = ps->line_start;
    unsigned line = ps->line;
    if (*ps->p == '"') {
        term *s = NULL;
        sb_code rc = string(ps, &s, T_ATOM);
        if (rc != SB_OK)
            return rc;
        if (ps->p < ps->end && *ps->p == ':' && (ps->p + 1 == ps->end || !name_char(ps->p[1]))) {
            ps->p++;
            *key = s;
            return SB_OK;
        }
    } else if (isalpha((unsigned char)*ps->p) || *ps->p == '_') {
        const char *s = ps->p;
        while (ps->p < ps->end && name_char(*ps->p))
            ps->p++;
        if (ps->p + 1 < ps->end && *ps->p == ':' && (ps->p[1] == ' ' || ps->p[1] == '\n' || ps->p[1] == '\t')) {
            term *x = node(ps, T_ATOM);
            if (NULL == x || NULL == (x->s = sb_arena_strndup(ps->a, s, (size_t)(ps->p - s))))
                return sb_err_set(ps->err, SB_ENOMEM, "out of memory");
            x->n = (size_t)(ps->p - s);
            ps->p++;
            *key = x;
            return SB_OK;
        }
    }
    ps->p = at;
    ps->line_start = ls;
    ps->line = line;
    return SB_OK;
}

static sb_code pair(parser *ps, term *k, term *v, term **out)
{
    term *t = node(ps, T_TUPLE);
    term **kids = sb_arena_alloc(ps->a, 2 * sizeof *kids);
    if (NULL == t || NULL == kids)
        return sb_err_set(ps->err, SB_ENOMEM, "out of memory");
    kids[0] = k;
    kids[1] = v;
    t->kids = kids;
    t->n = 2;
    t->line = k->line;
    t->col = k->col;
    *out = t;
    return SB_OK;
}

/* The items of a container up to `close`; maps take `key => value` and
 * keywords, lists keywords after plain items. */
static sb_code items(parser *ps, term *x, char close)
{
    size_t cap = 0;
    if (++ps->depth > ps->max_depth)
        return sb_err_set_at(ps->err, SB_ELIMIT, ps->line, (unsigned)(ps->p - ps->line_start) + 1,
                             "mix.lock: nested deeper than %u", ps->max_depth);
    for (;;) {
        if (sb_kl_tick(ps->kl, ps->err) != SB_OK)
            return SB_ETIMEOUT;
        skip_ws(ps);
        if (ps->p >= ps->end)
            return fail(ps, "the input ends inside a map, list or tuple");
        if (*ps->p == close) {
            ps->p++;
            break;
        }
        if (x->n && *ps->p != ',')
            return fail(ps, "expected ',' between items");
        if (x->n) {
            ps->p++;
            skip_ws(ps);
            if (ps->p < ps->end && *ps->p == close) { /* a trailing comma */
                ps->p++;
                break;
            }
        }
        term *k = NULL, *it = NULL;
        sb_code rc = close == '}' || close == ']' ? keyword_key(ps, &k) : SB_OK;
        if (rc != SB_OK)
            return rc;
        if (k) {
            skip_ws(ps);
            if ((rc = value(ps, &it)) != SB_OK || (rc = pair(ps, k, it, &it)) != SB_OK)
                return rc;
        } else {
            if ((rc = value(ps, &it)) != SB_OK)
                return rc;
            skip_ws(ps);
            if (x->type == T_MAP) {
                if (ps->end - ps->p < 2 || ps->p[0] != '=' || ps->p[1] != '>')
                    return fail(ps, "expected '=>' or a key with ':' in a map");
                ps->p += 2;
                skip_ws(ps);
                term *v = NULL;
                if ((rc = value(ps, &v)) != SB_OK || (rc = pair(ps, it, v, &it)) != SB_OK)
                    return rc;
            }
        }
        term **nv = sb_arena_grow(ps->a, x->kids, &cap, x->n, sizeof *nv, 8);
        if (NULL == nv)
            return sb_err_set(ps->err, SB_ENOMEM, "out of memory");
        x->kids = nv;
        x->kids[x->n++] = it;
    }
    ps->depth--;
    return SB_OK;
}

static sb_code value(parser *ps, term **out)
{
    skip_ws(ps);
    if (ps->p >= ps->end)
        return fail(ps, "expected a value");
    char c = *ps->p;
    term *x = NULL;
    if (c == '%' && ps->p + 1 < ps->end && ps->p[1] == '{') {
        if (NULL == (x = node(ps, T_MAP)))
            return sb_err_set(ps->err, SB_ENOMEM, "out of memory");
        ps->p += 2;
        *out = x;
        return items(ps, x, '}');
    }
    if (c == '{' || c == '[') {
        if (NULL == (x = node(ps, c == '{' ? T_TUPLE : T_LIST)))
            return sb_err_set(ps->err, SB_ENOMEM, "out of memory");
        ps->p++;
        *out = x;
        return items(ps, x, c == '{' ? '}' : ']');
    }
    if (c == '"' || c == '\'')
        return string(ps, out, T_STR);
    if (c == ':' && ps->p + 1 < ps->end && ps->p[1] == '"') {
        ps->p++;
        return string(ps, out, T_ATOM);
    }
    const char *s = ps->p + (c == ':');
    const char *e = s;
    ttype t = c == ':' || isalpha((unsigned char)c) || c == '_' ? T_ATOM : T_NUM;
    if (t == T_NUM && !(isdigit((unsigned char)c) || c == '-'))
        return fail(ps, "expected a map, list, tuple, string, atom or number");
    while (e < ps->end && (name_char(*e) || (t == T_NUM && (*e == '.' || *e == '-'))))
        e++;
    if (e == s)
        return fail(ps, "expected an atom's name after ':'");
    if (NULL == (x = node(ps, t)) || NULL == (x->s = sb_arena_strndup(ps->a, s, (size_t)(e - s))))
        return sb_err_set(ps->err, SB_ENOMEM, "out of memory");
    x->n = (size_t)(e - s);
    ps->p = e;
    *out = x;
    return SB_OK;
}

/* ---- the lock's entries ---- */

typedef struct ctx {
    parser ps;
    sb_kl kl;
    sb_arena *a;
    sb_err *err;
} ctx;

static sb_code oom(ctx *c)
{
    return sb_err_set(c->err, SB_ENOMEM, "out of memory");
}

static sb_code bad(ctx *c, const term *at, const char *what)
{
    return sb_err_set_at(c->err, SB_EPARSE, at->line, at->col, "mix.lock: %s", what);
}

static int is(const term *t, ttype type)
{
    return t && t->type == type;
}

static int atom_is(const term *t, const char *s)
{
    return is(t, T_ATOM) && !strcmp(t->s, s);
}

/* The value of `key` in a keyword list, NULL when absent. */
static const term *kw(const term *list, const char *key)
{
    for (size_t i = 0; is(list, T_LIST) && i < list->n; i++) {
        const term *p = list->kids[i];
        if (is(p, T_TUPLE) && p->n == 2 && atom_is(p->kids[0], key))
            return p->kids[1];
    }
    return NULL;
}

static int hex64(const term *t)
{
    if (!is(t, T_STR) || t->n != 64)
        return 0;
    for (size_t i = 0; i < 64; i++)
        if (!isxdigit((unsigned char)t->s[i]))
            return 0;
    return 1;
}

static const char *lower(ctx *c, const char *s)
{
    char *d = sb_arena_strdup(c->a, s);
    for (char *x = d; x && *x; x++)
        *x = (char)tolower((unsigned char)*x);
    return d;
}

static sb_code hex_entry(ctx *c, sb_pkg *p, const term *e)
{
    const term *const *k = (const term *const *)e->kids;
    if (e->n > 3 && !(hex64(k[3]) || (is(k[3], T_STR) && 0 == k[3]->n)))
        return bad(c, k[3], "a Hex inner checksum is 64 hex digits");
    if (e->n > 4 && !is(k[4], T_LIST))
        return bad(c, k[4], "a Hex entry's build tools are a list");
    if (e->n > 5 && !is(k[5], T_LIST))
        return bad(c, k[5], "a Hex entry's dependencies are a list");
    if (e->n > 6 && !is(k[6], T_STR))
        return bad(c, k[6], "a Hex entry's repository is a string");
    if (e->n > 7 && !hex64(k[7]))
        return bad(c, k[7], "a Hex outer checksum is 64 hex digits");
    const char *repo = e->n > 6 ? k[6]->s : "hexpm";
    const char *name = k[1]->s;
    if (!strncmp(repo, "hexpm:", 6) && repo[6]) /* a Hex organization's private package */
        name = sb_arena_printf(c->a, "%s/%s", repo + 6, k[1]->s);
    int registry = !strcmp(repo, "hexpm") || !strncmp(repo, "hexpm:", 6);
    p->purl = name ? sb_eco_purl(c->a, SB_KIND_HEX, name, p->version, NULL, 1, NULL, 0) : NULL;
    if (NULL == p->purl)
        return oom(c);
    sb_code rc = SB_OK;
    if (!registry) /* a repository of its own: its name, no URL */
        rc = sb_kl_prop(&c->kl, p, "pixi:hex-repo", repo);
    if (rc == SB_OK && strcmp(k[1]->s, p->key)) /* the application is named apart from its package */
        rc = sb_kl_prop(&c->kl, p, "pixi:hex-app", p->key);
    if (rc == SB_OK && e->n > 3 && k[3]->n)
        rc = sb_kl_prop(&c->kl, p, "pixi:hex-inner-checksum", lower(c, k[3]->s));
    if (rc == SB_OK && e->n > 7 && NULL == (p->sha256 = lower(c, k[7]->s)))
        rc = SB_ENOMEM;
    if (rc != SB_OK)
        return oom(c);
    if (e->n > 4) {
        sb_strb tools = {0};
        for (size_t i = 0; i < k[4]->n; i++)
            if (is(k[4]->kids[i], T_ATOM) && sb_strb_add(&tools, c->a, ", ", k[4]->kids[i]->s) != SB_OK)
                return oom(c);
        if (tools.s && sb_kl_prop(&c->kl, p, "pixi:hex-build-tools", tools.s) != SB_OK)
            return oom(c);
    }
    if (e->n > 5) {
        sb_strb opt = {0};
        for (size_t i = 0; i < k[5]->n; i++) {
            const term *d = k[5]->kids[i];
            if (sb_kl_tick(&c->kl, c->err) != SB_OK)
                return SB_ETIMEOUT;
            if (!is(d, T_TUPLE) || d->n < 1 || !is(d->kids[0], T_ATOM))
                return bad(c, d, "a dependency is {:app, \"requirement\", [options]}");
            if (sb_strv_push(&p->depends, c->a, d->kids[0]->s) != SB_OK)
                return oom(c);
            if (d->n > 2 && atom_is(kw(d->kids[2], "optional"), "true") &&
                sb_strb_add(&opt, c->a, ", ", d->kids[0]->s) != SB_OK)
                return oom(c);
        }
        if (opt.s && sb_kl_prop(&c->kl, p, "pixi:hex-optional-dependencies", opt.s) != SB_OK)
            return oom(c);
    }
    return SB_OK;
}

static sb_code git_entry(ctx *c, sb_pkg *p, const term *e)
{
    const term *const *k = (const term *const *)e->kids;
    const char *url = k[1]->s, *commit = k[2]->s;
    p->location = !strncmp(url, "git:", 4) || !strncmp(url, "git+", 4)
                      ? sb_arena_printf(c->a, "%s#%s", url, commit)
                      : sb_arena_printf(c->a, "git+%s#%s", url, commit);
    if (NULL == p->location ||
        NULL == (p->purl = sb_eco_purl(c->a, SB_KIND_HEX, p->name, p->version, p->location, 0, NULL, 0)))
        return oom(c);
    static const char *const opts[][2] = {{"branch", "pixi:git-branch"},
                                          {"tag", "pixi:git-tag"},
                                          {"ref", "pixi:git-ref"},
                                          {"sparse", "pixi:git-sparse"},
                                          {"subdir", "pixi:git-subdir"}};
    for (size_t i = 0; e->n > 3 && i < sizeof opts / sizeof opts[0]; i++) {
        const term *v = kw(k[3], opts[i][0]);
        if (is(v, T_STR) && sb_kl_prop(&c->kl, p, opts[i][1], v->s) != SB_OK)
            return oom(c);
    }
    return SB_OK;
}

/* One `"app": entry` pair. */
static sb_code entry(ctx *c, const term *pr)
{
    if (!is(pr, T_TUPLE) || pr->n != 2 || (!is(pr->kids[0], T_ATOM) && !is(pr->kids[0], T_STR)))
        return bad(c, pr, "expected `\"app\": {...}` entries");
    const char *app = pr->kids[0]->s;
    const term *e = pr->kids[1];
    if (!is(e, T_TUPLE) || e->n < 2 || !is(e->kids[0], T_ATOM))
        return bad(c, e, "an entry is a tuple starting with :hex, :git or :package");
    const term *const *k = (const term *const *)e->kids;
    const char *type = k[0]->s, *version = NULL;
    if (!strcmp(type, "hex")) {
        if (e->n < 3 || e->n > 8 || !is(k[1], T_ATOM) || !is(k[2], T_STR) || 0 == k[2]->n)
            return e->n > 8 ? sb_err_set_at(c->err, SB_EUNSUPPORTED, e->line, e->col,
                                            "mix.lock: a Hex entry of %zu elements: this reader knows the forms of 3 "
                                            "to 8 Hex writes",
                                            e->n)
                            : bad(c, e, "a Hex entry is {:hex, :package, \"version\", ...}");
        version = k[2]->s;
    } else if (!strcmp(type, "git")) {
        if (e->n < 3 || e->n > 4 || !is(k[1], T_STR) || !is(k[2], T_STR) || 0 == k[1]->n || 0 == k[2]->n ||
            (e->n == 4 && !is(k[3], T_LIST)))
            return bad(c, e, "a git entry is {:git, \"url\", \"commit\", [options]}");
        version = k[2]->s; /* the lock states no version of a git dependency: the commit is its identity */
    } else if (!strcmp(type, "package")) {
        if (e->n != 2 || !is(k[1], T_STR) || 0 == k[1]->n)
            return bad(c, e, "a package entry is {:package, \"version\"}");
        version = k[1]->s;
    } else {
        return sb_err_set_at(c->err, SB_EUNSUPPORTED, e->line, e->col,
                             "mix.lock: an entry of type :%.40s: this reader knows :hex, :git and :package", type);
    }
    sb_pkg *p = NULL;
    sb_code rc = sb_kl_add(&c->kl, &p, SB_KIND_HEX, app, app, version, pr->line, c->err);
    if (rc != SB_OK)
        return rc;
    if (NULL == p)
        return bad(c, pr, "an application locked twice");
    if (!strcmp(type, "hex")) {
        p->name = k[1]->s;
        return hex_entry(c, p, e);
    }
    if (!strcmp(type, "git"))
        return git_entry(c, p, e);
    return (p->purl = sb_eco_purl(c->a, SB_KIND_HEX, app, version, NULL, 1, NULL, 0)) ? SB_OK : oom(c);
}

static sb_code mix_read(sb_lock **out, sb_arena *a, const char *data, size_t len, const sb_limits *lim, sb_err *err)
{
    ctx c = {.a = a, .err = err};
    if (sb_kl_init(&c.kl, a, "mix.lock", lim) != SB_OK)
        return oom(&c);
    c.kl.names_are_keys = true;
    c.ps = (parser){.a = a,
                    .err = err,
                    .kl = &c.kl,
                    .p = data,
                    .end = data + len,
                    .line_start = data,
                    .line = 1,
                    .max_depth = lim ? lim->max_depth : 64,
                    .max_scalar = lim ? lim->max_scalar : (size_t)1 << 20};
    term *top = NULL;
    sb_code rc = value(&c.ps, &top);
    if (rc != SB_OK)
        return rc;
    skip_ws(&c.ps);
    if (c.ps.p < c.ps.end)
        return fail(&c.ps, "more after the lock's map");
    if (!is(top, T_MAP) && !is(top, T_LIST))
        return bad(&c, top, "the lock is a map of applications to entries");
    for (size_t i = 0; i < top->n; i++) {
        if (sb_kl_tick(&c.kl, err) != SB_OK)
            return SB_ETIMEOUT;
        if ((rc = entry(&c, top->kids[i])) != SB_OK)
            return rc;
    }
    sb_lock *l = NULL;
    if ((rc = sb_kl_build(&l, &c.kl, err)) != SB_OK)
        return rc;
    l->version = 1;
    *out = l;
    return SB_OK;
}

const sb_reader sb_reader_mix = {.kind = "mix.lock",
                                 .detect = mix_detect,
                                 .read = mix_read,
                                 .record_line = NULL,
                                 .record_char = 0,
                                 .per_record = 0,
                                 .per_byte = 12};
