// SPDX-License-Identifier: GPL-2.0
/*
 * test-pipe.c - the pipe's choice of threads when the user left it open
 * (one on a small trace, one per core on a large one), and a stream of
 * events made on one thread and replayed on another (lt_pipe_stream()):
 * every event in order with its strings and stack, progress after the
 * events it follows, and either side's failure stopping both.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lt-pipe.h"
#include "lt-test.h"

static void test_auto_threads(void)
{
	const uint64_t min = 80000ULL * 56;	/* bytes of ~80,000 events */

	lt_test_case = "auto threads";
	CHECK_U64(lt_pipe_auto_threads(0, false, 2), 1);
	CHECK_U64(lt_pipe_auto_threads(min - 1, false, 2), 1);
	CHECK_U64(lt_pipe_auto_threads(min, false, 2), 2);
	CHECK_U64(lt_pipe_auto_threads(min, false, 8), 8);
	/* compressed, 3.5 bytes an event: len1x-zstd's 1.54 MB are 0.5 M */
	CHECK_U64(lt_pipe_auto_threads(80000ULL * 35 / 10 - 1, true, 2), 1);
	CHECK_U64(lt_pipe_auto_threads(80000ULL * 35 / 10, true, 2), 2);
	CHECK_U64(lt_pipe_auto_threads(1544715, true, 2), 2);
	/* 169,238 events in 543,607 bytes of zstd data, guessed 155,316 */
	CHECK_U64(lt_pipe_auto_threads(543607, true, 2), 2);
	/* kernel-patched-6.1.dat: 35,130 events, stacks, guessed 68,872 */
	CHECK_U64(lt_pipe_auto_threads(241052, true, 2), 1);
	/* 87,886 scheduler events in 307,161 bytes, guessed 87,760 */
	CHECK_U64(lt_pipe_auto_threads(307161, true, 2), 2);
	CHECK_U64(lt_pipe_auto_threads(UINT64_MAX, true, 4), 4);
	/* one core: one thread, however large */
	CHECK_U64(lt_pipe_auto_threads(UINT64_MAX, false, 1), 1);
	/* by events: perf.data's guess */
	CHECK_U64(lt_pipe_auto_threads_for(79999, 2), 1);
	CHECK_U64(lt_pipe_auto_threads_for(80000, 2), 2);
	CHECK_U64(lt_pipe_auto_threads_for(UINT64_MAX, 1), 1);
}

/* ---- a stream ---------------------------------------------------------- */

#define STREAM_N	100000	/* events: the ring's 8,192 twelve times over */

struct maker {
	unsigned int n;		/* events to make */
	unsigned int fail_at;	/* fail there (reading damage), or UINT_MAX */
	unsigned int made;	/* events put */
	int put_failed;		/* lt_pipe_put() said stop */
	uint64_t frames[300];
};

struct taker {
	unsigned int seen;	/* events replayed, all as made */
	unsigned int stop_at;	/* fail there (the replay's error), or ~0 */
	unsigned int bad;	/* events not as made */
	uint64_t last_done;	/* progress said */
	unsigned int progress_bad;	/* progress before its events */
};

/* Event @i: its time, pids, a name of its own, every 7th a stack. */
static void make_event(struct maker *m, unsigned int i, struct lt_ev *ev,
		       char *name, size_t len)
{
	unsigned int k, nr = i % 7 ? 0 : 1 + i % 300;

	memset(ev, 0, sizeof(*ev));
	ev->ts = 1000 + i;
	ev->pid = (int)i;
	ev->cpu = (int16_t)(i % 4);
	ev->kind = nr ? LT_EV_STACK : LT_EV_SWITCH;
	snprintf(name, len, "task-%u%s", i, i % 3 ? "" : "-with-a-longer-name");
	ev->str = name;
	ev->str_len = (uint16_t)strlen(name);
	/* no bytes, but pointing somewhere: arrives pointing somewhere */
	ev->str2 = i % 2 ? name : NULL;
	ev->str2_len = 0;
	for (k = 0; k < nr; k++)
		m->frames[k] = ((uint64_t)i << 16) + k;
	ev->frames = nr ? m->frames : NULL;
	ev->nr_frames = (uint16_t)nr;
}

static int make(void *ctx, struct lt_pipe_out *out, struct lt_error *err)
{
	struct maker *m = ctx;
	struct lt_ev ev;
	char name[64];
	unsigned int i;

	for (i = 0; i < m->n; i++) {
		if (i == m->fail_at) {
			lt_error_set(err, LT_E_CORRUPT, "damage at %u", i);
			return -1;
		}
		make_event(m, i, &ev, name, sizeof(name));
		if (lt_pipe_put(out, &ev) < 0) {
			m->put_failed = 1;
			return -1;
		}
		/* the caller's copies stand: scribble on these */
		memset(name, 'x', sizeof(name));
		memset(m->frames, 0xff, sizeof(m->frames));
		m->made++;
		if (!(i % 1000))
			lt_pipe_progress(out, i + 1, m->n);
	}
	return 0;
}

