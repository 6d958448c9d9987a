// SPDX-License-Identifier: LGPL-2.1
/*
 * report.c - turn the replay's accumulators into the report model.
 *
 * The replay keeps one row per (task, window, cause).  A view (the whole
 * range, or one window) folds those rows three ways at once: per thread,
 * per process (thread-group leader) and globally (kernel threads left out
 * unless asked), merging histograms, worst occurrences and drill-down
 * stacks on the way; the whole range's thread rows, each stack's wakers
 * too (their names resolved: a waking stack that was a timer's is one
 * "timer").
 */
#define _GNU_SOURCE	/* qsort_r() */
#include <fnmatch.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lt-report.h"

enum level { LVL_THREAD, LVL_PROCESS, LVL_GLOBAL };

/*
 * The aggs of a task's waits not charged: its user requested waits, its
 * stops by a signal and for a tracer.  Summed, never rows; sorted after
 * them (the highest causes).
 */
#define CAUSE_UNCHARGED		UINT32_MAX
#define CAUSE_STOPPED_SIGNAL	(UINT32_MAX - 1)
#define CAUSE_STOPPED_TRACER	(UINT32_MAX - 2)
#define CAUSE_NOT_CHARGED	CAUSE_STOPPED_TRACER	/* the lowest */

struct agg {
	enum level level;
	uint32_t leader, task;	/* scope */
	uint32_t cause;
	uint64_t count, total_ns, max_ns, max_at_ns;
	int max_tid;
	struct lt_hist hist;
	struct lt_report_occurrence worst[LT_REPORT_WORST];
	unsigned int nr_worst;
	uint32_t first_sub;
	uint32_t chain;		/* the root of its tree, UINT32_MAX: none */
};

/*
 * A node of an agg's waited_for tree (or ran_instead), keyed under its
 * parent by (what, tid) in thread rows, (what, comm) above them: names
 * are interned in builder.names, so the keys are those a merge of the
 * JSON uses.
 */
struct cnode {
	uint64_t ns;
	uint32_t what, comm;	/* builder.names ids; what 0: ran_instead */
	int tid;
	bool blocked;
	uint32_t child, next;	/* 0: none */
	uint32_t nr;
};

struct agg_sub {
	uint32_t path, stack;
	uint32_t next;
	uint64_t count, total_ns, max_ns, max_at_ns;
	uint32_t first_waker;	/* its first agg_waker, UINT32_MAX: none */
};

/* An agg_sub's waits ended by one waker: (kind, task) as named. */
struct agg_waker {
	uint64_t count, total_ns;
	uint32_t task;		/* a task's, else LT_NO_TASK */
	uint32_t next;
	uint8_t kind;		/* enum lt_waker_kind, resolved */
};

struct builder {
	struct lt_report_priv *priv;
	const struct lt_replay *rp;
	lt_symbol_fn sym;
	lt_symbol_fn user_sym;		/* NULL: user frames as addresses */
	void *sym_ctx;
	enum lt_sort sort;
	bool kernel_threads;
	const bool *selected;		/* per replay task; NULL: every task */

	struct agg *aggs;
	size_t nr_aggs, cap_aggs;
	struct lt_map agg_map;
	struct agg_sub *subs;
	size_t nr_subs, cap_subs;
	struct lt_map sub_map;
	/* the stacks' wakers: the whole range's thread rows' */
	bool wakers;
	struct agg_waker *awakers;
	size_t nr_awakers, cap_awakers;
	struct lt_map awaker_map;	/* (agg_sub, kind), task -> agg_waker */
	const char **task_comm;		/* per replay task: the report's copy */
	const char **sym_cache;		/* per replay stack frame index */
	struct lt_error *err;
	/* the aggs' trees: node 0 unused */
	struct cnode *cnodes;
	size_t nr_cnodes, cap_cnodes;
	struct lt_map cnode_map;
	struct lt_strtab names;
	bool names_ok;
	/* names' ids, by what they name (see memo_id()) */
	uint32_t *comm_ids;		/* per replay task */
	uint32_t *cause_ids;		/* per replay cause */
	uint32_t what_ids[LT_CHAIN_RAN - LT_CHAIN_RUNNING + 1];
	uint32_t idle_id;
};

void *lt_report_pool_alloc(struct lt_report_pool *pool, size_t n, size_t size)
{
	/* calloc() checks n * size; malloc's header and the slot */
	size_t take = (n ? n : 1) * size + 2 * sizeof(void *) +
		      sizeof(*pool->allocs);
	void *p;

	if (pool->limit && (pool->bytes > pool->limit ||
			    take > pool->limit - pool->bytes)) {
		pool->over_limit = true;
		return NULL;
	}
	if (pool->nr == pool->cap) {
		size_t ncap = pool->cap ? pool->cap * 2 : 64;
		void **a = realloc(pool->allocs, ncap * sizeof(*a));

		if (!a)
			return NULL;
		pool->allocs = a;
		pool->cap = ncap;
	}
	p = calloc(n ? n : 1, size);
	if (p) {
		pool->allocs[pool->nr++] = p;
		pool->bytes += take;
	}
	return p;
}

const char *lt_report_pool_strdup(struct lt_report_pool *pool, const char *s)
{
	size_t len = strlen(s) + 1;
	char *p = lt_report_pool_alloc(pool, len, 1);

	if (p)
		memcpy(p, s, len);
	return p;
}

int lt_report_pool_move(struct lt_report_pool *to, struct lt_report_pool *from)
{
	size_t ncap;
	void **a;

	if (!from->nr) {
		lt_report_pool_free(from);
		return 0;
	}
	if (to->cap - to->nr < from->nr) {
		for (ncap = to->cap ? to->cap : 64; ncap - to->nr < from->nr; )
			ncap *= 2;
		a = realloc(to->allocs, ncap * sizeof(*a));
		if (!a)
			return -1;
		to->allocs = a;
		to->cap = ncap;
	}
	memcpy(to->allocs + to->nr, from->allocs, from->nr * sizeof(*to->allocs));
	to->nr += from->nr;
	to->bytes += from->bytes;
	free(from->allocs);
	memset(from, 0, sizeof(*from));
	return 0;
}

void lt_report_pool_free(struct lt_report_pool *pool)
{
	size_t i;

	for (i = 0; i < pool->nr; i++)
		free(pool->allocs[i]);
	free(pool->allocs);
	memset(pool, 0, sizeof(*pool));
}

void lt_report_free(struct lt_report *report)
{
	struct lt_report_priv *priv;

	if (!report)
		return;
	priv = lt_report_priv(report);
	lt_report_pool_free(&priv->pool);
	if (priv->have_replay)
		lt_replay_free(&priv->replay);
	if (priv->release)
		priv->release(priv->release_ctx);
	free(priv);
}

static int nomem(struct builder *b)
{
	lt_error_set(b->err, LT_E_NOMEM, "out of memory while building the report");
	return -1;
}

