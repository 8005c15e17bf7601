/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * Copyright © 2026 The zex authors
 */

/**
 * DOC: zex_command.h - a job's commands and syncs, launch reports, checked
 *
 * The rules a &struct drm_zex_command and a &struct drm_zex_sync must
 * meet, as pure functions of the structures: the exec ioctl calls them on
 * every element before anything happens, the KUnit suite on a table of
 * good and bad ones. Each returns 0 or the errno, with the failed check's
 * text in @why for the log. zex_compare() is the one comparison of user
 * fences and waits.
 */

#ifndef _ZEX_COMMAND_H_
#define _ZEX_COMMAND_H_

#include <linux/types.h>

struct drm_zex_command;
struct drm_zex_launch_report;
struct drm_zex_sync;

int zex_command_check(const struct drm_zex_command *cmd, const char **why);
int zex_sync_check(const struct drm_zex_sync *sync, const char **why);
bool zex_compare(u64 current_value, u16 op, u64 operand, u64 mask);
bool zex_compare_op_valid(u16 op);
int zex_launch_report_check(const struct drm_zex_launch_report *r, const char **why);

#endif /* _ZEX_COMMAND_H_ */
