/*
 * lock.c - reader registry and dispatch by kind or by content.
 */
#include "lock.h"
#include "lock_int.h"

#include <stdio.h>
#include <string.h>

/* The readers: each file's descriptor, in detection order (the highest
 * score wins; ties go to the earlier). A new reader adds its line to both. */
extern const sb_reader sb_reader_pixi, sb_reader_condalock, sb_reader_explicit, sb_reader_uv, sb_reader_pylock,
    sb_reader_poetry, sb_reader_pdm, sb_reader_requirements, sb_reader_npm, sb_reader_pnpm, sb_reader_yarn,
    sb_reader_bun, sb_reader_cyclonedx, sb_reader_spdx;
extern const sb_reader sb_reader_composer, sb_reader_nuget, sb_reader_pub;
extern const sb_reader sb_reader_gomod, sb_reader_gosum, sb_reader_swift, sb_reader_gradle;
extern const sb_reader sb_reader_cargo;
extern const sb_reader sb_reader_conan;
extern const sb_reader sb_reader_gem, sb_reader_cocoapods, sb_reader_mix;

/* One reader a line: adding one is a line here and its extern above. */
/* clang-format off */
static const sb_reader *const readers[] = {
    &sb_reader_explicit,
    &sb_reader_condalock,
    &sb_reader_uv,
    &sb_reader_pylock,
    &sb_reader_poetry,
    &sb_reader_pdm,
    &sb_reader_requirements,
    &sb_reader_bun,
    &sb_reader_npm,
    &sb_reader_pnpm,
    &sb_reader_yarn,
    &sb_reader_pixi,
    &sb_reader_cyclonedx,
    &sb_reader_spdx,
    &sb_reader_composer,
    &sb_reader_nuget,
    &sb_reader_pub,
    &sb_reader_gomod,
    &sb_reader_gosum,
    &sb_reader_swift,
    &sb_reader_gradle,
    &sb_reader_cargo,
    &sb_reader_conan,
    &sb_reader_gem,
    &sb_reader_cocoapods,
    &sb_reader_mix,
    NULL,
};
/* clang-format on */

/* "pixi.lock, uv.lock, ..." for messages, into the caller's buffer: a
 * static one filled on first use was a data race between request threads. */
static const char *kinds_list(char *buf, size_t cap)
{
    size_t o = 0;
    buf[0] = '\0';
    for (size_t i = 0; readers[i] && o < cap; i++)
        o += (size_t)snprintf(buf + o, cap - o, "%s%s", i ? ", " : "", readers[i]->kind);
    return buf;
}

const sb_reader *const *sb_lock_readers(void)
{
    return readers;
}

/* A UTF-8 byte order mark says nothing about the content: editors on Windows
 * prepend one to any text file, so every kind is detected and read after it. */
static size_t bom_len(const char *data, size_t len)
{
    return len >= 3 && !memcmp(data, "\xEF\xBB\xBF", 3) ? 3 : 0;
}

/* The reader for `kind`, else the one that detects the input best; NULL
 * when none. *by_content: detected from the content alone. */
static const sb_reader *pick(const char *kind, const char *data, size_t len, const char *filename, int *by_content)
{
    const sb_reader *r = NULL;
    *by_content = 0;
    if (kind && kind[0] && strcmp(kind, "auto") != 0) {
        for (size_t i = 0; readers[i]; i++)
            if (0 == strcmp(readers[i]->kind, kind))
                r = readers[i];
        return r;
    }
    int best = 0;
    for (size_t i = 0; readers[i]; i++) {
        int score = readers[i]->detect(data, len, filename);
        if (score > best) {
            best = score;
            r = readers[i];
        }
    }
    *by_content = 1 == best;
    return r;
}

void sb_lock_choose(sb_lock_choice *c, const char *kind, const char *data, size_t len, const char *filename)
{
    size_t skip = bom_len(data, len);
    c->kind = kind;
    c->reader = pick(kind, data + skip, len - skip, filename, &c->by_content);
}

