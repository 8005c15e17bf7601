// SPDX-License-Identifier: MIT
/*
 * DOC: llvm.c - loading libLLVM-15's C API, and what every use of it needs
 *
 * The symbols are taken by name from libLLVM-15.so.1 (Debian's libllvm15,
 * which PoCL 3.1 depends on); a library without one of them is no
 * engine. A context's diagnostics go to the build log; a module is read
 * from bitcode and written back to it.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compute/dynload.h"
#include "compute/llvm.h"

/* Each entry: the struct member's offset and its symbol. */
#define SYM(member, name) { offsetof(struct zex_llvm, member), name }
static const struct {
	size_t offset;
	const char *name;
} llvm_symbols[] = {
	SYM(context_create, "LLVMContextCreate"),
	SYM(context_dispose, "LLVMContextDispose"),
	SYM(set_diagnostic_handler, "LLVMContextSetDiagnosticHandler"),
	SYM(diag_description, "LLVMGetDiagInfoDescription"),
	SYM(buffer_copy, "LLVMCreateMemoryBufferWithMemoryRangeCopy"),
	SYM(buffer_dispose, "LLVMDisposeMemoryBuffer"),
	SYM(buffer_start, "LLVMGetBufferStart"),
	SYM(buffer_size, "LLVMGetBufferSize"),
	SYM(parse_bitcode, "LLVMParseBitcodeInContext2"),
	SYM(parse_ir, "LLVMParseIRInContext"),
	SYM(write_bitcode, "LLVMWriteBitcodeToMemoryBuffer"),
	SYM(module_dispose, "LLVMDisposeModule"),
	SYM(get_data_layout, "LLVMGetDataLayoutStr"),
	SYM(set_data_layout, "LLVMSetDataLayout"),
	SYM(get_target, "LLVMGetTarget"),
	SYM(set_target, "LLVMSetTarget"),
	SYM(named_function, "LLVMGetNamedFunction"),
	SYM(first_function, "LLVMGetFirstFunction"),
	SYM(next_function, "LLVMGetNextFunction"),
	SYM(call_conv, "LLVMGetFunctionCallConv"),
	SYM(first_use, "LLVMGetFirstUse"),
	SYM(delete_function, "LLVMDeleteFunction"),
	SYM(is_declaration, "LLVMIsDeclaration"),
	SYM(set_name, "LLVMSetValueName2"),
	SYM(link, "LLVMLinkModules2"),
	SYM(verify, "LLVMVerifyModule"),
	SYM(dispose_message, "LLVMDisposeMessage"),
};

/* The library PoCL 3.1 on Debian 12 runs on. */
#define LLVM_LIBRARY	"libLLVM-15.so.1"

/**
 * zex_llvm_load - load the LLVM C API
 * @why: where to say why not, on failure.
 * @why_size: its room.
 *
 * Return: the API, or NULL (with @why written).
 */
struct zex_llvm *zex_llvm_load(char *why, size_t why_size)
{
	struct zex_llvm *llvm = calloc(1, sizeof(*llvm));
	size_t i;

	if (!llvm) {
		snprintf(why, why_size, "out of memory");
		return NULL;
	}
	llvm->lib = zex_dlopen(LLVM_LIBRARY);
	if (!llvm->lib) {
		const char *err = dlerror();

		snprintf(why, why_size, "%s not found (Debian: libllvm15): %s", LLVM_LIBRARY,
			 err ? err : "a static program loads no library");
		free(llvm);
		return NULL;
	}
	for (i = 0; i < sizeof(llvm_symbols) / sizeof(llvm_symbols[0]); i++) {
		void *fn = dlsym(llvm->lib, llvm_symbols[i].name);

		if (!fn) {
			snprintf(why, why_size, "%s has no %s", LLVM_LIBRARY, llvm_symbols[i].name);
			zex_llvm_unload(llvm);
			return NULL;
		}
		memcpy((char *)llvm + llvm_symbols[i].offset, &fn, sizeof(fn));
	}
	return llvm;
}

/** zex_llvm_unload - let the LLVM C API go (NULL: nothing) */
void zex_llvm_unload(struct zex_llvm *llvm)
{
	if (!llvm)
		return;
	dlclose(llvm->lib);
	free(llvm);
}

/** zex_llvm_log - append a line to a build log (*@log malloc()ed, may be NULL) */
void zex_llvm_log(char **log, const char *fmt, ...)
{
	size_t had = *log ? strlen(*log) : 0;
	char *line = NULL, *grown;
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vasprintf(&line, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	grown = realloc(*log, had + (size_t)n + 2);
	if (grown) {
		memcpy(grown + had, line, (size_t)n);
		grown[had + n] = '\n';
		grown[had + n + 1] = '\0';
		*log = grown;
	}
	free(line);
}

static void on_diagnostic(llvm_diag d, void *data)
{
	struct zex_llvm_diagnostics *diag = data;
	char *text = diag->llvm->diag_description(d);

	zex_llvm_log(diag->log, "llvm: %s", text ? text : "(no description)");
	if (text)
		diag->llvm->dispose_message(text);
}

/**
 * zex_llvm_context - a context whose messages go to a build log
 * @diag: the API and the log; it must outlive the context.
 *
 * Return: the context (llvm->context_dispose() lets it go), or NULL.
 */
llvm_context zex_llvm_context(struct zex_llvm_diagnostics *diag)
{
	llvm_context c = diag->llvm->context_create();

	if (c)
		diag->llvm->set_diagnostic_handler(c, on_diagnostic, diag);
	return c;
}

/**
 * zex_llvm_parse - read a module from bitcode
 * @llvm: the API.
 * @c: the context it goes in.
 * @bitcode: the bitcode.
 * @size: its size.
 * @m: the module.
 *
 * Return: 0, -EINVAL when it does not parse (the context's diagnostics say
 * why), -ENOMEM.
 */
int zex_llvm_parse(const struct zex_llvm *llvm, llvm_context c, const void *bitcode, size_t size,
		   llvm_module *m)
{
	llvm_buffer in = llvm->buffer_copy(bitcode, size, "module");
	int ret = 0;

	if (!in)
		return -ENOMEM;
	if (llvm->parse_bitcode(c, in, m)) {
		*m = NULL;
		ret = -EINVAL;
	}
	llvm->buffer_dispose(in);
	return ret;
}

/**
 * zex_llvm_write - a module's bitcode
 * @llvm: the API.
 * @m: the module.
 * @out: its bitcode (malloc()ed).
 * @out_size: its size.
 *
 * Return: 0 or -ENOMEM.
 */
int zex_llvm_write(const struct zex_llvm *llvm, llvm_module m, void **out, size_t *out_size)
{
	llvm_buffer written = llvm->write_bitcode(m);

	if (!written)
		return -ENOMEM;
	*out_size = llvm->buffer_size(written);
	*out = malloc(*out_size ? *out_size : 1);
	if (*out)
		memcpy(*out, llvm->buffer_start(written), *out_size);
	llvm->buffer_dispose(written);
	return *out ? 0 : -ENOMEM;
}
