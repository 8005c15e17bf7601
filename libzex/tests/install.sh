#!/bin/bash
# SPDX-License-Identifier: MIT
# DOC: install.sh - make install into a DESTDIR, then build against it
#
# Usage: install.sh BUILD_DIR
#
# Installs libzex with PREFIX=/usr into a temporary DESTDIR, then builds a
# program that includes the public headers, with the flags that
# `pkg-config --cflags --libs libzex` gives (its prefix moved into the
# stage), and runs it against the staged libzex.so: it must link, load the
# library by its soname and reach the kernel (or report no device).
set -euo pipefail

here=$(cd "$(dirname "$0")/.." && pwd)
build=$1
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT

make -s -C "$here" O="$build" PREFIX=/usr DESTDIR="$stage" install
libdir=$(sed -n 's|^libdir=\${prefix}/||p' "$build/lib/pkgconfig/libzex.pc")
for f in "$libdir/libzex.so.0" "$libdir/libzex.so" "$libdir/libzex.a" \
	 "$libdir/pkgconfig/libzex.pc" include/zex/zex.h include/zex/zex_api.h \
	 include/zex/zex_ddi.h include/zex/zex_hostrpc.h include/zex/zex_exec.h \
	 include/zex/zex_zes_api.h \
	 include/drm/zex_drm.h; do
	[ -e "$stage/usr/$f" ] || { echo "not installed: /usr/$f"; exit 1; }
done

cat > "$stage/app.c" <<'APP'
#include <stdio.h>
#include <zex/zex.h>
#include <zex/zex_api.h>
#include <zex/zex_hostrpc.h>
#include <zex/zex_exec.h>
#include <zex/zex_zes_api.h>

int main(void)
{
	struct zex_device *dev;
	int ret = zex_device_open(&dev);

	if (!ret)
		zex_device_close(dev);
	printf("zex_device_open: %d\n", ret);
	return ret > 0;
}
APP
# The staged libzex.pc with its prefix moved into the stage; the packages
# it requires (level-zero, libdrm) resolve from the system as usual.
mkdir -p "$stage/pc"
sed "s|^prefix=/usr\$|prefix=$stage/usr|" "$stage/usr/$libdir/pkgconfig/libzex.pc" \
	> "$stage/pc/libzex.pc"
export PKG_CONFIG_PATH=$stage/pc
flags=$(pkg-config --cflags --libs libzex)
echo "pkg-config: $flags"
# shellcheck disable=SC2086
cc -std=c11 -Wall -Wextra -Werror "$stage/app.c" -o "$stage/app" $flags
readelf -d "$stage/app" | grep -q 'NEEDED.*libzex.so.0' || { echo "app does not need libzex.so.0"; exit 1; }
LD_LIBRARY_PATH=$stage/usr/$libdir "$stage/app"
