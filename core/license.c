/*
 * license.c - license strings as found -> SPDX expressions or free text.
 *
 * DESIGN (spec/pixi-sbom.md section 5): one tokenizer, one recursive-descent
 * parser run in two modes.
 *  - strict: operators AND/OR/WITH upper-case, ids exactly as the SPDX list
 *    spells them (deprecated ids allowed), LicenseRef-/DocumentRef-/AdditionRef-,
 *    a '+' suffix. Success keeps the input verbatim.
 *  - lenient: operators in any case, '/' as OR, ids in any case, multi-word
 *    operands mapped without ever inventing a version: an operand is split
 *    into a name, fill words ("the", "license"/"licence", "version") and a
 *    trailing version ("v2", "2.0", "3+", glued as in "LGPL3"/"MPLv2.0");
 *    the name (through a table of long and family names) plus the version
 *    must be an SPDX id ("JasPer 2.0" -> JasPer-2.0, "Ubuntu Font Licence
 *    1.0" -> Ubuntu-font-1.0), GNU families taking -only / -or-later
 *    ("LGPL 2" -> LGPL-2.0-only, "GPLv3+" -> GPL-3.0-or-later). A name with
 *    no version maps only when it alone is an id ("MIT License" -> MIT);
 *    "GPL", "BSD License" stay free text. A few names that state a variant
 *    in words ("New BSD", "Expat") are aliases. Success re-emits
 *    canonically: single spaces, parentheses only around an OR that is an
 *    operand of AND.
 * A literal "None", "UNKNOWN" or "NOASSERTION" (any case) states no license:
 * it is treated as absent, not as a license called "None".
 * Failing both, a WITH naming an unknown exception is rewritten to
 * AdditionRef-<word> and the lenient parse tried again; otherwise the string
 * is free text. The SPDX ids come from the generated table in spdx_ids.c.
 */
#include "license.h"
#include "spdx_ids.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

typedef enum { T_WORD, T_AND, T_OR, T_WITH, T_LP, T_RP, T_END } tok_type;

typedef struct tok {
    tok_type type;
    const char *s; /* word text (not NUL-terminated) */
    size_t n;
    int upper; /* operator written in upper case */
    int slash; /* OR written as '/' */
} tok;

typedef enum { N_LIC, N_AND, N_OR, N_WITH } node_type;

typedef struct node {
    node_type type;
    const char *id;     /* N_LIC: canonical id (with '+' if any); N_WITH: exception */
    struct node *l, *r; /* N_AND/N_OR/N_WITH (r unused for WITH: id holds the exception) */
} node;

typedef struct parser {
    sb_arena *a;
    tok *t;
    size_t nt, pos;
    int strict;
    const char *bad; /* offending term, for the reason */
    size_t badn;
    int nlic;
    int nops;
} parser;

static int ci_cmp(const void *k, const void *e)
{
    return strcasecmp(k, ((const sb_spdx_id *)e)->id);
}

static const char *find_id(const sb_spdx_id *tab, unsigned long n, const char *word)
{
    const sb_spdx_id *hit = bsearch(word, tab, n, sizeof *tab, ci_cmp);
    return hit ? hit->id : NULL;
}

/* Names that state one license in words rather than by name + version
 * (lower-case, single spaces). Versionless names (GPL, LGPL, BSD, "BSD
 * License") are absent on purpose: they must stay free text. Names with a
 * version ("Apache 2.0", "GPLv3+") need no entry: map_parts() reads them. */
static const struct {
    const char *name, *id;
} aliases[] = {
    {"bsd 2-clause", "BSD-2-Clause"},
    {"bsd-2", "BSD-2-Clause"},
    {"2-clause bsd", "BSD-2-Clause"},
    {"simplified bsd", "BSD-2-Clause"},
    {"bsd 3-clause", "BSD-3-Clause"},
    {"bsd-3", "BSD-3-Clause"},
    {"3-clause bsd", "BSD-3-Clause"},
    {"new bsd", "BSD-3-Clause"},
    {"bsd 3 clause", "BSD-3-Clause"},
    {"apache license, version 2.0", "Apache-2.0"},
    {"mit/x11", "MIT"},
    {"expat", "MIT"},
    {"zlib/libpng", "Zlib"},
};

/* An alias spelled with '/' ("MIT/X11") is one word, not an OR: the length
 * of such a word at p, else 0. */
