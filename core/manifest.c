/*
 * manifest.c - workspace manifests into sb_manifest (manifest.h): pixi.toml
 * and pyproject.toml through the TOML event parser (toml.c), environment.yml
 * through the YAML tree (yaml_tree.c), package.json through jansson.
 *
 * Each reader only collects: root metadata, declared names with their
 * feature/group/extra, PEP 735 include-group edges and pixi environments.
 * Group inclusion is expanded at the end (a cycle is malformed input, as
 * PEP 735 says).
 */
#include "manifest.h"
#include "toml.h"
#include "uuid.h"
#include "yaml_tree.h"

#include <ctype.h>
#include <jansson.h>
#include <string.h>
#include <strings.h>

/* ---- shared helpers ---- */

static int ends_with(const char *s, const char *suf)
{
    size_t n = strlen(s), k = strlen(suf);
    return n >= k && !strcasecmp(s + n - k, suf);
}

const char *sb_manifest_kind(const char *filename)
{
    if (NULL == filename)
        return NULL;
    const char *b = filename;
    for (const char *p = filename; *p; p++)
        if (*p == '/' || *p == '\\')
            b = p + 1;
    if (!strcasecmp(b, "pixi.toml"))
        return "pixi.toml";
    if (!strcasecmp(b, "pyproject.toml"))
        return "pyproject.toml";
    if (!strcasecmp(b, "package.json"))
        return "package.json";
    if (ends_with(b, ".yml") || ends_with(b, ".yaml"))
        return "environment.yml";
    return NULL;
}

static char *trim(sb_arena *a, const char *s, size_t n)
{
    while (n && isspace((unsigned char)*s)) {
        s++;
        n--;
    }
    while (n && isspace((unsigned char)s[n - 1]))
        n--;
    return sb_arena_strndup(a, s, n);
}

int sb_manifest_author(sb_arena *a, const char *s, sb_author *out)
{
    out->name = out->email = NULL;
    if (NULL == s)
        return 0;
    const char *lt = strrchr(s, '<');
    char *name, *email = NULL;
    if (lt) {
        name = trim(a, s, (size_t)(lt - s));
        char *rest = trim(a, lt + 1, strlen(lt + 1));
        size_t rl = rest ? strlen(rest) : 0;
        if (rest && rl && rest[rl - 1] == '>') {
            email = trim(a, rest, rl - 1);
        } else {
            name = trim(a, s, strlen(s)); /* no closing bracket: all of it is the name */
        }
    } else {
        name = trim(a, s, strlen(s));
    }
    if (NULL == name)
        return 0;
    if (email && !email[0])
        email = NULL;
    if (!name[0])
        name = email, email = NULL;
    if (NULL == name || !name[0])
        return 0;
    out->name = name;
    out->email = email;
    return 1;
}

static sb_code add_author(sb_manifest *m, sb_arena *a, const char *name, const char *email)
{
    if ((NULL == name || !name[0]) && (NULL == email || !email[0]))
        return SB_OK;
    sb_author *v = sb_arena_alloc(a, (m->nauthors + 1) * sizeof *v);
    if (NULL == v)
        return SB_ENOMEM;
    if (m->nauthors)
        memcpy(v, m->authors, m->nauthors * sizeof *v);
    v[m->nauthors].name = name && name[0] ? name : email;
    v[m->nauthors].email = name && name[0] && email && email[0] ? email : NULL;
    m->authors = v;
    m->nauthors++;
    return SB_OK;
}

static sb_code add_author_str(sb_manifest *m, sb_arena *a, const char *s)
{
    sb_author au;
    if (!sb_manifest_author(a, s, &au))
        return SB_OK;
    return add_author(m, a, au.name, au.email);
}

/* The leading name of a PEP 508 requirement / conda matchspec / bare key,
 * normalized for its ecosystem. NULL when there is none. */
static const char *dep_name(sb_arena *a, const char *spec, sb_mdep_eco eco)
{
    if (NULL == spec)
        return NULL;
    while (isspace((unsigned char)*spec))
        spec++;
    if (eco == SB_MDEP_CONDA) {
        const char *cc = strstr(spec, "::"); /* channel::name */
        if (cc)
            spec = cc + 2;
    }
    if (eco == SB_MDEP_NPM)
        return spec[0] ? sb_arena_strdup(a, spec) : NULL;
    size_t n = 0;
    while (spec[n] && (isalnum((unsigned char)spec[n]) || spec[n] == '.' || spec[n] == '_' || spec[n] == '-'))
        n++;
    if (0 == n)
        return NULL;
    char *raw = sb_arena_strndup(a, spec, n);
    if (NULL == raw)
        return NULL;
    if (eco == SB_MDEP_PYPI)
        return sb_model_pep503(a, raw);
    for (char *c = raw; *c; c++)
        *c = (char)tolower((unsigned char)*c);
    return raw;
}

