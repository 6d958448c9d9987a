// SPDX-License-Identifier: GPL-2.0
/*
 * test-waits.c - every wait the replay sees, handed over with its final
 * cause (report-waits.c), on hand-written event scripts.
 *
 * The hard part is a provisional charge: a task that existed before the
 * trace may turn out to have been inside a reason all along (a restore
 * whose set the trace never showed), and then its waits so far move to
 * it, as the report's rows do; a commit (lost events) ends that.  The
 * expected causes are worked out by hand from the script, and checked
 * against the replay's own rows too.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lt-report.h"
#include "lt-test.h"

#define US 1000ULL

#define SW(t, c, prev, st, next)					\
	{ .kind = LT_EV_SWITCH, .ts = (t) * US, .cpu = (c), .pid = (prev),	\
	  .state = LT_STATE_##st, .pid2 = (next) }
#define WAKE(t, p)	{ .kind = LT_EV_WAKEUP, .ts = (t) * US, .pid = (p) }
#define RESTORE(t, p, r, ck)						\
	{ .kind = LT_EV_REASON_RESTORE, .ts = (t) * US, .pid = (p),	\
	  .str = r, .str_len = sizeof(r) - 1, .cookie = (ck) }
#define LOST(t, c, n)	{ .kind = LT_EV_LOST, .ts = (t) * US, .cpu = (c), \
			  .value = (n) }
#define END		{ .kind = LT_EV_OTHER, .ts = 0, .pid = -1 }

struct row {
	int tid;
	char state;
	uint64_t start, end;
	char reason[64];
	char dropped[64];
};

struct rows {
	struct row r[64];
	size_t n;
};

static int collect(void *ctx, const struct lt_wait *w)
{
	struct rows *rs = ctx;
	struct row *r;

	CHECK(rs->n < 64);
	if (rs->n >= 64)
		return -1;
	r = &rs->r[rs->n++];
	r->tid = w->tid;
	r->state = w->state;
	r->start = w->start_known ? w->start_ns : 0;
	r->end = w->end_known ? w->end_ns : 0;
	snprintf(r->reason, sizeof(r->reason), "%s", w->reason);
	snprintf(r->dropped, sizeof(r->dropped), "%s", w->dropped ? w->dropped : "");
	return 0;
}

static const char *sym(void *ctx, uint64_t addr)
{
	(void)ctx;
	(void)addr;
	return "f";
}

/* The blocked (not 'R') wait of @tid that began at @start, in @rs. */
static const struct row *blocked(const struct rows *rs, int tid, uint64_t start)
{
	size_t i;

	for (i = 0; i < rs->n; i++)
		if (rs->r[i].tid == tid && rs->r[i].state != 'R' &&
		    rs->r[i].start == start * US)
			return &rs->r[i];
	return NULL;
}

/* Final (not provisional) charged rows of cause @reason: their count. */
static uint64_t rows_count(const struct lt_replay *rp, const char *reason)
{
	uint64_t n = 0;
	uint32_t r;

	for (r = 0; r < rp->nr_rows; r++)
		if (!rp->rows[r].provisional && !rp->rows[r].uncharged &&
		    !strcmp(lt_replay_str(rp, rp->causes[rp->rows[r].cause].reason),
			    reason))
			n += rp->rows[r].count;
	return n;
}

