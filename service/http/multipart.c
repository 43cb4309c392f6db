/*
 * multipart.c - the multipart/form-data body parser (RFC 7578): the parts of
 * an upload with their form names and file names, each a NUL-terminated
 * copy in the request's arena. No HTTP library here, so the fuzzer
 * (tests/fuzz/fuzz_multipart.c) drives exactly what a request does.
 */
#include "multipart.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

/* Value of parameter `name` in a header value like
 * `form-data; name="lockfile"; filename="pixi.lock"` (quotes optional). */
const char *svc_multipart_param(sb_arena *a, const char *value, const char *name)
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
const char *svc_multipart_safe_name(const char *n)
{
    if (NULL == n)
        return NULL;
    const char *b = n;
    for (const char *p = n; *p; p++)
        if (*p == '/' || *p == '\\')
            b = p + 1;
    return *b ? b : NULL;
}

static const void *find(const char *h, size_t hl, const char *n, size_t nlen)
{
    return nlen <= hl ? memmem(h, hl, n, nlen) : NULL;
}

int svc_multipart_parse(sb_arena *a, const char *ct, char *body, size_t blen, svc_part **out, size_t *nout, sb_err *err)
{
    *out = NULL;
    *nout = 0;
    size_t cap = 0;
    const char *boundary = svc_multipart_param(a, ct, "boundary");
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
                    name = svc_multipart_param(a, line, "name");
                    fname = svc_multipart_param(a, line, "filename");
                }
            }
            h = nl ? nl + 2 : hend;
        }
        if (name) {
            svc_part *v = sb_arena_grow(a, *out, &cap, *nout + 1, sizeof *v, 4);
            if (NULL == v) {
                sb_err_set(err, SB_ENOMEM, "out of memory");
                return -1;
            }
            v[*nout] = (svc_part){name, svc_multipart_safe_name(fname), content, (size_t)(next - content)};
            *out = v;
            (*nout)++;
        }
        p = next + 2;
        if (name)
            body[next - body] = '\0'; /* the part ends here; scanning goes on after the CR LF */
    }
    return 0;
}
