/*
 * intake.c - the lockfile and the selection options of a request
 * (intake.h), from the query the server parsed at dispatch (svc_req_q).
 */
#include "intake.h"
#include "gates.h"
#include "../core/lock_merge.h"
#include "../core/gate.h"
#include "../core/quality.h"
#include "lookup/lookup.h"
#include "params.h"
#include "../core/deadline.h"
#include "../core/report.h"
#include "../core/manifest.h"
#include "../core/filter.h"
#include "../core/uuid.h"
#include "../core/scorecard.h"
#include "../core/vex.h"
#include "../core/vuln.h"
#include "../core/pairs.h"
#include "../core/select.h"
#include "../core/repo.h"

#include <pthread.h>
#include <stdio.h>
#include <string.h>

/* The stages below return 0 to go on, or 1 with the answer they decided in
 * *pb (a problem value, service/http/request.h): none of them answers; the
 * handler does, once. */

/* Names to offer when an environment or platform was not found. */
int svc_intake_choices(svc_req *r, const sb_lock *lock, const char *env, const char ***out)
{
    sb_arena *a = svc_req_arena(r);
    const sb_lock_env *e = sb_lock_find_env(lock, env ? env : "default");
    size_t n = e ? e->nplatforms : lock->nenvs;
    const char **v = sb_arena_alloc(a, (n ? n : 1) * sizeof *v);
    if (NULL == v)
        return 0;
    for (size_t i = 0; i < n; i++)
        v[i] = e ? e->platforms[i].name : lock->envs[i].name;
    *out = v;
    return (int)n;
}


/* include / exclude / exclude-kind / scope / keep-orphans (the query's
 * parse checked them) into sel->filter; 0, or 1 with the answer queued. */
static int read_filter(svc_req *r, const svc_query *q, sb_select_opts *sel, svc_problem *pb)
{
    sb_filter *f = sb_arena_calloc(svc_req_arena(r), 1, sizeof *f);
    if (NULL == f) {
        sb_err e;
        sb_err_set(&e, SB_ENOMEM, "out of memory");
        return svc_problem_err(pb, &e, NULL, 0);
    }
    f->include = q->include.v;
    f->ninclude = q->include.n;
    f->exclude = q->exclude.v;
    f->nexclude = q->exclude.n;
    f->kinds = q->kinds;
    f->required_only = q->required_only;
    f->keep_orphans = q->keep_orphans > 0;
    if (sb_filter_compile(f, svc_req_arena(r)) != SB_OK) {
        sb_err e;
        sb_err_set(&e, SB_ENOMEM, "out of memory");
        return svc_problem_err(pb, &e, NULL, 0);
    }
    sel->filter = f;
    return 0;
}

static int client_gone(void *r)
{
    return svc_req_client_gone(r);
}

/* The shared cache failed for this request: the answer says so (RFC 7234
 * warn-code 199, as the document is whole, only slower to make). */
static void shared_cache_warning(void *cls, const char *why)
{
    svc_req *r = cls;
    char clean[200];
    size_t k = 0;
    for (const char *p = why; *p && k + 1 < sizeof clean; p++)
        clean[k++] = (*p == '"' || *p == '\\' || (unsigned char)*p < 0x20 || (unsigned char)*p >= 0x7f) ? '_' : *p;
    clean[k] = '\0';
    const char *w = sb_arena_printf(svc_req_arena(r),
                                    "199 sbomd \"shared cache unavailable, looked up without it: %s\"", clean);
    if (w)
        svc_req_add_header(r, "Warning", w);
}

#define DIGEST_THREAD_MIN (512 * 1024) /* below this a thread costs more than it saves */

typedef struct digest_job {
    const char *data;
    size_t len;
    unsigned char sha1[20];
} digest_job;

static void *digest_run(void *cls)
{
    digest_job *j = cls;
    sb_sha1 c;
    sb_sha1_init(&c);
    sb_sha1_update(&c, j->data, j->len);
    sb_sha1_final(&c, j->sha1);
    return NULL;
}

long long svc_intake_deadline(const svc_req *r)
{
    return sb_deadline_now_ns() + (long long)(svc_req_time_left(r) * 1e9);
}

/* The `manifest` part: malformed text is a 400 naming the part
 * and where; one that cannot be read as a manifest at all is a Warning and a
 * pixi:incomplete entry, and the documents are made without it. */
static int read_manifest(svc_req *r, const svc_part *part, const sb_limits *lim, svc_intake *in, svc_problem *pb)
{
    sb_arena *a = svc_req_arena(r);
    sb_err err;
    sb_err_clear(&err);
    const char *fname = part->filename ? part->filename : "";
    sb_manifest *m = NULL;
    sb_code mrc = sb_manifest_read(&m, a, part->filename, part->data, part->len, lim, &err);
    if (mrc == SB_OK) {
        in->sel.manifest = m;
        return 0;
    }
    if (mrc == SB_ETIMEOUT)
        return svc_problem_timeout(pb);
    if (mrc == SB_EFORMAT) {
        char *why = sb_arena_printf(a, "manifest '%s' not read: %s", fname, err.msg);
        for (char *c = why; c && *c; c++)
            if (*c == '"' || *c == '\\' || (unsigned char)*c < 0x20)
                *c = '\''; /* it goes inside a quoted header string */
        in->sel.manifest_problem = why ? why : "manifest not read";
        const char *w = sb_arena_printf(a, "299 sbomd \"%s\"", in->sel.manifest_problem);
        if (w)
            svc_req_add_header(r, "Warning", w);
        return 0;
    }
    sb_err named = err;
    snprintf(named.msg, sizeof named.msg, "multipart part 'manifest' (%.40s): %.180s",
             fname[0] ? fname : "no file name", err.msg);
    return svc_problem_err(pb, &named, NULL, 0);
}

