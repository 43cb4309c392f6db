/*
 * vuln.c - OSV answers into merged, sorted findings (see vuln.h), and the
 * CVSS v3 base score.
 *
 * The CVSS v3.x base score is computed from the vector with the formula of
 * FIRST's CVSS v3.1 specification (section 7.1 and Appendix A's Roundup);
 * v3.0 vectors use v3.0's plain round-up to one decimal.
 */
#include "vuln.h"
#include "ecosystem.h"
#include "gate.h"
#include "jsonw.h"
#include "purl.h"
#include "strmap.h"

#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

static const char *const sev_names[] = {"unknown", "none", "low", "medium", "high", "critical"};

const char *sb_sev_name(sb_sev s)
{
    return sev_names[s];
}

sb_sev sb_sev_parse(const char *s)
{
    if (NULL == s)
        return SB_SEV_UNKNOWN;
    if (!strcasecmp(s, "moderate"))
        return SB_SEV_MEDIUM;
    for (int i = 1; i <= SB_SEV_CRITICAL; i++)
        if (!strcasecmp(s, sev_names[i]))
            return (sb_sev)i;
    return SB_SEV_UNKNOWN;
}

sb_sev sb_sev_of_score(double score)
{
    if (score < 0)
        return SB_SEV_UNKNOWN;
    if (score == 0.0)
        return SB_SEV_NONE;
    if (score < 4.0)
        return SB_SEV_LOW;
    if (score < 7.0)
        return SB_SEV_MEDIUM;
    if (score < 9.0)
        return SB_SEV_HIGH;
    return SB_SEV_CRITICAL;
}

/* v3.1 Appendix A: the smallest one-decimal number >= x, computed on
 * integers so that 4.000000001 is not taken up to 4.1 by float noise. */
static double roundup31(double x)
{
    long long i = llround(x * 100000.0);
    if (i % 10000 == 0)
        return (double)i / 100000.0;
    return (double)(i / 10000 + 1) / 10.0;
}

static double roundup30(double x)
{
    return ceil(x * 10.0) / 10.0;
}

/* The value of metric `m` ("AV") in the vector, its one-letter code, or 0. */
static char metric(const char *vector, const char *m)
{
    size_t ml = strlen(m);
    char found = 0;
    for (const char *p = vector; p && *p;) {
        const char *slash = strchr(p, '/');
        size_t n = slash ? (size_t)(slash - p) : strlen(p);
        if (n == ml + 2 && !strncmp(p, m, ml) && p[ml] == ':') {
            if (found)
                return 0; /* a metric given twice is no vector */
            found = p[ml + 1];
        }
        p = slash ? slash + 1 : NULL;
    }
    return found;
}

double sb_cvss3_base(const char *vector)
{
    int v31;
    if (NULL == vector)
        return -1;
    if (!strncmp(vector, "CVSS:3.1/", 9))
        v31 = 1;
    else if (!strncmp(vector, "CVSS:3.0/", 9))
        v31 = 0;
    else
        return -1;
    const char *v = vector + 9;
    char av = metric(v, "AV"), ac = metric(v, "AC"), pr = metric(v, "PR"), ui = metric(v, "UI"), s = metric(v, "S"),
         c = metric(v, "C"), i = metric(v, "I"), a = metric(v, "A");
    double AV, AC, PR, UI, C, I, A;
    switch (av) {
    case 'N': AV = 0.85; break;
    case 'A': AV = 0.62; break;
    case 'L': AV = 0.55; break;
    case 'P': AV = 0.2; break;
    default: return -1;
    }
    switch (ac) {
    case 'L': AC = 0.77; break;
    case 'H': AC = 0.44; break;
    default: return -1;
    }
    if (s != 'U' && s != 'C')
        return -1;
    int changed = s == 'C';
    switch (pr) {
    case 'N': PR = 0.85; break;
    case 'L': PR = changed ? 0.68 : 0.62; break;
    case 'H': PR = changed ? 0.5 : 0.27; break;
    default: return -1;
    }
    switch (ui) {
    case 'N': UI = 0.85; break;
    case 'R': UI = 0.62; break;
    default: return -1;
    }
    char cia[3] = {c, i, a};
    double *out[3] = {&C, &I, &A};
    for (int k = 0; k < 3; k++) {
        switch (cia[k]) {
        case 'H': *out[k] = 0.56; break;
        case 'L': *out[k] = 0.22; break;
        case 'N': *out[k] = 0.0; break;
        default: return -1;
        }
    }
    double iss = 1.0 - (1.0 - C) * (1.0 - I) * (1.0 - A);
    double impact = changed ? 7.52 * (iss - 0.029) - 3.25 * pow(iss - 0.02, 15) : 6.42 * iss;
    double exploit = 8.22 * AV * AC * PR * UI;
    if (impact <= 0)
        return 0.0;
    double raw = changed ? 1.08 * (impact + exploit) : impact + exploit;
    if (raw > 10.0)
        raw = 10.0;
    return v31 ? roundup31(raw) : roundup30(raw);
}

