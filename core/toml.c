/*
 * toml.c - TOML 1.0 parser: owns the grammar, the key-redefinition rules
 * and the event stream described in toml.h.
 *
 * One pass over the bytes. The only state kept besides the cursor is a key
 * tree (one node per table, array or value, hashed by parent + name) that
 * TOML's rules need: a key is defined once, a [table] once, a table made by
 * dotted keys cannot be reopened by a header, inline tables and static
 * arrays are closed once written, [[array]] appends only to arrays of tables.
 */
#include "toml.h"
#include "deadline.h"
#include "utf8.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

enum { N_TABLE, N_AOT, N_ARRAY, N_VALUE };
enum {
    F_EXPLICIT = 1, /* defined by a [header] */
    F_DOTTED = 2,   /* created by a dotted key of a key/value pair */
    F_FROZEN = 4    /* inline table: nothing may be added later */
};

typedef struct tnode {
    struct tnode *parent;
    const char *name;
    size_t nlen;
    unsigned char kind, flags;
    size_t count;       /* N_AOT: elements so far */
    struct tnode *last; /* N_AOT: the current element */
} tnode;

#define MAX_PATH 256 /* segments in an event path */
#define KEY_PARTS 64 /* parts of one dotted key */

typedef struct parser {
    sb_arena *a;
    const char *s, *p, *end;
    const char *line_start;
    unsigned line;
    const sb_limits *lim;
    sb_toml_cb cb;
    void *ud;
    sb_err *err;
    size_t nevents;
    sb_deadline dl; /* ticked per value and per line */
    unsigned depth; /* value nesting */
    /* key hash: open addressing over (parent, name) */
    tnode **slots;
    size_t nslots, nused;
    /* the path of the current event */
    sb_toml_seg path[MAX_PATH];
    size_t npath;
} parser;

/* ---- errors and positions ---- */

static unsigned col_of(const parser *ps, const char *at)
{
    return (unsigned)(at - ps->line_start) + 1;
}

#define FAIL_AT(ps, at, code, ...) sb_err_set_at((ps)->err, (code), (ps)->line, col_of((ps), (at)), __VA_ARGS__)
#define FAIL(ps, ...) FAIL_AT((ps), (ps)->p, SB_EPARSE, __VA_ARGS__)

/* ---- key tree ---- */

static uint64_t hash_key(const tnode *parent, const char *name, size_t n)
{
    uint64_t h = 1469598103934665603ULL ^ (uint64_t)(uintptr_t)parent;
    for (size_t i = 0; i < n; i++) {
        h ^= (unsigned char)name[i];
        h *= 1099511628211ULL;
    }
    return h ^ (h >> 29);
}

static tnode *find(parser *ps, const tnode *parent, const char *name, size_t n)
{
    if (0 == ps->nslots)
        return NULL;
    size_t mask = ps->nslots - 1;
    for (size_t i = hash_key(parent, name, n) & mask;; i = (i + 1) & mask) {
        tnode *t = ps->slots[i];
        if (NULL == t)
            return NULL;
        if (t->parent == parent && t->nlen == n && 0 == memcmp(t->name, name, n))
            return t;
    }
}

static int insert_slot(tnode **slots, size_t nslots, tnode *t)
{
    size_t mask = nslots - 1;
    size_t i = hash_key(t->parent, t->name, t->nlen) & mask;
    while (slots[i])
        i = (i + 1) & mask;
    slots[i] = t;
    return 0;
}

static tnode *add(parser *ps, tnode *parent, const char *name, size_t n, int kind, int flags)
{
    if ((ps->nused + 1) * 2 > ps->nslots) {
        size_t nn = ps->nslots ? ps->nslots * 2 : 64;
        tnode **ns = sb_arena_calloc(ps->a, nn, sizeof *ns);
        if (NULL == ns)
            return NULL;
        for (size_t i = 0; i < ps->nslots; i++)
            if (ps->slots[i])
                insert_slot(ns, nn, ps->slots[i]);
        ps->slots = ns;
        ps->nslots = nn;
    }
    tnode *t = sb_arena_calloc(ps->a, 1, sizeof *t);
    if (NULL == t)
        return NULL;
    t->parent = parent;
    t->name = name;
    t->nlen = n;
    t->kind = (unsigned char)kind;
    t->flags = (unsigned char)flags;
    insert_slot(ps->slots, ps->nslots, t);
    ps->nused++;
    return t;
}

/* An unnamed table: an array-of-tables element or an inline table in an array. */
static tnode *anon_table(parser *ps, tnode *parent, int flags)
{
    tnode *t = sb_arena_calloc(ps->a, 1, sizeof *t);
    if (t) {
        t->parent = parent;
        t->kind = N_TABLE;
        t->flags = (unsigned char)flags;
    }
    return t;
}

/* ---- events ---- */

