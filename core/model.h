/*
 * model.h - the format-agnostic model every reader fills and every writer reads.
 *
 * Two levels:
 *  - sb_lock: a whole parsed lockfile: its environments, each with its
 *    platforms, each listing package records (sb_pkg) shared between them.
 *  - sb_sbom: one environment on one platform, selected from an sb_lock by
 *    sb_select() (select.h): packages sorted (kind, name, version),
 *    purls and ids assigned, properties finalized and the dependency graph
 *    resolved by name.
 *
 * This header is the vocabulary both levels are written in (kinds, scopes,
 * digests, properties, string vectors, pixi:incomplete); how a selection is
 * made, and the options and hooks that drive it, are select.h's.
 *
 * Everything is owned by one sb_arena and freed with it; nothing here is
 * freed on its own. Strings are NUL-terminated UTF-8; NULL means absent.
 */
#ifndef SB_MODEL_H
#define SB_MODEL_H

#include "arena.h"
#include "err.h"
#include "license.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef enum sb_kind {
    SB_KIND_CONDA = 0,        /* conda binary from a channel */
    SB_KIND_CONDA_SOURCE = 1, /* pixi-build source package */
    SB_KIND_PYPI = 2,
    SB_KIND_EMBEDDED = 3,
    SB_KIND_EXTERNAL = 4,
    SB_KIND_NPM = 5, /* JavaScript package (package-lock.json, pnpm, yarn, bun) */
    SB_KIND_CARGO,   /* Rust crate */
    SB_KIND_GOLANG,  /* Go module */
    SB_KIND_MAVEN,   /* JVM artifact (Gradle) */
    SB_KIND_SWIFT,   /* Swift package */
    SB_KIND_CONAN,   /* C/C++ recipe */
    SB_KIND_GEM,     /* Ruby gem */
    SB_KIND_COMPOSER,
    SB_KIND_NUGET,
    SB_KIND_PUB,       /* Dart / Flutter */
    SB_KIND_HEX,       /* Elixir / Erlang */
    SB_KIND_COCOAPODS, /* Pod */
    SB_KIND_N          /* the number of kinds: not a kind */
} sb_kind;

/* What a kind means (name, purl, version order, lookups) is its row in
 * core/ecosystem.h; the kind's name is the pixi:kind value. */
const char *sb_kind_name(sb_kind k);

/* What a package is in the document for ("Scopes"): only inputs that
 * tell them apart set one (uv/poetry/pdm groups and extras, conda-lock
 * categories); pixi.lock and the rest leave SB_SCOPE_NONE. The order is the
 * precedence: a package reachable in several ways takes the smallest. */
typedef enum sb_scope {
    SB_SCOPE_NONE = 0,
    SB_SCOPE_REQUIRED = 1,   /* reachable from what the project needs to run */
    SB_SCOPE_OPTIONAL = 2,   /* only through an extra (or an extra and a group) */
    SB_SCOPE_DEVELOPMENT = 3 /* only through a development group / category */
} sb_scope;

/* The stronger of two scopes (required < optional < development; NONE yields). */
sb_scope sb_scope_merge(sb_scope a, sb_scope b);

/* The scope an edge from `from` (SB_SCOPE_REQUIRED for the document root)
 * into `to` crosses into: `to`'s scope when it leaves what `from` is there
 * for and leads into something not required; SB_SCOPE_NONE when the edge
 * stays inside one scope, leads into what is required anyway, or either end
 * has no scope. */
sb_scope sb_scope_crossing(sb_scope from, sb_scope to);

/* A person a manifest names. */
/* A person or organization: the project's authors (a manifest) and the
 * SBOM's author (query `author`, --sbom-author). */
typedef struct sb_author {
    bool person;       /* Person, else Organization */
    const char *name;  /* never NULL */
    const char *email; /* NULL when none */
} sb_author;

typedef struct sb_prop {
    const char *name;
    const char *value;
} sb_prop;

/* 16 bytes: every record holds four of them */
typedef struct sb_strv {
    const char **v;
    uint32_t n, cap;
} sb_strv;