/* --- queries -------------------------------------------------------------- */

/* A purl OSV can answer for: pypi or npm, with a version, no qualifiers
 * (vcs_url / download_url name something else than the index package). */
static int queryable(sb_arena *a, const char *purl)
{
    if (strncmp(purl, "pkg:pypi/", 9) && strncmp(purl, "pkg:npm/", 8))
        return 0;
    sb_purl pu;
    return sb_purl_parse(&pu, a, purl, NULL) == SB_OK && pu.version && 0 == pu.nquals && NULL == pu.subpath;
}

sb_code sb_vuln_queries(const sb_sbom *s, sb_arena *a, sb_vuln_query **out, size_t *n)
{
    size_t cap = 0;
    for (size_t i = 0; i < s->npkgs; i++)
        cap += 1 + sb_pkg_xr(&s->pkgs[i])->extra_purls.n;
    sb_vuln_query *q = sb_arena_alloc(a, (cap ? cap : 1) * sizeof *q);
    if (NULL == q)
        return SB_ENOMEM;
    size_t m = 0;
    for (size_t i = 0; i < s->npkgs; i++) {
        const sb_pkg *p = &s->pkgs[i];
        if (sb_eco_is(p->kind, SB_ECO_NO_VULNS))
            continue;
        for (size_t k = 0; k <= sb_pkg_xr(p)->extra_purls.n; k++) {
            const char *u = k ? sb_pkg_xr(p)->extra_purls.v[k - 1] : p->purl;
            int seen = 0;
            for (size_t j = 0; j < m && !seen; j++)
                seen = q[j].pkg == i && !strcmp(q[j].purl, u);
            if (!seen && queryable(a, u))
                q[m++] = (sb_vuln_query){u, i};
        }
    }
    *out = q;
    *n = m;
    return SB_OK;
}

static int buf_write(void *payload, const char *p, size_t n)
{
    return sb_buf_append(payload, p, n) == SB_OK ? 0 : -1;
}

/* A querybatch body: query k asks q[idx ? idx[k] : k].purl, with
 * "page_token": tokens[k] when tokens is given (a further page). */
