// SPDX-License-Identifier: LGPL-2.1
/*
 * replay.c - the replay state machine (lt-replay.h).
 *
 * A task's life as the trace shows it:
 *
 *   switch-out S/D          wakeup                switch-in
 *   ------+-----------------+---------------------+------>
 *         |<--- blocked --->|<- waiting for cpu ->|
 *         sleep_start       wake_ts               now
 *
 * The blocked part is exactly switch-out -> wakeup where the trace shows
 * both; sched_stat_sleep/blocked's "delay" (the kernel's own measure,
 * arriving just before the wakeup) only fills in what the trace lacks:
 * the start of a wait whose switch-out it did not show.  The blocked time
 * goes to the outermost latencytop reason that was active at switch-out,
 * else to what the switch-out kernel stack says, else to "Unknown reason".
 *
 * Every off-CPU interval lands in one bucket: a stop (T by a signal, t
 * for a tracer) is its own kind, not charged unless asked; a state not
 * known here is counted by that name; a wait for a CPU after a
 * preemption or a fork is counted, not charged (rule 6); one whose
 * switch-in the trace lacks is charged up to the last record that shows
 * its CPU running something else (a lower bound, counted apart).
 *
 * The trace must show every CPU for the whole of a wait: a task may have
 * run on a CPU whose data is missing.  A CPU's oldest pages overwritten
 * (its data begins later than the others') or a gap of lost events drops
 * every wait that began before the gap ended, counted by why.
 *
 * Tasks that existed before the trace began may be inside an annotated
 * region we never saw open.  Their charges stay "provisional" until the
 * end: a restore whose cookie we never saw set, arriving while the known
 * stack is empty, proves that everything charged so far happened inside
 * that reason, and the outermost rule moves those charges to it.
 */
#include <stdlib.h>
#include <string.h>

#include "replay-local.h"

/* ---- event handlers ------------------------------------------------- */

static int on_switch_out(struct lt_replay *rp, const struct lt_ev *ev)
{
	uint32_t ti = lt_rp_task_get(rp, ev->pid);
	struct lt_task *t;

	if (ti == LT_NO_TASK)
		return -1;
	t = &rp->tasks[ti];
	lt_rp_set_comm(t, ev->str, ev->str_len);
	if (t->run != LT_RUN_RUNNING && t->run != LT_RUN_UNKNOWN)
		rp->stats.inconsistent++;	/* its switch-in was lost */
	t->flags |= LT_TASK_ACTIVE;
	t->flags &= ~(LT_TASK_PENDING | LT_TASK_WOKEN | LT_TASK_WAKEUP_SEEN |
		      LT_TASK_WAKING | LT_TASK_NO_STACK_YET | LT_TASK_QUEUED |
		      LT_TASK_FIRST_WAKE | LT_TASK_UNSEEN);
	t->last_cpu = ev->cpu;
	t->last_run_ts = ev->ts;

	switch (ev->state) {
	case LT_STATE_SLEEP:
	case LT_STATE_BLOCKED:
	case LT_STATE_IDLE:
	case LT_STATE_STOPPED:
	case LT_STATE_TRACED:
	case LT_STATE_OTHER:
		/* a wakeup ends each: charged, or counted by its state */
		t->run = LT_RUN_SLEEPING;
		t->sleep_state = ev->state;
		t->sleep_start = ev->ts;
		t->flags |= LT_TASK_NO_STACK_YET;
		return lt_rp_snapshot(rp, t);
	case LT_STATE_RUNNABLE:
		t->run = LT_RUN_RUNNABLE;
		t->rq_start = ev->ts;
		t->flags |= LT_TASK_QUEUED;
		return 0;
	case LT_STATE_DEAD:
	default:
		t->run = LT_RUN_OTHER;
		/* a dead task's last switch: its pid is free for reuse */
		if ((t->flags & LT_TASK_EXITED) &&
		    lt_pidtab_get(&rp->pids, t->pid) == ti)
			lt_pidtab_del(&rp->pids, t->pid);
		return 0;
	}
}

/* A wait for a CPU of @ti that is not charged, for the watcher. */
static int note_cpu_wait(struct lt_replay *rp, uint32_t ti, uint64_t start,
			 uint64_t end, bool end_known, enum lt_wait_drop drop)
{
	struct wait w = { .state = LT_STATE_RUNNABLE, .start = start,
			  .end = end };

	return lt_rp_note(rp, ti, &w, drop, true, end_known);
}

/*
 * The wait for a CPU of @ti after a wakeup at @start ends: at @ts, its
 * switch-in, when @seen; else the task started running somewhere after
 * @bound (see start_running()), up to which it is charged: what the
 * trace proves.
 */
static int cpu_wait_end(struct lt_replay *rp, uint32_t ti, int cpu,
			uint64_t start, uint64_t ts, bool seen, uint64_t bound)
{
	if (seen)
		return lt_rp_charge_rq(rp, ti, start, ts, false, cpu);
	if (bound > start)
		return lt_rp_charge_rq(rp, ti, start, bound, true, cpu);
	rp->stats.no_switch_in++;
	rp->stats.cpu_waits_no_switch_in++;
	return note_cpu_wait(rp, ti, start, 0, false, LT_DROP_NO_SWITCH_IN);
}

/*
 * A wait for a CPU after a preemption or a fork, from @start to @end
 * (@end_known): not latency (rule 6), counted so that the time is not
 * silently lost; where a CPU's data may hide a part of it, counted so.
 */
