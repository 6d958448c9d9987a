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
 * With sched_stat_sleep/blocked, the kernel's own "delay" measures the
 * blocked part and arrives before the wakeup; it closes the wait and the
 * switch-derived interval is then not charged again.  Without stat events
 * the wait is charged at switch-in, which is late enough for a stat event
 * to have won.  The blocked time goes to the outermost latencytop reason
 * that was active at switch-out, else to what the switch-out kernel stack
 * says, else to "Unknown reason".
 *
 * Tasks that existed before the trace began may be inside an annotated
 * region we never saw open.  Their charges stay "provisional" until the
 * end: a restore whose cookie we never saw set, arriving while the known
 * stack is empty, proves that everything charged so far happened inside
 * that reason, and the outermost rule moves those charges to it.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lt-replay.h"

#define MAX_TASKS	(4u << 20)
#define MAX_CAUSES	(1u << 20)
#define MAX_STACKS	(4u << 20)
#define MAX_FRAMES	(64u << 20)
#define MAX_PATHS	(1u << 20)
#define MAX_ROWS	(16u << 20)
#define MAX_WINDOWS	(1u << 20)
#define MAX_STACK_DEPTH	256

#define CAUSE_UNKNOWN_TEXT	"Unknown reason"
#define CAUSE_SCHED_TEXT	"Scheduler: waiting for cpu"

/* Grow a vector to hold one more element; -1 past @max or on ENOMEM. */
static int grow(void **vec, uint32_t nr, uint32_t *cap, size_t elem,
		uint32_t max)
{
	uint32_t ncap;
	void *p;

	if (nr < *cap)
		return 0;
	if (nr >= max)
		return -1;
	ncap = *cap ? *cap * 2 : 64;
	if (ncap > max)
		ncap = max;
	p = realloc(*vec, (size_t)ncap * elem);
	if (!p)
		return -1;
	*vec = p;
	*cap = ncap;
	return 0;
}

#define GROW(rp, vec, nr, cap, max, what)				\
	(grow((void **)&(vec), (nr), &(cap), sizeof(*(vec)), (max)) < 0 ? \
	 limit_error((rp), (nr) >= (max), (what), (max)) : 0)

static int limit_error(struct lt_replay *rp, bool over, const char *what,
		       uint32_t max)
{
	if (over)
		lt_error_set(&rp->err, LT_E_LIMIT,
			     "more than %u distinct %s; the trace is too large or hostile",
			     max, what);
	else
		lt_error_set(&rp->err, LT_E_NOMEM,
			     "out of memory while tracking %s", what);
	return -1;
}

static int oom(struct lt_replay *rp, const char *what)
{
	return limit_error(rp, false, what, 0);
}

/* ---- causes, paths, stacks ---------------------------------------- */

static uint32_t cause_get(struct lt_replay *rp, enum lt_cause_kind kind,
			  uint32_t reason, uint32_t argument)
{
	uint32_t *slot;
	int added;

	slot = lt_map_put(&rp->cause_map, (uint64_t)kind << 32 | reason,
			  argument, rp->nr_causes, &added);
	if (!slot) {
		oom(rp, "causes");
		return UINT32_MAX;
	}
	if (!added)
		return *slot;
	if (GROW(rp, rp->causes, rp->nr_causes, rp->cap_causes, MAX_CAUSES,
		 "causes") < 0) {
		lt_map_del(&rp->cause_map, (uint64_t)kind << 32 | reason, argument);
		return UINT32_MAX;
	}
	rp->causes[rp->nr_causes].kind = kind;
	rp->causes[rp->nr_causes].reason = reason;
	rp->causes[rp->nr_causes].argument = argument;
	return rp->nr_causes++;
}

static uint32_t intern(struct lt_replay *rp, const char *s, size_t len)
{
	uint32_t id = lt_strtab_intern(&rp->strs, s, len);

	if (id == UINT32_MAX)
		oom(rp, "strings");
	return id;
}

static uint32_t path_child(struct lt_replay *rp, uint32_t parent,
			   uint32_t reason)
{
	uint32_t *slot;
	int added;

	slot = lt_map_put(&rp->path_map, parent, reason, rp->nr_paths, &added);
	if (!slot) {
		oom(rp, "reason paths");
		return UINT32_MAX;
	}
	if (!added)
		return *slot;
	if (GROW(rp, rp->path_parent, rp->nr_paths, rp->cap_paths, MAX_PATHS,
		 "reason paths") < 0)
		goto fail;
	/* the two arrays grow in step: same count, same capacity */
	if (rp->cap_paths) {
		uint32_t *r = realloc(rp->path_reason,
				      rp->cap_paths * sizeof(*r));

		if (!r) {
			oom(rp, "reason paths");
			goto fail;
		}
		rp->path_reason = r;
	}
	rp->path_parent[rp->nr_paths] = parent;
	rp->path_reason[rp->nr_paths] = reason;
	return rp->nr_paths++;
fail:
	lt_map_del(&rp->path_map, parent, reason);
	return UINT32_MAX;
}

unsigned int lt_replay_path(const struct lt_replay *rp, uint32_t path,
			    uint32_t *reasons, unsigned int max)
{
	unsigned int depth = 0, i;
	uint32_t p;

	for (p = path; p && p < rp->nr_paths; p = rp->path_parent[p])
		depth++;
	if (depth > max)
		depth = max;
	/* walk from the innermost end, filling from the back */
	i = depth;
	for (p = path; p && p < rp->nr_paths && i; p = rp->path_parent[p])
		reasons[--i] = rp->path_reason[p];
	return depth;
}