static void occ_add(struct lt_report_occurrence *w, unsigned int *nr,
		    uint64_t dur, uint64_t end, int tid)
{
	unsigned int i;

	for (i = *nr; i > 0 && lt_wait_before(dur, end, w[i - 1].dur_ns,
					      w[i - 1].end_ns); i--)
		if (i < LT_REPORT_WORST)
			w[i] = w[i - 1];
	if (i >= LT_REPORT_WORST)
		return;
	w[i].dur_ns = dur;
	w[i].end_ns = end;
	w[i].tid = tid;
	if (*nr < LT_REPORT_WORST)
		(*nr)++;
}

static struct agg *agg_get(struct builder *b, enum level level,
			   uint32_t leader, uint32_t task, uint32_t cause)
{
	uint64_t k1 = (uint64_t)level << 62 | (uint64_t)leader << 31 | task;
	uint32_t *slot;
	int added;

	slot = lt_map_put(&b->agg_map, k1, cause, (uint32_t)b->nr_aggs, &added);
	if (!slot)
		return NULL;
	if (added) {
		struct agg *a;

		if (b->nr_aggs == b->cap_aggs) {
			size_t ncap = b->cap_aggs ? b->cap_aggs * 2 : 256;

			a = realloc(b->aggs, ncap * sizeof(*a));
			if (!a)
				return NULL;
			b->aggs = a;
			b->cap_aggs = ncap;
		}
		a = &b->aggs[b->nr_aggs++];
		memset(a, 0, sizeof(*a));
		a->level = level;
		a->leader = leader;
		a->task = task;
		a->cause = cause;
		a->first_sub = UINT32_MAX;
		a->chain = UINT32_MAX;
	}
	return &b->aggs[*slot];
}

/* ---- waited_for trees --------------------------------------------------- */

static uint32_t cnode_new(struct builder *b)
{
	if (b->nr_cnodes == b->cap_cnodes) {
		size_t ncap = b->cap_cnodes ? b->cap_cnodes * 2 : 256;
		struct cnode *n = realloc(b->cnodes, ncap * sizeof(*n));

		if (!n)
			return 0;
		b->cnodes = n;
		b->cap_cnodes = ncap;
	}
	if (!b->nr_cnodes)
		b->nr_cnodes = 1;	/* 0: none */
	memset(&b->cnodes[b->nr_cnodes], 0, sizeof(*b->cnodes));
	return (uint32_t)b->nr_cnodes++;
}

static uint32_t name_id(struct builder *b, const char *s)
{
	return lt_strtab_intern(&b->names, s, strlen(s));
}

/* The child of @parent keyed so, made if need be: 0 on ENOMEM. */
static uint32_t cnode_child(struct builder *b, uint32_t parent, bool by_tid,
			    uint32_t what, uint32_t comm, int tid, bool blocked)
{
	uint64_t k1 = (uint64_t)parent << 32 | what;
	uint64_t k2 = by_tid ? (uint64_t)(uint32_t)tid : 1ULL << 32 | comm;
	uint32_t *slot, c;
	int added;

	slot = lt_map_get(&b->cnode_map, k1, k2);
	if (slot) {
		c = *slot;
		/* above threads: one tid, or several */
		if (b->cnodes[c].tid != tid)
			b->cnodes[c].tid = -1;
		return c;
	}
	c = cnode_new(b);
	if (!c || !lt_map_put(&b->cnode_map, k1, k2, c, &added))
		return 0;
	b->cnodes[c].what = what;
	b->cnodes[c].comm = comm;
	b->cnodes[c].tid = tid;
	b->cnodes[c].blocked = blocked;
	b->cnodes[c].next = b->cnodes[parent].child;
	b->cnodes[parent].child = c;
	b->cnodes[parent].nr++;
	return c;
}

/*
 * A name's id, interned once into *@slot (its id + 1; 0: not yet): a
 * report folds tens of thousands of nodes, of a few hundred names.
 */
static uint32_t memo_id(struct builder *b, uint32_t *slot, const char *s)
{
	uint32_t id;

	if (*slot)
		return *slot - 1;
	id = name_id(b, s);
	if (id != UINT32_MAX)
		*slot = id + 1;
	return id;
}

/* The id of replay task @task's comm, as memo_id(). */
static uint32_t comm_id(struct builder *b, uint32_t task)
{
	if (!b->comm_ids) {
		b->comm_ids = calloc(b->rp->nr_tasks ? b->rp->nr_tasks : 1,
				     sizeof(*b->comm_ids));
		if (!b->comm_ids)
			return UINT32_MAX;
	}
	return memo_id(b, &b->comm_ids[task], lt_replay_task_comm(b->rp, task));
}

/* The id of a waker's own wait's cause @what, as the tables show it. */
static uint32_t cause_id(struct builder *b, uint32_t what)
{
	const struct lt_replay *rp = b->rp;
	uint32_t cause = lt_replay_cause(rp, what);
	struct lt_report_row row;
	char buf[512];

	if (!b->cause_ids) {
		b->cause_ids = calloc(rp->nr_causes ? rp->nr_causes : 1,
				      sizeof(*b->cause_ids));
		if (!b->cause_ids)
			return UINT32_MAX;
	}
	if (b->cause_ids[cause])
		return b->cause_ids[cause] - 1;
	memset(&row, 0, sizeof(row));
	row.reason = lt_replay_str(rp, rp->causes[cause].reason);
	row.argument = lt_replay_str(rp, rp->causes[cause].argument);
	return memo_id(b, &b->cause_ids[cause],
		       lt_format_cause(buf, sizeof(buf), &row, 0));
}

/* The id of LT_CHAIN_* @what's name. */
static uint32_t what_id(struct builder *b, uint32_t what)
{
	return memo_id(b, &b->what_ids[what - LT_CHAIN_RUNNING],
		       lt_chain_what_name(what));
}

/*
 * The replay's tree @tr below @sn into the agg's below @dn: its keys
 * resolved (a stack's cause to the cause, a waking stack that was a
 * timer's to one timer node, one that ran a wakeup another CPU queued to
 * "unknown").
 */
static int fold_chain(struct builder *b, bool by_tid, bool ran, uint32_t dn,
		      const struct lt_chain_tree *tr, uint32_t sn)
{
	const struct lt_replay *rp = b->rp;
	uint32_t c;

	for (c = tr->nodes[sn].child; c; c = tr->nodes[c].next) {
		const struct lt_chain_node *n = &tr->nodes[c];
		uint32_t what = n->what, task = n->task, id = 0, cid = 0, d;
		bool named = lt_chain_what_name(what), blocked = false;
		int tid = -1;

		switch (lt_chain_stack_waker(rp, n->wstack)) {
		case LT_WAKER_UNKNOWN:
			named = true;
			task = LT_NO_TASK;
			what = LT_CHAIN_UNKNOWN;
			break;
		case LT_WAKER_TIMER:
			named = true;
			task = LT_NO_TASK;
			what = LT_CHAIN_TIMER;
			break;
		default:
			break;
		}
		if (ran) {
			/* ran_instead: who, or "unknown", without a what */
			if (task == LT_NO_TASK)
				cid = what_id(b, what == LT_CHAIN_OTHER ?
					      LT_CHAIN_OTHER : LT_CHAIN_UNKNOWN);
		} else if (!named) {
			/* the waker's own wait: its cause as the tables show it */
			id = cause_id(b, what);
			blocked = true;
		} else {
			id = what_id(b, what);
		}
		if (task == LT_CHAIN_IDLE) {
			tid = 0;
			cid = memo_id(b, &b->idle_id, "<idle>");
		} else if (task != LT_NO_TASK) {
			tid = rp->tasks[task].pid;
			cid = comm_id(b, by_tid ? task : rp->tasks[task].leader);
		} else if (!ran) {
			cid = id;
		}
		if (id == UINT32_MAX || cid == UINT32_MAX)
			return -1;
		d = cnode_child(b, dn, by_tid, id, cid, tid, blocked);
		if (!d)
			return -1;
		b->cnodes[d].ns += n->ns;
		if (blocked && fold_chain(b, by_tid, false, d, tr, c) < 0)
			return -1;
	}
	return 0;
}

