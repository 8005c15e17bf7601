/* SPDX-License-Identifier: MIT */
/*
 * Copyright © 2026 The zex authors
 */

/*
 * DOC: ipc_received.h - the fds zexIpcHandlesRecv() installed, until released
 *
 * Every fd a receive installs in the process is recorded with the export id
 * of the handle it came in; zexMemPutIpcHandles() closes a received handle's
 * fd only when the pair is recorded, and forgets it. So libzex closes no fd
 * it did not receive, whatever bytes a handle carries.
 */

#ifndef ZEX_IPC_RECEIVED_H
#define ZEX_IPC_RECEIVED_H

#include <stdbool.h>
#include <stdint.h>

int zex_ipc_received_add(const int *fds, const uint64_t *export_ids, uint32_t n);
bool zex_ipc_received_close(const int *fds, const uint64_t *export_ids, uint32_t n);

#endif /* ZEX_IPC_RECEIVED_H */
