// SPDX-License-Identifier: LGPL-2.1
/*
 * replay-chains.c - whom each wait waited for (issue 48; lt-replay.h).
 *
 * Fed every event before the replay's own handlers (lt_rp_chain_event()),
 * it keeps each task's recent history as contiguous segments,
 *
 *   running | runnable | blocked (cause, waker) | unknown | lost
 *
 * and each CPU's (who was current from when), and notes what ended each
 * wait: the waker, taken from the first sched_waking since the
 * switch-out, else one that raced the switch-out while the task still
 * ran, else the sched_wakeup; a wait its switch-in ended has none.  A
 * waker is the interrupt the event was emitted in (hard, soft: its
 * common flags), a timer (the idle task's), else the task current there;
 * a kernel stack right after the event (options/stacktrace, perf's call
 * chain) may show a timer's expiry instead, which only symbols tell: its
 * id is kept in the nodes and the report decides.
 *
 * When the replay charges a wait [s, e] (lt_rp_chain_charge()), its tree
 * is walked and added to the row's:
 *
 *   waker W, woke at t_w:  ...blocked][runnable][ running -->| e
 *                        s |<- blocked: W's own waker, again ->|
 *
 * from e back to s, W's segments clipped to [s, e]: the one running at
 * t_w (and on to e: from the waking to the wakeup is W's act) as
 * "running", a runnable one as "waiting for cpu", a blocked one as its
 * cause with, below it, the same walk for the waker of that wait over
 * the part in [s, e]; unknown and lost as they are; before what is kept
 * of W, unknown.  A cycle (a waker already on the path) or a blocked
 * node at level LT_CHAIN_LEVELS ends in unknown.  So the nodes of a
 * level cover their parent exactly.  A wait for a CPU gets, instead, who
 * was current on the CPU it was switched in on, from its wakeup on.
 *
 * Memory: a row's tree keeps at most CHAIN_MAX_CHILDREN children per node
 * and CHAIN_MAX_NODES nodes (each parent's rest summed in one "other"
 * node, whose children are not kept).  Histories are cut (chain_trim(),
 * every CHAIN_TRIM_EVERY segments) before the earliest start of any
 * blocked wait still open that may be charged (an interruptible one past
 * the cut-off never is), a CPU's before its earliest open wait for it; a
 * woken wait not yet charged (its task starved of a CPU) is walked then,
 * into its task's pending tree, and holds nothing.  And to at most
 * CHAIN_MAX_HISTORY of time and CHAIN_MAX_SEGS segments in all, the
 * oldest first: a walk that meets what was cut says unknown.  So memory
 * grows with tasks x causes and with the event rate times the longest
 * open wait (1 s at most), never with the trace's length.
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "replay-local.h"

#define CHAIN_MAX_CHILDREN	256
#define CHAIN_MAX_NODES		2048
#define CHAIN_MAX_SEGS		(1u << 20)	/* ~40 MB of history at most */
#define CHAIN_MAX_HISTORY	1000000000ULL	/* and 1 s of it */
#define CHAIN_TRIM_EVERY	(64u << 10)	/* segments added between trims */
/* kept before the earliest open wait: a waking may precede its wait */
#define CHAIN_TRIM_SLACK	1000000ULL
#define NOREC			UINT32_MAX
/* a waking stack's frames kept: the tracepoint's and LT_CHAIN_TIMER_DEPTH */
#define CHAIN_STACK_FRAMES	8

enum { SLOT_NONE, SLOT_WAKING, SLOT_EARLY, SLOT_ENDED };

/* ---- names ------------------------------------------------------------ */

const char *lt_chain_what_name(uint32_t what)
{
	static const char *const names[] = {
		"running", "waiting for cpu", "hardirq", "softirq", "timer",
		"unknown", "lost", "other", "ran",
	};

	if (what < LT_CHAIN_RUNNING || what > LT_CHAIN_RAN)
		return NULL;
	return names[what - LT_CHAIN_RUNNING];
}

/* A frame's name without a compiler's suffix (".constprop.0", ".isra.0"). */
static bool name_is(const char *name, const char *want)
{
	size_t n = strlen(want);

	return !strncmp(name, want, n) && (name[n] == '\0' || name[n] == '.');
}

bool lt_chain_timer_frame(const char *name)
{
	static const char *const frames[] = {
		"hrtimer_wakeup", "__hrtimer_run_queues", "hrtimer_run_softirq",
		"call_timer_fn", "__run_timers", "run_timer_softirq",
		"run_timer_base", "__run_timer_base", "process_timeout",
		"it_real_fn", "posix_timer_fn",
	};
	size_t i;

	for (i = 0; i < sizeof(frames) / sizeof(frames[0]); i++)
		if (name_is(name, frames[i]))
			return true;
	return false;
}

/*
 * A wakeup to a task on another CPU is queued there (TTWU_QUEUE) and run
 * by that CPU from the IPI, or from its idle loop: the sched_wakeup event
 * is then that CPU's, in hard-irq or idle context, while the waker ran on
 * the other CPU, which only sched_waking records.
 */
bool lt_chain_remote_frame(const char *name)
{
	return name_is(name, "sched_ttwu_pending");
}

unsigned int lt_chain_after_tracepoint(const char *const *names,
				       unsigned int nr)
{
	unsigned int i;

	for (i = 0; i < nr; i++)
		if (!strncmp(names[i], "__traceiter_", 12))
			return i + 1;
	for (i = 0; i < nr; i++)
		if (strncmp(names[i], "trace_event_raw_event_", 22) &&
		    strncmp(names[i], "perf_", 5))
			break;
	return i;
}

enum lt_waker_kind lt_chain_stack_waker(const struct lt_replay *rp,
					uint32_t stack)
{
	if (!stack || stack >= rp->nr_resolved)
		return LT_WAKER_NONE;
	if (rp->stacks[stack].remote)
		return LT_WAKER_UNKNOWN;
	return rp->stacks[stack].timer ? LT_WAKER_TIMER : LT_WAKER_NONE;
}

enum lt_waker_kind lt_chain_waker_kind(const struct lt_replay *rp,
				       const struct lt_chain_waker *w)
{
	enum lt_waker_kind said = lt_chain_stack_waker(rp, w->stack);

	if (said == LT_WAKER_UNKNOWN)
		return LT_WAKER_UNKNOWN;
	if (said == LT_WAKER_TIMER && (w->kind == LT_WAKER_TASK ||
				       w->kind == LT_WAKER_HARDIRQ ||
				       w->kind == LT_WAKER_SOFTIRQ))
		return LT_WAKER_TIMER;
	switch (w->kind) {
	case LT_WAKER_TASK:
	case LT_WAKER_HARDIRQ:
	case LT_WAKER_SOFTIRQ:
	case LT_WAKER_TIMER:
	case LT_WAKER_LOST:
	case LT_WAKER_OTHER:
		return w->kind;
	default:
		return LT_WAKER_UNKNOWN;
	}
}

const char *lt_waker_kind_name(const struct lt_replay *rp,
			       const struct lt_chain_waker *w)
{
	switch (lt_chain_waker_kind(rp, w)) {
	case LT_WAKER_TASK:
		return "task";
	case LT_WAKER_HARDIRQ:
		return "hardirq";
	case LT_WAKER_SOFTIRQ:
		return "softirq";
	case LT_WAKER_TIMER:
		return "timer";
	case LT_WAKER_LOST:
		return "lost";
	case LT_WAKER_OTHER:
		return "other";
	default:
		return "unknown";
	}
}

/* ---- histories -------------------------------------------------------- */

