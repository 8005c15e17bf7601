// SPDX-License-Identifier: MIT
/*
 * DOC: l0_launch.c - zeCommandListAppendLaunchKernel*: a kernel's launch in a command list
 *
 * An append captures the kernel (its arguments, group size and global
 * offset, zex_l0_kernel_capture()) into a struct zex_l0_launch the list
 * keeps, and records the kernel's LAUNCH command naming it (its cookie),
 * between the append's events like every other operation, so that a
 * launch is ordered with the copies, fills, barriers and events of its
 * queue. The queue publishes the launch where its compute threads wait
 * (l0_compute.c, which the LAUNCH's destination is set to at submission).
 * Each submission naming a launch holds it until the submission has run
 * (l0_submit.c); a regular list holds its launches too, until its reset or
 * destroy, and an immediate list's append only until it has submitted
 * them. So a list destroyed or reset while a queue still runs it (which
 * Level Zero leaves undefined) frees nothing a serving thread is about to
 * read. An indirect launch reads its
 * group counts from the application's buffer when it runs, so that a
 * command before it may write them; several kernels launched indirectly
 * at once read how many of them run the same way.
 */

#include <stdlib.h>
#include <string.h>

#include "l0/exec/l0_exec.h"

/**
 * zex_l0_launches_release - a regular list lets its launches go (a reset, a destroy)
 * @l: the list.
 */
void zex_l0_launches_release(struct zex_l0_cmdlist *l)
{
	struct zex_l0_launch *dead, *next;

	pthread_mutex_lock(&l->lock);
	dead = l->launches;
	l->launches = NULL;
	pthread_mutex_unlock(&l->lock);
	for (; dead; dead = next) {
		next = dead->next;
		zex_l0_launch_put(dead);
	}
}

/* Whether the list's queue group runs kernels. */
static bool runs_kernels(struct zex_l0_cmdlist *l)
{
	struct zex_l0_queue_group groups[ZEX_L0_MAX_QUEUE_GROUPS];

	zex_l0_queue_groups(l->device, groups);
	return groups[l->ordinal].engine_class == DRM_ZEX_ENGINE_CLASS_COMPUTE;
}

/*
 * One launch of kernel @k in @op: its groups (or where they are read, for
 * an indirect one), and for one of several indirect kernels where their
 * number is read and its index. Return: the result; *@out the launch.
 */
static ze_result_t add_launch(struct zex_l0_op *op, struct zex_l0_kernel *k,
			      const ze_group_count_t *counts, bool indirect, const uint32_t *count,
			      uint32_t index, bool cooperative, struct zex_l0_launch **out)
{
	struct zex_l0_launch *launch;
	ze_result_t res;

	/* No group: nothing runs, the events still do their part. */
	if (!indirect && (!counts->groupCountX || !counts->groupCountY || !counts->groupCountZ))
		return ZE_RESULT_SUCCESS;
	launch = calloc(1, sizeof(*launch));
	if (!launch)
		return ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY;
	res = zex_l0_kernel_capture(k, &launch->kernel);
	if (res) {
		free(launch);
		return res;
	}
	launch->cooperative = cooperative;
	atomic_init(&launch->refs, 1);
	if (indirect) {
		launch->indirect = counts;
		launch->count = count;
		launch->index = index;
	} else {
		launch->groups[0] = counts->groupCountX;
		launch->groups[1] = counts->groupCountY;
		launch->groups[2] = counts->groupCountZ;
	}
	if (zex_l0_op_push(op, (struct drm_zex_command){ .op = DRM_ZEX_CMD_LAUNCH,
							.value = (uintptr_t)launch })) {
		zex_l0_launch_put(launch);
		return ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY;
	}
	/* A regular list keeps it for the executions to come. */
	if (!op->list->immediate) {
		pthread_mutex_lock(&op->list->lock);
		launch->next = op->list->launches;
		op->list->launches = launch;
		pthread_mutex_unlock(&op->list->lock);
	}
	*out = launch;
	return ZE_RESULT_SUCCESS;
}

/*
 * End @op: an immediate list's append lets its launches go, the submission
 * that names them holding them now (or, none made, they go).
 */
