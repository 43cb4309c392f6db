/*
 * lookup_store.c - lookup answers on disk (see lookup_store.h). Called with
 * the engine's lock held for reads: a stat and at most one small read, far
 * cheaper than a transfer.
 */
#include "lookup_store.h"
#include "../../core/uuid.h"

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

sb_code svc_store_open(char *root, size_t n, const char *configured, int *own, sb_err *err)
{
    *own = 0;
    if (configured && configured[0]) {
        snprintf(root, n, "%s", configured);
    } else {
        const char *tmp = getenv("TMPDIR");
        snprintf(root, n, "%s/sbomd-cache-XXXXXX", tmp && tmp[0] ? tmp : "/tmp");
        if (NULL == mkdtemp(root)) {
            return sb_err_set(err, SB_EIO, "cannot create a lookup cache directory: %s", strerror(errno));
        }
        *own = 1;
    }
    char sub[PATH_MAX + 16];
    snprintf(sub, sizeof sub, "%s/pypi", root);
    mkdir(sub, 0755);
    snprintf(sub, sizeof sub, "%s/conda-info", root);
    mkdir(sub, 0755);
    return 0;
}

static int rm_entry(const char *p, const struct stat *st, int flag, struct FTW *f)
{
    (void)st, (void)flag, (void)f;
    remove(p);
    return 0;
}

void svc_store_remove(const char *root)
{
    nftw(root, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
}

static void url_id(const char *url, char out[37])
{
    static const unsigned char url_ns[16] = {0x6b, 0xa7, 0xb8, 0x11, 0x9d, 0xad, 0x11, 0xd1,
                                             0x80, 0xb4, 0x00, 0xc0, 0x4f, 0xd4, 0x30, 0xc8};
    sb_sha1 c;
    sb_uuid_v5_begin(&c, url_ns);
    sb_sha1_update(&c, url, strlen(url));
    sb_uuid_v5_finish(&c, out);
}

void svc_store_path(const char *root, const char *url, int conda, char *out, size_t n)
{
    char id[37];
    url_id(url, id);
    snprintf(out, n, "%s/%s/%s", root, conda ? "conda-info" : "pypi", id);
}

/* written to a temporary name and renamed so readers never see half */
void svc_store_pypi_put(const char *root, const char *url, const char *license)
{
    char path[PATH_MAX], tmp[PATH_MAX + 16];
    svc_store_path(root, url, 0, path, sizeof path);
    snprintf(tmp, sizeof tmp, "%s.tmp-XXXXXX", path);
    int fd = mkstemp(tmp);
    if (fd < 0)
        return;
    const char *head = license ? "1\n" : "0\n";
    size_t ll = license ? strlen(license) : 0;
    int ok = write(fd, head, 2) == 2 && (0 == ll || write(fd, license, ll) == (ssize_t)ll);
    ok &= 0 == fchmod(fd, 0644);
    close(fd);
    if (!ok || rename(tmp, path) != 0)
        unlink(tmp);
}

int svc_store_pypi_get(const char *root, const char *url, double ttl, char **license)
{
    char path[PATH_MAX];
    svc_store_path(root, url, 0, path, sizeof path);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return 0;
    struct stat st;
    char buf[4096];
    ssize_t n = fstat(fd, &st) == 0 && (double)st.st_mtime + ttl > (double)time(NULL) ? read(fd, buf, sizeof buf - 1)
                                                                                      : -1;
    close(fd);
    if (n < 2 || buf[1] != '\n' || (buf[0] != '0' && buf[0] != '1'))
        return 0;
    buf[n] = '\0';
    *license = buf[0] == '1' ? strdup(buf + 2) : NULL;
    return buf[0] == '0' || *license != NULL;
}

int svc_store_conda_get(const char *root, const char *url, char **info_dir)
{
    char path[PATH_MAX], probe[PATH_MAX + 32];
    svc_store_path(root, url, 1, path, sizeof path);
    struct stat st;
    snprintf(probe, sizeof probe, "%s/info/index.json", path);
    if (stat(probe, &st) != 0)
        return 0;
    snprintf(probe, sizeof probe, "%s/info", path);
    *info_dir = strdup(probe);
    return *info_dir != NULL;
}