static uint32_t path_prepend(struct lt_replay *rp, uint32_t outer,
			     uint32_t path)
{
	uint32_t reasons[LT_REASON_DEPTH_MAX];
	unsigned int depth, i;
	uint32_t p;

	depth = lt_replay_path(rp, path, reasons, LT_REASON_DEPTH_MAX - 1);
	p = path_child(rp, 0, outer);
	for (i = 0; i < depth && p != UINT32_MAX; i++)
		p = path_child(rp, p, reasons[i]);
	return p;
}

static uint64_t frames_hash(const uint64_t *f, unsigned int n)
{
	uint64_t h = n;
	unsigned int i;

	for (i = 0; i < n; i++)
		h = lt_hash64(h ^ f[i]);
	return h;
}

static uint32_t stack_intern(struct lt_replay *rp, const uint64_t *f,
			     unsigned int n)
{
	struct lt_stack_info info;
	struct lt_stack *st;
	uint64_t h, probe;
	uint32_t *slot, id, reason;
	char buf[32];
	int added;

	if (!n)
		return 0;
	if (n > MAX_STACK_DEPTH)
		n = MAX_STACK_DEPTH;
	h = frames_hash(f, n);
	/* equal hashes of different stacks take the next probe */
	for (probe = 0;; probe++) {
		slot = lt_map_get(&rp->stack_map, h, probe);
		if (!slot)
			break;
		st = &rp->stacks[*slot];
		if (st->nr == n &&
		    !memcmp(&rp->frames[st->first], f, n * sizeof(*f)))
			return *slot;
	}
	if (rp->nr_frames + n > MAX_FRAMES)
		return limit_error(rp, true, "stack frames", MAX_FRAMES),
		       UINT32_MAX;
	while (rp->cap_frames < rp->nr_frames + n) {
		uint32_t ncap = rp->cap_frames ? rp->cap_frames * 2 : 4096;
		uint64_t *p = realloc(rp->frames, (size_t)ncap * sizeof(*p));

		if (!p)
			return oom(rp, "stack frames"), UINT32_MAX;
		rp->frames = p;
		rp->cap_frames = ncap;
	}
	if (GROW(rp, rp->stacks, rp->nr_stacks, rp->cap_stacks, MAX_STACKS,
		 "kernel stacks") < 0)
		return UINT32_MAX;

	memset(&info, 0, sizeof(info));
	if (!rp->opts.resolve ||
	    rp->opts.resolve(rp->opts.resolve_ctx, f, n, &info) < 0 ||
	    !info.cause) {
		snprintf(buf, sizeof(buf), "[0x%" PRIx64 "]", f[0]);
		info.kind = LT_CAUSE_FUNCTION;
		info.cause = buf;
	}
	reason = intern(rp, info.cause, strlen(info.cause));
	if (reason == UINT32_MAX)
		return UINT32_MAX;

	id = rp->nr_stacks;
	st = &rp->stacks[id];
	st->hash = h;
	st->first = rp->nr_frames;
	st->nr = n;
	st->kernel_thread = info.kernel_thread;
	st->cause = cause_get(rp, info.kind, reason, 0);
	if (st->cause == UINT32_MAX)
		return UINT32_MAX;
	if (!lt_map_put(&rp->stack_map, h, probe, id, &added))
		return oom(rp, "kernel stacks"), UINT32_MAX;
	memcpy(&rp->frames[rp->nr_frames], f, n * sizeof(*f));
	rp->nr_frames += n;
	rp->nr_stacks++;
	return id;
}

const uint64_t *lt_replay_stack_frames(const struct lt_replay *rp,
				       uint32_t stack, uint32_t *nr)
{
	if (!stack || stack >= rp->nr_stacks) {
		*nr = 0;
		return NULL;
	}
	*nr = rp->stacks[stack].nr;
	return &rp->frames[rp->stacks[stack].first];
}

const char *lt_replay_str(const struct lt_replay *rp, uint32_t id)
{
	return lt_strtab_get(&rp->strs, id);
}

/* ---- tasks ---------------------------------------------------------- */

/*
 * @s need not be NUL-terminated: comm arrays come straight from records.
 * Called for most events, so the common case, an unchanged name, is one
 * compare: comm is kept zero-padded like the kernel's.
 */
static void set_comm(struct lt_task *t, const char *s, size_t len)
{
	size_t n = len < LT_COMM_LEN - 1 ? len : LT_COMM_LEN - 1;
	const char *nul;

	if (!s || !n)
		return;
	if (len >= LT_COMM_LEN && !memcmp(t->comm, s, LT_COMM_LEN))
		return;
	nul = memchr(s, '\0', n);
	if (nul)
		n = nul - s;
	if (!n)
		return;
	memcpy(t->comm, s, n);
	memset(t->comm + n, 0, LT_COMM_LEN - n);
}

static uint32_t task_new(struct lt_replay *rp, int pid, uint32_t flags)
{
	struct lt_task *t;

	if (GROW(rp, rp->tasks, rp->nr_tasks, rp->cap_tasks, MAX_TASKS,
		 "tasks") < 0)
		return LT_NO_TASK;
	/* a reused pid now names the new task */
	if (lt_pidtab_set(&rp->pids, pid, rp->nr_tasks) < 0)
		return oom(rp, "tasks"), LT_NO_TASK;
	t = &rp->tasks[rp->nr_tasks];
	memset(t, 0, sizeof(*t));
	t->pid = pid;
	t->leader = rp->nr_tasks;
	t->parent = LT_NO_TASK;
	t->flags = flags;
	t->last_cpu = -1;
	t->first_row = UINT32_MAX;
	t->row_cache[0].row = t->row_cache[1].row = UINT32_MAX;
	/* pid 2 is kthreadd on every Linux: the parent of all kernel threads */
	if (pid == 2)
		t->flags |= LT_TASK_KTHREAD;
	return rp->nr_tasks++;
}

