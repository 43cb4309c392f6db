/*
 * archive.c - zip directory reading, zstd/bzip2/deflate decompression and a
 * streaming tar reader, for the conda archive lookups (see archive.h).
 *
 * libzstd, libbz2 and zlib do the decompression: the formats are the
 * archives' own, and a hand-written decoder of untrusted compressed input is
 * a worse risk than Debian's maintained ones. The tar reader is fed the
 * decompressed stream in chunks, so nothing but the kept files is buffered.
 */
#include "archive.h"
#include "buf.h"
#include "purl.h"
#include "pypi.h"

#include <bzlib.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>
#include <zstd.h>

#define CHUNK (64 * 1024)
#define MAX_KEPT 258 /* index.json, about.json and 256 license files */
#define MAX_DEPTH 10
#define MAX_META (64 * 1024) /* a pax or GNU long-name header's data */

/* ---- where to fetch ---------------------------------------------------- */

/* A path segment of a lockfile URL, decoded; NULL when it hides a '/' or a
 * NUL behind an escape (it would name another path on the index). */
static char *decoded(sb_arena *a, const char *s, size_t n)
{
    for (size_t i = 0; i + 2 < n; i++)
        if (s[i] == '%' && ((s[i + 1] == '0' && s[i + 2] == '0') || (s[i + 1] == '2' && (s[i + 2] | 0x20) == 'f')))
            return NULL;
    return sb_pct_decode(a, s, n);
}

const char *sb_conda_archive_url(sb_arena *a, const char *base, const char *location, sb_archive_kind *kind)
{
    if (!base || !location)
        return NULL;
    const char *p = strstr(location, "://");
    p = p ? strchr(p + 3, '/') : location;
    if (NULL == p)
        return NULL;
    size_t end = strcspn(p, "?#");
    const char *segs[3];
    int n = 0;
    for (size_t e = end; n < 3 && e > 0;) {
        size_t b = e;
        while (b > 0 && p[b - 1] != '/')
            b--;
        if (b == e) { /* an empty segment (a doubled or trailing slash) */
            e = b - 1;
            continue;
        }
        if (NULL == (segs[2 - n] = decoded(a, p + b, e - b)))
            return NULL;
        n++;
        e = b ? b - 1 : 0;
    }
    if (n < 3)
        return NULL;
    size_t fl = strlen(segs[2]);
    if (fl > 6 && !strcmp(segs[2] + fl - 6, ".conda"))
        *kind = SB_ARCHIVE_CONDA;
    else if (fl > 8 && !strcmp(segs[2] + fl - 8, ".tar.bz2"))
        *kind = SB_ARCHIVE_TARBZ2;
    else
        return NULL;
    return sb_index_url(a, base, segs, 3, "");
}

/* ---- zip ---------------------------------------------------------------- */

static unsigned rd16(const unsigned char *p)
{
    return (unsigned)p[0] | (unsigned)p[1] << 8;
}
static unsigned long long rd32(const unsigned char *p)
{
    return rd16(p) | (unsigned long long)rd16(p + 2) << 16;
}
static unsigned long long rd64(const unsigned char *p)
{
    return rd32(p) | rd32(p + 4) << 32;
}

static int is_info_name(const unsigned char *n, size_t len)
{
    return len > 13 && !memcmp(n, "info-", 5) && !memcmp(n + len - 8, ".tar.zst", 8) && !memchr(n, '/', len);
}

/* The zip64 extended-information extra field overrides the 32-bit fields
 * that read 0xFFFFFFFF, in this order. */
static int zip64_fields(const unsigned char *x, size_t xlen, sb_zip_member *m, int need_u, int need_c, int need_o)
{
    while (xlen >= 4) {
        unsigned id = rd16(x), sz = rd16(x + 2);
        if (sz > xlen - 4)
            return -1;
        if (id == 1) {
            const unsigned char *v = x + 4;
            size_t left = sz;
            int need[3] = {need_u, need_c, need_o};
            long long *dst[3] = {&m->usize, &m->csize, &m->header_offset};
            for (int k = 0; k < 3; k++) {
                if (!need[k])
                    continue;
                if (left < 8)
                    return -1;
                unsigned long long val = rd64(v);
                if (val > (unsigned long long)LLONG_MAX)
                    return -1;
                *dst[k] = (long long)val;
                v += 8;
                left -= 8;
            }
            return 0;
        }
        x += 4 + sz;
        xlen -= 4 + sz;
    }
    return need_u || need_c || need_o ? -1 : 0;
}

