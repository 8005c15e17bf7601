// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Copyright © 2026 The zex authors
 */

/*
 * DOC: zex_libzex_sysman_test.c - kselftest of libzex's Sysman against what the kernel counts
 *
 * zesInit and the core's handles are one device; its tiles are
 * sub-devices whose UUIDs are the core's and lead back to them. Each tile
 * is a memory module of its size whose free bytes fall by an allocation
 * made on it and come back when it is freed; every engine of the kernel
 * is an engine group whose activity grows when copies run on that class
 * of engine, beside each tile's and the device's group of each class; each tile has one read-only scheduler per engine class in
 * timeout mode with the module's job timeout; this process is among the
 * device's processes with its device memory and the engines it used,
 * and a second process is seen too (a count too small for both is
 * refused with the count needed); what an emulated GPU has none of is
 * zero domains, and bad handles and pointers get their errors.
 */

#include <sys/wait.h>

#include "zex_selftest.h"
#include "zex/zex_api.h"
#include "zex/zex_zes_api.h"

#define MIB	(1ull << 20)

FIXTURE(sm) {
	zes_driver_handle_t drv;
	zes_device_handle_t dev;
	ze_context_handle_t ctx;
	uint32_t tiles;
};

FIXTURE_SETUP(sm)
{
	ze_context_desc_t cd = { .stype = ZE_STRUCTURE_TYPE_CONTEXT_DESC };
	uint32_t n = 1;

	if (zesInit(0) || zesDriverGet(&n, &self->drv) || !n)
		SKIP(return, "no zex driver");
	n = 1;
	ASSERT_EQ(ZE_RESULT_SUCCESS, zesDeviceGet(self->drv, &n, &self->dev));
	ASSERT_EQ(1u, n);
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeContextCreate((ze_driver_handle_t)self->drv, &cd,
						     &self->ctx));
	self->tiles = (uint32_t)zex_param("tiles");
}

FIXTURE_TEARDOWN(sm)
{
	if (self->ctx)
		zeContextDestroy(self->ctx);
}

/* Copy @size bytes device to device on the root device's copy engine, and wait. */
static void copy_on_device(struct __test_metadata *_metadata, ze_context_handle_t ctx,
			   ze_device_handle_t dev, size_t size)
{
	ze_device_mem_alloc_desc_t dd = { .stype = ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC };
	ze_command_queue_desc_t qd = { .stype = ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC,
				       .ordinal = 1, .mode = ZE_COMMAND_QUEUE_MODE_SYNCHRONOUS };
	ze_command_list_handle_t list;
	void *a, *b;

	ASSERT_EQ(ZE_RESULT_SUCCESS, zeMemAllocDevice(ctx, &dd, size, 0, dev, &a));
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeMemAllocDevice(ctx, &dd, size, 0, dev, &b));
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeCommandListCreateImmediate(ctx, dev, &qd, &list));
	EXPECT_EQ(ZE_RESULT_SUCCESS, zeCommandListAppendMemoryCopy(list, b, a, size, NULL, 0,
								   NULL));
	EXPECT_EQ(ZE_RESULT_SUCCESS, zeCommandListHostSynchronize(list, UINT64_MAX));
	zeCommandListDestroy(list);
	zeMemFree(ctx, a);
	zeMemFree(ctx, b);
}

