// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Copyright © 2026 The zex authors
 */

/**
 * DOC: zex_pt.c - building and tearing down the software page table
 *
 * A PTE packs the page frame (40 bits), the number of bindings covering
 * the page (11 bits), how many of them are writable (11 bits) and two
 * flags for on-demand bindings (the entry is one's; its frame is stale)
 * into 64 bits, so a leaf table is one 4 KiB page for 2 MiB of address
 * space. A 2 MiB leaf is the same word in a level-1 slot, its frame the
 * first of 512, tagged in bit 0 (a frame of a 2 MiB leaf is 512-aligned,
 * a table's address 8-aligned, so neither uses that bit otherwise).
 *
 * Binding first checks the whole range without changing anything: a page
 * that another binding maps to a different frame, that is covered
 * %ZEX_PT_MAX_OVERLAP times already, or that an on-demand binding covers
 * (or, for an on-demand binding, that anything covers) fails the bind
 * with -EBUSY.
 * It then walks the range 2 MiB block by 2 MiB block, creating missing
 * tables (a parent's live count goes up when a child appears). A whole
 * block of 512 contiguous, aligned frames becomes, or adds its counts to,
 * a 2 MiB leaf when the block has no leaf table; anything else goes into
 * the block's leaf table, splitting a 2 MiB leaf into one first. Only
 * -ENOMEM can stop the second walk; what it did is then undone (a 2 MiB
 * leaf split on the way stays split, mapping the same frames).
 *
 * Unbinding takes the range's own counts off. A leaf entry whose count
 * reaches 0 is cleared, and a table whose live count reaches 0 is freed,
 * then its parent loses a live entry, up to (not including) the root. A
 * binding's range always meets a 2 MiB leaf whole: a binding that covers
 * part of one splits it when it is bound, and nothing merges tables back.
 *
 * An on-demand binding's whole blocks start as stale 2 MiB leaves, its
 * parts of blocks as stale PTEs; zex_pt_block_fill() turns a block into a 2 MiB
 * leaf or a leaf table as the frames the host has there now allow, with
 * any table allocated by its caller beforehand (the only merge of a table
 * into a 2 MiB leaf: an on-demand binding's block is its alone). Its owner
 * (the mirror imports of vm/) reaches a block through an opaque handle
 * (&struct zex_pt_block) and marks, tests and fills entries through it:
 * the page table knows nothing of notifiers, hands out no pointer to an
 * entry, and calls back only an unbind's @each (to unpin).
 */

#include <linux/bits.h>
#include <linux/bug.h>
#include <linux/compiler.h>
#include <linux/gfp.h>
#include <linux/minmax.h>
#include <linux/mm.h>
#include <linux/seq_file.h>
#include <linux/slab.h>

#include "../common/zex_gfp.h"
#include "../common/zex_kunit_export.h"
#include "zex_pt.h"

#define ZPTE_PFN_MASK	GENMASK_ULL(39, 0)
#define ZPTE_COUNT_SHIFT	40
#define ZPTE_WCOUNT_SHIFT 51
#define ZPTE_FIELD_MASK	GENMASK_ULL(10, 0)
#define ZPTE_ON_DEMAND	BIT_ULL(62)
#define ZPTE_STALE	BIT_ULL(63)
#define ZPTE_HUGE	BIT_ULL(0)	/* a level-1 slot holding a 2 MiB leaf */
#define ZPTE_HUGE_PFN_MASK	(ZPTE_PFN_MASK & ~(u64)(ZEX_PT_ENTRIES - 1))

static_assert(ZEX_PT_MAX_OVERLAP == ZPTE_FIELD_MASK);

static u64 zpte_make(unsigned long pfn, u64 count, u64 wcount)
{
	return (pfn & ZPTE_PFN_MASK) | (count << ZPTE_COUNT_SHIFT) | (wcount << ZPTE_WCOUNT_SHIFT);
}

static unsigned long zpte_pfn(u64 pte)
{
	return pte & ZPTE_PFN_MASK;
}

