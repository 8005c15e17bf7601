// SPDX-License-Identifier: MIT
/*
 * DOC: launch_geometry.c - redirecting a module's geometry built-ins to the whole launch
 *
 * A module comes from the SPIR-V translator as LLVM bitcode of the SPIR
 * target, whose built-ins are calls of OpenCL C's mangled functions. The
 * declarations of the six whose answer depends on where a part sits in
 * its launch (get_group_id, get_num_groups, get_global_id, get_global_size,
 * get_global_offset, get_global_linear_id) are renamed, so that every call
 * of them now calls a function of ours, and a small module of those
 * functions, written here as LLVM IR, is linked in. They read struct
 * zex_geometry at the address the engine enqueued as the part's global
 * offset (the real get_global_offset(0), which only they call): the group
 * id is the part's plus the part's first group, the counts and sizes are
 * the launch's, a global id is computed from them, the global offset is
 * the launch's. A dimension past the third answers as OpenCL says (0 for
 * ids and offsets, 1 for counts and sizes). It works on a module in
 * libLLVM's memory (llvm.h), after the modules it imports from are linked
 * in, so that their calls are redirected too.
 */
#include <errno.h>
#include <string.h>

#include "compute/launch_geometry.h"

/* The built-ins redirected, and the function of ours each call now reaches. */
static const struct {
	const char *builtin, *ours;
} redirected[] = {
	{ "_Z12get_group_idj", "zex.group_id" },
	{ "_Z14get_num_groupsj", "zex.num_groups" },
	{ "_Z13get_global_idj", "zex.global_id" },
	{ "_Z15get_global_sizej", "zex.global_size" },
	{ "_Z17get_global_offsetj", "zex.global_offset" },
	{ "_Z20get_global_linear_idv", "zex.global_linear_id" },
};

/*
 * Our functions, in LLVM 15's IR (typed pointers, as the translator
 * writes). zex.field(row, d, outside) reads row @row (0: the part's first
 * groups, 1: the launch's groups, 2: its global offset) of struct
 * zex_geometry for dimension @d, or answers @outside past the third. They
 * are linkonce_odr: the linker takes only those a module calls.
 */
