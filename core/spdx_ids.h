/*
 * spdx_ids.h - the SPDX license and exception ids (generated table, see
 * scripts/gen-spdx-ids), sorted case-insensitively.
 */
#ifndef SB_SPDX_IDS_H
#define SB_SPDX_IDS_H

typedef struct sb_spdx_id {
    const char *id;
    int deprecated;
} sb_spdx_id;

extern const char sb_spdx_list_version[];
extern const sb_spdx_id sb_spdx_licenses[];
extern const unsigned long sb_spdx_nlicenses;
extern const sb_spdx_id sb_spdx_exceptions[];
extern const unsigned long sb_spdx_nexceptions;

#endif
