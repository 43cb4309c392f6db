/*
 * doc.c - the producer loop shared by every format.
 *
 * DESIGN: phases BEGIN, COMPONENTS(i), MIDDLE, RELATIONS(i), END, DONE. When
 * the staging buffer is drained, the next piece is generated into it; then
 * as much as fits is copied out. A piece is one component or relation, so
 * the stage holds one small piece at a time whatever the document's size.
 *
 * Two cores: a long run of pieces a format marks as independent (its
 * components, CycloneDX's dependency objects) is written in batches by two
 * jobs at once (par.h), each into its own buffer through its own copy of
 * the producer, whose JSON emitter starts in the state every element of the
 * array is written in. The buffers are handed out in order, so the bytes
 * are those one thread writes. A job stops past PAR_BUF_CAP bytes and the
 * producer writes the rest of its batch itself, piece by piece, before the
 * next buffer: memory stays a few batches whatever the document's size.
 */
#include "doc.h"
#include "filter.h"
#include "par.h"
#include "uuid.h"
#include "version.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

enum { PH_BEGIN, PH_COMPONENTS, PH_MIDDLE, PH_RELATIONS, PH_END, PH_DONE };

/* Fewer pieces than this are written on one thread: a small request pays
 * nothing for the pool. */
#define PAR_MIN_PIECES 256
#define PAR_BATCH 128                   /* pieces one job writes */
#define PAR_BUF_CAP ((size_t)256 << 10) /* a job stops past this many bytes */
#define PAR_JOBS 2

typedef struct par_slot {
    sb_doc sh; /* the job's own copy of the producer: its jw writes into out */
    sb_buf out;
    sb_arena *tmp;
    size_t from, to, stop; /* its batch, and where it stopped */
    int phase;
    sb_code rc;
} par_slot;

struct sb_doc_par {
    par_slot slot[PAR_JOBS];
    size_t n, cur; /* slots the last run filled; the one being handed out */
    bool handed;   /* cur's buffer is in the stage */
};

static const sb_doc_ops *const formats[] = {
    &sb_doc_cyclonedx_16, &sb_doc_cyclonedx_17, &sb_doc_spdx_23, &sb_doc_spdx_301, &sb_doc_github_snapshot, NULL,
};

const sb_doc_ops *const *sb_doc_formats(void)
{
    return formats;
}

static bool in_list(const char *const *list, const char *s)
{
    for (size_t i = 0; list && list[i]; i++)
        if (!strcasecmp(list[i], s))
            return true;
    return false;
}

const sb_doc_ops *sb_doc_find(const char *name)
{
    for (size_t i = 0; formats[i]; i++)
        if (!strcasecmp(formats[i]->name, name) || in_list(formats[i]->aliases, name))
            return formats[i];
    return NULL;
}

const sb_doc_ops *sb_doc_find_media(const char *type, const char *version)
{
    if (!strcasecmp(type, "application/json") || !strcmp(type, "*/*") || !strcasecmp(type, "application/*"))
        return formats[0];
    for (size_t i = 0; formats[i]; i++) {
        const sb_doc_ops *f = formats[i];
        if (in_list(f->media_aliases, type))
            return f;
        if (!f->media_base || strcasecmp(f->media_base, type))
            continue;
        if (version ? in_list(f->versions, version) : f->family_default)
            return f;
    }
    return NULL;
}

/* Fixed namespace of sbomd's document identifiers. */
static const char serial_ns[] = "6b1f7f0a-3d0e-5c3a-9e2b-7f1c2d4e5a60";

/* One named part of the serial's name: "key=value" and a NUL, or "key"
 * and a NUL when absent, so an absent value differs from an empty one and
 * no two parts can run into each other. */
static void serial_part(sb_sha1 *c, const char *key, const char *value)
{
    static const char nul = '\0';
    sb_sha1_update(c, key, strlen(key));
    if (value) {
        sb_sha1_update(c, "=", 1);
        sb_sha1_update(c, value, strlen(value));
    }
    sb_sha1_update(c, &nul, 1);
}

static void serial_num(sb_sha1 *c, const char *key, long long v)
{
    char num[24];
    snprintf(num, sizeof num, "%lld", v);
    serial_part(c, key, num);
}

