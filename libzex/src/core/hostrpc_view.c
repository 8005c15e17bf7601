// SPDX-License-Identifier: MIT
/*
 * Copyright © 2026 The zex authors
 */

/*
 * DOC: hostrpc_view.c - the protocol core behind a hostrpc view
 *
 * What a view does whatever gave it its memory: binds the core to the
 * region (control page, private words, slot pages), makes calls on a
 * device view, serves them on a host view, tells a device runtime where
 * the shared words are, and closes.
 */

#include <errno.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "core/hostrpc_view.h"

void zex_hostrpc_view_bind(struct zex_hostrpc *ch, hostrpc_ring_fn ring, hostrpc_wait_fn wait)
{
	char *control = ch->map;
	char *priv = control + ZEX_HOSTRPC_PRIVATE_AT;
	struct hostrpc_shared sh = {
		.request = (hr_u32_t *)(control + ZEX_HOSTRPC_CONTROL_REQUEST),
		.answer = (hr_u32_t *)(control + ZEX_HOSTRPC_CONTROL_ANSWER),
		.summary = (hr_u32_t *)(control + ZEX_HOSTRPC_CONTROL_SUMMARY),
		.host_armed = (hr_u32_t *)(control + ZEX_HOSTRPC_CONTROL_HOST_ARMED),
		.device_armed = (hr_u32_t *)(control + ZEX_HOSTRPC_CONTROL_DEVICE_ARMED),
		.dead = (hr_u32_t *)(control + ZEX_HOSTRPC_CONTROL_DEAD),
		.pages = (hostrpc_page_t *)(control + ZEX_HOSTRPC_SLOTS_AT),
		.nslots = ch->nslots,
	};

	ch->wait = wait;
	if (ch->role == ZEX_HOSTRPC_DEVICE)
		ch->client = (struct hostrpc_client){
			.sh = sh, .W = (hr_own_t *)(priv + ZEX_HOSTRPC_PRIVATE_OWNER),
			.M = (hr_own_t *)(priv + ZEX_HOSTRPC_PRIVATE_MIRROR),
			.id = ch->view_id, .ring = ring, .ring_ctx = ch,
			.wait = wait, .wait_ctx = ch,
		};
	else
		ch->server = (struct hostrpc_server){
			.sh = sh, .T = (hr_own_t *)(priv + ZEX_HOSTRPC_PRIVATE_OWNER),
			.id = ch->view_id, .ring = ring, .ring_ctx = ch,
		};
}

/**
 * zex_hostrpc_close - unmap and close a view
 * @ch: the view, or NULL. A view of the caller's memory leaves the memory
 *	alone.
 */
void zex_hostrpc_close(struct zex_hostrpc *ch)
{
	if (!ch)
		return;
	if (ch->fd >= 0) {
		munmap(ch->map, ch->map_size);
		close(ch->fd);
	}
	free(ch);
}

/* The view's file descriptor; -1 for a view of the caller's memory. */
int zex_hostrpc_fd(const struct zex_hostrpc *ch)
{
	return ch->fd;
}

uint32_t zex_hostrpc_slots(const struct zex_hostrpc *ch)
{
	return ch->nslots;
}

/**
 * zex_hostrpc_layout - where a view's shared words and pages are
 * @ch: a view.
 * @out: filled with addresses in this process (a device runtime translates
 *	them, e.g. with cudaHostGetDevicePointer() after registering the
 *	mapping).
 *
 * Return: 0.
 */
int zex_hostrpc_layout(const struct zex_hostrpc *ch, struct zex_hostrpc_layout *out)
{
	/* What zex_hostrpc_view_bind() pointed the core at. */
	const struct hostrpc_shared *sh = ch->role == ZEX_HOSTRPC_DEVICE ? &ch->client.sh :
									&ch->server.sh;

	*out = (struct zex_hostrpc_layout){
		.region = ch->map,
		.region_size = ZEX_HOSTRPC_REGION_SIZE(ch->nslots),
		.request = (uint32_t *)sh->request,
		.answer = (uint32_t *)sh->answer,
		.summary = (uint32_t *)sh->summary,
		.host_armed = (uint32_t *)sh->host_armed,
		.device_armed = (uint32_t *)sh->device_armed,
		.dead = (uint32_t *)sh->dead,
		.pages = (struct zex_hostrpc_page *)sh->pages,
		.nslots = ch->nslots,
	};
	return 0;
}

/**
 * zex_hostrpc_kernel_view - what a zex kernel needs to call through a device view
 * @ch: a device view, mapped in this process.
 * @out: the addresses of its words (this process's: a zex kernel runs in it).
 *
 * The kernel's calls act for @ch (its owner id), as the process's threads
 * do; they poll, so the host side must serve by polling.
 *
 * Return: 0, -EINVAL for a host view.
 */
