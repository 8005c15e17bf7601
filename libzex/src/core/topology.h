/* SPDX-License-Identifier: MIT */
/*
 * Copyright © 2026 The zex authors
 */

/*
 * DOC: topology.h - parse the kernel's query answers (libzex-internal)
 *
 * zex_device_query_topology() fetches the three answers; this turns them
 * into a &struct zex_topology. Pure code, unit-tested on the host.
 */

#ifndef ZEX_CORE_TOPOLOGY_H
#define ZEX_CORE_TOPOLOGY_H

#include <stddef.h>

#include "zex/zex.h"

int zex_topology_parse(struct zex_topology *topo,
		       const void *device, size_t device_size,
		       const void *tiles, size_t tiles_size,
		       const void *engines, size_t engines_size);

#endif /* ZEX_CORE_TOPOLOGY_H */
