/* SPDX-License-Identifier: MIT */
/*
 * Copyright © 2026 The zex authors
 */

/*
 * DOC: object_pool.h - where Level Zero objects live (object_pool.c)
 *
 * Every object an application holds a handle to and destroys (contexts,
 * command queues and lists, event pools, events, fences) starts with a
 * &struct zex_l0_object and lives in the pool of its type.
 */

#ifndef ZEX_L0_OBJECT_POOL_H
#define ZEX_L0_OBJECT_POOL_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>

#include "l0/base/ddi_header.h"

/* Slots per chunk; a destroyed slot's quarantine, in later destroyed slots. */
#define ZEX_OBJECT_CHUNK	256
#define ZEX_OBJECT_QUARANTINE	4096

/**
 * struct zex_l0_object - what every pooled object starts with
 * @ddi: the DDI header: the handle dispatches through it.
 * @live: set once the object is whole, cleared when it is destroyed.
 * @next_dead: the pool's queue of destroyed slots.
 */
struct zex_l0_object {
	ze_handle_t ddi;
	atomic_bool live;
	struct zex_l0_object *next_dead;
};

struct zex_object_index;

/** struct zex_object_pool - the slots of one type; see object_pool.c */
struct zex_object_pool {
	size_t slot_size;
	pthread_mutex_t lock;
	_Atomic(struct zex_object_index *) chunks;
	size_t next_unused;
	char *newest;
	struct zex_l0_object *dead_head, *dead_tail;
	size_t num_dead;
};

/* A pool of objects of @type, which starts with a struct zex_l0_object. */
#define ZEX_OBJECT_POOL(type) {				\
	.slot_size = sizeof(type),			\
	.lock = PTHREAD_MUTEX_INITIALIZER,		\
	.next_unused = ZEX_OBJECT_CHUNK,		\
}

void *zex_object_pool_get(struct zex_object_pool *pool);
void zex_object_pool_put(struct zex_object_pool *pool, void *obj);
void *zex_object_pool_find(struct zex_object_pool *pool, const void *h);

/** zex_l0_object_publish - make @obj a handle: dispatching, and found */
static inline void zex_l0_object_publish(struct zex_l0_object *obj)
{
	zex_ddi_header_init(&obj->ddi);
	atomic_store(&obj->live, true);
}

#endif /* ZEX_L0_OBJECT_POOL_H */
