/*
 * toml.h - a TOML 1.0 parser with an event interface.
 *
 * sb_toml_parse() validates the whole document (syntax, UTF-8, duplicate
 * keys, table redefinition, the inline-table and array-of-tables rules) and
 * reports every value to a callback, in document order, with its full path
 * (keys and array indices). Readers pick out the paths they need; nothing
 * builds a value tree. Only key names are kept (in the arena) because TOML's
 * redefinition rules need them.
 *
 * Containers are reported when they come into existence (SB_TOML_TABLE,
 * SB_TOML_ARRAY) so an empty table or array is still visible.
 */
#ifndef SB_TOML_H
#define SB_TOML_H

#include "arena.h"
#include "err.h"
#include "lock.h"

#include <stdbool.h>
#include <stddef.h>
#include <string.h>

typedef enum sb_toml_type {
    SB_TOML_TABLE,
    SB_TOML_ARRAY,
    SB_TOML_STRING,
    SB_TOML_INTEGER,
    SB_TOML_FLOAT,
    SB_TOML_BOOL,
    SB_TOML_DATETIME, /* offset date-time */
    SB_TOML_DATETIME_LOCAL,
    SB_TOML_DATE_LOCAL,
    SB_TOML_TIME_LOCAL
} sb_toml_type;

/* One step of a path: a key (key != NULL) or an array index. */
typedef struct sb_toml_seg {
    const char *key; /* NUL-terminated; may contain NUL if quoted with \u0000 (klen tells) */
    size_t klen;
    size_t index;
} sb_toml_seg;

typedef struct sb_toml_value {
    sb_toml_type type;
    const char *str; /* STRING: decoded text; date/time kinds: canonical text
                        * ('T' separator, 'Z' upper case); FLOAT/INTEGER: as written */
    size_t len;
    long long i; /* INTEGER */
    double f;    /* FLOAT */
    bool b;      /* BOOL */
    unsigned line, column;
} sb_toml_value;

/* Return SB_OK to go on; anything else stops the parse and is returned
 * (set `err` yourself for a message; the parser adds the position). */
typedef sb_code (*sb_toml_cb)(void *ud, const sb_toml_seg *path, size_t depth, const sb_toml_value *v, sb_err *err);

sb_code sb_toml_parse(sb_arena *a, const char *data, size_t len, const sb_limits *lim, sb_toml_cb cb, void *ud,
                      sb_err *err);

/* Path helpers for callbacks: key at position i equals `k`. */
static inline bool sb_toml_key_is(const sb_toml_seg *path, size_t depth, size_t i, const char *k)
{
    return i < depth && path[i].key && 0 == strcmp(path[i].key, k);
}

#endif
