/*
 * report_explain.c - the explain report (sbomgen
 * `--explain`): every fact the document holds about one package (sb_doc_opts
 * .explain_package) and where it came from, for "why does the dashboard say
 * GPL?". One row per fact: {environment, platform, name, version, kind,
 * fact, value, source, considered}; JSON `{"explain": [rows], "summary"}`,
 * an aligned text table, Markdown or CSV through table.h.
 *
 * A name matches as written, else PEP 503-normalized (so `Pillow` finds
 * `pillow`); every package of that name is explained (npm may hold several
 * versions). A package a filter left out has one row saying so. The rows
 * are built when the report begins (a package has tens of facts) and then
 * streamed one a piece.
 */
#include "report.h"
#include "ecosystem.h"
#include "license.h"
#include "table.h"

#include <stdio.h>
#include <string.h>

enum { NCOLS = 7 };

static const char *const header[NCOLS] = {"Package", "Version", "Kind", "Fact", "Value", "Source", "Considered"};

/* A row's JSON keys after environment and platform; with those two, the CSV
 * header (`name` as in every report, openapi/reports.schema.json). */
static const char *const keys[NCOLS] = {"name", "version", "kind", "fact", "value", "source", "considered"};
static const char *const csv_header[NCOLS + 2] = {"environment", "platform", "name",   "version",   "kind",
                                                  "fact",        "value",    "source", "considered"};

typedef struct xrow {
    const char *cell[NCOLS];
    const sb_pkg *p; /* the package the fact is about */
} xrow;

typedef struct xreport {
    sb_report_output out;
    xrow *rows;
    size_t n, cap;
    size_t matched;
    size_t width[NCOLS];
} xreport;

static const sb_doc_ops explain_json, explain_text, explain_markdown, explain_csv;

/* A fact; a NULL value is no fact. */
static sb_code fact(sb_doc *d, xreport *r, const sb_pkg *p, const char *kind, const char *name, const char *value,
                    const char *source, const char *considered)
{
    if (NULL == value)
        return SB_OK;
    xrow *nr = sb_arena_grow(d->arena, r->rows, &r->cap, r->n, sizeof *nr, 64);
    if (NULL == nr)
        return SB_ENOMEM;
    r->rows = nr;
    r->rows[r->n++] = (xrow){{p->name, p->version, kind, name, value, source, considered}, p};
    return SB_OK;
}

static const char *prop_of(const sb_pkg *p, const char *name)
{
    for (uint32_t i = 0; i < p->nprops; i++)
        if (!strcmp(p->props[i].name, name))
            return p->props[i].value;
    return NULL;
}

/* Where a property comes from: the request's policy, the manifest, the
 * package cache or an index lookup, the PyPI mapping, else the input. */
static const char *prop_source(const char *name, const char *input)
{
    if (!strcmp(name, "pixi:license-violation") || !strcmp(name, "pixi:license-exempt"))
        return "license policy";
    if (!strcmp(name, "pixi:direct") || !strcmp(name, "pixi:declared-in"))
        return "manifest";
    if (!strcmp(name, "pixi:pypi-mapping"))
        return "PyPI mapping";
    if (!strcmp(name, "pixi:license-source") || !strcmp(name, "pixi:license-raw"))
        return "license normalization";
    return input;
}

/* "a, b, c" of n strings, NULL when none */
static const char *join(sb_arena *a, const char *const *v, size_t n)
{
    if (0 == n)
        return NULL;
    size_t len = 1;
    for (size_t i = 0; i < n; i++)
        len += strlen(v[i]) + 2;
    char *out = sb_arena_alloc(a, len);
    if (NULL == out)
        return NULL;
    size_t o = 0;
    for (size_t i = 0; i < n; i++) {
        size_t k = strlen(v[i]);
        if (i) {
            memcpy(out + o, ", ", 2);
            o += 2;
        }
        memcpy(out + o, v[i], k);
        o += k;
    }
    out[o] = '\0';
    return out;
}

