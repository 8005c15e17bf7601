// SPDX-License-Identifier: MIT
/*
 * Copyright © 2026 The zex authors
 */

/*
 * DOC: zex-info-loader.c - zex-info --loader: the device as a Level Zero application sees it
 *
 * Like ze_info or clinfo: loads the stock Level Zero loader
 * (libze_loader.so.1, with dlopen so that zex-info runs where it is
 * absent), which loads libzex from ZE_ENABLE_ALT_DRIVERS (default: the
 * ZEX_LIBZEX path), and prints every driver with its API version,
 * extensions and devices, each device with its sub-devices, memory and
 * command queue groups.
 */

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

#include <level_zero/ze_api.h>

#include "zex/zex.h"
#include "zex-info.h"

/* The loader's entry points zex-info uses, found with dlsym. */
static struct {
	__typeof__(zeInit) *Init;
	__typeof__(zeDriverGet) *DriverGet;
	__typeof__(zeDriverGetApiVersion) *DriverGetApiVersion;
	__typeof__(zeDriverGetProperties) *DriverGetProperties;
	__typeof__(zeDriverGetExtensionProperties) *DriverGetExtensionProperties;
	__typeof__(zeDeviceGet) *DeviceGet;
	__typeof__(zeDeviceGetSubDevices) *DeviceGetSubDevices;
	__typeof__(zeDeviceGetProperties) *DeviceGetProperties;
	__typeof__(zeDeviceGetMemoryProperties) *DeviceGetMemoryProperties;
	__typeof__(zeDeviceGetCommandQueueGroupProperties) *DeviceGetCommandQueueGroupProperties;
} ze;

#define ZE_SYM(h, name) (ze.name = (__typeof__(ze.name))dlsym(h, "ze" #name))

static int load_loader(void)
{
	void *h = dlopen("libze_loader.so.1", RTLD_NOW | RTLD_LOCAL);

	if (!h) {
		fprintf(stderr, "zex-info: %s\n", dlerror());
		return -1;
	}
	if (!ZE_SYM(h, Init) || !ZE_SYM(h, DriverGet) || !ZE_SYM(h, DriverGetApiVersion) ||
	    !ZE_SYM(h, DriverGetProperties) || !ZE_SYM(h, DriverGetExtensionProperties) ||
	    !ZE_SYM(h, DeviceGet) || !ZE_SYM(h, DeviceGetSubDevices) ||
	    !ZE_SYM(h, DeviceGetProperties) || !ZE_SYM(h, DeviceGetMemoryProperties) ||
	    !ZE_SYM(h, DeviceGetCommandQueueGroupProperties)) {
		fprintf(stderr, "zex-info: the loader lacks %s\n", dlerror());
		return -1;
	}
	return 0;
}

static void print_device(ze_device_handle_t dev, const char *indent)
{
	ze_device_properties_t dp = { .stype = ZE_STRUCTURE_TYPE_DEVICE_PROPERTIES };
	ze_device_memory_properties_t mp[4];
	ze_command_queue_group_properties_t qg[8];
	uint32_t n, i;

	if (ze.DeviceGetProperties(dev, &dp))
		return;
	printf("%s%s: %s, vendor 0x%04x device 0x%04x, max allocation %llu MiB\n", indent,
	       (dp.flags & ZE_DEVICE_PROPERTY_FLAG_SUBDEVICE) ? "sub-device" : "device", dp.name,
	       dp.vendorId, dp.deviceId, (unsigned long long)(dp.maxMemAllocSize >> 20));
	n = 4;
	for (i = 0; i < n; i++)
		mp[i] = (ze_device_memory_properties_t){
			.stype = ZE_STRUCTURE_TYPE_DEVICE_MEMORY_PROPERTIES };
	if (!ze.DeviceGetMemoryProperties(dev, &n, mp))
		for (i = 0; i < n; i++)
			printf("%s  memory %s: %llu MiB\n", indent, mp[i].name,
			       (unsigned long long)(mp[i].totalSize >> 20));
	n = 8;
	for (i = 0; i < n; i++)
		qg[i] = (ze_command_queue_group_properties_t){
			.stype = ZE_STRUCTURE_TYPE_COMMAND_QUEUE_GROUP_PROPERTIES };
	if (!ze.DeviceGetCommandQueueGroupProperties(dev, &n, qg))
		for (i = 0; i < n; i++)
			printf("%s  queue group %u: %s%s, %u queues\n", indent, i,
			       (qg[i].flags & ZE_COMMAND_QUEUE_GROUP_PROPERTY_FLAG_COMPUTE) ?
			       "compute+" : "", "copy", qg[i].numQueues);
}

int zex_info_loader(void)
{
	ze_driver_handle_t drivers[8];
	uint32_t ndrv = 8, d;

	if (!getenv("ZE_ENABLE_ALT_DRIVERS") && getenv("ZEX_LIBZEX"))
		setenv("ZE_ENABLE_ALT_DRIVERS", getenv("ZEX_LIBZEX"), 1);
	if (load_loader())
		return 1;
	if (ze.Init(0) || ze.DriverGet(&ndrv, drivers)) {
		fprintf(stderr, "zex-info: the loader found no driver\n");
		return 2;
	}
	for (d = 0; d < ndrv; d++) {
		ze_driver_properties_t props = { .stype = ZE_STRUCTURE_TYPE_DRIVER_PROPERTIES };
		ze_driver_extension_properties_t ext[16];
		ze_device_handle_t devs[8], subs[ZEX_MAX_TILES];
		ze_api_version_t version = 0;
		uint32_t n = 16, ndev = 8, nsub, i, j;

		ze.DriverGetApiVersion(drivers[d], &version);
		ze.DriverGetProperties(drivers[d], &props);
		printf("driver %u: API %u.%u, driver version 0x%08x\n", d, ZE_MAJOR_VERSION(version),
		       ZE_MINOR_VERSION(version), props.driverVersion);
		if (!ze.DriverGetExtensionProperties(drivers[d], &n, ext))
			for (i = 0; i < n; i++)
				printf("  extension %s %u.%u\n", ext[i].name,
				       ZE_MAJOR_VERSION(ext[i].version),
				       ZE_MINOR_VERSION(ext[i].version));
		if (ze.DeviceGet(drivers[d], &ndev, devs))
			continue;
		for (i = 0; i < ndev; i++) {
			print_device(devs[i], "  ");
			nsub = ZEX_MAX_TILES;
			if (ze.DeviceGetSubDevices(devs[i], &nsub, subs))
				continue;
			for (j = 0; j < nsub; j++)
				print_device(subs[j], "    ");
		}
	}
	return 0;
}