static int unwoken_cpu_wait(struct lt_replay *rp, uint32_t ti, uint64_t start,
			    uint64_t end, bool end_known)
{
	struct lt_replay_stats *st = &rp->stats;
	uint64_t dur = end_known && end > start ? end - start : 0;
	enum lt_wait_drop drop = LT_DROP_PREEMPTED_OR_NEW;

	if (lt_rp_outside(rp, end_known ? end : start))
		return 0;
	if (lt_rp_before_complete(rp, start)) {
		drop = LT_DROP_BEFORE_COMPLETE;
		st->dropped_incomplete++;
		st->dropped_incomplete_ns += dur;
	} else if (lt_rp_across_gap(rp, start)) {
		drop = LT_DROP_ACROSS_LOST;
		st->dropped_gap++;
		st->dropped_gap_ns += dur;
	} else {
		st->cpu_waits_unwoken++;
		st->cpu_waits_unwoken_ns += dur;
	}
	return note_cpu_wait(rp, ti, start, end, end_known, drop);
}

/*
 * Task @ti starts running on @cpu at @ts: the wait it was in ends here.
 * Only a wait that a wakeup ended has a run-queue part (rule 6: wakeup
 * to running); a preempted or newly forked task's wait is not latency.
 *
 * @seen: @ts is the task's switch-in.  Else it was only seen running at
 * @ts (its switch-in is missing: some kernels drop the switch from the
 * idle task without counting a loss); it began to after @bound, the
 * CPU's record before (0: none), which showed another task there.  A
 * whole wait (no wakeup seen) is then not charged, its end unknown; a
 * wait for a CPU is charged up to @bound, a lower bound.
 */
static int start_running(struct lt_replay *rp, uint32_t ti, int cpu,
			 uint64_t ts, bool seen, uint64_t bound)
{
	struct lt_task *t = &rp->tasks[ti];
	struct wait w;
	uint64_t wake;

	t->flags |= LT_TASK_ACTIVE;
	t->last_cpu = cpu;
	t->last_run_ts = ts;
	switch (t->run) {
	case LT_RUN_SLEEPING:
		/* no sched_wakeup seen: waking, else running, ends the wait */
		if (!seen && !(t->flags & LT_TASK_WAKING)) {
			rp->stats.no_switch_in++;
			if (lt_rp_note_sleep(rp, ti, LT_DROP_NO_SWITCH_IN, 0,
					     false) < 0)
				return -1;
			break;
		}
		wake = t->flags & LT_TASK_WAKING ? t->waking_ts : ts;
		lt_rp_sleep_wait(t, &w, t->sleep_state, t->sleep_start, wake);
		if (lt_rp_charge(rp, ti, &w) < 0)
			return -1;
		if (wake < ts &&
		    cpu_wait_end(rp, ti, cpu, wake, ts, seen, bound) < 0)
			return -1;
		break;
	case LT_RUN_RUNNABLE:
		if (t->flags & LT_TASK_PENDING) {
			lt_rp_sleep_wait(t, &w, t->sleep_state, t->sleep_start,
					 t->wake_ts);
			if (lt_rp_charge(rp, ti, &w) < 0)
				return -1;
		}
		t = &rp->tasks[ti];
		if (!(t->flags & LT_TASK_WOKEN)) {
			if (!(t->flags & LT_TASK_QUEUED) || ts < t->rq_start)
				break;
			if (seen || bound > t->rq_start) {
				if (unwoken_cpu_wait(rp, ti, t->rq_start,
						     seen ? ts : bound, true) < 0)
					return -1;
			} else if (unwoken_cpu_wait(rp, ti, t->rq_start, 0,
						    false) < 0) {
				return -1;
			}
			break;
		}
		/* first seen woken: it may have been running all along */
		if (!seen && (t->flags & LT_TASK_FIRST_WAKE))
			break;
		if (cpu_wait_end(rp, ti, cpu, t->rq_start, ts, seen, bound) < 0)
			return -1;
		break;
	case LT_RUN_UNKNOWN:
		/*
		 * Seen waking from a state the trace did not show, and no
		 * sched_wakeup in the trace (perf sched record takes
		 * sched_waking only): waiting for a CPU from the waking on;
		 * asleep since before the trace if that was its first event.
		 */
		if (!seen || !(t->flags & LT_TASK_WAKING))
			break;
		if ((t->flags & LT_TASK_UNSEEN) &&
		    !lt_rp_outside(rp, t->waking_ts)) {
			w = (struct wait){ .state = LT_STATE_OTHER,
					   .end = t->waking_ts };
			rp->stats.began_before_trace++;
			if (lt_rp_note(rp, ti, &w, LT_DROP_BEGAN_BEFORE, false,
				       true) < 0)
				return -1;
		}
		if (lt_rp_charge_rq(rp, ti, rp->tasks[ti].waking_ts, ts,
				    false, cpu) < 0)
			return -1;
		break;
	case LT_RUN_RUNNING:
		rp->stats.inconsistent++;	/* its switch-out was lost */
		break;
	default:
		break;
	}
	t = &rp->tasks[ti];
	t->run = LT_RUN_RUNNING;
	t->flags &= ~(LT_TASK_PENDING | LT_TASK_WOKEN | LT_TASK_WAKEUP_SEEN |
		      LT_TASK_WAKING | LT_TASK_NO_STACK_YET | LT_TASK_QUEUED |
		      LT_TASK_FIRST_WAKE | LT_TASK_UNSEEN);
	return 0;
}

static int on_switch_in(struct lt_replay *rp, const struct lt_ev *ev)
{
	uint32_t ti = lt_rp_ev_task(rp, ev->pid2);

	if (ti == LT_NO_TASK)
		return -1;
	lt_rp_set_comm(&rp->tasks[ti], ev->str2, ev->str2_len);
	return start_running(rp, ti, ev->cpu, ev->ts, true, 0);
}

