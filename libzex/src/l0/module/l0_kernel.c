// SPDX-License-Identifier: MIT
/*
 * DOC: l0_kernel.c - zeKernel*: a module's kernel, its arguments and group size
 *
 * A kernel holds what its next launch takes: each argument's bytes as
 * set (checked against the module: a pointer is a pointer's size, a value
 * at most its type's size as OpenCL C lays it out, zero-extended when
 * smaller, as compute-runtime takes it; shared local memory any non-zero
 * size with no value), the group size (1, 1, 1 until set; a kernel whose
 * module requires one has it from the start and refuses others), the
 * global offset. An append captures them all (zex_l0_kernel_capture()),
 * so the application may set new ones at once; the capture holds the
 * engine's kernel, which outlives the handle while a launch names it.
 * Images and samplers are refused: the engine takes none.
 */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "l0/module/l0_module.h"

/* The bytes the arguments' values take, each 8-aligned; local memory none. */
static uint32_t values_size(const struct zex_l0_kernel *k)
{
	uint32_t i, at = 0;

	for (i = 0; i < k->num_args; i++)
		if (k->args[i].kind != ZEX_SPIRV_ARG_LOCAL)
			at += (k->args[i].size + 7) & ~7u;
	return at;
}

/* Where each argument's bytes go. */
static int layout_args(struct zex_l0_kernel *k)
{
	uint32_t i, at = 0, n = k->num_args;

	k->offsets = calloc(n ? n : 1, sizeof(*k->offsets));
	k->sizes = calloc(n ? n : 1, sizeof(*k->sizes));
	k->set = calloc(n ? n : 1, sizeof(*k->set));
	if (!k->offsets || !k->sizes || !k->set)
		return -1;
	for (i = 0; i < n; i++) {
		k->offsets[i] = at;
		if (k->args[i].kind != ZEX_SPIRV_ARG_LOCAL)
			at += (k->args[i].size + 7) & ~7u;
	}
	k->values = calloc(at ? at : 1, 1);
	return k->values ? 0 : -1;
}

static void kernel_free(struct zex_l0_kernel *k)
{
	free(k->values);
	free(k->offsets);
	free(k->sizes);
	free(k->set);
	zex_kernel_put(k->kernel);
}

ZE_APIEXPORT ze_result_t ZE_APICALL zeKernelCreate(ze_module_handle_t hModule,
						   const ze_kernel_desc_t *desc,
						   ze_kernel_handle_t *phKernel)
{
	struct zex_l0_module *m = zex_l0_module(hModule);
	const struct zex_spirv_kernel *entry = NULL;
	struct zex_l0_kernel *k;
	uint32_t i;
	int ret;

	if (!m)
		return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
	if (!desc || !phKernel || !desc->pKernelName)
		return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
	if (desc->flags & ~(ze_kernel_flags_t)(ZE_KERNEL_FLAG_FORCE_RESIDENCY |
					       ZE_KERNEL_FLAG_EXPLICIT_RESIDENCY))
		return ZE_RESULT_ERROR_INVALID_ENUMERATION;
	for (i = 0; i < m->num_kernels && !entry; i++)
		if (!strcmp(m->kernels[i].name, desc->pKernelName))
			entry = &m->kernels[i];
	if (!entry)
		return zex_l0_fail(ZE_RESULT_ERROR_INVALID_KERNEL_NAME,
				   "zex: the module has no kernel of that name");
	k = zex_object_pool_get(&zex_l0_kernels);
	if (!k)
		return ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY;
	memset((char *)k + sizeof(k->obj), 0, sizeof(*k) - sizeof(k->obj));
	ret = zex_kernel_create(m->program, entry->name, &k->kernel);
	if (ret) {
		zex_object_pool_put(&zex_l0_kernels, k);
		if (ret == -ENOLINK)
			return zex_l0_fail(ZE_RESULT_ERROR_INVALID_MODULE_UNLINKED,
					   "zex: the module imports names not linked yet "
					   "(zeModuleDynamicLink)");
		return ret == -ENOMEM ? ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY :
					zex_l0_fail(ZE_RESULT_ERROR_INVALID_KERNEL_NAME,
						    "zex: the engine built no such kernel");
	}
	k->module = m;
	k->spirv = entry;
	k->args = zex_kernel_args(k->kernel, &k->num_args);
	if (layout_args(k)) {
		kernel_free(k);
		zex_object_pool_put(&zex_l0_kernels, k);
		return ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY;
	}
	for (i = 0; i < 3; i++)
		k->group_size[i] = entry->local_size[0] ? entry->local_size[i] : 1;
	pthread_mutex_init(&k->lock, NULL);
	zex_l0_object_publish(&k->obj);
	*phKernel = (ze_kernel_handle_t)k;
	return ZE_RESULT_SUCCESS;
}

