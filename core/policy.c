/*
 * policy.c - license policy: reading allow/deny entries, evaluating SPDX
 * expressions against them, and marking a selected model (see policy.h).
 *
 * DESIGN: an expression is evaluated while it is parsed (recursive descent
 * with a depth cap, since a license string is input); every leaf is read
 * into the same sb_policy_term shape as the policy's entries, so matching
 * is a comparison of families, versions and exceptions, never of spellings.
 */
#include "policy.h"
#include "spdx_ids.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define MAX_DEPTH 64

/* ---- ids ---------------------------------------------------------------- */

static int ci_cmp(const void *k, const void *e)
{
    return strcasecmp(k, ((const sb_spdx_id *)e)->id);
}

static const sb_spdx_id *find_id(const char *s, const sb_spdx_id *tab, unsigned long n)
{
    return bsearch(s, tab, n, sizeof *tab, ci_cmp);
}

static bool is_ref(const char *s)
{
    return !strncasecmp(s, "LicenseRef-", 11) || !strncasecmp(s, "DocumentRef-", 12);
}

static bool ref_chars(const char *s)
{
    if (!*s)
        return false;
    for (; *s; s++)
        if (!isalnum((unsigned char)*s) && *s != '-' && *s != '.' && *s != ':')
            return false;
    return true;
}

/* A license id sbomd knows: listed (current or deprecated), listed + `+`,
 * or a reference. */
static bool known_license(const char *s)
{
    if (is_ref(s))
        return ref_chars(s) && strchr(s, '-')[1] != '\0';
    if (find_id(s, sb_spdx_licenses, sb_spdx_nlicenses))
        return true;
    size_t n = strlen(s);
    if (n > 1 && n < 128 && s[n - 1] == '+') {
        char base[128];
        memcpy(base, s, n - 1);
        base[n - 1] = '\0';
        return find_id(base, sb_spdx_licenses, sb_spdx_nlicenses) != NULL;
    }
    return false;
}

static bool known_exception(const char *s)
{
    if (!strncasecmp(s, "AdditionRef-", 12) || !strncasecmp(s, "DocumentRef-", 12))
        return ref_chars(s);
    return find_id(s, sb_spdx_exceptions, sb_spdx_nexceptions) != NULL;
}

/* Deprecated ids that are really an id plus an exception, or renamed. */
static const struct {
    const char *old, *id, *exc;
} renamed[] = {
    {"GPL-2.0-with-autoconf-exception", "GPL-2.0-only", "Autoconf-exception-2.0"},
    {"GPL-2.0-with-bison-exception", "GPL-2.0-only", "Bison-exception-2.2"},
    {"GPL-2.0-with-classpath-exception", "GPL-2.0-only", "Classpath-exception-2.0"},
    {"GPL-2.0-with-font-exception", "GPL-2.0-only", "Font-exception-2.0"},
    {"GPL-2.0-with-GCC-exception", "GPL-2.0-only", "GCC-exception-2.0"},
    {"GPL-3.0-with-autoconf-exception", "GPL-3.0-only", "Autoconf-exception-3.0"},
    {"GPL-3.0-with-GCC-exception", "GPL-3.0-only", "GCC-exception-3.1"},
    {"eCos-2.0", "GPL-2.0-or-later", "eCos-exception-2.0"},
    {"wxWindows", "LGPL-2.0-or-later", "WxWindows-exception-3.1"},
    {"StandardML-NJ", "SMLNJ", NULL},
    {"BSD-2-Clause-FreeBSD", "BSD-2-Clause", NULL},
    {"BSD-2-Clause-NetBSD", "BSD-2-Clause", NULL},
    {"Nunit", "zlib-acknowledgement", NULL},
    {"bzip2-1.0.5", "bzip2-1.0.6", NULL},
};

static bool ends_ci(const char *s, size_t n, const char *suffix)
{
    size_t k = strlen(suffix);
    return n >= k && !strncasecmp(s + n - k, suffix, k);
}

