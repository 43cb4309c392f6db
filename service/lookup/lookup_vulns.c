/*
 * lookup_vulns.c - vulnerabilities through the lookup engine (see lookup.c):
 * OSV querybatch and advisory records, then KEV and EPSS for the findings
 *, and VEX applied last; and the engine's descriptors
 * of those kinds (svc_lk_osv_batch, svc_lk_osv_vuln, svc_lk_kev,
 * svc_lk_epss; lookup_int.h).
 */
#include "lookup_int.h"
#include "../../core/buf.h"
#include "../../core/ecosystem.h"
#include "../../core/exploit.h"
#include "../../core/uuid.h"
#include "../../core/vex.h"
#include "../../core/vuln.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define OSV_CHUNK 1000   /* purls per querybatch */
#define OSV_MAX_PAGES 10 /* result pages one query may take (next_page_token), the first included */

/* --- the engine's descriptors of these kinds (lookup_int.h) ----------------- */

/* OSV, KEV and EPSS answers are kept as they came and parsed by the
 * request that asked (core/vuln.c, core/exploit.c); an empty body is no
 * answer. */
static int keep_raw(svc_lookup *L, svc_lk_xfer *x, long status, svc_lk_answer *an)
{
    (void)L;
    (void)status;
    if (0 == x->body.len || NULL == (an->body = malloc(x->body.len + 1)))
        return 0;
    memcpy(an->body, x->body.data, x->body.len);
    an->body[x->body.len] = '\0';
    an->body_len = x->body.len;
    an->share = an->body;
    an->share_len = an->body_len;
    return 1;
}

/* No absent status: a 404 for a record is a failure like any other (the
 * finding keeps its id). */
const svc_lk_kind svc_lk_osv_batch = {
    .upstream = SVC_UP_OSV,
    .found = {200},
    .cap = MAX_BODY,
    .ttl = offsetof(svc_lookup, osv_ttl),
    .absent_ttl = offsetof(svc_lookup, osv_ttl),
    .tag = 'O',
    .digest = keep_raw,
};

const svc_lk_kind svc_lk_osv_vuln = {
    .upstream = SVC_UP_OSV,
    .found = {200},
    .cap = MAX_BODY,
    .ttl = offsetof(svc_lookup, osv_ttl),
    .absent_ttl = offsetof(svc_lookup, osv_ttl),
    .tag = 'O',
    .digest = keep_raw,
};

const svc_lk_kind svc_lk_kev = {
    .upstream = SVC_UP_KEV,
    .found = {200},
    .cap = MAX_BODY,
    .ttl = offsetof(svc_lookup, kev_ttl),
    .absent_ttl = offsetof(svc_lookup, kev_ttl),
    .tag = 'O',
    .digest = keep_raw,
};

const svc_lk_kind svc_lk_epss = {
    .upstream = SVC_UP_EPSS,
    .found = {200},
    .cap = MAX_BODY,
    .ttl = offsetof(svc_lookup, epss_ttl),
    .absent_ttl = offsetof(svc_lookup, epss_ttl),
    .tag = 'O',
    .digest = keep_raw,
};

/* An advisory id as one path segment: only [A-Za-z0-9._-] pass unencoded,
 * so an id OSV (or a fake of it) answers cannot leave /v1/vulns/. */
