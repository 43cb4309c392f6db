/*
 * test_cgroup.c - the cgroup limits sbomd's defaults follow (--memory-budget,
 * --threads 0), read from cgroup trees written into a temporary directory:
 * v2 and v1, nested limits (the smallest wins), "max"/-1/huge for none, and
 * a container whose cgroup path does not exist under its mount; and the
 * budget those limits size (charge, refuse, release).
 */
#include "test.h"
#include "../../service/budget.h"
#include "../../service/cgroup.h"
#include "../../service/config.h"
#include "../../service/http/admission.h"
#include "../../core/deadline.h"

#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

static char root[256];

static void put(const char *rel, const char *text)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", root, rel);
    for (char *p = path + strlen(root) + 1; *p; p++)
        if (*p == '/') {
            *p = '\0';
            mkdir(path, 0700);
            *p = '/';
        }
    FILE *f = fopen(path, "w");
    if (f) {
        fputs(text, f);
        fclose(f);
    }
}

/* A path under root; two calls may share one expression (two buffers). */
static const char *at(const char *rel)
{
    static char path[2][512];
    static int k;
    k ^= 1;
    snprintf(path[k], sizeof path[k], "%s/%s", root, rel);
    return path[k];
}

static void fresh(void)
{
    char cmd[300];
    if (root[0]) {
        snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
        CHECK(system(cmd) == 0);
    }
    snprintf(root, sizeof root, "/tmp/sbomd-cgroup-XXXXXX");
    CHECK(mkdtemp(root) != NULL);
}

TEST(cgroup_v2_nested_limits)
{
    fresh();
    put("self", "0::/kubepods/pod1/ctr\n");
    put("fs/kubepods/memory.max", "max\n");
    put("fs/kubepods/pod1/memory.max", "536870912\n");
    put("fs/kubepods/pod1/ctr/memory.max", "max\n");
    put("fs/kubepods/pod1/cpu.max", "max 100000\n");
    put("fs/kubepods/pod1/ctr/cpu.max", "150000 100000\n");
    CHECK(svc_cgroup_memory_limit(at("fs"), at("self")) == 536870912ULL);
    CHECK(svc_cgroup_cpus(at("fs"), at("self")) == 2); /* 1.5 rounds up */
    put("fs/kubepods/memory.max", "268435456\n");      /* a smaller one above wins */
    CHECK(svc_cgroup_memory_limit(at("fs"), at("self")) == 268435456ULL);
}

TEST(cgroup_v2_none_set)
{
    fresh();
    put("self", "0::/user.slice\n");
    put("fs/user.slice/memory.max", "max\n");
    put("fs/user.slice/cpu.max", "max 100000\n");
    CHECK(svc_cgroup_memory_limit(at("fs"), at("self")) == 0);
    CHECK(svc_cgroup_cpus(at("fs"), at("self")) == 0);
    CHECK(svc_cgroup_memory_limit(at("fs"), at("missing")) == 0);
    CHECK(svc_cgroup_cpus(at("nowhere"), at("self")) == 0);
    put("self", "garbage without colons\n");
    CHECK(svc_cgroup_memory_limit(at("fs"), at("self")) == 0);
}

TEST(cgroup_v2_container_namespace)
{
    /* cgroupns: the process sees "/" and the mount is its own cgroup */
    fresh();
    put("self", "0::/\n");
    put("fs/memory.max", "1073741824\n");
    put("fs/cpu.max", "50000 100000\n");
    CHECK(svc_cgroup_memory_limit(at("fs"), at("self")) == 1073741824ULL);
    CHECK(svc_cgroup_cpus(at("fs"), at("self")) == 1); /* half a CPU: one thread */
    /* a host path the mount does not have: the mount's own files count */
    put("self", "0::/kubepods/burstable/pod9/abc\n");
    CHECK(svc_cgroup_memory_limit(at("fs"), at("self")) == 1073741824ULL);
}

TEST(cgroup_v1)
{
    fresh();
    put("self", "12:cpu,cpuacct:/docker/abc\n11:memory:/docker/abc\n1:name=systemd:/docker/abc\n0::/\n");
    put("fs/memory/docker/abc/memory.limit_in_bytes", "402653184\n");
    put("fs/memory/memory.limit_in_bytes", "9223372036854771712\n"); /* no limit */
    put("fs/cpu,cpuacct/docker/abc/cpu.cfs_quota_us", "400000\n");
    put("fs/cpu,cpuacct/docker/abc/cpu.cfs_period_us", "100000\n");
    CHECK(svc_cgroup_memory_limit(at("fs"), at("self")) == 402653184ULL);
    CHECK(svc_cgroup_cpus(at("fs"), at("self")) == 4);
    put("fs/cpu,cpuacct/docker/abc/cpu.cfs_quota_us", "-1\n");
    put("fs/memory/docker/abc/memory.limit_in_bytes", "9223372036854771712\n");
    CHECK(svc_cgroup_cpus(at("fs"), at("self")) == 0);
    CHECK(svc_cgroup_memory_limit(at("fs"), at("self")) == 0);
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
    CHECK(system(cmd) == 0);
}

