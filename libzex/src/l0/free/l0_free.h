/* SPDX-License-Identifier: MIT */
/*
 * Copyright © 2026 The zex authors
 */

/*
 * DOC: l0_free.h - the free policies zeMemFreeExt takes (l0_free_policies.c)
 */

#ifndef ZEX_L0_FREE_H
#define ZEX_L0_FREE_H

#include "l0/base/l0.h"

/* What zeDriverGetProperties() says zeMemFreeExt() takes. */
#define ZEX_FREE_POLICIES	(ZE_DRIVER_MEMORY_FREE_POLICY_EXT_FLAG_BLOCKING_FREE | \
				 ZE_DRIVER_MEMORY_FREE_POLICY_EXT_FLAG_DEFER_FREE)

#endif
