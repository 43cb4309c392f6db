/*
 * fuzz_multipart.c - libFuzzer target: the multipart/form-data parser
 * (service/http/multipart.c) as a request drives it. The input up to the first
 * newline is the Content-Type header value (its boundary parameter), the
 * rest the body. Every part's name, file name and bytes are read so ASan
 * sees them; a part's data must be NUL-terminated at its length (in place). Must never
 * crash, leak or loop.
 */
#include "../../service/http/multipart.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const uint8_t *nl = memchr(data, '\n', size);
    size_t hl = nl ? (size_t)(nl - data) : size;
    char *ct = malloc(hl + 1);
    sb_arena *a = sb_arena_new((size_t)64 << 20);
    if (ct && a) {
        memcpy(ct, data, hl);
        ct[hl] = '\0';
        size_t blen = nl ? size - hl - 1 : 0;
        char *body = malloc(blen + 1); /* parsed in place, as a request's body is */
        if (NULL == body)
            goto out;
        memcpy(body, nl ? (const char *)nl + 1 : "", blen);
        body[blen] = '\0';
        svc_part *parts = NULL;
        size_t n = 0;
        sb_err err;
        sb_err_clear(&err);
        volatile size_t sum = 0;
        if (svc_multipart_parse(a, ct, body, blen, &parts, &n, &err) == 0) {
            for (size_t i = 0; i < n; i++) {
                sum += strlen(parts[i].name) + (parts[i].filename ? strlen(parts[i].filename) : 0);
                if (parts[i].len && parts[i].data[parts[i].len] != '\0')
                    abort(); /* the copy is NUL-terminated where its length ends */
                sum += parts[i].len ? (unsigned char)parts[i].data[parts[i].len - 1] : 0;
            }
        }
        free(body);
    }
out:
    sb_arena_destroy(a);
    free(ct);
    return 0;
}