static unsigned int zpte_count(u64 pte)
{
	return (pte >> ZPTE_COUNT_SHIFT) & ZPTE_FIELD_MASK;
}

static unsigned int zpte_wcount(u64 pte)
{
	return (pte >> ZPTE_WCOUNT_SHIFT) & ZPTE_FIELD_MASK;
}

static bool slot_huge(u64 slot)
{
	return slot & ZPTE_HUGE;
}

static unsigned long huge_pfn(u64 slot)
{
	return slot & ZPTE_HUGE_PFN_MASK;
}

/* The table a slot of levels 3 to 1 points to; NULL if empty or a 2 MiB leaf. */
static struct zex_pt_node *slot_table(u64 slot)
{
	static_assert(ZPTE_HUGE == 1);	/* as zex_pt_child() reads it */
	return slot_huge(slot) ? NULL : (struct zex_pt_node *)(uintptr_t)slot;
}

/* The PTE that page @idx of a 2 MiB leaf would have in a leaf table. */
static u64 huge_pte(u64 slot, unsigned int idx)
{
	return zpte_make(huge_pfn(slot) + idx, zpte_count(slot), zpte_wcount(slot)) |
	       (slot & (ZPTE_ON_DEMAND | ZPTE_STALE));
}

static unsigned int pt_index(u64 va, int level)
{
	return (va >> (PAGE_SHIFT + level * ZEX_PT_SHIFT)) & (ZEX_PT_ENTRIES - 1);
}

static u64 *slot_of(struct zex_pt_node *node, u64 va, int level)
{
	return (u64 *)node->entries + pt_index(va, level);
}

static struct zex_pt_node *node_alloc(struct zex_pt *pt, int level)
{
	struct zex_pt_node *node = kzalloc(sizeof(*node), ZEX_GFP_USER);

	if (!node)
		return NULL;
	node->entries = (void *)get_zeroed_page(ZEX_GFP_USER);
	if (!node->entries) {
		kfree(node);
		return NULL;
	}
	pt->nodes[level]++;
	return node;
}

static void node_free(struct zex_pt *pt, struct zex_pt_node *node, int level)
{
	free_page((unsigned long)node->entries);
	kfree(node);
	pt->nodes[level]--;
}

/* Free the empty tables on @va's path, from @level up to below the root. */
static void prune(struct zex_pt *pt, u64 va, struct zex_pt_node **path, int level)
{
	for (; level < ZEX_PT_LEVELS - 1; level++) {
		if (path[level]->live)
			return;
		node_free(pt, path[level], level);
		*slot_of(path[level + 1], va, level + 1) = 0;
		path[level + 1]->live--;
	}
}

/*
 * The level-1 table covering @va; path[l] receives the table at level l
 * (3 to 1). With @create, missing tables are made: ERR_PTR(-ENOMEM) when
 * one cannot be (the empty tables made on the way are freed again).
 */
static struct zex_pt_node *walk_dir(struct zex_pt *pt, u64 va, bool create,
				    struct zex_pt_node **path)
{
	struct zex_pt_node *node = pt->root;
	int level;

	path[ZEX_PT_LEVELS - 1] = node;
	for (level = ZEX_PT_LEVELS - 1; level > 1; level--) {
		u64 *slot = slot_of(node, va, level);

		if (!*slot) {
			struct zex_pt_node *child;

			if (!create)
				return NULL;
			child = node_alloc(pt, level - 1);
			if (!child) {
				prune(pt, va, path, level);
				return ERR_PTR(-ENOMEM);
			}
			*slot = (uintptr_t)child;
			node->live++;
		}
		node = slot_table(*slot);
		path[level - 1] = node;
	}
	return node;
}

/* The level-1 slot of @va's 2 MiB block, or NULL when it has no level-1 table. */
static u64 *block_slot(struct zex_pt *pt, u64 va)
{
	struct zex_pt_node *path[ZEX_PT_LEVELS];
	struct zex_pt_node *dir;

	if (va >> ZEX_PT_VA_BITS)
		return NULL;
	dir = walk_dir(pt, va, false, path);
	return dir ? slot_of(dir, va, 1) : NULL;
}

