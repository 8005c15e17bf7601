/* SPDX-License-Identifier: MIT */
/*
 * Copyright © 2026 The zex authors
 */

/*
 * DOC: l0.h - libzex's Level Zero objects
 *
 * One driver (the zex device found at zeInit), one root device and one
 * sub-device per tile, contexts, and the allocation table. Handles given
 * to applications point at these structs. Each starts with the DDI header
 * (&ze_handle_t, see <zex/zex_ddi.h>); none carries a magic: a handle is
 * libzex's when its address is one of libzex's objects of that type
 * (l0_handles.c; the pools of object_pool.c), so a foreign handle is
 * refused without reading it, and one the loader wrapped (its intercept
 * mode) is translated back.
 */

#ifndef ZEX_L0_H
#define ZEX_L0_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>

#include "zex/zex.h"
#include "zex/zex_api.h"
#include "zex/zex_exec.h"
#include "core/debug_keys.h"
#include "compute/spirv.h"
#include "core/device_hierarchy.h"
#include "l0/base/alloc_table.h"
#include "l0/base/ddi_header.h"
#include "l0/base/object_pool.h"



struct zex_l0_driver;
struct zex_compute_engine;
struct zex_program;
struct zex_kernel;
struct zex_l0_launch;
struct zex_l0_compute;

/** A root device (@tile -1) or one tile (sub-device). */
struct zex_l0_device {
	ze_handle_t ddi;
	struct zex_l0_driver *drv;
	int tile;
};

/** A context, in zex_l0_contexts. */
struct zex_l0_context {
	struct zex_l0_object obj;
	struct zex_l0_driver *drv;
};

/**
 * struct zex_l0_submission - what a submitted job reaches, held until its
 *	timeline point has signalled: host memory imported for it, and the
 *	launches its LAUNCH commands name (a list destroyed or reset meanwhile
 *	does not free them under the engine)
 * @point: the point.
 * @num_imports: imports in @imports.
 * @imports: their ids.
 * @num_launches: launches in @launches.
 * @launches: one reference to each.
 * @next: the next younger submission.
 */
struct zex_l0_launch;

struct zex_l0_submission {
	uint64_t point;
	uint32_t num_imports;
	uint32_t *imports;
	uint32_t num_launches;
	struct zex_l0_launch **launches;
	struct zex_l0_submission *next;
};

/**
 * struct zex_l0_cmdqueue - a command queue: one kernel exec queue
 * @obj: the handle.
 * @drv: the driver.
 * @device: the device it was created on.
 * @ordinal: its queue group.
 * @index: its queue in the group.
 * @mode: synchronous or not.
 * @exec_queue: the kernel's exec queue.
 * @timeline: a timeline sync object: submission N signals point N.
 * @lock: submissions, in order.
 * @submitted: the last point submitted.
 * @oldest, @youngest: submissions holding imports, oldest first.
 * @scratch: a page of its own in the device's address space, where a
 *	submission of no command stores; on a queue that runs kernels, where
 *	its long-running jobs store their points and launches are published.
 * @scratch_id: its import.
 * @compute: the queue's kernel half, once it ran a launch (l0_compute.c):
 *	a long-running exec queue and the threads that serve its launches.
 * @lr_from: the first point submitted to @compute's queue (0: none); the
 *	points before it are @timeline's.
 * @launches: the launches submitted to @compute's queue: the last one's
 *	number there.
 * @self_served: a synchronous immediate list's queue: the appending
 *	thread, which waits for its launches anyway, runs their first tile's
 *	parts itself, and that tile has no serving thread.
 * @ordinary_clean: @exec_queue was found not banned after its last job
 *	ran (a point of @compute's reached): it takes no more jobs, so a wait
 *	need not ask again.
 * @serial: its number among the driver's queues, never reused (0: not
 *	among the live ones yet); @live_prev, @live_next: its place there.
 * @pins: waits for its points by others than its own users
 *	(l0_queue_registry.c): it is not torn down while any is under way.
 * @counter: its count of signals of counter-based events, taken at the
 *	first (l0_event_counter.c), given back as it ends; under @lock.
 */
