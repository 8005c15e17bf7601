/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * Copyright © 2026 The zex authors
 */

/**
 * DOC: zex_compat.h - the one place where kernel versions differ
 *
 * zex is written in the idiom of the newest kernel it supports (6.12);
 * this header makes the older ones (6.1) fit that idiom, keyed on
 * LINUX_VERSION_CODE. No other file tests a kernel version.
 *
 * - vm_flags_set() and vm_flags_clear() (6.3): the VMA's flags are no
 *   longer written directly.
 * - eventfd_signal() takes no count (6.8).
 * - A platform driver's remove callback returns void, as .remove (6.11;
 *   before, .remove_new): zex_platform_remove names the field.
 * - A DRM file's pid is RCU-protected (6.8): zex_drm_file_pid_nr() reads
 *   it the new way.
 * - A DRM device's file operations declare that mmap offsets are unsigned
 *   (FOP_UNSIGNED_OFFSET in .fop_flags, 6.12; drm_open() marked the file
 *   itself before): ZEX_FOP_UNSIGNED_OFFSET is that initializer, or
 *   nothing.
 * - The shmem helpers (6.6) take the object's reservation lock themselves
 *   and no longer export drm_gem_shmem_get_pages(): pages are held with
 *   drm_gem_shmem_pin()/drm_gem_shmem_unpin() on every kernel, and
 *   zex_shmem_pin_again() takes one more hold on pages already held
 *   (a VMA copied by fork() or split), which cannot fail.
 * - The DRM GPU scheduler (both lines take &struct drm_sched_init_args):
 *   6.12 has run-queues per priority (num_rqs), runs on a workqueue the
 *   driver may give (submit_wq), and has jobs with credits and a client id
 *   in drm_sched_job_init(); 6.1 has none of them (its scheduler is a
 *   thread).
 *   zex_drm_sched_init_args() and zex_drm_sched_job_init() fill the
 *   difference in. The priorities are numbered the other way round, and
 *   the lowest is LOW on 6.12, MIN on 6.1 (ZEX_SCHED_PRIORITY_LOW).
 * - fdinfo (6.5): drm_show_fdinfo() prints the DRM core's keys and calls
 *   &drm_driver.show_fdinfo; drm_print_memory_stats() prints a region's
 *   memory keys. On 6.1 zex's own show_fdinfo prints the core's keys
 *   (with its own client id) and zex_print_memory_stats() the same lines
 *   drm_print_memory_stats() does; ZEX_FOP_SHOW_FDINFO and
 *   ZEX_DRIVER_SHOW_FDINFO are the initializers of each line, naming
 *   usage/'s functions (zex_usage.h).
 */

#ifndef _ZEX_COMPAT_H_
#define _ZEX_COMPAT_H_

#include <linux/eventfd.h>
#include <linux/mm.h>
#include <linux/pid.h>
#include <linux/rcupdate.h>
#include <linux/sizes.h>
#include <linux/version.h>

#include <drm/drm_file.h>
#include <drm/drm_gem.h>
#include <drm/drm_gem_shmem_helper.h>
#include <drm/drm_print.h>
#include <drm/gpu_scheduler.h>

#if KERNEL_VERSION(6, 3, 0) > LINUX_VERSION_CODE
static inline void vm_flags_set(struct vm_area_struct *vma, vm_flags_t flags)
{
	vma->vm_flags |= flags;
}

static inline void vm_flags_clear(struct vm_area_struct *vma, vm_flags_t flags)
{
	vma->vm_flags &= ~flags;
}
#endif

#if KERNEL_VERSION(6, 8, 0) > LINUX_VERSION_CODE
/* The old function of the same name, with the count every caller used. */
#define eventfd_signal(ctx) eventfd_signal(ctx, 1)
#endif

#if KERNEL_VERSION(6, 11, 0) > LINUX_VERSION_CODE
#define zex_platform_remove remove_new
#else
#define zex_platform_remove remove
#endif

#if KERNEL_VERSION(6, 12, 0) > LINUX_VERSION_CODE
#define ZEX_FOP_UNSIGNED_OFFSET
#else
#define ZEX_FOP_UNSIGNED_OFFSET .fop_flags = FOP_UNSIGNED_OFFSET,
#endif

/* Symbol namespaces are named by strings from 6.13 on. */
#if KERNEL_VERSION(6, 13, 0) > LINUX_VERSION_CODE
#define ZEX_KUNIT_NAMESPACE EXPORTED_FOR_KUNIT_TESTING
#else
#define ZEX_KUNIT_NAMESPACE "EXPORTED_FOR_KUNIT_TESTING"
#endif

/** zex_drm_file_pid_nr - the pid number of the process that opened @file */
static inline pid_t zex_drm_file_pid_nr(struct drm_file *file)
{
#if KERNEL_VERSION(6, 8, 0) > LINUX_VERSION_CODE
	return pid_nr(file->pid);
#else
	pid_t nr;

	rcu_read_lock();
	nr = pid_nr(rcu_dereference(file->pid));
	rcu_read_unlock();
	return nr;
#endif
}

