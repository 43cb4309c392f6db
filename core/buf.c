/*
 * buf.c - sb_buf growth policy: double, at least 256 bytes, never past cap+1.
 *
 * A buffer of SB_BUF_MAP_MIN or more lives in its own anonymous mapping,
 * grown with mremap and unmapped when freed. The largest buffers are request
 * bodies (up to the body limit, 8-64 MiB): taken from the allocator, their
 * pages stayed with the thread that freed them, and the next large upload,
 * read on another thread, took fresh pages beside them (two 8 MiB chunked
 * uploads one after the other kept 28 MB resident, where one peaks at 17).
 * A mapping goes back to the system the moment it is freed, and mremap
 * moves pages instead of copying them, so growing a chunked body no longer
 * holds the old and the new copy at once. Builds on the system malloc
 * (sanitizers, valgrind) keep every buffer on the heap, where the checkers
 * see it; glibc maps blocks this large by itself.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* mremap */
#endif
#include "buf.h"
#include "alloc.h"
#include "arena.h"

#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define SB_BUF_MAP_MIN ((size_t)4 << 20)

/* Give b room for `na` bytes in all, keeping its contents (len + NUL). */
static sb_code resize_raw(sb_buf *b, size_t na)
{
#ifndef SB_NO_MIMALLOC
    if (na >= SB_BUF_MAP_MIN) {
        size_t page = (size_t)sysconf(_SC_PAGESIZE);
        size_t len = (na + page - 1) / page * page;
        void *p;
        if (b->mapped) {
            p = mremap(b->data, b->mapped, len, MREMAP_MAYMOVE);
        } else {
            p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
            if (p != MAP_FAILED && b->data) {
                memcpy(p, b->data, b->len + 1);
                sb_free(b->data);
            }
        }
        if (MAP_FAILED == p)
            return SB_ENOMEM;
        if (NULL == b->data)
            ((char *)p)[0] = '\0';
        b->data = p;
        b->alloc = b->mapped = len;
        return SB_OK;
    }
#endif
    /* below the mapping size a buffer only grows, so it is never mapped here */
    char *p = sb_realloc(b->data, na);
    if (NULL == p)
        return SB_ENOMEM;
    if (NULL == b->data)
        p[0] = '\0';
    b->data = p;
    b->alloc = na;
    return SB_OK;
}

/* resize_raw, charged first to the meter for what it adds (the mapping
 * rounds up to a page: charged for, given back if the growth fails). */
static sb_code resize(sb_buf *b, size_t na)
{
    const sb_meter *m = b->meter;
    if (NULL == m || na <= b->alloc)
        return resize_raw(b, na);
    size_t page = (size_t)sysconf(_SC_PAGESIZE), was = b->alloc;
    size_t charge = (na + page - 1) / page * page - was;
    if (!m->take(m->ctx, charge))
        return SB_ENOMEM;
    sb_code rc = resize_raw(b, na);
    m->give(m->ctx, rc == SB_OK ? charge - (b->alloc - was) : charge);
    return rc;
}

void sb_buf_init(sb_buf *b, size_t cap)
{
    b->data = NULL;
    b->len = b->alloc = 0;
    b->cap = cap;
    b->mapped = 0;
    b->meter = NULL;
}

void sb_buf_meter(sb_buf *b, const sb_meter *m)
{
    b->meter = m;
}

void sb_buf_free(sb_buf *b)
{
    if (b->meter && b->alloc)
        b->meter->give(b->meter->ctx, b->alloc);
    if (b->mapped)
        munmap(b->data, b->mapped);
    else
        sb_free(b->data);
    b->data = NULL;
    b->len = b->alloc = b->mapped = 0;
}

sb_code sb_buf_reserve(sb_buf *b, size_t n)
{
    if (b->len + n < b->len)
        return SB_ELIMIT;
    if (b->cap && b->len + n > b->cap)
        return SB_ELIMIT;
    size_t need = b->len + n + 1;
    if (need <= b->alloc)
        return SB_OK;
    size_t na = b->alloc ? b->alloc : 256;
    while (na < need)
        na *= 2;
    if (b->cap && na > b->cap + 1)
        na = b->cap + 1;
    return resize(b, na);
}

void sb_buf_expect(sb_buf *b, size_t n)
{
    if (n + 1 <= b->alloc || (b->cap && n > b->cap) || n + 1 < n)
        return;
    (void)resize(b, n + 1);
}

sb_code sb_buf_append(sb_buf *b, const void *p, size_t n)
{
    sb_code rc = sb_buf_reserve(b, n);
    if (rc != SB_OK)
        return rc;
    if (n)
        memcpy(b->data + b->len, p, n);
    b->len += n;
    b->data[b->len] = '\0';
    return SB_OK;
}

void sb_buf_consume(sb_buf *b, size_t n)
{
    if (n >= b->len) {
        sb_buf_reset(b);
        return;
    }
    memmove(b->data, b->data + n, b->len - n);
    b->len -= n;
    b->data[b->len] = '\0';
}

sb_code sb_vec_grow(void *pp, size_t *cap, size_t n, size_t size, size_t first)
{
    if (n < *cap)
        return SB_OK;
    size_t nc = *cap ? *cap * 2 : (first ? first : 1);
    if (nc < *cap || (size && nc > SIZE_MAX / size))
        return SB_ENOMEM;
    void *np = sb_realloc(*(void **)pp, nc * size);
    if (NULL == np)
        return SB_ENOMEM;
    *(void **)pp = np;
    *cap = nc;
    return SB_OK;
}
