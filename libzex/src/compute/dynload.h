/* SPDX-License-Identifier: MIT */
/*
 * DOC: dynload.h - loading the compute engine's shared libraries at run time
 *
 * dlopen() is found at run time too: a static program (libzex.a linked
 * with -static, as some tests are) could load no shared PoCL anyway, and
 * naming dlopen() there only makes the linker warn. In a static program
 * zex_dlopen() finds no dlopen() and returns NULL: the engine is absent.
 */
#ifndef ZEX_COMPUTE_DYNLOAD_H
#define ZEX_COMPUTE_DYNLOAD_H

#include <dlfcn.h>

/* dlopen(@name, RTLD_NOW | RTLD_LOCAL), or NULL (also in a static program). */
static inline void *zex_dlopen(const char *name)
{
	void *(*open_fn)(const char *, int);
	void *sym = dlsym(RTLD_DEFAULT, "dlopen");

	if (!sym)
		return NULL;
	*(void **)&open_fn = sym;
	return open_fn(name, RTLD_NOW | RTLD_LOCAL);
}

#endif /* ZEX_COMPUTE_DYNLOAD_H */
