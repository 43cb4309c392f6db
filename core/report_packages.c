/*
 * report_packages.c - the packages report: one row per package
 * of the model with its version, kind, where the manifest declares it, its
 * source, license, yanked flag and purl, as JSON, an aligned text table,
 * Markdown and CSV (its columns are the JSON row's keys). The summary counts the packages and,
 * when a manifest was read, what it declares that is present or missing.
 * A table report: the shared machinery is in report.c (report_int.h).
 */
#include "report_int.h"
#include "health.h"

#include <stdint.h>
#include <string.h>

static const char *const headers[] = {"Name", "Version", "Kind", "Declared", "Source", "License", "Yanked", "Purl"};

/* The JSON row's keys, in its order (one schema, openapi/reports.schema.json). */
static const char *const csv_headers[] = {"environment",    "platform",      "name",
                                          "version",        "kind",          "license",
                                          "declared",       "scope",         "source",
                                          "spdx",           "spdx_reason",   "license_family",
                                          "license_source", "license_files", "purl",
                                          "yanked",         "yanked_reason", NULL};

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

/* Whether package p is yanked: 1, 0 (its index answered: not yanked), or
 * -1 when nobody looked (yanked=true not asked, not an index package, or
 * the question failed): "false" there would claim a check never made. */
static int yanked_of(const sb_doc *d, const sb_pkg *p)
{
    if (sb_report__prop(p, "pixi:yanked"))
        return 1;
    const sb_sbom *s = d->sbom;
    size_t i = (size_t)(p - s->pkgs);
    return s->yanked_asked && s->health && i < s->npkgs && s->health[i].state == SB_HEALTH_ANSWERED ? 0 : -1;
}

/* The Yanked cell of a row: "yes: <reason>", "yes", "no", or "-" when
 * nobody looked. */
static const char *yanked_cell(sb_doc *d, const sb_pkg *p)
{
    int y = yanked_of(d, p);
    if (y <= 0)
        return y ? "-" : "no";
    const char *why = sb_report__prop(p, "pixi:yanked-reason");
    const char *c = why ? sb_arena_printf(d->arena, "yes: %s", why) : "yes";
    return c ? c : "yes";
}

static sb_code prepare(sb_doc *d, sb_report__tab *r)
{
    r->hdr = headers;
    r->csv_hdr = csv_headers;
    r->nsummary = 1;
    return sb_report__all_rows(d, r);
}

static void cells(sb_doc *d, const sb_report__tab *r, size_t i, const char *out[SB_REPORT__MAXCOLS])
{
    const sb_report__row *w = &r->rows[i];
    const sb_pkg *p = &d->sbom->pkgs[w->pkg];
    out[0] = p->name, out[1] = sb_report__dash(p->version), out[2] = sb_kind_name(p->kind);
    out[3] = sb_report__dash(sb_report__prop(p, "pixi:declared-in")), out[4] = sb_report__dash(p->supplier_name);
    out[5] = sb_report__dash(r->lics[w->pkg].value);
    out[6] = yanked_cell(d, p), out[7] = sb_report__dash(p->purl);
}

static size_t csv_cells(sb_doc *d, const sb_report__tab *r, size_t i, const char **cv)
{
    const sb_report__row *w = &r->rows[i];
    const sb_pkg *p = &d->sbom->pkgs[w->pkg];
    size_t n = 0;
    cv[n++] = p->name, cv[n++] = p->version, cv[n++] = sb_kind_name(p->kind), cv[n++] = r->lics[w->pkg].value;
    cv[n++] = sb_report__prop(p, "pixi:declared-in"), cv[n++] = scope_name(p->scope), cv[n++] = p->supplier_name;
    n += sb_report__csv_license(d, p, &r->lics[w->pkg], cv + n);
    cv[n++] = p->purl;
    int y = yanked_of(d, p);
    cv[n++] = y < 0 ? NULL : y ? "true" : "false";
    cv[n++] = sb_report__prop(p, "pixi:yanked-reason");
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
    sb_jw_kstr(jw, "kind", sb_kind_name(p->kind));
    sb_report__kopt(jw, "license", r->lics[w->pkg].value);
    sb_report__kopt(jw, "declared", sb_report__prop(p, "pixi:declared-in"));
    sb_report__kopt(jw, "scope", scope_name(p->scope));
    sb_report__kopt(jw, "source", p->supplier_name);
    sb_report__json_license(jw, p, &r->lics[w->pkg]);
    sb_report__kopt(jw, "purl", p->purl);
    sb_jw_key(jw, "yanked");
    int y = yanked_of(d, p);
    if (y < 0)
        sb_jw_null(jw);
    else
        sb_jw_bool(jw, y);
    /* null when not yanked or no reason given: every row has every key */
    sb_report__kopt(jw, "yanked_reason", sb_report__prop(p, "pixi:yanked-reason"));
    sb_jw_obj_end(jw);
}

static void text_summary(sb_doc *d, const sb_report__tab *r, size_t k)
{
    (void)k;
    const sb_sbom *s = d->sbom;
    const char *t = sb_arena_printf(d->arena, "%sSummary: %zu packages (environment ", r->md ? "\n### " : "\n",
                                    s->npkgs);
    sb_report__puts(d, t ? t : "\n");
    /* the lockfile names both: written as any other value of it */
    sb_report__put_cell(d, s->environment, 0);
    sb_report__puts(d, ", platform ");
    sb_report__put_cell(d, s->platform, 0);
    sb_report__puts(d, ")\n");
    /* the License column's "-" may be not known rather than absent: say so, as the page does */
    sb_report__unknown_line(d, r);
    if (!s->manifest) /* only when a manifest was read */
        return;
    const char *dl = sb_arena_printf(d->arena, "Declared by the manifest: %zu present, %zu missing%s", s->ndeclared,
                                     (size_t)s->declared_missing.n, s->declared_missing.n ? ": " : "\n");
    sb_report__puts(d, dl ? dl : "");
    for (size_t j = 0; j < s->declared_missing.n; j++) {
        if (j)
            sb_report__puts(d, ", ");
        sb_report__put_cell(d, s->declared_missing.v[j], 0);
    }
    if (s->declared_missing.n)
        sb_report__puts(d, "\n");
}

static void json_summary(sb_doc *d, const sb_report__tab *r, size_t k)
{
    (void)r;
    (void)k;
    sb_jw *jw = &d->jw;
    const sb_sbom *s = d->sbom;
    if (!s->manifest)
        return;
    sb_jw_key(jw, "declared");
    sb_jw_int(jw, (long long)s->ndeclared);
    sb_jw_key(jw, "declared_missing");
    sb_jw_arr_begin(jw);
    for (size_t j = 0; j < s->declared_missing.n; j++)
        sb_jw_str(jw, s->declared_missing.v[j]);
    sb_jw_arr_end(jw);
}

static const sb_report__tab_kind packages = {
    .kind = &sb_report_packages,
    .prepare = prepare,
    .cells = cells,
    .text_summary = text_summary,
    .csv_cells = csv_cells,
    .json_row = json_row,
    .json_summary = json_summary,
};

static sb_code begin(sb_doc *d)
{
    return sb_report__tab_begin(d, &packages);
}

SB_REPORT__TAB_OUTPUTS(packages, "packages", begin);

const sb_report_kind sb_report_packages = {.name = "packages",
                                           .ops = {&packages_json, &packages_text, &packages_md, &packages_csv, NULL}};
