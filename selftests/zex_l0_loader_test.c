// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Copyright © 2026 The zex authors
 */

/*
 * DOC: zex_l0_loader_test.c - libzex as a Level Zero driver, through real loaders
 *
 * Linked only against libze_loader: the VM runs it under Debian 12's loader
 * (1.8.12, API 1.4) and under loader 1.32.0 (API 1.17, which dispatches
 * through libzex's DDI handles when it intercepts); the loader finds libzex
 * through ZE_ENABLE_ALT_DRIVERS and every call goes through it. The
 * expected topology comes from zex's module parameters in sysfs, so the
 * same program checks every row of the VM's parameter matrix. Every test
 * runs four ways: plain, with the loader's validation layer (which must
 * report nothing on stderr and change no result), with the loader's
 * intercept forced (1.32.0: the DDI-handle path), and with the loader's
 * null driver loaded beside libzex (two drivers: zex must be listed whole;
 * Debian's loader ships no null driver, so there the variable is set and
 * zex must be the one driver all the same).
 * Calls newer than a loader are looked up in it at run time; a loader
 * that lacks one must be older than the call.
 */

#include <dlfcn.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>

#include <level_zero/ze_api.h>

#include "zex_selftest.h"
#include "zex/zex_api.h"
#include "zex/zex_ddi.h"

#define K64	65536ull

static const char *libzex_path(void)
{
	const char *p = getenv("ZEX_LIBZEX");

	return p ? p : "/opt/zex/lib/libzex.so.0";
}

typedef ze_result_t (*get_handles_fn)(ze_context_handle_t, const void *, uint32_t *,
				      ze_ipc_mem_handle_t *);
typedef ze_result_t (*open_handles_fn)(ze_context_handle_t, ze_device_handle_t, uint32_t,
				       ze_ipc_mem_handle_t *, ze_ipc_memory_flags_t, void **);
typedef ze_result_t (*put_handles_fn)(ze_context_handle_t, uint32_t, ze_ipc_mem_handle_t *);
typedef ze_result_t (*send_fn)(int, uint32_t, const ze_ipc_mem_handle_t *);
typedef ze_result_t (*recv_fn)(int, uint32_t *, ze_ipc_mem_handle_t *);

FIXTURE(loader) {
	ze_driver_handle_t drv;
	ze_device_handle_t root;
	ze_device_handle_t tiles[DRM_ZEX_MAX_TILES];
	uint32_t num_tiles;
	ze_context_handle_t ctx;
	FILE *err;		/* what the loader and its layers print */
	int saved_stderr;
	uint32_t num_drivers;
};

FIXTURE_VARIANT(loader) {
	const char *validation;
	const char *intercept;
	const char *null_driver;
};

FIXTURE_VARIANT_ADD(loader, plain) {
	.validation = "0", .intercept = "0", .null_driver = "0" };
FIXTURE_VARIANT_ADD(loader, validation_layer) {
	.validation = "1", .intercept = "0", .null_driver = "0" };
FIXTURE_VARIANT_ADD(loader, loader_intercept) {
	.validation = "0", .intercept = "1", .null_driver = "0" };
FIXTURE_VARIANT_ADD(loader, null_driver_beside) {
	.validation = "0", .intercept = "0", .null_driver = "1" };

/*
 * The loader's API version (zelLoaderGetVersions): 1.4 for Debian's 1.8.12,
 * 1.17 for 1.32.0; with its own version in @lib.
 */
static uint32_t loader_version(uint32_t *lib)
{
	typedef struct {
		char component_name[64];
		uint32_t spec_version;
		struct { int major, minor, patch; } component_lib_version;
	} component_t;
	ze_result_t (*get)(size_t *, component_t *) =
		(ze_result_t (*)(size_t *, component_t *))dlsym(RTLD_DEFAULT,
								 "zelLoaderGetVersions");
	component_t c[8];
	size_t n = 8, i;

	if (!get || get(&n, c))
		return 0;
	for (i = 0; i < n && i < 8; i++)
		if (!strcmp(c[i].component_name, "loader")) {
			if (lib)
				*lib = ZE_MAKE_VERSION(c[i].component_lib_version.major,
						       c[i].component_lib_version.minor);
			return c[i].spec_version;
		}
	return 0;
}

/* A call of the API the loader may be too old to have. */
static void *loader_call(const char *name)
{
	return dlsym(RTLD_DEFAULT, name);
}

/*
 * Whether the loader ships a null driver: libze_null.so.1 beside it, where
 * loader 1.32.0 opens it. Debian's 1.8.12 ships none; there the null-driver
 * variant checks that the variable alone changes nothing.
 */
static bool loader_has_null_driver(void)
{
	char path[PATH_MAX];
	Dl_info info;
	char *slash;

	if (!dladdr(dlsym(RTLD_DEFAULT, "zeInit"), &info) || !info.dli_fname)
		return false;
	snprintf(path, sizeof(path), "%s", info.dli_fname);
	slash = strrchr(path, '/');
	if (!slash)
		return false;
	snprintf(slash + 1, sizeof(path) - (size_t)(slash + 1 - path), "libze_null.so.1");
	return !access(path, R_OK);
}

/* Whether @drv is zex's: it lists the multiple IPC handles extension. */
static bool is_zex(ze_driver_handle_t drv)
{
	ze_driver_extension_properties_t ext[16];
	uint32_t n = 16, i;

	if (zeDriverGetExtensionProperties(drv, &n, ext))
		return false;
	for (i = 0; i < n && i < 16; i++)
		if (!strcmp(ext[i].name, ZEX_MEM_IPC_HANDLES_NAME))
			return true;
	return false;
}

/* A line on the test's real stderr (the fixture keeps stderr for the loader's). */
#define note(self, fmt, ...) dprintf((self)->saved_stderr, "# " fmt "\n", ##__VA_ARGS__)

/*
 * zeInit in the calling process, with the variant's environment; for the
 * IPC child too, which must call zeInit after fork.
 */
static int loader_open(struct _test_data_loader *self,
		       const struct _fixture_variant_loader *variant)
{
	ze_context_desc_t cd = { .stype = ZE_STRUCTURE_TYPE_CONTEXT_DESC };
	ze_driver_handle_t drivers[4];
	uint32_t n = 4, i, zex = 0;

	setenv("ZE_ENABLE_ALT_DRIVERS", libzex_path(), 1);
	setenv("ZE_ENABLE_VALIDATION_LAYER", variant->validation, 1);
	setenv("ZE_ENABLE_PARAMETER_VALIDATION", variant->validation, 1);
	setenv("ZE_ENABLE_LOADER_INTERCEPT", variant->intercept, 1);
	setenv("ZE_ENABLE_NULL_DRIVER", variant->null_driver, 1);
	if (zeInit(0) || zeDriverGet(&n, drivers))
		return -1;
	/* libzex, and the null driver beside it when asked for. */
	self->num_drivers = n;
	if (n != (!strcmp(variant->null_driver, "1") && loader_has_null_driver() ? 2u : 1u))
		return -2;
	for (i = 0; i < n; i++)
		if (is_zex(drivers[i])) {
			self->drv = drivers[i];
			zex++;
		}
	if (zex != 1)
		return -3;
	n = 1;
	if (zeDeviceGet(self->drv, &n, &self->root) || n != 1)
		return -1;
	self->num_tiles = 0;
	if (zeDeviceGetSubDevices(self->root, &self->num_tiles, NULL) ||
	    zeDeviceGetSubDevices(self->root, &self->num_tiles, self->tiles))
		return -1;
	return zeContextCreate(self->drv, &cd, &self->ctx) ? -1 : 0;
}