/* ---- license policy ------------------------------------------------- */

/* One policy list (allow, deny or ignore), each value perhaps a comma-separated list. */
static sb_code policy_list(svc_intake *in, sb_arena *a, const svc_qlist *l, int which, sb_err *err)
{
    for (size_t i = 0; i < l->n; i++) {
        sb_code c = which == 2 ? sb_policy_add_ignores(&in->policy, a, l->v[i], err)
                               : sb_policy_add_ids(&in->policy, a, which == 1, l->v[i], err);
        if (c != SB_OK)
            return c;
        in->policy_on = true;
    }
    return SB_OK;
}

/* policy=NAME, allow/deny/ignore/require-license and fail-on into `in`. */
static int read_policy(svc_req *r, const svc_query *q, svc_intake *in, svc_problem *pb)
{
    const svc_cfg *cfg = svc_req_cfg(r);
    sb_arena *a = svc_req_arena(r);
    if (q->policy) {
        const sb_policy *named = svc_cfg_policy(cfg, q->policy);
        if (NULL == named) {
            sb_err e;
            size_t n = cfg->policies ? cfg->policies->n : 0;
            sb_err_set(&e, SB_EINVAL, "query parameter 'policy': %s",
                       n ? "no policy of that name on this server" : "this server has no --policy-file");
            return svc_problem_err(pb, &e, n ? cfg->policies->names : NULL, n);
        }
        if (sb_policy_merge(&in->policy, a, named) != SB_OK)
            return svc_problem_code(pb, SB_ENOMEM, "out of memory");
        in->policy_on = true;
    }
    sb_err err;
    sb_err_clear(&err);
    if (policy_list(in, a, &q->allow_license, 0, &err) != SB_OK ||
        policy_list(in, a, &q->deny_license, 1, &err) != SB_OK ||
        policy_list(in, a, &q->ignore_license, 2, &err) != SB_OK) {
        return svc_problem_err(pb, &err, NULL, 0); /* the message names the parameter and value */
    }
    if (q->require_license >= 0)
        in->policy_on = true;
    in->policy.require |= q->require_license > 0;
    /* /v1/diff's fail-on is its own (fail-on=diff, handlers/diff.c) */
    if (q->fail_on_license) {
        in->fail_license = true;
        if (!in->policy_on)
            return svc_problem_param(pb, "fail-on",
                                     "is 'license' but no policy was given (allow-license, deny-license, "
                                     "require-license, ignore-license or policy)");
    }
    sb_gate_init(&in->gate, "policy-violation", "License policy violated");
    return 0;
}

int svc_intake_policy(svc_req *r, svc_intake *in, sb_sbom *s, svc_problem *pb)
{
    if (!in->policy_on)
        return 0;
    if (sb_policy_apply(&in->policy, s, svc_req_arena(r), &in->gate) != SB_OK) {
        sb_err e;
        sb_err_set(&e, SB_ENOMEM, "out of memory");
        return svc_problem_err(pb, &e, NULL, 0);
    }
    return 0;
}


/* The `vex` part: a CycloneDX VEX or OpenVEX document
 * applied to the findings; it needs vulnerabilities=osv, and one that cannot
 * be read is a 400 naming the part (a VEX silently ignored would let a gate
 * pass or fail on statements nobody checked). */
static int read_vex(svc_req *r, const svc_part *part, svc_lookup_ctx *lc, svc_intake *in, svc_problem *pb)
{
    sb_arena *a = svc_req_arena(r);
    if (NULL == lc)
        return svc_problem_param(pb, "vulnerabilities", "is needed with a 'vex' part (it applies to findings)");
    sb_err err;
    sb_err_clear(&err);
    sb_vex *vex = NULL;
    if (sb_vex_parse(a, part->data, part->len, &vex, &err) != SB_OK) {
        if (err.code == SB_ENOMEM)
            return svc_problem_err(pb, &err, NULL, 0);
        sb_err named;
        sb_err_clear(&named);
        snprintf(named.msg, sizeof named.msg, "multipart part 'vex': %.200s", err.msg);
        named.code = SB_EPARSE;
        return svc_problem_err(pb, &named, NULL, 0);
    }
    lc->vex = vex;
    /* the statements change the findings: the serial follows the part's bytes */
    sb_sha1 c;
    unsigned char d[20];
    sb_sha1_init(&c);
    sb_sha1_update(&c, part->data, part->len);
    sb_sha1_final(&c, d);
    char *hex = sb_arena_alloc(a, 41);
    for (int i = 0; hex && i < 20; i++)
        snprintf(hex + 2 * i, 3, "%02x", d[i]);
    in->sel.vex_digest = hex;
    return 0;
}

/* The lockfile is the body or its `lockfile` part (part NULL), or the
 * named part of a multipart body, which then stays for the other parts. */
/* Several `sbom` parts: each read as a CycloneDX or SPDX
 * document, labelled by its file name (else its index, from 1), and merged
 * into one lock (core/lock_merge.c). The serial covers every part's label
 * and bytes. */