static size_t slash_alias_len(const char *p)
{
    size_t n = 0;
    while (p[n] && !isspace((unsigned char)p[n]) && p[n] != '(' && p[n] != ')')
        n++;
    for (size_t i = 0; i < sizeof aliases / sizeof aliases[0]; i++)
        if (strchr(aliases[i].name, '/') && strlen(aliases[i].name) == n && !strncasecmp(p, aliases[i].name, n))
            return n;
    return 0;
}

/* ---- tokenizer ---- */

static int is_word_char(char c)
{
    return c && !isspace((unsigned char)c) && c != '(' && c != ')' && c != '/';
}

static size_t tokenize(const char *s, tok *out, size_t max)
{
    size_t n = 0;
    const char *p = s;
    while (*p && n + 1 < max) {
        if (isspace((unsigned char)*p)) {
            p++;
            continue;
        }
        tok t = {T_WORD, p, 1, 0, 0};
        if (*p == '(') {
            t.type = T_LP;
            p++;
        } else if (*p == ')') {
            t.type = T_RP;
            p++;
        } else if (*p == '/') {
            t.type = T_OR;
            t.slash = 1;
            p++;
        } else {
            const char *e = p + slash_alias_len(p);
            while (is_word_char(*e))
                e++;
            t.n = (size_t)(e - p);
            if (t.n == 3 && !strncasecmp(p, "and", 3)) {
                t.type = T_AND;
                t.upper = !strncmp(p, "AND", 3);
            } else if (t.n == 2 && !strncasecmp(p, "or", 2)) {
                t.type = T_OR;
                t.upper = !strncmp(p, "OR", 2);
            } else if (t.n == 4 && !strncasecmp(p, "with", 4)) {
                t.type = T_WITH;
                t.upper = !strncmp(p, "WITH", 4);
            }
            p = e;
        }
        out[n++] = t;
    }
    out[n].type = T_END;
    out[n].s = p;
    out[n].n = 0;
    return *p ? (size_t)-1 : n;
}

/* ---- operand mapping ---- */

static int is_ref(const char *w, const char *prefix)
{
    size_t n = strlen(prefix);
    if (strncmp(w, prefix, n) || !w[n])
        return 0;
    for (const char *c = w + n; *c; c++)
        if (!isalnum((unsigned char)*c) && *c != '.' && *c != '-')
            return 0;
    return 1;
}

static int is_license_ref(const char *w)
{
    if (is_ref(w, "LicenseRef-"))
        return 1;
    if (!strncmp(w, "DocumentRef-", 12)) {
        const char *colon = strchr(w, ':');
        return colon && is_ref(colon + 1, "LicenseRef-");
    }
    return 0;
}

/* Long and family names -> the stem of their SPDX ids (lower-case, words
 * joined by '-' as map_parts() joins them). `gnu`: the id takes -only or
 * -or-later after the version. A name not listed is its own stem
 * ("jasper" -> JasPer-2.0, "ubuntu-font" -> Ubuntu-font-1.0). */
static const struct {
    const char *name, *stem;
    int gnu;
} families[] = {
    {"gpl", "GPL", 1},
    {"gnu-gpl", "GPL", 1},
    {"gnu-general-public", "GPL", 1},
    {"lgpl", "LGPL", 1},
    {"gnu-lgpl", "LGPL", 1},
    {"gnu-lesser-general-public", "LGPL", 1},
    {"gnu-library-general-public", "LGPL", 1},
    {"agpl", "AGPL", 1},
    {"gnu-agpl", "AGPL", 1},
    {"gnu-affero-general-public", "AGPL", 1},
    {"gfdl", "GFDL", 1},
    {"gnu-fdl", "GFDL", 1},
    {"gnu-free-documentation", "GFDL", 1},
    {"apache-software", "Apache", 0},
    {"asl", "Apache", 0},
    {"mozilla-public", "MPL", 0},
    {"mozilla", "MPL", 0},
    {"eclipse-public", "EPL", 0},
    {"sil-open-font", "OFL", 0},
    {"open-font", "OFL", 0},
    {"academic-free", "AFL", 0},
    {"boost-software", "BSL", 0},
    {"python-software-foundation", "PSF", 0},
    {"zope-public", "ZPL", 0},
};

static int is_fill(const char *w)
{
    return !strcmp(w, "license") || !strcmp(w, "licence") || !strcmp(w, "version") || !strcmp(w, "the");
}

