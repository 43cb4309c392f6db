/*
 * alloc.h - the one place that names the process allocator.
 *
 * The sbomd binary links mimalloc and routes its own heap use through it
 * (redis sdsalloc.h style). Libraries with hooks get them at startup
 * (jansson json_set_alloc_funcs); the rest use the system malloc. Tests and
 * sanitizer builds define SB_NO_MIMALLOC so ASan/valgrind see every block.
 */
#ifndef SB_ALLOC_H
#define SB_ALLOC_H

#include <stddef.h>

/* sb_alloc_release(): give what this thread freed back to the system.
 * Called after a request that held many megabytes, so one large upload does
 * not keep a replica's RSS up for the rest of its life. */
#ifdef SB_NO_MIMALLOC
#include <malloc.h>
#include <stdlib.h>
#define sb_malloc(n) malloc(n)
#define sb_calloc(c, n) calloc((c), (n))
#define sb_realloc(p, n) realloc((p), (n))
#define sb_free(p) free(p)
#define sb_usable_size(p) malloc_usable_size(p)
static inline void sb_alloc_release(void)
{
    malloc_trim(0);
}
static inline void sb_alloc_release_now(void)
{
    malloc_trim(0);
}
#else
#include <malloc.h>
#include <mimalloc.h>
#define sb_malloc(n) mi_malloc(n)
#define sb_calloc(c, n) mi_calloc((c), (n))
#define sb_realloc(p, n) mi_realloc((p), (n))
#define sb_free(p) mi_free(p)
#define sb_usable_size(p) mi_usable_size(p)
static inline void sb_alloc_release(void)
{
    mi_collect(true);
    malloc_trim(0);
}
/* sb_alloc_release_now(): the same, without the allocator's decommit delay
 * (pages freed a moment ago are returned too, not kept for reuse). It sets
 * a process-wide option and restores it: callers on several threads
 * serialize it (service/http/request.c release_now). */
static inline void sb_alloc_release_now(void)
{
    long delay = mi_option_get(mi_option_decommit_delay);
    mi_option_set(mi_option_decommit_delay, 0);
    mi_collect(true);
    mi_option_set(mi_option_decommit_delay, delay);
    malloc_trim(0);
}
#endif

#endif
