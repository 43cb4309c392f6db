/*
 * decode.h - request bodies sent with a Content-Encoding (RFC 9110 8.4):
 * gzip / x-gzip, deflate (zlib) and zstd are inflated before the body is
 * read as a lockfile, so `curl --data-binary @pixi.lock.gz -H
 * 'Content-Encoding: gzip'` works. Limits apply to the inflated size: a
 * decompression bomb is a 413 once it passes max-body, never a full
 * inflation; each growth is reported to the caller first (the memory
 * budget charges it).
 */
#ifndef SVC_DECODE_H
#define SVC_DECODE_H

#include "../../core/buf.h"

#include <stddef.h>

/* What svc_decode_body answers. */
typedef enum svc_decode_rc {
    SVC_DECODE_OK = 0,
    SVC_DECODE_UNKNOWN, /* a coding sbomd does not read: 415 */
    SVC_DECODE_CORRUPT, /* not valid data in that coding, or truncated: 400 */
    SVC_DECODE_TOO_BIG, /* inflates past max: 413 */
    SVC_DECODE_REFUSED, /* `grow` said no (the memory budget): 503 */
    SVC_DECODE_NOMEM
} svc_decode_rc;

/* The codings read, for a 415's detail and an Accept-Encoding answer. */
#define SVC_DECODE_CODINGS "gzip, x-gzip, deflate, zstd, identity"

/* Whether a Content-Encoding value needs decoding (NULL, "" and
 * "identity" do not). */
int svc_decode_needed(const char *coding);

/* Inflate `in` (coded with `coding`, one coding only) into `out` (fresh,
 * freed by the caller), at most `max` bytes. Before the output grows past
 * each MiB, grow(ctx, new_len) is asked and a non-zero answer stops it. */
svc_decode_rc svc_decode_body(const char *coding, const sb_buf *in, size_t max, sb_buf *out,
                              int (*grow)(void *ctx, size_t len), void *ctx, char *why, size_t nwhy);

#endif
