/*
 * report.c - the registry of report kinds (spec section 10) and what reports
 * share: the outputs and their media types, the SARIF opening, and the
 * machinery of the table reports (report_int.h: rows, column widths, text,
 * Markdown and CSV lines, the JSON envelope, the producer callbacks). Each
 * kind lives in its own file, core/report_<kind>.c.
 */
#include "report.h"
#include "report_int.h"
#include "table.h"
#include "version.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- registry -------------------------------------------------------------- */

/* Every report kind, one line each; the handler routes /v1/report/<name>
 * from this list. */
static const sb_report_kind *const registry[] = {&sb_report_packages, &sb_report_licenses, &sb_report_python,
                                                 &sb_report_tree,     &sb_report_quality,  &sb_report_vulnerabilities,
                                                 &sb_report_outdated, &sb_report_explain,  NULL};

const sb_report_kind *const *sb_report_registry(void)
{
    return registry;
}

static const struct {
    const char *name, *media;
} outputs[SB_REPORT_NOUTPUTS] = {
    {"json", SB_REPORT_MEDIA_JSON}, {"text", SB_REPORT_MEDIA_TEXT},   {"markdown", SB_REPORT_MEDIA_MARKDOWN},
    {"csv", SB_REPORT_MEDIA_CSV},   {"sarif", SB_REPORT_MEDIA_SARIF},
};

int sb_report_output_find(const char *name, sb_report_output *out)
{
    for (int o = 0; name && o < SB_REPORT_NOUTPUTS; o++)
        if (!strcmp(name, outputs[o].name)) {
            *out = (sb_report_output)o;
            return 0;
        }
    return -1;
}

const char *sb_report_output_name(sb_report_output out)
{
    return outputs[out].name;
}

const char *sb_report_output_media(sb_report_output out)
{
    return outputs[out].media;
}

sb_report_output sb_report_output_of(const sb_doc_ops *ops)
{
    return (unsigned)ops->report_output < SB_REPORT_NOUTPUTS ? (sb_report_output)ops->report_output : SB_REPORT_JSON;
}

sb_table_out sb_report_table_out(sb_report_output out)
{
    return out == SB_REPORT_MARKDOWN ? SB_TABLE_MARKDOWN : out == SB_REPORT_CSV ? SB_TABLE_CSV : SB_TABLE_TEXT;
}

const sb_report_kind *sb_report_kind_find(const char *name)
{
    for (int k = 0; name && registry[k]; k++)
        if (!strcmp(name, registry[k]->name))
            return registry[k];
    return NULL;
}

const sb_doc_ops *sb_report_find(const char *kind, sb_report_output out)
{
    const sb_report_kind *k = sb_report_kind_find(kind);
    return k && out < SB_REPORT_NOUTPUTS ? k->ops[out] : NULL;
}

/* ---- SARIF 2.1.0 ------------------------------------------------------------ */

void sb_report__sarif_open(sb_jw *jw)
{
    sb_jw_obj_begin(jw);
    sb_jw_kstr(jw, "$schema", "https://json.schemastore.org/sarif-2.1.0.json");
    sb_jw_kstr(jw, "version", "2.1.0");
    sb_jw_key(jw, "runs");
    sb_jw_arr_begin(jw);
    sb_jw_obj_begin(jw);
    sb_jw_key(jw, "tool");
    sb_jw_obj_begin(jw);
    sb_jw_key(jw, "driver");
    sb_jw_obj_begin(jw);
    sb_jw_kstr(jw, "name", SB_TOOL_NAME);
    sb_jw_kstr(jw, "version", SB_VERSION);
}

/* What a document lacks as every report's JSON says it: `incomplete`, one
 * {step, detail} per pixi:incomplete entry (empty when whole), so a
 * dashboard reads it with one mapping whatever the report. */
void sb_report__incomplete_json(sb_jw *jw, const sb_sbom *s)
{
    sb_jw_key(jw, "incomplete");
    sb_jw_arr_begin(jw);
    for (size_t i = 0; i < s->incomplete.n; i++) {
        sb_jw_obj_begin(jw);
        sb_jw_kstr(jw, "step", s->incomplete.step[i]);
        sb_jw_kstr(jw, "detail", s->incomplete.detail[i]);
        sb_jw_obj_end(jw);
    }
    sb_jw_arr_end(jw);
}

void sb_report__summary_selection(sb_jw *jw, const sb_sbom *s)
{
    sb_report__kopt(jw, "workspace", s->root_name);
    sb_report__kopt(jw, "environment", s->environment);
    sb_report__kopt(jw, "platform", s->platform);
    sb_report__kopt(jw, "lockfile", s->lockfile_name);
    sb_jw_key(jw, "packages");
    sb_jw_int(jw, (long long)s->npkgs);
}

