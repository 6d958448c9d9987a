// SPDX-License-Identifier: LGPL-2.1
/*
 * replay-acct.c - where the replay's waits are written down.
 *
 * Interned causes, reason paths and kernel stacks; rows keyed (task,
 * window, cause) with their histograms and worst waits; sub-rows keyed
 * (row, path, stack) for drill-down, with their waits per waker; and the
 * provisional rows of tasks that may turn out to have been inside a
 * reason all along (moved whole, sub-rows and wakers too, once known).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "replay-local.h"

int lt_rp_grow(void **vec, uint32_t nr, uint32_t *cap, size_t elem,
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

int lt_rp_limit(struct lt_replay *rp, bool over, const char *what,
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

int lt_rp_oom(struct lt_replay *rp, const char *what)
{
	return lt_rp_limit(rp, false, what, 0);
}

/* ---- causes, paths, stacks ---------------------------------------- */

uint32_t lt_rp_cause(struct lt_replay *rp, enum lt_cause_kind kind,
		     uint32_t reason, uint32_t argument)
{
	uint32_t *slot;
	int added;

	slot = lt_map_put(&rp->cause_map, (uint64_t)kind << 32 | reason,
			  argument, rp->nr_causes, &added);
	if (!slot) {
		lt_rp_oom(rp, "causes");
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

uint32_t lt_rp_intern(struct lt_replay *rp, const char *s, size_t len)
{
	uint32_t id = lt_strtab_intern(&rp->strs, s, len);

	if (id == UINT32_MAX)
		lt_rp_oom(rp, "strings");
	return id;
}

uint32_t lt_rp_path_child(struct lt_replay *rp, uint32_t parent,
			  uint32_t reason)
{
	uint32_t *slot;
	int added;

	slot = lt_map_put(&rp->path_map, parent, reason, rp->nr_paths, &added);
	if (!slot) {
		lt_rp_oom(rp, "reason paths");
		return UINT32_MAX;
	}
	if (!added)
		return *slot;
	if (GROW(rp, rp->paths, rp->nr_paths, rp->cap_paths, MAX_PATHS,
		 "reason paths") < 0)
		goto fail;
	rp->paths[rp->nr_paths].parent = parent;
	rp->paths[rp->nr_paths].reason = reason;
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

	for (p = path; p && p < rp->nr_paths; p = rp->paths[p].parent)
		depth++;
	if (depth > max)
		depth = max;
	/* walk from the innermost end, filling from the back */
	i = depth;
	for (p = path; p && p < rp->nr_paths && i; p = rp->paths[p].parent)
		reasons[--i] = rp->paths[p].reason;
	return depth;
}

static uint32_t path_prepend(struct lt_replay *rp, uint32_t outer,
			     uint32_t path)
{
	uint32_t reasons[LT_REASON_DEPTH_MAX];
	unsigned int depth, i;
	uint32_t p;

	depth = lt_replay_path(rp, path, reasons, LT_REASON_DEPTH_MAX - 1);
	p = lt_rp_path_child(rp, 0, outer);
	for (i = 0; i < depth && p != UINT32_MAX; i++)
		p = lt_rp_path_child(rp, p, reasons[i]);
	return p;
}

uint32_t lt_rp_stack_intern(struct lt_replay *rp, const uint64_t *f,
			    unsigned int n)
{
	struct lt_stack *st;
	uint64_t h, probe;
	uint32_t *slot, id;
	int added;

	if (!n)
		return 0;
	if (n > MAX_STACK_DEPTH)
		n = MAX_STACK_DEPTH;
	h = lt_hash64_words(f, n);
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
		return lt_rp_limit(rp, true, "stack frames", MAX_FRAMES),
		       UINT32_MAX;
	while (rp->cap_frames < rp->nr_frames + n) {
		uint32_t ncap = rp->cap_frames ? rp->cap_frames * 2 : 4096;
		uint64_t *p = realloc(rp->frames, (size_t)ncap * sizeof(*p));

		if (!p)
			return lt_rp_oom(rp, "stack frames"), UINT32_MAX;
		rp->frames = p;
		rp->cap_frames = ncap;
	}
	if (GROW(rp, rp->stacks, rp->nr_stacks, rp->cap_stacks, MAX_STACKS,
		 "kernel stacks") < 0)
		return UINT32_MAX;

	id = rp->nr_stacks;
	st = &rp->stacks[id];
	memset(st, 0, sizeof(*st));
	st->hash = h;
	st->first = rp->nr_frames;
	st->nr = n;
	if (!lt_map_put(&rp->stack_map, h, probe, id, &added))
		return lt_rp_oom(rp, "kernel stacks"), UINT32_MAX;
	memcpy(&rp->frames[rp->nr_frames], f, n * sizeof(*f));
	rp->nr_frames += n;
	rp->nr_stacks++;
	return id;
}

/* A kernel thread is known by any of its stacks: note each task's. */
int lt_rp_stack_seen(struct lt_replay *rp, uint32_t task, uint32_t stack)
{
	int added;

	if (!stack || rp->tasks[task].last_stack == stack)
		return 0;
	rp->tasks[task].last_stack = stack;
	if (!lt_map_put(&rp->task_stacks, task, stack, 0, &added))
		return lt_rp_oom(rp, "kernel stacks");
	return 0;
}

static int resolve_stack(struct lt_replay *rp, uint32_t id)
{
	struct lt_stack *st = &rp->stacks[id];
	struct lt_stack_info info;
	uint32_t reason;
	char buf[32];

	memset(&info, 0, sizeof(info));
	if (!rp->opts.resolve ||
	    rp->opts.resolve(rp->opts.resolve_ctx, &rp->frames[st->first],
			     st->nr, &info) < 0 ||
	    !info.cause) {
		snprintf(buf, sizeof(buf), "[0x%" PRIx64 "]",
			 rp->frames[st->first]);
		info.kind = LT_CAUSE_FUNCTION;
		info.cause = buf;
	}
	reason = lt_rp_intern(rp, info.cause, strlen(info.cause));
	if (reason == UINT32_MAX)
		return -1;
	st->kernel_thread = info.kernel_thread;
	st->timer = info.timer;
	st->remote = info.remote;
	st->cause = lt_rp_cause(rp, info.kind, reason, 0);
	return st->cause == UINT32_MAX ? -1 : 0;
}

/*
 * Until here a row charged to a kernel stack holds STACK_CAUSE | stack
 * id.  Rows of stacks that resolve to one cause stay apart; the report
 * adds them up as it does a task's windows.
 */
int lt_rp_resolve_stacks(struct lt_replay *rp)
{
	const struct lt_map_slot *sl;
	uint32_t i;
	size_t k;

	/* those resolved already kept their cause: live mode asks again */
	for (i = rp->nr_resolved ? rp->nr_resolved : 1; i < rp->nr_stacks; i++)
		if (resolve_stack(rp, i) < 0)
			return -1;
	rp->nr_resolved = rp->nr_stacks;
	for (k = 0; k < rp->task_stacks.cap; k++) {
		sl = &rp->task_stacks.slots[k];
		if (sl->used && rp->stacks[sl->k2].kernel_thread)
			rp->tasks[sl->k1].flags |= LT_TASK_KTHREAD;
	}
	for (i = 0; i < rp->nr_rows; i++)
		if (rp->rows[i].cause & STACK_CAUSE)
			rp->rows[i].cause =
				rp->stacks[rp->rows[i].cause & ~STACK_CAUSE].cause;
	return 0;
}

/*
 * Equal stacks share a pool id, so each id is hashed and compared once;
 * after that the id alone finds the stack.
 */
uint32_t lt_rp_stack_pooled(struct lt_replay *rp, uint64_t uid,
			    const uint64_t *f, unsigned int n)
{
	uint32_t id;

	if (uid >= MAX_STACKS)
		return lt_rp_stack_intern(rp, f, n);
	if (uid >= rp->cap_pooled) {
		uint32_t ncap = rp->cap_pooled ? rp->cap_pooled : 1024;
		uint32_t *p;

		while (ncap <= uid)
			ncap *= 2;
		p = realloc(rp->pooled, (size_t)ncap * sizeof(*p));
		if (!p)
			return lt_rp_oom(rp, "kernel stacks"), UINT32_MAX;
		memset(p + rp->cap_pooled, 0,
		       (size_t)(ncap - rp->cap_pooled) * sizeof(*p));
		rp->pooled = p;
		rp->cap_pooled = ncap;
	}
	if (rp->pooled[uid])
		return rp->pooled[uid];
	id = lt_rp_stack_intern(rp, f, n);
	if (id != UINT32_MAX)
		rp->pooled[uid] = id;
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

/* ---- notes to a watcher (lt_wait_note) ------------------------------- */

const char *lt_wait_drop_name(enum lt_wait_drop drop)
{
#define LT_DROP_NAME(name, text) [LT_DROP_##name] = text,
	static const char *const names[LT_DROP_NR] = { LT_WAIT_DROPS(LT_DROP_NAME) };
#undef LT_DROP_NAME

	return (unsigned int)drop < LT_DROP_NR ? names[drop] : NULL;
}

uint32_t lt_replay_cause(const struct lt_replay *rp, uint32_t cause)
{
	if ((cause & STACK_CAUSE) && (cause & ~STACK_CAUSE) < rp->nr_stacks)
		return rp->stacks[cause & ~STACK_CAUSE].cause;
	return cause < rp->nr_causes ? cause : 0;
}

/* A watcher's failure (a write of the waits): errno says why. */
static int note_failed(struct lt_replay *rp)
{
	lt_error_set(&rp->err, LT_E_IO, "cannot write the waits: %s",
		     strerror(errno ? errno : EIO));
	return -1;
}

static int note(struct lt_replay *rp, const struct lt_wait_note *n)
{
	errno = 0;
	return rp->opts.on_note(rp->opts.note_ctx, n) < 0 ? note_failed(rp) : 0;
}

static int note_task(struct lt_replay *rp, enum lt_note_kind kind,
		     uint32_t task, uint32_t cause)
{
	struct lt_wait_note n = { .kind = kind, .task = task, .cause = cause };

	return rp->opts.on_note ? note(rp, &n) : 0;
}

/* ---- rows ----------------------------------------------------------- */

static uint32_t row_get(struct lt_replay *rp, uint32_t task, uint32_t window,
			uint32_t cause, bool provisional, bool uncharged)
{
	uint64_t k2 = (uint64_t)uncharged << 33 | (uint64_t)provisional << 32 |
		      cause;
	struct lt_row_acc *r;
	uint32_t *slot;
	int added;

	slot = lt_map_put(&rp->row_map, (uint64_t)task << 32 | window, k2,
			  rp->nr_rows, &added);
	if (!slot)
		return lt_rp_oom(rp, "rows"), UINT32_MAX;
	if (!added)
		return *slot;
	if (GROW(rp, rp->rows, rp->nr_rows, rp->cap_rows, MAX_ROWS, "rows") < 0) {
		lt_map_del(&rp->row_map, (uint64_t)task << 32 | window, k2);
		return UINT32_MAX;
	}
	r = &rp->rows[rp->nr_rows];
	memset(r, 0, sizeof(*r));
	r->task = task;
	r->window = window;
	r->cause = cause;
	r->provisional = provisional;
	r->uncharged = uncharged;
	r->first_sub = UINT32_MAX;
	r->last_sub = UINT32_MAX;
	r->next_in_task = rp->tasks[task].first_row;
	rp->tasks[task].first_row = rp->nr_rows;
	return rp->nr_rows++;
}

static void worst_add(struct lt_row_acc *r, uint64_t dur, uint64_t end)
{
	unsigned int i;

	/* row_move() adds them out of time order */
	for (i = r->nr_worst; i > 0 && lt_wait_before(dur, end,
			r->worst[i - 1].dur_ns, r->worst[i - 1].end_ns); i--)
		if (i < LT_WORST)
			r->worst[i] = r->worst[i - 1];
	if (i >= LT_WORST)
		return;
	r->worst[i].dur_ns = dur;
	r->worst[i].end_ns = end;
	if (r->nr_worst < LT_WORST)
		r->nr_worst++;
}

/* Sub-row (@row, @path, @stack) given @count waits more: its index. */
static uint32_t sub_add(struct lt_replay *rp, uint32_t row, uint32_t path,
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
		return lt_rp_oom(rp, "stack rows"), UINT32_MAX;
	if (added) {
		if (GROW(rp, rp->subs, rp->nr_subs, rp->cap_subs, MAX_ROWS,
			 "stack rows") < 0) {
			lt_map_del(&rp->sub_map, row, (uint64_t)path << 32 | stack);
			return UINT32_MAX;
		}
		s = &rp->subs[rp->nr_subs];
		memset(s, 0, sizeof(*s));
		s->row = row;
		s->path = path;
		s->stack = stack;
		s->wakers = UINT32_MAX;
		s->next = rp->rows[row].first_sub;
		rp->rows[row].first_sub = rp->nr_subs++;
	}
	rp->rows[row].last_sub = *slot;
add:
	s = &rp->subs[*slot];
	s->count += count;
	s->total_ns += total;
	/* of equal waits the earliest, as the report keeps them */
	if (!s->max_at_ns ||
	    lt_wait_before(max, max_at, s->max_ns, s->max_at_ns)) {
		s->max_ns = max;
		s->max_at_ns = max_at;
	}
	return *slot;
}

/*
 * @count waits of sub-row @sub, @ns in all, ended by waker (@kind,
 * @task, @stack) (lt_sub_waker): into its list, or its "other" past
 * LT_SUB_WAKERS.  A waking stack already resolved says now whether a
 * timer did it or another CPU queued it, and is kept no longer.
 */
static int sub_waker_add(struct lt_replay *rp, uint32_t sub, uint8_t kind,
			 uint32_t task, uint32_t stack, uint64_t count,
			 uint64_t ns)
{
	uint32_t i, prev = UINT32_MAX, other = UINT32_MAX, n = 0;
	struct lt_sub_waker *e;

	if (kind == LT_WAKER_NONE)
		kind = LT_WAKER_UNKNOWN;	/* as its tree says */
	if (kind != LT_WAKER_TASK)
		task = LT_NO_TASK;
	if (kind != LT_WAKER_TASK && kind != LT_WAKER_HARDIRQ &&
	    kind != LT_WAKER_SOFTIRQ && kind != LT_WAKER_TIMER) {
		stack = 0;
	} else if (stack && stack < rp->nr_resolved) {
		enum lt_waker_kind said = lt_chain_stack_waker(rp, stack);

		if (said) {
			kind = said;
			task = LT_NO_TASK;
		}
		stack = 0;
	}
	for (i = rp->subs[sub].wakers; i != UINT32_MAX; prev = i, i = e->next) {
		e = &rp->sub_wakers[i];
		if (e->kind == kind && e->task == task && e->stack == stack) {
			/* to the front: its next wait is likely the same's */
			if (prev != UINT32_MAX) {
				rp->sub_wakers[prev].next = e->next;
				e->next = rp->subs[sub].wakers;
				rp->subs[sub].wakers = i;
			}
			goto add;
		}
		if (e->kind == LT_WAKER_OTHER)
			other = i;
		else
			n++;
	}
	if (n >= LT_SUB_WAKERS && kind != LT_WAKER_OTHER) {
		i = other;
		if (i != UINT32_MAX)
			goto add;
		kind = LT_WAKER_OTHER;
		task = LT_NO_TASK;
		stack = 0;
	}
	if (rp->free_sub_waker != UINT32_MAX) {
		i = rp->free_sub_waker;
		rp->free_sub_waker = rp->sub_wakers[i].next;
	} else {
		if (GROW(rp, rp->sub_wakers, rp->nr_sub_wakers,
			 rp->cap_sub_wakers, MAX_SUB_WAKERS, "wakers") < 0)
			return -1;
		i = rp->nr_sub_wakers++;
	}
	e = &rp->sub_wakers[i];
	memset(e, 0, sizeof(*e));
	e->kind = kind;
	e->task = task;
	e->stack = stack;
	e->next = rp->subs[sub].wakers;
	rp->subs[sub].wakers = i;
add:
	e = &rp->sub_wakers[i];
	e->count += count;
	e->total_ns += ns;
	return 0;
}

/*
 * A charged wait of sub-row @sub, of @ns, ended by @w: most often by the
 * waker of its last (the first of its list), whose key it has as it is.
 */
static inline int sub_waker_charge(struct lt_replay *rp, uint32_t sub,
				   const struct lt_chain_waker *w, uint64_t ns)
{
	uint32_t i = rp->subs[sub].wakers;
	struct lt_sub_waker *e = i != UINT32_MAX ? &rp->sub_wakers[i] : NULL;

	if (e && e->kind == w->kind && e->task == w->task &&
	    e->stack == w->stack) {
		e->count++;
		e->total_ns += ns;
		return 0;
	}
	return sub_waker_add(rp, sub, w->kind, w->task, w->stack, 1, ns);
}

/* Sub-row @from's wakers into sub-row @to's (@to's cap holds), @from's freed. */
static int sub_wakers_move(struct lt_replay *rp, uint32_t from, uint32_t to)
{
	uint32_t i = rp->subs[from].wakers;

	rp->subs[from].wakers = UINT32_MAX;
	while (i != UINT32_MAX) {
		struct lt_sub_waker e = rp->sub_wakers[i];

		rp->sub_wakers[i].next = rp->free_sub_waker;
		rp->free_sub_waker = i;
		if (sub_waker_add(rp, to, e.kind, e.task, e.stack, e.count,
				  e.total_ns) < 0)
			return -1;
		i = e.next;
	}
	return 0;
}

/* Sub-row @sub's wakers freed: it is gone. */
static void sub_wakers_free(struct lt_replay *rp, uint32_t sub)
{
	uint32_t i = rp->subs[sub].wakers, next;

	for (; i != UINT32_MAX; i = next) {
		next = rp->sub_wakers[i].next;
		rp->sub_wakers[i].next = rp->free_sub_waker;
		rp->free_sub_waker = i;
	}
	rp->subs[sub].wakers = UINT32_MAX;
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
	uint32_t s, d, path;
	unsigned int i;

	if (lt_hist_merge(&t->hist, &f->hist) < 0)
		return lt_rp_oom(rp, "histograms");
	if (!t->count ||
	    lt_wait_before(f->max_ns, f->max_at_ns, t->max_ns, t->max_at_ns)) {
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
		d = sub_add(rp, to, path, sub.stack, sub.count, sub.total_ns,
			    sub.max_ns, sub.max_at_ns);
		if (d == UINT32_MAX || sub_wakers_move(rp, s, d) < 0)
			return -1;
		/*
		 * Emptied whole: the row may be charged again in the same
		 * stack (after a commit), and must then start from nothing.
		 */
		rp->subs[s].count = 0;
		rp->subs[s].total_ns = 0;
		rp->subs[s].max_ns = 0;
		rp->subs[s].max_at_ns = 0;
	}
	f = &rp->rows[from];
	lt_hist_free(&f->hist);
	f->count = 0;
	f->total_ns = 0;
	f->max_ns = 0;
	f->nr_worst = 0;
	return lt_rp_chain_move(rp, from, to);
}

/* Provisional rows of a task become final, as charged. */
int lt_rp_commit_task(struct lt_replay *rp, uint32_t task)
{
	uint32_t r, to;

	if (note_task(rp, LT_NOTE_COMMIT, task, 0) < 0)
		return -1;
	for (r = rp->tasks[task].first_row; r != UINT32_MAX;
	     r = rp->rows[r].next_in_task) {
		if (!rp->rows[r].provisional || !rp->rows[r].count)
			continue;
		to = row_get(rp, task, rp->rows[r].window, rp->rows[r].cause,
			     false, false);
		if (to == UINT32_MAX || row_move(rp, r, to, 0) < 0)
			return -1;
	}
	return 0;
}

/*
 * An outer reason, open since before we looked, covered all provisional
 * charges.
 */
int lt_rp_recharge_task(struct lt_replay *rp, uint32_t task, uint32_t reason)
{
	uint32_t cause, r, to;

	cause = lt_rp_cause(rp, LT_CAUSE_ANNOTATED, reason, 0);
	if (cause == UINT32_MAX || note_task(rp, LT_NOTE_RECHARGE, task, cause) < 0)
		return -1;
	for (r = rp->tasks[task].first_row; r != UINT32_MAX;
	     r = rp->rows[r].next_in_task) {
		if (!rp->rows[r].provisional || !rp->rows[r].count ||
		    rp->rows[r].cause == cause)
			continue;
		to = row_get(rp, task, rp->rows[r].window, cause, true, false);
		if (to == UINT32_MAX ||
		    row_move(rp, r, to, reason) < 0)
			return -1;
	}
	return 0;
}

/*
 * Rows (and their sub-rows) of windows before @first dropped, the rest
 * renumbered from 0: memory stays what the windows kept hold, however
 * long a live replay runs.  Indexes change, so every link and both maps
 * are made again; row keys take the cause the row has now (resolved: a
 * wait of a stack charged later starts a row of its own, which the
 * report adds to it by cause).
 */
int lt_rp_drop_windows(struct lt_replay *rp, uint32_t first)
{
	uint32_t *remap, i, n = 0, ns = 0;
	int added;

	if (!first)
		return 0;
	remap = malloc((rp->nr_rows ? rp->nr_rows : 1) * sizeof(*remap));
	if (!remap)
		return lt_rp_oom(rp, "rows");
	for (i = 0; i < rp->nr_rows; i++) {
		struct lt_row_acc *r = &rp->rows[i];

		if (r->window < first) {
			lt_hist_free(&r->hist);
			lt_rp_chain_tree_free(&r->chain);
			remap[i] = UINT32_MAX;
			continue;
		}
		r->window -= first;
		remap[i] = n;
		rp->rows[n++] = *r;
	}
	for (i = 0; i < rp->nr_subs; i++) {
		uint32_t row = remap[rp->subs[i].row];

		if (row == UINT32_MAX) {
			sub_wakers_free(rp, i);
			continue;
		}
		rp->subs[ns] = rp->subs[i];
		rp->subs[ns++].row = row;
	}
	free(remap);
	rp->nr_rows = n;
	rp->nr_subs = ns;

	for (i = 0; i < rp->nr_tasks; i++) {
		rp->tasks[i].first_row = UINT32_MAX;
		rp->tasks[i].row_cache[0].row = UINT32_MAX;
		rp->tasks[i].row_cache[1].row = UINT32_MAX;
	}
	lt_map_free(&rp->row_map);
	lt_map_free(&rp->sub_map);
	lt_map_init(&rp->row_map);
	lt_map_init(&rp->sub_map);
	for (i = 0; i < n; i++) {
		struct lt_row_acc *r = &rp->rows[i];

		r->first_sub = r->last_sub = UINT32_MAX;
		r->next_in_task = rp->tasks[r->task].first_row;
		rp->tasks[r->task].first_row = i;
		if (!lt_map_put(&rp->row_map, (uint64_t)r->task << 32 | r->window,
				(uint64_t)r->uncharged << 33 |
				(uint64_t)r->provisional << 32 | r->cause, i,
				&added))
			return lt_rp_oom(rp, "rows");
	}
	for (i = 0; i < ns; i++) {
		struct lt_sub_acc *s = &rp->subs[i];

		s->next = rp->rows[s->row].first_sub;
		rp->rows[s->row].first_sub = i;
		if (!lt_map_put(&rp->sub_map, s->row,
				(uint64_t)s->path << 32 | s->stack, i, &added))
			return lt_rp_oom(rp, "stack rows");
	}
	rp->origin_ns += (uint64_t)first * rp->opts.window_ns;
	rp->nr_windows = rp->nr_windows > first ? rp->nr_windows - first : 0;
	return 0;
}

/* ---- charging -------------------------------------------------------- */

/*
 * Waits past the last window are counted through to the end of the trace
 * (not charged: the run fails) so that the error can say the window the
 * whole trace needs, not one that the next wait would overflow again.
 * Said with the time from the trace's start (not --from's), which shows a
 * timestamp that jumped, in a whole unit the option takes, the largest
 * that counts ten or more of it (so rounding up adds under 10%).
 */
int lt_rp_windows_fit(struct lt_replay *rp)
{
	static const struct { uint64_t ns; const char *unit; } units[] = {
		{ 3600000000000ULL, "h" }, { 1000000000, "s" },
		{ 1000000, "ms" }, { 1000, "us" }, { 1, "ns" },
	};
	uint64_t at = rp->past_windows_ns;
	uint64_t need = at / MAX_WINDOWS + 1;	/* at / need < MAX_WINDOWS */
	char when[32];
	size_t i = 0;

	if (!at)
		return 0;
	while (i + 1 < sizeof(units) / sizeof(units[0]) &&
	       need / 10 < units[i].ns)
		i++;
	/* the option, not the trace, is what to change */
	lt_error_set(&rp->err, LT_E_USAGE,
		     "--window: the last wait ends %s into the trace, past the %u windows allowed; use --window %" PRIu64 "%s or longer",
		     lt_format_duration(when, sizeof(when),
					at + (rp->origin_ns - rp->stats.first_ts)),
		     MAX_WINDOWS,
		     (need + units[i].ns - 1) / units[i].ns, units[i].unit);
	return -1;
}

static uint32_t wait_cause(const struct lt_replay *rp, const struct wait *w)
{
	return lt_rp_cause_of(rp, w->state, w->cause, w->stack);
}

int lt_rp_note(struct lt_replay *rp, uint32_t task, const struct wait *w,
	       enum lt_wait_drop drop, bool start_known, bool end_known)
{
	struct lt_wait_note n = {
		.kind = LT_NOTE_WAIT, .task = task, .stack = w->stack,
		.state = w->state, .drop = drop, .start_known = start_known,
		.end_known = end_known, .start = w->start, .end = w->end,
	};

	if (!rp->opts.on_note)
		return 0;
	/* a wait for a CPU or a stop is never re-charged */
	n.provisional = w->provisional && w->state != LT_STATE_RUNNABLE &&
			!lt_rp_stopped(w->state) && drop == LT_DROP_NONE;
	if (w->state != LT_STATE_RUNNABLE && end_known)
		n.waker = lt_rp_chain_waker(rp, task, w->end);
	n.cause = w->state == LT_STATE_OTHER ? 0 : wait_cause(rp, w);
	return note(rp, &n);
}

int lt_rp_note_sleep(struct lt_replay *rp, uint32_t task, enum lt_wait_drop drop,
		     uint64_t end, bool end_known)
{
	const struct lt_task *t = &rp->tasks[task];
	struct wait w;

	if (!rp->opts.on_note)
		return 0;
	lt_rp_sleep_wait(t, &w, t->sleep_state, t->sleep_start, end);
	return lt_rp_note(rp, task, &w, drop, true, end_known);
}

/*
 * LatencyTOP: long interruptible waits are user requested (select,
 * sleep); an idle kernel thread waiting for work is the same thing.
 */
static bool user_requested(const struct lt_replay *rp, const struct wait *w,
			   uint64_t dur)
{
	return (w->state == LT_STATE_SLEEP || w->state == LT_STATE_IDLE) &&
	       rp->opts.sleep_cutoff_ns && dur > rp->opts.sleep_cutoff_ns;
}

/*
 * A user requested wait is not charged, but its task's section says
 * it waited so (a 300 ms sleep would otherwise show nowhere): rows of
 * their own, which the tables leave out.  An idle kernel thread waiting
 * for work requested nothing: only counted.  A stop not charged is
 * shown so too, in rows of its own cause.
 */
static int uncharged(struct lt_replay *rp, uint32_t task, uint32_t win,
		     uint32_t cause, const struct wait *w, uint64_t dur)
{
	struct lt_row_acc *r;
	uint32_t row;

	if (w->state == LT_STATE_IDLE)
		return 0;
	row = row_get(rp, task, win, cause, false, true);
	if (row == UINT32_MAX)
		return -1;
	r = &rp->rows[row];
	if (lt_hist_add(&r->hist, dur) < 0)
		return lt_rp_oom(rp, "histograms");
	if (!r->count || dur > r->max_ns) {
		r->max_ns = dur;
		r->max_at_ns = w->end;
	}
	r->count++;
	r->total_ns += dur;
	worst_add(r, dur, w->end);
	return 0;
}

int lt_rp_charge(struct lt_replay *rp, uint32_t task, const struct wait *w)
{
	struct lt_replay_stats *st = &rp->stats;
	struct lt_chain_waker waker;
	struct lt_row_cache *c;
	uint64_t dur, win;
	uint32_t cause, row, sub;
	struct lt_row_acc *r;
	bool prov;

	if (w->end < w->start) {
		st->negative++;
		return 0;
	}
	dur = w->end - w->start;
	/* what --from/--to leave out is not dropped either: not counted */
	if (lt_rp_outside(rp, w->end)) {
		st->outside_range++;
		return 0;
	}
	/* the task may have run where the trace has no data: not a wait */
	if (lt_rp_before_complete(rp, w->start)) {
		st->dropped_incomplete++;
		st->dropped_incomplete_ns += dur;
		return lt_rp_note(rp, task, w, LT_DROP_BEFORE_COMPLETE, true, true);
	}
	if (lt_rp_across_gap(rp, w->start)) {
		st->dropped_gap++;
		st->dropped_gap_ns += dur;
		return lt_rp_note(rp, task, w, LT_DROP_ACROSS_LOST, true, true);
	}
	/* off CPU in a state not known here: no latency anyone can name */
	if (w->state == LT_STATE_OTHER) {
		st->unknown_state++;
		st->unknown_state_ns += dur;
		return lt_rp_note(rp, task, w, LT_DROP_UNKNOWN_STATE, true, true);
	}
	if (lt_rp_stopped(w->state) && !rp->opts.charge_stopped) {
		bool traced = w->state == LT_STATE_TRACED;

		st->stopped[traced]++;
		st->stopped_ns[traced] += dur;
		if (lt_rp_note(rp, task, w, LT_DROP_STOPPED, true, true) < 0)
			return -1;
		win = rp->opts.window_ns ?
		      (w->end - rp->origin_ns) / rp->opts.window_ns : 0;
		if (win >= MAX_WINDOWS)
			return 0;
		if (win + 1 > rp->nr_windows)
			rp->nr_windows = (uint32_t)win + 1;
		return uncharged(rp, task, (uint32_t)win, wait_cause(rp, w), w,
				 dur);
	}
	if (w->maxtime_us && rp->opts.honour_maxtime &&
	    dur > (uint64_t)w->maxtime_us * 1000 &&
	    !user_requested(rp, w, dur) && !lt_rp_stopped(w->state)) {
		st->dropped_maxtime++;
		st->dropped_maxtime_ns += dur;
		return lt_rp_note(rp, task, w, LT_DROP_MAXTIME, true, true);
	}
	win = rp->opts.window_ns ? (w->end - rp->origin_ns) / rp->opts.window_ns : 0;
	if (user_requested(rp, w, dur)) {
		st->dropped_interruptible++;
		st->dropped_interruptible_ns += dur;
		if (lt_rp_note(rp, task, w, LT_DROP_USER_REQUESTED, true, true) < 0)
			return -1;
		/* only charged waits need a window: shown where there is one */
		if (win >= MAX_WINDOWS)
			return 0;
		if (win + 1 > rp->nr_windows)
			rp->nr_windows = (uint32_t)win + 1;
		return uncharged(rp, task, (uint32_t)win, wait_cause(rp, w), w,
				 dur);
	}
	if (win >= MAX_WINDOWS) {
		if (w->end - rp->origin_ns > rp->past_windows_ns)
			rp->past_windows_ns = w->end - rp->origin_ns;
		return 0;
	}
	if (win + 1 > rp->nr_windows)
		rp->nr_windows = (uint32_t)win + 1;

	cause = wait_cause(rp, w);

	/* waiting for a CPU, or stopped, has no reason to re-charge */
	prov = w->provisional && w->state != LT_STATE_RUNNABLE &&
	       !lt_rp_stopped(w->state);
	/* a task charges the same few rows over and over: remember the last */
	c = &rp->tasks[task].row_cache[w->state == LT_STATE_RUNNABLE];
	if (c->row != UINT32_MAX && c->window == win && c->cause == cause &&
	    c->provisional == prov) {
		row = c->row;
	} else {
		row = row_get(rp, task, (uint32_t)win, cause, prov, false);
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
		return lt_rp_oom(rp, "histograms");
	if (!r->count || dur > r->max_ns) {
		r->max_ns = dur;
		r->max_at_ns = w->end;
	}
	r->count++;
	r->total_ns += dur;
	worst_add(r, dur, w->end);
	rp->tasks[task].charged_ns += dur;
	st->charged_ns += dur;
	st->charged_count++;
	if (w->lower_bound) {
		st->lower_bound++;
		st->lower_bound_ns += dur;
	}
	if (lt_rp_note(rp, task, w, LT_DROP_NONE, true, true) < 0)
		return -1;
	if (w->state == LT_STATE_RUNNABLE)
		return lt_rp_chain_charge(rp, row, task, w, NULL);
	/* what ended it, as its tree and the waits export (the note) say */
	if (!rp->opts.no_chains) {
		waker = lt_rp_chain_waker(rp, task, w->end);
		if (lt_rp_chain_charge(rp, row, task, w, &waker) < 0)
			return -1;
	}
	sub = sub_add(rp, row, w->path, w->stack, 1, dur, dur, w->end);
	if (sub == UINT32_MAX)
		return -1;
	return rp->opts.no_chains ? 0 : sub_waker_charge(rp, sub, &waker, dur);
}

/* The wait a task went to sleep in, as snapshot at switch-out. */
void lt_rp_sleep_wait(const struct lt_task *t, struct wait *w,
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
	w->lower_bound = false;
}

/* Snapshot what the task is inside of, for a wait starting now. */
int lt_rp_snapshot(struct lt_replay *rp, struct lt_task *t)
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
	t->sleep_cause = lt_rp_cause(rp, LT_CAUSE_ANNOTATED, outer->reason,
				     outer->argument);
	if (t->sleep_cause == UINT32_MAX)
		return -1;
	t->sleep_path = t->rstack[t->depth - 1].path;
	t->sleep_maxtime_us = outer->maxtime_us;
	return 0;
}

int lt_rp_charge_rq(struct lt_replay *rp, uint32_t task, uint64_t start,
		    uint64_t end, bool lower_bound, int cpu)
{
	struct wait w = { .state = LT_STATE_RUNNABLE, .start = start,
			  .end = end, .lower_bound = lower_bound, .cpu = cpu };

	return lt_rp_charge(rp, task, &w);
}
