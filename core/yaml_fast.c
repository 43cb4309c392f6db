/*
 * yaml_fast.c - the block YAML the lockfile tools write, a line at a time,
 * into libyaml's own events (see yaml_fast.h for the subset and the hand-over
 * to libyaml).
 *
 * What libyaml does that this must do the same way, because a reader may
 * place an error at any event:
 *  - marks: a collection starts at its first key or '-', a scalar at its
 *    first character (a quoted one at its quote); a block collection ends at
 *    the first character of the line that ends it, or - at the end of the
 *    input - at the start of the line after the last one; a key with nothing
 *    after it on its line and nothing nested under it has an empty plain
 *    scalar at the column after its ':'.
 *  - a sequence may sit at its key's own indentation (an "indentless"
 *    sequence); it ends at the next line at that indentation that is not an
 *    entry.
 *  - a plain scalar ends at " #" or the line's end, less trailing spaces; a
 *    line more indented than its block after a value would continue that
 *    scalar (or be an error): such input is not handled here.
 */
#include "yaml_fast.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef struct mk {
    size_t index;
    unsigned line, col;
} mk;

/* A scalar on the line: where its value is and what follows it. */
typedef struct tok {
    const char *start; /* first character (the quote of a quoted one) */
    const char *v;     /* value */
    size_t n;
    unsigned char style, esc;
    unsigned char key; /* a ':' that makes it a mapping key follows */
    const char *after; /* past the ':' of a key */
} tok;

/* Every byte printable ASCII or '\n' (no tab, CR, control or non-ASCII
 * byte: those inputs are libyaml's), eight at a time. */
static int printable(const char *s, size_t n)
{
    const uint64_t ones = 0x0101010101010101ull, highs = 0x8080808080808080ull;
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        uint64_t x;
        memcpy(&x, s + i, 8);
        /* a byte at or over 0x7f; under 0x0a; over 0x0a and under 0x20 */
        uint64_t low7 = x & ones * 127;
        uint64_t bad = ((x + ones) | x) | ((x - ones * 0x0a) & ~x) |
                       ((ones * (127 + 0x20) - low7) & ~x & (low7 + ones * (127 - 0x0a)));
        if (bad & highs)
            return 0;
    }
    for (; i < n; i++)
        if (((unsigned char)s[i] < 0x20 && s[i] != '\n') || (unsigned char)s[i] > 0x7e)
            return 0;
    return 1;
}

int sb_yf_init(sb_yf *f, const char *data, size_t len, size_t from, size_t to)
{
    memset(f, 0, offsetof(sb_yf, st));
    f->nst = f->qh = f->qn = f->qsafe = 0;
    f->buf = NULL;
    f->cap = 0;
    f->in = data;
    f->len = len;
    f->gap_from = f->gap_to = SIZE_MAX;
    if (from < to && from < len) {
        if (from > 0 && data[from - 1] != '\n')
            return 0;
        if (to > len)
            to = len;
        f->gap_from = from;
        f->gap_to = to;
        for (const char *p = data + from, *e = data + to; (p = memchr(p, '\n', (size_t)(e - p))) != NULL; p++)
            f->gap_nl++;
    }
    /* libyaml checks its bytes a buffer at a time, before the events they
     * hold: a bad byte anywhere must reach it before any event does */
    if (!printable(data, from < to && from < len ? from : len))
        return 0;
    return from < to && to < len ? printable(data + to, len - to) : 1;
}

void sb_yf_free(sb_yf *f)
{
    free(f->buf);
    f->buf = NULL;
    f->cap = 0;
}

static mk mark_at(const sb_yf *f, const char *s, const char *p)
{
    size_t pos = (size_t)(p - f->in);
    mk m = {pos, f->line, (unsigned)(p - s)};
    if (pos >= f->gap_from)
        m.index = pos - (f->gap_to - f->gap_from) + f->gap_nl;
    return m;
}

static sb_yf_ev *add(sb_yf *f, yaml_event_type_t t, mk m)
{
    sb_yf_ev *e = &f->q[f->qn++];
    e->type = t;
    e->style = 0;
    e->esc = 0;
    e->index = m.index;
    e->line = m.line;
    e->col = m.col;
    e->v = NULL;
    e->n = 0;
    return e;
}

#define ONES 0x0101010101010101ull
#define HIGHS 0x8080808080808080ull

/* Some byte of x is c. */
static inline uint64_t has_byte(uint64_t x, unsigned char c)
{
    uint64_t v = x ^ (ONES * c);
    return (v - ONES) & ~v & HIGHS;
}

/* One scalar at p (not a space), the line ending at e. 0: not in the subset
 * (an indicator, a quote not closed on the line, an escape, text after a
 * quoted scalar). */
