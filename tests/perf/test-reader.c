// SPDX-License-Identifier: GPL-2.0
/*
 * test-reader.c - the perf.data reader on files written by perf-build.h.
 *
 *   test-perf-reader [--write-seeds DIR]
 *
 * - one file with every record kind, read in file and pipe mode, in both
 *   byte orders, mapped and through a pipe: the same records each time;
 * - the order: against a model of perf's ordered-events (a sorted list,
 *   flushed at each FINISHED_ROUND up to the largest time queued before
 *   the previous one) on random files; with a small queue, every record
 *   still once, and the late ones flagged and counted;
 * - every sample field before RAW, read formats, callchain contexts;
 * - perf's tracing data, through the trace.dat reader;
 * - damage: a table of files broken at named places, each giving its
 *   error code and message, and reading on giving what is left.
 * --write-seeds writes the files built here (for the fuzz corpus).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "lt-decode.h"
#include "lt-perf.h"
#include "lt-test.h"
#include "perf-build.h"

static const char *seed_dir;
static unsigned int nr_seeds;
/* a file's chunks in memory at most, for read_all() (0: the default) */
static unsigned int read_keep;

#define KERNEL_MARK	((uint64_t)-128)
#define USER_MARK	((uint64_t)-512)
#define GUEST_MARK	((uint64_t)-2048)
#define DEFERRED_MARK	((uint64_t)-640)

/* ---- reading a built file ------------------------------------------------ */

struct got {
	enum lt_perf_kind kind;
	uint64_t ts;
	int cpu, pid, tid;
	bool late;
	char event[32];
	int64_t a, b;		/* a sample's prev_pid/next_pid, or pid/cpu */
	unsigned int nk, nu;
	uint64_t k0, u0;
	char str[32];
	uint64_t count;
	bool exec;
	uint64_t cgroup;	/* a sample's */
};

struct run {
	struct got *g;
	unsigned int n;
	struct lt_perf_stats stats;
	struct lt_perf_info info;
	char hostname[32];
	int first_err;		/* code of the first error, or -1 */
	char msg[LT_ERROR_MSG_MAX];
	unsigned int errors;
	int open_ret;
};

struct feeder {
	int fd;
	const unsigned char *p;
	size_t n;
};

static void *feed(void *arg)
{
	struct feeder *f = arg;
	size_t done = 0;
	ssize_t k;

	while (done < f->n) {
		/* small writes: records cut across reads */
		k = write(f->fd, f->p + done, f->n - done < 777 ? f->n - done : 777);
		if (k <= 0)
			break;
		done += k;
	}
	close(f->fd);
	return NULL;
}

static void seed(const struct pb *b, const char *name)
{
	char path[512];
	FILE *f;

	if (!seed_dir)
		return;
	snprintf(path, sizeof(path), "%s/%s-%u", seed_dir, name, nr_seeds++);
	f = fopen(path, "wb");
	if (f) {
		fwrite(b->p, 1, b->len, f);
		fclose(f);
	}
}

static int64_t field(const struct lt_perf *p, const struct lt_record *raw,
		     const char *name)
{
	struct lt_field f;
	int64_t v = -999;

	if (raw->type && !lt_event_type_field(raw->type, name, &f))
		lt_field_s64(lt_perf_trace(p), &f, raw, &v);
	return v;
}

/* Read @b (through a pipe when @stream) to its end into @r. */
static void read_all(const struct pb *b, bool stream, size_t queue,
		     struct run *r)
{
	struct lt_perf_options o = { .queue_bytes = queue,
				     .chunks_keep = read_keep };
	struct lt_perf_record rec;
	struct feeder fd = { 0 };
	struct lt_error err;
	struct lt_perf *p;
	pthread_t th;
	int pfd[2], ret, in;
	unsigned int cap = 64;

	memset(r, 0, sizeof(*r));
	r->first_err = -1;
	r->g = calloc(cap, sizeof(*r->g));
	if (stream) {
		if (pipe(pfd))
			abort();
		fd.fd = pfd[1];
		fd.p = b->p;
		fd.n = b->len;
		pthread_create(&th, NULL, feed, &fd);
		in = pfd[0];
	} else {
		in = memfd_create("test.data", 0);
		if (in < 0 || write(in, b->p, b->len) != (ssize_t)b->len)
			abort();
	}
	r->open_ret = lt_perf_open_fd(&p, in, "test.data", &o, &err);
	if (r->open_ret) {
		r->first_err = err.code;
		snprintf(r->msg, sizeof(r->msg), "%s", err.msg);
		goto out;
	}
	r->info = *lt_perf_info(p);
	snprintf(r->hostname, sizeof(r->hostname), "%s", r->info.hostname);
	r->info.hostname = r->hostname;	/* the rest is gone at close */
	/* a damaged file stops in at most as many calls as it has bytes */
	for (size_t calls = 0; calls < b->len + 10; calls++) {
		ret = lt_perf_next(p, &rec, &err);
		if (ret == 0)
			break;
		if (ret < 0) {
			if (r->first_err < 0) {
				r->first_err = err.code;
				snprintf(r->msg, sizeof(r->msg), "%s", err.msg);
			}
			r->errors++;
			continue;
		}
		if (r->n == cap) {
			cap *= 2;
			r->g = realloc(r->g, cap * sizeof(*r->g));
		}
		struct got *g = &r->g[r->n++];

		memset(g, 0, sizeof(*g));
		g->kind = rec.kind;
		g->ts = rec.ts;
		g->cpu = rec.cpu;
		g->pid = rec.pid;
		g->tid = rec.tid;
		g->late = rec.late;
		snprintf(g->event, sizeof(g->event), "%s",
			 rec.attr ? rec.attr->name : "");
		switch (rec.kind) {
		case LT_PERF_SAMPLE:
			if (rec.sample.raw.type &&
			    !strcmp(lt_event_type_name(rec.sample.raw.type),
				    "sched_switch")) {
				g->a = field(p, &rec.sample.raw, "prev_pid");
				g->b = field(p, &rec.sample.raw, "next_pid");
			} else if (rec.sample.raw.type) {
				g->a = field(p, &rec.sample.raw, "pid");
				g->b = field(p, &rec.sample.raw, "target_cpu");
			}
			g->nk = rec.sample.nr_kernel_frames;
			g->nu = rec.sample.nr_user_frames;
			g->k0 = g->nk ? rec.sample.kernel_frames[0] : 0;
			g->u0 = g->nu ? rec.sample.user_frames[0] : 0;
			g->count = rec.sample.id;
			g->cgroup = rec.sample.cgroup;
			break;
		case LT_PERF_CGROUP:
			snprintf(g->str, sizeof(g->str), "%.*s",
				 (int)rec.cgroup.path_len, rec.cgroup.path);
			g->count = rec.cgroup.id;
			break;
		case LT_PERF_COMM:
			snprintf(g->str, sizeof(g->str), "%.*s",
				 (int)rec.comm.len, rec.comm.comm);
			g->exec = rec.comm.exec;
			break;
		case LT_PERF_FORK:
		case LT_PERF_EXIT:
			g->a = rec.task.ppid;
			g->b = rec.task.ptid;
			break;
		case LT_PERF_MMAP:
			snprintf(g->str, sizeof(g->str), "%.*s",
				 (int)rec.mmap.filename_len, rec.mmap.filename);
			g->a = rec.mmap.ino;
			break;
		case LT_PERF_LOST:
			g->count = rec.lost.count;
			g->exec = rec.lost.samples;
			break;
		}
	}
	r->stats = *lt_perf_stats(p);
	lt_perf_close(p);
out:
	if (stream) {
		close(in);
		pthread_join(th, NULL);
	} else {
		close(in);
	}
}

