// SPDX-License-Identifier: MIT
/*
 * DOC: translator.c - running llvm-spirv-15 -r on a module, in memory
 *
 * The module goes to the child in a memory file (memfd), the bitcode
 * comes back in another, the child's messages in a third (the build
 * log); the child sees them as /proc/self/fd/N, N being the parent's
 * numbers, kept open across exec by posix_spawn's dup2 onto themselves.
 * A child that fails, or writes nothing, is
 * -EINVAL with its messages in the log; one that cannot be started,
 * -ENOENT.
 */
#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "compute/translator.h"

extern char **environ;

/**
 * zex_translator_available - whether the translator's tool is in PATH
 * @why: where to say why not.
 * @why_size: its room.
 *
 * Return: 0 or -ENOENT.
 */
int zex_translator_available(char *why, size_t why_size)
{
	const char *path = getenv("PATH");
	char *dirs, *dir, *save = NULL;
	char file[4096];
	int found = 0;

	dirs = strdup(path ? path : "/usr/local/bin:/usr/bin:/bin");
	if (!dirs)
		return -ENOMEM;
	for (dir = strtok_r(dirs, ":", &save); dir && !found; dir = strtok_r(NULL, ":", &save)) {
		snprintf(file, sizeof(file), "%s/%s", *dir ? dir : ".", ZEX_TRANSLATOR);
		found = !access(file, X_OK);
	}
	free(dirs);
	if (found)
		return 0;
	snprintf(why, why_size, "%s not found in PATH (Debian: llvm-spirv-15)", ZEX_TRANSLATOR);
	return -ENOENT;
}

/* The whole of memory file @fd, NUL-terminated; NULL when out of memory. */
static char *read_all(int fd, size_t *size)
{
	struct stat st;
	char *buf;
	ssize_t n;
	size_t got = 0;

	if (fstat(fd, &st) || st.st_size < 0)
		return NULL;
	buf = malloc((size_t)st.st_size + 1);
	if (!buf)
		return NULL;
	while (got < (size_t)st.st_size) {
		n = pread(fd, buf + got, (size_t)st.st_size - got, (off_t)got);
		if (n <= 0)
			break;
		got += (size_t)n;
	}
	buf[got] = '\0';
	*size = got;
	return buf;
}

static int write_all(int fd, const void *data, size_t size)
{
	const char *p = data;
	ssize_t n;

	while (size) {
		n = write(fd, p, size);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -EIO;
		p += n;
		size -= (size_t)n;
	}
	return 0;
}

static void append_log(char **log, const char *text, size_t len)
{
	size_t had = *log ? strlen(*log) : 0;
	char *grown = realloc(*log, had + len + 1);

	if (!grown)
		return;
	memcpy(grown + had, text, len);
	grown[had + len] = '\0';
	*log = grown;
}

/*
 * Run the tool with @argv, files @keep open, its stderr on @err.
 * Return: its exit status, or -errno when it could not run.
 */
static int run(char *const argv[], const int *keep, int num_keep, int err)
{
	posix_spawn_file_actions_t fa;
	int ret, status, i, null_fd;
	pid_t pid;

	null_fd = open("/dev/null", O_RDWR | O_CLOEXEC);
	if (null_fd < 0)
		return -errno;
	ret = posix_spawn_file_actions_init(&fa);
	if (ret) {
		close(null_fd);
		return -ret;
	}
	posix_spawn_file_actions_adddup2(&fa, null_fd, STDIN_FILENO);
	posix_spawn_file_actions_adddup2(&fa, null_fd, STDOUT_FILENO);
	posix_spawn_file_actions_adddup2(&fa, err, STDERR_FILENO);
	/* Onto itself: clears close-on-exec for the child alone. */
	for (i = 0; i < num_keep; i++)
		posix_spawn_file_actions_adddup2(&fa, keep[i], keep[i]);
	ret = posix_spawnp(&pid, argv[0], &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	close(null_fd);
	if (ret)
		return -ret;
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -errno;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

/**
 * zex_spirv_translate - SPIR-V to SPIR LLVM bitcode
 * @spirv: the module.
 * @size: its size.
 * @bitcode: the bitcode (malloc()ed) on success.
 * @bitcode_size: its size.
 * @log: the translator's messages are appended (malloc()ed; may stay NULL).
 *
 * Return: 0; -EINVAL when the translator refused the module (why in
 * @log); -ENOENT when it cannot run; -ENOMEM or another -errno.
 */
int zex_spirv_translate(const void *spirv, size_t size, void **bitcode, size_t *bitcode_size,
			char **log)
{
	int in = memfd_create("zex-spirv", MFD_CLOEXEC);
	int out = memfd_create("zex-bitcode", MFD_CLOEXEC);
	int err = memfd_create("zex-translator-log", MFD_CLOEXEC);
	char in_path[32], out_path[32];
	char *argv[8];
	int argc = 0, ret;
	size_t n;
	char *text;

	if (in < 0 || out < 0 || err < 0) {
		ret = -errno;
		goto out;
	}
	ret = write_all(in, spirv, size);
	if (ret)
		goto out;
	snprintf(in_path, sizeof(in_path), "/proc/self/fd/%d", in);
	snprintf(out_path, sizeof(out_path), "/proc/self/fd/%d", out);
	argv[argc++] = ZEX_TRANSLATOR;
	argv[argc++] = "-r";
	argv[argc++] = in_path;
	argv[argc++] = "-o";
	argv[argc++] = out_path;
	argv[argc] = NULL;
	{
		int keep[] = { in, out };

		ret = run(argv, keep, 2, err);
	}
	text = read_all(err, &n);
	if (text) {
		append_log(log, text, n);
		free(text);
	}
	if (ret < 0)
		goto out;
	if (ret) {
		ret = -EINVAL;
		goto out;
	}
	*bitcode = read_all(out, bitcode_size);
	ret = !*bitcode ? -ENOMEM : !*bitcode_size ? -EINVAL : 0;
	if (ret) {
		free(*bitcode);
		*bitcode = NULL;
	}
out:
	if (in >= 0)
		close(in);
	if (out >= 0)
		close(out);
	if (err >= 0)
		close(err);
	return ret;
}
