/*
 * config.h - sbomd's settings: one table, each a flag and an SBOMD_* variable.
 *
 * Loaded once at startup (defaults < environment < command line), validated,
 * then read-only for the life of the process.
 */
#ifndef SVC_CONFIG_H
#define SVC_CONFIG_H

#include "../core/err.h"

#include <stddef.h>

typedef struct svc_cfg {
    char listen[64]; /* address to bind; 127.0.0.1 by default */
    long port;
    long threads;  /* MHD thread pool; 0 = the cgroup CPU quota, else the cores */
    long max_body; /* bytes; 413 beyond */
    long max_connections;
    long conn_timeout;            /* seconds of inactivity before a connection is closed */
    long source_date_epoch;       /* fixed document timestamp; -1 = now */
    long max_packages;            /* package records per lockfile */
    long max_documents;           /* documents in one NDJSON response */
    long max_depth;               /* YAML nesting */
    long max_scalar;              /* bytes in one YAML scalar */
    long quiet;                   /* 1 = no request log lines */
    char log_level[8];            /* least level of request lines: info, warn, error */
    long max_requests;            /* requests in flight before 503 + Retry-After */
    long shutdown_delay;          /* seconds /readyz says 503 before the listener closes */
    long check_only;              /* --check-config: validate, print, exit */
    char package_cache[1024];     /* conda package cache root (holds pkgs/); "" = none */
    long license_file_max;        /* bytes of license text per file a request may embed */
    long license_texts_max;       /* bytes of license text per document */
    long request_timeout;         /* seconds from a request's headers to its last byte */
    long min_upload_rate;         /* bytes/s an upload must average after upload_grace; 0 = off */
    long upload_grace;            /* seconds before the upload rate is judged */
    char tokens_file[1024];       /* bearer tokens, one per line; "" = no auth */
    char auth_open[256];          /* comma-separated paths served without a token */
    char tls_cert[1024];          /* PEM certificate (chain); with tls_key: HTTPS */
    char tls_key[1024];           /* PEM private key */
    char sbom_author[320];        /* default SBOM author (SPDX creator syntax); "" = none */
    char detector_url[512];       /* detector.url of github-snapshot documents; "" = the tool's purl */
    long lookups;                 /* 1: ?fetch-licenses=true may query the package index */
    char pypi_url[512];           /* PyPI JSON API base */
    char conda_url[512];          /* conda channel host: base of every archive lookup */
    char cache_dir[1024];         /* lookup answers kept across restarts; "" = a private temp dir */
    long concurrency;             /* lookup transfers at once */
    long lookup_timeout;          /* seconds per transfer */
    long lookup_deadline;         /* seconds a request waits for its lookups */
    long lookup_cache;            /* cached answers kept */
    long lookup_ttl;              /* seconds an answer stays fresh */
    long lookup_negative_ttl;     /* seconds "no such release" stays fresh */
    long lookup_max_per_request;  /* lookups one request may make; past it, counted in pixi:incomplete */
    char pypi_mapping_file[1024]; /* conda-forge -> PyPI names (prefix.dev mapping JSON); "" = none */
    char pypi_mapping_url[512];   /* the same fetched and refreshed (mapsrc.c); "" = none */
    long pypi_mapping_ttl;        /* seconds between its fetches */
    long vulns;                   /* 1: ?vulnerabilities=osv may query OSV */
    char osv_url[512];            /* OSV API base */
    long osv_ttl;                 /* seconds an OSV answer is reused */
    long result_cache_size;       /* bytes of responses kept for repeats; 0 = off */
    long result_cache_max_entry;  /* largest body kept */
    char kev_url[512];            /* CISA KEV catalog feed */
    char kev_file[1024];          /* local KEV catalog read per request; "" = kev_url */
    long kev_ttl;                 /* seconds the fetched catalog is reused */
    char epss_url[512];           /* FIRST EPSS API */
    char epss_file[1024];         /* local EPSS answer read per request; "" = epss_url */
    long epss_ttl;                /* seconds an EPSS answer is reused */
    char scorecard_url[512];      /* OpenSSF Scorecard API base */
    long scorecard_ttl;           /* seconds a scorecard answer is reused */
    char channel_index_url[512];  /* repodata.json-shaped URL template ({channel}, {subdir}); "" = conda not checked */
    long channel_index_ttl;       /* seconds a channel index digest is reused */
    char cors_origins[512];       /* comma-separated origins allowed cross-origin, "*" any; "" = off */
    long memory_budget;           /* bytes bodies and their parsing may hold; 0 = derived at load */
    long max_body_lowered;        /* 1: max_body was lowered to fit the memory_budget */
    long head_timeout;            /* seconds a request head may take to arrive, trickle or not */
    long max_connections_per_ip;  /* open connections per client address; 0 = no cap */
    char policy_file[1024];       /* TOML file of named license policies; "" = none */
    long probe_port;              /* plain-HTTP listener for /healthz, /readyz, /metrics; -1 = off */
    char probe_listen[64];        /* its address; "" = listen's */
    long metrics_on_main;         /* 1: /metrics on the main listener too; 0: the probe listener only */
    char cache_url[512];          /* shared cache (Redis) for lookup answers; "" = the embedded caches only */
    char cache_prefix[128];       /* prepended to every shared-cache key */
    long cache_timeout_ms;        /* connect and command timeout of the shared cache */
    long cache_max_value;         /* bytes: larger values are not written to the shared cache */
    long cache_ttl;               /* seconds a shared-cache entry lives at most; 0 = the answer's own TTL */
    long cache_pool;              /* read connections to the shared cache */
    const struct svc_policies *policies; /* read from policy_file at load; NULL when none */
} svc_cfg;

