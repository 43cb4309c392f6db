/*
 * params.c - the one table of query parameters, the strict check and the
 * one parse of a query built on it, and the value parsers (see params.h).
 */
#include "params.h"
#include "../core/diff.h"
#include "../core/filter.h"
#include "../core/quality.h"
#include "../core/scorecard.h"
#include "../core/vuln.h"

#include <stddef.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

int svc_bool_word(const char *s)
{
    static const char *const yes[] = {"true", "on", "yes", "1"}, *const no[] = {"false", "off", "no", "0"};
    for (size_t i = 0; s && i < sizeof yes / sizeof yes[0]; i++) {
        if (!strcasecmp(s, yes[i]))
            return 1;
        if (!strcasecmp(s, no[i]))
            return 0;
    }
    return -1;
}

int svc_param_bool(const char *s, int dflt, int *out)
{
    if (NULL == s) {
        *out = dflt;
        return 0;
    }
    int w = s[0] ? svc_bool_word(s) : 1;
    if (w < 0)
        return -1;
    *out = w;
    return 0;
}

int svc_param_count(const char *s, long long max, long long *out)
{
    if (NULL == s)
        return 0;
    if (!s[0] || strlen(s) > 19)
        return -1;
    long long n = 0;
    for (const char *c = s; *c; c++) {
        if (*c < '0' || *c > '9')
            return -1;
        n = n * 10 + (*c - '0'); /* 19 digits cannot overflow past 9.2e18 */
        if (n > max)
            return -1;
    }
    *out = n;
    return 0;
}

/* --- the table of query parameters ---------------------------------------- */

#define SB_R (SVC_EP_SBOM | SVC_EP_REPORT)
#define SB_RD (SB_R | SVC_EP_DIFF) /* the selection parameters: /v1/diff reads both sides with them */
#define Q(f) offsetof(svc_query, f)

/* The checks of values beyond their type. Each fills the typed field it
 * owns; *why continues "query parameter 'NAME' ". */
static int check_scope(svc_query *q, unsigned ep, const char *v, const char **why, const char *const **ch)
{
    static const char *const set[] = {"all", "required", NULL};
    if (strcmp(v, "all") && strcmp(v, "required")) {
        *why = "must be required (leave out development and optional packages) or all";
        *ch = set;
        return -1;
    }
    q->required_only = !strcmp(v, "required");
    return 0;
}

static int check_kind(svc_query *q, unsigned ep, const char *v, const char **why, const char *const **ch)
{
    unsigned bit = sb_filter_kind_bit(v);
    if (0 == bit) {
        *why = "must name a package kind";
        *ch = sb_filter_kind_names();
        return -1;
    }
    q->kinds |= bit;
    return 0;
}

static int check_primary(svc_query *q, unsigned ep, const char *v, const char **why, const char *const **ch)
{
    static const char *const set[] = {"pypi", "conda", NULL};
    if (strcmp(v, "pypi") && strcmp(v, "conda")) {
        *why = "must be pypi or conda";
        *ch = set;
        return -1;
    }
    q->primary_pypi = !strcmp(v, "pypi");
    return 0;
}

static int check_vulns(svc_query *q, unsigned ep, const char *v, const char **why, const char *const **ch)
{
    static const char *const set[] = {"osv", NULL};
    if (strcmp(v, "osv")) {
        *why = "must be osv";
        *ch = set;
        return -1;
    }
    return 0;
}

static int check_severity(svc_query *q, unsigned ep, const char *v, const char **why, const char *const **ch)
{
    static const char *const set[] = {"low", "medium", "high", "critical", NULL};
    sb_sev sev = sb_sev_parse(v);
    if (sev < SB_SEV_LOW || !strcmp(v, "moderate")) {
        *why = "must be low, medium, high or critical";
        *ch = set;
        return -1;
    }
    q->severity = (int)sev;
    return 0;
}

static int check_time(svc_query *q, unsigned ep, const char *v, const char **why, const char *const **ch)
{
    if (svc_param_time(v, &q->timestamp)) {
        *why = "must be Unix seconds from 0 to 253402300799 or an RFC 3339 date-time (2020-01-01T00:00:00Z)";
        return -1;
    }
    return 0;
}

static int check_epss(svc_query *q, unsigned ep, const char *v, const char **why, const char *const **ch)
{
    if (svc_param_epss(v, &q->epss_min)) {
        *why = "must be a probability between 0 and 1 (e.g. 0.1)";
        return -1;
    }
    return 0;
}

