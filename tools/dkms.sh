#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR MIT
# DOC: dkms.sh - install, uninstall or just build zex through DKMS
#
# Usage: dkms.sh install|uninstall|build-check VERSION [KERNELRELEASE]
#
# install      /usr/src/zex-VERSION from this tree, then dkms add, build,
#              install (for KERNELRELEASE, default: the running kernel)
# uninstall    dkms remove --all and delete /usr/src/zex-VERSION
# build-check  add and build for KERNELRELEASE (default: the newest
#              installed headers of each of Debian 12's lines, 6.1 and
#              6.12), then remove everything again; what `make check` runs
#              to prove the DKMS packaging builds
set -euo pipefail

action=$1 version=$2
release=${3:-}
top=$(cd "$(dirname "$0")/.." && pwd)
srcdir=/usr/src/zex-$version

grep -q "^PACKAGE_VERSION=\"$version\"$" "$top/dkms.conf" || {
	echo "dkms: dkms.conf does not say version $version" >&2
	exit 1
}

stage() {
	rm -rf "$srcdir"
	mkdir -p "$srcdir"
	cp -r "$top/kmod" "$top/uapi" "$top/dkms.conf" "$srcdir/"
	# Only sources travel: no objects from a local build.
	find "$srcdir" \( -name '*.o' -o -name '*.ko' -o -name '*.mod' -o -name '*.mod.c' \
		-o -name '.*.cmd' -o -name 'modules.order' -o -name 'Module.symvers' \) -delete
}

remove() {
	dkms remove -m zex -v "$version" --all >/dev/null 2>&1 || true
	rm -rf "$srcdir"
}

case $action in
install)
	release=${release:-$(uname -r)}
	remove
	stage
	dkms add -m zex -v "$version"
	dkms build -m zex -v "$version" -k "$release"
	dkms install -m zex -v "$version" -k "$release"
	echo "zex $version installed for $release: modprobe zex"
	;;
uninstall)
	remove
	;;
build-check)
	releases=$release
	if [ -z "$releases" ]; then
		# The newest installed release of each of Debian 12's lines.
		for line in 6.1 6.12; do
			kdir=$("$top/tools/kernel-dir.sh" "$line") || {
				echo "dkms: no Linux $line headers installed" >&2
				exit 1
			}
			releases="$releases $(basename "$(dirname "$kdir")")"
		done
	fi
	remove
	stage
	trap remove EXIT
	dkms add -m zex -v "$version" >/dev/null
	for release in $releases; do
		dkms build -m zex -v "$version" -k "$release" >/dev/null || {
			cat "/var/lib/dkms/zex/$version/build/make.log" >&2 || true
			exit 1
		}
		# Compressed like the kernel's own modules, where it compresses them.
		ls "/var/lib/dkms/zex/$version/$release/x86_64/module/"zex.ko* >/dev/null
		echo "dkms: zex $version builds for $release"
	done
	;;
*)
	echo "usage: dkms.sh install|uninstall|build-check VERSION [KERNELRELEASE]" >&2
	exit 2
	;;
esac
