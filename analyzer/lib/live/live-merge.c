// SPDX-License-Identifier: LGPL-2.1
/*
 * live-merge.c - per-CPU page queues merged by timestamp and watermark
 * (lt-live-merge.h).
 *
 *   reader thread:  pages() -> copy, queue, wake      drained() -> watermark
 *   consumer:       each CPU's head record (decoded from its queue with
 *                   lt_trace_pages), or, for a CPU with nothing queued,
 *                   the watermark it had when it was found empty; the
 *                   least head goes out while it is below every such
 *                   watermark
 *
 * A CPU's watermark is read under the same lock as its empty queue: a
 * reader queues its pages before it moves the watermark, so an empty
 * queue and the watermark seen with it mean no record before the mark is
 * still to come.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include "lt-live-merge.h"

#define DEFAULT_LIMIT	(64u << 20)

struct chunk {
	struct chunk *next;
	size_t len;
	unsigned char data[];
};

struct cpu_q {
	/* under the lock: the readers' side */
	struct chunk *first, *last;
	uint64_t wm;
	/* the consumer's */
	struct chunk *cur;		/* its pages being decoded */
	size_t off;			/* the next page in it */
	struct lt_trace_pages *pages;
	bool have_head;
	struct lt_record head;
	uint64_t key;			/* head's place: its ts, or a loss's */
	uint64_t bound;			/* no head: the watermark seen empty */
	bool have_last;
	uint64_t last_ts;		/* of the CPU's last record out */
};

struct lt_live_merge {
	int cpus;
	size_t page_size, limit;
	struct cpu_q *q;
	int efd;
	pthread_mutex_t lock;
	pthread_cond_t room;
	bool unblocked;
	size_t queued, queued_peak;
	uint64_t waits, chunks, bytes;
	/* the consumer's */
	uint64_t records, late, damaged;
	bool have_frontier;
	uint64_t frontier;
	char damage[LT_ERROR_MSG_MAX + 16];
};

int lt_live_merge_new(int cpus, size_t limit, struct lt_live_merge **out,
		      struct lt_error *err)
{
	struct lt_live_merge *m;

	*out = NULL;
	if (cpus <= 0 || cpus > LT_TRACE_CPU_LIMIT) {
		lt_error_set(err, LT_E_INTERNAL, "live: %d CPUs", cpus);
		return -1;
	}
	m = calloc(1, sizeof(*m));
	if (!m)
		goto nomem;
	m->efd = -1;
	m->cpus = cpus;
	m->limit = limit ? limit : DEFAULT_LIMIT;
	pthread_mutex_init(&m->lock, NULL);
	pthread_cond_init(&m->room, NULL);
	m->q = calloc((size_t)cpus, sizeof(*m->q));
	if (!m->q)
		goto nomem;
	m->efd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	if (m->efd < 0) {
		lt_error_set(err, LT_E_INTERNAL, "live: eventfd: %s",
			     strerror(errno));
		goto fail;
	}
	*out = m;
	return 0;
nomem:
	lt_error_set(err, LT_E_NOMEM, "out of memory");
fail:
	lt_live_merge_free(m);
	return -1;
}

int lt_live_merge_layout(struct lt_live_merge *m, struct lt_trace *formats,
			 size_t page_size, struct lt_error *err)
{
	int i;

	if (!page_size) {
		lt_error_set(err, LT_E_INTERNAL, "live: pages of 0 bytes");
		return -1;
	}
	m->page_size = page_size;
	for (i = 0; i < m->cpus; i++)
		if (!m->q[i].pages &&
		    lt_trace_pages_new(formats, i, &m->q[i].pages, err) < 0)
			return -1;
	return 0;
}

static void free_chunks(struct chunk *c)
{
	while (c) {
		struct chunk *next = c->next;

		free(c);
		c = next;
	}
}

void lt_live_merge_free(struct lt_live_merge *m)
{
	int i;

	if (!m)
		return;
	for (i = 0; m->q && i < m->cpus; i++) {
		lt_trace_pages_free(m->q[i].pages);
		free_chunks(m->q[i].first);
		free(m->q[i].cur);
	}
	free(m->q);
	if (m->efd >= 0)
		close(m->efd);
	pthread_cond_destroy(&m->room);
	pthread_mutex_destroy(&m->lock);
	free(m);
}

static void wake(struct lt_live_merge *m)
{
	uint64_t one = 1;

	(void)!write(m->efd, &one, sizeof(one));
}

int lt_live_merge_pages(struct lt_live_merge *m, int cpu, const void *pages,
			size_t len)
{
	struct chunk *c;

	if (cpu < 0 || cpu >= m->cpus || !len)
		return 0;
	c = malloc(sizeof(*c) + len);
	if (!c)
		return ENOMEM;
	c->next = NULL;
	c->len = len;
	memcpy(c->data, pages, len);
	pthread_mutex_lock(&m->lock);
	if (m->queued && m->queued + len > m->limit && !m->unblocked) {
		m->waits++;
		/* the consumer is behind: let the kernel's buffer take it */
		while (m->queued && m->queued + len > m->limit && !m->unblocked)
			pthread_cond_wait(&m->room, &m->lock);
	}
	if (m->q[cpu].last)
		m->q[cpu].last->next = c;
	else
		m->q[cpu].first = c;
	m->q[cpu].last = c;
	m->queued += len;
	if (m->queued > m->queued_peak)
		m->queued_peak = m->queued;
	m->chunks++;
	m->bytes += len;
	pthread_mutex_unlock(&m->lock);
	wake(m);
	return 0;
}

