/*
 * vercmp.c - version order per ecosystem (see vercmp.h).
 *
 * DESIGN: nothing is allocated. A version is cut into pieces in place
 * (pointer + length) and compared piece by piece; numbers are compared as
 * digit strings without leading zeros (longer is larger), so a date-stamped
 * 20240101000000000000 build number cannot overflow anything.
 */
#include "vercmp.h"

#include <string.h>

static int lower(int c)
{
    return c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c;
}
static int is_digit(int c)
{
    return c >= '0' && c <= '9';
}
static int is_alpha(int c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

/* Two runs of digits as numbers. */
static int num_cmp(const char *a, size_t na, const char *b, size_t nb)
{
    while (na > 1 && *a == '0')
        a++, na--;
    while (nb > 1 && *b == '0')
        b++, nb--;
    if (na != nb)
        return na < nb ? -1 : 1;
    int c = memcmp(a, b, na);
    return c < 0 ? -1 : c > 0;
}

/* Two runs of text, case folded. */
static int text_cmp(const char *a, size_t na, const char *b, size_t nb)
{
    for (size_t i = 0; i < na && i < nb; i++) {
        int x = lower((unsigned char)a[i]), y = lower((unsigned char)b[i]);
        if (x != y)
            return x < y ? -1 : 1;
    }
    return na < nb ? -1 : na > nb;
}

static int ieq(const char *s, size_t n, const char *word)
{
    return strlen(word) == n && 0 == text_cmp(s, n, word, n);
}

/* ---- conda (conda's VersionOrder) -------------------------------------- */

/* One element of a component: "dev" sorts before every other word, words
 * before numbers, "post" after every number (conda's rules). */
enum { E_DEV, E_WORD, E_NUM, E_POST };

typedef struct elem {
    int type;
    const char *s;
    size_t n;
} elem;

static int elem_cmp(const elem *x, const elem *y)
{
    if (x->type != y->type)
        return x->type < y->type ? -1 : 1;
    if (x->type == E_NUM)
        return num_cmp(x->s, x->n, y->s, y->n);
    if (x->type == E_WORD)
        return text_cmp(x->s, x->n, y->s, y->n);
    return 0;
}

static int is_sep(int c)
{
    return c == '.' || c == '_' || c == '-';
}

/* The next element at *p within [.., end), or 0 at a component's end. */
static int next_elem(const char **p, const char *end, elem *e)
{
    const char *s = *p;
    if (s >= end || is_sep((unsigned char)*s))
        return 0;
    const char *t = s;
    if (is_digit((unsigned char)*t)) {
        while (t < end && is_digit((unsigned char)*t))
            t++;
        *e = (elem){E_NUM, s, (size_t)(t - s)};
    } else {
        while (t < end && !is_digit((unsigned char)*t) && !is_sep((unsigned char)*t))
            t++;
        size_t n = (size_t)(t - s);
        *e = (elem){ieq(s, n, "dev") ? E_DEV : ieq(s, n, "post") ? E_POST : E_WORD, s, n};
    }
    *p = t;
    return 1;
}

static const elem ZERO = {E_NUM, "0", 1};

#define MAXELEM 16

/* The elements of the component at *p (up to a separator or `end`); a
 * component starting with a word gets an implicit 0 in front (conda:
 * "1.rc1" is 1.0rc1). *p is left on the separator. */
static size_t component(const char **p, const char *end, elem *out)
{
    size_t n = 0;
    elem e;
    while (next_elem(p, end, &e)) {
        if (0 == n && e.type != E_NUM)
            out[n++] = ZERO;
        if (n < MAXELEM)
            out[n++] = e;
    }
    return n;
}

/* Compare one component of each; a missing one counts as [0], a missing
 * element as 0. */
static int conda_component(const char **pa, const char *ea, const char **pb, const char *eb)
{
    elem x[MAXELEM], y[MAXELEM];
    size_t nx = pa ? component(pa, ea, x) : 0, ny = pb ? component(pb, eb, y) : 0;
    for (size_t i = 0; i < nx || i < ny; i++) {
        int c = elem_cmp(i < nx ? &x[i] : &ZERO, i < ny ? &y[i] : &ZERO);
        if (c)
            return c;
    }
    return 0;
}

/* Compare the dotted parts [a, ea) and [b, eb). */
static int conda_parts(const char *a, const char *ea, const char *b, const char *eb)
{
    for (;;) {
        int ha = a < ea, hb = b < eb;
        if (!ha && !hb)
            return 0;
        const char *pa = a, *pb = b;
        int c = conda_component(ha ? &pa : NULL, ea, hb ? &pb : NULL, eb);
        if (c)
            return c;
        if (ha) {
            a = pa < ea ? pa + 1 : ea; /* past the separator */
        }
        if (hb) {
            b = pb < eb ? pb + 1 : eb;
        }
    }
}

typedef struct conda_ver {
    const char *epoch;
    size_t nepoch;
    const char *main, *main_end, *local, *local_end;
} conda_ver;

static void conda_split(const char *s, conda_ver *v)
{
    while (*s == ' ')
        s++;
    const char *end = s + strlen(s);
    while (end > s && end[-1] == ' ')
        end--;
    const char *bang = memchr(s, '!', (size_t)(end - s));
    v->epoch = "0";
    v->nepoch = 1;
    if (bang) {
        int digits = bang > s;
        for (const char *q = s; q < bang; q++)
            digits &= is_digit((unsigned char)*q);
        if (digits) {
            v->epoch = s;
            v->nepoch = (size_t)(bang - s);
        }
        s = bang + 1;
    }
    const char *plus = memchr(s, '+', (size_t)(end - s));
    v->main = s;
    v->main_end = plus ? plus : end;
    v->local = plus ? plus + 1 : end;
    v->local_end = end;
}

int sb_vercmp_conda(const char *a, const char *b)
{
    if (NULL == a || NULL == b)
        return (NULL != a) - (NULL != b);
    conda_ver x, y;
    conda_split(a, &x);
    conda_split(b, &y);
    int c = num_cmp(x.epoch, x.nepoch, y.epoch, y.nepoch);
    if (0 == c)
        c = conda_parts(x.main, x.main_end, y.main, y.main_end);
    if (0 == c)
        c = conda_parts(x.local, x.local_end, y.local, y.local_end);
    return c;
}

/* ---- PEP 440 ------------------------------------------------------------- */

#define MAXREL 24

typedef struct run {
    const char *s;
    size_t n;
} run;

typedef struct pep440 {
    run epoch;
    run rel[MAXREL];
    size_t nrel;
    int pre; /* -1 none, 0 a, 1 b, 2 rc */
    run pre_n;
    int has_post, has_dev;
    run post_n, dev_n;
    const char *local; /* after '+', NULL when none */
} pep440;

static run digits(const char **p)
{
    const char *s = *p;
    while (is_digit((unsigned char)**p))
        (*p)++;
    return (run){s, (size_t)(*p - s)};
}

/* a word of letters at *p that is one of the given ones: its index, else -1 */
static int word_at(const char **p, const char *const *words)
{
    const char *s = *p, *t = s;
    while (is_alpha((unsigned char)*t))
        t++;
    for (int i = 0; words[i]; i++)
        if (ieq(s, (size_t)(t - s), words[i])) {
            *p = t;
            return i;
        }
    return -1;
}

/* an optional separator before a pre/post/dev part */
static const char *opt_sep(const char *p)
{
    return (*p == '.' || *p == '-' || *p == '_') ? p + 1 : p;
}

static int pep440_parse(const char *s, pep440 *v)
{
    memset(v, 0, sizeof *v);
    v->pre = -1;
    v->epoch = (run){"0", 1};
    while (*s == ' ')
        s++;
    if (*s == 'v' || *s == 'V')
        s++;
    const char *p = s;
    run r = digits(&p);
    if (0 == r.n)
        return -1;
    if (*p == '!') {
        v->epoch = r;
        p++;
        r = digits(&p);
        if (0 == r.n)
            return -1;
    }
    v->rel[v->nrel++] = r;
    while (p[0] == '.' && is_digit((unsigned char)p[1])) {
        p++;
        r = digits(&p);
        if (v->nrel < MAXREL)
            v->rel[v->nrel++] = r;
    }
    static const char *const pre_words[] = {"a", "alpha", "b", "beta", "c", "rc", "pre", "preview", NULL};
    static const int pre_kind[] = {0, 0, 1, 1, 2, 2, 2, 2};
    const char *q = opt_sep(p);
    int w = word_at(&q, pre_words);
    if (w >= 0) {
        v->pre = pre_kind[w];
        const char *n = opt_sep(q);
        if (is_digit((unsigned char)*n)) {
            v->pre_n = digits(&n);
            p = n;
        } else {
            v->pre_n = (run){"0", 1};
            p = q;
        }
    }
    static const char *const post_words[] = {"post", "rev", "r", NULL};
    if (p[0] == '-' && is_digit((unsigned char)p[1])) {
        p++;
        v->has_post = 1;
        v->post_n = digits(&p);
    } else {
        q = opt_sep(p);
        if (word_at(&q, post_words) >= 0) {
            v->has_post = 1;
            const char *n = opt_sep(q);
            if (is_digit((unsigned char)*n)) {
                v->post_n = digits(&n);
                p = n;
            } else {
                v->post_n = (run){"0", 1};
                p = q;
            }
        }
    }
    static const char *const dev_words[] = {"dev", NULL};
    q = opt_sep(p);
    if (word_at(&q, dev_words) >= 0) {
        v->has_dev = 1;
        const char *n = opt_sep(q);
        if (is_digit((unsigned char)*n)) {
            v->dev_n = digits(&n);
            p = n;
        } else {
            v->dev_n = (run){"0", 1};
            p = q;
        }
    }
    if (*p == '+') {
        v->local = ++p;
        if (!*p)
            return -1;
        for (; *p; p++)
            if (!is_digit((unsigned char)*p) && !is_alpha((unsigned char)*p) && !is_sep((unsigned char)*p))
                return -1;
    }
    while (*p == ' ')
        p++;
    return *p ? -1 : 0;
}

/* Local labels: segment by segment, a number above a word, absent lowest. */
static int local_cmp(const char *a, const char *b)
{
    if (!a || !b)
        return (NULL != a) - (NULL != b);
    for (;;) {
        size_t na = strcspn(a, "._-"), nb = strcspn(b, "._-");
        if (!na && !nb && !*a && !*b)
            return 0;
        if (!*a || !*b)
            return *a ? 1 : *b ? -1 : 0;
        int da = 1, db = 1;
        for (size_t i = 0; i < na; i++)
            da &= is_digit((unsigned char)a[i]);
        for (size_t i = 0; i < nb; i++)
            db &= is_digit((unsigned char)b[i]);
        int c = da && db ? num_cmp(a, na, b, nb) : da != db ? (da ? 1 : -1) : text_cmp(a, na, b, nb);
        if (c)
            return c;
        a += na + (a[na] != 0);
        b += nb + (b[nb] != 0);
    }
}

int sb_vercmp_pep440(const char *a, const char *b)
{
    if (NULL == a || NULL == b)
        return (NULL != a) - (NULL != b);
    pep440 x, y;
    if (pep440_parse(a, &x) || pep440_parse(b, &y))
        return sb_vercmp_conda(a, b);
    int c = num_cmp(x.epoch.s, x.epoch.n, y.epoch.s, y.epoch.n);
    for (size_t i = 0; !c && (i < x.nrel || i < y.nrel); i++) {
        run rx = i < x.nrel ? x.rel[i] : (run){"0", 1}, ry = i < y.nrel ? y.rel[i] : (run){"0", 1};
        c = num_cmp(rx.s, rx.n, ry.s, ry.n);
    }
    if (c)
        return c;
    /* pre: a dev release of the final sorts below its pre-releases; a final above them */
    int px = x.pre >= 0 ? 1 : (x.has_dev && !x.has_post) ? 0 : 2;
    int py = y.pre >= 0 ? 1 : (y.has_dev && !y.has_post) ? 0 : 2;
    if (px != py)
        return px < py ? -1 : 1;
    if (px == 1) {
        if (x.pre != y.pre)
            return x.pre < y.pre ? -1 : 1;
        if ((c = num_cmp(x.pre_n.s, x.pre_n.n, y.pre_n.s, y.pre_n.n)))
            return c;
    }
    if (x.has_post != y.has_post)
        return x.has_post ? 1 : -1;
    if (x.has_post && (c = num_cmp(x.post_n.s, x.post_n.n, y.post_n.s, y.post_n.n)))
        return c;
    if (x.has_dev != y.has_dev)
        return x.has_dev ? -1 : 1;
    if (x.has_dev && (c = num_cmp(x.dev_n.s, x.dev_n.n, y.dev_n.s, y.dev_n.n)))
        return c;
    return local_cmp(x.local, y.local);
}

/* ---- SemVer 2.0 -------------------------------------------------------------- */

/* A pre-release label after '-' (SemVer's identifiers: letters, digits,
 * '-', '.'), up to build metadata; *pre is left as it was when there is
 * none. -1 when a '-' starts an empty or malformed label. */
static int pre_label(const char **sp, const char **pre)
{
    const char *s = *sp;
    if (*s == '-') {
        *pre = ++s;
        if (!*s || *s == '+')
            return -1;
        while (*s && *s != '+') {
            if (!is_digit((unsigned char)*s) && !is_alpha((unsigned char)*s) && *s != '-' && *s != '.')
                return -1;
            s++;
        }
    }
    *sp = s;
    return 0;
}

typedef struct semver {
    run core[3];
    const char *pre; /* NULL when none; ends at '+' or NUL */
} semver;

static int semver_parse(const char *s, semver *v)
{
    while (*s == ' ' || *s == '=' || *s == 'v')
        s++;
    for (int i = 0; i < 3; i++) {
        v->core[i] = digits(&s);
        if (0 == v->core[i].n)
            return -1;
        if (i < 2 && *s++ != '.')
            return -1;
    }
    v->pre = NULL;
    if (pre_label(&s, &v->pre))
        return -1;
    if (*s == '+')
        return s[1] ? 0 : -1; /* build metadata does not order */
    return *s ? -1 : 0;
}

/* Two pre-release labels by SemVer's precedence: dot-separated identifiers,
 * numeric ones by value and below text ones, a release above its
 * pre-releases. Text compares byte for byte, or without case when fold
 * (NuGet's rule). */
static int label_cmp(const char *a, const char *b, int fold)
{
    if (!a || !b)
        return (NULL == a) - (NULL == b); /* a release is above its pre-releases */
    for (;;) {
        size_t na = strcspn(a, ".+"), nb = strcspn(b, ".+");
        int da = na > 0, db = nb > 0;
        for (size_t i = 0; i < na; i++)
            da &= is_digit((unsigned char)a[i]);
        for (size_t i = 0; i < nb; i++)
            db &= is_digit((unsigned char)b[i]);
        int c = da && db ? num_cmp(a, na, b, nb) : da != db ? (da ? -1 : 1) : 0;
        if (!c && !(da && db)) {
            if (fold) {
                c = text_cmp(a, na, b, nb);
            } else {
                int m = memcmp(a, b, na < nb ? na : nb);
                c = m ? (m < 0 ? -1 : 1) : na < nb ? -1 : na > nb;
            }
        }
        if (c)
            return c;
        int ea = a[na] != '.', eb = b[nb] != '.';
        if (ea || eb)
            return ea && eb ? 0 : ea ? -1 : 1;
        a += na + 1;
        b += nb + 1;
    }
}

int sb_vercmp_semver(const char *a, const char *b)
{
    if (NULL == a || NULL == b)
        return (NULL != a) - (NULL != b);
    semver x, y;
    if (semver_parse(a, &x) || semver_parse(b, &y))
        return sb_vercmp_conda(a, b);
    for (int i = 0; i < 3; i++) {
        int c = num_cmp(x.core[i].s, x.core[i].n, y.core[i].s, y.core[i].n);
        if (c)
            return c;
    }
    return label_cmp(x.pre, y.pre, 0);
}

/* ---- Composer ------------------------------------------------------------------ */

/* One piece of a version as PHP's version_compare cuts it: a run of digits
 * or a run of anything else, separated by '.', '-', '_' or '+' or by the
 * change between digits and the rest. */
typedef struct php_piece {
    const char *s;
    size_t n;
    int num;
} php_piece;

static int php_next(const char **p, php_piece *out)
{
    const char *s = *p;
    while (*s == '.' || *s == '-' || *s == '_' || *s == '+')
        s++;
    if (!*s)
        return 0;
    out->s = s;
    out->num = is_digit((unsigned char)*s);
    while (*s && *s != '.' && *s != '-' && *s != '_' && *s != '+' && is_digit((unsigned char)*s) == out->num)
        s++;
    out->n = (size_t)(s - out->s);
    *p = s;
    return 1;
}

/* PHP's special forms, in order: dev < alpha = a < beta = b < RC = rc < a
 * number < pl = p; anything else below dev. Matched by prefix as PHP does. */
static int php_form(const char *s, size_t n)
{
    static const struct {
        const char *w;
        int rank;
    } forms[] = {{"dev", 0}, {"alpha", 1}, {"a", 1}, {"beta", 2}, {"b", 2},
                 {"RC", 3},  {"rc", 3},    {"#", 4}, {"pl", 5},   {"p", 5}};
    for (size_t i = 0; i < sizeof forms / sizeof *forms; i++) {
        size_t k = strlen(forms[i].w);
        if (n >= k && !memcmp(s, forms[i].w, k))
            return forms[i].rank;
    }
    return -6;
}

static int php_piece_cmp(const php_piece *x, const php_piece *y)
{
    if (x->num && y->num)
        return num_cmp(x->s, x->n, y->s, y->n);
    int fx = x->num ? 4 : php_form(x->s, x->n), fy = y->num ? 4 : php_form(y->s, y->n);
    return fx < fy ? -1 : fx > fy;
}

int sb_vercmp_composer(const char *a, const char *b)
{
    if (NULL == a || NULL == b)
        return (NULL != a) - (NULL != b);
    /* a branch (dev-main) has no place among releases: Composer itself
     * never orders one against a version; here they sort first, by name */
    int ba = !strncmp(a, "dev-", 4), bb = !strncmp(b, "dev-", 4);
    if (ba || bb) {
        if (ba && bb) {
            int c = strcmp(a, b);
            return c < 0 ? -1 : c > 0;
        }
        return ba ? -1 : 1;
    }
    if (*a == 'v' || *a == 'V')
        a++;
    if (*b == 'v' || *b == 'V')
        b++;
    static const php_piece zero = {"0", 1, 1}, release = {"#", 1, 0};
    for (;;) {
        php_piece x, y;
        int hx = php_next(&a, &x), hy = php_next(&b, &y);
        if (!hx && !hy)
            return 0;
        /* a missing piece is 0 against a number (1.0 = 1.0.0, as Composer
         * normalizes), a release against a suffix (1.0 > 1.0-beta) */
        if (!hx)
            x = y.num ? zero : release;
        if (!hy)
            y = x.num ? zero : release;
        int c = php_piece_cmp(&x, &y);
        if (c)
            return c;
    }
}

/* ---- NuGet ---------------------------------------------------------------------- */

/* NuGet's SemVer 2 with up to four numbers (a missing one is 0, so 1.0 =
 * 1.0.0.0), release labels compared case-insensitively (numeric labels as
 * numbers, below alphanumeric ones), metadata after '+' ignored. */
typedef struct nuget_ver {
    run core[4];
    const char *pre; /* NULL: a release */
} nuget_ver;

static int nuget_parse(const char *s, nuget_ver *v)
{
    static const char zero[] = "0";
    while (*s == ' ')
        s++;
    int i = 0;
    for (; i < 4; i++) {
        v->core[i] = digits(&s);
        if (0 == v->core[i].n)
            return -1;
        if (*s != '.')
            break;
        s++;
    }
    if (i == 4)
        return -1;
    for (int k = i + 1; k < 4; k++)
        v->core[k] = (run){zero, 1};
    v->pre = NULL;
    if (pre_label(&s, &v->pre))
        return -1;
    return *s && *s != '+' ? -1 : 0;
}

int sb_vercmp_nuget(const char *a, const char *b)
{
    if (NULL == a || NULL == b)
        return (NULL != a) - (NULL != b);
    nuget_ver x, y;
    if (nuget_parse(a, &x) || nuget_parse(b, &y))
        return sb_vercmp_conda(a, b);
    for (int i = 0; i < 4; i++) {
        int c = num_cmp(x.core[i].s, x.core[i].n, y.core[i].s, y.core[i].n);
        if (c)
            return c;
    }
    return label_cmp(x.pre, y.pre, 1);
}

/* ---- Pub ------------------------------------------------------------------------ */

/* Pub's semver: SemVer 2 precedence, and then, unlike SemVer, build
 * metadata orders too (a version without it first; pub picks the higher
 * build of one release). */
int sb_vercmp_pub(const char *a, const char *b)
{
    int c = sb_vercmp_semver(a, b);
    if (c || NULL == a || NULL == b)
        return c;
    semver x, y;
    if (semver_parse(a, &x) || semver_parse(b, &y))
        return c;
    const char *ba = strchr(a, '+'), *bb = strchr(b, '+');
    if (!ba || !bb)
        return (NULL != ba) - (NULL != bb);
    return label_cmp(ba + 1, bb + 1, 0);
}

/* ---- Go modules ----------------------------------------------------------- */

/* Go's module versions are SemVer with a leading 'v'. A pseudo-version
 * (v0.0.0-20210220032951-036812b2e83c, vX.Y.(Z+1)-0.TIMESTAMP-HASH) is a
 * pre-release whose fixed-width timestamp orders it, which the SemVer order
 * already does; "+incompatible" is build metadata and does not order. A
 * version without the 'v' or with fewer than three numbers ("v1.2", which
 * go.mod never holds but users type) is completed with zeros first, as Go's
 * own comparison does. */
static const char *go_canon(const char *s, char *buf, size_t cap)
{
    const char *p = s;
    if (*p == 'v')
        p++;
    size_t dots = 0, i = 0;
    while (p[i] && p[i] != '-' && p[i] != '+') {
        if (p[i] == '.')
            dots++;
        else if (!is_digit((unsigned char)p[i]))
            return s;
        i++;
    }
    if (0 == i || dots >= 2 || strlen(p) + 8 > cap)
        return s;
    size_t o = 0;
    memcpy(buf, p, i);
    o = i;
    for (; dots < 2; dots++) {
        memcpy(buf + o, ".0", 2);
        o += 2;
    }
    strcpy(buf + o, p + i);
    return buf;
}

int sb_vercmp_go(const char *a, const char *b)
{
    if (NULL == a || NULL == b)
        return (NULL != a) - (NULL != b);
    char ba[128], bb[128];
    return sb_vercmp_semver(go_canon(a, ba, sizeof ba), go_canon(b, bb, sizeof bb));
}

/* ---- Maven (ComparableVersion) ---------------------------------------------- */

/* Maven's order: the version, lower-cased, is cut into items at '.' and
 * '-' and where digits meet letters; a '-' (or such a meeting) opens a
 * sublist. Numbers compare as numbers and above any word; words are
 * qualifiers, alpha < beta < milestone < rc (= cr) < snapshot < "" (= ga,
 * final, release) < sp < any other word (those alphabetically); a single
 * a, b or m followed by digits means alpha, beta, milestone. Trailing zeros
 * and empty qualifiers of each list are dropped ("1.0" = "1"), and a list
 * that ran out compares as a null item. The tree lives in a fixed array:
 * a version with more items than it holds falls back to the conda order. */
enum { MV_INT, MV_STR, MV_LIST, MV_MAX = 64 };

typedef struct mv_item {
    int type;
    const char *s; /* number's digits (no leading zeros) or the qualifier's rank text */
    size_t n;
    int child, next; /* first child of a list, next sibling; -1 when none */
} mv_item;

typedef struct mv_tree {
    mv_item it[MV_MAX];
    int n;
    char buf[512]; /* lower-cased copy the items point into */
} mv_tree;

static const char *const mv_quals[] = {"alpha", "beta", "milestone", "rc", "snapshot", "", "sp"};

/* The qualifier's rank as text: "0".."6" for the known ones, "7-word" else. */
static void mv_rank(const char *w, size_t n, const char **s, size_t *sn)
{
    static const char *const digits_[] = {"0", "1", "2", "3", "4", "5", "6"};
    if ((n == 2 && !memcmp(w, "ga", 2)) || (n == 5 && !memcmp(w, "final", 5)) || (n == 7 && !memcmp(w, "release", 7)))
        n = 0;
    if (n == 2 && !memcmp(w, "cr", 2))
        w = "rc";
    for (size_t i = 0; i < sizeof mv_quals / sizeof *mv_quals; i++)
        if (strlen(mv_quals[i]) == n && !memcmp(mv_quals[i], w, n)) {
            *s = digits_[i];
            *sn = 1;
            return;
        }
    *s = w - 2; /* the caller left "7-" before every word */
    *sn = n + 2;
}

static int mv_add(mv_tree *t, int list, int *last, int type, const char *s, size_t n)
{
    if (t->n >= MV_MAX)
        return -1;
    int k = t->n++;
    t->it[k] = (mv_item){type, s, n, -1, -1};
    if (type == MV_INT) {
        while (t->it[k].n > 1 && t->it[k].s[0] == '0')
            t->it[k].s++, t->it[k].n--;
    }
    if (last[list] < 0)
        t->it[list].child = k;
    else
        t->it[last[list]].next = k;
    last[list] = k;
    last[k] = -1;
    return k;
}

static int mv_is_null(const mv_tree *t, int k)
{
    const mv_item *i = &t->it[k];
    if (i->type == MV_INT)
        return i->n == 1 && i->s[0] == '0';
    if (i->type == MV_STR)
        return i->n == 1 && i->s[0] == '5';
    return i->child < 0;
}

/* Drop a list's trailing null items, looking past sublists (Maven's normalize). */
static void mv_normalize(mv_tree *t, int list)
{
    int kids[MV_MAX], nk = 0;
    for (int c = t->it[list].child; c >= 0; c = t->it[c].next)
        kids[nk++] = c;
    int keep[MV_MAX];
    for (int i = 0; i < nk; i++)
        keep[i] = 1;
    for (int i = nk - 1; i >= 0; i--) {
        if (mv_is_null(t, kids[i]))
            keep[i] = 0;
        else if (t->it[kids[i]].type != MV_LIST)
            break;
    }
    int prev = -1;
    t->it[list].child = -1;
    for (int i = 0; i < nk; i++) {
        if (!keep[i])
            continue;
        if (prev < 0)
            t->it[list].child = kids[i];
        else
            t->it[prev].next = kids[i];
        prev = kids[i];
    }
    if (prev >= 0)
        t->it[prev].next = -1;
}

/* Build the tree of `v`: 0, or -1 when it does not fit. */
static int mv_parse(mv_tree *t, const char *v)
{
    /* each word gets "7-" before it in buf, for mv_rank's unknown words */
    int last[MV_MAX], stack[MV_MAX], sp = 0;
    size_t o = 0, vn = strlen(v);
    if (vn * 4 + 8 > sizeof t->buf)
        return -1;
    t->n = 1;
    t->it[0] = (mv_item){MV_LIST, NULL, 0, -1, -1};
    last[0] = -1;
    int list = 0;
    stack[sp++] = 0;
    size_t start = 0;
    int digit = 0;
#define MV_ITEM(isnum, from, to) \
    do { \
        size_t n_ = (to) - (from); \
        if (isnum) { \
            memcpy(t->buf + o, v + (from), n_); \
            if (mv_add(t, list, last, MV_INT, t->buf + o, n_) < 0) \
                return -1; \
            o += n_; \
        } else { \
            t->buf[o++] = '7'; \
            t->buf[o++] = '-'; \
            char *w_ = t->buf + o; \
            for (size_t j_ = 0; j_ < n_; j_++) \
                w_[j_] = (char)lower((unsigned char)v[(from) + j_]); \
            o += n_; \
            const char *rs_; \
            size_t rn_; \
            mv_rank(w_, n_, &rs_, &rn_); \
            if (mv_add(t, list, last, MV_STR, rs_, rn_) < 0) \
                return -1; \
        } \
    } while (0)
#define MV_SUBLIST() \
    do { \
        int k_ = mv_add(t, list, last, MV_LIST, NULL, 0); \
        if (k_ < 0 || sp >= MV_MAX) \
            return -1; \
        list = k_; \
        stack[sp++] = k_; \
    } while (0)
    for (size_t i = 0; i < vn; i++) {
        char c = v[i];
        if (c == '.' || c == '-') {
            if (i == start) {
                if (mv_add(t, list, last, MV_INT, "0", 1) < 0)
                    return -1;
            } else {
                MV_ITEM(digit, start, i);
            }
            start = i + 1;
            if (c == '-')
                MV_SUBLIST();
        } else if (is_digit((unsigned char)c)) {
            if (!digit && i > start) {
                /* "a1", "b2", "m3": a single letter before a number */
                size_t n = i - start;
                char l1 = (char)lower((unsigned char)v[start]);
                if (n == 1 && (l1 == 'a' || l1 == 'b' || l1 == 'm')) {
                    const char *full = l1 == 'a' ? "alpha" : l1 == 'b' ? "beta" : "milestone";
                    size_t fn = strlen(full);
                    t->buf[o++] = '7';
                    t->buf[o++] = '-';
                    memcpy(t->buf + o, full, fn);
                    const char *rs;
                    size_t rn;
                    mv_rank(t->buf + o, fn, &rs, &rn);
                    o += fn;
                    if (mv_add(t, list, last, MV_STR, rs, rn) < 0)
                        return -1;
                } else {
                    MV_ITEM(0, start, i);
                }
                start = i;
                MV_SUBLIST();
            }
            digit = 1;
        } else {
            if (digit && i > start) {
                MV_ITEM(1, start, i);
                start = i;
                MV_SUBLIST();
            }
            digit = 0;
        }
    }
    if (vn > start)
        MV_ITEM(digit, start, vn);
#undef MV_ITEM
#undef MV_SUBLIST
    while (sp)
        mv_normalize(t, stack[--sp]);
    return 0;
}

static int mv_cmp(const mv_tree *x, int a, const mv_tree *y, int b);

/* item a (never null) against nothing */
static int mv_cmp_null(const mv_tree *t, int a)
{
    const mv_item *i = &t->it[a];
    if (i->type == MV_INT)
        return mv_is_null(t, a) ? 0 : 1;
    if (i->type == MV_STR) {
        int c = text_cmp(i->s, i->n, "5", 1);
        return c;
    }
    for (int c = i->child; c >= 0; c = t->it[c].next) {
        int r = mv_cmp_null(t, c);
        if (r)
            return r;
    }
    return 0;
}

static int mv_cmp(const mv_tree *x, int a, const mv_tree *y, int b)
{
    const mv_item *p = &x->it[a], *q = &y->it[b];
    switch (p->type) {
    case MV_INT: return q->type == MV_INT ? num_cmp(p->s, p->n, q->s, q->n) : 1;
    case MV_STR:
        if (q->type == MV_INT || q->type == MV_LIST)
            return -1;
        {
            size_t n = p->n < q->n ? p->n : q->n;
            int c = memcmp(p->s, q->s, n);
            return c ? (c < 0 ? -1 : 1) : p->n < q->n ? -1 : p->n > q->n;
        }
    default:
        if (q->type == MV_INT)
            return -1;
        if (q->type == MV_STR)
            return 1;
        for (int l = p->child, r = q->child; l >= 0 || r >= 0;) {
            int c = l < 0 ? -mv_cmp_null(y, r) : r < 0 ? mv_cmp_null(x, l) : mv_cmp(x, l, y, r);
            if (c)
                return c;
            l = l < 0 ? -1 : x->it[l].next;
            r = r < 0 ? -1 : y->it[r].next;
        }
        return 0;
    }
}

int sb_vercmp_maven(const char *a, const char *b)
{
    if (NULL == a || NULL == b)
        return (NULL != a) - (NULL != b);
    mv_tree x, y;
    if (mv_parse(&x, a) || mv_parse(&y, b))
        return sb_vercmp_conda(a, b);
    int c = mv_cmp(&x, 0, &y, 0);
    return c < 0 ? -1 : c > 0;
}

/* ---- Conan ------------------------------------------------------------------ */

/* Conan's version model: "<items>[-<pre>][+<build>]", the build split off
 * at the last '+', then the pre-release at the last '-' of the rest; items
 * are '.'-separated, compared as numbers when both are digits, else as
 * text; trailing zero items do not count (1.2 == 1.2.0). A pre-release is
 * older than its release only when the items are equal; pre-release and
 * build are versions themselves and compare the same way. */

typedef struct cv_part {
    const char *s;
    size_t n;
} cv_part;

static int cv_digits(const char *s, size_t n)
{
    if (0 == n)
        return 0;
    for (size_t i = 0; i < n; i++)
        if (!is_digit((unsigned char)s[i]))
            return 0;
    return 1;
}

static int cv_item_cmp(const char *a, size_t na, const char *b, size_t nb)
{
    if (cv_digits(a, na) && cv_digits(b, nb)) {
        while (na > 1 && *a == '0')
            a++, na--;
        while (nb > 1 && *b == '0')
            b++, nb--;
        if (na != nb)
            return na < nb ? -1 : 1;
        int m = memcmp(a, b, na);
        return m < 0 ? -1 : m > 0;
    }
    int m = memcmp(a, b, na < nb ? na : nb);
    return m ? (m < 0 ? -1 : 1) : na < nb ? -1 : na > nb;
}

/* the items without trailing zero items */
static size_t cv_nonzero_len(const char *s, size_t n)
{
    for (;;) {
        size_t i = n;
        while (i > 0 && s[i - 1] != '.')
            i--;
        int zero = n > i && cv_digits(s + i, n - i);
        for (size_t k = i; zero && k < n; k++)
            zero = s[k] == '0';
        if (!zero || i == 0)
            return zero && i == 0 ? 0 : n;
        n = i - 1;
    }
}

static int cv_items_cmp(const char *a, size_t na, const char *b, size_t nb)
{
    na = cv_nonzero_len(a, na);
    nb = cv_nonzero_len(b, nb);
    size_t i = 0, j = 0;
    while (i < na && j < nb) {
        size_t ea = i, eb = j;
        while (ea < na && a[ea] != '.')
            ea++;
        while (eb < nb && b[eb] != '.')
            eb++;
        int c = cv_item_cmp(a + i, ea - i, b + j, eb - j);
        if (c)
            return c;
        i = ea + 1;
        j = eb + 1;
    }
    int ra = i < na, rb = j < nb;
    return ra == rb ? 0 : ra ? 1 : -1;
}

static void cv_split(const char *s, size_t n, cv_part *items, cv_part *pre, cv_part *build)
{
    const char *plus = NULL, *dash = NULL;
    for (size_t i = n; i > 0 && !plus; i--)
        if (s[i - 1] == '+')
            plus = s + i - 1;
    size_t rest = plus ? (size_t)(plus - s) : n;
    for (size_t i = rest; i > 0 && !dash; i--)
        if (s[i - 1] == '-')
            dash = s + i - 1;
    *build = plus ? (cv_part){plus + 1, n - rest - 1} : (cv_part){NULL, 0};
    *pre = dash ? (cv_part){dash + 1, rest - (size_t)(dash - s) - 1} : (cv_part){NULL, 0};
    *items = (cv_part){s, dash ? (size_t)(dash - s) : rest};
}

static int cv_cmp(const char *a, size_t na, const char *b, size_t nb, unsigned depth);

static int cv_opt_cmp(cv_part a, cv_part b, unsigned depth)
{
    if (!a.s || !b.s)
        return (NULL != a.s) - (NULL != b.s);
    return cv_cmp(a.s, a.n, b.s, b.n, depth + 1);
}

static int cv_cmp(const char *a, size_t na, const char *b, size_t nb, unsigned depth)
{
    cv_part ia, pa, ba, ib, pb, bb;
    if (depth > 16) /* nested pre-releases of pre-releases: plain text order */
        return cv_item_cmp(a, na, b, nb);
    cv_split(a, na, &ia, &pa, &ba);
    cv_split(b, nb, &ib, &pb, &bb);
    int c = cv_items_cmp(ia.s, ia.n, ib.s, ib.n);
    if (pa.s && pb.s) {
        if (c || (c = cv_opt_cmp(pa, pb, depth)))
            return c;
        return cv_opt_cmp(ba, bb, depth);
    }
    if (pa.s || pb.s) /* one pre-release: older than its own release only */
        return c ? c : pa.s ? -1 : 1;
    return c ? c : cv_opt_cmp(ba, bb, depth);
}

int sb_vercmp_conan(const char *a, const char *b)
{
    if (NULL == a || NULL == b)
        return (NULL != a) - (NULL != b);
    return cv_cmp(a, strlen(a), b, strlen(b), 0);
}

/*
 * RubyGems' Gem::Version order. A version is its runs of digits (numbers)
 * and of letters (strings), anything else separating them; a '-' reads as
 * ".pre.", as Gem::Version does. The canonical segments drop the zeros
 * that end the leading numbers and the zeros that end the rest, so 1.0.a
 * equals 1.a and 1.0 equals 1. Then segment by segment, a missing one being
 * 0: a string sorts before a number (a string marks a prerelease), numbers
 * by value, strings by bytes.
 */
#define GEMV_SEGS 64

typedef struct gemv_seg {
    const char *s;
    size_t n;
    int num;
} gemv_seg;

static int gemv_zero(const gemv_seg *g)
{
    if (!g->num)
        return 0;
    for (size_t i = 0; i < g->n; i++)
        if (g->s[i] != '0')
            return 0;
    return 1;
}

/* The canonical segments of v (at most GEMV_SEGS: the rest of a longer
 * version is not compared). */
static size_t gemv_split(const char *v, gemv_seg *out)
{
    static const char pre[] = "pre";
    size_t n = 0;
    for (const char *c = v; *c && n < GEMV_SEGS;) {
        if (*c == '-') {
            out[n++] = (gemv_seg){pre, 3, 0};
            c++;
        } else if (*c >= '0' && *c <= '9') {
            const char *s = c;
            while (*c >= '0' && *c <= '9')
                c++;
            out[n++] = (gemv_seg){s, (size_t)(c - s), 1};
        } else if ((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z')) {
            const char *s = c;
            while ((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z'))
                c++;
            out[n++] = (gemv_seg){s, (size_t)(c - s), 0};
        } else {
            c++;
        }
    }
    /* the leading numbers, then the rest, each without its trailing zeros */
    size_t lead = 0;
    while (lead < n && out[lead].num)
        lead++;
    size_t m = lead;
    while (m && gemv_zero(&out[m - 1]))
        m--;
    size_t end = n;
    while (end > lead && gemv_zero(&out[end - 1]))
        end--;
    if (m < lead)
        memmove(&out[m], &out[lead], (end - lead) * sizeof *out);
    return m + (end - lead);
}

int sb_vercmp_gem(const char *a, const char *b)
{
    if (NULL == a || NULL == b)
        return (NULL != a) - (NULL != b);
    gemv_seg x[GEMV_SEGS], y[GEMV_SEGS];
    size_t nx = gemv_split(a, x), ny = gemv_split(b, y);
    static const gemv_seg zero = {"0", 1, 1};
    for (size_t i = 0; i < nx || i < ny; i++) {
        const gemv_seg *l = i < nx ? &x[i] : &zero, *r = i < ny ? &y[i] : &zero;
        if (l->num != r->num)
            return l->num ? 1 : -1;
        int c;
        if (l->num) {
            c = num_cmp(l->s, l->n, r->s, r->n);
        } else {
            c = memcmp(l->s, r->s, l->n < r->n ? l->n : r->n);
            c = c ? c : (l->n > r->n) - (l->n < r->n);
        }
        if (c)
            return c < 0 ? -1 : 1;
    }
    return 0;
}
