// SPDX-License-Identifier: LGPL-2.1
/*
 * pipe.c - read and decode in batches, CPUs in parallel (lt-pipe.h).
 *
 * Reading and decoding a record costs about twice what replaying it does,
 * so one reader thread cannot keep a replay busy.  Each CPU's stream is
 * read and decoded into its own queue of batches (strings and stacks
 * copied out of the records, which die at the next read) by worker threads
 * and, when it would otherwise wait, the caller's thread, which merges the
 * queues by timestamp, ties in CPU order exactly as lt_trace_next() does,
 * and replays.  With threads off,
 * or a single CPU in the file, the same batches are made and consumed in
 * turn from lt_trace_next().
 */
#define _GNU_SOURCE
#include <limits.h>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lt-pipe.h"
#include "lt-tsheap.h"

#define SERIAL_EVENTS	8192
#define QUEUE_DEPTH	3	/* batches per CPU: one filling, two waiting */
#define MAX_WORKERS	16
#define PROGRESS_EVERY	(1u << 16)	/* events between progress calls */

struct sink {
	lt_pipe_event_fn event;
	lt_pipe_progress_fn progress;
	void *ctx;
};

struct batch {
	struct lt_ev *ev;
	/* arena offsets of the copies, +1 (0: no copy) */
	uint32_t *str, *str2, *frames;
	unsigned int n, cap;
	char *arena;
	size_t used, size;
	uint64_t done;		/* the stream's bytes read when it was filled */
	bool end;		/* the stream's last batch */
	bool failed;		/* reading failed: err says why */
	struct lt_error err;
};

/* Copy @len bytes into the batch arena; offset + 1, or 0 on ENOMEM. */
static uint32_t stash(struct batch *b, const void *p, size_t len, size_t align)
{
	size_t off = (b->used + align - 1) & ~(align - 1);

	if (off + len + 1 > b->size) {
		size_t nsize = b->size ? b->size : 1 << 16;
		char *a;

		while (nsize < off + len + 1)
			nsize *= 2;
		if (nsize > UINT32_MAX)
			return 0;
		a = realloc(b->arena, nsize);
		if (!a)
			return 0;
		b->arena = a;
		b->size = nsize;
	}
	memcpy(b->arena + off, p, len);
	b->arena[off + len] = '\0';
	b->used = off + len + 1;
	return (uint32_t)off + 1;
}

/*
 * Event b->ev[b->n], decoded in place, joins the batch: the strings and
 * stack it points to are copied into the arena (as offsets until thawed).
 */
static int append(struct batch *b)
{
	unsigned int i = b->n;
	const struct lt_ev *ev = &b->ev[i];

	b->str[i] = b->str2[i] = b->frames[i] = 0;
	if (ev->str_len && !(b->str[i] = stash(b, ev->str, ev->str_len, 1)))
		return -1;
	if (ev->str2_len && !(b->str2[i] = stash(b, ev->str2, ev->str2_len, 1)))
		return -1;
	if (ev->nr_frames &&
	    !(b->frames[i] = stash(b, ev->frames,
				   ev->nr_frames * sizeof(*ev->frames), 8)))
		return -1;
	b->n++;
	return 0;
}

/* Event @i's pointers restored from offsets, in the reader's thread. */
static inline struct lt_ev *thaw(struct batch *b, unsigned int i)
{
	struct lt_ev *ev = &b->ev[i];

	if (b->str[i])
		ev->str = b->arena + b->str[i] - 1;
	if (b->str2[i])
		ev->str2 = b->arena + b->str2[i] - 1;
	if (b->frames[i])
		ev->frames = (const uint64_t *)(b->arena + b->frames[i] - 1);
	return ev;
}

static struct batch *batch_new(unsigned int cap)
{
	struct batch *b = calloc(1, sizeof(*b));

	if (!b)
		return NULL;
	b->cap = cap;
	b->ev = malloc(cap * sizeof(*b->ev));
	b->str = malloc(cap * sizeof(*b->str));
	b->str2 = malloc(cap * sizeof(*b->str2));
	b->frames = malloc(cap * sizeof(*b->frames));
	if (!b->ev || !b->str || !b->str2 || !b->frames) {
		free(b->ev);
		free(b->str);
		free(b->str2);
		free(b->frames);
		free(b);
		return NULL;
	}
	return b;
}

