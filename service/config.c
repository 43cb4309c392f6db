/*
 * config.c - the settings table (redis static_configs[] style): name, env
 * var, bounds, default, help. Adding a setting is adding a line here.
 */
#include "config.h"
#include "log.h"
#include "metrics.h"
#include "params.h"
#include "budget.h"
#include "cgroup.h"
#include "lookup/shared_cache.h"
#include "../core/buf.h"
#include "../core/policy.h"
#include "../core/toml.h"
#include "../core/lock.h"
#include "../core/model.h"
#include "../core/version.h"

#include <errno.h>
#include <limits.h>
#include <stddef.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <sys/socket.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* T_SIZE: a byte count, with an optional unit (k/M/G/T: powers of 1000;
 * Ki/Mi/Gi/Ti: powers of 1024; a trailing B allowed), as Kubernetes writes
 * memory (300Mi) and people write sizes (64M). */
typedef enum { T_LONG, T_SIZE, T_STR, T_FLAG } opt_type;

typedef struct cfg_opt {
    const char *name; /* --name */
    const char *env;  /* SBOMD_NAME */
    opt_type type;
    size_t offset;
    long min, max;
    const char *def;
    const char *help;
} cfg_opt;

#define OFF(f) offsetof(svc_cfg, f)

/* one row per line, however long, so that a row reads as a record */
/* clang-format off */
static const cfg_opt opts[] = {
    {"listen", "SBOMD_LISTEN", T_STR, OFF(listen), 0, 64, "127.0.0.1", "IPv4 or IPv6 address to bind (:: is dual stack, [::1] accepted; 0.0.0.0 in containers)"},
    {"port", "SBOMD_PORT", T_LONG, OFF(port), 0, 65535, "8080", "TCP port (0 = any free port, printed at start)"},
    {"threads", "SBOMD_THREADS", T_LONG, OFF(threads), 0, 256, "0", "worker threads (0 = one per core the cgroup CPU quota allows, else per core)"},
    {"max-body", "SBOMD_MAX_BODY", T_SIZE, OFF(max_body), 1024, 1L << 32, "67108864", "largest accepted request body in bytes (at the default, lowered to what a smaller memory-budget holds)"},
    {"max-connections", "SBOMD_MAX_CONNECTIONS", T_LONG, OFF(max_connections), 1, 100000, "1024", "concurrent connections"},
    {"conn-timeout", "SBOMD_CONN_TIMEOUT", T_LONG, OFF(conn_timeout), 1, 3600, "30", "idle seconds before a connection is dropped"},
    {"source-date-epoch", "SOURCE_DATE_EPOCH", T_LONG, OFF(source_date_epoch), -1, 253402300799L, "-1", "fixed document timestamp (Unix seconds; -1 = now)"},
    {"max-packages", "SBOMD_MAX_PACKAGES", T_LONG, OFF(max_packages), 1, 10000000, "500000", "package records accepted per lockfile"},
    {"max-documents", "SBOMD_MAX_DOCUMENTS", T_LONG, OFF(max_documents), 1, 100000, "256", "environment x platform documents per request (all-environments / all-platforms)"},
    {"max-depth", "SBOMD_MAX_DEPTH", T_LONG, OFF(max_depth), 4, 1000, "64", "YAML nesting accepted"},
    {"max-scalar", "SBOMD_MAX_SCALAR", T_SIZE, OFF(max_scalar), 1024, 1L << 30, "1048576", "bytes in one YAML scalar"},
    {"quiet", "SBOMD_QUIET", T_FLAG, OFF(quiet), 0, 1, "0", "do not log one line per request"},
    {"log-level", "SBOMD_LOG_LEVEL", T_STR, OFF(log_level), 0, 8, "info", "least level of the request lines logged: debug (every request, probes and scrapes too), info (every request but the 2xx-4xx answers of /healthz, /readyz and /metrics; a draining /readyz 503 is info), warn (5xx, cut streams, and 401/403/408/413/429), error (5xx and cut streams); service events are always logged"},
    {"max-requests", "SBOMD_MAX_REQUESTS", T_LONG, OFF(max_requests), 1, 100000, "256", "requests in flight before 503 with Retry-After"},
    {"package-cache", "SBOMD_PACKAGE_CACHE", T_STR, OFF(package_cache), 0, 1024, "", "conda package cache directory (with pkgs/) for licenses, about.json and license files; empty = none"},
    {"license-file-max", "SBOMD_LICENSE_FILE_MAX", T_SIZE, OFF(license_file_max), 0, 1L << 30, "1048576", "bytes of text embedded per license file (larger files are listed by name)"},
    {"license-texts-max", "SBOMD_LICENSE_TEXTS_MAX", T_SIZE, OFF(license_texts_max), 0, 1L << 34, "67108864", "bytes of license text per document (past it, files are listed by name)"},
    {"request-timeout", "SBOMD_REQUEST_TIMEOUT", T_LONG, OFF(request_timeout), 1, 86400, "120", "seconds a request may take from its headers to its last byte: while uploading the connection is closed (counted as a 408), 504 before the document starts, a visibly truncated stream after"},
    {"min-upload-rate", "SBOMD_MIN_UPLOAD_RATE", T_SIZE, OFF(min_upload_rate), 0, 1L << 30, "1024", "bytes per second an upload must average once upload-grace has passed, else the connection is closed mid-body (counted as a 408; no answer can be sent then) (0 = off)"},
    {"upload-grace", "SBOMD_UPLOAD_GRACE", T_LONG, OFF(upload_grace), 1, 3600, "5", "seconds of upload before its rate is judged"},
    {"policy-file", "SBOMD_POLICY_FILE", T_STR, OFF(policy_file), 0, 1024, "", "TOML file of named license policies ([policy.NAME] with allow, deny, ignore, require), chosen per request with ?policy=NAME; read at start"},
    {"tokens-file", "SBOMD_TOKENS_FILE", T_STR, OFF(tokens_file), 0, 1024, "", "bearer tokens, one per line (# comments); set = every request needs one; reloaded on SIGHUP and when the file changes (checked each second)"},
    {"auth-open", "SBOMD_AUTH_OPEN", T_STR, OFF(auth_open), 0, 256, "/,/healthz,/readyz,/metrics", "comma-separated paths served without a token when tokens-file is set (/ is the static page; its API calls still need the token)"},
    {"tls-cert", "SBOMD_TLS_CERT", T_STR, OFF(tls_cert), 0, 1024, "", "PEM certificate chain: serve HTTPS (with tls-key); both reloaded on SIGHUP and when either file changes, without dropping connections"},
    {"tls-key", "SBOMD_TLS_KEY", T_STR, OFF(tls_key), 0, 1024, "", "PEM private key for tls-cert"},
    {"sbom-author", "SBOMD_SBOM_AUTHOR", T_STR, OFF(sbom_author), 0, 320, "", "SBOM author written into every document unless a request names one (?author=): \"Person: NAME (EMAIL)\" or \"Organization: NAME (EMAIL)\", the e-mail optional; empty = none (never guessed)"},
    {"lookups", "SBOMD_LOOKUPS", T_FLAG, OFF(lookups), 0, 1, "0", "let ?fetch-licenses=true ask the package index for licenses the lockfile lacks, and ?yanked=true / the outdated report ask PyPI project pages (off: no network at all, and fail-on-yanked / fail-on-scorecard answer 400 feature-disabled)"},
    {"pypi-url", "SBOMD_PYPI_URL", T_STR, OFF(pypi_url), 0, 512, "https://pypi.org/pypi", "PyPI JSON API base (<base>/<name>/<version>/json for licenses, <base>/<name>/json for yanked and outdated); the only host PyPI lookups reach"},
    {"conda-url", "SBOMD_CONDA_URL", T_STR, OFF(conda_url), 0, 512, "https://conda.anaconda.org", "conda channel host: an archive is fetched from <base>/<channel>/<subdir>/<file>, the last three segments of its lockfile URL"},
    {"cache-dir", "SBOMD_CACHE_DIR", T_STR, OFF(cache_dir), 0, 1024, "", "directory where lookup answers (PyPI licenses, conda archives' info/) are kept across restarts; empty = a private temporary directory removed at exit"},
    {"concurrency", "SBOMD_CONCURRENCY", T_LONG, OFF(concurrency), 1, 1000, "10", "lookup transfers at once, for the whole process"},
    {"lookup-timeout", "SBOMD_LOOKUP_TIMEOUT", T_LONG, OFF(lookup_timeout), 1, 600, "10", "seconds one lookup transfer may take"},
    {"lookup-deadline", "SBOMD_LOOKUP_DEADLINE", T_LONG, OFF(lookup_deadline), 1, 3600, "20", "seconds a request waits for its lookups before writing without them"},
    {"lookup-cache", "SBOMD_LOOKUP_CACHE", T_LONG, OFF(lookup_cache), 1, 10000000, "100000", "lookup answers kept in memory"},
    {"lookup-ttl", "SBOMD_LOOKUP_TTL", T_LONG, OFF(lookup_ttl), 0, 31536000, "86400", "seconds a license answer is reused"},
    {"lookup-max-per-request", "SBOMD_LOOKUP_MAX_PER_REQUEST", T_LONG, OFF(lookup_max_per_request), 1, 10000000, "1000", "lookups (PyPI releases, conda archives) one request may ask the network for; past it, packages are left out and counted in pixi:incomplete"},
    {"lookup-negative-ttl", "SBOMD_LOOKUP_NEGATIVE_TTL", T_LONG, OFF(lookup_negative_ttl), 0, 86400, "300", "seconds a 'no such release' answer is reused (failures are not kept)"},
    {"pypi-mapping-file", "SBOMD_PYPI_MAPPING_FILE", T_STR, OFF(pypi_mapping_file), 0, 1024, "", "conda-forge -> PyPI name mapping (the prefix.dev compressed mapping JSON, {conda: pypi | [pypi...] | null}), read at start: conda-forge packages without a lockfile purls: key get a pkg:pypi identity; empty = none"},
    {"pypi-mapping-url", "SBOMD_PYPI_MAPPING_URL", T_STR, OFF(pypi_mapping_url), 0, 512, "", "conda-forge -> PyPI mapping fetched from this URL (same JSON as pypi-mapping-file, e.g. https://raw.githubusercontent.com/prefix-dev/parselmouth/main/files/compressed_mapping.json) at start and every pypi-mapping-ttl seconds; a copy is kept in cache-dir for restarts without the network; empty = none"},
    {"pypi-mapping-ttl", "SBOMD_PYPI_MAPPING_TTL", T_LONG, OFF(pypi_mapping_ttl), 1, 31536000, "86400", "seconds between fetches of pypi-mapping-url"},
    {"vulnerabilities", "SBOMD_VULNERABILITIES", T_FLAG, OFF(vulns), 0, 1, "0", "let ?vulnerabilities=osv ask OSV for advisories on PyPI and npm purls (off: documents say pixi:incomplete osv, and a gate on findings - fail-on-severity, -kev, -epss - answers 400 feature-disabled)"},
    {"osv-url", "SBOMD_OSV_URL", T_STR, OFF(osv_url), 0, 512, "https://api.osv.dev", "OSV API base (<base>/v1/querybatch, <base>/v1/vulns/<id>); the only host vulnerability lookups reach"},
    {"osv-ttl", "SBOMD_OSV_TTL", T_LONG, OFF(osv_ttl), 0, 604800, "3600", "seconds an OSV answer (query or advisory) is reused"},
    {"result-cache-size", "SBOMD_RESULT_CACHE_SIZE", T_SIZE, OFF(result_cache_size), 0, 1L << 40, "67108864", "bytes of finished documents and reports kept in memory to answer repeated uploads (same bytes, same options) without reading them again; least recently used go first; 0 = off"},
    {"result-cache-max-entry", "SBOMD_RESULT_CACHE_MAX_ENTRY", T_SIZE, OFF(result_cache_max_entry), 1024, 1L << 40, "16777216", "largest response body the result cache keeps (bytes); larger ones are streamed and not kept"},
    {"kev-url", "SBOMD_KEV_URL", T_STR, OFF(kev_url), 0, 512, "https://www.cisa.gov/sites/default/files/feeds/known_exploited_vulnerabilities.json", "CISA Known Exploited Vulnerabilities catalog (JSON feed) fetched for ?kev=true"},
    {"kev-file", "SBOMD_KEV_FILE", T_STR, OFF(kev_file), 0, 1024, "", "a local copy of the KEV catalog, read by each ?kev=true request instead of kev-url (refresh it by replacing the file); empty = fetch kev-url"},
    {"kev-ttl", "SBOMD_KEV_TTL", T_LONG, OFF(kev_ttl), 0, 604800, "86400", "seconds the fetched KEV catalog is reused"},
    {"epss-url", "SBOMD_EPSS_URL", T_STR, OFF(epss_url), 0, 512, "https://api.first.org/data/v1/epss", "FIRST EPSS API (<url>?cve=CVE-...,CVE-...) asked for ?epss=true"},
    {"epss-file", "SBOMD_EPSS_FILE", T_STR, OFF(epss_file), 0, 1024, "", "a local EPSS answer ({\"data\": [{cve, epss, percentile, date}]}, the API's shape), read by each ?epss=true request instead of epss-url; empty = ask epss-url"},
    {"epss-ttl", "SBOMD_EPSS_TTL", T_LONG, OFF(epss_ttl), 0, 604800, "86400", "seconds an EPSS answer is reused (scores change daily)"},
    {"scorecard-url", "SBOMD_SCORECARD_URL", T_STR, OFF(scorecard_url), 0, 512, "https://api.securityscorecards.dev", "OpenSSF Scorecard API base (<base>/projects/github.com/<owner>/<repo>) asked for ?scorecard=true (needs lookups); the only host scorecard lookups reach"},
    {"scorecard-ttl", "SBOMD_SCORECARD_TTL", T_LONG, OFF(scorecard_ttl), 0, 2592000, "604800", "seconds a scorecard answer is reused (Scorecard recomputes scores weekly)"},
    {"channel-index-url", "SBOMD_CHANNEL_INDEX_URL", T_STR, OFF(channel_index_url), 0, 512, "", "repodata.json-shaped index per conda channel and subdir, {channel} and {subdir} replaced (e.g. https://conda.anaconda.org/{channel}/{subdir}/repodata.json; answers past 8 MiB fail, so point it at a trimmed mirror for big channels), read by the outdated report for conda packages (needs lookups); empty = conda packages not checked"},
    {"channel-index-ttl", "SBOMD_CHANNEL_INDEX_TTL", T_LONG, OFF(channel_index_ttl), 0, 2592000, "86400", "seconds a channel index is reused (an outdated answer may be a day old)"},
    {"detector-url", "SBOMD_DETECTOR_URL", T_STR, OFF(detector_url), 0, 512, "", "detector.url of format=github-snapshot documents (where GitHub's dependency graph links the detector: your deployment's or fork's page); empty = sbomd's purl, pkg:generic/sbomd@VERSION"},
    {"cors-origins", "SBOMD_CORS_ORIGINS", T_STR, OFF(cors_origins), 0, 512, "", "comma-separated origins (scheme://host[:port]) a browser may call the API from, * for any; empty = no CORS"},
    {"shutdown-delay", "SBOMD_SHUTDOWN_DELAY", T_LONG, OFF(shutdown_delay), 0, 300, "0", "seconds /readyz answers 503 before the listener closes on SIGTERM"},
    {"head-timeout", "SBOMD_HEAD_TIMEOUT", T_LONG, OFF(head_timeout), 1, 3600, "10", "seconds a whole request head may take to arrive, from the connection's start or the previous answer's end, however it trickles; past it the connection is closed"},
    {"memory-budget", "SBOMD_MEMORY_BUDGET", T_SIZE, OFF(memory_budget), 0, 1L << 42, "0", "bytes all requests together may hold at once: each is admitted on an estimate (its body, what its reader will build, what its query builds) and then charged every block it takes; one the rest cannot hold gets 503 + Retry-After (spread over 2-5 s), one that alone exceeds it 413; when requests stop each other the first stopped waits for the others' memory and is served (0 = 70% of the cgroup memory limit, else 1 GiB); must hold one max-body request (a max-body left at its default is lowered to fit)"},
    {"cache-url", "SBOMD_CACHE_URL", T_STR, OFF(cache_url), 0, 512, "", "shared cache for lookup answers across replicas: redis://[[user]:password@]host[:port][/db] (rediss:// is not available: Debian's hiredis 0.14 has no TLS); Redis down or slow is a cache miss with a Warning header; empty = the embedded caches only"},
    {"cache-prefix", "SBOMD_CACHE_PREFIX", T_STR, OFF(cache_prefix), 0, 128, "sbomd:", "prefix of every shared-cache key (several deployments on one Redis)"},
    {"cache-timeout-ms", "SBOMD_CACHE_TIMEOUT_MS", T_LONG, OFF(cache_timeout_ms), 1, 10000, "100", "milliseconds a shared-cache connect or command may take before it counts as a miss"},
    {"cache-max-value", "SBOMD_CACHE_MAX_VALUE", T_SIZE, OFF(cache_max_value), 1, 1L << 29, "2097152", "bytes of one shared-cache value (a conda archive's info member can be large); larger ones stay local"},
    {"cache-ttl", "SBOMD_CACHE_TTL", T_LONG, OFF(cache_ttl), 0, 31536000, "0", "seconds a shared-cache entry lives at most (0 = the answer's own: lookup-ttl, lookup-negative-ttl, osv-ttl)"},
    {"cache-pool", "SBOMD_CACHE_POOL", T_LONG, OFF(cache_pool), 1, 256, "4", "connections for shared-cache reads (one read each at a time; writes have their own)"},
    {"max-connections-per-ip", "SBOMD_MAX_CONNECTIONS_PER_IP", T_LONG, OFF(max_connections_per_ip), 0, 100000, "256", "connections one client address may hold open (0 = no cap); behind a proxy every client is the proxy's address"},
    {"probe-port", "SBOMD_PROBE_PORT", T_LONG, OFF(probe_port), -1, 65535, "-1", "a second, plain-HTTP listener serving only /healthz, /readyz and /metrics on its own thread and connection budget (32), so probes are answered however busy or trickled the main listener is (-1 = off, 0 = any free port, printed at start)"},
    {"metrics-on-main", "SBOMD_METRICS_ON_MAIN", T_FLAG, OFF(metrics_on_main), 0, 1, "1", "serve /metrics on the main listener too (0: only on the probe listener, so who may read the counters is decided on the probe port alone, e.g. by a NetworkPolicy; needs probe-port; --metrics-on-main=false)"},
    {"probe-listen", "SBOMD_PROBE_LISTEN", T_STR, OFF(probe_listen), 0, 64, "", "address of the probe listener (empty = the listen address)"},
};
/* clang-format on */

