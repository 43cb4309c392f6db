/*
 * report_licenses.c - the licenses report: one row per package
 * with its license, family, where the license came from and how many
 * license files, as JSON, an aligned text table, Markdown and CSV (the
 * JSON row's keys); the summary groups packages by license (most packages first) and
 * names those without a license or with one that is not an SPDX expression.
 * Under a license policy (core/policy.h, verdicts on the model) rows carry
 * the verdict, the summary lists violations and exemptions, and the report
 * is also SARIF 2.1.0 with one result per violation. A table report: the
 * shared machinery is in report.c (report_int.h).
 */
#include "policy.h"
#include "report_int.h"

#include <stdlib.h>
#include <string.h>

typedef struct lic_count {
    const char *license;
    size_t first, n; /* range in lreport.by_license */
} lic_count;

/* The licenses report's own state (r->own). */
typedef struct lreport {
    const sb_policy_verdict *pol; /* per package when a license policy was applied */
    size_t *by_license;           /* package indices with a license, grouped by it */
    lic_count *counts;            /* most packages first, then by license */
    size_t ncounts, nolic, notspdx;
    size_t unknown; /* of nolic: not known (the lockfile does not record it), not "none" */
} lreport;

static const char *const headers[] = {"Name", "Version", "Kind", "License", "Family", "Source", "Files", NULL};
/* under a policy: a Policy column */
static const char *const policy_headers[] = {"Name",   "Version", "Kind",  "License",
                                             "Family", "Source",  "Files", "Policy"};

/* The JSON row's keys, in its order; a policy adds its three at the end only */
static const char *const csv_headers[] = {
    "environment", "platform",       "name",           "version",       "kind", "license", "spdx",
    "spdx_reason", "license_family", "license_source", "license_files", "purl", NULL};
static const char *const csv_policy_headers[] = {"environment",    "platform",          "name",           "version",
                                                 "kind",           "license",           "spdx",           "spdx_reason",
                                                 "license_family", "license_source",    "license_files",  "purl",
                                                 "policy",         "license_violation", "license_exempt", NULL};

static const lreport *own(const sb_report__tab *r)
{
    return r->own;
}

/* ---- grouping by license --------------------------------------------------- */

static int count_cmp(const void *a, const void *b)
{
    const lic_count *x = a, *y = b;
    if (x->n != y->n)
        return x->n > y->n ? -1 : 1;
    return strcmp(x->license, y->license);
}

/* Packages with a license, in model order; those without and not SPDX counted. */
static sb_code count_licenses(sb_doc *d, const sb_report__tab *r, lreport *l)
{
    const sb_sbom *s = d->sbom;
    size_t n = 0;
    l->by_license = sb_arena_alloc(d->arena, (s->npkgs ? s->npkgs : 1) * sizeof *l->by_license);
    l->counts = sb_arena_alloc(d->arena, (s->npkgs ? s->npkgs : 1) * sizeof *l->counts);
    if (!l->by_license || !l->counts)
        return SB_ENOMEM;
    for (size_t i = 0; i < s->npkgs; i++) {
        if (r->lics[i].kind == SB_LIC_NONE) {
            l->nolic++;
            l->unknown += sb_pkg_license_unknown(&s->pkgs[i]) != NULL;
        } else
            l->by_license[n++] = i;
        l->notspdx += r->lics[i].kind == SB_LIC_TEXT;
    }
    return SB_OK;
}

