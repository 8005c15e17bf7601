/* SPDX-License-Identifier: MIT */
/*
 * Copyright © 2026 The zex authors
 */

/**
 * DOC: zex uapi
 *
 * The ioctl ABI of zex, an emulated multi-tile GPU driver. This header is
 * self-contained: it compiles on its own as C and as C++ and needs nothing
 * but the kernel's <drm/drm.h> (or libdrm's copy of it).
 *
 * Rules every structure follows:
 *
 * - fields are fixed-width (__u16, __u32, __u64) and naturally aligned, so
 *   32-bit and 64-bit userspace see the same layout;
 * - pointers to user memory are __u64 (cast through uintptr_t);
 * - @pad and @reserved fields must be zero on input, unknown @flags bits are
 *   rejected and every @extensions field must be zero until an extension is
 *   defined for it; the kernel answers -EINVAL otherwise and logs the failed
 *   check with drm_dbg;
 * - ioctl numbers are compact and never reused.
 *
 * Errors common to all zex ioctls:
 *
 * - -EINVAL: a flag, pad, reserved or extensions field is not valid;
 * - -EFAULT: a user pointer could not be read or written;
 * - -ENODEV: the device was unplugged (unbound, or one of its tiles lost)
 *   while this file was open.
 */

#ifndef _UAPI_ZEX_DRM_H_
#define _UAPI_ZEX_DRM_H_

#include "drm.h"

#if defined(__cplusplus)
extern "C" {
#endif

#define DRM_ZEX_QUERY			0x00
#define DRM_ZEX_BO_CREATE		0x01
#define DRM_ZEX_BO_MMAP_OFFSET		0x02
#define DRM_ZEX_BO_INFO			0x03
#define DRM_ZEX_BO_EXPORT		0x04
#define DRM_ZEX_BO_IMPORT		0x05
#define DRM_ZEX_USERPTR_IMPORT		0x06
#define DRM_ZEX_VM_UNBIND		0x07
#define DRM_ZEX_COPY			0x08
#define DRM_ZEX_VM_BIND			0x09
#define DRM_ZEX_HOSTRPC_CREATE		0x0a
#define DRM_ZEX_EXEC_QUEUE_CREATE	0x0b
#define DRM_ZEX_EXEC_QUEUE_DESTROY	0x0c
#define DRM_ZEX_EXEC_QUEUE_GET_STATE	0x0d
#define DRM_ZEX_EXEC			0x0e
#define DRM_ZEX_WAIT_USER_FENCE		0x0f
#define DRM_ZEX_LAUNCH_REPORT		0x10

#define DRM_IOCTL_ZEX_QUERY \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_ZEX_QUERY, struct drm_zex_query)
#define DRM_IOCTL_ZEX_BO_CREATE \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_ZEX_BO_CREATE, struct drm_zex_bo_create)
#define DRM_IOCTL_ZEX_BO_MMAP_OFFSET \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_ZEX_BO_MMAP_OFFSET, struct drm_zex_bo_mmap_offset)
#define DRM_IOCTL_ZEX_BO_INFO \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_ZEX_BO_INFO, struct drm_zex_bo_info)
#define DRM_IOCTL_ZEX_BO_EXPORT \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_ZEX_BO_EXPORT, struct drm_zex_bo_export)
#define DRM_IOCTL_ZEX_BO_IMPORT \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_ZEX_BO_IMPORT, struct drm_zex_bo_import)
#define DRM_IOCTL_ZEX_USERPTR_IMPORT \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_ZEX_USERPTR_IMPORT, struct drm_zex_userptr_import)
#define DRM_IOCTL_ZEX_VM_UNBIND \
	DRM_IOW(DRM_COMMAND_BASE + DRM_ZEX_VM_UNBIND, struct drm_zex_vm_unbind)
#define DRM_IOCTL_ZEX_COPY \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_ZEX_COPY, struct drm_zex_copy)
#define DRM_IOCTL_ZEX_HOSTRPC_CREATE \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_ZEX_HOSTRPC_CREATE, struct drm_zex_hostrpc_create)
#define DRM_IOCTL_ZEX_VM_BIND \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_ZEX_VM_BIND, struct drm_zex_vm_bind)
#define DRM_IOCTL_ZEX_EXEC_QUEUE_CREATE \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_ZEX_EXEC_QUEUE_CREATE, \
		 struct drm_zex_exec_queue_create)
#define DRM_IOCTL_ZEX_EXEC_QUEUE_DESTROY \
	DRM_IOW(DRM_COMMAND_BASE + DRM_ZEX_EXEC_QUEUE_DESTROY, \
		struct drm_zex_exec_queue_destroy)
#define DRM_IOCTL_ZEX_EXEC_QUEUE_GET_STATE \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_ZEX_EXEC_QUEUE_GET_STATE, \
		 struct drm_zex_exec_queue_get_state)
#define DRM_IOCTL_ZEX_EXEC \
	DRM_IOW(DRM_COMMAND_BASE + DRM_ZEX_EXEC, struct drm_zex_exec)
#define DRM_IOCTL_ZEX_WAIT_USER_FENCE \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_ZEX_WAIT_USER_FENCE, \
		 struct drm_zex_wait_user_fence)
#define DRM_IOCTL_ZEX_LAUNCH_REPORT \
	DRM_IOW(DRM_COMMAND_BASE + DRM_ZEX_LAUNCH_REPORT, struct drm_zex_launch_report)

/** @DRM_ZEX_MAX_TILES: the most tiles one zex device can have. */
#define DRM_ZEX_MAX_TILES		8

/**
 * DRM_ZEX_DEVICE_ROOT - the root device, as opposed to one tile, in
 * &drm_zex_engine_info.device and &drm_zex_bo_create.placement.
 */
#define DRM_ZEX_DEVICE_ROOT		0xffff

/**
 * DRM_ZEX_MAX_PIECES - the most internal allocations (pieces) one buffer
 * object may have; each is exported as its own dma-buf fd.
 */
#define DRM_ZEX_MAX_PIECES		1024

/**
 * enum drm_zex_multi_storage_policy - how an allocation on the root device
 * is coloured across tiles under implicit scaling.
 *
 * @DRM_ZEX_MULTI_STORAGE_EVEN: split evenly, each piece aligned to the
 *	granularity.
 * @DRM_ZEX_MULTI_STORAGE_CHUNK: chunks of the granularity, chunk i on tile
 *	i modulo the tile count.
 * @DRM_ZEX_MULTI_STORAGE_INTERLEAVE: interleave pages of the granularity
 *	across tiles.
 */
enum drm_zex_multi_storage_policy {
	DRM_ZEX_MULTI_STORAGE_EVEN = 0,
	DRM_ZEX_MULTI_STORAGE_CHUNK = 1,
	DRM_ZEX_MULTI_STORAGE_INTERLEAVE = 2,
};

/**
 * enum drm_zex_query_id - what &drm_zex_query.query asks for.
 *
 * @DRM_ZEX_QUERY_DEVICE: &struct drm_zex_query_device.
 * @DRM_ZEX_QUERY_TILES: &struct drm_zex_query_tiles followed by one
 *	&struct drm_zex_tile_info per tile.
 * @DRM_ZEX_QUERY_ENGINES: &struct drm_zex_query_engines followed by one
 *	&struct drm_zex_engine_info per engine.
 */
enum drm_zex_query_id {
	DRM_ZEX_QUERY_DEVICE = 0,
	DRM_ZEX_QUERY_TILES = 1,
	DRM_ZEX_QUERY_ENGINES = 2,
};

/**
 * struct drm_zex_query - argument of DRM_IOCTL_ZEX_QUERY
 *
 * Two-call protocol: with @size 0 the kernel writes the size the answer
 * needs into @size and copies nothing; with @size at least that large it
 * copies the answer to @data and sets @size to the bytes written. A
 * non-zero @size that is too small fails with -ENOSPC and leaves the user
 * buffer untouched; an unknown @query fails with -EINVAL.
 */
struct drm_zex_query {
	/** @extensions: must be 0. */
	__u64 extensions;
	/** @query: one of &enum drm_zex_query_id. */
	__u32 query;
	/** @size: in: bytes at @data, or 0; out: bytes needed or written. */
	__u32 size;
	/** @data: user pointer to the answer buffer. */
	__u64 data;
	/** @flags: must be 0. */
	__u32 flags;
	/** @pad: must be 0. */
	__u32 pad;
	/** @reserved: must be 0. */
	__u64 reserved[2];
};

/**
 * DRM_ZEX_DEVICE_IMPLICIT_SCALING - &drm_zex_query_device.flags bit: the
 * root device colours allocations across tiles and exposes one compute
 * engine spanning them. Without it the root device is tile 0.
 */
#define DRM_ZEX_DEVICE_IMPLICIT_SCALING	0x1u

/**
 * struct drm_zex_query_device - answer to DRM_ZEX_QUERY_DEVICE
 */
