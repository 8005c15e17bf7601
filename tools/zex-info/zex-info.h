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

#endif /* ZEX_INFO_H */
