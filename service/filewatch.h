/*
 * filewatch.h - noticing that a file the server read at start (tokens-file,
 * tls-cert, tls-key) was replaced, so it can be reloaded without a signal.
 *
 * A Kubernetes Secret mounted as a volume is updated by swapping a symlink
 * to a new directory; nobody sends SIGHUP. The main thread polls each file
 * about once a second with stat(2) (following links): device, inode, size
 * and modification time make its signature. A change is reported once the
 * new signature has been seen twice in a row, so a file still being written
 * in place is not read half-way.
 */
#ifndef SVC_FILEWATCH_H
#define SVC_FILEWATCH_H

typedef struct svc_filesig {
    int exists;
    unsigned long long dev, ino, size, mtime_ns;
} svc_filesig;

typedef struct svc_filewatch {
    char path[1024];    /* "" = nothing watched */
    svc_filesig loaded; /* what the server last read (or tried to) */
    svc_filesig seen;   /* what the previous poll found */
} svc_filewatch;

/* Watch `path` ("" or NULL: nothing), taking its current state as loaded. */
void svc_filewatch_init(svc_filewatch *w, const char *path);

/* One poll: 1 when the file differs from what was loaded and has been the
 * same for two polls (it is then taken as loaded: reload it now), else 0. */
int svc_filewatch_poll(svc_filewatch *w);

#endif