static sb_code batch_body(sb_arena *a, const sb_vuln_query *q, const size_t *idx, const char *const *tokens, size_t n,
                          const char **body, size_t *len)
{
    sb_buf b = SB_BUF_INIT(64u << 20);
    sb_jw jw;
    sb_jw_init(&jw, (sb_sink){buf_write, &b}, false);
    sb_jw_obj_begin(&jw);
    sb_jw_key(&jw, "queries");
    sb_jw_arr_begin(&jw);
    for (size_t i = 0; i < n; i++) {
        sb_jw_obj_begin(&jw);
        sb_jw_key(&jw, "package");
        sb_jw_obj_begin(&jw);
        sb_jw_kstr(&jw, "purl", q[idx ? idx[i] : i].purl);
        sb_jw_obj_end(&jw);
        if (tokens)
            sb_jw_kstr(&jw, "page_token", tokens[i]);
        sb_jw_obj_end(&jw);
    }
    sb_jw_arr_end(&jw);
    sb_jw_obj_end(&jw);
    sb_code rc = jw.status;
    if (rc == SB_OK) {
        *body = sb_arena_strndup(a, b.data, b.len);
        *len = b.len;
        rc = *body ? SB_OK : SB_ENOMEM;
    }
    sb_buf_free(&b);
    return rc;
}

sb_code sb_osv_batch_body(sb_arena *a, const sb_vuln_query *q, size_t n, const char **body, size_t *len)
{
    return batch_body(a, q, NULL, NULL, n, body, len);
}

sb_code sb_osv_batch_page_body(sb_arena *a, const sb_vuln_query *q, const size_t *idx, const char *const *tokens,
                               size_t n, const char **body, size_t *len)
{
    return batch_body(a, q, idx, tokens, n, body, len);
}

/* A page token worth sending back: a short printable string (it goes into
 * a JSON body the writer escapes, but a huge one is no token). */
static const char *page_token(sb_arena *a, json_t *v)
{
    const char *t = json_string_value(v);
    if (NULL == t || !t[0] || strlen(t) > 1024)
        return NULL;
    for (const char *c = t; *c; c++)
        if ((unsigned char)*c < 0x20 || *c == 0x7f)
            return NULL;
    return sb_arena_strdup(a, t);
}

sb_code sb_osv_batch_parse_pages(sb_arena *a, const char *json, size_t len, size_t n, sb_strv *ids, const char **next)
{
    json_t *root = json_loadb(json, len, 0, NULL);
    json_t *res = root ? json_object_get(root, "results") : NULL;
    sb_code rc = SB_OK;
    if (!json_is_array(res) || json_array_size(res) != n) {
        json_decref(root);
        return SB_EPARSE;
    }
    for (size_t i = 0; i < n && rc == SB_OK; i++) {
        memset(&ids[i], 0, sizeof ids[i]);
        json_t *r = json_array_get(res, i);
        if (next)
            next[i] = page_token(a, json_object_get(r, "next_page_token"));
        json_t *vs = json_object_get(r, "vulns");
        size_t k;
        json_t *v;
        json_array_foreach(vs, k, v) {
            const char *id = json_string_value(json_object_get(v, "id"));
            if (id && id[0] && strlen(id) < 128 && (rc = sb_strv_push(&ids[i], a, sb_arena_strdup(a, id))) != SB_OK)
                break;
        }
    }
    json_decref(root);
    return rc;
}

sb_code sb_osv_batch_parse(sb_arena *a, const char *json, size_t len, size_t n, sb_strv *ids)
{
    return sb_osv_batch_parse_pages(a, json, len, n, ids, NULL);
}

/* --- records -------------------------------------------------------------- */

static const char *str_or_null(sb_arena *a, json_t *v)
{
    const char *s = json_string_value(v);
    return s && s[0] ? sb_arena_strdup(a, s) : NULL;
}

/* timestamps as YYYY-MM-DDThh:mm:ssZ, fractions and offsets gone
 * (an offset other than Z/+00:00 is applied); NULL when unparsable. */