struct drm_zex_query_device {
	/** @num_tiles: number of tiles, 1 to %DRM_ZEX_MAX_TILES. */
	__u32 num_tiles;
	/** @flags: %DRM_ZEX_DEVICE_IMPLICIT_SCALING or 0. */
	__u32 flags;
	/** @multi_storage_policy: default &enum drm_zex_multi_storage_policy. */
	__u32 multi_storage_policy;
	/** @pad: 0. */
	__u32 pad;
	/** @multi_storage_granularity: default colouring granularity in bytes. */
	__u64 multi_storage_granularity;
	/** @total_mem_size: sum of all tiles' memory in bytes. */
	__u64 total_mem_size;
	/**
	 * @timestamp_frequency: ticks per second of the device clock that
	 * %DRM_ZEX_CMD_TIMESTAMP writes: a global, monotonic clock, the
	 * host's CLOCK_MONOTONIC in nanoseconds.
	 */
	__u64 timestamp_frequency;
	/**
	 * @job_timeout_ms: how long a job of a queue that is not long-running
	 * may run before the scheduler stops it (-ETIME on its fence, its
	 * exec queue banned).
	 */
	__u32 job_timeout_ms;
	/** @max_exec_queues: the most exec queues one open file may have. */
	__u32 max_exec_queues;
	/** @max_jobs_in_flight: the most unfinished jobs of one exec queue. */
	__u32 max_jobs_in_flight;
	/**
	 * @max_lr_exec_queues: the most long-running exec queues
	 * (%DRM_ZEX_EXEC_QUEUE_LONG_RUNNING) one open file may have; 0 on a
	 * kernel without them. (It was a pad, always 0.)
	 */
	__u32 max_lr_exec_queues;
	/** @reserved: 0. */
	__u64 reserved;
};

/**
 * struct drm_zex_tile_info - one tile in the answer to DRM_ZEX_QUERY_TILES
 */
struct drm_zex_tile_info {
	/** @id: tile index, 0 to num_tiles - 1. */
	__u32 id;
	/** @num_compute_engines: compute engines on this tile. */
	__u16 num_compute_engines;
	/** @num_copy_engines: copy engines on this tile. */
	__u16 num_copy_engines;
	/** @mem_size: the tile's local memory in bytes. */
	__u64 mem_size;
	/** @mem_used: bytes of it held by buffer objects now. */
	__u64 mem_used;
	/** @num_bos: buffer objects (or pieces of one) placed on it now. */
	__u64 num_bos;
	/** @reserved: 0. */
	__u64 reserved[2];
};

/**
 * struct drm_zex_query_tiles - answer to DRM_ZEX_QUERY_TILES
 */
struct drm_zex_query_tiles {
	/** @num_tiles: entries in @tiles. */
	__u32 num_tiles;
	/** @pad: 0. */
	__u32 pad;
	/** @tiles: one entry per tile, in tile order. */
	struct drm_zex_tile_info tiles[];
};

/**
 * enum drm_zex_engine_class - the kind of an engine.
 *
 * @DRM_ZEX_ENGINE_CLASS_COMPUTE: runs kernels (a CCS).
 * @DRM_ZEX_ENGINE_CLASS_COPY: copies memory (a BCS).
 */
enum drm_zex_engine_class {
	DRM_ZEX_ENGINE_CLASS_COMPUTE = 0,
	DRM_ZEX_ENGINE_CLASS_COPY = 1,
};

/**
 * struct drm_zex_engine_info - one engine as one device sees it
 *
 * The engine model follows Level Zero: each tile lists its own engines;
 * the root device lists, with implicit scaling, one compute engine that
 * spans every tile plus tile 0's copy engines, and without implicit
 * scaling exactly tile 0's engines.
 */
struct drm_zex_engine_info {
	/** @engine_class: &enum drm_zex_engine_class. */
	__u16 engine_class;
	/** @engine_instance: index among the device's engines of that class. */
	__u16 engine_instance;
	/** @device: tile index, or %DRM_ZEX_DEVICE_ROOT. */
	__u16 device;
	/** @tile_mask: bit i set when the engine executes on tile i. */
	__u16 tile_mask;
	/** @reserved: 0. */
	__u64 reserved;
};

/**
 * struct drm_zex_query_engines - answer to DRM_ZEX_QUERY_ENGINES
 */
struct drm_zex_query_engines {
	/** @num_engines: entries in @engines. */
	__u32 num_engines;
	/** @pad: 0. */
	__u32 pad;
	/** @engines: root device engines first, then each tile's. */
	struct drm_zex_engine_info engines[];
};

/**
 * DRM_ZEX_BO_CREATE_COLOURING - &drm_zex_bo_create.flags bit: use
 * @multi_storage_policy and @multi_storage_granularity_kb instead of the
 * device defaults. Only with placement %DRM_ZEX_DEVICE_ROOT.
 */
#define DRM_ZEX_BO_CREATE_COLOURING	0x1u

/**
 * struct drm_zex_bo_create - argument of DRM_IOCTL_ZEX_BO_CREATE
 *
 * Creates a buffer object of @size bytes. With @placement a tile index it
 * is one piece in that tile's memory (explicit scaling). With @placement
 * %DRM_ZEX_DEVICE_ROOT and implicit scaling on, it is coloured across the
 * tiles as the policy says (see Documentation/tiles.rst): each piece is a
 * separate allocation in one tile's memory, and the object's pages are the
 * pieces' pages in the policy's order. Without implicit scaling the root
 * device is tile 0.
 *
 * Errors: -EINVAL for a size of 0, a size that overflows when rounded, a
 * @placement that names no tile, unknown @flags, or a colouring override
 * that is invalid or given with a tile placement; -E2BIG when colouring
 * would make more than %DRM_ZEX_MAX_PIECES pieces; -ENOSPC when a tile's
 * memory cannot hold its piece (nothing is left allocated); -ENOMEM when
 * the host cannot back it.
 */
struct drm_zex_bo_create {
	/** @extensions: must be 0. */
	__u64 extensions;
	/** @size: in: bytes; out: the size allocated, the sum of the pieces. */
	__u64 size;
	/** @placement: tile index, or %DRM_ZEX_DEVICE_ROOT. */
	__u32 placement;
	/** @flags: 0 or %DRM_ZEX_BO_CREATE_COLOURING. */
	__u32 flags;
	/** @multi_storage_policy: &enum drm_zex_multi_storage_policy. */
	__u32 multi_storage_policy;
	/** @multi_storage_granularity_kb: a power of two, 64 to 1048576. */
	__u32 multi_storage_granularity_kb;
	/** @handle: out: the GEM handle, released with DRM_IOCTL_GEM_CLOSE. */
	__u32 handle;
	/** @pad: must be 0. */
	__u32 pad;
	/** @reserved: must be 0. */
	__u64 reserved[2];
};

/**
 * struct drm_zex_bo_mmap_offset - argument of DRM_IOCTL_ZEX_BO_MMAP_OFFSET
 *
 * Returns the fake offset to pass to mmap() on the DRM fd to map the whole
 * buffer object. Errors: -ENOENT for an unknown @handle.
 *
 * The mapping must be MAP_SHARED (mmap() of a MAP_PRIVATE one fails with
 * -EINVAL); an object imported from read-only dma-bufs maps only without
 * PROT_WRITE (-EACCES), and cannot be made writable with mprotect().
 * munmap() or mprotect() of part of a mapping, mremap() moving it, and
 * fork() keep every page at its place; growing it fails.
 */
struct drm_zex_bo_mmap_offset {
	/** @handle: GEM handle. */
	__u32 handle;
	/** @flags: must be 0. */
	__u32 flags;
	/** @offset: out: the mmap offset. */
	__u64 offset;
	/** @reserved: must be 0. */
	__u64 reserved[2];
};

/**
 * struct drm_zex_piece_info - one internal allocation of a buffer object
 */
struct drm_zex_piece_info {
	/** @tile: the tile whose memory holds it. */
	__u32 tile;
	/** @pad: 0. */
	__u32 pad;
	/**
	 * @offset: where its first byte is in the buffer object. With
	 * %DRM_ZEX_BO_INTERLEAVED, its chunks follow every
	 * @granularity * num_pieces bytes from there.
	 */
	__u64 offset;
	/** @size: its size in bytes. */
	__u64 size;
};

/**
 * DRM_ZEX_BO_INTERLEAVED - the layout flag of &drm_zex_bo_info and
 * &drm_zex_bo_import: chunk i (of the granularity) of the object is chunk
 * i / num_pieces of piece i % num_pieces. Without it the pieces follow
 * each other in order.
 */
#define DRM_ZEX_BO_INTERLEAVED		0x1u

/**
 * struct drm_zex_bo_info - argument of DRM_IOCTL_ZEX_BO_INFO
 *
 * Describes how a buffer object is made of pieces. Two-call protocol on
 * @num_pieces: 0 returns the count; a smaller non-zero count is -ENOSPC
 * with nothing written; otherwise @pieces receives one
 * &struct drm_zex_piece_info per piece, in order. -ENOENT for an unknown
 * @handle.
 */
