// SPDX-License-Identifier: MIT
/*
 * Copyright © 2026 The zex authors
 */

/*
 * DOC: l0_device.c - devices: root, sub-devices (tiles), their properties
 *
 * What the process sees follows ZE_FLAT_DEVICE_HIERARCHY and
 * ZE_AFFINITY_MASK (core/device_hierarchy.c). COMPOSITE, the default: one
 * root device, the tiles it sees its sub-devices (none when it sees one:
 * the root device is that tile). FLAT: the tiles are the devices, with no
 * root device and no sub-devices. COMBINED: the tiles are the devices, and
 * zeDeviceGetRootDevice() leads from them to the root device whose
 * sub-devices they are.
 *
 * With implicit scaling, and every tile seen, the root device is all tiles:
 * its memory is their sum and it has one compute engine group (one engine
 * spanning the tiles) plus tile 0's copy engines (seed 002's engine model).
 * Without it (the kernel's enable_implicit_scaling=0 or
 * EnableImplicitScaling=0), or when the mask hides a tile, the root device
 * has the memory and engines of the first tile it sees, and allocating on
 * it equals allocating on that tile.
 *
 * The device is emulated, so its vendor and device ids are not PCI ids:
 * ZEX_VENDOR_ID and ZEX_DEVICE_ID say so.
 */

#include <stdio.h>
#include <string.h>
#include <time.h>

#include <drm/zex_drm.h>

#include "l0/base/l0.h"

#define ZEX_VENDOR_ID	0x7a65	/* "ze": no PCI vendor, an emulated device */
#define ZEX_DEVICE_ID	0x0001

/* The tiles the process sees, in order: how many, their numbers in @tiles. */
static uint32_t visible_tiles(const struct zex_l0_driver *drv, uint32_t tiles[ZEX_MAX_TILES])
{
	uint32_t i, n = 0;

	for (i = 0; i < drv->topo.num_tiles; i++)
		if (drv->visible.tile_mask & (1u << i))
			tiles[n++] = i;
	return n;
}

/*
 * Whether the root device has sub-devices: not in FLAT, and not when the
 * mask leaves it one tile (it is then that tile).
 */
static bool root_has_sub_devices(const struct zex_l0_driver *drv)
{
	return drv->visible.hierarchy != ZEX_HIERARCHY_FLAT &&
	       (zex_l0_visible_count(drv) > 1 ||
		zex_l0_visible_count(drv) == drv->topo.num_tiles);
}

/* Fill @out with up to *@count of @n devices; a count of 0, or above @n, is set to @n. */
static void list_devices(struct zex_l0_driver *drv, const uint32_t *tiles, uint32_t n,
			 bool root, uint32_t *count, ze_device_handle_t *out)
{
	uint32_t i;

	if (*count == 0 || *count > n) {
		/* A count of 0 asks for the count only. */
		out = *count ? out : NULL;
		*count = n;
	}
	for (i = 0; out && i < *count; i++)
		out[i] = root ? (ze_device_handle_t)&drv->root :
				(ze_device_handle_t)&drv->tiles[tiles[i]];
}

ZE_APIEXPORT ze_result_t ZE_APICALL zeDeviceGet(ze_driver_handle_t hDriver,
						uint32_t *pCount,
						ze_device_handle_t *phDevices)
{
	struct zex_l0_driver *drv = zex_l0_driver(hDriver);
	uint32_t tiles[ZEX_MAX_TILES], n;

	if (!drv)
		return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
	if (!pCount)
		return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
	n = visible_tiles(drv, tiles);
	if (drv->visible.hierarchy == ZEX_HIERARCHY_COMPOSITE)
		list_devices(drv, tiles, n ? 1 : 0, true, pCount, phDevices);
	else
		list_devices(drv, tiles, n, false, pCount, phDevices);
	return ZE_RESULT_SUCCESS;
}