static const char *norm_time(sb_arena *a, const char *s)
{
    int Y, M, D, h, m, sec, n = 0;
    if (NULL == s || sscanf(s, "%4d-%2d-%2dT%2d:%2d:%2d%n", &Y, &M, &D, &h, &m, &sec, &n) != 6 || n != 19)
        return NULL;
    const char *t = s + 19;
    if (*t == '.')
        for (t++; *t >= '0' && *t <= '9'; t++)
            ;
    if (*t == 'Z' || *t == 'z') {
        t++;
    } else if ((*t == '+' || *t == '-') && t[1] && t[2] && t[3] == ':') {
        int oh, om;
        if (sscanf(t + 1, "%2d:%2d", &oh, &om) != 2)
            return NULL;
        struct tm tm = {.tm_year = Y - 1900, .tm_mon = M - 1, .tm_mday = D, .tm_hour = h, .tm_min = m, .tm_sec = sec};
        time_t tt = timegm(&tm) - (*t == '+' ? 1 : -1) * (oh * 3600 + om * 60);
        struct tm out;
        if (NULL == gmtime_r(&tt, &out))
            return NULL;
        return sb_arena_printf(a, "%04d-%02d-%02dT%02d:%02d:%02dZ", out.tm_year + 1900, out.tm_mon + 1, out.tm_mday,
                               out.tm_hour, out.tm_min, out.tm_sec);
    } else if (*t) {
        return NULL;
    }
    if (M < 1 || M > 12 || D < 1 || D > 31 || h > 23 || m > 59 || sec > 60)
        return NULL;
    return sb_arena_printf(a, "%04d-%02d-%02dT%02d:%02d:%02dZ", Y, M, D, h, m, sec);
}

/* Release segments compared numerically where both are numbers ("2.10" >
 * "2.9"), else as strings: enough to pick the lowest of a record's fixed
 * versions, which is all this is used for. */
static int vers_cmp(const char *x, const char *y)
{
    while (*x || *y) {
        char *ex, *ey;
        long a = strtol(x, &ex, 10), b = strtol(y, &ey, 10);
        if (ex != x && ey != y) {
            if (a != b)
                return a < b ? -1 : 1;
            x = ex, y = ey;
        } else {
            size_t nx = strcspn(x, "."), ny = strcspn(y, ".");
            int c = strncmp(x, y, nx < ny ? nx : ny);
            if (c || nx != ny)
                return c ? c : (nx < ny ? -1 : 1);
            x += nx, y += ny;
        }
        if (*x == '.')
            x++;
        if (*y == '.')
            y++;
    }
    return 0;
}

static char *norm_name(sb_arena *a, const char *eco, const char *name)
{
    return strcmp(eco, "PyPI") ? sb_arena_strdup(a, name) : sb_model_pep503(a, name);
}

static sb_code add_rating(sb_arena *a, sb_vuln *v, size_t *cap, sb_vuln_rating r)
{
    for (size_t i = 0; i < v->nratings; i++)
        if (!strcmp(v->ratings[i].method, r.method) &&
            (v->ratings[i].vector ? r.vector && !strcmp(v->ratings[i].vector, r.vector)
                                  : NULL == r.vector && v->ratings[i].severity == r.severity))
            return SB_OK;
    sb_vuln_rating *nr = sb_arena_grow(a, v->ratings, cap, v->nratings, sizeof *nr, 4);
    if (NULL == nr)
        return SB_ENOMEM;
    v->ratings = nr;
    v->ratings[v->nratings++] = r;
    return SB_OK;
}

