/* SPDX-License-Identifier: MIT */
/*
 * DOC: device_library.h - the device code libzex links into the modules that call it
 *
 * One library: hostrpc's call from a kernel (zex_hostrpc_call(), declared
 * in <zex/zex_hostrpc_kernel.h>), built with libzex from
 * libzex/hostrpc/opencl/ to SPIR-V and held in libzex's read-only data. A
 * module that imports a name a library exports has the library linked in
 * when it is built, as if the application had linked the two
 * (zeModuleDynamicLink). A libzex built without it (its sources compiled
 * into a test, say) has no library: such imports stay unresolved.
 */
#ifndef ZEX_COMPUTE_DEVICE_LIBRARY_H
#define ZEX_COMPUTE_DEVICE_LIBRARY_H

#include <stddef.h>
#include <stdint.h>

/* The number of device libraries libzex may hold. */
#define ZEX_DEVICE_LIBRARIES	1

const void *zex_device_library(uint32_t index, size_t *size);

#endif /* ZEX_COMPUTE_DEVICE_LIBRARY_H */