/* The PTE of the page at @va, whichever leaf maps it; 0 when none does. */
static u64 pte_of(struct zex_pt *pt, u64 va)
{
	u64 *slot = block_slot(pt, va);
	u64 s = slot ? READ_ONCE(*slot) : 0;

	if (!s)
		return 0;
	if (slot_huge(s))
		return huge_pte(s, pt_index(va, 0));
	return READ_ONCE(((u64 *)slot_table(s)->entries)[pt_index(va, 0)]);
}

/**
 * zex_pt_init - an empty page table (just the root table)
 * @pt: the page table.
 *
 * Return: 0 or -ENOMEM.
 */
int zex_pt_init(struct zex_pt *pt)
{
	memset(pt, 0, sizeof(*pt));
	pt->root = node_alloc(pt, ZEX_PT_LEVELS - 1);
	return pt->root ? 0 : -ENOMEM;
}
EXPORT_SYMBOL_FOR_ZEX_KUNIT(zex_pt_init);

static void free_tree(struct zex_pt *pt, struct zex_pt_node *node, int level)
{
	unsigned int i;

	if (level > 0)
		for (i = 0; i < ZEX_PT_ENTRIES; i++) {
			struct zex_pt_node *child = zex_pt_child(node, i);

			if (child)
				free_tree(pt, child, level - 1);
		}
	node_free(pt, node, level);
}

/**
 * zex_pt_fini - free every table
 * @pt: the page table; it should be empty (a live entry left is a bug).
 */
void zex_pt_fini(struct zex_pt *pt)
{
	if (!pt->root)
		return;
	WARN_ON_ONCE(pt->root->live || pt->huge);
	free_tree(pt, pt->root, ZEX_PT_LEVELS - 1);
	pt->root = NULL;
}
EXPORT_SYMBOL_FOR_ZEX_KUNIT(zex_pt_fini);

/* A run of contiguous frames an unbind reports in one call. */
struct pfn_run {
	unsigned long first, n;
	void (*each)(struct page *page, unsigned long npages, void *ctx);
	void *ctx;
};

static void run_flush(struct pfn_run *run)
{
	if (run->n)
		run->each(pfn_to_page(run->first), run->n, run->ctx);
	run->n = 0;
}

/* Runs stay within a 512-aligned block of frames: their struct pages are contiguous. */
static void run_add(struct pfn_run *run, unsigned long pfn)
{
	if (run->n && (pfn != run->first + run->n || !(pfn & (ZEX_PT_ENTRIES - 1))))
		run_flush(run);
	if (!run->n)
		run->first = pfn;
	run->n++;
}

/* Take one binding's counts off a 2 MiB leaf it covers whole. */
static void unbind_huge(struct zex_pt *pt, u64 va, struct zex_pt_node **path, u64 *slot,
			bool writable, struct pfn_run *run)
{
	unsigned int count = zpte_count(*slot), wcount = zpte_wcount(*slot);

	if (WARN_ON_ONCE(!count || (writable && !wcount)))
		return;
	if (run->each) {
		run_flush(run);
		run->each(pfn_to_page(huge_pfn(*slot)), ZEX_PT_ENTRIES, run->ctx);
	}
	if (count > 1) {
		*slot = zpte_make(huge_pfn(*slot), count - 1, wcount - writable) | ZPTE_HUGE;
		return;
	}
	*slot = 0;
	pt->huge--;
	path[1]->live--;
	prune(pt, va, path, 1);
}

