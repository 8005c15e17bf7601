/* SPDX-License-Identifier: MIT */
/*
 * DOC: zex_drm_abi.h - the uapi layout, pinned
 *
 * Included by a C and a C++ translation unit that include nothing but
 * <drm/zex_drm.h> first: both must compile with -Wall -Wextra -Werror and
 * agree on every size and offset below. A change here is an ABI break.
 */
#define ZEX_ABI_SIZE(t, n)	static_assert(sizeof(struct t) == (n), #t " size")
#define ZEX_ABI_OFF(t, f, n)	static_assert(offsetof(struct t, f) == (n), #t "." #f)

ZEX_ABI_SIZE(drm_zex_query, 48);
ZEX_ABI_OFF(drm_zex_query, query, 8);
ZEX_ABI_OFF(drm_zex_query, size, 12);
ZEX_ABI_OFF(drm_zex_query, data, 16);
ZEX_ABI_OFF(drm_zex_query, flags, 24);
ZEX_ABI_OFF(drm_zex_query, reserved, 32);
ZEX_ABI_SIZE(drm_zex_query_device, 64);
ZEX_ABI_OFF(drm_zex_query_device, multi_storage_granularity, 16);
ZEX_ABI_OFF(drm_zex_query_device, total_mem_size, 24);
ZEX_ABI_SIZE(drm_zex_tile_info, 48);
ZEX_ABI_OFF(drm_zex_tile_info, mem_size, 8);
ZEX_ABI_OFF(drm_zex_tile_info, num_bos, 24);
ZEX_ABI_SIZE(drm_zex_query_tiles, 8);
ZEX_ABI_SIZE(drm_zex_engine_info, 16);
ZEX_ABI_SIZE(drm_zex_query_engines, 8);
ZEX_ABI_SIZE(drm_zex_bo_create, 56);
ZEX_ABI_OFF(drm_zex_bo_create, size, 8);
ZEX_ABI_OFF(drm_zex_bo_create, placement, 16);
ZEX_ABI_OFF(drm_zex_bo_create, multi_storage_policy, 24);
ZEX_ABI_OFF(drm_zex_bo_create, handle, 32);
ZEX_ABI_OFF(drm_zex_bo_create, reserved, 40);
ZEX_ABI_SIZE(drm_zex_piece_info, 24);
ZEX_ABI_SIZE(drm_zex_bo_info, 56);
ZEX_ABI_OFF(drm_zex_bo_info, pieces, 16);
ZEX_ABI_OFF(drm_zex_bo_info, granularity, 32);
ZEX_ABI_SIZE(drm_zex_bo_export, 40);
ZEX_ABI_OFF(drm_zex_bo_export, fds, 16);
ZEX_ABI_SIZE(drm_zex_bo_import, 56);
ZEX_ABI_OFF(drm_zex_bo_import, granularity, 16);
ZEX_ABI_OFF(drm_zex_bo_import, handle, 24);
ZEX_ABI_OFF(drm_zex_bo_import, size, 32);
ZEX_ABI_SIZE(drm_zex_bo_mmap_offset, 32);
ZEX_ABI_OFF(drm_zex_bo_mmap_offset, offset, 8);
ZEX_ABI_SIZE(drm_zex_user_extension, 16);
ZEX_ABI_SIZE(drm_zex_exec_queue_create, 40);
ZEX_ABI_OFF(drm_zex_exec_queue_create, engine_class, 8);
ZEX_ABI_OFF(drm_zex_exec_queue_create, priority, 14);
ZEX_ABI_OFF(drm_zex_exec_queue_create, flags, 16);
ZEX_ABI_OFF(drm_zex_exec_queue_create, exec_queue_id, 20);
ZEX_ABI_SIZE(drm_zex_exec_queue_destroy, 32);
ZEX_ABI_SIZE(drm_zex_exec_queue_get_state, 64);
ZEX_ABI_OFF(drm_zex_exec_queue_get_state, fault_addr, 32);
ZEX_ABI_OFF(drm_zex_exec_queue_get_state, jobs_completed, 40);
ZEX_ABI_SIZE(drm_zex_command, 64);
ZEX_ABI_OFF(drm_zex_command, dst, 8);
ZEX_ABI_OFF(drm_zex_command, pattern, 48);
ZEX_ABI_SIZE(drm_zex_sync, 56);
ZEX_ABI_OFF(drm_zex_sync, addr, 24);
ZEX_ABI_OFF(drm_zex_sync, timeline_value, 32);
ZEX_ABI_SIZE(drm_zex_exec, 56);
ZEX_ABI_OFF(drm_zex_exec, commands, 16);
ZEX_ABI_OFF(drm_zex_exec, syncs, 32);
ZEX_ABI_SIZE(drm_zex_wait_user_fence, 72);
ZEX_ABI_OFF(drm_zex_wait_user_fence, value, 24);
ZEX_ABI_OFF(drm_zex_wait_user_fence, timeout, 40);
ZEX_ABI_OFF(drm_zex_query_device, timestamp_frequency, 32);
ZEX_ABI_OFF(drm_zex_query_device, job_timeout_ms, 40);
ZEX_ABI_OFF(drm_zex_query_device, max_lr_exec_queues, 52);
ZEX_ABI_OFF(drm_zex_exec_queue_get_state, fault_flags, 28);
ZEX_ABI_SIZE(drm_zex_launch_record, 24);
ZEX_ABI_OFF(drm_zex_launch_record, cookie, 8);
ZEX_ABI_OFF(drm_zex_launch_record, tile_mask, 16);
ZEX_ABI_OFF(drm_zex_launch_record, state, 20);
ZEX_ABI_SIZE(drm_zex_launch_report, 64);
ZEX_ABI_OFF(drm_zex_launch_report, seqno, 16);
ZEX_ABI_OFF(drm_zex_launch_report, fault_addr, 32);
ZEX_ABI_OFF(drm_zex_launch_report, fault_flags, 40);
ZEX_ABI_OFF(drm_zex_launch_report, reserved, 48);
static_assert(DRM_IOCTL_ZEX_EXEC_QUEUE_CREATE ==
	      DRM_IOWR(0x4b, struct drm_zex_exec_queue_create), "queue create nr");
