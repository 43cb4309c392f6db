/*
 * graph.h - the dependency graph of a selection (select.c): names resolved
 * to package indices once the packages are in model order with their ids.
 */
#ifndef SB_GRAPH_H
#define SB_GRAPH_H

#include "arena.h"
#include "deadline.h"
#include "err.h"
#include "model.h"

/*
 * Fill every package's deps (indices into s->pkgs, sorted by id, no repeats,
 * no self edge) and s->root_deps (model order) from the dependency names:
 * conda names against conda packages (virtual "__" names never match), PyPI requirements against PyPI then conda packages (PEP 503), plus
 * every PyPI package -> the conda `python`; a package with a `key` (npm)
 * names its dependencies by key instead.
 *
 * Root edges: with `by_manifest`, the packages a manifest declares
 * (declared_via), plus the graph roots when `plus_graph_roots`; otherwise
 * the `declared` names (the lockfile's own roots) when not NULL, else the
 * packages nothing depends on. Then whatever is still unreached is made a
 * root too (cycles last), so every package is reachable from the root.
 * Edge arrays come from `a`, maps from `scratch`. SB_ENOMEM, or the
 * deadline's SB_ETIMEOUT with err set.
 */
sb_code sb_graph_resolve(sb_sbom *s, sb_arena *a, sb_arena *scratch, const sb_strv *declared, int by_manifest,
                         int plus_graph_roots, sb_deadline *dl, sb_err *err);

#endif