/* ---- perf's ordered-events, as a model ------------------------------------ */

static uint64_t rec_time(const struct tfile *f, const struct trec *r)
{
	const struct tattr *a = &f->attrs[r->attr];

	if (!(a->sample_type & T_TIME))
		return 0;
	if (r->kind != R_SAMPLE && !a->sample_id_all)
		return 0;
	return r->ts;
}

static bool is_data(enum tkind k)
{
	return k != R_ROUND && k != R_INIT && k != R_OTHER;
}

/*
 * The record numbers in the order perf hands them out
 * (tools/perf/util/ordered-events.c): immediate ones when read, queued
 * ones in a list sorted by time, ties in the order read; a round flushes
 * up to next_flush (nothing while it is 0), which then becomes the
 * largest time queued.  The end flushes all.
 */
static unsigned int model(const struct tfile *f, unsigned int *out)
{
	unsigned int *q = calloc(f->nr_recs + 1, sizeof(*q)), nq = 0, n = 0;
	uint64_t max_ts = 0, next_flush = 0, ts;
	unsigned int i, j, k;

	for (i = 0; i < f->nr_recs; i++) {
		const struct trec *r = &f->recs[i];

		if (r->kind == R_ROUND) {
			for (k = 0; next_flush && k < nq &&
			     rec_time(f, &f->recs[q[k]]) <= next_flush; k++)
				out[n++] = q[k];
			memmove(q, q + k, (nq - k) * sizeof(*q));
			nq -= k;
			next_flush = max_ts;
			continue;
		}
		if (!is_data(r->kind))
			continue;
		ts = rec_time(f, r);
		if (!ts) {
			out[n++] = i;
			continue;
		}
		if (!nq || ts >= max_ts)
			max_ts = ts;
		for (j = nq; j > 0 && rec_time(f, &f->recs[q[j - 1]]) > ts; j--)
			;
		memmove(q + j + 1, q + j, (nq - j) * sizeof(*q));
		q[j] = i;
		nq++;
	}
	for (k = 0; k < nq; k++)
		out[n++] = q[k];
	free(q);
	return n;
}

/* ---- one file, every way of reading it ------------------------------------- */

static const uint64_t chain_ku[] = {
	KERNEL_MARK, 0xffffffff81001000, 0xffffffff81002000,
	USER_MARK, 0x401000, 0x402000, 0x403000,
};

static const struct tattr basic_attrs[] = {
	{ 2, SWITCH_ID, T_DEFAULT | T_CALLCHAIN, F_ID | F_LOST, true,
	  { 10, 11 }, 2, 0 },
	{ 2, WAKEUP_ID, T_DEFAULT, F_ID | F_LOST, true, { 20, 21 }, 2, 0 },
	{ 1, 9, T_IDENTIFIER | T_IP | T_TID | T_TIME | T_CPU, F_ID, true,
	  { 30, 31 }, 2, 0 },
};

#define SW(ts, cpu, pid, prev, next) \
	{ R_SAMPLE, 0, ts, cpu, pid, pid, 0, prev, next }
#define WK(ts, cpu, pid, woken) \
	{ R_SAMPLE, 1, ts, cpu, pid, pid, 1, woken, 0 }

static const struct trec basic_recs[] = {
	/* synthesized at the start: no time, handed out at once */
	{ R_MMAP, 2, 0, 0, -1, 0, .str = "[kernel.kallsyms]_text" },
	{ R_COMM, 2, 0, 0, 42, 42, .str = "worker" },
	{ R_FORK, 2, 0, 0, 42, 42, .a = 1, .b = 1 },
	{ R_MMAP2, 2, 0, 0, 42, 42, .str = "/usr/bin/worker" },
	{ R_INIT, 2 },
	/* round 1: CPU 0's buffer, then CPU 1's */
	SW(100, 0, 42, 42, 0),
	WK(300, 0, 0, 42),
	SW(500, 0, 0, 0, 42),
	WK(200, 1, 7, 8),
	{ R_COMM, 2, 250, 1, 8, 8, .str = "newname", .exec = true },
	SW(400, 1, 8, 8, 7),
	{ R_ROUND, 2 },
	/* round 2 (nothing was handed out yet: next_flush was 0) */
	SW(600, 0, 42, 42, 0),
	SW(350, 1, 7, 7, 0),
	WK(700, 1, 0, 7),
	{ R_ROUND, 2 },
	/* round 3: 450 is older than 500, handed out at round 2's end */
	WK(450, 1, 0, 9),
	SW(800, 0, 0, 0, 9),
	{ R_OTHER, 2, .count = 14 },	/* SWITCH: not handed out */
	{ R_OTHER, 2, .count = 63 },	/* unknown kernel type */
	{ R_OTHER, 2, .count = 99 },	/* unknown user type */
	{ R_ROUND, 2 },
	{ R_LOST, 0, 900, 1, 0, 0, .count = 5 },
	{ R_EXIT, 2, 950, 0, 7, 7, .a = 1, .b = 1 },
	{ R_LOST_SAMPLES, 0, 0, 0, 0, 0, .count = 3 },
};

static struct trec basic_buf[sizeof(basic_recs) / sizeof(basic_recs[0])];

static struct tfile basic_file(bool pipe, bool be)
{
	struct tfile f = { basic_attrs, 3, basic_buf,
			   sizeof(basic_recs) / sizeof(basic_recs[0]),
			   pipe, be };

