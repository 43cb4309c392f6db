/*
 * lock_requirements.c - a fully pinned requirements.txt (pip-compile or
 * `uv pip compile` output) read as a lock into an sb_pyl.
 *
 * Each requirement pins one version with == or ===; ranges, URLs, paths and
 * -e lines are refused with a hint to produce a real lock. `\` continuations
 * are joined, every --hash kept (the first SHA-256 as the package's hash,
 * the rest in `pixi:hashes`), -i/--index-url sets the index,
 * markers are evaluated per platform at the Python the pip-compile header
 * names (else 3.14). The graph comes from `# via` comments: `# via a` is an
 * edge a -> this package, `# via -r file` makes it a root edge. A service
 * has no file system to follow -r/-c includes in; they are skipped.
 *
 * Memory: only what the records keep (name, version, hashes, edge names)
 * goes into the lock's arena; the line buffer, the name index (which the
 * build uses too), the `# via` lists and the package templates' reader side
 * live in a scratch arena destroyed when the read returns, so the selection
 * that follows reuses that memory; a requirement's parse and its hashes as
 * read go into a line arena reset for each one.
 */
#include "deadline.h"
#include "lock_int.h"
#include "lock_py.h"
#include "marker.h"
#include "strmap.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

/* One name a `# via` comment gives for a package: kept in file order, so a
 * package's are together; a pin without any costs nothing. */
typedef struct rq_via {
    size_t pkg;
    const char *name;
} rq_via;

typedef struct rq_ctx {
    sb_arena *a;    /* the lock's */
    sb_arena *s;    /* this read's own (see above) */
    sb_arena *line; /* one requirement's, reset for the next */
    sb_pyl pl;
    sb_err *err;
    const char *index;
    rq_via *via; /* names from `# via` */
    size_t nvia, vcap;
    sb_strmap names;   /* PEP 503 name -> package index */
    size_t last;       /* package the via comments belong to, +1 */
    unsigned includes; /* -r / -c lines skipped */
    sb_deadline dl;
    int in_via;
    char python[16];
} rq_ctx;

static sb_code oom(sb_err *err)
{
    return sb_err_set(err, SB_ENOMEM, "out of memory");
}

#define NOT_PINNED_HINT \
    "; sbomd reads only fully pinned requirements (name==version), as pip-compile " \
    "--generate-hashes or `uv pip compile ... -o pylock.toml` write them"

