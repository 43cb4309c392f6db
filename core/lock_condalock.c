/*
 * lock_condalock.c - conda-lock.yml (unified format, version 1).
 *
 * The unified conda-lock format is the YAML shape pixi.lock v1 grew from:
 * `metadata`, a flat `package:` list whose entries carry `platform`,
 * `manager: conda|pip`, a `dependencies` map, `url` and `hash`. The pixi
 * parser reads it (sb_lock__read_pixi_shape) and records the kind; only
 * version 1 is accepted. Conda name/version/build/subdir come from the record
 * or, where absent, from the archive URL. The file has no environments: one
 * `default` environment with the locked platforms.
 */
#include "lock.h"
#include "lock_int.h"

#include <string.h>

/* conda-lock only ever writes `version: 1` and never `environments:`; any
 * other content is pixi's, whatever the file is called (rattler's test data
 * names pixi.lock files `*-conda-lock.yml`). */
static int condalock_content(const char *data, size_t len)
{
    long long v = sb_lock__yaml_version(data, len, NULL, NULL);
    return (v == -1 || v == 1) && !sb_lock__has_line(data, len, "environments:");
}

static int condalock_detect(const char *data, size_t len, const char *filename)
{
    if (filename) {
        const char *base = strrchr(filename, '/');
        base = base ? base + 1 : filename;
        size_t n = strlen(base);
        int yml = (n > 4 && !strcmp(base + n - 4, ".yml")) || (n > 5 && !strcmp(base + n - 5, ".yaml"));
        if (yml && strstr(base, "conda-lock") != NULL && condalock_content(data, len))
            return 2;
    }
    /* No content rule: pixi.lock v1 is conda-lock's own unified format, byte
     * for byte the same shape, so content alone cannot tell them apart and
     * pixi.lock (whose reader also reads this shape) takes it. */
    return 0;
}

static sb_code condalock_read(sb_lock **out, sb_arena *a, const char *data, size_t len, const sb_limits *lim,
                              sb_err *err)
{
    return sb_lock__read_pixi_shape(out, a, data, len, lim, err, "conda-lock.yml", 1);
}

const sb_reader sb_reader_condalock = {.kind = "conda-lock.yml",
                                       .detect = condalock_detect,
                                       .read = condalock_read,
                                       .record_line = NULL,
                                       .record_char = 0,
                                       .per_record = 0,
                                       .per_byte = 3};
