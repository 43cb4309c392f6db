/*
 * lock_pixi_par.c - a large pixi.lock's package list read in pieces side by
 * side, for lock_pixi.c (sb_pixi__read_in_pieces).
 *
 * A pixi.lock is mostly its `packages:` list of independent records, each
 * starting on a line "- " in column 0. The list is cut at such lines into
 * pieces read by the worker pool (core/par.h), each with its own parser and
 * arena, while the calling thread reads the rest of the document with the
 * list read as its line breaks alone (sb_yp_open_gap): lines and columns of
 * everything stay those of the whole input. Records join in input order.
 * The records themselves, and the rest of the document, are read by the
 * parsers lock_pixi.c hands in (sb_pixi_parsers): this file cuts and joins.
 *
 * A cut is trusted only when every piece is one block sequence from its
 * first byte and the rest of the document has its `packages:` key, with no
 * value, on the line the cut found: anything else (a cut inside a quoted
 * scalar, a list that is not where it seemed, any error at all) reads the
 * input again on one thread, so every answer, error or not, is the one
 * thread's.
 */
#include "lock_pixi_int.h"
#include "alloc.h"
#include "par.h"

#include <string.h>


#define PIECES_MAX 16 /* pieces per list; at least a quarter of sb_par_min_bytes() each */

typedef struct piece {
    sb_pixi_ctx c; /* its parser, arenas (c.a joins the request's), records */
    sb_err err;
    const char *data;
    size_t len;
    unsigned line0;
    const sb_pixi_parsers *parsers;
    sb_code rc;
} piece;

typedef struct pieces_plan {
    size_t from, to;   /* the list's items: data[from..to) */
    unsigned key_line; /* the `packages:` line, 1-based */
} pieces_plan;

static int line_is(const char *p, const char *end, const char *s)
{
    size_t n = strlen(s);
    return (size_t)(end - p) > n && !memcmp(p, s, n) && p[n] == '\n';
}

/* Where a top-level block list under `packages:` (or v1 `package:`) holds
 * its items: from the line after the key to the first line starting in
 * column 0 with neither "- " nor "#". 0 when there is no such plain list. */
static int find_list(const char *data, size_t len, pieces_plan *pl)
{
    const char *p = data, *end = data + len;
    unsigned line = 1;
    while (p < end && !line_is(p, end, "packages:") && !line_is(p, end, "package:")) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        if (NULL == nl)
            return 0;
        p = nl + 1;
        line++;
    }
    if (p >= end)
        return 0;
    pl->key_line = line;
    p = (const char *)memchr(p, '\n', (size_t)(end - p)) + 1;
    if (end - p < 2 || p[0] != '-' || p[1] != ' ')
        return 0;
    pl->from = (size_t)(p - data);
    while (p < end) {
        if (!(p[0] == ' ' || p[0] == '#' || p[0] == '\n' || (p[0] == '-' && end - p > 1 && p[1] == ' ')))
            break;
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        p = nl ? nl + 1 : end;
    }
    pl->to = (size_t)(p - data);
    return 1;
}

static size_t count_lines(const char *p, const char *end)
{
    size_t n = 0;
    while (p < end && (p = memchr(p, '\n', (size_t)(end - p))) != NULL) {
        n++;
        p++;
    }
    return n;
}

/* Cut data[pl->from..pl->to) into at most `want` pieces at item lines. */
static size_t cut(const char *data, const pieces_plan *pl, piece *pc, size_t want)
{
    size_t n = 0, at = pl->from, size = (pl->to - pl->from) / want;
    unsigned line = pl->key_line + 1;
    while (at < pl->to && n < want) {
        size_t next = pl->to;
        if (n + 1 < want) {
            const char *s = data + at + size, *end = data + pl->to;
            for (; s < end; s++) {
                s = memchr(s, '\n', (size_t)(end - s));
                if (NULL == s || end - s < 3)
                    break;
                if (s[1] == '-' && s[2] == ' ') {
                    next = (size_t)(s + 1 - data);
                    break;
                }
            }
            if (NULL == s || s >= end)
                next = pl->to;
        }
        pc[n].data = data + at;
        pc[n].len = next - at;
        pc[n].line0 = line - 1;
        line += (unsigned)count_lines(data + at, data + next);
        at = next;
        n++;
    }
    return n;
}

/* One piece: a block sequence of records from its first byte to its end. */
static sb_code read_piece_events(sb_pixi_ctx *c, const piece *k)
{
    sb_yp *y = &c->y;
    sb_code rc;
    yaml_event_type_t want[] = {YAML_STREAM_START_EVENT, YAML_DOCUMENT_START_EVENT, YAML_SEQUENCE_START_EVENT};
    for (size_t i = 0; i < 3; i++) {
        if ((rc = sb_yp_next(y)) != SB_OK || (rc = sb_yp_expect(y, want[i], "a piece of the package list")) != SB_OK)
            return rc;
        if (i == 0)
            y->depth = 1; /* as under the top-level mapping */
    }
    if (sb_yp_line(y) != k->line0 + 1 || sb_yp_col(y) != 1)
        return sb_yp_fail(y, SB_EPARSE, "a piece of the package list does not start with an item");
    if ((rc = k->parsers->packages(c)) != SB_OK)
        return rc;
    if ((rc = sb_yp_next(y)) != SB_OK || (rc = sb_yp_expect(y, YAML_DOCUMENT_END_EVENT, "a piece's end")) != SB_OK)
        return rc;
    if ((rc = sb_yp_next(y)) != SB_OK || (rc = sb_yp_expect(y, YAML_STREAM_END_EVENT, "a piece's end")) != SB_OK)
        return rc;
    return SB_OK;
}