	memcpy(basic_buf, basic_recs, sizeof(basic_recs));
	/* the first switch of round 2 has a callchain */
	basic_buf[12].chain = chain_ku;
	basic_buf[12].nr_chain = sizeof(chain_ku) / sizeof(chain_ku[0]);
	return f;
}

static void check_order(const struct tfile *f, const struct run *r,
			const char *what)
{
	unsigned int want[T_MAX_RECS], n = model(f, want), i;

	lt_test_case = what;
	CHECK_U64(r->n, n);
	for (i = 0; i < n && i < r->n; i++) {
		const struct trec *w = &f->recs[want[i]];

		/* LOST_SAMPLES without a time have no task either */
		int tid = w->kind == R_LOST_SAMPLES && !w->ts ? -1 : w->tid;

		if (r->g[i].ts != rec_time(f, w) || r->g[i].tid != tid) {
			fprintf(stderr, "%s: record %u: ts %llu tid %d, want record %u (ts %llu tid %d)\n",
				what, i, (unsigned long long)r->g[i].ts,
				r->g[i].tid, want[i],
				(unsigned long long)rec_time(f, w), w->tid);
			lt_test_failures++;
			break;
		}
	}
}

static void test_basic(void)
{
	static const struct {
		bool pipe, be, stream, zstd;
		const char *name;
	} ways[] = {
		{ false, false, false, false, "file, little-endian" },
		{ false, true, false, false, "file, big-endian" },
		{ true, false, false, false, "pipe mode in a file, little-endian" },
		{ true, true, false, false, "pipe mode in a file, big-endian" },
		{ true, false, true, false, "pipe mode on a pipe, little-endian" },
		{ true, true, true, false, "pipe mode on a pipe, big-endian" },
		{ false, false, false, true, "file, compressed" },
		{ true, true, true, true, "pipe mode on a pipe, big-endian, compressed" },
	};
	struct run first, r;
	unsigned int w, i;

	for (w = 0; w < sizeof(ways) / sizeof(ways[0]); w++) {
		struct tfile f = basic_file(ways[w].pipe, ways[w].be);
		struct tlayout L;
		struct pb b;

		f.zstd = ways[w].zstd;
		tb_build(&f, &b, &L);
		seed(&b, "basic");
		read_all(&b, ways[w].stream, 0, &r);
		free(b.p);
		lt_test_case = ways[w].name;
		CHECK(r.open_ret == 0);
		CHECK_U64(r.errors, 0);
		if (r.first_err >= 0)
			fprintf(stderr, "%s: %s\n", ways[w].name, r.msg);
		check_order(&f, &r, ways[w].name);
		lt_test_case = ways[w].name;
		CHECK_U64(r.info.pipe, ways[w].pipe);
		CHECK_U64(r.info.big_endian, ways[w].be);
		CHECK_STR(r.info.hostname, "testhost");
		CHECK(r.info.tracing_data);
		CHECK_U64(r.stats.samples, 10);
		CHECK_U64(r.stats.rounds, 3);
		CHECK_U64(r.stats.unordered, 1);
		CHECK_U64(r.stats.lost_events, 5);
		CHECK_U64(r.stats.lost_samples, 3);
		CHECK_U64(r.stats.skipped, 1);
		CHECK_U64(r.stats.unknown, 2);
		CHECK_U64(r.stats.no_time, 5);
		if (!w) {
			first = r;
			continue;
		}
		/* every way, the same records */
		CHECK_U64(r.n, first.n);
		for (i = 0; i < r.n && i < first.n; i++) {
			const struct got *a = &r.g[i], *e = &first.g[i];

			if (a->kind != e->kind || a->ts != e->ts ||
			    a->cpu != e->cpu || a->pid != e->pid ||
			    a->tid != e->tid || a->late != e->late ||
			    strcmp(a->event, e->event) || a->a != e->a ||
			    a->b != e->b || a->nk != e->nk || a->nu != e->nu ||
			    a->k0 != e->k0 || a->u0 != e->u0 ||
			    strcmp(a->str, e->str) || a->count != e->count ||
			    a->exec != e->exec) {
				fprintf(stderr, "%s: record %u differs from the little-endian file's\n",
					ways[w].name, i);
				lt_test_failures++;
				break;
			}
		}
		free(r.g);
	}

	/* what the records say, in the first way */
	lt_test_case = "basic: fields";
	r = first;
	CHECK_U64(r.n, 18);
	if (r.n != 18)
		return;
	CHECK(r.g[0].kind == LT_PERF_MMAP && r.g[0].pid == -1);
	CHECK_STR(r.g[0].str, "[kernel.kallsyms]_text");
	CHECK(r.g[1].kind == LT_PERF_COMM && r.g[1].pid == 42);
	CHECK_STR(r.g[1].str, "worker");
	CHECK(!r.g[1].exec);
	CHECK(r.g[2].kind == LT_PERF_FORK && r.g[2].a == 1);
	CHECK(r.g[3].kind == LT_PERF_MMAP && r.g[3].a == 1234);
	CHECK_STR(r.g[3].str, "/usr/bin/worker");
	/* the queued ones: 100 200 250(COMM) 300 350 400 500 ... */
	CHECK(r.g[4].ts == 100 && r.g[4].cpu == 0 && r.g[4].a == 42);
	CHECK_STR(r.g[4].event, "sched:sched_switch");
	CHECK(r.g[5].ts == 200 && r.g[5].cpu == 1 && r.g[5].a == 8 &&
	      r.g[5].b == 1);
	CHECK_STR(r.g[5].event, "sched:sched_wakeup");
	CHECK(r.g[6].kind == LT_PERF_COMM && r.g[6].ts == 250 && r.g[6].exec);
	CHECK_STR(r.g[6].str, "newname");
	CHECK(r.g[8].ts == 350 && !r.g[8].late);
	CHECK(r.g[11].ts == 450 && r.g[11].late);
	CHECK(r.g[12].ts == 600 && r.g[12].nk == 2 && r.g[12].nu == 3 &&
	      r.g[12].k0 == 0xffffffff81001000 && r.g[12].u0 == 0x401000);
	CHECK(r.g[13].ts == 700);
	/* LOST_SAMPLES without time: when read, before the queued 800 */
	CHECK(r.g[14].kind == LT_PERF_LOST && r.g[14].exec &&
	      r.g[14].count == 3);
	CHECK(r.g[15].ts == 800);
	CHECK(r.g[16].kind == LT_PERF_LOST && r.g[16].cpu == 1 &&
	      r.g[16].count == 5 && !r.g[16].exec);
	CHECK(r.g[17].kind == LT_PERF_EXIT && r.g[17].ts == 950 &&
	      r.g[17].tid == 7 && r.g[17].a == 1);
	free(first.g);
}