static int agg_add_chain(struct builder *b, struct agg *a,
			 const struct lt_row_acc *r)
{
	if (!r->chain.nr)
		return 0;
	if (a->chain == UINT32_MAX) {
		a->chain = cnode_new(b);
		if (!a->chain)
			return -1;
	}
	b->cnodes[a->chain].ns += r->chain.nodes[0].ns;
	return fold_chain(b, a->level == LVL_THREAD, a->cause == b->rp->cause_sched,
			  a->chain, &r->chain, 0);
}

static int cmp_chain(const void *pa, const void *pb)
{
	const struct lt_report_chain *a = pa, *b = pb;

	return lt_report_chain_cmp(a, b);
}

/* The children of cnode @n as the report's, sorted, recursively. */
static int make_chain(struct builder *b, uint32_t n,
		      struct lt_report_chain **out, size_t *nr)
{
	struct lt_report_chain *v;
	size_t i = 0;
	uint32_t c;

	*out = NULL;
	*nr = 0;
	if (!b->cnodes[n].nr)
		return 0;
	v = lt_report_alloc(b->priv, b->cnodes[n].nr, sizeof(*v));
	if (!v)
		return -1;
	for (c = b->cnodes[n].child; c; c = b->cnodes[c].next, i++) {
		const struct cnode *cn = &b->cnodes[c];

		v[i].tid = cn->tid;
		v[i].comm = lt_report_strdup(b->priv, lt_strtab_get(&b->names,
								    cn->comm));
		v[i].what = cn->what ? lt_report_strdup(b->priv,
					lt_strtab_get(&b->names, cn->what)) :
			    NULL;
		v[i].ns = cn->ns;
		v[i].blocked = cn->blocked;
		if (!v[i].comm || (cn->what && !v[i].what) ||
		    make_chain(b, c, &v[i].children, &v[i].nr_children) < 0)
			return -1;
	}
	qsort(v, i, sizeof(*v), cmp_chain);
	*out = v;
	*nr = i;
	return 0;
}

/*
 * Sub-row @s's wakers into agg_sub @as's, named: a waking stack that was
 * a timer's makes its waits the timer's, and one that ran a wakeup another
 * CPU queued makes them unknown, as in the waits export.
 */
static int agg_wakers_add(struct builder *b, uint32_t as,
			  const struct lt_sub_acc *s)
{
	const struct lt_replay *rp = b->rp;
	struct agg_waker *aw;
	uint32_t i, *slot;
	int added;

	for (i = s->wakers; i != UINT32_MAX; i = rp->sub_wakers[i].next) {
		const struct lt_sub_waker *e = &rp->sub_wakers[i];
		struct lt_chain_waker w = { .task = e->task, .stack = e->stack,
					    .kind = e->kind };
		uint8_t kind = lt_chain_waker_kind(rp, &w);
		uint32_t task = e->task;

		if (kind == LT_WAKER_TIMER || kind == LT_WAKER_UNKNOWN)
			task = LT_NO_TASK;
		slot = lt_map_put(&b->awaker_map, (uint64_t)as << 8 | kind,
				  task, (uint32_t)b->nr_awakers, &added);
		if (!slot)
			return -1;
		if (added) {
			if (b->nr_awakers == b->cap_awakers) {
				size_t ncap = b->cap_awakers ?
					      b->cap_awakers * 2 : 256;

				aw = realloc(b->awakers, ncap * sizeof(*aw));
				if (!aw)
					return -1;
				b->awakers = aw;
				b->cap_awakers = ncap;
			}
			aw = &b->awakers[b->nr_awakers];
			memset(aw, 0, sizeof(*aw));
			aw->kind = kind;
			aw->task = task;
			aw->next = b->subs[as].first_waker;
			b->subs[as].first_waker = (uint32_t)b->nr_awakers++;
		}
		aw = &b->awakers[*slot];
		aw->count += e->count;
		aw->total_ns += e->total_ns;
	}
	return 0;
}

static int agg_sub_add(struct builder *b, uint32_t agg,
		       const struct lt_sub_acc *s)
{
	struct agg_sub *as;
	uint32_t *slot;
	int added;

	slot = lt_map_put(&b->sub_map, agg, (uint64_t)s->path << 32 | s->stack,
			  (uint32_t)b->nr_subs, &added);
	if (!slot)
		return -1;
	if (added) {
		if (b->nr_subs == b->cap_subs) {
			size_t ncap = b->cap_subs ? b->cap_subs * 2 : 256;

			as = realloc(b->subs, ncap * sizeof(*as));
			if (!as)
				return -1;
			b->subs = as;
			b->cap_subs = ncap;
		}
		as = &b->subs[b->nr_subs];
		memset(as, 0, sizeof(*as));
		as->path = s->path;
		as->stack = s->stack;
		as->first_waker = UINT32_MAX;
		as->next = b->aggs[agg].first_sub;
		b->aggs[agg].first_sub = (uint32_t)b->nr_subs++;
	}
	as = &b->subs[*slot];
	as->count += s->count;
	as->total_ns += s->total_ns;
	if (as->count == s->count ||
	    lt_wait_before(s->max_ns, s->max_at_ns, as->max_ns,
			   as->max_at_ns)) {
		as->max_ns = s->max_ns;
		as->max_at_ns = s->max_at_ns;
	}
	if (b->wakers && b->aggs[agg].level == LVL_THREAD)
		return agg_wakers_add(b, *slot, s);
	return 0;
}

static int agg_add_row(struct builder *b, struct agg *a,
		       const struct lt_row_acc *r, int tid)
{
	uint32_t ai = (uint32_t)(a - b->aggs), s;
	unsigned int i;

	if (lt_hist_merge(&a->hist, &r->hist) < 0)
		return -1;
	if (!a->count ||
	    lt_wait_before(r->max_ns, r->max_at_ns, a->max_ns, a->max_at_ns)) {
		a->max_ns = r->max_ns;
		a->max_at_ns = r->max_at_ns;
		a->max_tid = tid;
	}
	a->count += r->count;
	a->total_ns += r->total_ns;
	for (i = 0; i < r->nr_worst; i++)
		occ_add(a->worst, &a->nr_worst, r->worst[i].dur_ns,
			r->worst[i].end_ns, tid);
	for (s = r->first_sub; s != UINT32_MAX; s = b->rp->subs[s].next)
		if (b->rp->subs[s].count && agg_sub_add(b, ai, &b->rp->subs[s]) < 0)
			return -1;
	return agg_add_chain(b, &b->aggs[ai], r);
}