sb_code sb_zip_find_info(const unsigned char *tail, size_t len, long long total, sb_zip_member *m, sb_err *err)
{
    if (len < 22 || total < (long long)len)
        return sb_err_set(err, SB_ENOTFOUND, "archive too short for a zip directory");
    long long tail_off = total - (long long)len;
    size_t at = len - 22, stop = len - 22 > 0xFFFF ? len - 22 - 0xFFFF : 0;
    for (;; at--) {
        if (rd32(tail + at) == 0x06054b50 && at + 22 + rd16(tail + at + 20) == len)
            break;
        if (at == stop)
            return sb_err_set(err, SB_ENOTFOUND, "no zip end-of-directory record in the archive's tail");
    }
    const unsigned char *e = tail + at;
    unsigned long long entries = rd16(e + 10), cd_size = rd32(e + 12), cd_off = rd32(e + 16);
    if (entries == 0xFFFF || cd_size == 0xFFFFFFFFu || cd_off == 0xFFFFFFFFu) {
        if (at < 20 || rd32(e - 20) != 0x07064b50)
            return sb_err_set(err, SB_EPARSE, "zip64 directory without its locator");
        unsigned long long z = rd64(e - 20 + 8);
        if (z < (unsigned long long)tail_off || z - (unsigned long long)tail_off + 56 > at - 20)
            return sb_err_set(err, SB_ENOTFOUND, "zip64 directory record outside the tail");
        const unsigned char *z64 = tail + (z - (unsigned long long)tail_off);
        if (rd32(z64) != 0x06064b50)
            return sb_err_set(err, SB_EPARSE, "zip64 directory record has a bad signature");
        entries = rd64(z64 + 32);
        cd_size = rd64(z64 + 40);
        cd_off = rd64(z64 + 48);
    }
    if (cd_off < (unsigned long long)tail_off || cd_size > (unsigned long long)total ||
        cd_off + cd_size > (unsigned long long)total)
        return sb_err_set(err, SB_ENOTFOUND, "zip directory is not within the archive's tail");
    const unsigned char *p = tail + (cd_off - (unsigned long long)tail_off), *end = p + cd_size;
    for (unsigned long long i = 0; i < entries; i++) {
        if (end - p < 46 || rd32(p) != 0x02014b50)
            return sb_err_set(err, SB_EPARSE, "zip directory entry %llu is malformed", i + 1);
        unsigned nlen = rd16(p + 28), xlen = rd16(p + 30), clen = rd16(p + 32);
        if ((size_t)(end - p) < 46u + nlen + xlen + clen)
            return sb_err_set(err, SB_EPARSE, "zip directory entry %llu runs past the directory", i + 1);
        if (is_info_name(p + 46, nlen)) {
            unsigned long long cs = rd32(p + 20), us = rd32(p + 24), off = rd32(p + 42);
            m->method = rd16(p + 10);
            m->name_len = nlen;
            m->csize = (long long)cs;
            m->usize = (long long)us;
            m->header_offset = (long long)off;
            if (zip64_fields(p + 46 + nlen, xlen, m, us == 0xFFFFFFFFu, cs == 0xFFFFFFFFu, off == 0xFFFFFFFFu))
                return sb_err_set(err, SB_EPARSE, "zip64 extra field of the info member is malformed");
            if (m->method != 0 && m->method != 8)
                return sb_err_set(err, SB_EUNSUPPORTED, "info member compressed with zip method %u", m->method);
            if (m->header_offset > total || m->csize > total - m->header_offset)
                return sb_err_set(err, SB_EPARSE, "info member lies outside the archive");
            return SB_OK;
        }
        p += 46u + nlen + xlen + clen;
    }
    return sb_err_set(err, SB_ENOTFOUND, "the archive has no info-*.tar.zst member");
}

void sb_zip_member_span(const sb_zip_member *m, long long total, long long *off, long long *len)
{
    /* the local header's extra field may differ from the directory's: allow its maximum */
    long long want = 30 + (long long)m->name_len + 0xFFFF + m->csize;
    *off = m->header_offset;
    *len = want < total - m->header_offset ? want : total - m->header_offset;
}

sb_code sb_zip_member_data(const unsigned char *buf, size_t len, long long buf_off, const sb_zip_member *m,
                           const unsigned char **data, sb_err *err)
{
    if (m->header_offset < buf_off || m->header_offset - buf_off > (long long)len ||
        (long long)len - (m->header_offset - buf_off) < 30)
        return sb_err_set(err, SB_ENOTFOUND, "the info member's header is not in the bytes fetched");
    const unsigned char *h = buf + (m->header_offset - buf_off);
    size_t room = len - (size_t)(m->header_offset - buf_off);
    if (rd32(h) != 0x04034b50)
        return sb_err_set(err, SB_EPARSE, "the info member's local header has a bad signature");
    size_t skip = 30u + rd16(h + 26) + rd16(h + 28);
    if (skip > room || (unsigned long long)m->csize > room - skip)
        return sb_err_set(err, SB_ENOTFOUND, "the info member's data is not in the bytes fetched");
    *data = h + skip;
    return SB_OK;
}

/* ---- tar ---------------------------------------------------------------- */

typedef struct tar {
    unsigned char hdr[512];
    size_t hlen;
    unsigned long long left, pad; /* of the current member's data */
    enum { P_HEADER, P_DATA, P_PAD } phase;
    enum { T_SKIP, T_KEEP, T_META } what;
    char meta_type;
    char name[1024], long_name[1024];
    sb_buf data;
    int ended, too_big_file;
    size_t kept;
    unsigned long long unpacked;
    sb_archive_file_fn fn;
    void *cls;
    sb_err *err;
    /* a walk over every member (sb_archive_walk) rather than conda's info/ */
    const sb_archive_walker *w;
    sb_archive_entry entry;
    unsigned long long entries;
} tar;

