// SPDX-License-Identifier: MIT
/*
 * DOC: l0_device_compute.c - what a device's compute engine honours: compute and module properties
 *
 * Every device (the root and each tile) runs kernels on the same engine,
 * so they report the same: the group sizes and shared local memory the
 * engine runs (PoCL's limits for its CPU device), group counts up to
 * UINT32_MAX, one sub-group size (a work-item is its own sub-group on the
 * CPU engine); the SPIR-V version the translator reads, the precisions,
 * 64-bit atomics and argument room the engine's device reports. Without
 * the engine these say so (ZE_RESULT_ERROR_UNSUPPORTED_FEATURE).
 */

#include <string.h>

#include "l0/module/l0_module.h"

/* The SPIR-V version llvm-spirv-15 reads: up to 1.4. */
#define ZEX_SPIRV_VERSION	ZE_MAKE_VERSION(1, 4)

static const struct zex_engine_info *engine_info(ze_device_handle_t h, ze_result_t *res)
{
	struct zex_l0_device *dev = zex_l0_device(h);
	struct zex_compute_engine *e;

	if (!dev) {
		*res = ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
		return NULL;
	}
	e = zex_l0_engine(dev->drv);
	if (!e) {
		*res = zex_l0_fail(ZE_RESULT_ERROR_UNSUPPORTED_FEATURE, dev->drv->engine_why);
		return NULL;
	}
	return zex_engine_info(e);
}

static uint32_t clamp32(uint64_t v)
{
	return v > UINT32_MAX ? UINT32_MAX : (uint32_t)v;
}

ZE_APIEXPORT ze_result_t ZE_APICALL
zeDeviceGetComputeProperties(ze_device_handle_t hDevice,
			     ze_device_compute_properties_t *pComputeProperties)
{
	ze_device_compute_properties_t *p = pComputeProperties;
	const struct zex_engine_info *info;
	ze_result_t res = ZE_RESULT_SUCCESS;

	if (!zex_l0_device(hDevice))
		return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
	if (!p)
		return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
	info = engine_info(hDevice, &res);
	if (!info)
		return res;
	p->maxTotalGroupSize = clamp32(info->max_group_size);
	p->maxGroupSizeX = clamp32(info->max_group_dims[0]);
	p->maxGroupSizeY = clamp32(info->max_group_dims[1]);
	p->maxGroupSizeZ = clamp32(info->max_group_dims[2]);
	p->maxGroupCountX = UINT32_MAX;
	p->maxGroupCountY = UINT32_MAX;
	p->maxGroupCountZ = UINT32_MAX;
	p->maxSharedLocalMemory = clamp32(info->local_memory);
	p->numSubGroupSizes = 1;
	memset(p->subGroupSizes, 0, sizeof(p->subGroupSizes));
	p->subGroupSizes[0] = 1;
	return ZE_RESULT_SUCCESS;
}

/* OpenCL's cl_device_fp_config bits as Level Zero's (the same meanings). */
static ze_device_fp_flags_t fp_flags(uint64_t cl)
{
	ze_device_fp_flags_t f = 0;

	if (cl & (1u << 0))
		f |= ZE_DEVICE_FP_FLAG_DENORM;
	if (cl & (1u << 1))
		f |= ZE_DEVICE_FP_FLAG_INF_NAN;
	if (cl & (1u << 2))
		f |= ZE_DEVICE_FP_FLAG_ROUND_TO_NEAREST;
	if (cl & (1u << 3))
		f |= ZE_DEVICE_FP_FLAG_ROUND_TO_ZERO;
	if (cl & (1u << 4))
		f |= ZE_DEVICE_FP_FLAG_ROUND_TO_INF;
	if (cl & (1u << 5))
		f |= ZE_DEVICE_FP_FLAG_FMA;
	if (cl & (1u << 6))
		f |= ZE_DEVICE_FP_FLAG_SOFT_FLOAT;
	if (cl & (1u << 7))
		f |= ZE_DEVICE_FP_FLAG_ROUNDED_DIVIDE_SQRT;
	return f;
}

ZE_APIEXPORT ze_result_t ZE_APICALL
zeDeviceGetModuleProperties(ze_device_handle_t hDevice,
			    ze_device_module_properties_t *pModuleProperties)
{
	ze_device_module_properties_t *p = pModuleProperties;
	const struct zex_engine_info *info;
	ze_result_t res = ZE_RESULT_SUCCESS;

	if (!zex_l0_device(hDevice))
		return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
	if (!p)
		return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
	info = engine_info(hDevice, &res);
	if (!info)
		return res;
	p->spirvVersionSupported = ZEX_SPIRV_VERSION;
	p->flags = (info->fp16 ? ZE_DEVICE_MODULE_FLAG_FP16 : 0) |
		   (info->fp64 ? ZE_DEVICE_MODULE_FLAG_FP64 : 0) |
		   (info->int64_atomics ? ZE_DEVICE_MODULE_FLAG_INT64_ATOMICS : 0);
	p->fp16flags = fp_flags(info->fp16_config);
	p->fp32flags = fp_flags(info->fp32_config);
	p->fp64flags = fp_flags(info->fp64_config);
	p->maxArgumentsSize = clamp32(info->max_args_size);
	p->printfBufferSize = clamp32(info->printf_buffer);
	memset(&p->nativeKernelSupported, 0, sizeof(p->nativeKernelSupported));
	return ZE_RESULT_SUCCESS;
}
