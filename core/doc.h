/*
 * doc.h - the one writer interface shared by every output format.
 *
 * A document is produced by a resumable producer: sb_doc_produce(doc, buf,
 * cap) fills the caller's buffer with the next bytes and returns how many;
 * 0 means the document is complete. The producer keeps only a cursor (phase,
 * index) and a small staging buffer holding at most one piece (a component,
 * a relationship) that did not fit yet, so memory does not grow with the
 * document. Output is identical for any buffer size.
 *
 * A format is an sb_doc_ops: callbacks that each emit one bounded piece
 * through the shared JSON emitter (jsonw). Adding a format is adding one
 * file with one sb_doc_ops; nothing here changes.
 */
#ifndef SB_DOC_H
#define SB_DOC_H

#include "arena.h"
#include "buf.h"
#include "err.h"
#include "jsonw.h"
#include "model.h"

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>
#include <time.h>

typedef struct sb_doc sb_doc;

/* The two sections written piece by piece: one per package, then the
 * relations (sb_doc_ops.component, .relation). */
typedef enum { SB_DOC_COMPONENTS, SB_DOC_RELATIONS } sb_doc_section;

/* One output: its descriptor (what clients call it, how it is negotiated,
 * what it can hold) beside the writer's phases. Defined next to each writer
 * with designated initializers; sb_doc_formats() lists the documents. */
typedef struct sb_doc_ops {
    const char *name;                 /* "cyclonedx-1.6" */
    const char *media_type;           /* Content-Type of the document */
    const char *ext;                  /* ".cdx.json"; NULL: no identifier (reports) */
    sb_text_shape text_shape;         /* which license files it can embed a text for */
    const char *const *aliases;       /* other names format= takes ("cyclonedx", "cdx"); NULL-terminated or NULL */
    const char *media_base;           /* Accept type without parameters ("application/vnd.cyclonedx+json") */
    const char *const *versions;      /* Accept version= values that pick it, canonical first */
    const char *const *media_aliases; /* other Accept types that pick it ("application/ld+json") */
    bool family_default;              /* picked by media_base without version= */
    /* A document about another one (output=vex): the format of the SBOM its
     * BOM-Links point into; that SBOM's serial is d->link_serial. NULL else. */
    const struct sb_doc_ops *links_into;
    /* all-environments / all-platforms: one document holding every selection
     * (sb_doc_new_joined), not NDJSON. A GitHub snapshot is one submission:
     * two with one correlator replace each other, so a sequence would keep
     * only its last line. */
    bool joins_selections;
    /* picked only by its name or its own media type, never by a wildcard or
     * application/json: it is no SBOM, and asks for parameters of its own */
    bool named_only;
    /* a report's output (sb_report_output, report.h: 0 = JSON), so a report
     * reads what it writes instead of comparing descriptors */
    int report_output;
    /* what the handlers ask of a format, so none compares descriptors: */
    const char *title;                         /* "CycloneDX 1.6", "SPDX 2.3": for sentences */
    const char *spec_version;                  /* the specification's version it writes ("1.7"); NULL: none */
    bool drops_findings;                       /* no place for vulnerability findings (SPDX 2.3, a snapshot) */
    const struct sb_doc_ops *vex;              /* output=vex: the VEX document of this SBOM format; NULL: none */
    bool snapshot;                             /* takes sb_doc_opts.snapshot (sha, ref, correlator, job-id) */
    sb_code (*begin)(sb_doc *d);               /* everything before the first component */
    sb_code (*component)(sb_doc *d, size_t i); /* package i of the model */
    sb_code (*middle)(sb_doc *d);              /* between components and relations */
    size_t (*relation_count)(const sb_doc *d);
    sb_code (*relation)(sb_doc *d, size_t i); /* relation piece i */
    sb_code (*end)(sb_doc *d);                /* to the end of the document */
    /* Pieces that may be written on two threads at once (doc.c, "Two
     * cores"): the end of the run of `section`'s pieces starting at i that
     * each write only through d->jw and d->tmp, read nothing any other
     * piece writes, and are each one element of one array that already
     * holds one; i itself when i starts no such run. NULL: none. */
    size_t (*par_run_end)(const sb_doc *d, sb_doc_section section, size_t i);
} sb_doc_ops;

