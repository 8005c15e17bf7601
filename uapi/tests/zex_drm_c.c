// SPDX-License-Identifier: MIT
/* DOC: zex_drm_c.c - <drm/zex_drm.h> compiles alone as C11 with pinned ABI. */
#include <drm/zex_drm.h>
#include <assert.h>
#include <stddef.h>
#include "zex_drm_abi.h"

int main(void)
{
	return 0;
}
