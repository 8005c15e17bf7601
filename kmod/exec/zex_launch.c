// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Copyright © 2026 The zex authors
 */

/**
 * DOC: zex_launch.c - launches: handing work to the compute side and waiting for it
 *
 * A %DRM_ZEX_CMD_LAUNCH on a long-running queue's context publishes a
 * launch: it takes the queue's next number, notes which tiles must report
 * (the ring's: one, or every tile for the root device's engine), writes
 * the &struct drm_zex_launch_record at the command's address, the number
 * last, and wakes user fence waits; the job then stops (-EINPROGRESS).
 * DRM_IOCTL_ZEX_LAUNCH_REPORT takes one tile's report: a done clears the
 * tile, and the last kicks the context, whose job goes on past the command;
 * a fault bans the queue with -EFAULT and the report's fault at once,
 * which kicks the context too. A launch the context finds stopped (the
 * queue banned before every tile reported) gets %DRM_ZEX_LAUNCH_STOP in
 * its record's state, written even though the queue is banned, and waits
 * wake to read it. A queue has at most one launch published: its jobs
 * run in order and a launch is the whole of its job's progress.
 */

#include <linux/memcontrol.h>
#include <linux/sched/mm.h>
#include <linux/stddef.h>

#include <drm/drm_device.h>
#include <drm/drm_file.h>
#include <drm/drm_print.h>

#include "../device/zex_device.h"
#include "../vm/zex_vm.h"
#include "zex_command.h"
#include "zex_exec.h"

/**
 * zex_launch_step - a LAUNCH command reached, or its context kicked
 * @job: the job, on a long-running queue's context.
 * @cmd: the command.
 *
 * Return: 0 when every tile reported the launch done; -EINPROGRESS while
 * the launch waits (published now, or before); -EFAULT the record could
 * not be written (the queue banned with the fault); -ECANCELED.
 */
int zex_launch_step(struct zex_job *job, const struct drm_zex_command *cmd)
{
	struct zex_exec_queue *q = job->queue;
	struct zex_lr *lr = q->lr;
	struct drm_zex_launch_record rec = {
		.cookie = cmd->value,
		.tile_mask = q->ring->tile_mask,
	};
	bool done;
	int ret;

	spin_lock_irq(&lr->lock);
	if (lr->launch.seqno) {
		done = !lr->launch.pending;
		if (done)
			lr->launch.seqno = 0;
		spin_unlock_irq(&lr->lock);
		return done ? 0 : -EINPROGRESS;
	}
	rec.seqno = ++lr->last_seqno;
	lr->launch = (struct zex_launch){
		.seqno = rec.seqno,
		.record = cmd->dst,
		.tile_mask = rec.tile_mask,
		.pending = rec.tile_mask,
	};
	spin_unlock_irq(&lr->lock);

	/* The number last: whoever sees it reads the rest as written for it. */
	ret = zex_job_write(job, cmd->dst + offsetof(typeof(rec), cookie), &rec.cookie,
			    sizeof(rec) - offsetof(typeof(rec), cookie));
	if (!ret) {
		smp_wmb(); /* the record before its number */
		ret = zex_job_write(job, cmd->dst, &rec.seqno, sizeof(rec.seqno));
	}
	if (ret) {
		spin_lock_irq(&lr->lock);
		lr->launch.seqno = 0;
		spin_unlock_irq(&lr->lock);
		return ret;
	}
	zex_exec_signal_done(q->ring->xdev);
	return -EINPROGRESS;
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
	zex_exec_signal_done(q->ring->xdev);
}

int zex_launch_report_ioctl(struct drm_device *drm, void *data, struct drm_file *file)
{
	struct drm_zex_launch_report *args = data;
	struct zex_exec_queue *q;
	struct zex_launch *l;
	bool last = false;
	const char *why;
	int ret;

	ret = zex_launch_report_check(args, &why);
	if (ret) {
		drm_dbg(drm, "launch report check failed: %s\n", why);
		return ret;
	}
	q = zex_exec_queue_lookup(to_zex_file(file)->exec, args->exec_queue_id);
	if (zex_ioctl_check(drm, !q))
		return -ENOENT;
	if (zex_ioctl_check(drm, !q->lr)) {
		ret = -EOPNOTSUPP;
		goto out;
	}
	if (zex_ioctl_check(drm, zex_exec_queue_is_banned(q))) {
		ret = -EIO;
		goto out;
	}
	spin_lock_irq(&q->lr->lock);
	l = &q->lr->launch;
	if (l->seqno && l->seqno == args->seqno && (l->pending & BIT(args->tile))) {
		if (args->status == DRM_ZEX_LAUNCH_DONE) {
			l->pending &= ~BIT(args->tile);
			last = !l->pending;
		}
	} else {
		ret = -ESRCH;
	}
	spin_unlock_irq(&q->lr->lock);
	if (zex_ioctl_check(drm, ret))
		goto out;
	if (args->status == DRM_ZEX_LAUNCH_FAULT) {
		struct zex_fault fault = {
			.addr = args->fault_addr,
			.reason = args->fault_reason,
			.flags = args->fault_flags,
		};

		/* The ban kicks the context, which stops the launch. */
		zex_exec_queue_ban(q, -EFAULT, &fault);
	} else if (last) {
		zex_lr_kick(q->lr);
	}
out:
	zex_exec_queue_put(q);
	return ret;
}
