/*
 * fuzz_yaml_fast.c - libFuzzer target: core/yaml_fast.c against libyaml on
 * any bytes. The stream a reader would see (fast events, then libyaml's from
 * the hand-over) must equal libyaml's event for event, errors included; the
 * first input byte, when it is below 0x20, puts a gap (a range read as its
 * line breaks, as the pixi reader's pieces are) between the lines it names.
 * A difference aborts.
 */
#include "../unit/yaml_compare.h"

#include <stdint.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    size_t from = 0, to = 0;
    const char *in = (const char *)data;
    if (size > 1 && data[0] < 0x20) {
        /* lines (data[0] & 7) to (data[0] >> 3) + its first, counted from 0 */
        unsigned a = data[0] & 7, b = a + (data[0] >> 3) + 1, line = 0;
        in++, size--;
        for (size_t i = 0; i <= size; i++) {
            if (i == 0 || in[i - 1] == '\n') {
                if (line == a)
                    from = i;
                if (line == b) {
                    to = i;
                    break;
                }
                line++;
            }
        }
        if (to <= from)
            from = to = 0;
    }
    char why[300];
    int fast_all;
    size_t rl = size;
    char *ref = from < to ? gapped(in, size, from, to, &rl) : NULL;
    if (!compare(in, size, from, to, ref ? ref : in, rl, &fast_all, why, sizeof why)) {
        fprintf(stderr, "yaml_fast differs from libyaml: %s\n", why);
        abort();
    }
    free(ref);
    return 0;
}
