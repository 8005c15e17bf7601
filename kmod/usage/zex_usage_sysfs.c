// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Copyright © 2026 The zex authors
 */

/**
 * DOC: zex_usage_sysfs.c - the device's counters in sysfs, readable by any user
 *
 * Under the GPU's platform device (/sys/class/drm/renderD<N>/device/),
 * one folder per engine, as xe has one per engine class:
 * engines/tile<N>-<ccs|bcs><i>/ for each engine of each tile and
 * engines/root-ccs0/ for the root device's own compute engine (implicit
 * scaling), each with class ("compute" or "copy"), instance (among its
 * tile's engines of the class), tile (its index, or "root"), busy_ns (the
 * time every file's jobs ran on it, counted as fdinfo counts a file's:
 * it only grows) and job_timeout_ms (how long one of its jobs may run;
 * long-running queues' jobs have no limit). Beside them, each engine
 * group's: engines/tile<N>-<ccs|bcs>-all/ for a tile's engines of a class
 * (the root device's own engine counts in each tile it spans) and
 * engines/<ccs|bcs>-all/ for the whole device's, with class, tile (its
 * index, or "all") and busy_ns (the time at least one of its engines ran
 * a job: never more than the time that passed, to within 16 us a busy
 * period). Each tile's memory is its
 * auxiliary device's (tiles/: mem_size, mem_used, num_bos).
 *
 * Busy time is in sysfs rather than behind the query ioctl because a
 * monitoring tool must see every user's work without opening the render
 * node (which it may not be allowed to) and because the counters are
 * device-wide facts, as xe's per-engine files are; xe's own busy counters
 * are a perf PMU, which would add nothing here but a sampling interface.
 * Every file is read-only; the files go when the platform device goes,
 * before the counters they read are freed with the DRM device.
 */

#include <linux/device.h>
#include <linux/kobject.h>
#include <linux/slab.h>
#include <linux/sysfs.h>

#include "../device/zex_device.h"
#include "../exec/zex_exec.h"
#include "zex_usage.h"

/**
 * struct zex_usage_node - one folder of the device's usage files
 * @kobj: its kobject.
 * @ring: the engine of an engine's folder.
 * @group: the engine group of a group's folder.
 * @engine_class: the group's class.
 * @instance: the engine's instance among its device's engines of its class.
 * @tile: the engine's or the group's tile, or %DRM_ZEX_DEVICE_ROOT (an
 *	engine: the root device's own; a group: the whole device's).
 * @timeout_ms: the engine's job timeout.
 */
struct zex_usage_node {
	struct kobject kobj;
	struct zex_ring *ring;
	struct zex_engine_group *group;
	u16 engine_class;
	u32 instance;
	u32 tile;
	u32 timeout_ms;
};

static struct zex_usage_node *to_usage_node(struct kobject *kobj)
{
	return container_of(kobj, struct zex_usage_node, kobj);
}

static void zex_usage_node_release(struct kobject *kobj)
{
	kfree(to_usage_node(kobj));
}

static ssize_t class_show(struct kobject *kobj, struct kobj_attribute *attr, char *buf)
{
	bool copy = to_usage_node(kobj)->engine_class == DRM_ZEX_ENGINE_CLASS_COPY;

	return sysfs_emit(buf, "%s\n", copy ? "copy" : "compute");
}

static ssize_t instance_show(struct kobject *kobj, struct kobj_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%u\n", to_usage_node(kobj)->instance);
}

static ssize_t tile_show(struct kobject *kobj, struct kobj_attribute *attr, char *buf)
{
	u32 tile = to_usage_node(kobj)->tile;

	if (tile == DRM_ZEX_DEVICE_ROOT)
		return sysfs_emit(buf, to_usage_node(kobj)->group ? "all\n" : "root\n");
	return sysfs_emit(buf, "%u\n", tile);
}

static ssize_t busy_ns_show(struct kobject *kobj, struct kobj_attribute *attr, char *buf)
{
	struct zex_usage_node *node = to_usage_node(kobj);

	return sysfs_emit(buf, "%lld\n", atomic64_read(node->group ? &node->group->busy_ns :
							    &node->ring->busy_ns));
}

static ssize_t job_timeout_ms_show(struct kobject *kobj, struct kobj_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%u\n", to_usage_node(kobj)->timeout_ms);
}

static struct kobj_attribute zex_attr_class = __ATTR_RO(class);
static struct kobj_attribute zex_attr_instance = __ATTR_RO(instance);
static struct kobj_attribute zex_attr_tile = __ATTR_RO(tile);
static struct kobj_attribute zex_attr_busy_ns = __ATTR_RO(busy_ns);
static struct kobj_attribute zex_attr_job_timeout_ms = __ATTR_RO(job_timeout_ms);

static struct attribute *zex_engine_attrs[] = {
	&zex_attr_class.attr,
	&zex_attr_instance.attr,
	&zex_attr_tile.attr,
	&zex_attr_busy_ns.attr,
	&zex_attr_job_timeout_ms.attr,
	NULL
};
ATTRIBUTE_GROUPS(zex_engine);

static struct attribute *zex_group_attrs[] = {
	&zex_attr_class.attr,
	&zex_attr_tile.attr,
	&zex_attr_busy_ns.attr,
	NULL
};
ATTRIBUTE_GROUPS(zex_group);

static const struct kobj_type zex_dir_ktype = {
	.release = zex_usage_node_release,
	.sysfs_ops = &kobj_sysfs_ops,
};

static const struct kobj_type zex_engine_ktype = {
	.release = zex_usage_node_release,
	.sysfs_ops = &kobj_sysfs_ops,
	.default_groups = zex_engine_groups,
};