/* Room for CPU @cpu (< LT_EV_CPU_LIMIT) in the per-CPU arrays. */
static int cpu_slot(struct lt_replay *rp, int cpu)
{
	int n = cpu + 1, i;
	uint64_t *last;
	int *p;

	if (cpu < rp->nr_cpu_cur)
		return 0;
	p = realloc(rp->cpu_cur, n * sizeof(*p));
	if (!p)
		return lt_rp_oom(rp, "CPUs");
	rp->cpu_cur = p;
	last = realloc(rp->cpu_last_ts, n * sizeof(*last));
	if (!last)
		return lt_rp_oom(rp, "CPUs");
	rp->cpu_last_ts = last;
	for (i = rp->nr_cpu_cur; i < n; i++) {
		p[i] = -1;
		last[i] = 0;
	}
	rp->nr_cpu_cur = n;
	return 0;
}

/*
 * Every event names the task running on its CPU.  A task seen running
 * whose switch-in the trace lacks (some kernels drop the switch from the
 * idle task without counting a loss) did start running: catch up.
 */
static int seen_running(struct lt_replay *rp, const struct lt_ev *ev)
{
	uint32_t ti;

	if (rp->cpu_cur[ev->cpu] == ev->current)
		return 0;
	rp->cpu_cur[ev->cpu] = ev->current;
	ti = lt_pidtab_get(&rp->pids, ev->current);
	if (ti == LT_PIDTAB_NONE) {
		ti = lt_rp_task_new(rp, ev->current, LT_TASK_UNCERTAIN);
		if (ti == LT_NO_TASK)
			return -1;
		rp->tasks[ti].run = LT_RUN_RUNNING;
		return 0;
	}
	if (rp->tasks[ti].run == LT_RUN_RUNNING)
		return 0;
	if (rp->tasks[ti].run != LT_RUN_UNKNOWN)
		rp->stats.implicit_switch_in++;
	/* not running at the CPU's record before: it began after that */
	return start_running(rp, ti, ev->cpu, ev->ts, false,
			     rp->cpu_last_ts[ev->cpu]);
}

static int on_wakeup(struct lt_replay *rp, const struct lt_ev *ev)
{
	uint32_t ti = lt_rp_ev_task(rp, ev->pid);
	struct lt_task *t;
	bool was_active, first, woken;

	if (ti == LT_NO_TASK)
		return -1;
	t = &rp->tasks[ti];
	lt_rp_set_comm(t, ev->str, ev->str_len);
	was_active = t->flags & LT_TASK_ACTIVE;
	t->flags |= LT_TASK_ACTIVE;

	if (ev->kind == LT_EV_WAKING) {
		if (t->run == LT_RUN_SLEEPING && !(t->flags & LT_TASK_WAKING)) {
			t->flags |= LT_TASK_WAKING;
			t->waking_ts = ev->ts;
		} else if (t->run == LT_RUN_UNKNOWN &&
			   !(t->flags & LT_TASK_WAKING)) {
			/* woken from a state the trace did not show */
			t->flags |= LT_TASK_FIRST_WAKE | LT_TASK_WAKING;
			/* its first event: asleep since before the trace */
			if (!was_active && !(t->flags & LT_TASK_BORN))
				t->flags |= LT_TASK_UNSEEN;
			t->waking_ts = ev->ts;
		}
		return 0;
	}
	switch (t->run) {
	case LT_RUN_SLEEPING:
		if (ev->kind == LT_EV_WAKEUP_NEW)
			break;
		t->run = LT_RUN_RUNNABLE;
		t->flags |= LT_TASK_PENDING | LT_TASK_WOKEN |
			    LT_TASK_WAKEUP_SEEN;
		t->wake_ts = ev->ts;
		t->rq_start = ev->ts;
		break;
	case LT_RUN_UNKNOWN:
	case LT_RUN_OTHER:
		/* its first event (but a waking): asleep since before we looked */
		first = t->run == LT_RUN_UNKNOWN && ev->kind == LT_EV_WAKEUP &&
			(!was_active || (t->flags & LT_TASK_UNSEEN)) &&
			!(t->flags & LT_TASK_BORN);
		if (first && !lt_rp_outside(rp, ev->ts)) {
			/* asleep how, since when and in what: not known */
			struct wait w = { .state = LT_STATE_OTHER, .end = ev->ts };

			rp->stats.began_before_trace++;
			if (lt_rp_note(rp, ti, &w, LT_DROP_BEGAN_BEFORE, false,
				       true) < 0)
				return -1;
			t = &rp->tasks[ti];
		}
		/*
		 * Woken from a state the trace did not show: its wait for a
		 * CPU from here is whole in the trace, though it may have
		 * been running all along (a wakeup of a task on its way to
		 * sleep): only a switch-in ends it.
		 */
		woken = t->run == LT_RUN_UNKNOWN && ev->kind == LT_EV_WAKEUP;
		t->run = LT_RUN_RUNNABLE;
		t->flags &= ~(LT_TASK_WOKEN | LT_TASK_QUEUED | LT_TASK_WAKING |
			      LT_TASK_FIRST_WAKE | LT_TASK_UNSEEN);
		if (woken) {
			t->flags |= LT_TASK_WOKEN | LT_TASK_FIRST_WAKE;
			t->rq_start = ev->ts;
		}
		/* a new task's first wait for a CPU */
		if (ev->kind == LT_EV_WAKEUP_NEW) {
			t->rq_start = ev->ts;
			t->flags |= LT_TASK_QUEUED;
		}
		break;
	case LT_RUN_RUNNABLE:
		/* preempted while going to sleep: queued, nothing ends */
		if (!(t->flags & LT_TASK_WAKEUP_SEEN) ||
		    ev->kind != LT_EV_WAKEUP)
			break;
		/*
		 * Woken again with no switch-in between: it ran, and slept,
		 * where the trace did not show it.  Its sleep up to the first
		 * wakeup was seen whole; from then on only this wakeup is
		 * known, and the wait for a CPU runs from it.
		 */
		rp->stats.inconsistent++;
		if (t->flags & LT_TASK_PENDING) {
			struct wait w;

			lt_rp_sleep_wait(t, &w, t->sleep_state, t->sleep_start,
					 t->wake_ts);
			if (lt_rp_charge(rp, ti, &w) < 0)
				return -1;
			t = &rp->tasks[ti];
		}
		/* from the first wakeup on: a switch-in, then where not known */
		rp->stats.no_switch_in++;
		rp->stats.cpu_waits_no_switch_in++;
		if (note_cpu_wait(rp, ti, t->rq_start, 0, false,
				  LT_DROP_NO_SWITCH_IN) < 0)
			return -1;
		t = &rp->tasks[ti];
		t->flags &= ~(LT_TASK_PENDING | LT_TASK_QUEUED);
		t->wake_ts = ev->ts;
		t->rq_start = ev->ts;
		break;
	case LT_RUN_RUNNING:	/* woken before it managed to sleep */
		break;
	}
	return 0;
}

