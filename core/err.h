/*
 * err.h - the one error type of sbomd's core.
 *
 * Every fallible core function returns an sb_code and takes an `sb_err *err`
 * as its last argument. The message is written once, by the code that knows
 * the facts (libgit2 rules: one impersonal line, no "failed to: failed to"
 * chains). `line`/`column` locate the problem in the input when known (1-based,
 * 0 = unknown). The service maps codes to HTTP statuses in one table.
 */
#ifndef SB_ERR_H
#define SB_ERR_H

#include <stddef.h>

typedef enum sb_code {
    SB_OK = 0,
    SB_EPARSE = -1,       /* malformed input (YAML/TOML/JSON syntax, wrong shape) */
    SB_EUNSUPPORTED = -2, /* well-formed but a version/kind we do not read */
    SB_ELIMIT = -3,       /* a configured limit (size, depth, count) was hit */
    SB_ENOMEM = -4,       /* allocation failed */
    SB_EIO = -5,          /* read/write failed (sink refused, file unreadable) */
    SB_ENOTFOUND = -6,    /* a requested choice (environment, platform) is absent */
    SB_EINVAL = -7,       /* a caller-supplied option is not acceptable */
    SB_EUPSTREAM = -8,    /* a network lookup failed */
    SB_EMISUSE = -9,      /* API used out of order (a programming error surfaced) */
    SB_EFORMAT = -10,     /* the input is not any kind sbomd reads */
    SB_ETIMEOUT = -11     /* the caller's deadline passed (sb_limits / sb_select_opts) */
} sb_code;

typedef struct sb_err {
    sb_code code;
    unsigned line;   /* 1-based line in the input, 0 when unknown */
    unsigned column; /* 1-based column, 0 when unknown */
    char msg[1024];  /* whole sentences: a problem's detail is not cut (a list of choices fits) */
} sb_err;

/* Reset to SB_OK with an empty message. Accepts NULL. */
void sb_err_clear(sb_err *err);

/* Set code and a printf-style message; returns `code` so callers can
 * `return sb_err_set(err, SB_EPARSE, "...")`. Accepts NULL err. */
sb_code sb_err_set(sb_err *err, sb_code code, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* As sb_err_set, with the location in the input. */
sb_code sb_err_set_at(sb_err *err, sb_code code, unsigned line, unsigned column, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));

/* Set err for a code that came up without a message of its own (a callee
 * that takes no sb_err): "out of memory" for SB_ENOMEM, else "<what>
 * failed (<code name>)". Returns `code`. Accepts NULL err. */
sb_code sb_err_set_code(sb_err *err, sb_code code, const char *what);

/* A stable short name for the code ("parse", "limit", ...). */
const char *sb_code_name(sb_code code);

#endif