FIXTURE_SETUP(loader)
{
	int ret;

	/* The loader's and the layers' messages go to a file, read at the end. */
	self->err = tmpfile();
	ASSERT_NE(NULL, self->err);
	fflush(stderr);
	self->saved_stderr = dup(2);
	ASSERT_EQ(2, dup2(fileno(self->err), 2));
	ret = loader_open(self, variant);
	if (ret)
		note(self, "loader_open: %d (%u drivers)", ret, self->num_drivers);
	ASSERT_EQ(0, ret);
}

FIXTURE_TEARDOWN(loader)
{
	char line[512];
	int lines = 0;

	if (self->ctx)
		EXPECT_EQ(ZE_RESULT_SUCCESS, zeContextDestroy(self->ctx));
	fflush(stderr);
	dup2(self->saved_stderr, 2);
	rewind(self->err);
	while (fgets(line, sizeof(line), self->err)) {
		TH_LOG("stderr: %s", line);
		lines++;
	}
	EXPECT_EQ(0, lines);
}

static void *get_fn(struct _test_data_loader *self, const char *name)
{
	void *fn = NULL;

	return zeDriverGetExtensionFunctionAddress(self->drv, name, &fn) ? NULL : fn;
}

static void *alloc_device(struct _test_data_loader *self, ze_device_handle_t dev, size_t size)
{
	ze_device_mem_alloc_desc_t d = { .stype = ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC };
	void *p = NULL;

	return zeMemAllocDevice(self->ctx, &d, size, 0, dev, &p) ? NULL : p;
}

TEST_F(loader, driver_version_properties_and_extensions)
{
	ze_driver_ddi_handles_ext_properties_t ddi = {
		.stype = ZE_STRUCTURE_TYPE_DRIVER_DDI_HANDLES_EXT_PROPERTIES,
	};
	ze_driver_properties_t props = { .stype = ZE_STRUCTURE_TYPE_DRIVER_PROPERTIES,
					 .pNext = &ddi };
	ze_driver_extension_properties_t ext[12];
	bool ddi_ext = false, ipc_ext = false, memmap_ext = false, ro_ext = false;
	bool offset_ext = false, ts_ext = false, free_ext = false, cb_pool_ext = false;
	bool luid_ext = false, mem_ext = false;
	ze_api_version_t version = 0;
	uint32_t n = 0, i, lib = 0, spec;

	ASSERT_EQ(ZE_RESULT_SUCCESS, zeDriverGetApiVersion(self->drv, &version));
	EXPECT_EQ(ZE_MAKE_VERSION(1, 15), version);
	spec = loader_version(&lib);
	note(self, "loader %u.%u (API %u.%u), %u driver(s)", ZE_MAJOR_VERSION(lib),
	       ZE_MINOR_VERSION(lib), ZE_MAJOR_VERSION(spec), ZE_MINOR_VERSION(spec),
	       self->num_drivers);
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeDriverGetProperties(self->drv, &props));
	EXPECT_EQ(ZE_DRIVER_DDI_HANDLE_EXT_FLAG_DDI_HANDLE_EXT_SUPPORTED, ddi.flags);
	EXPECT_NE(0, props.driverVersion);

	ASSERT_EQ(ZE_RESULT_SUCCESS, zeDriverGetExtensionProperties(self->drv, &n, NULL));
	ASSERT_EQ(12, n);
	n = 12;
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeDriverGetExtensionProperties(self->drv, &n, ext));
	ASSERT_EQ(12, n);
	for (i = 0; i < n; i++) {
		ddi_ext |= !strcmp(ext[i].name, ZE_DRIVER_DDI_HANDLES_EXT_NAME);
		ipc_ext |= !strcmp(ext[i].name, ZEX_MEM_IPC_HANDLES_NAME);
		memmap_ext |= !strcmp(ext[i].name, ZE_EXTERNAL_MEMORY_MAPPING_EXT_NAME);
		ro_ext |= !strcmp(ext[i].name, ZE_VIRTUAL_MEM_READONLY_PROPERTIES_EXT_NAME);
		offset_ext |= !strcmp(ext[i].name, ZE_GLOBAL_OFFSET_EXP_NAME);
		ts_ext |= !strcmp(ext[i].name, ZE_EVENT_QUERY_KERNEL_TIMESTAMPS_EXT_NAME);
		free_ext |= !strcmp(ext[i].name, ZE_MEMORY_FREE_POLICIES_EXT_NAME);
		cb_pool_ext |= !strcmp(ext[i].name, ZE_EVENT_POOL_COUNTER_BASED_EXP_NAME);
		luid_ext |= !strcmp(ext[i].name, ZE_DEVICE_LUID_EXT_NAME);
		mem_ext |= !strcmp(ext[i].name, ZE_DEVICE_MEMORY_PROPERTIES_EXT_NAME);
		EXPECT_EQ(ZE_MAKE_VERSION(1, 0), ext[i].version);
	}
	EXPECT_TRUE(offset_ext);
	EXPECT_TRUE(ts_ext);
	EXPECT_TRUE(free_ext);
	EXPECT_TRUE(cb_pool_ext);
	EXPECT_TRUE(luid_ext);
	EXPECT_TRUE(mem_ext);
	EXPECT_TRUE(ddi_ext);
	EXPECT_TRUE(ipc_ext);
	EXPECT_TRUE(memmap_ext);
	EXPECT_TRUE(ro_ext);
	/* A short array gets that many. */
	n = 1;
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeDriverGetExtensionProperties(self->drv, &n, ext));
	EXPECT_EQ(1, n);

	EXPECT_NE(NULL, get_fn(self, "zexMemGetIpcHandles"));
	EXPECT_NE(NULL, get_fn(self, "zexMemOpenIpcHandles"));
	EXPECT_EQ(NULL, get_fn(self, "zexNoSuchFunction"));
}