static sb_code add_dep(sb_manifest *m, sb_arena *a, const char *spec, const char *feature, sb_scope scope,
                       sb_mdep_eco eco)
{
    const char *n = dep_name(a, spec, eco);
    if (NULL == n)
        return SB_OK; /* a URL-only or empty entry names nothing we can match */
    if (eco == SB_MDEP_CONDA && !strncmp(n, "__", 2))
        return SB_OK; /* virtual package */
    if (eco == SB_MDEP_PYPI && !strcmp(n, "python"))
        return SB_OK; /* poetry's python = "^3.9" is the interpreter, not a package */
    sb_mdep *v = sb_arena_grow(a, m->deps, &m->dcap, m->ndeps + 1, sizeof *v, 16);
    if (NULL == v)
        return SB_ENOMEM;
    m->deps = v;
    v[m->ndeps++] = (sb_mdep){n, feature ? feature : "default", scope, eco};
    return SB_OK;
}

bool sb_manifest_in_env(const sb_manifest *m, const char *env, const char *f)
{
    if (!m->pixi)
        return true;
    if (NULL == env)
        env = "default";
    for (size_t i = 0; i < m->nenvs; i++) {
        const sb_menv *e = &m->envs[i];
        if (strcmp(e->name, env))
            continue;
        if (!strcmp(f, "default"))
            return !e->no_default;
        for (size_t k = 0; k < e->features.n; k++)
            if (!strcmp(e->features.v[k], f))
                return true;
        return false;
    }
    /* an environment the manifest does not define: pixi's default one, or
     * one named after its feature */
    return !strcmp(f, "default") || !strcmp(f, env);
}

sb_code sb_manifest_env_index(sb_menv_index *x, const sb_manifest *m, const char *env, sb_arena *scratch)
{
    memset(x, 0, sizeof *x);
    x->all = !m->pixi;
    x->env = env ? env : "default";
    for (size_t i = 0; !x->all && i < m->nenvs; i++) {
        const sb_menv *e = &m->envs[i];
        if (strcmp(e->name, x->env))
            continue;
        x->defined = true;
        x->no_default = e->no_default;
        if (sb_strmap_init(&x->features, scratch, e->features.n) != SB_OK)
            return SB_ENOMEM;
        for (size_t k = 0; k < e->features.n; k++)
            if (sb_strmap_put(&x->features, e->features.v[k], strlen(e->features.v[k]), k, NULL) < 0)
                return SB_ENOMEM;
        break;
    }
    return SB_OK;
}

bool sb_manifest_env_has(const sb_menv_index *x, const char *f)
{
    size_t at;
    if (x->all)
        return true;
    if (!x->defined)
        return !strcmp(f, "default") || !strcmp(f, x->env);
    if (!strcmp(f, "default"))
        return !x->no_default;
    return sb_strmap_get(&x->features, f, strlen(f), &at);
}

/* ---- PEP 735 include-group ---- */

typedef struct incl {
    const char *group, *target;
    unsigned line, column;
} incl;

typedef struct toml_ctx {
    sb_manifest *m;
    sb_arena *a;
    int pyproject;
    /* PEP 735 groups: included-group edges, expanded at the end */
    incl *inc;
    size_t ninc, icap;
    /* root metadata by source, merged by precedence at the end */
    const char *name[3], *version[3], *license[3], *homepage[3], *repository[3], *documentation[3];
    bool have_authors[3];
    sb_author *auth[3];
    size_t nauth[3];
    sb_strmap env_by_name; /* pixi environments -> their index in m->envs */
    /* poetry: names marked optional = true (declared through extras only) */
    sb_strv poetry_optional;
    const char *pending_name, *pending_email; /* PEP 621 author table being read */
    size_t pending_idx;
    int pending_src;
} toml_ctx;

/* The environment `name` (kept: a key of the document), made when new;
 * found by a map, as each feature listed under it asks again. */
static sb_menv *env_get(toml_ctx *c, const char *name)
{
    sb_manifest *m = c->m;
    size_t at;
    if (NULL == c->env_by_name.slots && sb_strmap_init(&c->env_by_name, c->a, 8) != SB_OK)
        return NULL;
    if (sb_strmap_get(&c->env_by_name, name, strlen(name), &at))
        return &m->envs[at];
    sb_menv *v = sb_arena_grow(c->a, m->envs, &m->ecap, m->nenvs + 1, sizeof *v, 4);
    if (NULL == v || sb_strmap_put(&c->env_by_name, name, strlen(name), m->nenvs, NULL) < 0)
        return NULL;
    m->envs = v;
    memset(&v[m->nenvs], 0, sizeof v[m->nenvs]);
    v[m->nenvs].name = name;
    return &v[m->nenvs++];
}


