// SPDX-License-Identifier: MIT
/*
 * DOC: hostrpc_kernel_call.cl - zex_hostrpc_call(): the hostrpc core's device half as a zex kernel's library
 *
 * OpenCL C, compiled with libzex to SPIR-V (clang-15 -cl-std=CL2.0,
 * llvm-spirv-15), which libzex links into a module that imports
 * zex_hostrpc_call(). The protocol core (hostrpc.c, with
 * hostrpc_atomic_opencl.h's atomics) is compiled in; of it only the page
 * call's steps are used (begin, publish, wait for the answer, end), so
 * only those are emitted. The struct hostrpc_client lives in the calling
 * work-item's private memory, pointed at the view's words.
 */

/* The core's function pointer types (never called here) must parse. */
#pragma OPENCL EXTENSION __cl_clang_function_pointers : enable

#include "../hostrpc.c"
#include "zex/zex_hostrpc_kernel.h"

int zex_hostrpc_call(const struct zex_hostrpc_kernel_view *view, uint hint, ulong *words,
		     uint num_words)
{
	struct hostrpc_client c = {
		.sh = {
			.request = (hr_u32_t *)view->request,
			.answer = (hr_u32_t *)view->answer,
			.summary = (hr_u32_t *)view->summary,
			.dead = (hr_u32_t *)view->dead,
			.pages = (__global hostrpc_page_t *)view->pages,
			.nslots = view->nslots,
		},
		.W = (hr_own_t *)view->owner,
		.M = (hr_own_t *)view->mirror,
		.id = view->id,
	};
	__global ulong *page;
	uint slot, i;
	int ret;

	if (num_words > ZEX_HOSTRPC_KERNEL_WORDS || !view->nslots)
		return ZEX_HOSTRPC_KERNEL_INVALID;
	/* No call is published to a channel already dead. */
	if (hr_u32_load(c.sh.dead))
		return ZEX_HOSTRPC_KERNEL_DEAD;
	ret = hostrpc_client_begin(&c, hint, &slot);
	if (ret)
		return ZEX_HOSTRPC_KERNEL_DEAD;
	page = (__global ulong *)&c.sh.pages[slot];
	for (i = 0; i < num_words; i++)
		page[i] = words[i];
	hostrpc_client_publish(&c, slot);
	ret = hostrpc_client_wait_answer(&c, slot);
	if (!ret)
		for (i = 0; i < num_words; i++)
			words[i] = page[i];
	hostrpc_client_end(&c, slot);
	return ret ? ZEX_HOSTRPC_KERNEL_DEAD : 0;
}
