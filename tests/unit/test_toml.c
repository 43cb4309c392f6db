/*
 * test_toml.c - the official toml-test vectors for TOML 1.0.0 (the list in
 * ../shared/data/toml-test/tests/files-toml-1.0.0): every valid file must
 * give the expected tagged JSON, every invalid one must be rejected. Each
 * file counts as one case; the summary line gives the totals.
 *
 * The event stream is turned into a jansson tree here, in the test only, to
 * compare with the expected files.
 */
#include "test.h"
#include "../../core/arena.h"
#include "../../core/toml.h"

#include <jansson.h>
#include <math.h>
#include <stdlib.h>

static const char *type_name(sb_toml_type t)
{
    switch (t) {
    case SB_TOML_STRING: return "string";
    case SB_TOML_INTEGER: return "integer";
    case SB_TOML_FLOAT: return "float";
    case SB_TOML_BOOL: return "bool";
    case SB_TOML_DATETIME: return "datetime";
    case SB_TOML_DATETIME_LOCAL: return "datetime-local";
    case SB_TOML_DATE_LOCAL: return "date-local";
    case SB_TOML_TIME_LOCAL: return "time-local";
    default: return "?";
    }
}

/* jansson refuses NUL in object keys, so both sides spell U+0000 (in keys
 * and values alike) as U+FDD0, a noncharacter no vector uses. */
#define NUL_STANDIN "\xEF\xB7\x90" /* U+FDD0 */
#define NUL_STANDIN_LEN 3

static const char *standin(const char *s, size_t n, char *buf, size_t cap, size_t *len)
{
    if (NULL == memchr(s, 0, n)) {
        *len = n;
        return s;
    }
    size_t o = 0;
    for (size_t i = 0; i < n && o + NUL_STANDIN_LEN < cap; i++) {
        if (s[i]) {
            buf[o++] = s[i];
        } else {
            memcpy(buf + o, NUL_STANDIN, NUL_STANDIN_LEN);
            o += NUL_STANDIN_LEN;
        }
    }
    *len = o;
    return buf;
}

static const char *key_text(const sb_toml_seg *s, char *buf, size_t cap, size_t *len)
{
    return standin(s->key, s->klen, buf, cap, len);
}

static json_t *child(json_t *c, const sb_toml_seg *s)
{
    char kb[1024];
    size_t kl = 0;
    if (NULL == s->key)
        return json_array_get(c, s->index);
    const char *k = key_text(s, kb, sizeof kb, &kl);
    return json_object_getn(c, k, kl);
}

static int place(json_t *c, const sb_toml_seg *s, json_t *v)
{
    char kb[1024];
    size_t kl = 0;
    if (s->key) {
        const char *k = key_text(s, kb, sizeof kb, &kl);
        return json_object_setn_new(c, k, kl, v);
    }
    if (s->index == json_array_size(c))
        return json_array_append_new(c, v);
    json_decref(v);
    return -1;
}

static sb_code to_json(void *ud, const sb_toml_seg *path, size_t depth, const sb_toml_value *v, sb_err *err)
{
    json_t *c = ud;
    for (size_t i = 0; i + 1 < depth && c; i++)
        c = child(c, &path[i]);
    if (NULL == c || 0 == depth)
        return sb_err_set(err, SB_EMISUSE, "event for a path that was never opened");
    const sb_toml_seg *last = &path[depth - 1];
    if (v->type == SB_TOML_TABLE || v->type == SB_TOML_ARRAY) {
        if (child(c, last))
            return SB_OK; /* an implicit table made explicit */
        return place(c, last, v->type == SB_TOML_TABLE ? json_object() : json_array()) ? SB_EMISUSE : SB_OK;
    }
    char num[64];
    const char *text = v->str;
    size_t tlen = v->len;
    if (v->type == SB_TOML_INTEGER) {
        tlen = (size_t)snprintf(num, sizeof num, "%lld", v->i);
        text = num;
    } else if (v->type == SB_TOML_FLOAT) {
        tlen = (size_t)snprintf(num, sizeof num, "%.17g", v->f);
        text = num;
    } else if (v->type == SB_TOML_BOOL) {
        text = v->b ? "true" : "false";
        tlen = strlen(text);
    }
    char vb[4096];
    if (v->type == SB_TOML_STRING && tlen < sizeof vb / NUL_STANDIN_LEN)
        text = standin(text, tlen, vb, sizeof vb, &tlen);
    json_t *o = json_pack("{s:s,s:s%}", "type", type_name(v->type), "value", text, tlen);
    return o && 0 == place(c, last, o) ? SB_OK : SB_EMISUSE;
}

/* toml-test compares times to the millisecond: a fraction is padded or cut to 3 digits. */
static const char *millis(const char *t, char *out, size_t cap)
{
    const char *dot = strchr(t, '.');
    if (NULL == dot) {
        snprintf(out, cap, "%s", t);
        return out;
    }
    size_t nd = strspn(dot + 1, "0123456789");
    char frac[4] = "000";
    memcpy(frac, dot + 1, nd < 3 ? nd : 3);
    snprintf(out, cap, "%.*s.%s%s", (int)(dot - t), t, frac, dot + 1 + nd);
    return out;
}

