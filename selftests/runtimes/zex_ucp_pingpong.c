// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Copyright © 2026 The zex authors
 */

/*
 * DOC: zex_ucp_pingpong.c - device memory of the application's, passed back and forth through UCP
 *
 * What an MPI library does with a GPU buffer: the application allocates it
 * with zeMemAllocDevice on the first device zeDeviceGet gives (the root
 * device: coloured over the tiles under implicit scaling) and hands it to
 * UCP, which finds its memory type and moves it to the other process with
 * the transport it picks (ze_ipc for device memory). Run as
 *
 *   zex_ucp_pingpong server PORT SIZE COUNT
 *   zex_ucp_pingpong client ADDRESS PORT SIZE COUNT
 *
 * For each of COUNT messages of SIZE bytes the client fills its buffer on
 * the device with that message's pattern and sends it; the server checks
 * every byte (copied to the host by the device), writes the answer's
 * pattern and sends it back, which the client checks. Exit 0 when every
 * byte of every message was right; the first wrong byte is printed.
 * Built by tools/vm/vm.sh against UCX's headers (tools/check/ucx.sh).
 */

#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <level_zero/ze_api.h>
#include <ucp/api/ucp.h>

struct l0 {
	ze_context_handle_t ctx;
	ze_command_list_handle_t list;
	void *dev;	/* the message, device memory */
	uint8_t *host;	/* its copy on the host */
};

static bool l0_open(struct l0 *l, size_t size)
{
	ze_context_desc_t cd = { .stype = ZE_STRUCTURE_TYPE_CONTEXT_DESC };
	ze_device_mem_alloc_desc_t dd = { .stype = ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC };
	ze_host_mem_alloc_desc_t hd = { .stype = ZE_STRUCTURE_TYPE_HOST_MEM_ALLOC_DESC };
	ze_command_queue_desc_t qd = { .stype = ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC,
				       .mode = ZE_COMMAND_QUEUE_MODE_SYNCHRONOUS };
	ze_driver_handle_t drv;
	ze_device_handle_t dev;
	uint32_t n = 1;

	return !zeInit(ZE_INIT_FLAG_GPU_ONLY) && !zeDriverGet(&n, &drv) && n == 1 &&
	       !zeDeviceGet(drv, &n, &dev) && n == 1 && !zeContextCreate(drv, &cd, &l->ctx) &&
	       !zeMemAllocDevice(l->ctx, &dd, size, 0, dev, &l->dev) &&
	       !zeMemAllocHost(l->ctx, &hd, size, 0, (void **)&l->host) &&
	       !zeCommandListCreateImmediate(l->ctx, dev, &qd, &l->list);
}

/* Message @i's byte at @at: differs between messages and along one. */
static uint8_t pattern(unsigned int i, size_t at)
{
	return (uint8_t)(i * 131 + at * 7 + (at >> 12));
}

/* The device buffer holds message @i: written on the host, copied by the device. */
static bool l0_fill(struct l0 *l, size_t size, unsigned int i)
{
	size_t at;

	for (at = 0; at < size; at++)
		l->host[at] = pattern(i, at);
	return !zeCommandListAppendMemoryCopy(l->list, l->dev, l->host, size, NULL, 0, NULL);
}

/* Whether the device buffer holds message @i, every byte. */
static bool l0_check(struct l0 *l, size_t size, unsigned int i)
{
	size_t at;

	memset(l->host, 0, size);
	if (zeCommandListAppendMemoryCopy(l->list, l->host, l->dev, size, NULL, 0, NULL))
		return false;
	for (at = 0; at < size; at++)
		if (l->host[at] != pattern(i, at)) {
			fprintf(stderr, "zex_ucp_pingpong: message %u byte %zu is %u, not %u\n", i,
				at, l->host[at], pattern(i, at));
			return false;
		}
	return true;
}

/* Progress @worker until request @req (or none) completes; its status. */
static ucs_status_t wait_request(ucp_worker_h worker, void *req)
{
	ucs_status_t status;

	if (req == NULL)
		return UCS_OK;
	if (UCS_PTR_IS_ERR(req))
		return UCS_PTR_STATUS(req);
	while ((status = ucp_request_check_status(req)) == UCS_INPROGRESS)
		ucp_worker_progress(worker);
	ucp_request_free(req);
	return status;
}

static ucs_status_t send_message(ucp_worker_h worker, ucp_ep_h ep, void *buf, size_t size)
{
	ucp_request_param_t p = { 0 };

	return wait_request(worker, ucp_tag_send_nbx(ep, buf, size, 1, &p));
}

static ucs_status_t recv_message(ucp_worker_h worker, void *buf, size_t size)
{
	ucp_request_param_t p = { 0 };

	return wait_request(worker, ucp_tag_recv_nbx(worker, buf, size, 1, ~0ull, &p));
}