static int scan_scalar(const char *p, const char *e, tok *t)
{
    char c = *p;
    t->start = p;
    t->esc = 0;
    t->key = 0;
    if (c == '\'' || c == '"') {
        const char *q = p + 1;
        for (;;) {
            q = memchr(q, c, (size_t)(e - q));
            if (NULL == q)
                return 0; /* continues on the next line */
            if (c == '\'' && q + 1 < e && q[1] == '\'') {
                t->esc = 1;
                q += 2;
                continue;
            }
            break;
        }
        t->v = p + 1;
        t->n = (size_t)(q - p - 1);
        if (c == '"' && memchr(t->v, '\\', t->n))
            return 0;
        t->style = c == '\'' ? YAML_SINGLE_QUOTED_SCALAR_STYLE : YAML_DOUBLE_QUOTED_SCALAR_STYLE;
        p = q + 1;
        const char *sp = p;
        while (p < e && *p == ' ')
            p++;
        if (p < e && *p == ':' && (p + 1 == e || p[1] == ' ')) {
            t->key = 1;
            t->after = p + 1;
            return 1;
        }
        if (p == e || (*p == '#' && p > sp)) {
            t->after = e;
            return 1;
        }
        return 0;
    }
    switch (c) {
    case '-':
    case '?':
    case ':':
        if (p + 1 == e || p[1] == ' ')
            return 0;
        break;
    case ',':
    case '[':
    case ']':
    case '{':
    case '}':
    case '#':
    case '&':
    case '*':
    case '!':
    case '|':
    case '>':
    case '%':
    case '@':
    case '`': return 0;
    default: break;
    }
    /* to the next ':' or ' ' (the only bytes that can end a plain scalar
     * on its line), eight bytes at a time */
    const char *q = p, *end = e;
    for (;;) {
        while (q + 8 <= e) {
            uint64_t x;
            memcpy(&x, q, 8);
            if (has_byte(x, ':') | has_byte(x, ' '))
                break;
            q += 8;
        }
        while (q < e && *q != ':' && *q != ' ')
            q++;
        if (q == e)
            break;
        if (*q == ':') {
            if (q + 1 == e || q[1] == ' ') {
                t->key = 1;
                t->after = q + 1;
                end = q;
                break;
            }
        } else if (q + 1 < e && q[1] == '#') {
            end = q;
            break;
        }
        q++;
    }
    while (end > p && end[-1] == ' ')
        end--;
    t->v = p;
    t->n = (size_t)(end - p);
    t->style = YAML_PLAIN_SCALAR_STYLE;
    if (!t->key)
        t->after = e;
    return 1;
}

static void add_scalar(sb_yf *f, const char *s, const tok *t)
{
    sb_yf_ev *ev = add(f, YAML_SCALAR_EVENT, mark_at(f, s, t->start));
    ev->style = t->style;
    ev->esc = t->esc;
    ev->v = t->v;
    ev->n = t->n;
}

/* "[]" or "{}" and nothing but a comment after it. */
static int flow_empty(sb_yf *f, const char *s, const char *p, const char *e)
{
    char close = *p == '[' ? ']' : '}';
    if (p + 1 >= e || p[1] != close)
        return 0;
    const char *q = p + 2;
    while (q < e && *q == ' ')
        q++;
    if (q < e && !(*q == '#' && q > p + 2))
        return 0;
    int seq = *p == '[';
    sb_yf_ev *a = add(f, seq ? YAML_SEQUENCE_START_EVENT : YAML_MAPPING_START_EVENT, mark_at(f, s, p));
    a->style = seq ? YAML_FLOW_SEQUENCE_STYLE : YAML_FLOW_MAPPING_STYLE;
    add(f, seq ? YAML_SEQUENCE_END_EVENT : YAML_MAPPING_END_EVENT, mark_at(f, s, p + 1));
    return 1;
}

/* A key (already scanned) and its value, the rest of the line. */
static int key_value(sb_yf *f, const char *s, const tok *k, const char *e)
{
    if (k->after - k->start > 1000)
        return 0; /* libyaml's simple keys end at 1024 characters */
    add_scalar(f, s, k);
    const char *p = k->after;
    while (p < e && *p == ' ')
        p++;
    if (p == e || *p == '#') {
        /* nothing on this line: what follows says what the value is */
        f->await = 1;
        mk m = mark_at(f, s, k->after);
        f->await_ev = (sb_yf_ev){YAML_SCALAR_EVENT, YAML_PLAIN_SCALAR_STYLE, 0, m.index, m.line, m.col, "", 0};
        return 1;
    }
    if (*p == '[' || *p == '{')
        return flow_empty(f, s, p, e);
    tok v;
    if (!scan_scalar(p, e, &v) || v.key)
        return 0;
    add_scalar(f, s, &v);
    return 1;
}