/* The task a pid names now; tasks first seen mid-life start uncertain. */
static uint32_t task_get(struct lt_replay *rp, int pid)
{
	uint32_t ti = lt_pidtab_get(&rp->pids, pid);

	if (ti != LT_PIDTAB_NONE)
		return ti;
	return task_new(rp, pid, LT_TASK_UNCERTAIN);
}

int lt_replay_name_task(struct lt_replay *rp, int pid, const char *comm)
{
	uint32_t id, *slot;
	int added;

	if (pid <= 0)
		return 0;
	id = intern(rp, comm, strnlen(comm, LT_COMM_LEN - 1));
	if (id == UINT32_MAX)
		return -1;
	slot = lt_map_put(&rp->cmdline_map, (uint32_t)pid, 0, id, &added);
	if (!slot)
		return oom(rp, "saved cmdlines");
	*slot = id;
	return 0;
}

const char *lt_replay_task_comm(const struct lt_replay *rp, uint32_t task)
{
	const struct lt_task *t = &rp->tasks[task];
	const uint32_t *slot;

	if (t->comm[0])
		return t->comm;
	/* never named by an event: fall back to the saved cmdlines */
	slot = lt_map_get(&rp->cmdline_map, (uint32_t)t->pid, 0);
	return slot ? lt_strtab_get(&rp->strs, *slot) : "<...>";
}

/*
 * Names the kernel gives its own threads.  Only a fallback: fork events
 * from kthreadd and kthread() in a stack are certain; many traces have
 * neither.
 */
static bool kthread_comm(const char *comm)
{
	static const char *const prefixes[] = {
		"kworker/", "ksoftirqd/", "migration/", "rcu_", "rcuc/",
		"rcub/", "rcuog/", "rcuop/", "rcuos/", "cpuhp/", "watchdog/",
		"idle_inject/", "irq/", "jbd2/", "scsi_eh_", "scsi_tmf_",
		"nvme-", "xfsaild/", "xfs-", "btrfs-", "kswapd", "kcompactd",
		"napi/", "kthrotld", "card", "pr/", "psimon", "kdmflush",
		"dmcrypt_write", "ext4-rsv-conver", "kpktgend_",
	};
	static const char *const names[] = {
		"kthreadd", "khugepaged", "oom_reaper", "kblockd",
		"kintegrityd", "writeback", "kdevtmpfs", "kauditd", "ksmd",
		"khungtaskd", "md", "zswap-shrink", "kstrp", "ipv6_addrconf",
		"mm_percpu_wq", "netns", "inet_frag_wq", "khvcd", "hwrng",
		"kaluad", "blkcg_punt_bio", "tpm_dev_wq", "ata_sff",
		"edac-poller", "devfreq_wq", "watchdogd", "kmpath_rdacd",
		"kmpathd", "ttm_swap", "cfg80211", "pool_workqueue_release",
		"kvfree_rcu_reclaim", "kcryptd", "kthrotld", "charger_manager",
		"spi0", "mmc_complete", "vmstat", "bioset", "crypto",
	};
	size_t i;

	for (i = 0; i < sizeof(prefixes) / sizeof(prefixes[0]); i++)
		if (!strncmp(comm, prefixes[i], strlen(prefixes[i])))
			return true;
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(comm, names[i]))
			return true;
	return false;
}

bool lt_replay_task_is_kthread(const struct lt_replay *rp, uint32_t task)
{
	const struct lt_task *t = &rp->tasks[task];
	unsigned int hops;

	if (kthread_comm(t->comm))
		return true;

	/* a descendant of kthreadd is a kernel thread */
	for (hops = 0; hops < 64; hops++) {
		if (t->flags & LT_TASK_KTHREAD)
			return true;
		if (t->parent == LT_NO_TASK)
			return false;
		t = &rp->tasks[t->parent];
	}
	return false;
}

/* ---- rows ----------------------------------------------------------- */

static uint32_t row_get(struct lt_replay *rp, uint32_t task, uint32_t window,
			uint32_t cause, bool provisional)
{
	struct lt_row_acc *r;
	uint32_t *slot;
	int added;

	slot = lt_map_put(&rp->row_map, (uint64_t)task << 32 | window,
			  (uint64_t)provisional << 32 | cause, rp->nr_rows,
			  &added);
	if (!slot)
		return oom(rp, "rows"), UINT32_MAX;
	if (!added)
		return *slot;
	if (GROW(rp, rp->rows, rp->nr_rows, rp->cap_rows, MAX_ROWS, "rows") < 0) {
		lt_map_del(&rp->row_map, (uint64_t)task << 32 | window,
			   (uint64_t)provisional << 32 | cause);
		return UINT32_MAX;
	}
	r = &rp->rows[rp->nr_rows];
	memset(r, 0, sizeof(*r));
	r->task = task;
	r->window = window;
	r->cause = cause;
	r->provisional = provisional;
	r->first_sub = UINT32_MAX;
	r->last_sub = UINT32_MAX;
	r->next_in_task = rp->tasks[task].first_row;
	rp->tasks[task].first_row = rp->nr_rows;
	return rp->nr_rows++;
}

