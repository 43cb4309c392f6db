/*
 * report_quality.c - the quality report (/v1/report/quality): the model a
 * document would be written from, scored against the minimum elements of
 * each profile asked for (core/quality.h), as JSON, an aligned text table,
 * Markdown or CSV.
 *
 * One row per (profile, element): how many components have it, how many
 * lack it and why, the first that lack it; then, except in CSV (which stays
 * one table), a verdict per profile. The score is computed once when the
 * report begins; rows are written from it piece by piece.
 */
#include "report.h"
#include "quality.h"
#include "table.h"

#include <stdio.h>
#include <string.h>

enum { NCOLS = 8 };

static const char *const header[NCOLS] = {"Profile", "Element", "Section", "Have",
                                          "Total",   "Lacking", "Why",     "First lacking"};

/* The JSON row's keys, in its order: the CSV header (one schema
 * for every report, openapi/reports.schema.json). */
static const char *const csv_header[] = {"environment", "platform", "profile",       "element", "title",
                                         "section",     "rule",     "scope",         "have",    "total",
                                         "lacking",     "reasons",  "first_lacking", "met"};
enum { NCSV = sizeof csv_header / sizeof csv_header[0] };

typedef struct qrow {
    sb_quality_profile profile;
    size_t res; /* index in sb_quality.res */
} qrow;

typedef struct qreport {
    sb_report_output out;
    sb_quality q;
    qrow *rows;
    size_t nrows;
    sb_quality_profile profiles[SB_QP_N];
    size_t nprofiles;
    size_t width[NCOLS];
} qreport;

static const sb_doc_ops quality_json, quality_text, quality_markdown, quality_csv;

/* "2 not in the lockfile, 1 lookup failed" or NULL */
static const char *why_text(sb_doc *d, const sb_quality_result *res)
{
    sb_buf b;
    sb_buf_init(&b, 0);
    sb_code rc = SB_OK;
    for (int k = 1; k < SB_QR_N && rc == SB_OK; k++) {
        if (0 == res->by_reason[k])
            continue;
        char part[64];
        snprintf(part, sizeof part, "%s%zu %s", b.len ? ", " : "", res->by_reason[k], sb_quality_reason_name(k));
        rc = sb_buf_append(&b, part, strlen(part));
    }
    const char *s = rc == SB_OK && b.len ? sb_arena_strndup(d->arena, b.data, b.len) : NULL;
    sb_buf_free(&b);
    return s;
}

/* "a 1.0, b, c 2" (the first lacking components; "(document)" for a document element) */
static const char *first_text(sb_doc *d, const sb_quality_result *res)
{
    if (res->have == res->total)
        return NULL;
    if (res->el->document)
        return "(document)";
    sb_buf b;
    sb_buf_init(&b, 0);
    sb_code rc = SB_OK;
    for (size_t k = 0; k < res->nfirst && rc == SB_OK; k++) {
        const sb_pkg *p = &d->sbom->pkgs[res->first[k]];
        if (k)
            rc = sb_buf_append(&b, ", ", 2);
        if (rc == SB_OK)
            rc = sb_buf_append(&b, p->name, strlen(p->name));
        if (rc == SB_OK && p->version)
            rc = sb_buf_append(&b, " ", 1) == SB_OK ? sb_buf_append(&b, p->version, strlen(p->version)) : SB_ENOMEM;
    }
    size_t lack = res->total - res->have;
    if (rc == SB_OK && lack > res->nfirst) {
        char more[48];
        snprintf(more, sizeof more, ", ... (%zu more)", lack - res->nfirst);
        rc = sb_buf_append(&b, more, strlen(more));
    }
    const char *s = rc == SB_OK && b.len ? sb_arena_strndup(d->arena, b.data, b.len) : NULL;
    sb_buf_free(&b);
    return s;
}

static const char *num(sb_doc *d, size_t n)
{
    const char *s = sb_arena_printf(d->arena, "%zu", n);
    return s ? s : "?";
}

/* CSV's `reasons`: the JSON object as reason=count pairs joined with
 * SB_REPORT__CSV_SEP ("not-in-lockfile=2;lookup-failed=1"), NULL when none */
