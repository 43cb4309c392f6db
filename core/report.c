/*
 * report.c - packages, licenses, python and tree reports (spec section 10),
 * as JSON, text tables, Markdown (a heading, the table, `### ` summaries) and
 * CSV (frozen headers), and for licenses under a license policy (core/policy.h,
 * verdicts on the model) SARIF 2.1.0 with one result per violation, through
 * the document producer (see report.h).
 *
 * DESIGN: begin() computes the rows (package indices, plus the tree's walk
 * or the python ceilings) and, for text, every column's width; relation
 * pieces are the rows and then the summary's parts; end() closes. Cells are
 * never stored as strings: they are derived from the model again when a row
 * is written, so the report holds O(rows) indices, not its own text.
 */
#include "report.h"
#include "table.h"
#include "license.h"
#include "policy.h"
#include "version.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { R_PACKAGES, R_LICENSES, R_PYTHON, R_TREE };
#define MAXCOLS 8

typedef struct row {
    size_t pkg;
    size_t parent;        /* tree: parent row, SIZE_MAX for a root edge */
    unsigned depth;       /* tree */
    bool last, repeat;    /* tree: last child of its parent; already expanded */
    int ceil_major, ceil_minor; /* python: -1 when no ceiling */
    int satisfied;        /* python: 1, 0, -1 unknown */
} row;

typedef struct lic_count {
    const char *license;
    size_t first, n;      /* range in report.by_license */
} lic_count;

typedef struct report {
    int kind, text;       /* text: the aligned table and its summaries (also markdown's shape) */
    bool md, csv, sarif;  /* markdown (text shape, markdown rows), CSV rows, SARIF findings */
    const sb_policy_verdict *pol; /* per package when a license policy was applied (licenses) */
    sb_lic *lics;         /* per package */
    row *rows;
    size_t nrows;
    size_t width[MAXCOLS];
    size_t *by_license;   /* package indices with a license, grouped by it */
    lic_count *counts;    /* most packages first, then by license */
    size_t ncounts, nolic, notspdx;
    const char *interp;   /* python: the interpreter's version, or NULL */
    int min_major, min_minor;
    size_t nopython;
    size_t nsummary;      /* relation pieces after the rows */
} report;

static const char *const headers[][MAXCOLS] = {
    {"Name", "Version", "Kind", "Declared", "Source", "License", "Yanked", "Purl"},
    {"Name", "Version", "Kind", "License", "Family", "Source", "Files", NULL},
    {"Package", "Version", "Requires-Python", "Satisfied", "Ceiling", NULL},
    {"Package", "Version", "Kind", "License", NULL},
};

/* licenses under a policy: a Policy column */
static const char *const lic_policy_headers[MAXCOLS] = {"Name", "Version", "Kind", "License", "Family",
                                                        "Source", "Files", "Policy"};

/* CSV headers (spec 10.1 / 10.2, frozen): the licenses report adds two
 * columns at the end only under a policy. */
static const char *const csv_headers[][13] = {
    {"environment", "platform", "name", "version", "kind", "source", "license", "purl"},
    {"environment", "platform", "name", "version", "kind", "license", "spdx", "spdx_reason", "license_family",
     "license_source", "license_files", "purl", NULL},
    {"environment", "platform", "package", "version", "requires_python", "satisfied", "ceiling"},
    {"environment", "platform", "depth", "name", "version", "kind", "license", "parent", "repeat", "purl"},
};

static const char *const *hdr(const struct report *r);

static size_t count_cells(const char *const *h, size_t max)
{
    size_t n = 0;
    while (n < max && h[n])
        n++;
    return n;
}

static size_t ncols(int kind) { return count_cells(headers[kind], MAXCOLS); }

static size_t ncols_r(const struct report *r);

static const char *prop_of(const sb_pkg *p, const char *name)
{
    for (size_t i = 0; i < p->nprops; i++)
        if (!strcmp(p->props[i].name, name))
            return p->props[i].value;
    return NULL;
}

static const char *dash(const char *s) { return s && s[0] ? s : "-"; }

/* lockfile when the input carried the license, else its provenance */
static const char *license_source(const sb_pkg *p)
{
    const char *src = prop_of(p, "pixi:license-source");
    if (src)
        return src;
    return p->license && p->license[0] ? "lockfile" : NULL;
}

/* ---- python: requires-python read at MAJOR.MINOR (spec 10.3) ------------ */

typedef struct pyver {
    long v[4];
    int n;
    bool star;
} pyver;

static const char *parse_ver(const char *s, pyver *out)
{
    memset(out, 0, sizeof *out);
    while (*s == ' ')
        s++;
    while (out->n < 4 && *s >= '0' && *s <= '9') {
        long x = 0;
        while (*s >= '0' && *s <= '9' && x < 100000)
            x = x * 10 + (*s++ - '0');
        out->v[out->n++] = x;
        if (s[0] == '.' && s[1] >= '0' && s[1] <= '9')
            s++;
        else
            break;
    }
    if (s[0] == '.' && s[1] == '*') {
        out->star = true;
        s += 2;
    }
    return s;
}

static int ver_cmp(const pyver *a, const pyver *b, int upto)
{
    for (int i = 0; i < upto; i++) {
        long x = i < a->n ? a->v[i] : 0, y = i < b->n ? b->v[i] : 0;
        if (x != y)
            return x < y ? -1 : 1;
    }
    return 0;
}

/* Evaluate a specifier against the interpreter (1/0/-1 unknown) and find its
 * ceiling (major/minor, -1 when none). */
static int python_spec(const char *spec, const char *interp, int *cmaj, int *cmin)
{
    *cmaj = *cmin = -1;
    pyver iv;
    int have_i = interp && parse_ver(interp, &iv) && iv.n > 0;
    int sat = have_i ? 1 : -1;
    const char *p = spec;
    while (*p) {
        while (*p == ' ' || *p == ',')
            p++;
        if (!*p)
            break;
        char op[4] = "";
        size_t k = 0;
        while (k < 3 && strchr("<>=!~", *p))
            op[k++] = *p++;
        op[k] = '\0';
        pyver v;
        const char *e = parse_ver(p, &v);
        if (0 == v.n) {
            sat = -1;
            while (*p && *p != ',')
                p++;
            continue;
        }
        p = e;
        while (*p && *p != ',')
            p++; /* pre/post/local parts: read at the release level */
        int c_maj = -1, c_min = -1;
        if (!strcmp(op, "<") && v.n >= 2) {
            int rest_zero = v.n == 2 || (v.v[2] == 0 && (v.n < 4 || v.v[3] == 0));
            if (!rest_zero) {
                c_maj = (int)v.v[0];
                c_min = (int)v.v[1];
            } else if (v.v[1] > 0) {
                c_maj = (int)v.v[0];
                c_min = (int)v.v[1] - 1;
            }
        } else if ((!strcmp(op, "<=") || !strcmp(op, "==") || !strcmp(op, "===")) && v.n >= 2) {
            c_maj = (int)v.v[0];
            c_min = (int)v.v[1];
        } else if (!strcmp(op, "~=") && v.n >= 3) {
            c_maj = (int)v.v[0];
            c_min = (int)v.v[1];
        }
        if (c_maj >= 0 && (*cmaj < 0 || c_maj < *cmaj || (c_maj == *cmaj && c_min < *cmin))) {
            *cmaj = c_maj;
            *cmin = c_min;
        }
        if (!have_i || sat == -1)
            continue;
        int c = ver_cmp(&iv, &v, 4), ok;
        if (!strcmp(op, ">="))
            ok = c >= 0;
        else if (!strcmp(op, ">"))
            ok = c > 0;
        else if (!strcmp(op, "<="))
            ok = c <= 0;
        else if (!strcmp(op, "<"))
            ok = c < 0;
        else if (!strcmp(op, "==") || !strcmp(op, "==="))
            ok = v.star ? ver_cmp(&iv, &v, v.n) == 0 : c == 0;
        else if (!strcmp(op, "!="))
            ok = v.star ? ver_cmp(&iv, &v, v.n) != 0 : c != 0;
        else if (!strcmp(op, "~="))
            ok = c >= 0 && ver_cmp(&iv, &v, v.n - 1) == 0;
        else
            ok = -1;
        if (ok < 0)
            sat = -1;
        else if (!ok)
            sat = 0;
    }
    return sat;
}

