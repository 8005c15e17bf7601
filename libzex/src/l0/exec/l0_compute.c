// SPDX-License-Identifier: MIT
/*
 * DOC: l0_compute.c - a queue's kernel half: a long-running exec queue and its serving threads
 *
 * A queue of the compute group runs its jobs on an ordinary exec queue
 * until it is first given a launch. From then on its jobs go to a
 * long-running exec queue on the same engine (created then: the first of
 * its jobs waits for the last of the ordinary queue's), each job ending
 * with a user fence that stores its point in the queue's scratch page,
 * and the launches are published in a record on that page. Each tile the
 * queue's engine spans has a thread of the application's process that
 * sleeps in the kernel until a launch is published (zex_launch_wait(), tied
 * to the queue), runs the tile's part of it on the compute engine (the
 * groups compute-runtime's static partitioning gives it: partition.c), and
 * reports it done, or faulted (the kernel touched memory the process does
 * not map, or wrote a read-only page: kernel_faults.c; or the engine
 * refused to run it): the queue is banned, DEVICE_LOST for it alone. The
 * threads end when the queue's long-running half is destroyed or banned.
 * A synchronous immediate list's thread waits for its launches anyway: it
 * runs their first tile's parts itself (zex_l0_compute_run_own()), and
 * that tile has no serving thread to wake for nothing.
 */

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "compute/partition.h"
#include "l0/exec/l0_exec.h"
#include "l0/module/l0_module.h"

/* Where a queue's launches are published: after its point, on the scratch page. */
#define RECORD_OFFSET	64

struct server {
	struct zex_l0_compute *c;
	pthread_t thread;
	uint32_t tile;
	struct zex_engine_queue *eq;
	bool started;
	_Atomic uint64_t claimed;	/* the last launch whose part here is taken */
};

struct zex_l0_compute {
	struct zex_device *dev;
	uint32_t exec_queue;
	struct drm_zex_launch_record *record;
	uint32_t num_servers;
	struct server servers[ZEX_MAX_TILES];
};

/* Run @tile's part of @launch (number @seqno), of the @tile_mask tiles that share it. */
static int run_part(struct server *s, const struct zex_l0_launch *launch, uint64_t seqno,
		    uint32_t tile_mask, struct zex_engine_fault *fault)
{
	const struct zex_l0_kernel_capture *k = &launch->kernel;
	const uint32_t zero[3] = { 0, 0, 0 };
	uint32_t groups[3] = { launch->groups[0], launch->groups[1], launch->groups[2] };
	uint32_t tiles = (uint32_t)__builtin_popcount(tile_mask);
	uint32_t rank = (uint32_t)__builtin_popcount(tile_mask & ((1u << s->tile) - 1));
	uint32_t part_groups[3], first, n, d;
	struct zex_geometry g = { .group_start = { 0 } };
	struct zex_partition p;
	int ret;

	if (launch->count && __atomic_load_n(launch->count, __ATOMIC_ACQUIRE) <= launch->index)
		return 0;
	if (launch->indirect) {
		groups[0] = launch->indirect->groupCountX;
		groups[1] = launch->indirect->groupCountY;
		groups[2] = launch->indirect->groupCountZ;
		if (!groups[0] || !groups[1] || !groups[2])
			return 0;
	}
	zex_partition_choose(groups, zero, tiles, &p);
	zex_partition_part(&p, groups, rank, &first, &n);
	if (!n)
		return 0;
	for (d = 0; d < 3; d++) {
		part_groups[d] = groups[d];
		g.num_groups[d] = groups[d];
		g.global_offset[d] = k->global_offset[d];
	}
	part_groups[p.dim] = n;
	g.group_start[p.dim] = first;
	if (!launch->cooperative)
		return zex_engine_run(s->eq, k->kernel, &k->args, k->group_size, part_groups, &g,
				      fault);
	/* Its parts: the tiles with groups of it. */
	for (d = 0, n = 0; d < tiles; d++) {
		uint32_t f, m;

		zex_partition_part(&p, groups, d, &f, &m);
		n += m != 0;
	}
	zex_engine_cooperative_enter(s->eq, s->c, seqno, n);
	ret = zex_engine_run(s->eq, k->kernel, &k->args, k->group_size, part_groups, &g, fault);
	zex_engine_cooperative_leave(s->eq, s->c, seqno);
	return ret;
}