TEST_F(sm, the_device_is_the_cores_and_its_tiles_are_sub_devices)
{
	zes_device_ext_properties_t ext = { .stype = ZES_STRUCTURE_TYPE_DEVICE_EXT_PROPERTIES };
	zes_device_properties_t p = { .stype = ZES_STRUCTURE_TYPE_DEVICE_PROPERTIES,
				      .pNext = &ext };
	zes_subdevice_exp_properties_t sub[8];
	ze_device_handle_t core_subs[8];
	zes_device_handle_t found;
	uint32_t n = 0, i, id;
	ze_bool_t on_sub;

	ASSERT_EQ(ZE_RESULT_SUCCESS, zesDeviceGetProperties(self->dev, &p));
	EXPECT_EQ(ZE_DEVICE_TYPE_GPU, p.core.type);
	EXPECT_STREQ("zex", p.vendorName);
	EXPECT_STREQ("unknown", p.serialNumber);
	EXPECT_EQ(0, memcmp(ext.uuid.id, p.core.uuid.id, ZES_MAX_UUID_SIZE));
	/* Every tile, as the core's root device has them (one tile too). */
	EXPECT_EQ(self->tiles, p.numSubdevices);

	/* The root device's UUID leads to it, on no sub-device. */
	ASSERT_EQ(ZE_RESULT_SUCCESS, zesDriverGetDeviceByUuidExp(self->drv, ext.uuid, &found,
								 &on_sub, &id));
	EXPECT_EQ(self->dev, found);
	EXPECT_FALSE(on_sub);

	ASSERT_EQ(ZE_RESULT_SUCCESS, zesDeviceGetSubDevicePropertiesExp(self->dev, &n, NULL));
	ASSERT_EQ(p.numSubdevices, n);
	if (!n)
		return;
	ASSERT_EQ(ZE_RESULT_SUCCESS, zesDeviceGetSubDevicePropertiesExp(self->dev, &n, sub));
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeDeviceGetSubDevices((ze_device_handle_t)self->dev, &n,
							   core_subs));
	for (i = 0; i < n; i++) {
		ze_device_properties_t core = { .stype = ZE_STRUCTURE_TYPE_DEVICE_PROPERTIES };

		ASSERT_EQ(ZE_RESULT_SUCCESS, zeDeviceGetProperties(core_subs[i], &core));
		EXPECT_EQ(i, sub[i].subdeviceId);
		EXPECT_EQ(0, memcmp(core.uuid.id, sub[i].uuid.id, ZES_MAX_UUID_SIZE));
		EXPECT_NE(0, memcmp(ext.uuid.id, sub[i].uuid.id, ZES_MAX_UUID_SIZE));
		ASSERT_EQ(ZE_RESULT_SUCCESS,
			  zesDriverGetDeviceByUuidExp(self->drv, sub[i].uuid, &found, &on_sub,
						      &id));
		EXPECT_EQ(self->dev, found);
		EXPECT_TRUE(on_sub);
		EXPECT_EQ(i, id);
	}
}

TEST_F(sm, each_tile_is_a_memory_module_whose_free_bytes_follow_allocations)
{
	ze_device_mem_alloc_desc_t dd = { .stype = ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC };
	zes_mem_handle_t mems[8];
	ze_device_handle_t subs[8];
	uint32_t n = 0, i, nsub = 8;
	void *p;

	ASSERT_EQ(ZE_RESULT_SUCCESS, zesDeviceEnumMemoryModules(self->dev, &n, NULL));
	ASSERT_EQ(self->tiles, n);
	ASSERT_EQ(ZE_RESULT_SUCCESS, zesDeviceEnumMemoryModules(self->dev, &n, mems));
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeDeviceGetSubDevices((ze_device_handle_t)self->dev, &nsub,
							   subs));
	for (i = 0; i < n; i++) {
		zes_mem_properties_t mp = { .stype = ZES_STRUCTURE_TYPE_MEM_PROPERTIES };
		zes_mem_state_t before = { .stype = ZES_STRUCTURE_TYPE_MEM_STATE }, during, after;
		ze_device_handle_t on = nsub ? subs[i] : (ze_device_handle_t)self->dev;

		ASSERT_EQ(ZE_RESULT_SUCCESS, zesMemoryGetProperties(mems[i], &mp));
		EXPECT_EQ(ZES_MEM_LOC_DEVICE, mp.location);
		EXPECT_EQ((long long)mp.physicalSize, zex_tile_attr(i, "mem_size"));
		EXPECT_TRUE(mp.onSubdevice);
		EXPECT_EQ(i, mp.subdeviceId);
		during = after = before;
		ASSERT_EQ(ZE_RESULT_SUCCESS, zesMemoryGetState(mems[i], &before));
		EXPECT_EQ(mp.physicalSize, before.size);
		EXPECT_EQ(ZES_MEM_HEALTH_OK, before.health);
		ASSERT_EQ(ZE_RESULT_SUCCESS, zeMemAllocDevice(self->ctx, &dd, 8 * MIB, 0, on, &p));
		ASSERT_EQ(ZE_RESULT_SUCCESS, zesMemoryGetState(mems[i], &during));
		EXPECT_EQ(before.free - 8 * MIB, during.free);
		ASSERT_EQ(ZE_RESULT_SUCCESS, zeMemFree(self->ctx, p));
		ASSERT_EQ(ZE_RESULT_SUCCESS, zesMemoryGetState(mems[i], &after));
		EXPECT_EQ(before.free, after.free);
	}
	/* A tile's own handle lists its module alone. */
	if (nsub >= 2) {
		n = 0;
		ASSERT_EQ(ZE_RESULT_SUCCESS,
			  zesDeviceEnumMemoryModules((zes_device_handle_t)subs[1], &n, mems));
		ASSERT_EQ(1u, n);
	}
}