/* Take one binding's counts off entries [i, i + n) of a leaf table. */
static void unbind_table(struct zex_pt *pt, u64 va, struct zex_pt_node **path, u64 *slot,
			 unsigned int i, unsigned int n, bool writable, struct pfn_run *run)
{
	struct zex_pt_node *leaf = slot_table(*slot);
	u64 *pte = leaf->entries;
	unsigned int k;

	for (k = i; k < i + n; k++) {
		unsigned int count = zpte_count(pte[k]);
		unsigned int wcount = zpte_wcount(pte[k]);

		if (WARN_ON_ONCE(!count || (writable && !wcount)))
			continue;
		if (run->each)
			run_add(run, zpte_pfn(pte[k]));
		if (count == 1) {
			WRITE_ONCE(pte[k], 0);
			leaf->live--;
		} else {
			pte[k] = (pte[k] & (ZPTE_ON_DEMAND | ZPTE_STALE)) |
				 zpte_make(zpte_pfn(pte[k]), count - 1, wcount - writable);
		}
	}
	if (leaf->live)
		return;
	node_free(pt, leaf, 0);
	*slot = 0;
	path[1]->live--;
	prune(pt, va, path, 1);
}

/**
 * zex_pt_unbind - take one binding's counts off a range
 * @pt: the page table.
 * @va: page-aligned start.
 * @npages: pages.
 * @flags: the binding's %ZEX_PT_WRITABLE and %ZEX_PT_ON_DEMAND.
 * @each: called with every run of contiguous frames of the range before
 *	their counts go (the table is the only list of a binding's pages),
 *	or NULL; a run never crosses a 2 MiB-aligned block of frames.
 * @ctx: passed to @each.
 *
 * The range must have been bound with the same @flags.
 */
void zex_pt_unbind(struct zex_pt *pt, u64 va, u64 npages, unsigned int flags,
		   void (*each)(struct page *page, unsigned long npages, void *ctx),
		   void *ctx)
{
	struct pfn_run run = { .each = each, .ctx = ctx };
	bool writable = flags & ZEX_PT_WRITABLE;
	struct zex_pt_node *path[ZEX_PT_LEVELS];
	u64 done = 0;

	while (done < npages) {
		u64 cur = va + (done << PAGE_SHIFT);
		unsigned int i = pt_index(cur, 0);
		u64 n = min_t(u64, ZEX_PT_ENTRIES - i, npages - done);
		struct zex_pt_node *dir = walk_dir(pt, cur, false, path);
		u64 *slot = dir ? slot_of(dir, cur, 1) : NULL;

		done += n;
		if (WARN_ON_ONCE(!slot || !*slot))
			continue;
		if (!slot_huge(*slot))
			unbind_table(pt, cur, path, slot, i, n, writable, &run);
		else if (!WARN_ON_ONCE(n != ZEX_PT_ENTRIES))
			unbind_huge(pt, cur, path, slot, writable, &run);
	}
	if (each)
		run_flush(&run);
}
EXPORT_SYMBOL_FOR_ZEX_KUNIT(zex_pt_unbind);

/* Whether @pages are 512 contiguous frames starting 2 MiB-aligned. */
static bool huge_run(struct page **pages)
{
	unsigned int k;

	if (page_to_pfn(pages[0]) & (ZEX_PT_ENTRIES - 1))
		return false;
	/* Within an aligned block of frames, struct pages are contiguous. */
	for (k = 1; k < ZEX_PT_ENTRIES; k++)
		if (pages[k] != pages[0] + k)
			return false;
	return true;
}

/* -EBUSY when binding [va, va + npages) would meet a conflicting entry. */
static int bind_check(struct zex_pt *pt, u64 va, u64 npages, struct page **pages,
		      unsigned int flags)
{
	u64 done = 0;

	while (done < npages) {
		u64 cur = va + (done << PAGE_SHIFT);
		unsigned int i = pt_index(cur, 0), k;
		u64 n = min_t(u64, ZEX_PT_ENTRIES - i, npages - done);
		u64 *slot = block_slot(pt, cur);

		for (k = 0; slot && *slot && k < n; k++) {
			u64 e = slot_huge(*slot) ? huge_pte(*slot, i + k) :
				((u64 *)slot_table(*slot)->entries)[i + k];

			if (!zpte_count(e))
				continue;
			if ((flags & ZEX_PT_ON_DEMAND) || (e & ZPTE_ON_DEMAND) ||
			    zpte_pfn(e) != page_to_pfn(pages[done + k]) ||
			    zpte_count(e) == ZEX_PT_MAX_OVERLAP)
				return -EBUSY;
		}
		done += n;
	}
	return 0;
}