/* Group packages by license: counts most-first, packages in model order. */
static sb_code group_licenses(sb_doc *d, const sb_report__tab *r, lreport *l)
{
    size_t n = d->sbom->npkgs - l->nolic;
    /* a stable merge sort by license (qsort has no context argument, and a
     * file-level pointer would be state shared between request threads) */
    size_t *tmp = sb_arena_alloc(d->arena, (n ? n : 1) * sizeof *tmp);
    if (NULL == tmp)
        return SB_ENOMEM;
    size_t *v = l->by_license;
    for (size_t width = 1; width < n; width *= 2) {
        for (size_t lo = 0; lo < n; lo += 2 * width) {
            size_t mid = lo + width < n ? lo + width : n, hi = lo + 2 * width < n ? lo + 2 * width : n;
            size_t a = lo, b = mid, k = lo;
            while (a < mid && b < hi)
                tmp[k++] = strcmp(r->lics[v[a]].value, r->lics[v[b]].value) <= 0 ? v[a++] : v[b++];
            while (a < mid)
                tmp[k++] = v[a++];
            while (b < hi)
                tmp[k++] = v[b++];
        }
        memcpy(v, tmp, n * sizeof *v);
    }
    for (size_t i = 0; i < n;) {
        size_t j = i + 1;
        while (j < n && !strcmp(r->lics[v[j]].value, r->lics[v[i]].value))
            j++;
        l->counts[l->ncounts++] = (lic_count){r->lics[v[i]].value, i, j - i};
        i = j;
    }
    qsort(l->counts, l->ncounts, sizeof *l->counts, count_cmp);
    return SB_OK;
}

static sb_code prepare(sb_doc *d, sb_report__tab *r)
{
    lreport *l = sb_arena_calloc(d->arena, 1, sizeof *l);
    if (NULL == l)
        return SB_ENOMEM;
    l->pol = d->sbom->policy;
    r->own = l;
    r->hdr = l->pol ? policy_headers : headers;
    r->csv_hdr = l->pol ? csv_policy_headers : csv_headers;
    sb_code rc = sb_report__all_rows(d, r);
    if (rc == SB_OK)
        rc = count_licenses(d, r, l);
    if (rc == SB_OK)
        rc = group_licenses(d, r, l);
    r->nsummary = r->text ? l->ncounts + 2 : (l->ncounts ? l->ncounts : 1);
    return rc;
}

/* ---- rows ------------------------------------------------------------------ */

static const char *files_count(sb_doc *d, const sb_pkg *p)
{
    const char *s = sb_arena_printf(d->arena, "%zu", (size_t)sb_pkg_xr(p)->nlicfiles);
    return s ? s : "?";
}

/* The Policy cell of a row. */
static const char *policy_label(const sb_policy_verdict *v)
{
    static const char *const labels[SB_POL_NRULES] = {"ok", "denied", "not allowed", "no license", "not SPDX"};
    if (v->exempt)
        return "exempt";
    return v->rule < SB_POL_NRULES ? labels[v->rule] : "?";
}

static void cells(sb_doc *d, const sb_report__tab *r, size_t i, const char *out[SB_REPORT__MAXCOLS])
{
    const sb_report__row *w = &r->rows[i];
    const sb_pkg *p = &d->sbom->pkgs[w->pkg];
    out[0] = p->name, out[1] = sb_report__dash(p->version), out[2] = sb_kind_name(p->kind);
    out[3] = sb_report__dash(r->lics[w->pkg].value), out[4] = sb_report__dash(sb_pkg_xr(p)->license_family);
    out[5] = sb_report__dash(sb_report__license_source(p)), out[6] = files_count(d, p);
    if (own(r)->pol)
        out[7] = policy_label(&own(r)->pol[w->pkg]);
}

static size_t csv_cells(sb_doc *d, const sb_report__tab *r, size_t i, const char **cv)
{
    const sb_report__row *w = &r->rows[i];
    const sb_pkg *p = &d->sbom->pkgs[w->pkg];
    const sb_lic *l = &r->lics[w->pkg];
    size_t n = 0;
    cv[n++] = p->name, cv[n++] = p->version, cv[n++] = sb_kind_name(p->kind), cv[n++] = l->value;
    n += sb_report__csv_license(d, p, l, cv + n);
    cv[n++] = p->purl;
    if (own(r)->pol) {
        const sb_policy_verdict *v = &own(r)->pol[w->pkg];
        cv[n++] = policy_label(v);
        cv[n++] = v->rule != SB_POL_PASS ? v->reason : NULL;
        cv[n++] = v->exempt;
    }
    return n;
}

