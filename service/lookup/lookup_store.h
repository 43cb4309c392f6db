/*
 * lookup_store.h - lookup answers on disk, so a restart asks the network only
 * for what it never learned: <root>/pypi/<id> per PyPI release ("1\n<license>"
 * or "0\n": the release names none), <root>/conda-info/<id>/info/ per conda
 * archive (written by sb_archive_store). <id> is the UUIDv5 of the URL
 * fetched, the configured host's, so a lockfile cannot plant an answer for a
 * package under another's name. Best effort: a write that fails leaves the
 * answer in memory only.
 */
#ifndef SVC_LOOKUP_STORE_H
#define SVC_LOOKUP_STORE_H

#include "../../core/err.h"

#include <stddef.h>

/* The store's root: `configured`, else a new private directory under
 * $TMPDIR (*own = 1: remove it with svc_store_remove). SB_OK, or an
 * sb_code with *err. */
sb_code svc_store_open(char *root, size_t n, const char *configured, int *own, sb_err *err);

/* Remove a private store and everything in it. */
void svc_store_remove(const char *root);

/* Where url's answer lives (conda: the directory holding info/). */
void svc_store_path(const char *root, const char *url, int conda, char *out, size_t n);

/* Keep a PyPI answer (license NULL: the release names none). */
void svc_store_pypi_put(const char *root, const char *url, const char *license);

/* A PyPI answer younger than ttl seconds: 1 and *license (malloc'd, or
 * NULL for "names none"), else 0. */
int svc_store_pypi_get(const char *root, const char *url, double ttl, char **license);

/* A stored archive's info/ directory (archives do not change: no TTL):
 * 1 and *info_dir (malloc'd), else 0. */
int svc_store_conda_get(const char *root, const char *url, char **info_dir);

#endif
