/*
 * distance.h - the edit distance "did you mean" suggestions are chosen by
 * (query parameters, settings, routes), in one small shared file.
 */
#ifndef SVC_DISTANCE_H
#define SVC_DISTANCE_H

#include <stddef.h>

/* '_' as '-', upper case as lower: the spellings a suggestion forgives. */
char svc_distance_fold(char c);

/* Edit distance of two short strings (at most 64 bytes are compared), case
 * and '_' / '-' folded. */
size_t svc_distance(const char *a, const char *b);

#endif
