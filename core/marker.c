/*
 * marker.c - PEP 508 markers and the Python platform model shared by the
 * uv.lock, pylock.toml, poetry.lock, pdm.lock and requirements.txt readers.
 *
 * Versions compare by their release numbers (PEP 440 without pre/post/dev
 * ordering, which markers over Python versions never need); `==X.*` is a
 * prefix match.
 */
#include "marker.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const sb_marker_platforms[] = {"linux-64",  "linux-aarch64", "linux-ppc64le", "osx-64",
                                           "osx-arm64", "win-64",        "win-arm64",     NULL};

static const struct {
    const char *platform, *sys_platform, *system, *os_name, *machine;
} plat_table[] = {
    {"linux-64", "linux", "Linux", "posix", "x86_64"},       {"linux-aarch64", "linux", "Linux", "posix", "aarch64"},
    {"linux-ppc64le", "linux", "Linux", "posix", "ppc64le"}, {"osx-64", "darwin", "Darwin", "posix", "x86_64"},
    {"osx-arm64", "darwin", "Darwin", "posix", "arm64"},     {"win-64", "win32", "Windows", "nt", "AMD64"},
    {"win-arm64", "win32", "Windows", "nt", "ARM64"},
};

sb_code sb_marker_env_init(sb_marker_env *env, const char *platform, const char *python)
{
    memset(env, 0, sizeof *env);
    for (size_t i = 0; i < sizeof plat_table / sizeof plat_table[0]; i++) {
        if (strcmp(plat_table[i].platform, platform))
            continue;
        env->platform = plat_table[i].platform;
        env->sys_platform = plat_table[i].sys_platform;
        env->platform_system = plat_table[i].system;
        env->os_name = plat_table[i].os_name;
        env->platform_machine = plat_table[i].machine;
        snprintf(env->python_version, sizeof env->python_version, "%s", python ? python : "3.14");
        snprintf(env->python_full_version, sizeof env->python_full_version, "%s.0", env->python_version);
        return SB_OK;
    }
    return SB_ENOTFOUND;
}

/* ---- versions ---- */

#define MAXSEG 8

typedef struct ver {
    long seg[MAXSEG];
    int n;
    int wildcard; /* ended in .* */
} ver;

static int parse_ver(const char *s, ver *v)
{
    memset(v, 0, sizeof *v);
    while (*s == ' ')
        s++;
    if (*s == 'v' || *s == 'V')
        s++;
    while (isdigit((unsigned char)*s)) {
        char *e;
        long x = strtol(s, &e, 10);
        if (v->n < MAXSEG)
            v->seg[v->n++] = x;
        s = e;
        if (*s == '.' && isdigit((unsigned char)s[1])) {
            s++;
        } else if (*s == '.' && s[1] == '*') {
            v->wildcard = 1;
            s += 2;
            break;
        } else {
            break;
        }
    }
    return v->n > 0;
}

static int cmp_ver(const ver *a, const ver *b, int upto)
{
    int n = upto ? upto : (a->n > b->n ? a->n : b->n);
    for (int i = 0; i < n; i++) {
        long x = i < a->n ? a->seg[i] : 0, y = i < b->n ? b->seg[i] : 0;
        if (x != y)
            return x < y ? -1 : 1;
    }
    return 0;
}

/* `h` OP `w` for version operators; -1 when op is not a version op. */
static int ver_op_v(const ver *h, const char *op, const ver *w)
{
    int c = cmp_ver(h, w, w->wildcard ? w->n : 0);
    if (!strcmp(op, "==") || !strcmp(op, "==="))
        return c == 0;
    if (!strcmp(op, "!="))
        return c != 0;
    if (!strcmp(op, "<"))
        return c < 0;
    if (!strcmp(op, "<="))
        return c <= 0;
    if (!strcmp(op, ">"))
        return c > 0;
    if (!strcmp(op, ">="))
        return c >= 0;
    if (!strcmp(op, "~=")) {
        if (w->n < 2)
            return -1;
        return cmp_ver(h, w, 0) >= 0 && cmp_ver(h, w, w->n - 1) == 0;
    }
    return -1;
}