enum { SRC_PIXI = 0, SRC_PEP621 = 1, SRC_POETRY = 2 };

static bool key(const sb_toml_seg *p, size_t depth, size_t i, const char *k)
{
    return sb_toml_key_is(p, depth, i, k);
}

/* requirement string or table key: the dependency table's entry name */
static sb_code pixi_dep_table(toml_ctx *c, const sb_toml_seg *p, size_t depth, size_t at, const char *feature,
                              const sb_toml_value *v)
{
    /* at: index of "dependencies"/"pypi-dependencies" etc.; the name is at+1 */
    if (depth != at + 2 || NULL == p[at].key || NULL == p[at + 1].key) /* an array index has no key */
        return SB_OK;
    if (v->type != SB_TOML_STRING && v->type != SB_TOML_TABLE)
        return SB_OK;
    const char *t = p[at].key;
    sb_mdep_eco eco;
    if (!strcmp(t, "dependencies") || !strcmp(t, "host-dependencies") || !strcmp(t, "build-dependencies") ||
        !strcmp(t, "run-dependencies"))
        eco = SB_MDEP_CONDA;
    else if (!strcmp(t, "pypi-dependencies"))
        eco = SB_MDEP_PYPI;
    else
        return SB_OK;
    return add_dep(c->m, c->a, p[at + 1].key, feature, SB_SCOPE_REQUIRED, eco);
}

/* pixi tables below `o` (0 in pixi.toml, 2 under [tool.pixi]) */
static sb_code on_pixi(toml_ctx *c, const sb_toml_seg *p, size_t depth, size_t o, const sb_toml_value *v)
{
    if (depth <= o)
        return SB_OK;
    const char *top = p[o].key;
    if (NULL == top)
        return SB_OK;
    if ((!strcmp(top, "workspace") || !strcmp(top, "project")) && depth >= o + 2 && p[o + 1].key) {
        const char *k = p[o + 1].key;
        if (depth == o + 2 && v->type == SB_TOML_STRING) {
            const char *s = sb_arena_strndup(c->a, v->str, v->len);
            if (!strcmp(k, "name"))
                c->name[SRC_PIXI] = s;
            else if (!strcmp(k, "version"))
                c->version[SRC_PIXI] = s;
            else if (!strcmp(k, "license"))
                c->license[SRC_PIXI] = s;
            else if (!strcmp(k, "homepage"))
                c->homepage[SRC_PIXI] = s;
            else if (!strcmp(k, "repository"))
                c->repository[SRC_PIXI] = s;
            else if (!strcmp(k, "documentation"))
                c->documentation[SRC_PIXI] = s;
        } else if (!strcmp(k, "authors") && depth == o + 3 && v->type == SB_TOML_STRING) {
            sb_author au;
            if (sb_manifest_author(c->a, sb_arena_strndup(c->a, v->str, v->len), &au)) {
                sb_author *n = sb_arena_alloc(c->a, (c->nauth[SRC_PIXI] + 1) * sizeof *n);
                if (NULL == n)
                    return SB_ENOMEM;
                if (c->nauth[SRC_PIXI])
                    memcpy(n, c->auth[SRC_PIXI], c->nauth[SRC_PIXI] * sizeof *n);
                n[c->nauth[SRC_PIXI]++] = au;
                c->auth[SRC_PIXI] = n;
            }
        }
        return SB_OK;
    }
    /* [dependencies] / [target.<p>.dependencies]: the default feature */
    if (depth >= o + 2)
        if (pixi_dep_table(c, p, depth, o, "default", v) != SB_OK)
            return SB_ENOMEM;
    if (!strcmp(top, "target") && depth >= o + 4)
        if (pixi_dep_table(c, p, depth, o + 2, "default", v) != SB_OK)
            return SB_ENOMEM;
    if (!strcmp(top, "feature") && depth >= o + 4 && p[o + 1].key) {
        const char *f = p[o + 1].key;
        if (pixi_dep_table(c, p, depth, o + 2, f, v) != SB_OK)
            return SB_ENOMEM;
        if (key(p, depth, o + 2, "target") && depth >= o + 6 && pixi_dep_table(c, p, depth, o + 4, f, v) != SB_OK)
            return SB_ENOMEM;
    }
    if (!strcmp(top, "environments") && depth >= o + 2 && p[o + 1].key) {
        sb_menv *e = env_get(c, p[o + 1].key);
        if (NULL == e)
            return SB_ENOMEM;
        /* environments.x = ["f", ...] or {features = [...], no-default-feature = true} */
        if (depth == o + 3 && NULL == p[o + 2].key && v->type == SB_TOML_STRING)
            return sb_strv_push(&e->features, c->a, sb_arena_strndup(c->a, v->str, v->len));
        if (depth == o + 4 && key(p, depth, o + 2, "features") && v->type == SB_TOML_STRING)
            return sb_strv_push(&e->features, c->a, sb_arena_strndup(c->a, v->str, v->len));
        if (depth == o + 3 && key(p, depth, o + 2, "no-default-feature") && v->type == SB_TOML_BOOL)
            e->no_default = v->b;
    }
    return SB_OK;
}

