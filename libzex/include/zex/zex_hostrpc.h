/* SPDX-License-Identifier: MIT */
/*
 * Copyright © 2026 The zex authors
 */

/*
 * DOC: zex/zex_hostrpc.h - hostrpc channels through the zex kernel driver
 *
 * A channel is N slots of one 4 KiB page shared by a calling "device" side
 * and a serving "host" side (seed 003; Documentation/hostrpc.rst). Each
 * &struct zex_hostrpc is one view of a channel: its own file descriptor
 * and mapping, acting for one side. The creator gets a host view; it opens
 * device views for callers, which pass them to other processes (fork,
 * SCM_RIGHTS) where zex_hostrpc_adopt() takes them over. A process that
 * calls should hold its own device view: when it dies the kernel finishes
 * its calls and returns its slots.
 *
 * Threads of one process share a view. Every function returns 0 (or a
 * count) or a negative errno; -EPIPE means the host side is gone.
 */

#ifndef ZEX_ZEX_HOSTRPC_H
#define ZEX_ZEX_HOSTRPC_H

#include <stdint.h>

#include "zex/zex.h"
#include "zex/zex_hostrpc_kernel.h"

#ifdef __cplusplus
extern "C" {
#endif

/** One slot's page: 64 cache lines of 8 words, as seed 003's page_t. */
struct zex_hostrpc_page {
	struct {
		uint64_t element[8];
	} cacheline[64];
};

/* fill, use (device side), operate (host side). */
typedef void (*zex_hostrpc_page_fn)(struct zex_hostrpc_page *page, void *ctx);

enum zex_hostrpc_role {
	ZEX_HOSTRPC_HOST = 0,
	ZEX_HOSTRPC_DEVICE = 1,
};

/** What the kernel and this view counted. */
struct zex_hostrpc_stats {
	uint64_t host_rings;	/* rings delivered to the host side (kernel) */
	uint64_t device_rings;	/* rings delivered to the device side (kernel) */
	uint64_t reaped;	/* slots of dead device views returned (kernel) */
	uint32_t orphans;	/* slots of dead device views in progress (kernel) */
	uint32_t dead;		/* the host side is gone */
	uint64_t rings_sent;	/* ring syscalls this view made */
};

struct zex_hostrpc;

/*
 * A view's memory: the control page, one side's private words, then the
 * slot pages (the layout of the zex uapi's hostrpc mapping).
 */
#define ZEX_HOSTRPC_PRIVATE_AT		20480
#define ZEX_HOSTRPC_SLOTS_AT		36864
#define ZEX_HOSTRPC_REGION_SIZE(nslots)	(ZEX_HOSTRPC_SLOTS_AT + (uint64_t)(nslots) * 4096)

/**
 * struct zex_hostrpc_layout - where a view's shared words are
 *
 * What a device-side runtime needs to make calls from its own device (a
 * GPU): it registers @region with its runtime and translates these
 * addresses. @request and @answer have one word per slot, @summary one
 * per 64 slots.
 */
struct zex_hostrpc_layout {
	void *region;
	uint64_t region_size;
	uint32_t *request;		/* written by the device side */
	uint32_t *answer;		/* written by the host side */
	uint32_t *summary;		/* set by the device side, cleared by the host */
	uint32_t *host_armed;
	uint32_t *device_armed;
	uint32_t *dead;
	struct zex_hostrpc_page *pages;
	uint32_t nslots;
};

ZEX_PUBLIC int zex_hostrpc_create(struct zex_device *dev, uint32_t nslots,
				  struct zex_hostrpc **out);
ZEX_PUBLIC int zex_hostrpc_open_view(struct zex_hostrpc *ch, enum zex_hostrpc_role role,
				     struct zex_hostrpc **out);
ZEX_PUBLIC int zex_hostrpc_adopt(int fd, struct zex_hostrpc **out);
ZEX_PUBLIC void zex_hostrpc_close(struct zex_hostrpc *ch);
ZEX_PUBLIC int zex_hostrpc_fd(const struct zex_hostrpc *ch);
ZEX_PUBLIC uint32_t zex_hostrpc_slots(const struct zex_hostrpc *ch);
ZEX_PUBLIC int zex_hostrpc_stats(struct zex_hostrpc *ch, struct zex_hostrpc_stats *stats);
ZEX_PUBLIC int zex_hostrpc_layout(const struct zex_hostrpc *ch, struct zex_hostrpc_layout *out);
/* The host side of a channel in the caller's memory (no zex.ko): polling. */
ZEX_PUBLIC int zex_hostrpc_attach_memory(void *region, size_t size, uint32_t nslots,
					 struct zex_hostrpc **out);

/* Device side. */
ZEX_PUBLIC int zex_hostrpc_kernel_view(const struct zex_hostrpc *ch,
				       struct zex_hostrpc_kernel_view *out);
ZEX_PUBLIC int zex_hostrpc_set_spin(struct zex_hostrpc *ch, uint32_t polls);
ZEX_PUBLIC int zex_hostrpc_call(struct zex_hostrpc *ch, uint32_t hint, zex_hostrpc_page_fn fill,
				zex_hostrpc_page_fn use, void *ctx);
ZEX_PUBLIC int zex_hostrpc_call_async(struct zex_hostrpc *ch, uint32_t hint,
				      zex_hostrpc_page_fn fill, void *ctx);
ZEX_PUBLIC int zex_hostrpc_collect(struct zex_hostrpc *ch);

/* Host side. */
ZEX_PUBLIC int zex_hostrpc_serve(struct zex_hostrpc *ch, zex_hostrpc_page_fn operate,
				 void *ctx);
ZEX_PUBLIC int zex_hostrpc_arm(struct zex_hostrpc *ch);
ZEX_PUBLIC int zex_hostrpc_wait(struct zex_hostrpc *ch, int64_t timeout_ns);
ZEX_PUBLIC int zex_hostrpc_set_eventfd(struct zex_hostrpc *ch, int efd);

#ifdef __cplusplus
}
#endif

#endif /* ZEX_ZEX_HOSTRPC_H */