#define NOPTS (sizeof opts / sizeof opts[0])

static sb_code set(svc_cfg *c, const cfg_opt *o, const char *v, const char *origin, sb_err *err)
{
    char *base = (char *)c + o->offset;
    if (o->type == T_STR) {
        if (strlen(v) >= (size_t)o->max) { /* max is the field's size for strings */
            return sb_err_set(err, SB_EINVAL, "%s %s: value too long", origin, o->name);
        }
        strcpy(base, v);
        return SB_OK;
    }
    if (o->type == T_FLAG) {
        int w = svc_bool_word(v);
        if (w < 0)
            return sb_err_set(err, SB_EINVAL, "%s %s: '%s' is not a boolean: " SVC_BOOL_WORDS, origin, o->name, v);
        *(long *)base = w;
        return SB_OK;
    }
    char *end;
    errno = 0;
    long n = strtol(v, &end, 10);
    if (o->type == T_SIZE && !errno && end != v && *end) {
        long long scaled;
        if (0 == svc_cfg_size(v, &scaled) && scaled <= LONG_MAX) {
            n = (long)scaled;
            end = (char *)v + strlen(v);
        }
    }
    if (errno || end == v || *end || n < o->min || n > o->max) {
        if (o->type == T_SIZE)
            return sb_err_set(err, SB_EINVAL,
                              "%s %s: '%s' is not a byte count in [%ld, %ld] (units k, M, G, T, Ki, Mi, Gi, Ti allowed)",
                              origin, o->name, v, o->min, o->max);
        return sb_err_set(err, SB_EINVAL, "%s %s: '%s' is not an integer in [%ld, %ld]", origin, o->name, v, o->min,
                          o->max);
    }
    *(long *)base = n;
    return SB_OK;
}