TEST(budget_charge_release)
{
    svc_budget b;
    svc_budget_init(&b, 1000);
    CHECK(svc_budget_cost(100) == 100 + 100 * SVC_BUDGET_ARENA_FACTOR);
    CHECK(svc_budget_charge(&b, 600) == 1);
    CHECK(svc_budget_charge(&b, 401) == 0); /* would exceed: nothing taken */
    CHECK(svc_budget_used(&b) == 600);
    CHECK(svc_budget_charge(&b, 400) == 1); /* exactly full */
    CHECK(svc_budget_charge(&b, 1) == 0);
    svc_budget_release(&b, 600);
    CHECK(svc_budget_used(&b) == 400);
    CHECK(svc_budget_charge(&b, ~0ULL) == 0); /* no overflow past the total */
    CHECK(svc_budget_default(0) == SVC_BUDGET_DEFAULT);
    CHECK(svc_budget_default(536870912ULL) == 536870912ULL / 100 * SVC_BUDGET_CGROUP_PERCENT);
}

/* The accountant (issue 43): a request pays as it takes, past what it
 * prepaid; 413 when its whole charge would pass the budget, 503 when others
 * hold the rest; given-back bytes lower held but the charge stays until the
 * request ends. */
TEST(budget_account_grows_then_refuses)
{
    svc_budget b;
    svc_budget_init(&b, 100ULL << 20);
    atomic_ullong base;
    atomic_init(&base, 0);
    svc_account acct;
    svc_account_init(&acct, &b, &base, 7);
    CHECK(svc_account_take(&acct, 1000) == 1); /* the first MiB granted */
    CHECK(atomic_load(&acct.granted) == 1ULL << 20);
    CHECK(svc_budget_used(&b) == 1ULL << 20);
    svc_account_prepay(&acct, 10ULL << 20); /* an admitted estimate: paid for already */
    CHECK(svc_account_take(&acct, 10ULL << 20) == 1);
    CHECK(svc_budget_used(&b) == 1ULL << 20); /* within what was paid: nothing more charged */
    CHECK(svc_account_take(&acct, 20ULL << 20) == 1);
    CHECK(atomic_load(&acct.granted) >= 20ULL << 20);
    CHECK(svc_budget_used(&b) == atomic_load(&acct.granted));
    svc_account_give(&acct, 20ULL << 20);
    CHECK(atomic_load(&acct.held) == (10ULL << 20) + 1000);
    CHECK(atomic_load(&acct.peak) >= 30ULL << 20);
    /* another request holds most of the rest: 503, nothing held or charged more */
    unsigned long long used = svc_budget_used(&b);
    CHECK(svc_budget_charge(&b, (100ULL << 20) - used - (1ULL << 20)) == 1);
    unsigned long long held = atomic_load(&acct.held);
    CHECK(svc_account_take(&acct, 40ULL << 20) == 0);
    CHECK(atomic_load(&acct.refused) == 503);
    CHECK(atomic_load(&acct.held) == held);
    CHECK(svc_budget_used(&b) == 99ULL << 20);
    /* more than the whole budget could hold, even alone: 413 (the first reason stays) */
    svc_account acct2;
    svc_account_init(&acct2, &b, &base, 8);
    atomic_store(&base, 90ULL << 20);
    CHECK(svc_account_take(&acct2, 20ULL << 20) == 0);
    CHECK(atomic_load(&acct2.refused) == 413);
    CHECK(atomic_load(&acct2.wanted) >= 110ULL << 20);
}