/* lt_rp_task_get(), its common case inline: one a record or two */
static inline uint32_t task_of(struct lt_replay *rp, int pid)
{
	uint32_t ti = lt_pidtab_get(&rp->pids, pid);

	return ti != LT_PIDTAB_NONE ? ti : lt_rp_task_get(rp, pid);
}

/* task_of() an event's pid that the replay's handler looks up next */
static inline uint32_t ev_task(struct lt_replay *rp, int pid)
{
	uint32_t ti = task_of(rp, pid);

	rp->ev_pid = pid;
	rp->ev_task = ti;
	return ti;
}

/*
 * Segment @k of @c: a history is a ring of cap (a power of two) numbered
 * on from its first segment, so that cutting its oldest never moves the
 * rest (moving them was ~10% of the replay's thread on big-v6).
 */
static inline struct lt_chain_seg *task_seg(const struct lt_chain_task *c,
					    uint32_t k)
{
	return &c->segs[k & (c->cap - 1)];
}

static inline struct lt_chain_cpu_seg *cpu_seg(const struct lt_chain_cpu *cc,
					       uint32_t k)
{
	return &cc->segs[k & (cc->cap - 1)];
}

static struct lt_chain_seg *seg_open(struct lt_task *t)
{
	return t->chain.nr != t->chain.first ? task_seg(&t->chain, t->chain.nr - 1) :
	       NULL;
}

/* The CPU's current task is no longer running there as it was. */
static inline void fast_end(struct lt_replay *rp, struct lt_chain_cpu *cc)
{
	if (cc->fast_pid) {
		rp->tasks[cc->fast_task].chain.seen_ts = cc->seen_ts;
		cc->fast_pid = 0;
	}
}

/* @ti is current on @cc, in a running segment there, seen at @ts. */
static inline void fast_begin(struct lt_replay *rp, struct lt_chain_cpu *cc,
			      uint32_t ti, uint64_t ts)
{
	cc->fast_pid = rp->tasks[ti].pid;
	cc->fast_task = ti;
	cc->seen_ts = ts;
}

/* When a record last showed @ti running. */
static uint64_t task_seen(const struct lt_replay *rp, uint32_t ti)
{
	const struct lt_task *t = &rp->tasks[ti];
	const struct lt_chain_cpu *cc;

	if (t->chain_run_cpu >= 0 && t->chain_run_cpu < rp->nr_chain_cpu) {
		cc = &rp->chain_cpu[t->chain_run_cpu];
		if (cc->fast_pid && cc->fast_task == ti)
			return cc->seen_ts;
	}
	return t->chain.seen_ts;
}

/*
 * A ring's @first to @nr of @size bytes each, in a new one of @ncap: NULL
 * on ENOMEM (the old one left).  Each element keeps its number.  Not in
 * huge pages (lt_big_alloc()): big-v6 ran 8 ms faster so, but a trace
 * whose histories grow and shrink by turns (len10x) 20% slower, mapping
 * and clearing 2 MiB at each turn.
 */
static void *ring_resize(void *old, uint32_t first, uint32_t nr, uint32_t cap,
			 uint32_t ncap, size_t size)
{
	char *p = malloc((size_t)ncap * size);
	uint32_t k, o, n, run;

	if (!p)
		return NULL;
	for (k = first; k != nr; k += run) {
		o = k & (cap - 1);
		n = k & (ncap - 1);
		run = nr - k;
		if (run > cap - o)
			run = cap - o;
		if (run > ncap - n)
			run = ncap - n;
		memcpy(p + (size_t)n * size, (const char *)old + (size_t)o * size,
		       (size_t)run * size);
	}
	free(old);
	return p;
}

/* Room for one more of @c's segments: -1 (rp->err set) on ENOMEM. */
static __attribute__((noinline)) int seg_grow(struct lt_replay *rp,
					      struct lt_chain_task *c)
{
	uint32_t ncap = c->cap ? c->cap * 2 : 8;
	struct lt_chain_seg *s = ring_resize(c->segs, c->first, c->nr, c->cap,
					     ncap, sizeof(*s));

	if (!s)
		return lt_rp_oom(rp, "task histories");
	c->segs = s;
	c->cap = ncap;
	return 0;
}

/*
 * A new segment of @t from @ts: NULL (rp->err set) on ENOMEM.  Two or
 * three a scheduler event: inline, the growth apart.
 */
static inline struct lt_chain_seg *seg_begin(struct lt_replay *rp, uint32_t ti,
					     uint64_t ts, enum lt_seg_kind kind)
{
	struct lt_task *t = &rp->tasks[ti];
	struct lt_chain_task *c = &t->chain;
	uint32_t nr = c->nr, m;
	struct lt_chain_seg *s;

	if (__builtin_expect(nr - c->first == c->cap, 0) &&
	    seg_grow(rp, c) < 0)
		return NULL;
	m = c->cap - 1;
	s = &c->segs[nr & m];
	/* time never goes back within a task's history */
	if (nr != c->first && ts < c->segs[(nr - 1) & m].start)
		ts = c->segs[(nr - 1) & m].start;
	c->nr = nr + 1;
	*s = (struct lt_chain_seg){ .start = ts, .kind = (uint8_t)kind,
				    .cpu = -1 };
	if (t->chain_run_cpu >= 0) {
		struct lt_chain_cpu *cc = &rp->chain_cpu[t->chain_run_cpu];

		if (cc->fast_pid && cc->fast_task == ti)
			fast_end(rp, cc);
		t->chain_run_cpu = -1;
	}
	rp->chain_segs++;
	return s;
}

/*
 * Segment @k of @c, the last to start by @ts: if @ts is on its edge with a
 * running one just before, that one (the waker was still running there).
 */
static inline long edge_running(const struct lt_chain_task *c, uint32_t k,
				uint64_t ts)
{
	const struct lt_chain_seg *s = task_seg(c, k);

	if (s->kind != LT_SEG_RUNNING && s->start == ts && k > c->first &&
	    task_seg(c, k - 1)->kind == LT_SEG_RUNNING)
		return k - 1;
	return k;
}

/*
 * The index of @t's segment that holds @ts: the last that starts at or
 * before it, or the running one just before it when @ts is on their edge;
 * -1 before what is kept.
 */
static long seg_at(const struct lt_chain_task *c, uint64_t ts)
{
	uint32_t lo = c->first, hi = c->nr, k;

	/* mostly one of the last few: a waker is seen near its waking */
	for (k = 0; k < 4 && hi > lo && task_seg(c, hi - 1)->start > ts; k++)
		hi--;
	if (hi > lo && task_seg(c, hi - 1)->start <= ts) {
		lo = hi;
		hi = c->nr;
	}

	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (task_seg(c, mid)->start <= ts)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == c->first)
		return -1;
	return edge_running(c, lo - 1, ts);
}

/*
 * seg_at(@c, @w->ts) for @c's waker @w: mostly the segment it had open
 * at the waking, which it is if it is the last to start by then.
 */
static inline long seg_of_waker(const struct lt_chain_task *c,
				const struct lt_chain_waker *w)
{
	uint32_t k = w->seg;
	const struct lt_chain_seg *s;

	if (k < c->first || k >= c->nr)
		return seg_at(c, w->ts);
	s = task_seg(c, k);
	if (s->start > w->ts ||
	    (k + 1 < c->nr && task_seg(c, k + 1)->start <= w->ts))
		return seg_at(c, w->ts);
	return edge_running(c, k, w->ts);
}

static __attribute__((noinline))
struct lt_chain_cpu *cpu_of(struct lt_replay *rp, int cpu)
{
	if (cpu < 0)
		return NULL;
	if (cpu >= rp->nr_chain_cpu) {
		int n = cpu + 1;	/* < LT_EV_CPU_LIMIT */
		struct lt_chain_cpu *p = realloc(rp->chain_cpu, n * sizeof(*p));

		if (!p)
			return lt_rp_oom(rp, "CPU histories"), NULL;
		memset(p + rp->nr_chain_cpu, 0,
		       (n - rp->nr_chain_cpu) * sizeof(*p));
		rp->chain_cpu = p;
		rp->nr_chain_cpu = n;
	}
	return &rp->chain_cpu[cpu];
}

