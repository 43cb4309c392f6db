/* fuzz_params.c - libFuzzer target: the request parameter parsers (Accept
 * negotiation for formats and report media types, counts, booleans) on
 * arbitrary strings, as libmicrohttpd would hand them over (NUL-terminated). */
#include "../../service/params.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *s = malloc(size + 1);
    if (!s)
        return 0;
    memcpy(s, data, size);
    s[size] = '\0';
    const sb_doc_ops *f = svc_negotiate_format(s);
    if (f && NULL == sb_doc_find(f->name))
        __builtin_trap(); /* only formats sbomd writes */
    const char *const types[] = {"application/json", "text/plain"};
    int t = svc_negotiate_type(s, types, 2);
    if (t < -1 || t > 1)
        __builtin_trap();
    size_t pos = 0, last = 0;
    svc_accept_item it;
    while (svc_accept_next(s, &pos, &it)) {
        if (pos > size || pos <= last || it.q < 0.0 || it.q > 1.0 || strlen(it.type) >= sizeof it.type)
            __builtin_trap(); /* always progresses, stays in bounds */
        last = pos;
    }
    long long n = -5;
    if (svc_param_count(s, 1000000, &n) == 0 && (n < 0 || n > 1000000))
        __builtin_trap();
    int b;
    svc_param_bool(s, 0, &b);
    free(s);
    return 0;
}