static int on_stat(struct lt_replay *rp, const struct lt_ev *ev)
{
	enum lt_task_state state = ev->kind == LT_EV_STAT_SLEEP ?
		LT_STATE_SLEEP : LT_STATE_BLOCKED;
	uint32_t ti = lt_rp_task_get(rp, ev->pid);
	struct lt_task *t;
	struct wait w;
	uint64_t start;

	if (ti == LT_NO_TASK)
		return -1;
	t = &rp->tasks[ti];
	lt_rp_set_comm(t, ev->str, ev->str_len);
	t->flags |= LT_TASK_ACTIVE;
	switch (t->run) {
	case LT_RUN_SLEEPING:
		/*
		 * The trace showed the switch-out: the wait is exactly
		 * switch-out -> wakeup, charged when the wakeup's task runs.
		 * The stat (emitted as the task is queued, just before its
		 * wakeup) only stands for a wakeup the trace may lack.
		 */
		if (!(t->flags & LT_TASK_WAKING)) {
			t->flags |= LT_TASK_WAKING;
			t->waking_ts = ev->ts;
		}
		return 0;
	case LT_RUN_RUNNABLE:
		return 0;	/* woken: this wait is in the trace already */
	default:
		break;
	}
	/*
	 * The switch-out is missing: the kernel's delay says when the wait
	 * began.  It is on its own clock (rq clock, read before the
	 * switch-out is traced), so it is trusted as is, except that it
	 * cannot begin before the trace last showed the task.  So a task's
	 * waits never overlap, and a wait's length depends on what the
	 * trace shows of its task, never on --from.
	 */
	start = ev->value <= ev->ts ? ev->ts - ev->value : 0;
	if (t->last_run_ts && start < t->last_run_ts)
		start = t->last_run_ts;
	/*
	 * Begun before the trace: like a switch-derived wait whose start was
	 * not seen, it is counted, not charged (often an idle kernel thread
	 * whose state the trace never showed).
	 */
	if (start < rp->stats.first_ts) {
		if (!lt_rp_outside(rp, ev->ts)) {
			/* the kernel's delay says when; what it was in, not */
			struct wait before = { .state = state, .start = start,
					       .end = ev->ts };

			rp->stats.began_before_trace++;
			if (lt_rp_note(rp, ti, &before, LT_DROP_BEGAN_BEFORE,
				       true, true) < 0)
				return -1;
			t = &rp->tasks[ti];
		}
	} else {
		/*
		 * The kernel measured a wait whose start we never saw:
		 * charge it to what we know the task is inside now.
		 */
		if (t->run == LT_RUN_RUNNING)
			rp->stats.inconsistent++;
		if (lt_rp_snapshot(rp, t) < 0)
			return -1;
		lt_rp_sleep_wait(t, &w, state, start, ev->ts);
		if (lt_rp_charge(rp, ti, &w) < 0)
			return -1;
		t = &rp->tasks[ti];
	}
	/* it slept: its wait for a CPU runs from here */
	t->run = LT_RUN_RUNNABLE;
	t->flags &= ~(LT_TASK_PENDING | LT_TASK_FIRST_WAKE | LT_TASK_UNSEEN |
		      LT_TASK_QUEUED);
	t->flags |= LT_TASK_WOKEN;
	t->rq_start = ev->ts;
	return 0;
}

static int on_reason_set(struct lt_replay *rp, const struct lt_ev *ev)
{
	uint32_t ti = lt_rp_task_get(rp, ev->pid), reason, argument, parent, path;
	struct lt_reason_frame *f;
	struct lt_task *t;
	int i;

	if (ti == LT_NO_TASK)
		return -1;
	t = &rp->tasks[ti];
	t->flags |= LT_TASK_ACTIVE;
	/* a cookie already on the stack: its restore (and inner ones) were lost */
	for (i = t->depth - 1; i >= 0; i--) {
		if (t->rstack[i].cookie == ev->cookie) {
			t->depth = (uint16_t)i;
			rp->stats.resync++;
			break;
		}
	}
	if (t->depth >= LT_REASON_DEPTH_MAX) {
		t->overflow++;
		return 0;
	}
	reason = lt_rp_intern(rp, ev->str, ev->str_len);
	argument = lt_rp_intern(rp, ev->str2 ? ev->str2 : "", ev->str2_len);
	if (reason == UINT32_MAX || argument == UINT32_MAX)
		return -1;
	parent = t->depth ? t->rstack[t->depth - 1].path : 0;
	path = lt_rp_path_child(rp, parent, reason);
	if (path == UINT32_MAX)
		return -1;
	t = &rp->tasks[ti];
	if (t->depth == t->cap) {
		uint16_t ncap = t->cap ? t->cap * 2 : 4;

		f = realloc(t->rstack, ncap * sizeof(*f));
		if (!f)
			return lt_rp_oom(rp, "reason stacks");
		t->rstack = f;
		t->cap = ncap;
	}
	f = &t->rstack[t->depth++];
	f->reason = reason;
	f->argument = argument;
	f->maxtime_us = (uint32_t)(ev->value > UINT32_MAX ? UINT32_MAX : ev->value);
	f->cookie = ev->cookie;
	f->path = path;
	return 0;
}

