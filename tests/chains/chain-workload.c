// SPDX-License-Identifier: GPL-2.0
/*
 * cw-workload: waits whose waker chains are known, for the chain oracle
 * (chain-oracle.py) and the "waiting for whom" tests of issue 48.
 *
 * Every thread names itself (PR_SET_NAME) before it first blocks, so a
 * trace tells them apart by comm.  One scenario per run:
 *
 *   pipe    cw-reader reads a pipe, one byte at a time; cw-writer writes
 *           each byte after nanosleep(3 ms).  The reader's waits are
 *           ended by the writer, who spent them asleep.
 *   mutex   cw-holder: lock a pthread mutex, pwrite 1 MiB and fdatasync
 *           a file in DIR (disk-backed: not tmpfs), unlock, sleep 1 ms;
 *           60 times, over the same 8 MiB.  The holder runs SCHED_FIFO
 *           (else at nice -10) where allowed, so that on a busy machine
 *           its waits for a CPU do not swamp its waits for the disk.
 *           cw-waiter: sleep 0.3 ms, lock, unlock, until the holder is
 *           done.  The waiter's futex waits are ended by the holder's
 *           unlock, after its fdatasync (D state, the disk and jbd2).
 *   relay   cw-relay-a waits on a condition variable signalled by
 *           cw-relay-b, who reads a pipe written by cw-relay-c, who
 *           sleeps 3 ms before each byte: A <- B <- C <- timer.
 *   hogs    cw-hog0 spins pinned to the first CPU, cw-hog1 and cw-hog2
 *           to the last, with cw-sleeper (nanosleep 1 ms, 400 times)
 *           pinned there too: its waits for a CPU are spent behind hogs.
 *           cw-hog1 and cw-hog2 run at nice -10 where allowed: ahead of
 *           whatever else the machine runs on that CPU, and of the sleeper.
 *
 * The main thread (cw-main) only starts and joins.  Nothing is printed
 * unless -v is given.
 *
 * usage: cw-workload [-v] [-d DIR] pipe|mutex|relay|hogs
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define USEC 1000L
#define MSEC 1000000L

#define PIPE_BYTES	250	/* pipe and relay: bytes written, 3 ms apart */
#define PIPE_GAP_NS	(3 * MSEC)
#define SYNC_ROUNDS	60	/* mutex: fdatasyncs under the lock */
#define SYNC_BYTES	(4 << 20)	/* written before each */
#define SYNC_SPAN	8		/* ... at offset (round % SPAN) MiB */
#define SYNC_PAUSE_NS	(1 * MSEC)
#define WAITER_NAP_NS	(300 * USEC)
#define HOG_NAPS	400	/* hogs: the sleeper's naps of 1 ms */
#define HOG_NAP_NS	(1 * MSEC)

static int verbose;
static const char *dir = ".";

static void die(const char *what, int err)
{
	fprintf(stderr, "cw-workload: %s: %s\n", what, strerror(err));
	exit(1);
}

static void set_name(const char *name)
{
	if (prctl(PR_SET_NAME, name, 0, 0, 0) < 0)
		die("prctl(PR_SET_NAME)", errno);
}

static void sleep_ns(long ns)
{
	struct timespec ts = { .tv_sec = ns / 1000000000L, .tv_nsec = ns % 1000000000L };

	while (nanosleep(&ts, &ts) < 0) {
		if (errno != EINTR)
			die("nanosleep", errno);
	}
}

static void read_byte(int fd)
{
	char c;
	ssize_t r;

	while ((r = read(fd, &c, 1)) < 0 && errno == EINTR)
		;
	if (r != 1)
		die("read(pipe)", r < 0 ? errno : EPIPE);
}

static void write_byte(int fd)
{
	char c = 'x';
	ssize_t r;

	while ((r = write(fd, &c, 1)) < 0 && errno == EINTR)
		;
	if (r != 1)
		die("write(pipe)", r < 0 ? errno : EPIPE);
}

