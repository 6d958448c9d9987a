// SPDX-License-Identifier: GPL-2.0
/*
 * lt-overhead: micro-workloads on annotated kernel paths, timed in the
 * guest of tests/kernel/overhead/run-overhead.sh.
 *
 * For each repetition, each tracing mode and each workload: set the mode
 * through tracefs, run the workload a fixed number of operations and print
 *
 *	LTB run <workload> <mode> <rep> <ops> <ns> <cpu_ns>
 *
 * <ns> is the time the operations took, <cpu_ns> the CPU time of the
 * calling process meanwhile (its threads included, a forked peer not):
 * the time it did not wait idle for the disk.
 *
 * Modes: "off" (no event), "sched" (sched:sched_switch alone, for scale),
 * "lt" (the latencytop events alone).  A mode whose events the kernel
 * lacks (the unpatched kernel has no latencytop events) is reported once
 * as "LTB skip <mode>" and left out.  In mode "lt" the ring buffer's own
 * counters (entries + overrun of every CPU) give the events each
 * operation emitted:
 *
 *	LTB events <workload> <rep> <ops> <events>
 *
 * The order of the modes rotates from one repetition to the next, so that
 * a drift of the host's speed spreads over all of them.  Workloads:
 *
 *	fsync	4 KiB pwrite + fsync() of one file on the ext4 disk
 *	pipe	1-byte ping-pong between two processes (ns per round trip)
 *	fault	first-touch write faults on fresh anonymous memory (per fault)
 *	futex	FUTEX_WAIT/FUTEX_WAKE ping-pong between two threads
 *	perf	perf bench sched pipe (its own usecs/op), when given -p PERF
 *
 * usage: lt-overhead [-r REPS] [-m MODES] [-w WORKLOADS] [-d DIR]
 *		     [-T TRACEFS] [-p PERF] [-n WORKLOAD=OPS]...
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/futex.h>
#include <pthread.h>
#include <sched.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static const char *tracefs = "/sys/kernel/tracing";
static const char *dir = "/mnt";
static const char *perf;

static void die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fputs("LTB error: ", stdout);
	vprintf(fmt, ap);
	va_end(ap);
	printf(" (%s)\n", strerror(errno));
	exit(1);
}

static uint64_t clock_ns(clockid_t clk)
{
	struct timespec ts;

	clock_gettime(clk, &ts);
	return (uint64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* What one run measured: elapsed and CPU time of the timed loop. */
struct span {
	uint64_t ns, cpu_ns;
};

static struct span span_start(void)
{
	return (struct span){ clock_ns(CLOCK_MONOTONIC),
			      clock_ns(CLOCK_PROCESS_CPUTIME_ID) };
}

static void span_add(struct span *total, struct span start)
{
	total->ns += clock_ns(CLOCK_MONOTONIC) - start.ns;
	total->cpu_ns += clock_ns(CLOCK_PROCESS_CPUTIME_ID) - start.cpu_ns;
}

/* tracefs ------------------------------------------------------------ */

static int tfs_write(const char *file, const char *val)
{
	char path[256];
	int fd, ok;

	snprintf(path, sizeof(path), "%s/%s", tracefs, file);
	fd = open(path, O_WRONLY | O_TRUNC);
	if (fd < 0)
		return -1;
	ok = write(fd, val, strlen(val)) == (ssize_t)strlen(val);
	close(fd);
	return ok ? 0 : -1;
}

static int tfs_exists(const char *file)
{
	char path[256];

	snprintf(path, sizeof(path), "%s/%s", tracefs, file);
	return access(path, F_OK) == 0;
}

/* The events a mode enables; NULL: none. */
static const char *mode_events(const char *mode)
{
	if (!strcmp(mode, "off"))
		return NULL;
	if (!strcmp(mode, "sched"))
		return "events/sched/sched_switch/enable";
	if (!strcmp(mode, "lt"))
		return "events/latencytop/enable";
	die("unknown mode %s", mode);
	return NULL;
}

static void set_mode(const char *mode)
{
	const char *ev = mode_events(mode);

	if (tfs_write("events/enable", "0") || tfs_write("trace", ""))
		die("cannot reset %s", tracefs);
	if (ev && tfs_write(ev, "1"))
		die("cannot enable %s", ev);
}

/* Events the ring buffer took since the last reset, on every CPU. */
static uint64_t ring_events(void)
{
	uint64_t total = 0;
	char path[256], line[128];
	int cpu;

	for (cpu = 0; ; cpu++) {
		FILE *f;

		snprintf(path, sizeof(path), "%s/per_cpu/cpu%d/stats", tracefs, cpu);
		f = fopen(path, "r");
		if (!f)
			break;
		while (fgets(line, sizeof(line), f)) {
			unsigned long long v;

			if (sscanf(line, "entries: %llu", &v) == 1 ||
			    sscanf(line, "overrun: %llu", &v) == 1)
				total += v;
		}
		fclose(f);
	}
	return total;
}

