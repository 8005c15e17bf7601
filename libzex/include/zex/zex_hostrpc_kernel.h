/* SPDX-License-Identifier: MIT */
/*
 * Copyright © 2026 The zex authors
 */

/*
 * DOC: zex/zex_hostrpc_kernel.h - calling the host through hostrpc from a zex kernel
 *
 * For C and for OpenCL C. A zex kernel runs on a CPU thread of the
 * application's process, so a hostrpc device view mapped there is memory
 * the kernel can reach: zex_hostrpc_kernel_view() (C, <zex/zex_hostrpc.h>)
 * writes where a device view's words are into &struct
 * zex_hostrpc_kernel_view, which the application passes to its kernel
 * (as an argument by value, or in memory the kernel reads). In the kernel,
 * zex_hostrpc_call() makes one call: the words go into a slot's page, the
 * host side's operate function sees them there (the page's first words,
 * in order) and changes them, and the call returns with the page's words
 * copied back. libzex links the function into any module that imports
 * it. A kernel cannot ring a doorbell: the channel's host side must serve
 * by polling (zex_hostrpc_serve() in a loop, never sleeping in
 * zex_hostrpc_wait()).
 */

#ifndef ZEX_ZEX_HOSTRPC_KERNEL_H
#define ZEX_ZEX_HOSTRPC_KERNEL_H

#ifdef __OPENCL_C_VERSION__
typedef ulong zex_hostrpc_u64_t;
typedef uint zex_hostrpc_u32_t;
#else
#include <stdint.h>
typedef uint64_t zex_hostrpc_u64_t;
typedef uint32_t zex_hostrpc_u32_t;
#endif

/* The most words one call carries: a page. */
#define ZEX_HOSTRPC_KERNEL_WORDS	512
/* zex_hostrpc_call()'s failures. */
#define ZEX_HOSTRPC_KERNEL_DEAD		(-1)	/* the host side is gone */
#define ZEX_HOSTRPC_KERNEL_INVALID	(-2)	/* too many words; a view of no slots */

/**
 * struct zex_hostrpc_kernel_view - a device view's words, as a kernel reaches them
 * @request: the request words (one per slot).
 * @answer: the answer words.
 * @summary: the summary flags (one per 64 slots).
 * @dead: the word that says the host side is gone.
 * @pages: the slots' pages.
 * @owner: the device side's owner words W (one per slot).
 * @mirror: its mirrors of the request words.
 * @nslots: the channel's slots.
 * @id: the view's owner id.
 *
 * Addresses in the process that mapped the view; 64 bytes, the same in C
 * and OpenCL C.
 */
struct zex_hostrpc_kernel_view {
	zex_hostrpc_u64_t request;
	zex_hostrpc_u64_t answer;
	zex_hostrpc_u64_t summary;
	zex_hostrpc_u64_t dead;
	zex_hostrpc_u64_t pages;
	zex_hostrpc_u64_t owner;
	zex_hostrpc_u64_t mirror;
	zex_hostrpc_u32_t nslots;
	zex_hostrpc_u32_t id;
};

#ifdef __OPENCL_C_VERSION__
/*
 * One synchronous call through @view: @words[0..@num_words) go to the
 * host, and come back as its operate function left them. @hint picks the
 * slot tried first (a work-item's own id spreads them). Return: 0,
 * ZEX_HOSTRPC_KERNEL_DEAD (the host side died before answering: @words are
 * as they were), ZEX_HOSTRPC_KERNEL_INVALID.
 */
int zex_hostrpc_call(const struct zex_hostrpc_kernel_view *view, uint hint, ulong *words,
		     uint num_words);
#endif

#endif /* ZEX_ZEX_HOSTRPC_KERNEL_H */
