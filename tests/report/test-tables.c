// SPDX-License-Identifier: GPL-2.0
/*
 * test-tables.c - folding replay rows into the report's tables: threads
 * into processes, kernel threads out of the global table, percentages,
 * sort orders, windows, drill-down stacks, text columns.
 */
#include <inttypes.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lt-report.h"
#include "lt-test.h"

#define US 1000ULL
#define EV(k, t, p, ...) { .kind = LT_EV_##k, .ts = (t) * US, .pid = (p), __VA_ARGS__ }
#define S(x) .str = x, .str_len = sizeof(x) - 1

static const uint64_t stack_a[] = { 0x10, 0x20 };

/*
 * Process 100 (threads 100, 101): fsync 3 ms + 1 ms (thread 101),
 * pipe 2 ms; kworker 900: 8 ms blocked.  All ends before 1 s except the
 * pipe wait (ends at 1.5 s).
 */
static const struct lt_ev script[] = {
	EV(FORK, 0, 1, .pid2 = 100, S("db")),
	EV(NEWTASK, 1, 100, .pid2 = 101, .value = LT_CLONE_THREAD, S("db")),
	EV(FORK, 1, 100, .pid2 = 101, S("db")),
	EV(REASON_SET, 10, 100, S("fsync"), .str2 = "", .cookie = 1),
	EV(SWITCH, 20, 100, .state = LT_STATE_BLOCKED, .pid2 = 0),
	EV(STACK, 20, 100, .frames = stack_a, .nr_frames = 2),
	EV(WAKEUP, 3020, 100),
	EV(SWITCH, 3020, 0, .state = LT_STATE_RUNNABLE, .pid2 = 100),
	EV(REASON_RESTORE, 3030, 100, S("fsync"), .cookie = 1),
	EV(REASON_SET, 100, 101, S("fsync"), .str2 = "", .cookie = 7),
	EV(SWITCH, 100, 101, .cpu = 1, .state = LT_STATE_BLOCKED, .pid2 = 0),
	EV(WAKEUP, 1100, 101),
	EV(SWITCH, 1100, 0, .cpu = 1, .state = LT_STATE_RUNNABLE, .pid2 = 101),
	EV(REASON_RESTORE, 1110, 101, S("fsync"), .cookie = 7),
	EV(SWITCH, 200, 900, .cpu = 1, .state = LT_STATE_BLOCKED, .pid2 = 0,
	   S("kworker/1:0")),
	EV(WAKEUP, 8200, 900),
	EV(SWITCH, 8200, 0, .cpu = 1, .state = LT_STATE_RUNNABLE, .pid2 = 900),
	EV(REASON_SET, 1498000, 100, S("pipe"), .str2 = "", .cookie = 2),
	EV(SWITCH, 1498000, 100, .state = LT_STATE_SLEEP, .pid2 = 0),
	EV(WAKEUP, 1500000, 100),
	EV(SWITCH, 1500000, 0, .state = LT_STATE_RUNNABLE, .pid2 = 100),
	EV(REASON_RESTORE, 1500010, 100, S("pipe"), .cookie = 2),
};

#define NR_EV (sizeof(script) / sizeof(script[0]))

static const char *sym(void *ctx, uint64_t addr)
{
	return addr == 0x10 ? "inner_fn" : "outer_fn";
}

/* User frames as an input names them: here 0x1000 "main", else "lib_fn". */
static const char *user_sym(void *ctx, uint64_t frame)
{
	return frame == 0x1000 ? "main" : "lib_fn";
}

/* build_from()'s namer of user frames: none but in test_user_frames() */
static lt_symbol_fn test_user_sym;

