/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * replay-local.h - what the replay's files share: limits, the
 * accounting of waits (replay-acct.c) and the task table (replay-tasks.c),
 * used by the event handlers in replay.c.
 */
#ifndef LT_REPLAY_LOCAL_H
#define LT_REPLAY_LOCAL_H

#include <string.h>

#include "lt-replay.h"

/* Caps that hold on hostile input: past them, a clear LT_E_LIMIT error. */
#define MAX_TASKS	(4u << 20)
#define MAX_CAUSES	(1u << 20)
#define MAX_STACKS	(4u << 20)
#define MAX_FRAMES	(64u << 20)
#define MAX_PATHS	(1u << 20)
#define MAX_ROWS	(16u << 20)
#define MAX_SUB_WAKERS	((LT_SUB_WAKERS + 1) * MAX_ROWS)	/* a sub-row's most */
/*
 * Every window, empty or not, is a set of tables in the report: 100,000
 * of them came to ~60 MB and 14 MB of text, a million to 490 MB.
 */
#define MAX_WINDOWS	(1u << 16)
#define MAX_STACK_DEPTH	256

/* A row's cause while its stack is unresolved: this bit | stack id. */
#define STACK_CAUSE	(1u << 31)
_Static_assert(MAX_STACKS < STACK_CAUSE && MAX_CAUSES < STACK_CAUSE,
	       "stack ids and cause ids must not reach STACK_CAUSE");

#define CAUSE_UNKNOWN_TEXT	"Unknown reason"
#define CAUSE_SCHED_TEXT	"Scheduler: waiting for cpu"
#define CAUSE_STOPPED_TEXT	"Stopped by a signal"
#define CAUSE_TRACED_TEXT	"Stopped by a tracer"

/* Grow a vector to hold one more element; -1 past @max or on ENOMEM. */
int lt_rp_grow(void **vec, uint32_t nr, uint32_t *cap, size_t elem,
	       uint32_t max);
/* Set rp->err for a vector that could not grow; returns -1. */
int lt_rp_limit(struct lt_replay *rp, bool over, const char *what,
		uint32_t max);
int lt_rp_oom(struct lt_replay *rp, const char *what);

#define GROW(rp, vec, nr, cap, max, what)				\
	(lt_rp_grow((void **)&(vec), (nr), &(cap), sizeof(*(vec)), (max)) < 0 ? \
	 lt_rp_limit((rp), (nr) >= (max), (what), (max)) : 0)

/*
 * Whether a wait that ended at @end is outside --from/--to: then it is
 * neither charged nor counted as dropped or begun before the trace.
 */
static inline bool lt_rp_outside(const struct lt_replay *rp, uint64_t end)
{
	return end < rp->origin_ns ||
	       (rp->opts.to_ns >= 0 &&
		end > rp->stats.first_ts + (uint64_t)rp->opts.to_ns);
}

/* rp->gap_open[] */
enum { GAP_NONE, GAP_INITIAL, GAP_LOST };

/*
 * Whether a wait that began at @start may hide in data the trace lacks:
 * begun before every CPU had data, or across a gap of lost events.
 */
static inline bool lt_rp_before_complete(const struct lt_replay *rp,
					 uint64_t start)
{
	return rp->nr_initial_open || start < rp->stats.complete_from;
}

static inline bool lt_rp_across_gap(const struct lt_replay *rp,
				    uint64_t start)
{
	return rp->nr_gaps_open || start < rp->gap_end;
}

/* One wait, ready to be charged. */
struct wait {
	enum lt_task_state state;	/* SLEEP, BLOCKED, IDLE, STOPPED,
					   TRACED, OTHER, or RUNNABLE (cpu) */
	uint64_t start, end;
	uint32_t cause;			/* 0: derive from stack */
	uint32_t path, stack, maxtime_us;
	bool provisional;
	bool lower_bound;		/* end: the last record before the
					   missing switch-in (a lower bound) */
	int cpu;			/* RUNNABLE: where it was switched in */
};

/* A stopped task's state: by a signal (T) or for a tracer (t). */
static inline bool lt_rp_stopped(enum lt_task_state state)
{
	return state == LT_STATE_STOPPED || state == LT_STATE_TRACED;
}

/* Interning: UINT32_MAX (rp->err set) on failure. */
uint32_t lt_rp_cause(struct lt_replay *rp, enum lt_cause_kind kind,
		     uint32_t reason, uint32_t argument);
uint32_t lt_rp_intern(struct lt_replay *rp, const char *s, size_t len);
uint32_t lt_rp_path_child(struct lt_replay *rp, uint32_t parent,
			  uint32_t reason);
uint32_t lt_rp_stack_intern(struct lt_replay *rp, const uint64_t *f,
			    unsigned int n);
/* The same for a stack the decoder pooled as @uid (lt-event.h). */
uint32_t lt_rp_stack_pooled(struct lt_replay *rp, uint64_t uid,
			    const uint64_t *f, unsigned int n);
/* @task was seen with @stack: 0, or -1 with rp->err set. */
int lt_rp_stack_seen(struct lt_replay *rp, uint32_t task, uint32_t stack);
/* Resolve every stack and charge their rows to its cause. */
int lt_rp_resolve_stacks(struct lt_replay *rp);

/*
 * Tell the watcher (opts.on_note) of wait @w of @task, charged (drop
 * NONE) or dropped and why; @start_known/@end_known say which ends of @w
 * the trace showed.  0, or -1 with rp->err set.
 */
