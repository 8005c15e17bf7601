// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Copyright © 2026 The zex authors
 */

/*
 * DOC: zex_l0_ddi_test.c - dispatch through libzex's DDI handles, no loader
 *
 * Does what a DDI-aware loader (1.23 and later) does: dlopens libzex.so,
 * reaches zeInit and zeDriverGet through the exported tables, checks the
 * driver's DDI-handles extension and flag, and from then on calls every
 * function as handle->pCore->Table->pfnCall(handle, ...) after the loader's
 * checks (valid flag, version, table, entry). It also checks that every
 * handle carries the same containers, that no entry of any table is NULL,
 * that the containers hold exactly the tables zeGet*ProcAddrTable hands
 * out, and that those exports refuse a NULL table and a wrong version.
 */

#include <dlfcn.h>
#include <stdint.h>
#include <stdlib.h>

#include "zex_selftest.h"
#include "zex/zex_api.h"
#include "zex/zex_ddi.h"

#define K64	65536ull

/*
 * A DDI-aware loader's dispatch: the call's result, or the loader's answer
 * when the driver's container cannot take it.
 */
#define DDI_CALL(h, api, table, entry, min_version, ...)			\
	({									\
		const ze_handle_t *_h = (const ze_handle_t *)(h);		\
		ze_result_t _r;							\
		if (!_h->api->isValidFlag)					\
			_r = ZE_RESULT_ERROR_UNINITIALIZED;			\
		else if (_h->api->version < (min_version))			\
			_r = ZE_RESULT_ERROR_UNSUPPORTED_VERSION;		\
		else if (!_h->api->table || !_h->api->table->entry)		\
			_r = ZE_RESULT_ERROR_UNINITIALIZED;			\
		else								\
			_r = _h->api->table->entry(__VA_ARGS__);		\
		_r;								\
	})

#define CORE(h, table, entry, ...) \
	DDI_CALL(h, pCore, table, entry, ZE_API_VERSION_1_0, __VA_ARGS__)

FIXTURE(ddi) {
	void *lib;
	ze_driver_handle_t drv;
	ze_device_handle_t root;
	ze_device_handle_t tiles[DRM_ZEX_MAX_TILES];
	uint32_t num_tiles;
	ze_context_handle_t ctx;
};

FIXTURE_SETUP(ddi)
{
	const char *path = getenv("ZEX_LIBZEX");
	ze_pfnGetGlobalProcAddrTable_t get_global;
	ze_pfnGetDriverProcAddrTable_t get_driver;
	ze_context_desc_t cd = { .stype = ZE_STRUCTURE_TYPE_CONTEXT_DESC };
	ze_global_dditable_t global = { 0 };
	ze_driver_dditable_t driver = { 0 };
	uint32_t n = 1;

	self->lib = dlopen(path ? path : "/opt/zex/lib/libzex.so.0", RTLD_NOW | RTLD_LOCAL);
	ASSERT_NE(NULL, self->lib) TH_LOG("%s", dlerror());
	/* As a loader starts: the exported Global and Driver tables. */
	get_global = (ze_pfnGetGlobalProcAddrTable_t)dlsym(self->lib, "zeGetGlobalProcAddrTable");
	get_driver = (ze_pfnGetDriverProcAddrTable_t)dlsym(self->lib, "zeGetDriverProcAddrTable");
	ASSERT_NE(NULL, get_global);
	ASSERT_NE(NULL, get_driver);
	ASSERT_EQ(ZE_RESULT_SUCCESS, get_global(ZE_API_VERSION_CURRENT, &global));
	ASSERT_EQ(ZE_RESULT_SUCCESS, get_driver(ZE_API_VERSION_CURRENT, &driver));
	ASSERT_EQ(ZE_RESULT_SUCCESS, global.pfnInit(0));
	ASSERT_EQ(ZE_RESULT_SUCCESS, driver.pfnGet(&n, &self->drv));
	ASSERT_EQ(1, n);

	/* From here on, only through the handles. */
	ASSERT_EQ(ZE_RESULT_SUCCESS, CORE(self->drv, Device, pfnGet, self->drv, &n, &self->root));
	self->num_tiles = 0;
	ASSERT_EQ(ZE_RESULT_SUCCESS, CORE(self->root, Device, pfnGetSubDevices, self->root,
					  &self->num_tiles, NULL));
	ASSERT_EQ(ZE_RESULT_SUCCESS, CORE(self->root, Device, pfnGetSubDevices, self->root,
					  &self->num_tiles, self->tiles));
	ASSERT_EQ(ZE_RESULT_SUCCESS, CORE(self->drv, Context, pfnCreate, self->drv, &cd,
					  &self->ctx));
}

