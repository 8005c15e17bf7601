// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * DOC: zex_kernels.cl - the kernels zex_libzex_kernel_test launches
 *
 * Compiled to SPIR-V (zex_kernels.spv) beside the tests: scale_add() reads
 * and writes memory through pointers and takes values; geometry() records
 * what every work-item sees of its launch (groups, ids, sizes, offsets);
 * grid_barrier() has every work-group wait for all the others (which only
 * ends where they all run at once: a cooperative launch); ask_host() has
 * every work-item call the host through hostrpc (zex_hostrpc_call(), from
 * libzex's device library, linked in when the module is built).
 */

#include "zex/zex_hostrpc_kernel.h"

kernel void scale_add(global int *dst, const global int *src, int scale, int add)
{
	size_t i = get_global_id(0);

	dst[i] = src[i] * scale + add;
}

kernel void geometry(global ulong *out)
{
	global ulong *o = out + get_global_linear_id() * 16;

	for (uint d = 0; d < 3; d++) {
		o[d] = get_group_id(d);
		o[3 + d] = get_num_groups(d);
		o[6 + d] = get_global_id(d);
		o[9 + d] = get_global_size(d);
		o[12 + d] = get_global_offset(d);
	}
	o[15] = get_work_dim();
}

kernel void grid_barrier(volatile global int *arrived, global int *out)
{
	atomic_inc(arrived);
	while (atomic_add(arrived, 0) < (int)get_num_groups(0))
		;
	out[get_group_id(0)] = atomic_add(arrived, 0);
}

/* Word 2 of the page is the host's answer to words 0 and 1. */
kernel void ask_host(struct zex_hostrpc_kernel_view view, global ulong *answers,
		     global int *status)
{
	size_t i = get_global_id(0);
	ulong words[3] = { i, 0x5a5a0000u + i, 0 };

	status[i] = zex_hostrpc_call(&view, (uint)i, words, 3);
	answers[i] = words[2];
}

kernel void add_constant(global int *dst, int add)
{
	dst[get_global_id(0)] += add;
}
