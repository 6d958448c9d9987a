// SPDX-License-Identifier: LGPL-2.1
/*
 * pipe.c - read and decode in batches, on a second thread (lt-pipe.h).
 *
 * Three batches circulate: the producer fills a free one while the
 * consumer replays a full one, so each side waits only when the other
 * is a whole batch behind.  A batch owns copies of every string and
 * stack its events point to, because records die at the next read.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "lt-pipe.h"

#define BATCH_EVENTS	8192
#define NR_BATCHES	3

struct batch {
	struct lt_ev ev[BATCH_EVENTS];
	/* arena offsets of the copies, +1 (0: no copy) */
	uint32_t str[BATCH_EVENTS], str2[BATCH_EVENTS], frames[BATCH_EVENTS];
	unsigned int n;
	char *arena;
	size_t used, cap;
	uint64_t done, total;	/* progress when it was filled */
	bool end;		/* the last batch */
	bool failed;		/* reading failed: err says why */
	struct lt_error err;
};

struct pipe {
	const struct lt_pipe_cfg *cfg;
	struct lt_pipe_result *res;
	struct batch *batches[NR_BATCHES];
	/* queues of batch pointers, guarded by lock */
	pthread_mutex_t lock;
	pthread_cond_t cond;
	struct batch *full[NR_BATCHES], *free[NR_BATCHES];
	unsigned int nr_full, full_head, nr_free;
	bool stop;		/* the consumer gave up */
	/* producer state */
	bool have_first, done;
	uint64_t first_ts;
};

/* Copy @len bytes into the batch arena; offset + 1, or 0 on ENOMEM. */
static uint32_t stash(struct batch *b, const void *p, size_t len, size_t align)
{
	size_t off = (b->used + align - 1) & ~(align - 1);

	if (off + len + 1 > b->cap) {
		size_t ncap = b->cap ? b->cap : 1 << 16;
		char *a;

		while (ncap < off + len + 1)
			ncap *= 2;
		if (ncap > UINT32_MAX)
			return 0;
		a = realloc(b->arena, ncap);
		if (!a)
			return 0;
		b->arena = a;
		b->cap = ncap;
	}
	memcpy(b->arena + off, p, len);
	b->arena[off + len] = '\0';
	b->used = off + len + 1;
	return (uint32_t)off + 1;
}

static int append(struct batch *b, const struct lt_ev *ev)
{
	unsigned int i = b->n;

	b->ev[i] = *ev;
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

/* Read and decode into @b until it is full or the trace ends. */
static void fill(struct pipe *p, struct batch *b)
{
	const struct lt_pipe_cfg *cfg = p->cfg;
	struct lt_error rerr;
	struct lt_record rec;
	struct lt_ev ev;
	int ret;

	b->n = 0;
	b->used = 0;
	b->end = b->failed = false;
	while (b->n < BATCH_EVENTS) {
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
			if (!p->res->damaged) {
				p->res->damaged = true;
				p->res->damage = rerr;
			}
			continue;
		}
		if (!ret)
			break;
		if (rec.kind == LT_REC_EVENT) {
			if (!p->have_first) {
				p->have_first = true;
				p->first_ts = rec.ts;
			}
			if (cfg->to_ns >= 0 &&
			    rec.ts > p->first_ts + (uint64_t)cfg->to_ns)
				break;	/* nothing later can count */
			p->res->events++;
			cfg->by_id[rec.id]++;
		}
		if (lt_decode_record(cfg->dec, &rec, &ev) && append(b, &ev) < 0) {
			b->failed = true;
			lt_error_set(&b->err, LT_E_NOMEM,
				     "out of memory while reading events");
			break;
		}
	}
	if (b->n < BATCH_EVENTS || b->failed)
		b->end = true;
	lt_trace_progress(cfg->trace, &b->done, &b->total);
}

