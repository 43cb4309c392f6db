/*
 * yaml_ev.h - internal to the YAML readers: a bounded pull loop over libyaml
 * events. Included by the YAML readers (core/lock_*.c) and yaml_tree.c only.
 *
 * Aliases are refused (no billion-laughs), nesting depth, scalar size and the
 * number of events are bounded by sb_limits, and every error carries the
 * line/column of the event that caused it. The loop over a mapping's entries
 * is here too, once (sb_yp_entry, sb_yp_entry_key), for the readers to share.
 *
 * The events come from yaml_fast.c while the input stays in the subset the
 * lockfile tools write, and from libyaml from the first line that does not:
 * the same events either way, several times cheaper when fast.
 */
#ifndef SB_YAML_EV_H
#define SB_YAML_EV_H

#include "arena.h"
#include "deadline.h"
#include "err.h"
#include "lock.h"
#include "yaml_fast.h"

#include <yaml.h>

typedef struct sb_yp {
    yaml_parser_t parser; /* set up only once the fast path hands over */
    yaml_event_t ev;
    int have_ev;  /* 1: libyaml's (to delete), 2: the fast path's */
    sb_yf *yf;    /* the fast path (yaml_fast.h) while it reads; NULL: libyaml reads */
    int lib;      /* parser is initialized */
    size_t given; /* events the fast path gave: libyaml skips them */
    sb_arena *arena;
    sb_err *err;
    const sb_limits *lim;
    unsigned depth;
    size_t events;
    sb_deadline dl;                   /* lim->deadline_ns, ticked per event */
    unsigned line0;                   /* lines before the parsed text (a piece of a larger input) */
    const char *gap_data;             /* sb_yp_open_gap: the input, */
    size_t gap_len, gap_from, gap_to; /* and the byte range read as line breaks */
    size_t gap_pos;
    const char *in; /* the bytes as given (sb_yp_open, _piece), to place a reader error */
    size_t in_len;
} sb_yp;

sb_code sb_yp_open(sb_yp *y, sb_arena *a, const char *data, size_t len, const sb_limits *lim, sb_err *err);
void sb_yp_close(sb_yp *y);

/* As sb_yp_open over a piece of a larger input that starts at a line's
 * beginning, after `line0` lines: positions are those of the whole input. */
sb_code sb_yp_open_piece(sb_yp *y, sb_arena *a, const char *data, size_t len, unsigned line0, const sb_limits *lim,
                         sb_err *err);

/* As sb_yp_open, but data[from..to) reads as its line breaks alone (every
 * other byte dropped): the rest of the input keeps its lines and columns
 * while a section read elsewhere costs the parser next to nothing. */
sb_code sb_yp_open_gap(sb_yp *y, sb_arena *a, const char *data, size_t len, size_t from, size_t to,
                       const sb_limits *lim, sb_err *err);

/* Advance to the next event (the "current" one). */
sb_code sb_yp_next(sb_yp *y);

static inline yaml_event_type_t sb_yp_type(const sb_yp *y)
{
    return y->ev.type;
}
static inline unsigned sb_yp_line(const sb_yp *y)
{
    return y->line0 + (unsigned)y->ev.start_mark.line + 1;
}
static inline unsigned sb_yp_col(const sb_yp *y)
{
    return (unsigned)y->ev.start_mark.column + 1;
}

/* Error at the current event. */
sb_code sb_yp_fail(sb_yp *y, sb_code code, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* The current event must be of type t; `what` names the expected value. */
sb_code sb_yp_expect(sb_yp *y, yaml_event_type_t t, const char *what);

/* Current scalar as an arena string; YAML null (plain ~, null, empty) gives
 * *out = NULL. Fails when the current event is not a scalar. */
sb_code sb_yp_str(sb_yp *y, const char **out, const char *what);

/* The current scalar without copying: valid until the next sb_yp_next();
 * NULL for a YAML null. For values the reader transforms anyway. */
sb_code sb_yp_peek(sb_yp *y, const char **out, const char *what);

/* A mapping key, copied into the caller's buffer (keys are compared, not
 * kept: copying each into the arena cost a tenth of a parse). A null key is
 * an error; one too long to be any known key reads as "\x01...". */
#define SB_YP_KEY_MAX 64
sb_code sb_yp_key(sb_yp *y, char key[SB_YP_KEY_MAX], const char *what);

/* Current scalar must be a (plain) integer. */
sb_code sb_yp_int(sb_yp *y, long long *out, const char *what);

/* 1 if the current scalar is a YAML true, 0 otherwise. */
int sb_yp_truthy(const sb_yp *y);

/* Consume the value that starts at the current event (scalar, sequence or
 * mapping); afterwards the current event is its last event. */
sb_code sb_yp_skip(sb_yp *y);

/* Current scalar equals `s` (for map keys). */
int sb_yp_is(const sb_yp *y, const char *s);

/* ---- a mapping's entries, one at a time ----------------------------------
 *
 * The loop every YAML reader runs over a mapping, written once. With the
 * mapping's start the current event (the caller checks that, with its own
 * words, e.g. sb_yp_expect(y, YAML_MAPPING_START_EVENT, "metadata")):
 *
 *     sb_code rc;
 *     while (sb_yp_entry(y, &rc)) {
 *         ...the entry's key is the current event...
 *         if ((rc = sb_yp_next(y)) != SB_OK)
 *             return rc;
 *         ...the value is the current event: read it, or give it to the
 *         reader of that key, or sb_yp_skip() it...
 *     }
 *     return rc;
 *
 * The key: the caller reads it as it needs it (sb_yp_is to compare, sb_yp_key
 * to copy it, sb_yp_str to keep it), so what a null or non-scalar key is -
 * an error, and with which message, or a key that matches nothing - stays
 * the caller's. sb_yp_entry_key does the usual case in one call: the key
 * copied by sb_yp_key (a null key fails with "<what> is null", another than
 * a scalar with "<what> must be a scalar, ...") and the value made current.
 *
 * The value must be consumed to its last event (a scalar is its own; a
 * nested reader or sb_yp_skip() stops on a collection's end event), so the
 * next call finds the next key or the mapping's end.
 *
 * Each call moves to the next event with sb_yp_next(), so every check that
 * makes (invalid YAML, aliases, depth, scalar size, event count, the
 * deadline) applies as it would in a hand-written loop, and its error is at
 * the event that failed. 0 ends the loop: at the mapping's end (*rc = SB_OK,
 * the MAPPING_END current, the depth back to the caller's), or on an error
 * (*rc). Inline: the pixi reader runs this once per key of every record. */
static inline int sb_yp_entry(sb_yp *y, sb_code *rc)
{
    *rc = sb_yp_next(y);
    return *rc == SB_OK && y->ev.type != YAML_MAPPING_END_EVENT;
}

static inline int sb_yp_entry_key(sb_yp *y, char key[SB_YP_KEY_MAX], const char *what, sb_code *rc)
{
    if (!sb_yp_entry(y, rc))
        return 0;
    if ((*rc = sb_yp_key(y, key, what)) == SB_OK)
        *rc = sb_yp_next(y);
    return *rc == SB_OK;
}

#endif