/* Take tile @s's part of launch @seqno: whoever does runs and reports it. */
static bool claim(struct server *s, uint64_t seqno)
{
	uint64_t old = atomic_load(&s->claimed);

	while (old < seqno)
		if (atomic_compare_exchange_weak(&s->claimed, &old, seqno))
			return true;
	return false;
}

/* Run the part of the launch the record names (@seqno) on @s's tile, and report it. */
static void run_and_report(struct server *s, uint64_t seqno, uint32_t mask)
{
	struct zex_l0_compute *c = s->c;
	const struct zex_l0_launch *launch =
		(const struct zex_l0_launch *)(uintptr_t)c->record->cookie;
	struct zex_engine_fault f = { 0 };
	int ret = run_part(s, launch, seqno, mask, &f);

	if (ret == -EFAULT)
		zex_launch_report_fault(c->dev, c->exec_queue, s->tile, seqno, f.addr,
					f.read_only ? DRM_ZEX_FAULT_READ_ONLY :
						      DRM_ZEX_FAULT_NOT_MAPPED, f.write);
	else if (ret)
		zex_launch_report_fault(c->dev, c->exec_queue, s->tile, seqno, 0,
					DRM_ZEX_FAULT_KERNEL_ABORTED, false);
	else
		zex_launch_report(c->dev, c->exec_queue, s->tile, seqno);
}

static void *serve(void *arg)
{
	struct server *s = arg;
	struct zex_l0_compute *c = s->c;
	uint64_t next = 1;

	for (;;) {
		uint64_t seqno;
		uint32_t mask;

		if (zex_launch_wait(c->dev, c->exec_queue, c->record, next, -1))
			break;
		/* The kernel writes the record's seqno last. */
		seqno = __atomic_load_n(&c->record->seqno, __ATOMIC_ACQUIRE);
		mask = c->record->tile_mask;
		next = seqno + 1;
		if (!(mask & (1u << s->tile)) ||
		    __atomic_load_n(&c->record->state, __ATOMIC_ACQUIRE) || !claim(s, seqno))
			continue;
		run_and_report(s, seqno, mask);
	}
	return NULL;
}

/* The tiles @group's engine spans. */
static uint32_t group_tiles(struct zex_l0_driver *drv, const struct zex_l0_queue_group *group,
			    uint32_t *tiles)
{
	uint32_t i, n = 0;

	if (group->device != ZEX_DEVICE_ROOT) {
		tiles[0] = group->device;
		return 1;
	}
	for (i = 0; i < drv->topo.num_tiles; i++)
		tiles[n++] = i;
	return n;
}

/**
 * zex_l0_compute_start - give a queue its kernel half
 * @q: the queue, its lock held; of the compute group.
 *
 * Return: 0; -ENODEV without a compute engine; the kernel's -errno
 * (-EMFILE: too many long-running queues); -ENOMEM.
 */
