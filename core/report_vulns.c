/*
 * report_vulns.c - the vulnerabilities report: one row per
 * finding and affected package, worst first (the findings' order), as JSON,
 * an aligned text table, Markdown, CSV, and SARIF 2.1.0 for code-scanning
 * uploads (one rule per finding, one result per row).
 *
 * Pieces: JSON/text/Markdown/CSV write one row per piece then their
 * summary; SARIF writes one rule per piece, a piece closing the rules and
 * opening the results, then one result per piece. Rows and column widths
 * are computed when the report begins, in the document's arena.
 */
#include "report.h"
#include "table.h"
#include "version.h"
#include "vuln.h"

#include <stdio.h>
#include <string.h>


#define NCOLS 11 /* with EPSS; without it, the EPSS column is left out */
#define C_EPSS 5

typedef struct vrow {
    size_t v, pkg;
} vrow;

typedef struct vreport {
    sb_report_output out;
    vrow *rows;
    size_t nrows;
    size_t width[NCOLS];
    size_t by_sev[SB_SEV_CRITICAL + 1];
    size_t queryable, kev, accepted;
    int ncols; /* NCOLS with EPSS, else one less */
    const char *head[NCOLS];
} vreport;

static const char *const header[NCOLS] = {"Package", "Version", "Severity", "Score",  "KEV",    "EPSS",
                                          "ID",      "Aliases", "Fixed",    "Status", "Summary"};

/* The JSON row's keys, in its order: the CSV header (one schema
 * for every report, openapi/reports.schema.json). */
static const char *const csv_header[] = {
    "environment",     "platform", "name",   "version",       "purl",           "ref",          "id",
    "aliases",         "severity", "score",  "kev",           "kev_date_added", "kev_due_date", "epss",
    "epss_percentile", "fixed",    "status", "justification", "summary"};
enum { NCSV = sizeof csv_header / sizeof csv_header[0] };

/* The status column: what a VEX statement said, else open. */
static const char *status_of(const sb_vuln *v)
{
    return v->vex_state ? v->vex_state : "open";
}

/* header / cells without the EPSS column when EPSS was not asked for */
static void drop_epss(const sb_doc *d, const char **c)
{
    if (d->sbom->epss_asked)
        return;
    for (int k = C_EPSS; k + 1 < NCOLS; k++)
        c[k] = c[k + 1];
}

static const char *fixed_of(const sb_vuln *v)
{
    static const char pre[] = "Upgrade ";
    if (NULL == v->recommendation || strncmp(v->recommendation, pre, sizeof pre - 1))
        return NULL;
    const char *to = strstr(v->recommendation, " to ");
    return to ? to + 4 : NULL;
}

static const char *score_text(sb_arena *a, double s)
{
    return s >= 0 ? sb_arena_printf(a, "%.1f", s) : NULL;
}

static const char *aliases_text(sb_arena *a, const sb_vuln *v)
{
    size_t n = 1;
    for (size_t k = 0; k < v->aliases.n; k++)
        n += strlen(v->aliases.v[k]) + 2;
    char *o = sb_arena_alloc(a, n);
    if (NULL == o)
        return NULL;
    o[0] = '\0';
    for (size_t k = 0; k < v->aliases.n; k++) {
        if (k)
            strcat(o, ", ");
        strcat(o, v->aliases.v[k]);
    }
    return o;
}

static void cells(sb_doc *d, const vrow *w, const char **c)
{
    const sb_vuln *v = &d->sbom->vulns[w->v];
    const sb_pkg *p = &d->sbom->pkgs[w->pkg];
    c[0] = p->name;
    c[1] = p->version ? p->version : "-";
    c[2] = sb_sev_name(v->severity);
    c[3] = score_text(d->arena, v->score);
    c[4] = v->kev ? "yes" : d->sbom->kev_asked ? "no" : "-";
    c[5] = v->epss >= 0 ? sb_arena_printf(d->arena, "%.5f", v->epss) : NULL;
    c[6] = v->id;
    c[7] = aliases_text(d->arena, v);
    c[8] = fixed_of(v);
    c[9] = status_of(v);
    c[10] = v->summary;
    for (int k = 0; k < NCOLS; k++)
        if (NULL == c[k] || !c[k][0])
            c[k] = "-";
    drop_epss(d, c);
}

