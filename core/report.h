/*
 * report.h - the reports over one selected model: packages, licenses,
 * python, tree, quality, vulnerabilities, outdated, explain (the registry in
 * report.c); each as JSON (stable key order), an aligned text table for
 * terminals, Markdown or CSV; licenses (under a license policy) and
 * vulnerabilities also as SARIF.
 *
 * A report is an sb_doc_ops like a document format, so it is produced by the
 * same resumable producer (sb_doc_new / sb_doc_produce): one row per piece,
 * streamed in bounded buffers. What a row needs beyond the model (column
 * widths, license counts, the tree's walk) is computed when the report
 * begins, in the document's arena.
 */
#ifndef SB_REPORT_H
#define SB_REPORT_H

#include "doc.h"
#include "table.h"

/* The outputs a report can be written in (a kind has some of them). */
typedef enum sb_report_output {
    SB_REPORT_JSON,     /* application/json, stable key order */
    SB_REPORT_TEXT,     /* text/plain, an aligned table */
    SB_REPORT_MARKDOWN, /* text/markdown, for pull-request comments */
    SB_REPORT_CSV,      /* text/csv, RFC 4180, formula-safe */
    SB_REPORT_SARIF,    /* application/sarif+json 2.1.0, where rows are findings */
    SB_REPORT_NOUTPUTS
} sb_report_output;

/* The media type of each output. */
#define SB_REPORT_MEDIA_JSON "application/json"
#define SB_REPORT_MEDIA_TEXT "text/plain; charset=utf-8"
#define SB_REPORT_MEDIA_MARKDOWN "text/markdown; charset=utf-8"
#define SB_REPORT_MEDIA_CSV "text/csv; charset=utf-8"
#define SB_REPORT_MEDIA_SARIF "application/sarif+json"

/* The descriptor of one output OUT (JSON, TEXT, MARKDOWN, CSV, SARIF) of
 * the report `kind_name`, from the report's producer functions: every
 * report's outputs are written with it, one line each. */
#define SB_REPORT_OUTPUT(var, kind_name, OUT, begin_fn, middle_fn, count_fn, piece_fn, end_fn, nothing_fn) \
    static const sb_doc_ops var = {.name = kind_name, \
                                   .media_type = SB_REPORT_MEDIA_##OUT, \
                                   .text_shape = SB_TEXTS_CYCLONEDX, \
                                   .report_output = SB_REPORT_##OUT, \
                                   .begin = begin_fn, \
                                   .component = nothing_fn, \
                                   .middle = middle_fn, \
                                   .relation_count = count_fn, \
                                   .relation = piece_fn, \
                                   .end = end_fn}

/* One report kind: its name (the path /v1/report/<name>) and its producer
 * per output, NULL where it has no such output. Each kind lives in its
 * own file (core/report_<kind>.c) and is listed once in the registry in
 * report.c. */
/* The parameters a report takes beyond the selection's and output's. */
typedef enum sb_report_params {
    SB_REPORT_PARAMS_COMMON = 0,
    SB_REPORT_PARAMS_TREE,    /* depth= */
    SB_REPORT_PARAMS_QUALITY, /* profile= */
    SB_REPORT_PARAMS_EXPLAIN  /* package= */
} sb_report_params;

typedef struct sb_report_kind {
    const char *name;
    const sb_doc_ops *ops[SB_REPORT_NOUTPUTS];
    bool needs_package;      /* about one package: package= is required (explain) */
    bool needs_vulns;        /* about findings: OSV is asked whether or not vulnerabilities= says so */
    bool needs_health;       /* about releases: the index's project pages are asked */
    bool sarif_needs_policy; /* its SARIF results are policy violations: no policy, no SARIF */
    sb_report_params params;
} sb_report_kind;

