/* SPDX-License-Identifier: MIT */
/*
 * Copyright © 2026 The zex authors
 */

/*
 * DOC: zex-info.h - the modes of zex-info
 */

#ifndef ZEX_INFO_H
#define ZEX_INFO_H

/* zex-info --loader: through the Level Zero loader. Exit status. */
int zex_info_loader(void);
/* zex-info --top: Sysman's engines, memory and processes every @interval s, @count times (0: on). */
int zex_info_top(double interval, long count);

#endif /* ZEX_INFO_H */
