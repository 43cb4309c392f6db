/*
 * test_policy.c - the license policy evaluator (core/policy.c), table-driven:
 * expressions x policies (OR/AND/WITH, parentheses, -only / -or-later / +
 * equivalences, deprecated ids, LicenseRef exact matches, require-license),
 * the validation of allow/deny values, exemptions, and what applying a
 * policy leaves on a model (properties, verdicts, gate findings).
 */
#include "test.h"
#include "../../core/policy.h"

#include <stdlib.h>
#include <string.h>

typedef struct pcase {
    const char *allow, *deny; /* comma lists, NULL for none */
    int require;
    const char *license; /* raw, as a lockfile would carry it; NULL = none */
    sb_policy_rule want;
} pcase;

#define P SB_POL_PASS
#define D SB_POL_DENIED
#define NA SB_POL_NOT_ALLOWED
#define NL SB_POL_NO_LICENSE
#define NS SB_POL_NOT_SPDX

static const pcase cases[] = {
    /* plain ids */
    {"MIT", NULL, 0, "MIT", P},
    {"MIT", NULL, 0, "Apache-2.0", NA},
    {NULL, "MIT", 0, "MIT", D},
    {NULL, "GPL-3.0-only", 0, "MIT", P},
    {"mit", NULL, 0, "MIT", P},
    {"MIT", NULL, 0, "mit", P},
    {"Apache-2.0,MIT", NULL, 0, "Apache-2.0", P},
    {"Apache-2.0, MIT", NULL, 0, "BSD-3-Clause", NA},
    {"MIT", "MIT", 0, "MIT", D},
    {"MIT-0", NULL, 0, "MIT", NA},
    {"MIT", NULL, 0, "MIT-0", NA},
    /* OR: any branch */
    {"MIT", NULL, 0, "MIT OR Apache-2.0", P},
    {"Apache-2.0", NULL, 0, "MIT OR Apache-2.0", P},
    {"Zlib", NULL, 0, "MIT OR Apache-2.0", NA},
    {NULL, "GPL-3.0-only", 0, "MIT OR GPL-3.0-only", P},
    {NULL, "GPL-3.0-only,MIT", 0, "MIT OR GPL-3.0-only", D},
    {NULL, "GPL-3.0-only", 0, "GPL-3.0-only OR GPL-3.0-or-later", D},
    {"MIT", "GPL-3.0-only", 0, "GPL-3.0-only OR BSD-3-Clause", D},
    {"MIT", NULL, 0, "mit or apache-2.0", P},
    {"MIT", NULL, 0, "MIT/Apache-2.0", P},
    /* AND: every branch */
    {"MIT", NULL, 0, "MIT AND Apache-2.0", NA},
    {"MIT,Apache-2.0", NULL, 0, "MIT AND Apache-2.0", P},
    {NULL, "Apache-2.0", 0, "MIT AND Apache-2.0", D},
    {"MIT,Zlib", NULL, 0, "(MIT OR Apache-2.0) AND Zlib", P},
    {"Apache-2.0", NULL, 0, "(MIT OR Apache-2.0) AND Zlib", NA},
    {"Zlib", NULL, 0, "(MIT OR Apache-2.0) AND Zlib", NA},
    {"MIT,Zlib", NULL, 0, "MIT AND Zlib OR Apache-2.0", P},
    {"Apache-2.0", NULL, 0, "MIT AND Zlib OR Apache-2.0", P},
    {"MIT", NULL, 0, "MIT AND Zlib OR Apache-2.0", NA},
    {NULL, "Zlib", 0, "MIT AND (Zlib OR BSD-2-Clause)", P},
    {NULL, "Zlib,BSD-2-Clause", 0, "MIT AND (Zlib OR BSD-2-Clause)", D},
    {"MIT,BSD-2-Clause", NULL, 0, "((MIT)) AND ((Zlib) OR (BSD-2-Clause))", P},
    /* -only / bare deprecated / + / -or-later */
    {"GPL-3.0-only", NULL, 0, "GPL-3.0", P},
    {"GPL-3.0", NULL, 0, "GPL-3.0-only", P},
    {NULL, "GPL-3.0", 0, "GPL-3.0-only", D},
    {NULL, "GPL-3.0-only", 0, "GPL-3.0", D},
    {"GPL-2.0-or-later", NULL, 0, "GPL-2.0+", P},
    {"GPL-2.0+", NULL, 0, "GPL-2.0-or-later", P},
    {NULL, "GPL-2.0+", 0, "GPL-2.0-or-later", D},
    {"GPL-2.0-only", NULL, 0, "GPL-2.0-or-later", P},
    {"GPL-3.0-only", NULL, 0, "GPL-2.0-or-later", P},
    {"GPL-3.0-only", NULL, 0, "GPL-2.0-only", NA},
    {"GPL-2.0-only", NULL, 0, "GPL-3.0-or-later", NA},
    {"GPL-2.0-or-later", NULL, 0, "GPL-3.0-only", P},
    {"GPL-2.0-or-later", NULL, 0, "GPL-2.0-only", P},
    {"GPL-3.0-or-later", NULL, 0, "GPL-2.0-only", NA},
    {NULL, "GPL-2.0-or-later", 0, "GPL-3.0-only", D},
    {NULL, "GPL-3.0-or-later", 0, "GPL-2.0-only", P},
    {"LGPL-2.1-or-later", NULL, 0, "LGPL-2.1+", P},
    {"LGPL-2.1-only", NULL, 0, "LGPL-2.1", P},
    {"LGPL-3.0-only", NULL, 0, "LGPL-2.1-or-later", P},
    {"GPL-3.0-only", NULL, 0, "LGPL-3.0-only", NA},
    {"Apache-2.0", NULL, 0, "Apache-1.1", NA},
    {NULL, "AGPL-3.0", 0, "AGPL-3.0-or-later", D},
    /* WITH exceptions */
    {"GPL-2.0-only", NULL, 0, "GPL-2.0-only WITH Classpath-exception-2.0", P},
    {"GPL-2.0-only WITH Classpath-exception-2.0", NULL, 0, "GPL-2.0-only", NA},
    {"GPL-2.0-only WITH Classpath-exception-2.0", NULL, 0, "GPL-2.0-only WITH Classpath-exception-2.0", P},
    {NULL, "GPL-3.0-only", 0, "GPL-3.0-only WITH GCC-exception-3.1", D},
    {"GPL-3.0-only WITH GCC-exception-3.1", "GPL-3.0-only", 0, "GPL-3.0-only WITH GCC-exception-3.1", P},
    {"GPL-3.0-only WITH GCC-exception-3.1", "GPL-3.0-only", 0, "GPL-3.0-only", D},
    {NULL, "GPL-3.0-only WITH GCC-exception-3.1", 0, "GPL-3.0-or-later WITH GCC-exception-3.1", D},
    {"GPL-3.0-only", "GPL-2.0-only", 0, "GPL-2.0-or-later", P},
    {"GPL-3.0-or-later WITH GCC-exception-3.1", NULL, 0, "GPL-3.0-with-GCC-exception", P},
    {"GPL-2.0-only WITH Classpath-exception-2.0", NULL, 0, "GPL-2.0-with-classpath-exception", P},
    {NULL, "GPL-2.0-only", 0, "GPL-2.0-with-classpath-exception", D},
    {"MIT", NULL, 0, "GPL-2.0-only WITH Classpath-exception-2.0 OR MIT", P},
    /* deprecated renamed ids */
    {"SMLNJ", NULL, 0, "StandardML-NJ", P},
    {"StandardML-NJ", NULL, 0, "SMLNJ", P},
    {"BSD-2-Clause", NULL, 0, "BSD-2-Clause-FreeBSD", P},
    {"LGPL-2.0-or-later WITH WxWindows-exception-3.1", NULL, 0, "wxWindows", P},
    /* references */
    {"LicenseRef-Acme", NULL, 0, "LicenseRef-Acme", P},
    {"LicenseRef-Acme", NULL, 0, "LicenseRef-Acme-2", NA},
    {NULL, "LicenseRef-Acme", 0, "LicenseRef-Acme OR MIT", P},
    {NULL, "LicenseRef-Acme", 0, "LicenseRef-Acme AND MIT", D},
    /* no license / free text */
    {"MIT", NULL, 0, NULL, P},
    {"MIT", NULL, 1, NULL, NL},
    {NULL, NULL, 1, "", NL},
    {NULL, NULL, 1, "UNKNOWN", NL},
    {NULL, "MIT", 0, "Proprietary", P},
    {NULL, NULL, 1, "Proprietary", NS},
    {"MIT", NULL, 1, "BSD License", NS},
    {NULL, NULL, 1, "MIT", P},
    {"MIT", NULL, 1, "MIT License", P},
    {NULL, NULL, 0, "MIT", P},
};