TEST(budget_fits_max_body)
{
    sb_err err;
    svc_cfg c;
    memset(&c, 0, sizeof c);
    c.max_body = 64L << 20;
    CHECK(svc_cfg_fit_budget(&c, 512ULL << 20, &err) == 0); /* a 512Mi pod: 70% holds 5 x 64 MiB */
    CHECK(c.memory_budget == (long)((512ULL << 20) / 100 * 70) && c.max_body == 64L << 20 && !c.max_body_lowered);
    memset(&c, 0, sizeof c);
    c.max_body = 64L << 20;
    CHECK(svc_cfg_fit_budget(&c, 0, &err) == 0 && c.memory_budget == (long)SVC_BUDGET_DEFAULT);
    memset(&c, 0, sizeof c);
    c.max_body = 64L << 20;
    CHECK(svc_cfg_fit_budget(&c, 256ULL << 20, &err) == 0); /* derived, too small: max-body fits it */
    CHECK(c.max_body_lowered && c.max_body == c.memory_budget / 5 &&
          svc_budget_cost((unsigned long long)c.max_body) <= (unsigned long long)c.memory_budget);
    memset(&c, 0, sizeof c);
    c.max_body = 32L << 20; /* a max-body the operator chose, a budget set too small: an error naming both */
    c.memory_budget = 1000000;
    CHECK(svc_cfg_fit_budget(&c, 0, &err) < 0 && strstr(err.msg, "memory-budget 1000000") &&
          strstr(err.msg, "max-body"));
}

/* Size settings take units as Kubernetes and people write them. */
TEST(config_sizes_take_units)
{
    static const struct {
        const char *in;
        long long want; /* -1: refused */
    } cases[] = {
        {"67108864", 67108864LL},
        {"64M", 64000000LL},
        {"64MB", 64000000LL},
        {"64Mi", 67108864LL},
        {"300Mi", 314572800LL},
        {"300MiB", 314572800LL},
        {"1G", 1000000000LL},
        {"1Gi", 1073741824LL},
        {"2Ti", 2199023255552LL},
        {"8k", 8000LL},
        {"8K", 8000LL},
        {"8Ki", 8192LL},
        {"0", 0},
        {"64m", -1},
        {"64 Mi", -1},
        {"Mi", -1},
        {"-1Mi", -1},
        {"1.5G", -1},
        {"64Q", -1},
        {"", -1},
        {"99999999999999999999Ti", -1},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        long long got = -1;
        int rc = svc_cfg_size(cases[i].in, &got);
        sb_test_subcase(cases[i].in, cases[i].want < 0 ? rc != 0 : (rc == 0 && got == cases[i].want), cases[i].in);
    }
    /* through the settings: an option and an environment variable */
    svc_cfg c;
    sb_err err;
    char *argv[] = {"sbomd", "--memory-budget", "400Mi", "--max-body", "64Mi", NULL};
    CHECK(svc_cfg_load(&c, 5, argv, &err) == 0);
    CHECK(c.memory_budget == 419430400L && c.max_body == 67108864L);
    char *bad[] = {"sbomd", "--max-body", "64Q", NULL};
    CHECK(svc_cfg_load(&c, 3, bad, &err) < 0 && strstr(err.msg, "units k, M, G, T, Ki, Mi, Gi, Ti") != NULL);
    char *port[] = {"sbomd", "--port", "8Ki", NULL}; /* a port is no size */
    CHECK(svc_cfg_load(&c, 3, port, &err) < 0);
}

/* --memory-budget 300Mi with max-body at its default: max-body is lowered to
 * what the budget holds (main logs it), not refused */
TEST(budget_set_lowers_default_max_body)
{
    sb_err err;
    svc_cfg c;
    memset(&c, 0, sizeof c);
    c.max_body = SVC_CFG_MAX_BODY_DEFAULT;
    c.memory_budget = 300L << 20;
    CHECK(svc_cfg_fit_budget(&c, 0, &err) == 0);
    CHECK(c.max_body_lowered && c.max_body == (300L << 20) / 5 && c.memory_budget == 300L << 20);
    memset(&c, 0, sizeof c);
    c.max_body = SVC_CFG_MAX_BODY_DEFAULT;
    c.memory_budget = 1L << 30; /* holds it: nothing lowered */
    CHECK(svc_cfg_fit_budget(&c, 0, &err) == 0 && !c.max_body_lowered && c.max_body == SVC_CFG_MAX_BODY_DEFAULT);
}

/* What a query is priced at: linear in its bytes (a policy of 7,000 terms in
 * 28 KB of query is some 450 KB, never the quadratic 245 MiB) */
TEST(budget_query_cost_linear)
{
    CHECK(svc_budget_query_cost(0) == 0);
    CHECK(svc_budget_query_cost(28000) == 28000 * SVC_BUDGET_QUERY_FACTOR);
    CHECK(svc_budget_query_cost(56000) == 2 * svc_budget_query_cost(28000));
    CHECK(svc_budget_query_cost(28000) < 1ULL << 20);
}

/* The rule when requests stop each other: the first refused becomes the
 * grower and waits for memory; another is refused at once while it holds
 * the role; the role is free again when the grower's request ends */
