/*
 * json_tree.c - a JSON text as an sb_yn tree with positions (json_tree.h).
 *
 * One pass over the tokens: each value becomes a node pushed on one stack of
 * children; a container's end copies its children off the stack into an
 * exactly sized array, so the work and the memory are linear in the input
 * whatever its shape. Line and column are counted forward from the last
 * token, never from the start.
 */
#include "json_tree.h"
#include "alloc.h"
#include "deadline.h"
#include "json_stream.h"

#include <stdlib.h>
#include <string.h>

typedef struct jt_ctx {
    sb_arena *a;
    sb_err *err;
    const char *what;
    const char *data;
    size_t pos;     /* where the line count stands */
    unsigned line;  /* the line of `pos` */
    size_t line_at; /* offset of that line's first byte */
    sb_yn **kids;   /* children of the open containers, innermost last */
    size_t n, cap;
    size_t *frames; /* per open container: its node's index in kids */
    unsigned nframes;
} jt_ctx;

static void locate(jt_ctx *c, size_t off, unsigned *line, unsigned *col)
{
    for (; c->pos < off; c->pos++)
        if (c->data[c->pos] == '\n') {
            c->line++;
            c->line_at = c->pos + 1;
        }
    *line = c->line;
    *col = (unsigned)(off - c->line_at) + 1;
}

static sb_code push(jt_ctx *c, sb_yn *node)
{
    if (c->n == c->cap) {
        size_t nc = c->cap ? c->cap * 2 : 256;
        sb_yn **nv = realloc(c->kids, nc * sizeof *nv);
        if (NULL == nv)
            return SB_ENOMEM;
        c->kids = nv;
        c->cap = nc;
    }
    c->kids[c->n++] = node;
    return SB_OK;
}

static sb_yn *node(jt_ctx *c, const sb_jr *r, sb_yn_type type)
{
    sb_yn *y = sb_arena_calloc(c->a, 1, sizeof *y);
    if (y) {
        y->type = type;
        locate(c, r->tpos, &y->line, &y->col);
    }
    return y;
}

/* A string's decoded text; NULL with the error set when it holds a NUL
 * (C strings cannot), is too long, or memory ran out. */
static const char *text(jt_ctx *c, const sb_jr *r, const sb_limits *lim, const sb_yn *at)
{
    if (r->tlen > lim->max_scalar) {
        sb_err_set_at(c->err, SB_ELIMIT, at->line, at->col, "%s: a string of %zu bytes is longer than the limit (%zu)",
                      c->what, r->tlen, lim->max_scalar);
        return NULL;
    }
    char *o = sb_arena_stralloc(c->a, r->tlen + 1);
    if (NULL == o) {
        sb_err_set(c->err, SB_ENOMEM, "out of memory");
        return NULL;
    }
    size_t n = sb_jr_decode(r, o);
    o[n] = '\0';
    if (strlen(o) != n) {
        sb_err_set_at(c->err, SB_EPARSE, at->line, at->col, "%s: a string holds a NUL character (\\u0000)", c->what);
        return NULL;
    }
    return o;
}

/* Close the innermost container: its children move off the stack. */
static sb_code close_frame(jt_ctx *c)
{
    size_t at = c->frames[--c->nframes];
    sb_yn *y = c->kids[at];
    size_t k = c->n - at - 1;
    if (k) {
        y->kids = sb_arena_alloc(c->a, k * sizeof *y->kids);
        if (NULL == y->kids)
            return SB_ENOMEM;
        memcpy(y->kids, c->kids + at + 1, k * sizeof *y->kids);
    }
    y->n = (uint32_t)(y->type == SB_YN_MAP ? k / 2 : k);
    c->n = at + 1;
    return SB_OK;
}

static sb_code parse(jt_ctx *c, sb_yn **root, const char *data, size_t len, const sb_limits *lim)
{
    sb_jr r;
    unsigned depth = lim->max_depth ? lim->max_depth : 64;
    sb_jr_init(&r, data, len, depth);
    sb_deadline dl = {lim->deadline_ns, 0, "reading the lockfile"};
    size_t nodes = 0;
    c->frames = sb_malloc(((size_t)(depth < SB_JR_MAX_DEPTH ? depth : SB_JR_MAX_DEPTH) + 2) * sizeof *c->frames);
    if (NULL == c->frames)
        return sb_err_set(c->err, SB_ENOMEM, "out of memory");
    for (;;) {
        if (sb_deadline_tick(&dl, c->err) != SB_OK)
            return SB_ETIMEOUT;
        sb_jt t = sb_jr_next(&r);
        if (t == SB_JT_ERROR)
            return sb_jr_error(&r, c->err, c->what);
        if (t == SB_JT_END)
            break;
        if (++nodes > lim->max_events)
            return sb_err_set(c->err, SB_ELIMIT, "%s: more than %zu JSON values", c->what, lim->max_events);
        if (t == SB_JT_OBJ_END || t == SB_JT_ARR_END) {
            if (close_frame(c) != SB_OK)
                return sb_err_set(c->err, SB_ENOMEM, "out of memory");
            continue;
        }
        sb_yn *y = node(c, &r, t == SB_JT_OBJ ? SB_YN_MAP : t == SB_JT_ARR ? SB_YN_SEQ : SB_YN_SCALAR);
        if (NULL == y)
            return sb_err_set(c->err, SB_ENOMEM, "out of memory");
        switch (t) {
        case SB_JT_KEY:
        case SB_JT_STR:
            if (NULL == (y->s = text(c, &r, lim, y)))
                return c->err->code;
            break;
        case SB_JT_NUM: y->s = sb_arena_strndup(c->a, r.tok, r.tlen); break;
        case SB_JT_TRUE: y->s = "true"; break;
        case SB_JT_FALSE: y->s = "false"; break;
        default: break; /* null, and containers */
        }
        if ((t == SB_JT_NUM && NULL == y->s) || push(c, y) != SB_OK)
            return sb_err_set(c->err, SB_ENOMEM, "out of memory");
        if (t == SB_JT_OBJ || t == SB_JT_ARR)
            c->frames[c->nframes++] = c->n - 1;
    }
    if (c->n != 1)
        return sb_err_set(c->err, SB_EPARSE, "%s: the input is empty", c->what);
    *root = c->kids[0];
    return SB_OK;
}

sb_code sb_jtree_parse(sb_yn **root, sb_arena *a, const char *data, size_t len, const sb_limits *lim, sb_err *err,
                       const char *what)
{
    static const sb_limits defaults = SB_LIMITS_DEFAULT;
    jt_ctx c = {.a = a, .err = err, .what = what, .data = data, .line = 1};
    *root = NULL;
    sb_code rc = parse(&c, root, data, len, lim ? lim : &defaults);
    free(c.kids);
    sb_free(c.frames);
    return rc;
}