ZE_APIEXPORT ze_result_t ZE_APICALL zeDeviceGetSubDevices(ze_device_handle_t hDevice,
							  uint32_t *pCount,
							  ze_device_handle_t *phSubdevices)
{
	struct zex_l0_device *dev = zex_l0_device(hDevice);
	uint32_t tiles[ZEX_MAX_TILES], n = 0;

	if (!dev)
		return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
	if (!pCount)
		return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
	/* Tiles have no sub-devices; the root has the tiles seen, if more than one. */
	if (dev->tile < 0 && root_has_sub_devices(dev->drv))
		n = visible_tiles(dev->drv, tiles);
	list_devices(dev->drv, tiles, n, false, pCount, phSubdevices);
	return ZE_RESULT_SUCCESS;
}

ZE_APIEXPORT ze_result_t ZE_APICALL zeDeviceGetRootDevice(ze_device_handle_t hDevice,
							  ze_device_handle_t *phRootDevice)
{
	struct zex_l0_device *dev = zex_l0_device(hDevice);

	if (!dev)
		return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
	if (!phRootDevice)
		return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
	/* A sub-device's root is the root device; the root device, and FLAT's tiles, have none. */
	*phRootDevice = dev->tile >= 0 && root_has_sub_devices(dev->drv) ?
			(ze_device_handle_t)&dev->drv->root : NULL;
	return ZE_RESULT_SUCCESS;
}

/* The device whose resources @dev has: a tile, or ZEX_DEVICE_ROOT. */
static uint32_t effective_device(const struct zex_l0_device *dev)
{
	if (dev->tile >= 0)
		return (uint32_t)dev->tile;
	return zex_l0_root_tile(dev->drv) >= 0 ? (uint32_t)zex_l0_root_tile(dev->drv) :
						 ZEX_DEVICE_ROOT;
}

static uint64_t device_memory(const struct zex_l0_device *dev)
{
	const struct zex_topology *t = &dev->drv->topo;
	uint32_t e = effective_device(dev);

	return e == ZEX_DEVICE_ROOT ? t->total_mem_size : t->tiles[e].mem_size;
}

ZE_APIEXPORT ze_result_t ZE_APICALL
zeDeviceGetProperties(ze_device_handle_t hDevice, ze_device_properties_t *pDeviceProperties)
{
	struct zex_l0_device *dev = zex_l0_device(hDevice);

	if (!dev)
		return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
	return zex_l0_device_properties(dev, pDeviceProperties);
}

/*
 * ZE_extension_device_luid: an identifier of the device unique on the host
 * (its UUID's first eight bytes: vendor, device, then the tile, 0xff the
 * root; no other device of the host has them), one node.
 */
static void device_luid(const ze_device_properties_t *p, ze_device_luid_ext_properties_t *luid)
{
	memcpy(luid->luid.id, p->uuid.id, sizeof(luid->luid.id));
	luid->nodeMask = 1;
}

/**
 * zex_l0_device_properties - zeDeviceGetProperties() of a device, seen or not
 * @dev: the root device or a tile, whether or not the process sees it
 *	(Sysman sees every device whatever ZE_FLAT_DEVICE_HIERARCHY and
 *	ZE_AFFINITY_MASK say).
 * @p: filled in.
 */