/*
 * The serial number (CycloneDX serialNumber, SPDX namespaces and ids) names
 * one document: a UUIDv5 over the input's digest (hashed once per request,
 * however many documents it yields) and everything else that changes the
 * document's bytes - the format and its version, the input kind and the
 * recorded file name, the selection, the root's name and version, the
 * timestamp, indentation, the license-text request and its budget, and
 * whether a package cache and index lookups filled the records. Identical
 * requests get identical serials; two documents that differ anywhere do
 * not share one: CycloneDX 1.6 and 1.7 of one input do not share an
 * identifier either.
 */
/* Every filter option, in a fixed order; patterns in the order given (the
 * first exclude pattern that matches names the reason, so order shows). */
static void serial_filter(sb_sha1 *c, const sb_filter *f)
{
    for (size_t i = 0; i < f->ninclude; i++)
        serial_part(c, "include", f->include[i]);
    for (size_t i = 0; i < f->nexclude; i++)
        serial_part(c, "exclude", f->exclude[i]);
    for (const char *const *k = sb_filter_kind_names(); *k; k++)
        if (f->kinds & sb_filter_kind_bit(*k))
            serial_part(c, "exclude-kind", *k);
    serial_part(c, "scope", f->required_only ? "required" : "all");
    serial_part(c, "keep-orphans", f->keep_orphans ? "true" : "false");
}

static void make_serial(sb_doc *d, const char *format, bool vex, char out[37])
{
    const sb_sbom *s = d->sbom;
    unsigned char ns[16];
    sb_uuid_parse(ns, serial_ns);
    sb_sha1 c;
    sb_uuid_v5_begin(&c, ns);
    static const char nul = '\0';
    sb_sha1_update(&c, d->input_digest, sizeof d->input_digest);
    sb_sha1_update(&c, &nul, 1);
    serial_part(&c, "sbomd", SB_VERSION);
    serial_part(&c, "format", format);
    serial_part(&c, "kind", s->input_kind);
    serial_part(&c, "lockfile", s->lockfile_name);
    serial_part(&c, "environment", s->environment);
    serial_part(&c, "platform", s->platform);
    serial_part(&c, "name", s->root_name);
    serial_part(&c, "version", s->root_version);
    serial_part(&c, "timestamp", d->timestamp);
    serial_part(&c, "pretty", d->opts.pretty ? "true" : "false");
    serial_part(&c, "package-cache", s->package_cache ? "true" : "false");
    serial_part(&c, "lookups", s->lookups ? "true" : "false");
    serial_part(&c, "license-texts", s->license_texts ? "true" : "false");
    if (s->manifest_digest) /* only with a manifest: lockfile-only serials stay as they were */
        serial_part(&c, "manifest", s->manifest_digest);
    if (s->author) { /* absent adds nothing: documents without one keep their serials */
        serial_part(&c, "author-type", s->author->person ? "person" : "organization");
        serial_part(&c, "author", s->author->name);
        serial_part(&c, "author-email", s->author->email);
    }
    /* absent unless used: documents without them keep their serials */
    if (s->pypi_mapping)
        serial_part(&c, "pypi-mapping", s->pypi_mapping);
    if (s->primary_pypi)
        serial_part(&c, "primary-purl", "pypi");
    if (s->vulns_asked)
        serial_part(&c, "vulnerabilities", "osv");
    if (s->yanked_asked) /* pixi:yanked properties */
        serial_part(&c, "yanked", "true");
    if (s->scorecard_asked) { /* pixi:scorecard* properties */
        serial_part(&c, "scorecard", "true");
        if (s->scorecard_min >= 0) {
            char m[16];
            snprintf(m, sizeof m, "%.1f", s->scorecard_min);
            serial_part(&c, "scorecard-min", m);
        }
    }
    if (s->kev_asked) /* pixi:kev* properties */
        serial_part(&c, "kev", "true");
    if (s->epss_asked)
        serial_part(&c, "epss", "true");
    if (s->vex_digest) /* analysis from a VEX document */
        serial_part(&c, "vex", s->vex_digest);
    if (s->license_texts) { /* the budget matters only when texts are written */
        serial_num(&c, "license-file-max", s->license_file_max);
        serial_num(&c, "license-texts-max", s->license_texts_max);
    }
    if (s->filter) /* only an active filter: unfiltered serials stay as they were */
        serial_filter(&c, s->filter);
    if (s->policy_key) /* a policy adds pixi:license-* properties */
        serial_part(&c, "license-policy", s->policy_key);
    if (vex)
        serial_part(&c, "output", "vex");
    sb_uuid_v5_finish(&c, out);
}

