/*
 * scorecard.c - OpenSSF Scorecard: a package's GitHub repository (the URL
 * read by github.c), the API URL, the answer's digest and the
 * pixi:scorecard* properties (see scorecard.h). The service owns the
 * transfers (service/lookup/lookup_scorecard.c).
 */
#include "scorecard.h"
#include "github.h"

#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

const char *sb_scorecard_pkg_repo(sb_arena *a, const sb_pkg *p)
{
    const char *r = sb_github_repo(a, sb_pkg_xr(p)->repository);
    return r ? r : sb_github_repo(a, sb_pkg_xr(p)->homepage);
}

const char *sb_scorecard_url(sb_arena *a, const char *base, const char *repo)
{
    size_t n = strlen(base);
    while (n && base[n - 1] == '/')
        n--;
    return sb_arena_printf(a, "%.*s/projects/github.com/%s", (int)n, base, repo);
}

/* a check name as one digest field: tabs and line breaks cannot occur in
 * the API's names, but an answer is not trusted to keep to them */
static int name_ok(const char *s)
{
    return s && s[0] && strlen(s) <= 64 && !strpbrk(s, "\t\r\n");
}

sb_code sb_scorecard_digest(sb_arena *a, const char *json, size_t len, const char **digest, size_t *dlen)
{
    json_error_t je;
    json_t *root = json_loadb(json, len, 0, &je);
    json_t *score = json_is_object(root) ? json_object_get(root, "score") : NULL;
    if (!json_is_number(score) || !(json_number_value(score) >= 0 && json_number_value(score) <= 10)) {
        json_decref(root);
        return SB_EPARSE;
    }
    const char *date = json_string_value(json_object_get(root, "date"));
    char day[11] = "-";
    if (date && strlen(date) >= 10 && date[4] == '-' && date[7] == '-')
        snprintf(day, sizeof day, "%.10s", date);
    /* one decimal, as the API reports it (7.3); rounding keeps 7.25 from printing 7.2 or 7.3 by chance */
    double sv = round(json_number_value(score) * 10.0) / 10.0;
    char *o = sb_arena_printf(a, "score\t%.1f\ndate\t%s\n", sv, day);
    size_t n = o ? strlen(o) : 0;
    json_t *c;
    size_t i;
    json_array_foreach(json_object_get(root, "checks"), i, c) {
        if (NULL == o)
            break;
        const char *name = json_string_value(json_object_get(c, "name"));
        json_t *cs = json_object_get(c, "score");
        if (!name_ok(name) || !json_is_integer(cs))
            continue;
        long long v = json_integer_value(cs);
        if (v < -1 || v > 10)
            continue;
        o = sb_arena_printf(a, "%scheck\t%s\t%lld\n", o, name, v);
    }
    json_decref(root);
    if (NULL == o)
        return SB_ENOMEM;
    n = strlen(o);
    *digest = o;
    *dlen = n;
    return SB_OK;
}

sb_code sb_scorecard_from_digest(sb_scorecard *sc, sb_arena *a, const char *digest)
{
    const char *repo = sc->repo;
    memset(sc, 0, sizeof *sc);
    sc->repo = repo;
    if (NULL == digest || !digest[0]) {
        sc->state = SB_SCORECARD_UNSCORED;
        return SB_OK;
    }
    if (strncmp(digest, "score\t", 6))
        return SB_EPARSE;
    size_t lines = 0;
    for (const char *q = digest; *q; q++)
        lines += *q == '\n';
    sc->checks = sb_arena_calloc(a, lines ? lines : 1, sizeof *sc->checks);
    if (NULL == sc->checks)
        return SB_ENOMEM;
    int have_score = 0;
    for (const char *p = digest; *p;) {
        const char *e = strchr(p, '\n');
        size_t n = e ? (size_t)(e - p) : strlen(p);
        char *line = sb_arena_strndup(a, p, n);
        if (NULL == line)
            return SB_ENOMEM;
        p += n + (e != NULL);
        char *f1 = strchr(line, '\t');
        if (NULL == f1)
            continue;
        *f1++ = '\0';
        if (!strcmp(line, "score")) {
            char *end;
            sc->score = strtod(f1, &end);
            have_score = *end == '\0';
        } else if (!strcmp(line, "date")) {
            sc->date = strcmp(f1, "-") ? f1 : NULL;
        } else if (!strcmp(line, "check")) {
            char *f2 = strchr(f1, '\t');
            if (NULL == f2)
                continue;
            *f2++ = '\0';
            sc->checks[sc->nchecks].name = f1;
            sc->checks[sc->nchecks++].score = atoi(f2);
        }
    }
    if (!have_score)
        return SB_EPARSE;
    sc->state = SB_SCORECARD_ANSWERED;
    return SB_OK;
}

sb_code sb_scorecard_props(sb_sbom *s, sb_arena *a, double min)
{
    if (NULL == s->scorecard)
        return SB_OK;
    for (size_t i = 0; i < s->npkgs; i++) {
        const sb_scorecard *sc = &s->scorecard[i];
        if (sc->state != SB_SCORECARD_ANSWERED)
            continue;
        sb_pkg *p = &s->pkgs[i];
        const char *v = sb_arena_printf(a, "%.1f", sc->score);
        sb_code rc = v ? sb_pkg_prop_insert(p, a, "pixi:scorecard", v) : SB_ENOMEM;
        if (rc == SB_OK && sc->date)
            rc = sb_pkg_prop_insert(p, a, "pixi:scorecard-date", sc->date);
        for (size_t k = 0; rc == SB_OK && min >= 0 && k < sc->nchecks; k++) {
            if (sc->checks[k].score < 0 || sc->checks[k].score >= min)
                continue; /* inconclusive checks say nothing about the repository */
            const char *name = sb_arena_printf(a, "pixi:scorecard-check-%s", sc->checks[k].name);
            const char *val = sb_arena_printf(a, "%d", sc->checks[k].score);
            rc = name && val ? sb_pkg_prop_insert(p, a, name, val) : SB_ENOMEM;
        }
        if (rc != SB_OK)
            return rc;
    }
    return SB_OK;
}

int sb_scorecard_threshold(const char *s, double *out)
{
    if (NULL == s || !s[0] || strlen(s) > 4 || strspn(s, "0123456789.") != strlen(s) || s[0] == '.' ||
        strchr(s, '.') != strrchr(s, '.'))
        return -1;
    char *end;
    double d = strtod(s, &end);
    if (*end || !(d >= 0.0 && d <= 10.0))
        return -1;
    if (out)
        *out = d;
    return 0;
}
