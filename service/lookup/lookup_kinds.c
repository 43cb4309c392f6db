/*
 * lookup_kinds.c - the table the lookup engine reads a kind's descriptor
 * from (svc_lk_kinds, indexed by K_*; lookup_int.h).
 *
 * Only a table: each descriptor is defined beside the client that asks for
 * that kind (lookup_licenses.c, lookup_vulns.c, lookup_projects.c), and the
 * engine (lookup_http.c) knows them only through here, so it calls no
 * client by name. A new kind adds a K_* and a line here.
 */
#include "lookup_int.h"

const svc_lk_kind *const svc_lk_kinds[K_N] = {
    [K_PYPI] = &svc_lk_pypi,           [K_CONDA] = &svc_lk_conda,       [K_TARBZ2] = &svc_lk_tarbz2,
    [K_OSV_BATCH] = &svc_lk_osv_batch, [K_OSV_VULN] = &svc_lk_osv_vuln, [K_KEV] = &svc_lk_kev,
    [K_EPSS] = &svc_lk_epss,           [K_PROJECT] = &svc_lk_project,   [K_SCORECARD] = &svc_lk_scorecard,
    [K_CHANNEL] = &svc_lk_channel,
};