/* Read one id (and exception, may be NULL) into a term. */
static void read_term(sb_arena *a, const char *id, const char *exc, sb_policy_term *t, bool *ok)
{
    *t = (sb_policy_term){.text = id, .exc = exc, .version = ""};
    if (is_ref(id)) {
        t->family = id;
        t->ref = true;
        return;
    }
    for (size_t i = 0; i < sizeof renamed / sizeof renamed[0]; i++)
        if (!strcasecmp(id, renamed[i].old)) {
            id = renamed[i].id;
            if (NULL == t->exc)
                t->exc = renamed[i].exc;
            break;
        }
    size_t n = strlen(id);
    if (n && id[n - 1] == '+') {
        t->or_later = true;
        n--;
    } else if (ends_ci(id, n, "-or-later")) {
        t->or_later = true;
        n -= 9;
    } else if (ends_ci(id, n, "-only")) {
        n -= 5;
    }
    /* family-version: the last '-' followed by a dotted number to the end */
    size_t cut = n;
    for (size_t i = n; i-- > 0;) {
        if (id[i] == '-') {
            bool num = i + 1 < n;
            for (size_t k = i + 1; k < n && num; k++)
                num = isdigit((unsigned char)id[k]) || (id[k] == '.' && k > i + 1);
            if (num)
                cut = i;
            break;
        }
    }
    char *fam = sb_arena_strndup(a, id, cut);
    char *ver = cut < n ? sb_arena_strndup(a, id + cut + 1, n - cut - 1) : "";
    if (NULL == fam || NULL == ver) {
        *ok = false;
        fam = "";
    }
    t->family = fam;
    t->version = ver;
}

/* Dotted versions numerically: "2.0" < "2.1" < "3" (missing parts are 0). */
static int ver_cmp(const char *x, const char *y)
{
    while (*x || *y) {
        long a = 0, b = 0;
        while (isdigit((unsigned char)*x))
            a = a * 10 + (*x++ - '0');
        while (isdigit((unsigned char)*y))
            b = b * 10 + (*y++ - '0');
        if (a != b)
            return a < b ? -1 : 1;
        if (*x == '.')
            x++;
        if (*y == '.')
            y++;
        if ((*x && !isdigit((unsigned char)*x)) || (*y && !isdigit((unsigned char)*y)))
            return strcasecmp(x, y);
    }
    return 0;
}

/* Whether entry e covers concrete version `ver` of leaf l's family (the
 * exception is judged by the caller). */
static bool covers(const sb_policy_term *e, const sb_policy_term *l, const char *ver)
{
    if (e->ref || l->ref)
        return e->ref && l->ref && !strcasecmp(e->family, l->family);
    if (strcasecmp(e->family, l->family))
        return false;
    if (e->or_later)
        return ver_cmp(ver, e->version) >= 0;
    return 0 == ver_cmp(ver, e->version) && (ver[0] != '\0') == (e->version[0] != '\0');
}

/* specificity of entry e for leaf l's exception: 2 names it, 1 names
 * none, 0 does not apply */
static int exc_fit(const sb_policy_term *e, const sb_policy_term *l)
{
    if (NULL == e->exc)
        return 1;
    return l->exc && !strcasecmp(e->exc, l->exc) ? 2 : 0;
}

/* One concrete version of a leaf: the rule it meets, and the entry. */
static sb_policy_rule judge(const sb_policy *p, const sb_policy_term *l, const char *ver, const sb_policy_term **hit)
{
    int deny = 0, allow = 0;
    const sb_policy_term *dh = NULL;
    for (size_t i = 0; i < p->ndeny; i++) {
        int f = covers(&p->deny[i], l, ver) ? exc_fit(&p->deny[i], l) : 0;
        if (f > deny) {
            deny = f;
            dh = &p->deny[i];
        }
    }
    for (size_t i = 0; i < p->nallow; i++) {
        int f = covers(&p->allow[i], l, ver) ? exc_fit(&p->allow[i], l) : 0;
        if (f > allow)
            allow = f;
    }
    if (deny && deny >= allow) {
        *hit = dh;
        return SB_POL_DENIED;
    }
    if (p->nallow && !allow)
        return SB_POL_NOT_ALLOWED;
    return SB_POL_PASS;
}

/* ---- evaluation --------------------------------------------------------- */

typedef struct result {
    sb_policy_rule rule;
    const char *reason;
} result;

typedef struct lexer {
    const char *s;
    char tok[256];
    bool bad;
    int depth;
    sb_arena *a;
    const sb_policy *p;
} lexer;