/* The report kinds, each in its own file. */
extern const sb_report_kind sb_report_packages;        /* report_packages.c: */
extern const sb_report_kind sb_report_licenses;        /* report_licenses.c: SARIF under a policy */
extern const sb_report_kind sb_report_python;          /* report_python.c: requires-python */
extern const sb_report_kind sb_report_tree;            /* report_tree.c: the dependency tree */
extern const sb_report_kind sb_report_quality;         /* report_quality.c: minimum-element profiles */
extern const sb_report_kind sb_report_vulnerabilities; /* report_vulns.c */
extern const sb_report_kind sb_report_outdated;        /* report_outdated.c: PyPI releases behind the newest */
extern const sb_report_kind sb_report_explain;         /* report_explain.c: every fact about one package */

/* The report kinds, NULL-terminated. */
const sb_report_kind *const *sb_report_registry(void);

/* A kind by name; NULL for an unknown one. */
const sb_report_kind *sb_report_kind_find(const char *name);

/* An output by its `output=` name ("json", "text", "markdown", "csv",
 * "sarif"): 0 and *out set, or -1. */
int sb_report_output_find(const char *name, sb_report_output *out);

/* The `output=` name and the media type of an output. */
const char *sb_report_output_name(sb_report_output out);
const char *sb_report_output_media(sb_report_output out);

/* Which output the producer `ops` writes (its descriptor says). */
sb_report_output sb_report_output_of(const sb_doc_ops *ops);

/* The table style of a text output (text for everything else). */
sb_table_out sb_report_table_out(sb_report_output out);

/* The producer ops of a report kind in an output; NULL for an unknown kind
 * or an output the kind does not have. */
const sb_doc_ops *sb_report_find(const char *kind, sb_report_output out);

/* The opening every SARIF 2.1.0 report shares: the log, its one run, and
 * runs[0].tool.driver with sbomd's name and version, left open for the
 * report's own driver fields (rules) and what follows. */
void sb_report__sarif_open(sb_jw *jw);
/* The run's `invocations` (executionSuccessful, a notification per missing
 * step); written before the run object closes. */
void sb_report__sarif_invocations(sb_jw *jw, const sb_sbom *s, sb_arena *a);
/* The selection a JSON summary opens with: workspace, environment,
 * platform, lockfile, packages (the model's count). */
void sb_report__summary_selection(sb_jw *jw, const sb_sbom *s);
/* `incomplete`: [{step, detail}] in a JSON summary (every report has it). */
void sb_report__incomplete_json(sb_jw *jw, const sb_sbom *s);

/* The one row convention of every report (openapi/reports.schema.json):
 * a JSON row opens with `environment` and `platform` (the selection the
 * report was made from), and the CSV header is the JSON row's keys in the
 * same order. sb_report__json_row_open() begins such a row object. A
 * repository's report (several lockfiles merged) has a third column,
 * `lockfile`: the paths of the lockfiles that lock the row's package `p`
 * (null for a row about no one package); a single lockfile's report has no
 * such column, so its rows stay what they were. */
void sb_report__json_row_open(sb_jw *jw, const sb_sbom *s, const sb_pkg *p);
/* A CSV line: the selection's environment and platform (and lockfile, as
 * above), then n cells (a NULL cell is empty, as JSON null is). */
sb_code sb_report__csv_line(sb_buf *b, const sb_sbom *s, const sb_pkg *p, const char *const *cells, size_t n);
/* The CSV header: `hdr` (environment and platform first), with the
 * lockfile column after them when the selection is a repository's. */
sb_code sb_report__csv_header(sb_buf *b, const sb_sbom *s, const char *const *hdr, size_t n);
/* Whether the selection is a repository's (the lockfile column), and the
 * column's value for package p (NULL: none). */
bool sb_report__by_lockfile(const sb_sbom *s);
const char *sb_report__lockfile_of(const sb_sbom *s, const sb_pkg *p);
/* A JSON array as one CSV cell: its items joined with ';' (README, "CSV"). */
#define SB_REPORT__CSV_SEP ";"

#endif