/* Append to an arena string vector. */
sb_code sb_strv_push(sb_strv *sv, sb_arena *a, const char *s);

/* The strings of sv joined by sep, one arena string ("" when empty), in one
 * pass; NULL when out of memory. */
const char *sb_strv_join(const sb_strv *sv, sb_arena *a, const char *sep);

/* A string built by appending, in an arena: the buffer doubles, so n pieces
 * cost linear time and at most twice the final bytes, where re-printing
 * "%s,%s" per piece is quadratic in both (a crafted list of 8,000 items made
 * a 279 KB input take a gigabyte). Zero-initialized = empty; `s` stays
 * NUL-terminated (NULL until the first piece). */
typedef struct sb_strb {
    char *s;
    size_t len, cap;
} sb_strb;

/* Append `sep` (unless the string is empty) and `piece`. SB_OK or SB_ENOMEM. */
sb_code sb_strb_add(sb_strb *b, sb_arena *a, const char *sep, const char *piece);

/* A name someone else chose (an upload's file name, an SBOM input's
 * lockfile name) without its control characters: C0, DEL and the C1 range
 * (as UTF-8), so that echoed into a document comment, a header, a report
 * line or a log it cannot start a line or move the cursor. `*out` is `s`
 * itself when it holds none (NULL stays NULL), else an arena copy.
 * SB_OK or SB_ENOMEM. */
sb_code sb_str_no_controls(sb_arena *a, const char *s, const char **out);

/* A license file of a package (from the package cache). */
typedef struct sb_licfile {
    const char *name;   /* relative to info/licenses/, '/' separators */
    const char *path;   /* where to read it */
    long long text_len; /* bytes of text the document embeds; -1 = listed by name only */
} sb_licfile;

/* What a document lacks: steps that did not finish, each with a detail.
 * Collected per request by the model and enrichment; rendered by writers
 * as pixi:incomplete / pixi:incomplete-detail. */
typedef struct sb_incomplete {
    const char **step, **detail;
    size_t n, cap;
} sb_incomplete;