/* "info/..." kept? The path must be confined: no empty, "." or ".." parts. */
static int keep_path(char *path)
{
    while (path[0] == '.' && path[1] == '/')
        memmove(path, path + 2, strlen(path + 2) + 1);
    if (strncmp(path, "info/", 5))
        return 0;
    int depth = 0;
    for (const char *s = path; *s;) {
        const char *slash = strchr(s, '/');
        size_t n = slash ? (size_t)(slash - s) : strlen(s);
        if (0 == n || (n == 1 && s[0] == '.') || (n == 2 && s[0] == '.' && s[1] == '.'))
            return 0;
        for (size_t i = 0; i < n; i++)
            if ((unsigned char)s[i] < 0x20 || s[i] == 0x7f)
                return 0;
        if (++depth > MAX_DEPTH)
            return 0;
        s += n + (slash != NULL);
        if (slash && !*s)
            return 0; /* a trailing slash names a directory */
    }
    return !strcmp(path, "info/index.json") || !strcmp(path, "info/about.json") ||
           (!strncmp(path, "info/licenses/", 14) && path[14]);
}

static int octal(const unsigned char *f, size_t n, unsigned long long *out)
{
    if (f[0] & 0x80) { /* GNU base-256 for large sizes */
        unsigned long long v = f[0] & 0x7f;
        for (size_t i = 1; i < n; i++) {
            if (v >> 55)
                return -1;
            v = v << 8 | f[i];
        }
        *out = v;
        return 0;
    }
    unsigned long long v = 0;
    size_t i = 0;
    while (i < n && f[i] == ' ')
        i++;
    for (; i < n && f[i] >= '0' && f[i] <= '7'; i++) {
        if (v >> 60)
            return -1;
        v = v * 8 + (unsigned)(f[i] - '0');
    }
    *out = v;
    return 0;
}

static sb_code walk_member(tar *t, char type);

static sb_code tar_header(tar *t)
{
    const unsigned char *h = t->hdr;
    int zero = 1;
    for (size_t i = 0; i < 512 && zero; i++)
        zero = h[i] == 0;
    if (zero) {
        t->ended = 1; /* end-of-archive: whatever follows is ignored */
        return SB_OK;
    }
    unsigned long long sum = 0, want;
    for (size_t i = 0; i < 512; i++)
        sum += (i >= 148 && i < 156) ? ' ' : h[i];
    if (octal(h + 148, 8, &want) || sum != want)
        return sb_err_set(t->err, SB_EPARSE, "tar header checksum mismatch");
    if (octal(h + 124, 12, &t->left))
        return sb_err_set(t->err, SB_EPARSE, "tar header size field is malformed");
    t->pad = (512 - t->left % 512) % 512;
    char type = (char)h[156];
    if (t->long_name[0]) {
        snprintf(t->name, sizeof t->name, "%s", t->long_name);
    } else if (!memcmp(h + 257, "ustar", 5) && h[345]) {
        snprintf(t->name, sizeof t->name, "%.155s/%.100s", (const char *)h + 345, (const char *)h + 0);
    } else {
        snprintf(t->name, sizeof t->name, "%.100s", (const char *)h);
    }
    if (type == 'x' || type == 'L') {
        t->long_name[0] = '\0'; /* a meta header names the member after it */
        t->what = t->left <= MAX_META ? T_META : T_SKIP;
        t->meta_type = type;
    } else if (t->w) {
        t->long_name[0] = '\0';
        if (type == 'g' || type == 'K') { /* global pax records and GNU long link names name no member */
            t->what = T_SKIP;
        } else {
            sb_code rc = walk_member(t, type);
            if (rc != SB_OK)
                return rc;
        }
    } else {
        t->long_name[0] = '\0';
        int regular = type == '0' || type == '\0' || type == '7';
        t->what = regular && keep_path(t->name) ? T_KEEP : T_SKIP;
        if (t->what == T_KEEP && (t->left > SB_ARCHIVE_FILE_MAX || t->kept >= MAX_KEPT))
            t->what = T_SKIP;
    }
    sb_buf_reset(&t->data);
    return SB_OK;
}

/* A pax header's "N path=value\n" record sets the next member's name. */
static void tar_meta(tar *t)
{
    const char *p = t->data.data ? t->data.data : "";
    size_t n = t->data.len;
    if (t->meta_type == 'L') {
        size_t k = strnlen(p, n);
        snprintf(t->long_name, sizeof t->long_name, "%.*s", (int)k, p);
        return;
    }
    while (n > 0) {
        char *endp;
        unsigned long rec = strtoul(p, &endp, 10);
        if (endp == p || *endp != ' ' || rec == 0 || rec > n)
            return;
        const char *kv = endp + 1, *rend = p + rec;
        if (rend - kv > 5 && !memcmp(kv, "path=", 5) && rend[-1] == '\n')
            snprintf(t->long_name, sizeof t->long_name, "%.*s", (int)(rend - kv - 6), kv + 5);
        p += rec;
        n -= rec;
    }
}

/* The current member's data is complete: act on what was kept. */
static sb_code tar_member_done(tar *t)
{
    sb_code rc = SB_OK;
    if (t->what == T_META) {
        tar_meta(t);
    } else if (t->what == T_KEEP && t->w) {
        rc = t->w->got(t->w->cls, &t->entry, (const unsigned char *)(t->data.data ? t->data.data : ""), t->data.len);
    } else if (t->what == T_KEEP) {
        rc = t->fn(t->cls, t->name, (const unsigned char *)(t->data.data ? t->data.data : ""), t->data.len);
        t->kept++;
    }
    t->what = T_SKIP;
    t->phase = t->pad ? P_PAD : P_HEADER;
    return rc;
}