TEST_F(loader, topology_matches_the_module_parameters)
{
	ze_device_properties_t dp = { .stype = ZE_STRUCTURE_TYPE_DEVICE_PROPERTIES };
	ze_device_memory_properties_t mp = { .stype = ZE_STRUCTURE_TYPE_DEVICE_MEMORY_PROPERTIES };
	ze_command_queue_group_properties_t qg[4];
	uint64_t tile_mem = (uint64_t)zex_param("tile_mem_mb") << 20;
	uint32_t tiles = (uint32_t)zex_param("tiles");
	uint32_t n, i, sub = 0;

	ASSERT_EQ(tiles, self->num_tiles);

	/* The root device. */
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeDeviceGetProperties(self->root, &dp));
	EXPECT_EQ(ZE_DEVICE_TYPE_GPU, dp.type);
	EXPECT_EQ(0, dp.flags & ZE_DEVICE_PROPERTY_FLAG_SUBDEVICE);
	EXPECT_NE(0, dp.name[0]);
	EXPECT_EQ(zex_implicit_scaling() ? tiles * tile_mem : tile_mem, dp.maxMemAllocSize);
	n = 0;
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeDeviceGetMemoryProperties(self->root, &n, NULL));
	ASSERT_EQ(1, n);
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeDeviceGetMemoryProperties(self->root, &n, &mp));
	EXPECT_EQ(zex_implicit_scaling() ? tiles * tile_mem : tile_mem, mp.totalSize);

	/* Seed 002: one compute group (one engine with implicit scaling), tile 0's copies. */
	n = 0;
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeDeviceGetCommandQueueGroupProperties(self->root, &n, NULL));
	ASSERT_EQ(2, n);
	for (i = 0; i < n; i++)
		qg[i] = (ze_command_queue_group_properties_t){
			.stype = ZE_STRUCTURE_TYPE_COMMAND_QUEUE_GROUP_PROPERTIES };
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeDeviceGetCommandQueueGroupProperties(self->root, &n, qg));
	EXPECT_TRUE(qg[0].flags & ZE_COMMAND_QUEUE_GROUP_PROPERTY_FLAG_COMPUTE);
	EXPECT_EQ(zex_implicit_scaling() ? 1 : 4, qg[0].numQueues);
	EXPECT_EQ(ZE_COMMAND_QUEUE_GROUP_PROPERTY_FLAG_COPY, qg[1].flags);
	EXPECT_EQ(2, qg[1].numQueues);

	/* Each tile: a sub-device with its own id, memory and engines. */
	for (i = 0; i < tiles; i++) {
		ze_device_properties_t tp = { .stype = ZE_STRUCTURE_TYPE_DEVICE_PROPERTIES };

		ASSERT_EQ(ZE_RESULT_SUCCESS, zeDeviceGetProperties(self->tiles[i], &tp));
		EXPECT_TRUE(tp.flags & ZE_DEVICE_PROPERTY_FLAG_SUBDEVICE);
		EXPECT_EQ(i, tp.subdeviceId);
		EXPECT_NE(0, memcmp(&tp.uuid, &dp.uuid, sizeof(dp.uuid)));
		n = 1;
		ASSERT_EQ(ZE_RESULT_SUCCESS, zeDeviceGetMemoryProperties(self->tiles[i], &n, &mp));
		EXPECT_EQ(tile_mem, mp.totalSize);
		n = 2;
		ASSERT_EQ(ZE_RESULT_SUCCESS,
			  zeDeviceGetCommandQueueGroupProperties(self->tiles[i], &n, qg));
		EXPECT_EQ(4, qg[0].numQueues);
		EXPECT_EQ(2, qg[1].numQueues);
		/* Tiles have no sub-devices. */
		EXPECT_EQ(ZE_RESULT_SUCCESS, zeDeviceGetSubDevices(self->tiles[i], &sub, NULL));
		EXPECT_EQ(0, sub);
	}
}

/*
 * ZE_extension_device_luid and ZE_extension_device_memory_properties: each
 * device (the root and every tile) has a LUID of its own, not zero, on one
 * node; its memory is DDR of the device's size, with no design bandwidth
 * known (0, unit unknown).
 */
TEST_F(loader, each_device_says_its_luid_and_memory_type)
{
	uint8_t seen[DRM_ZEX_MAX_TILES + 1][8], zero[8] = { 0 };
	uint32_t i, j;

	for (i = 0; i <= self->num_tiles; i++) {
		ze_device_handle_t d = i ? self->tiles[i - 1] : self->root;
		ze_device_luid_ext_properties_t luid = {
			.stype = ZE_STRUCTURE_TYPE_DEVICE_LUID_EXT_PROPERTIES };
		ze_device_properties_t dp = { .stype = ZE_STRUCTURE_TYPE_DEVICE_PROPERTIES,
					      .pNext = &luid };
		ze_device_memory_ext_properties_t mx = {
			.stype = ZE_STRUCTURE_TYPE_DEVICE_MEMORY_EXT_PROPERTIES,
			.type = ZE_DEVICE_MEMORY_EXT_TYPE_FORCE_UINT32, .physicalSize = ~0ull,
			.readBandwidth = ~0u, .writeBandwidth = ~0u,
			.bandwidthUnit = ZE_BANDWIDTH_UNIT_FORCE_UINT32 };
		ze_device_memory_properties_t mp = {
			.stype = ZE_STRUCTURE_TYPE_DEVICE_MEMORY_PROPERTIES, .pNext = &mx };
		uint32_t n = 1;

		ASSERT_EQ(ZE_RESULT_SUCCESS, zeDeviceGetProperties(d, &dp));
		EXPECT_NE(0, memcmp(luid.luid.id, zero, sizeof(zero))) TH_LOG("device %u", i);
		EXPECT_EQ(1, luid.nodeMask);
		memcpy(seen[i], luid.luid.id, sizeof(seen[i]));
		for (j = 0; j < i; j++)
			EXPECT_NE(0, memcmp(seen[j], seen[i], sizeof(seen[i])))
				TH_LOG("devices %u and %u", j, i);
		ASSERT_EQ(ZE_RESULT_SUCCESS, zeDeviceGetMemoryProperties(d, &n, &mp));
		EXPECT_EQ(ZE_DEVICE_MEMORY_EXT_TYPE_DDR, mx.type);
		EXPECT_EQ(mp.totalSize, mx.physicalSize);
		EXPECT_EQ(0, mx.readBandwidth);
		EXPECT_EQ(0, mx.writeBandwidth);
		EXPECT_EQ(ZE_BANDWIDTH_UNIT_UNKNOWN, mx.bandwidthUnit);
	}
}

TEST_F(loader, device_memory_through_the_loader)
{
	ze_memory_allocation_properties_t ap = {
		.stype = ZE_STRUCTURE_TYPE_MEMORY_ALLOCATION_PROPERTIES };
	ze_device_handle_t owner = NULL;
	size_t size = 0;
	void *p, *t, *base = NULL;

	p = alloc_device(self, self->root, 4 * K64);
	ASSERT_NE(NULL, p);
	memset(p, 0x5a, 4 * K64);
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeMemGetAllocProperties(self->ctx, p, &ap, &owner));
	EXPECT_EQ(ZE_MEMORY_TYPE_DEVICE, ap.type);
	EXPECT_EQ(self->root, owner);
	ASSERT_EQ(ZE_RESULT_SUCCESS,
		  zeMemGetAddressRange(self->ctx, (char *)p + 100, &base, &size));
	EXPECT_EQ(p, base);
	EXPECT_EQ(4 * K64, size);

	t = alloc_device(self, self->tiles[self->num_tiles - 1], K64);
	ASSERT_NE(NULL, t);
	EXPECT_EQ(ZE_RESULT_SUCCESS, zeMemFree(self->ctx, t));
	EXPECT_EQ(ZE_RESULT_SUCCESS, zeMemFree(self->ctx, p));
	/* Freed: unknown now. */
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeMemGetAllocProperties(self->ctx, p, &ap, NULL));
	EXPECT_EQ(ZE_MEMORY_TYPE_UNKNOWN, ap.type);
}

