// SPDX-License-Identifier: MIT
/*
 * DOC: kernel_faults.c - SIGSEGV and SIGBUS in kernel code: the part's fault, not the process's
 *
 * The handlers are installed once, when the engine first runs a part
 * (SA_SIGINFO, SA_ONSTACK; the actions they replace are kept). A fault is
 * a kernel's when the faulting instruction is in a shared object PoCL
 * built for a kernel that a watched part runs: dladdr() names the object,
 * PoCL names it after its kernel ("<kernel>.so") and its code after it
 * ("_pocl_kernel_<kernel>..."). Every watched part of that kernel is told
 * (two launches of one kernel at once cannot be told apart here: both
 * report the fault). An unmapped page above the first 64 KiB is then
 * given a page of zeros (MAP_FIXED_NOREPLACE: never over a mapping), so
 * the instruction runs again and the kernel goes on to its end; those
 * pages are unmapped once no part is watched. Any other kernel fault (a
 * write to a read-only page, an address that cannot be mapped, no room to
 * remember the page) stops the faulting thread in the handler for good,
 * and the part is marked stuck so its waiter gives up on it. A fault that
 * is not a watched kernel's goes to the previous action: its handler, or
 * the default (the instruction runs again and the process dies of it).
 * The handler calls only async-signal-safe functions, but dladdr(), which
 * the C library's crash reporters use the same way.
 */
#include <dlfcn.h>
#include <errno.h>
#include <linux/futex.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <ucontext.h>
#include <unistd.h>

#include "compute/kernel_faults.h"

#define MAX_WATCHES	64
#define MAX_PAGES	256
#define LOW_LIMIT	(64u << 10)
#define PAGE_SIZE_4K	4096ul
/* x86's page-fault error code: bit 1 set for a write. */
#define PF_WRITE	0x2

static struct zex_fault_watch *_Atomic watches[MAX_WATCHES];
static atomic_int num_watched;
/* Pool threads stopped for good by a fault they could not be lent a page for. */
static atomic_uint num_parked;
static _Atomic uintptr_t pages[MAX_PAGES];
static pthread_mutex_t pages_lock = PTHREAD_MUTEX_INITIALIZER;
static struct sigaction old_segv, old_bus;
static pthread_once_t installed = PTHREAD_ONCE_INIT;
static int install_error;

static long futex(atomic_uint *word, int op, unsigned int val)
{
	return syscall(SYS_futex, word, op, val, NULL, NULL, 0);
}

/** zex_faults_wake - wake the part's waiter (its launch ended, or it is stuck) */
void zex_faults_wake(struct zex_fault_watch *w)
{
	atomic_fetch_add(&w->wake, 1);
	futex(&w->wake, FUTEX_WAKE_PRIVATE, INT32_MAX);
}

/** zex_faults_put - drop a hold on a watch (zex_faults_watch() gave two); the last frees it */
void zex_faults_put(struct zex_fault_watch *w)
{
	if (atomic_fetch_sub(&w->refs, 1) == 1)
		free(w);
}

/** zex_faults_sleep - sleep until zex_faults_wake() moved @w->wake past @seen */
void zex_faults_sleep(struct zex_fault_watch *w, unsigned int seen)
{
	while (atomic_load(&w->wake) == seen)
		futex(&w->wake, FUTEX_WAIT_PRIVATE, seen);
}

/* The kernel the code at @pc belongs to, if PoCL built it: its .so's name. */
static bool kernel_of(void *pc, char *name, size_t size)
{
	const char *base, *dot;
	Dl_info info;
	size_t len;

	if (!dladdr(pc, &info) || !info.dli_fname)
		return false;
	if (info.dli_sname && strncmp(info.dli_sname, "_pocl_kernel_", 13))
		return false;
	base = strrchr(info.dli_fname, '/');
	base = base ? base + 1 : info.dli_fname;
	dot = strrchr(base, '.');
	if (!dot || strcmp(dot, ".so"))
		return false;
	len = (size_t)(dot - base);
	if (len >= size)
		return false;
	memcpy(name, base, len);
	name[len] = '\0';
	return true;
}

/* Tell every watched part of kernel @name; Return: how many. */
static int tell(const char *name, uint64_t addr, bool write, bool read_only, bool stuck)
{
	int i, n = 0;

	for (i = 0; i < MAX_WATCHES; i++) {
		struct zex_fault_watch *w = atomic_load(&watches[i]);
		int expected = 0;

		if (!w || strcmp(w->kernel, name))
			continue;
		if (atomic_compare_exchange_strong(&w->faulted, &expected, 1)) {
			w->addr = addr;
			w->write = write;
			w->read_only = read_only;
		}
		if (stuck) {
			atomic_store(&w->stuck, 1);
			zex_faults_wake(w);
		}
		n++;
	}
	return n;
}

