// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Copyright © 2026 The zex authors
 */

/**
 * DOC: zex_launch.c - launches: what a queue's published launch waits for
 *
 * A %DRM_ZEX_CMD_LAUNCH on a long-running queue's context publishes a
 * launch: zex_launch_begin() takes the queue's next number and notes which
 * tiles must report (the ring's: one, or every tile for the root device's
 * engine), and the job runner writes the &struct drm_zex_launch_record at
 * the command's address, the number last, and wakes user fence waits; the
 * job then stops (-EINPROGRESS). zex_launch_report() takes one tile's
 * report (DRM_IOCTL_ZEX_LAUNCH_REPORT): a done clears the tile, and after
 * the last the context runs on, its job past the command; a fault
 * bans the queue with -EFAULT and the report's fault at once, which kicks
 * the context too. A launch the context finds stopped (the queue banned
 * before every tile reported) gets %DRM_ZEX_LAUNCH_STOP in its record's
 * state from zex_launch_stop(), written even though the queue is banned,
 * and waits wake to read it. A queue has at most one launch published: its
 * jobs run in order and a launch is the whole of its job's progress.
 *
 * Nothing here looks a queue up: the ioctl does (zex_launch_ioctl.c).
 */

#include <linux/memcontrol.h>
#include <linux/sched/mm.h>
#include <linux/stddef.h>

#include "../vm/zex_vm.h"
#include "zex_exec.h"

/**
 * zex_launch_begin - a LAUNCH command reached, or its context kicked again
 * @lr: the context.
 * @cmd: the command.
 * @rec: receives the record to publish, when one is to be.
 *
 * Return: 0 when every tile reported the launch done; -EINPROGRESS while
 * it waits; 1 when a new launch is to be published: @rec is filled in,
 * and the caller writes it, or calls zex_launch_abort() when it cannot.
 */
int zex_launch_begin(struct zex_lr *lr, const struct drm_zex_command *cmd,
		     struct drm_zex_launch_record *rec)
{
	u16 mask = lr->queue->ring->tile_mask;
	int ret;

	spin_lock_irq(&lr->lock);
	if (lr->launch.seqno) {
		ret = lr->launch.pending ? -EINPROGRESS : 0;
		if (!ret)
			lr->launch.seqno = 0;
	} else {
		*rec = (struct drm_zex_launch_record){
			.seqno = ++lr->last_seqno,
			.cookie = cmd->value,
			.tile_mask = mask,
		};
		lr->launch = (struct zex_launch){
			.seqno = rec->seqno,
			.record = cmd->dst,
			.tile_mask = mask,
			.pending = mask,
		};
		ret = 1;
	}
	spin_unlock_irq(&lr->lock);
	return ret;
}

/**
 * zex_launch_abort - the launch just begun could not be published
 * @lr: the context.
 */
void zex_launch_abort(struct zex_lr *lr)
{
	spin_lock_irq(&lr->lock);
	lr->launch.seqno = 0;
	spin_unlock_irq(&lr->lock);
}

/**
 * zex_launch_stop - a job ends with a launch still published: tell its parts
 * @job: the job, on a long-running queue's context.
 *
 * Writes %DRM_ZEX_LAUNCH_STOP into the record's state (a fault there loses
 * only the word) and wakes user fence waits; later reports find no launch.
 */
void zex_launch_stop(struct zex_job *job)
{
	struct zex_exec_queue *q = job->queue;
	struct zex_lr *lr = q->lr;
	u32 stop = DRM_ZEX_LAUNCH_STOP;
	struct zex_vm_op op = {
		.kind = ZEX_VM_OP_FILL,
		.len = sizeof(stop),
		.pattern = (const u8 *)&stop,
		.pattern_size = sizeof(stop),
	};
	struct mem_cgroup *old;
	bool published;

	spin_lock_irq(&lr->lock);
	published = lr->launch.seqno;
	op.dst = lr->launch.record + offsetof(struct drm_zex_launch_record, state);
	lr->launch.seqno = 0;
	spin_unlock_irq(&lr->lock);
	if (!published)
		return;
	/* Not the job's own operation: the ban that stops it must not stop this. */
	old = set_active_memcg(job->memcg);
	zex_vm_execute(q->vm, &op);
	set_active_memcg(old);
	zex_exec_queue_signal_done(q);
}

/**
 * zex_launch_report - one tile's report of a queue's launch
 * @q: the long-running queue, not banned when looked at.
 * @r: the report, checked.
 *
 * Return: 0; 1 when it was the launch's last report and a done, the
 * context to run on (zex_lr_run_now()); -ESRCH no launch @r->seqno waits
 * for that tile's report.
 */
int zex_launch_report(struct zex_exec_queue *q, const struct drm_zex_launch_report *r)
{
	struct zex_launch *l = &q->lr->launch;
	bool last = false;
	int ret = 0;

	spin_lock_irq(&q->lr->lock);
	if (l->seqno && l->seqno == r->seqno && (l->pending & BIT(r->tile))) {
		if (r->status == DRM_ZEX_LAUNCH_DONE) {
			l->pending &= ~BIT(r->tile);
			last = !l->pending;
		}
	} else {
		ret = -ESRCH;
	}
	spin_unlock_irq(&q->lr->lock);
	if (ret)
		return ret;
	if (r->status == DRM_ZEX_LAUNCH_FAULT) {
		struct zex_fault fault = {
			.addr = r->fault_addr,
			.reason = r->fault_reason,
			.flags = r->fault_flags,
		};

		/* The ban kicks the context, which stops the launch. */
		zex_exec_queue_ban(q, -EFAULT, &fault);
	}
	return last;
}
