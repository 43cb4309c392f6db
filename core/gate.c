/*
 * gate.c - collecting the findings of a CI gate (see gate.h).
 */
#include "gate.h"

void sb_gate_init(sb_gate *g, const char *slug, const char *title)
{
    *g = (sb_gate){.slug = slug, .title = title};
}

sb_code sb_gate_add(sb_gate *g, sb_arena *a, const sb_finding *f)
{
    if (g->n == g->cap) {
        sb_finding *grown = sb_arena_grow(a, g->items, &g->cap, g->n, sizeof *g->items, 8);
        if (NULL == grown)
            return SB_ENOMEM;
        g->items = grown;
    }
    g->items[g->n++] = *f;
    return SB_OK;
}