TEST(budget_one_grower_waits_others_stop)
{
    svc_budget b;
    svc_budget_init(&b, 10ULL << 20);
    atomic_ullong base;
    atomic_init(&base, 0);
    svc_account a1, a2;
    svc_account_init(&a1, &b, &base, 1);
    svc_account_init(&a2, &b, &base, 2);
    CHECK(svc_budget_claim_growth(&b, 1) == 1);
    CHECK(svc_budget_claim_growth(&b, 1) == 1); /* its own again */
    CHECK(svc_budget_claim_growth(&b, 2) == 0);
    svc_account_done(&a2); /* not the grower: changes nothing */
    CHECK(svc_budget_claim_growth(&b, 2) == 0);
    svc_account_done(&a1);
    CHECK(svc_budget_claim_growth(&b, 2) == 1);
    svc_account_done(&a2);
    /* the budget full: a2, not the grower, is refused 503 at once; a1 (the
     * grower) waits until its deadline and, nothing given back, is refused */
    CHECK(svc_budget_charge(&b, 10ULL << 20) == 1);
    a1.deadline_ns = sb_deadline_now_ns() + 200000000LL;
    a2.deadline_ns = sb_deadline_now_ns() + 5000000000LL;
    CHECK(svc_budget_claim_growth(&b, 1) == 1);
    long long t0 = sb_deadline_now_ns();
    CHECK(svc_account_take(&a2, 1000) == 0 && atomic_load(&a2.refused) == 503);
    CHECK(sb_deadline_now_ns() - t0 < 100000000LL); /* at once: not waiting */
    svc_account_done(&a1);
    t0 = sb_deadline_now_ns();
    CHECK(svc_account_take(&a1, 1000) == 0 && atomic_load(&a1.refused) == 503);
    CHECK(sb_deadline_now_ns() - t0 >= 150000000LL); /* it waited, until its deadline */
    svc_account_done(&a1);
    svc_budget_release(&b, 10ULL << 20);
}

/* Retry-After for a refused request: 2 to 5 s, the same for the same salt,
 * and consecutive requests spread over all four */
TEST(budget_retry_after_spread)
{
    unsigned seen[SVC_BUDGET_RETRY_MAX + 1] = {0};
    for (unsigned long long i = 1; i <= 400; i++) {
        unsigned s = svc_budget_retry_secs(i);
        CHECK(s >= SVC_BUDGET_RETRY_MIN && s <= SVC_BUDGET_RETRY_MAX);
        CHECK(s == svc_budget_retry_secs(i));
        if (s <= SVC_BUDGET_RETRY_MAX)
            seen[s]++;
    }
    for (unsigned s = SVC_BUDGET_RETRY_MIN; s <= SVC_BUDGET_RETRY_MAX; s++)
        CHECK(seen[s] >= 50);
}

/* Growth leaves 1/16 of the budget free while others are in flight (what
 * the process holds outside the accounts lives there); a request alone may
 * grow to the whole budget */
TEST(budget_growth_reserve)
{
    svc_budget b;
    svc_budget_init(&b, 160ULL << 20);
    CHECK(svc_budget_growth_ceiling(&b, 0) == 160ULL << 20);
    CHECK(svc_budget_growth_ceiling(&b, 1) == 150ULL << 20);
    CHECK(svc_budget_charge_within(&b, 150ULL << 20, svc_budget_growth_ceiling(&b, 1)) == 1);
    CHECK(svc_budget_charge_within(&b, 1, svc_budget_growth_ceiling(&b, 1)) == 0);
    CHECK(svc_budget_charge_within(&b, 10ULL << 20, 1ULL << 40) == 1); /* never past the total */
    CHECK(svc_budget_charge_within(&b, 1, 1ULL << 40) == 0);
    CHECK(svc_budget_used(&b) == 160ULL << 20);
    svc_budget_release(&b, 160ULL << 20);
    /* an account alone grows to all of it; beside another's charge, to the reserve */
    atomic_ullong base;
    atomic_init(&base, 0);
    svc_account a;
    svc_account_init(&a, &b, &base, 9);
    CHECK(svc_account_take(&a, 160ULL << 20) == 1);
    svc_account b2;
    svc_account_init(&b2, &b, &base, 10);
    svc_budget_release(&b, 160ULL << 20); /* as if a ended */
    atomic_store(&a.granted, 0);
    CHECK(svc_budget_charge(&b, 100ULL << 20) == 1); /* another request's */
    CHECK(svc_account_take(&b2, 55ULL << 20) == 0 && atomic_load(&b2.refused) == 503);
    CHECK(svc_account_take(&b2, 50ULL << 20) == 1); /* up to the ceiling: 100 + 50 of 160 MiB */
    CHECK(svc_budget_used(&b) == 150ULL << 20);
    svc_budget_release(&b, 150ULL << 20);
}
