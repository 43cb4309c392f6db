/*
 * auth.h - optional bearer-token authentication.
 *
 * Tokens come from a file (one per line; blank lines and # comments skipped;
 * surrounding spaces trimmed) and are kept only as SHA-1 digests. A check
 * hashes the presented token and compares it with every stored digest
 * without an early exit, so the time taken says nothing about which token,
 * or how much of one, matched. Reloading (SIGHUP) swaps the set under a
 * write lock; a failed reload keeps the previous set. A file that is not a
 * regular file, cannot be read whole, or holds no token is an error, at
 * start (a configuration error) and on reload (the previous set stays).
 */
#ifndef SVC_AUTH_H
#define SVC_AUTH_H

#include "../../core/err.h"

#include <pthread.h>
#include <stddef.h>

typedef struct svc_auth {
    pthread_rwlock_t lock;
    unsigned char (*digests)[20];
    size_t n;
    int enabled; /* a tokens file is configured */
    char path[1024];
    char open[256]; /* comma-separated paths that need no token */
} svc_auth;

/* Set up; with a non-empty path, load it. SB_OK, or an sb_code with *err. */
sb_code svc_auth_init(svc_auth *a, const char *path, const char *open_paths, sb_err *err);

/* Re-read the file. SB_OK with *count set, or an sb_code with *err (old set
 * kept). */
sb_code svc_auth_reload(svc_auth *a, size_t *count, sb_err *err);

/* Whether `path` may be served without a token. */
int svc_auth_is_open(const svc_auth *a, const char *path);

/* Check an Authorization header value: 1 accepted, 0 missing/malformed,
 * -1 a bearer token that is not known. */
int svc_auth_check(svc_auth *a, const char *authorization);

void svc_auth_free(svc_auth *a);

#endif
