/*
 * strmap.h - arena-backed string -> index map (open addressing, FNV-1a).
 *
 * Used to match environment references to package records and dependency
 * names to packages. Keys are not copied: they must outlive the map (they
 * live in the same arena). Insert-only; no removal.
 */
#ifndef SB_STRMAP_H
#define SB_STRMAP_H

#include "arena.h"
#include "err.h"

#include <stddef.h>
#include <stdint.h>

typedef struct sb_strmap {
    sb_arena *arena;
    struct sb_strmap_slot { /* 16 bytes: maps of every package are many */
        const char *key;
        uint32_t klen;
        uint32_t value; /* an index: values above 2^32 - 1 are refused */
    } * slots;
    size_t nslots, count;
} sb_strmap;

sb_code sb_strmap_init(sb_strmap *m, sb_arena *a, size_t expected);

/* Insert key -> value unless present. Sets *existing (if non-NULL) to the
 * stored value and returns 1 when the key was already there, 0 when added,
 * <0 (sb_code) on allocation failure (SB_ELIMIT: a key or value past
 * 2^32 - 1). */
int sb_strmap_put(sb_strmap *m, const char *key, size_t klen, size_t value, size_t *existing);

/* 1 and *out = value when found, else 0. */
int sb_strmap_get(const sb_strmap *m, const char *key, size_t klen, size_t *out);

#endif