TEST_F(sm, engine_activity_grows_when_copies_run)
{
	zes_engine_handle_t engines[128];
	uint64_t busy_before = 0, busy_after = 0, ts_before = 0, ts_after = 0;
	uint32_t n = 0, i, copies = 0, root_own = 0, groups = 0, device_groups = 0;

	ASSERT_EQ(ZE_RESULT_SUCCESS, zesDeviceEnumEngineGroups(self->dev, &n, NULL));
	ASSERT_LE(n, 128u);
	ASSERT_EQ(ZE_RESULT_SUCCESS, zesDeviceEnumEngineGroups(self->dev, &n, engines));
	for (i = 0; i < n; i++) {
		zes_engine_properties_t ep = { .stype = ZES_STRUCTURE_TYPE_ENGINE_PROPERTIES };
		zes_engine_stats_t st;

		ASSERT_EQ(ZE_RESULT_SUCCESS, zesEngineGetProperties(engines[i], &ep));
		if (ep.type == ZES_ENGINE_GROUP_COPY_ALL || ep.type == ZES_ENGINE_GROUP_COMPUTE_ALL) {
			groups++;
			device_groups += !ep.onSubdevice;
		} else {
			EXPECT_TRUE(ep.type == ZES_ENGINE_GROUP_COPY_SINGLE ||
				    ep.type == ZES_ENGINE_GROUP_COMPUTE_SINGLE);
			root_own += !ep.onSubdevice;
		}
		if (ep.type != ZES_ENGINE_GROUP_COPY_SINGLE)
			continue;
		copies++;
		ASSERT_EQ(ZE_RESULT_SUCCESS, zesEngineGetActivity(engines[i], &st));
		busy_before += st.activeTime;
		ts_before = st.timestamp;
	}
	/* Two copy engines a tile; the root device's own compute engine. */
	EXPECT_EQ(2 * self->tiles, copies);
	EXPECT_EQ(zex_implicit_scaling() ? 1u : 0u, root_own);
	/* Each tile's compute and copy groups, and the device's. */
	EXPECT_EQ(2 * (self->tiles + 1), groups);
	EXPECT_EQ(2u, device_groups);

	copy_on_device(_metadata, self->ctx, (ze_device_handle_t)self->dev, 4 * MIB);
	for (i = 0; i < n; i++) {
		zes_engine_properties_t ep = { .stype = ZES_STRUCTURE_TYPE_ENGINE_PROPERTIES };
		zes_engine_stats_t st;

		ASSERT_EQ(ZE_RESULT_SUCCESS, zesEngineGetProperties(engines[i], &ep));
		if (ep.type != ZES_ENGINE_GROUP_COPY_SINGLE)
			continue;
		ASSERT_EQ(ZE_RESULT_SUCCESS, zesEngineGetActivity(engines[i], &st));
		busy_after += st.activeTime;
		ts_after = st.timestamp;
	}
	EXPECT_LT(busy_before, busy_after);
	EXPECT_LT(ts_before, ts_after);
}

