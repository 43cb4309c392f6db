/*
 * lock_keyed.c - records that name their dependencies by package name,
 * resolved once the whole input is read (see lock_keyed.h).
 */
#include "lock_keyed.h"

#include <string.h>

sb_code sb_kl_init(sb_kl *l, sb_arena *a, const char *kind, const sb_limits *lim)
{
    memset(l, 0, sizeof *l);
    l->a = a;
    l->kind = kind;
    l->max_packages = lim ? lim->max_packages : 500000;
    l->dl = (sb_deadline){lim ? lim->deadline_ns : 0, 0, "reading the lockfile"};
    return sb_strmap_init(&l->by_key, a, 64);
}

sb_code sb_kl_tick(sb_kl *l, sb_err *err)
{
    return sb_deadline_tick(&l->dl, err);
}

sb_code sb_kl_add(sb_kl *l, sb_pkg **out, sb_kind kind, const char *key, const char *name, const char *version,
                  unsigned line, sb_err *err)
{
    *out = NULL;
    size_t was;
    if (sb_strmap_get(&l->by_key, key, strlen(key), &was))
        return SB_OK;
    if (l->n >= l->max_packages)
        return sb_err_set_at(err, SB_ELIMIT, line, 1, "more than %zu packages", l->max_packages);
    sb_pkg **nv = sb_arena_grow(l->a, l->pkgs, &l->cap, l->n, sizeof *nv, 64);
    sb_pkg *p = nv ? sb_arena_calloc(l->a, 1, sizeof *p) : NULL;
    if (nv)
        l->pkgs = nv;
    if (NULL == p || sb_strmap_put(&l->by_key, key, strlen(key), l->n, NULL) < 0)
        return sb_err_set(err, SB_ENOMEM, "out of memory");
    p->kind = kind;
    p->key = key;
    p->name = name;
    p->version = version;
    p->noarch = true;
    l->pkgs[l->n++] = p;
    *out = p;
    return SB_OK;
}

sb_pkg *sb_kl_find(const sb_kl *l, const char *key)
{
    size_t at;
    return sb_strmap_get(&l->by_key, key, strlen(key), &at) ? l->pkgs[at] : NULL;
}

sb_code sb_kl_prop(sb_kl *l, sb_pkg *p, const char *name, const char *value)
{
    if (NULL == value || sb_strv_push(&p->reader_props, l->a, name) != SB_OK)
        return SB_ENOMEM;
    return sb_strv_push(&p->reader_props, l->a, value);
}

/* Every record of a name as a chain: head[] by the name's first record,
 * next[] from one record to the following one of the same name. */
typedef struct names {
    sb_strmap first; /* name -> first record */
    size_t *next;    /* record -> next record of its name, n when none */
    size_t *stamp;   /* first record of a name -> 1 + the record that last resolved it */
} names;

static sb_code index_names(names *nm, sb_kl *l, sb_arena *tmp, sb_err *err)
{
    if (sb_strmap_init(&nm->first, tmp, l->n + 1) != SB_OK ||
        NULL == (nm->next = sb_arena_alloc(tmp, (l->n + 1) * sizeof *nm->next)) ||
        NULL == (nm->stamp = sb_arena_calloc(tmp, l->n + 1, sizeof *nm->stamp)))
        return sb_err_set(err, SB_ENOMEM, "out of memory");
    size_t *last = sb_arena_alloc(tmp, (l->n + 1) * sizeof *last);
    if (NULL == last)
        return sb_err_set(err, SB_ENOMEM, "out of memory");
    for (size_t i = 0; i < l->n; i++) {
        if (sb_kl_tick(l, err) != SB_OK)
            return err->code;
        nm->next[i] = l->n;
        size_t head;
        const char *name = l->pkgs[i]->name;
        int had = sb_strmap_put(&nm->first, name, strlen(name), i, &head);
        if (had < 0)
            return sb_err_set(err, SB_ENOMEM, "out of memory");
        if (had) {
            nm->next[last[head]] = i;
            last[head] = i;
        } else {
            last[i] = i;
        }
    }
    return SB_OK;
}

/* Append the keys of every record named `name` (but `self`) to *out, each
 * name once per resolving record `who` (stamped). */
static sb_code resolve(sb_kl *l, names *nm, const char *name, size_t self, size_t who, sb_strv *out, sb_err *err)
{
    size_t head;
    if (l->names_are_keys) {
        if (!sb_strmap_get(&l->by_key, name, strlen(name), &head) || head == self || nm->stamp[head] == who + 1)
            return SB_OK;
        nm->stamp[head] = who + 1;
        return sb_strv_push(out, l->a, l->pkgs[head]->key) == SB_OK ? SB_OK
                                                                    : sb_err_set(err, SB_ENOMEM, "out of memory");
    }
    if (!sb_strmap_get(&nm->first, name, strlen(name), &head) || nm->stamp[head] == who + 1)
        return SB_OK;
    nm->stamp[head] = who + 1;
    for (size_t j = head; j < l->n; j = nm->next[j]) {
        if (sb_kl_tick(l, err) != SB_OK)
            return err->code;
        if (j != self && sb_strv_push(out, l->a, l->pkgs[j]->key) != SB_OK)
            return sb_err_set(err, SB_ENOMEM, "out of memory");
    }
    return SB_OK;
}

sb_code sb_kl_build(sb_lock **out, sb_kl *l, sb_err *err)
{
    sb_arena *tmp = sb_arena_child(l->a);
    sb_lock *lk = sb_arena_calloc(l->a, 1, sizeof *lk);
    sb_lock_env *env = lk ? sb_lock_env_get(lk, l->a, "default") : NULL;
    sb_lock_platform *lp = env ? sb_lock_platform_get(env, l->a, "noarch") : NULL;
    if (NULL == tmp || NULL == lp) {
        sb_arena_destroy(tmp);
        return sb_err_set(err, SB_ENOMEM, "out of memory");
    }
    names nm;
    sb_code rc = index_names(&nm, l, tmp, err);
    for (size_t i = 0; rc == SB_OK && i < l->n; i++) {
        sb_pkg *p = l->pkgs[i];
        sb_strv keys = {0};
        for (size_t k = 0; rc == SB_OK && k < p->depends.n; k++)
            rc = resolve(l, &nm, p->depends.v[k], i, i, &keys, err);
        p->depends = keys;
    }
    sb_strv roots = {0};
    for (size_t k = 0; rc == SB_OK && k < l->roots.n; k++)
        rc = resolve(l, &nm, l->roots.v[k], l->n, l->n, &roots, err);
    if (rc == SB_OK && l->n && NULL == (lp->pkgs = sb_arena_alloc(l->a, l->n * sizeof *lp->pkgs)))
        rc = sb_err_set(err, SB_ENOMEM, "out of memory");
    if (rc == SB_OK)
        lp->cap = l->n;
    for (size_t i = 0; rc == SB_OK && i < l->n; i++)
        if (sb_lock_platform_add(lp, l->a, l->pkgs[i]) != SB_OK)
            rc = sb_err_set(err, SB_ENOMEM, "out of memory");
    sb_arena_destroy(tmp);
    if (rc != SB_OK)
        return rc;
    lk->kind = l->kind;
    lk->nrecords = l->n;
    lp->has_root_names = l->has_roots;
    lp->root_names = roots;
    *out = lk;
    return SB_OK;
}
