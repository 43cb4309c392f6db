/*
 * test_archive.c - conda archive reading: the zip directory from a tail
 * (plain, zip64, the member inside or outside the tail), stored and deflated
 * members, .tar.bz2, pax and GNU long names, what is kept and what is
 * refused (paths leaving info/, links), the cache store, and truncated or
 * corrupted bytes. Archives are built here in memory with the same libraries.
 */
#include "test.h"
#include "../../core/archive.h"
#include "../../core/buf.h"

#include <bzlib.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>
#include <zstd.h>

static void put16(sb_buf *b, unsigned v)
{
    unsigned char x[2] = {(unsigned char)v, (unsigned char)(v >> 8)};
    sb_buf_append(b, x, 2);
}
static void put32(sb_buf *b, unsigned long long v)
{
    put16(b, (unsigned)(v & 0xFFFF));
    put16(b, (unsigned)(v >> 16 & 0xFFFF));
}
static void put64(sb_buf *b, unsigned long long v)
{
    put32(b, v & 0xFFFFFFFFu);
    put32(b, v >> 32);
}

/* one tar member: ustar header (name split into prefix when long) + data */
static void tar_add(sb_buf *t, const char *name, char type, const char *data, size_t len)
{
    unsigned char h[512] = {0};
    snprintf((char *)h, 100, "%s", name);
    memcpy(h + 100, "0000644", 7);
    snprintf((char *)h + 124, 12, "%011o", (unsigned)len);
    memset(h + 148, ' ', 8);
    h[156] = (unsigned char)type;
    memcpy(h + 257,
           "ustar\0"
           "00",
           8);
    unsigned sum = 0;
    for (int i = 0; i < 512; i++)
        sum += h[i];
    snprintf((char *)h + 148, 8, "%06o", sum);
    sb_buf_append(t, h, 512);
    sb_buf_append(t, data, len);
    static const char zeros[512];
    if (len % 512)
        sb_buf_append(t, zeros, 512 - len % 512);
}

static void tar_end(sb_buf *t)
{
    static const char zeros[1024];
    sb_buf_append(t, zeros, sizeof zeros);
}

static const char about[] = "{\"license\": \"BSD-3-Clause\", \"summary\": \"s\"}";

/* the info tarball most tests use */
static void info_tar(sb_buf *t, int with_index)
{
    if (with_index)
        tar_add(t, "info/index.json", '0', "{\"name\": \"x\"}", 13);
    tar_add(t, "info/about.json", '0', about, sizeof about - 1);
    tar_add(t, "info/files", '0', "lib/libx.so\n", 12);
    tar_add(t, "info/licenses", '5', "", 0);
    tar_add(t, "info/licenses/LICENSE", '0', "the license\n", 12);
    tar_add(t, "info/licenses/sub/COPYING", '0', "copying\n", 8);
    tar_add(t, "info/licenses/../../../etc/evil", '0', "no", 2);
    tar_add(t, "info/licenses/link", '2', "", 0);
    tar_add(t, "/info/licenses/abs", '0', "no", 2);
    tar_end(t);
}

static void zstd_of(sb_buf *out, const sb_buf *in)
{
    size_t cap = ZSTD_compressBound(in->len);
    char *z = malloc(cap);
    size_t n = ZSTD_compress(z, cap, in->data, in->len, 3);
    CHECK(!ZSTD_isError(n));
    sb_buf_append(out, z, n);
    free(z);
}

static void deflate_of(sb_buf *out, const sb_buf *in)
{
    z_stream s;
    memset(&s, 0, sizeof s);
    deflateInit2(&s, 6, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY);
    size_t cap = deflateBound(&s, in->len);
    unsigned char *z = malloc(cap);
    s.next_in = (unsigned char *)in->data;
    s.avail_in = (uInt)in->len;
    s.next_out = z;
    s.avail_out = (uInt)cap;
    CHECK(deflate(&s, Z_FINISH) == Z_STREAM_END);
    sb_buf_append(out, z, cap - s.avail_out);
    deflateEnd(&s);
    free(z);
}

typedef struct zent {
    const char *name;
    sb_buf data; /* as stored */
    unsigned method;
    size_t usize;
    unsigned long long off;
} zent;