static const char *reasons_csv(sb_doc *d, const sb_quality_result *res)
{
    const char *v[SB_QR_N];
    size_t n = 0;
    for (int k = 1; k < SB_QR_N; k++)
        if (res->by_reason[k] &&
            NULL == (v[n++] = sb_arena_printf(d->arena, "%s=%zu", sb_quality_reason_name(k), res->by_reason[k])))
            return NULL;
    return n ? sb_arena_join(d->arena, v, n, SB_REPORT__CSV_SEP) : NULL;
}

/* CSV's `first_lacking`: each JSON item as its name (and " version" when it
 * has one), joined with SB_REPORT__CSV_SEP; NULL when none lacks it */
static const char *first_csv(sb_doc *d, const sb_quality_result *res)
{
    const char **v = sb_arena_alloc(d->arena, (res->nfirst ? res->nfirst : 1) * sizeof *v);
    for (size_t k = 0; v && k < res->nfirst; k++) {
        const sb_pkg *p = res->el->document ? NULL : &d->sbom->pkgs[res->first[k]];
        if (NULL == (v[k] = sb_arena_printf(d->arena, "%s%s%s", p ? p->name : "(document)", p && p->version ? " " : "",
                                            p && p->version ? p->version : "")))
            return NULL;
    }
    return v && res->nfirst ? sb_arena_join(d->arena, v, res->nfirst, SB_REPORT__CSV_SEP) : NULL;
}

static size_t csv_cells(sb_doc *d, const qreport *r, size_t i, const char **c)
{
    const qrow *w = &r->rows[i];
    const sb_quality_result *res = &r->q.res[w->res];
    size_t n = 0;
    c[n++] = sb_quality_profile_name(w->profile), c[n++] = res->el->id, c[n++] = res->el->title;
    c[n++] = res->el->source[w->profile], c[n++] = res->el->rule;
    c[n++] = res->el->document ? "document" : "component";
    c[n++] = num(d, res->have), c[n++] = num(d, res->total), c[n++] = num(d, res->total - res->have);
    c[n++] = reasons_csv(d, res), c[n++] = first_csv(d, res);
    c[n++] = res->have == res->total ? "true" : "false";
    return n;
}

static void cells(sb_doc *d, const qreport *r, size_t i, const char *out[NCOLS])
{
    const qrow *w = &r->rows[i];
    const sb_quality_result *res = &r->q.res[w->res];
    out[0] = sb_quality_profile_name(w->profile);
    out[1] = res->el->id;
    out[2] = res->el->source[w->profile];
    out[3] = num(d, res->have);
    out[4] = num(d, res->total);
    out[5] = num(d, res->total - res->have);
    out[6] = why_text(d, res);
    out[7] = first_text(d, res);
}

static sb_code begin(sb_doc *d)
{
    qreport *r = sb_arena_calloc(d->arena, 1, sizeof *r);
    if (NULL == r)
        return SB_ENOMEM;
    d->fmt = r;
    r->out = sb_report_output_of(d->ops);
    sb_code rc = sb_quality_score(&r->q, d->arena, d->sbom);
    if (rc != SB_OK)
        return rc;
    unsigned want = d->opts.quality_profiles ? d->opts.quality_profiles : (1u << SB_QP_N) - 1;
    for (int p = 0; p < SB_QP_N; p++)
        if (want & (1u << p))
            r->profiles[r->nprofiles++] = (sb_quality_profile)p;
    r->rows = sb_arena_calloc(d->arena, r->q.n * SB_QP_N, sizeof *r->rows);
    if (NULL == r->rows)
        return SB_ENOMEM;
    for (size_t k = 0; k < r->nprofiles; k++)
        for (size_t e = 0; e < r->q.n; e++)
            if (r->q.res[e].el->source[r->profiles[k]])
                r->rows[r->nrows++] = (qrow){r->profiles[k], e};
    sb_jw *jw = &d->jw;
    if (r->out == SB_REPORT_JSON) {
        sb_jw_obj_begin(jw);
        sb_jw_key(jw, "quality");
        sb_jw_arr_begin(jw);
        return jw->status;
    }
    if (r->out == SB_REPORT_CSV)
        return sb_report__csv_header(&d->stage, d->sbom, csv_header, NCSV);
    sb_table_fit(r->width, header, NCOLS);
    if (r->out == SB_REPORT_TEXT)
        for (size_t i = 0; i < r->nrows; i++) {
            const char *cv[NCOLS];
            cells(d, r, i, cv);
            sb_table_fit(r->width, cv, NCOLS);
        }
    return sb_table_head(&d->stage, sb_report_table_out(r->out), header, NCOLS, r->width);
}