static char *trim(char *s)
{
    while (*s == ' ' || *s == '\t')
        s++;
    size_t n = strlen(s);
    while (n && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r'))
        s[--n] = '\0';
    return s;
}

static sb_code add_via(rq_ctx *c, const char *name)
{
    if (0 == c->last)
        return SB_OK;
    rq_via *v = name ? sb_arena_grow(c->s, c->via, &c->vcap, c->nvia, sizeof *v, 64) : NULL;
    if (NULL == v)
        return oom(c->err);
    c->via = v;
    v[c->nvia++] = (rq_via){c->last - 1, name};
    return SB_OK;
}

/* A comment line: only `# via` bookkeeping matters. */
static sb_code comment(rq_ctx *c, const char *t)
{
    const char *b = t + 1;
    if (!strncmp(b, " via", 4) && (b[4] == '\0' || b[4] == ' ')) {
        const char *rest = b + 4;
        while (*rest == ' ')
            rest++;
        c->in_via = !*rest;
        return *rest ? add_via(c, sb_arena_strdup(c->s, rest)) : SB_OK;
    }
    if (c->in_via && !strncmp(b, "   ", 3)) {
        const char *rest = b;
        while (*rest == ' ')
            rest++;
        if (*rest)
            return add_via(c, sb_arena_strdup(c->s, rest));
        return SB_OK;
    }
    c->in_via = 0;
    return SB_OK;
}

/* One --hash value as "alg:hex", both lower-cased; NULL when malformed. */
static char *hash_value(sb_arena *a, const char *v, size_t n)
{
    const char *colon = memchr(v, ':', n);
    if (NULL == colon || colon == v || colon + 1 == v + n)
        return NULL;
    char *out = sb_arena_strndup(a, v, n);
    if (NULL == out)
        return NULL;
    size_t alg = (size_t)(colon - v);
    for (size_t i = 0; i < n; i++) {
        unsigned char ch = (unsigned char)out[i];
        if (i == alg)
            continue;
        if (i < alg ? !isalnum(ch) : !isxdigit(ch))
            return NULL;
        out[i] = (char)tolower(ch);
    }
    return out;
}

/* 1 when out[0..o), values joined by ',', holds the n bytes of v. */
static int listed(const char *out, size_t o, const char *v, size_t n)
{
    for (size_t i = 0; i < o;) {
        size_t k = i;
        while (k < o && out[k] != ',')
            k++;
        if (k - i == n && !memcmp(out + i, v, n))
            return 1;
        i = k + 1;
    }
    return 0;
}

/*
 * The --hash options of a requirement. pip-compile --generate-hashes lists
 * one per artifact of the release (each wheel, the sdist) without saying
 * which is which, and CycloneDX holds one hash per algorithm: the first
 * SHA-256 becomes the package's hash, every other value (other artifacts,
 * other algorithms) is kept in *rest as "alg:hex" joined by ',' in file
 * order, repeats dropped, for the `pixi:hashes` property (NULL when none).
 */
static sb_code collect_hashes(rq_ctx *c, const char *opts, const char **sha256, const char **rest)
{
    *sha256 = NULL;
    *rest = NULL;
    /* the joined values never outgrow the options they came from; in the
     * line arena, like each value as read: the record copies what it keeps */
    char *out = sb_arena_stralloc(c->line, strlen(opts) + 1);
    if (NULL == out)
        return oom(c->err);
    size_t o = 0;
    const char *first = NULL; /* the first SHA-256's hex */
    for (const char *h = opts; (h = strstr(h, "--hash")) != NULL;) {
        const char *v = h + 6;
        while (*v == '=' || *v == ' ' || *v == '\t')
            v++;
        size_t n = strcspn(v, " \t");
        h = v + n;
        char *hv = hash_value(c->line, v, n);
        if (NULL == hv)
            continue; /* not "alg:hex": nothing to keep */
        if (NULL == first && !strncmp(hv, "sha256:", 7) && strlen(hv + 7) == 64) {
            first = hv + 7;
            continue;
        }
        if ((first && !strncmp(hv, "sha256:", 7) && !strcmp(hv + 7, first)) || listed(out, o, hv, n))
            continue; /* a repeat */
        if (o)
            out[o++] = ',';
        memcpy(out + o, hv, n);
        o += n;
    }
    out[o] = '\0';
    *sha256 = first;
    *rest = o ? out : NULL;
    return SB_OK;
}

static sb_code requirement(rq_ctx *c, char *t, unsigned line)
{
    sb_arena_reset(c->line); /* the last requirement's parse and hashes */
    /* split off options that follow the requirement (--hash=...) */
    const char *hash = NULL, *more = NULL;
    char *opt = strstr(t, " -");
    if (NULL == opt)
        opt = strstr(t, "\t-");
    if (opt) {
        sb_code hrc = collect_hashes(c, opt, &hash, &more);
        if (hrc != SB_OK)
            return hrc;
        *opt = '\0';
        t = trim(t);
    }
    if (strstr(t, "://") || t[0] == '.' || t[0] == '/' || t[0] == '~')
        return sb_err_set_at(c->err, SB_EUNSUPPORTED, line, 1,
                             "line %u is a URL or path, not a pinned requirement: %.80s" NOT_PINNED_HINT, line, t);
    sb_req r; /* in the line arena: the record keeps copies of what it needs */
    sb_code rc = sb_req_parse(&r, c->line, t, c->err);
    if (rc != SB_OK) {
        c->err->line = line;
        c->err->column = 1;
        return rc;
    }
    if (r.url)
        return sb_err_set_at(c->err, SB_EUNSUPPORTED, line, 1,
                             "line %u names a URL for '%.60s', not a pinned version" NOT_PINNED_HINT, line, r.name);
    const char *spec = r.spec ? r.spec : "";
    const char *ver = NULL;
    if (!strncmp(spec, "===", 3))
        ver = spec + 3;
    else if (!strncmp(spec, "==", 2))
        ver = spec + 2;
    while (ver && *ver == ' ')
        ver++;
    if (NULL == ver || !*ver || strpbrk(ver, "*,<>!=~ "))
        return sb_err_set_at(c->err, SB_EUNSUPPORTED, line, 1,
                             "line %u: '%.60s' is not pinned to one version (%.40s)" NOT_PINNED_HINT, line, r.name,
                             spec[0] ? spec : "no version");
    const char *n503 = sb_model_pep503_or_same(c->line, r.name);
    size_t at;
    if (NULL == n503)
        return oom(c->err);
    if (sb_strmap_get(&c->names, n503, strlen(n503), &at)) { /* later duplicates of a name are ignored */
        c->last = 0;
        return SB_OK;
    }
    sb_py_pkg *p = sb_pyl_add(&c->pl, c->a);
    if (NULL == p)
        return oom(c->err);
    sb_pkg *rec = p->rec;
    rec->name = sb_arena_strdup(c->a, r.name);
    rec->version = sb_arena_strdup(c->a, ver);
    /* the index's key: the record's own name when it is normalized already */
    const char *key = n503 == r.name ? rec->name : sb_arena_strdup(c->s, n503);
    if (NULL == rec->name || NULL == rec->version || NULL == key ||
        sb_strmap_put(&c->names, key, strlen(key), c->pl.npkgs - 1, NULL) < 0 ||
        (hash && NULL == (rec->sha256 = sb_arena_strdup(c->a, hash))))
        return oom(c->err);
    const char *kept = more ? sb_arena_strdup(c->a, more) : NULL;
    if (more && (NULL == kept || sb_strv_push(&rec->reader_props, c->a, "pixi:hashes") != SB_OK ||
                 sb_strv_push(&rec->reader_props, c->a, kept) != SB_OK))
        return oom(c->err);
    /* read by the build only, which runs before the scratch goes */
    if (r.marker && NULL == (p->marker = sb_arena_strdup(c->s, r.marker)))
        return oom(c->err);
    p->index = true;
    c->last = c->pl.npkgs;
    c->in_via = 0;
    return SB_OK;
}

static sb_code option(rq_ctx *c, char *t, unsigned line)
{
    char *arg = t + strcspn(t, " =\t");
    if (*arg)
        *arg++ = '\0';
    arg = trim(arg);
    if (!strcmp(t, "-i") || !strcmp(t, "--index-url")) {
        c->index = sb_arena_strdup(c->a, arg);
        return c->index ? SB_OK : oom(c->err);
    }
    if (!strcmp(t, "-e") || !strcmp(t, "--editable"))
        return sb_err_set_at(c->err, SB_EUNSUPPORTED, line, 1,
                             "line %u is an editable install (-e), not a pinned requirement" NOT_PINNED_HINT, line);
    if (!strcmp(t, "-r") || !strcmp(t, "--requirement") || !strcmp(t, "-c") || !strcmp(t, "--constraint"))
        c->includes++;
    return SB_OK; /* -r/-c (no file system here), --extra-index-url, --hash on its own, ... */
}

static sb_code parse(rq_ctx *c, const char *data, size_t len)
{
    char *logical = NULL;
    size_t cap = 0;
    unsigned line = 0;
    for (const char *p = data, *end = data + len; p < end;) {
        if (sb_deadline_tick(&c->dl, c->err) != SB_OK)
            return SB_ETIMEOUT;
        unsigned start_line = line + 1;
        size_t ln = 0;
        /* join `\` continuations into one logical line */
        for (;;) {
            const char *nl = memchr(p, '\n', (size_t)(end - p));
            size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);
            line++;
            size_t keep = n;
            while (keep && (p[keep - 1] == '\r'))
                keep--;
            int cont = keep && p[keep - 1] == '\\';
            if (cont)
                keep--;
            char *nb = sb_arena_reserve(c->s, logical, &cap, ln, ln + keep + 2, 1, 2 * (ln + keep + 2));
            if (NULL == nb)
                return oom(c->err);
            logical = nb;
            memcpy(logical + ln, p, keep);
            ln += keep;
            logical[ln] = '\0';
            p = nl ? nl + 1 : end;
            /* a continued line followed by a comment: pip-compile writes `name==1 \` then `# via` */
            if (!cont || p >= end)
                break;
            const char *q = p;
            while (q < end && (*q == ' ' || *q == '\t'))
                q++;
            if (q < end && *q == '#')
                break;
        }
        if (memchr(logical, '\0', ln))
            return sb_err_set_at(c->err, SB_EPARSE, start_line, 1, "NUL byte on line %u", start_line);
        char *t = trim(logical);
        sb_code rc = SB_OK;
        if (!*t) {
            c->in_via = 0;
        } else if (*t == '#') {
            if (start_line <= 10 && strstr(t, "autogenerated by pip-compile with Python ")) {
                unsigned maj, min;
                if (2 == sscanf(strstr(t, "with Python ") + 12, "%u.%u", &maj, &min))
                    snprintf(c->python, sizeof c->python, "%u.%u", maj % 100, min % 100);
            }
            rc = comment(c, t);
        } else {
            /* strip a trailing comment */
            char *hash = strstr(t, " #");
            if (hash)
                *hash = '\0';
            t = trim(t);
            rc = *t == '-' ? option(c, t, start_line) : requirement(c, t, start_line);
        }
        if (rc != SB_OK)
            return rc;
    }
    return SB_OK;
}

