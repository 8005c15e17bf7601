// SPDX-License-Identifier: MIT
/*
 * Copyright © 2026 The zex authors
 */

/*
 * DOC: zex-info-top.c - zex-info --top: engines, memory and processes, live, through Sysman
 *
 * What a monitoring tool sees of a zex host, through the stock Level Zero
 * loader's Sysman (zesInit, loaded with dlopen like --loader; with a
 * loader older than zesInit, Debian 12's, the core's handles with
 * ZES_ENABLE_SYSMAN=1): every SAMPLE seconds, the utilisation over the
 * interval of each engine and each engine group (a tile's or the
 * device's engines of a class, busy while any of them is): the
 * difference of its activeTime over that of its timestamp, in percent
 * (the kernel counts a job's time when the job ends, so a job longer than
 * the interval shows as one burst); each tile's memory in use; and each
 * process using the device with its device memory and the engine types
 * its jobs ran on. Processes of other users show only to root, as /proc
 * allows.
 */

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "zex/zex_zes_api.h"
#include "zex/zex.h"
#include "zex-info.h"

#define MAX_ENGINES	96

/* The loader's Sysman entry points, found with dlsym. */
static struct {
	__typeof__(zesInit) *Init;
	__typeof__(zesDriverGet) *DriverGet;
	__typeof__(zesDeviceGet) *DeviceGet;
	__typeof__(zesDeviceGetProperties) *DeviceGetProperties;
	__typeof__(zesDeviceEnumEngineGroups) *DeviceEnumEngineGroups;
	__typeof__(zesEngineGetProperties) *EngineGetProperties;
	__typeof__(zesEngineGetActivity) *EngineGetActivity;
	__typeof__(zesDeviceEnumMemoryModules) *DeviceEnumMemoryModules;
	__typeof__(zesMemoryGetProperties) *MemoryGetProperties;
	__typeof__(zesMemoryGetState) *MemoryGetState;
	__typeof__(zesDeviceProcessesGetState) *DeviceProcessesGetState;
	/* Older loaders (Debian 12's 1.8) have no zesInit: the core's handles then. */
	__typeof__(zeInit) *CoreInit;
	__typeof__(zeDriverGet) *CoreDriverGet;
	__typeof__(zeDeviceGet) *CoreDeviceGet;
} zes;

#define ZES_SYM(h, name) (zes.name = (__typeof__(zes.name))dlsym(h, "zes" #name))

static int load_sysman(void)
{
	void *h = dlopen("libze_loader.so.1", RTLD_NOW | RTLD_LOCAL);

	if (!h) {
		fprintf(stderr, "zex-info: %s\n", dlerror());
		return -1;
	}
	ZES_SYM(h, Init);
	ZES_SYM(h, DriverGet);
	ZES_SYM(h, DeviceGet);
	zes.CoreInit = (__typeof__(zes.CoreInit))dlsym(h, "zeInit");
	zes.CoreDriverGet = (__typeof__(zes.CoreDriverGet))dlsym(h, "zeDriverGet");
	zes.CoreDeviceGet = (__typeof__(zes.CoreDeviceGet))dlsym(h, "zeDeviceGet");
	if (!zes.CoreInit || !zes.CoreDriverGet || !zes.CoreDeviceGet ||
	    !ZES_SYM(h, DeviceGetProperties) || !ZES_SYM(h, DeviceEnumEngineGroups) ||
	    !ZES_SYM(h, EngineGetProperties) || !ZES_SYM(h, EngineGetActivity) ||
	    !ZES_SYM(h, DeviceEnumMemoryModules) || !ZES_SYM(h, MemoryGetProperties) ||
	    !ZES_SYM(h, MemoryGetState) || !ZES_SYM(h, DeviceProcessesGetState)) {
		fprintf(stderr, "zex-info: the loader lacks %s\n", dlerror());
		return -1;
	}
	return 0;
}

/* One engine: its name in the table and its last sample. */
struct top_engine {
	zes_engine_handle_t h;
	char name[32];
	zes_engine_stats_t last;
};

static void engine_name(struct top_engine *e, uint32_t *counts)
{
	zes_engine_properties_t p = { .stype = ZES_STRUCTURE_TYPE_ENGINE_PROPERTIES };
	const char *cls;
	uint32_t slot;

	zes.EngineGetProperties(e->h, &p);
	cls = p.type == ZES_ENGINE_GROUP_COPY_SINGLE || p.type == ZES_ENGINE_GROUP_COPY_ALL ?
	      "copy" : "compute";
	if (p.type == ZES_ENGINE_GROUP_COPY_ALL || p.type == ZES_ENGINE_GROUP_COMPUTE_ALL) {
		/* A group: busy while any of its engines is. */
		if (p.onSubdevice)
			snprintf(e->name, sizeof(e->name), "tile%u %s (any)", p.subdeviceId, cls);
		else
			snprintf(e->name, sizeof(e->name), "device %s (any)", cls);
		return;
	}
	/* Numbered per (sub-device, class); the root device's own is "root". */
	slot = (p.onSubdevice ? p.subdeviceId + 1 : 0) * 2 +
	       (p.type == ZES_ENGINE_GROUP_COPY_SINGLE);
	if (p.onSubdevice)
		snprintf(e->name, sizeof(e->name), "tile%u %s %u", p.subdeviceId, cls,
			 counts[slot]++);
	else
		snprintf(e->name, sizeof(e->name), "root %s %u", cls, counts[slot]++);
}