static sb_code tar_feed(tar *t, const unsigned char *p, size_t n)
{
    t->unpacked += n;
    if (t->w) {
        if (t->unpacked > (unsigned long long)t->w->caps.total)
            return sb_err_set(t->err, SB_ELIMIT,
                              "the archive unpacks to more than %lld bytes (the cap on uncompressed bytes)",
                              t->w->caps.total);
        if (t->w->dl && sb_deadline_work(t->w->dl, 1 + n / 4096, t->err) != SB_OK)
            return SB_ETIMEOUT;
    } else if (t->unpacked > (unsigned long long)SB_ARCHIVE_UNPACKED_MAX)
        return sb_err_set(t->err, SB_ELIMIT, "archive unpacks to more than %lld bytes", SB_ARCHIVE_UNPACKED_MAX);
    sb_code rc = SB_OK;
    while (rc == SB_OK && n > 0 && !t->ended) {
        size_t k;
        switch (t->phase) {
        case P_HEADER:
            k = 512 - t->hlen < n ? 512 - t->hlen : n;
            memcpy(t->hdr + t->hlen, p, k);
            t->hlen += k;
            if (t->hlen == 512) {
                t->hlen = 0;
                rc = tar_header(t);
                if (rc == SB_OK && !t->ended) {
                    t->phase = P_DATA;
                    if (0 == t->left)
                        rc = tar_member_done(t);
                }
            }
            break;
        case P_DATA:
            k = t->left < n ? (size_t)t->left : n;
            if (t->what != T_SKIP && sb_buf_append(&t->data, p, k) != SB_OK)
                return sb_err_set(t->err, SB_ENOMEM, "out of memory");
            t->left -= k;
            if (0 == t->left)
                rc = tar_member_done(t);
            break;
        default: /* P_PAD */
            k = t->pad < n ? (size_t)t->pad : n;
            t->pad -= k;
            if (0 == t->pad)
                t->phase = P_HEADER;
            break;
        }
        p += k;
        n -= k;
    }
    return rc;
}

static sb_code unzstd(tar *t, const unsigned char *data, size_t len)
{
    ZSTD_DStream *z = ZSTD_createDStream();
    unsigned char *out = malloc(CHUNK);
    sb_code rc = SB_OK;
    if (!z || !out) {
        rc = sb_err_set(t->err, SB_ENOMEM, "out of memory");
        goto done;
    }
    ZSTD_initDStream(z);
    /* a frame claiming a huge window would make libzstd allocate it: refuse above 128 MiB */
    ZSTD_DCtx_setParameter(z, ZSTD_d_windowLogMax, 27);
    ZSTD_inBuffer in = {data, len, 0};
    size_t last = 1;
    while (rc == SB_OK && !t->ended && (in.pos < in.size || last != 0)) {
        ZSTD_outBuffer o = {out, CHUNK, 0};
        last = ZSTD_decompressStream(z, &o, &in);
        if (ZSTD_isError(last)) {
            rc = sb_err_set(t->err, SB_EPARSE, "zstd: %s", ZSTD_getErrorName(last));
            break;
        }
        rc = tar_feed(t, out, o.pos);
        if (o.pos == 0 && in.pos == in.size)
            break; /* truncated frame: no progress possible */
    }
done:
    ZSTD_freeDStream(z);
    free(out);
    return rc;
}

static sb_code unbz2(tar *t, const unsigned char *data, size_t len)
{
    bz_stream s;
    memset(&s, 0, sizeof s);
    if (BZ2_bzDecompressInit(&s, 0, 0) != BZ_OK)
        return sb_err_set(t->err, SB_ENOMEM, "out of memory");
    char *out = malloc(CHUNK);
    sb_code rc = out ? SB_OK : sb_err_set(t->err, SB_ENOMEM, "out of memory");
    s.next_in = (char *)(uintptr_t)data;
    s.avail_in = (unsigned)len;
    while (rc == SB_OK && !t->ended) {
        s.next_out = out;
        s.avail_out = CHUNK;
        int r = BZ2_bzDecompress(&s);
        if (r != BZ_OK && r != BZ_STREAM_END) {
            rc = sb_err_set(t->err, SB_EPARSE, "bzip2 stream is corrupt (%d)", r);
            break;
        }
        size_t got = CHUNK - s.avail_out;
        rc = tar_feed(t, (unsigned char *)out, got);
        if (r == BZ_STREAM_END || (0 == got && 0 == s.avail_in))
            break;
    }
    BZ2_bzDecompressEnd(&s);
    free(out);
    return rc;
}