static sb_code nothing(sb_doc *d, size_t i)
{
    (void)i;
    return d->jw.status;
}

static sb_code middle(sb_doc *d)
{
    return d->jw.status;
}

/* rows, then one piece per profile's verdict (JSON: a first piece opening the summary) */
static size_t piece_count(const sb_doc *d)
{
    const qreport *r = d->fmt;
    if (r->out == SB_REPORT_CSV)
        return r->nrows;
    return r->nrows + r->nprofiles + (r->out == SB_REPORT_JSON);
}

static void json_row(sb_doc *d, const qreport *r, size_t i)
{
    sb_jw *jw = &d->jw;
    const qrow *w = &r->rows[i];
    const sb_quality_result *res = &r->q.res[w->res];
    sb_report__json_row_open(jw, d->sbom, NULL);
    sb_jw_kstr(jw, "profile", sb_quality_profile_name(w->profile));
    sb_jw_kstr(jw, "element", res->el->id);
    sb_jw_kstr(jw, "title", res->el->title);
    sb_jw_kstr(jw, "section", res->el->source[w->profile]);
    sb_jw_kstr(jw, "rule", res->el->rule);
    sb_jw_kstr(jw, "scope", res->el->document ? "document" : "component");
    sb_jw_key(jw, "have");
    sb_jw_int(jw, (long long)res->have);
    sb_jw_key(jw, "total");
    sb_jw_int(jw, (long long)res->total);
    sb_jw_key(jw, "lacking");
    sb_jw_int(jw, (long long)(res->total - res->have));
    sb_jw_key(jw, "reasons");
    sb_jw_obj_begin(jw);
    for (int k = 1; k < SB_QR_N; k++)
        if (res->by_reason[k]) {
            sb_jw_key(jw, sb_quality_reason_name(k));
            sb_jw_int(jw, (long long)res->by_reason[k]);
        }
    sb_jw_obj_end(jw);
    sb_jw_key(jw, "first_lacking");
    sb_jw_arr_begin(jw);
    for (size_t k = 0; k < res->nfirst; k++) {
        sb_jw_obj_begin(jw);
        if (res->el->document) {
            sb_jw_kstr(jw, "name", "(document)");
        } else {
            const sb_pkg *p = &d->sbom->pkgs[res->first[k]];
            sb_jw_kstr(jw, "name", p->name);
            sb_jw_kstr_opt(jw, "version", p->version);
            sb_jw_kstr(jw, "purl", p->purl);
        }
        sb_jw_kstr(jw, "reason", sb_quality_reason_name(res->first_why[k]));
        sb_jw_obj_end(jw);
    }
    sb_jw_arr_end(jw);
    sb_jw_key(jw, "met");
    sb_jw_bool(jw, res->have == res->total);
    sb_jw_obj_end(jw);
}

static void json_summary_open(sb_doc *d)
{
    sb_jw *jw = &d->jw;
    const sb_sbom *s = d->sbom;
    sb_jw_arr_end(jw);
    sb_jw_key(jw, "summary");
    sb_jw_obj_begin(jw);
    sb_report__summary_selection(jw, s);
    /* left out on purpose by the request's filters: not scored, not unknown */
    sb_jw_key(jw, "withheld");
    sb_jw_int(jw, (long long)s->nexcluded);
    sb_report__incomplete_json(jw, s);
    sb_jw_key(jw, "profiles");
    sb_jw_arr_begin(jw);
}

