// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Copyright © 2026 The zex authors
 */

/*
 * DOC: zex_exec_kill_test.c - kselftest of exec queues killed while in use
 *
 * What a hostile user of the render node can do to the end of a queue's
 * life, as root and as an unprivileged user (uid 65534, after root opened
 * the node): destroy queues while three threads submit to them; exit, or
 * be killed, with queues full of jobs that wait for another process's
 * fence, also inside a small memory cgroup; fill a memory cgroup with jobs. The
 * kernel neither oopses nor loses a job: every exec that returned 0 ends
 * (its fence signals, with or without an error), the module's reference
 * count comes back to what it was (no job, fence or queue is left
 * behind), and at memory.max an exec fails with -ENOMEM without the OOM
 * killer being called.
 */

#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <sys/wait.h>

#include "zex_cgroup.h"
#include "zex_exec.h"

#define PG		4096ul
#define REFCNT		"/sys/module/zex/refcnt"
/* Threads that submit while the queue they use is destroyed. */
#define SUBMITTERS	3
/* Queues created and destroyed under them. */
#define ROUNDS		1000
/* The compute engines of a tile: one queue on each. */
#define HELD_ENGINES	4

/* A child as the kernel sees it: root or nobody, in a 16 MiB cgroup or not. */
struct child_kind {
	uid_t uid;
	bool sigkill;
	bool small_cgroup;
};

/* The module's references before the test, and the child's cgroup. */
struct kill_env {
	long long refs;
	char cgroup[128];
};

static int env_setup(struct kill_env *env, const struct child_kind *kind)
{
	env->refs = zex_sysfs_u64(REFCNT);
	env->cgroup[0] = 0;
	if (!kind->small_cgroup)
		return 0;
	if (cg_create(env->cgroup, sizeof(env->cgroup), "kill"))
		return -1;
	return cg_write(env->cgroup, "memory.max", "16M");
}

/* In a child: its own file, then its cgroup and user; the fd or -errno. */
static int child_open(const struct child_kind *kind, const char *cgroup)
{
	int fd = zex_open_render();

	if (fd < 0)
		return -ENODEV;
	if (cgroup[0] && cg_join(cgroup))
		return -EPERM;
	if (kind->uid && zex_become_user(kind->uid))
		return -EPERM;
	return fd;
}

/*
 * What the test started with is back: every reference the child's file,
 * queues, jobs and fences held has gone (an earlier test's teardown may
 * also have ended since: fewer is fine).
 */
#define EXPECT_REFS_BACK(env) \
	EXPECT_GE((env)->refs, zex_module_refs_drop_to((env)->refs))

/**
 * struct race - submitters against a thread that replaces their queue
 * @fd: the file.
 * @mem: the words the jobs store to.
 * @queue: the queue the submitters use now.
 * @stop: the submitters end.
 * @timeline: each submitter's timeline sync object: point n is its n-th
 *	job that the kernel took.
 * @taken: jobs each submitter had taken (its last point).
 * @unexpected: an errno other than those of a queue being destroyed.
 */
struct race {
	int fd;
	uint64_t *mem;
	_Atomic uint32_t queue;
	atomic_bool stop;
	uint32_t timeline[SUBMITTERS];
	uint64_t taken[SUBMITTERS];
	atomic_int unexpected;
};

struct submitter {
	struct race *race;
	unsigned int index;
};

static void *submit(void *arg)
{
	struct submitter *s = arg;
	struct race *r = s->race;
	uint64_t n = 0;

	while (!atomic_load(&r->stop)) {
		struct drm_zex_command c = cmd_store(&r->mem[s->index], n);
		struct drm_zex_sync out = sync_out(r->timeline[s->index], n + 1);
		int ret = exec(r->fd, atomic_load(&r->queue), &c, 1, &out, 1);

		if (!ret)
			n++;
		/* Destroyed (-ENOENT), being destroyed (-EIO), full (-EBUSY). */
		else if (ret != -ENOENT && ret != -EIO && ret != -EBUSY)
			atomic_store(&r->unexpected, -ret);
	}
	r->taken[s->index] = n;
	return NULL;
}