static int push(sb_yf *f, int map, int indent, int indentless, mk m)
{
    if (f->nst == SB_YF_DEPTH)
        return 0;
    f->st[f->nst].map = (unsigned char)map;
    f->st[f->nst].indent = indent;
    f->st[f->nst].indentless = (unsigned char)indentless;
    f->nst++;
    sb_yf_ev *ev = add(f, map ? YAML_MAPPING_START_EVENT : YAML_SEQUENCE_START_EVENT, m);
    ev->style = map ? YAML_BLOCK_MAPPING_STYLE : YAML_BLOCK_SEQUENCE_STYLE;
    return 1;
}

/* One line with content: s its start, e its end (the '\n' or the input's). */
static int do_line(sb_yf *f, const char *s, const char *e)
{
    const char *p = s;
    while (*p == ' ')
        p++;
    int n = (int)(p - s);
    if (n == 0 && e - p >= 3 && (!memcmp(p, "---", 3) || !memcmp(p, "...", 3)) && (e - p == 3 || p[3] == ' '))
        return 0; /* document markers */
    int entry = *p == '-' && (p + 1 == e || p[1] == ' ');
    mk m = mark_at(f, s, p);
    if (!f->started) {
        add(f, YAML_STREAM_START_EVENT, (mk){0, 0, 0});
        add(f, YAML_DOCUMENT_START_EVENT, m);
        f->started = 1;
        f->await = 1; /* the document's root */
    }
    if (f->await) {
        int top = f->nst ? f->st[f->nst - 1].indent : -1;
        f->await = 0;
        if (n > top) {
            if (!entry) {
                tok k;
                if (!scan_scalar(p, e, &k) || !k.key || !push(f, 1, n, 0, m))
                    return 0;
                return key_value(f, s, &k, e);
            }
            if (!push(f, 0, n, 0, m))
                return 0;
        } else if (entry && n == top && f->st[f->nst - 1].map) {
            if (!push(f, 0, n, 1, m))
                return 0;
        } else {
            if (f->nst == 0)
                return 0;
            f->q[f->qn++] = f->await_ev;
        }
    }
    while (f->nst) {
        int ti = f->st[f->nst - 1].indent;
        if (ti > n || (ti == n && f->st[f->nst - 1].indentless && !entry)) {
            add(f, f->st[f->nst - 1].map ? YAML_MAPPING_END_EVENT : YAML_SEQUENCE_END_EVENT, m);
            f->nst--;
        } else
            break;
    }
    if (f->nst == 0 || f->st[f->nst - 1].indent != n || f->st[f->nst - 1].map == entry)
        return 0;
    tok k;
    if (!entry) {
        if (!scan_scalar(p, e, &k) || !k.key)
            return 0;
        return key_value(f, s, &k, e);
    }
    /* "- " and the entry's node */
    p++;
    while (p < e && *p == ' ')
        p++;
    if (p == e || *p == '#')
        return 0; /* an entry on the lines below */
    if (*p == '[' || *p == '{')
        return flow_empty(f, s, p, e);
    if (!scan_scalar(p, e, &k))
        return 0;
    if (!k.key) {
        add_scalar(f, s, &k);
        return 1;
    }
    /* "- key: value": a mapping at the key's column */
    if (!push(f, 1, (int)(p - s), 0, mark_at(f, s, p)))
        return 0;
    return key_value(f, s, &k, e);
}

/* The end of the input, as libyaml's stream end: the blocks more indented
 * than the last line's length (trailing spaces count) end where the input
 * does; then it forces a line break, and the rest end at the start of the
 * line after (so does the document, so does the stream). */
static int finish(sb_yf *f)
{
    if (!f->started || f->nst == 0)
        return 0;
    size_t len = f->len, index = len, tail = 0; /* tail: the last line's length in the stream */
    if (f->gap_from != SIZE_MAX)
        index = len - (f->gap_to - f->gap_from) + f->gap_nl;
    if (!(f->gap_from != SIZE_MAX && f->gap_to == len)) {
        size_t from = f->gap_from != SIZE_MAX ? f->gap_to : 0, i = len;
        while (i > from && f->in[i - 1] != '\n')
            i--;
        tail = len - i;
    }
    if (f->await)
        f->q[f->qn++] = f->await_ev;
    f->await = 0;
    mk m = {index, f->line, (unsigned)tail};
    while (f->nst && f->st[f->nst - 1].indent > (int)tail) {
        add(f, f->st[f->nst - 1].map ? YAML_MAPPING_END_EVENT : YAML_SEQUENCE_END_EVENT, m);
        f->nst--;
    }
    if (tail) {
        m.line++;
        m.col = 0;
    }
    while (f->nst) {
        add(f, f->st[f->nst - 1].map ? YAML_MAPPING_END_EVENT : YAML_SEQUENCE_END_EVENT, m);
        f->nst--;
    }
    add(f, YAML_DOCUMENT_END_EVENT, m);
    add(f, YAML_STREAM_END_EVENT, m);
    f->ended = 1;
    return 1;
}

