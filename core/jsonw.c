/*
 * jsonw.c - streaming JSON emitter (see jsonw.h for the contract).
 *
 * DESIGN: the stack holds, per open container, its kind and member count;
 * `want_value` marks "key written". Punctuation is emitted lazily: a container
 * opened in pretty mode writes its newline only when its first member comes, so
 * empty containers print as `{}` / `[]` like serde_json. Escaping scans for the
 * next byte that needs work and hands the clean run to the sink in one call.
 */
#include "jsonw.h"

#include <math.h>
#include <stdio.h>
#include "utf8.h"

#include <stdint.h>
#include <string.h>

/* a newline and then up to 64 spaces of indent, in one write */
static const char newline_spaces[] = "\n                                                                ";

/* One write: appended in place when the buffer has room (the common case),
 * else through the buffer's growth or the sink. 0 or -1. */
static inline int put(sb_buf *b, sb_sink sink, const char *p, size_t n)
{
    if (b) {
        if (b->len + n < b->alloc) {
            memcpy(b->data + b->len, p, n);
            b->len += n;
            b->data[b->len] = '\0';
            return 0;
        }
        return sb_buf_append(b, p, n) == SB_OK ? 0 : -1;
    }
    return n ? sink.write(sink.payload, p, n) : 0;
}

static int emit(sb_jw *jw, const char *p, size_t n)
{
    if (jw->status != SB_OK)
        return -1;
    if (put(jw->buf, jw->sink, p, n) != 0) {
        jw->status = SB_EIO;
        return -1;
    }
    return 0;
}

/* Room for n more bytes and the NUL in the writers' buffer: where they go,
 * else NULL (a sink, a failed writer, or a buffer that must grow first). */
static inline char *room(sb_jw *jw, size_t n)
{
    sb_buf *b = jw->buf;
    if (NULL == b || jw->status != SB_OK || b->len + n >= b->alloc)
        return NULL;
    return b->data + b->len;
}

static inline void wrote(sb_jw *jw, size_t n)
{
    jw->buf->len += n;
    jw->buf->data[jw->buf->len] = '\0';
}

static void newline_indent(sb_jw *jw, int depth)
{
    const size_t spaces = sizeof newline_spaces - 2; /* after the newline */
    size_t n = (size_t)depth * 2, k = n < spaces ? n : spaces;
    emit(jw, newline_spaces, 1 + k);
    for (n -= k; n; n -= k) { /* deeper than 32 levels: more spaces */
        k = n < spaces ? n : spaces;
        emit(jw, newline_spaces + 1, k);
    }
}

/* [","] newline, indent [tail] in one write when the indent fits (each write
 * goes through put and memcpy: a pretty document made three per member) */
static void newline_indent_with(sb_jw *jw, int depth, int comma, char tail)
{
    size_t n = (size_t)depth * 2;
    if (n <= 64) {
        char tmp[2 + 64 + 1];
        char *out = room(jw, sizeof tmp), *t = out ? out : tmp;
        size_t o = 0;
        if (comma)
            t[o++] = ',';
        memcpy(t + o, newline_spaces, 1 + n);
        o += 1 + n;
        if (tail)
            t[o++] = tail;
        if (out)
            wrote(jw, o);
        else
            emit(jw, tmp, o);
        return;
    }
    if (comma)
        emit(jw, ",", 1);
    newline_indent(jw, depth);
    if (tail)
        emit(jw, &tail, 1);
}

static sb_code misuse(sb_jw *jw)
{
    if (jw->status == SB_OK)
        jw->status = SB_EMISUSE;
    return jw->status;
}

/* Called before any value (scalar or container start). */
static sb_code before_value(sb_jw *jw)
{
    if (jw->status != SB_OK)
        return jw->status;
    if (jw->depth == 0) {
        if (jw->want_value)
            return misuse(jw);
        return SB_OK; /* top-level value */
    }
    char kind = jw->stack[jw->depth - 1].kind;
    if (kind == '{') {
        if (!jw->want_value)
            return misuse(jw); /* keys must come first */
        jw->want_value = false;
        return SB_OK;
    }
    /* array member */
    int comma = jw->stack[jw->depth - 1].count++ > 0;
    if (jw->pretty)
        newline_indent_with(jw, jw->depth, comma, 0);
    else if (comma)
        emit(jw, ",", 1);
    return jw->status;
}