static int ceil_cmp(const row *a, const row *b)
{
    if ((a->ceil_major < 0) != (b->ceil_major < 0))
        return a->ceil_major < 0 ? 1 : -1;
    if (a->ceil_major != b->ceil_major)
        return a->ceil_major < b->ceil_major ? -1 : 1;
    if (a->ceil_minor != b->ceil_minor)
        return a->ceil_minor < b->ceil_minor ? -1 : 1;
    return a->pkg < b->pkg ? -1 : a->pkg > b->pkg;
}

static int row_ceil_cmp(const void *a, const void *b) { return ceil_cmp(a, b); }

/* ---- building the rows --------------------------------------------------- */

static int idx_cmp(const void *a, const void *b)
{
    size_t x = *(const size_t *)a, y = *(const size_t *)b;
    return x < y ? -1 : x > y;
}

typedef struct frame {
    size_t row, next, n;
    size_t *kids;
} frame;

/* Depth-first from the root edges, without recursion (a chain may be deep);
 * a package already expanded is listed again as a repeat, not re-walked. */
static sb_code walk_tree(sb_doc *d, report *r)
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
        row *w = &r->rows[r->nrows];
        *w = (row){pkg, f->row, f->row == SIZE_MAX ? 0 : r->rows[f->row].depth + 1, f->next == f->n,
                   expanded[pkg] != 0, -1, -1, -1};
        size_t me = r->nrows++;
        if (w->repeat)
            continue;
        expanded[pkg] = 1;
        const sb_pkg *p = &s->pkgs[pkg];
        if (0 == p->ndeps || (d->opts.tree_levels && w->depth + 1 >= d->opts.tree_levels))
            continue; /* a leaf, or as deep as the request asked */
        size_t *kids = sb_arena_alloc(a, p->ndeps * sizeof *kids);
        if (NULL == kids)
            return SB_ENOMEM;
        memcpy(kids, p->deps, p->ndeps * sizeof *kids);
        qsort(kids, p->ndeps, sizeof *kids, idx_cmp);
        stack[top++] = (frame){me, 0, p->ndeps, kids}; /* at most one frame per expanded package */
    }
    return SB_OK;
}

static int count_cmp(const void *a, const void *b)
{
    const lic_count *x = a, *y = b;
    if (x->n != y->n)
        return x->n > y->n ? -1 : 1;
    return strcmp(x->license, y->license);
}

/* Group packages by license: counts most-first, packages in model order. */
static sb_code count_licenses(sb_doc *d, report *r)
{
    const sb_sbom *s = d->sbom;
    size_t n = 0;
    r->by_license = sb_arena_alloc(d->arena, (s->npkgs ? s->npkgs : 1) * sizeof *r->by_license);
    r->counts = sb_arena_alloc(d->arena, (s->npkgs ? s->npkgs : 1) * sizeof *r->counts);
    if (!r->by_license || !r->counts)
        return SB_ENOMEM;
    for (size_t i = 0; i < s->npkgs; i++) {
        if (r->lics[i].kind == SB_LIC_NONE)
            r->nolic++;
        else
            r->by_license[n++] = i;
        r->notspdx += r->lics[i].kind == SB_LIC_TEXT;
    }
    return SB_OK;
}

static sb_code group_licenses(sb_doc *d, report *r)
{
    size_t n = d->sbom->npkgs - r->nolic;
    /* a stable merge sort by license (qsort has no context argument, and a
     * file-level pointer would be state shared between request threads) */
    size_t *tmp = sb_arena_alloc(d->arena, (n ? n : 1) * sizeof *tmp);
    if (NULL == tmp)
        return SB_ENOMEM;
    size_t *v = r->by_license;
    for (size_t width = 1; width < n; width *= 2) {
        for (size_t lo = 0; lo < n; lo += 2 * width) {
            size_t mid = lo + width < n ? lo + width : n, hi = lo + 2 * width < n ? lo + 2 * width : n;
            size_t a = lo, b = mid, k = lo;
            while (a < mid && b < hi)
                tmp[k++] = strcmp(r->lics[v[a]].value, r->lics[v[b]].value) <= 0 ? v[a++] : v[b++];
            while (a < mid)
                tmp[k++] = v[a++];
            while (b < hi)
                tmp[k++] = v[b++];
        }
        memcpy(v, tmp, n * sizeof *v);
    }
    for (size_t i = 0; i < n;) {
        size_t j = i + 1;
        while (j < n && !strcmp(r->lics[v[j]].value, r->lics[v[i]].value))
            j++;
        r->counts[r->ncounts++] = (lic_count){r->lics[v[i]].value, i, j - i};
        i = j;
    }
    qsort(r->counts, r->ncounts, sizeof *r->counts, count_cmp);
    return SB_OK;
}

/* ---- cells ---------------------------------------------------------------- */

static const char *files_count(sb_doc *d, const sb_pkg *p)
{
    const char *s = sb_arena_printf(d->arena, "%zu", (size_t)p->nlicfiles);
    return s ? s : "?";
}

static const char *ceiling_text(sb_doc *d, int maj, int min)
{
    if (maj < 0)
        return NULL;
    return sb_arena_printf(d->arena, "%d.%d", maj, min);
}

/* The Policy cell of a licenses row. */
/* The model's scope as the packages report names it; NULL (no key) when the
 * input does not distinguish scopes (pixi.lock, most lockfiles alone). */
static const char *scope_name(sb_scope sc)
{
    switch (sc) {
    case SB_SCOPE_REQUIRED: return "required";
    case SB_SCOPE_OPTIONAL: return "optional";
    case SB_SCOPE_DEVELOPMENT: return "development";
    case SB_SCOPE_NONE: break;
    }
    return NULL;
}

static const char *policy_label(const sb_policy_verdict *v)
{
    static const char *const labels[SB_POL_NRULES] = {"ok", "denied", "not allowed", "no license", "not SPDX"};
    if (v->exempt)
        return "exempt";
    return v->rule < SB_POL_NRULES ? labels[v->rule] : "?";
}