struct zex_l0_cmdqueue {
	struct zex_l0_object obj;
	struct zex_l0_driver *drv;
	struct zex_l0_device *device;
	uint32_t ordinal;
	uint32_t index;
	ze_command_queue_mode_t mode;
	uint32_t exec_queue;
	uint32_t timeline;
	pthread_mutex_t lock;
	uint64_t submitted;
	struct zex_l0_submission *oldest, *youngest;
	void *scratch;
	uint32_t scratch_id;
	struct zex_l0_compute *compute;
	uint64_t lr_from;
	uint64_t launches;
	bool self_served;
	bool ordinary_clean;
	uint64_t serial;
	struct zex_l0_cmdqueue *live_prev, *live_next;
	uint32_t pins;
	struct zex_l0_counter *counter;
};

/**
 * struct zex_l0_cmdlist - a command list: the kernel's commands, recorded
 * @obj: the handle.
 * @drv: the driver.
 * @device: the device it was created on.
 * @ordinal: the queue group it may run on.
 * @immediate: an immediate list: each append runs at once on @queue.
 * @closed: a regular list was closed (and may run).
 * @lock: the recorded commands.
 * @cmds: the commands.
 * @num_cmds: commands in @cmds.
 * @cap: room in @cmds.
 * @queue: an immediate list's own queue (not in the queues' pool).
 * @launches: a regular list's launches, which its commands name
 *	(l0_launch.c), newest first.
 */
struct zex_l0_cmdlist {
	struct zex_l0_object obj;
	struct zex_l0_driver *drv;
	struct zex_l0_device *device;
	uint32_t ordinal;
	bool immediate;
	bool closed;
	pthread_mutex_t lock;
	struct drm_zex_command *cmds;
	uint32_t num_cmds, cap;
	struct zex_l0_cmdqueue *queue;
	struct zex_l0_launch *launches;
};

/**
 * struct zex_l0_fence - a fence: a point of one queue's timeline
 * @obj: the handle.
 * @queue: the queue.
 * @point: the point it waits for; 0 before an execution names it.
 */
struct zex_l0_fence {
	struct zex_l0_object obj;
	struct zex_l0_cmdqueue *queue;
	_Atomic uint64_t point;
};

/*
 * What an event is in its pool's memory (64 bytes each, bound in the
 * device's address space): its state, then its kernel timestamps.
 */
struct zex_l0_event_slot {
	uint64_t state;				/* ZEX_EVENT_SIGNALED or 0 */
	ze_kernel_timestamp_result_t ts;	/* global, then context */
	uint64_t pad[3];
};

#define ZEX_EVENT_SIGNALED	1ull

/**
 * struct zex_l0_event_pool - events' memory
 * @obj: the handle.
 * @drv: the driver.
 * @flags: its creation flags.
 * @count: its events.
 * @slots: the events' memory: a buffer object on tile 0, mapped and bound.
 * @lock: @used.
 * @used: one byte per index: an event was created there and not destroyed.
 * @opened: the pool was opened from another process's IPC handle (its
 *	memory is that pool's); closed with zeEventPoolCloseIpcHandle().
 * @counter_based: its events are counter-based (made with
 *	ze_event_pool_counter_based_exp_desc_t).
 * @next_cb: a pool of counter-based events' slots: the next of its kind
 *	(struct zex_l0_cb_slots).
 * @num_used: events in it (under @lock).
 * @refs: the handle's hold and one per event not destroyed: a pool
 *	destroyed before its events (which the specification forbids, and
 *	programs do) keeps its memory until the last of them goes.
 * @destroyed: the handle is gone (refused from then on).
 */
struct zex_l0_event_pool {
	struct zex_l0_object obj;
	struct zex_l0_driver *drv;
	ze_event_pool_flags_t flags;
	uint32_t count;
	struct zex_l0_event_slot *slots;
	pthread_mutex_t lock;
	uint8_t *used;
	bool opened;
	bool counter_based;
	struct zex_l0_event_pool *next_cb;
	uint32_t num_used;
	atomic_uint refs;
	atomic_bool destroyed;
};