static int fold_row(struct builder *b, uint32_t ri)
{
	const struct lt_row_acc *r = &b->rp->rows[ri];
	const struct lt_task *t = &b->rp->tasks[r->task];
	bool kthread = lt_replay_task_is_kthread(b->rp, r->task);
	uint32_t cause = r->cause;
	struct agg *a;

	if (r->uncharged)
		cause = r->cause == b->rp->cause_stopped[0] ? CAUSE_STOPPED_SIGNAL :
			r->cause == b->rp->cause_stopped[1] ? CAUSE_STOPPED_TRACER :
			CAUSE_UNCHARGED;

	if (b->selected && !b->selected[r->task])
		return 0;
	a = agg_get(b, LVL_THREAD, t->leader, r->task, cause);
	if (!a || agg_add_row(b, a, r, t->pid) < 0)
		return -1;
	a = agg_get(b, LVL_PROCESS, t->leader, t->leader, cause);
	if (!a || agg_add_row(b, a, r, t->pid) < 0)
		return -1;
	/* LatencyTOP kept kernel threads out of the global table */
	if ((kthread && !b->kernel_threads) || r->uncharged)
		return 0;
	a = agg_get(b, LVL_GLOBAL, 0, 0, r->cause);
	if (!a || agg_add_row(b, a, r, t->pid) < 0)
		return -1;
	return 0;
}

static uint64_t sort_key(enum lt_sort sort, uint64_t count, uint64_t total,
			 uint64_t max)
{
	switch (sort) {
	case LT_SORT_TOTAL:
		return total;
	case LT_SORT_COUNT:
		return count;
	case LT_SORT_AVG:
		return count ? total / count : 0;
	case LT_SORT_MAX:
	default:
		return max;
	}
}

static int cmp_u64_desc(uint64_t a, uint64_t b)
{
	return a < b ? 1 : a > b ? -1 : 0;
}

/*
 * The comparators that depend on the sort take it (or the array that
 * indices point into) as qsort_r()'s argument, not from a static: two
 * threads may build or sort reports at once.
 */
static int cmp_rows(const void *pa, const void *pb, void *arg)
{
	const struct lt_report_row *a = pa, *b = pb;
	enum lt_sort by = *(const enum lt_sort *)arg;
	int c = cmp_u64_desc(sort_key(by, a->count, a->total_ns, a->max_ns),
			     sort_key(by, b->count, b->total_ns, b->max_ns));

	if (c)
		return c;
	c = cmp_u64_desc(a->total_ns, b->total_ns);
	if (c)
		return c;
	c = strcmp(a->reason, b->reason);
	return c ? c : strcmp(a->argument, b->argument);
}

static int cmp_stacks(const void *pa, const void *pb)
{
	const struct lt_report_stack *a = pa, *b = pb;
	int c = cmp_u64_desc(a->total_ns, b->total_ns);

	return c ? c : cmp_u64_desc(a->count, b->count);
}

static int cmp_ptrs(const char *const *a, unsigned int na,
		    const char *const *b, unsigned int nb)
{
	unsigned int i;

	if (na != nb)
		return na < nb ? -1 : 1;
	for (i = 0; i < na; i++)
		if (a[i] != b[i])
			return (uintptr_t)a[i] < (uintptr_t)b[i] ? -1 : 1;
	return 0;
}

/* Names are interned: equal pointers, equal names. */
static int cmp_stack_names(const void *pa, const void *pb)
{
	const struct lt_report_stack *a = pa, *b = pb;
	int c = cmp_ptrs(a->path, a->path_depth, b->path, b->path_depth);

	if (!c)
		c = cmp_ptrs(a->frames, a->nr_frames, b->frames, b->nr_frames);
	return c ? c : cmp_ptrs(a->user_frames, a->nr_user_frames,
				b->user_frames, b->nr_user_frames);
}

/* ---- the stacks' wakers ------------------------------------------------ */

/* The report's copy of @task's name, made once. */
static const char *task_comm(struct builder *b, uint32_t task)
{
	if (!b->task_comm) {
		b->task_comm = calloc(b->rp->nr_tasks ? b->rp->nr_tasks : 1,
				      sizeof(*b->task_comm));
		if (!b->task_comm)
			return NULL;
	}
	if (!b->task_comm[task])
		b->task_comm[task] = lt_report_strdup(b->priv,
					lt_replay_task_comm(b->rp, task));
	return b->task_comm[task];
}

/* agg_sub @as's wakers into @st, in no order yet. */
static int stack_wakers(struct builder *b, const struct agg_sub *as,
			struct lt_report_stack *st)
{
	const struct lt_replay *rp = b->rp;
	struct lt_report_waker *v;
	size_t n = 0;
	uint32_t i;

	for (i = as->first_waker; i != UINT32_MAX; i = b->awakers[i].next)
		n++;
	if (!n)
		return 0;
	v = lt_report_alloc(b->priv, n, sizeof(*v));
	if (!v)
		return -1;
	for (i = as->first_waker, n = 0; i != UINT32_MAX;
	     i = b->awakers[i].next, n++) {
		const struct agg_waker *aw = &b->awakers[i];
		struct lt_chain_waker w = { .kind = aw->kind,
					    .task = LT_NO_TASK };

		v[n].kind = lt_waker_kind_name(rp, &w);
		v[n].tid = -1;
		if (aw->task != LT_NO_TASK && aw->task < rp->nr_tasks) {
			v[n].tid = rp->tasks[aw->task].pid;
			v[n].comm = task_comm(b, aw->task);
			if (!v[n].comm)
				return -1;
		}
		v[n].count = aw->count;
		v[n].total_ns = aw->total_ns;
	}
	st->wakers = v;
	st->nr_wakers = n;
	return 0;
}

static bool same_waker(const struct lt_report_waker *a,
		       const struct lt_report_waker *b)
{
	return a->tid == b->tid && !strcmp(a->kind, b->kind) &&
	       (a->comm == b->comm ||
		(a->comm && b->comm && !strcmp(a->comm, b->comm)));
}

/* @add's wakers added to @o's. */
static int merge_wakers(struct builder *b, struct lt_report_stack *o,
			const struct lt_report_stack *add)
{
	struct lt_report_waker *v;
	size_t n, i, k;

	if (!add->nr_wakers)
		return 0;
	v = lt_report_alloc(b->priv, o->nr_wakers + add->nr_wakers, sizeof(*v));
	if (!v)
		return -1;
	if (o->nr_wakers)
		memcpy(v, o->wakers, o->nr_wakers * sizeof(*v));
	n = o->nr_wakers;
	for (i = 0; i < add->nr_wakers; i++) {
		const struct lt_report_waker *a = &add->wakers[i];

		for (k = 0; k < n && !same_waker(&v[k], a); k++)
			;
		if (k == n) {
			v[n++] = *a;
			continue;
		}
		v[k].count += a->count;
		v[k].total_ns += a->total_ns;
	}
	o->wakers = v;
	o->nr_wakers = n;
	return 0;
}

