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
 * The names it imports and exports are its LinkageAttributes decorations
 * (a name, then Import, Export or LinkOnceODR). Every length is checked
 * against the module's end, every name for its NUL: a malformed module is
 * -EINVAL, never a read past it.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "compute/spirv.h"

#define SPIRV_MAGIC		0x07230203u
#define SPIRV_HEADER_WORDS	5
#define OP_ENTRY_POINT		15
#define OP_EXECUTION_MODE	16
#define MODEL_KERNEL		6
#define MODE_LOCAL_SIZE		17
#define MODE_LOCAL_SIZE_HINT	18
#define OP_TYPE_INT		21
#define OP_TYPE_FLOAT		22
#define OP_TYPE_VECTOR		23
#define OP_TYPE_IMAGE		25
#define OP_TYPE_SAMPLER		26
#define OP_TYPE_ARRAY		28
#define OP_TYPE_STRUCT		30
#define OP_TYPE_POINTER		32
#define OP_TYPE_FORWARD_POINTER	39
#define OP_TYPE_EVENT		34
#define OP_CONSTANT		43
#define OP_SPEC_CONSTANT_TRUE	48
#define OP_SPEC_CONSTANT_FALSE	49
#define OP_SPEC_CONSTANT	50
#define DECORATION_SPEC_ID	1
#define OP_FUNCTION		54
#define OP_FUNCTION_PARAMETER	55
#define OP_DECORATE		71
#define DECORATION_CPACKED	10
#define DECORATION_BUILTIN	11
#define DECORATION_LINKAGE	41
#define LINKAGE_IMPORT		1
#define DECORATION_FUNC_PARAM	38
#define FUNC_PARAM_BYVAL	2
#define STORAGE_UNIFORM_CONSTANT 0
#define STORAGE_WORKGROUP	4
#define STORAGE_CROSS_WORKGROUP	5
#define STORAGE_FUNCTION	7

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

/* The words of a module: -ENOEXEC not SPIR-V, -EINVAL not whole words. */
static int open_words(struct words *w, const void *module, size_t size)
{
	*w = (struct words){ .bytes = module, .count = size / 4 };
	if (!module || size < SPIRV_HEADER_WORDS * 4)
		return -ENOEXEC;
	if (word(w, 0) != SPIRV_MAGIC) {
		w->swapped = 1;
		if (word(w, 0) != SPIRV_MAGIC)
			return -ENOEXEC;
	}
	return size % 4 ? -EINVAL : 0;
}

/* What an argument needs to know of a type or constant: one per id. */
struct type {
	uint32_t id;
	uint16_t op;
	uint8_t packed;
	uint32_t size, align;
	uint32_t storage, pointee;	/* pointers */
	uint64_t value;			/* constants; for integers, signed */
};

struct types {
	struct type *t;
	size_t n, cap;
	uint32_t *packed;	/* struct ids decorated CPacked */
	size_t num_packed, cap_packed;
	uint32_t *byval;	/* parameter ids decorated ByVal */
	size_t num_byval, cap_byval;
};

static const struct type *find_type(const struct types *ts, uint32_t id)
{
	size_t i;

	for (i = 0; i < ts->n; i++)
		if (ts->t[i].id == id)
			return &ts->t[i];
	return NULL;
}

static int push_id(uint32_t **ids, size_t *n, size_t *cap, uint32_t id)
{
	if (*n == *cap) {
		size_t c = *cap ? 2 * *cap : 16;
		uint32_t *grown = realloc(*ids, c * sizeof(**ids));

		if (!grown)
			return -ENOMEM;
		*ids = grown;
		*cap = c;
	}
	(*ids)[(*n)++] = id;
	return 0;
}

static bool has_id(const uint32_t *ids, size_t n, uint32_t id)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (ids[i] == id)
			return true;
	return false;
}

/* A struct's size and alignment from its members' (C's rules, or packed). */
static int struct_layout(const struct words *w, size_t at, size_t end, const struct types *ts,
			 struct type *t)
{
	uint64_t size = 0;
	uint32_t align = 1;
	size_t i;

