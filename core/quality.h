/*
 * quality.h - the minimum elements of three SBOM profiles (CISA 2026
 * Minimum Elements, BSI TR-03183-2 v2.1.0, NTIA 2021) as one table of
 * rules, scored over the model a document is written from.
 *
 * Each element is a rule over the document (author, timestamp, ...) or over
 * every component (version, hash, license, ...), with the section of each
 * profile it comes from. Scoring says per element how many components carry
 * it, the first ones that do not and why (the lockfile does not hold it,
 * lookups were off, a lookup failed, the operator gave none), and per
 * profile whether every one of its elements is met. The report
 * (report_quality.c) and the `fail-on-quality` gate read the same score.
 * No HTTP here; everything lives in the caller's arena.
 */
#ifndef SB_QUALITY_H
#define SB_QUALITY_H

#include "arena.h"
#include "err.h"
#include "gate.h"
#include "model.h"

#include <stdbool.h>
#include <stddef.h>

typedef enum sb_quality_profile {
    SB_QP_CISA_2026, /* "cisa-2026" */
    SB_QP_BSI,       /* "bsi-tr-03183-2" */
    SB_QP_NTIA_2021, /* "ntia-2021" */
    SB_QP_N
} sb_quality_profile;

/* Why a component (or the document) lacks an element. */
typedef enum sb_quality_reason {
    SB_QR_NONE = 0,
    SB_QR_NOT_IN_INPUT,  /* "not in the lockfile": the input cannot supply it */
    SB_QR_LOOKUPS_OFF,   /* "lookups off": an index lookup could, none was made */
    SB_QR_LOOKUP_FAILED, /* "lookup failed": asked, no answer in time (or past the limit) */
    SB_QR_WITHHELD,      /* "withheld": left out on purpose (a filter) */
    SB_QR_NOT_GIVEN,     /* "not given": the operator / request supplies it (author) */
    SB_QR_N
} sb_quality_reason;

typedef struct sb_quality_element {
    const char *id;              /* "component-hash" */
    const char *title;           /* "Component hash" */
    bool document;               /* one per document, not per component */
    const char *rule;            /* what counts as present, one sentence */
    const char *source[SB_QP_N]; /* the profile's section; NULL: not in that profile */
    /* SB_QR_NONE when present, else why not (p is NULL for document elements) */
    sb_quality_reason (*lacks)(const sb_sbom *s, const sb_pkg *p);
    /* what supplies it when the input does not (NULL: always present) */
    const char *remedy;
} sb_quality_element;

/* The first components named as lacking an element. */
#define SB_QUALITY_FIRST 10

typedef struct sb_quality_result {
    const sb_quality_element *el;
    size_t total, have; /* components (1 for a document element) */
    size_t nfirst;
    size_t first[SB_QUALITY_FIRST]; /* package indices (document: unused) */
    sb_quality_reason first_why[SB_QUALITY_FIRST];
    size_t by_reason[SB_QR_N]; /* lacking, counted per reason */
} sb_quality_result;

typedef struct sb_quality {
    sb_quality_result *res; /* one per element, table order */
    size_t n;
    bool pass[SB_QP_N];
} sb_quality;

/* The element table, and its length. */
const sb_quality_element *sb_quality_elements(size_t *n);

const char *sb_quality_profile_name(sb_quality_profile p);
/* 0 and *out for "cisa-2026", "bsi-tr-03183-2", "ntia-2021"; -1 otherwise. */
int sb_quality_profile_find(const char *name, sb_quality_profile *out);
/* "not in the lockfile", "lookups off", ... ("" for SB_QR_NONE). */
const char *sb_quality_reason_name(sb_quality_reason r);

/* Score the model. */
sb_code sb_quality_score(sb_quality *q, sb_arena *a, const sb_sbom *s);

/* What to do about element `el` lacking for reason `why`: a lookup's
 * remedy when lookups were off or failed, else the element's own. */
const char *sb_quality_remedy(const sb_quality_element *el, sb_quality_reason why);

/* One finding per element of profile `p` that is not met (rule
 * "<profile>:<element>", value "<have>/<total>", reason the counts per
 * reason, remedy what supplies it for the most common reason, pkgs the first
 * SB_QUALITY_FIRST lacking components with why, count how many lack it). */
sb_code sb_quality_gate(sb_gate *g, sb_arena *a, const sb_sbom *s, const sb_quality *q, sb_quality_profile p);

#endif
