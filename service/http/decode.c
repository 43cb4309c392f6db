/*
 * decode.c - inflating gzip, deflate and zstd request bodies (see decode.h).
 *
 * The output grows one 64 KiB step at a time into an sb_buf capped at
 * max-body, so a bomb costs at most max-body bytes (and is charged to the
 * memory budget MiB by MiB before it is held), however much it claims.
 */
#include "decode.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <zlib.h>
#include <zstd.h>

#define STEP (64u << 10)

int svc_decode_needed(const char *coding)
{
    return coding && coding[0] && strcasecmp(coding, "identity");
}

/* Room for one more step of output: the budget asked at each new MiB. */
static svc_decode_rc room(sb_buf *out, size_t max, size_t *asked, int (*grow)(void *, size_t), void *ctx, size_t *space)
{
    if (out->len >= max)
        return SVC_DECODE_TOO_BIG;
    size_t want = out->len + STEP;
    if (want > max)
        want = max;
    if (grow && want > *asked) {
        size_t mib = (size_t)1 << 20;
        size_t next = (want + mib - 1) / mib * mib;
        if (grow(ctx, next))
            return SVC_DECODE_REFUSED;
        *asked = next;
    }
    *space = want - out->len;
    return sb_buf_reserve(out, *space) == SB_OK ? SVC_DECODE_OK : SVC_DECODE_NOMEM;
}

static svc_decode_rc inflate_zlib(const sb_buf *in, size_t max, sb_buf *out, int (*grow)(void *, size_t), void *ctx,
                                  char *why, size_t nwhy)
{
    z_stream z;
    memset(&z, 0, sizeof z);
    /* 32 + 15: gzip or zlib framing, detected from the header */
    if (inflateInit2(&z, 32 + MAX_WBITS) != Z_OK)
        return SVC_DECODE_NOMEM;
    z.next_in = (Bytef *)(in->data ? in->data : "");
    z.avail_in = (uInt)in->len;
    size_t asked = 0;
    svc_decode_rc rc = SVC_DECODE_OK;
    for (;;) {
        size_t space;
        if ((rc = room(out, max, &asked, grow, ctx, &space)) != SVC_DECODE_OK)
            break;
        z.next_out = (Bytef *)out->data + out->len;
        z.avail_out = (uInt)space;
        int zr = inflate(&z, Z_NO_FLUSH);
        out->len += space - z.avail_out;
        if (zr == Z_STREAM_END) {
            if (z.avail_in) /* gzip members after the first: RFC 1952 allows them */
                snprintf(why, nwhy, "%u bytes follow the end of the compressed stream", z.avail_in);
            rc = z.avail_in ? SVC_DECODE_CORRUPT : SVC_DECODE_OK;
            break;
        }
        if (zr != Z_OK && !(zr == Z_BUF_ERROR && z.avail_in)) {
            snprintf(why, nwhy, "%s",
                     zr == Z_BUF_ERROR ? "the compressed body is truncated"
                     : z.msg           ? z.msg
                                       : "the compressed body is not valid");
            rc = SVC_DECODE_CORRUPT;
            break;
        }
        if (z.avail_in == 0 && z.avail_out != 0) {
            snprintf(why, nwhy, "the compressed body is truncated");
            rc = SVC_DECODE_CORRUPT;
            break;
        }
    }
    inflateEnd(&z);
    if (out->data)
        out->data[out->len] = '\0';
    return rc;
}

static svc_decode_rc inflate_zstd(const sb_buf *in, size_t max, sb_buf *out, int (*grow)(void *, size_t), void *ctx,
                                  char *why, size_t nwhy)
{
    ZSTD_DStream *zs = ZSTD_createDStream();
    if (NULL == zs)
        return SVC_DECODE_NOMEM;
    /* a frame may claim a window of gigabytes; libzstd would allocate it */
    ZSTD_DCtx_setParameter(zs, ZSTD_d_windowLogMax, 27);
    ZSTD_inBuffer ib = {in->data ? in->data : "", in->len, 0};
    size_t asked = 0, last = 1;
    svc_decode_rc rc = SVC_DECODE_OK;
    while (ib.pos < ib.size || last != 0) {
        size_t space;
        if ((rc = room(out, max, &asked, grow, ctx, &space)) != SVC_DECODE_OK)
            break;
        ZSTD_outBuffer ob = {out->data + out->len, space, 0};
        size_t before = ib.pos;
        last = ZSTD_decompressStream(zs, &ob, &ib);
        out->len += ob.pos;
        if (ZSTD_isError(last)) {
            snprintf(why, nwhy, "zstd: %s", ZSTD_getErrorName(last));
            rc = SVC_DECODE_CORRUPT;
            break;
        }
        if (ib.pos == ib.size && ob.pos == 0 && before == ib.pos && last != 0) {
            snprintf(why, nwhy, "the compressed body is truncated");
            rc = SVC_DECODE_CORRUPT;
            break;
        }
    }
    ZSTD_freeDStream(zs);
    if (out->data)
        out->data[out->len] = '\0';
    return rc;
}

svc_decode_rc svc_decode_body(const char *coding, const sb_buf *in, size_t max, sb_buf *out,
                              int (*grow)(void *ctx, size_t len), void *ctx, char *why, size_t nwhy)
{
    why[0] = '\0';
    sb_buf_init(out, max);
    if (!strcasecmp(coding, "gzip") || !strcasecmp(coding, "x-gzip") || !strcasecmp(coding, "deflate"))
        return inflate_zlib(in, max, out, grow, ctx, why, nwhy);
    if (!strcasecmp(coding, "zstd"))
        return inflate_zstd(in, max, out, grow, ctx, why, nwhy);
    snprintf(why, nwhy, "Content-Encoding '%.40s' is not one sbomd reads (%s)", coding, SVC_DECODE_CODINGS);
    return SVC_DECODE_UNKNOWN;
}
