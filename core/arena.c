/*
 * arena.c - bump allocator over a list of blocks.
 *
 * DESIGN: blocks start at 16 KiB and double up to 1 MiB; an object larger than
 * a quarter of the current block size gets a block of its own so big bodies do
 * not waste the tail of a shared block. Alignment is that of max_align_t.
 */
#include "arena.h"
#include "alloc.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stddef.h>

#define ALIGN_TO (_Alignof(max_align_t))
#define BLOCK_MIN ((size_t)16 * 1024)
#define BLOCK_MAX ((size_t)1024 * 1024)

typedef struct block {
    struct block *next;
    size_t used, size;
    _Alignas(max_align_t) unsigned char data[];
} block;

struct sb_arena {
    block *head;
    size_t next_size;
    size_t used, cap;
    size_t held;           /* bytes of blocks taken from the allocator, headers included */
    const sb_meter *meter; /* charged for held as it grows; NULL = nobody */
};

/* A block of `size` bytes of data, charged to the meter first: a refused
 * charge fails like the allocator failing. */
static block *block_new(sb_arena *a, size_t size)
{
    size_t n = sizeof(block) + size;
    if (a->meter && !a->meter->take(a->meter->ctx, n))
        return NULL;
    block *b = sb_malloc(n);
    if (NULL == b) {
        if (a->meter)
            a->meter->give(a->meter->ctx, n);
        return NULL;
    }
    b->size = size;
    b->used = 0;
    a->held += n;
    return b;
}

static void block_free(sb_arena *a, block *b)
{
    size_t n = sizeof(block) + b->size;
    sb_free(b);
    a->held -= n;
    if (a->meter)
        a->meter->give(a->meter->ctx, n);
}

sb_arena *sb_arena_new(size_t cap)
{
    sb_arena *a = sb_calloc(1, sizeof *a);
    if (NULL == a)
        return NULL;
    a->next_size = BLOCK_MIN;
    a->cap = cap;
    return a;
}

void sb_arena_destroy(sb_arena *a)
{
    if (NULL == a)
        return;
    block *b = a->head;
    while (b) {
        block *n = b->next;
        sb_free(b);
        b = n;
    }
    if (a->meter && a->held)
        a->meter->give(a->meter->ctx, a->held);
    sb_free(a);
}

/* Bump-allocate n bytes at a multiple of align (a power of two up to
 * ALIGN_TO): strings take align 1, so they do not pad to 16 bytes each. */
static void *bump(sb_arena *a, size_t n, size_t align)
{
    if (0 == n)
        n = 1;
    if (n > SIZE_MAX / 2)
        return NULL;
    if (a->cap && (a->used + n + align > a->cap || a->used + n < a->used))
        return NULL;
#ifdef SB_ARENA_DEBUG
    block *b = block_new(a, n);
    if (NULL == b)
        return NULL;
    b->used = n;
    b->next = a->head;
    a->head = b;
    a->used += n;
    return b->data;
#else
    block *b = a->head;
    if (b) {
        size_t off = (b->used + align - 1) & ~(align - 1);
        if (off <= b->size && b->size - off >= n) {
            a->used += off - b->used + n;
            b->used = off + n;
            return b->data + off;
        }
    }
    size_t bsize = a->next_size;
    if (n > bsize / 4) {
        /* own block, linked behind the head so the head keeps its free tail */
        block *big = block_new(a, n);
        if (NULL == big)
            return NULL;
        big->used = n;
        if (b) {
            big->next = b->next;
            b->next = big;
        } else {
            big->next = NULL;
            a->head = big;
        }
        a->used += n;
        return big->data;
    }
    block *nb = block_new(a, bsize);
    if (NULL == nb)
        return NULL;
    nb->used = n;
    nb->next = b;
    a->head = nb;
    if (a->next_size < BLOCK_MAX)
        a->next_size *= 2;
    a->used += n;
    return nb->data;
#endif
}

void *sb_arena_alloc(sb_arena *a, size_t n)
{
    return bump(a, n, ALIGN_TO);
}

char *sb_arena_stralloc(sb_arena *a, size_t n)
{
    return bump(a, n, 1);
}

void *sb_arena_calloc(sb_arena *a, size_t count, size_t size)
{
    if (size && count > SIZE_MAX / size)
        return NULL;
    void *p = sb_arena_alloc(a, count * size);
    if (p)
        memset(p, 0, count * size);
    return p;
}

char *sb_arena_strndup(sb_arena *a, const char *s, size_t len)
{
    char *p = bump(a, len + 1, 1);
    if (NULL == p)
        return NULL;
    if (len)
        memcpy(p, s, len);
    p[len] = '\0';
    return p;
}

