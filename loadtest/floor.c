/*
 * floor.c - the HTTP floor for the load tests: a libmicrohttpd server with
 * sbomd's threading that reads and drops a POST body and answers with a
 * canned file, chunked like sbomd's documents. What sbomd does beyond this is
 * its own cost.
 *
 *   floor PORT RESPONSE_FILE [THREADS]
 */
#include <microhttpd.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char *canned;
static size_t canned_len;

typedef struct cursor {
    size_t off;
} cursor;

static ssize_t reader(void *cls, uint64_t pos, char *buf, size_t max)
{
    (void)cls;
    if (pos >= canned_len)
        return MHD_CONTENT_READER_END_OF_STREAM;
    size_t n = canned_len - (size_t)pos < max ? canned_len - (size_t)pos : max;
    memcpy(buf, canned + pos, n);
    return (ssize_t)n;
}

static enum MHD_Result on_request(void *cls, struct MHD_Connection *c, const char *url, const char *method,
                                  const char *version, const char *data, size_t *size, void **req)
{
    (void)cls, (void)url, (void)method, (void)version, (void)data;
    if (NULL == *req) {
        *req = (void *)1;
        return MHD_YES;
    }
    if (*size) {
        *size = 0; /* dropped */
        return MHD_YES;
    }
    struct MHD_Response *r = MHD_create_response_from_callback(MHD_SIZE_UNKNOWN, 64 * 1024, reader, NULL, NULL);
    MHD_add_response_header(r, "Content-Type", "application/vnd.cyclonedx+json; version=1.6");
    enum MHD_Result ok = MHD_queue_response(c, 200, r);
    MHD_destroy_response(r);
    return ok;
}

int main(int argc, char **argv)
{
    if (argc < 3)
        return 2;
    FILE *f = fopen(argv[2], "rb");
    if (!f)
        return 1;
    fseek(f, 0, SEEK_END);
    canned_len = (size_t)ftell(f);
    rewind(f);
    canned = malloc(canned_len + 1);
    if (!canned || fread(canned, 1, canned_len, f) != canned_len)
        return 1;
    fclose(f);
    unsigned threads = argc > 3 ? (unsigned)atoi(argv[3]) : (unsigned)sysconf(_SC_NPROCESSORS_ONLN);
    struct MHD_Daemon *d = MHD_start_daemon(MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_EPOLL | MHD_USE_ITC,
                                            (uint16_t)atoi(argv[1]), NULL, NULL, on_request, NULL,
                                            MHD_OPTION_THREAD_POOL_SIZE, threads, MHD_OPTION_CONNECTION_TIMEOUT,
                                            30u, MHD_OPTION_END);
    if (!d)
        return 1;
    sigset_t s;
    sigemptyset(&s);
    sigaddset(&s, SIGTERM);
    sigaddset(&s, SIGINT);
    sigprocmask(SIG_BLOCK, &s, NULL);
    int sig;
    sigwait(&s, &sig);
    MHD_stop_daemon(d);
    free(canned);
    return 0;
}