static void json_verdict(sb_doc *d, const qreport *r, sb_quality_profile p)
{
    sb_jw *jw = &d->jw;
    sb_jw_obj_begin(jw);
    sb_jw_kstr(jw, "profile", sb_quality_profile_name(p));
    sb_jw_kstr(jw, "verdict", r->q.pass[p] ? "pass" : "fail");
    sb_jw_key(jw, "failing");
    sb_jw_arr_begin(jw);
    for (size_t e = 0; e < r->q.n; e++)
        if (r->q.res[e].el->source[p] && r->q.res[e].have < r->q.res[e].total)
            sb_jw_str(jw, r->q.res[e].el->id);
    sb_jw_arr_end(jw);
    sb_jw_obj_end(jw);
}

/* "\nVerdict cisa-2026: fail (sbom-author, license)\n" (Markdown: a bullet) */
static sb_code text_verdict(sb_doc *d, const qreport *r, size_t k)
{
    sb_quality_profile p = r->profiles[k];
    sb_buf *b = &d->stage;
    char head[96];
    snprintf(head, sizeof head, "%s%s%s: %s", k == 0 ? "\n" : "", r->out == SB_REPORT_MARKDOWN ? "- " : "Verdict ",
             sb_quality_profile_name(p), r->q.pass[p] ? "pass" : "fail");
    sb_code rc = SB_OK;
    if (k == 0 && d->sbom->nexcluded && r->out != SB_REPORT_CSV) {
        char w[128];
        snprintf(w, sizeof w,
                 "\n%sWithheld: %zu package(s) left out by the request's filters (pixi:excluded), not scored\n",
                 r->out == SB_REPORT_MARKDOWN ? "- " : "", d->sbom->nexcluded);
        rc = sb_buf_append(b, w, strlen(w));
    }
    if (rc == SB_OK)
        rc = sb_buf_append(b, head, strlen(head));
    const char *sep = " (lacking: ";
    for (size_t e = 0; e < r->q.n && rc == SB_OK; e++) {
        const sb_quality_result *res = &r->q.res[e];
        if (NULL == res->el->source[p] || res->have == res->total)
            continue;
        rc = sb_buf_append(b, sep, strlen(sep));
        if (rc == SB_OK)
            rc = sb_table_text(b, res->el->id, 0);
        sep = ", ";
    }
    if (rc == SB_OK && sep[0] == ',')
        rc = sb_buf_append(b, ")", 1);
    return rc == SB_OK ? sb_buf_append(b, "\n", 1) : rc;
}

static sb_code piece(sb_doc *d, size_t i)
{
    const qreport *r = d->fmt;
    if (r->out == SB_REPORT_JSON) {
        if (i < r->nrows)
            json_row(d, r, i);
        else if (i == r->nrows)
            json_summary_open(d);
        else
            json_verdict(d, r, r->profiles[i - r->nrows - 1]);
        return d->jw.status;
    }
    if (i < r->nrows && r->out == SB_REPORT_CSV) {
        const char *cv[NCSV];
        return sb_report__csv_line(&d->stage, d->sbom, NULL, cv, csv_cells(d, r, i, cv));
    }
    if (i < r->nrows) {
        const char *cv[NCOLS];
        cells(d, r, i, cv);
        return sb_table_row(&d->stage, sb_report_table_out(r->out), cv, NCOLS, r->width);
    }
    return text_verdict(d, r, i - r->nrows);
}

static sb_code end(sb_doc *d)
{
    const qreport *r = d->fmt;
    if (r->out != SB_REPORT_JSON)
        return d->jw.status;
    sb_jw_arr_end(&d->jw); /* profiles */
    sb_jw_obj_end(&d->jw); /* summary */
    sb_jw_obj_end(&d->jw);
    return d->jw.status;
}


SB_REPORT_OUTPUT(quality_json, "quality", JSON, begin, middle, piece_count, piece, end, nothing);
SB_REPORT_OUTPUT(quality_text, "quality", TEXT, begin, middle, piece_count, piece, end, nothing);
SB_REPORT_OUTPUT(quality_markdown, "quality", MARKDOWN, begin, middle, piece_count, piece, end, nothing);
SB_REPORT_OUTPUT(quality_csv, "quality", CSV, begin, middle, piece_count, piece, end, nothing);

const sb_report_kind sb_report_quality = {.name = "quality",
                                          .params = SB_REPORT_PARAMS_QUALITY,
                                          .ops = {&quality_json, &quality_text, &quality_markdown, &quality_csv, NULL}};