/* The options that act instead of configuring: listed by --help and the
 * generated reference beside the table's settings. */
static const struct {
    const char *name, *help;
} actions[] = {
    {"check-config", "validate the settings, print them, exit 0 (2 if invalid)"},
    {"help", "print this text and exit"},
    {"help-markdown", "print the configuration reference (docs/configuration.md) and exit"},
    {"help-man", "print the manual page sbomd(8) (docs/sbomd.8) and exit"},
    {"version", "print the version and the revision built (git, or SBOMD_REVISION at build time), and exit"},
};
#define NACTIONS (sizeof actions / sizeof actions[0])

int svc_cfg_size(const char *v, long long *out)
{
    static const struct {
        const char *unit;
        unsigned long long mul;
    } units[] = {
        {"", 1ULL},
        {"k", 1000ULL},
        {"K", 1000ULL},
        {"M", 1000ULL * 1000},
        {"G", 1000ULL * 1000 * 1000},
        {"T", 1000ULL * 1000 * 1000 * 1000},
        {"Ki", 1ULL << 10},
        {"Mi", 1ULL << 20},
        {"Gi", 1ULL << 30},
        {"Ti", 1ULL << 40},
    };
    if (NULL == v || v[0] < '0' || v[0] > '9')
        return -1;
    unsigned long long n = 0;
    const char *p = v;
    for (; *p >= '0' && *p <= '9'; p++) {
        if (n > (1ULL << 50)) /* far past any setting's bound: no overflow below */
            return -1;
        n = n * 10 + (unsigned)(*p - '0');
    }
    size_t ul = strlen(p);
    if (ul && p[ul - 1] == 'B')
        ul--; /* 64MB, 300MiB */
    for (size_t i = 0; i < sizeof units / sizeof units[0]; i++)
        if (strlen(units[i].unit) == ul && !strncmp(p, units[i].unit, ul) && (ul || !p[0])) {
            if (n > (1ULL << 62) / units[i].mul)
                return -1;
            *out = (long long)(n * units[i].mul);
            return 0;
        }
    return -1;
}