static int on_reason_restore(struct lt_replay *rp, const struct lt_ev *ev)
{
	uint32_t ti = lt_rp_task_get(rp, ev->pid), reason;
	struct lt_task *t;
	int i;

	if (ti == LT_NO_TASK)
		return -1;
	t = &rp->tasks[ti];
	t->flags |= LT_TASK_ACTIVE;
	if (t->overflow) {
		t->overflow--;
		return 0;
	}
	for (i = t->depth - 1; i >= 0; i--) {
		if (t->rstack[i].cookie != ev->cookie)
			continue;
		if (i != t->depth - 1)
			rp->stats.resync++;	/* inner restores were lost */
		t->depth = (uint16_t)i;
		return 0;
	}
	rp->stats.unmatched_restore++;
	/*
	 * Set before the trace (or in lost events).  With nothing known to be
	 * open, it was the outermost reason: everything provisional was in it.
	 */
	if (t->depth || !(t->flags & LT_TASK_UNCERTAIN))
		return 0;
	/*
	 * Each such restore closes one more level of what was open before
	 * the trace; more levels than any kernel nests are lost events or
	 * a hostile file, and re-charging on each would only multiply paths.
	 */
	if (t->outer_restores >= LT_OUTER_RESTORES_MAX)
		return 0;
	t->outer_restores++;
	reason = lt_rp_intern(rp, ev->str, ev->str_len);
	if (reason == UINT32_MAX)
		return -1;
	return lt_rp_recharge_task(rp, ti, reason);
}

static int on_fork(struct lt_replay *rp, const struct lt_ev *ev)
{
	uint32_t pi = lt_rp_task_get(rp, ev->pid), ci;
	struct lt_task *c;

	if (pi == LT_NO_TASK)
		return -1;
	rp->tasks[pi].flags |= LT_TASK_ACTIVE;
	ci = lt_pidtab_get(&rp->pids, ev->pid2);
	/* task_newtask came first and already made the child */
	if (ci == LT_PIDTAB_NONE || !(rp->tasks[ci].flags & LT_TASK_BORN) ||
	    (rp->tasks[ci].flags & (LT_TASK_ACTIVE | LT_TASK_EXITED))) {
		ci = lt_rp_task_new(rp, ev->pid2, LT_TASK_BORN);
		if (ci == LT_NO_TASK)
			return -1;
	}
	c = &rp->tasks[ci];
	c->parent = pi;
	/* a child starts in its parent's cgroup */
	if (!c->cgroup)
		c->cgroup = rp->tasks[pi].cgroup;
	if (ev->kind == LT_EV_NEWTASK && (ev->value & LT_CLONE_THREAD)) {
		c->leader = rp->tasks[pi].leader;
		c->flags |= LT_TASK_THREAD;
	}
	if (ev->kind == LT_EV_NEWTASK)
		c->flags |= LT_TASK_REPARENTED;
	lt_rp_set_comm(c, ev->str, ev->str_len);
	return 0;
}

static int on_exec(struct lt_replay *rp, const struct lt_ev *ev)
{
	const char *base = ev->str, *p;
	uint32_t ti;
	struct lt_task *t;

	/* a non-leader thread exec'd: it takes over the leader's pid */
	if (ev->pid2 > 0 && ev->pid2 != ev->pid) {
		uint32_t mover = lt_pidtab_get(&rp->pids, ev->pid2);

		if (mover != LT_PIDTAB_NONE) {
			lt_pidtab_del(&rp->pids, ev->pid2);
			if (lt_pidtab_set(&rp->pids, ev->pid, mover) < 0)
				return lt_rp_oom(rp, "tasks");
			rp->tasks[mover].pid = ev->pid;
			rp->tasks[mover].leader = mover;
		}
	}
	ti = lt_rp_task_get(rp, ev->pid);
	if (ti == LT_NO_TASK)
		return -1;
	t = &rp->tasks[ti];
	t->flags |= LT_TASK_ACTIVE;
	for (p = ev->str; p < ev->str + ev->str_len && *p; p++)
		if (*p == '/')
			base = p + 1;
	lt_rp_set_comm(t, base, (size_t)(p - base));
	return 0;
}

static int on_task_exit(struct lt_replay *rp, const struct lt_ev *ev)
{
	uint32_t ti = lt_rp_task_get(rp, ev->pid);

	if (ti == LT_NO_TASK)
		return -1;
	rp->tasks[ti].flags |= LT_TASK_EXITED | LT_TASK_ACTIVE;
	return 0;
}

static int on_rename(struct lt_replay *rp, const struct lt_ev *ev)
{
	uint32_t ti = lt_rp_task_get(rp, ev->pid);

	if (ti == LT_NO_TASK)
		return -1;
	lt_rp_set_comm(&rp->tasks[ti], ev->str, ev->str_len);
	return 0;
}

