/*
 * repeat.c - a request seen before: svc_req_repeat keys it (what shapes the
 * answer's bytes), derives the ETag, answers If-None-Match with 304 and a
 * result-cache hit from the stored bytes; and an embedded asset's answer
 * under the same conditional rules (svc_req_send_asset).
 */
#include "request_int.h"
#include "gzip.h"
#include "rcache.h"
#include "../../core/report.h"
#include "../../core/uuid.h"
#include "../lookup/mapsrc.h"
#include "../../core/version.h"

#include <stdio.h>
#include <string.h>


/* A gzip answer is other bytes, so it has its own strong ETag (RFC 9110
 * 8.8.3): "<tag>-gzip" of the identity answer's "<tag>" into out. */
void svc_req__gzip_etag(char *out, size_t cap, const char *etag)
{
    size_t n = strlen(etag);
    if (n >= 2)
        snprintf(out, cap, "%.*s-gzip\"", (int)(n - 1), etag);
}

static void key_str(sb_sha1 *c, const char *tag, const char *v)
{
    sb_sha1_update(c, tag, strlen(tag) + 1);
    if (v)
        sb_sha1_update(c, v, strlen(v) + 1);
    else
        sb_sha1_update(c, "\xff", 1); /* absent differs from empty */
}

static void key_num(sb_sha1 *c, const char *tag, long long v)
{
    /* "%lld" by hand: the key of every request hashes several numbers */
    char n[32], *e = n + sizeof n;
    unsigned long long u = v < 0 ? 0ull - (unsigned long long)v : (unsigned long long)v;
    *--e = '\0';
    do
        *--e = (char)('0' + u % 10);
    while (u /= 10);
    if (v < 0)
        *--e = '-';
    key_str(c, tag, e);
}

static int key_query(void *cls, const char *key, const char *value)
{
    key_str(cls, "?", key);
    key_str(cls, "=", value);
    return 0;
}

/* Whether the answer depends on network answers (license lookups, OSV,
 * KEV/EPSS, PyPI releases):
 * those bytes change with what the indexes say, so they get no validator
 * and are not kept. -1 when a parameter is malformed (the handler answers). */
static int needs_network(svc_req *r)
{
    const sb_report_kind *k = svc_req_report(r);
    if (k && (k->needs_vulns || k->needs_health)) /* a report about upstream data */
        return 1;
    /* the parameters the table marks as asking an upstream (a boolean only
     * when true), as the query's one parse left them */
    for (const svc_qparam *q = svc_qparams(); q->name; q++)
        if (q->upstream && svc_query_on(&r->query, q))
            return 1;
    return 0;
}

/* Whether If-None-Match lists etag (weak comparison, as RFC 9110 asks for
 * If-None-Match; "*" is not taken: the answer is computed, not stored). */
int svc_req__none_match(const char *inm, const char *etag)
{
    if (NULL == inm || !etag[0])
        return 0;
    size_t n = strlen(etag);
    const char *p = inm;
    while (*p) {
        while (*p == ' ' || *p == '\t' || *p == ',')
            p++;
        if (!strncmp(p, "W/", 2))
            p += 2;
        size_t k = strcspn(p, ",");
        size_t t = k;
        while (t && (p[t - 1] == ' ' || p[t - 1] == '\t'))
            t--;
        if (t == n && !memcmp(p, etag, n))
            return 1;
        p += k;
    }
    return 0;
}

int svc_req__not_modified(svc_req *r, const char *etag)
{
    struct MHD_Response *resp = MHD_create_response_from_buffer(0, (void *)"", MHD_RESPMEM_PERSISTENT);
    if (NULL == resp)
        return -1;
    MHD_add_response_header(resp, MHD_HTTP_HEADER_ETAG, etag);
    MHD_add_response_header(resp, MHD_HTTP_HEADER_VARY, "Accept-Encoding");
    return svc_req__queue(r, 304, resp);
}

/* svc_req_repeat's "answered" path: the 304 queued, 1 returned, what the
 * queueing gave in *rc (the return stays visible at the call). */
static int answer_not_modified(svc_req *r, int *rc)
{
    *rc = svc_req__not_modified(r, r->etag);
    return 1;
}

/* r->etag (the identity answer's) kept as etag_base, and made the ETag of
 * the coding this request gets (gzip_etag). */
static void etag_for_coding(svc_req *r)
{
    snprintf(r->etag_base, sizeof r->etag_base, "%s", r->etag);
    if (svc_gzip_wanted(svc_req_header(r, "Accept-Encoding")))
        svc_req__gzip_etag(r->etag, sizeof r->etag, r->etag_base);
}

