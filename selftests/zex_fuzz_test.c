// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Copyright © 2026 The zex authors
 */

/*
 * DOC: zex_fuzz_test.c - a structure-aware fuzzer of everything zex exposes
 *
 * Two processes, one root and one unprivileged (uid 65534, as any render
 * group member), each drive a pseudo-random sequence of operations over a
 * pool of live objects: DRM files, buffer objects, dma-buf fds, hostrpc
 * views, eventfds, mappings and address-space mappings. Every zex ioctl
 * and view ioctl is called with arguments that are mostly well formed and
 * sometimes not (stale handles, closed and foreign fds, unknown flags,
 * sizes at and past every limit, bad and read-only user pointers); mmap,
 * munmap, mprotect and mremap cut and move mappings of every mappable
 * object, which are touched, and forked children touch them too.
 *
 * The oracle is the kernel: no splat and no leak (the VM harness scans the
 * log and kmemleak), every result 0 or an errno the uapi lists, and once
 * every object is released, no tile memory charged and no channel alive.
 * Where the kernel has fault injection, 1 call in 16 runs with one of its
 * first allocations failed.
 *
 * A second mode races exec queues: threads of one process create, destroy
 * and submit to the same queue ids of one file while the file is replaced
 * under them (see race()).
 *
 * ZEX_FUZZ_CALLS (default 20000) is the number of calls per process,
 * ZEX_FUZZ_SEED (default 1) the seed; both are printed, and a run with the
 * same seed makes the same sequence of calls. make fuzz runs 10^6 calls on
 * the debug kernel.
 */

#include <dirent.h>
#include <poll.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdint.h>
#include <sys/eventfd.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <grp.h>

#include "zex_selftest.h"

#define PG		4096ul
#define POOL		16
#define MAX_MAPS	32
#define LIVE_CHANNELS	"/sys/kernel/debug/zex/hostrpc_channels"
#define FAIL_NTH	"/proc/thread-self/fail-nth"
#define DEV_VA		0x200000000000ull
#define PROGRESS_EVERY	10000

/*
 * xorshift64*: the whole sequence follows from the seed (per thread: the
 * race mode's threads each have their own).
 */
static __thread uint64_t rng_state;

static uint64_t rnd(void)
{
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return rng_state * 0x2545f4914f6cdd1dull;
}

static uint32_t below(uint32_t n)
{
	return n ? (uint32_t)(rnd() % n) : 0;
}

static bool one_in(uint32_t n)
{
	return below(n) == 0;
}

enum map_kind { MAP_BO, MAP_DMABUF, MAP_VIEW, MAP_HOST };

struct mapping {
	uint8_t *addr;
	size_t len;
	int prot;
	enum map_kind kind;
};

struct pool {
	int drm[POOL];			/* DRM files */
	uint32_t handle[POOL];		/* GEM handles (of drm[i % POOL]'s file) */
	int handle_fd[POOL];		/* which file each handle belongs to */
	uint64_t handle_size[POOL];
	int dmabuf[POOL];
	int view[POOL];			/* hostrpc views, host and device */
	int efd[POOL];
	uint32_t map_id[POOL];		/* address-space mappings */
	int map_id_fd[POOL];
	struct mapping maps[MAX_MAPS];
	uint8_t *host;			/* host memory for imports and pointers */
	size_t host_len;
	bool fault_injection;
	uint64_t device_bytes;		/* every tile's memory together */
	uint64_t calls;
	uint64_t unexpected;
};

static struct pool P;
static sigjmp_buf touch_env;

/* Results the uapi documents; anything else is a finding. */
static const int documented[] = {
	0, EINVAL, ENOENT, ENOSPC, E2BIG, EFAULT, EBADF, EXDEV, EACCES, EBUSY,
	ENOMEM, EMFILE, EPERM, EPIPE, ETIME, ENODEV, ENOTTY, EOPNOTSUPP, EAGAIN,
	EINTR, ENXIO, EIO, ESRCH,
};

