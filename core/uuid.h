/*
 * uuid.h - SHA-1 and name-based UUIDs (RFC 9562 version 5).
 *
 * Serial numbers and document namespaces are UUIDv5 of the input so the same
 * lockfile and options always give the same document.
 */
#ifndef SB_UUID_H
#define SB_UUID_H

#include <stddef.h>
#include <stdint.h>

typedef struct sb_sha1 {
    uint32_t h[5];
    uint64_t total;
    unsigned char block[64];
    size_t nblock;
    int portable; /* 1: never the SHA-NI path (set after init; for tests) */
} sb_sha1;

void sb_sha1_init(sb_sha1 *c);
void sb_sha1_update(sb_sha1 *c, const void *p, size_t n);
void sb_sha1_final(sb_sha1 *c, unsigned char out[20]);

/* Parse "xxxxxxxx-xxxx-..." into 16 bytes; 0 on success. */
int sb_uuid_parse(unsigned char out[16], const char *text);

/* Finish a v5 UUID from a SHA-1 context already fed with namespace + name,
 * writing 36 chars + NUL to out. */
void sb_uuid_v5_finish(sb_sha1 *c, char out[37]);

/* Start a v5 computation for the given namespace. */
void sb_uuid_v5_begin(sb_sha1 *c, const unsigned char ns[16]);

#endif
