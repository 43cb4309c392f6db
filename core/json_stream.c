/*
 * json_stream.c - the pull tokenizer of json_stream.h: a small state machine
 * over the input bytes. It owns no memory; the only copies it makes are the
 * strings a caller asks for (sb_jr_str).
 */
#include "json_stream.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
    ST_VALUE,          /* a value must come */
    ST_VALUE_OR_CLOSE, /* just after '[' */
    ST_KEY,            /* after ',' in an object */
    ST_KEY_OR_CLOSE,   /* just after '{' */
    ST_AFTER,          /* a value ended: ',' or the container's end (or the text's) */
    ST_DONE,           /* the top value ended */
    ST_FAILED
};

static void setup(sb_jr *r, const char *data, size_t len, size_t offset, unsigned max_depth)
{
    memset(r, 0, sizeof *r);
    r->base = data;
    r->p = data + offset;
    r->end = data + len;
    r->max_depth = max_depth && max_depth < SB_JR_MAX_DEPTH ? max_depth : SB_JR_MAX_DEPTH;
    r->state = ST_VALUE;
}

void sb_jr_init(sb_jr *r, const char *data, size_t len, unsigned max_depth)
{
    setup(r, data, len, 0, max_depth);
}

void sb_jr_init_at(sb_jr *r, const char *data, size_t len, size_t offset, unsigned max_depth)
{
    setup(r, data, len, offset <= len ? offset : len, max_depth);
}

static sb_jt fail(sb_jr *r, const char *at, const char *what)
{
    r->state = ST_FAILED;
    r->errpos = (size_t)(at - r->base);
    snprintf(r->msg, sizeof r->msg, "%s", what);
    return SB_JT_ERROR;
}

void sb_jr_jsonc(sb_jr *r)
{
    r->jsonc = true;
}

/* Past a comment at r->p, if one starts there; false when none does. */
static bool skip_comment(sb_jr *r)
{
    if (r->end - r->p < 2 || r->p[0] != '/' || (r->p[1] != '/' && r->p[1] != '*'))
        return false;
    if (r->p[1] == '/') {
        const char *nl = memchr(r->p, '\n', (size_t)(r->end - r->p));
        r->p = nl ? nl : r->end;
    } else {
        const char *e = r->end - r->p > 2 ? memmem(r->p + 2, (size_t)(r->end - r->p - 2), "*/", 2) : NULL;
        r->p = e ? e + 2 : r->end;
    }
    return true;
}

static void skip_ws(sb_jr *r)
{
    for (;;) {
        while (r->p < r->end && (*r->p == ' ' || *r->p == '\n' || *r->p == '\r' || *r->p == '\t'))
            r->p++;
        if (!r->jsonc || !skip_comment(r))
            return;
    }
}

static bool in_object(const sb_jr *r)
{
    unsigned d = r->depth - 1;
    return r->stack[d / 8] & (1u << (d % 8));
}

static sb_jt push(sb_jr *r, bool object)
{
    if (r->depth >= r->max_depth) {
        r->too_deep = true;
        char m[64];
        snprintf(m, sizeof m, "nesting deeper than %u", r->max_depth);
        return fail(r, r->p, m);
    }
    unsigned d = r->depth++;
    if (object)
        r->stack[d / 8] |= (unsigned char)(1u << (d % 8));
    else
        r->stack[d / 8] &= (unsigned char)~(1u << (d % 8));
    r->tok = r->p;
    r->tlen = 1;
    r->tpos = (size_t)(r->p - r->base);
    r->p++;
    r->state = object ? ST_KEY_OR_CLOSE : ST_VALUE_OR_CLOSE;
    return object ? SB_JT_OBJ : SB_JT_ARR;
}

static sb_jt pop(sb_jr *r)
{
    bool object = in_object(r);
    r->depth--;
    r->tok = r->p;
    r->tlen = 1;
    r->tpos = (size_t)(r->p - r->base);
    r->p++;
    r->state = ST_AFTER;
    return object ? SB_JT_OBJ_END : SB_JT_ARR_END;
}