static int take(void *ctx, const struct lt_ev *ev)
{
	struct taker *t = ctx;
	unsigned int i = t->seen, k, nr = i % 7 ? 0 : 1 + i % 300;
	char name[64];

	if (i == t->stop_at)
		return -1;
	snprintf(name, sizeof(name), "task-%u%s", i,
		 i % 3 ? "" : "-with-a-longer-name");
	if (ev->ts != 1000 + i || ev->pid != (int)i || ev->cpu != (int)(i % 4) ||
	    ev->str_len != strlen(name) || memcmp(ev->str, name, ev->str_len) ||
	    (i % 2 ? !ev->str2 : ev->str2 != NULL) || ev->nr_frames != nr ||
	    ev->kind != (nr ? LT_EV_STACK : LT_EV_SWITCH))
		t->bad++;
	for (k = 0; k < ev->nr_frames && k < nr; k++)
		if (ev->frames[k] != ((uint64_t)i << 16) + k)
			t->bad++;
	t->seen++;
	return 0;
}

static void said(void *ctx, uint64_t done, uint64_t total)
{
	struct taker *t = ctx;

	/* said after the events made before it, never before */
	if (done > t->seen || total != STREAM_N || done < t->last_done)
		t->progress_bad++;
	t->last_done = done;
}

static void test_stream(unsigned int threads)
{
	struct maker m = { STREAM_N, UINT32_MAX, 0, 0, { 0 } };
	struct taker t = { 0, UINT32_MAX, 0, 0, 0 };
	struct lt_error err = { 0 };
	int ret;

	lt_test_case = threads > 1 ? "stream, 2 threads" : "stream, 1 thread";
	ret = lt_pipe_stream(make, &m, threads, take, said, &t, &err);
	CHECK_U64(ret, 0);
	CHECK_U64(t.seen, STREAM_N);
	CHECK_U64(t.bad, 0);
	CHECK_U64(t.progress_bad, 0);
	CHECK_U64(t.last_done, STREAM_N - 1000 + 1);

	/* the replay fails: the reader stops, @err is left as it was */
	lt_test_case = threads > 1 ? "replay stops, 2 threads" :
				     "replay stops, 1 thread";
	memset(&m, 0, sizeof(m));
	m.n = STREAM_N;
	m.fail_at = UINT32_MAX;
	memset(&t, 0, sizeof(t));
	t.stop_at = 40000;
	err.code = LT_E_OK;
	ret = lt_pipe_stream(make, &m, threads, take, NULL, &t, &err);
	CHECK_U64((uint64_t)(int64_t)ret, (uint64_t)-1);
	CHECK_U64(t.seen, 40000);
	CHECK_U64(t.bad, 0);
	CHECK_U64(m.put_failed, 1);
	CHECK(m.made < STREAM_N);
	CHECK_U64(err.code, LT_E_OK);

	/* the reading fails: every event before it, then its error */
	lt_test_case = threads > 1 ? "reading fails, 2 threads" :
				     "reading fails, 1 thread";
	memset(&m, 0, sizeof(m));
	m.n = STREAM_N;
	m.fail_at = 77777;
	memset(&t, 0, sizeof(t));
	t.stop_at = UINT32_MAX;
	ret = lt_pipe_stream(make, &m, threads, take, NULL, &t, &err);
	CHECK_U64((uint64_t)(int64_t)ret, (uint64_t)-1);
	CHECK_U64(t.seen, 77777);
	CHECK_U64(t.bad, 0);
	CHECK_U64(err.code, LT_E_CORRUPT);
	CHECK_STR(err.msg, "damage at 77777");

	/* nothing at all */
	lt_test_case = threads > 1 ? "empty, 2 threads" : "empty, 1 thread";
	memset(&m, 0, sizeof(m));
	m.fail_at = UINT32_MAX;
	memset(&t, 0, sizeof(t));
	t.stop_at = UINT32_MAX;
	ret = lt_pipe_stream(make, &m, threads, take, NULL, &t, &err);
	CHECK_U64(ret, 0);
	CHECK_U64(t.seen, 0);
}

int main(void)
{
	test_auto_threads();
	test_stream(1);
	test_stream(2);
	/* batches of 3 events: the ring goes round 4,000 times */
	setenv("LT_STREAM_EVENTS", "3", 1);
	test_stream(2);
	return lt_test_done("input/pipe");
}