int svc_req_repeat(svc_req *r, int *rc)
{
    const svc_cfg *cfg = &r->srv->cfg;
    if (needs_network(r))
        return 0;
    /* the timestamp as the document will have it */
    long long ts = r->query.timestamp >= 0 ? r->query.timestamp : (long long)svc_req_wall(r);
    sb_sha1 c;
    sb_sha1_init(&c);
    /* the server: its version and every setting that changes output bytes */
    key_str(&c, "sbomd", SB_VERSION);
    key_num(&c, "source-date-epoch", cfg->source_date_epoch);
    key_str(&c, "package-cache", cfg->package_cache);
    key_num(&c, "license-file-max", cfg->license_file_max);
    key_num(&c, "license-texts-max", cfg->license_texts_max);
    key_str(&c, "author", cfg->sbom_author);
    if (cfg->detector_url[0]) /* absent adds nothing: keys without it stay as they were */
        key_str(&c, "detector-url", cfg->detector_url);
    key_str(&c, "pypi-mapping-file", cfg->pypi_mapping_file);
    unsigned char md[20];
    if (svc_mapsrc_digest(r->srv->mapsrc, md)) { /* --pypi-mapping-url: the bytes it gave last */
        key_num(&c, "pypi-mapping", (long long)sizeof md);
        sb_sha1_update(&c, md, sizeof md);
    }
    key_str(&c, "policy-file", cfg->policy_file);
    key_num(&c, "max-packages", cfg->max_packages);
    key_num(&c, "max-documents", cfg->max_documents);
    key_num(&c, "max-depth", cfg->max_depth);
    key_num(&c, "max-scalar", cfg->max_scalar);
    /* the request */
    key_str(&c, "method", r->method);
    key_str(&c, "path", r->path);
    svc_req_query_each(r, key_query, &c);
    static const char *const heads[] = {"Accept", "Content-Type", "Content-Disposition", "Content-Encoding"};
    for (size_t i = 0; i < sizeof heads / sizeof heads[0]; i++)
        key_str(&c, heads[i], svc_req_header(r, heads[i]));
    /* the body by its digest, which the intake reuses for the serial */
    sb_sha1 bc;
    sb_sha1_init(&bc);
    sb_sha1_update(&bc, r->body.data ? r->body.data : "", r->body.len);
    sb_sha1_final(&bc, r->body_sha1);
    r->body_hashed = 1;
    key_num(&c, "body", (long long)r->body.len);
    sb_sha1_update(&c, r->body_sha1, sizeof r->body_sha1);
    sb_sha1_final(&c, r->rkey);
    r->keyed = 1;
    /* the ETag: the key and the timestamp (a request without timestamp=
     * gets its arrival, so the same key a second later is other bytes) */
    unsigned char tag[20];
    sb_sha1_init(&c);
    sb_sha1_update(&c, r->rkey, sizeof r->rkey);
    key_num(&c, "timestamp", ts);
    sb_sha1_final(&c, tag);
    char *e = r->etag;
    *e++ = '"';
    for (size_t i = 0; i < 16; i++) { /* "%02x" without sprintf */
        *e++ = "0123456789abcdef"[tag[i] >> 4];
        *e++ = "0123456789abcdef"[tag[i] & 15];
    }
    *e++ = '"';
    *e = '\0';
    etag_for_coding(r);

    const char *inm = svc_req_header(r, "If-None-Match");
    svc_rentry *hit = svc_rcache_get(r->srv->rcache, r->rkey);
    if (r->srv->rcache)
        atomic_fetch_add(hit ? &r->srv->metrics.rcache_hits : &r->srv->metrics.rcache_misses, 1);
    if (NULL == hit) {
        if (svc_req__none_match(inm, r->etag))
            return answer_not_modified(r, rc);
        return 0;
    }
    /* the answer made the first time, timestamp and serial included */
    r->hit = hit;
    r->keyed = 0; /* nothing to capture */
    snprintf(r->etag, sizeof r->etag, "%s", hit->etag);
    etag_for_coding(r);
    svc_req_note(r, hit->format, hit->packages);
    svc_req_count(r, hit->ndocs, hit->kind);
    svc_req_mark(r, "cache");
    if (svc_req__none_match(inm, r->etag))
        return answer_not_modified(r, rc);
    for (unsigned i = 0; i < hit->nheaders; i++)
        svc_req_add_header(r, hit->hname[i], hit->hvalue[i]);
    r->ctype = hit->ctype;
    /* streamed from the entry (the request holds a reference) like any
     * document: chunked, as the contract says, gzip when asked */
    *rc = svc_req__stream_answer(r, 200, hit->ctype);
    return 1;
}

/* An embedded asset (page, contract, schema): its ETag, a 304 when the
 * client has it, gzip when asked. */
int svc_req_send_asset(svc_req *r, const char *content_type, const char *body, size_t len, const char *etag)
{
    int gz = len >= 1024 && svc_gzip_wanted(svc_req_header(r, "Accept-Encoding"));
    const char *tag = etag;
    char zt[64];
    if (etag && gz && strlen(etag) + 6 <= sizeof zt) {
        svc_req__gzip_etag(zt, sizeof zt, etag);
        tag = zt;
    }
    if (tag && svc_req__none_match(svc_req_header(r, "If-None-Match"), tag))
        return svc_req__not_modified(r, tag);
    char *z = NULL;
    size_t zn = 0;
    if (gz && svc_gzip_buffer(r->arena, body, len, SVC_GZIP_LEVEL, &z, &zn) != 0)
        gz = 0, tag = etag;
    struct MHD_Response *resp = MHD_create_response_from_buffer(gz ? zn : len, (void *)(gz ? z : body),
                                                                MHD_RESPMEM_MUST_COPY);
    if (NULL == resp)
        return -1;
    MHD_add_response_header(resp, MHD_HTTP_HEADER_CONTENT_TYPE, content_type);
    MHD_add_response_header(resp, MHD_HTTP_HEADER_VARY, "Accept-Encoding");
    if (gz)
        MHD_add_response_header(resp, MHD_HTTP_HEADER_CONTENT_ENCODING, "gzip");
    if (tag)
        MHD_add_response_header(resp, MHD_HTTP_HEADER_ETAG, tag);
    r->bytes_out += gz ? zn : len;
    return svc_req__queue(r, 200, resp);
}