/* Length of a version at the end of w ("2", "2.1", "v3", "1.0.6"), with
 * *plus set for a trailing '+'; 0 when w does not end in one. */
static size_t version_tail(const char *w, size_t n, int *plus)
{
    *plus = n && w[n - 1] == '+';
    size_t e = n - (size_t)*plus, b = e;
    while (b && (isdigit((unsigned char)w[b - 1]) || w[b - 1] == '.'))
        b--;
    if (b == e || !isdigit((unsigned char)w[b]) || w[e - 1] == '.')
        return 0;
    return e - b;
}

/* Look up stem-version, trying "2" as "2.0" too. */
static const char *versioned_id(parser *ps, const char *stem, int gnu, const char *ver, int plus)
{
    const char *forms[2] = {ver, strchr(ver, '.') ? NULL : sb_arena_printf(ps->a, "%s.0", ver)};
    for (int f = 0; f < 2; f++) {
        if (NULL == forms[f])
            continue;
        char *cand = gnu ? sb_arena_printf(ps->a, "%s-%s-%s", stem, forms[f], plus ? "or-later" : "only")
                         : sb_arena_printf(ps->a, "%s-%s", stem, forms[f]);
        const char *id = cand ? find_id(sb_spdx_licenses, sb_spdx_nlicenses, cand) : NULL;
        if (id)
            return plus && !gnu ? sb_arena_printf(ps->a, "%s+", id) : id;
    }
    return NULL;
}

/* `core` (lower-case, fill words gone, single spaces) read as a name and a
 * version: the last word carries the version, alone ("gpl 2", "gpl v3+")
 * or glued ("lgpl3", "mplv2.0", "ofl-1.1"). NULL when it has none or the
 * name and version are no SPDX id: a version is never guessed. */
static const char *map_parts(parser *ps, const char *core)
{
    size_t n = strlen(core);
    const char *last = strrchr(core, ' ');
    last = last ? last + 1 : core;
    size_t ln = (size_t)(core + n - last);
    int plus;
    size_t vn = version_tail(last, ln, &plus);
    if (0 == vn)
        return NULL;
    const char *ver = sb_arena_strndup(ps->a, last + ln - (size_t)plus - vn, vn);
    /* the name: everything before the version, less a 'v' and a separator glued to it */
    size_t keep = (size_t)(last - core) + ln - (size_t)plus - vn;
    if (keep && core[keep - 1] == 'v')
        keep--;
    while (keep && (core[keep - 1] == '-' || core[keep - 1] == '_' || core[keep - 1] == ' '))
        keep--;
    char *stem = sb_arena_strndup(ps->a, core, keep);
    if (NULL == ver || NULL == stem || 0 == keep)
        return NULL;
    for (char *c = stem; *c; c++)
        if (*c == ' ')
            *c = '-';
    for (size_t i = 0; i < sizeof families / sizeof families[0]; i++)
        if (!strcmp(stem, families[i].name))
            return versioned_id(ps, families[i].stem, families[i].gnu, ver, plus);
    return versioned_id(ps, stem, 0, ver, plus);
}

/* `lower` without fill words ("the", "license", "version"), single spaces. */
static char *drop_fill(sb_arena *a, const char *lower)
{
    char *out = sb_arena_stralloc(a, strlen(lower) + 1);
    if (NULL == out)
        return NULL;
    size_t o = 0;
    for (const char *p = lower; *p;) {
        size_t wn = strcspn(p, " ");
        char *w = sb_arena_strndup(a, p, wn);
        if (NULL == w)
            return NULL;
        if (!is_fill(w)) {
            if (o)
                out[o++] = ' ';
            memcpy(out + o, w, wn);
            o += wn;
        }
        p += wn;
        while (*p == ' ')
            p++;
    }
    out[o] = '\0';
    return out;
}

/* One word as an id in any case, with an optional '+'. */
static const char *lone_id(parser *ps, const char *word)
{
    size_t n = strlen(word);
    int plus = n > 1 && word[n - 1] == '+';
    char *base = sb_arena_strndup(ps->a, word, plus ? n - 1 : n);
    const char *id = base ? find_id(sb_spdx_licenses, sb_spdx_nlicenses, base) : NULL;
    if (id && plus)
        return sb_arena_printf(ps->a, "%s+", id);
    return id;
}

