/*
 * main.c - runs every registered unit test (optionally only those whose name
 * contains argv[1]) and closes with "N passed, N failed".
 */
#include "test.h"

#include <stdlib.h>

/* Grown as constructors register cases: there is no cap to fall off
 * silently (a fixed array of 256 once dropped every case past it). */
static sb_test_case *cases;
static int ncases, capcases;
static int register_failed;
static int current_failed;
static int passed, failed;

void sb_test_register(const char *name, void (*fn)(void))
{
    if (ncases == capcases) {
        int ncap = capcases ? capcases * 2 : 256;
        sb_test_case *n = realloc(cases, (size_t)ncap * sizeof *n);
        if (NULL == n) {
            register_failed++; /* reported by main: a lost case fails the run */
            return;
        }
        cases = n;
        capcases = ncap;
    }
    cases[ncases++] = (sb_test_case){name, fn};
}

void sb_test_fail(const char *file, int line, const char *expr)
{
    current_failed++;
    printf("  FAIL %s:%d: %s\n", file, line, expr);
}

void sb_test_subcase(const char *name, int ok, const char *why)
{
    if (ok) {
        passed++;
    } else {
        failed++;
        printf("  FAIL %s: %s\n", name, why ? why : "");
    }
}

const char *sb_test_shared(const char *rel)
{
    static char buf[4096];
    const char *root = getenv("SB_SHARED");
    snprintf(buf, sizeof buf, "%s/%s", root ? root : "../shared", rel);
    return buf;
}

char *sb_test_read(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (NULL == f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *b = malloc((size_t)n + 1);
    if (b && fread(b, 1, (size_t)n, f) != (size_t)n) {
        free(b);
        b = NULL;
    }
    fclose(f);
    if (b) {
        b[n] = '\0';
        if (len)
            *len = (size_t)n;
    }
    return b;
}

int main(int argc, char **argv)
{
    const char *filter = argc > 1 ? argv[1] : NULL;
    if (register_failed) {
        printf("FAIL %d test case(s) could not be registered (out of memory)\n", register_failed);
        failed += register_failed;
    }
    for (int i = 0; i < ncases; i++) {
        if (filter && !strstr(cases[i].name, filter))
            continue;
        current_failed = 0;
        cases[i].fn();
        if (current_failed) {
            failed++;
            printf("FAIL %s\n", cases[i].name);
        } else {
            passed++;
            printf("ok   %s\n", cases[i].name);
        }
    }
    printf("unit: %d cases registered\n", ncases);
    printf("unit: %d passed, %d failed\n", passed, failed);
    free(cases);
    return failed ? 1 : 0;
}
