/*
 * report_tree.c - the tree report: the dependency graph walked
 * depth-first from the workspace's direct dependencies, one row per edge
 * with its depth and parent; a package already expanded is listed again as
 * a repeat ("(*)"), not walked again; `levels=` bounds the depth. As JSON,
 * text (drawn with box characters under one rule across the table),
 * Markdown and CSV. A table report: the shared machinery is in report.c
 * (report_int.h).
 *
 * DESIGN: a row's drawing is a column of 4 per level above it, so a text
 * tree costs depth x rows: a chain 5,000 deep drew 400 MB for a 758 KB
 * lockfile (every row is also padded to the widest). Text and Markdown
 * therefore draw at most TREE_DRAWN levels and say how many packages'
 * dependencies they left out; JSON and CSV rows state their depth as a
 * number, cost the same at any depth, and list every row. Markdown's first
 * cell (drawing, escaped name, repeat mark) is written straight into the
 * stage, never copied into the arena per row.
 */
#include "report_int.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static const char *const headers[] = {"Package", "Version", "Kind", "License", NULL};

/* The JSON row's keys, in its order (openapi/reports.schema.json) */
static const char *const csv_headers[] = {"environment", "platform", "depth",  "name", "version", "kind",
                                          "license",     "parent",   "repeat", "purl", NULL};

static int idx_cmp(const void *a, const void *b)
{
    size_t x = *(const size_t *)a, y = *(const size_t *)b;
    return x < y ? -1 : x > y;
}

/* Levels text and Markdown draw (rows of depth 0 .. TREE_DRAWN - 1): a
 * drawing of at most 4 x 64 columns per row. */
#define TREE_DRAWN 64

/* The tree's own state (r->own). */
typedef struct tree_own {
    size_t cut; /* text, Markdown: packages whose dependencies TREE_DRAWN left out */
} tree_own;

typedef struct frame {
    size_t row, next, n;
    size_t *kids;
} frame;

/* Depth-first from the root edges, without recursion (a chain may be deep);
 * a package already expanded is listed again as a repeat, not re-walked. */
static sb_code walk_tree(sb_doc *d, sb_report__tab *r, tree_own *own)
{
    const sb_sbom *s = d->sbom;
    sb_arena *a = d->arena;
    size_t cap = s->nroot + 1;
    for (size_t i = 0; i < s->npkgs; i++)
        cap += s->pkgs[i].ndeps;
    r->rows = sb_arena_calloc(a, cap, sizeof *r->rows);
    unsigned char *expanded = sb_arena_calloc(a, s->npkgs ? s->npkgs : 1, 1);
    frame *stack = sb_arena_calloc(a, s->npkgs + 2, sizeof *stack);
    size_t *roots = sb_arena_calloc(a, s->nroot ? s->nroot : 1, sizeof *roots);
    if (!r->rows || !expanded || !stack || !roots)
        return SB_ENOMEM;
    memcpy(roots, s->root_deps, s->nroot * sizeof *roots);
    qsort(roots, s->nroot, sizeof *roots, idx_cmp);
    size_t top = 0;
    stack[top++] = (frame){SIZE_MAX, 0, s->nroot, roots};
    while (top) {
        frame *f = &stack[top - 1];
        if (f->next == f->n) {
            top--;
            continue;
        }
        size_t pkg = f->kids[f->next++];
        if (r->nrows == cap)
            return SB_EMISUSE;
        sb_report__row *w = &r->rows[r->nrows];
        *w = SB_REPORT__ROW(pkg);
        w->parent = f->row;
        w->depth = f->row == SIZE_MAX ? 0 : r->rows[f->row].depth + 1;
        w->last = f->next == f->n;
        w->repeat = expanded[pkg] != 0;
        size_t me = r->nrows++;
        if (w->repeat)
            continue;
        expanded[pkg] = 1;
        const sb_pkg *p = &s->pkgs[pkg];
        if (0 == p->ndeps || (d->opts.tree_levels && w->depth + 1 >= d->opts.tree_levels))
            continue; /* a leaf, or as deep as the request asked */
        if (r->text && w->depth + 1 >= TREE_DRAWN) {
            own->cut++; /* as deep as a drawing goes */
            continue;
        }
        size_t *kids = sb_arena_alloc(a, p->ndeps * sizeof *kids);
        if (NULL == kids)
            return SB_ENOMEM;
        memcpy(kids, p->deps, p->ndeps * sizeof *kids);
        qsort(kids, p->ndeps, sizeof *kids, idx_cmp);
        stack[top++] = (frame){me, 0, p->ndeps, kids}; /* at most one frame per expanded package */
    }
    return SB_OK;
}