static const char *alias_of(const char *lower)
{
    for (size_t i = 0; i < sizeof aliases / sizeof aliases[0]; i++)
        if (!strcmp(lower, aliases[i].name))
            return aliases[i].id;
    return NULL;
}

/* Map one operand (a phrase of one or more words) to a canonical id. */
static const char *map_operand(parser *ps, const char *phrase)
{
    const char *id;
    size_t n = strlen(phrase);
    if (ps->strict) {
        if (is_license_ref(phrase))
            return phrase;
        int plus = n > 1 && phrase[n - 1] == '+';
        char *base = sb_arena_strndup(ps->a, phrase, plus ? n - 1 : n);
        if (NULL == base || strchr(base, ' '))
            return NULL;
        id = find_id(sb_spdx_licenses, sb_spdx_nlicenses, base);
        if (NULL == id || strcmp(id, base))
            return NULL;
        return phrase;
    }
    /* lenient */
    if (!strncasecmp(phrase, "licenseref-", 11) || !strncasecmp(phrase, "documentref-", 12)) {
        /* normalize the prefix's case only */
        char *fixed = sb_arena_strdup(ps->a, phrase);
        if (fixed && !strncasecmp(fixed, "licenseref-", 11))
            memcpy(fixed, "LicenseRef-", 11);
        return fixed && is_license_ref(fixed) ? fixed : NULL;
    }
    char *lower = sb_arena_strdup(ps->a, phrase);
    if (NULL == lower)
        return NULL;
    for (char *c = lower; *c; c++)
        *c = (char)tolower((unsigned char)*c);
    /* an id as written wins ("LGPL-2.1" stays the deprecated id, as strict keeps it) */
    if (!strchr(lower, ' ') && (id = lone_id(ps, lower)) != NULL)
        return id;
    if ((id = alias_of(lower)) != NULL)
        return id;
    char *core = drop_fill(ps->a, lower);
    if (NULL == core || !*core)
        return NULL;
    /* "MIT License", "the Zlib licence": a lone id once the fill is gone */
    if (!strchr(core, ' ') && (id = lone_id(ps, core)) != NULL)
        return id;
    if ((id = alias_of(core)) != NULL)
        return id;
    return map_parts(ps, core);
}

static const char *map_exception(parser *ps, const char *word)
{
    if (is_ref(word, "AdditionRef-"))
        return word;
    if (!strncmp(word, "DocumentRef-", 12)) {
        const char *colon = strchr(word, ':');
        return colon && is_ref(colon + 1, "AdditionRef-") ? word : NULL;
    }
    const char *id = find_id(sb_spdx_exceptions, sb_spdx_nexceptions, word);
    if (NULL == id || (ps->strict && strcmp(id, word)))
        return NULL;
    return id;
}

/* ---- parser: or := and (OR and)* ; and := with (AND with)* ;
 *      with := atom [WITH word] ; atom := operand | '(' or ')' ---- */

static node *parse_or(parser *ps);

static node *mk(parser *ps, node_type t, node *l, node *r, const char *id)
{
    node *n = sb_arena_calloc(ps->a, 1, sizeof *n);
    if (n) {
        n->type = t;
        n->l = l;
        n->r = r;
        n->id = id;
    }
    return n;
}

static tok *peek(parser *ps)
{
    return &ps->t[ps->pos];
}

static int op_ok(parser *ps, const tok *t)
{
    return !ps->strict || (t->upper && !t->slash);
}

static node *fail_at(parser *ps, const tok *t)
{
    if (NULL == ps->bad) {
        ps->bad = t->type == T_END ? "" : t->s;
        ps->badn = t->type == T_END ? 0 : t->n;
    }
    return NULL;
}