static sb_code push_key(parser *ps, const char *k, size_t n)
{
    if (ps->npath >= MAX_PATH)
        return FAIL_AT(ps, ps->p, SB_ELIMIT, "keys nested deeper than %d", MAX_PATH);
    ps->path[ps->npath++] = (sb_toml_seg){k, n, 0};
    return SB_OK;
}

static sb_code push_index(parser *ps, size_t idx)
{
    if (ps->npath >= MAX_PATH)
        return FAIL_AT(ps, ps->p, SB_ELIMIT, "keys nested deeper than %d", MAX_PATH);
    ps->path[ps->npath++] = (sb_toml_seg){NULL, 0, idx};
    return SB_OK;
}

static sb_code emit(parser *ps, sb_toml_value *v, const char *at)
{
    if (++ps->nevents > ps->lim->max_events)
        return FAIL_AT(ps, at, SB_ELIMIT, "more than %zu values", ps->lim->max_events);
    if (sb_deadline_tick(&ps->dl, ps->err) != SB_OK)
        return SB_ETIMEOUT;
    v->line = ps->line;
    v->column = col_of(ps, at);
    if (NULL == ps->cb)
        return SB_OK;
    ps->err->code = SB_OK;
    sb_code rc = ps->cb(ps->ud, ps->path, ps->npath, v, ps->err);
    if (rc != SB_OK) {
        if (ps->err->code == SB_OK)
            sb_err_set(ps->err, rc, "rejected");
        if (0 == ps->err->line) {
            ps->err->line = v->line;
            ps->err->column = v->column;
        }
    }
    return rc;
}

static sb_code emit_container(parser *ps, sb_toml_type type, const char *at)
{
    sb_toml_value v = {0};
    v.type = type;
    return emit(ps, &v, at);
}

/* ---- lexing ---- */

static int at_end(const parser *ps)
{
    return ps->p >= ps->end;
}
static int peek(const parser *ps)
{
    return ps->p < ps->end ? (unsigned char)*ps->p : -1;
}
static int peek_at(const parser *ps, size_t k)
{
    return ps->p + k < ps->end ? (unsigned char)ps->p[k] : -1;
}

static void skip_ws(parser *ps)
{
    while (ps->p < ps->end && (*ps->p == ' ' || *ps->p == '\t'))
        ps->p++;
}

/* At a newline: consume it (LF or CRLF). */
static int eat_newline(parser *ps)
{
    if (peek(ps) == '\n') {
        ps->p++;
    } else if (peek(ps) == '\r' && peek_at(ps, 1) == '\n') {
        ps->p += 2;
    } else {
        return 0;
    }
    ps->line++;
    ps->line_start = ps->p;
    return 1;
}

/* Control characters TOML forbids outside of escapes (tab is allowed). */
static int is_bad_control(int c)
{
    return (c >= 0 && c < 0x20 && c != '\t') || c == 0x7F;
}

static sb_code skip_comment(parser *ps)
{
    if (peek(ps) != '#')
        return SB_OK;
    for (ps->p++; ps->p < ps->end && *ps->p != '\n'; ps->p++) {
        int c = (unsigned char)*ps->p;
        if (c == '\r' && peek_at(ps, 1) == '\n')
            break;
        if (is_bad_control(c))
            return FAIL(ps, "control character U+%04X in a comment", (unsigned)c);
    }
    return SB_OK;
}

/* Whitespace, an optional comment, then a newline or the end. */
static sb_code end_of_line(parser *ps)
{
    skip_ws(ps);
    sb_code rc = skip_comment(ps);
    if (rc != SB_OK)
        return rc;
    if (at_end(ps) || eat_newline(ps))
        return SB_OK;
    return FAIL(ps, "expected the end of the line, found '%c'", *ps->p);
}

/* Whitespace, newlines and comments (inside arrays). */
static sb_code skip_ws_nl(parser *ps)
{
    for (;;) {
        skip_ws(ps);
        sb_code rc = skip_comment(ps);
        if (rc != SB_OK)
            return rc;
        if (!eat_newline(ps))
            return SB_OK;
    }
}

/* ---- strings ---- */

typedef struct sbuf {
    char *v;
    size_t n, cap;
} sbuf;

static sb_code sbuf_put(parser *ps, sbuf *b, const char *s, size_t n)
{
    char *nv = sb_arena_reserve(ps->a, b->v, &b->cap, b->n, b->n + n + 1, 1, 64);
    if (NULL == nv)
        return sb_err_set(ps->err, SB_ENOMEM, "out of memory");
    b->v = nv;
    memcpy(b->v + b->n, s, n);
    b->n += n;
    b->v[b->n] = '\0';
    return SB_OK;
}

