/*
 * upload.c - where the lockfile is in a request: the raw body, or the
 * `lockfile` field of a multipart/form-data body (RFC 7578), and the file
 * name a Content-Disposition gives it; any other named part (the diff's
 * `base` and `head`) the same way.
 */
#include "request.h"

#include <stdio.h>

#include <string.h>
#include <strings.h>

/* Value of parameter `name` in a header value like
 * `form-data; name="lockfile"; filename="pixi.lock"` (quotes optional). */
static const char *header_param(sb_arena *a, const char *value, const char *name)
{
    size_t nl = strlen(name);
    if (NULL == value)
        return NULL;
    for (const char *p = value; *p;) {
        p = strchr(p, ';');
        if (NULL == p)
            return NULL;
        p++;
        while (*p == ' ' || *p == '\t')
            p++;
        if (strncasecmp(p, name, nl) || p[nl] != '=')
            continue;
        p += nl + 1;
        if (*p == '"') {
            const char *e = strchr(p + 1, '"');
            return e ? sb_arena_strndup(a, p + 1, (size_t)(e - p - 1)) : NULL;
        }
        return sb_arena_strndup(a, p, strcspn(p, "; \t\r\n"));
    }
    return NULL;
}

/* A name a client gave is only a hint for detection: keep the last path
 * component and nothing that could mislead a log or a document. */
static const char *safe_name(const char *n)
{
    if (NULL == n)
        return NULL;
    const char *b = n;
    for (const char *p = n; *p; p++)
        if (*p == '/' || *p == '\\')
            b = p + 1;
    return *b ? b : NULL;
}

static const char *svc_upload_filename_hint(svc_req *r)
{
    const char *cd = svc_req_header(r, "Content-Disposition");
    return cd ? safe_name(header_param(svc_req_arena(r), cd, "filename")) : NULL;
}

static const void *find(const char *h, size_t hl, const char *n, size_t nlen)
{
    return nlen <= hl ? memmem(h, hl, n, nlen) : NULL;
}

/* The part named `want` of a multipart/form-data body: 1 and the part's
 * bytes (a NUL-terminated arena copy, as the raw body is) and file name; 0
 * when there is no such part; -1 with err set on a malformed body. */
static int find_part(svc_req *r, const char *ct, const char *want, const char **data, size_t *len,
                     const char **filename, sb_err *err)
{
    size_t blen = 0;
    const char *body = svc_req_body(r, &blen);
    sb_arena *a = svc_req_arena(r);
    const char *boundary = header_param(a, ct, "boundary");
    if (NULL == boundary || !boundary[0] || strlen(boundary) > 70) {
        sb_err_set(err, SB_EPARSE, "multipart/form-data without a usable boundary parameter");
        return -1;
    }
    char delim[80];
    size_t dl = (size_t)snprintf(delim, sizeof delim, "--%s", boundary);
    const char *end = body + blen;
    const char *p = find(body, blen, delim, dl);
    while (p) {
        p += dl;
        if (end - p >= 2 && p[0] == '-' && p[1] == '-')
            break; /* the closing delimiter */
        const char *hdrs = p;
        const char *hend = find(hdrs, (size_t)(end - hdrs), "\r\n\r\n", 4);
        if (NULL == hend) {
            sb_err_set(err, SB_EPARSE, "multipart/form-data part without the blank line after its headers");
            return -1;
        }
        const char *content = hend + 4;
        char close[84];
        size_t cl = (size_t)snprintf(close, sizeof close, "\r\n%s", delim);
        const char *next = find(content, (size_t)(end - content), close, cl);
        if (NULL == next) {
            sb_err_set(err, SB_EPARSE, "multipart/form-data part is not closed by its boundary (truncated upload?)");
            return -1;
        }
        /* the part's Content-Disposition */
        const char *name = NULL, *fname = NULL;
        for (const char *h = hdrs; h < hend;) {
            const char *nl = find(h, (size_t)(hend - h), "\r\n", 2);
            size_t hl = nl ? (size_t)(nl - h) : (size_t)(hend - h);
            if (hl > 20 && !strncasecmp(h, "Content-Disposition:", 20)) {
                char *line = sb_arena_strndup(a, h + 20, hl - 20);
                if (line) {
                    name = header_param(a, line, "name");
                    fname = header_param(a, line, "filename");
                }
            }
            h = nl ? nl + 2 : hend;
        }
        if (name && !strcmp(name, want)) {
            *len = (size_t)(next - content);
            *data = sb_arena_strndup(a, content, *len);
            if (NULL == *data) {
                sb_err_set(err, SB_ENOMEM, "out of memory");
                return -1;
            }
            *filename = safe_name(fname);
            return 1;
        }
        p = next + 2;
    }
    return 0;
}

static int is_multipart(const char *ct)
{
    return ct && !strncasecmp(ct, "multipart/form-data", 19);
}

int svc_upload_lockfile(svc_req *r, const char **data, size_t *len, const char **filename, sb_err *err)
{
    const char *ct = svc_req_header(r, "Content-Type");
    *filename = NULL;
    if (!is_multipart(ct)) {
        *data = svc_req_body(r, len);
        *filename = svc_upload_filename_hint(r);
        return 0;
    }
    int found = find_part(r, ct, "lockfile", data, len, filename, err);
    if (found < 0)
        return -1;
    if (0 == found) {
        sb_err_set(err, SB_EPARSE, "multipart/form-data upload has no 'lockfile' field");
        return -1;
    }
    return 0;
}

int svc_upload_part(svc_req *r, const char *name, const char **data, size_t *len, const char **filename, sb_err *err)
{
    const char *ct = svc_req_header(r, "Content-Type");
    *data = NULL;
    *len = 0;
    *filename = NULL;
    if (!is_multipart(ct)) {
        sb_err_set(err, SB_EPARSE, "send multipart/form-data with a '%s' part", name);
        return -1;
    }
    int found = find_part(r, ct, name, data, len, filename, err);
    if (0 == found)
        sb_err_set(err, SB_EPARSE, "multipart/form-data upload has no '%s' field", name);
    return found == 1 ? 0 : -1;
}
