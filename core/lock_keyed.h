/*
 * lock_keyed.h - the back half shared by the readers whose records name
 * their dependencies by package name (Gemfile.lock, Podfile.lock, mix.lock):
 * records keyed by identity, names resolved to every record of that name
 * once the whole input is read, and the one-platform sb_lock they become.
 */
#ifndef SB_LOCK_KEYED_H
#define SB_LOCK_KEYED_H

#include "arena.h"
#include "deadline.h"
#include "err.h"
#include "lock.h"
#include "model.h"
#include "strmap.h"

#include <stdbool.h>

typedef struct sb_kl {
    sb_arena *a;
    const char *kind;
    sb_pkg **pkgs; /* records in input order; each pkg->depends holds names until sb_kl_build */
    size_t n, cap;
    sb_strmap by_key;
    sb_strv roots;       /* names the project depends on directly */
    bool has_roots;      /* the input states them */
    bool names_are_keys; /* dependencies and roots name keys, not names (an entry's key is what others name it by) */
    size_t max_packages;
    sb_deadline dl;
} sb_kl;

sb_code sb_kl_init(sb_kl *l, sb_arena *a, const char *kind, const sb_limits *lim);

/* The deadline, once per unit of work over the input. */
sb_code sb_kl_tick(sb_kl *l, sb_err *err);

/* A new record of `kind` keyed `key` (copied by reference: it must live in
 * the arena). *out is NULL (and SB_OK) when the key was read before: the
 * caller decides whether that is an error. SB_ELIMIT past max_packages
 * (message set, at `line`). */
sb_code sb_kl_add(sb_kl *l, sb_pkg **out, sb_kind kind, const char *key, const char *name, const char *version,
                  unsigned line, sb_err *err);

/* The record keyed `key`, NULL when none. */
sb_pkg *sb_kl_find(const sb_kl *l, const char *key);

/* One pixi:* name/value pair on a record. */
sb_code sb_kl_prop(sb_kl *l, sb_pkg *p, const char *name, const char *value);

/* Resolve every record's dependency names (and the roots) to the keys of
 * every record of that name but itself, dropping names no record has, and
 * make the lock: environment "default", platform "noarch". */
sb_code sb_kl_build(sb_lock **out, sb_kl *l, sb_err *err);

#endif
