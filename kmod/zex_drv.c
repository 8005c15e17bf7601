// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Copyright © 2026 The zex authors
 */

/**
 * DOC: zex_drv.c - module entry, the GPU's platform device and DRM device
 *
 * The top of zex.ko: the module's parameters, the platform and DRM
 * drivers, the file operations and the one table of ioctls. Every ioctl's
 * handler lives in the room of the object it acts on and is declared in
 * that room's header; this file only lists them.
 *
 * Loading zex validates the module parameters (refusing to load, with the
 * parameter and its rule in the log, when one is invalid), registers the
 * tile driver and the GPU's platform driver, then creates the platform
 * device "zex" that stands for the emulated GPU. The GPU is a platform
 * device so that libdrm's drmGetDevices2() lists its render node (libdrm
 * skips DRM devices whose parent is on the auxiliary bus).
 *
 * Probe builds the topology, publishes one auxiliary device per tile, waits
 * for each to be bound (binding is synchronous), then registers the DRM
 * device. Remove, or losing any tile, unplugs the DRM device: open files
 * stay valid, their ioctls fail with -ENODEV, their jobs end with -ENODEV,
 * their mappings keep working until unmapped, and the memory is freed
 * with the last reference.
 */

#include <linux/compat.h>
#include <linux/debugfs.h>
#include <linux/dma-mapping.h>
#include <linux/module.h>
#include <linux/platform_device.h>
#include <linux/slab.h>

#include <drm/drm_drv.h>
#include <drm/drm_file.h>
#include <drm/drm_gem.h>
#include <drm/drm_gem_shmem_helper.h>
#include <drm/drm_ioctl.h>
#include <drm/drm_managed.h>
#include <drm/drm_prime.h>

#include "bo/zex_bo.h"
#include "common/zex_compat.h"
#include "common/zex_gfp.h"
#include "device/zex_device.h"
#include "device/zex_params.h"
#include "common/zex_fault_inject.h"
#include "exec/zex_exec.h"
#include "hostrpc/zex_hostrpc.h"
#include "ipc/zex_ipc.h"
#include "tiles/zex_piece.h"
#include "usage/zex_usage.h"
#include "vm/zex_vm.h"

#define ZEX_DRIVER_NAME		"zex"
#define ZEX_DRIVER_DESC		"Emulated multi-tile GPU"
#define ZEX_DRIVER_DATE		"20261121"
#define ZEX_DRIVER_MAJOR	0
#define ZEX_DRIVER_MINOR	1

/* /sys/kernel/debug/zex: created at load, removed at unload. */
static struct dentry *zex_debugfs_root;

static struct zex_params zex_module_params = {
	.tiles = 2,
	.tile_mem_mb = 256,
	.enable_implicit_scaling = 1,
	.multi_storage_policy = DRM_ZEX_MULTI_STORAGE_EVEN,
	.multi_storage_granularity_kb = 64,
	.hostrpc_max_slots = DRM_ZEX_HOSTRPC_MAX_SLOTS,
	.hostrpc_max_channels = 32,
	.vm_max_mappings = 16384,
	.exec_max_queues = 1024,
	.exec_max_jobs = 128,
	.exec_max_lr_queues = 64,
	.job_timeout_ms = 2000,
};

module_param_named(tiles, zex_module_params.tiles, uint, 0444);
MODULE_PARM_DESC(tiles, "Number of tiles, 1 to 8 (default 2)");
module_param_named(tile_mem_mb, zex_module_params.tile_mem_mb, uint, 0444);
MODULE_PARM_DESC(tile_mem_mb, "Memory per tile in MiB, 1 to 65536 (default 256)");
module_param_named(enable_implicit_scaling,
		   zex_module_params.enable_implicit_scaling, uint, 0444);
MODULE_PARM_DESC(enable_implicit_scaling,
		 "Colour root-device allocations across tiles: 0 or 1 (default 1)");
module_param_named(multi_storage_policy,
		   zex_module_params.multi_storage_policy, uint, 0444);
MODULE_PARM_DESC(multi_storage_policy,
		 "Colouring policy: 0 even split, 1 chunk, 2 interleave (default 0)");
module_param_named(multi_storage_granularity_kb,
		   zex_module_params.multi_storage_granularity_kb, uint, 0444);
