// SPDX-License-Identifier: GPL-2.0
/*
 * run-one - one timed run of a command, for the benchmark.
 *
 *   run-one [-c CPU]... -- PROGRAM [ARG...]
 *
 * Runs PROGRAM once, or once per -c at the same time, each pinned to that
 * CPU; stdin and stdout are /dev/null, stderr is run-one's.  When all have
 * exited it prints one line:
 *
 *   wall_ns <ns> maxrss_kb <KB> cpu_ns <user+sys ns> status <code>
 *
 * maxrss_kb is the largest of the copies', status the first non-zero exit
 * code (128 + the signal for a killed one).
 *
 * Why not from the Python bench directly: a child's ru_maxrss counts the
 * memory it had before exec, which is a copy or (vfork) the very image of
 * its parent, so every tool smaller than the Python process read as
 * Python's ~14 MB.  Started from this small process, a tool reads as its
 * own size.  Pinning between fork and exec also spares the ~3 ms of
 * taskset's own exec.
 *
 * Exit status 0 when the line was printed, 2 on bad usage or when a copy
 * could not be started.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MAX_COPIES	64

static void usage(void)
{
	fprintf(stderr, "usage: run-one [-c CPU]... -- PROGRAM [ARG...]\n");
	exit(2);
}

static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static long long tv_ns(struct timeval tv)
{
	return tv.tv_sec * 1000000000LL + tv.tv_usec * 1000LL;
}

/* In the child: pinned (@cpu >= 0), quiet, then @argv (no extra fd). */
static void child(int cpu, char **argv)
{
	cpu_set_t set;
	int fd = open("/dev/null", O_RDWR | O_CLOEXEC);

	if (fd < 0 || dup2(fd, 0) < 0 || dup2(fd, 1) < 0) {
		fprintf(stderr, "run-one: /dev/null: %s\n", strerror(errno));
		_exit(127);
	}
	if (cpu >= 0) {
		CPU_ZERO(&set);
		CPU_SET(cpu, &set);
		if (sched_setaffinity(0, sizeof(set), &set)) {
			fprintf(stderr, "run-one: cannot pin to CPU %d: %s\n",
				cpu, strerror(errno));
			_exit(127);
		}
	}
	execvp(argv[0], argv);
	fprintf(stderr, "run-one: %s: %s\n", argv[0], strerror(errno));
	_exit(127);
}

int main(int argc, char **argv)
{
	int cpus[MAX_COPIES], nr = 0, i, opt, status, code = 0;
	long long start, wall, cpu_ns = 0;
	pid_t pids[MAX_COPIES];
	long maxrss = 0;
	struct rusage ru;
	char *end;
	long v;

	while ((opt = getopt(argc, argv, "+c:")) != -1) {
		if (opt != 'c' || nr == MAX_COPIES)
			usage();
		v = strtol(optarg, &end, 10);
		if (*optarg == '\0' || *end || v < 0 || v >= CPU_SETSIZE)
			usage();
		cpus[nr++] = (int)v;
	}
	if (optind >= argc)
		usage();
	if (!nr)
		cpus[nr++] = -1;
	fflush(stdout);
	start = now_ns();
	for (i = 0; i < nr; i++) {
		pids[i] = fork();
		if (pids[i] < 0) {
			fprintf(stderr, "run-one: fork: %s\n", strerror(errno));
			/* the ones started are still waited for, not left behind */
			nr = i;
			code = -1;
			break;
		}
		if (!pids[i])
			child(cpus[i], argv + optind);
	}
	for (i = 0; i < nr; i++) {
		while (wait4(pids[i], &status, 0, &ru) < 0) {
			if (errno != EINTR) {
				fprintf(stderr, "run-one: wait4: %s\n", strerror(errno));
				return 2;
			}
		}
		if (ru.ru_maxrss > maxrss)
			maxrss = ru.ru_maxrss;
		cpu_ns += tv_ns(ru.ru_utime) + tv_ns(ru.ru_stime);
		if (!code)
			code = WIFEXITED(status) ? WEXITSTATUS(status) :
			       128 + WTERMSIG(status);
	}
	wall = now_ns() - start;
	if (code < 0)
		return 2;
	printf("wall_ns %lld maxrss_kb %ld cpu_ns %lld status %d\n",
	       wall, maxrss, cpu_ns, code);
	return 0;
}
