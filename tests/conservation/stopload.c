// SPDX-License-Identifier: GPL-2.0
/*
 * lt-stopload: tasks stopped in known amounts, for the conservation
 * recordings (tests/data/conservation/).
 *
 *   lt-stopped    a child that sleeps 1 ms in a loop; stopped 5 times for
 *                 30 ms by SIGSTOP, then SIGCONT: prev_state T
 *   lt-stopped2   a second one, stopped together with the first
 *   lt-traced     a third, attached 5 times by ptrace (PTRACE_ATTACH: it
 *                 stops for its tracer, prev_state t), held 30 ms, then
 *                 PTRACE_DETACH
 *
 * The parent is lt-stopper.  In all: 10 stops by a signal of ~30 ms (300
 * ms) and 5 stops for a tracer of ~30 ms (150 ms).  Nothing is printed
 * unless -v is given.
 *
 * usage: lt-stopload [-v]
 */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MSEC 1000000L
#define STOPS 5

static int verbose;

static void die(const char *what)
{
	fprintf(stderr, "lt-stopload: %s: %s\n", what, strerror(errno));
	exit(1);
}

static void sleep_ns(long ns)
{
	struct timespec ts = { .tv_sec = ns / 1000000000L, .tv_nsec = ns % 1000000000L };

	while (nanosleep(&ts, &ts) < 0) {
		if (errno != EINTR)
			die("nanosleep");
	}
}

/* A child that runs a little and sleeps 1 ms, until killed. */
static pid_t spawn(const char *name)
{
	pid_t pid = fork();

	if (pid < 0)
		die("fork");
	if (pid)
		return pid;
	if (prctl(PR_SET_NAME, name, 0, 0, 0) < 0)
		die("prctl(PR_SET_NAME)");
	for (;;)
		sleep_ns(1 * MSEC);
}

/* Wait until @pid is in a stop: the kill or ptrace stop has happened. */
static void wait_stopped(pid_t pid, int flags)
{
	int status;

	if (waitpid(pid, &status, WUNTRACED | flags) < 0)
		die("waitpid");
	if (!WIFSTOPPED(status)) {
		errno = ECHILD;
		die("the child did not stop");
	}
}

int main(int argc, char **argv)
{
	pid_t a, b, c;
	int i;

	if (argc > 1 && !strcmp(argv[1], "-v"))
		verbose = 1;
	if (prctl(PR_SET_NAME, "lt-stopper", 0, 0, 0) < 0)
		die("prctl(PR_SET_NAME)");
	a = spawn("lt-stopped");
	b = spawn("lt-stopped2");
	c = spawn("lt-traced");
	sleep_ns(20 * MSEC);

	for (i = 0; i < STOPS; i++) {
		if (kill(a, SIGSTOP) < 0 || kill(b, SIGSTOP) < 0)
			die("kill(SIGSTOP)");
		wait_stopped(a, 0);
		wait_stopped(b, 0);
		sleep_ns(30 * MSEC);
		if (kill(a, SIGCONT) < 0 || kill(b, SIGCONT) < 0)
			die("kill(SIGCONT)");
		sleep_ns(20 * MSEC);
	}
	for (i = 0; i < STOPS; i++) {
		if (ptrace(PTRACE_ATTACH, c, NULL, NULL) < 0)
			die("ptrace(PTRACE_ATTACH)");
		wait_stopped(c, __WALL);
		sleep_ns(30 * MSEC);
		if (ptrace(PTRACE_DETACH, c, NULL, NULL) < 0)
			die("ptrace(PTRACE_DETACH)");
		sleep_ns(20 * MSEC);
	}
	kill(a, SIGKILL);
	kill(b, SIGKILL);
	kill(c, SIGKILL);
	while (wait(NULL) > 0)
		;
	if (verbose)
		printf("lt-stopload: %d stops of 2 tasks by SIGSTOP, %d by ptrace\n",
		       STOPS, STOPS);
	return 0;
}
