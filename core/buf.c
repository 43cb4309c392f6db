/*
 * buf.c - sb_buf growth policy: double, at least 256 bytes, never past cap+1.
 */
#include "buf.h"
#include "alloc.h"

#include <stdint.h>
#include <string.h>

void sb_buf_init(sb_buf *b, size_t cap)
{
    b->data = NULL;
    b->len = b->alloc = 0;
    b->cap = cap;
}

void sb_buf_free(sb_buf *b)
{
    sb_free(b->data);
    b->data = NULL;
    b->len = b->alloc = 0;
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
    char *p = sb_realloc(b->data, na);
    if (NULL == p)
        return SB_ENOMEM;
    b->data = p;
    b->alloc = na;
    return SB_OK;
}

void sb_buf_expect(sb_buf *b, size_t n)
{
    if (n + 1 <= b->alloc || (b->cap && n > b->cap) || n + 1 < n)
        return;
    char *p = sb_realloc(b->data, n + 1);
    if (NULL == p)
        return;
    if (NULL == b->data)
        p[0] = '\0';
    b->data = p;
    b->alloc = n + 1;
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