static sb_code explain_pkg(sb_doc *d, xreport *r, size_t idx)
{
    const sb_sbom *s = d->sbom;
    const sb_pkg *p = &s->pkgs[idx];
    const sb_pkgx *x = sb_pkg_xr(p);
    sb_arena *a = d->arena;
    const char *kind = sb_kind_name(p->kind);
    const char *input = s->lockfile_name ? s->lockfile_name : s->input_kind;
    sb_code rc = SB_OK;
#define F(name, value, source, considered) \
    do { \
        if (rc == SB_OK) \
            rc = fact(d, r, p, kind, name, value, source, considered); \
    } while (0)
    F("kind", kind, input, NULL);
    const sb_ecosystem *eco = sb_eco(p->kind);
    const char *derived = eco->explain_purl ? eco->explain_purl : "derived from name and version";
    const char *other = join(a, sb_pkg_xr(p)->extra_purls.v, sb_pkg_xr(p)->extra_purls.n);
    F("purl", p->purl, x->given_purl ? sb_arena_printf(a, "%s (as the document states it)", input) : derived,
      other ? sb_arena_printf(a, "other identities: %s", other) : NULL);
    if (p->x && p->x->ref_purl && p->purl && strcmp(p->x->ref_purl, p->purl))
        F("own-purl", p->x->ref_purl, "primary-purl=pypi made a PyPI identity primary", NULL);
    sb_lic lic = sb_pkg_lic(p, a);
    const char *lsrc = prop_of(p, "pixi:license-source");
    const char *why = lic.kind == SB_LIC_TEXT
                          ? sb_arena_printf(a, "free text: %s", lic.reason ? lic.reason : "not an SPDX expression")
                      : lic.kind == SB_LIC_NONE ? (lic.reason ? lic.reason : "no license stated")
                      : lic.raw_rewritten       ? sb_arena_printf(a, "rewritten from '%s'", lic.raw_rewritten)
                                                : NULL;
    F("license", lic.kind == SB_LIC_NONE ? "(none)" : lic.value,
      lsrc                          ? lsrc
      : p->license && p->license[0] ? input
                                    : "nothing states one",
      p->license && (NULL == lic.value || strcmp(p->license, lic.value))
          ? (why ? sb_arena_printf(a, "raw '%s'; %s", p->license, why) : sb_arena_printf(a, "raw '%s'", p->license))
          : why);
    F("license-family", x->license_family, input, NULL);
    if (x->nlicfiles) {
        const char **names = sb_arena_alloc(a, x->nlicfiles * sizeof *names);
        if (NULL == names)
            return SB_ENOMEM;
        for (uint32_t k = 0; k < x->nlicfiles; k++)
            names[k] = x->licfiles[k].name;
        F("license-files", join(a, names, x->nlicfiles), "package cache (info/licenses)", NULL);
    }
    F("supplier", p->supplier_name, eco->explain_supplier ? eco->explain_supplier : input, p->supplier_url);
    F("location", p->location, input, NULL);
    F("file-name", p->file_name, input, NULL);
    static const char *const algs[SB_HASH_N] = {"sha256", "md5", "sha512", "sha384", "sha1"};
    sb_hash_hex hx;
    for (int h = 0; h < SB_HASH_N; h++) /* a row keeps its value: the hex copied */
        F(algs[h], sb_arena_strdup(a, sb_pkg_hash(p, (sb_hash_alg)h, &hx)), input, NULL);
    if (p->scope != SB_SCOPE_NONE)
        F("scope",
          p->scope == SB_SCOPE_REQUIRED   ? "required"
          : p->scope == SB_SCOPE_OPTIONAL ? "optional"
                                          : "development",
          input, "the strongest way it is reached (required < optional < development)");
    F("summary", x->summary, "package cache or index lookup", NULL);
    F("homepage", x->homepage, "package cache or index lookup", NULL);
    F("repository", x->repository, "package cache or index lookup", NULL);
    for (uint32_t k = 0; k < p->nprops; k++)
        if (strcmp(p->props[k].name, "pixi:license-source"))
            F(p->props[k].name, p->props[k].value, prop_source(p->props[k].name, input), NULL);
    /* the graph, both ways */
    const char **names = sb_arena_alloc(a, (s->npkgs + 1) * sizeof *names);
    if (NULL == names)
        return SB_ENOMEM;
    for (uint32_t k = 0; k < p->ndeps; k++)
        names[k] = s->pkgs[p->deps[k]].name;
    F("depends-on", join(a, names, p->ndeps), input, NULL);
    size_t nb = 0;
    for (size_t k = 0; k < s->nroot; k++)
        if (s->root_deps[k] == idx)
            names[nb++] = "(root)";
    for (size_t j = 0; j < s->npkgs; j++)
        for (uint32_t k = 0; k < s->pkgs[j].ndeps; k++)
            if (s->pkgs[j].deps[k] == idx) {
                names[nb++] = s->pkgs[j].name;
                break;
            }
    F("required-by", join(a, names, nb), input, NULL);
#undef F
    return rc;
}

static int same_name(sb_arena *a, const char *want, const char *name)
{
    if (!strcmp(want, name))
        return 1;
    const char *w = sb_model_pep503(a, want), *n = sb_model_pep503(a, name);
    return w && n && !strcmp(w, n);
}