static void help(void)
{
    printf("usage: sbomd [options]\n\nEvery option is also an environment variable; flags win.\n\n");
    for (size_t i = 0; i < NOPTS; i++)
        printf("  --%-20s %-24s %s (default %s)\n", opts[i].name, opts[i].env, opts[i].help, opts[i].def);
    for (size_t i = 0; i < NACTIONS; i++)
        printf("  --%-20s %-24s %s\n", actions[i].name, "", actions[i].help);
}

/* One phrase for what a setting takes, shared by both references. */
static void value_kind(const cfg_opt *o, char *b, size_t n)
{
    if (o->type == T_FLAG)
        snprintf(b, n, "flag: " SVC_BOOL_WORDS "; a bare --%s is true", o->name);
    else if (o->type == T_SIZE)
        snprintf(b, n, "bytes in [%ld, %ld], a unit allowed (64M, 300Mi, 1G)", o->min, o->max);
    else if (o->type == T_STR)
        snprintf(b, n, "text, at most %ld bytes", o->max - 1);
    else
        snprintf(b, n, "integer in [%ld, %ld]", o->min, o->max);
}

static const char *const doc_intro =
    "sbomd is an HTTP service that turns lockfiles into Software Bills of Materials: "
    "a client POSTs a lockfile and gets a CycloneDX or SPDX JSON document (or a report) streamed back. "
    "Every setting is a command-line option and an environment variable of the same meaning; "
    "an option given on the command line wins over the variable, and a variable set to the empty string counts as unset. "
    "A value out of bounds stops the service at start with a message naming the setting.";