static void pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set) < 0)
		die("sched_setaffinity", errno);
}

/* this thread only (a tid, on Linux); not allowed: the story holds less well */
static void nice_thread(int nice)
{
	(void)setpriority(PRIO_PROCESS, (id_t)syscall(SYS_gettid), nice);
}

static pthread_t start(void *(*fn)(void *), void *arg)
{
	pthread_t t;
	int err = pthread_create(&t, NULL, fn, arg);

	if (err)
		die("pthread_create", err);
	return t;
}

static void join(pthread_t t)
{
	int err = pthread_join(t, NULL);

	if (err)
		die("pthread_join", err);
}

/* ---- pipe: cw-reader <- cw-writer <- timer ---------------------------- */

static int pipefd[2];

static void *pipe_reader(void *arg)
{
	(void)arg;
	set_name("cw-reader");
	for (int i = 0; i < PIPE_BYTES; i++)
		read_byte(pipefd[0]);
	return NULL;
}

static void *pipe_writer(void *arg)
{
	(void)arg;
	set_name("cw-writer");
	for (int i = 0; i < PIPE_BYTES; i++) {
		sleep_ns(PIPE_GAP_NS);
		write_byte(pipefd[1]);
	}
	return NULL;
}

static void run_pipe(void)
{
	pthread_t r, w;

	if (pipe(pipefd) < 0)
		die("pipe", errno);
	r = start(pipe_reader, NULL);
	w = start(pipe_writer, NULL);
	join(w);
	join(r);
}

/* ---- mutex: cw-waiter <- cw-holder (fdatasync) <- disk ---------------- */

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static atomic_int holder_done;

static void *holder(void *arg)
{
	static char buf[SYNC_BYTES];
	char path[4096];
	int fd, err;

	(void)arg;
	set_name("cw-holder");
	if (pthread_setschedparam(pthread_self(), SCHED_FIFO,
				  &(struct sched_param){ .sched_priority = 1 }))
		nice_thread(-10);
	snprintf(path, sizeof(path), "%s/cw-workload-sync.%d", dir, (int)getpid());
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	if (fd < 0)
		die(path, errno);
	memset(buf, 's', sizeof(buf));
	for (int i = 0; i < SYNC_ROUNDS; i++) {
		if ((err = pthread_mutex_lock(&lock)))
			die("pthread_mutex_lock", err);
		if (pwrite(fd, buf, sizeof(buf), (off_t)(i % SYNC_SPAN) * sizeof(buf)) !=
		    sizeof(buf))
			die("pwrite", errno);
		if (fdatasync(fd) < 0)
			die("fdatasync", errno);
		if ((err = pthread_mutex_unlock(&lock)))
			die("pthread_mutex_unlock", err);
		sleep_ns(SYNC_PAUSE_NS);
	}
	atomic_store(&holder_done, 1);
	close(fd);
	unlink(path);
	return NULL;
}

static void *waiter(void *arg)
{
	long rounds = 0;
	int err;

	(void)arg;
	set_name("cw-waiter");
	while (!atomic_load(&holder_done)) {
		sleep_ns(WAITER_NAP_NS);
		if ((err = pthread_mutex_lock(&lock)))
			die("pthread_mutex_lock", err);
		rounds++;
		if ((err = pthread_mutex_unlock(&lock)))
			die("pthread_mutex_unlock", err);
	}
	if (verbose)
		printf("cw-waiter: %ld rounds\n", rounds);
	return NULL;
}

static void run_mutex(void)
{
	pthread_t h, w;

	h = start(holder, NULL);
	w = start(waiter, NULL);
	join(h);
	join(w);
}

/* ---- relay: cw-relay-a <- cw-relay-b <- cw-relay-c <- timer ----------- */

static pthread_mutex_t relay_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t relay_cond = PTHREAD_COND_INITIALIZER;
static int relay_count;

