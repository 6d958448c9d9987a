// SPDX-License-Identifier: GPL-2.0
/*
 * test-scripts.c - the replay state machine on hand-written event scripts.
 *
 * Each case is a script of decoded events (times in microseconds) and the
 * rows, counters and names it must produce.  The expected numbers are
 * worked out by hand from the script, not taken from the code.
 */
#include <stdlib.h>
#include <string.h>

#include "lt-replay.h"
#include "lt-test.h"

#define US 1000ULL

/* Script steps: one event each, times in microseconds. */
#define SW(t, c, prev, st, next)					\
	{ .kind = LT_EV_SWITCH, .ts = (t) * US, .cpu = (c), .pid = (prev),	\
	  .state = LT_STATE_##st, .pid2 = (next) }
#define SWN(t, c, prev, st, next, pcomm, ncomm)				\
	{ .kind = LT_EV_SWITCH, .ts = (t) * US, .cpu = (c), .pid = (prev),	\
	  .state = LT_STATE_##st, .pid2 = (next), .str = pcomm,		\
	  .str_len = sizeof(pcomm) - 1, .str2 = ncomm,			\
	  .str2_len = sizeof(ncomm) - 1 }
#define WAKE(t, p)	{ .kind = LT_EV_WAKEUP, .ts = (t) * US, .pid = (p) }
#define WAKING(t, p)	{ .kind = LT_EV_WAKING, .ts = (t) * US, .pid = (p) }
#define STAT_S(t, p, d)	{ .kind = LT_EV_STAT_SLEEP, .ts = (t) * US, .pid = (p), \
			  .value = (d) * US }
#define STAT_D(t, p, d)	{ .kind = LT_EV_STAT_BLOCKED, .ts = (t) * US, \
			  .pid = (p), .value = (d) * US }
#define SET(t, p, r, a, max, ck)					\
	{ .kind = LT_EV_REASON_SET, .ts = (t) * US, .pid = (p), .str = r,	\
	  .str_len = sizeof(r) - 1, .str2 = a, .str2_len = sizeof(a) - 1,	\
	  .value = (max), .cookie = (ck) }
#define RESTORE(t, p, r, ck)						\
	{ .kind = LT_EV_REASON_RESTORE, .ts = (t) * US, .pid = (p),	\
	  .str = r, .str_len = sizeof(r) - 1, .cookie = (ck) }
#define FORK(t, parent, child, comm)					\
	{ .kind = LT_EV_FORK, .ts = (t) * US, .pid = (parent),		\
	  .pid2 = (child), .str = comm, .str_len = sizeof(comm) - 1 }
#define NEWTASK(t, parent, child, flags, comm)				\
	{ .kind = LT_EV_NEWTASK, .ts = (t) * US, .pid = (parent),	\
	  .pid2 = (child), .value = (flags), .str = comm,		\
	  .str_len = sizeof(comm) - 1 }
#define EXEC(t, p, file)						\
	{ .kind = LT_EV_EXEC, .ts = (t) * US, .pid = (p), .pid2 = (p),	\
	  .str = file, .str_len = sizeof(file) - 1 }
#define EXIT(t, p)	{ .kind = LT_EV_EXIT, .ts = (t) * US, .pid = (p) }
#define LOST(t, c, n)	{ .kind = LT_EV_LOST, .ts = (t) * US, .cpu = (c), \
			  .value = (n) }
#define STACK(t, c, p, f)						\
	{ .kind = LT_EV_STACK, .ts = (t) * US, .cpu = (c), .pid = (p),	\
	  .frames = f, .nr_frames = sizeof(f) / sizeof(f[0]) }
/* ... as the decoder's stack pool hands it on, under id @uid */
#define STACKP(t, c, p, f, uid)						\
	{ .kind = LT_EV_STACK, .ts = (t) * US, .cpu = (c), .pid = (p),	\
	  .frames = f, .nr_frames = sizeof(f) / sizeof(f[0]),		\
	  .value = (uid) }
#define END		{ .kind = LT_EV_OTHER, .ts = 0, .pid = -1 }

static void opts_default(struct lt_replay_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->sleep_cutoff_ns = 5000 * US;
	o->honour_maxtime = true;
	o->from_ns = -1;
	o->to_ns = -1;
}

/* A fake symboliser: frame values 1.. name "f1".., f99 is "kthread". */
static int resolve(void *ctx, const uint64_t *frames, unsigned int nr,
		   struct lt_stack_info *out)
{
	static char buf[64];
	unsigned int i;

	out->kernel_thread = false;
	for (i = 0; i < nr; i++)
		if (frames[i] == 99)
			out->kernel_thread = true;
	snprintf(buf, sizeof(buf), "[f%u]", (unsigned int)frames[0]);
	out->kind = LT_CAUSE_FUNCTION;
	out->cause = buf;
	return 0;
}

/* The script fed to a new replay, not yet finished. */
static void feed(struct lt_replay *rp, const struct lt_replay_opts *o,
		 const struct lt_ev *script)
{
	const struct lt_ev *ev;

	CHECK(lt_replay_init(rp, o) == 0);
	for (ev = script; !(ev->kind == LT_EV_OTHER && ev->pid == -1); ev++)
		CHECK(lt_replay_feed(rp, ev) == 0);
}

static void run(struct lt_replay *rp, const struct lt_replay_opts *o,
		const struct lt_ev *script)
{
	feed(rp, o, script);
	CHECK(lt_replay_finish(rp) == 0);
}

/* The @nth task (0 = first) that had pid @pid. */
static uint32_t task_of(const struct lt_replay *rp, int pid, int nth)
{
	uint32_t i;

	for (i = 0; i < rp->nr_tasks; i++)
		if (rp->tasks[i].pid == pid && nth-- == 0)
			return i;
	return LT_NO_TASK;
}

struct sum {
	uint64_t count, total, max;
	uint32_t sub_path;	/* path of the first sub-row */
};

/* Rows of one task and cause text (all windows), final rows only. */
static struct sum rows_of(const struct lt_replay *rp, uint32_t task,
			  const char *reason, const char *arg)
{
	struct sum s = { 0 };
	uint32_t r;

	if (task == LT_NO_TASK)
		return s;
	for (r = 0; r < rp->nr_rows; r++) {
		const struct lt_row_acc *row = &rp->rows[r];
		const struct lt_cause *c = &rp->causes[row->cause];

		if (row->task != task || !row->count || row->provisional ||
		    row->uncharged)
			continue;
		if (strcmp(lt_replay_str(rp, c->reason), reason) ||
		    strcmp(lt_replay_str(rp, c->argument), arg ? arg : ""))
			continue;
		s.count += row->count;
		s.total += row->total_ns;
		if (row->max_ns > s.max)
			s.max = row->max_ns;
		if (row->first_sub != UINT32_MAX)
			s.sub_path = rp->subs[row->first_sub].path;
	}
	return s;
}

static struct sum pid_rows(const struct lt_replay *rp, int pid,
			   const char *reason)
{
	return rows_of(rp, task_of(rp, pid, 0), reason, NULL);
}

#define SCHED "Scheduler: waiting for cpu"
#define UNKNOWN "Unknown reason"

static void test_derived_basic(void)
{
	const struct lt_ev script[] = {
		SW(0, 0, 0, RUNNABLE, 100),
		SW(1000, 0, 100, BLOCKED, 0),
		WAKE(3000, 100),
		SW(3500, 0, 0, RUNNABLE, 100),
		END
	};
	struct lt_replay_opts o;
	struct lt_replay rp;
	struct sum s;

	lt_test_case = "derived basic";
	opts_default(&o);
	run(&rp, &o, script);
	s = pid_rows(&rp, 100, UNKNOWN);
	CHECK_U64(s.count, 1);
	CHECK_U64(s.total, 2000 * US);
	s = pid_rows(&rp, 100, SCHED);
	CHECK_U64(s.count, 1);
	CHECK_U64(s.total, 500 * US);
	/* its first switch-in had no wakeup before it: nothing to charge */
	CHECK_U64(rp.stats.charged_count, 2);
	lt_replay_free(&rp);
}