static void fail_nth(unsigned int n)
{
	char buf[16];
	int fd;

	if (!P.fault_injection)
		return;
	fd = open(FAIL_NTH, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return;
	snprintf(buf, sizeof(buf), "%u", n);
	(void)!write(fd, buf, strlen(buf));
	close(fd);
}

static bool is_documented(int err)
{
	size_t i;

	for (i = 0; i < sizeof(documented) / sizeof(documented[0]); i++)
		if (err == documented[i])
			return true;
	return false;
}

/* One call into zex: maybe with a fault injected, result checked. */
static int call(int fd, unsigned long req, void *arg)
{
	bool inject = P.fault_injection && one_in(16);
	int ret, err;

	if (inject)
		fail_nth(1 + below(8));
	ret = ioctl(fd, req, arg);
	err = ret < 0 ? errno : 0;
	if (inject)
		fail_nth(0);
	P.calls++;
	if (is_documented(err))
		return ret < 0 ? -err : ret;
	P.unexpected++;
	printf("# unexpected errno %d from ioctl %#lx\n", err, req);
	return -err;
}

/* A user pointer: mostly good, sometimes NULL, unmapped, kernel or read-only. */
static void *uptr(void *good)
{
	switch (below(24)) {
	case 0: return NULL;
	case 1: return (void *)1;
	case 2: return (void *)0xffff888000000000ull;
	case 3: return P.host + P.host_len - PG + below(PG);	/* runs off the end */
	default: return good;
	}
}

static uint64_t fuzz_size(void)
{
	static const uint64_t edges[] = {
		0, 1, PG - 1, PG, PG + 1, 65536, 1 << 20, 16 << 20, 1ull << 30,
		1ull << 32, (1ull << 48) - PG, ~0ull, ~0ull - PG + 1,
	};

	if (one_in(4))
		return edges[below(sizeof(edges) / sizeof(edges[0]))];
	return (1 + below(64)) * PG;
}

static uint32_t fuzz_flags(uint32_t valid)
{
	if (one_in(12))
		return (uint32_t)rnd();
	return (uint32_t)rnd() & valid;
}

static int any_fd(void)
{
	switch (below(8)) {
	case 0: return P.drm[below(POOL)];
	case 1: return P.view[below(POOL)];
	case 2: return P.efd[below(POOL)];
	case 3: return -1;
	case 4: return 1000 + below(100);	/* closed */
	default: return P.dmabuf[below(POOL)];
	}
}

static int a_drm(void)
{
	int i, start = below(POOL);

	for (i = 0; i < POOL; i++)
		if (P.drm[(start + i) % POOL] >= 0)
			return P.drm[(start + i) % POOL];
	return -1;
}

/*
 * Whether @fd is a file of the kind @what ("dmabuf:", "zex-hostrpc"):
 * a call that succeeded on the wrong kind of file may have written
 * anything where a descriptor was expected.
 */
static bool fd_is(int fd, const char *what)
{
	char path[64], target[128];
	ssize_t n;

	if (fd <= 2)
		return false;
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	n = readlink(path, target, sizeof(target) - 1);
	if (n < 0)
		return false;
	target[n] = 0;
	return strstr(target, what) != NULL;
}

/* Keep @fd in a random slot of a pool (closing what was there), once. */
static void put_fd(int *slots, int fd)
{
	int i = below(POOL), k;

	if (fd < 0)
		return;
	for (k = 0; k < POOL; k++)
		if (slots[k] == fd)
			return;
	if (slots[i] >= 0)
		close(slots[i]);
	slots[i] = fd;
}

static void add_map(void *addr, size_t len, int prot, enum map_kind kind)
{
	struct mapping *m = &P.maps[below(MAX_MAPS)];

	if (addr == MAP_FAILED)
		return;
	if (m->addr)
		munmap(m->addr, m->len);
	*m = (struct mapping){ addr, len, prot, kind };
}

static void op_open(void)
{
	int fd = zex_open_render();

	if (fd >= 0)
		put_fd(P.drm, fd);
}

static void op_bo_create(void)
{
	struct drm_zex_bo_create c = {
		.size = fuzz_size(),
		.placement = one_in(3) ? DRM_ZEX_DEVICE_ROOT : below(10),
		.flags = fuzz_flags(DRM_ZEX_BO_CREATE_COLOURING),
		.multi_storage_policy = below(4),
		.multi_storage_granularity_kb = one_in(4) ? (uint32_t)rnd() : 64u << below(6),
	};
	int fd = a_drm(), i = below(POOL);

	if (one_in(16))
		c.pad = 1;
	/*
	 * Objects that could fit the device stay small (the VM's memory is
	 * what they would exhaust); the larger sizes test the limits.
	 */
	if (c.size > (1 << 20) && c.size <= P.device_bytes)
		c.size = 1 << 20;
	if (!call(fd, DRM_IOCTL_ZEX_BO_CREATE, &c)) {
		P.handle[i] = c.handle;
		P.handle_fd[i] = fd;
		P.handle_size[i] = c.size;
	}
}

static void op_gem_close(void)
{
	int i = below(POOL);
	struct drm_gem_close gc = { .handle = one_in(8) ? (uint32_t)rnd() : P.handle[i] };

	call(P.handle_fd[i] >= 0 ? P.handle_fd[i] : a_drm(), DRM_IOCTL_GEM_CLOSE, &gc);
}

static void op_bo_mmap(void)
{
	int i = below(POOL), fd = P.handle_fd[i] >= 0 ? P.handle_fd[i] : a_drm();
	struct drm_zex_bo_mmap_offset m = { .handle = P.handle[i], .flags = fuzz_flags(0) };
	size_t len = one_in(4) ? fuzz_size() : P.handle_size[i];
	int prot = one_in(3) ? PROT_READ : PROT_READ | PROT_WRITE;
	int flags = one_in(6) ? MAP_PRIVATE : MAP_SHARED;

	if (call(fd, DRM_IOCTL_ZEX_BO_MMAP_OFFSET, &m) || !len || len > (64u << 20))
		return;
	add_map(mmap(NULL, len, prot, flags, fd, (off_t)m.offset + (one_in(8) ? PG : 0)),
		len, prot, MAP_BO);
}

static void op_bo_info(void)
{
	struct drm_zex_piece_info info[8];
	int i = below(POOL);
	struct drm_zex_bo_info bi = {
		.handle = P.handle[i], .num_pieces = below(10),
		.pieces = (uintptr_t)uptr(info), .flags = fuzz_flags(0),
	};

	call(P.handle_fd[i] >= 0 ? P.handle_fd[i] : a_drm(), DRM_IOCTL_ZEX_BO_INFO, &bi);
}

static void op_bo_export(void)
{
	int fds[8], i = below(POOL), n, k, *out;
	struct drm_zex_bo_export e = {
		.handle = P.handle[i], .flags = fuzz_flags(DRM_CLOEXEC | DRM_RDWR),
		.num_fds = below(10), .fds = (uintptr_t)uptr(fds),
	};

	if (e.num_fds > 8)
		e.fds = (uintptr_t)uptr(P.host);
	n = call(P.handle_fd[i] >= 0 ? P.handle_fd[i] : a_drm(), DRM_IOCTL_ZEX_BO_EXPORT, &e);
	if (n)
		return;
	/* Success: the fds are where e.fds pointed, fds[] or host memory. */
	out = (int *)(uintptr_t)e.fds;
	for (k = 0; k < (int)e.num_fds; k++) {
		if (!fd_is(out[k], "dmabuf:"))
			continue;
		if (out == fds && one_in(2))
			put_fd(P.dmabuf, out[k]);
		else
			close(out[k]);
	}
}

static void op_bo_import(void)
{
	int fds[8], n = below(9), k, i = below(POOL), fd = a_drm();
	struct drm_zex_bo_import im = {
		.num_fds = n, .fds = (uintptr_t)uptr(fds),
		.flags = fuzz_flags(DRM_ZEX_BO_INTERLEAVED),
		.granularity = one_in(2) ? 0 : 65536ull << below(4),
	};

	for (k = 0; k < n; k++)
		fds[k] = one_in(6) ? any_fd() : P.dmabuf[below(POOL)];
	if (one_in(32))
		im.num_fds = 2000;
	if (!call(fd, DRM_IOCTL_ZEX_BO_IMPORT, &im)) {
		P.handle[i] = im.handle;
		P.handle_fd[i] = fd;
		P.handle_size[i] = im.size;
	}
}

/* Standard PRIME: one-piece objects export, this device's dma-bufs import. */
static void op_prime_export(void)
{
	int i = below(POOL);
	struct drm_prime_handle p = {
		.handle = one_in(8) ? (uint32_t)rnd() : P.handle[i],
		.flags = fuzz_flags(DRM_CLOEXEC | DRM_RDWR),
		.fd = -1,
	};

	if (call(P.handle_fd[i] >= 0 ? P.handle_fd[i] : a_drm(), DRM_IOCTL_PRIME_HANDLE_TO_FD,
		 &p))
		return;
	if (one_in(2))
		put_fd(P.dmabuf, p.fd);
	else
		close(p.fd);
}

static void op_prime_import(void)
{
	int i = below(POOL), fd = a_drm();
	struct drm_prime_handle p = {
		.fd = one_in(6) ? any_fd() : P.dmabuf[below(POOL)],
		.flags = (uint32_t)(one_in(8) ? rnd() : 0),
	};

	if (!call(fd, DRM_IOCTL_PRIME_FD_TO_HANDLE, &p)) {
		P.handle[i] = p.handle;
		P.handle_fd[i] = fd;
		P.handle_size[i] = 0;
	}
}

static void op_dmabuf_mmap(void)
{
	int fd = P.dmabuf[below(POOL)];
	size_t len = (1 + below(16)) * PG;
	int prot = one_in(3) ? PROT_READ : PROT_READ | PROT_WRITE;

	if (fd < 0)
		return;
	add_map(mmap(NULL, len, prot, one_in(6) ? MAP_PRIVATE : MAP_SHARED, fd,
		     (off_t)below(4) * PG), len, prot, MAP_DMABUF);
}

static void op_userptr(void)
{
	size_t off = below(P.host_len / PG) * PG, len = (1 + below(16)) * PG;
	int i = below(POOL), fd = a_drm();
	struct drm_zex_userptr_import im = {
		.addr = (uintptr_t)P.host + off, .size = len,
		.flags = fuzz_flags(DRM_ZEX_USERPTR_READ_ONLY | DRM_ZEX_USERPTR_MIRROR),
	};

	if (off + len > P.host_len)
		im.size = P.host_len - off;
	if (one_in(6)) {
		/* A mapping of zex memory (a PFN map), or nonsense. */
		struct mapping *m = &P.maps[below(MAX_MAPS)];

		im.addr = m->addr ? (uintptr_t)m->addr : rnd();
		im.size = m->addr ? m->len : fuzz_size();
	}
	if (!call(fd, DRM_IOCTL_ZEX_USERPTR_IMPORT, &im)) {
		P.map_id[i] = im.id;
		P.map_id_fd[i] = fd;
	}
}

static void op_vm_bind(void)
{
	int h = below(POOL), i = below(POOL), fd = P.handle_fd[h] >= 0 ? P.handle_fd[h] : a_drm();
	struct drm_zex_vm_bind b = {
		.handle = P.handle[h], .flags = fuzz_flags(DRM_ZEX_VM_BIND_READ_ONLY),
		.va = one_in(8) ? rnd() : DEV_VA + below(256) * 65536ull,
		/* A range of the object: mostly whole, else pages in or past it, or noise. */
		.offset = one_in(4) ? (one_in(4) ? rnd() : below(16) * 4096ull) : 0,
		.range = one_in(4) ? (one_in(4) ? rnd() : below(16) * 4096ull) : 0,
	};

	if (!call(fd, DRM_IOCTL_ZEX_VM_BIND, &b)) {
		P.map_id[i] = b.id;
		P.map_id_fd[i] = fd;
	}
}

static void op_vm_unbind(void)
{
	int i = below(POOL);
	struct drm_zex_vm_unbind u = { .id = one_in(8) ? (uint32_t)rnd() : P.map_id[i] };

	if (one_in(16))
		u.pad = 1;
	call(P.map_id_fd[i] >= 0 ? P.map_id_fd[i] : a_drm(), DRM_IOCTL_ZEX_VM_UNBIND, &u);
}

/* The host changes memory that imports (pinned or mirrored) may cover. */
static void op_host_change(void)
{
	size_t off = below(P.host_len / PG) * PG, len = PG * (1 + below(8));

	if (off + len > P.host_len)
		len = P.host_len - off;
	switch (below(3)) {
	case 0:
		madvise(P.host + off, len, MADV_DONTNEED);
		break;
	case 1:
		mprotect(P.host + off, len, PROT_READ);
		mprotect(P.host + off, len, PROT_READ | PROT_WRITE);
		break;
	default:
		mmap(P.host + off, len, PROT_READ | PROT_WRITE,
		     MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
		break;
	}
}

static void op_copy(void)
{
	uint64_t base[2] = { DEV_VA, (uintptr_t)P.host };
	struct drm_zex_copy c = {
		.src = base[below(2)] + below(1 << 20),
		.dst = base[below(2)] + below(1 << 20),
		.len = one_in(8) ? fuzz_size() : below(8 * PG),
		.flags = fuzz_flags(0),
	};

	call(a_drm(), DRM_IOCTL_ZEX_COPY, &c);
}

static void op_query(void)
{
	uint8_t buf[512];
	struct drm_zex_query q = {
		.query = below(4), .size = one_in(4) ? 0 : below(sizeof(buf)),
		.data = (uintptr_t)uptr(buf), .flags = fuzz_flags(0),
	};

	call(a_drm(), DRM_IOCTL_ZEX_QUERY, &q);
}

static void nonblock(int fd)
{
	if (fd >= 0)
		fcntl(fd, F_SETFL, O_NONBLOCK);
}

static void op_hostrpc_create(void)
{
	struct drm_zex_hostrpc_create c = {
		.nslots = one_in(8) ? (uint32_t)rnd() : 1 + below(64),
		.flags = fuzz_flags(DRM_ZEX_HOSTRPC_CLOEXEC),
	};
	struct drm_zex_hostrpc_create *args = &c;

	if (one_in(16)) {
		/* Arguments the kernel can read but not write back. */
		args = (void *)P.host;
		memcpy(args, &c, sizeof(c));
		mprotect(P.host, PG, PROT_READ);
	}
	if (!call(a_drm(), DRM_IOCTL_ZEX_HOSTRPC_CREATE, args) &&
	    fd_is(args->fd, "zex-hostrpc")) {
		nonblock(args->fd);
		put_fd(P.view, args->fd);
	}
	if (args != &c)
		mprotect(P.host, PG, PROT_READ | PROT_WRITE);
}

static void op_view_ioctl(void)
{
	int fd = one_in(8) ? any_fd() : P.view[below(POOL)];
	union {
		struct drm_zex_hostrpc_info info;
		struct drm_zex_hostrpc_open_view open;
		struct drm_zex_hostrpc_wait wait;
		struct drm_zex_hostrpc_eventfd efd;
	} a;

	memset(&a, 0, sizeof(a));
	switch (below(6)) {
	case 0:
		call(fd, DRM_ZEX_HOSTRPC_IOCTL_INFO, uptr(&a.info));
		break;
	case 1:
		a.open.role = below(3);
		a.open.flags = fuzz_flags(DRM_ZEX_HOSTRPC_CLOEXEC);
		if (!call(fd, DRM_ZEX_HOSTRPC_IOCTL_OPEN_VIEW, &a.open) &&
		    fd_is(fd, "zex-hostrpc") && fd_is(a.open.fd, "zex-hostrpc")) {
			nonblock(a.open.fd);
			put_fd(P.view, a.open.fd);
		}
		break;
	case 2:
		call(fd, DRM_ZEX_HOSTRPC_IOCTL_RING, NULL);
		break;
	case 3:
		/* Never a wait that could sleep for long: now, the past, or 1 ms. */
		a.wait.slot = below(70);
		a.wait.value = below(3);
		a.wait.flags = fuzz_flags(0);
		a.wait.timeout_ns = one_in(4) ? -1 : one_in(2) ? 0 : zex_now_ns() + 1000000;
		call(fd, DRM_ZEX_HOSTRPC_IOCTL_WAIT, &a.wait);
		break;
	case 4:
		a.efd.fd = one_in(2) ? P.efd[below(POOL)] : any_fd();
		a.efd.flags = fuzz_flags(0);
		call(fd, DRM_ZEX_HOSTRPC_IOCTL_SET_EVENTFD, &a.efd);
		break;
	default:
		/* An ioctl number that is no zex request. */
		call(fd, _IOWR('Z', 0x40 + below(16), struct drm_zex_hostrpc_info), &a.info);
		break;
	}
}

static void op_view_file(void)
{
	int fd = P.view[below(POOL)];
	struct pollfd p = { .fd = fd, .events = POLLIN };
	uint64_t v;

	/* Only views are non-blocking: never read() anything else. */
	if (!fd_is(fd, "zex-hostrpc"))
		return;
	if (one_in(2)) {
		(void)!read(fd, &v, one_in(8) ? 4 : sizeof(v));
	} else {
		(void)!poll(&p, 1, 0);
	}
	P.calls++;
}

static void op_view_mmap(void)
{
	int fd = P.view[below(POOL)];
	struct drm_zex_hostrpc_info info;
	int prot = one_in(3) ? PROT_READ : PROT_READ | PROT_WRITE;
	size_t len;

	if (fd < 0 || ioctl(fd, DRM_ZEX_HOSTRPC_IOCTL_INFO, &info))
		return;
	len = one_in(6) ? fuzz_size() % (1 << 20) : info.map_size;
	if (!len)
		return;
	add_map(mmap(NULL, len, prot, one_in(6) ? MAP_PRIVATE : MAP_SHARED, fd,
		     one_in(8) ? PG : 0), len, prot, MAP_VIEW);
}

static void on_fault(int sig)
{
	(void)sig;
	siglongjmp(touch_env, 1);
}

/* Read (and, where writable, write) a few pages of a mapping. */
static void touch(struct mapping *m)
{
	volatile uint8_t *p = m->addr;
	size_t i;

	if (!p)
		return;
	if (sigsetjmp(touch_env, 1))
		return;	/* SIGBUS past an object's end is the defined outcome */
	for (i = 0; i < m->len && i < 16 * PG; i += PG * (1 + below(4))) {
		uint8_t v = p[i];

		if (m->prot & PROT_WRITE)
			p[i] = v + 1;
	}
}

static void op_map_change(void)
{
	struct mapping *m = &P.maps[below(MAX_MAPS)];
	size_t pages = m->len / PG, at, n;
	void *to;

	if (!m->addr || pages < 2)
		return;
	at = below(pages);
	n = 1 + below(pages - at);
	switch (below(5)) {
	case 0:		/* punch a hole: the mapping stays, smaller */
		if (at == 0 && n == pages)
			return;
		munmap(m->addr + at * PG, n * PG);
		if (at == 0) {
			m->addr += n * PG;
			m->len -= n * PG;
			break;
		}
		m->len = at * PG;
		/* A hole in the middle leaves a tail: a mapping of its own. */
		if (at + n < pages)
			add_map(m->addr + (at + n) * PG, (pages - at - n) * PG, m->prot,
				m->kind);
		break;
	case 1:		/* mprotect a part (touch() then only reads) */
		mprotect(m->addr + at * PG, n * PG, PROT_READ);
		m->prot = PROT_READ;
		break;
	case 2:		/* mprotect back to writable: refused for read-only objects */
		if (!mprotect(m->addr, m->len, PROT_READ | PROT_WRITE))
			m->prot = PROT_READ | PROT_WRITE;
		break;
	case 3:		/* move the tail elsewhere */
		if (at == 0)
			return;
		to = mremap(m->addr + at * PG, (pages - at) * PG, (pages - at) * PG,
			    MREMAP_MAYMOVE);
		if (to != MAP_FAILED) {
			m->len = at * PG;
			add_map(to, (pages - at) * PG, m->prot, m->kind);
		}
		break;
	default:	/* try to grow it */
		to = mremap(m->addr, m->len, m->len + PG, MREMAP_MAYMOVE);
		if (to != MAP_FAILED) {
			m->addr = to;
			m->len += PG;
		}
		break;
	}
	P.calls++;
}

static void op_touch(void)
{
	touch(&P.maps[below(MAX_MAPS)]);
}

static void op_fork(void)
{
	pid_t pid = fork();
	int i, status;

	if (pid == 0) {
		for (i = 0; i < MAX_MAPS; i++)
			touch(&P.maps[i]);
		_exit(0);
	}
	if (pid > 0)
		waitpid(pid, &status, 0);
}

static void op_close(void)
{
	int *pools[] = { P.drm, P.dmabuf, P.view, P.efd };
	int *slot = &pools[below(4)][below(POOL)];

	if (*slot >= 0) {
		close(*slot);
		*slot = -1;
	}
}

static void op_eventfd(void)
{
	put_fd(P.efd, eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK));
}



/* Exec queues, jobs, user fences and the DRM sync objects. */
static void op_exec_queue_create(void)
{
	struct drm_zex_exec_queue_create c = {
		.engine_class = below(3), .engine_instance = below(5),
		.device = one_in(4) ? DRM_ZEX_DEVICE_ROOT : below(9),
		.flags = fuzz_flags(DRM_ZEX_EXEC_QUEUE_LONG_RUNNING),
		.priority = one_in(4) ? below(4) : 0,
	};

	call(a_drm(), DRM_IOCTL_ZEX_EXEC_QUEUE_CREATE, &c);
}

static void op_exec_queue_destroy(void)
{
	struct drm_zex_exec_queue_destroy d = { .exec_queue_id = below(20) };

	call(a_drm(), DRM_IOCTL_ZEX_EXEC_QUEUE_DESTROY, &d);
}

static void op_exec_queue_state(void)
{
	struct drm_zex_exec_queue_get_state s = { .exec_queue_id = below(20),
						  .flags = fuzz_flags(0) };

	call(a_drm(), DRM_IOCTL_ZEX_EXEC_QUEUE_GET_STATE, &s);
}

/* A device address: a bound object, host memory, or anything. */
static uint64_t fuzz_va(void)
{
	switch (below(4)) {
	case 0: return DEV_VA + below(1 << 20);
	case 1: return (uintptr_t)P.host + below((uint32_t)P.host_len);
	case 2: return ((uintptr_t)P.host + below((uint32_t)P.host_len)) & ~7ull;
	default: return rnd();
	}
}

static void fuzz_command(struct drm_zex_command *c)
{
	memset(c, 0, sizeof(*c));
	c->op = below(7);
	c->dst = fuzz_va();
	switch (c->op) {
	case DRM_ZEX_CMD_COPY:
		c->src = fuzz_va();
		c->len = one_in(8) ? fuzz_size() : 1 + below(4 * PG);
		break;
	case DRM_ZEX_CMD_FILL:
		c->len = one_in(8) ? fuzz_size() : 1 + below(4 * PG);
		c->pattern_size = below(18);
		memset(c->pattern, 0x5a, c->pattern_size < 16 ? c->pattern_size : 16);
		break;
	case DRM_ZEX_CMD_STORE:
	case DRM_ZEX_CMD_LAUNCH:
		c->value = rnd();
		break;
	case DRM_ZEX_CMD_WAIT:
		/* Mostly true at once: a wait that never is blocks an engine a timeout long. */
		c->src = c->dst;
		c->dst = 0;
		c->compare = one_in(64) ? below(7) : DRM_ZEX_COMPARE_GTE;
		c->mask = one_in(64) ? rnd() : 0;
		break;
	}
	if (one_in(32))
		c->pad = 1;
}

static void fuzz_sync(struct drm_zex_sync *s)
{
	memset(s, 0, sizeof(*s));
	s->type = below(4);
	s->flags = one_in(2) ? DRM_ZEX_SYNC_SIGNAL : fuzz_flags(DRM_ZEX_SYNC_SIGNAL);
	s->handle = below(12);
	s->addr = s->type == DRM_ZEX_SYNC_USER_FENCE ? fuzz_va() : 0;
	s->timeline_value = s->type == DRM_ZEX_SYNC_SYNCOBJ ? 0 : below(8);
	/* A binary syncobj to wait for must have a fence: mostly signal. */
	if (s->type != DRM_ZEX_SYNC_USER_FENCE && !one_in(4))
		s->flags |= DRM_ZEX_SYNC_SIGNAL;
}

static void op_exec(void)
{
	struct drm_zex_command cmds[8];
	struct drm_zex_sync syncs[4];
	struct drm_zex_exec e = {
		.exec_queue_id = below(20),
		.num_commands = one_in(32) ? below(1024) : 1 + below(8),
		.num_syncs = one_in(32) ? below(128) : below(5),
		.flags = fuzz_flags(0),
	};
	uint32_t i;

	for (i = 0; i < 8; i++)
		fuzz_command(&cmds[i]);
	for (i = 0; i < 4; i++)
		fuzz_sync(&syncs[i]);
	e.commands = (uintptr_t)(e.num_commands <= 8 ? uptr(cmds) : cmds);
	e.syncs = (uintptr_t)(e.num_syncs <= 4 ? uptr(syncs) : syncs);
	call(a_drm(), DRM_IOCTL_ZEX_EXEC, &e);
}

static void op_wait_user_fence(void)
{
	struct drm_zex_wait_user_fence w = {
		.addr = fuzz_va(), .op = below(7), .value = below(4), .mask = rnd(),
		.timeout = one_in(2) ? 0 : below(1000000), .flags = fuzz_flags(3),
		.exec_queue_id = below(4),
	};

	call(a_drm(), DRM_IOCTL_ZEX_WAIT_USER_FENCE, &w);
}

/* A compute side's report: mostly of launches 1 to 3 of a few queues, done. */
static void fuzz_report(struct drm_zex_launch_report *r, uint32_t queues)
{
	memset(r, 0, sizeof(*r));
	r->exec_queue_id = below(queues);
	r->tile = one_in(16) ? (uint32_t)rnd() : below(3);
	r->seqno = one_in(16) ? rnd() : below(4);
	if (one_in(4)) {
		r->status = one_in(8) ? below(4) : DRM_ZEX_LAUNCH_FAULT;
		r->fault_reason = below(6);
		r->fault_addr = fuzz_va();
		r->fault_flags = fuzz_flags(DRM_ZEX_FAULT_WRITE);
	}
	if (one_in(32))
		r->pad = 1;
}

static void op_launch_report(void)
{
	struct drm_zex_launch_report r;

	fuzz_report(&r, 20);
	call(a_drm(), DRM_IOCTL_ZEX_LAUNCH_REPORT, &r);
}

static void op_syncobj(void)
{
	uint32_t handles[2] = { below(12), below(12) };
	uint64_t points[2] = { below(8), below(8) };
	int fd = a_drm();

	switch (below(7)) {
	case 0: {
		struct drm_syncobj_create c = { .flags = one_in(2) ? DRM_SYNCOBJ_CREATE_SIGNALED : 0 };

		call(fd, DRM_IOCTL_SYNCOBJ_CREATE, &c);
		break;
	}
	case 1: {
		struct drm_syncobj_destroy d = { .handle = handles[0] };

		call(fd, DRM_IOCTL_SYNCOBJ_DESTROY, &d);
		break;
	}
	case 2: {
		struct drm_syncobj_timeline_wait w = {
			.handles = (uintptr_t)handles, .points = (uintptr_t)points,
			.count_handles = 1 + below(2), .timeout_nsec = 0,
			.flags = below(8),
		};

		call(fd, DRM_IOCTL_SYNCOBJ_TIMELINE_WAIT, &w);
		break;
	}
	case 3: {
		struct drm_syncobj_timeline_array a = {
			.handles = (uintptr_t)handles, .points = (uintptr_t)points,
			.count_handles = 1 + below(2),
		};

		call(fd, one_in(2) ? DRM_IOCTL_SYNCOBJ_TIMELINE_SIGNAL :
			 DRM_IOCTL_SYNCOBJ_QUERY, &a);
		break;
	}
	case 4: {
		struct drm_syncobj_array a = { .handles = (uintptr_t)handles,
					       .count_handles = 1 + below(2) };

		call(fd, one_in(2) ? DRM_IOCTL_SYNCOBJ_SIGNAL : DRM_IOCTL_SYNCOBJ_RESET, &a);
		break;
	}
	case 5: {
		struct drm_syncobj_handle h = {
			.handle = handles[0], .fd = -1,
			.flags = one_in(2) ? DRM_SYNCOBJ_HANDLE_TO_FD_FLAGS_EXPORT_SYNC_FILE : 0,
		};

		if (!call(fd, DRM_IOCTL_SYNCOBJ_HANDLE_TO_FD, &h) && h.fd >= 0) {
			struct drm_syncobj_handle in = {
				.fd = h.fd, .handle = one_in(2) ? handles[1] : 0,
				.flags = h.flags ? DRM_SYNCOBJ_FD_TO_HANDLE_FLAGS_IMPORT_SYNC_FILE : 0,
			};

			call(a_drm(), DRM_IOCTL_SYNCOBJ_FD_TO_HANDLE, &in);
			close(h.fd);
		}
		break;
	}
	default: {
		struct drm_syncobj_transfer t = {
			.src_handle = handles[0], .dst_handle = handles[1],
			.src_point = points[0], .dst_point = points[1],
		};

		call(fd, DRM_IOCTL_SYNCOBJ_TRANSFER, &t);
		break;
	}
	}
}

static void op_drm_unknown(void)
{
	uint8_t arg[64] = { 0 };

	call(a_drm(), DRM_IOWR(DRM_COMMAND_BASE + below(32), struct drm_zex_bo_create),
	     uptr(arg));
}

static void (*const ops[])(void) = {
	op_open, op_bo_create, op_bo_create, op_bo_create, op_gem_close,
	op_bo_mmap, op_bo_mmap, op_bo_info, op_bo_export, op_bo_export,
	op_bo_import, op_bo_import, op_prime_export, op_prime_import, op_dmabuf_mmap,
	op_userptr, op_userptr,
	op_vm_bind, op_vm_bind, op_vm_unbind, op_copy, op_copy, op_host_change, op_query,
	op_hostrpc_create, op_view_ioctl, op_view_ioctl, op_view_ioctl,
	op_view_file, op_view_mmap, op_map_change, op_map_change, op_touch,
	op_touch, op_fork, op_close, op_eventfd, op_drm_unknown,
	op_exec_queue_create, op_exec_queue_destroy, op_exec_queue_state, op_exec, op_exec,
	op_exec, op_wait_user_fence, op_syncobj, op_syncobj, op_syncobj,
	op_launch_report, op_launch_report,
};

static void release_all(void)
{
	int i;

	for (i = 0; i < MAX_MAPS; i++)
		if (P.maps[i].addr)
			munmap(P.maps[i].addr, P.maps[i].len);
	for (i = 0; i < POOL; i++) {
		if (P.drm[i] >= 0)
			close(P.drm[i]);
		if (P.dmabuf[i] >= 0)
			close(P.dmabuf[i]);
		if (P.view[i] >= 0)
			close(P.view[i]);
		if (P.efd[i] >= 0)
			close(P.efd[i]);
	}
}

/* How far a long run got, and what it holds: fds and VMAs. */
static int open_fds(void)
{
	DIR *d = opendir("/proc/self/fd");
	int n = 0;

	if (!d)
		return -1;
	while (readdir(d))
		n++;
	closedir(d);
	return n - 3;	/* ".", ".." and the directory's own fd */
}

/* Lines of a /proc file (one per VMA of /proc/self/maps). */
static int proc_lines(const char *path)
{
	FILE *f = fopen(path, "r");
	int c, n = 0;

	if (!f)
		return -1;
	while ((c = fgetc(f)) != EOF)
		n += c == '\n';
	fclose(f);
	return n;
}

static void progress(uid_t uid, int64_t start)
{
	int64_t ms = (zex_now_ns() - start) / 1000000;

	printf("# uid %u: %llu calls in %lld s (%lld/s), %d fds, %d VMAs\n", uid,
	       (unsigned long long)P.calls, (long long)ms / 1000,
	       ms ? (long long)(P.calls * 1000 / ms) : 0, open_fds(), proc_lines("/proc/self/maps"));
	fflush(stdout);
}

/* An empty pool, host memory for imports and pointers, the seed; 0 or -1. */
static int pool_init(uint64_t seed)
{
	int i;

	memset(&P, 0, sizeof(P));
	for (i = 0; i < POOL; i++)
		P.drm[i] = P.dmabuf[i] = P.view[i] = P.efd[i] = P.handle_fd[i] = P.map_id_fd[i] = -1;
	rng_state = seed * 0x9e3779b97f4a7c15ull | 1;
	P.fault_injection = access(FAIL_NTH, W_OK) == 0;
	P.device_bytes = (uint64_t)zex_param("tiles") * zex_param("tile_mem_mb") << 20;
	P.host_len = 64 * PG;
	P.host = mmap(NULL, P.host_len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
		      -1, 0);
	if (P.host == MAP_FAILED)
		return -1;
	memset(P.host, 0x5a, P.host_len);
	return 0;
}

/* One fuzzing process; exits 0, or 1 when a result was undocumented. */
static int fuzz(uint64_t seed, uint64_t calls, uid_t uid)
{
	struct sigaction sa = { .sa_handler = on_fault };
	uint64_t next_report = PROGRESS_EVERY;
	int64_t start;

	if (pool_init(seed))
		return 2;
	sigaction(SIGSEGV, &sa, NULL);
	sigaction(SIGBUS, &sa, NULL);
	if (uid && zex_become_user(uid))
		return 3;
	P.drm[0] = zex_open_render();
	if (P.drm[0] < 0)
		return 4;
	start = zex_now_ns();
	while (P.calls < calls) {
		ops[below(sizeof(ops) / sizeof(ops[0]))]();
		if (P.calls >= next_report) {
			progress(uid, start);
			next_report += PROGRESS_EVERY;
		}
	}
	printf("# uid %u seed %llu: %llu calls, %llu undocumented results\n", uid,
	       (unsigned long long)seed, (unsigned long long)P.calls,
	       (unsigned long long)P.unexpected);
	fflush(stdout);
	release_all();
	return P.unexpected ? 1 : 0;
}

/*
 * The race mode: RACERS threads of one process share one DRM file and race
 * on its exec queues: create (any engine and priority, long-running or
 * not), destroy, get the state of, exec on and report launches of the same
 * few ids (commands and syncs as above, waits and launches included), and
 * now and then the file itself is replaced under them
 * (dup2() of a fresh file onto its number: the old file goes, with its
 * queues full of jobs, once no ioctl holds it). Every result must be
 * documented; afterwards every module reference is back. Each thread has
 * its own seed (the process's seed, then the thread's index).
 */
#define RACERS		4
#define RACE_IDS	8

/* The number of the shared file; dup2() puts a new file behind it. */
static int race_fd = -1;
/* The render node it is, opened again for each new file. */
static char race_node[64];

/* A racing thread: its seed, how many calls it makes, how many were undocumented. */
struct racer {
	pthread_t thread;
	uint64_t seed, calls, unexpected;
};

static void race_call(struct racer *r, unsigned long req, void *arg)
{
	int err = ioctl(race_fd, req, arg) ? errno : 0;

	if (is_documented(err))
		return;
	r->unexpected++;
	printf("# race: unexpected errno %d from ioctl %#lx\n", err, req);
}

/* A fresh file with the host memory imported (device VA == host VA). */
static int race_open(void)
{
	struct drm_zex_userptr_import imp = { .addr = (uintptr_t)P.host, .size = P.host_len };
	int fd = race_node[0] ? open(race_node, O_RDWR | O_CLOEXEC) : zex_open_render();

	if (fd >= 0 && ioctl(fd, DRM_IOCTL_ZEX_USERPTR_IMPORT, &imp)) {
		close(fd);
		return -1;
	}
	return fd;
}

static void *race_thread(void *arg)
{
	struct racer *r = arg;
	uint64_t i;

	rng_state = r->seed * 0x9e3779b97f4a7c15ull | 1;
	for (i = 0; i < r->calls; i++) {
		uint32_t what = below(32);


		if (what < 5) {
			struct drm_zex_exec_queue_create c = {
				.engine_class = one_in(2) ? DRM_ZEX_ENGINE_CLASS_COPY
							  : DRM_ZEX_ENGINE_CLASS_COMPUTE,
				.engine_instance = below(4),
				.device = one_in(3) ? DRM_ZEX_DEVICE_ROOT : below(3),
				.priority = below(2),
				.flags = one_in(3) ? DRM_ZEX_EXEC_QUEUE_LONG_RUNNING : 0,
			};

			race_call(r, DRM_IOCTL_ZEX_EXEC_QUEUE_CREATE, &c);
		} else if (what < 9) {
			struct drm_zex_exec_queue_destroy d = { .exec_queue_id = 1 + below(RACE_IDS) };

			race_call(r, DRM_IOCTL_ZEX_EXEC_QUEUE_DESTROY, &d);
		} else if (what < 11) {
			struct drm_zex_exec_queue_get_state g = { .exec_queue_id = 1 + below(RACE_IDS) };

			race_call(r, DRM_IOCTL_ZEX_EXEC_QUEUE_GET_STATE, &g);
		} else if (what < 13) {
			struct drm_syncobj_create c = { .flags = below(2) };

			race_call(r, DRM_IOCTL_SYNCOBJ_CREATE, &c);
		} else if (what == 14 || what == 15) {
			struct drm_zex_launch_report rep;

			fuzz_report(&rep, 1 + RACE_IDS);
			race_call(r, DRM_IOCTL_ZEX_LAUNCH_REPORT, &rep);
		} else if (what == 13 && one_in(8)) {
			int fresh = race_open();

			if (fresh >= 0) {
				dup2(fresh, race_fd);
				close(fresh);
			}
		} else {
			struct drm_zex_command cmds[4];
			struct drm_zex_sync syncs[2];
			struct drm_zex_exec e = {
				.exec_queue_id = 1 + below(RACE_IDS),
				.num_commands = 1 + below(4), .num_syncs = below(3),
				.commands = (uintptr_t)cmds, .syncs = (uintptr_t)syncs,
			};
			uint32_t k;

			for (k = 0; k < 4; k++) {
				fuzz_command(&cmds[k]);
				/*
				 * Waits that come true at once: one that never does
				 * holds its engine a job timeout long, and every
				 * replaced file's queues wait behind it (the other
				 * mode has those).
				 */
				if (cmds[k].op == DRM_ZEX_CMD_WAIT) {
					cmds[k].compare = DRM_ZEX_COMPARE_GTE;
					cmds[k].mask = 0;
				}
			}
			for (k = 0; k < 2; k++)
				fuzz_sync(&syncs[k]);
			race_call(r, DRM_IOCTL_ZEX_EXEC, &e);
		}
	}
	return NULL;
}

/* One racing process: 0, 1 when a result was undocumented, else setup failed. */
static int race(uint64_t seed, uint64_t calls, uid_t uid)
{
	struct racer racers[RACERS];
	uint64_t done = 0, unexpected = 0;
	char link[32];
	ssize_t n;
	int i;

	if (pool_init(seed))
		return 2;
	if (uid && zex_become_user(uid))
		return 3;
	race_fd = race_open();
	if (race_fd < 0)
		return 4;
	snprintf(link, sizeof(link), "/proc/self/fd/%d", race_fd);
	n = readlink(link, race_node, sizeof(race_node) - 1);
	if (n <= 0)
		return 4;
	race_node[n] = 0;
	for (i = 0; i < RACERS; i++) {
		racers[i] = (struct racer){ .seed = seed * RACERS + i, .calls = calls / RACERS };
		if (pthread_create(&racers[i].thread, NULL, race_thread, &racers[i]))
			return 5;
	}
	for (i = 0; i < RACERS; i++) {
		pthread_join(racers[i].thread, NULL);
		done += racers[i].calls;
		unexpected += racers[i].unexpected;
	}
	printf("# uid %u seed %llu: %llu racing calls from %d threads, %llu undocumented\n",
	       uid, (unsigned long long)seed, (unsigned long long)done, RACERS,
	       (unsigned long long)unexpected);
	fflush(stdout);
	close(race_fd);
	return unexpected ? 1 : 0;
}

static uint64_t env_u64(const char *name, uint64_t def)
{
	const char *s = getenv(name);

	return s && *s ? strtoull(s, NULL, 0) : def;
}

/* Let a render-group user open the node, as udev's rules do. */
static void open_render_nodes_to_all(void)
{
	char path[64];
	int i;

	for (i = 128; i < 192; i++) {
		snprintf(path, sizeof(path), "/dev/dri/renderD%d", i);
		chmod(path, 0666);
	}
}

/*
 * @fn as root (seed @seed) and as an unprivileged user (seed @seed + 1)
 * at once, each in a process of its own; each must exit 0.
 */
static void root_and_unprivileged(struct __test_metadata *_metadata,
				  int (*fn)(uint64_t seed, uint64_t calls, uid_t uid),
				  uint64_t seed, uint64_t calls)
{
	pid_t pids[2];
	int i, status;

	for (i = 0; i < 2; i++) {
		pids[i] = fork();
		ASSERT_LE(0, pids[i]);
		if (!pids[i])
			_exit(fn(seed + i, calls, i ? ZEX_NOBODY : 0));
	}
	for (i = 0; i < 2; i++) {
		ASSERT_EQ(pids[i], waitpid(pids[i], &status, 0));
		EXPECT_TRUE(WIFEXITED(status)) TH_LOG("process %d died: signal %d", i,
						      WTERMSIG(status));
		EXPECT_EQ(0, WEXITSTATUS(status)) TH_LOG("process %d", i);
	}
}

FIXTURE(fuzz) {
	int unused;
};

FIXTURE_SETUP(fuzz)
{
}

FIXTURE_TEARDOWN(fuzz)
{
}

/* 10 minutes; make fuzz (ZEX_STRESS=1) allows an hour. */
TEST_F_TIMEOUT(fuzz, root_and_unprivileged, 600)
{
	uint64_t seed = env_u64("ZEX_FUZZ_SEED", 1);
	uint64_t calls = env_u64("ZEX_FUZZ_CALLS", 20000);
	long long live = zex_sysfs_u64(LIVE_CHANNELS);
	long long refs = zex_sysfs_u64("/sys/module/zex/refcnt");
	static const char *const knobs[][2] = {
		{ "/sys/kernel/debug/failslab/ignore-gfp-wait", "N" },
		{ "/sys/kernel/debug/failslab/verbose", "0" },
		{ "/sys/kernel/debug/fail_page_alloc/ignore-gfp-wait", "N" },
		{ "/sys/kernel/debug/fail_page_alloc/verbose", "0" },
	};
	int i;

	for (i = 0; i < 4; i++)
		zex_sysfs_write(knobs[i][0], knobs[i][1]);
	open_render_nodes_to_all();
	TH_LOG("seed %llu, %llu calls per process (ZEX_FUZZ_SEED, ZEX_FUZZ_CALLS)",
	       (unsigned long long)seed, (unsigned long long)calls);
	root_and_unprivileged(_metadata, fuzz, seed, calls);
	/*
	 * Everything released: no memory charged, no channel alive. An
	 * exiting process's queues are torn down after it (their jobs hold
	 * its address space): once the module's references are back, so is
	 * the memory.
	 */
	EXPECT_GE(refs, zex_module_refs_drop_to(refs));
	EXPECT_EQ(0, zex_tiles_usage());
	EXPECT_EQ(live, zex_sysfs_u64(LIVE_CHANNELS));
}

/*
 * The race mode, as root and as an unprivileged user at once: a quarter
 * of ZEX_FUZZ_CALLS per process (its threads share one file, so a call
 * here costs more than one of the other mode), spread over its threads. Every queue, job and
 * file the racers left goes: the module's references come back.
 */
TEST_F_TIMEOUT(fuzz, queues_raced_by_threads_on_one_file, 600)
{
	uint64_t seed = env_u64("ZEX_FUZZ_SEED", 1);
	uint64_t calls = env_u64("ZEX_FUZZ_CALLS", 20000);
	long long refs = zex_sysfs_u64("/sys/module/zex/refcnt");

	open_render_nodes_to_all();
	TH_LOG("seed %llu, %llu racing calls per process (ZEX_FUZZ_SEED, ZEX_FUZZ_CALLS / 4)",
	       (unsigned long long)seed, (unsigned long long)calls / 4);
	root_and_unprivileged(_metadata, race, seed, calls / 4);
	EXPECT_GE(refs, zex_module_refs_drop_to(refs));
}

ZEX_SELFTEST_MAIN