/* Who is current on @cc: LT_NO_TASK also when nothing is known yet. */
static uint32_t cpu_current(const struct lt_chain_cpu *cc, bool *known)
{
	*known = cc->nr != cc->first;
	return *known ? cpu_seg(cc, cc->nr - 1)->task : LT_NO_TASK;
}

static __attribute__((noinline)) int cpu_grow(struct lt_replay *rp,
					      struct lt_chain_cpu *cc)
{
	uint32_t ncap = cc->cap ? cc->cap * 2 : 64;
	struct lt_chain_cpu_seg *s = ring_resize(cc->segs, cc->first, cc->nr,
						 cc->cap, ncap, sizeof(*s));

	if (!s)
		return lt_rp_oom(rp, "CPU histories");
	cc->segs = s;
	cc->cap = ncap;
	return 0;
}

static inline int cpu_set(struct lt_replay *rp, struct lt_chain_cpu *cc,
			  uint64_t ts, uint32_t task)
{
	uint32_t nr = cc->nr, m;
	struct lt_chain_cpu_seg *s;

	if (__builtin_expect(nr - cc->first == cc->cap, 0) &&
	    cpu_grow(rp, cc) < 0)
		return -1;
	fast_end(rp, cc);
	m = cc->cap - 1;
	s = &cc->segs[nr & m];
	if (nr != cc->first && ts < cc->segs[(nr - 1) & m].start)
		ts = cc->segs[(nr - 1) & m].start;
	s->start = ts;
	s->task = task;
	cc->nr = nr + 1;
	rp->chain_segs++;
	return 0;
}

/* ---- what ended a wait -------------------------------------------------- */

/* @cur: the task index of ev->current, looked up already */
static inline __attribute__((always_inline))
int waker_of(struct lt_replay *rp, const struct lt_ev *ev,
	     struct lt_chain_waker *w, uint32_t cur)
{
	memset(w, 0, sizeof(*w));
	w->ts = ev->ts;
	w->task = LT_NO_TASK;
	if (ev->irq == LT_EV_IRQ_HARD) {
		w->kind = LT_WAKER_HARDIRQ;
	} else if (ev->irq == LT_EV_IRQ_SOFT) {
		w->kind = LT_WAKER_SOFTIRQ;
	} else if (ev->current <= 0) {
		/* the idle task woke it: a timer (or an irq seen so) */
		w->kind = LT_WAKER_TIMER;
	} else {
		w->kind = LT_WAKER_TASK;
		w->task = cur;
		if (w->task == LT_NO_TASK)
			return -1;
		/* seen already: its open segment is running now */
		w->seg = rp->tasks[cur].chain.nr - 1;
	}
	return 0;
}

/* The stack that follows a wakeup on @ev's CPU belongs to what it named. */
static void pend(struct lt_replay *rp, const struct lt_ev *ev, uint32_t ti,
		 int slot)
{
	/* lt_rp_chain_event() made the CPU's */
	struct lt_chain_cpu *cc = &rp->chain_cpu[ev->cpu];

	cc->pend_task = ti;
	cc->pend_slot = (uint8_t)slot;
}

/* The blocked wait open for @ti ends at @ts, ended by @w. */
static inline __attribute__((always_inline))
int end_blocked(struct lt_replay *rp, uint32_t ti, uint64_t ts,
		const struct lt_chain_waker *w)
{
	struct lt_task *t = &rp->tasks[ti];
	struct lt_chain_seg *o = seg_open(t);

	o->wts = w->ts;
	o->wtask = w->task;
	o->wstack = w->stack;
	o->wkind = w->kind;
	o->cause = lt_rp_sleep_cause(rp, t, t->sleep_state);
	t->chain.ended = *w;
	t->chain.ended_at = ts;
	t->chain.waking.kind = LT_WAKER_NONE;
	return seg_begin(rp, ti, ts, LT_SEG_RUNNABLE) ? 0 : -1;
}

/* @ti is current on @cpu at @ts (a record of it, or its switch-out). */
static int seen(struct lt_replay *rp, struct lt_chain_cpu *cc, int cpu,
		uint32_t ti, uint64_t ts)
{
	struct lt_chain_seg *o;
	struct lt_task *t;
	uint32_t cur;
	bool known;

	cur = cpu_current(cc, &known);
	if (!known || cur != ti) {
		if (known && cur != LT_NO_TASK) {
			/* its switch away from cur is missing */
			uint64_t last = cpu < rp->nr_cpu_cur && rp->cpu_last_ts[cpu] ?
					rp->cpu_last_ts[cpu] : ts;

			if (cpu_set(rp, cc, last, LT_NO_TASK) < 0)
				return -1;
			if (cur != LT_CHAIN_IDLE) {
				t = &rp->tasks[cur];
				o = seg_open(t);
				if (o && o->kind == LT_SEG_RUNNING && o->cpu == cpu) {
					uint64_t seen = task_seen(rp, cur);
					uint64_t from = seen > o->start ? seen :
							o->start;

					if (!seg_begin(rp, cur, from, LT_SEG_UNKNOWN))
						return -1;
				}
			}
		}
		if (cpu_set(rp, cc, ts, ti) < 0)
			return -1;
	}
	t = &rp->tasks[ti];
	o = seg_open(t);
	if (o && o->kind == LT_SEG_RUNNING && o->cpu == cpu) {
		fast_begin(rp, cc, ti, ts);
		return 0;
	}
	if (o && o->kind == LT_SEG_RUNNING) {
		/* running on another CPU: it left that one unseen */
		uint64_t seen = task_seen(rp, ti);
		uint64_t from = seen > o->start ? seen : o->start;

		if (!seg_begin(rp, ti, from, LT_SEG_UNKNOWN))
			return -1;
	} else if (o && o->kind == LT_SEG_BLOCKED && t->chain.waking.kind &&
		   t->chain.waking.ts <= ts) {
		struct lt_chain_waker w = t->chain.waking;

		/* woken; its switch-in missing: unknown from the waking */
		if (end_blocked(rp, ti, w.ts, &w) < 0)
			return -1;
		seg_open(&rp->tasks[ti])->kind = LT_SEG_UNKNOWN;
	} else if (o && (o->kind == LT_SEG_BLOCKED ||
			 o->kind == LT_SEG_RUNNABLE)) {
		/* its switch-in is missing: unknown since its last transition */
		o->kind = LT_SEG_UNKNOWN;
	}
	o = seg_begin(rp, ti, ts, LT_SEG_RUNNING);
	if (!o)
		return -1;
	o->cpu = (int16_t)cpu;
	rp->tasks[ti].chain_run_cpu = (int16_t)cpu;
	t = &rp->tasks[ti];
	t->chain.seen_ts = ts;
	fast_begin(rp, cc, ti, ts);
	t->chain.early.kind = LT_WAKER_NONE;
	t->chain.waking.kind = LT_WAKER_NONE;
	return 0;
}

