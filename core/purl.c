/*
 * purl.c - purl building and parsing.
 *
 * DESIGN: one encoder (`put_enc`) with a single "left alone" set; parsing
 * splits from the right as the spec describes (subpath at '#', qualifiers at
 * '?', version at the last '@', name at the last '/'), decodes each part and
 * then hands the components to the same normalization the builder uses, so a
 * parse -> build round trip is canonical by construction.
 */
#include "purl.h"
#include "buf.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static int keep_plain(unsigned char c)
{
    return isalnum(c) || c == '.' || c == '-' || c == '_' || c == '~' || c == ':';
}

static sb_code put(sb_buf *b, const char *s, size_t n)
{
    return sb_buf_append(b, s, n);
}

static sb_code put_enc(sb_buf *b, const char *s)
{
    static const char hx[] = "0123456789ABCDEF";
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        sb_code rc;
        if (keep_plain(*p)) {
            rc = put(b, (const char *)p, 1);
        } else {
            char e[3] = {'%', hx[*p >> 4], hx[*p & 15]};
            rc = put(b, e, 3);
        }
        if (rc != SB_OK)
            return rc;
    }
    return SB_OK;
}

static int valid_type(const char *t)
{
    if (NULL == t || !isalpha((unsigned char)t[0]))
        return 0;
    for (const char *p = t; *p; p++)
        if (!isalnum((unsigned char)*p) && *p != '.' && *p != '+' && *p != '-')
            return 0;
    return 1;
}

static int valid_qual_key(const char *k)
{
    if (NULL == k || !k[0])
        return 0;
    for (const char *p = k; *p; p++)
        if (!isalnum((unsigned char)*p) && *p != '.' && *p != '-' && *p != '_')
            return 0;
    return 1;
}

static char *lower_dup(sb_arena *a, const char *s)
{
    char *d = sb_arena_strdup(a, s);
    if (d)
        for (char *p = d; *p; p++)
            *p = (char)tolower((unsigned char)*p);
    return d;
}

static int qual_cmp(const void *x, const void *y)
{
    return strcmp(((const sb_prop *)x)->name, ((const sb_prop *)y)->name);
}

/* Apply type rules and validation; returns a normalized copy in *n. */
static sb_code normalize(sb_purl *n, sb_arena *a, const sb_purl *p, sb_err *err)
{
    memset(n, 0, sizeof *n);
    if (!valid_type(p->type))
        return sb_err_set(err, SB_EINVAL, "purl type is missing or invalid");
    if (NULL == p->name || !p->name[0])
        return sb_err_set(err, SB_EINVAL, "purl name is empty");
    n->type = lower_dup(a, p->type);
    n->ns = p->ns && p->ns[0] ? p->ns : NULL;
    n->name = p->name;
    n->version = p->version && p->version[0] ? p->version : NULL;
    n->subpath = p->subpath;
    if (NULL == n->type)
        return sb_err_set(err, SB_ENOMEM, "out of memory");
    if (0 == strcmp(n->type, "pypi")) {
        if (n->ns)
            return sb_err_set(err, SB_EINVAL, "pypi purls have no namespace");
        char *nm = lower_dup(a, p->name);
        if (NULL == nm)
            return sb_err_set(err, SB_ENOMEM, "out of memory");
        for (char *c = nm; *c; c++)
            if (*c == '_')
                *c = '-';
        n->name = nm;
    } else if (0 == strcmp(n->type, "conda")) {
        if (n->ns)
            return sb_err_set(err, SB_EINVAL, "conda purls have no namespace");
    } else if (0 == strcmp(n->type, "github")) {
        if (NULL == n->ns)
            return sb_err_set(err, SB_EINVAL, "github purls need a namespace");
        n->ns = lower_dup(a, n->ns);
        n->name = lower_dup(a, p->name);
        if (NULL == n->ns || NULL == n->name)
            return sb_err_set(err, SB_ENOMEM, "out of memory");
    }
    if (p->nquals) {
        n->quals = sb_arena_calloc(a, p->nquals, sizeof *n->quals);
        if (NULL == n->quals)
            return sb_err_set(err, SB_ENOMEM, "out of memory");
        for (size_t i = 0; i < p->nquals; i++) {
            if (!valid_qual_key(p->quals[i].name))
                return sb_err_set(err, SB_EINVAL, "purl qualifier key is invalid");
            if (NULL == p->quals[i].value || !p->quals[i].value[0])
                continue;
            char *k = lower_dup(a, p->quals[i].name);
            if (NULL == k)
                return sb_err_set(err, SB_ENOMEM, "out of memory");
            for (size_t j = 0; j < n->nquals; j++)
                if (0 == strcmp(n->quals[j].name, k))
                    return sb_err_set(err, SB_EINVAL, "purl qualifier key repeated");
            n->quals[n->nquals].name = k;
            n->quals[n->nquals].value = p->quals[i].value;
            n->nquals++;
        }
        qsort(n->quals, n->nquals, sizeof *n->quals, qual_cmp);
    }
    return SB_OK;
}

