/*
 * version.c - GET /v1/version: what this binary is (name, version), what it
 * reads and writes, and the libraries it was built and runs with, so an
 * operator can tell replicas apart and a client can check a feature exists.
 */
#include "handlers.h"
#include "../core/buf.h"
#include "../core/doc.h"
#include "../core/jsonw.h"
#include "../core/lock.h"
#include "../core/version.h"

#include <curl/curl.h>
#include <jansson.h>
#include <microhttpd.h>
#include <stdio.h>
#include <yaml.h>
#ifndef SB_NO_MIMALLOC
#include <mimalloc.h>
#endif

static void names_array(sb_jw *jw, const char *key, const char *const *v, size_t n)
{
    sb_jw_key(jw, key);
    sb_jw_arr_begin(jw);
    for (size_t i = 0; i < n; i++)
        sb_jw_str(jw, v[i]);
    sb_jw_arr_end(jw);
}

static void libraries(sb_jw *jw)
{
    char buf[32];
    sb_jw_key(jw, "libraries");
    sb_jw_obj_begin(jw);
    sb_jw_kstr(jw, "libmicrohttpd", MHD_get_version());
    sb_jw_kstr(jw, "libyaml", yaml_get_version_string());
    sb_jw_kstr(jw, "jansson", jansson_version_str());
    sb_jw_kstr(jw, "libcurl", curl_version_info(CURLVERSION_NOW)->version);
#ifndef SB_NO_MIMALLOC
    int mv = mi_version(); /* e.g. 217 for 2.1.7 */
    snprintf(buf, sizeof buf, "%d.%d.%d", mv / 100, mv / 10 % 10, mv % 10);
    sb_jw_kstr(jw, "mimalloc", buf);
#else
    (void)buf;
#endif
    sb_jw_obj_end(jw);
}

static int get_version(svc_req *r)
{
    sb_arena *a = svc_req_arena(r);
    const sb_doc_ops *const *f = sb_doc_formats();
    const sb_reader *const *rd = sb_lock_readers();
    size_t nf = 0, nr = 0;
    while (f[nf])
        nf++;
    while (rd[nr])
        nr++;
    const char **fv = sb_arena_alloc(a, (nf + nr + 1) * sizeof *fv);
    sb_buf b = SB_BUF_INIT(1 << 16);
    sb_jw jw;
    sb_jw_init_buf(&jw, &b, true);
    if (fv) {
        sb_jw_obj_begin(&jw);
        sb_jw_kstr(&jw, "name", SB_TOOL_NAME);
        sb_jw_kstr(&jw, "version", SB_VERSION);
        for (size_t i = 0; i < nf; i++)
            fv[i] = f[i]->name;
        names_array(&jw, "formats", fv, nf);
        for (size_t i = 0; i < nr; i++)
            fv[i] = rd[i]->kind;
        names_array(&jw, "inputs", fv, nr);
        /* what this server does beyond reading the input: a client (the
         * page) can tell "no license in the lockfile and no lookup made"
         * from "no license known anywhere" */
        const svc_cfg *cfg = svc_req_cfg(r);
        sb_jw_key(&jw, "features");
        sb_jw_obj_begin(&jw);
        sb_jw_key(&jw, "license_lookups");
        sb_jw_bool(&jw, cfg->lookups != 0);
        sb_jw_key(&jw, "vulnerabilities");
        sb_jw_bool(&jw, cfg->vulns != 0);
        sb_jw_key(&jw, "result_cache");
        sb_jw_bool(&jw, cfg->result_cache_size > 0);
        sb_jw_key(&jw, "shared_cache");
        sb_jw_bool(&jw, cfg->cache_url[0] != '\0');
        sb_jw_obj_end(&jw);
        sb_jw_key(&jw, "build");
        sb_jw_obj_begin(&jw);
        sb_jw_kstr(&jw, "compiler", __VERSION__);
#ifdef SB_NO_MIMALLOC
        sb_jw_kstr(&jw, "allocator", "libc");
#else
        sb_jw_kstr(&jw, "allocator", "mimalloc");
#endif
        libraries(&jw);
        sb_jw_obj_end(&jw);
        sb_jw_obj_end(&jw);
    }
    const char *body = (fv && jw.status == SB_OK) ? sb_arena_strndup(a, b.data, b.len) : NULL;
    size_t len = b.len;
    sb_buf_free(&b);
    if (NULL == body) {
        sb_err err;
        sb_err_set(&err, SB_ENOMEM, "out of memory");
        return svc_req_error(r, &err, NULL, 0);
    }
    return svc_req_send(r, 200, "application/json", body, len);
}

int h_version_register(svc_router *rt)
{
    return svc_router_add(rt, "GET", "/v1/version", get_version, 0);
}