TEST_F(loader, memmap_host_import_through_the_loader)
{
	size_t size = 8 * 4096;
	char *mine = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ze_external_memmap_sysmem_ext_desc_t map = {
		.stype = ZE_STRUCTURE_TYPE_EXTERNAL_MEMMAP_SYSMEM_EXT_DESC,
		.pSystemMemory = mine,
		.size = size,
	};
	ze_host_mem_alloc_desc_t hd = { .stype = ZE_STRUCTURE_TYPE_HOST_MEM_ALLOC_DESC,
					.pNext = &map };
	ze_memory_allocation_properties_t ap = {
		.stype = ZE_STRUCTURE_TYPE_MEMORY_ALLOCATION_PROPERTIES };
	void *p = NULL;

	ASSERT_NE(MAP_FAILED, mine);
	memset(mine, 0x3c, size);
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeMemAllocHost(self->ctx, &hd, size, 0, &p));
	EXPECT_EQ(mine, p);
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeMemGetAllocProperties(self->ctx, p, &ap, NULL));
	EXPECT_EQ(ZE_MEMORY_TYPE_HOST_IMPORTED, ap.type);
	/* Misaligned: refused. */
	map.pSystemMemory = mine + 1;
	EXPECT_EQ(ZE_RESULT_ERROR_INVALID_ARGUMENT, zeMemAllocHost(self->ctx, &hd, size, 0, &p));
	map.pSystemMemory = mine;
	map.size = 0;
	EXPECT_EQ(ZE_RESULT_ERROR_UNSUPPORTED_SIZE, zeMemAllocHost(self->ctx, &hd, size, 0, &p));
	EXPECT_EQ(ZE_RESULT_SUCCESS, zeMemFree(self->ctx, mine));
	/* The application keeps its memory and its contents. */
	EXPECT_EQ(0x3c, mine[size - 1]);
	munmap(mine, size);
}

/* The child: zeInit after fork, receive, open, check, answer, close. */
static int ipc_child(struct _test_data_loader *self,
		     const struct _fixture_variant_loader *variant, int sock, size_t size)
{
	ze_ipc_mem_handle_t h[DRM_ZEX_MAX_TILES];
	open_handles_fn open_handles;
	put_handles_fn put_handles;
	uint32_t n = DRM_ZEX_MAX_TILES;
	recv_fn recv_handles;
	void *q = NULL;
	int ok;

	self->ctx = NULL;
	if (loader_open(self, variant))
		return 10;
	recv_handles = (recv_fn)get_fn(self, "zexIpcHandlesRecv");
	open_handles = (open_handles_fn)get_fn(self, "zexMemOpenIpcHandles");
	put_handles = (put_handles_fn)get_fn(self, "zexMemPutIpcHandles");
	if (!recv_handles || !open_handles || !put_handles)
		return 11;
	if (recv_handles(sock, &n, h))
		return 12;
	if (open_handles(self->ctx, self->root, n, h, 0, &q))
		return 13;
	ok = zex_same(q, size, 7);
	zex_fill(q, size, 8);
	ok &= zeMemCloseIpcHandle(self->ctx, q) == ZE_RESULT_SUCCESS;
	ok &= put_handles(self->ctx, n, h) == ZE_RESULT_SUCCESS;
	ok &= zeContextDestroy(self->ctx) == ZE_RESULT_SUCCESS;
	return ok ? 0 : 14;
}

TEST_F(loader, multi_handle_ipc_across_processes_via_extension_functions)
{
	size_t size = 18 * K64;	/* seed 000's example: 5,5,4,4 pages on 4 tiles */
	ze_ipc_mem_handle_t h[DRM_ZEX_MAX_TILES];
	get_handles_fn get_handles;
	put_handles_fn put_handles;
	send_fn send_handles;
	uint32_t n = 0;
	int sv[2], status;
	pid_t pid;
	void *p;

	get_handles = (get_handles_fn)get_fn(self, "zexMemGetIpcHandles");
	put_handles = (put_handles_fn)get_fn(self, "zexMemPutIpcHandles");
	send_handles = (send_fn)get_fn(self, "zexIpcHandlesSend");
	ASSERT_NE(NULL, get_handles);
	ASSERT_NE(NULL, put_handles);
	ASSERT_NE(NULL, send_handles);
	p = alloc_device(self, self->root, size);
	ASSERT_NE(NULL, p);
	zex_fill(p, size, 7);

	ASSERT_EQ(ZE_RESULT_SUCCESS, get_handles(self->ctx, p, &n, NULL));
	EXPECT_EQ(zex_implicit_scaling() ? self->num_tiles : 1, n);
	ASSERT_EQ(ZE_RESULT_SUCCESS, get_handles(self->ctx, p, &n, h));
	/* An unknown pointer is an invalid argument, as in compute-runtime. */
	EXPECT_EQ(ZE_RESULT_ERROR_INVALID_ARGUMENT, get_handles(self->ctx, &n, &n, NULL));

	ASSERT_EQ(0, socketpair(AF_UNIX, SOCK_SEQPACKET, 0, sv));
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		close(sv[0]);
		_exit(ipc_child(self, variant, sv[1], size));
	}
	close(sv[1]);
	EXPECT_EQ(ZE_RESULT_SUCCESS, send_handles(sv[0], n, h));
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_TRUE(WIFEXITED(status));
	EXPECT_EQ(0, WEXITSTATUS(status));
	/* The child wrote through its mapping into the same memory. */
	EXPECT_TRUE(zex_same(p, size, 8));
	close(sv[0]);
	EXPECT_EQ(ZE_RESULT_SUCCESS, put_handles(self->ctx, n, h));
	EXPECT_EQ(ZE_RESULT_SUCCESS, zeMemFree(self->ctx, p));
}