static void json_row(sb_doc *d, const sb_report__tab *r, size_t i)
{
    sb_jw *jw = &d->jw;
    const sb_report__row *w = &r->rows[i];
    const sb_pkg *p = &d->sbom->pkgs[w->pkg];
    sb_report__json_row_open(jw, d->sbom, p);
    sb_report__kopt(jw, "name", p->name);
    sb_report__kopt(jw, "version", p->version);
    sb_jw_kstr(jw, "kind", sb_kind_name(p->kind));
    sb_report__kopt(jw, "license", r->lics[w->pkg].value);
    sb_report__json_license(jw, p, &r->lics[w->pkg]);
    sb_report__kopt(jw, "purl", p->purl);
    if (own(r)->pol) {
        const sb_policy_verdict *v = &own(r)->pol[w->pkg];
        sb_report__kopt(jw, "policy", policy_label(v));
        sb_report__kopt(jw, "license_violation", v->rule != SB_POL_PASS ? v->reason : NULL);
        sb_report__kopt(jw, "license_exempt", v->exempt);
    }
    sb_jw_obj_end(jw);
}

/* ---- text summary ---------------------------------------------------------- */

/* "No license (2): a, b" / "...: none"; want: 0 no license (stated so, or
 * nothing says it is not known: sb_report__unknown_line lists those), 1 not
 * an SPDX expression */
static void name_list(sb_doc *d, const sb_report__tab *r, const char *label, int want)
{
    const sb_sbom *s = d->sbom;
    const lreport *l = own(r);
    size_t n = want == 1 ? l->notspdx : l->nolic - l->unknown;
    if (!sb_report__list_open(d, r, label, n))
        return;
    size_t k = 0;
    int want_text = want == 1;
    for (size_t i = 0; i < s->npkgs; i++) {
        sb_lic_kind kd = r->lics[i].kind;
        if (want_text ? kd != SB_LIC_TEXT : kd != SB_LIC_NONE || sb_pkg_license_unknown(&s->pkgs[i]))
            continue;
        if (k++)
            sb_report__puts(d, ", ");
        sb_report__put_cell(d, s->pkgs[i].name, 0);
        if (want_text) {
            sb_report__puts(d, " (");
            sb_report__put_cell(d, r->lics[i].reason ? r->lics[i].reason : "not an SPDX expression", 0);
            sb_report__puts(d, ")");
        }
    }
    sb_report__puts(d, "\n");
}

/* Policy lines of the summary: violations and exemptions. */
static void policy_lines(sb_doc *d, const sb_report__tab *r)
{
    const sb_sbom *s = d->sbom;
    const sb_policy_verdict *pol = own(r)->pol;
    for (int pass = 0; pass < 2; pass++) {
        size_t n = 0;
        for (size_t i = 0; i < s->npkgs; i++)
            n += pass ? pol[i].exempt != NULL : !pol[i].exempt && pol[i].rule != SB_POL_PASS;
        if (!sb_report__list_open(d, r, pass ? "License exemptions" : "Policy violations", n))
            continue;
        size_t m = 0;
        for (size_t i = 0; i < s->npkgs; i++) {
            const sb_policy_verdict *v = &pol[i];
            if (pass ? !v->exempt : v->exempt || v->rule == SB_POL_PASS)
                continue;
            if (m++)
                sb_report__puts(d, ", ");
            sb_report__put_cell(d, s->pkgs[i].name, 0);
            sb_report__puts(d, " (");
            sb_report__put_cell(d, pass ? v->exempt : v->reason, 0);
            sb_report__puts(d, ")");
        }
        sb_report__puts(d, "\n");
    }
}

/* Piece 0: the heading and the counts' table header; 1..ncounts: a count;
 * then the name lists. */
static void text_summary(sb_doc *d, const sb_report__tab *r, size_t k)
{
    const lreport *l = own(r);
    size_t lw = sb_table_width("License");
    for (size_t i = 0; i < l->ncounts; i++)
        if (sb_table_width(l->counts[i].license) > lw)
            lw = sb_table_width(l->counts[i].license);
    size_t widths[2] = {lw, sb_table_width("Packages")};
    if (k == 0) {
        const char *t = sb_arena_printf(d->arena, "%sSummary: %zu packages, %zu distinct licenses\n%s",
                                        r->md ? "\n### " : "\n", d->sbom->npkgs, l->ncounts, r->md ? "\n" : "");
        sb_report__puts(d, t ? t : "\n");
        const char *hv[2] = {"License", "Packages"};
        sb_report__put_line(d, r, hv, widths, 2);
        sb_report__put_rule(d, r, widths, 2);
    } else if (k <= l->ncounts) {
        const char *cnt = sb_arena_printf(d->arena, "%zu", l->counts[k - 1].n);
        const char *cv[2] = {l->counts[k - 1].license, cnt ? cnt : "?"};
        sb_report__put_line(d, r, cv, widths, 2);
    } else {
        sb_report__puts(d, "\n");
        name_list(d, r, "No license", 0);
        sb_report__unknown_line(d, r);
        name_list(d, r, "Not an SPDX expression", 1);
        if (l->pol)
            policy_lines(d, r);
    }
}