static int on_cgroup(struct lt_replay *rp, const struct lt_ev *ev)
{
	uint32_t ti = lt_rp_task_get(rp, ev->pid), id;

	if (ti == LT_NO_TASK)
		return -1;
	if (!ev->str_len)
		return 0;
	id = lt_strtab_intern(&rp->strs, ev->str, ev->str_len);
	if (id == UINT32_MAX)
		return lt_rp_oom(rp, "cgroup names");
	rp->tasks[ti].cgroup = id;
	rp->stats.cgroups++;
	return 0;
}

static int on_stack(struct lt_replay *rp, const struct lt_ev *ev)
{
	uint32_t ti = lt_pidtab_get(&rp->pids, ev->pid);
	struct lt_task *t;
	uint32_t id;

	if (ti == LT_PIDTAB_NONE)
		return 0;
	t = &rp->tasks[ti];
	if (!(t->flags & LT_TASK_NO_STACK_YET))
		return 0;
	t->flags &= ~LT_TASK_NO_STACK_YET;
	id = ev->value ? lt_rp_stack_pooled(rp, ev->value, ev->frames,
					    ev->nr_frames) :
			 lt_rp_stack_intern(rp, ev->frames, ev->nr_frames);
	if (id == UINT32_MAX || lt_rp_stack_seen(rp, ti, id) < 0)
		return -1;
	t = &rp->tasks[ti];
	if (t->run == LT_RUN_SLEEPING)
		t->sleep_stack = id;
	return 0;
}

/* The gap of CPU @cpu begins: nothing is charged until it ends. */
static int gap_open(struct lt_replay *rp, int cpu)
{
	if (cpu >= rp->nr_gap_cpus) {
		int n = cpu + 1;	/* < LT_EV_CPU_LIMIT */
		uint8_t *p = realloc(rp->gap_open, n);

		if (!p)
			return lt_rp_oom(rp, "CPUs");
		memset(p + rp->nr_gap_cpus, GAP_NONE, n - rp->nr_gap_cpus);
		rp->gap_open = p;
		rp->nr_gap_cpus = n;
	}
	if (rp->gap_open[cpu] != GAP_NONE)
		return 0;	/* the same gap, as far as we can tell */
	/* before any record: the CPU's oldest data was overwritten */
	rp->gap_open[cpu] = rp->stats.have_ts ? GAP_LOST : GAP_INITIAL;
	rp->nr_gaps_open++;
	if (!rp->stats.have_ts)
		rp->nr_initial_open++;
	else
		rp->stats.gaps++;
	return 0;
}

/* A record of CPU @cpu at @ts: the gap there, if any, ends. */
static void gap_close(struct lt_replay *rp, int cpu, uint64_t ts)
{
	if (rp->gap_open[cpu] == GAP_INITIAL) {
		rp->nr_initial_open--;
		if (ts > rp->stats.complete_from)
			rp->stats.complete_from = ts;
	}
	rp->gap_open[cpu] = GAP_NONE;
	rp->nr_gaps_open--;
	if (ts > rp->gap_end)
		rp->gap_end = ts;
}

/* CPU @cpu has no data past its last record (damage, --partial). */
static int data_end(struct lt_replay *rp, int cpu)
{
	struct lt_replay_stats *st = &rp->stats;

	if (cpu >= st->nr_cpu_data_end) {
		int n = cpu + 1;	/* < LT_EV_CPU_LIMIT */
		uint64_t *p = realloc(st->cpu_data_end, n * sizeof(*p));

		if (!p)
			return lt_rp_oom(rp, "CPUs");
		memset(p + st->nr_cpu_data_end, 0,
		       (n - st->nr_cpu_data_end) * sizeof(*p));
		st->cpu_data_end = p;
		st->nr_cpu_data_end = n;
	}
	st->cpu_data_end[cpu] = cpu < rp->nr_cpu_cur && rp->cpu_last_ts[cpu] ?
				rp->cpu_last_ts[cpu] : 1;
	return 0;
}

static int on_lost(struct lt_replay *rp, const struct lt_ev *ev)
{
	struct lt_replay_stats *st = &rp->stats;
	uint32_t i;

	if (ev->cpu >= 0 && gap_open(rp, ev->cpu) < 0)
		return -1;

	/* no loss of events the kernel counted: its data ends (damage) */
	if (ev->value == LT_LOST_DATA_END) {
		if (ev->cpu >= 0 && data_end(rp, ev->cpu) < 0)
			return -1;
	} else if (ev->value == UINT64_MAX) {
		st->lost_unknown++;
	} else {
		st->lost_events += ev->value;
	}
	if (ev->cpu >= 0 && ev->value != LT_LOST_DATA_END) {
		if (ev->cpu >= st->nr_cpus_lost) {
			int n = ev->cpu + 1;
			uint64_t *p = realloc(st->lost_per_cpu, n * sizeof(*p));

			if (!p)
				return lt_rp_oom(rp, "lost-event counts");
			memset(p + st->nr_cpus_lost, 0,
			       (n - st->nr_cpus_lost) * sizeof(*p));
			st->lost_per_cpu = p;
			st->nr_cpus_lost = n;
		}
		st->lost_per_cpu[ev->cpu] += ev->value == UINT64_MAX ? 1 : ev->value;
	}
	/*
	 * Tasks last seen on that CPU may have missed any transition: forget
	 * their open waits, and let a later unmatched restore re-charge only
	 * what comes after the gap.
	 */
	if (ev->cpu >= 0 && ev->cpu < rp->nr_cpu_cur)
		rp->cpu_cur[ev->cpu] = -1;
	for (i = 0; i < rp->nr_tasks; i++) {
		struct lt_task *t = &rp->tasks[i];

		if (t->last_cpu != ev->cpu)
			continue;
		if (t->run == LT_RUN_SLEEPING || (t->flags & LT_TASK_PENDING)) {
			st->discarded_lost++;
			/* woken, its blocked part had ended; asleep, not yet */
			if (lt_rp_note_sleep(rp, i, LT_DROP_LOST_TRACK, t->wake_ts,
					     (t->flags & LT_TASK_PENDING) != 0) < 0)
				return -1;
			t = &rp->tasks[i];
		}
		/* and the wait for a CPU it was in, woken or queued */
		if (t->run == LT_RUN_RUNNABLE &&
		    (t->flags & (LT_TASK_WOKEN | LT_TASK_QUEUED))) {
			st->discarded_lost++;
			if (note_cpu_wait(rp, i, t->rq_start, 0, false,
					  LT_DROP_LOST_TRACK) < 0)
				return -1;
			t = &rp->tasks[i];
		}
		if (t->run != LT_RUN_OTHER)
			t->run = LT_RUN_UNKNOWN;
		t->flags &= ~(LT_TASK_PENDING | LT_TASK_WOKEN |
			      LT_TASK_WAKEUP_SEEN | LT_TASK_WAKING |
			      LT_TASK_QUEUED | LT_TASK_FIRST_WAKE | LT_TASK_UNSEEN);
		if (lt_rp_commit_task(rp, i) < 0)
			return -1;
		rp->tasks[i].flags |= LT_TASK_UNCERTAIN;
	}
	return 0;
}