/*
 * Identity carried over. A document sbomd wrote, read back
 * and written again in its own format with nothing that changes it, is that
 * document: it keeps the source's serial, so the answer is the source byte
 * for byte. CycloneDX lets one BOM keep its serialNumber while its content
 * is the same (only a changed BOM needs a new serial or version); SPDX asks
 * that a documentNamespace be unique to one document's content. Both hold
 * because the serial is carried only when the bytes are the same: the
 * document is written once with the source's serial into a digest and
 * compared with the source's (same length, same SHA-1), so any option,
 * server setting or model difference that changes a byte falls back to the
 * serial make_serial() computes, which covers all of them. Anything else
 * made from an sbomd document (another format, a filter, a policy, a merge)
 * is a new document with its own serial that names its source
 * (pixi:source-document); it keeps the source's provenance, though: its
 * timestamp (unless timestamp= was given), the lockfile kind it was made
 * from, and the gaps it stated (select.c), so that a conversion says what
 * the direct path from the lockfile says.
 */
static int reproduces_source(sb_doc *d, const sb_doc_ops *ops)
{
    const sb_lock_origin *o = d->sbom->origin;
    if (NULL == o || !o->ours || NULL == o->format || !o->serial[0] || strcmp(o->format, ops->name))
        return 0;
    sb_arena *ta = sb_arena_child(d->arena); /* the trial's allocations go with it */
    sb_doc *t = ta ? sb_arena_calloc(ta, 1, sizeof *t) : NULL;
    if (t && NULL == (t->tmp = sb_arena_child(ta)))
        t = NULL;
    if (NULL == t) {
        sb_arena_destroy(ta);
        return 0;
    }
    t->ops = ops;
    t->sbom = d->sbom;
    t->arena = ta;
    t->opts = d->opts;
    memcpy(t->timestamp, d->timestamp, sizeof t->timestamp);
    memcpy(t->serial, o->serial, sizeof t->serial);
    t->is_source = true;
    t->source_doc = o->stated_source;
    sb_buf_init(&t->stage, 0); /* unmetered: a refusal here would change the serial, not stop the request */
    sb_jw_init_buf(&t->jw, &t->stage, t->opts.pretty);
    sb_sha1 c;
    sb_sha1_init(&c);
    char buf[16384];
    size_t total = 0;
    ssize_t n;
    int same = 1;
    while ((n = sb_doc_produce(t, buf, sizeof buf)) > 0) {
        total += (size_t)n;
        if (total > o->len) { /* longer: not the source, no need to write the rest */
            same = 0;
            break;
        }
        sb_sha1_update(&c, buf, (size_t)n);
    }
    unsigned char h[20];
    sb_sha1_final(&c, h);
    same = same && n == 0 && total == o->len && !memcmp(h, o->sha1, sizeof h);
    sb_doc_free(t);
    sb_arena_destroy(ta);
    return same;
}

/*
 * A document's identity: its timestamp, whether it is its source again (see
 * above), its serial and what it names as its source. For a VEX
 * (ops->links_into) also the serial of the SBOM its BOM-Links point into.
 * That one is computed exactly as the SBOM's own request computes it (same
 * format name, no output=vex), so the links resolve. The VEX's own
 * serialNumber is a different UUIDv5 (the same parts plus output=vex): it is
 * another BOM, and a BOM-Link urn:cdx:<serial>/1 must name one document, not
 * two.
 */
static void set_serials(sb_doc *d)
{
    const sb_lock_origin *o = d->sbom->origin;
    memcpy(d->timestamp, d->ts_request, sizeof d->timestamp);
    if (o && o->ours && o->timestamp && !d->opts.timestamp_given)
        snprintf(d->timestamp, sizeof d->timestamp, "%s", o->timestamp);
    const sb_doc_ops *sbom_ops = d->ops->links_into ? d->ops->links_into : d->ops;
    int again = reproduces_source(d, sbom_ops);
    if (d->ops->links_into) {
        if (again)
            memcpy(d->link_serial, o->serial, sizeof d->link_serial);
        else
            make_serial(d, d->ops->links_into->name, false, d->link_serial);
        make_serial(d, d->ops->links_into->name, true, d->serial);
        d->is_source = false;
        d->source_doc = NULL; /* a VEX names the SBOM it is about, not that one's source */
    } else {
        if (again)
            memcpy(d->serial, o->serial, sizeof d->serial);
        else
            make_serial(d, d->ops->name, false, d->serial);
        d->is_source = again;
        d->source_doc = again ? o->stated_source : d->sbom->source_document;
    }
}