/* ---- JSON summary ---------------------------------------------------------- */

static void json_count(sb_doc *d, const sb_report__tab *r, size_t k)
{
    sb_jw *jw = &d->jw;
    const lic_count *c = &own(r)->counts[k];
    const size_t *by = own(r)->by_license;
    sb_jw_obj_begin(jw);
    sb_jw_kstr(jw, "license", c->license);
    sb_jw_key(jw, "spdx");
    sb_jw_bool(jw, r->lics[by[c->first]].kind == SB_LIC_EXPR);
    sb_jw_key(jw, "count");
    sb_jw_int(jw, (long long)c->n);
    sb_jw_key(jw, "packages");
    sb_jw_arr_begin(jw);
    for (size_t i = 0; i < c->n; i++)
        sb_jw_str(jw, d->sbom->pkgs[by[c->first + i]].name);
    sb_jw_arr_end(jw);
    sb_jw_obj_end(jw);
}

/* Piece 0 opens by_license; each piece is one count (none when no license). */
static void json_summary(sb_doc *d, const sb_report__tab *r, size_t k)
{
    sb_jw *jw = &d->jw;
    if (k == 0) {
        sb_jw_key(jw, "distinct_licenses");
        sb_jw_int(jw, (long long)own(r)->ncounts);
        sb_jw_key(jw, "by_license");
        sb_jw_arr_begin(jw);
    }
    if (k < own(r)->ncounts)
        json_count(d, r, k);
}

static void json_end(sb_doc *d, const sb_report__tab *r)
{
    sb_jw *jw = &d->jw;
    const sb_sbom *s = d->sbom;
    const sb_policy_verdict *pol = own(r)->pol;
    sb_jw_arr_end(jw); /* by_license */
    /* "none" is a license the input states as absent; not known is apart,
     * with why and how to know it */
    sb_jw_key(jw, "no_license");
    sb_jw_arr_begin(jw);
    for (size_t i = 0; i < s->npkgs; i++)
        if (r->lics[i].kind == SB_LIC_NONE && NULL == sb_pkg_license_unknown(&s->pkgs[i]))
            sb_jw_str(jw, s->pkgs[i].name);
    sb_jw_arr_end(jw);
    sb_jw_key(jw, "license_unknown");
    sb_jw_arr_begin(jw);
    for (size_t i = 0; i < s->npkgs; i++) {
        const char *why = r->lics[i].kind == SB_LIC_NONE ? sb_pkg_license_unknown(&s->pkgs[i]) : NULL;
        if (NULL == why)
            continue;
        sb_jw_obj_begin(jw);
        sb_jw_kstr(jw, "name", s->pkgs[i].name);
        sb_jw_kstr(jw, "why", why);
        sb_jw_obj_end(jw);
    }
    sb_jw_arr_end(jw);
    sb_jw_key(jw, "not_spdx");
    sb_jw_arr_begin(jw);
    for (size_t i = 0; i < s->npkgs; i++) {
        if (r->lics[i].kind != SB_LIC_TEXT)
            continue;
        sb_jw_obj_begin(jw);
        sb_jw_kstr(jw, "name", s->pkgs[i].name);
        sb_jw_kstr(jw, "license", r->lics[i].value);
        sb_jw_kstr(jw, "reason", r->lics[i].reason ? r->lics[i].reason : "not an SPDX expression");
        sb_jw_obj_end(jw);
    }
    sb_jw_arr_end(jw);
    if (NULL == pol)
        return;
    size_t nv = 0;
    for (size_t i = 0; i < s->npkgs; i++)
        nv += !pol[i].exempt && pol[i].rule != SB_POL_PASS;
    sb_jw_key(jw, "policy_violations");
    sb_jw_int(jw, (long long)nv);
    sb_jw_key(jw, "violations");
    sb_jw_arr_begin(jw);
    for (size_t i = 0; i < s->npkgs; i++) {
        const sb_policy_verdict *v = &pol[i];
        if (v->exempt || v->rule == SB_POL_PASS)
            continue;
        sb_jw_obj_begin(jw);
        sb_jw_kstr(jw, "name", s->pkgs[i].name);
        sb_report__kopt(jw, "version", s->pkgs[i].version);
        sb_report__kopt(jw, "license", r->lics[i].value);
        sb_jw_kstr(jw, "rule", sb_policy_rule_name(v->rule));
        sb_jw_kstr(jw, "reason", v->reason ? v->reason : "");
        sb_jw_obj_end(jw);
    }
    sb_jw_arr_end(jw);
    sb_jw_key(jw, "exempt");
    sb_jw_arr_begin(jw);
    for (size_t i = 0; i < s->npkgs; i++) {
        if (!pol[i].exempt)
            continue;
        sb_jw_obj_begin(jw);
        sb_jw_kstr(jw, "name", s->pkgs[i].name);
        sb_jw_kstr(jw, "reason", pol[i].exempt);
        sb_jw_obj_end(jw);
    }
    sb_jw_arr_end(jw);
}

