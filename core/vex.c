/*
 * vex.c - CycloneDX VEX and OpenVEX documents read and applied to findings
 * (see vex.h).
 */
#include "vex.h"
#include "vuln.h"

#include <jansson.h>
#include <string.h>

#define VEX_MAX_STMTS 100000

static const char *const cdx_states[] = {"resolved",       "resolved_with_pedigree", "exploitable", "in_triage",
                                         "false_positive", "not_affected",           NULL};
static const char *const cdx_justs[] = {"code_not_present",
                                        "code_not_reachable",
                                        "requires_configuration",
                                        "requires_dependency",
                                        "requires_environment",
                                        "protected_by_compiler",
                                        "protected_at_runtime",
                                        "protected_at_perimeter",
                                        "protected_by_mitigating_control",
                                        NULL};
/* OpenVEX status -> CycloneDX state */
static const char *const ov_status[][2] = {{"not_affected", "not_affected"},
                                           {"fixed", "resolved"},
                                           {"affected", "exploitable"},
                                           {"under_investigation", "in_triage"}};
/* OpenVEX justification -> the CycloneDX one that says the same */
static const char *const ov_just[][2] = {{"component_not_present", "code_not_present"},
                                         {"vulnerable_code_not_present", "code_not_present"},
                                         {"vulnerable_code_not_in_execute_path", "code_not_reachable"},
                                         {"vulnerable_code_cannot_be_controlled_by_adversary", "requires_environment"},
                                         {"inline_mitigations_already_exist", "protected_by_mitigating_control"}};

static const char *word_in(const char *const *list, const char *w)
{
    for (size_t i = 0; w && list[i]; i++)
        if (!strcmp(list[i], w))
            return list[i];
    return NULL;
}

static const char *mapped(const char *const (*map)[2], size_t n, const char *w)
{
    for (size_t i = 0; w && i < n; i++)
        if (!strcmp(map[i][0], w))
            return map[i][1];
    return NULL;
}

static sb_code push(sb_strv *v, sb_arena *a, const char *s)
{
    if (NULL == s || !s[0] || strlen(s) > 2048)
        return SB_OK;
    return sb_strv_push(v, a, sb_arena_strdup(a, s));
}

static const char *opt_str(sb_arena *a, json_t *v)
{
    const char *s = json_string_value(v);
    return s && s[0] ? sb_arena_strdup(a, s) : NULL;
}

/* CycloneDX: vulnerabilities[] {id, references[].id, analysis{state,
 * justification, detail}, affects[].ref} */
static sb_code read_cdx(sb_arena *a, json_t *root, sb_vex *vex, sb_err *err)
{
    json_t *vs = json_object_get(root, "vulnerabilities");
    if (!json_is_array(vs))
        return sb_err_set(err, SB_EPARSE, "CycloneDX VEX has no vulnerabilities array");
    const char *serial = json_string_value(json_object_get(root, "serialNumber"));
    vex->source = sb_arena_printf(a, "cyclonedx%s%s", serial ? ":" : "", serial ? serial : "");
    size_t i;
    json_t *v;
    json_array_foreach(vs, i, v) {
        json_t *an = json_object_get(v, "analysis");
        if (NULL == an)
            continue; /* a finding without analysis says nothing about it */
        sb_vex_stmt *st = &vex->stmts[vex->n];
        const char *id = json_string_value(json_object_get(v, "id"));
        const char *state = json_string_value(json_object_get(an, "state"));
        const char *just = json_string_value(json_object_get(an, "justification"));
        if (NULL == id || !id[0])
            return sb_err_set(err, SB_EPARSE, "vulnerabilities[%zu] has no id", i);
        if (NULL == (st->state = word_in(cdx_states, state)))
            return sb_err_set(err, SB_EPARSE, "vulnerabilities[%zu].analysis.state '%.40s' is not a CycloneDX state", i,
                              state ? state : "");
        if (just && NULL == (st->justification = word_in(cdx_justs, just)))
            return sb_err_set(err, SB_EPARSE,
                              "vulnerabilities[%zu].analysis.justification '%.40s' is not a CycloneDX one", i, just);
        st->detail = opt_str(a, json_object_get(an, "detail"));
        sb_code rc = push(&st->ids, a, id);
        size_t k;
        json_t *x;
        json_array_foreach(json_object_get(v, "references"), k, x) {
            if (rc == SB_OK)
                rc = push(&st->ids, a, json_string_value(json_object_get(x, "id")));
        }
        json_array_foreach(json_object_get(v, "affects"), k, x) {
            if (rc == SB_OK)
                rc = push(&st->refs, a, json_string_value(json_object_get(x, "ref")));
        }
        if (rc != SB_OK)
            return sb_err_set(err, rc, "out of memory");
        vex->n++;
    }
    return SB_OK;
}

