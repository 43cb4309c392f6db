/*
 * fuzz_reader.c - libFuzzer target: any bytes through one reader (FUZZ_KIND,
 * set when building: "pixi.lock", "uv.lock", ... or "auto" for detection),
 * the selection of every environment x platform, and all four writers with a
 * small producer buffer. Must never crash, leak or loop.
 */
#include "../../core/arena.h"
#include "../../core/doc.h"
#include "../../core/lock.h"
#include "../../core/par.h"
#include "../../core/select.h"

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* -DFUZZ_KIND_RAW=uv.lock: a bare token, so no shell quoting is involved */
#define FUZZ_STR2(x) #x
#define FUZZ_STR(x) FUZZ_STR2(x)
#ifdef FUZZ_KIND_RAW
#define FUZZ_KIND FUZZ_STR(FUZZ_KIND_RAW)
#else
#define FUZZ_KIND "pixi.lock"
#endif

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#ifdef FUZZ_PIECES
/* -DFUZZ_PIECES: differential. The input read on one thread and in pieces
 * (cut every few dozen bytes) must give the same answer: the same error at
 * the same place, or the same packages in the same order everywhere. */
static const char *str(const char *s)
{
    return s ? s : "(null)";
}

static void same_lock(const sb_lock *x, const sb_lock *y)
{
    if (x->nrecords != y->nrecords || x->nenvs != y->nenvs || x->version != y->version)
        abort();
    for (size_t e = 0; e < x->nenvs; e++) {
        if (x->envs[e].nplatforms != y->envs[e].nplatforms)
            abort();
        for (size_t p = 0; p < x->envs[e].nplatforms; p++) {
            const sb_lock_platform *px = &x->envs[e].platforms[p], *py = &y->envs[e].platforms[p];
            if (px->npkgs != py->npkgs)
                abort();
            for (size_t i = 0; i < px->npkgs; i++)
                if (strcmp(str(px->pkgs[i]->name), str(py->pkgs[i]->name)) ||
                    strcmp(str(px->pkgs[i]->version), str(py->pkgs[i]->version)) ||
                    strcmp(str(px->pkgs[i]->location), str(py->pkgs[i]->location)))
                    abort();
        }
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    sb_arena *a = sb_arena_new((size_t)256 << 20), *b = sb_arena_new((size_t)256 << 20);
    sb_err ea, eb;
    sb_lock *la = NULL, *lb = NULL;
    sb_limits lim = SB_LIMITS_DEFAULT;
    lim.max_events = 200000;
    if (a && b) {
        sb_par_configure(1, 0);
        sb_code ra = sb_lock_read(&la, a, FUZZ_KIND, (const char *)data, size, NULL, &lim, &ea);
        sb_par_configure(4, 64);
        sb_code rb = sb_lock_read(&lb, b, FUZZ_KIND, (const char *)data, size, NULL, &lim, &eb);
        if (ra != rb)
            abort();
        if (ra != SB_OK && (ea.line != eb.line || ea.column != eb.column || strcmp(ea.msg, eb.msg)))
            abort();
        if (ra == SB_OK)
            same_lock(la, lb);
    }
    sb_arena_destroy(a);
    sb_arena_destroy(b);
    return 0;
}
#else

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    sb_arena *a = sb_arena_new((size_t)256 << 20);
    if (!a)
        return 0;
    sb_err err;
    sb_lock *l = NULL;
    sb_limits lim = SB_LIMITS_DEFAULT;
    lim.max_events = 200000;
    if (sb_lock_read(&l, a, FUZZ_KIND, (const char *)data, size, NULL, &lim, &err) == SB_OK) {
        for (size_t e = 0; e < l->nenvs && e < 4; e++) {
            for (size_t p = 0; p <= l->envs[e].nplatforms && p < 4; p++) {
                sb_select_opts o = {.environment = l->envs[e].name,
                                    .platform = p < l->envs[e].nplatforms ? l->envs[e].platforms[p].name : NULL};
                sb_sbom *s = NULL;
                if (sb_select(&s, a, l, &o, &err) != SB_OK)
                    continue;
                for (const sb_doc_ops *const *f = sb_doc_formats(); *f; f++) {
                    sb_doc_opts dopts = {0, true, NULL, 0, 0}; /* the serial number is not under test here */
                    sb_doc *d = NULL;
                    if (sb_doc_new(&d, a, *f, s, &dopts, &err) != SB_OK)
                        continue;
                    char buf[777];
                    while (sb_doc_produce(d, buf, sizeof buf) > 0)
                        ;
                    sb_doc_free(d);
                }
            }
        }
    }
    sb_arena_destroy(a);
    return 0;
}
#endif