static void url_key(toml_ctx *c, int src, const char *k, const char *s)
{
    char low[64];
    size_t n = 0;
    for (; k[n] && n + 1 < sizeof low; n++)
        low[n] = (char)tolower((unsigned char)k[n]);
    low[n] = 0;
    /* pip's normalization of label names: drop punctuation and spaces */
    char norm[64];
    size_t o = 0;
    for (size_t i = 0; i < n; i++)
        if (isalnum((unsigned char)low[i]))
            norm[o++] = low[i];
    norm[o] = 0;
    if (!strcmp(norm, "homepage") && NULL == c->homepage[src])
        c->homepage[src] = s;
    else if ((!strcmp(norm, "repository") || !strcmp(norm, "source") || !strcmp(norm, "sourcecode")) &&
             NULL == c->repository[src])
        c->repository[src] = s;
    else if ((!strcmp(norm, "documentation") || !strcmp(norm, "docs")) && NULL == c->documentation[src])
        c->documentation[src] = s;
}

static sb_code flush_pending(toml_ctx *c)
{
    if (NULL == c->pending_name && NULL == c->pending_email)
        return SB_OK;
    int s = c->pending_src;
    sb_author *n = sb_arena_alloc(c->a, (c->nauth[s] + 1) * sizeof *n);
    if (NULL == n)
        return SB_ENOMEM;
    if (c->nauth[s])
        memcpy(n, c->auth[s], c->nauth[s] * sizeof *n);
    const char *nm = c->pending_name && c->pending_name[0] ? c->pending_name : c->pending_email;
    const char *em = c->pending_name && c->pending_name[0] ? c->pending_email : NULL;
    if (nm && nm[0]) {
        n[c->nauth[s]++] = (sb_author){true, nm,
                                       em && em[0] ? em
                                                   : NULL}; /* project authors are people (PEP 621, package.json) */
        c->auth[s] = n;
    }
    c->pending_name = c->pending_email = NULL;
    return SB_OK;
}