sb_code sb_osv_record_parse(sb_arena *a, const char *json, size_t len, sb_vuln *out)
{
    memset(out, 0, sizeof *out);
    json_t *root = json_loadb(json, len, 0, NULL);
    const char *id = root ? json_string_value(json_object_get(root, "id")) : NULL;
    if (NULL == id || !id[0] || strlen(id) >= 128) {
        json_decref(root);
        return SB_EPARSE;
    }
    sb_code rc = SB_OK;
    out->record = 1;
    out->id = sb_arena_strdup(a, id);
    out->summary = str_or_null(a, json_object_get(root, "summary"));
    out->details = str_or_null(a, json_object_get(root, "details"));
    out->published = norm_time(a, json_string_value(json_object_get(root, "published")));
    out->modified = norm_time(a, json_string_value(json_object_get(root, "modified")));
    size_t i;
    json_t *v;
    json_array_foreach(json_object_get(root, "aliases"), i, v) {
        const char *s = json_string_value(v);
        if (s && s[0] && strcmp(s, id) && rc == SB_OK)
            rc = sb_strv_push(&out->aliases, a, sb_arena_strdup(a, s));
    }
    size_t rcap = 0;
    json_t *dbs = json_object_get(root, "database_specific");
    sb_sev dbsev = sb_sev_parse(json_string_value(json_object_get(dbs, "severity")));
    if (dbsev != SB_SEV_UNKNOWN && rc == SB_OK)
        rc = add_rating(a, out, &rcap, (sb_vuln_rating){"other", NULL, -1, dbsev});
    json_array_foreach(json_object_get(root, "severity"), i, v) {
        const char *type = json_string_value(json_object_get(v, "type"));
        const char *score = json_string_value(json_object_get(v, "score"));
        if (NULL == type || NULL == score || rc != SB_OK)
            continue;
        sb_vuln_rating r = {NULL, sb_arena_strdup(a, score), -1, SB_SEV_UNKNOWN};
        if (!strcmp(type, "CVSS_V3")) {
            r.method = !strncmp(score, "CVSS:3.1/", 9) ? "CVSSv31" : "CVSSv3";
            r.score = sb_cvss3_base(score);
            r.severity = sb_sev_of_score(r.score);
        } else if (!strcmp(type, "CVSS_V4")) {
            r.method = "CVSSv4";
        } else if (!strcmp(type, "CVSS_V2")) {
            r.method = "CVSSv2";
        } else {
            continue;
        }
        rc = add_rating(a, out, &rcap, r);
    }
    /* CWEs: GitHub's database_specific.cwe_ids ("CWE-79") */
    json_t *cw = json_object_get(dbs, "cwe_ids");
    out->cwes = sb_arena_alloc(a, (json_array_size(cw) + 1) * sizeof *out->cwes);
    json_array_foreach(cw, i, v) {
        const char *s = json_string_value(v);
        if (out->cwes && s && !strncmp(s, "CWE-", 4) && atoi(s + 4) > 0)
            out->cwes[out->ncwes++] = atoi(s + 4);
    }
    json_t *refs = json_object_get(root, "references");
    out->refs = sb_arena_alloc(a, (json_array_size(refs) + 1) * sizeof *out->refs);
    json_array_foreach(refs, i, v) {
        const char *t = json_string_value(json_object_get(v, "type"));
        const char *u = json_string_value(json_object_get(v, "url"));
        if (out->refs && t && u && (!strncmp(u, "https://", 8) || !strncmp(u, "http://", 7)))
            out->refs[out->nrefs++] = (sb_vuln_ref){sb_arena_strdup(a, t), sb_arena_strdup(a, u)};
    }
    json_t *aff = json_object_get(root, "affected");
    size_t na = json_array_size(aff);
    out->aff_names = sb_arena_calloc(a, na + 1, sizeof *out->aff_names);
    out->aff_fixed = sb_arena_calloc(a, na + 1, sizeof *out->aff_fixed);
    out->aff_eco = sb_arena_calloc(a, na + 1, sizeof *out->aff_eco);
    json_array_foreach(aff, i, v) {
        json_t *pkg = json_object_get(v, "package");
        const char *eco = json_string_value(json_object_get(pkg, "ecosystem"));
        const char *name = json_string_value(json_object_get(pkg, "name"));
        if (!out->aff_names || !out->aff_fixed || !out->aff_eco || !eco || !name || !name[0])
            continue;
        const char *fixed = NULL;
        size_t r;
        json_t *range;
        json_array_foreach(json_object_get(v, "ranges"), r, range) {
            size_t e;
            json_t *ev;
            json_array_foreach(json_object_get(range, "events"), e, ev) {
                const char *f = json_string_value(json_object_get(ev, "fixed"));
                if (f && f[0] && (NULL == fixed || vers_cmp(f, fixed) < 0))
                    fixed = f;
            }
        }
        out->aff_eco[out->naff] = sb_arena_strdup(a, eco);
        out->aff_names[out->naff] = norm_name(a, eco, name);
        out->aff_fixed[out->naff] = fixed ? sb_arena_strdup(a, fixed) : NULL;
        out->naff++;
    }
    json_decref(root);
    if (NULL == out->id || NULL == out->cwes || NULL == out->refs)
        rc = SB_ENOMEM;
    return rc;
}