	for (i = at + 2; i < end; i++) {
		const struct type *m = find_type(ts, word(w, i));

		if (!m || !m->align)
			return -EINVAL;
		if (!t->packed) {
			size = (size + m->align - 1) / m->align * m->align;
			if (m->align > align)
				align = m->align;
		}
		size += m->size;
	}
	size = (size + align - 1) / align * align;
	if (size > UINT32_MAX)
		return -EINVAL;
	t->size = (uint32_t)size;
	t->align = align;
	return 0;
}

/* Record the type or constant instruction @op at @at (of @len words), if one. */
static int add_type(const struct words *w, size_t at, uint32_t len, uint32_t op,
		    struct types *ts)
{
	struct type t = { .op = (uint16_t)op, .align = 1 };
	const struct type *inner;

	switch (op) {
	case OP_TYPE_INT:
	case OP_TYPE_FLOAT:
		if (len < 3 || word(w, at + 2) % 8 || !word(w, at + 2) || word(w, at + 2) > 64)
			return -EINVAL;
		t.size = t.align = word(w, at + 2) / 8;
		/* An integer's signedness. */
		t.value = op == OP_TYPE_INT && len >= 4 && word(w, at + 3);
		break;
	case OP_TYPE_VECTOR:
		inner = len == 4 ? find_type(ts, word(w, at + 2)) : NULL;
		if (!inner || word(w, at + 3) < 2 || word(w, at + 3) > 16)
			return -EINVAL;
		t.size = t.align = inner->size * (word(w, at + 3) == 3 ? 4 : word(w, at + 3));
		break;
	case OP_TYPE_ARRAY: {
		const struct type *n = len == 4 ? find_type(ts, word(w, at + 3)) : NULL;

		inner = len == 4 ? find_type(ts, word(w, at + 2)) : NULL;
		if (!inner || !n || n->op != OP_CONSTANT || !n->value ||
		    n->value > UINT32_MAX / (inner->size ? inner->size : 1))
			return -EINVAL;
		t.size = inner->size * (uint32_t)n->value;
		t.align = inner->align;
		break;
	}
	case OP_TYPE_STRUCT:
		if (len < 2)
			return -EINVAL;
		t.packed = has_id(ts->packed, ts->num_packed, word(w, at + 1));
		if (struct_layout(w, at, at + len, ts, &t))
			return -EINVAL;
		break;
	case OP_TYPE_POINTER: {
		struct type *declared;

		if (len != 4)
			return -EINVAL;
		t.size = t.align = 8;
		t.storage = word(w, at + 2);
		t.pointee = word(w, at + 3);
		/* Declared ahead (OpTypeForwardPointer): now its pointee is known. */
		declared = (struct type *)find_type(ts, word(w, at + 1));
		if (declared && declared->op == OP_TYPE_POINTER) {
			declared->pointee = t.pointee;
			return 0;
		}
		break;
	}
	case OP_TYPE_FORWARD_POINTER:
		/*
		 * A pointer used before its type is declared (a struct that
		 * points at itself): 8 bytes, its pointee told later.
		 */
		if (len != 3)
			return -EINVAL;
		t.op = OP_TYPE_POINTER;
		t.size = t.align = 8;
		t.storage = word(w, at + 2);
		break;
	case OP_TYPE_IMAGE:
	case OP_TYPE_SAMPLER:
	case OP_TYPE_EVENT:
		t.size = t.align = 8;
		break;
	case OP_CONSTANT:
		/* result type, result id, then the value's words, low first */
		if (len < 4)
			return -EINVAL;
		t.id = word(w, at + 2);
		t.value = word(w, at + 3) | (len > 4 ? (uint64_t)word(w, at + 4) << 32 : 0);
		break;
	default:
		return 0;
	}
	if (op != OP_CONSTANT) {
		if (len < 2)
			return -EINVAL;
		t.id = word(w, at + 1);
	}
	if (ts->n == ts->cap) {
		size_t c = ts->cap ? 2 * ts->cap : 64;
		struct type *grown = realloc(ts->t, c * sizeof(*grown));

		if (!grown)
			return -ENOMEM;
		ts->t = grown;
		ts->cap = c;
	}
	ts->t[ts->n++] = t;
	return 0;
}

/* How a parameter of type @type_id (the parameter @param_id) is passed. */
static int describe_arg(const struct types *ts, uint32_t type_id, uint32_t param_id,
			struct zex_spirv_arg *arg)
{
	const struct type *t = find_type(ts, type_id), *pointee;

