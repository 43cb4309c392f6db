/*
 * uuid.c - SHA-1 (FIPS 180-4) and UUIDv5 formatting, written for sbomd.
 */
#include "uuid.h"

#include <string.h>

static uint32_t rol(uint32_t x, int n)
{
    return (x << n) | (x >> (32 - n));
}

/* The rounds fully unrolled, the five working variables renamed from round
 * to round instead of moved (the software path is what machines without
 * SHA-NI run - many servers still - and callgrind: a 9 KB body cost ~2,770
 * instructions a block with the rounds in loops). */
#define F1(b, c, d) ((d) ^ ((b) & ((c) ^ (d))))
#define F2(b, c, d) ((b) ^ (c) ^ (d))
#define F3(b, c, d) (((b) & (c)) | ((d) & ((b) | (c))))
#define WI(i) \
    ((i) < 16 ? w[(i)&15] : (w[(i)&15] = rol(w[((i)-3) & 15] ^ w[((i)-8) & 15] ^ w[((i)-14) & 15] ^ w[(i)&15], 1)))
#define RD(a, b, c, d, e, F, k, i) \
    do { \
        e += rol(a, 5) + F(b, c, d) + (k) + WI(i); \
        b = rol(b, 30); \
    } while (0)
#define FIVE(F, k, i) \
    do { \
        RD(a, b, c, d, e, F, k, i); \
        RD(e, a, b, c, d, F, k, (i) + 1); \
        RD(d, e, a, b, c, F, k, (i) + 2); \
        RD(c, d, e, a, b, F, k, (i) + 3); \
        RD(b, c, d, e, a, F, k, (i) + 4); \
    } while (0)
#define TWENTY(F, k, i) \
    do { \
        FIVE(F, k, i); \
        FIVE(F, k, (i) + 5); \
        FIVE(F, k, (i) + 10); \
        FIVE(F, k, (i) + 15); \
    } while (0)

static void compress(sb_sha1 *ctx, const unsigned char *p)
{
    uint32_t w[16];
    for (int i = 0; i < 16; i++) {
        uint32_t x;
        memcpy(&x, p + 4 * i, 4);
        w[i] = __builtin_bswap32(x);
    }
    uint32_t a = ctx->h[0], b = ctx->h[1], c = ctx->h[2], d = ctx->h[3], e = ctx->h[4];
    TWENTY(F1, 0x5A827999, 0);
    TWENTY(F2, 0x6ED9EBA1, 20);
    TWENTY(F3, 0x8F1BBCDC, 40);
    TWENTY(F2, 0xCA62C1D6, 60);
    ctx->h[0] += a;
    ctx->h[1] += b;
    ctx->h[2] += c;
    ctx->h[3] += d;
    ctx->h[4] += e;
}

#undef TWENTY
#undef FIVE
#undef RD
#undef WI
#undef F3
#undef F2
#undef F1
#undef NEXT_W

/* The x86 SHA extensions (Goldmont, Zen and later) run the 80 rounds four at
 * a time: ~4x the portable code on a body-sized input, which is what the
 * result cache's key costs per request (service/http/repeat.c). Used when cpuid
 * says the CPU has them; the portable compress() otherwise. */
#if defined(__x86_64__) && defined(__GNUC__)
#include <cpuid.h>
#include <immintrin.h>

#define SHA_NI 1

__attribute__((target("sha,sse4.1"))) static void compress_ni(uint32_t h[5], const unsigned char *p, size_t nblocks)
{
    /* whole-vector byte reversal: big-endian words, W0 in the top lane */
    const __m128i mask = _mm_set_epi64x(0x0001020304050607LL, 0x08090a0b0c0d0e0fLL);
    __m128i abcd = _mm_shuffle_epi32(_mm_loadu_si128((const __m128i *)h), 0x1B);
    __m128i e0 = _mm_set_epi32((int)h[4], 0, 0, 0);
    for (; nblocks; nblocks--, p += 64) {
        __m128i abcd_save = abcd, e_save = e0, prev = abcd, e = e0, w[4];
        for (int i = 0; i < 4; i++)
            w[i] = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(p + 16 * i)), mask);
        /* group g: rounds 4g..4g+3 on W[4g..4g+3] (a ring of four groups) */
        for (int g = 0; g < 20; g++) {
            __m128i wg = w[g & 3];
            if (g >= 4) {
                wg = _mm_sha1msg2_epu32(_mm_xor_si128(_mm_sha1msg1_epu32(w[g & 3], w[(g + 1) & 3]), w[(g + 2) & 3]),
                                        w[(g + 3) & 3]);
                w[g & 3] = wg;
            }
            e = g == 0 ? _mm_add_epi32(e0, wg) : _mm_sha1nexte_epu32(prev, wg);
            prev = abcd;
            switch (g / 5) {
            case 0: abcd = _mm_sha1rnds4_epu32(abcd, e, 0); break;
            case 1: abcd = _mm_sha1rnds4_epu32(abcd, e, 1); break;
            case 2: abcd = _mm_sha1rnds4_epu32(abcd, e, 2); break;
            default: abcd = _mm_sha1rnds4_epu32(abcd, e, 3); break;
            }
        }
        e0 = _mm_sha1nexte_epu32(prev, e_save);
        abcd = _mm_add_epi32(abcd, abcd_save);
    }
    _mm_storeu_si128((__m128i *)h, _mm_shuffle_epi32(abcd, 0x1B));
    h[4] = (uint32_t)_mm_extract_epi32(e0, 3);
}

