/* SPDX-License-Identifier: MIT */
/*
 * DOC: kernel_faults.h - a kernel's memory faults, caught in the application's process
 *
 * Kernels run on the process's own threads, so a kernel that touches
 * memory the process does not map raises SIGSEGV there. While a launch's
 * part runs, it is watched: a fault in kernel code (PoCL's compiled
 * work-group functions) is the part's fault, not the process's. An access
 * to an unmapped page gets a page of zeros there for the rest of the
 * launch, and the kernel runs on to its end; one that cannot (a write to
 * a read-only mapping, the first 64 KiB) stops that work-item's thread for
 * good. Either way the part reports the first fault (address, write or
 * not) and its queue is banned. A fault anywhere else is the process's:
 * the handler it had before (or the default action) takes it.
 */
#ifndef ZEX_COMPUTE_KERNEL_FAULTS_H
#define ZEX_COMPUTE_KERNEL_FAULTS_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

/**
 * struct zex_fault_watch - one running part, watched for faults
 * @kernel: the kernel's name (the faulting code is matched to it).
 * @faulted: set at the first fault.
 * @stuck: a work-item's thread was stopped: the part will not end.
 * @addr: the first fault's address.
 * @write: whether it was a write.
 * @read_only: whether the page was mapped (a write to a read-only page).
 * @wake: a futex word the waiter sleeps on (ended or stuck).
 * @ended: the part's command ended (its completion callback ran).
 * @refs: the waiter's and the completion callback's holds (engine.c).
 */
struct zex_fault_watch {
	const char *kernel;
	atomic_int faulted;
	atomic_int stuck;
	uint64_t addr;
	bool write;
	bool read_only;
	atomic_uint wake;
	atomic_int ended;
	atomic_int refs;
};

int zex_faults_install(void);
uint32_t zex_faults_parked(void);
int zex_faults_watch(struct zex_fault_watch *w, const char *kernel);
void zex_faults_unwatch(struct zex_fault_watch *w);
void zex_faults_wake(struct zex_fault_watch *w);
void zex_faults_sleep(struct zex_fault_watch *w, unsigned int seen);
void zex_faults_put(struct zex_fault_watch *w);

#endif /* ZEX_COMPUTE_KERNEL_FAULTS_H */