static int check_score(svc_query *q, const char *v, double *out, const char **why)
{
    if (sb_scorecard_threshold(v, out)) {
        *why = "must be a score between 0 and 10 (e.g. 5 or 6.5)";
        return -1;
    }
    return 0;
}

static int check_score_min(svc_query *q, unsigned ep, const char *v, const char **why, const char *const **ch)
{
    return check_score(q, v, &q->scorecard_floor, why);
}

static int check_score_gate(svc_query *q, unsigned ep, const char *v, const char **why, const char *const **ch)
{
    return check_score(q, v, &q->scorecard_gate, why);
}

static int check_quality(svc_query *q, unsigned ep, const char *v, const char **why, const char *const **ch)
{
    static const char *const set[] = {"cisa-2026", "bsi-tr-03183-2", "ntia-2021", NULL};
    sb_quality_profile qp;
    if (sb_quality_profile_find(v, &qp)) {
        *why = "must be cisa-2026, bsi-tr-03183-2 or ntia-2021";
        *ch = set;
        return -1;
    }
    q->fail_on_quality = (int)qp;
    return 0;
}

static int check_profile(svc_query *q, unsigned ep, const char *v, const char **why, const char *const **ch)
{
    static const char *const set[] = {"cisa-2026", "bsi-tr-03183-2", "ntia-2021", "all", NULL};
    sb_quality_profile qp;
    if (strcmp(v, "all") && sb_quality_profile_find(v, &qp)) {
        *why = "must be cisa-2026, bsi-tr-03183-2, ntia-2021 or all";
        *ch = set;
        return -1;
    }
    q->profiles = strcmp(v, "all") ? 1u << qp : 0;
    return 0;
}

/* fail-on: a comma-separated list of the endpoint's gates: on /v1/diff
 * `diff` (any change) or kinds of change (added, removed, upgraded,
 * downgraded, license-changed, source-changed, hash-changed, scope-changed),
 * and `direct` (only changes of direct dependencies; alone: any kind);
 * `license` (spaces around a name allowed) elsewhere. */
static int check_fail_on(svc_query *q, unsigned ep, const char *v, const char **why, const char *const **ch)
{
    if (ep & SVC_EP_DIFF) {
        /* the choices: "diff", then core/diff.c's names in sb_diff_change order */
        static const char *const set[] = {"diff",          "added",           "removed",        "upgraded",
                                          "downgraded",    "license-changed", "source-changed", "hash-changed",
                                          "scope-changed", "direct",          "now-denied",     NULL};
        _Static_assert(sizeof set / sizeof set[0] == SB_DIFF_NCHANGES + 4, "one choice per kind of change");
        for (const char *p = v; *p;) {
            size_t n = strcspn(p, ",");
            unsigned bits = 0;
            if (n == 4 && !strncmp(p, "diff", 4))
                bits = SB_DIFF_ALL;
            for (int c = 0; c < SB_DIFF_NCHANGES && !bits; c++)
                if (strlen(set[c + 1]) == n && !strncmp(p, set[c + 1], n))
                    bits = 1u << c;
            if (n == 10 && !strncmp(p, "now-denied", 10))
                bits = SB_DIFF_NOW_DENIED; /* needs a license policy: handlers/diff.c says so */
            if (n == 6 && !strncmp(p, "direct", 6)) {
                q->diff_direct = true;
            } else if (n && !bits) {
                static const char all[] =
                    "must be 'diff' (fail on any change) or kinds of change, comma-separated: added, removed, "
                    "upgraded, downgraded, license-changed, source-changed, hash-changed, scope-changed, "
                    "now-denied (under a license policy), and 'direct' for changes of direct dependencies only";
                /* "downgrade" for "downgraded": name the kind meant first;
                 * per thread, as requests are parsed on several */
                static _Thread_local char meant[160];
                char word[32];
                snprintf(word, sizeof word, "%.*s", (int)(n < 31 ? n : 31), p);
                const char *best = NULL;
                size_t bd = 4;
                for (int c = 0; set[c]; c++) {
                    size_t d = svc_distance(word, set[c]);
                    if (d < bd)
                        bd = d, best = set[c];
                }
                if (best) {
                    snprintf(meant, sizeof meant,
                             "has '%s', not a kind of change: did you mean '%s'? (every kind is in choices)", word,
                             best);
                    *why = meant;
                } else {
                    *why = all;
                }
                *ch = set;
                return -1;
            }
            q->diff_gate |= bits;
            p += n + (p[n] == ',');
        }
        if (q->diff_direct && !q->diff_gate)
            q->diff_gate = SB_DIFF_ALL; /* fail-on=direct: any change of a direct dependency */
        return 0;
    }
    static const char *const set[] = {"license", NULL};
    const char *s = v;
    do {
        size_t n = strcspn(s, ",");
        while (n && s[n - 1] == ' ')
            n--;
        while (n && *s == ' ')
            s++, n--;
        if (n != 7 || strncmp(s, "license", 7)) {
            *why = "takes 'license' (the license policy's violations)";
            *ch = set;
            return -1;
        }
        q->fail_on_license = true;
        s = strchr(s, ',');
    } while (s && *++s);
    return 0;
}

