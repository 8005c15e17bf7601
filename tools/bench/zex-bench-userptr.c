// SPDX-License-Identifier: MIT
/*
 * Copyright © 2026 The zex authors
 */

/*
 * DOC: zex-bench-userptr.c - cost of a userptr import, against mlock()
 *
 * Usage: zex-bench-userptr SIZE_MIB
 *
 * A 2 MiB-aligned anonymous range of SIZE_MIB on 4 KiB pages, populated
 * first so that both sides measure pinning, not page faults. zex: DRM_IOCTL_ZEX_USERPTR_IMPORT
 * of the range (pin + page tables), then release. Floor: mlock() of the
 * same range, then munlock(). Median of 5 rounds each, interleaved. Also
 * the page-table memory of the import, from zex's debugfs dump: tables of
 * one page each, over the bytes mapped. Prints two lines:
 * "BENCH userptr size_mib=… zex_ms=… mlock_ms=…" and
 * "BENCH ptmem mapped=… tables=… table_bytes=…".
 */

#include <fcntl.h>
#include <glob.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include <xf86drm.h>

#include <drm/zex_drm.h>

#include "zex_drm_node.h"

#define ROUNDS 5

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* Tables of this process's newest address space, from debugfs. */
static long tables_in_use(void)
{
	char pattern[64], line[128];
	long total = 0, n;
	glob_t g;
	FILE *f;

	snprintf(pattern, sizeof(pattern), "/sys/kernel/debug/zex/vm-%d-*", getpid());
	if (glob(pattern, 0, NULL, &g) || !g.gl_pathc)
		return -1;
	f = fopen(g.gl_pathv[g.gl_pathc - 1], "r");
	globfree(&g);
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "level %*d: %ld tables", &n) == 1)
			total += n;
	fclose(f);
	return total;
}

int main(int argc, char **argv)
{
	size_t size = (argc > 1 ? (size_t)atol(argv[1]) : 1024) << 20;
	double zex[ROUNDS], lock[ROUNDS];
	uint8_t *raw, *mem;
	long tables = -1;
	int fd, r;

	fd = zex_drm_open("zex", DRM_NODE_RENDER);
	if (fd < 0)
		return fprintf(stderr, "zex-bench-userptr: no zex device\n"), 1;
	raw = mmap(NULL, size + (2 << 20), PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (raw == MAP_FAILED)
		return perror("mmap"), 1;
	mem = (uint8_t *)(((uintptr_t)raw + (2 << 20) - 1) & ~(uintptr_t)((2 << 20) - 1));
	/*
	 * 4 KiB pages on both sides: with transparent huge pages mlock() walks
	 * 512 PMDs while an import still pins 262144 pages.
	 */
	madvise(mem, size, MADV_NOHUGEPAGE);
	memset(mem, 1, size);

	for (r = 0; r < ROUNDS; r++) {
		struct drm_zex_userptr_import im = { .addr = (uintptr_t)mem, .size = size };
		struct drm_zex_vm_unbind rel = { 0 };
		double t0 = now_ms();

		if (drmIoctl(fd, DRM_IOCTL_ZEX_USERPTR_IMPORT, &im))
			return perror("import"), 1;
		zex[r] = now_ms() - t0;
		if (!r)
			tables = tables_in_use();
		rel.id = im.id;
		drmIoctl(fd, DRM_IOCTL_ZEX_VM_UNBIND, &rel);

		t0 = now_ms();
		if (mlock(mem, size))
			return perror("mlock"), 1;
		lock[r] = now_ms() - t0;
		munlock(mem, size);
	}
	qsort(zex, ROUNDS, sizeof(double), cmp_double);
	qsort(lock, ROUNDS, sizeof(double), cmp_double);
	printf("BENCH userptr size_mib=%zu zex_ms=%.2f mlock_ms=%.2f\n", size >> 20,
	       zex[ROUNDS / 2], lock[ROUNDS / 2]);
	/* Minus the empty address space's root table. */
	printf("BENCH ptmem mapped=%zu tables=%ld table_bytes=%ld\n", size, tables - 1,
	       (tables - 1) * 4096);
	return 0;
}