void sb_jw_init(sb_jw *jw, sb_sink sink, bool pretty)
{
    memset(jw, 0, sizeof *jw);
    jw->sink = sink;
    jw->pretty = pretty;
}

void sb_jw_init_buf(sb_jw *jw, sb_buf *b, bool pretty)
{
    memset(jw, 0, sizeof *jw);
    jw->buf = b;
    jw->pretty = pretty;
}

static sb_code open_container(sb_jw *jw, char kind)
{
    if (before_value(jw) != SB_OK)
        return jw->status;
    if (jw->depth >= SB_JW_MAX_DEPTH)
        return misuse(jw);
    jw->stack[jw->depth].kind = kind;
    jw->stack[jw->depth].count = 0;
    jw->depth++;
    char c = kind;
    emit(jw, &c, 1);
    return jw->status;
}

static sb_code close_container(sb_jw *jw, char kind)
{
    if (jw->status != SB_OK)
        return jw->status;
    if (jw->depth == 0 || jw->stack[jw->depth - 1].kind != kind || jw->want_value)
        return misuse(jw);
    uint32_t count = jw->stack[jw->depth - 1].count;
    jw->depth--;
    char c = kind == '{' ? '}' : ']';
    if (jw->pretty && count > 0)
        newline_indent_with(jw, jw->depth, 0, c);
    else
        emit(jw, &c, 1);
    if (jw->depth == 0 && jw->pretty)
        emit(jw, "\n", 1);
    return jw->status;
}

sb_code sb_jw_obj_begin(sb_jw *jw)
{
    return open_container(jw, '{');
}
sb_code sb_jw_obj_end(sb_jw *jw)
{
    return close_container(jw, '{');
}
sb_code sb_jw_arr_begin(sb_jw *jw)
{
    return open_container(jw, '[');
}
sb_code sb_jw_arr_end(sb_jw *jw)
{
    return close_container(jw, '[');
}

static const char hexdig[] = "0123456789abcdef";

/* Does any of these 8 bytes need escaping or UTF-8 checking (a control
 * byte, '"', '\\', or >= 0x80)? Word-at-a-time zero-byte tests. */
static inline int needs_work8(const unsigned char *p)
{
    uint64_t x;
    memcpy(&x, p, 8);
    const uint64_t ones = 0x0101010101010101ull, highs = 0x8080808080808080ull;
    uint64_t q = x ^ (ones * '"'), b = x ^ (ones * '\\');
    uint64_t lt20 = (x - ones * 0x20) & ~x; /* high bit set where a byte < 0x20 (or x >= 0x80) */
    uint64_t zq = (q - ones) & ~q, zb = (b - ones) & ~b;
    return ((lt20 | zq | zb) & highs) != 0 || (x & highs) != 0;
}

/* Escape and write. `carry` holds up to 3 bytes of a UTF-8 sequence cut by
 * the previous chunk; with `final` a dangling carry becomes U+FFFD. */
