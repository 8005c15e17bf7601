// SPDX-License-Identifier: MIT
/*
 * DOC: hostrpc_kernels.cl - a kernel whose every work-item calls the host through hostrpc
 *
 * ask_host() sends its global id and a second word; the host's answer
 * (what it left in the page's words) and the call's status are stored per
 * work-item. zex_hostrpc_call() comes from libzex's device library.
 */

#include "zex/zex_hostrpc_kernel.h"

kernel void ask_host(struct zex_hostrpc_kernel_view view, global ulong *answers,
		     global int *status)
{
	size_t i = get_global_id(0);
	ulong words[3] = { i, 0x5a5a0000u + i, 0 };

	status[i] = zex_hostrpc_call(&view, (uint)i, words, 3);
	answers[i] = words[2];
}
