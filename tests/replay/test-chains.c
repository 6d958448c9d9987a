// SPDX-License-Identifier: GPL-2.0
/*
 * test-chains.c - whom each wait waited for (issue 48), on hand-written
 * event scripts: the walk's nodes and their times, worked out by hand
 * from each script (times in microseconds), not taken from the code.
 *
 * Every script charges all waits (no cut-off) and has no stacks, so a
 * blocked wait's cause is "Unknown reason".
 */
#include <stdlib.h>
#include <string.h>

#include "lt-replay.h"
#include "lt-test.h"

#define US 1000ULL

/* cpu @c switches @prev (state @st) out and @next in */
#define SW(t, c, prev, st, next)					\
	{ .kind = LT_EV_SWITCH, .ts = (t) * US, .cpu = (c), .pid = (prev),	\
	  .current = (prev), .state = LT_STATE_##st, .pid2 = (next) }
/* on cpu @c, where @cur is current, @p is woken (irq: LT_EV_IRQ_*) */
#define WAKING(t, c, p, cur)						\
	{ .kind = LT_EV_WAKING, .ts = (t) * US, .cpu = (c), .pid = (p),	\
	  .current = (cur) }
#define WAKING_IRQ(t, c, p, cur, irq_)					\
	{ .kind = LT_EV_WAKING, .ts = (t) * US, .cpu = (c), .pid = (p),	\
	  .current = (cur), .irq = (irq_) }
#define WAKEUP(t, c, p, cur)						\
	{ .kind = LT_EV_WAKEUP, .ts = (t) * US, .cpu = (c), .pid = (p),	\
	  .current = (cur) }
#define OTHER(t, c, cur)						\
	{ .kind = LT_EV_OTHER, .ts = (t) * US, .cpu = (c), .current = (cur) }
#define RESTORE(t, p, r, ck)						\
	{ .kind = LT_EV_REASON_RESTORE, .ts = (t) * US, .pid = (p),	\
	  .str = r, .str_len = sizeof(r) - 1, .cookie = (ck) }
#define LOST(t, c)							\
	{ .kind = LT_EV_LOST, .ts = (t) * US, .cpu = (c), .value = 10 }
#define END		{ .kind = LT_EV_OTHER, .ts = 0, .pid = -1 }

/* what a blocked node is: any cause */
#define BLOCKED 0

static void run(struct lt_replay *rp, const struct lt_ev *script)
{
	struct lt_replay_opts o;
	const struct lt_ev *ev;

	memset(&o, 0, sizeof(o));
	o.from_ns = -1;
	o.to_ns = -1;
	CHECK(lt_replay_init(rp, &o) == 0);
	for (ev = script; !(ev->kind == LT_EV_OTHER && ev->pid == -1); ev++)
		CHECK(lt_replay_feed(rp, ev) == 0);
	CHECK(lt_replay_finish(rp) == 0);
}

/* The tree of @pid's row of @reason (the only one with waits). */
static const struct lt_chain_tree *tree_of(const struct lt_replay *rp, int pid,
					   const char *reason)
{
	const struct lt_chain_tree *tr = NULL;
	uint32_t r;

	for (r = 0; r < rp->nr_rows; r++) {
		const struct lt_row_acc *row = &rp->rows[r];

		if (!row->count || rp->tasks[row->task].pid != pid ||
		    strcmp(lt_replay_str(rp, rp->causes[row->cause].reason),
			   reason))
			continue;
		CHECK(!tr);
		tr = &row->chain;
	}
	CHECK(tr && tr->nr);
	return tr && tr->nr ? tr : NULL;
}

/*
 * The ns of the child of @parent that is @pid's (-1: no task's, 0: the
 * idle task's) @what (BLOCKED: any cause); its index into *@at.  0 when
 * there is none.
 */
static uint64_t node(const struct lt_replay *rp, const struct lt_chain_tree *tr,
		     uint32_t parent, int pid, uint32_t what, uint32_t *at)
{
	uint32_t c;

	if (at)
		*at = 0;
	if (!tr)
		return 0;
	for (c = tr->nodes[parent].child; c; c = tr->nodes[c].next) {
		const struct lt_chain_node *n = &tr->nodes[c];
		int npid = n->task == LT_NO_TASK ? -1 :
			   n->task == LT_CHAIN_IDLE ? 0 : rp->tasks[n->task].pid;

		if (npid != pid)
			continue;
		if (what == BLOCKED ? lt_chain_what_name(n->what) != NULL :
		    n->what != what)
			continue;
		if (at)
			*at = c;
		return n->ns;
	}
	return 0;
}

static uint32_t children(const struct lt_chain_tree *tr, uint32_t n)
{
	return tr ? tr->nodes[n].nr_children : 0;
}

#define UNKNOWN_REASON "Unknown reason"
#define SCHED "Scheduler: waiting for cpu"

/*
 * A pipe: reader 100 on cpu 0 sleeps at 10; writer 200 on cpu 1 ran
 * from 5, slept at 20, was woken by the idle task (a timer) at 60, ran
 * at 65 and woke the reader at 70 (sched_wakeup at 71).  The reader's
 * wait [10, 71]: writer running [65, 71] and [10, 20], waiting for cpu
 * [61, 65], blocked [20, 61] under which a timer.  Its wait for a CPU
 * [71, 75] on cpu 0: the idle task there.
 */
static void test_pipe(void)
{
	const struct lt_ev script[] = {
		SW(0, 0, 0, RUNNABLE, 100),
		SW(5, 1, 0, RUNNABLE, 200),
		SW(10, 0, 100, SLEEP, 0),
		SW(20, 1, 200, SLEEP, 0),
		WAKING(60, 1, 200, 0),
		WAKEUP(61, 1, 200, 0),
		SW(65, 1, 0, RUNNABLE, 200),
		WAKING(70, 1, 100, 200),
		WAKEUP(71, 1, 100, 200),
		SW(75, 0, 0, RUNNABLE, 100),
		OTHER(80, 0, 100),
		END
	};
	const struct lt_chain_tree *tr;
	struct lt_replay rp;
	uint32_t b;

	lt_test_case = "pipe";
	run(&rp, script);
	tr = tree_of(&rp, 100, UNKNOWN_REASON);
	CHECK_U64(tr ? tr->nodes[0].ns : 0, 61 * US);
	CHECK_U64(children(tr, 0), 3);
	CHECK_U64(node(&rp, tr, 0, 200, LT_CHAIN_RUNNING, NULL), 16 * US);
	CHECK_U64(node(&rp, tr, 0, 200, LT_CHAIN_RUNNABLE, NULL), 4 * US);
	CHECK_U64(node(&rp, tr, 0, 200, BLOCKED, &b), 41 * US);
	CHECK_U64(children(tr, b), 1);
	CHECK_U64(node(&rp, tr, b, -1, LT_CHAIN_TIMER, NULL), 41 * US);
	/* the writer's own wait: a timer's doing, all of it */
	tr = tree_of(&rp, 200, UNKNOWN_REASON);
	CHECK_U64(node(&rp, tr, 0, -1, LT_CHAIN_TIMER, NULL), 41 * US);
	/* who ran instead: the idle task, from the wakeup to the switch-in */
	tr = tree_of(&rp, 100, SCHED);
	CHECK_U64(children(tr, 0), 1);
	CHECK_U64(node(&rp, tr, 0, 0, LT_CHAIN_RAN, NULL), 4 * US);
	lt_replay_free(&rp);
}

/*
 * A relay, three deep: A (100) waits [10, 90] for B (200), which waits
 * [8, 80] for C (300), which sleeps [6, 70] until a timer.  Each runs on
 * a CPU of its own, switched in at its wakeup.
 */
static void test_relay(void)
{
	const struct lt_ev script[] = {
		SW(0, 0, 0, RUNNABLE, 100),
		SW(1, 1, 0, RUNNABLE, 200),
		SW(2, 2, 0, RUNNABLE, 300),
		SW(6, 2, 300, SLEEP, 0),
		SW(8, 1, 200, SLEEP, 0),
		SW(10, 0, 100, SLEEP, 0),
		WAKING(70, 2, 300, 0),
		WAKEUP(70, 2, 300, 0),
		SW(70, 2, 0, RUNNABLE, 300),
		WAKING(80, 2, 200, 300),
		WAKEUP(80, 2, 200, 300),
		SW(80, 1, 0, RUNNABLE, 200),
		WAKING(90, 1, 100, 200),
		WAKEUP(90, 1, 100, 200),
		SW(90, 0, 0, RUNNABLE, 100),
		END
	};
	const struct lt_chain_tree *tr;
	struct lt_replay rp;
	uint32_t b, c;

	lt_test_case = "relay depth 3";
	run(&rp, script);
	tr = tree_of(&rp, 100, UNKNOWN_REASON);
	CHECK_U64(node(&rp, tr, 0, 200, LT_CHAIN_RUNNING, NULL), 10 * US);
	CHECK_U64(node(&rp, tr, 0, 200, BLOCKED, &b), 70 * US);
	/* B's wait, clipped to [10, 80]: C ran [70, 80], slept [10, 70] */
	CHECK_U64(node(&rp, tr, b, 300, LT_CHAIN_RUNNING, NULL), 10 * US);
	CHECK_U64(node(&rp, tr, b, 300, BLOCKED, &c), 60 * US);
	CHECK_U64(children(tr, c), 1);
	CHECK_U64(node(&rp, tr, c, -1, LT_CHAIN_TIMER, NULL), 60 * US);
	lt_replay_free(&rp);
}

/*
 * A cycle: A (100) wakes B (200) at 9 (sched_waking, A still running),
 * sleeps at 10; B's wakeup comes at 11 from another CPU, B runs at 13
 * and wakes A at 20.  A's wait [10, 20]: B running [13, 20], waiting for
 * cpu [11, 13], blocked [10, 11] whose waker is A itself: unknown.
 */
static void test_cycle(void)
{
	const struct lt_ev script[] = {
		SW(0, 0, 0, RUNNABLE, 100),
		SW(1, 1, 0, RUNNABLE, 200),
		SW(2, 1, 200, SLEEP, 0),
		WAKING(9, 0, 200, 100),
		SW(10, 0, 100, SLEEP, 0),
		WAKEUP(11, 0, 200, 0),
		SW(13, 1, 0, RUNNABLE, 200),
		WAKING(20, 1, 100, 200),
		WAKEUP(20, 1, 100, 200),
		SW(21, 0, 0, RUNNABLE, 100),
		END
	};
	const struct lt_chain_tree *tr;
	struct lt_replay rp;
	uint32_t b;

	lt_test_case = "cycle";
	run(&rp, script);
	tr = tree_of(&rp, 100, UNKNOWN_REASON);
	CHECK_U64(node(&rp, tr, 0, 200, LT_CHAIN_RUNNING, NULL), 7 * US);
	CHECK_U64(node(&rp, tr, 0, 200, LT_CHAIN_RUNNABLE, NULL), 2 * US);
	CHECK_U64(node(&rp, tr, 0, 200, BLOCKED, &b), 1 * US);
	CHECK_U64(children(tr, b), 1);
	CHECK_U64(node(&rp, tr, b, -1, LT_CHAIN_UNKNOWN, NULL), 1 * US);
	/* B's own wait [2, 11]: A ran from 0 to its waking and on to 11 */
	tr = tree_of(&rp, 200, UNKNOWN_REASON);
	CHECK_U64(node(&rp, tr, 0, 100, LT_CHAIN_RUNNING, NULL), 9 * US);
	lt_replay_free(&rp);
}

/*
 * Ten tasks in a line: task 100+k (k = 0..9) sleeps at 5+k on CPU k and
 * is woken at 100-k by task 100+k+1, switched in there and then; task
 * 109 is woken by a timer at 91.  Task 100's wait [5, 100] walks down
 * the line: each level's waker ran for 1 us and was blocked before; the
 * blocked node at level 8 (task 108's wait) is not followed: unknown.
 */
static void test_depth(void)
{
	struct lt_ev script[64];
	const struct lt_chain_tree *tr;
	struct lt_replay rp;
	uint32_t n = 0, at = 0, b;
	int k, level;

	lt_test_case = "depth 8";
	for (k = 0; k < 10; k++)
		script[n++] = (struct lt_ev)SW(0, k, 0, RUNNABLE, 100 + k);
	for (k = 9; k >= 0; k--)
		script[n++] = (struct lt_ev)SW(5 + (9 - k), k, 100 + k, SLEEP, 0);
	/* 109 at 91 by a timer; then 100+k at 100-k by 100+k+1 */
	for (k = 9; k >= 0; k--) {
		int cur = k == 9 ? 0 : 100 + k + 1, c = k == 9 ? 9 : k + 1;

		script[n++] = (struct lt_ev)WAKING(100 - k, c, 100 + k, cur);
		script[n++] = (struct lt_ev)WAKEUP(100 - k, c, 100 + k, cur);
		script[n++] = (struct lt_ev)SW(100 - k, k, 0, RUNNABLE, 100 + k);
	}
	script[n++] = (struct lt_ev)END;
	run(&rp, script);
	/* task 100 slept at 14: its wait [14, 100] */
	tr = tree_of(&rp, 100, UNKNOWN_REASON);
	CHECK_U64(tr ? tr->nodes[0].ns : 0, 86 * US);
	for (level = 1; level <= 8; level++) {
		int w = 100 + level;

		/* the waker ran [100-level, 100-level+1], blocked before */
		CHECK_U64(node(&rp, tr, at, w, LT_CHAIN_RUNNING, NULL), 1 * US);
		CHECK_U64(node(&rp, tr, at, w, BLOCKED, &b), (86 - level) * US);
		at = b;
	}
	CHECK_U64(children(tr, at), 1);
	CHECK_U64(node(&rp, tr, at, -1, LT_CHAIN_UNKNOWN, NULL), 78 * US);
	lt_replay_free(&rp);
}

/*
 * Interrupts and the idle task: 100 is woken by a hard irq (on a CPU
 * where 300 runs), 101 by a soft irq, 102 by the idle task, each after
 * 10 us asleep.
 */
#define IRQ_WAKERS							\
	SW(0, 0, 0, RUNNABLE, 100),					\
	SW(0, 1, 0, RUNNABLE, 101),					\
	SW(0, 2, 0, RUNNABLE, 102),					\
	SW(0, 3, 0, RUNNABLE, 300),					\
	SW(10, 0, 100, BLOCKED, 0),					\
	SW(10, 1, 101, SLEEP, 0),					\
	SW(10, 2, 102, SLEEP, 0),					\
	WAKING_IRQ(20, 3, 100, 300, LT_EV_IRQ_HARD),			\
	WAKEUP(20, 3, 100, 300),					\
	WAKING_IRQ(20, 3, 101, 300, LT_EV_IRQ_SOFT),			\
	WAKEUP(20, 3, 101, 300),					\
	WAKING(20, 2, 102, 0),						\
	WAKEUP(20, 2, 102, 0),						\
	SW(21, 0, 0, RUNNABLE, 100),					\
	SW(21, 1, 0, RUNNABLE, 101),					\
	SW(21, 2, 0, RUNNABLE, 102)

static void test_irq_wakers(void)
{
	const struct lt_ev script[] = {
		IRQ_WAKERS,
		END
	};
	const struct lt_chain_tree *tr;
	struct lt_replay rp;

	lt_test_case = "irq and idle wakers";
	run(&rp, script);
	tr = tree_of(&rp, 100, UNKNOWN_REASON);
	CHECK_U64(children(tr, 0), 1);
	CHECK_U64(node(&rp, tr, 0, -1, LT_CHAIN_HARDIRQ, NULL), 10 * US);
	tr = tree_of(&rp, 101, UNKNOWN_REASON);
	CHECK_U64(node(&rp, tr, 0, -1, LT_CHAIN_SOFTIRQ, NULL), 10 * US);
	tr = tree_of(&rp, 102, UNKNOWN_REASON);
	CHECK_U64(node(&rp, tr, 0, -1, LT_CHAIN_TIMER, NULL), 10 * US);
	lt_replay_free(&rp);
}

/*
 * Lost events on cpu 1, whose last record before the gap was at 25 and
 * next at 35: the writer 200, which ran there, is lost from 25 to its
 * next transition, its switch-in at 40.  The reader's wait [36, 50]
 * (begun after the gap): lost [36, 40], running [40, 50].
 */
static void test_lost(void)
{
	const struct lt_ev script[] = {
		SW(0, 0, 0, RUNNABLE, 100),
		SW(5, 1, 0, RUNNABLE, 200),
		OTHER(25, 1, 200),
		LOST(25, 1),
		OTHER(35, 1, 0),
		SW(36, 0, 100, SLEEP, 0),
		SW(40, 1, 0, RUNNABLE, 200),
		WAKING(50, 1, 100, 200),
		WAKEUP(50, 1, 100, 200),
		SW(52, 0, 0, RUNNABLE, 100),
		END
	};
	const struct lt_chain_tree *tr;
	struct lt_replay rp;

	lt_test_case = "lost";
	run(&rp, script);
	tr = tree_of(&rp, 100, UNKNOWN_REASON);
	CHECK_U64(children(tr, 0), 2);
	CHECK_U64(node(&rp, tr, 0, -1, LT_CHAIN_LOST, NULL), 4 * US);
	CHECK_U64(node(&rp, tr, 0, 200, LT_CHAIN_RUNNING, NULL), 10 * US);
	lt_replay_free(&rp);
}

/*
 * Who ran instead: 100 is woken at 10 and switched in on cpu 0 at 30,
 * where 300 ran until 18, the idle task until 20, and 400 from 20.  Its
 * wait for a CPU of 20 us: 300 8, idle 2, 400 10.
 */
static void test_ran_instead(void)
{
	const struct lt_ev script[] = {
		SW(0, 0, 0, RUNNABLE, 100),
		SW(2, 0, 100, SLEEP, 300),
		WAKEUP(10, 1, 100, 0),
		SW(18, 0, 300, SLEEP, 0),
		SW(20, 0, 0, RUNNABLE, 400),
		SW(30, 0, 400, RUNNABLE, 100),
		END
	};
	const struct lt_chain_tree *tr;
	struct lt_replay rp;

	lt_test_case = "ran_instead";
	run(&rp, script);
	tr = tree_of(&rp, 100, SCHED);
	CHECK_U64(tr ? tr->nodes[0].ns : 0, 20 * US);
	CHECK_U64(children(tr, 0), 3);
	CHECK_U64(node(&rp, tr, 0, 300, LT_CHAIN_RAN, NULL), 8 * US);
	CHECK_U64(node(&rp, tr, 0, 0, LT_CHAIN_RAN, NULL), 2 * US);
	CHECK_U64(node(&rp, tr, 0, 400, LT_CHAIN_RAN, NULL), 10 * US);
	/* its blocked wait [2, 10]: a wakeup from the idle task's CPU */
	tr = tree_of(&rp, 100, UNKNOWN_REASON);
	CHECK_U64(node(&rp, tr, 0, -1, LT_CHAIN_TIMER, NULL), 8 * US);
	lt_replay_free(&rp);
}

/*
 * A wait for a CPU that starts at a waking whose wakeup is not (yet) seen
 * keeps its CPU's history through the trims that a busy other CPU causes:
 * 100 sleeps at 10 on cpu 0, is woken at 20 (a waking only, as perf sched
 * record takes), while 300 and 301 take turns there until 40 and 300 runs
 * on; cpu 1 switches 40,000 times from 100 on (120,000 segments: trims);
 * 100 is switched in at 40110.  Its wait for a CPU, 40090 us: 300 10 +
 * 40070, 301 10, nothing unknown.
 */
static void test_ran_instead_trimmed(void)
{
	const unsigned int n = 40000;
	const struct lt_ev head[] = {
		SW(0, 0, 0, RUNNABLE, 100),
		SW(0, 1, 0, RUNNABLE, 200),
		SW(10, 0, 100, SLEEP, 300),
		WAKING(20, 1, 100, 200),
		SW(30, 0, 300, RUNNABLE, 301),
		SW(40, 0, 301, RUNNABLE, 300),
	};
	const size_t nh = sizeof(head) / sizeof(head[0]);
	const struct lt_ev tail[] = {
		SW(100 + n + 10, 0, 300, RUNNABLE, 100),
		END
	};
	struct lt_ev *script = calloc(nh + n + 2, sizeof(*script));
	const struct lt_chain_tree *tr;
	struct lt_replay rp;
	unsigned int i;

	lt_test_case = "ran_instead kept through trims";
	CHECK(script != NULL);
	if (!script)
		return;
	memcpy(script, head, sizeof(head));
	for (i = 0; i < n; i++) {
		int prev = i % 2 ? 201 : 200, next = i % 2 ? 200 : 201;
		struct lt_ev sw = SW(100 + i, 1, prev, RUNNABLE, next);

		script[nh + i] = sw;
	}
	memcpy(script + nh + n, tail, sizeof(tail));
	run(&rp, script);
	CHECK(rp.stats.chain_segs_peak > 0);
	tr = tree_of(&rp, 100, SCHED);
	CHECK_U64(tr ? tr->nodes[0].ns : 0, 40090 * US);
	CHECK_U64(children(tr, 0), 2);
	CHECK_U64(node(&rp, tr, 0, 300, LT_CHAIN_RAN, NULL), 40080 * US);
	CHECK_U64(node(&rp, tr, 0, 301, LT_CHAIN_RAN, NULL), 10 * US);
	lt_replay_free(&rp);
	free(script);
}

/* A wait ended by its switch-in (no wakeup seen) has no waker: unknown. */
static void test_switch_in_end(void)
{
	const struct lt_ev script[] = {
		SW(0, 0, 0, RUNNABLE, 100),
		SW(10, 0, 100, BLOCKED, 0),
		SW(25, 0, 0, RUNNABLE, 100),
		END
	};
	const struct lt_chain_tree *tr;
	struct lt_replay rp;

	lt_test_case = "ended by its switch-in";
	run(&rp, script);
	tr = tree_of(&rp, 100, UNKNOWN_REASON);
	CHECK_U64(children(tr, 0), 1);
	CHECK_U64(node(&rp, tr, 0, -1, LT_CHAIN_UNKNOWN, NULL), 15 * US);
	lt_replay_free(&rp);
}

/*
 * The waits of @pid's rows of @reason that waker @kind ended (@wpid's,
 * for LT_WAKER_TASK), as its sub-rows' wakers say (issue 50): their
 * count into *@count, their time returned.  *@nr: how many entries
 * those sub-rows have in all.
 */
static uint64_t sub_waker(const struct lt_replay *rp, int pid,
			  const char *reason, uint8_t kind, int wpid,
			  uint64_t *count, uint32_t *nr)
{
	uint64_t ns = 0;
	uint32_t r, s, i;

	*count = 0;
	*nr = 0;
	for (r = 0; r < rp->nr_rows; r++) {
		const struct lt_row_acc *row = &rp->rows[r];

		if (!row->count || rp->tasks[row->task].pid != pid ||
		    strcmp(lt_replay_str(rp, rp->causes[row->cause].reason),
			   reason))
			continue;
		for (s = row->first_sub; s != UINT32_MAX; s = rp->subs[s].next)
			for (i = rp->subs[s].wakers; i != UINT32_MAX;
			     i = rp->sub_wakers[i].next) {
				const struct lt_sub_waker *e = &rp->sub_wakers[i];

				++*nr;
				if (e->kind != kind ||
				    (kind == LT_WAKER_TASK &&
				     rp->tasks[e->task].pid != wpid))
					continue;
				*count += e->count;
				ns += e->total_ns;
			}
	}
	return ns;
}

/* Each sub-row's waits by waker: the pipe's and the interrupts'. */
static void test_sub_wakers(void)
{
	const struct lt_ev pipe[] = {
		SW(0, 0, 0, RUNNABLE, 100),
		SW(5, 1, 0, RUNNABLE, 200),
		SW(10, 0, 100, SLEEP, 0),
		SW(20, 1, 200, SLEEP, 0),
		WAKING(60, 1, 200, 0),
		WAKEUP(61, 1, 200, 0),
		SW(65, 1, 0, RUNNABLE, 200),
		WAKING(70, 1, 100, 200),
		WAKEUP(71, 1, 100, 200),
		SW(75, 0, 0, RUNNABLE, 100),
		OTHER(80, 0, 100),
		END
	};
	const struct lt_ev irqs[] = {
		IRQ_WAKERS,
		/* and one ended by its switch-in */
		SW(30, 0, 100, BLOCKED, 0),
		SW(45, 0, 0, RUNNABLE, 100),
		END
	};
	struct lt_replay rp;
	uint64_t count;
	uint32_t nr;

	lt_test_case = "sub-rows' wakers";
	run(&rp, pipe);
	CHECK_U64(sub_waker(&rp, 100, UNKNOWN_REASON, LT_WAKER_TASK, 200,
			    &count, &nr), 61 * US);
	CHECK_U64(count, 1);
	CHECK_U64(nr, 1);
	/* the writer's: the idle task's CPU, a timer */
	CHECK_U64(sub_waker(&rp, 200, UNKNOWN_REASON, LT_WAKER_TIMER, 0,
			    &count, &nr), 41 * US);
	CHECK_U64(nr, 1);
	/* a wait for a CPU has no sub-row, no waker */
	CHECK_U64(sub_waker(&rp, 100, SCHED, LT_WAKER_TASK, 0, &count, &nr), 0);
	CHECK_U64(nr, 0);
	lt_replay_free(&rp);

	run(&rp, irqs);
	CHECK_U64(sub_waker(&rp, 100, UNKNOWN_REASON, LT_WAKER_HARDIRQ, 0,
			    &count, &nr), 10 * US);
	CHECK_U64(nr, 2);
	CHECK_U64(sub_waker(&rp, 100, UNKNOWN_REASON, LT_WAKER_UNKNOWN, 0,
			    &count, &nr), 15 * US);
	CHECK_U64(count, 1);
	CHECK_U64(sub_waker(&rp, 101, UNKNOWN_REASON, LT_WAKER_SOFTIRQ, 0,
			    &count, &nr), 10 * US);
	CHECK_U64(sub_waker(&rp, 102, UNKNOWN_REASON, LT_WAKER_TIMER, 0,
			    &count, &nr), 10 * US);
	lt_replay_free(&rp);
}

/*
 * Reader 100 woken ten times by ten tasks (201..210, each 6 us after it
 * slept): the first LT_SUB_WAKERS each theirs, the last two "other".
 */
static void test_sub_wakers_cap(void)
{
	struct lt_ev script[64];
	struct lt_replay rp;
	uint64_t count, ns = 0, n = 0;
	uint32_t nr, k, i = 0;

	lt_test_case = "sub-rows' wakers past the cap";
	script[i++] = (struct lt_ev)SW(0, 0, 0, RUNNABLE, 100);
	script[i++] = (struct lt_ev)SW(0, 1, 0, RUNNABLE, 201);
	for (k = 0; k < 10; k++) {
		uint64_t t = 10 + 20 * k;

		script[i++] = (struct lt_ev)SW(t, 0, 100, SLEEP, 0);
		if (k)
			script[i++] = (struct lt_ev)SW(t + 2, 1, 200 + k, SLEEP,
						       201 + k);
		script[i++] = (struct lt_ev)WAKING(t + 6, 1, 100, 201 + k);
		script[i++] = (struct lt_ev)SW(t + 6, 0, 0, RUNNABLE, 100);
	}
	script[i++] = (struct lt_ev)END;
	CHECK(i <= sizeof(script) / sizeof(script[0]));
	run(&rp, script);
	for (k = 0; k < 10; k++) {
		ns = sub_waker(&rp, 100, UNKNOWN_REASON, LT_WAKER_TASK, 201 + k,
			       &count, &nr);
		CHECK_U64(ns, k < LT_SUB_WAKERS ? 6 * US : 0);
		n += count;
	}
	CHECK_U64(n, LT_SUB_WAKERS);
	CHECK_U64(sub_waker(&rp, 100, UNKNOWN_REASON, LT_WAKER_OTHER, 0,
			    &count, &nr), 12 * US);
	CHECK_U64(count, 2);
	CHECK_U64(nr, LT_SUB_WAKERS + 1);
	lt_replay_free(&rp);
}

/*
 * 200 existed before the trace: its waits are provisional, then
 * re-charged to "fsync" (a restore without its set), then committed;
 * their wakers move with them: 300 ended the first (2000 us), a hard
 * irq the second (1000 us).
 */
static void test_sub_wakers_recharged(void)
{
	const struct lt_ev script[] = {
		SW(0, 0, 0, RUNNABLE, 300),
		OTHER(0, 1, 200),
		SW(100, 1, 200, BLOCKED, 0),
		WAKING(2100, 0, 200, 300),
		WAKEUP(2100, 0, 200, 300),
		SW(2200, 1, 0, RUNNABLE, 200),
		SW(2300, 1, 200, SLEEP, 0),
		WAKING_IRQ(3300, 0, 200, 300, LT_EV_IRQ_HARD),
		WAKEUP(3300, 0, 200, 300),
		SW(3300, 1, 0, RUNNABLE, 200),
		RESTORE(3400, 200, "fsync", 0x77),
		END
	};
	struct lt_replay rp;
	uint64_t count;
	uint32_t nr;

	lt_test_case = "sub-rows' wakers re-charged";
	run(&rp, script);
	CHECK_U64(sub_waker(&rp, 200, "fsync", LT_WAKER_TASK, 300, &count,
			    &nr), 2000 * US);
	CHECK_U64(count, 1);
	CHECK_U64(nr, 2);
	CHECK_U64(sub_waker(&rp, 200, "fsync", LT_WAKER_HARDIRQ, 0, &count,
			    &nr), 1000 * US);
	CHECK_U64(sub_waker(&rp, 200, UNKNOWN_REASON, LT_WAKER_TASK, 300,
			    &count, &nr), 0);
	CHECK_U64(nr, 0);
	lt_replay_free(&rp);
}

/* --no-chains: no wakers kept. */
static void test_sub_wakers_no_chains(void)
{
	const struct lt_ev script[] = {
		SW(0, 0, 0, RUNNABLE, 100),
		SW(0, 1, 0, RUNNABLE, 200),
		SW(10, 0, 100, SLEEP, 0),
		WAKING(20, 1, 100, 200),
		SW(20, 0, 0, RUNNABLE, 100),
		END
	};
	struct lt_replay_opts o;
	struct lt_replay rp;
	const struct lt_ev *ev;
	uint32_t s, n = 0;

	lt_test_case = "sub-rows' wakers with --no-chains";
	memset(&o, 0, sizeof(o));
	o.from_ns = -1;
	o.to_ns = -1;
	o.no_chains = true;
	CHECK(lt_replay_init(&rp, &o) == 0);
	for (ev = script; !(ev->kind == LT_EV_OTHER && ev->pid == -1); ev++)
		CHECK(lt_replay_feed(&rp, ev) == 0);
	CHECK(lt_replay_finish(&rp) == 0);
	for (s = 0; s < rp.nr_subs; s++)
		n += rp.subs[s].count && rp.subs[s].wakers == UINT32_MAX;
	CHECK_U64(n, 1);
	CHECK_U64(rp.nr_sub_wakers, 0);
	lt_replay_free(&rp);
}

int main(void)
{
	test_pipe();
	test_relay();
	test_cycle();
	test_depth();
	test_irq_wakers();
	test_lost();
	test_ran_instead();
	test_ran_instead_trimmed();
	test_switch_in_end();
	test_sub_wakers();
	test_sub_wakers_cap();
	test_sub_wakers_recharged();
	test_sub_wakers_no_chains();
	return lt_test_done("replay/chains");
}
