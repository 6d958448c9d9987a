// SPDX-License-Identifier: GPL-2.0
/*
 * test-html.c - the HTML report's parts on a hand-written event script:
 * the timeline's bounds (the busiest threads, the longest waits of each,
 * the global table's worst occurrences kept besides, every wait still in
 * the totals and slices), the escaping of names into HTML and into the
 * JSON inside a <script> element, and the document written around a
 * report whose names are hostile.  The browser's view of it is
 * tests/writers/test-html-browser.py's.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "html-local.h"
#include "lt-test.h"

#define US 1000ULL
#define MS 1000000ULL

#define EV(k, t, p, ...) { .kind = LT_EV_##k, .ts = (t), .pid = (p), __VA_ARGS__ }
#define S(x) .str = x, .str_len = sizeof(x) - 1
#define SET(t, p, r, ck) EV(REASON_SET, t, p, S(r), .str2 = "", .cookie = ck)
#define RESTORE(t, p, r, ck) EV(REASON_RESTORE, t, p, S(r), .cookie = ck)
/* @p blocks at @t for @d, then waits 100 us for its CPU */
#define WAIT(t, c, p, d)						\
	EV(SWITCH, t, p, .cpu = c, .state = LT_STATE_BLOCKED, .pid2 = 0),	\
	EV(WAKEUP, (t) + (d), p),					\
	EV(SWITCH, (t) + (d) + 100 * US, 0, .cpu = c,			\
	   .state = LT_STATE_RUNNABLE, .pid2 = p)

#define BUSY	"<script>alert(1"	/* TASK_COMM_LEN cuts longer names */

/*
 * Thread 100 waits 1..6 ms in "x" and 0.5 ms in "y" (the worst, and only,
 * of its row: kept though shorter than its three longest); 200 waits
 * 4 ms twice, 300 once for 1 ms.  Each wakeup then waits 100 us for its
 * CPU.
 */
static const struct lt_ev script[] = {
	EV(FORK, 0, 1, .pid2 = 100, S(BUSY)),
	EV(FORK, 0, 1, .pid2 = 200, S("mid")),
	EV(FORK, 0, 1, .pid2 = 300, S("low")),
	EV(SWITCH, 1 * US, 0, .state = LT_STATE_RUNNABLE, .pid2 = 100),
	EV(SWITCH, 1 * US, 0, .cpu = 1, .state = LT_STATE_RUNNABLE, .pid2 = 200),
	EV(SWITCH, 1 * US, 0, .cpu = 2, .state = LT_STATE_RUNNABLE, .pid2 = 300),
	SET(5 * US, 100, "x", 1),
	WAIT(10 * MS, 0, 100, 3 * MS),
	WAIT(20 * MS, 0, 100, 1 * MS),
	WAIT(30 * MS, 0, 100, 6 * MS),
	WAIT(40 * MS, 0, 100, 2 * MS),
	WAIT(50 * MS, 0, 100, 5 * MS),
	WAIT(60 * MS, 0, 100, 4 * MS),
	RESTORE(70 * MS, 100, "x", 1),
	SET(71 * MS, 100, "y", 2),
	WAIT(72 * MS, 0, 100, 500 * US),
	RESTORE(73 * MS, 100, "y", 2),
	SET(5 * US, 200, "x", 3),
	WAIT(15 * MS, 1, 200, 4 * MS),
	WAIT(45 * MS, 1, 200, 4 * MS),
	RESTORE(60 * MS, 200, "x", 3),
	SET(5 * US, 300, "x", 4),
	WAIT(25 * MS, 2, 300, 1 * MS),
	RESTORE(80 * MS, 300, "x", 4),
};

#define NR_EV (sizeof(script) / sizeof(script[0]))

static const char *sym(void *ctx, uint64_t addr)
{
	(void)ctx;
	(void)addr;
	return "f";
}

/* The report of the script, with a timeline of @threads x @waits. */
static struct lt_report *build(unsigned int threads, unsigned int waits)
{
	struct lt_report_priv *priv = calloc(1, sizeof(*priv));
	const struct lt_ev **order = calloc(NR_EV, sizeof(*order));
	struct lt_replay_opts ro = { 0 };
	struct lt_error err = { 0 };
	struct lt_waits_spill *spill;
	size_t i, j;

