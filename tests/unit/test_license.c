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
        /* real strings from the pixi.lock and conda-lock fixtures (conda-forge practice) */
        {"LGPL-2.1-only or MPL-1.1", SB_LIC_EXPR, "LGPL-2.1-only OR MPL-1.1", 0, 0},
        {"LicenseRef-PSF-2.0 and CC0-1.0", SB_LIC_EXPR, "LicenseRef-PSF-2.0 AND CC0-1.0", 0, 0},
        {"MIT and PSF-2.0", SB_LIC_EXPR, "MIT AND PSF-2.0", 0, 0},
        {"GPL-2.0-only and LicenseRef-FreeType", SB_LIC_EXPR, "GPL-2.0-only AND LicenseRef-FreeType", 0, 0},
        {"GPLv2 OR GPLv3 OR FreeImage", SB_LIC_EXPR, "GPL-2.0-only OR GPL-3.0-only OR FreeImage", 0, 0},
        {"BSD-3-Clause and GPL-2.0-only and ZPL-2.0 and LicenseRef-ElementTree", SB_LIC_EXPR,
         "BSD-3-Clause AND GPL-2.0-only AND ZPL-2.0 AND LicenseRef-ElementTree", 0, 0},
        {"BSD 3-clause", SB_LIC_EXPR, "BSD-3-Clause", 1, 0},
        {"GPL-2.0-or-later and LGPL-2.1-or-later", SB_LIC_EXPR, "GPL-2.0-or-later AND LGPL-2.1-or-later", 0, 0},
        {"Gnuplot", SB_LIC_EXPR, "gnuplot", 1, 0},
        {"MPL-2.0 or MIT", SB_LIC_EXPR, "MPL-2.0 OR MIT", 0, 0},
        {"BSD-3-Clause and MIT-CMU", SB_LIC_EXPR, "BSD-3-Clause AND MIT-CMU", 0, 0},
        {"MPL-2.0 and MIT", SB_LIC_EXPR, "MPL-2.0 AND MIT", 0, 0},
        {"GPL-3", SB_LIC_EXPR, "GPL-3.0-only", 1, 0},
        {"LGPLv2", SB_LIC_EXPR, "LGPL-2.0-only", 1, 0},
        {"LGPL-2.0-or-later AND LGPL-2.0-or-later WITH exceptions AND GPL-2.0-or-later AND MPL-2.0", SB_LIC_EXPR,
         "LGPL-2.0-or-later AND LGPL-2.0-or-later WITH AdditionRef-exceptions AND GPL-2.0-or-later AND MPL-2.0", 0, 1},
        {"LicenseRef-Public-Domain-Dedictation and BSD-2-Clause and LicenseRef-PSF-2.1.1 and GPL-3.0-or-later",
         SB_LIC_EXPR, "LicenseRef-Public-Domain-Dedictation AND BSD-2-Clause AND LicenseRef-PSF-2.1.1 AND GPL-3.0-or-later", 0, 0},
        {"SGI-2", SB_LIC_TEXT, "SGI-2", 0, 0},                 /* not an SPDX id (SGI-B-2.0 is) */
        {"None", SB_LIC_TEXT, "None", 0, 0},
        {"GPL and LGPL", SB_LIC_TEXT, "GPL and LGPL", 0, 0},
        {"Ubuntu Font Licence Version 1.0", SB_LIC_TEXT, "Ubuntu Font Licence Version 1.0", 0, 0},
        {"GPL3+, partial:GCCRLE, partial:LGPL2+", SB_LIC_TEXT, "GPL3+, partial:GCCRLE, partial:LGPL2+", 0, 0},
        {"GPL 2 and LGPL3", SB_LIC_TEXT, "GPL 2 and LGPL3", 0, 0},
        {"MIT/X11 Derivative", SB_LIC_TEXT, "MIT/X11 Derivative", 0, 0},
        {"Modified BSD", SB_LIC_TEXT, "Modified BSD", 0, 0},
        {"JasPer 2.0", SB_LIC_TEXT, "JasPer 2.0", 0, 0},
        {"MIT, BSD", SB_LIC_TEXT, "MIT, BSD", 0, 0},
        {"PUBLIC-DOMAIN", SB_LIC_TEXT, "PUBLIC-DOMAIN", 0, 0},
        {"Tcl/Tk", SB_LIC_TEXT, "Tcl/Tk", 0, 0},
        {"IJG, modified 3-clause BSD and zlib", SB_LIC_TEXT, "IJG, modified 3-clause BSD and zlib", 0, 0},
        {"Unlimited", SB_LIC_TEXT, "Unlimited", 0, 0},
        {"", SB_LIC_NONE, NULL, 0, 0},
        {"   ", SB_LIC_NONE, NULL, 0, 0},
    };
    CHECK(sizeof cases / sizeof cases[0] >= 60);
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