/* The line (1-based) where a git merge-conflict marker starts a line, else 0. */
static unsigned conflict_line(const char *data, size_t len)
{
    /* line by line with memchr: it runs after every good read too */
    const char *p = data, *end = data + len;
    while (p < end) {
        if (p[0] == '<' && end - p >= 8 && !memcmp(p, "<<<<<<< ", 8)) {
            unsigned line = 1;
            for (const char *q = data; (q = memchr(q, '\n', (size_t)(p - q))) != NULL; q++)
                line++;
            return line;
        }
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        if (NULL == nl)
            break;
        p = nl + 1;
    }
    return 0;
}

/* A package.json states its version as a string; a NuGet packages.lock.json,
 * which also opens with "dependencies", states its format version as a number. */
static int version_is_number(const char *head)
{
    const char *v = strstr(head, "\"version\"");
    if (NULL == v)
        return 0;
    v += 9;
    v += strspn(v, " \t\r\n:");
    return *v >= '0' && *v <= '9';
}

/* A workspace manifest is what people send by mistake instead of its lockfile. */
static const char *manifest_kind(const char *data, size_t len, const char **lock)
{
    /* only the start is looked at: a manifest says what it is early */
    size_t n = len < 4096 ? len : 4096;
    char head[4097];
    memcpy(head, data, n);
    head[n] = '\0';
    if ((strstr(head, "[workspace]") || strstr(head, "[project]")) && strstr(head, "channels") &&
        !strstr(head, "[[package]]"))
        return *lock = "pixi.lock", "pixi.toml";
    if (strstr(head, "[tool.poetry]") || (strstr(head, "[project]") && !strstr(head, "[[package]]")) ||
        strstr(head, "[build-system]"))
        return *lock = "uv.lock, poetry.lock, pdm.lock or pylock.toml", "pyproject.toml";
    if (head[strspn(head, " \t\r\n")] == '{' && strstr(head, "\"dependencies\"") && !strstr(head, "lockfileVersion") &&
        !version_is_number(head))
        return *lock = "package-lock.json, pnpm-lock.yaml or yarn.lock", "package.json";
    if (strstr(head, "dependencies:") && strstr(head, "channels:") && !strstr(head, "package:") &&
        !strstr(head, "packages:"))
        return *lock = "conda-lock.yml or an explicit spec (conda list --explicit)", "environment.yml";
    return NULL;
}

/* The command that writes a reader's lockfile again, for the conflict hint:
 * naming pixi and uv to someone holding a package-lock.json sends them
 * looking for tools they do not use. */
static const char *relock_command(const sb_reader *r)
{
    static const struct {
        const char *kind, *cmd;
    } cmds[] = {
        {"pixi.lock", "pixi install"},
        {"uv.lock", "uv lock"},
        {"poetry.lock", "poetry lock"},
        {"pdm.lock", "pdm lock"},
        {"pylock.toml", "pip lock or uv export --format pylock.toml"},
        {"requirements.txt", "pip-compile or uv pip compile"},
        {"conda-lock.yml", "conda-lock"},
        {"conda explicit spec", "conda list --explicit"},
        {"package-lock.json", "npm install"},
        {"pnpm-lock.yaml", "pnpm install"},
        {"yarn.lock", "yarn"},
        {"bun.lock", "bun install"},
    };
    for (size_t i = 0; r && i < sizeof cmds / sizeof cmds[0]; i++)
        if (!strcmp(r->kind, cmds[i].kind))
            return cmds[i].cmd;
    return NULL;
}

/* The input holds merge-conflict markers: err says where and what to run. */
static void conflict_error(const sb_reader *r, unsigned cl, sb_err *err)
{
    char was[sizeof err->msg];
    snprintf(was, sizeof was, "%s", err->code != SB_OK ? err->msg : "");
    const char *cmd = relock_command(r);
    char again[160];
    if (cmd)
        snprintf(again, sizeof again, "lock again (%s)", cmd);
    else
        snprintf(again, sizeof again, "lock again with the tool that wrote it");
    sb_err_set_at(err, SB_EPARSE, cl, 1,
                  "the input holds git merge-conflict markers (<<<<<<< at line %u): resolve the conflict and %s, "
                  "then send the %s%s%.600s%s",
                  cl, again, r ? r->kind : "lockfile", was[0] ? " (the reader said: " : "", was, was[0] ? ")" : "");
}

/* A failed read, told what to do: merge-conflict markers, a body whose
 * line breaks were stripped (curl -d), a manifest sent instead of its
 * lockfile. Looked for only once reading failed, so a good input pays nothing. */