TEST_F(sm, schedulers_are_read_only_timeout_mode_with_the_module_timeout)
{
	zes_sched_handle_t scheds[16];
	uint32_t n = 0, i;

	ASSERT_EQ(ZE_RESULT_SUCCESS, zesDeviceEnumSchedulers(self->dev, &n, NULL));
	ASSERT_EQ(2 * self->tiles, n);
	ASSERT_EQ(ZE_RESULT_SUCCESS, zesDeviceEnumSchedulers(self->dev, &n, scheds));
	for (i = 0; i < n; i++) {
		zes_sched_properties_t sp = { .stype = ZES_STRUCTURE_TYPE_SCHED_PROPERTIES };
		zes_sched_timeout_properties_t to = {
			.stype = ZES_STRUCTURE_TYPE_SCHED_TIMEOUT_PROPERTIES };
		zes_sched_mode_t mode;
		ze_bool_t restart;

		ASSERT_EQ(ZE_RESULT_SUCCESS, zesSchedulerGetProperties(scheds[i], &sp));
		EXPECT_FALSE(sp.canControl);
		EXPECT_EQ(1u << ZES_SCHED_MODE_TIMEOUT, sp.supportedModes);
		ASSERT_EQ(ZE_RESULT_SUCCESS, zesSchedulerGetCurrentMode(scheds[i], &mode));
		EXPECT_EQ(ZES_SCHED_MODE_TIMEOUT, mode);
		ASSERT_EQ(ZE_RESULT_SUCCESS,
			  zesSchedulerGetTimeoutModeProperties(scheds[i], 0, &to));
		EXPECT_EQ((uint64_t)zex_param("job_timeout_ms") * 1000, to.watchdogTimeout);
		EXPECT_NE(ZE_RESULT_SUCCESS, zesSchedulerSetTimeoutMode(scheds[i], &to, &restart));
	}
}

TEST_F(sm, processes_are_seen_with_their_memory_and_engines)
{
	ze_device_mem_alloc_desc_t dd = { .stype = ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC };
	zes_process_state_t procs[64];
	uint32_t n = 0, i, one = 1;
	int ready[2], go[2], status;
	bool me = false, child = false;
	pid_t pid;
	char c;
	void *p;

	ASSERT_EQ(0, pipe(ready));
	ASSERT_EQ(0, pipe(go));
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		int fd;

		/*
		 * Its own file of the node alone: fork shared this process's
		 * files (the same clients, counted for both), which go.
		 */
		for (fd = 3; fd < 1024; fd++)
			if (fd != ready[1] && fd != go[0])
				close(fd);
		fd = zex_open_render();
		/* Holds the node open until told to go. */
		if (write(ready[1], "r", 1) != 1 || read(go[0], &c, 1) != 1)
			_exit(2);
		_exit(fd < 0);
	}
	ASSERT_EQ(1, read(ready[0], &c, 1));

	ASSERT_EQ(ZE_RESULT_SUCCESS, zeMemAllocDevice(self->ctx, &dd, 4 * MIB, 0,
						      (ze_device_handle_t)self->dev, &p));
	copy_on_device(_metadata, self->ctx, (ze_device_handle_t)self->dev, MIB);
	ASSERT_EQ(ZE_RESULT_SUCCESS, zesDeviceProcessesGetState(self->dev, &n, NULL));
	EXPECT_LE(2u, n);
	/* Room for one of two: the count needed, and an error. */
	EXPECT_EQ(ZE_RESULT_ERROR_INVALID_SIZE,
		  zesDeviceProcessesGetState(self->dev, &one, procs));
	EXPECT_EQ(n, one);
	n = 64;
	ASSERT_EQ(ZE_RESULT_SUCCESS, zesDeviceProcessesGetState(self->dev, &n, procs));
	for (i = 0; i < n; i++) {
		if (procs[i].processId == (uint32_t)getpid()) {
			me = true;
			EXPECT_LE(4 * MIB, procs[i].memSize);
			EXPECT_TRUE(procs[i].engines & ZES_ENGINE_TYPE_FLAG_DMA);
		} else if (procs[i].processId == (uint32_t)pid) {
			child = true;
			EXPECT_EQ(0u, procs[i].memSize);
			EXPECT_EQ(0u, procs[i].engines);
		}
	}
	EXPECT_TRUE(me);
	EXPECT_TRUE(child);
	ASSERT_EQ(1, write(go[1], "g", 1));
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_EQ(0, WEXITSTATUS(status));
	zeMemFree(self->ctx, p);
}

