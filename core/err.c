/*
 * err.c - formatting of sb_err. Messages are truncated, never overflowed.
 */
#include "err.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

void sb_err_clear(sb_err *err)
{
    if (NULL == err)
        return;
    err->code = SB_OK;
    err->line = err->column = 0;
    err->msg[0] = '\0';
}

static void set_msg(sb_err *err, const char *fmt, va_list ap)
{
    vsnprintf(err->msg, sizeof err->msg, fmt, ap);
}

sb_code sb_err_set(sb_err *err, sb_code code, const char *fmt, ...)
{
    if (NULL == err)
        return code;
    va_list ap;
    va_start(ap, fmt);
    err->code = code;
    err->line = err->column = 0;
    set_msg(err, fmt, ap);
    va_end(ap);
    return code;
}

sb_code sb_err_set_at(sb_err *err, sb_code code, unsigned line, unsigned column, const char *fmt, ...)
{
    if (NULL == err)
        return code;
    va_list ap;
    va_start(ap, fmt);
    err->code = code;
    err->line = line;
    err->column = column;
    set_msg(err, fmt, ap);
    va_end(ap);
    return code;
}

const char *sb_code_name(sb_code code)
{
    switch (code) {
    case SB_OK: return "ok";
    case SB_EPARSE: return "parse";
    case SB_EUNSUPPORTED: return "unsupported";
    case SB_ELIMIT: return "limit";
    case SB_ENOMEM: return "nomem";
    case SB_EIO: return "io";
    case SB_ENOTFOUND: return "notfound";
    case SB_EINVAL: return "invalid";
    case SB_EUPSTREAM: return "upstream";
    case SB_EMISUSE: return "misuse";
    case SB_EFORMAT: return "format";
    case SB_ETIMEOUT: return "timeout";
    }
    return "unknown";
}

sb_code sb_err_set_code(sb_err *err, sb_code code, const char *what)
{
    if (code == SB_ENOMEM)
        return sb_err_set(err, code, "out of memory");
    return sb_err_set(err, code, "%s failed (%s)", what, sb_code_name(code));
}