/* The report of @nr events, as the replay (with @resolve) leaves it. */
static struct lt_report *build_from(const struct lt_ev *ev, size_t nr,
				    lt_stack_resolver resolve,
				    const struct lt_options *o)
{
	struct lt_replay_opts ro = { 0 };
	struct lt_report_priv *priv = calloc(1, sizeof(*priv));
	const struct lt_ev **order = calloc(nr, sizeof(*order));
	struct lt_error err = { 0 };
	size_t i, j;

	ro.sleep_cutoff_ns = o->sleep_cutoff_ns;
	ro.honour_maxtime = o->honour_maxtime;
	ro.window_ns = o->window_ns;
	ro.from_ns = o->from_ns;
	ro.to_ns = o->to_ns;
	ro.resolve = resolve;
	if (!priv || !order)
		abort();
	CHECK(lt_replay_init(&priv->replay, &ro) == 0);
	priv->have_replay = true;
	/* the script lists each task's story in turn: replay it in time order */
	for (i = 0; i < nr; i++)
		order[i] = &ev[i];
	for (i = 1; i < nr; i++)
		for (j = i; j > 0 && order[j - 1]->ts > order[j]->ts; j--) {
			const struct lt_ev *t = order[j];

			order[j] = order[j - 1];
			order[j - 1] = t;
		}
	for (i = 0; i < nr; i++)
		CHECK(lt_replay_feed(&priv->replay, order[i]) == 0);
	free(order);
	CHECK_U64(priv->replay.stats.unordered, 0);
	CHECK(lt_replay_finish(&priv->replay) == 0);
	priv->pub.options = *o;
	priv->pub.start_ns = priv->replay.stats.first_ts;
	priv->pub.end_ns = priv->replay.stats.last_ts;
	priv->pub.whole.start_ns = priv->replay.origin_ns;
	priv->pub.whole.end_ns = priv->replay.stats.last_ts;
	if (lt_report_build(priv, sym, test_user_sym, NULL, &err) < 0) {
		fprintf(stderr, "build: %s\n", err.msg);
		lt_test_failures++;
	}
	return &priv->pub;
}

static struct lt_report *build(const struct lt_options *o)
{
	return build_from(script, NR_EV, NULL, o);
}

static const struct lt_report_row *row(const struct lt_report_row *rows,
				       size_t nr, const char *reason)
{
	size_t i;

	for (i = 0; i < nr; i++)
		if (!strcmp(rows[i].reason, reason))
			return &rows[i];
	return NULL;
}

static const struct lt_report_process *proc(const struct lt_report_view *v,
					    int pid)
{
	size_t i;

	for (i = 0; i < v->nr_processes; i++)
		if (v->processes[i].pid == pid)
			return &v->processes[i];
	return NULL;
}

static void test_tables(void)
{
	const struct lt_report_process *db, *kw;
	const struct lt_report_row *r;
	struct lt_options o;
	struct lt_report *rep;
	double pct = 0;
	size_t i;

	lt_test_case = "tables";
	lt_options_init(&o);
	rep = build(&o);
	/* global: fsync 2 waits (4 ms), pipe 1 (2 ms), no kworker */
	CHECK_U64(rep->whole.nr_global, 3);
	r = row(rep->whole.global, rep->whole.nr_global, "fsync");
	CHECK(r != NULL);
	if (r) {
		CHECK_U64(r->count, 2);
		CHECK_U64(r->total_ns, 4000 * US);
		CHECK_U64(r->max_ns, 3000 * US);
		CHECK_U64(r->max_at_ns, 3020 * US);
		CHECK_U64(r->max_tid, 100);
		CHECK_U64(r->avg_ns, 2000 * US);
		CHECK_U64(r->nr_worst, 2);
		CHECK_U64(r->worst[0].dur_ns, 3000 * US);
		CHECK_U64(r->worst[1].tid, 101);
		CHECK(r->kind == LT_CAUSE_ANNOTATED);
		/* one wait had a stack, one had none */
		CHECK_U64(r->nr_stacks, 2);
		CHECK_U64(r->stacks[0].total_ns, 3000 * US);
		CHECK_U64(r->stacks[0].nr_frames, 2);
		if (r->stacks[0].nr_frames == 2) {
			CHECK_STR(r->stacks[0].frames[0], "inner_fn");
			CHECK_STR(r->stacks[0].frames[1], "outer_fn");
		}
	}
	CHECK(row(rep->whole.global, rep->whole.nr_global, "Unknown reason") == NULL);
	for (i = 0; i < rep->whole.nr_global; i++)
		pct += rep->whole.global[i].percent;
	CHECK(pct > 99.99 && pct < 100.01);
	/* sorted by maximum: fsync (3 ms) before pipe (2 ms) */
	CHECK_STR(rep->whole.global[0].reason, "fsync");
	CHECK_U64(rep->whole.coverage.ns[LT_CAUSE_ANNOTATED], 6000 * US);

	db = proc(&rep->whole, 100);
	kw = proc(&rep->whole, 900);
	CHECK(db && kw);
	if (db) {
		CHECK_STR(db->comm, "db");
		CHECK(!db->kernel_thread);
		CHECK_U64(db->nr_threads, 2);
		/* process total: 6 ms blocked, run-queue waits are 0 here */
		CHECK_U64(db->total_ns, 6000 * US);
		r = row(db->rows, db->nr_rows, "fsync");
		CHECK(r && r->count == 2);
		/* threads by total: 100 (5 ms) then 101 (1 ms) */
		CHECK_U64(db->threads[0].tid, 100);
		CHECK_U64(db->threads[0].total_ns, 5000 * US);
		CHECK_U64(db->threads[1].tid, 101);
	}
	if (kw) {
		CHECK(kw->kernel_thread);
		CHECK_U64(kw->total_ns, 8000 * US);
	}
	/* the kworker waited longest, but user processes come first */
	CHECK_U64(rep->whole.processes[0].pid, 100);
	CHECK_U64(rep->whole.processes[rep->whole.nr_processes - 1].pid, 900);
	lt_report_free(rep);

	lt_test_case = "kernel threads in global, sort by count";
	lt_options_init(&o);
	o.kernel_threads = true;
	o.sort = LT_SORT_COUNT;
	rep = build(&o);
	CHECK(row(rep->whole.global, rep->whole.nr_global, "Unknown reason") != NULL);
	CHECK_STR(rep->whole.global[0].reason, "Scheduler: waiting for cpu");
	lt_report_free(rep);
}