/* The Yanked cell of a packages row (spec 10.1): "yes: <reason>", "yes",
 * or "-" (also when yanked flags were not asked for: yanked=true). */
static const char *yanked_cell(sb_doc *d, const sb_pkg *p)
{
    if (NULL == prop_of(p, "pixi:yanked"))
        return "-";
    const char *why = prop_of(p, "pixi:yanked-reason");
    const char *c = why ? sb_arena_printf(d->arena, "yes: %s", why) : "yes";
    return c ? c : "yes";
}

/* The text cells of row i (the tree's first cell without its drawing). */
static void cells(sb_doc *d, const report *r, size_t i, const char *out[MAXCOLS])
{
    const row *w = &r->rows[i];
    const sb_pkg *p = &d->sbom->pkgs[w->pkg];
    const char *lic = dash(r->lics[w->pkg].value);
    switch (r->kind) {
    case R_PACKAGES:
        out[0] = p->name, out[1] = dash(p->version), out[2] = sb_kind_name(p->kind);
        out[3] = dash(prop_of(p, "pixi:declared-in")), out[4] = dash(p->supplier_name), out[5] = lic;
        out[6] = yanked_cell(d, p), out[7] = dash(p->purl);
        break;
    case R_LICENSES:
        out[0] = p->name, out[1] = dash(p->version), out[2] = sb_kind_name(p->kind), out[3] = lic;
        out[4] = dash(sb_pkg_xr(p)->license_family), out[5] = dash(license_source(p)), out[6] = files_count(d, p);
        if (r->pol)
            out[7] = policy_label(&r->pol[w->pkg]);
        break;
    case R_PYTHON:
        out[0] = p->name, out[1] = dash(p->version), out[2] = dash(p->requires_python);
        out[3] = w->satisfied < 0 ? "-" : w->satisfied ? "yes" : "no";
        out[4] = dash(ceiling_text(d, w->ceil_major, w->ceil_minor));
        break;
    default:
        out[0] = p->name, out[1] = dash(p->version), out[2] = sb_kind_name(p->kind), out[3] = lic;
        break;
    }
}

static size_t first_cell_width(const report *r, size_t i, const char *cell)
{
    const row *w = &r->rows[i];
    size_t wd = sb_table_width(cell);
    if (r->kind == R_TREE)
        wd += 4 * (size_t)w->depth + (w->repeat ? 4 : 0);
    return wd;
}

/* ---- begin ---------------------------------------------------------------- */

static int kind_of(const sb_doc *d);
static sb_report_output out_of(const sb_doc *d);

static sb_code prepare(sb_doc *d)
{
    const sb_sbom *s = d->sbom;
    sb_arena *a = d->arena;
    report *r = sb_arena_calloc(a, 1, sizeof *r);
    if (NULL == r)
        return SB_ENOMEM;
    r->kind = kind_of(d);
    sb_report_output out = out_of(d);
    r->md = out == SB_REPORT_MARKDOWN;
    r->csv = out == SB_REPORT_CSV;
    r->sarif = out == SB_REPORT_SARIF;
    r->text = out == SB_REPORT_TEXT || r->md;
    r->pol = r->kind == R_LICENSES ? s->policy : NULL;
    r->min_major = r->min_minor = -1;
    size_t n = s->npkgs ? s->npkgs : 1;
    r->lics = sb_arena_calloc(a, n, sizeof *r->lics);
    if (NULL == r->lics)
        return SB_ENOMEM;
    for (size_t i = 0; i < s->npkgs; i++)
        r->lics[i] = sb_pkg_lic(&s->pkgs[i], a);
    sb_code rc = SB_OK;
    if (r->kind == R_TREE) {
        rc = walk_tree(d, r);
    } else {
        r->rows = sb_arena_calloc(a, n, sizeof *r->rows);
        if (NULL == r->rows)
            return SB_ENOMEM;
        for (size_t i = 0; i < s->npkgs; i++) {
            const sb_pkg *p = &s->pkgs[i];
            if (r->kind == R_PYTHON && !strcmp(p->name, "python") && p->kind == SB_KIND_CONDA && p->version)
                r->interp = p->version;
        }
        for (size_t i = 0; i < s->npkgs; i++) {
            const sb_pkg *p = &s->pkgs[i];
            row w = {i, SIZE_MAX, 0, false, false, -1, -1, -1};
            if (r->kind == R_PYTHON) {
                if (p->kind != SB_KIND_PYPI)
                    continue;
                if (p->requires_python && p->requires_python[0])
                    w.satisfied = python_spec(p->requires_python, r->interp, &w.ceil_major, &w.ceil_minor);
                else
                    r->nopython++;
                if (w.ceil_major >= 0 && (r->min_major < 0 || w.ceil_major < r->min_major ||
                                          (w.ceil_major == r->min_major && w.ceil_minor < r->min_minor))) {
                    r->min_major = w.ceil_major;
                    r->min_minor = w.ceil_minor;
                }
            }
            r->rows[r->nrows++] = w;
        }
        if (r->kind == R_PYTHON)
            qsort(r->rows, r->nrows, sizeof *r->rows, row_ceil_cmp);
    }
    if (rc == SB_OK && r->kind == R_LICENSES)
        rc = count_licenses(d, r);
    if (rc == SB_OK && r->kind == R_LICENSES)
        rc = group_licenses(d, r);
    if (rc != SB_OK)
        return rc;
    if (r->text) {
        size_t nc = ncols_r(r);
        for (size_t c = 0; c < nc; c++)
            r->width[c] = sb_table_width(hdr(r)[c]);
        for (size_t i = 0; i < r->nrows; i++) {
            const char *cv[MAXCOLS] = {0};
            cells(d, r, i, cv);
            size_t w0 = first_cell_width(r, i, cv[0]);
            if (w0 > r->width[0])
                r->width[0] = w0;
            for (size_t c = 1; c < nc; c++) {
                size_t w = sb_table_width(cv[c]);
                if (w > r->width[c])
                    r->width[c] = w;
            }
        }
    }
    if (r->csv || r->sarif)
        r->nsummary = 0; /* rows only; SARIF closes in end() */
    else if (r->kind == R_LICENSES)
        r->nsummary = r->text ? r->ncounts + 2 : (r->ncounts ? r->ncounts : 1);
    else
        r->nsummary = r->text ? (r->kind == R_PYTHON || r->kind == R_PACKAGES ? 1 : 0) : 1;
    d->fmt = r;
    return SB_OK;
}

/* ---- text output ----------------------------------------------------------- */

static void put(sb_doc *d, const char *s, size_t n)
{
    if (d->jw.status == SB_OK && sb_buf_append(&d->stage, s, n) != SB_OK)
        d->jw.status = SB_ENOMEM;
}

static void puts_(sb_doc *d, const char *s) { put(d, s, strlen(s)); }

/* A cell's text, control characters shown as '?', padded to `pad` columns. */
static void put_cell(sb_doc *d, const char *s, size_t pad)
{
    if (d->jw.status == SB_OK && sb_table_text(&d->stage, s, pad) != SB_OK)
        d->jw.status = SB_ENOMEM;
}

