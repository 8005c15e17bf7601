/* SPDX-License-Identifier: MIT */
/*
 * Copyright © 2026 The zex authors
 */

/*
 * DOC: zex/zex_exec.h - libzex's core API: execution
 *
 * Exec queues, jobs, user fence waits and sync objects, as the "exec
 * queues" section of <drm/zex_drm.h> defines them; commands and syncs are
 * the kernel's own structs. Long-running queues and the compute side's
 * half of a launch (wait for it to be published, report it) as its "long-
 * running exec queues and launches" section defines them. Buffer objects run at the device addresses
 * they are bound to (zex_bo_bind()); imported host memory at its own
 * address. Functions return 0 or a negative errno, and are thread-safe.
 */

#ifndef ZEX_ZEX_EXEC_H
#define ZEX_ZEX_EXEC_H

#include <drm/zex_drm.h>

#include "zex/zex.h"

#ifdef __cplusplus
extern "C" {
#endif

ZEX_PUBLIC int zex_bo_bind(struct zex_device *dev, uint32_t handle, uint64_t va,
			   bool read_only, uint32_t *id);
ZEX_PUBLIC int zex_bo_bind_range(struct zex_device *dev, uint32_t handle, uint64_t va,
				 uint64_t offset, uint64_t range, bool read_only, uint32_t *id);
ZEX_PUBLIC int zex_bo_unbind(struct zex_device *dev, uint32_t id);

ZEX_PUBLIC int zex_exec_queue_create(struct zex_device *dev, uint16_t engine_class,
				     uint16_t engine_instance, uint16_t device, uint32_t *id);
ZEX_PUBLIC int zex_exec_queue_create_priority(struct zex_device *dev, uint16_t engine_class,
					      uint16_t engine_instance, uint16_t device,
					      uint16_t priority, uint32_t *id);
ZEX_PUBLIC int zex_exec_queue_create_lr(struct zex_device *dev, uint16_t engine_instance,
					uint16_t device, uint32_t *id);
ZEX_PUBLIC int zex_exec_queue_destroy(struct zex_device *dev, uint32_t id);
ZEX_PUBLIC int zex_exec_queue_state(struct zex_device *dev, uint32_t id,
				    struct drm_zex_exec_queue_get_state *state);
ZEX_PUBLIC int zex_exec(struct zex_device *dev, uint32_t queue,
			const struct drm_zex_command *commands, uint32_t num_commands,
			const struct drm_zex_sync *syncs, uint32_t num_syncs);
ZEX_PUBLIC int zex_wait_user_fence(struct zex_device *dev, const uint64_t *addr, uint16_t op,
				   uint64_t value, uint64_t mask, int64_t timeout_ns);

ZEX_PUBLIC int zex_wait_user_fence_queue(struct zex_device *dev, uint32_t queue,
					 const uint64_t *addr, uint64_t value, int64_t timeout_ns);
ZEX_PUBLIC int zex_launch_wait(struct zex_device *dev, uint32_t queue,
			       const struct drm_zex_launch_record *record, uint64_t seqno,
			       int64_t timeout_ns);
ZEX_PUBLIC int zex_launch_report(struct zex_device *dev, uint32_t queue, uint32_t tile,
				 uint64_t seqno);
ZEX_PUBLIC int zex_launch_report_fault(struct zex_device *dev, uint32_t queue, uint32_t tile,
				       uint64_t seqno, uint64_t addr, uint32_t reason,
				       bool write);

ZEX_PUBLIC int zex_syncobj_create(struct zex_device *dev, uint32_t *handle);
ZEX_PUBLIC int zex_syncobj_destroy(struct zex_device *dev, uint32_t handle);
ZEX_PUBLIC int zex_syncobj_wait(struct zex_device *dev, uint32_t handle, uint64_t point,
				int64_t timeout_ns);
ZEX_PUBLIC int zex_syncobj_signal(struct zex_device *dev, uint32_t handle, uint64_t point);

#ifdef __cplusplus
}
#endif

#endif /* ZEX_ZEX_EXEC_H */