/* GitHub's snapshot takes a commit id of 40 to 64 characters: SHA-1, or a
 * SHA-256 repository's 64 hex digits. */
static int check_sha(svc_query *q, unsigned ep, const char *v, const char **why, const char *const **ch)
{
    size_t n = strlen(v);
    if ((n != 40 && n != 64) || strspn(v, "0123456789abcdefABCDEF") != n) {
        *why = "must be a commit id: 40 hex digits (64 in a SHA-256 repository), e.g. $GITHUB_SHA";
        return -1;
    }
    return 0;
}

/* The bytes no snapshot parameter holds: control characters would reach
 * GitHub, logs and documents as line breaks and escapes. */
static int has_control(const char *v)
{
    for (const unsigned char *p = (const unsigned char *)v; *p; p++)
        if (*p < 0x20 || *p == 0x7f)
            return 1;
    return 0;
}

/* A full ref as git-check-ref-format accepts it: refs/ and at least one more
 * component; no component empty, starting with '.' or ending with ".lock";
 * no "..", "@{", control character, space, ~ ^ : ? * [ or \; not ending in
 * '/' or '.'. Bounded like a path. */
static int check_ref(svc_query *q, unsigned ep, const char *v, const char **why, const char *const **ch)
{
    size_t n = strlen(v);
    if (strncmp(v, "refs/", 5) || !v[5]) {
        *why = "must be a full Git ref starting with refs/ (refs/heads/main), e.g. $GITHUB_REF";
        return -1;
    }
    int bad = n > 1024 || has_control(v) || strpbrk(v, " ~^:?*[\\") || strstr(v, "..") || strstr(v, "@{") ||
              v[n - 1] == '/' || v[n - 1] == '.';
    for (const char *c = v; !bad && *c;) {
        size_t k = strcspn(c, "/");
        bad = 0 == k || c[0] == '.' || (k >= 5 && !strncmp(c + k - 5, ".lock", 5));
        c += k + (c[k] == '/');
    }
    if (bad) {
        *why =
            "must be a valid Git ref name (git check-ref-format: no '..', '@{', space, control character, "
            "~ ^ : ? * [ or backslash, no empty component or one starting with '.' or ending with .lock, "
            "at most 1024 bytes), e.g. $GITHUB_REF";
        return -1;
    }
    return 0;
}

/* correlator, job-id: free text, but never empty (GitHub keys snapshots by
 * the correlator; an empty one would merge unrelated jobs), one line, and
 * bounded */
static int check_text(svc_query *q, unsigned ep, const char *v, const char **why, const char *const **ch)
{
    if (!v[0] || strlen(v) > 256 || has_control(v)) {
        *why = "must be 1 to 256 bytes without control characters";
        return -1;
    }
    return 0;
}

/* job-url: where GitHub links the job, so an http(s) URL and nothing else
 * (no javascript: or data: link on the dependency graph page) */
static int check_job_url(svc_query *q, unsigned ep, const char *v, const char **why, const char *const **ch)
{
    size_t scheme = !strncasecmp(v, "https://", 8) ? 8 : !strncasecmp(v, "http://", 7) ? 7 : 0;
    if (0 == scheme || strchr("/?#", v[scheme]) || strlen(v) > 2048 || has_control(v) || strpbrk(v, " \"<>\\")) {
        *why =
            "must be an http:// or https:// URL with a host, at most 2048 bytes, without spaces or control "
            "characters, e.g. $GITHUB_SERVER_URL/$GITHUB_REPOSITORY/actions/runs/$GITHUB_RUN_ID";
        return -1;
    }
    return 0;
}

/* path: the lockfile's place in the repository, as GitHub shows it: relative,
 * no "." or ".." component, no empty one, no control character, bounded */
