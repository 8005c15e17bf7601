/* SPDX-License-Identifier: MIT */
/*
 * Copyright © 2026 The zex authors
 */

/*
 * DOC: ddi.h - libzex's dispatch tables and the exports that hand them out
 *
 * ddi_tables.h and ddi_tables.c (generated) hold every table's layout, the
 * tables and the three containers the handles' DDI header points at
 * (declared in l0/ddi_header.h); ddi_fill.c answers the loader's
 * zeGet*ProcAddrTable calls from them.
 */

#ifndef ZEX_DDI_H
#define ZEX_DDI_H

#include <stddef.h>
#include <stdint.h>

#include "l0/base/ddi_header.h"

ze_result_t zex_ddi_fill(ze_api_version_t version, void *table, const void *ours,
			 const uint8_t *since, size_t entries);

#endif /* ZEX_DDI_H */