static const char *const rule_names[] = {"pass", "denied", "not-allowed", "no-license", "not-spdx"};

TEST(policy_table)
{
    size_t n = sizeof cases / sizeof cases[0];
    CHECK(n >= 60);
    for (size_t i = 0; i < n; i++) {
        const pcase *c = &cases[i];
        sb_arena *a = sb_arena_new(0);
        sb_policy p = {0};
        sb_err err;
        sb_err_clear(&err);
        int ok = 1;
        if (c->allow && sb_policy_add_ids(&p, a, false, c->allow, &err) != SB_OK)
            ok = 0;
        if (c->deny && sb_policy_add_ids(&p, a, true, c->deny, &err) != SB_OK)
            ok = 0;
        p.require = c->require != 0;
        sb_lic lic = sb_lic_normalize(a, c->license);
        const char *reason = NULL;
        sb_policy_rule got = ok ? sb_policy_eval(&p, a, &lic, &reason) : SB_POL_NRULES;
        char name[320], why[1400];
        snprintf(name, sizeof name, "policy allow=%s deny=%s require=%d license='%s'", c->allow ? c->allow : "-",
                 c->deny ? c->deny : "-", c->require, c->license ? c->license : "(none)");
        snprintf(why, sizeof why, "got %s (%s), want %s; %s", got < SB_POL_NRULES ? rule_names[got] : "bad policy",
                 reason ? reason : "", rule_names[c->want], ok ? "" : err.msg);
        int pass = got == c->want && (got == SB_POL_PASS) == (reason == NULL);
        sb_test_subcase(name, pass, why);
        sb_arena_destroy(a);
    }
}