TEST_F(loader, result_codes_for_bad_arguments)
{
	ze_device_mem_alloc_desc_t dd = { .stype = ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC };
	ze_device_properties_t dp = { .stype = ZE_STRUCTURE_TYPE_DEVICE_PROPERTIES };
	ze_driver_properties_t props = { .stype = ZE_STRUCTURE_TYPE_DEVICE_PROPERTIES };
	ze_memory_allocation_properties_t bad_ap = { .stype = ZE_STRUCTURE_TYPE_DEVICE_PROPERTIES };
	ze_host_mem_alloc_desc_t hd = { .stype = ZE_STRUCTURE_TYPE_HOST_MEM_ALLOC_DESC };
	ze_context_desc_t cd = { .stype = ZE_STRUCTURE_TYPE_CONTEXT_DESC };
	ze_context_handle_t ctx;
	uint32_t n = 0;
	void *p = NULL;

	/*
	 * The loader's intercept (forced, or with two drivers) follows a
	 * handle to its wrapper or its DDI tables without a check (checking
	 * is the validation layer's job): NULL handles reach libzex only
	 * without it.
	 */
	if (strcmp(variant->intercept, "1") && self->num_drivers == 1) {
		EXPECT_EQ(ZE_RESULT_ERROR_INVALID_NULL_HANDLE, zeDeviceGet(NULL, &n, NULL));
		EXPECT_EQ(ZE_RESULT_ERROR_INVALID_NULL_HANDLE, zeDeviceGetProperties(NULL, &dp));
		EXPECT_EQ(ZE_RESULT_ERROR_INVALID_NULL_HANDLE,
			  zeMemAllocDevice(self->ctx, &dd, K64, 0, NULL, &p));
	}
	EXPECT_EQ(ZE_RESULT_ERROR_INVALID_NULL_POINTER, zeDeviceGet(self->drv, NULL, NULL));
	EXPECT_EQ(ZE_RESULT_ERROR_INVALID_NULL_POINTER,
		  zeDeviceGetProperties(self->root, NULL));
	/* A properties struct of the wrong type. */
	EXPECT_EQ(ZE_RESULT_ERROR_INVALID_ARGUMENT, zeDriverGetProperties(self->drv, &props));
	EXPECT_EQ(ZE_RESULT_ERROR_INVALID_NULL_POINTER, zeContextCreate(self->drv, NULL, &ctx));
	cd.flags = 0x100;
	EXPECT_EQ(ZE_RESULT_ERROR_INVALID_ENUMERATION, zeContextCreate(self->drv, &cd, &ctx));
	EXPECT_EQ(ZE_RESULT_ERROR_INVALID_NULL_POINTER,
		  zeMemAllocDevice(self->ctx, NULL, K64, 0, self->root, &p));
	EXPECT_EQ(ZE_RESULT_ERROR_UNSUPPORTED_SIZE,
		  zeMemAllocDevice(self->ctx, &dd, 0, 0, self->root, &p));
	EXPECT_EQ(ZE_RESULT_ERROR_UNSUPPORTED_ALIGNMENT,
		  zeMemAllocDevice(self->ctx, &dd, K64, 3, self->root, &p));
	dd.flags = 0x80;
	EXPECT_EQ(ZE_RESULT_ERROR_INVALID_ENUMERATION,
		  zeMemAllocDevice(self->ctx, &dd, K64, 0, self->root, &p));
	EXPECT_EQ(ZE_RESULT_ERROR_INVALID_ARGUMENT,
		  zeMemGetAllocProperties(self->ctx, &n, &bad_ap, NULL));
	EXPECT_EQ(ZE_RESULT_ERROR_INVALID_NULL_POINTER,
		  zeMemGetAllocProperties(self->ctx, &n, NULL, NULL));
	EXPECT_EQ(ZE_RESULT_ERROR_INVALID_NULL_POINTER, zeMemFree(self->ctx, NULL));
	EXPECT_EQ(ZE_RESULT_ERROR_INVALID_ARGUMENT, zeMemFree(self->ctx, &n));
	EXPECT_EQ(ZE_RESULT_ERROR_INVALID_NULL_POINTER,
		  zeDriverGetExtensionFunctionAddress(self->drv, NULL, &p));
	dd.flags = 0;
	/* What libzex does not implement is unsupported, never a crash. */
	EXPECT_EQ(ZE_RESULT_ERROR_UNSUPPORTED_FEATURE,
		  zeDeviceReserveCacheExt(self->root, 0, 4096));
	EXPECT_EQ(ZE_RESULT_ERROR_UNSUPPORTED_ALIGNMENT,
		  zeMemAllocShared(self->ctx, &dd, &hd, K64, 3, self->root, &p));
	EXPECT_EQ(ZE_RESULT_ERROR_UNSUPPORTED_ALIGNMENT,
		  zeMemAllocHost(self->ctx, &hd, K64, 3 * 4096, &p));
}

typedef ze_result_t (*init_drivers_fn)(uint32_t *, ze_driver_handle_t *,
				       ze_init_driver_type_desc_t *);
typedef ze_result_t (*root_device_fn)(ze_device_handle_t, ze_device_handle_t *);
typedef ze_result_t (*put_handle_fn)(ze_context_handle_t, ze_ipc_mem_handle_t);
typedef ze_result_t (*fd_from_handle_fn)(ze_context_handle_t, ze_ipc_mem_handle_t, uint64_t *);
typedef ze_result_t (*handle_from_fd_fn)(ze_context_handle_t, uint64_t, ze_ipc_mem_handle_t *);
typedef ze_result_t (*last_error_fn)(ze_driver_handle_t, const char **);

/* A loader without a call of API 1.@minor must be of an older API. */
#define EXPECT_LOADER_HAS(fn, minor) do {					\
	if (!(fn))								\
		EXPECT_LT(loader_version(NULL), ZE_MAKE_VERSION(1, minor));	\
	note(self, "%s: %s", #fn, (fn) ? "through the loader" : "not in this loader"); \
} while (0)

TEST_F(loader, init_drivers_lists_zex_as_a_gpu_driver)
{
	init_drivers_fn init_drivers = (init_drivers_fn)loader_call("zeInitDrivers");
	ze_init_driver_type_desc_t desc = { .stype = ZE_STRUCTURE_TYPE_INIT_DRIVER_TYPE_DESC,
					    .flags = ZE_INIT_DRIVER_TYPE_FLAG_GPU };
	ze_driver_handle_t drivers[4];
	uint32_t n = 0, i, zex = 0;

	EXPECT_LOADER_HAS(init_drivers, 10);
	if (!init_drivers)
		return;
	ASSERT_EQ(ZE_RESULT_SUCCESS, init_drivers(&n, NULL, &desc));
	ASSERT_EQ(self->num_drivers, n);
	ASSERT_EQ(ZE_RESULT_SUCCESS, init_drivers(&n, drivers, &desc));
	for (i = 0; i < n; i++)
		zex += is_zex(drivers[i]);
	EXPECT_EQ(1, zex);
	/* zex is no NPU (the null driver says it is both). */
	desc.flags = ZE_INIT_DRIVER_TYPE_FLAG_NPU;
	n = 4;
	if (init_drivers(&n, drivers, &desc) == ZE_RESULT_SUCCESS)
		for (i = 0; i < n && i < 4; i++)
			EXPECT_FALSE(is_zex(drivers[i]));
	/* Every type (flags of later versions too): zex among them. */
	desc.flags = UINT32_MAX;
	n = 4;
	zex = 0;
	ASSERT_EQ(ZE_RESULT_SUCCESS, init_drivers(&n, drivers, &desc));
	for (i = 0; i < n && i < 4; i++)
		zex += is_zex(drivers[i]);
	EXPECT_EQ(1, zex);
}

TEST_F(loader, a_context_on_some_devices)
{
	ze_context_desc_t cd = { .stype = ZE_STRUCTURE_TYPE_CONTEXT_DESC };
	ze_context_handle_t ctx;

	ASSERT_EQ(ZE_RESULT_SUCCESS, zeContextCreateEx(self->drv, &cd, 1, &self->root, &ctx));
	EXPECT_EQ(ZE_RESULT_SUCCESS, zeContextDestroy(ctx));
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeContextCreateEx(self->drv, &cd, 0, NULL, &ctx));
	EXPECT_EQ(ZE_RESULT_SUCCESS, zeContextDestroy(ctx));
}