sb_code sb_doc_new(sb_doc **out, sb_arena *a, const sb_doc_ops *ops, const sb_sbom *sbom, const sb_doc_opts *opts,
                   sb_err *err)
{
    sb_doc *d = sb_arena_calloc(a, 1, sizeof *d);
    if (NULL == d)
        return sb_err_set(err, SB_ENOMEM, "out of memory");
    d->ops = ops;
    d->sbom = sbom;
    d->arena = a;
    d->tmp = sb_arena_child(a);
    if (NULL == d->tmp)
        return sb_err_set(err, SB_ENOMEM, "out of memory");
    d->opts = *opts;
    sb_buf_init(&d->stage, 0);
    sb_buf_meter(&d->stage, sb_arena_meter_of(a)); /* the request pays for what a piece stages */
    sb_jw_init_buf(&d->jw, &d->stage, opts->pretty);
    struct tm tm;
    time_t t = opts->timestamp;
    if (NULL == gmtime_r(&t, &tm) || tm.tm_year + 1900 > 9999 || tm.tm_year + 1900 < 1970) {
        t = 0;
        gmtime_r(&t, &tm);
    }
    strftime(d->ts_request, sizeof d->ts_request, "%Y-%m-%dT%H:%M:%SZ", &tm);
    memcpy(d->timestamp, d->ts_request, sizeof d->timestamp);
    if (ops->ext) { /* a document, with an identifier (reports have none) */
        if (opts->input_sha1) {
            memcpy(d->input_digest, opts->input_sha1, sizeof d->input_digest);
        } else {
            sb_sha1 ic;
            sb_sha1_init(&ic);
            if (opts->input)
                sb_sha1_update(&ic, opts->input, opts->input_len);
            sb_sha1_final(&ic, d->input_digest);
        }
        set_serials(d);
    }
    *out = d;
    return SB_OK;
}

sb_code sb_doc_new_seq(sb_doc **out, sb_arena *a, const sb_doc_ops *ops, const sb_sbom *const *sboms, size_t n,
                       const sb_doc_opts *opts, sb_err *err)
{
    if (0 == n)
        return sb_err_set(err, SB_EMISUSE, "a document sequence needs at least one document");
    sb_doc_opts compact = *opts;
    compact.pretty = false; /* one document per line */
    sb_code rc = sb_doc_new(out, a, ops, sboms[0], &compact, err);
    if (rc == SB_OK) {
        (*out)->seq = sboms;
        (*out)->nseq = n;
    }
    return rc;
}

sb_code sb_doc_new_joined(sb_doc **out, sb_arena *a, const sb_doc_ops *ops, const sb_sbom *const *sboms, size_t n,
                          const sb_doc_opts *opts, sb_err *err)
{
    if (0 == n || !ops->joins_selections)
        return sb_err_set(err, SB_EMISUSE, "a joined document needs a format that joins and one selection at least");
    sb_code rc = sb_doc_new(out, a, ops, sboms[0], opts, err);
    if (rc == SB_OK) {
        (*out)->seq = sboms;
        (*out)->nseq = n;
        (*out)->joined = true;
    }
    return rc;
}

/* NDJSON: end the line, and start the next document if there is one. */
static sb_code next_in_seq(sb_doc *d)
{
    sb_code rc = sb_buf_append(&d->stage, "\n", 1);
    if (rc != SB_OK || ++d->iseq >= d->nseq)
        return rc;
    d->sbom = d->seq[d->iseq];
    d->phase = PH_BEGIN;
    d->index = 0;
    d->fmt = NULL;
    d->cur_a = d->cur_b = 0;
    sb_jw_init_buf(&d->jw, &d->stage, false);
    set_serials(d);
    return SB_OK;
}

