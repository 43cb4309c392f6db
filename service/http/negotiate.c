/*
 * negotiate.c - Accept header parsing and content negotiation (see
 * negotiate.h), apart from the query's parameter table (params.c).
 */
#include "negotiate.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static int is_ows(char c)
{
    return c == ' ' || c == '\t';
}

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

/* How specifically one media range names format f: 4 its type and one of
 * its versions, 3 its type without version= (every version of the family)
 * or one of its media aliases, 1 application/json or application/ANY, 0 the
 * full wildcard; -1 not at all. The most specific range decides a format's q
 * (RFC 9110 12.5.1), so a CycloneDX range with q=0 beside the full wildcard
 * excludes CycloneDX rather than letting the wildcard pick it. */
static int specificity(const svc_accept_item *it, const sb_doc_ops *f)
{
    if (f->media_base && !strcasecmp(it->type, f->media_base)) {
        if (!it->version[0])
            return 3;
        for (size_t k = 0; f->versions && f->versions[k]; k++)
            if (!strcmp(f->versions[k], it->version))
                return 4;
        return -1;
    }
    for (size_t k = 0; f->media_aliases && f->media_aliases[k]; k++)
        if (!strcasecmp(f->media_aliases[k], it->type))
            return 3;
    if (f->named_only)
        return -1;
    if (!strcasecmp(it->type, "application/json") || !strcasecmp(it->type, "application/*"))
        return 1;
    return strcmp(it->type, "*/*") ? -1 : 0;
}

const sb_doc_ops *svc_negotiate_format(const char *accept)
{
    return svc_negotiate_format_for(accept, 0);
}

const sb_doc_ops *svc_negotiate_format_for(const char *accept, int seq)
{
    const sb_doc_ops *const *fmts = sb_doc_formats();
    if (NULL == accept || !accept[0])
        return fmts[0];
    enum { MAXF = 16 };
    double q[MAXF] = {0};
    int spec[MAXF];
    size_t first[MAXF] = {0};
    size_t nf = 0;
    while (nf < MAXF && fmts[nf]) {
        spec[nf] = -1;
        nf++;
    }
    int ndjson = 0;
    size_t pos = 0, idx = 0;
    svc_accept_item it;
    for (; svc_accept_next(accept, &pos, &it); idx++) {
        if (seq && !strcasecmp(it.type, "application/x-ndjson") && it.q > 0)
            ndjson = 1; /* the container of all-*: any format inside it */
        for (size_t i = 0; i < nf; i++) {
            int sp = specificity(&it, fmts[i]);
            if (sp > spec[i] || (sp == spec[i] && sp >= 0 && it.q > q[i])) {
                spec[i] = sp;
                q[i] = it.q;
                first[i] = idx;
            }
        }
    }
    const sb_doc_ops *best = NULL;
    double best_q = 0.0;
    size_t best_first = 0;
    for (size_t i = 0; i < nf; i++) {
        if (spec[i] < 0 || q[i] <= 0.0)
            continue;
        /* higher q wins; a tie goes to the range named first, then to the
         * formats' order (each family's default before its other versions) */
        if (NULL == best || q[i] > best_q || (q[i] == best_q && first[i] < best_first)) {
            best = fmts[i];
            best_q = q[i];
            best_first = first[i];
        }
    }
    if (NULL == best && ndjson)
        return fmts[0];
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
