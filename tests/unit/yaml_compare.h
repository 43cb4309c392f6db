/*
 * yaml_compare.h - the stream a YAML reader sees (core/yaml_fast.c's events,
 * then libyaml's from the hand-over on) against libyaml's own, event for
 * event. Shared by tests/unit/test_yaml_fast.c and the yaml-fast fuzz target
 * (tests/fuzz/fuzz_yaml_fast.c); static functions, one includer per binary.
 */
#ifndef SB_TEST_YAML_COMPARE_H
#define SB_TEST_YAML_COMPARE_H

#include "../../core/yaml_fast.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct stream {
    yaml_parser_t p;
    sb_yf f;
    int fast, lib;
    size_t given;
    const char *in;
    size_t len;
} stream;

/* One event of the reader's stream: 1 event, 0 libyaml's error, -1 other. */
static int next(stream *s, yaml_event_t *ev, int *was_fast)
{
    *was_fast = 0;
    if (s->fast) {
        int r = sb_yf_next(&s->f, ev);
        if (r == SB_YF_EVENT) {
            s->given++;
            *was_fast = 1;
            return 1;
        }
        if (r != SB_YF_OTHER)
            return -1;
        s->fast = 0;
        for (size_t i = 0; i < s->given; i++) {
            yaml_event_t skip;
            if (!yaml_parser_parse(&s->p, &skip))
                return 0;
            yaml_event_delete(&skip);
        }
    }
    return yaml_parser_parse(&s->p, ev) ? 1 : 0;
}

static int same_event(const yaml_event_t *a, const yaml_event_t *b, char *why, size_t cap)
{
    if (a->type != b->type) {
        snprintf(why, cap, "type %d vs %d", a->type, b->type);
        return 0;
    }
    if (a->start_mark.line != b->start_mark.line || a->start_mark.column != b->start_mark.column ||
        a->start_mark.index != b->start_mark.index) {
        snprintf(why, cap, "type %d at %zu:%zu (%zu) vs %zu:%zu (%zu)", a->type, a->start_mark.line + 1,
                 a->start_mark.column + 1, a->start_mark.index, b->start_mark.line + 1, b->start_mark.column + 1,
                 b->start_mark.index);
        return 0;
    }
    switch (a->type) {
    case YAML_SCALAR_EVENT:
        if (a->data.scalar.length != b->data.scalar.length ||
            memcmp(a->data.scalar.value, b->data.scalar.value, a->data.scalar.length) ||
            a->data.scalar.value[a->data.scalar.length] != '\0' || a->data.scalar.style != b->data.scalar.style ||
            a->data.scalar.plain_implicit != b->data.scalar.plain_implicit ||
            a->data.scalar.quoted_implicit != b->data.scalar.quoted_implicit ||
            !a->data.scalar.anchor != !b->data.scalar.anchor || !a->data.scalar.tag != !b->data.scalar.tag) {
            snprintf(why, cap, "scalar at %zu:%zu '%.60s' style %d vs '%.60s' style %d", b->start_mark.line + 1,
                     b->start_mark.column + 1, (const char *)a->data.scalar.value, a->data.scalar.style,
                     (const char *)b->data.scalar.value, b->data.scalar.style);
            return 0;
        }
        break;
    case YAML_SEQUENCE_START_EVENT:
        if (a->data.sequence_start.style != b->data.sequence_start.style ||
            a->data.sequence_start.implicit != b->data.sequence_start.implicit) {
            snprintf(why, cap, "sequence style at %zu", b->start_mark.line + 1);
            return 0;
        }
        break;
    case YAML_MAPPING_START_EVENT:
        if (a->data.mapping_start.style != b->data.mapping_start.style ||
            a->data.mapping_start.implicit != b->data.mapping_start.implicit) {
            snprintf(why, cap, "mapping style at %zu", b->start_mark.line + 1);
            return 0;
        }
        break;
    case YAML_DOCUMENT_START_EVENT:
    case YAML_DOCUMENT_END_EVENT:
        if (a->data.document_start.implicit != b->data.document_start.implicit) {
            snprintf(why, cap, "document implicit at %zu", b->start_mark.line + 1);
            return 0;
        }
        break;
    default: break;
    }
    return 1;
}

/* Compare the reader's stream over data (data[from..to) a gap when from <
 * to) with libyaml's over `ref` (the bytes libyaml reads). *fast_all: the
 * fast path gave every event. */
static int compare(const char *data, size_t len, size_t from, size_t to, const char *ref, size_t ref_len, int *fast_all,
                   char *why, size_t cap)
{
    stream s = {0};
    yaml_parser_t lib;
    yaml_parser_initialize(&lib);
    yaml_parser_set_input_string(&lib, (const unsigned char *)ref, ref_len);
    yaml_parser_initialize(&s.p);
    yaml_parser_set_input_string(&s.p, (const unsigned char *)ref, ref_len);
    s.fast = sb_yf_init(&s.f, data, len, from, to);
    *fast_all = s.fast;
    int ok = 1;
    why[0] = '\0';
    for (size_t k = 0; ok && k < 10000000; k++) {
        yaml_event_t a, b;
        int fast = 0;
        int ra = next(&s, &a, &fast);
        int rb = yaml_parser_parse(&lib, &b);
        if (!fast)
            *fast_all = 0;
        if (ra < 0) {
            snprintf(why, cap, "fast path out of memory");
            ok = 0;
            break;
        }
        if (ra != rb) {
            snprintf(why, cap, "event %zu: one stream failed, the other did not", k);
            ok = 0;
        } else if (ra == 0) {
            if (s.p.problem_mark.line != lib.problem_mark.line || s.p.problem_offset != lib.problem_offset) {
                snprintf(why, cap, "different errors");
                ok = 0;
            }
            break;
        } else {
            ok = same_event(&a, &b, why, cap);
            int end = b.type == YAML_STREAM_END_EVENT;
            if (!fast)
                yaml_event_delete(&a);
            yaml_event_delete(&b);
            if (end)
                break;
        }
    }
    sb_yf_free(&s.f);
    yaml_parser_delete(&s.p);
    yaml_parser_delete(&lib);
    return ok;
}

/* The bytes libyaml reads for data with data[from..to) as its line breaks. */
static char *gapped(const char *data, size_t len, size_t from, size_t to, size_t *out)
{
    char *b = malloc(len + 1);
    size_t n = 0;
    for (size_t i = 0; i < len; i++)
        if (i < from || i >= to || data[i] == '\n')
            b[n++] = data[i];
    *out = n;
    return b;
}

#endif
