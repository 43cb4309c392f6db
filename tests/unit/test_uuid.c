/*
 * test_uuid.c - SHA-1 against the FIPS 180 vectors (one block, empty, two
 * blocks, a million 'a' fed in odd-sized pieces) and UUIDv5 against RFC 9562's
 * example (DNS namespace, "www.example.com").
 */
#include "test.h"
#include "../../core/uuid.h"

#include <stdio.h>
#include <stdlib.h>

static void hex(const unsigned char d[20], char out[41])
{
    for (int i = 0; i < 20; i++)
        snprintf(out + 2 * i, 3, "%02x", d[i]);
}

static int portable; /* the vectors through the portable rounds too */

static void sha1_of(const char *s, size_t n, char out[41])
{
    sb_sha1 c;
    unsigned char d[20];
    sb_sha1_init(&c);
    c.portable = portable;
    sb_sha1_update(&c, s, n);
    sb_sha1_final(&c, d);
    hex(d, out);
}

static void vectors(void)
{
    char h[41];
    sha1_of("abc", 3, h);
    CHECK_STR(h, "a9993e364706816aba3e25717850c26c9cd0d89d");
    sha1_of("", 0, h);
    CHECK_STR(h, "da39a3ee5e6b4b0d3255bfef95601890afd80709");
    const char *two = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
    sha1_of(two, strlen(two), h);
    CHECK_STR(h, "84983e441c3bd26ebaae4aa1f95129e5e54670f1");
    char *m = malloc(1000000);
    memset(m, 'a', 1000000);
    sb_sha1 c;
    unsigned char d[20];
    sb_sha1_init(&c);
    c.portable = portable;
    for (size_t off = 0, step = 1; off < 1000000; off += step, step = step * 7 % 1000 + 1)
        sb_sha1_update(&c, m + off, off + step > 1000000 ? 1000000 - off : step);
    sb_sha1_final(&c, d);
    hex(d, h);
    CHECK_STR(h, "34aa973cd4c4daa4f61eeb2bdbad27316534016f");
    free(m);
}

/* Both paths on this CPU (the SHA-NI one where it has them) and the portable
 * one forced: what machines without SHA-NI, and valgrind, run. */
TEST(uuid_sha1_vectors)
{
    portable = 0;
    vectors();
    portable = 1;
    vectors();
    portable = 0;
}

/* The two paths agree on every length around the block size. */
TEST(uuid_sha1_paths_agree)
{
    unsigned char m[300];
    for (size_t i = 0; i < sizeof m; i++)
        m[i] = (unsigned char)(i * 131 + 7);
    for (size_t n = 0; n <= sizeof m; n++) {
        char a[41], b[41];
        portable = 0;
        sha1_of((const char *)m, n, a);
        portable = 1;
        sha1_of((const char *)m, n, b);
        CHECK_STR(a, b);
    }
    portable = 0;
}

TEST(uuid_v5_rfc_example)
{
    unsigned char ns[16];
    CHECK(sb_uuid_parse(ns, "6ba7b810-9dad-11d1-80b4-00c04fd430c8") == 0);
    sb_sha1 c;
    sb_uuid_v5_begin(&c, ns);
    sb_sha1_update(&c, "www.example.com", 15);
    char u[37];
    sb_uuid_v5_finish(&c, u);
    CHECK_STR(u, "2ed6657d-e927-568b-95e1-2665a8aea6a2");
}