MODULE_PARM_DESC(multi_storage_granularity_kb,
		 "Colouring granularity in KiB, a power of two >= 64 (default 64)");
module_param_named(hostrpc_max_slots, zex_module_params.hostrpc_max_slots,
		   uint, 0444);
MODULE_PARM_DESC(hostrpc_max_slots,
		 "Most slots of one hostrpc channel, 1 to 2048 (default 2048)");
module_param_named(hostrpc_max_channels, zex_module_params.hostrpc_max_channels,
		   uint, 0444);
MODULE_PARM_DESC(hostrpc_max_channels,
		 "Most live hostrpc channels of one user, 1 to 65536 (default 32)");
module_param_named(vm_max_mappings, zex_module_params.vm_max_mappings, uint, 0444);
MODULE_PARM_DESC(vm_max_mappings,
		 "Most userptr imports and binds in one file's address space, 1 to 1048576 (default 16384)");
module_param_named(exec_max_queues, zex_module_params.exec_max_queues, uint, 0444);
MODULE_PARM_DESC(exec_max_queues, "Most exec queues of one open file, 1 to 4096 (default 1024)");
module_param_named(exec_max_jobs, zex_module_params.exec_max_jobs, uint, 0444);
MODULE_PARM_DESC(exec_max_jobs,
		 "Most unfinished jobs of one exec queue, 1 to 65536 (default 128)");
module_param_named(exec_max_lr_queues, zex_module_params.exec_max_lr_queues, uint, 0444);
MODULE_PARM_DESC(exec_max_lr_queues,
		 "Most long-running exec queues of one open file, 1 to 4096 (default 64)");
module_param_named(job_timeout_ms, zex_module_params.job_timeout_ms, uint, 0444);
MODULE_PARM_DESC(job_timeout_ms,
		 "Milliseconds a job may run before it is stopped, 10 to 600000 (default 2000)");

static const struct drm_ioctl_desc zex_ioctls[] = {
	DRM_IOCTL_DEF_DRV(ZEX_QUERY, zex_query_ioctl, DRM_RENDER_ALLOW),
	DRM_IOCTL_DEF_DRV(ZEX_BO_CREATE, zex_bo_create_ioctl, DRM_RENDER_ALLOW),
	DRM_IOCTL_DEF_DRV(ZEX_BO_MMAP_OFFSET, zex_bo_mmap_offset_ioctl,
			  DRM_RENDER_ALLOW),
	DRM_IOCTL_DEF_DRV(ZEX_BO_INFO, zex_bo_info_ioctl, DRM_RENDER_ALLOW),
	DRM_IOCTL_DEF_DRV(ZEX_BO_EXPORT, zex_bo_export_ioctl, DRM_RENDER_ALLOW),
	DRM_IOCTL_DEF_DRV(ZEX_BO_IMPORT, zex_bo_import_ioctl, DRM_RENDER_ALLOW),
	DRM_IOCTL_DEF_DRV(ZEX_USERPTR_IMPORT, zex_userptr_import_ioctl, DRM_RENDER_ALLOW),
	DRM_IOCTL_DEF_DRV(ZEX_VM_UNBIND, zex_vm_unbind_ioctl, DRM_RENDER_ALLOW),
	DRM_IOCTL_DEF_DRV(ZEX_COPY, zex_copy_ioctl, DRM_RENDER_ALLOW),
	DRM_IOCTL_DEF_DRV(ZEX_VM_BIND, zex_vm_bind_ioctl, DRM_RENDER_ALLOW),
	DRM_IOCTL_DEF_DRV(ZEX_EXEC_QUEUE_CREATE, zex_exec_queue_create_ioctl, DRM_RENDER_ALLOW),
	DRM_IOCTL_DEF_DRV(ZEX_EXEC_QUEUE_DESTROY, zex_exec_queue_destroy_ioctl, DRM_RENDER_ALLOW),
	DRM_IOCTL_DEF_DRV(ZEX_EXEC_QUEUE_GET_STATE, zex_exec_queue_get_state_ioctl,
			  DRM_RENDER_ALLOW),
	DRM_IOCTL_DEF_DRV(ZEX_EXEC, zex_exec_ioctl, DRM_RENDER_ALLOW),
	DRM_IOCTL_DEF_DRV(ZEX_WAIT_USER_FENCE, zex_wait_user_fence_ioctl, DRM_RENDER_ALLOW),
	DRM_IOCTL_DEF_DRV(ZEX_LAUNCH_REPORT, zex_launch_report_ioctl, DRM_RENDER_ALLOW),
	/* DRM_IOCTL_ZEX_HOSTRPC_CREATE: zex_ioctl() routes it, see there. */
};