/* --- merging -------------------------------------------------------------- */

static size_t uf_find(size_t *parent, size_t x)
{
    while (parent[x] != x)
        x = parent[x] = parent[parent[x]];
    return x;
}

/* Which of two twins names the finding: a reviewed GHSA, then PYSEC, then
 * by id. */
static int id_rank(const char *id)
{
    return !strncmp(id, "GHSA-", 5) ? 0 : !strncmp(id, "PYSEC-", 6) ? 1 : 2;
}

static int better_id(const char *x, const char *y)
{
    int rx = id_rank(x), ry = id_rank(y);
    return rx != ry ? rx < ry : strcmp(x, y) < 0;
}

static int strv_has(const sb_strv *v, const char *s)
{
    for (size_t i = 0; i < v->n; i++)
        if (!strcmp(v->v[i], s))
            return 1;
    return 0;
}

static int vuln_cmp(const void *x, const void *y)
{
    const sb_vuln *a = x, *b = y;
    if (a->severity != b->severity)
        return (int)b->severity - (int)a->severity;
    if (a->score != b->score)
        return a->score < b->score ? 1 : -1;
    return strcmp(a->id, b->id);
}

static int size_cmp(const void *x, const void *y)
{
    size_t a = *(const size_t *)x, b = *(const size_t *)y;
    return a < b ? -1 : a > b;
}

/* The name a package goes by in an advisory's affected[] list. */
static const char *pkg_name_for(const sb_sbom *s, sb_arena *a, size_t pkg, const char *purl)
{
    sb_purl pu;
    if (sb_purl_parse(&pu, a, purl, NULL) != SB_OK)
        return s->pkgs[pkg].name;
    if (pu.ns)
        return sb_arena_printf(a, "%s/%s", pu.ns, pu.name);
    return pu.name;
}