struct drm_zex_bo_info {
	/** @handle: GEM handle. */
	__u32 handle;
	/** @flags: must be 0. */
	__u32 flags;
	/** @num_pieces: in: entries at @pieces, or 0; out: the count. */
	__u32 num_pieces;
	/** @layout: out: %DRM_ZEX_BO_INTERLEAVED or 0. */
	__u32 layout;
	/** @pieces: user pointer to an array of &struct drm_zex_piece_info. */
	__u64 pieces;
	/** @size: out: the object's size. */
	__u64 size;
	/** @granularity: out: the interleave granularity, or 0. */
	__u64 granularity;
	/** @reserved: must be 0. */
	__u64 reserved[2];
};

/**
 * struct drm_zex_bo_export - argument of DRM_IOCTL_ZEX_BO_EXPORT
 *
 * Exports every piece of a buffer object as its own dma-buf, in piece
 * order, one fd each: an ordinary dma-buf that any importer can attach,
 * whose mmap() shows exactly that piece's bytes. All or nothing: on any
 * error no fd is installed. Two-call protocol on @num_fds as in
 * &drm_zex_bo_info. Errors: -ENOENT unknown @handle, -EINVAL unknown
 * @flags, -ENOSPC @num_fds too small, -EMFILE out of fds, -EACCES
 * DRM_RDWR for a read-only object.
 *
 * Without DRM_RDWR the dma-bufs are read-only files; a buffer object that
 * DRM_IOCTL_ZEX_BO_IMPORT builds from any read-only dma-buf is read-only
 * every way: mmap() without PROT_WRITE, DRM_IOCTL_ZEX_VM_BIND with
 * %DRM_ZEX_VM_BIND_READ_ONLY only, never a copy's destination, exported
 * again without DRM_RDWR only.
 */
struct drm_zex_bo_export {
	/** @handle: GEM handle. */
	__u32 handle;
	/** @flags: DRM_CLOEXEC and/or DRM_RDWR for the new fds. */
	__u32 flags;
	/** @num_fds: in: entries at @fds, or 0; out: the number of pieces. */
	__u32 num_fds;
	/** @pad: must be 0. */
	__u32 pad;
	/** @fds: user pointer to an array of __s32, filled with the fds. */
	__u64 fds;
	/** @reserved: must be 0. */
	__u64 reserved[2];
};

/**
 * struct drm_zex_bo_import - argument of DRM_IOCTL_ZEX_BO_IMPORT
 *
 * Makes one buffer object whose pieces are the given dma-bufs, in order,
 * without copying: the new object shares their pages. Accepted are
 * dma-bufs exported by this zex device (pieces of its buffer objects,
 * from any process); the same dma-buf imported twice yields the same
 * piece. The import holds each piece alive, however the exporter ends.
 *
 * Errors: -EINVAL for @num_fds 0, an fd that is not a dma-buf, unknown
 * @flags, an interleaved layout the pieces' sizes do not fit, or the same
 * piece twice (its ranges would alias); -E2BIG for
 * more than %DRM_ZEX_MAX_PIECES fds; -EBADF for an fd that is not open;
 * -EXDEV for a dma-buf that is not a piece of this device's memory
 * (another driver's, or a zex device that was unplugged since).
 */
struct drm_zex_bo_import {
	/** @fds: user pointer to an array of @num_fds __s32. */
	__u64 fds;
	/** @num_fds: 1 to %DRM_ZEX_MAX_PIECES. */
	__u32 num_fds;
	/** @flags: 0, or %DRM_ZEX_BO_INTERLEAVED to rebuild that layout. */
	__u32 flags;
	/** @granularity: the interleave granularity with %DRM_ZEX_BO_INTERLEAVED, else 0. */
	__u64 granularity;
	/** @handle: out: the new GEM handle. */
	__u32 handle;
	/** @pad: must be 0. */
	__u32 pad;
	/** @size: out: the object's size, the sum of the pieces. */
	__u64 size;
	/** @reserved: must be 0. */
	__u64 reserved[2];
};

/**
 * DRM_ZEX_USERPTR_READ_ONLY - &drm_zex_userptr_import.flags bit: the device
 * may only read the memory. Pages are pinned without write access, so
 * read-only host memory can be imported (and can only be imported so).
 */
#define DRM_ZEX_USERPTR_READ_ONLY	0x1u

/**
 * DRM_ZEX_USERPTR_MIRROR - &drm_zex_userptr_import.flags bit: mirror the
 * host's mapping instead of pinning it. Nothing is pinned or charged to
 * RLIMIT_MEMLOCK; an MMU interval notifier follows the range. When the
 * host unmaps, remaps, zaps (madvise(MADV_DONTNEED)), migrates or
 * write-protects any part of it, the device's mapping of that part is
 * invalidated at once, and the next copy-engine access to it faults the
 * page the host maps there now back in (hmm_range_fault()): the device
 * never sees a page the host no longer maps there. Where the host maps
 * nothing the import may use (unmapped, an I/O or PFN mapping, or
 * read-only memory under a writable import), the copy faults with
 * %DRM_ZEX_FAULT_HOST_UNMAPPED. A mirror import shares no page with
 * another import or bind (-EBUSY). Kernels without CONFIG_HMM_MIRROR:
 * -EOPNOTSUPP.
 */
#define DRM_ZEX_USERPTR_MIRROR		0x2u

/** DRM_ZEX_USERPTR_MAX_SIZE - the largest single import, 4 GiB. */
#define DRM_ZEX_USERPTR_MAX_SIZE	0x100000000ull

/**
 * struct drm_zex_userptr_import - argument of DRM_IOCTL_ZEX_USERPTR_IMPORT
 *
 * Pins host memory [@addr, @addr + @size) of the calling process and maps
 * it into this file's device address space at the same address (device VA
 * == host VA). Imports may overlap or touch: a page stays mapped while any
 * import covers it. The pages are pinned (charged to RLIMIT_MEMLOCK) for
 * the import's life: after the host unmaps or frees the memory, the device
 * still sees the pages it pinned, never freed memory. With
 * %DRM_ZEX_USERPTR_MIRROR the import follows the host's mapping instead.
 *
 * Errors, checked in this order: -EINVAL unknown @flags or non-zero
 * @reserved; -EINVAL @size 0, @addr or @size not page-aligned, or the range
 * wrapping; -E2BIG @size above %DRM_ZEX_USERPTR_MAX_SIZE; -EFAULT a range
 * that is not user memory; -ENOMEM over RLIMIT_MEMLOCK; -EFAULT a hole, an
 * I/O or PFN mapping, or read-only memory without
 * %DRM_ZEX_USERPTR_READ_ONLY; -EBUSY the range overlaps an import that maps
 * other pages (the host remapped it in between), or, for a mirror import,
 * any other mapping; -EOPNOTSUPP %DRM_ZEX_USERPTR_MIRROR where the kernel
 * has no HMM; -EINTR a mirror import interrupted by a fatal signal.
 * Nothing stays pinned on any error. -ENOSPC the file holds vm_max_mappings imports and binds (a
 * module parameter). What the import allocates is charged to the caller's
 * memory cgroup.
 */
struct drm_zex_userptr_import {
	/** @addr: page-aligned start, in the caller's address space. */
	__u64 addr;
	/** @size: page-aligned size in bytes. */
	__u64 size;
	/** @flags: %DRM_ZEX_USERPTR_READ_ONLY, %DRM_ZEX_USERPTR_MIRROR. */
	__u32 flags;
	/** @id: out: the mapping, for DRM_IOCTL_ZEX_VM_UNBIND. */
	__u32 id;
	/** @reserved: must be 0. */
	__u64 reserved[2];
};

/**
 * struct drm_zex_vm_unbind - argument of DRM_IOCTL_ZEX_VM_UNBIND
 *
 * Removes a mapping of this file's address space — a userptr import or a
 * buffer-object bind: its pages that no other mapping covers are unmapped,
 * and its pages are unpinned. -ENOENT for an unknown @id.
 */
struct drm_zex_vm_unbind {
	/** @id: from DRM_IOCTL_ZEX_USERPTR_IMPORT or DRM_IOCTL_ZEX_VM_BIND. */
	__u32 id;
	/** @pad: must be 0. */
	__u32 pad;
	/** @reserved: must be 0. */
	__u64 reserved;
};

/** DRM_ZEX_VM_BIND_READ_ONLY - &drm_zex_vm_bind.flags: the device only reads. */
#define DRM_ZEX_VM_BIND_READ_ONLY	0x1u

/**
 * struct drm_zex_vm_bind - argument of DRM_IOCTL_ZEX_VM_BIND
 *
 * Maps a buffer object, or the range of @range bytes from @offset in it, at
 * device VA @va of this file's address space, in the same page tables as
 * userptr imports; the device sees the object's bytes in its layout's
 * order, as its mmap() does (byte @offset at @va). @offset and @range of 0
 * map the whole object (as before the fields had names); @range 0 with an
 * @offset maps the rest of the object. The binding holds the object and
 * pins all its pages until DRM_IOCTL_ZEX_VM_UNBIND. Errors: -EINVAL
 * unknown @flags, non-zero pad, @va, @offset or @range not page-aligned,
 * the range not inside the object, or it beyond the 48-bit device VA;
 * -ENOENT unknown @handle; -EACCES a
 * read-only object without %DRM_ZEX_VM_BIND_READ_ONLY; -EBUSY the range
 * overlaps a mapping of other pages; -ENOSPC the file holds
 * vm_max_mappings imports and binds; -ENOMEM, also at the caller's memory
 * cgroup limit.
 */