void sb_doc_free(sb_doc *d)
{
    if (d) {
        for (size_t k = 0; d->par && k < PAR_JOBS; k++) {
            sb_buf_free(&d->par->slot[k].out);
            sb_arena_destroy(d->par->slot[k].tmp);
            d->par->slot[k].tmp = NULL;
        }
        sb_buf_free(&d->stage);
        sb_arena_destroy(d->tmp);
        d->tmp = NULL;
    }
}

static sb_code piece(sb_doc *d, int phase, size_t i)
{
    sb_code rc = phase == PH_COMPONENTS ? d->ops->component(d, i) : d->ops->relation(d, i);
    return rc == SB_OK ? d->jw.status : rc;
}

static void par_job(void *arg)
{
    par_slot *s = arg;
    for (size_t i = s->from; i < s->to; i++) {
        sb_arena_reset(s->tmp);
        if ((s->rc = piece(&s->sh, s->phase, i)) != SB_OK)
            return;
        s->stop = i + 1;
        if (s->out.len >= (s->sh.opts.par_buf_cap ? s->sh.opts.par_buf_cap : PAR_BUF_CAP))
            return;
    }
}

/* Whether `left` pieces of a run are worth two threads. */
static bool par_wanted(const sb_doc *d, size_t left)
{
    return d->sbom->npkgs >= PAR_MIN_PIECES && left >= PAR_JOBS * PAR_BATCH && !d->sbom->license_texts &&
           sb_par_width() >= 2;
}

/* The end of the run of pieces from d->index worth writing on two
 * threads; d->index when there is none. */
static size_t par_end(const sb_doc *d)
{
    if (NULL == d->ops->par_run_end)
        return d->index;
    sb_doc_section sec = d->phase == PH_COMPONENTS ? SB_DOC_COMPONENTS : SB_DOC_RELATIONS;
    size_t end = d->ops->par_run_end(d, sec, d->index);
    return end > d->index && par_wanted(d, end - d->index) ? end : d->index;
}

/* Write the next batches of the run [d->index, end) on two threads. */
static sb_code par_run(sb_doc *d, int phase, size_t end)
{
    if (NULL == d->par && NULL == (d->par = sb_arena_calloc(d->arena, 1, sizeof *d->par)))
        return SB_ENOMEM;
    struct sb_doc_par *P = d->par;
    sb_par_job jobs[PAR_JOBS];
    size_t n = 0;
    for (; n < PAR_JOBS && d->index < end; n++) {
        par_slot *s = &P->slot[n];
        if (NULL == s->tmp) {
            if (NULL == (s->tmp = sb_arena_child(d->arena)))
                return SB_ENOMEM;
            sb_buf_meter(&s->out, d->stage.meter); /* the stage's payer: par_next swaps the two */
        }
        sb_buf_reset(&s->out);
        s->sh = *d; /* the emitter's state between two elements of the array */
        s->sh.par = NULL;
        s->sh.tmp = s->tmp;
        s->sh.jw.buf = &s->out;
        sb_err_clear(&s->sh.err);
        s->from = s->stop = d->index;
        s->to = end - d->index < PAR_BATCH ? end : d->index + PAR_BATCH;
        s->phase = phase;
        s->rc = SB_OK;
        d->index = s->to;
        jobs[n] = (sb_par_job){.fn = par_job, .arg = s};
    }
    sb_par_run(jobs, n);
    P->n = n;
    P->cur = 0;
    P->handed = false;
    return SB_OK;
}

/* The next of what the last run wrote: a job's buffer, then the rest of its
 * batch it left, one piece at a time. */
static sb_code par_next(sb_doc *d)
{
    struct sb_doc_par *P = d->par;
    par_slot *s = &P->slot[P->cur];
    if (!P->handed) {
        P->handed = true;
        if (s->rc != SB_OK) {
            if (s->sh.err.code != SB_OK)
                d->err = s->sh.err;
            return s->rc;
        }
        sb_buf t = d->stage; /* drained: the job's bytes take its place */
        d->stage = s->out;
        s->out = t;
        return SB_OK;
    }
    if (s->stop < s->to)
        return piece(d, s->phase, s->stop++);
    P->handed = false;
    if (++P->cur == P->n)
        P->n = 0;
    return SB_OK;
}