static void test_nesting(void)
{
	const struct lt_ev script[] = {
		FORK(0, 1, 100, "sync"),
		SET(10, 100, "fsync", "", 0, 0xa),
		SET(20, 100, "Waiting for buffer IO", "", 0, 0xb),
		SW(100, 0, 100, BLOCKED, 0),
		WAKE(1100, 100),
		SW(1200, 0, 0, RUNNABLE, 100),
		RESTORE(1300, 100, "Waiting for buffer IO", 0xb),
		/* still inside fsync only */
		SW(1400, 0, 100, BLOCKED, 0),
		WAKE(1700, 100),
		SW(1700, 0, 0, RUNNABLE, 100),
		RESTORE(1800, 100, "fsync", 0xa),
		SW(1900, 0, 100, BLOCKED, 0),
		WAKE(2000, 100),
		SW(2000, 0, 0, RUNNABLE, 100),
		END
	};
	struct lt_replay_opts o;
	struct lt_replay rp;
	uint32_t path[4];
	struct sum s;

	lt_test_case = "nesting";
	opts_default(&o);
	run(&rp, &o, script);
	/* both waits inside fsync go to the outermost reason */
	s = pid_rows(&rp, 100, "fsync");
	CHECK_U64(s.count, 2);
	CHECK_U64(s.total, 1300 * US);
	CHECK_U64(s.max, 1000 * US);
	CHECK_U64(pid_rows(&rp, 100, "Waiting for buffer IO").count, 0);
	CHECK_U64(pid_rows(&rp, 100, UNKNOWN).total, 100 * US);
	/* the inner reason stays visible as the path */
	s = rows_of(&rp, task_of(&rp, 100, 0), "fsync", NULL);
	{
		uint32_t r, found = 0;

		for (r = 0; r < rp.nr_subs; r++) {
			unsigned int d = lt_replay_path(&rp, rp.subs[r].path, path, 4);

			if (d == 2 && !strcmp(lt_replay_str(&rp, path[0]), "fsync") &&
			    !strcmp(lt_replay_str(&rp, path[1]),
				    "Waiting for buffer IO"))
				found += rp.subs[r].count;
		}
		CHECK_U64(found, 1);
	}
	CHECK_U64(rp.stats.resync, 0);
	lt_replay_free(&rp);
}

static void test_restore_without_set(void)
{
	const struct lt_ev script[] = {
		/* 200 existed before the trace, inside fsync all along */
		SW(100, 0, 200, BLOCKED, 0),
		WAKE(2100, 200),
		SW(2200, 0, 0, RUNNABLE, 200),
		SW(2300, 0, 200, SLEEP, 0),
		WAKE(3300, 200),
		SW(3300, 0, 0, RUNNABLE, 200),
		RESTORE(3400, 200, "fsync", 0x77),
		/* after the restore: top level */
		SW(3500, 0, 200, BLOCKED, 0),
		WAKE(4000, 200),
		SW(4000, 0, 0, RUNNABLE, 200),
		/* 300 was born in the trace: its stack is known to be empty */
		FORK(4100, 1, 300, "child"),
		SW(4200, 1, 300, BLOCKED, 0),
		WAKE(4700, 300),
		SW(4700, 1, 0, RUNNABLE, 300),
		RESTORE(4800, 300, "bogus", 0x99),
		END
	};
	struct lt_replay_opts o;
	struct lt_replay rp;
	struct sum s;

	lt_test_case = "restore without set";
	opts_default(&o);
	run(&rp, &o, script);
	s = pid_rows(&rp, 200, "fsync");
	CHECK_U64(s.count, 2);
	CHECK_U64(s.total, 3000 * US);
	s = pid_rows(&rp, 200, UNKNOWN);
	CHECK_U64(s.count, 1);
	CHECK_U64(s.total, 500 * US);
	CHECK_U64(pid_rows(&rp, 300, UNKNOWN).total, 500 * US);
	CHECK_U64(pid_rows(&rp, 300, "bogus").count, 0);
	CHECK_U64(rp.stats.unmatched_restore, 2);
	lt_replay_free(&rp);
}

/* Restores without sets, over and over: bounded work, bounded paths. */
static void test_many_unmatched_restores(void)
{
	static const char *const reasons[] = { "A", "B", "C", "D" };
	struct lt_replay_opts o;
	struct lt_replay rp;
	struct lt_ev ev;
	unsigned int i;

	lt_test_case = "many unmatched restores";
	opts_default(&o);
	CHECK(lt_replay_init(&rp, &o) == 0);
	for (i = 0; i < 200; i++) {
		memset(&ev, 0, sizeof(ev));
		ev.ts = (1000 + i * 10) * US;
		ev.kind = LT_EV_SWITCH;
		ev.pid = 42;
		ev.state = LT_STATE_BLOCKED;
		CHECK(lt_replay_feed(&rp, &ev) == 0);
		ev.ts += 5 * US;
		ev.pid = 0;
		ev.pid2 = 42;
		ev.state = LT_STATE_RUNNABLE;
		CHECK(lt_replay_feed(&rp, &ev) == 0);
		memset(&ev, 0, sizeof(ev));
		ev.ts = (1000 + i * 10 + 6) * US;
		ev.kind = LT_EV_REASON_RESTORE;
		ev.pid = 42;
		ev.str = reasons[(i * 7 + i / 3) % 4];
		ev.str_len = 1;
		ev.cookie = 0xa0;
		CHECK(lt_replay_feed(&rp, &ev) == 0);
	}
	CHECK(lt_replay_finish(&rp) == 0);
	CHECK_U64(rp.stats.unmatched_restore, 200);
	/* only the first LT_OUTER_RESTORES_MAX re-charge; paths stay few */
	CHECK(rp.nr_paths < 100);
	CHECK_U64(rp.tasks[task_of(&rp, 42, 0)].charged_ns, 200 * 5 * US);
	lt_replay_free(&rp);
}

static void test_lost_mid_stack(void)
{
	const struct lt_ev script[] = {
		FORK(0, 1, 100, "app"),
		SET(10, 100, "A", "", 0, 1),
		SET(20, 100, "B", "", 0, 2),
		/* B's restore was lost: restoring A repairs the stack */
		RESTORE(30, 100, "A", 1),
		SW(40, 0, 100, BLOCKED, 0),
		WAKE(140, 100),
		SW(140, 0, 0, RUNNABLE, 100),
		/* A's restore lost, then A set again from the same frame */
		SET(200, 100, "A", "", 0, 1),
		SET(210, 100, "A", "", 0, 1),
		SW(220, 0, 100, BLOCKED, 0),
		WAKE(420, 100),
		SW(420, 0, 0, RUNNABLE, 100),
		RESTORE(430, 100, "A", 1),
		SW(440, 0, 100, BLOCKED, 0),
		WAKE(740, 100),
		SW(740, 0, 0, RUNNABLE, 100),
		/* a ring-buffer overrun while 100 sleeps on CPU 0 */
		SW(800, 0, 100, BLOCKED, 0),
		LOST(900, 0, 25),
		WAKE(1800, 100),
		SW(1850, 0, 0, RUNNABLE, 100),
		END
	};
	struct lt_replay_opts o;
	struct lt_replay rp;

	lt_test_case = "lost events mid-stack";
	opts_default(&o);
	run(&rp, &o, script);
	CHECK_U64(pid_rows(&rp, 100, UNKNOWN).count, 2);
	CHECK_U64(pid_rows(&rp, 100, UNKNOWN).total, 400 * US);
	CHECK_U64(pid_rows(&rp, 100, "A").count, 1);
	CHECK_U64(pid_rows(&rp, 100, "A").total, 200 * US);
	CHECK_U64(pid_rows(&rp, 100, "B").count, 0);
	CHECK_U64(rp.stats.resync, 2);
	/* the wait across the overrun is not charged, only counted */
	CHECK_U64(rp.stats.discarded_lost, 1);
	CHECK_U64(rp.stats.lost_events, 25);
	CHECK(rp.stats.nr_cpus_lost == 1 && rp.stats.lost_per_cpu[0] == 25);
	/*
	 * the wakeup after the gap is in the trace, and the wait for a CPU
	 * it began (1800..1850): the blocked part before it is not
	 */
	CHECK_U64(pid_rows(&rp, 100, SCHED).total, 50 * US);
	lt_replay_free(&rp);
}

