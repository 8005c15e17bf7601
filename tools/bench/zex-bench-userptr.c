// SPDX-License-Identifier: MIT
/*
 * Copyright © 2026 The zex authors
 */

/*
 * DOC: zex-bench-userptr.c - cost of a userptr import, against io_uring's pin
 *
 * Usage: zex-bench-userptr SIZE_MIB (at most 1024: io_uring's buffer limit)
 *
 * Two 2 MiB-aligned anonymous ranges of SIZE_MIB, populated first so that
 * every side measures pinning or mirroring, not page faults: one on 4 KiB
 * pages (MADV_NOHUGEPAGE), one on transparent huge pages (MADV_HUGEPAGE,
 * MADV_COLLAPSE where the fault did not give them; the bytes of THP that
 * back it are printed). For each, in interleaved rounds (median of 5):
 * DRM_IOCTL_ZEX_USERPTR_IMPORT pinned (a long-term pin, the RLIMIT_MEMLOCK
 * charge and page tables: 2 MiB leaves on THP), then released; the same
 * with DRM_ZEX_USERPTR_MIRROR (an MMU interval notifier, hmm_range_fault()
 * of every page, page tables), then released; and the floor, another
 * kernel subsystem's long-term pin of the same range: io_uring's
 * fixed-buffer registration (IORING_REGISTER_BUFFERS: a long-term pin, the
 * same charge, a 16-byte bio_vec per page), then unregistered. Also every
 * byte each kind of import keeps, from zex's debugfs dump: page tables
 * (one page each), the mapping record and a mirror's own record. Prints
 * "BENCH userptr pages=4k|thp size_mib=… pin_ms=… mirror_ms=… uring_ms=…
 * thp_kb=…" and, per kind, "BENCH ptmem pages=… kind=pin|mirror mapped=…
 * tables=… huge=… table_bytes=… record_bytes=…".
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

#ifndef MADV_COLLAPSE
#define MADV_COLLAPSE	25
#endif

#include <linux/io_uring.h>
#include <xf86drm.h>

#include <drm/zex_drm.h>

#include "zex_anon_huge.h"
#include "zex_bench.h"
#include "zex_drm_node.h"

#define ROUNDS 5

/* What this process's newest address space keeps, from debugfs. */
struct vm_metadata {
	long tables, huge, record_bytes;
};

static int vm_metadata(struct vm_metadata *md)
{
	char pattern[64], line[128];
	long n, size;
	glob_t g;
	FILE *f;

	memset(md, 0, sizeof(*md));
	snprintf(pattern, sizeof(pattern), "/sys/kernel/debug/zex/vm-%d-*", getpid());
	if (glob(pattern, 0, NULL, &g) || !g.gl_pathc)
		return -1;
	f = fopen(g.gl_pathv[g.gl_pathc - 1], "r");
	globfree(&g);
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "level %*d: %ld tables", &n) == 1)
			md->tables += n;
		if (sscanf(line, "mappings: %ld of %ld bytes", &n, &size) == 2)
			md->record_bytes += n * size;
		if (sscanf(line, "mirror records: %ld bytes", &n) == 1)
			md->record_bytes += n;
		if (sscanf(line, "2 MiB leaves: %ld", &n) == 1)
			md->huge = n;
	}
	fclose(f);
	return 0;
}

/* An import of the range and its release: milliseconds; the metadata when @md. */
static double zex_import(int fd, void *mem, size_t size, uint32_t flags,
			 struct vm_metadata *md)
{
	struct drm_zex_userptr_import im = {
		.addr = (uintptr_t)mem, .size = size, .flags = flags,
	};
	struct drm_zex_vm_unbind rel = { 0 };
	double t0 = bench_now_ms(), t;

	if (drmIoctl(fd, DRM_IOCTL_ZEX_USERPTR_IMPORT, &im))
		return perror("import"), -1;
	t = bench_now_ms() - t0;
	if (md && vm_metadata(md))
		return fprintf(stderr, "zex-bench-userptr: no debugfs dump\n"), -1;
	rel.id = im.id;
	drmIoctl(fd, DRM_IOCTL_ZEX_VM_UNBIND, &rel);
	return t;
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

static void print_ptmem(const char *pages, const char *kind, size_t size,
			struct vm_metadata *md, const struct vm_metadata *empty)
{
	long tables = md->tables - empty->tables;

	printf("BENCH ptmem pages=%s kind=%s mapped=%zu tables=%ld huge=%ld table_bytes=%ld "
	       "record_bytes=%ld\n", pages, kind, size, tables, md->huge, tables * 4096,
	       md->record_bytes - empty->record_bytes);
}

/* One kind of memory: import it pinned, mirrored, and pin it with io_uring. */
static int bench_memory(int fd, int ring, size_t size, int thp)
{
	const char *pages = thp ? "thp" : "4k";
	double pin[ROUNDS], mirror[ROUNDS], uring[ROUNDS];
	struct vm_metadata empty, md_pin, md_mirror;
	uint8_t *raw, *mem;
	int r;

	raw = mmap(NULL, size + (2 << 20), PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (raw == MAP_FAILED)
		return perror("mmap"), 1;
	mem = (uint8_t *)(((uintptr_t)raw + (2 << 20) - 1) & ~(uintptr_t)((2 << 20) - 1));
	madvise(mem, size, thp ? MADV_HUGEPAGE : MADV_NOHUGEPAGE);
	memset(mem, 1, size);
	if (thp && zex_anon_huge_kb(mem) < (long)(size >> 10))
		madvise(mem, size, MADV_COLLAPSE);
	if (vm_metadata(&empty))
		return fprintf(stderr, "zex-bench-userptr: no debugfs dump\n"), 1;

	for (r = 0; r < ROUNDS; r++) {
		pin[r] = zex_import(fd, mem, size, 0, r ? NULL : &md_pin);
		mirror[r] = zex_import(fd, mem, size, DRM_ZEX_USERPTR_MIRROR,
				       r ? NULL : &md_mirror);
		uring[r] = uring_register(ring, mem, size);
		if (pin[r] < 0 || mirror[r] < 0 || uring[r] < 0)
			return 1;
	}
	printf("BENCH userptr pages=%s size_mib=%zu pin_ms=%.2f mirror_ms=%.2f uring_ms=%.2f "
	       "thp_kb=%ld\n", pages, size >> 20, bench_median(pin, ROUNDS),
	       bench_median(mirror, ROUNDS), bench_median(uring, ROUNDS),
	       thp ? zex_anon_huge_kb(mem) : 0);
	print_ptmem(pages, "pin", size, &md_pin, &empty);
	print_ptmem(pages, "mirror", size, &md_mirror, &empty);
	munmap(raw, size + (2 << 20));
	return 0;
}

int main(int argc, char **argv)
{
	size_t size = (argc > 1 ? (size_t)atol(argv[1]) : 1024) << 20;
	struct io_uring_params params = { 0 };
	int fd, ring;

	fd = zex_drm_open("zex", DRM_NODE_RENDER);
	if (fd < 0)
		return fprintf(stderr, "zex-bench-userptr: no zex device\n"), 1;
	ring = syscall(__NR_io_uring_setup, 4, &params);
	if (ring < 0)
		return perror("io_uring_setup"), 1;
	return bench_memory(fd, ring, size, 0) || bench_memory(fd, ring, size, 1);
}
