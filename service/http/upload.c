/*
 * upload.c - where the inputs are in a request: the raw body (the lockfile),
 * or the named parts of a multipart/form-data body (RFC 7578): `lockfile`
 * (several: a repository's lockfiles) and the optional `manifest` and `vex`,
 * or instead of the lockfile several `sbom` parts (SBOMs to merge), with the file names their
 * Content-Disposition gives them.
 */
#include "request_int.h"
#include "multipart.h"
#include "../../core/model.h"

#include <stdio.h>

#include <string.h>
#include <strings.h>

/* File names are echoed (documents, reports, logs): without control
 * characters from here on. NULL when out of memory: no name then. */
static const char *printable(svc_req *r, const char *name)
{
    const char *out;
    return sb_str_no_controls(r->arena, name, &out) == SB_OK ? out : NULL;
}

static const char *svc_upload_filename_hint(svc_req *r)
{
    const char *cd = svc_req_header(r, "Content-Disposition");
    return cd ? printable(r, svc_multipart_safe_name(svc_multipart_param(svc_req_arena(r), cd, "filename"))) : NULL;
}

/* The parts of the request's multipart body, parsed once per request
 * (/v1/diff asks for two of them) and in place in the body. */
static int parts_of(svc_req *r, const char *ct, svc_part **parts, size_t *n, sb_err *err)
{
    if (!r->parts_read) {
        if (svc_multipart_parse(r->arena, ct, r->body.data, r->body.len, &r->parts, &r->nparts, err))
            return -1;
        r->parts_read = 1;
        for (size_t i = 0; i < r->nparts; i++)
            r->parts[i].filename = printable(r, r->parts[i].filename);
    }
    *parts = r->parts;
    *n = r->nparts;
    return 0;
}

int svc_upload_read(svc_req *r, svc_upload *up, sb_err *err)
{
    const char *ct = svc_req_header(r, "Content-Type");
    size_t len;
    const char *body = svc_req_body(r, &len);
    memset(up, 0, sizeof *up);
    if (NULL == ct || strncasecmp(ct, "multipart/form-data", 19)) {
        up->lockfile = (svc_part){"lockfile", svc_upload_filename_hint(r), body, len};
        return 0;
    }
    svc_part *parts;
    size_t n;
    if (parts_of(r, ct, &parts, &n, err))
        return -1;
    int have_lock = 0;
    for (size_t i = 0; i < n; i++) {
        /* each input once: a second part of a name would be dropped
         * silently otherwise, and the client would not know which counted */
        int *have;
        svc_part *slot;
        if (!strcmp(parts[i].name, "lockfile"))
            have = &have_lock, slot = &up->lockfile;
        else if (!strcmp(parts[i].name, "manifest"))
            have = &up->has_manifest, slot = &up->manifest;
        else if (!strcmp(parts[i].name, "vex"))
            have = &up->has_vex, slot = &up->vex;
        else if (!strcmp(parts[i].name, "sbom")) { /* several: merged */
            if (up->nsboms == SVC_MAX_SBOM_PARTS) {
                sb_err_set(err, SB_ELIMIT, "more than %d 'sbom' parts: merge at most %d documents in one request",
                           SVC_MAX_SBOM_PARTS, SVC_MAX_SBOM_PARTS);
                return -1;
            }
            if (NULL == up->sboms &&
                NULL == (up->sboms = sb_arena_alloc(r->arena, SVC_MAX_SBOM_PARTS * sizeof *up->sboms))) {
                sb_err_set(err, SB_ENOMEM, "out of memory");
                return -1;
            }
            up->sboms[up->nsboms++] = parts[i];
            continue;
        } else
            continue;                         /* other form fields are not inputs */
        if (*have && slot == &up->lockfile) { /* several lockfiles: a repository's, read as one */
            if (up->nlocks == SVC_MAX_LOCK_PARTS) {
                sb_err_set(err, SB_ELIMIT, "more than %d 'lockfile' parts: send the repository as an archive",
                           SVC_MAX_LOCK_PARTS);
                return -1;
            }
            if (NULL == up->locks) {
                if (NULL == (up->locks = sb_arena_alloc(r->arena, SVC_MAX_LOCK_PARTS * sizeof *up->locks))) {
                    sb_err_set(err, SB_ENOMEM, "out of memory");
                    return -1;
                }
                up->locks[up->nlocks++] = up->lockfile;
            }
            up->locks[up->nlocks++] = parts[i];
            continue;
        }
        if (*have) {
            sb_err_set(err, SB_EPARSE, "multipart/form-data upload has more than one '%s' part: send one",
                       parts[i].name);
            return -1;
        }
        *have = 1;
        *slot = parts[i];
    }
    if (have_lock && up->nsboms) {
        sb_err_set(err, SB_EPARSE,
                   "multipart/form-data upload has both a 'lockfile' and 'sbom' parts: send one or the other");
        return -1;
    }
    if (up->nsboms)
        up->lockfile = up->sboms[0]; /* for the checks on the first input (empty, file name) */
    else if (!have_lock) {
        /* name what came instead: -F bom=@... or -F file=@... is the usual
         * slip, and the fix is a part name */
        char seen[160] = "";
        size_t at = 0;
        for (size_t i = 0; i < n && at < sizeof seen - 40; i++)
            at += (size_t)snprintf(seen + at, sizeof seen - at, "%s'%.32s'", at ? ", " : "", parts[i].name);
        sb_err_set(err, SB_EPARSE,
                   "multipart/form-data upload has no 'lockfile' part (or 'sbom' parts)%s%s%s: send the lockfile "
                   "as -F lockfile=@FILE, an SBOM to convert or merge as -F sbom=@FILE",
                   n ? "; it had " : "", seen, n ? (n == 1 ? " only" : "") : "");
        return -1;
    }
    return 0;
}

int svc_upload_part(svc_req *r, const char *name, const char **data, size_t *len, const char **filename, sb_err *err)
{
    const char *ct = svc_req_header(r, "Content-Type");
    if (NULL == ct || strncasecmp(ct, "multipart/form-data", 19)) {
        sb_err_set(err, SB_EPARSE, "this endpoint takes a multipart/form-data body with a '%s' part", name);
        return -1;
    }
    svc_part *parts;
    size_t n;
    if (parts_of(r, ct, &parts, &n, err))
        return -1;
    const svc_part *found = NULL;
    for (size_t i = 0; i < n; i++) {
        if (strcmp(parts[i].name, name))
            continue;
        if (found) {
            sb_err_set(err, SB_EPARSE, "multipart/form-data upload has more than one '%s' part: send one", name);
            return -1;
        }
        found = &parts[i];
    }
    if (NULL == found) {
        sb_err_set(err, SB_EPARSE, "multipart/form-data upload has no '%s' part", name);
        return -1;
    }
    *data = found->data;
    *len = found->len;
    *filename = found->filename;
    return 0;
}