/* docs/configuration.md: generated, so the reference and --help come from
 * the one table and cannot drift (a test compares the file with this). */
static void help_markdown(void)
{
    char kind[128];
    printf("# sbomd configuration\n\n");
    printf(
        "<!-- Generated by `sbomd --help-markdown` from the settings table in service/config.c.\n"
        "     Do not edit: `make docs` rewrites it, and `make test` fails when it differs. -->\n\n");
    printf("%s\n\n", doc_intro);
    printf("| option | environment variable | default |\n|---|---|---|\n");
    for (size_t i = 0; i < NOPTS; i++)
        printf("| [`--%s`](#%s) | `%s` | `%s` |\n", opts[i].name, opts[i].name, opts[i].env,
               opts[i].def[0] ? opts[i].def : "\"\"");
    printf("\n## Settings\n");
    for (size_t i = 0; i < NOPTS; i++) {
        value_kind(&opts[i], kind, sizeof kind);
        printf("\n### %s\n\n`--%s`, `%s`: %s; default `%s`.\n\n", opts[i].name, opts[i].name, opts[i].env, kind,
               opts[i].def[0] ? opts[i].def : "\"\"");
        /* a help text may hold | or < >: fine in a paragraph, not in a table */
        printf("%c%s.\n", opts[i].help[0] >= 'a' && opts[i].help[0] <= 'z' ? opts[i].help[0] - 32 : opts[i].help[0],
               opts[i].help + 1);
    }
    printf("\n## Actions\n\n");
    for (size_t i = 0; i < NACTIONS; i++)
        printf("- `--%s`: %s.\n", actions[i].name, actions[i].help);
}

/* roff text: a backslash is \e, a hyphen in an option name \-, and a line
 * must not start with . or ' (it would be a request). */
static void roff(const char *s, int hyphens)
{
    if (*s == '.' || *s == '\'')
        fputs("\\&", stdout);
    for (; *s; s++) {
        if (*s == '\\')
            fputs("\\e", stdout);
        else if (*s == '-' && hyphens)
            fputs("\\-", stdout);
        else
            putchar(*s);
    }
}

/* docs/sbomd.8, the manual page: generated from the same table. */
static void help_man(void)
{
    char kind[128];
    printf(".\\\" Generated by sbomd --help-man from the settings table in service/config.c; do not edit.\n");
    printf(".TH SBOMD 8 \"\" \"%s %s\" \"System Administration\"\n", SB_TOOL_NAME, SB_VERSION);
    printf(".SH NAME\nsbomd \\- lockfiles in, SBOMs out: an HTTP service\n");
    printf(".SH SYNOPSIS\n.B sbomd\n.RI [ options ]\n");
    printf(".SH DESCRIPTION\n");
    roff(doc_intro, 0);
    printf("\n.PP\nThe API is described in the OpenAPI document the service serves at\n.BR /openapi.yaml .\n");
    /* the inputs from the readers' registry, so a new reader needs no line here */
    printf(".PP\nInputs read (the\n.B kind\nparameter; auto detects):\n");
    const sb_reader *const *rd = sb_lock_readers();
    for (size_t i = 0; rd[i]; i++) {
        roff(rd[i]->kind, 0);
        printf("%s\n", rd[i + 1] ? "," : ".");
    }
    printf(".SH OPTIONS\n");
    for (size_t i = 0; i < NOPTS; i++) {
        value_kind(&opts[i], kind, sizeof kind);
        printf(".TP\n\\fB\\-\\-");
        roff(opts[i].name, 1);
        printf("\\fR, \\fB");
        roff(opts[i].env, 0);
        printf("\\fR\n");
        putchar(opts[i].help[0] >= 'a' && opts[i].help[0] <= 'z' ? opts[i].help[0] - 32 : opts[i].help[0]);
        roff(opts[i].help + 1, 0);
        printf(".\n.br\n");
        roff(kind, 0);
        printf("; default \\(lq");
        roff(opts[i].def, 0);
        printf("\\(rq.\n");
    }
    for (size_t i = 0; i < NACTIONS; i++) {
        printf(".TP\n.B \\-\\-");
        roff(actions[i].name, 1);
        printf("\n");
        roff(actions[i].help, 0);
        printf(".\n");
    }
    printf(
        ".SH EXIT STATUS\n0 after a clean shutdown (SIGTERM or SIGINT) or an action; 2 when a setting is invalid.\n");
    printf(
        ".SH SEE ALSO\nThe configuration reference docs/configuration.md and the API guide docs/api.md in the source tree.\n");
}

/* --memory-budget 0: a share of the cgroup memory limit, or a fixed value.
 * The budget must hold one request of --max-body, or such a request could
 * never be served: a budget set too small is an error; one derived from a
 * small container lowers max-body to fit (max_body_lowered says so), as
 * refusing to start in a 256Mi pod at default settings helps nobody. */
sb_code svc_cfg_fit_budget(svc_cfg *c, unsigned long long cgroup_limit, sb_err *err)
{
    int derived = 0 == c->memory_budget;
    if (derived)
        c->memory_budget = (long)svc_budget_default(cgroup_limit);
    unsigned long long need = svc_budget_cost((unsigned long long)c->max_body);
    /* a max-body left at its default is no choice of the operator's: the
     * budget they did set lowers it (main logs that it did) */
    int default_body = c->max_body == SVC_CFG_MAX_BODY_DEFAULT;
    if (need > (unsigned long long)c->memory_budget && (derived || default_body)) {
        c->max_body = c->memory_budget / (long)svc_budget_cost(1);
        c->max_body_lowered = 1;
    } else if (need > (unsigned long long)c->memory_budget) {
        return sb_err_set(
            err, SB_EINVAL,
            "memory-budget %ld cannot hold one request of max-body %ld (charged %llu: the body and %llux for "
            "its parsing); raise memory-budget or lower max-body",
            c->memory_budget, c->max_body, need, SVC_BUDGET_ARENA_FACTOR);
    }
    return SB_OK;
}