typedef struct sb_doc_opts {
    time_t timestamp;  /* creation time written into the document */
    bool pretty;       /* indented (default) or compact (NDJSON) */
    const char *input; /* the lockfile bytes, for the serial number */
    size_t input_len;
    unsigned tree_levels;                   /* tree report: levels shown (1 = direct only), 0 = all */
    const unsigned char *input_sha1;        /* the input's SHA-1 when known: `input` is not read */
    unsigned quality_profiles;              /* quality report: bit per sb_quality_profile, 0 = all */
    const char *explain_package;            /* explain report: the package name asked about */
    bool timestamp_given;                   /* the request named the timestamp: it wins over a source's (doc.c) */
    const struct sb_doc_snapshot *snapshot; /* github-snapshot: what the client states; NULL elsewhere */
    bool by_lockfile;   /* joined selections are a repository's lockfiles, one each: each is named by its path */
    size_t par_buf_cap; /* bytes a job writes before it stops (doc.c, "Two cores"); 0: the default. For tests */
} sb_doc_opts;

/* What a GitHub dependency snapshot states that no lockfile holds: the
 * commit and job it was made for (the client's, checked by the service) and
 * the detector. NULL strings are absent. */
typedef struct sb_doc_snapshot {
    const char *sha, *ref;           /* 40 (or 64) hex digits; "refs/..." */
    const char *correlator, *job_id; /* job.correlator, job.id */
    const char *job_url;             /* job.html_url */
    const char *source_location;     /* file.source_location; NULL: the lockfile's name */
    const char *detector_url;        /* detector.url; NULL: the tool's purl */
} sb_doc_snapshot;

struct sb_doc {
    const sb_doc_ops *ops;
    const sb_sbom *sbom;
    sb_arena *arena; /* what lives as long as the document (a format's state) */
    sb_arena *tmp;   /* what one piece needs while it is written (element ids,
                                * escaped URLs, comments): emptied before each piece, so
                                * memory does not grow with the output (sb_doc_free frees it) */
    sb_doc_opts opts;
    sb_jw jw; /* writes into `stage` */
    sb_buf stage;
    size_t stage_off; /* bytes of stage already handed out */
    int phase;
    size_t index;
    char serial[37];                /* UUIDv5 of the input and all else that shapes the bytes (doc.c) */
    char link_serial[37];           /* ops->links_into: the serial of the SBOM that document would be */
    unsigned char input_digest[20]; /* SHA-1 of the input, once per request */
    char timestamp[24];             /* RFC 3339 UTC, whole seconds */
    char ts_request[24];            /* the request's timestamp (a source's may replace it per document) */
    bool is_source;                 /* the document is its input, an sbomd document, again (doc.c) */
    const char *source_doc;         /* document-level pixi:source-document, NULL: none */
    sb_err err;
    void *fmt;                 /* a format's own precomputed state (arena) */
    size_t cur_a, cur_b;       /* a format's own cursor within a phase */
    const sb_sbom *const *seq; /* NDJSON: the documents after this one */
    size_t nseq, iseq;
    bool joined;            /* seq is one document's parts (sb_doc_new_joined), not NDJSON lines */
    struct sb_doc_par *par; /* pieces written on two threads (doc.c); NULL until used */
};

/* Formats, NULL-terminated; the first is the default (format= and Accept
 * absent, application/json, wildcards). */
const sb_doc_ops *const *sb_doc_formats(void);
/* By name or alias, case-insensitive; NULL when none. */
const sb_doc_ops *sb_doc_find(const char *name);
/* By an Accept media range's type (no parameters) and version= (NULL when
 * absent); wildcards and application/json pick the default. NULL: none. */
