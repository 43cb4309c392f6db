/*
 * mapsrc.h - the conda -> PyPI mapping fetched from a URL
 * (--pypi-mapping-url, / 9.6 cache "mapping", 1 day).
 *
 * The mapping is fetched when the server starts and again every
 * --pypi-mapping-ttl seconds by one thread; a new map replaces the current
 * one for requests that start afterwards, and the old one is freed when
 * the last request holding it ends (a reference per request, taken at
 * intake and dropped when the request is freed). Each good answer is kept
 * in --cache-dir (pypi-mapping.json) so a restart without the network
 * still maps; a failed refresh keeps the map it had (and says so in the log).
 * Only the configured URL is fetched, redirects are not followed.
 */
#ifndef SVC_MAPSRC_H
#define SVC_MAPSRC_H

#include "../config.h"

struct sb_pypimap;
typedef struct svc_mapsrc svc_mapsrc;

/* Fetch the mapping now (or read the cached copy when the fetch fails) and
 * start the refresher. A server with neither answers nor a copy starts
 * without a map (logged): packages stay unmapped until a refresh works.
 * SB_OK, or an sb_code with *err when it cannot start. */
sb_code svc_mapsrc_start(svc_mapsrc **out, const svc_cfg *cfg, sb_err *err);

/* The current map with a reference the caller drops with
 * svc_mapsrc_release(*ref) (NULL map: none yet; *ref may still be set). */
const struct sb_pypimap *svc_mapsrc_take(svc_mapsrc *m, void **ref);
void svc_mapsrc_release(void *ref);

/* The SHA-1 of the current mapping's bytes into out: 1, or 0 when there is
 * no map yet. A refresh that brings other bytes changes it, so the result
 * cache (repeat.c) never answers from a document the old mapping made. */
int svc_mapsrc_digest(svc_mapsrc *m, unsigned char out[20]);

/* Stop the thread and free the map (requests are over). */
void svc_mapsrc_stop(svc_mapsrc *m);

#endif
