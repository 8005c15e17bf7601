/* SPDX-License-Identifier: MIT */
/*
 * DOC: llvm.h - libLLVM-15's C API, loaded at run time: the calls made on a module's bitcode
 *
 * The engine works on a module between the SPIR-V translator and PoCL as
 * LLVM bitcode: it links the modules a module imports from
 * (module_link.c) and redirects its geometry built-ins
 * (launch_geometry.c). Both go through the C API of libLLVM-15 (the
 * library PoCL itself runs on), loaded with dlopen() so that libzex runs
 * without it. The types are opaque pointers, as llvm-c/Types.h declares
 * them; what LLVM says while it works is appended to the build log.
 */
#ifndef ZEX_COMPUTE_LLVM_H
#define ZEX_COMPUTE_LLVM_H

#include <stddef.h>

typedef struct llvm_context *llvm_context;
typedef struct llvm_module *llvm_module;
typedef struct llvm_buffer *llvm_buffer;
typedef struct llvm_value *llvm_value;
typedef struct llvm_use *llvm_use;
typedef struct llvm_diag *llvm_diag;
typedef int llvm_bool;		/* non-zero: failure, or true */

/* LLVMVerifierFailureAction's LLVMReturnStatusAction (llvm-c/Analysis.h). */
#define LLVM_VERIFY_RETURN_STATUS	2
/* LLVMCallConv's LLVMSPIRKERNELCallConv (llvm-c/Core.h): a kernel. */
#define LLVM_CALL_CONV_SPIR_KERNEL	76

struct zex_llvm {
	void *lib;
	llvm_context (*context_create)(void);
	void (*context_dispose)(llvm_context c);
	void (*set_diagnostic_handler)(llvm_context c, void (*fn)(llvm_diag d, void *data),
				       void *data);
	char *(*diag_description)(llvm_diag d);
	llvm_buffer (*buffer_copy)(const char *data, size_t size, const char *name);
	void (*buffer_dispose)(llvm_buffer b);
	const char *(*buffer_start)(llvm_buffer b);
	size_t (*buffer_size)(llvm_buffer b);
	llvm_bool (*parse_bitcode)(llvm_context c, llvm_buffer b, llvm_module *m);
	llvm_bool (*parse_ir)(llvm_context c, llvm_buffer b, llvm_module *m, char **msg);
	llvm_buffer (*write_bitcode)(llvm_module m);
	void (*module_dispose)(llvm_module m);
	const char *(*get_data_layout)(llvm_module m);
	void (*set_data_layout)(llvm_module m, const char *layout);
	const char *(*get_target)(llvm_module m);
	void (*set_target)(llvm_module m, const char *triple);
	llvm_value (*named_function)(llvm_module m, const char *name);
	llvm_value (*first_function)(llvm_module m);
	llvm_value (*next_function)(llvm_value f);
	unsigned int (*call_conv)(llvm_value f);
	llvm_use (*first_use)(llvm_value v);
	void (*delete_function)(llvm_value f);
	llvm_bool (*is_declaration)(llvm_value v);
	void (*set_name)(llvm_value v, const char *name, size_t len);
	llvm_bool (*link)(llvm_module dst, llvm_module src);
	llvm_bool (*verify)(llvm_module m, int action, char **msg);
	void (*dispose_message)(char *msg);
};

struct zex_llvm *zex_llvm_load(char *why, size_t why_size);
void zex_llvm_unload(struct zex_llvm *llvm);

/**
 * struct zex_llvm_diagnostics - where a context's messages go
 * @llvm: the API.
 * @log: the build log they are appended to (malloc()ed; may be NULL).
 *
 * The caller's, living as long as the context it is given to.
 */
struct zex_llvm_diagnostics {
	const struct zex_llvm *llvm;
	char **log;
};

void zex_llvm_log(char **log, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
llvm_context zex_llvm_context(struct zex_llvm_diagnostics *diag);
int zex_llvm_parse(const struct zex_llvm *llvm, llvm_context c, const void *bitcode, size_t size,
		   llvm_module *m);
int zex_llvm_write(const struct zex_llvm *llvm, llvm_module m, void **out, size_t *out_size);

#endif /* ZEX_COMPUTE_LLVM_H */