/*
 * zex's ioctl entry: the DRM ioctl table, except for the one ioctl that
 * returns a new file, which copies its own arguments so as to install the
 * descriptor after the copy-out (zex_hostrpc_create_ioctl(), in hostrpc/).
 */
static struct zex_hostrpc_device *zex_file_hostrpc(struct file *filp)
{
	struct drm_file *file = filp->private_data;

	return &to_zex_device(file->minor->dev)->hostrpc;
}

static long zex_ioctl(struct file *filp, unsigned int cmd, unsigned long arg)
{
	if (cmd == DRM_IOCTL_ZEX_HOSTRPC_CREATE)
		return zex_hostrpc_create_ioctl(zex_file_hostrpc(filp), filp->private_data,
						(void __user *)arg);
	return drm_ioctl(filp, cmd, arg);
}

#ifdef CONFIG_COMPAT
static long zex_compat_ioctl(struct file *filp, unsigned int cmd, unsigned long arg)
{
	if (cmd == DRM_IOCTL_ZEX_HOSTRPC_CREATE)
		return zex_hostrpc_create_ioctl(zex_file_hostrpc(filp), filp->private_data,
						compat_ptr(arg));
	return drm_compat_ioctl(filp, cmd, arg);
}
#else
#define zex_compat_ioctl NULL
#endif

/*
 * Each close of a descriptor, and each at a process's exit: a process that
 * no longer holds the file stops serving its long-running queues.
 */
static int zex_flush(struct file *filp, fl_owner_t owner)
{
	struct drm_file *file = filp->private_data;

	zex_exec_file_flush(to_zex_file(file)->exec, filp, owner);
	return 0;
}

/* DEFINE_DRM_GEM_FOPS with zex's ioctl entry, flush and fdinfo (usage/). */
static const struct file_operations zex_fops = {
	.owner = THIS_MODULE,
	.open = drm_open,
	.release = drm_release,
	.flush = zex_flush,
	.unlocked_ioctl = zex_ioctl,
	.compat_ioctl = zex_compat_ioctl,
	.poll = drm_poll,
	.read = drm_read,
	.llseek = noop_llseek,
	.mmap = drm_gem_mmap,
	ZEX_FOP_SHOW_FDINFO
	ZEX_FOP_UNSIGNED_OFFSET
};

static int zex_open(struct drm_device *drm, struct drm_file *file)
{
	struct zex_file *zfile = kzalloc(sizeof(*zfile), ZEX_GFP_USER);

	if (!zfile)
		return -ENOMEM;
	/*
	 * Its debugfs file is not under the DRM minor's directory: an unplug
	 * removes that while files are still open. zex's own directory lives
	 * as long as the module, which every open file pins.
	 */
	zfile->vm = zex_vm_create(drm, to_zex_device(drm)->vm_max_mappings,
				  zex_debugfs_root, zex_drm_file_pid_nr(file));
	if (IS_ERR(zfile->vm)) {
		int ret = PTR_ERR(zfile->vm);

		kfree(zfile);
		return ret;
	}
	zfile->exec = zex_exec_file_open();
	if (IS_ERR(zfile->exec)) {
		int ret = PTR_ERR(zfile->exec);

		zex_vm_destroy(zfile->vm);
		kfree(zfile);
		return ret;
	}
	zfile->client_id = zex_usage_client_id(file);
	file->driver_priv = zfile;
	return 0;
}

static void zex_postclose(struct drm_device *drm, struct drm_file *file)
{
	struct zex_file *zfile = to_zex_file(file);

	zex_exec_file_close(zfile->exec);
	zex_vm_destroy(zfile->vm);
	kfree(zfile);
}

