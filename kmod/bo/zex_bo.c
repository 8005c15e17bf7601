// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Copyright © 2026 The zex authors
 */

/**
 * DOC: zex_bo.c - buffer objects: build from pieces, map, pin
 *
 * A buffer object is built piece by piece (zex_bo_alloc(), then
 * zex_bo_add_piece()); dropping a half-built object releases the pieces
 * added so far. Mapping a buffer object pins its pieces' pages for the
 * life of the mapping and inserts them page by page on fault, through the
 * layout; binding it into an address space pins them the same way
 * (zex_bo_pin_pages()). A linear one-piece object is its piece's "solo"
 * object while it lives: importing the piece alone gives it back rather
 * than a new object (zex_bo_set_solo(), zex_bo_get_solo()).
 *
 * The mapping is a shared PFN map: a private (copy-on-write) mapping is
 * refused, since the mm core cannot copy pages it does not manage; a fault
 * finds its page by the mapping's page offset (vmf->pgoff), so a mapping
 * split by munmap() or mprotect(), or moved by mremap(), shows the same
 * bytes at the same addresses. A read-only object (imported from read-only
 * dma-bufs) cannot be mapped writable, now or later by mprotect().
 */

#include <linux/log2.h>
#include <linux/mm.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#include <drm/drm_file.h>
#include <drm/drm_vma_manager.h>

#include "../common/zex_compat.h"
#include "../common/zex_check.h"
#include "../common/zex_gfp.h"
#include "../tiles/zex_piece.h"
#include "zex_bo.h"

static void zex_bo_free(struct drm_gem_object *obj)
{
	struct zex_bo *bo = to_zex_bo(obj);
	u32 i;

	for (i = 0; i < bo->num_pieces; i++) {
		zex_piece_unhold(bo->pieces[i].piece, obj);
		drm_gem_object_put(&bo->pieces[i].piece->base.base);
	}
	drm_gem_object_release(obj);
	kvfree(bo);
}

/* The piece holding byte @offset of @bo, and the byte's offset in it. */
static struct zex_piece *zex_bo_locate(struct zex_bo *bo, u64 offset,
				       u64 *piece_offset)
{
	u32 lo = 0, hi = bo->num_pieces;

	if (bo->interleaved) {
		unsigned int shift = ilog2(bo->granularity);
		u64 chunk = offset >> shift;
		u32 idx = do_div(chunk, bo->num_pieces);

		*piece_offset = (chunk << shift) | (offset & (bo->granularity - 1));
		return bo->pieces[idx].piece;
	}
	/* Linear: the last piece starting at or before @offset. */
	while (hi - lo > 1) {
		u32 mid = lo + (hi - lo) / 2;

		if (bo->pieces[mid].offset <= offset)
			lo = mid;
		else
			hi = mid;
	}
	*piece_offset = offset - bo->pieces[lo].offset;
	return bo->pieces[lo].piece;
}

static vm_fault_t zex_bo_fault(struct vm_fault *vmf)
{
	struct vm_area_struct *vma = vmf->vma;
	struct zex_bo *bo = to_zex_bo(vma->vm_private_data);
	struct zex_piece *piece;
	u64 offset, poff;

	/*
	 * zex_bo_mmap() took the fake offset out of vm_pgoff, and the mm core
	 * keeps vm_pgoff right across splits and moves.
	 */
	if (vmf->pgoff >= bo->base.size >> PAGE_SHIFT)
		return VM_FAULT_SIGBUS;
	offset = (u64)vmf->pgoff << PAGE_SHIFT;
	piece = zex_bo_locate(bo, offset, &poff);
	if (WARN_ON_ONCE(poff >= piece->base.base.size || !piece->base.pages))
		return VM_FAULT_SIGBUS;
	return vmf_insert_pfn(vma, vmf->address,
			      page_to_pfn(piece->base.pages[poff >> PAGE_SHIFT]));
}

static void zex_bo_put_pages(struct zex_bo *bo, u32 count)
{
	while (count--)
		drm_gem_shmem_unpin(&bo->pieces[count].piece->base);
}

static int zex_bo_get_pages(struct zex_bo *bo)
{
	u32 i;
	int ret;

	for (i = 0; i < bo->num_pieces; i++) {
		ret = drm_gem_shmem_pin(&bo->pieces[i].piece->base);
		if (ret) {
			zex_bo_put_pages(bo, i);
			return ret;
		}
	}
	return 0;
}

static void zex_bo_vm_open(struct vm_area_struct *vma)
{
	struct zex_bo *bo = to_zex_bo(vma->vm_private_data);

	u32 i;

	/* A copy of a mapping whose pages are pinned: pin them again. */
	for (i = 0; i < bo->num_pieces; i++)
		zex_shmem_pin_again(&bo->pieces[i].piece->base);
	drm_gem_vm_open(vma);
}

static void zex_bo_vm_close(struct vm_area_struct *vma)
{
	struct zex_bo *bo = to_zex_bo(vma->vm_private_data);

	zex_bo_put_pages(bo, bo->num_pieces);
	drm_gem_vm_close(vma);
}

static const struct vm_operations_struct zex_bo_vm_ops = {
	.fault = zex_bo_fault,
	.open = zex_bo_vm_open,
	.close = zex_bo_vm_close,
};

