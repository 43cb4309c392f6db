/* fuzz_repo.c - libFuzzer target: a repository sent whole on arbitrary
 * bytes. The archive walker (tar, tar.gz, tar.zst, zip) and the
 * repository reading over it, with small caps so a run reaches them: every
 * path listed must be relative and free of "..", and every answer is a
 * code, never a crash. */
#include "../../core/repo.h"

#include <stdint.h>
#include <string.h>

/* A path component that is exactly "..": what the reader must never take
 * ("x../y" is a name like any other). */
static int has_dotdot(const char *p)
{
    for (const char *c = p; *c;) {
        const char *e = strchr(c, '/');
        size_t n = e ? (size_t)(e - c) : strlen(c);
        if (n == 2 && c[0] == '.' && c[1] == '.')
            return 1;
        if (!e)
            break;
        c = e + 1;
    }
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    sb_arena *a = sb_arena_new(0);
    if (NULL == a)
        return 0;
    sb_err err;
    sb_limits lim = SB_LIMITS_DEFAULT;
    lim.max_packages = 2000;
    sb_repo_opts o = {.caps = {.entries = 2000, .member = 1 << 20, .total = 16 << 20, .ratio = 200}, .lim = &lim};
    sb_repo *r = NULL;
    if (sb_repo_read(&r, a, data, size, &o, &err) == SB_OK && r) {
        for (size_t i = 0; i < r->nfiles; i++) {
            const char *p = r->files[i].path;
            if (r->files[i].state == SB_REPO_READ && (p[0] == '/' || has_dotdot(p)))
                __builtin_trap();
        }
    }
    sb_arena_destroy(a);
    return 0;
}