static int check_path(svc_query *q, unsigned ep, const char *v, const char **why, const char *const **ch)
{
    int bad = !v[0] || strlen(v) > 1024 || has_control(v) || strchr(v, '\\');
    for (const char *c = v; !bad && *c;) {
        size_t k = strcspn(c, "/");
        bad = 0 == k || (k == 1 && c[0] == '.') || (k == 2 && c[0] == '.' && c[1] == '.') || (c[k] == '/' && !c[k + 1]);
        c += k + (c[k] == '/');
    }
    if (bad) {
        *why =
            "must be a relative path in the repository (python/uv.lock): no leading or doubled '/', no '.' or "
            "'..' component, no backslash or control character, at most 1024 bytes";
        return -1;
    }
    return 0;
}

static int check_gate_incomplete(svc_query *q, unsigned ep, const char *v, const char **why, const char *const **ch)
{
    static const char *const set[] = {"fail", "pass", NULL};
    if (strcmp(v, "fail") && strcmp(v, "pass")) {
        *why = "must be fail (a gate whose data is missing fails the request) or pass (evaluated on what is known)";
        *ch = set;
        return -1;
    }
    q->gate_incomplete_pass = !strcmp(v, "pass");
    return 0;
}

static const svc_qparam qparams[] = {
    {"format", SVC_Q_STRING, 0, SVC_EP_SBOM, 0, 0, Q(format), NULL},
    {"output", SVC_Q_STRING, 0, SVC_EP_SBOM | SVC_EP_REPORT | SVC_EP_DIFF, 0, 0, Q(output), NULL}, /* /v1/sbom: vex */
    {"environment", SVC_Q_STRING, 0, SB_RD, 0, 0, Q(environment), NULL},
    {"platform", SVC_Q_STRING, 0, SB_RD, 0, 0, Q(platform), NULL},
    {"all-environments", SVC_Q_BOOL, 0, SVC_EP_SBOM, 0, 0, Q(all_environments), NULL},
    {"all-platforms", SVC_Q_BOOL, 0, SVC_EP_SBOM, 0, 0, Q(all_platforms), NULL},
    {"kind", SVC_Q_STRING, 0, SB_RD, 0, 0, Q(kind), NULL},
    {"filename", SVC_Q_STRING, 0, SB_R, 0, 0, Q(filename), NULL},
    {"name", SVC_Q_STRING, 0, SB_R, 0, 0, Q(name), NULL},
    {"version", SVC_Q_STRING, 0, SB_R, 0, 0, Q(version), NULL},
    {"timestamp", SVC_Q_STRING, 0, SB_R, 0, 0, Q(timestamp_text), check_time},
    {"pretty", SVC_Q_BOOL, 0, SB_RD, 0, 0, Q(pretty), NULL},
    {"license-texts", SVC_Q_BOOL, 0, SB_R, 0, 0, Q(license_texts), NULL},
    {"license-file-max", SVC_Q_COUNT, 1LL << 40, SB_R, 0, 0, Q(license_file_max), NULL},
    {"license-texts-max", SVC_Q_COUNT, 1LL << 40, SB_R, 0, 0, Q(license_texts_max), NULL},
    {"fetch-licenses", SVC_Q_BOOL, 0, SB_R, 0, 1, Q(fetch_licenses), NULL},
    {"depth", SVC_Q_COUNT, 100000, SVC_EP_TREE, 0, 0, Q(depth), NULL},
    {"include", SVC_Q_LIST, 0, SB_R, 1, 0, Q(include), NULL},
    {"exclude", SVC_Q_LIST, 0, SB_R, 1, 0, Q(exclude), NULL},
    {"exclude-kind", SVC_Q_LIST, 0, SB_R, 1, 0, Q(exclude_kind), check_kind},
    {"scope", SVC_Q_STRING, 0, SB_R, 0, 0, Q(scope), check_scope},
    {"keep-orphans", SVC_Q_BOOL, 0, SB_R, 0, 0, Q(keep_orphans), NULL},
    /* license policy: lists may repeat or be comma-separated */
    {"allow-license", SVC_Q_LIST, 0, SB_RD, 1, 0, Q(allow_license), NULL},
    {"deny-license", SVC_Q_LIST, 0, SB_RD, 1, 0, Q(deny_license), NULL},
    {"require-license", SVC_Q_BOOL, 0, SB_RD, 0, 0, Q(require_license), NULL},
    {"ignore-license", SVC_Q_LIST, 0, SB_RD, 1, 0, Q(ignore_license), NULL},
    {"policy", SVC_Q_STRING, 0, SB_RD, 0, 0, Q(policy), NULL},
    {"fail-on", SVC_Q_STRING, 0, SB_RD, 0, 0, Q(fail_on), check_fail_on},
    {"author", SVC_Q_STRING, 0, SB_R, 0, 0, Q(author), NULL},
    {"fail-on-quality", SVC_Q_STRING, 0, SB_R, 0, 0, Q(fail_on_quality_name), check_quality},
    {"profile", SVC_Q_STRING, 0, SVC_EP_QUALITY, 0, 0, Q(profile), check_profile},
    {"package", SVC_Q_STRING, 0, SVC_EP_EXPLAIN, 0, 0, Q(package), NULL},
    {"primary-purl", SVC_Q_STRING, 0, SB_R, 0, 0, Q(primary_purl), check_primary},
    {"vulnerabilities", SVC_Q_STRING, 0, SB_R, 0, 1, Q(vulnerabilities), check_vulns},
    {"fail-on-severity", SVC_Q_STRING, 0, SB_R, 0, 1, Q(fail_on_severity), check_severity},
    {"fail-on-kev", SVC_Q_BOOL, 0, SB_R, 0, 1, Q(fail_on_kev), NULL},
    /* health */
    {"yanked", SVC_Q_BOOL, 0, SB_R, 0, 1, Q(yanked), NULL},
    {"fail-on-yanked", SVC_Q_BOOL, 0, SB_R, 0, 1, Q(fail_on_yanked), NULL},
    {"scorecard", SVC_Q_BOOL, 0, SB_R, 0, 1, Q(scorecard), NULL},
    {"scorecard-min", SVC_Q_STRING, 0, SB_R, 0, 1, Q(scorecard_min), check_score_min},
    {"fail-on-scorecard", SVC_Q_STRING, 0, SB_R, 0, 1, Q(fail_on_scorecard), check_score_gate},
    {"kev", SVC_Q_BOOL, 0, SB_R, 0, 1, Q(kev), NULL},
    {"epss", SVC_Q_BOOL, 0, SB_R, 0, 1, Q(epss), NULL},
    {"fail-on-epss", SVC_Q_STRING, 0, SB_R, 0, 1, Q(fail_on_epss), check_epss},
    {"gate-incomplete", SVC_Q_STRING, 0, SB_R, 0, 0, Q(gate_incomplete), check_gate_incomplete},
    /* format=github-snapshot only (handlers/sbom.c refuses them beside another format) */
    {"sha", SVC_Q_STRING, 0, SVC_EP_SBOM, 0, 0, Q(sha), check_sha},
    {"ref", SVC_Q_STRING, 0, SVC_EP_SBOM, 0, 0, Q(ref), check_ref},
    {"correlator", SVC_Q_STRING, 0, SVC_EP_SBOM, 0, 0, Q(correlator), check_text},
    {"job-id", SVC_Q_STRING, 0, SVC_EP_SBOM, 0, 0, Q(job_id), check_text},
    {"job-url", SVC_Q_STRING, 0, SVC_EP_SBOM, 0, 0, Q(job_url), check_job_url},
    {"path", SVC_Q_STRING, 0, SVC_EP_SBOM, 0, 0, Q(path), check_path},
    /* a repository sent whole: which of its files are read */
    {"paths", SVC_Q_LIST, 0, SB_RD, 1, 0, Q(paths), NULL},
    {"skip-paths", SVC_Q_LIST, 0, SB_RD, 1, 0, Q(skip_paths), NULL},
    {"strict", SVC_Q_BOOL, 0, SB_RD, 0, 0, Q(strict), NULL},
    {NULL, SVC_Q_STRING, 0, 0, 0, 0, 0, NULL},
};