static int read_sboms(svc_req *r, const svc_upload *up, const sb_limits *lim, svc_intake *in, svc_problem *pb)
{
    sb_arena *a = svc_req_arena(r);
    sb_err err;
    sb_err_clear(&err);
    sb_lock **locks = sb_arena_alloc(a, up->nsboms * sizeof *locks);
    const char **labels = sb_arena_alloc(a, up->nsboms * sizeof *labels);
    if (NULL == locks || NULL == labels) {
        sb_err_set(&err, SB_ENOMEM, "out of memory");
        return svc_problem_err(pb, &err, NULL, 0);
    }
    sb_sha1 c;
    sb_sha1_init(&c);
    for (size_t i = 0; i < up->nsboms; i++) {
        const svc_part *p = &up->sboms[i];
        labels[i] = p->filename ? p->filename : sb_arena_printf(a, "%zu", i + 1);
        if (NULL == labels[i]) {
            sb_err_set(&err, SB_ENOMEM, "out of memory");
            return svc_problem_err(pb, &err, NULL, 0);
        }
        if (0 == p->len) {
            sb_err_set(&err, SB_EPARSE, "'sbom' part %zu (%s) is empty", i + 1, labels[i]);
            return svc_problem_err(pb, &err, NULL, 0);
        }
        sb_lock_choice ch; /* detected once for the estimate and the read */
        sb_lock_choose(&ch, NULL, p->data, p->len, p->filename);
        if (svc_req_admit(r, sb_lock_estimate_choice(&ch, p->data, p->len), pb))
            return 1;
        if (sb_lock_read_choice(&locks[i], a, &ch, p->data, p->len, lim, &err) != SB_OK) {
            if (err.code == SB_ETIMEOUT)
                return svc_problem_timeout(pb);
            char msg[sizeof err.msg];
            snprintf(msg, sizeof msg, "%s", err.msg);
            sb_err_set_at(&err, err.code, err.line, err.column, "'sbom' part %zu (%.128s): %.800s", i + 1, labels[i],
                          msg);
            return svc_problem_err(pb, &err, NULL, 0);
        }
        if (strcmp(locks[i]->kind, "cyclonedx") && strcmp(locks[i]->kind, "spdx")) {
            sb_err_set(&err, SB_EPARSE,
                       "'sbom' part %zu (%s) is a %s, not a CycloneDX or SPDX document: send a "
                       "lockfile as the body or the 'lockfile' part",
                       i + 1, labels[i], locks[i]->kind);
            return svc_problem_err(pb, &err, NULL, 0);
        }
        static const char nul = '\0';
        sb_sha1_update(&c, labels[i], strlen(labels[i]));
        sb_sha1_update(&c, &nul, 1);
        sb_sha1_update(&c, p->data, p->len);
        sb_sha1_update(&c, &nul, 1);
    }
    sb_sha1_final(&c, in->sha1);
    if (NULL == svc_req_q(r)->filename)
        in->sel.lockfile_name = NULL; /* the first part's file name is no lockfile of the merge */
    if (sb_lock_merge(&in->lock, a, locks, labels, up->nsboms, lim, &err) != SB_OK)
        return svc_problem_err(pb, &err, NULL, 0);
    in->body = NULL;
    svc_req_count(r, 0, in->lock->kind);
    svc_req_drop_body(r);
    return 0;
}

/* A repository's lockfiles are charged as they are kept and read: the
 * first refusal holds its answer (413 or 503). */
typedef struct repo_charge {
    svc_req *r;
    svc_problem pb;
    int refused;
} repo_charge;

static int charge_repo(void *cls, size_t bytes)
{
    repo_charge *c = cls;
    if (c->refused || svc_req_admit(c->r, bytes, &c->pb))
        return c->refused = 1;
    return 0;
}

/* A repository in one request: an archive body (or part), or several
 * `lockfile` parts. Every lockfile it holds is read and merged
 * (core/repo.c); the answer names what was read and skipped. */
