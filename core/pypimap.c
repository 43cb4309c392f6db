/*
 * pypimap.c - the conda -> PyPI name mapping (see pypimap.h).
 */
#include "pypimap.h"
#include "strmap.h"
#include "uuid.h"

#include <jansson.h>
#include <stdio.h>
#include <string.h>

typedef struct names {
    const char **v;
    size_t n;
} names;

struct sb_pypimap {
    sb_arena *a;
    sb_strmap idx; /* conda name -> index into `lists` */
    names *lists;
    size_t n;
    char digest[41];
};

void sb_pypimap_free(sb_pypimap *m)
{
    if (m)
        sb_arena_destroy(m->a);
}

sb_code sb_pypimap_parse(sb_pypimap **out, const char *json, size_t len, sb_err *err)
{
    *out = NULL;
    json_error_t je;
    json_t *root = json_loadb(json, len, JSON_REJECT_DUPLICATES, &je);
    if (NULL == root || !json_is_object(root)) {
        json_decref(root);
        return sb_err_set(err, SB_EPARSE, "the PyPI mapping is not a JSON object (line %d: %.80s)", je.line, je.text);
    }
    sb_arena *a = sb_arena_new(0);
    sb_pypimap *m = a ? sb_arena_calloc(a, 1, sizeof *m) : NULL;
    size_t total = json_object_size(root);
    if (NULL == m || sb_strmap_init(&m->idx, a, total) != SB_OK ||
        NULL == (m->lists = sb_arena_calloc(a, total ? total : 1, sizeof *m->lists))) {
        json_decref(root);
        sb_arena_destroy(a);
        return sb_err_set(err, SB_ENOMEM, "out of memory");
    }
    m->a = a;
    const char *key;
    json_t *v;
    sb_code rc = SB_OK;
    json_object_foreach(root, key, v) {
        names *l = &m->lists[m->n];
        size_t cnt = json_is_string(v) ? 1 : json_is_array(v) ? json_array_size(v) : 0;
        if (!json_is_string(v) && !json_is_array(v) && !json_is_null(v)) {
            rc = sb_err_set(err, SB_EPARSE, "the PyPI mapping's entry '%.80s' is neither a name, a list nor null", key);
            break;
        }
        l->v = cnt ? sb_arena_alloc(a, cnt * sizeof *l->v) : NULL;
        if (cnt && NULL == l->v) {
            rc = sb_err_set(err, SB_ENOMEM, "out of memory");
            break;
        }
        for (size_t i = 0; i < cnt; i++) {
            json_t *s = json_is_string(v) ? v : json_array_get(v, i);
            if (!json_is_string(s) || !json_string_length(s))
                continue; /* a null or empty name inside a list maps to nothing */
            if (NULL == (l->v[l->n++] = sb_arena_strdup(a, json_string_value(s)))) {
                rc = sb_err_set(err, SB_ENOMEM, "out of memory");
                break;
            }
        }
        const char *k = sb_arena_strdup(a, key);
        if (rc != SB_OK || NULL == k || sb_strmap_put(&m->idx, k, strlen(k), m->n, NULL) < 0) {
            if (rc == SB_OK)
                rc = sb_err_set(err, SB_ENOMEM, "out of memory");
            break;
        }
        m->n++;
    }
    json_decref(root);
    if (rc != SB_OK) {
        sb_arena_destroy(a);
        return rc;
    }
    sb_sha1 c;
    unsigned char d[20];
    sb_sha1_init(&c);
    sb_sha1_update(&c, json, len);
    sb_sha1_final(&c, d);
    for (int i = 0; i < 20; i++)
        snprintf(m->digest + 2 * i, 3, "%02x", d[i]);
    *out = m;
    return SB_OK;
}

const char *const *sb_pypimap_get(const sb_pypimap *m, const char *conda_name, size_t *n)
{
    size_t at;
    *n = 0;
    if (NULL == m || !sb_strmap_get(&m->idx, conda_name, strlen(conda_name), &at) || 0 == m->lists[at].n)
        return NULL;
    *n = m->lists[at].n;
    return m->lists[at].v;
}

size_t sb_pypimap_count(const sb_pypimap *m)
{
    return m ? m->n : 0;
}

const char *sb_pypimap_digest(const sb_pypimap *m)
{
    return m ? m->digest : NULL;
}