TEST_F(loader, root_device_of_every_tile)
{
	root_device_fn root_of = (root_device_fn)loader_call("zeDeviceGetRootDevice");
	ze_device_handle_t r = self->root;
	uint32_t i;

	EXPECT_LOADER_HAS(root_of, 7);
	if (!root_of)
		return;
	for (i = 0; i < self->num_tiles; i++) {
		r = NULL;
		ASSERT_EQ(ZE_RESULT_SUCCESS, root_of(self->tiles[i], &r));
		EXPECT_EQ(self->root, r);
	}
	/* The root device has no root above it. */
	ASSERT_EQ(ZE_RESULT_SUCCESS, root_of(self->root, &r));
	EXPECT_EQ(NULL, r);
}

/* Every device of the driver reaches every other's memory; the clock is the host's. */
TEST_F(loader, tiles_are_peers_on_the_host_clock)
{
	ze_device_p2p_properties_t p2p = { .stype = ZE_STRUCTURE_TYPE_DEVICE_P2P_PROPERTIES };
	ze_device_handle_t all[9];
	uint64_t host, dev;
	struct timespec before, after;
	uint32_t i, j, n = self->num_tiles + 1;
	ze_bool_t can;

	ASSERT_GE(8, self->num_tiles);
	all[0] = self->root;
	memcpy(&all[1], self->tiles, self->num_tiles * sizeof(all[0]));
	for (i = 0; i < n; i++)
		for (j = 0; j < n; j++) {
			can = 0;
			ASSERT_EQ(ZE_RESULT_SUCCESS, zeDeviceCanAccessPeer(all[i], all[j], &can));
			EXPECT_TRUE(can) TH_LOG("device %u to %u", i, j);
			p2p.flags = 0;
			ASSERT_EQ(ZE_RESULT_SUCCESS, zeDeviceGetP2PProperties(all[i], all[j], &p2p));
			EXPECT_EQ(ZE_DEVICE_P2P_PROPERTY_FLAG_ACCESS, p2p.flags);
		}
	EXPECT_EQ(ZE_RESULT_ERROR_INVALID_NULL_POINTER, zeDeviceCanAccessPeer(all[0], all[0], NULL));
	clock_gettime(CLOCK_MONOTONIC, &before);
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeDeviceGetGlobalTimestamps(self->root, &host, &dev));
	clock_gettime(CLOCK_MONOTONIC, &after);
	EXPECT_EQ(host, dev);
	EXPECT_LE((uint64_t)before.tv_sec * 1000000000u + (uint64_t)before.tv_nsec, host);
	EXPECT_GE((uint64_t)after.tv_sec * 1000000000u + (uint64_t)after.tv_nsec, host);
}

typedef ze_result_t (*set_atomics_fn)(ze_context_handle_t, ze_device_handle_t, const void *,
				      size_t, ze_memory_atomic_attr_exp_flags_t);
typedef ze_result_t (*get_atomics_fn)(ze_context_handle_t, ze_device_handle_t, const void *,
				      size_t, ze_memory_atomic_attr_exp_flags_t *);

/* No memory has atomics: a shared allocation keeps what forbids them, nothing else. */
TEST_F(loader, atomic_attributes_only_forbid)
{
	set_atomics_fn set = (set_atomics_fn)loader_call("zeMemSetAtomicAccessAttributeExp");
	get_atomics_fn get = (get_atomics_fn)loader_call("zeMemGetAtomicAccessAttributeExp");
	ze_device_mem_alloc_desc_t dd = { .stype = ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC };
	ze_host_mem_alloc_desc_t hd = { .stype = ZE_STRUCTURE_TYPE_HOST_MEM_ALLOC_DESC };
	ze_memory_atomic_attr_exp_flags_t attr = 0;
	void *shared = NULL, *dev = alloc_device(self, self->root, K64);
	uint32_t bit;

	EXPECT_LOADER_HAS(set, 7);
	if (!set || !get)
		return;
	ASSERT_NE(NULL, dev);
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeMemAllocShared(self->ctx, &dd, &hd, K64, 0, self->root,
						      &shared));
	ASSERT_EQ(ZE_RESULT_SUCCESS, get(self->ctx, self->root, shared, K64, &attr));
	EXPECT_EQ(0, attr);
	for (bit = 0; bit < 7; bit++) {
		ze_memory_atomic_attr_exp_flags_t f = 1u << bit;
		bool forbids = f & (ZE_MEMORY_ATOMIC_ATTR_EXP_FLAG_NO_ATOMICS |
				    ZE_MEMORY_ATOMIC_ATTR_EXP_FLAG_NO_HOST_ATOMICS |
				    ZE_MEMORY_ATOMIC_ATTR_EXP_FLAG_NO_DEVICE_ATOMICS |
				    ZE_MEMORY_ATOMIC_ATTR_EXP_FLAG_NO_SYSTEM_ATOMICS);

		EXPECT_EQ(forbids ? ZE_RESULT_SUCCESS : ZE_RESULT_ERROR_INVALID_ARGUMENT,
			  set(self->ctx, self->root, shared, K64, f)) TH_LOG("flag %#x", f);
		ASSERT_EQ(ZE_RESULT_SUCCESS, get(self->ctx, self->root, shared, K64, &attr));
		if (forbids)
			EXPECT_EQ(f, attr);
	}
	/* Only shared allocations, and only ranges within one. */
	EXPECT_EQ(ZE_RESULT_ERROR_INVALID_ARGUMENT,
		  set(self->ctx, self->root, dev, K64, ZE_MEMORY_ATOMIC_ATTR_EXP_FLAG_NO_ATOMICS));
	EXPECT_EQ(ZE_RESULT_ERROR_INVALID_ARGUMENT,
		  set(self->ctx, self->root, (char *)shared + 1, K64,
		      ZE_MEMORY_ATOMIC_ATTR_EXP_FLAG_NO_ATOMICS));
	EXPECT_EQ(ZE_RESULT_ERROR_INVALID_ARGUMENT,
		  get(self->ctx, self->root, &attr, sizeof(attr), &attr));
	EXPECT_EQ(ZE_RESULT_SUCCESS, zeMemFree(self->ctx, shared));
	EXPECT_EQ(ZE_RESULT_SUCCESS, zeMemFree(self->ctx, dev));
}

TEST_F(loader, last_error_description_names_the_failure)
{
	last_error_fn last_error = (last_error_fn)loader_call("zeDriverGetLastErrorDescription");
	ze_memory_allocation_properties_t ap = {
		.stype = ZE_STRUCTURE_TYPE_MEMORY_ALLOCATION_PROPERTIES };
	ze_external_memory_export_fd_t ex = {
		.stype = ZE_STRUCTURE_TYPE_EXTERNAL_MEMORY_EXPORT_FD,
		.flags = ZE_EXTERNAL_MEMORY_TYPE_FLAG_OPAQUE_FD };
	const char *why = NULL;
	void *p;

	EXPECT_LOADER_HAS(last_error, 6);
	p = alloc_device(self, self->tiles[0], K64);
	ASSERT_NE(NULL, p);
	ap.pNext = &ex;
	/* An opaque fd is not what libzex exports. */
	EXPECT_EQ(ZE_RESULT_ERROR_UNSUPPORTED_ENUMERATION,
		  zeMemGetAllocProperties(self->ctx, p, &ap, NULL));
	if (last_error) {
		ASSERT_EQ(ZE_RESULT_SUCCESS, last_error(self->drv, &why));
		ASSERT_NE(NULL, why);
		EXPECT_NE(NULL, strstr(why, "dma-buf"));
	}
	EXPECT_EQ(ZE_RESULT_SUCCESS, zeMemFree(self->ctx, p));
}