/* The next piece of the phase the producer is in. */
static sb_code phase_piece(sb_doc *d)
{
    sb_code rc = SB_OK;
    switch (d->phase) {
    case PH_BEGIN:
        rc = d->ops->begin(d);
        d->phase = PH_COMPONENTS;
        d->index = 0;
        break;
    case PH_COMPONENTS:
    case PH_RELATIONS: {
        size_t end = par_end(d), count = d->phase == PH_COMPONENTS ? d->sbom->npkgs : d->ops->relation_count(d);
        if (end > d->index) {
            rc = par_run(d, d->phase, end);
        } else if (d->index < count) {
            rc = piece(d, d->phase, d->index++);
        } else if (d->phase == PH_COMPONENTS) {
            d->phase = PH_MIDDLE;
        } else if (d->joined && d->iseq + 1 < d->nseq) {
            d->sbom = d->seq[++d->iseq]; /* the next selection's part of the same document */
            d->phase = PH_COMPONENTS;
            d->index = 0;
        } else {
            d->phase = PH_END;
        }
        break;
    }
    case PH_MIDDLE:
        rc = d->ops->middle(d);
        d->phase = PH_RELATIONS;
        d->index = 0;
        break;
    case PH_END:
        rc = d->ops->end(d);
        d->phase = PH_DONE;
        if (rc == SB_OK && !sb_jw_done(&d->jw))
            rc = SB_EMISUSE;
        if (rc == SB_OK && d->nseq && !d->joined)
            rc = next_in_seq(d);
        break;
    default: break;
    }
    return rc;
}

/* Generate the next piece into the stage. 0 ok, -1 error. */
static int next_piece(sb_doc *d)
{
    sb_arena_reset(d->tmp);
    sb_code rc = d->par && d->par->n ? par_next(d) : phase_piece(d);
    if (rc == SB_OK)
        rc = d->jw.status;
    if (rc != SB_OK) {
        if (d->err.code == SB_OK)
            sb_err_set(&d->err, rc, "%s writer failed (%s)", d->ops->name, sb_code_name(rc));
        return -1;
    }
    return 0;
}

ssize_t sb_doc_produce(sb_doc *d, char *buf, size_t cap)
{
    if (d->err.code != SB_OK)
        return -1;
    size_t out = 0;
    while (out < cap) {
        if (d->stage_off == d->stage.len) {
            sb_buf_reset(&d->stage);
            d->stage_off = 0;
            if (d->phase == PH_DONE)
                break;
            if (next_piece(d) != 0)
                return -1;
            continue;
        }
        size_t avail = d->stage.len - d->stage_off;
        size_t k = avail < cap - out ? avail : cap - out;
        memcpy(buf + out, d->stage.data + d->stage_off, k);
        d->stage_off += k;
        out += k;
    }
    return (ssize_t)out;
}

const char *sb_doc__made_from(const sb_doc *d)
{
    return d->sbom->made_from ? d->sbom->made_from : d->sbom->input_kind;
}