/* ---- SARIF 2.1.0 (one result per violation) -------------------------------- */

static const struct {
    const char *id, *name, *text;
} sarif_rules[SB_POL_NRULES] = {
    {NULL, NULL, NULL},
    {"license-denied", "DeniedLicense", "A package's license is denied by the license policy (deny-license)."},
    {"license-not-allowed", "LicenseNotAllowed", "A package's license is not among the allowed ones (allow-license)."},
    {"license-missing", "LicenseMissing", "A package states no license (require-license)."},
    {"license-not-spdx", "LicenseNotSpdx", "A package's license is not an SPDX expression (require-license)."},
};

static void sarif_begin(sb_doc *d, const sb_report__tab *r)
{
    (void)r;
    sb_jw *jw = &d->jw;
    const sb_sbom *s = d->sbom;
    sb_report__sarif_open(jw);
    sb_jw_key(jw, "rules");
    sb_jw_arr_begin(jw);
    for (int k = 1; k < SB_POL_NRULES; k++) {
        sb_jw_obj_begin(jw);
        sb_jw_kstr(jw, "id", sarif_rules[k].id);
        sb_jw_kstr(jw, "name", sarif_rules[k].name);
        sb_jw_key(jw, "shortDescription");
        sb_jw_obj_begin(jw);
        sb_jw_kstr(jw, "text", sarif_rules[k].text);
        sb_jw_obj_end(jw);
        sb_jw_key(jw, "defaultConfiguration");
        sb_jw_obj_begin(jw);
        sb_jw_kstr(jw, "level", "error");
        sb_jw_obj_end(jw);
        sb_jw_obj_end(jw);
    }
    sb_jw_arr_end(jw);
    sb_jw_obj_end(jw); /* driver */
    sb_jw_obj_end(jw); /* tool */
    sb_jw_key(jw, "automationDetails");
    sb_jw_obj_begin(jw);
    const char *id = sb_arena_printf(d->arena, "sbomd/licenses/%s/%s/", s->environment, s->platform);
    sb_jw_kstr(jw, "id", id ? id : "sbomd/licenses/");
    sb_jw_obj_end(jw);
    sb_jw_key(jw, "results");
    sb_jw_arr_begin(jw);
}