	if (!t)
		return -EINVAL;
	arg->size = t->size;
	switch (t->op) {
	case OP_TYPE_POINTER:
		if (t->storage == STORAGE_WORKGROUP) {
			arg->kind = ZEX_SPIRV_ARG_LOCAL;
		} else if (t->storage == STORAGE_FUNCTION &&
			   has_id(ts->byval, ts->num_byval, param_id)) {
			pointee = find_type(ts, t->pointee);
			if (!pointee)
				return -EINVAL;
			arg->kind = ZEX_SPIRV_ARG_VALUE;
			arg->size = pointee->size;
		} else {
			arg->kind = ZEX_SPIRV_ARG_POINTER;
		}
		break;
	case OP_TYPE_IMAGE:
		arg->kind = ZEX_SPIRV_ARG_IMAGE;
		break;
	case OP_TYPE_SAMPLER:
		arg->kind = ZEX_SPIRV_ARG_SAMPLER;
		break;
	default:
		arg->kind = ZEX_SPIRV_ARG_VALUE;
		break;
	}
	return 0;
}

/**
 * zex_spirv_kernel_args - how each argument of one kernel is passed
 * @module: the module's bytes.
 * @size: how many.
 * @kernel: the kernel's name.
 * @args: receives up to @max_args arguments, in order.
 * @max_args: room in @args.
 * @num_args: receives the kernel's argument count.
 *
 * Global and constant pointers are pointers; a Workgroup pointer is shared
 * local memory; a struct passed by value (a Function pointer decorated
 * ByVal) is its bytes, laid out as C lays it out (or packed); vectors of
 * three take four elements' room, as OpenCL C says.
 * Return: 0; -ENOEXEC not SPIR-V; -EINVAL malformed; -ENOENT no such
 * kernel; -E2BIG more arguments than @max_args; -ENOMEM.
 */
int zex_spirv_kernel_args(const void *module, size_t size, const char *kernel,
			  struct zex_spirv_arg *args, uint32_t max_args, uint32_t *num_args)
{
	struct types ts = { 0 };
	uint32_t entry = 0, n = 0;
	bool found = false, in_entry = false;
	struct words w;
	size_t at;
	int ret = open_words(&w, module, size);

	for (at = SPIRV_HEADER_WORDS; !ret && at < w.count;) {
		uint32_t first = word(&w, at), len = first >> 16, op = first & 0xffff;
		size_t end = at + len;

		if (!len || end > w.count) {
			ret = -EINVAL;
			break;
		}
		if (op == OP_ENTRY_POINT) {
			char name[ZEX_SPIRV_NAME_MAX];

			if (len < 4 || !string_words(&w, at + 3, end, name, sizeof(name)))
				ret = -EINVAL;
			else if (word(&w, at + 1) == MODEL_KERNEL && !strcmp(name, kernel)) {
				entry = word(&w, at + 2);
				found = true;
			}
		} else if (op == OP_DECORATE && len >= 3) {
			uint32_t what = word(&w, at + 2);

			if (what == DECORATION_CPACKED)
				ret = push_id(&ts.packed, &ts.num_packed, &ts.cap_packed,
					      word(&w, at + 1));
			else if (what == DECORATION_FUNC_PARAM && len == 4 &&
				 word(&w, at + 3) == FUNC_PARAM_BYVAL)
				ret = push_id(&ts.byval, &ts.num_byval, &ts.cap_byval,
					      word(&w, at + 1));
		} else if (op == OP_FUNCTION) {
			in_entry = found && len == 5 && word(&w, at + 2) == entry;
		} else if (op == OP_FUNCTION_PARAMETER && in_entry) {
			if (len != 3)
				ret = -EINVAL;
			else if (n < max_args)
				ret = describe_arg(&ts, word(&w, at + 1), word(&w, at + 2), &args[n]);
			n++;
		} else if (in_entry) {
			/* The entry's parameters are over. */
			break;
		} else {
			ret = add_type(&w, at, len, op, &ts);
		}
		at = end;
	}
	free(ts.t);
	free(ts.packed);
	free(ts.byval);
	if (ret)
		return ret;
	if (!found)
		return -ENOENT;
	*num_args = n;
	return n > max_args ? -E2BIG : 0;
}

