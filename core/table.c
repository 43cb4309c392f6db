/*
 * table.c - rows of text, Markdown and CSV tables (see table.h).
 */
#include "table.h"

#include <string.h>
#include <strings.h>

size_t sb_table_width(const char *s)
{
    size_t w = 0;
    for (const unsigned char *p = (const unsigned char *)(s ? s : ""); *p; p++)
        if ((*p & 0xC0) != 0x80)
            w++;
    return w;
}

static int is_control(unsigned char c)
{
    return c < 0x20 || c == 0x7f;
}

/* s with each control character written as `with`: a name cannot start a
 * line or move the cursor in a text table, nor break a Markdown line. */
static sb_code append_no_controls(sb_buf *b, const char *s, char with)
{
    sb_code rc = SB_OK;
    const char *run = s;
    for (const char *p = s; *p && rc == SB_OK; p++)
        if (is_control((unsigned char)*p)) {
            rc = sb_buf_append(b, run, (size_t)(p - run));
            if (rc == SB_OK)
                rc = sb_buf_append(b, &with, 1);
            run = p + 1;
        }
    return rc == SB_OK ? sb_buf_append(b, run, strlen(run)) : rc;
}

sb_code sb_table_text(sb_buf *b, const char *s, size_t pad)
{
    sb_code rc = append_no_controls(b, s, '?');
    for (size_t w = sb_table_width(s); rc == SB_OK && w < pad; w++)
        rc = sb_buf_append(b, " ", 1);
    return rc;
}

/* Markdown gives no meaning to these anywhere inside a line, and GitHub
 * links nothing made of them alone: letters, digits, space, bytes of
 * non-ASCII characters and the punctuation below. Left out: `\` `` ` ``
 * `*` `~` `[` `]` `<` `>` `&` (escapes, code, emphasis, links, HTML,
 * entities), `|` (cells), `@` `#` `:` `$` (GitHub's mentions, issue
 * references, e-mail and URL autolinks, emoji and math). `_` emphasizes
 * only where it is not between two letters or digits. */
static int ascii_alnum(unsigned char c)
{
    return (c >= '0' && c <= '9') || ((c | 0x20) >= 'a' && (c | 0x20) <= 'z');
}

static int md_plain_byte(const char *s, const char *p)
{
    unsigned char c = (unsigned char)*p;
    if (ascii_alnum(c) || c >= 0x80 || c == ' ' || is_control(c))
        return 1;
    if (c == '_')
        return p > s && ascii_alnum((unsigned char)p[-1]) && ascii_alnum((unsigned char)p[1]);
    return NULL != strchr(".,-+=/;()'\"%!?^{}", c);
}

/* Text that renders as itself with no escaping: only plain bytes, and no
 * "www." a GFM renderer would make a link of. */
static int md_plain(const char *s)
{
    for (const char *p = s; *p; p++) {
        if (!md_plain_byte(s, p))
            return 0;
        if ((*p == 'w' || *p == 'W') && !strncasecmp(p, "www.", 4))
            return 0;
    }
    return 1;
}

sb_code sb_table_md(sb_buf *b, const char *s, int in_table)
{
    if (md_plain(s))
        return append_no_controls(b, s, ' ');
    /* A code span: nothing inside one is markup, a tag, a link or a mention.
     * Its fence is one backtick longer than the longest run in the text, and
     * a space pads the text when it starts or ends with a backtick or a
     * space (the renderer strips one space from each side again). */
    size_t longest = 0, run_len = 0, len = strlen(s);
    for (const char *p = s; *p; p++) {
        run_len = *p == '`' ? run_len + 1 : 0;
        longest = run_len > longest ? run_len : longest;
    }
    int pad = s[0] == '`' || s[0] == ' ' || s[len - 1] == '`' || s[len - 1] == ' ' || is_control((unsigned char)s[0]) ||
              is_control((unsigned char)s[len - 1]);
    sb_code rc = SB_OK;
    for (size_t k = 0; k <= longest && rc == SB_OK; k++)
        rc = sb_buf_append(b, "`", 1);
    if (rc == SB_OK && pad)
        rc = sb_buf_append(b, " ", 1);
    const char *run = s;
    for (const char *p = s; *p && rc == SB_OK; p++) {
        /* a table splits its row at every `|` before any span is read, so
         * even inside the span it is written `\|`, which the table turns
         * back into `|` */
        const char *subst = *p == '|' && in_table ? "\\|" : is_control((unsigned char)*p) ? " " : NULL;
        if (NULL == subst)
            continue;
        rc = sb_buf_append(b, run, (size_t)(p - run));
        if (rc == SB_OK)
            rc = sb_buf_append(b, subst, strlen(subst));
        run = p + 1;
    }
    if (rc == SB_OK)
        rc = sb_buf_append(b, run, strlen(run));
    if (rc == SB_OK && pad)
        rc = sb_buf_append(b, " ", 1);
    for (size_t k = 0; k <= longest && rc == SB_OK; k++)
        rc = sb_buf_append(b, "`", 1);
    return rc;
}

