/* SPDX-License-Identifier: MIT */
/*
 * DOC: hostrpc_rig.h - the protocol core driven by threads over plain memory
 *
 * Shared by the ThreadSanitizer test (hostrpc_test.c) and the native scale
 * runs (hostrpc_scale.c): a region with both sides' words and the slot
 * pages, an eventfd as the host's interrupt and a condition variable as
 * the device side's (a kernel wait queue: get on it, arm, re-check,
 * sleep), device threads making synchronous and asynchronous calls and
 * server threads serving them. Every call's page is checked at each
 * hand-over (fill -> operate -> use): a page touched by both sides at once,
 * an answer to someone else's request, a call answered twice or lost all
 * count as errors. While a rig lives, a watch thread requires progress: a
 * call served at least every HOSTRPC_STALL_S seconds (60; 0: no watch),
 * else the calls have stopped (a lost wakeup, a stranded caller), and it
 * prints "# STALL" with every thread's state and ends the process. What
 * bounds a run is progress, never its total time: a busy machine makes a
 * run slow, not failed.
 */
#ifndef HOSTRPC_RIG_H
#define HOSTRPC_RIG_H

#include <dirent.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <time.h>
#include <unistd.h>

#include "../hostrpc.h"

/* The shared region and both sides' private words, in plain memory. */
struct region {
	hr_u32_t request[HOSTRPC_MAX_SLOTS], answer[HOSTRPC_MAX_SLOTS];
	hr_u32_t summary[HOSTRPC_GROUPS];
	hr_u32_t host_armed, device_armed, dead;
	hr_own_t W[HOSTRPC_MAX_SLOTS], M[HOSTRPC_MAX_SLOTS], T[HOSTRPC_MAX_SLOTS];
};

struct rig {
	struct region *mem;
	hostrpc_page_t *pages;
	uint32_t nslots;
	uint32_t lines;		/* cache lines of a page a call uses (64: all) */
	int host_efd;		/* the host's interrupt */
	/* The device side's interrupt: a generation, as a kernel wait queue. */
	pthread_mutex_t device_lock;
	pthread_cond_t device_cond;
	uint64_t device_gen;
	_Atomic int stop;
	_Atomic long errors, served_calls, host_rings, device_rings, sleeps, device_sleeps;
	/* The stall watch: its thread, and how rig_free() ends it. */
	pthread_t watch;
	bool watching;
	pthread_mutex_t watch_lock;
	pthread_cond_t watch_cond;
	bool watch_end;
};

struct call {
	uint64_t tag;
	struct rig *rig;
};

static struct hostrpc_shared shared_of(struct rig *r)
{
	return (struct hostrpc_shared){ .request = r->mem->request, .answer = r->mem->answer,
					.summary = r->mem->summary,
					.host_armed = &r->mem->host_armed,
					.device_armed = &r->mem->device_armed,
					.dead = &r->mem->dead, .pages = r->pages,
					.nslots = r->nslots };
}

static void ring(int efd, _Atomic long *count, _Atomic long *errors)
{
	uint64_t one = 1;

	(*count)++;
	if (write(efd, &one, sizeof(one)) != sizeof(one))
		(*errors)++;
}

static void ring_host(void *ctx)
{
	struct rig *r = ctx;

	ring(r->host_efd, &r->host_rings, &r->errors);
}

/* The device side's interrupt wakes every device-side sleeper. */
static void ring_device(void *ctx)
{
	struct rig *r = ctx;

	r->device_rings++;
	pthread_mutex_lock(&r->device_lock);
	r->device_gen++;
	pthread_cond_broadcast(&r->device_cond);
	pthread_mutex_unlock(&r->device_lock);
}

/*
 * What the kernel's wait ioctl does for a device view, in userspace: get
 * on the wait queue (take the generation), arm the device side, re-check,
 * sleep until a ring moves the generation on.
 */
