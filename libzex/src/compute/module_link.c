// SPDX-License-Identifier: MIT
/*
 * DOC: module_link.c - linking a module with the modules it imports from, then redirecting its geometry
 *
 * The first unit is the module; each other unit is read into the same
 * context, its kernels that nothing calls are deleted (they are that
 * module's to build, and two modules may name kernels alike), and it is
 * linked in with LLVM's linker, which resolves the module's declarations
 * by the other's definitions and refuses a name defined twice. The
 * geometry built-ins of the whole are then redirected (launch_geometry.c)
 * and LLVM's verifier checks the result.
 */
#include <errno.h>
#include <stdlib.h>

#include "compute/launch_geometry.h"
#include "compute/module_link.h"

/* Delete @m's kernels that nothing in @m calls. */
static void drop_kernels(const struct zex_llvm *llvm, llvm_module m)
{
	llvm_value f = llvm->first_function(m), next;

	for (; f; f = next) {
		next = llvm->next_function(f);
		if (!llvm->is_declaration(f) &&
		    llvm->call_conv(f) == LLVM_CALL_CONV_SPIR_KERNEL && !llvm->first_use(f))
			llvm->delete_function(f);
	}
}

/**
 * zex_module_link - one module's bitcode, whole, for PoCL to build
 * @llvm: the LLVM C API.
 * @units: the module, then the modules it imports from (none: only the
 *	geometry is redirected).
 * @num: entries in @units (at least 1).
 * @flags: %ZEX_LINK_KEEP_KERNELS, %ZEX_LINK_NO_REDIRECT, or 0.
 * @out: the result's bitcode (malloc()ed) on success.
 * @out_size: its size.
 * @log: LLVM's messages and ours are appended here (malloc()ed; may stay
 *	NULL).
 *
 * Return: 0; -EINVAL for bitcode that does not parse, link or verify (see
 * @log); -ENOMEM.
 */
int zex_module_link(const struct zex_llvm *llvm, const struct zex_bitcode *units, uint32_t num,
		    unsigned int flags, void **out, size_t *out_size, char **log)
{
	struct zex_llvm_diagnostics diag = { .llvm = llvm, .log = log };
	llvm_module m = NULL, other;
	char *msg = NULL;
	llvm_context c;
	uint32_t i;
	int ret;

	c = zex_llvm_context(&diag);
	if (!c)
		return -ENOMEM;
	ret = zex_llvm_parse(llvm, c, units[0].data, units[0].size, &m);
	if (ret) {
		if (ret == -EINVAL)
			zex_llvm_log(log, "zex: the translator's bitcode does not parse");
		goto out_context;
	}
	for (i = 1; i < num; i++) {
		ret = zex_llvm_parse(llvm, c, units[i].data, units[i].size, &other);
		if (ret) {
			if (ret == -EINVAL)
				zex_llvm_log(log, "zex: the bitcode of linked module %u does not parse",
					     i);
			goto out_module;
		}
		if (!(flags & ZEX_LINK_KEEP_KERNELS))
			drop_kernels(llvm, other);
		/* Takes @other over, even when it fails. */
		if (llvm->link(m, other)) {
			zex_llvm_log(log, "zex: linked module %u does not link with the module", i);
			ret = -EINVAL;
			goto out_module;
		}
	}
	if (!(flags & ZEX_LINK_NO_REDIRECT)) {
		ret = zex_geometry_redirect(llvm, c, m, log);
		if (ret)
			goto out_module;
	}
	if (llvm->verify(m, LLVM_VERIFY_RETURN_STATUS, &msg)) {
		zex_llvm_log(log, "llvm: %s", msg ? msg : "the module does not verify");
		ret = -EINVAL;
		goto out_module;
	}
	ret = zex_llvm_write(llvm, m, out, out_size);
out_module:
	if (msg)
		llvm->dispose_message(msg);
	llvm->module_dispose(m);
out_context:
	llvm->context_dispose(c);
	return ret;
}
