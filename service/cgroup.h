/*
 * cgroup.h - the memory limit and CPU quota the process runs under, from
 * the cgroup filesystem (v2, else v1), so defaults follow the container's
 * limits instead of the node's. Both take the cgroup mount (normally
 * /sys/fs/cgroup) and the process's cgroup list (normally /proc/self/cgroup)
 * as parameters, so tests can point them at files of their own.
 */
#ifndef SVC_CGROUP_H
#define SVC_CGROUP_H

#define SVC_CGROUP_ROOT "/sys/fs/cgroup"
#define SVC_CGROUP_SELF "/proc/self/cgroup"

/* The smallest memory limit in bytes set on the process's cgroup or any
 * ancestor (v2 memory.max, else v1 memory.limit_in_bytes); 0 when none. */
unsigned long long svc_cgroup_memory_limit(const char *root, const char *self);

/* The CPUs the smallest CPU quota on the path allows, rounded up (v2
 * cpu.max, else v1 cpu.cfs_quota_us / cpu.cfs_period_us); 0 when none. */
long svc_cgroup_cpus(const char *root, const char *self);

#endif
