/*
 * lock.h - the one reader interface: lockfile bytes in, sb_lock out.
 *
 * Each input kind is a reader (core/lock_<kind>.c) with a detector and a
 * read function; sb_lock_read() picks one by name or by content and runs it.
 * Readers validate fully before returning: a lockfile that reads without
 * error yields a model every writer can render.
 */
#ifndef SB_LOCK_H
#define SB_LOCK_H

#include "arena.h"
#include "err.h"
#include "model.h"

#include <stddef.h>

typedef struct sb_limits {
    unsigned max_depth;  /* YAML/TOML nesting */
    size_t max_scalar;   /* bytes in one scalar */
    size_t max_events;   /* parser events per input (aliases are refused) */
    size_t max_packages; /* package records per input */
    /* The one platform the caller will select (NULL = any): readers that
     * build records per platform (the Python ones) build only this one and
     * list the others as unbuilt, so memory and time do not grow sevenfold. */
    const char *platform;
    long long deadline_ns; /* absolute CLOCK_MONOTONIC time (deadline.h); 0 = none */
} sb_limits;

#define SB_LIMITS_DEFAULT \
    { \
        64, (size_t)1 << 20, (size_t)50 * 1000 * 1000, 500000, NULL, 0 \
    }

typedef struct sb_reader {
    const char *kind; /* "pixi.lock" */
    /* How sure this reader is that it should take the input (filename may be
     * NULL): 0 no, 1 by content, 2 by file name, 3 by a marker that wins over
     * any name (@EXPLICIT). The highest score wins; ties go to the earlier. */
    int (*detect)(const char *data, size_t len, const char *filename);
    sb_code (*read)(sb_lock **out, sb_arena *a, const char *data, size_t len, const sb_limits *lim, sb_err *err);
    /* What reading an input and selecting one platform of it holds at its
     * peak beyond the input (sb_lock_estimate): per_record bytes for each
     * record, counted as the lines that start with record_line ("" = with
     * a letter or digit after any indentation) or as the occurrences of
     * record_char anywhere, plus per_byte times the input's size. Measured
     * with loadtest/model-peak.sh (loadtest/README.md, "Memory per input").
     * All zero: 8 bytes per input byte. */
    const char *record_line;
    char record_char;
    size_t per_record, per_byte;
} sb_reader;

/* The registered readers, NULL-terminated, in detection order. */
const sb_reader *const *sb_lock_readers(void);

/* Read `data` as `kind` ("auto" or NULL = detect). SB_EUNSUPPORTED when the
 * kind is unknown or nothing claims the input. */
sb_code sb_lock_read(sb_lock **out, sb_arena *a, const char *kind, const char *data, size_t len, const char *filename,
                     const sb_limits *lim, sb_err *err);

/*
 * What reading `data` as `kind` (NULL or "auto": the reader sb_lock_read
 * would detect) and selecting one platform of it will hold at its peak, in
 * bytes beyond the input itself: a cheap scan counting the records where a
 * kind has one line per record, times that reader's measured cost per
 * record, plus the input's size times its measured cost per byte (figures
 * in loadtest/README.md, "Memory per input"). 0 when no reader takes the
 * input (it is refused without building anything). For the service's memory
 * budget: charged before the model is built.
 */
size_t sb_lock_estimate(const char *kind, const char *data, size_t len, const char *filename);

/*
 * Which reader takes an input. Detection scans the whole input (each
 * reader's detect), so a caller that both estimates and reads (the service)
 * chooses once and hands the choice to both; sb_lock_read and
 * sb_lock_estimate above choose for themselves.
 */
typedef struct sb_lock_choice {
    const char *kind;        /* as asked: NULL or "auto" = detected */
    const sb_reader *reader; /* NULL: an unknown kind, or nothing claims the input */
    int by_content;          /* detected from the content alone (no name, no marker) */
} sb_lock_choice;

void sb_lock_choose(sb_lock_choice *c, const char *kind, const char *data, size_t len, const char *filename);
size_t sb_lock_estimate_choice(const sb_lock_choice *c, const char *data, size_t len);
sb_code sb_lock_read_choice(sb_lock **out, sb_arena *a, const sb_lock_choice *c, const char *data, size_t len,
                            const sb_limits *lim, sb_err *err);

/* Two files that are one input, posted as a request's lockfile and
 * manifest parts (a Go module's go.mod and go.sum, either way round): 1 and
 * *data, *len replaced by the one input joined in the arena; 0 when the
 * two are not such a pair; -1 out of memory. */
int sb_lock_join_parts(sb_arena *a, const char **data, size_t *len, const char *filename, const char *other,
                       size_t olen, const char *ofilename);

#endif