static size_t utf8_encode(char *o, unsigned long cp)
{
    if (cp < 0x80) {
        o[0] = (char)cp;
        return 1;
    }
    if (cp < 0x800) {
        o[0] = (char)(0xC0 | (cp >> 6));
        o[1] = (char)(0x80 | (cp & 0x3F));
        return 2;
    }
    if (cp < 0x10000) {
        o[0] = (char)(0xE0 | (cp >> 12));
        o[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
        o[2] = (char)(0x80 | (cp & 0x3F));
        return 3;
    }
    o[0] = (char)(0xF0 | (cp >> 18));
    o[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
    o[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
    o[3] = (char)(0x80 | (cp & 0x3F));
    return 4;
}

static int hexval(int c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

static sb_code escape(parser *ps, sbuf *b)
{
    const char *at = ps->p;
    ps->p++; /* backslash */
    int c = peek(ps);
    const char *r = NULL;
    switch (c) {
    case 'b': r = "\b"; break;
    case 't': r = "\t"; break;
    case 'n': r = "\n"; break;
    case 'f': r = "\f"; break;
    case 'r': r = "\r"; break;
    case '"': r = "\""; break;
    case '\\': r = "\\"; break;
    case 'u':
    case 'U': {
        int nd = c == 'u' ? 4 : 8;
        unsigned long cp = 0;
        for (int i = 1; i <= nd; i++) {
            int h = hexval(peek_at(ps, (size_t)i));
            if (h < 0)
                return FAIL_AT(ps, at, SB_EPARSE, "\\%c needs %d hex digits", c, nd);
            cp = cp * 16 + (unsigned long)h;
        }
        if (cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
            return FAIL_AT(ps, at, SB_EPARSE, "\\%c%0*lX is not a Unicode scalar value", c, nd, cp);
        char o[4];
        ps->p += (size_t)nd + 1;
        return sbuf_put(ps, b, o, utf8_encode(o, cp));
    }
    default: return FAIL_AT(ps, at, SB_EPARSE, "unknown escape sequence");
    }
    ps->p++;
    return sbuf_put(ps, b, r, 1);
}

static sb_code check_scalar_len(parser *ps, const sbuf *b, const char *start)
{
    if (b->n > ps->lim->max_scalar)
        return FAIL_AT(ps, start, SB_ELIMIT, "a string longer than %zu bytes", ps->lim->max_scalar);
    return SB_OK;
}

/* "..." or '...' (single line). */
static sb_code string_line(parser *ps, sbuf *b)
{
    const char *start = ps->p;
    char q = *ps->p++;
    b->n = 0;
    sb_code rc = sbuf_put(ps, b, "", 0);
    while (rc == SB_OK) {
        const char *run = ps->p;
        while (ps->p < ps->end && *ps->p != q && *ps->p != '\\' && !is_bad_control((unsigned char)*ps->p))
            ps->p++;
        if (ps->p > run && (rc = sbuf_put(ps, b, run, (size_t)(ps->p - run))) != SB_OK)
            return rc;
        if (at_end(ps) || *ps->p == '\n' || *ps->p == '\r')
            return FAIL_AT(ps, start, SB_EPARSE, "unterminated string");
        if (*ps->p == q) {
            ps->p++;
            return check_scalar_len(ps, b, start);
        }
        if (*ps->p == '\\' && q == '"') {
            rc = escape(ps, b);
        } else if (*ps->p == '\\') {
            rc = sbuf_put(ps, b, "\\", 1);
            ps->p++;
        } else {
            return FAIL(ps, "control character U+%04X in a string", (unsigned)(unsigned char)*ps->p);
        }
    }
    return rc;
}

/* """...""" or '''...'''. */
static sb_code string_multi(parser *ps, sbuf *b)
{
    const char *start = ps->p;
    unsigned start_line = ps->line;
    char q = *ps->p;
    ps->p += 3;
    b->n = 0;
    sb_code rc = sbuf_put(ps, b, "", 0);
    eat_newline(ps); /* a newline right after the opening is trimmed */
    while (rc == SB_OK) {
        const char *run = ps->p;
        while (ps->p < ps->end && *ps->p != q && *ps->p != '\\' && *ps->p != '\n' && *ps->p != '\r' &&
               !is_bad_control((unsigned char)*ps->p))
            ps->p++;
        if (ps->p > run && (rc = sbuf_put(ps, b, run, (size_t)(ps->p - run))) != SB_OK)
            return rc;
        if (at_end(ps)) {
            ps->line = start_line;
            return FAIL_AT(ps, start, SB_EPARSE, "unterminated multi-line string");
        }
        int c = (unsigned char)*ps->p;
        if (c == q) {
            size_t nq = 0;
            while (peek_at(ps, nq) == q)
                nq++;
            if (nq < 3) {
                rc = sbuf_put(ps, b, ps->p, nq);
                ps->p += nq;
                continue;
            }
            if (nq > 5)
                return FAIL(ps, "too many quotes closing a multi-line string");
            rc = sbuf_put(ps, b, ps->p, nq - 3);
            ps->p += nq;
            return rc == SB_OK ? check_scalar_len(ps, b, start) : rc;
        }
        if (c == '\n' || c == '\r') {
            const char *nl = ps->p;
            if (!eat_newline(ps))
                return FAIL(ps, "a carriage return not followed by a line feed");
            rc = sbuf_put(ps, b, nl, (size_t)(ps->p - nl));
        } else if (c == '\\' && q == '"') {
            /* line-ending backslash: drop whitespace and newlines up to the next text */
            const char *t = ps->p + 1;
            while (t < ps->end && (*t == ' ' || *t == '\t'))
                t++;
            if (t < ps->end && (*t == '\n' || (*t == '\r' && t + 1 < ps->end && t[1] == '\n'))) {
                ps->p = t;
                for (;;) {
                    skip_ws(ps);
                    if (!eat_newline(ps))
                        break;
                }
            } else {
                rc = escape(ps, b);
            }
        } else if (c == '\\') {
            rc = sbuf_put(ps, b, "\\", 1);
            ps->p++;
        } else {
            return FAIL(ps, "control character U+%04X in a string", (unsigned)c);
        }
    }
    return rc;
}

/* ---- keys ---- */

static int is_bare(int c)
{
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '-';
}

typedef struct keyseg {
    const char *k;
    size_t n;
    const char *at;
} keyseg;

/* A dotted key into segs (at most cap parts). */
static sb_code parse_key(parser *ps, keyseg *segs, size_t cap, size_t *nseg)
{
    *nseg = 0;
    for (;;) {
        skip_ws(ps);
        if (*nseg >= cap)
            return FAIL_AT(ps, ps->p, SB_ELIMIT, "a key with more than %zu parts", cap);
        keyseg *s = &segs[(*nseg)++];
        s->at = ps->p;
        int c = peek(ps);
        if (c == '"' || c == '\'') {
            if (peek_at(ps, 1) == c && peek_at(ps, 2) == c)
                return FAIL(ps, "a multi-line string cannot be a key");
            sbuf b = {0};
            sb_code rc = string_line(ps, &b);
            if (rc != SB_OK)
                return rc;
            s->k = b.v;
            s->n = b.n;
        } else if (is_bare(c)) {
            const char *st = ps->p;
            while (ps->p < ps->end && is_bare((unsigned char)*ps->p))
                ps->p++;
            s->n = (size_t)(ps->p - st);
            s->k = sb_arena_strndup(ps->a, st, s->n);
            if (NULL == s->k)
                return sb_err_set(ps->err, SB_ENOMEM, "out of memory");
        } else {
            return at_end(ps) || c == '\n' || c == '\r' ? FAIL(ps, "expected a key")
                                                        : FAIL(ps, "invalid character '%c' in a key", c);
        }
        skip_ws(ps);
        if (peek(ps) != '.')
            return SB_OK;
        ps->p++;
    }
}

/* ---- values ---- */

static sb_code parse_value(parser *ps, tnode *node);

static int is_digit(int c)
{
    return c >= '0' && c <= '9';
}

static int ndigits(const parser *ps, size_t off, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!is_digit(peek_at(ps, off + i)))
            return 0;
    return 1;
}

static int num2(const char *s)
{
    return (s[0] - '0') * 10 + (s[1] - '0');
}

static int days_in(int y, int m)
{
    static const int d[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    if (m == 2 && ((y % 4 == 0 && y % 100 != 0) || y % 400 == 0))
        return 29;
    return d[m - 1];
}

/* HH:MM:SS(.frac)? at ps->p, appended to b. */
static sb_code parse_time(parser *ps, sbuf *b)
{
    const char *st = ps->p;
    if (!ndigits(ps, 0, 2) || peek_at(ps, 2) != ':' || !ndigits(ps, 3, 2) || peek_at(ps, 5) != ':' ||
        !ndigits(ps, 6, 2))
        return FAIL(ps, "a time must be HH:MM:SS");
    if (num2(st) > 23 || num2(st + 3) > 59 || num2(st + 6) > 60)
        return FAIL(ps, "time out of range");
    ps->p += 8;
    if (peek(ps) == '.') {
        ps->p++;
        if (!is_digit(peek(ps)))
            return FAIL(ps, "digits expected after the decimal point of a time");
        while (is_digit(peek(ps)))
            ps->p++;
    }
    return sbuf_put(ps, b, st, (size_t)(ps->p - st));
}

static sb_code parse_datetime(parser *ps, sb_toml_value *v)
{
    sbuf b = {0};
    sb_code rc;
    const char *st = ps->p;
    if (peek_at(ps, 2) == ':') {
        if ((rc = parse_time(ps, &b)) != SB_OK)
            return rc;
        v->type = SB_TOML_TIME_LOCAL;
    } else {
        /* YYYY-MM-DD */
        if (!ndigits(ps, 0, 4) || peek_at(ps, 4) != '-' || !ndigits(ps, 5, 2) || peek_at(ps, 7) != '-' ||
            !ndigits(ps, 8, 2))
            return FAIL(ps, "a date must be YYYY-MM-DD");
        int y = atoi(st), m = num2(st + 5), d = num2(st + 8);
        if (m < 1 || m > 12 || d < 1 || d > days_in(y, m))
            return FAIL(ps, "date out of range");
        ps->p += 10;
        if ((rc = sbuf_put(ps, &b, st, 10)) != SB_OK)
            return rc;
        v->type = SB_TOML_DATE_LOCAL;
        int sep = peek(ps);
        if ((sep == 'T' || sep == 't' || sep == ' ') && ndigits(ps, 1, 2) && peek_at(ps, 3) == ':') {
            ps->p++;
            if ((rc = sbuf_put(ps, &b, "T", 1)) != SB_OK || (rc = parse_time(ps, &b)) != SB_OK)
                return rc;
            v->type = SB_TOML_DATETIME_LOCAL;
            int z = peek(ps);
            if (z == 'Z' || z == 'z') {
                ps->p++;
                rc = sbuf_put(ps, &b, "Z", 1);
                v->type = SB_TOML_DATETIME;
            } else if (z == '+' || z == '-') {
                if (!ndigits(ps, 1, 2) || peek_at(ps, 3) != ':' || !ndigits(ps, 4, 2))
                    return FAIL(ps, "a time offset must be +HH:MM");
                if (num2(ps->p + 1) > 23 || num2(ps->p + 4) > 59)
                    return FAIL(ps, "time offset out of range");
                rc = sbuf_put(ps, &b, ps->p, 6);
                ps->p += 6;
                v->type = SB_TOML_DATETIME;
            }
            if (rc != SB_OK)
                return rc;
        }
    }
    v->str = b.v;
    v->len = b.n;
    return SB_OK;
}

/* Digits with single underscores between them; returns count of digits. */
static size_t digit_run(parser *ps, int (*ok)(int), sbuf *clean)
{
    size_t n = 0;
    while (ok(peek(ps))) {
        sbuf_put(ps, clean, ps->p, 1);
        ps->p++;
        n++;
        if (peek(ps) == '_') {
            if (!ok(peek_at(ps, 1)))
                return 0;
            ps->p++;
        }
    }
    return n;
}

static int is_hex(int c)
{
    return hexval(c) >= 0;
}
static int is_oct(int c)
{
    return c >= '0' && c <= '7';
}
static int is_bin(int c)
{
    return c == '0' || c == '1';
}

static int ends_value(int c)
{
    return c < 0 || c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == ',' || c == ']' || c == '}' || c == '#';
}

static sb_code parse_number(parser *ps, sb_toml_value *v)
{
    const char *st = ps->p;
    sbuf clean = {0};
    sbuf_put(ps, &clean, "", 0);
    int sign = peek(ps);
    if (sign == '+' || sign == '-') {
        sbuf_put(ps, &clean, ps->p, 1);
        ps->p++;
    }
    /* inf / nan */
    if (ps->end - ps->p >= 3 && (!memcmp(ps->p, "inf", 3) || !memcmp(ps->p, "nan", 3))) {
        int inf = ps->p[0] == 'i';
        ps->p += 3;
        if (!ends_value(peek(ps)))
            return FAIL_AT(ps, st, SB_EPARSE, "invalid number");
        v->type = SB_TOML_FLOAT;
        v->f = inf ? (sign == '-' ? -INFINITY : INFINITY) : NAN;
        v->str = sb_arena_strndup(ps->a, st, (size_t)(ps->p - st));
        v->len = (size_t)(ps->p - st);
        return SB_OK;
    }
    if (peek(ps) == '0' && (peek_at(ps, 1) == 'x' || peek_at(ps, 1) == 'o' || peek_at(ps, 1) == 'b')) {
        if (sign == '+' || sign == '-')
            return FAIL_AT(ps, st, SB_EPARSE, "a sign is not allowed on hex, octal or binary integers");
        int base = ps->p[1] == 'x' ? 16 : ps->p[1] == 'o' ? 8 : 2;
        ps->p += 2;
        clean.n = 0;
        size_t nd = digit_run(ps, base == 16 ? is_hex : base == 8 ? is_oct : is_bin, &clean);
        if (0 == nd || !ends_value(peek(ps)))
            return FAIL_AT(ps, st, SB_EPARSE, "invalid integer");
        errno = 0;
        unsigned long long u = strtoull(clean.v, NULL, base);
        if (errno || u > (unsigned long long)INT64_MAX)
            return FAIL_AT(ps, st, SB_EPARSE, "integer out of range");
        v->type = SB_TOML_INTEGER;
        v->i = (long long)u;
    } else {
        const char *int_start = ps->p;
        size_t nd = digit_run(ps, is_digit, &clean);
        if (0 == nd)
            return FAIL_AT(ps, st, SB_EPARSE, "invalid number");
        if (*int_start == '0' && nd > 1)
            return FAIL_AT(ps, st, SB_EPARSE, "leading zeros are not allowed");
        int is_float = 0;
        if (peek(ps) == '.') {
            sbuf_put(ps, &clean, ".", 1);
            ps->p++;
            if (0 == digit_run(ps, is_digit, &clean))
                return FAIL_AT(ps, st, SB_EPARSE, "digits expected after the decimal point");
            is_float = 1;
        }
        if (peek(ps) == 'e' || peek(ps) == 'E') {
            sbuf_put(ps, &clean, "e", 1);
            ps->p++;
            if (peek(ps) == '+' || peek(ps) == '-') {
                sbuf_put(ps, &clean, ps->p, 1);
                ps->p++;
            }
            if (0 == digit_run(ps, is_digit, &clean))
                return FAIL_AT(ps, st, SB_EPARSE, "digits expected in the exponent");
            is_float = 1;
        }
        if (!ends_value(peek(ps)))
            return FAIL_AT(ps, st, SB_EPARSE, "invalid number");
        errno = 0;
        if (is_float) {
            v->type = SB_TOML_FLOAT;
            v->f = strtod(clean.v, NULL);
            if (errno == ERANGE && isinf(v->f))
                return FAIL_AT(ps, st, SB_EPARSE, "float out of range");
        } else {
            v->type = SB_TOML_INTEGER;
            v->i = strtoll(clean.v, NULL, 10);
            if (errno == ERANGE)
                return FAIL_AT(ps, st, SB_EPARSE, "integer out of range");
        }
    }
    v->str = sb_arena_strndup(ps->a, st, (size_t)(ps->p - st));
    v->len = (size_t)(ps->p - st);
    return v->str ? SB_OK : sb_err_set(ps->err, SB_ENOMEM, "out of memory");
}

static sb_code enter(parser *ps)
{
    if (++ps->depth > ps->lim->max_depth)
        return FAIL_AT(ps, ps->p, SB_ELIMIT, "values nested deeper than %u", ps->lim->max_depth);
    return SB_OK;
}

static sb_code parse_array(parser *ps, tnode *node)
{
    const char *at = ps->p;
    sb_code rc = enter(ps);
    if (rc != SB_OK || (rc = emit_container(ps, SB_TOML_ARRAY, at)) != SB_OK)
        return rc;
    ps->p++;
    size_t idx = 0;
    for (;;) {
        if ((rc = skip_ws_nl(ps)) != SB_OK)
            return rc;
        if (peek(ps) == ']') {
            ps->p++;
            break;
        }
        if (at_end(ps))
            return FAIL_AT(ps, at, SB_EPARSE, "unterminated array");
        if ((rc = push_key(ps, NULL, 0)) != SB_OK)
            return rc;
        ps->path[ps->npath - 1].index = idx++;
        rc = parse_value(ps, node);
        ps->npath--;
        if (rc != SB_OK || (rc = skip_ws_nl(ps)) != SB_OK)
            return rc;
        if (peek(ps) == ',') {
            ps->p++;
            continue;
        }
        if (peek(ps) == ']') {
            ps->p++;
            break;
        }
        return at_end(ps) ? FAIL_AT(ps, at, SB_EPARSE, "unterminated array")
                          : FAIL(ps, "expected ',' or ']' in an array");
    }
    ps->depth--;
    return SB_OK;
}

static sb_code keyval(parser *ps, tnode *table);

static sb_code parse_inline_table(parser *ps, tnode *node)
{
    const char *at = ps->p;
    sb_code rc = enter(ps);
    if (rc != SB_OK || (rc = emit_container(ps, SB_TOML_TABLE, at)) != SB_OK)
        return rc;
    ps->p++;
    skip_ws(ps);
    if (peek(ps) == '}') {
        ps->p++;
    } else {
        for (;;) {
            if ((rc = keyval(ps, node)) != SB_OK)
                return rc;
            skip_ws(ps);
            if (peek(ps) == ',') {
                ps->p++;
                skip_ws(ps);
                if (peek(ps) == '}')
                    return FAIL(ps, "a trailing comma is not allowed in an inline table");
                continue;
            }
            if (peek(ps) == '}') {
                ps->p++;
                break;
            }
            return FAIL(ps, at_end(ps) || peek(ps) == '\n' || peek(ps) == '\r'
                                ? "an inline table must end on the line it starts"
                                : "expected ',' or '}' in an inline table");
        }
    }
    node->flags |= F_FROZEN;
    ps->depth--;
    return SB_OK;
}

/* A value for `node` (already in the tree: N_VALUE, or an anonymous slot in
 * an array whose tables get their own nodes). */
static sb_code parse_value(parser *ps, tnode *node)
{
    sb_toml_value v = {0};
    const char *at = ps->p;
    int c = peek(ps);
    sb_code rc;
    if (c == '"' || c == '\'') {
        sbuf b = {0};
        rc = peek_at(ps, 1) == c && peek_at(ps, 2) == c ? string_multi(ps, &b) : string_line(ps, &b);
        if (rc != SB_OK)
            return rc;
        v.type = SB_TOML_STRING;
        v.str = b.v;
        v.len = b.n;
    } else if (c == '[') {
        if (node->kind == N_VALUE)
            node->kind = N_ARRAY;
        return parse_array(ps, node);
    } else if (c == '{') {
        tnode *t = node;
        if (node->kind == N_VALUE) {
            node->kind = N_TABLE;
        } else { /* an inline table inside an array */
            t = anon_table(ps, node, 0);
            if (NULL == t)
                return sb_err_set(ps->err, SB_ENOMEM, "out of memory");
        }
        return parse_inline_table(ps, t);
    } else if (c == 't' && ps->end - ps->p >= 4 && !memcmp(ps->p, "true", 4) && ends_value(peek_at(ps, 4))) {
        ps->p += 4;
        v.type = SB_TOML_BOOL;
        v.b = true;
    } else if (c == 'f' && ps->end - ps->p >= 5 && !memcmp(ps->p, "false", 5) && ends_value(peek_at(ps, 5))) {
        ps->p += 5;
        v.type = SB_TOML_BOOL;
    } else if (is_digit(c) &&
               ((ndigits(ps, 0, 4) && peek_at(ps, 4) == '-') || (ndigits(ps, 0, 2) && peek_at(ps, 2) == ':'))) {
        if ((rc = parse_datetime(ps, &v)) != SB_OK)
            return rc;
        if (!ends_value(peek(ps)))
            return FAIL_AT(ps, at, SB_EPARSE, "invalid date or time");
    } else if (is_digit(c) || c == '+' || c == '-' || c == 'i' || c == 'n') {
        if ((rc = parse_number(ps, &v)) != SB_OK)
            return rc;
    } else if (at_end(ps) || c == '\n' || c == '\r' || c == '#') {
        return FAIL(ps, "a value is missing");
    } else {
        return FAIL(ps, "invalid value");
    }
    return emit(ps, &v, at);
}

/* key = value, relative to `table`. */
static sb_code keyval(parser *ps, tnode *table)
{
    keyseg segs[KEY_PARTS];
    size_t nseg = 0;
    sb_code rc = parse_key(ps, segs, KEY_PARTS, &nseg);
    if (rc != SB_OK)
        return rc;
    size_t base = ps->npath;
    tnode *t = table;
    for (size_t i = 0; i + 1 < nseg; i++) {
        tnode *c = find(ps, t, segs[i].k, segs[i].n);
        if (NULL == c) {
            c = add(ps, t, segs[i].k, segs[i].n, N_TABLE, F_DOTTED);
            if (NULL == c)
                return sb_err_set(ps->err, SB_ENOMEM, "out of memory");
            if ((rc = push_key(ps, segs[i].k, segs[i].n)) != SB_OK ||
                (rc = emit_container(ps, SB_TOML_TABLE, segs[i].at)) != SB_OK)
                return rc;
        } else if (c->kind != N_TABLE || !(c->flags & F_DOTTED) || (c->flags & F_FROZEN)) {
            return FAIL_AT(ps, segs[i].at, SB_EPARSE, "key '%.100s' is already defined and cannot be extended",
                           segs[i].k);
        } else if ((rc = push_key(ps, segs[i].k, segs[i].n)) != SB_OK) {
            return rc;
        }
        t = c;
    }
    keyseg *last = &segs[nseg - 1];
    if (find(ps, t, last->k, last->n))
        return FAIL_AT(ps, last->at, SB_EPARSE, "duplicate key '%.100s'", last->k);
    tnode *leaf = add(ps, t, last->k, last->n, N_VALUE, 0);
    if (NULL == leaf)
        return sb_err_set(ps->err, SB_ENOMEM, "out of memory");
    if ((rc = push_key(ps, last->k, last->n)) != SB_OK)
        return rc;
    skip_ws(ps);
    if (peek(ps) != '=')
        return FAIL(ps, "expected '=' after a key");
    ps->p++;
    skip_ws(ps);
    rc = parse_value(ps, leaf);
    ps->npath = base;
    return rc;
}

/* [a.b.c] or [[a.b.c]]; returns the table that key/value pairs go into. */
static sb_code header(parser *ps, tnode *root, tnode **cur)
{
    const char *at = ps->p;
    int aot = peek_at(ps, 1) == '[';
    ps->p += aot ? 2 : 1;
    keyseg segs[KEY_PARTS];
    size_t nseg = 0;
    sb_code rc = parse_key(ps, segs, KEY_PARTS, &nseg);
    if (rc != SB_OK)
        return rc;
    if (peek(ps) != ']' || (aot && peek_at(ps, 1) != ']'))
        return FAIL(ps,
                    aot ? "expected ']]' to close an array-of-tables header" : "expected ']' to close a table header");
    ps->p += aot ? 2 : 1;
    ps->npath = 0;
    tnode *t = root;
    for (size_t i = 0; i < nseg; i++) {
        int final = i + 1 == nseg;
        tnode *c = find(ps, t, segs[i].k, segs[i].n);
        if ((rc = push_key(ps, segs[i].k, segs[i].n)) != SB_OK)
            return rc;
        if (NULL == c) {
            c = add(ps, t, segs[i].k, segs[i].n, final && aot ? N_AOT : N_TABLE, final ? F_EXPLICIT : 0);
            if (NULL == c)
                return sb_err_set(ps->err, SB_ENOMEM, "out of memory");
            if ((rc = emit_container(ps, final && aot ? SB_TOML_ARRAY : SB_TOML_TABLE, segs[i].at)) != SB_OK)
                return rc;
        } else if (c->flags & F_FROZEN) {
            return FAIL_AT(ps, segs[i].at, SB_EPARSE, "'%.100s' is an inline table and cannot be extended", segs[i].k);
        } else if (final && aot) {
            if (c->kind != N_AOT)
                return FAIL_AT(ps, segs[i].at, SB_EPARSE, "'%.100s' is already defined and is not an array of tables",
                               segs[i].k);
        } else if (final) {
            if (c->kind != N_TABLE || (c->flags & (F_EXPLICIT | F_DOTTED)))
                return FAIL_AT(ps, segs[i].at, SB_EPARSE, "table '%.100s' is already defined", segs[i].k);
            c->flags |= F_EXPLICIT;
        } else if (c->kind == N_VALUE || c->kind == N_ARRAY) {
            return FAIL_AT(ps, segs[i].at, SB_EPARSE, "key '%.100s' is a value, not a table", segs[i].k);
        }
        if (c->kind == N_AOT) {
            if (final) {
                tnode *el = anon_table(ps, c, F_EXPLICIT);
                if (NULL == el)
                    return sb_err_set(ps->err, SB_ENOMEM, "out of memory");
                c->last = el;
                c->count++;
            }
            if ((rc = push_index(ps, c->count - 1)) != SB_OK)
                return rc;
            if (final && (rc = emit_container(ps, SB_TOML_TABLE, at)) != SB_OK)
                return rc;
            c = c->last;
        }
        t = c;
    }
    *cur = t;
    return end_of_line(ps);
}

sb_code sb_toml_parse(sb_arena *a, const char *data, size_t len, const sb_limits *lim, sb_toml_cb cb, void *ud,
                      sb_err *err)
{
    static const sb_limits defaults = SB_LIMITS_DEFAULT;
    parser ps = {0};
    ps.a = a;
    ps.s = ps.p = ps.line_start = data;
    ps.end = data + len;
    ps.line = 1;
    ps.lim = lim ? lim : &defaults;
    ps.cb = cb;
    ps.ud = ud;
    ps.err = err;
    ps.dl = (sb_deadline){ps.lim->deadline_ns, 0, "reading the lockfile"};
    /* UTF-8 first, so every later message can quote the input */
    for (size_t i = 0; i < len;) {
        int n = sb_utf8_seq((const unsigned char *)data + i, len - i);
        if (n <= 0) {
            unsigned line = 1;
            const char *ls = data;
            for (size_t j = 0; j < i; j++)
                if (data[j] == '\n') {
                    line++;
                    ls = data + j + 1;
                }
            return sb_err_set_at(err, SB_EPARSE, line, (unsigned)(data + i - ls) + 1, "invalid UTF-8");
        }
        i += (size_t)n;
    }
    if (len >= 3 && !memcmp(data, "\xEF\xBB\xBF", 3)) /* a byte order mark is not content */
        ps.p = ps.line_start = data + 3;
    tnode *root = anon_table(&ps, NULL, F_EXPLICIT);
    if (NULL == root)
        return sb_err_set(err, SB_ENOMEM, "out of memory");
    tnode *cur = root;
    sb_code rc = SB_OK;
    while (rc == SB_OK && (rc = sb_deadline_tick(&ps.dl, err)) == SB_OK) {
        skip_ws(&ps);
        if (at_end(&ps))
            break;
        int c = peek(&ps);
        if (c == '#' || c == '\n' || c == '\r')
            rc = end_of_line(&ps);
        else if (c == '[')
            rc = header(&ps, root, &cur);
        else {
            size_t base = ps.npath;
            rc = keyval(&ps, cur);
            ps.npath = base;
            if (rc == SB_OK)
                rc = end_of_line(&ps);
        }
    }
    return rc;
}
