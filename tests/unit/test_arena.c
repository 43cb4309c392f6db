/* test_arena.c - arena and buffer contracts. */
#include "test.h"
#include "../../core/alloc.h"
#include "../../core/arena.h"
#include "../../core/gate.h"
#include "../../core/buf.h"
#include "../../core/err.h"

#include <stdint.h>
#include <string.h>

TEST(core_arena__alloc_aligned_and_strings)
{
    sb_arena *a = sb_arena_new(0);
    CHECK(a != NULL);
    for (int i = 0; i < 10000; i++) {
        void *p = sb_arena_alloc(a, (size_t)(i % 97) + 1);
        CHECK(p != NULL);
        CHECK(((uintptr_t)p % _Alignof(max_align_t)) == 0);
    }
    void *big = sb_arena_alloc(a, 3 << 20);
    CHECK(big != NULL);
    CHECK_STR(sb_arena_strndup(a, "abcdef", 3), "abc");
    CHECK_STR(sb_arena_printf(a, "%s-%d", "x", 42), "x-42");
    CHECK(sb_arena_strdup(a, NULL) == NULL);
    sb_arena_destroy(a);
    sb_arena_destroy(NULL);
}

TEST(core_arena__cap_refuses)
{
    sb_arena *a = sb_arena_new(1000);
    CHECK(sb_arena_alloc(a, 500) != NULL);
    CHECK(sb_arena_alloc(a, 600) == NULL);
    CHECK(sb_arena_calloc(a, SIZE_MAX / 2, 4) == NULL);
    sb_arena_destroy(a);
}

TEST(core_buf__cap_and_consume)
{
    sb_buf b = SB_BUF_INIT(10);
    CHECK(sb_buf_append(&b, "hello", 5) == SB_OK);
    CHECK(sb_buf_append(&b, "world", 5) == SB_OK);
    CHECK(sb_buf_append(&b, "!", 1) == SB_ELIMIT);
    CHECK(b.len == 10);
    sb_buf_consume(&b, 5);
    CHECK_STR(b.data, "world");
    sb_buf_free(&b);
    CHECK(b.data == NULL);
}

TEST(core_gate__collects_in_order)
{
    sb_arena *a = sb_arena_new(1 << 20);
    sb_gate g;
    sb_gate_init(&g, "policy-violation", "License policy violated");
    CHECK(!sb_gate_fired(&g));
    for (int i = 0; i < 100; i++) {
        sb_finding f = {.package = sb_arena_printf(a, "p%d", i), .rule = "deny-license", .value = "GPL-3.0-only"};
        CHECK(sb_gate_add(&g, a, &f) == SB_OK);
    }
    CHECK(sb_gate_fired(&g));
    CHECK(g.n == 100);
    CHECK_STR(g.items[0].package, "p0");
    CHECK_STR(g.items[99].package, "p99");
    CHECK(g.items[42].version == NULL);
    sb_arena_destroy(a);
}

/* A problem's detail is the error's message: a long sentence (a list of
 * choices, a file name and a reason) is kept whole, not cut at 255 bytes. */
TEST(core_err__long_message_kept_whole)
{
    char name[601];
    memset(name, 'n', 600);
    name[600] = '\0';
    sb_err err;
    sb_err_clear(&err);
    CHECK(sb_err_set(&err, SB_EINVAL, "package '%s' is not in the environment", name) == SB_EINVAL);
    CHECK(strlen(err.msg) == 600 + strlen("package '' is not in the environment"));
    CHECK(strstr(err.msg, "' is not in the environment") != NULL);
}