/* The index in @ids of the constant @id is decorated with, or -1. */
static long spec_index(const uint32_t *decorated, const uint32_t *spec_ids, size_t num_decorated,
		       uint32_t id, uint32_t num, const uint32_t *ids)
{
	size_t i;
	uint32_t j;

	for (i = 0; i < num_decorated; i++) {
		if (decorated[i] != id)
			continue;
		for (j = 0; j < num; j++)
			if (ids[j] == spec_ids[i])
				return (long)j;
	}
	return -1;
}

static void put_word(unsigned char *bytes, const struct words *w, size_t i, uint32_t v)
{
	if (w->swapped)
		v = __builtin_bswap32(v);
	memcpy(bytes + i * 4, &v, 4);
}

/**
 * zex_spirv_specialize - a copy of a module with its specialization constants set
 * @module: the module's bytes.
 * @size: how many.
 * @num: constants to set.
 * @ids: their SpecIds.
 * @values: each one's value, as many bytes as its type has (a bool: one).
 * @out: the new module (malloc()ed, @size bytes).
 *
 * An OpSpecConstant decorated with one of @ids gets the value as its
 * literal (sign-extended to a word for a signed type narrower than 32
 * bits, as SPIR-V asks); an OpSpecConstantTrue or False becomes the one
 * the value says. The translator then reads the new defaults.
 * Return: 0; -ENOEXEC not SPIR-V; -EINVAL malformed; -ENOENT an id no
 * constant of the module has; -ENOMEM.
 */
int zex_spirv_specialize(const void *module, size_t size, uint32_t num, const uint32_t *ids,
			 const void *const *values, void **out)
{
	uint32_t *decorated = NULL, *spec_ids = NULL;
	size_t num_decorated = 0, cap = 0, cap2 = 0, n2 = 0, at;
	struct types ts = { 0 };
	unsigned char *copy;
	uint32_t *found;
	struct words w;
	int ret = open_words(&w, module, size);

	if (ret)
		return ret;
	copy = malloc(size);
	found = calloc(num ? num : 1, sizeof(*found));
	if (!copy || !found) {
		free(copy);
		free(found);
		return -ENOMEM;
	}
	memcpy(copy, module, size);
	for (at = SPIRV_HEADER_WORDS; !ret && at < w.count;) {
		uint32_t first = word(&w, at), len = first >> 16, op = first & 0xffff;
		size_t end = at + len;
		long i;

		if (!len || end > w.count) {
			ret = -EINVAL;
			break;
		}
		if (op == OP_DECORATE && len == 4 && word(&w, at + 2) == DECORATION_SPEC_ID) {
			ret = push_id(&decorated, &num_decorated, &cap, word(&w, at + 1));
			if (!ret)
				ret = push_id(&spec_ids, &n2, &cap2, word(&w, at + 3));
		} else if ((op == OP_SPEC_CONSTANT_TRUE || op == OP_SPEC_CONSTANT_FALSE) && len == 3) {
			i = spec_index(decorated, spec_ids, num_decorated, word(&w, at + 2), num, ids);
			if (i >= 0) {
				uint8_t v;

				memcpy(&v, values[i], 1);
				put_word(copy, &w, at, (3u << 16) |
					 (v ? OP_SPEC_CONSTANT_TRUE : OP_SPEC_CONSTANT_FALSE));
				found[i] = 1;
			}
		} else if (op == OP_SPEC_CONSTANT && len >= 4) {
			const struct type *t = find_type(&ts, word(&w, at + 1));

			i = spec_index(decorated, spec_ids, num_decorated, word(&w, at + 2), num, ids);
			if (i >= 0) {
				uint64_t v = 0;

				if (!t || !t->size || t->size > 8 || (t->size > 4) != (len == 5)) {
					ret = -EINVAL;
					break;
				}
				memcpy(&v, values[i], t->size);
				/* A signed type narrower than a word: sign-extended. */
				if (t->op == OP_TYPE_INT && t->value && t->size < 4 &&
				    (v >> (t->size * 8 - 1)) & 1)
					v |= ~0ull << (t->size * 8);
				put_word(copy, &w, at + 3, (uint32_t)v);
				if (len == 5)
					put_word(copy, &w, at + 4, (uint32_t)(v >> 32));
				found[i] = 1;
			}
		} else {
			ret = add_type(&w, at, len, op, &ts);
		}
		at = end;
	}
	for (at = 0; !ret && at < num; at++)
		if (!found[at])
			ret = -ENOENT;
	free(decorated);
	free(spec_ids);
	free(found);
	free(ts.t);
	free(ts.packed);
	free(ts.byval);
	if (ret) {
		free(copy);
		return ret;
	}
	*out = copy;
	return 0;
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
	uint32_t found = 0;
	struct words w;
	size_t at;
	int ret = open_words(&w, module, size);

	if (ret)
		return ret;
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
			   (word(&w, at + 2) == MODE_LOCAL_SIZE ||
			    word(&w, at + 2) == MODE_LOCAL_SIZE_HINT)) {
			struct zex_spirv_kernel *k;
			uint32_t *size;

			if (len != 6)
				return -EINVAL;
			k = find_kernel(kernels, found < max_kernels ? found : max_kernels,
					word(&w, at + 1));
			if (k) {
				size = word(&w, at + 2) == MODE_LOCAL_SIZE ? k->local_size :
									     k->local_size_hint;
				size[0] = word(&w, at + 3);
				size[1] = word(&w, at + 4);
				size[2] = word(&w, at + 5);
			}
		}
		at = end;
	}
	info->num_kernels = found;
	return found > max_kernels ? -E2BIG : 0;
}