/* A deflated zip member (rare for .conda): inflated whole, within the cap. */
static sb_code inflate_all(const unsigned char *data, size_t len, sb_buf *out, sb_err *err)
{
    z_stream s;
    memset(&s, 0, sizeof s);
    if (inflateInit2(&s, -15) != Z_OK)
        return sb_err_set(err, SB_ENOMEM, "out of memory");
    unsigned char *chunk = malloc(CHUNK);
    sb_code rc = chunk ? SB_OK : sb_err_set(err, SB_ENOMEM, "out of memory");
    s.next_in = (unsigned char *)(uintptr_t)data;
    s.avail_in = (uInt)len;
    while (rc == SB_OK) {
        s.next_out = chunk;
        s.avail_out = CHUNK;
        int r = inflate(&s, Z_NO_FLUSH);
        if (r != Z_OK && r != Z_STREAM_END) {
            rc = sb_err_set(err, SB_EPARSE, "deflate stream is corrupt (%d)", r);
            break;
        }
        size_t got = CHUNK - s.avail_out;
        if (out->len + got > (size_t)SB_ARCHIVE_UNPACKED_MAX)
            rc = sb_err_set(err, SB_ELIMIT, "info member inflates to more than %lld bytes", SB_ARCHIVE_UNPACKED_MAX);
        else if (sb_buf_append(out, (const char *)chunk, got) != SB_OK)
            rc = sb_err_set(err, SB_ENOMEM, "out of memory");
        if (r == Z_STREAM_END || (0 == got && 0 == s.avail_in))
            break;
    }
    inflateEnd(&s);
    free(chunk);
    return rc;
}

sb_code sb_archive_each(sb_archive_kind kind, const unsigned char *data, size_t len, unsigned method,
                        sb_archive_file_fn fn, void *cls, sb_err *err)
{
    tar *t = calloc(1, sizeof *t);
    if (NULL == t)
        return sb_err_set(err, SB_ENOMEM, "out of memory");
    sb_buf_init(&t->data, (size_t)SB_ARCHIVE_FILE_MAX + 1);
    t->fn = fn;
    t->cls = cls;
    t->err = err;
    sb_code rc;
    if (kind == SB_ARCHIVE_TARBZ2) {
        rc = unbz2(t, data, len);
    } else if (method == 8) {
        sb_buf raw;
        sb_buf_init(&raw, (size_t)SB_ARCHIVE_UNPACKED_MAX);
        rc = inflate_all(data, len, &raw, err);
        if (rc == SB_OK)
            rc = unzstd(t, (const unsigned char *)(raw.data ? raw.data : ""), raw.len);
        sb_buf_free(&raw);
    } else {
        rc = unzstd(t, data, len);
    }
    sb_buf_free(&t->data);
    free(t);
    return rc;
}

/* ---- walking any archive's members ---------------------------------------- */

const char *sb_archive_sniff(const unsigned char *d, size_t len)
{
    if (len >= 2 && d[0] == 0x1f && d[1] == 0x8b)
        return "tar.gz";
    if (len >= 4 && d[0] == 0x28 && d[1] == 0xb5 && d[2] == 0x2f && d[3] == 0xfd)
        return "tar.zst";
    if (len >= 4 && d[0] == 'P' && d[1] == 'K' && ((d[2] == 3 && d[3] == 4) || (d[2] == 5 && d[3] == 6)))
        return "zip";
    if (len >= 512 && !memcmp(d + 257, "ustar", 5))
        return "tar";
    return NULL;
}

#define RATIO_FROM (16LL << 20) /* below this much output a high ratio is ordinary (tar padding, text) */

static sb_code walk_member(tar *t, char type)
{
    const sb_archive_walker *w = t->w;
    if (t->entries >= (unsigned long long)w->caps.entries)
        return sb_err_set(t->err, SB_ELIMIT, "the archive has more than %lld members (the cap on entries)",
                          w->caps.entries);
    if (w->dl && sb_deadline_tick(w->dl, t->err) != SB_OK)
        return SB_ETIMEOUT;
    sb_archive_entry *e = &t->entry;
    e->name = t->name;
    e->size = (long long)t->left;
    e->index = (size_t)t->entries++;
    e->type = (type == '0' || type == '\0' || type == '7') ? SB_AE_FILE
              : type == '5'                                ? SB_AE_DIR
              : (type == '1' || type == '2')               ? SB_AE_LINK
                                                           : SB_AE_OTHER;
    t->what = T_SKIP;
    if (w->want(w->cls, e) && e->type == SB_AE_FILE) {
        if (t->left > (unsigned long long)w->caps.member)
            return sb_err_set(t->err, SB_ELIMIT, "member '%.200s' is %llu bytes, over the cap of %lld per member",
                              t->name, t->left, w->caps.member);
        t->what = T_KEEP;
    }
    return SB_OK;
}

/* The stream ran out: a tar without its end-of-archive blocks was cut short. */
static sb_code tar_end(tar *t)
{
    if (t->ended)
        return SB_OK;
    return sb_err_set(t->err, SB_EPARSE, "the archive is truncated: its tar stream ends %s",
                      t->phase == P_HEADER && 0 == t->hlen ? "without the end-of-archive blocks" : "inside a member");
}

static sb_code ratio_check(tar *t, unsigned long long consumed)
{
    long long ratio = t->w->caps.ratio;
    if (t->unpacked > (unsigned long long)RATIO_FROM &&
        t->unpacked / (consumed ? consumed : 1) > (unsigned long long)ratio)
        return sb_err_set(t->err, SB_ELIMIT,
                          "the archive expands more than %lld times (the cap on the compression ratio): %llu bytes "
                          "from %llu",
                          ratio, t->unpacked, consumed);
    return SB_OK;
}