static void test_cutoff(void)
{
	const struct lt_ev script[] = {
		FORK(0, 1, 100, "app"),
		SW(0, 0, 100, SLEEP, 0),	/* 4 ms S: charged */
		WAKE(4000, 100),
		SW(4000, 0, 0, RUNNABLE, 100),
		SW(5000, 0, 100, SLEEP, 0),	/* 6 ms S: user requested */
		WAKE(11000, 100),
		SW(11000, 0, 0, RUNNABLE, 100),
		SW(12000, 0, 100, BLOCKED, 0),	/* 20 ms D: charged */
		WAKE(32000, 100),
		SW(32000, 0, 0, RUNNABLE, 100),
		SW(33000, 0, 100, IDLE, 0),	/* 9 ms I: idle, like S */
		WAKE(42000, 100),
		SW(42000, 0, 0, RUNNABLE, 100),
		END
	};
	struct lt_replay_opts o;
	struct lt_replay rp;

	lt_test_case = "5 ms cut-off";
	opts_default(&o);
	run(&rp, &o, script);
	CHECK_U64(pid_rows(&rp, 100, UNKNOWN).count, 2);
	CHECK_U64(pid_rows(&rp, 100, UNKNOWN).total, 24000 * US);
	CHECK_U64(rp.stats.dropped_interruptible, 2);
	CHECK_U64(rp.stats.dropped_interruptible_ns, 15000 * US);
	lt_replay_free(&rp);

	lt_test_case = "cut-off off";
	o.sleep_cutoff_ns = 0;
	run(&rp, &o, script);
	CHECK_U64(pid_rows(&rp, 100, UNKNOWN).count, 4);
	CHECK_U64(pid_rows(&rp, 100, UNKNOWN).total, 39000 * US);
	CHECK_U64(rp.stats.dropped_interruptible, 0);
	lt_replay_free(&rp);
}

static void test_maxtime(void)
{
	const struct lt_ev script[] = {
		FORK(0, 1, 100, "app"),
		SET(10, 100, "Waiting for event (select)", "", 5000, 1),
		SW(20, 0, 100, BLOCKED, 0),	/* 6 ms > maxtime 5 ms */
		WAKE(6020, 100),
		SW(6020, 0, 0, RUNNABLE, 100),
		SW(6100, 0, 100, BLOCKED, 0),	/* 4 ms */
		WAKE(10100, 100),
		SW(10100, 0, 0, RUNNABLE, 100),
		RESTORE(10200, 100, "Waiting for event (select)", 1),
		END
	};
	struct lt_replay_opts o;
	struct lt_replay rp;

	lt_test_case = "maxtime";
	opts_default(&o);
	run(&rp, &o, script);
	CHECK_U64(pid_rows(&rp, 100, "Waiting for event (select)").count, 1);
	CHECK_U64(pid_rows(&rp, 100, "Waiting for event (select)").total, 4000 * US);
	CHECK_U64(rp.stats.dropped_maxtime, 1);
	lt_replay_free(&rp);

	lt_test_case = "maxtime ignored";
	o.honour_maxtime = false;
	run(&rp, &o, script);
	CHECK_U64(pid_rows(&rp, 100, "Waiting for event (select)").count, 2);
	CHECK_U64(rp.stats.dropped_maxtime, 0);
	lt_replay_free(&rp);
}

static void test_param(void)
{
	const struct lt_ev script[] = {
		FORK(0, 1, 100, "app"),
		SET(10, 100, "Opening file", "/etc/passwd", 0, 1),
		SW(20, 0, 100, BLOCKED, 0),
		WAKE(320, 100),
		SW(320, 0, 0, RUNNABLE, 100),
		RESTORE(330, 100, "Opening file", 1),
		SET(340, 100, "Opening file", "/tmp/x", 0, 1),
		SW(350, 0, 100, BLOCKED, 0),
		WAKE(450, 100),
		SW(450, 0, 0, RUNNABLE, 100),
		SW(460, 0, 100, BLOCKED, 0),
		WAKE(560, 100),
		SW(560, 0, 0, RUNNABLE, 100),
		RESTORE(570, 100, "Opening file", 1),
		END
	};
	struct lt_replay_opts o;
	struct lt_replay rp;
	struct sum a, b;

	lt_test_case = "_param argument";
	opts_default(&o);
	run(&rp, &o, script);
	a = rows_of(&rp, task_of(&rp, 100, 0), "Opening file", "/etc/passwd");
	b = rows_of(&rp, task_of(&rp, 100, 0), "Opening file", "/tmp/x");
	CHECK_U64(a.count, 1);
	CHECK_U64(a.total, 300 * US);
	CHECK_U64(b.count, 2);
	CHECK_U64(b.total, 200 * US);
	lt_replay_free(&rp);
}

static void test_stat_and_switch(void)
{
	const struct lt_ev script[] = {
		FORK(0, 1, 100, "app"),
		SW(1000, 0, 100, SLEEP, 0),
		/* the switch-out is in the trace: it, not the kernel's delay */
		STAT_S(3000, 100, 1900),
		WAKE(3000, 100),
		SW(3100, 0, 0, RUNNABLE, 100),
		SW(4000, 0, 100, BLOCKED, 0),
		STAT_D(7000, 100, 3000),
		WAKE(7010, 100),
		SW(7200, 0, 0, RUNNABLE, 100),
		/* 400 slept before the trace began: the kernel saw it all */
		STAT_D(8000, 400, 2500),
		WAKE(8000, 400),
		SW(8100, 1, 0, RUNNABLE, 400),
		/* the switch-out and the wakeup, not the delay */
		FORK(8500, 1, 500, "d"),
		SW(8500, 0, 0, RUNNABLE, 500),
		SW(8600, 0, 500, BLOCKED, 0),
		WAKE(8700, 500),
		SW(8800, 0, 0, RUNNABLE, 500),
		SW(9000, 0, 500, BLOCKED, 0),
		STAT_D(9500, 500, 2000),
		END
	};
	struct lt_replay_opts o;
	struct lt_replay rp;

	lt_test_case = "sched_stat and sched_switch";
	opts_default(&o);
	run(&rp, &o, script);
	/* switch-out -> wakeup, exactly: 1000..3000, 4000..7010 */
	CHECK_U64(pid_rows(&rp, 100, UNKNOWN).count, 2);
	CHECK_U64(pid_rows(&rp, 100, UNKNOWN).total, 5010 * US);
	/* run-queue waits start at the wakeup */
	CHECK_U64(pid_rows(&rp, 100, SCHED).count, 2);
	CHECK_U64(pid_rows(&rp, 100, SCHED).total, 290 * US);
	CHECK_U64(pid_rows(&rp, 400, UNKNOWN).total, 2500 * US);
	CHECK_U64(pid_rows(&rp, 400, SCHED).total, 100 * US);
	/* its last wait: the stat, but no wakeup before the end */
	CHECK_U64(pid_rows(&rp, 500, UNKNOWN).total, 100 * US);
	CHECK_U64(rp.stats.unfinished, 1);
	CHECK_U64(rp.stats.began_before_trace, 0);
	lt_replay_free(&rp);
}