TEST(policy_values_validated)
{
    static const struct {
        const char *v;
        int ok;
    } vals[] = {
        {"MIT", 1},
        {"GPL-2.0+", 1},
        {"GPL-3.0", 1},
        {"gpl-3.0-or-later", 1},
        {"LicenseRef-Acme", 1},
        {"GPL-2.0-only WITH Classpath-exception-2.0", 1},
        {"MIT,Apache-2.0", 1},
        {"Proprietary", 0},
        {"MIT OR Apache-2.0", 0},
        {"MIT AND Zlib", 0},
        {"GPL", 0},
        {"", 0},
        {"MIT,", 0},
        {"LicenseRef-", 0},
        {"GPL-2.0-only WITH Nothing-exception", 0},
        {"MIT+ +", 0},
        {"BSD License", 0},
    };
    for (size_t i = 0; i < sizeof vals / sizeof vals[0]; i++) {
        sb_arena *a = sb_arena_new(0);
        sb_policy p = {0};
        sb_err err;
        sb_err_clear(&err);
        sb_code rc = sb_policy_add_ids(&p, a, i % 2, vals[i].v, &err);
        char name[160];
        snprintf(name, sizeof name, "policy value '%s' %s", vals[i].v, vals[i].ok ? "accepted" : "refused");
        sb_test_subcase(name, vals[i].ok ? rc == SB_OK : rc == SB_EINVAL && strstr(err.msg, "license") != NULL,
                        err.msg);
        sb_arena_destroy(a);
    }
}

TEST(policy_ignore_and_key)
{
    sb_arena *a = sb_arena_new(0);
    sb_policy p = {0};
    sb_err err;
    sb_err_clear(&err);
    CHECK(!sb_policy_active(&p));
    CHECK(sb_policy_add_ignores(&p, a, "openssl:reviewed by legal, Zlib", &err) == SB_OK);
    CHECK(sb_policy_add_ignores(&p, a, ":why", &err) == SB_EINVAL);
    CHECK(sb_policy_active(&p));
    CHECK_STR(sb_policy_exempt(&p, "OpenSSL"), "reviewed by legal");
    CHECK_STR(sb_policy_exempt(&p, "zlib"), "true");
    CHECK(sb_policy_exempt(&p, "numpy") == NULL);
    CHECK(sb_policy_add_ids(&p, a, true, "GPL-3.0-only", &err) == SB_OK);
    CHECK_STR(sb_policy_key(&p, a), "require=0;deny=GPL-3.0-only;ignore=openssl:reviewed by legal;ignore=Zlib:");
    sb_arena_destroy(a);
}