FIXTURE_TEARDOWN(ddi)
{
	if (self->ctx)
		EXPECT_EQ(ZE_RESULT_SUCCESS, CORE(self->ctx, Context, pfnDestroy, self->ctx));
	/* libzex stays loaded: the test process ends here. */
}

/* No entry of a table may be NULL (the tables are arrays of pointers). */
static int null_entries(const void *table, size_t size)
{
	void (*const *e)(void) = table;
	size_t i;
	int n = 0;

	for (i = 0; i < size / sizeof(*e); i++)
		n += !e[i];
	return n;
}

#define CHECK_TABLE(c, t) do {						\
		ASSERT_NE(NULL, (c)->t) TH_LOG("table " #t);		\
		EXPECT_EQ(0, null_entries((c)->t, sizeof(*(c)->t)))	\
			TH_LOG("table " #t);				\
	} while (0)

TEST_F(ddi, every_handle_carries_complete_containers)
{
	const void *handles[3 + DRM_ZEX_MAX_TILES] = { self->drv, self->root, self->ctx };
	const ze_handle_t *d = (const ze_handle_t *)self->drv;
	const ze_dditable_driver_t *core = d->pCore;
	const zet_dditable_driver_t *tools = d->pTools;
	const zes_dditable_driver_t *sysman = d->pSysman;
	uint32_t i, n = 3;

	ASSERT_EQ((uint32_t)zex_param("tiles"), self->num_tiles);
	for (i = 0; i < self->num_tiles; i++)
		handles[n++] = self->tiles[i];
	for (i = 0; i < n; i++) {
		const ze_handle_t *h = handles[i];

		EXPECT_EQ(core, h->pCore);
		EXPECT_EQ(tools, h->pTools);
		EXPECT_EQ(sysman, h->pSysman);
	}
	ASSERT_NE(NULL, core);
	ASSERT_NE(NULL, tools);
	ASSERT_NE(NULL, sysman);
	EXPECT_EQ(1, core->isValidFlag);
	EXPECT_EQ(1, tools->isValidFlag);
	EXPECT_EQ(1, sysman->isValidFlag);
	EXPECT_EQ(ZE_MAKE_VERSION(1, 15), core->version);
	EXPECT_EQ(ZE_MAKE_VERSION(1, 15), tools->version);
	EXPECT_EQ(ZE_MAKE_VERSION(1, 15), sysman->version);

	CHECK_TABLE(core, Global);
	CHECK_TABLE(core, Driver);
	CHECK_TABLE(core, Device);
	CHECK_TABLE(core, DeviceExp);
	CHECK_TABLE(core, Context);
	CHECK_TABLE(core, CommandQueue);
	CHECK_TABLE(core, CommandList);
	CHECK_TABLE(core, Image);
	CHECK_TABLE(core, ImageExp);
	CHECK_TABLE(core, Mem);
	CHECK_TABLE(core, Fence);
	CHECK_TABLE(core, EventPool);
	CHECK_TABLE(core, Event);
	CHECK_TABLE(core, EventExp);
	CHECK_TABLE(core, Module);
	CHECK_TABLE(core, ModuleBuildLog);
	CHECK_TABLE(core, Kernel);
	CHECK_TABLE(core, KernelExp);
	CHECK_TABLE(core, Sampler);
	CHECK_TABLE(core, PhysicalMem);
	CHECK_TABLE(core, VirtualMem);
	CHECK_TABLE(core, FabricVertexExp);
	CHECK_TABLE(core, FabricEdgeExp);
	CHECK_TABLE(tools, Device);
	CHECK_TABLE(tools, Context);
	CHECK_TABLE(tools, CommandList);
	CHECK_TABLE(tools, Module);
	CHECK_TABLE(tools, Kernel);
	CHECK_TABLE(tools, Metric);
	CHECK_TABLE(tools, MetricGroup);
	CHECK_TABLE(tools, MetricGroupExp);
	CHECK_TABLE(tools, MetricStreamer);
	CHECK_TABLE(tools, MetricQueryPool);
	CHECK_TABLE(tools, MetricQuery);
	CHECK_TABLE(tools, TracerExp);
	CHECK_TABLE(tools, Debug);
	CHECK_TABLE(sysman, Device);
	CHECK_TABLE(sysman, Driver);
	CHECK_TABLE(sysman, Scheduler);
	CHECK_TABLE(sysman, PerformanceFactor);
	CHECK_TABLE(sysman, Power);
	CHECK_TABLE(sysman, Frequency);
	CHECK_TABLE(sysman, Engine);
	CHECK_TABLE(sysman, Standby);
	CHECK_TABLE(sysman, Firmware);
	CHECK_TABLE(sysman, Memory);
	CHECK_TABLE(sysman, FabricPort);
	CHECK_TABLE(sysman, Temperature);
	CHECK_TABLE(sysman, Psu);
	CHECK_TABLE(sysman, Fan);
	CHECK_TABLE(sysman, Led);
	CHECK_TABLE(sysman, Ras);
	CHECK_TABLE(sysman, Diagnostics);
	/* The tables of API 1.5 to 1.15, which the 1.4 headers lack. */
	EXPECT_NE(NULL, core->RTASBuilder);
	EXPECT_NE(NULL, core->RTASParallelOperation);
	EXPECT_NE(NULL, tools->CommandListExp);
	EXPECT_NE(NULL, core->RTASBuilderExp);
	EXPECT_NE(NULL, core->RTASParallelOperationExp);
	EXPECT_NE(NULL, core->DriverExp);
	EXPECT_NE(NULL, core->CommandListExp);
	EXPECT_NE(NULL, core->MemExp);
	EXPECT_NE(NULL, tools->MetricProgrammableExp);
	EXPECT_NE(NULL, tools->MetricTracerExp);
	EXPECT_NE(NULL, tools->MetricDecoderExp);
	EXPECT_NE(NULL, tools->DeviceExp);
	EXPECT_NE(NULL, tools->MetricExp);
	EXPECT_NE(NULL, sysman->Global);
	EXPECT_NE(NULL, sysman->DeviceExp);
	EXPECT_NE(NULL, sysman->DriverExp);
	EXPECT_NE(NULL, sysman->Overclock);
	EXPECT_NE(NULL, sysman->FirmwareExp);
	EXPECT_NE(NULL, sysman->RasExp);
	EXPECT_NE(NULL, sysman->VFManagementExp);
	/* Tables newer than 1.15 stay NULL: a loader refuses their calls first. */
	EXPECT_EQ(NULL, core->Graph);
	EXPECT_EQ(NULL, core->ExecutableGraph);
}

TEST_F(ddi, containers_hold_what_the_exports_hand_out)
{
	const ze_handle_t *h = (const ze_handle_t *)self->ctx;
	ze_pfnGetMemProcAddrTable_t get_mem =
		(ze_pfnGetMemProcAddrTable_t)dlsym(self->lib, "zeGetMemProcAddrTable");
	zet_pfnGetDeviceProcAddrTable_t get_tools_dev =
		(zet_pfnGetDeviceProcAddrTable_t)dlsym(self->lib, "zetGetDeviceProcAddrTable");
	zes_pfnGetDeviceProcAddrTable_t get_sysman_dev =
		(zes_pfnGetDeviceProcAddrTable_t)dlsym(self->lib, "zesGetDeviceProcAddrTable");
	ze_mem_dditable_t mem;
	zet_device_dditable_t tdev;
	zes_device_dditable_t sdev;

	ASSERT_NE(NULL, get_mem);
	ASSERT_NE(NULL, get_tools_dev);
	ASSERT_NE(NULL, get_sysman_dev);
	ASSERT_EQ(ZE_RESULT_SUCCESS, get_mem(ZE_API_VERSION_CURRENT, &mem));
	EXPECT_EQ(0, memcmp(&mem, h->pCore->Mem, sizeof(mem)));
	ASSERT_EQ(ZE_RESULT_SUCCESS, get_tools_dev(ZE_API_VERSION_CURRENT, &tdev));
	EXPECT_EQ(0, memcmp(&tdev, h->pTools->Device, sizeof(tdev)));
	ASSERT_EQ(ZE_RESULT_SUCCESS, get_sysman_dev(ZE_API_VERSION_CURRENT, &sdev));
	EXPECT_EQ(0, memcmp(&sdev, h->pSysman->Device, sizeof(sdev)));

	/* The exports' own checks. */
	EXPECT_EQ(ZE_RESULT_ERROR_INVALID_NULL_POINTER, get_mem(ZE_API_VERSION_CURRENT, NULL));
	EXPECT_EQ(ZE_RESULT_ERROR_UNSUPPORTED_VERSION, get_mem(ZE_MAKE_VERSION(2, 0), &mem));
	EXPECT_EQ(ZE_RESULT_ERROR_UNSUPPORTED_VERSION, get_mem(ZE_API_VERSION_1_3, &mem));
	/* A newer minor (a bigger table) gets libzex's entries. */
	EXPECT_EQ(ZE_RESULT_SUCCESS, get_mem(ZE_MAKE_VERSION(1, 16), &mem));
}

TEST_F(ddi, driver_advertises_ddi_handles)
{
	ze_driver_ddi_handles_ext_properties_t ddi = {
		.stype = ZE_STRUCTURE_TYPE_DRIVER_DDI_HANDLES_EXT_PROPERTIES,
	};
	ze_driver_properties_t props = { .stype = ZE_STRUCTURE_TYPE_DRIVER_PROPERTIES,
					 .pNext = &ddi };
	ze_driver_extension_properties_t ext[4];
	uint32_t n = 4, i;
	bool found = false;

	ASSERT_EQ(ZE_RESULT_SUCCESS, CORE(self->drv, Driver, pfnGetExtensionProperties,
					  self->drv, &n, ext));
	for (i = 0; i < n; i++)
		found |= !strcmp(ext[i].name, ZE_DRIVER_DDI_HANDLES_EXT_NAME);
	EXPECT_TRUE(found);
	ASSERT_EQ(ZE_RESULT_SUCCESS, CORE(self->drv, Driver, pfnGetProperties, self->drv, &props));
	EXPECT_EQ(ZE_DRIVER_DDI_HANDLE_EXT_FLAG_DDI_HANDLE_EXT_SUPPORTED, ddi.flags);
}

TEST_F(ddi, memory_and_ipc_through_the_headers)
{
	ze_device_mem_alloc_desc_t dd = { .stype = ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC };
	ze_memory_allocation_properties_t ap = {
		.stype = ZE_STRUCTURE_TYPE_MEMORY_ALLOCATION_PROPERTIES };
	ze_device_properties_t dp = { .stype = ZE_STRUCTURE_TYPE_DEVICE_PROPERTIES };
	ze_ipc_mem_handle_t h[DRM_ZEX_MAX_TILES];
	ze_result_t (*get_handles)(ze_context_handle_t, const void *, uint32_t *,
				   ze_ipc_mem_handle_t *);
	ze_result_t (*open_handles)(ze_context_handle_t, ze_device_handle_t, uint32_t,
				    ze_ipc_mem_handle_t *, ze_ipc_memory_flags_t, void **);
	ze_result_t (*put_handles)(ze_context_handle_t, uint32_t, ze_ipc_mem_handle_t *);
	ze_device_handle_t owner = NULL;
	void *p = NULL, *q = NULL, *fn = NULL;
	size_t size = 8 * K64;
	uint32_t n = 0;

	ASSERT_EQ(ZE_RESULT_SUCCESS, CORE(self->tiles[0], Device, pfnGetProperties,
					  self->tiles[0], &dp));
	EXPECT_TRUE(dp.flags & ZE_DEVICE_PROPERTY_FLAG_SUBDEVICE);
	ASSERT_EQ(ZE_RESULT_SUCCESS, CORE(self->ctx, Mem, pfnAllocDevice, self->ctx, &dd, size,
					  0, self->root, &p));
	zex_fill(p, size, 3);
	ASSERT_EQ(ZE_RESULT_SUCCESS, CORE(self->ctx, Mem, pfnGetAllocProperties, self->ctx, p,
					  &ap, &owner));
	EXPECT_EQ(ZE_MEMORY_TYPE_DEVICE, ap.type);
	EXPECT_EQ(self->root, owner);

	ASSERT_EQ(ZE_RESULT_SUCCESS, CORE(self->drv, Driver, pfnGetExtensionFunctionAddress,
					  self->drv, "zexMemGetIpcHandles", &fn));
	get_handles = (typeof(get_handles))fn;
	ASSERT_EQ(ZE_RESULT_SUCCESS, CORE(self->drv, Driver, pfnGetExtensionFunctionAddress,
					  self->drv, "zexMemOpenIpcHandles", &fn));
	open_handles = (typeof(open_handles))fn;
	ASSERT_EQ(ZE_RESULT_SUCCESS, CORE(self->drv, Driver, pfnGetExtensionFunctionAddress,
					  self->drv, "zexMemPutIpcHandles", &fn));
	put_handles = (typeof(put_handles))fn;
	ASSERT_EQ(ZE_RESULT_SUCCESS, get_handles(self->ctx, p, &n, NULL));
	ASSERT_EQ(ZE_RESULT_SUCCESS, get_handles(self->ctx, p, &n, h));
	/* Opened in the same process: a second mapping of the same memory. */
	ASSERT_EQ(ZE_RESULT_SUCCESS, open_handles(self->ctx, self->root, n, h, 0, &q));
	EXPECT_NE(p, q);
	EXPECT_TRUE(zex_same(q, size, 3));
	EXPECT_EQ(ZE_RESULT_SUCCESS, CORE(self->ctx, Mem, pfnCloseIpcHandle, self->ctx, q));
	EXPECT_EQ(ZE_RESULT_SUCCESS, put_handles(self->ctx, n, h));
	EXPECT_EQ(ZE_RESULT_SUCCESS, CORE(self->ctx, Mem, pfnFree, self->ctx, p));
	EXPECT_EQ(ZE_RESULT_ERROR_INVALID_ARGUMENT, CORE(self->ctx, Mem, pfnFree, self->ctx, p));
}

TEST_F(ddi, unimplemented_entries_are_unsupported)
{
	ze_image_desc_t id = { .stype = ZE_STRUCTURE_TYPE_IMAGE_DESC };
	ze_image_handle_t image;
	uint32_t n = 0;

	EXPECT_EQ(ZE_RESULT_ERROR_UNSUPPORTED_FEATURE,
		  CORE(self->ctx, Image, pfnCreate, self->ctx, self->root, &id, &image));
	EXPECT_EQ(ZE_RESULT_ERROR_UNSUPPORTED_FEATURE,
		  DDI_CALL(self->root, pSysman, Device, pfnEventRegister, ZE_API_VERSION_1_0,
			   self->root, ZES_EVENT_TYPE_FLAG_DEVICE_DETACH));
	EXPECT_EQ(ZE_RESULT_ERROR_UNSUPPORTED_FEATURE,
		  DDI_CALL(self->root, pTools, MetricGroup, pfnGet, ZE_API_VERSION_1_0,
			   self->root, &n, NULL));
	/* A call newer than the driver's version: refused before any table. */
	EXPECT_EQ(ZE_RESULT_ERROR_UNSUPPORTED_VERSION,
		  DDI_CALL(self->root, pCore, Device, pfnGetProperties, ZE_MAKE_VERSION(1, 16),
			   self->root, NULL));
}

int main(int argc, char **argv)
{
	if (access(ZEX_SYSFS_PARAMS "/tiles", R_OK)) {
		ksft_print_header();
		ksft_exit_skip("no zex device (is zex.ko loaded?)\n");
	}
	return test_harness_run(argc, argv);
}