bool sb_report__by_lockfile(const sb_sbom *s)
{
    return s->input_kind && !strcmp(s->input_kind, "repository");
}

static const char *prop_value(const sb_pkg *p, const char *name)
{
    for (uint32_t i = 0; i < p->nprops; i++)
        if (!strcmp(p->props[i].name, name))
            return p->props[i].value;
    return NULL;
}

const char *sb_report__lockfile_of(const sb_sbom *s, const sb_pkg *p)
{
    if (NULL == p || !sb_report__by_lockfile(s))
        return NULL;
    /* a lockfile's own component is its own row's lockfile */
    if (prop_value(p, "pixi:lockfile-kind"))
        return p->name;
    return prop_value(p, "pixi:lockfiles");
}

void sb_report__json_row_open(sb_jw *jw, const sb_sbom *s, const sb_pkg *p)
{
    sb_jw_obj_begin(jw);
    sb_report__kopt(jw, "environment", s->environment);
    sb_report__kopt(jw, "platform", s->platform);
    if (sb_report__by_lockfile(s))
        sb_report__kopt(jw, "lockfile", sb_report__lockfile_of(s, p));
}

sb_code sb_report__csv_line(sb_buf *b, const sb_sbom *s, const sb_pkg *p, const char *const *cells, size_t n)
{
    const char *cv[SB_REPORT__MAXCSV + 3];
    size_t m = 0;
    cv[m++] = s->environment ? s->environment : "";
    cv[m++] = s->platform ? s->platform : "";
    if (sb_report__by_lockfile(s)) {
        const char *l = sb_report__lockfile_of(s, p);
        cv[m++] = l ? l : "";
    }
    for (size_t c = 0; c < n && m < sizeof cv / sizeof cv[0]; c++)
        cv[m++] = cells[c] ? cells[c] : "";
    return sb_table_row(b, SB_TABLE_CSV, cv, m, NULL);
}

sb_code sb_report__csv_header(sb_buf *b, const sb_sbom *s, const char *const *hdr, size_t n)
{
    const char *cv[SB_REPORT__MAXCSV + 3];
    size_t m = 0;
    for (size_t c = 0; c < n && m + 1 < sizeof cv / sizeof cv[0]; c++) {
        if (2 == c && sb_report__by_lockfile(s))
            cv[m++] = "lockfile";
        cv[m++] = hdr[c];
    }
    return sb_table_row(b, SB_TABLE_CSV, cv, m, NULL);
}

/* A SARIF run's invocation: executionSuccessful is false when the document
 * lacks something (code scanning must not read "0 alerts" as "all clear"),
 * with one warning notification per missing step. */
void sb_report__sarif_invocations(sb_jw *jw, const sb_sbom *s, sb_arena *a)
{
    sb_jw_key(jw, "invocations");
    sb_jw_arr_begin(jw);
    sb_jw_obj_begin(jw);
    sb_jw_key(jw, "executionSuccessful");
    sb_jw_bool(jw, s->incomplete.n == 0);
    sb_jw_key(jw, "toolExecutionNotifications");
    sb_jw_arr_begin(jw);
    for (size_t i = 0; i < s->incomplete.n; i++) {
        sb_jw_obj_begin(jw);
        sb_jw_kstr(jw, "level", "warning");
        sb_jw_key(jw, "message");
        sb_jw_obj_begin(jw);
        const char *t = sb_arena_printf(a, "incomplete: %s", s->incomplete.detail[i]); /* "step: what" */
        sb_jw_kstr(jw, "text", t ? t : s->incomplete.step[i]);
        sb_jw_obj_end(jw);
        sb_jw_key(jw, "descriptor");
        sb_jw_obj_begin(jw);
        sb_jw_kstr(jw, "id", s->incomplete.step[i]);
        sb_jw_obj_end(jw);
        sb_jw_obj_end(jw);
    }
    sb_jw_arr_end(jw);
    sb_jw_obj_end(jw);
    sb_jw_arr_end(jw);
}

/* ---- cells ------------------------------------------------------------------ */

const char *sb_report__prop(const sb_pkg *p, const char *name)
{
    for (size_t i = 0; i < p->nprops; i++)
        if (!strcmp(p->props[i].name, name))
            return p->props[i].value;
    return NULL;
}

const char *sb_report__dash(const char *s)
{
    return s && s[0] ? s : "-";
}

