/*
 * params.c - request parameter parsers (see params.h).
 */
#include "params.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

int svc_param_bool(const char *s, int dflt, int *out)
{
    if (NULL == s) {
        *out = dflt;
        return 0;
    }
    if (!strcmp(s, "true") || !strcmp(s, "1") || !strcmp(s, "")) {
        *out = 1;
        return 0;
    }
    if (!strcmp(s, "false") || !strcmp(s, "0")) {
        *out = 0;
        return 0;
    }
    return -1;
}

int svc_param_count(const char *s, long long max, long long *out)
{
    if (NULL == s)
        return 0;
    if (!s[0] || strlen(s) > 19)
        return -1;
    long long n = 0;
    for (const char *c = s; *c; c++) {
        if (*c < '0' || *c > '9')
            return -1;
        n = n * 10 + (*c - '0'); /* 19 digits cannot overflow past 9.2e18 */
        if (n > max)
            return -1;
    }
    *out = n;
    return 0;
}

static int is_ows(char c) { return c == ' ' || c == '\t'; }

/* Copy [b, e) trimmed of spaces into dst (cap bytes, truncating). */
static void copy_trimmed(char *dst, size_t cap, const char *b, const char *e)
{
    while (b < e && is_ows(*b))
        b++;
    while (e > b && is_ows(e[-1]))
        e--;
    size_t n = (size_t)(e - b);
    if (n >= cap)
        n = cap - 1;
    memcpy(dst, b, n);
    dst[n] = '\0';
}

/* q is "0", "1" or "0.ddd" (RFC 9110 12.4.2); anything else counts as 0. */
static double parse_q(const char *b, const char *e)
{
    while (b < e && is_ows(*b))
        b++;
    while (e > b && is_ows(e[-1]))
        e--;
    if (b == e || (*b != '0' && *b != '1'))
        return 0.0;
    double q = *b - '0';
    const char *c = b + 1;
    if (c < e && *c == '.') {
        double scale = 0.1;
        for (c++; c < e && *c >= '0' && *c <= '9' && scale > 0.0001; c++, scale /= 10)
            q += (*c - '0') * scale;
    }
    if (c != e || q > 1.0)
        return 0.0;
    return q;
}

int svc_accept_next(const char *accept, size_t *pos, svc_accept_item *item)
{
    if (NULL == accept)
        return 0;
    const char *p = accept + *pos;
    while (*p == ',' || is_ows(*p))
        p++;
    if (!*p) {
        *pos = (size_t)(p - accept);
        return 0;
    }
    const char *end = strchr(p, ',');
    if (NULL == end)
        end = p + strlen(p);
    const char *semi = memchr(p, ';', (size_t)(end - p));
    copy_trimmed(item->type, sizeof item->type, p, semi ? semi : end);
    item->version[0] = '\0';
    item->q = 1.0;
    while (semi) {
        const char *pb = semi + 1;
        const char *pe = memchr(pb, ';', (size_t)(end - pb));
        const char *stop = pe ? pe : end;
        while (pb < stop && is_ows(*pb))
            pb++;
        if (stop - pb >= 2 && !strncasecmp(pb, "q=", 2)) {
            item->q = parse_q(pb + 2, stop);
        } else if (stop - pb >= 8 && !strncasecmp(pb, "version=", 8)) {
            const char *vb = pb + 8, *ve = stop;
            if (ve - vb >= 2 && *vb == '"' && ve[-1] == '"') { /* quoted-string */
                vb++;
                ve--;
            }
            copy_trimmed(item->version, sizeof item->version, vb, ve);
        }
        semi = pe;
    }
    *pos = (size_t)(end - accept);
    return 1;
}

/* Which format one media range names (NULL: none of ours). */
static const sb_doc_ops *format_of(const svc_accept_item *it)
{
    const char *v = it->version[0] ? it->version : NULL;
    if (!strcasecmp(it->type, "application/vnd.cyclonedx+json")) {
        if (NULL == v || !strcmp(v, "1.6"))
            return &sb_doc_cyclonedx_16;
        if (!strcmp(v, "1.7"))
            return &sb_doc_cyclonedx_17;
    } else if (!strcasecmp(it->type, "application/spdx+json")) {
        if (NULL == v || !strcmp(v, "2.3"))
            return &sb_doc_spdx_23;
        if (!strcmp(v, "3.0.1") || !strcmp(v, "3.0"))
            return &sb_doc_spdx_301;
    } else if (!strcasecmp(it->type, "application/ld+json")) {
        return &sb_doc_spdx_301;
    } else if (!strcasecmp(it->type, "application/json") || !strcmp(it->type, "*/*") ||
               !strcasecmp(it->type, "application/*")) {
        return &sb_doc_cyclonedx_16;
    }
    return NULL;
}

const sb_doc_ops *svc_negotiate_format(const char *accept)
{
    if (NULL == accept || !accept[0])
        return &sb_doc_cyclonedx_16;
    const sb_doc_ops *best = NULL;
    double best_q = 0.0;
    size_t pos = 0;
    svc_accept_item it;
    while (svc_accept_next(accept, &pos, &it)) {
        const sb_doc_ops *cand = format_of(&it);
        if (cand && it.q > best_q) {
            best = cand;
            best_q = it.q;
        }
    }
    return best;
}

/* type/subtype matches a media range, with its wildcards */
static int range_matches(const char *range, const char *type)
{
    if (!strcmp(range, "*/*"))
        return 1;
    size_t n = strlen(range);
    if (n > 2 && !strcmp(range + n - 2, "/*"))
        return !strncasecmp(range, type, n - 1);
    return !strcasecmp(range, type);
}

int svc_negotiate_type(const char *accept, const char *const *types, size_t n)
{
    if (NULL == accept || !accept[0])
        return n ? 0 : -1;
    int best = -1;
    double best_q = 0.0;
    size_t pos = 0;
    svc_accept_item it;
    while (svc_accept_next(accept, &pos, &it))
        for (size_t i = 0; i < n; i++)
            if (range_matches(it.type, types[i]) && it.q > best_q) {
                best = (int)i;
                best_q = it.q;
            }
    return best;
}