ZE_APIEXPORT ze_result_t ZE_APICALL zeKernelDestroy(ze_kernel_handle_t hKernel)
{
	struct zex_l0_kernel *k = zex_l0_kernel(hKernel);
	struct zex_l0_kernel copy;

	if (!k)
		return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
	copy = *k;
	zex_object_pool_put(&zex_l0_kernels, k);
	pthread_mutex_destroy(&copy.lock);
	kernel_free(&copy);
	return ZE_RESULT_SUCCESS;
}

ZE_APIEXPORT ze_result_t ZE_APICALL zeKernelSetArgumentValue(ze_kernel_handle_t hKernel,
							     uint32_t argIndex, size_t argSize,
							     const void *pArgValue)
{
	struct zex_l0_kernel *k = zex_l0_kernel(hKernel);
	const struct zex_spirv_arg *a;

	if (!k)
		return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
	if (argIndex >= k->num_args)
		return zex_l0_fail(ZE_RESULT_ERROR_INVALID_KERNEL_ARGUMENT_INDEX,
				   "zex: the kernel has no argument of that index");
	a = &k->args[argIndex];
	switch (a->kind) {
	case ZEX_SPIRV_ARG_LOCAL:
		if (!argSize || argSize > UINT32_MAX || pArgValue)
			return zex_l0_fail(ZE_RESULT_ERROR_INVALID_KERNEL_ARGUMENT_SIZE,
					   "zex: shared local memory is a non-zero size, no value");
		break;
	case ZEX_SPIRV_ARG_POINTER:
		if (argSize != sizeof(void *))
			return zex_l0_fail(ZE_RESULT_ERROR_INVALID_KERNEL_ARGUMENT_SIZE,
					   "zex: a pointer argument is a pointer's size");
		break;
	case ZEX_SPIRV_ARG_VALUE:
		/*
		 * As compute-runtime takes a value: a smaller one zero-extended,
		 * a larger one cut to the argument's size (its leading bytes,
		 * the low ones of an integer: a size_t given for an int).
		 */
		if (!argSize)
			return zex_l0_fail(ZE_RESULT_ERROR_INVALID_KERNEL_ARGUMENT_SIZE,
					   "zex: a value argument has a size");
		if (!pArgValue)
			return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
		argSize = argSize < a->size ? argSize : a->size;
		break;
	default:
		return zex_l0_fail(ZE_RESULT_ERROR_UNSUPPORTED_FEATURE,
				   "zex: the compute engine takes no image or sampler");
	}
	pthread_mutex_lock(&k->lock);
	if (a->kind != ZEX_SPIRV_ARG_LOCAL) {
		/* A NULL pointer argument is a null pointer. */
		memset(k->values + k->offsets[argIndex], 0, a->size);
		if (pArgValue)
			memcpy(k->values + k->offsets[argIndex], pArgValue, argSize);
		argSize = a->size;
	}
	k->sizes[argIndex] = (uint32_t)argSize;
	k->set[argIndex] = true;
	pthread_mutex_unlock(&k->lock);
	return ZE_RESULT_SUCCESS;
}

/* Whether @x, @y, @z is a group size the engine runs and the kernel allows. */
static ze_result_t check_group_size(struct zex_l0_kernel *k, uint32_t x, uint32_t y, uint32_t z)
{
	const struct zex_engine_info *info = zex_engine_info(zex_l0_engine(k->module->drv));
	const uint32_t *req = k->spirv->local_size;

	if (!x || !y || !z || x > info->max_group_dims[0] || y > info->max_group_dims[1] ||
	    z > info->max_group_dims[2] ||
	    (uint64_t)x * y * z > zex_kernel_max_group_size(k->kernel))
		return zex_l0_fail(ZE_RESULT_ERROR_INVALID_GROUP_SIZE_DIMENSION,
				   "zex: a group size the compute engine does not run");
	if (req[0] && (x != req[0] || y != req[1] || z != req[2]))
		return zex_l0_fail(ZE_RESULT_ERROR_INVALID_GROUP_SIZE_DIMENSION,
				   "zex: the kernel requires another group size");
	return ZE_RESULT_SUCCESS;
}

