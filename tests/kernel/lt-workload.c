// SPDX-License-Identifier: GPL-2.0
/*
 * lt-workload - small, named blocking workloads for the kernel end-to-end
 * test.  Built statically on the host and run inside the qemu guest under
 * trace-cmd, so that each kind of wait happens in a task with its own
 * comm ("lt-fsync", "lt-pipe-rd", ...) and the test can check what the
 * analyzer charged it to.
 *
 *   lt-workload fsync FILE COUNT        write 64 KiB + fsync(), COUNT times
 *   lt-workload fdatasync FILE COUNT    same with fdatasync()
 *   lt-workload pipe MIB                writer and reader through a pipe,
 *                                       each in turn the slow side
 *   lt-workload sleep COUNT USEC        nanosleep() COUNT times
 *   lt-workload poll COUNT              poll() a pipe fed every 1 ms
 *   lt-workload futex COUNT             four threads contending on a mutex
 *   lt-workload fault FILE              mmap FILE and read every page
 *   lt-workload files DIR COUNT         create, write and unlink files
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define CHUNK (64 * 1024)

static char buf[CHUNK];

static void die(const char *what)
{
	fprintf(stderr, "lt-workload: %s: %s\n", what, strerror(errno));
	exit(1);
}

static void set_name(const char *name)
{
	prctl(PR_SET_NAME, name, 0, 0, 0);
}

static void write_all(int fd, const char *p, size_t len)
{
	while (len) {
		ssize_t n = write(fd, p, len);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			die("write");
		}
		p += n;
		len -= n;
	}
}

static void sleep_us(long us)
{
	struct timespec ts = { us / 1000000, (us % 1000000) * 1000 };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

static int do_sync(const char *file, int count, int data_only)
{
	int fd, i;

	set_name(data_only ? "lt-fdatasync" : "lt-fsync");
	fd = open(file, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0)
		die(file);
	for (i = 0; i < count; i++) {
		memset(buf, 'a' + i % 26, sizeof(buf));
		write_all(fd, buf, sizeof(buf));
		if ((data_only ? fdatasync(fd) : fsync(fd)) < 0)
			die("fsync");
	}
	close(fd);
	return 0;
}

/*
 * Busy for US microseconds without sleeping: the pipe workload's slow side
 * must not block in anything but the pipe, or the share of its blocked time
 * that is pipe waits would depend on how fast the guest runs.
 */
static void spin_us(long us)
{
	struct timespec t0, t;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	do
		clock_gettime(CLOCK_MONOTONIC, &t);
	while ((t.tv_sec - t0.tv_sec) * 1000000 +
	       (t.tv_nsec - t0.tv_nsec) / 1000 < us);
}

/*
 * The first half has a slow reader, so the writer waits for room; the
 * second a slow writer, so the reader waits for data.  Each side is slowed
 * by spinning, never by sleeping: a reader that slept between reads spent
 * about as long in nanosleep as in pipe_read() under TCG, and in one CI run
 * more (16.6 ms against 13.4), which failed the check that pipe reads are
 * most of its blocked time.
 */
static int do_pipe(int mib)
{
	long total = (long)mib << 20, half = total / 2, done = 0;
	int fds[2], status;
	pid_t pid;

	if (pipe(fds) < 0)
		die("pipe");
	pid = fork();
	if (pid < 0)
		die("fork");
	if (pid == 0) {
		close(fds[0]);
		set_name("lt-pipe-wr");
		memset(buf, 'p', sizeof(buf));
		for (done = 0; done < total; done += 4096) {
			if (done >= half && (done >> 12) % 16 == 0)
				spin_us(500);
			write_all(fds[1], buf, 4096);
		}
		_exit(0);
	}
	close(fds[1]);
	set_name("lt-pipe-rd");
	for (;;) {
		ssize_t n = read(fds[0], buf, sizeof(buf));

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			die("read");
		if (n == 0)
			break;
		if (done < half && (done >> 16) != ((done + n) >> 16))
			spin_us(500);
		done += n;
	}
	waitpid(pid, &status, 0);
	return done == total ? 0 : 1;
}

static int do_sleep(int count, long us)
{
	int i;

	set_name("lt-sleep");
	for (i = 0; i < count; i++)
		sleep_us(us);
	return 0;
}