/* `have` OP `want` for version operators; -1 when op is not a version op. */
static int ver_op(const char *have, const char *op, const char *want)
{
    ver h, w;
    if (!parse_ver(have, &h) || !parse_ver(want, &w))
        return -1;
    return ver_op_v(&h, op, &w);
}

/* ---- version specifier lists (requires-python) ---- */

/* The next clause of a specifier list: its operator (up to 3 of "<>=!~",
 * "" when none) and its version, read at the release level (pre, post and
 * local parts are passed over); *p moves past the clause. 0 at the end of
 * the list, -1 for a clause without a version. */
static int next_clause(const char **p, char op[4], ver *v)
{
    const char *s = *p;
    while (*s == ' ' || *s == ',')
        s++;
    if (!*s) {
        *p = s;
        return 0;
    }
    size_t k = 0;
    while (k < 3 && *s && strchr("<>=!~", *s))
        op[k++] = *s++;
    op[k] = '\0';
    int ok = parse_ver(s, v);
    while (*s && *s != ',')
        s++;
    *p = s;
    return ok ? 1 : -1;
}

int sb_marker_spec_match(const char *spec, const char *version)
{
    ver h, w;
    char op[4];
    if (NULL == version || !parse_ver(version, &h))
        return -1;
    int sat = 1;
    for (const char *p = spec ? spec : "";;) {
        int k = next_clause(&p, op, &w);
        if (0 == k)
            break;
        int ok = k < 0 ? -1 : ver_op_v(&h, op, &w);
        if (ok < 0)
            return -1; /* one clause unread: the whole list is unknown */
        if (!ok)
            sat = 0;
    }
    return sat;
}

void sb_marker_python_ceiling(const char *spec, int *major, int *minor)
{
    *major = *minor = -1;
    ver v;
    char op[4];
    for (const char *p = spec ? spec : "";;) {
        int k = next_clause(&p, op, &v);
        if (0 == k)
            break;
        if (k < 0 || v.n < 2)
            continue;
        int cmaj = -1, cmin = -1;
        if (!strcmp(op, "<")) {
            bool rest_zero = true; /* <3.10 and <3.10.0 stop below 3.10; <3.10.2 lets 3.10 in */
            for (int i = 2; i < v.n; i++)
                rest_zero = rest_zero && v.seg[i] == 0;
            if (!rest_zero) {
                cmaj = (int)v.seg[0];
                cmin = (int)v.seg[1];
            } else if (v.seg[1] > 0) { /* <4.0 says nothing of 3.x's last minor */
                cmaj = (int)v.seg[0];
                cmin = (int)v.seg[1] - 1;
            }
        } else if (!strcmp(op, "<=") || !strcmp(op, "==") || !strcmp(op, "===") || (!strcmp(op, "~=") && v.n >= 3)) {
            cmaj = (int)v.seg[0];
            cmin = (int)v.seg[1];
        }
        if (cmaj >= 0 && (*major < 0 || cmaj < *major || (cmaj == *major && cmin < *minor))) {
            *major = cmaj;
            *minor = cmin;
        }
    }
}

int sb_marker_major_minor(const char *version, long *major, long *minor)
{
    ver v;
    if (NULL == version || !parse_ver(version, &v) || v.n < 2)
        return -1;
    *major = v.seg[0];
    *minor = v.seg[1];
    return 0;
}

/* ---- marker evaluation ---- */

typedef struct mp {
    const char *s, *p;
    const sb_marker_env *env;
    sb_err *err;
    int bad;
    unsigned depth;
} mp;

static void ws(mp *m)
{
    while (*m->p == ' ' || *m->p == '\t')
        m->p++;
}