struct drm_zex_vm_bind {
	/** @handle: GEM handle of the buffer object. */
	__u32 handle;
	/** @flags: 0 or %DRM_ZEX_VM_BIND_READ_ONLY. */
	__u32 flags;
	/** @va: page-aligned device VA. */
	__u64 va;
	/** @id: out: the mapping, for DRM_IOCTL_ZEX_VM_UNBIND. */
	__u32 id;
	/** @pad: must be 0. */
	__u32 pad;
	/** @offset: page-aligned, the first byte of the object mapped. */
	__u64 offset;
	/** @range: page-aligned bytes mapped, or 0: to the object's end. */
	__u64 range;
};

/**
 * enum drm_zex_fault_reason - why the copy engine stopped
 * @DRM_ZEX_FAULT_NONE: it did not.
 * @DRM_ZEX_FAULT_NOT_MAPPED: an address of the source or destination is
 *	not mapped in the device address space.
 * @DRM_ZEX_FAULT_READ_ONLY: a destination address is mapped read-only.
 * @DRM_ZEX_FAULT_HOST_UNMAPPED: an address of a mirror import
 *	(%DRM_ZEX_USERPTR_MIRROR) where the host maps nothing the import may
 *	use any more: unmapped or moved away, an I/O or PFN mapping, or
 *	read-only memory under a writable import.
 * @DRM_ZEX_FAULT_KERNEL_ABORTED: a launch's kernel stopped on its own (an
 *	illegal instruction, an abort, a trap), as the compute side reports
 *	it (%DRM_IOCTL_ZEX_LAUNCH_REPORT); its address is where it stopped,
 *	or 0.
 */
enum drm_zex_fault_reason {
	DRM_ZEX_FAULT_NONE = 0,
	DRM_ZEX_FAULT_NOT_MAPPED = 1,
	DRM_ZEX_FAULT_READ_ONLY = 2,
	DRM_ZEX_FAULT_HOST_UNMAPPED = 3,
	DRM_ZEX_FAULT_KERNEL_ABORTED = 4,
};

/**
 * DRM_ZEX_FAULT_WRITE - a fault's flag: the faulting access was a write
 * (&drm_zex_exec_queue_get_state.fault_flags,
 * &drm_zex_launch_report.fault_flags); without it, a read.
 */
#define DRM_ZEX_FAULT_WRITE		0x1u

/** DRM_ZEX_COPY_MAX_LEN - the most one copy moves, 1 GiB. */
#define DRM_ZEX_COPY_MAX_LEN		0x40000000ull

/**
 * struct drm_zex_copy - argument of DRM_IOCTL_ZEX_COPY
 *
 * The software copy engine: copies @len bytes from device VA @src to
 * device VA @dst of this file's address space, walking its page tables as
 * a copy engine would. Every page is checked before a byte moves: a copy
 * that would fault writes nothing, returns -EFAULT and fills @fault_addr
 * (the first faulting address) and @fault_reason. Errors: -EINVAL unknown
 * @flags, non-zero @reserved, a wrapping or overlapping range; -E2BIG @len
 * above %DRM_ZEX_COPY_MAX_LEN; -EINTR the caller was killed (a fatal
 * signal) during the copy: the bytes up to some point were copied, the
 * rest not; -ENOMEM faulting a mirror import's pages back in ran out of
 * memory (nothing copied).
 */
struct drm_zex_copy {
	/** @src: device VA to read. */
	__u64 src;
	/** @dst: device VA to write. */
	__u64 dst;
	/** @len: bytes; 0 does nothing. */
	__u64 len;
	/** @flags: must be 0. */
	__u32 flags;
	/** @fault_reason: out: &enum drm_zex_fault_reason. */
	__u32 fault_reason;
	/** @fault_addr: out: the faulting device VA. */
	__u64 fault_addr;
	/** @reserved: must be 0. */
	__u64 reserved[2];
};

/**
 * DOC: exec queues
 *
 * Work runs on engines through exec queues, as on the kernel's own GPU
 * drivers: DRM_IOCTL_ZEX_EXEC_QUEUE_CREATE names one engine of
 * DRM_ZEX_QUERY_ENGINES (class, instance, device) and returns a queue;
 * DRM_IOCTL_ZEX_EXEC submits one job to a queue: an array of
 * &struct drm_zex_command that the engine executes in order, walking this
 * file's device address space as DRM_IOCTL_ZEX_COPY does, and an array of
 * &struct drm_zex_sync: sync objects (binary or timeline) the job waits
 * for before it starts or signals when it ends, and user fences (a 64-bit
 * value the engine writes at a device address when the job ends).
 * Jobs of one queue run in submission order; jobs of different queues in
 * any order their syncs allow. A job also waits for the fences of every
 * buffer object its commands touch (implicit sync, the objects' dma_resv)
 * and adds its own.
 *
 * A job that faults (an address not mapped, a write to a read-only
 * mapping, a mirror page the host took away) ends with -EFAULT on its
 * fence; a job that runs longer than the device's job timeout
 * (&drm_zex_query_device.job_timeout_ms) is stopped and ends with -ETIME.
 * Either bans its queue: later DRM_IOCTL_ZEX_EXEC calls fail with -EIO,
 * the queue's jobs not yet started end with the same error, and
 * DRM_IOCTL_ZEX_EXEC_QUEUE_GET_STATE reports the error and, for a fault,
 * its address and reason. Other queues, on the same engine or not, go on.
 * Unplugging the device bans every queue with -ENODEV: running jobs stop
 * and jobs not yet run end with it.
 *
 * The generic DRM sync object ioctls (DRM_IOCTL_SYNCOBJ_*) work on zex.
 */

/**
 * DOC: long-running exec queues and launches
 *
 * A compute engine's queue created with %DRM_ZEX_EXEC_QUEUE_LONG_RUNNING
 * (as xe's long-running mode) runs jobs that may take as long as they
 * take: it has no job timeout, and its jobs have no dma-fence anyone else
 * could wait on, since a dma-fence must signal in bounded time. So a job
 * of such a queue signals no sync object (-EOPNOTSUPP; it may wait for
 * them) and leaves no fence in a buffer object's reservation (it waits for
 * those already there; no one waits for it, and a sync_file exported from
 * the object does not include it). Its end is seen through user fences
 * and %DRM_ZEX_CMD_STORE only. Such a queue is a context of its own on
 * the engine, which runs it beside the engine's other queues (as a GPU
 * time-slices its contexts): a job waiting on it never holds up another
 * queue's job.
 *
 * %DRM_ZEX_CMD_LAUNCH, allowed only there, hands work to the compute
 * side (in userspace: the kernel never runs device code) and waits for
 * it: the engine numbers the launch (1, 2, ... per queue), writes a
 * &struct drm_zex_launch_record at the command's @dst, the number last,
 * and wakes user fence waits, which is how the compute side learns that
 * launch N may run. Each tile of the queue's engine (one, or every tile
 * for the root device's engine under implicit scaling) runs its part and
 * reports it through DRM_IOCTL_ZEX_LAUNCH_REPORT: done, or faulted. When
 * every tile has reported done, the job goes on with its next command; a
 * fault bans the queue with -EFAULT, the report's address, reason and
 * flags readable through DRM_IOCTL_ZEX_EXEC_QUEUE_GET_STATE. Whenever a
 * launch ends before every part reported (the queue banned, destroyed,
 * its file closed, the device unplugged), the engine writes
 * %DRM_ZEX_LAUNCH_STOP into the record's @state and wakes user fence
 * waits: the parts still running should stop; their reports fail.
 *
 * The process that creates a long-running queue serves its launches: once
 * it holds no file descriptor of the file any more (it closed them, or it
 * died), the queue is banned with -EPIPE, even if another process still
 * holds the file.
 */

/**
 * struct drm_zex_user_extension - the header of every extension
 *
 * An @extensions field points at a chain of these, each the head of a
 * larger structure named by @name. No extension is defined yet: every
 * @extensions field must be 0.
 */
struct drm_zex_user_extension {
	/** @next_extension: user pointer to the next one, or 0. */
	__u64 next_extension;
	/** @name: which extension this is. */
	__u32 name;
	/** @pad: must be 0. */
	__u32 pad;
};