static void batch_free(struct batch *b)
{
	if (!b)
		return;
	free(b->ev);
	free(b->str);
	free(b->str2);
	free(b->frames);
	free(b->arena);
	free(b);
}

static void batch_reset(struct batch *b)
{
	b->n = 0;
	b->used = 0;
	b->end = b->failed = false;
}

/*
 * Record @rec, counted by event id, decoded into @b: 0, or -1 when out of
 * memory (@b then failed, and ends).
 */
static int take_record(struct lt_decoder *dec, uint32_t *by_id,
		       const struct lt_record *rec, struct batch *b)
{
	if (rec->kind == LT_REC_EVENT)
		by_id[rec->id]++;
	if (lt_decode_record(dec, rec, &b->ev[b->n]) && append(b) < 0) {
		b->failed = b->end = true;
		lt_error_set(&b->err, LT_E_NOMEM,
			     "out of memory while reading events");
		return -1;
	}
	return 0;
}

/* --to counts from the first event, whichever thread reads it. */
struct span {
	bool have_first;
	uint64_t first_ts;
};

/* Whether an event at @ts is past --to: nothing from then on counts. */
static bool past_to(const struct lt_pipe_cfg *cfg, struct span *sp,
		    uint64_t ts)
{
	if (!sp->have_first) {
		sp->have_first = true;
		sp->first_ts = ts;
	}
	return cfg->to_ns >= 0 && ts > sp->first_ts + (uint64_t)cfg->to_ns;
}

/* With --partial, damage stops only its CPU: the first is reported. */
static void note_damage(struct lt_pipe_result *res, const struct lt_error *e)
{
	if (!res->damaged) {
		res->damaged = true;
		res->damage = *e;
	}
}

/* ---- one thread: lt_trace_next() in batches ------------------------- */

/* Read and decode into @b until it is full or the trace ends. */
static void fill_merged(const struct lt_pipe_cfg *cfg, struct lt_pipe_result *res,
			struct batch *b, struct span *sp)
{
	struct lt_error rerr;
	struct lt_record rec;
	int ret;

	batch_reset(b);
	while (b->n < b->cap) {
		ret = lt_trace_next(cfg->trace, &rec, &rerr);
		if (ret < 0) {
			/*
			 * Damage stops only the CPU it is on.  With --partial,
			 * keep what came before it and read the other CPUs on.
			 */
			if (!cfg->partial) {
				b->failed = true;
				b->err = rerr;
				break;
			}
			note_damage(res, &rerr);
			continue;
		}
		if (!ret)
			break;
		if (rec.kind == LT_REC_EVENT) {
			if (past_to(cfg, sp, rec.ts))
				break;
			res->events++;
		}
		if (take_record(cfg->dec, cfg->by_id, &rec, b) < 0)
			break;
	}
	if (b->n < b->cap || b->failed)
		b->end = true;
}

static int run_serial(const struct lt_pipe_cfg *cfg, const struct sink *sink,
		      struct lt_pipe_result *res, struct lt_error *err)
{
	struct batch *b = batch_new(SERIAL_EVENTS);
	struct span sp = { false, 0 };
	uint64_t done, total;
	unsigned int i;
	int ret = 0;

	if (!b) {
		lt_error_set(err, LT_E_NOMEM, "out of memory");
		return -1;
	}
	do {
		fill_merged(cfg, res, b, &sp);
		if (b->failed) {
			*err = b->err;
			ret = -1;
			break;
		}
		for (i = 0; i < b->n; i++)
			if (sink->event(sink->ctx, thaw(b, i)) < 0)
				break;
		if (i < b->n) {
			ret = -1;
			break;
		}
		if (sink->progress) {
			lt_trace_progress(cfg->trace, &done, &total);
			sink->progress(sink->ctx, done, total);
		}
	} while (!b->end);
	batch_free(b);
	return ret;
}

/* ---- CPUs in parallel --------------------------------------------------- */

/*
 * Each CPU of the trace has a queue of batches.  Any thread may fill a
 * stream's next batch, one thread at a time (busy), so a stream's records
 * stay in order.  Workers fill whichever stream has the fewest batches
 * waiting; the caller's thread, when the stream it must merge next is
 * empty, fills it (or another) itself rather than sleep.  So T threads keep
 * T cores busy, with no thread waking another for every batch.
 */
