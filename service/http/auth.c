/*
 * auth.c - bearer tokens from a file, compared in constant time (see auth.h).
 */
#include "auth.h"
#include "../../core/alloc.h"
#include "../../core/buf.h"
#include "../../core/uuid.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#define MAX_TOKEN 4096

/* Read the file into a fresh digest array. */
static sb_code load(const char *path, unsigned char (**out)[20], size_t *nout, sb_err *err)
{
    FILE *f = fopen(path, "r");
    if (NULL == f) {
        return sb_err_set(err, SB_EIO, "tokens-file '%.200s': %s", path, strerror(errno));
    }
    /* a directory opens for reading on Linux and reads as nothing: it must
     * not pass for a file with no tokens */
    struct stat st;
    if (fstat(fileno(f), &st) != 0 || !S_ISREG(st.st_mode)) {
        fclose(f);
        return sb_err_set(err, SB_EINVAL, "tokens-file '%.200s' is not a regular file", path);
    }
    unsigned char(*v)[20] = NULL;
    size_t n = 0, cap = 0;
    char line[MAX_TOKEN + 2];
    unsigned lineno = 0;
    sb_code rc = SB_OK;
    while (fgets(line, sizeof line, f)) {
        lineno++;
        size_t len = strlen(line);
        if (len == sizeof line - 1 && line[len - 1] != '\n') {
            rc = sb_err_set(err, SB_ELIMIT, "tokens-file '%.200s' line %u: longer than %d bytes", path, lineno,
                            MAX_TOKEN);
            break;
        }
        char *b = line, *e = line + len;
        while (b < e && (*b == ' ' || *b == '\t'))
            b++;
        while (e > b && (e[-1] == '\n' || e[-1] == '\r' || e[-1] == ' ' || e[-1] == '\t'))
            e--;
        if (b == e || *b == '#')
            continue;
        if (sb_vec_grow(&v, &cap, n, sizeof *v, 8) != SB_OK) {
            rc = sb_err_set(err, SB_ENOMEM, "out of memory reading tokens");
            break;
        }
        sb_sha1 c;
        sb_sha1_init(&c);
        sb_sha1_update(&c, b, (size_t)(e - b));
        sb_sha1_final(&c, v[n++]);
    }
    if (SB_OK == rc && ferror(f))
        rc = sb_err_set(err, SB_EIO, "tokens-file '%.200s': read error", path);
    /* no token at all would refuse every request: a mistake, never a setting */
    if (SB_OK == rc && 0 == n)
        rc = sb_err_set(err, SB_EINVAL, "tokens-file '%.200s' holds no token", path);
    fclose(f);
    if (rc != SB_OK) {
        sb_free(v); /* sb_vec_grow's, as are a->digests */
        return rc;
    }
    *out = v;
    *nout = n;
    return SB_OK;
}

sb_code svc_auth_init(svc_auth *a, const char *path, const char *open_paths, sb_err *err)
{
    memset(a, 0, sizeof *a);
    pthread_rwlock_init(&a->lock, NULL);
    snprintf(a->open, sizeof a->open, "%s", open_paths ? open_paths : "");
    if (NULL == path || !path[0])
        return 0;
    snprintf(a->path, sizeof a->path, "%s", path);
    a->enabled = 1;
    return load(a->path, &a->digests, &a->n, err);
}

sb_code svc_auth_reload(svc_auth *a, size_t *count, sb_err *err)
{
    if (!a->enabled) {
        *count = 0;
        return 0;
    }
    unsigned char(*v)[20] = NULL;
    size_t n = 0;
    if (load(a->path, &v, &n, err) != SB_OK)
        return err->code;
    pthread_rwlock_wrlock(&a->lock);
    unsigned char(*old)[20] = a->digests;
    a->digests = v;
    a->n = n;
    pthread_rwlock_unlock(&a->lock);
    sb_free(old);
    *count = n;
    return 0;
}

int svc_auth_is_open(const svc_auth *a, const char *path)
{
    size_t pl = strlen(path);
    for (const char *p = a->open; *p;) {
        const char *end = strchr(p, ',');
        size_t n = end ? (size_t)(end - p) : strlen(p);
        if (n == pl && !memcmp(p, path, n))
            return 1;
        if (NULL == end)
            break;
        p = end + 1;
    }
    return 0;
}

int svc_auth_check(svc_auth *a, const char *authorization)
{
    if (NULL == authorization || strncasecmp(authorization, "Bearer ", 7))
        return 0;
    const char *tok = authorization + 7;
    while (*tok == ' ')
        tok++;
    size_t len = strlen(tok);
    while (len && tok[len - 1] == ' ')
        len--;
    if (0 == len || len > MAX_TOKEN)
        return len ? -1 : 0;
    unsigned char d[20];
    sb_sha1 c;
    sb_sha1_init(&c);
    sb_sha1_update(&c, tok, len);
    sb_sha1_final(&c, d);
    unsigned found = 0;
    pthread_rwlock_rdlock(&a->lock);
    for (size_t i = 0; i < a->n; i++) {
        unsigned diff = 0;
        for (size_t k = 0; k < 20; k++)
            diff |= (unsigned)(a->digests[i][k] ^ d[k]);
        found |= ((diff - 1) >> 8) & 1; /* 1 iff diff == 0, without a branch */
    }
    pthread_rwlock_unlock(&a->lock);
    return found ? 1 : -1;
}

void svc_auth_free(svc_auth *a)
{
    sb_free(a->digests);
    a->digests = NULL;
    a->n = 0;
    pthread_rwlock_destroy(&a->lock);
}