/**
 * enum drm_zex_exec_queue_priority - which queue's job an engine runs next
 * @DRM_ZEX_EXEC_QUEUE_PRIORITY_NORMAL: the default (0).
 * @DRM_ZEX_EXEC_QUEUE_PRIORITY_LOW: after every normal and high job ready.
 * @DRM_ZEX_EXEC_QUEUE_PRIORITY_HIGH: before every normal and low job
 *	ready; needs CAP_SYS_NICE, since it can hold back other users' work.
 *
 * An engine runs one job at a time; when it is free, the DRM GPU scheduler
 * gives it a ready job of the highest priority that has one (jobs of one
 * priority in turn). A running job is not preempted.
 */
enum drm_zex_exec_queue_priority {
	DRM_ZEX_EXEC_QUEUE_PRIORITY_NORMAL = 0,
	DRM_ZEX_EXEC_QUEUE_PRIORITY_LOW = 1,
	DRM_ZEX_EXEC_QUEUE_PRIORITY_HIGH = 2,
};

/**
 * DRM_ZEX_EXEC_QUEUE_LONG_RUNNING - &drm_zex_exec_queue_create.flags bit:
 * a long-running queue of a compute engine (see "long-running exec queues
 * and launches").
 */
#define DRM_ZEX_EXEC_QUEUE_LONG_RUNNING	0x1u

/**
 * struct drm_zex_exec_queue_create - argument of DRM_IOCTL_ZEX_EXEC_QUEUE_CREATE
 *
 * A queue on one engine of the list DRM_ZEX_QUERY_ENGINES returns: the
 * engine whose @engine_class, @engine_instance and @device match, at
 * @priority. A queue of an engine that spans several tiles (the root
 * device's, with implicit scaling) splits each copy and fill between the
 * tiles. Errors: -EINVAL no such engine, an unknown @priority or flag,
 * %DRM_ZEX_EXEC_QUEUE_LONG_RUNNING on an engine that is not a compute
 * engine, non-zero @reserved; -EPERM %DRM_ZEX_EXEC_QUEUE_PRIORITY_HIGH
 * without CAP_SYS_NICE; -EMFILE the file has
 * &drm_zex_query_device.max_exec_queues queues, or
 * &drm_zex_query_device.max_lr_exec_queues long-running ones; -ENOMEM.
 * (@priority was a pad that had to be 0: normal.)
 */
struct drm_zex_exec_queue_create {
	/** @extensions: must be 0. */
	__u64 extensions;
	/** @engine_class: &enum drm_zex_engine_class. */
	__u16 engine_class;
	/** @engine_instance: index among @device's engines of that class. */
	__u16 engine_instance;
	/** @device: a tile index, or %DRM_ZEX_DEVICE_ROOT. */
	__u16 device;
	/** @priority: &enum drm_zex_exec_queue_priority (0: normal). */
	__u16 priority;
	/** @flags: %DRM_ZEX_EXEC_QUEUE_LONG_RUNNING or 0. */
	__u32 flags;
	/** @exec_queue_id: out: the queue, never 0. */
	__u32 exec_queue_id;
	/** @reserved: must be 0. */
	__u64 reserved[2];
};

/**
 * struct drm_zex_exec_queue_destroy - argument of DRM_IOCTL_ZEX_EXEC_QUEUE_DESTROY
 *
 * The queue's id is free at once; its running job stops and its jobs not
 * yet run end with -ECANCELED on their fences (each once its sync objects
 * have signalled), as closing the file does; a long-running queue's
 * launch ends, its record told to stop before the call returns. The call
 * waits for nothing else: what the queue holds goes when its last job has. Errors: -ENOENT no such
 * queue; -EINVAL a non-zero @pad or @reserved.
 */
struct drm_zex_exec_queue_destroy {
	/** @extensions: must be 0. */
	__u64 extensions;
	/** @exec_queue_id: from DRM_IOCTL_ZEX_EXEC_QUEUE_CREATE. */
	__u32 exec_queue_id;
	/** @pad: must be 0. */
	__u32 pad;
	/** @reserved: must be 0. */
	__u64 reserved[2];
};

/**
 * DRM_ZEX_EXEC_QUEUE_BANNED - &drm_zex_exec_queue_get_state.state bit: a
 * job of the queue faulted or timed out; the queue takes no more jobs.
 */
#define DRM_ZEX_EXEC_QUEUE_BANNED	0x1u

/**
 * struct drm_zex_exec_queue_get_state - argument of DRM_IOCTL_ZEX_EXEC_QUEUE_GET_STATE
 *
 * Errors: -ENOENT no such queue; -EINVAL non-zero @flags or @reserved.
 */
struct drm_zex_exec_queue_get_state {
	/** @extensions: must be 0. */
	__u64 extensions;
	/** @exec_queue_id: the queue. */
	__u32 exec_queue_id;
	/** @flags: must be 0. */
	__u32 flags;
	/** @state: out: %DRM_ZEX_EXEC_QUEUE_BANNED or 0. */
	__u32 state;
	/**
	 * @error: out: what banned it, -EFAULT or -ETIME (-ENODEV the device
	 * was unplugged, -EPIPE the process serving a long-running queue's
	 * launches holds its file no more); 0 if not banned.
	 */
	__s32 error;
	/** @fault_reason: out: &enum drm_zex_fault_reason of a fault. */
	__u32 fault_reason;
	/**
	 * @fault_flags: out: %DRM_ZEX_FAULT_WRITE for a faulting write, else
	 * 0. (It was a pad, always 0.)
	 */
	__u32 fault_flags;
	/** @fault_addr: out: the faulting device VA. */
	__u64 fault_addr;
	/** @jobs_completed: out: jobs of the queue that have ended. */
	__u64 jobs_completed;
	/** @reserved: must be 0. */
	__u64 reserved[2];
};

/**
 * enum drm_zex_command_op - what a &struct drm_zex_command does
 * @DRM_ZEX_CMD_COPY: copy @len bytes from device VA @src to @dst; the
 *	ranges may not overlap.
 * @DRM_ZEX_CMD_FILL: write @len bytes at @dst, the first @pattern_size
 *	(1 to 16) bytes of @pattern repeated from @dst on.
 * @DRM_ZEX_CMD_STORE: write the 64-bit @value at @dst (8-byte aligned)
 *	with one store, after every earlier command of the job is visible,
 *	then wakes user fence waits and WAIT commands to read again: what a
 *	GPU's "store data" with an interrupt does to signal an event.
 * @DRM_ZEX_CMD_TIMESTAMP: write the device clock
 *	(&drm_zex_query_device.timestamp_frequency) at @dst (8-byte aligned)
 *	when the engine reaches the command.
 * @DRM_ZEX_CMD_WAIT: wait until the 64-bit value at device VA @src
 *	(8-byte aligned) compares true with @value under @mask (@compare, an
 *	&enum drm_zex_compare_op): a GPU's semaphore wait. The engine reads
 *	the value again after every job that ends on the device and at least
 *	every millisecond; a wait that never comes true ends with the job
 *	timeout (on a long-running queue: never, until the queue is banned or
 *	destroyed).
 * @DRM_ZEX_CMD_LAUNCH: long-running queues only: publish a launch, its
 *	&struct drm_zex_launch_record at @dst (8-byte aligned, 24 bytes
 *	written) with @value as its cookie, and wait until every tile of the
 *	queue has reported it done (see "long-running exec queues and
 *	launches").
 */
enum drm_zex_command_op {
	DRM_ZEX_CMD_COPY = 0,
	DRM_ZEX_CMD_FILL = 1,
	DRM_ZEX_CMD_STORE = 2,
	DRM_ZEX_CMD_TIMESTAMP = 3,
	DRM_ZEX_CMD_WAIT = 4,
	DRM_ZEX_CMD_LAUNCH = 5,
};

/**
 * enum drm_zex_compare_op - how a value compares: (value at the address &
 *	mask) OP (operand & mask), as unsigned 64-bit numbers
 * @DRM_ZEX_COMPARE_EQ: ==
 * @DRM_ZEX_COMPARE_NEQ: !=
 * @DRM_ZEX_COMPARE_GT: >
 * @DRM_ZEX_COMPARE_GTE: >=
 * @DRM_ZEX_COMPARE_LT: <
 * @DRM_ZEX_COMPARE_LTE: <=
 */
enum drm_zex_compare_op {
	DRM_ZEX_COMPARE_EQ = 0,
	DRM_ZEX_COMPARE_NEQ = 1,
	DRM_ZEX_COMPARE_GT = 2,
	DRM_ZEX_COMPARE_GTE = 3,
	DRM_ZEX_COMPARE_LT = 4,
	DRM_ZEX_COMPARE_LTE = 5,
};

/** DRM_ZEX_FILL_MAX_PATTERN - the longest pattern of %DRM_ZEX_CMD_FILL. */
#define DRM_ZEX_FILL_MAX_PATTERN	16

/**
 * struct drm_zex_command - one command of a job
 *
 * Fields a command does not use must be 0.
 */
