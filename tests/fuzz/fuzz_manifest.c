/*
 * fuzz_manifest.c - libFuzzer target: any bytes read as a workspace manifest
 * (core/manifest.c). The first byte picks the kind the file name says
 * (pixi.toml, pyproject.toml, environment.yml, package.json); the rest is
 * the file. Every field of the result is read so ASan sees it, and every
 * environment is asked for every feature (sb_manifest_in_env), and its
 * index (sb_manifest_env_index) must answer the same. Must never
 * crash, leak or loop.
 */
#include "../../core/arena.h"
#include "../../core/manifest.h"

#include <stddef.h>
#include <stdint.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static size_t touch(const char *s)
{
    return s ? strlen(s) : 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const char *const names[] = {"pixi.toml", "pyproject.toml", "environment.yml", "package.json"};
    if (size < 1)
        return 0;
    sb_arena *a = sb_arena_new((size_t)256 << 20);
    if (!a)
        return 0;
    sb_err err;
    sb_err_clear(&err);
    sb_limits lim = SB_LIMITS_DEFAULT;
    lim.max_events = 200000;
    sb_manifest *m = NULL;
    volatile size_t sum = 0;
    if (sb_manifest_read(&m, a, names[data[0] % 4], (const char *)data + 1, size - 1, &lim, &err) == SB_OK) {
        sum += touch(m->kind) + touch(m->name) + touch(m->version) + touch(m->license);
        sum += touch(m->homepage) + touch(m->repository) + touch(m->documentation);
        for (size_t i = 0; i < m->nauthors; i++)
            sum += touch(m->authors[i].name) + touch(m->authors[i].email);
        /* the indexed environment (what selection uses) agrees with the scan */
        sb_menv_index x[16];
        size_t nx = m->nenvs < 16 ? m->nenvs : 16;
        int ok = 1;
        for (size_t e = 0; e < nx && ok; e++)
            ok = sb_manifest_env_index(&x[e], m, m->envs[e].name, a) == SB_OK;
        if (!ok)
            nx = 0; /* out of memory: nothing to compare */
        for (size_t i = 0; i < m->ndeps; i++) {
            sum += touch(m->deps[i].name) + touch(m->deps[i].feature) + (size_t)m->deps[i].scope;
            for (size_t e = 0; e < nx; e++) {
                bool in = sb_manifest_in_env(m, m->envs[e].name, m->deps[i].feature);
                if (in != sb_manifest_env_has(&x[e], m->deps[i].feature))
                    __builtin_trap();
                sum += in;
            }
        }
        sum += sb_manifest_in_env(m, "default", "default");
    }
    sb_arena_destroy(a);
    return 0;
}
