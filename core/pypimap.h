/*
 * pypimap.h - the conda -> PyPI name mapping ("PyPI identities for
 * conda packages"): the prefix.dev compressed mapping's JSON shape, an
 * object {conda_name: pypi_name | [pypi_name, ...] | null}, read once from
 * a file the server is given (--pypi-mapping-file) and then read-only, so
 * every request's selection shares it without a lock.
 */
#ifndef SB_PYPIMAP_H
#define SB_PYPIMAP_H

#include "arena.h"
#include "err.h"

#include <stddef.h>

typedef struct sb_pypimap sb_pypimap;

/* Parse the mapping document. The map owns its memory (sb_pypimap_free). */
sb_code sb_pypimap_parse(sb_pypimap **out, const char *json, size_t len, sb_err *err);

/* The PyPI names a conda name maps to (NULL-free array of *n, in the
 * document's order); NULL / 0 when it maps to none or is not listed. */
const char *const *sb_pypimap_get(const sb_pypimap *m, const char *conda_name, size_t *n);

/* Entries read, and the SHA-1 of the document as hex (for serial numbers). */
size_t sb_pypimap_count(const sb_pypimap *m);
const char *sb_pypimap_digest(const sb_pypimap *m);

void sb_pypimap_free(sb_pypimap *m);

#endif
