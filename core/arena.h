/*
 * arena.h - per-request memory: carve many small objects, free them in one call.
 *
 * A request's body, its parsed lockfile, the selected model, purls and every
 * string derived from them live in one sb_arena, destroyed when the request
 * completes. Core code never frees single objects.
 *
 * The arena has a hard cap (bytes handed out); an allocation past it fails
 * like an out-of-memory and the caller reports SB_ELIMIT/SB_ENOMEM.
 * A meter (sb_arena_meter) sees every block the arena takes from the
 * allocator and gives back: the service charges a request's memory budget
 * there, as memory is taken, and a refusal fails the allocation the same way.
 * Built with -DSB_ARENA_DEBUG every object is its own malloc, so ASan and
 * valgrind see overruns and use-after-destroy (libgit2 GIT_DEBUG_POOL).
 */
#ifndef SB_ARENA_H
#define SB_ARENA_H

#include <stddef.h>

typedef struct sb_arena sb_arena;

/* New arena; `cap` = most bytes it may hand out (0 = unlimited). NULL on OOM. */
sb_arena *sb_arena_new(size_t cap);

/* Free everything the arena handed out, and the arena. Accepts NULL. */
void sb_arena_destroy(sb_arena *a);

/* `n` bytes aligned for any type, or NULL (out of memory or over the cap). */
void *sb_arena_alloc(sb_arena *a, size_t n);

/* Room for a string of `n` bytes (its NUL counted), not aligned: strings
 * padded to 16 bytes each cost a reader ~8 bytes apiece, several a package. */
char *sb_arena_stralloc(sb_arena *a, size_t n);

/* As sb_arena_alloc, zero-filled; checks `count * size` for overflow. */
void *sb_arena_calloc(sb_arena *a, size_t count, size_t size);

/* Copy of `len` bytes plus a terminating NUL. NULL on failure. */
char *sb_arena_strndup(sb_arena *a, const char *s, size_t len);

/* Copy of a NUL-terminated string; NULL in gives NULL out. */
char *sb_arena_strdup(sb_arena *a, const char *s);

/* The same copy with ASCII letters lower-cased (names and hex digests that
 * compare without case); NULL in, or no memory, gives NULL out. */
char *sb_arena_strdup_lower(sb_arena *a, const char *s);

/* printf into the arena. */
char *sb_arena_printf(sb_arena *a, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* v[0..n) joined with sep into one string of the arena (NULL items
 * skipped): measured, then copied once - a list re-printed per item is
 * quadratic in its items. NULL when out of memory; "" when n is 0. */
char *sb_arena_join(sb_arena *a, const char *const *v, size_t n, const char *sep);

/* Room for element n of an arena array of `size`-byte elements: p itself
 * while n < *cap, else a copy of twice the capacity (`first` for an empty
 * array) holding the n elements, *cap updated; NULL on failure (p and *cap
 * untouched). The old copy stays in the arena until it is destroyed, so
 * large arrays should be sized up front. */
void *sb_arena_grow(sb_arena *a, void *p, size_t *cap, size_t n, size_t size, size_t first);

/* The same for room for `need` elements at once (a string of k more bytes,
 * parallel arrays sized together): the capacity doubles from *cap (or
 * `first`) until it holds need; the first n elements are copied. Every
 * grow-by-doubling array in an arena goes through these two. */
void *sb_arena_reserve(sb_arena *a, void *p, size_t *cap, size_t n, size_t need, size_t size, size_t first);

/* A new arena for objects made on another thread (arenas are not shared
 * between threads), capped at what `parent` may still hand out. NULL on OOM. */
sb_arena *sb_arena_child(const sb_arena *parent);

/* Hand every object of `child` to `parent` (they live until `parent` is
 * destroyed) and free `child`. -1, nothing moved and `child` untouched,
 * when `parent` would pass its cap. */
int sb_arena_adopt(sb_arena *parent, sb_arena *child);

/* Forget everything handed out, keeping one block for what comes next: a
 * scratch arena reused piece after piece (the document writers' per-element
 * strings) holds one piece's worth, not the whole document's. */
void sb_arena_reset(sb_arena *a);

/* Who pays for an arena's blocks. take(ctx, n) is called before the arena
 * asks the allocator for n bytes and may refuse (0: the allocation fails
 * like an out-of-memory); give(ctx, n) when n bytes go back (destroy,
 * reset). Children (sb_arena_child) inherit the meter and are used on worker
 * threads, so both must be thread-safe. The meter must outlive the arena. */
typedef struct sb_meter {
    int (*take)(void *ctx, size_t n);
    void (*give)(void *ctx, size_t n);
    void *ctx;
} sb_meter;

/* Put `m` (NULL: none) in charge of what `a` takes from now on; blocks the
 * arena already holds are charged to it at once (-1 when it refuses them:
 * the arena keeps its old meter). 0 on success. */
int sb_arena_meter(sb_arena *a, const sb_meter *m);

/* The meter in charge of `a` (NULL: none), for what is taken beside it on
 * the same account (sb_buf_meter). */
const sb_meter *sb_arena_meter_of(const sb_arena *a);

/* Bytes the arena holds from the allocator (blocks with their headers and
 * free tails): what its meter was charged. */
size_t sb_arena_held(const sb_arena *a);

/* Bytes handed out so far (for limits and metrics). */
size_t sb_arena_used(const sb_arena *a);

#endif
