/* SPDX-License-Identifier: MIT */
/*
 * Copyright © 2026 The zex authors
 */

/*
 * DOC: ddi.h - libzex's dispatch containers and the DDI header of its handles
 *
 * ddi_tables.c (generated) holds every table; ddi_fill.c answers the
 * loader's zeGet*ProcAddrTable calls from them. zex_ddi_header_init() puts
 * the &ze_handle_t header at the start of a new handle.
 */

#ifndef ZEX_DDI_H
#define ZEX_DDI_H

#include <stddef.h>

#include "zex/zex_ddi.h"

/* The API version libzex implements: that of the headers it is built with. */
#define ZEX_API_VERSION ZE_API_VERSION_CURRENT

extern ze_dditable_driver_t zex_ddi_ze;
extern zet_dditable_driver_t zex_ddi_zet;
extern zes_dditable_driver_t zex_ddi_zes;

ze_result_t zex_ddi_fill(ze_api_version_t version, void *table, const void *ours,
			 size_t size);

/** zex_ddi_header_init - make @h dispatch to libzex's tables */
static inline void zex_ddi_header_init(ze_handle_t *h)
{
	h->pCore = &zex_ddi_ze;
	h->pTools = &zex_ddi_zet;
	h->pSysman = &zex_ddi_zes;
}

/** zex_ddi_is_ours - whether @h starts with libzex's DDI header */
static inline int zex_ddi_is_ours(const void *h)
{
	return h && ((const ze_handle_t *)h)->pCore == &zex_ddi_ze;
}

#endif /* ZEX_DDI_H */
