/*
 * buf.h - growable byte buffer with a hard cap (curl dynbuf style).
 *
 * Used for request bodies and the writers' staging area. An append past
 * `cap` fails with SB_ELIMIT and leaves the buffer as it was; the contents
 * are always NUL-terminated so text parsers may read them as a C string.
 * data belongs to the buffer: release it with sb_buf_free, never sb_free
 * (a large buffer is a mapping of its own, see buf.c).
 */
#ifndef SB_BUF_H
#define SB_BUF_H

#include "err.h"

#include <stddef.h>

struct sb_meter;

typedef struct sb_buf {
    char *data; /* NULL until the first append */
    size_t len;
    size_t alloc;
    size_t cap;                   /* most bytes it may hold; 0 = unlimited */
    size_t mapped;                /* length of data's own mapping (large buffers, buf.c); 0 = heap */
    const struct sb_meter *meter; /* charged for `alloc` as it grows (arena.h); NULL = nobody */
} sb_buf;

#define SB_BUF_INIT(capacity) \
    { \
        NULL, 0, 0, (capacity), 0, NULL \
    }

void sb_buf_init(sb_buf *b, size_t cap);

/* Put `m` (NULL: none) in charge of what the empty buffer `b` takes from
 * now on, as an arena's meter is (arena.h): a growth it refuses fails as
 * SB_ENOMEM. Buffers a request's writer fills as it goes (the stage, the
 * two threads' batches) are paid from the request's own budget this way. */
void sb_buf_meter(sb_buf *b, const struct sb_meter *m);

/* Release the storage; the buffer is empty and reusable afterwards. */
void sb_buf_free(sb_buf *b);

/* SB_OK, SB_ELIMIT (over cap) or SB_ENOMEM. */
sb_code sb_buf_append(sb_buf *b, const void *p, size_t n);

/* Make room for `n` more bytes without changing len. */
sb_code sb_buf_reserve(sb_buf *b, size_t n);

/* Allocate room for exactly `n` bytes in all, when the buffer has less and
 * n is within the cap: for a size known in advance (a declared body). A
 * hint: failure leaves the buffer as it was and later appends still grow it. */
void sb_buf_expect(sb_buf *b, size_t n);

/* Room for element n of a heap array of `size`-byte elements (*(T **)pp,
 * *cap): when n == *cap the capacity doubles (`first` for an empty array).
 * SB_OK, or SB_ENOMEM with the array and *cap untouched. The array is
 * sb_realloc'd: free it with sb_free (alloc.h). The heap twin of
 * sb_arena_grow (arena.h); byte strings use sb_buf itself. */
sb_code sb_vec_grow(void *pp, size_t *cap, size_t n, size_t size, size_t first);

/* Drop the first `n` bytes (n <= len). */
void sb_buf_consume(sb_buf *b, size_t n);

static inline void sb_buf_reset(sb_buf *b)
{
    b->len = 0;
    if (b->data)
        b->data[0] = '\0';
}

#endif