/* Lines that start with a name: at least as many as the packages, so the
 * arrays are sized once (see sb_pyl_reserve). */
static size_t count_pins(const char *data, size_t len, size_t max)
{
    size_t n = 0;
    for (const char *p = data, *end = data + len; p < end && n < max;) {
        while (p < end && (*p == ' ' || *p == '\t'))
            p++;
        n += p < end && isalnum((unsigned char)*p);
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        p = nl ? nl + 1 : end;
    }
    return n;
}

/* `# via` names become edges into each package; `-r`/`-c` ones root edges. */
static sb_code link(rq_ctx *c)
{
    /* without a single `# via` the file is pins only: what depends on what
     * is not written down (unknown), which is not the same as "nothing" */
    c->pl.no_dep_data = 0 == c->nvia;
    const char *me = NULL;
    for (size_t k = 0; k < c->nvia; k++) {
        size_t i = c->via[k].pkg;
        /* the edge name, kept by the records that depend on this package */
        if ((0 == k || c->via[k - 1].pkg != i) && NULL == (me = sb_model_pep503_or_same(c->a, c->pl.pkgs[i].rec->name)))
            return oom(c->err);
        const char *v = c->via[k].name;
        if (v[0] == '-') {
            c->pl.has_root_names = true;
            if (sb_strv_push(&c->pl.root_names, c->a, me) != SB_OK)
                return oom(c->err);
            continue;
        }
        char name[256];
        snprintf(name, sizeof name, "%.*s", (int)strcspn(v, " ([;"), v);
        char *from = sb_model_pep503(c->s, name);
        size_t j;
        if (from && sb_strmap_get(&c->names, from, strlen(from), &j)) {
            sb_py_deps *g = sb_pyl_group(&c->pl.pkgs[j], c->s, NULL); /* made on demand */
            sb_py_dep *d = g ? sb_pyl_dep(g, c->s) : NULL;
            if (NULL == d)
                return oom(c->err);
            d->name = me;
        }
    }
    return SB_OK;
}

