/*
 * test_license.c - license normalization cases from the spec, and the
 * generated SPDX table matching the list in ../shared.
 */
#include "test.h"
#include "../../core/arena.h"
#include "../../core/license.h"
#include "../../core/spdx_ids.h"

#include <stdlib.h>

typedef struct lcase {
    const char *in;
    sb_lic_kind kind;
    const char *out;
    int single;
    int rewritten;
} lcase;

TEST(core_license__normalization)
{
    static const lcase cases[] = {
        {"MIT", SB_LIC_EXPR, "MIT", 1, 0},
        {"  MIT  ", SB_LIC_EXPR, "MIT", 1, 0},
        {"mit", SB_LIC_EXPR, "MIT", 1, 0},
        {"GPL-3.0", SB_LIC_EXPR, "GPL-3.0", 1, 0},          /* deprecated id kept verbatim */
        {"GPL-2.0+", SB_LIC_EXPR, "GPL-2.0+", 1, 0},
        {"MIT/Apache-2.0", SB_LIC_EXPR, "MIT OR Apache-2.0", 0, 0},
        {"MIT AND BSD-3-Clause/Apache-2.0", SB_LIC_EXPR, "MIT AND BSD-3-Clause OR Apache-2.0", 0, 0},
        {"MIT AND (BSD-3-Clause/Apache-2.0)", SB_LIC_EXPR, "MIT AND (BSD-3-Clause OR Apache-2.0)", 0, 0},
        {"(MIT OR Apache-2.0) AND Zlib", SB_LIC_EXPR, "(MIT OR Apache-2.0) AND Zlib", 0, 0},
        {"mit and  bsd-3-clause", SB_LIC_EXPR, "MIT AND BSD-3-Clause", 0, 0},
        {"MIT License", SB_LIC_EXPR, "MIT", 1, 0},
        {"Apache 2.0", SB_LIC_EXPR, "Apache-2.0", 1, 0},
        {"BSD 3-Clause", SB_LIC_EXPR, "BSD-3-Clause", 1, 0},
        {"GPLv3+", SB_LIC_EXPR, "GPL-3.0-or-later", 1, 0},
        {"GPLv3", SB_LIC_EXPR, "GPL-3.0-only", 1, 0},
        {"GPLv2+", SB_LIC_EXPR, "GPL-2.0-or-later", 1, 0},
        {"GPL-2.0-or-later WITH Classpath-exception-2.0", SB_LIC_EXPR,
         "GPL-2.0-or-later WITH Classpath-exception-2.0", 1, 0},
        {"Apache-2.0 WITH LLVM-exception", SB_LIC_EXPR, "Apache-2.0 WITH LLVM-exception", 1, 0},
        {"LicenseRef-Proprietary", SB_LIC_EXPR, "LicenseRef-Proprietary", 1, 0},
        {"LGPL-2.0-or-later AND LGPL-2.0-or-later WITH exceptions AND GPL-2.0-or-later", SB_LIC_EXPR,
         "LGPL-2.0-or-later AND LGPL-2.0-or-later WITH AdditionRef-exceptions AND GPL-2.0-or-later", 0, 1},
        {"(MIT WITH weird) OR Zlib", SB_LIC_EXPR, "MIT WITH AdditionRef-weird OR Zlib", 0, 1},
        {"GPL WITH nothing else", SB_LIC_TEXT, "GPL WITH nothing else", 0, 0},
        {"GPL", SB_LIC_TEXT, "GPL", 0, 0},
        {"LGPL", SB_LIC_TEXT, "LGPL", 0, 0},
        {"BSD", SB_LIC_TEXT, "BSD", 0, 0},
        {"BSD License", SB_LIC_TEXT, "BSD License", 0, 0},
        {"GNU GPL", SB_LIC_TEXT, "GNU GPL", 0, 0},
        {"MIT AND BSD", SB_LIC_TEXT, "MIT AND BSD", 0, 0},
        {"Proprietary", SB_LIC_TEXT, "Proprietary", 0, 0},
        {"PSF", SB_LIC_TEXT, "PSF", 0, 0},
        {"Other/Proprietary License", SB_LIC_TEXT, "Other/Proprietary License", 0, 0},
        {"MIT OR", SB_LIC_TEXT, "MIT OR", 0, 0},
        {"(MIT", SB_LIC_TEXT, "(MIT", 0, 0},
        {"", SB_LIC_NONE, NULL, 0, 0},
        {"   ", SB_LIC_NONE, NULL, 0, 0},
    };
    sb_arena *a = sb_arena_new(0);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        sb_lic l = sb_lic_normalize(a, cases[i].in);
        char why[512];
        snprintf(why, sizeof why, "kind=%d value=%s single=%d rewritten=%s reason=%s", l.kind,
                 l.value ? l.value : "(null)", l.single_id, l.raw_rewritten ? l.raw_rewritten : "-",
                 l.reason ? l.reason : "-");
        int ok = l.kind == cases[i].kind &&
                 (cases[i].out ? l.value && !strcmp(l.value, cases[i].out) : l.value == NULL) &&
                 (l.kind != SB_LIC_EXPR || l.single_id == cases[i].single) &&
                 (!!l.raw_rewritten == cases[i].rewritten);
        char name[200];
        snprintf(name, sizeof name, "license '%s'", cases[i].in);
        sb_test_subcase(name, ok, why);
    }
    sb_lic p = sb_lic_normalize(a, "Proprietary");
    CHECK_STR(p.reason, "unknown term: 'Proprietary'");
    CHECK_STR(sb_lic_normalize(a, NULL).reason, "empty");
    sb_arena_destroy(a);
}

TEST(core_license__generated_table_matches_list)
{
    /* regenerate into a temp file and compare with the committed table */
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "scripts/gen-spdx-ids '%s' > build/spdx_ids.check.c 2>/dev/null && cmp -s build/spdx_ids.check.c core/spdx_ids.c",
             sb_test_shared("data/spdx-license-list"));
    CHECK(system(cmd) == 0);
    CHECK(sb_spdx_nlicenses > 700);
    CHECK(sb_spdx_nexceptions > 80);
}

/* Regressions from fuzz_license: the exception rewrite once wrote past its
 * buffer for long chains of WITH (each word after a WITH gets a 12-byte
 * AdditionRef- prefix). Under ASan an overflow here fails the run. */
TEST(license_with_chains_do_not_overflow)
{
    sb_arena *a = sb_arena_new(0);
    char s[4096];
    size_t o = 0;
    while (o + 6 < sizeof s - 2) {
        memcpy(s + o, "with ", 5);
        o += 5;
    }
    s[o++] = 'x';
    s[o] = '\0';
    sb_lic l = sb_lic_normalize(a, s);
    /* not an expression: kept as text, unchanged */
    CHECK(l.kind == SB_LIC_TEXT);
    CHECK(l.value && !strncmp(l.value, "with with with", 14));
    o = 0;
    while (o + 8 < sizeof s - 2) {
        memcpy(s + o, "x with a ", 9);
        o += 9;
    }
    s[o] = '\0';
    l = sb_lic_normalize(a, s);
    CHECK(l.value != NULL);
    sb_arena_destroy(a);
}
