/* fuzz_license.c - libFuzzer target: license normalization and purl parsing
 * (parse -> build round trip) on arbitrary strings. */
#include "../../core/arena.h"
#include "../../core/license.h"
#include "../../core/purl.h"

#include <stdint.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    sb_arena *a = sb_arena_new(0);
    if (!a)
        return 0;
    char *s = sb_arena_strndup(a, (const char *)data, size);
    if (s) {
        sb_lic l = sb_lic_normalize(a, s);
        if (l.kind == SB_LIC_EXPR) {
            /* a canonical expression normalizes to itself */
            sb_lic again = sb_lic_normalize(a, l.value);
            if (again.kind != SB_LIC_EXPR || strcmp(again.value, l.value))
                __builtin_trap();
        }
        sb_purl p;
        if (sb_purl_parse(&p, a, s, NULL) == SB_OK) {
            char *out = NULL;
            if (sb_purl_build(&out, a, &p, NULL) == SB_OK) {
                sb_purl q;
                char *out2 = NULL;
                if (sb_purl_parse(&q, a, out, NULL) != SB_OK || sb_purl_build(&out2, a, &q, NULL) != SB_OK ||
                    strcmp(out, out2))
                    __builtin_trap(); /* canonical form is a fixed point */
            }
        }
    }
    sb_arena_destroy(a);
    return 0;
}
