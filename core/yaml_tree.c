/*
 * yaml_tree.c - YAML documents as arena trees (see yaml_tree.h).
 */
#include "yaml_tree.h"
#include "yaml_ev.h"

#include <string.h>

typedef struct yt_vec {
    sb_yn **v;
    size_t n, cap;
} yt_vec;

static sb_code vec_push(yt_vec *v, sb_arena *a, sb_yn *x)
{
    sb_yn **nv = sb_arena_grow(a, v->v, &v->cap, v->n, sizeof *nv, 8);
    if (NULL == nv)
        return SB_ENOMEM;
    v->v = nv;
    v->v[v->n++] = x;
    return SB_OK;
}

static sb_yn *node(sb_yp *y, sb_yn_type t)
{
    sb_yn *n = sb_arena_calloc(y->arena, 1, sizeof *n);
    if (n) {
        n->type = t;
        n->line = sb_yp_line(y);
        n->col = sb_yp_col(y);
    }
    return n;
}

/* The value starting at the current event; afterwards the current event is
 * its last. Recursion is bounded by the event loop's depth limit. */
static sb_code value(sb_yp *y, sb_yn **out)
{
    yaml_event_type_t t = sb_yp_type(y);
    if (t == YAML_SCALAR_EVENT) {
        sb_yn *n = node(y, SB_YN_SCALAR);
        if (NULL == n)
            return sb_err_set(y->err, SB_ENOMEM, "out of memory");
        *out = n;
        return sb_yp_str(y, &n->s, "a value");
    }
    if (t != YAML_MAPPING_START_EVENT && t != YAML_SEQUENCE_START_EVENT)
        return sb_yp_fail(y, SB_EPARSE, "a value was expected");
    int map = t == YAML_MAPPING_START_EVENT;
    sb_yn *n = node(y, map ? SB_YN_MAP : SB_YN_SEQ);
    if (NULL == n)
        return sb_err_set(y->err, SB_ENOMEM, "out of memory");
    yt_vec kids = {0};
    yaml_event_type_t end = map ? YAML_MAPPING_END_EVENT : YAML_SEQUENCE_END_EVENT;
    for (;;) {
        sb_code rc = sb_yp_next(y);
        if (rc != SB_OK)
            return rc;
        if (sb_yp_type(y) == end)
            break;
        if (map && 0 == kids.n % 2 && sb_yp_type(y) != YAML_SCALAR_EVENT)
            return sb_yp_fail(y, SB_EPARSE, "a mapping key must be a scalar");
        sb_yn *k = NULL;
        if ((rc = value(y, &k)) != SB_OK)
            return rc;
        if (map && 0 == kids.n % 2 && NULL == k->s)
            return sb_yp_fail(y, SB_EPARSE, "a mapping key is null");
        if (vec_push(&kids, y->arena, k) != SB_OK)
            return sb_err_set(y->err, SB_ENOMEM, "out of memory");
    }
    if (map && kids.n % 2)
        return sb_yp_fail(y, SB_EPARSE, "a mapping key has no value");
    n->kids = kids.v;
    n->n = map ? kids.n / 2 : kids.n;
    *out = n;
    return SB_OK;
}

static sb_code documents(sb_yp *y, yt_vec *docs)
{
    for (;;) {
        sb_code rc = sb_yp_next(y);
        if (rc != SB_OK)
            return rc;
        yaml_event_type_t t = sb_yp_type(y);
        if (t == YAML_STREAM_END_EVENT)
            return SB_OK;
        if (t != YAML_DOCUMENT_START_EVENT)
            continue; /* STREAM_START */
        if ((rc = sb_yp_next(y)) != SB_OK)
            return rc;
        sb_yn *root = NULL;
        if ((rc = value(y, &root)) != SB_OK)
            return rc;
        if (vec_push(docs, y->arena, root) != SB_OK)
            return sb_err_set(y->err, SB_ENOMEM, "out of memory");
        if ((rc = sb_yp_next(y)) != SB_OK)
            return rc; /* DOCUMENT_END */
    }
}

sb_code sb_yt_parse(sb_yn ***docs, size_t *ndocs, sb_arena *a, const char *data, size_t len,
                    const sb_limits *lim, sb_err *err)
{
    sb_yp y;
    sb_code rc = sb_yp_open(&y, a, data, len, lim, err);
    if (rc != SB_OK)
        return rc;
    yt_vec v = {0};
    rc = documents(&y, &v);
    sb_yp_close(&y);
    *docs = v.v;
    *ndocs = v.n;
    return rc;
}

const sb_yn *sb_yn_get(const sb_yn *m, const char *key)
{
    if (NULL == m || m->type != SB_YN_MAP)
        return NULL;
    for (size_t i = 0; i < m->n; i++)
        if (!strcmp(sb_yn_key(m, i), key))
            return sb_yn_val(m, i);
    return NULL;
}

const char *sb_yn_str(const sb_yn *m, const char *key)
{
    const sb_yn *v = sb_yn_get(m, key);
    return v && v->type == SB_YN_SCALAR ? v->s : NULL;
}