/* Write '/'-separated segments, each encoded, dropping empty ones (and '.'
 * and '..' when `subpath`). */
static sb_code put_segments(sb_buf *b, sb_arena *a, const char *s, int subpath, int *wrote)
{
    *wrote = 0;
    const char *p = s;
    while (*p) {
        const char *e = strchr(p, '/');
        size_t len = e ? (size_t)(e - p) : strlen(p);
        if (len && !(subpath && ((len == 1 && p[0] == '.') || (len == 2 && p[0] == '.' && p[1] == '.')))) {
            if (*wrote && put(b, "/", 1) != SB_OK)
                return SB_ENOMEM;
            char *seg = sb_arena_strndup(a, p, len);
            if (NULL == seg || put_enc(b, seg) != SB_OK)
                return SB_ENOMEM;
            *wrote = 1;
        }
        p += len;
        if (*p == '/')
            p++;
    }
    return SB_OK;
}

sb_code sb_purl_build(char **out, sb_arena *a, const sb_purl *p, sb_err *err)
{
    sb_purl n;
    sb_code rc = normalize(&n, a, p, err);
    if (rc != SB_OK)
        return rc;
    sb_buf b = SB_BUF_INIT(0);
    int wrote;
    rc = put(&b, "pkg:", 4);
    if (rc == SB_OK)
        rc = put(&b, n.type, strlen(n.type));
    if (rc == SB_OK)
        rc = put(&b, "/", 1);
    if (rc == SB_OK && n.ns) {
        rc = put_segments(&b, a, n.ns, 0, &wrote);
        if (rc == SB_OK && wrote)
            rc = put(&b, "/", 1);
    }
    if (rc == SB_OK)
        rc = put_enc(&b, n.name);
    if (rc == SB_OK && n.version) {
        rc = put(&b, "@", 1);
        if (rc == SB_OK)
            rc = put_enc(&b, n.version);
    }
    for (size_t i = 0; rc == SB_OK && i < n.nquals; i++) {
        rc = put(&b, i ? "&" : "?", 1);
        if (rc == SB_OK)
            rc = put(&b, n.quals[i].name, strlen(n.quals[i].name));
        if (rc == SB_OK)
            rc = put(&b, "=", 1);
        if (rc == SB_OK)
            rc = put_enc(&b, n.quals[i].value);
    }
    if (rc == SB_OK && n.subpath && n.subpath[0]) {
        size_t mark = b.len;
        rc = put(&b, "#", 1);
        if (rc == SB_OK)
            rc = put_segments(&b, a, n.subpath, 1, &wrote);
        if (rc == SB_OK && !wrote)
            b.len = mark;
    }
    if (rc == SB_OK) {
        *out = sb_arena_strndup(a, b.data, b.len);
        if (NULL == *out)
            rc = SB_ENOMEM;
    }
    sb_buf_free(&b);
    if (rc != SB_OK && err && err->code == SB_OK)
        return sb_err_set(err, rc, "out of memory building a purl");
    return rc;
}

