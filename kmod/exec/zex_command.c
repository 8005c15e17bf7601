// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Copyright © 2026 The zex authors
 */

/**
 * DOC: zex_command.c - the rules of commands and syncs
 *
 * A command names only the fields its op uses; every other field, and
 * every pad, must be 0, so that a later op may give them a meaning. An
 * address range may not wrap; a copy's two ranges may not overlap; the
 * 64-bit stores and reads (STORE, TIMESTAMP, WAIT, user fences) are 8-byte
 * aligned so the engine makes each with one access. A launch's record
 * (24 bytes) may not wrap either. A launch report names either a done or
 * a fault with a known reason, never both.
 */

#include <linux/kernel.h>
#include <linux/errno.h>

#include <drm/drm.h>
#include <drm/zex_drm.h>

#include "../common/zex_kunit_export.h"
#include "zex_command.h"

#define ZEX_FAIL(err, text) ({ *why = (text); err; })

static bool zex_range_wraps(u64 va, u64 len)
{
	return va + len < va;
}

/**
 * zex_compare_op_valid - whether @op is an &enum drm_zex_compare_op
 * @op: the op.
 *
 * Return: true for a known op.
 */
bool zex_compare_op_valid(u16 op)
{
	return op <= DRM_ZEX_COMPARE_LTE;
}
EXPORT_SYMBOL_FOR_ZEX_KUNIT(zex_compare_op_valid);

/**
 * zex_compare - (@current_value & @mask) @op (@operand & @mask)
 * @current_value: the value read.
 * @op: an &enum drm_zex_compare_op, checked by the caller.
 * @operand: what it is compared with.
 * @mask: applied to both.
 *
 * Return: the comparison's truth, unsigned.
 */
bool zex_compare(u64 current_value, u16 op, u64 operand, u64 mask)
{
	u64 a = current_value & mask, b = operand & mask;

	switch (op) {
	case DRM_ZEX_COMPARE_EQ:
		return a == b;
	case DRM_ZEX_COMPARE_NEQ:
		return a != b;
	case DRM_ZEX_COMPARE_GT:
		return a > b;
	case DRM_ZEX_COMPARE_GTE:
		return a >= b;
	case DRM_ZEX_COMPARE_LT:
		return a < b;
	case DRM_ZEX_COMPARE_LTE:
		return a <= b;
	}
	return false;
}
EXPORT_SYMBOL_FOR_ZEX_KUNIT(zex_compare);

static bool zex_pattern_unused_is_zero(const struct drm_zex_command *cmd, u32 from)
{
	u32 i;

	for (i = from; i < DRM_ZEX_FILL_MAX_PATTERN; i++)
		if (cmd->pattern[i])
			return false;
	return true;
}

static int zex_range_check(u64 va, u64 len, const char **why)
{
	if (!len)
		return ZEX_FAIL(-EINVAL, "len == 0");
	if (len > DRM_ZEX_COPY_MAX_LEN)
		return ZEX_FAIL(-E2BIG, "len > DRM_ZEX_COPY_MAX_LEN");
	if (zex_range_wraps(va, len))
		return ZEX_FAIL(-EINVAL, "range wraps");
	return 0;
}

/**
 * zex_command_check - whether a command may be submitted
 * @cmd: the command, as userspace wrote it.
 * @why: receives the failed check's text.
 *
 * Return: 0; -EINVAL an unknown op, a non-zero pad or unused field, a
 * wrapping, overlapping or misaligned range, a bad pattern size or compare
 * op; -E2BIG a copy or fill longer than %DRM_ZEX_COPY_MAX_LEN.
 */
int zex_command_check(const struct drm_zex_command *cmd, const char **why)
{
	int ret;

	if (cmd->pad)
		return ZEX_FAIL(-EINVAL, "pad != 0");
	switch (cmd->op) {
	case DRM_ZEX_CMD_COPY:
		if (cmd->pattern_size || cmd->compare || cmd->value || cmd->mask ||
		    !zex_pattern_unused_is_zero(cmd, 0))
			return ZEX_FAIL(-EINVAL, "copy: a field it does not use != 0");
		ret = zex_range_check(cmd->src, cmd->len, why);
		if (!ret)
			ret = zex_range_check(cmd->dst, cmd->len, why);
		if (ret)
			return ret;
		if (cmd->src < cmd->dst + cmd->len && cmd->dst < cmd->src + cmd->len)
			return ZEX_FAIL(-EINVAL, "copy: ranges overlap");
		return 0;
	case DRM_ZEX_CMD_FILL:
		if (cmd->src || cmd->compare || cmd->value || cmd->mask)
			return ZEX_FAIL(-EINVAL, "fill: a field it does not use != 0");
		if (!cmd->pattern_size || cmd->pattern_size > DRM_ZEX_FILL_MAX_PATTERN)
			return ZEX_FAIL(-EINVAL, "fill: pattern_size not 1 to 16");
		if (!zex_pattern_unused_is_zero(cmd, cmd->pattern_size))
			return ZEX_FAIL(-EINVAL, "fill: pattern beyond pattern_size != 0");
		return zex_range_check(cmd->dst, cmd->len, why);
	case DRM_ZEX_CMD_STORE:
	case DRM_ZEX_CMD_TIMESTAMP:
		if (cmd->src || cmd->len || cmd->pattern_size || cmd->compare || cmd->mask ||
		    (cmd->op == DRM_ZEX_CMD_TIMESTAMP && cmd->value) ||
		    !zex_pattern_unused_is_zero(cmd, 0))
			return ZEX_FAIL(-EINVAL, "store: a field it does not use != 0");
		if (!IS_ALIGNED(cmd->dst, sizeof(u64)))
			return ZEX_FAIL(-EINVAL, "store: dst not 8-byte aligned");
		return 0;
	case DRM_ZEX_CMD_WAIT:
		if (cmd->dst || cmd->len || cmd->pattern_size ||
		    !zex_pattern_unused_is_zero(cmd, 0))
			return ZEX_FAIL(-EINVAL, "wait: a field it does not use != 0");
		if (!zex_compare_op_valid(cmd->compare))
			return ZEX_FAIL(-EINVAL, "wait: unknown compare op");
		if (!IS_ALIGNED(cmd->src, sizeof(u64)))
			return ZEX_FAIL(-EINVAL, "wait: src not 8-byte aligned");
		return 0;
	case DRM_ZEX_CMD_LAUNCH:
		if (cmd->src || cmd->len || cmd->pattern_size || cmd->compare || cmd->mask ||
		    !zex_pattern_unused_is_zero(cmd, 0))
			return ZEX_FAIL(-EINVAL, "launch: a field it does not use != 0");
		if (!IS_ALIGNED(cmd->dst, sizeof(u64)))
			return ZEX_FAIL(-EINVAL, "launch: dst not 8-byte aligned");
		if (zex_range_wraps(cmd->dst, sizeof(struct drm_zex_launch_record)))
			return ZEX_FAIL(-EINVAL, "launch: record wraps");
		return 0;
	}
	return ZEX_FAIL(-EINVAL, "unknown op");
}
EXPORT_SYMBOL_FOR_ZEX_KUNIT(zex_command_check);