static_assert(DRM_IOCTL_ZEX_EXEC == DRM_IOW(0x4e, struct drm_zex_exec), "exec nr");
static_assert(DRM_IOCTL_ZEX_WAIT_USER_FENCE ==
	      DRM_IOWR(0x4f, struct drm_zex_wait_user_fence), "wait nr");
static_assert(DRM_IOCTL_ZEX_LAUNCH_REPORT ==
	      DRM_IOW(0x50, struct drm_zex_launch_report), "launch report nr");
static_assert(DRM_ZEX_CMD_LAUNCH == 5, "launch op");
static_assert(DRM_ZEX_FAULT_KERNEL_ABORTED == 4, "kernel aborted");
static_assert(DRM_ZEX_EXEC_QUEUE_LONG_RUNNING == 1 && DRM_ZEX_LAUNCH_STOP == 1 &&
	      DRM_ZEX_FAULT_WRITE == 1 && DRM_ZEX_LAUNCH_FAULT == 1, "launch values");
static_assert(DRM_IOCTL_ZEX_QUERY == DRM_IOWR(0x40, struct drm_zex_query), "query nr");
static_assert(DRM_IOCTL_ZEX_BO_CREATE == DRM_IOWR(0x41, struct drm_zex_bo_create), "create nr");
static_assert(DRM_IOCTL_ZEX_BO_MMAP_OFFSET == DRM_IOWR(0x42, struct drm_zex_bo_mmap_offset),
	      "mmap nr");
static_assert(DRM_IOCTL_ZEX_BO_INFO == DRM_IOWR(0x43, struct drm_zex_bo_info), "info nr");
static_assert(DRM_IOCTL_ZEX_BO_EXPORT == DRM_IOWR(0x44, struct drm_zex_bo_export), "export nr");
static_assert(DRM_IOCTL_ZEX_BO_IMPORT == DRM_IOWR(0x45, struct drm_zex_bo_import), "import nr");
ZEX_ABI_SIZE(drm_zex_userptr_import, 40);
ZEX_ABI_OFF(drm_zex_userptr_import, flags, 16);
ZEX_ABI_OFF(drm_zex_userptr_import, id, 20);
ZEX_ABI_SIZE(drm_zex_vm_unbind, 16);
ZEX_ABI_SIZE(drm_zex_copy, 56);
ZEX_ABI_OFF(drm_zex_copy, flags, 24);
ZEX_ABI_OFF(drm_zex_copy, fault_reason, 28);
ZEX_ABI_OFF(drm_zex_copy, fault_addr, 32);
static_assert(DRM_IOCTL_ZEX_USERPTR_IMPORT ==
	      DRM_IOWR(0x46, struct drm_zex_userptr_import), "userptr nr");