static sb_code read_into(rq_ctx *cp, sb_lock **out, sb_arena *a, const char *data, size_t len, const sb_limits *lim,
                         sb_err *err)
{
    rq_ctx c = *cp;
    c.a = a;
    c.err = err;
    c.pl.kind = "requirements.txt";
    c.dl = (sb_deadline){lim ? lim->deadline_ns : 0, 0, "reading the lockfile"};
    snprintf(c.python, sizeof c.python, "3.14");
    c.pl.tmp = c.s; /* package groups and edges: read by the build only */
    c.pl.base_on_demand = true;
    c.pl.names = &c.names;
    size_t guess = count_pins(data, len, lim->max_packages + 1);
    if (sb_strmap_init(&c.names, c.s, guess) != SB_OK || sb_pyl_reserve(&c.pl, a, guess) != SB_OK)
        return oom(err);
    sb_code rc = parse(&c, data, len);
    if (rc == SB_OK && 0 == c.pl.npkgs && c.includes)
        rc = sb_err_set(err, SB_EUNSUPPORTED,
                        "the file only includes other files (-r/-c), which sbomd cannot "
                        "follow; upload the compiled requirements instead");
    else if (rc == SB_OK && 0 == c.pl.npkgs)
        rc = sb_err_set(err, SB_EPARSE, "no pinned requirement found");
    if (rc == SB_OK)
        rc = link(&c);
    if (rc != SB_OK)
        return rc;
    c.pl.python_default = sb_arena_strdup(a, c.python);
    for (size_t i = 0; i < c.pl.npkgs; i++)
        c.pl.pkgs[i].rec->index_url = c.index ? c.index : "https://pypi.org/simple";
    return sb_pyl_build(out, a, &c.pl, lim, err);
}