static int fail(mp *m, const char *why)
{
    if (!m->bad)
        sb_err_set(m->err, SB_EPARSE, "invalid marker '%.120s': %s at offset %d", m->s, why, (int)(m->p - m->s));
    m->bad = 1;
    return 0;
}

static int word(mp *m, const char *w)
{
    size_t n = strlen(w);
    if (strncmp(m->p, w, n) || isalnum((unsigned char)m->p[n]) || m->p[n] == '_')
        return 0;
    m->p += n;
    return 1;
}

typedef struct operand {
    char text[256];
    int is_var;
    const char *var; /* canonical variable name */
} operand;

static const char *var_value(const mp *m, const char *name)
{
    const sb_marker_env *e = m->env;
    if (!strcmp(name, "os_name") || !strcmp(name, "os.name"))
        return e->os_name;
    if (!strcmp(name, "sys_platform") || !strcmp(name, "sys.platform"))
        return e->sys_platform;
    if (!strcmp(name, "platform_machine") || !strcmp(name, "platform.machine"))
        return e->platform_machine;
    if (!strcmp(name, "platform_system"))
        return e->platform_system;
    if (!strcmp(name, "platform_python_implementation") || !strcmp(name, "platform.python_implementation"))
        return "CPython";
    if (!strcmp(name, "implementation_name"))
        return "cpython";
    if (!strcmp(name, "python_version"))
        return e->python_version;
    if (!strcmp(name, "python_full_version") || !strcmp(name, "implementation_version"))
        return e->python_full_version;
    if (!strcmp(name, "platform_release") || !strcmp(name, "platform_version"))
        return "";
    return NULL;
}

static int operand_parse(mp *m, operand *o)
{
    ws(m);
    memset(o, 0, sizeof *o);
    char q = *m->p;
    if (q == '"' || q == '\'') {
        const char *e = strchr(m->p + 1, q);
        if (NULL == e)
            return fail(m, "unterminated string");
        snprintf(o->text, sizeof o->text, "%.*s", (int)(e - m->p - 1), m->p + 1);
        m->p = e + 1;
        return 1;
    }
    const char *st = m->p;
    while (isalnum((unsigned char)*m->p) || *m->p == '_' || *m->p == '.')
        m->p++;
    if (m->p == st)
        return fail(m, "expected a variable or a string");
    snprintf(o->text, sizeof o->text, "%.*s", (int)(m->p - st), st);
    o->is_var = 1;
    o->var = o->text;
    if (strcmp(o->text, "extra") && strcmp(o->text, "extras") && strcmp(o->text, "dependency_groups") &&
        NULL == var_value(m, o->text))
        return fail(m, "unknown marker variable");
    return 1;
}

static void pep503(char *s)
{
    char *o = s;
    for (char *c = s; *c; c++) {
        if (*c == '-' || *c == '_' || *c == '.') {
            if (o == s || o[-1] != '-')
                *o++ = '-';
        } else {
            *o++ = (char)tolower((unsigned char)*c);
        }
    }
    *o = '\0';
}

static int extra_active(const mp *m, const char *name)
{
    if (m->env->all_extras)
        return 1;
    char n[256];
    snprintf(n, sizeof n, "%s", name);
    pep503(n);
    for (size_t i = 0; i < m->env->nextras; i++)
        if (!strcmp(m->env->extras[i], n))
            return 1;
    return 0;
}