static sb_code on_pyproject(toml_ctx *c, const sb_toml_seg *p, size_t depth, const sb_toml_value *v, sb_err *err)
{
    sb_arena *a = c->a;
    const char *s = v->type == SB_TOML_STRING ? sb_arena_strndup(a, v->str, v->len) : NULL;
    if (v->type == SB_TOML_STRING && NULL == s)
        return SB_ENOMEM;
    /* PEP 621 [project] */
    if (key(p, depth, 0, "project") && depth >= 2 && p[1].key) {
        const char *k = p[1].key;
        if (depth == 2 && s) {
            if (!strcmp(k, "name"))
                c->name[SRC_PEP621] = s;
            else if (!strcmp(k, "version"))
                c->version[SRC_PEP621] = s;
            else if (!strcmp(k, "license"))
                c->license[SRC_PEP621] = s;
        } else if (!strcmp(k, "license") && depth == 3 && s && key(p, depth, 2, "text")) {
            c->license[SRC_PEP621] = s;
        } else if (!strcmp(k, "urls") && depth == 3 && s && p[2].key) {
            url_key(c, SRC_PEP621, p[2].key, s);
        } else if (!strcmp(k, "authors") && depth >= 3 && NULL == p[2].key) {
            if (depth == 3 && v->type == SB_TOML_TABLE) {
                if (flush_pending(c) != SB_OK)
                    return SB_ENOMEM;
                c->pending_src = SRC_PEP621;
                c->pending_idx = p[2].index;
            } else if (depth == 4 && s && key(p, depth, 3, "name")) {
                c->pending_name = s;
            } else if (depth == 4 && s && key(p, depth, 3, "email")) {
                c->pending_email = s;
            }
        } else if (!strcmp(k, "dependencies") && depth == 3 && s) {
            return add_dep(c->m, a, s, "default", SB_SCOPE_REQUIRED, SB_MDEP_PYPI);
        } else if (!strcmp(k, "optional-dependencies") && depth == 4 && s && p[2].key) {
            return add_dep(c->m, a, s, p[2].key, SB_SCOPE_OPTIONAL, SB_MDEP_PYPI);
        }
        return SB_OK;
    }
    /* PEP 735 [dependency-groups] */
    if (key(p, depth, 0, "dependency-groups") && depth >= 3 && p[1].key && NULL == p[2].key) {
        if (depth == 3 && s)
            return add_dep(c->m, a, s, p[1].key, SB_SCOPE_DEVELOPMENT, SB_MDEP_PYPI);
        if (depth == 4 && s && key(p, depth, 3, "include-group")) {
            incl *iv = sb_arena_grow(a, c->inc, &c->icap, c->ninc + 1, sizeof *iv, 8);
            if (NULL == iv)
                return SB_ENOMEM;
            c->inc = iv;
            iv[c->ninc++] = (incl){p[1].key, sb_model_pep503(a, s), v->line, v->column};
        }
        return SB_OK;
    }
    if (!key(p, depth, 0, "tool") || depth < 3)
        return SB_OK;
    if (key(p, depth, 1, "pixi")) {
        c->m->pixi = true; /* its features (and PEP 621 extras, groups) are chosen by environments */
        return on_pixi(c, p, depth, 2, v);
    }
    if (key(p, depth, 1, "uv") && key(p, depth, 2, "dev-dependencies") && depth == 4 && s)
        return add_dep(c->m, a, s, "dev", SB_SCOPE_DEVELOPMENT, SB_MDEP_PYPI);
    if (key(p, depth, 1, "pdm") && key(p, depth, 2, "dev-dependencies") && depth == 5 && s && p[3].key)
        return add_dep(c->m, a, s, p[3].key, SB_SCOPE_DEVELOPMENT, SB_MDEP_PYPI);
    if (key(p, depth, 1, "poetry")) {
        const char *k = p[2].key;
        if (NULL == k)
            return SB_OK;
        if (depth == 3 && s) {
            if (!strcmp(k, "name"))
                c->name[SRC_POETRY] = s;
            else if (!strcmp(k, "version"))
                c->version[SRC_POETRY] = s;
            else if (!strcmp(k, "license"))
                c->license[SRC_POETRY] = s;
            else if (!strcmp(k, "homepage"))
                c->homepage[SRC_POETRY] = s;
            else if (!strcmp(k, "repository"))
                c->repository[SRC_POETRY] = s;
            else if (!strcmp(k, "documentation"))
                c->documentation[SRC_POETRY] = s;
            return SB_OK;
        }
        if (!strcmp(k, "authors") && depth == 4 && s) {
            sb_author au;
            if (sb_manifest_author(a, s, &au)) {
                c->pending_src = SRC_POETRY;
                c->pending_name = au.name;
                c->pending_email = au.email;
                return flush_pending(c);
            }
            return SB_OK;
        }
        if (!strcmp(k, "urls") && depth == 4 && s && p[3].key) {
            url_key(c, SRC_POETRY, p[3].key, s);
            return SB_OK;
        }
        /* [tool.poetry.dependencies] name = "spec" | {version, optional} */
        if (!strcmp(k, "dependencies") && p[3].key) {
            if (depth == 4 && (s || v->type == SB_TOML_TABLE || v->type == SB_TOML_ARRAY))
                return add_dep(c->m, a, p[3].key, "default", SB_SCOPE_REQUIRED, SB_MDEP_PYPI);
            if (depth == 5 && key(p, depth, 4, "optional") && v->type == SB_TOML_BOOL && v->b)
                return sb_strv_push(&c->poetry_optional, a, sb_model_pep503(a, p[3].key));
            return SB_OK;
        }
        if (!strcmp(k, "dev-dependencies") && depth == 4 && p[3].key &&
            (s || v->type == SB_TOML_TABLE || v->type == SB_TOML_ARRAY))
            return add_dep(c->m, a, p[3].key, "dev", SB_SCOPE_DEVELOPMENT, SB_MDEP_PYPI);
        if (!strcmp(k, "group") && depth == 6 && p[3].key && key(p, depth, 4, "dependencies") && p[5].key &&
            (s || v->type == SB_TOML_TABLE || v->type == SB_TOML_ARRAY))
            return add_dep(c->m, a, p[5].key, p[3].key, SB_SCOPE_DEVELOPMENT, SB_MDEP_PYPI);
        if (!strcmp(k, "extras") && depth == 5 && p[3].key && NULL == p[4].key && s)
            return add_dep(c->m, a, s, p[3].key, SB_SCOPE_OPTIONAL, SB_MDEP_PYPI);
    }
    (void)err;
    return SB_OK;
}