/* OpenVEX: statements[] {vulnerability{name, aliases[]} (or a string),
 * products[] {@id, identifiers{purl}} (or strings), status, justification,
 * impact_statement, status_notes} */
static sb_code read_openvex(sb_arena *a, json_t *root, sb_vex *vex, sb_err *err)
{
    json_t *ss = json_object_get(root, "statements");
    if (!json_is_array(ss))
        return sb_err_set(err, SB_EPARSE, "OpenVEX document has no statements array");
    const char *id = json_string_value(json_object_get(root, "@id"));
    vex->source = sb_arena_printf(a, "openvex%s%s", id ? ":" : "", id ? id : "");
    size_t i;
    json_t *v;
    json_array_foreach(ss, i, v) {
        sb_vex_stmt *st = &vex->stmts[vex->n];
        json_t *vu = json_object_get(v, "vulnerability");
        const char *name = json_is_string(vu) ? json_string_value(vu) : json_string_value(json_object_get(vu, "name"));
        const char *status = json_string_value(json_object_get(v, "status"));
        const char *just = json_string_value(json_object_get(v, "justification"));
        if (NULL == name || !name[0])
            return sb_err_set(err, SB_EPARSE, "statements[%zu] names no vulnerability", i);
        if (NULL == (st->state = mapped(ov_status, sizeof ov_status / sizeof ov_status[0], status)))
            return sb_err_set(err, SB_EPARSE, "statements[%zu].status '%.40s' is not an OpenVEX status", i,
                              status ? status : "");
        if (just && NULL == (st->justification = mapped(ov_just, sizeof ov_just / sizeof ov_just[0], just)))
            return sb_err_set(err, SB_EPARSE, "statements[%zu].justification '%.60s' is not an OpenVEX one", i, just);
        st->detail = opt_str(a, json_object_get(v, "impact_statement"));
        if (NULL == st->detail)
            st->detail = opt_str(a, json_object_get(v, "status_notes"));
        sb_code rc = push(&st->ids, a, name);
        size_t k;
        json_t *x;
        json_array_foreach(json_object_get(vu, "aliases"), k, x) {
            if (rc == SB_OK)
                rc = push(&st->ids, a, json_string_value(x));
        }
        json_array_foreach(json_object_get(v, "products"), k, x) {
            if (rc != SB_OK)
                break;
            if (json_is_string(x)) {
                rc = push(&st->refs, a, json_string_value(x));
                continue;
            }
            rc = push(&st->refs, a, json_string_value(json_object_get(x, "@id")));
            if (rc == SB_OK)
                rc = push(&st->refs, a, json_string_value(json_object_get(json_object_get(x, "identifiers"), "purl")));
        }
        if (rc != SB_OK)
            return sb_err_set(err, rc, "out of memory");
        vex->n++;
    }
    return SB_OK;
}

sb_code sb_vex_parse(sb_arena *a, const char *json, size_t len, sb_vex **out, sb_err *err)
{
    json_error_t je;
    json_t *root = json_loadb(json, len, 0, &je);
    if (!json_is_object(root)) {
        json_decref(root);
        return sb_err_set(err, SB_EPARSE, "not a JSON object (line %d: %.80s)", je.line,
                          root ? "not an object" : je.text);
    }
    sb_vex *vex = sb_arena_calloc(a, 1, sizeof *vex);
    json_t *list = json_object_get(root, "vulnerabilities");
    if (!json_is_array(list))
        list = json_object_get(root, "statements");
    size_t n = json_array_size(list);
    sb_code rc = SB_OK;
    if (n > VEX_MAX_STMTS)
        rc = sb_err_set(err, SB_EPARSE, "more than %d statements", VEX_MAX_STMTS);
    else if (NULL == vex || NULL == (vex->stmts = sb_arena_calloc(a, n + 1, sizeof *vex->stmts)))
        rc = sb_err_set(err, SB_ENOMEM, "out of memory");
    else if (json_is_string(json_object_get(root, "bomFormat")) &&
             !strcmp(json_string_value(json_object_get(root, "bomFormat")), "CycloneDX"))
        rc = read_cdx(a, root, vex, err);
    else if (json_is_string(json_object_get(root, "@context")) &&
             !strncmp(json_string_value(json_object_get(root, "@context")), "https://openvex.dev/ns", 22))
        rc = read_openvex(a, root, vex, err);
    else
        rc = sb_err_set(err, SB_EPARSE, "neither CycloneDX (bomFormat) nor OpenVEX (@context https://openvex.dev/ns)");
    json_decref(root);
    if (rc == SB_OK && (NULL == vex || NULL == vex->source))
        rc = sb_err_set(err, SB_ENOMEM, "out of memory");
    *out = rc == SB_OK ? vex : NULL;
    return rc;
}