static int escape(sb_buf *b, sb_sink sink, const char *str, size_t n, unsigned char *carry, size_t *ncarry, bool final)
{
    static const char replacement[] = "\xEF\xBF\xBD";
    if (carry && *ncarry) {
        /* complete the sequence cut by the previous chunk */
        unsigned char tmp[4];
        size_t oldn = *ncarry, have = oldn, take = 0;
        memcpy(tmp, carry, have);
        int len = sb_utf8_seq(tmp, have);
        while (len == -1 && take < n && have < 4) {
            tmp[have++] = (unsigned char)str[take++];
            len = sb_utf8_seq(tmp, have);
        }
        *ncarry = 0;
        if (len == -1 && !final) {
            memcpy(carry, tmp, have);
            *ncarry = have;
            return 0;
        }
        if (len > 0) {
            if (put(b, sink, (const char *)tmp, (size_t)len))
                return -1;
            take = (size_t)len - oldn;
        } else {
            if (put(b, sink, replacement, 3))
                return -1;
            take = 0;
        }
        str += take;
        n -= take;
    }
    const unsigned char *s = (const unsigned char *)str;
    size_t i = 0, run = 0;
    while (i < n) {
        /* eight plain bytes at a time: most of a document needs no escaping */
        while (i + 8 <= n && !needs_work8(s + i))
            i += 8;
        if (i >= n)
            break;
        unsigned c = s[i];
        if (c >= 0x20 && c != '"' && c != '\\' && c < 0x80) {
            i++;
            continue;
        }
        if (c >= 0x80) {
            int len = sb_utf8_seq(s + i, n - i);
            if (len > 0) {
                i += (size_t)len;
                continue;
            }
            if (i > run && put(b, sink, (const char *)s + run, i - run))
                return -1;
            if (len == -1 && carry && !final) {
                size_t rest = n - i;
                memcpy(carry, s + i, rest);
                *ncarry = rest;
                return 0;
            }
            if (put(b, sink, replacement, 3))
                return -1;
            i++;
            run = i;
            continue;
        }
        if (i > run && put(b, sink, (const char *)s + run, i - run))
            return -1;
        char esc[6];
        size_t elen = 2;
        esc[0] = '\\';
        switch (c) {
        case '"': esc[1] = '"'; break;
        case '\\': esc[1] = '\\'; break;
        case '\n': esc[1] = 'n'; break;
        case '\r': esc[1] = 'r'; break;
        case '\t': esc[1] = 't'; break;
        case '\b': esc[1] = 'b'; break;
        case '\f': esc[1] = 'f'; break;
        default:
            esc[1] = 'u';
            esc[2] = '0';
            esc[3] = '0';
            esc[4] = hexdig[c >> 4];
            esc[5] = hexdig[c & 15];
            elen = 6;
        }
        if (put(b, sink, esc, elen))
            return -1;
        i++;
        run = i;
    }
    if (i > run && put(b, sink, (const char *)s + run, i - run))
        return -1;
    return 0;
}

int sb_jw_escape_to(sb_sink sink, const char *str, size_t n, unsigned char *carry, size_t *ncarry, bool final)
{
    return escape(NULL, sink, str, n, carry, ncarry, final);
}

/* How many leading bytes of s escape() would copy as they are (eight at a
 * time, then byte by byte). */
static size_t plain_prefix(const char *s, size_t n)
{
    const unsigned char *p = (const unsigned char *)s;
    size_t i = 0;
    while (i + 8 <= n && !needs_work8(p + i))
        i += 8;
    while (i < n && p[i] >= 0x20 && p[i] < 0x80 && p[i] != '"' && p[i] != '\\')
        i++;
    return i;
}

static sb_code write_string(sb_jw *jw, const char *s, size_t n)
{
    /* the usual string (nothing to escape, room in the buffer): quotes and
     * bytes written in place, one scan, no call per piece */
    char *d = room(jw, n + 2);
    if (d && plain_prefix(s, n) == n) {
        d[0] = '"';
        memcpy(d + 1, s, n);
        d[n + 1] = '"';
        wrote(jw, n + 2);
        return SB_OK;
    }
    emit(jw, "\"", 1);
    if (jw->status == SB_OK && escape(jw->buf, jw->sink, s, n, NULL, NULL, true))
        jw->status = SB_EIO;
    emit(jw, "\"", 1);
    return jw->status;
}