/*
 * The child of race.destroy_races_exec: 0, or the number of the check that
 * failed. Every job the kernel took must end; a job lost on a dead entity
 * never signals and the wait below never returns (the harness's limit).
 */
static int destroy_under_submitters(int fd)
{
	struct submitter subs[SUBMITTERS];
	pthread_t threads[SUBMITTERS];
	struct race r = { .fd = fd };
	uint64_t total = 0;
	uint32_t q;
	unsigned int i;
	int round;

	r.mem = dev_alloc(fd, PG, NULL);
	if (!r.mem || queue_create(fd, DRM_ZEX_ENGINE_CLASS_COMPUTE, 0, 0, &q))
		return 1;
	atomic_store(&r.queue, q);
	for (i = 0; i < SUBMITTERS; i++) {
		if (syncobj_create(fd, &r.timeline[i]))
			return 2;
		subs[i] = (struct submitter){ &r, i };
		if (pthread_create(&threads[i], NULL, submit, &subs[i]))
			return 3;
	}
	for (round = 0; round < ROUNDS; round++) {
		uint32_t old = atomic_load(&r.queue);

		if (queue_create(fd, DRM_ZEX_ENGINE_CLASS_COMPUTE, 0, 0, &q))
			break;
		atomic_store(&r.queue, q);
		if (queue_destroy(fd, old))
			break;
	}
	atomic_store(&r.stop, true);
	for (i = 0; i < SUBMITTERS; i++)
		pthread_join(threads[i], NULL);
	if (round < ROUNDS)
		return 4;
	if (atomic_load(&r.unexpected))
		return 5;
	for (i = 0; i < SUBMITTERS; i++) {
		total += r.taken[i];
		if (r.taken[i] && syncobj_wait(fd, r.timeline[i], r.taken[i], -1))
			return 6;
	}
	if (!total)
		return 7;
	/* The last queue goes with the file. */
	return 0;
}

FIXTURE(race) {
	struct kill_env env;
};

FIXTURE_VARIANT(race) {
	struct child_kind kind;
};

FIXTURE_VARIANT_ADD(race, root) {
	.kind = { .uid = 0 },
};

FIXTURE_VARIANT_ADD(race, unprivileged) {
	.kind = { .uid = ZEX_NOBODY },
};

FIXTURE_SETUP(race)
{
	ASSERT_EQ(0, env_setup(&self->env, &variant->kind));
}

FIXTURE_TEARDOWN(race)
{
}

/*
 * Queues destroyed under threads that submit to them: no exec pushes a job
 * onto a queue being torn down, every job taken ends, nothing is left.
 */
TEST_F_TIMEOUT(race, destroy_races_exec, 300)
{
	pid_t pid = fork();

	ASSERT_LE(0, pid);
	if (!pid) {
		int fd = child_open(&variant->kind, self->env.cgroup);

		_exit(fd < 0 ? 100 : destroy_under_submitters(fd));
	}
	EXPECT_EQ(0, child_result(pid));
	EXPECT_REFS_BACK(&self->env);
}

/*
 * The child of exit.with_queued_jobs: on each of the compute engines of
 * tile 0 a queue whose first job has run (its entity has a last scheduled
 * fence, signalled) and whose other jobs wait for @gate, a fence of the
 * parent's that signals only when the parent says; it says so on @ready,
 * then exits or waits to be killed.
 */
static int queue_up_and_exit(int fd, int gate, int ready, bool wait_for_kill)
{
	long long max_jobs = zex_param("exec_max_jobs");
	struct drm_zex_command store;
	struct drm_zex_sync in, out;
	uint64_t *mem = dev_alloc(fd, PG, NULL);
	uint32_t gate_obj, done;
	unsigned int e;
	long long j;

	if (!mem || syncobj_create(fd, &gate_obj) || sync_file_to_syncobj(fd, gate, gate_obj) ||
	    syncobj_create(fd, &done))
		return 1;
	in = sync_in(gate_obj, 0);
	out = sync_out(done, 0);
	for (e = 0; e < HELD_ENGINES; e++) {
		uint32_t q;

		store = cmd_store(&mem[e], e + 1);
		if (queue_create(fd, DRM_ZEX_ENGINE_CLASS_COMPUTE, e, 0, &q))
			return 2;
		if (exec(fd, q, &store, 1, &out, 1) || syncobj_wait(fd, done, 0, -1))
			return 3;
		for (j = 1; j < max_jobs; j++)
			if (exec(fd, q, &store, 1, &in, 1))
				return 4;
	}
	if (write(ready, "x", 1) != 1)
		return 5;
	if (wait_for_kill)
		pause();
	return 0;
}