/* ---- --policy-file ---------------------------------------------------- */

typedef struct policy_load {
    sb_arena *a;
    svc_policies *set;
    size_t cap;
} policy_load;

static sb_policy *policy_named(policy_load *pl, const char *name)
{
    for (size_t i = 0; i < pl->set->n; i++)
        if (!strcmp(pl->set->names[i], name))
            return &pl->set->items[i];
    if (pl->set->n == pl->cap) {
        size_t cap = pl->cap, cap2 = pl->cap;
        sb_policy *items = sb_arena_grow(pl->a, pl->set->items, &cap, pl->set->n, sizeof *items, 4);
        const char **names = sb_arena_grow(pl->a, pl->set->names, &cap2, pl->set->n, sizeof *names, 4);
        if (NULL == items || NULL == names)
            return NULL;
        pl->set->items = items;
        pl->set->names = names;
        pl->cap = cap < cap2 ? cap : cap2;
    }
    const char *copy = sb_arena_strdup(pl->a, name);
    if (NULL == copy)
        return NULL;
    pl->set->names[pl->set->n] = copy;
    sb_policy *p = &pl->set->items[pl->set->n++];
    memset(p, 0, sizeof *p);
    p->name = copy;
    return p;
}

/* [policy.NAME] allow / deny / ignore = [strings], require = bool */
static sb_code policy_value(void *ud, const sb_toml_seg *path, size_t depth, const sb_toml_value *v, sb_err *err)
{
    policy_load *pl = ud;
    if (depth < 1 || !sb_toml_key_is(path, depth, 0, "policy"))
        return sb_err_set(err, SB_EINVAL, "only [policy.NAME] tables belong in a policy file");
    if (depth < 2)
        return SB_OK;
    if (NULL == path[1].key || !path[1].key[0])
        return sb_err_set(err, SB_EINVAL, "a policy needs a name: [policy.NAME]");
    sb_policy *p = policy_named(pl, path[1].key);
    if (NULL == p)
        return sb_err_set(err, SB_ENOMEM, "out of memory");
    if (depth == 2)
        return v->type == SB_TOML_TABLE ? SB_OK : sb_err_set(err, SB_EINVAL, "policy.%s must be a table", p->name);
    const char *key = path[2].key ? path[2].key : "";
    int list = !strcmp(key, "allow") || !strcmp(key, "deny") || !strcmp(key, "ignore");
    if (depth == 3 && !strcmp(key, "require")) {
        if (v->type != SB_TOML_BOOL)
            return sb_err_set(err, SB_EINVAL, "policy.%s.require must be true or false", p->name);
        p->require = v->b;
        return SB_OK;
    }
    if (depth == 3 && list)
        return v->type == SB_TOML_ARRAY
                   ? SB_OK
                   : sb_err_set(err, SB_EINVAL, "policy.%s.%s must be an array of strings", p->name, key);
    if (depth == 4 && list) {
        if (v->type != SB_TOML_STRING)
            return sb_err_set(err, SB_EINVAL, "policy.%s.%s must be an array of strings", p->name, key);
        char *s = sb_arena_strndup(pl->a, v->str, v->len);
        if (NULL == s)
            return sb_err_set(err, SB_ENOMEM, "out of memory");
        if (!strcmp(key, "ignore"))
            return sb_policy_add_ignore(p, pl->a, s, err);
        return sb_policy_add_ids(p, pl->a, !strcmp(key, "deny"), s, err);
    }
    return sb_err_set(err, SB_EINVAL, "policy.%s: unknown key '%s' (allow, deny, ignore, require)", p->name, key);
}

static sb_arena *policy_arena; /* the policies' memory, for the life of the process */

static void free_policies(void)
{
    sb_arena_destroy(policy_arena);
}

/* Read the policy file into a process-lifetime arena (freed at exit, so a
 * leak checker sees nothing left). */
static sb_code load_policies(svc_cfg *c, sb_err *err)
{
    FILE *f = fopen(c->policy_file, "rb");
    if (NULL == f) {
        return sb_err_set(err, SB_EIO, "policy-file '%.200s' cannot be read: %s", c->policy_file, strerror(errno));
    }
    if (policy_arena) { /* loaded once per process */
        sb_arena_destroy(policy_arena);
    } else {
        atexit(free_policies);
    }
    sb_arena *a = policy_arena = sb_arena_new(0);
    sb_buf body = SB_BUF_INIT(0);
    char chunk[8192];
    int oom = 0;
    for (;;) {
        size_t k = fread(chunk, 1, sizeof chunk, f);
        if (0 == k)
            break;
        if (sb_buf_append(&body, chunk, k) != SB_OK) {
            oom = 1;
            break;
        }
        if (body.len > (1u << 20))
            break;
    }
    fclose(f);
    size_t len = body.len;
    const char *data = body.data ? body.data : ""; /* an empty file is an empty policy set */
    svc_policies *set = a ? sb_arena_calloc(a, 1, sizeof *set) : NULL;
    if (oom || NULL == set || len > (1u << 20)) {
        sb_buf_free(&body);
        int big = len > (1u << 20);
        return sb_err_set(err, big ? SB_ELIMIT : SB_ENOMEM, "policy-file '%.200s': %s", c->policy_file,
                          big ? "larger than 1 MiB" : "out of memory");
    }
    policy_load pl = {a, set, 0};
    sb_err perr;
    sb_err_clear(&perr);
    sb_limits lim = SB_LIMITS_DEFAULT;
    sb_code rc = sb_toml_parse(a, data, len, &lim, policy_value, &pl, &perr);
    sb_buf_free(&body);
    if (rc != SB_OK)
        return sb_err_set(err, rc, "policy-file '%.200s': %s", c->policy_file, perr.msg);
    c->policies = set;
    return SB_OK;
}

