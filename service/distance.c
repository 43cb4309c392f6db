/*
 * distance.c - the folded edit distance of suggestions (see distance.h).
 */
#include "distance.h"

#include <string.h>

char svc_distance_fold(char c)
{
    if (c == '_')
        return '-';
    return (c >= 'A' && c <= 'Z') ? (char)(c - 'A' + 'a') : c;
}

/* Levenshtein distance, folded, of two short strings (longer input is capped:
 * a 64-byte parameter name is no typo of ours). */
size_t svc_distance(const char *a, const char *b)
{
    enum { CAP = 64 };
    size_t la = strnlen(a, CAP), lb = strnlen(b, CAP);
    size_t row[CAP + 1];
    for (size_t j = 0; j <= lb; j++)
        row[j] = j;
    for (size_t i = 1; i <= la; i++) {
        size_t diag = row[0];
        row[0] = i;
        for (size_t j = 1; j <= lb; j++) {
            size_t up = row[j];
            size_t best = diag + (svc_distance_fold(a[i - 1]) != svc_distance_fold(b[j - 1]));
            if (up + 1 < best)
                best = up + 1;
            if (row[j - 1] + 1 < best)
                best = row[j - 1] + 1;
            row[j] = best;
            diag = up;
        }
    }
    return row[lb];
}