/* Whether process @pid sleeps waiting for a fence (its wchan says so). */
static bool waits_for_a_fence(pid_t pid)
{
	char path[64], wchan[128];

	snprintf(path, sizeof(path), "/proc/%d/wchan", pid);
	return zex_proc_read(path, wchan, sizeof(wchan)) && strstr(wchan, "dma_fence");
}

FIXTURE(exit) {
	struct kill_env env;
};

FIXTURE_VARIANT(exit) {
	struct child_kind kind;
};

FIXTURE_VARIANT_ADD(exit, root) {
	.kind = { .uid = 0 },
};

FIXTURE_VARIANT_ADD(exit, root_sigkill) {
	.kind = { .uid = 0, .sigkill = true },
};

FIXTURE_VARIANT_ADD(exit, unprivileged_16m) {
	.kind = { .uid = ZEX_NOBODY, .small_cgroup = true },
};

FIXTURE_VARIANT_ADD(exit, unprivileged_sigkill_16m) {
	.kind = { .uid = ZEX_NOBODY, .sigkill = true, .small_cgroup = true },
};

FIXTURE_SETUP(exit)
{
	ASSERT_EQ(0, env_setup(&self->env, &variant->kind)) TH_LOG("no memory controller");
}

FIXTURE_TEARDOWN(exit)
{
	if (self->env.cgroup[0])
		rmdir(self->env.cgroup);
}

/*
 * A process that exits, or is killed, with queues full of jobs that wait
 * for another process's fence leaves no module reference behind: its
 * queues are drained and torn down after it is gone. The fence signals
 * once the process is gone, or once it sleeps on that fence in its exit
 * (the scheduler ending the jobs itself, what 6.1 leaks a fence with):
 * the jobs then outlast the second an exiting task gives them.
 */
TEST_F_TIMEOUT(exit, with_queued_jobs, 300)
{
	const char *cgroup = self->env.cgroup;
	struct drm_zex_command hold;
	struct drm_zex_sync out;
	int ready[2], status, fd, gate;
	uint32_t q, gate_obj;
	uint64_t *word;
	char byte;
	pid_t pid;

	fd = zex_open_render();
	ASSERT_LE(0, fd);
	word = dev_alloc(fd, PG, NULL);
	ASSERT_NE(NULL, word);
	/* The gate: a job on a copy engine that waits until the word is 1. */
	ASSERT_EQ(0, queue_create(fd, DRM_ZEX_ENGINE_CLASS_COPY, 0, 0, &q));
	ASSERT_EQ(0, syncobj_create(fd, &gate_obj));
	hold = cmd_wait(&word[0], DRM_ZEX_COMPARE_EQ, 1);
	out = sync_out(gate_obj, 0);
	ASSERT_EQ(0, exec(fd, q, &hold, 1, &out, 1));
	gate = syncobj_to_sync_file(fd, gate_obj);
	ASSERT_LE(0, gate);

	ASSERT_EQ(0, pipe(ready));
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		int cfd = child_open(&variant->kind, cgroup);

		close(ready[0]);
		close(fd);
		_exit(cfd < 0 ? 100 : queue_up_and_exit(cfd, gate, ready[1],
							 variant->kind.sigkill));
	}
	close(ready[1]);
	close(gate);
	ASSERT_EQ(1, read(ready[0], &byte, 1)) TH_LOG("the child could not queue its jobs");
	close(ready[0]);
	if (variant->kind.sigkill)
		ASSERT_EQ(0, kill(pid, SIGKILL));
	/* Gone, or stuck in its exit on the gate: open it. */
	while (waitpid(pid, &status, WNOHANG) != pid) {
		if (waits_for_a_fence(pid)) {
			TH_LOG("the exiting child waits for the gate");
			word[0] = 1;
			ASSERT_EQ(pid, waitpid(pid, &status, 0));
			break;
		}
		usleep(1000);
	}
	word[0] = 1;
	if (variant->kind.sigkill) {
		EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
	} else {
		EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	}
	ASSERT_EQ(0, syncobj_wait(fd, gate_obj, 0, -1));
	close(fd);
	EXPECT_REFS_BACK(&self->env);
	if (cgroup[0])
		EXPECT_EQ(0, cg_read_key(cgroup, "memory.events", "oom_kill"));
}