/* ---- random files against the model --------------------------------------- */

static uint32_t rnd_state;

static uint32_t rnd(uint32_t n)
{
	rnd_state = rnd_state * 1103515245 + 12345;
	return (rnd_state >> 8) % n;
}

static void test_random(void)
{
	static struct trec recs[T_MAX_RECS];
	static const struct tattr attrs[] = {
		{ 2, SWITCH_ID, T_DEFAULT, 0, true, { 10, 11 }, 2, 0 },
		{ 2, WAKEUP_ID, T_DEFAULT, 0, true, { 20, 21 }, 2, 0 },
		{ 1, 9, T_IDENTIFIER | T_TID | T_TIME | T_CPU, 0, true,
		  { 30, 31 }, 2, 0 },
	};
	/* per-command layout: PERF_SAMPLE_ID, one event */
	static const struct tattr id_attrs[] = {
		{ 2, SWITCH_ID, T_IP | T_TID | T_TIME | T_ID | T_CPU | T_PERIOD |
		  T_RAW, 0, true, { 10, 11 }, 2, 0 },
		{ 2, WAKEUP_ID, T_IP | T_TID | T_TIME | T_ID | T_CPU | T_PERIOD |
		  T_RAW, 0, true, { 20, 21 }, 2, 0 },
	};
	char name[64];
	unsigned int c, i, n, k;

	rnd_state = 1;
	for (c = 0; c < 300; c++) {
		bool big = c % 10 == 9;
		uint64_t cpu_ts[4] = { 0 }, base = 1000;
		unsigned int cpus = 1 + rnd(4);
		struct tfile f = { c % 3 ? attrs : id_attrs, c % 3 ? 3 : 2,
				   recs, 0, c % 4 == 1, c % 5 == 2 };
		struct tlayout L;
		struct run r;
		struct pb b;

		n = big ? 3000 + rnd(1000) : 5 + rnd(200);
		for (i = 0; i < n; i++) {
			struct trec *t = &recs[f.nr_recs];
			unsigned int cpu = rnd(cpus);

			memset(t, 0, sizeof(*t));
			t->cpu = cpu;
			t->pid = t->tid = (int)f.nr_recs + 1;
			k = rnd(100);
			/* big files have no rounds: the small queue fills */
			if (k < 4 && !big) {
				t->kind = R_ROUND;
				t->attr = 0;
				base += 50 + rnd(200);
			} else if (k < 8) {
				/* synthesized, or a record without a time */
				t->kind = R_COMM;
				t->attr = f.nr_attrs - 1;
				t->str = "x";
			} else {
				t->kind = k < 12 ? R_FORK : R_SAMPLE;
				t->attr = rnd(f.nr_attrs);
				if (t->attr == 2)
					t->kind = R_EXIT;
				t->ev = t->attr;
				/* mostly rising per CPU; sometimes far back */
				cpu_ts[cpu] += 1 + rnd(20);
				if (cpu_ts[cpu] < base)
					cpu_ts[cpu] = base + rnd(30);
				t->ts = rnd(50) ? cpu_ts[cpu] :
					1 + rnd((uint32_t)cpu_ts[cpu]);
				if (rnd(10) == 0)
					t->ts = cpu_ts[(cpu + 1) % cpus] + 1;
				t->a = t->b = 1;
			}
			f.nr_recs++;
		}
		tb_build(&f, &b, &L);
		if (c < 20)
			seed(&b, "random");
		snprintf(name, sizeof(name), "random %u (%u records%s%s%s)", c,
			 f.nr_recs, f.pipe ? ", pipe" : "", f.be ? ", BE" : "",
			 big ? ", big" : "");
		read_all(&b, f.pipe && c % 8 == 1, 0, &r);
		lt_test_case = name;
		CHECK_U64(r.errors, 0);
		if (r.first_err >= 0)
			fprintf(stderr, "%s: %s\n", name, r.msg);
		CHECK_U64(r.stats.forced_flushes, 0);
		check_order(&f, &r, name);
		free(r.g);

		/* a queue of 64 KB: every record once, late ones flagged */
		read_all(&b, false, 1, &r);
		lt_test_case = name;
		{
			unsigned int want[T_MAX_RECS], m = model(&f, want);
			unsigned char *seen = calloc(f.nr_recs + 2, 1);
			uint64_t last = 0, late = 0;

			CHECK_U64(r.n, m);
			for (i = 0; i < r.n; i++) {
				int t = r.g[i].tid;

				if (t >= 1 && t <= (int)f.nr_recs && !seen[t])
					seen[t] = 1;
				else
					CHECK(!"a record handed out twice");
				if (!r.g[i].ts)
					continue;
				if (r.g[i].ts < last) {
					CHECK(r.g[i].late);
					late++;
				} else {
					CHECK(!r.g[i].late);
					last = r.g[i].ts;
				}
			}
			CHECK_U64(r.stats.unordered, late);
			if (big)
				CHECK(r.stats.forced_flushes > 0);
			CHECK(r.stats.queue_peak <= 2048 + 1);
			free(seen);
		}
		free(r.g);
		free(b.p);
	}
}

/*
 * Rounds larger than the chunks kept (~1 MB each): records of 44 KB (a
 * long call chain), three CPUs' runs a round, their times interleaved so
 * that the merge takes from each in turn.  With 2 chunks kept, chunks
 * are let go and read again, the runs' next records never; with plenty,
 * none is read again.  The records and their order are the same.
 */