struct queue {
	struct batch *full[QUEUE_DEPTH], *free[QUEUE_DEPTH];
	unsigned int full_head, nr_full, nr_free;
	bool busy;		/* a thread is filling a batch of it */
	bool ended;		/* its last batch is queued */
	uint64_t done;		/* bytes read, as of the batch being merged */
	/* the merge's cursor */
	struct batch *cur;
	unsigned int pos;
};

/* What one thread decodes with. */
struct filler {
	struct lt_decoder dec;		/* a copy: its counters are its own */
	uint32_t *by_id;
};

struct worker {
	pthread_t thread;
	struct par *par;
	struct filler f;
	bool started;
};

struct par {
	const struct lt_pipe_cfg *cfg;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	struct queue *q;
	unsigned int nr, nr_ended;
	bool stop;
};

/* Read and decode stream @s into @b until it is full or the stream ends. */
static void fill_stream(const struct lt_pipe_cfg *cfg, struct filler *f,
			unsigned int s, struct batch *b)
{
	struct lt_record rec;
	int ret;

	batch_reset(b);
	while (b->n < b->cap) {
		ret = lt_trace_stream_next(cfg->trace, s, &rec, &b->err);
		if (ret < 0) {
			/* damage ends this CPU: the merge decides what it means */
			b->failed = b->end = true;
			break;
		}
		if (!ret) {
			b->end = true;
			break;
		}
		if (take_record(&f->dec, f->by_id, &rec, b) < 0)
			break;
	}
	b->done = lt_trace_stream_done(cfg->trace, s);
}

/*
 * With the lock held: fill batch @b of stream @s (claimed: busy) with the
 * lock dropped, then queue it.
 */
static void fill_locked(struct par *par, struct filler *f, unsigned int s,
			struct batch *b)
{
	struct queue *q = &par->q[s];

	pthread_mutex_unlock(&par->lock);
	fill_stream(par->cfg, f, s, b);
	pthread_mutex_lock(&par->lock);
	q->full[(q->full_head + q->nr_full++) % QUEUE_DEPTH] = b;
	q->busy = false;
	if (b->end) {
		q->ended = true;
		par->nr_ended++;
	}
	pthread_cond_broadcast(&par->cond);
}

/*
 * With the lock held: claim a free batch of the stream with the fewest
 * waiting, among those nobody is filling; NULL when there is none.
 */
static struct batch *claim(struct par *par, unsigned int *sp)
{
	unsigned int s, best = UINT_MAX;
	struct queue *q;

	for (s = 0; s < par->nr; s++) {
		q = &par->q[s];
		if (q->busy || q->ended || !q->nr_free)
			continue;
		if (best == UINT_MAX || q->nr_full < par->q[best].nr_full)
			best = s;
	}
	if (best == UINT_MAX)
		return NULL;
	q = &par->q[best];
	q->busy = true;
	*sp = best;
	return q->free[--q->nr_free];
}

static void *worker_main(void *arg)
{
	struct worker *w = arg;
	struct par *par = w->par;
	struct batch *b;
	unsigned int s;

	pthread_mutex_lock(&par->lock);
	while (!par->stop && par->nr_ended < par->nr) {
		b = claim(par, &s);
		if (b)
			fill_locked(par, &w->f, s, b);
		else
			pthread_cond_wait(&par->cond, &par->lock);
	}
	pthread_mutex_unlock(&par->lock);
	return NULL;
}

/*
 * The next batch of stream @s for the merge; NULL when the stream is over.
 * The one it finished goes back for reuse.  Rather than wait for a worker,
 * the caller's thread decodes: stream @s when nobody is on it, else
 * another stream; it waits only while a worker fills @s.
 */
static struct batch *next_batch(struct par *par, struct filler *f,
				unsigned int s)
{
	struct queue *q = &par->q[s];
	struct batch *b;
	unsigned int t;

	pthread_mutex_lock(&par->lock);
	if (q->cur) {
		q->free[q->nr_free++] = q->cur;
		q->cur = NULL;
		pthread_cond_broadcast(&par->cond);
	}
	while (!q->nr_full && !q->ended) {
		if (!q->busy) {
			/* none waiting, none filling: all of its batches are free */
			q->busy = true;
			fill_locked(par, f, s, q->free[--q->nr_free]);
		} else if ((b = claim(par, &t))) {
			fill_locked(par, f, t, b);
		} else {
			pthread_cond_wait(&par->cond, &par->lock);
		}
	}
	b = NULL;
	if (q->nr_full) {
		b = q->full[q->full_head];
		q->full_head = (q->full_head + 1) % QUEUE_DEPTH;
		q->nr_full--;
		q->cur = b;
		q->pos = 0;
	}
	pthread_mutex_unlock(&par->lock);
	if (b)
		q->done = b->done;
	return b;
}

