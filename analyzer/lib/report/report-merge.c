// SPDX-License-Identifier: LGPL-2.1
/*
 * report-merge.c - lt_report_merge(): many reports as one.
 *
 * Everything a row holds combines exactly: counts and totals add, the
 * longest wait is the longest, the five worst are the five worst of all,
 * stacks add up by (reason path, frames), and histograms add up bucket
 * by bucket, so the percentiles of the merge are those one analysis of
 * all the waits would give.  Processes are keyed by (trace id, pid), so
 * that the ranges of one trace combine and different machines' stay
 * apart; the global table is made again from the merged processes (as
 * the report builder makes it from the replay), and a table per command
 * is added.
 *
 * Merging is associative and order independent down to the bytes
 * written: every choice (which comm, which of equal longest waits, the
 * order of rows, stacks, processes) is made by a total order on values,
 * never by which input came first, and sums saturate instead of wrapping.
 */
#define _GNU_SOURCE	/* qsort_r() */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lt-hist.h"
#include "lt-map.h"
#include "lt-report.h"

/* Making one part of the merge: where it goes, the order of its rows. */
struct merger {
	struct lt_report_pool *pool;	/* what is made now is freed with it */
	struct lt_error *err;
	enum lt_sort sort;
};

/* A process of an input, with what its key and its names need. */
struct proc_ref {
	const char *trace;
	const struct lt_report_process *p;
	uint64_t as_of;
};

static uint64_t sat_add(uint64_t a, uint64_t b)
{
	return a + b < a ? UINT64_MAX : a + b;
}

static int nomem(struct merger *m)
{
	lt_error_set(m->err, LT_E_NOMEM, "out of memory merging the reports");
	return -1;
}

static void *alloc(struct merger *m, size_t n, size_t size)
{
	return lt_report_pool_alloc(m->pool, n, size);
}

static const char *dup(struct merger *m, const char *s)
{
	return lt_report_pool_strdup(m->pool, s ? s : "");
}

/* NULL-safe strcmp: a missing name sorts first */
static int scmp(const char *a, const char *b)
{
	return strcmp(a ? a : "", b ? b : "");
}

static int cmp_u64(uint64_t a, uint64_t b)
{
	return (a > b) - (a < b);
}

/* ---- rows ------------------------------------------------------------- */

static int cmp_cause(const struct lt_report_row *a, const struct lt_report_row *b)
{
	int c = scmp(a->reason, b->reason);

	if (c)
		return c;
	c = scmp(a->argument, b->argument);
	return c ? c : (int)a->kind - (int)b->kind;
}

static int cmp_row_ptrs(const void *pa, const void *pb)
{
	return cmp_cause(*(const struct lt_report_row *const *)pa,
			 *(const struct lt_report_row *const *)pb);
}

/* The worst first: longest, then earliest, then the lower tid. */
static int cmp_occ(const void *pa, const void *pb)
{
	const struct lt_report_occurrence *a = pa, *b = pb;
	int c = cmp_u64(b->dur_ns, a->dur_ns);

	if (c)
		return c;
	c = cmp_u64(a->end_ns, b->end_ns);
	return c ? c : (a->tid > b->tid) - (a->tid < b->tid);
}

static int cmp_strv(const char *const *a, unsigned int na,
		    const char *const *b, unsigned int nb)
{
	unsigned int i;
	int c;

	for (i = 0; i < na && i < nb; i++) {
		c = scmp(a[i], b[i]);
		if (c)
			return c;
	}
	return (na > nb) - (na < nb);
}

static int cmp_stack_key(const void *pa, const void *pb)
{
	const struct lt_report_stack *a = pa, *b = pb;
	int c = cmp_strv(a->path, a->path_depth, b->path, b->path_depth);

	if (c)
		return c;
	c = cmp_strv(a->frames, a->nr_frames, b->frames, b->nr_frames);
	return c ? c : cmp_strv(a->user_frames, a->nr_user_frames,
				b->user_frames, b->nr_user_frames);
}

/* By total, then count, then the key (path, frames, user frames): a total order. */
static int cmp_stack_out(const void *pa, const void *pb)
{
	const struct lt_report_stack *a = pa, *b = pb;
	int c = cmp_u64(b->total_ns, a->total_ns);

	if (c)
		return c;
	c = cmp_u64(b->count, a->count);
	return c ? c : cmp_stack_key(a, b);
}

static const char *const *dup_strv(struct merger *m, const char *const *v,
				   unsigned int n)
{
	const char **out;
	unsigned int i;

	if (!n)
		return NULL;
	out = alloc(m, n, sizeof(*out));
	if (!out)
		return NULL;
	for (i = 0; i < n; i++)
		if (!(out[i] = dup(m, v[i])))
			return NULL;
	return out;
}

static int merge_stacks(struct merger *m, const struct lt_report_row *const *src,
			size_t n, struct lt_report_row *dst)
{
	struct lt_report_stack *all, *st;
	size_t nr = 0, i, k, out = 0;
	int ret = -1;

	for (i = 0; i < n; i++)
		nr += src[i]->nr_stacks;
	if (!nr)
		return 0;
	all = malloc(nr * sizeof(*all));
	if (!all)
		return nomem(m);
	for (i = 0, nr = 0; i < n; i++)
		for (k = 0; k < src[i]->nr_stacks; k++)
			all[nr++] = src[i]->stacks[k];
	qsort(all, nr, sizeof(*all), cmp_stack_key);
	for (i = 0; i < nr; i++) {
		st = &all[out - (out ? 1 : 0)];
		if (out && !cmp_stack_key(st, &all[i])) {
			/* of equal longest waits, the earliest */
			if (all[i].max_ns > st->max_ns ||
			    (all[i].max_ns == st->max_ns &&
			     all[i].max_at_ns < st->max_at_ns)) {
				st->max_ns = all[i].max_ns;
				st->max_at_ns = all[i].max_at_ns;
			}
			st->count = sat_add(st->count, all[i].count);
			st->total_ns = sat_add(st->total_ns, all[i].total_ns);
			continue;
		}
		all[out++] = all[i];
	}
	qsort(all, out, sizeof(*all), cmp_stack_out);
	dst->stacks = alloc(m, out, sizeof(*dst->stacks));
	if (!dst->stacks)
		goto fail;
	for (i = 0; i < out; i++) {
		st = &dst->stacks[i];
		*st = all[i];
		st->path = dup_strv(m, all[i].path, all[i].path_depth);
		st->frames = dup_strv(m, all[i].frames, all[i].nr_frames);
		st->user_frames = dup_strv(m, all[i].user_frames,
					   all[i].nr_user_frames);
		/* places name their own report's binaries: not kept */
		st->addrs = NULL;
		st->user_binaries = NULL;
		st->user_offsets = NULL;
		/* wakers: a fresh report's thread rows have them, no merge */
		st->wakers = NULL;
		st->nr_wakers = 0;
		if ((all[i].path_depth && !st->path) ||
		    (all[i].nr_frames && !st->frames) ||
		    (all[i].nr_user_frames && !st->user_frames))
			goto fail;
	}
	dst->nr_stacks = out;
	ret = 0;
fail:
	free(all);
	return ret < 0 ? nomem(m) : 0;
}