/* ---- public ----------------------------------------------------------- */

int lt_replay_init(struct lt_replay *rp, const struct lt_replay_opts *opts)
{
	uint32_t r;

	memset(rp, 0, sizeof(*rp));
	rp->opts = *opts;
	if (lt_strtab_init(&rp->strs) < 0)
		return lt_rp_oom(rp, "strings");
	lt_pidtab_init(&rp->pids);
	lt_map_init(&rp->cause_map);
	lt_map_init(&rp->stack_map);
	lt_map_init(&rp->task_stacks);
	lt_map_init(&rp->path_map);
	lt_map_init(&rp->row_map);
	lt_map_init(&rp->sub_map);
	rp->free_sub_waker = UINT32_MAX;
	/* id 0 of causes, stacks and paths means "none" */
	if (lt_rp_cause(rp, LT_CAUSE_UNKNOWN, 0, 0) == UINT32_MAX)
		return -1;
	r = lt_rp_intern(rp, CAUSE_UNKNOWN_TEXT, strlen(CAUSE_UNKNOWN_TEXT));
	rp->cause_unknown = lt_rp_cause(rp, LT_CAUSE_UNKNOWN, r, 0);
	r = lt_rp_intern(rp, CAUSE_SCHED_TEXT, strlen(CAUSE_SCHED_TEXT));
	rp->cause_sched = lt_rp_cause(rp, LT_CAUSE_SCHED, r, 0);
	if (rp->cause_unknown == UINT32_MAX || rp->cause_sched == UINT32_MAX)
		return -1;
	r = lt_rp_intern(rp, CAUSE_STOPPED_TEXT, strlen(CAUSE_STOPPED_TEXT));
	rp->cause_stopped[0] = lt_rp_cause(rp, LT_CAUSE_STOPPED, r, 0);
	r = lt_rp_intern(rp, CAUSE_TRACED_TEXT, strlen(CAUSE_TRACED_TEXT));
	rp->cause_stopped[1] = lt_rp_cause(rp, LT_CAUSE_STOPPED, r, 0);
	if (rp->cause_stopped[0] == UINT32_MAX ||
	    rp->cause_stopped[1] == UINT32_MAX)
		return -1;
	if (GROW(rp, rp->stacks, 0, rp->cap_stacks, MAX_STACKS, "kernel stacks") < 0)
		return -1;
	memset(&rp->stacks[0], 0, sizeof(rp->stacks[0]));
	rp->nr_stacks = 1;
	if (GROW(rp, rp->paths, 0, rp->cap_paths, MAX_PATHS, "reason paths") < 0)
		return -1;
	rp->paths[0].parent = rp->paths[0].reason = 0;
	rp->nr_paths = 1;
	return 0;
}

void lt_replay_free(struct lt_replay *rp)
{
	uint32_t i;

	for (i = 0; i < rp->nr_tasks; i++)
		free(rp->tasks[i].rstack);
	for (i = 0; i < rp->nr_rows; i++)
		lt_hist_free(&rp->rows[i].hist);
	lt_rp_chain_free(rp);
	free(rp->tasks);
	free(rp->causes);
	free(rp->frames);
	free(rp->stacks);
	free(rp->pooled);
	free(rp->paths);
	free(rp->rows);
	free(rp->subs);
	free(rp->sub_wakers);
	free(rp->stats.lost_per_cpu);
	free(rp->stats.cpu_data_end);
	free(rp->cpu_cur);
	free(rp->cpu_last_ts);
	free(rp->gap_open);
	lt_pidtab_free(&rp->pids);
	lt_map_free(&rp->cause_map);
	lt_map_free(&rp->stack_map);
	lt_map_free(&rp->task_stacks);
	lt_map_free(&rp->path_map);
	lt_map_free(&rp->row_map);
	lt_map_free(&rp->sub_map);
	lt_strtab_free(&rp->strs);
	memset(rp, 0, sizeof(*rp));
}