/* The dma-buf fd at offset 0 of a handle, as consumers read it. */
static int handle_fd(const ze_ipc_mem_handle_t *h)
{
	int fd;

	memcpy(&fd, h->data, sizeof(fd));
	return fd;
}

static bool is_dma_buf(int fd)
{
	char path[64], target[64] = "";

	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	return readlink(path, target, sizeof(target) - 1) > 0 && strstr(target, "dmabuf");
}

/* Give one get back: zeMemPutIpcHandle where the loader has it. */
static ze_result_t put_one(struct _test_data_loader *self, ze_ipc_mem_handle_t h)
{
	put_handle_fn put = (put_handle_fn)loader_call("zeMemPutIpcHandle");
	put_handles_fn puts = (put_handles_fn)get_fn(self, "zexMemPutIpcHandles");

	if (put)
		return put(self->ctx, h);
	return puts ? puts(self->ctx, 1, &h) : ZE_RESULT_ERROR_UNINITIALIZED;
}

TEST_F(loader, ipc_handle_is_the_allocations_fd_at_offset_0)
{
	fd_from_handle_fn fd_of = (fd_from_handle_fn)
		loader_call("zeMemGetFileDescriptorFromIpcHandleExp");
	handle_from_fd_fn from_fd = (handle_from_fd_fn)
		loader_call("zeMemGetIpcHandleFromFileDescriptorExp");
	ze_memory_allocation_properties_t ap = {
		.stype = ZE_STRUCTURE_TYPE_MEMORY_ALLOCATION_PROPERTIES };
	ze_external_memory_export_fd_t ex = {
		.stype = ZE_STRUCTURE_TYPE_EXTERNAL_MEMORY_EXPORT_FD,
		.flags = ZE_EXTERNAL_MEMORY_TYPE_FLAG_DMA_BUF, .fd = -1 };
	ze_ipc_mem_handle_t a, b, c;
	int before = zex_count_fds();
	uint64_t fd = 0;
	void *p;

	EXPECT_LOADER_HAS(fd_of, 6);
	EXPECT_LOADER_HAS(from_fd, 6);
	p = alloc_device(self, self->tiles[0], 2 * K64);
	ASSERT_NE(NULL, p);
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeMemGetIpcHandle(self->ctx, p, &a));
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeMemGetIpcHandle(self->ctx, p, &b));
	/* One fd, a dma-buf, at offset 0 of every handle of the allocation. */
	EXPECT_TRUE(is_dma_buf(handle_fd(&a)));
	EXPECT_EQ(handle_fd(&a), handle_fd(&b));
	EXPECT_EQ(before + 1, zex_count_fds());
	/* The allocation's exported fd is that fd too. */
	ap.pNext = &ex;
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeMemGetAllocProperties(self->ctx, p, &ap, NULL));
	EXPECT_EQ(handle_fd(&a), ex.fd);
	if (fd_of) {
		ASSERT_EQ(ZE_RESULT_SUCCESS, fd_of(self->ctx, a, &fd));
		EXPECT_EQ((uint64_t)handle_fd(&a), fd);
	}
	if (from_fd) {
		ASSERT_EQ(ZE_RESULT_SUCCESS, from_fd(self->ctx, (uint64_t)ex.fd, &c));
		EXPECT_EQ(ex.fd, handle_fd(&c));
		EXPECT_EQ(ZE_RESULT_SUCCESS, put_one(self, c));
		/* An fd libzex did not export is no allocation's. */
		EXPECT_EQ(ZE_RESULT_ERROR_INVALID_ARGUMENT, from_fd(self->ctx, 0, &c));
	}
	EXPECT_EQ(ZE_RESULT_SUCCESS, put_one(self, a));
	EXPECT_EQ(ZE_RESULT_SUCCESS, put_one(self, b));
	/* Bytes that name no export: refused, nothing closed. */
	memset(&c, 0, sizeof(c));
	EXPECT_EQ(ZE_RESULT_ERROR_INVALID_ARGUMENT, put_one(self, c));
	EXPECT_EQ(before + 1, zex_count_fds());	/* the properties' export */
	EXPECT_EQ(ZE_RESULT_SUCCESS, zeMemFree(self->ctx, p));
	EXPECT_EQ(before, zex_count_fds());
}

TEST_F(loader, ipc_get_put_cycles_leave_no_fd)
{
	int before = zex_count_fds(), i;
	ze_ipc_mem_handle_t h;
	void *p;

	p = alloc_device(self, self->tiles[0], K64);
	ASSERT_NE(NULL, p);
	for (i = 0; i < 200; i++) {
		ASSERT_EQ(ZE_RESULT_SUCCESS, zeMemGetIpcHandle(self->ctx, p, &h));
		ASSERT_EQ(ZE_RESULT_SUCCESS, put_one(self, h));
	}
	EXPECT_EQ(before, zex_count_fds());
	/* Gets never put: zeMemFree closes the fd. */
	for (i = 0; i < 200; i++)
		ASSERT_EQ(ZE_RESULT_SUCCESS, zeMemGetIpcHandle(self->ctx, p, &h));
	EXPECT_EQ(before + 1, zex_count_fds());
	EXPECT_EQ(ZE_RESULT_SUCCESS, zeMemFree(self->ctx, p));
	EXPECT_EQ(before, zex_count_fds());
}

/* Send a handle the way MPI libraries do: its fd with SCM_RIGHTS, its bytes beside. */
static int send_handle(int sock, const ze_ipc_mem_handle_t *h)
{
	char control[CMSG_SPACE(sizeof(int))] = { 0 };
	struct iovec iov = { (void *)h->data, sizeof(h->data) };
	struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1,
			      .msg_control = control, .msg_controllen = sizeof(control) };
	struct cmsghdr *c = CMSG_FIRSTHDR(&msg);
	int fd = handle_fd(h);

	c->cmsg_level = SOL_SOCKET;
	c->cmsg_type = SCM_RIGHTS;
	c->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(c), &fd, sizeof(fd));
	return sendmsg(sock, &msg, 0) == (ssize_t)sizeof(h->data) ? 0 : -1;
}

