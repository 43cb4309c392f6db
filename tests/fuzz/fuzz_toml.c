/*
 * fuzz_toml.c - libFuzzer target: any bytes through the TOML parser with a
 * callback that looks at every event (paths and values), so the event data
 * is read by ASan. Must never crash, leak or loop.
 */
#include "../../core/arena.h"
#include "../../core/toml.h"

#include <stddef.h>
#include <stdint.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static sb_code touch(void *ud, const sb_toml_seg *path, size_t depth, const sb_toml_value *v, sb_err *err)
{
    size_t *sum = ud;
    (void)err;
    for (size_t i = 0; i < depth; i++)
        *sum += path[i].key ? (size_t)(unsigned char)path[i].key[path[i].klen ? path[i].klen - 1 : 0] : path[i].index;
    if (v->str)
        *sum += v->len ? (size_t)(unsigned char)v->str[v->len - 1] : 0;
    return SB_OK;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    sb_arena *a = sb_arena_new((size_t)256 << 20);
    if (!a)
        return 0;
    sb_err err;
    sb_limits lim = SB_LIMITS_DEFAULT;
    lim.max_events = 200000;
    size_t sum = 0;
    sb_toml_parse(a, (const char *)data, size, &lim, touch, &sum, &err);
    sb_arena_destroy(a);
    return 0;
}