static void test_trace_edges(void)
{
	const struct lt_ev script[] = {
		/* 300 slept since before the trace: no start, not charged */
		WAKE(1000, 300),
		/* the kernel measured one from before the trace: not charged */
		STAT_D(1100, 302, 500),
		SW(1200, 0, 0, RUNNABLE, 300),
		SW(1300, 0, 300, BLOCKED, 0),
		WAKE(1500, 300),
		SW(1500, 0, 0, RUNNABLE, 300),
		/* still blocked when the trace ends */
		SW(5000, 0, 300, BLOCKED, 0),
		/* woken but never ran again: the wait still ended */
		SW(5100, 1, 301, BLOCKED, 0),
		WAKE(5400, 301),
		END
	};
	struct lt_replay_opts o;
	struct lt_replay rp;

	lt_test_case = "trace start and end";
	opts_default(&o);
	run(&rp, &o, script);
	CHECK_U64(rp.stats.began_before_trace, 2);
	CHECK_U64(pid_rows(&rp, 302, UNKNOWN).count, 0);
	/* 300 blocked, 301 and 302 waiting for a CPU at the end */
	CHECK_U64(rp.stats.unfinished, 3);
	CHECK_U64(pid_rows(&rp, 300, UNKNOWN).count, 1);
	CHECK_U64(pid_rows(&rp, 300, UNKNOWN).total, 200 * US);
	/*
	 * the first wakeup ended a wait we never saw start; the wait for a
	 * CPU after it is whole in the trace
	 */
	CHECK_U64(pid_rows(&rp, 300, SCHED).count, 2);
	CHECK_U64(pid_rows(&rp, 300, SCHED).total, 200 * US);
	CHECK_U64(pid_rows(&rp, 301, UNKNOWN).total, 300 * US);
	lt_replay_free(&rp);
}

static void test_pid_reuse_and_exec(void)
{
	const struct lt_ev script[] = {
		FORK(0, 1, 500, "first"),
		SW(10, 0, 500, BLOCKED, 0),
		WAKE(110, 500),
		SWN(110, 0, 0, RUNNABLE, 500, "swapper/0", "first"),
		EXIT(200, 500),
		SWN(210, 0, 500, OTHER, 0, "first", "swapper/0"),
		/* the pid comes back as a new task */
		FORK(300, 1, 500, "second"),
		SW(310, 0, 500, BLOCKED, 0),
		WAKE(610, 500),
		SWN(610, 0, 0, RUNNABLE, 500, "swapper/0", "second"),
		/* exec renames, rows stay with the task */
		FORK(700, 1, 600, "sh"),
		SWN(710, 0, 600, BLOCKED, 0, "sh", "swapper/0"),
		WAKE(810, 600),
		SWN(810, 0, 0, RUNNABLE, 600, "swapper/0", "sh"),
		EXEC(820, 600, "/usr/bin/ls"),
		SWN(830, 0, 600, BLOCKED, 0, "ls", "swapper/0"),
		WAKE(1030, 600),
		SWN(1030, 0, 0, RUNNABLE, 600, "swapper/0", "ls"),
		END
	};
	struct lt_replay_opts o;
	struct lt_replay rp;
	uint32_t a, b;

	lt_test_case = "pid reuse and exec";
	opts_default(&o);
	run(&rp, &o, script);
	a = task_of(&rp, 500, 0);
	b = task_of(&rp, 500, 1);
	CHECK(a != LT_NO_TASK && b != LT_NO_TASK && a != b);
	if (a != LT_NO_TASK && b != LT_NO_TASK) {
		CHECK_STR(rp.tasks[a].comm, "first");
		CHECK_STR(rp.tasks[b].comm, "second");
		CHECK_U64(rows_of(&rp, a, UNKNOWN, NULL).total, 100 * US);
		CHECK_U64(rows_of(&rp, b, UNKNOWN, NULL).total, 300 * US);
	}
	CHECK(task_of(&rp, 500, 2) == LT_NO_TASK);
	CHECK(task_of(&rp, 600, 1) == LT_NO_TASK);
	CHECK_STR(lt_replay_task_comm(&rp, task_of(&rp, 600, 0)), "ls");
	CHECK_U64(pid_rows(&rp, 600, UNKNOWN).count, 2);
	CHECK_U64(pid_rows(&rp, 600, UNKNOWN).total, 300 * US);
	lt_replay_free(&rp);
}

static void test_wakeup_sources(void)
{
	const struct lt_ev script[] = {
		/* only sched_waking */
		FORK(0, 1, 100, "a"),
		FORK(0, 1, 101, "b"),
		SW(0, 0, 100, SLEEP, 0),
		/* no wakeup at all: the wait runs to the switch-in */
		SW(100, 1, 101, BLOCKED, 0),
		WAKING(2000, 100),
		SW(2500, 0, 0, RUNNABLE, 100),
		SW(3100, 1, 0, RUNNABLE, 101),
		/* preempted: runnable, but not a wakeup's wait (rule 6) */
		SW(3200, 1, 101, RUNNABLE, 0),
		WAKE(3300, 101),	/* a wakeup of a queued task ends nothing */
		SW(3500, 1, 0, RUNNABLE, 101),
		/* a new task's first wait for a CPU is not charged either */
		FORK(3600, 1, 102, "c"),
		{ .kind = LT_EV_WAKEUP_NEW, .ts = 3600 * US, .pid = 102 },
		SW(3900, 1, 0, RUNNABLE, 102),
		END
	};
	struct lt_replay_opts o;
	struct lt_replay rp;

	lt_test_case = "waking only, no wakeup, preemption, new task";
	opts_default(&o);
	run(&rp, &o, script);
	CHECK_U64(pid_rows(&rp, 100, UNKNOWN).total, 2000 * US);
	CHECK_U64(pid_rows(&rp, 100, SCHED).total, 500 * US);
	CHECK_U64(pid_rows(&rp, 101, UNKNOWN).total, 3000 * US);
	CHECK_U64(pid_rows(&rp, 101, SCHED).count, 0);
	CHECK_U64(pid_rows(&rp, 102, SCHED).count, 0);
	CHECK_U64(rp.stats.began_before_trace, 0);
	lt_replay_free(&rp);
}