static sb_code vbegin(sb_doc *d)
{
    const sb_sbom *s = d->sbom;
    vreport *r = sb_arena_calloc(d->arena, 1, sizeof *r);
    if (NULL == r)
        return SB_ENOMEM;
    d->fmt = r;
    r->out = sb_report_output_of(d->ops);
    size_t n = 0;
    for (size_t i = 0; i < s->nvulns; i++)
        n += s->vulns[i].naffects;
    r->rows = sb_arena_alloc(d->arena, (n ? n : 1) * sizeof *r->rows);
    if (NULL == r->rows)
        return SB_ENOMEM;
    r->ncols = s->epss_asked ? NCOLS : NCOLS - 1;
    for (int k = 0; k < NCOLS; k++)
        r->head[k] = header[k];
    drop_epss(d, r->head);
    /* open findings worst first (the findings' order), settled ones last */
    for (int pass = 0; pass < 2; pass++)
        for (size_t i = 0; i < s->nvulns; i++) {
            if (sb_vuln_accepted(&s->vulns[i]) != pass)
                continue;
            for (size_t k = 0; k < s->vulns[i].naffects; k++)
                r->rows[r->nrows++] = (vrow){i, s->vulns[i].affects[k]};
        }
    for (size_t i = 0; i < s->nvulns; i++) {
        r->kev += s->vulns[i].kev != 0;
        r->accepted += sb_vuln_accepted(&s->vulns[i]);
        r->by_sev[s->vulns[i].severity]++;
    }
    sb_vuln_query *q;
    if (sb_vuln_queries(s, d->arena, &q, &r->queryable) != SB_OK)
        return SB_ENOMEM;
    sb_table_fit(r->width, r->head, NCOLS);
    for (size_t i = 0; i < r->nrows; i++) {
        const char *c[NCOLS];
        cells(d, &r->rows[i], c);
        sb_table_fit(r->width, c, NCOLS);
    }
    sb_jw *jw = &d->jw;
    sb_buf *b = &d->stage;
    switch (r->out) {
    case SB_REPORT_JSON:
        sb_jw_obj_begin(jw);
        sb_jw_key(jw, "vulnerabilities");
        sb_jw_arr_begin(jw);
        return jw->status;
    case SB_REPORT_SARIF:
        sb_report__sarif_open(jw);
        sb_jw_key(jw, "rules");
        sb_jw_arr_begin(jw);
        return jw->status;
    case SB_REPORT_MARKDOWN: {
        sb_code rc = sb_table_heading(b, "vulnerabilities", s->root_name, s->environment, s->platform);
        return rc == SB_OK ? sb_table_head(b, SB_TABLE_MARKDOWN, r->head, (size_t)r->ncols, NULL) : rc;
    }
    case SB_REPORT_CSV: return sb_report__csv_header(b, s, csv_header, NCSV);
    default: return sb_table_head(b, sb_report_table_out(r->out), r->head, (size_t)r->ncols, r->width);
    }
}

static sb_code vnothing(sb_doc *d, size_t i)
{
    (void)i;
    return d->jw.status;
}

static sb_code vmiddle(sb_doc *d)
{
    return d->jw.status;
}

static size_t vcount(const sb_doc *d)
{
    const vreport *r = d->fmt;
    if (r->out == SB_REPORT_SARIF)
        return d->sbom->nvulns + 1 + r->nrows;
    return r->nrows + 1; /* the rows, then the summary */
}

/* SARIF's security-severity: 10 when known exploited, the CVSS score, else one per severity */
static double sarif_severity(const sb_vuln *v)
{
    if (v->kev)
        return 10.0; /* known exploited outranks any score */
    if (v->score >= 0)
        return v->score;
    switch (v->severity) {
    case SB_SEV_CRITICAL: return 9.5;
    case SB_SEV_HIGH: return 8.0;
    case SB_SEV_MEDIUM: return 5.5;
    case SB_SEV_LOW: return 2.5;
    default: return 0.0;
    }
}