static node *parse_atom(parser *ps)
{
    tok *t = peek(ps);
    if (t->type == T_LP) {
        ps->pos++;
        node *inner = parse_or(ps);
        if (NULL == inner)
            return NULL;
        if (peek(ps)->type != T_RP)
            return fail_at(ps, peek(ps));
        ps->pos++;
        return inner;
    }
    if (t->type != T_WORD)
        return fail_at(ps, t);
    /* strict: one word; lenient: a run of words is one phrase */
    size_t start = ps->pos;
    ps->pos++;
    if (!ps->strict)
        while (peek(ps)->type == T_WORD)
            ps->pos++;
    const char *s = ps->t[start].s;
    const tok *last = &ps->t[ps->pos - 1];
    size_t len = (size_t)(last->s + last->n - s);
    /* collapse inner whitespace runs to one space */
    char *phrase = sb_arena_stralloc(ps->a, len + 1);
    if (NULL == phrase)
        return NULL;
    size_t o = 0;
    for (size_t i = 0; i < len; i++) {
        if (isspace((unsigned char)s[i])) {
            if (o && phrase[o - 1] != ' ')
                phrase[o++] = ' ';
        } else {
            phrase[o++] = s[i];
        }
    }
    phrase[o] = '\0';
    const char *id = map_operand(ps, phrase);
    if (NULL == id) {
        ps->bad = s;
        ps->badn = len;
        return NULL;
    }
    ps->nlic++;
    return mk(ps, N_LIC, NULL, NULL, id);
}

static node *parse_with(parser *ps)
{
    node *l = parse_atom(ps);
    if (NULL == l)
        return NULL;
    tok *t = peek(ps);
    if (t->type != T_WITH)
        return l;
    if (!op_ok(ps, t) || l->type != N_LIC)
        return fail_at(ps, t);
    ps->pos++;
    tok *w = peek(ps);
    if (w->type != T_WORD)
        return fail_at(ps, w);
    char *word = sb_arena_strndup(ps->a, w->s, w->n);
    const char *ex = word ? map_exception(ps, word) : NULL;
    if (NULL == ex)
        return fail_at(ps, w);
    ps->pos++;
    ps->nops++;
    return mk(ps, N_WITH, l, NULL, ex);
}

static node *parse_and(parser *ps)
{
    node *l = parse_with(ps);
    while (l && peek(ps)->type == T_AND) {
        if (!op_ok(ps, peek(ps)))
            return fail_at(ps, peek(ps));
        ps->pos++;
        node *r = parse_with(ps);
        if (NULL == r)
            return NULL;
        ps->nops++;
        l = mk(ps, N_AND, l, r, NULL);
    }
    return l;
}

static node *parse_or(parser *ps)
{
    node *l = parse_and(ps);
    while (l && peek(ps)->type == T_OR) {
        if (!op_ok(ps, peek(ps)))
            return fail_at(ps, peek(ps));
        ps->pos++;
        node *r = parse_and(ps);
        if (NULL == r)
            return NULL;
        ps->nops++;
        l = mk(ps, N_OR, l, r, NULL);
    }
    return l;
}

static node *parse(parser *ps, const char *s, int strict)
{
    size_t max = strlen(s) + 2;
    sb_arena *a = ps->a;
    memset(ps, 0, sizeof *ps);
    ps->a = a;
    ps->strict = strict;
    ps->t = sb_arena_alloc(ps->a, max * sizeof *ps->t);
    if (NULL == ps->t)
        return NULL;
    ps->nt = tokenize(s, ps->t, max);
    if (ps->nt == (size_t)-1)
        return NULL;
    node *n = parse_or(ps);
    if (n && peek(ps)->type != T_END)
        return fail_at(ps, peek(ps));
    return n;
}

/* canonical text: AND binds tighter than OR, so only an OR under an AND
 * needs parentheses */
static size_t emit(const node *n, char *out, int paren_or)
{
    size_t k = 0;
#define PUT(str) \
    do { \
        size_t l_ = strlen(str); \
        if (out) \
            memcpy(out + k, (str), l_); \
        k += l_; \
    } while (0)
    switch (n->type) {
    case N_LIC: PUT(n->id); break;
    case N_WITH:
        k += emit(n->l, out ? out + k : NULL, 0);
        PUT(" WITH ");
        PUT(n->id);
        break;
    case N_AND:
        k += emit(n->l, out ? out + k : NULL, 1);
        PUT(" AND ");
        k += emit(n->r, out ? out + k : NULL, 1);
        break;
    case N_OR:
        if (paren_or)
            PUT("(");
        k += emit(n->l, out ? out + k : NULL, 0);
        PUT(" OR ");
        k += emit(n->r, out ? out + k : NULL, 0);
        if (paren_or)
            PUT(")");
        break;
    }
#undef PUT
    return k;
}

static const char *canonical(sb_arena *a, const node *n)
{
    size_t len = emit(n, NULL, 0);
    char *s = sb_arena_stralloc(a, len + 1);
    if (NULL == s)
        return NULL;
    emit(n, s, 0);
    s[len] = '\0';
    return s;
}