static sb_code walk_gz(tar *t, const unsigned char *data, size_t len)
{
    z_stream s;
    memset(&s, 0, sizeof s);
    if (inflateInit2(&s, 15 + 32) != Z_OK)
        return sb_err_set(t->err, SB_ENOMEM, "out of memory");
    unsigned char *out = malloc(CHUNK);
    sb_code rc = out ? SB_OK : sb_err_set(t->err, SB_ENOMEM, "out of memory");
    s.next_in = (unsigned char *)(uintptr_t)data;
    s.avail_in = len > UINT_MAX ? UINT_MAX : (uInt)len;
    int stream_end = 0;
    while (rc == SB_OK && !t->ended) {
        s.next_out = out;
        s.avail_out = CHUNK;
        int r = inflate(&s, Z_NO_FLUSH);
        if (r != Z_OK && r != Z_STREAM_END && r != Z_BUF_ERROR) {
            rc = sb_err_set(t->err, SB_EPARSE, "the gzip stream is corrupt: %s", s.msg ? s.msg : "inflate failed");
            break;
        }
        size_t got = CHUNK - s.avail_out;
        if ((rc = tar_feed(t, out, got)) != SB_OK || (rc = ratio_check(t, s.total_in)) != SB_OK)
            break;
        if (r == Z_STREAM_END) {
            stream_end = 1;
            if (0 == s.avail_in)
                break;
            inflateReset(&s); /* a concatenated gzip member */
            continue;
        }
        stream_end = 0;
        if (0 == got && 0 == s.avail_in)
            break;
    }
    inflateEnd(&s);
    free(out);
    if (rc == SB_OK && !t->ended && !stream_end)
        rc = sb_err_set(t->err, SB_EPARSE, "the archive is truncated: its gzip stream ends early");
    return rc == SB_OK ? tar_end(t) : rc;
}

static sb_code walk_zst(tar *t, const unsigned char *data, size_t len)
{
    ZSTD_DStream *z = ZSTD_createDStream();
    unsigned char *out = malloc(CHUNK);
    sb_code rc = SB_OK;
    size_t last = 1;
    if (!z || !out) {
        rc = sb_err_set(t->err, SB_ENOMEM, "out of memory");
        goto done;
    }
    ZSTD_initDStream(z);
    ZSTD_DCtx_setParameter(z, ZSTD_d_windowLogMax, 27); /* as for conda archives: no huge window */
    ZSTD_inBuffer in = {data, len, 0};
    while (rc == SB_OK && !t->ended && (in.pos < in.size || last != 0)) {
        ZSTD_outBuffer o = {out, CHUNK, 0};
        last = ZSTD_decompressStream(z, &o, &in);
        if (ZSTD_isError(last)) {
            rc = sb_err_set(t->err, SB_EPARSE, "the zstd stream is corrupt: %s", ZSTD_getErrorName(last));
            break;
        }
        if ((rc = tar_feed(t, out, o.pos)) != SB_OK || (rc = ratio_check(t, in.pos)) != SB_OK)
            break;
        if (o.pos == 0 && in.pos == in.size)
            break;
    }
    if (rc == SB_OK && !t->ended && last != 0)
        rc = sb_err_set(t->err, SB_EPARSE, "the archive is truncated: its zstd stream ends early");
done:
    ZSTD_freeDStream(z);
    free(out);
    return rc == SB_OK ? tar_end(t) : rc;
}

static sb_code walk_tar(tar *t, const unsigned char *data, size_t len)
{
    sb_code rc = SB_OK;
    for (size_t off = 0; rc == SB_OK && off < len && !t->ended; off += CHUNK)
        rc = tar_feed(t, data + off, len - off < CHUNK ? len - off : CHUNK);
    return rc == SB_OK ? tar_end(t) : rc;
}

/* One zip member's bytes, inflated when deflated, within its declared size,
 * its CRC-32 checked. */
static sb_code zip_member_bytes(const unsigned char *d, size_t len, const sb_zip_member *m, unsigned long crc,
                                const char *name, sb_buf *out, const unsigned char **bytes, sb_err *err)
{
    const unsigned char *raw;
    if (sb_zip_member_data(d, len, 0, m, &raw, err) != SB_OK)
        return sb_err_set(err, SB_EPARSE, "zip member '%.200s' lies outside the archive (truncated?)", name);
    if (m->method == 0) {
        if (m->csize != m->usize)
            return sb_err_set(err, SB_EPARSE, "stored zip member '%.200s' has two sizes", name);
        *bytes = raw;
    } else if (m->method == 8) {
        z_stream s;
        memset(&s, 0, sizeof s);
        if (inflateInit2(&s, -15) != Z_OK)
            return sb_err_set(err, SB_ENOMEM, "out of memory");
        sb_buf_reset(out);
        if (sb_buf_reserve(out, (size_t)m->usize + 1) != SB_OK) {
            inflateEnd(&s);
            return sb_err_set(err, SB_ENOMEM, "out of memory");
        }
        s.next_in = (unsigned char *)(uintptr_t)raw;
        s.avail_in = (uInt)m->csize;
        s.next_out = (unsigned char *)out->data;
        s.avail_out = (uInt)m->usize + 1; /* one byte more: a member that inflates past its size is caught */
        int r = inflate(&s, Z_FINISH);
        size_t got = (size_t)m->usize + 1 - s.avail_out;
        inflateEnd(&s);
        if (r != Z_STREAM_END || got != (size_t)m->usize)
            return sb_err_set(err, SB_EPARSE, "zip member '%.200s' does not inflate to its declared %lld bytes", name,
                              m->usize);
        out->len = got;
        *bytes = (const unsigned char *)out->data;
    } else {
        return sb_err_set(err, SB_EUNSUPPORTED,
                          "zip member '%.200s' is compressed with method %u (sbomd reads "
                          "stored and deflated members)",
                          name, m->method);
    }
    if (crc32(0L, *bytes, (uInt)m->usize) != crc)
        return sb_err_set(err, SB_EPARSE, "zip member '%.200s' fails its CRC-32 check", name);
    return SB_OK;
}

