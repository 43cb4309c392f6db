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
    if (*s == '-') {
        v->pre = ++s;
        if (!*s || *s == '+')
            return -1;
        while (*s && *s != '+') {
            if (!is_digit((unsigned char)*s) && !is_alpha((unsigned char)*s) && *s != '-' && *s != '.')
                return -1;
            s++;
        }
    }
    if (*s == '+')
        return s[1] ? 0 : -1; /* build metadata does not order */
    return *s ? -1 : 0;
}

static int semver_pre_cmp(const char *a, const char *b)
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
            int m = memcmp(a, b, na < nb ? na : nb);
            c = m ? (m < 0 ? -1 : 1) : na < nb ? -1 : na > nb;
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
    return semver_pre_cmp(x.pre, y.pre);
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