static void test_chunks(void)
{
	static struct trec recs[T_MAX_RECS];
	static uint64_t chain[5500];
	enum { ROUNDS = 5, CPUS = 3, RUN = 30 };
	static const struct {
		unsigned int keep;
		const char *name;
	} ways[] = {
		{ 2, "chunks: 2 kept" },
		{ 0, "chunks: the default kept" },
		{ 64, "chunks: 64 kept" },
	};
	struct tfile f = { basic_attrs, 3, recs, 0, false, false };
	unsigned int r, c, i, w, n = 0;
	struct tlayout L;
	struct run got;
	struct pb b;

	chain[0] = KERNEL_MARK;
	for (i = 1; i < 3000; i++)
		chain[i] = 0xffffffff81000000ULL + 16 * i;
	chain[3000] = USER_MARK;
	for (i = 3001; i < 5500; i++)
		chain[i] = 0x400000 + 16 * i;
	for (r = 0; r < ROUNDS; r++) {
		for (c = 0; c < CPUS; c++)
			for (i = 0; i < RUN; i++) {
				struct trec *t = &recs[f.nr_recs++];

				memset(t, 0, sizeof(*t));
				t->kind = R_SAMPLE;
				t->ts = 1000 + ((uint64_t)r * RUN + i) * 10 + c;
				t->cpu = (int)c;
				t->pid = t->tid = (int)++n;
				t->a = t->tid;
				t->b = 0;
				t->chain = chain;
				t->nr_chain = 5500;
			}
		recs[f.nr_recs++] = (struct trec){ .kind = R_ROUND, .attr = 2 };
	}
	tb_build(&f, &b, &L);
	for (w = 0; w < sizeof(ways) / sizeof(ways[0]); w++) {
		read_keep = ways[w].keep;
		read_all(&b, false, 0, &got);
		read_keep = 0;
		lt_test_case = ways[w].name;
		CHECK_U64(got.errors, 0);
		if (got.first_err >= 0)
			fprintf(stderr, "%s: %s\n", ways[w].name, got.msg);
		check_order(&f, &got, ways[w].name);
		lt_test_case = ways[w].name;
		for (i = 0; i < got.n; i++)
			if (got.g[i].nk != 2999 || got.g[i].nu != 2499 ||
			    got.g[i].k0 != chain[1] || got.g[i].u0 != chain[3001])
				break;
		CHECK_MSG(i == got.n, "record %u: %u kernel frames from %#llx, "
			  "%u user frames from %#llx", i,
			  i < got.n ? got.g[i].nk : 0,
			  (unsigned long long)(i < got.n ? got.g[i].k0 : 0),
			  i < got.n ? got.g[i].nu : 0,
			  (unsigned long long)(i < got.n ? got.g[i].u0 : 0));
		CHECK_U64(got.stats.unordered, 0);
		CHECK_U64(got.stats.forced_flushes, 0);
		if (ways[w].keep == 2) {
			CHECK(got.stats.chunks_reread > 0);
			/* 2, or one per run whose next record is in memory */
			CHECK(got.stats.chunks_peak <= CPUS + 1);
		} else if (ways[w].keep == 64) {
			CHECK_U64(got.stats.chunks_reread, 0);
			/* two rounds of ~4 MB queued at once */
			CHECK(got.stats.chunks_peak >= 6);
		}
		free(got.g);
	}
	free(b.p);
}

/* The analyzer's decoder takes the samples as it takes a trace.dat's. */
static void test_decode(void)
{
	struct tfile f = basic_file(false, false);
	struct lt_perf_options o = { 0 };
	struct lt_perf_record rec;
	struct lt_decoder d;
	struct lt_error err;
	struct lt_perf *p;
	struct tlayout L;
	struct lt_ev ev;
	unsigned int sw = 0, wk = 0;
	struct pb b;
	int fd;

	lt_test_case = "decode";
	tb_build(&f, &b, &L);
	fd = memfd_create("decode", 0);
	if (fd < 0 || write(fd, b.p, b.len) != (ssize_t)b.len)
		abort();
	if (lt_perf_open_fd(&p, fd, "decode", &o, &err) ||
	    lt_decode_init(&d, lt_perf_trace(p), &err)) {
		fprintf(stderr, "decode: %s\n", err.msg);
		lt_test_failures++;
		close(fd);
		free(b.p);
		return;
	}
	while (lt_perf_next(p, &rec, &err) > 0) {
		if (rec.kind != LT_PERF_SAMPLE ||
		    lt_decode_record(&d, &rec.sample.raw, &ev) != 1)
			continue;
		CHECK_U64(ev.ts, rec.ts);
		CHECK_U64(ev.cpu, rec.cpu);
		CHECK_U64(ev.current, rec.pid);
		if (ev.kind == LT_EV_SWITCH) {
			sw++;
			CHECK_U64(ev.state, LT_STATE_SLEEP);
			CHECK(ev.str_len > 0 && !memcmp(ev.str, "prev", 4));
			if (rec.ts == 100)
				CHECK(ev.pid == 42 && ev.pid2 == 0);
		} else if (ev.kind == LT_EV_WAKEUP) {
			wk++;
			if (rec.ts == 200)
				CHECK_U64(ev.pid, 8);
		}
	}
	CHECK_U64(sw, 6);
	CHECK_U64(wk, 4);
	CHECK_U64(d.counts[LT_SRC_SWITCH], 6);
	lt_decode_free(&d);
	lt_perf_close(p);
	close(fd);
	free(b.p);
}

/*
 * Times going backwards, record after record: each is a run of its own.
 * The heap of runs has a cap too; the queue still hands out every record
 * once, in a bounded time (no pass over all runs per record).
 */
static void test_backwards(void)
{
	static struct trec recs[T_MAX_RECS];
	static const struct tattr attr = { 2, SWITCH_ID, T_DEFAULT, 0, true,
					   { 10 }, 1, 0 };
	struct tfile f = { &attr, 1, recs, 4000, false, false };
	struct tlayout L;
	struct run r;
	struct pb b;
	unsigned int i;

	for (i = 0; i < f.nr_recs; i++)
		recs[i] = (struct trec){ R_SAMPLE, 0, 1000000 - 7 * i, 0,
					 (int)i + 1, (int)i + 1, 0, 1, 2 };
	tb_build(&f, &b, &L);
	lt_test_case = "times going backwards";
	read_all(&b, false, 0, &r);
	CHECK_U64(r.n, 4000);
	CHECK_U64(r.stats.forced_flushes, 0);
	CHECK_U64(r.stats.unordered, 0);
	CHECK(r.n == 4000 && r.g[0].tid == 4000 && r.g[3999].tid == 1);
	free(r.g);
	read_all(&b, false, 1, &r);
	CHECK_U64(r.n, 4000);
	CHECK(r.stats.forced_flushes > 0);
	CHECK(r.stats.unordered > 0);
	free(r.g);
	free(b.p);
}

/* ---- sample layouts -------------------------------------------------------- */

