/*
 * gzip.c - streamed gzip of a document (see gzip.h).
 *
 * Level: JSON SBOMs are repetitive, so a low level already shrinks them about
 * tenfold while costing a fraction of the default level's CPU; the service is
 * measured on throughput, so speed wins (configurable per call).
 */
#include "gzip.h"
#include "../params.h"

#include <string.h>
#include <strings.h>
#include <zlib.h>

struct svc_gzip {
    z_stream z;
    svc_gzip_src src;
    void *cls;
    int eof;        /* the producer has nothing more */
    int done;       /* deflate wrote the trailer */
    char in[32768]; /* one producer piece at a time */
};

/* zlib's allocations come from the request's arena: everything goes when
 * the request ends, so no path needs deflateEnd (which would only free). */
static voidpf arena_zalloc(voidpf opaque, uInt items, uInt size)
{
    return sb_arena_calloc(opaque, items, size);
}

static void arena_zfree(voidpf opaque, voidpf p)
{
    (void)opaque;
    (void)p;
}

int svc_gzip_wanted(const char *ae)
{
    if (NULL == ae)
        return 0;
    double gzip_q = -1, star_q = -1;
    size_t pos = 0;
    svc_accept_item it;
    while (svc_accept_next(ae, &pos, &it)) {
        if (!strcasecmp(it.type, "gzip") || !strcasecmp(it.type, "x-gzip"))
            gzip_q = it.q > gzip_q ? it.q : gzip_q;
        else if (!strcmp(it.type, "*"))
            star_q = it.q;
    }
    if (gzip_q >= 0)
        return gzip_q > 0;
    return star_q > 0;
}

svc_gzip *svc_gzip_new(sb_arena *a, svc_gzip_src src, void *cls, int level)
{
    svc_gzip *g = sb_arena_calloc(a, 1, sizeof *g);
    if (NULL == g)
        return NULL;
    g->src = src;
    g->cls = cls;
    g->z.zalloc = arena_zalloc;
    g->z.zfree = arena_zfree;
    g->z.opaque = a;
    /* 15 + 16: a 32 KiB window with gzip framing; memLevel 8 as zlib's default */
    if (deflateInit2(&g->z, level, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK)
        return NULL;
    return g;
}

ssize_t svc_gzip_read(svc_gzip *g, char *buf, size_t max)
{
    if (g->done)
        return 0;
    if (max > (1u << 30))
        max = 1u << 30;
    g->z.next_out = (Bytef *)buf;
    g->z.avail_out = (uInt)max;
    /* deflate may swallow whole pieces without output: feed it until it
     * writes something or the stream ends */
    while (g->z.avail_out == max) {
        if (0 == g->z.avail_in && !g->eof) {
            ssize_t n = g->src(g->cls, g->in, sizeof g->in);
            if (n < 0)
                return -1;
            if (0 == n) {
                g->eof = 1;
            } else {
                g->z.next_in = (Bytef *)g->in;
                g->z.avail_in = (uInt)n;
            }
        }
        int zr = deflate(&g->z, g->eof ? Z_FINISH : Z_NO_FLUSH);
        if (Z_STREAM_END == zr) {
            g->done = 1;
            break;
        }
        if (zr != Z_OK && zr != Z_BUF_ERROR)
            return -1;
    }
    return (ssize_t)(max - g->z.avail_out);
}

int svc_gzip_buffer(sb_arena *a, const char *in, size_t n, int level, char **out, size_t *outn)
{
    z_stream z;
    memset(&z, 0, sizeof z);
    z.zalloc = arena_zalloc;
    z.zfree = arena_zfree;
    z.opaque = a;
    if (n > (1u << 30) || deflateInit2(&z, level, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK)
        return -1;
    uLong cap = deflateBound(&z, (uLong)n) + 32; /* + the gzip header and trailer */
    char *o = sb_arena_alloc(a, cap);
    if (NULL == o)
        return -1;
    z.next_in = (Bytef *)in;
    z.avail_in = (uInt)n;
    z.next_out = (Bytef *)o;
    z.avail_out = (uInt)cap;
    if (deflate(&z, Z_FINISH) != Z_STREAM_END)
        return -1;
    *out = o;
    *outn = (size_t)z.total_out;
    return 0;
}
