/*
 * lock_sbom_int.h - internal to the SBOM readers (lock_sbom.c,
 * lock_cyclonedx.c, lock_spdx.c, lock_spdx3.c): the read's context and what
 * the three formats share, defined in lock_sbom.c.
 */
#ifndef SB_LOCK_SBOM_INT_H
#define SB_LOCK_SBOM_INT_H

#include "deadline.h"
#include "lock_int.h"
#include "strmap.h"

#include <jansson.h>

/* One document being read into one lock of one environment x platform. */
typedef struct sb_sbomin {
    sb_arena *a;
    sb_err *err;
    const sb_limits *lim;
    sb_deadline dl;
    sb_lock *l;
    sb_lock_platform *plat;
    sb_strmap by_key; /* document id -> package index */
    sb_pkg **pkgs;
    size_t n, cap;
    const char *root_key; /* the root's id, NULL when none */
    unsigned depth;
    sb_lock_origin *origin; /* what names the document, and what it states when sbomd wrote it */
} sb_sbomin;

/* SB_ENOMEM, "out of memory". */
sb_code sb_sbomin__oom(sb_sbomin *c);

/* o[k] when it is a non-empty string, copied into the arena; else NULL. */
const char *sb_sbomin__jstr(sb_sbomin *c, json_t *o, const char *k);

/* strings must be text: jansson accepts \u0000 inside one */
int sb_sbomin__has_nul(json_t *v);

/* The document as a jansson tree (the caller decrefs it): a parse error
 * carries jansson's line and column, `what` names the format. */
sb_code sb_sbomin__parse(sb_sbomin *c, json_t **root, const char *data, size_t len, const char *what);

/* A JSON object whose first kilobytes hold `needle` as a key. */
int sb_sbomin__json_with(const char *data, size_t len, const char *needle);

/* A digest by the names CycloneDX ("SHA-256") and SPDX ("SHA256") use. */
sb_code sb_sbomin__set_hash(sb_sbomin *c, sb_pkg *p, const char *alg, const char *hex);

/* A pixi:* property (CycloneDX properties, SPDX comment lines): back into
 * the model field derive() makes it from, else kept as a reader property.
 * Other tools' properties are dropped. */
sb_code sb_sbomin__add_prop(sb_sbomin *c, sb_pkg *p, const char *name, const char *value);

/* Kind from the purl's type when no pixi:kind said it. */
void sb_sbomin__kind_from_purl(sb_sbomin *c, sb_pkg *p, int kind_given);

/* A new package keyed by the document's id `key` (NULL: "#<index>", which
 * nothing can point at): the package limit and the deadline are checked,
 * and an id naming two packages is an error. */
sb_code sb_sbomin__new_pkg(sb_sbomin *c, sb_pkg **out, const char *key);

/* An edge from the document's id `from` to `to`: onto the package's
 * depends, or the root's names. Unknown ends are dropped (a document may
 * name files, snippets or other documents). */
sb_code sb_sbomin__edge(sb_sbomin *c, const char *from, const char *to);

/* Begin a read: `kind` is the lock's kind ("cyclonedx", "spdx"). */
sb_code sb_sbomin__start(sb_sbomin *c, sb_arena *a, const sb_limits *lim, sb_err *err, const char *kind);

/* "YYYY-MM-DDTHH:MM:SSZ", as sbomd writes timestamps */
const char *sb_sbomin__stamp(const char *s);

/* The UUID s starts with (8-4-4-4-12 hex digits), into o->serial. */
void sb_sbomin__uuid_from(sb_lock_origin *o, const char *s);

/* The input kind out of "...lockfile NAME (KIND<end>...": the last " ("
 * before `end` (a file name may hold one; a kind does not). */
const char *sb_sbomin__kind_before(sb_sbomin *c, const char *s, const char *end);

/* A document-level fact sbomd writes (CycloneDX metadata.properties, the
 * SPDX root's comment lines). */
void sb_sbomin__doc_fact(sb_sbomin *c, const char *name, const char *value);

/* The SPDX root's comment: one pixi:name=value a line. */
sb_code sb_sbomin__root_facts(sb_sbomin *c, const char *s);

/* The one environment x platform the document describes: named by its
 * pixi:environment / pixi:platform when it is an sbomd document. */
sb_code sb_sbomin__place(sb_sbomin *c, const char *env, const char *plat);

/* End a read: every package gets a purl (pkg:generic/name@version when the
 * document gives none) and joins the one platform; the origin is kept when
 * sbomd wrote the document, its sha1 taken over data[0..len). */
sb_code sb_sbomin__finish(sb_sbomin *c, sb_lock **out, const char *data, size_t len);

/* NULL, NOASSERTION or NONE: no value. */
int sb_sbomin__spdx_none(const char *s);

/* A list of license file names as sbomd writes them ("a, b" in SPDX 2's
 * licenseComments, "a;b" in SPDX 3's comment) back into the package. */
sb_code sb_sbomin__license_files(sb_sbomin *c, sb_pkg *p, const char *list, const char *sep);

/* sbomd's root (SPDX 2 and 3) says where it came from in its source info:
 * "<kind> workspace; lockfile X; environment E; platform P". */
void sb_sbomin__root_source(sb_sbomin *c, const char *rsi, const char **env, const char **plat);

/* `comment`: sbomd writes a package's properties there, one
 * "pixi:name=value" a line. */
sb_code sb_sbomin__spdx_comment(sb_sbomin *c, sb_pkg *p, const char *s, int *kind_given);

/* lock_spdx3.c: an SPDX 3.0.1 JSON-LD document (one with an @graph). */
sb_code sb_sbomin__spdx3_body(sb_sbomin *c, json_t *root);

/* Whether a package's supplier is taken as the document states it: kinds
 * whose derivation makes no supplier of its own for a stated purl (the
 * conda, PyPI and npm ones derive it from channel, index or registry). */
int sb_sbomin__supplier_as_stated(const sb_pkg *p);

#endif