const char *sb_report__license_source(const sb_pkg *p)
{
    const char *src = sb_report__prop(p, "pixi:license-source");
    if (src)
        return src;
    return p->license && p->license[0] ? "lockfile" : NULL;
}

/* ---- text, Markdown and CSV lines ------------------------------------------- */

void sb_report__put(sb_doc *d, const char *s, size_t n)
{
    if (d->jw.status == SB_OK && sb_buf_append(&d->stage, s, n) != SB_OK)
        d->jw.status = SB_ENOMEM;
}

void sb_report__puts(sb_doc *d, const char *s)
{
    sb_report__put(d, s, strlen(s));
}

void sb_report__put_cell(sb_doc *d, const char *s, size_t pad)
{
    sb_code rc = sb_report_output_of(d->ops) == SB_REPORT_MARKDOWN ? sb_table_md(&d->stage, s ? s : "", 0)
                                                                   : sb_table_text(&d->stage, s ? s : "", pad);
    if (d->jw.status == SB_OK && rc != SB_OK)
        d->jw.status = SB_ENOMEM;
}

void sb_report__put_line(sb_doc *d, const sb_report__tab *r, const char *const *cv, const size_t *width, size_t nc)
{
    sb_table_out out = r->md ? SB_TABLE_MARKDOWN : r->csv ? SB_TABLE_CSV : SB_TABLE_TEXT;
    if (d->jw.status == SB_OK && sb_table_row(&d->stage, out, cv, nc, width) != SB_OK)
        d->jw.status = SB_ENOMEM;
}

void sb_report__put_rule(sb_doc *d, const sb_report__tab *r, const size_t *width, size_t nc)
{
    if (r->md) {
        if (d->jw.status == SB_OK && sb_table_rule(&d->stage, SB_TABLE_MARKDOWN, nc, NULL) != SB_OK)
            d->jw.status = SB_ENOMEM;
        return;
    }
    for (size_t c = 0; c < nc; c++) {
        if (c)
            sb_report__put(d, "  ", 2);
        for (size_t k = 0; k < width[c]; k++)
            sb_report__put(d, "-", 1);
    }
    sb_report__put(d, "\n", 1);
}

/* The rule under the header: one per column, or one across the table (the
 * tree's, as its golden text has). */
static void header_rule(sb_doc *d, const sb_report__tab *r)
{
    if (r->md || !r->k->rule_across) {
        sb_report__put_rule(d, r, r->width, r->ncols);
        return;
    }
    size_t total = 0;
    for (size_t c = 0; c < r->ncols; c++)
        total += r->width[c] + (c ? 2 : 0);
    for (size_t k = 0; k < total; k++)
        sb_report__put(d, "-", 1);
    sb_report__put(d, "\n", 1);
}

int sb_report__list_open(sb_doc *d, const sb_report__tab *r, const char *label, size_t n)
{
    if (r->md)
        sb_report__puts(d, "### ");
    if (0 == n) {
        sb_report__puts(d, label);
        sb_report__puts(d, ": none\n");
        return 0;
    }
    const char *head = sb_arena_printf(d->arena, "%s (%zu): ", label, n);
    sb_report__puts(d, head ? head : label);
    return 1;
}

size_t sb_report__unknown_count(const sb_doc *d, const sb_report__tab *r)
{
    size_t n = 0;
    for (size_t i = 0; i < d->sbom->npkgs; i++)
        n += r->lics[i].kind == SB_LIC_NONE && sb_pkg_license_unknown(&d->sbom->pkgs[i]) != NULL;
    return n;
}

void sb_report__unknown_line(sb_doc *d, const sb_report__tab *r)
{
    const sb_sbom *s = d->sbom;
    size_t n = 0;
    const char *why = NULL; /* once: it is the same sentence for every package of one lockfile */
    for (size_t i = 0; i < s->npkgs; i++) {
        const char *u = r->lics[i].kind == SB_LIC_NONE ? sb_pkg_license_unknown(&s->pkgs[i]) : NULL;
        n += u != NULL;
        why = why ? why : u;
    }
    if (0 == n || !sb_report__list_open(d, r, "License not known", n))
        return;
    size_t k = 0;
    for (size_t i = 0; i < s->npkgs; i++) {
        if (r->lics[i].kind != SB_LIC_NONE || NULL == sb_pkg_license_unknown(&s->pkgs[i]))
            continue;
        if (k++)
            sb_report__puts(d, ", ");
        sb_report__put_cell(d, s->pkgs[i].name, 0);
    }
    sb_report__puts(d, " - ");
    /* sbomd's own sentence (sb_pkg_license_unknown), no input in it: plain
     * text in every output */
    if (d->jw.status == SB_OK && sb_table_text(&d->stage, why, 0) != SB_OK)
        d->jw.status = SB_ENOMEM;
    sb_report__puts(d, "\n");
}