TEST_F(sm, what_an_emulated_gpu_has_none_of_is_zero_domains)
{
	typedef ze_result_t (*enum_fn)(zes_device_handle_t, uint32_t *, void *);
	static const struct {
		enum_fn fn;
		const char *name;
	} none[] = {
#define NONE(f) { (enum_fn)f, #f }
		NONE(zesDeviceEnumFans), NONE(zesDeviceEnumPowerDomains),
		NONE(zesDeviceEnumTemperatureSensors), NONE(zesDeviceEnumFrequencyDomains),
		NONE(zesDeviceEnumFirmwares), NONE(zesDeviceEnumLeds), NONE(zesDeviceEnumPsus),
		NONE(zesDeviceEnumRasErrorSets), NONE(zesDeviceEnumStandbyDomains),
		NONE(zesDeviceEnumDiagnosticTestSuites), NONE(zesDeviceEnumFabricPorts),
		NONE(zesDeviceEnumPerformanceFactorDomains),
#undef NONE
	};
	zes_pci_properties_t pci = { .stype = ZES_STRUCTURE_TYPE_PCI_PROPERTIES };
	ze_bool_t avail = 1;
	uint32_t n, i;

for (i = 0; i < sizeof(none) / sizeof(none[0]); i++) {
		n = 7;
		EXPECT_EQ(ZE_RESULT_SUCCESS, none[i].fn(self->dev, &n, NULL))
			TH_LOG("%s", none[i].name);
		EXPECT_EQ(0u, n)
			TH_LOG("%s", none[i].name);
	}
	EXPECT_EQ(ZE_RESULT_SUCCESS, zesDeviceEccAvailable(self->dev, &avail));
	EXPECT_FALSE(avail);
	EXPECT_EQ(ZE_RESULT_ERROR_UNSUPPORTED_FEATURE, zesDevicePciGetProperties(self->dev, &pci));
}

TEST_F(sm, bad_handles_and_pointers_are_refused)
{
	zes_mem_properties_t mp = { .stype = ZES_STRUCTURE_TYPE_MEM_PROPERTIES };
	zes_engine_stats_t st;
	uint64_t bogus[8] = { 0 };
	zes_engine_handle_t e;
	uint32_t n = 1;

	EXPECT_EQ(ZE_RESULT_ERROR_INVALID_NULL_HANDLE,
		  zesMemoryGetProperties((zes_mem_handle_t)bogus, &mp));
	EXPECT_EQ(ZE_RESULT_ERROR_INVALID_NULL_HANDLE,
		  zesEngineGetActivity((zes_engine_handle_t)bogus, &st));
	EXPECT_EQ(ZE_RESULT_ERROR_INVALID_NULL_HANDLE,
		  zesDeviceEnumEngineGroups((zes_device_handle_t)bogus, &n, &e));
	EXPECT_EQ(ZE_RESULT_ERROR_INVALID_NULL_POINTER,
		  zesDeviceEnumEngineGroups(self->dev, NULL, &e));
	EXPECT_EQ(ZE_RESULT_ERROR_INVALID_NULL_POINTER,
		  zesDeviceProcessesGetState(self->dev, NULL, NULL));
	ASSERT_EQ(ZE_RESULT_SUCCESS, zesDeviceEnumEngineGroups(self->dev, &n, &e));
	EXPECT_EQ(ZE_RESULT_ERROR_INVALID_NULL_POINTER, zesEngineGetActivity(e, NULL));
	EXPECT_EQ(ZE_RESULT_ERROR_INVALID_ENUMERATION, zesInit(2));
}

ZEX_SELFTEST_MAIN