/* A line of cells: two spaces between columns, the last one unpadded. */
static void put_line(sb_doc *d, const char *const *cv, const size_t *width, size_t nc)
{
    const report *r = d->fmt;
    sb_table_out out = r && r->md ? SB_TABLE_MARKDOWN : r && r->csv ? SB_TABLE_CSV : SB_TABLE_TEXT;
    if (d->jw.status == SB_OK && sb_table_row(&d->stage, out, cv, nc, width) != SB_OK)
        d->jw.status = SB_ENOMEM;
}

static void put_rule(sb_doc *d, const report *r, size_t nc)
{
    if (r->md) {
        if (d->jw.status == SB_OK && sb_table_rule(&d->stage, SB_TABLE_MARKDOWN, nc, NULL) != SB_OK)
            d->jw.status = SB_ENOMEM;
        return;
    }
    if (r->kind == R_TREE) { /* one rule across the table, as the golden tree has */
        size_t total = 0;
        for (size_t c = 0; c < nc; c++)
            total += r->width[c] + (c ? 2 : 0);
        for (size_t k = 0; k < total; k++)
            put(d, "-", 1);
        put(d, "\n", 1);
        return;
    }
    for (size_t c = 0; c < nc; c++) {
        if (c)
            put(d, "  ", 2);
        for (size_t k = 0; k < r->width[c]; k++)
            put(d, "-", 1);
    }
    put(d, "\n", 1);
}

/* The tree's drawing before a row's name: one column of 4 per ancestor
 * below the roots ("│   " while that ancestor has siblings to come), then
 * the row's own branch. */
static void put_branches(sb_doc *d, const report *r, size_t i)
{
    const row *w = &r->rows[i];
    if (0 == w->depth)
        return;
    unsigned char small[64];
    unsigned char *last = w->depth <= sizeof small ? small : sb_arena_alloc(d->arena, w->depth);
    if (NULL == last) {
        d->jw.status = SB_ENOMEM;
        return;
    }
    if (r->md) { /* in a cell: indentation would be collapsed, the branches are kept */
        for (unsigned lvl = 1; lvl < w->depth; lvl++)
            puts_(d, "\xe2\x80\x83"); /* em space per level */
        puts_(d, w->last ? "\xe2\x94\x94\xe2\x94\x80 " : "\xe2\x94\x9c\xe2\x94\x80 ");
        return;
    }
    size_t k = i;
    for (unsigned lvl = w->depth; lvl >= 1 && k != SIZE_MAX; lvl--) {
        last[lvl - 1] = r->rows[k].last;
        k = r->rows[k].parent;
    }
    for (unsigned lvl = 1; lvl < w->depth; lvl++)
        puts_(d, last[lvl - 1] ? "    " : "\xe2\x94\x82   ");
    puts_(d, w->last ? "\xe2\x94\x94\xe2\x94\x80\xe2\x94\x80 " : "\xe2\x94\x9c\xe2\x94\x80\xe2\x94\x80 ");
}

static void text_row(sb_doc *d, const report *r, size_t i)
{
    const char *cv[MAXCOLS] = {0};
    cells(d, r, i, cv);
    size_t nc = ncols_r(r);
    if (r->kind == R_TREE && r->md) {
        /* the first cell: drawing, name, repeat mark (escaped like any cell) */
        size_t mark = d->stage.len;
        put_branches(d, r, i);
        size_t blen = d->stage.len - mark;
        const char *pre = blen ? sb_arena_strndup(d->arena, d->stage.data + mark, blen) : "";
        d->stage.len = mark;
        const char *first = sb_arena_printf(d->arena, "%s%s%s", pre ? pre : "", cv[0], r->rows[i].repeat ? " (*)" : "");
        if (NULL == first) {
            d->jw.status = SB_ENOMEM;
            return;
        }
        cv[0] = first;
        put_line(d, cv, NULL, nc);
        return;
    }
    if (r->md) {
        put_line(d, cv, NULL, nc);
        return;
    }
    if (r->kind == R_TREE) {
        put_branches(d, r, i);
        put_cell(d, cv[0], 0);
        if (r->rows[i].repeat)
            puts_(d, " (*)");
        for (size_t w = first_cell_width(r, i, cv[0]); w < r->width[0]; w++)
            put(d, " ", 1);
        put(d, "  ", 2);
        put_line(d, cv + 1, r->width + 1, nc - 1);
        return;
    }
    put_line(d, cv, r->width, nc);
}

/* A row whose ceiling is the lowest of the report's. */
static int holds_ceiling(const report *r, const row *w)
{
    return w->ceil_major >= 0 && w->ceil_major == r->min_major && w->ceil_minor == r->min_minor;
}

/* The interpreter as MAJOR.MINOR, or NULL when unknown. */
static const char *interp_minor(sb_doc *d, const report *r)
{
    pyver iv;
    if (r->interp && parse_ver(r->interp, &iv) && iv.n >= 2)
        return sb_arena_printf(d->arena, "%ld.%ld", iv.v[0], iv.v[1]);
    return NULL;
}

/* "No license (2): a, b" / "...: none" */
static void name_list(sb_doc *d, const report *r, const char *label, int want_text)
{
    const sb_sbom *s = d->sbom;
    size_t n = want_text ? r->notspdx : r->nolic;
    if (r->md)
        puts_(d, "### ");
    if (0 == n) {
        puts_(d, label);
        puts_(d, ": none\n");
        return;
    }
    const char *head = sb_arena_printf(d->arena, "%s (%zu): ", label, n);
    puts_(d, head ? head : label);
    size_t k = 0;
    for (size_t i = 0; i < s->npkgs; i++) {
        sb_lic_kind kd = r->lics[i].kind;
        if (want_text ? kd != SB_LIC_TEXT : kd != SB_LIC_NONE)
            continue;
        if (k++)
            puts_(d, ", ");
        put_cell(d, s->pkgs[i].name, 0);
        if (want_text) {
            puts_(d, " (");
            put_cell(d, r->lics[i].reason ? r->lics[i].reason : "not an SPDX expression", 0);
            puts_(d, ")");
        }
    }
    puts_(d, "\n");
}

/* Policy lines of the licenses summary: violations and exemptions. */
static void policy_lines(sb_doc *d, const report *r)
{
    const sb_sbom *s = d->sbom;
    for (int pass = 0; pass < 2; pass++) {
        size_t n = 0;
        for (size_t i = 0; i < s->npkgs; i++)
            n += pass ? r->pol[i].exempt != NULL : !r->pol[i].exempt && r->pol[i].rule != SB_POL_PASS;
        const char *label = pass ? "License exemptions" : "Policy violations";
        if (r->md)
            puts_(d, "### ");
        if (0 == n) {
            puts_(d, label);
            puts_(d, ": none\n");
            continue;
        }
        const char *h = sb_arena_printf(d->arena, "%s (%zu): ", label, n);
        puts_(d, h ? h : label);
        size_t m = 0;
        for (size_t i = 0; i < s->npkgs; i++) {
            const sb_policy_verdict *v = &r->pol[i];
            if (pass ? !v->exempt : v->exempt || v->rule == SB_POL_PASS)
                continue;
            if (m++)
                puts_(d, ", ");
            put_cell(d, s->pkgs[i].name, 0);
            puts_(d, " (");
            put_cell(d, pass ? v->exempt : v->reason, 0);
            puts_(d, ")");
        }
        puts_(d, "\n");
    }
}

