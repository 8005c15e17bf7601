/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * DOC: zex_anon_huge.h - how much of a mapping transparent huge pages back
 *
 * The huge-page kselftests and the userptr benchmark make sure that the
 * memory they import is THP-backed before they count on 2 MiB leaves, by
 * reading the mapping's AnonHugePages from /proc/self/smaps.
 */
#ifndef ZEX_ANON_HUGE_H
#define ZEX_ANON_HUGE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* kB of transparent huge pages in the mapping that holds @p; -1 if none does. */
static inline long zex_anon_huge_kb(const void *p)
{
	unsigned long lo, hi, want = (uintptr_t)p;
	char line[256];
	long kb = -1;
	bool in = false;
	FILE *f = fopen("/proc/self/smaps", "r");

	while (f && fgets(line, sizeof(line), f)) {
		/* A mapping's first line: "lo-hi perms ..."; its fields: "Name: value". */
		if (sscanf(line, "%lx-%lx ", &lo, &hi) == 2 && strchr(line, '-') < strchr(line, ' '))
			in = want >= lo && want < hi;
		else if (in && sscanf(line, "AnonHugePages: %ld kB", &kb) == 1)
			break;
	}
	if (f)
		fclose(f);
	return kb;
}

#endif /* ZEX_ANON_HUGE_H */