static void worst_add(struct lt_row_acc *r, uint64_t dur, uint64_t end)
{
	unsigned int i;

	/* kept sorted, longest first */
	for (i = r->nr_worst; i > 0 && r->worst[i - 1].dur_ns < dur; i--)
		if (i < LT_WORST)
			r->worst[i] = r->worst[i - 1];
	if (i >= LT_WORST)
		return;
	r->worst[i].dur_ns = dur;
	r->worst[i].end_ns = end;
	if (r->nr_worst < LT_WORST)
		r->nr_worst++;
}

static int sub_add(struct lt_replay *rp, uint32_t row, uint32_t path,
		   uint32_t stack, uint64_t count, uint64_t total,
		   uint64_t max, uint64_t max_at)
{
	struct lt_sub_acc *s;
	uint32_t *slot, last = rp->rows[row].last_sub;
	int added;

	if (last != UINT32_MAX && rp->subs[last].path == path &&
	    rp->subs[last].stack == stack) {
		slot = &last;
		added = 0;
		goto add;
	}
	slot = lt_map_put(&rp->sub_map, row, (uint64_t)path << 32 | stack,
			  rp->nr_subs, &added);
	if (!slot)
		return oom(rp, "stack rows");
	if (added) {
		if (GROW(rp, rp->subs, rp->nr_subs, rp->cap_subs, MAX_ROWS,
			 "stack rows") < 0) {
			lt_map_del(&rp->sub_map, row, (uint64_t)path << 32 | stack);
			return -1;
		}
		s = &rp->subs[rp->nr_subs];
		memset(s, 0, sizeof(*s));
		s->row = row;
		s->path = path;
		s->stack = stack;
		s->next = rp->rows[row].first_sub;
		rp->rows[row].first_sub = rp->nr_subs++;
	}
	rp->rows[row].last_sub = *slot;
add:
	s = &rp->subs[*slot];
	s->count += count;
	s->total_ns += total;
	if (max > s->max_ns || !s->max_at_ns) {
		s->max_ns = max;
		s->max_at_ns = max_at;
	}
	return 0;
}

/*
 * Move everything row @from holds into row @to.  A non-zero @outer
 * reason is prepended to every sub-row's path (re-charging to an outer
 * reason found later).
 */
static int row_move(struct lt_replay *rp, uint32_t from, uint32_t to,
		    uint32_t outer)
{
	struct lt_row_acc *f = &rp->rows[from], *t = &rp->rows[to];
	uint32_t s, path;
	unsigned int i;

	if (lt_hist_merge(&t->hist, &f->hist) < 0)
		return oom(rp, "histograms");
	if (f->max_ns > t->max_ns || !t->count) {
		t->max_ns = f->max_ns;
		t->max_at_ns = f->max_at_ns;
	}
	t->count += f->count;
	t->total_ns += f->total_ns;
	for (i = 0; i < f->nr_worst; i++)
		worst_add(t, f->worst[i].dur_ns, f->worst[i].end_ns);

	for (s = f->first_sub; s != UINT32_MAX; s = rp->subs[s].next) {
		struct lt_sub_acc sub = rp->subs[s];

		path = outer ? path_prepend(rp, outer, sub.path) : sub.path;
		if (path == UINT32_MAX)
			return -1;
		if (sub_add(rp, to, path, sub.stack, sub.count, sub.total_ns,
			    sub.max_ns, sub.max_at_ns) < 0)
			return -1;
		rp->subs[s].count = 0;
	}
	f = &rp->rows[from];
	lt_hist_free(&f->hist);
	f->count = 0;
	f->total_ns = 0;
	f->max_ns = 0;
	f->nr_worst = 0;
	return 0;
}

/* Provisional rows of a task become final, as charged. */
static int commit_task(struct lt_replay *rp, uint32_t task)
{
	uint32_t r, to;

	for (r = rp->tasks[task].first_row; r != UINT32_MAX;
	     r = rp->rows[r].next_in_task) {
		if (!rp->rows[r].provisional || !rp->rows[r].count)
			continue;
		to = row_get(rp, task, rp->rows[r].window, rp->rows[r].cause,
			     false);
		if (to == UINT32_MAX || row_move(rp, r, to, 0) < 0)
			return -1;
	}
	return 0;
}

/* An outer reason, open since before we looked, covered all provisional charges. */
static int recharge_task(struct lt_replay *rp, uint32_t task, uint32_t reason)
{
	uint32_t cause, r, to;

	cause = cause_get(rp, LT_CAUSE_ANNOTATED, reason, 0);
	if (cause == UINT32_MAX)
		return -1;
	for (r = rp->tasks[task].first_row; r != UINT32_MAX;
	     r = rp->rows[r].next_in_task) {
		if (!rp->rows[r].provisional || !rp->rows[r].count ||
		    rp->rows[r].cause == cause)
			continue;
		to = row_get(rp, task, rp->rows[r].window, cause, true);
		if (to == UINT32_MAX ||
		    row_move(rp, r, to, reason) < 0)
			return -1;
	}
	return 0;
}

/* ---- charging -------------------------------------------------------- */

struct wait {
	enum lt_task_state state;	/* SLEEP, BLOCKED, or RUNNABLE (cpu) */
	uint64_t start, end;
	uint32_t cause;			/* 0: derive from stack */
	uint32_t path, stack, maxtime_us;
	bool provisional;
};