/* Days from 1970-01-01 to y-m-d (proleptic Gregorian). */
static long long days_from_civil(long long y, unsigned m, unsigned d)
{
    y -= m <= 2;
    long long era = (y >= 0 ? y : y - 399) / 400;
    unsigned yoe = (unsigned)(y - era * 400);
    unsigned doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
    unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + (long long)doe - 719468;
}

/* n digits at s as a number, -1 when they are not all digits. */
static long digits(const char *s, int n)
{
    long v = 0;
    for (int i = 0; i < n; i++) {
        if (s[i] < '0' || s[i] > '9')
            return -1;
        v = v * 10 + (s[i] - '0');
    }
    return v;
}

int svc_param_time(const char *s, long long *out)
{
    if (NULL == s)
        return -1;
    if (s[0] >= '0' && s[0] <= '9' && strspn(s, "0123456789") == strlen(s))
        return svc_param_count(s, 253402300799LL, out);
    /* YYYY-MM-DDTHH:MM:SS[.frac](Z|+HH:MM|-HH:MM) */
    if (strlen(s) < 20 || s[4] != '-' || s[7] != '-' || (s[10] != 'T' && s[10] != 't' && s[10] != ' ') ||
        s[13] != ':' || s[16] != ':')
        return -1;
    long y = digits(s, 4), mo = digits(s + 5, 2), d = digits(s + 8, 2), h = digits(s + 11, 2), mi = digits(s + 14, 2),
         se = digits(s + 17, 2);
    static const unsigned mdays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    if (y < 0 || mo < 1 || mo > 12 || d < 1 || h < 0 || h > 23 || mi < 0 || mi > 59 || se < 0 || se > 60)
        return -1;
    int leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
    if ((unsigned)d > mdays[mo - 1] + (mo == 2 && leap))
        return -1;
    const char *p = s + 19;
    if (*p == '.') {
        p++;
        if (*p < '0' || *p > '9')
            return -1;
        while (*p >= '0' && *p <= '9')
            p++;
    }
    long off = 0;
    if ((*p == 'Z' || *p == 'z') && p[1] == '\0') {
        off = 0;
    } else if ((*p == '+' || *p == '-') && strlen(p) == 6 && p[3] == ':') {
        long oh = digits(p + 1, 2), om = digits(p + 4, 2);
        if (oh < 0 || oh > 23 || om < 0 || om > 59)
            return -1;
        off = (oh * 60 + om) * 60 * (*p == '-' ? -1 : 1);
    } else {
        return -1;
    }
    long long t = days_from_civil(y, (unsigned)mo, (unsigned)d) * 86400LL + h * 3600 + mi * 60 + (se == 60 ? 59 : se) -
                  off;
    if (t < 0 || t > 253402300799LL)
        return -1;
    *out = t;
    return 0;
}

