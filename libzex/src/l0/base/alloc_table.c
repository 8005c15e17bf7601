// SPDX-License-Identifier: MIT
/*
 * Copyright © 2026 The zex authors
 */

/*
 * DOC: alloc_table.c - the address-ordered, reference-counted table
 *
 * A sorted array under one mutex: lookups are a binary search; inserts and
 * removals move the tail. Entries never overlap (an insert that would is
 * refused), so "the entry containing ptr" is unique.
 */

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "l0/base/alloc_table.h"

void zex_alloc_table_init(struct zex_alloc_table *t)
{
	pthread_mutex_init(&t->lock, NULL);
	t->entries = NULL;
	t->count = t->capacity = 0;
}

/* Drops the table's references; entries still looked up stay alive. */
void zex_alloc_table_fini(struct zex_alloc_table *t)
{
	size_t i;

	for (i = 0; i < t->count; i++)
		zex_alloc_put(t->entries[i]);
	free(t->entries);
	t->entries = NULL;
	t->count = t->capacity = 0;
	pthread_mutex_destroy(&t->lock);
}

/* Index of the first entry whose base is above @addr. */
static size_t upper_bound(const struct zex_alloc_table *t, uintptr_t addr)
{
	size_t lo = 0, hi = t->count;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (t->entries[mid]->base <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/**
 * zex_alloc_table_insert - add @a, which holds one reference (the table's)
 *
 * Return: 0, -EINVAL for an empty or wrapping range, -EEXIST when it
 * overlaps an entry, -ENOMEM.
 */
int zex_alloc_table_insert(struct zex_alloc_table *t, struct zex_alloc *a)
{
	size_t at;
	int ret = 0;

	if (!a->size || a->base + a->size - 1 < a->base)
		return -EINVAL;
	atomic_store(&a->refs, 1);
	pthread_mutex_lock(&t->lock);
	at = upper_bound(t, a->base);
	if ((at > 0 && t->entries[at - 1]->base + t->entries[at - 1]->size > a->base) ||
	    (at < t->count && a->base + a->size > t->entries[at]->base)) {
		ret = -EEXIST;
		goto out;
	}
	if (t->count == t->capacity) {
		size_t cap = t->capacity ? t->capacity * 2 : 16;
		struct zex_alloc **e = realloc(t->entries, cap * sizeof(*e));

		if (!e) {
			ret = -ENOMEM;
			goto out;
		}
		t->entries = e;
		t->capacity = cap;
	}
	memmove(&t->entries[at + 1], &t->entries[at], (t->count - at) * sizeof(*t->entries));
	t->entries[at] = a;
	t->count++;
out:
	pthread_mutex_unlock(&t->lock);
	return ret;
}

/** zex_alloc_table_find - the entry containing @ptr, with a reference, or NULL */
struct zex_alloc *zex_alloc_table_find(struct zex_alloc_table *t, const void *ptr)
{
	uintptr_t addr = (uintptr_t)ptr;
	struct zex_alloc *a = NULL;
	size_t at;

	pthread_mutex_lock(&t->lock);
	at = upper_bound(t, addr);
	if (at > 0 && addr - t->entries[at - 1]->base < t->entries[at - 1]->size) {
		a = t->entries[at - 1];
		atomic_fetch_add(&a->refs, 1);
	}
	pthread_mutex_unlock(&t->lock);
	return a;
}

/**
 * zex_alloc_table_covers - whether entries cover [@ptr, @ptr + @len) without a gap
 *
 * One entry, or several that follow each other (mappings side by side in
 * a reserved range). A @len of 0 asks about the byte at @ptr.
 */
bool zex_alloc_table_covers(struct zex_alloc_table *t, const void *ptr, uint64_t len)
{
	uintptr_t addr = (uintptr_t)ptr, last;
	bool covered = false;
	size_t at;

	if (len && addr + (len - 1) < addr)
		return false;
	last = len ? addr + (len - 1) : addr;
	pthread_mutex_lock(&t->lock);
	at = upper_bound(t, addr);
	while (at > 0 && at <= t->count) {
		const struct zex_alloc *a = t->entries[at - 1];

		if (addr - a->base >= a->size)
			break;
		if (last - a->base < a->size) {
			covered = true;
			break;
		}
		/* The next entry must start right after this one. */
		addr = a->base + a->size;
		if (at == t->count || t->entries[at]->base != addr)
			break;
		at++;
	}
	pthread_mutex_unlock(&t->lock);
	return covered;
}

/**
 * zex_alloc_table_find_if - the first entry @match accepts, with a reference, or NULL
 *
 * A walk of every entry, under the table's lock: for rare lookups by
 * something other than an address.
 */
struct zex_alloc *zex_alloc_table_find_if(struct zex_alloc_table *t,
					  bool (*match)(const struct zex_alloc *a,
							const void *arg),
					  const void *arg)
{
	struct zex_alloc *a = NULL;
	size_t i;

	pthread_mutex_lock(&t->lock);
	for (i = 0; i < t->count; i++)
		if (match(t->entries[i], arg)) {
			a = t->entries[i];
			atomic_fetch_add(&a->refs, 1);
			break;
		}
	pthread_mutex_unlock(&t->lock);
	return a;
}

/**
 * zex_alloc_table_remove - unlink the entry starting exactly at @base
 * @t: the table.
 * @base: the entry's first byte.
 * @kinds: only an entry whose kind (a bit) is in this mask; -1 for any.
 *
 * Return: the entry, still holding the table's reference (put it when
 * done), or NULL when no entry of @kinds starts at @base.
 */
struct zex_alloc *zex_alloc_table_remove(struct zex_alloc_table *t, const void *base,
					 int kinds)
{
	uintptr_t addr = (uintptr_t)base;
	struct zex_alloc *a = NULL;
	size_t at;

	pthread_mutex_lock(&t->lock);
	at = upper_bound(t, addr);
	if (at > 0 && t->entries[at - 1]->base == addr &&
	    (t->entries[at - 1]->kind & kinds)) {
		a = t->entries[at - 1];
		memmove(&t->entries[at - 1], &t->entries[at],
			(t->count - at) * sizeof(*t->entries));
		t->count--;
	}
	pthread_mutex_unlock(&t->lock);
	return a;
}

/** zex_alloc_put - drop a reference; the last one releases the allocation */
void zex_alloc_put(struct zex_alloc *a)
{
	if (a && atomic_fetch_sub(&a->refs, 1) == 1)
		a->release(a);
}
