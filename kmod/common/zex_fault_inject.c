// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Copyright © 2026 The zex authors
 */

/**
 * DOC: zex_fault_inject.c - the engines' fault attribute
 *
 * One fault attribute for every allocation an engine makes as it runs a
 * job (see zex_fault_inject.h); off unless debugfs arms it.
 */

#include <linux/debugfs.h>
#include <linux/fault-inject.h>

#include "zex_fault_inject.h"

static DECLARE_FAULT_ATTR(zex_engine_alloc);

/**
 * zex_engine_alloc_fails - whether an engine's next allocation is to fail
 *
 * Return: true when the fault attribute says so.
 */
bool zex_engine_alloc_fails(void)
{
	return should_fail(&zex_engine_alloc, 1);
}

/**
 * zex_fault_inject_debugfs - the attribute's debugfs folder
 * @root: zex's debugfs folder.
 */
void zex_fault_inject_debugfs(struct dentry *root)
{
	fault_create_debugfs_attr("fail_engine_alloc", root, &zex_engine_alloc);
}
