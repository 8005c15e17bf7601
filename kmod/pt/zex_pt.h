/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * Copyright © 2026 The zex authors
 */

/**
 * DOC: zex_pt.h - the device's software page table
 *
 * Four levels of 512 entries over 4 KiB pages, as on real GPUs: a 48-bit
 * device virtual address space. A 2 MiB block is mapped either by a leaf
 * table of 512 entries (PTEs) or, when a binding covers the whole aligned
 * block with 512 physically contiguous, 2 MiB-aligned frames (a huge
 * folio), by one 2 MiB leaf entry in the level-1 table. Every table counts
 * its live entries. A leaf entry of either size counts the bindings that
 * cover it and how many of those are writable, so overlapping bindings
 * share it: unbinding one only takes its own counts off, and an entry,
 * then a table, goes away only when nothing covers it any more. A binding
 * that covers part of a 2 MiB leaf splits it into a leaf table first.
 *
 * An on-demand binding (%ZEX_PT_ON_DEMAND) shares no entry with another
 * binding; its entries start stale and are filled, and made stale again,
 * by its owner through a block's opaque handle (zex_pt_block_*()), under
 * the owner's own lock. A whole 2 MiB block of one is a 2 MiB leaf while
 * its frames are 512 contiguous, aligned ones, a leaf table when not. The
 * page table is the room below vm/: it calls nothing above it.
 */

#ifndef _ZEX_PT_H_
#define _ZEX_PT_H_

#include <linux/bits.h>
#include <linux/types.h>

struct page;
struct seq_file;
struct zex_pt_block;

#define ZEX_PT_LEVELS		4
#define ZEX_PT_SHIFT		9
#define ZEX_PT_ENTRIES		BIT(ZEX_PT_SHIFT)
#define ZEX_PT_VA_BITS		(PAGE_SHIFT + ZEX_PT_LEVELS * ZEX_PT_SHIFT)
#define ZEX_PT_HUGE_SIZE	(PAGE_SIZE << ZEX_PT_SHIFT)	/* 2 MiB */
#define ZEX_PT_MAX_OVERLAP	2047	/* bindings covering one page */

/* zex_pt_bind() and zex_pt_unbind() flags */
#define ZEX_PT_WRITABLE		BIT(0)	/* the device may write */
#define ZEX_PT_ON_DEMAND	BIT(1)	/* exclusive, filled by zex_pt_block_fill() */

/**
 * struct zex_pt_node - one table of 512 entries
 * @live: entries in use: live children or 2 MiB leaves, or PTEs with a
 *	non-zero count.
 * @entries: child tables or 2 MiB leaves (levels 3 to 1), or packed PTEs
 *	(level 0); one page.
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
 * @huge: 2 MiB leaf entries in use.
 */
struct zex_pt {
	struct zex_pt_node *root;
	unsigned long nodes[ZEX_PT_LEVELS];
	unsigned long huge;
};

/**
 * zex_pt_block_index - the index of @va's page in its 2 MiB block
 * @va: any address.
 *
 * Return: 0 to 511, the entry of a leaf table.
 */
static inline unsigned int zex_pt_block_index(u64 va)
{
	return (va >> PAGE_SHIFT) & (ZEX_PT_ENTRIES - 1);
}

/**
 * zex_pt_block_end - where @va's 2 MiB block ends, or @end if sooner
 * @va: any address.
 * @end: the end of the range being walked.
 *
 * Return: the end of this step of a walk that goes block by block.
 */
static inline u64 zex_pt_block_end(u64 va, u64 end)
{
	u64 next = (va | (ZEX_PT_HUGE_SIZE - 1)) + 1;

	return next < end ? next : end;
}

/**
 * zex_pt_child - the table in entry @i of a level-3 to level-1 table
 * @node: the table.
 * @i: the entry.
 *
 * Return: the child table, or NULL when the entry is empty or a 2 MiB leaf.
 */
static inline struct zex_pt_node *zex_pt_child(const struct zex_pt_node *node, unsigned int i)
{
	u64 e = ((const u64 *)node->entries)[i];

	return e & 1 ? NULL : (struct zex_pt_node *)(uintptr_t)e;
}

int zex_pt_init(struct zex_pt *pt);
void zex_pt_fini(struct zex_pt *pt);
int zex_pt_bind(struct zex_pt *pt, u64 va, u64 npages, struct page **pages,
		unsigned int flags);
void zex_pt_unbind(struct zex_pt *pt, u64 va, u64 npages, unsigned int flags,
		   void (*each)(struct page *page, unsigned long npages, void *ctx),
		   void *ctx);
int zex_pt_lookup(struct zex_pt *pt, u64 va, unsigned long *pfn, bool *writable);
unsigned int zex_pt_count(struct zex_pt *pt, u64 va, unsigned int *writers);
unsigned int zex_pt_leaf_size(struct zex_pt *pt, u64 va);
void zex_pt_dump(struct zex_pt *pt, struct seq_file *m);

/**
 * struct zex_pt_fill - a fill of a block's stale entries, prepared beforehand
 * @table: a leaf table allocated for it, or NULL (private to zex_pt.c).
 */
struct zex_pt_fill {
	struct zex_pt_node *table;
};

struct zex_pt_block *zex_pt_block_get(struct zex_pt *pt, u64 va);
void zex_pt_block_mark_stale(struct zex_pt_block *blk, unsigned int first, unsigned int n);
bool zex_pt_block_any_stale(struct zex_pt_block *blk, unsigned int first, unsigned int n);
int zex_pt_block_fill_prepare(struct zex_pt *pt, struct zex_pt_block *blk, unsigned int n,
			      const unsigned long *pfns, struct zex_pt_fill *fill);
void zex_pt_block_fill(struct zex_pt *pt, struct zex_pt_block *blk, unsigned int first,
		       unsigned int n, const unsigned long *pfns, struct zex_pt_fill *fill);
void zex_pt_block_fill_release(struct zex_pt *pt, struct zex_pt_fill *fill);

#endif /* _ZEX_PT_H_ */
