// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Copyright © 2026 The zex authors
 */

/*
 * DOC: zex_l0_loader_test.c - libzex as a driver of the stock Level Zero loader
 *
 * Linked only against libze_loader (Debian 12's 1.8.12): the loader finds
 * libzex through ZE_ENABLE_ALT_DRIVERS and every call goes through it. The
 * expected topology comes from zex's module parameters in sysfs, so the
 * same program checks every row of the VM's parameter matrix (1, 2, 4 and
 * 8 tiles, implicit scaling off). Every test runs three ways: plain, with
 * the loader's validation layer (which must report nothing on stderr and
 * change no result), and with the loader's intercept on (its handles wrap
 * libzex's; the extension functions, called directly, get the wrappers).
 */

#include <stdint.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <sys/wait.h>

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
};

FIXTURE_VARIANT(loader) {
	const char *validation;
	const char *intercept;
};

FIXTURE_VARIANT_ADD(loader, plain) { .validation = "0", .intercept = "0" };
FIXTURE_VARIANT_ADD(loader, validation_layer) { .validation = "1", .intercept = "0" };
FIXTURE_VARIANT_ADD(loader, loader_intercept) { .validation = "0", .intercept = "1" };

/*
 * zeInit in the calling process, with the variant's environment; for the
 * IPC child too, which must call zeInit after fork.
 */
static int loader_open(struct _test_data_loader *self,
		       const struct _fixture_variant_loader *variant)
{
	ze_context_desc_t cd = { .stype = ZE_STRUCTURE_TYPE_CONTEXT_DESC };
	uint32_t n = 1;

	setenv("ZE_ENABLE_ALT_DRIVERS", libzex_path(), 1);
	setenv("ZE_ENABLE_VALIDATION_LAYER", variant->validation, 1);
	setenv("ZE_ENABLE_PARAMETER_VALIDATION", variant->validation, 1);
	setenv("ZE_ENABLE_LOADER_INTERCEPT", variant->intercept, 1);
	if (zeInit(0) || zeDriverGet(&n, &self->drv) || n != 1)
		return -1;
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
	/* The loader's and the layers' messages go to a file, read at the end. */
	self->err = tmpfile();
	ASSERT_NE(NULL, self->err);
	fflush(stderr);
	self->saved_stderr = dup(2);
	ASSERT_EQ(2, dup2(fileno(self->err), 2));
	ASSERT_EQ(0, loader_open(self, variant));
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
	ze_driver_extension_properties_t ext[8];
	bool ddi_ext = false, ipc_ext = false, memmap_ext = false;
	ze_api_version_t version = 0;
	uint32_t n = 0, i;

	ASSERT_EQ(ZE_RESULT_SUCCESS, zeDriverGetApiVersion(self->drv, &version));
	EXPECT_EQ(ZE_API_VERSION_1_4, version);
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeDriverGetProperties(self->drv, &props));
	EXPECT_EQ(ZE_DRIVER_DDI_HANDLE_EXT_FLAG_DDI_HANDLE_EXT_SUPPORTED, ddi.flags);
	EXPECT_NE(0, props.driverVersion);

	ASSERT_EQ(ZE_RESULT_SUCCESS, zeDriverGetExtensionProperties(self->drv, &n, NULL));
	ASSERT_EQ(3, n);
	n = 8;
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeDriverGetExtensionProperties(self->drv, &n, ext));
	ASSERT_EQ(3, n);
	for (i = 0; i < n; i++) {
		ddi_ext |= !strcmp(ext[i].name, ZE_DRIVER_DDI_HANDLES_EXT_NAME);
		ipc_ext |= !strcmp(ext[i].name, ZEX_MEM_IPC_HANDLES_NAME);
		memmap_ext |= !strcmp(ext[i].name, ZE_EXTERNAL_MEMORY_MAPPING_EXT_NAME);
		EXPECT_EQ(ZE_MAKE_VERSION(1, 0), ext[i].version);
	}
	EXPECT_TRUE(ddi_ext);
	EXPECT_TRUE(ipc_ext);
	EXPECT_TRUE(memmap_ext);
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
	 * The loader's intercept follows a handle to its wrapper without a
	 * check (checking is the validation layer's job): NULL handles only
	 * reach libzex without it.
	 */
	if (strcmp(variant->intercept, "1")) {
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
		  zeMemAllocShared(self->ctx, &dd, &hd, K64, 0, self->root, &p));
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
