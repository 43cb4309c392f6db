/*
 * license.h - license strings as found -> SPDX expressions or free text.
 *
 * sb_lic_normalize() classifies a raw declared license: an SPDX expression
 * (kept verbatim when it already is one, re-emitted canonically when only a
 * lenient reading succeeds), free text, or no license at all (blank, or a
 * literal "None" / "UNKNOWN" / "NOASSERTION" in any case).
 */
#ifndef SB_LICENSE_H
#define SB_LICENSE_H

#include "arena.h"

#include <stdbool.h>

typedef enum sb_lic_kind { SB_LIC_NONE = 0, SB_LIC_EXPR, SB_LIC_TEXT } sb_lic_kind;

typedef struct sb_lic {
    sb_lic_kind kind;
    const char *value;         /* the expression or the text; NULL for NONE */
    bool single_id;            /* EXPR that is one license (optionally WITH exception) */
    bool is_ref;               /* single id that is a LicenseRef-/DocumentRef- */
    const char *raw_rewritten; /* original when a non-SPDX WITH was rewritten */
    const char *reason;        /* why TEXT or NONE: "unknown term: 'X'", "empty", "stated as none" */
} sb_lic;

/* Classify `raw` (may be NULL). Strings live in the arena. Never fails:
 * on allocation failure the result is TEXT with the raw string. */
sb_lic sb_lic_normalize(sb_arena *a, const char *raw);

#endif
