/*
 * yaml_tree.h - internal to the YAML readers whose sections come in no
 * useful order (pnpm-lock.yaml, yarn berry): each document of the input as
 * a small tree in the arena, built over the bounded event loop of yaml_ev.h
 * (so aliases, depth, scalar size and event count stay bounded).
 */
#ifndef SB_YAML_TREE_H
#define SB_YAML_TREE_H

#include "arena.h"
#include "err.h"
#include "lock.h"

#include <stddef.h>
#include <stdint.h>

typedef enum sb_yn_type { SB_YN_SCALAR, SB_YN_MAP, SB_YN_SEQ } sb_yn_type;

/* 32 bytes (the arena rounds an object to 16): a 100,000-entry pnpm lock
 * is a few million nodes. */
typedef struct sb_yn {
    const char *s;       /* scalar text; NULL for a YAML null */
    struct sb_yn **kids; /* map: key, value, key, value...; seq: items (exactly sized) */
    uint32_t n;          /* entries (pairs for a map) */
    unsigned line, col;  /* where it starts, 1-based */
    sb_yn_type type;
} sb_yn;

/* Every document of `data` (an empty input has none). */
sb_code sb_yt_parse(sb_yn ***docs, size_t *ndocs, sb_arena *a, const char *data, size_t len, const sb_limits *lim,
                    sb_err *err);

/* A map's i-th key text / value. */
static inline const char *sb_yn_key(const sb_yn *m, size_t i)
{
    return m->kids[2 * i]->s;
}
static inline const sb_yn *sb_yn_val(const sb_yn *m, size_t i)
{
    return m->kids[2 * i + 1];
}

/* The value of `key` in map `m`; NULL when `m` is not a map or lacks it. */
const sb_yn *sb_yn_get(const sb_yn *m, const char *key);

/* The scalar under `key`, NULL when absent, null or not a scalar. */
const char *sb_yn_str(const sb_yn *m, const char *key);

#endif
