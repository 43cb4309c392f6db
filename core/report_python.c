/*
 * report_python.c - the python report: one row per PyPI package
 * with its requires-python, whether the locked interpreter (the conda
 * `python` package) satisfies it, and the highest Python MAJOR.MINOR it
 * allows (its ceiling); rows lowest ceiling first. The summary names the
 * report's ceiling, the packages holding it, those the interpreter does not
 * satisfy, and how many say nothing about Python. As JSON, an aligned text
 * table, Markdown and CSV. Specifiers are read by core/marker.c, the one
 * version-spec evaluator. A table report: the shared machinery is in
 * report.c (report_int.h).
 */
#include "marker.h"
#include "ecosystem.h"
#include "report_int.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* The python report's own state (r->own). */
typedef struct preport {
    const char *interp;       /* the interpreter's version, or NULL */
    int min_major, min_minor; /* the lowest ceiling, -1 when none */
    size_t nopython;          /* PyPI packages without requires-python */
} preport;

static const char *const headers[] = {"Package", "Version", "Requires-Python", "Satisfied", "Ceiling", NULL};

/* The JSON row's keys, in its order (`name` as in every report). */
static const char *const csv_headers[] = {"environment",     "platform",  "name",    "version",
                                          "requires_python", "satisfied", "ceiling", NULL};

static const preport *own(const sb_report__tab *r)
{
    return r->own;
}

/* ---- rows ------------------------------------------------------------------ */

static int ceil_cmp(const sb_report__row *a, const sb_report__row *b)
{
    if ((a->ceil_major < 0) != (b->ceil_major < 0))
        return a->ceil_major < 0 ? 1 : -1;
    if (a->ceil_major != b->ceil_major)
        return a->ceil_major < b->ceil_major ? -1 : 1;
    if (a->ceil_minor != b->ceil_minor)
        return a->ceil_minor < b->ceil_minor ? -1 : 1;
    return a->pkg < b->pkg ? -1 : a->pkg > b->pkg;
}

static int row_ceil_cmp(const void *a, const void *b)
{
    return ceil_cmp(a, b);
}

/* One row per PyPI package, its ceiling and the interpreter's verdict. */
static sb_code prepare(sb_doc *d, sb_report__tab *r)
{
    const sb_sbom *s = d->sbom;
    preport *py = sb_arena_calloc(d->arena, 1, sizeof *py);
    r->rows = sb_arena_calloc(d->arena, s->npkgs ? s->npkgs : 1, sizeof *r->rows);
    if (NULL == py || NULL == r->rows)
        return SB_ENOMEM;
    r->own = py;
    r->hdr = headers;
    r->csv_hdr = csv_headers;
    r->nsummary = 1;
    py->min_major = py->min_minor = -1;
    for (size_t i = 0; i < s->npkgs; i++) {
        const sb_pkg *p = &s->pkgs[i];
        if (!strcmp(p->name, "python") && sb_eco_is(p->kind, SB_ECO_CHANNEL) && p->version)
            py->interp = p->version;
    }
    for (size_t i = 0; i < s->npkgs; i++) {
        const sb_pkg *p = &s->pkgs[i];
        sb_report__row w = SB_REPORT__ROW(i);
        if (!sb_eco_is(p->kind, SB_ECO_PYPI_INDEX))
            continue;
        if (p->requires_python && p->requires_python[0]) { /* read at MAJOR.MINOR */
            w.satisfied = sb_marker_spec_match(p->requires_python, py->interp);
            sb_marker_python_ceiling(p->requires_python, &w.ceil_major, &w.ceil_minor);
        } else {
            py->nopython++;
        }
        if (w.ceil_major >= 0 && (py->min_major < 0 || w.ceil_major < py->min_major ||
                                  (w.ceil_major == py->min_major && w.ceil_minor < py->min_minor))) {
            py->min_major = w.ceil_major;
            py->min_minor = w.ceil_minor;
        }
        r->rows[r->nrows++] = w;
    }
    qsort(r->rows, r->nrows, sizeof *r->rows, row_ceil_cmp);
    return SB_OK;
}

static const char *ceiling_text(sb_doc *d, int maj, int min)
{
    if (maj < 0)
        return NULL;
    return sb_arena_printf(d->arena, "%d.%d", maj, min);
}

static void cells(sb_doc *d, const sb_report__tab *r, size_t i, const char *out[SB_REPORT__MAXCOLS])
{
    const sb_report__row *w = &r->rows[i];
    const sb_pkg *p = &d->sbom->pkgs[w->pkg];
    out[0] = p->name, out[1] = sb_report__dash(p->version), out[2] = sb_report__dash(p->requires_python);
    out[3] = w->satisfied < 0 ? "-" : w->satisfied ? "yes" : "no";
    out[4] = sb_report__dash(ceiling_text(d, w->ceil_major, w->ceil_minor));
}