struct sorter {
	struct lt_report *rep;
	enum lt_sort sort;
};

static void *sort_often(void *arg)
{
	struct sorter *s = arg;
	int i;

	for (i = 0; i < 2000; i++)
		lt_report_sort(s->rep, s->sort);
	return NULL;
}

/*
 * Two reports sorted by two keys at once, as two threads of a program
 * using the library may: neither sort may see the other's key (the
 * ThreadSanitizer run of this test catches a shared one at once).
 */
static void test_sort_threads(void)
{
	struct sorter s[2];
	struct lt_options o;
	pthread_t t[2];
	int i;

	lt_test_case = "two threads sort at once";
	lt_options_init(&o);
	s[0].rep = build(&o);
	s[0].sort = LT_SORT_MAX;
	s[1].rep = build(&o);
	s[1].sort = LT_SORT_COUNT;
	for (i = 0; i < 2; i++)
		CHECK(pthread_create(&t[i], NULL, sort_often, &s[i]) == 0);
	for (i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
	/* by maximum: fsync (3 ms); by count: the 3 waits for a CPU */
	CHECK_STR(s[0].rep->whole.global[0].reason, "fsync");
	CHECK_STR(s[1].rep->whole.global[0].reason,
		  "Scheduler: waiting for cpu");
	CHECK_U64(s[1].rep->whole.global[0].count, 3);
	for (i = 0; i < 2; i++)
		lt_report_free(s[i].rep);
}

static void test_windows(void)
{
	struct lt_options o;
	struct lt_report *rep;

	lt_test_case = "windows";
	lt_options_init(&o);
	o.window_ns = 1000000 * US;
	rep = build(&o);
	CHECK_U64(rep->nr_windows, 2);
	if (rep->nr_windows == 2) {
		CHECK(row(rep->windows[0].global, rep->windows[0].nr_global, "fsync"));
		CHECK(!row(rep->windows[0].global, rep->windows[0].nr_global, "pipe"));
		CHECK(row(rep->windows[1].global, rep->windows[1].nr_global, "pipe"));
		CHECK_U64(rep->windows[1].start_ns, 1000000 * US);
		CHECK_U64(rep->windows[1].end_ns, 1500010 * US);
	}
	/* the whole view still holds everything */
	CHECK_U64(rep->whole.nr_global, 3);
	lt_report_free(rep);

	/* a window longer than time itself ends with the trace, not wrapped */
	lt_test_case = "window past 2^64 ns";
	lt_options_init(&o);
	o.window_ns = UINT64_MAX - 1000;
	o.from_ns = 100 * US;	/* a start past 1000 ns: start + window wraps */
	rep = build(&o);
	CHECK_U64(rep->nr_windows, 1);
	if (rep->nr_windows == 1) {
		CHECK_U64(rep->windows[0].start_ns, rep->whole.start_ns);
		CHECK_U64(rep->windows[0].end_ns, rep->whole.end_ns);
	}
	lt_report_free(rep);
}

/*
 * The line of @text that starts with @start (after any indent), copied into
 * @line; its length, or 0 when there is none.
 */
static size_t find_line(const char *text, const char *start, char *line,
			size_t size)
{
	const char *p = text, *end;

	while (*p) {
		end = strchr(p, '\n');
		if (!end)
			end = p + strlen(p);
		if (!strncmp(p + strspn(p, " "), start, strlen(start)) &&
		    (size_t)(end - p) < size) {
			memcpy(line, p, end - p);
			line[end - p] = '\0';
			return end - p;
		}
		p = *end ? end + 1 : end;
	}
	return 0;
}

/* A table's columns stay under their heads whatever the counts. */
/*
 * @rep written as @format into memory (free() it), with the trace fields
 * lt_analyze() would take from the file; NULL on failure, checked.
 */
static char *written(struct lt_report *rep, enum lt_format format)
{
	struct lt_error err = { 0 };
	char *text = NULL;
	size_t len = 0;
	FILE *out;

	rep->path = "test.dat";
	rep->compression = "none";
	rep->uname = rep->clock = "";
	out = open_memstream(&text, &len);
	CHECK(out != NULL);
	if (!out)
		return NULL;
	CHECK(lt_report_write(rep, format, out, &err) == 0);
	fclose(out);
	return text;
}

static void test_text_columns(void)
{
	char head[256] = "", fsync[256] = "", pipe[256] = "";
	const char *h, *c;
	struct lt_options o;
	struct lt_report *rep;
	struct lt_report_row *r;
	char *text;

	lt_test_case = "text columns";
	lt_options_init(&o);
	rep = build(&o);
	/* more waits than seven digits hold, as a long trace has */
	r = (struct lt_report_row *)row(rep->whole.global, rep->whole.nr_global,
					"fsync");
	CHECK(r != NULL);
	if (!r) {
		lt_report_free(rep);
		return;
	}
	r->count = 123456789;
	text = written(rep, LT_FORMAT_TEXT);
	if (!text) {
		lt_report_free(rep);
		return;
	}
	CHECK(find_line(text, "Cause", head, sizeof(head)) > 0);
	CHECK(find_line(text, "fsync", fsync, sizeof(fsync)) > 0);
	CHECK(find_line(text, "pipe", pipe, sizeof(pipe)) > 0);
	CHECK(strstr(fsync, " 123456789 ") != NULL);
	/* every field right-aligned to its head: the lines end together */
	CHECK_U64(strlen(fsync), strlen(head));
	CHECK_U64(strlen(pipe), strlen(head));
	/* "Count" ends where the count does */
	h = strstr(head, "Count");
	c = strstr(fsync, "123456789");
	CHECK(h && c);
	if (h && c)
		CHECK_U64(h + 5 - head, c + 9 - fsync);
	free(text);
	lt_report_free(rep);
}

/*
 * The header's counts from a damaged file: overruns past 64 bits between
 * them (each shown, no sum to overflow), time that went backwards.
 */
static void test_text_damage_counts(void)
{
	static const int64_t huge[2] = { INT64_MAX, INT64_MAX };
	struct lt_options o;
	struct lt_report *rep;
	char *text;

	lt_test_case = "text damage counts";
	lt_options_init(&o);
	rep = build(&o);
	rep->cpus = 2;
	rep->overrun_per_cpu = huge;
	rep->unordered = 670;
	text = written(rep, LT_FORMAT_TEXT);
	rep->overrun_per_cpu = NULL;	/* not the report's to free */
	if (!text) {
		lt_report_free(rep);
		return;
	}
	CHECK(strstr(text, "ring-buffer overruns CPU 0: 9223372036854775807") != NULL);
	CHECK(strstr(text, "CPU 1: 9223372036854775807") != NULL);
	CHECK(strstr(text, "\nTime:     670 events earlier than the event before them") != NULL);
	free(text);
	lt_report_free(rep);
}

/*
 * JSON is UTF-8: a name's bytes that are no UTF-8 character (a surrogate,
 * an overlong form, a stray byte) are escaped one by one, the rest kept.
 */
static void test_json_utf8(void)
{
	struct lt_options o;
	struct lt_report *rep;
	char *text;

	lt_test_case = "json utf-8";
	lt_options_init(&o);
	rep = build(&o);
	CHECK(rep->whole.nr_processes > 0);
	if (!rep->whole.nr_processes) {
		lt_report_free(rep);
		return;
	}
	rep->whole.processes[0].comm = "caf\xc3\xa9\xed\xa0\x80|\xe0\x80\x80|\xf4\x90\x80\x80|\xff";
	text = written(rep, LT_FORMAT_JSON);
	if (!text) {
		lt_report_free(rep);
		return;
	}
	CHECK(strstr(text, "\"caf\xc3\xa9\\u00ed\\u00a0\\u0080|\\u00e0\\u0080\\u0080|"
			   "\\u00f4\\u0090\\u0080\\u0080|\\u00ff\"") != NULL);
	free(text);
	lt_report_free(rep);
}

/* Stacks 0x1.. and 0x2.. both explain as "pipe_wait". */
static int same_cause(void *ctx, const uint64_t *frames, unsigned int nr,
		      struct lt_stack_info *out)
{
	out->kind = LT_CAUSE_FUNCTION;
	out->cause = "[pipe_wait]";
	out->kernel_thread = false;
	return 0;
}

/*
 * Of equal waits, the report names the earliest, whichever row holds it:
 * here the second stack's, charged after the first stack's row began.
 */
static void test_equal_waits(void)
{
	static const uint64_t s1[] = { 0x1 }, s2[] = { 0x2 };
	static const struct lt_ev ev[] = {
		EV(FORK, 0, 1, .pid2 = 100, S("cat")),
		EV(SWITCH, 100, 100, .state = LT_STATE_BLOCKED, .pid2 = 0),
		EV(STACK, 100, 100, .frames = s1, .nr_frames = 1),
		EV(WAKEUP, 150, 100),
		EV(SWITCH, 150, 0, .state = LT_STATE_RUNNABLE, .pid2 = 100),
		EV(SWITCH, 300, 100, .state = LT_STATE_BLOCKED, .pid2 = 0),
		EV(STACK, 300, 100, .frames = s2, .nr_frames = 1),
		EV(WAKEUP, 400, 100),
		EV(SWITCH, 400, 0, .state = LT_STATE_RUNNABLE, .pid2 = 100),
		EV(SWITCH, 500, 100, .state = LT_STATE_BLOCKED, .pid2 = 0),
		EV(STACK, 500, 100, .frames = s1, .nr_frames = 1),
		EV(WAKEUP, 600, 100),
		EV(SWITCH, 600, 0, .state = LT_STATE_RUNNABLE, .pid2 = 100),
	};
	const struct lt_report_row *r;
	struct lt_report *rep;
	struct lt_options o;

	lt_test_case = "equal waits";
	lt_options_init(&o);
	rep = build_from(ev, sizeof(ev) / sizeof(ev[0]), same_cause, &o);
	r = row(rep->whole.global, rep->whole.nr_global, "[pipe_wait]");
	CHECK(r != NULL);
	if (r) {
		CHECK_U64(r->count, 3);
		CHECK_U64(r->total_ns, 250 * US);
		CHECK_U64(r->max_ns, 100 * US);
		CHECK_U64(r->max_at_ns, 400 * US);
		CHECK_U64(r->nr_worst, 3);
		CHECK_U64(r->worst[0].end_ns, 400 * US);
		CHECK_U64(r->worst[1].end_ns, 600 * US);
		CHECK_U64(r->worst[2].end_ns, 150 * US);
	}
	lt_report_free(rep);
}

static uint64_t rnd_state = 88172645463325252ULL;

static uint64_t rnd(void)
{
	rnd_state ^= rnd_state << 13;
	rnd_state ^= rnd_state >> 7;
	rnd_state ^= rnd_state << 17;
	return rnd_state;
}

/* What lt_format_duration() wrote before it stopped asking printf. */
static void duration_ref(char *buf, size_t len, uint64_t ns)
{
	if (ns < 1000)
		snprintf(buf, len, "%" PRIu64 " ns", ns);
	else if (ns < 1000000)
		snprintf(buf, len, "%.1f us", ns / 1e3);
	else if (ns < 1000000000)
		snprintf(buf, len, "%.1f ms", ns / 1e6);
	else
		snprintf(buf, len, "%.2f s", ns / 1e9);
}

static unsigned int check_duration(uint64_t ns, size_t len)
{
	char got[32], want[32];

	memset(got, 'x', sizeof(got));
	memset(want, 'x', sizeof(want));
	lt_format_duration(got, len, ns);
	duration_ref(want, len, ns);
	if (!memcmp(got, want, sizeof(got)))
		return 0;
	if (lt_test_failures < 10)
		fprintf(stderr, "duration %" PRIu64 " (len %zu): \"%.*s\", printf \"%.*s\"\n",
			ns, len, (int)(len ? len : 1), got, (int)(len ? len : 1), want);
	lt_test_failures++;
	return 1;
}

static unsigned int check_percent(double v)
{
	char got[32], want[32];

	lt_format_percent(got, sizeof(got), v);
	snprintf(want, sizeof(want), "%.1f", v);
	if (!strcmp(got, want))
		return 0;
	if (lt_test_failures < 10)
		fprintf(stderr, "percent %.17g: \"%s\", printf \"%s\"\n", v, got, want);
	lt_test_failures++;
	return 1;
}

/*
 * The columns' numbers are written without printf's float conversion:
 * every value must still come out as printf writes it, ties and carries
 * (999.95 us is "1000.0 us") included.
 */
static void test_number_formats(void)
{
	static const uint64_t ties[] = { 100, 100000, 10000000 };
	static const size_t lens[] = { 0, 1, 2, 3, 5, 8, 32 };
	unsigned int bad = 0;
	uint64_t ns, a, b;
	size_t i, k;

	lt_test_case = "number formats";
	for (ns = 0; ns < 3000000; ns++)
		bad += check_duration(ns, 32);
	/* the decimal halves, where the double's last bits decide */
	for (k = 0; k < 3; k++)
		for (i = 0; i < 200000; i++)
			bad += check_duration((rnd() % 100000000000ULL) /
					      ties[k] * ties[k] + ties[k] / 2, 32);
	/* every magnitude, up to where a double no longer holds ns exactly */
	for (i = 0; i < 1000000; i++)
		bad += check_duration(rnd() >> (rnd() % 64), 32);
	bad += check_duration(UINT64_MAX, 32);
	bad += check_duration(999950, 32);
	bad += check_duration(999999999, 32);
	for (i = 0; i < sizeof(lens) / sizeof(lens[0]); i++)
		for (k = 0; k < 2000; k++)
			bad += check_duration(rnd() >> (rnd() % 64), lens[i]);

	/* as the report computes them: part of a total */
	for (i = 0; i < 1000000; i++) {
		b = (rnd() >> (rnd() % 60)) + 1;
		a = rnd() % (b + 1);
		bad += check_percent(100.0 * (double)a / (double)b);
	}
	for (i = 0; i <= 100000; i++)
		bad += check_percent(i / 1000.0);
	for (i = 0; i <= 4000; i++)
		bad += check_percent(i / 40.0);	/* 0.025 steps: exact halves */
	/* a saved report's, hand-edited: printf's own way */
	bad += check_percent(-0.0);
	bad += check_percent(-12.34);
	bad += check_percent(1e300);
	bad += check_percent(NAN);
	CHECK_U64(bad, 0);
}

/* Columns of UTF-8 text as the text report pads and cuts by them. */
static void test_text_cols(void)
{
	static const struct { const char *s; size_t cols; } cases[] = {
		{ "", 0 }, { "abc", 3 }, { "caf\xc3\xa9", 4 },
		{ "\xe6\x95\xb0\xe6\x8d\xae", 4 },		/* two CJK */
		{ "\xf0\x9f\x9a\x80", 2 },			/* an emoji */
		{ "\xe2\x9c\x85", 2 },				/* U+2705 */
		{ "e\xcc\x81", 1 },				/* combining */
		{ "a\xe2\x80\x8b" "b", 2 },			/* ZWSP */
		{ "\xc2\x9b", 1 },				/* C1: one '?' */
		/* what does not decode is a byte alone, a column each */
		{ "ov\xe0\x80\x80", 5 },			/* overlong */
		{ "\xed\xa0\x80", 3 },				/* surrogate */
		{ "\xf4\x90\x80\x80", 4 },			/* > U+10FFFF */
		{ "\xc0\xaf\xff", 3 }, { "ab\xe6\x95", 4 },	/* cut short */
	};
	struct lt_report_row row = { 0 };
	char buf[64];
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		lt_test_case = cases[i].s;
		CHECK_U64(lt_text_width(cases[i].s), cases[i].cols);
	}
	/* a cut on a character, its '~' in the last column */
	lt_test_case = "cut";
	row.reason = "\xe6\x95\xb0\xe6\x8d\xae\xe5\xba\x93";	/* 6 columns */
	row.argument = "";
	CHECK_STR(lt_format_cause(buf, sizeof(buf), &row, 5),
		  "\xe6\x95\xb0\xe6\x8d\xae~");
	CHECK_STR(lt_format_cause(buf, sizeof(buf), &row, 4),
		  "\xe6\x95\xb0~");
	CHECK_STR(lt_format_cause(buf, sizeof(buf), &row, 6),
		  "\xe6\x95\xb0\xe6\x8d\xae\xe5\xba\x93");
	CHECK_STR(lt_format_cause(buf, sizeof(buf), &row, 1), "~");
}

