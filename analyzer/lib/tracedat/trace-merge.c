// SPDX-License-Identifier: LGPL-2.1
/*
 * trace-merge.c - lt_trace_next(): every CPU's records in timestamp order.
 *
 * Each CPU stream offers its current record; a min-heap of (timestamp,
 * stream index) picks the next (lt-tsheap.h).  Streams are sorted by CPU
 * id, so equal timestamps come out in CPU order, as libtracecmd gives them.
 *
 * A loss is keyed at the time of its CPU's record before it, not at the
 * record after it: it comes out as soon as the gap begins, so a reader
 * merging the CPUs knows of a gap on one CPU before it hands out anything
 * that happened on the others while that CPU's data was missing.
 *
 * Damage on one CPU: lt_trace_next() returns -1 once, with the error, and
 * drops that CPU; the next call carries on with the other CPUs.  A caller
 * that wants all-or-nothing stops at the first -1; one that reports what
 * it could (--partial) keeps calling until 0.
 */
#include "tracedat-local.h"

static inline uint64_t merge_key(const struct cpu_stream *cs)
{
	const struct rb_rec *r = stream_cur(cs);

	return r->lost ? cs->prev_ts : r->ts;
}

int lt_trace_next(struct lt_trace *t, struct lt_record *rec,
		  struct lt_error *err)
{
	struct cpu_stream *cs;
	unsigned int i;
	int ret;

	/* Step the stream whose record went out last; it is at the top. */
	if (t->last >= 0) {
		cs = &t->streams[t->last];
		t->last = -1;
		ret = stream_next(t, cs);
		if (ret > 0) {
			t->heap[0].ts = merge_key(cs);
			/* Often it is still the earliest: one comparison. */
			if (t->heap_len > 1)
				lt_tsheap_down(t->heap, t->heap_len, 0);
		} else {
			t->heap[0] = t->heap[--t->heap_len];
			lt_tsheap_down(t->heap, t->heap_len, 0);
			if (ret < 0) {
				*err = cs->err;
				t->failed_cpu = cs->cpu;
				t->failed_ts = cs->prev_ts;
				return -1;
			}
		}
	}
	/* First calls: start each stream (after an error, the rest). */
	while (t->nr_primed < t->nr_streams) {
		i = t->nr_primed++;
		cs = &t->streams[i];
		ret = lt_trace_stream_fill(t, cs);
		if (ret > 0) {
			t->heap[t->heap_len].ts = merge_key(cs);
			t->heap[t->heap_len].idx = i;
			lt_tsheap_up(t->heap, t->heap_len++);
		} else if (ret < 0) {
			*err = cs->err;
			t->failed_cpu = cs->cpu;
			t->failed_ts = 0;	/* none of its records */
			return -1;
		}
	}
	if (!t->heap_len)
		return 0;

	i = t->heap[0].idx;
	cs = &t->streams[i];
	t->last = i;
	if (!stream_cur(cs)->lost)
		cs->prev_ts = stream_cur(cs)->ts;
	lt_trace_fill_record(t, cs, rec);
	return 1;
}

int lt_trace_failed_cpu(const struct lt_trace *t, uint64_t *last_ts)
{
	*last_ts = t->failed_ts;
	return t->failed_cpu;
}

/* The stream's current ring-buffer record as an lt_record. */
void lt_trace_fill_record(const struct lt_trace *t, const struct cpu_stream *cs,
			  struct lt_record *rec)
{
	const struct rb_rec *r = stream_cur(cs);

	rec->cpu = cs->cpu;
	rec->ts = r->ts;
	if (r->lost) {
		rec->kind = LT_REC_LOST;
		rec->lost = r->nlost;
		rec->id = 0;
		rec->type = NULL;
		rec->data = NULL;
		rec->size = 0;
		return;
	}
	rec->kind = LT_REC_EVENT;
	rec->lost = 0;
	rec->data = r->data;
	rec->size = r->size;
	if (t->type_field_off + t->type_field_size <= rec->size) {
		const unsigned char *p = rec->data + t->type_field_off;

		rec->id = t->type_field_size == 2 ? get16(p, t->swap) :
			  t->type_field_size == 1 ? *p : get32(p, t->swap);
		rec->type = rec->id < t->by_id_len ? t->by_id[rec->id] : NULL;
	} else {
		rec->id = 0;
		rec->type = NULL;
	}
}

unsigned int lt_trace_nr_streams(const struct lt_trace *t)
{
	return t->nr_streams;
}

int lt_trace_stream_cpu(const struct lt_trace *t, unsigned int s)
{
	return s < t->nr_streams ? t->streams[s].cpu : -1;
}
