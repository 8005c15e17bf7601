/* SPDX-License-Identifier: MIT */
/*
 * Copyright © 2026 The zex authors
 */

/*
 * DOC: fdinfo_parse.h - one zex client's use, as its fdinfo says it
 *
 * The keys zex.ko prints in a render node file's fdinfo (the DRM
 * usage-stats format), read into numbers. Pure: no file is read here.
 */

#ifndef ZEX_CORE_FDINFO_PARSE_H
#define ZEX_CORE_FDINFO_PARSE_H

#include <stdint.h>

#include "zex/zex.h"

/* The kernel's engine classes (DRM_ZEX_ENGINE_CLASS_*): compute, copy. */
#define ZEX_USAGE_ENGINE_CLASSES	2

/**
 * struct zex_client_usage - one open file of the device, from its fdinfo
 * @client_id: drm-client-id.
 * @engine_ns: drm-engine-compute, drm-engine-copy: ns its jobs ran.
 * @tile_total: drm-total-tile<N>: bytes of its buffer objects' pieces
 *	in tile N's memory.
 * @tile_shared: drm-shared-tile<N>: those shared with another file.
 * @system_total: drm-total-system: host memory its imports name.
 * @system_shared: drm-shared-system.
 */
struct zex_client_usage {
	uint64_t client_id;
	uint64_t engine_ns[ZEX_USAGE_ENGINE_CLASSES];
	uint64_t tile_total[ZEX_MAX_TILES];
	uint64_t tile_shared[ZEX_MAX_TILES];
	uint64_t system_total;
	uint64_t system_shared;
};

int zex_fdinfo_parse(const char *text, struct zex_client_usage *usage);

#endif /* ZEX_CORE_FDINFO_PARSE_H */