static const char geometry_ir[] =
	"declare spir_func i64 @_Z17get_global_offsetj(i32)\n"
	"declare spir_func i64 @_Z12get_group_idj(i32)\n"
	"declare spir_func i64 @_Z14get_local_sizej(i32)\n"
	"declare spir_func i64 @_Z12get_local_idj(i32)\n"
	"define internal spir_func i64 @zex.field(i32 %row, i32 %d, i64 %outside) #0 {\n"
	"entry:\n"
	"  %in = icmp ult i32 %d, 3\n"
	"  br i1 %in, label %read, label %out\n"
	"read:\n"
	"  %base = call spir_func i64 @_Z17get_global_offsetj(i32 0)\n"
	"  %p = inttoptr i64 %base to i64 addrspace(1)*\n"
	"  %first = mul i32 %row, 3\n"
	"  %i = add i32 %first, %d\n"
	"  %i64 = zext i32 %i to i64\n"
	"  %q = getelementptr inbounds i64, i64 addrspace(1)* %p, i64 %i64\n"
	"  %v = load i64, i64 addrspace(1)* %q, align 8\n"
	"  ret i64 %v\n"
	"out:\n"
	"  ret i64 %outside\n"
	"}\n"
	"define linkonce_odr spir_func i64 @zex.group_id(i32 %d) #0 {\n"
	"entry:\n"
	"  %in = icmp ult i32 %d, 3\n"
	"  br i1 %in, label %part, label %out\n"
	"part:\n"
	"  %g = call spir_func i64 @_Z12get_group_idj(i32 %d)\n"
	"  %s = call spir_func i64 @zex.field(i32 0, i32 %d, i64 0)\n"
	"  %r = add i64 %g, %s\n"
	"  ret i64 %r\n"
	"out:\n"
	"  ret i64 0\n"
	"}\n"
	"define linkonce_odr spir_func i64 @zex.num_groups(i32 %d) #0 {\n"
	"  %r = call spir_func i64 @zex.field(i32 1, i32 %d, i64 1)\n"
	"  ret i64 %r\n"
	"}\n"
	"define linkonce_odr spir_func i64 @zex.global_offset(i32 %d) #0 {\n"
	"  %r = call spir_func i64 @zex.field(i32 2, i32 %d, i64 0)\n"
	"  ret i64 %r\n"
	"}\n"
	"define linkonce_odr spir_func i64 @zex.global_size(i32 %d) #0 {\n"
	"  %n = call spir_func i64 @zex.field(i32 1, i32 %d, i64 1)\n"
	"  %l = call spir_func i64 @_Z14get_local_sizej(i32 %d)\n"
	"  %r = mul i64 %n, %l\n"
	"  ret i64 %r\n"
	"}\n"
	"define linkonce_odr spir_func i64 @zex.global_id(i32 %d) #0 {\n"
	"  %g = call spir_func i64 @zex.group_id(i32 %d)\n"
	"  %l = call spir_func i64 @_Z14get_local_sizej(i32 %d)\n"
	"  %i = call spir_func i64 @_Z12get_local_idj(i32 %d)\n"
	"  %o = call spir_func i64 @zex.global_offset(i32 %d)\n"
	"  %gl = mul i64 %g, %l\n"
	"  %a = add i64 %gl, %i\n"
	"  %r = add i64 %a, %o\n"
	"  ret i64 %r\n"
	"}\n"
	"define linkonce_odr spir_func i64 @zex.global_linear_id() #0 {\n"
	"  %g0 = call spir_func i64 @zex.global_id(i32 0)\n"
	"  %g1 = call spir_func i64 @zex.global_id(i32 1)\n"
	"  %g2 = call spir_func i64 @zex.global_id(i32 2)\n"
	"  %o0 = call spir_func i64 @zex.global_offset(i32 0)\n"
	"  %o1 = call spir_func i64 @zex.global_offset(i32 1)\n"
	"  %o2 = call spir_func i64 @zex.global_offset(i32 2)\n"
	"  %s0 = call spir_func i64 @zex.global_size(i32 0)\n"
	"  %s1 = call spir_func i64 @zex.global_size(i32 1)\n"
	"  %x = sub i64 %g0, %o0\n"
	"  %y = sub i64 %g1, %o1\n"
	"  %z = sub i64 %g2, %o2\n"
	"  %zs = mul i64 %z, %s1\n"
	"  %zy = add i64 %zs, %y\n"
	"  %zys = mul i64 %zy, %s0\n"
	"  %r = add i64 %zys, %x\n"
	"  ret i64 %r\n"
	"}\n"
	"attributes #0 = { alwaysinline nounwind }\n";

/* Rename the built-ins @m declares; Return: how many. */
static unsigned int rename_builtins(const struct zex_llvm *llvm, llvm_module m)
{
	unsigned int n = 0;
	size_t i;

	for (i = 0; i < sizeof(redirected) / sizeof(redirected[0]); i++) {
		llvm_value f = llvm->named_function(m, redirected[i].builtin);

		if (!f || !llvm->is_declaration(f))
			continue;
		llvm->set_name(f, redirected[i].ours, strlen(redirected[i].ours));
		n++;
	}
	return n;
}

/**
 * zex_geometry_redirect - make a module's geometry built-ins read the whole launch
 * @llvm: the LLVM C API.
 * @c: @m's context.
 * @m: the module (SPIR, as the translator wrote it), changed in place.
 * @log: where a failure is said (malloc()ed; may stay NULL).
 *
 * Return: 0; -EINVAL when our functions do not link into @m (see @log);
 * -ENOMEM.
 */
int zex_geometry_redirect(const struct zex_llvm *llvm, llvm_context c, llvm_module m, char **log)
{
	llvm_module ours = NULL;
	llvm_buffer ir;
	char *msg = NULL;

	if (!rename_builtins(llvm, m))
		return 0;
	ir = llvm->buffer_copy(geometry_ir, sizeof(geometry_ir) - 1, "zex-geometry");
	if (!ir)
		return -ENOMEM;
	/* Takes @ir over. */
	if (llvm->parse_ir(c, ir, &ours, &msg)) {
		zex_llvm_log(log, "zex: internal: %s", msg ? msg : "");
		if (msg)
			llvm->dispose_message(msg);
		return -EINVAL;
	}
	llvm->set_data_layout(ours, llvm->get_data_layout(m));
	llvm->set_target(ours, llvm->get_target(m));
	/* Takes @ours over, even when it fails. */
	if (llvm->link(m, ours)) {
		zex_llvm_log(log, "zex: the geometry functions do not link");
		return -EINVAL;
	}
	return 0;
}