static_assert(DRM_IOCTL_ZEX_VM_UNBIND ==
	      DRM_IOW(0x47, struct drm_zex_vm_unbind), "release nr");
static_assert(DRM_IOCTL_ZEX_COPY == DRM_IOWR(0x48, struct drm_zex_copy), "copy nr");
ZEX_ABI_SIZE(drm_zex_vm_bind, 40);
ZEX_ABI_OFF(drm_zex_vm_bind, va, 8);
ZEX_ABI_OFF(drm_zex_vm_bind, id, 16);
ZEX_ABI_OFF(drm_zex_vm_bind, offset, 24);
ZEX_ABI_OFF(drm_zex_vm_bind, range, 32);
static_assert(DRM_IOCTL_ZEX_VM_BIND == DRM_IOWR(0x49, struct drm_zex_vm_bind), "bind nr");
ZEX_ABI_SIZE(drm_zex_hostrpc_control, 20480);
ZEX_ABI_OFF(drm_zex_hostrpc_control, nslots, 8);
ZEX_ABI_OFF(drm_zex_hostrpc_control, map_size, 16);
ZEX_ABI_OFF(drm_zex_hostrpc_control, host_armed, 64);
ZEX_ABI_OFF(drm_zex_hostrpc_control, device_armed, 128);
ZEX_ABI_OFF(drm_zex_hostrpc_control, dead, 192);
ZEX_ABI_OFF(drm_zex_hostrpc_control, summary, 256);
ZEX_ABI_OFF(drm_zex_hostrpc_control, request, 4096);
ZEX_ABI_OFF(drm_zex_hostrpc_control, answer, 12288);
ZEX_ABI_SIZE(drm_zex_hostrpc_private, 16384);
ZEX_ABI_OFF(drm_zex_hostrpc_private, owner, 0);
ZEX_ABI_OFF(drm_zex_hostrpc_private, mirror, 8192);
static_assert(sizeof(struct drm_zex_hostrpc_control) == DRM_ZEX_HOSTRPC_CONTROL_SIZE, "control");
static_assert(DRM_ZEX_HOSTRPC_CONTROL_OFFSET + DRM_ZEX_HOSTRPC_CONTROL_SIZE ==
	      DRM_ZEX_HOSTRPC_PRIVATE_OFFSET, "private follows control");
static_assert(sizeof(struct drm_zex_hostrpc_private) == DRM_ZEX_HOSTRPC_PRIVATE_SIZE, "private");
static_assert(DRM_ZEX_HOSTRPC_PRIVATE_OFFSET + DRM_ZEX_HOSTRPC_PRIVATE_SIZE ==
	      DRM_ZEX_HOSTRPC_SLOTS_OFFSET, "slots follow private");
static_assert(DRM_ZEX_HOSTRPC_MAP_SIZE(2048) == 36864 + 2048 * 4096, "map size");
ZEX_ABI_SIZE(drm_zex_hostrpc_create, 40);
ZEX_ABI_OFF(drm_zex_hostrpc_create, fd, 8);
ZEX_ABI_OFF(drm_zex_hostrpc_create, map_size, 16);
ZEX_ABI_OFF(drm_zex_hostrpc_create, reserved, 24);
ZEX_ABI_SIZE(drm_zex_hostrpc_open_view, 24);
ZEX_ABI_OFF(drm_zex_hostrpc_open_view, fd, 8);
ZEX_ABI_SIZE(drm_zex_hostrpc_info, 56);
ZEX_ABI_OFF(drm_zex_hostrpc_info, map_size, 16);
ZEX_ABI_OFF(drm_zex_hostrpc_info, host_rings, 24);
ZEX_ABI_OFF(drm_zex_hostrpc_info, orphans, 48);
ZEX_ABI_SIZE(drm_zex_hostrpc_wait, 24);
ZEX_ABI_OFF(drm_zex_hostrpc_wait, timeout_ns, 16);
ZEX_ABI_SIZE(drm_zex_hostrpc_eventfd, 16);
static_assert(DRM_IOCTL_ZEX_HOSTRPC_CREATE ==
	      DRM_IOWR(0x4a, struct drm_zex_hostrpc_create), "hostrpc create nr");
static_assert(DRM_ZEX_HOSTRPC_IOCTL_RING == _IO('Z', 0x42), "ring nr");
static_assert(DRM_ZEX_HOSTRPC_IOCTL_WAIT == _IOW('Z', 0x43, struct drm_zex_hostrpc_wait),
	      "wait nr");