static void next(lexer *lx)
{
    while (*lx->s == ' ' || *lx->s == '\t')
        lx->s++;
    size_t n = 0;
    if (*lx->s == '(' || *lx->s == ')') {
        lx->tok[n++] = *lx->s++;
    } else {
        while (*lx->s && *lx->s != ' ' && *lx->s != '\t' && *lx->s != '(' && *lx->s != ')') {
            if (n + 1 < sizeof lx->tok)
                lx->tok[n++] = *lx->s;
            else
                lx->bad = true;
            lx->s++;
        }
    }
    lx->tok[n] = '\0';
}

static bool is_op(const char *t, const char *op)
{
    return !strcasecmp(t, op);
}

static result fail(lexer *lx, sb_policy_rule rule, const char *why)
{
    return (result){rule, why ? why : "license policy violated"};
}

static result leaf(lexer *lx, const char *id, const char *exc)
{
    sb_policy_term l;
    bool ok = true;
    read_term(lx->a, id, exc, &l, &ok);
    if (!ok)
        return fail(lx, SB_POL_NOT_ALLOWED, NULL);
    const char *shown = exc ? sb_arena_printf(lx->a, "%s WITH %s", id, exc) : id;
    const sb_policy_term *hit = NULL;
    sb_policy_rule r = judge(lx->p, &l, l.version, &hit);
    if (r != SB_POL_PASS && l.or_later && !l.ref) {
        /* a later version the allow list names may be chosen instead */
        for (size_t i = 0; i < lx->p->nallow; i++) {
            const sb_policy_term *e = &lx->p->allow[i];
            const sb_policy_term *h2 = NULL;
            if (!e->ref && !strcasecmp(e->family, l.family) && ver_cmp(e->version, l.version) > 0 &&
                judge(lx->p, &l, e->version, &h2) == SB_POL_PASS)
                return (result){SB_POL_PASS, NULL};
        }
    }
    if (r == SB_POL_DENIED)
        return fail(lx, r, sb_arena_printf(lx->a, "%s is denied (deny-license %s)", shown ? shown : id, hit->text));
    if (r == SB_POL_NOT_ALLOWED)
        return fail(lx, r, sb_arena_printf(lx->a, "%s is not in allow-license", shown ? shown : id));
    return (result){SB_POL_PASS, NULL};
}

static result parse_or(lexer *lx);

static result parse_primary(lexer *lx)
{
    if (!strcmp(lx->tok, "(")) {
        if (++lx->depth > MAX_DEPTH) {
            lx->bad = true;
            return fail(lx, SB_POL_NOT_ALLOWED, NULL);
        }
        next(lx);
        result r = parse_or(lx);
        lx->depth--;
        if (strcmp(lx->tok, ")"))
            lx->bad = true;
        next(lx);
        return r;
    }
    if (!lx->tok[0] || !strcmp(lx->tok, ")") || is_op(lx->tok, "AND") || is_op(lx->tok, "OR") ||
        is_op(lx->tok, "WITH")) {
        lx->bad = true;
        return fail(lx, SB_POL_NOT_ALLOWED, NULL);
    }
    char *id = sb_arena_strdup(lx->a, lx->tok);
    next(lx);
    char *exc = NULL;
    if (is_op(lx->tok, "WITH")) {
        next(lx);
        exc = sb_arena_strdup(lx->a, lx->tok);
        if (!lx->tok[0] || !strcmp(lx->tok, "(") || !strcmp(lx->tok, ")"))
            lx->bad = true;
        next(lx);
    }
    if (NULL == id)
        return fail(lx, SB_POL_NOT_ALLOWED, NULL);
    return leaf(lx, id, exc);
}

/* A failing branch's rule: denied dominates. */
static sb_policy_rule worse(sb_policy_rule x, sb_policy_rule y)
{
    return x == SB_POL_DENIED || y == SB_POL_DENIED ? SB_POL_DENIED : x ? x : y;
}

static result parse_and(lexer *lx)
{
    result r = parse_primary(lx);
    while (is_op(lx->tok, "AND")) {
        next(lx);
        result b = parse_primary(lx);
        if (r.rule == SB_POL_PASS)
            r = b; /* AND: the first failure stands */
    }
    return r;
}