static const struct kobj_type zex_group_ktype = {
	.release = zex_usage_node_release,
	.sysfs_ops = &kobj_sysfs_ops,
	.default_groups = zex_group_groups,
};

/**
 * struct zex_usage_sysfs - the folders made, to take down in reverse order
 * @count: folders in @nodes.
 * @nodes: the folders, each after its parent.
 */
struct zex_usage_sysfs {
	u32 count;
	struct zex_usage_node *nodes[];
};

static void zex_usage_sysfs_remove(void *data)
{
	struct zex_usage_sysfs *sys = data;

	while (sys->count)
		kobject_put(&sys->nodes[--sys->count]->kobj);
	kfree(sys);
}

/* A folder @name under @parent (NULL: the device's own), recorded in @sys. */
static struct zex_usage_node *zex_usage_node_add(struct zex_usage_sysfs *sys, struct device *dev,
						 struct zex_usage_node *parent,
						 const struct kobj_type *ktype, const char *name)
{
	struct zex_usage_node *node = kzalloc(sizeof(*node), GFP_KERNEL);
	int ret;

	if (!node)
		return ERR_PTR(-ENOMEM);
	ret = kobject_init_and_add(&node->kobj, ktype, parent ? &parent->kobj : &dev->kobj,
				   "%s", name);
	if (ret) {
		kobject_put(&node->kobj);
		return ERR_PTR(ret);
	}
	sys->nodes[sys->count++] = node;
	return node;
}

/* engines/<tile<N>|root>-<ccs|bcs><instance> for each ring of @rings, of @tile. */
static int zex_usage_engines_add(struct zex_usage_sysfs *sys, struct zex_device *zdev,
				 struct zex_usage_node *dir, struct zex_ring *rings, u32 count,
				 u32 tile)
{
	u32 i, seen[ZEX_ENGINE_CLASSES] = {};
	struct zex_usage_node *node;
	char name[32];

	for (i = 0; i < count; i++) {
		struct zex_ring *ring = &rings[i];
		u32 instance = seen[ring->engine_class]++;
		const char *class = ring->engine_class == DRM_ZEX_ENGINE_CLASS_COPY ? "bcs" : "ccs";

		if (tile == DRM_ZEX_DEVICE_ROOT)
			snprintf(name, sizeof(name), "root-%s%u", class, instance);
		else
			snprintf(name, sizeof(name), "tile%u-%s%u", tile, class, instance);
		node = zex_usage_node_add(sys, zdev->drm.dev, dir, &zex_engine_ktype, name);
		if (IS_ERR(node))
			return PTR_ERR(node);
		node->ring = ring;
		node->engine_class = ring->engine_class;
		node->instance = instance;
		node->tile = tile;
		node->timeout_ms = zdev->exec_limits.job_timeout_ms;
	}
	return 0;
}

/* engines/<tile<N>-|><ccs|bcs>-all for each group: each tile's, then the device's. */
static int zex_usage_groups_add(struct zex_usage_sysfs *sys, struct zex_device *zdev,
				struct zex_usage_node *dir)
{
	struct zex_exec_device *xdev = zdev->exec;
	struct zex_usage_node *node;
	char name[32];
	u32 tile;
	u16 c;

	for (tile = 0; tile <= zdev->topo.num_tiles; tile++)
		for (c = 0; c < ZEX_ENGINE_CLASSES; c++) {
			const char *class = c == DRM_ZEX_ENGINE_CLASS_COPY ? "bcs" : "ccs";

			if (tile < zdev->topo.num_tiles)
				snprintf(name, sizeof(name), "tile%u-%s-all", tile, class);
			else
				snprintf(name, sizeof(name), "%s-all", class);
			node = zex_usage_node_add(sys, zdev->drm.dev, dir, &zex_group_ktype, name);
			if (IS_ERR(node))
				return PTR_ERR(node);
			node->group = zex_exec_group(xdev, tile, c);
			node->engine_class = c;
			node->tile = tile < zdev->topo.num_tiles ? tile : DRM_ZEX_DEVICE_ROOT;
		}
	return 0;
}

/**
 * zex_usage_sysfs_add - publish the device's engine counters under its platform device
 * @zdev: the device, its engines made.
 *
 * They are taken down with the platform device (a devres action).
 *
 * Return: 0, or a negative errno (nothing left behind).
 */
int zex_usage_sysfs_add(struct zex_device *zdev)
{
	struct zex_exec_device *xdev = zdev->exec;
	u32 per_tile = xdev->num_rings / zdev->topo.num_tiles;
	struct zex_usage_sysfs *sys;
	struct zex_usage_node *dir;
	u32 tile;
	int ret;

	sys = kzalloc(struct_size(sys, nodes, 1 + xdev->num_rings + 1 +
				  (zdev->topo.num_tiles + 1) * ZEX_ENGINE_CLASSES), GFP_KERNEL);
	if (!sys)
		return -ENOMEM;
	dir = zex_usage_node_add(sys, zdev->drm.dev, NULL, &zex_dir_ktype, "engines");
	ret = PTR_ERR_OR_ZERO(dir);
	for (tile = 0; tile < zdev->topo.num_tiles && !ret; tile++)
		ret = zex_usage_engines_add(sys, zdev, dir, &xdev->tile_rings[tile * per_tile],
					    per_tile, tile);
	if (!ret && xdev->root_ring)
		ret = zex_usage_engines_add(sys, zdev, dir, xdev->root_ring, 1,
					    DRM_ZEX_DEVICE_ROOT);
	if (!ret)
		ret = zex_usage_groups_add(sys, zdev, dir);
	if (ret) {
		zex_usage_sysfs_remove(sys);
		return ret;
	}
	return devm_add_action_or_reset(zdev->drm.dev, zex_usage_sysfs_remove, sys);
}
