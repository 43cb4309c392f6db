/*
 * lock.c - reader registry and dispatch by kind or by content.
 */
#include "lock.h"
#include "lock_int.h"

#include <stdio.h>
#include <string.h>

static const sb_reader *const readers[] = {
    &sb_reader_explicit,
    &sb_reader_condalock,
    &sb_reader_uv,
    &sb_reader_pylock,
    &sb_reader_poetry,
    &sb_reader_pdm,
    &sb_reader_requirements,
    &sb_reader_npm,
    &sb_reader_pnpm,
    &sb_reader_yarn,
    &sb_reader_pixi,
    NULL,
};

/* "pixi.lock, uv.lock, ..." for messages; fixed once the table is. */
static const char *kinds_list(void)
{
    static char buf[256];
    if (!buf[0]) {
        size_t o = 0;
        for (size_t i = 0; readers[i] && o < sizeof buf; i++)
            o += (size_t)snprintf(buf + o, sizeof buf - o, "%s%s", i ? ", " : "", readers[i]->kind);
    }
    return buf;
}

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
        int best = 0;
        for (size_t i = 0; readers[i]; i++) {
            int score = readers[i]->detect(data, len, filename);
            if (score > best) {
                best = score;
                r = readers[i];
            }
        }
        if (NULL == r)
            return sb_err_set(err, SB_EFORMAT, "the input is not a lockfile kind sbomd reads (%s)", kinds_list());
    }
    return r->read(out, a, data, len, lim, err);
}

int sb_lock__has_line(const char *data, size_t n, const char *prefix)
{
    size_t pl = strlen(prefix);
    for (const char *p = data, *end = data + n; p < end;) {
        if ((size_t)(end - p) >= pl && !memcmp(p, prefix, pl))
            return 1;
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        p = nl ? nl + 1 : end;
    }
    return 0;
}