static int hexval(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

/* four hex digits at s (which has at least 4 bytes), or -1 */
static long hex4(const char *s)
{
    long v = 0;
    for (int i = 0; i < 4; i++) {
        int h = hexval(s[i]);
        if (h < 0)
            return -1;
        v = v * 16 + h;
    }
    return v;
}

/* The length of the well-formed UTF-8 sequence at s (lead byte >= 0x80),
 * 0 when it is not one (overlong, surrogate, past U+10FFFF, truncated). */
static size_t utf8_len(const unsigned char *s, const unsigned char *end)
{
    unsigned char c = s[0];
    size_t n;
    unsigned lo = 0x80, hi = 0xBF;
    if (c >= 0xC2 && c <= 0xDF)
        n = 2;
    else if (c >= 0xE0 && c <= 0xEF) {
        n = 3;
        if (c == 0xE0)
            lo = 0xA0;
        if (c == 0xED)
            hi = 0x9F;
    } else if (c >= 0xF0 && c <= 0xF4) {
        n = 4;
        if (c == 0xF0)
            lo = 0x90;
        if (c == 0xF4)
            hi = 0x8F;
    } else
        return 0;
    if ((size_t)(end - s) < n || s[1] < lo || s[1] > hi)
        return 0;
    for (size_t i = 2; i < n; i++)
        if (s[i] < 0x80 || s[i] > 0xBF)
            return 0;
    return n;
}

/* A string from its opening quote at r->p: checked, not decoded. */
static sb_jt string(sb_jr *r, sb_jt kind)
{
    const char *q = r->p;
    const char *s = q + 1;
    bool esc = false;
    for (;;) {
        if (s >= r->end)
            return fail(r, s, "unexpected end of input in a string");
        unsigned char c = (unsigned char)*s;
        if (c == '"')
            break;
        if (c < 0x20)
            return fail(r, s, "control character in a string");
        if (c >= 0x80) {
            size_t n = utf8_len((const unsigned char *)s, (const unsigned char *)r->end);
            if (0 == n)
                return fail(r, s, "invalid UTF-8 in a string");
            s += n;
            continue;
        }
        if (c != '\\') {
            s++;
            continue;
        }
        esc = true;
        if (s + 1 >= r->end)
            return fail(r, s, "unexpected end of input in a string");
        char e = s[1];
        if (strchr("\"\\/bfnrt", e) && e) {
            s += 2;
            continue;
        }
        if (e != 'u')
            return fail(r, s, "invalid escape in a string");
        if (r->end - s < 6)
            return fail(r, s, "unexpected end of input in a string");
        long u = hex4(s + 2);
        if (u < 0)
            return fail(r, s, "invalid \\u escape in a string");
        if (0 == u)
            return fail(r, s, "\\u0000 is not allowed in a string");
        if (u >= 0xDC00 && u <= 0xDFFF)
            return fail(r, s, "a lone low surrogate in a string");
        if (u >= 0xD800 && u <= 0xDBFF) {
            long lo = r->end - s >= 12 && s[6] == '\\' && s[7] == 'u' ? hex4(s + 8) : -1;
            if (lo < 0xDC00 || lo > 0xDFFF)
                return fail(r, s, "a high surrogate without its low half in a string");
            s += 12;
            continue;
        }
        s += 6;
    }
    r->tok = q + 1;
    r->tlen = (size_t)(s - q - 1);
    r->tpos = (size_t)(q - r->base);
    r->escaped = esc;
    r->p = s + 1;
    return kind;
}

static bool digit(const char *s, const char *end)
{
    return s < end && *s >= '0' && *s <= '9';
}

static sb_jt number(sb_jr *r)
{
    const char *s = r->p, *e = r->end;
    bool integer = true;
    if (s < e && *s == '-')
        s++;
    if (!digit(s, e))
        return fail(r, s, "invalid number");
    if (*s == '0')
        s++;
    else
        while (digit(s, e))
            s++;
    if (s < e && *s == '.') {
        integer = false;
        if (!digit(++s, e))
            return fail(r, s, "invalid number: a digit must follow '.'");
        while (digit(s, e))
            s++;
    }
    if (s < e && (*s == 'e' || *s == 'E')) {
        integer = false;
        s++;
        if (s < e && (*s == '+' || *s == '-'))
            s++;
        if (!digit(s, e))
            return fail(r, s, "invalid number: a digit must follow the exponent");
        while (digit(s, e))
            s++;
    }
    r->tok = r->p;
    r->tlen = (size_t)(s - r->p);
    r->tpos = (size_t)(r->p - r->base);
    r->integer = integer;
    r->p = s;
    r->state = ST_AFTER;
    return SB_JT_NUM;
}

static sb_jt literal(sb_jr *r, const char *word, sb_jt kind)
{
    size_t n = strlen(word);
    if ((size_t)(r->end - r->p) < n || memcmp(r->p, word, n))
        return fail(r, r->p, "invalid literal");
    r->tok = r->p;
    r->tlen = n;
    r->tpos = (size_t)(r->p - r->base);
    r->p += n;
    r->state = ST_AFTER;
    return kind;
}

static sb_jt value(sb_jr *r)
{
    if (r->p >= r->end)
        return fail(r, r->p, "unexpected end of input: a value must follow");
    switch (*r->p) {
    case '{': return push(r, true);
    case '[': return push(r, false);
    case '"': {
        sb_jt t = string(r, SB_JT_STR);
        if (t == SB_JT_STR)
            r->state = ST_AFTER;
        return t;
    }
    case 't': return literal(r, "true", SB_JT_TRUE);
    case 'f': return literal(r, "false", SB_JT_FALSE);
    case 'n': return literal(r, "null", SB_JT_NULL);
    default:
        if (*r->p == '-' || (*r->p >= '0' && *r->p <= '9'))
            return number(r);
        return fail(r, r->p, "unexpected character: a value must follow");
    }
}

static sb_jt key(sb_jr *r)
{
    if (r->p >= r->end)
        return fail(r, r->p, "unexpected end of input: an object key must follow");
    if (*r->p != '"')
        return fail(r, r->p, "an object key (a string) must follow");
    sb_jt t = string(r, SB_JT_KEY);
    if (t != SB_JT_KEY)
        return t;
    skip_ws(r);
    if (r->p >= r->end)
        return fail(r, r->p, "unexpected end of input: ':' must follow a key");
    if (*r->p != ':')
        return fail(r, r->p, "':' must follow an object key");
    r->p++;
    r->state = ST_VALUE;
    return SB_JT_KEY;
}

sb_jt sb_jr_next(sb_jr *r)
{
    for (;;) {
        skip_ws(r);
        switch (r->state) {
        case ST_FAILED: return SB_JT_ERROR;
        case ST_DONE:
            if (r->p < r->end)
                return fail(r, r->p, "data after the end of the JSON value");
            return SB_JT_END;
        case ST_VALUE: return value(r);
        case ST_VALUE_OR_CLOSE:
            if (r->p < r->end && *r->p == ']')
                return pop(r);
            return value(r);
        case ST_KEY: return key(r);
        case ST_KEY_OR_CLOSE:
            if (r->p < r->end && *r->p == '}')
                return pop(r);
            return key(r);
        case ST_AFTER:
            if (0 == r->depth) {
                r->state = ST_DONE;
                continue;
            }
            if (r->p >= r->end)
                return fail(r, r->p,
                            in_object(r) ? "unexpected end of input: ',' or '}' must follow"
                                         : "unexpected end of input: ',' or ']' must follow");
            if (*r->p == ',') {
                r->p++;
                /* JSONC's trailing comma: the container may end here; these
                 * states never outlive this call, so sb_jr_skip's reading of
                 * them as "just opened" still holds */
                if (r->jsonc)
                    r->state = in_object(r) ? ST_KEY_OR_CLOSE : ST_VALUE_OR_CLOSE;
                else
                    r->state = in_object(r) ? ST_KEY : ST_VALUE;
                continue;
            }
            if (*r->p == (in_object(r) ? '}' : ']'))
                return pop(r);
            return fail(r, r->p,
                        in_object(r) ? "',' or '}' must follow an object member"
                                     : "',' or ']' must follow an array item");
        }
        return fail(r, r->p, "tokenizer in an unknown state");
    }
}

bool sb_jr_skip(sb_jr *r, size_t *members)
{
    size_t n = 0;
    if (members)
        *members = 0;
    if (r->state == ST_FAILED)
        return false;
    /* just after '{' or '[' the state says which; anything else was a scalar */
    if (r->state != ST_KEY_OR_CLOSE && r->state != ST_VALUE_OR_CLOSE)
        return true;
    bool obj = r->state == ST_KEY_OR_CLOSE;
    unsigned floor = r->depth - 1;
    for (;;) {
        unsigned d = r->depth;
        sb_jt t = sb_jr_next(r);
        if (t == SB_JT_ERROR || t == SB_JT_END)
            return false; /* END cannot come inside a container */
        if (r->depth == floor && (t == SB_JT_OBJ_END || t == SB_JT_ARR_END))
            break;
        /* a member of the skipped container: a key in an object, a value
         * starting at its level in an array */
        if (d == floor + 1 && (obj ? t == SB_JT_KEY : t != SB_JT_OBJ_END && t != SB_JT_ARR_END))
            n++;
    }
    if (members)
        *members = n;
    return true;
}

size_t sb_jr_decode(const sb_jr *r, char *out)
{
    return sb_json_decode(r->tok, r->tlen, r->escaped, out);
}

size_t sb_json_decode(const char *s, size_t n, bool escaped, char *out)
{
    const char *e = s + n;
    size_t k = 0;
    if (!escaped) {
        memcpy(out, s, n);
        out[n] = '\0';
        return n;
    }
    while (s < e) {
        if (*s != '\\') {
            out[k++] = *s++;
            continue;
        }
        char c = s[1];
        s += 2;
        switch (c) {
        case 'b': out[k++] = '\b'; continue;
        case 'f': out[k++] = '\f'; continue;
        case 'n': out[k++] = '\n'; continue;
        case 'r': out[k++] = '\r'; continue;
        case 't': out[k++] = '\t'; continue;
        case 'u': break;
        default: out[k++] = c; continue; /* " \ / */
        }
        /* checked by string(): four hex digits, a high surrogate has its low half */
        unsigned long u = (unsigned long)hex4(s);
        s += 4;
        if (u >= 0xD800 && u <= 0xDBFF) {
            unsigned long lo = (unsigned long)hex4(s + 2);
            s += 6;
            u = 0x10000 + ((u - 0xD800) << 10) + (lo - 0xDC00);
        }
        if (u < 0x80)
            out[k++] = (char)u;
        else if (u < 0x800) {
            out[k++] = (char)(0xC0 | (u >> 6));
            out[k++] = (char)(0x80 | (u & 0x3F));
        } else if (u < 0x10000) {
            out[k++] = (char)(0xE0 | (u >> 12));
            out[k++] = (char)(0x80 | ((u >> 6) & 0x3F));
            out[k++] = (char)(0x80 | (u & 0x3F));
        } else {
            out[k++] = (char)(0xF0 | (u >> 18));
            out[k++] = (char)(0x80 | ((u >> 12) & 0x3F));
            out[k++] = (char)(0x80 | ((u >> 6) & 0x3F));
            out[k++] = (char)(0x80 | (u & 0x3F));
        }
    }
    out[k] = '\0';
    return k;
}

char *sb_jr_str(const sb_jr *r, sb_arena *a)
{
    if (!r->escaped)
        return sb_arena_strndup(a, r->tok, r->tlen);
    char *o = sb_arena_stralloc(a, r->tlen + 1);
    if (o)
        sb_jr_decode(r, o);
    return o;
}

bool sb_jr_is(const sb_jr *r, const char *lit)
{
    size_t n = strlen(lit);
    if (!r->escaped)
        return r->tlen == n && 0 == memcmp(r->tok, lit, n);
    /* an escape takes at most 6 bytes per decoded byte (\u0041): a longer
     * text cannot decode to a 40-byte literal */
    char buf[6 * 40 + 1];
    if (r->tlen >= sizeof buf)
        return false;
    size_t k = sb_jr_decode(r, buf);
    return k == n && 0 == memcmp(buf, lit, n);
}

bool sb_jr_int(const sb_jr *r, long long *out)
{
    if (!r->integer || r->tlen > 24)
        return false;
    char buf[32];
    memcpy(buf, r->tok, r->tlen);
    buf[r->tlen] = '\0';
    errno = 0;
    char *end;
    long long v = strtoll(buf, &end, 10);
    if (errno || *end)
        return false;
    *out = v;
    return true;
}

void sb_jr_pos(const sb_jr *r, size_t offset, unsigned *line, unsigned *col)
{
    unsigned ln = 1;
    size_t start = 0;
    for (size_t i = 0; i < offset && r->base + i < r->end; i++)
        if (r->base[i] == '\n') {
            ln++;
            start = i + 1;
        }
    *line = ln;
    *col = (unsigned)(offset - start + 1);
}

sb_code sb_jr_error(const sb_jr *r, sb_err *err, const char *what)
{
    unsigned line, col;
    sb_jr_pos(r, r->errpos, &line, &col);
    return sb_err_set_at(err, r->too_deep ? SB_ELIMIT : SB_EPARSE, line, col, "%s: %s", what,
                         r->msg[0] ? r->msg : "malformed JSON");
}
