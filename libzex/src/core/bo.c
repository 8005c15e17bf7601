// SPDX-License-Identifier: MIT
/*
 * Copyright © 2026 The zex authors
 */

/*
 * DOC: bo.c - buffer objects through the zex ioctls
 *
 * Thin, checked wrappers of DRM_IOCTL_ZEX_BO_*: create (on a tile or the
 * root, with an optional colouring override), map at a chosen alignment,
 * describe the layout, export every piece as dma-buf fds and import them;
 * and of the userptr import and release.
 */

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>

#include <xf86drm.h>

#include <drm/zex_drm.h>

#include "zex/zex.h"

static int zex_drm_ioctl(struct zex_device *dev, unsigned long req, void *arg)
{
	return drmIoctl(zex_device_fd(dev), req, arg) ? -errno : 0;
}

int zex_bo_create(struct zex_device *dev, uint64_t size, uint32_t placement,
		  const struct zex_colouring_override *colour, uint32_t *handle,
		  uint64_t *out_size)
{
	struct drm_zex_bo_create c = { .size = size, .placement = placement };
	int ret;

	if (colour && colour->size < sizeof(*colour))
		return -EINVAL;
	if (colour && colour->policy >= 0) {
		c.flags = DRM_ZEX_BO_CREATE_COLOURING;
		c.multi_storage_policy = (uint32_t)colour->policy;
		c.multi_storage_granularity_kb = colour->granularity_kb;
	}
	ret = zex_drm_ioctl(dev, DRM_IOCTL_ZEX_BO_CREATE, &c);
	if (!ret) {
		*handle = c.handle;
		if (out_size)
			*out_size = c.size;
	}
	return ret;
}

int zex_bo_close(struct zex_device *dev, uint32_t handle)
{
	struct drm_gem_close c = { .handle = handle };

	return zex_drm_ioctl(dev, DRM_IOCTL_GEM_CLOSE, &c);
}

/*
 * Map the whole object at an address aligned to @alignment (0 or a power
 * of two): reserve a larger range, map over its aligned part, trim the rest.
 */
int zex_bo_map(struct zex_device *dev, uint32_t handle, uint64_t size,
	       uint64_t alignment, void **ptr)
{
	struct drm_zex_bo_mmap_offset m = { .handle = handle };
	uintptr_t base, aligned;
	uint64_t span;
	void *p;
	int ret;

	if (alignment & (alignment - 1))
		return -EINVAL;
	ret = zex_drm_ioctl(dev, DRM_IOCTL_ZEX_BO_MMAP_OFFSET, &m);
	if (ret)
		return ret;
	if (alignment <= 4096) {
		p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED,
			 zex_device_fd(dev), (off_t)m.offset);
		if (p == MAP_FAILED)
			return -errno;
		*ptr = p;
		return 0;
	}
	if (size > UINT64_MAX - alignment)
		return -EINVAL;
	span = size + alignment;
	p = mmap(NULL, span, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (p == MAP_FAILED)
		return -errno;
	base = (uintptr_t)p;
	aligned = (base + alignment - 1) & ~(uintptr_t)(alignment - 1);
	if (mmap((void *)aligned, size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED,
		 zex_device_fd(dev), (off_t)m.offset) == MAP_FAILED) {
		ret = -errno;
		munmap(p, span);
		return ret;
	}
	if (aligned > base)
		munmap(p, aligned - base);
	if (base + span > aligned + size)
		munmap((void *)(aligned + size), base + span - (aligned + size));
	*ptr = (void *)aligned;
	return 0;
}

/*
 * Map bytes [@offset, @offset + @size) of the object (page-aligned) at the
 * fixed address @addr, replacing what was mapped there, with @prot. The
 * DRM mmap offset names an object's first page, so a range further in is
 * mapped from the start and moved into place (the mm core keeps its page
 * offset across the move); the part before it is unmapped again.
 */