const sb_policy *svc_cfg_policy(const svc_cfg *c, const char *name)
{
    for (size_t i = 0; c->policies && name && i < c->policies->n; i++)
        if (!strcmp(c->policies->names[i], name))
            return &c->policies->items[i];
    return NULL;
}

/* The setting closest to a misspelled name (edit distance, case and '_'
 * folded as for query parameters), NULL when none is near; `env` compares
 * with the environment names (SBOMD_...), else with the option names. */
static const cfg_opt *closest_opt(const char *name, int env)
{
    const cfg_opt *best = NULL;
    size_t bd = (size_t)-1;
    for (size_t i = 0; i < NOPTS; i++) {
        size_t d = svc_distance(name, env ? opts[i].env : opts[i].name);
        if (d < bd)
            bd = d, best = &opts[i];
    }
    size_t n = strlen(name);
    return best && bd <= (n < 12 ? 2 : 3) ? best : NULL;
}

extern char **environ;

int svc_cfg_unknown_env(char *out, size_t n)
{
    int count = 0;
    size_t at = 0;
    if (n)
        out[0] = '\0';
    for (char **e = environ; e && *e; e++) {
        if (strncmp(*e, "SBOMD_", 6))
            continue;
        const char *eq = strchr(*e, '=');
        size_t nl = eq ? (size_t)(eq - *e) : strlen(*e);
        char name[96];
        if (nl >= sizeof name)
            nl = sizeof name - 1;
        memcpy(name, *e, nl);
        name[nl] = '\0';
        int known = 0;
        for (size_t i = 0; i < NOPTS && !known; i++)
            known = !strcmp(opts[i].env, name);
        if (known)
            continue;
        const cfg_opt *near = closest_opt(name, 1);
        int w = snprintf(out + at, at < n ? n - at : 0, "%sunknown environment variable %s%s%s%s", count ? "; " : "",
                         name, near ? " (did you mean " : " (no setting of that name)", near ? near->env : "",
                         near ? "?)" : "");
        if (w > 0)
            at += (size_t)w;
        if (at >= n)
            at = n ? n - 1 : 0;
        count++;
    }
    return count;
}