static void sarif_rule(sb_doc *d, const sb_vuln *v)
{
    sb_jw *jw = &d->jw;
    sb_jw_obj_begin(jw);
    sb_jw_kstr(jw, "id", v->id);
    sb_jw_key(jw, "shortDescription");
    sb_jw_obj_begin(jw);
    sb_jw_kstr(jw, "text", v->summary ? v->summary : v->id);
    sb_jw_obj_end(jw);
    if (v->details) {
        sb_jw_key(jw, "fullDescription");
        sb_jw_obj_begin(jw);
        sb_jw_kstr(jw, "text", v->details);
        sb_jw_obj_end(jw);
    }
    sb_jw_kstr(jw, "helpUri", sb_vuln_url(d->arena, v->id));
    sb_jw_key(jw, "properties");
    sb_jw_obj_begin(jw);
    sb_jw_key(jw, "security-severity");
    sb_jw_str(jw, score_text(d->arena, sarif_severity(v)));
    sb_jw_key(jw, "tags");
    sb_jw_arr_begin(jw);
    sb_jw_str(jw, "security");
    sb_jw_str(jw, "vulnerability");
    sb_jw_arr_end(jw);
    sb_jw_obj_end(jw);
    sb_jw_obj_end(jw);
}

static void sarif_result(sb_doc *d, const vrow *w)
{
    sb_jw *jw = &d->jw;
    const sb_sbom *s = d->sbom;
    const sb_vuln *v = &s->vulns[w->v];
    const sb_pkg *p = &s->pkgs[w->pkg];
    sb_jw_obj_begin(jw);
    sb_jw_kstr(jw, "ruleId", v->id);
    int settled = sb_vuln_accepted(v);
    sb_jw_kstr(jw, "level",
               settled                        ? "note"
               : v->severity >= SB_SEV_HIGH   ? "error"
               : v->severity == SB_SEV_MEDIUM ? "warning"
                                              : "note");
    sb_jw_key(jw, "message");
    sb_jw_obj_begin(jw);
    const char *m = sb_arena_printf(d->arena, "%s %s is affected by %s (%s)%s%s", p->name, p->version ? p->version : "",
                                    v->id, sb_sev_name(v->severity), v->recommendation ? ": " : "",
                                    v->recommendation ? v->recommendation : "");
    sb_jw_kstr(jw, "text", m ? m : v->id);
    sb_jw_obj_end(jw);
    sb_jw_key(jw, "locations");
    sb_jw_arr_begin(jw);
    sb_jw_obj_begin(jw);
    sb_jw_key(jw, "physicalLocation");
    sb_jw_obj_begin(jw);
    sb_jw_key(jw, "artifactLocation");
    sb_jw_obj_begin(jw);
    sb_jw_kstr(jw, "uri", s->lockfile_name ? s->lockfile_name : s->input_kind);
    sb_jw_kstr(jw, "uriBaseId", "%SRCROOT%");
    sb_jw_obj_end(jw);
    sb_jw_obj_end(jw);
    sb_jw_obj_end(jw);
    sb_jw_arr_end(jw);
    sb_jw_key(jw, "partialFingerprints");
    sb_jw_obj_begin(jw);
    const char *fp = sb_arena_printf(d->arena, "%s|%s|%s", p->purl, s->environment, s->platform);
    sb_jw_kstr(jw, "pixi-sbom/purl|environment|platform", fp ? fp : p->purl);
    sb_jw_obj_end(jw);
    if (settled) { /* accepted findings as suppressions */
        sb_jw_key(jw, "suppressions");
        sb_jw_arr_begin(jw);
        sb_jw_obj_begin(jw);
        sb_jw_kstr(jw, "kind", "external");
        sb_jw_kstr(jw, "status", "accepted");
        const char *j = sb_arena_printf(d->arena, "VEX: %s%s%s%s", v->vex_state, v->vex_justification ? " (" : "",
                                        v->vex_justification ? v->vex_justification : "",
                                        v->vex_justification ? ")" : "");
        sb_jw_kstr(jw, "justification", v->vex_detail ? v->vex_detail : j ? j : "VEX");
        sb_jw_obj_end(jw);
        sb_jw_arr_end(jw);
    }
    sb_jw_obj_end(jw);
}


/* The CSV cells of a row after environment and platform, as the JSON row
 * has them (aliases joined with SB_REPORT__CSV_SEP, null as empty). */
