/*
 * lock.c - reader registry and dispatch by kind or by content.
 */
#include "lock.h"

#include <string.h>

static const sb_reader *const readers[] = {
    &sb_reader_explicit,
    &sb_reader_condalock,
    &sb_reader_pixi,
    NULL,
};

const sb_reader *const *sb_lock_readers(void)
{
    return readers;
}

sb_code sb_lock_read(sb_lock **out, sb_arena *a, const char *kind, const char *data,
                     size_t len, const char *filename, const sb_limits *lim, sb_err *err)
{
    static const sb_limits defaults = SB_LIMITS_DEFAULT;
    if (NULL == lim)
        lim = &defaults;
    const sb_reader *r = NULL;
    if (kind && kind[0] && strcmp(kind, "auto") != 0) {
        for (size_t i = 0; readers[i]; i++)
            if (0 == strcmp(readers[i]->kind, kind))
                r = readers[i];
        if (NULL == r)
            return sb_err_set(err, SB_EFORMAT, "unknown input kind '%.64s'", kind);
    } else {
        for (size_t i = 0; readers[i] && !r; i++)
            if (readers[i]->detect(data, len, filename))
                r = readers[i];
        if (NULL == r)
            return sb_err_set(err, SB_EFORMAT, "the input is not a lockfile kind sbomd reads (pixi.lock, conda-lock.yml, explicit conda spec)");
    }
    return r->read(out, a, data, len, lim, err);
}