/* The commands of the biggest job: 32 KiB the kernel copies in. */
static struct drm_zex_command big[DRM_ZEX_EXEC_MAX_COMMANDS];

/*
 * The child of memory_max.exec_fails_with_enomem: biggest jobs on queues behind a
 * job that holds the engine until an exec fails; 0 when it failed with
 * -ENOMEM (and again on the next try), else the check that failed.
 */
static int exec_until_refused(int fd, uint64_t *mem)
{
	struct drm_zex_command hold = cmd_wait(&mem[0], DRM_ZEX_COMPARE_EQ, 1);
	uint32_t q, spare;
	bool creating;
	int ret, n = 0;

	if (queue_create(fd, DRM_ZEX_ENGINE_CLASS_COMPUTE, 0, 0, &q) || exec(fd, q, &hold, 1,
									    NULL, 0))
		return 1;
	for (;;) {
		creating = false;
		ret = exec(fd, q, big, DRM_ZEX_EXEC_MAX_COMMANDS, NULL, 0);
		if (ret == -EBUSY) {
			creating = true;
			ret = queue_create(fd, DRM_ZEX_ENGINE_CLASS_COMPUTE, 0, 0, &q);
		}
		if (ret)
			break;
		n++;
	}
	if (ret != -ENOMEM)
		return ret == -EMFILE ? 2 : 3;
	/*
	 * The kernel kept nothing of the refused call (a job, or the queue the
	 * full one needed): the same call is refused again, cleanly.
	 */
	ret = creating ? queue_create(fd, DRM_ZEX_ENGINE_CLASS_COMPUTE, 0, 0, &spare) :
			 exec(fd, q, big, DRM_ZEX_EXEC_MAX_COMMANDS, NULL, 0);
	if (ret != -ENOMEM)
		return 4;
	return n ? 0 : 5;
}

/*
 * An unprivileged user that fills its memory cgroup with jobs gets -ENOMEM
 * from the exec that reaches memory.max; the OOM killer is not called
 * (the child could be killed: its oom_score_adj is the default).
 */
FIXTURE(memory_max) {
	struct kill_env env;
};

static const struct child_kind memory_max_user = { .uid = ZEX_NOBODY, .small_cgroup = true };

FIXTURE_SETUP(memory_max)
{
	ASSERT_EQ(0, env_setup(&self->env, &memory_max_user)) TH_LOG("no memory controller");
}

FIXTURE_TEARDOWN(memory_max)
{
	rmdir(self->env.cgroup);
}

TEST_F_TIMEOUT(memory_max, exec_fails_with_enomem, 300)
{
	uint64_t *mem;
	unsigned int i;
	pid_t pid;

	mem = mmap(NULL, PG, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, mem);
	/* Written here: the child only reads them, so they are not its to pay. */
	memset(mem, 0, PG);
	for (i = 0; i < DRM_ZEX_EXEC_MAX_COMMANDS; i++)
		big[i] = cmd_store(&mem[1], i);
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		int fd = child_open(&memory_max_user, self->env.cgroup);
		struct drm_zex_userptr_import imp = { .addr = VA(mem), .size = PG };

		if (fd < 0 || zex_ioctl(fd, DRM_IOCTL_ZEX_USERPTR_IMPORT, &imp))
			_exit(100);
		_exit(exec_until_refused(fd, mem));
	}
	EXPECT_EQ(0, child_result(pid));
	EXPECT_EQ(0, cg_read_key(self->env.cgroup, "memory.events", "oom_kill"));
	EXPECT_REFS_BACK(&self->env);
	munmap(mem, PG);
}

ZEX_SELFTEST_MAIN