/* Turn the 2 MiB leaf in @slot into a leaf table mapping the same frames. */
static struct zex_pt_node *split_huge(struct zex_pt *pt, u64 *slot)
{
	struct zex_pt_node *leaf = node_alloc(pt, 0);
	unsigned int k;

	if (!leaf)
		return NULL;
	for (k = 0; k < ZEX_PT_ENTRIES; k++)
		((u64 *)leaf->entries)[k] = huge_pte(*slot, k);
	leaf->live = ZEX_PT_ENTRIES;
	*slot = (uintptr_t)leaf;
	pt->huge--;
	return leaf;
}

/* Bind entries [i, i + n) of the 2 MiB block at @va (checked already). */
static int bind_block(struct zex_pt *pt, u64 va, unsigned int i, unsigned int n,
		      struct page **pages, unsigned int flags)
{
	bool writable = flags & ZEX_PT_WRITABLE;
	struct zex_pt_node *path[ZEX_PT_LEVELS];
	struct zex_pt_node *dir, *leaf;
	unsigned int k;
	u64 *slot, *pte;

	dir = walk_dir(pt, va, true, path);
	if (IS_ERR(dir))
		return PTR_ERR(dir);
	slot = slot_of(dir, va, 1);
	if (n == ZEX_PT_ENTRIES && (flags & ZEX_PT_ON_DEMAND)) {
		/* A whole block on demand: a stale 2 MiB leaf until filled. */
		*slot = ZPTE_ON_DEMAND | ZPTE_STALE | zpte_make(0, 1, writable) | ZPTE_HUGE;
		dir->live++;
		pt->huge++;
		return 0;
	}
	if (n == ZEX_PT_ENTRIES && !(flags & ZEX_PT_ON_DEMAND) && (!*slot || slot_huge(*slot)) &&
	    huge_run(pages)) {
		if (!*slot) {
			*slot = zpte_make(page_to_pfn(pages[0]), 1, writable) | ZPTE_HUGE;
			dir->live++;
			pt->huge++;
		} else {
			*slot = zpte_make(huge_pfn(*slot), zpte_count(*slot) + 1,
					  zpte_wcount(*slot) + writable) | ZPTE_HUGE;
		}
		return 0;
	}
	if (!*slot) {
		leaf = node_alloc(pt, 0);
		if (!leaf) {
			prune(pt, va, path, 1);
			return -ENOMEM;
		}
		*slot = (uintptr_t)leaf;
		dir->live++;
	} else if (slot_huge(*slot)) {
		leaf = split_huge(pt, slot);
		if (!leaf)
			return -ENOMEM;
	} else {
		leaf = slot_table(*slot);
	}
	pte = leaf->entries;
	for (k = 0; k < n; k++) {
		u64 e = pte[i + k];

		if (flags & ZEX_PT_ON_DEMAND) {
			pte[i + k] = ZPTE_ON_DEMAND | ZPTE_STALE | zpte_make(0, 1, writable);
			leaf->live++;
		} else if (!zpte_count(e)) {
			pte[i + k] = zpte_make(page_to_pfn(pages[k]), 1, writable);
			leaf->live++;
		} else {
			pte[i + k] = zpte_make(zpte_pfn(e), zpte_count(e) + 1,
					       zpte_wcount(e) + writable);
		}
	}
	return 0;
}