static void read_piece(void *arg)
{
    piece *k = arg;
    sb_pixi_ctx *c = &k->c;
    k->rc = sb_yp_open_piece(&c->y, c->a, k->data, k->len, k->line0, c->lim, c->err);
    if (k->rc != SB_OK)
        return;
    k->rc = read_piece_events(c, k);
    sb_yp_close(&c->y);
}

/* The document around the list, on the calling thread. */
typedef struct rest_job {
    sb_pixi_ctx *c;
    const char *data;
    size_t len;
    const pieces_plan *pl;
    const sb_pixi_parsers *parsers;
    sb_code rc;
} rest_job;

static void read_rest(void *arg)
{
    rest_job *j = arg;
    sb_pixi_ctx *c = j->c;
    j->rc = sb_yp_open_gap(&c->y, c->a, j->data, j->len, j->pl->from, j->pl->to, c->lim, c->err);
    if (j->rc != SB_OK)
        return;
    j->rc = j->parsers->top(c);
    sb_yp_close(&c->y);
}

/* The events the one-thread read would have counted: the list's own
 * sequence start and end in place of the gap's null, without the pieces'
 * stream, document and sequence framing. */
static size_t one_thread_events(size_t rest, const piece *pc, size_t n)
{
    size_t total = rest - 1 + 2;
    for (size_t i = 0; i < n; i++)
        total += pc[i].c.y.events - 6;
    return total;
}

/* Records and arenas of the pieces joined to `c`'s, in input order. */
static sb_code join_pieces(sb_pixi_ctx *c, piece *pc, size_t n)
{
    size_t total = 0;
    for (size_t i = 0; i < n; i++)
        total += pc[i].c.nrecs;
    if (total > c->lim->max_packages || c->nrecs != 0)
        return SB_EPARSE;
    sb_pixi_rec *recs = sb_arena_alloc(c->scratch, (total + 1) * sizeof *recs);
    if (NULL == recs)
        return SB_ENOMEM;
    for (size_t i = 0; i < n; i++) {
        if (sb_arena_adopt(c->a, pc[i].c.a) != 0)
            return SB_ENOMEM;
        pc[i].c.a = NULL;
        memcpy(recs + c->nrecs, pc[i].c.recs, pc[i].c.nrecs * sizeof *recs);
        c->nrecs += pc[i].c.nrecs;
    }
    c->recs = recs;
    c->caprecs = total + 1;
    return SB_OK;
}

static sb_code run_pieces(sb_pixi_ctx *c, const char *data, size_t len, const pieces_plan *pl, piece *pc, size_t n,
                          const sb_pixi_parsers *p)
{
    for (size_t i = 0; i < n; i++) {
        pc[i].parsers = p;
        sb_pixi_ctx *k = &pc[i].c;
        k->lim = c->lim;
        k->err = &pc[i].err;
        k->a = sb_arena_child(c->a);
        k->scratch = sb_arena_child(c->a);
        if (NULL == k->a || NULL == k->scratch)
            return SB_ENOMEM;
    }
    sb_par_job jobs[PIECES_MAX + 1];
    rest_job rest = {c, data, len, pl, p, SB_OK};
    jobs[0] = (sb_par_job){.fn = read_rest, .arg = &rest};
    for (size_t i = 0; i < n; i++)
        jobs[i + 1] = (sb_par_job){.fn = read_piece, .arg = &pc[i]};
    sb_par_run(jobs, n + 1);
    for (size_t i = 0; i < n; i++)
        if (pc[i].rc == SB_ETIMEOUT) {
            *c->err = pc[i].err;
            return SB_ETIMEOUT;
        }
    if (rest.rc != SB_OK)
        return rest.rc;
    for (size_t i = 0; i < n; i++)
        if (pc[i].rc != SB_OK)
            return pc[i].rc;
    if (!c->gap_read || one_thread_events(c->y.events, pc, n) > c->lim->max_events)
        return SB_EPARSE;
    return join_pieces(c, pc, n);
}

/* See lock_pixi_int.h. */
sb_code sb_pixi__read_in_pieces(sb_pixi_ctx *c, const char *data, size_t len, const sb_pixi_parsers *p)
{
    pieces_plan pl;
    size_t min = sb_par_min_bytes(), width = len >= min ? sb_par_width() : 1;
    if (width < 2 || !find_list(data, len, &pl) || pl.to - pl.from < min)
        return SB_EUNSUPPORTED;
    size_t want = (pl.to - pl.from) / (min / 4 ? min / 4 : 1);
    if (want < 2)
        want = 2;
    if (want > 4 * width)
        want = 4 * width;
    if (want > PIECES_MAX)
        want = PIECES_MAX;
    piece *pc = sb_calloc(want, sizeof *pc);
    if (NULL == pc)
        return SB_ENOMEM;
    size_t n = cut(data, &pl, pc, want);
    c->gap_line = pl.key_line;
    sb_code rc = run_pieces(c, data, len, &pl, pc, n, p);
    for (size_t i = 0; i < n; i++) {
        sb_arena_destroy(pc[i].c.a);
        sb_arena_destroy(pc[i].c.scratch);
    }
    sb_free(pc);
    return rc;
}
