// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Copyright © 2026 The zex authors
 */

/**
 * DOC: zex_tile.c - the tile driver and the publishing of tiles
 *
 * zex_tile_publish() creates a tile's auxiliary device under the GPU's
 * parent device; the auxiliary bus binds it to &zex_tile_driver at once.
 * Binding brings the tile online and adds its sysfs attributes (id,
 * mem_size, mem_used, num_bos) to /sys/bus/auxiliary/devices/zex.tile.<n>.
 * Unbinding a tile, by the parent going away or by a write to the driver's
 * unbind file, takes it offline and tells the parent (zex unplugs the whole
 * GPU, as a real multi-tile device cannot run with a tile missing).
 */

#include <linux/device.h>
#include <linux/slab.h>
#include <linux/sysfs.h>

#include "zex_tile.h"

static struct zex_tile_adev *to_zex_tile_adev(struct auxiliary_device *adev)
{
	return container_of(adev, struct zex_tile_adev, adev);
}

static struct zex_tile *zex_tile_of_dev(struct device *dev)
{
	return to_zex_tile_adev(to_auxiliary_dev(dev))->tile;
}

static ssize_t id_show(struct device *dev, struct device_attribute *attr,
		       char *buf)
{
	return sysfs_emit(buf, "%u\n", zex_tile_of_dev(dev)->id);
}
static DEVICE_ATTR_RO(id);

/* mem_size, mem_used and num_bos: one field each of the tile's memory use. */
struct zex_tile_mem_attr {
	struct device_attribute attr;
	size_t field;
};

static ssize_t zex_tile_mem_show(struct device *dev, struct device_attribute *attr, char *buf)
{
	size_t field = container_of(attr, struct zex_tile_mem_attr, attr)->field;
	struct zex_tile_mem_usage usage;

	zex_tile_mem_usage(&zex_tile_of_dev(dev)->mem, &usage);
	return sysfs_emit(buf, "%llu\n", *(u64 *)((char *)&usage + field));
}

#define ZEX_TILE_MEM_ATTR(_name, _field)						\
	static struct zex_tile_mem_attr zex_tile_attr_##_name = {			\
		.attr = __ATTR(_name, 0444, zex_tile_mem_show, NULL),			\
		.field = offsetof(struct zex_tile_mem_usage, _field),			\
	}

ZEX_TILE_MEM_ATTR(mem_size, size);
ZEX_TILE_MEM_ATTR(mem_used, used);
ZEX_TILE_MEM_ATTR(num_bos, num_bos);

static struct attribute *zex_tile_attrs[] = {
	&dev_attr_id.attr,
	&zex_tile_attr_mem_size.attr.attr,
	&zex_tile_attr_mem_used.attr.attr,
	&zex_tile_attr_num_bos.attr.attr,
	NULL
};
ATTRIBUTE_GROUPS(zex_tile);

static int zex_tile_probe(struct auxiliary_device *adev,
			  const struct auxiliary_device_id *id)
{
	struct zex_tile *tile = to_zex_tile_adev(adev)->tile;

	WRITE_ONCE(tile->online, true);
	dev_dbg(&adev->dev, "tile %u online, %llu bytes\n", tile->id,
		tile->mem.size);
	return 0;
}

static void zex_tile_remove(struct auxiliary_device *adev)
{
	struct zex_tile *tile = to_zex_tile_adev(adev)->tile;

	WRITE_ONCE(tile->online, false);
	tile->lost(tile);
	dev_dbg(&adev->dev, "tile %u offline\n", tile->id);
}

static const struct auxiliary_device_id zex_tile_id_table[] = {
	{ .name = KBUILD_MODNAME ".tile" },
	{}
};
MODULE_DEVICE_TABLE(auxiliary, zex_tile_id_table);

struct auxiliary_driver zex_tile_driver = {
	.name = "tile",
	.probe = zex_tile_probe,
	.remove = zex_tile_remove,
	.id_table = zex_tile_id_table,
	.driver = {
		.dev_groups = zex_tile_groups,
	},
};

static void zex_tile_adev_release(struct device *dev)
{
	kfree(to_zex_tile_adev(to_auxiliary_dev(dev)));
}

/**
 * zex_tile_publish - create and register a tile's auxiliary device
 * @parent: the GPU's device.
 * @tile: the tile; must outlive the auxiliary device's registration.
 *
 * Return: the auxiliary device, or an ERR_PTR.
 */
struct zex_tile_adev *zex_tile_publish(struct device *parent, struct zex_tile *tile)
{
	struct zex_tile_adev *tadev;
	int ret;

	tadev = kzalloc(sizeof(*tadev), GFP_KERNEL);
	if (!tadev)
		return ERR_PTR(-ENOMEM);

	tadev->tile = tile;
	tadev->adev.name = "tile";
	tadev->adev.id = tile->id;
	tadev->adev.dev.parent = parent;
	tadev->adev.dev.release = zex_tile_adev_release;

	ret = auxiliary_device_init(&tadev->adev);
	if (ret) {
		kfree(tadev);
		return ERR_PTR(ret);
	}

	ret = auxiliary_device_add(&tadev->adev);
	if (ret) {
		auxiliary_device_uninit(&tadev->adev);
		return ERR_PTR(ret);
	}
	return tadev;
}

/**
 * zex_tile_unpublish - unregister a tile's auxiliary device
 * @tadev: from zex_tile_publish().
 *
 * Unbinds the tile driver (the tile goes offline) and drops the device.
 */
void zex_tile_unpublish(struct zex_tile_adev *tadev)
{
	auxiliary_device_delete(&tadev->adev);
	auxiliary_device_uninit(&tadev->adev);
}
