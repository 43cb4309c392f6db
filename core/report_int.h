/*
 * report_int.h - what core/report.c shares with the table reports
 * (report_packages.c, report_licenses.c, report_python.c, report_tree.c):
 * the row and report state every one of them fills, the hooks a kind gives
 * (sb_report__tab_kind), the producer callbacks that drive those hooks, and
 * the small writers they all use (lines, rules, cells, JSON keys). Not for
 * callers outside the reports: they use report.h.
 *
 * DESIGN: a table report's begin() is sb_report__tab_begin() with its kind.
 * That computes the package licenses, lets the kind build its rows (and any
 * state of its own, in the document's arena), measures every text column,
 * and writes the opening. Relation pieces are then the rows, then the
 * summary's parts; end() closes. Cells are never stored as strings: a kind
 * derives them from the model again when a row is written, so a report holds
 * O(rows) indices, not its own text.
 */
#ifndef SB_REPORT_INT_H
#define SB_REPORT_INT_H

#include "license.h"
#include "report.h"

#include <stdbool.h>
#include <stddef.h>

#define SB_REPORT__MAXCOLS 8 /* text columns of a table report */
#define SB_REPORT__MAXCSV 24 /* CSV columns, environment and platform included */

/* One row: a package, plus what the tree and python reports keep per row. */
typedef struct sb_report__row {
    size_t pkg;
    size_t parent;              /* tree: parent row, SIZE_MAX for a root edge */
    unsigned depth;             /* tree */
    bool last, repeat;          /* tree: last child of its parent; already expanded */
    int ceil_major, ceil_minor; /* python: -1 when no ceiling */
    int satisfied;              /* python: 1, 0, -1 unknown */
} sb_report__row;

/* A row of package `pkg` with nothing kind-specific set. */
#define SB_REPORT__ROW(pkg) ((sb_report__row){(pkg), SIZE_MAX, 0, false, false, -1, -1, -1})

typedef struct sb_report__tab sb_report__tab;

/* What a table report kind gives; NULL hooks are the defaults named. */
typedef struct sb_report__tab_kind {
    const sb_report_kind *kind; /* its outputs: which one a document's ops is */
    /* Required: fill r->rows/nrows, r->hdr (text headers, NULL-terminated
     * within SB_REPORT__MAXCOLS), r->csv_hdr (NULL-terminated), r->nsummary
     * (summary pieces of the JSON or text output; CSV and SARIF have none)
     * and r->own. */
    sb_code (*prepare)(sb_doc *d, sb_report__tab *r);
    /* Required: the text cells of row i (r->ncols of them). */
    void (*cells)(sb_doc *d, const sb_report__tab *r, size_t i, const char *out[SB_REPORT__MAXCOLS]);
    /* The width row i's first cell takes (NULL: the cell's own width). */
    size_t (*first_width)(const sb_report__tab *r, size_t i, const char *cell);
    /* A text or Markdown row (NULL: the cells on one table line). */
    void (*text_row)(sb_doc *d, const sb_report__tab *r, size_t i);
    /* Text summary piece k (NULL when the text output has none). */
    void (*text_summary)(sb_doc *d, const sb_report__tab *r, size_t k);
    /* Required: the CSV cells of row i after environment and platform; returns how many. */
    size_t (*csv_cells)(sb_doc *d, const sb_report__tab *r, size_t i, const char **cv);
    /* Required: the JSON object of row i. */
    void (*json_row)(sb_doc *d, const sb_report__tab *r, size_t i);
    /* JSON summary piece k, inside "summary" after the keys every report writes. */
    void (*json_summary)(sb_doc *d, const sb_report__tab *r, size_t k);
    /* Last keys of the JSON summary (NULL: none). */
    void (*json_end)(sb_doc *d, const sb_report__tab *r);
    /* SARIF: the log up to its results, one result per row (or none), the close. */
    void (*sarif_begin)(sb_doc *d, const sb_report__tab *r);
    void (*sarif_row)(sb_doc *d, const sb_report__tab *r, size_t i);
    void (*sarif_end)(sb_doc *d, const sb_report__tab *r);
    bool rule_across; /* text: one rule across the whole table instead of one per column */
} sb_report__tab_kind;

