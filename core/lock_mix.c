#include "lock.h"
static int mix_detect(const char *data, size_t len, const char *filename)
{
    (void)data;
    (void)len;
    (void)filename;
    return 0;
}
static sb_code mix_read(sb_lock **out, sb_arena *a, const char *data, size_t len, const sb_limits *lim, sb_err *err)
{
    (void)out;
    (void)a;
    (void)data;
    (void)len;
    (void)lim;
    return sb_err_set(err, SB_EUNSUPPORTED, "not yet");
}
const sb_reader sb_reader_mix = {.kind = "mix", .detect = mix_detect, .read = mix_read};