static size_t csv_cells(sb_doc *d, const sb_report__tab *r, size_t i, const char **cv)
{
    const sb_report__row *w = &r->rows[i];
    const sb_pkg *p = &d->sbom->pkgs[w->pkg];
    size_t n = 0;
    cv[n++] = p->name, cv[n++] = p->version, cv[n++] = p->requires_python;
    cv[n++] = w->satisfied < 0 ? NULL : w->satisfied ? "true" : "false";
    cv[n++] = ceiling_text(d, w->ceil_major, w->ceil_minor);
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
    sb_report__kopt(jw, "requires_python", p->requires_python);
    sb_jw_key(jw, "satisfied");
    if (w->satisfied < 0)
        sb_jw_null(jw);
    else
        sb_jw_bool(jw, w->satisfied == 1);
    sb_report__kopt(jw, "ceiling", ceiling_text(d, w->ceil_major, w->ceil_minor));
    sb_jw_obj_end(jw);
}

/* ---- summary --------------------------------------------------------------- */

/* A row whose ceiling is the lowest of the report's. */
static int holds_ceiling(const sb_report__tab *r, const sb_report__row *w)
{
    return w->ceil_major >= 0 && w->ceil_major == own(r)->min_major && w->ceil_minor == own(r)->min_minor;
}

/* The interpreter as MAJOR.MINOR, or NULL when unknown. */
static const char *interp_minor(sb_doc *d, const sb_report__tab *r)
{
    long major, minor;
    if (sb_marker_major_minor(own(r)->interp, &major, &minor) == 0)
        return sb_arena_printf(d->arena, "%ld.%ld", major, minor);
    return NULL;
}

static void text_summary(sb_doc *d, const sb_report__tab *r, size_t k)
{
    (void)k;
    const sb_sbom *s = d->sbom;
    const char *ceil = ceiling_text(d, own(r)->min_major, own(r)->min_minor);
    const char *interp = interp_minor(d, r);
    const char *t = sb_arena_printf(d->arena, "%sSummary: interpreter %s, highest Python these packages allow: %s\n",
                                    r->md ? "\n### " : "\n", interp ? interp : "unknown", ceil ? ceil : "no ceiling");
    sb_report__puts(d, t ? t : "\n");
    size_t hold = 0, unsat = 0;
    for (size_t i = 0; i < r->nrows; i++) {
        hold += holds_ceiling(r, &r->rows[i]);
        unsat += r->rows[i].satisfied == 0;
    }
    for (int pass = 0; pass < 2; pass++) {
        const char *label = pass ? "Not satisfied by this interpreter" : "Holding the ceiling";
        if (!sb_report__list_open(d, r, label, pass ? unsat : hold))
            continue;
        size_t m = 0;
        for (size_t i = 0; i < r->nrows; i++) {
            const sb_report__row *w = &r->rows[i];
            if (!(pass ? w->satisfied == 0 : holds_ceiling(r, w)))
                continue;
            if (m++)
                sb_report__puts(d, ", ");
            sb_report__put_cell(d, s->pkgs[w->pkg].name, 0);
            sb_report__puts(d, " ");
            sb_report__put_cell(d, s->pkgs[w->pkg].requires_python, 0);
        }
        sb_report__puts(d, "\n");
    }
    const char *t2 = sb_arena_printf(d->arena, "%sSaying nothing about Python: %zu\n", r->md ? "### " : "",
                                     own(r)->nopython);
    sb_report__puts(d, t2 ? t2 : "");
}

static void json_summary(sb_doc *d, const sb_report__tab *r, size_t k)
{
    (void)k;
    sb_jw *jw = &d->jw;
    const sb_sbom *s = d->sbom;
    sb_report__kopt(jw, "interpreter", interp_minor(d, r));
    sb_report__kopt(jw, "ceiling", ceiling_text(d, own(r)->min_major, own(r)->min_minor));
    sb_jw_key(jw, "holding_ceiling");
    sb_jw_arr_begin(jw);
    for (size_t i = 0; i < r->nrows; i++)
        if (holds_ceiling(r, &r->rows[i]))
            sb_jw_str(jw, s->pkgs[r->rows[i].pkg].name);
    sb_jw_arr_end(jw);
    sb_jw_key(jw, "not_satisfied");
    sb_jw_arr_begin(jw);
    for (size_t i = 0; i < r->nrows; i++)
        if (r->rows[i].satisfied == 0)
            sb_jw_str(jw, s->pkgs[r->rows[i].pkg].name);
    sb_jw_arr_end(jw);
    sb_jw_key(jw, "saying_nothing");
    sb_jw_int(jw, (long long)own(r)->nopython);
}

static const sb_report__tab_kind python = {
    .kind = &sb_report_python,
    .prepare = prepare,
    .cells = cells,
    .text_summary = text_summary,
    .csv_cells = csv_cells,
    .json_row = json_row,
    .json_summary = json_summary,
};

static sb_code begin(sb_doc *d)
{
    return sb_report__tab_begin(d, &python);
}

SB_REPORT__TAB_OUTPUTS(python, "python", begin);

const sb_report_kind sb_report_python = {.name = "python",
                                         .ops = {&python_json, &python_text, &python_md, &python_csv, NULL}};