static result parse_or(lexer *lx)
{
    result r = parse_and(lx);
    while (is_op(lx->tok, "OR")) {
        next(lx);
        result b = parse_and(lx);
        if (r.rule == SB_POL_PASS || b.rule == SB_POL_PASS) {
            r = (result){SB_POL_PASS, NULL};
            continue;
        }
        const char *both = sb_arena_printf(lx->a, "%s; %s", r.reason, b.reason);
        r = (result){worse(r.rule, b.rule), both ? both : r.reason};
    }
    return r;
}

sb_policy_rule sb_policy_eval(const sb_policy *p, sb_arena *a, const sb_lic *lic, const char **reason)
{
    *reason = NULL;
    if (lic->kind == SB_LIC_NONE) {
        if (!p->require)
            return SB_POL_PASS;
        *reason = "no license stated (require-license)";
        return SB_POL_NO_LICENSE;
    }
    if (lic->kind == SB_LIC_TEXT) {
        if (!p->require)
            return SB_POL_PASS;
        *reason = sb_arena_printf(a, "not an SPDX expression: %s (require-license)",
                                  lic->reason ? lic->reason : "free text");
        if (NULL == *reason)
            *reason = "not an SPDX expression (require-license)";
        return SB_POL_NOT_SPDX;
    }
    if (0 == p->nallow && 0 == p->ndeny)
        return SB_POL_PASS;
    lexer lx = {.s = lic->value ? lic->value : "", .a = a, .p = p};
    next(&lx);
    result r = parse_or(&lx);
    if (lx.tok[0] || lx.bad) { /* sb_lic said EXPR: only a hostile or huge string gets here */
        *reason = "the license expression could not be evaluated";
        return SB_POL_NOT_ALLOWED;
    }
    *reason = r.reason;
    return r.rule;
}

/* ---- building a policy -------------------------------------------------- */

static char *trimmed(sb_arena *a, const char *b, const char *e)
{
    while (b < e && (*b == ' ' || *b == '\t'))
        b++;
    while (e > b && (e[-1] == ' ' || e[-1] == '\t'))
        e--;
    return sb_arena_strndup(a, b, (size_t)(e - b));
}

static sb_code add_term(sb_arena *a, sb_policy_term **v, size_t *n, size_t *cap, const sb_policy_term *t)
{
    if (*n == *cap) {
        sb_policy_term *g = sb_arena_grow(a, *v, cap, *n, sizeof **v, 4);
        if (NULL == g)
            return SB_ENOMEM;
        *v = g;
    }
    (*v)[(*n)++] = *t;
    return SB_OK;
}

/* One allow/deny value: `ID` or `ID WITH EXCEPTION`. */
static sb_code one_id(sb_policy *p, sb_arena *a, bool deny, char *val, sb_err *err)
{
    const char *what = deny ? "deny-license" : "allow-license";
    char *id = val, *exc = NULL;
    char *sp = strchr(val, ' ');
    if (sp) {
        *sp = '\0';
        char *w = sp + 1;
        while (*w == ' ')
            w++;
        if (strncasecmp(w, "WITH ", 5)) {
            *sp = ' ';
            return sb_err_set(err, SB_EINVAL, "%s: '%.80s' is not one SPDX license id (give one id per value)", what,
                              val);
        }
        exc = w + 5;
        while (*exc == ' ')
            exc++;
        if (!known_exception(exc))
            return sb_err_set(err, SB_EINVAL, "%s: '%.80s' is not an SPDX license exception id", what, exc);
    }
    if (!known_license(id))
        return sb_err_set(err, SB_EINVAL, "%s: '%.80s' is not an SPDX license id", what, id);
    sb_policy_term t;
    bool ok = true;
    read_term(a, id, exc, &t, &ok);
    if (!ok)
        return sb_err_set(err, SB_ENOMEM, "out of memory");
    t.text = exc ? sb_arena_printf(a, "%s WITH %s", id, exc) : id;
    if (NULL == t.text)
        return sb_err_set(err, SB_ENOMEM, "out of memory");
    sb_code rc = deny ? add_term(a, &p->deny, &p->ndeny, &p->capdeny, &t)
                      : add_term(a, &p->allow, &p->nallow, &p->capallow, &t);
    return rc == SB_OK ? SB_OK : sb_err_set(err, rc, "out of memory");
}