static size_t csv_cells(sb_doc *d, const vrow *w, const char **c)
{
    const sb_vuln *v = &d->sbom->vulns[w->v];
    const sb_pkg *p = &d->sbom->pkgs[w->pkg];
    const char *aliases = sb_arena_join(d->arena, (const char *const *)v->aliases.v, v->aliases.n, SB_REPORT__CSV_SEP);
    size_t n = 0;
    c[n++] = p->name, c[n++] = p->version, c[n++] = p->purl, c[n++] = p->id, c[n++] = v->id;
    c[n++] = aliases, c[n++] = sb_sev_name(v->severity), c[n++] = score_text(d->arena, v->score);
    c[n++] = v->kev ? "true" : "false";
    c[n++] = v->kev ? v->kev_added : NULL, c[n++] = v->kev ? v->kev_due : NULL;
    c[n++] = v->epss >= 0 ? v->epss_text : NULL, c[n++] = v->epss >= 0 ? v->epss_pct_text : NULL;
    c[n++] = fixed_of(v), c[n++] = status_of(v), c[n++] = v->vex_justification, c[n++] = v->summary;
    return n;
}

static void json_row(sb_doc *d, const vrow *w)
{
    sb_jw *jw = &d->jw;
    const sb_vuln *v = &d->sbom->vulns[w->v];
    const sb_pkg *p = &d->sbom->pkgs[w->pkg];
    sb_report__json_row_open(jw, d->sbom, p);
    sb_jw_kstr(jw, "name", p->name);
    sb_jw_key(jw, "version");
    sb_jw_str(jw, p->version);
    sb_jw_kstr(jw, "purl", p->purl);
    sb_jw_kstr(jw, "ref", p->id);
    sb_jw_kstr(jw, "id", v->id);
    sb_jw_key(jw, "aliases");
    sb_jw_arr_begin(jw);
    for (size_t k = 0; k < v->aliases.n; k++)
        sb_jw_str(jw, v->aliases.v[k]);
    sb_jw_arr_end(jw);
    sb_jw_kstr(jw, "severity", sb_sev_name(v->severity));
    sb_jw_key(jw, "score");
    if (v->score >= 0)
        sb_jw_tenths(jw, v->score);
    else
        sb_jw_null(jw);
    sb_jw_key(jw, "kev");
    sb_jw_bool(jw, v->kev != 0);
    /* every row has every key: null when not known exploited, EPSS not
     * asked for or not answered, no VEX justification */
    sb_jw_key(jw, "kev_date_added");
    sb_jw_str(jw, v->kev ? v->kev_added : NULL);
    sb_jw_key(jw, "kev_due_date");
    sb_jw_str(jw, v->kev ? v->kev_due : NULL);
    sb_jw_key(jw, "epss");
    sb_jw_str(jw, v->epss >= 0 ? v->epss_text : NULL); /* as FIRST writes it: a decimal string */
    sb_jw_key(jw, "epss_percentile");
    sb_jw_str(jw, v->epss >= 0 ? v->epss_pct_text : NULL);
    sb_jw_key(jw, "fixed");
    sb_jw_str(jw, fixed_of(v));
    sb_jw_kstr(jw, "status", status_of(v));
    sb_jw_key(jw, "justification");
    sb_jw_str(jw, v->vex_justification);
    sb_jw_key(jw, "summary");
    sb_jw_str(jw, v->summary);
    sb_jw_obj_end(jw);
}

static sb_code summary(sb_doc *d, vreport *r)
{
    const sb_sbom *s = d->sbom;
    if (r->out == SB_REPORT_JSON) {
        sb_jw *jw = &d->jw;
        sb_jw_arr_end(jw);
        sb_jw_key(jw, "summary");
        sb_jw_obj_begin(jw);
        sb_report__summary_selection(jw, s);
        sb_jw_key(jw, "queryable");
        sb_jw_int(jw, (long long)r->queryable);
        sb_jw_key(jw, "findings");
        sb_jw_int(jw, (long long)s->nvulns);
        for (int k = SB_SEV_CRITICAL; k >= SB_SEV_UNKNOWN; k--) {
            sb_jw_key(jw, sb_sev_name((sb_sev)k));
            sb_jw_int(jw, (long long)r->by_sev[k]);
        }
        sb_jw_key(jw, "known_exploited");
        sb_jw_int(jw, (long long)r->kev);
        sb_jw_key(jw, "accepted");
        sb_jw_int(jw, (long long)r->accepted);
        sb_report__incomplete_json(jw, s);
        sb_jw_obj_end(jw);
        return jw->status;
    }
    if (r->out == SB_REPORT_CSV)
        return SB_OK;
    const char *line = sb_arena_printf(
        d->arena,
        "\n%sSummary: %zu finding(s) in %zu package row(s): %zu critical, %zu high, %zu medium, %zu low, %zu unrated; "
        "known-exploited: %zu; settled by VEX: %zu; queryable purls: %zu%s%s\n",
        r->out == SB_REPORT_MARKDOWN ? "### " : "", s->nvulns, r->nrows, r->by_sev[SB_SEV_CRITICAL],
        r->by_sev[SB_SEV_HIGH], r->by_sev[SB_SEV_MEDIUM], r->by_sev[SB_SEV_LOW],
        r->by_sev[SB_SEV_UNKNOWN] + r->by_sev[SB_SEV_NONE], r->kev, r->accepted, r->queryable,
        s->incomplete.n ? "\nIncomplete: " : "",
        s->incomplete.n ? sb_incomplete_details(&s->incomplete, d->arena) : "");
    return line ? sb_buf_append(&d->stage, line, strlen(line)) : SB_ENOMEM;
}

