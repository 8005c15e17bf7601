/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * Copyright © 2026 The zex authors
 */

/*
 * DOC: zex_cgroup.h - memory cgroups and children for the tests of a hostile user
 *
 * A test that checks what a user's requests cost makes a memory cgroup of
 * its own under the cgroup2 root (mounting it where the VM has not),
 * moves a child into it, and reads and writes its files; the child's
 * result comes back as its exit status.
 */

#ifndef ZEX_CGROUP_H
#define ZEX_CGROUP_H

#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "zex_selftest.h"

#define CGROOT		"/sys/fs/cgroup"

/* Write @s to cgroup file @dir/@file; 0 or -errno. */
static inline int cg_write(const char *dir, const char *file, const char *s)
{
	char path[256];

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	return zex_sysfs_write(path, s);
}

static inline long long cg_read(const char *dir, const char *file)
{
	char path[256];

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	return zex_sysfs_u64(path);
}

/* The value of key @key in the flat-keyed cgroup file @dir/@file; -1: none. */
static inline long long cg_read_key(const char *dir, const char *file, const char *key)
{
	char path[256], name[64];
	long long value, found = -1;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	f = fopen(path, "r");
	if (!f)
		return -1;
	while (fscanf(f, "%63s %lld", name, &value) == 2)
		if (!strcmp(name, key))
			found = value;
	fclose(f);
	return found;
}

/* A new memory cgroup @dir (named after @tag and this process); 0 or -errno. */
static inline int cg_create(char *dir, size_t len, const char *tag)
{
	int ret;

	if (access(CGROOT "/cgroup.controllers", F_OK)) {
		mkdir(CGROOT, 0755);
		if (mount("cgroup2", CGROOT, "cgroup2", 0, NULL))
			return -errno;
	}
	ret = cg_write(CGROOT, "cgroup.subtree_control", "+memory");
	if (ret)
		return ret;
	snprintf(dir, len, CGROOT "/zex-%s-%d", tag, getpid());
	return mkdir(dir, 0755) ? -errno : 0;
}

/* Move the calling process into cgroup @dir; 0 or -errno. */
static inline int cg_join(const char *dir)
{
	char me[16];

	snprintf(me, sizeof(me), "%d", getpid());
	return cg_write(dir, "cgroup.procs", me);
}

/* A child's exit status (signed), or -100 when it did not exit (a signal). */
static inline int child_result(pid_t pid)
{
	int status;

	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return -100;
	return (signed char)WEXITSTATUS(status);
}

#endif /* ZEX_CGROUP_H */
