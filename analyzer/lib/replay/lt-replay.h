/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * lt-replay.h - the replay state machine.
 *
 * Fed decoded events (lt-event.h) in timestamp order, it follows every
 * task's run state and latencytop reason stack and charges each blocked
 * interval to the outermost reason active when the task went to sleep
 * (LatencyTOP's rule), or to what its kernel stack says, or to "Unknown".
 * It knows nothing of trace files: unit tests feed it scripts.
 *
 * Accumulators are rows keyed (task, window, cause) with a histogram,
 * and sub-rows keyed (row, reason path, kernel stack) for drill-down,
 * each with its waits per waker.  Memory grows with tasks x causes x
 * distinct stacks, never with the number of events.
 */
#ifndef LT_REPLAY_H
#define LT_REPLAY_H

#include <stdbool.h>
#include <stdint.h>

#include "latencytop.h"
#include "lt-event.h"
#include "lt-hist.h"
#include "lt-map.h"
#include "lt-pidtab.h"
#include "lt-strtab.h"

#define LT_COMM_LEN 16
#define LT_WORST 5		/* worst occurrences kept per row */
#define LT_REASON_DEPTH_MAX 64	/* deeper nesting is counted, not kept */
#define LT_OUTER_RESTORES_MAX 8	/* pre-trace regions re-charged per task */
#define LT_NO_TASK UINT32_MAX

/*
 * What the stack resolver says about one distinct kernel stack.  It is
 * asked by lt_replay_finish(), once per stack: symbols are needed only
 * then, so they can load on another core while the events replay.
 */
struct lt_stack_info {
	enum lt_cause_kind kind;	/* TRANSLATED or FUNCTION */
	const char *cause;		/* text; copied by the replay */
	bool kernel_thread;		/* a kthread's stack (kthread() frame) */
	/*
	 * A wakeup's stack: a timer expiring did it (one of
	 * lt_chain_timer_frame()'s among the LT_CHAIN_TIMER_DEPTH frames
	 * after the tracepoint's own, lt_chain_after_tracepoint())
	 */
	bool timer;
	/*
	 * A wakeup's stack: the CPU ran a wakeup another CPU queued for it
	 * (lt_chain_remote_frame()'s among the same frames), so what the
	 * event's context says is not who woke the task
	 */
	bool remote;
};

/*
 * Whom a wait waited for (issue 48, replay-chains.c).  A wait of task T
 * over [s, e] ended by a wakeup has a waker: the task current where the
 * sched_waking (or the sched_wakeup) was emitted, or the interrupt that
 * emitted it, or a timer.  Its tree cuts [s, e] into what the waker did,
 * walking back from e through its own history: running, waiting for a
 * CPU, blocked (its own cause, and under it the same walk for its own
 * waker), never outside [s, e], at most LT_CHAIN_LEVELS deep.  A node is
 * keyed (waker task, what, the waking's stack): what is one of the
 * LT_CHAIN_* below or, for a blocked node, the waker's own wait's cause
 * (a STACK_CAUSE until resolved, lt_replay_cause()); a waking stack that
 * resolves to a timer's makes its nodes one timer node, children and all
 * (the report does it: the time stays the same).  A row's tree is the
 * sum of its waits'; a row of waits for a CPU has, instead, the tasks
 * that ran on the CPU meanwhile (nodes keyed (task, LT_CHAIN_RAN)).
 */
#define LT_CHAIN_LEVELS		8
#define LT_CHAIN_TIMER_DEPTH	6
enum {
	LT_CHAIN_RUNNING = 0xfffffff0u,
	LT_CHAIN_RUNNABLE,		/* "waiting for cpu" */
	LT_CHAIN_HARDIRQ,
	LT_CHAIN_SOFTIRQ,
	LT_CHAIN_TIMER,
	LT_CHAIN_UNKNOWN,
	LT_CHAIN_LOST,
	LT_CHAIN_OTHER,			/* nodes past the caps, summed */
	LT_CHAIN_RAN,			/* ran_instead: ran on the CPU */
};
/* ran_instead's task for the idle task (pid 0 has none) */
#define LT_CHAIN_IDLE	(UINT32_MAX - 1)

struct lt_chain_node {
	uint64_t ns;
	/* its key, these four in a row (compared at once) */
	uint32_t task;		/* LT_NO_TASK: none (not a task's node) */
	uint32_t what;		/* LT_CHAIN_*, else a cause id */
	uint32_t wstack;	/* the waking's stack id (timer?), 0: none */
	uint32_t parent;
	uint32_t child, next;	/* first child, next sibling; 0: none */
	uint32_t nr_children;
};

#define LT_CHAIN_MEMO_BITS	3
#define LT_CHAIN_MEMO		(1u << LT_CHAIN_MEMO_BITS)

/* nodes[0] is the row itself: its ns is the row's total */
struct lt_chain_tree {
	struct lt_chain_node *nodes;
	uint32_t nr, cap;
	/*
	 * A row's tree past a few nodes: each node's index (0: none) by its
	 * (parent, task, what, wstack), open addressing in @hcap slots.
	 * Not for a pending tree, whose wstacks change after the walk.
	 */
	uint32_t *hash, hcap;
	/*
	 * Nodes found lately (0: none): a row's waits mostly repeat a few
	 * (its wakers, who ran instead).  With a hash, by a cheap hash of
	 * their key; without, memo[0] only, the node found last.
	 */
	uint32_t memo[LT_CHAIN_MEMO];
	bool no_hash;
};

/* The name of a node's @what, NULL for a cause id. */
const char *lt_chain_what_name(uint32_t what);
/* Whether @name is a frame of a timer's expiry (hrtimer_wakeup, ...). */
bool lt_chain_timer_frame(const char *name);
/* Whether @name runs wakeups another CPU queued (sched_ttwu_pending). */
bool lt_chain_remote_frame(const char *name);
/* The index of the first of @names after the tracepoint's own frames. */
unsigned int lt_chain_after_tracepoint(const char *const *names,
				       unsigned int nr);

/* What ended a wait. */
enum lt_waker_kind {
	LT_WAKER_NONE,		/* nothing (yet) */
	LT_WAKER_TASK,
	LT_WAKER_HARDIRQ,
	LT_WAKER_SOFTIRQ,
	LT_WAKER_TIMER,
	LT_WAKER_UNKNOWN,	/* ended by its switch-in, or not known */
	LT_WAKER_LOST,		/* in a gap of lost events */
	LT_WAKER_OTHER,		/* a sub-row's wakers past LT_SUB_WAKERS */
};

struct lt_chain_waker {
	uint64_t ts;		/* the waking's (the event's) time */
	uint32_t task;		/* LT_WAKER_TASK: the waker's task */
	uint32_t stack;		/* the waking's kernel stack, 0: none */
	uint8_t kind;		/* enum lt_waker_kind */
	/*
	 * TASK, in the replay: the number of the waker's segment open at
	 * the waking (a hint, checked when used)
	 */
	uint32_t seg;
};
struct lt_replay;
/*
 * What a wakeup's stack, once resolved, says of its waker: UNKNOWN (it ran
 * a wakeup another CPU queued), TIMER (a timer expired), else NONE.
 */
enum lt_waker_kind lt_chain_stack_waker(const struct lt_replay *rp,
					uint32_t stack);
/*
 * @w's kind as named: a waker whose stack was a timer's is TIMER, one
 * that ran a wakeup another CPU queued UNKNOWN, as is one of no kind.
 */
enum lt_waker_kind lt_chain_waker_kind(const struct lt_replay *rp,
				       const struct lt_chain_waker *w);
/* lt_chain_waker_kind()'s name: "task", "hardirq", "timer", ... */
const char *lt_waker_kind_name(const struct lt_replay *rp,
			       const struct lt_chain_waker *w);

typedef int (*lt_stack_resolver)(void *ctx, const uint64_t *frames,
				 unsigned int nr, struct lt_stack_info *out);

/*
 * Why a wait the replay saw was not charged; the names are the report's
 * "dropped" counters, each of which counts its notes (lt_wait_note).
 */
#define LT_WAIT_DROPS(_)						\
	_(NONE,			NULL)					\
	_(USER_REQUESTED,	"interruptible_over_cutoff")		\
	_(MAXTIME,		"over_maxtime")				\
	_(BEFORE_COMPLETE,	"before_complete")			\
	_(ACROSS_LOST,		"across_lost_events")			\
	_(PREEMPTED_OR_NEW,	"cpu_waits_preempted_or_new")		\
	_(BEGAN_BEFORE,		"began_before_trace")			\
	_(UNFINISHED,		"unfinished")				\
	_(NO_SWITCH_IN,		"no_switch_in")				\
	_(LOST_TRACK,		"discarded_after_lost_events")		\
	_(STOPPED,		"stopped")				\
	_(UNKNOWN_STATE,	"unknown_state")

#define LT_DROP_ENUM(name, text) LT_DROP_##name,
enum lt_wait_drop { LT_WAIT_DROPS(LT_DROP_ENUM) LT_DROP_NR };
#undef LT_DROP_ENUM
const char *lt_wait_drop_name(enum lt_wait_drop drop);

/*
 * What the replay tells a watcher (lt_replay_opts.on_note), as it goes:
 * every wait it saw, charged or dropped; and for waits charged
 * provisionally (see replay.c), each re-charge of a task's provisional
 * rows to an outer reason, and each commit of them (after which none
 * re-charges).  A wait's cause may be a stack's, resolved only by
 * lt_replay_finish(): lt_replay_cause() says it then.
 */
enum lt_note_kind { LT_NOTE_WAIT, LT_NOTE_RECHARGE, LT_NOTE_COMMIT };

struct lt_wait_note {
	enum lt_note_kind kind;
	uint32_t task;
	uint32_t cause;			/* WAIT, RECHARGE; 0: none known */
	uint32_t stack;			/* WAIT: at switch-out, 0 for none */
	enum lt_task_state state;	/* WAIT; OTHER: not known */
	enum lt_wait_drop drop;		/* WAIT */
	struct lt_chain_waker waker;	/* WAIT: what ended it (NONE: not
					   known, a wait for a CPU) */
	bool provisional;		/* WAIT, charged: may be re-charged */
	bool start_known, end_known;	/* WAIT */
	uint64_t start, end;		/* WAIT, where known */
};

/* 0, or -1 (errno set) to stop the replay: a failed write, LT_E_IO. */
typedef int (*lt_note_fn)(void *ctx, const struct lt_wait_note *n);

struct lt_replay_opts {
	uint64_t sleep_cutoff_ns;	/* interruptible waits above: user requested; 0 = keep all */
	bool honour_maxtime;		/* drop waits above the reason's maxtime_us */
	bool charge_stopped;		/* charge stopped tasks' waits (T, t) */
	uint64_t window_ns;		/* 0 = one window */
	int64_t from_ns, to_ns;		/* relative to the first event; -1 = open */
	lt_stack_resolver resolve;	/* NULL: stacks give "[0xaddr]" */
	void *resolve_ctx;
	/*
	 * A name for a task no event named (the trace's saved cmdlines),
	 * asked while the report is built; NULL: "<...>".
	 */
	const char *(*cmdline)(void *ctx, int pid);
	void *cmdline_ctx;
	/*
	 * What the running system says of a task first met mid-life (live
	 * mode reads /proc): its thread group's leader (0: not known) and
	 * whether it is a kernel thread.  A file cannot say: NULL.
	 */
	void (*task_info)(void *ctx, int pid, int *tgid, bool *kthread);
	void *task_info_ctx;
	/* no waited_for trees nor ran_instead (issue 48): less work */
	bool no_chains;
	/* every wait seen, and re-charges (see lt_wait_note); NULL: none */
	lt_note_fn on_note;
	void *note_ctx;
};

struct lt_cause {
	enum lt_cause_kind kind;
	uint32_t reason;	/* strtab id */
	uint32_t argument;	/* strtab id */
};

/* cause and kernel_thread are the resolver's, set by lt_replay_finish() */
struct lt_stack {
	uint64_t hash;
	uint32_t first;		/* index into replay->frames */
	uint32_t nr;
	uint32_t cause;		/* lt_cause id when unannotated */
	bool kernel_thread;
	bool timer;		/* a wakeup's stack: a timer did it */
	bool remote;		/* ... a wakeup another CPU queued */
};

struct lt_worst {
	uint64_t dur_ns;
	uint64_t end_ns;	/* absolute trace timestamp of the wakeup */
};

struct lt_row_acc {
	uint32_t task, window, cause;
	uint32_t next_in_task;	/* row list of a task */
	uint32_t first_sub;	/* sub-row list */
	uint32_t last_sub;	/* the sub-row charged last, tried first */
	bool provisional;	/* may still be re-charged (see replay.c) */
	bool uncharged;		/* user requested waits: shown, not charged */
	uint64_t count, total_ns, max_ns, max_at_ns;
	struct lt_hist hist;
	struct lt_worst worst[LT_WORST];
	uint8_t nr_worst;
	struct lt_chain_tree chain;	/* waited_for, or ran_instead */
};

struct lt_sub_acc {
	uint32_t row, path, stack;
	uint32_t next;
	uint64_t count, total_ns, max_ns, max_at_ns;
	uint32_t wakers;	/* its first lt_sub_waker, UINT32_MAX: none */
};

/*
 * What ended a sub-row's waits (issue 50: pprof's waker label), kept
 * unless opts.no_chains: its waits and their time per waker, which add
 * up to the sub-row's count and total.  Keyed (kind, task for a task,
 * the waking's stack for a task or an interrupt: whether a timer's
 * expiry did it is known only once the stack is resolved, and
 * lt_waker_kind_name() says it then).  At most LT_SUB_WAKERS of them;
 * the waits of the others are summed in one of kind LT_WAKER_OTHER.
 */
#define LT_SUB_WAKERS	8

struct lt_sub_waker {
	uint64_t count, total_ns;
	uint32_t task;		/* LT_WAKER_TASK's, else LT_NO_TASK */
	uint32_t stack;		/* the waking's, 0: none (or resolved) */
	uint32_t next;		/* the sub-row's next, UINT32_MAX: none */
	uint8_t kind;		/* enum lt_waker_kind, never NONE */
};

/* One entry of a task's reason stack. */
struct lt_reason_frame {
	uint32_t reason, argument;	/* strtab ids */
	uint32_t maxtime_us;
	uint32_t path;			/* path id up to and including this */
	uint64_t cookie;
};

enum lt_run {
	LT_RUN_UNKNOWN,		/* not seen, or lost track */
	LT_RUN_RUNNING,
	LT_RUN_RUNNABLE,	/* preempted or woken, waiting for a CPU */
	LT_RUN_SLEEPING,
	LT_RUN_OTHER,		/* stopped, traced, dead */
};

enum lt_task_flags {
	LT_TASK_KTHREAD		= 1 << 0,	/* known kernel thread */
	LT_TASK_BORN		= 1 << 1,	/* created inside the trace */
	LT_TASK_ACTIVE		= 1 << 2,	/* seen doing something */
	LT_TASK_EXITED		= 1 << 3,
	LT_TASK_UNCERTAIN	= 1 << 4,	/* reason stack may miss outer frames */
	LT_TASK_PENDING		= 1 << 5,	/* woken, sleep not yet charged */
	LT_TASK_WOKEN		= 1 << 6,	/* sched_wakeup seen for this wait */
	LT_TASK_WAKING		= 1 << 7,	/* sched_waking seen for this wait */
	LT_TASK_NO_STACK_YET	= 1 << 8,	/* switch-out stack may follow */
	LT_TASK_THREAD		= 1 << 9,	/* created with CLONE_THREAD */
	LT_TASK_REPARENTED	= 1 << 10,	/* leader known from newtask */
	LT_TASK_QUEUED		= 1 << 11,	/* runnable since rq_start, not
						   woken: preempted or new */
	LT_TASK_WAKEUP_SEEN	= 1 << 12,	/* a sched_wakeup ended this
						   wait (not only its stat) */
	LT_TASK_FIRST_WAKE	= 1 << 13,	/* woken from a state the trace
						   did not show: it may have
						   been running */
	LT_TASK_UNSEEN		= 1 << 14,	/* ... and that was its first
						   event */
};

/* A task's last row for a key: blocked waits [0] and cpu waits [1]. */
struct lt_row_cache {
	uint32_t row, window, cause;
	bool provisional;
};

/* A piece of a task's history (replay-chains.c): from start to the next's. */
enum lt_seg_kind {
	LT_SEG_RUNNING, LT_SEG_RUNNABLE, LT_SEG_BLOCKED, LT_SEG_UNKNOWN,
	LT_SEG_LOST,
};

/* 32 bytes: a busy trace keeps a million of them */
struct lt_chain_seg {
	uint64_t start;
	/* BLOCKED: what ended it (an lt_chain_waker's fields), its cause */
	uint64_t wts;
	uint32_t wtask, wstack;
	uint32_t cause;
	uint8_t wkind;
	uint8_t kind;			/* enum lt_seg_kind */
	int16_t cpu;			/* RUNNING: where */
};

struct lt_chain_task {
	/*
	 * A ring of cap (a power of two, or 0): segment k, numbered on from
	 * the first, at segs[k & (cap - 1)]; live: [first, nr)
	 */
	struct lt_chain_seg *segs;
	uint32_t first, nr, cap;
	/* waking, early: kind NONE for none, their other fields stale */
	struct lt_chain_waker waking;	/* the first waking since its
					   switch-out */
	struct lt_chain_waker early;	/* a waking while it still ran */
	struct lt_chain_waker ended;	/* what ended its last wait... */
	uint64_t ended_at;		/* ... at this time */
	uint64_t seen_ts;		/* last record showing it running,
					   but see lt_chain_cpu.fast_pid */
	/*
	 * The tree of its wait woken at pending_end, walked then: charged
	 * at its switch-in, which may come long after (it needs no history
	 * kept meanwhile)
	 */
	struct lt_chain_tree pending;
	uint64_t pending_start, pending_end;
};

struct lt_task {
	int pid;
	uint32_t leader;	/* task index of the thread-group leader */
	uint32_t parent;	/* task index or LT_NO_TASK */
	char comm[LT_COMM_LEN];
	uint32_t cgroup;	/* its cgroup's path, a string id; 0: not known */
	uint32_t flags;
	enum lt_run run;
	enum lt_task_state sleep_state;
	int last_cpu;
	/* replay-chains.c: its open segment's CPU if running, else -1 */
	int16_t chain_run_cpu;
	uint64_t sleep_start, wake_ts, waking_ts, rq_start;
	uint64_t last_run_ts;	/* last time seen running (0: never) */
	/* what the task was inside when it went to sleep */
	uint32_t sleep_cause;	/* cause id, 0 = none annotated */
	uint32_t sleep_path;
	uint32_t sleep_maxtime_us;
	uint32_t sleep_stack;	/* stack id, 0 = none */
	bool sleep_provisional;
	struct lt_reason_frame *rstack;
	uint16_t depth, cap;
	uint32_t overflow;	/* sets beyond LT_REASON_DEPTH_MAX */
	uint8_t outer_restores;	/* regions found open since before the trace */
	uint32_t first_row;
	uint32_t last_stack;	/* stack last noted in replay->task_stacks */
	struct lt_row_cache row_cache[2];
	uint64_t charged_ns;
	struct lt_chain_task chain;
};

/* Who was current on a CPU from @start (LT_NO_TASK: not known). */
struct lt_chain_cpu_seg {
	uint64_t start;
	uint32_t task;
};

struct lt_chain_cpu {
	struct lt_chain_cpu_seg *segs;	/* a ring, as lt_chain_task's */
	uint32_t first, nr, cap;
	/* the wakeup just before on this CPU, whose stack may follow */
	uint32_t pend_task;
	uint8_t pend_slot;		/* 0: none; CHAIN_SLOT_* */
	/*
	 * The task current here, in a running segment here (0: none), and
	 * when a record last showed it: its chain.seen_ts, kept here while
	 * it runs, so that most records need nothing of the task's
	 */
	int fast_pid;
	uint32_t fast_task;
	uint64_t seen_ts;
};

struct lt_replay_stats {
	uint64_t events;
	uint64_t by_kind[LT_EV_OTHER + 1];
	uint64_t first_ts, last_ts;
	bool have_ts;
	uint64_t lost_events;		/* known counts */
	uint64_t lost_unknown;		/* gaps of unknown size */
	uint64_t *lost_per_cpu;
	int nr_cpus_lost;
	/*
	 * Per CPU, where its data ends early (LT_LOST_DATA_END, --partial):
	 * its last record's time, 1 before it had any; 0: read whole.
	 */
	uint64_t *cpu_data_end;
	int nr_cpu_data_end;
	uint64_t dropped_interruptible;	/* over the sleep cut-off */
	uint64_t dropped_interruptible_ns;
	uint64_t dropped_maxtime;
	uint64_t dropped_maxtime_ns;
	uint64_t outside_range;
	uint64_t began_before_trace;	/* waits whose start was not seen */
	uint64_t unfinished;		/* still off CPU at the end */
	uint64_t discarded_lost;	/* open waits dropped after lost events */
	/*
	 * Waits a CPU's missing data may hide a part of: begun before every
	 * CPU had data (its oldest pages overwritten), or across a gap of
	 * lost events on any CPU.  Dropped, never guessed.
	 */
	uint64_t dropped_incomplete, dropped_incomplete_ns;
	uint64_t dropped_gap, dropped_gap_ns;
	uint64_t complete_from;		/* every CPU has data from here on;
					   0: from the first event */
	uint64_t gaps;			/* gaps of lost events after that */
	uint64_t resync;		/* reason stacks repaired by cookie */
	uint64_t unmatched_restore;
	uint64_t inconsistent;		/* impossible transitions seen */
	uint64_t implicit_switch_in;	/* tasks seen running, switch-in missing */
	uint64_t no_switch_in;		/* ... whose wait's end was not charged */
	uint64_t cpu_waits_no_switch_in;	/* of which the wait for a CPU
						 * after a wakeup (the blocked
						 * part before it is charged) */
	uint64_t cpu_waits_unwoken;	/* for a CPU after a preemption or */
	uint64_t cpu_waits_unwoken_ns;	/* a fork: not latency (rule 6) */
	/*
	 * Waits for a CPU whose switch-in is missing, charged from the
	 * wakeup to the CPU's record before the task was seen running
	 * there: what the trace proves, a lower bound.
	 */
	uint64_t lower_bound, lower_bound_ns;
	/* stopped by a signal (T) and for a tracer (t): not charged unless
	   asked; off CPU in a state not known here: never */
	uint64_t stopped[2], stopped_ns[2];
	uint64_t unknown_state, unknown_state_ns;
	uint64_t cgroups;		/* tasks' cgroups the input told (LT_EV_CGROUP) */
	uint64_t unordered;		/* events earlier than one before them */
	uint64_t negative;		/* intervals with end before start */
	uint64_t charged_ns;
	uint64_t charged_count;
	/* waited_for trees (issue 48) */
	uint64_t chain_waits;		/* waits given a tree */
	uint64_t chain_segs_peak;	/* history kept at most, segments */
	uint64_t chain_trimmed;		/* walks that met trimmed history */
};

struct lt_replay {
	struct lt_replay_opts opts;
	struct lt_strtab strs;

	struct lt_task *tasks;
	uint32_t nr_tasks, cap_tasks;
	struct lt_pidtab pids;		/* pid -> current task index */

	struct lt_cause *causes;
	uint32_t nr_causes, cap_causes;
	struct lt_map cause_map;	/* (kind, reason, argument) -> cause id */
	uint32_t cause_unknown, cause_sched;
	uint32_t cause_stopped[2];	/* by a signal, for a tracer */

	uint64_t *frames;		/* all distinct stacks' frames */
	uint32_t nr_frames, cap_frames;
	struct lt_stack *stacks;	/* id 0 unused: "no stack" */
	uint32_t nr_stacks, cap_stacks;
	uint32_t nr_resolved;		/* stacks below it have their cause */
	struct lt_map stack_map;	/* hash -> stack id (chained by probe) */
	uint32_t *pooled;		/* decoder's pool id -> stack id, 0 = not yet */
	uint32_t cap_pooled;
	struct lt_map task_stacks;	/* (task, stack) seen: kernel threads */

	struct lt_map path_map;		/* (parent path, reason) -> path id */
	struct lt_path { uint32_t parent, reason; } *paths;
	uint32_t nr_paths, cap_paths;

	struct lt_row_acc *rows;
	uint32_t nr_rows, cap_rows;
	struct lt_map row_map;
	struct lt_sub_acc *subs;
	uint32_t nr_subs, cap_subs;
	struct lt_map sub_map;
	struct lt_sub_waker *sub_wakers;	/* the sub-rows' lists */
	uint32_t nr_sub_wakers, cap_sub_wakers;
	uint32_t free_sub_waker;	/* a list of those unused, UINT32_MAX: none */

	int *cpu_cur;			/* per CPU: pid last seen running */
	uint64_t *cpu_last_ts;		/* per CPU: its last record's time */
	int nr_cpu_cur;
	/*
	 * Per CPU: a loss was fed and no record of that CPU since (the
	 * pipe feeds a loss where its gap begins).  While any is open, or
	 * for a wait begun before the last one closed, nothing is charged.
	 */
	uint8_t *gap_open;		/* GAP_* (replay.c) */
	int nr_gap_cpus;
	unsigned int nr_gaps_open, nr_initial_open;
	uint64_t gap_end;		/* when the last gap closed */

	/* waited_for's histories (replay-chains.c) */
	struct lt_chain_cpu *chain_cpu;
	int nr_chain_cpu;
	uint64_t chain_segs;		/* segments kept, tasks' and CPUs' */
	uint64_t chain_trim_at;		/* trim when chain_segs reaches it */
	/*
	 * The task the chains looked up for this event's pid2 (a switch)
	 * or pid (a wakeup), which the replay's handlers then need
	 * (ev_pid 0: none)
	 */
	int ev_pid;
	uint32_t ev_task;

	uint32_t nr_windows;		/* highest window index + 1 */
	uint64_t past_windows_ns;	/* the last end of a wait past the last
					   window, from origin_ns; 0: none */
	uint64_t origin_ns;		/* absolute ts of window 0 / --from */
	bool finished;

	struct lt_replay_stats stats;
	struct lt_error err;		/* set when feed/finish fail */
};

int lt_replay_init(struct lt_replay *rp, const struct lt_replay_opts *opts);
void lt_replay_free(struct lt_replay *rp);
/* 0, or -1 on a resource limit (rp->err says which). */
int lt_replay_feed(struct lt_replay *rp, const struct lt_ev *ev);
/*
 * Close the books: commit provisional rows, count unfinished waits, and
 * resolve every stack (opts.resolve is called here, never before).
 */
int lt_replay_finish(struct lt_replay *rp);
/*
 * Live mode, where the replay goes on after each look at it:
 * lt_replay_snapshot() gives every stack seen its cause (the report may
 * be built from the rows then), lt_replay_drop_windows() forgets the rows
 * of windows before @first and numbers the rest from 0 (the window
 * origin moves to @first's start).  0, or -1 with rp->err set.
 */
int lt_replay_snapshot(struct lt_replay *rp);
int lt_replay_drop_windows(struct lt_replay *rp, uint32_t first);

/* True once every later event would fall after --to. */
static inline bool lt_replay_past_end(const struct lt_replay *rp, uint64_t ts)
{
	return rp->opts.to_ns >= 0 && rp->stats.have_ts &&
	       ts > rp->stats.first_ts + (uint64_t)rp->opts.to_ns;
}

/*
 * Whether a wait of @dur ending at @end goes before one of @dur2 ending at
 * @end2: longest first; of equal ones, the earliest.  Rows, sub-rows and
 * causes gather waits in no order of time; this one order names them.
 */
static inline bool lt_wait_before(uint64_t dur, uint64_t end, uint64_t dur2,
				  uint64_t end2)
{
	return dur > dur2 || (dur == dur2 && end < end2);
}

/*
 * The task's cgroup (its path from the hierarchy's root), as last told,
 * or its parent's when it was born in the trace; NULL: not known.
 */
const char *lt_replay_task_cgroup(const struct lt_replay *rp, uint32_t task);

/* The task's name: valid only as long as what opts.cmdline answers from. */
const char *lt_replay_task_comm(const struct lt_replay *rp, uint32_t task);

/* Accessors for the report builder. */
const char *lt_replay_str(const struct lt_replay *rp, uint32_t id);
const uint64_t *lt_replay_stack_frames(const struct lt_replay *rp,
				       uint32_t stack, uint32_t *nr);
/* Reason path as ids, outermost first; returns the depth. */
unsigned int lt_replay_path(const struct lt_replay *rp, uint32_t path,
			    uint32_t *reasons, unsigned int max);
bool lt_replay_task_is_kthread(const struct lt_replay *rp, uint32_t task);
/* A note's cause, once finished: a stack's resolved to the stack's cause. */
uint32_t lt_replay_cause(const struct lt_replay *rp, uint32_t cause);

#endif /* LT_REPLAY_H */
