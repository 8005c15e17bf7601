/* SPDX-License-Identifier: MIT */
/*
 * Copyright © 2026 The zex authors
 */

/*
 * DOC: l0_exec.h - what the execution family's files share
 *
 * Submission (l0_submit.c): a queue's commands become kernel jobs on its
 * exec queue, each signalling the next point of the queue's timeline;
 * host memory the device does not map yet is imported for the jobs that
 * reach it and released once they have run. Recording (l0_cmdlist.c)
 * appends the kernel's commands to a list.
 */

#ifndef ZEX_L0_EXEC_H
#define ZEX_L0_EXEC_H

#include "l0/base/l0.h"

/* A Level Zero timeout in ns as the core takes it: negative for ever. */
static inline int64_t zex_l0_timeout_ns(uint64_t timeout)
{
	return timeout > INT64_MAX ? -1 : (int64_t)timeout;
}

ze_result_t zex_l0_check_queue_desc(const ze_command_queue_desc_t *desc);
ze_result_t zex_l0_queue_init(struct zex_l0_cmdqueue *q, struct zex_l0_driver *drv,
			      struct zex_l0_device *device, const ze_command_queue_desc_t *desc);
void zex_l0_queue_fini(struct zex_l0_cmdqueue *q);
ze_result_t zex_l0_submit_locked(struct zex_l0_cmdqueue *q, const struct drm_zex_command *cmds,
				 uint32_t num_cmds);
ze_result_t zex_l0_queue_wait(struct zex_l0_cmdqueue *q, uint64_t point, uint64_t timeout);

int zex_l0_event_pool_new(struct zex_l0_driver *drv, uint32_t handle, uint64_t size,
			  ze_event_pool_flags_t flags, uint32_t count, bool opened,
			  ze_event_pool_handle_t *out);

#endif /* ZEX_L0_EXEC_H */