ze_result_t zex_l0_device_properties(const struct zex_l0_device *dev, ze_device_properties_t *p)
{
	ze_base_properties_t *ext;
	uint32_t tiles;
	bool sub;

	if (!p)
		return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
	/* Left 0: taken for the first (what compute-benchmarks passes). */
	if (!zex_l0_stype_ok(p->stype, ZE_STRUCTURE_TYPE_DEVICE_PROPERTIES) &&
	    p->stype != ZE_STRUCTURE_TYPE_DEVICE_PROPERTIES_1_2)
		return ZE_RESULT_ERROR_INVALID_ARGUMENT;
	tiles = effective_device(dev) == ZEX_DEVICE_ROOT ? dev->drv->topo.num_tiles : 1;
	p->type = ZE_DEVICE_TYPE_GPU;
	p->vendorId = ZEX_VENDOR_ID;
	p->deviceId = ZEX_DEVICE_ID;
	sub = dev->tile >= 0 && dev->drv->visible.hierarchy != ZEX_HIERARCHY_FLAT;
	p->flags = sub ? ZE_DEVICE_PROPERTY_FLAG_SUBDEVICE : 0;
	p->subdeviceId = sub ? (uint32_t)dev->tile : 0;
	p->coreClockRate = 1000;
	p->maxMemAllocSize = device_memory(dev);
	p->maxHardwareContexts = 64;
	p->maxCommandQueuePriority = 0;
	p->numThreadsPerEU = 8;
	p->physicalEUSimdWidth = 8;
	p->numEUsPerSubslice = 8;
	p->numSubslicesPerSlice = 4;
	p->numSlices = tiles;
	/* Nanoseconds, or cycles per second for the 1.2 struct: a 1 GHz timer. */
	p->timerResolution = p->stype == ZE_STRUCTURE_TYPE_DEVICE_PROPERTIES ? 1 : 1000000000;
	p->timestampValidBits = 64;
	p->kernelTimestampValidBits = 64;
	/* Unique per device: vendor, device, then the tile (0xff the root). */
	memset(&p->uuid, 0, sizeof(p->uuid));
	p->uuid.id[0] = ZEX_VENDOR_ID & 0xff;
	p->uuid.id[1] = ZEX_VENDOR_ID >> 8;
	p->uuid.id[2] = ZEX_DEVICE_ID & 0xff;
	p->uuid.id[3] = ZEX_DEVICE_ID >> 8;
	p->uuid.id[4] = dev->tile >= 0 ? (uint8_t)dev->tile : 0xff;
	/* Read-only virtual memory is enforced: the device faults on a write. */
	for (ext = p->pNext; ext; ext = ext->pNext)
		if (ext->stype == ZE_STRUCTURE_TYPE_DEVICE_READONLY_MEMORY_EXT_PROPERTIES)
			((ze_device_readonly_memory_ext_properties_t *)ext)->readonlyCapability =
				ZE_DEVICE_READONLY_MEMORY_CAPABILITY_ENFORCED;
		else if (ext->stype == ZE_STRUCTURE_TYPE_EVENT_QUERY_KERNEL_TIMESTAMPS_EXT_PROPERTIES)
			/* Kernel and synchronized: the device clock is the host's. */
			((ze_event_query_kernel_timestamps_ext_properties_t *)ext)->flags =
				ZE_EVENT_QUERY_KERNEL_TIMESTAMPS_EXT_FLAG_KERNEL |
				ZE_EVENT_QUERY_KERNEL_TIMESTAMPS_EXT_FLAG_SYNCHRONIZED;
		else if (ext->stype == ZE_STRUCTURE_TYPE_DEVICE_LUID_EXT_PROPERTIES)
			device_luid(p, (ze_device_luid_ext_properties_t *)ext);
	memset(p->name, 0, sizeof(p->name));
	if (dev->tile >= 0)
		snprintf(p->name, sizeof(p->name), "zex emulated GPU tile %d", dev->tile);
	else
		snprintf(p->name, sizeof(p->name), "zex emulated GPU (%u tiles)",
			 dev->drv->topo.num_tiles);
	return ZE_RESULT_SUCCESS;
}