static int read_repo(svc_req *r, const svc_upload *up, const sb_limits *lim, const char *part, svc_intake *in,
                     svc_problem *pb)
{
    sb_arena *a = svc_req_arena(r);
    const svc_query *q = svc_req_q(r);
    sb_err err;
    sb_err_clear(&err);
    repo_charge ch = {.r = r};
    sb_repo_opts o = {.paths = q->paths.v,
                      .npaths = q->paths.n,
                      .skip_paths = q->skip_paths.v,
                      .nskip = q->skip_paths.n,
                      .lim = lim,
                      .environment = in->sel.environment,
                      .platform = in->sel.platform,
                      .strict = q->strict > 0,
                      .charge = charge_repo,
                      .charge_cls = &ch};
    sb_repo *repo = NULL;
    sb_code code;
    if (up->nlocks) {
        const char **names = sb_arena_alloc(a, up->nlocks * sizeof *names);
        const char **data = sb_arena_alloc(a, up->nlocks * sizeof *data);
        size_t *lens = sb_arena_alloc(a, up->nlocks * sizeof *lens);
        if (NULL == names || NULL == data || NULL == lens) {
            sb_err_set(&err, SB_ENOMEM, "out of memory");
            return svc_problem_err(pb, &err, NULL, 0);
        }
        for (size_t i = 0; i < up->nlocks; i++) {
            const char *n = up->locks[i].filename ? up->locks[i].filename : "lockfile";
            int dup = 0;
            for (size_t j = 0; j < i; j++)
                dup |= !strcmp(names[j], n);
            /* two parts of one name (two uv.lock): each its own folder */
            names[i] = dup || !up->locks[i].filename ? sb_arena_printf(a, "part%zu/%s", i + 1, n) : n;
            data[i] = up->locks[i].data;
            lens[i] = up->locks[i].len;
            if (NULL == names[i]) {
                sb_err_set(&err, SB_ENOMEM, "out of memory");
                return svc_problem_err(pb, &err, NULL, 0);
            }
        }
        code = sb_repo_read_files(&repo, a, names, data, lens, up->nlocks, &o, &err);
    } else {
        code = sb_repo_read(&repo, a, in->body, in->len, &o, &err);
    }
    if (ch.refused) {
        *pb = ch.pb;
        return 1;
    }
    if (code != SB_OK) {
        if (err.code == SB_ETIMEOUT)
            return svc_problem_timeout(pb);
        return svc_problem_err(pb, &err, NULL, 0);
    }
    /* the serial covers the archive's bytes: the same archive, the same document */
    const unsigned char *known = svc_req_body_sha1(r, in->body, in->len);
    if (known) {
        memcpy(in->sha1, known, sizeof in->sha1);
    } else {
        digest_job job = {in->body, in->len, {0}};
        digest_run(&job);
        memcpy(in->sha1, job.sha1, sizeof in->sha1);
    }
    in->lock = repo->lock;
    in->repo = repo;
    if (NULL == q->filename)
        in->sel.lockfile_name = NULL; /* the archive's name is no lockfile's */
    const char *read = sb_repo_read_list(repo, a, 2048), *skipped = sb_repo_skipped_list(repo, a, 2048);
    if (read && !part)
        svc_req_add_header(r, "Sbomd-Repository-Read", read);
    if (skipped && !part)
        svc_req_add_header(r, "Sbomd-Repository-Skipped", skipped);
    in->body = NULL;
    svc_req_count(r, 0, in->lock->kind);
    if (NULL == part)
        svc_req_drop_body(r);
    return 0;
}

/* The network the request asks for (license lookups, OSV with KEV/EPSS, PyPI
 * project pages for yanked/outdated, OpenSSF Scorecard), checked, and one
 * lookup context wired into the selection for all of them; *vctx is the
 * findings' context (a vex part is applied there), NULL without OSV. */
static int read_lookups(svc_req *r, const svc_query *q, sb_select_opts *sel, svc_lookup_ctx **vctx, svc_problem *pb)
{
    sb_arena *a = svc_req_arena(r);
    const svc_cfg *cfg = svc_req_cfg(r);
    sb_err err;
    sb_err_clear(&err);
    int fetch = q->fetch_licenses > 0;
    const sb_report_kind *k = svc_req_report(r);
    int vq = q->vulnerabilities != NULL || (k && k->needs_vulns); /* the report is about them */
    int fs = q->fail_on_severity != NULL, fkev = q->fail_on_kev > 0, fe = q->fail_on_epss != NULL;
    /* a gate on exploitation evidence needs the evidence: it asks for it */
    int kev = q->kev > 0 || fkev, epss = q->epss > 0 || fe;
    if ((fs || kev || epss) && !vq)
        return svc_problem_param(pb,
                                 fs     ? "fail-on-severity"
                                 : fkev ? "fail-on-kev"
                                 : kev  ? "kev"
                                 : fe   ? "fail-on-epss"
                                        : "epss",
                                 "needs vulnerabilities=osv");
    /* health: yanked flags on request, the gate implies them; the outdated
     * report is about releases */
    int yanked = q->yanked > 0 || q->fail_on_yanked > 0;
    int outdated = k && k->needs_health;
    /* OpenSSF Scorecard: a threshold or the gate asks for the scores */
    int scorecard = q->scorecard > 0 || q->scorecard_min != NULL || q->fail_on_scorecard != NULL;
    double sc_min = q->scorecard_floor;
    if (fetch || vq || yanked || outdated || scorecard) {
        svc_lookup_ctx *lc = sb_arena_calloc(a, 1, sizeof *lc);
        if (NULL == lc) {
            sb_err_set(&err, SB_ENOMEM, "out of memory");
            return svc_problem_err(pb, &err, NULL, 0);
        }
        /* lookups end in time for the document to be written within the request deadline */
        double wait = (double)cfg->lookup_deadline, left = svc_req_time_left(r) - 1.0;
        if (left < wait)
            wait = left > 0 ? left : 0;
        sb_deadline_after(CLOCK_MONOTONIC, (long long)(wait * 1e9), &lc->deadline);
        lc->engine = svc_req_lookups(r); /* it answers for licenses only with --lookups */
        lc->gone = client_gone;
        lc->gone_cls = r;
        lc->warn = shared_cache_warning;
        lc->warn_cls = r;
        svc_req_on_done(r, svc_lookup_end, lc); /* its queued lookups go with it */
        if (fetch) {
            sel->lookup = svc_lookup_fill;
            sel->lookup_ctx = lc;
        }
        if (vq) {
            sel->vulns = svc_lookup_vulns;
            sel->vulns_ctx = lc;
            lc->kev = kev;
            lc->epss = epss;
            *vctx = lc;
            sel->vuln_kev = kev;
            sel->vuln_epss = epss;
        }
        if (yanked || outdated || scorecard) { /* scorecard: a PyPI package's repository is on its project page */
            sel->yanked = yanked;
            sel->outdated = outdated;
            sel->health = svc_lookup_health;
            sel->health_ctx = lc;
        }
        if (scorecard) {
            sel->scorecard = true;
            sel->scorecard_min = sc_min;
            sel->scorecard_fn = svc_lookup_scorecard;
            sel->scorecard_ctx = lc;
        }
    }
    if (!fetch) { /* the document says why licenses a lookup would give are absent */
        sel->lookup_probe = sb_lookup_probe;
        sel->lookup_probe_ctx = cfg->lookups ? (void *)cfg : NULL; /* non-NULL: this server would look them up */
    }
    return 0;
}

