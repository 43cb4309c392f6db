/*
 * strmap.c - linear probing, load factor <= 2/3, grows by doubling.
 *
 * A table of any size (the hash mapped onto it by multiply-shift), not a
 * power of two: a power of two above 1.5 x the expected count held 262,144
 * slots for 100,000 packages, and the JavaScript readers keep two such maps
 * at their peak. Slots are 16 bytes (values are indices, below 2^32); the
 * hash is recomputed when the table grows instead of being stored.
 */
#include "strmap.h"

#include <string.h>

static uint32_t fnv(const char *s, size_t n)
{
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < n; i++) {
        h ^= (unsigned char)s[i];
        h *= 16777619u;
    }
    return h;
}

static sb_code alloc_slots(sb_strmap *m, size_t n)
{
    m->slots = sb_arena_calloc(m->arena, n, sizeof *m->slots);
    if (NULL == m->slots)
        return SB_ENOMEM;
    m->nslots = n;
    return SB_OK;
}

sb_code sb_strmap_init(sb_strmap *m, sb_arena *a, size_t expected)
{
    size_t n = expected + expected / 2 + 1; /* at most 2/3 full */
    m->arena = a;
    m->count = 0;
    return alloc_slots(m, n < 16 ? 16 : n);
}

static struct sb_strmap_slot *find(const sb_strmap *m, const char *key, size_t klen, uint32_t h)
{
    size_t n = m->nslots;
    for (size_t i = (size_t)(((uint64_t)h * n) >> 32);; i = i + 1 == n ? 0 : i + 1) {
        struct sb_strmap_slot *s = &m->slots[i];
        if (NULL == s->key)
            return s;
        if (s->klen == klen && 0 == memcmp(s->key, key, klen))
            return s;
    }
}

static sb_code grow(sb_strmap *m)
{
    struct sb_strmap_slot *old = m->slots;
    size_t nold = m->nslots;
    if (alloc_slots(m, nold * 2) != SB_OK)
        return SB_ENOMEM;
    for (size_t i = 0; i < nold; i++)
        if (old[i].key)
            *find(m, old[i].key, old[i].klen, fnv(old[i].key, old[i].klen)) = old[i];
    return SB_OK;
}

int sb_strmap_put(sb_strmap *m, const char *key, size_t klen, size_t value, size_t *existing)
{
    if (klen > UINT32_MAX || value > UINT32_MAX)
        return SB_ELIMIT;
    if ((m->count + 1) * 3 > m->nslots * 2 && grow(m) != SB_OK)
        return SB_ENOMEM;
    struct sb_strmap_slot *s = find(m, key, klen, fnv(key, klen));
    if (s->key) {
        if (existing)
            *existing = s->value;
        return 1;
    }
    s->key = key;
    s->klen = (uint32_t)klen;
    s->value = (uint32_t)value;
    m->count++;
    if (existing)
        *existing = value;
    return 0;
}

int sb_strmap_get(const sb_strmap *m, const char *key, size_t klen, size_t *out)
{
    if (0 == m->nslots)
        return 0;
    struct sb_strmap_slot *s = find(m, key, klen, fnv(key, klen));
    if (NULL == s->key)
        return 0;
    *out = s->value;
    return 1;
}
