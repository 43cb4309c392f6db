/*
 * sbomgen.c - command-line front-end over core/, for benchmarks and tests.
 *
 *   sbomgen [-f FORMAT] [-e ENV] [-p PLATFORM] [-t EPOCH] [-b BUFSIZE] [-c] LOCKFILE
 *   sbomgen -r packages|licenses|python|tree [-o json|text] ... LOCKFILE   (a report)
 *   sbomgen -m MANIFEST [-i GLOB].. [-x GLOB].. [-k KIND].. [-S] [-O] ... LOCKFILE
 *          (a workspace manifest beside the lockfile, and the filters:
 *           include, exclude, exclude-kind, scope=required, keep-orphans)
 *
 * Writes the document to stdout through the same producer the server uses,
 * `BUFSIZE` bytes at a time (default 65536), so tests can check that output
 * does not depend on the buffer size.
 */
#include "../core/arena.h"
#include "../core/doc.h"
#include "../core/filter.h"
#include "../core/lock.h"
#include "../core/manifest.h"
#include "../core/model.h"
#include "../core/select.h"
#include "../core/par.h"
#include "../core/policy.h"
#include "../core/report.h"
#include "../core/uuid.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int read_file(const char *path, char **out, size_t *len)
{
    FILE *f = strcmp(path, "-") ? fopen(path, "rb") : stdin;
    if (NULL == f)
        return -1;
    /* a regular file in one buffer of its size (+1 to see the end): doubling
     * would hold the old and the new buffer at once, half again the input */
    struct stat st;
    size_t cap = 1 << 16, n = 0;
    if (0 == fstat(fileno(f), &st) && S_ISREG(st.st_mode) && st.st_size > 0)
        cap = (size_t)st.st_size + 1;
    char *b = malloc(cap);
    while (b) {
        size_t k = fread(b + n, 1, cap - n, f);
        n += k;
        if (n < cap)
            break;
        cap *= 2;
        char *nb = realloc(b, cap);
        if (NULL == nb) {
            free(b);
            b = NULL;
        }
        b = nb;
    }
    if (f != stdin)
        fclose(f);
    if (NULL == b)
        return -1;
    *out = b;
    *len = n;
    return 0;
}

/* The workspace manifest as the service reads the `manifest` part: text
 * that is malformed fails (file:line:column), one that is no manifest at
 * all is a warning and the document is made without it (pixi:incomplete). */
static int read_manifest(const char *path, sb_arena *a, const sb_limits *lim, char **data, sb_select_opts *sel)
{
    size_t len;
    if (read_file(path, data, &len) != 0) {
        fprintf(stderr, "sbomgen: cannot read %s: %s\n", path, strerror(errno));
        return -1;
    }
    const char *base = strrchr(path, '/');
    sb_manifest *m = NULL;
    sb_err err;
    sb_err_clear(&err);
    sb_code rc = sb_manifest_read(&m, a, base ? base + 1 : path, *data, len, lim, &err);
    if (rc == SB_OK) {
        sel->manifest = m;
        return 0;
    }
    if (rc == SB_EFORMAT) {
        fprintf(stderr, "sbomgen: warning: manifest %s not read: %s\n", path, err.msg);
        sel->manifest_problem = sb_arena_printf(a, "manifest '%s' not read: %s", base ? base + 1 : path, err.msg);
        return 0;
    }
    if (err.line)
        fprintf(stderr, "sbomgen: %s:%u:%u: %s\n", path, err.line, err.column, err.msg);
    else
        fprintf(stderr, "sbomgen: %s: %s\n", path, err.msg);
    return -1;
}

/* A manifest that is the other half of the input (go.sum beside go.mod,
 * or the reverse): 1 and *data replaced by the two joined, 0 when it is
 * not, -1 when it cannot be read (read_manifest says why). */
static int join_manifest(const char *path, const char *mpath, char **data, size_t *len)
{
    char *m = NULL;
    size_t mlen;
    if (read_file(mpath, &m, &mlen) != 0)
        return -1;
    sb_arena *a = sb_arena_new(0);
    const char *j = *data;
    size_t jl = *len;
    int rc = a ? sb_lock_join_parts(a, &j, &jl, path, m, mlen, mpath) : -1;
    char *copy = rc > 0 ? malloc(jl + 1) : NULL;
    if (copy) {
        memcpy(copy, j, jl + 1);
        free(*data);
        *data = copy;
        *len = jl;
    }
    free(m);
    sb_arena_destroy(a);
    return copy ? 1 : rc > 0 ? -1 : rc;
}

