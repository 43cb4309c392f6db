/*
 * test.h - the unit-test harness: TEST(name) registers a case, CHECK records
 * a failure without stopping the case, and main prints "N passed, N failed".
 */
#ifndef SB_TEST_H
#define SB_TEST_H

#include <stdio.h>
#include <string.h>

typedef struct sb_test_case {
    const char *name;
    void (*fn)(void);
} sb_test_case;

void sb_test_register(const char *name, void (*fn)(void));
void sb_test_fail(const char *file, int line, const char *expr);
/* Count one more case (for data-driven tests that run many vectors in one fn). */
void sb_test_subcase(const char *name, int ok, const char *why);
/* Path under ../shared (SB_SHARED overrides). */
const char *sb_test_shared(const char *rel);
/* Read a whole file; NULL on failure. Caller frees. */
char *sb_test_read(const char *path, size_t *len);

#define TEST(name) \
    static void test_##name(void); \
    __attribute__((constructor)) static void reg_##name(void) \
    { \
        sb_test_register(#name, test_##name); \
    } \
    static void test_##name(void)

#define CHECK(cond) \
    do { \
        if (!(cond)) \
            sb_test_fail(__FILE__, __LINE__, #cond); \
    } while (0)

#define CHECK_STR(a, b) \
    do { \
        const char *sa_ = (a), *sb_ = (b); \
        if (!sa_ || !sb_ || strcmp(sa_, sb_)) { \
            char m_[1024]; \
            snprintf(m_, sizeof m_, "%s == %s (\"%.200s\" vs \"%.200s\")", #a, #b, sa_ ? sa_ : "(null)", \
                     sb_ ? sb_ : "(null)"); \
            sb_test_fail(__FILE__, __LINE__, m_); \
        } \
    } while (0)

#endif