static int do_poll(int count)
{
	struct pollfd pfd;
	int fds[2], i, status;
	pid_t pid;

	if (pipe(fds) < 0)
		die("pipe");
	pid = fork();
	if (pid < 0)
		die("fork");
	if (pid == 0) {
		close(fds[0]);
		set_name("lt-poll-feed");
		for (i = 0; i < count; i++) {
			sleep_us(1000);
			write_all(fds[1], "x", 1);
		}
		_exit(0);
	}
	close(fds[1]);
	set_name("lt-poll");
	pfd.fd = fds[0];
	pfd.events = POLLIN;
	for (i = 0; i < count; i++) {
		char c;

		if (poll(&pfd, 1, 100) < 0 && errno != EINTR)
			die("poll");
		if (read(fds[0], &c, 1) <= 0)
			break;
	}
	waitpid(pid, &status, 0);
	return 0;
}

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_barrier_t start;
static volatile unsigned long counter;

static void *contend(void *arg)
{
	long i, n = (long)arg;

	set_name("lt-futex");
	/* Start together, or the first thread is done before the last runs. */
	pthread_barrier_wait(&start);
	for (i = 0; i < n; i++) {
		unsigned long j;

		pthread_mutex_lock(&lock);
		/*
		 * Hold the lock long enough for the others to sleep on it, and
		 * give them the CPU meanwhile: spinning alone left no waiter in
		 * some runs under TCG on a busy host (4 threads, 2 vCPUs).  A
		 * yield is no sleep: nothing but the futex waits is charged.
		 */
		for (j = 0; j < 5000; j++)
			counter++;
		sched_yield();
		pthread_mutex_unlock(&lock);
	}
	return NULL;
}

static int do_futex(int count)
{
	pthread_t t[4];
	int i;

	set_name("lt-futex");
	pthread_barrier_init(&start, NULL, 4);
	for (i = 0; i < 4; i++)
		if (pthread_create(&t[i], NULL, contend, (void *)(long)count))
			die("pthread_create");
	for (i = 0; i < 4; i++)
		pthread_join(t[i], NULL);
	return 0;
}

static int do_fault(const char *file)
{
	volatile const char *p;
	unsigned long sum = 0;
	struct stat st;
	off_t off;
	int fd;

	set_name("lt-fault");
	fd = open(file, O_RDONLY);
	if (fd < 0 || fstat(fd, &st) < 0)
		die(file);
	p = mmap(NULL, st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	if (p == MAP_FAILED)
		die("mmap");
	/* Defeat readaround a little: touch pages from the end backwards. */
	for (off = st.st_size - 1; off >= 0; off -= 4096)
		sum += p[off];
	munmap((void *)p, st.st_size);
	close(fd);
	return sum == 1;
}

static int do_files(const char *dir, int count)
{
	char path[4096];
	int i, fd;

	set_name("lt-files");
	memset(buf, 'f', sizeof(buf));
	for (i = 0; i < count; i++) {
		snprintf(path, sizeof(path), "%s/f%d", dir, i);
		fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		if (fd < 0)
			die(path);
		write_all(fd, buf, 16384);
		close(fd);
	}
	for (i = 0; i < count; i++) {
		snprintf(path, sizeof(path), "%s/f%d", dir, i);
		unlink(path);
	}
	return 0;
}

static int usage(void)
{
	fprintf(stderr,
		"usage: lt-workload fsync|fdatasync FILE COUNT | pipe MIB |\n"
		"       sleep COUNT USEC | poll COUNT | futex COUNT |\n"
		"       fault FILE | files DIR COUNT\n");
	return 2;
}

int main(int argc, char **argv)
{
	const char *m = argc > 1 ? argv[1] : "";

	if (!strcmp(m, "fsync") && argc == 4)
		return do_sync(argv[2], atoi(argv[3]), 0);
	if (!strcmp(m, "fdatasync") && argc == 4)
		return do_sync(argv[2], atoi(argv[3]), 1);
	if (!strcmp(m, "pipe") && argc == 3)
		return do_pipe(atoi(argv[2]));
	if (!strcmp(m, "sleep") && argc == 4)
		return do_sleep(atoi(argv[2]), atol(argv[3]));
	if (!strcmp(m, "poll") && argc == 3)
		return do_poll(atoi(argv[2]));
	if (!strcmp(m, "futex") && argc == 3)
		return do_futex(atoi(argv[2]));
	if (!strcmp(m, "fault") && argc == 3)
		return do_fault(argv[2]);
	if (!strcmp(m, "files") && argc == 4)
		return do_files(argv[2], atoi(argv[3]));
	return usage();
}