static sb_code md_cell(sb_buf *b, const char *s)
{
    sb_code rc = sb_buf_append(b, " ", 1);
    if (rc == SB_OK)
        rc = sb_table_md(b, s, 1);
    return rc == SB_OK ? sb_buf_append(b, " |", 2) : rc;
}

static sb_code csv_cell(sb_buf *b, const char *s)
{
    /* "-" is the text tables' mark for "nothing here"; a spreadsheet's is an
     * empty cell (quoted as a formula it would show as '-) */
    if (s[0] == '-' && s[1] == '\0')
        return SB_OK;
    int formula = s[0] == '\t' || s[0] == '\r';
    const char *lead = s + strspn(s, " \t\r\n");
    formula = formula || (lead[0] && strchr("=+-@", lead[0]));
    if (!formula && NULL == strpbrk(s, ",;\"\r\n"))
        return sb_buf_append(b, s, strlen(s));
    sb_code rc = sb_buf_append(b, formula ? "\"'" : "\"", formula ? 2 : 1);
    const char *run = s;
    for (const char *p = s; *p && rc == SB_OK; p++)
        if (*p == '"') {
            rc = sb_buf_append(b, run, (size_t)(p - run) + 1); /* through the quote */
            if (rc == SB_OK)
                rc = sb_buf_append(b, "\"", 1);
            run = p + 1;
        }
    if (rc == SB_OK)
        rc = sb_buf_append(b, run, strlen(run));
    return rc == SB_OK ? sb_buf_append(b, "\"", 1) : rc;
}

sb_code sb_table_row(sb_buf *b, sb_table_out out, const char *const *cells, size_t n, const size_t *width)
{
    sb_code rc = out == SB_TABLE_MARKDOWN ? sb_buf_append(b, "|", 1) : SB_OK;
    for (size_t c = 0; c < n && rc == SB_OK; c++) {
        const char *s = cells[c] ? cells[c] : "";
        switch (out) {
        case SB_TABLE_TEXT:
            if (c)
                rc = sb_buf_append(b, "  ", 2);
            if (rc == SB_OK)
                rc = sb_table_text(b, s, width && c + 1 < n ? width[c] : 0);
            break;
        case SB_TABLE_MARKDOWN: rc = md_cell(b, s); break;
        case SB_TABLE_CSV:
            if (c)
                rc = sb_buf_append(b, ",", 1);
            if (rc == SB_OK)
                rc = csv_cell(b, s);
            break;
        }
    }
    if (rc != SB_OK)
        return rc;
    return out == SB_TABLE_CSV ? sb_buf_append(b, "\r\n", 2) : sb_buf_append(b, "\n", 1);
}

sb_code sb_table_rule(sb_buf *b, sb_table_out out, size_t n, const size_t *width)
{
    sb_code rc = SB_OK;
    if (out == SB_TABLE_CSV)
        return SB_OK;
    if (out == SB_TABLE_MARKDOWN) {
        rc = sb_buf_append(b, "|", 1);
        for (size_t c = 0; c < n && rc == SB_OK; c++)
            rc = sb_buf_append(b, "---|", 4);
        return rc == SB_OK ? sb_buf_append(b, "\n", 1) : rc;
    }
    for (size_t c = 0; c < n && rc == SB_OK; c++) {
        if (c)
            rc = sb_buf_append(b, "  ", 2);
        for (size_t k = 0; width && k < width[c] && rc == SB_OK; k++)
            rc = sb_buf_append(b, "-", 1);
    }
    return rc == SB_OK ? sb_buf_append(b, "\n", 1) : rc;
}

sb_code sb_table_head(sb_buf *b, sb_table_out out, const char *const *head, size_t n, const size_t *width)
{
    sb_code rc = sb_table_row(b, out, head, n, width);
    return rc == SB_OK ? sb_table_rule(b, out, n, width) : rc;
}

void sb_table_fit(size_t *width, const char *const *cells, size_t n)
{
    for (size_t c = 0; c < n; c++) {
        size_t w = sb_table_width(cells[c]);
        if (w > width[c])
            width[c] = w;
    }
}

sb_code sb_table_heading(sb_buf *b, const char *kind, const char *workspace, const char *env, const char *platform)
{
    const char *parts[] = {"## ", kind, " (", workspace, ", environment ", env, ", platform ", platform, ")\n\n"};
    sb_code rc = SB_OK;
    for (size_t i = 0; i < sizeof parts / sizeof parts[0] && rc == SB_OK; i++)
        rc = i % 2 ? sb_table_md(b, parts[i] ? parts[i] : "-", 0) : sb_buf_append(b, parts[i], strlen(parts[i]));
    return rc;
}
