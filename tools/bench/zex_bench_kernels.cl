// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * DOC: zex_bench_kernels.cl - the kernels zex-bench-kernel launches
 *
 * empty() does nothing (a launch's round trip); spin() runs @n rounds of
 * xorshift per work-item (compute-bound, no memory traffic but its result).
 */

kernel void empty(global uint *out)
{
}

kernel void spin(global uint *out, uint n)
{
	uint x = get_global_id(0) + 1;

	for (uint i = 0; i < n; i++) {
		x ^= x << 13;
		x ^= x >> 17;
		x ^= x << 5;
	}
	out[get_global_id(0)] = x;
}