/*
 * Position stream @s on its next event.  Returns 1 with it ready, 0 when
 * the stream is over, -1 when reading failed without --partial.
 */
static int advance(struct par *par, struct filler *f, unsigned int s,
		   struct lt_pipe_result *res, struct lt_error *err)
{
	struct queue *q = &par->q[s];

	while (!q->cur || q->pos >= q->cur->n) {
		if (q->cur && q->cur->failed) {
			if (!par->cfg->partial || q->cur->err.code == LT_E_NOMEM) {
				*err = q->cur->err;
				return -1;
			}
			note_damage(res, &q->cur->err);
		}
		if (q->cur && q->cur->end)
			return 0;
		if (!next_batch(par, f, s))
			return 0;
	}
	return 1;
}

/* Merge the streams' batches into the sink, in time order. */
static int merge(struct par *par, struct filler *f, const struct sink *sink,
		 uint64_t total, struct lt_pipe_result *res,
		 struct lt_error *err)
{
	const struct lt_pipe_cfg *cfg = par->cfg;
	struct lt_tsheap_ent *heap;
	struct span sp = { false, 0 };
	unsigned int len = 0, s, i, tick = 0;
	uint64_t done;
	int ret = 0;

	heap = malloc(par->nr * sizeof(*heap));
	if (!heap) {
		lt_error_set(err, LT_E_NOMEM, "out of memory");
		return -1;
	}
	for (s = 0; s < par->nr; s++) {
		ret = advance(par, f, s, res, err);
		if (ret < 0)
			goto out;
		if (ret) {
			heap[len].ts = par->q[s].cur->ev[par->q[s].pos].ts;
			heap[len++].idx = s;
		}
	}
	ret = 0;
	for (i = len / 2; i-- > 0;)
		lt_tsheap_down(heap, len, i);
	while (len) {
		struct queue *q = &par->q[heap[0].idx];
		const struct lt_ev *ev = &q->cur->ev[q->pos];

		if (ev->kind != LT_EV_LOST) {
			if (past_to(cfg, &sp, ev->ts))
				break;
			res->events++;
		}
		/* consumed before its batch can go back for refilling */
		if (sink->event(sink->ctx, thaw(q->cur, q->pos)) < 0) {
			ret = -1;
			goto out;
		}
		if (sink->progress && ++tick == PROGRESS_EVERY) {
			tick = 0;
			for (done = 0, i = 0; i < par->nr; i++)
				done += par->q[i].done;
			sink->progress(sink->ctx, done, total);
		}
		s = heap[0].idx;
		if (++q->pos >= q->cur->n) {
			ret = advance(par, f, s, res, err);
			if (ret < 0)
				goto out;
			if (!ret) {
				heap[0] = heap[--len];
				lt_tsheap_down(heap, len, 0);
				ret = 0;
				continue;
			}
			ret = 0;
		}
		heap[0].ts = q->cur->ev[q->pos].ts;
		/* with the next record of the same CPU often still the earliest */
		if (len > 1)
			lt_tsheap_down(heap, len, 0);
	}
	if (sink->progress)
		sink->progress(sink->ctx, total, total);
out:
	free(heap);
	return ret;
}

static int filler_init(struct filler *f, const struct lt_pipe_cfg *cfg)
{
	f->dec = *cfg->dec;
	memset(f->dec.counts, 0, sizeof(f->dec.counts));
	memset(f->dec.bad_by_src, 0, sizeof(f->dec.bad_by_src));
	f->dec.field_errors = f->dec.bad_records = 0;
	f->by_id = calloc(65536, sizeof(*f->by_id));
	return f->by_id ? 0 : -1;
}

/* What a thread's decoder and counts saw, added as one reader would. */
static void filler_fold(struct filler *f, const struct lt_pipe_cfg *cfg)
{
	unsigned int k;

	for (k = 0; k < LT_SRC_NR; k++) {
		cfg->dec->counts[k] += f->dec.counts[k];
		cfg->dec->bad_by_src[k] += f->dec.bad_by_src[k];
	}
	cfg->dec->field_errors += f->dec.field_errors;
	cfg->dec->bad_records += f->dec.bad_records;
	for (k = 0; k < 65536; k++)
		cfg->by_id[k] += f->by_id[k];
}

