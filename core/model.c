/*
 * model.c - the model's vocabulary (see model.h): kinds and scopes, digests,
 * a package's out-of-line fields, properties and normalized license, arena
 * string vectors and builders, an sb_lock's environments and platforms,
 * PEP 503 names, npm registry tarballs, why a license is not known, SBOM
 * authors and the pixi:incomplete statement.
 *
 * Readers, writers, reports and the steps of a selection all use these; the
 * selection itself (select.c, derive.c, graph.c) is not here, so nothing
 * this file calls calls back into it.
 */
#include "model.h"
#include "license.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

sb_scope sb_scope_merge(sb_scope a, sb_scope b)
{
    if (SB_SCOPE_NONE == a)
        return b;
    if (SB_SCOPE_NONE == b)
        return a;
    return a < b ? a : b;
}

sb_scope sb_scope_crossing(sb_scope from, sb_scope to)
{
    if (SB_SCOPE_NONE == from || SB_SCOPE_NONE == to || SB_SCOPE_REQUIRED == to || from == to)
        return SB_SCOPE_NONE;
    return to;
}

size_t sb_hash_bytes(sb_hash_alg alg)
{
    static const size_t bytes[SB_HASH_N] = {32, 16, 64, 48, 20};
    return alg < SB_HASH_N ? bytes[alg] : 0;
}

const char *sb_hash_to_hex(sb_hash_hex *buf, const unsigned char *b, size_t n)
{
    static const char hex[] = "0123456789abcdef";
    for (size_t i = 0; i < n; i++) {
        buf->s[2 * i] = hex[b[i] >> 4];
        buf->s[2 * i + 1] = hex[b[i] & 15];
    }
    buf->s[2 * n] = '\0';
    return buf->s;
}

const char *sb_pkg_hash(const sb_pkg *p, sb_hash_alg alg, sb_hash_hex *buf)
{
    switch (alg) {
    case SB_HASH_SHA256: return p->sha256;
    case SB_HASH_MD5: return sb_pkg_xr(p)->md5;
    case SB_HASH_SHA512: return p->sha512b ? sb_hash_to_hex(buf, p->sha512b, 64) : NULL;
    case SB_HASH_SHA384: return sb_pkg_xr(p)->sha384b ? sb_hash_to_hex(buf, sb_pkg_xr(p)->sha384b, 48) : NULL;
    case SB_HASH_SHA1: return p->sha1;
    case SB_HASH_N: break;
    }
    return NULL;
}