/* author= (else the server's --sbom-author) as the document's SBOM author */
static int read_author(svc_req *r, const svc_query *q, sb_select_opts *sel, svc_problem *pb)
{
    sb_arena *a = svc_req_arena(r);
    const svc_cfg *cfg = svc_req_cfg(r);
    sb_err err;
    sb_err_clear(&err);
    const char *author = q->author;
    if (NULL == author && cfg->sbom_author[0])
        author = cfg->sbom_author;
    if (author) {
        sb_author *au = sb_arena_calloc(a, 1, sizeof *au);
        const char *why = "could not be stored";
        if (NULL == au || sb_author_parse(au, a, author, &why)) {
            if (author == cfg->sbom_author) { /* checked at start; only memory can fail here */
                sb_err_set(&err, SB_ENOMEM, "out of memory");
                return svc_problem_err(pb, &err, NULL, 0);
            }
            return svc_problem_param(pb, "author", why);
        }
        sel->author = au;
    }
    return 0;
}

static int intake_read(svc_req *r, sb_text_shape shape, int digest, const char *part, svc_intake *in, svc_problem *pb)
{
    sb_arena *a = svc_req_arena(r);
    const svc_cfg *cfg = svc_req_cfg(r);
    sb_err err;
    sb_err_clear(&err);
    memset(in, 0, sizeof *in);
    const svc_query *q = svc_req_q(r); /* parsed and checked at dispatch */
    if (svc_gates_offered(svc_req_cfg(r), svc_req_q(r), pb))
        return 1;
    if (read_policy(r, q, in, pb))
        return 1;
    in->pretty = q->pretty != 0; /* absent: pretty */
    in->fail_quality = q->fail_on_quality;
    in->ts = svc_req_wall(r); /* --source-date-epoch, else the arrival (the ETag has the same) */
    if (q->timestamp >= 0) {
        in->ts = (time_t)q->timestamp;
        in->ts_given = true;
    }
    in->all_envs = q->all_environments > 0;
    in->all_plats = q->all_platforms > 0;
    sb_select_opts *sel = &in->sel;
    sel->license_texts = q->license_texts > 0;
    sel->text_shape = shape;
    sel->package_cache = cfg->package_cache[0] ? cfg->package_cache : NULL;
    /* a request may lower a budget, never raise it */
    sel->license_file_max = cfg->license_file_max;
    sel->license_texts_max = cfg->license_texts_max;
    if (q->license_file_max > cfg->license_file_max)
        return svc_problem_param(pb, "license-file-max",
                                 "must be a byte count no larger than the server's --license-file-max");
    if (q->license_texts_max > cfg->license_texts_max)
        return svc_problem_param(pb, "license-texts-max",
                                 "must be a byte count no larger than the server's --license-texts-max");
    if (q->license_file_max >= 0)
        sel->license_file_max = q->license_file_max;
    if (q->license_texts_max >= 0)
        sel->license_texts_max = q->license_texts_max;
    if (0 == sel->license_file_max || 0 == sel->license_texts_max)
        sel->license_texts = false; /* a zero budget: names only */
    svc_lookup_ctx *vctx = NULL;    /* the findings' lookups: a vex part is applied there */
    if (read_lookups(r, q, sel, &vctx, pb))
        return 1;
    if (read_filter(r, q, sel, pb))
        return 1;
    sel->pypi_map = svc_req_pypimap(r);
    sel->primary_pypi = q->primary_pypi;
    sel->environment = q->environment;
    sel->platform = q->platform;
    sel->root_name = q->name;
    sel->root_version = q->version;
    if (read_author(r, q, sel, pb))
        return 1;

    svc_upload up;
    memset(&up, 0, sizeof up);
    if (part) { /* /v1/diff: one named part, no manifest */
        up.lockfile.name = part;
        if (svc_upload_part(r, part, &up.lockfile.data, &up.lockfile.len, &up.lockfile.filename, &err) != 0)
            return svc_problem_err(pb, &err, NULL, 0);
    } else if (svc_upload_read(r, &up, &err) != 0) {
        return svc_problem_err(pb, &err, NULL, 0);
    }
    /* a Go module's go.mod and go.sum are one input, whichever part holds
     * which: joined, the manifest part is no manifest of its own */
    if (up.has_manifest) {
        int joined = sb_lock_join_parts(a, &up.lockfile.data, &up.lockfile.len, up.lockfile.filename, up.manifest.data,
                                        up.manifest.len, up.manifest.filename);
        if (joined < 0) {
            sb_err_set(&err, SB_ENOMEM, "out of memory");
            return svc_problem_err(pb, &err, NULL, 0);
        }
        if (joined > 0)
            up.has_manifest = 0;
    }
    in->body = up.lockfile.data;
    in->len = up.lockfile.len;
    const char *upload_name = up.lockfile.filename;
    if (0 == in->len) {
        if (part)
            sb_err_set(&err, SB_EPARSE, "the '%s' part is empty; send a lockfile in it", part);
        else
            sb_err_set(&err, SB_EPARSE, "the request body is empty; send the lockfile as the body");
        return svc_problem_err(pb, &err, NULL, 0);
    }
    sb_limits lim = SB_LIMITS_DEFAULT;
    lim.max_depth = (unsigned)cfg->max_depth;
    lim.max_scalar = (size_t)cfg->max_scalar;
    lim.max_packages = (size_t)cfg->max_packages;
    /* one document's platform is all a Python lockfile needs building for */
    lim.platform = in->all_plats ? NULL : sb_select_reader_platform(sel);
    lim.deadline_ns = svc_intake_deadline(r);
    sel->deadline_ns = lim.deadline_ns;
    const char *filename = part ? NULL : q->filename;
    if (NULL == filename)
        filename = upload_name;
    if (filename) {
        const char *base = strrchr(filename, '/');
        sel->lockfile_name = base ? base + 1 : filename;
    }
    /* the manifest first: it is small, and a malformed one ends the request
     * before the lockfile is parsed (and before the
     * digest thread starts: an early answer must not leave it running) */
    if (up.has_manifest && read_manifest(r, &up.manifest, &lim, in, pb))
        return 1;
    if (up.has_vex && read_vex(r, &up.vex, vctx, in, pb))
        return 1;
    /* a repository: an archive (by its magic bytes, unless kind= names a
     * reader) or several lockfile parts */
    if (up.nlocks || ((NULL == q->kind || !strcmp(q->kind, "auto")) && sb_repo_sniff(in->body, in->len))) {
        if (up.nsboms) {
            sb_err_set(&err, SB_EPARSE, "an archive or several 'lockfile' parts cannot be merged with 'sbom' parts");
            return svc_problem_err(pb, &err, NULL, 0);
        }
        return read_repo(r, &up, &lim, part, in, pb);
    }
    /* the model's memory, estimated from the input before anything is built
     * a request the budget cannot hold is refused here, not
     * halfway through taking the replica past its limit */
    sb_lock_choice choice; /* detection scans the whole input: once for the estimate and the read */
    sb_lock_choose(&choice, q->kind, in->body, in->len, filename);
    if (svc_req_admit(r, sb_lock_estimate_choice(&choice, in->body, in->len), pb))
        return 1;
    /* a large lockfile is hashed on a second thread while it is parsed */
    if (up.nsboms) /* SBOMs to merge: read each, merge them */
        return read_sboms(r, &up, &lim, in, pb);
    digest_job job = {in->body, in->len, {0}};
    const unsigned char *known = svc_req_body_sha1(r, in->body, in->len); /* hashed for the result key */
    if (known) {
        memcpy(job.sha1, known, sizeof job.sha1);
        digest = 0;
    }
    pthread_t hasher;
    int threaded = digest && in->len >= DIGEST_THREAD_MIN && 0 == pthread_create(&hasher, NULL, digest_run, &job);
    sb_code read_rc = sb_lock_read_choice(&in->lock, a, &choice, in->body, in->len, &lim, &err);
    if (threaded)
        pthread_join(hasher, NULL);
    else if (digest && read_rc == SB_OK)
        digest_run(&job);
    memcpy(in->sha1, job.sha1, sizeof in->sha1);
    if (read_rc != SB_OK) {
        if (err.code == SB_ETIMEOUT)
            return svc_problem_timeout(pb);
        if (err.code == SB_EFORMAT) {
            const sb_reader *const *rd = sb_lock_readers();
            size_t n = 0;
            while (rd[n])
                n++;
            const char **kinds = sb_arena_alloc(a, (n ? n : 1) * sizeof *kinds);
            for (size_t i = 0; kinds && i < n; i++)
                kinds[i] = rd[i]->kind;
            return svc_problem_err(pb, &err, kinds, kinds ? n : 0);
        }
        return svc_problem_err(pb, &err, NULL, 0);
    }
    /* pixi.lock v1 and conda-lock.yml v1 are one shape, so content alone
     * reads it as pixi.lock: a conda-lock user sent no name and is told how
     * to have it read (and recorded) as conda-lock.yml */
    if (in->lock->kind_unsure && !strcmp(in->lock->kind, "pixi.lock"))
        svc_req_add_header(r, "Warning",
                           "299 sbomd \"read as pixi.lock version 1, the shape conda-lock.yml version 1 shares: "
                           "for a conda-lock.yml send filename=conda-lock.yml (or kind=conda-lock.yml)\"");
    /* the lock holds copies of all it needs: keep only the digest */
    in->body = NULL;
    svc_req_count(r, 0, in->lock->kind);
    if (NULL == part)
        svc_req_drop_body(r);
    return 0;
}

