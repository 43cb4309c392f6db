#include "lock.h"
static int cocoapods_detect(const char *data, size_t len, const char *filename)
{
    (void)data;
    (void)len;
    (void)filename;
    return 0;
}
static sb_code cocoapods_read(sb_lock **out, sb_arena *a, const char *data, size_t len, const sb_limits *lim, sb_err *err)
{
    (void)out;
    (void)a;
    (void)data;
    (void)len;
    (void)lim;
    return sb_err_set(err, SB_EUNSUPPORTED, "not yet");
}
const sb_reader sb_reader_cocoapods = {.kind = "cocoapods", .detect = cocoapods_detect, .read = cocoapods_read};