/* @cur: the task index of ev->pid (the one leaving), if any */
static int on_switch(struct lt_replay *rp, struct lt_chain_cpu *cc,
		     const struct lt_ev *ev, uint32_t cur)
{
	struct lt_chain_seg *o;
	struct lt_task *t;
	uint32_t ti, next;
	bool known;

	if (ev->pid > 0) {
		ti = cur;
		o = seg_open(&rp->tasks[ti]);
		if (o && o->kind == LT_SEG_RUNNING) {
			bool runnable = ev->state == LT_STATE_RUNNABLE;

			if (!seg_begin(rp, ti, ev->ts, runnable ? LT_SEG_RUNNABLE :
				       LT_SEG_BLOCKED))
				return -1;
			rp->tasks[ti].chain.waking.kind = LT_WAKER_NONE;
			/* a waking that raced the switch-out names the waker */
			if (runnable)
				rp->tasks[ti].chain.early.kind = LT_WAKER_NONE;
		}
	}
	next = ev->pid2 > 0 ? ev_task(rp, ev->pid2) : LT_CHAIN_IDLE;
	if (next == LT_NO_TASK)
		return -1;
	if (cpu_current(cc, &known) != next || !known)
		if (cpu_set(rp, cc, ev->ts, next) < 0)
			return -1;
	if (next == LT_CHAIN_IDLE)
		return 0;
	t = &rp->tasks[next];
	o = seg_open(t);
	if (o && o->kind == LT_SEG_BLOCKED) {
		struct lt_chain_waker w = t->chain.waking;

		if (w.kind) {
			if (end_blocked(rp, next, w.ts, &w) < 0)
				return -1;
		} else {
			/* no wakeup: its switch-in ended it, by no one known */
			memset(&w, 0, sizeof(w));
			w.kind = LT_WAKER_UNKNOWN;
			w.task = LT_NO_TASK;
			if (end_blocked(rp, next, ev->ts, &w) < 0)
				return -1;
		}
		t = &rp->tasks[next];
		o = seg_open(t);
	}
	if (o && o->kind == LT_SEG_RUNNING) {
		uint64_t seen = task_seen(rp, next);
		uint64_t from = seen > o->start ? seen : o->start;

		if (!seg_begin(rp, next, from, LT_SEG_UNKNOWN))
			return -1;
	}
	o = seg_begin(rp, next, ev->ts, LT_SEG_RUNNING);
	if (!o)
		return -1;
	o->cpu = ev->cpu;
	rp->tasks[next].chain_run_cpu = ev->cpu;
	t = &rp->tasks[next];
	t->chain.seen_ts = ev->ts;
	fast_begin(rp, cc, next, ev->ts);
	t->chain.early.kind = LT_WAKER_NONE;
	return 0;
}

static int on_waking(struct lt_replay *rp, const struct lt_ev *ev,
		     uint32_t cur)
{
	uint32_t ti = ev_task(rp, ev->pid);
	struct lt_chain_waker w;
	struct lt_chain_seg *o;
	struct lt_task *t;

	if (ti == LT_NO_TASK || waker_of(rp, ev, &w, cur) < 0)
		return -1;
	t = &rp->tasks[ti];
	o = seg_open(t);
	if (o && o->kind == LT_SEG_BLOCKED) {
		if (!t->chain.waking.kind) {
			t->chain.waking = w;
			pend(rp, ev, ti, SLOT_WAKING);
		}
	} else if (o && o->kind == LT_SEG_RUNNING) {
		t->chain.early = w;
		pend(rp, ev, ti, SLOT_EARLY);
	}
	return 0;
}

static int pending_walk(struct lt_replay *rp, uint32_t ti, uint64_t start,
			uint64_t end, const struct lt_chain_waker *w);
static bool may_charge(const struct lt_replay *rp, enum lt_task_state state,
		       uint64_t start, uint64_t now);

static int on_wakeup(struct lt_replay *rp, const struct lt_ev *ev,
		     uint32_t cur)
{
	uint32_t ti = ev_task(rp, ev->pid);
	struct lt_chain_seg *o;
	struct lt_task *t;

	if (ti == LT_NO_TASK)
		return -1;
	t = &rp->tasks[ti];
	o = seg_open(t);
	if (o && o->kind == LT_SEG_BLOCKED) {
		struct lt_chain_waker w;
		int slot = SLOT_NONE;
		/* a waking since the switch-out, else one that raced it */
		if (t->chain.waking.kind) {
			w = t->chain.waking;
		} else if (t->chain.early.kind) {
			w = t->chain.early;
		} else {
			if (waker_of(rp, ev, &w, cur) < 0)
				return -1;
			slot = SLOT_ENDED;
		}
		if (end_blocked(rp, ti, ev->ts, &w) < 0)
			return -1;
		if (slot)
			pend(rp, ev, ti, slot);
	} else if (!o || o->kind == LT_SEG_UNKNOWN || o->kind == LT_SEG_LOST) {
		/* asleep since before the trace, or since what was not seen */
		if (!seg_begin(rp, ti, ev->ts, LT_SEG_RUNNABLE))
			return -1;
	}
	rp->tasks[ti].chain.early.kind = LT_WAKER_NONE;
	return 0;
}

static int on_wakeup_new(struct lt_replay *rp, const struct lt_ev *ev)
{
	uint32_t ti = ev_task(rp, ev->pid);
	struct lt_chain_seg *o;

	if (ti == LT_NO_TASK)
		return -1;
	o = seg_open(&rp->tasks[ti]);
	if (o && o->kind == LT_SEG_RUNNABLE)
		return 0;
	return seg_begin(rp, ti, ev->ts, LT_SEG_RUNNABLE) ? 0 : -1;
}

/* The kernel stack of the wakeup just before on its CPU. */
static int on_waking_stack(struct lt_replay *rp, const struct lt_ev *ev)
{
	struct lt_chain_cpu *cc = ev->cpu >= 0 && ev->cpu < rp->nr_chain_cpu ?
				  &rp->chain_cpu[ev->cpu] : NULL;
	struct lt_chain_waker *w = NULL;
	struct lt_task *t;
	uint32_t id;
	int slot;

	if (!cc || !cc->pend_slot || !ev->nr_frames)
		return 0;
	slot = cc->pend_slot;
	cc->pend_slot = SLOT_NONE;
	/*
	 * Only its first frames say whether a timer did it: the rest (what
	 * an interrupt interrupted) would only make nodes differ in keys.
	 */
	id = lt_rp_stack_intern(rp, ev->frames, ev->nr_frames < CHAIN_STACK_FRAMES ?
				ev->nr_frames : CHAIN_STACK_FRAMES);
	if (id == UINT32_MAX)
		return -1;
	t = &rp->tasks[cc->pend_task];
	if (slot == SLOT_WAKING)
		w = &t->chain.waking;
	else if (slot == SLOT_EARLY)
		w = &t->chain.early;
	if (w) {
		w->stack = id;
		return 0;
	}
	/* SLOT_ENDED: the wait the wakeup ended, and its segment */
	if (t->chain.ended.kind && !t->chain.ended.stack) {
		long i = seg_at(&t->chain, t->chain.ended_at);

		t->chain.ended.stack = id;
		/* its tree, walked at the wakeup: the top level is the waker's */
		if (t->chain.pending.nr &&
		    t->chain.pending_end == t->chain.ended_at) {
			struct lt_chain_tree *tr = &t->chain.pending;
			uint32_t k;

			for (k = tr->nodes[0].child; k; k = tr->nodes[k].next)
				if (tr->nodes[k].task != LT_NO_TASK ||
				    tr->nodes[k].what == LT_CHAIN_HARDIRQ ||
				    tr->nodes[k].what == LT_CHAIN_SOFTIRQ ||
				    tr->nodes[k].what == LT_CHAIN_TIMER)
					tr->nodes[k].wstack = id;
		}
		for (; i >= (long)t->chain.first; i--) {
			struct lt_chain_seg *s = task_seg(&t->chain, i);

			if (s->kind == LT_SEG_BLOCKED &&
			    s->wts == t->chain.ended.ts) {
				s->wstack = id;
				break;
			}
			if (s->start < t->chain.ended_at)
				break;
		}
	}
	return 0;
}

