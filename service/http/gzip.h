/*
 * gzip.h - response compression for streamed documents: a deflate stream
 * (gzip framing) between the document producer and libmicrohttpd's buffer,
 * so a compressed answer is still written chunk by chunk from the model,
 * never whole. Its state lives in the request's arena (freed with it).
 */
#ifndef SVC_GZIP_H
#define SVC_GZIP_H

#include "../../core/arena.h"
#include "../../core/doc.h"

#include <stddef.h>
#include <sys/types.h>

typedef struct svc_gzip svc_gzip;

/* The level streamed documents are compressed at (see gzip.c). */
#define SVC_GZIP_LEVEL 1

/* Whether an Accept-Encoding header asks for gzip (q > 0 for gzip, x-gzip or
 * "*" when gzip is not itself refused). NULL -> no. */
int svc_gzip_wanted(const char *accept_encoding);

/* Where the compressor takes its input from: > 0 bytes, 0 at the end, -1 on
 * failure (sb_doc_produce's contract). */
typedef ssize_t (*svc_gzip_src)(void *cls, char *buf, size_t max);

/* New compressor over `src` (level 1-9); NULL when the arena is exhausted. */
svc_gzip *svc_gzip_new(sb_arena *a, svc_gzip_src src, void *cls, int level);

/* Fill buf with up to max compressed bytes: > 0 bytes written, 0 at the end
 * of the stream, -1 on a producer or zlib failure. */
ssize_t svc_gzip_read(svc_gzip *g, char *buf, size_t max);

/* The gzip of a whole buffer (a static asset, a metrics page) in `a`: 0 and
 * *out, *outn set, or -1. */
int svc_gzip_buffer(sb_arena *a, const char *in, size_t n, int level, char **out, size_t *outn);

#endif
