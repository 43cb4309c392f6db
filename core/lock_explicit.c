/*
 * lock_explicit.c - explicit conda specs (`conda list --explicit`, conda-lock
 * render), read line by line.
 *
 * `# platform: X` names the platform; blank lines, other comments and
 * `@EXPLICIT` are skipped; every other line must be a package URL, with an
 * optional fragment: `#sha256:<hex>`, `#md5:<hex>`, a bare 64-hex value
 * (SHA-256) or another bare value (MD5). Without the comment the platform is
 * the first non-noarch subdir among the URLs, else noarch. One `default`
 * environment; the format records no dependencies, so there are no edges.
 */
#include "lock.h"
#include "deadline.h"
#include "lock_int.h"

#include <ctype.h>
#include <string.h>

static int explicit_detect(const char *data, size_t len, const char *filename)
{
    (void)filename;
    const char *p = data, *end = data + len;
    for (int line = 0; line < 50 && p < end; line++) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);
        while (n && (p[n - 1] == '\r' || p[n - 1] == ' '))
            n--;
        if (n == 9 && !memcmp(p, "@EXPLICIT", 9))
            return 3;
        p = nl ? nl + 1 : end;
    }
    return 0;
}

static const char *lower(sb_arena *a, const char *s, size_t n)
{
    char *d = sb_arena_strndup(a, s, n);
    if (d)
        for (char *c = d; *c; c++)
            *c = (char)tolower((unsigned char)*c);
    return d;
}

static int all_hex(const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!isxdigit((unsigned char)s[i]))
            return 0;
    return n > 0;
}

static sb_code explicit_read(sb_lock **out, sb_arena *a, const char *data, size_t len, const sb_limits *lim,
                             sb_err *err)
{
    sb_lock *l = sb_arena_calloc(a, 1, sizeof *l);
    if (NULL == l)
        return sb_err_set(err, SB_ENOMEM, "out of memory");
    l->kind = "conda explicit spec";
    l->no_dep_data = true; /* an explicit spec lists URLs, never what depends on what */
    l->version = 1;
    if (memchr(data, '\0', len))
        return sb_err_set(err, SB_EPARSE, "the input contains a NUL byte");
    const char *platform = NULL, *first_subdir = NULL;
    sb_pkg **pkgs = NULL;
    size_t n = 0, cap = 0;
    const char *p = data, *end = data + len;
    sb_deadline dl = {lim->deadline_ns, 0, "reading the lockfile"};
    for (unsigned line = 1; p < end; line++) {
        if (sb_deadline_tick(&dl, err) != SB_OK)
            return SB_ETIMEOUT;
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        size_t ll = nl ? (size_t)(nl - p) : (size_t)(end - p);
        const char *s = p;
        p = nl ? nl + 1 : end;
        while (ll && isspace((unsigned char)*s)) {
            s++;
            ll--;
        }
        while (ll && isspace((unsigned char)s[ll - 1]))
            ll--;
        if (0 == ll || (ll == 9 && !memcmp(s, "@EXPLICIT", 9)))
            continue;
        if (s[0] == '#') {
            const char *q = s + 1;
            size_t ql = ll - 1;
            while (ql && *q == ' ') {
                q++;
                ql--;
            }
            if (ql > 9 && !memcmp(q, "platform:", 9)) {
                q += 9;
                ql -= 9;
                while (ql && *q == ' ') {
                    q++;
                    ql--;
                }
                if (ql)
                    platform = sb_arena_strndup(a, q, ql);
            }
            continue;
        }
        char *text = sb_arena_strndup(a, s, ll);
        if (NULL == text)
            return sb_err_set(err, SB_ENOMEM, "out of memory");
        if (!strstr(text, "://"))
            return sb_err_set_at(err, SB_EPARSE, line, 1, "line %u is not a package URL: %.120s", line, text);
        if (n >= lim->max_packages)
            return sb_err_set_at(err, SB_ELIMIT, line, 1, "more than %zu packages", lim->max_packages);
        sb_pkg *pkg = sb_arena_calloc(a, 1, sizeof *pkg);
        if (NULL == pkg)
            return sb_err_set(err, SB_ENOMEM, "out of memory");
        if (NULL == sb_pkg_x(pkg, a))
            return sb_err_set(err, SB_ENOMEM, "out of memory");
        char *frag = strchr(text, '#');
        if (frag) {
            *frag++ = '\0';
            size_t fl = strlen(frag);
            if (fl > 7 && !strncmp(frag, "sha256:", 7) && all_hex(frag + 7, fl - 7) && fl - 7 == 64)
                pkg->sha256 = lower(a, frag + 7, 64);
            else if (fl > 4 && !strncmp(frag, "md5:", 4) && all_hex(frag + 4, fl - 4) && fl - 4 == 32)
                pkg->x->md5 = lower(a, frag + 4, 32);
            else if (fl == 64 && all_hex(frag, fl))
                pkg->sha256 = lower(a, frag, 64);
            else if (fl == 32 && all_hex(frag, fl))
                pkg->x->md5 = lower(a, frag, 32);
            else if (fl)
                return sb_err_set_at(err, SB_EPARSE, line, (unsigned)(frag - text) + 1,
                                     "line %u: '#%.80s' is not a SHA-256 or MD5 hash", line, frag);
        }
        if (sb_lock__conda_from_url(a, pkg, text) != SB_OK)
            return sb_err_set(err, SB_ENOMEM, "out of memory");
        if (NULL == pkg->name || !pkg->name[0] || NULL == pkg->x->archive_type)
            return sb_err_set_at(err, SB_EPARSE, line, 1, "line %u is not a conda package archive URL: %.120s", line,
                                 text);
        if (!first_subdir && pkg->x->subdir && strcmp(pkg->x->subdir, "noarch"))
            first_subdir = pkg->x->subdir;
        sb_pkg **np = sb_arena_grow(a, pkgs, &cap, n, sizeof *np, 32);
        if (NULL == np)
            return sb_err_set(err, SB_ENOMEM, "out of memory");
        pkgs = np;
        pkgs[n++] = pkg;
    }
    if (NULL == platform)
        platform = first_subdir ? first_subdir : "noarch";
    sb_lock_env *env = sb_lock_env_get(l, a, "default");
    sb_lock_platform *plat = env ? sb_lock_platform_get(env, a, platform) : NULL;
    if (NULL == plat)
        return sb_err_set(err, SB_ENOMEM, "out of memory");
    for (size_t i = 0; i < n; i++) {
        if (pkgs[i]->x->channel_url && sb_strv_push(&env->channels, a, pkgs[i]->x->channel_url) != SB_OK)
            return sb_err_set(err, SB_ENOMEM, "out of memory");
        if (sb_lock_platform_add(plat, a, pkgs[i]) != SB_OK)
            return sb_err_set(err, SB_ENOMEM, "out of memory");
    }
    l->nrecords = n;
    *out = l;
    return SB_OK;
}

const sb_reader sb_reader_explicit = {.kind = "conda explicit spec",
                                      .detect = explicit_detect,
                                      .read = explicit_read,
                                      .record_line = "",
                                      .record_char = 0,
                                      .per_record = 1000,
                                      .per_byte = 2};