/*
 * Events lost on @cpu: every task that last ran there may have done
 * anything from the gap's start (its record before) to its next
 * transition.
 */
static int on_lost(struct lt_replay *rp, struct lt_chain_cpu *cc,
		   const struct lt_ev *ev)
{
	uint64_t start = ev->cpu < rp->nr_cpu_cur && rp->cpu_last_ts[ev->cpu] ?
			 rp->cpu_last_ts[ev->cpu] : ev->ts;
	bool known;
	uint32_t i;

	cpu_current(cc, &known);
	if (known && cpu_set(rp, cc, start, LT_NO_TASK) < 0)
		return -1;
	for (i = 0; i < rp->nr_tasks; i++) {
		struct lt_task *t = &rp->tasks[i];
		struct lt_chain_seg *o = seg_open(t);

		if (t->last_cpu != ev->cpu || !o || o->kind == LT_SEG_LOST ||
		    t->run == LT_RUN_OTHER)
			continue;
		if (o->kind == LT_SEG_BLOCKED) {
			o->wkind = LT_WAKER_LOST;
			o->wtask = LT_NO_TASK;
			o->cause = lt_rp_sleep_cause(rp, t, t->sleep_state);
			t->chain.waking.kind = LT_WAKER_NONE;
		}
		if (!seg_begin(rp, i, start > o->start ? start : o->start,
			       LT_SEG_LOST))
			return -1;
	}
	return 0;
}

/* ---- memory: histories cut to what an open wait may need --------------- */

/* Whether a wait open since @start in @state may yet be charged. */
static bool may_charge(const struct lt_replay *rp, enum lt_task_state state,
		       uint64_t start, uint64_t now)
{
	switch (state) {
	case LT_STATE_SLEEP:
	case LT_STATE_IDLE:
		return !rp->opts.sleep_cutoff_ns ||
		       now - start <= rp->opts.sleep_cutoff_ns;
	case LT_STATE_STOPPED:
	case LT_STATE_TRACED:
		return rp->opts.charge_stopped;
	case LT_STATE_OTHER:
	case LT_STATE_DEAD:
		return false;
	default:
		return true;
	}
}

/*
 * A ring of @live elements in @cap: given back down to a smaller one once
 * a sixteenth is in use, only when far too large (pages given back come
 * back zeroed).  Its new cap, or @cap.
 */
static uint32_t ring_fit(uint32_t live, uint32_t cap)
{
	uint32_t ncap;

	for (ncap = cap; ncap > 4096 && ncap / 16 >= live; ncap /= 2)
		;
	return ncap;
}

/*
 * At each trim a history's numbers are lowered by a multiple of its ring
 * (no element moves), so that they stay small (a long in walk(), never
 * wrapping).  A waker's segment number may then name another segment:
 * seg_of_waker() checks it.  first stays above 0 if it was: walk()
 * counts what was cut.
 */
static uint32_t renumber(uint32_t first, uint32_t cap)
{
	return first ? (first - 1) & ~(cap - 1) : 0;
}

/* Element @k's start (its first field) in a ring of @cap of @size bytes. */
static uint64_t ring_start(const void *ring, uint32_t cap, size_t size,
			   uint32_t k)
{
	uint64_t start;

	memcpy(&start, (const char *)ring + (size_t)(k & (cap - 1)) * size,
	       sizeof(start));
	return start;
}
_Static_assert(offsetof(struct lt_chain_seg, start) == 0 &&
	       offsetof(struct lt_chain_cpu_seg, start) == 0,
	       "a history's elements start with their start");

/*
 * Cut the ring *@ring (@first to @nr of *@cap, @size bytes each, their
 * starts never going back) to what @cut may still need: an element that
 * ends at or before it is not, so from the last to start by @cut on.
 * Memory is given back where far too large, and the numbers lowered.
 * How many went.
 */
static uint32_t ring_cut(void **ring, uint32_t *first, uint32_t *nr,
			 uint32_t *cap, size_t size, uint64_t cut)
{
	uint32_t n = *first, lo, hi, ncap, d, gone;
	void *p;

	if (n + 1 < *nr && ring_start(*ring, *cap, size, n + 1) <= cut) {
		lo = n + 1;
		hi = *nr;
		while (lo < hi) {
			uint32_t mid = lo + (hi - lo) / 2;

			if (ring_start(*ring, *cap, size, mid) <= cut)
				lo = mid + 1;
			else
				hi = mid;
		}
		n = lo - 1;
	}
	gone = n - *first;
	*first = n;
	ncap = ring_fit(*nr - *first, *cap);
	if (ncap < *cap &&
	    (p = ring_resize(*ring, *first, *nr, *cap, ncap, size))) {
		*ring = p;
		*cap = ncap;
	}
	d = renumber(*first, *cap);
	*first -= d;
	*nr -= d;
	return gone;
}

static void trim_task(struct lt_replay *rp, struct lt_chain_task *c,
		      uint64_t cut)
{
	rp->chain_segs -= ring_cut((void **)&c->segs, &c->first, &c->nr,
				   &c->cap, sizeof(*c->segs), cut);
}

static void trim_cpu(struct lt_replay *rp, struct lt_chain_cpu *cc,
		     uint64_t cut)
{
	rp->chain_segs -= ring_cut((void **)&cc->segs, &cc->first, &cc->nr,
				   &cc->cap, sizeof(*cc->segs), cut);
}

static void trim_all(struct lt_replay *rp, uint64_t cut, uint64_t cpu_cut)
{
	uint32_t i;
	int c;

	for (i = 0; i < rp->nr_tasks; i++)
		if (rp->tasks[i].chain.cap)
			trim_task(rp, &rp->tasks[i].chain, cut);
	for (c = 0; c < rp->nr_chain_cpu; c++)
		trim_cpu(rp, &rp->chain_cpu[c], cpu_cut);
}

/*
 * A blocked wait still open may need the histories of the tasks it may
 * walk through from its start; a wait for a CPU, only its CPU's, from
 * its wakeup.
 */
static int chain_trim(struct lt_replay *rp)
{
	uint64_t now = rp->stats.last_ts, cut = now, cpu_cut = now;
	unsigned int round;
	uint32_t i;

	for (i = 0; i < rp->nr_tasks; i++) {
		struct lt_task *t = &rp->tasks[i];
		uint64_t s = UINT64_MAX;

		if (t->run == LT_RUN_SLEEPING &&
		    may_charge(rp, t->sleep_state, t->sleep_start, now))
			s = t->sleep_start;
		/*
		 * Woken, charged when it runs, which may come long after
		 * (starved): its tree is walked now, so that its history
		 * need not be kept meanwhile.
		 */
		if ((t->flags & LT_TASK_PENDING) &&
		    !(t->chain.pending.nr && t->chain.pending_end == t->wake_ts) &&
		    may_charge(rp, t->sleep_state, t->sleep_start, t->wake_ts)) {
			struct lt_chain_waker w = lt_rp_chain_waker(rp, i, t->wake_ts);

			if (!w.kind)
				w.kind = LT_WAKER_UNKNOWN;
			if (pending_walk(rp, i, t->sleep_start, t->wake_ts, &w) < 0)
				return -1;
			t = &rp->tasks[i];
		}
		/* a waking that raced its open wait's switch-out names its waker */
		if (s != UINT64_MAX && t->chain.early.kind &&
		    t->chain.early.ts < s)
			s = t->chain.early.ts;
		if (s < cut)
			cut = s;
		if (t->run == LT_RUN_RUNNABLE && (t->flags & LT_TASK_WOKEN) &&
		    t->rq_start < cpu_cut)
			cpu_cut = t->rq_start;
		/*
		 * Waking, its wakeup not seen yet (or not in the trace, as
		 * perf sched record's): its wait for a CPU is from the waking
		 */
		if ((t->run == LT_RUN_SLEEPING || t->run == LT_RUN_UNKNOWN) &&
		    (t->flags & LT_TASK_WAKING) && t->waking_ts < cpu_cut)
			cpu_cut = t->waking_ts;
	}
	cut = cut > CHAIN_TRIM_SLACK ? cut - CHAIN_TRIM_SLACK : 0;
	cpu_cut = cpu_cut > CHAIN_TRIM_SLACK ? cpu_cut - CHAIN_TRIM_SLACK : 0;
	/* a longer wait's older part is unknown: its history is too dear */
	if (now > CHAIN_MAX_HISTORY && cut < now - CHAIN_MAX_HISTORY)
		cut = now - CHAIN_MAX_HISTORY;
	if (now > CHAIN_MAX_HISTORY && cpu_cut < now - CHAIN_MAX_HISTORY)
		cpu_cut = now - CHAIN_MAX_HISTORY;
	if (rp->chain_segs > rp->stats.chain_segs_peak)
		rp->stats.chain_segs_peak = rp->chain_segs;
	trim_all(rp, cut, cpu_cut);
	/* over the budget: the oldest go, open waits or not */
	for (round = 0; rp->chain_segs > CHAIN_MAX_SEGS && round < 32; round++) {
		cut += (now - cut) / 2 + 1;
		cpu_cut += (now - cpu_cut) / 2 + 1;
		trim_all(rp, cut, cpu_cut);
	}
	rp->chain_trim_at = rp->chain_segs + CHAIN_TRIM_EVERY;
	return 0;
}