TEST(core_grow__arena_and_heap_arrays)
{
    sb_arena *a = sb_arena_new(0);
    CHECK(a != NULL);
    if (NULL == a)
        return;
    /* arena: element n of an array, doubling from `first`, contents kept */
    int *v = NULL;
    size_t cap = 0;
    for (int i = 0; i < 100; i++) {
        int *nv = sb_arena_grow(a, v, &cap, (size_t)i, sizeof *v, 4);
        CHECK(nv != NULL);
        if (NULL == nv)
            break;
        v = nv;
        v[i] = i * 3;
    }
    CHECK(cap == 128); /* 4, 8, ... 128 */
    int ok = 1;
    for (int i = 0; v && i < 100; i++)
        ok &= v[i] == i * 3;
    CHECK(ok);
    /* room for many at once: doubled until it holds them, the first n copied */
    char *s = sb_arena_strdup(a, "abc");
    size_t scap = 4;
    char *ns = sb_arena_reserve(a, s, &scap, 3, 4, 1, 64);
    CHECK(ns == s && scap == 4); /* enough already: the same block */
    ns = sb_arena_reserve(a, s, &scap, 4, 37, 1, 64);
    CHECK(ns && ns != s && scap == 64 && !memcmp(ns, "abc", 4));
    size_t ecap = 0;
    CHECK(sb_arena_reserve(a, NULL, &ecap, 0, 10, 8, 4) != NULL && ecap == 16);
    size_t huge = SIZE_MAX / 2 + 2;
    CHECK(sb_arena_reserve(a, NULL, &huge, 0, SIZE_MAX, 1, 1) == NULL && huge == SIZE_MAX / 2 + 2);
    sb_arena_destroy(a);

    /* heap: the same growth, realloc keeping the contents; failure leaves it */
    long *h = NULL;
    size_t hcap = 0;
    for (size_t i = 0; i < 40; i++) {
        CHECK(sb_vec_grow(&h, &hcap, i, sizeof *h, 16) == SB_OK);
        h[i] = (long)i;
    }
    CHECK(hcap == 64 && h[39] == 39 && h[0] == 0);
    CHECK(sb_vec_grow(&h, &hcap, 10, sizeof *h, 16) == SB_OK && hcap == 64); /* room: nothing moves */
    size_t bad = SIZE_MAX / 4;
    long *keep = h;
    CHECK(sb_vec_grow(&h, &bad, bad, sizeof *h, 16) == SB_ENOMEM && h == keep && bad == SIZE_MAX / 4);
    sb_free(h);
}

/* A buffer past 4 MiB: grown a chunk at a time (a chunked upload) or sized
 * once (a declared body), its contents survive every step, the NUL stays
 * after them, and freeing leaves it empty and reusable. In the mimalloc build
 * it is a mapping of its own (mapped = its page-rounded length). */
TEST(core_buf__large_growth_keeps_contents)
{
    sb_buf b = SB_BUF_INIT((size_t)9 << 20);
    char chunk[65536];
    size_t total = 0;
    int ok = 1;
    for (unsigned i = 0; total + sizeof chunk <= ((size_t)9 << 20); i++) {
        memset(chunk, (int)('a' + i % 26), sizeof chunk);
        ok &= sb_buf_append(&b, chunk, sizeof chunk) == SB_OK;
        total += sizeof chunk;
    }
    CHECK(ok && b.len == total && b.data[b.len] == '\0');
    for (size_t at = 0; at < total; at += sizeof chunk)
        ok &= b.data[at] == (char)('a' + (at / sizeof chunk) % 26) && b.data[at + sizeof chunk - 1] == b.data[at];
    CHECK(ok);
    CHECK(b.alloc >= b.len + 1);
#ifndef SB_NO_MIMALLOC
    CHECK(b.mapped == b.alloc && b.mapped % 4096 == 0);
#else
    CHECK(b.mapped == 0);
#endif
    CHECK(sb_buf_append(&b, chunk, sizeof chunk) == SB_ELIMIT && b.len == total); /* past the cap */
    sb_buf_consume(&b, total - 3);
    CHECK(b.len == 3 && b.data[3] == '\0');
    sb_buf_free(&b);
    CHECK(b.data == NULL && b.len == 0 && b.alloc == 0 && b.mapped == 0);

    /* sized once, then filled: no growth step past the first */
    sb_buf_expect(&b, (size_t)5 << 20);
    CHECK(b.data != NULL && b.alloc >= ((size_t)5 << 20) + 1 && b.data[0] == '\0');
    char *at = b.data;
    for (size_t n = 0; n < ((size_t)5 << 20); n += sizeof chunk)
        ok &= sb_buf_append(&b, chunk, sizeof chunk) == SB_OK;
    CHECK(ok && b.data == at && b.len == ((size_t)5 << 20));
    sb_buf_free(&b);
    sb_buf_free(&b); /* twice is harmless */
    CHECK(b.data == NULL);
}

/* A meter that keeps the books and refuses past a limit (issue 43). */
typedef struct test_meter {
    size_t taken, given, limit;
    int refusals;
} test_meter;

static int tm_take(void *ctx, size_t n)
{
    test_meter *m = ctx;
    if (m->taken - m->given + n > m->limit) {
        m->refusals++;
        return 0;
    }
    m->taken += n;
    return 1;
}

static void tm_give(void *ctx, size_t n)
{
    ((test_meter *)ctx)->given += n;
}

