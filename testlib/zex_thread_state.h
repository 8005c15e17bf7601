/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * DOC: zex_thread_state.h - what a thread of this process is doing, from /proc
 *
 * A test that must wake a sleeper, or see that a call blocks, waits until
 * the thread sleeps in the system call it expects (never for a delay):
 * the kselftests and libzex's host tests alike.
 */
#ifndef ZEX_THREAD_STATE_H
#define ZEX_THREAD_STATE_H

#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

/* A /proc file into @buf, NUL-terminated; false when it cannot be read. */
static inline bool zex_proc_read(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY);
	ssize_t n;

	buf[0] = 0;
	if (fd < 0)
		return false;
	n = read(fd, buf, len - 1);
	close(fd);
	buf[n > 0 ? n : 0] = 0;
	return n > 0;
}

/*
 * Whether thread @tid of this process sleeps (state S) in system call @nr,
 * from /proc: a waker waits for that before it wakes the sleeper.
 */
static inline bool zex_sleeps_in_syscall(pid_t tid, long nr)
{
	char path[64], buf[256], want[24];
	const char *state;
	bool in_call;

	snprintf(path, sizeof(path), "/proc/self/task/%d/syscall", tid);
	snprintf(want, sizeof(want), "%ld ", nr);
	in_call = zex_proc_read(path, buf, sizeof(buf)) && !strncmp(buf, want, strlen(want));
	snprintf(path, sizeof(path), "/proc/self/task/%d/stat", tid);
	if (!zex_proc_read(path, buf, sizeof(buf)))
		return false;
	state = strrchr(buf, ')');
	return in_call && state && state[1] == ' ' && state[2] == 'S';
}

#endif /* ZEX_THREAD_STATE_H */