static void *relay_a(void *arg)
{
	int seen = 0;

	(void)arg;
	set_name("cw-relay-a");
	pthread_mutex_lock(&relay_lock);
	while (seen < PIPE_BYTES) {
		while (relay_count == seen)
			pthread_cond_wait(&relay_cond, &relay_lock);
		seen = relay_count;
	}
	pthread_mutex_unlock(&relay_lock);
	return NULL;
}

static void *relay_b(void *arg)
{
	(void)arg;
	set_name("cw-relay-b");
	for (int i = 0; i < PIPE_BYTES; i++) {
		read_byte(pipefd[0]);
		pthread_mutex_lock(&relay_lock);
		relay_count++;
		pthread_mutex_unlock(&relay_lock);
		/* signalled after the unlock: A never waits for the mutex */
		pthread_cond_signal(&relay_cond);
	}
	return NULL;
}

static void *relay_c(void *arg)
{
	(void)arg;
	set_name("cw-relay-c");
	for (int i = 0; i < PIPE_BYTES; i++) {
		sleep_ns(PIPE_GAP_NS);
		write_byte(pipefd[1]);
	}
	return NULL;
}

static void run_relay(void)
{
	pthread_t a, b, c;

	if (pipe(pipefd) < 0)
		die("pipe", errno);
	a = start(relay_a, NULL);
	b = start(relay_b, NULL);
	c = start(relay_c, NULL);
	join(c);
	join(b);
	join(a);
}

/* ---- hogs: cw-sleeper's waits for a CPU, behind cw-hog1/2 ------------- */

static atomic_int hogs_stop;
static int last_cpu;

static void *hog(void *arg)
{
	long n = (long)arg;
	char name[16];
	volatile unsigned long spins = 0;

	snprintf(name, sizeof(name), "cw-hog%ld", n);
	set_name(name);
	if (n)
		nice_thread(-10);
	pin(n == 0 ? 0 : last_cpu);
	while (!atomic_load_explicit(&hogs_stop, memory_order_relaxed))
		spins++;
	return NULL;
}

static void *sleeper(void *arg)
{
	(void)arg;
	set_name("cw-sleeper");
	pin(last_cpu);
	for (int i = 0; i < HOG_NAPS; i++)
		sleep_ns(HOG_NAP_NS);
	return NULL;
}

static void run_hogs(void)
{
	pthread_t hogs[3], s;
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);

	last_cpu = ncpu > 1 ? (int)ncpu - 1 : 0;
	for (long i = 0; i < 3; i++)
		hogs[i] = start(hog, (void *)i);
	sleep_ns(20 * MSEC);	/* the hogs are spinning before the naps */
	s = start(sleeper, NULL);
	join(s);
	atomic_store(&hogs_stop, 1);
	for (int i = 0; i < 3; i++)
		join(hogs[i]);
}

int main(int argc, char **argv)
{
	static const struct {
		const char *name;
		void (*run)(void);
	} scenarios[] = {
		{ "pipe", run_pipe },
		{ "mutex", run_mutex },
		{ "relay", run_relay },
		{ "hogs", run_hogs },
	};
	int opt;

	while ((opt = getopt(argc, argv, "vd:")) != -1) {
		switch (opt) {
		case 'v':
			verbose = 1;
			break;
		case 'd':
			dir = optarg;
			break;
		default:
			goto usage;
		}
	}
	if (optind + 1 != argc)
		goto usage;
	set_name("cw-main");
	for (size_t i = 0; i < sizeof(scenarios) / sizeof(scenarios[0]); i++) {
		if (!strcmp(argv[optind], scenarios[i].name)) {
			scenarios[i].run();
			if (verbose)
				printf("cw-workload: %s done\n", scenarios[i].name);
			return 0;
		}
	}
usage:
	fprintf(stderr, "usage: %s [-v] [-d DIR] pipe|mutex|relay|hogs\n", argv[0]);
	return 2;
}
