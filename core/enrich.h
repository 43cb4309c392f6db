/*
 * enrich.h - fill in what a lockfile does not carry from local sources
 * (the conda package cache), and decide each request's license-text budget.
 */
#ifndef SB_ENRICH_H
#define SB_ENRICH_H

#include "arena.h"
#include "err.h"
#include "model.h"

#define SB_LICENSE_FILE_MAX ((long long)1 << 20)   /* bytes of text per license file */
#define SB_LICENSE_TEXTS_MAX ((long long)64 << 20) /* bytes of license text per document */

/* Look the conda binary `p` up under root/pkgs/ (about.json, info/licenses/).
 * Only fills what is empty; *found says whether the package was there. */
sb_code sb_enrich_from_cache(sb_pkg *p, sb_arena *a, const char *root, int *found);

/* The same from one extracted info/ directory (a package cache's, or one a
 * lookup stored), with provenance `source` ("package-cache", "conda-archive"). */
sb_code sb_enrich_from_info(sb_pkg *p, sb_arena *a, const char *info_dir, const char *source, int *found);

/* Set a license the lockfile lacked, recording where it came from
 * (pixi:license-source=`source`). The package must be a selection's copy. */
sb_code sb_enrich_set_license(sb_pkg *p, sb_arena *a, const char *license, const char *source);

/* Decide, in document order, which license files get their text embedded:
 * none unless `texts`; of those the format can embed (`shape`), files over
 * file_max and files past total_max are listed by name only and counted in
 * the document's license-texts marker. */
sb_code sb_enrich_budget(sb_sbom *s, sb_arena *a, bool texts, sb_text_shape shape, long long file_max,
                         long long total_max);

#endif