static const char *id_segment(sb_arena *a, const char *id)
{
    size_t n = strlen(id);
    char *o = sb_arena_stralloc(a, 3 * n + 1);
    if (NULL == o)
        return NULL;
    size_t k = 0;
    for (const unsigned char *p = (const unsigned char *)id; *p; p++) {
        if ((*p >= 'A' && *p <= 'Z') || (*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') || *p == '.' ||
            *p == '_' || *p == '-')
            o[k++] = (char)*p;
        else
            k += (size_t)sprintf(o + k, "%%%02X", *p);
    }
    o[k] = '\0';
    return o;
}

static const char *sha1_hex(sb_arena *a, const char *p, size_t n)
{
    sb_sha1 c;
    unsigned char d[20];
    sb_sha1_init(&c);
    sb_sha1_update(&c, p, n);
    sb_sha1_final(&c, d);
    char *o = sb_arena_alloc(a, 41);
    for (int i = 0; o && i < 20; i++)
        snprintf(o + 2 * i, 3, "%02x", d[i]);
    return o;
}

/* --- KEV and EPSS ------------------------------------------ */

#define EXPLOIT_FILE_MAX (64u << 20) /* the KEV catalog is about 1.5 MB */

/* A local catalog or answer (--kev-file / --epss-file) into the arena: the
 * file is read by every request that asks, so replacing it refreshes it. */
static const char *read_local(sb_arena *a, const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (NULL == f)
        return NULL;
    sb_buf b = SB_BUF_INIT(EXPLOIT_FILE_MAX);
    char chunk[65536];
    size_t n;
    int bad = 0;
    while (!bad && (n = fread(chunk, 1, sizeof chunk, f)) > 0)
        bad = sb_buf_append(&b, chunk, n) != SB_OK;
    bad |= ferror(f);
    fclose(f);
    const char *out = bad ? NULL : sb_arena_strndup(a, b.data ? b.data : "", b.len);
    *len = b.len;
    sb_buf_free(&b);
    return out;
}

/* Mark the findings the KEV catalog lists; a catalog that cannot be had is
 * pixi:incomplete step kev (the findings stay, unmarked). */
static sb_code lookup_kev(svc_lookup *L, svc_lookup_ctx *ctx, sb_sbom *s, sb_arena *a)
{
    const char *body = NULL;
    size_t len = 0, capped = 0, marked;
    const char *from = L->kev_file[0] ? L->kev_file : L->kev_url;
    if (L->kev_file[0]) {
        body = read_local(a, L->kev_file, &len);
    } else {
        const char *key = L->kev_url, *none = NULL;
        size_t zero = 0;
        sb_code rc = svc_lk_fetch_bodies(L, ctx, a, K_KEV, 1, &key, &none, &none, &zero, &body, &len, &capped);
        if (rc != SB_OK)
            return rc;
    }
    if (NULL == body)
        return sb_incomplete_add(&s->incomplete, a, "kev", "catalog not read from %s (%s)", from,
                                 capped ? "past the per-request lookup limit" : "failed or timed out");
    sb_code rc = sb_kev_apply(s, a, body, len, &marked);
    if (rc == SB_EPARSE)
        return sb_incomplete_add(&s->incomplete, a, "kev", "%s is not a KEV catalog", from);
    return rc;
}

/* EPSS scores for the findings' CVEs, SB_EPSS_CHUNK per request; unscored
 * CVEs of failed requests are pixi:incomplete step epss. */
static sb_code lookup_epss(svc_lookup *L, svc_lookup_ctx *ctx, sb_sbom *s, sb_arena *a)
{
    sb_strv cves;
    size_t scored;
    if (sb_vuln_cves(s, a, &cves) != SB_OK)
        return SB_ENOMEM;
    if (0 == cves.n)
        return SB_OK; /* GHSA-only findings: nothing EPSS scores */
    if (L->epss_file[0]) {
        size_t len = 0;
        const char *body = read_local(a, L->epss_file, &len);
        sb_code rc = body ? sb_epss_apply(s, a, body, len, &scored) : SB_EPARSE;
        if (rc == SB_EPARSE)
            return sb_incomplete_add(&s->incomplete, a, "epss", "%s could not be read as an EPSS answer", L->epss_file);
        return rc;
    }
    size_t nch = (cves.n + SB_EPSS_CHUNK - 1) / SB_EPSS_CHUNK;
    const char **keys = sb_arena_alloc(a, nch * sizeof *keys), **none = sb_arena_calloc(a, nch, sizeof *none);
    const char **bodies = sb_arena_alloc(a, nch * sizeof *bodies);
    size_t *zero = sb_arena_calloc(a, nch, sizeof *zero), *lens = sb_arena_alloc(a, nch * sizeof *lens), capped = 0;
    if (!keys || !none || !bodies || !zero || !lens)
        return SB_ENOMEM;
    for (size_t c = 0; c < nch; c++) {
        size_t off = c * SB_EPSS_CHUNK, m = cves.n - off < SB_EPSS_CHUNK ? cves.n - off : SB_EPSS_CHUNK;
        const char *qs = sb_epss_query(a, cves.v + off, m);
        keys[c] = qs ? sb_arena_printf(a, "%s%s%s", L->epss_url, strchr(L->epss_url, '?') ? "&" : "?", qs) : NULL;
        if (NULL == keys[c])
            return SB_ENOMEM;
    }
    sb_code rc = svc_lk_fetch_bodies(L, ctx, a, K_EPSS, nch, keys, none, none, zero, bodies, lens, &capped);
    size_t unasked = 0;
    for (size_t c = 0; c < nch && rc == SB_OK; c++) {
        size_t m = cves.n - c * SB_EPSS_CHUNK < SB_EPSS_CHUNK ? cves.n - c * SB_EPSS_CHUNK : SB_EPSS_CHUNK;
        sb_code pr = bodies[c] ? sb_epss_apply(s, a, bodies[c], lens[c], &scored) : SB_EPARSE;
        if (pr == SB_EPARSE)
            unasked += m;
        else if (pr != SB_OK)
            rc = pr;
    }
    if (rc == SB_OK && unasked)
        rc = sb_incomplete_add(&s->incomplete, a, "epss", "%zu of %zu CVEs unscored (query failed%s)", unasked,
                               (size_t)cves.n, capped ? " or past the per-request lookup limit" : "");
    return rc;
}

/* OSV pagination: a query whose answer carries next_page_token is asked
 * again with page_token (only those, in chunks, one page a round) until no
 * token is left or it had OSV_MAX_PAGES pages. Each page is cached like the
 * first (its key is the question, token included). The ids of every page go
 * to hits[i]; *failed counts queries whose next page was not had, *truncated
 * those still holding a token after the last allowed page. */
static sb_code osv_pages(svc_lookup *L, svc_lookup_ctx *ctx, sb_arena *a, const char *batch_url, const sb_vuln_query *q,
                         size_t nq, sb_strv *hits, const char **tokens, size_t *failed, size_t *truncated)
{
    size_t *idx = sb_arena_alloc(a, nq * sizeof *idx);
    const char **tk = sb_arena_alloc(a, nq * sizeof *tk), **next = sb_arena_alloc(a, nq * sizeof *next);
    sb_strv *page = sb_arena_alloc(a, nq * sizeof *page);
    if (!idx || !tk || !next || !page)
        return SB_ENOMEM;
    for (int round = 2; round <= OSV_MAX_PAGES; round++) {
        size_t m = 0;
        for (size_t i = 0; i < nq; i++)
            if (tokens[i]) {
                idx[m] = i;
                tk[m++] = tokens[i];
            }
        if (0 == m)
            return SB_OK;
        size_t nch = (m + OSV_CHUNK - 1) / OSV_CHUNK;
        const char **keys = sb_arena_alloc(a, nch * sizeof *keys), **targets = sb_arena_alloc(a, nch * sizeof *targets);
        const char **posts = sb_arena_alloc(a, nch * sizeof *posts), **bodies = sb_arena_alloc(a, nch * sizeof *bodies);
        size_t *plens = sb_arena_alloc(a, nch * sizeof *plens), *blens = sb_arena_alloc(a, nch * sizeof *blens);
        if (!keys || !targets || !posts || !bodies || !plens || !blens)
            return SB_ENOMEM;
        for (size_t c = 0; c < nch; c++) {
            size_t off = c * OSV_CHUNK, cm = m - off < OSV_CHUNK ? m - off : OSV_CHUNK;
            if (sb_osv_batch_page_body(a, q, idx + off, tk + off, cm, &posts[c], &plens[c]) != SB_OK)
                return SB_ENOMEM;
            const char *h = sha1_hex(a, posts[c], plens[c]);
            if (NULL == h || NULL == (keys[c] = sb_arena_printf(a, "%s#%s", batch_url, h)))
                return SB_ENOMEM;
            targets[c] = batch_url;
        }
        size_t capped = 0;
        sb_code rc = svc_lk_fetch_bodies(L, ctx, a, K_OSV_BATCH, nch, keys, targets, posts, plens, bodies, blens,
                                         &capped);
        if (rc != SB_OK)
            return rc;
        for (size_t c = 0; c < nch; c++) {
            size_t off = c * OSV_CHUNK, cm = m - off < OSV_CHUNK ? m - off : OSV_CHUNK;
            int ok = bodies[c] && sb_osv_batch_parse_pages(a, bodies[c], blens[c], cm, page + off, next + off) == SB_OK;
            for (size_t k = off; k < off + cm; k++) {
                size_t i = idx[k];
                tokens[i] = ok ? next[k] : NULL;
                *failed += !ok;
                for (size_t j = 0; ok && j < page[k].n; j++) {
                    int seen = 0;
                    for (size_t h = 0; h < hits[i].n && !seen; h++)
                        seen = !strcmp(hits[i].v[h], page[k].v[j]);
                    if (!seen && sb_strv_push(&hits[i], a, page[k].v[j]) != SB_OK)
                        return SB_ENOMEM;
                }
            }
        }
    }
    for (size_t i = 0; i < nq; i++)
        *truncated += tokens[i] != NULL;
    return SB_OK;
}

/* Packages of an ecosystem OSV has no name for cannot be asked about: the
 * document says how many, and of which ecosystem. */
static sb_code note_unnamed(sb_sbom *s, sb_arena *a)
{
    size_t n = 0;
    const char *eco = NULL;
    for (size_t i = 0; i < s->npkgs; i++)
        if (sb_eco_is(s->pkgs[i].kind, SB_ECO_NO_OSV)) {
            n++;
            eco = sb_eco(s->pkgs[i].kind)->name;
        }
    return n ? sb_incomplete_add(&s->incomplete, a, "osv", "%zu package(s) not asked: OSV has no ecosystem for %s", n,
                                 eco)
             : SB_OK;
}

static sb_code vulns(void *cls, sb_sbom *s, sb_arena *a)
{
    svc_lookup_ctx *ctx = cls;
    svc_lookup *L = ctx && ctx->engine && ctx->engine->vulns ? ctx->engine : NULL;
    s->vulns_asked = true;
    sb_vuln_query *q = NULL;
    size_t nq = 0;
    if (sb_vuln_queries(s, a, &q, &nq) != SB_OK || note_unnamed(s, a) != SB_OK)
        return SB_ENOMEM;
    if (0 == nq)
        return sb_incomplete_add(&s->incomplete, a, "osv", "nothing queryable (no PyPI or npm purl with a version)");
    if (NULL == L)
        return sb_incomplete_add(&s->incomplete, a, "osv",
                                 "%zu of %zu purls unasked (this server makes no vulnerability lookups)", nq, nq);
    /* 1: querybatch in chunks */
    size_t nch = (nq + OSV_CHUNK - 1) / OSV_CHUNK;
    const char **keys = sb_arena_alloc(a, nch * sizeof *keys), **targets = sb_arena_alloc(a, nch * sizeof *targets);
    const char **posts = sb_arena_alloc(a, nch * sizeof *posts), **bodies = sb_arena_alloc(a, nch * sizeof *bodies);
    size_t *plens = sb_arena_alloc(a, nch * sizeof *plens), *blens = sb_arena_alloc(a, nch * sizeof *blens);
    sb_strv *hits = sb_arena_calloc(a, nq, sizeof *hits);
    const char **tokens = sb_arena_calloc(a, nq, sizeof *tokens);
    const char *batch_url = sb_arena_printf(a, "%s/v1/querybatch", L->osv_base);
    if (!keys || !targets || !posts || !bodies || !plens || !blens || !hits || !tokens || !batch_url)
        return SB_ENOMEM;
    for (size_t c = 0; c < nch; c++) {
        size_t off = c * OSV_CHUNK, m = nq - off < OSV_CHUNK ? nq - off : OSV_CHUNK;
        if (sb_osv_batch_body(a, q + off, m, &posts[c], &plens[c]) != SB_OK)
            return SB_ENOMEM;
        /* the cache key is the question: the same purls asked again within --osv-ttl reuse the answer */
        const char *h = sha1_hex(a, posts[c], plens[c]);
        keys[c] = h ? sb_arena_printf(a, "%s#%s", batch_url, h) : NULL;
        targets[c] = batch_url;
        if (NULL == keys[c])
            return SB_ENOMEM;
    }
    size_t capped = 0;
    sb_code rc = svc_lk_fetch_bodies(L, ctx, a, K_OSV_BATCH, nch, keys, targets, posts, plens, bodies, blens, &capped);
    if (rc != SB_OK)
        return rc;
    size_t unasked = 0;
    for (size_t c = 0; c < nch; c++) {
        size_t off = c * OSV_CHUNK, m = nq - off < OSV_CHUNK ? nq - off : OSV_CHUNK;
        if (NULL == bodies[c] || sb_osv_batch_parse_pages(a, bodies[c], blens[c], m, hits + off, tokens + off) != SB_OK)
            unasked += m;
    }
    if (unasked &&
        (rc = sb_incomplete_add(&s->incomplete, a, "osv", "%zu of %zu purls unasked (query failed%s)", unasked, nq,
                                capped ? " or past the per-request lookup limit" : "")) != SB_OK)
        return rc;
    size_t pages_failed = 0, truncated = 0;
    if ((rc = osv_pages(L, ctx, a, batch_url, q, nq, hits, tokens, &pages_failed, &truncated)) != SB_OK)
        return rc;
    if (pages_failed && (rc = sb_incomplete_add(&s->incomplete, a, "osv",
                                                "%zu of %zu purls' further result pages not fetched "
                                                "(query failed)",
                                                pages_failed, nq)) != SB_OK)
        return rc;
    if (truncated && (rc = sb_incomplete_add(&s->incomplete, a, "osv",
                                             "%zu of %zu purls have more than %d result pages "
                                             "(the rest unasked)",
                                             truncated, nq, OSV_MAX_PAGES)) != SB_OK)
        return rc;
    /* 2: each distinct advisory's record */
    sb_strv ids = {0};
    for (size_t i = 0; i < nq; i++)
        for (size_t k = 0; k < hits[i].n; k++) {
            int seen = 0;
            for (size_t j = 0; j < ids.n && !seen; j++)
                seen = !strcmp(ids.v[j], hits[i].v[k]);
            if (!seen && sb_strv_push(&ids, a, hits[i].v[k]) != SB_OK)
                return SB_ENOMEM;
        }
    if (0 == ids.n)
        return SB_OK;
    const char **rkeys = sb_arena_alloc(a, ids.n * sizeof *rkeys), **rnull = sb_arena_calloc(a, ids.n, sizeof *rnull);
    const char **rbodies = sb_arena_alloc(a, ids.n * sizeof *rbodies);
    size_t *rlens = sb_arena_alloc(a, ids.n * sizeof *rlens), *rplens = sb_arena_calloc(a, ids.n, sizeof *rplens);
    sb_vuln *recs = sb_arena_calloc(a, ids.n, sizeof *recs);
    if (!rkeys || !rnull || !rbodies || !rlens || !rplens || !recs)
        return SB_ENOMEM;
    for (size_t j = 0; j < ids.n; j++) {
        const char *seg = id_segment(a, ids.v[j]);
        if (NULL == seg || NULL == (rkeys[j] = sb_arena_printf(a, "%s/v1/vulns/%s", L->osv_base, seg)))
            return SB_ENOMEM;
    }
    capped = 0;
    if ((rc = svc_lk_fetch_bodies(L, ctx, a, K_OSV_VULN, ids.n, rkeys, rnull, rnull, rplens, rbodies, rlens,
                                  &capped)) != SB_OK)
        return rc;
    size_t byid = 0;
    for (size_t j = 0; j < ids.n; j++) {
        if (rbodies[j] && sb_osv_record_parse(a, rbodies[j], rlens[j], &recs[j]) == SB_OK &&
            !strcmp(recs[j].id, ids.v[j]))
            continue;
        /* no record: the finding is still listed, by its id alone */
        memset(&recs[j], 0, sizeof recs[j]);
        recs[j].id = ids.v[j];
        byid++;
    }
    if (byid &&
        (rc = sb_incomplete_add(&s->incomplete, a, "osv", "%zu of %zu advisory records not fetched (listed by id only)",
                                byid, (size_t)ids.n)) != SB_OK)
        return rc;
    if ((rc = sb_vuln_attach(s, a, q, hits, nq, recs, ids.n)) != SB_OK)
        return rc;
    if (ctx->kev && s->nvulns && (rc = lookup_kev(L, ctx, s, a)) != SB_OK)
        return rc;
    if (ctx->epss && s->nvulns && (rc = lookup_epss(L, ctx, s, a)) != SB_OK)
        return rc;
    size_t applied;
    if (ctx->vex && (rc = sb_vex_apply(s, a, ctx->vex, &applied)) != SB_OK)
        return rc;
    return SB_OK;
}

sb_code svc_lookup_vulns(void *cls, sb_sbom *s, sb_arena *a, sb_err *err)
{
    sb_code rc = vulns(cls, s, a);
    return rc == SB_OK ? rc : sb_err_set_code(err, rc, "the vulnerability lookups");
}
