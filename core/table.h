/*
 * table.h - one row of a tabular report in each text output a report has:
 * an aligned terminal table, a Markdown table (pull-request comments) and
 * CSV (spreadsheets). Every report (packages, licenses, vulnerabilities,
 * diff, quality, ...) builds its rows as arrays of cells and writes them
 * through these, so the quoting rules live in one place:
 *
 * - text: cells separated by two spaces, padded to the column widths the
 *   caller measured with sb_table_width (the last column unpadded), control
 *   characters shown as '?';
 * - markdown: `| a | b |`, each cell through sb_table_md (below), line
 *   breaks as spaces, a `|---|` rule after the header;
 * - csv: RFC 4180 (CRLF line ends, a cell holding `,` `"` CR or LF quoted
 *   with `"` doubled) and safe to open in a spreadsheet: a cell whose first
 *   character is TAB or CR, or whose first character after leading
 *   whitespace (space, TAB, CR, LF) is `=` `+` `-` or `@`, is prefixed with
 *   `'` and quoted, so it is never read as a formula (spreadsheets trim
 *   leading spaces before they look for one); a cell holding `;` is quoted
 *   too, since a spreadsheet whose locale separates fields with `;` would
 *   otherwise start a new cell, perhaps a formula, after it.
 *
 * NULL cells are empty. Rows append to an sb_buf (a report's staging
 * buffer); errors are the buffer's (SB_ENOMEM / SB_ELIMIT).
 */
#ifndef SB_TABLE_H
#define SB_TABLE_H

#include "buf.h"

#include <stddef.h>

typedef enum sb_table_out { SB_TABLE_TEXT, SB_TABLE_MARKDOWN, SB_TABLE_CSV } sb_table_out;

/* Display width of UTF-8 text in a terminal: code points, a control
 * character counted as the one '?' it is printed as. */
size_t sb_table_width(const char *s);

/* One text cell on its own (inside a summary line): control characters as
 * '?', padded with spaces to `pad` columns. */
sb_code sb_table_text(sb_buf *b, const char *s, size_t pad);

/* One row of n cells in `out`. `width` (text only; may be NULL) pads each
 * cell but the last. */
sb_code sb_table_row(sb_buf *b, sb_table_out out, const char *const *cells, size_t n, const size_t *width);

/* The line under a header row: text `-` per column width (two spaces
 * between), markdown `|---|...|`; nothing for csv. */
sb_code sb_table_rule(sb_buf *b, sb_table_out out, size_t n, const size_t *width);

/* A header row and its rule (text, markdown); the header row alone in csv. */
sb_code sb_table_head(sb_buf *b, sb_table_out out, const char *const *head, size_t n, const size_t *width);

/* Widen width[0..n) to fit a row's cells (NULL cells are empty). */
void sb_table_fit(size_t *width, const char *const *cells, size_t n);

/* One piece of text written in Markdown so that it renders as itself and as
 * nothing else: no tag, link, image, emphasis, mention, issue reference or
 * extra table cell, whatever a package name, version or license holds.
 * Text made only of characters Markdown and GitHub give no meaning to
 * (letters, digits, non-ASCII, space and some punctuation) is written as
 * is, so ordinary names stay plain; anything else becomes a code span
 * fenced by more backticks than the text holds (HTML-escaping would show
 * as `&lt;` inside a span, and backslash escapes cannot stop GitHub
 * linking `@scope` or `#123`, which it does to text, never to code).
 * `in_table`: a `|` is written `\|`, which a table row needs even inside a
 * span. Control characters become spaces. */
sb_code sb_table_md(sb_buf *b, const char *s, int in_table);

/* A markdown report's heading line and blank line:
 * `## <kind> (<workspace>, environment <env>, platform <platform>)`, the names
 * through sb_table_md (NULL names as "-"). */
sb_code sb_table_heading(sb_buf *b, const char *kind, const char *workspace, const char *env, const char *platform);

#endif