/* ---- JSON --------------------------------------------------------------------- */

void sb_report__kopt(sb_jw *jw, const char *k, const char *v)
{
    sb_jw_key(jw, k);
    sb_jw_str(jw, v && v[0] ? v : NULL);
}

/* Why a license is not an SPDX expression; NULL when it is one or absent. */
static const char *spdx_reason(const sb_lic *l)
{
    return l->kind == SB_LIC_TEXT ? (l->reason ? l->reason : "not an SPDX expression") : NULL;
}

size_t sb_report__csv_license(sb_doc *d, const sb_pkg *p, const sb_lic *l, const char **cv)
{
    size_t nf = sb_pkg_xr(p)->nlicfiles;
    const char **names = sb_arena_alloc(d->arena, (nf ? nf : 1) * sizeof *names);
    for (size_t k = 0; names && k < nf; k++)
        names[k] = p->x->licfiles[k].name;
    const char *files = names ? sb_arena_join(d->arena, names, nf, SB_REPORT__CSV_SEP) : NULL;
    cv[0] = l->kind == SB_LIC_EXPR ? "true" : "false";
    cv[1] = spdx_reason(l);
    cv[2] = sb_pkg_xr(p)->license_family;
    cv[3] = sb_report__license_source(p);
    cv[4] = files ? files : "";
    return 5;
}

void sb_report__json_license(sb_jw *jw, const sb_pkg *p, const sb_lic *l)
{
    sb_jw_key(jw, "spdx");
    sb_jw_bool(jw, l->kind == SB_LIC_EXPR);
    /* null unless the license is text: every row has every key */
    sb_report__kopt(jw, "spdx_reason", spdx_reason(l));
    sb_report__kopt(jw, "license_family", sb_pkg_xr(p)->license_family);
    sb_report__kopt(jw, "license_source", sb_report__license_source(p));
    sb_jw_key(jw, "license_files");
    sb_jw_arr_begin(jw);
    for (size_t k = 0; k < sb_pkg_xr(p)->nlicfiles; k++)
        sb_jw_str(jw, p->x->licfiles[k].name);
    sb_jw_arr_end(jw);
}

/* Close the rows, open "summary" with what every table report says. */
static void json_summary_open(sb_doc *d)
{
    sb_jw *jw = &d->jw;
    const sb_sbom *s = d->sbom;
    sb_jw_arr_end(jw);
    sb_jw_key(jw, "summary");
    sb_jw_obj_begin(jw);
    sb_report__summary_selection(jw, s);
    sb_report__incomplete_json(jw, s);
}

/* ---- the table reports' producer ------------------------------------------- */

sb_code sb_report__all_rows(sb_doc *d, sb_report__tab *r)
{
    const sb_sbom *s = d->sbom;
    r->rows = sb_arena_calloc(d->arena, s->npkgs ? s->npkgs : 1, sizeof *r->rows);
    if (NULL == r->rows)
        return SB_ENOMEM;
    for (size_t i = 0; i < s->npkgs; i++)
        r->rows[r->nrows++] = SB_REPORT__ROW(i);
    return SB_OK;
}

static size_t count_cells(const char *const *h, size_t max)
{
    size_t n = 0;
    while (n < max && h[n])
        n++;
    return n;
}

/* Licenses per package, the kind's rows, and for text every column's width. */
static sb_code prepare(sb_doc *d, const sb_report__tab_kind *k)
{
    const sb_sbom *s = d->sbom;
    sb_arena *a = d->arena;
    sb_report__tab *r = sb_arena_calloc(a, 1, sizeof *r);
    if (NULL == r)
        return SB_ENOMEM;
    r->k = k;
    r->out = sb_report_output_of(d->ops);
    r->md = r->out == SB_REPORT_MARKDOWN;
    r->csv = r->out == SB_REPORT_CSV;
    r->sarif = r->out == SB_REPORT_SARIF;
    r->text = r->out == SB_REPORT_TEXT || r->md;
    r->lics = sb_arena_calloc(a, s->npkgs ? s->npkgs : 1, sizeof *r->lics);
    if (NULL == r->lics)
        return SB_ENOMEM;
    for (size_t i = 0; i < s->npkgs; i++)
        r->lics[i] = sb_pkg_lic(&s->pkgs[i], a);
    sb_code rc = k->prepare(d, r);
    if (rc != SB_OK)
        return rc;
    r->ncols = count_cells(r->hdr, SB_REPORT__MAXCOLS);
    if (r->text) {
        for (size_t c = 0; c < r->ncols; c++)
            r->width[c] = sb_table_width(r->hdr[c]);
        for (size_t i = 0; i < r->nrows; i++) {
            const char *cv[SB_REPORT__MAXCOLS] = {0};
            k->cells(d, r, i, cv);
            size_t w0 = k->first_width ? k->first_width(r, i, cv[0]) : sb_table_width(cv[0]);
            if (w0 > r->width[0])
                r->width[0] = w0;
            for (size_t c = 1; c < r->ncols; c++) {
                size_t w = sb_table_width(cv[c]);
                if (w > r->width[c])
                    r->width[c] = w;
            }
        }
    }
    if (r->csv || r->sarif)
        r->nsummary = 0; /* rows only; SARIF closes in end() */
    d->fmt = r;
    return SB_OK;
}

