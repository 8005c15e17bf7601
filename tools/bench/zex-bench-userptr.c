// SPDX-License-Identifier: MIT
/*
 * Copyright © 2026 The zex authors
 */

/*
 * DOC: zex-bench-userptr.c - cost of a userptr import, against io_uring's pin
 *
 * Usage: zex-bench-userptr SIZE_MIB (at most 1024: io_uring's buffer limit)
 *
 * A 2 MiB-aligned anonymous range of SIZE_MIB on 4 KiB pages, populated
 * first so that both sides measure pinning, not page faults. zex:
 * DRM_IOCTL_ZEX_USERPTR_IMPORT of the range (a long-term pin, the
 * RLIMIT_MEMLOCK charge, and page tables), then release. Floor: another
 * kernel subsystem doing the same work, io_uring's fixed-buffer
 * registration of the same range (IORING_REGISTER_BUFFERS: a long-term
 * pin, the same charge, and a 16-byte bio_vec per page), then
 * IORING_UNREGISTER_BUFFERS. Median of 5 rounds each, interleaved. Also
 * every byte the import keeps, from zex's debugfs dump: the page tables
 * (one page each) and the mapping record. Prints two lines:
 * "BENCH userptr size_mib=… zex_ms=… uring_ms=…" and
 * "BENCH ptmem mapped=… tables=… table_bytes=… record_bytes=…".
 */

#include <fcntl.h>
#include <glob.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

#include <linux/io_uring.h>
#include <xf86drm.h>

#include <drm/zex_drm.h>

#include "zex_bench.h"
#include "zex_drm_node.h"

#define ROUNDS 5

/* What this process's newest address space keeps, from debugfs. */
static int vm_metadata(long *tables, long *record_bytes)
{
	char pattern[64], line[128];
	long n, size;
	glob_t g;
	FILE *f;

	*tables = 0;
	*record_bytes = 0;
	snprintf(pattern, sizeof(pattern), "/sys/kernel/debug/zex/vm-%d-*", getpid());
	if (glob(pattern, 0, NULL, &g) || !g.gl_pathc)
		return -1;
	f = fopen(g.gl_pathv[g.gl_pathc - 1], "r");
	globfree(&g);
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "level %*d: %ld tables", &n) == 1)
			*tables += n;
		if (sscanf(line, "mappings: %ld of %ld bytes", &n, &size) == 2)
			*record_bytes = n * size;
	}
	fclose(f);
	return 0;
}

/* A pin of [mem, mem + size) by io_uring, and its release: milliseconds. */
static double uring_register(int ring, void *mem, size_t size)
{
	struct iovec iov = { .iov_base = mem, .iov_len = size };
	double t0 = bench_now_ms(), t;

	if (syscall(__NR_io_uring_register, ring, IORING_REGISTER_BUFFERS, &iov, 1))
		return perror("IORING_REGISTER_BUFFERS"), -1;
	t = bench_now_ms() - t0;
	syscall(__NR_io_uring_register, ring, IORING_UNREGISTER_BUFFERS, NULL, 0);
	return t;
}

int main(int argc, char **argv)
{
	size_t size = (argc > 1 ? (size_t)atol(argv[1]) : 1024) << 20;
	double zex[ROUNDS], uring[ROUNDS];
	struct io_uring_params params = { 0 };
	long tables = -1, record_bytes = 0;
	uint8_t *raw, *mem;
	int fd, ring, r;

	fd = zex_drm_open("zex", DRM_NODE_RENDER);
	if (fd < 0)
		return fprintf(stderr, "zex-bench-userptr: no zex device\n"), 1;
	ring = syscall(__NR_io_uring_setup, 4, &params);
	if (ring < 0)
		return perror("io_uring_setup"), 1;
	raw = mmap(NULL, size + (2 << 20), PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (raw == MAP_FAILED)
		return perror("mmap"), 1;
	mem = (uint8_t *)(((uintptr_t)raw + (2 << 20) - 1) & ~(uintptr_t)((2 << 20) - 1));
	/*
	 * 4 KiB pages on both sides: on transparent huge pages both would
	 * pin by folio, which zex's 4 KiB page tables do not yet use.
	 */
	madvise(mem, size, MADV_NOHUGEPAGE);
	memset(mem, 1, size);

	for (r = 0; r < ROUNDS; r++) {
		struct drm_zex_userptr_import im = { .addr = (uintptr_t)mem, .size = size };
		struct drm_zex_vm_unbind rel = { 0 };
		double t0 = bench_now_ms();

		if (drmIoctl(fd, DRM_IOCTL_ZEX_USERPTR_IMPORT, &im))
			return perror("import"), 1;
		zex[r] = bench_now_ms() - t0;
		if (!r && vm_metadata(&tables, &record_bytes))
			return fprintf(stderr, "zex-bench-userptr: no debugfs dump\n"), 1;
		rel.id = im.id;
		drmIoctl(fd, DRM_IOCTL_ZEX_VM_UNBIND, &rel);

		uring[r] = uring_register(ring, mem, size);
		if (uring[r] < 0)
			return 1;
	}
	printf("BENCH userptr size_mib=%zu zex_ms=%.2f uring_ms=%.2f\n", size >> 20,
	       bench_median(zex, ROUNDS), bench_median(uring, ROUNDS));
	/* Minus the empty address space's root table. */
	printf("BENCH ptmem mapped=%zu tables=%ld table_bytes=%ld record_bytes=%ld\n", size,
	       tables - 1, (tables - 1) * 4096, record_bytes);
	return 0;
}
