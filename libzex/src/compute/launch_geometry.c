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
 * ids and offsets, 1 for counts and sizes). The C API of libLLVM-15 (the
 * library PoCL itself runs on) is loaded with dlopen(), so that libzex
 * runs without it; the bitcode is checked by LLVM's verifier afterwards.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compute/dynload.h"
#include "compute/launch_geometry.h"

/* The LLVM C API's types, as opaque pointers (llvm-c/Types.h). */
typedef struct llvm_context *llvm_context;
typedef struct llvm_module *llvm_module;
typedef struct llvm_buffer *llvm_buffer;
typedef struct llvm_value *llvm_value;
typedef struct llvm_diag *llvm_diag;
typedef int llvm_bool;		/* non-zero: failure */

/* LLVMVerifierFailureAction's LLVMReturnStatusAction (llvm-c/Analysis.h). */
#define LLVM_VERIFY_RETURN_STATUS	2

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
	llvm_bool (*is_declaration)(llvm_value v);
	void (*set_name)(llvm_value v, const char *name, size_t len);
	llvm_bool (*link)(llvm_module dst, llvm_module src);
	llvm_bool (*verify)(llvm_module m, int action, char **msg);
	void (*dispose_message)(char *msg);
};

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

/* What LLVM said while we worked, for the build log. */
struct diagnostics {
	const struct zex_llvm *llvm;
	char *log;
};

static void log_append(char **log, const char *fmt, ...)
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
	struct diagnostics *diag = data;
	char *text = diag->llvm->diag_description(d);

	log_append(&diag->log, "llvm: %s", text ? text : "(no description)");
	if (text)
		diag->llvm->dispose_message(text);
}

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
 * @bitcode: the module (SPIR LLVM bitcode, as the translator wrote it).
 * @size: its size.
 * @out: the new module's bitcode (malloc()ed) on success.
 * @out_size: its size.
 * @log: LLVM's messages are appended here (malloc()ed; may stay NULL).
 *
 * Return: 0; -EINVAL for bitcode LLVM cannot read, link or verify (see
 * @log); -ENOMEM.
 */
int zex_geometry_redirect(const struct zex_llvm *llvm, const void *bitcode, size_t size,
			  void **out, size_t *out_size, char **log)
{
	struct diagnostics diag = { .llvm = llvm, .log = *log };
	llvm_module m = NULL, ours = NULL;
	llvm_buffer in, ir, written;
	llvm_context c;
	char *msg = NULL;
	int ret = -EINVAL;

	c = llvm->context_create();
	if (!c)
		return -ENOMEM;
	llvm->set_diagnostic_handler(c, on_diagnostic, &diag);
	in = llvm->buffer_copy(bitcode, size, "module");
	if (!in) {
		ret = -ENOMEM;
		goto out_context;
	}
	if (llvm->parse_bitcode(c, in, &m)) {
		log_append(&diag.log, "zex: the translator's bitcode does not parse");
		m = NULL;
		goto out_buffer;
	}
	if (rename_builtins(llvm, m)) {
		ir = llvm->buffer_copy(geometry_ir, sizeof(geometry_ir) - 1, "zex-geometry");
		if (!ir) {
			ret = -ENOMEM;
			goto out_module;
		}
		/* Takes @ir over. */
		if (llvm->parse_ir(c, ir, &ours, &msg)) {
			log_append(&diag.log, "zex: internal: %s", msg ? msg : "");
			goto out_module;
		}
		llvm->set_data_layout(ours, llvm->get_data_layout(m));
		llvm->set_target(ours, llvm->get_target(m));
		/* Takes @ours over, even when it fails. */
		if (llvm->link(m, ours)) {
			log_append(&diag.log, "zex: the geometry functions do not link");
			goto out_module;
		}
	}
	if (llvm->verify(m, LLVM_VERIFY_RETURN_STATUS, &msg)) {
		log_append(&diag.log, "llvm: %s", msg ? msg : "the module does not verify");
		goto out_module;
	}
	written = llvm->write_bitcode(m);
	if (!written) {
		ret = -ENOMEM;
		goto out_module;
	}
	*out_size = llvm->buffer_size(written);
	*out = malloc(*out_size ? *out_size : 1);
	if (*out) {
		memcpy(*out, llvm->buffer_start(written), *out_size);
		ret = 0;
	} else {
		ret = -ENOMEM;
	}
	llvm->buffer_dispose(written);
out_module:
	if (msg)
		llvm->dispose_message(msg);
	llvm->module_dispose(m);
out_buffer:
	llvm->buffer_dispose(in);
out_context:
	llvm->context_dispose(c);
	*log = diag.log;
	return ret;
}