static ucp_conn_request_h incoming;

static void on_connection(ucp_conn_request_h req, void *arg)
{
	(void)arg;
	incoming = req;
}

/* The endpoint to the other process: accepted (server), or connected. */
static ucp_ep_h connect_ep(ucp_worker_h worker, bool server, const char *address, int port)
{
	struct sockaddr_in sa = { .sin_family = AF_INET, .sin_port = htons((uint16_t)port) };
	ucp_listener_params_t lp = {
		.field_mask = UCP_LISTENER_PARAM_FIELD_SOCK_ADDR |
			      UCP_LISTENER_PARAM_FIELD_CONN_HANDLER,
		.sockaddr = { .addr = (const struct sockaddr *)&sa, .addrlen = sizeof(sa) },
		.conn_handler = { .cb = on_connection },
	};
	ucp_ep_params_t ep = { 0 };
	ucp_listener_h listener;
	ucp_ep_h h;

	if (server) {
		sa.sin_addr.s_addr = INADDR_ANY;
		if (ucp_listener_create(worker, &lp, &listener) != UCS_OK)
			return NULL;
		/* The host waits for this line before it starts the client. */
		printf("zex_ucp_pingpong: listening on %d\n", port);
		fflush(stdout);
		while (!incoming)
			ucp_worker_progress(worker);
		ep.field_mask = UCP_EP_PARAM_FIELD_CONN_REQUEST;
		ep.conn_request = incoming;
	} else {
		if (inet_pton(AF_INET, address, &sa.sin_addr) != 1)
			return NULL;
		ep.field_mask = UCP_EP_PARAM_FIELD_SOCK_ADDR | UCP_EP_PARAM_FIELD_FLAGS;
		ep.flags = UCP_EP_PARAMS_FLAGS_CLIENT_SERVER;
		ep.sockaddr.addr = (const struct sockaddr *)&sa;
		ep.sockaddr.addrlen = sizeof(sa);
	}
	return ucp_ep_create(worker, &ep, &h) == UCS_OK ? h : NULL;
}

int main(int argc, char **argv)
{
	ucp_params_t up = { .field_mask = UCP_PARAM_FIELD_FEATURES, .features = UCP_FEATURE_TAG };
	ucp_worker_params_t wp = { .field_mask = UCP_WORKER_PARAM_FIELD_THREAD_MODE,
				   .thread_mode = UCS_THREAD_MODE_SINGLE };
	bool server = argc == 5 && !strcmp(argv[1], "server");
	unsigned int i, count;
	ucp_context_h ucp;
	ucp_worker_h worker;
	ucp_ep_h ep;
	size_t size;
	struct l0 l;
	int port;

	if (!server && (argc != 6 || strcmp(argv[1], "client"))) {
		fprintf(stderr, "usage: %s server PORT SIZE COUNT | client ADDRESS PORT SIZE COUNT\n",
			argv[0]);
		return 2;
	}
	port = atoi(argv[server ? 2 : 3]);
	size = strtoull(argv[server ? 3 : 4], NULL, 0);
	count = (unsigned int)strtoul(argv[server ? 4 : 5], NULL, 0);
	if (!size || !l0_open(&l, size)) {
		fprintf(stderr, "zex_ucp_pingpong: no Level Zero device memory\n");
		return 1;
	}
	if (ucp_init(&up, NULL, &ucp) != UCS_OK ||
	    ucp_worker_create(ucp, &wp, &worker) != UCS_OK ||
	    !(ep = connect_ep(worker, server, argv[2], port))) {
		fprintf(stderr, "zex_ucp_pingpong: no UCP endpoint\n");
		return 1;
	}
	for (i = 0; i < count; i++) {
		unsigned int answer = i + 1000;

		if (server) {
			if (recv_message(worker, l.dev, size) != UCS_OK || !l0_check(&l, size, i) ||
			    !l0_fill(&l, size, answer) ||
			    send_message(worker, ep, l.dev, size) != UCS_OK)
				return 1;
		} else {
			if (!l0_fill(&l, size, i) || send_message(worker, ep, l.dev, size) != UCS_OK ||
			    recv_message(worker, l.dev, size) != UCS_OK ||
			    !l0_check(&l, size, answer))
				return 1;
		}
	}
	printf("zex_ucp_pingpong: %u messages of %zu bytes each way, every byte checked\n",
	       count, size);
	/* The other side may still read what was sent last: flush, then close. */
	wait_request(worker, ucp_ep_close_nbx(ep, &(ucp_request_param_t){
		.op_attr_mask = UCP_OP_ATTR_FIELD_FLAGS, .flags = UCP_EP_CLOSE_FLAG_FORCE }));
	ucp_worker_destroy(worker);
	ucp_cleanup(ucp);
	return 0;
}
