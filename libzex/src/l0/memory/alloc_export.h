/* SPDX-License-Identifier: MIT */
/*
 * Copyright © 2026 The zex authors
 */

/*
 * DOC: alloc_export.h - an allocation's shared dma-buf fds (alloc_export.c)
 */

#ifndef ZEX_L0_ALLOC_EXPORT_H
#define ZEX_L0_ALLOC_EXPORT_H

#include <stdbool.h>

struct zex_alloc;
struct zex_l0_driver;

bool zex_alloc_exportable(const struct zex_alloc *a);
bool zex_alloc_ipc_exportable(const struct zex_alloc *a);
int zex_alloc_export_get_locked(struct zex_l0_driver *drv, struct zex_alloc *a);
void zex_alloc_export_release(struct zex_alloc *a);
int zex_alloc_export_fd(struct zex_l0_driver *drv, struct zex_alloc *a, int *fd);

#endif /* ZEX_L0_ALLOC_EXPORT_H */