sb_code sb_report__tab_begin(sb_doc *d, const sb_report__tab_kind *k)
{
    sb_code rc = prepare(d, k);
    if (rc != SB_OK)
        return rc;
    const sb_report__tab *r = d->fmt;
    if (r->md) {
        const sb_sbom *s = d->sbom;
        if (sb_table_heading(&d->stage, d->ops->name, s->root_name, s->environment, s->platform) != SB_OK)
            return SB_ENOMEM;
    }
    if (r->text) {
        sb_report__put_line(d, r, r->hdr, r->width, r->ncols);
        header_rule(d, r);
        return d->jw.status;
    }
    if (r->csv) {
        if (d->jw.status == SB_OK &&
            sb_report__csv_header(&d->stage, d->sbom, r->csv_hdr, count_cells(r->csv_hdr, SB_REPORT__MAXCSV)) != SB_OK)
            d->jw.status = SB_ENOMEM;
        return d->jw.status;
    }
    if (r->sarif) {
        k->sarif_begin(d, r);
        return d->jw.status;
    }
    sb_jw_obj_begin(&d->jw);
    sb_jw_key(&d->jw, d->ops->name);
    sb_jw_arr_begin(&d->jw);
    return d->jw.status;
}

sb_code sb_report__tab_nothing(sb_doc *d, size_t i)
{
    (void)i;
    return d->jw.status;
}

sb_code sb_report__tab_middle(sb_doc *d)
{
    return d->jw.status;
}

size_t sb_report__tab_count(const sb_doc *d)
{
    const sb_report__tab *r = d->fmt;
    return r->nrows + r->nsummary;
}

static void csv_row(sb_doc *d, const sb_report__tab *r, size_t i)
{
    const char *cv[SB_REPORT__MAXCSV] = {0};
    size_t n = r->k->csv_cells(d, r, i, cv);
    if (d->jw.status == SB_OK &&
        sb_report__csv_line(&d->stage, d->sbom, &d->sbom->pkgs[r->rows[i].pkg], cv, n) != SB_OK)
        d->jw.status = SB_ENOMEM;
}

static void text_row(sb_doc *d, const sb_report__tab *r, size_t i)
{
    const char *cv[SB_REPORT__MAXCOLS] = {0};
    r->k->cells(d, r, i, cv);
    sb_report__put_line(d, r, cv, r->md ? NULL : r->width, r->ncols);
}

sb_code sb_report__tab_piece(sb_doc *d, size_t i)
{
    const sb_report__tab *r = d->fmt;
    const sb_report__tab_kind *k = r->k;
    if (i < r->nrows) {
        if (r->text)
            (k->text_row ? k->text_row : text_row)(d, r, i);
        else if (r->csv)
            csv_row(d, r, i);
        else if (r->sarif)
            k->sarif_row(d, r, i);
        else
            k->json_row(d, r, i);
        return d->jw.status;
    }
    size_t part = i - r->nrows;
    if (r->text) {
        if (k->text_summary)
            k->text_summary(d, r, part);
        return d->jw.status;
    }
    if (0 == part)
        json_summary_open(d);
    if (k->json_summary)
        k->json_summary(d, r, part);
    return d->jw.status;
}

sb_code sb_report__tab_end(sb_doc *d)
{
    const sb_report__tab *r = d->fmt;
    if (r->text || r->csv)
        return d->jw.status;
    if (r->sarif) {
        r->k->sarif_end(d, r);
        return d->jw.status;
    }
    if (r->k->json_end)
        r->k->json_end(d, r);
    sb_jw_obj_end(&d->jw); /* summary */
    sb_jw_obj_end(&d->jw);
    return d->jw.status;
}