static int compare(mp *m)
{
    operand l, r;
    if (!operand_parse(m, &l))
        return 0;
    ws(m);
    char op[4] = "";
    static const char *const ops[] = {"===", "==", "!=", "<=", ">=", "~=", "<", ">", NULL};
    for (int i = 0; ops[i]; i++)
        if (!strncmp(m->p, ops[i], strlen(ops[i]))) {
            snprintf(op, sizeof op, "%s", ops[i]);
            m->p += strlen(ops[i]);
            break;
        }
    int negate = 0;
    if (!op[0]) {
        if (word(m, "in")) {
            snprintf(op, sizeof op, "in");
        } else if (word(m, "not")) {
            ws(m);
            if (!word(m, "in"))
                return fail(m, "expected 'in' after 'not'");
            snprintf(op, sizeof op, "in");
            negate = 1;
        } else {
            return fail(m, "expected a comparison operator");
        }
    }
    if (!operand_parse(m, &r))
        return 0;
    /* extras and groups: membership, not string comparison */
    const operand *ev = l.is_var && !strcmp(l.var, "extra") ? &l : r.is_var && !strcmp(r.var, "extra") ? &r : NULL;
    if (ev) {
        const operand *lit = ev == &l ? &r : &l;
        int active = extra_active(m, lit->text);
        if (!strcmp(op, "=="))
            return active;
        if (!strcmp(op, "!="))
            return !active;
        return 0;
    }
    if (r.is_var && (!strcmp(r.var, "extras") || !strcmp(r.var, "dependency_groups"))) {
        int in = extra_active(m, l.text) || !strcmp(r.var, "dependency_groups");
        return negate ? !in : in;
    }
    const char *lv = l.is_var ? var_value(m, l.var) : l.text;
    const char *rv = r.is_var ? var_value(m, r.var) : r.text;
    if (NULL == lv || NULL == rv)
        return fail(m, "cannot compare these operands");
    if (!strcmp(op, "in")) {
        int in = NULL != strstr(rv, lv);
        return negate ? !in : in;
    }
    int versions = (l.is_var && strstr(l.var, "version")) || (r.is_var && strstr(r.var, "version"));
    if (versions) {
        int res = ver_op(lv, op, rv);
        if (res >= 0)
            return res;
    }
    int c = strcmp(lv, rv);
    if (!strcmp(op, "==") || !strcmp(op, "==="))
        return c == 0;
    if (!strcmp(op, "!="))
        return c != 0;
    if (!strcmp(op, "<"))
        return c < 0;
    if (!strcmp(op, "<="))
        return c <= 0;
    if (!strcmp(op, ">"))
        return c > 0;
    if (!strcmp(op, ">="))
        return c >= 0;
    return 0; /* ~= on non-versions: never true */
}

static int expr_or(mp *m);

static int atom(mp *m)
{
    ws(m);
    if (*m->p == '(') {
        if (++m->depth > 64)
            return fail(m, "parentheses nested too deeply");
        m->p++;
        int v = expr_or(m);
        ws(m);
        if (*m->p != ')')
            return fail(m, "expected ')'");
        m->p++;
        m->depth--;
        return v;
    }
    return compare(m);
}

static int expr_and(mp *m)
{
    int v = atom(m);
    for (;;) {
        ws(m);
        if (m->bad || !word(m, "and"))
            return v;
        int r = atom(m);
        v = v && r;
    }
}

static int expr_or(mp *m)
{
    int v = expr_and(m);
    for (;;) {
        ws(m);
        if (m->bad || !word(m, "or"))
            return v;
        int r = expr_and(m);
        v = v || r;
    }
}

int sb_marker_eval(const char *marker, const sb_marker_env *env, sb_err *err)
{
    if (NULL == marker)
        return 1;
    mp m = {marker, marker, env, err, 0, 0};
    ws(&m);
    if (!*m.p)
        return 1;
    int v = expr_or(&m);
    ws(&m);
    if (!m.bad && *m.p)
        fail(&m, "unexpected text");
    return m.bad ? -1 : v;
}