/**
 * zex_sync_check - whether a sync may be submitted
 * @sync: the sync, as userspace wrote it.
 * @why: receives the failed check's text.
 *
 * Return: 0, or -EINVAL: an unknown type or flag, a non-zero pad,
 * extension or unused field, a timeline point of 0, a user fence to wait
 * for or at a misaligned address.
 */
int zex_sync_check(const struct drm_zex_sync *sync, const char **why)
{
	if (sync->extensions)
		return ZEX_FAIL(-EINVAL, "sync: extensions != 0");
	if (sync->pad || sync->reserved[0] || sync->reserved[1])
		return ZEX_FAIL(-EINVAL, "sync: pad or reserved != 0");
	if (sync->flags & ~DRM_ZEX_SYNC_SIGNAL)
		return ZEX_FAIL(-EINVAL, "sync: unknown flags");
	switch (sync->type) {
	case DRM_ZEX_SYNC_SYNCOBJ:
		if (sync->addr || sync->timeline_value)
			return ZEX_FAIL(-EINVAL, "syncobj: addr or timeline_value != 0");
		return 0;
	case DRM_ZEX_SYNC_TIMELINE_SYNCOBJ:
		if (sync->addr)
			return ZEX_FAIL(-EINVAL, "timeline: addr != 0");
		if (!sync->timeline_value)
			return ZEX_FAIL(-EINVAL, "timeline: point 0");
		return 0;
	case DRM_ZEX_SYNC_USER_FENCE:
		if (!(sync->flags & DRM_ZEX_SYNC_SIGNAL))
			return ZEX_FAIL(-EINVAL, "user fence: not a signal");
		if (sync->handle)
			return ZEX_FAIL(-EINVAL, "user fence: handle != 0");
		if (!IS_ALIGNED(sync->addr, sizeof(u64)))
			return ZEX_FAIL(-EINVAL, "user fence: addr not 8-byte aligned");
		return 0;
	}
	return ZEX_FAIL(-EINVAL, "sync: unknown type");
}
EXPORT_SYMBOL_FOR_ZEX_KUNIT(zex_sync_check);

/**
 * zex_launch_report_check - whether a launch report may be taken
 * @r: the report, as userspace wrote it.
 * @why: receives the failed check's text.
 *
 * Return: 0, or -EINVAL: an unknown status or fault flag, a tile not below
 * %DRM_ZEX_MAX_TILES, launch 0, a fault without a known reason, a done
 * with fault fields, a non-zero pad, extension or reserved field.
 */
int zex_launch_report_check(const struct drm_zex_launch_report *r, const char **why)
{
	if (r->extensions)
		return ZEX_FAIL(-EINVAL, "report: extensions != 0");
	if (r->pad || r->reserved[0] || r->reserved[1])
		return ZEX_FAIL(-EINVAL, "report: pad or reserved != 0");
	if (r->tile >= DRM_ZEX_MAX_TILES)
		return ZEX_FAIL(-EINVAL, "report: tile >= DRM_ZEX_MAX_TILES");
	if (!r->seqno)
		return ZEX_FAIL(-EINVAL, "report: seqno 0");
	switch (r->status) {
	case DRM_ZEX_LAUNCH_DONE:
		if (r->fault_reason || r->fault_addr || r->fault_flags)
			return ZEX_FAIL(-EINVAL, "report: done with fault fields");
		return 0;
	case DRM_ZEX_LAUNCH_FAULT:
		if (r->fault_reason == DRM_ZEX_FAULT_NONE ||
		    r->fault_reason > DRM_ZEX_FAULT_KERNEL_ABORTED)
			return ZEX_FAIL(-EINVAL, "report: fault without a known reason");
		if (r->fault_flags & ~DRM_ZEX_FAULT_WRITE)
			return ZEX_FAIL(-EINVAL, "report: unknown fault flags");
		return 0;
	}
	return ZEX_FAIL(-EINVAL, "report: unknown status");
}
EXPORT_SYMBOL_FOR_ZEX_KUNIT(zex_launch_report_check);