	if (!priv || !order)
		abort();
	lt_options_init(&priv->pub.options);
	priv->pub.options.timeline_threads = threads;
	priv->pub.options.timeline_waits = waits;
	ro.sleep_cutoff_ns = priv->pub.options.sleep_cutoff_ns;
	ro.honour_maxtime = true;
	ro.from_ns = ro.to_ns = -1;
	spill = lt_waits_spill_new(&err);
	CHECK(spill != NULL);
	if (!spill)
		abort();
	ro.on_note = lt_waits_spill_note;
	ro.note_ctx = spill;
	CHECK(lt_replay_init(&priv->replay, &ro) == 0);
	priv->have_replay = true;
	/* by time, as the input would hand them over */
	for (i = 0; i < NR_EV; i++)
		order[i] = &script[i];
	for (i = 1; i < NR_EV; i++)
		for (j = i; j > 0 && order[j - 1]->ts > order[j]->ts; j--) {
			const struct lt_ev *t = order[j];

			order[j] = order[j - 1];
			order[j - 1] = t;
		}
	for (i = 0; i < NR_EV; i++)
		CHECK(lt_replay_feed(&priv->replay, order[i]) == 0);
	free(order);
	CHECK(lt_replay_finish(&priv->replay) == 0);
	priv->pub.path = BUSY ".dat";
	priv->pub.format = "trace-cmd";
	priv->pub.compression = "none";
	priv->pub.uname = priv->pub.clock = "";
	priv->pub.start_ns = priv->replay.stats.first_ts;
	priv->pub.end_ns = priv->replay.stats.last_ts;
	priv->pub.whole.start_ns = priv->replay.origin_ns;
	priv->pub.whole.end_ns = priv->replay.stats.last_ts;
	CHECK(lt_report_build(priv, sym, NULL, NULL, &err) == 0);
	if (threads)
		CHECK(lt_timeline_build(priv, spill, &err) == 0);
	lt_waits_spill_free(spill);
	return &priv->pub;
}

static const struct lt_report_row *global_row(const struct lt_report *r,
					      const char *reason)
{
	size_t i;

	for (i = 0; i < r->whole.nr_global; i++)
		if (!strcmp(r->whole.global[i].reason, reason))
			return &r->whole.global[i];
	return NULL;
}

static bool is_worst(const struct lt_report *r, int tid, uint64_t end)
{
	size_t i;
	unsigned int k;

	for (i = 0; i < r->whole.nr_global; i++)
		for (k = 0; k < r->whole.global[i].nr_worst; k++)
			if (r->whole.global[i].worst[k].tid == tid &&
			    r->whole.global[i].worst[k].end_ns == end)
				return true;
	return false;
}

static void test_timeline(void)
{
	struct lt_report *r = build(2, 3);
	const struct lt_report_timeline *tl = r->timeline;
	const struct lt_report_lane *l;
	uint64_t sum = 0, len;
	size_t i, longest = 0, plain = 0;

	lt_test_case = "timeline";
	CHECK(tl != NULL);
	if (!tl)
		goto out;
	CHECK_U64(tl->max_threads, 2);
	CHECK_U64(tl->max_waits, 3);
	CHECK_U64(tl->nr_slices, LT_TIMELINE_SLICES);
	/* the busiest two, busiest first: 300 is left out */
	CHECK_U64(tl->nr_lanes, 2);
	CHECK_U64(tl->lanes[0].tid, 100);
	CHECK_U64(tl->lanes[1].tid, 200);
	l = &tl->lanes[0];
	CHECK_STR(l->comm, BUSY);
	/* every wait counts: 7 blocked, 7 for the CPU */
	CHECK_U64(l->count, 14);
	CHECK_U64(l->total_ns, 21500 * US + 7 * 100 * US);
	CHECK_U64(l->total_ns, r->whole.processes[0].pid == 100 ?
		  r->whole.processes[0].threads[0].total_ns : l->total_ns);
	for (i = 0; i < tl->nr_slices; i++)
		sum += l->slice_ns[i];
	CHECK_U64(sum, l->total_ns);
	/* the three longest, and the global table's worst besides */
	for (i = 0; i < l->nr_spans; i++) {
		len = l->spans[i].end_ns - l->spans[i].start_ns;
		if (i)
			CHECK(l->spans[i - 1].start_ns <= l->spans[i].start_ns);
		CHECK(l->spans[i].worst == is_worst(r, 100, l->spans[i].end_ns));
		longest += len == 6 * MS || len == 5 * MS || len == 4 * MS;
		plain += !l->spans[i].worst;
		if (len == 500 * US) {
			CHECK(l->spans[i].worst);
			CHECK_STR(tl->causes[l->spans[i].cause].reason, "y");
		}
	}
	CHECK_U64(longest, 3);
	CHECK(plain <= 3);
	CHECK(global_row(r, "y") && global_row(r, "y")->nr_worst == 1);
	/* 200: both its waits, all four kept (under the bound) */
	CHECK_U64(tl->lanes[1].count, 4);
	CHECK_U64(tl->lanes[1].nr_spans, 4);
out:
	lt_report_free(r);
}