static sb_code prepare(sb_doc *d, sb_report__tab *r)
{
    r->hdr = headers;
    r->csv_hdr = csv_headers;
    tree_own *own = sb_arena_calloc(d->arena, 1, sizeof *own);
    if (NULL == own)
        return SB_ENOMEM;
    r->own = own;
    sb_code rc = walk_tree(d, r, own);
    if (rc != SB_OK)
        return rc;
    /* text: one piece, what the drawing left out and the licenses not
     * known (when there is either) */
    r->nsummary = r->text ? (own->cut || sb_report__unknown_count(d, r) ? 1 : 0) : 1;
    return SB_OK;
}

/* The text cells of row i; the first without its drawing. */
static void cells(sb_doc *d, const sb_report__tab *r, size_t i, const char *out[SB_REPORT__MAXCOLS])
{
    const sb_report__row *w = &r->rows[i];
    const sb_pkg *p = &d->sbom->pkgs[w->pkg];
    out[0] = p->name, out[1] = sb_report__dash(p->version), out[2] = sb_kind_name(p->kind);
    out[3] = sb_report__dash(r->lics[w->pkg].value);
}

/* The name's width plus its drawing and repeat mark. */
static size_t first_width(const sb_report__tab *r, size_t i, const char *cell)
{
    const sb_report__row *w = &r->rows[i];
    return sb_table_width(cell) + 4 * (size_t)w->depth + (w->repeat ? 4 : 0);
}

/* The drawing before a row's name: one column of 4 per ancestor below the
 * roots ("│   " while that ancestor has siblings to come), then the row's
 * own branch. Rows are at most TREE_DRAWN deep here (walk_tree). */
static void put_branches(sb_doc *d, const sb_report__tab *r, size_t i)
{
    const sb_report__row *w = &r->rows[i];
    if (0 == w->depth)
        return;
    unsigned char last[TREE_DRAWN];
    unsigned depth = w->depth <= TREE_DRAWN ? w->depth : TREE_DRAWN;
    size_t k = i;
    for (unsigned lvl = depth; lvl >= 1 && k != SIZE_MAX; lvl--) {
        last[lvl - 1] = r->rows[k].last;
        k = r->rows[k].parent;
    }
    for (unsigned lvl = 1; lvl < depth; lvl++)
        sb_report__puts(d, last[lvl - 1] ? "    " : "\xe2\x94\x82   ");
    sb_report__puts(d, w->last ? "\xe2\x94\x94\xe2\x94\x80\xe2\x94\x80 " : "\xe2\x94\x9c\xe2\x94\x80\xe2\x94\x80 ");
}

/* Markdown's drawing before a name: an em space per level (indentation in
 * a cell would be collapsed), then the branch. */
static void md_branches(sb_doc *d, const sb_report__tab *r, size_t i)
{
    const sb_report__row *w = &r->rows[i];
    if (0 == w->depth)
        return;
    for (unsigned lvl = 1; lvl < w->depth; lvl++)
        sb_report__puts(d, "\xe2\x80\x83");
    sb_report__puts(d, w->last ? "\xe2\x94\x94\xe2\x94\x80 " : "\xe2\x94\x9c\xe2\x94\x80 ");
}

static void text_row(sb_doc *d, const sb_report__tab *r, size_t i)
{
    const char *cv[SB_REPORT__MAXCOLS] = {0};
    cells(d, r, i, cv);
    if (r->md) {
        /* the first cell: drawing, name, repeat mark; only the name is the
         * input's, so only it goes through the Markdown escaping (the other
         * cells follow as a row of their own, which opens with the `|` that
         * closes this one) */
        sb_report__puts(d, "| ");
        md_branches(d, r, i);
        if (d->jw.status == SB_OK && sb_table_md(&d->stage, cv[0] ? cv[0] : "", 1) != SB_OK)
            d->jw.status = SB_ENOMEM;
        sb_report__puts(d, r->rows[i].repeat ? " (*) " : " ");
        sb_report__put_line(d, r, cv + 1, NULL, r->ncols - 1);
        return;
    }
    put_branches(d, r, i);
    sb_report__put_cell(d, cv[0], 0);
    if (r->rows[i].repeat)
        sb_report__puts(d, " (*)");
    for (size_t w = first_width(r, i, cv[0]); w < r->width[0]; w++)
        sb_report__put(d, " ", 1);
    sb_report__put(d, "  ", 2);
    sb_report__put_line(d, r, cv + 1, r->width + 1, r->ncols - 1);
}

