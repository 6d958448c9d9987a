// SPDX-License-Identifier: LGPL-2.1
/*
 * report-timeline.c - the busiest threads' waits over time, for pictures
 * (lt_report.timeline, drawn by the HTML report).
 *
 * A long trace has millions of waits; a picture of them must not grow
 * with it.  So the threads are the lt_options.timeline_threads with the
 * most charged time in the whole range's tables, and of each only the
 * timeline_waits longest are kept, in a min-heap as the waits go by,
 * plus those the global table names as its causes' worst occurrences,
 * which the picture marks.  Every charged wait of a chosen thread still counts in its
 * totals and in the time it waited per slice of the range, so what was
 * left out shows as shading, never as idle time.
 *
 * The waits come from the same temporary file as --format=waits, once
 * the replay is finished and the report built (report-waits.c).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "lt-map.h"
#include "lt-report.h"

struct heap {
	struct lt_report_span *v;	/* min-heap on (length, later start) */
	size_t nr;
};

struct lane_acc {
	struct heap longest;
	struct lt_report_span *worst;	/* the global table's worst, kept apart */
	size_t nr_worst, cap_worst;
};

struct tl_build {
	struct lt_report_priv *priv;
	struct lt_report_timeline *tl;
	struct lane_acc *acc;
	struct lt_map lanes;		/* (pid, tid) -> lane + 1 */
	struct lt_map worst;		/* (tid, end) -> length of a worst */
	struct lt_map causes;		/* (reason, argument) pointers -> index */
	size_t cap_causes;
	int error;			/* errno of a failure in a callback */
};

/* @a is kept before @b goes: shorter goes first, then the later one. */
static bool span_less(const struct lt_report_span *a,
		      const struct lt_report_span *b)
{
	uint64_t la = a->end_ns - a->start_ns, lb = b->end_ns - b->start_ns;

	if (la != lb)
		return la < lb;
	return a->start_ns > b->start_ns;
}

static void heap_down(struct heap *h, size_t i)
{
	struct lt_report_span t;
	size_t c;

	for (;;) {
		c = 2 * i + 1;
		if (c >= h->nr)
			return;
		if (c + 1 < h->nr && span_less(&h->v[c + 1], &h->v[c]))
			c++;
		if (!span_less(&h->v[c], &h->v[i]))
			return;
		t = h->v[c];
		h->v[c] = h->v[i];
		h->v[i] = t;
		i = c;
	}
}

static void heap_up(struct heap *h, size_t i)
{
	struct lt_report_span t;

	while (i && span_less(&h->v[i], &h->v[(i - 1) / 2])) {
		t = h->v[i];
		h->v[i] = h->v[(i - 1) / 2];
		h->v[(i - 1) / 2] = t;
		i = (i - 1) / 2;
	}
}

/* Keep @s if it is among the @max longest so far (@h->v has @max slots). */
static void heap_offer(struct heap *h, size_t max, const struct lt_report_span *s)
{
	if (!max)
		return;
	if (h->nr < max) {
		h->v[h->nr++] = *s;
		heap_up(h, h->nr - 1);
	} else if (span_less(&h->v[0], s)) {
		h->v[0] = *s;
		heap_down(h, 0);
	}
}

static int cmp_start(const void *pa, const void *pb)
{
	const struct lt_report_span *a = pa, *b = pb;

	if (a->start_ns != b->start_ns)
		return a->start_ns < b->start_ns ? -1 : 1;
	return (a->end_ns > b->end_ns) - (a->end_ns < b->end_ns);
}

/* A candidate thread: the whole range's, by charged time. */
struct cand {
	const struct lt_report_process *p;
	const struct lt_report_thread *t;
};

static int cmp_cand(const void *pa, const void *pb)
{
	const struct cand *a = pa, *b = pb;

	if (a->t->total_ns != b->t->total_ns)
		return a->t->total_ns > b->t->total_ns ? -1 : 1;
	if (a->p->pid != b->p->pid)
		return a->p->pid < b->p->pid ? -1 : 1;
	return (a->t->tid > b->t->tid) - (a->t->tid < b->t->tid);
}