int zex_l0_compute_start(struct zex_l0_cmdqueue *q)
{
	struct zex_l0_queue_group groups[ZEX_L0_MAX_QUEUE_GROUPS];
	struct zex_compute_engine *e = zex_l0_engine(q->drv);
	uint32_t tiles[ZEX_MAX_TILES], i;
	struct zex_l0_compute *c;
	int ret;

	if (!e)
		return -ENODEV;
	zex_l0_queue_groups(q->device, groups);
	c = calloc(1, sizeof(*c));
	if (!c)
		return -ENOMEM;
	c->dev = q->drv->dev;
	c->record = (struct drm_zex_launch_record *)((char *)q->scratch + RECORD_OFFSET);
	ret = zex_exec_queue_create_lr(c->dev, (uint16_t)q->index, groups[q->ordinal].device,
				       &c->exec_queue);
	if (ret) {
		free(c);
		return ret;
	}
	c->num_servers = group_tiles(q->drv, &groups[q->ordinal], tiles);
	for (i = 0; i < c->num_servers && !ret; i++) {
		struct server *s = &c->servers[i];

		s->c = c;
		s->tile = tiles[i];
		ret = zex_engine_queue_create(e, s->tile, &s->eq);
		/* A self-served queue's first tile is its appending thread's. */
		if (!ret && !(q->self_served && !i)) {
			ret = -pthread_create(&s->thread, NULL, serve, s);
			s->started = !ret;
		}
	}
	q->compute = c;
	if (ret) {
		zex_l0_compute_stop(q);
		return ret;
	}
	return 0;
}

/**
 * zex_l0_compute_stop - end a queue's kernel half (its jobs have run, or never will)
 * @q: the queue.
 *
 * Destroying the long-running queue ends any launch still published and
 * wakes the threads, which then end.
 */
void zex_l0_compute_stop(struct zex_l0_cmdqueue *q)
{
	struct zex_l0_compute *c = q->compute;
	uint32_t i;

	if (!c)
		return;
	zex_exec_queue_destroy(c->dev, c->exec_queue);
	for (i = 0; i < c->num_servers; i++) {
		if (c->servers[i].started)
			pthread_join(c->servers[i].thread, NULL);
		zex_engine_queue_destroy(c->servers[i].eq);
	}
	free(c);
	q->compute = NULL;
}

/**
 * zex_l0_compute_run_own - the submitting thread runs its own launches' first parts
 * @q: the queue, with its kernel half.
 * @first: the first launch of the submission, by its number on the queue
 *	(1, 2, ... in submission order).
 * @last: the last.
 *
 * A thread about to wait for its launches (a synchronous immediate list)
 * runs the part of the first tile each launch spans itself, one launch
 * after the other as the queue publishes them, saving a serving thread's
 * wake-up and its own; the other tiles' parts run on their threads at the
 * same time. On a self-served queue that tile has no thread: every such
 * part is this thread's. Elsewhere the part is claimed first, so exactly
 * one thread runs each. Returns early when the queue ends (banned).
 */
void zex_l0_compute_run_own(struct zex_l0_cmdqueue *q, uint64_t first, uint64_t last)
{
	struct zex_l0_compute *c = q->compute;
	uint64_t seqno, now;
	uint32_t mask, i;

	for (seqno = first; seqno <= last; seqno++) {
		if (__atomic_load_n(&c->record->seqno, __ATOMIC_ACQUIRE) < seqno &&
		    zex_launch_wait(c->dev, c->exec_queue, c->record, seqno, -1))
			return;
		now = __atomic_load_n(&c->record->seqno, __ATOMIC_ACQUIRE);
		mask = c->record->tile_mask;
		if (__atomic_load_n(&c->record->state, __ATOMIC_ACQUIRE))
			return;
		if (now != seqno)
			continue;
		for (i = 0; i < c->num_servers; i++) {
			struct server *s = &c->servers[i];

			if (!(mask & (1u << s->tile)))
				continue;
			if (claim(s, seqno))
				run_and_report(s, seqno, mask);
			break;
		}
	}
}

/** zex_l0_compute_exec_queue - the long-running exec queue of a queue's kernel half */
uint32_t zex_l0_compute_exec_queue(const struct zex_l0_cmdqueue *q)
{
	return q->compute->exec_queue;
}

/** zex_l0_compute_record - where a queue's launches are published (its LAUNCH's dst) */
uint64_t zex_l0_compute_record(const struct zex_l0_cmdqueue *q)
{
	return (uintptr_t)q->compute->record;
}