static int charge(struct lt_replay *rp, uint32_t task, const struct wait *w)
{
	struct lt_replay_stats *st = &rp->stats;
	struct lt_row_cache *c;
	uint64_t dur, win;
	uint32_t cause, row;
	struct lt_row_acc *r;
	bool prov;

	if (w->end < w->start) {
		st->negative++;
		return 0;
	}
	dur = w->end - w->start;
	/*
	 * LatencyTOP: long interruptible waits are user requested (select,
	 * sleep); an idle kernel thread waiting for work is the same thing.
	 */
	if ((w->state == LT_STATE_SLEEP || w->state == LT_STATE_IDLE) &&
	    rp->opts.sleep_cutoff_ns &&
	    dur > rp->opts.sleep_cutoff_ns) {
		st->dropped_interruptible++;
		st->dropped_interruptible_ns += dur;
		return 0;
	}
	if (w->maxtime_us && rp->opts.honour_maxtime &&
	    dur > (uint64_t)w->maxtime_us * 1000) {
		st->dropped_maxtime++;
		st->dropped_maxtime_ns += dur;
		return 0;
	}
	if (w->end < rp->origin_ns ||
	    (rp->opts.to_ns >= 0 &&
	     w->end > st->first_ts + (uint64_t)rp->opts.to_ns)) {
		st->outside_range++;
		return 0;
	}
	win = rp->opts.window_ns ? (w->end - rp->origin_ns) / rp->opts.window_ns : 0;
	if (win >= MAX_WINDOWS)
		return limit_error(rp, true, "time windows", MAX_WINDOWS);
	if (win + 1 > rp->nr_windows)
		rp->nr_windows = (uint32_t)win + 1;

	if (w->state == LT_STATE_RUNNABLE)
		cause = rp->cause_sched;
	else if (w->cause)
		cause = w->cause;
	else if (w->stack)
		cause = rp->stacks[w->stack].cause;
	else
		cause = rp->cause_unknown;

	/* waiting for a CPU has no reason to re-charge: never provisional */
	prov = w->provisional && w->state != LT_STATE_RUNNABLE;
	/* a task charges the same few rows over and over: remember the last */
	c = &rp->tasks[task].row_cache[w->state == LT_STATE_RUNNABLE];
	if (c->row != UINT32_MAX && c->window == win && c->cause == cause &&
	    c->provisional == prov) {
		row = c->row;
	} else {
		row = row_get(rp, task, (uint32_t)win, cause, prov);
		if (row == UINT32_MAX)
			return -1;
		c = &rp->tasks[task].row_cache[w->state == LT_STATE_RUNNABLE];
		c->row = row;
		c->window = (uint32_t)win;
		c->cause = cause;
		c->provisional = prov;
	}
	r = &rp->rows[row];
	if (lt_hist_add(&r->hist, dur) < 0)
		return oom(rp, "histograms");
	if (!r->count || dur > r->max_ns) {
		r->max_ns = dur;
		r->max_at_ns = w->end;
	}
	r->count++;
	r->total_ns += dur;
	worst_add(r, dur, w->end);
	rp->tasks[task].charged_ns += dur;
	rp->tasks[task].last_charge_end = w->end;
	st->charged_ns += dur;
	st->charged_count++;
	if (w->state == LT_STATE_RUNNABLE)
		return 0;
	return sub_add(rp, row, w->path, w->stack, 1, dur, dur, w->end);
}

/* The wait a task went to sleep in, as snapshot at switch-out. */
static void sleep_wait(const struct lt_task *t, struct wait *w,
		       enum lt_task_state state, uint64_t start, uint64_t end)
{
	w->state = state;
	w->start = start;
	w->end = end;
	w->cause = t->sleep_cause;
	w->path = t->sleep_path;
	w->stack = t->sleep_stack;
	w->maxtime_us = t->sleep_maxtime_us;
	w->provisional = t->sleep_provisional;
}

/* Snapshot what the task is inside of, for a wait starting now. */
static int snapshot(struct lt_replay *rp, struct lt_task *t)
{
	const struct lt_reason_frame *outer;

	t->sleep_stack = 0;
	t->sleep_provisional = !!(t->flags & LT_TASK_UNCERTAIN);
	if (!t->depth) {
		t->sleep_cause = 0;
		t->sleep_path = 0;
		t->sleep_maxtime_us = 0;
		return 0;
	}
	/* LatencyTOP: accounted to the highest level annotated */
	outer = &t->rstack[0];
	t->sleep_cause = cause_get(rp, LT_CAUSE_ANNOTATED, outer->reason,
				   outer->argument);
	if (t->sleep_cause == UINT32_MAX)
		return -1;
	t->sleep_path = t->rstack[t->depth - 1].path;
	t->sleep_maxtime_us = outer->maxtime_us;
	return 0;
}

static int charge_rq(struct lt_replay *rp, uint32_t task, uint64_t start,
		     uint64_t end)
{
	struct wait w = { .state = LT_STATE_RUNNABLE, .start = start,
			  .end = end };

	return charge(rp, task, &w);
}

/* ---- event handlers ------------------------------------------------- */