static void test_windows_and_range(void)
{
	const struct lt_ev script[] = {
		FORK(0, 1, 100, "a"),
		SW(100000, 0, 100, BLOCKED, 0),
		WAKE(500000, 100),		/* ends at 0.5 s */
		SW(500000, 0, 0, RUNNABLE, 100),
		SW(1200000, 0, 100, BLOCKED, 0),
		WAKE(1500000, 100),		/* ends at 1.5 s */
		SW(1500000, 0, 0, RUNNABLE, 100),
		SW(2100000, 0, 100, BLOCKED, 0),
		WAKE(2600000, 100),		/* ends at 2.6 s */
		SW(2600000, 0, 0, RUNNABLE, 100),
		END
	};
	const struct lt_ev sleeps[] = {
		FORK(0, 1, 100, "a"),
		WAKE(50000, 101),		/* asleep since before the trace */
		SW(100000, 0, 100, SLEEP, 0),
		WAKE(500000, 100),
		SW(500000, 0, 0, RUNNABLE, 100),
		SW(1200000, 0, 100, SLEEP, 0),
		WAKE(1500000, 100),
		SW(1500000, 0, 0, RUNNABLE, 100),
		SW(2100000, 0, 100, SLEEP, 0),
		WAKE(2600000, 100),
		SW(2600000, 0, 0, RUNNABLE, 100),
		END
	};
	struct lt_replay_opts o;
	struct lt_replay rp;
	uint32_t r, per_window[4] = { 0 };

	lt_test_case = "windows";
	opts_default(&o);
	o.window_ns = 1000000 * US;
	run(&rp, &o, script);
	CHECK_U64(rp.nr_windows, 3);
	for (r = 0; r < rp.nr_rows; r++)
		if (rp.rows[r].count && rp.rows[r].window < 4 &&
		    rp.rows[r].cause == rp.cause_unknown)
			per_window[rp.rows[r].window] += (uint32_t)rp.rows[r].count;
	CHECK_U64(per_window[0], 1);
	CHECK_U64(per_window[1], 1);
	CHECK_U64(per_window[2], 1);
	lt_replay_free(&rp);

	lt_test_case = "from/to";
	opts_default(&o);
	o.from_ns = 1000000 * US;
	o.to_ns = 2000000 * US;
	run(&rp, &o, script);
	CHECK_U64(pid_rows(&rp, 100, UNKNOWN).count, 1);
	CHECK_U64(pid_rows(&rp, 100, UNKNOWN).total, 300000 * US);
	CHECK_U64(rp.stats.outside_range, 4);	/* 2 waits, 2 run-queue waits */
	CHECK(lt_replay_past_end(&rp, 2000001 * US));
	CHECK(!lt_replay_past_end(&rp, 1999999 * US));
	lt_replay_free(&rp);

	/* the same waits, interruptible and over the cut-off: dropped */
	lt_test_case = "from/to: dropped counts the range only";
	opts_default(&o);
	o.from_ns = 1000000 * US;
	o.to_ns = 2000000 * US;
	run(&rp, &o, sleeps);
	CHECK_U64(pid_rows(&rp, 100, UNKNOWN).count, 0);
	CHECK_U64(rp.stats.dropped_interruptible, 1);
	CHECK_U64(rp.stats.dropped_interruptible_ns, 300000 * US);
	/* 101's start was not seen: before --from, not counted */
	CHECK_U64(rp.stats.began_before_trace, 0);
	lt_replay_free(&rp);
	opts_default(&o);
	run(&rp, &o, sleeps);
	CHECK_U64(rp.stats.dropped_interruptible, 3);
	CHECK_U64(rp.stats.began_before_trace, 1);
	lt_replay_free(&rp);
}

static void test_threads_kthreads_stacks(void)
{
	static const uint64_t user_stack[] = { 7, 8, 9 };
	static const uint64_t kthread_stack[] = { 5, 99 };
	const struct lt_ev script[] = {
		/* a thread of process 700 */
		FORK(0, 1, 700, "server"),
		NEWTASK(10, 700, 701, LT_CLONE_THREAD, "server"),
		FORK(10, 700, 701, "server"),
		/* a child process, not a thread */
		NEWTASK(20, 700, 702, 0, "server"),
		FORK(20, 700, 702, "server"),
		/* children of kthreadd are kernel threads */
		FORK(30, 2, 800, "kthreaded"),
		SWN(100, 0, 701, BLOCKED, 0, "server", "swapper/0"),
		STACK(100, 0, 701, user_stack),
		WAKE(400, 701),
		SW(400, 0, 0, RUNNABLE, 701),
		SWN(500, 1, 900, BLOCKED, 0, "worker", "swapper/1"),
		STACK(500, 1, 900, kthread_stack),
		WAKE(600, 900),
		SW(600, 1, 0, RUNNABLE, 900),
		SWN(700, 1, 901, BLOCKED, 0, "kworker/1:2", "swapper/1"),
		WAKE(800, 901),
		SW(800, 1, 0, RUNNABLE, 901),
		END
	};
	struct lt_replay_opts o;
	struct lt_replay rp;

	lt_test_case = "threads, kernel threads, stacks";
	opts_default(&o);
	o.resolve = resolve;
	run(&rp, &o, script);
	CHECK(rp.tasks[task_of(&rp, 701, 0)].leader == task_of(&rp, 700, 0));
	CHECK(rp.tasks[task_of(&rp, 702, 0)].leader == task_of(&rp, 702, 0));
	CHECK(!lt_replay_task_is_kthread(&rp, task_of(&rp, 700, 0)));
	CHECK(lt_replay_task_is_kthread(&rp, task_of(&rp, 800, 0)));
	CHECK(lt_replay_task_is_kthread(&rp, task_of(&rp, 900, 0)));
	CHECK(lt_replay_task_is_kthread(&rp, task_of(&rp, 901, 0)));
	/* the switch-out stack names the cause */
	CHECK_U64(pid_rows(&rp, 701, "[f7]").total, 300 * US);
	CHECK_U64(pid_rows(&rp, 901, UNKNOWN).total, 100 * US);
	lt_replay_free(&rp);
}

/*
 * Pooled stacks: an id stands for its frames; ids of equal frames (the
 * pool past its limit, or a huge id) end in the one stack all the same.
 */
static void test_pooled_stacks(void)
{
	static const uint64_t a[] = { 7, 8, 9 }, a2[] = { 7, 8, 9 };
	static const uint64_t b[] = { 3, 4 };
	const struct lt_ev script[] = {
		FORK(0, 1, 701, "server"),
		SWN(100, 0, 701, BLOCKED, 0, "server", "swapper/0"),
		STACKP(100, 0, 701, a, 5),
		WAKE(200, 701),
		SW(200, 0, 0, RUNNABLE, 701),
		SW(300, 0, 701, BLOCKED, 0),
		STACKP(300, 0, 701, a2, 5),
		WAKE(310, 701),
		SW(310, 0, 0, RUNNABLE, 701),
		SW(400, 0, 701, BLOCKED, 0),
		STACKP(400, 0, 701, a2, 9),
		WAKE(420, 701),
		SW(420, 0, 0, RUNNABLE, 701),
		SW(500, 0, 701, BLOCKED, 0),
		STACK(500, 0, 701, a),
		WAKE(540, 701),
		SW(540, 0, 0, RUNNABLE, 701),
		SW(600, 0, 701, BLOCKED, 0),
		STACKP(600, 0, 701, a, 1ULL << 40),
		WAKE(680, 701),
		SW(680, 0, 0, RUNNABLE, 701),
		SW(700, 0, 701, BLOCKED, 0),
		STACKP(700, 0, 701, b, 2),
		WAKE(1700, 701),
		SW(1700, 0, 0, RUNNABLE, 701),
		END
	};
	struct lt_replay_opts o;
	struct lt_replay rp;
	struct sum s;

	lt_test_case = "pooled stacks";
	opts_default(&o);
	o.resolve = resolve;
	run(&rp, &o, script);
	s = pid_rows(&rp, 701, "[f7]");
	CHECK_U64(s.count, 5);
	CHECK_U64(s.total, (100 + 10 + 20 + 40 + 80) * US);
	CHECK_U64(pid_rows(&rp, 701, "[f3]").total, 1000 * US);
	CHECK_U64(rp.nr_stacks, 3);	/* id 0 is "no stack" */
	CHECK(rp.cap_pooled > 9 && rp.pooled[5] && rp.pooled[5] == rp.pooled[9]);
	CHECK(rp.pooled[2] && rp.pooled[2] != rp.pooled[5]);
	lt_replay_free(&rp);
}

/* The resolver, counting its calls. */
static unsigned int nr_resolved;

static int resolve_counted(void *ctx, const uint64_t *frames,
			   unsigned int nr, struct lt_stack_info *out)
{
	nr_resolved++;
	return resolve(ctx, frames, nr, out);
}