static void test_layouts(void)
{
	static const uint64_t chains[][8] = {
		/* no marker first: the sample's cpumode (kernel) holds */
		{ 0xffffffff81000001, USER_MARK, 0x400001 },
		{ KERNEL_MARK, 0xffffffff81000002, GUEST_MARK, 0x123,
		  USER_MARK, 0x400002 },
		{ KERNEL_MARK, 0xffffffff81000003, DEFERRED_MARK, 77 },
		/* -1 is no context: perf drops the chain */
		{ KERNEL_MARK, 0xffffffff81000004, USER_MARK, 0x400004,
		  (uint64_t)-1 },
	};
	static const unsigned int lens[] = { 3, 6, 4, 5 };
	static const struct {
		unsigned int nk, nu, other;
		uint64_t k0, u0;
		bool bad;
	} want[] = {
		{ 1, 1, 0, 0xffffffff81000001, 0x400001, false },
		{ 1, 1, 1, 0xffffffff81000002, 0x400002, false },
		{ 1, 0, 0, 0xffffffff81000003, 0, false },
		{ 0, 0, 0, 0, 0, true },
	};
	static const uint64_t rfs[] = {
		0, F_ID, F_ID | F_LOST, F_TTE | F_TTR | F_ID | F_LOST,
		F_GROUP | F_ID, F_GROUP | F_TTE | F_TTR | F_ID | F_LOST,
	};
	struct tattr a = { 2, SWITCH_ID, T_IDENTIFIER | T_IP | T_TID | T_TIME |
			   T_ADDR | T_READ | T_CALLCHAIN | T_ID | T_STREAM_ID |
			   T_CPU | T_PERIOD | T_RAW, 0, true, { 5, 6 }, 2, 0 };
	struct trec recs[4];
	unsigned int i, k;
	char name[64];

	for (k = 0; k < sizeof(rfs) / sizeof(rfs[0]); k++) {
		struct tfile f = { &a, 1, recs, 4, false, k & 1 };
		struct lt_perf_record rec;
		struct lt_perf_options o = { 0 };
		struct lt_error err;
		struct lt_perf *p;
		struct tlayout L;
		struct pb b;
		int fd;

		a.read_format = rfs[k];
		a.size = k == 2 ? 64 : 0;	/* the first attr layout too */
		for (i = 0; i < 4; i++) {
			recs[i] = (struct trec){ R_SAMPLE, 0, 10 + i, i % 2,
						 100 + i, 200 + i, 0, 1 + i, 2 + i };
			recs[i].chain = chains[i];
			recs[i].nr_chain = lens[i];
		}
		tb_build(&f, &b, &L);
		seed(&b, "layout");
		snprintf(name, sizeof(name), "layout, read_format 0x%llx",
			 (unsigned long long)rfs[k]);
		lt_test_case = name;
		fd = memfd_create("layout", 0);
		if (fd < 0 || write(fd, b.p, b.len) != (ssize_t)b.len)
			abort();
		if (lt_perf_open_fd(&p, fd, "layout", &o, &err)) {
			fprintf(stderr, "%s: %s\n", name, err.msg);
			lt_test_failures++;
			close(fd);
			free(b.p);
			continue;
		}
		for (i = 0; i < 4; i++) {
			if (lt_perf_next(p, &rec, &err) != 1) {
				fprintf(stderr, "%s: %s\n", name, err.msg);
				lt_test_failures++;
				break;
			}
			CHECK_U64(rec.ts, 10 + i);
			CHECK_U64(rec.cpu, i % 2);
			CHECK(rec.pid == 100 + (int)i && rec.tid == 200 + (int)i);
			CHECK_U64(rec.sample.ip, 0xffffffff81000000ULL + i);
			CHECK_U64(rec.sample.addr, 0xadd);
			CHECK_U64(rec.sample.period, 1);
			CHECK_U64(rec.sample.id, 5 + i % 2);
			CHECK_U64(field(p, &rec.sample.raw, "prev_pid"), 1 + i);
			CHECK_U64(field(p, &rec.sample.raw, "next_pid"), 2 + i);
			CHECK_U64(rec.sample.raw.id, SWITCH_ID);
			CHECK_U64(rec.sample.nr_kernel_frames, want[i].nk);
			CHECK_U64(rec.sample.nr_user_frames, want[i].nu);
			CHECK_U64(rec.sample.nr_other_frames, want[i].other);
			CHECK(rec.sample.bad_callchain == want[i].bad);
			if (want[i].nk)
				CHECK_U64(rec.sample.kernel_frames[0], want[i].k0);
			if (want[i].nu)
				CHECK_U64(rec.sample.user_frames[0], want[i].u0);
		}
		CHECK(lt_perf_next(p, &rec, &err) == 0);
		CHECK_U64(lt_perf_stats(p)->bad_callchains, 1);
		lt_perf_close(p);
		close(fd);
		free(b.p);
	}
}

/* ---- perf record --all-cgroups ------------------------------------------- */

/*
 * A CGROUP record names an id; each sample carries its task's id after
 * RAW (and after WEIGHT when there is one).
 */
static void test_cgroups(void)
{
	static const uint64_t types[] = {
		T_DEFAULT | T_CGROUP, T_DEFAULT | T_WEIGHT | T_CGROUP,
		T_DEFAULT,
	};
	struct tattr a = { 2, SWITCH_ID, 0, 0, true, { 10 }, 1, 0 };
	struct trec recs[3] = {
		{ R_CGROUP, 0, 5, 0, -1, -1, -1, 0, 0, "/lt-perf-a" },
		{ R_SAMPLE, 0, 10, 0, 42, 42, 0, 42, 7 },
		{ R_SAMPLE, 0, 11, 1, 7, 7, 1, 42, 1 },
	};
	struct tfile f = { &a, 1, recs, 3, false, false };
	struct tlayout L;
	struct run r;
	struct pb b;
	unsigned int k;
	bool has;

	recs[0].count = 215;
	recs[1].count = 215;
	recs[2].count = 1;
	for (k = 0; k < sizeof(types) / sizeof(types[0]); k++) {
		a.sample_type = types[k];
		has = types[k] & T_CGROUP;
		lt_test_case = k == 0 ? "cgroups" : k == 1 ? "cgroups after WEIGHT" :
			       "no cgroups";
		tb_build(&f, &b, &L);
		read_all(&b, false, 0, &r);
		CHECK_U64(r.n, 3);
		CHECK(r.n == 3 && r.g[0].kind == LT_PERF_CGROUP &&
		      r.g[0].count == 215 && !strcmp(r.g[0].str, "/lt-perf-a"));
		CHECK(r.n == 3 && r.g[1].kind == LT_PERF_SAMPLE &&
		      r.g[1].a == 42 && r.g[1].b == 7);
		CHECK_U64(r.n == 3 ? r.g[1].cgroup : 0, has ? 215 : 0);
		CHECK_U64(r.n == 3 ? r.g[2].cgroup : 0, has ? 1 : 0);
		CHECK_U64(r.stats.skipped, 0);
		CHECK_U64(r.stats.damaged, 0);
		free(r.g);
		free(b.p);
	}
}