static int on_switch_out(struct lt_replay *rp, const struct lt_ev *ev)
{
	uint32_t ti = task_get(rp, ev->pid);
	struct lt_task *t;

	if (ti == LT_NO_TASK)
		return -1;
	t = &rp->tasks[ti];
	set_comm(t, ev->str, ev->str_len);
	if (t->run != LT_RUN_RUNNING && t->run != LT_RUN_UNKNOWN)
		rp->stats.inconsistent++;	/* its switch-in was lost */
	t->flags |= LT_TASK_ACTIVE;
	t->flags &= ~(LT_TASK_PENDING | LT_TASK_WOKEN | LT_TASK_WAKING |
		      LT_TASK_NO_STACK_YET);
	t->last_cpu = ev->cpu;
	t->last_run_ts = ev->ts;

	switch (ev->state) {
	case LT_STATE_SLEEP:
	case LT_STATE_BLOCKED:
	case LT_STATE_IDLE:
		t->run = LT_RUN_SLEEPING;
		t->sleep_state = ev->state;
		t->sleep_start = ev->ts;
		t->flags |= LT_TASK_NO_STACK_YET;
		return snapshot(rp, t);
	case LT_STATE_RUNNABLE:
		t->run = LT_RUN_RUNNABLE;
		t->rq_start = ev->ts;
		return 0;
	default:
		t->run = LT_RUN_OTHER;
		/* a dead task's last switch: its pid is free for reuse */
		if ((t->flags & LT_TASK_EXITED) &&
		    lt_pidtab_get(&rp->pids, t->pid) == ti)
			lt_pidtab_del(&rp->pids, t->pid);
		return 0;
	}
}

/*
 * Task @ti starts running on @cpu at @ts: the wait it was in ends here.
 * Only a wait that a wakeup ended has a run-queue part (rule 6: wakeup
 * to running); a preempted or newly forked task's wait is not latency.
 */
static int start_running(struct lt_replay *rp, uint32_t ti, int cpu,
			 uint64_t ts)
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
		wake = t->flags & LT_TASK_WAKING ? t->waking_ts : ts;
		sleep_wait(t, &w, t->sleep_state, t->sleep_start, wake);
		if (charge(rp, ti, &w) < 0)
			return -1;
		if (wake < ts && charge_rq(rp, ti, wake, ts) < 0)
			return -1;
		break;
	case LT_RUN_RUNNABLE:
		if (t->flags & LT_TASK_PENDING) {
			sleep_wait(t, &w, t->sleep_state, t->sleep_start,
				   t->wake_ts);
			if (charge(rp, ti, &w) < 0)
				return -1;
		}
		if ((rp->tasks[ti].flags & LT_TASK_WOKEN) &&
		    charge_rq(rp, ti, rp->tasks[ti].rq_start, ts) < 0)
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
	t->flags &= ~(LT_TASK_PENDING | LT_TASK_WOKEN | LT_TASK_WAKING |
		      LT_TASK_NO_STACK_YET);
	return 0;
}

static int on_switch_in(struct lt_replay *rp, const struct lt_ev *ev)
{
	uint32_t ti = task_get(rp, ev->pid2);

	if (ti == LT_NO_TASK)
		return -1;
	set_comm(&rp->tasks[ti], ev->str2, ev->str2_len);
	return start_running(rp, ti, ev->cpu, ev->ts);
}

/*
 * Every event names the task running on its CPU.  A task seen running
 * whose switch-in the trace lacks (some kernels drop the switch from the
 * idle task without counting a loss) did start running: catch up.
 */
static int seen_running(struct lt_replay *rp, const struct lt_ev *ev)
{
	uint32_t ti;

	if (ev->cpu >= rp->nr_cpu_cur) {
		int n = ev->cpu + 1, i;
		int *p;

		if (ev->cpu >= 65536)
			return 0;
		p = realloc(rp->cpu_cur, n * sizeof(*p));
		if (!p)
			return oom(rp, "CPUs");
		for (i = rp->nr_cpu_cur; i < n; i++)
			p[i] = -1;
		rp->cpu_cur = p;
		rp->nr_cpu_cur = n;
	}
	if (rp->cpu_cur[ev->cpu] == ev->current)
		return 0;
	rp->cpu_cur[ev->cpu] = ev->current;
	ti = lt_pidtab_get(&rp->pids, ev->current);
	if (ti == LT_PIDTAB_NONE) {
		ti = task_new(rp, ev->current, LT_TASK_UNCERTAIN);
		if (ti == LT_NO_TASK)
			return -1;
		rp->tasks[ti].run = LT_RUN_RUNNING;
		return 0;
	}
	if (rp->tasks[ti].run == LT_RUN_RUNNING)
		return 0;
	if (rp->tasks[ti].run != LT_RUN_UNKNOWN)
		rp->stats.implicit_switch_in++;
	return start_running(rp, ti, ev->cpu, ev->ts);
}

static int on_wakeup(struct lt_replay *rp, const struct lt_ev *ev)
{
	uint32_t ti = task_get(rp, ev->pid);
	struct lt_task *t;
	bool was_active;

	if (ti == LT_NO_TASK)
		return -1;
	t = &rp->tasks[ti];
	set_comm(t, ev->str, ev->str_len);
	was_active = t->flags & LT_TASK_ACTIVE;
	t->flags |= LT_TASK_ACTIVE;

	if (ev->kind == LT_EV_WAKING) {
		if (t->run == LT_RUN_SLEEPING && !(t->flags & LT_TASK_WAKING)) {
			t->flags |= LT_TASK_WAKING;
			t->waking_ts = ev->ts;
		}
		return 0;
	}
	switch (t->run) {
	case LT_RUN_SLEEPING:
		if (ev->kind == LT_EV_WAKEUP_NEW)
			break;
		t->run = LT_RUN_RUNNABLE;
		t->flags |= LT_TASK_PENDING | LT_TASK_WOKEN;
		t->wake_ts = ev->ts;
		t->rq_start = ev->ts;
		break;
	case LT_RUN_UNKNOWN:
	case LT_RUN_OTHER:
		/* asleep since before we looked: its start is unknown */
		if (t->run == LT_RUN_UNKNOWN && ev->kind == LT_EV_WAKEUP &&
		    !was_active && !(t->flags & LT_TASK_BORN))
			rp->stats.began_before_trace++;
		/* runnable now, but no wait we measured ended here */
		t->run = LT_RUN_RUNNABLE;
		t->flags &= ~LT_TASK_WOKEN;
		break;
	case LT_RUN_RUNNABLE:	/* already queued: nothing ends */
	case LT_RUN_RUNNING:	/* woken before it managed to sleep */
		break;
	}
	return 0;
}