static int zex_bo_mmap(struct drm_gem_object *obj, struct vm_area_struct *vma)
{
	struct zex_bo *bo = to_zex_bo(obj);
	int ret;

	/* The mm core cannot copy-on-write the pages of a PFN map. */
	if (zex_check(obj->dev, "mmap", is_cow_mapping(vma->vm_flags)))
		return -EINVAL;
	if (bo->read_only) {
		if (zex_check(obj->dev, "mmap", vma->vm_flags & VM_WRITE))
			return -EACCES;
		vm_flags_clear(vma, VM_MAYWRITE);
	}
	ret = zex_bo_get_pages(bo);
	if (ret)
		return ret;
	vma->vm_pgoff -= drm_vma_node_start(&obj->vma_node);
	vm_flags_set(vma, VM_PFNMAP | VM_DONTEXPAND | VM_DONTDUMP);
	vma->vm_page_prot = vm_get_page_prot(vma->vm_flags);
	return 0;
}

/**
 * zex_bo_pin_pages - pin the object's pages, listed in its layout's order
 * @bo: the object.
 * @pages: receives one page per page of the object.
 *
 * Undo with zex_bo_unpin_pages().
 *
 * Return: 0, or the -errno of the piece whose pages could not be had (what
 * was pinned before it is unpinned again).
 */
int zex_bo_pin_pages(struct zex_bo *bo, struct page **pages)
{
	u64 off, poff;
	int ret;

	ret = zex_bo_get_pages(bo);
	if (ret)
		return ret;
	for (off = 0; off < bo->base.size; off += PAGE_SIZE) {
		struct zex_piece *piece = zex_bo_locate(bo, off, &poff);

		pages[off >> PAGE_SHIFT] = piece->base.pages[poff >> PAGE_SHIFT];
	}
	return 0;
}

/**
 * zex_bo_unpin_pages - undo zex_bo_pin_pages()
 * @bo: the object.
 */
void zex_bo_unpin_pages(struct zex_bo *bo)
{
	zex_bo_put_pages(bo, bo->num_pieces);
}

static const struct drm_gem_object_funcs zex_bo_funcs = {
	.free = zex_bo_free,
	.mmap = zex_bo_mmap,
	.vm_ops = &zex_bo_vm_ops,
};

/**
 * zex_bo_is - whether a GEM object of zex is a buffer object
 * @obj: a GEM object of a zex device (a buffer object, or a piece).
 *
 * Return: true for a &struct zex_bo.
 */
bool zex_bo_is(const struct drm_gem_object *obj)
{
	return obj->funcs == &zex_bo_funcs;
}

/**
 * zex_bo_alloc - a buffer object of @size bytes, with room for its pieces
 * @drm: the device.
 * @max_pieces: pieces it will have.
 * @size: its size, the sum of the pieces to come, page-aligned.
 * @interleaved: the layout.
 * @granularity: the interleave chunk, 0 when linear.
 * @read_only: the object may be read but never written, by any path.
 *
 * Add the pieces with zex_bo_add_piece(); dropping the reference frees the
 * pieces added so far, so a failed build unwinds with one put.
 *
 * Return: the object with one reference, or an ERR_PTR.
 */
struct zex_bo *zex_bo_alloc(struct drm_device *drm, u32 max_pieces, u64 size,
			    bool interleaved, u64 granularity, bool read_only)
{
	struct zex_bo *bo;

	bo = kvzalloc(struct_size(bo, pieces, max_pieces), ZEX_GFP_USER);
	if (!bo)
		return ERR_PTR(-ENOMEM);
	bo->base.funcs = &zex_bo_funcs;
	bo->interleaved = interleaved;
	bo->granularity = granularity;
	bo->read_only = read_only;
	drm_gem_private_object_init(drm, &bo->base, size);
	return bo;
}

/**
 * zex_bo_add_piece - append a piece, taking over the caller's reference
 * @bo: from zex_bo_alloc().
 * @piece: the next piece in order.
 */
void zex_bo_add_piece(struct zex_bo *bo, struct zex_piece *piece)
{
	struct zex_bo_piece *slot = &bo->pieces[bo->num_pieces];

	if (bo->interleaved)
		slot->offset = (u64)bo->num_pieces * bo->granularity;
	else if (bo->num_pieces)
		slot->offset = slot[-1].offset + slot[-1].piece->base.base.size;
	else
		slot->offset = 0;
	slot->piece = piece;
	zex_piece_hold(piece);
	bo->num_pieces++;
}

/**
 * zex_bo_lookup - the buffer object behind a handle
 * @file: the DRM file.
 * @handle: a GEM handle of @file.
 *
 * Return: the buffer object with a reference, or NULL.
 */
struct zex_bo *zex_bo_lookup(struct drm_file *file, u32 handle)
{
	struct drm_gem_object *obj = drm_gem_object_lookup(file, handle);

	if (obj && obj->funcs != &zex_bo_funcs) {
		drm_gem_object_put(obj);
		obj = NULL;
	}
	return obj ? to_zex_bo(obj) : NULL;
}

/**
 * zex_bo_set_solo - record @bo as the one-piece object of its piece
 * @bo: a linear buffer object made of one piece.
 */
void zex_bo_set_solo(struct zex_bo *bo)
{
	struct zex_piece *piece = bo->pieces[0].piece;

	mutex_lock(&piece->share_lock);
	piece->solo = &bo->base;
	mutex_unlock(&piece->share_lock);
}

/**
 * zex_bo_get_solo - the piece's live one-piece object, with a reference
 * @piece: the piece.
 *
 * Return: the object, or NULL when there is none or it is being freed.
 */
struct zex_bo *zex_bo_get_solo(struct zex_piece *piece)
{
	struct drm_gem_object *obj;

	mutex_lock(&piece->share_lock);
	obj = piece->solo;
	if (obj && !kref_get_unless_zero(&obj->refcount))
		obj = NULL;
	mutex_unlock(&piece->share_lock);
	return obj ? to_zex_bo(obj) : NULL;
}