/* ---- the feed ---------------------------------------------------------- */

int lt_rp_chain_event(struct lt_replay *rp, const struct lt_ev *ev)
{
	struct lt_chain_cpu *cc;
	uint32_t ti = LT_NO_TASK;
	int pid, ret = 0;

	if (rp->opts.no_chains || ev->cpu < 0)
		return 0;
	if (__builtin_expect(ev->cpu >= rp->nr_chain_cpu, 0) &&
	    !cpu_of(rp, ev->cpu))
		return -1;
	cc = &rp->chain_cpu[ev->cpu];
	/* the task current on the CPU (a switch: the one leaving it) */
	switch (ev->kind) {
	case LT_EV_STACK:
		if (ev->waking_stack)
			return on_waking_stack(rp, ev);
		cc->pend_slot = SLOT_NONE;
		return 0;
	case LT_EV_LOST:
		cc->pend_slot = SLOT_NONE;
		return on_lost(rp, cc, ev);
	case LT_EV_SWITCH:
		pid = ev->pid;
		break;
	default:
		pid = ev->current;
		break;
	}
	cc->pend_slot = SLOT_NONE;
	if (pid > 0) {
		/* mostly the CPU's current task, running there: nothing new */
		if (cc->fast_pid == pid) {
			ti = cc->fast_task;
			cc->seen_ts = ev->ts;
		} else {
			ti = task_of(rp, pid);
			if (ti == LT_NO_TASK ||
			    seen(rp, cc, ev->cpu, ti, ev->ts) < 0)
				return -1;
		}
	}
	switch (ev->kind) {
	case LT_EV_SWITCH:
		ret = on_switch(rp, cc, ev, ti);
		break;
	case LT_EV_WAKING:
		ret = ev->pid > 0 ? on_waking(rp, ev, ti) : 0;
		break;
	case LT_EV_WAKEUP:
		ret = ev->pid > 0 ? on_wakeup(rp, ev, ti) : 0;
		break;
	case LT_EV_WAKEUP_NEW:
		ret = ev->pid > 0 ? on_wakeup_new(rp, ev) : 0;
		break;
	default:
		break;
	}
	if (ret < 0)
		return -1;
	if (rp->chain_segs >= rp->chain_trim_at)
		return chain_trim(rp);
	return 0;
}

/* ---- trees --------------------------------------------------------------- */

static __attribute__((noinline)) int tree_new_root(struct lt_replay *rp,
						   struct lt_chain_tree *tr)
{
	if (!tr->cap) {
		tr->nodes = malloc(8 * sizeof(*tr->nodes));
		if (!tr->nodes)
			return lt_rp_oom(rp, "waited_for trees");
		tr->cap = 8;
	}
	memset(&tr->nodes[0], 0, sizeof(tr->nodes[0]));
	tr->nodes[0].task = LT_NO_TASK;
	tr->nr = 1;
	memset(tr->memo, 0, sizeof(tr->memo));
	return 0;
}

/* @tr's root, made if it has none: -1 (rp->err set) on ENOMEM. */
static inline int tree_root(struct lt_replay *rp, struct lt_chain_tree *tr)
{
	return tr->nr ? 0 : tree_new_root(rp, tr);
}

/* nodes a row's tree has before its children are found by a hash */
#define TREE_HASH_FROM	16

static uint32_t tree_hash(uint32_t parent, uint32_t task, uint32_t what,
			  uint32_t wstack)
{
	uint64_t h = (uint64_t)parent * 0x9e3779b97f4a7c15ULL;

	h ^= (uint64_t)task * 0xc2b2ae3d27d4eb4fULL;
	h ^= (uint64_t)what * 0x165667b19e3779f9ULL;
	h ^= (uint64_t)wstack * 0x27d4eb2f165667c5ULL;
	return (uint32_t)(h ^ (h >> 29));
}

/* A node's key as its fields lay it out, to compare in two words. */
struct node_key {
	uint32_t task, what, wstack, parent;
};
_Static_assert(offsetof(struct lt_chain_node, parent) -
	       offsetof(struct lt_chain_node, task) ==
	       offsetof(struct node_key, parent), "a node's key is in a row");

static inline bool node_is(const struct lt_chain_node *n, uint32_t parent,
			   uint32_t task, uint32_t what, uint32_t wstack)
{
	struct node_key k = { task, what, wstack, parent };
	uint64_t a[2], b[2];

	memcpy(a, &n->task, sizeof(a));
	memcpy(b, &k, sizeof(b));
	return a[0] == b[0] && a[1] == b[1];
}

static void hash_put(struct lt_chain_tree *tr, uint32_t c)
{
	const struct lt_chain_node *n = &tr->nodes[c];
	uint32_t m = tr->hcap - 1;
	uint32_t i = tree_hash(n->parent, n->task, n->what, n->wstack) & m;

	while (tr->hash[i])
		i = (i + 1) & m;
	tr->hash[i] = c;
}

/* The hash made again, for at least twice the nodes there are. */
static int hash_grow(struct lt_replay *rp, struct lt_chain_tree *tr)
{
	uint32_t cap = 64, c;
	uint32_t *h;

	while (cap < 2 * tr->nr)
		cap *= 2;
	h = calloc(cap, sizeof(*h));
	if (!h)
		return lt_rp_oom(rp, "waited_for trees");
	free(tr->hash);
	tr->hash = h;
	tr->hcap = cap;
	for (c = 1; c < tr->nr; c++)
		hash_put(tr, c);
	return 0;
}