ZE_APIEXPORT ze_result_t ZE_APICALL
zeDeviceGetMemoryProperties(ze_device_handle_t hDevice, uint32_t *pCount,
			    ze_device_memory_properties_t *pMemProperties)
{
	struct zex_l0_device *dev = zex_l0_device(hDevice);
	ze_base_properties_t *ext;
	uint32_t e;

	if (!dev)
		return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
	if (!pCount)
		return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
	/* One memory: the tile's, or all tiles' behind the root. */
	if (*pCount == 0 || *pCount > 1) {
		pMemProperties = *pCount ? pMemProperties : NULL;
		*pCount = 1;
	}
	if (!pMemProperties)
		return ZE_RESULT_SUCCESS;
	if (!zex_l0_stype_ok(pMemProperties->stype, ZE_STRUCTURE_TYPE_DEVICE_MEMORY_PROPERTIES))
		return ZE_RESULT_ERROR_INVALID_ARGUMENT;
	e = effective_device(dev);
	pMemProperties->flags = 0;
	pMemProperties->maxClockRate = 1000;
	pMemProperties->maxBusWidth = 64;
	pMemProperties->totalSize = device_memory(dev);
	/*
	 * ZE_extension_device_memory_properties: the memory is the host's own
	 * (DDR, of a generation libzex cannot see); its design bandwidth is
	 * not known (0, unit unknown).
	 */
	for (ext = pMemProperties->pNext; ext; ext = ext->pNext)
		if (ext->stype == ZE_STRUCTURE_TYPE_DEVICE_MEMORY_EXT_PROPERTIES) {
			ze_device_memory_ext_properties_t *m = (void *)ext;

			m->type = ZE_DEVICE_MEMORY_EXT_TYPE_DDR;
			m->physicalSize = pMemProperties->totalSize;
			m->readBandwidth = 0;
			m->writeBandwidth = 0;
			m->bandwidthUnit = ZE_BANDWIDTH_UNIT_UNKNOWN;
		}
	memset(pMemProperties->name, 0, sizeof(pMemProperties->name));
	if (e == ZEX_DEVICE_ROOT)
		snprintf(pMemProperties->name, sizeof(pMemProperties->name),
			 "zex tile memory x%u", dev->drv->topo.num_tiles);
	else
		snprintf(pMemProperties->name, sizeof(pMemProperties->name),
			 "zex tile %u memory", e);
	return ZE_RESULT_SUCCESS;
}

/* The engines of one class the device has, as the kernel lists them. */
static uint32_t count_engines(const struct zex_topology *t, uint32_t device, uint16_t cls)
{
	uint32_t i, n = 0;

	for (i = 0; i < t->num_engines; i++)
		if (t->engines[i].device == device && t->engines[i].engine_class == cls)
			n++;
	return n;
}

/**
 * zex_l0_queue_groups - the command queue groups of a device, by ordinal
 * @dev: the device.
 * @groups: filled with up to %ZEX_L0_MAX_QUEUE_GROUPS groups.
 *
 * The compute group (compute engines, which also copy), then the copy
 * group, each where the device has such engines: the kernel lists the
 * root's engines under ZEX_DEVICE_ROOT (one spanning compute engine, tile
 * 0's copy engines); a root that is tile 0 for this process has tile 0's.
 * The compute group runs cooperative kernels (all of a launch's groups at
 * once, up to zeKernelSuggestMaxCooperativeGroupCount(): engine.c).
 * Every engine fills with patterns of up to %ZEX_L0_FILL_MAX_PATTERN bytes.
 *
 * Return: the number of groups.
 */
uint32_t zex_l0_queue_groups(const struct zex_l0_device *dev, struct zex_l0_queue_group *groups)
{
	static const uint16_t classes[] = { DRM_ZEX_ENGINE_CLASS_COMPUTE,
					    DRM_ZEX_ENGINE_CLASS_COPY };
	uint32_t e = effective_device(dev), n = 0, i, count;

	for (i = 0; i < ZEX_L0_MAX_QUEUE_GROUPS; i++) {
		count = count_engines(&dev->drv->topo, e, classes[i]);
		if (!count)
			continue;
		groups[n++] = (struct zex_l0_queue_group){
			.engine_class = classes[i], .device = (uint16_t)e, .num_queues = count,
			.flags = classes[i] == DRM_ZEX_ENGINE_CLASS_COMPUTE ?
				 ZE_COMMAND_QUEUE_GROUP_PROPERTY_FLAG_COMPUTE |
				 ZE_COMMAND_QUEUE_GROUP_PROPERTY_FLAG_COOPERATIVE_KERNELS |
				 ZE_COMMAND_QUEUE_GROUP_PROPERTY_FLAG_COPY :
				 ZE_COMMAND_QUEUE_GROUP_PROPERTY_FLAG_COPY,
		};
	}
	return n;
}