/* The length of a purl without its qualifiers and subpath. */
static size_t purl_core(const char *p)
{
    return strcspn(p, "?#");
}

static int hexval(char c)
{
    return c >= '0' && c <= '9'   ? c - '0'
           : c >= 'a' && c <= 'f' ? c - 'a' + 10
           : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                  : -1;
}

/* Whether a BOM-Link's fragment, percent-decoded, is the bom-ref `id`: a
 * bom-ref holding '%', '#' or a space is encoded there (output=vex does). */
static int fragment_is(const char *frag, const char *id)
{
    while (*frag && *id) {
        int c = (unsigned char)*frag++;
        if (c == '%' && hexval(frag[0]) >= 0 && hexval(frag[1]) >= 0) {
            c = hexval(frag[0]) * 16 + hexval(frag[1]);
            frag += 2;
        }
        if (c != (unsigned char)*id++)
            return 0;
    }
    return !*frag && !*id;
}

/* Whether product reference `ref` names package p. */
static int names_pkg(const sb_pkg *p, const char *ref)
{
    /* BOM-Link: urn:cdx:<serial>/<version>#<bom-ref>; the bom-ref is after
     * the first '#' (an encoded one holds no other) */
    const char *hash = strchr(ref, '#');
    if (!strncmp(ref, "urn:cdx:", 8) && hash) {
        if (p->id && fragment_is(hash + 1, p->id))
            return 1;
        ref = hash + 1;
    }
    if (p->id && !strcmp(p->id, ref))
        return 1;
    if (strncmp(ref, "pkg:", 4))
        return 0;
    int bare = strcspn(ref, "?#") == strlen(ref);
    for (size_t k = 0; k <= sb_pkg_xr(p)->extra_purls.n; k++) {
        const char *u = k ? sb_pkg_xr(p)->extra_purls.v[k - 1] : p->purl;
        if (NULL == u)
            continue;
        if (!strcmp(u, ref) || (bare && purl_core(u) == strlen(ref) && !strncmp(u, ref, strlen(ref))))
            return 1;
    }
    return 0;
}

static int knows(const sb_vuln *v, const sb_strv *ids)
{
    for (size_t i = 0; i < ids->n; i++) {
        if (!strcmp(v->id, ids->v[i]))
            return 1;
        for (size_t k = 0; k < v->aliases.n; k++)
            if (!strcmp(v->aliases.v[k], ids->v[i]))
                return 1;
    }
    return 0;
}

sb_code sb_vex_apply(sb_sbom *s, sb_arena *a, const sb_vex *vex, size_t *applied)
{
    (void)a;
    *applied = 0;
    for (size_t i = 0; i < s->nvulns; i++) {
        sb_vuln *v = &s->vulns[i];
        int hit = 0;
        for (size_t k = 0; k < vex->n; k++) {
            const sb_vex_stmt *st = &vex->stmts[k];
            if (!knows(v, &st->ids))
                continue;
            int named = 0 == st->refs.n;
            for (size_t r = 0; r < st->refs.n && !named; r++)
                for (size_t m = 0; m < v->naffects && !named; m++)
                    named = names_pkg(&s->pkgs[v->affects[m]], st->refs.v[r]);
            if (!named)
                continue;
            v->vex_state = st->state;
            v->vex_justification = st->justification;
            v->vex_detail = st->detail;
            v->vex_source = vex->source;
            hit = 1;
        }
        *applied += hit;
    }
    return SB_OK;
}