/*
 * The value at quantile @q of @row's buckets, as lt_hist_quantile()
 * gives it for the same histogram (its parts are shared).
 */
static uint64_t row_quantile(const struct lt_report_row *row, double q)
{
	uint64_t rank = lt_hist_rank(row->count, q), seen = 0;
	size_t i;

	if (!row->count)
		return 0;
	if (!rank)
		return row->min_ns;
	if (rank >= row->count)
		return row->max_ns;
	for (i = 0; i < row->nr_buckets; i++) {
		seen += row->buckets[i].count;
		if (seen >= rank)
			return lt_hist_bucket_value(lt_hist_bucket(row->buckets[i].low_ns),
						    row->min_ns, row->max_ns);
	}
	return row->max_ns;
}

static int cmp_buckets(const void *pa, const void *pb)
{
	return cmp_u64(((const struct lt_report_bucket *)pa)->low_ns,
		       ((const struct lt_report_bucket *)pb)->low_ns);
}

/* The buckets of @src (all with histograms), added bound by bound. */
static int merge_buckets(struct merger *m, const struct lt_report_row *const *src,
			 size_t n, struct lt_report_row *dst)
{
	struct lt_report_bucket *all, *bk;
	size_t nr = 0, i, k, out = 0;
	bool first = true;

	for (i = 0; i < n; i++) {
		nr += src[i]->nr_buckets;
		if (!src[i]->count)
			continue;
		if (first || src[i]->min_ns < dst->min_ns)
			dst->min_ns = src[i]->min_ns;
		first = false;
	}
	if (!nr)
		return 0;
	all = malloc(nr * sizeof(*all));
	if (!all)
		return nomem(m);
	for (i = 0, nr = 0; i < n; i++)
		for (k = 0; k < src[i]->nr_buckets; k++)
			all[nr++] = src[i]->buckets[k];
	qsort(all, nr, sizeof(*all), cmp_buckets);
	for (i = 0; i < nr; i++) {
		if (out && all[out - 1].low_ns == all[i].low_ns)
			all[out - 1].count = sat_add(all[out - 1].count, all[i].count);
		else
			all[out++] = all[i];
	}
	bk = alloc(m, out, sizeof(*bk));
	if (!bk) {
		free(all);
		return nomem(m);
	}
	memcpy(bk, all, out * sizeof(*bk));
	free(all);
	dst->buckets = bk;
	dst->nr_buckets = out;
	return 0;
}

/* ---- waited_for trees -------------------------------------------------- */

/*
 * Nodes merge by key: (what, tid) in a thread's rows, (what, comm) above
 * them (its tid kept where all agree, else -1).  A thread's node takes
 * the greatest of its names: any choice by value is order independent.
 */
static int cmp_chain_key(const void *pa, const void *pb, void *arg)
{
	const struct lt_report_chain *a = *(const struct lt_report_chain *const *)pa;
	const struct lt_report_chain *b = *(const struct lt_report_chain *const *)pb;
	int c = scmp(a->what, b->what);

	if (c)
		return c;
	if (*(const bool *)arg)
		return (a->tid > b->tid) - (a->tid < b->tid);
	return scmp(a->comm, b->comm);
}

static int cmp_chain_out(const void *pa, const void *pb)
{
	return lt_report_chain_cmp(pa, pb);
}

/* The nodes @src[0..n) of one level, of all inputs, merged into *@out. */
static int merge_chain(struct merger *m, const struct lt_report_chain **src,
		       size_t n, bool by_tid, struct lt_report_chain **out,
		       size_t *nr)
{
	const struct lt_report_chain **kids = NULL;
	struct lt_report_chain *v;
	size_t i, j, k, groups = 0, g = 0, nk;
	int ret = -1;

	*out = NULL;
	*nr = 0;
	if (!n)
		return 0;
	qsort_r(src, n, sizeof(*src), cmp_chain_key, &by_tid);
	for (i = 0; i < n; i++)
		groups += !i || cmp_chain_key(&src[i - 1], &src[i], &by_tid);
	v = alloc(m, groups, sizeof(*v));
	if (!v)
		return nomem(m);
	for (i = 0; i < n; i = j) {
		struct lt_report_chain *d = &v[g++];
		const char *comm = src[i]->comm;

		d->tid = src[i]->tid;
		d->blocked = src[i]->blocked;
		for (j = i, nk = 0; j < n && !cmp_chain_key(&src[i], &src[j], &by_tid);
		     j++) {
			d->ns = sat_add(d->ns, src[j]->ns);
			if (src[j]->tid != d->tid)
				d->tid = -1;
			if (scmp(src[j]->comm, comm) > 0)
				comm = src[j]->comm;
			nk += src[j]->nr_children;
		}
		d->comm = dup(m, comm);
		d->what = src[i]->what ? dup(m, src[i]->what) : NULL;
		if (!d->comm || (src[i]->what && !d->what))
			goto nomem;
		if (!nk)
			continue;
		kids = malloc(nk * sizeof(*kids));
		if (!kids)
			goto nomem;
		for (k = i, nk = 0; k < j; k++) {
			size_t x;

			for (x = 0; x < src[k]->nr_children; x++)
				kids[nk++] = &src[k]->children[x];
		}
		if (merge_chain(m, kids, nk, by_tid, &d->children,
				&d->nr_children) < 0)
			goto out;
		free(kids);
		kids = NULL;
	}
	qsort(v, groups, sizeof(*v), cmp_chain_out);
	*out = v;
	*nr = groups;
	ret = 0;
	goto out;
nomem:
	nomem(m);
out:
	free(kids);
	return ret;
}

/* The trees of rows @src[0..n) into @dst's. */
static int merge_row_chains(struct merger *m,
			    const struct lt_report_row *const *src, size_t n,
			    struct lt_report_row *dst, bool by_tid)
{
	const struct lt_report_chain **all;
	size_t i, k, nw = 0, nr = 0, most;
	int ret;

	for (i = 0; i < n; i++) {
		nw += src[i]->nr_waited_for;
		nr += src[i]->nr_ran_instead;
	}
	if (!nw && !nr)
		return 0;
	most = nw > nr ? nw : nr;
	all = malloc(most * sizeof(*all));
	if (!all)
		return nomem(m);
	for (i = 0, nw = 0; i < n; i++)
		for (k = 0; k < src[i]->nr_waited_for; k++)
			all[nw++] = &src[i]->waited_for[k];
	ret = merge_chain(m, all, nw, by_tid, &dst->waited_for,
			  &dst->nr_waited_for);
	for (i = 0, nr = 0; !ret && i < n; i++)
		for (k = 0; k < src[i]->nr_ran_instead; k++)
			all[nr++] = &src[i]->ran_instead[k];
	if (!ret)
		ret = merge_chain(m, all, nr, by_tid, &dst->ran_instead,
				  &dst->nr_ran_instead);
	free(all);
	return ret;
}

/*
 * Which of two rows had the longest wait: <0 @a's, >0 @b's.  Of equal
 * ones (LT_RF_MAX), the least LT_RF_OF_MAX fields in the table's order:
 * the earliest, then the lowest tid.
 */