static void usage(void)
{
    fprintf(stderr,
            "usage: sbomgen [-f FORMAT] [-e ENV] [-p PLATFORM] [-t EPOCH] [-b BUFSIZE] [-c] [-n ROOT]\n"
            "               [-C PACKAGE_CACHE] [-L (license texts)] [-F FILE_MAX] [-T TEXTS_MAX]\n"
            "               [-r REPORT [-o json|text|markdown|csv|sarif]]\n"
            "               [-A ALLOW,..] [-D DENY,..] [-R (require a license)] [-I PKG[:WHY],..]\n"
            "               [-m MANIFEST] [-i INCLUDE_GLOB].. [-x EXCLUDE_GLOB].. [-k EXCLUDE_KIND]..\n"
            "               [-S (scope=required)] [-O (keep orphans)]\n"
            "               [-G sha|ref|correlator|job-id|job-url|path=VALUE].. (github-snapshot)\n"
            "               [-P THREADS[:MIN_BYTES] (reading in pieces)] LOCKFILE\n");
}

int main(int argc, char **argv)
{
    const char *format = "cyclonedx-1.6", *report = NULL, *output = "json";
    const char *allow = NULL, *deny = NULL, *ignore = NULL;
    bool require = false;
    sb_policy pol = {0};
    sb_select_opts sel = {0};
    sel.lookup_probe = sb_lookup_probe; /* no lookups here: documents say why licenses are absent */
    sel.consume = true;                 /* one selection of the lock, as the service's single document */
    sb_doc_opts dopts = {0};
    sb_doc_snapshot snap = {0};
    dopts.pretty = true;
    dopts.snapshot = &snap;
    dopts.timestamp = 0;
    size_t bufsize = 65536;
    /* filters as the query parameters give them: repeatable, at most 256
     * patterns of each kind like the service */
    enum { PATTERNS_MAX = 256 };
    const char *inc[PATTERNS_MAX], *exc[PATTERNS_MAX];
    sb_filter filt = {0};
    const char *manifest_path = NULL;
    int opt;
    filt.include = inc;
    filt.exclude = exc;
    while ((opt = getopt(argc, argv, "f:e:p:t:b:cn:C:LF:T:r:o:A:D:RI:m:i:x:k:SOP:G:")) != -1) {
        switch (opt) {
        case 'f': format = optarg; break;
        case 'e': sel.environment = optarg; break;
        case 'p': sel.platform = optarg; break;
        case 't': dopts.timestamp = (time_t)strtoll(optarg, NULL, 10); break;
        case 'b': bufsize = (size_t)strtoull(optarg, NULL, 10); break;
        case 'c': dopts.pretty = false; break;
        case 'P': { /* threads per request[:smallest input to split], for tests */
            char *colon = strchr(optarg, ':');
            sb_par_configure((size_t)strtoull(optarg, NULL, 10), colon ? (size_t)strtoull(colon + 1, NULL, 10) : 0);
            break;
        }
        case 'n': sel.root_name = optarg; break;
        case 'C': sel.package_cache = optarg; break;
        case 'L': sel.license_texts = true; break;
        case 'F': sel.license_file_max = strtoll(optarg, NULL, 10); break;
        case 'T': sel.license_texts_max = strtoll(optarg, NULL, 10); break;
        case 'r': report = optarg; break;
        case 'o': output = optarg; break;
        case 'A': allow = optarg; break;
        case 'D': deny = optarg; break;
        case 'R': require = true; break;
        case 'I': ignore = optarg; break;
        case 'm': manifest_path = optarg; break;
        case 'i':
        case 'x':
            if ((opt == 'i' ? filt.ninclude : filt.nexclude) == PATTERNS_MAX) {
                fprintf(stderr, "sbomgen: at most %d -%c patterns\n", PATTERNS_MAX, opt);
                return 2;
            }
            if (opt == 'i')
                inc[filt.ninclude++] = optarg;
            else
                exc[filt.nexclude++] = optarg;
            break;
        case 'k':
            if (0 == sb_filter_kind_bit(optarg)) {
                fprintf(stderr, "sbomgen: '%s' is not a package kind\n", optarg);
                return 2;
            }
            filt.kinds |= sb_filter_kind_bit(optarg);
            break;
        case 'S': filt.required_only = true; break;
        case 'O': filt.keep_orphans = true; break;
        case 'G': { /* the service's query parameters of format=github-snapshot, unchecked */
            static const char *const keys[] = {"sha", "ref", "correlator", "job-id", "job-url", "path"};
            const char **fields[] = {&snap.sha,    &snap.ref,     &snap.correlator,
                                     &snap.job_id, &snap.job_url, &snap.source_location};
            size_t k = 0, n = strcspn(optarg, "=");
            while (k < 6 && (strlen(keys[k]) != n || strncmp(keys[k], optarg, n)))
                k++;
            if (k == 6 || optarg[n] != '=') {
                usage();
                return 2;
            }
            *fields[k] = optarg + n + 1;
            break;
        }
        default: usage(); return 2;
        }
    }
    if (optind != argc - 1 || bufsize == 0) {
        usage();
        return 2;
    }
    sb_report_output rout = SB_REPORT_JSON;
    if (report && sb_report_output_find(output, &rout)) {
        fprintf(stderr, "sbomgen: unknown output '%s'\n", output);
        return 2;
    }
    const sb_doc_ops *ops = report ? sb_report_find(report, rout) : sb_doc_find(format);
    if (NULL == ops) {
        fprintf(stderr, "sbomgen: unknown %s '%s'\n", report ? "report" : "format", report ? report : format);
        return 2;
    }
    char *data;
    size_t len;
    if (read_file(argv[optind], &data, &len) != 0) {
        fprintf(stderr, "sbomgen: cannot read %s: %s\n", argv[optind], strerror(errno));
        return 1;
    }
    if (manifest_path && join_manifest(argv[optind], manifest_path, &data, &len) > 0)
        manifest_path = NULL; /* go.mod and go.sum: one input, as the service joins them */
    const char *base = strrchr(argv[optind], '/');
    sel.lockfile_name = base ? base + 1 : argv[optind];
    sel.text_shape = ops->text_shape;
    /* as the service: the input's digest kept for the serial, the bytes
     * freed once read (the lock holds copies of all it needs), so the peak
     * measured here is the server's (loadtest/js-bound.sh) */
    unsigned char digest[20];
    sb_sha1 h;
    sb_sha1_init(&h);
    sb_sha1_update(&h, data, len);
    sb_sha1_final(&h, digest);
    dopts.input_sha1 = digest;
    sb_arena *a = sb_arena_new(0);
    sb_err err;
    sb_err_clear(&err);
    sb_lock *lock = NULL;
    sb_sbom *sbom = NULL;
    sb_doc *doc = NULL;
    char *mdata = NULL;
    int status = 1;
    char *buf = malloc(bufsize);
    if (NULL == a || NULL == buf) {
        fprintf(stderr, "sbomgen: out of memory\n");
        goto cleanup;
    }
    sb_limits lim = SB_LIMITS_DEFAULT;
    lim.platform = sb_select_reader_platform(&sel); /* the one document's platform */
    if (manifest_path && read_manifest(manifest_path, a, &lim, &mdata, &sel) != 0)
        goto cleanup;
    sel.filter = &filt; /* as the service: an empty filter drops nothing */
    sb_code rrc = sb_lock_read(&lock, a, "auto", data, len, sel.lockfile_name, &lim, &err);
    free(data);
    data = NULL;
    if (rrc != SB_OK || sb_select(&sbom, a, lock, &sel, &err) != SB_OK ||
        (allow && sb_policy_add_ids(&pol, a, false, allow, &err) != SB_OK) ||
        (deny && sb_policy_add_ids(&pol, a, true, deny, &err) != SB_OK) ||
        (ignore && sb_policy_add_ignores(&pol, a, ignore, &err) != SB_OK) ||
        ((pol.require = require, sb_policy_active(&pol)) && sb_policy_apply(&pol, sbom, a, NULL) != SB_OK) ||
        sb_doc_new(&doc, a, ops, sbom, &dopts, &err) != SB_OK) {
        if (err.line)
            fprintf(stderr, "sbomgen: %s:%u:%u: %s\n", argv[optind], err.line, err.column, err.msg);
        else
            fprintf(stderr, "sbomgen: %s: %s\n", argv[optind], err.msg);
        status = err.code == SB_EUNSUPPORTED ? 3 : 1;
        goto cleanup;
    }
    for (;;) {
        ssize_t n = sb_doc_produce(doc, buf, bufsize);
        if (n < 0) {
            fprintf(stderr, "sbomgen: %s\n", doc->err.msg);
            goto cleanup;
        }
        if (n == 0)
            break;
        if (fwrite(buf, 1, (size_t)n, stdout) != (size_t)n) {
            fprintf(stderr, "sbomgen: write error\n");
            goto cleanup;
        }
    }
    status = 0;
cleanup:
    sb_doc_free(doc);
    sb_arena_destroy(a);
    free(mdata);
    free(buf);
    free(data);
    return status;
}
