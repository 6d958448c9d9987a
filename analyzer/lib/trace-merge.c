// SPDX-License-Identifier: LGPL-2.1
/*
 * trace-merge.c - lt_trace_next(): every CPU's records in timestamp order.
 *
 * Each CPU stream offers one decoded record; a binary min-heap keyed by
 * (timestamp, stream index) picks the next.  Streams are sorted by CPU id,
 * so equal timestamps come out in CPU order, as libtracecmd gives them.
 * With two CPUs the heap costs one comparison per record.
 *
 * Damage on one CPU: lt_trace_next() returns -1 once, with the error, and
 * drops that CPU; the next call carries on with the other CPUs.  A caller
 * that wants all-or-nothing stops at the first -1; one that reports what
 * it could (--partial) keeps calling until 0.
 */
#include "trace-local.h"

static inline bool before(const struct lt_trace *t, unsigned int a,
			  unsigned int b)
{
	const struct cpu_stream *x = &t->streams[a], *y = &t->streams[b];

	return x->next_ts < y->next_ts || (x->next_ts == y->next_ts && a < b);
}

static void sift_down(struct lt_trace *t, unsigned int i)
{
	unsigned int *h = t->heap, n = t->heap_len, c, tmp;

	for (;;) {
		c = 2 * i + 1;
		if (c >= n)
			return;
		if (c + 1 < n && before(t, h[c + 1], h[c]))
			c++;
		if (!before(t, h[c], h[i]))
			return;
		tmp = h[i];
		h[i] = h[c];
		h[c] = tmp;
		i = c;
	}
}

static void sift_up(struct lt_trace *t, unsigned int i)
{
	unsigned int *h = t->heap, p, tmp;

	while (i) {
		p = (i - 1) / 2;
		if (!before(t, h[i], h[p]))
			return;
		tmp = h[i];
		h[i] = h[p];
		h[p] = tmp;
		i = p;
	}
}

static void pop_top(struct lt_trace *t)
{
	t->heap[0] = t->heap[--t->heap_len];
	sift_down(t, 0);
}

int lt_trace_next(struct lt_trace *t, struct lt_record *rec,
		  struct lt_error *err)
{
	struct cpu_stream *cs;
	unsigned int i;
	int ret;

	/* Refill the stream whose record went out last; it is at the top. */
	if (t->last >= 0) {
		cs = &t->streams[t->last];
		t->last = -1;
		ret = stream_advance(t, cs);
		if (ret > 0) {
			sift_down(t, 0);
		} else {
			pop_top(t);
			if (ret < 0) {
				*err = cs->err;
				return -1;
			}
		}
	}
	/* First calls: start each stream (after an error, the rest). */
	while (t->nr_primed < t->nr_streams) {
		i = t->nr_primed++;
		cs = &t->streams[i];
		ret = stream_advance(t, cs);
		if (ret > 0) {
			t->heap[t->heap_len++] = i;
			sift_up(t, t->heap_len - 1);
		} else if (ret < 0) {
			*err = cs->err;
			return -1;
		}
	}
	if (!t->heap_len)
		return 0;

	i = t->heap[0];
	cs = &t->streams[i];
	t->last = i;
	rec->cpu = cs->cpu;
	rec->ts = cs->next_ts;
	if (cs->next_lost) {
		rec->kind = LT_REC_LOST;
		rec->lost = cs->next_nlost;
		rec->id = 0;
		rec->type = NULL;
		rec->data = NULL;
		rec->size = 0;
		return 1;
	}
	rec->kind = LT_REC_EVENT;
	rec->lost = 0;
	rec->data = cs->next_data;
	rec->size = cs->next_size;
	if (t->type_field_off + t->type_field_size <= rec->size) {
		const unsigned char *p = rec->data + t->type_field_off;

		rec->id = t->type_field_size == 2 ? get16(p, t->swap) :
			  t->type_field_size == 1 ? *p : get32(p, t->swap);
		rec->type = rec->id < t->by_id_len ? t->by_id[rec->id] : NULL;
	} else {
		rec->id = 0;
		rec->type = NULL;
	}
	return 1;
}
