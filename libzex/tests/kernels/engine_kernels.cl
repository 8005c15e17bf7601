// SPDX-License-Identifier: MIT
/*
 * DOC: engine_kernels.cl - kernels of the compute engine's host test
 *
 * geometry() records what every work-item sees of its launch, so that a
 * launch run as parts can be compared with the same launch run whole;
 * scale_add() takes values and pointers; group_sum() shared local memory;
 * walk_list() a struct that points at its own type (SPIR-V declares the
 * pointer ahead of the struct: OpTypeForwardPointer).
 */

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

kernel void scale_add(global int *dst, const global int *src, int scale, int add)
{
	size_t i = get_global_id(0);

	dst[i] = src[i] * scale + add;
}

kernel void group_sum(global int *dst, const global int *src, local int *tmp)
{
	size_t l = get_local_id(0), n = get_local_size(0);

	tmp[l] = src[get_global_id(0)];
	barrier(CLK_LOCAL_MEM_FENCE);
	if (l == 0) {
		int sum = 0;

		for (size_t i = 0; i < n; i++)
			sum += tmp[i];
		dst[get_group_id(0)] = sum;
	}
}

struct pair {
	char c;
	long l;
};

struct __attribute__((packed)) packed_pair {
	char c;
	long l;
};

kernel void arg_sizes(global long *out, struct pair p, float3 v, char c, struct packed_pair q,
		      int4 a)
{
	out[0] = p.c + p.l;
	out[1] = (long)(v.x + v.y + v.z);
	out[2] = c;
	out[3] = q.c + q.l;
	out[4] = a.x + a.y + a.z + a.w;
}

ulong __attribute__((overloadable)) __spirv_SpecConstant(int id, ulong value);
char __attribute__((overloadable)) __spirv_SpecConstant(int id, char value);

/* Specialization constants 7 (a ulong, 100 by default) and 8 (a char, 3). */
kernel void specialized(global long *out)
{
	out[0] = __spirv_SpecConstant(7, 100ul);
	out[1] = __spirv_SpecConstant(8, (char)3);
}

/* A list whose nodes point at each other: a struct with a pointer to its own type. */
struct node {
	uint value;
	struct node *next;
};

kernel void walk_list(global struct node *head, int n)
{
	struct node *item = head;

	if (get_global_id(0))
		return;
	for (int i = 0; i < n; i++) {
		item->value = item->value + 1;
		item = item->next;
	}
}