ZE_APIEXPORT ze_result_t ZE_APICALL
zeDeviceGetCommandQueueGroupProperties(ze_device_handle_t hDevice, uint32_t *pCount,
				       ze_command_queue_group_properties_t *pProps)
{
	struct zex_l0_device *dev = zex_l0_device(hDevice);
	struct zex_l0_queue_group groups[ZEX_L0_MAX_QUEUE_GROUPS];
	uint32_t n, i;

	if (!dev)
		return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
	if (!pCount)
		return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
	n = zex_l0_queue_groups(dev, groups);
	if (*pCount == 0 || *pCount > n) {
		pProps = *pCount ? pProps : NULL;
		*pCount = n;
	}
	if (!pProps)
		return ZE_RESULT_SUCCESS;
	/*
	 * stype is not checked: programs (level-zero-tests' own harness among
	 * them) pass zeroed structs, and compute-runtime answers them.
	 */
	for (i = 0; i < *pCount; i++) {
		pProps[i].flags = groups[i].flags;
		pProps[i].maxMemoryFillPatternSize = ZEX_L0_FILL_MAX_PATTERN;
		pProps[i].numQueues = groups[i].num_queues;
	}
	return ZE_RESULT_SUCCESS;
}

/*
 * Who may touch which memory: the engines read and write every kind (host
 * memory, including any the process maps, is imported for the copy),
 * while the host works on it; there are no device atomics (no kernels).
 */
ZE_APIEXPORT ze_result_t ZE_APICALL
zeDeviceGetMemoryAccessProperties(ze_device_handle_t hDevice,
				  ze_device_memory_access_properties_t *pMemAccessProperties)
{
	const ze_memory_access_cap_flags_t rw = ZE_MEMORY_ACCESS_CAP_FLAG_RW;
	const ze_memory_access_cap_flags_t concurrent = rw | ZE_MEMORY_ACCESS_CAP_FLAG_CONCURRENT;
	ze_device_memory_access_properties_t *p = pMemAccessProperties;

	if (!zex_l0_device(hDevice))
		return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
	if (!p)
		return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
	if (!zex_l0_stype_ok(p->stype, ZE_STRUCTURE_TYPE_DEVICE_MEMORY_ACCESS_PROPERTIES))
		return ZE_RESULT_ERROR_INVALID_ARGUMENT;
	p->hostAllocCapabilities = concurrent;
	p->deviceAllocCapabilities = rw;
	p->sharedSingleDeviceAllocCapabilities = concurrent;
	p->sharedCrossDeviceAllocCapabilities = concurrent;
	p->sharedSystemAllocCapabilities = concurrent;
	return ZE_RESULT_SUCCESS;
}

/* The emulated device caches nothing of its own: no cache to describe. */
ZE_APIEXPORT ze_result_t ZE_APICALL
zeDeviceGetCacheProperties(ze_device_handle_t hDevice, uint32_t *pCount,
			   ze_device_cache_properties_t *pCacheProperties)
{
	(void)pCacheProperties;
	if (!zex_l0_device(hDevice))
		return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
	if (!pCount)
		return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
	*pCount = 0;
	return ZE_RESULT_SUCCESS;
}

/*
 * The compute engine takes no images and no samplers: every limit is 0,
 * which the specification defines as "images of that kind unsupported"
 * (a program asks here before it makes one; zeImageCreate stays
 * unsupported).
 */
ZE_APIEXPORT ze_result_t ZE_APICALL
zeDeviceGetImageProperties(ze_device_handle_t hDevice,
			   ze_device_image_properties_t *pImageProperties)
{
	ze_device_image_properties_t *p = pImageProperties;

	if (!zex_l0_device(hDevice))
		return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
	if (!p)
		return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
	if (!zex_l0_stype_ok(p->stype, ZE_STRUCTURE_TYPE_DEVICE_IMAGE_PROPERTIES))
		return ZE_RESULT_ERROR_INVALID_ARGUMENT;
	p->maxImageDims1D = 0;
	p->maxImageDims2D = 0;
	p->maxImageDims3D = 0;
	p->maxImageBufferSize = 0;
	p->maxImageArraySlices = 0;
	p->maxSamplers = 0;
	p->maxReadImageArgs = 0;
	p->maxWriteImageArgs = 0;
	return ZE_RESULT_SUCCESS;
}