/* workloads ---------------------------------------------------------- */

static struct span w_fsync(long ops)
{
	char path[256], buf[4096];
	struct span t = { 0, 0 }, t0;
	long i;
	int fd;

	memset(buf, 'x', sizeof(buf));
	snprintf(path, sizeof(path), "%s/lt-overhead.dat", dir);
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0644);
	if (fd < 0)
		die("open %s", path);
	if (pwrite(fd, buf, sizeof(buf), 0) != sizeof(buf) || fsync(fd))
		die("write %s", path);
	t0 = span_start();
	for (i = 0; i < ops; i++) {
		buf[0] = (char)i;	/* a change, so each fsync has work */
		if (pwrite(fd, buf, sizeof(buf), 0) != sizeof(buf) || fsync(fd))
			die("fsync %s", path);
	}
	span_add(&t, t0);
	close(fd);
	return t;
}

static struct span w_pipe(long ops)
{
	int ab[2], ba[2], status;
	struct span t = { 0, 0 }, t0;
	char c = 0;
	pid_t pid;
	long i;

	if (pipe(ab) || pipe(ba))
		die("pipe");
	pid = fork();
	if (pid < 0)
		die("fork");
	if (!pid) {
		for (i = 0; i < ops; i++)
			if (read(ab[0], &c, 1) != 1 || write(ba[1], &c, 1) != 1)
				_exit(1);
		_exit(0);
	}
	t0 = span_start();
	for (i = 0; i < ops; i++)
		if (write(ab[1], &c, 1) != 1 || read(ba[0], &c, 1) != 1)
			die("pipe ping-pong");
	span_add(&t, t0);
	waitpid(pid, &status, 0);
	close(ab[0]), close(ab[1]), close(ba[0]), close(ba[1]);
	return t;
}

static struct span w_fault(long ops)
{
	const long page = sysconf(_SC_PAGESIZE), chunk = 1024;
	struct span t = { 0, 0 }, t0;
	long done = 0, i;

	while (done < ops) {
		long n = ops - done < chunk ? ops - done : chunk;
		char *p = mmap(NULL, n * page, PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

		if (p == MAP_FAILED)
			die("mmap");
		t0 = span_start();
		for (i = 0; i < n; i++)
			p[i * page] = 1;
		span_add(&t, t0);
		munmap(p, n * page);
		done += n;
	}
	return t;
}

static long futex(uint32_t *uaddr, int op, uint32_t val)
{
	return syscall(SYS_futex, uaddr, op, val, NULL, NULL, 0);
}

struct pingpong {
	uint32_t word;	/* 0: the main thread's turn, 1: the other's */
	long ops;
};

static void *futex_peer(void *arg)
{
	struct pingpong *pp = arg;
	long i;

	for (i = 0; i < pp->ops; i++) {
		while (__atomic_load_n(&pp->word, __ATOMIC_ACQUIRE) != 1)
			futex(&pp->word, FUTEX_WAIT_PRIVATE, 0);
		__atomic_store_n(&pp->word, 0, __ATOMIC_RELEASE);
		futex(&pp->word, FUTEX_WAKE_PRIVATE, 1);
	}
	return NULL;
}

static struct span w_futex(long ops)
{
	struct pingpong pp = { .word = 0, .ops = ops };
	struct span t = { 0, 0 }, t0;
	pthread_t th;
	long i;

	if (pthread_create(&th, NULL, futex_peer, &pp))
		die("pthread_create");
	t0 = span_start();
	for (i = 0; i < ops; i++) {
		__atomic_store_n(&pp.word, 1, __ATOMIC_RELEASE);
		futex(&pp.word, FUTEX_WAKE_PRIVATE, 1);
		while (__atomic_load_n(&pp.word, __ATOMIC_ACQUIRE) != 0)
			futex(&pp.word, FUTEX_WAIT_PRIVATE, 1);
	}
	span_add(&t, t0);
	pthread_join(th, NULL);
	return t;
}

/* perf bench sched pipe -l OPS: its own measure, "N usecs/op"; no CPU time. */
static struct span w_perf(long ops)
{
	char cmd[512], line[256];
	double us = -1;
	FILE *f;

