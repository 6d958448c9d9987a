// SPDX-License-Identifier: LGPL-2.1
/*
 * perf-order.c - the reorder queue: records into time order, as perf's
 * ordered-events does, in bounded memory.
 *
 * perf's rule (tools/perf/util/ordered-events.c): every record with a
 * time is queued; at a FINISHED_ROUND those up to the largest time queued
 * before the previous round's end are handed out, in time order, ties in
 * the order read; at the end, all.  Records are read in runs whose times
 * do not go down (one per CPU buffer a round drains), so the queue keeps
 * them as they come, in a ring of (time, offset) entries cut into runs,
 * and merges the runs with a min-heap on each run's first entry: a heap
 * of a few runs instead of one of every record.
 */
#include <stdlib.h>

#include "perf-local.h"

#define RING_FIRST	1024u

static int heap_push(struct perf_queue *q, const struct q_run *run)
{
	struct q_run *h;
	uint32_t i, parent;

	if (q->nr_runs == q->runs_cap) {
		uint32_t cap = q->runs_cap ? 2 * q->runs_cap : 64;

		h = realloc(q->heap, (size_t)cap * sizeof(*h));
		if (!h)
			return -1;
		q->heap = h;
		q->runs_cap = cap;
	}
	h = q->heap;
	for (i = q->nr_runs++; i; i = parent) {
		parent = (i - 1) / 2;
		if (!run_before(run, &h[parent]))
			break;
		h[i] = h[parent];
	}
	h[i] = *run;
	return 0;
}

int lt_perf_queue_init(struct perf_queue *q, uint64_t max_ents)
{
	memset(q, 0, sizeof(*q));
	/* the ring is a power of two: the largest that fits the cap */
	q->max_ents = RING_FIRST;
	while (q->max_ents * 2 <= max_ents)
		q->max_ents *= 2;
	return 0;
}

/* Empty, as after lt_perf_queue_init(): its memory goes. */
void lt_perf_queue_free(struct perf_queue *q)
{
	uint64_t max_ents = q->max_ents;

	free(q->ents);
	free(q->heap);
	memset(q, 0, sizeof(*q));
	q->max_ents = max_ents;
}

/*
 * The first entry still queued.  Entries handed out have their time set
 * to 0 (no queued record has time 0), so the front only moves on: over
 * the queue's life, each entry is passed once.
 */
static uint64_t live_front(struct perf_queue *q)
{
	while (q->front < q->tail && !q->ents[q->front & q->mask].ts)
		q->front++;
	return q->front;
}

/* Double the ring (or make the first): 0, or -1 at the cap or out of memory */
static int ring_grow(struct perf_queue *q)
{
	uint64_t size = q->ents ? 2 * (q->mask + 1) : RING_FIRST, i;
	struct q_ent *ents;

	if (size > q->max_ents)
		return -1;
	ents = malloc(size * sizeof(*ents));
	if (!ents)
		return -1;
	/* entry numbers stay; their slots move */
	for (i = q->front; q->ents && i < q->tail; i++)
		ents[i & (size - 1)] = q->ents[i & q->mask];
	free(q->ents);
	q->ents = ents;
	q->mask = size - 1;
	return 0;
}

int lt_perf_queue_add_slow(struct perf_queue *q, uint64_t ts, uint64_t ref)
{
	if (!q->ents || q->tail - q->front > q->mask) {
		if (q->ents)
			live_front(q);
		if ((!q->ents || q->tail - q->front > q->mask) && ring_grow(q))
			return q->ents && q->mask + 1 >= q->max_ents ? 0 : -1;
	}
	/* runs of a record or two (times going back and forth): the heap's cap */
	if (q->nr_runs >= q->max_ents / 8 && !(q->open && ts >= q->cur_last))
		return 0;
	q->ents[q->tail & q->mask] = (struct q_ent){ ts, ref };
	/* perf: the largest time queued since the queue was last empty */
	if (!q->nr || ts > q->max_ts)
		q->max_ts = ts;
	q->nr++;
	if (q->open && ts >= q->cur_last) {
		q->cur.end = q->tail + 1;
	} else {
		if (q->open && heap_push(q, &q->cur)) {
			q->nr--;
			return -1;
		}
		q->cur = (struct q_run){ ts, ref, q->tail, q->tail + 1 };
		q->open = true;
	}
	q->cur_last = ts;
	q->tail++;
	return 1;
}

int lt_perf_queue_flush_to(struct perf_queue *q, uint64_t limit)
{
	/* a run in the heap takes no more: later records start a new one */
	if (q->open) {
		if (heap_push(q, &q->cur))
			return -1;
		q->open = false;
	}
	q->limit = limit;
	return 0;
}

uint64_t lt_perf_queue_low(struct perf_queue *q)
{
	if (!q->nr)
		return UINT64_MAX;
	return Q_OFF(q->ents[live_front(q) & q->mask].ref);
}

uint64_t lt_perf_queue_used(struct perf_queue *q)
{
	return q->nr ? q->tail - live_front(q) : 0;
}

bool lt_perf_queue_over(struct perf_queue *q, bool half)
{
	uint64_t ents = half ? q->max_ents / 2 : q->max_ents;

	return lt_perf_queue_used(q) >= ents || q->nr_runs >= ents / 8;
}

uint64_t lt_perf_queue_bytes(const struct perf_queue *q)
{
	return (q->ents ? (q->mask + 1) * sizeof(struct q_ent) : 0) +
	       (uint64_t)q->runs_cap * sizeof(struct q_run);
}