static int same_value(json_t *want, json_t *got)
{
    const char *wt = json_string_value(json_object_get(want, "type"));
    const char *gt = json_string_value(json_object_get(got, "type"));
    json_t *wv = json_object_get(want, "value"), *gv = json_object_get(got, "value");
    if (!wt || !gt || strcmp(wt, gt) || !json_is_string(wv) || !json_is_string(gv))
        return 0;
    const char *w = json_string_value(wv), *g = json_string_value(gv);
    if (!strcmp(wt, "float")) {
        double a = strtod(w, NULL), b = strtod(g, NULL);
        return (isnan(a) && isnan(b)) || a == b;
    }
    if (!strcmp(wt, "integer"))
        return strtoll(w, NULL, 10) == strtoll(g, NULL, 10);
    if (strstr(wt, "time")) {
        char cw[128], cg[128];
        return !strcmp(millis(w, cw, sizeof cw), millis(g, cg, sizeof cg));
    }
    return json_string_length(wv) == json_string_length(gv) && 0 == memcmp(w, g, json_string_length(wv));
}

static int same_tree(json_t *want, json_t *got)
{
    if (json_is_object(want) && json_object_get(want, "type") && json_object_get(want, "value") &&
        json_object_size(want) == 2 && json_is_string(json_object_get(want, "type")))
        return json_is_object(got) && same_value(want, got);
    if (json_is_object(want)) {
        if (!json_is_object(got) || json_object_size(want) != json_object_size(got))
            return 0;
        const char *k;
        size_t klen;
        json_t *v;
        json_object_keylen_foreach(want, k, klen, v) {
            json_t *g = json_object_getn(got, k, klen);
            if (!g || !same_tree(v, g))
                return 0;
        }
        return 1;
    }
    if (json_is_array(want)) {
        if (!json_is_array(got) || json_array_size(want) != json_array_size(got))
            return 0;
        for (size_t i = 0; i < json_array_size(want); i++)
            if (!same_tree(json_array_get(want, i), json_array_get(got, i)))
                return 0;
        return 1;
    }
    return 0;
}

/* The expected file with each unescaped \u0000 spelled as the stand-in. */
static json_t *load_expected(const char *path, json_error_t *je)
{
    size_t n = 0;
    char *t = sb_test_read(path, &n);
    if (NULL == t)
        return NULL;
    for (size_t i = 0; i + 5 < n; i++) {
        if (t[i] != '\\')
            continue;
        if (!memcmp(t + i + 1, "u0000", 5))
            memcpy(t + i + 1, "uFDD0", 5);
        else
            i++; /* skip the escaped character */
    }
    json_t *j = json_loadb(t, n, JSON_ALLOW_NUL, je);
    free(t);
    return j;
}

TEST(toml_test_vectors)
{
    size_t listlen = 0;
    char *list = sb_test_read(sb_test_shared("data/toml-test/tests/files-toml-1.0.0"), &listlen);
    CHECK(list != NULL);
    if (NULL == list)
        return;
    int valid_ok = 0, valid_n = 0, invalid_ok = 0, invalid_n = 0;
    for (char *line = strtok(list, "\n"); line; line = strtok(NULL, "\n")) {
        size_t n = strlen(line);
        if (n < 5 || strcmp(line + n - 5, ".toml"))
            continue;
        int valid = 0 == strncmp(line, "valid/", 6);
        char rel[1024];
        snprintf(rel, sizeof rel, "data/toml-test/tests/%s", line);
        size_t len = 0;
        char *data = sb_test_read(sb_test_shared(rel), &len);
        if (NULL == data) {
            sb_test_subcase(line, 0, "cannot read the vector");
            continue;
        }
        sb_arena *a = sb_arena_new(0);
        sb_err err;
        sb_err_clear(&err);
        json_t *got = json_object();
        sb_code rc = sb_toml_parse(a, data, len, NULL, to_json, got, &err);
        char why[1600] = "";
        int ok;
        if (valid) {
            valid_n++;
            char jrel[1024];
            snprintf(jrel, sizeof jrel, "%.*s.json", (int)(strlen(rel) - 5), rel);
            json_error_t je;
            json_t *want = load_expected(sb_test_shared(jrel), &je);
            ok = rc == SB_OK && want && same_tree(want, got);
            if (rc != SB_OK)
                snprintf(why, sizeof why, "rejected: %u:%u %s", err.line, err.column, err.msg);
            else if (NULL == want)
                snprintf(why, sizeof why, "expected JSON unreadable: %s", je.text);
            else if (!ok) {
                char *g = json_dumps(got, JSON_COMPACT | JSON_SORT_KEYS);
                snprintf(why, sizeof why, "different value: %.400s", g ? g : "?");
                free(g);
            }
            json_decref(want);
            valid_ok += ok;
        } else {
            invalid_n++;
            ok = rc != SB_OK && err.msg[0] && err.line > 0;
            if (rc == SB_OK)
                snprintf(why, sizeof why, "accepted an invalid document");
            else if (!ok)
                snprintf(why, sizeof why, "rejected without a located message");
            invalid_ok += ok;
        }
        sb_test_subcase(line, ok, why);
        json_decref(got);
        sb_arena_destroy(a);
        free(data);
    }
    printf("  toml-test 1.0.0: valid %d/%d passed, invalid %d/%d rejected\n", valid_ok, valid_n, invalid_ok, invalid_n);
    CHECK(valid_n >= 200 && invalid_n >= 400);
    free(list);
}
