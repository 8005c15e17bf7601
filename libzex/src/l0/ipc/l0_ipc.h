/* SPDX-License-Identifier: MIT */
/*
 * Copyright © 2026 The zex authors
 */

/*
 * DOC: l0_ipc.h - finding the allocation behind an export of this process (l0_ipc.c)
 */

#ifndef ZEX_L0_IPC_H
#define ZEX_L0_IPC_H

struct zex_alloc;
struct zex_ipc_handle_data;
struct zex_l0_driver;

struct zex_alloc *zex_l0_ipc_export_find_locked(struct zex_l0_driver *drv,
						const struct zex_ipc_handle_data *d);

#endif /* ZEX_L0_IPC_H */