sb_code sb_vuln_attach(sb_sbom *s, sb_arena *a, const sb_vuln_query *q, const sb_strv *hits, size_t nq, sb_vuln *recs,
                       size_t nrecs)
{
    s->nvulns = 0;
    if (0 == nrecs)
        return SB_OK;
    sb_strmap ids;
    size_t *parent = sb_arena_alloc(a, nrecs * sizeof *parent);
    if (NULL == parent || sb_strmap_init(&ids, a, nrecs * 4) != SB_OK)
        return SB_ENOMEM;
    for (size_t i = 0; i < nrecs; i++) {
        parent[i] = i;
        if (sb_strmap_put(&ids, recs[i].id, strlen(recs[i].id), i, NULL) < 0)
            return SB_ENOMEM;
    }
    /* twins: a record whose id or alias another record has */
    for (size_t i = 0; i < nrecs; i++)
        for (size_t k = 0; k < recs[i].aliases.n; k++) {
            const char *al = recs[i].aliases.v[k];
            size_t j;
            int r = sb_strmap_put(&ids, al, strlen(al), i, &j);
            if (r < 0)
                return SB_ENOMEM;
            if (r == 1) {
                size_t ri = uf_find(parent, i), rj = uf_find(parent, j);
                if (ri != rj)
                    parent[ri > rj ? ri : rj] = ri < rj ? ri : rj;
            }
        }
    sb_vuln *out = sb_arena_calloc(a, nrecs, sizeof *out);
    size_t *slot = sb_arena_alloc(a, nrecs * sizeof *slot);
    if (NULL == out || NULL == slot)
        return SB_ENOMEM;
    size_t nout = 0;
    for (size_t i = 0; i < nrecs; i++)
        if (uf_find(parent, i) == i) {
            slot[i] = nout;
            out[nout] = recs[i];
            out[nout].aliases = (sb_strv){0};
            out[nout].ratings = NULL;
            out[nout].nratings = 0;
            out[nout].affects = sb_arena_alloc(a, (nq + 1) * sizeof *out[nout].affects);
            if (NULL == out[nout].affects)
                return SB_ENOMEM;
            nout++;
        }
    size_t *rcap = sb_arena_calloc(a, nout, sizeof *rcap);
    if (NULL == rcap)
        return SB_ENOMEM;
    /* fold each record into its finding */
    for (size_t i = 0; i < nrecs; i++) {
        sb_vuln *f = &out[slot[uf_find(parent, i)]];
        const sb_vuln *r = &recs[i];
        if (better_id(r->id, f->id) || (!f->record && r->record)) {
            const char *old = f->id;
            sb_strv al = f->aliases;
            sb_vuln_rating *rt = f->ratings;
            size_t nrt = f->nratings, *aff = f->affects;
            *f = *r;
            if (!better_id(r->id, old))
                f->id = old; /* the record's text, the better id */
            f->aliases = al;
            f->ratings = rt;
            f->nratings = nrt;
            f->affects = aff;
            f->naffects = 0;
            if (strcmp(old, f->id) && !strv_has(&f->aliases, old) && sb_strv_push(&f->aliases, a, old) != SB_OK)
                return SB_ENOMEM;
        }
        if (strcmp(r->id, f->id) && !strv_has(&f->aliases, r->id) && sb_strv_push(&f->aliases, a, r->id) != SB_OK)
            return SB_ENOMEM;
        for (size_t k = 0; k < r->aliases.n; k++)
            if (strcmp(r->aliases.v[k], f->id) && !strv_has(&f->aliases, r->aliases.v[k]) &&
                sb_strv_push(&f->aliases, a, r->aliases.v[k]) != SB_OK)
                return SB_ENOMEM;
        for (size_t k = 0; k < r->nratings; k++)
            if (add_rating(a, f, &rcap[f - out], r->ratings[k]) != SB_OK)
                return SB_ENOMEM;
        if (0 == f->ncwes && r->ncwes) {
            f->cwes = r->cwes;
            f->ncwes = r->ncwes;
        }
        if (!f->summary && r->summary)
            f->summary = r->summary;
    }
    /* which packages: the queries OSV answered with one of the finding's ids */
    for (size_t i = 0; i < nq; i++)
        for (size_t k = 0; k < hits[i].n; k++) {
            size_t j;
            if (!sb_strmap_get(&ids, hits[i].v[k], strlen(hits[i].v[k]), &j))
                continue;
            sb_vuln *f = &out[slot[uf_find(parent, j)]];
            int dup = 0;
            for (size_t m = 0; m < f->naffects && !dup; m++)
                dup = f->affects[m] == q[i].pkg;
            if (!dup)
                f->affects[f->naffects++] = q[i].pkg;
        }
    size_t kept = 0;
    for (size_t i = 0; i < nout; i++) {
        sb_vuln *f = &out[i];
        if (0 == f->naffects)
            continue; /* a record nothing asked about points nowhere */
        qsort(f->affects, f->naffects, sizeof *f->affects, size_cmp);
        f->severity = SB_SEV_UNKNOWN;
        f->score = -1;
        for (size_t k = 0; k < f->nratings; k++) {
            if (f->ratings[k].severity > f->severity)
                f->severity = f->ratings[k].severity;
            if (f->ratings[k].score > f->score)
                f->score = f->ratings[k].score;
        }
        /* recommendation: the fixed version the advisory gives for the
         * first affected package's name */
        const sb_pkg *p = &s->pkgs[f->affects[0]];
        const char *want = NULL;
        for (size_t qi = 0; qi < nq && !want; qi++)
            if (q[qi].pkg == f->affects[0])
                want = pkg_name_for(s, a, q[qi].pkg, q[qi].purl);
        const char *fixed = NULL;
        for (size_t r = 0; r < nrecs && want; r++) {
            if (slot[uf_find(parent, r)] != i)
                continue;
            for (size_t k = 0; k < recs[r].naff; k++)
                if (recs[r].aff_fixed[k] && !strcmp(recs[r].aff_names[k], want) &&
                    (NULL == fixed || vers_cmp(recs[r].aff_fixed[k], fixed) < 0))
                    fixed = recs[r].aff_fixed[k];
        }
        f->recommendation = fixed ? sb_arena_printf(a, "Upgrade %s to %s", p->name, fixed) : NULL;
        f->epss = f->epss_pct = -1; /* until an EPSS answer says otherwise */
        out[kept++] = *f;
    }
    qsort(out, kept, sizeof *out, vuln_cmp);
    s->vulns = out;
    s->nvulns = kept;
    return SB_OK;
}

