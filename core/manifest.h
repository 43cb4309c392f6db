/*
 * manifest.h - what a project declares: the workspace manifest
 * sent beside a lockfile (pixi.toml, pyproject.toml, environment.yml,
 * package.json) read into one small model: the document root's metadata
 * and the dependencies the project asked for, each with the feature, group
 * or extra that declares it and the scope that gives it.
 *
 * The model knows nothing of lockfiles; sb_select() matches it
 * against the selected packages (sb_select_opts.manifest).
 */
#ifndef SB_MANIFEST_H
#define SB_MANIFEST_H

#include "arena.h"
#include "err.h"
#include "lock.h"
#include "model.h"
#include "strmap.h"

#include <stdbool.h>
#include <stddef.h>

/* Which packages a declared name can match. */
typedef enum sb_mdep_eco {
    SB_MDEP_CONDA, /* conda matchspec: conda packages (lower-case name) */
    SB_MDEP_PYPI,  /* PEP 508: PyPI packages (PEP 503 name), then conda ones */
    SB_MDEP_NPM    /* package.json: npm packages by name */
} sb_mdep_eco;

typedef struct sb_mdep {
    const char *name;    /* normalized: PEP 503 for PyPI, lower-case for conda, as is for npm */
    const char *feature; /* pixi feature, dependency group or extra; "default" for the base list */
    sb_scope scope;      /* REQUIRED, OPTIONAL (extra) or DEVELOPMENT (group) */
    sb_mdep_eco eco;
} sb_mdep;

/* A pixi environment: the features it combines. */
typedef struct sb_menv {
    const char *name;
    sb_strv features;
    bool no_default; /* no-default-feature = true */
} sb_menv;

typedef struct sb_manifest {
    const char *kind; /* "pixi.toml", "pyproject.toml", "environment.yml", "package.json" */
    const char *name, *version;
    sb_author *authors;
    size_t nauthors;
    const char *license; /* raw; normalized by the writers' license code */
    const char *homepage, *repository, *documentation;
    sb_mdep *deps;
    size_t ndeps, dcap;
    bool pixi; /* features are pixi features: environments pick them */
    sb_menv *envs;
    size_t nenvs, ecap;
    unsigned char sha1[20]; /* of the manifest bytes, for the document serial */
} sb_manifest;

/* Which kind a manifest file name says ("pixi.toml", ...); NULL when none. */
const char *sb_manifest_kind(const char *filename);

/*
 * Read a manifest. `filename` says its kind (sb_manifest_kind). Errors:
 * SB_EFORMAT when it cannot be read as a manifest (unknown kind, not the
 * shape a manifest has) - the caller warns and goes on without it;
 * SB_EPARSE with err->line/column when the text is malformed (TOML, YAML or
 * JSON syntax, an include-group cycle); SB_ELIMIT / SB_ENOMEM as usual.
 */
sb_code sb_manifest_read(sb_manifest **out, sb_arena *a, const char *filename, const char *data, size_t len,
                         const sb_limits *lim, sb_err *err);

/* author rule: split on the last '<'; when the rest ends with '>'
 * the inside is the email; an empty name falls back to the email; no
 * brackets: the whole string is the name. 0 for a blank string. */
int sb_manifest_author(sb_arena *a, const char *s, sb_author *out);

/* Whether feature `f` is part of environment `env` (pixi manifests; any
 * other manifest declares for every environment). */
bool sb_manifest_in_env(const sb_manifest *m, const char *env, const char *f);

/* The answer of sb_manifest_in_env for one environment, its features
 * indexed once (sb_manifest_env_index) so that each dependency's check is
 * one lookup, not a scan of the environment's feature list. */
typedef struct sb_menv_index {
    bool all;        /* not a pixi manifest: every feature counts */
    bool defined;    /* the manifest defines the environment */
    bool no_default; /* ... with no-default-feature */
    const char *env;
    sb_strmap features; /* defined: its features */
} sb_menv_index;

sb_code sb_manifest_env_index(sb_menv_index *x, const sb_manifest *m, const char *env, sb_arena *scratch);
bool sb_manifest_env_has(const sb_menv_index *x, const char *f);

#endif