void lt_live_merge_drained(struct lt_live_merge *m, int cpu, uint64_t ts)
{
	if (cpu < 0 || cpu >= m->cpus)
		return;
	pthread_mutex_lock(&m->lock);
	if (ts > m->q[cpu].wm)
		m->q[cpu].wm = ts;
	pthread_mutex_unlock(&m->lock);
	wake(m);
}

void lt_live_merge_unblock(struct lt_live_merge *m)
{
	pthread_mutex_lock(&m->lock);
	m->unblocked = true;
	pthread_cond_broadcast(&m->room);
	pthread_mutex_unlock(&m->lock);
}

int lt_live_merge_fd(const struct lt_live_merge *m)
{
	return m->efd;
}

/*
 * Done with @q's current pages: give their room back, take the next
 * ones queued.  False when none are (q->bound then holds the watermark
 * seen with the empty queue).
 */
static bool next_chunk(struct lt_live_merge *m, struct cpu_q *q)
{
	struct chunk *c;

	pthread_mutex_lock(&m->lock);
	if (q->cur) {
		m->queued -= q->cur->len;
		pthread_cond_broadcast(&m->room);
	}
	c = q->first;
	if (c) {
		q->first = c->next;
		if (!q->first)
			q->last = NULL;
	} else {
		q->bound = q->wm;
	}
	pthread_mutex_unlock(&m->lock);
	free(q->cur);
	q->cur = c;
	q->off = 0;
	return c != NULL;
}

static void damaged(struct lt_live_merge *m, int cpu, const struct lt_error *e)
{
	if (!m->damaged++)
		snprintf(m->damage, sizeof(m->damage), "CPU %d: %s", cpu, e->msg);
}

/* @q's next record as its head: true, or false with nothing queued. */
static bool fill_head(struct lt_live_merge *m, int cpu)
{
	struct cpu_q *q = &m->q[cpu];
	struct lt_error e;
	int n;

	for (;;) {
		n = lt_trace_pages_next(q->pages, &q->head, &e);
		if (n > 0) {
			q->have_head = true;
			/* a loss goes where its gap begins: after the last record */
			q->key = q->head.kind == LT_REC_LOST ?
				 (q->have_last ? q->last_ts : 0) : q->head.ts;
			return true;
		}
		if (n < 0) {
			damaged(m, cpu, &e);
			continue;
		}
		if (q->cur && q->off < q->cur->len) {
			size_t len = q->cur->len - q->off;

			if (len > m->page_size)
				len = m->page_size;
			if (lt_trace_pages_load(q->pages, q->cur->data + q->off,
						len, &e) < 0)
				damaged(m, cpu, &e);
			q->off += len;
			continue;
		}
		if (!next_chunk(m, q))
			return false;
	}
}

int64_t lt_live_merge_run(struct lt_live_merge *m, uint64_t slack, bool all,
			  uint64_t max, lt_live_record_fn fn, void *ctx,
			  struct lt_error *err)
{
	uint64_t bound = UINT64_MAX, count = 0, drain;
	struct cpu_q *q;
	int c, best;

	if (!m->page_size) {
		lt_error_set(err, LT_E_INTERNAL, "live: no page layout yet");
		return -1;
	}
	(void)!read(m->efd, &drain, sizeof(drain));
	/*
	 * CPUs found empty keep the bound they had then for this run: pages
	 * that come meanwhile only raise it, at the next run.
	 */
	for (c = 0; c < m->cpus; c++) {
		q = &m->q[c];
		if (!q->have_head && !fill_head(m, c) && !all) {
			uint64_t b = q->bound > slack ? q->bound - slack : 0;

			if (b < bound)
				bound = b;
		}
	}
	while (!max || count < max) {
		best = -1;
		for (c = 0; c < m->cpus; c++)
			if (m->q[c].have_head &&
			    (best < 0 || m->q[c].key < m->q[best].key))
				best = c;
		if (best < 0 || (!all && m->q[best].key >= bound))
			break;
		q = &m->q[best];
		if (q->head.kind == LT_REC_EVENT) {
			if (m->have_frontier && q->head.ts < m->frontier)
				m->late++;
			else
				m->frontier = q->head.ts;
			m->have_frontier = true;
			q->have_last = true;
			q->last_ts = q->head.ts;
		}
		q->have_head = false;
		m->records++;
		count++;
		if (fn(ctx, &q->head) < 0)
			return -1;
		if (!fill_head(m, best) && !all) {
			uint64_t b = q->bound > slack ? q->bound - slack : 0;

			if (b < bound)
				bound = b;
		}
	}
	return (int64_t)count;
}

void lt_live_merge_stats(struct lt_live_merge *m,
			 struct lt_live_merge_stats *st)
{
	memset(st, 0, sizeof(*st));
	pthread_mutex_lock(&m->lock);
	st->chunks = m->chunks;
	st->bytes = m->bytes;
	st->queued = m->queued;
	st->queued_peak = m->queued_peak;
	st->waits = m->waits;
	pthread_mutex_unlock(&m->lock);
	st->records = m->records;
	st->late = m->late;
	st->damaged = m->damaged;
	st->frontier = m->frontier;
}

const char *lt_live_merge_damage(const struct lt_live_merge *m)
{
	return m->damage;
}
