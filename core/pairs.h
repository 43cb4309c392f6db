/*
 * pairs.h - a request over several selections: which (environment,
 * platform) pairs it makes documents of, in which order, and the selection
 * of each (core/pairs.c).
 */
#ifndef SB_PAIRS_H
#define SB_PAIRS_H

#include <stdbool.h>
#include <stddef.h>
#include "model.h"
#include "select.h"

/* One selection of a multi-document request. */
typedef struct sb_select_pair {
    const char *environment;
    const char *platform; /* NULL: the selection's default (see sb_select) */
} sb_select_pair;

/*
 * The pairs a request selects: every environment (all_envs) or only
 * base->environment ("default" when NULL), and in each every platform it
 * locks (all_plats; an environment that locks none gives its one empty
 * document, platform NULL) or only base->platform. Document order: the
 * "default" environment first, then environments by name, platforms by
 * name. SB_ENOTFOUND (naming the environments) when none matches,
 * SB_ELIMIT when there would be more than `max`.
 */
sb_code sb_model_pairs(sb_select_pair **out, size_t *n, sb_arena *a, const sb_lock *lock, const sb_select_opts *base,
                       bool all_envs, bool all_plats, size_t max, sb_err *err);

/*
 * Select every pair with base's options: docs[i] for pairs[i]. On a failure
 * *at is the pair that failed and err says why (sb_select's codes).
 */
sb_code sb_model_select_pairs(sb_sbom **docs, sb_arena *a, const sb_lock *lock, const sb_select_opts *base,
                              const sb_select_pair *pairs, size_t n, size_t *at, sb_err *err);

#endif
