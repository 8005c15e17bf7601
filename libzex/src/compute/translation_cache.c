// SPDX-License-Identifier: MIT
/*
 * DOC: translation_cache.c - translated SPIR-V modules, found again by their bytes
 *
 * A list in order of use, most recent first: a lookup walks it comparing
 * a 64-bit hash and the size, then the bytes; a hit moves to the front.
 * An insertion goes to the front and drops entries from the back while
 * the cache holds more than its capacity (an entry larger than the
 * capacity is not kept). An entry counts its SPIR-V, its bitcode, its
 * messages and its own bookkeeping. One lock serialises the list: the
 * copies made under it are of kilobytes, the translations it saves of
 * whole seconds.
 */
#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "compute/translation_cache.h"

struct entry {
	struct entry *prev, *next;
	uint64_t hash;
	size_t spirv_size, bitcode_size, log_len, bytes;
	char *log;		/* NUL-terminated; may be empty */
	unsigned char *bitcode;
	unsigned char spirv[];
};

struct zex_translation_cache {
	pthread_mutex_t lock;
	struct entry *first, *last;
	size_t capacity, bytes;
};

/* FNV-1a: a filter before the byte comparison, not a proof of equality. */
static uint64_t hash_bytes(const void *data, size_t size)
{
	const unsigned char *p = data;
	uint64_t h = 0xcbf29ce484222325ull;

	while (size--) {
		h ^= *p++;
		h *= 0x100000001b3ull;
	}
	return h;
}

/**
 * zex_translation_cache_new - an empty cache
 * @capacity: the most bytes it may hold (its entries' total).
 *
 * Return: the cache, or NULL when out of memory.
 */
struct zex_translation_cache *zex_translation_cache_new(size_t capacity)
{
	struct zex_translation_cache *c = calloc(1, sizeof(*c));

	if (!c)
		return NULL;
	pthread_mutex_init(&c->lock, NULL);
	c->capacity = capacity;
	return c;
}

static void entry_free(struct entry *e)
{
	free(e->bitcode);
	free(e->log);
	free(e);
}

/** zex_translation_cache_free - drop every entry and the cache (NULL: nothing) */
void zex_translation_cache_free(struct zex_translation_cache *c)
{
	struct entry *e, *next;

	if (!c)
		return;
	for (e = c->first; e; e = next) {
		next = e->next;
		entry_free(e);
	}
	pthread_mutex_destroy(&c->lock);
	free(c);
}

static void unlink_entry(struct zex_translation_cache *c, struct entry *e)
{
	if (e->prev)
		e->prev->next = e->next;
	else
		c->first = e->next;
	if (e->next)
		e->next->prev = e->prev;
	else
		c->last = e->prev;
	e->prev = e->next = NULL;
}

static void push_front(struct zex_translation_cache *c, struct entry *e)
{
	e->prev = NULL;
	e->next = c->first;
	if (c->first)
		c->first->prev = e;
	else
		c->last = e;
	c->first = e;
}

static struct entry *find(struct zex_translation_cache *c, uint64_t hash, const void *spirv,
			  size_t size)
{
	struct entry *e;

	for (e = c->first; e; e = e->next)
		if (e->hash == hash && e->spirv_size == size && !memcmp(e->spirv, spirv, size))
			return e;
	return NULL;
}

/**
 * zex_translation_cache_lookup - the translation of a module seen before
 * @c: the cache.
 * @spirv: the module.
 * @size: its size.
 * @bitcode: a copy of its bitcode (malloc()ed) on a hit.
 * @bitcode_size: its size.
 * @messages: a copy of the translator's messages of that translation
 *	(malloc()ed) on a hit, NULL when it printed none.
 *
 * Return: 0 on a hit; -ENOENT when the module is not in the cache;
 * -ENOMEM when it is but no copy could be made.
 */
int zex_translation_cache_lookup(struct zex_translation_cache *c, const void *spirv,
				 size_t size, void **bitcode, size_t *bitcode_size, char **messages)
{
	uint64_t hash = hash_bytes(spirv, size);
	char *text = NULL;
	struct entry *e;
	void *copy;

	pthread_mutex_lock(&c->lock);
	e = find(c, hash, spirv, size);
	if (!e) {
		pthread_mutex_unlock(&c->lock);
		return -ENOENT;
	}
	unlink_entry(c, e);
	push_front(c, e);
	copy = malloc(e->bitcode_size);
	if (copy)
		memcpy(copy, e->bitcode, e->bitcode_size);
	if (e->log_len)
		text = strdup(e->log);
	*bitcode_size = e->bitcode_size;
	pthread_mutex_unlock(&c->lock);
	if (!copy || (e->log_len && !text)) {
		free(copy);
		free(text);
		return -ENOMEM;
	}
	*bitcode = copy;
	*messages = text;
	return 0;
}

/**
 * zex_translation_cache_insert - keep a module's translation
 * @c: the cache.
 * @spirv: the module.
 * @size: its size.
 * @bitcode: the bitcode the translator wrote for it (copied).
 * @bitcode_size: its size (not 0).
 * @log: the translator's messages, or NULL.
 *
 * A module already kept (another thread translated it too) stays as it
 * was. Nothing is kept when out of memory, or when the entry alone would
 * exceed the capacity.
 */
void zex_translation_cache_insert(struct zex_translation_cache *c, const void *spirv,
				  size_t size, const void *bitcode, size_t bitcode_size,
				  const char *log)
{
	size_t log_len = log ? strlen(log) : 0;
	uint64_t hash = hash_bytes(spirv, size);
	struct entry *e, *old;
	size_t bytes;

	if (size > c->capacity || bitcode_size > c->capacity || log_len > c->capacity)
		return;
	bytes = sizeof(*e) + size + bitcode_size + log_len + 1;
	if (bytes > c->capacity)
		return;
	e = malloc(sizeof(*e) + size);
	if (!e)
		return;
	e->bitcode = malloc(bitcode_size);
	e->log = malloc(log_len + 1);
	if (!e->bitcode || !e->log) {
		entry_free(e);
		return;
	}
	memcpy(e->spirv, spirv, size);
	memcpy(e->bitcode, bitcode, bitcode_size);
	memcpy(e->log, log ? log : "", log_len + 1);
	e->hash = hash;
	e->spirv_size = size;
	e->bitcode_size = bitcode_size;
	e->log_len = log_len;
	e->bytes = bytes;

	pthread_mutex_lock(&c->lock);
	if (find(c, hash, spirv, size)) {
		pthread_mutex_unlock(&c->lock);
		entry_free(e);
		return;
	}
	while (c->last && c->bytes + bytes > c->capacity) {
		old = c->last;
		unlink_entry(c, old);
		c->bytes -= old->bytes;
		entry_free(old);
	}
	push_front(c, e);
	c->bytes += bytes;
	pthread_mutex_unlock(&c->lock);
}

/**
 * zex_translation_cache_bytes - what the cache holds now
 * @c: the cache.
 * @entries: its number of entries, when not NULL.
 *
 * Return: the bytes its entries count (never above its capacity).
 */
size_t zex_translation_cache_bytes(struct zex_translation_cache *c, unsigned int *entries)
{
	unsigned int n = 0;
	struct entry *e;
	size_t bytes;

	pthread_mutex_lock(&c->lock);
	bytes = c->bytes;
	for (e = c->first; e; e = e->next)
		n++;
	pthread_mutex_unlock(&c->lock);
	if (entries)
		*entries = n;
	return bytes;
}