static sb_code walk_zip(const unsigned char *d, size_t len, const sb_archive_walker *w, sb_err *err)
{
    if (len < 22)
        return sb_err_set(err, SB_EPARSE, "the zip archive is truncated: no end-of-directory record");
    size_t at = len - 22, stop = len - 22 > 0xFFFF ? len - 22 - 0xFFFF : 0;
    for (;; at--) {
        if (rd32(d + at) == 0x06054b50 && at + 22 + rd16(d + at + 20) == len)
            break;
        if (at == stop)
            return sb_err_set(err, SB_EPARSE, "the zip archive is truncated: no end-of-directory record");
    }
    const unsigned char *e = d + at;
    unsigned long long entries = rd16(e + 10), cd_size = rd32(e + 12), cd_off = rd32(e + 16);
    if (entries == 0xFFFF || cd_size == 0xFFFFFFFFu || cd_off == 0xFFFFFFFFu) {
        if (at < 20 || rd32(e - 20) != 0x07064b50)
            return sb_err_set(err, SB_EPARSE, "zip64 directory without its locator");
        unsigned long long z = rd64(e - 20 + 8);
        if (z > at - 20 || at - 20 - z < 56 || rd32(d + z) != 0x06064b50)
            return sb_err_set(err, SB_EPARSE, "zip64 directory record is malformed");
        entries = rd64(d + z + 32);
        cd_size = rd64(d + z + 40);
        cd_off = rd64(d + z + 48);
    }
    if (entries > (unsigned long long)w->caps.entries)
        return sb_err_set(err, SB_ELIMIT, "the archive has %llu members, more than %lld (the cap on entries)", entries,
                          w->caps.entries);
    if (cd_off > len || cd_size > len - cd_off)
        return sb_err_set(err, SB_EPARSE, "the zip directory lies outside the archive (truncated?)");
    const unsigned char *p = d + cd_off, *end = p + cd_size;
    sb_buf buf;
    sb_buf_init(&buf, (size_t)w->caps.member + 2);
    char name[1024];
    unsigned long long total = 0;
    sb_code rc = SB_OK;
    for (unsigned long long i = 0; rc == SB_OK && i < entries; i++) {
        if (end - p < 46 || rd32(p) != 0x02014b50) {
            rc = sb_err_set(err, SB_EPARSE, "zip directory entry %llu is malformed", i + 1);
            break;
        }
        unsigned nlen = rd16(p + 28), xlen = rd16(p + 30), clen = rd16(p + 32), flags = rd16(p + 8);
        if ((size_t)(end - p) < 46u + nlen + xlen + clen) {
            rc = sb_err_set(err, SB_EPARSE, "zip directory entry %llu runs past the directory", i + 1);
            break;
        }
        sb_zip_member m = {0};
        unsigned long long cs = rd32(p + 20), us = rd32(p + 24), off = rd32(p + 42);
        unsigned long crc = (unsigned long)rd32(p + 16);
        m.method = rd16(p + 10);
        m.name_len = nlen;
        m.csize = (long long)cs;
        m.usize = (long long)us;
        m.header_offset = (long long)off;
        if (zip64_fields(p + 46 + nlen, xlen, &m, us == 0xFFFFFFFFu, cs == 0xFFFFFFFFu, off == 0xFFFFFFFFu)) {
            rc = sb_err_set(err, SB_EPARSE, "zip64 extra field of entry %llu is malformed", i + 1);
            break;
        }
        size_t k = nlen < sizeof name - 1 ? nlen : sizeof name - 1;
        memcpy(name, p + 46, k);
        name[k] = '\0';
        unsigned mode = (unsigned)(rd32(p + 38) >> 16);
        sb_archive_entry ent = {name, SB_AE_FILE, m.usize, (size_t)i};
        if (k && name[k - 1] == '/')
            ent.type = SB_AE_DIR;
        else if (p[5] == 3 && (mode & 0170000) == 0120000) /* made on Unix: the mode says symbolic link */
            ent.type = SB_AE_LINK;
        else if (p[5] == 3 && (mode & 0170000) && (mode & 0170000) != 0100000)
            ent.type = SB_AE_OTHER;
        total += (unsigned long long)m.usize;
        if (total > (unsigned long long)w->caps.total) {
            rc = sb_err_set(err, SB_ELIMIT,
                            "the archive's members declare more than %lld bytes (the cap on uncompressed bytes)",
                            w->caps.total);
            break;
        }
        if (w->dl && (rc = sb_deadline_tick(w->dl, err)) != SB_OK)
            break;
        if (w->want(w->cls, &ent) && ent.type == SB_AE_FILE) {
            const unsigned char *bytes = NULL;
            if (m.usize > w->caps.member)
                rc = sb_err_set(err, SB_ELIMIT, "member '%.200s' is %lld bytes, over the cap of %lld per member", name,
                                m.usize, w->caps.member);
            else if (m.usize > RATIO_FROM / 16 && m.usize / (m.csize ? m.csize : 1) > w->caps.ratio)
                rc = sb_err_set(err, SB_ELIMIT,
                                "member '%.200s' expands more than %lld times (the cap on the compression ratio)", name,
                                w->caps.ratio);
            else if (flags & 1)
                rc = sb_err_set(err, SB_EUNSUPPORTED, "zip member '%.200s' is encrypted", name);
            else if (m.header_offset > (long long)len || m.csize > (long long)len - m.header_offset)
                rc = sb_err_set(err, SB_EPARSE, "zip member '%.200s' lies outside the archive (truncated?)", name);
            else if ((rc = zip_member_bytes(d, len, &m, crc, name, &buf, &bytes, err)) == SB_OK)
                rc = w->got(w->cls, &ent, bytes, (size_t)m.usize);
        }
        p += 46u + nlen + xlen + clen;
    }
    sb_buf_free(&buf);
    return rc;
}