static void sarif_row(sb_doc *d, const sb_report__tab *r, size_t i)
{
    const sb_sbom *s = d->sbom;
    const sb_report__row *w = &r->rows[i];
    const sb_policy_verdict *pol = own(r)->pol;
    if (NULL == pol || pol[w->pkg].rule == SB_POL_PASS)
        return; /* rows are findings: a package that passes is none */
    const sb_policy_verdict *v = &pol[w->pkg];
    const sb_pkg *p = &s->pkgs[w->pkg];
    sb_jw *jw = &d->jw;
    sb_jw_obj_begin(jw);
    sb_jw_kstr(jw, "ruleId", sarif_rules[v->rule].id);
    sb_jw_key(jw, "ruleIndex");
    sb_jw_int(jw, (long long)v->rule - 1);
    sb_jw_kstr(jw, "level", "error");
    sb_jw_key(jw, "message");
    sb_jw_obj_begin(jw);
    const char *msg = sb_arena_printf(d->arena, "%s %s: %s", p->name, p->version ? p->version : "(no version)",
                                      v->reason ? v->reason : "license policy violated");
    sb_jw_kstr(jw, "text", msg ? msg : p->name);
    sb_jw_obj_end(jw);
    sb_jw_key(jw, "locations");
    sb_jw_arr_begin(jw);
    sb_jw_obj_begin(jw);
    sb_jw_key(jw, "physicalLocation");
    sb_jw_obj_begin(jw);
    sb_jw_key(jw, "artifactLocation");
    sb_jw_obj_begin(jw);
    sb_jw_kstr(jw, "uri", s->lockfile_name ? s->lockfile_name : "lockfile");
    sb_jw_kstr(jw, "uriBaseId", "%SRCROOT%");
    sb_jw_obj_end(jw);
    sb_jw_obj_end(jw);
    sb_jw_key(jw, "logicalLocations");
    sb_jw_arr_begin(jw);
    sb_jw_obj_begin(jw);
    sb_jw_kstr(jw, "name", p->name);
    if (p->purl)
        sb_jw_kstr(jw, "fullyQualifiedName", p->purl);
    sb_jw_kstr(jw, "kind", "package");
    sb_jw_obj_end(jw);
    sb_jw_arr_end(jw);
    sb_jw_obj_end(jw);
    sb_jw_arr_end(jw);
    sb_jw_key(jw, "partialFingerprints");
    sb_jw_obj_begin(jw);
    const char *fp = sb_arena_printf(d->arena, "%s|%s|%s", p->purl ? p->purl : p->name, s->environment, s->platform);
    sb_jw_kstr(jw, "sbomd/purl-environment-platform/v1", fp ? fp : p->name);
    sb_jw_obj_end(jw);
    if (v->exempt) { /* an accepted finding: reported, suppressed */
        sb_jw_key(jw, "suppressions");
        sb_jw_arr_begin(jw);
        sb_jw_obj_begin(jw);
        sb_jw_kstr(jw, "kind", "external");
        sb_jw_kstr(jw, "justification", v->exempt);
        sb_jw_obj_end(jw);
        sb_jw_arr_end(jw);
    }
    sb_jw_key(jw, "properties");
    sb_jw_obj_begin(jw);
    sb_report__kopt(jw, "package", p->name);
    sb_report__kopt(jw, "version", p->version);
    sb_report__kopt(jw, "license", r->lics[w->pkg].value);
    sb_jw_obj_end(jw);
    sb_jw_obj_end(jw);
}

static void sarif_end(sb_doc *d, const sb_report__tab *r)
{
    (void)r;
    sb_jw *jw = &d->jw;
    sb_jw_arr_end(jw); /* results */
    sb_report__sarif_invocations(jw, d->sbom, d->arena);
    sb_jw_obj_end(jw); /* run */
    sb_jw_arr_end(jw); /* runs */
    sb_jw_obj_end(jw);
}

static const sb_report__tab_kind licenses = {
    .kind = &sb_report_licenses,
    .prepare = prepare,
    .cells = cells,
    .text_summary = text_summary,
    .csv_cells = csv_cells,
    .json_row = json_row,
    .json_summary = json_summary,
    .json_end = json_end,
    .sarif_begin = sarif_begin,
    .sarif_row = sarif_row,
    .sarif_end = sarif_end,
};

static sb_code begin(sb_doc *d)
{
    return sb_report__tab_begin(d, &licenses);
}

SB_REPORT__TAB_OUTPUTS(licenses, "licenses", begin);
SB_REPORT__TAB_OPS(licenses_sarif, "licenses", begin, SARIF);

const sb_report_kind sb_report_licenses = {.name = "licenses",
                                           .sarif_needs_policy = true,
                                           .ops = {&licenses_json, &licenses_text, &licenses_md, &licenses_csv,
                                                   &licenses_sarif}};
