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

#ifdef SB_NO_MIMALLOC
#include <stdlib.h>
#define sb_malloc(n) malloc(n)
#define sb_calloc(c, n) calloc((c), (n))
#define sb_realloc(p, n) realloc((p), (n))
#define sb_free(p) free(p)
#else
#include <mimalloc.h>
#define sb_malloc(n) mi_malloc(n)
#define sb_calloc(c, n) mi_calloc((c), (n))
#define sb_realloc(p, n) mi_realloc((p), (n))
#define sb_free(p) mi_free(p)
#endif

#endif
