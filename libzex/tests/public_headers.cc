// SPDX-License-Identifier: MIT
/*
 * Copyright © 2026 The zex authors
 */

/*
 * DOC: public_headers.cc - libzex's public headers compile as C++
 *
 * Built by make check's host layer (g++ -std=c++17 -Wall -Wextra -Werror).
 * The DDI-handle layouts a loader reads are checked against a real
 * loader's headers by ddi_layout.py, not here.
 */

#include <cstddef>

#include "zex/zex.h"
#include "zex/zex_api.h"
#include "zex/zex_ddi.h"
#include "zex/zex_hostrpc.h"
#include "zex/zex_zes_api.h"

/* Some of every header, used from C++. */
static_assert(sizeof(ze_handle_t) == 3 * sizeof(void *), "ze_handle_t: three pointers");

int main()
{
	return 0;
}