/* ---- perf's tracing data through the trace.dat reader ---------------------- */

static void test_tracing_data(void)
{
	struct lt_error err;
	struct lt_trace *t;
	struct pb b = { 0 };
	char path[] = "/tmp/test-perf-XXXXXX";
	int fd;

	lt_test_case = "tracing data 0.6";
	tb_tracing_data(&b, "0.6");
	CHECK(lt_trace_from_tracing_data(&t, "x.data", b.p, b.len, 0x100,
					 &err) == 0);
	if (t) {
		CHECK(lt_trace_find_event(t, "sched", "sched_switch") != NULL);
		CHECK(lt_trace_event_by_id(t, WAKEUP_ID) != NULL);
		CHECK_STR(lt_trace_cmdline(t, 42), "worker");
		CHECK_U64(lt_trace_info(t)->cpus, 0);
		CHECK_U64(lt_trace_info(t)->kernel_long_size, 8);
		lt_trace_close(t);
	}
	/* bytes after the cmdlines (perf's padding) are not looked at */
	pb_zero(&b, 4);
	CHECK(lt_trace_from_tracing_data(&t, "x.data", b.p, b.len, 0, &err) == 0);
	lt_trace_close(t);

	/* cut inside: damage (the container gave the size), at its offset */
	lt_test_case = "tracing data cut";
	CHECK(lt_trace_from_tracing_data(&t, "x.data", b.p, b.len - 20, 0x100,
					 &err) == -1);
	CHECK_U64(err.code, LT_E_CORRUPT);
	CHECK(strstr(err.msg, "x.data: tracing data saved cmdlines at offset 0x") != NULL);
	free(b.p);

	lt_test_case = "tracing data 0.5, big-endian, from a file";
	memset(&b, 0, sizeof(b));
	b.be = true;
	pb_zero(&b, 13);
	tb_tracing_data(&b, "0.5");
	fd = mkstemp(path);
	CHECK(fd >= 0 && write(fd, b.p, b.len) == (ssize_t)b.len);
	CHECK(lt_trace_open_tracing_data(&t, path, 13, b.len - 13, &err) == 0);
	if (t) {
		CHECK_U64(lt_trace_info(t)->big_endian, 1);
		CHECK(lt_trace_cmdline(t, 42) == NULL);
		lt_trace_close(t);
	}
	CHECK(lt_trace_open_tracing_data(&t, path, 13, b.len, &err) == -1);
	CHECK_U64(err.code, LT_E_TRUNCATED);
	CHECK(lt_trace_open_tracing_data(&t, path, 14, b.len - 14, &err) == -1);
	CHECK_U64(err.code, LT_E_CORRUPT);
	CHECK(strstr(err.msg, "tracing data at offset 0xe: no tracing data magic") != NULL);
	close(fd);
	unlink(path);
	free(b.p);
}

/* ---- damage ------------------------------------------------------------------ */

enum where { W_HEAD, W_ATTRS, W_DATA, W_TABLE, W_TRACING, W_HOST, W_REC };

struct bad_case {
	const char *name;
	bool pipe, stream;
	enum where where;
	unsigned int rec;	/* W_REC: which record */
	long delta;
	int width;		/* bytes of @value; 0: cut the file there */
	uint64_t value;
	const char *bytes;	/* instead of @value */
	long delta2;		/* a second patch, when width2 */
	int width2;
	uint64_t value2;
	int code;		/* the first error's */
	const char *says;
	bool at_open;		/* the error comes from opening */
	int min_records;	/* at least this many are still handed out */
};

/*
 * Records of basic_recs: 5 = SW(100), 8 = WK(200) on CPU 1, 9 = COMM(250),
 * 12 = SW(600) with a callchain, 18 = a SWITCH record (skipped), 24 =
 * LOST_SAMPLES, the last.  A sample of event 0 holds IDENTIFIER, IP, TID,
 * TIME, CPU, PERIOD (48 bytes after the header), then the callchain's
 * length, its frames, RAW's size and data.
 */
#define BAD(name, pipe, stream, where, rec, delta, width, value, code, says) \
	{ name, pipe, stream, where, rec, delta, width, value, NULL, 0, 0, 0, \
	  code, says, true, 0 }
#define BAD_BYTES(name, pipe, where, delta, bytes, code, says) \
	{ name, pipe, false, where, 0, delta, 0, 0, bytes, 0, 0, 0, \
	  code, says, true, 0 }
#define BAD_REC(name, pipe, stream, rec, delta, width, value, code, says, min) \
	{ name, pipe, stream, W_REC, rec, delta, width, value, NULL, 0, 0, 0, \
	  code, says, false, min }

