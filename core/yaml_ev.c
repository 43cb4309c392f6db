/*
 * yaml_ev.c - the YAML event loop with limits (see yaml_ev.h): events from
 * yaml_fast.c while it can, from libyaml after.
 */
#include "yaml_ev.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* libyaml's read handler for sb_yp_open_gap: the input with the gap's bytes
 * other than '\n' left out. */
static int gap_read(void *arg, unsigned char *buf, size_t size, size_t *got)
{
    sb_yp *y = arg;
    size_t n = 0;
    while (n < size && y->gap_pos < y->gap_len) {
        if (y->gap_pos < y->gap_from || y->gap_pos >= y->gap_to) {
            size_t end = y->gap_pos < y->gap_from ? y->gap_from : y->gap_len;
            size_t k = end - y->gap_pos < size - n ? end - y->gap_pos : size - n;
            memcpy(buf + n, y->gap_data + y->gap_pos, k);
            n += k;
            y->gap_pos += k;
            continue;
        }
        const char *nl = memchr(y->gap_data + y->gap_pos, '\n', y->gap_to - y->gap_pos);
        if (NULL == nl) {
            y->gap_pos = y->gap_to;
            continue;
        }
        buf[n++] = '\n';
        y->gap_pos = (size_t)(nl - y->gap_data) + 1;
    }
    *got = n;
    return 1;
}

/* libyaml from here: when the fast path hands over, it re-reads the input
 * and skips the events the reader already has (the same ones). */
static sb_code lib_start(sb_yp *y);

static sb_code open_any(sb_yp *y, sb_arena *a, const char *data, size_t len, size_t from, size_t to, int gap,
                        const sb_limits *lim, sb_err *err)
{
    memset(y, 0, sizeof *y);
    y->arena = a;
    y->err = err;
    y->lim = lim;
    y->dl = (sb_deadline){lim ? lim->deadline_ns : 0, 0, "reading the lockfile"};
    y->in = data;
    y->in_len = len;
    if (gap) {
        y->gap_data = data;
        y->gap_len = len;
        y->gap_from = from;
        y->gap_to = to;
        y->in = NULL; /* reader errors are placed in the stream libyaml reads */
    }
    y->yf = malloc(sizeof *y->yf);
    if (y->yf && sb_yf_init(y->yf, data, len, gap ? from : 0, gap ? to : 0))
        return SB_OK;
    free(y->yf);
    y->yf = NULL;
    return lib_start(y);
}

sb_code sb_yp_open(sb_yp *y, sb_arena *a, const char *data, size_t len, const sb_limits *lim, sb_err *err)
{
    return open_any(y, a, data, len, 0, 0, 0, lim, err);
}

sb_code sb_yp_open_piece(sb_yp *y, sb_arena *a, const char *data, size_t len, unsigned line0, const sb_limits *lim,
                         sb_err *err)
{
    sb_code rc = sb_yp_open(y, a, data, len, lim, err);
    y->line0 = line0;
    return rc;
}

sb_code sb_yp_open_gap(sb_yp *y, sb_arena *a, const char *data, size_t len, size_t from, size_t to,
                       const sb_limits *lim, sb_err *err)
{
    return open_any(y, a, data, len, from, to, 1, lim, err);
}

void sb_yp_close(sb_yp *y)
{
    if (y->have_ev == 1)
        yaml_event_delete(&y->ev);
    y->have_ev = 0;
    if (y->yf) {
        sb_yf_free(y->yf);
        free(y->yf);
        y->yf = NULL;
    }
    if (y->lib)
        yaml_parser_delete(&y->parser);
    y->lib = 0;
}

sb_code sb_yp_fail(sb_yp *y, sb_code code, const char *fmt, ...)
{
    char msg[200];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    unsigned line = y->have_ev ? sb_yp_line(y) : 0, col = y->have_ev ? sb_yp_col(y) : 0;
    return sb_err_set_at(y->err, code, line, col, "%s", msg);
}