/*
 * Stacks are resolved once each, when the replay finishes (symbols may
 * still be loading until then); stacks of one cause add up, and any stack
 * of a task, not only its first, shows it is a kernel thread.
 */
static void test_stacks_resolved_at_finish(void)
{
	static const uint64_t a[] = { 7, 1 }, b[] = { 7, 2 }, c[] = { 3 };
	static const uint64_t truncated[] = { 5 }, kthread[] = { 5, 99 };
	const struct lt_ev script[] = {
		FORK(0, 1, 701, "server"),
		SWN(100, 0, 701, BLOCKED, 0, "server", "swapper/0"),
		STACK(100, 0, 701, a),
		WAKE(400, 701),
		SW(400, 0, 0, RUNNABLE, 701),
		SW(500, 0, 701, BLOCKED, 0),
		STACK(500, 0, 701, b),
		WAKE(550, 701),
		SW(550, 0, 0, RUNNABLE, 701),
		SW(600, 0, 701, BLOCKED, 0),
		STACK(600, 0, 701, a),
		WAKE(610, 701),
		SW(610, 0, 0, RUNNABLE, 701),
		SW(700, 0, 701, BLOCKED, 0),
		STACK(700, 0, 701, c),
		WAKE(1700, 701),
		SW(1700, 0, 0, RUNNABLE, 701),
		/* a task seen mid-life: its first stack says nothing */
		SWN(2000, 1, 900, BLOCKED, 0, "worker", "swapper/1"),
		STACK(2000, 1, 900, truncated),
		WAKE(2100, 900),
		SW(2100, 1, 0, RUNNABLE, 900),
		SW(2200, 1, 900, BLOCKED, 0),
		STACK(2200, 1, 900, kthread),
		WAKE(2300, 900),
		SW(2300, 1, 0, RUNNABLE, 900),
		SW(2400, 1, 900, BLOCKED, 0),
		STACK(2400, 1, 900, truncated),
		WAKE(2500, 900),
		SW(2500, 1, 0, RUNNABLE, 900),
		END
	};
	struct lt_replay_opts o;
	struct lt_replay rp;
	struct sum s;

	lt_test_case = "stacks resolved at finish";
	opts_default(&o);
	o.resolve = resolve_counted;
	nr_resolved = 0;
	feed(&rp, &o, script);
	CHECK_U64(nr_resolved, 0);
	CHECK(lt_replay_finish(&rp) == 0);
	CHECK_U64(nr_resolved, 5);
	CHECK(lt_replay_finish(&rp) == 0);
	CHECK_U64(nr_resolved, 5);
	/* a and b are both "[f7]": 300 + 50 + 10 us */
	s = pid_rows(&rp, 701, "[f7]");
	CHECK_U64(s.count, 3);
	CHECK_U64(s.total, 360 * US);
	CHECK_U64(s.max, 300 * US);
	CHECK_U64(pid_rows(&rp, 701, "[f3]").total, 1000 * US);
	CHECK_U64(pid_rows(&rp, 900, "[f5]").total, 300 * US);
	CHECK(!lt_replay_task_is_kthread(&rp, task_of(&rp, 701, 0)));
	CHECK(lt_replay_task_is_kthread(&rp, task_of(&rp, 900, 0)));
	lt_replay_free(&rp);
}

static void test_missing_switch_in(void)
{
	const struct lt_ev script[] = {
		FORK(0, 1, 100, "a"),
		{ .kind = LT_EV_SWITCH, .ts = 100 * US, .cpu = 1, .current = 100,
		  .pid = 100, .state = LT_STATE_SLEEP, .pid2 = 0 },
		WAKE(1100, 100),
		/* swapper -> 100 was not recorded; 100 is seen running */
		{ .kind = LT_EV_OTHER, .ts = 1300 * US, .cpu = 1, .current = 100 },
		{ .kind = LT_EV_SWITCH, .ts = 1400 * US, .cpu = 1, .current = 100,
		  .pid = 100, .state = LT_STATE_SLEEP, .pid2 = 0 },
		WAKE(2400, 100),
		/* again, and this time its next switch-out is the first sign */
		{ .kind = LT_EV_SWITCH, .ts = 2600 * US, .cpu = 0, .current = 100,
		  .pid = 100, .state = LT_STATE_BLOCKED, .pid2 = 0 },
		WAKE(2700, 100),
		{ .kind = LT_EV_SWITCH, .ts = 2800 * US, .cpu = 0, .current = 0,
		  .pid = 0, .state = LT_STATE_RUNNABLE, .pid2 = 100 },
		/* no wakeup, no switch-in: the whole wait has no known end */
		{ .kind = LT_EV_SWITCH, .ts = 2900 * US, .cpu = 0, .current = 100,
		  .pid = 100, .state = LT_STATE_SLEEP, .pid2 = 0 },
		{ .kind = LT_EV_OTHER, .ts = 3500 * US, .cpu = 0, .current = 100 },
		END
	};
	struct lt_replay_opts o;
	struct lt_replay rp;

	lt_test_case = "missing switch-in";
	opts_default(&o);
	run(&rp, &o, script);
	CHECK_U64(pid_rows(&rp, 100, UNKNOWN).count, 3);
	CHECK_U64(pid_rows(&rp, 100, UNKNOWN).total, 2100 * US);
	/*
	 * Run-queue waits whose switch-in is missing are not charged: the
	 * task ran for an unknown part of them (1100-1300 and 2400-2600);
	 * only 2700-2800, which ends at a recorded switch-in, counts.
	 */
	CHECK_U64(pid_rows(&rp, 100, SCHED).count, 1);
	CHECK_U64(pid_rows(&rp, 100, SCHED).total, 100 * US);
	CHECK_U64(rp.stats.implicit_switch_in, 3);
	CHECK_U64(rp.stats.no_switch_in, 3);
	CHECK_U64(rp.stats.cpu_waits_no_switch_in, 2);
	CHECK_U64(rp.stats.inconsistent, 0);
	lt_replay_free(&rp);
}

/*
 * Rule 6 charges the wait for a CPU after a wakeup; one after a
 * preemption or a fork is not latency, but is counted, not lost.
 */
static void test_unwoken_cpu_waits(void)
{
	const struct lt_ev script[] = {
		FORK(0, 1, 100, "a"),
		SW(10, 0, 1, RUNNABLE, 100),	/* 1 preempted */
		SW(40, 0, 100, RUNNABLE, 1),	/* 1 runs: 30 us; 100 preempted */
		{ .kind = LT_EV_WAKEUP_NEW, .ts = 50 * US, .pid = 200 },
		SW(70, 0, 1, SLEEP, 200),	/* 200 runs: 20 us */
		WAKE(80, 1),
		SW(100, 0, 200, RUNNABLE, 1),	/* 1 runs: charged, 20 us */
		SW(150, 0, 1, SLEEP, 100),	/* 100 runs: 110 us */
		END
	};
	struct lt_replay_opts o;
	struct lt_replay rp;

	lt_test_case = "cpu waits after a preemption or a fork";
	opts_default(&o);
	run(&rp, &o, script);
	CHECK_U64(rp.stats.cpu_waits_unwoken, 3);
	CHECK_U64(rp.stats.cpu_waits_unwoken_ns, 160 * US);
	CHECK_U64(pid_rows(&rp, 1, SCHED).count, 1);
	CHECK_U64(pid_rows(&rp, 1, SCHED).total, 20 * US);
	CHECK_U64(pid_rows(&rp, 100, SCHED).count, 0);
	CHECK_U64(pid_rows(&rp, 200, SCHED).count, 0);
	lt_replay_free(&rp);
}