TEST(policy_apply_marks_model)
{
    sb_arena *a = sb_arena_new(0);
    sb_pkg pk[4] = {
        {.kind = SB_KIND_CONDA, .name = "gcc", .version = "13", .license = "GPL-3.0-only"},
        {.kind = SB_KIND_CONDA, .name = "zlib", .version = "1.3", .license = "Zlib"},
        {.kind = SB_KIND_PYPI, .name = "readline", .version = "8", .license = "GPL-3.0-or-later"},
        {.kind = SB_KIND_PYPI, .name = "six", .version = "1.17.0"},
    };
    sb_prop props[2] = {{"pixi:a", "1"}, {"pixi:z", "2"}};
    pk[0].props = props;
    pk[0].nprops = 2;
    sb_sbom s = {.pkgs = pk, .npkgs = 4};
    sb_policy p = {0};
    sb_err err;
    sb_err_clear(&err);
    CHECK(sb_policy_add_ids(&p, a, true, "GPL-3.0-only", &err) == SB_OK);
    CHECK(sb_policy_add_ignores(&p, a, "readline:linked dynamically", &err) == SB_OK);
    p.require = true;
    sb_gate g;
    sb_gate_init(&g, "policy-violation", "license policy violated");
    CHECK(sb_policy_apply(&p, &s, a, &g) == SB_OK);
    CHECK(s.policy != NULL && s.policy_key != NULL);
    CHECK(g.n == 2);
    if (g.n == 2) {
        CHECK_STR(g.items[0].package, "gcc");
        CHECK_STR(g.items[0].rule, "deny-license");
        CHECK_STR(g.items[0].value, "GPL-3.0-only");
        CHECK_STR(g.items[1].package, "six");
        CHECK_STR(g.items[1].rule, "require-license");
    }
    CHECK(pk[0].nprops == 3);
    if (pk[0].nprops == 3) {
        CHECK_STR(pk[0].props[0].name, "pixi:a");
        CHECK_STR(pk[0].props[1].name, "pixi:license-violation");
        CHECK(strstr(pk[0].props[1].value, "denied") != NULL);
        CHECK_STR(pk[0].props[2].name, "pixi:z");
    }
    CHECK(pk[1].nprops == 0);
    CHECK(pk[2].nprops == 1 && !strcmp(pk[2].props[0].name, "pixi:license-exempt") &&
          !strcmp(pk[2].props[0].value, "linked dynamically"));
    CHECK(s.policy[2].rule == SB_POL_DENIED && s.policy[2].exempt != NULL);
    sb_arena_destroy(a);
}

TEST(policy_hostile_expressions)
{
    /* deep parentheses and long tokens never crash and never pass silently */
    sb_arena *a = sb_arena_new(0);
    sb_policy p = {0};
    sb_err err;
    sb_err_clear(&err);
    CHECK(sb_policy_add_ids(&p, a, false, "MIT", &err) == SB_OK);
    size_t depth = 5000;
    char *deep = malloc(depth * 2 + 8);
    memset(deep, '(', depth);
    memcpy(deep + depth, "MIT", 3);
    memset(deep + depth + 3, ')', depth);
    deep[depth * 2 + 3] = '\0';
    sb_lic lic = {SB_LIC_EXPR, deep, false, false, NULL, NULL};
    const char *why = NULL;
    CHECK(sb_policy_eval(&p, a, &lic, &why) == SB_POL_NOT_ALLOWED && why);
    lic.value = "MIT AND";
    CHECK(sb_policy_eval(&p, a, &lic, &why) != SB_POL_PASS);
    lic.value = "(MIT";
    CHECK(sb_policy_eval(&p, a, &lic, &why) != SB_POL_PASS);
    free(deep);
    sb_arena_destroy(a);
}

/* 7,000 allow terms in one query value: the key is written once, so the
 * arena holds about the terms and one key, not 7,000 partial copies */
TEST(policy_key_linear_in_terms)
{
    sb_arena *a = sb_arena_new(0);
    sb_policy p = {0};
    sb_err err;
    sb_err_clear(&err);
    size_t n = 7000;
    char *list = malloc(n * 4 + 1);
    CHECK(list != NULL);
    if (NULL == list)
        return;
    for (size_t i = 0; i < n; i++)
        memcpy(list + i * 4, i + 1 < n ? "MIT," : "MIT", 4);
    CHECK(sb_policy_add_ids(&p, a, false, list, &err) == SB_OK);
    CHECK(sb_policy_add_ignores(&p, a, "x:y", &err) == SB_OK);
    size_t before = sb_arena_used(a);
    const char *k = sb_policy_key(&p, a);
    size_t key_bytes = sb_arena_used(a) - before;
    CHECK(k != NULL);
    /* "require=0" + 7,000 x ";allow=MIT" + ";ignore=x:y" */
    CHECK(k && strlen(k) == 9 + n * 10 + 11);
    CHECK(k && !strncmp(k, "require=0;allow=MIT;allow=MIT", 29));
    CHECK(k && !strcmp(k + strlen(k) - 21, ";allow=MIT;ignore=x:y"));
    CHECK(key_bytes < 2 * (9 + n * 10 + 11 + 1) + 64);
    free(list);
    sb_arena_destroy(a);
}
