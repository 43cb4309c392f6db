/* fuzz_archive.c - libFuzzer target: the conda archive readers on arbitrary
 * bytes. The first byte picks what the rest is: 0 a .conda archive read from
 * its tail (directory, member, zstd, tar), 1 a zstd stream, 2 a bzip2
 * stream, 3 a raw tar (compressed here, so the tar reader sees the bytes
 * as given). Every kept path must stay inside info/. */
#include "../../core/archive.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <zstd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static sb_code check_path(void *cls, const char *path, const unsigned char *d, size_t len)
{
    (void)cls, (void)d, (void)len;
    if (strncmp(path, "info/", 5) || strstr(path, "/../") || strstr(path, "//") || path[0] == '/')
        __builtin_trap();
    size_t n = strlen(path);
    if (n >= 3 && !strcmp(path + n - 3, "/.."))
        __builtin_trap();
    return SB_OK;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    const unsigned char *p = data + 1;
    size_t n = size - 1;
    sb_err err;
    switch (data[0] & 3) {
    case 0: {
        sb_zip_member m;
        const unsigned char *member;
        if (sb_zip_find_info(p, n, (long long)n, &m, &err) == SB_OK &&
            sb_zip_member_data(p, n, 0, &m, &member, &err) == SB_OK)
            sb_archive_each(SB_ARCHIVE_CONDA, member, (size_t)m.csize, m.method, check_path, NULL, &err);
        break;
    }
    case 1: sb_archive_each(SB_ARCHIVE_CONDA, p, n, 0, check_path, NULL, &err); break;
    case 2: sb_archive_each(SB_ARCHIVE_TARBZ2, p, n, 0, check_path, NULL, &err); break;
    default: {
        size_t cap = ZSTD_compressBound(n);
        void *z = malloc(cap);
        size_t zn = z ? ZSTD_compress(z, cap, p, n, 1) : 0;
        if (z && !ZSTD_isError(zn))
            sb_archive_each(SB_ARCHIVE_CONDA, z, zn, 0, check_path, NULL, &err);
        free(z);
        break;
    }
    }
    return 0;
}