void sb_marker_python_floor(const char *rp, const char *fallback, char out[16])
{
    snprintf(out, 16, "%s", fallback ? fallback : "3.14");
    if (NULL == rp)
        return;
    for (const char *p = rp; *p;) {
        while (*p == ' ' || *p == ',')
            p++;
        const char *st = p;
        int ok = !strncmp(p, ">=", 2) || !strncmp(p, "~=", 2) || !strncmp(p, "==", 2);
        /* Poetry's ^X.Y and ~X.Y, and a bare >X.Y, start at X.Y too */
        int one = !ok && (*p == '^' || *p == '~' || (*p == '>' && p[1] != '='));
        if (ok || one) {
            p += ok ? 2 : 1;
            while (*p == ' ')
                p++;
            ver v;
            if (parse_ver(p, &v) && v.n >= 1) {
                snprintf(out, 16, "%ld.%ld", v.seg[0], v.n > 1 ? v.seg[1] : 0L);
                return;
            }
        }
        p = st;
        while (*p && *p != ',')
            p++;
    }
}

/* ---- wheels ---- */

static const char *basename_of(const char *s)
{
    const char *q = strpbrk(s, "?#");
    size_t n = q ? (size_t)(q - s) : strlen(s);
    const char *b = s;
    for (size_t i = 0; i < n; i++)
        if (s[i] == '/')
            b = s + i + 1;
    return b;
}

/* The platform tag part of a wheel name: after the last two '-' (abi, platform). */
static void wheel_tags(const char *name, char *py, size_t pyc, char *abi, size_t abic, char *plat, size_t platc)
{
    const char *b = basename_of(name);
    size_t n = strcspn(b, "?#");
    if (n > 4 && !strncmp(b + n - 4, ".whl", 4))
        n -= 4;
    /* name-ver(-build)?-py-abi-plat */
    const char *dash[3] = {NULL, NULL, NULL};
    int found = 0;
    for (size_t i = n; i-- > 0 && found < 3;)
        if (b[i] == '-')
            dash[found++] = b + i;
    py[0] = abi[0] = plat[0] = '\0';
    if (found < 3)
        return;
    snprintf(plat, platc, "%.*s", (int)(b + n - dash[0] - 1), dash[0] + 1);
    snprintf(abi, abic, "%.*s", (int)(dash[0] - dash[1] - 1), dash[1] + 1);
    snprintf(py, pyc, "%.*s", (int)(dash[1] - dash[2] - 1), dash[2] + 1);
}

static int ends(const char *s, const char *suf)
{
    size_t a = strlen(s), b = strlen(suf);
    return a >= b && !strcmp(s + a - b, suf);
}

static bool tag_fits(const char *tag, const char *platform)
{
    if (!strcmp(tag, "any"))
        return true;
    if (!strncmp(platform, "linux-", 6)) {
        const char *arch = !strcmp(platform, "linux-64") ? "x86_64" : platform + 6;
        return strstr(tag, "linux") && ends(tag, arch);
    }
    if (!strcmp(platform, "osx-64"))
        return !strncmp(tag, "macosx", 6) && (ends(tag, "x86_64") || ends(tag, "universal2") || ends(tag, "intel"));
    if (!strcmp(platform, "osx-arm64"))
        return !strncmp(tag, "macosx", 6) && (ends(tag, "arm64") || ends(tag, "universal2"));
    if (!strcmp(platform, "win-64"))
        return !strcmp(tag, "win_amd64");
    if (!strcmp(platform, "win-arm64"))
        return !strcmp(tag, "win_arm64");
    return false;
}

bool sb_marker_wheel_fits(const char *wheel, const char *platform)
{
    char py[64], abi[64], plat[512];
    wheel_tags(wheel, py, sizeof py, abi, sizeof abi, plat, sizeof plat);
    if (!plat[0])
        return false;
    /* compressed tag sets: manylinux2014_x86_64.manylinux_2_17_x86_64 */
    for (char *save = NULL, *t = strtok_r(plat, ".", &save); t; t = strtok_r(NULL, ".", &save))
        if (tag_fits(t, platform))
            return true;
    return false;
}