static bool is_other(const struct lt_report_waker *w)
{
	return !strcmp(w->kind, "other");
}

/* "other" last; the most time first, then the most waits, then names. */
static int cmp_wakers(const void *pa, const void *pb)
{
	const struct lt_report_waker *a = pa, *b = pb;
	int c;

	if (is_other(a) != is_other(b))
		return is_other(a) ? 1 : -1;
	c = cmp_u64_desc(a->total_ns, b->total_ns);
	if (!c)
		c = cmp_u64_desc(a->count, b->count);
	if (!c)
		c = strcmp(a->kind, b->kind);
	if (!c)
		c = (a->tid > b->tid) - (a->tid < b->tid);
	if (!c && a->comm && b->comm)
		c = strcmp(a->comm, b->comm);
	return c;
}

/*
 * @st's wakers in order, at most LT_REPORT_STACK_WAKERS of them: the rest
 * (and those the replay summed already) in one "other".
 */
static void order_wakers(struct lt_report_stack *st)
{
	/* the builder's own array, made in this file */
	struct lt_report_waker *v = (struct lt_report_waker *)st->wakers;
	struct lt_report_waker other = { "other", -1, NULL, 0, 0 };
	size_t n = st->nr_wakers, keep, i;

	if (n < 2)
		return;
	qsort(v, n, sizeof(*v), cmp_wakers);
	for (keep = 0; keep < n && keep < LT_REPORT_STACK_WAKERS &&
		       !is_other(&v[keep]); keep++)
		;
	if (keep == n)
		return;
	for (i = keep; i < n; i++) {
		other.count += v[i].count;
		other.total_ns += v[i].total_ns;
	}
	v[keep] = other;
	st->nr_wakers = keep + 1;
}

/*
 * Stacks that differ only in return offsets read the same: one entry.
 * The new count into *@n: 0, or -1 on ENOMEM.
 */
static int merge_stacks(struct builder *b, struct lt_report_stack *st,
			size_t *n)
{
	size_t i, out = 0;

	qsort(st, *n, sizeof(*st), cmp_stack_names);
	for (i = 0; i < *n; i++) {
		struct lt_report_stack *o = &st[out - (out ? 1 : 0)];

		if (out && !cmp_stack_names(o, &st[i])) {
			if (st[i].max_ns > o->max_ns) {
				o->max_ns = st[i].max_ns;
				o->max_at_ns = st[i].max_at_ns;
			}
			o->count += st[i].count;
			o->total_ns += st[i].total_ns;
			if (merge_wakers(b, o, &st[i]) < 0)
				return -1;
			continue;
		}
		st[out++] = st[i];
	}
	*n = out;
	for (i = 0; i < out; i++)
		order_wakers(&st[i]);
	return 0;
}

/*
 * The names of stack @stack's @nr frames: the kernel's, then, past
 * LT_FRAME_USER, the user-space ones.  Each distinct frame slot is named
 * once.
 */
static int stack_names(struct builder *b, uint32_t stack,
		       const uint64_t *frames, uint32_t nr,
		       struct lt_report_stack *st)
{
	uint32_t first = b->rp->stacks[stack].first, k, kn;
	lt_place_fn place = b->priv->user_place;
	const char **names, **slot;
	uint32_t *bins = NULL;
	uint64_t *offs = NULL, *addrs;
	char buf[32];

	names = lt_report_alloc(b->priv, nr, sizeof(*names));
	if (!names)
		return -1;
	for (kn = 0; kn < nr && frames[kn] != LT_FRAME_USER; kn++)
		;
	for (k = 0; k < nr; k++) {
		slot = &b->sym_cache[first + k];
		if (k == kn)
			continue;
		if (!*slot && k < kn)
			*slot = b->sym(b->sym_ctx, frames[k]);
		else if (!*slot && b->user_sym)
			*slot = b->user_sym(b->sym_ctx, frames[k]);
		else if (!*slot) {
			snprintf(buf, sizeof(buf), "0x%" PRIx64, frames[k]);
			*slot = lt_report_strdup(b->priv, buf);
			if (!*slot)
				return -1;
		}
		names[k] = *slot;
	}
	/* frames the tracer stacked on top of the scheduler are noise */
	for (k = 0; k < kn && strcmp(names[k], "__schedule"); k++)
		;
	if (k == kn)
		k = 0;
	st->frames = names + k;
	st->nr_frames = kn - k;
	/* a copy: a live replay's frames move as it grows */
	if (st->nr_frames) {
		addrs = lt_report_alloc(b->priv, st->nr_frames, sizeof(*addrs));
		if (!addrs)
			return -1;
		memcpy(addrs, frames + k, st->nr_frames * sizeof(*addrs));
		st->addrs = addrs;
	}
	if (kn + 1 < nr) {
		st->user_frames = names + kn + 1;
		st->nr_user_frames = nr - kn - 1;
	}
	if (place && st->nr_user_frames) {
		bins = lt_report_alloc(b->priv, st->nr_user_frames, sizeof(*bins));
		offs = lt_report_alloc(b->priv, st->nr_user_frames, sizeof(*offs));
		if (!bins || !offs)
			return -1;
		for (k = 0; k < st->nr_user_frames; k++)
			place(b->sym_ctx, frames[kn + 1 + k], &bins[k], &offs[k]);
		st->user_binaries = bins;
		st->user_offsets = offs;
	}
	return 0;
}

static int row_stacks(struct builder *b, const struct agg *a,
		      struct lt_report_row *row)
{
	struct lt_report_priv *priv = b->priv;
	uint32_t reasons[LT_REASON_DEPTH_MAX];
	size_t n = 0, i;
	uint32_t s;

	for (s = a->first_sub; s != UINT32_MAX; s = b->subs[s].next)
		n++;
	if (!n)
		return 0;
	row->stacks = lt_report_alloc(priv, n, sizeof(*row->stacks));
	if (!row->stacks)
		return -1;
	for (s = a->first_sub, i = 0; s != UINT32_MAX; s = b->subs[s].next, i++) {
		const struct agg_sub *as = &b->subs[s];
		struct lt_report_stack *st = &row->stacks[i];
		const uint64_t *frames;
		const char **names;
		uint32_t nr, k;
		unsigned int depth;

		st->count = as->count;
		st->total_ns = as->total_ns;
		st->max_ns = as->max_ns;
		st->max_at_ns = as->max_at_ns;
		frames = lt_replay_stack_frames(b->rp, as->stack, &nr);
		if (nr && stack_names(b, as->stack, frames, nr, st) < 0)
			return -1;
		if (stack_wakers(b, as, st) < 0)
			return -1;
		depth = lt_replay_path(b->rp, as->path, reasons, LT_REASON_DEPTH_MAX);
		if (depth) {
			names = lt_report_alloc(priv, depth, sizeof(*names));
			if (!names)
				return -1;
			for (k = 0; k < depth; k++)
				names[k] = lt_replay_str(b->rp, reasons[k]);
			st->path = names;
			st->path_depth = depth;
		}
	}
	if (merge_stacks(b, row->stacks, &n) < 0)
		return -1;
	row->nr_stacks = n;
	qsort(row->stacks, row->nr_stacks, sizeof(*row->stacks), cmp_stacks);
	return 0;
}

