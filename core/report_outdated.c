/*
 * report_outdated.c - the outdated report: one
 * row per PyPI index package whose locked release is older than its
 * project's newest (info.version of the PyPI project page), with Version,
 * Age (days from the locked release's first upload to the document's
 * timestamp), Latest, Released (the newest's first upload), Behind
 * (installable releases between them) and Step (major / minor / patch /
 * other), as JSON, an aligned text table, Markdown and CSV. The summary
 * counts what was checked, current, outdated and not answered.
 *
 * PyPI index packages are checked against their project pages, conda
 * packages against their channel's index when the server reads one
 * (--channel-index-url); conda packages left unchecked are counted. Rows
 * are computed when the report begins, in the document's arena.
 */
#include "health.h"
#include "ecosystem.h"
#include "report.h"
#include "table.h"

#include <stdio.h>
#include <string.h>


#define NCOLS 7

typedef struct oreport {
    sb_report_output out;
    size_t *rows; /* package indices */
    size_t nrows;
    size_t width[NCOLS];
    size_t checked, current, unknown, failed, conda;
} oreport;

static const char *const header[NCOLS] = {"Name", "Version", "Age", "Latest", "Released", "Behind", "Step"};

/* The JSON row's keys, in its order: the CSV header (one schema
 * for every report, openapi/reports.schema.json). */
static const char *const csv_header[] = {"environment", "platform", "name",   "version",         "purl",
                                         "released",    "age_days", "latest", "latest_released", "behind",
                                         "step",        "yanked"};
enum { NCSV = sizeof csv_header / sizeof csv_header[0] };

/* days since 1970-01-01 of a YYYY-MM-DD date (the civil calendar); -1 when unparsable */
static long long days_of(const char *s)
{
    int y, m, d;
    if (NULL == s || sscanf(s, "%4d-%2d-%2d", &y, &m, &d) != 3 || m < 1 || m > 12 || d < 1 || d > 31)
        return -1;
    y -= m <= 2;
    long long era = (y >= 0 ? y : y - 399) / 400;
    long long yoe = y - era * 400;
    long long doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
    long long doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + doe - 719468;
}

/* whole days from the locked release to the document's time; -1 unknown */
static long long age_of(const sb_doc *d, const sb_health *h)
{
    long long from = days_of(h->released);
    if (from < 0)
        return -1;
    long long now = (long long)d->opts.timestamp / 86400;
    return now >= from ? now - from : 0;
}

static void cells(sb_doc *d, size_t i, const char **c)
{
    const sb_pkg *p = &d->sbom->pkgs[i];
    const sb_health *h = &d->sbom->health[i];
    long long age = age_of(d, h);
    c[0] = p->name;
    c[1] = p->version;
    c[2] = age >= 0 ? sb_arena_printf(d->arena, "%lldd", age) : NULL;
    c[3] = h->latest;
    c[4] = h->latest_released;
    c[5] = sb_arena_printf(d->arena, "%ld", h->behind);
    c[6] = h->step;
    for (int k = 0; k < NCOLS; k++)
        if (NULL == c[k] || !c[k][0])
            c[k] = "-";
}

static sb_code obegin(sb_doc *d)
{
    const sb_sbom *s = d->sbom;
    oreport *r = sb_arena_calloc(d->arena, 1, sizeof *r);
    if (NULL == r)
        return SB_ENOMEM;
    d->fmt = r;
    r->out = sb_report_output_of(d->ops);
    r->rows = sb_arena_alloc(d->arena, (s->npkgs ? s->npkgs : 1) * sizeof *r->rows);
    if (NULL == r->rows)
        return SB_ENOMEM;
    for (size_t i = 0; i < s->npkgs; i++) {
        const sb_health *h = s->health ? &s->health[i] : NULL;
        if (NULL == h || h->state == SB_HEALTH_NONE) {
            r->conda += sb_eco_is(s->pkgs[i].kind, SB_ECO_CHANNEL);
            continue;
        }
        /* checked: the index answered (a 404 too); a failed question
         * checked nothing, so "checked 86, failed 86" cannot happen */
        r->checked += h->state != SB_HEALTH_FAILED;
        if (h->state == SB_HEALTH_UNKNOWN)
            r->unknown++;
        else if (h->state == SB_HEALTH_FAILED)
            r->failed++;
        else if (NULL == h->step)
            r->current++;
        else
            r->rows[r->nrows++] = i;
    }
    sb_table_fit(r->width, header, NCOLS);
    for (size_t i = 0; i < r->nrows; i++) {
        const char *c[NCOLS];
        cells(d, r->rows[i], c);
        sb_table_fit(r->width, c, NCOLS);
    }
    sb_jw *jw = &d->jw;
    sb_buf *b = &d->stage;
    switch (r->out) {
    case SB_REPORT_JSON:
        sb_jw_obj_begin(jw);
        sb_jw_key(jw, "outdated");
        sb_jw_arr_begin(jw);
        return jw->status;
    case SB_REPORT_MARKDOWN: {
        sb_code rc = sb_table_heading(b, "outdated", s->root_name, s->environment, s->platform);
        return rc == SB_OK ? sb_table_head(b, SB_TABLE_MARKDOWN, header, NCOLS, NULL) : rc;
    }
    case SB_REPORT_CSV: return sb_report__csv_header(b, s, csv_header, NCSV);
    default: return sb_table_head(b, sb_report_table_out(r->out), header, NCOLS, r->width);
    }
}

static sb_code onothing(sb_doc *d, size_t i)
{
    (void)i;
    return d->jw.status;
}

static sb_code omiddle(sb_doc *d)
{
    return d->jw.status;
}

