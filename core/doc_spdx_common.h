/*
 * doc_spdx_common.h - internal to the two SPDX writers: what SPDX 2.3 and
 * 3.0.1 derive the same way (ids, namespace, per-package licenses, the set of
 * license values), computed once when a document begins.
 */
#ifndef SB_DOC_SPDX_COMMON_H
#define SB_DOC_SPDX_COMMON_H

#include "doc.h"
#include "license.h"

typedef struct sb_spdx {
    const char *doc_name;         /* <root>-<env>-<platform> */
    const char *ns;               /* https://spdx.org/spdxdocs/sbomd/<frag(name)>/<uuid> */
    const char **pkg_ids;         /* "Package-<kind>-<frag>" per package, unique */
    sb_lic *lics;                 /* normalized license per package */
    const sb_licfile **text_file; /* per package: the file whose text stands for
                                   * its free-text license, or NULL */
    const char **text_h8;         /* per package: sb_doc__text_h8 of text_file */
    const char **declared;        /* per package: SPDX 2.3 licenseDeclared */
    size_t total_deps;
} sb_spdx;

/* Every character outside [A-Za-z0-9.-] becomes '-'. */
const char *sb_spdx__frag(sb_arena *a, const char *s);

/* Build the shared state for d (stored in d->fmt). */
sb_code sb_spdx__prepare(sb_doc *d);

/* The root package's sourceInfo line. */
const char *sb_spdx__source_info(sb_doc *d);

/* "key=value" lines of a package's properties incl. pixi:kind, joined by \n. */
const char *sb_spdx__comment(sb_doc *d, const sb_pkg *p);

/* "License files: A, B" (SPDX 2.3 licenseComments), or NULL without files. */
const char *sb_spdx__license_files(sb_doc *d, const sb_pkg *p, const char *prefix, const char *sep);

/* The root package's comment: the pixi:excluded line, then the pixi:incomplete
 * lines; NULL when nothing was left out and the document is complete. */
const char *sb_spdx__root_comment(sb_doc *d);

#endif