static int cmp_longest(const struct lt_report_row *a, const struct lt_report_row *b)
{
	const struct lt_row_field *f;
	int c;

	lt_for_each_row_field(f)
		if (f->merge == LT_RF_MAX && (c = lt_row_field_cmp(f, b, a)))
			return c;
	lt_for_each_row_field(f)
		if (f->merge == LT_RF_OF_MAX && (c = lt_row_field_cmp(f, a, b)))
			return c;
	return 0;
}

/*
 * The statistics of @src[0..n) into @dst, each by its merge rule (the
 * field table's) but the percentiles' and the share: sums, the longest
 * wait and its own, the average again.
 */
static void merge_fields(const struct lt_report_row *const *src, size_t n,
			 struct lt_report_row *dst)
{
	const struct lt_report_row *best = src[0];
	const struct lt_row_field *f;
	size_t i;

	for (i = 1; i < n; i++)
		if (cmp_longest(src[i], best) < 0)
			best = src[i];
	lt_for_each_row_field(f) {
		switch (f->merge) {
		case LT_RF_SUM:
			for (i = 0; i < n; i++)
				lt_row_field_set_u64(f, dst,
					sat_add(lt_row_field_u64(f, dst),
						lt_row_field_u64(f, src[i])));
			break;
		case LT_RF_MAX:
		case LT_RF_OF_MAX:
			lt_row_field_copy(f, dst, best);
			break;
		default:
			break;
		}
	}
	lt_for_each_row_field(f)
		if (f->merge == LT_RF_AVG)
			lt_row_field_set_u64(f, dst, dst->count ?
					     dst->total_ns / dst->count : 0);
}

/* Rows @src[0..n), all of one cause, into @dst. */
static int merge_row(struct merger *m, const struct lt_report_row *const *src,
		     size_t n, struct lt_report_row *dst, bool stacks)
{
	struct lt_report_occurrence occ[LT_REPORT_WORST * 8], *all = occ;
	size_t i, k, nocc = 0, with_hist = 0, with_count = 0;
	const struct lt_row_field *f;

	memset(dst, 0, sizeof(*dst));
	dst->reason = dup(m, src[0]->reason);
	dst->argument = dup(m, src[0]->argument);
	if (!dst->reason || !dst->argument)
		return nomem(m);
	dst->kind = src[0]->kind;
	merge_fields(src, n, dst);
	for (i = 0; i < n; i++) {
		nocc += src[i]->nr_worst;
		with_count += src[i]->count != 0;
		with_hist += src[i]->count && src[i]->buckets;
	}

	if (nocc > sizeof(occ) / sizeof(occ[0])) {
		all = malloc(nocc * sizeof(*all));
		if (!all)
			return nomem(m);
	}
	for (i = 0, nocc = 0; i < n; i++)
		for (k = 0; k < src[i]->nr_worst && k < LT_REPORT_WORST; k++)
			all[nocc++] = src[i]->worst[k];
	qsort(all, nocc, sizeof(*all), cmp_occ);
	dst->nr_worst = nocc < LT_REPORT_WORST ? (unsigned int)nocc : LT_REPORT_WORST;
	memcpy(dst->worst, all, dst->nr_worst * sizeof(*all));
	if (all != occ)
		free(all);

	if (with_hist == with_count) {
		if (merge_buckets(m, src, n, dst) < 0)
			return -1;
		lt_for_each_row_field(f)
			if (f->merge == LT_RF_QUANTILE)
				lt_row_field_set_u64(f, dst, row_quantile(dst, f->q));
	} else if (with_count == 1) {
		/* one row that had waits: its own percentiles hold */
		for (i = 0; !src[i]->count; i++)
			;
		lt_for_each_row_field(f)
			if (f->merge == LT_RF_QUANTILE)
				lt_row_field_copy(f, dst, src[i]);
		dst->no_percentiles = src[i]->no_percentiles;
	} else {
		dst->no_percentiles = true;
	}
	/* the tables above threads are those with stacks */
	if (merge_row_chains(m, src, n, dst, !stacks) < 0)
		return -1;
	return stacks ? merge_stacks(m, src, n, dst) : 0;
}

/* Order a table's rows: the sort key, the total, then the cause. */
static int cmp_rows_out(const void *pa, const void *pb, void *arg)
{
	const struct lt_report_row *a = pa, *b = pb;
	enum lt_sort by = *(const enum lt_sort *)arg;
	uint64_t ka, kb;
	int c;

	switch (by) {
	case LT_SORT_TOTAL:
		ka = a->total_ns, kb = b->total_ns;
		break;
	case LT_SORT_COUNT:
		ka = a->count, kb = b->count;
		break;
	case LT_SORT_AVG:
		ka = a->avg_ns, kb = b->avg_ns;
		break;
	default:
		ka = a->max_ns, kb = b->max_ns;
		break;
	}
	c = cmp_u64(kb, ka);
	if (c)
		return c;
	c = cmp_u64(b->total_ns, a->total_ns);
	return c ? c : cmp_cause(a, b);
}

/*
 * Rows @src[0..n) of any causes into a table (*@rows, *@nr), its total
 * and, if @cov, its time by kind.
 */
static int merge_table(struct merger *m, const struct lt_report_row **src,
		       size_t n, bool stacks, struct lt_report_row **rows,
		       size_t *nr, uint64_t *total,
		       struct lt_report_coverage *cov)
{
	size_t i, j, k = 0, groups = 0;

	*rows = NULL;
	*nr = 0;
	*total = 0;
	if (!n)
		return 0;
	qsort(src, n, sizeof(*src), cmp_row_ptrs);
	for (i = 0; i < n; i++)
		groups += !i || cmp_cause(src[i - 1], src[i]);
	*rows = alloc(m, groups, sizeof(**rows));
	if (!*rows)
		return nomem(m);
	for (i = 0; i < n; i = j) {
		for (j = i + 1; j < n && !cmp_cause(src[i], src[j]); j++)
			;
		if (merge_row(m, src + i, j - i, &(*rows)[k], stacks) < 0)
			return -1;
		*total = sat_add(*total, (*rows)[k].total_ns);
		if (cov)
			cov->ns[(*rows)[k].kind < LT_CAUSE_NR ? (*rows)[k].kind :
				LT_CAUSE_UNKNOWN] += (*rows)[k].total_ns;
		k++;
	}
	*nr = k;
	for (i = 0; i < k; i++)
		(*rows)[i].percent = *total ? 100.0 * (double)(*rows)[i].total_ns /
					      (double)*total : 0;
	if (k > 1)
		qsort_r(*rows, k, sizeof(**rows), cmp_rows_out, &m->sort);
	return 0;
}

/* ---- processes, threads, commands --------------------------------------- */

/* Whose names hold: the latest range's, then the greater name. */
static bool newer(uint64_t as_of, const char *comm, uint64_t as_of2,
		  const char *comm2)
{
	return as_of > as_of2 || (as_of == as_of2 && scmp(comm, comm2) > 0);
}

static void add_uncharged(struct lt_report_uncharged *d,
			  const struct lt_report_uncharged *s)
{
	d->count = sat_add(d->count, s->count);
	d->total_ns = sat_add(d->total_ns, s->total_ns);
	if (s->max_ns > d->max_ns)
		d->max_ns = s->max_ns;
}