static int isalnum_ascii(unsigned c)
{
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

static int isxdigit_ascii(unsigned c)
{
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

const char *sb_doc__uri(sb_doc *d, const char *s)
{
    static const char allowed[] = "-._~:/?#@!$&'()*+,;=";
    static const char hx[] = "0123456789ABCDEF";
    size_t need = 0;
    const unsigned char *p = (const unsigned char *)s;
    for (size_t i = 0; p[i]; i++) {
        int ok = (p[i] < 0x80 && (isalnum_ascii(p[i]) || (p[i] && strchr(allowed, p[i])))) ||
                 (p[i] == '%' && isxdigit_ascii(p[i + 1]) && isxdigit_ascii(p[i + 2]));
        need += ok ? 1 : 3;
    }
    if (need == strlen(s))
        return s;
    char *o = sb_arena_stralloc(d->tmp, need + 1);
    if (NULL == o)
        return s;
    size_t k = 0;
    for (size_t i = 0; p[i]; i++) {
        int ok = (p[i] < 0x80 && (isalnum_ascii(p[i]) || (p[i] && strchr(allowed, p[i])))) ||
                 (p[i] == '%' && isxdigit_ascii(p[i + 1]) && isxdigit_ascii(p[i + 2]));
        if (ok) {
            o[k++] = (char)p[i];
        } else {
            o[k++] = '%';
            o[k++] = hx[p[i] >> 4];
            o[k++] = hx[p[i] & 15];
        }
    }
    o[k] = '\0';
    return o;
}

static int arena_buf_write(void *payload, const char *p, size_t n)
{
    return sb_buf_append(payload, p, n) == SB_OK ? 0 : -1;
}

sb_code sb_doc_formats_json(const char **out, size_t *len, sb_arena *a)
{
    sb_buf b = SB_BUF_INIT(1 << 16);
    sb_jw jw;
    sb_jw_init(&jw, (sb_sink){arena_buf_write, &b}, true);
    sb_jw_obj_begin(&jw);
    sb_jw_key(&jw, "formats");
    sb_jw_arr_begin(&jw);
    for (size_t i = 0; formats[i]; i++) {
        sb_jw_obj_begin(&jw);
        sb_jw_kstr(&jw, "name", formats[i]->name);
        sb_jw_kstr(&jw, "media_type", formats[i]->media_type);
        sb_jw_key(&jw, "default");
        sb_jw_bool(&jw, i == 0);
        sb_jw_key(&jw, "aliases");
        sb_jw_arr_begin(&jw);
        for (size_t k = 0; formats[i]->aliases && formats[i]->aliases[k]; k++)
            sb_jw_str(&jw, formats[i]->aliases[k]);
        sb_jw_arr_end(&jw);
        sb_jw_kstr(&jw, "extension", formats[i]->ext);
        sb_jw_obj_end(&jw);
    }
    sb_jw_arr_end(&jw);
    sb_jw_kstr(&jw, "default", formats[0]->name);
    sb_jw_obj_end(&jw);
    sb_code rc = jw.status;
    if (rc == SB_OK) {
        *out = sb_arena_strndup(a, b.data, b.len);
        *len = b.len;
        if (NULL == *out)
            rc = SB_ENOMEM;
    }
    sb_buf_free(&b);
    return rc;
}

/* Call fn on each bounded read of the first f->text_len bytes of f. */
static void each_read(const sb_licfile *f, void (*fn)(void *, const char *, size_t), void *ctx, const sb_code *status)
{
    FILE *fp = fopen(f->path, "rb");
    if (NULL == fp)
        return;
    long long left = f->text_len;
    char buf[16384];
    while (left > 0 && *status == SB_OK) {
        size_t want = left < (long long)sizeof buf ? (size_t)left : sizeof buf;
        size_t got = fread(buf, 1, want, fp);
        if (0 == got)
            break;
        fn(ctx, buf, got);
        left -= (long long)got;
    }
    fclose(fp);
}

static void text_chunk(void *jw, const char *p, size_t n)
{
    sb_jw_str_chunk(jw, p, n);
}

void sb_doc__file_text(sb_doc *d, const sb_licfile *f)
{
    sb_jw_str_begin(&d->jw);
    each_read(f, text_chunk, &d->jw, &d->jw.status);
    sb_jw_str_end(&d->jw);
}

static void hash_chunk(void *c, const char *p, size_t n)
{
    sb_sha1_update(c, p, n);
}

const char *sb_doc__text_h8(sb_doc *d, const sb_licfile *f)
{
    static const char oid_ns[] = "6ba7b812-9dad-11d1-80b4-00c04fd430c8";
    unsigned char ns[16];
    sb_uuid_parse(ns, oid_ns);
    sb_sha1 c;
    sb_uuid_v5_begin(&c, ns);
    const sb_code ok = SB_OK;
    each_read(f, hash_chunk, &c, &ok);
    char u[37];
    sb_uuid_v5_finish(&c, u);
    return sb_arena_strndup(d->arena, u, 8);
}

void sb_doc__hashes(sb_jw *jw, const sb_pkg *p, const sb_doc_hash_shape *shape)
{
    int open = 0;
    sb_hash_hex hx;
    for (int h = 0; h < SB_HASH_N; h++) {
        const char *v = sb_pkg_hash(p, (sb_hash_alg)h, &hx);
        if (NULL == v)
            continue;
        if (!open) {
            sb_jw_key(jw, shape->key);
            sb_jw_arr_begin(jw);
            open = 1;
        }
        sb_jw_obj_begin(jw);
        sb_jw_kstr_opt(jw, "type", shape->type);
        sb_jw_kstr(jw, shape->alg_key, shape->names[h]);
        sb_jw_kstr(jw, shape->value_key, v);
        sb_jw_obj_end(jw);
    }
    if (open)
        sb_jw_arr_end(jw);
}
