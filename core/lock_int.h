/*
 * lock_int.h - helpers shared by the readers (core/lock_*.c) only.
 */
#ifndef SB_LOCK_INT_H
#define SB_LOCK_INT_H

#include "arena.h"
#include "err.h"
#include "lock.h"
#include "model.h"

/* Fill a conda binary record from its archive URL
 * (.../<channel>/<subdir>/<name>-<version>-<build>.conda|.tar.bz2): kind,
 * location, file name, archive type, and name/version/build/subdir/channel
 * where the record does not state them already. */
sb_code sb_lock__conda_from_url(sb_arena *a, sb_pkg *p, const char *url);

/* Local paths: backslashes -> '/', absolute POSIX -> file://, drive -> file:///. */
const char *sb_lock__location(sb_arena *a, const char *loc);

/* The pixi.lock parser, shared with conda-lock.yml (the same YAML shape as
 * pixi.lock v1); `kind` is recorded in the lock, `only_v1` refuses others. */
sb_code sb_lock__read_pixi_shape(sb_lock **out, sb_arena *a, const char *data, size_t len, const sb_limits *lim,
                                 sb_err *err, const char *kind, int only_v1);

/* The value of a top-level YAML `version:` line anywhere in data[0..n)
 * (content detection): -1 when there is none, -2 when it is not a number;
 * *line, *col (each may be NULL) = where its value is, 1-based. */
long long sb_lock__yaml_version(const char *data, size_t n, unsigned *line, unsigned *col);

/* 1 when some line of data[0..n) starts with `prefix` (content detection). */
int sb_lock__has_line(const char *data, size_t n, const char *prefix);

#endif