static void *producer(void *arg)
{
	struct pipe *p = arg;
	struct batch *b;
	bool end;

	do {
		pthread_mutex_lock(&p->lock);
		while (!p->nr_free && !p->stop)
			pthread_cond_wait(&p->cond, &p->lock);
		if (p->stop) {
			pthread_mutex_unlock(&p->lock);
			break;
		}
		b = p->free[--p->nr_free];
		pthread_mutex_unlock(&p->lock);

		fill(p, b);
		end = b->end;

		pthread_mutex_lock(&p->lock);
		p->full[(p->full_head + p->nr_full++) % NR_BATCHES] = b;
		pthread_cond_broadcast(&p->cond);
		pthread_mutex_unlock(&p->lock);
	} while (!end);
	return NULL;
}

/* Feed one batch to the consumer, pointers restored from offsets. */
static int consume(struct batch *b, lt_pipe_consume_fn fn, void *ctx)
{
	unsigned int i;

	for (i = 0; i < b->n; i++) {
		struct lt_ev *ev = &b->ev[i];

		if (b->str[i])
			ev->str = b->arena + b->str[i] - 1;
		if (b->str2[i])
			ev->str2 = b->arena + b->str2[i] - 1;
		if (b->frames[i])
			ev->frames = (const uint64_t *)(b->arena + b->frames[i] - 1);
	}
	return fn(ctx, b->ev, b->n, b->done, b->total);
}

static int run_serial(struct pipe *p, lt_pipe_consume_fn fn, void *ctx,
		      struct lt_error *err)
{
	struct batch *b = p->batches[0];

	do {
		fill(p, b);
		if (b->failed) {
			*err = b->err;
			return -1;
		}
		if (consume(b, fn, ctx) < 0)
			return -1;
	} while (!b->end);
	return 0;
}

static int run_threaded(struct pipe *p, lt_pipe_consume_fn fn, void *ctx,
			struct lt_error *err)
{
	pthread_t thread;
	struct batch *b;
	int ret = 0;
	bool end = false;

	if (pthread_create(&thread, NULL, producer, p))
		return run_serial(p, fn, ctx, err);
	while (!end) {
		pthread_mutex_lock(&p->lock);
		while (!p->nr_full)
			pthread_cond_wait(&p->cond, &p->lock);
		b = p->full[p->full_head];
		p->full_head = (p->full_head + 1) % NR_BATCHES;
		p->nr_full--;
		pthread_mutex_unlock(&p->lock);

		end = b->end;
		if (b->failed) {
			*err = b->err;
			ret = -1;
		} else if (consume(b, fn, ctx) < 0) {
			ret = -1;
		}

		pthread_mutex_lock(&p->lock);
		p->free[p->nr_free++] = b;
		if (ret < 0)
			p->stop = true;
		pthread_cond_broadcast(&p->cond);
		pthread_mutex_unlock(&p->lock);
		if (ret < 0)
			break;
	}
	pthread_join(thread, NULL);
	return ret;
}

int lt_pipe_run(const struct lt_pipe_cfg *cfg, lt_pipe_consume_fn fn,
		void *ctx, struct lt_pipe_result *res, struct lt_error *err)
{
	struct pipe p;
	int i, nr = cfg->threaded ? NR_BATCHES : 1, ret = -1;

	memset(&p, 0, sizeof(p));
	memset(res, 0, sizeof(*res));
	p.cfg = cfg;
	p.res = res;
	for (i = 0; i < nr; i++) {
		p.batches[i] = calloc(1, sizeof(*p.batches[i]));
		if (!p.batches[i]) {
			lt_error_set(err, LT_E_NOMEM, "out of memory");
			goto out;
		}
		p.free[p.nr_free++] = p.batches[i];
	}
	if (cfg->threaded) {
		pthread_mutex_init(&p.lock, NULL);
		pthread_cond_init(&p.cond, NULL);
		ret = run_threaded(&p, fn, ctx, err);
		pthread_cond_destroy(&p.cond);
		pthread_mutex_destroy(&p.lock);
	} else {
		ret = run_serial(&p, fn, ctx, err);
	}
out:
	for (i = 0; i < nr; i++) {
		if (p.batches[i])
			free(p.batches[i]->arena);
		free(p.batches[i]);
	}
	return ret;
}
