/*
 * vuln.h - vulnerability findings in the model: OSV's
 * answers turned into merged findings each writer and report streams.
 *
 * Core has no HTTP: the service fetches (service/lookup/lookup.c) and hands the
 * bodies here. The order of work: sb_vuln_queries() lists what a selection
 * may ask OSV about; sb_osv_batch_body() / sb_osv_batch_parse() are one
 * querybatch chunk; sb_osv_record_parse() reads one advisory; finally
 * sb_vuln_attach() merges twins (GHSA/PYSEC sharing an alias), points
 * each at the packages it affects and sorts them worst first into the
 * sbom. Everything lives in the request arena.
 */
#ifndef SB_VULN_H
#define SB_VULN_H

#include "arena.h"
#include "err.h"
#include "model.h"

#include <stddef.h>

/* Severity, ordered so that a larger value is worse. */
typedef enum sb_sev { SB_SEV_UNKNOWN = 0, SB_SEV_NONE, SB_SEV_LOW, SB_SEV_MEDIUM, SB_SEV_HIGH, SB_SEV_CRITICAL } sb_sev;

/* "critical", "high", ... "unknown" (CycloneDX's words). */
const char *sb_sev_name(sb_sev s);
/* From a word in any case ("MODERATE" = medium); SB_SEV_UNKNOWN otherwise. */
sb_sev sb_sev_parse(const char *s);
/* From a CVSS score (the CVSS v3 qualitative scale). */
sb_sev sb_sev_of_score(double score);

/* A CVSS v3.0 / v3.1 base score from its vector ("CVSS:3.1/AV:N/..."),
 * computed by the FIRST specification's formula; -1 when the vector is not
 * a complete v3 base vector. */
double sb_cvss3_base(const char *vector);

typedef struct sb_vuln_rating {
    const char *method; /* CycloneDX: "CVSSv31", "CVSSv3", "CVSSv4", "CVSSv2", "other" */
    const char *vector; /* NULL for "other" */
    double score;       /* < 0: none */
    sb_sev severity;
} sb_vuln_rating;

typedef struct sb_vuln_ref {
    const char *type, *url; /* OSV reference type (ADVISORY, WEB, ...) and URL */
} sb_vuln_ref;

/* One advisory as OSV gives it, or a merged finding. */
typedef struct sb_vuln {
    const char *id;
    sb_strv aliases; /* every other id it is known by (merged twins' ids too) */
    const char *summary, *details;
    const char *published, *modified; /* normalized YYYY-MM-DDThh:mm:ssZ, NULL when unparsable */
    sb_vuln_rating *ratings;
    size_t nratings;
    int *cwes;
    size_t ncwes;
    sb_vuln_ref *refs;
    size_t nrefs;
    /* affected packages as OSV lists them: PEP 503 / npm names with their
     * fixed versions (one per name, the lowest the record names) */
    const char **aff_names, **aff_fixed, **aff_eco;
    size_t naff;
    int record; /* 0: the record could not be fetched, only the id is known */
    /* filled by sb_vuln_attach: */
    size_t *affects; /* package indices into the sbom, sorted */
    size_t naffects;
    const char *recommendation; /* "Upgrade jinja2 to 2.10.1" */
    sb_sev severity;            /* worst rating */
    double score;               /* best-known CVSS score, < 0 none */
    /* filled by sb_kev_apply / sb_epss_apply (exploit.c) when asked: */
    int kev; /* listed in the CISA KEV catalog */
    const char *kev_cve, *kev_added, *kev_due, *kev_ransomware;
    double epss, epss_pct;                                        /* FIRST EPSS probability / percentile, < 0 none */
    const char *epss_text, *epss_pct_text, *epss_cve, *epss_date; /* as the API wrote them */
    /* filled by sb_vex_apply (vex.c) when a VEX document names the finding: */
    const char *vex_state; /* CycloneDX analysis.state: not_affected, fixed (resolved), ... */
    const char *vex_justification, *vex_detail, *vex_source;
} sb_vuln;

/* A finding a VEX statement settled (not_affected, resolved, false_positive):
 * shown, but no gate fires for it. */
int sb_vuln_accepted(const sb_vuln *v);

/* One purl OSV is asked about, and the package it stands for. */
typedef struct sb_vuln_query {
    const char *purl;
    size_t pkg;
} sb_vuln_query;

/* What a selection may ask OSV: each package's PyPI (index, or mapped) and
 * npm (registry) purls with a version; never conda, local or VCS ones. */
sb_code sb_vuln_queries(const sb_sbom *s, sb_arena *a, sb_vuln_query **out, size_t *n);

/* The body of one querybatch: {"queries":[{"package":{"purl":...}},...]}. */
sb_code sb_osv_batch_body(sb_arena *a, const sb_vuln_query *q, size_t n, const char **body, size_t *len);

/* A querybatch answer for n queries: ids[i] (strv) per query. SB_EPARSE
 * when it is not one, or answers another number of queries. */
sb_code sb_osv_batch_parse(sb_arena *a, const char *json, size_t len, size_t n, sb_strv *ids);

/* Further pages (OSV pagination): a querybatch body whose query k asks
 * q[idx[k]] again with "page_token": tokens[k]. */
sb_code sb_osv_batch_page_body(sb_arena *a, const sb_vuln_query *q, const size_t *idx, const char *const *tokens,
                               size_t n, const char **body, size_t *len);

/* sb_osv_batch_parse(), and next[i] the query's next_page_token (NULL when
 * its answer is complete): the same query with that page_token asks for the
 * rest. next may be NULL. */
sb_code sb_osv_batch_parse_pages(sb_arena *a, const char *json, size_t len, size_t n, sb_strv *ids, const char **next);

/* One OSV record (GET /v1/vulns/{id}). SB_EPARSE when it is not one. */
sb_code sb_osv_record_parse(sb_arena *a, const char *json, size_t len, sb_vuln *out);

/* Findings for the selection: `recs` are the distinct advisories (those whose
 * record did not come have record = 0 and only their id), hits[i] the ids
 * OSV returned for query q[i]. Twins merge by shared id/alias. Sets
 * s->vulns / s->nvulns, worst first then id. */
sb_code sb_vuln_attach(sb_sbom *s, sb_arena *a, const sb_vuln_query *q, const sb_strv *hits, size_t nq, sb_vuln *recs,
                       size_t nrecs);

/* The vulnerability gate (fail-on-severity / fail-on-kev / fail-on-epss):
 * one finding per affected package of each open finding rated `min` or
 * worse (min = SB_SEV_UNKNOWN: no severity gate), listed in the KEV catalog
 * (`kev`), or with an EPSS probability >= epss_min (< 0: no EPSS gate).
 * Findings a VEX statement settled (sb_vuln_accepted) never fail. */
struct sb_gate;
sb_code sb_vuln_gate(const sb_sbom *s, sb_arena *a, sb_sev min, int kev, double epss_min, struct sb_gate *g);

/* "https://osv.dev/vulnerability/<id>" */
const char *sb_vuln_url(sb_arena *a, const char *id);

#endif