/* a zip of the entries; zip64 = the directory and offsets in zip64 form */
static void zip_of(sb_buf *z, zent *e, size_t n, int zip64)
{
    for (size_t i = 0; i < n; i++) {
        e[i].off = z->len;
        put32(z, 0x04034b50);
        put16(z, 20), put16(z, 0), put16(z, (unsigned)e[i].method), put32(z, 0), put32(z, 0);
        put32(z, e[i].data.len), put32(z, e[i].usize);
        put16(z, (unsigned)strlen(e[i].name)), put16(z, 0);
        sb_buf_append(z, e[i].name, strlen(e[i].name));
        sb_buf_append(z, e[i].data.data, e[i].data.len);
    }
    size_t cd = z->len;
    for (size_t i = 0; i < n; i++) {
        put32(z, 0x02014b50);
        put16(z, 45), put16(z, 20), put16(z, 0), put16(z, (unsigned)e[i].method), put32(z, 0), put32(z, 0);
        put32(z, e[i].data.len), put32(z, e[i].usize);
        put16(z, (unsigned)strlen(e[i].name)), put16(z, zip64 ? 12 : 0), put16(z, 0);
        put16(z, 0), put16(z, 0), put32(z, 0);
        put32(z, zip64 ? 0xFFFFFFFFu : e[i].off);
        sb_buf_append(z, e[i].name, strlen(e[i].name));
        if (zip64) {
            put16(z, 1), put16(z, 8), put64(z, e[i].off);
        }
    }
    size_t cd_len = z->len - cd;
    if (zip64) {
        size_t rec = z->len;
        put32(z, 0x06064b50), put64(z, 44), put16(z, 45), put16(z, 45), put32(z, 0), put32(z, 0);
        put64(z, n), put64(z, n), put64(z, cd_len), put64(z, cd);
        put32(z, 0x07064b50), put32(z, 0), put64(z, rec), put32(z, 1);
    }
    put32(z, 0x06054b50), put16(z, 0), put16(z, 0);
    put16(z, zip64 ? 0xFFFF : (unsigned)n), put16(z, zip64 ? 0xFFFF : (unsigned)n);
    put32(z, zip64 ? 0xFFFFFFFFu : cd_len), put32(z, zip64 ? 0xFFFFFFFFu : cd);
    put16(z, 0);
}

/* a .conda: metadata.json, a big pkg member, then the info member */
static void conda_of(sb_buf *out, unsigned method, int zip64, size_t pkg_size, int with_index)
{
    sb_buf tarb = SB_BUF_INIT(0), zst = SB_BUF_INIT(0);
    info_tar(&tarb, with_index);
    zstd_of(&zst, &tarb);
    zent e[3];
    memset(e, 0, sizeof e);
    e[0].name = "metadata.json";
    sb_buf_append(&e[0].data, "{\"conda_pkg_format_version\": 2}", 31);
    e[0].usize = 31;
    e[1].name = "pkg-x-1.0-0.tar.zst";
    char *junk = calloc(1, pkg_size + 1);
    sb_buf_append(&e[1].data, junk, pkg_size);
    free(junk);
    e[1].usize = pkg_size;
    e[2].name = "info-x-1.0-0.tar.zst";
    e[2].method = method;
    e[2].usize = zst.len;
    if (method == 8)
        deflate_of(&e[2].data, &zst);
    else
        sb_buf_append(&e[2].data, zst.data, zst.len);
    zip_of(out, e, 3, zip64);
    for (int i = 0; i < 3; i++)
        sb_buf_free(&e[i].data);
    sb_buf_free(&tarb);
    sb_buf_free(&zst);
}

typedef struct seen {
    char names[16][320];
    int n;
    int about_ok;
} seen;

static sb_code collect(void *cls, const char *path, const unsigned char *data, size_t len)
{
    seen *s = cls;
    if (s->n < 16)
        snprintf(s->names[s->n++], 320, "%s", path);
    if (!strcmp(path, "info/about.json"))
        s->about_ok = len == sizeof about - 1 && !memcmp(data, about, len);
    return SB_OK;
}

static int saw(const seen *s, const char *name)
{
    for (int i = 0; i < s->n; i++)
        if (!strcmp(s->names[i], name))
            return 1;
    return 0;
}

/* read a .conda the way the service does: tail, then the member's span if needed */
static sb_code read_conda(const sb_buf *z, size_t tail_len, seen *s, int *ranges)
{
    sb_err err;
    sb_zip_member m;
    size_t tl = tail_len < z->len ? tail_len : z->len;
    const unsigned char *tail = (const unsigned char *)z->data + z->len - tl;
    sb_code rc = sb_zip_find_info(tail, tl, (long long)z->len, &m, &err);
    if (rc != SB_OK)
        return rc;
    *ranges = 1;
    const unsigned char *data;
    rc = sb_zip_member_data(tail, tl, (long long)(z->len - tl), &m, &data, &err);
    if (rc == SB_ENOTFOUND) {
        long long off, len;
        sb_zip_member_span(&m, (long long)z->len, &off, &len);
        CHECK(off >= 0 && off + len <= (long long)z->len);
        *ranges = 2;
        rc = sb_zip_member_data((const unsigned char *)z->data + off, (size_t)len, off, &m, &data, &err);
    }
    if (rc != SB_OK)
        return rc;
    return sb_archive_each(SB_ARCHIVE_CONDA, data, (size_t)m.csize, m.method, collect, s, &err);
}

