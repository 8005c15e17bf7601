/* SPDX-License-Identifier: MIT */
/*
 * Copyright © 2026 The zex authors
 */

/*
 * DOC: context_pool.h - where contexts live (context_pool.c)
 */

#ifndef ZEX_L0_CONTEXT_POOL_H
#define ZEX_L0_CONTEXT_POOL_H

struct zex_l0_context;

struct zex_l0_context *zex_context_pool_get(void);
void zex_context_pool_put(struct zex_l0_context *ctx);
struct zex_l0_context *zex_context_pool_find(const void *h);

#endif /* ZEX_L0_CONTEXT_POOL_H */
