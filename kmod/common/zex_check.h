/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * Copyright © 2026 The zex authors
 */

/**
 * DOC: zex_check.h - refusing bad input, with the reason in the log
 *
 * zex_check() evaluates one validity check of a request; when the input is
 * invalid it logs, with drm_dbg (drm.debug=0x2), which check failed, so
 * every refused request is explained. The DRM ioctls and the hostrpc
 * channel's requests both use it.
 */

#ifndef _ZEX_CHECK_H_
#define _ZEX_CHECK_H_

#include <drm/drm_device.h>
#include <drm/drm_print.h>

/**
 * zex_check - evaluate a validity check and log the failure
 * @drm: the device to log for (may be NULL).
 * @what: the kind of request, for the message.
 * @cond: true when the input is invalid.
 *
 * Return: @cond.
 */
#define zex_check(drm, what, cond) ({					\
	bool __bad = (cond);						\
	if (unlikely(__bad))						\
		drm_dbg(drm, "%s check failed: %s\n", what, #cond);	\
	__bad;								\
})

/* zex_ioctl_check - zex_check() for a DRM ioctl of @drm. */
#define zex_ioctl_check(drm, cond) zex_check(drm, "ioctl", cond)

#endif /* _ZEX_CHECK_H_ */