static void test_recharged(void)
{
	const struct lt_ev script[] = {
		/* 200 existed before the trace: its charges are provisional */
		SW(100, 0, 200, BLOCKED, 0),
		WAKE(2100, 200),
		SW(2200, 0, 0, RUNNABLE, 200),
		SW(2300, 0, 200, SLEEP, 0),
		WAKE(3300, 200),
		SW(3300, 0, 0, RUNNABLE, 200),
		/* inside fsync all along: both waits move to it */
		RESTORE(3400, 200, "fsync", 0x77),
		SW(3500, 0, 200, BLOCKED, 0),
		WAKE(4000, 200),
		SW(4000, 0, 0, RUNNABLE, 200),
		/* and fsync inside "outer": all three move again */
		RESTORE(4050, 200, "outer", 0x78),
		SW(4100, 0, 200, BLOCKED, 0),
		WAKE(4300, 200),
		SW(4300, 0, 0, RUNNABLE, 200),
		/* lost events commit what was charged: nothing moves after */
		LOST(4400, 0, 3),
		SW(4500, 0, 200, BLOCKED, 0),
		WAKE(4600, 200),
		SW(4600, 0, 0, RUNNABLE, 200),
		RESTORE(4700, 200, "later", 0x79),
		/* asleep at the end */
		SW(4800, 0, 200, BLOCKED, 0),
		END
	};
	struct lt_replay_opts o;
	struct lt_options lo;
	struct lt_waits_spill *spill;
	struct lt_error err = { 0 };
	struct lt_replay rp;
	struct rows rs = { .n = 0 };
	const struct lt_ev *ev;
	const struct row *r;

	lt_test_case = "recharged";
	memset(&o, 0, sizeof(o));
	o.sleep_cutoff_ns = 5000 * US;
	o.honour_maxtime = true;
	o.from_ns = o.to_ns = -1;
	spill = lt_waits_spill_new(&err);
	CHECK(spill != NULL);
	if (!spill)
		return;
	o.on_note = lt_waits_spill_note;
	o.note_ctx = spill;
	CHECK(lt_replay_init(&rp, &o) == 0);
	for (ev = script; !(ev->kind == LT_EV_OTHER && ev->pid == -1); ev++)
		CHECK(lt_replay_feed(&rp, ev) == 0);
	CHECK(lt_replay_finish(&rp) == 0);
	lt_options_init(&lo);
	lo.waits = collect;
	lo.waits_ctx = &rs;
	CHECK(lt_waits_spill_emit(spill, &rp, "t", sym, NULL, &lo, &err) == 0);

	r = blocked(&rs, 200, 100);
	CHECK(r && !strcmp(r->reason, "outer") && r->end == 2100 * US && !r->dropped[0]);
	r = blocked(&rs, 200, 2300);
	CHECK(r && !strcmp(r->reason, "outer") && r->state == 'S');
	r = blocked(&rs, 200, 3500);
	CHECK(r && !strcmp(r->reason, "outer"));
	r = blocked(&rs, 200, 4100);
	CHECK(r && !strcmp(r->reason, "Unknown reason"));
	/* after the commit, only its own re-charge */
	r = blocked(&rs, 200, 4500);
	CHECK(r && !strcmp(r->reason, "later"));
	r = blocked(&rs, 200, 4800);
	CHECK(r && !strcmp(r->dropped, "unfinished") && r->end == 0);
	/* the replay's rows say the same: 3 outer, 1 unknown, 1 later */
	CHECK_U64(rows_count(&rp, "outer"), 3);
	CHECK_U64(rows_count(&rp, "Unknown reason"), 1);
	CHECK_U64(rows_count(&rp, "later"), 1);
	CHECK_U64(rows_count(&rp, "fsync"), 0);
	/*
	 * 5 blocked, 5 for a CPU after each wakeup (those at 3300, 4000,
	 * 4300 and 4600 of 0 ns: switched in as woken), 1 unfinished
	 */
	CHECK_U64(rs.n, 11);
	lt_waits_spill_free(spill);
	lt_replay_free(&rp);
}

/* A watcher that cannot write stops the replay with LT_E_IO. */
static int refuse(void *ctx, const struct lt_wait_note *n)
{
	(void)ctx;
	(void)n;
	errno = ENOSPC;
	return -1;
}

static void test_refused(void)
{
	const struct lt_ev script[] = {
		SW(100, 0, 0, RUNNABLE, 300),
		SW(200, 0, 300, BLOCKED, 0),
		WAKE(300, 300),
		SW(400, 0, 0, RUNNABLE, 300),
		END
	};
	struct lt_replay_opts o;
	struct lt_replay rp;
	const struct lt_ev *ev;
	int ret = 0;

	lt_test_case = "refused";
	memset(&o, 0, sizeof(o));
	o.from_ns = o.to_ns = -1;
	o.on_note = refuse;
	CHECK(lt_replay_init(&rp, &o) == 0);
	for (ev = script; !ret && !(ev->kind == LT_EV_OTHER && ev->pid == -1); ev++)
		ret = lt_replay_feed(&rp, ev);
	CHECK(ret < 0);
	CHECK_U64(rp.err.code, LT_E_IO);
	CHECK_STR(rp.err.msg, "cannot write the waits: No space left on device");
	lt_replay_free(&rp);
}

int main(void)
{
	test_recharged();
	test_refused();
	return lt_test_done("report/waits");
}