static int on_stat(struct lt_replay *rp, const struct lt_ev *ev)
{
	enum lt_task_state state = ev->kind == LT_EV_STAT_SLEEP ?
		LT_STATE_SLEEP : LT_STATE_BLOCKED;
	uint32_t ti = task_get(rp, ev->pid);
	struct lt_task *t;
	struct wait w;
	uint64_t start;

	if (ti == LT_NO_TASK)
		return -1;
	t = &rp->tasks[ti];
	set_comm(t, ev->str, ev->str_len);
	t->flags |= LT_TASK_ACTIVE;
	start = ev->value <= ev->ts ? ev->ts - ev->value : 0;
	/*
	 * The kernel's delay is on its own clock, so it is trusted as is,
	 * except that it cannot reach back into the task's previous wait:
	 * a task's waits never overlap and never add up to more than the
	 * trace's span, whatever a delay field says.
	 */
	if (start < t->last_charge_end)
		start = t->last_charge_end;
	/*
	 * Begun before the trace: like a switch-derived wait whose start was
	 * not seen, it is counted, not charged (often an idle kernel thread
	 * whose state the trace never showed).
	 */
	if (start < rp->stats.first_ts) {
		rp->stats.began_before_trace++;
		t->run = LT_RUN_RUNNABLE;
		t->flags &= ~LT_TASK_PENDING;
		t->flags |= LT_TASK_WOKEN;
		t->rq_start = ev->ts;
		return 0;
	}

	switch (t->run) {
	case LT_RUN_RUNNABLE:
		if (!(t->flags & LT_TASK_PENDING))
			return 0;	/* this wait is already charged */
		/* fall through */
	case LT_RUN_SLEEPING:
		/* schedstats counts TASK_IDLE as blocked; the switch knew better */
		if (state == LT_STATE_BLOCKED && t->sleep_state == LT_STATE_IDLE)
			state = LT_STATE_IDLE;
		sleep_wait(t, &w, state, start, ev->ts);
		break;
	default:
		/*
		 * The kernel measured a wait whose start we never saw:
		 * charge it to what we know the task is inside now.
		 */
		if (t->run == LT_RUN_RUNNING)
			rp->stats.inconsistent++;
		if (snapshot(rp, t) < 0)
			return -1;
		sleep_wait(t, &w, state, start, ev->ts);
		break;
	}
	if (charge(rp, ti, &w) < 0)
		return -1;
	t = &rp->tasks[ti];
	t->run = LT_RUN_RUNNABLE;
	t->flags &= ~LT_TASK_PENDING;
	t->flags |= LT_TASK_WOKEN;
	t->rq_start = ev->ts;
	return 0;
}

static int on_reason_set(struct lt_replay *rp, const struct lt_ev *ev)
{
	uint32_t ti = task_get(rp, ev->pid), reason, argument, parent, path;
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
	reason = intern(rp, ev->str, ev->str_len);
	argument = intern(rp, ev->str2 ? ev->str2 : "", ev->str2_len);
	if (reason == UINT32_MAX || argument == UINT32_MAX)
		return -1;
	parent = t->depth ? t->rstack[t->depth - 1].path : 0;
	path = path_child(rp, parent, reason);
	if (path == UINT32_MAX)
		return -1;
	t = &rp->tasks[ti];
	if (t->depth == t->cap) {
		uint16_t ncap = t->cap ? t->cap * 2 : 4;

		f = realloc(t->rstack, ncap * sizeof(*f));
		if (!f)
			return oom(rp, "reason stacks");
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
	uint32_t ti = task_get(rp, ev->pid), reason;
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
	reason = intern(rp, ev->str, ev->str_len);
	if (reason == UINT32_MAX)
		return -1;
	return recharge_task(rp, ti, reason);
}

static int on_fork(struct lt_replay *rp, const struct lt_ev *ev)
{
	uint32_t pi = task_get(rp, ev->pid), ci;
	struct lt_task *c;

	if (pi == LT_NO_TASK)
		return -1;
	rp->tasks[pi].flags |= LT_TASK_ACTIVE;
	ci = lt_pidtab_get(&rp->pids, ev->pid2);
	/* task_newtask came first and already made the child */
	if (ci == LT_PIDTAB_NONE || !(rp->tasks[ci].flags & LT_TASK_BORN) ||
	    (rp->tasks[ci].flags & (LT_TASK_ACTIVE | LT_TASK_EXITED))) {
		ci = task_new(rp, ev->pid2, LT_TASK_BORN);
		if (ci == LT_NO_TASK)
			return -1;
	}
	c = &rp->tasks[ci];
	c->parent = pi;
	if (ev->kind == LT_EV_NEWTASK && (ev->value & LT_CLONE_THREAD)) {
		c->leader = rp->tasks[pi].leader;
		c->flags |= LT_TASK_THREAD;
	}
	if (ev->kind == LT_EV_NEWTASK)
		c->flags |= LT_TASK_REPARENTED;
	set_comm(c, ev->str, ev->str_len);
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
				return oom(rp, "tasks");
			rp->tasks[mover].pid = ev->pid;
			rp->tasks[mover].leader = mover;
		}
	}
	ti = task_get(rp, ev->pid);
	if (ti == LT_NO_TASK)
		return -1;
	t = &rp->tasks[ti];
	t->flags |= LT_TASK_ACTIVE;
	for (p = ev->str; p < ev->str + ev->str_len && *p; p++)
		if (*p == '/')
			base = p + 1;
	set_comm(t, base, (size_t)(p - base));
	return 0;
}

