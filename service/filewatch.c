/*
 * filewatch.c - a file's stat(2) signature and the two-polls-alike rule
 * (filewatch.h).
 */
#include "filewatch.h"

#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

static svc_filesig sig_of(const char *path)
{
    svc_filesig s;
    memset(&s, 0, sizeof s);
    struct stat st;
    if (stat(path, &st) != 0)
        return s;
    s.exists = 1;
    s.dev = (unsigned long long)st.st_dev;
    s.ino = (unsigned long long)st.st_ino;
    s.size = (unsigned long long)st.st_size;
    s.mtime_ns = (unsigned long long)st.st_mtim.tv_sec * 1000000000ull + (unsigned long long)st.st_mtim.tv_nsec;
    return s;
}

static int same(const svc_filesig *a, const svc_filesig *b)
{
    return a->exists == b->exists && a->dev == b->dev && a->ino == b->ino && a->size == b->size &&
           a->mtime_ns == b->mtime_ns;
}

void svc_filewatch_init(svc_filewatch *w, const char *path)
{
    memset(w, 0, sizeof *w);
    if (NULL == path || !path[0])
        return;
    snprintf(w->path, sizeof w->path, "%s", path);
    w->loaded = w->seen = sig_of(w->path);
}

int svc_filewatch_poll(svc_filewatch *w)
{
    if (!w->path[0])
        return 0;
    svc_filesig now = sig_of(w->path);
    int settled = same(&now, &w->seen);
    w->seen = now;
    if (!settled || same(&now, &w->loaded))
        return 0;
    /* taken as loaded whether the reload then succeeds or not: a broken
     * file is reported once, and tried again when it changes again */
    w->loaded = now;
    return 1;
}