struct drm_zex_command {
	/** @op: &enum drm_zex_command_op. */
	__u16 op;
	/** @pattern_size: FILL: bytes of @pattern used, 1 to 16. */
	__u16 pattern_size;
	/** @compare: WAIT: &enum drm_zex_compare_op. */
	__u16 compare;
	/** @pad: must be 0. */
	__u16 pad;
	/** @dst: COPY, FILL, STORE, TIMESTAMP, LAUNCH: device VA written. */
	__u64 dst;
	/** @src: COPY: device VA read; WAIT: device VA of the value. */
	__u64 src;
	/** @len: COPY, FILL: bytes, 1 to %DRM_ZEX_COPY_MAX_LEN. */
	__u64 len;
	/** @value: STORE: the value; WAIT: the operand; LAUNCH: the cookie. */
	__u64 value;
	/** @mask: WAIT: the mask. */
	__u64 mask;
	/** @pattern: FILL: the pattern. */
	__u8 pattern[DRM_ZEX_FILL_MAX_PATTERN];
};

/**
 * enum drm_zex_sync_type - what a &struct drm_zex_sync names
 * @DRM_ZEX_SYNC_SYNCOBJ: a binary DRM sync object.
 * @DRM_ZEX_SYNC_TIMELINE_SYNCOBJ: point @timeline_value of a timeline
 *	DRM sync object.
 * @DRM_ZEX_SYNC_USER_FENCE: a user fence: the engine writes
 *	@timeline_value at device VA @addr (8-byte aligned) when the job
 *	ends without error; signal only.
 */
enum drm_zex_sync_type {
	DRM_ZEX_SYNC_SYNCOBJ = 0,
	DRM_ZEX_SYNC_TIMELINE_SYNCOBJ = 1,
	DRM_ZEX_SYNC_USER_FENCE = 2,
};

/**
 * DRM_ZEX_SYNC_SIGNAL - &drm_zex_sync.flags bit: signal this sync when
 * the job ends; without it, the job waits for it before it starts.
 */
#define DRM_ZEX_SYNC_SIGNAL		0x1u

/**
 * struct drm_zex_sync - one sync of a job
 */
struct drm_zex_sync {
	/** @extensions: must be 0. */
	__u64 extensions;
	/** @type: &enum drm_zex_sync_type. */
	__u32 type;
	/** @flags: %DRM_ZEX_SYNC_SIGNAL or 0. */
	__u32 flags;
	/** @handle: the sync object (SYNCOBJ, TIMELINE_SYNCOBJ), else 0. */
	__u32 handle;
	/** @pad: must be 0. */
	__u32 pad;
	/** @addr: USER_FENCE: the device VA, else 0. */
	__u64 addr;
	/**
	 * @timeline_value: TIMELINE_SYNCOBJ: the point (not 0); USER_FENCE:
	 * the value written; SYNCOBJ: 0.
	 */
	__u64 timeline_value;
	/** @reserved: must be 0. */
	__u64 reserved[2];
};

/** DRM_ZEX_EXEC_MAX_COMMANDS - the most commands of one job. */
#define DRM_ZEX_EXEC_MAX_COMMANDS	512
/** DRM_ZEX_EXEC_MAX_SYNCS - the most syncs of one job. */
#define DRM_ZEX_EXEC_MAX_SYNCS		64

/**
 * struct drm_zex_exec - argument of DRM_IOCTL_ZEX_EXEC
 *
 * Submits one job of @num_commands commands at @commands to the queue
 * @exec_queue_id, with @num_syncs syncs at @syncs. Every field, command
 * and sync is checked before anything happens; a job that returns 0 runs.
 * Errors: -EINVAL a bad field, command or sync (an unknown op, type or
 * flag, a wrapping or overlapping range, a misaligned address, a count of
 * 0 commands or above %DRM_ZEX_EXEC_MAX_COMMANDS or
 * %DRM_ZEX_EXEC_MAX_SYNCS); -E2BIG a copy or fill above
 * %DRM_ZEX_COPY_MAX_LEN; -ENOENT no such queue or sync object (or a
 * binary one to wait for that has no fence); -EOPNOTSUPP a sync object to
 * signal on a long-running queue, a %DRM_ZEX_CMD_LAUNCH on a queue that
 * is not long-running; -EIO the queue is banned;
 * -EBUSY the queue already has &drm_zex_query_device.max_jobs_in_flight
 * unfinished jobs (wait for one of them, then submit again); -E2BIG the
 * job touches more than 4096 pieces of buffer objects; -ENOMEM.
 */
struct drm_zex_exec {
	/** @extensions: must be 0. */
	__u64 extensions;
	/** @exec_queue_id: the queue. */
	__u32 exec_queue_id;
	/** @num_commands: commands at @commands, 1 to 512. */
	__u32 num_commands;
	/** @commands: user pointer to an array of &struct drm_zex_command. */
	__u64 commands;
	/** @num_syncs: syncs at @syncs, 0 to 64. */
	__u32 num_syncs;
	/** @flags: must be 0. */
	__u32 flags;
	/** @syncs: user pointer to an array of &struct drm_zex_sync. */
	__u64 syncs;
	/** @reserved: must be 0. */
	__u64 reserved[2];
};

/**
 * DRM_ZEX_WAIT_ABSTIME - &drm_zex_wait_user_fence.flags bit: @timeout is
 * an absolute CLOCK_MONOTONIC time in nanoseconds.
 */
#define DRM_ZEX_WAIT_ABSTIME		0x1u
/**
 * DRM_ZEX_WAIT_EXEC_QUEUE - &drm_zex_wait_user_fence.flags bit: a wait for
 * what @exec_queue_id writes. It reads the value again only when that
 * queue's job ends, it executes a %DRM_ZEX_CMD_STORE or writes a launch
 * record, and fails with -EIO as soon as the queue is banned.
 */
#define DRM_ZEX_WAIT_EXEC_QUEUE		0x2u

/**
 * struct drm_zex_wait_user_fence - argument of DRM_IOCTL_ZEX_WAIT_USER_FENCE
 *
 * Sleeps until (the 64-bit value at device VA @addr & @mask) @op (@value &
 * @mask) is true, reading it again whenever a job of the device ends or
 * an engine executes a %DRM_ZEX_CMD_STORE (with %DRM_ZEX_WAIT_EXEC_QUEUE:
 * a job of that queue, a STORE or a launch record it writes).
 * @timeout is relative in nanoseconds unless %DRM_ZEX_WAIT_ABSTIME; on
 * return it holds what is left of a relative one, so a wait interrupted by
 * a signal restarts where it stopped. A negative @timeout waits for ever.
 * Returns 0 when the comparison is true. Errors: -ETIME the time passed;
 * -ERESTARTSYS or -EINTR a signal; -EIO the queue named with
 * %DRM_ZEX_WAIT_EXEC_QUEUE is banned; -ENODEV the device was unplugged
 * while waiting; -ENOENT no such queue; -EFAULT
 * @addr is not mapped in the device address space; -EINVAL an unknown
 * @op or flag, a misaligned @addr, a non-zero @pad or @reserved.
 */
struct drm_zex_wait_user_fence {
	/** @extensions: must be 0. */
	__u64 extensions;
	/** @addr: device VA of the value, 8-byte aligned. */
	__u64 addr;
	/** @op: &enum drm_zex_compare_op. */
	__u16 op;
	/** @pad: must be 0. */
	__u16 pad;
	/** @flags: %DRM_ZEX_WAIT_ABSTIME, %DRM_ZEX_WAIT_EXEC_QUEUE. */
	__u32 flags;
	/** @value: the operand. */
	__u64 value;
	/** @mask: the mask; all ones to compare the whole value. */
	__u64 mask;
	/** @timeout: in, out: nanoseconds, see above. */
	__s64 timeout;
	/** @exec_queue_id: with %DRM_ZEX_WAIT_EXEC_QUEUE: the queue, else 0. */
	__u32 exec_queue_id;
	/** @pad2: must be 0. */
	__u32 pad2;
	/** @reserved: must be 0. */
	__u64 reserved[2];
};

/**
 * DRM_ZEX_LAUNCH_STOP - &drm_zex_launch_record.state: the launch ended
 * before every tile reported it done; what still runs of it should stop.
 */
#define DRM_ZEX_LAUNCH_STOP		1u

/**
 * struct drm_zex_launch_record - what a %DRM_ZEX_CMD_LAUNCH writes at @dst
 *
 * The engine writes @cookie, @tile_mask and @state, then @seqno: a
 * compute side that sees @seqno change (DRM_IOCTL_ZEX_WAIT_USER_FENCE on
 * it) reads the rest as written for that launch.
 */
struct drm_zex_launch_record {
	/** @seqno: the launch's number on its queue, from 1. */
	__u64 seqno;
	/** @cookie: the command's &drm_zex_command.value. */
	__u64 cookie;
	/** @tile_mask: bit i set when tile i runs a part and must report it. */
	__u32 tile_mask;
	/** @state: 0 while the launch may run, then %DRM_ZEX_LAUNCH_STOP. */
	__u32 state;
};

/** DRM_ZEX_LAUNCH_DONE - &drm_zex_launch_report.status: the part ended well. */
#define DRM_ZEX_LAUNCH_DONE		0u
/** DRM_ZEX_LAUNCH_FAULT - &drm_zex_launch_report.status: the part faulted. */
#define DRM_ZEX_LAUNCH_FAULT		1u