static sb_code begin(sb_doc *d)
{
    xreport *r = sb_arena_calloc(d->arena, 1, sizeof *r);
    if (NULL == r)
        return SB_ENOMEM;
    d->fmt = r;
    r->out = sb_report_output_of(d->ops);
    const sb_sbom *s = d->sbom;
    const char *want = d->opts.explain_package ? d->opts.explain_package : "";
    sb_code rc = SB_OK;
    for (size_t i = 0; i < s->npkgs && rc == SB_OK; i++)
        if (same_name(d->arena, want, s->pkgs[i].name)) {
            r->matched++;
            rc = explain_pkg(d, r, i);
        }
    for (size_t i = 0; i < s->nexcluded && rc == SB_OK; i++)
        if (same_name(d->arena, want, s->excluded[i].name)) {
            sb_pkg p = {.name = s->excluded[i].name, .version = s->excluded[i].version};
            rc = fact(d, r, &p, "-", "excluded", s->excluded[i].reason, "the request's filter",
                      "left out of the document, so nothing else about it is here");
        }
    if (rc != SB_OK)
        return rc;
    sb_jw *jw = &d->jw;
    if (r->out == SB_REPORT_JSON) {
        sb_jw_obj_begin(jw);
        sb_jw_key(jw, "explain");
        sb_jw_arr_begin(jw);
        return jw->status;
    }
    for (size_t c = 0; c < NCOLS; c++)
        r->width[c] = sb_table_width(header[c]);
    if (r->out == SB_REPORT_TEXT)
        for (size_t i = 0; i < r->n; i++)
            for (size_t c = 0; c < NCOLS; c++) {
                size_t w = sb_table_width(r->rows[i].cell[c] ? r->rows[i].cell[c] : "-");
                if (w > r->width[c])
                    r->width[c] = w;
            }
    if (r->out == SB_REPORT_CSV)
        return sb_report__csv_header(&d->stage, d->sbom, csv_header, NCOLS + 2);
    return sb_table_head(&d->stage, sb_report_table_out(r->out), header, NCOLS, r->width);
}

static sb_code nothing(sb_doc *d, size_t i)
{
    (void)i;
    return d->jw.status;
}

static sb_code middle(sb_doc *d)
{
    return d->jw.status;
}

static size_t piece_count(const sb_doc *d)
{
    return ((const xreport *)d->fmt)->n;
}


static sb_code piece(sb_doc *d, size_t i)
{
    const xreport *r = d->fmt;
    const xrow *w = &r->rows[i];
    if (r->out == SB_REPORT_JSON) {
        sb_jw *jw = &d->jw;
        sb_report__json_row_open(jw, d->sbom, w->p);
        for (size_t c = 0; c < NCOLS; c++) {
            sb_jw_key(jw, keys[c]);
            if (w->cell[c])
                sb_jw_str(jw, w->cell[c]);
            else
                sb_jw_null(jw);
        }
        sb_jw_obj_end(jw);
        return jw->status;
    }
    if (r->out == SB_REPORT_CSV)
        return sb_report__csv_line(&d->stage, d->sbom, w->p, w->cell, NCOLS);
    const char *cv[NCOLS];
    for (size_t c = 0; c < NCOLS; c++)
        cv[c] = w->cell[c] ? w->cell[c] : "-";
    return sb_table_row(&d->stage, sb_report_table_out(r->out), cv, NCOLS, r->width);
}

static sb_code end(sb_doc *d)
{
    const xreport *r = d->fmt;
    const sb_sbom *s = d->sbom;
    if (r->out == SB_REPORT_CSV)
        return SB_OK;
    if (r->out != SB_REPORT_JSON) {
        /* the name is the request's: in Markdown it must render as the name */
        int md = r->out == SB_REPORT_MARKDOWN;
        char line[64];
        snprintf(line, sizeof line, "\n%s%zu package(s) named '", md ? "- " : "", r->matched);
        const char *want = d->opts.explain_package ? d->opts.explain_package : "";
        sb_code rc = sb_buf_append(&d->stage, line, strlen(line));
        if (rc == SB_OK)
            rc = md ? sb_table_md(&d->stage, want, 0) : sb_table_text(&d->stage, want, 0);
        return rc == SB_OK ? sb_buf_append(&d->stage, "' in the document\n", 18) : rc;
    }
    sb_jw *jw = &d->jw;
    sb_jw_arr_end(jw);
    sb_jw_key(jw, "summary");
    sb_jw_obj_begin(jw);
    sb_jw_kstr(jw, "package", d->opts.explain_package ? d->opts.explain_package : "");
    sb_jw_key(jw, "matched");
    sb_jw_int(jw, (long long)r->matched);
    sb_jw_key(jw, "facts");
    sb_jw_int(jw, (long long)r->n);
    sb_report__summary_selection(jw, s);
    sb_report__incomplete_json(jw, s);
    sb_jw_kstr(jw, "input_kind", s->input_kind);
    sb_jw_obj_end(jw);
    sb_jw_obj_end(jw);
    return jw->status;
}


SB_REPORT_OUTPUT(explain_json, "explain", JSON, begin, middle, piece_count, piece, end, nothing);
SB_REPORT_OUTPUT(explain_text, "explain", TEXT, begin, middle, piece_count, piece, end, nothing);
SB_REPORT_OUTPUT(explain_markdown, "explain", MARKDOWN, begin, middle, piece_count, piece, end, nothing);
SB_REPORT_OUTPUT(explain_csv, "explain", CSV, begin, middle, piece_count, piece, end, nothing);

const sb_report_kind sb_report_explain = {
    .name = "explain",
    .ops = {&explain_json, &explain_text, &explain_markdown, &explain_csv, NULL},
    .needs_package = true,
    .params = SB_REPORT_PARAMS_EXPLAIN,
};