sb_code sb_policy_add_ids(sb_policy *p, sb_arena *a, bool deny, const char *list, sb_err *err)
{
    const char *s = list ? list : "";
    for (;;) {
        const char *e = strchr(s, ',');
        if (NULL == e)
            e = s + strlen(s);
        char *v = trimmed(a, s, e);
        if (NULL == v)
            return sb_err_set(err, SB_ENOMEM, "out of memory");
        if (!v[0])
            return sb_err_set(err, SB_EINVAL, "%s: an empty license id", deny ? "deny-license" : "allow-license");
        sb_code rc = one_id(p, a, deny, v, err);
        if (rc != SB_OK)
            return rc;
        if (!*e)
            return SB_OK;
        s = e + 1;
    }
}

static sb_code add_ignore(sb_policy *p, sb_arena *a, const char *pkg, const char *why)
{
    if (p->nignore == p->capignore) {
        size_t cap = p->capignore;
        const char **g1 = sb_arena_grow(a, p->ignore_pkg, &cap, p->nignore, sizeof *g1, 4);
        size_t cap2 = p->capignore;
        const char **g2 = sb_arena_grow(a, p->ignore_why, &cap2, p->nignore, sizeof *g2, 4);
        if (NULL == g1 || NULL == g2)
            return SB_ENOMEM;
        p->ignore_pkg = g1;
        p->ignore_why = g2;
        p->capignore = cap < cap2 ? cap : cap2;
    }
    p->ignore_pkg[p->nignore] = pkg;
    p->ignore_why[p->nignore++] = why;
    return SB_OK;
}

static sb_code ignores(sb_policy *p, sb_arena *a, const char *list, bool split, sb_err *err)
{
    const char *s = list ? list : "";
    for (;;) {
        const char *e = split ? strchr(s, ',') : NULL;
        if (NULL == e)
            e = s + strlen(s);
        const char *colon = memchr(s, ':', (size_t)(e - s));
        char *pkg = trimmed(a, s, colon ? colon : e);
        char *why = colon ? trimmed(a, colon + 1, e) : "";
        if (NULL == pkg || NULL == why)
            return sb_err_set(err, SB_ENOMEM, "out of memory");
        if (!pkg[0])
            return sb_err_set(err, SB_EINVAL, "ignore-license: a value needs a package name (PKG or PKG:WHY)");
        if (add_ignore(p, a, pkg, why) != SB_OK)
            return sb_err_set(err, SB_ENOMEM, "out of memory");
        if (!*e)
            return SB_OK;
        s = e + 1;
    }
}

sb_code sb_policy_merge(sb_policy *to, sb_arena *a, const sb_policy *from)
{
    for (size_t i = 0; i < from->nallow; i++)
        if (add_term(a, &to->allow, &to->nallow, &to->capallow, &from->allow[i]) != SB_OK)
            return SB_ENOMEM;
    for (size_t i = 0; i < from->ndeny; i++)
        if (add_term(a, &to->deny, &to->ndeny, &to->capdeny, &from->deny[i]) != SB_OK)
            return SB_ENOMEM;
    for (size_t i = 0; i < from->nignore; i++)
        if (add_ignore(to, a, from->ignore_pkg[i], from->ignore_why[i]) != SB_OK)
            return SB_ENOMEM;
    to->require |= from->require;
    if (from->name)
        to->name = from->name;
    return SB_OK;
}

bool sb_policy_active(const sb_policy *p)
{
    return p && (p->nallow || p->ndeny || p->require || p->nignore || p->name);
}

sb_code sb_policy_add_ignores(sb_policy *p, sb_arena *a, const char *list, sb_err *err)
{
    return ignores(p, a, list, true, err);
}

sb_code sb_policy_add_ignore(sb_policy *p, sb_arena *a, const char *value, sb_err *err)
{
    return ignores(p, a, value, false, err);
}

const char *sb_policy_rule_name(sb_policy_rule r)
{
    static const char *const names[SB_POL_NRULES] = {"", "deny-license", "allow-license", "require-license",
                                                     "require-license"};
    return r < SB_POL_NRULES ? names[r] : "";
}

const char *sb_policy_exempt(const sb_policy *p, const char *pkg)
{
    for (size_t i = 0; pkg && i < p->nignore; i++)
        if (!strcasecmp(p->ignore_pkg[i], pkg))
            return p->ignore_why[i][0] ? p->ignore_why[i] : "true";
    return NULL;
}

/* ---- marking a model ---------------------------------------------------- */