/* The threads shown: those the global table counts, busiest first. */
static int choose_lanes(struct tl_build *b, const struct lt_report *r)
{
	const struct lt_report_view *v = &r->whole;
	struct lt_report_timeline *tl = b->tl;
	struct cand *c;
	size_t i, j, n = 0;
	int added;

	for (i = 0; i < v->nr_processes; i++)
		if (!v->processes[i].kernel_thread || r->options.kernel_threads)
			n += v->processes[i].nr_threads;
	c = malloc((n ? n : 1) * sizeof(*c));
	if (!c)
		return -1;
	n = 0;
	for (i = 0; i < v->nr_processes; i++) {
		const struct lt_report_process *p = &v->processes[i];

		if (p->kernel_thread && !r->options.kernel_threads)
			continue;
		for (j = 0; j < p->nr_threads; j++)
			if (p->threads[j].total_ns)
				c[n++] = (struct cand){ p, &p->threads[j] };
	}
	if (n > 1)
		qsort(c, n, sizeof(*c), cmp_cand);
	if (n > tl->max_threads)
		n = tl->max_threads;
	tl->lanes = lt_report_alloc(b->priv, n ? n : 1, sizeof(*tl->lanes));
	b->acc = calloc(n ? n : 1, sizeof(*b->acc));
	if (!tl->lanes || !b->acc)
		goto nomem;
	/* from now on the build frees each lane's heap, made or not */
	tl->nr_lanes = n;
	for (i = 0; i < n; i++) {
		struct lt_report_lane *l = &tl->lanes[i];

		l->pid = c[i].p->pid;
		l->tid = c[i].t->tid;
		l->comm = c[i].t->comm;
		l->kernel_thread = c[i].p->kernel_thread;
		l->slice_ns = lt_report_alloc(b->priv, tl->nr_slices,
					      sizeof(*l->slice_ns));
		b->acc[i].longest.v = malloc((tl->max_waits ? tl->max_waits : 1) *
					     sizeof(struct lt_report_span));
		if (!l->slice_ns || !b->acc[i].longest.v ||
		    !lt_map_put(&b->lanes, (uint32_t)l->pid, (uint32_t)l->tid,
				(uint32_t)i + 1, &added))
			goto nomem;
	}
	free(c);
	return 0;
nomem:
	free(c);
	return -1;
}

/* The worst occurrences of @rows, by (tid, end): to keep and mark. */
static int note_worst(struct tl_build *b, const struct lt_report_row *rows,
		      size_t nr)
{
	size_t i;
	unsigned int k;
	int added;

	for (i = 0; i < nr; i++)
		for (k = 0; k < rows[i].nr_worst; k++) {
			const struct lt_report_occurrence *o = &rows[i].worst[k];

			if (!lt_map_put(&b->worst, (uint32_t)o->tid, o->end_ns, 1,
					&added))
				return -1;
		}
	return 0;
}

static uint32_t cause_index(struct tl_build *b, const struct lt_wait *w)
{
	struct lt_report_timeline *tl = b->tl;
	uint32_t *slot;
	int added;

	/* the replay's strings: one pointer per text */
	slot = lt_map_put(&b->causes, (uintptr_t)w->reason,
			  (uintptr_t)w->argument, (uint32_t)tl->nr_causes, &added);
	if (!slot)
		return UINT32_MAX;
	if (!added)
		return *slot;
	if (tl->nr_causes == b->cap_causes) {
		size_t ncap = b->cap_causes ? 2 * b->cap_causes : 16;
		struct lt_report_cause *p = realloc(tl->causes, ncap * sizeof(*p));

		if (!p)
			return UINT32_MAX;
		tl->causes = p;
		b->cap_causes = ncap;
	}
	tl->causes[tl->nr_causes] = (struct lt_report_cause){
		w->reason, w->argument, w->kind };
	return (uint32_t)tl->nr_causes++;
}

/* @ns of waiting from @start, spread over the slices it covers. */
static void add_slices(const struct lt_report_timeline *tl, uint64_t *slice_ns,
		       uint64_t start, uint64_t end)
{
	uint64_t span = tl->end_ns - tl->start_ns, s0, s1;
	unsigned int i, first, last;

	if (start < tl->start_ns)
		start = tl->start_ns;
	if (end > tl->end_ns)
		end = tl->end_ns;
	if (!span || end <= start)
		return;
	/* slice i is [start + span * i / n, start + span * (i + 1) / n) */
	first = (unsigned int)((unsigned __int128)(start - tl->start_ns) *
			       tl->nr_slices / span);
	last = (unsigned int)((unsigned __int128)(end - 1 - tl->start_ns) *
			      tl->nr_slices / span);
	for (i = first; i <= last && i < tl->nr_slices; i++) {
		s0 = tl->start_ns + (uint64_t)((unsigned __int128)span * i /
					       tl->nr_slices);
		s1 = tl->start_ns + (uint64_t)((unsigned __int128)span * (i + 1) /
					       tl->nr_slices);
		slice_ns[i] += (end < s1 ? end : s1) - (start > s0 ? start : s0);
	}
}