static const struct drm_driver zex_drm_driver = {
	.driver_features = DRIVER_GEM | DRIVER_RENDER | DRIVER_SYNCOBJ | DRIVER_SYNCOBJ_TIMELINE,
	.open = zex_open,
	.postclose = zex_postclose,
	.gem_create_object = zex_piece_create_object,
	/* Standard PRIME for one-piece objects (ipc/zex_prime.c). */
	.prime_handle_to_fd = zex_prime_handle_to_fd,
	.prime_fd_to_handle = zex_prime_fd_to_handle,
	ZEX_DRIVER_SHOW_FDINFO
	.ioctls = zex_ioctls,
	.num_ioctls = ARRAY_SIZE(zex_ioctls),
	.fops = &zex_fops,
	.name = ZEX_DRIVER_NAME,
	.desc = ZEX_DRIVER_DESC,
	.date = ZEX_DRIVER_DATE,
	.major = ZEX_DRIVER_MAJOR,
	.minor = ZEX_DRIVER_MINOR,
};

/**
 * zex_device_unplug - unregister the DRM device, once
 * @zdev: the device.
 *
 * Called by the platform driver's remove and by a tile's remove; whichever
 * comes first unplugs, the other finds nothing to do.
 */
static void zex_device_unplug(struct zex_device *zdev)
{
	struct drm_file *file;

	mutex_lock(&zdev->unplug_lock);
	if (zdev->registered) {
		zdev->registered = false;
		drm_dev_unplug(&zdev->drm);
		zex_hostrpc_device_unplug(&zdev->hostrpc);
		/* Jobs end with -ENODEV, and whoever waits for them wakes. */
		zex_exec_device_unplug(zdev->exec);
		mutex_lock(&zdev->drm.filelist_mutex);
		list_for_each_entry(file, &zdev->drm.filelist, lhead)
			zex_exec_file_unplug(to_zex_file(file)->exec);
		mutex_unlock(&zdev->drm.filelist_mutex);
		drm_info(&zdev->drm, "unplugged\n");
	}
	mutex_unlock(&zdev->unplug_lock);
}

/* A tile's driver was unbound: the GPU cannot run without it. */
static void zex_tile_lost(struct zex_tile *tile)
{
	struct zex_device *zdev = container_of(tile - tile->id, struct zex_device, tiles[0]);

	zex_device_unplug(zdev);
}

static void zex_hostrpc_device_fini_action(struct drm_device *drm, void *data)
{
	zex_hostrpc_device_fini(data);
}

static void zex_unpublish_tile_action(void *data)
{
	zex_tile_unpublish(data);
}

static int zex_publish_tiles(struct zex_device *zdev, struct device *parent)
{
	u32 i;
	int ret;

	for (i = 0; i < zdev->topo.num_tiles; i++) {
		struct zex_tile *tile = &zdev->tiles[i];
		struct zex_tile_adev *tadev;

		tadev = zex_tile_publish(parent, tile);
		if (IS_ERR(tadev))
			return dev_err_probe(parent, PTR_ERR(tadev),
					     "cannot publish tile %u\n", i);
		ret = devm_add_action_or_reset(parent, zex_unpublish_tile_action,
					       tadev);
		if (ret)
			return ret;
		if (!READ_ONCE(tile->online))
			return dev_err_probe(parent, -ENODEV,
					     "tile %u was not bound by the tile driver\n",
					     i);
	}
	return 0;
}