/**
 * struct drm_zex_launch_report - argument of DRM_IOCTL_ZEX_LAUNCH_REPORT
 *
 * The compute side reports tile @tile's part of launch @seqno of the
 * long-running queue @exec_queue_id of this file: %DRM_ZEX_LAUNCH_DONE,
 * or %DRM_ZEX_LAUNCH_FAULT with @fault_addr, @fault_reason and
 * @fault_flags, which bans the queue with -EFAULT at once (the launch's
 * other parts are told to stop). Errors: -EINVAL an unknown @status or
 * flag, @tile not below %DRM_ZEX_MAX_TILES, @seqno 0, a fault without a
 * reason or a done with fault fields, non-zero @pad, @extensions or
 * @reserved; -ENOENT no such queue; -EOPNOTSUPP the queue is not
 * long-running; -EIO the queue is banned; -ESRCH no launch @seqno waits
 * for tile @tile's report (not published yet, reported already, or
 * ended).
 */
struct drm_zex_launch_report {
	/** @extensions: must be 0. */
	__u64 extensions;
	/** @exec_queue_id: the long-running queue. */
	__u32 exec_queue_id;
	/** @tile: the tile whose part ended. */
	__u32 tile;
	/** @seqno: the launch, &drm_zex_launch_record.seqno. */
	__u64 seqno;
	/** @status: %DRM_ZEX_LAUNCH_DONE or %DRM_ZEX_LAUNCH_FAULT. */
	__u32 status;
	/** @fault_reason: FAULT: &enum drm_zex_fault_reason, not NONE. */
	__u32 fault_reason;
	/** @fault_addr: FAULT: the faulting device VA. */
	__u64 fault_addr;
	/** @fault_flags: FAULT: %DRM_ZEX_FAULT_WRITE or 0. */
	__u32 fault_flags;
	/** @pad: must be 0. */
	__u32 pad;
	/** @reserved: must be 0. */
	__u64 reserved[2];
};

/**
 * DOC: hostrpc channel
 *
 * A hostrpc channel (seed 003) is N slots of one 4 KiB page each, shared
 * between a "device" side that makes calls and a "host" side that serves
 * them; Documentation/hostrpc.rst has the protocol. DRM_IOCTL_ZEX_HOSTRPC_CREATE
 * makes a channel and returns a file descriptor for its first host view.
 * Every view is its own open file: mmap() of it at offset 0, MAP_SHARED,
 * exactly %DRM_ZEX_HOSTRPC_MAP_SIZE(nslots) bytes long, gives:
 *
 * - at %DRM_ZEX_HOSTRPC_CONTROL_OFFSET, &struct drm_zex_hostrpc_control,
 *   the same pages in every view: the doorbell flags, the summary flags,
 *   the request and answer words;
 * - at %DRM_ZEX_HOSTRPC_PRIVATE_OFFSET, &struct drm_zex_hostrpc_private of
 *   the view's side: the device side's W owner words and mirrors in every
 *   device view,
 *   the host side's T owner words in every host view. A side never maps
 *   the other's private words;
 * - at %DRM_ZEX_HOSTRPC_SLOTS_OFFSET, the N slot pages, slot i at
 *   %DRM_ZEX_HOSTRPC_SLOTS_OFFSET + i * %DRM_ZEX_HOSTRPC_PAGE_SIZE.
 *
 * The channel's own ioctls (DRM_ZEX_HOSTRPC_IOCTL_*) go to a view's file
 * descriptor. The file descriptor also reads like an eventfd: read()
 * returns, as a __u64, the number of rings delivered to the view's side
 * since the last read (blocking unless O_NONBLOCK: -EAGAIN), and poll()
 * reports EPOLLIN while that number is not zero. Device views report
 * EPOLLHUP, and their read() -EPIPE, once the channel is dead.
 *
 * mmap() must be MAP_SHARED (-EINVAL otherwise). After the device is
 * unplugged, every view ioctl, read() and new mmap() fails with -ENODEV,
 * waiters of both sides wake with -ENODEV, poll() reports EPOLLERR |
 * EPOLLHUP; existing mappings keep the channel's memory.
 *
 * Death: when the last host view is closed (every fd and mapping gone),
 * the channel is dead: @dead in the control page is set, device-side waits
 * and rings fail with -EPIPE at once. When a device view dies holding
 * slots, the kernel finishes each of its calls as the device would (the
 * owner word reads %DRM_ZEX_HOSTRPC_OWNER_ORPHAN meanwhile) and returns the
 * slot to the pool once the host is done with it. When a host view dies
 * holding T words, they are released so that another server takes over.
 */

/** DRM_ZEX_HOSTRPC_MAX_SLOTS - the most slots of a channel (hostrpc_max_slots may lower it). */
#define DRM_ZEX_HOSTRPC_MAX_SLOTS	2048
/** DRM_ZEX_HOSTRPC_PAGE_SIZE - one slot's page; the layout's unit. */
#define DRM_ZEX_HOSTRPC_PAGE_SIZE	4096
#define DRM_ZEX_HOSTRPC_CONTROL_OFFSET	0
#define DRM_ZEX_HOSTRPC_CONTROL_SIZE	20480
#define DRM_ZEX_HOSTRPC_PRIVATE_OFFSET	20480
#define DRM_ZEX_HOSTRPC_PRIVATE_SIZE	16384
#define DRM_ZEX_HOSTRPC_SLOTS_OFFSET	36864
#define DRM_ZEX_HOSTRPC_MAP_SIZE(nslots) \
	(DRM_ZEX_HOSTRPC_SLOTS_OFFSET + (__u64)(nslots) * DRM_ZEX_HOSTRPC_PAGE_SIZE)

/**
 * DRM_ZEX_HOSTRPC_MAGIC - &drm_zex_hostrpc_control.magic: the __u32
 * 0x5a585250, "ZXRP" read as a big-endian number (in memory, in the
 * host's order: the bytes "PRXZ" on a little-endian host).
 */
#define DRM_ZEX_HOSTRPC_MAGIC		0x5a585250u
/*
 * Version 2: per-slot request and answer sequence words and summary flags
 * (version 1 had G and H bitmaps, a clean-up phase and no summary).
 */
#define DRM_ZEX_HOSTRPC_VERSION		2

/** DRM_ZEX_HOSTRPC_DEAD_HOST - &drm_zex_hostrpc_control.dead: no host view is left. */
#define DRM_ZEX_HOSTRPC_DEAD_HOST	0x1u

/**
 * struct drm_zex_hostrpc_control - the words both sides share
 *
 * Slot i is the host's turn while @request[i] differs from @answer[i]: a
 * call stores @request[i] = the previous sequence + 1 (bits 0-30; bit 31
 * is the protocol's: the call's kind, Documentation/hostrpc.rst) after its
 * page, then @summary[i / 64] = 1; the host answers with @answer[i] =
 * @request[i] after the page. The kernel compares the two words for
 * equality only, keeps its own copy of @nslots and never trusts these
 * words; a side that scribbles on them breaks only its own calls.
 */
struct drm_zex_hostrpc_control {
	/** @magic: %DRM_ZEX_HOSTRPC_MAGIC. */
	__u32 magic;
	/** @version: %DRM_ZEX_HOSTRPC_VERSION. */
	__u32 version;
	/** @nslots: the number of slots. */
	__u32 nslots;
	/** @pad0: 0. */
	__u32 pad0;
	/** @map_size: %DRM_ZEX_HOSTRPC_MAP_SIZE(@nslots). */
	__u64 map_size;
	/** @pad1: rest of the first cache line. */
	__u64 pad1[5];
	/**
	 * @host_armed: 1 while a host thread wants a ring: the device side
	 * takes it (1 -> 0 by compare-and-swap) after publishing a request,
	 * and rings only when it took it. Own cache line.
	 */
	__u32 host_armed;
	/** @pad2: rest of the cache line. */
	__u32 pad2[15];
	/**
	 * @device_armed: 1 while a device-side waiter (or the kernel,
	 * finishing a dead view's calls) wants a ring: the host side takes it
	 * after an answer. Own cache line.
	 */
	__u32 device_armed;
	/** @pad3: rest of the cache line. */
	__u32 pad3[15];
	/** @dead: %DRM_ZEX_HOSTRPC_DEAD_HOST once the host side is gone. */
	__u32 dead;
	/** @pad4: rest of the cache line. */
	__u32 pad4[15];
	/**
	 * @summary: 1 in word j after a request of slots 64j..64j+63 (device
	 * side); a server stores 0 before it looks at those slots. A device
	 * side that rings orders it after the request (a sleeping host
	 * re-checks these words only); one that never rings may not, so a
	 * host serving it polls and now and then looks at every slot.
	 */
	__u32 summary[DRM_ZEX_HOSTRPC_MAX_SLOTS / 64];
	/** @pad5: to the next page. */
	__u8 pad5[4096 - 256 - DRM_ZEX_HOSTRPC_MAX_SLOTS / 16];
	/** @request: each slot's request sequence, written by the device side. */
	__u32 request[DRM_ZEX_HOSTRPC_MAX_SLOTS];
	/** @answer: each slot's answer sequence, written by the host side. */
	__u32 answer[DRM_ZEX_HOSTRPC_MAX_SLOTS];
};

