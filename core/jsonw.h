/*
 * jsonw.h - the only code in sbomd that writes JSON punctuation or escapes text.
 *
 * A streaming emitter with a depth stack (yajl style): callers say what comes
 * next (key, string, begin object...) and the emitter inserts `,` `:` newlines
 * and indentation itself. Misuse (a value where a key is due, too deep, ending
 * the wrong container) is a status, not broken output. Errors are sticky: the
 * first failure is kept and every later call is a no-op, so a writer can emit a
 * whole component and check once.
 *
 * Strings are copied in runs of plain bytes and only what JSON requires is
 * escaped. Input must be UTF-8; an invalid sequence is replaced by U+FFFD so
 * the output is always valid UTF-8 (documented choice: readers reject invalid
 * UTF-8 in lockfiles before it reaches a writer, so this only guards
 * enrichment data such as license files).
 *
 * Output goes to an sb_sink whose non-zero return stops generation (SB_EIO).
 */
#ifndef SB_JSONW_H
#define SB_JSONW_H

#include "buf.h"
#include "err.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct sb_sink {
    int (*write)(void *payload, const char *p, size_t n);
    void *payload;
} sb_sink;

#define SB_JW_MAX_DEPTH 32

typedef struct sb_jw {
    sb_sink sink;
    sb_buf *buf;            /* set by sb_jw_init_buf: output appended here directly */
    bool pretty;            /* 2-space indent, "key": value, like serde_json pretty */
    int depth;              /* open containers */
    sb_code status;         /* first failure, sticky */
    bool want_value;        /* a key was written, its value is due */
    unsigned char carry[4]; /* UTF-8 bytes cut by a chunk boundary */
    size_t ncarry;
    struct {
        char kind;      /* '{' or '[' */
        uint32_t count; /* members written so far */
    } stack[SB_JW_MAX_DEPTH];
} sb_jw;

void sb_jw_init(sb_jw *jw, sb_sink sink, bool pretty);

/* The same, writing straight into `b` (the writers' staging buffer): no
 * call through a sink per token, which is most of a writer's cost. An
 * append past the buffer's cap fails like a sink (SB_EIO). */
void sb_jw_init_buf(sb_jw *jw, sb_buf *b, bool pretty);

sb_code sb_jw_obj_begin(sb_jw *jw);
sb_code sb_jw_obj_end(sb_jw *jw);
sb_code sb_jw_arr_begin(sb_jw *jw);
sb_code sb_jw_arr_end(sb_jw *jw);

/* An object key; must be inside an object with no value pending. */
sb_code sb_jw_key(sb_jw *jw, const char *key);

sb_code sb_jw_str(sb_jw *jw, const char *s); /* NULL writes null */
sb_code sb_jw_strn(sb_jw *jw, const char *s, size_t n);
sb_code sb_jw_int(sb_jw *jw, long long v);
sb_code sb_jw_tenths(sb_jw *jw, double v); /* a number with one decimal: 9.8 */
sb_code sb_jw_bool(sb_jw *jw, bool v);
sb_code sb_jw_null(sb_jw *jw);

/* A string value assembled from pieces: begin, any number of chunks (each
 * escaped as it comes, so a large text never needs one buffer), end. A UTF-8
 * sequence split across chunks is carried over. */
sb_code sb_jw_str_begin(sb_jw *jw);
sb_code sb_jw_str_chunk(sb_jw *jw, const char *s, size_t n);
sb_code sb_jw_str_end(sb_jw *jw);

/* key + string value in one call. */
static inline sb_code sb_jw_kstr(sb_jw *jw, const char *key, const char *v)
{
    sb_jw_key(jw, key);
    return sb_jw_str(jw, v);
}

/* key + string value, written only when v is non-NULL and non-empty. */
static inline sb_code sb_jw_kstr_opt(sb_jw *jw, const char *key, const char *v)
{
    if (NULL == v || '\0' == v[0])
        return jw->status;
    return sb_jw_kstr(jw, key, v);
}

/* True when the document is complete (depth 0, a value written). */
bool sb_jw_done(const sb_jw *jw);

/* Escape `s` as JSON string content (no quotes) straight to a sink. Exposed
 * for tests and for writers that stream raw text. Returns 0 or sink error. */
int sb_jw_escape_to(sb_sink sink, const char *s, size_t n, unsigned char *carry, size_t *ncarry, bool final);

#endif