static ze_result_t end_launches(struct zex_l0_op *op, ze_result_t res,
				struct zex_l0_launch **launches, uint32_t n)
{
	uint32_t i;

	res = zex_l0_op_end(op, res);
	if (op->list->immediate)
		for (i = 0; i < n; i++)
			if (launches[i])
				zex_l0_launch_put(launches[i]);
	return res;
}

/*
 * Whether a cooperative launch of @counts groups on @l's device has them
 * all run at once (zeKernelSuggestMaxCooperativeGroupCount()).
 */
static ze_result_t check_cooperative(struct zex_l0_cmdlist *l, const ze_group_count_t *counts)
{
	struct zex_compute_engine *e = zex_l0_engine(l->drv);
	uint64_t groups = (uint64_t)counts->groupCountX * counts->groupCountY * counts->groupCountZ;
	uint32_t tiles = zex_l0_device_tiles(l->device);

	if (e && groups > zex_engine_cooperative_groups(e, tiles))
		return zex_l0_fail(ZE_RESULT_ERROR_INVALID_ARGUMENT,
				   "zex: a cooperative launch has more groups than run at once "
				   "(zeKernelSuggestMaxCooperativeGroupCount)");
	return ZE_RESULT_SUCCESS;
}

static ze_result_t append_launch(ze_command_list_handle_t hCommandList, ze_kernel_handle_t hKernel,
				 const ze_group_count_t *counts, bool indirect, bool cooperative,
				 ze_event_handle_t hSignalEvent, uint32_t numWaitEvents,
				 ze_event_handle_t *phWaitEvents)
{
	struct zex_l0_kernel *k = zex_l0_kernel(hKernel);
	struct zex_l0_launch *launch = NULL;
	struct zex_l0_op op;
	ze_result_t res;

	if (!k)
		return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
	if (!counts)
		return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
	res = zex_l0_op_begin(&op, hCommandList, hSignalEvent, numWaitEvents, phWaitEvents);
	if (res)
		return res;
	if (!runs_kernels(op.list))
		res = zex_l0_fail(ZE_RESULT_ERROR_INVALID_COMMAND_LIST_TYPE,
				  "zex: kernels run on the compute queue group only");
	else if (cooperative)
		res = check_cooperative(op.list, counts);
	if (!res)
		res = add_launch(&op, k, counts, indirect, NULL, 0, cooperative, &launch);
	return end_launches(&op, res, &launch, 1);
}

ZE_APIEXPORT ze_result_t ZE_APICALL
zeCommandListAppendLaunchKernel(ze_command_list_handle_t hCommandList, ze_kernel_handle_t hKernel,
				const ze_group_count_t *pLaunchFuncArgs,
				ze_event_handle_t hSignalEvent, uint32_t numWaitEvents,
				ze_event_handle_t *phWaitEvents)
{
	return append_launch(hCommandList, hKernel, pLaunchFuncArgs, false, false, hSignalEvent,
			     numWaitEvents, phWaitEvents);
}

/* All the launch's groups run at once: they may wait for each other. */
ZE_APIEXPORT ze_result_t ZE_APICALL
zeCommandListAppendLaunchCooperativeKernel(ze_command_list_handle_t hCommandList,
					   ze_kernel_handle_t hKernel,
					   const ze_group_count_t *pLaunchFuncArgs,
					   ze_event_handle_t hSignalEvent, uint32_t numWaitEvents,
					   ze_event_handle_t *phWaitEvents)
{
	return append_launch(hCommandList, hKernel, pLaunchFuncArgs, false, true, hSignalEvent,
			     numWaitEvents, phWaitEvents);
}

ZE_APIEXPORT ze_result_t ZE_APICALL
zeCommandListAppendLaunchKernelIndirect(ze_command_list_handle_t hCommandList,
					ze_kernel_handle_t hKernel,
					const ze_group_count_t *pLaunchArgumentsBuffer,
					ze_event_handle_t hSignalEvent, uint32_t numWaitEvents,
					ze_event_handle_t *phWaitEvents)
{
	return append_launch(hCommandList, hKernel, pLaunchArgumentsBuffer, true, false,
			     hSignalEvent, numWaitEvents, phWaitEvents);
}

