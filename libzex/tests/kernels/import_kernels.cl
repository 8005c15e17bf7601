// SPDX-License-Identifier: MIT
/*
 * DOC: import_kernels.cl - a module that imports a function another module exports
 *
 * scaled() calls zex_test_scale(), which export_kernels.cl defines and
 * this module only declares (SPIR-V Import linkage); both modules have a
 * kernel named twice(), each its own.
 */

int zex_test_scale(int x);

kernel void scaled(global int *out)
{
	size_t i = get_global_id(0);

	out[i] = zex_test_scale((int)i);
}

kernel void twice(global int *out)
{
	out[get_global_id(0)] = 2;
}