static void text_summary(sb_doc *d, const report *r, size_t k)
{
    const sb_sbom *s = d->sbom;
    const char *H = r->md ? "\n### " : "\n"; /* markdown: summaries as headings */
    if (r->kind == R_PACKAGES) {
        const char *t = sb_arena_printf(d->arena, "%sSummary: %zu packages (environment %s, platform %s)\n",
                                        H, s->npkgs, s->environment, s->platform);
        puts_(d, t ? t : "\n");
        if (s->manifest) { /* spec 10.1: only when a manifest was read */
            const char *dl = sb_arena_printf(d->arena, "Declared by the manifest: %zu present, %zu missing%s",
                                             s->ndeclared, (size_t)s->declared_missing.n, s->declared_missing.n ? ": " : "\n");
            puts_(d, dl ? dl : "");
            for (size_t j = 0; j < s->declared_missing.n; j++) {
                if (j)
                    puts_(d, ", ");
                put_cell(d, s->declared_missing.v[j], 0);
            }
            if (s->declared_missing.n)
                puts_(d, "\n");
        }
    } else if (r->kind == R_PYTHON) {
        const char *ceil = ceiling_text(d, r->min_major, r->min_minor);
        const char *interp = interp_minor(d, r);
        const char *t = sb_arena_printf(d->arena, "%sSummary: interpreter %s, highest Python these packages allow: %s\n",
                                        H, interp ? interp : "unknown", ceil ? ceil : "no ceiling");
        puts_(d, t ? t : "\n");
        size_t hold = 0, unsat = 0;
        for (size_t i = 0; i < r->nrows; i++) {
            hold += holds_ceiling(r, &r->rows[i]);
            unsat += r->rows[i].satisfied == 0;
        }
        for (int pass = 0; pass < 2; pass++) {
            size_t n = pass ? unsat : hold;
            const char *label = pass ? "Not satisfied by this interpreter" : "Holding the ceiling";
            if (r->md)
                puts_(d, "### ");
            if (0 == n) {
                puts_(d, label);
                puts_(d, ": none\n");
                continue;
            }
            const char *h = sb_arena_printf(d->arena, "%s (%zu): ", label, n);
            puts_(d, h ? h : label);
            size_t m = 0;
            for (size_t i = 0; i < r->nrows; i++) {
                const row *w = &r->rows[i];
                int in = pass ? w->satisfied == 0 : holds_ceiling(r, w);
                if (!in)
                    continue;
                if (m++)
                    puts_(d, ", ");
                put_cell(d, s->pkgs[w->pkg].name, 0);
                puts_(d, " ");
                put_cell(d, s->pkgs[w->pkg].requires_python, 0);
            }
            puts_(d, "\n");
        }
        const char *t2 = sb_arena_printf(d->arena, "%sSaying nothing about Python: %zu\n", r->md ? "### " : "",
                                         r->nopython);
        puts_(d, t2 ? t2 : "");
    } else if (r->kind == R_LICENSES) {
        size_t lw = sb_table_width("License");
        for (size_t i = 0; i < r->ncounts; i++)
            if (sb_table_width(r->counts[i].license) > lw)
                lw = sb_table_width(r->counts[i].license);
        size_t widths[2] = {lw, sb_table_width("Packages")};
        if (k == 0) {
            const char *t = sb_arena_printf(d->arena, "%sSummary: %zu packages, %zu distinct licenses\n%s", H,
                                            s->npkgs, r->ncounts, r->md ? "\n" : "");
            puts_(d, t ? t : "\n");
            const char *hv[2] = {"License", "Packages"};
            put_line(d, hv, widths, 2);
            report rule = *r;
            rule.kind = R_LICENSES;
            rule.width[0] = widths[0];
            rule.width[1] = widths[1];
            put_rule(d, &rule, 2);
        } else if (k <= r->ncounts) {
            const char *cnt = sb_arena_printf(d->arena, "%zu", r->counts[k - 1].n);
            const char *cv[2] = {r->counts[k - 1].license, cnt ? cnt : "?"};
            put_line(d, cv, widths, 2);
        } else {
            puts_(d, "\n");
            name_list(d, r, "No license", 0);
            name_list(d, r, "Not an SPDX expression", 1);
            if (r->pol)
                policy_lines(d, r);
        }
    }
}

/* ---- JSON output ----------------------------------------------------------- */

static void kopt(sb_jw *jw, const char *k, const char *v)
{
    sb_jw_key(jw, k);
    sb_jw_str(jw, v && v[0] ? v : NULL);
}

static void json_row(sb_doc *d, const report *r, size_t i)
{
    sb_jw *jw = &d->jw;
    const row *w = &r->rows[i];
    const sb_pkg *p = &d->sbom->pkgs[w->pkg];
    const sb_lic *l = &r->lics[w->pkg];
    sb_jw_obj_begin(jw);
    if (r->kind == R_TREE) {
        sb_jw_key(jw, "depth");
        sb_jw_int(jw, w->depth);
    }
    kopt(jw, r->kind == R_PYTHON ? "package" : "name", p->name);
    kopt(jw, "version", p->version);
    if (r->kind == R_PYTHON) {
        kopt(jw, "requires_python", p->requires_python);
        sb_jw_key(jw, "satisfied");
        if (w->satisfied < 0)
            sb_jw_null(jw);
        else
            sb_jw_bool(jw, w->satisfied == 1);
        kopt(jw, "ceiling", ceiling_text(d, w->ceil_major, w->ceil_minor));
        sb_jw_obj_end(jw);
        return;
    }
    sb_jw_kstr(jw, "kind", sb_kind_name(p->kind));
    kopt(jw, "license", l->value);
    if (r->kind == R_TREE) {
        kopt(jw, "parent", w->parent == SIZE_MAX ? NULL : d->sbom->pkgs[r->rows[w->parent].pkg].name);
        sb_jw_key(jw, "repeat");
        sb_jw_bool(jw, w->repeat);
        kopt(jw, "purl", p->purl);
        sb_jw_obj_end(jw);
        return;
    }
    if (r->kind == R_PACKAGES) {
        kopt(jw, "declared", prop_of(p, "pixi:declared-in"));
        kopt(jw, "scope", scope_name(p->scope));
        kopt(jw, "source", p->supplier_name);
    }
    sb_jw_key(jw, "spdx");
    sb_jw_bool(jw, l->kind == SB_LIC_EXPR);
    if (l->kind == SB_LIC_TEXT)
        kopt(jw, "spdx_reason", l->reason ? l->reason : "not an SPDX expression");
    kopt(jw, "license_family", sb_pkg_xr(p)->license_family);
    kopt(jw, "license_source", license_source(p));
    sb_jw_key(jw, "license_files");
    sb_jw_arr_begin(jw);
    for (size_t k = 0; k < p->nlicfiles; k++)
        sb_jw_str(jw, p->licfiles[k].name);
    sb_jw_arr_end(jw);
    kopt(jw, "purl", p->purl);
    if (r->kind == R_PACKAGES) {
        sb_jw_key(jw, "yanked");
        sb_jw_bool(jw, prop_of(p, "pixi:yanked") != NULL);
        sb_jw_kstr_opt(jw, "yanked_reason", prop_of(p, "pixi:yanked-reason")); /* only when given: rows without stay as they were */
    }
    if (r->pol) { /* licenses under a policy */
        const sb_policy_verdict *v = &r->pol[w->pkg];
        kopt(jw, "policy", policy_label(v));
        kopt(jw, "license_violation", v->rule != SB_POL_PASS ? v->reason : NULL);
        kopt(jw, "license_exempt", v->exempt);
    }
    sb_jw_obj_end(jw);
}

