/*
 * purl.h - Package URLs: build canonical strings, parse them back.
 *
 * Follows the purl specification as its official test vectors state it:
 * type lower-cased; namespace segments, name, version, qualifier values and
 * subpath segments percent-encoded except for unreserved characters and ':';
 * qualifiers sorted by key with empty values dropped; subpath '.'/'..'
 * segments removed. Type rules applied for the types sbomd emits: pypi
 * (name lower-cased, '_' -> '-', no namespace), conda (no namespace), github
 * (namespace and name lower-cased, namespace required), generic.
 */
#ifndef SB_PURL_H
#define SB_PURL_H

#include "arena.h"
#include "err.h"
#include "model.h"

#include <stddef.h>

typedef struct sb_purl {
    const char *type;
    const char *ns; /* namespace, '/'-separated segments; NULL = none */
    const char *name;
    const char *version; /* NULL = none */
    sb_prop *quals;      /* name = key; unsorted on input */
    size_t nquals;
    const char *subpath; /* NULL = none */
} sb_purl;

/* Canonical string of `p` into the arena. SB_EINVAL when a required part is
 * missing or invalid (empty name, bad type, bad qualifier key). */
sb_code sb_purl_build(char **out, sb_arena *a, const sb_purl *p, sb_err *err);

/* Parse a purl string into components (decoded, type rules applied,
 * qualifiers sorted). SB_EPARSE when it is not a valid purl. */
sb_code sb_purl_parse(sb_purl *out, sb_arena *a, const char *s, sb_err *err);

/* Percent-decode [s, s+n) into the arena; NULL on a bad escape. */
char *sb_pct_decode(sb_arena *a, const char *s, size_t n);

/* Convenience: "pkg:conda/<name>@<ver>?build=&channel=&subdir=&type=". */
char *sb_purl_conda(sb_arena *a, const char *name, const char *version, const char *build, const char *channel,
                    const char *subdir, const char *type);

#endif