int svc_intake_read(svc_req *r, sb_text_shape shape, int digest, svc_intake *in, svc_problem *pb)
{
    return intake_read(r, shape, digest, NULL, in, pb);
}

int svc_intake_read_part(svc_req *r, const char *part, svc_intake *in, svc_problem *pb)
{
    return intake_read(r, SB_TEXTS_CYCLONEDX, 0, part, in, pb);
}

int svc_intake_select(svc_req *r, svc_intake *in, sb_sbom **out, svc_problem *pb)
{
    sb_err err;
    sb_err_clear(&err);
    in->sel.consume = true; /* one selection of this lock: its records may be taken as they are */
    if (sb_select(out, svc_req_arena(r), in->lock, &in->sel, &err) != SB_OK) {
        if (err.code == SB_ETIMEOUT)
            return svc_problem_timeout(pb);
        const char **choices = NULL;
        int n = err.code == SB_ENOTFOUND ? svc_intake_choices(r, in->lock, in->sel.environment, &choices) : 0;
        return svc_problem_err(pb, &err, choices, (size_t)n);
    }
    svc_req_note(r, NULL, (long)(*out)->npkgs);
    if (svc_intake_policy(r, in, *out, pb) ||
        svc_gates_license(&in->gate, in->fail_license, in->policy.name, svc_req_arena(r), pb))
        return 1;
    if (svc_req_expired(r))
        return svc_problem_timeout(pb);
    return 0;
}