int lt_replay_feed(struct lt_replay *rp, const struct lt_ev *in)
{
	struct lt_replay_stats *st = &rp->stats;
	const struct lt_ev *ev = in;
	struct lt_ev fixed;

	st->events++;
	st->by_kind[ev->kind <= LT_EV_OTHER ? ev->kind : LT_EV_OTHER]++;
	if (ev->kind != LT_EV_LOST) {
		/*
		 * Time going backwards (CPU clocks out of step, a damaged
		 * file) is counted and read as "now": no wait can then come
		 * out negative or overlap another of the same task.
		 */
		if (st->have_ts && ev->ts < st->last_ts) {
			st->unordered++;
			fixed = *in;
			fixed.ts = st->last_ts;
			ev = &fixed;
		}
		if (!st->have_ts) {
			st->have_ts = true;
			st->first_ts = ev->ts;
			rp->origin_ns = ev->ts + (rp->opts.from_ns > 0 ?
						  (uint64_t)rp->opts.from_ns : 0);
		}
		if (ev->ts > st->last_ts)
			st->last_ts = ev->ts;
	}

	if (ev->kind != LT_EV_LOST && ev->cpu >= 0 && ev->cpu < rp->nr_gap_cpus &&
	    rp->gap_open[ev->cpu] != GAP_NONE)
		gap_close(rp, ev->cpu, ev->ts);
	if (ev->kind != LT_EV_LOST && ev->cpu >= 0 && cpu_slot(rp, ev->cpu) < 0)
		return -1;
	/* whom waits wait for: histories, before the waits they end */
	rp->ev_pid = 0;
	if (lt_rp_chain_event(rp, ev) < 0)
		return -1;
	if (ev->current > 0 && ev->cpu >= 0 && ev->kind != LT_EV_LOST &&
	    seen_running(rp, ev) < 0)
		return -1;
	if (ev->kind != LT_EV_LOST && ev->cpu >= 0)
		rp->cpu_last_ts[ev->cpu] = ev->ts;

	switch (ev->kind) {
	case LT_EV_SWITCH:
		/* pid 0 is the idle task: it never waits */
		if (ev->pid > 0 && on_switch_out(rp, ev) < 0)
			return -1;
		if (ev->pid2 > 0 && on_switch_in(rp, ev) < 0)
			return -1;
		if (ev->cpu >= 0 && ev->cpu < rp->nr_cpu_cur)
			rp->cpu_cur[ev->cpu] = ev->pid2;
		return 0;
	case LT_EV_WAKING:
	case LT_EV_WAKEUP:
	case LT_EV_WAKEUP_NEW:
		return ev->pid > 0 ? on_wakeup(rp, ev) : 0;
	case LT_EV_STAT_SLEEP:
	case LT_EV_STAT_BLOCKED:
		return ev->pid > 0 ? on_stat(rp, ev) : 0;
	case LT_EV_REASON_SET:
		return ev->pid > 0 ? on_reason_set(rp, ev) : 0;
	case LT_EV_REASON_RESTORE:
		return ev->pid > 0 ? on_reason_restore(rp, ev) : 0;
	case LT_EV_FORK:
	case LT_EV_NEWTASK:
		return ev->pid2 > 0 ? on_fork(rp, ev) : 0;
	case LT_EV_EXEC:
		return ev->pid > 0 ? on_exec(rp, ev) : 0;
	case LT_EV_EXIT:
		return ev->pid > 0 ? on_task_exit(rp, ev) : 0;
	case LT_EV_RENAME:
		return ev->pid > 0 ? on_rename(rp, ev) : 0;
	case LT_EV_STACK:
		/* a wakeup's is the waker's, for its chain only */
		return ev->pid > 0 && !ev->waking_stack ? on_stack(rp, ev) : 0;
	case LT_EV_LOST:
		return on_lost(rp, ev);
	case LT_EV_CGROUP:
		return ev->pid > 0 ? on_cgroup(rp, ev) : 0;
	case LT_EV_STAT_IOWAIT:	/* a subset of blocked: already counted */
	case LT_EV_OTHER:
		return 0;
	}
	return 0;
}

int lt_replay_snapshot(struct lt_replay *rp)
{
	return lt_rp_resolve_stacks(rp);
}

int lt_replay_drop_windows(struct lt_replay *rp, uint32_t first)
{
	return lt_rp_drop_windows(rp, first);
}

int lt_replay_finish(struct lt_replay *rp)
{
	uint32_t i;

	if (rp->finished)
		return 0;
	rp->finished = true;
	for (i = 0; i < rp->nr_tasks; i++) {
		struct lt_task *t = &rp->tasks[i];
		struct wait w;

		/* woken but never ran again before the end: the wait did end */
		if (t->flags & LT_TASK_PENDING) {
			lt_rp_sleep_wait(t, &w, t->sleep_state, t->sleep_start,
					 t->wake_ts);
			if (lt_rp_charge(rp, i, &w) < 0)
				return -1;
		} else if (t->run == LT_RUN_SLEEPING) {
			/*
			 * LatencyTOP charges a wait when it ends: this never
			 * did (a waking, or a stat, is not its end: the
			 * wakeup after it is, were the trace cut by --to)
			 */
			rp->stats.unfinished++;
			if (lt_rp_note_sleep(rp, i, LT_DROP_UNFINISHED, 0, false) < 0)
				return -1;
		}
		/* nor did a wait for a CPU, after a wakeup or not */
		t = &rp->tasks[i];
		if (t->run == LT_RUN_RUNNABLE &&
		    (t->flags & (LT_TASK_WOKEN | LT_TASK_QUEUED))) {
			rp->stats.unfinished++;
			if (note_cpu_wait(rp, i, t->rq_start, 0, false,
					  LT_DROP_UNFINISHED) < 0)
				return -1;
		}
		if (lt_rp_commit_task(rp, i) < 0)
			return -1;
	}
	/* every wait is charged: what charging needed goes before the report */
	lt_rp_chain_histories_free(rp);
	if (lt_rp_windows_fit(rp) < 0)
		return -1;
	return lt_rp_resolve_stacks(rp);
}