static size_t ocount(const sb_doc *d)
{
    const oreport *r = d->fmt;
    return r->nrows + 1; /* the rows, then the summary */
}

/* The CSV cells of package i after environment and platform, as its JSON row has them. */
static size_t csv_cells(sb_doc *d, size_t i, const char **c)
{
    const sb_pkg *p = &d->sbom->pkgs[i];
    const sb_health *h = &d->sbom->health[i];
    long long age = age_of(d, h);
    size_t n = 0;
    c[n++] = p->name, c[n++] = p->version, c[n++] = p->purl, c[n++] = h->released;
    c[n++] = age >= 0 ? sb_arena_printf(d->arena, "%lld", age) : NULL;
    c[n++] = h->latest, c[n++] = h->latest_released, c[n++] = sb_arena_printf(d->arena, "%ld", h->behind);
    c[n++] = h->step, c[n++] = h->yanked ? "true" : "false";
    return n;
}

static void json_row(sb_doc *d, size_t i)
{
    sb_jw *jw = &d->jw;
    const sb_pkg *p = &d->sbom->pkgs[i];
    const sb_health *h = &d->sbom->health[i];
    long long age = age_of(d, h);
    sb_report__json_row_open(jw, d->sbom, p);
    sb_jw_kstr(jw, "name", p->name);
    sb_jw_kstr(jw, "version", p->version);
    sb_jw_kstr(jw, "purl", p->purl);
    sb_jw_key(jw, "released");
    sb_jw_str(jw, h->released);
    sb_jw_key(jw, "age_days");
    if (age >= 0)
        sb_jw_int(jw, age);
    else
        sb_jw_null(jw);
    sb_jw_kstr(jw, "latest", h->latest);
    sb_jw_key(jw, "latest_released");
    sb_jw_str(jw, h->latest_released);
    sb_jw_key(jw, "behind");
    sb_jw_int(jw, h->behind);
    sb_jw_kstr(jw, "step", h->step);
    sb_jw_key(jw, "yanked");
    sb_jw_bool(jw, h->yanked);
    sb_jw_obj_end(jw);
}

static sb_code summary(sb_doc *d, oreport *r)
{
    const sb_sbom *s = d->sbom;
    const char *inc = sb_incomplete_details(&s->incomplete, d->arena);
    if (r->out == SB_REPORT_JSON) {
        sb_jw *jw = &d->jw;
        sb_jw_arr_end(jw);
        sb_jw_key(jw, "summary");
        sb_jw_obj_begin(jw);
        sb_report__summary_selection(jw, s);
        sb_jw_key(jw, "checked");
        sb_jw_int(jw, (long long)r->checked);
        sb_jw_key(jw, "outdated");
        sb_jw_int(jw, (long long)r->nrows);
        sb_jw_key(jw, "current");
        sb_jw_int(jw, (long long)r->current);
        sb_jw_key(jw, "not_on_index");
        sb_jw_int(jw, (long long)r->unknown);
        sb_jw_key(jw, "failed");
        sb_jw_int(jw, (long long)r->failed);
        sb_jw_key(jw, "conda_not_checked");
        sb_jw_int(jw, (long long)r->conda);
        sb_report__incomplete_json(jw, s);
        sb_jw_obj_end(jw);
        return jw->status;
    }
    if (r->out == SB_REPORT_CSV)
        return SB_OK;
    const char *line = sb_arena_printf(
        d->arena,
        "\n%sSummary: %zu index package(s) checked: %zu outdated, %zu current, %zu not on the index; %zu asked "
        "and not answered; %zu conda package(s) not checked (no channel index is read)%s%s\n",
        r->out == SB_REPORT_MARKDOWN ? "### " : "", r->checked, r->nrows, r->current, r->unknown, r->failed, r->conda,
        inc ? "\nIncomplete: " : "", inc ? inc : "");
    return line ? sb_buf_append(&d->stage, line, strlen(line)) : SB_ENOMEM;
}

static sb_code opiece(sb_doc *d, size_t i)
{
    oreport *r = d->fmt;
    if (i == r->nrows)
        return summary(d, r);
    if (r->out == SB_REPORT_JSON) {
        json_row(d, r->rows[i]);
        return d->jw.status;
    }
    if (r->out == SB_REPORT_CSV) {
        const char *cv[NCSV];
        return sb_report__csv_line(&d->stage, d->sbom, &d->sbom->pkgs[r->rows[i]], cv, csv_cells(d, r->rows[i], cv));
    }
    const char *c[NCOLS];
    cells(d, r->rows[i], c);
    return sb_table_row(&d->stage, sb_report_table_out(r->out), c, NCOLS, r->out == SB_REPORT_TEXT ? r->width : NULL);
}

static sb_code oend(sb_doc *d)
{
    oreport *r = d->fmt;
    if (r->out == SB_REPORT_JSON)
        sb_jw_obj_end(&d->jw);
    return d->jw.status;
}


SB_REPORT_OUTPUT(outdated_json, "outdated", JSON, obegin, omiddle, ocount, opiece, oend, onothing);
SB_REPORT_OUTPUT(outdated_text, "outdated", TEXT, obegin, omiddle, ocount, opiece, oend, onothing);
SB_REPORT_OUTPUT(outdated_md, "outdated", MARKDOWN, obegin, omiddle, ocount, opiece, oend, onothing);
SB_REPORT_OUTPUT(outdated_csv, "outdated", CSV, obegin, omiddle, ocount, opiece, oend, onothing);

const sb_report_kind sb_report_outdated = {.name = "outdated",
                                           .needs_health = true,
                                           .ops = {&outdated_json, &outdated_text, &outdated_md, &outdated_csv, NULL}};