/**
 * zex_pt_bind - map @npages pages at @va, sharing leaf entries with other bindings
 * @pt: the page table.
 * @va: page-aligned start, below 2^48.
 * @npages: pages, non-zero.
 * @pages: the pages, one per page of the range; NULL for %ZEX_PT_ON_DEMAND.
 * @flags: %ZEX_PT_WRITABLE: the device may write through this binding;
 *	%ZEX_PT_ON_DEMAND: an on-demand binding, whose PTEs start stale.
 *
 * Return: 0; -EBUSY when a page of the range is mapped to another frame,
 * covered %ZEX_PT_MAX_OVERLAP times already, covered by an on-demand
 * binding, or covered at all for one; -ENOMEM. On failure the table
 * maps what it mapped before.
 */
int zex_pt_bind(struct zex_pt *pt, u64 va, u64 npages, struct page **pages,
		unsigned int flags)
{
	u64 done = 0;
	int ret;

	ret = bind_check(pt, va, npages, pages, flags);
	if (ret)
		return ret;
	while (done < npages) {
		u64 cur = va + (done << PAGE_SHIFT);
		unsigned int i = pt_index(cur, 0);
		u64 n = min_t(u64, ZEX_PT_ENTRIES - i, npages - done);

		ret = bind_block(pt, cur, i, n, pages ? pages + done : NULL, flags);
		if (ret) {
			zex_pt_unbind(pt, va, done, flags, NULL, NULL);
			return ret;
		}
		done += n;
	}
	return 0;
}
EXPORT_SYMBOL_FOR_ZEX_KUNIT(zex_pt_bind);

/**
 * zex_pt_lookup - what the device sees at @va
 * @pt: the page table.
 * @va: any address.
 * @pfn: receives the page frame.
 * @writable: receives whether any binding of the page is writable.
 *
 * Return: 0, -ENOENT when @va is not mapped, -ESTALE when an on-demand
 * binding covers it but its frame is stale.
 */
int zex_pt_lookup(struct zex_pt *pt, u64 va, unsigned long *pfn, bool *writable)
{
	u64 e = pte_of(pt, va);

	if (!zpte_count(e))
		return -ENOENT;
	if (e & ZPTE_STALE)
		return -ESTALE;
	*pfn = zpte_pfn(e);
	*writable = zpte_wcount(e) > 0;
	return 0;
}
EXPORT_SYMBOL_FOR_ZEX_KUNIT(zex_pt_lookup);

/**
 * zex_pt_count - how many bindings cover the page at @va
 * @pt: the page table.
 * @va: any address.
 * @writers: receives how many of them are writable (may be NULL).
 *
 * Return: the number of bindings, 0 when unmapped.
 */
unsigned int zex_pt_count(struct zex_pt *pt, u64 va, unsigned int *writers)
{
	u64 e = pte_of(pt, va);

	if (writers)
		*writers = zpte_wcount(e);
	return zpte_count(e);
}
EXPORT_SYMBOL_FOR_ZEX_KUNIT(zex_pt_count);

/**
 * zex_pt_leaf_size - the size of the leaf entry that maps @va
 * @pt: the page table.
 * @va: any address.
 *
 * Return: %ZEX_PT_HUGE_SIZE, PAGE_SIZE, or 0 when @va is not mapped.
 */
unsigned int zex_pt_leaf_size(struct zex_pt *pt, u64 va)
{
	u64 *slot = block_slot(pt, va);

	if (!slot || !*slot)
		return 0;
	if (slot_huge(*slot))
		return ZEX_PT_HUGE_SIZE;
	return zpte_count(pte_of(pt, va)) ? PAGE_SIZE : 0;
}
EXPORT_SYMBOL_FOR_ZEX_KUNIT(zex_pt_leaf_size);

/* A block handle is the block's level-1 entry; only this file reads it. */
static u64 *block_entry(struct zex_pt_block *blk)
{
	return (u64 *)blk;
}

/**
 * zex_pt_block_get - the handle of the 2 MiB block of an on-demand page
 * @pt: the page table.
 * @va: an address an on-demand binding covers.
 *
 * Return: the block's handle, or NULL. It stays valid while the binding
 * covers a page of the block; what the block holds changes only in
 * zex_pt_block_fill().
 */