static sb_code vpiece(sb_doc *d, size_t i)
{
    vreport *r = d->fmt;
    const sb_sbom *s = d->sbom;
    if (r->out == SB_REPORT_SARIF) {
        sb_jw *jw = &d->jw;
        if (i < s->nvulns) {
            sarif_rule(d, &s->vulns[i]);
        } else if (i == s->nvulns) {
            sb_jw_arr_end(jw);
            sb_jw_obj_end(jw); /* driver */
            /* the tool is sbomd; OSV is where the advisories come from: an
             * extension, so a viewer's "tool" link does not point at osv.dev */
            sb_jw_key(jw, "extensions");
            sb_jw_arr_begin(jw);
            sb_jw_obj_begin(jw);
            sb_jw_kstr(jw, "name", "OSV");
            sb_jw_kstr(jw, "informationUri", "https://osv.dev");
            sb_jw_obj_end(jw);
            sb_jw_arr_end(jw);
            sb_jw_obj_end(jw); /* tool */
            sb_jw_key(jw, "results");
            sb_jw_arr_begin(jw);
        } else {
            sarif_result(d, &r->rows[i - s->nvulns - 1]);
        }
        return jw->status;
    }
    if (i == r->nrows)
        return summary(d, r);
    if (r->out == SB_REPORT_JSON) {
        json_row(d, &r->rows[i]);
        return d->jw.status;
    }
    if (r->out == SB_REPORT_CSV) {
        const char *cv[NCSV];
        return sb_report__csv_line(&d->stage, s, &s->pkgs[r->rows[i].pkg], cv, csv_cells(d, &r->rows[i], cv));
    }
    const char *c[NCOLS];
    cells(d, &r->rows[i], c);
    return sb_table_row(&d->stage, sb_report_table_out(r->out), c, (size_t)r->ncols,
                        r->out == SB_REPORT_TEXT ? r->width : NULL);
}

static sb_code vend(sb_doc *d)
{
    vreport *r = d->fmt;
    sb_jw *jw = &d->jw;
    if (r->out == SB_REPORT_JSON) {
        sb_jw_obj_end(jw);
    } else if (r->out == SB_REPORT_SARIF) {
        sb_jw_arr_end(jw); /* results */
        sb_report__sarif_invocations(jw, d->sbom, d->arena);
        sb_jw_obj_end(jw); /* run */
        sb_jw_arr_end(jw); /* runs */
        sb_jw_obj_end(jw);
    }
    return jw->status;
}


SB_REPORT_OUTPUT(vulns_json, "vulnerabilities", JSON, vbegin, vmiddle, vcount, vpiece, vend, vnothing);
SB_REPORT_OUTPUT(vulns_text, "vulnerabilities", TEXT, vbegin, vmiddle, vcount, vpiece, vend, vnothing);
SB_REPORT_OUTPUT(vulns_md, "vulnerabilities", MARKDOWN, vbegin, vmiddle, vcount, vpiece, vend, vnothing);
SB_REPORT_OUTPUT(vulns_csv, "vulnerabilities", CSV, vbegin, vmiddle, vcount, vpiece, vend, vnothing);
SB_REPORT_OUTPUT(vulns_sarif, "vulnerabilities", SARIF, vbegin, vmiddle, vcount, vpiece, vend, vnothing);

const sb_report_kind sb_report_vulnerabilities = {.name = "vulnerabilities",
                                                  .needs_vulns = true,
                                                  .ops = {&vulns_json, &vulns_text, &vulns_md, &vulns_csv,
                                                          &vulns_sarif}};