/**
 * struct zex_l0_event - an event: one slot of its pool
 * @obj: the handle.
 * @pool: the pool (for zeEventCounterBasedCreate's, one of the driver's).
 * @index: the slot.
 * @slot: its memory.
 * @counter_based: made by zeEventCounterBasedCreate, or in a counter-based
 *	pool (its state is its last signal's: l0_event_counter.c).
 * @tracked: a counter-based event: the counter of the queue that last
 *	took it to signal (l0_event_counter.c), NULL before; under the
 *	driver's counters' lock.
 * @tracked_value: the value that counter reaches as that signal happens.
 */
struct zex_l0_event {
	struct zex_l0_object obj;
	struct zex_l0_event_pool *pool;
	uint32_t index;
	struct zex_l0_event_slot *slot;
	bool counter_based;
	uint64_t *tracked;
	uint64_t tracked_value;
};

/**
 * struct zex_l0_counter - a queue's count of its signals of counter-based
 *	events, in memory both sides see (l0_event_counter.c)
 * @next: the next free counter.
 * @word: the value the queue's jobs have reached (raised by their STOREs).
 * @last: the last value given to a signal.
 */
struct zex_l0_counter {
	struct zex_l0_counter *next;
	uint64_t *word;
	uint64_t last;
};

/**
 * struct zex_l0_counters - the driver's counters not in a queue's use
 * @lock: @free, and every counter-based event's tracking.
 * @free: counters a queue gave back; they are never unmapped, so that a
 *	wait recorded for one stays valid, and keep counting up.
 */
struct zex_l0_counters {
	pthread_mutex_t lock;
	struct zex_l0_counter *free;
};

/* The kinds of timestamps a counter-based event keeps: none, device, host. */
#define ZEX_L0_CB_SLOT_KINDS	3

/**
 * struct zex_l0_cb_slots - the slots of counter-based events made by
 *	zeEventCounterBasedCreate (l0_event.c)
 * @lock: the lists, and the slots' use in their pools.
 * @pools: per kind of timestamps, the driver's pools the events take a
 *	slot of (a page of slots each, never freed), newest first.
 */
struct zex_l0_cb_slots {
	pthread_mutex_t lock;
	struct zex_l0_event_pool *pools[ZEX_L0_CB_SLOT_KINDS];
};

/**
 * struct zex_l0_physical_mem - a physical memory object (zePhysicalMemCreate)
 * @obj: the handle.
 * @drv: the driver.
 * @device: the device whose memory it is; NULL for host memory.
 * @handle: device memory: its buffer object.
 * @memfd: host memory: its memfd; -1 for device memory.
 * @size: the size the application asked for.
 * @object_size: the buffer object's size (@size, or more when colouring
 *	rounds it up); @size for host memory.
 * @mappings: how many mappings of it exist (l0_virtual.c, under its lock).
 * @export: the object exported by its handle passed as a pointer to
 *	zeMemGetIpcHandle() (an allocation outside the table, with one
 *	reference of the object's); NULL before. Under the driver's ipc_lock.
 */
struct zex_l0_physical_mem {
	struct zex_l0_object obj;
	struct zex_l0_driver *drv;
	struct zex_l0_device *device;
	uint32_t handle;
	int memfd;
	uint64_t size;
	uint64_t object_size;
	uint32_t mappings;
	uint64_t id;	/* zePhysicalMemGetProperties(): unique in the process */
	struct zex_alloc *export;
};

/**
 * struct zex_l0_module - a module: a SPIR-V module the engine built
 * @obj: the handle.
 * @drv: the driver.
 * @device: the device it was built for.
 * @program: the engine's program.
 * @num_kernels: its kernels.
 * @kernels: their names and required group sizes (spirv.c).
 */
struct zex_l0_module {
	struct zex_l0_object obj;
	struct zex_l0_driver *drv;
	struct zex_l0_device *device;
	struct zex_program *program;
	uint32_t num_kernels;
	struct zex_spirv_kernel *kernels;
};

/** struct zex_l0_build_log - a module build's messages */
struct zex_l0_build_log {
	struct zex_l0_object obj;
	char *text;
};