static int wait_device(void *ctx, uint32_t slot, uint32_t seen)
{
	struct rig *r = ctx;
	uint64_t gen;

	pthread_mutex_lock(&r->device_lock);
	gen = r->device_gen;
	pthread_mutex_unlock(&r->device_lock);
	hr_u32_store_sc(&r->mem->device_armed, 1);
	if (hr_u32_load_sc(&r->mem->answer[slot]) != seen || hr_u32_load(&r->mem->dead))
		return 0;
	r->device_sleeps++;
	pthread_mutex_lock(&r->device_lock);
	while (r->device_gen == gen)
		pthread_cond_wait(&r->device_cond, &r->device_lock);
	pthread_mutex_unlock(&r->device_lock);
	return 0;
}

static void fill(hostrpc_page_t *p, void *ctx)
{
	struct call *c = ctx;
	int i, j;

	for (i = 0; i < (int)c->rig->lines; i++)
		for (j = 0; j < 8; j++)
			p->cacheline[i].element[j] = c->tag ^ (uint64_t)(i * 8 + j);
}

static void operate(hostrpc_page_t *p, void *ctx)
{
	struct rig *r = ctx;
	uint64_t tag = p->cacheline[0].element[0];
	int i, j;

	if (!tag)
		r->errors++;	/* never filled */
	for (i = 0; i < (int)r->lines; i++)
		for (j = 0; j < 8; j++) {
			if (p->cacheline[i].element[j] != (tag ^ (uint64_t)(i * 8 + j)))
				r->errors++;
			p->cacheline[i].element[j] = p->cacheline[i].element[j] * 3 + 1;
		}
	r->served_calls++;
}

static void use(hostrpc_page_t *p, void *ctx)
{
	struct call *c = ctx;
	int i, j;

	for (i = 0; i < (int)c->rig->lines; i++)
		for (j = 0; j < 8; j++)
			if (p->cacheline[i].element[j] != (c->tag ^ (uint64_t)(i * 8 + j)) * 3 + 1)
				c->rig->errors++;
}

struct server {
	struct rig *rig;
	struct hostrpc_server s;
	bool polling;		/* never sleeps: polls until the rig stops */
};

static void *server_main(void *arg)
{
	struct server *sv = arg;
	struct rig *r = sv->rig;
	uint64_t v;

	uint32_t polls = 0, passes = 0;

	while (!r->stop) {
		if (hostrpc_server_poll(&sv->s, &passes, operate, r)) {
			polls = 0;
			continue;
		}
		if (sv->polling) {
			hr_relax(polls++);
			continue;
		}
		if (!hostrpc_server_arm(&sv->s))
			continue;
		r->sleeps++;
		if (read(r->host_efd, &v, sizeof(v)) != sizeof(v))
			break;
	}
	return NULL;
}

struct device {
	struct rig *rig;
	struct hostrpc_client *client;
	uint32_t id, calls;
	bool async;
	int failed;
};

static void *device_main(void *arg)
{
	struct device *d = arg;
	uint32_t n;

	for (n = 0; n < d->calls; n++) {
		struct call c = { .tag = ((uint64_t)(d->id + 1) << 32 | n) * 0x9e3779b97f4a7c15ull,
				  .rig = d->rig };
		int ret;

		if (d->async && n % 2)
			ret = hostrpc_client_invoke_async(d->client, d->id, fill, &c);
		else
			ret = hostrpc_client_invoke(d->client, d->id, fill, use, &c);
		if (ret)
			d->failed++;
	}
	return NULL;
}

struct shape {
	uint32_t nslots;
	int devices, servers, views;
	uint32_t calls;
	bool async, blocking_devices, polling_servers;
	bool small;		/* calls use one cache line of the page, not 64 */
};

static void rig_free(struct rig *r);

/* The first line of file @path into @buf (empty when it cannot be read). */
static void rig_read_line(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");

	buf[0] = 0;
	if (f && !fgets(buf, (int)len, f))
		buf[0] = 0;
	if (f)
		fclose(f);
	buf[strcspn(buf, "\n")] = 0;
}