int zex_bo_map_at(struct zex_device *dev, uint32_t handle, void *addr, uint64_t offset,
		  uint64_t size, int prot)
{
	struct drm_zex_bo_mmap_offset m = { .handle = handle };
	void *p;
	int ret;

	if (!size || ((uintptr_t)addr | offset | size) & 4095 || offset > UINT64_MAX - size)
		return -EINVAL;
	ret = zex_drm_ioctl(dev, DRM_IOCTL_ZEX_BO_MMAP_OFFSET, &m);
	if (ret)
		return ret;
	if (!offset) {
		p = mmap(addr, size, prot, MAP_SHARED | MAP_FIXED, zex_device_fd(dev),
			 (off_t)m.offset);
		return p == MAP_FAILED ? -errno : 0;
	}
	p = mmap(NULL, offset + size, prot, MAP_SHARED, zex_device_fd(dev), (off_t)m.offset);
	if (p == MAP_FAILED)
		return -errno;
	if (mremap((char *)p + offset, size, size, MREMAP_MAYMOVE | MREMAP_FIXED,
		   addr) == MAP_FAILED) {
		ret = -errno;
		munmap(p, offset + size);
		return ret;
	}
	munmap(p, offset);
	return 0;
}

int zex_bo_export(struct zex_device *dev, uint32_t handle, int *fds,
		  uint32_t *num_fds)
{
	struct drm_zex_bo_export e = {
		.handle = handle,
		.flags = DRM_CLOEXEC | DRM_RDWR,
		.num_fds = *num_fds,
		.fds = (uintptr_t)fds,
	};
	int ret = zex_drm_ioctl(dev, DRM_IOCTL_ZEX_BO_EXPORT, &e);

	if (!ret)
		*num_fds = e.num_fds;
	return ret;
}

int zex_bo_import(struct zex_device *dev, const int *fds, uint32_t num_fds,
		  bool interleaved, uint64_t granularity, uint32_t *handle,
		  uint64_t *size)
{
	struct drm_zex_bo_import im = {
		.fds = (uintptr_t)fds,
		.num_fds = num_fds,
		.flags = interleaved ? DRM_ZEX_BO_INTERLEAVED : 0,
		.granularity = interleaved ? granularity : 0,
	};
	int ret = zex_drm_ioctl(dev, DRM_IOCTL_ZEX_BO_IMPORT, &im);

	if (!ret) {
		*handle = im.handle;
		*size = im.size;
	}
	return ret;
}

int zex_bo_layout(struct zex_device *dev, uint32_t handle, uint32_t *num_pieces,
		  bool *interleaved, uint64_t *granularity)
{
	struct drm_zex_bo_info i = { .handle = handle };
	int ret = zex_drm_ioctl(dev, DRM_IOCTL_ZEX_BO_INFO, &i);

	if (!ret) {
		*num_pieces = i.num_pieces;
		*interleaved = i.layout & DRM_ZEX_BO_INTERLEAVED;
		*granularity = i.granularity;
	}
	return ret;
}

static int userptr_import(struct zex_device *dev, const void *addr, uint64_t size,
			  uint32_t flags, uint32_t *id)
{
	struct drm_zex_userptr_import im = {
		.addr = (uintptr_t)addr,
		.size = size,
		.flags = flags,
	};
	int ret = zex_drm_ioctl(dev, DRM_IOCTL_ZEX_USERPTR_IMPORT, &im);

	if (!ret)
		*id = im.id;
	return ret;
}

/* Pinned: the pages stay the device's until release, charged to RLIMIT_MEMLOCK. */
int zex_userptr_import(struct zex_device *dev, const void *addr, uint64_t size,
		       bool read_only, uint32_t *id)
{
	return userptr_import(dev, addr, size, read_only ? DRM_ZEX_USERPTR_READ_ONLY : 0, id);
}

/* Mirrored: follows the host's mapping, pins nothing; -EOPNOTSUPP without HMM. */
int zex_userptr_import_mirror(struct zex_device *dev, const void *addr, uint64_t size,
			      bool read_only, uint32_t *id)
{
	return userptr_import(dev, addr, size, DRM_ZEX_USERPTR_MIRROR |
			      (read_only ? DRM_ZEX_USERPTR_READ_ONLY : 0), id);
}

int zex_userptr_release(struct zex_device *dev, uint32_t id)
{
	struct drm_zex_vm_unbind r = { .id = id };

	return zex_drm_ioctl(dev, DRM_IOCTL_ZEX_VM_UNBIND, &r);
}