static void hint(const sb_reader *r, const char *data, size_t len, sb_err *err)
{
    if (err->code == SB_ENOMEM || err->code == SB_ETIMEOUT || err->code == SB_ELIMIT)
        return;
    unsigned cl = conflict_line(data, len);
    if (cl) {
        conflict_error(r, cl, err);
        return;
    }
    const char *lock = NULL, *man = manifest_kind(data, len, &lock);
    if (man) {
        sb_err_set_at(err, err->code, 0, 0,
                      "this is %s %s manifest, not a lockfile: send its lockfile (%s) as the body, or both as "
                      "multipart: curl -F lockfile=@LOCKFILE -F manifest=@%s",
                      man[0] == 'e' ? "an" : "a", man, lock, man);
        return;
    }
    if (len > 80 && NULL == memchr(data, '\n', len) && NULL == memchr(data, '\r', len)) {
        size_t at = strlen(err->msg);
        snprintf(err->msg + at, sizeof err->msg - at,
                 "; the body has no line breaks at all, as when curl -d strips them: send the file with "
                 "curl --data-binary @FILE");
    }
}

sb_code sb_lock_read_choice(sb_lock **out, sb_arena *a, const sb_lock_choice *c, const char *data, size_t len,
                            const sb_limits *lim, sb_err *err)
{
    static const sb_limits defaults = SB_LIMITS_DEFAULT;
    if (NULL == lim)
        lim = &defaults;
    size_t skip = bom_len(data, len);
    data += skip;
    len -= skip;
    const sb_reader *r = c->reader;
    if (NULL == r && c->kind && c->kind[0] && strcmp(c->kind, "auto") != 0)
        return sb_err_set(err, SB_EFORMAT, "unknown input kind '%.64s'", c->kind);
    if (NULL == r) {
        char kinds[256];
        sb_err_set(err, SB_EFORMAT, "the input is not a lockfile kind sbomd reads (%s)",
                   kinds_list(kinds, sizeof kinds));
        hint(NULL, data, len, err);
        return err->code;
    }
    sb_code rc = r->read(out, a, data, len, lim, err);
    if (rc != SB_OK) {
        hint(r, data, len, err);
        rc = err->code;
    } else {
        /* a reader that took the markers in its stride (a requirements.txt
         * hash continuation swallows a line) would answer half of each
         * side: a conflicted lockfile is never a document */
        unsigned cl = conflict_line(data, len);
        if (cl) {
            sb_err_clear(err);
            conflict_error(r, cl, err);
            rc = err->code;
            *out = NULL;
        }
    }
    /* pixi.lock v1 and conda-lock.yml are one YAML shape: taken by content
     * alone, the input's kind (and so its file name) is not known */
    if (rc == SB_OK && c->by_content && r == &sb_reader_pixi && (*out)->version == 1)
        (*out)->kind_unsure = true;
    return rc;
}

sb_code sb_lock_read(sb_lock **out, sb_arena *a, const char *kind, const char *data, size_t len, const char *filename,
                     const sb_limits *lim, sb_err *err)
{
    sb_lock_choice c;
    sb_lock_choose(&c, kind, data, len, filename);
    return sb_lock_read_choice(out, a, &c, data, len, lim, err);
}

/*
 * The memory estimate is each reader's (sb_reader.per_record, .per_byte).
 * Its figures, peak memory per record and per input byte of reading plus
 * selecting one platform, were measured (sbomgen-style: VmHWM less the start, which already
 * holds the input) on generated inputs and the largest fixtures, rounded
 * up (loadtest/README.md, "Memory per input"):
 *   requirements.txt: 362 B a pin at 490k pins, 373 at 100k since the
 *     record shrank (927 and 977 before): 500 B a pin plus 2x the bytes;
 *   uv.lock: 7.1x an ordinary 18.5 MB lock, 16x one of 32,000 short records
 *     (~2.3 KB a package): 2.5 KB a [[package]] plus 6x the bytes covers both;
 *   package-lock.json 7.0x, pnpm-lock.yaml 11.5x, yarn.lock 7.9x (20,000
 *     generated packages); pixi.lock 2.4x (the largest fixture);
 *   bun.lock: 504 B an entry at 100,000 one-line entries (12.7x their 4.0
 *     MB), 2.2x a lock of 50 dependencies an entry, 2.9-3.0x gen-jslock's,
 *     3.3x the largest fixture, now that the tokenizer reads JSONC in place
 *     (no blanked copy): 1,000 B a '[' (each entry is one array, however
 *     the text is laid out) plus 2x the bytes covers them all.
 * Kinds not measured take the Python kinds' shape or the 8x of the rest.
 */

