/*
 * archive.h - a conda package's metadata read out of its channel archive
 * from as few bytes as possible.
 *
 * A .conda file is a zip whose info-*.tar.zst member holds info/. The zip's
 * central directory sits at the end, so the archive's tail (one HTTP range)
 * locates the member and often holds it too; otherwise one more range
 * fetches it. A legacy .tar.bz2 has no index: it is read whole. Only
 * info/index.json, info/about.json and info/licenses/ (all of it) are kept. The bytes
 * come from the network: every offset and length is checked, paths are
 * confined to info/, and decompressed output is capped. No I/O here except
 * sb_archive_store, which writes the kept files into a cache directory.
 */
#ifndef SB_ARCHIVE_H
#define SB_ARCHIVE_H

#include "arena.h"
#include "deadline.h"
#include "err.h"

#include <stddef.h>

#define SB_ARCHIVE_TAIL (256 * 1024)          /* bytes asked for first */
#define SB_ARCHIVE_UNPACKED_MAX (256LL << 20) /* decompressed bytes per archive */
#define SB_ARCHIVE_TARBZ2_MAX (2LL << 20)     /* a .tar.bz2 is fetched whole up to this size */
#define SB_ARCHIVE_FILE_MAX (16LL << 20)      /* bytes kept per file */

typedef enum sb_archive_kind { SB_ARCHIVE_CONDA, SB_ARCHIVE_TARBZ2 } sb_archive_kind;

/* Where a lockfile's archive URL is fetched from: `base` (configuration)
 * plus the URL's last three path segments, channel/subdir/file, decoded and
 * re-encoded; so no lockfile can name the host. NULL when the URL has fewer
 * segments or the file is neither .conda nor .tar.bz2. *kind says which. */
const char *sb_conda_archive_url(sb_arena *a, const char *base, const char *location, sb_archive_kind *kind);

typedef struct sb_zip_member {
    long long header_offset; /* the member's local header, from the archive's start */
    long long csize, usize;  /* compressed and uncompressed sizes */
    unsigned method;         /* 0 stored, 8 deflate */
    unsigned name_len;
} sb_zip_member;

/* Locate the info-*.tar.zst member from the last `len` bytes of a `total`-byte
 * .conda archive. SB_ENOTFOUND when the tail holds no central directory or
 * no such member; SB_EPARSE when the directory is inconsistent. */
sb_code sb_zip_find_info(const unsigned char *tail, size_t len, long long total, sb_zip_member *m, sb_err *err);

/* The span of the archive (offset, length) that certainly holds the member
 * with its local header: what to fetch when the tail does not hold it. */
void sb_zip_member_span(const sb_zip_member *m, long long total, long long *off, long long *len);

/* The member's stored bytes inside `buf`, which holds the archive from
 * offset buf_off on. SB_ENOTFOUND when buf does not cover them. */
sb_code sb_zip_member_data(const unsigned char *buf, size_t len, long long buf_off, const sb_zip_member *m,
                           const unsigned char **data, sb_err *err);

/* Called for each kept file; `path` starts with "info/" and is safe to join
 * under a directory (no empty, "." or ".." components). */
typedef sb_code (*sb_archive_file_fn)(void *cls, const char *path, const unsigned char *data, size_t len);

/* Walk the kept files of a .conda info member (as stored in the zip with
 * `method`) or of a whole .tar.bz2 (method ignored). */
sb_code sb_archive_each(sb_archive_kind kind, const unsigned char *data, size_t len, unsigned method,
                        sb_archive_file_fn fn, void *cls, sb_err *err);

/* Write the kept files under dir/info/, staged beside dir and renamed into
 * place, so a reader sees all of it or none. SB_ENOTFOUND (and nothing
 * written) when the archive has no info/index.json. A dir that appeared
 * meanwhile (another writer won) is success. */
sb_code sb_archive_store(const char *dir, sb_archive_kind kind, const unsigned char *data, size_t len, unsigned method,
                         sb_err *err);

/* ---- walking any archive's members (a repository sent whole) ----------- */

/* Which container a body is, by its first bytes: "tar.gz", "tar.zst",
 * "zip", "tar", else NULL. A gzip or zstd stream is taken for a compressed
 * tar: nothing else is opened. */
const char *sb_archive_sniff(const unsigned char *data, size_t len);

/* The bounds of a walk (all required, > 0): members, bytes of one member
 * handed over, uncompressed bytes in all, and the ratio of uncompressed to
 * compressed bytes a stream may reach once past 16 MiB. */
typedef struct sb_archive_caps {
    long long entries, member, total, ratio;
} sb_archive_caps;

typedef enum sb_archive_type {
    SB_AE_FILE,
    SB_AE_DIR,
    SB_AE_LINK, /* symbolic or hard: never followed */
    SB_AE_OTHER /* devices, fifos, sparse and unknown types */
} sb_archive_type;

typedef struct sb_archive_entry {
    const char *name; /* as stored (NUL-terminated, unchecked: the walker's caller judges it) */
    sb_archive_type type;
    long long size; /* uncompressed bytes */
    size_t index;   /* 0-based, in archive order */
} sb_archive_entry;

typedef struct sb_archive_walker {
    sb_archive_caps caps;
    sb_deadline *dl; /* ticked by unpacked bytes and members; NULL = none */
    /* asked of every member (a refused or linked name can be listed); 1 for
     * a regular file hands its bytes to got(), 0 skips them */
    int (*want)(void *cls, const sb_archive_entry *e);
    sb_code (*got)(void *cls, const sb_archive_entry *e, const unsigned char *data, size_t len);
    void *cls;
} sb_archive_walker;

/* Walk every member of a tar, tar.gz or tar.zst (streamed in order: nothing
 * is unpacked but the members wanted) or a zip (its central directory,
 * members wanted inflated one at a time, their CRC-32 checked). SB_ELIMIT
 * naming the cap passed, SB_EPARSE for a damaged or truncated archive,
 * SB_ETIMEOUT past the deadline, or what got() returned. */
sb_code sb_archive_walk(const unsigned char *data, size_t len, const sb_archive_walker *w, sb_err *err);

#endif