static void add_stopped(struct lt_report_stopped *d,
			const struct lt_report_stopped *s)
{
	add_uncharged(&d->signal, &s->signal);
	add_uncharged(&d->tracer, &s->tracer);
}

struct thread_ref {
	const struct lt_report_thread *t;
	uint64_t as_of;
};

static int cmp_thread_refs(const void *pa, const void *pb)
{
	const struct thread_ref *a = pa, *b = pb;

	return (a->t->tid > b->t->tid) - (a->t->tid < b->t->tid);
}

static int cmp_threads_out(const void *pa, const void *pb)
{
	const struct lt_report_thread *a = pa, *b = pb;
	int c = cmp_u64(b->total_ns, a->total_ns);

	return c ? c : (a->tid > b->tid) - (a->tid < b->tid);
}

static int merge_threads(struct merger *m, const struct proc_ref *g, size_t n,
			 struct lt_report_process *dst)
{
	struct thread_ref *refs;
	const struct lt_report_row **rows = NULL;
	size_t nr = 0, i, j, k, nrows, cap = 0, groups = 0, t = 0;
	int ret = -1;

	for (i = 0; i < n; i++)
		nr += g[i].p->nr_threads;
	if (!nr)
		return 0;
	refs = malloc(nr * sizeof(*refs));
	if (!refs)
		return nomem(m);
	for (i = 0, nr = 0; i < n; i++)
		for (k = 0; k < g[i].p->nr_threads; k++) {
			const struct lt_report_thread *s = &g[i].p->threads[k];

			refs[nr].t = s;
			refs[nr++].as_of = s->as_of_ns ? s->as_of_ns : g[i].as_of;
		}
	qsort(refs, nr, sizeof(*refs), cmp_thread_refs);
	for (i = 0; i < nr; i++)
		groups += !i || refs[i - 1].t->tid != refs[i].t->tid;
	dst->threads = alloc(m, groups, sizeof(*dst->threads));
	if (!dst->threads)
		goto nomem;
	for (i = 0; i < nr; i = j) {
		struct lt_report_thread *th = &dst->threads[t++];
		const struct thread_ref *name = &refs[i];

		for (j = i, nrows = 0; j < nr && refs[j].t->tid == refs[i].t->tid; j++)
			nrows += refs[j].t->nr_rows;
		if (nrows > cap) {
			const struct lt_report_row **r = realloc(rows, nrows * sizeof(*r));

			if (!r)
				goto nomem;
			rows = r;
			cap = nrows;
		}
		th->tid = refs[i].t->tid;
		for (k = i, nrows = 0; k < j; k++) {
			const struct lt_report_thread *s = refs[k].t;
			size_t x;

			if (newer(refs[k].as_of, s->comm, name->as_of, name->t->comm))
				name = &refs[k];
			add_uncharged(&th->user_requested, &s->user_requested);
			add_stopped(&th->stopped, &s->stopped);
			for (x = 0; x < s->nr_rows; x++)
				rows[nrows++] = &s->rows[x];
		}
		th->comm = dup(m, name->t->comm);
		th->as_of_ns = name->as_of;
		if (!th->comm)
			goto nomem;
		if (merge_table(m, rows, nrows, false, &th->rows, &th->nr_rows,
				&th->total_ns, NULL) < 0)
			goto out;
	}
	dst->nr_threads = t;
	qsort(dst->threads, t, sizeof(*dst->threads), cmp_threads_out);
	ret = 0;
	goto out;
nomem:
	nomem(m);
out:
	free(refs);
	free(rows);
	return ret;
}

/* One process from the group @g[0..n) of equal (trace, pid). */
static int merge_process(struct merger *m, const struct proc_ref *g, size_t n,
			 struct lt_report_process *dst)
{
	const struct lt_report_row **rows;
	const struct proc_ref *name = &g[0], *cg = NULL;
	size_t i, k, nrows = 0;
	int ret;

	memset(dst, 0, sizeof(*dst));
	for (i = 0; i < n; i++) {
		nrows += g[i].p->nr_rows;
		/* its cgroup as the latest range that names one says */
		if (g[i].p->cgroup &&
		    (!cg || newer(g[i].as_of, g[i].p->cgroup, cg->as_of,
				  cg->p->cgroup)))
			cg = &g[i];
		dst->kernel_thread |= g[i].p->kernel_thread;
		if (newer(g[i].as_of, g[i].p->comm, name->as_of, name->p->comm))
			name = &g[i];
		if (g[i].as_of > dst->as_of_ns)
			dst->as_of_ns = g[i].as_of;
		add_uncharged(&dst->user_requested, &g[i].p->user_requested);
		add_stopped(&dst->stopped, &g[i].p->stopped);
	}
	dst->pid = g[0].p->pid;
	dst->comm = dup(m, name->p->comm);
	dst->cgroup = cg ? dup(m, cg->p->cgroup) : NULL;
	dst->trace = dup(m, g[0].trace);
	rows = malloc((nrows ? nrows : 1) * sizeof(*rows));
	if (!dst->comm || !dst->trace || !rows || (cg && !dst->cgroup)) {
		free(rows);
		return nomem(m);
	}
	for (i = 0, nrows = 0; i < n; i++)
		for (k = 0; k < g[i].p->nr_rows; k++)
			rows[nrows++] = &g[i].p->rows[k];
	ret = merge_table(m, rows, nrows, true, &dst->rows, &dst->nr_rows,
			  &dst->total_ns, &dst->coverage);
	free(rows);
	if (ret < 0)
		return -1;
	for (i = 0; i < dst->nr_rows; i++)
		if (dst->rows[i].max_ns > dst->max_ns)
			dst->max_ns = dst->rows[i].max_ns;
	return merge_threads(m, g, n, dst);
}

static int proc_order(const struct lt_report_process *a,
		      const struct lt_report_process *b, enum lt_sort by)
{
	int c;

	/* user processes first, as the report builder orders them */
	if (a->kernel_thread != b->kernel_thread)
		return a->kernel_thread ? 1 : -1;
	c = by == LT_SORT_MAX ? cmp_u64(b->max_ns, a->max_ns) : 0;
	if (c)
		return c;
	c = cmp_u64(b->total_ns, a->total_ns);
	if (c)
		return c;
	c = (a->pid > b->pid) - (a->pid < b->pid);
	return c ? c : scmp(a->trace, b->trace);
}

static int cmp_procs_out(const void *pa, const void *pb, void *arg)
{
	return proc_order(pa, pb, *(const enum lt_sort *)arg);
}

static int cmp_comm_key(const struct lt_report_process *a,
			const struct lt_report_process *b)
{
	int c = scmp(a->comm, b->comm);

	return c ? c : (int)a->kernel_thread - (int)b->kernel_thread;
}

static int cmp_proc_ptrs_by_comm(const void *pa, const void *pb)
{
	return cmp_comm_key(*(const struct lt_report_process *const *)pa,
			    *(const struct lt_report_process *const *)pb);
}

static int cmp_commands_out(const void *pa, const void *pb, void *arg)
{
	const struct lt_report_command *a = pa, *b = pb;
	enum lt_sort by = *(const enum lt_sort *)arg;
	int c;

	if (a->kernel_thread != b->kernel_thread)
		return a->kernel_thread ? 1 : -1;
	c = by == LT_SORT_MAX ? cmp_u64(b->max_ns, a->max_ns) : 0;
	if (c)
		return c;
	c = cmp_u64(b->total_ns, a->total_ns);
	return c ? c : scmp(a->comm, b->comm);
}