/* A table report being written (d->fmt). */
struct sb_report__tab {
    const sb_report__tab_kind *k;
    sb_report_output out;
    bool text;           /* the aligned table and its summaries (also Markdown's shape) */
    bool md, csv, sarif; /* Markdown rows, CSV rows, SARIF findings */
    sb_lic *lics;        /* per package */
    sb_report__row *rows;
    size_t nrows;
    const char *const *hdr; /* text headers */
    size_t ncols;
    size_t width[SB_REPORT__MAXCOLS];
    const char *const *csv_hdr;
    size_t nsummary; /* relation pieces after the rows */
    void *own;       /* the kind's own state */
};

/* The producer callbacks of every table report; a kind's begin() is
 * `return sb_report__tab_begin(d, &its_kind);`. */
sb_code sb_report__tab_begin(sb_doc *d, const sb_report__tab_kind *k);
sb_code sb_report__tab_nothing(sb_doc *d, size_t i);
sb_code sb_report__tab_middle(sb_doc *d);
size_t sb_report__tab_count(const sb_doc *d);
sb_code sb_report__tab_piece(sb_doc *d, size_t i);
sb_code sb_report__tab_end(sb_doc *d);

#define SB_REPORT__TAB_OPS(var, kind_name, begin_fn, OUT) \
    SB_REPORT_OUTPUT(var, kind_name, OUT, begin_fn, sb_report__tab_middle, sb_report__tab_count, sb_report__tab_piece, \
                     sb_report__tab_end, sb_report__tab_nothing)

/* The four outputs every table report has: prefix_json, prefix_text,
 * prefix_md and prefix_csv (a report with findings adds its SARIF beside). */
#define SB_REPORT__TAB_OUTPUTS(prefix, kind_name, begin_fn) \
    SB_REPORT__TAB_OPS(prefix##_json, kind_name, begin_fn, JSON); \
    SB_REPORT__TAB_OPS(prefix##_text, kind_name, begin_fn, TEXT); \
    SB_REPORT__TAB_OPS(prefix##_md, kind_name, begin_fn, MARKDOWN); \
    SB_REPORT__TAB_OPS(prefix##_csv, kind_name, begin_fn, CSV)

/* One row per package, in model order (packages, licenses). */
sb_code sb_report__all_rows(sb_doc *d, sb_report__tab *r);

/* Writers into d->stage; a failure is kept in d->jw.status. */
void sb_report__put(sb_doc *d, const char *s, size_t n);
void sb_report__puts(sb_doc *d, const char *s);
/* A value inside a line of text (a name, a reason): control characters
 * shown as '?', padded to `pad` columns; in a Markdown report through
 * sb_table_md instead, unpadded, so it renders as the value and nothing else. */
void sb_report__put_cell(sb_doc *d, const char *s, size_t pad);
/* A line of cells in the report's table style (width NULL: unpadded). */
void sb_report__put_line(sb_doc *d, const sb_report__tab *r, const char *const *cv, const size_t *width, size_t nc);
/* The rule under a header of nc columns of these widths. */
void sb_report__put_rule(sb_doc *d, const sb_report__tab *r, const size_t *width, size_t nc);
/* The head of a summary list: "Label: none\n" (returns 0, the line is
 * done) or "Label (n): " (returns 1, the names follow); Markdown adds "### ". */
int sb_report__list_open(sb_doc *d, const sb_report__tab *r, const char *label, size_t n);

/* The text or Markdown line of packages whose license is not known (the
 * lockfile does not record it, no lookup told it), which is not "no
 * license": "License not known (n): a, b - why\n", in the words of the
 * page (handlers/page.html); nothing when every license is known. */
void sb_report__unknown_line(sb_doc *d, const sb_report__tab *r);
/* How many packages that line names. */
size_t sb_report__unknown_count(const sb_doc *d, const sb_report__tab *r);

/* A JSON key whose value is a string, null when NULL or empty. */
void sb_report__kopt(sb_jw *jw, const char *k, const char *v);
/* The license keys the packages and licenses rows share: spdx, spdx_reason,
 * license_family, license_source, license_files. */
void sb_report__json_license(sb_jw *jw, const sb_pkg *p, const sb_lic *l);

/* The same license keys as CSV cells (spdx as true/false, the license files
 * joined with SB_REPORT__CSV_SEP); returns how many (5). */
size_t sb_report__csv_license(sb_doc *d, const sb_pkg *p, const sb_lic *l, const char **cv);

/* "-" for a NULL or empty cell. */
const char *sb_report__dash(const char *s);
/* A package property's value, NULL when absent. */
const char *sb_report__prop(const sb_pkg *p, const char *name);
/* "lockfile" when the input carried the license, else its provenance (NULL: none). */
const char *sb_report__license_source(const sb_pkg *p);

#endif
