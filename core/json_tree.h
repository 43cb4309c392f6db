/*
 * json_tree.h - a JSON document as the small positioned tree the YAML
 * readers use (sb_yn, yaml_tree.h), for the JSON lockfiles whose records
 * are read by name (composer.lock, packages.lock.json): every node knows
 * its line and column, so a reader can locate what it refuses.
 *
 * Built over the streaming tokenizer (json_stream.h), which checks the
 * whole grammar and bounds the nesting; scalar size and the node count are
 * bounded by the limits as the YAML tree's are. Strings, numbers and the
 * literals become scalars ("true", "false", a number's text; null: s NULL).
 * A member repeated in one object is kept twice: sb_yn_get finds the first.
 */
#ifndef SB_JSON_TREE_H
#define SB_JSON_TREE_H

#include "arena.h"
#include "err.h"
#include "lock.h"
#include "yaml_tree.h"

#include <stddef.h>

/* The document's top value; `what` prefixes error messages ("composer.lock"). */
sb_code sb_jtree_parse(sb_yn **root, sb_arena *a, const char *data, size_t len, const sb_limits *lim, sb_err *err,
                       const char *what);

#endif
