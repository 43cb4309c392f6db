/*
 * yaml_fast.h - internal to yaml_ev.c (and its unit test): the YAML the
 * lockfile tools write, read a line at a time into the libyaml events libyaml
 * itself would give for it (types, values, styles, marks).
 *
 * The subset: block mappings and block sequences (indentless ones too) whose
 * keys and values are one-line plain, single-quoted or escape-free
 * double-quoted scalars, or the empty flow collections [] and {}; comments
 * and blank lines; printable ASCII only. Anything else - other flow
 * collections, block and multi-line scalars, anchors, aliases, tags,
 * directives, document markers, tabs, CR, other bytes, and every input
 * libyaml would refuse - makes sb_yf_next return SB_YF_OTHER before it gives
 * any event of the line that holds it or of the line before (libyaml looks
 * a token ahead, into the next line): yaml_ev.c then hands the input to
 * libyaml, which re-reads it, skips the events already given (the same ones)
 * and goes on. So a reader sees one stream either way.
 *
 * Why: libyaml spends ~2,600 instructions an event (a pixi.lock of 20
 * packages costs 1.3M of its 3.2M a request,); this costs a few per
 * byte.
 */
#ifndef SB_YAML_FAST_H
#define SB_YAML_FAST_H

#include <stddef.h>
#include <yaml.h>

#define SB_YF_DEPTH 96                      /* deeper inputs go to libyaml (and its depth limit) */
#define SB_YF_QUEUE (2 * (SB_YF_DEPTH + 8)) /* a line's events and the next's */

typedef struct sb_yf_ev {
    yaml_event_type_t type;
    unsigned char style; /* scalar or collection style */
    unsigned char esc;   /* single-quoted with '' inside */
    size_t index;        /* mark, in the stream libyaml would read */
    unsigned line, col;
    const char *v; /* scalar value in the input */
    size_t n;
} sb_yf_ev;

typedef struct sb_yf {
    const char *in;
    size_t len;
    size_t gap_from, gap_to, gap_nl; /* [from, to) reads as its gap_nl line breaks */
    size_t pos;                      /* start of the next line to read */
    unsigned line;                   /* its 0-based line */
    int started, ended;
    int await;         /* the last key had no value on its line */
    sb_yf_ev await_ev; /* the empty scalar it gets if nothing nested follows */
    struct {
        int indent;
        unsigned char map, indentless;
    } st[SB_YF_DEPTH];
    unsigned nst;
    sb_yf_ev q[SB_YF_QUEUE];
    unsigned qh, qn, qsafe; /* given, queued, deliverable */
    char *buf;              /* the current scalar, NUL-terminated */
    size_t cap;
} sb_yf;

/* Read data[0..len), where data[from..to) reads as its line breaks alone
 * (from == to: no gap). 0 when the gap does not start a line (then use
 * libyaml). */
int sb_yf_init(sb_yf *f, const char *data, size_t len, size_t from, size_t to);

enum { SB_YF_EVENT = 1, SB_YF_OTHER = 0, SB_YF_NOMEM = -1 };

/* The next event into *ev (its strings belong to f, valid until the next
 * call; never yaml_event_delete it). SB_YF_OTHER: the input leaves the
 * subset here (no event given). */
int sb_yf_next(sb_yf *f, yaml_event_t *ev);

void sb_yf_free(sb_yf *f);

#endif
