// SPDX-License-Identifier: MIT
/*
 * Copyright © 2026 The zex authors
 */

/*
 * DOC: ipc_received.c - the record of received fds
 *
 * A process-wide array of (fd, export id) under one mutex, independent of
 * zeInit(): receiving needs no driver. Lookups walk the array; a process
 * holds as many entries as received fds it has not released.
 */

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <unistd.h>

#include "ipc/ipc_received.h"

struct received {
	int fd;
	uint64_t export_id;
};

static pthread_mutex_t received_lock = PTHREAD_MUTEX_INITIALIZER;
static struct received *received;
static size_t received_count, received_capacity;

/** zex_ipc_received_add - record @n received fds; -ENOMEM records none */
int zex_ipc_received_add(const int *fds, const uint64_t *export_ids, uint32_t n)
{
	int ret = 0;
	uint32_t i;

	pthread_mutex_lock(&received_lock);
	if (received_count + n > received_capacity) {
		size_t cap = received_capacity ? received_capacity : 64;
		struct received *r;

		while (cap < received_count + n)
			cap *= 2;
		r = realloc(received, cap * sizeof(*r));
		if (!r) {
			ret = -ENOMEM;
			goto out;
		}
		received = r;
		received_capacity = cap;
	}
	for (i = 0; i < n; i++)
		received[received_count++] = (struct received){ fds[i], export_ids[i] };
out:
	pthread_mutex_unlock(&received_lock);
	return ret;
}

static size_t find(int fd, uint64_t export_id)
{
	size_t i;

	for (i = 0; i < received_count; i++)
		if (received[i].fd == fd && received[i].export_id == export_id)
			return i;
	return SIZE_MAX;
}

/**
 * zex_ipc_received_close - close and forget @n received fds
 *
 * All or nothing: when one pair is not recorded, nothing is closed.
 * Return: whether they were closed.
 */
bool zex_ipc_received_close(const int *fds, const uint64_t *export_ids, uint32_t n)
{
	bool all = true;
	uint32_t i;

	pthread_mutex_lock(&received_lock);
	for (i = 0; i < n && all; i++)
		all = find(fds[i], export_ids[i]) != SIZE_MAX;
	for (i = 0; i < n && all; i++) {
		size_t at = find(fds[i], export_ids[i]);

		if (at == SIZE_MAX)	/* named twice, closed already */
			continue;
		close(received[at].fd);
		received[at] = received[--received_count];
	}
	pthread_mutex_unlock(&received_lock);
	return all;
}