static void print_sample(zes_device_handle_t dev, struct top_engine *engines, uint32_t n)
{
	zes_mem_handle_t mems[ZEX_MAX_TILES];
	zes_process_state_t procs[64];
	uint32_t nmem = ZEX_MAX_TILES, nproc = 64, i;
	time_t now = time(NULL);
	char when[32];

	strftime(when, sizeof(when), "%H:%M:%S", localtime(&now));
	printf("%s\n  %-20s %6s\n", when, "engine", "busy");
	for (i = 0; i < n; i++) {
		zes_engine_stats_t s;
		double busy = 0;

		if (zes.EngineGetActivity(engines[i].h, &s))
			continue;
		if (s.timestamp > engines[i].last.timestamp)
			busy = 100.0 * (double)(s.activeTime - engines[i].last.activeTime) /
			       (double)(s.timestamp - engines[i].last.timestamp);
		engines[i].last = s;
		printf("  %-20s %5.1f%%\n", engines[i].name, busy);
	}
	if (!zes.DeviceEnumMemoryModules(dev, &nmem, mems))
		for (i = 0; i < nmem; i++) {
			zes_mem_properties_t mp = { .stype = ZES_STRUCTURE_TYPE_MEM_PROPERTIES };
			zes_mem_state_t ms = { .stype = ZES_STRUCTURE_TYPE_MEM_STATE };

			if (zes.MemoryGetProperties(mems[i], &mp) || zes.MemoryGetState(mems[i], &ms))
				continue;
			printf("  memory of tile %u: %llu of %llu MiB in use\n", mp.subdeviceId,
			       (unsigned long long)((ms.size - ms.free) >> 20),
			       (unsigned long long)(ms.size >> 20));
		}
	if (!zes.DeviceProcessesGetState(dev, &nproc, procs)) {
		printf("  %8s %12s %12s  %s\n", "pid", "memory KiB", "shared KiB", "engines");
		for (i = 0; i < nproc; i++)
			printf("  %8u %12llu %12llu  %s%s\n", procs[i].processId,
			       (unsigned long long)(procs[i].memSize >> 10),
			       (unsigned long long)(procs[i].sharedSize >> 10),
			       procs[i].engines & ZES_ENGINE_TYPE_FLAG_COMPUTE ? "compute " : "",
			       procs[i].engines & ZES_ENGINE_TYPE_FLAG_DMA ? "copy" : "");
	}
	fflush(stdout);
}

int zex_info_top(double interval, long count)
{
	zes_driver_handle_t drv;
	zes_device_handle_t dev;
	zes_engine_handle_t handles[MAX_ENGINES];
	struct top_engine engines[MAX_ENGINES];
	uint32_t n = 1, nengines = MAX_ENGINES, counts[2 * (ZEX_MAX_TILES + 1)] = { 0 }, i;
	struct timespec pause = { (time_t)interval,
				  (long)((interval - (double)(time_t)interval) * 1e9) };
	long k;

	if (!getenv("ZE_ENABLE_ALT_DRIVERS") && getenv("ZEX_LIBZEX"))
		setenv("ZE_ENABLE_ALT_DRIVERS", getenv("ZEX_LIBZEX"), 1);
	if (load_sysman())
		return 1;
	if (zes.Init && zes.DriverGet && zes.DeviceGet) {
		if (zes.Init(0) || zes.DriverGet(&n, &drv) || !n ||
		    (n = 1, zes.DeviceGet(drv, &n, &dev)) || !n) {
			fprintf(stderr, "zex-info: Sysman found no device\n");
			return 2;
		}
	} else {
		ze_driver_handle_t core_drv;
		ze_device_handle_t core_dev;

		/* Sysman through the core's handles, as loaders before 1.5's zesInit did. */
		setenv("ZES_ENABLE_SYSMAN", "1", 1);
		if (zes.CoreInit(0) || zes.CoreDriverGet(&n, &core_drv) || !n ||
		    (n = 1, zes.CoreDeviceGet(core_drv, &n, &core_dev)) || !n) {
			fprintf(stderr, "zex-info: the loader found no device\n");
			return 2;
		}
		dev = (zes_device_handle_t)core_dev;
	}
	if (zes.DeviceEnumEngineGroups(dev, &nengines, handles))
		nengines = 0;
	for (i = 0; i < nengines; i++) {
		engines[i].h = handles[i];
		engine_name(&engines[i], counts);
		zes.EngineGetActivity(handles[i], &engines[i].last);
	}
	for (k = 0; count <= 0 || k < count; k++) {
		nanosleep(&pause, NULL);
		print_sample(dev, engines, nengines);
	}
	return 0;
}