static int run_parallel(const struct lt_pipe_cfg *cfg, unsigned int nr_workers,
			const struct sink *sink, struct lt_pipe_result *res,
			struct lt_error *err)
{
	struct worker workers[MAX_WORKERS];
	unsigned int nr = lt_trace_nr_streams(cfg->trace), cap, i, s, k;
	struct filler self = { .by_id = NULL };
	uint64_t done, total;
	struct par par;
	int ret = -1;

	memset(&par, 0, sizeof(par));
	memset(workers, 0, sizeof(workers));
	par.cfg = cfg;
	par.nr = nr;
	pthread_mutex_init(&par.lock, NULL);
	pthread_cond_init(&par.cond, NULL);
	/* many CPUs get smaller batches: queued events stay a few MB */
	cap = 65536 / nr;
	cap = cap < 256 ? 256 : cap > 4096 ? 4096 : cap;
	par.q = calloc(nr, sizeof(*par.q));
	if (!par.q)
		goto nomem;
	for (s = 0; s < nr; s++)
		for (k = 0; k < QUEUE_DEPTH; k++) {
			struct batch *b = batch_new(cap);

			if (!b)
				goto nomem;
			par.q[s].free[par.q[s].nr_free++] = b;
		}
	if (filler_init(&self, cfg) < 0)
		goto nomem;
	for (i = 0; i < nr_workers; i++) {
		workers[i].par = &par;
		if (filler_init(&workers[i].f, cfg) < 0)
			goto nomem;
	}
	/* read now: once workers run, a stream is read only by its filler */
	lt_trace_progress(cfg->trace, &done, &total);
	for (i = 0; i < nr_workers; i++) {
		if (pthread_create(&workers[i].thread, NULL, worker_main,
				   &workers[i])) {
			lt_error_set(err, LT_E_INTERNAL, "cannot start a thread");
			goto stop;
		}
		workers[i].started = true;
	}
	ret = merge(&par, &self, sink, total, res, err);
stop:
	pthread_mutex_lock(&par.lock);
	par.stop = true;
	pthread_cond_broadcast(&par.cond);
	pthread_mutex_unlock(&par.lock);
	for (i = 0; i < nr_workers; i++)
		if (workers[i].started)
			pthread_join(workers[i].thread, NULL);
	filler_fold(&self, cfg);
	for (i = 0; i < nr_workers; i++)
		if (workers[i].started)
			filler_fold(&workers[i].f, cfg);
	goto out;
nomem:
	lt_error_set(err, LT_E_NOMEM, "out of memory");
out:
	free(self.by_id);
	for (i = 0; i < nr_workers; i++)
		free(workers[i].f.by_id);
	for (s = 0; par.q && s < nr; s++) {
		struct queue *q = &par.q[s];

		batch_free(q->cur);
		for (k = 0; k < q->nr_free; k++)
			batch_free(q->free[k]);
		for (k = 0; k < q->nr_full; k++)
			batch_free(q->full[(q->full_head + k) % QUEUE_DEPTH]);
	}
	free(par.q);
	pthread_cond_destroy(&par.cond);
	pthread_mutex_destroy(&par.lock);
	return ret;
}

unsigned int lt_pipe_usable_cpus(void)
{
	cpu_set_t set;
	long n;

	/* what taskset and cgroups leave us, not what the machine has */
	if (!sched_getaffinity(0, sizeof(set), &set))
		return CPU_COUNT(&set) > 0 ? (unsigned int)CPU_COUNT(&set) : 1;
	n = sysconf(_SC_NPROCESSORS_ONLN);
	return n > 0 ? (unsigned int)n : 1;
}

int lt_pipe_run(const struct lt_pipe_cfg *cfg, lt_pipe_event_fn event,
		lt_pipe_progress_fn progress, void *ctx,
		struct lt_pipe_result *res, struct lt_error *err)
{
	unsigned int streams = lt_trace_nr_streams(cfg->trace);
	struct sink sink = { event, progress, ctx };
	unsigned int threads = cfg->threads;

	memset(res, 0, sizeof(*res));
	/* more threads than CPUs in the file would find nothing to fill */
	if (threads > streams)
		threads = streams;
	if (threads < 2)
		return run_serial(cfg, &sink, res, err);
	if (threads - 1 > MAX_WORKERS)
		threads = MAX_WORKERS + 1;
	return run_parallel(cfg, threads - 1, &sink, res, err);
}
