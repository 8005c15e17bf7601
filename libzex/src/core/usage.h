/* SPDX-License-Identifier: MIT */
/*
 * Copyright © 2026 The zex authors
 */

/*
 * DOC: usage.h - what the kernel says of the device's use: engines' sysfs
 *	files, tiles' memory, each client's fdinfo
 *
 * The kernel counts each engine's busy time in sysfs under the GPU's
 * platform device (engines/<tile<N>|root>-<ccs|bcs><i>/busy_ns), each
 * tile's memory in the query ioctl, and each open file's engine time and
 * memory in its fdinfo (the DRM usage-stats format). Sysman reads them
 * here. zex_fdinfo_parse() is pure (host-tested); the rest reads files.
 */

#ifndef ZEX_CORE_USAGE_H
#define ZEX_CORE_USAGE_H

#include <stdint.h>
#include <sys/types.h>

#include "core/fdinfo_parse.h"
#include "zex/zex.h"

/* One client found by zex_usage_clients(); return non-zero to stop. */
typedef int (*zex_client_fn)(pid_t pid, const struct zex_client_usage *usage, void *ctx);

int zex_usage_clients(struct zex_device *dev, zex_client_fn fn, void *ctx);
int zex_usage_engine_read(struct zex_device *dev, const char *engine, const char *attr,
			  uint64_t *value);
int zex_usage_tile_memory(struct zex_device *dev, uint32_t tile, uint64_t *size,
			  uint64_t *used);

#endif /* ZEX_CORE_USAGE_H */