/* Every thread of this process: its name, state and where it waits. */
static void rig_print_threads(void)
{
	DIR *d = opendir("/proc/self/task");
	struct dirent *e;

	while (d && (e = readdir(d))) {
		char path[300], stat[256], wchan[64], *end;

		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "/proc/self/task/%s/stat", e->d_name);
		rig_read_line(path, stat, sizeof(stat));
		snprintf(path, sizeof(path), "/proc/self/task/%s/wchan", e->d_name);
		rig_read_line(path, wchan, sizeof(wchan));
		/* "tid (name) S ...": up to the state. */
		end = strrchr(stat, ')');
		if (end && end[1] && end[2])
			end[3] = 0;
		printf("#   thread %s, waiting in %s\n", stat, wchan[0] ? wchan : "-");
	}
	if (d)
		closedir(d);
}

/*
 * The stall watch: wakes every second; when the count of served calls has
 * not moved for the allowed time, the calls have stopped.
 */
static void *rig_watch(void *arg)
{
	struct rig *r = arg;
	const char *env = getenv("HOSTRPC_STALL_S");
	long limit = env && *env ? strtol(env, NULL, 0) : 60, still = 0;
	long last = r->served_calls;

	pthread_mutex_lock(&r->watch_lock);
	while (!r->watch_end) {
		struct timespec until;

		clock_gettime(CLOCK_REALTIME, &until);
		until.tv_sec += 1;
		if (!pthread_cond_timedwait(&r->watch_cond, &r->watch_lock, &until))
			continue;
		if (r->served_calls != last) {
			last = r->served_calls;
			still = 0;
		} else if (++still >= limit) {
			printf("# STALL: no call served in %ld s (%ld served, %ld errors)\n",
			       limit, last, (long)r->errors);
			rig_print_threads();
			fflush(stdout);
			_exit(1);
		}
	}
	pthread_mutex_unlock(&r->watch_lock);
	return NULL;
}

/* A region of @nslots slots with both interrupts; NULL when out of memory. */
static struct rig *rig_new(uint32_t nslots, uint32_t lines)
{
	const char *stall = getenv("HOSTRPC_STALL_S");
	struct rig *r = calloc(1, sizeof(*r));

	if (!r)
		return NULL;
	r->mem = calloc(1, sizeof(*r->mem));
	r->pages = aligned_alloc(4096, nslots * sizeof(hostrpc_page_t));
	r->host_efd = eventfd(0, EFD_SEMAPHORE);
	r->nslots = nslots;
	r->lines = lines;
	pthread_mutex_init(&r->device_lock, NULL);
	pthread_cond_init(&r->device_cond, NULL);
	pthread_mutex_init(&r->watch_lock, NULL);
	pthread_cond_init(&r->watch_cond, NULL);
	if (!r->mem || !r->pages || r->host_efd < 0) {
		rig_free(r);
		return NULL;
	}
	if (!(stall && !strcmp(stall, "0")))
		r->watching = !pthread_create(&r->watch, NULL, rig_watch, r);
	return r;
}

static void rig_free(struct rig *r)
{
	if (r->watching) {
		pthread_mutex_lock(&r->watch_lock);
		r->watch_end = true;
		pthread_cond_signal(&r->watch_cond);
		pthread_mutex_unlock(&r->watch_lock);
		pthread_join(r->watch, NULL);
	}
	pthread_cond_destroy(&r->watch_cond);
	pthread_mutex_destroy(&r->watch_lock);
	if (r->host_efd >= 0)
		close(r->host_efd);
	pthread_cond_destroy(&r->device_cond);
	pthread_mutex_destroy(&r->device_lock);
	free(r->pages);
	free(r->mem);
	free(r);
}

/* What one run did; rig_run() returns 0 when every check held. */
struct outcome {
	long expected, served, errors, failed_calls, held_words;
	long host_rings, host_sleeps, device_rings, device_sleeps;
	double seconds;
};

