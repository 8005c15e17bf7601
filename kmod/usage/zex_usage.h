/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * Copyright © 2026 The zex authors
 */

/**
 * DOC: zex_usage.h - what zex tells monitoring tools
 *
 * Two views of the same counters. Per open file, its fdinfo
 * (/proc/<pid>/fdinfo/<fd>) in the DRM usage-stats format: the time its
 * jobs ran per engine class and the memory its handles hold per region
 * (zex_fdinfo.c). Per device, sysfs under the GPU's platform device, which
 * any user may read without opening the render node: each engine's busy
 * time and scheduling facts, each tile's memory (zex_usage_sysfs.c).
 */

#ifndef _ZEX_USAGE_H_
#define _ZEX_USAGE_H_

#include <linux/types.h>

struct drm_file;
struct drm_printer;
struct file;
struct seq_file;
struct zex_device;

/* zex_fdinfo.c */
u64 zex_usage_client_id(struct drm_file *file);
void zex_usage_show_fdinfo(struct drm_printer *p, struct drm_file *file);
void zex_usage_show_fdinfo_fop(struct seq_file *m, struct file *f);

/* zex_usage_sysfs.c */
int zex_usage_sysfs_add(struct zex_device *zdev);

#endif /* _ZEX_USAGE_H_ */