int svc_param_epss(const char *s, double *out)
{
    if (NULL == s || !s[0] || strlen(s) > 12 || strspn(s, "0123456789.") != strlen(s) ||
        strchr(s, '.') != strrchr(s, '.'))
        return -1;
    char *end;
    double d = strtod(s, &end);
    if (*end || !(d >= 0.0 && d <= 1.0))
        return -1;
    if (out)
        *out = d;
    return 0;
}

/* the parser's flags are sized by SVC_QPARAM_ROWS: the table must fit */
_Static_assert(sizeof qparams / sizeof qparams[0] <= SVC_QPARAM_ROWS, "raise SVC_QPARAM_ROWS");

const svc_qparam *svc_qparams(void)
{
    return qparams;
}

/* Reports take every SVC_EP_REPORT row; the tree and quality reports their own rows too. */
static int takes(const svc_qparam *p, unsigned ep)
{
    if (p->endpoints & ep)
        return 1;
    return (ep & (SVC_EP_TREE | SVC_EP_QUALITY | SVC_EP_EXPLAIN)) && (p->endpoints & SVC_EP_REPORT);
}

const svc_qparam *svc_qparam_find(const char *name, unsigned ep)
{
    for (const svc_qparam *p = qparams; p->name; p++)
        if (!strcmp(p->name, name) && takes(p, ep))
            return p;
    return NULL;
}

const char *svc_qparam_closest(const char *name, unsigned ep)
{
    const char *best = NULL;
    size_t best_d = (size_t)-1;
    for (const svc_qparam *p = qparams; p->name; p++) {
        if (!takes(p, ep))
            continue;
        size_t d = svc_distance(name, p->name);
        if (d < best_d) {
            best = p->name;
            best_d = d;
        }
    }
    size_t len = strnlen(name, 64);
    return (best && best_d * 3 <= (len > 3 ? len : 3)) ? best : NULL;
}

/* Names users bring from neighbouring tools (cdxgen, Dependency-Track,
 * Syft), and what sbomd calls the same thing. */
