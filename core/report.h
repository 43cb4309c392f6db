/*
 * report.h - the reports of spec section 10 over one selected model:
 * packages, licenses, python, tree; each as JSON (stable key order) or as an
 * aligned text table for terminals.
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

typedef enum sb_report_output { SB_REPORT_JSON, SB_REPORT_TEXT } sb_report_output;

/* The report kinds, NULL-terminated: "packages", "licenses", "python", "tree". */
const char *const *sb_report_kinds(void);

/* The producer ops of a report kind in an output; NULL for an unknown kind. */
const sb_doc_ops *sb_report_find(const char *kind, sb_report_output out);

#endif
