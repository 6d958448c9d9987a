// SPDX-License-Identifier: GPL-2.0
/*
 * lt-workload: blocking in known amounts, for the golden traces.
 *
 * Each kind of wait runs in its own process, named with PR_SET_NAME right
 * after fork() (before it blocks for the first time), so that a report can
 * be checked per process:
 *
 *   lt-sleep2    300 x nanosleep(2 ms)           interruptible, <= 5 ms: charged
 *   lt-piperd    200 x read() of a pipe that waits ~3 ms for lt-pipewr
 *   lt-pipewr    200 x (nanosleep(3 ms); write 1 byte)
 *   lt-fsync      50 x (pwrite 4 KiB; fsync) of a file in DIR (use a
 *                disk-backed directory, not tmpfs): uninterruptible waits
 *   lt-sleep20    20 x nanosleep(20 ms)          interruptible, > 5 ms: NOT charged
 *
 * The parent names itself lt-main and waits for the five children (its
 * wait4() is one long interruptible wait, dropped by the 5 ms rule too).
 * The children run concurrently; the machine is expected to be otherwise
 * idle.  Nothing is printed unless -v is given.
 *
 * usage: lt-workload [-v] [-d DIR]      (DIR defaults to ".")
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MSEC 1000000L

static int verbose;

static void die(const char *what)
{
	fprintf(stderr, "lt-workload: %s: %s\n", what, strerror(errno));
	exit(1);
}

static void set_name(const char *name)
{
	if (prctl(PR_SET_NAME, name, 0, 0, 0) < 0)
		die("prctl(PR_SET_NAME)");
}

static void sleep_ns(long ns)
{
	struct timespec ts = { .tv_sec = ns / 1000000000L, .tv_nsec = ns % 1000000000L };

	while (nanosleep(&ts, &ts) < 0) {
		if (errno != EINTR)
			die("nanosleep");
	}
}

static void sleeper(int n, long ns)
{
	for (int i = 0; i < n; i++)
		sleep_ns(ns);
}

static void pipe_reader(int fd, int n)
{
	char c;

	for (int i = 0; i < n; i++) {
		ssize_t r = read(fd, &c, 1);

		if (r < 0 && errno == EINTR) {
			i--;
			continue;
		}
		if (r != 1)
			die("read(pipe)");
	}
}

static void pipe_writer(int fd, int n, long ns)
{
	char c = 'x';

	for (int i = 0; i < n; i++) {
		sleep_ns(ns);
		while (write(fd, &c, 1) != 1) {
			if (errno != EINTR)
				die("write(pipe)");
		}
	}
}

static void fsyncer(const char *dir, int n)
{
	char path[4096];
	char buf[4096];
	int fd;

	snprintf(path, sizeof(path), "%s/lt-workload-fsync.%d", dir, (int)getpid());
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	if (fd < 0)
		die(path);
	memset(buf, 'f', sizeof(buf));
	for (int i = 0; i < n; i++) {
		if (pwrite(fd, buf, sizeof(buf), (off_t)i * sizeof(buf)) != sizeof(buf))
			die("pwrite");
		if (fsync(fd) < 0)
			die("fsync");
	}
	close(fd);
	unlink(path);
}

static int pipefd[2];
static const char *fsync_dir = ".";

static void run_sleep2(void) { sleeper(300, 2 * MSEC); }
static void run_sleep20(void) { sleeper(20, 20 * MSEC); }
static void run_fsync(void) { fsyncer(fsync_dir, 50); }

static void run_piperd(void)
{
	close(pipefd[1]);
	pipe_reader(pipefd[0], 200);
}

static void run_pipewr(void)
{
	close(pipefd[0]);
	pipe_writer(pipefd[1], 200, 3 * MSEC);
}

static struct child {
	const char *name;
	void (*body)(void);
	pid_t pid;
} kids[] = {
	{ .name = "lt-sleep2", .body = run_sleep2 },
	{ .name = "lt-piperd", .body = run_piperd },
	{ .name = "lt-pipewr", .body = run_pipewr },
	{ .name = "lt-fsync", .body = run_fsync },
	{ .name = "lt-sleep20", .body = run_sleep20 },
};

static pid_t spawn(const struct child *kid)
{
	pid_t pid = fork();

	if (pid < 0)
		die("fork");
	if (pid == 0) {
		set_name(kid->name);
		kid->body();
		_exit(0);
	}
	return pid;
}

int main(int argc, char **argv)
{
	int status, failed = 0, opt;

	while ((opt = getopt(argc, argv, "vd:")) != -1) {
		switch (opt) {
		case 'v':
			verbose = 1;
			break;
		case 'd':
			fsync_dir = optarg;
			break;
		default:
			fprintf(stderr, "usage: %s [-v] [-d DIR]\n", argv[0]);
			return 2;
		}
	}

	set_name("lt-main");
	if (pipe(pipefd) < 0)
		die("pipe");
	for (size_t i = 0; i < sizeof(kids) / sizeof(kids[0]); i++)
		kids[i].pid = spawn(&kids[i]);
	close(pipefd[0]);
	close(pipefd[1]);

	for (size_t i = 0; i < sizeof(kids) / sizeof(kids[0]); i++) {
		if (waitpid(kids[i].pid, &status, 0) < 0)
			die("waitpid");
		if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
			failed = 1;
		if (verbose)
			printf("%-10s pid %d status 0x%x\n", kids[i].name,
			       (int)kids[i].pid, status);
	}
	return failed;
}
