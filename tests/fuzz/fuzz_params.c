/* fuzz_params.c - libFuzzer target: the request parameter parsers (Accept
 * negotiation for formats and report media types, counts, booleans) on
 * arbitrary strings, as libmicrohttpd would hand them over (NUL-terminated),
 * and the one parse of a query: the input split at '&' and '=' into
 * arguments, for every endpoint. */
#include "../../service/params.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void *fuzz_alloc(void *cls, size_t n)
{
    (void)cls;
    return malloc(n); /* freed through the lists below */
}

/* The query `s` (modified in place) through the parser for endpoint ep. */
static void parse_query(char *s, unsigned ep)
{
    svc_query q;
    svc_query_parser p;
    svc_query_parse_begin(&p, &q, ep, fuzz_alloc, NULL);
    int bad = 0;
    for (char *arg = s; arg && !bad;) {
        char *next = strchr(arg, '&');
        if (next)
            *next++ = '\0';
        char *eq = strchr(arg, '=');
        if (eq)
            *eq++ = '\0';
        bad = svc_query_parse_arg(&p, arg, eq);
        if (eq)
            eq[-1] = '=';
        if (next)
            next[-1] = '&';
        arg = next;
    }
    if (!bad)
        bad = svc_query_parse_end(&p);
    if (bad && (!p.why[0] || strlen(p.why) >= sizeof p.why))
        __builtin_trap(); /* a refusal always says why */
    if (!bad && ((q.pretty < -1 || q.pretty > 1) || q.timestamp < -1 || q.include.n > SVC_QLIST_MAX))
        __builtin_trap();
    const svc_qlist *lists[] = {&q.include,      &q.exclude,        &q.exclude_kind, &q.allow_license,
                                &q.deny_license, &q.ignore_license, &q.paths,        &q.skip_paths};
    for (size_t i = 0; i < sizeof lists / sizeof lists[0]; i++)
        free((void *)lists[i]->v);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *s = malloc(size + 1);
    if (!s)
        return 0;
    memcpy(s, data, size);
    s[size] = '\0';
    const sb_doc_ops *f = svc_negotiate_format(s);
    if (f && NULL == sb_doc_find(f->name))
        __builtin_trap(); /* only formats sbomd writes */
    const char *const types[] = {"application/json", "text/plain"};
    int t = svc_negotiate_type(s, types, 2);
    if (t < -1 || t > 1)
        __builtin_trap();
    size_t pos = 0, last = 0;
    svc_accept_item it;
    while (svc_accept_next(s, &pos, &it)) {
        if (pos > size || pos <= last || it.q < 0.0 || it.q > 1.0 || strlen(it.type) >= sizeof it.type)
            __builtin_trap(); /* always progresses, stays in bounds */
        last = pos;
    }
    long long n = -5;
    if (svc_param_count(s, 1000000, &n) == 0 && (n < 0 || n > 1000000))
        __builtin_trap();
    int b;
    svc_param_bool(s, 0, &b);
    static const unsigned eps[] = {SVC_EP_SBOM,    SVC_EP_REPORT, SVC_EP_TREE,
                                   SVC_EP_QUALITY, SVC_EP_DIFF,   SVC_EP_EXPLAIN};
    parse_query(s, eps[size % 6]);
    free(s);
    return 0;
}