ZE_APIEXPORT ze_result_t ZE_APICALL zeKernelSetGroupSize(ze_kernel_handle_t hKernel,
							 uint32_t groupSizeX, uint32_t groupSizeY,
							 uint32_t groupSizeZ)
{
	struct zex_l0_kernel *k = zex_l0_kernel(hKernel);
	ze_result_t res;

	if (!k)
		return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
	res = check_group_size(k, groupSizeX, groupSizeY, groupSizeZ);
	if (res)
		return res;
	pthread_mutex_lock(&k->lock);
	k->group_size[0] = groupSizeX;
	k->group_size[1] = groupSizeY;
	k->group_size[2] = groupSizeZ;
	pthread_mutex_unlock(&k->lock);
	return ZE_RESULT_SUCCESS;
}

/* The largest divisor of @n that is at most @limit. */
static uint32_t largest_divisor(uint32_t n, uint64_t limit)
{
	uint32_t d;

	for (d = limit < n ? (uint32_t)limit : n; d > 1; d--)
		if (n % d == 0)
			return d;
	return 1;
}

/* As many groups as the pools of the module's device have threads (engine.c). */
ZE_APIEXPORT ze_result_t ZE_APICALL zeKernelSuggestMaxCooperativeGroupCount(ze_kernel_handle_t hKernel,
									    uint32_t *totalGroupCount)
{
	struct zex_l0_kernel *k = zex_l0_kernel(hKernel);
	struct zex_l0_device *dev;

	if (!k)
		return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
	if (!totalGroupCount)
		return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
	dev = k->module->device;
	*totalGroupCount = zex_engine_cooperative_groups(zex_l0_engine(dev->drv),
							 zex_l0_device_tiles(dev));
	return ZE_RESULT_SUCCESS;
}

ZE_APIEXPORT ze_result_t ZE_APICALL zeKernelSuggestGroupSize(ze_kernel_handle_t hKernel,
							     uint32_t globalSizeX,
							     uint32_t globalSizeY,
							     uint32_t globalSizeZ,
							     uint32_t *groupSizeX,
							     uint32_t *groupSizeY,
							     uint32_t *groupSizeZ)
{
	struct zex_l0_kernel *k = zex_l0_kernel(hKernel);
	const struct zex_engine_info *info;
	uint64_t room;

	if (!k)
		return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
	if (!groupSizeX || !groupSizeY || !groupSizeZ)
		return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
	if (!globalSizeX || !globalSizeY || !globalSizeZ)
		return zex_l0_fail(ZE_RESULT_ERROR_INVALID_GROUP_SIZE_DIMENSION,
				   "zex: a global size of 0");
	if (k->spirv->local_size[0]) {
		*groupSizeX = k->spirv->local_size[0];
		*groupSizeY = k->spirv->local_size[1];
		*groupSizeZ = k->spirv->local_size[2];
		return ZE_RESULT_SUCCESS;
	}
	/* Whole groups that divide each dimension, x first, within the engine's limits. */
	info = zex_engine_info(zex_l0_engine(k->module->drv));
	room = zex_kernel_max_group_size(k->kernel);
	*groupSizeX = largest_divisor(globalSizeX, room < info->max_group_dims[0] ?
						   room : info->max_group_dims[0]);
	room /= *groupSizeX;
	*groupSizeY = largest_divisor(globalSizeY, room < info->max_group_dims[1] ?
						   room : info->max_group_dims[1]);
	room /= *groupSizeY;
	*groupSizeZ = largest_divisor(globalSizeZ, room < info->max_group_dims[2] ?
						   room : info->max_group_dims[2]);
	return ZE_RESULT_SUCCESS;
}

/* ze_kernel_max_group_size_properties_ext_t (API 1.6's; not in Debian's 1.4 header). */
#define ZEX_KERNEL_MAX_GROUP_SIZE_EXT_PROPERTIES	((ze_structure_type_t)0x10013)
struct zex_kernel_max_group_size_properties {
	ze_structure_type_t stype;
	void *pNext;
	uint32_t maxGroupSize;
};