/* The processes of @v, one table per (comm, kernel thread). */
static int make_commands(struct merger *m, struct lt_report_view *v)
{
	const struct lt_report_process **ps;
	const struct lt_report_row **rows = NULL;
	size_t i, j, k, x, groups = 0, nrows, cap = 0, c = 0;
	int ret = -1;

	if (!v->nr_processes)
		return 0;
	ps = malloc(v->nr_processes * sizeof(*ps));
	if (!ps)
		return nomem(m);
	for (i = 0; i < v->nr_processes; i++)
		ps[i] = &v->processes[i];
	qsort(ps, v->nr_processes, sizeof(*ps), cmp_proc_ptrs_by_comm);
	for (i = 0; i < v->nr_processes; i++)
		groups += !i || cmp_comm_key(ps[i - 1], ps[i]);
	v->commands = alloc(m, groups, sizeof(*v->commands));
	if (!v->commands)
		goto nomem;
	for (i = 0; i < v->nr_processes; i = j) {
		struct lt_report_command *cmd = &v->commands[c++];

		for (j = i, nrows = 0; j < v->nr_processes &&
			     !cmp_comm_key(ps[i], ps[j]); j++)
			nrows += ps[j]->nr_rows;
		if (nrows > cap) {
			const struct lt_report_row **r = realloc(rows, nrows * sizeof(*r));

			if (!r)
				goto nomem;
			rows = r;
			cap = nrows;
		}
		cmd->comm = ps[i]->comm;	/* the report's copy already */
		cmd->kernel_thread = ps[i]->kernel_thread;
		for (k = i, nrows = 0; k < j; k++) {
			cmd->processes++;
			add_uncharged(&cmd->user_requested, &ps[k]->user_requested);
			add_stopped(&cmd->stopped, &ps[k]->stopped);
			for (x = 0; x < ps[k]->nr_rows; x++)
				rows[nrows++] = &ps[k]->rows[x];
		}
		if (merge_table(m, rows, nrows, true, &cmd->rows, &cmd->nr_rows,
				&cmd->total_ns, &cmd->coverage) < 0)
			goto out;
		for (x = 0; x < cmd->nr_rows; x++)
			if (cmd->rows[x].max_ns > cmd->max_ns)
				cmd->max_ns = cmd->rows[x].max_ns;
	}
	v->nr_commands = c;
	if (c > 1)
		qsort_r(v->commands, c, sizeof(*v->commands), cmp_commands_out,
			&m->sort);
	ret = 0;
	goto out;
nomem:
	nomem(m);
out:
	free(ps);
	free(rows);
	return ret;
}

/* ---- the merger: the reports one at a time -------------------------- */

/*
 * A trace of the merge, its strings its own (replaced as its ranges come:
 * the least of what they say).
 */
struct acc_trace {
	struct lt_report_trace t;
};

/* A merged process in memory of its own: merged again, that is freed. */
struct acc_proc {
	struct lt_report_process p;
	struct lt_report_pool pool;
};

struct lt_report_merger {
	bool warn;			/* about reports without histograms */
	size_t no_hist;			/* how many of those */
	size_t nr;			/* reports added */
	char *first_name;		/* the first report's name, ... */
	struct lt_options options;	/* ... and its accounting options */
	enum lt_sort sort;		/* the reports' if they agree, else max */
	/* the counts that add up (dropped_fields), merged_reports, partial,
	   the whole view's start and end */
	struct lt_report top;
	char *partial_reason;
	struct acc_trace *traces;	/* by id */
	size_t nr_traces, cap_traces;
	struct acc_proc *procs;		/* in the order they came */
	size_t nr_procs, cap_procs;
	struct lt_map proc_map;		/* (trace id's hash, pid) -> procs[] */
	/* the first report's global table, while it is the only one */
	struct lt_report_pool first_pool;
	struct lt_report_row *first_global;
	size_t nr_first_global;
	uint64_t first_total;
	struct lt_report_coverage first_coverage;
};

static int merger_nomem(struct lt_error *err)
{
	lt_error_set(err, LT_E_NOMEM, "out of memory merging the reports");
	return -1;
}

/* *@slot, a string of its own, becomes @s if @s is less (or @slot NULL). */
static int keep_least(char **slot, const char *s)
{
	char *c;

	s = s ? s : "";
	if (*slot && scmp(*slot, s) <= 0)
		return 0;
	c = strdup(s);
	if (!c)
		return -1;
	free(*slot);
	*slot = c;
	return 0;
}

static void free_trace(struct acc_trace *a)
{
	free((char *)a->t.id);
	free((char *)a->t.path);
	free((char *)a->t.format);
	free((char *)a->t.uname);
	free((char *)a->t.clock);
}