/**
 * zex_spirv_linkage - the names a module imports and exports
 * @module: the SPIR-V.
 * @size: its size in bytes.
 * @links: receives up to @max_links names, in the module's order.
 * @max_links: room in @links (0: only count).
 * @num_links: how many the module has.
 *
 * Return: 0; -ENOEXEC not SPIR-V; -EINVAL malformed (a decoration too
 * short, a name without its NUL or of %ZEX_SPIRV_NAME_MAX - 1 bytes or
 * more); -E2BIG more names than @max_links (the first @max_links are
 * filled); -ENOMEM. The built-in variables a module uses (decorated
 * BuiltIn, and Import as the translator writes them) are not names it
 * imports.
 */
int zex_spirv_linkage(const void *module, size_t size, struct zex_spirv_link *links,
		      uint32_t max_links, uint32_t *num_links)
{
	uint32_t found = 0, *builtins = NULL;
	size_t num_builtins = 0, cap_builtins = 0, at;
	struct words w;
	int ret = open_words(&w, module, size), pass;

	if (ret)
		return ret;
	/* Pass 0: the built-in variables (Import-decorated, but the target's). */
	for (pass = 0; pass < 2; pass++) {
		for (at = SPIRV_HEADER_WORDS; at < w.count;) {
			uint32_t first = word(&w, at), len = first >> 16, op = first & 0xffff;
			size_t end = at + len, name_words;
			char name[ZEX_SPIRV_NAME_MAX];

			if (!len || end > w.count) {
				ret = -EINVAL;
				goto out;
			}
			at = end;
			if (op != OP_DECORATE || len < 3)
				continue;
			if (!pass) {
				if (word(&w, end - len + 2) == DECORATION_BUILTIN &&
				    push_id(&builtins, &num_builtins, &cap_builtins,
					    word(&w, end - len + 1))) {
					ret = -ENOMEM;
					goto out;
				}
				continue;
			}
			if (word(&w, end - len + 2) != DECORATION_LINKAGE)
				continue;
			name_words = string_words(&w, end - len + 3, end, name, sizeof(name));
			/* The name, its NUL, then the linkage type: the last word. */
			if (!name_words || end - len + 3 + name_words + 1 != end ||
			    strlen(name) >= sizeof(name) - 1) {
				ret = -EINVAL;
				goto out;
			}
			if (has_id(builtins, num_builtins, word(&w, end - len + 1)))
				continue;
			if (found < max_links) {
				memcpy(links[found].name, name, sizeof(name));
				links[found].import = word(&w, end - 1) == LINKAGE_IMPORT;
			}
			found++;
		}
	}
	*num_links = found;
	ret = found > max_links ? -E2BIG : 0;
out:
	free(builtins);
	return ret;
}