/* The buckets hit, for the JSON report: what merges it exactly. */
static int row_buckets(struct builder *b, const struct lt_hist *h,
		       struct lt_report_row *row)
{
	struct lt_report_bucket *bk;
	unsigned int i, n = 0;

	for (i = 0; i < h->n; i++)
		n += h->counts[i] != 0;
	if (!n)
		return 0;
	bk = lt_report_alloc(b->priv, n, sizeof(*bk));
	if (!bk)
		return -1;
	for (i = 0, n = 0; i < h->n; i++) {
		if (!h->counts[i])
			continue;
		bk[n].low_ns = lt_hist_bucket_low(h->lo + i);
		bk[n++].count = h->counts[i];
	}
	row->buckets = bk;
	row->nr_buckets = n;
	row->min_ns = h->min;
	return 0;
}

static int make_row(struct builder *b, const struct agg *a,
		    struct lt_report_row *row)
{
	const struct lt_cause *c = &b->rp->causes[a->cause];
	const struct lt_row_field *f;

	row->reason = lt_replay_str(b->rp, c->reason);
	row->argument = lt_replay_str(b->rp, c->argument);
	row->kind = c->kind;
	row->count = a->count;
	row->total_ns = a->total_ns;
	row->max_ns = a->max_ns;
	row->avg_ns = a->count ? a->total_ns / a->count : 0;
	/* the percentiles the field table has */
	lt_for_each_row_field(f)
		if (f->merge == LT_RF_QUANTILE)
			lt_row_field_set_u64(f, row, lt_hist_quantile(&a->hist, f->q));
	row->max_at_ns = a->max_at_ns;
	row->max_tid = a->max_tid;
	memcpy(row->worst, a->worst, sizeof(row->worst));
	row->nr_worst = a->nr_worst;
	if (row_buckets(b, &a->hist, row) < 0)
		return -1;
	if (a->chain != UINT32_MAX &&
	    (c->kind == LT_CAUSE_SCHED ?
	     make_chain(b, a->chain, &row->ran_instead, &row->nr_ran_instead) :
	     make_chain(b, a->chain, &row->waited_for, &row->nr_waited_for)) < 0)
		return -1;
	return row_stacks(b, a, row);
}

/* Rows of aggs [from, to) into a fresh array, sorted, with percentages. */
static struct lt_report_row *make_rows(struct builder *b, const uint32_t *idx,
				       size_t from, size_t to, uint64_t *total,
				       struct lt_report_coverage *cov)
{
	struct lt_report_row *rows;
	size_t i;

	rows = lt_report_alloc(b->priv, to - from, sizeof(*rows));
	if (!rows)
		return NULL;
	*total = 0;
	for (i = from; i < to; i++) {
		if (make_row(b, &b->aggs[idx[i]], &rows[i - from]) < 0)
			return NULL;
		*total += rows[i - from].total_ns;
		if (cov)
			cov->ns[rows[i - from].kind] += rows[i - from].total_ns;
	}
	for (i = 0; i < to - from; i++)
		rows[i].percent = *total ? 100.0 * (double)rows[i].total_ns /
					   (double)*total : 0;
	qsort_r(rows, to - from, sizeof(*rows), cmp_rows, &b->sort);
	return rows;
}

static int cmp_aggs(const void *pa, const void *pb, void *arg)
{
	const struct agg *aggs = arg;
	const struct agg *a = &aggs[*(const uint32_t *)pa];
	const struct agg *b = &aggs[*(const uint32_t *)pb];

	if (a->level != b->level)
		return a->level < b->level ? -1 : 1;
	if (a->leader != b->leader)
		return a->leader < b->leader ? -1 : 1;
	if (a->task != b->task)
		return a->task < b->task ? -1 : 1;
	/* a task's waits not charged after its rows, in their order */
	if ((a->cause >= CAUSE_NOT_CHARGED) != (b->cause >= CAUSE_NOT_CHARGED) ||
	    a->cause >= CAUSE_NOT_CHARGED)
		return (a->cause > b->cause) - (a->cause < b->cause);
	return 0;
}

/*
 * Aggs [from, *to) of one scope: the waits not charged, sorted last,
 * taken off into @u (user requested) and @st (stopped).
 */
static void take_uncharged(const struct builder *b, const uint32_t *idx,
			   size_t from, size_t *to,
			   struct lt_report_uncharged *u,
			   struct lt_report_stopped *st)
{
	struct lt_report_uncharged *into;
	const struct agg *a;

	while (*to > from && b->aggs[idx[*to - 1]].cause >= CAUSE_NOT_CHARGED) {
		a = &b->aggs[idx[--*to]];
		into = a->cause == CAUSE_UNCHARGED ? u :
		       a->cause == CAUSE_STOPPED_SIGNAL ? &st->signal :
		       &st->tracer;
		into->count = a->count;
		into->total_ns = a->total_ns;
		into->max_ns = a->max_ns;
	}
}

static int cmp_procs(const void *pa, const void *pb, void *arg)
{
	const struct lt_report_process *a = pa, *b = pb;
	int c;

	/* user processes first: kernel threads' idle waits would bury them */
	if (a->kernel_thread != b->kernel_thread)
		return a->kernel_thread ? 1 : -1;
	/* processes: by their worst wait for --sort=max, else by total */
	if (*(const enum lt_sort *)arg == LT_SORT_MAX)
		c = cmp_u64_desc(a->max_ns, b->max_ns);
	else
		c = cmp_u64_desc(a->total_ns, b->total_ns);
	if (c)
		return c;
	c = cmp_u64_desc(a->total_ns, b->total_ns);
	return c ? c : (a->pid > b->pid) - (a->pid < b->pid);
}

static int cmp_threads(const void *pa, const void *pb)
{
	const struct lt_report_thread *a = pa, *b = pb;
	int c = cmp_u64_desc(a->total_ns, b->total_ns);

	return c ? c : (a->tid > b->tid) - (a->tid < b->tid);
}

static void builder_reset(struct builder *b)
{
	size_t i;

	for (i = 0; i < b->nr_aggs; i++)
		lt_hist_free(&b->aggs[i].hist);
	b->nr_aggs = 0;
	b->nr_subs = 0;
	b->nr_cnodes = 0;
	b->nr_awakers = 0;
	lt_map_free(&b->agg_map);
	lt_map_free(&b->sub_map);
	lt_map_free(&b->cnode_map);
	lt_map_free(&b->awaker_map);
}

/* Fold @rows (replay row indexes) into one view. */
static int build_view(struct builder *b, const uint32_t *rows, size_t nr,
		      struct lt_report_view *v)
{
	const struct lt_replay *rp = b->rp;
	size_t i, j, k, nproc = 0, tcur = 0;
	uint32_t *idx;