struct zex_pt_block *zex_pt_block_get(struct zex_pt *pt, u64 va)
{
	return (struct zex_pt_block *)block_slot(pt, va);
}
EXPORT_SYMBOL_FOR_ZEX_KUNIT(zex_pt_block_get);

/**
 * zex_pt_block_mark_stale - mark an on-demand binding's entries stale
 * @blk: from zex_pt_block_get().
 * @first: the first page of the block.
 * @n: pages; those not of an on-demand binding are left alone. A 2 MiB
 *	leaf goes stale whole.
 *
 * The caller serialises this with zex_pt_block_fill() of the same block.
 */
void zex_pt_block_mark_stale(struct zex_pt_block *blk, unsigned int first, unsigned int n)
{
	u64 *slot = block_entry(blk);
	u64 *pte;
	unsigned int k;

	if (slot_huge(*slot)) {
		if (*slot & ZPTE_ON_DEMAND)
			WRITE_ONCE(*slot, *slot | ZPTE_STALE);
		return;
	}
	pte = slot_table(*slot)->entries;
	for (k = first; k < first + n; k++)
		if (pte[k] & ZPTE_ON_DEMAND)
			WRITE_ONCE(pte[k], pte[k] | ZPTE_STALE);
}
EXPORT_SYMBOL_FOR_ZEX_KUNIT(zex_pt_block_mark_stale);

/**
 * zex_pt_block_any_stale - whether a page of a block's range is stale
 * @blk: from zex_pt_block_get().
 * @first: the first page of the block.
 * @n: pages.
 *
 * Return: true when one of them is.
 */
bool zex_pt_block_any_stale(struct zex_pt_block *blk, unsigned int first, unsigned int n)
{
	u64 s = READ_ONCE(*block_entry(blk));
	const u64 *pte;
	unsigned int k;

	if (slot_huge(s))
		return s & ZPTE_STALE;
	pte = slot_table(s)->entries;
	for (k = first; k < first + n; k++)
		if (READ_ONCE(pte[k]) & ZPTE_STALE)
			return true;
	return false;
}
EXPORT_SYMBOL_FOR_ZEX_KUNIT(zex_pt_block_any_stale);

/* Whether @pfns are 512 contiguous frames starting 2 MiB-aligned. */
static bool huge_pfns(unsigned int n, const unsigned long *pfns)
{
	unsigned int k;

	if (n != ZEX_PT_ENTRIES || pfns[0] & (ZEX_PT_ENTRIES - 1))
		return false;
	for (k = 1; k < n; k++)
		if (pfns[k] != pfns[0] + k)
			return false;
	return true;
}

/**
 * zex_pt_block_fill_prepare - allocate what filling these frames will need
 * @pt: the page table.
 * @blk: from zex_pt_block_get().
 * @n: pages to fill.
 * @pfns: their frames.
 * @fill: starts zeroed; keeps what was allocated until zex_pt_block_fill()
 *	uses it or zex_pt_block_fill_release() frees it. Preparing again
 *	(for other frames) keeps what it has.
 *
 * A block that is a 2 MiB leaf needs a leaf table when the frames are not
 * 512 contiguous, aligned ones. Called before the caller takes the lock
 * under which it fills, since that lock may be one reclaim needs.
 *
 * Return: 0 or -ENOMEM.
 */
int zex_pt_block_fill_prepare(struct zex_pt *pt, struct zex_pt_block *blk, unsigned int n,
			      const unsigned long *pfns, struct zex_pt_fill *fill)
{
	if (fill->table || !slot_huge(READ_ONCE(*block_entry(blk))) || huge_pfns(n, pfns))
		return 0;
	fill->table = node_alloc(pt, 0);
	return fill->table ? 0 : -ENOMEM;
}
EXPORT_SYMBOL_FOR_ZEX_KUNIT(zex_pt_block_fill_prepare);

/**
 * zex_pt_block_fill_release - free what a prepared fill did not use
 * @pt: the page table.
 * @fill: from zex_pt_block_fill_prepare().
 */
