// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Copyright © 2026 The zex authors
 */

/**
 * DOC: zex_fdinfo.c - a file's usage in its fdinfo, in the DRM usage-stats format
 *
 * What /proc/<pid>/fdinfo/<fd> of a zex render node shows below the
 * file's own lines (Documentation/gpu/drm-usage-stats.rst):
 *
 * - drm-driver: zex; drm-client-id: the file's id, unique among the
 *   files of every DRM device (the DRM core's), or on kernels without
 *   one (6.1) among zex's files.
 * - drm-engine-compute, drm-engine-copy: <ns> ns: the time the file's jobs
 *   ran on that class of engine (exec/zex_usage.c: from a job's start to
 *   its end, added when it ends; never decreasing, and kept when a queue
 *   is destroyed). drm-engine-capacity-<class>: the engines of the class
 *   (each tile's, and the root device's own with implicit scaling), the
 *   most that time can grow by per nanosecond.
 * - per tile "tile<N>" and for host memory "system": drm-total-,
 *   drm-shared-, drm-active- and drm-resident-<region>: the sizes of the
 *   buffer objects' pieces the file's handles hold in that tile's memory
 *   (bo/zex_bo_usage.c says what shared, active and resident mean), and
 *   of the host memory the file's userptr imports name (all of it
 *   private and never active; resident when pinned).
 *
 * Reading it takes the file's handle table lock and its address space's
 * lock for reading, nothing that a job or an ioctl waits for long.
 */

#include <linux/seq_file.h>
#include <linux/slab.h>

#include <drm/drm_drv.h>
#include <drm/drm_file.h>
#include <drm/drm_gem.h>
#include <drm/drm_print.h>

#include "../bo/zex_bo.h"
#include "../common/zex_compat.h"
#include "../device/zex_device.h"
#include "../exec/zex_exec.h"
#include "../vm/zex_vm.h"
#include "zex_usage.h"

/* The engine classes' names in drm-engine-<class>. */
static const char * const zex_engine_class_names[ZEX_ENGINE_CLASSES] = {
	[DRM_ZEX_ENGINE_CLASS_COMPUTE] = "compute",
	[DRM_ZEX_ENGINE_CLASS_COPY] = "copy",
};

/**
 * zex_usage_client_id - a new file's drm-client-id
 * @file: the file being opened.
 *
 * Return: the DRM core's id of @file where the kernel has one, else the
 * next of zex's own.
 */
u64 zex_usage_client_id(struct drm_file *file)
{
	static atomic64_t zex_client_ids = ATOMIC64_INIT(0);

	return zex_drm_file_client_id(file) ?: atomic64_inc_return(&zex_client_ids);
}

static void zex_fdinfo_engines(struct drm_printer *p, struct zex_device *zdev,
			       struct zex_file *zfile)
{
	u16 class;

	for (class = 0; class < ZEX_ENGINE_CLASSES; class++) {
		u32 engines = zex_exec_engines(zdev->exec, class);

		if (!engines)
			continue;
		drm_printf(p, "drm-engine-%s:\t%llu ns\n", zex_engine_class_names[class],
			   zex_exec_file_busy_ns(zfile->exec, class));
		if (engines > 1)
			drm_printf(p, "drm-engine-capacity-%s:\t%u\n",
				   zex_engine_class_names[class], engines);
	}
}

static void zex_fdinfo_memory(struct drm_printer *p, struct zex_device *zdev,
			      struct drm_file *file)
{
	struct drm_memory_stats tiles[DRM_ZEX_MAX_TILES] = {};
	struct drm_memory_stats host = {};
	struct drm_gem_object *obj;
	char region[16];
	int id;
	u32 i;

	spin_lock(&file->table_lock);
	idr_for_each_entry(&file->object_idr, obj, id)
		if (zex_bo_is(obj))
			zex_bo_usage_add(to_zex_bo(obj), tiles, zdev->topo.num_tiles);
	spin_unlock(&file->table_lock);
	for (i = 0; i < zdev->topo.num_tiles; i++) {
		snprintf(region, sizeof(region), "tile%u", i);
		zex_print_memory_stats(p, &tiles[i], region);
	}
	zex_vm_host_usage(to_zex_file(file)->vm, &host.private, &host.resident);
	zex_print_memory_stats(p, &host, "system");
}

/**
 * zex_usage_show_fdinfo - &drm_driver.show_fdinfo: zex's keys of a file
 * @p: where they go.
 * @file: the file.
 */
void zex_usage_show_fdinfo(struct drm_printer *p, struct drm_file *file)
{
	struct zex_device *zdev = to_zex_device(file->minor->dev);

	zex_fdinfo_engines(p, zdev, to_zex_file(file));
	zex_fdinfo_memory(p, zdev, file);
}

/**
 * zex_usage_show_fdinfo_fop - &file_operations.show_fdinfo where the DRM
 *	core has none (6.1): its keys, then zex's
 * @m: the fdinfo file.
 * @f: the render node's file.
 */
void zex_usage_show_fdinfo_fop(struct seq_file *m, struct file *f)
{
	struct drm_file *file = f->private_data;
	struct drm_device *drm = file->minor->dev;
	struct drm_printer p = drm_seq_file_printer(m);
	int idx;

	if (!drm_dev_enter(drm, &idx))
		return;
	drm_printf(&p, "drm-driver:\t%s\n", drm->driver->name);
	drm_printf(&p, "drm-client-id:\t%llu\n", to_zex_file(file)->client_id);
	zex_usage_show_fdinfo(&p, file);
	drm_dev_exit(idx);
}