char *sb_arena_strdup(sb_arena *a, const char *s)
{
    return s ? sb_arena_strndup(a, s, strlen(s)) : NULL;
}

char *sb_arena_strdup_lower(sb_arena *a, const char *s)
{
    char *o = sb_arena_strdup(a, s);
    for (char *q = o; q && *q; q++)
        if (*q >= 'A' && *q <= 'Z')
            *q = (char)(*q - 'A' + 'a');
    return o;
}

char *sb_arena_printf(sb_arena *a, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0)
        return NULL;
    char *p = bump(a, (size_t)n + 1, 1);
    if (NULL == p)
        return NULL;
    va_start(ap, fmt);
    vsnprintf(p, (size_t)n + 1, fmt, ap);
    va_end(ap);
    return p;
}

sb_arena *sb_arena_child(const sb_arena *parent)
{
    if (parent->cap && parent->used >= parent->cap)
        return NULL;
    sb_arena *c = sb_arena_new(parent->cap ? parent->cap - parent->used : 0);
    if (c)
        c->meter = parent->meter; /* nothing held yet: nothing to charge */
    return c;
}

int sb_arena_meter(sb_arena *a, const sb_meter *m)
{
    if (m == a->meter)
        return 0;
    if (m && a->held && !m->take(m->ctx, a->held))
        return -1;
    if (a->meter && a->held)
        a->meter->give(a->meter->ctx, a->held);
    a->meter = m;
    return 0;
}

const sb_meter *sb_arena_meter_of(const sb_arena *a)
{
    return a->meter;
}

size_t sb_arena_held(const sb_arena *a)
{
    return a->held;
}

int sb_arena_adopt(sb_arena *parent, sb_arena *child)
{
    if (parent->cap && (child->used > parent->cap || parent->used > parent->cap - child->used))
        return -1;
    /* a child made before its parent had a meter pays over to the parent's */
    if (child->held && child->meter != parent->meter && sb_arena_meter(child, parent->meter) != 0)
        return -1;
    if (child->head) {
        block *last = child->head;
        while (last->next)
            last = last->next;
        /* behind the parent's head, which keeps its free tail */
        if (parent->head) {
            last->next = parent->head->next;
            parent->head->next = child->head;
        } else {
            parent->head = child->head;
        }
    }
    parent->used += child->used;
    parent->held += child->held;
    sb_free(child);
    return 0;
}

size_t sb_arena_used(const sb_arena *a)
{
    return a->used;
}

void *sb_arena_grow(sb_arena *a, void *p, size_t *cap, size_t n, size_t size, size_t first)
{
    return sb_arena_reserve(a, p, cap, n, n + 1, size, first);
}

void *sb_arena_reserve(sb_arena *a, void *p, size_t *cap, size_t n, size_t need, size_t size, size_t first)
{
    if (need <= *cap)
        return p;
    size_t nc = *cap ? *cap : (first ? first : 1);
    while (nc < need) {
        if (nc > SIZE_MAX / 2)
            return NULL;
        nc *= 2;
    }
    void *np = sb_arena_calloc(a, nc, size);
    if (NULL == np)
        return NULL;
    if (p && n)
        memcpy(np, p, n * size);
    *cap = nc;
    return np;
}

void sb_arena_reset(sb_arena *a)
{
    block *keep = NULL, *b = a->head;
#ifndef SB_ARENA_DEBUG
    /* any block will do as the next one's start, but not a big one of its own */
    if (b && b->size <= BLOCK_MAX) {
        keep = b;
        b = b->next;
    }
#endif
    while (b) {
        block *n = b->next;
        block_free(a, b);
        b = n;
    }
    if (keep) {
        keep->used = 0;
        keep->next = NULL;
    }
    a->head = keep;
    a->used = 0;
}

char *sb_arena_join(sb_arena *a, const char *const *v, size_t n, const char *sep)
{
    size_t sl = strlen(sep), len = 0, k = 0;
    for (size_t i = 0; i < n; i++)
        if (v[i])
            len += (k++ ? sl : 0) + strlen(v[i]);
    char *out = sb_arena_stralloc(a, len + 1), *w = out;
    if (NULL == out)
        return NULL;
    k = 0;
    for (size_t i = 0; i < n; i++) {
        if (NULL == v[i])
            continue;
        if (k++) {
            memcpy(w, sep, sl);
            w += sl;
        }
        size_t il = strlen(v[i]);
        memcpy(w, v[i], il);
        w += il;
    }
    *w = '\0';
    return out;
}
