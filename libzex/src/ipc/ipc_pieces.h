/* SPDX-License-Identifier: MIT */
/*
 * Copyright © 2026 The zex authors
 */

/*
 * DOC: ipc_pieces.h - an export's table of its pieces, which one IPC handle names (ipc_pieces.c)
 */

#ifndef ZEX_IPC_PIECES_H
#define ZEX_IPC_PIECES_H

#include <stdbool.h>
#include <stdint.h>

/* Eight bytes, no NUL: what a live table starts with. */
#define ZEX_IPC_PIECES_MAGIC	"ZEXPIECS"

/* One piece of the export: the exporter's fd and the dma-buf behind it. */
struct zex_ipc_piece {
	int32_t fd;
	uint32_t reserved;	/* 0 */
	uint64_t dmabuf_id;	/* zex_ipc_fd_id() */
};

/* The table, in the exporter's memory while the export lives. */
struct zex_ipc_pieces {
	char magic[8];		/* ZEX_IPC_PIECES_MAGIC; cleared when freed */
	uint64_t export_id;
	uint32_t num_pieces;
	uint32_t reserved;	/* 0 */
	struct zex_ipc_piece pieces[];
};

struct zex_ipc_pieces *zex_ipc_pieces_create(uint64_t export_id, const int *fds, uint32_t n);
void zex_ipc_pieces_free(struct zex_ipc_pieces *t);
int zex_ipc_pieces_take(uint32_t pid, uint64_t addr, uint64_t export_id, uint32_t n,
			uint32_t from, int *fds, bool *owned);

#endif /* ZEX_IPC_PIECES_H */
