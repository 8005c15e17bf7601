/* SPDX-License-Identifier: MIT */
/*
 * Copyright © 2026 The zex authors
 */

/*
 * DOC: zex/zex.h - libzex's core API
 *
 * The layer of libzex that sits directly on the zex kernel driver: find
 * and open the device through libdrm, read its topology (tiles, memory,
 * implicit scaling, engine model), make, share and map buffer objects.
 * The Level Zero entry points are built on this.
 *
 * Functions return 0 or a negative errno. Every function is thread-safe;
 * a &struct zex_device may be shared between threads.
 *
 * Structs that cross the API start with their size, which the caller sets
 * (sizeof as it was built): a later libzex that appends fields reads and
 * writes only the bytes the caller has, so old binaries keep working. The
 * arrays inside &struct zex_topology keep their element layout; what a
 * tile or an engine gains later comes as new fields after them.
 */

#ifndef ZEX_ZEX_H
#define ZEX_ZEX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* What libzex.so exports; everything else in it is hidden. */
#define ZEX_PUBLIC __attribute__((visibility("default")))

#define ZEX_MAX_TILES		8
#define ZEX_MAX_ENGINES		64
#define ZEX_DEVICE_ROOT		0xffff

/** One tile: its memory now and its engines. */
struct zex_tile_props {
	uint32_t id;
	uint16_t num_compute_engines;
	uint16_t num_copy_engines;
	uint64_t mem_size;
	uint64_t mem_used;
	uint64_t num_bos;
};

/** One engine as one device (a tile or %ZEX_DEVICE_ROOT) sees it. */
struct zex_engine {
	uint16_t engine_class;	/* DRM_ZEX_ENGINE_CLASS_* */
	uint16_t engine_instance;
	uint16_t device;	/* tile index or ZEX_DEVICE_ROOT */
	uint16_t tile_mask;	/* tiles it executes on */
};

/** The device's shape, as the kernel reports it. */
struct zex_topology {
	uint32_t size;		/* sizeof(struct zex_topology), set by the caller */
	uint32_t num_tiles;
	bool implicit_scaling;
	uint32_t multi_storage_policy;
	uint64_t multi_storage_granularity;	/* bytes */
	uint64_t total_mem_size;		/* bytes */
	struct zex_tile_props tiles[ZEX_MAX_TILES];
	uint32_t num_engines;
	struct zex_engine engines[ZEX_MAX_ENGINES];
};

struct zex_device;

ZEX_PUBLIC int zex_device_open(struct zex_device **out);
ZEX_PUBLIC void zex_device_close(struct zex_device *dev);
ZEX_PUBLIC int zex_device_fd(const struct zex_device *dev);
ZEX_PUBLIC const char *zex_device_node(const struct zex_device *dev);
ZEX_PUBLIC int zex_device_query_topology(struct zex_device *dev, struct zex_topology *topo);

/* Buffer objects (see uapi/drm/zex_drm.h); all return 0 or -errno. */
#define ZEX_PLACEMENT_ROOT	0xffff

/** Colouring override of a root-device allocation; policy -1: defaults. */
struct zex_colouring_override {
	uint32_t size;		/* sizeof(struct zex_colouring_override) */
	int policy;
	uint32_t granularity_kb;
};

ZEX_PUBLIC int zex_bo_create(struct zex_device *dev, uint64_t size, uint32_t placement,
		  const struct zex_colouring_override *colour, uint32_t *handle,
		  uint64_t *out_size);
ZEX_PUBLIC int zex_bo_close(struct zex_device *dev, uint32_t handle);
ZEX_PUBLIC int zex_bo_map(struct zex_device *dev, uint32_t handle, uint64_t size,
	       uint64_t alignment, void **ptr);
ZEX_PUBLIC int zex_bo_map_at(struct zex_device *dev, uint32_t handle, void *addr,
			     uint64_t offset, uint64_t size, int prot);
ZEX_PUBLIC int zex_bo_export(struct zex_device *dev, uint32_t handle, int *fds,
		  uint32_t *num_fds);
ZEX_PUBLIC int zex_bo_import(struct zex_device *dev, const int *fds, uint32_t num_fds,
		  bool interleaved, uint64_t granularity, uint32_t *handle,
		  uint64_t *size);
ZEX_PUBLIC int zex_userptr_import(struct zex_device *dev, const void *addr, uint64_t size,
				  bool read_only, uint32_t *id);
ZEX_PUBLIC int zex_userptr_import_mirror(struct zex_device *dev, const void *addr,
					 uint64_t size, bool read_only, uint32_t *id);
ZEX_PUBLIC int zex_userptr_release(struct zex_device *dev, uint32_t id);
ZEX_PUBLIC int zex_bo_layout(struct zex_device *dev, uint32_t handle, uint32_t *num_pieces,
		  bool *interleaved, uint64_t *granularity);

/**
 * struct zex_compute_info - what runs kernels here (zex_compute_info())
 * @name: the OpenCL device PoCL runs them on.
 * @version: PoCL's version string.
 * @threads: the threads of PoCL's pool.
 * @threads_per_tile: those each tile's parts run on (its own share).
 * @max_group_size: the most work-items in a work-group.
 * @why: when there is no engine, what is missing.
 */
struct zex_compute_info {
	char name[128];
	char version[128];
	uint32_t threads;
	uint32_t threads_per_tile;
	uint64_t max_group_size;
	char why[192];
};

ZEX_PUBLIC int zex_compute_info(uint32_t tiles, struct zex_compute_info *info);

#ifdef __cplusplus
}
#endif

#endif /* ZEX_ZEX_H */