/*
 * Run @sh: every device makes its calls, then the slots still held are
 * collected, the servers stop, and every word must be back to 0.
 * Return: 0 when every call was answered once with its own reply and
 * nothing is left held; -1 otherwise (or out of resources).
 */
static int rig_run(struct shape sh, struct outcome *o)
{
	struct rig *r = rig_new(sh.nslots, sh.small ? 1 : 64);
	struct device *dev = calloc((size_t)sh.devices, sizeof(*dev));
	struct hostrpc_client *views = calloc((size_t)sh.views, sizeof(*views));
	pthread_t st[4], *dt = calloc((size_t)sh.devices, sizeof(*dt));
	struct server sv[4];
	struct timespec t0, t1;
	uint64_t wake = 1;
	uint32_t i;
	int k, ret = -1;

	memset(o, 0, sizeof(*o));
	o->expected = (long)sh.devices * sh.calls;
	if (!r || !dev || !views || !dt || sh.servers > 4)
		goto out;
	/* Device threads share their view's W, as threads of a process do. */
	for (k = 0; k < sh.views; k++)
		views[k] = (struct hostrpc_client){ .sh = shared_of(r), .W = r->mem->W,
						    .M = r->mem->M, .id = 2 + (uint32_t)k,
						    .spin = 64, .ring = ring_host, .ring_ctx = r,
						    .wait = sh.blocking_devices ? wait_device : NULL,
						    .wait_ctx = r };
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (k = 0; k < sh.servers; k++) {
		sv[k] = (struct server){ .rig = r,
					 .s = { .sh = shared_of(r), .T = r->mem->T,
						.id = 100 + (uint32_t)k, .ring = ring_device,
						.ring_ctx = r },
					 .polling = sh.polling_servers };
		if (pthread_create(&st[k], NULL, server_main, &sv[k]))
			abort();
	}
	for (k = 0; k < sh.devices; k++) {
		dev[k] = (struct device){ .rig = r, .client = &views[k % sh.views],
					  .id = (uint32_t)k, .calls = sh.calls,
					  .async = sh.async };
		if (pthread_create(&dt[k], NULL, device_main, &dev[k]))
			abort();
	}
	for (k = 0; k < sh.devices; k++) {
		pthread_join(dt[k], NULL);
		o->failed_calls += dev[k].failed;
	}
	/* Slots still held by async calls: a collection frees them once
	 * the host answered. */
	for (;;) {
		uint32_t held = 0, s;

		hostrpc_client_collect(&views[0]);
		for (s = 0; s < sh.nslots; s++)
			held += hr_u32_load(&r->mem->W[s]) != 0;
		if (!held)
			break;
		sched_yield();
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	r->stop = 1;
	for (k = 0; k < sh.servers; k++)
		if (write(r->host_efd, &wake, sizeof(wake)) != sizeof(wake))
			r->errors++;
	for (k = 0; k < sh.servers; k++)
		pthread_join(st[k], NULL);
	o->seconds = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
	o->errors = r->errors;
	o->served = r->served_calls;
	for (i = 0; i < sh.nslots; i++)
		o->held_words += hr_u32_load(&r->mem->W[i]) || hr_u32_load(&r->mem->T[i]);
	for (i = 0; i < sh.nslots; i++)
		o->held_words += hr_u32_load(&r->mem->request[i]) !=
				 hr_u32_load(&r->mem->answer[i]);
	o->host_rings = r->host_rings;
	o->host_sleeps = r->sleeps;
	o->device_rings = r->device_rings;
	o->device_sleeps = r->device_sleeps;
	ret = o->errors || o->failed_calls || o->served != o->expected || o->held_words ? -1 : 0;
out:
	if (r)
		rig_free(r);
	free(dt);
	free(dev);
	free(views);
	return ret;
}

#endif /* HOSTRPC_RIG_H */
