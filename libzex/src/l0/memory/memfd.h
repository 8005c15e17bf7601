/* SPDX-License-Identifier: MIT */
/*
 * DOC: memfd.h - the memfds host, shared and host physical memory live in
 */
#ifndef ZEX_L0_MEMFD_H
#define ZEX_L0_MEMFD_H

#include <errno.h>
#include <stdbool.h>
#include <stddef.h>

#include "l0/base/l0.h"

int zex_memfd_create(const char *name, size_t size);
bool zex_fd_limit_raise(void);

/* What a failed zex_memfd_create() is to the application, and why. */
static inline ze_result_t zex_memfd_failed(void)
{
	return zex_l0_fail(ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY,
			   errno == EMFILE ?
			   "no memfd for host memory: the process holds as many file descriptors as its hard RLIMIT_NOFILE allows (each host, shared or host physical allocation holds one)" :
			   "no memfd for host memory: memfd_create() or ftruncate() failed");
}

#endif