/* Record that `step` is incomplete ("license-texts", "3 file(s) listed by name only"). */
sb_code sb_incomplete_add(sb_incomplete *inc, sb_arena *a, const char *step, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
/* "a, b" and "a: x; b: y", or NULL when nothing is missing. */
const char *sb_incomplete_steps(const sb_incomplete *inc, sb_arena *a);
const char *sb_incomplete_details(const sb_incomplete *inc, sb_arena *a);
/* Replace what inc holds with a statement read from a document (the values
 * of its pixi:incomplete and pixi:incomplete-detail; NULL: complete), so
 * the two functions above give those values back. */
sb_code sb_incomplete_restore(sb_incomplete *inc, sb_arena *a, const char *steps, const char *detail);

/* What a license lookup did for one package: the quality report says why a
 * license is missing from it (not in the lockfile, lookups off, failed). */
typedef enum sb_lookup_state {
    SB_LOOKUP_NONE = 0, /* not wanted (it had a license) or no lookups ran */
    SB_LOOKUP_FILLED,   /* answered (with or without a license) */
    SB_LOOKUP_FAILED,   /* failed, still running at the deadline, or past the request's limit */
    SB_LOOKUP_NOT_MADE, /* wanted but not asked: this server makes no network lookups */
    SB_LOOKUP_UNASKED,  /* not asked by the request (fetch-licenses=true would ask) */
    SB_LOOKUP_OFF       /* not asked by the request, and this server makes no lookups anyway */
} sb_lookup_state;

/* sb_author (above) is also who wrote the SBOM (CISA "SBOM author", NTIA "Author of SBOM Data", BSI
 * "creator of the SBOM"): given by the operator or the request, never
 * guessed. SPDX's creator syntax: "Person: NAME (EMAIL)" or
 * "Organization: NAME (EMAIL)", the e-mail optional. */

/* Parse an author in the syntax above (a bare name is an Organization).
 * 0 and *out set (strings point into `a`), or -1 with a reason in *why. */
int sb_author_parse(sb_author *out, sb_arena *a, const char *s, const char **why);

/* The fields of a package most records lack (conda's build, subdir, channel,
 * archive type, md5, license family, build number and size; the purls a
 * lockfile lists; what a package cache or an SBOM input adds; what a
 * manifest declares): out of line, so a PyPI or npm record and its selected
 * copy do not carry them. Conda readers allocate them with sb_pkg_x, others
 * when they set one (sb_pkg_x too). */
typedef struct sb_pkgx {
    const char *build, *subdir;
    const char *channel, *channel_url; /* conda binary */
    const char *archive_type;          /* "conda" or "tar.bz2" */
    const char *md5;                   /* lower-case hex, validated */
    const char *license_family;        /* raw as found */
    const char *identifier_hash;       /* conda source [hash] */
    long long build_number, size;      /* -1 when unknown */
    sb_strv lock_purls;                /* purls the input listed */
    const unsigned char *sha384b;      /* SHA-384 in binary (48 bytes; rare: read it with sb_pkg_hash) */
    /* assigned by sb_select(): */
    sb_strv extra_purls;    /* the package's other purls (the lockfile's, a PyPI mapping's) */
    const char *ref_purl;   /* the package's own purl when primary-purl=pypi made a PyPI
                           * identity primary; NULL: the purl (read with sb_pkg_ref_purl) */
    const char *given_purl; /* an SBOM input's own purl for it: kept as the primary purl */
    /* enrichment (package cache, an SBOM input): */
    const char *summary, *homepage, *repository, *documentation;
    sb_licfile *licfiles; /* nlicfiles of them */
    uint32_t nlicfiles;
    /* set by sb_select() from a manifest (sb_select_opts.manifest): */
    const char *declared_in; /* features/groups/extras declaring it, comma-separated */
} sb_pkgx;

/* One package. Every reader's record is one of these, and so is the
 * selection's copy of it where the selection cannot take the record itself,
 * so its size is paid per package once or twice: counts are 32-bit, the
 * small fields share one word and what few records have is in sb_pkgx
 * (~130 bytes of model per byte of a pin-dense requirements.txt;
 * <= 250 bytes a package). */
typedef struct sb_pkg {
    /* one word of small fields, and the selection's two counts beside it */
    sb_kind kind : 8;
    sb_scope scope : 2; /* set by readers that distinguish scopes */
    bool noarch : 1, sdist : 1, editable : 1;
    bool has_purls_key : 1;     /* the input stated `purls:` at all */
    sb_lookup_state lookup : 3; /* what a license lookup did for it (set by the lookup function) */
    /* set by sb_select() from a manifest (sb_select_opts.manifest; where,
     * x->declared_in): */
    unsigned declared_via : 4; /* bits 1 << sb_scope of the declarations */
    uint32_t nprops, ndeps;    /* assigned by sb_select(): see props, deps */
    const char *name;          /* as spelled in the input */
    const char *version;       /* NULL for partial source packages */
    sb_pkgx *x;                /* NULL: none of those set (sb_pkg_xr reads either way) */
    const char *location;      /* URL, path or git+...; NULL when unknown */
    const char *file_name;     /* archive file name */
    const char *sha256;        /* lower-case hex, validated */
    /* SHA-512 in binary (64 bytes, NULL when absent): every npm package has
     * one, and its 129 bytes of hex were a fifth of a JavaScript record; read
     * it in hex with sb_pkg_hash (SHA-384 is x->sha384b) */
    const unsigned char *sha512b;
    const char *sha1;    /* lower-case hex */
    const char *license; /* raw as found */
    const char *requires_python;
    const char *index_url; /* PyPI index, when known */
    sb_strv depends;       /* dependency names, normalized; keys when `key` is set */
    const char *key;       /* identity for edges where names are ambiguous (npm:
                              * one name in several versions): when set, `depends`
                              * and the platform's root_names list other packages' keys */
    sb_strv reader_props;  /* extra pixi:* name/value pairs, flattened */

    /* assigned by sb_select(): */
    const char *purl; /* primary purl; the others are x->extra_purls */
    const char *id;   /* unique in the document (bom-ref), from sb_pkg_ref_purl */
    const char *supplier_name, *supplier_url;
    sb_prop *props;    /* nprops, sorted by name; pixi:kind is not in here */
    size_t *deps;      /* ndeps indices into sb_sbom.pkgs, sorted by id */
    const sb_lic *lic; /* `license` normalized once per selection (shared by equal strings) */
} sb_pkg;

/* p's out-of-line fields, allocated (build number and size -1) when it has
 * none yet; NULL on allocation failure. */
sb_pkgx *sb_pkg_x(sb_pkg *p, sb_arena *a);

/* p's out-of-line fields for reading: all unset when it has none. */
const sb_pkgx *sb_pkg_xr(const sb_pkg *p);

/* What p's id derives from: its own purl, which is not its purl when
 * primary-purl=pypi made a PyPI identity primary. */
const char *sb_pkg_ref_purl(const sb_pkg *p);

/* Insert name=value into the properties of a selected package, which stay
 * sorted by name (the strings are not copied): for what is learnt after
 * the selection (pixi:yanked, pixi:scorecard...). */
sb_code sb_pkg_prop_insert(sb_pkg *p, sb_arena *a, const char *name, const char *value);

/* A reader's name=value pair for p (reader_props; the strings are not
 * copied); a NULL value adds nothing. SB_ENOMEM when the pair cannot be
 * kept, also set in err when err is not NULL. */
sb_code sb_pkg_reader_prop(sb_pkg *p, sb_arena *a, const char *name, const char *value, sb_err *err);

/* Why p's license is not known, when it is not (NULL when it is stated,
 * or stated as absent): the lockfile does not record one and no lookup told
 * it, which is not "no license". The remedy is part of it. */
const char *sb_pkg_license_unknown(const sb_pkg *p);

/* The digests a package can carry, in the order documents list them. */
typedef enum sb_hash_alg {
    SB_HASH_SHA256,
    SB_HASH_MD5,
    SB_HASH_SHA512,
    SB_HASH_SHA384,
    SB_HASH_SHA1,
    SB_HASH_N
} sb_hash_alg;

/* Room for the longest digest in hex (SHA-512) and its NUL. */
typedef struct sb_hash_hex {
    char s[129];
} sb_hash_hex;

/* The lower-case hex digest of `alg`, NULL when the package has none: the
 * record's own string, or one written into *buf (the digests the record
 * keeps in binary), valid while *buf is. */
const char *sb_pkg_hash(const sb_pkg *p, sb_hash_alg alg, sb_hash_hex *buf);

/* The bytes a digest of `alg` has (sha512b, sha384b: 64, 48). */
size_t sb_hash_bytes(sb_hash_alg alg);

/* n (at most 64) bytes as lower-case hex into *buf; buf->s. */
const char *sb_hash_to_hex(sb_hash_hex *buf, const unsigned char *b, size_t n);

/* An arena copy of the n bytes of a binary digest (NULL on failure). */
const unsigned char *sb_hash_keep(sb_arena *a, const unsigned char *b, size_t n);

/* `hex` (2 x nbytes hex digits, at most 64 bytes, either case) into an arena copy in binary;
 * NULL when it is not that or out of memory. */
const unsigned char *sb_hash_from_hex(sb_arena *a, const char *hex, size_t nbytes);

/* A package's normalized license: the selection's, else normalized now. */
sb_lic sb_pkg_lic(const sb_pkg *p, sb_arena *a);

typedef struct sb_lock_platform {
    const char *name;
    sb_pkg **pkgs;
    size_t npkgs, cap;
    /* set by a reader whose records are one array, pkgs[i] == &recs[i]
     * (the JavaScript readers): a consuming selection (sb_select_opts.consume)
     * sorts and completes them in place rather than copying each */
    sb_pkg *recs;
    /* what the document root depends on, when the input says (uv's workspace
     * root, poetry's main group...): PEP 503 names. Otherwise the root edges
     * go to every package nothing else depends on. */
    bool has_root_names;
    sb_strv root_names;
    /* the reader was asked for another platform only (sb_limits.platform):
     * the name is listed, the records were never built; selecting it is
     * SB_EMISUSE */
    bool unbuilt;
} sb_lock_platform;

typedef struct sb_lock_env {
    const char *name;
    sb_strv channels;
    sb_strv indexes;
    sb_lock_platform *platforms;
    size_t nplatforms, cap;
    /* the platform a selection naming none takes when the environment
     * locks neither linux-64 nor exactly one platform (a NuGet lock's
     * newest target framework); NULL: none, such a selection is refused */
    const char *default_platform;
} sb_lock_env;

/* An SBOM input (lock_sbom.c): what names the document read, and, when it
 * is one sbomd wrote (its tool entry and its pixi:* facts), the identity and
 * provenance it states, which the documents made from it carry over
 * (doc.c: a same-format read-back is the source itself, byte for byte). */
typedef struct sb_lock_origin {
    const char *source;         /* its serial number (urn:uuid:...), SPDX 2 namespace or SPDX 3
                                document id: pixi:source-document of what is made from it; NULL: none */
    bool ours;                  /* written by sbomd; the fields below are only set then */
    const char *format;         /* the sbomd format it is in ("cyclonedx-1.6"), NULL when another */
    char serial[37];            /* its UUID ("" when it has none) */
    const char *timestamp;      /* metadata.timestamp / created as written, NULL when not RFC 3339 UTC */
    const char *kind;           /* the input kind it was made from ("pixi.lock"), NULL when unsaid */
    const char *steps, *detail; /* pixi:incomplete / pixi:incomplete-detail as stated, NULL: none */
    const char *stated_source;  /* the pixi:source-document it states itself (it was converted) */
    unsigned char sha1[20];     /* of its bytes, */
    size_t len;                 /* and their number */
} sb_lock_origin;

typedef struct sb_lock {
    const char *kind; /* "pixi.lock", ... */
    int version;      /* format version as read */
    sb_lock_env *envs;
    size_t nenvs, cap;
    size_t nrecords;                      /* package records read */
    bool kind_unsure;                     /* read by content as one of two kinds with one shape
                                (pixi.lock v1 = conda-lock.yml): no file name to record */
    const char *root_name, *root_version; /* the project, when the input names it */
    const char *lockfile_name;            /* an SBOM input: the lockfile it was made from (pixi:lockfile), else NULL */
    bool no_dep_data;                     /* the input states no dependencies at all (requirements.txt,
                                conda explicit specs): edges are unknown, not absent */
    const sb_lock_origin *origin;         /* an SBOM input: the document read, else NULL */
    const char *source_document;          /* pixi:source-document of the document: the origin's source,
                                    or a merge's parts' ("a, b"); NULL when none */
    /* A lock that cannot tell development from production (yarn: a berry
     * lock folds devDependencies into the workspace's dependencies, a classic
     * one states no root at all): its scopes are only what its optional edges
     * settle, a manifest's declarations decide over them, and its optional
     * edges are kept as record key pairs [from, to, ...] for that walk
     * (select.c manifest_scopes). */
    bool scopes_guessed;
    sb_strv opt_edges;
    const sb_incomplete *incomplete; /* what reading left out (a repository's lockfiles that did not
                                    read): every selection states it; NULL when nothing */
} sb_lock;

/* Find or add an environment / a platform of it. NULL on allocation failure. */
sb_lock_env *sb_lock_env_get(sb_lock *l, sb_arena *a, const char *name);
sb_lock_platform *sb_lock_platform_get(sb_lock_env *e, sb_arena *a, const char *name);
sb_code sb_lock_platform_add(sb_lock_platform *p, sb_arena *a, sb_pkg *pkg);

/* Look-ups that do not add; NULL when absent. */
const sb_lock_env *sb_lock_find_env(const sb_lock *l, const char *name);
const sb_lock_platform *sb_lock_find_platform(const sb_lock_env *e, const char *name);

/* Which license files a format can embed a text for. CycloneDX: every file
 * of a package with a single id, a free text or no license.
 * SPDX: only the first file of a package whose license is free text (the
 * extracted-licensing / SimpleLicensingText element); the rest by name. */
typedef enum sb_text_shape { SB_TEXTS_CYCLONEDX, SB_TEXTS_SPDX } sb_text_shape;

/* Which packages a request leaves out (core/filter.h). */
typedef struct sb_filter sb_filter;

/* One package a filter left out: name and version as in the document, and
 * why ("exclude=pytest*", "include", "exclude-kind=pypi",
 * "scope=development", "orphan"). */
typedef struct sb_excluded {
    const char *name, *version, *reason;
} sb_excluded;
typedef struct sb_sbom {
    const char *root_name, *root_version;
    const char *environment, *platform;
    const char *lockfile_name;    /* NULL when neither the client nor the content names it */
    const char *input_kind;       /* sb_lock.kind */
    const char *made_from;        /* the input kind the writers name: the original lockfile's kind
                                  an sbomd document states, else input_kind */
    const sb_lock_origin *origin; /* sb_lock.origin */
    const char *source_document;  /* sb_lock.source_document */
    sb_pkg *pkgs;                 /* sorted by (kind, name, version) */
    size_t npkgs;
    size_t *root_deps; /* indices, sorted by id */
    size_t nroot;
    sb_incomplete incomplete;     /* this document's own gaps */
    bool license_texts;           /* texts were asked for */
    long long license_text_bytes; /* total embedded */
    /* what else shaped the document, for its serial number */
    long long license_file_max, license_texts_max; /* the text budget applied (bytes) */
    bool package_cache;                            /* records were enriched from a package cache */
    bool lookups;                                  /* missing licenses were looked up in the indexes */
    /* from the manifest; all absent without one */
    const sb_author *root_authors;
    size_t nroot_authors;
    const char *root_license, *root_homepage, *root_repository, *root_documentation;
    const char *manifest_digest; /* hex SHA-1 of the manifest read, for the serial */
    bool manifest;               /* a manifest was read */
    size_t ndeclared;            /* packages the manifest declares that are present */
    sb_strv declared_missing;    /* names it declares that the environment lacks */
    const sb_filter *filter;     /* the filter applied (NULL when none was active) */
    sb_excluded *excluded;       /* what it left out, model order */
    size_t nexcluded;
    /* license policy (core/policy.h), when one was applied: */
    const struct sb_policy_verdict *policy; /* one per package, NULL without a policy */
    const char *policy_key;                 /* canonical text of the policy, for the serial */
    bool deps_unknown;                      /* the input has no dependency data (sb_lock.no_dep_data) */
    const sb_author *author;                /* SBOM author, NULL when none was given */
    const char *pypi_mapping;               /* digest of the PyPI mapping applied, NULL = none */
    bool primary_pypi;                      /* primary-purl=pypi */
    bool vulns_asked;                       /* vulnerabilities=osv: findings were looked for */
    bool kev_asked, epss_asked;             /* kev=true / epss=true: findings annotated */
    const char *vex_digest;                 /* a VEX document applied (serial) */
    struct sb_vuln *vulns;                  /* merged findings, worst first (vuln.h) */
    size_t nvulns;
    bool yanked_asked, outdated_asked; /* yanked=true / the outdated report: health was looked for */
    struct sb_health *health;          /* one per package (health.h), NULL when not looked for */
    bool scorecard_asked;              /* scorecard=true: pixi:scorecard* properties */
    double scorecard_min;              /* scorecard-min, < 0 when not given */
    struct sb_scorecard *scorecard;    /* one per package (scorecard.h), NULL when not looked for */
} sb_sbom;

/* 1 when `url` is a registry tarball (http(s), ".../<name>/-/<file>.tgz"):
 * the package is then the registry's name@version, not another source. */
int sb_model_npm_registry(const char *url);

/* PEP 503 name normalization into the arena. */
char *sb_model_pep503(sb_arena *a, const char *name);

/* The same, but `name` itself when it is normalized already (most are):
 * nothing allocated for it. NULL when out of memory. */
const char *sb_model_pep503_or_same(sb_arena *a, const char *name);

#endif