/* tree_child()'s search, and the making of what is not found */
static __attribute__((noinline))
uint32_t tree_lookup(struct lt_replay *rp, struct lt_chain_tree *tr,
		     uint32_t parent, uint32_t task, uint32_t what,
		     uint32_t wstack, bool *failed)
{
	struct lt_chain_node *n;
	uint32_t c, prev = 0;

	if (tr->hash) {
		uint32_t m = tr->hcap - 1;
		uint32_t i = tree_hash(parent, task, what, wstack) & m;

		for (; (c = tr->hash[i]); i = (i + 1) & m)
			if (node_is(&tr->nodes[c], parent, task, what, wstack))
				return c;
	}
	for (c = tr->hash ? 0 : tr->nodes[parent].child; c;
	     prev = c, c = tr->nodes[c].next) {
		n = &tr->nodes[c];
		if (n->task != task || n->what != what || n->wstack != wstack)
			continue;
		/* to the front: a row's waits mostly have the same few */
		if (prev) {
			tr->nodes[prev].next = n->next;
			n->next = tr->nodes[parent].child;
			tr->nodes[parent].child = c;
		}
		return c;
	}
	if (what != LT_CHAIN_OTHER &&
	    (tr->nodes[parent].nr_children >= CHAIN_MAX_CHILDREN - 1 ||
	     tr->nr >= CHAIN_MAX_NODES))
		return tree_lookup(rp, tr, parent, LT_NO_TASK, LT_CHAIN_OTHER, 0,
				   failed);
	if (tr->nr == tr->cap) {
		uint32_t ncap = tr->cap * 2;

		n = realloc(tr->nodes, (size_t)ncap * sizeof(*n));
		if (!n) {
			*failed = true;
			lt_rp_oom(rp, "waited_for trees");
			return NOREC;
		}
		tr->nodes = n;
		tr->cap = ncap;
	}
	c = tr->nr++;
	n = &tr->nodes[c];
	memset(n, 0, sizeof(*n));
	n->task = task;
	n->what = what;
	n->wstack = wstack;
	n->parent = parent;
	n->next = tr->nodes[parent].child;
	tr->nodes[parent].child = c;
	if (tr->hash && 2 * tr->nr <= tr->hcap) {
		hash_put(tr, c);
	} else if (!tr->no_hash && tr->nr > TREE_HASH_FROM &&
		   hash_grow(rp, tr) < 0) {
		*failed = true;
		return NOREC;
	}
	tr->nodes[parent].nr_children++;
	return c;
}

/*
 * The child of @parent keyed (@task, @what, @wstack), made if need be
 * (past the caps: the parent's "other"); NOREC where children are not
 * kept (under an "other") or on ENOMEM (rp->err set, *@failed).
 */
static inline uint32_t tree_child(struct lt_replay *rp,
				  struct lt_chain_tree *tr, uint32_t parent,
				  uint32_t task, uint32_t what, uint32_t wstack,
				  bool *failed)
{
	uint32_t c, *m = &tr->memo[0];

	/* the root (most adds) is no "other" */
	if (parent && (parent == NOREC ||
		       tr->nodes[parent].what == LT_CHAIN_OTHER))
		return NOREC;
	/*
	 * A row's keys are unique: a memo that names the key is right.  A
	 * list's search moves what it finds to the front, which decides who
	 * becomes "other" later: without a hash only the node found last
	 * (at its list's front) is remembered.
	 */
	if (tr->hash)
		m += ((task ^ what << 8 ^ parent << 16 ^ wstack << 4) *
		      0x9e3779b1u) >> (32 - LT_CHAIN_MEMO_BITS);
	c = *m;
	if (c && node_is(&tr->nodes[c], parent, task, what, wstack))
		return c;
	c = tree_lookup(rp, tr, parent, task, what, wstack, failed);
	if (c != NOREC)
		*m = c;
	return c;
}

struct walk {
	struct lt_replay *rp;
	struct lt_chain_tree *tr;
	uint32_t path[LT_CHAIN_LEVELS + 2];	/* tasks whose wait we are in */
	unsigned int depth;
	bool failed;
};

static inline uint32_t add(struct walk *wk, uint32_t parent, uint32_t task,
			   uint32_t what, uint32_t wstack, uint64_t ns)
{
	uint32_t c;

	if (!ns)
		return NOREC;
	c = tree_child(wk->rp, wk->tr, parent, task, what, wstack, &wk->failed);
	if (c != NOREC)
		wk->tr->nodes[c].ns += ns;
	return c;
}

static void walk(struct walk *wk, uint32_t parent,
		 const struct lt_chain_waker *w, uint64_t lo, uint64_t hi,
		 unsigned int level)
{
	struct lt_replay *rp = wk->rp;
	const struct lt_chain_task *c;
	uint32_t task = w->task, stack = w->stack;
	uint64_t cur, a;
	unsigned int i;
	long k;

	if (hi <= lo || parent == NOREC || wk->failed)
		return;
	switch (w->kind) {
	case LT_WAKER_TASK:
		break;
	case LT_WAKER_HARDIRQ:
		add(wk, parent, LT_NO_TASK, LT_CHAIN_HARDIRQ, stack, hi - lo);
		return;
	case LT_WAKER_SOFTIRQ:
		add(wk, parent, LT_NO_TASK, LT_CHAIN_SOFTIRQ, stack, hi - lo);
		return;
	case LT_WAKER_TIMER:
		/* its stack: the report's "unknown" if another CPU woke it */
		add(wk, parent, LT_NO_TASK, LT_CHAIN_TIMER, stack, hi - lo);
		return;
	case LT_WAKER_LOST:
		add(wk, parent, LT_NO_TASK, LT_CHAIN_LOST, 0, hi - lo);
		return;
	default:
		add(wk, parent, LT_NO_TASK, LT_CHAIN_UNKNOWN, 0, hi - lo);
		return;
	}
	/* a cycle: the waker is a task whose wait we are in */
	for (i = 0; i < wk->depth; i++) {
		if (wk->path[i] == task) {
			add(wk, parent, LT_NO_TASK, LT_CHAIN_UNKNOWN, stack, hi - lo);
			return;
		}
	}
	c = &rp->tasks[task].chain;
	k = seg_of_waker(c, w);
	if (k < 0 || task_seg(c, k)->kind != LT_SEG_RUNNING) {
		add(wk, parent, LT_NO_TASK, LT_CHAIN_UNKNOWN, stack, hi - lo);
		return;
	}
	a = task_seg(c, k)->start > lo ? task_seg(c, k)->start : lo;
	add(wk, parent, task, LT_CHAIN_RUNNING, stack, hi > a ? hi - a : 0);
	cur = a < hi ? a : hi;
	for (k--; cur > lo; k--) {
		const struct lt_chain_seg *s;
		uint32_t n;

		if (k < (long)c->first) {
			if (c->first)
				rp->stats.chain_trimmed++;
			add(wk, parent, LT_NO_TASK, LT_CHAIN_UNKNOWN, stack, cur - lo);
			break;
		}
		s = task_seg(c, k);
		a = s->start > lo ? s->start : lo;
		switch (s->kind) {
		case LT_SEG_RUNNING:
			add(wk, parent, task, LT_CHAIN_RUNNING, stack, cur - a);
			break;
		case LT_SEG_RUNNABLE:
			add(wk, parent, task, LT_CHAIN_RUNNABLE, stack, cur - a);
			break;
		case LT_SEG_UNKNOWN:
			add(wk, parent, LT_NO_TASK, LT_CHAIN_UNKNOWN, stack, cur - a);
			break;
		case LT_SEG_LOST:
			add(wk, parent, LT_NO_TASK, LT_CHAIN_LOST, stack, cur - a);
			break;
		default: {
			struct lt_chain_waker sw = { .ts = s->wts, .task = s->wtask,
						     .stack = s->wstack,
						     .kind = s->wkind };

			n = add(wk, parent, task, s->cause, stack, cur - a);
			if (n == NOREC)
				break;
			if (level >= LT_CHAIN_LEVELS) {
				add(wk, n, LT_NO_TASK, LT_CHAIN_UNKNOWN, 0, cur - a);
				break;
			}
			if (!sw.kind)
				sw.kind = LT_WAKER_UNKNOWN;
			wk->path[wk->depth++] = task;
			walk(wk, n, &sw, a, cur, level + 1);
			wk->depth--;
			/* the history may not move during a walk: c stays */
			break;
		}
		}
		cur = a;
	}
}