void zex_pt_block_fill_release(struct zex_pt *pt, struct zex_pt_fill *fill)
{
	if (fill->table)
		node_free(pt, fill->table, 0);
	fill->table = NULL;
}
EXPORT_SYMBOL_FOR_ZEX_KUNIT(zex_pt_block_fill_release);

/**
 * zex_pt_block_fill - give an on-demand binding's pages of one block their frames
 * @pt: the page table.
 * @blk: from zex_pt_block_get().
 * @first: the first page of the block.
 * @n: pages, all of one on-demand binding.
 * @pfns: their frames; the pages are no longer stale.
 * @fill: from zex_pt_block_fill_prepare() with the same frames.
 *
 * A whole block of 512 contiguous, aligned frames becomes a 2 MiB leaf
 * (its leaf table, if it had one, is freed); anything else is written into
 * the block's leaf table, a 2 MiB leaf first becoming the prepared table
 * with every page stale. Nothing is allocated: the caller may hold the
 * lock that its invalidation takes, which reclaim may need.
 */
void zex_pt_block_fill(struct zex_pt *pt, struct zex_pt_block *blk, unsigned int first,
		       unsigned int n, const unsigned long *pfns, struct zex_pt_fill *fill)
{
	u64 *slot = block_entry(blk);
	u64 s = *slot, base;
	struct zex_pt_node *leaf;
	unsigned int k;
	u64 *pte;

	/* The binding's counts and flags, from the 2 MiB leaf or any of its PTEs. */
	base = (slot_huge(s) ? s : *(u64 *)slot_table(s)->entries) & ~(ZPTE_STALE | ZPTE_PFN_MASK);
	if (huge_pfns(n, pfns)) {
		/* All 512 PTEs of a table here are this binding's. */
		if (!slot_huge(s)) {
			node_free(pt, slot_table(s), 0);
			pt->huge++;
		}
		WRITE_ONCE(*slot, base | pfns[0] | ZPTE_HUGE);
		return;
	}
	if (slot_huge(s)) {
		if (WARN_ON_ONCE(!fill->table))
			return;
		leaf = fill->table;
		fill->table = NULL;
		for (k = 0; k < ZEX_PT_ENTRIES; k++)
			((u64 *)leaf->entries)[k] = base | ZPTE_STALE;
		leaf->live = ZEX_PT_ENTRIES;
		WRITE_ONCE(*slot, (uintptr_t)leaf);
		pt->huge--;
	}
	pte = slot_table(*slot)->entries;
	for (k = 0; k < n; k++) {
		u64 e = pte[first + k];

		if (WARN_ON_ONCE(!(e & ZPTE_ON_DEMAND)))
			continue;
		WRITE_ONCE(pte[first + k], (e & ~(ZPTE_STALE | ZPTE_PFN_MASK)) |
			   (pfns[k] & ZPTE_PFN_MASK));
	}
}
EXPORT_SYMBOL_FOR_ZEX_KUNIT(zex_pt_block_fill);

static void dump_node(struct seq_file *m, struct zex_pt_node *node, int level, u64 base)
{
	unsigned int i;

	seq_printf(m, "%*slevel %d va %#llx live %u\n", (ZEX_PT_LEVELS - 1 - level) * 2, "",
		   level, base, node->live);
	if (!level)
		return;
	for (i = 0; i < ZEX_PT_ENTRIES; i++) {
		struct zex_pt_node *child = zex_pt_child(node, i);

		if (child)
			dump_node(m, child, level - 1,
				  base + ((u64)i << (PAGE_SHIFT + level * ZEX_PT_SHIFT)));
	}
}

/**
 * zex_pt_dump - print every table: level, the VA it starts at, live entries
 * @pt: the page table.
 * @m: where to print.
 */
void zex_pt_dump(struct zex_pt *pt, struct seq_file *m)
{
	dump_node(m, pt->root, ZEX_PT_LEVELS - 1, 0);
}