static int take_wait(void *ctx, const struct lt_wait *w)
{
	struct tl_build *b = ctx;
	struct lt_report_timeline *tl = b->tl;
	struct lt_report_span s;
	struct lane_acc *acc;
	struct lt_report_lane *l;
	uint32_t *lane;

	if (w->dropped || !w->start_known || !w->end_known ||
	    w->end_ns < w->start_ns)
		return 0;
	lane = lt_map_get(&b->lanes, (uint32_t)w->pid, (uint32_t)w->tid);
	if (!lane)
		return 0;
	l = &tl->lanes[*lane - 1];
	acc = &b->acc[*lane - 1];
	l->count++;
	l->total_ns += w->end_ns - w->start_ns;
	add_slices(tl, l->slice_ns, w->start_ns, w->end_ns);
	s.start_ns = w->start_ns;
	s.end_ns = w->end_ns;
	s.worst = lt_map_get(&b->worst, (uint32_t)w->tid, w->end_ns) != NULL;
	s.waker_kind = w->waker_kind;
	s.waker_tid = w->waker_tid;
	/* the name, copied: the replay's tasks move as they grow */
	snprintf(s.waker_comm, sizeof(s.waker_comm), "%s",
		 w->waker_tid >= 0 && w->waker_comm ? w->waker_comm : "");
	/* most waits of a long trace are not kept: no cause to look up */
	if (!s.worst && (!tl->max_waits ||
			 (acc->longest.nr == tl->max_waits &&
			  !span_less(&acc->longest.v[0], &s))))
		return 0;
	s.cause = cause_index(b, w);
	if (s.cause == UINT32_MAX)
		goto nomem;
	if (!s.worst) {
		heap_offer(&acc->longest, tl->max_waits, &s);
		return 0;
	}
	if (acc->nr_worst == acc->cap_worst) {
		size_t ncap = acc->cap_worst ? 2 * acc->cap_worst : 8;
		struct lt_report_span *p = realloc(acc->worst, ncap * sizeof(*p));

		if (!p)
			goto nomem;
		acc->worst = p;
		acc->cap_worst = ncap;
	}
	acc->worst[acc->nr_worst++] = s;
	return 0;
nomem:
	b->error = ENOMEM;
	errno = ENOMEM;
	return -1;
}

/* Each lane's spans: the longest and the worst, by start, the report's. */
static int keep_spans(struct tl_build *b)
{
	struct lt_report_timeline *tl = b->tl;
	size_t i, n;

	for (i = 0; i < tl->nr_lanes; i++) {
		struct lane_acc *acc = &b->acc[i];
		struct lt_report_lane *l = &tl->lanes[i];

		n = acc->longest.nr + acc->nr_worst;
		l->spans = lt_report_alloc(b->priv, n ? n : 1, sizeof(*l->spans));
		if (!l->spans)
			return -1;
		if (acc->longest.nr)
			memcpy(l->spans, acc->longest.v,
			       acc->longest.nr * sizeof(*l->spans));
		if (acc->nr_worst)
			memcpy(l->spans + acc->longest.nr, acc->worst,
			       acc->nr_worst * sizeof(*l->spans));
		l->nr_spans = n;
		if (n > 1)
			qsort(l->spans, n, sizeof(*l->spans), cmp_start);
	}
	return 0;
}

/* The causes into the report's memory, which outlives the build. */
static int keep_causes(struct tl_build *b)
{
	struct lt_report_timeline *tl = b->tl;
	struct lt_report_cause *c;
	size_t i;

	c = lt_report_alloc(b->priv, tl->nr_causes ? tl->nr_causes : 1,
			    sizeof(*c));
	if (!c)
		return -1;
	for (i = 0; i < tl->nr_causes; i++) {
		c[i] = tl->causes[i];
		c[i].reason = lt_report_strdup(b->priv, c[i].reason);
		c[i].argument = lt_report_strdup(b->priv, c[i].argument);
		if (!c[i].reason || !c[i].argument)
			return -1;	/* @c is the report's to free */
	}
	free(tl->causes);
	tl->causes = c;
	return 0;
}

int lt_timeline_build(struct lt_report_priv *priv, struct lt_waits_spill *s,
		      struct lt_error *err)
{
	struct lt_report *r = &priv->pub;
	struct lt_report_timeline *tl;
	struct tl_build b;
	size_t i;
	int ret = -1;

	memset(&b, 0, sizeof(b));
	tl = lt_report_alloc(priv, 1, sizeof(*tl));
	if (!tl)
		goto nomem;
	b.priv = priv;
	b.tl = tl;
	tl->start_ns = r->whole.start_ns;
	tl->end_ns = r->whole.end_ns;
	tl->max_threads = r->options.timeline_threads;
	tl->max_waits = r->options.timeline_waits;
	tl->nr_slices = LT_TIMELINE_SLICES;
	lt_map_init(&b.lanes);
	lt_map_init(&b.worst);
	lt_map_init(&b.causes);
	if (choose_lanes(&b, r) < 0)
		goto nomem;
	if (note_worst(&b, r->whole.global, r->whole.nr_global) < 0)
		goto nomem;
	if (tl->nr_lanes &&
	    lt_waits_spill_each(s, &priv->replay, r->id, &r->options.tasks,
				take_wait, &b, err) < 0) {
		if (b.error)
			goto nomem;
		goto out;
	}
	if (keep_spans(&b) < 0 || keep_causes(&b) < 0)
		goto nomem;
	r->timeline = tl;
	ret = 0;
	goto out;
nomem:
	lt_error_set(err, LT_E_NOMEM, "out of memory");
out:
	for (i = 0; b.acc && tl && i < tl->nr_lanes; i++) {
		free(b.acc[i].longest.v);
		free(b.acc[i].worst);
	}
	free(b.acc);
	if (tl && tl->causes && !r->timeline)
		free(tl->causes);
	lt_map_free(&b.lanes);
	lt_map_free(&b.worst);
	lt_map_free(&b.causes);
	return ret;
}