	snprintf(cmd, sizeof(cmd), "%s bench sched pipe -l %ld 2>&1", perf, ops);
	f = popen(cmd, "r");
	if (!f)
		die("popen %s", cmd);
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, " %lf usecs/op", &us) == 1)
			break;
	while (fgets(line, sizeof(line), f))
		;
	if (pclose(f) || us < 0)
		die("%s: no usecs/op", cmd);
	return (struct span){ (uint64_t)(us * 1000.0 * ops + 0.5), 0 };
}

static struct workload {
	const char *name;
	struct span (*run)(long ops);
	long ops;
	int on;
} workloads[] = {	/* ~0.4 s each under TCG on the 2-core VM */
	{ .name = "fsync", .run = w_fsync, .ops = 1000 },
	{ .name = "pipe", .run = w_pipe, .ops = 5000 },
	{ .name = "fault", .run = w_fault, .ops = 65536 },
	{ .name = "futex", .run = w_futex, .ops = 20000 },
	{ .name = "perf", .run = w_perf, .ops = 5000 },
};
#define NR_WORKLOADS (sizeof(workloads) / sizeof(workloads[0]))

static int in_list(const char *list, const char *name)
{
	size_t len = strlen(name);
	const char *p = list;

	while (*p) {
		const char *end = strchrnul(p, ',');

		if ((size_t)(end - p) == len && !strncmp(p, name, len))
			return 1;
		p = *end ? end + 1 : end;
	}
	return 0;
}

int main(int argc, char **argv)
{
	const char *modes_arg = "off,sched,lt", *wl_arg = NULL;
	const char *modes[8];
	int reps = 7, nmodes = 0, opt, r, m, i;
	char *copy, *tok;
	cpu_set_t one;

	while ((opt = getopt(argc, argv, "r:m:w:d:T:p:n:")) != -1) {
		switch (opt) {
		case 'r': reps = atoi(optarg); break;
		case 'm': modes_arg = optarg; break;
		case 'w': wl_arg = optarg; break;
		case 'd': dir = optarg; break;
		case 'T': tracefs = optarg; break;
		case 'p': perf = optarg; break;
		case 'n':
			for (i = 0; i < (int)NR_WORKLOADS; i++) {
				size_t len = strlen(workloads[i].name);

				if (!strncmp(optarg, workloads[i].name, len) &&
				    optarg[len] == '=')
					workloads[i].ops = atol(optarg + len + 1);
			}
			break;
		default:
			fprintf(stderr, "usage: %s [-r REPS] [-m MODES] [-w WORKLOADS] "
				"[-d DIR] [-T TRACEFS] [-p PERF] [-n WORKLOAD=OPS]\n",
				argv[0]);
			return 2;
		}
	}
	for (i = 0; i < (int)NR_WORKLOADS; i++)
		workloads[i].on = wl_arg ? in_list(wl_arg, workloads[i].name)
					 : strcmp(workloads[i].name, "perf") || perf;
	copy = strdup(modes_arg);
	for (tok = strtok(copy, ","); tok && nmodes < 8; tok = strtok(NULL, ",")) {
		const char *ev = mode_events(tok);

		if (ev && !tfs_exists(ev)) {
			printf("LTB skip %s no %s\n", tok, ev);
			continue;
		}
		modes[nmodes++] = tok;
	}
	if (!nmodes)
		die("no mode to run");
	/* One CPU: no migrations, no cross-CPU wakeups in the figures. */
	CPU_ZERO(&one);
	CPU_SET(0, &one);
	if (sched_setaffinity(0, sizeof(one), &one))
		die("sched_setaffinity");
	if (tfs_write("buffer_size_kb", "4096") || tfs_write("tracing_on", "1"))
		die("cannot set up %s", tracefs);

	for (i = 0; i < (int)NR_WORKLOADS; i++)		/* warm-up, untimed */
		if (workloads[i].on)
			workloads[i].run(workloads[i].ops / 10 + 1);
	for (r = 0; r < reps; r++) {
		for (m = 0; m < nmodes; m++) {
			const char *mode = modes[(m + r) % nmodes];

			for (i = 0; i < (int)NR_WORKLOADS; i++) {
				struct workload *w = &workloads[i];
				struct span t;

				if (!w->on)
					continue;
				set_mode(mode);
				t = w->run(w->ops);
				printf("LTB run %s %s %d %ld %llu %llu\n", w->name,
				       mode, r, w->ops, (unsigned long long)t.ns,
				       (unsigned long long)t.cpu_ns);
				if (!strcmp(mode, "lt"))
					printf("LTB events %s %d %ld %llu\n", w->name,
					       r, w->ops,
					       (unsigned long long)ring_events());
				fflush(stdout);
			}
		}
	}
	set_mode("off");
	printf("LTB done\n");
	return 0;
}
