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
 * started (its queue was banned first) ran for no time. The time is added
 * when the job ends, with one atomic add to its ring's counter and one to
 * its file's (&struct zex_exec_usage, per engine class): no lock is taken
 * that the job's end did not take before. Both counters only grow; a
 * file's outlives its queues (each holds it), so destroying a queue takes
 * nothing away from what the file's fdinfo says.
 */

#include <linux/slab.h>
#include <linux/timekeeping.h>

#include "../common/zex_gfp.h"
#include "zex_exec.h"

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
 */
void zex_job_started(struct zex_job *job)
{
	if (!job->start_ns)
		job->start_ns = ktime_get_ns();
}

/**
 * zex_job_account - add an ending job's time to its ring and its file
 * @job: the job, ending (once).
 */
void zex_job_account(struct zex_job *job)
{
	struct zex_exec_queue *q = job->queue;
	u64 ns;

	if (!job->start_ns)
		return;
	ns = ktime_get_ns() - job->start_ns;
	atomic64_add(ns, &q->ring->busy_ns);
	atomic64_add(ns, &q->usage->busy_ns[q->ring->engine_class]);
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