static int recv_handle(int sock, ze_ipc_mem_handle_t *h)
{
	char control[CMSG_SPACE(sizeof(int))];
	struct iovec iov = { h->data, sizeof(h->data) };
	struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1,
			      .msg_control = control, .msg_controllen = sizeof(control) };
	struct cmsghdr *c;
	int fd;

	if (recvmsg(sock, &msg, MSG_CMSG_CLOEXEC) != (ssize_t)sizeof(h->data))
		return -1;
	c = CMSG_FIRSTHDR(&msg);
	if (!c || c->cmsg_type != SCM_RIGHTS)
		return -1;
	memcpy(&fd, CMSG_DATA(c), sizeof(fd));
	/* The receiver's number for the fd goes where the sender's was. */
	memcpy(h->data, &fd, sizeof(fd));
	return fd;
}

static int mpi_child(struct _test_data_loader *self,
		     const struct _fixture_variant_loader *variant, int sock, size_t size)
{
	ze_ipc_memory_flags_t flags[] = { 0, ZE_IPC_MEMORY_FLAG_BIAS_CACHED,
					  ZE_IPC_MEMORY_FLAG_BIAS_UNCACHED };
	ze_ipc_mem_handle_t h;
	void *q = NULL;
	int fd, ok = 1;
	size_t i;

	self->ctx = NULL;
	if (loader_open(self, variant))
		return 10;
	fd = recv_handle(sock, &h);
	if (fd < 0)
		return 11;
	for (i = 0; i < sizeof(flags) / sizeof(flags[0]); i++) {
		if (zeMemOpenIpcHandle(self->ctx, self->tiles[0], h, flags[i], &q))
			return 12 + (int)i;
		ok &= zex_same(q, size, 5);
		ok &= zeMemCloseIpcHandle(self->ctx, q) == ZE_RESULT_SUCCESS;
	}
	/* The fd is the receiver's: libzex took nothing; close it, then open again fails. */
	ok &= fcntl(fd, F_GETFD) >= 0;
	close(fd);
	ok &= zeMemOpenIpcHandle(self->ctx, self->tiles[0], h, 0, &q) ==
	      ZE_RESULT_ERROR_INVALID_ARGUMENT;
	ok &= zeContextDestroy(self->ctx) == ZE_RESULT_SUCCESS;
	return ok ? 0 : 20;
}

TEST_F(loader, ipc_across_processes_the_way_mpi_passes_the_fd)
{
	ze_ipc_mem_handle_t h;
	int sv[2], status;
	size_t size = 3 * K64;
	pid_t pid;
	void *p;

	p = alloc_device(self, self->tiles[0], size);
	ASSERT_NE(NULL, p);
	zex_fill(p, size, 5);
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeMemGetIpcHandle(self->ctx, p, &h));
	ASSERT_EQ(0, socketpair(AF_UNIX, SOCK_STREAM, 0, sv));
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		close(sv[0]);
		_exit(mpi_child(self, variant, sv[1], size));
	}
	close(sv[1]);
	EXPECT_EQ(0, send_handle(sv[0], &h));
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_TRUE(WIFEXITED(status));
	EXPECT_EQ(0, WEXITSTATUS(status));
	close(sv[0]);
	EXPECT_EQ(ZE_RESULT_SUCCESS, put_one(self, h));
	EXPECT_EQ(ZE_RESULT_SUCCESS, zeMemFree(self->ctx, p));
}

TEST_F(loader, any_power_of_two_alignment_up_to_2mib)
{
	ze_device_mem_alloc_desc_t dd = { .stype = ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC };
	ze_host_mem_alloc_desc_t hd = { .stype = ZE_STRUCTURE_TYPE_HOST_MEM_ALLOC_DESC };
	size_t align;
	void *p;

	for (align = 1; align <= (2u << 20); align <<= 1) {
		p = NULL;
		ASSERT_EQ(ZE_RESULT_SUCCESS, zeMemAllocHost(self->ctx, &hd, 5000, align, &p));
		EXPECT_EQ(0, (uintptr_t)p & (align - 1));
		memset(p, 1, 5000);
		EXPECT_EQ(ZE_RESULT_SUCCESS, zeMemFree(self->ctx, p));
		p = NULL;
		ASSERT_EQ(ZE_RESULT_SUCCESS,
			  zeMemAllocDevice(self->ctx, &dd, K64, align, self->tiles[0], &p));
		EXPECT_EQ(0, (uintptr_t)p & (align - 1));
		EXPECT_EQ(ZE_RESULT_SUCCESS, zeMemFree(self->ctx, p));
		p = NULL;
		ASSERT_EQ(ZE_RESULT_SUCCESS,
			  zeMemAllocShared(self->ctx, &dd, &hd, 5000, align, self->root, &p));
		EXPECT_EQ(0, (uintptr_t)p & (align - 1));
		EXPECT_EQ(ZE_RESULT_SUCCESS, zeMemFree(self->ctx, p));
	}
}

TEST_F(loader, alloc_properties_name_the_device_the_memory_is_on)
{
	ze_device_mem_alloc_desc_t dd = { .stype = ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC };
	ze_host_mem_alloc_desc_t hd = { .stype = ZE_STRUCTURE_TYPE_HOST_MEM_ALLOC_DESC };
	ze_memory_allocation_properties_t ap = {
		.stype = ZE_STRUCTURE_TYPE_MEMORY_ALLOCATION_PROPERTIES };
	ze_device_handle_t owner;
	void *p, *s, *h;
	uint32_t i;

	for (i = 0; i < self->num_tiles; i++) {
		p = alloc_device(self, self->tiles[i], K64);
		ASSERT_NE(NULL, p);
		owner = NULL;
		ASSERT_EQ(ZE_RESULT_SUCCESS, zeMemGetAllocProperties(self->ctx, p, &ap, &owner));
		EXPECT_EQ(ZE_MEMORY_TYPE_DEVICE, ap.type);
		EXPECT_EQ(self->tiles[i], owner);
		EXPECT_EQ(ZE_RESULT_SUCCESS, zeMemFree(self->ctx, p));
	}
	/* Shared memory: host memory the device reaches, on its device. */
	ASSERT_EQ(ZE_RESULT_SUCCESS,
		  zeMemAllocShared(self->ctx, &dd, &hd, 3 * 4096, 0, self->tiles[0], &s));
	memset(s, 7, 3 * 4096);
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeMemGetAllocProperties(self->ctx, s, &ap, &owner));
	EXPECT_EQ(ZE_MEMORY_TYPE_SHARED, ap.type);
	EXPECT_EQ(self->tiles[0], owner);
	/* Host memory belongs to no device. */
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeMemAllocHost(self->ctx, &hd, 4096, 0, &h));
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeMemGetAllocProperties(self->ctx, h, &ap, &owner));
	EXPECT_EQ(ZE_MEMORY_TYPE_HOST, ap.type);
	EXPECT_EQ(NULL, owner);
	EXPECT_EQ(ZE_RESULT_SUCCESS, zeMemFree(self->ctx, h));
	EXPECT_EQ(ZE_RESULT_SUCCESS, zeMemFree(self->ctx, s));
}

int main(int argc, char **argv)
{
	/* No zex module, no device: a kselftest skip. */
	if (access(ZEX_SYSFS_PARAMS "/tiles", R_OK)) {
		ksft_print_header();
		ksft_exit_skip("no zex device (is zex.ko loaded?)\n");
	}
	return test_harness_run(argc, argv);
}
