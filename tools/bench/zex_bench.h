/* SPDX-License-Identifier: MIT */
/*
 * Copyright © 2026 The zex authors
 */

/*
 * DOC: zex_bench.h - what every benchmark of tools/bench shares
 *
 * A monotonic clock in the unit each benchmark reports, the median of a
 * set of rounds, and the way out when a step fails.
 */

#ifndef ZEX_BENCH_H
#define ZEX_BENCH_H

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* CLOCK_MONOTONIC in nanoseconds. */
static inline int64_t bench_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static inline double bench_now_us(void)
{
	return (double)bench_now_ns() / 1e3;
}

static inline double bench_now_ms(void)
{
	return (double)bench_now_ns() / 1e6;
}

static inline int bench_cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* The median of @n rounds (sorted in place). */
static inline double bench_median(double *rounds, size_t n)
{
	qsort(rounds, n, sizeof(*rounds), bench_cmp_double);
	return rounds[n / 2];
}

/* @what failed: say so with errno's reason and exit 1. */
static inline void bench_die(const char *prog, const char *what)
{
	fprintf(stderr, "%s: %s: %s\n", prog, what, strerror(errno));
	exit(1);
}

#endif /* ZEX_BENCH_H */
