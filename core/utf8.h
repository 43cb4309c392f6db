/*
 * utf8.h - one UTF-8 validator shared by the JSON writer and the TOML parser.
 */
#ifndef SB_UTF8_H
#define SB_UTF8_H

#include <stddef.h>

/* Length of a valid UTF-8 sequence starting at s (n bytes available), 0 if
 * invalid (overlong, surrogate, > U+10FFFF, bad continuation), or -1 if valid
 * so far but truncated by the end of the input. */
static inline int sb_utf8_seq(const unsigned char *s, size_t n)
{
    unsigned c = s[0];
    int len;
    unsigned min;
    if (c < 0x80)
        return 1;
    if (c >= 0xC2 && c <= 0xDF) {
        len = 2;
        min = 0x80;
    } else if (c >= 0xE0 && c <= 0xEF) {
        len = 3;
        min = 0x800;
    } else if (c >= 0xF0 && c <= 0xF4) {
        len = 4;
        min = 0x10000;
    } else {
        return 0;
    }
    unsigned cp = c & (0x3F >> (len - 1));
    for (int i = 1; i < len; i++) {
        if ((size_t)i >= n)
            return -1;
        if ((s[i] & 0xC0) != 0x80)
            return 0;
        cp = (cp << 6) | (s[i] & 0x3F);
    }
    if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
        return 0;
    return len;
}

#endif