/* The structures chained to zeKernelGetProperties' that libzex fills in. */
static ze_result_t chained_properties(struct zex_l0_kernel *k, void *next)
{
	while (next) {
		ze_base_properties_t *base = next;

		if (base->stype == ZE_STRUCTURE_TYPE_KERNEL_PREFERRED_GROUP_SIZE_PROPERTIES) {
			ze_kernel_preferred_group_size_properties_t *pref = next;

			pref->preferredMultiple = zex_kernel_preferred_multiple(k->kernel);
		} else if (base->stype == ZEX_KERNEL_MAX_GROUP_SIZE_EXT_PROPERTIES) {
			struct zex_kernel_max_group_size_properties *max = next;
			uint64_t n = zex_kernel_max_group_size(k->kernel);

			max->maxGroupSize = n > UINT32_MAX ? UINT32_MAX : (uint32_t)n;
		}
		next = base->pNext;
	}
	return ZE_RESULT_SUCCESS;
}

ZE_APIEXPORT ze_result_t ZE_APICALL zeKernelGetProperties(ze_kernel_handle_t hKernel,
							  ze_kernel_properties_t *pKernelProperties)
{
	struct zex_l0_kernel *k = zex_l0_kernel(hKernel);
	ze_kernel_properties_t *p = pKernelProperties;
	uint64_t priv;

	if (!k)
		return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
	if (!p)
		return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
	priv = zex_kernel_private_memory(k->kernel);
	p->numKernelArgs = k->num_args;
	p->requiredGroupSizeX = k->spirv->local_size[0];
	p->requiredGroupSizeY = k->spirv->local_size[1];
	p->requiredGroupSizeZ = k->spirv->local_size[2];
	p->requiredNumSubGroups = 0;
	p->requiredSubgroupSize = 0;
	/* A work-item is its own sub-group on the CPU engine. */
	p->maxSubgroupSize = 1;
	p->maxNumSubgroups = (uint32_t)zex_kernel_max_group_size(k->kernel);
	p->localMemSize = 0;
	p->privateMemSize = priv > UINT32_MAX ? UINT32_MAX : (uint32_t)priv;
	p->spillMemSize = 0;
	memset(&p->uuid, 0, sizeof(p->uuid));
	return chained_properties(k, p->pNext);
}

ZE_APIEXPORT ze_result_t ZE_APICALL zeKernelGetName(ze_kernel_handle_t hKernel, size_t *pSize,
						    char *pName)
{
	struct zex_l0_kernel *k = zex_l0_kernel(hKernel);

	if (!k)
		return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
	if (!pSize)
		return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
	return zex_l0_string_out(k->spirv->name, pSize, pName);
}

#define ZEX_INDIRECT_FLAGS (ZE_KERNEL_INDIRECT_ACCESS_FLAG_HOST | \
			    ZE_KERNEL_INDIRECT_ACCESS_FLAG_DEVICE | \
			    ZE_KERNEL_INDIRECT_ACCESS_FLAG_SHARED)

/* Every allocation is in the one address space kernels run in: a hint. */
ZE_APIEXPORT ze_result_t ZE_APICALL zeKernelSetIndirectAccess(ze_kernel_handle_t hKernel,
							      ze_kernel_indirect_access_flags_t flags)
{
	struct zex_l0_kernel *k = zex_l0_kernel(hKernel);

	if (!k)
		return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
	if (flags & ~(ze_kernel_indirect_access_flags_t)ZEX_INDIRECT_FLAGS)
		return ZE_RESULT_ERROR_INVALID_ENUMERATION;
	pthread_mutex_lock(&k->lock);
	k->indirect = flags;
	pthread_mutex_unlock(&k->lock);
	return ZE_RESULT_SUCCESS;
}

ZE_APIEXPORT ze_result_t ZE_APICALL zeKernelGetIndirectAccess(ze_kernel_handle_t hKernel,
							      ze_kernel_indirect_access_flags_t *pFlags)
{
	struct zex_l0_kernel *k = zex_l0_kernel(hKernel);

	if (!k)
		return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
	if (!pFlags)
		return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
	pthread_mutex_lock(&k->lock);
	*pFlags = k->indirect;
	pthread_mutex_unlock(&k->lock);
	return ZE_RESULT_SUCCESS;
}

/* The CPU engine's caches are the CPU's: a valid preference is taken and has no effect. */
ZE_APIEXPORT ze_result_t ZE_APICALL zeKernelSetCacheConfig(ze_kernel_handle_t hKernel,
							   ze_cache_config_flags_t flags)
{
	if (!zex_l0_kernel(hKernel))
		return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
	if (flags & ~(ze_cache_config_flags_t)(ZE_CACHE_CONFIG_FLAG_LARGE_SLM |
					       ZE_CACHE_CONFIG_FLAG_LARGE_DATA))
		return ZE_RESULT_ERROR_INVALID_ENUMERATION;
	return ZE_RESULT_SUCCESS;
}

