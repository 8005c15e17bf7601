# SPDX-License-Identifier: GPL-2.0 OR MIT
# DOC: vendored.sh - find and verify a third-party archive of the vendor folder (sourced)
#
# vendored_archive NAME SHA256 TAG sets $archive to NAME.tar.gz in the
# vendor folder ($ZEX_VENDOR_DIR, else ../shared/vendor beside the
# checkout) once its sha256 is checked. Without
# the archive it says so (as TAG) and exits 4, the kselftest skip code;
# under CI=true a missing archive is a failure (exit 1): the project's CI
# always has it. A different archive under the name is a failure.

vendored_archive() {
	local name=$1 sha256=$2 tag=$3
	local top vendor

	top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
	vendor=${ZEX_VENDOR_DIR:-$top/../shared/vendor}
	archive=$vendor/$name.tar.gz
	if [ ! -f "$archive" ]; then
		echo "$tag: $archive not found (set ZEX_VENDOR_DIR)" >&2
		[ "${CI:-}" = true ] && exit 1
		exit 4
	fi
	echo "$sha256  $archive" | sha256sum --check --quiet - >&2 ||
		{ echo "$tag: $archive: sha256 is not $sha256" >&2; exit 1; }
}
