// SPDX-License-Identifier: MIT
/*
 * DOC: device_library.c - where the device libraries' SPIR-V is
 *
 * The build turns each library's SPIR-V into an array in a generated
 * source (libzex/Makefile); the array is referenced weakly here, so that
 * libzex's sources built without it (a test that compiles them in) have
 * no library rather than no link.
 */
#include "compute/device_library.h"

extern const unsigned char zex_hostrpc_kernel_spirv[] __attribute__((weak, visibility("hidden")));
extern const size_t zex_hostrpc_kernel_spirv_size __attribute__((weak, visibility("hidden")));

/**
 * zex_device_library - a device library's SPIR-V
 * @index: which (below %ZEX_DEVICE_LIBRARIES).
 * @size: its size.
 *
 * Return: the SPIR-V, or NULL where libzex was built without it.
 */
const void *zex_device_library(uint32_t index, size_t *size)
{
	if (index != 0 || !zex_hostrpc_kernel_spirv || !&zex_hostrpc_kernel_spirv_size)
		return NULL;
	*size = zex_hostrpc_kernel_spirv_size;
	return zex_hostrpc_kernel_spirv;
}