static int zex_probe(struct platform_device *pdev)
{
	struct device *dev = &pdev->dev;
	struct zex_device *zdev;
	u32 i;
	int ret;

	ret = dma_coerce_mask_and_coherent(dev, DMA_BIT_MASK(64));
	if (ret)
		return ret;

	zdev = devm_drm_dev_alloc(dev, &zex_drm_driver, struct zex_device, drm);
	if (IS_ERR(zdev))
		return PTR_ERR(zdev);

	ret = drmm_mutex_init(&zdev->drm, &zdev->unplug_lock);
	if (ret)
		return ret;

	zex_topology_init(&zdev->topo, &zex_module_params);
	zex_hostrpc_device_init(&zdev->hostrpc, zex_module_params.hostrpc_max_slots,
				zex_module_params.hostrpc_max_channels);
	ret = drmm_add_action_or_reset(&zdev->drm, zex_hostrpc_device_fini_action,
				       &zdev->hostrpc);
	if (ret)
		return ret;
	zdev->vm_max_mappings = zex_module_params.vm_max_mappings;
	zdev->exec_limits.max_queues = zex_module_params.exec_max_queues;
	zdev->exec_limits.max_jobs = zex_module_params.exec_max_jobs;
	zdev->exec_limits.max_lr_queues = zex_module_params.exec_max_lr_queues;
	zdev->exec_limits.job_timeout_ms = zex_module_params.job_timeout_ms;
	zdev->exec = zex_exec_device_create(&zdev->drm, &zdev->topo,
					    zdev->exec_limits.job_timeout_ms);
	if (IS_ERR(zdev->exec))
		return PTR_ERR(zdev->exec);
	for (i = 0; i < zdev->topo.num_tiles; i++) {
		zdev->tiles[i].id = i;
		zdev->tiles[i].lost = zex_tile_lost;
		zex_tile_mem_init(&zdev->tiles[i].mem, zdev->topo.tile_mem_size);
	}

	ret = zex_publish_tiles(zdev, dev);
	if (ret)
		return ret;
	ret = zex_usage_sysfs_add(zdev);
	if (ret)
		return ret;

	ret = drm_dev_register(&zdev->drm, 0);
	if (ret)
		return ret;
	zdev->registered = true;
	platform_set_drvdata(pdev, zdev);

	drm_info(&zdev->drm, "%u tiles of %u MiB, implicit scaling %s, policy %u, granularity %llu KiB\n",
		 zdev->topo.num_tiles, zex_module_params.tile_mem_mb,
		 zdev->topo.implicit_scaling ? "on" : "off",
		 zdev->topo.multi_storage_policy,
		 zdev->topo.multi_storage_granularity / 1024);
	return 0;
}

static void zex_remove(struct platform_device *pdev)
{
	zex_device_unplug(platform_get_drvdata(pdev));
}

static struct platform_driver zex_platform_driver = {
	.probe = zex_probe,
	.zex_platform_remove = zex_remove,
	.driver = {
		.name = ZEX_DRIVER_NAME,
	},
};

static struct platform_device *zex_pdev;

static int __init zex_init(void)
{
	struct zex_param_error err;
	int ret;

	ret = zex_params_validate(&zex_module_params, &err);
	if (ret) {
		pr_err("zex: invalid module parameter %s: %s\n", err.param, err.rule);
		return ret;
	}

	ret = zex_exec_module_init();
	if (ret)
		return ret;
	zex_debugfs_root = debugfs_create_dir(ZEX_DRIVER_NAME, NULL);
	debugfs_create_atomic_t("hostrpc_channels", 0444, zex_debugfs_root,
				&zex_hostrpc_channels_live);
	zex_fault_inject_debugfs(zex_debugfs_root);
	ret = auxiliary_driver_register(&zex_tile_driver);
	if (ret)
		goto err_debugfs;

	ret = platform_driver_register(&zex_platform_driver);
	if (ret)
		goto err_tile_driver;

	zex_pdev = platform_device_register_simple(ZEX_DRIVER_NAME,
						   PLATFORM_DEVID_NONE, NULL, 0);
	if (IS_ERR(zex_pdev)) {
		ret = PTR_ERR(zex_pdev);
		goto err_platform_driver;
	}

	/* Probe ran synchronously; drvdata is set only when it succeeded. */
	if (!platform_get_drvdata(zex_pdev)) {
		pr_err("zex: the emulated GPU failed to probe\n");
		ret = -ENODEV;
		goto err_platform_device;
	}
	return 0;

err_platform_device:
	platform_device_unregister(zex_pdev);
err_platform_driver:
	platform_driver_unregister(&zex_platform_driver);
err_tile_driver:
	auxiliary_driver_unregister(&zex_tile_driver);
err_debugfs:
	debugfs_remove_recursive(zex_debugfs_root);
	zex_exec_module_exit();
	return ret;
}

static void __exit zex_exit(void)
{
	platform_device_unregister(zex_pdev);
	platform_driver_unregister(&zex_platform_driver);
	auxiliary_driver_unregister(&zex_tile_driver);
	debugfs_remove_recursive(zex_debugfs_root);
	zex_exec_module_exit();
}

module_init(zex_init);
module_exit(zex_exit);

MODULE_DESCRIPTION("zex: emulated multi-tile GPU");
MODULE_AUTHOR("The zex authors");
MODULE_LICENSE("Dual MIT/GPL");
MODULE_IMPORT_NS(DMA_BUF);