static void check_kept(const seen *s)
{
    CHECK(s->n == 4);
    CHECK(saw(s, "info/index.json"));
    CHECK(saw(s, "info/about.json"));
    CHECK(saw(s, "info/licenses/LICENSE"));
    CHECK(saw(s, "info/licenses/sub/COPYING"));
    CHECK(s->about_ok);
}

TEST(archive_conda_in_tail)
{
    sb_buf z = SB_BUF_INIT(0);
    conda_of(&z, 0, 0, 1000, 1);
    seen s = {0};
    int ranges = 0;
    CHECK(read_conda(&z, SB_ARCHIVE_TAIL, &s, &ranges) == SB_OK);
    CHECK(ranges == 1);
    check_kept(&s);
    sb_buf_free(&z);
}

TEST(archive_conda_member_outside_tail)
{
    sb_buf z = SB_BUF_INIT(0);
    conda_of(&z, 0, 0, 1000, 1);
    seen s = {0};
    int ranges = 0;
    CHECK(read_conda(&z, 240, &s, &ranges) == SB_OK); /* the tail holds only the directory */
    CHECK(ranges == 2);
    check_kept(&s);
    sb_buf_free(&z);
}

TEST(archive_conda_deflated_and_zip64)
{
    for (int v = 0; v < 3; v++) {
        sb_buf z = SB_BUF_INIT(0);
        conda_of(&z, v == 1 ? 0 : 8, v >= 1, 300000, 1);
        seen s = {0};
        int ranges = 0;
        CHECK(read_conda(&z, SB_ARCHIVE_TAIL, &s, &ranges) == SB_OK);
        check_kept(&s);
        sb_buf_free(&z);
    }
}

TEST(archive_tarbz2_and_long_names)
{
    sb_buf t = SB_BUF_INIT(0);
    tar_add(&t, "info/index.json", '0', "{}", 2);
    /* a pax header and a GNU long name each naming the member after them */
    char name[300], rec[400];
    snprintf(name, sizeof name, "info/licenses/%0200d", 7);
    int k = (int)strlen(name) + 7, len = k + (k + 3 >= 100 ? 3 : 2);
    snprintf(rec, sizeof rec, "%d path=%s\n", len, name);
    CHECK((int)strlen(rec) == len);
    tar_add(&t, "PaxHeader", 'x', rec, strlen(rec));
    tar_add(&t, "ignored-short-name", '0', "pax", 3);
    tar_add(&t, "././@LongLink", 'L', "info/licenses/gnu-long-name", 27);
    tar_add(&t, "ignored", '0', "gnu", 3);
    tar_end(&t);
    unsigned int cap = (unsigned)t.len * 2 + 600;
    char *bz = malloc(cap);
    CHECK(BZ2_bzBuffToBuffCompress(bz, &cap, t.data, (unsigned)t.len, 9, 0, 0) == BZ_OK);
    seen s = {0};
    sb_err err;
    CHECK(sb_archive_each(SB_ARCHIVE_TARBZ2, (unsigned char *)bz, cap, 0, collect, &s, &err) == SB_OK);
    CHECK(s.n == 3);
    CHECK(saw(&s, name));
    CHECK(saw(&s, "info/licenses/gnu-long-name"));
    /* corrupt bzip2 is an error, not a crash */
    bz[cap / 2] ^= 0x55;
    seen s2 = {0};
    CHECK(sb_archive_each(SB_ARCHIVE_TARBZ2, (unsigned char *)bz, cap, 0, collect, &s2, &err) != SB_OK || s2.n <= 3);
    free(bz);
    sb_buf_free(&t);
}

TEST(archive_truncated_and_corrupt)
{
    sb_buf z = SB_BUF_INIT(0);
    conda_of(&z, 0, 0, 100, 1);
    /* every tail length: an answer or an error, never a read past the bytes */
    for (size_t tl = 0; tl <= z.len; tl += tl < 64 ? 1 : 7) {
        seen s = {0};
        int ranges = 0;
        sb_code rc = read_conda(&z, tl, &s, &ranges);
        CHECK(rc == SB_OK || rc == SB_ENOTFOUND || rc == SB_EPARSE);
    }
    /* flipped bytes anywhere */
    for (size_t i = 0; i < z.len; i += 3) {
        z.data[i] ^= 0xA5;
        seen s = {0};
        int ranges = 0;
        (void)read_conda(&z, z.len, &s, &ranges);
        z.data[i] ^= 0xA5;
    }
    /* a truncated zstd frame */
    sb_err err;
    seen s = {0};
    sb_buf tarb = SB_BUF_INIT(0), zst = SB_BUF_INIT(0);
    info_tar(&tarb, 1);
    zstd_of(&zst, &tarb);
    CHECK(sb_archive_each(SB_ARCHIVE_CONDA, (unsigned char *)zst.data, zst.len / 2, 0, collect, &s, &err) != SB_OK ||
          s.n < 4);
    sb_buf_free(&tarb);
    sb_buf_free(&zst);
    sb_buf_free(&z);
}

