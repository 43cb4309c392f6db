/*
 * lock_merge.h - several SBOM inputs merged into one lock (lock_merge.c).
 */
#ifndef SB_LOCK_MERGE_H
#define SB_LOCK_MERGE_H
#include "lock.h"

/* The n locks (each an SBOM read by the cyclonedx / spdx reader: one
 * environment x platform) as one, in `a`: one package per purl with
 * pixi:source-document (the labels of the parts that had it) and
 * pixi:merge-conflict where they disagree; edges united; the parts' root,
 * else a synthetic root "merged" over one pkg:generic component per part
 * root. SB_ELIMIT beyond lim->max_packages. */
sb_code sb_lock_merge(sb_lock **out, sb_arena *a, sb_lock *const *locks, const char *const *labels, size_t n,
                      const sb_limits *lim, sb_err *err);

#endif