/**
 * struct zex_l0_kernel - a kernel: the engine's, with the arguments and
 *	group size the next launch takes
 * @obj: the handle.
 * @module: its module.
 * @kernel: the engine's kernel.
 * @spirv: its entry in the module (name, required group size).
 * @lock: everything below (set by one thread, captured by appends).
 * @num_args: its arguments.
 * @args: how each is passed, its size.
 * @values: the arguments' bytes as set; @offsets into it.
 * @sizes: each argument's size as set (local memory: the size asked for).
 * @set: which arguments were set.
 * @group_size: the group size set (1, 1, 1 until set).
 * @global_offset: zeKernelSetGlobalOffsetExp's.
 * @indirect: zeKernelSetIndirectAccess's flags.
 */
struct zex_l0_kernel {
	struct zex_l0_object obj;
	struct zex_l0_module *module;
	struct zex_kernel *kernel;
	const struct zex_spirv_kernel *spirv;
	pthread_mutex_t lock;
	uint32_t num_args;
	const struct zex_spirv_arg *args;
	unsigned char *values;
	uint32_t *offsets;
	uint32_t *sizes;
	bool *set;
	uint32_t group_size[3];
	uint32_t global_offset[3];
	ze_kernel_indirect_access_flags_t indirect;
};

struct zex_l0_vmapping;

/**
 * struct zex_l0_virtual - reserved address ranges and their mappings
 * @lock: everything below.
 * @reservations: [start, end) pairs, sorted, disjoint; @num_reserved pairs.
 * @maps: the mappings, sorted by address; @num_maps of them.
 * @cap_reserved, @cap_maps: room in the arrays.
 */
struct zex_l0_virtual {
	pthread_mutex_t lock;
	uintptr_t (*reservations)[2];
	size_t num_reserved, cap_reserved;
	struct zex_l0_vmapping **maps;
	size_t num_maps, cap_maps;
	uint64_t physical_ids;	/* the last zePhysicalMemCreate()'s id */
};

/**
 * struct zex_l0_host_imports - host memory the application registered (l0_host_import.c)
 * @lock: guards the array.
 * @ranges: each registration: the application's range and its import's
 *	id, sorted by address, none overlapping.
 * @num, @cap: registrations (stored atomically: zex_l0_host_import_covers()
 *	reads @num without the lock, to skip it while none exist), and room.
 */
struct zex_l0_host_imports {
	pthread_mutex_t lock;
	struct zex_l0_host_import {
		uintptr_t base;
		uint64_t size;
		uint32_t import_id;
	} *ranges;
	size_t num, cap;
};

bool zex_l0_host_import_covers(struct zex_l0_driver *drv, uintptr_t addr, uint64_t len);

/* The pools of each object type (l0_handles.c). */
extern struct zex_object_pool zex_l0_contexts;
extern struct zex_object_pool zex_l0_cmdqueues;
extern struct zex_object_pool zex_l0_cmdlists;
extern struct zex_object_pool zex_l0_fences;
extern struct zex_object_pool zex_l0_event_pools;
extern struct zex_object_pool zex_l0_events;
extern struct zex_object_pool zex_l0_physical_mems;
extern struct zex_object_pool zex_l0_modules;
extern struct zex_object_pool zex_l0_build_logs;
extern struct zex_object_pool zex_l0_kernels;

/**
 * struct zex_l0_queue_registry - the driver's live queues (l0_queue_registry.c)
 * @lock: the list, every queue's @pins, @next_serial.
 * @unpinned: signalled when a queue's @pins drops to 0.
 * @head: the queues, newest first.
 * @next_serial: the next queue's serial.
 */
struct zex_l0_queue_registry {
	pthread_mutex_t lock;
	pthread_cond_t unpinned;
	struct zex_l0_cmdqueue *head;
	uint64_t next_serial;
};

/**
 * struct zex_l0_deferred_frees - allocations freed with a deferred policy,
 *	held until the work submitted before the free has run (l0/free)
 * @lock: the list.
 * @head: the oldest entry; each entry holds its allocation's last reference.
 */
struct zex_l0_deferred_free;

struct zex_l0_deferred_frees {
	pthread_mutex_t lock;
	struct zex_l0_deferred_free *head;
};

