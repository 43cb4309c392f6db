/*
 * license.c - license classification.
 *
 * This first version only separates "no license" from "some text"; SPDX
 * expression recognition comes with the generated license table.
 */
#include "license.h"

#include <ctype.h>
#include <string.h>

sb_lic sb_lic_normalize(sb_arena *a, const char *raw)
{
    sb_lic l = {0};
    if (NULL == raw)
        return l;
    while (isspace((unsigned char)*raw))
        raw++;
    size_t n = strlen(raw);
    while (n && isspace((unsigned char)raw[n - 1]))
        n--;
    if (0 == n) {
        l.reason = "empty";
        return l;
    }
    l.kind = SB_LIC_TEXT;
    l.value = sb_arena_strndup(a, raw, n);
    if (NULL == l.value)
        l.value = raw;
    return l;
}
