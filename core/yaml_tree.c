/*
 * yaml_tree.c - YAML documents as arena trees (see yaml_tree.h).
 */
#include "yaml_tree.h"
#include "yaml_ev.h"
#include "alloc.h"
#include "buf.h"

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

/* The children of every open map / sequence, innermost on top, in one
 * malloc'd stack: a finished node gets an exactly sized arena copy of its
 * part, so no arena array is grown and left behind in copies. */
typedef struct yt_stack {
    sb_yn **v;
    size_t n, cap;
} yt_stack;

static sb_code stack_push(yt_stack *st, sb_yn *x)
{
    if (sb_vec_grow(&st->v, &st->cap, st->n, sizeof *st->v, 256) != SB_OK)
        return SB_ENOMEM;
    st->v[st->n++] = x;
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
static sb_code value(sb_yp *y, yt_stack *st, sb_yn **out)
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
    size_t base = st->n; /* this node's children are st->v[base..] */
    yaml_event_type_t end = map ? YAML_MAPPING_END_EVENT : YAML_SEQUENCE_END_EVENT;
    for (;;) {
        sb_code rc = sb_yp_next(y);
        if (rc != SB_OK)
            return rc;
        if (sb_yp_type(y) == end)
            break;
        size_t nk = st->n - base;
        if (map && 0 == nk % 2 && sb_yp_type(y) != YAML_SCALAR_EVENT)
            return sb_yp_fail(y, SB_EPARSE, "a mapping key must be a scalar");
        sb_yn *k = NULL;
        if ((rc = value(y, st, &k)) != SB_OK)
            return rc;
        if (map && 0 == nk % 2 && NULL == k->s)
            return sb_yp_fail(y, SB_EPARSE, "a mapping key is null");
        if (stack_push(st, k) != SB_OK)
            return sb_err_set(y->err, SB_ENOMEM, "out of memory");
    }
    size_t nk = st->n - base;
    if (map && nk % 2)
        return sb_yp_fail(y, SB_EPARSE, "a mapping key has no value");
    if ((map ? nk / 2 : nk) > UINT32_MAX)
        return sb_yp_fail(y, SB_ELIMIT, "a mapping or sequence with more than 2^32 entries");
    if (nk) {
        n->kids = sb_arena_alloc(y->arena, nk * sizeof *n->kids);
        if (NULL == n->kids)
            return sb_err_set(y->err, SB_ENOMEM, "out of memory");
        memcpy(n->kids, st->v + base, nk * sizeof *n->kids);
    }
    st->n = base;
    n->n = (uint32_t)(map ? nk / 2 : nk);
    *out = n;
    return SB_OK;
}

static sb_code documents(sb_yp *y, yt_stack *st, yt_vec *docs)
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
        if ((rc = value(y, st, &root)) != SB_OK)
            return rc;
        if (vec_push(docs, y->arena, root) != SB_OK)
            return sb_err_set(y->err, SB_ENOMEM, "out of memory");
        if ((rc = sb_yp_next(y)) != SB_OK)
            return rc; /* DOCUMENT_END */
    }
}

sb_code sb_yt_parse(sb_yn ***docs, size_t *ndocs, sb_arena *a, const char *data, size_t len, const sb_limits *lim,
                    sb_err *err)
{
    sb_yp y;
    sb_code rc = sb_yp_open(&y, a, data, len, lim, err);
    if (rc != SB_OK)
        return rc;
    yt_vec v = {0};
    yt_stack st = {0};
    rc = documents(&y, &st, &v);
    sb_free(st.v);
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