/* Every pair of one lock selected with `base` (the request's selection, or
 * one lockfile's of a repository), its lookups queued before any is
 * selected; at most `room` documents. 0 with *out, *nout set, or 1 with the
 * answer. */
static int select_pairs(svc_req *r, svc_intake *in, const sb_lock *lock, const sb_select_opts *base, size_t room,
                        sb_sbom ***out, size_t *nout, svc_problem *pb)
{
    sb_arena *a = svc_req_arena(r);
    sb_err err;
    sb_err_clear(&err);
    sb_select_pair *pairs = NULL;
    size_t np = 0;
    if (sb_model_pairs(&pairs, &np, a, lock, base, in->all_envs, in->all_plats, room, &err) != SB_OK) {
        const char **choices = NULL;
        int n = err.code == SB_ENOTFOUND ? svc_intake_choices(r, lock, base->environment, &choices) : 0;
        return svc_problem_err(pb, &err, choices, (size_t)n);
    }
    /* every pair's lookups are queued before any is selected, so they run
     * together; with a filter, only what it keeps (learnt by a selection
     * without lookups; an unknown platform is answered by the real one) */
    for (size_t i = 0; base->lookup && i < np; i++) {
        sb_select_opts sel = *base;
        sel.environment = pairs[i].environment;
        sel.platform = pairs[i].platform;
        if (sb_filter_active(sel.filter)) {
            sb_select_opts probe = sel;
            probe.lookup = NULL;
            probe.health = NULL; /* and no health lookups: the selection asks them */
            sb_sbom *kept = NULL;
            sb_err perr;
            if (sb_select(&kept, a, lock, &probe, &perr) == SB_OK)
                svc_lookup_prefetch_pkgs(sel.lookup_ctx, kept->pkgs, kept->npkgs, a);
        } else {
            svc_lookup_prefetch(sel.lookup_ctx, sb_select_platform(lock, &sel), sel.package_cache, a);
        }
    }
    sb_sbom **docs = sb_arena_alloc(a, (np + 1) * sizeof *docs);
    if (NULL == docs)
        return svc_problem_code(pb, SB_ENOMEM, "out of memory");
    size_t at = 0;
    if (sb_model_select_pairs(docs, a, lock, base, pairs, np, &at, &err) != SB_OK) {
        if (err.code == SB_ETIMEOUT)
            return svc_problem_timeout(pb);
        const char **choices = NULL;
        int n = err.code == SB_ENOTFOUND ? svc_intake_choices(r, lock, pairs[at].environment, &choices) : 0;
        return svc_problem_err(pb, &err, choices, (size_t)n);
    }
    *out = docs;
    *nout = np;
    return 0;
}

/* A repository's documents: each lockfile's own, as its single upload
 * would give them (its manifest, its path as the lockfile's name), in the
 * archive's order; what all-* does not vary stays what the lockfile's own
 * selection settled on when the archive was read. */
static int select_repo(svc_req *r, svc_intake *in, sb_sbom ***out, size_t *nout, svc_problem *pb)
{
    sb_arena *a = svc_req_arena(r);
    const struct sb_repo *R = in->repo;
    size_t max = (size_t)svc_req_cfg(r)->max_documents, nd = 0;
    sb_sbom **docs = sb_arena_alloc(a, (max + 1) * sizeof *docs);
    if (NULL == docs)
        return svc_problem_code(pb, SB_ENOMEM, "out of memory");
    for (size_t i = 0; i < R->nfiles; i++) {
        const sb_repo_file *f = &R->files[i];
        if (f->state != SB_REPO_READ)
            continue;
        sb_select_opts base = in->sel;
        base.lockfile_name = f->path;
        if (f->man)
            base.manifest = f->man;
        if (!in->all_envs)
            base.environment = f->environment;
        if (!in->all_plats && !in->all_envs)
            base.platform = f->platform;
        sb_sbom **some = NULL;
        size_t n = 0;
        if (select_pairs(r, in, f->lock, &base, max - nd, &some, &n, pb))
            return 1;
        memcpy(docs + nd, some, n * sizeof *some);
        nd += n;
    }
    *out = docs;
    *nout = nd;
    return 0;
}

int svc_intake_select_all(svc_req *r, svc_intake *in, sb_sbom ***out, size_t *nout, svc_problem *pb)
{
    sb_sbom **docs = NULL;
    size_t np = 0;
    if (in->repo ? select_repo(r, in, &docs, &np, pb)
                 : select_pairs(r, in, in->lock, &in->sel, (size_t)svc_req_cfg(r)->max_documents, &docs, &np, pb))
        return 1;
    long total = 0;
    for (size_t i = 0; i < np; i++) { /* at least one: every environment has its document */
        if (svc_intake_policy(r, in, docs[i], pb))
            return 1;
        total += (long)docs[i]->npkgs;
    }
    svc_req_note(r, NULL, total);
    if (svc_gates_license(&in->gate, in->fail_license, in->policy.name, svc_req_arena(r), pb))
        return 1;
    *out = docs;
    *nout = np;
    return 0;
}