const char *sb_vuln_url(sb_arena *a, const char *id)
{
    return sb_arena_printf(a, "https://osv.dev/vulnerability/%s", id);
}

int sb_vuln_accepted(const sb_vuln *v)
{
    return v->vex_state && (!strcmp(v->vex_state, "not_affected") || !strcmp(v->vex_state, "resolved") ||
                            !strcmp(v->vex_state, "false_positive"));
}

/* One gate finding per affected package of v. */
static sb_code gate_rows(const sb_sbom *s, sb_arena *a, const sb_vuln *v, const char *rule, const char *why, sb_gate *g)
{
    if (NULL == rule || NULL == why)
        return SB_ENOMEM;
    for (size_t k = 0; k < v->naffects; k++) {
        const sb_pkg *p = &s->pkgs[v->affects[k]];
        sb_finding f = {.package = p->name, .version = p->version, .rule = rule, .value = v->id, .reason = why};
        if (sb_gate_add(g, a, &f) != SB_OK)
            return SB_ENOMEM;
    }
    return SB_OK;
}

sb_code sb_vuln_gate(const sb_sbom *s, sb_arena *a, sb_sev min, int kev, double epss_min, sb_gate *g)
{
    for (size_t i = 0; i < s->nvulns; i++) {
        const sb_vuln *v = &s->vulns[i];
        if (sb_vuln_accepted(v))
            continue; /* VEX: not affected / resolved */
        const char *fix = v->recommendation ? v->recommendation : "";
        const char *sep = v->recommendation ? "; " : "";
        sb_code rc = SB_OK;
        if (min != SB_SEV_UNKNOWN && v->severity >= min)
            rc = gate_rows(s, a, v, sb_arena_printf(a, "severity>=%s", sb_sev_name(min)),
                           sb_arena_printf(a, "%s is rated %s%s%s", v->id, sb_sev_name(v->severity), sep, fix), g);
        if (rc == SB_OK && kev && v->kev)
            rc = gate_rows(s, a, v, "kev",
                           sb_arena_printf(a, "%s (%s) is in the CISA KEV catalog since %s%s%s", v->id,
                                           v->kev_cve ? v->kev_cve : "-", v->kev_added ? v->kev_added : "-", sep, fix),
                           g);
        if (rc == SB_OK && epss_min >= 0 && v->epss >= epss_min)
            rc = gate_rows(s, a, v, sb_arena_printf(a, "epss>=%g", epss_min),
                           sb_arena_printf(a, "%s (%s) has EPSS probability %s%s%s", v->id,
                                           v->epss_cve ? v->epss_cve : "-", v->epss_text ? v->epss_text : "-", sep,
                                           fix),
                           g);
        if (rc != SB_OK)
            return rc;
    }
    return SB_OK;
}
