/*
 * repo.h - a whole repository in one input: every lockfile of an archive
 * (tar, tar.gz, tar.zst, zip) or of several named files, each read by the
 * reader the registry picks, merged into one lock whose root is the
 * repository and where each lockfile is a component of its own (repo.c).
 */
#ifndef SB_REPO_H
#define SB_REPO_H

#include "archive.h"
#include "lock.h"
#include "manifest.h"

/* The bounds a repository is read within when the caller sets none. */
#define SB_REPO_ENTRIES_MAX 100000LL    /* members of the archive */
#define SB_REPO_MEMBER_MAX (64LL << 20) /* bytes of one lockfile or manifest */
#define SB_REPO_TOTAL_MAX (1LL << 30)   /* uncompressed bytes of the whole archive */
#define SB_REPO_RATIO_MAX 200LL         /* uncompressed : compressed */
#define SB_REPO_SNIFF_MAX (256 * 1024)  /* a file of another name is looked into up to this size */
#define SB_REPO_MANIFEST_MAX (1 << 20)  /* bytes of a manifest read beside a lockfile */
#define SB_REPO_DEPTH_MAX 64            /* path components of a member's name */
#define SB_REPO_LISTED_MAX 1000         /* skipped files listed one by one; the rest are counted */

typedef struct sb_repo_opts {
    const char *const *paths; /* globs: only paths matching one are read (NULL/0 = all) */
    size_t npaths;
    const char *const *skip_paths; /* globs: paths matching one are skipped */
    size_t nskip;
    sb_archive_caps caps;               /* zero fields: the SB_REPO_* defaults */
    const sb_limits *lim;               /* each lockfile's reading: package caps, platform, deadline */
    const char *environment, *platform; /* what each lockfile's selection asks for (NULL = its default) */
    bool strict;                        /* a lockfile that fails to read fails the whole repository */
    /* Charge `bytes` more to the caller's memory account before they are
     * held; nonzero refuses them (the walk stops with SB_ENOMEM; the caller
     * has said why). NULL: nothing is charged. */
    int (*charge)(void *cls, size_t bytes);
    void *charge_cls;
} sb_repo_opts;

typedef enum sb_repo_state {
    SB_REPO_READ,    /* read and merged */
    SB_REPO_FAILED,  /* a lockfile that did not read: listed in pixi:incomplete */
    SB_REPO_SKIPPED, /* not read: `why` says why */
} sb_repo_state;

typedef struct sb_repo_file {
    const char *path;     /* relative to the repository's top */
    const char *kind;     /* the reader's kind; NULL for a file that is no lockfile */
    const char *why;      /* failed or skipped: the reason */
    const char *manifest; /* read: the manifest beside it that was applied, NULL = none */
    sb_repo_state state;
    sb_lock *lock;                      /* read: the lockfile's own lock (one document per lockfile) */
    const sb_manifest *man;             /* read: that manifest, as applied; NULL = none */
    const char *environment, *platform; /* read: what its own selection settled on */
    unsigned line, column;
} sb_repo_file;

typedef struct sb_repo {
    sb_lock *lock;       /* the merged lock: NULL when no lockfile was read */
    const char *top;     /* the folder every member is under ("proj-1.0"), NULL when none */
    sb_repo_file *files; /* lockfiles first (archive order), then skipped files */
    size_t nfiles, nread, nfailed, nskipped;
    size_t unlisted; /* skipped files past SB_REPO_LISTED_MAX, counted only */
    size_t entries;  /* members walked */
} sb_repo;

/* Which archive a body is (sb_archive_sniff). */
const char *sb_repo_sniff(const void *data, size_t len);

/* Read every lockfile of an archive. SB_ENOTFOUND when it holds none (the
 * message lists what was skipped); SB_ELIMIT naming the cap an archive
 * passes; SB_EPARSE for a damaged one; with opts->strict the first lockfile
 * that fails, located (path, line). */
sb_code sb_repo_read(sb_repo **out, sb_arena *a, const void *data, size_t len, const sb_repo_opts *o, sb_err *err);

/* The same for n named files (a multipart request's lockfile parts). */
sb_code sb_repo_read_files(sb_repo **out, sb_arena *a, const char *const *names, const char *const *data,
                           const size_t *lens, size_t n, const sb_repo_opts *o, sb_err *err);

/* "a/uv.lock, b/pixi.lock" (read) and "node_modules/ (default), x.lock (a
 * link, not followed), ..." (skipped), each at most `cap` bytes with the
 * rest counted; for a response header. */
const char *sb_repo_read_list(const sb_repo *r, sb_arena *a, size_t cap);
const char *sb_repo_skipped_list(const sb_repo *r, sb_arena *a, size_t cap);

#endif