/* A list of choices the answer outlives the stage with: an arena copy of
 * the pointers and strings (NULL when out of memory: the answer has none). */
static const char *const *keep_list(sb_arena *a, const char *const *v, size_t n)
{
    const char **o = sb_arena_alloc(a, (n ? n : 1) * sizeof *o);
    for (size_t i = 0; o && i < n; i++)
        if (NULL == (o[i] = sb_arena_strdup(a, v[i])))
            return NULL;
    return o;
}

/* (intake.h) */
int svc_intake_explain_known(svc_req *r, const sb_sbom *s, const char *want, svc_problem *pb)
{
    sb_arena *a = svc_req_arena(r);
    const char *w = sb_model_pep503_or_same(a, want);
    for (size_t i = 0; i < s->npkgs; i++)
        if (!strcmp(want, s->pkgs[i].name) || (w && !strcmp(w, sb_model_pep503_or_same(a, s->pkgs[i].name))))
            return 0;
    for (size_t i = 0; i < s->nexcluded; i++)
        if (!strcmp(want, s->excluded[i].name) || (w && !strcmp(w, sb_model_pep503_or_same(a, s->excluded[i].name))))
            return 0;
    /* an empty 200 reads as "nothing to say about it", which is wrong:
     * the name is not there. Offer the closest names (one of a typo's
     * edit distance first), at most 20. */
    enum { NCHOICES = 20 };
    const char *choices[NCHOICES];
    size_t dist[NCHOICES], n = 0;
    for (size_t i = 0; i < s->npkgs; i++) {
        const char *name = s->pkgs[i].name;
        size_t d = svc_distance(want, name);
        int dup = 0;
        for (size_t k = 0; k < n && !dup; k++)
            dup = !strcmp(choices[k], name);
        if (dup)
            continue;
        size_t at = n < NCHOICES ? n++ : NCHOICES;
        if (at == NCHOICES) {
            if (d >= dist[NCHOICES - 1])
                continue;
            at = NCHOICES - 1;
        }
        while (at > 0 && (dist[at - 1] > d || (dist[at - 1] == d && strcmp(choices[at - 1], name) > 0))) {
            choices[at] = choices[at - 1], dist[at] = dist[at - 1];
            at--;
        }
        choices[at] = name, dist[at] = d;
    }
    char detail[400];
    size_t len = strlen(want);
    int close = n && dist[0] <= (len > 6 ? 3u : len > 3 ? 2u : 1u);
    snprintf(detail, sizeof detail,
             "no package named '%.64s' in %s/%s (%zu packages)%s%s%s; choices lists the closest names", want,
             s->environment ? s->environment : "-", s->platform ? s->platform : "-", s->npkgs,
             close ? ": did you mean '" : "", close ? choices[0] : "", close ? "'?" : "");
    return svc_problem_type(pb, SVC_PT_UNKNOWN_CHOICE, detail, keep_list(a, choices, n), n);
}

/* The format label a report or diff answer is counted under in
 * sbomd_documents_total (and logged with): report-<output>. */
static const char *const report_labels[SB_REPORT_NOUTPUTS] = {"report-json", "report-text", "report-markdown",
                                                              "report-csv", "report-sarif"};

const char *svc_intake_report_label(int output)
{
    return output >= 0 && output < SB_REPORT_NOUTPUTS ? report_labels[output] : NULL;
}

int svc_intake_output(svc_req *r, const sb_report_kind *k, const sb_doc_ops **ops, svc_problem *pb)
{
    const char *types[SB_REPORT_NOUTPUTS], *names[SB_REPORT_NOUTPUTS];
    sb_report_output outs[SB_REPORT_NOUTPUTS];
    size_t n = 0;
    for (int o = 0; o < SB_REPORT_NOUTPUTS; o++)
        if (k->ops[o]) {
            outs[n] = (sb_report_output)o;
            names[n] = sb_report_output_name(outs[n]);
            types[n] = sb_report_output_media(outs[n]);
            n++;
        }
    const char *output = svc_req_q(r)->output;
    if (output) {
        sb_report_output out;
        if (sb_report_output_find(output, &out) || NULL == k->ops[out]) {
            char detail[160];
            snprintf(detail, sizeof detail, "the %s report is not written as '%.40s'", k->name, output);
            return svc_problem_type(pb, SVC_PT_INVALID_PARAMETER, detail, keep_list(svc_req_arena(r), names, n), n);
        }
        *ops = k->ops[out];
        svc_req_note(r, report_labels[out], -1);
        return 0;
    }
    /* negotiation compares bare media types */
    char bare[SB_REPORT_NOUTPUTS][40];
    const char *bares[SB_REPORT_NOUTPUTS];
    for (size_t i = 0; i < n; i++) {
        snprintf(bare[i], sizeof bare[i], "%.*s", (int)strcspn(types[i], ";"), types[i]);
        bares[i] = bare[i];
    }
    int t = svc_negotiate_type(svc_req_header(r, "Accept"), bares, n);
    if (t < 0) {
        return svc_problem_type(pb, SVC_PT_NOT_ACCEPTABLE, "no acceptable output for this report",
                                keep_list(svc_req_arena(r), bares, n), n);
    }
    *ops = k->ops[outs[t]];
    svc_req_note(r, report_labels[outs[t]], -1);
    return 0;
}