int lt_rp_note(struct lt_replay *rp, uint32_t task, const struct wait *w,
	       enum lt_wait_drop drop, bool start_known, bool end_known);
/* The same for the wait @task is asleep in since its switch-out. */
int lt_rp_note_sleep(struct lt_replay *rp, uint32_t task, enum lt_wait_drop drop,
		     uint64_t end, bool end_known);

/* Charging: 0, or -1 with rp->err set. */
int lt_rp_charge(struct lt_replay *rp, uint32_t task, const struct wait *w);
int lt_rp_charge_rq(struct lt_replay *rp, uint32_t task, uint64_t start,
		    uint64_t end, bool lower_bound, int cpu);
/* The cause a wait in @state, inside @cause or at @stack, is charged to. */
static inline uint32_t lt_rp_cause_of(const struct lt_replay *rp,
				      enum lt_task_state state, uint32_t cause,
				      uint32_t stack)
{
	if (state == LT_STATE_RUNNABLE)
		return rp->cause_sched;
	/* a stop is no latency of what the task was doing */
	if (lt_rp_stopped(state))
		return rp->cause_stopped[state == LT_STATE_TRACED];
	if (cause)
		return cause;
	if (stack)
		return STACK_CAUSE | stack;	/* resolved when finished */
	return rp->cause_unknown;
}

/* The cause a sleep wait of @t in @state is charged to (STACK_CAUSE...). */
static inline uint32_t lt_rp_sleep_cause(const struct lt_replay *rp,
					 const struct lt_task *t,
					 enum lt_task_state state)
{
	return lt_rp_cause_of(rp, state, t->sleep_cause, t->sleep_stack);
}

/* Waited-for trees (replay-chains.c). */
/* @ev, before the replay's handlers see it: 0, or -1 with rp->err set. */
int lt_rp_chain_event(struct lt_replay *rp, const struct lt_ev *ev);
/*
 * Wait @w of @task was charged to @row: its tree into the row's; @ended
 * is what lt_rp_chain_waker() says ended it (not used for a CPU's).
 */
int lt_rp_chain_charge(struct lt_replay *rp, uint32_t row, uint32_t task,
		       const struct wait *w, const struct lt_chain_waker *ended);
/* What ended @task's wait that ended at @end (kind NONE: not known). */
static inline struct lt_chain_waker
lt_rp_chain_waker(const struct lt_replay *rp, uint32_t task, uint64_t end)
{
	const struct lt_chain_task *c = &rp->tasks[task].chain;
	struct lt_chain_waker none = { .task = LT_NO_TASK };

	if (rp->opts.no_chains || !c->ended.kind || c->ended_at != end)
		return none;
	return c->ended;
}
/* Row @from's tree added to row @to's, @from's emptied. */
int lt_rp_chain_move(struct lt_replay *rp, uint32_t from, uint32_t to);
void lt_rp_chain_tree_free(struct lt_chain_tree *tr);
/*
 * The histories (tasks' and CPUs' segments, pending trees) go: no wait
 * is charged any more.  The rows' trees stay.
 */
void lt_rp_chain_histories_free(struct lt_replay *rp);
void lt_rp_chain_free(struct lt_replay *rp);
void lt_rp_sleep_wait(const struct lt_task *t, struct wait *w,
		      enum lt_task_state state, uint64_t start, uint64_t end);
/* --window: fails, saying what would do, if a wait fell past the last. */
int lt_rp_windows_fit(struct lt_replay *rp);
int lt_rp_snapshot(struct lt_replay *rp, struct lt_task *t);
int lt_rp_commit_task(struct lt_replay *rp, uint32_t task);
int lt_rp_drop_windows(struct lt_replay *rp, uint32_t first);
int lt_rp_recharge_task(struct lt_replay *rp, uint32_t task,
			uint32_t reason);

/* Tasks. */
void lt_rp_set_comm_slow(struct lt_task *t, const char *s, size_t len);

_Static_assert(LT_COMM_LEN == 2 * sizeof(uint64_t), "comm: two words");

/*
 * @s need not be NUL-terminated: comm arrays come straight from records.
 * Called for most events, so the common case, an unchanged name given
 * whole, is two compares inline: comm is kept zero-padded like the
 * kernel's.
 */
static inline void lt_rp_set_comm(struct lt_task *t, const char *s,
				  size_t len)
{
	uint64_t a[2], b[2];

	if (s && len >= LT_COMM_LEN) {
		memcpy(a, t->comm, sizeof(a));
		memcpy(b, s, sizeof(b));
		if (a[0] == b[0] && a[1] == b[1])
			return;
	}
	lt_rp_set_comm_slow(t, s, len);
}
uint32_t lt_rp_task_new(struct lt_replay *rp, int pid, uint32_t flags);
uint32_t lt_rp_task_get(struct lt_replay *rp, int pid);
/*
 * lt_rp_task_get() of a pid of this event's that the chains looked up
 * already (lt_replay_feed() clears ev_pid first): nothing between their
 * look-up and the handler's makes another task of that pid.
 */
static inline uint32_t lt_rp_ev_task(struct lt_replay *rp, int pid)
{
	return pid == rp->ev_pid ? rp->ev_task : lt_rp_task_get(rp, pid);
}

#endif /* LT_REPLAY_LOCAL_H */
