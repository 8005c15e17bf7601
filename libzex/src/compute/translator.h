/* SPDX-License-Identifier: MIT */
/*
 * DOC: translator.h - SPIR-V to LLVM bitcode, by the Khronos SPIR-V/LLVM translator
 *
 * PoCL 3.1 as Debian 12 builds it takes no SPIR-V, but builds the SPIR
 * bitcode the translator writes from it (llvm-spirv-15 -r). The
 * translator's library is C++ only, so its tool runs as a child process,
 * on memory files: no file is written anywhere.
 */
#ifndef ZEX_COMPUTE_TRANSLATOR_H
#define ZEX_COMPUTE_TRANSLATOR_H

#include <stddef.h>

/* The translator's tool, looked up in PATH. */
#define ZEX_TRANSLATOR	"llvm-spirv-15"

int zex_translator_available(char *why, size_t why_size);
int zex_spirv_translate(const void *spirv, size_t size, void **bitcode, size_t *bitcode_size,
			char **log);

#endif /* ZEX_COMPUTE_TRANSLATOR_H */