int sb_marker_choose_wheel(const char *const *names, size_t n, bool has_sdist, const char *platform, const char *python)
{
    char cp[16] = "";
    unsigned maj = 0, min = 0;
    if (python && 2 == sscanf(python, "%u.%u", &maj, &min))
        snprintf(cp, sizeof cp, "cp%u%u", maj, min);
    int first_fit = -1, cp_fit = -1, abi3_fit = -1;
    for (size_t i = 0; i < n; i++) {
        char py[64], abi[64], plat[512];
        wheel_tags(names[i], py, sizeof py, abi, sizeof abi, plat, sizeof plat);
        if (!strcmp(abi, "none") && !strcmp(plat, "any"))
            return (int)i;
        if (!sb_marker_wheel_fits(names[i], platform))
            continue;
        if (first_fit < 0)
            first_fit = (int)i;
        if (cp_fit < 0 && cp[0]) {
            char pat[24];
            snprintf(pat, sizeof pat, "-%s-", cp);
            if (strstr(basename_of(names[i]), pat))
                cp_fit = (int)i;
        }
        if (abi3_fit < 0 && strstr(basename_of(names[i]), "-abi3-"))
            abi3_fit = (int)i;
    }
    if (cp_fit >= 0)
        return cp_fit;
    if (abi3_fit >= 0)
        return abi3_fit;
    if (first_fit >= 0)
        return first_fit;
    if (has_sdist)
        return -1;
    return n ? 0 : -2;
}

/* ---- requirements ---- */

sb_code sb_req_parse(sb_req *r, sb_arena *a, const char *text, sb_err *err)
{
    memset(r, 0, sizeof *r);
    const char *p = text;
    while (*p == ' ' || *p == '\t')
        p++;
    const char *st = p;
    while (isalnum((unsigned char)*p) || *p == '-' || *p == '_' || *p == '.')
        p++;
    if (p == st)
        return sb_err_set(err, SB_EPARSE, "requirement '%.120s' has no name", text);
    r->name = sb_arena_strndup(a, st, (size_t)(p - st));
    while (*p == ' ')
        p++;
    if (*p == '[') {
        const char *e = strchr(p, ']');
        if (NULL == e)
            return sb_err_set(err, SB_EPARSE, "requirement '%.120s': unclosed '['", text);
        char *ex = sb_arena_strndup(a, p + 1, (size_t)(e - p - 1));
        if (ex) { /* drop spaces */
            char *o = ex;
            for (char *c = ex; *c; c++)
                if (*c != ' ')
                    *o++ = *c;
            *o = '\0';
        }
        r->extras = ex && ex[0] ? ex : NULL;
        p = e + 1;
    }
    const char *semi = strchr(p, ';');
    const char *spec_end = semi ? semi : p + strlen(p);
    while (*p == ' ')
        p++;
    if (*p == '@') {
        p++;
        while (*p == ' ')
            p++;
        /* a URL may contain ';' only in theory; PEP 508 wants " ;" before a marker */
        const char *m = strstr(p, " ;");
        spec_end = m ? m : p + strlen(p);
        semi = m ? m + 1 : NULL;
        const char *ue = spec_end;
        while (ue > p && ue[-1] == ' ')
            ue--;
        r->url = sb_arena_strndup(a, p, (size_t)(ue - p));
    } else {
        const char *se = spec_end;
        while (se > p && (se[-1] == ' ' || se[-1] == '\t'))
            se--;
        if (se > p) {
            const char *s0 = p, *s1 = se;
            if (*s0 == '(' && s1[-1] == ')') {
                s0++;
                s1--;
            }
            r->spec = sb_arena_strndup(a, s0, (size_t)(s1 - s0));
        }
    }
    if (semi) {
        const char *m = semi + 1;
        while (*m == ' ')
            m++;
        r->marker = *m ? sb_arena_strdup(a, m) : NULL;
    }
    if (NULL == r->name)
        return sb_err_set(err, SB_ENOMEM, "out of memory");
    return SB_OK;
}
