// SPDX-License-Identifier: MIT
// DOC: zex_drm_cxx.cc - <drm/zex_drm.h> compiles alone as C++ with pinned ABI.
#include <drm/zex_drm.h>
#include <cstddef>
#include "zex_drm_abi.h"

int main()
{
	return 0;
}