static sb_code requirements_read(sb_lock **out, sb_arena *a, const char *data, size_t len, const sb_limits *lim,
                                 sb_err *err)
{
    rq_ctx c = {0};
    c.s = sb_arena_child(a);
    c.line = sb_arena_child(a);
    sb_code rc = c.s && c.line ? read_into(&c, out, a, data, len, lim, err) : oom(err);
    sb_arena_destroy(c.line);
    sb_arena_destroy(c.s);
    return rc;
}

/* A line a requirements file may hold: blank, comment, option, or `name...`
 * followed by a version operator, extras, a marker or nothing. */
static int requirement_like(const char *p, size_t n)
{
    size_t i = 0;
    while (i < n && (p[i] == ' ' || p[i] == '\t'))
        i++;
    if (i == n || p[i] == '#' || p[i] == '-' || p[i] == '\r')
        return 1;
    size_t st = i;
    while (i < n && (isalnum((unsigned char)p[i]) || p[i] == '-' || p[i] == '_' || p[i] == '.'))
        i++;
    if (i == st)
        return 0;
    while (i < n && p[i] == ' ')
        i++;
    if (i == n || p[i] == '\r' || p[i] == '[' || p[i] == ';' || p[i] == '@' || p[i] == '\\')
        return 1;
    return (p[i] == '=' && i + 1 < n && p[i + 1] == '=') || p[i] == '<' || p[i] == '>' || p[i] == '~' ||
           (p[i] == '!' && i + 1 < n && p[i + 1] == '=');
}

static int requirements_detect(const char *data, size_t len, const char *filename)
{
    int named = 0;
    if (filename) {
        const char *base = strrchr(filename, '/');
        base = base ? base + 1 : filename;
        size_t n = strlen(base);
        named = (n > 4 && (!strcmp(base + n - 4, ".txt") || !strcmp(base + n - 3, ".in"))) ||
                strstr(base, "requirements") != NULL;
    }
    int pins = 0;
    const char *p = data, *end = data + len;
    for (int line = 0; line < 200 && p < end; line++) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);
        if ((n >= 9 && !memcmp(p, "@EXPLICIT", 9)) || (n && (p[0] == '[' || p[0] == '{')) ||
            (n >= 3 && !memcmp(p, "---", 3)))
            return 0;
        if (!named && !requirement_like(p, n))
            return 0;
        if (memmem(p, n, "==", 2) && p[0] != '#')
            pins = 1;
        p = nl ? nl + 1 : end;
    }
    if (named)
        return 2;
    return pins ? 1 : 0;
}

const sb_reader sb_reader_requirements = {.kind = "requirements.txt",
                                          .detect = requirements_detect,
                                          .read = requirements_read,
                                          .record_line = "",
                                          .record_char = 0,
                                          .per_record = 500,
                                          .per_byte = 2};