int zex_hostrpc_kernel_view(const struct zex_hostrpc *ch, struct zex_hostrpc_kernel_view *out)
{
	const struct hostrpc_client *c = &ch->client;

	if (ch->role != ZEX_HOSTRPC_DEVICE)
		return -EINVAL;
	*out = (struct zex_hostrpc_kernel_view){
		.request = (uintptr_t)c->sh.request,
		.answer = (uintptr_t)c->sh.answer,
		.summary = (uintptr_t)c->sh.summary,
		.dead = (uintptr_t)c->sh.dead,
		.pages = (uintptr_t)c->sh.pages,
		.owner = (uintptr_t)c->W,
		.mirror = (uintptr_t)c->M,
		.nslots = c->sh.nslots,
		.id = c->id,
	};
	return 0;
}

/* The caller's page functions, called through the core's signature. */
struct zex_hostrpc_fns {
	zex_hostrpc_page_fn first, second;
	void *ctx;
};

static void call_first(hostrpc_page_t *page, void *fns)
{
	struct zex_hostrpc_fns *f = fns;

	f->first((struct zex_hostrpc_page *)page, f->ctx);
}

static void call_second(hostrpc_page_t *page, void *fns)
{
	struct zex_hostrpc_fns *f = fns;

	f->second((struct zex_hostrpc_page *)page, f->ctx);
}

static bool is_device(const struct zex_hostrpc *ch)
{
	return ch->role == ZEX_HOSTRPC_DEVICE;
}

/**
 * zex_hostrpc_set_spin - how long a device-side caller polls before sleeping
 * @ch: a device view.
 * @polls: polls of H before the wait ioctl; UINT32_MAX never sleeps.
 *
 * Return: 0, -EINVAL for a host view.
 */
int zex_hostrpc_set_spin(struct zex_hostrpc *ch, uint32_t polls)
{
	if (!is_device(ch))
		return -EINVAL;
	ch->client.spin = polls;
	ch->client.wait = polls == UINT32_MAX ? NULL : ch->wait;
	return 0;
}

/**
 * zex_hostrpc_call - a synchronous call
 * @ch: a device view.
 * @hint: the caller's own slot index (e.g. its thread number).
 * @fill: writes the request into the slot's page.
 * @use: reads the answer.
 * @ctx: for both.
 *
 * Return: 0, -EPIPE when the host side is gone, -EINVAL for a host view.
 */
int zex_hostrpc_call(struct zex_hostrpc *ch, uint32_t hint, zex_hostrpc_page_fn fill,
		     zex_hostrpc_page_fn use, void *ctx)
{
	struct zex_hostrpc_fns fns = { fill, use, ctx };

	if (!is_device(ch))
		return -EINVAL;
	if (hostrpc_client_invoke(&ch->client, hint, call_first, call_second, &fns))
		return -EPIPE;
	return 0;
}

/**
 * zex_hostrpc_call_async - an asynchronous call
 * @ch: a device view.
 * @hint: as for zex_hostrpc_call().
 * @fill: writes the request.
 * @ctx: for @fill.
 *
 * Return: 0 once published, -EPIPE, -EINVAL for a host view.
 */
int zex_hostrpc_call_async(struct zex_hostrpc *ch, uint32_t hint, zex_hostrpc_page_fn fill,
			   void *ctx)
{
	struct zex_hostrpc_fns fns = { fill, NULL, ctx };

	if (!is_device(ch))
		return -EINVAL;
	if (hostrpc_client_invoke_async(&ch->client, hint, call_first, &fns))
		return -EPIPE;
	return 0;
}

/**
 * zex_hostrpc_collect - run the garbage collection of async calls now
 * @ch: a device view.
 *
 * Return: the slots freed, or -EINVAL for a host view.
 */
int zex_hostrpc_collect(struct zex_hostrpc *ch)
{
	if (!is_device(ch))
		return -EINVAL;
	return (int)hostrpc_client_collect(&ch->client);
}

/**
 * zex_hostrpc_serve - serve every slot that needs the host, once
 * @ch: a host view.
 * @operate: answers a request in its page.
 * @ctx: for @operate.
 *
 * Several threads may serve one view at once: each slot is served by one
 * of them at a time (the owner word T). A call looks at the groups whose
 * summary flag is set; each thread's every 64th call looks at every slot,
 * which finds a request whose flag arrived first (a device side without a
 * doorbell, such as a GPU, does not order them).
 *
 * Return: 1 if any slot was served, 0 if none, -EINVAL for a device view.
 */
int zex_hostrpc_serve(struct zex_hostrpc *ch, zex_hostrpc_page_fn operate, void *ctx)
{
	static _Thread_local uint32_t passes;
	struct zex_hostrpc_fns fns = { operate, NULL, ctx };

	if (is_device(ch))
		return -EINVAL;
	return hostrpc_server_poll(&ch->server, &passes, call_first, &fns);
}

/**
 * zex_hostrpc_arm - arm the doorbell before sleeping in poll(), read() or epoll
 * @ch: a host view.
 *
 * Return: 1 when nothing needs the host (sleep until the fd or the eventfd
 * is readable), 0 when work arrived (serve first), -EINVAL for a device
 * view, -EOPNOTSUPP for a view of the caller's memory (no doorbell rings
 * it: serve by polling).
 */
int zex_hostrpc_arm(struct zex_hostrpc *ch)
{
	if (is_device(ch))
		return -EINVAL;
	if (ch->fd < 0)
		return -EOPNOTSUPP;
	return hostrpc_server_arm(&ch->server);
}
