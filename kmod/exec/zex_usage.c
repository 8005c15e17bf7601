// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Copyright © 2026 The zex authors
 */

/**
 * DOC: zex_usage.c - engine time: what each file's jobs and each engine ran
 *
 * A job's time is from the moment its ring's worker (or, on a long-running
 * queue, its context) starts running it to its end, whatever ended it: a
 * long-running job that waits for a launch's reports or a WAIT's value is
 * busy meanwhile, as an engine that holds a context is. A job that never
 * started (its queue was banned first) ran for no time; one that ran, for
 * 1 ns at least (a clock coarser than the job reads none). The time is
 * added when its commands have run (before its user fences are written)
 * or when it ends otherwise, with one atomic add to its ring's counter and one to
 * its file's (&struct zex_exec_usage, per engine class): no lock is taken
 * that the job's end did not take before. Both counters only grow; a
 * file's outlives its queues (each holds it), so destroying a queue takes
 * nothing away from what the file's fdinfo says.
 *
 * An engine group (each tile's engines of one class, and the device's)
 * counts the time at least one of its engines ran a job: the union of its
 * jobs' times, never more than the time that passed (but for the 16 us
 * below), where the sum of
 * its engines' counters may be several times that. A group's one word of
 * state holds its running jobs and when the first of them started (with
 * none, when the last period ended: a start read on another CPU before that
 * end begins at the end, not before it); a job's start and end each change
 * it with one compare-and-exchange, and the last job to end adds the busy
 * period. The start time is kept in
 * units of 16 us (a period may count up to that much more than it ran),
 * which covers 8 years of uptime beside a count of 2^20 running jobs (a
 * count the limits on queues keep far away; reaching it would only make
 * the group's figure wrong).
 */

#include <linux/bitops.h>
#include <linux/slab.h>
#include <linux/timekeeping.h>

#include "../common/zex_gfp.h"
#include "zex_exec.h"

#define ZEX_GROUP_COUNT_BITS	20
#define ZEX_GROUP_COUNT_MASK	((1ull << ZEX_GROUP_COUNT_BITS) - 1)
#define ZEX_GROUP_UNIT_SHIFT	14

/**
 * zex_exec_group - one engine group of a device
 * @xdev: the device's execution state.
 * @tile: a tile, or the number of tiles for the whole device's group.
 * @engine_class: &enum drm_zex_engine_class.
 *
 * Return: the group.
 */
struct zex_engine_group *zex_exec_group(struct zex_exec_device *xdev, u32 tile, u16 engine_class)
{
	return &xdev->groups[tile * ZEX_ENGINE_CLASSES + engine_class];
}

/*
 * With no job running, the word keeps when the last period ended (rounded
 * up to the next unit): a job whose clock was read before that end (on
 * another CPU) starts its period there, so no time is counted twice.
 */
static u64 zex_group_unit_up(u64 ns)
{
	return (ns >> ZEX_GROUP_UNIT_SHIFT) + !!(ns & ((1ull << ZEX_GROUP_UNIT_SHIFT) - 1));
}

static void zex_group_start(struct zex_engine_group *g, u64 now)
{
	s64 old = atomic64_read(&g->state), new;
	u64 units = now >> ZEX_GROUP_UNIT_SHIFT;

	do {
		new = (old & ZEX_GROUP_COUNT_MASK) ? old + 1 :
		      (s64)((max_t(u64, units, (u64)old >> ZEX_GROUP_COUNT_BITS) <<
			     ZEX_GROUP_COUNT_BITS) | 1);
	} while (!atomic64_try_cmpxchg(&g->state, &old, new));
}

static void zex_group_end(struct zex_engine_group *g, u64 now)
{
	s64 old = atomic64_read(&g->state), new;
	u64 since;

	do {
		new = (old & ZEX_GROUP_COUNT_MASK) != 1 ? old - 1 :
		      (s64)(max_t(u64, zex_group_unit_up(now),
				  (u64)old >> ZEX_GROUP_COUNT_BITS) << ZEX_GROUP_COUNT_BITS);
	} while (!atomic64_try_cmpxchg(&g->state, &old, new));
	if (new & ZEX_GROUP_COUNT_MASK)
		return;
	since = ((u64)old >> ZEX_GROUP_COUNT_BITS) << ZEX_GROUP_UNIT_SHIFT;
	if (now > since)
		atomic64_add(now - since, &g->busy_ns);
}

