/*
 * pypi.c - license from a PyPI release document (see pypi.h).
 */
#include "pypi.h"

#include <jansson.h>
#include <string.h>

static const struct {
    const char *classifier, *spdx;
} classifiers[] = {
    {"MIT License", "MIT"},
    {"BSD License", "BSD-3-Clause"},
    {"Apache Software License", "Apache-2.0"},
    {"ISC License (ISCL)", "ISC"},
    {"Mozilla Public License 2.0 (MPL 2.0)", "MPL-2.0"},
    {"GNU General Public License v2 (GPLv2)", "GPL-2.0-only"},
    {"GNU General Public License v2 or later (GPLv2+)", "GPL-2.0-or-later"},
    {"GNU General Public License v3 (GPLv3)", "GPL-3.0-only"},
    {"GNU General Public License v3 or later (GPLv3+)", "GPL-3.0-or-later"},
    {"GNU Lesser General Public License v2 (LGPLv2)", "LGPL-2.0-only"},
    {"GNU Lesser General Public License v2 or later (LGPLv2+)", "LGPL-2.0-or-later"},
    {"GNU Lesser General Public License v3 (LGPLv3)", "LGPL-3.0-only"},
    {"GNU Lesser General Public License v3 or later (LGPLv3+)", "LGPL-3.0-or-later"},
    {"GNU Affero General Public License v3", "AGPL-3.0-only"},
    {"GNU Affero General Public License v3 or later (AGPLv3+)", "AGPL-3.0-or-later"},
    {"Python Software Foundation License", "PSF-2.0"},
    {"zlib/libpng License", "Zlib"},
    {"The Unlicense (Unlicense)", "Unlicense"},
    {"Eclipse Public License 2.0 (EPL-2.0)", "EPL-2.0"},
    {"Boost Software License 1.0 (BSL-1.0)", "BSL-1.0"},
    {"PostgreSQL License", "PostgreSQL"},
    {"CC0 1.0 Universal (CC0 1.0) Public Domain Dedication", "CC0-1.0"},
};

static const char *trimmed(sb_arena *a, const char *s)
{
    while (*s == ' ' || *s == '\t' || *s == '\r' || *s == '\n')
        s++;
    size_t n = strlen(s);
    while (n && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r' || s[n - 1] == '\n'))
        n--;
    return n ? sb_arena_strndup(a, s, n) : NULL;
}

static const char *map_classifier(const char *c)
{
    for (size_t i = 0; i < sizeof classifiers / sizeof classifiers[0]; i++)
        if (!strcmp(classifiers[i].classifier, c))
            return classifiers[i].spdx;
    return NULL;
}

sb_code sb_pypi_license(sb_arena *a, const char *json, size_t len, const char **license)
{
    *license = NULL;
    json_error_t je;
    json_t *root = json_loadb(json, len, JSON_REJECT_DUPLICATES, &je);
    if (NULL == root || !json_is_object(root)) {
        json_decref(root);
        return SB_EPARSE;
    }
    json_t *info = json_object_get(root, "info");
    sb_code rc = SB_OK;
    const char *v;
    if (json_is_object(info)) {
        if ((v = json_string_value(json_object_get(info, "license_expression"))) && (v = trimmed(a, v))) {
            *license = v;
        } else if ((v = json_string_value(json_object_get(info, "license"))) && (v = trimmed(a, v)) &&
                   strlen(v) <= 200 && !strchr(v, '\n')) {
            *license = v;
        } else {
            json_t *cl = json_object_get(info, "classifiers");
            const char *first = NULL, *joined = NULL;
            int all_mapped = 1;
            size_t n = 0, i;
            json_t *c;
            /* the names, joined once at the end */
            const char **parts = sb_arena_alloc(a, (json_array_size(cl) + 1) * sizeof *parts);
            if (NULL == parts) {
                json_decref(root);
                return SB_ENOMEM;
            }
            json_array_foreach(cl, i, c) {
                const char *s = json_string_value(c);
                if (NULL == s || strncmp(s, "License :: ", 11))
                    continue;
                s += 11;
                if (!strncmp(s, "OSI Approved :: ", 16))
                    s += 16;
                if (!strcmp(s, "OSI Approved"))
                    continue;
                const char *id = map_classifier(s);
                all_mapped &= id != NULL;
                if (NULL == first)
                    first = s;
                parts[n++] = id ? id : s;
            }
            joined = n ? sb_arena_join(a, parts, n, " OR ") : NULL;
            if (n && NULL == joined)
                rc = SB_ENOMEM;
            else if (1 == n)
                *license = sb_arena_strdup(a, joined);
            else if (n > 1)
                *license = sb_arena_strdup(a, all_mapped ? joined : first);
        }
    }
    json_decref(root);
    return rc;
}

/* PEP 503: lower case, runs of -_. become one '-' */
static char *pep503(sb_arena *a, const char *name)
{
    size_t n = strlen(name);
    char *o = sb_arena_stralloc(a, n + 1);
    if (NULL == o)
        return NULL;
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        char c = name[i];
        if (c == '-' || c == '_' || c == '.') {
            if (k && o[k - 1] != '-')
                o[k++] = '-';
            continue;
        }
        o[k++] = (c >= 'A' && c <= 'Z') ? (char)(c - 'A' + 'a') : c;
    }
    while (k && o[k - 1] == '-')
        k--;
    o[k] = '\0';
    return o;
}

/* only what a name or version may hold passes; anything else is encoded */
static int append_enc(char *o, size_t *k, const char *s)
{
    static const char hx[] = "0123456789ABCDEF";
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') || *p == '-' ||
            *p == '.' || *p == '_' || *p == '+' || *p == '!') {
            o[(*k)++] = (char)*p;
        } else {
            o[(*k)++] = '%';
            o[(*k)++] = hx[*p >> 4];
            o[(*k)++] = hx[*p & 15];
        }
    }
    return 0;
}

const char *sb_index_url(sb_arena *a, const char *base, const char *const *segs, size_t n, const char *suffix)
{
    size_t bl = strlen(base), need = 0;
    while (bl && base[bl - 1] == '/')
        bl--;
    for (size_t i = 0; i < n; i++) {
        if (!segs[i][0] || !strcmp(segs[i], ".") || !strcmp(segs[i], "..") || strlen(segs[i]) > 400)
            return NULL; /* a dot segment would climb the index's own paths */
        need += 1 + 3 * strlen(segs[i]);
    }
    char *o = sb_arena_stralloc(a, bl + need + strlen(suffix) + 1);
    if (NULL == o)
        return NULL;
    memcpy(o, base, bl);
    size_t k = bl;
    for (size_t i = 0; i < n; i++) {
        o[k++] = '/';
        append_enc(o, &k, segs[i]);
    }
    strcpy(o + k, suffix);
    return o;
}

const char *sb_pypi_url(sb_arena *a, const char *base, const char *name, const char *version)
{
    if (!base || !name || !version || !name[0] || !version[0] || strlen(name) > 200 || strlen(version) > 100)
        return NULL;
    char *norm = pep503(a, name);
    if (NULL == norm || !norm[0])
        return NULL;
    const char *segs[] = {norm, version};
    return sb_index_url(a, base, segs, 2, "/json");
}