static int hexv(int c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

char *sb_pct_decode(sb_arena *a, const char *s, size_t n)
{
    char *d = sb_arena_stralloc(a, n + 1);
    if (NULL == d)
        return NULL;
    size_t o = 0;
    for (size_t i = 0; i < n; i++) {
        if (s[i] == '%') {
            if (i + 2 >= n)
                return NULL;
            int h = hexv((unsigned char)s[i + 1]), l = hexv((unsigned char)s[i + 2]);
            if (h < 0 || l < 0)
                return NULL;
            d[o++] = (char)(h * 16 + l);
            i += 2;
        } else {
            d[o++] = s[i];
        }
    }
    d[o] = '\0';
    return d;
}

/* A parsed subpath as the spec's parse gives it: each segment decoded,
 * empty, '.' and '..' segments dropped (so no leading or trailing '/'). */
static char *clean_subpath(sb_arena *a, const char *s, size_t n)
{
    char *o = sb_arena_stralloc(a, n + 1);
    if (NULL == o)
        return NULL;
    size_t k = 0;
    for (const char *c = s, *end = s + n; c < end;) {
        const char *e = memchr(c, '/', (size_t)(end - c));
        if (NULL == e)
            e = end;
        char *seg = sb_pct_decode(a, c, (size_t)(e - c));
        if (NULL == seg)
            return NULL;
        if (seg[0] && strcmp(seg, ".") && strcmp(seg, "..")) {
            size_t sl = strlen(seg);
            if (k)
                o[k++] = '/';
            memcpy(o + k, seg, sl);
            k += sl;
        }
        c = e + 1;
    }
    o[k] = '\0';
    return o;
}

sb_code sb_purl_parse(sb_purl *out, sb_arena *a, const char *s, sb_err *err)
{
    memset(out, 0, sizeof *out);
    if (strncasecmp(s, "pkg:", 4) != 0)
        return sb_err_set(err, SB_EPARSE, "a purl starts with 'pkg:'");
    const char *p = s + 4;
    while (*p == '/')
        p++;
    size_t len = strlen(p);
    const char *end = p + len;
    const char *hash = memchr(p, '#', len);
    const char *rest_end = hash ? hash : end;
    sb_purl raw = {0};
    if (hash)
        raw.subpath = clean_subpath(a, hash + 1, (size_t)(end - hash - 1));
    const char *q = memchr(p, '?', (size_t)(rest_end - p));
    const char *path_end = q ? q : rest_end;
    if (q) {
        /* count and split qualifiers */
        size_t cnt = 1;
        for (const char *c = q + 1; c < rest_end; c++)
            cnt += *c == '&';
        raw.quals = sb_arena_calloc(a, cnt, sizeof *raw.quals);
        if (NULL == raw.quals)
            return sb_err_set(err, SB_ENOMEM, "out of memory");
        const char *c = q + 1;
        while (c < rest_end) {
            const char *amp = memchr(c, '&', (size_t)(rest_end - c));
            const char *pe = amp ? amp : rest_end;
            if (pe > c) {
                const char *eq = memchr(c, '=', (size_t)(pe - c));
                if (NULL == eq || eq == c)
                    return sb_err_set(err, SB_EPARSE, "purl qualifier without key=value");
                char *k = sb_pct_decode(a, c, (size_t)(eq - c));
                char *v = sb_pct_decode(a, eq + 1, (size_t)(pe - eq - 1));
                if (NULL == k || NULL == v)
                    return sb_err_set(err, SB_EPARSE, "bad percent-encoding in purl qualifiers");
                raw.quals[raw.nquals].name = k;
                raw.quals[raw.nquals].value = v;
                raw.nquals++;
            }
            c = pe + (pe < rest_end);
        }
    }
    const char *slash = memchr(p, '/', (size_t)(path_end - p));
    if (NULL == slash)
        return sb_err_set(err, SB_EPARSE, "purl has no type");
    char *type = sb_arena_strndup(a, p, (size_t)(slash - p));
    if (NULL == type)
        return sb_err_set(err, SB_ENOMEM, "out of memory");
    if (!valid_type(type))
        return sb_err_set(err, SB_EPARSE, "purl type is invalid");
    raw.type = type;
    const char *body = slash + 1;
    while (body < path_end && *body == '/')
        body++;
    const char *body_end = path_end;
    while (body_end > body && body_end[-1] == '/')
        body_end--;
    const char *at = NULL;
    for (const char *c = body_end; c > body; c--)
        if (c[-1] == '@') {
            at = c - 1;
            break;
        }
    const char *name_end = body_end;
    if (at) {
        /* '@' only separates a version when it follows the last '/' */
        const char *lastslash = NULL;
        for (const char *c = body; c < body_end; c++)
            if (*c == '/')
                lastslash = c;
        if (!lastslash || at > lastslash) {
            raw.version = sb_pct_decode(a, at + 1, (size_t)(body_end - at - 1));
            if (NULL == raw.version)
                return sb_err_set(err, SB_EPARSE, "bad percent-encoding in purl version");
            name_end = at;
        }
    }
    const char *ns_end = NULL;
    for (const char *c = body; c < name_end; c++)
        if (*c == '/')
            ns_end = c;
    const char *name_start = ns_end ? ns_end + 1 : body;
    raw.name = sb_pct_decode(a, name_start, (size_t)(name_end - name_start));
    if (NULL == raw.name)
        return sb_err_set(err, SB_EPARSE, "bad percent-encoding in purl name");
    if (ns_end) {
        /* decode each namespace segment; keep '/' separators */
        sb_buf b = SB_BUF_INIT(0);
        const char *c = body;
        int first = 1;
        sb_code rc = SB_OK;
        while (rc == SB_OK && c < ns_end) {
            const char *e = memchr(c, '/', (size_t)(ns_end - c));
            if (NULL == e)
                e = ns_end;
            if (e > c) {
                char *seg = sb_pct_decode(a, c, (size_t)(e - c));
                if (NULL == seg || strchr(seg, '/'))
                    rc = SB_EPARSE;
                if (rc == SB_OK && !first)
                    rc = put(&b, "/", 1);
                if (rc == SB_OK)
                    rc = put(&b, seg, strlen(seg));
                first = 0;
            }
            c = e + 1;
        }
        if (rc == SB_OK)
            raw.ns = sb_arena_strndup(a, b.data ? b.data : "", b.len);
        sb_buf_free(&b);
        if (rc != SB_OK)
            return sb_err_set(err, SB_EPARSE, "bad purl namespace");
    }
    sb_code rc = normalize(out, a, &raw, err);
    if (rc != SB_OK) {
        if (err)
            err->code = SB_EPARSE;
        return SB_EPARSE;
    }
    return SB_OK;
}

char *sb_purl_conda(sb_arena *a, const char *name, const char *version, const char *build, const char *channel,
                    const char *subdir, const char *type)
{
    sb_prop q[4] = {{"build", build}, {"channel", channel}, {"subdir", subdir}, {"type", type}};
    sb_purl p = {"conda", NULL, name, version, q, 4, NULL};
    char *out = NULL;
    if (sb_purl_build(&out, a, &p, NULL) != SB_OK)
        return NULL;
    return out;
}