/* Where the trace @id is in @mg->traces, or would be: *@found says. */
static size_t trace_pos(const struct lt_report_merger *mg, const char *id,
			bool *found)
{
	size_t lo = 0, hi = mg->nr_traces, mid;
	int c;

	*found = false;
	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		c = scmp(mg->traces[mid].t.id, id);
		if (!c) {
			*found = true;
			return mid;
		}
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* Trace @s (what one report read of it) into the merge's. */
static int add_trace(struct lt_report_merger *mg, const struct lt_report_trace *s)
{
	struct lt_report_trace *t;
	struct acc_trace *a;
	bool found;
	size_t pos = trace_pos(mg, s->id, &found);

	if (!found) {
		if (mg->nr_traces == mg->cap_traces) {
			size_t ncap = mg->cap_traces ? mg->cap_traces * 2 : 16;

			a = realloc(mg->traces, ncap * sizeof(*a));
			if (!a)
				return -1;
			mg->traces = a;
			mg->cap_traces = ncap;
		}
		a = &mg->traces[pos];
		memmove(a + 1, a, (mg->nr_traces - pos) * sizeof(*a));
		mg->nr_traces++;
		memset(a, 0, sizeof(*a));
		t = &a->t;
		*t = *s;
		t->id = t->path = t->format = t->uname = t->clock = NULL;
		t->reports = 0;
	}
	/* ranges of one trace: what it read at most, from first to last */
	t = &mg->traces[pos].t;
	if (keep_least((char **)&t->id, s->id) ||
	    keep_least((char **)&t->path, s->path) ||
	    keep_least((char **)&t->format, s->format) ||
	    keep_least((char **)&t->uname, s->uname) ||
	    keep_least((char **)&t->clock, s->clock))
		return -1;
	if (s->cpus > t->cpus)
		t->cpus = s->cpus;
	if (s->start_ns < t->start_ns)
		t->start_ns = s->start_ns;
	if (s->end_ns > t->end_ns)
		t->end_ns = s->end_ns;
	if (s->events > t->events)
		t->events = s->events;
	if (s->lost_events > t->lost_events)
		t->lost_events = s->lost_events;
	t->reports = sat_add(t->reports, s->reports);
	return 0;
}

/* @r's traces: a merged report's, or the one it is of. */
static int add_traces(struct lt_report_merger *mg, const struct lt_report *r)
{
	struct lt_report_trace t;
	size_t k;

	for (k = 0; k < r->nr_traces; k++)
		if (add_trace(mg, &r->traces[k]) < 0)
			return -1;
	if (r->nr_traces)
		return 0;
	memset(&t, 0, sizeof(t));
	t.id = r->id;
	t.path = r->path;
	t.format = lt_report_format(r);
	t.uname = r->uname;
	t.clock = r->clock;
	t.cpus = r->cpus;
	t.start_ns = r->start_ns;
	t.end_ns = r->end_ns;
	t.events = r->events;
	t.lost_events = r->lost_events;
	t.reports = 1;
	return add_trace(mg, &t);
}

/* Counts of waits not charged, and why: they add up. */
static const size_t dropped_fields[] = {
	offsetof(struct lt_report, dropped_interruptible),
	offsetof(struct lt_report, dropped_interruptible_ns),
	offsetof(struct lt_report, dropped_maxtime),
	offsetof(struct lt_report, dropped_maxtime_ns),
	offsetof(struct lt_report, began_before_trace),
	offsetof(struct lt_report, unfinished),
	offsetof(struct lt_report, no_switch_in),
	offsetof(struct lt_report, cpu_waits_no_switch_in),
	offsetof(struct lt_report, cpu_waits_unwoken),
	offsetof(struct lt_report, cpu_waits_unwoken_ns),
	offsetof(struct lt_report, lost_gaps),
	offsetof(struct lt_report, lost_gaps_unknown),
	offsetof(struct lt_report, dropped_incomplete),
	offsetof(struct lt_report, dropped_incomplete_ns),
	offsetof(struct lt_report, dropped_gap),
	offsetof(struct lt_report, dropped_gap_ns),
	offsetof(struct lt_report, discarded_lost),
	offsetof(struct lt_report, lower_bound),
	offsetof(struct lt_report, lower_bound_ns),
	offsetof(struct lt_report, stopped_signal),
	offsetof(struct lt_report, stopped_signal_ns),
	offsetof(struct lt_report, stopped_tracer),
	offsetof(struct lt_report, stopped_tracer_ns),
	offsetof(struct lt_report, unknown_state),
	offsetof(struct lt_report, unknown_state_ns),
	offsetof(struct lt_report, resync),
	offsetof(struct lt_report, unmatched_restore),
	offsetof(struct lt_report, inconsistent),
	offsetof(struct lt_report, unordered),
	offsetof(struct lt_report, damaged_records),
	/* not a count of waits, but one that adds up as well */
	offsetof(struct lt_report, cgroup_events),
};

#define NR_DROPPED_FIELDS (sizeof(dropped_fields) / sizeof(dropped_fields[0]))

static uint64_t *u64_at(struct lt_report *r, size_t off)
{
	return (uint64_t *)((char *)r + off);
}

/* What @s adds to the counts, the partial mark and the range. */
static int add_top(struct lt_report_merger *mg, const struct lt_report *s)
{
	struct lt_report *top = &mg->top;
	size_t k;

	top->merged_reports = sat_add(top->merged_reports,
				      s->merged_reports ? s->merged_reports : 1);
	for (k = 0; k < NR_DROPPED_FIELDS; k++)
		*u64_at(top, dropped_fields[k]) =
			sat_add(*u64_at(top, dropped_fields[k]),
				*u64_at((struct lt_report *)s, dropped_fields[k]));
	if (s->partial) {
		if (!top->partial) {
			free(mg->partial_reason);
			mg->partial_reason = NULL;
		}
		if (keep_least(&mg->partial_reason, s->partial_reason) < 0)
			return -1;
		top->partial = true;
	}
	if (!mg->nr || s->whole.start_ns < top->whole.start_ns)
		top->whole.start_ns = s->whole.start_ns;
	if (!mg->nr || s->whole.end_ns > top->whole.end_ns)
		top->whole.end_ns = s->whole.end_ns;
	return 0;
}

/* The merged process of (@trace, @pid): its index, or a new one's. */
static int find_proc(struct lt_report_merger *mg, const char *trace, int pid,
		     size_t *idx, bool *added)
{
	uint64_t h = lt_fnv1a_str(LT_FNV1A_BASIS, trace);
	uint32_t *slot;
	int put;

	/* ids whose hashes collide: the next hash along, until its own */
	for (;; h++) {
		slot = lt_map_put(&mg->proc_map, h, (uint64_t)(int64_t)pid,
				  (uint32_t)mg->nr_procs, &put);
		if (!slot)
			return -1;
		if (put || !scmp(mg->procs[*slot].p.trace, trace))
			break;
	}
	*idx = *slot;
	*added = put;
	if (!put)
		return 0;
	if (mg->nr_procs >= UINT32_MAX)
		return -1;
	if (mg->nr_procs == mg->cap_procs) {
		size_t ncap = mg->cap_procs ? mg->cap_procs * 2 : 256;
		struct acc_proc *a = realloc(mg->procs, ncap * sizeof(*a));

		if (!a) {
			lt_map_del(&mg->proc_map, h, (uint64_t)(int64_t)pid);
			return -1;
		}
		mg->procs = a;
		mg->cap_procs = ncap;
	}
	memset(&mg->procs[mg->nr_procs++], 0, sizeof(*mg->procs));
	return 0;
}

/* @r's processes into the merge's: new ones copied, others merged again. */
static int add_processes(struct lt_report_merger *mg, const struct lt_report *r,
			 struct lt_error *err)
{
	const struct lt_report_view *w = &r->whole;
	struct proc_ref g[2];
	struct lt_report_process p;
	struct lt_report_pool pool;
	struct merger m = { &pool, err, mg->sort };
	struct acc_proc *a;
	size_t k, idx, n;
	bool added;

	for (k = 0; k < w->nr_processes; k++) {
		const struct lt_report_process *s = &w->processes[k];

		g[0].p = s;
		g[0].trace = s->trace ? s->trace : r->id;
		/* a process's names are as of its range's end */
		g[0].as_of = s->as_of_ns ? s->as_of_ns : w->end_ns;
		if (find_proc(mg, g[0].trace ? g[0].trace : "", s->pid, &idx,
			      &added) < 0)
			return merger_nomem(err);
		a = &mg->procs[idx];
		n = 1;
		if (!added) {
			g[1].p = &a->p;
			g[1].trace = a->p.trace;
			g[1].as_of = a->p.as_of_ns;
			n = 2;
		}
		memset(&pool, 0, sizeof(pool));
		if (merge_process(&m, g, n, &p) < 0) {
			lt_report_pool_free(&pool);
			return -1;
		}
		lt_report_pool_free(&a->pool);
		a->p = p;
		a->pool = pool;
	}
	return 0;
}

static const char *name_of(const struct lt_report *r, const char *name)
{
	if (name)
		return name;
	return r->path && *r->path ? r->path : "a merged report";
}

/* The accounting options: reports made under different ones do not add. */
static int same_accounting(const struct lt_options *a, const char *na,
			   const struct lt_options *b, const char *nb,
			   struct lt_error *err)
{
	char va[32], vb[32];

	if (a->sleep_cutoff_ns != b->sleep_cutoff_ns) {
		lt_error_set(err, LT_E_MISMATCH, "%s: made with --sleep-cutoff "
			     "%s, %s with %s: reports of different "
			     "accounting options do not merge", nb,
			     lt_format_duration(vb, sizeof(vb), b->sleep_cutoff_ns),
			     na, lt_format_duration(va, sizeof(va), a->sleep_cutoff_ns));
		return -1;
	}
	if (a->charge_stopped != b->charge_stopped) {
		lt_error_set(err, LT_E_MISMATCH, "%s: made %s --charge-stopped, "
			     "%s %s it: reports of different accounting "
			     "options do not merge", nb,
			     b->charge_stopped ? "with" : "without", na,
			     a->charge_stopped ? "with" : "without");
		return -1;
	}
	if (a->honour_maxtime != b->honour_maxtime ||
	    a->kernel_threads != b->kernel_threads) {
		lt_error_set(err, LT_E_MISMATCH, "%s: made %s --%s, %s %s it: "
			     "reports of different accounting options do "
			     "not merge", nb,
			     (a->honour_maxtime != b->honour_maxtime ?
			      !b->honour_maxtime : b->kernel_threads) ?
			     "with" : "without",
			     a->honour_maxtime != b->honour_maxtime ?
			     "no-maxtime" : "kernel-threads", na,
			     (a->honour_maxtime != b->honour_maxtime ?
			      !a->honour_maxtime : a->kernel_threads) ?
			     "with" : "without");
		return -1;
	}
	return 0;
}

static size_t rows_lacking(const struct lt_report_row *rows, size_t nr)
{
	size_t i, n = 0;

	for (i = 0; i < nr; i++)
		n += rows[i].count && !rows[i].buckets && !rows[i].no_percentiles;
	return n;
}

/* Reports without histograms named, past which they are counted. */
#define WARN_SHOWN	3

/*
 * A report without histograms merges, but its percentiles cannot: the
 * first few are named, the others counted (@mg->no_hist).
 */
static void warn_no_hist(struct lt_report_merger *mg, const struct lt_report *r,
			 const char *name)
{
	const struct lt_report_view *v = &r->whole;
	size_t k, n;

	for (k = 0, n = 0; k < v->nr_processes; k++)
		n += rows_lacking(v->processes[k].rows, v->processes[k].nr_rows);
	if (!n || ++mg->no_hist > WARN_SHOWN)
		return;
	if (!r->schema || !strcmp(r->schema, LT_REPORT_SCHEMA_MAJOR))
		lt_warning("%s: a report of schema %s has no histograms: "
			   "its percentiles cannot be merged (merged "
			   "rows it adds to have none)", name,
			   LT_REPORT_SCHEMA_MAJOR);
	else
		lt_warning("%s: %zu process rows without histograms (merged "
			   "from a report that had none): their percentiles "
			   "cannot be merged (merged rows they add to have "
			   "none)", name, n);
}

struct lt_report_merger *lt_report_merger_new(bool warn, struct lt_error *err)
{
	struct lt_report_merger *mg = calloc(1, sizeof(*mg));

	memset(err, 0, sizeof(*err));
	if (!mg) {
		merger_nomem(err);
		return NULL;
	}
	mg->warn = warn;
	lt_map_init(&mg->proc_map);
	return mg;
}

/* The first report's global table, kept while it is the only one. */
static int keep_first_global(struct lt_report_merger *mg,
			     const struct lt_report *r, struct lt_error *err)
{
	const struct lt_report_row **rows;
	struct merger m = { &mg->first_pool, err, mg->sort };
	size_t k, n = r->whole.nr_global;
	int ret;

	rows = malloc((n ? n : 1) * sizeof(*rows));
	if (!rows)
		return merger_nomem(err);
	for (k = 0; k < n; k++)
		rows[k] = &r->whole.global[k];
	ret = merge_table(&m, rows, n, true, &mg->first_global,
			  &mg->nr_first_global, &mg->first_total,
			  &mg->first_coverage);
	free(rows);
	return ret;
}

int lt_report_merger_add(struct lt_report_merger *mg, const struct lt_report *r,
			 const char *name, struct lt_error *err)
{
	memset(err, 0, sizeof(*err));
	name = name_of(r, name);
	if (!mg->nr) {
		mg->first_name = strdup(name);
		if (!mg->first_name)
			return merger_nomem(err);
		mg->options = r->options;
		mg->sort = r->options.sort;
	} else if (same_accounting(&mg->options, mg->first_name, &r->options,
				   name, err) < 0) {
		return -1;
	}
	/* the inputs' order if they agree, else LatencyTOP's */
	if (r->options.sort != mg->sort)
		mg->sort = LT_SORT_MAX;
	if (mg->warn)
		warn_no_hist(mg, r, name);
	if (mg->nr == 1) {
		lt_report_pool_free(&mg->first_pool);
		mg->first_global = NULL;
		mg->nr_first_global = 0;
	}
	if (add_traces(mg, r) < 0 || add_top(mg, r) < 0)
		return merger_nomem(err);
	if ((!mg->nr && keep_first_global(mg, r, err) < 0) ||
	    add_processes(mg, r, err) < 0)
		return -1;
	mg->nr++;
	return 0;
}

void lt_report_merger_free(struct lt_report_merger *mg)
{
	size_t i;

	if (!mg)
		return;
	for (i = 0; i < mg->nr_traces; i++)
		free_trace(&mg->traces[i]);
	free(mg->traces);
	for (i = 0; i < mg->nr_procs; i++)
		lt_report_pool_free(&mg->procs[i].pool);
	free(mg->procs);
	lt_map_free(&mg->proc_map);
	lt_report_pool_free(&mg->first_pool);
	free(mg->first_name);
	free(mg->partial_reason);
	free(mg);
}

/* ---- the merged report ---------------------------------------------- */

static int finish_traces(struct lt_report_merger *mg, struct merger *m,
			 struct lt_report *r)
{
	struct lt_report_trace *t;
	size_t i;

	r->traces = alloc(m, mg->nr_traces, sizeof(*r->traces));
	if (!r->traces)
		return nomem(m);
	for (i = 0; i < mg->nr_traces; i++) {
		t = &r->traces[i];
		*t = mg->traces[i].t;
		t->id = dup(m, t->id);
		t->path = dup(m, t->path);
		t->format = dup(m, t->format);
		t->uname = dup(m, t->uname);
		t->clock = dup(m, t->clock);
		if (!t->id || !t->path || !t->format || !t->uname || !t->clock)
			return nomem(m);
	}
	r->nr_traces = mg->nr_traces;
	return 0;
}

/* What the traces have in common, else "" (a merged report's header). */
static const char *common(const struct lt_report *r, size_t off)
{
	const char *v = *(const char *const *)((const char *)&r->traces[0] + off);
	size_t i;

	for (i = 1; i < r->nr_traces; i++)
		if (scmp(v, *(const char *const *)((const char *)&r->traces[i] + off)))
			return "";
	return v;
}

static int finish_top(struct lt_report_merger *mg, struct merger *m,
		      struct lt_report *r)
{
	size_t i, k;

	r->merged_reports = mg->top.merged_reports;
	for (k = 0; k < NR_DROPPED_FIELDS; k++)
		*u64_at(r, dropped_fields[k]) = *u64_at(&mg->top, dropped_fields[k]);
	r->partial = mg->top.partial;
	if (r->partial && !(r->partial_reason = dup(m, mg->partial_reason)))
		return nomem(m);
	r->whole.start_ns = mg->top.whole.start_ns;
	r->whole.end_ns = mg->top.whole.end_ns;
	if (r->whole.end_ns < r->whole.start_ns)
		r->whole.end_ns = r->whole.start_ns;
	r->path = common(r, offsetof(struct lt_report_trace, path));
	r->format = common(r, offsetof(struct lt_report_trace, format));
	r->uname = common(r, offsetof(struct lt_report_trace, uname));
	r->clock = common(r, offsetof(struct lt_report_trace, clock));
	r->compression = "";
	for (i = 0; i < r->nr_traces; i++) {
		const struct lt_report_trace *t = &r->traces[i];

		if (t->cpus > r->cpus)
			r->cpus = t->cpus;
		if (!i || t->start_ns < r->start_ns)
			r->start_ns = t->start_ns;
		if (t->end_ns > r->end_ns)
			r->end_ns = t->end_ns;
		r->events = sat_add(r->events, t->events);
		r->lost_events = sat_add(r->lost_events, t->lost_events);
	}
	r->complete_from_ns = r->start_ns;
	return 0;
}

/* The id of a merge: its trace's, or made from all of theirs. */
static int merge_id(struct merger *m, struct lt_report *r)
{
	uint64_t h = LT_FNV1A_BASIS;
	char buf[32];
	size_t i;

	if (r->nr_traces == 1) {
		r->id = r->traces[0].id;
		return 0;
	}
	/* the ids are sorted: the same set, the same id */
	for (i = 0; i < r->nr_traces; i++)
		h = lt_fnv1a_str(h, r->traces[i].id);
	snprintf(buf, sizeof(buf), "merged-%016llx", (unsigned long long)h);
	r->id = dup(m, buf);
	return r->id ? 0 : nomem(m);
}

/* A table merged earlier, ordered as the report's are. */
static void sort_rows(struct merger *m, struct lt_report_row *rows, size_t nr)
{
	if (nr > 1)
		qsort_r(rows, nr, sizeof(*rows), cmp_rows_out, &m->sort);
}

/*
 * The view: the merged processes (theirs to the report), the global
 * table made again from them (or the only report's own), the commands.
 */
static int finish_view(struct lt_report_merger *mg, struct merger *m,
		       struct lt_report_view *v)
{
	const struct lt_report_row **rows;
	size_t i, k, nrows = 0, p = 0;
	int ret;

	v->processes = alloc(m, mg->nr_procs, sizeof(*v->processes));
	if (!v->processes)
		return nomem(m);
	for (i = 0; i < mg->nr_procs; i++) {
		struct lt_report_process *d = &v->processes[p];

		if (lt_report_pool_move(m->pool, &mg->procs[i].pool) < 0)
			return nomem(m);
		*d = mg->procs[i].p;
		memset(&mg->procs[i].p, 0, sizeof(mg->procs[i].p));
		p++;
		/* a later report may have changed the order */
		sort_rows(m, d->rows, d->nr_rows);
		for (k = 0; k < d->nr_threads; k++)
			sort_rows(m, d->threads[k].rows, d->threads[k].nr_rows);
		nrows += d->nr_rows;
	}
	v->nr_processes = p;

	/*
	 * The global table: every process's rows, kernel threads' if asked.
	 * A report alone keeps its own, the same but for the percentiles of
	 * one saved before histograms (a diff puts a report in merged form).
	 */
	if (mg->nr == 1) {
		if (lt_report_pool_move(m->pool, &mg->first_pool) < 0)
			return nomem(m);
		v->global = mg->first_global;
		v->nr_global = mg->nr_first_global;
		v->total_ns = mg->first_total;
		v->coverage = mg->first_coverage;
		mg->first_global = NULL;
		sort_rows(m, v->global, v->nr_global);
	} else {
		rows = malloc((nrows ? nrows : 1) * sizeof(*rows));
		if (!rows)
			return nomem(m);
		for (i = 0, nrows = 0; i < p; i++) {
			if (v->processes[i].kernel_thread &&
			    !mg->options.kernel_threads)
				continue;
			for (k = 0; k < v->processes[i].nr_rows; k++)
				rows[nrows++] = &v->processes[i].rows[k];
		}
		ret = merge_table(m, rows, nrows, true, &v->global, &v->nr_global,
				  &v->total_ns, &v->coverage);
		free(rows);
		if (ret < 0)
			return -1;
	}
	if (make_commands(m, v) < 0)
		return -1;
	if (p > 1)
		qsort_r(v->processes, p, sizeof(*v->processes), cmp_procs_out,
			&m->sort);
	return 0;
}

int lt_report_merger_finish(struct lt_report_merger *mg, struct lt_report **out,
			    struct lt_error *err)
{
	struct lt_report_priv *priv;
	struct lt_report *r;
	struct merger m;

	*out = NULL;
	memset(err, 0, sizeof(*err));
	if (!mg->nr) {
		lt_error_set(err, LT_E_USAGE, "no report to merge");
		return -1;
	}
	if (mg->warn && mg->no_hist > WARN_SHOWN)
		lt_warning("... and %zu more reports without histograms: their "
			   "percentiles cannot be merged either",
			   mg->no_hist - WARN_SHOWN);
	priv = calloc(1, sizeof(*priv));
	if (!priv)
		return merger_nomem(err);
	r = &priv->pub;
	m.pool = &priv->pool;
	m.err = err;
	m.sort = mg->sort;
	lt_options_init(&r->options);
	r->options.sort = m.sort;
	r->options.sleep_cutoff_ns = mg->options.sleep_cutoff_ns;
	r->options.honour_maxtime = mg->options.honour_maxtime;
	r->options.charge_stopped = mg->options.charge_stopped;
	r->options.kernel_threads = mg->options.kernel_threads;
	r->schema = LT_REPORT_SCHEMA;
	r->saved = true;	/* made from reports: options cannot change it */

	if (finish_traces(mg, &m, r) < 0 || merge_id(&m, r) < 0 ||
	    finish_top(mg, &m, r) < 0 || finish_view(mg, &m, &r->whole) < 0) {
		lt_report_free(r);
		return -1;
	}
	*out = r;
	return 0;
}

int lt_report_merge(const struct lt_report *const *in, const char *const *names,
		    size_t nr, struct lt_report **out, struct lt_error *err)
{
	return lt_report_merge_as(in, names, nr, true, out, err);
}

int lt_report_merge_as(const struct lt_report *const *in,
		       const char *const *names, size_t nr, bool warn,
		       struct lt_report **out, struct lt_error *err)
{
	struct lt_report_merger *mg;
	size_t i;
	int ret = -1;

	*out = NULL;
	mg = lt_report_merger_new(warn, err);
	if (!mg)
		return -1;
	for (i = 0; i < nr; i++)
		if (lt_report_merger_add(mg, in[i], names ? names[i] : NULL,
					 err) < 0)
			goto out;
	ret = lt_report_merger_finish(mg, out, err);
out:
	lt_report_merger_free(mg);
	return ret;
}