/* The timeline's bound is the option's, whatever the waits. */
static void test_timeline_one(void)
{
	struct lt_report *r = build(1, 1);

	lt_test_case = "timeline 1x1";
	CHECK(r->timeline && r->timeline->nr_lanes == 1);
	if (r->timeline && r->timeline->nr_lanes == 1) {
		const struct lt_report_lane *l = &r->timeline->lanes[0];
		size_t i, plain = 0;

		for (i = 0; i < l->nr_spans; i++)
			plain += !l->spans[i].worst;
		CHECK_U64(plain, 1);
	}
	lt_report_free(r);
	r = build(0, 0);
	lt_test_case = "no timeline";
	CHECK(r->timeline == NULL);
	lt_report_free(r);
}

static char *captured(void (*fn)(FILE *, const char *), const char *s)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		abort();
	fn(f, s);
	fclose(f);
	return buf;
}

static void test_escape(void)
{
	char *t;

	lt_test_case = "escape";
	t = captured(lt_html_text, "<a href=\"x\">'&'</a>\x1b[2J\xff");
	CHECK_STR(t, "&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;?[2J"
		  "\xef\xbf\xbd");
	free(t);
	/* no '<', '>' or '&' left to end the <script>; U+2028/9 escaped */
	t = captured(lt_report_json_script_str,
		     "</script><!--\xe2\x80\xa8\xe2\x80\xa9\"\\\n\xc3\xa9");
	CHECK_STR(t, "\"\\u003c/script\\u003e\\u003c!--\\u2028\\u2029"
		  "\\\"\\\\\\u000a\xc3\xa9\"");
	free(t);
}

/* The document around hostile names: none of them is markup. */
static void test_document(void)
{
	struct lt_report *r = build(20, 1000);
	struct lt_html_options o;
	struct lt_error err = { 0 };
	char *buf = NULL, *p;
	size_t len = 0, n = 0;
	FILE *f = open_memstream(&buf, &len);

	lt_test_case = "document";
	if (!f)
		abort();
	lt_html_options_init(&o);
	o.focus_pid = 100;
	o.filter = "\"><script>";
	CHECK(lt_report_write_html(r, &o, f, &err) == 0);
	fclose(f);
	CHECK(!strncmp(buf, "<!DOCTYPE html>", 15));
	CHECK(strstr(buf, "default-src 'none'") != NULL);
	for (p = buf; (p = strstr(p, "<script")); p++)
		n++;
	CHECK_U64(n, 2);
	CHECK(strstr(buf, BUSY) == NULL);
	CHECK(strstr(buf, "&lt;script&gt;alert(1") != NULL);
	CHECK(strstr(buf, "value=\"&quot;&gt;&lt;script&gt;\"") != NULL);
	/* the process asked for is open, and no other */
	CHECK(strstr(buf, " open data-name=\"&lt;script&gt;alert(1\" "
		     "data-pid=\"100\"") != NULL);
	CHECK(strstr(buf, " open data-name=\"mid\"") == NULL);
	CHECK(strstr(buf, "\"focus\":") != NULL);
	CHECK(strstr(buf, "\"timeline\":{\"threads\":20,\"waits\":1000") != NULL);
	free(buf);
	lt_report_free(r);
}

int main(void)
{
	test_timeline();
	test_timeline_one();
	test_escape();
	test_document();
	return lt_test_done("writers/html");
}