/* Who was current on @cpu over [lo, hi], into the root's children. */
static void ran_instead(struct walk *wk, int cpu, uint64_t lo, uint64_t hi)
{
	const struct lt_chain_cpu_seg *s;
	const struct lt_chain_cpu *cc;
	uint32_t i, n, lo_i, hi_i;
	uint64_t a, b, end;

	if (cpu < 0 || cpu >= wk->rp->nr_chain_cpu) {
		add(wk, 0, LT_NO_TASK, LT_CHAIN_UNKNOWN, 0, hi - lo);
		return;
	}
	cc = &wk->rp->chain_cpu[cpu];
	n = cc->nr;
	/*
	 * Mostly one task ran from the wakeup to the switch-in, the one it
	 * switched out: the CPU's last segment but one holds all of it.
	 */
	if (n - cc->first >= 2 && cpu_seg(cc, n - 2)->start <= lo &&
	    cpu_seg(cc, n - 1)->start >= hi) {
		uint32_t task = cpu_seg(cc, n - 2)->task;

		add(wk, 0, task, task == LT_NO_TASK ? LT_CHAIN_UNKNOWN :
		    LT_CHAIN_RAN, 0, hi - lo);
		return;
	}
	/* the first that starts after lo; the one before it holds lo */
	lo_i = cc->first;
	hi_i = n;
	/* mostly one of the last few: a wait for a CPU is short */
	for (i = 0; i < 8 && hi_i > lo_i && cpu_seg(cc, hi_i - 1)->start > lo; i++)
		hi_i--;
	if (hi_i > lo_i && cpu_seg(cc, hi_i - 1)->start <= lo)
		lo_i = hi_i;
	else
		hi_i = n;
	while (lo_i < hi_i) {
		uint32_t mid = lo_i + (hi_i - lo_i) / 2;

		if (cpu_seg(cc, mid)->start <= lo)
			lo_i = mid + 1;
		else
			hi_i = mid;
	}
	i = lo_i;
	if (i > cc->first) {
		i--;
	} else {
		/* before what is kept of the CPU */
		end = i < n && cpu_seg(cc, i)->start < hi ? cpu_seg(cc, i)->start : hi;
		add(wk, 0, LT_NO_TASK, LT_CHAIN_UNKNOWN, 0, end - lo);
	}
	for (; i < n && (s = cpu_seg(cc, i))->start < hi;) {
		uint32_t task = s->task;

		a = s->start > lo ? s->start : lo;
		i++;
		b = i < n && cpu_seg(cc, i)->start < hi ? cpu_seg(cc, i)->start : hi;
		if (b > a)
			add(wk, 0, task, task == LT_NO_TASK ? LT_CHAIN_UNKNOWN :
			    LT_CHAIN_RAN, 0, b - a);
	}
}

static int move_children(struct lt_replay *rp, struct lt_chain_tree *dst,
			 uint32_t dparent, const struct lt_chain_tree *src,
			 uint32_t sparent);

int lt_rp_chain_charge(struct lt_replay *rp, uint32_t row, uint32_t task,
		       const struct wait *w, const struct lt_chain_waker *ended)
{
	struct lt_chain_task *c = &rp->tasks[task].chain;
	struct lt_chain_waker waker;
	struct walk wk;

	if (rp->opts.no_chains)
		return 0;
	/* path[] left as it is: only path[0, depth) is read */
	wk.rp = rp;
	wk.depth = 0;
	wk.failed = false;
	wk.tr = &rp->rows[row].chain;
	if (tree_root(rp, wk.tr) < 0)
		return -1;
	wk.tr->nodes[0].ns += w->end - w->start;
	rp->stats.chain_waits++;
	if (w->state == LT_STATE_RUNNABLE) {
		ran_instead(&wk, w->cpu, w->start, w->end);
	} else if (c->pending.nr && c->pending_start == w->start &&
		   c->pending_end == w->end) {
		/* walked at its wakeup */
		int ret = move_children(rp, wk.tr, 0, &c->pending, 0);

		c->pending.nr = 0;
		return ret;
	} else {
		waker = *ended;
		if (!waker.kind)
			waker.kind = LT_WAKER_UNKNOWN;
		wk.path[wk.depth++] = task;
		walk(&wk, 0, &waker, w->start, w->end, 1);
	}
	return wk.failed ? -1 : 0;
}

/*
 * The tree of @ti's wait [@start, @end] ended by @w, walked now into its
 * pending tree, if it may be charged.
 */
static int pending_walk(struct lt_replay *rp, uint32_t ti, uint64_t start,
			uint64_t end, const struct lt_chain_waker *w)
{
	struct lt_chain_task *c = &rp->tasks[ti].chain;
	struct walk wk = { .rp = rp };

	c->pending.nr = 0;	/* its memory is kept for the next */
	c->pending.no_hash = true;
	wk.tr = &c->pending;
	if (tree_root(rp, wk.tr) < 0)
		return -1;
	c->pending_start = start;
	c->pending_end = end;
	wk.path[wk.depth++] = ti;
	walk(&wk, 0, w, start, end, 1);
	return wk.failed ? -1 : 0;
}

static int move_children(struct lt_replay *rp, struct lt_chain_tree *dst,
			 uint32_t dparent, const struct lt_chain_tree *src,
			 uint32_t sparent)
{
	bool failed = false;
	uint32_t c, d;

	for (c = src->nodes[sparent].child; c; c = src->nodes[c].next) {
		const struct lt_chain_node *n = &src->nodes[c];

		d = tree_child(rp, dst, dparent, n->task, n->what, n->wstack,
			       &failed);
		if (failed)
			return -1;
		if (d == NOREC)
			continue;
		dst->nodes[d].ns += n->ns;
		if (move_children(rp, dst, d, src, c) < 0)
			return -1;
	}
	return 0;
}

int lt_rp_chain_move(struct lt_replay *rp, uint32_t from, uint32_t to)
{
	struct lt_chain_tree src = rp->rows[from].chain;
	int ret = 0;

	if (!src.nr)
		return 0;
	memset(&rp->rows[from].chain, 0, sizeof(src));
	if (tree_root(rp, &rp->rows[to].chain) < 0) {
		ret = -1;
	} else {
		rp->rows[to].chain.nodes[0].ns += src.nodes[0].ns;
		ret = move_children(rp, &rp->rows[to].chain, 0, &src, 0);
	}
	lt_rp_chain_tree_free(&src);
	return ret;
}

void lt_rp_chain_tree_free(struct lt_chain_tree *tr)
{
	free(tr->hash);
	free(tr->nodes);
	memset(tr, 0, sizeof(*tr));
}

void lt_rp_chain_histories_free(struct lt_replay *rp)
{
	uint32_t i;
	int c;

	for (i = 0; i < rp->nr_tasks; i++) {
		struct lt_chain_task *t = &rp->tasks[i].chain;

		free(t->segs);
		t->segs = NULL;
		t->first = t->nr = t->cap = 0;
		lt_rp_chain_tree_free(&t->pending);
	}
	for (c = 0; c < rp->nr_chain_cpu; c++)
		free(rp->chain_cpu[c].segs);
	free(rp->chain_cpu);
	rp->chain_cpu = NULL;
	rp->nr_chain_cpu = 0;
	rp->chain_segs = 0;
}

void lt_rp_chain_free(struct lt_replay *rp)
{
	uint32_t i;

	lt_rp_chain_histories_free(rp);
	for (i = 0; i < rp->nr_rows; i++)
		lt_rp_chain_tree_free(&rp->rows[i].chain);
}