static size_t csv_cells(sb_doc *d, const sb_report__tab *r, size_t i, const char **cv)
{
    const sb_sbom *s = d->sbom;
    const sb_report__row *w = &r->rows[i];
    const sb_pkg *p = &s->pkgs[w->pkg];
    size_t n = 0;
    cv[n++] = sb_arena_printf(d->arena, "%u", w->depth);
    cv[n++] = p->name, cv[n++] = p->version, cv[n++] = sb_kind_name(p->kind), cv[n++] = r->lics[w->pkg].value;
    cv[n++] = w->parent == SIZE_MAX ? NULL : s->pkgs[r->rows[w->parent].pkg].name;
    cv[n++] = w->repeat ? "true" : "false";
    cv[n++] = p->purl;
    return n;
}

static void json_row(sb_doc *d, const sb_report__tab *r, size_t i)
{
    sb_jw *jw = &d->jw;
    const sb_report__row *w = &r->rows[i];
    const sb_pkg *p = &d->sbom->pkgs[w->pkg];
    sb_report__json_row_open(jw, d->sbom, p);
    sb_jw_key(jw, "depth");
    sb_jw_int(jw, w->depth);
    sb_report__kopt(jw, "name", p->name);
    sb_report__kopt(jw, "version", p->version);
    sb_jw_kstr(jw, "kind", sb_kind_name(p->kind));
    sb_report__kopt(jw, "license", r->lics[w->pkg].value);
    sb_report__kopt(jw, "parent", w->parent == SIZE_MAX ? NULL : d->sbom->pkgs[r->rows[w->parent].pkg].name);
    sb_jw_key(jw, "repeat");
    sb_jw_bool(jw, w->repeat);
    sb_report__kopt(jw, "purl", p->purl);
    sb_jw_obj_end(jw);
}

static void json_summary(sb_doc *d, const sb_report__tab *r, size_t k)
{
    (void)k;
    sb_jw *jw = &d->jw;
    sb_jw_key(jw, "rows");
    sb_jw_int(jw, (long long)r->nrows);
    sb_jw_key(jw, "roots");
    sb_jw_int(jw, (long long)d->sbom->nroot);
}

/* Text and Markdown: after the tree, the licenses not known (its License
 * column's "-" is not "no license" for them), the page's sentence. */
static void text_summary(sb_doc *d, const sb_report__tab *r, size_t k)
{
    (void)k;
    size_t cut = ((const tree_own *)r->own)->cut;
    sb_report__puts(d, "\n");
    if (cut) {
        const char *line = sb_arena_printf(d->arena,
                                           "%sDrawn to %d levels: the dependencies of %zu packages at the last level "
                                           "are left out (the JSON and CSV outputs list every row)\n",
                                           r->md ? "### " : "", TREE_DRAWN, cut);
        sb_report__puts(d, line ? line : "");
    }
    sb_report__unknown_line(d, r);
}

static const sb_report__tab_kind tree = {
    .kind = &sb_report_tree,
    .prepare = prepare,
    .cells = cells,
    .first_width = first_width,
    .text_row = text_row,
    .text_summary = text_summary,
    .csv_cells = csv_cells,
    .json_row = json_row,
    .json_summary = json_summary,
    .rule_across = true,
};

static sb_code begin(sb_doc *d)
{
    return sb_report__tab_begin(d, &tree);
}

SB_REPORT__TAB_OUTPUTS(tree, "tree", begin);

const sb_report_kind sb_report_tree = {.name = "tree",
                                       .params = SB_REPORT_PARAMS_TREE,
                                       .ops = {&tree_json, &tree_text, &tree_md, &tree_csv, NULL}};