int svc_cfg_load(svc_cfg *c, int argc, char **argv, sb_err *err)
{
    memset(c, 0, sizeof *c);
    for (size_t i = 0; i < NOPTS; i++)
        if (set(c, &opts[i], opts[i].def, "default", err) != SB_OK)
            return err->code;
    for (size_t i = 0; i < NOPTS; i++) {
        const char *v = getenv(opts[i].env);
        if (v && v[0] && set(c, &opts[i], v, opts[i].env, err) != SB_OK)
            return err->code;
    }
    for (int k = 1; k < argc; k++) {
        const char *a = argv[k];
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            help();
            return 1;
        }
        if (!strcmp(a, "--check-config")) {
            c->check_only = 1;
            continue;
        }
        if (!strcmp(a, "--help-markdown")) {
            help_markdown();
            return 1;
        }
        if (!strcmp(a, "--help-man")) {
            help_man();
            return 1;
        }
        if (!strcmp(a, "--version")) {
            printf("%s %s (revision %s)\n", SB_TOOL_NAME, SB_VERSION, svc_revision);
            return 1;
        }
        if (strncmp(a, "--", 2)) {
            return sb_err_set(err, SB_EINVAL, "unexpected argument '%s' (see --help)", a);
        }
        const char *name = a + 2, *eq = strchr(name, '=');
        size_t nl = eq ? (size_t)(eq - name) : strlen(name);
        const cfg_opt *o = NULL;
        for (size_t i = 0; i < NOPTS; i++)
            if (strlen(opts[i].name) == nl && !strncmp(opts[i].name, name, nl))
                o = &opts[i];
        if (NULL == o) {
            char given[64];
            snprintf(given, sizeof given, "%.*s", (int)(nl < 60 ? nl : 60), name);
            const cfg_opt *near = closest_opt(given, 0);
            if (near)
                return sb_err_set(err, SB_EINVAL, "unknown option '%s' (did you mean --%s?)", a, near->name);
            return sb_err_set(err, SB_EINVAL, "unknown option '%s' (see --help)", a);
        }
        const char *v;
        if (eq) {
            v = eq + 1;
        } else if (o->type == T_FLAG) {
            v = "true";
        } else if (k + 1 < argc) {
            v = argv[++k];
        } else {
            return sb_err_set(err, SB_EINVAL, "option '%s' needs a value", a);
        }
        if (set(c, o, v, "option", err) != SB_OK)
            return err->code;
    }
    const char *bases[] = {c->pypi_url, c->conda_url, c->osv_url, c->kev_url, c->epss_url, c->scorecard_url},
               *base_names[] = {"pypi-url", "conda-url", "osv-url", "kev-url", "epss-url", "scorecard-url"};
    for (size_t i = 0; i < 6; i++)
        if (strncmp(bases[i], "http://", 7) && strncmp(bases[i], "https://", 8)) {
            return sb_err_set(err, SB_EINVAL, "%s '%.200s' must be an http:// or https:// URL", base_names[i],
                              bases[i]);
        }
    if (svc_log_level_parse(c->log_level) < 0) {
        return sb_err_set(err, SB_EINVAL, "log-level '%.16s' must be debug, info, warn or error", c->log_level);
    }
    if (!c->metrics_on_main && c->probe_port < 0) {
        return sb_err_set(err, SB_EINVAL,
                          "metrics-on-main=0 serves /metrics only on the probe listener: set probe-port too");
    }
    if (c->probe_port > 0 && c->probe_port == c->port) {
        return sb_err_set(err, SB_EINVAL, "probe-port %ld is the port of the main listener; give it another",
                          c->probe_port);
    }
    if (c->channel_index_url[0] && strncmp(c->channel_index_url, "http://", 7) &&
        strncmp(c->channel_index_url, "https://", 8)) {
        return sb_err_set(err, SB_EINVAL, "channel-index-url '%.200s' must be an http:// or https:// URL",
                          c->channel_index_url);
    }
    if (c->pypi_mapping_url[0] && strncmp(c->pypi_mapping_url, "http://", 7) &&
        strncmp(c->pypi_mapping_url, "https://", 8)) {
        return sb_err_set(err, SB_EINVAL, "pypi-mapping-url '%.200s' must be an http:// or https:// URL",
                          c->pypi_mapping_url);
    }
    if (c->pypi_mapping_url[0] && c->pypi_mapping_file[0]) {
        return sb_err_set(err, SB_EINVAL, "pypi-mapping-file and pypi-mapping-url are one mapping: set one of them");
    }
    if (!c->tls_cert[0] != !c->tls_key[0]) {
        return sb_err_set(err, SB_EINVAL, "tls-cert and tls-key go together: set both or neither");
    }
    const char *files[] = {c->tokens_file, c->tls_cert, c->tls_key, c->pypi_mapping_file, c->kev_file, c->epss_file};
    const char *names[] = {"tokens-file", "tls-cert", "tls-key", "pypi-mapping-file", "kev-file", "epss-file"};
    for (size_t i = 0; i < 6; i++) {
        FILE *f = files[i][0] ? fopen(files[i], "r") : NULL;
        if (files[i][0] && NULL == f) {
            int e = errno;
            struct stat fst;
            /* a Secret mounted root-owned and group-only is the usual cause
             * in a container: say who we are and who owns the file, so the
             * fix (fsGroup, or a wider defaultMode) is one read away */
            if (EACCES == e && 0 == stat(files[i], &fst)) {
                return sb_err_set(err, SB_EIO,
                                  "%s '%.200s' cannot be read: %s (sbomd runs as uid %u gid %u, the file is %u:%u "
                                  "mode %03o; in Kubernetes set the pod's securityContext.fsGroup to the group "
                                  "sbomd runs as, or make the volume's defaultMode readable by it)",
                                  names[i], files[i], strerror(e), (unsigned)geteuid(), (unsigned)getegid(),
                                  (unsigned)fst.st_uid, (unsigned)fst.st_gid, (unsigned)(fst.st_mode & 0777));
            }
            return sb_err_set(err, SB_EIO, "%s '%.200s' cannot be read: %s", names[i], files[i], strerror(e));
        }
        if (f)
            fclose(f);
    }
    svc_shared_url su;
    if (c->cache_url[0] && svc_shared_parse_url(c->cache_url, &su, err) != SB_OK)
        return err->code;
    if (c->policy_file[0] && load_policies(c, err) != SB_OK)
        return err->code;
    if (svc_cfg_fit_budget(c, svc_cgroup_memory_limit(SVC_CGROUP_ROOT, SVC_CGROUP_SELF), err) != SB_OK)
        return err->code;
    struct stat st;
    if (c->package_cache[0] && (stat(c->package_cache, &st) != 0 || !S_ISDIR(st.st_mode))) {
        return sb_err_set(err, SB_EINVAL, "package-cache '%.200s' is not a directory", c->package_cache);
    }
    if (c->cache_dir[0] && (stat(c->cache_dir, &st) != 0 || !S_ISDIR(st.st_mode) || access(c->cache_dir, W_OK) != 0)) {
        return sb_err_set(err, SB_EINVAL, "cache-dir '%.200s' is not a writable directory", c->cache_dir);
    }
    if (c->sbom_author[0]) { /* refused at start, not in every request */
        sb_arena *a = sb_arena_new(0);
        sb_author au;
        const char *why = "could not be checked (out of memory)";
        int bad = NULL == a || sb_author_parse(&au, a, c->sbom_author, &why);
        sb_arena_destroy(a);
        if (bad) {
            return sb_err_set(err, SB_EINVAL, "sbom-author '%.200s' %s", c->sbom_author, why);
        }
    }
    return 0;
}

void svc_cfg_print(const svc_cfg *c)
{
    for (size_t i = 0; i < NOPTS; i++) {
        const char *base = (const char *)c + opts[i].offset;
        if (opts[i].type == T_STR && opts[i].offset == OFF(cache_url) && strchr(base, '@'))
            printf("%s=redis://***@%s\n", opts[i].name, strrchr(base, '@') + 1); /* no password in logs */
        else if (opts[i].type == T_STR)
            printf("%s=%s\n", opts[i].name, base);
        else
            printf("%s=%ld\n", opts[i].name, *(const long *)base);
    }
}

sb_code svc_listen_parse(const char *listen, long port, struct sockaddr_storage *ss, int *family, sb_err *err)
{
    memset(ss, 0, sizeof *ss);
    char host[64];
    size_t n = strlen(listen);
    /* "[::1]" as URLs write it, or the bare address */
    if (n >= 2 && listen[0] == '[' && listen[n - 1] == ']' && n - 2 < sizeof host) {
        memcpy(host, listen + 1, n - 2);
        host[n - 2] = '\0';
    } else {
        snprintf(host, sizeof host, "%s", listen);
    }
    struct sockaddr_in *v4 = (struct sockaddr_in *)ss;
    struct sockaddr_in6 *v6 = (struct sockaddr_in6 *)ss;
    if (inet_pton(AF_INET, host, &v4->sin_addr) == 1) {
        v4->sin_family = AF_INET;
        v4->sin_port = htons((uint16_t)port);
        *family = AF_INET;
        return SB_OK;
    }
    if (inet_pton(AF_INET6, host, &v6->sin6_addr) == 1) {
        v6->sin6_family = AF_INET6;
        v6->sin6_port = htons((uint16_t)port);
        *family = AF_INET6;
        return SB_OK;
    }
    return sb_err_set(err, SB_EINVAL, "--listen '%s' is not an IPv4 or IPv6 address", listen);
}