/* Each group a job of @ring counts in: its tiles' of its class, and the device's. */
static void zex_ring_groups(struct zex_ring *ring, u64 now, bool start)
{
	struct zex_exec_device *xdev = ring->xdev;
	void (*update)(struct zex_engine_group *g, u64 now) = start ? zex_group_start :
								       zex_group_end;
	unsigned long mask = ring->tile_mask;
	u32 tile;

	for_each_set_bit(tile, &mask, xdev->num_tiles)
		update(zex_exec_group(xdev, tile, ring->engine_class), now);
	update(zex_exec_group(xdev, xdev->num_tiles, ring->engine_class), now);
}

/**
 * zex_exec_usage_create - a file's engine time, zero
 *
 * Return: the counters (one reference), charged to the caller's memory
 * cgroup; NULL without memory.
 */
struct zex_exec_usage *zex_exec_usage_create(void)
{
	struct zex_exec_usage *usage = kzalloc(sizeof(*usage), ZEX_GFP_USER);

	if (usage)
		kref_init(&usage->refcount);
	return usage;
}

static void zex_exec_usage_release(struct kref *kref)
{
	kfree(container_of(kref, struct zex_exec_usage, refcount));
}

/**
 * zex_exec_usage_put - drop a reference to a file's engine time
 * @usage: the counters.
 */
void zex_exec_usage_put(struct zex_exec_usage *usage)
{
	kref_put(&usage->refcount, zex_exec_usage_release);
}

/**
 * zex_job_started - note that a job starts to run, unless it ran before
 * @job: the job; a long-running one may stop and go on many times.
 *
 * Its engine groups count it as running from now.
 */
void zex_job_started(struct zex_job *job)
{
	if (job->start_ns)
		return;
	job->start_ns = ktime_get_ns();
	zex_ring_groups(job->queue->ring, job->start_ns, true);
}

/**
 * zex_job_account - add an ending job's time to its ring, its file and its groups
 * @job: the job, ending; the second call adds nothing.
 */
void zex_job_account(struct zex_job *job)
{
	struct zex_exec_queue *q = job->queue;
	u64 ns, now;

	if (!job->start_ns || job->counted)
		return;
	job->counted = true;
	now = ktime_get_ns();
	/*
	 * A clock coarser than the job (jiffies, where a VM has no better
	 * clocksource) may read no time at all: a job that ran counts 1 ns at
	 * least, so that its file shows it used the engine.
	 */
	ns = max_t(u64, now - job->start_ns, 1);
	atomic64_add(ns, &q->ring->busy_ns);
	atomic64_add(ns, &q->usage->busy_ns[q->ring->engine_class]);
	zex_ring_groups(q->ring, now, false);
}

/**
 * zex_exec_file_busy_ns - the time a file's jobs ran on one class of engine
 * @xfile: the file's exec state.
 * @engine_class: &enum drm_zex_engine_class.
 *
 * Return: nanoseconds, those of ended jobs.
 */
u64 zex_exec_file_busy_ns(const struct zex_exec_file *xfile, u16 engine_class)
{
	if (engine_class >= ZEX_ENGINE_CLASSES)
		return 0;
	return atomic64_read(&xfile->usage->busy_ns[engine_class]);
}

/**
 * zex_exec_engines - the engines of one class a file may run jobs on
 * @xdev: the device's execution state.
 * @engine_class: &enum drm_zex_engine_class.
 *
 * Return: every tile's engines of the class, plus the root device's own
 * when it has one (implicit scaling): the most a file's busy time of the
 * class can grow by per nanosecond.
 */
u32 zex_exec_engines(const struct zex_exec_device *xdev, u16 engine_class)
{
	u32 i, n = 0;

	for (i = 0; i < xdev->num_rings; i++)
		n += xdev->tile_rings[i].engine_class == engine_class;
	if (xdev->root_ring && xdev->root_ring->engine_class == engine_class)
		n++;
	return n;
}