/* ---- CSV output (spec 10.1 / 10.2: frozen headers, RFC 4180) ------------- */

static const char *cell_or_empty(const char *s) { return s ? s : ""; }

static void csv_row(sb_doc *d, const report *r, size_t i)
{
    const sb_sbom *s = d->sbom;
    const row *w = &r->rows[i];
    const sb_pkg *p = &s->pkgs[w->pkg];
    const sb_lic *l = &r->lics[w->pkg];
    const char *cv[16] = {s->environment, s->platform};
    size_t n = 2;
    switch (r->kind) {
    case R_PACKAGES:
        cv[n++] = p->name, cv[n++] = p->version, cv[n++] = sb_kind_name(p->kind), cv[n++] = p->supplier_name;
        cv[n++] = l->value, cv[n++] = p->purl;
        break;
    case R_LICENSES: {
        cv[n++] = p->name, cv[n++] = p->version, cv[n++] = sb_kind_name(p->kind), cv[n++] = l->value;
        cv[n++] = l->kind == SB_LIC_EXPR ? "true" : "false";
        cv[n++] = l->kind == SB_LIC_TEXT ? (l->reason ? l->reason : "not an SPDX expression") : NULL;
        cv[n++] = sb_pkg_xr(p)->license_family, cv[n++] = license_source(p);
        const char *files = "";
        for (size_t k = 0; k < p->nlicfiles && files; k++)
            files = sb_arena_printf(d->arena, "%s%s%s", files, k ? ";" : "", p->licfiles[k].name);
        cv[n++] = files ? files : "";
        cv[n++] = p->purl;
        if (r->pol) {
            const sb_policy_verdict *v = &r->pol[w->pkg];
            cv[n++] = v->rule != SB_POL_PASS ? v->reason : NULL;
            cv[n++] = v->exempt;
        }
        break;
    }
    case R_PYTHON:
        cv[n++] = p->name, cv[n++] = p->version, cv[n++] = p->requires_python;
        cv[n++] = w->satisfied < 0 ? NULL : w->satisfied ? "true" : "false";
        cv[n++] = ceiling_text(d, w->ceil_major, w->ceil_minor);
        break;
    default:
        cv[n++] = sb_arena_printf(d->arena, "%u", w->depth);
        cv[n++] = p->name, cv[n++] = p->version, cv[n++] = sb_kind_name(p->kind), cv[n++] = l->value;
        cv[n++] = w->parent == SIZE_MAX ? NULL : s->pkgs[r->rows[w->parent].pkg].name;
        cv[n++] = w->repeat ? "true" : "false";
        cv[n++] = p->purl;
        break;
    }
    for (size_t c = 0; c < n; c++)
        cv[c] = cell_or_empty(cv[c]);
    put_line(d, cv, NULL, n);
}

static void csv_header(sb_doc *d, const report *r)
{
    const char *cv[16];
    size_t n = count_cells(csv_headers[r->kind], 13);
    memcpy(cv, csv_headers[r->kind], n * sizeof *cv);
    if (r->pol) {
        cv[n++] = "license_violation";
        cv[n++] = "license_exempt";
    }
    put_line(d, cv, NULL, n);
}

/* ---- SARIF 2.1.0 (licenses under a policy: one result per violation) ------ */

static const struct {
    const char *id, *name, *text;
} sarif_rules[SB_POL_NRULES] = {
    {NULL, NULL, NULL},
    {"license-denied", "DeniedLicense", "A package's license is denied by the license policy (deny-license)."},
    {"license-not-allowed", "LicenseNotAllowed", "A package's license is not among the allowed ones (allow-license)."},
    {"license-missing", "LicenseMissing", "A package states no license (require-license)."},
    {"license-not-spdx", "LicenseNotSpdx", "A package's license is not an SPDX expression (require-license)."},
};

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

static void sarif_begin(sb_doc *d)
{
    sb_jw *jw = &d->jw;
    const sb_sbom *s = d->sbom;
    sb_report__sarif_open(jw);
    sb_jw_key(jw, "rules");
    sb_jw_arr_begin(jw);
    for (int k = 1; k < SB_POL_NRULES; k++) {
        sb_jw_obj_begin(jw);
        sb_jw_kstr(jw, "id", sarif_rules[k].id);
        sb_jw_kstr(jw, "name", sarif_rules[k].name);
        sb_jw_key(jw, "shortDescription");
        sb_jw_obj_begin(jw);
        sb_jw_kstr(jw, "text", sarif_rules[k].text);
        sb_jw_obj_end(jw);
        sb_jw_key(jw, "defaultConfiguration");
        sb_jw_obj_begin(jw);
        sb_jw_kstr(jw, "level", "error");
        sb_jw_obj_end(jw);
        sb_jw_obj_end(jw);
    }
    sb_jw_arr_end(jw);
    sb_jw_obj_end(jw); /* driver */
    sb_jw_obj_end(jw); /* tool */
    sb_jw_key(jw, "automationDetails");
    sb_jw_obj_begin(jw);
    const char *id = sb_arena_printf(d->arena, "sbomd/licenses/%s/%s/", s->environment, s->platform);
    sb_jw_kstr(jw, "id", id ? id : "sbomd/licenses/");
    sb_jw_obj_end(jw);
    sb_jw_key(jw, "results");
    sb_jw_arr_begin(jw);
}