static sb_code lib_error(sb_yp *y)
{
    const char *problem = y->parser.problem ? y->parser.problem : "invalid YAML";
    yaml_mark_t m = y->parser.problem_mark;
    if (y->parser.error == YAML_MEMORY_ERROR)
        return sb_err_set(y->err, SB_ENOMEM, "out of memory parsing YAML");
    if (y->parser.error == YAML_READER_ERROR && y->in && y->parser.problem_offset <= y->in_len) {
        /* libyaml gives a reader error (invalid UTF-8, a control
         * character) as a byte offset and no mark: place it */
        m.line = m.column = 0;
        for (size_t i = 0; i < y->parser.problem_offset; i++) {
            if (y->in[i] == '\n')
                m.line++, m.column = 0;
            else if (((unsigned char)y->in[i] & 0xC0) != 0x80)
                m.column++; /* characters, not continuation bytes */
        }
    }
    return sb_err_set_at(y->err, SB_EPARSE, y->line0 + (unsigned)m.line + 1, (unsigned)m.column + 1,
                         "invalid YAML: %s%s%s", problem, y->parser.context ? " " : "",
                         y->parser.context ? y->parser.context : "");
}

static sb_code lib_start(sb_yp *y)
{
    if (!yaml_parser_initialize(&y->parser))
        return sb_err_set(y->err, SB_ENOMEM, "cannot initialize the YAML parser");
    y->lib = 1;
    if (y->gap_data)
        yaml_parser_set_input(&y->parser, gap_read, y);
    else
        yaml_parser_set_input_string(&y->parser, (const unsigned char *)y->in, y->in_len);
    for (size_t i = 0; i < y->given; i++) {
        yaml_event_t ev;
        if (!yaml_parser_parse(&y->parser, &ev))
            return lib_error(y);
        yaml_event_delete(&ev);
        /* a long prefix is libyaml's whole cost again: keep the deadline */
        if (sb_deadline_tick(&y->dl, y->err) != SB_OK)
            return SB_ETIMEOUT;
    }
    return SB_OK;
}

sb_code sb_yp_next(sb_yp *y)
{
    if (y->have_ev == 1)
        yaml_event_delete(&y->ev);
    y->have_ev = 0;
    if (y->yf) {
        int r = sb_yf_next(y->yf, &y->ev);
        if (r == SB_YF_NOMEM)
            return sb_err_set(y->err, SB_ENOMEM, "out of memory parsing YAML");
        if (r == SB_YF_EVENT) {
            y->given++;
            y->have_ev = 2;
        } else {
            sb_yf_free(y->yf);
            free(y->yf);
            y->yf = NULL;
            sb_code rc = lib_start(y);
            if (rc != SB_OK)
                return rc;
        }
    }
    if (y->have_ev == 0) {
        if (!yaml_parser_parse(&y->parser, &y->ev))
            return lib_error(y);
        y->have_ev = 1;
    }
    if (sb_deadline_tick(&y->dl, y->err) != SB_OK)
        return SB_ETIMEOUT;
    if (++y->events > y->lim->max_events)
        return sb_yp_fail(y, SB_ELIMIT, "the YAML input has more than %zu events", y->lim->max_events);
    switch (y->ev.type) {
    case YAML_ALIAS_EVENT: return sb_yp_fail(y, SB_EUNSUPPORTED, "YAML aliases are not accepted in lockfiles");
    case YAML_SEQUENCE_START_EVENT:
    case YAML_MAPPING_START_EVENT:
        if (++y->depth > y->lim->max_depth)
            return sb_yp_fail(y, SB_ELIMIT, "YAML nesting deeper than %u levels", y->lim->max_depth);
        break;
    case YAML_SEQUENCE_END_EVENT:
    case YAML_MAPPING_END_EVENT: y->depth--; break;
    case YAML_SCALAR_EVENT:
        if (y->ev.data.scalar.length > y->lim->max_scalar)
            return sb_yp_fail(y, SB_ELIMIT, "a YAML scalar is longer than %zu bytes", y->lim->max_scalar);
        if (memchr(y->ev.data.scalar.value, '\0', y->ev.data.scalar.length))
            return sb_yp_fail(y, SB_EPARSE, "a YAML scalar contains a NUL character");
        break;
    default: break;
    }
    return SB_OK;
}

static const char *type_name(yaml_event_type_t t)
{
    switch (t) {
    case YAML_SCALAR_EVENT: return "a scalar";
    case YAML_SEQUENCE_START_EVENT: return "a sequence";
    case YAML_MAPPING_START_EVENT: return "a mapping";
    default: return "something else";
    }
}

