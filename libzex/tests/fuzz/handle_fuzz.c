// SPDX-License-Identifier: MIT
/*
 * DOC: handle_fuzz.c - libFuzzer target: the IPC handle parser and the fds it may close
 *
 * Four fds are recorded as received (memfds, with export ids); the input is
 * a list of handles: each either 64 raw bytes, or a well-formed handle of
 * one of the recorded pairs with up to three bytes changed (so that near
 * misses, such as the right fd under another export id, come early). Each is parsed (zex_ipc_handle_get(), which
 * must accept only what it can vouch for) and given to the record's close
 * with the fd and export id it names: only a recorded pair may close an
 * fd, every other fd of the process stays open, and a recorded fd closes
 * once. Built with clang -fsanitize=fuzzer,address,undefined.
 */
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "zex/zex_api.h"
#include "ipc/ipc_handle.h"
#include "ipc/ipc_received.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint64_t ids[4] = { 11, 12, 13, 14 };
	bool closed[4] = { false };
	int fds[4], i;
	size_t off;

	for (i = 0; i < 4; i++)
		fds[i] = memfd_create("piece", MFD_CLOEXEC);
	if (zex_ipc_received_add(fds, ids, 4))
		abort();
	for (off = 0; off + 8 <= size;) {
		ze_ipc_mem_handle_t h;
		struct zex_ipc_handle_data d;
		int fd;
		uint64_t id;
		bool ours = false;

		if (data[off] & 1) {
			/* A recorded pair's handle, three bytes changed. */
			struct zex_ipc_handle_data t = {
				.fd = fds[data[off + 1] % 4], .magic = ZEX_IPC_MAGIC,
				.export_id = ids[data[off + 1] % 4], .size = 65536,
				.num_pieces = 1, .memory_type = ZE_MEMORY_TYPE_DEVICE,
				.dmabuf_id = 1,
			};

			zex_ipc_handle_put(&h, &t);
			for (i = 0; i < 3; i++)
				h.data[data[off + 2 + 2 * i] % sizeof(h.data)] ^= data[off + 3 + 2 * i];
			off += 8;
		} else {
			if (off + 1 + sizeof(h.data) > size)
				break;
			memcpy(h.data, data + off + 1, sizeof(h.data));
			off += 1 + sizeof(h.data);
		}
		if (!zex_ipc_handle_get(&h, &d))
			continue;
		if (d.fd < 0 || memcmp(d.magic, ZEX_IPC_MAGIC, 4) || !d.num_pieces ||
		    d.piece >= d.num_pieces || d.interleaved > 1 || !d.dmabuf_id)
			abort();	/* accepted what it may not */
		for (i = 0; i < 4; i++)
			ours |= !closed[i] && fds[i] == d.fd && ids[i] == d.export_id;
		fd = d.fd;
		id = d.export_id;
		if (zex_ipc_received_close(&fd, &id, 1) != ours)
			abort();
		for (i = 0; i < 4; i++)
			if (fds[i] == d.fd && ids[i] == d.export_id)
				closed[i] = true;
	}
	/* The fds not given back are open, and are released now. */
	for (i = 0; i < 4; i++) {
		if (closed[i] != (fcntl(fds[i], F_GETFD) < 0))
			abort();
		if (!closed[i] && !zex_ipc_received_close(&fds[i], &ids[i], 1))
			abort();
	}
	return 0;
}