/* Up to @numKernels launches, each with its groups read as it runs; *@pCountBuffer of them run. */
ZE_APIEXPORT ze_result_t ZE_APICALL
zeCommandListAppendLaunchMultipleKernelsIndirect(ze_command_list_handle_t hCommandList,
						 uint32_t numKernels, ze_kernel_handle_t *phKernels,
						 const uint32_t *pCountBuffer,
						 const ze_group_count_t *pLaunchArgumentsBuffer,
						 ze_event_handle_t hSignalEvent,
						 uint32_t numWaitEvents,
						 ze_event_handle_t *phWaitEvents)
{
	struct zex_l0_launch **launches;
	struct zex_l0_op op;
	ze_result_t res;
	uint32_t i;

	if (!phKernels || !pCountBuffer || !pLaunchArgumentsBuffer)
		return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
	for (i = 0; i < numKernels; i++)
		if (!zex_l0_kernel(phKernels[i]))
			return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
	launches = calloc(numKernels ? numKernels : 1, sizeof(*launches));
	if (!launches)
		return ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY;
	res = zex_l0_op_begin(&op, hCommandList, hSignalEvent, numWaitEvents, phWaitEvents);
	if (res) {
		free(launches);
		return res;
	}
	if (!runs_kernels(op.list))
		res = zex_l0_fail(ZE_RESULT_ERROR_INVALID_COMMAND_LIST_TYPE,
				  "zex: kernels run on the compute queue group only");
	for (i = 0; i < numKernels && !res; i++)
		res = add_launch(&op, zex_l0_kernel(phKernels[i]), &pLaunchArgumentsBuffer[i], true,
				 pCountBuffer, i, false, &launches[i]);
	res = end_launches(&op, res, launches, numKernels);
	free(launches);
	return res;
}

/*
 * 1.14: a launch that first sets the kernel's group size and every argument,
 * as zeKernelSetGroupSize() and zeKernelSetArgumentValue() would:
 * @pArguments[i] points to argument i's value (the argument's size of it),
 * or for a shared local memory argument to its size in bytes, a 32-bit
 * unsigned integer. libzex knows no extension of a launch: a @pNext is
 * refused.
 */
ZE_APIEXPORT ze_result_t ZE_APICALL
zeCommandListAppendLaunchKernelWithArguments(ze_command_list_handle_t hCommandList,
					     ze_kernel_handle_t hKernel,
					     const ze_group_count_t groupCounts,
					     const ze_group_size_t groupSizes, void **pArguments,
					     const void *pNext, ze_event_handle_t hSignalEvent,
					     uint32_t numWaitEvents, ze_event_handle_t *phWaitEvents)
{
	struct zex_l0_kernel *k = zex_l0_kernel(hKernel);
	ze_result_t res;
	uint32_t i;

	if (!k || !zex_l0_cmdlist(hCommandList))
		return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
	if (numWaitEvents && !phWaitEvents)
		return ZE_RESULT_ERROR_INVALID_SIZE;
	if (k->num_args && !pArguments)
		return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
	if (pNext)
		return zex_l0_fail(ZE_RESULT_ERROR_UNSUPPORTED_FEATURE,
				   "zex: a launch takes no extension structure");
	res = zeKernelSetGroupSize(hKernel, groupSizes.groupSizeX, groupSizes.groupSizeY,
				   groupSizes.groupSizeZ);
	for (i = 0; i < k->num_args && !res; i++) {
		const struct zex_spirv_arg *a = &k->args[i];

		if (a->kind != ZEX_SPIRV_ARG_LOCAL)
			res = zeKernelSetArgumentValue(hKernel, i, a->size, pArguments[i]);
		else if (!pArguments[i])
			res = ZE_RESULT_ERROR_INVALID_NULL_POINTER;
		else
			res = zeKernelSetArgumentValue(hKernel, i, *(const uint32_t *)pArguments[i],
						       NULL);
	}
	if (res)
		return res;
	return append_launch(hCommandList, hKernel, &groupCounts, false, false, hSignalEvent,
			     numWaitEvents, phWaitEvents);
}
