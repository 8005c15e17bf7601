// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Copyright © 2026 The zex authors
 */

/**
 * DOC: zex_pt.c - building and tearing down the software page table
 *
 * A PTE packs the page frame (40 bits), the number of bindings covering
 * the page (12 bits) and how many of them are writable (12 bits) into 64
 * bits, so a leaf table is one 4 KiB page for 2 MiB of address space.
 * Every table is one page, its node header a few bytes.
 *
 * Binding walks the range leaf by leaf, creating missing tables on the way
 * (a parent's live count goes up when a child appears); for each page it
 * either starts a PTE or, if one is live, checks that it maps the same
 * frame and adds to its counts. A page that another binding maps to a
 * different frame fails the bind with -EBUSY after undoing what the bind
 * did. Unbinding takes the range's own counts off; a PTE whose count
 * reaches 0 is cleared, and a table whose live count reaches 0 is freed,
 * then its parent loses a live entry, up to (not including) the root.
 */

#include <linux/bits.h>
#include <linux/bug.h>
#include <linux/gfp.h>
#include <linux/minmax.h>
#include <linux/mm.h>
#include <linux/seq_file.h>
#include <linux/slab.h>

#include "../common/zex_kunit_export.h"
#include "zex_pt.h"

#define PTE_PFN_BITS	40
#define PTE_COUNT_SHIFT	40
#define PTE_WCOUNT_SHIFT 52
#define PTE_FIELD_MASK	GENMASK_ULL(11, 0)

static u64 zpte_make(unsigned long pfn, u64 count, u64 wcount)
{
	return (pfn & GENMASK_ULL(PTE_PFN_BITS - 1, 0)) |
	       (count << PTE_COUNT_SHIFT) | (wcount << PTE_WCOUNT_SHIFT);
}

static unsigned long zpte_pfn(u64 pte)
{
	return pte & GENMASK_ULL(PTE_PFN_BITS - 1, 0);
}

static unsigned int zpte_count(u64 pte)
{
	return (pte >> PTE_COUNT_SHIFT) & PTE_FIELD_MASK;
}

static unsigned int zpte_wcount(u64 pte)
{
	return (pte >> PTE_WCOUNT_SHIFT) & PTE_FIELD_MASK;
}

static unsigned int pt_index(u64 va, int level)
{
	return (va >> (PAGE_SHIFT + level * ZEX_PT_SHIFT)) & (ZEX_PT_ENTRIES - 1);
}

static struct zex_pt_node *node_alloc(struct zex_pt *pt, int level)
{
	struct zex_pt_node *node = kzalloc(sizeof(*node), GFP_KERNEL_ACCOUNT);

	if (!node)
		return NULL;
	node->entries = (void *)get_zeroed_page(GFP_KERNEL_ACCOUNT);
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

static struct zex_pt_node **child_slot(struct zex_pt_node *node, u64 va, int level)
{
	return (struct zex_pt_node **)node->entries + pt_index(va, level);
}

/* Free the empty tables on @va's path, from @level up to below the root. */
static void prune(struct zex_pt *pt, u64 va, struct zex_pt_node **path, int level)
{
	for (; level < ZEX_PT_LEVELS - 1; level++) {
		if (path[level]->live)
			return;
		node_free(pt, path[level], level);
		*child_slot(path[level + 1], va, level + 1) = NULL;
		path[level + 1]->live--;
	}
}

/*
 * The leaf table covering @va; path[l] receives the table at level l.
 * With @create, missing tables are made: ERR_PTR(-ENOMEM) when one cannot
 * be (the empty tables made on the way are freed again).
 */
static struct zex_pt_node *walk(struct zex_pt *pt, u64 va, bool create,
				struct zex_pt_node **path)
{
	struct zex_pt_node *node = pt->root;
	int level;

