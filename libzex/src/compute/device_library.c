// SPDX-License-Identifier: MIT
/*
 * DOC: device_library.c - where the device libraries' SPIR-V is
 *
 * The build writes each library's SPIR-V as the bytes of a C array
 * (libzex/Makefile: zex_hostrpc_kernel_spirv.inc, in a folder it adds to
 * this file's include path), and they are compiled in here. A build of
 * libzex's sources without that file (a test that compiles them in) has
 * no library: the imports stay unresolved.
 */
#include "compute/device_library.h"

#if __has_include("zex_hostrpc_kernel_spirv.inc")
static const unsigned char hostrpc_kernel[] __attribute__((aligned(4))) = {
#include "zex_hostrpc_kernel_spirv.inc"
};
#define HOSTRPC_KERNEL		hostrpc_kernel
#define HOSTRPC_KERNEL_SIZE	sizeof(hostrpc_kernel)
#else
#define HOSTRPC_KERNEL		NULL
#define HOSTRPC_KERNEL_SIZE	0
#endif

/**
 * zex_device_library - a device library's SPIR-V
 * @index: which (below %ZEX_DEVICE_LIBRARIES).
 * @size: its size.
 *
 * Return: the SPIR-V, or NULL where libzex was built without it.
 */
const void *zex_device_library(uint32_t index, size_t *size)
{
	if (index != 0 || !HOSTRPC_KERNEL_SIZE)
		return NULL;
	*size = HOSTRPC_KERNEL_SIZE;
	return HOSTRPC_KERNEL;
}