	builder_reset(b);
	for (i = 0; i < nr; i++)
		if (fold_row(b, rows[i]) < 0)
			return nomem(b);
	idx = malloc((b->nr_aggs ? b->nr_aggs : 1) * sizeof(*idx));
	if (!idx)
		return nomem(b);
	for (i = 0; i < b->nr_aggs; i++)
		idx[i] = (uint32_t)i;
	qsort_r(idx, b->nr_aggs, sizeof(*idx), cmp_aggs, b->aggs);

	/* idx: threads (by leader, task), then processes (by leader), then global */
	for (i = 0; i < b->nr_aggs; i++)
		if (b->aggs[idx[i]].level == LVL_PROCESS &&
		    (i == 0 || b->aggs[idx[i - 1]].level != LVL_PROCESS ||
		     b->aggs[idx[i - 1]].leader != b->aggs[idx[i]].leader))
			nproc++;
	/* (an idle kernel thread's sleeps make no section: see below) */
	v->processes = lt_report_alloc(b->priv, nproc, sizeof(*v->processes));
	if (!v->processes)
		goto fail;

	/* global rows: the tail */
	for (i = b->nr_aggs; i > 0 && b->aggs[idx[i - 1]].level == LVL_GLOBAL; i--)
		;
	v->global = make_rows(b, idx, i, b->nr_aggs, &v->total_ns, &v->coverage);
	if (!v->global)
		goto fail;
	v->nr_global = b->nr_aggs - i;

	/* processes, each followed by its threads (found by leader) */
	for (i = 0, k = 0; i < b->nr_aggs; i = j) {
		const struct agg *a = &b->aggs[idx[i]];
		struct lt_report_process *p;
		size_t t0, t1, nthr = 0, ti, t, pend;

		for (j = i; j < b->nr_aggs && b->aggs[idx[j]].level == a->level &&
			    b->aggs[idx[j]].leader == a->leader; j++)
			;
		if (a->level != LVL_PROCESS)
			continue;
		p = &v->processes[k];
		memset(p, 0, sizeof(*p));
		pend = j;
		take_uncharged(b, idx, i, &pend, &p->user_requested,
			       &p->stopped);
		p->kernel_thread = lt_replay_task_is_kthread(rp, a->leader);
		/*
		 * A kernel thread's long sleeps are waits for work: nothing
		 * it requested, and no section of their own.
		 */
		if (p->kernel_thread) {
			memset(&p->user_requested, 0, sizeof(p->user_requested));
			if (pend == i && !p->stopped.signal.count &&
			    !p->stopped.tracer.count)
				continue;
		}
		k++;
		p->pid = rp->tasks[a->leader].pid;
		/* a saved cmdline dies with the trace: the report keeps a copy */
		p->comm = lt_report_strdup(b->priv,
					   lt_replay_task_comm(rp, a->leader));
		if (!p->comm)
			goto fail;
		if (lt_replay_task_cgroup(rp, a->leader) &&
		    !(p->cgroup = lt_report_strdup(b->priv,
				lt_replay_task_cgroup(rp, a->leader))))
			goto fail;
		p->rows = make_rows(b, idx, i, pend, &p->total_ns, &p->coverage);
		if (!p->rows)
			goto fail;
		p->nr_rows = pend - i;
		for (t = 0; t < p->nr_rows; t++)
			if (p->rows[t].max_ns > p->max_ns)
				p->max_ns = p->rows[t].max_ns;

		/* thread aggs lead idx in the same leader order: walk along */
		for (t0 = tcur; t0 < b->nr_aggs &&
			     b->aggs[idx[t0]].level == LVL_THREAD &&
			     b->aggs[idx[t0]].leader < a->leader; t0++)
			;
		for (t1 = t0; t1 < b->nr_aggs &&
			      b->aggs[idx[t1]].level == LVL_THREAD &&
			      b->aggs[idx[t1]].leader == a->leader; t1++)
			if (t1 == t0 || b->aggs[idx[t1]].task != b->aggs[idx[t1 - 1]].task)
				nthr++;
		p->threads = lt_report_alloc(b->priv, nthr, sizeof(*p->threads));
		if (!p->threads)
			goto fail;
		for (ti = t0; ti < t1;) {
			struct lt_report_thread *th = &p->threads[p->nr_threads++];
			uint32_t task = b->aggs[idx[ti]].task;
			size_t te, tend;

			for (te = ti; te < t1 && b->aggs[idx[te]].task == task; te++)
				;
			tend = te;
			take_uncharged(b, idx, ti, &tend, &th->user_requested,
				       &th->stopped);
			if (p->kernel_thread)
				memset(&th->user_requested, 0,
				       sizeof(th->user_requested));
			th->tid = rp->tasks[task].pid;
			th->comm = lt_report_strdup(b->priv,
						    lt_replay_task_comm(rp, task));
			if (!th->comm)
				goto fail;
			/* a leader not seen: its threads say where it is */
			if (!p->cgroup && lt_replay_task_cgroup(rp, task) &&
			    !(p->cgroup = lt_report_strdup(b->priv,
					lt_replay_task_cgroup(rp, task))))
				goto fail;
			th->rows = make_rows(b, idx, ti, tend, &th->total_ns, NULL);
			if (!th->rows)
				goto fail;
			th->nr_rows = tend - ti;
			ti = te;
		}
		tcur = t1;
		qsort(p->threads, p->nr_threads, sizeof(*p->threads), cmp_threads);
	}
	v->nr_processes = k;
	qsort_r(v->processes, v->nr_processes, sizeof(*v->processes), cmp_procs,
		&b->sort);
	free(idx);
	return 0;
fail:
	free(idx);
	return nomem(b);
}

/* A read report's empty tables are NULL, which qsort_r() must not see. */
static void sort_some(void *base, size_t nr, size_t size,
		      int (*cmp)(const void *, const void *, void *),
		      enum lt_sort *by)
{
	if (nr > 1)
		qsort_r(base, nr, size, cmp, by);
}

static void sort_view(struct lt_report_view *v, enum lt_sort *by)
{
	struct lt_report_process *p;
	size_t i, k;

	sort_some(v->global, v->nr_global, sizeof(*v->global), cmp_rows, by);
	for (i = 0; i < v->nr_processes; i++) {
		p = &v->processes[i];
		sort_some(p->rows, p->nr_rows, sizeof(*p->rows), cmp_rows, by);
		for (k = 0; k < p->nr_threads; k++)
			sort_some(p->threads[k].rows, p->threads[k].nr_rows,
				  sizeof(*p->threads[k].rows), cmp_rows, by);
	}
	sort_some(v->processes, v->nr_processes, sizeof(*v->processes),
		  cmp_procs, by);
}

void lt_report_sort(struct lt_report *r, enum lt_sort sort)
{
	size_t i;

	sort_view(&r->whole, &sort);
	for (i = 0; i < r->nr_windows; i++)
		sort_view(&r->windows[i], &sort);
	r->options.sort = sort;
}

static bool int_in(int v, const int *list, size_t nr)
{
	size_t i;

	for (i = 0; i < nr; i++)
		if (list[i] == v)
			return true;
	return false;
}