/*
 * Device memory is exported as a dma-buf (ze_external_memory_export_fd_t
 * on its properties) and a zex dma-buf imported as device, host or
 * physical memory (ze_external_memory_import_fd_t); there are no images.
 */
ZE_APIEXPORT ze_result_t ZE_APICALL
zeDeviceGetExternalMemoryProperties(ze_device_handle_t hDevice,
				    ze_device_external_memory_properties_t *pExternalMemoryProperties)
{
	ze_device_external_memory_properties_t *p = pExternalMemoryProperties;

	if (!zex_l0_device(hDevice))
		return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
	if (!p)
		return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
	if (!zex_l0_stype_ok(p->stype, ZE_STRUCTURE_TYPE_DEVICE_EXTERNAL_MEMORY_PROPERTIES))
		return ZE_RESULT_ERROR_INVALID_ARGUMENT;
	p->memoryAllocationImportTypes = ZE_EXTERNAL_MEMORY_TYPE_FLAG_DMA_BUF;
	p->memoryAllocationExportTypes = ZE_EXTERNAL_MEMORY_TYPE_FLAG_DMA_BUF;
	p->imageImportTypes = 0;
	p->imageExportTypes = 0;
	return ZE_RESULT_SUCCESS;
}

/*
 * A device is not lost while its driver is open: a job's fault or timeout
 * bans its queue alone.
 */
ZE_APIEXPORT ze_result_t ZE_APICALL zeDeviceGetStatus(ze_device_handle_t hDevice)
{
	return zex_l0_device(hDevice) ? ZE_RESULT_SUCCESS : ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
}

/*
 * The root device and its tiles share one address space per context and
 * every engine reaches every tile's memory: any two of them are peers.
 * Neither has atomics across the link (the engines run no kernels).
 */
ZE_APIEXPORT ze_result_t ZE_APICALL zeDeviceCanAccessPeer(ze_device_handle_t hDevice,
							  ze_device_handle_t hPeerDevice,
							  ze_bool_t *value)
{
	struct zex_l0_device *dev = zex_l0_device(hDevice);
	struct zex_l0_device *peer = zex_l0_device(hPeerDevice);

	if (!dev || !peer)
		return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
	if (!value)
		return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
	*value = dev->drv == peer->drv;
	return ZE_RESULT_SUCCESS;
}

ZE_APIEXPORT ze_result_t ZE_APICALL
zeDeviceGetP2PProperties(ze_device_handle_t hDevice, ze_device_handle_t hPeerDevice,
			 ze_device_p2p_properties_t *pP2PProperties)
{
	struct zex_l0_device *dev = zex_l0_device(hDevice);
	struct zex_l0_device *peer = zex_l0_device(hPeerDevice);

	if (!dev || !peer)
		return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
	if (!pP2PProperties)
		return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
	if (!zex_l0_stype_ok(pP2PProperties->stype, ZE_STRUCTURE_TYPE_DEVICE_P2P_PROPERTIES))
		return ZE_RESULT_ERROR_INVALID_ARGUMENT;
	pP2PProperties->flags = dev->drv == peer->drv ? ZE_DEVICE_P2P_PROPERTY_FLAG_ACCESS : 0;
	return ZE_RESULT_SUCCESS;
}

/*
 * The device's clock is the host's CLOCK_MONOTONIC, in nanoseconds: what the
 * engines write for timestamps (the kernel's ktime_get_ns()).
 */
ZE_APIEXPORT ze_result_t ZE_APICALL zeDeviceGetGlobalTimestamps(ze_device_handle_t hDevice,
								uint64_t *hostTimestamp,
								uint64_t *deviceTimestamp)
{
	struct timespec ts;

	if (!zex_l0_device(hDevice))
		return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
	if (!hostTimestamp || !deviceTimestamp)
		return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	*hostTimestamp = (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
	*deviceTimestamp = *hostTimestamp;
	return ZE_RESULT_SUCCESS;
}
