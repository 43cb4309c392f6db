/*
 * json_stream.h - a pull tokenizer over a JSON text held in memory, for
 * readers that must not build a tree of their input (package-lock.json: a
 * 100,000-entry lock is 40 MB of JSON whose tree would take several times
 * that).
 *
 * The caller asks for one token at a time; the tokenizer checks the whole
 * grammar (RFC 8259: structure, string escapes and surrogate pairs, UTF-8,
 * number syntax, nothing after the top value) and bounds the nesting depth.
 * Strings are not copied: a token is a slice of the input, unescaped into an
 * arena only when the caller keeps it (sb_jr_str). Errors carry the line and
 * column of the offending byte.
 *
 * The state is a plain struct holding no pointers of its own: a copy is a
 * snapshot, and sb_jr_init_at starts a tokenizer on one value at a recorded
 * offset (a second look at a section without keeping it in memory).
 */
#ifndef SB_JSON_STREAM_H
#define SB_JSON_STREAM_H

#include "arena.h"
#include "err.h"

#include <stdbool.h>
#include <stddef.h>

/* The deepest nesting any caller may ask for (the bit stack is fixed). */
#define SB_JR_MAX_DEPTH 1024

typedef enum sb_jt {
    SB_JT_ERROR = -1, /* see sb_jr.msg / sb_jr_error */
    SB_JT_END = 0,    /* the top value was complete and nothing but space follows */
    SB_JT_OBJ,        /* '{' */
    SB_JT_OBJ_END,    /* '}' */
    SB_JT_ARR,        /* '[' */
    SB_JT_ARR_END,    /* ']' */
    SB_JT_KEY,        /* an object member's name (the ':' is consumed) */
    SB_JT_STR,        /* a string value */
    SB_JT_NUM,        /* a number */
    SB_JT_TRUE,
    SB_JT_FALSE,
    SB_JT_NULL
} sb_jt;

typedef struct sb_jr {
    const char *base, *p, *end;
    const char *tok; /* the token's text: a string's bytes between the quotes, a number */
    size_t tlen;
    size_t tpos;  /* offset of the token's first byte (a string's opening quote) */
    bool escaped; /* the string holds backslash escapes (sb_jr_str decodes them) */
    bool integer; /* the number has neither fraction nor exponent */
    int state;
    unsigned depth, max_depth;
    unsigned char stack[SB_JR_MAX_DEPTH / 8]; /* one bit per level: 1 = object */
    size_t errpos;
    bool too_deep; /* the error is the depth bound (SB_ELIMIT) */
    bool jsonc;    /* comments count as space, a ',' may precede ']' or '}' */
    char msg[96];
} sb_jr;

/* A tokenizer over the whole text [data, data+len); max_depth is capped at
 * SB_JR_MAX_DEPTH. */
void sb_jr_init(sb_jr *r, const char *data, size_t len, unsigned max_depth);

/* A tokenizer that reads the one value starting at `offset` (a token's tpos
 * from an earlier pass); positions in errors stay those of the whole text.
 * After that value's last token it must not be asked for more. */
void sb_jr_init_at(sb_jr *r, const char *data, size_t len, size_t offset, unsigned max_depth);

/* Read JSONC from here on (bun.lock, tsconfig-style text): `//` line and
 * slash-star block comments are space, and a ',' may close an array or an
 * object's list (`[1,]`, `{"a":1,}`). Offsets stay those of the text, so a
 * caller needs no blanked copy of it. An unterminated block comment runs to
 * the end, where the value is then found incomplete. */
void sb_jr_jsonc(sb_jr *r);

/* The next token. Once SB_JT_ERROR or SB_JT_END is returned it is returned again. */
sb_jt sb_jr_next(sb_jr *r);

/* After SB_JT_OBJ or SB_JT_ARR: consume up to and including the matching
 * end; *members (if non-NULL) = how many direct members / items it held.
 * After any other token: nothing to do. Returns false on a syntax error. */
bool sb_jr_skip(sb_jr *r, size_t *members);

/* After SB_JT_KEY or SB_JT_STR: the decoded text as a NUL-terminated arena
 * string; NULL when out of memory. */
char *sb_jr_str(const sb_jr *r, sb_arena *a);

/* As sb_jr_str into `out` (room for tlen + 1 bytes is always enough: the
 * decoded text is never longer than its escaped form); returns its length. */
size_t sb_jr_decode(const sb_jr *r, char *out);

/* The same for a string's text kept as (tok, tlen, escaped) after the
 * tokenizer moved on; `s` must have been checked by the tokenizer. */
size_t sb_json_decode(const char *s, size_t n, bool escaped, char *out);

/* After SB_JT_KEY or SB_JT_STR: whether the decoded text equals `lit`
 * (at most 40 bytes). */
bool sb_jr_is(const sb_jr *r, const char *lit);

/* After SB_JT_NUM: the integer it spells, false when it has a fraction or an
 * exponent or does not fit a long long. */
bool sb_jr_int(const sb_jr *r, long long *out);

/* 1-based line and column of a byte offset. */
void sb_jr_pos(const sb_jr *r, size_t offset, unsigned *line, unsigned *col);

/* The error as an sb_err (SB_EPARSE or SB_ELIMIT for depth) with its
 * position, its message prefixed by `what` ("package-lock.json"). */
sb_code sb_jr_error(const sb_jr *r, sb_err *err, const char *what);

#endif