/* "WITH word" -> "WITH AdditionRef-word" for words that are not exceptions */
static char *rewrite_exceptions(sb_arena *a, const char *s, int *changed)
{
    size_t n = strlen(s);
    /* every rewrite adds 12 bytes and needs a "with " keyword (5 bytes) before it,
     * and "with with with ..." rewrites each one: at most n/5 + 1 rewrites */
    char *out = sb_arena_stralloc(a, n + 12 * (n / 5 + 1) + 16);
    if (NULL == out)
        return NULL;
    size_t o = 0;
    *changed = 0;
    const char *p = s;
    while (*p) {
        if ((p == s || isspace((unsigned char)p[-1])) && !strncasecmp(p, "with", 4) && isspace((unsigned char)p[4])) {
            memcpy(out + o, p, 4);
            o += 4;
            p += 4;
            while (isspace((unsigned char)*p))
                out[o++] = *p++;
            const char *w = p;
            while (*w && !isspace((unsigned char)*w) && *w != ')')
                w++;
            size_t wl = (size_t)(w - p);
            char *word = sb_arena_strndup(a, p, wl);
            int plain = wl > 0;
            for (size_t i = 0; i < wl; i++)
                if (!isalnum((unsigned char)p[i]) && p[i] != '-' && p[i] != '.')
                    plain = 0;
            if (word && plain && !find_id(sb_spdx_exceptions, sb_spdx_nexceptions, word) &&
                strncmp(word, "AdditionRef-", 12) && strncmp(word, "DocumentRef-", 12)) {
                memcpy(out + o, "AdditionRef-", 12);
                o += 12;
                *changed = 1;
            }
            continue;
        }
        out[o++] = *p++;
    }
    out[o] = '\0';
    return out;
}

static void fill(sb_lic *l, parser *ps, node *n)
{
    l->single_id = ps->nlic == 1 && (n->type == N_LIC || n->type == N_WITH);
    const node *lic = n->type == N_WITH ? n->l : n;
    l->is_ref = l->single_id && lic->type == N_LIC && strstr(lic->id, "LicenseRef-") != NULL;
}

/* Words a packager writes for "no license stated": not a license named so. */
static int states_none(const char *s, size_t n)
{
    static const char *const none[] = {"none", "unknown", "noassertion"};
    for (size_t i = 0; i < sizeof none / sizeof none[0]; i++)
        if (strlen(none[i]) == n && !strncasecmp(s, none[i], n))
            return 1;
    return 0;
}

sb_lic sb_lic_normalize(sb_arena *a, const char *raw)
{
    sb_lic l = {0};
    if (NULL == raw) {
        l.reason = "empty";
        return l;
    }
    while (isspace((unsigned char)*raw))
        raw++;
    size_t n = strlen(raw);
    while (n && isspace((unsigned char)raw[n - 1]))
        n--;
    if (0 == n) {
        l.reason = "empty";
        return l;
    }
    if (states_none(raw, n)) {
        l.reason = "stated as none";
        return l;
    }
    char *s = sb_arena_strndup(a, raw, n);
    if (NULL == s) {
        l.kind = SB_LIC_TEXT;
        l.value = raw;
        return l;
    }
    parser ps = {.a = a};
    node *tree = parse(&ps, s, 1);
    if (tree) {
        l.kind = SB_LIC_EXPR;
        l.value = s;
        fill(&l, &ps, tree);
        return l;
    }
    tree = parse(&ps, s, 0);
    if (tree) {
        l.kind = SB_LIC_EXPR;
        l.value = canonical(a, tree);
        fill(&l, &ps, tree);
        if (l.value)
            return l;
    }
    const char *bad = ps.bad;
    size_t badn = ps.badn;
    int changed = 0;
    char *rw = rewrite_exceptions(a, s, &changed);
    if (rw && changed) {
        tree = parse(&ps, rw, 0);
        if (tree) {
            l.kind = SB_LIC_EXPR;
            l.value = canonical(a, tree);
            l.raw_rewritten = s;
            fill(&l, &ps, tree);
            if (l.value)
                return l;
        }
    }
    l.kind = SB_LIC_TEXT;
    l.value = s;
    l.single_id = false;
    if (bad && badn)
        l.reason = sb_arena_printf(a, "unknown term: '%.*s'", (int)badn, bad);
    else
        l.reason = "not an SPDX expression";
    return l;
}