static const struct bad_case bad_cases[] = {
	BAD_BYTES("not perf", 0, W_HEAD, 0, "PERFILE3", LT_E_NOT_TRACE,
		  "no perf.data magic"),
	BAD_BYTES("perf.data v1", 0, W_HEAD, 0, "PERFFILE", LT_E_VERSION,
		  "version 1"),
	BAD("cut in the header", 0, 0, W_HEAD, 0, 12, 0, 0, LT_E_TRUNCATED,
	    "ends inside its header"),
	BAD("cut in the pipe header", 1, 1, W_HEAD, 0, 12, 0, 0,
	    LT_E_TRUNCATED, "ends inside its header"),
	BAD("header size", 0, 0, W_HEAD, 0, 8, 8, 99, LT_E_CORRUPT,
	    "header size 99"),
	BAD("attr size 0", 0, 0, W_HEAD, 0, 16, 8, 0, LT_E_CORRUPT,
	    "attr size 0"),
	BAD("attrs past the end", 0, 0, W_HEAD, 0, 24, 8, 1 << 30,
	    LT_E_TRUNCATED, "attrs section at offset 0x40000000"),
	BAD("attrs not whole", 0, 0, W_HEAD, 0, 32, 8, 150, LT_E_CORRUPT,
	    "not a whole number"),
	BAD("data size 0", 0, 0, W_HEAD, 0, 48, 8, 0, LT_E_TRUNCATED,
	    "did not finish"),
	BAD("data past the end", 0, 0, W_HEAD, 0, 48, 8, 1 << 30,
	    LT_E_TRUNCATED, "data section"),
	BAD("data in the header", 0, 0, W_HEAD, 0, 40, 8, 50, LT_E_CORRUPT,
	    "inside the header"),
	BAD("attr's own size", 0, 0, W_ATTRS, 0, 4, 4, 500, LT_E_CORRUPT,
	    "attr 0: size 500"),
	BAD("ids past the end", 0, 0, W_ATTRS, 0, 128, 8, 1 << 30,
	    LT_E_TRUNCATED, "ids at offset"),
	BAD("ids not whole", 0, 0, W_ATTRS, 0, 136, 8, 13, LT_E_CORRUPT,
	    "ids of 13 bytes"),
	BAD("feature table cut", 0, 0, W_TABLE, 0, 8, 0, 0, LT_E_TRUNCATED,
	    "feature table"),
	BAD("feature past the end", 0, 0, W_TABLE, 0, 0, 8, 1 << 30,
	    LT_E_TRUNCATED, "TRACING_DATA feature"),
	BAD("host name length", 0, 0, W_HOST, 0, 0, 4, 999999, LT_E_CORRUPT,
	    "HOSTNAME feature at offset"),
	BAD("host name in a pipe", 1, 1, W_HOST, 0, 16, 4, 999999,
	    LT_E_CORRUPT, "HOSTNAME feature"),
	BAD_BYTES("tracing data magic", 0, W_TRACING, 3, "x", LT_E_CORRUPT,
		  "no tracing data magic"),
	BAD_BYTES("tracing data header_page", 1, W_TRACING, 30, "X",
		  LT_E_CORRUPT, "expected \"header_page\""),
	BAD("tracing data size", 1, 1, W_TRACING, 0, -8, 4, 1 << 26,
	    LT_E_TRUNCATED, "the stream ends"),
	BAD("attrs disagree on sample_id_all", 0, 0, W_ATTRS, 0, 144 + 42, 1,
	    0, LT_E_VERSION, "sample_id_all"),
	BAD("an attr without ids", 0, 0, W_ATTRS, 0, 144 + 24, 8,
	    T_IP | T_TIME | T_RAW, LT_E_VERSION, "non matching sample_type"),
	BAD("a file-mode file on a pipe", 0, 1, W_HEAD, 0, 0, 0, 0, LT_E_IO,
	    "cannot be read from a pipe"),

	/* records: the error when read; what can be read still comes */
	BAD_REC("record size 4", 0, 0, 5, 6, 2, 4, LT_E_CORRUPT,
		"size 4 (at least 8)", 4),
	BAD_REC("record size 4, pipe", 1, 1, 5, 6, 2, 4, LT_E_CORRUPT,
		"size 4 (at least 8)", 4),
	BAD_REC("record past the data", 0, 0, 24, 6, 2, 60000, LT_E_CORRUPT,
		"run past the data section's end", 17),
	BAD_REC("stream cut in a record", 1, 1, 10, 20, 0, 0, LT_E_TRUNCATED,
		"the stream ends", 4),
	BAD_REC("RAW past the sample", 0, 0, 5, 8 + 56, 4, 5000, LT_E_CORRUPT,
		"RAW data at byte", 17),
	BAD_REC("callchain past the sample", 0, 0, 12, 8 + 48, 8, 1 << 20,
		LT_E_CORRUPT, "CALLCHAIN at byte", 17),
	BAD_REC("CPU 5000", 1, 0, 8, 8 + 32, 4, 5000, LT_E_CORRUPT,
		"CPU 5000", 17),
	BAD_REC("unknown event id", 1, 1, 5, 8, 8, 12345, LT_E_CORRUPT,
		"event id", 17),
	BAD_REC("not zstd in a COMPRESSED record", 0, 0, 18, 0, 4, 81,
		LT_E_CORRUPT, "COMPRESSED record at offset 0x", 15),
	{ "AUX data past the end", 0, 0, W_REC, 18, 0, 4, 71, NULL, 8, 8,
	  1 << 20, LT_E_CORRUPT, "bytes of data run past", false, 15 },
	{ "AUX data skipped", 1, 1, W_REC, 18, 0, 4, 71, NULL, 8, 8, 0,
	  -1, "", false, 18 },
};

static size_t where(const struct tlayout *L, const struct bad_case *c)
{
	switch (c->where) {
	case W_HEAD: return 0;
	case W_ATTRS: return L->attrs;
	case W_DATA: return L->data;
	case W_TABLE: return L->table;
	case W_TRACING: return L->tracing_data;
	case W_HOST: return L->hostname;
	case W_REC: return L->rec[c->rec];
	}
	return 0;
}

static void test_damage(void)
{
	unsigned int i;

	for (i = 0; i < sizeof(bad_cases) / sizeof(bad_cases[0]); i++) {
		const struct bad_case *c = &bad_cases[i];
		struct tfile f = basic_file(c->pipe, false);
		struct tlayout L;
		struct run r;
		struct pb b;
		size_t at;

		tb_build(&f, &b, &L);
		at = where(&L, c) + c->delta;
		if (c->bytes)
			memcpy(b.p + at, c->bytes, strlen(c->bytes));
		else if (c->width)
			pb_at(&b, at, c->value, c->width);
		else if (c->where != W_HEAD || c->delta)
			b.len = at;
		if (c->width2)
			pb_at(&b, where(&L, c) + c->delta2, c->value2, c->width2);
		seed(&b, "damage");
		read_all(&b, c->stream, 0, &r);
		lt_test_case = c->name;
		CHECK_U64(r.first_err, c->code);
		if (c->code < 0) {
			CHECK((int)r.n >= c->min_records);
			free(r.g);
			free(b.p);
			continue;
		}
		CHECK(strstr(r.msg, "test.data: ") == r.msg);
		if (!strstr(r.msg, c->says)) {
			fprintf(stderr, "%s: \"%s\" does not say \"%s\"\n",
				c->name, r.msg, c->says);
			lt_test_failures++;
		}
		CHECK(!strchr(r.msg, '\n'));
		CHECK((r.open_ret != 0) == c->at_open);
		if (!c->at_open)
			CHECK((int)r.n >= c->min_records);
		free(r.g);
		free(b.p);
	}
}

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "--write-seeds"))
		seed_dir = argv[2];
	/* a reader that stops early leaves the feeding thread a broken pipe */
	signal(SIGPIPE, SIG_IGN);
	test_basic();
	test_layouts();
	test_cgroups();
	test_tracing_data();
	test_damage();
	test_decode();
	test_backwards();
	test_random();
	test_chunks();
	return lt_test_done("perf/reader");
}