static const struct {
    const char *name, *ours;
} foreign[] = {
    {"specversion", "the format is format= (cyclonedx-1.6, cyclonedx-1.7, spdx-2.3, spdx-3.0.1) or Accept"},
    {"spec-version", "the format is format= (cyclonedx-1.6, cyclonedx-1.7, spdx-2.3, spdx-3.0.1) or Accept"},
    {"outputformat", "documents take format=, reports output="},
    {"output-format", "documents take format=, reports output="},
    {"projectname", "the document's root is name= (and version=)"},
    {"project-name", "the document's root is name= (and version=)"},
    {"projectversion", "the root's version is version="},
    {"project-version", "the root's version is version="},
    {"bom", "an SBOM to convert or merge is the body, or the multipart part 'sbom'"},
    {"type", "the input's kind is kind= (detected when absent)"},
    {"pretty-print", "indentation is pretty=true|false"},
};

static int same_folded(const char *a, const char *b)
{
    for (; *a && *b; a++, b++)
        if (svc_distance_fold(*a) != svc_distance_fold(*b))
            return 0;
    return *a == *b;
}

/* svc_qparam_check; `rows` 0 leaves the rows' own checks to the caller
 * (svc_query_parse_arg runs them on the query itself, keeping the choices). */
static int check_arg(const char *name, const char *value, unsigned ep, char *why, size_t n, int rows)
{
    const svc_qparam *p = svc_qparam_find(name, ep);
    if (NULL == p) {
        for (size_t i = 0; i < sizeof foreign / sizeof foreign[0]; i++)
            if (same_folded(name, foreign[i].name)) {
                snprintf(why, n, "unknown query parameter '%.64s': %s", name, foreign[i].ours);
                return -1;
            }
        const char *close = svc_qparam_closest(name, ep);
        const svc_qparam *other = NULL;
        for (const svc_qparam *q = qparams; q->name && !other; q++)
            if (!strcmp(q->name, name))
                other = q;
        /* the one name people carry from documents to reports and back */
        const svc_qparam *output = svc_qparam_find("output", ep);
        if (other && !strcmp(name, "format") && output)
            snprintf(why, n,
                     "query parameter 'format' is not taken by this endpoint: a report or a diff is written as "
                     "output= (json, text, markdown, csv, sarif where the report has it), e.g. output=%.16s",
                     value && value[0] ? value : "csv");
        else if (other)
            snprintf(why, n, "query parameter '%.64s' is not taken by this endpoint", name);
        else if (close)
            snprintf(why, n, "unknown query parameter '%.64s' (did you mean '%s'?)", name, close);
        else
            snprintf(why, n, "unknown query parameter '%.64s'", name);
        return -1;
    }
    int b;
    long long c;
    switch (p->type) {
    case SVC_Q_BOOL:
        if (svc_param_bool(value ? value : "", 0, &b)) {
            snprintf(why, n, "query parameter '%s' must be a boolean: " SVC_BOOL_WORDS, name);
            return -1;
        }
        break;
    case SVC_Q_COUNT:
        if (NULL == value || svc_param_count(value, p->max, &c)) {
            snprintf(why, n, "query parameter '%s' must be a whole number from 0 to %lld", name, p->max);
            return -1;
        }
        break;
    case SVC_Q_STRING:
    case SVC_Q_LIST:
        if (rows && p->check) { /* the row's own: a closed set or a format */
            svc_query scratch;
            svc_query_init(&scratch);
            const char *w = NULL;
            const char *const *ch = NULL;
            if (p->check(&scratch, ep, value ? value : "", &w, &ch)) {
                if (p->type == SVC_Q_LIST)
                    snprintf(why, n, "query parameter '%s': '%.64s' is not a package kind", name, value ? value : "");
                else
                    snprintf(why, n, "query parameter '%s' %s", name, w ? w : "is not valid");
                return -1;
            }
        }
        break;
    }
    return 0;
}

int svc_qparam_check(const char *name, const char *value, unsigned ep, char *why, size_t n)
{
    return check_arg(name, value, ep, why, n, 1);
}

void svc_query_init(svc_query *q)
{
    memset(q, 0, sizeof *q);
    q->all_environments = q->all_platforms = q->pretty = q->license_texts = q->keep_orphans = -1;
    q->timestamp = q->license_file_max = q->license_texts_max = q->depth = -1;
    q->require_license = q->fetch_licenses = q->fail_on_kev = q->kev = q->epss = -1;
    q->yanked = q->fail_on_yanked = q->scorecard = -1;
    q->fail_on_quality = q->strict = -1;
    q->epss_min = q->scorecard_floor = q->scorecard_gate = -1;
}