sb_code sb_archive_walk(const unsigned char *data, size_t len, const sb_archive_walker *w, sb_err *err)
{
    const char *fmt = sb_archive_sniff(data, len);
    if (NULL == fmt)
        return sb_err_set(err, SB_EFORMAT, "not an archive sbomd opens (tar, tar.gz, tar.zst or zip)");
    if (!strcmp(fmt, "zip"))
        return walk_zip(data, len, w, err);
    tar *t = calloc(1, sizeof *t);
    if (NULL == t)
        return sb_err_set(err, SB_ENOMEM, "out of memory");
    sb_buf_init(&t->data, (size_t)w->caps.member + 1);
    t->err = err;
    t->w = w;
    sb_code rc = !strcmp(fmt, "tar.gz")    ? walk_gz(t, data, len)
                 : !strcmp(fmt, "tar.zst") ? walk_zst(t, data, len)
                                           : walk_tar(t, data, len);
    sb_buf_free(&t->data);
    free(t);
    return rc;
}

/* ---- the cache directory ------------------------------------------------ */

typedef struct store {
    char root[PATH_MAX]; /* the staging directory */
    int has_index;
    sb_err *err;
} store;

static sb_code write_kept(void *cls, const char *path, const unsigned char *data, size_t len)
{
    store *s = cls;
    char full[PATH_MAX];
    if ((size_t)snprintf(full, sizeof full, "%s/%s", s->root, path) >= sizeof full)
        return SB_OK; /* too long to keep: skipped */
    /* parent directories, each component already checked by keep_path() */
    for (char *q = full + strlen(s->root) + 1; (q = strchr(q, '/')); q++) {
        *q = '\0';
        int r = mkdir(full, 0755);
        *q = '/';
        if (r != 0 && errno != EEXIST)
            return sb_err_set(s->err, SB_EIO, "cannot create a cache directory: %s", strerror(errno));
    }
    int fd = open(full, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
    if (fd < 0)
        return errno == EEXIST ? SB_OK : sb_err_set(s->err, SB_EIO, "cannot write to the cache: %s", strerror(errno));
    size_t off = 0;
    while (off < len) {
        ssize_t w = write(fd, data + off, len - off);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0) {
            close(fd);
            return sb_err_set(s->err, SB_EIO, "cannot write to the cache: %s", strerror(errno));
        }
        off += (size_t)w;
    }
    close(fd);
    s->has_index |= !strcmp(path, "info/index.json");
    return SB_OK;
}

static int rm_one(const char *p, const struct stat *st, int flag, struct FTW *f)
{
    (void)st;
    (void)flag;
    (void)f;
    remove(p);
    return 0;
}

sb_code sb_archive_store(const char *dir, sb_archive_kind kind, const unsigned char *data, size_t len, unsigned method,
                         sb_err *err)
{
    store *s = calloc(1, sizeof *s);
    if (NULL == s)
        return sb_err_set(err, SB_ENOMEM, "out of memory");
    s->err = err;
    sb_code rc = SB_OK;
    if ((size_t)snprintf(s->root, sizeof s->root, "%s.staging-XXXXXX", dir) >= sizeof s->root) {
        rc = sb_err_set(err, SB_EINVAL, "cache path too long");
    } else if (NULL == mkdtemp(s->root)) {
        rc = sb_err_set(err, SB_EIO, "cannot create a cache directory: %s", strerror(errno));
    } else {
        chmod(s->root, 0755);
        rc = sb_archive_each(kind, data, len, method, write_kept, s, err);
        if (rc == SB_OK && !s->has_index)
            rc = sb_err_set(err, SB_ENOTFOUND, "the archive has no info/index.json");
        if (rc == SB_OK && rename(s->root, dir) != 0 && errno != EEXIST && errno != ENOTEMPTY)
            rc = sb_err_set(err, SB_EIO, "cannot move into the cache: %s", strerror(errno));
        struct stat st;
        if (0 == stat(s->root, &st))
            nftw(s->root, rm_one, 16, FTW_DEPTH | FTW_PHYS); /* failed, or another writer was first */
    }
    free(s);
    return rc;
}
