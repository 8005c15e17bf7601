// SPDX-License-Identifier: MIT
/*
 * Copyright © 2026 The zex authors
 */

/*
 * DOC: public_headers.cc - libzex's public headers compile as C++
 *
 * Built by make check's host layer (g++ -std=c++17 -Wall -Wextra -Werror);
 * the static_asserts pin the DDI-handle layouts a DDI-aware loader reads.
 */

#include <cstddef>

#include "zex/zex.h"
#include "zex/zex_api.h"
#include "zex/zex_ddi.h"
#include "zex/zex_hostrpc.h"

static_assert(sizeof(ze_handle_t) == 3 * sizeof(void *), "ze_handle_t: three pointers");
static_assert(offsetof(ze_dditable_driver_t, RTASBuilderExp) == 8, "after version and flag");
static_assert(offsetof(ze_dditable_driver_t, Global) == 8 + 2 * sizeof(void *), "Global third");
static_assert(offsetof(ze_dditable_driver_t, Mem) == 8 + 13 * sizeof(void *), "Mem 14th");
static_assert(sizeof(ze_dditable_driver_t) == 8 + 28 * sizeof(void *), "28 ze tables");
static_assert(sizeof(zet_dditable_driver_t) == 8 + 19 * sizeof(void *), "19 zet tables");
static_assert(sizeof(zes_dditable_driver_t) == 8 + 24 * sizeof(void *), "24 zes tables");

int main()
{
	return 0;
}
