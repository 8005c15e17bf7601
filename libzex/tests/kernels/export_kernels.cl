// SPDX-License-Identifier: MIT
/*
 * DOC: export_kernels.cl - a module that exports a function (and has a kernel named as another module's)
 *
 * zex_test_scale() has Export linkage: import_kernels.cl's module calls
 * it. Its group id is read through the redirected geometry built-ins, so
 * a linked launch's parts see the whole launch in it too.
 */

int zex_test_scale(int x)
{
	return 10 * x + (int)get_group_id(0);
}

kernel void twice(global int *out)
{
	out[get_global_id(0)] = 22;
}
