/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * Copyright © 2026 The zex authors
 */

/**
 * DOC: zex_pt.h - the device's software page table
 *
 * Four levels of 512 entries over 4 KiB pages, as on real GPUs: a 48-bit
 * device virtual address space. Every node counts its live entries. A leaf
 * entry (PTE) counts the bindings that cover it and how many of those are
 * writable, so overlapping bindings share it: unbinding one only takes its
 * own counts off, and an entry, then a node, goes away only when nothing
 * covers it any more. Binding touches only the entries of its range; the
 * nodes it shares with other ranges (at its edges) see their live counts
 * change only for entries that become live or dead.
 */

#ifndef _ZEX_PT_H_
#define _ZEX_PT_H_

#include <linux/bits.h>
#include <linux/types.h>

struct page;
struct seq_file;

#define ZEX_PT_LEVELS		4
#define ZEX_PT_SHIFT		9
#define ZEX_PT_ENTRIES		BIT(ZEX_PT_SHIFT)
#define ZEX_PT_VA_BITS		(PAGE_SHIFT + ZEX_PT_LEVELS * ZEX_PT_SHIFT)
#define ZEX_PT_MAX_OVERLAP	4095	/* bindings covering one page */

/**
 * struct zex_pt_node - one table of 512 entries
 * @live: entries in use: live children, or PTEs with a non-zero count.
 * @entries: child nodes (levels 3 to 1) or packed PTEs (level 0); one page.
 */
struct zex_pt_node {
	unsigned int live;
	void *entries;
};

/**
 * struct zex_pt - a page table
 * @root: the level-3 node, always present.
 * @nodes: nodes allocated, root included, per level (for tests, debugfs
 *	and the memory-use figures).
 */
struct zex_pt {
	struct zex_pt_node *root;
	unsigned long nodes[ZEX_PT_LEVELS];
};

int zex_pt_init(struct zex_pt *pt);
void zex_pt_fini(struct zex_pt *pt);
int zex_pt_bind(struct zex_pt *pt, u64 va, u64 npages, struct page **pages,
		bool writable);
void zex_pt_unbind(struct zex_pt *pt, u64 va, u64 npages, bool writable,
		   void (*each)(struct page *page, void *ctx), void *ctx);
int zex_pt_lookup(struct zex_pt *pt, u64 va, unsigned long *pfn, bool *writable);
unsigned int zex_pt_count(struct zex_pt *pt, u64 va, unsigned int *writers);
void zex_pt_dump(struct zex_pt *pt, struct seq_file *m);

#endif /* _ZEX_PT_H_ */