	path[ZEX_PT_LEVELS - 1] = node;
	for (level = ZEX_PT_LEVELS - 1; level > 0; level--) {
		struct zex_pt_node **slot = child_slot(node, va, level);

		if (!*slot) {
			if (!create)
				return NULL;
			*slot = node_alloc(pt, level - 1);
			if (!*slot) {
				prune(pt, va, path, level);
				return ERR_PTR(-ENOMEM);
			}
			node->live++;
		}
		node = *slot;
		path[level - 1] = node;
	}
	return node;
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
			struct zex_pt_node *child = ((struct zex_pt_node **)node->entries)[i];

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
	WARN_ON_ONCE(pt->root->live);
	free_tree(pt, pt->root, ZEX_PT_LEVELS - 1);
	pt->root = NULL;
}
EXPORT_SYMBOL_FOR_ZEX_KUNIT(zex_pt_fini);

/**
 * zex_pt_unbind - take one binding's counts off a range
 * @pt: the page table.
 * @va: page-aligned start.
 * @npages: pages.
 * @writable: the binding was writable.
 * @each: called with every page of the range before its counts go (the
 *	table is the only list of a binding's pages), or NULL.
 * @ctx: passed to @each.
 *
 * The range must have been bound with the same @writable.
 */
void zex_pt_unbind(struct zex_pt *pt, u64 va, u64 npages, bool writable,
		   void (*each)(struct page *page, void *ctx), void *ctx)
{
	struct zex_pt_node *path[ZEX_PT_LEVELS];
	u64 done = 0;

	while (done < npages) {
		u64 cur = va + (done << PAGE_SHIFT);
		unsigned int i = pt_index(cur, 0), k;
		u64 n = min_t(u64, ZEX_PT_ENTRIES - i, npages - done);
		struct zex_pt_node *leaf = walk(pt, cur, false, path);
		u64 *pte;

		done += n;
		if (WARN_ON_ONCE(!leaf))
			continue;
		pte = leaf->entries;
		for (k = i; k < i + n; k++) {
			unsigned int count = zpte_count(pte[k]);
			unsigned int wcount = zpte_wcount(pte[k]);

			if (WARN_ON_ONCE(!count || (writable && !wcount)))
				continue;
			if (each)
				each(pfn_to_page(zpte_pfn(pte[k])), ctx);
			if (count == 1) {
				pte[k] = 0;
				leaf->live--;
			} else {
				pte[k] = zpte_make(zpte_pfn(pte[k]), count - 1,
						   wcount - writable);
			}
		}
		if (!leaf->live)
			prune(pt, cur, path, 0);
	}
}
EXPORT_SYMBOL_FOR_ZEX_KUNIT(zex_pt_unbind);

/**
 * zex_pt_bind - map @npages pages at @va, sharing PTEs with other bindings
 * @pt: the page table.
 * @va: page-aligned start, below 2^48.
 * @npages: pages, non-zero.
 * @pages: the pages, one per page of the range.
 * @writable: the device may write through this binding.
 *
 * Return: 0; -EBUSY when a page of the range is mapped to another frame or
 * covered %ZEX_PT_MAX_OVERLAP times already; -ENOMEM. On failure the
 * table is as it was.
 */
int zex_pt_bind(struct zex_pt *pt, u64 va, u64 npages, struct page **pages,
		bool writable)
{
	struct zex_pt_node *path[ZEX_PT_LEVELS];
	u64 done = 0;
	int ret;

	while (done < npages) {
		u64 cur = va + (done << PAGE_SHIFT);
		unsigned int i = pt_index(cur, 0), k;
		u64 n = min_t(u64, ZEX_PT_ENTRIES - i, npages - done);
		struct zex_pt_node *leaf = walk(pt, cur, true, path);
		u64 *pte;

		if (IS_ERR(leaf)) {
			ret = PTR_ERR(leaf);
			goto unwind;
		}
		pte = leaf->entries;
		for (k = 0; k < n; k++) {
			unsigned long pfn = page_to_pfn(pages[done + k]);
			u64 e = pte[i + k];

			if (!zpte_count(e)) {
				pte[i + k] = zpte_make(pfn, 1, writable);
				leaf->live++;
			} else if (zpte_pfn(e) != pfn || zpte_count(e) == ZEX_PT_MAX_OVERLAP) {
				ret = -EBUSY;
				if (!leaf->live)
					prune(pt, cur, path, 0);
				done += k;
				goto unwind;
			} else {
				pte[i + k] = zpte_make(pfn, zpte_count(e) + 1,
						       zpte_wcount(e) + writable);
			}
		}
		done += n;
	}
	return 0;

unwind:
	zex_pt_unbind(pt, va, done, writable, NULL, NULL);
	return ret;
}
EXPORT_SYMBOL_FOR_ZEX_KUNIT(zex_pt_bind);

/**
 * zex_pt_lookup - what the device sees at @va
 * @pt: the page table.
 * @va: any address.
 * @pfn: receives the page frame.
 * @writable: receives whether any binding of the page is writable.
 *
 * Return: 0, or -ENOENT when @va is not mapped.
 */
int zex_pt_lookup(struct zex_pt *pt, u64 va, unsigned long *pfn, bool *writable)
{
	struct zex_pt_node *path[ZEX_PT_LEVELS];
	struct zex_pt_node *leaf;
	u64 e;

	if (va >> ZEX_PT_VA_BITS)
		return -ENOENT;
	leaf = walk(pt, va, false, path);
	if (!leaf)
		return -ENOENT;
	e = ((u64 *)leaf->entries)[pt_index(va, 0)];
	if (!zpte_count(e))
		return -ENOENT;
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
	struct zex_pt_node *path[ZEX_PT_LEVELS];
	struct zex_pt_node *leaf = va >> ZEX_PT_VA_BITS ? NULL : walk(pt, va, false, path);
	u64 e = leaf ? ((u64 *)leaf->entries)[pt_index(va, 0)] : 0;

	if (writers)
		*writers = zpte_wcount(e);
	return zpte_count(e);
}
EXPORT_SYMBOL_FOR_ZEX_KUNIT(zex_pt_count);

static void dump_node(struct seq_file *m, struct zex_pt_node *node, int level, u64 base)
{
	unsigned int i;

	seq_printf(m, "%*slevel %d va %#llx live %u\n", (ZEX_PT_LEVELS - 1 - level) * 2, "",
		   level, base, node->live);
	if (!level)
		return;
	for (i = 0; i < ZEX_PT_ENTRIES; i++) {
		struct zex_pt_node *child = ((struct zex_pt_node **)node->entries)[i];

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