static void sarif_result(sb_doc *d, const report *r, size_t i)
{
    const sb_sbom *s = d->sbom;
    const row *w = &r->rows[i];
    if (NULL == r->pol || r->pol[w->pkg].rule == SB_POL_PASS)
        return; /* rows are findings: a package that passes is none */
    const sb_policy_verdict *v = &r->pol[w->pkg];
    const sb_pkg *p = &s->pkgs[w->pkg];
    sb_jw *jw = &d->jw;
    sb_jw_obj_begin(jw);
    sb_jw_kstr(jw, "ruleId", sarif_rules[v->rule].id);
    sb_jw_key(jw, "ruleIndex");
    sb_jw_int(jw, (long long)v->rule - 1);
    sb_jw_kstr(jw, "level", "error");
    sb_jw_key(jw, "message");
    sb_jw_obj_begin(jw);
    const char *msg = sb_arena_printf(d->arena, "%s %s: %s", p->name, p->version ? p->version : "(no version)",
                                      v->reason ? v->reason : "license policy violated");
    sb_jw_kstr(jw, "text", msg ? msg : p->name);
    sb_jw_obj_end(jw);
    sb_jw_key(jw, "locations");
    sb_jw_arr_begin(jw);
    sb_jw_obj_begin(jw);
    sb_jw_key(jw, "physicalLocation");
    sb_jw_obj_begin(jw);
    sb_jw_key(jw, "artifactLocation");
    sb_jw_obj_begin(jw);
    sb_jw_kstr(jw, "uri", s->lockfile_name ? s->lockfile_name : "lockfile");
    sb_jw_kstr(jw, "uriBaseId", "%SRCROOT%");
    sb_jw_obj_end(jw);
    sb_jw_obj_end(jw);
    sb_jw_key(jw, "logicalLocations");
    sb_jw_arr_begin(jw);
    sb_jw_obj_begin(jw);
    sb_jw_kstr(jw, "name", p->name);
    if (p->purl)
        sb_jw_kstr(jw, "fullyQualifiedName", p->purl);
    sb_jw_kstr(jw, "kind", "package");
    sb_jw_obj_end(jw);
    sb_jw_arr_end(jw);
    sb_jw_obj_end(jw);
    sb_jw_arr_end(jw);
    sb_jw_key(jw, "partialFingerprints");
    sb_jw_obj_begin(jw);
    const char *fp = sb_arena_printf(d->arena, "%s|%s|%s", p->purl ? p->purl : p->name, s->environment, s->platform);
    sb_jw_kstr(jw, "sbomd/purl-environment-platform/v1", fp ? fp : p->name);
    sb_jw_obj_end(jw);
    if (v->exempt) { /* an accepted finding: reported, suppressed */
        sb_jw_key(jw, "suppressions");
        sb_jw_arr_begin(jw);
        sb_jw_obj_begin(jw);
        sb_jw_kstr(jw, "kind", "external");
        sb_jw_kstr(jw, "justification", v->exempt);
        sb_jw_obj_end(jw);
        sb_jw_arr_end(jw);
    }
    sb_jw_key(jw, "properties");
    sb_jw_obj_begin(jw);
    kopt(jw, "package", p->name);
    kopt(jw, "version", p->version);
    kopt(jw, "license", r->lics[w->pkg].value);
    sb_jw_obj_end(jw);
    sb_jw_obj_end(jw);
}

static void sarif_end(sb_doc *d)
{
    sb_jw *jw = &d->jw;
    sb_jw_arr_end(jw); /* results */
    sb_jw_obj_end(jw); /* run */
    sb_jw_arr_end(jw); /* runs */
    sb_jw_obj_end(jw);
}

/* Close the rows, open "summary" with what every report says. */
static void json_summary_open(sb_doc *d, const report *r)
{
    sb_jw *jw = &d->jw;
    const sb_sbom *s = d->sbom;
    sb_jw_arr_end(jw);
    sb_jw_key(jw, "summary");
    sb_jw_obj_begin(jw);
    kopt(jw, "workspace", s->root_name);
    kopt(jw, "environment", s->environment);
    kopt(jw, "platform", s->platform);
    kopt(jw, "lockfile", s->lockfile_name);
    sb_jw_key(jw, "packages");
    sb_jw_int(jw, (long long)s->npkgs);
    if (r->kind == R_TREE) {
        sb_jw_key(jw, "rows");
        sb_jw_int(jw, (long long)r->nrows);
        sb_jw_key(jw, "roots");
        sb_jw_int(jw, (long long)s->nroot);
    } else if (r->kind == R_PACKAGES && s->manifest) {
        sb_jw_key(jw, "declared");
        sb_jw_int(jw, (long long)s->ndeclared);
        sb_jw_key(jw, "declared_missing");
        sb_jw_arr_begin(jw);
        for (size_t k = 0; k < s->declared_missing.n; k++)
            sb_jw_str(jw, s->declared_missing.v[k]);
        sb_jw_arr_end(jw);
    } else if (r->kind == R_PYTHON) {
        kopt(jw, "interpreter", interp_minor(d, r));
        kopt(jw, "ceiling", ceiling_text(d, r->min_major, r->min_minor));
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
        sb_jw_int(jw, (long long)r->nopython);
    } else if (r->kind == R_LICENSES) {
        sb_jw_key(jw, "distinct_licenses");
        sb_jw_int(jw, (long long)r->ncounts);
        sb_jw_key(jw, "by_license");
        sb_jw_arr_begin(jw);
    }
}

static void json_count(sb_doc *d, const report *r, size_t k)
{
    sb_jw *jw = &d->jw;
    const lic_count *c = &r->counts[k];
    sb_jw_obj_begin(jw);
    sb_jw_kstr(jw, "license", c->license);
    sb_jw_key(jw, "spdx");
    sb_jw_bool(jw, r->lics[r->by_license[c->first]].kind == SB_LIC_EXPR);
    sb_jw_key(jw, "count");
    sb_jw_int(jw, (long long)c->n);
    sb_jw_key(jw, "packages");
    sb_jw_arr_begin(jw);
    for (size_t i = 0; i < c->n; i++)
        sb_jw_str(jw, d->sbom->pkgs[r->by_license[c->first + i]].name);
    sb_jw_arr_end(jw);
    sb_jw_obj_end(jw);
}

static void json_unknowns(sb_doc *d, const report *r)
{
    sb_jw *jw = &d->jw;
    const sb_sbom *s = d->sbom;
    sb_jw_arr_end(jw); /* by_license */
    sb_jw_key(jw, "no_license");
    sb_jw_arr_begin(jw);
    for (size_t i = 0; i < s->npkgs; i++)
        if (r->lics[i].kind == SB_LIC_NONE)
            sb_jw_str(jw, s->pkgs[i].name);
    sb_jw_arr_end(jw);
    sb_jw_key(jw, "not_spdx");
    sb_jw_arr_begin(jw);
    for (size_t i = 0; i < s->npkgs; i++) {
        if (r->lics[i].kind != SB_LIC_TEXT)
            continue;
        sb_jw_obj_begin(jw);
        sb_jw_kstr(jw, "name", s->pkgs[i].name);
        sb_jw_kstr(jw, "license", r->lics[i].value);
        sb_jw_kstr(jw, "reason", r->lics[i].reason ? r->lics[i].reason : "not an SPDX expression");
        sb_jw_obj_end(jw);
    }
    sb_jw_arr_end(jw);
    if (NULL == r->pol)
        return;
    size_t nv = 0;
    for (size_t i = 0; i < s->npkgs; i++)
        nv += !r->pol[i].exempt && r->pol[i].rule != SB_POL_PASS;
    sb_jw_key(jw, "policy_violations");
    sb_jw_int(jw, (long long)nv);
    sb_jw_key(jw, "violations");
    sb_jw_arr_begin(jw);
    for (size_t i = 0; i < s->npkgs; i++) {
        const sb_policy_verdict *v = &r->pol[i];
        if (v->exempt || v->rule == SB_POL_PASS)
            continue;
        sb_jw_obj_begin(jw);
        sb_jw_kstr(jw, "name", s->pkgs[i].name);
        kopt(jw, "version", s->pkgs[i].version);
        kopt(jw, "license", r->lics[i].value);
        sb_jw_kstr(jw, "rule", sb_policy_rule_name(v->rule));
        sb_jw_kstr(jw, "reason", v->reason ? v->reason : "");
        sb_jw_obj_end(jw);
    }
    sb_jw_arr_end(jw);
    sb_jw_key(jw, "exempt");
    sb_jw_arr_begin(jw);
    for (size_t i = 0; i < s->npkgs; i++) {
        if (!r->pol[i].exempt)
            continue;
        sb_jw_obj_begin(jw);
        sb_jw_kstr(jw, "name", s->pkgs[i].name);
        sb_jw_kstr(jw, "reason", r->pol[i].exempt);
        sb_jw_obj_end(jw);
    }
    sb_jw_arr_end(jw);
}

