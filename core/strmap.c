/*
 * strmap.c - linear probing, load factor <= 1/2, grows by doubling.
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
    size_t n = 16;
    while (n < expected + expected / 2 + 1) /* at most 2/3 full */
        n *= 2;
    m->arena = a;
    m->count = 0;
    return alloc_slots(m, n);
}

static struct sb_strmap_slot *find(const sb_strmap *m, const char *key, size_t klen, uint32_t h)
{
    size_t mask = m->nslots - 1;
    for (size_t i = (size_t)h & mask;; i = (i + 1) & mask) {
        struct sb_strmap_slot *s = &m->slots[i];
        if (NULL == s->key)
            return s;
        if (s->hash == h && s->klen == klen && 0 == memcmp(s->key, key, klen))
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
            *find(m, old[i].key, old[i].klen, old[i].hash) = old[i];
    return SB_OK;
}

int sb_strmap_put(sb_strmap *m, const char *key, size_t klen, size_t value, size_t *existing)
{
    if (klen > UINT32_MAX)
        return SB_ELIMIT;
    if ((m->count + 1) * 3 > m->nslots * 2 && grow(m) != SB_OK)
        return SB_ENOMEM;
    uint32_t h = fnv(key, klen);
    struct sb_strmap_slot *s = find(m, key, klen, h);
    if (s->key) {
        if (existing)
            *existing = s->value;
        return 1;
    }
    s->key = key;
    s->klen = (uint32_t)klen;
    s->hash = h;
    s->value = value;
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