static sb_code on_toml(void *ud, const sb_toml_seg *path, size_t depth, const sb_toml_value *v, sb_err *err)
{
    toml_ctx *c = ud;
    /* a PEP 621 author table ends where the next value is not inside it */
    if ((c->pending_name || c->pending_email) && c->pending_src == SRC_PEP621 &&
        !(depth >= 3 && key(path, depth, 0, "project") && key(path, depth, 1, "authors") && NULL == path[2].key &&
          path[2].index == c->pending_idx && depth > 3))
        if (flush_pending(c) != SB_OK)
            return SB_ENOMEM;
    sb_code rc = c->pyproject ? on_pyproject(c, path, depth, v, err) : on_pixi(c, path, depth, 0, v);
    if (rc == SB_ENOMEM)
        sb_err_set(err, SB_ENOMEM, "out of memory");
    return rc;
}

/* PEP 735: every group also declares what it includes, transitively; a
 * cycle is an error (the PEP says tools must report it), and so is an
 * include of a group that is not there. Group names compare normalized. */
#define MAX_INCLUDES 4096   /* include-group entries: the walk is quadratic in them */
#define MAX_DECLARED 200000 /* declarations after expansion: a bound on what groups can multiply */

static sb_code expand_groups(toml_ctx *c, sb_err *err)
{
    if (0 == c->ninc)
        return SB_OK;
    if (c->ninc > MAX_INCLUDES)
        return sb_err_set(err, SB_ELIMIT, "the manifest has more than %d include-group entries", MAX_INCLUDES);
    sb_manifest *m = c->m;
    size_t n0 = m->ndeps;
    /* normalized names, once: each include's group, each group dependency's group */
    const char **from = sb_arena_alloc(c->a, c->ninc * sizeof *from);
    const char **feat = sb_arena_alloc(c->a, (n0 ? n0 : 1) * sizeof *feat);
    const char **stack = sb_arena_alloc(c->a, (c->ninc + 2) * sizeof *stack);
    size_t *edge = sb_arena_alloc(c->a, (c->ninc + 2) * sizeof *edge);
    const char **done = sb_arena_alloc(c->a, (c->ninc + 2) * sizeof *done);
    if (NULL == from || NULL == feat || NULL == stack || NULL == edge || NULL == done)
        return sb_err_set(err, SB_ENOMEM, "out of memory");
    for (size_t i = 0; i < c->ninc; i++)
        if (NULL == (from[i] = sb_model_pep503(c->a, c->inc[i].group)))
            return sb_err_set(err, SB_ENOMEM, "out of memory");
    for (size_t d = 0; d < n0; d++) {
        feat[d] = m->deps[d].scope == SB_SCOPE_DEVELOPMENT ? sb_model_pep503(c->a, m->deps[d].feature) : "";
        if (NULL == feat[d])
            return sb_err_set(err, SB_ENOMEM, "out of memory");
    }
    for (size_t i = 0; i < c->ninc; i++) {
        int found = 0;
        for (size_t d = 0; d < n0 && !found; d++)
            found = !strcmp(feat[d], c->inc[i].target);
        for (size_t j = 0; j < c->ninc && !found; j++)
            found = !strcmp(from[j], c->inc[i].target);
        if (!found)
            return sb_err_set_at(err, SB_EPARSE, c->inc[i].line, c->inc[i].column,
                                 "dependency group '%.64s' includes '%.64s', which is not a group", c->inc[i].group,
                                 c->inc[i].target);
    }
    for (size_t i = 0; i < c->ninc; i++) {
        /* once per including group: depth-first along its includes */
        const char *start = c->inc[i].group;
        int first = 1;
        for (size_t j = 0; j < i && first; j++)
            first = strcmp(from[j], from[i]) != 0;
        if (!first)
            continue;
        size_t sp = 0, ndone = 0;
        stack[sp] = from[i];
        edge[sp++] = 0;
        while (sp) {
            const char *g = stack[sp - 1];
            size_t e = edge[sp - 1];
            while (e < c->ninc && strcmp(from[e], g))
                e++;
            if (e == c->ninc) {
                sp--;
                continue;
            }
            edge[sp - 1] = e + 1;
            const char *t = c->inc[e].target;
            for (size_t k = 0; k < sp; k++)
                if (!strcmp(stack[k], t))
                    return sb_err_set_at(err, SB_EPARSE, c->inc[e].line, c->inc[e].column,
                                         "dependency group '%.64s' includes itself through include-group '%.64s'",
                                         start, t);
            int seen = 0;
            for (size_t k = 0; k < ndone && !seen; k++)
                seen = !strcmp(done[k], t);
            if (seen)
                continue;
            done[ndone++] = t;
            /* group `start` declares everything `t` lists directly */
            for (size_t d = 0; d < n0; d++) {
                if (strcmp(feat[d], t))
                    continue;
                if (m->ndeps >= MAX_DECLARED)
                    return sb_err_set(err, SB_ELIMIT,
                                      "the manifest's groups declare more than %d names once "
                                      "include-group is expanded",
                                      MAX_DECLARED);
                sb_mdep copy = m->deps[d];
                copy.feature = start;
                sb_mdep *v = sb_arena_grow(c->a, m->deps, &m->dcap, m->ndeps + 1, sizeof *v, 16);
                if (NULL == v)
                    return sb_err_set(err, SB_ENOMEM, "out of memory");
                m->deps = v;
                v[m->ndeps++] = copy;
            }
            stack[sp] = t; /* sp <= distinct groups on the path <= ninc + 1 */
            edge[sp++] = 0;
        }
    }
    return SB_OK;
}

