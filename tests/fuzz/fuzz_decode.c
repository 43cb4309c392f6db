/* fuzz_decode.c - libFuzzer target: request bodies with a Content-Encoding
 * (service/http/decode.c). The first byte picks the coding (gzip, deflate, zstd,
 * or a refusing budget); the rest is the body. The output never passes the
 * cap, is NUL-terminated, and a refusing budget always stops it. */
#include "../../service/http/decode.h"

#include <stdint.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int refuse_past_1mib(void *ctx, size_t len)
{
    (void)ctx;
    return len > (1u << 20);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    static const char *const codings[] = {"gzip", "deflate", "zstd", "x-gzip"};
    const char *coding = codings[data[0] & 3];
    int budget = (data[0] >> 2) & 1;
    sb_buf in = SB_BUF_INIT(0), out;
    if (size > 1 && sb_buf_append(&in, data + 1, size - 1) != SB_OK)
        return 0;
    char why[160];
    size_t cap = 4u << 20;
    svc_decode_rc rc = svc_decode_body(coding, &in, cap, &out, budget ? refuse_past_1mib : NULL, NULL, why, sizeof why);
    if (out.len > cap || (budget && out.len > (1u << 20)))
        __builtin_trap();
    if (rc == SVC_DECODE_OK && out.data && out.data[out.len] != '\0')
        __builtin_trap();
    if (rc == SVC_DECODE_UNKNOWN)
        __builtin_trap(); /* every coding here is one sbomd reads */
    sb_buf_free(&out);
    sb_buf_free(&in);
    return 0;
}