static int on_task_exit(struct lt_replay *rp, const struct lt_ev *ev)
{
	uint32_t ti = task_get(rp, ev->pid);

	if (ti == LT_NO_TASK)
		return -1;
	rp->tasks[ti].flags |= LT_TASK_EXITED | LT_TASK_ACTIVE;
	return 0;
}

static int on_rename(struct lt_replay *rp, const struct lt_ev *ev)
{
	uint32_t ti = task_get(rp, ev->pid);

	if (ti == LT_NO_TASK)
		return -1;
	set_comm(&rp->tasks[ti], ev->str, ev->str_len);
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
	id = stack_intern(rp, ev->frames, ev->nr_frames);
	if (id == UINT32_MAX)
		return -1;
	t = &rp->tasks[ti];
	if (id && rp->stacks[id].kernel_thread)
		t->flags |= LT_TASK_KTHREAD;
	if (t->run == LT_RUN_SLEEPING)
		t->sleep_stack = id;
	return 0;
}

static int on_lost(struct lt_replay *rp, const struct lt_ev *ev)
{
	struct lt_replay_stats *st = &rp->stats;
	uint32_t i;

	if (ev->value == UINT64_MAX)
		st->lost_unknown++;
	else
		st->lost_events += ev->value;
	if (ev->cpu >= 0 && ev->cpu < 65536) {
		if (ev->cpu >= st->nr_cpus_lost) {
			int n = ev->cpu + 1;
			uint64_t *p = realloc(st->lost_per_cpu, n * sizeof(*p));

			if (!p)
				return oom(rp, "lost-event counts");
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
		if (t->run == LT_RUN_SLEEPING || (t->flags & LT_TASK_PENDING))
			st->discarded_lost++;
		if (t->run != LT_RUN_OTHER)
			t->run = LT_RUN_UNKNOWN;
		t->flags &= ~(LT_TASK_PENDING | LT_TASK_WOKEN | LT_TASK_WAKING);
		if (commit_task(rp, i) < 0)
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
		return oom(rp, "strings");
	lt_pidtab_init(&rp->pids);
	lt_map_init(&rp->cause_map);
	lt_map_init(&rp->stack_map);
	lt_map_init(&rp->path_map);
	lt_map_init(&rp->row_map);
	lt_map_init(&rp->sub_map);
	lt_map_init(&rp->cmdline_map);
	/* id 0 of causes, stacks and paths means "none" */
	if (cause_get(rp, LT_CAUSE_UNKNOWN, 0, 0) == UINT32_MAX)
		return -1;
	r = intern(rp, CAUSE_UNKNOWN_TEXT, strlen(CAUSE_UNKNOWN_TEXT));
	rp->cause_unknown = cause_get(rp, LT_CAUSE_UNKNOWN, r, 0);
	r = intern(rp, CAUSE_SCHED_TEXT, strlen(CAUSE_SCHED_TEXT));
	rp->cause_sched = cause_get(rp, LT_CAUSE_SCHED, r, 0);
	if (rp->cause_unknown == UINT32_MAX || rp->cause_sched == UINT32_MAX)
		return -1;
	if (GROW(rp, rp->stacks, 0, rp->cap_stacks, MAX_STACKS, "kernel stacks") < 0)
		return -1;
	memset(&rp->stacks[0], 0, sizeof(rp->stacks[0]));
	rp->nr_stacks = 1;
	if (GROW(rp, rp->path_parent, 0, rp->cap_paths, MAX_PATHS, "reason paths") < 0)
		return -1;
	rp->path_reason = calloc(rp->cap_paths, sizeof(*rp->path_reason));
	if (!rp->path_reason)
		return oom(rp, "reason paths");
	rp->path_parent[0] = 0;
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
	free(rp->tasks);
	free(rp->causes);
	free(rp->frames);
	free(rp->stacks);
	free(rp->path_parent);
	free(rp->path_reason);
	free(rp->rows);
	free(rp->subs);
	free(rp->stats.lost_per_cpu);
	free(rp->cpu_cur);
	lt_pidtab_free(&rp->pids);
	lt_map_free(&rp->cause_map);
	lt_map_free(&rp->stack_map);
	lt_map_free(&rp->path_map);
	lt_map_free(&rp->row_map);
	lt_map_free(&rp->sub_map);
	lt_map_free(&rp->cmdline_map);
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

	if (ev->current > 0 && ev->cpu >= 0 && ev->kind != LT_EV_LOST &&
	    seen_running(rp, ev) < 0)
		return -1;

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
		return ev->pid > 0 ? on_stack(rp, ev) : 0;
	case LT_EV_LOST:
		return on_lost(rp, ev);
	case LT_EV_STAT_IOWAIT:	/* a subset of blocked: already counted */
	case LT_EV_OTHER:
		return 0;
	}
	return 0;
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
			sleep_wait(t, &w, t->sleep_state, t->sleep_start,
				   t->wake_ts);
			if (charge(rp, i, &w) < 0)
				return -1;
		} else if (rp->tasks[i].run == LT_RUN_SLEEPING) {
			/* LatencyTOP charges a wait when it ends: this never did */
			rp->stats.unfinished++;
		}
		if (commit_task(rp, i) < 0)
			return -1;
	}
	return 0;
}