/**
 * zex_shmem_pin_again - one more hold on pages already pinned
 * @shmem: an object whose pages the caller's mapping holds pinned.
 *
 * For a VMA's open callback, which cannot fail: the pages are there, so
 * this only counts.
 */
static inline void zex_shmem_pin_again(struct drm_gem_shmem_object *shmem)
{
#if KERNEL_VERSION(6, 6, 0) > LINUX_VERSION_CODE
	WARN_ON_ONCE(drm_gem_shmem_get_pages(shmem));
#else
	dma_resv_lock(shmem->base.resv, NULL);
	WARN_ON_ONCE(drm_gem_shmem_pin_locked(shmem));
	dma_resv_unlock(shmem->base.resv);
#endif
}

/**
 * zex_drm_sched_init_args - what drm_sched_init() needs on this kernel only
 * @args: the arguments.
 * @submit_wq: where the scheduler's own work should run, on kernels whose
 *	scheduler is a workqueue (on 6.1 it is a thread of its own).
 */
static inline void zex_drm_sched_init_args(struct drm_sched_init_args *args,
					   struct workqueue_struct *submit_wq)
{
#if KERNEL_VERSION(6, 8, 0) <= LINUX_VERSION_CODE
	args->num_rqs = DRM_SCHED_PRIORITY_COUNT;
	args->submit_wq = submit_wq;
#endif
}

/*
 * The scheduler's lowest priority for jobs: 6.12 names it LOW (and counts
 * priorities down from KERNEL), 6.1 MIN (counting up).
 */
#if KERNEL_VERSION(6, 8, 0) <= LINUX_VERSION_CODE
#define ZEX_SCHED_PRIORITY_LOW	DRM_SCHED_PRIORITY_LOW
#else
#define ZEX_SCHED_PRIORITY_LOW	DRM_SCHED_PRIORITY_MIN
#endif

/** zex_drm_sched_job_init - drm_sched_job_init() for a job of one credit */
static inline int zex_drm_sched_job_init(struct drm_sched_job *job,
					 struct drm_sched_entity *entity, void *owner)
{
#if KERNEL_VERSION(6, 8, 0) > LINUX_VERSION_CODE
	return drm_sched_job_init(job, entity, owner);
#else
	return drm_sched_job_init(job, entity, 1, owner, 0);
#endif
}

/*
 * fdinfo: 6.5 added drm_show_fdinfo(), which prints the DRM core's keys
 * (drm-driver, drm-client-id) and then calls &drm_driver.show_fdinfo, and
 * drm_print_memory_stats(). On 6.1 zex's file operations print the core's
 * keys themselves (zex_fdinfo.c), with an id of zex's own
 * (zex_drm_file_client_id() is 0 there), and the memory keys the same way.
 */
#if KERNEL_VERSION(6, 5, 0) > LINUX_VERSION_CODE
#define ZEX_FOP_SHOW_FDINFO	.show_fdinfo = zex_usage_show_fdinfo_fop,
#define ZEX_DRIVER_SHOW_FDINFO

/* As 6.5's: the sizes of one memory region's buffers, in bytes. */
struct drm_memory_stats {
	u64 shared;
	u64 private;
	u64 resident;
	u64 purgeable;
	u64 active;
};

static inline void zex_print_size(struct drm_printer *p, const char *stat, const char *region,
				  u64 size)
{
	static const char * const units[] = { "", " KiB", " MiB" };
	unsigned int u;

	for (u = 0; u < ARRAY_SIZE(units) - 1 && size && IS_ALIGNED(size, SZ_1K); u++)
		size /= SZ_1K;
	drm_printf(p, "drm-%s-%s:\t%llu%s\n", stat, region, size, units[u]);
}
#endif

/** zex_print_memory_stats - one region's drm-total/shared/active/resident keys */
static inline void zex_print_memory_stats(struct drm_printer *p,
					  const struct drm_memory_stats *stats,
					  const char *region)
{
#if KERNEL_VERSION(6, 5, 0) > LINUX_VERSION_CODE
	zex_print_size(p, "total", region, stats->private + stats->shared);
	zex_print_size(p, "shared", region, stats->shared);
	zex_print_size(p, "active", region, stats->active);
	zex_print_size(p, "resident", region, stats->resident);
#else
	drm_print_memory_stats(p, stats, DRM_GEM_OBJECT_RESIDENT, region);
#endif
}

/** zex_drm_file_client_id - the DRM core's drm-client-id of @file, or 0 */
static inline u64 zex_drm_file_client_id(struct drm_file *file)
{
#if KERNEL_VERSION(6, 5, 0) > LINUX_VERSION_CODE
	return 0;
#else
	return file->client_id;
#endif
}

#if KERNEL_VERSION(6, 5, 0) <= LINUX_VERSION_CODE
#define ZEX_FOP_SHOW_FDINFO	.show_fdinfo = drm_show_fdinfo,
#define ZEX_DRIVER_SHOW_FDINFO	.show_fdinfo = zex_usage_show_fdinfo,
#endif

#endif /* _ZEX_COMPAT_H_ */