/* The occurrences of c in data. */
static size_t count_char(const char *data, size_t len, char c)
{
    size_t n = 0;
    for (const char *p = data, *end = data + len; (p = memchr(p, c, (size_t)(end - p))); p++)
        n++;
    return n;
}

/* Lines of data starting with `prefix` ("" = with a letter or digit after
 * any indentation: the requirements reader reads an indented pin too, and
 * an estimate that skipped them let 200,000 of them in for 7.7 MiB). */
static size_t count_records(const char *data, size_t len, const char *prefix)
{
    size_t n = 0, k = strlen(prefix);
    for (const char *p = data, *end = data + len; p < end;) {
        const char *q = p;
        if (!k)
            while (q < end && (*q == ' ' || *q == '\t'))
                q++;
        if (k ? (size_t)(end - p) >= k && !memcmp(p, prefix, k)
              : q < end && ((*q >= 'a' && *q <= 'z') || (*q >= 'A' && *q <= 'Z') || (*q >= '0' && *q <= '9')))
            n++;
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        p = nl ? nl + 1 : end;
    }
    return n;
}

size_t sb_lock_estimate_choice(const sb_lock_choice *ch, const char *data, size_t len)
{
    size_t skip = bom_len(data, len);
    const sb_reader *r = ch->reader;
    if (NULL == r)
        return 0;
    if (0 == r->per_record && 0 == r->per_byte)
        return len * 8;
    size_t n = r->record_char   ? count_char(data + skip, len - skip, r->record_char)
               : r->record_line ? count_records(data + skip, len - skip, r->record_line)
                                : 0;
    return n * r->per_record + len * r->per_byte;
}

size_t sb_lock_estimate(const char *kind, const char *data, size_t len, const char *filename)
{
    sb_lock_choice c;
    sb_lock_choose(&c, kind, data, len, filename);
    return sb_lock_estimate_choice(&c, data, len);
}

long long sb_lock__yaml_version(const char *data, size_t n, unsigned *line, unsigned *col)
{
    static const char key[] = "version:";
    unsigned ln = 1;
    for (const char *p = data, *end = data + n; p < end; ln++) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        const char *le = nl ? nl : end;
        if ((size_t)(le - p) > sizeof key - 1 && !memcmp(p, key, sizeof key - 1)) {
            const char *v = p + sizeof key - 1;
            while (v < le && (*v == ' ' || *v == '\t' || *v == '"' || *v == '\''))
                v++;
            long long x = 0;
            int digits = 0;
            for (; v < le && *v >= '0' && *v <= '9' && x < 1000000; v++, digits++)
                x = x * 10 + (*v - '0');
            if (line)
                *line = ln;
            if (col)
                *col = (unsigned)(v - digits - p) + 1;
            return digits ? x : -2;
        }
        p = nl ? nl + 1 : end;
    }
    return -1;
}

int sb_lock__has_line(const char *data, size_t n, const char *prefix)
{
    size_t pl = strlen(prefix);
    /* Every detector asks this of every input, most to hear no: jump from
     * one occurrence of the prefix's first byte to the next and look back
     * for a line start, rather than stopping at every line. A prefix that
     * starts with a space (indentation, frequent) walks the lines. */
    if (pl && prefix[0] != ' ') {
        const char *end = data + n;
        for (const char *q = data; q < end && (q = memchr(q, prefix[0], (size_t)(end - q))) != NULL; q++)
            if ((q == data || q[-1] == '\n') && (size_t)(end - q) >= pl && !memcmp(q, prefix, pl))
                return 1;
        return 0;
    }
    for (const char *p = data, *end = data + n; p < end;) {
        if ((size_t)(end - p) >= pl && !memcmp(p, prefix, pl))
            return 1;
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        p = nl ? nl + 1 : end;
    }
    return 0;
}