static sb_code read_toml(sb_manifest *m, sb_arena *a, const char *data, size_t len, const sb_limits *lim, sb_err *err)
{
    toml_ctx c = {.m = m, .a = a, .pyproject = !strcmp(m->kind, "pyproject.toml")};
    m->pixi = !c.pyproject;
    sb_code rc = sb_toml_parse(a, data, len, lim, on_toml, &c, err);
    if (rc != SB_OK)
        return rc;
    if (flush_pending(&c) != SB_OK)
        return sb_err_set(err, SB_ENOMEM, "out of memory");
    if ((rc = expand_groups(&c, err)) != SB_OK)
        return rc;
    /* poetry: a dependency marked optional is declared by its extras only */
    if (c.poetry_optional.n) {
        size_t o = 0;
        for (size_t i = 0; i < m->ndeps; i++) {
            int drop = 0;
            for (size_t k = 0; k < c.poetry_optional.n && !drop; k++)
                drop = m->deps[i].scope == SB_SCOPE_REQUIRED && !strcmp(m->deps[i].feature, "default") &&
                       !strcmp(m->deps[i].name, c.poetry_optional.v[k]);
            if (!drop)
                m->deps[o++] = m->deps[i];
        }
        m->ndeps = o;
    }
    /* root metadata: pixi's workspace first, PEP 621 fills gaps, then poetry */
    for (int s = 0; s < 3; s++) {
#define FILL(f) \
    if (NULL == m->f) \
    m->f = c.f[s]
        FILL(name);
        FILL(version);
        FILL(license);
        FILL(homepage);
        FILL(repository);
        FILL(documentation);
#undef FILL
        if (0 == m->nauthors && c.nauth[s]) {
            m->authors = c.auth[s];
            m->nauthors = c.nauth[s];
        }
    }
    return SB_OK;
}

/* ---- environment.yml ---- */

static sb_code read_env_yml(sb_manifest *m, sb_arena *a, const char *data, size_t len, const sb_limits *lim,
                            sb_err *err)
{
    sb_yn **docs = NULL;
    size_t nd = 0;
    sb_code rc = sb_yt_parse(&docs, &nd, a, data, len, lim, err);
    if (rc != SB_OK)
        return rc;
    if (0 == nd || docs[0]->type != SB_YN_MAP)
        return sb_err_set(err, SB_EFORMAT, "environment file is not a YAML mapping");
    const sb_yn *root = docs[0];
    m->name = sb_yn_str(root, "name");
    const sb_yn *deps = sb_yn_get(root, "dependencies");
    if (deps && deps->type != SB_YN_SEQ)
        return sb_err_set_at(err, SB_EFORMAT, deps->line, deps->col, "'dependencies' is not a list");
    for (size_t i = 0; deps && i < deps->n; i++) {
        const sb_yn *it = deps->kids[i];
        if (it->type == SB_YN_SCALAR) {
            if (add_dep(m, a, it->s, "default", SB_SCOPE_REQUIRED, SB_MDEP_CONDA) != SB_OK)
                return sb_err_set(err, SB_ENOMEM, "out of memory");
            continue;
        }
        const sb_yn *pip = sb_yn_get(it, "pip");
        for (size_t k = 0; pip && pip->type == SB_YN_SEQ && k < pip->n; k++) {
            const sb_yn *r = pip->kids[k];
            if (r->type != SB_YN_SCALAR || NULL == r->s || r->s[0] == '-')
                continue; /* pip options (-r file, --index-url) declare nothing */
            if (add_dep(m, a, r->s, "default", SB_SCOPE_REQUIRED, SB_MDEP_PYPI) != SB_OK)
                return sb_err_set(err, SB_ENOMEM, "out of memory");
        }
    }
    return SB_OK;
}

