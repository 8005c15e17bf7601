// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * DOC: zex_link_kernels.cl - two modules for zeModuleDynamicLink: one imports what the other exports
 *
 * Compiled twice (selftests/Makefile): zex_import_kernels.spv, whose
 * scaled() calls zex_test_scale() without defining it (SPIR-V Import
 * linkage), and with ZEX_EXPORTER zex_export_kernels.spv, which defines
 * it (Export). Both have a kernel named twice(), each its own.
 */

#ifdef ZEX_EXPORTER
int zex_test_scale(int x)
{
	return 10 * x + (int)get_group_id(0);
}

kernel void twice(global int *out)
{
	out[get_global_id(0)] = 22;
}
#else
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
#endif