/*
 * The kernel's source attributes, as OpenCL C writes them, from what the
 * SPIR-V keeps of them (its execution modes); "" when none.
 */
static void source_attributes(const struct zex_spirv_kernel *k, char *out, size_t size)
{
	const uint32_t *r = k->local_size, *h = k->local_size_hint;
	int n = 0;

	out[0] = '\0';
	if (r[0])
		n = snprintf(out, size, "reqd_work_group_size(%u,%u,%u)", r[0], r[1], r[2]);
	if (h[0] && n >= 0 && (size_t)n < size)
		snprintf(out + n, size - (size_t)n, "%swork_group_size_hint(%u,%u,%u)",
			 n ? " " : "", h[0], h[1], h[2]);
}

ZE_APIEXPORT ze_result_t ZE_APICALL zeKernelGetSourceAttributes(ze_kernel_handle_t hKernel,
								uint32_t *pSize, char **pString)
{
	struct zex_l0_kernel *k = zex_l0_kernel(hKernel);
	char attrs[128];
	size_t len;

	if (!k)
		return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
	if (!pSize)
		return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
	source_attributes(k->spirv, attrs, sizeof(attrs));
	len = strlen(attrs) + 1;
	if (!*pSize || !pString || !*pString) {
		*pSize = (uint32_t)len;
		return ZE_RESULT_SUCCESS;
	}
	if (*pSize < len)
		return ZE_RESULT_ERROR_INVALID_SIZE;
	memcpy(*pString, attrs, len);
	*pSize = (uint32_t)len;
	return ZE_RESULT_SUCCESS;
}

ZE_APIEXPORT ze_result_t ZE_APICALL zeKernelSetGlobalOffsetExp(ze_kernel_handle_t hKernel,
							       uint32_t offsetX, uint32_t offsetY,
							       uint32_t offsetZ)
{
	struct zex_l0_kernel *k = zex_l0_kernel(hKernel);

	if (!k)
		return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
	pthread_mutex_lock(&k->lock);
	k->global_offset[0] = offsetX;
	k->global_offset[1] = offsetY;
	k->global_offset[2] = offsetZ;
	pthread_mutex_unlock(&k->lock);
	return ZE_RESULT_SUCCESS;
}

/**
 * zex_l0_kernel_capture - what a launch of @k takes, now
 * @k: the kernel.
 * @c: the capture; release it with zex_l0_kernel_capture_release().
 *
 * Return: ZE_RESULT_SUCCESS, or an error when an argument was never set.
 */
ze_result_t zex_l0_kernel_capture(struct zex_l0_kernel *k, struct zex_l0_kernel_capture *c)
{
	uint32_t n = k->num_args, i, bytes;
	ze_result_t res = ZE_RESULT_SUCCESS;

	memset(c, 0, sizeof(*c));
	pthread_mutex_lock(&k->lock);
	for (i = 0; i < n && !res; i++)
		if (!k->set[i])
			res = zex_l0_fail(ZE_RESULT_ERROR_INVALID_ARGUMENT,
					  "zex: a kernel argument was never set");
	bytes = values_size(k);
	if (!res) {
		c->args.num = n;
		c->args.size = malloc((n ? n : 1) * sizeof(uint32_t));
		c->args.offset = malloc((n ? n : 1) * sizeof(uint32_t));
		c->args.data = malloc(bytes ? bytes : 1);
		if (!c->args.size || !c->args.offset || !c->args.data) {
			res = ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY;
		} else {
			memcpy(c->args.size, k->sizes, n * sizeof(uint32_t));
			memcpy(c->args.offset, k->offsets, n * sizeof(uint32_t));
			memcpy(c->args.data, k->values, bytes);
			memcpy(c->group_size, k->group_size, sizeof(c->group_size));
			memcpy(c->global_offset, k->global_offset, sizeof(c->global_offset));
			c->kernel = zex_kernel_get(k->kernel);
		}
	}
	pthread_mutex_unlock(&k->lock);
	if (res)
		zex_l0_kernel_capture_release(c);
	return res;
}

/** zex_l0_kernel_capture_release - let a capture go */
void zex_l0_kernel_capture_release(struct zex_l0_kernel_capture *c)
{
	free(c->args.size);
	free(c->args.offset);
	free(c->args.data);
	if (c->kernel)
		zex_kernel_put(c->kernel);
	memset(c, 0, sizeof(*c));
}