/** DRM_ZEX_HOSTRPC_OWNER_ORPHAN - W of a dead device view's slot the kernel finishes. */
#define DRM_ZEX_HOSTRPC_OWNER_ORPHAN	0x1u
/** DRM_ZEX_HOSTRPC_OWNER_ID_MASK - the view id in an owner word. */
#define DRM_ZEX_HOSTRPC_OWNER_ID_MASK	0x00ffffffu
/** DRM_ZEX_HOSTRPC_OWNER_ASYNC - W flag: an async call, which any device view may collect. */
#define DRM_ZEX_HOSTRPC_OWNER_ASYNC	0x80000000u

/**
 * struct drm_zex_hostrpc_private - one side's private words
 *
 * @owner[i] is slot i's W (device views) or T (host views): 0 when free,
 * else the holder's view id (&drm_zex_hostrpc_open_view.view_id), taken by
 * compare-and-swap from 0. A device view's asynchronous call leaves W as
 * its id | %DRM_ZEX_HOSTRPC_OWNER_ASYNC, so that any device view that
 * finds no free slot can collect it once answered. @mirror[i] (device
 * views) is the last request the device side published in slot i: a slot
 * is answered when &drm_zex_hostrpc_control.answer[i] equals it.
 */
struct drm_zex_hostrpc_private {
	/** @owner: W or T of each slot. */
	__u32 owner[DRM_ZEX_HOSTRPC_MAX_SLOTS];
	/** @mirror: device views: each slot's last request; host views: 0. */
	__u32 mirror[DRM_ZEX_HOSTRPC_MAX_SLOTS];
};

/** DRM_ZEX_HOSTRPC_CLOEXEC - the new file descriptor is close-on-exec. */
#define DRM_ZEX_HOSTRPC_CLOEXEC		0x1u

/**
 * struct drm_zex_hostrpc_create - argument of DRM_IOCTL_ZEX_HOSTRPC_CREATE
 *
 * Errors: -EINVAL @nslots 0, unknown @flags, non-zero @reserved; -E2BIG
 * @nslots above the hostrpc_max_slots module parameter; -EOPNOTSUPP on a
 * kernel whose page size is not 4 KiB; -ENOSPC the calling user has
 * hostrpc_max_channels live channels (a channel lives until its last view
 * file and mapping are gone); -ENOMEM, also at the caller's memory cgroup
 * limit (the channel's memory is charged to it); -EMFILE; -EFAULT, with
 * no descriptor installed.
 */
struct drm_zex_hostrpc_create {
	/** @nslots: slots, 1 to hostrpc_max_slots (at most 2048). */
	__u32 nslots;
	/** @flags: %DRM_ZEX_HOSTRPC_CLOEXEC. */
	__u32 flags;
	/** @fd: out: the first host view. */
	__s32 fd;
	/** @view_id: out: its owner id. */
	__u32 view_id;
	/** @map_size: out: the size to mmap(). */
	__u64 map_size;
	/** @reserved: must be 0. */
	__u64 reserved[2];
};

/** DRM_ZEX_HOSTRPC_ROLE_HOST - a view of the serving side. */
#define DRM_ZEX_HOSTRPC_ROLE_HOST	0
/** DRM_ZEX_HOSTRPC_ROLE_DEVICE - a view of the calling side. */
#define DRM_ZEX_HOSTRPC_ROLE_DEVICE	1

/**
 * struct drm_zex_hostrpc_open_view - argument of DRM_ZEX_HOSTRPC_IOCTL_OPEN_VIEW
 *
 * A new view (file descriptor) of the same channel. A host view may open
 * either role, a device view only device views. Each process that calls
 * should have its own device view: the kernel finishes a view's calls when
 * the view dies. Errors: -EINVAL unknown @role or @flags, non-zero
 * @reserved; -EPERM a device view asking for a host view; -EPIPE the
 * channel is dead; -ENOSPC no view id is left.
 */
struct drm_zex_hostrpc_open_view {
	/** @role: DRM_ZEX_HOSTRPC_ROLE_*. */
	__u32 role;
	/** @flags: %DRM_ZEX_HOSTRPC_CLOEXEC. */
	__u32 flags;
	/** @fd: out: the view. */
	__s32 fd;
	/** @view_id: out: its owner id. */
	__u32 view_id;
	/** @reserved: must be 0. */
	__u64 reserved;
};

/** DRM_ZEX_HOSTRPC_INFO_DEAD - &drm_zex_hostrpc_info.flags: the channel is dead. */
#define DRM_ZEX_HOSTRPC_INFO_DEAD	0x1u

/**
 * struct drm_zex_hostrpc_info - argument of DRM_ZEX_HOSTRPC_IOCTL_INFO (all out)
 */
struct drm_zex_hostrpc_info {
	/** @nslots: the number of slots. */
	__u32 nslots;
	/** @role: this view's DRM_ZEX_HOSTRPC_ROLE_*. */
	__u32 role;
	/** @view_id: this view's owner id. */
	__u32 view_id;
	/** @flags: %DRM_ZEX_HOSTRPC_INFO_DEAD. */
	__u32 flags;
	/** @map_size: the size to mmap(). */
	__u64 map_size;
	/** @host_rings: rings delivered to the host side so far. */
	__u64 host_rings;
	/** @device_rings: rings delivered to the device side so far. */
	__u64 device_rings;
	/** @reaped: slots of dead device views returned to the pool. */
	__u64 reaped;
	/** @orphans: slots of dead device views the kernel is finishing. */
	__u32 orphans;
	/** @pad: 0. */
	__u32 pad;
};

/** DRM_ZEX_HOSTRPC_WAIT_FOREVER - &drm_zex_hostrpc_wait.timeout_ns: no timeout. */
#define DRM_ZEX_HOSTRPC_WAIT_FOREVER	0x7fffffffffffffffll

/**
 * struct drm_zex_hostrpc_wait - argument of DRM_ZEX_HOSTRPC_IOCTL_WAIT
 *
 * Sleep until the view's side has something to do, arming the other
 * side's doorbell and re-checking first, so no ring can be lost. A device
 * view waits until slot @slot's answer word differs from @value (the
 * answer it read last: the host answered since). A host view waits until
 * some summary flag is set (@slot and @value must be 0). Errors: -EINVAL
 * @slot out of range, @flags or @pad not 0; -ETIME @timeout_ns passed;
 * -EPIPE (device views) the channel is dead; -EINTR a signal.
 */
struct drm_zex_hostrpc_wait {
	/** @slot: device views: the slot. */
	__u32 slot;
	/** @value: device views: wait while the slot's answer word equals it. */
	__u32 value;
	/** @flags: must be 0. */
	__u32 flags;
	/** @pad: must be 0. */
	__u32 pad;
	/** @timeout_ns: absolute CLOCK_MONOTONIC, or %DRM_ZEX_HOSTRPC_WAIT_FOREVER. */
	__s64 timeout_ns;
};

/**
 * struct drm_zex_hostrpc_eventfd - argument of DRM_ZEX_HOSTRPC_IOCTL_SET_EVENTFD
 *
 * Every ring delivered to the view's side also signals @fd (an eventfd),
 * so a server fits an epoll loop; -1 unregisters. One eventfd per view.
 * Errors: -EINVAL unknown @flags, non-zero @reserved, @fd not an eventfd;
 * -EBADF @fd not open.
 */
struct drm_zex_hostrpc_eventfd {
	/** @fd: an eventfd, or -1. */
	__s32 fd;
	/** @flags: must be 0. */
	__u32 flags;
	/** @reserved: must be 0. */
	__u64 reserved;
};

/*
 * The channel file's ioctls. RING delivers a ring to the other side: the
 * host side's waiters, poll()/read() and eventfds for a device view's
 * ring, the device side's for a host view's (-EPIPE from a device view of
 * a dead channel).
 */
#define DRM_ZEX_HOSTRPC_IOCTL_INFO \
	_IOR('Z', 0x40, struct drm_zex_hostrpc_info)
#define DRM_ZEX_HOSTRPC_IOCTL_OPEN_VIEW \
	_IOWR('Z', 0x41, struct drm_zex_hostrpc_open_view)
#define DRM_ZEX_HOSTRPC_IOCTL_RING		_IO('Z', 0x42)
#define DRM_ZEX_HOSTRPC_IOCTL_WAIT \
	_IOW('Z', 0x43, struct drm_zex_hostrpc_wait)
#define DRM_ZEX_HOSTRPC_IOCTL_SET_EVENTFD \
	_IOW('Z', 0x44, struct drm_zex_hostrpc_eventfd)

#if defined(__cplusplus)
}
#endif

#endif /* _UAPI_ZEX_DRM_H_ */
