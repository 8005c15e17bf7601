/* SPDX-License-Identifier: MIT */
/*
 * Copyright © 2026 The zex authors
 */

/*
 * DOC: ddi_header.h - the DDI header every Level Zero handle of libzex starts with
 *
 * A handle's &ze_handle_t points at three dispatch containers. They are
 * declared here and defined by the dispatch layer above (src/ddi, which
 * lists this layer's entry points): the handles hold the containers'
 * address, which is data, so no call goes from here up to src/ddi.
 */

#ifndef ZEX_L0_DDI_HEADER_H
#define ZEX_L0_DDI_HEADER_H

#include "zex/zex_ddi.h"

/*
 * The API version libzex implements and reports: its tables hold every entry
 * of 1.15 (src/ddi/ddi_tables.h), whatever the version of the headers it is
 * built with.
 */
#define ZEX_API_VERSION ((ze_api_version_t)ZE_MAKE_VERSION(1, 15))

/* In read-only memory: the loader and the handles only read them. */
extern const ze_dditable_driver_t zex_ddi_ze;
extern const zet_dditable_driver_t zex_ddi_zet;
extern const zes_dditable_driver_t zex_ddi_zes;

/** zex_ddi_header_init - make @h dispatch to libzex's tables */
static inline void zex_ddi_header_init(ze_handle_t *h)
{
	/* ze_handle_t's pointers are not const in the loader's ABI. */
	h->pCore = (ze_dditable_driver_t *)&zex_ddi_ze;
	h->pTools = (zet_dditable_driver_t *)&zex_ddi_zet;
	h->pSysman = (zes_dditable_driver_t *)&zex_ddi_zes;
}

#endif /* ZEX_L0_DDI_HEADER_H */