TEST(core_arena__meter_charges_blocks_as_taken)
{
    test_meter tm = {0, 0, (size_t)8 << 20, 0};
    sb_meter m = {tm_take, tm_give, &tm};
    sb_arena *a = sb_arena_new(0);
    CHECK(sb_arena_alloc(a, 100) != NULL); /* before the meter: charged when it is set */
    size_t before = sb_arena_held(a);
    CHECK(before >= 100);
    CHECK(sb_arena_meter(a, &m) == 0);
    CHECK(tm.taken == before);
    for (int i = 0; i < 20000; i++)
        CHECK(sb_arena_alloc(a, 64) != NULL);
    /* what the meter was charged is what the arena holds, never less than handed out */
    CHECK(tm.taken - tm.given == sb_arena_held(a));
    CHECK(sb_arena_held(a) >= sb_arena_used(a));
    /* a child inherits the meter; adopting moves its blocks, not its charge */
    sb_arena *c = sb_arena_child(a);
    CHECK(c != NULL);
    CHECK(sb_arena_alloc(c, 1 << 20) != NULL);
    CHECK(tm.taken - tm.given == sb_arena_held(a) + sb_arena_held(c));
    CHECK(sb_arena_adopt(a, c) == 0);
    CHECK(tm.taken - tm.given == sb_arena_held(a));
    /* past the limit the allocation fails, and nothing more is held */
    size_t held = sb_arena_held(a);
    CHECK(sb_arena_alloc(a, (size_t)16 << 20) == NULL);
    CHECK(tm.refusals == 1);
    CHECK(sb_arena_held(a) == held);
    CHECK(tm.taken - tm.given == held);
    /* a reset gives back all but the block it keeps; destroy gives back the rest */
    sb_arena_reset(a);
    CHECK(tm.taken - tm.given == sb_arena_held(a));
    sb_arena_destroy(a);
    CHECK(tm.taken == tm.given);
}

/* A metered buffer is charged for what it allocates as it grows (small and
 * mapped sizes alike), refuses a growth past the meter's limit as
 * SB_ENOMEM with its contents kept, and gives everything back when freed. */
TEST(core_buf__meter_charges_growth)
{
    test_meter tm = {0, 0, (size_t)9 << 20, 0};
    sb_meter m = {tm_take, tm_give, &tm};
    sb_buf b = SB_BUF_INIT(0);
    sb_buf_meter(&b, &m);
    static char chunk[65536];
    int ok = 1;
    for (int i = 0; i < 80; i++) /* 5 MiB: past the size a buffer is mapped at */
        ok &= sb_buf_append(&b, chunk, sizeof chunk) == SB_OK;
    CHECK(ok && b.len == ((size_t)5 << 20));
    CHECK(tm.taken - tm.given == b.alloc);
    size_t len = b.len, alloc = b.alloc;
    CHECK(sb_buf_reserve(&b, (size_t)4 << 20) == SB_ENOMEM);
    CHECK(tm.refusals == 1 && b.len == len && b.alloc == alloc && tm.taken - tm.given == alloc);
    sb_buf_free(&b);
    CHECK(tm.taken == tm.given);
    CHECK(sb_buf_append(&b, "x", 1) == SB_OK); /* still metered after a free */
    CHECK(tm.taken - tm.given == b.alloc);
    sb_buf_free(&b);
    CHECK(tm.taken == tm.given);
}

TEST(core_arena__meter_refuses_what_is_held)
{
    test_meter tm = {0, 0, 10, 0};
    sb_meter m = {tm_take, tm_give, &tm};
    sb_arena *a = sb_arena_new(0);
    CHECK(sb_arena_alloc(a, 1000) != NULL);
    CHECK(sb_arena_meter(a, &m) == -1); /* it holds more than the meter allows */
    CHECK(tm.taken == 0);
    CHECK(sb_arena_alloc(a, 10) != NULL); /* still unmetered */
    sb_arena_destroy(a);
    CHECK(tm.given == 0);
}

TEST(core_arena__join_once)
{
    sb_arena *a = sb_arena_new(0);
    const char *v[] = {"a", NULL, "bc", "", "d"};
    CHECK_STR(sb_arena_join(a, v, 5, "; "), "a; bc; ; d");
    CHECK_STR(sb_arena_join(a, v, 0, ","), "");
    CHECK_STR(sb_arena_join(a, v + 1, 1, ","), "");
    sb_arena_destroy(a);
}