/* Named license policies from --policy-file ([policy.NAME] tables with
 * allow, deny, ignore (string arrays) and require (bool)); read-only after
 * load. */
struct sb_policy;
typedef struct svc_policies {
    const char **names;
    struct sb_policy *items;
    size_t n;
} svc_policies;

/* The named policy, NULL when the server has none of that name. */
const struct sb_policy *svc_cfg_policy(const svc_cfg *c, const char *name);

/* A byte count with an optional unit: "67108864", "64M", "64MB", "300Mi",
 * "1G", "2Ti" (k/M/G/T powers of 1000, Ki/Mi/Gi/Ti of 1024). 0 with *out,
 * -1 when it is not one. */
int svc_cfg_size(const char *v, long long *out);

/* Parse defaults, environment and argv into *out, checked together: 0 to
 * run, 1 when --help/--version was printed (exit 0), or a negative sb_code
 * with *err saying which setting is wrong and why. */
int svc_cfg_load(svc_cfg *out, int argc, char **argv, sb_err *err);

/* SBOMD_* variables of the environment that name no setting (a typo like
 * SBOMD_VULNERABILITES silently leaves a feature off): how many, and a
 * message naming each with the closest setting into out. */
int svc_cfg_unknown_env(char *out, size_t n);

/* Resolve memory_budget (0: derived from `cgroup_limit`, 0 = none) and fit
 * it to max_body: SB_EINVAL with *err when a set budget cannot hold one
 * max-body request the operator chose; a derived budget, or a max-body left
 * at its default, lowers max_body instead (max_body_lowered). */
#define SVC_CFG_MAX_BODY_DEFAULT 67108864L
sb_code svc_cfg_fit_budget(svc_cfg *c, unsigned long long cgroup_limit, sb_err *err);

/* --listen as a socket address: an IPv4 address, or an IPv6 one bare or
 * in brackets ("::", "[::1]"); *family is AF_INET or AF_INET6. SB_OK, or
 * SB_EINVAL with the reason in *err. */
struct sockaddr_storage;
sb_code svc_listen_parse(const char *listen, long port, struct sockaddr_storage *ss, int *family, sb_err *err);

/* Print every setting as name=value (for --check-config). */
void svc_cfg_print(const svc_cfg *c);

#endif