/* Give the unmapped page at @addr a page of zeros; Return: whether it has one now. */
static bool lend_page(uintptr_t addr)
{
	uintptr_t page = addr & ~(PAGE_SIZE_4K - 1);
	void *p;
	int i;

	if (page < LOW_LIMIT)
		return false;
	for (i = 0; i < MAX_PAGES; i++) {
		uintptr_t none = 0;

		if (!atomic_compare_exchange_strong(&pages[i], &none, page))
			continue;
		p = mmap((void *)page, PAGE_SIZE_4K, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
		if (p == (void *)page)
			return true;
		if (p != MAP_FAILED)
			munmap(p, PAGE_SIZE_4K);
		atomic_store(&pages[i], 0);
		/* Mapped since the fault (another thread got there first): go on. */
		return errno == EEXIST;
	}
	return false;
}

static void pass_on(int sig, siginfo_t *si, void *ctx)
{
	struct sigaction *old = sig == SIGSEGV ? &old_segv : &old_bus;

	if ((old->sa_flags & SA_SIGINFO) && old->sa_sigaction) {
		old->sa_sigaction(sig, si, ctx);
	} else if (old->sa_handler != SIG_DFL && old->sa_handler != SIG_IGN) {
		old->sa_handler(sig);
	} else {
		/* The default action, when the instruction runs again. */
		sigaction(sig, old, NULL);
	}
}

static void on_fault(int sig, siginfo_t *si, void *ctx)
{
	ucontext_t *uc = ctx;
	void *pc = (void *)uc->uc_mcontext.gregs[REG_RIP];
	bool write = uc->uc_mcontext.gregs[REG_ERR] & PF_WRITE;
	uintptr_t addr = (uintptr_t)si->si_addr;
	int saved = errno;
	char name[256];

	bool read_only = sig == SIGSEGV && si->si_code == SEGV_ACCERR;

	if (!atomic_load(&num_watched) || !kernel_of(pc, name, sizeof(name)) ||
	    !tell(name, addr, write, read_only, false)) {
		errno = saved;
		pass_on(sig, si, ctx);
		return;
	}
	if (sig == SIGSEGV && si->si_code == SEGV_MAPERR && lend_page(addr)) {
		errno = saved;
		return;
	}
	/* Nothing to give it: this thread stops here, and the part is stuck. */
	atomic_fetch_add(&num_parked, 1);
	tell(name, addr, write, read_only, true);
	for (;;)
		pause();
}

static void install(void)
{
	struct sigaction sa = { .sa_sigaction = on_fault,
				.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_RESTART };

	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGSEGV, &sa, &old_segv) || sigaction(SIGBUS, &sa, &old_bus))
		install_error = -errno;
}

/** zex_faults_parked - the threads a fault has stopped for good */
uint32_t zex_faults_parked(void)
{
	return atomic_load(&num_parked);
}

/** zex_faults_install - install the handlers, once; Return: 0 or -errno */
int zex_faults_install(void)
{
	pthread_once(&installed, install);
	return install_error;
}

/**
 * zex_faults_watch - watch a part that runs kernel @kernel
 * @w: the watch (malloc()ed); zeroed here, with two holds (the waiter's
 *	and the part's completion callback's: zex_faults_put()).
 * @kernel: the kernel's name (kept by the caller while watched).
 *
 * Return: 0; -EBUSY when MAX_WATCHES parts are watched already.
 */
int zex_faults_watch(struct zex_fault_watch *w, const char *kernel)
{
	int i;

	memset(w, 0, sizeof(*w));
	w->kernel = kernel;
	atomic_init(&w->refs, 2);
	atomic_fetch_add(&num_watched, 1);
	for (i = 0; i < MAX_WATCHES; i++) {
		struct zex_fault_watch *none = NULL;

		if (atomic_compare_exchange_strong(&watches[i], &none, w))
			return 0;
	}
	atomic_fetch_sub(&num_watched, 1);
	return -EBUSY;
}

/** zex_faults_unwatch - stop watching a part; the last one returns the lent pages */
void zex_faults_unwatch(struct zex_fault_watch *w)
{
	int i;

	for (i = 0; i < MAX_WATCHES; i++) {
		struct zex_fault_watch *me = w;

		if (atomic_compare_exchange_strong(&watches[i], &me, NULL))
			break;
	}
	pthread_mutex_lock(&pages_lock);
	if (atomic_fetch_sub(&num_watched, 1) == 1) {
		for (i = 0; i < MAX_PAGES; i++) {
			uintptr_t page = atomic_exchange(&pages[i], 0);

			if (page)
				munmap((void *)page, PAGE_SIZE_4K);
		}
	}
	pthread_mutex_unlock(&pages_lock);
}