TEST(archive_store)
{
    char root[] = "/tmp/sbomd-archive-XXXXXX";
    CHECK(mkdtemp(root) != NULL);
    char dir[256], p[512];
    snprintf(dir, sizeof dir, "%s/pkg", root);
    sb_buf tarb = SB_BUF_INIT(0), zst = SB_BUF_INIT(0);
    info_tar(&tarb, 1);
    zstd_of(&zst, &tarb);
    sb_err err;
    CHECK(sb_archive_store(dir, SB_ARCHIVE_CONDA, (unsigned char *)zst.data, zst.len, 0, &err) == SB_OK);
    struct stat st;
    snprintf(p, sizeof p, "%s/info/licenses/sub/COPYING", dir);
    CHECK(0 == stat(p, &st) && st.st_size == 8);
    snprintf(p, sizeof p, "%s/info/files", dir);
    CHECK(0 != stat(p, &st));
    snprintf(p, sizeof p, "%s/etc/evil", root);
    CHECK(0 != stat(p, &st));
    /* a second writer of the same package: success, the first one's files stay */
    CHECK(sb_archive_store(dir, SB_ARCHIVE_CONDA, (unsigned char *)zst.data, zst.len, 0, &err) == SB_OK);
    /* no index.json: nothing stored */
    sb_buf_reset(&tarb);
    tarb.len = 0;
    sb_buf_reset(&zst);
    info_tar(&tarb, 0);
    zstd_of(&zst, &tarb);
    snprintf(dir, sizeof dir, "%s/noindex", root);
    CHECK(sb_archive_store(dir, SB_ARCHIVE_CONDA, (unsigned char *)zst.data, zst.len, 0, &err) == SB_ENOTFOUND);
    CHECK(0 != stat(dir, &st));
    char cmd[300];
    snprintf(cmd, sizeof cmd, "ls '%s' | wc -l | grep -qx 1 && rm -rf '%s'", root, root); /* no staging left */
    CHECK(system(cmd) == 0);
    sb_buf_free(&tarb);
    sb_buf_free(&zst);
}

TEST(archive_url_from_the_configured_host)
{
    sb_arena *a = sb_arena_new(0);
    sb_archive_kind k = SB_ARCHIVE_TARBZ2;
    const char *base = "http://127.0.0.1:9/conda/";
    CHECK_STR(sb_conda_archive_url(a, base,
                                   "https://conda.anaconda.org/conda-forge/linux-64/zlib-1.3.1-hb9d3cd8_2.conda", &k),
              "http://127.0.0.1:9/conda/conda-forge/linux-64/zlib-1.3.1-hb9d3cd8_2.conda");
    CHECK(k == SB_ARCHIVE_CONDA);
    /* another host, credentials, a query: only the last three segments travel */
    CHECK_STR(sb_conda_archive_url(a, base, "https://user:pw@evil.example:8443/a/b/main/noarch/x-1-0.tar.bz2?t=1#f",
                                   &k),
              "http://127.0.0.1:9/conda/main/noarch/x-1-0.tar.bz2");
    CHECK(k == SB_ARCHIVE_TARBZ2);
    CHECK_STR(sb_conda_archive_url(a, base, "https://h/c%2Bx/linux-64//y%20z.conda", &k),
              "http://127.0.0.1:9/conda/c+x/linux-64/y%20z.conda");
    CHECK(sb_conda_archive_url(a, base, "https://h/../linux-64/x.conda", &k) == NULL);
    CHECK(sb_conda_archive_url(a, base, "https://h/c/%2e%2e/x.conda", &k) == NULL);
    CHECK(sb_conda_archive_url(a, base, "https://h/c/linux-64%2fx.conda", &k) == NULL);
    CHECK(sb_conda_archive_url(a, base, "https://h/linux-64/x.conda", &k) == NULL);
    CHECK(sb_conda_archive_url(a, base, "https://h/c/linux-64/x.whl", &k) == NULL);
    sb_arena_destroy(a);
}
