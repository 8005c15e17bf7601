// SPDX-License-Identifier: MIT
/*
 * DOC: spirv.c - reading a SPIR-V module's header and kernel entry points
 *
 * A module is 32-bit words: a five-word header (the magic number, the
 * version, the generator, the id bound, 0), then instructions, each
 * opening with a word of its length in words (high 16 bits, never 0) and
 * its opcode (low 16 bits). A module written on a machine of the other
 * byte order has its magic number swapped: its words are read swapped.
 * The kernels are the OpEntryPoint instructions of execution model Kernel
 * (their name is a NUL-terminated string packed into words); an
 * OpExecutionMode LocalSize gives a kernel's required work-group size.
 * Every length is checked against the module's end, every name for its
 * NUL: a malformed module is -EINVAL, never a read past it.
 */
#include <errno.h>
#include <string.h>

#include "compute/spirv.h"

#define SPIRV_MAGIC		0x07230203u
#define SPIRV_HEADER_WORDS	5
#define OP_ENTRY_POINT		15
#define OP_EXECUTION_MODE	16
#define MODEL_KERNEL		6
#define MODE_LOCAL_SIZE		17

struct words {
	const unsigned char *bytes;
	size_t count;
	int swapped;
};

static uint32_t word(const struct words *w, size_t i)
{
	uint32_t v;

	memcpy(&v, w->bytes + i * 4, 4);
	return w->swapped ? __builtin_bswap32(v) : v;
}

/* The string at word @at of an instruction ending before word @end: its words, or 0. */
static size_t string_words(const struct words *w, size_t at, size_t end, char *out, size_t max)
{
	size_t i, n = 0;

	for (i = at; i < end; i++) {
		uint32_t v = word(w, i);
		unsigned int b;

		for (b = 0; b < 4; b++) {
			/* Packed low byte first, whatever the host's order. */
			char c = (char)((v >> (8 * b)) & 0xff);

			if (n < max)
				out[n] = c;
			if (!c) {
				if (n >= max)
					out[max - 1] = 0;
				return i - at + 1;
			}
			n++;
		}
	}
	return 0;
}

static struct zex_spirv_kernel *find_kernel(struct zex_spirv_kernel *k, uint32_t n, uint32_t id)
{
	uint32_t i;

	for (i = 0; i < n; i++)
		if (k[i].id == id)
			return &k[i];
	return NULL;
}

/**
 * zex_spirv_read - a module's version and kernels
 * @module: the module's bytes.
 * @size: how many, a multiple of 4.
 * @info: receives the version and the count of kernels.
 * @kernels: receives up to @max_kernels kernels, in the module's order.
 * @max_kernels: room in @kernels.
 *
 * Return: 0; -ENOEXEC not SPIR-V (no magic number: a native binary, say);
 * -EINVAL a malformed module; -E2BIG more kernels than @max_kernels
 * (@info->num_kernels says how many, the first @max_kernels are filled).
 */
int zex_spirv_read(const void *module, size_t size, struct zex_spirv_info *info,
		   struct zex_spirv_kernel *kernels, uint32_t max_kernels)
{
	struct words w = { .bytes = module, .count = size / 4 };
	uint32_t found = 0;
	size_t at;

	if (!module || size < SPIRV_HEADER_WORDS * 4)
		return -ENOEXEC;
	if (word(&w, 0) != SPIRV_MAGIC) {
		w.swapped = 1;
		if (word(&w, 0) != SPIRV_MAGIC)
			return -ENOEXEC;
	}
	if (size % 4)
		return -EINVAL;
	info->version = word(&w, 1);
	for (at = SPIRV_HEADER_WORDS; at < w.count;) {
		uint32_t first = word(&w, at), len = first >> 16, op = first & 0xffff;
		size_t end = at + len;

		if (!len || end > w.count)
			return -EINVAL;
		if (op == OP_ENTRY_POINT) {
			char name[ZEX_SPIRV_NAME_MAX];

			if (len < 4 || !string_words(&w, at + 3, end, name, sizeof(name)))
				return -EINVAL;
			if (word(&w, at + 1) == MODEL_KERNEL) {
				if (found < max_kernels) {
					struct zex_spirv_kernel *k = &kernels[found];

					memset(k, 0, sizeof(*k));
					k->id = word(&w, at + 2);
					memcpy(k->name, name, sizeof(name));
				}
				found++;
			}
		} else if (op == OP_EXECUTION_MODE && len >= 3 &&
			   word(&w, at + 2) == MODE_LOCAL_SIZE) {
			struct zex_spirv_kernel *k;

			if (len != 6)
				return -EINVAL;
			k = find_kernel(kernels, found < max_kernels ? found : max_kernels,
					word(&w, at + 1));
			if (k) {
				k->local_size[0] = word(&w, at + 3);
				k->local_size[1] = word(&w, at + 4);
				k->local_size[2] = word(&w, at + 5);
			}
		}
		at = end;
	}
	info->num_kernels = found;
	return found > max_kernels ? -E2BIG : 0;
}