static int hex_val(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

const unsigned char *sb_hash_keep(sb_arena *a, const unsigned char *b, size_t n)
{
    /* byte-aligned (as a string is): 64 bytes, not up to 79 with padding */
    return (const unsigned char *)sb_arena_strndup(a, (const char *)b, n);
}

const unsigned char *sb_hash_from_hex(sb_arena *a, const char *hex, size_t nbytes)
{
    unsigned char b[64];
    if (NULL == hex || nbytes > sizeof b || strlen(hex) != 2 * nbytes)
        return NULL;
    for (size_t i = 0; i < nbytes; i++) {
        int hi = hex_val(hex[2 * i]), lo = hex_val(hex[2 * i + 1]);
        if (hi < 0 || lo < 0)
            return NULL;
        b[i] = (unsigned char)(hi << 4 | lo);
    }
    return sb_hash_keep(a, b, nbytes);
}

static const sb_pkgx no_x = {.build_number = -1, .size = -1};

sb_pkgx *sb_pkg_x(sb_pkg *p, sb_arena *a)
{
    if (NULL == p->x && NULL != (p->x = sb_arena_alloc(a, sizeof *p->x)))
        *p->x = no_x;
    return p->x;
}

const sb_pkgx *sb_pkg_xr(const sb_pkg *p)
{
    return p->x ? p->x : &no_x;
}

const char *sb_pkg_ref_purl(const sb_pkg *p)
{
    return p->x && p->x->ref_purl ? p->x->ref_purl : p->purl;
}

sb_code sb_pkg_prop_insert(sb_pkg *p, sb_arena *a, const char *name, const char *value)
{
    sb_prop *v = sb_arena_alloc(a, (p->nprops + 1) * sizeof *v);
    if (NULL == v)
        return SB_ENOMEM;
    uint32_t at = 0;
    while (at < p->nprops && strcmp(p->props[at].name, name) <= 0)
        at++;
    if (at)
        memcpy(v, p->props, at * sizeof *v);
    v[at].name = name;
    v[at].value = value;
    if (p->nprops > at)
        memcpy(v + at + 1, p->props + at, (p->nprops - at) * sizeof *v);
    p->props = v;
    p->nprops++;
    return SB_OK;
}

sb_code sb_pkg_reader_prop(sb_pkg *p, sb_arena *a, const char *name, const char *value, sb_err *err)
{
    if (NULL == value)
        return SB_OK;
    if (sb_strv_push(&p->reader_props, a, name) == SB_OK && sb_strv_push(&p->reader_props, a, value) == SB_OK)
        return SB_OK;
    return sb_err_set(err, SB_ENOMEM, "out of memory");
}

sb_code sb_strv_push(sb_strv *sv, sb_arena *a, const char *s)
{
    if (sv->n == sv->cap) {
        if (sv->cap > UINT32_MAX / 2)
            return SB_ELIMIT;
        size_t nc = sv->cap; /* a uint32_t in the struct: kept small */
        const char **nv = sb_arena_grow(a, sv->v, &nc, sv->n, sizeof *nv, 4);
        if (NULL == nv)
            return SB_ENOMEM;
        sv->v = nv;
        sv->cap = (uint32_t)nc;
    }
    sv->v[sv->n++] = s;
    return SB_OK;
}

sb_code sb_strb_add(sb_strb *b, sb_arena *a, const char *sep, const char *piece)
{
    size_t ns = b->len && sep ? strlen(sep) : 0, np = strlen(piece);
    char *s = sb_arena_reserve(a, b->s, &b->cap, b->len, b->len + ns + np + 1, 1, 32);
    if (NULL == s)
        return SB_ENOMEM;
    if (ns)
        memcpy(s + b->len, sep, ns);
    memcpy(s + b->len + ns, piece, np);
    b->len += ns + np;
    s[b->len] = '\0';
    b->s = s;
    return SB_OK;
}

/* the length of the control character at p, 0 when there is none */
static size_t control_len(const unsigned char *p)
{
    if (*p < 0x20 || *p == 0x7f)
        return 1;
    return p[0] == 0xc2 && p[1] >= 0x80 && p[1] <= 0x9f ? 2 : 0;
}

sb_code sb_str_no_controls(sb_arena *a, const char *s, const char **out)
{
    *out = s;
    const unsigned char *p = (const unsigned char *)s;
    while (p && *p && !control_len(p))
        p++;
    if (NULL == p || !*p)
        return SB_OK;
    char *copy = sb_arena_strdup(a, s), *w = copy;
    if (NULL == copy)
        return SB_ENOMEM;
    for (const unsigned char *r = (const unsigned char *)s; *r;) {
        size_t n = control_len(r);
        if (n)
            r += n;
        else
            *w++ = (char)*r++;
    }
    *w = '\0';
    *out = copy;
    return SB_OK;
}

const char *sb_strv_join(const sb_strv *sv, sb_arena *a, const char *sep)
{
    size_t ns = strlen(sep), total = 1;
    for (size_t i = 0; i < sv->n; i++)
        total += strlen(sv->v[i]) + (i ? ns : 0);
    char *s = sb_arena_alloc(a, total), *w = s;
    if (NULL == s)
        return NULL;
    for (size_t i = 0; i < sv->n; i++) {
        if (i) {
            memcpy(w, sep, ns);
            w += ns;
        }
        size_t n = strlen(sv->v[i]);
        memcpy(w, sv->v[i], n);
        w += n;
    }
    *w = '\0';
    return s;
}

sb_lock_env *sb_lock_env_get(sb_lock *l, sb_arena *a, const char *name)
{
    for (size_t i = 0; i < l->nenvs; i++)
        if (!strcmp(l->envs[i].name, name))
            return &l->envs[i];
    sb_lock_env *ne = sb_arena_grow(a, l->envs, &l->cap, l->nenvs, sizeof *ne, 4);
    if (NULL == ne)
        return NULL;
    l->envs = ne;
    sb_lock_env *e = &l->envs[l->nenvs++];
    memset(e, 0, sizeof *e);
    e->name = sb_arena_strdup(a, name);
    return e->name ? e : NULL;
}

sb_lock_platform *sb_lock_platform_get(sb_lock_env *e, sb_arena *a, const char *name)
{
    for (size_t i = 0; i < e->nplatforms; i++)
        if (!strcmp(e->platforms[i].name, name))
            return &e->platforms[i];
    sb_lock_platform *np = sb_arena_grow(a, e->platforms, &e->cap, e->nplatforms, sizeof *np, 4);
    if (NULL == np)
        return NULL;
    e->platforms = np;
    sb_lock_platform *p = &e->platforms[e->nplatforms++];
    memset(p, 0, sizeof *p);
    p->name = sb_arena_strdup(a, name);
    return p->name ? p : NULL;
}

sb_code sb_lock_platform_add(sb_lock_platform *p, sb_arena *a, sb_pkg *pkg)
{
    sb_pkg **np = sb_arena_grow(a, p->pkgs, &p->cap, p->npkgs, sizeof *np, 16);
    if (NULL == np)
        return SB_ENOMEM;
    p->pkgs = np;
    p->pkgs[p->npkgs++] = pkg;
    return SB_OK;
}

const sb_lock_env *sb_lock_find_env(const sb_lock *l, const char *name)
{
    for (size_t i = 0; i < l->nenvs; i++)
        if (!strcmp(l->envs[i].name, name))
            return &l->envs[i];
    return NULL;
}

const sb_lock_platform *sb_lock_find_platform(const sb_lock_env *e, const char *name)
{
    for (size_t i = 0; i < e->nplatforms; i++)
        if (!strcmp(e->platforms[i].name, name))
            return &e->platforms[i];
    return NULL;
}

char *sb_model_pep503(sb_arena *a, const char *name)
{
    size_t n = strlen(name);
    /* a string: no padding to max_align_t (16 bytes a name where most are
     * shorter); normalized below from `name`, never longer than it */
    char *d = sb_arena_strndup(a, name, n);
    if (NULL == d)
        return NULL;
    size_t o = 0;
    int in_sep = 0;
    for (size_t i = 0; i < n; i++) {
        char ch = name[i];
        if (ch == '-' || ch == '_' || ch == '.') {
            if (!in_sep)
                d[o++] = '-';
            in_sep = 1;
        } else {
            d[o++] = (char)tolower((unsigned char)ch);
            in_sep = 0;
        }
    }
    d[o] = '\0';
    return d;
}

const char *sb_model_pep503_or_same(sb_arena *a, const char *name)
{
    int sep = 0; /* the last character was a separator */
    for (const char *c = name; *c; c++) {
        int is_sep = *c == '-' || *c == '_' || *c == '.';
        if ((is_sep && (*c != '-' || sep)) || (*c >= 'A' && *c <= 'Z') || (unsigned char)*c >= 0x80)
            return sb_model_pep503(a, name);
        sep = is_sep;
    }
    return name;
}

sb_lic sb_pkg_lic(const sb_pkg *p, sb_arena *a)
{
    return p->lic ? *p->lic : sb_lic_normalize(a, p->license);
}

int sb_model_npm_registry(const char *url)
{
    if (NULL == url || (strncmp(url, "https://", 8) && strncmp(url, "http://", 7)))
        return 0;
    size_t n = strcspn(url, "?#");
    const char *dash = strstr(url, "/-/");
    return dash && (size_t)(dash - url) < n && n >= 4 && !strncmp(url + n - 4, ".tgz", 4);
}

const char *sb_pkg_license_unknown(const sb_pkg *p)
{
    if (p->license && p->license[0])
        return NULL;
    switch (p->lookup) {
    case SB_LOOKUP_UNASKED: return "the lockfile does not record it: fetch-licenses=true looks it up";
    case SB_LOOKUP_NOT_MADE:
    case SB_LOOKUP_OFF:
        return "the lockfile does not record it and this server makes no lookups: start it with --lookups and ask "
               "fetch-licenses=true (or give conda's --package-cache)";
    case SB_LOOKUP_FAILED: return "its lookup failed or was not answered in time: ask again";
    default: return NULL;
    }
}

/* ---- SBOM author --------------------------------------------------------- */

static int author_char_ok(unsigned char c)
{
    return c >= 0x20 && c != 0x7f;
}

int sb_author_parse(sb_author *out, sb_arena *a, const char *s, const char **why)
{
    *why = NULL;
    memset(out, 0, sizeof *out);
    if (NULL == s)
        return *why = "is empty", -1;
    if (!strncmp(s, "Person:", 7)) {
        out->person = true;
        s += 7;
    } else if (!strncmp(s, "Organization:", 13)) {
        s += 13;
    }
    while (*s == ' ')
        s++;
    size_t n = strlen(s);
    if (n > 256)
        return *why = "is longer than 256 bytes", -1;
    for (size_t i = 0; i < n; i++)
        if (!author_char_ok((unsigned char)s[i]))
            return *why = "holds a control character", -1;
    const char *open = strchr(s, '(');
    size_t name_len = open ? (size_t)(open - s) : n;
    while (name_len && s[name_len - 1] == ' ')
        name_len--;
    if (0 == name_len)
        return *why = "names no one (\"Person: NAME (EMAIL)\" or \"Organization: NAME (EMAIL)\")", -1;
    if (memchr(s, ')', name_len))
        return *why = "has a ')' in the name", -1;
    if (open) {
        const char *close = strchr(open, ')');
        if (NULL == close || close[1] != '\0' || close == open + 1)
            return *why = "must end with one \"(EMAIL)\"", -1;
        size_t el = (size_t)(close - open - 1);
        const char *at = memchr(open + 1, '@', el);
        if (NULL == at || at == open + 1 || at + 1 == close || memchr(open + 1, ' ', el) || memchr(open + 1, '(', el))
            return *why = "has an e-mail address that is not NAME@DOMAIN", -1;
        out->email = sb_arena_strndup(a, open + 1, el);
        if (NULL == out->email)
            return *why = "could not be stored", -1;
    }
    out->name = sb_arena_strndup(a, s, name_len);
    return out->name ? 0 : (*why = "could not be stored", -1);
}

/* ---- pixi:incomplete: what the document lacks, step by step (model.h) ---- */

sb_code sb_incomplete_add(sb_incomplete *inc, sb_arena *a, const char *step, const char *fmt, ...)
{
    if (inc->n == inc->cap) {
        size_t nc = inc->cap, cd = inc->cap; /* two parallel arrays, grown alike */
        const char **ns = sb_arena_grow(a, inc->step, &nc, inc->n, sizeof *ns, 4);
        const char **nd = sb_arena_grow(a, inc->detail, &cd, inc->n, sizeof *nd, 4);
        if (NULL == ns || NULL == nd)
            return SB_ENOMEM;
        inc->step = ns;
        inc->detail = nd;
        inc->cap = nc;
    }
    char buf[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    inc->step[inc->n] = step;
    inc->detail[inc->n] = sb_arena_printf(a, "%s: %s", step, buf);
    if (NULL == inc->detail[inc->n])
        return SB_ENOMEM;
    inc->n++;
    return SB_OK;
}

static const char *join_strs(const char *const *v, size_t n, const char *sep, sb_arena *a)
{
    if (0 == n)
        return NULL;
    size_t len = 1;
    for (size_t i = 0; i < n; i++)
        len += strlen(v[i]) + strlen(sep);
    char *out = sb_arena_alloc(a, len);
    if (NULL == out)
        return NULL;
    size_t o = 0;
    for (size_t i = 0; i < n; i++) {
        if (i) {
            memcpy(out + o, sep, strlen(sep));
            o += strlen(sep);
        }
        memcpy(out + o, v[i], strlen(v[i]));
        o += strlen(v[i]);
    }
    out[o] = '\0';
    return out;
}

const char *sb_incomplete_steps(const sb_incomplete *inc, sb_arena *a)
{
    /* each step once, in the order first seen */
    const char **u = inc->n ? sb_arena_alloc(a, inc->n * sizeof *u) : NULL;
    size_t nu = 0;
    for (size_t i = 0; u && i < inc->n; i++) {
        size_t k = 0;
        while (k < nu && strcmp(u[k], inc->step[i]))
            k++;
        if (k == nu)
            u[nu++] = inc->step[i];
    }
    return join_strs(u, nu, ", ", a);
}

const char *sb_incomplete_details(const sb_incomplete *inc, sb_arena *a)
{
    return join_strs(inc->detail, inc->n, "; ", a);
}

/* A detail item starts with one of the stated steps and ": "; a "; " not
 * followed by one is inside an item's own text. */
static int starts_step(const char *item, const char *const *steps, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        size_t k = strlen(steps[i]);
        if (!strncmp(item, steps[i], k) && !strncmp(item + k, ": ", 2))
            return 1;
    }
    return 0;
}

sb_code sb_incomplete_restore(sb_incomplete *inc, sb_arena *a, const char *steps, const char *detail)
{
    inc->n = 0;
    if (NULL == steps || NULL == detail)
        return SB_OK;
    const char *sv[64];
    size_t ns = 0;
    for (const char *s = steps; *s && ns < sizeof sv / sizeof sv[0];) {
        const char *at = strstr(s, ", ");
        size_t n = at ? (size_t)(at - s) : strlen(s);
        if (NULL == (sv[ns++] = sb_arena_strndup(a, s, n)))
            return SB_ENOMEM;
        s = at ? at + 2 : s + n;
    }
    const char *item = detail;
    while (*item) {
        const char *end = item;
        for (;;) { /* the next "; " that starts an item, else the end */
            end = strstr(end, "; ");
            if (NULL == end || starts_step(end + 2, sv, ns))
                break;
            end += 2;
        }
        size_t n = end ? (size_t)(end - item) : strlen(item);
        const char *step = NULL;
        for (size_t i = 0; i < ns && NULL == step; i++)
            if (!strncmp(item, sv[i], strlen(sv[i])) && !strncmp(item + strlen(sv[i]), ": ", 2))
                step = sv[i];
        if (NULL == step) /* a detail that names no stated step: kept whole under the first */
            step = ns ? sv[0] : "unknown";
        size_t nc = inc->cap, cd = inc->cap;
        const char **nst = sb_arena_grow(a, inc->step, &nc, inc->n, sizeof *nst, 4);
        const char **nd = sb_arena_grow(a, inc->detail, &cd, inc->n, sizeof *nd, 4);
        if (NULL == nst || NULL == nd)
            return SB_ENOMEM;
        inc->step = nst;
        inc->detail = nd;
        inc->cap = nc;
        inc->step[inc->n] = step;
        if (NULL == (inc->detail[inc->n] = sb_arena_strndup(a, item, n)))
            return SB_ENOMEM;
        inc->n++;
        item = end ? end + 2 : item + n;
    }
    return SB_OK;
}