struct zex_l0_driver {
	ze_handle_t ddi;
	struct zex_device *dev;
	struct zex_topology topo;
	struct zex_debug_keys keys;
	struct zex_visible_devices visible;
	struct zex_l0_device root;
	struct zex_l0_device tiles[ZEX_MAX_TILES];
	struct zex_alloc_table allocs;
	pthread_mutex_t ipc_lock;	/* every allocation's ipc_* fields */
	pthread_mutex_t waker_lock;	/* @waker */
	struct zex_l0_cmdqueue *waker;	/* runs the jobs that wake waiters */
	struct zex_l0_virtual virt;	/* zeVirtualMem* (l0_virtual.c) */
	struct zex_l0_host_imports host_imports;	/* zexDriverImportExternalPointer */
	struct zex_l0_queue_registry queues;	/* every live queue */
	struct zex_l0_deferred_frees deferred;	/* zeMemFreeExt's deferred frees */
	struct zex_l0_context *default_context;	/* zeDriverGetDefaultContext's, at its first call */
	struct zex_l0_counters counters;	/* for counter-based events (l0_event_counter.c) */
	struct zex_l0_cb_slots cb_slots;	/* counter-based events' slots (l0_event.c) */
	pthread_mutex_t engine_lock;	/* the four below */
	bool engine_tried;		/* opened once, at the first need */
	struct zex_compute_engine *engine;	/* the compute engine, or NULL */
	char engine_why[256];		/* why there is none, for the last error */
};

/** What an allocation table entry is; one bit each, for removal masks. */
enum zex_alloc_kind {
	ZEX_ALLOC_DEVICE = 1,		/* zeMemAllocDevice */
	ZEX_ALLOC_IPC = 2,		/* zeMemOpenIpcHandle(s) */
	ZEX_ALLOC_HOST = 4,		/* zeMemAllocHost */
	ZEX_ALLOC_HOST_IMPORTED = 8,	/* zeMemAllocHost + external memmap */
	ZEX_ALLOC_SHARED = 16,		/* zeMemAllocShared */
	ZEX_ALLOC_EVENTS = 32,		/* an event pool's slots */
	ZEX_ALLOC_VIRTUAL_DEVICE = 64,	/* zeVirtualMemMap of device memory */
	ZEX_ALLOC_VIRTUAL_HOST = 128,	/* zeVirtualMemMap of host memory */
	ZEX_ALLOC_IPC_HOST = 256,	/* zeMemOpenIpcHandle of host memory */
};

/**
 * zex_l0_stype_ok - whether a descriptor's or properties' stype says what the call takes
 * @stype: the structure's.
 * @expected: what the call takes.
 *
 * A structure that is the type, or whose stype was left 0 (no type has
 * that value: a zero-initialised structure, which compute-runtime takes
 * and runtimes such as UCX pass); any other type is refused.
 */
static inline bool zex_l0_stype_ok(ze_structure_type_t stype, ze_structure_type_t expected)
{
	return stype == expected || stype == (ze_structure_type_t)0;
}

struct zex_l0_driver *zex_l0_driver_get(void);

/** zex_l0_visible_count - how many tiles the process sees (ZE_AFFINITY_MASK) */
static inline uint32_t zex_l0_visible_count(const struct zex_l0_driver *drv)
{
	return (uint32_t)__builtin_popcount(drv->visible.tile_mask);
}

/**
 * zex_l0_root_tile - the tile the root device is, or -1 when it spans them
 * @drv: the driver.
 *
 * The root device spans every tile with implicit scaling (the kernel's, and
 * EnableImplicitScaling not 0) when the process sees every tile; otherwise
 * it is the first tile the process sees.
 */
static inline int zex_l0_root_tile(const struct zex_l0_driver *drv)
{
	if (drv->topo.implicit_scaling && drv->keys.enable_implicit_scaling != 0 &&
	    zex_l0_visible_count(drv) == drv->topo.num_tiles)
		return -1;
	return drv->visible.tile_mask ? __builtin_ctz(drv->visible.tile_mask) : 0;
}