/* ---- package.json ---- */

static const char *jstr(sb_arena *a, json_t *o, const char *k)
{
    json_t *v = json_object_get(o, k);
    return json_is_string(v) ? sb_arena_strdup(a, json_string_value(v)) : NULL;
}

static sb_code read_package_json(sb_manifest *m, sb_arena *a, const char *data, size_t len, sb_err *err)
{
    json_error_t je;
    json_t *root = json_loadb(data, len, JSON_REJECT_DUPLICATES, &je);
    if (NULL == root)
        return sb_err_set_at(err, SB_EPARSE, (unsigned)(je.line > 0 ? je.line : 1),
                             (unsigned)(je.column > 0 ? je.column : 1), "%.200s", je.text);
    sb_code rc = SB_OK;
    if (!json_is_object(root)) {
        rc = sb_err_set(err, SB_EFORMAT, "package.json is not a JSON object");
        goto out;
    }
    m->name = jstr(a, root, "name");
    m->version = jstr(a, root, "version");
    m->homepage = jstr(a, root, "homepage");
    json_t *lic = json_object_get(root, "license");
    m->license = json_is_string(lic) ? sb_arena_strdup(a, json_string_value(lic)) : jstr(a, lic, "type");
    json_t *repo = json_object_get(root, "repository");
    m->repository = json_is_string(repo) ? sb_arena_strdup(a, json_string_value(repo)) : jstr(a, repo, "url");
    json_t *au = json_object_get(root, "author");
    if (json_is_string(au)) {
        /* "Name <email> (url)": the url is not part of the rule */
        char *s = sb_arena_strdup(a, json_string_value(au));
        char *paren = s ? strrchr(s, '(') : NULL;
        if (paren && strchr(paren, ')') && paren > s)
            *paren = 0;
        rc = add_author_str(m, a, s);
    } else if (json_is_object(au)) {
        rc = add_author(m, a, jstr(a, au, "name"), jstr(a, au, "email"));
    }
    static const struct {
        const char *key, *feature;
        sb_scope scope;
    } tables[] = {
        {"dependencies", "default", SB_SCOPE_REQUIRED},
        {"devDependencies", "devDependencies", SB_SCOPE_DEVELOPMENT},
        {"optionalDependencies", "optionalDependencies", SB_SCOPE_OPTIONAL},
        {"peerDependencies", "peerDependencies", SB_SCOPE_OPTIONAL},
    };
    for (size_t t = 0; rc == SB_OK && t < sizeof tables / sizeof tables[0]; t++) {
        json_t *o = json_object_get(root, tables[t].key);
        const char *k;
        json_t *v;
        json_object_foreach(o, k, v) {
            if (rc == SB_OK)
                rc = add_dep(m, a, k, tables[t].feature, tables[t].scope, SB_MDEP_NPM);
        }
    }
    if (rc == SB_ENOMEM)
        sb_err_set(err, SB_ENOMEM, "out of memory");
out:
    json_decref(root);
    return rc;
}

sb_code sb_manifest_read(sb_manifest **out, sb_arena *a, const char *filename, const char *data, size_t len,
                         const sb_limits *lim, sb_err *err)
{
    const char *kind = sb_manifest_kind(filename);
    if (NULL == kind)
        return sb_err_set(err, SB_EFORMAT,
                          "the file name '%.64s' names no manifest kind sbomd reads "
                          "(pixi.toml, pyproject.toml, environment.yml, package.json)",
                          filename ? filename : "");
    sb_manifest *m = sb_arena_calloc(a, 1, sizeof *m);
    if (NULL == m)
        return sb_err_set(err, SB_ENOMEM, "out of memory");
    m->kind = kind;
    sb_sha1 h;
    sb_sha1_init(&h);
    sb_sha1_update(&h, data, len);
    sb_sha1_final(&h, m->sha1);
    sb_code rc;
    if (!strcmp(kind, "package.json"))
        rc = read_package_json(m, a, data, len, err);
    else if (!strcmp(kind, "environment.yml"))
        rc = read_env_yml(m, a, data, len, lim, err);
    else
        rc = read_toml(m, a, data, len, lim, err);
    if (rc != SB_OK)
        return rc;
    *out = m;
    return SB_OK;
}