/*
 * Waits the 5 ms rule leaves uncharged still show with their task; a
 * kernel thread idle for work (I) requested nothing.  (Each wakeup here
 * is followed at once by a switch-in: a wait for a CPU of 0 ns, the only
 * row charged.)
 */
static void test_user_requested(void)
{
	static const struct lt_ev ev[] = {
		EV(FORK, 0, 1, .pid2 = 300, S("sleeper")),
		EV(SWITCH, 10, 300, .state = LT_STATE_SLEEP, .pid2 = 0),
		EV(WAKEUP, 300010, 300),		/* 300 ms: not charged */
		EV(SWITCH, 300010, 0, .state = LT_STATE_RUNNABLE, .pid2 = 300),
		EV(SWITCH, 300020, 300, .state = LT_STATE_SLEEP, .pid2 = 0),
		EV(WAKEUP, 320020, 300),		/* 20 ms: not charged */
		EV(SWITCH, 320020, 0, .state = LT_STATE_RUNNABLE, .pid2 = 300),
		EV(FORK, 0, 2, .pid2 = 400, S("kworker/0:1")),
		EV(SWITCH, 20, 400, .cpu = 1, .state = LT_STATE_IDLE, .pid2 = 0),
		EV(WAKEUP, 100020, 400),		/* idle: no section */
		EV(SWITCH, 100020, 0, .cpu = 1, .state = LT_STATE_RUNNABLE,
		   .pid2 = 400),
	};
	struct lt_options o;
	struct lt_report *r, *back;
	const struct lt_report_process *p;
	struct lt_error err;
	char *json = NULL;
	size_t len = 0;
	FILE *f;

	lt_test_case = "user requested waits";
	lt_options_init(&o);
	r = build_from(ev, sizeof(ev) / sizeof(ev[0]), NULL, &o);
	/* not charged: nothing of them in the global table */
	CHECK(r->whole.nr_global == 1 &&
	      r->whole.global[0].kind == LT_CAUSE_SCHED);
	p = proc(&r->whole, 300);
	CHECK(p != NULL);
	if (p) {
		CHECK(p->nr_rows == 1 && p->rows[0].kind == LT_CAUSE_SCHED);
		CHECK_U64(p->total_ns, 0);
		CHECK_U64(p->user_requested.count, 2);
		CHECK_U64(p->user_requested.total_ns, 320000 * US);
		CHECK_U64(p->user_requested.max_ns, 300000 * US);
		CHECK(p->nr_threads == 1 &&
		      p->threads[0].user_requested.count == 2);
	}
	p = proc(&r->whole, 400);
	CHECK(p && p->kernel_thread && !p->user_requested.count);
	CHECK_U64(r->dropped_interruptible, 0);	/* fill_report()'s, not here */

	/* the JSON report keeps them */
	f = open_memstream(&json, &len);
	CHECK(f && lt_report_write(r, LT_FORMAT_JSON, f, &err) == 0);
	if (f)
		fclose(f);
	CHECK(json && lt_report_parse_json(json, len, "mem", &back, &err) == 0);
	p = json ? proc(&back->whole, 300) : NULL;
	CHECK(p && p->user_requested.count == 2 &&
	      p->user_requested.total_ns == 320000 * US &&
	      p->user_requested.max_ns == 300000 * US &&
	      p->threads[0].user_requested.count == 2);
	if (json)
		lt_report_free(back);
	free(json);
	lt_report_free(r);
}