/* Insert a property keeping the package's list sorted by name. */
static sb_code add_prop(sb_pkg *pk, sb_arena *a, const char *name, const char *value)
{
    sb_prop *v = sb_arena_alloc(a, (pk->nprops + 1) * sizeof *v);
    if (NULL == v)
        return SB_ENOMEM;
    size_t k = 0;
    while (k < pk->nprops && strcmp(pk->props[k].name, name) <= 0)
        k++;
    if (k)
        memcpy(v, pk->props, k * sizeof *v);
    v[k] = (sb_prop){name, value};
    if (pk->nprops > k)
        memcpy(v + k + 1, pk->props + k, (pk->nprops - k) * sizeof *v);
    pk->props = v;
    pk->nprops++;
    return SB_OK;
}

sb_code sb_policy_apply(const sb_policy *p, sb_sbom *s, sb_arena *a, sb_gate *g)
{
    sb_policy_verdict *v = sb_arena_calloc(a, s->npkgs ? s->npkgs : 1, sizeof *v);
    const char *key = sb_policy_key(p, a);
    if (NULL == v || NULL == key)
        return SB_ENOMEM;
    for (size_t i = 0; i < s->npkgs; i++) {
        sb_pkg *pk = &s->pkgs[i];
        sb_lic lic = sb_pkg_lic(pk, a);
        v[i].rule = sb_policy_eval(p, a, &lic, &v[i].reason);
        v[i].exempt = sb_policy_exempt(p, pk->name);
        /* not known is not "no license": say why and how to know it */
        const char *why = v[i].rule == SB_POL_NO_LICENSE ? sb_pkg_license_unknown(pk) : NULL;
        if (why) {
            const char *r = sb_arena_printf(a, "license not known: %s (require-license)", why);
            v[i].reason = r ? r : v[i].reason;
        }
        sb_code rc = SB_OK;
        if (v[i].exempt)
            rc = add_prop(pk, a, "pixi:license-exempt", v[i].exempt);
        else if (v[i].rule != SB_POL_PASS)
            rc = add_prop(pk, a, "pixi:license-violation", v[i].reason);
        if (rc == SB_OK && g && !v[i].exempt && v[i].rule != SB_POL_PASS) {
            sb_finding f = {.package = pk->name,
                            .version = pk->version,
                            .rule = sb_policy_rule_name(v[i].rule),
                            .value = why ? "unknown" : lic.value,
                            .reason = v[i].reason};
            rc = sb_gate_add(g, a, &f);
        }
        if (rc != SB_OK)
            return rc;
    }
    s->policy = v;
    s->policy_key = key;
    return SB_OK;
}

/* One "<sep><tag>=<a>[:<b>]" piece of the key at out (NULL: only measured);
 * its length. */
static size_t key_piece(char *out, const char *tag, const char *x, const char *y)
{
    size_t nt = strlen(tag), nx = strlen(x), ny = y ? strlen(y) : 0;
    if (out) {
        memcpy(out, tag, nt);
        memcpy(out + nt, x, nx);
        if (y) {
            out[nt + nx] = ':';
            memcpy(out + nt + nx + 1, y, ny);
        }
    }
    return nt + nx + (y ? 1 + ny : 0);
}

/* Measured, then written once: appending each term to a copy of the key so
 * far made it quadratic (7,000 allow terms in a query took 245 MiB). */
const char *sb_policy_key(const sb_policy *p, sb_arena *a)
{
    char *k = NULL;
    size_t n = 0;
    for (int pass = 0; pass < 2; pass++) {
        size_t at = key_piece(k, p->require ? "require=1" : "require=0", "", NULL);
        for (size_t i = 0; i < p->nallow; i++)
            at += key_piece(k ? k + at : NULL, ";allow=", p->allow[i].text, NULL);
        for (size_t i = 0; i < p->ndeny; i++)
            at += key_piece(k ? k + at : NULL, ";deny=", p->deny[i].text, NULL);
        for (size_t i = 0; i < p->nignore; i++)
            at += key_piece(k ? k + at : NULL, ";ignore=", p->ignore_pkg[i], p->ignore_why[i]);
        if (k) {
            k[at] = '\0';
            break;
        }
        n = at;
        k = sb_arena_stralloc(a, n + 1);
        if (NULL == k)
            return NULL;
    }
    return k;
}