static void test_time_backwards(void)
{
	const struct lt_ev script[] = {
		FORK(0, 1, 100, "a"),
		SW(1000, 0, 100, BLOCKED, 0),
		WAKE(800, 100),			/* earlier than the switch */
		SW(1500, 0, 0, RUNNABLE, 100),
		SW(1600, 0, 100, BLOCKED, 0),
		WAKE(2600, 100),
		SW(2000, 0, 0, RUNNABLE, 100),	/* earlier than its wakeup */
		END
	};
	struct lt_replay_opts o;
	struct lt_replay rp;

	lt_test_case = "time going backwards";
	opts_default(&o);
	run(&rp, &o, script);
	CHECK_U64(rp.stats.unordered, 2);
	/* read as "now": a zero wait, then 1000 us with no cpu wait */
	CHECK_U64(pid_rows(&rp, 100, UNKNOWN).count, 2);
	CHECK_U64(pid_rows(&rp, 100, UNKNOWN).total, 1000 * US);
	CHECK_U64(pid_rows(&rp, 100, SCHED).total, 500 * US);
	CHECK_U64(rp.stats.negative, 0);
	lt_replay_free(&rp);
}

/*
 * CPU 1's oldest pages were overwritten: its data begins at 300, CPU 0's
 * at 100.  Before 300 a task may have run on CPU 1 unseen, so no wait
 * begun before then is charged; one begun after is.
 */
static void test_overwritten_start(void)
{
	const struct lt_ev script[] = {
		/* the pipe feeds a loss where its gap begins: first of all */
		LOST(300, 1, 7),
		SWN(100, 0, 100, SLEEP, 0, "a", "swapper/0"),
		WAKE(200, 100),
		SW(210, 0, 0, RUNNABLE, 100),		/* 100+10: dropped */
		SW(250, 0, 100, BLOCKED, 0),
		{ .kind = LT_EV_OTHER, .ts = 300 * US, .cpu = 1, .current = 7 },
		WAKE(600, 100),				/* 350: dropped */
		SW(600, 0, 0, RUNNABLE, 100),
		SW(700, 0, 100, BLOCKED, 0),
		WAKE(900, 100),				/* charged */
		SW(950, 0, 0, RUNNABLE, 100),		/* charged */
		END
	};
	struct lt_replay_opts o;
	struct lt_replay rp;

	lt_test_case = "overwritten start";
	opts_default(&o);
	run(&rp, &o, script);
	CHECK_U64(rp.stats.complete_from, 300 * US);
	CHECK_U64(rp.stats.gaps, 0);
	CHECK_U64(rp.stats.dropped_incomplete, 3);
	CHECK_U64(rp.stats.dropped_incomplete_ns, (100 + 10 + 350) * US);
	CHECK_U64(rp.stats.dropped_gap, 0);
	CHECK_U64(pid_rows(&rp, 100, UNKNOWN).count, 1);
	CHECK_U64(pid_rows(&rp, 100, UNKNOWN).total, 200 * US);
	CHECK_U64(pid_rows(&rp, 100, SCHED).total, 50 * US);
	CHECK_U64(rp.stats.lost_events, 7);
	lt_replay_free(&rp);
}

/*
 * A gap of lost events on CPU 1 from 700 (its last record) to 800 (its
 * next): a wait ending inside it, or begun before it ended, is dropped.
 */
static void test_gap_mid_trace(void)
{
	const struct lt_ev script[] = {
		FORK(0, 1, 100, "a"),
		{ .kind = LT_EV_OTHER, .ts = 10 * US, .cpu = 1, .current = 7 },
		SW(650, 0, 100, BLOCKED, 0),
		{ .kind = LT_EV_OTHER, .ts = 700 * US, .cpu = 1, .current = 7 },
		LOST(800, 1, 3),			/* fed at 700 */
		WAKE(750, 100),				/* 100: in the gap */
		SW(760, 0, 0, RUNNABLE, 100),		/* 10: in the gap */
		SW(780, 0, 100, BLOCKED, 0),
		{ .kind = LT_EV_OTHER, .ts = 800 * US, .cpu = 1, .current = 7 },
		WAKE(900, 100),				/* 120: begun in it */
		SW(900, 0, 0, RUNNABLE, 100),
		SW(1000, 0, 100, BLOCKED, 0),
		WAKE(1100, 100),			/* 100: charged */
		SW(1100, 0, 0, RUNNABLE, 100),
		END
	};
	struct lt_replay_opts o;
	struct lt_replay rp;

	lt_test_case = "gap of lost events";
	opts_default(&o);
	run(&rp, &o, script);
	CHECK_U64(rp.stats.complete_from, 0);
	CHECK_U64(rp.stats.gaps, 1);
	CHECK_U64(rp.stats.dropped_incomplete, 0);
	CHECK_U64(rp.stats.dropped_gap, 3);
	CHECK_U64(rp.stats.dropped_gap_ns, (100 + 10 + 120) * US);
	CHECK_U64(pid_rows(&rp, 100, UNKNOWN).count, 1);
	CHECK_U64(pid_rows(&rp, 100, UNKNOWN).total, 100 * US);
	lt_replay_free(&rp);
}

/*
 * Woken twice with no switch-in between: it ran and slept unseen.  The
 * sleep up to the first wakeup was seen whole; the wait for a CPU runs
 * from the second.  A stat event before its wakeup is no second wakeup.
 */
static void test_second_wakeup(void)
{
	const struct lt_ev script[] = {
		FORK(0, 1, 100, "a"),
		FORK(0, 1, 200, "b"),
		SW(100, 0, 100, BLOCKED, 0),
		WAKE(200, 100),
		WAKE(300, 100),
		SW(350, 0, 0, RUNNABLE, 100),
		SW(400, 0, 100, BLOCKED, 0),
		STAT_D(500, 100, 100),
		WAKE(500, 100),
		SW(520, 0, 0, RUNNABLE, 100),
		END
	};
	struct lt_replay_opts o;
	struct lt_replay rp;

	lt_test_case = "woken twice";
	opts_default(&o);
	run(&rp, &o, script);
	CHECK_U64(rp.stats.inconsistent, 1);
	CHECK_U64(pid_rows(&rp, 100, UNKNOWN).count, 2);
	CHECK_U64(pid_rows(&rp, 100, UNKNOWN).total, (100 + 100) * US);
	CHECK_U64(pid_rows(&rp, 100, SCHED).count, 2);
	CHECK_U64(pid_rows(&rp, 100, SCHED).total, (50 + 20) * US);
	lt_replay_free(&rp);
}

/*
 * A kernel delay begins no earlier than its task's switch-out; a task
 * whose first event is its switch-out, with a delay begun before the
 * trace, is charged from that switch-out.
 */
static void test_stat_from_switch_out(void)
{
	const struct lt_ev script[] = {
		{ .kind = LT_EV_OTHER, .ts = 0, .cpu = 0, .current = 7 },
		SW(50, 0, 300, BLOCKED, 0),
		STAT_D(200, 300, 300),			/* 150, from 50 */
		WAKE(200, 300),
		SW(210, 0, 0, RUNNABLE, 300),
		SW(1000, 0, 300, BLOCKED, 0),
		STAT_D(1500, 300, 700),			/* 500, from 1000 */
		WAKE(1500, 300),
		SW(1510, 0, 0, RUNNABLE, 300),
		END
	};
	struct lt_replay_opts o;
	struct lt_replay rp;

	lt_test_case = "stat delay from the switch-out";
	opts_default(&o);
	run(&rp, &o, script);
	CHECK_U64(pid_rows(&rp, 300, UNKNOWN).count, 2);
	CHECK_U64(pid_rows(&rp, 300, UNKNOWN).total, (150 + 500) * US);
	CHECK_U64(pid_rows(&rp, 300, UNKNOWN).max, 500 * US);
	CHECK_U64(rp.stats.began_before_trace, 0);
	lt_replay_free(&rp);

	/* --from between them: the second wait is the same 500 */
	lt_test_case = "stat delay: --from changes no length";
	opts_default(&o);
	o.from_ns = 1200 * US;
	run(&rp, &o, script);
	CHECK_U64(pid_rows(&rp, 300, UNKNOWN).count, 1);
	CHECK_U64(pid_rows(&rp, 300, UNKNOWN).total, 500 * US);
	lt_replay_free(&rp);
}

