/* SPDX-License-Identifier: MIT */
/*
 * DOC: translation_cache.h - the SPIR-V modules a process translated, kept for their next build
 *
 * Applications and their tests build one SPIR-V module again and again
 * (a module per context, per test case, per thread), and each
 * translation runs the translator's tool as a child process: the
 * process start alone (libLLVM loaded and initialised) is most of a warm
 * module build. The cache keeps, for each module, the bitcode the
 * translator wrote and the messages it printed, compared byte for byte
 * on a lookup, the least recently used dropped beyond a capacity in
 * bytes. Only translations that succeeded are kept.
 */
#ifndef ZEX_COMPUTE_TRANSLATION_CACHE_H
#define ZEX_COMPUTE_TRANSLATION_CACHE_H

#include <stdbool.h>
#include <stddef.h>

/* What an engine keeps: SPIR-V, bitcode and messages together. */
#define ZEX_TRANSLATION_CACHE_BYTES	(32u << 20)

struct zex_translation_cache;

struct zex_translation_cache *zex_translation_cache_new(size_t capacity);
void zex_translation_cache_free(struct zex_translation_cache *c);
int zex_translation_cache_lookup(struct zex_translation_cache *c, const void *spirv,
				 size_t size, void **bitcode, size_t *bitcode_size,
				 char **messages);
void zex_translation_cache_insert(struct zex_translation_cache *c, const void *spirv,
				  size_t size, const void *bitcode, size_t bitcode_size,
				  const char *log);
size_t zex_translation_cache_bytes(struct zex_translation_cache *c, unsigned int *entries);

#endif /* ZEX_COMPUTE_TRANSLATION_CACHE_H */