sb_code sb_yp_expect(sb_yp *y, yaml_event_type_t t, const char *what)
{
    if (y->ev.type == t)
        return SB_OK;
    return sb_yp_fail(y, SB_EPARSE, "%s must be %s, found %s", what, type_name(t), type_name(y->ev.type));
}

static int is_null_scalar(const sb_yp *y)
{
    if (y->ev.data.scalar.style != YAML_PLAIN_SCALAR_STYLE)
        return 0;
    const char *v = (const char *)y->ev.data.scalar.value;
    size_t n = y->ev.data.scalar.length;
    return n == 0 || (n == 1 && v[0] == '~') ||
           (n == 4 && (!strcmp(v, "null") || !strcmp(v, "Null") || !strcmp(v, "NULL")));
}

sb_code sb_yp_peek(sb_yp *y, const char **out, const char *what)
{
    sb_code rc = sb_yp_expect(y, YAML_SCALAR_EVENT, what);
    if (rc != SB_OK)
        return rc;
    *out = is_null_scalar(y) ? NULL : (const char *)y->ev.data.scalar.value;
    return SB_OK;
}

sb_code sb_yp_key(sb_yp *y, char key[SB_YP_KEY_MAX], const char *what)
{
    const char *k;
    sb_code rc = sb_yp_peek(y, &k, what);
    if (rc != SB_OK)
        return rc;
    if (NULL == k)
        return sb_yp_fail(y, SB_EPARSE, "%s is null", what);
    /* a key this long is none the readers know: keep a prefix for messages */
    size_t n = strnlen(k, SB_YP_KEY_MAX - 1); /* copied, not formatted: one call a key */
    memcpy(key, k, n);
    key[n] = '\0';
    if (y->ev.data.scalar.length >= SB_YP_KEY_MAX || strlen(k) != y->ev.data.scalar.length)
        key[0] = '\x01';
    return SB_OK;
}

sb_code sb_yp_str(sb_yp *y, const char **out, const char *what)
{
    sb_code rc = sb_yp_expect(y, YAML_SCALAR_EVENT, what);
    if (rc != SB_OK)
        return rc;
    if (is_null_scalar(y)) {
        *out = NULL;
        return SB_OK;
    }
    *out = sb_arena_strndup(y->arena, (const char *)y->ev.data.scalar.value, y->ev.data.scalar.length);
    if (NULL == *out)
        return sb_err_set(y->err, SB_ENOMEM, "out of memory");
    return SB_OK;
}

sb_code sb_yp_int(sb_yp *y, long long *out, const char *what)
{
    sb_code rc = sb_yp_expect(y, YAML_SCALAR_EVENT, what);
    if (rc != SB_OK)
        return rc;
    const char *v = (const char *)y->ev.data.scalar.value;
    char *end = NULL;
    if (y->ev.data.scalar.length == 0 || y->ev.data.scalar.length > 20)
        return sb_yp_fail(y, SB_EPARSE, "%s must be an integer", what);
    long long n = strtoll(v, &end, 10);
    if (end == v || *end)
        return sb_yp_fail(y, SB_EPARSE, "%s must be an integer, found '%.40s'", what, v);
    *out = n;
    return SB_OK;
}

int sb_yp_truthy(const sb_yp *y)
{
    if (y->ev.type != YAML_SCALAR_EVENT)
        return 0;
    const char *v = (const char *)y->ev.data.scalar.value;
    return !strcmp(v, "true") || !strcmp(v, "True") || !strcmp(v, "TRUE");
}

sb_code sb_yp_skip(sb_yp *y)
{
    yaml_event_type_t t = y->ev.type;
    if (t != YAML_SEQUENCE_START_EVENT && t != YAML_MAPPING_START_EVENT)
        return SB_OK;
    unsigned target = y->depth - 1;
    while (y->depth > target) {
        sb_code rc = sb_yp_next(y);
        if (rc != SB_OK)
            return rc;
        if (y->ev.type == YAML_STREAM_END_EVENT)
            return sb_yp_fail(y, SB_EPARSE, "unexpected end of YAML input");
    }
    return SB_OK;
}

int sb_yp_is(const sb_yp *y, const char *s)
{
    return y->ev.type == YAML_SCALAR_EVENT && 0 == strcmp((const char *)y->ev.data.scalar.value, s);
}