/* Make more events deliverable, from the next line with content (or the
 * end). A line's events become deliverable only once the next line with
 * content has been read too: libyaml looks a token ahead (a scalar that
 * could be a key needs the next token to tell) and fails on that token
 * before it gives the event, and a plain scalar goes on on a more indented
 * next line. So when that next line leaves the subset, the line before it is
 * libyaml's to give as well. */
static int fill(sb_yf *f)
{
    if (f->qh) {
        memmove(f->q, f->q + f->qh, (f->qn - f->qh) * sizeof f->q[0]);
        f->qn -= f->qh;
        f->qsafe -= f->qh;
        f->qh = 0;
    }
    while (f->qsafe == 0) {
        if (f->ended)
            return 0;
        if (f->pos == f->gap_from) {
            f->line += (unsigned)f->gap_nl;
            f->pos = f->gap_to;
        }
        if (f->pos >= f->len) {
            if (!finish(f))
                return 0;
            f->qsafe = f->qn;
            break;
        }
        size_t lim = f->pos < f->gap_from ? (f->gap_from < f->len ? f->gap_from : f->len) : f->len;
        const char *s = f->in + f->pos, *end = f->in + lim;
        const char *q = s;
        while (q < end && *q == ' ')
            q++;
        int blank = q == end || *q == '\n' || *q == '#';
        q = memchr(q, '\n', (size_t)(end - q));
        if (NULL == q)
            q = end;
        if (q == end && lim < f->len)
            return 0; /* a gap that does not start a line */
        if (!blank) {
            unsigned before = f->qn;
            if (!do_line(f, s, q))
                return 0;
            f->qsafe = before;
        }
        /* a line without its break ends the input: the line count stays */
        f->pos = (size_t)(q - f->in) + (q < end);
        if (q < end)
            f->line++;
    }
    return 1;
}

static int set_scalar(sb_yf *f, const sb_yf_ev *e, yaml_event_t *ev)
{
    if (e->n + 1 > f->cap) {
        size_t cap = f->cap ? f->cap : 256;
        while (cap < e->n + 1)
            cap *= 2;
        char *b = realloc(f->buf, cap);
        if (NULL == b)
            return 0;
        f->buf = b;
        f->cap = cap;
    }
    size_t n = e->n;
    if (e->esc) {
        size_t o = 0;
        for (size_t i = 0; i < e->n; i++) {
            f->buf[o++] = e->v[i];
            if (e->v[i] == '\'')
                i++; /* '' is one quote */
        }
        n = o;
    } else
        memcpy(f->buf, e->v, n);
    f->buf[n] = '\0';
    ev->data.scalar.anchor = NULL;
    ev->data.scalar.tag = NULL;
    ev->data.scalar.value = (yaml_char_t *)f->buf;
    ev->data.scalar.length = n;
    ev->data.scalar.plain_implicit = e->style == YAML_PLAIN_SCALAR_STYLE;
    ev->data.scalar.quoted_implicit = e->style != YAML_PLAIN_SCALAR_STYLE;
    ev->data.scalar.style = (yaml_scalar_style_t)e->style;
    return 1;
}

int sb_yf_next(sb_yf *f, yaml_event_t *ev)
{
    if (f->qh == f->qsafe && !fill(f))
        return SB_YF_OTHER;
    const sb_yf_ev *e = &f->q[f->qh];
    memset(ev, 0, sizeof *ev);
    ev->type = e->type;
    ev->start_mark.index = ev->end_mark.index = e->index;
    ev->start_mark.line = ev->end_mark.line = e->line;
    ev->start_mark.column = ev->end_mark.column = e->col;
    switch (e->type) {
    case YAML_SCALAR_EVENT:
        if (!set_scalar(f, e, ev))
            return SB_YF_NOMEM;
        break;
    case YAML_STREAM_START_EVENT: ev->data.stream_start.encoding = YAML_UTF8_ENCODING; break;
    case YAML_DOCUMENT_START_EVENT: ev->data.document_start.implicit = 1; break;
    case YAML_DOCUMENT_END_EVENT: ev->data.document_end.implicit = 1; break;
    case YAML_SEQUENCE_START_EVENT:
        ev->data.sequence_start.implicit = 1;
        ev->data.sequence_start.style = (yaml_sequence_style_t)e->style;
        break;
    case YAML_MAPPING_START_EVENT:
        ev->data.mapping_start.implicit = 1;
        ev->data.mapping_start.style = (yaml_mapping_style_t)e->style;
        break;
    default: break;
    }
    f->qh++;
    return SB_YF_EVENT;
}
