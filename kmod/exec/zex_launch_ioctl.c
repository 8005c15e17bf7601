// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Copyright © 2026 The zex authors
 */

/**
 * DOC: zex_launch_ioctl.c - DRM_IOCTL_ZEX_LAUNCH_REPORT
 *
 * The compute side's report of one tile's part of a launch: every field
 * checked first (zex_launch_report_check()), then the file's queue looked
 * up (-ENOENT), which must be long-running (-EOPNOTSUPP) and not banned
 * (-EIO); the launch takes it or refuses it (zex_launch_report(): -ESRCH).
 * After a launch's last done, the call runs the job on as far as it goes
 * without a copy, a fill or a wait (zex_lr_run_now()): the end of a job
 * whose launch was its last command reaches its waiters from here.
 */

#include <drm/drm_device.h>
#include <drm/drm_file.h>
#include <drm/drm_print.h>

#include "../device/zex_device.h"
#include "zex_command.h"
#include "zex_exec.h"

int zex_launch_report_ioctl(struct drm_device *drm, void *data, struct drm_file *file)
{
	struct drm_zex_launch_report *args = data;
	struct zex_exec_queue *q;
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
	if (zex_ioctl_check(drm, !q->lr))
		ret = -EOPNOTSUPP;
	else if (zex_ioctl_check(drm, zex_exec_queue_is_banned(q)))
		ret = -EIO;
	else
		ret = zex_launch_report(q, args);
	/* The last done: the job goes on, its quick steps in this call. */
	if (ret > 0) {
		zex_lr_run_now(q->lr, true);
		ret = 0;
	}
	if (ret == -ESRCH)
		drm_dbg(drm, "launch report: no launch %llu of queue %u waits for tile %u\n",
			args->seqno, args->exec_queue_id, args->tile);
	zex_exec_queue_put(q);
	return ret;
}