static int have_sha_ni(void)
{
    static int known = -1; /* racing first callers compute the same answer */
    if (known < 0) {
        unsigned a, b, c, d;
        int sse41 = __get_cpuid(1, &a, &b, &c, &d) && (c & bit_SSE4_1);
        known = sse41 && __get_cpuid_count(7, 0, &a, &b, &c, &d) && (b & (1u << 29));
    }
    return known;
}
#endif

static void compress_blocks(sb_sha1 *c, const unsigned char *p, size_t nblocks)
{
#ifdef SHA_NI
    if (!c->portable && have_sha_ni()) {
        compress_ni(c->h, p, nblocks);
        return;
    }
#endif
    for (; nblocks; nblocks--, p += 64)
        compress(c, p);
}

void sb_sha1_init(sb_sha1 *c)
{
    static const uint32_t iv[5] = {0x67452301, 0xEFCDAB89, 0x98BADCFE, 0x10325476, 0xC3D2E1F0};
    memcpy(c->h, iv, sizeof iv);
    c->total = 0;
    c->nblock = 0;
    c->portable = 0;
}

void sb_sha1_update(sb_sha1 *c, const void *data, size_t n)
{
    const unsigned char *p = data;
    c->total += n;
    if (c->nblock) {
        size_t k = 64 - c->nblock < n ? 64 - c->nblock : n;
        memcpy(c->block + c->nblock, p, k);
        c->nblock += k;
        p += k;
        n -= k;
        if (c->nblock == 64) {
            compress_blocks(c, c->block, 1);
            c->nblock = 0;
        }
    }
    if (n >= 64) {
        compress_blocks(c, p, n / 64);
        p += n / 64 * 64;
        n %= 64;
    }
    if (n) {
        memcpy(c->block, p, n);
        c->nblock = n;
    }
}

void sb_sha1_final(sb_sha1 *c, unsigned char out[20])
{
    uint64_t bits = c->total * 8;
    /* padding: 0x80, zeros up to 56 mod 64, then the bit length */
    static const unsigned char zeros[64] = {0x80};
    size_t padlen = c->nblock < 56 ? 56 - c->nblock : 120 - c->nblock;
    sb_sha1_update(c, zeros, padlen);
    unsigned char len[8];
    for (int i = 0; i < 8; i++)
        len[i] = (unsigned char)(bits >> (56 - 8 * i));
    sb_sha1_update(c, len, 8);
    for (int i = 0; i < 5; i++) {
        out[4 * i] = (unsigned char)(c->h[i] >> 24);
        out[4 * i + 1] = (unsigned char)(c->h[i] >> 16);
        out[4 * i + 2] = (unsigned char)(c->h[i] >> 8);
        out[4 * i + 3] = (unsigned char)c->h[i];
    }
}

static int hexval(char ch)
{
    if (ch >= '0' && ch <= '9')
        return ch - '0';
    if (ch >= 'a' && ch <= 'f')
        return ch - 'a' + 10;
    if (ch >= 'A' && ch <= 'F')
        return ch - 'A' + 10;
    return -1;
}

int sb_uuid_parse(unsigned char out[16], const char *t)
{
    int n = 0;
    for (const char *p = t; *p && n < 32; p++) {
        if (*p == '-')
            continue;
        int hi = hexval(*p);
        if (hi < 0)
            return -1;
        if (n % 2 == 0)
            out[n / 2] = (unsigned char)(hi << 4);
        else
            out[n / 2] |= (unsigned char)hi;
        n++;
    }
    return n == 32 ? 0 : -1;
}

void sb_uuid_v5_begin(sb_sha1 *c, const unsigned char ns[16])
{
    sb_sha1_init(c);
    sb_sha1_update(c, ns, 16);
}

void sb_uuid_v5_finish(sb_sha1 *c, char out[37])
{
    unsigned char h[20];
    sb_sha1_final(c, h);
    h[6] = (unsigned char)((h[6] & 0x0F) | 0x50);
    h[8] = (unsigned char)((h[8] & 0x3F) | 0x80);
    static const char hx[] = "0123456789abcdef";
    int o = 0;
    for (int i = 0; i < 16; i++) {
        if (i == 4 || i == 6 || i == 8 || i == 10)
            out[o++] = '-';
        out[o++] = hx[h[i] >> 4];
        out[o++] = hx[h[i] & 15];
    }
    out[o] = '\0';
}