int svc_query_on(const svc_query *q, const svc_qparam *p)
{
    const char *f = (const char *)q + p->off;
    switch (p->type) {
    case SVC_Q_BOOL: return *(const int *)(const void *)f > 0;
    case SVC_Q_COUNT: return *(const long long *)(const void *)f >= 0;
    case SVC_Q_LIST: return ((const svc_qlist *)(const void *)f)->n > 0;
    case SVC_Q_STRING: break;
    }
    return *(const char *const *)(const void *)f != NULL;
}

void svc_query_parse_begin(svc_query_parser *p, svc_query *q, unsigned ep, void *(*alloc)(void *, size_t), void *cls)
{
    memset(p, 0, sizeof *p);
    svc_query_init(q);
    p->q = q;
    p->ep = ep;
    p->alloc = alloc;
    p->alloc_cls = cls;
}

static int refuse(svc_query_parser *p, const char *name, const char *why)
{
    snprintf(p->why, sizeof p->why, "query parameter '%s' %s", name, why);
    return 1;
}

/* What a list parameter must be, for its 400. */
static const char *list_why(const svc_qparam *row)
{
    if (row->check)
        return "must name a package kind"; /* exclude-kind */
    if (row->off == offsetof(svc_query, include) || row->off == offsetof(svc_query, exclude))
        return "must be a non-empty name pattern (* and ?), at most 256 of them";
    return "must be a non-empty list of SPDX license ids, at most 256 of them"; /* the policy lists */
}

int svc_query_parse_arg(svc_query_parser *p, const char *key, const char *value)
{
    if (check_arg(key, value, p->ep, p->why, sizeof p->why, 0))
        return 1;
    const svc_qparam *row = svc_qparam_find(key, p->ep);
    if (!row->repeat) {
        size_t at = (size_t)(row - qparams);
        if (p->seen[at]) {
            snprintf(p->why, sizeof p->why, "query parameter '%s' is given more than once", key);
            return 1;
        }
        p->seen[at] = 1;
    }
    char *f = (char *)p->q + row->off;
    const char *why = NULL;
    const char *const *choices = NULL;
    switch (row->type) {
    case SVC_Q_BOOL: {
        int b = 0;
        svc_param_bool(value ? value : "", 0, &b); /* checked above */
        *(int *)(void *)f = b;
        return 0;
    }
    case SVC_Q_COUNT: {
        long long c = 0;
        svc_param_count(value, row->max, &c); /* checked above */
        *(long long *)(void *)f = c;
        return 0;
    }
    case SVC_Q_LIST: {
        svc_qlist *l = (svc_qlist *)(void *)f;
        if (NULL == value || !value[0] || l->n == SVC_QLIST_MAX)
            return refuse(p, row->name, list_why(row));
        if (NULL == l->v) {
            l->v = p->alloc ? p->alloc(p->alloc_cls, SVC_QLIST_MAX * sizeof *l->v) : NULL;
            if (NULL == l->v) {
                p->nomem = 1;
                return refuse(p, row->name, "could not be stored (out of memory)");
            }
        }
        if (row->check && row->check(p->q, p->ep, value, &why, &choices)) {
            snprintf(p->why, sizeof p->why, "query parameter '%s': '%.64s' is not a package kind", row->name, value);
            goto closed;
        }
        l->v[l->n++] = value;
        return 0;
    }
    case SVC_Q_STRING:
        if (row->check && row->check(p->q, p->ep, value ? value : "", &why, &choices)) {
            refuse(p, row->name, why);
            goto closed;
        }
        *(const char **)(void *)f = value ? value : "";
        return 0;
    }
    return 0;
closed:
    p->choices = choices;
    p->nchoices = 0;
    while (choices && choices[p->nchoices])
        p->nchoices++;
    return 1;
}

int svc_query_parse_end(svc_query_parser *p)
{
    const svc_query *q = p->q;
    static const char *const pairs[][2] = {{"environment", "all-environments"}, {"platform", "all-platforms"}};
    int named[2] = {q->environment != NULL, q->platform != NULL},
        all[2] = {q->all_environments > 0, q->all_platforms > 0};
    for (size_t i = 0; i < 2; i++)
        if (named[i] && all[i]) {
            snprintf(p->why, sizeof p->why,
                     "query parameters '%s' and '%s' exclude each other: name one %s or ask for all", pairs[i][0],
                     pairs[i][1], pairs[i][0]);
            return 1;
        }
    return 0;
}
