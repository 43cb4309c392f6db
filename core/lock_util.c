/*
 * lock_util.c - what more than one reader derives the same way: a local
 * path as a location URL, and a conda binary record from its archive URL
 * (pixi.lock, conda-lock.yml, @EXPLICIT lists). Declared in lock_int.h.
 */
#include "lock_int.h"

#include <ctype.h>
#include <string.h>

/* Local paths: backslashes -> '/', absolute POSIX -> file://, drive -> file:///. */
const char *sb_lock__location(sb_arena *a, const char *loc)
{
    if (NULL == loc)
        return NULL;
    if (strstr(loc, "://")) /* a copy even so: readers hand in strings of scratch trees (pnpm, npm) */
        return sb_arena_strdup(a, loc);
    char *d = sb_arena_strdup(a, loc);
    if (NULL == d)
        return NULL;
    for (char *q = d; *q; q++)
        if (*q == '\\')
            *q = '/';
    if (d[0] == '/')
        return sb_arena_printf(a, "file://%s", d);
    if (isalpha((unsigned char)d[0]) && d[1] == ':' && d[2] == '/')
        return sb_arena_printf(a, "file:///%s", d);
    return d;
}

sb_code sb_lock__conda_from_url(sb_arena *a, sb_pkg *p, const char *url)
{
    if (NULL == sb_pkg_x(p, a))
        return SB_ENOMEM;
    p->kind = SB_KIND_CONDA;
    p->location = sb_lock__location(a, url);
    const char *file = strrchr(url, '/');
    file = file ? file + 1 : url;
    p->file_name = file;
    size_t flen = strlen(file), stem_len = flen;
    if (flen > 6 && !strcmp(file + flen - 6, ".conda")) {
        p->x->archive_type = "conda";
        stem_len = flen - 6;
    } else if (flen > 8 && !strcmp(file + flen - 8, ".tar.bz2")) {
        p->x->archive_type = "tar.bz2";
        stem_len = flen - 8;
    }
    /* name-version-build split from the right */
    char *stem = sb_arena_strndup(a, file, stem_len);
    if (NULL == stem)
        return SB_ENOMEM;
    char *dash2 = strrchr(stem, '-');
    if (dash2) {
        *dash2 = '\0';
        char *dash1 = strrchr(stem, '-');
        if (dash1) {
            *dash1 = '\0';
            if (NULL == p->name)
                p->name = stem;
            if (NULL == p->version)
                p->version = dash1 + 1;
            if (NULL == p->x->build)
                p->x->build = dash2 + 1;
        }
    }
    /* subdir and channel from ".../<channel>/<subdir>/<file>" */
    size_t dir_len = (size_t)(file - url);
    if (dir_len > 1) {
        const char *dir_end = url + dir_len - 1; /* the '/' before file */
        const char *sd = dir_end;
        while (sd > url && sd[-1] != '/')
            sd--;
        if (NULL == p->x->subdir && dir_end > sd)
            p->x->subdir = sb_arena_strndup(a, sd, (size_t)(dir_end - sd));
        if (sd > url) {
            p->x->channel_url = sb_arena_strndup(a, url, (size_t)(sd - url));
            const char *ce = sd - 1, *cs = ce;
            while (cs > url && cs[-1] != '/')
                cs--;
            if (ce > cs && strstr(p->x->channel_url, "://"))
                p->x->channel = sb_arena_strndup(a, cs, (size_t)(ce - cs));
        }
    }
    if (p->x->subdir && !strcmp(p->x->subdir, "noarch"))
        p->noarch = true;
    return SB_OK;
}