sb_code sb_jw_key(sb_jw *jw, const char *key)
{
    if (jw->status != SB_OK)
        return jw->status;
    if (jw->depth == 0 || jw->stack[jw->depth - 1].kind != '{' || jw->want_value)
        return misuse(jw);
    size_t kl = strlen(key), indent = jw->pretty ? (size_t)jw->depth * 2 : 0;
    if (kl <= 64 && indent <= 64 && plain_prefix(key, kl) == kl) {
        /* the usual key (short, nothing to escape): the separator, the
         * indent, the quoted key and the colon in one write, not six; in
         * place when the buffer has room */
        char tmp[2 + 64 + 3 + 64 + 2];
        char *out = room(jw, sizeof tmp);
        char *t = out ? out : tmp;
        size_t o = 0;
        if (jw->stack[jw->depth - 1].count++ > 0)
            t[o++] = ',';
        if (jw->pretty) {
            t[o++] = '\n';
            memset(t + o, ' ', indent);
            o += indent;
        }
        t[o++] = '"';
        memcpy(t + o, key, kl);
        o += kl;
        t[o++] = '"';
        t[o++] = ':';
        if (jw->pretty)
            t[o++] = ' ';
        if (out)
            wrote(jw, o);
        else
            emit(jw, tmp, o);
        jw->want_value = true;
        return jw->status;
    }
    if (jw->stack[jw->depth - 1].count++ > 0)
        emit(jw, ",", 1);
    if (jw->pretty)
        newline_indent(jw, jw->depth);
    write_string(jw, key, kl);
    if (jw->pretty)
        emit(jw, ": ", 2);
    else
        emit(jw, ":", 1);
    jw->want_value = true;
    return jw->status;
}

static void after_top_scalar(sb_jw *jw)
{
    if (jw->depth == 0 && jw->pretty)
        emit(jw, "\n", 1);
}

sb_code sb_jw_strn(sb_jw *jw, const char *s, size_t n)
{
    if (before_value(jw) != SB_OK)
        return jw->status;
    write_string(jw, s, n);
    after_top_scalar(jw);
    return jw->status;
}

sb_code sb_jw_str(sb_jw *jw, const char *s)
{
    if (NULL == s)
        return sb_jw_null(jw);
    return sb_jw_strn(jw, s, strlen(s));
}

static sb_code write_atom(sb_jw *jw, const char *p, size_t n)
{
    if (before_value(jw) != SB_OK)
        return jw->status;
    emit(jw, p, n);
    after_top_scalar(jw);
    return jw->status;
}

sb_code sb_jw_tenths(sb_jw *jw, double v)
{
    long long t = llround(v * 10.0);
    char tmp[32];
    int n = snprintf(tmp, sizeof tmp, "%s%lld.%lld", t < 0 ? "-" : "", (t < 0 ? -t : t) / 10, (t < 0 ? -t : t) % 10);
    return write_atom(jw, tmp, (size_t)n);
}

sb_code sb_jw_int(sb_jw *jw, long long v)
{
    char tmp[24];
    size_t i = sizeof tmp;
    unsigned long long u = v < 0 ? 0ULL - (unsigned long long)v : (unsigned long long)v;
    do {
        tmp[--i] = (char)('0' + u % 10);
        u /= 10;
    } while (u);
    if (v < 0)
        tmp[--i] = '-';
    return write_atom(jw, tmp + i, sizeof tmp - i);
}

sb_code sb_jw_bool(sb_jw *jw, bool v)
{
    return v ? write_atom(jw, "true", 4) : write_atom(jw, "false", 5);
}

sb_code sb_jw_null(sb_jw *jw)
{
    return write_atom(jw, "null", 4);
}

sb_code sb_jw_str_begin(sb_jw *jw)
{
    if (before_value(jw) != SB_OK)
        return jw->status;
    jw->ncarry = 0;
    emit(jw, "\"", 1);
    return jw->status;
}

sb_code sb_jw_str_chunk(sb_jw *jw, const char *s, size_t n)
{
    if (jw->status != SB_OK)
        return jw->status;
    if (escape(jw->buf, jw->sink, s, n, jw->carry, &jw->ncarry, false))
        jw->status = SB_EIO;
    return jw->status;
}

sb_code sb_jw_str_end(sb_jw *jw)
{
    if (jw->status != SB_OK)
        return jw->status;
    if (escape(jw->buf, jw->sink, "", 0, jw->carry, &jw->ncarry, true))
        jw->status = SB_EIO;
    emit(jw, "\"", 1);
    after_top_scalar(jw);
    return jw->status;
}

bool sb_jw_done(const sb_jw *jw)
{
    return jw->status == SB_OK && jw->depth == 0 && !jw->want_value;
}