/* ---- the producer callbacks ------------------------------------------------ */

static sb_code begin(sb_doc *d)
{
    sb_code rc = prepare(d);
    if (rc != SB_OK)
        return rc;
    report *r = d->fmt;
    if (r->md) {
        const sb_sbom *s = d->sbom;
        if (sb_table_heading(&d->stage, d->ops->name, s->root_name, s->environment, s->platform) != SB_OK)
            return SB_ENOMEM;
    }
    if (r->text) {
        size_t nc = ncols_r(r);
        put_line(d, hdr(r), r->width, nc);
        put_rule(d, r, nc);
        return d->jw.status;
    }
    if (r->csv) {
        csv_header(d, r);
        return d->jw.status;
    }
    if (r->sarif) {
        sarif_begin(d);
        return d->jw.status;
    }
    sb_jw_obj_begin(&d->jw);
    sb_jw_key(&d->jw, d->ops->name);
    sb_jw_arr_begin(&d->jw);
    return d->jw.status;
}

static sb_code nothing(sb_doc *d, size_t i)
{
    (void)i;
    return d->jw.status;
}

static sb_code middle(sb_doc *d) { return d->jw.status; }

static size_t piece_count(const sb_doc *d)
{
    const report *r = d->fmt;
    return r->nrows + r->nsummary;
}

static sb_code piece(sb_doc *d, size_t i)
{
    const report *r = d->fmt;
    if (i < r->nrows) {
        if (r->text)
            text_row(d, r, i);
        else if (r->csv)
            csv_row(d, r, i);
        else if (r->sarif)
            sarif_result(d, r, i);
        else
            json_row(d, r, i);
        return d->jw.status;
    }
    size_t k = i - r->nrows;
    if (r->text) {
        text_summary(d, r, k);
    } else if (k == 0) {
        json_summary_open(d, r);
        if (r->kind == R_LICENSES && r->ncounts)
            json_count(d, r, 0);
    } else {
        json_count(d, r, k);
    }
    return d->jw.status;
}

static sb_code end(sb_doc *d)
{
    const report *r = d->fmt;
    if (r->text || r->csv)
        return d->jw.status;
    if (r->sarif) {
        sarif_end(d);
        return d->jw.status;
    }
    if (r->kind == R_LICENSES)
        json_unknowns(d, r);
    sb_jw_obj_end(&d->jw); /* summary */
    sb_jw_obj_end(&d->jw);
    return d->jw.status;
}

#define REPORT_OPS(var, kind_name, mtype)                                                            \
    static const sb_doc_ops var = {.name = kind_name, .media_type = mtype, .text_shape = SB_TEXTS_CYCLONEDX, \
                                   .begin = begin, .component = nothing, .middle = middle,             \
                                   .relation_count = piece_count, .relation = piece, .end = end}

REPORT_OPS(packages_json, "packages", "application/json");
REPORT_OPS(licenses_json, "licenses", "application/json");
REPORT_OPS(python_json, "python", "application/json");
REPORT_OPS(tree_json, "tree", "application/json");
REPORT_OPS(packages_text, "packages", "text/plain; charset=utf-8");
REPORT_OPS(licenses_text, "licenses", "text/plain; charset=utf-8");
REPORT_OPS(python_text, "python", "text/plain; charset=utf-8");
REPORT_OPS(tree_text, "tree", "text/plain; charset=utf-8");
REPORT_OPS(packages_md, "packages", "text/markdown; charset=utf-8");
REPORT_OPS(licenses_md, "licenses", "text/markdown; charset=utf-8");
REPORT_OPS(python_md, "python", "text/markdown; charset=utf-8");
REPORT_OPS(tree_md, "tree", "text/markdown; charset=utf-8");
REPORT_OPS(packages_csv, "packages", "text/csv; charset=utf-8");
REPORT_OPS(licenses_csv, "licenses", "text/csv; charset=utf-8");
REPORT_OPS(python_csv, "python", "text/csv; charset=utf-8");
REPORT_OPS(tree_csv, "tree", "text/csv; charset=utf-8");
REPORT_OPS(licenses_sarif, "licenses", "application/sarif+json");

static const sb_report_kind packages_kind = {"packages", {&packages_json, &packages_text, &packages_md, &packages_csv, NULL}};
static const sb_report_kind licenses_kind = {"licenses",
                                             {&licenses_json, &licenses_text, &licenses_md, &licenses_csv, &licenses_sarif}};
static const sb_report_kind python_kind = {"python", {&python_json, &python_text, &python_md, &python_csv, NULL}};
static const sb_report_kind tree_kind = {"tree", {&tree_json, &tree_text, &tree_md, &tree_csv, NULL}};

/* Every report kind, one line each; the handler routes /v1/report/<name>
 * from this list. The first four are this file's, in R_* order. */
static const sb_report_kind *const registry[] = {&packages_kind, &licenses_kind, &python_kind, &tree_kind,
                                                 &sb_report_quality, &sb_report_vulnerabilities, &sb_report_outdated, &sb_report_explain,
                                                 NULL};

const sb_report_kind *const *sb_report_registry(void) { return registry; }

static int kind_of(const sb_doc *d)
{
    for (int k = 0; k < 4; k++)
        for (int o = 0; o < SB_REPORT_NOUTPUTS; o++)
            if (registry[k]->ops[o] && d->ops == registry[k]->ops[o])
                return k;
    return R_PACKAGES;
}

static sb_report_output out_of(const sb_doc *d)
{
    for (int k = 0; k < 4; k++)
        for (int o = 0; o < SB_REPORT_NOUTPUTS; o++)
            if (registry[k]->ops[o] && d->ops == registry[k]->ops[o])
                return (sb_report_output)o;
    return SB_REPORT_JSON;
}

static const char *const *hdr(const report *r)
{
    return r->pol ? lic_policy_headers : headers[r->kind];
}

static size_t ncols_r(const report *r) { return r->pol ? MAXCOLS : ncols(r->kind); }

static const struct {
    const char *name, *media;
} outputs[SB_REPORT_NOUTPUTS] = {
    {"json", "application/json"},
    {"text", "text/plain; charset=utf-8"},
    {"markdown", "text/markdown; charset=utf-8"},
    {"csv", "text/csv; charset=utf-8"},
    {"sarif", "application/sarif+json"},
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

const char *sb_report_output_name(sb_report_output out) { return outputs[out].name; }

const char *sb_report_output_media(sb_report_output out) { return outputs[out].media; }

sb_report_output sb_report_output_of(const sb_report_kind *k, const sb_doc_ops *ops)
{
    for (int o = 0; o < SB_REPORT_NOUTPUTS; o++)
        if (k->ops[o] && k->ops[o] == ops)
            return (sb_report_output)o;
    return SB_REPORT_JSON;
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
