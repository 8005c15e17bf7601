// SPDX-License-Identifier: MIT
/*
 * Copyright © 2026 The zex authors
 */

/*
 * DOC: zex-info.c - print what the zex device is
 *
 * The device node, its tiles with memory size and use, the implicit-scaling
 * settings, the engine model of the root device and of each tile, straight
 * from the kernel, and what runs kernels (the compute engine: PoCL's device
 * and pool, or what is missing); with --top, the engines' utilisation, the
 * tiles' memory and the processes, live, through Sysman (zex-info-top.c);
 * with --loader, what a Level Zero application sees
 * through the stock loader instead (zex-info-loader.c). Exit 0 on success,
 * 2 when there is no zex device, 1 on any other error.
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

#include <drm/zex_drm.h>

#include "zex/zex.h"
#include "zex-info.h"

static const char *const policy_names[] = { "even split", "chunk", "interleave" };

/* What runs kernels: PoCL's device and pools, or why nothing does. */
static void print_compute(uint32_t tiles)
{
	struct zex_compute_info c;

	if (zex_compute_info(tiles, &c)) {
		printf("  kernels:                 not run here: %s\n", c.why);
		return;
	}
	printf("  kernels:                 %s, %s\n", c.version, c.name);
	printf("  compute threads:         %u per tile (PoCL's pool: %u); one more per tile and\n"
	       "                           queue waits for its launches\n", c.threads_per_tile,
	       c.threads);
	printf("  max group size:          %llu work-items\n",
	       (unsigned long long)c.max_group_size);
}

static void print_engines(const struct zex_topology *t, unsigned int device)
{
	unsigned int i, compute = 0, copy = 0, mask = 0;

	for (i = 0; i < t->num_engines; i++) {
		const struct zex_engine *e = &t->engines[i];

		if (e->device != device)
			continue;
		if (e->engine_class == DRM_ZEX_ENGINE_CLASS_COMPUTE) {
			compute++;
			mask |= e->tile_mask;
		} else {
			copy++;
		}
	}
	printf("%u compute (on tiles mask 0x%x), %u copy\n", compute, mask, copy);
}

int main(int argc, char **argv)
{
	struct zex_device *dev;
	struct zex_topology t = { .size = sizeof(t) };
	struct utsname u;
	unsigned int i;
	int ret;

	if (argc > 1 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))) {
		printf("usage: %s [--loader | --top [SECONDS [COUNT]]]\n"
		       "Prints the zex device, its tiles and engine model;\n"
		       "with --loader, the drivers and devices the Level Zero loader reports;\n"
		       "with --top, every SECONDS (default 1) COUNT times (default: until\n"
		       "interrupted) each engine's utilisation, each tile's memory in use and\n"
		       "the processes using the device, through Level Zero Sysman.\n",
		       argv[0]);
		return 0;
	}
	if (argc > 1 && !strcmp(argv[1], "--loader"))
		return zex_info_loader();
	if (argc > 1 && !strcmp(argv[1], "--top")) {
		double interval = argc > 2 ? strtod(argv[2], NULL) : 1.0;

		if (!(interval > 0 && interval < 3600)) {
			fprintf(stderr, "zex-info: --top SECONDS: more than 0, less than 3600\n");
			return 1;
		}
		return zex_info_top(interval, argc > 3 ? strtol(argv[3], NULL, 10) : 0);
	}

	ret = zex_device_open(&dev);
	if (ret) {
		fprintf(stderr, "zex-info: no zex device: %s\n", strerror(-ret));
		return 2;
	}
	ret = zex_device_query_topology(dev, &t);
	if (ret) {
		fprintf(stderr, "zex-info: query failed: %s\n", strerror(-ret));
		zex_device_close(dev);
		return 1;
	}

	printf("zex device %s\n", zex_device_node(dev));
	if (!uname(&u))
		printf("  kernel:                  Linux %s\n", u.release);
	printf("  tiles:                   %u\n", t.num_tiles);
	printf("  total memory:            %llu MiB\n",
	       (unsigned long long)(t.total_mem_size >> 20));
	printf("  implicit scaling:        %s\n", t.implicit_scaling ? "on" : "off");
	printf("  multi-storage policy:    %u (%s)\n", t.multi_storage_policy,
	       policy_names[t.multi_storage_policy]);
	printf("  multi-storage granule:   %llu KiB\n",
	       (unsigned long long)(t.multi_storage_granularity >> 10));
	printf("  root device engines:     ");
	print_engines(&t, ZEX_DEVICE_ROOT);
	for (i = 0; i < t.num_tiles; i++) {
		const struct zex_tile_props *tp = &t.tiles[i];

		printf("  tile %u: memory %llu MiB, used %llu bytes in %llu BOs; engines: ",
		       tp->id, (unsigned long long)(tp->mem_size >> 20),
		       (unsigned long long)tp->mem_used,
		       (unsigned long long)tp->num_bos);
		print_engines(&t, i);
	}
	zex_device_close(dev);
	print_compute(t.num_tiles);
	return 0;
}