/* A device's command queue groups: compute, then copy (zex_l0_queue_groups()). */
#define ZEX_L0_MAX_QUEUE_GROUPS	2
/*
 * The longest fill pattern of every group: longer than the kernel's FILL
 * (DRM_ZEX_FILL_MAX_PATTERN), it is written by FILLs of its pieces and
 * copies that double it (l0_cmdlist.c).
 */
#define ZEX_L0_FILL_MAX_PATTERN	256u

/** One command queue group: the engines of one class a device has. */
struct zex_l0_queue_group {
	ze_command_queue_group_property_flags_t flags;
	uint16_t engine_class;	/* DRM_ZEX_ENGINE_CLASS_* */
	uint16_t device;	/* the kernel's device: a tile or ZEX_DEVICE_ROOT */
	uint32_t num_queues;
};

uint32_t zex_l0_queue_groups(const struct zex_l0_device *dev,
			     struct zex_l0_queue_group *groups);
void zex_l0_handles_register(struct zex_l0_driver *drv);
struct zex_l0_driver *zex_l0_driver(ze_driver_handle_t h);
struct zex_l0_context *zex_l0_context(ze_context_handle_t h);
struct zex_l0_device *zex_l0_device(ze_device_handle_t h);
ze_result_t zex_l0_device_properties(const struct zex_l0_device *dev, ze_device_properties_t *p);

/* The tiles @dev's work spans: its own for a tile, every tile for the root device. */
static inline uint32_t zex_l0_device_tiles(const struct zex_l0_device *dev)
{
	return dev->tile >= 0 ? 1 : dev->drv->topo.num_tiles;
}
struct zex_l0_cmdqueue *zex_l0_cmdqueue(ze_command_queue_handle_t h);
struct zex_l0_cmdlist *zex_l0_cmdlist(ze_command_list_handle_t h);
struct zex_l0_fence *zex_l0_fence(ze_fence_handle_t h);
struct zex_l0_event_pool *zex_l0_event_pool(ze_event_pool_handle_t h);
struct zex_l0_event *zex_l0_event(ze_event_handle_t h);
struct zex_l0_physical_mem *zex_l0_physical_mem(ze_physical_mem_handle_t h);
struct zex_alloc *zex_l0_physical_export_locked(struct zex_l0_driver *drv, const void *ptr,
						bool create);
struct zex_l0_module *zex_l0_module(ze_module_handle_t h);
struct zex_l0_build_log *zex_l0_build_log(ze_module_build_log_handle_t h);
struct zex_l0_kernel *zex_l0_kernel(ze_kernel_handle_t h);
int zex_l0_map_new(struct zex_l0_driver *drv, uint32_t handle, uint64_t size,
		   uint64_t alignment, enum zex_alloc_kind kind,
		   struct zex_l0_device *device, void **pptr);
int zex_l0_host_map_fd(struct zex_l0_driver *drv, int fd, uint64_t size,
		       struct zex_l0_device *device, void **pptr);
ze_result_t zex_l0_import_fd(struct zex_l0_driver *drv, const void *pNext, uint32_t *handle,
			     uint64_t *size);
ze_result_t zex_l0_map_imported(struct zex_l0_driver *drv, uint32_t handle, uint64_t real_size,
				uint64_t size, uint64_t alignment, enum zex_alloc_kind kind,
				struct zex_l0_device *device, void **pptr);
ze_result_t zex_l0_map_import(struct zex_l0_driver *drv, const void *pNext, uint64_t size,
			      uint64_t alignment, enum zex_alloc_kind kind,
			      struct zex_l0_device *device, void **pptr);
int zex_l0_device_bo_create(struct zex_l0_driver *drv, const struct zex_l0_device *dev,
			    uint64_t size, uint32_t *handle, uint64_t *real_size);
ze_result_t zex_l0_bo_create_result(int err);
ze_result_t zex_l0_fail(ze_result_t res, const char *why);
ze_result_t zex_l0_release_alloc(ze_context_handle_t hContext, const void *ptr,
				 int kinds);
int zex_l0_release_alloc_kind(struct zex_l0_driver *drv, const void *ptr, int kinds);

#endif /* ZEX_L0_H */