static bool name_matches(const char *name, const struct lt_task_filter *f)
{
	size_t i;

	for (i = 0; i < f->nr_comms; i++)
		if (!fnmatch(f->comms[i], name, 0))
			return true;
	return false;
}

bool *lt_report_select_tasks(const struct lt_replay *rp,
			     const struct lt_task_filter *f)
{
	bool *sel = calloc(rp->nr_tasks ? rp->nr_tasks : 1, sizeof(*sel));
	uint32_t t, leader;

	if (!sel)
		return NULL;
	for (t = 0; t < rp->nr_tasks; t++) {
		leader = rp->tasks[t].leader;
		sel[t] = int_in(rp->tasks[leader].pid, f->pids, f->nr_pids) ||
			 int_in(rp->tasks[t].pid, f->tids, f->nr_tids) ||
			 name_matches(lt_replay_task_comm(rp, t), f) ||
			 name_matches(lt_replay_task_comm(rp, leader), f);
	}
	return sel;
}

/*
 * The filter into the report's own memory: a report outlives the
 * caller's option arrays (and is written again from a saved one).
 */
static int copy_filter(struct lt_report_priv *priv)
{
	struct lt_task_filter *f = &priv->pub.options.tasks;
	int *pids = NULL, *tids = NULL;
	const char **comms = NULL;
	size_t i;

	if (f->nr_pids && !(pids = lt_report_alloc(priv, f->nr_pids, sizeof(*pids))))
		return -1;
	if (f->nr_tids && !(tids = lt_report_alloc(priv, f->nr_tids, sizeof(*tids))))
		return -1;
	if (f->nr_comms &&
	    !(comms = lt_report_alloc(priv, f->nr_comms, sizeof(*comms))))
		return -1;
	if (f->nr_pids)
		memcpy(pids, f->pids, f->nr_pids * sizeof(*pids));
	if (f->nr_tids)
		memcpy(tids, f->tids, f->nr_tids * sizeof(*tids));
	for (i = 0; i < f->nr_comms; i++)
		if (!(comms[i] = lt_report_strdup(priv, f->comms[i])))
			return -1;
	f->pids = pids;
	f->tids = tids;
	f->comms = comms;
	return 0;
}

int lt_report_build(struct lt_report_priv *priv, lt_symbol_fn sym,
		    lt_symbol_fn user_sym, void *sym_ctx, struct lt_error *err)
{
	return lt_report_build_from(priv, &priv->replay, sym, user_sym,
				    sym_ctx, err);
}

int lt_report_build_from(struct lt_report_priv *priv,
			 const struct lt_replay *rp, lt_symbol_fn sym,
			 lt_symbol_fn user_sym, void *sym_ctx,
			 struct lt_error *err)
{
	struct lt_report *r = &priv->pub;
	struct builder b;
	uint32_t *all = NULL, *by_win = NULL, *start = NULL;
	bool *selected = NULL;
	size_t nr = 0, i, w;
	int ret = -1;

	memset(&b, 0, sizeof(b));
	b.priv = priv;
	b.rp = rp;
	b.sym = sym;
	b.user_sym = user_sym;
	b.sym_ctx = sym_ctx;
	b.sort = r->options.sort;
	b.kernel_threads = r->options.kernel_threads;
	b.err = err;
	lt_map_init(&b.agg_map);
	lt_map_init(&b.sub_map);
	lt_map_init(&b.cnode_map);
	lt_map_init(&b.awaker_map);
	if (lt_strtab_init(&b.names) < 0)
		goto nomem;
	b.names_ok = true;
	b.sym_cache = calloc(rp->nr_frames ? rp->nr_frames : 1, sizeof(*b.sym_cache));
	all = malloc((rp->nr_rows ? rp->nr_rows : 1) * sizeof(*all));
	if (!b.sym_cache || !all)
		goto nomem;
	if (lt_task_filter_active(&r->options.tasks)) {
		if (copy_filter(priv) < 0 ||
		    !(selected = lt_report_select_tasks(rp, &r->options.tasks)))
			goto nomem;
		b.selected = selected;
	}
	/*
	 * Provisional rows hold waits that may still move to an outer reason;
	 * a finished replay has committed them all (left empty), a live one
	 * shows them as they stand.
	 */
	for (i = 0; i < rp->nr_rows; i++)
		if (rp->rows[i].count)
			all[nr++] = (uint32_t)i;

	/* the wakers pprof labels its samples with: the whole range's */
	b.wakers = true;
	if (build_view(&b, all, nr, &r->whole) < 0)
		goto out;
	b.wakers = false;

	if (r->options.window_ns && rp->nr_windows) {
		/* counting sort of the rows by window, then one view each */
		by_win = malloc((nr ? nr : 1) * sizeof(*by_win));
		start = calloc(rp->nr_windows + 1, sizeof(*start));
		r->windows = lt_report_alloc(priv, rp->nr_windows, sizeof(*r->windows));
		if (!by_win || !start || !r->windows)
			goto nomem;
		for (i = 0; i < nr; i++)
			start[rp->rows[all[i]].window + 1]++;
		for (w = 0; w < rp->nr_windows; w++)
			start[w + 1] += start[w];
		for (i = 0; i < nr; i++)
			by_win[start[rp->rows[all[i]].window]++] = all[i];
		/* start[w] now holds the end of window w */
		for (w = 0; w < rp->nr_windows; w++) {
			size_t from = w ? start[w - 1] : 0;
			struct lt_report_view *v = &r->windows[w];

			if (build_view(&b, by_win + from, start[w] - from, v) < 0)
				goto out;
			v->start_ns = rp->origin_ns + w * r->options.window_ns;
			/* the trace's end, or sooner: never past it by wrapping */
			v->end_ns = r->whole.end_ns;
			if (v->start_ns < r->whole.end_ns &&
			    r->options.window_ns < r->whole.end_ns - v->start_ns)
				v->end_ns = v->start_ns + r->options.window_ns;
		}
		r->nr_windows = rp->nr_windows;
	}
	ret = 0;
	goto out;
nomem:
	nomem(&b);
out:
	builder_reset(&b);
	free(b.aggs);
	free(b.subs);
	free(b.cnodes);
	free(b.awakers);
	free(b.task_comm);
	free(b.comm_ids);
	free(b.cause_ids);
	if (b.names_ok)
		lt_strtab_free(&b.names);
	free(b.sym_cache);
	free(selected);
	free(all);
	free(by_win);
	free(start);
	return ret;
}

const char *lt_report_id_of(const struct lt_report *r, char *buf, size_t size)
{
	uint64_t h = LT_FNV1A_BASIS;
	char num[64];

	if (r->id && *r->id)
		return r->id;
	snprintf(num, sizeof(num), "%" PRIu64 " %d", r->start_ns, r->cpus);
	h = lt_fnv1a_str(h, lt_report_format(r));
	h = lt_fnv1a_str(h, r->uname ? r->uname : "");
	h = lt_fnv1a_str(h, r->clock ? r->clock : "");
	h = lt_fnv1a_str(h, num);
	snprintf(buf, size, "%016" PRIx64, h);
	return buf;
}