const sb_doc_ops *sb_doc_find_media(const char *type, const char *version);

/* New producer for `sbom` in the named format. The sb_doc lives in the arena
 * but holds a heap staging buffer: call sb_doc_free() when done. */
sb_code sb_doc_new(sb_doc **out, sb_arena *a, const sb_doc_ops *ops, const sb_sbom *sbom, const sb_doc_opts *opts,
                   sb_err *err);

/* Fill buf with up to cap bytes: >0 bytes written, 0 = complete, -1 = error
 * (details in doc->err). */
ssize_t sb_doc_produce(sb_doc *d, char *buf, size_t cap);

/* A sequence of documents as NDJSON: each compact, each followed by "\n",
 * produced one after the other through the same sb_doc_produce() (only one
 * is ever staged, so memory does not grow with their number). n >= 1. */
sb_code sb_doc_new_seq(sb_doc **out, sb_arena *a, const sb_doc_ops *ops, const sb_sbom *const *sboms, size_t n,
                       const sb_doc_opts *opts, sb_err *err);

/* One document over several selections, for formats that join them
 * (ops->joins_selections): the producer runs begin once, then each
 * selection's components, middle and relations with d->sbom and d->iseq set
 * to it, then end once. n >= 1. */
sb_code sb_doc_new_joined(sb_doc **out, sb_arena *a, const sb_doc_ops *ops, const sb_sbom *const *sboms, size_t n,
                          const sb_doc_opts *opts, sb_err *err);

void sb_doc_free(sb_doc *d);

/* The supported formats as a JSON document ({"formats": [{name, media_type,
 * default}], "default": name}) into the arena. */
sb_code sb_doc_formats_json(const char **out, size_t *len, sb_arena *a);

/* Helpers for format files. */
/* The input kind the document says it was made from (sb_sbom.made_from). */
const char *sb_doc__made_from(const sb_doc *d);
const char *sb_doc__uri(sb_doc *d, const char *s); /* percent-encode what a URI may not hold */

/* A license file's text as one JSON string value, streamed from the file in
 * bounded reads (invalid UTF-8 replaced by the writer: the spec's lossy
 * decode). At most f->text_len bytes: the budget was decided for that size. */
void sb_doc__file_text(sb_doc *d, const sb_licfile *f);

/* The first 8 hex digits of UUIDv5(OID namespace, the file's embedded bytes),
 * naming an SPDX element for that text; "00000000" if unreadable. */
const char *sb_doc__text_h8(sb_doc *d, const sb_licfile *f);

/* How a format writes a package's hashes: the array's key, each entry's
 * "type" value (NULL: no type key), its algorithm and value keys, and the
 * format's names of sb_hash_alg in that enum's order. */
typedef struct sb_doc_hash_shape {
    const char *key, *type, *alg_key, *value_key;
    const char *names[SB_HASH_N];
} sb_doc_hash_shape;

/* The package's hashes in the shape, strongest first as sb_hash_alg orders
 * them; nothing at all when it has none. */
void sb_doc__hashes(sb_jw *jw, const sb_pkg *p, const sb_doc_hash_shape *shape);

extern const sb_doc_ops sb_doc_cyclonedx_16;
extern const sb_doc_ops sb_doc_cyclonedx_17;
/* output=vex: component-less CycloneDX VEX documents whose affects refs are
 * BOM-Links into the cyclonedx-1.6 / 1.7 SBOM of the same request;
 * not in sb_doc_formats(): format= and Accept never pick them. */
extern const sb_doc_ops sb_doc_cyclonedx_vex_16;
extern const sb_doc_ops sb_doc_cyclonedx_vex_17;
extern const sb_doc_ops sb_doc_spdx_23;
extern const sb_doc_ops sb_doc_spdx_301;
extern const sb_doc_ops sb_doc_github_snapshot;

#endif