/*
 * Live mode: the replay is looked at and goes on; old windows go.  Waits
 * of one task end at 0.5, 1.5, 2.5 and 3.5 s (1 s windows, a stack each),
 * then two more after windows 0 and 1 are dropped.
 */
static void test_live_windows(void)
{
	static const uint64_t stack[] = { 7, 8 };
	const struct lt_ev first[] = {
		FORK(0, 1, 100, "a"),
		SW(100000, 0, 100, BLOCKED, 0),
		STACK(100000, 0, 100, stack),
		WAKE(500000, 100),
		SW(500000, 0, 0, RUNNABLE, 100),
		SW(1100000, 0, 100, BLOCKED, 0),
		STACK(1100000, 0, 100, stack),
		WAKE(1500000, 100),
		SW(1500000, 0, 0, RUNNABLE, 100),
		SW(2200000, 0, 100, BLOCKED, 0),
		STACK(2200000, 0, 100, stack),
		WAKE(2500000, 100),
		SW(2500000, 0, 0, RUNNABLE, 100),
		SW(3300000, 0, 100, BLOCKED, 0),
		STACK(3300000, 0, 100, stack),
		WAKE(3500000, 100),
		SW(3500000, 0, 0, RUNNABLE, 100),
		END
	};
	const struct lt_ev later[] = {
		SW(3600000, 0, 100, BLOCKED, 0),
		STACK(3600000, 0, 100, stack),
		WAKE(4000000, 100),			/* 2.0 s from 2 s: window 2 */
		SW(4000000, 0, 0, RUNNABLE, 100),
		SW(4100000, 0, 100, BLOCKED, 0),	/* no stack: Unknown */
		WAKE(4200000, 100),
		SW(4200000, 0, 0, RUNNABLE, 100),
		END
	};
	struct lt_replay_opts o;
	struct lt_replay rp;
	uint64_t per_window[8] = { 0 };
	const struct lt_ev *ev;
	uint32_t r, cause = 0;

	lt_test_case = "live: snapshot, then old windows dropped";
	opts_default(&o);
	o.window_ns = 1000000 * US;
	o.resolve = resolve;
	feed(&rp, &o, first);
	CHECK(lt_replay_snapshot(&rp) == 0);
	/* the stack has its cause now, the replay still runs */
	CHECK_U64(pid_rows(&rp, 100, "[f7]").count, 4);
	CHECK_U64(pid_rows(&rp, 100, "[f7]").total,
		  (400000 + 400000 + 300000 + 200000) * US);
	CHECK_U64(rp.nr_windows, 4);
	CHECK(lt_replay_drop_windows(&rp, 2) == 0);
	CHECK_U64(rp.nr_windows, 2);
	CHECK_U64(rp.origin_ns, 2000000 * US);
	CHECK_U64(pid_rows(&rp, 100, "[f7]").count, 2);
	CHECK_U64(pid_rows(&rp, 100, "[f7]").total, (300000 + 200000) * US);
	for (ev = later; !(ev->kind == LT_EV_OTHER && ev->pid == -1); ev++)
		CHECK(lt_replay_feed(&rp, ev) == 0);
	CHECK(lt_replay_finish(&rp) == 0);
	/* resolved again: the later wait's row has the same cause */
	CHECK_U64(pid_rows(&rp, 100, "[f7]").count, 3);
	CHECK_U64(pid_rows(&rp, 100, "[f7]").total,
		  (300000 + 200000 + 400000) * US);
	CHECK_U64(pid_rows(&rp, 100, UNKNOWN).count, 1);
	for (r = 0; r < rp.nr_rows; r++)
		if (rp.rows[r].count && rp.rows[r].window < 8 &&
		    rp.rows[r].cause != rp.cause_sched)
			per_window[rp.rows[r].window] += rp.rows[r].count;
	CHECK_U64(per_window[0], 1);	/* ended at 2.5 s */
	CHECK_U64(per_window[1], 1);	/* 3.5 s */
	CHECK_U64(per_window[2], 2);	/* 4.0 and 4.2 s */
	CHECK_U64(rp.nr_windows, 3);
	/* the map finds the rows again: no row is there twice for a key */
	for (r = 0; r < rp.nr_rows; r++)
		if (rp.rows[r].count && rp.rows[r].window == 2 &&
		    rp.rows[r].cause == rp.cause_unknown)
			cause++;
	CHECK_U64(cause, 1);
	lt_replay_free(&rp);
}

/*
 * Lost events commit a task's provisional rows, stack rows too; charged
 * again in the same stack, its provisional row starts from nothing: its
 * stack row must not keep the time it handed over (it did, so the saved
 * report's stacks added up to more than their row).
 */
static void test_commit_then_charge_again(void)
{
	static const uint64_t f[] = { 5, 6 };
	const struct lt_ev script[] = {
		/* 200 existed before the trace: its charges are provisional */
		SW(100, 0, 200, BLOCKED, 0),
		STACK(100, 0, 200, f),
		WAKE(300, 200),
		SW(400, 0, 0, RUNNABLE, 200),
		LOST(500, 0, 1),
		SW(600, 0, 200, BLOCKED, 0),
		STACK(600, 0, 200, f),
		WAKE(900, 200),
		SW(1000, 0, 0, RUNNABLE, 200),
		END
	};
	struct lt_replay_opts o;
	struct lt_replay rp;
	uint64_t rows = 0, subs = 0;
	uint32_t r, s;

	lt_test_case = "commit, then charge again";
	opts_default(&o);
	o.resolve = resolve;
	run(&rp, &o, script);
	/* 200 us, then 300 us, both in stack [f5] */
	CHECK_U64(pid_rows(&rp, 200, "[f5]").count, 2);
	CHECK_U64(pid_rows(&rp, 200, "[f5]").total, 500 * US);
	for (r = 0; r < rp.nr_rows; r++) {
		if (!rp.rows[r].count || rp.rows[r].cause == rp.cause_sched)
			continue;
		rows += rp.rows[r].total_ns;
		for (s = rp.rows[r].first_sub; s != UINT32_MAX; s = rp.subs[s].next)
			if (rp.subs[s].count)
				subs += rp.subs[s].total_ns;
	}
	CHECK_U64(rows, 500 * US);
	CHECK_U64(subs, 500 * US);
	lt_replay_free(&rp);
}

int main(void)
{
	test_derived_basic();
	test_commit_then_charge_again();
	test_nesting();
	test_restore_without_set();
	test_lost_mid_stack();
	test_many_unmatched_restores();
	test_cutoff();
	test_maxtime();
	test_param();
	test_stat_and_switch();
	test_trace_edges();
	test_pid_reuse_and_exec();
	test_wakeup_sources();
	test_windows_and_range();
	test_threads_kthreads_stacks();
	test_pooled_stacks();
	test_stacks_resolved_at_finish();
	test_missing_switch_in();
	test_unwoken_cpu_waits();
	test_time_backwards();
	test_overwritten_start();
	test_gap_mid_trace();
	test_second_wakeup();
	test_stat_from_switch_out();
	test_live_windows();
	return lt_test_done("replay/scripts");
}
