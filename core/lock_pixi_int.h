/*
 * lock_pixi_int.h - internal to the pixi.lock reader (lock_pixi.c) and its
 * piece reader (lock_pixi_par.c): the read's context and raw records, the
 * parsers the first hands the second, and the piece reader's entry.
 */
#ifndef SB_LOCK_PIXI_INT_H
#define SB_LOCK_PIXI_INT_H

#include "lock_int.h"
#include "yaml_ev.h"

/* What a package entry is, by its key (v4+) or its fields (v1-v3). */
typedef enum { SB_PIXI_UNKNOWN, SB_PIXI_CONDA, SB_PIXI_PYPI, SB_PIXI_CONDA_SOURCE } sb_pixi_kind;

/* A package entry as read, before the lock's version says how it joins
 * the environments. */
typedef struct sb_pixi_rec {
    sb_pixi_kind kind;
    const char *loc;      /* keyed location or url */
    const char *platform; /* v1-v3 */
    const char *category; /* conda-lock: main, dev, ... */
    bool optional;        /* conda-lock: not in main */
    sb_pkg *pkg;
    unsigned line, col;
} sb_pixi_rec;

/* A v6 reference may carry selectors that choose among records sharing a
 * location (two builds of one source package, one path for two names). */
typedef struct sb_pixi_ref {
    sb_pixi_kind kind;
    const char *loc;
    const char *name, *version, *build, *subdir; /* v6 selectors, NULL = any */
    unsigned line, col;
} sb_pixi_ref;

/* The package references of one environment x platform (v4+). */
typedef struct sb_pixi_reflist {
    const char *env, *platform;
    sb_pixi_ref *refs;
    size_t n, cap;
} sb_pixi_reflist;

/* One read of a pixi-shaped document, or of one piece of its package list
 * (then only y, a, scratch, err, lim and the records are used). */
typedef struct sb_pixi_ctx {
    sb_yp y;
    sb_arena *a;
    sb_arena *scratch; /* what only the reading needs (record list, references): freed after */
    sb_err *err;
    const sb_limits *lim;
    sb_lock *lock;
    unsigned gap_line; /* read in pieces: the `packages:` line the cut found */
    int gap_read;      /* and the key was there, its list left to the pieces */
    long long version;
    unsigned version_line, version_col;
    int have_version;
    sb_pixi_rec *recs;
    size_t nrecs, caprecs;
    sb_pixi_reflist *lists;
    size_t nlists, caplists;
    sb_strv meta_channels, meta_platforms;
} sb_pixi_ctx;

/* The reader's two parsers, handed to the piece reader (lock_pixi_par.c
 * knows how to cut and join, lock_pixi.c what a record is: the piece reader
 * calls no function of lock_pixi.c by name, so the two files do not loop). */
typedef struct sb_pixi_parsers {
    /* the document, from its first event to its stream end. With
     * c->gap_line set (read in pieces) the package list must be the null
     * that sb_yp_open_gap left on that line; c->gap_read says it was. */
    sb_code (*top)(sb_pixi_ctx *c);
    /* a block sequence of package records, its start the current event;
     * the records are appended to c->recs */
    sb_code (*packages)(sb_pixi_ctx *c);
} sb_pixi_parsers;

/* lock_pixi_par.c: SB_OK when the input was read in pieces with `p`;
 * SB_ETIMEOUT; anything else: not split, or not trusted (read it on one
 * thread). */
sb_code sb_pixi__read_in_pieces(sb_pixi_ctx *c, const char *data, size_t len, const sb_pixi_parsers *p);

#endif