/*
 * A stack with the task's own frames below the kernel's (perf.data call
 * chains): they stay apart in the model, and flame graphs grow from the
 * user's outermost frame to the kernel's innermost.
 */
static void test_user_frames(void)
{
	static const uint64_t frames[] = { 0x10, 0x20, LT_FRAME_USER, 0x2000,
					   0x1000 };
	static const uint64_t other[] = { 0x10, 0x20, LT_FRAME_USER, 0x3000,
					  0x1000 };
	static const struct lt_ev ev[] = {
		EV(FORK, 0, 1, .pid2 = 100, S("app")),
		EV(SWITCH, 10, 100, .state = LT_STATE_BLOCKED, .pid2 = 0),
		EV(STACK, 10, 100, .frames = frames, .nr_frames = 5),
		EV(WAKEUP, 1010, 100),
		EV(SWITCH, 1010, 0, .state = LT_STATE_RUNNABLE, .pid2 = 100),
		EV(SWITCH, 2000, 100, .state = LT_STATE_BLOCKED, .pid2 = 0),
		EV(STACK, 2000, 100, .frames = other, .nr_frames = 5),
		EV(WAKEUP, 4000, 100),
		EV(SWITCH, 4000, 0, .state = LT_STATE_RUNNABLE, .pid2 = 100),
	};
	const struct lt_report_row *r;
	struct lt_report *rep;
	struct lt_options o;
	char *text;

	lt_test_case = "user frames";
	lt_options_init(&o);
	test_user_sym = user_sym;
	rep = build_from(ev, sizeof(ev) / sizeof(ev[0]), NULL, &o);
	test_user_sym = NULL;
	r = row(rep->whole.global, rep->whole.nr_global, "[0x10]");
	CHECK(r && r->nr_stacks == 1);
	/* 0x2000 and 0x3000 both name "lib_fn": one stack of two waits */
	if (r && r->nr_stacks == 1) {
		const struct lt_report_stack *st = &r->stacks[0];

		CHECK_U64(st->count, 2);
		CHECK_U64(st->nr_frames, 2);
		CHECK_U64(st->nr_user_frames, 2);
		if (st->nr_user_frames == 2) {
			CHECK_STR(st->user_frames[0], "lib_fn");
			CHECK_STR(st->user_frames[1], "main");
		}
	}
	text = written(rep, LT_FORMAT_FOLDED);
	CHECK(text && strstr(text, "app (100);[0x10];main;lib_fn;outer_fn;inner_fn 3000\n"));
	free(text);
	lt_report_free(rep);
}

int main(void)
{
	test_number_formats();
	test_text_cols();
	test_tables();
	test_sort_threads();
	test_equal_waits();
	test_windows();
	test_text_columns();
	test_json_utf8();
	test_text_damage_counts();
	test_user_requested();
	test_user_frames();
	return lt_test_done("report/tables");
}
