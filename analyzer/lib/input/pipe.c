// SPDX-License-Identifier: LGPL-2.1
/*
 * pipe.c - read and decode in batches, on several threads (lt-pipe.h).
 *
 * Reading and decoding a record costs about twice what replaying it does,
 * so one reader thread cannot keep a replay busy.  Each CPU's data is cut
 * into ranges of pages, read and decoded into batches (strings and stacks
 * copied out of the records, which die at the next read) by worker threads
 * and, when it would otherwise wait, the caller's thread, which merges the
 * CPUs by timestamp, ties in CPU order exactly as lt_trace_next() does,
 * and replays.  With threads off, the same batches are made and consumed
 * in turn from lt_trace_next().
 *
 * A stream that cannot be cut into ranges (a perf.data) goes the same way
 * on two threads, one making the batches and the caller's replaying them
 * (lt_pipe_stream(), at the end).
 */
#define _GNU_SOURCE
#include <limits.h>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#include <immintrin.h>
#define HAVE_CLFLUSHOPT 1
#endif

#include "lt-bigmem.h"
#include "lt-pipe.h"
#include "lt-thread.h"
#include "lt-tsheap.h"

#define SERIAL_EVENTS	8192
#define MAX_WORKERS	16
#define PROGRESS_EVERY	(1u << 16)	/* events between progress calls */

struct sink {
	lt_input_event_fn event;
	lt_input_progress_fn progress;
	void *ctx;
};

struct batch {
	struct lt_ev *ev;
	unsigned int n, cap;
	unsigned int next;	/* the next event to hand on */
	bool in_slab;		/* the array is carved from a slab */
	bool arena_in_slab;	/* so is the arena, until it outgrows it */
	char *arena;		/* the events' strings and stacks, in order */
	size_t used, size;
	uint64_t done;		/* the range's bytes read when it was filled */
	uint64_t total;		/* a stream's: progress said in it, in all */
	bool said;		/* ... when its maker said some */
	bool end;		/* the range's (or the stream's) last batch */
	bool last;		/* of the CPU's last range */
	bool failed;		/* reading failed: err says why */
	struct lt_error err;
};

/* @ptr, if it points into @old's @len bytes, moved to @new (their copy). */
static inline const void *rebase(const void *ptr, uintptr_t old, size_t len,
				 const char *new)
{
	uintptr_t p = (uintptr_t)ptr;

	return p >= old && p < old + len ? new + (p - old) : ptr;
}

/*
 * The arena, grown to @size, moves: the events' pointers into it (those
 * of b->ev[b->n], being appended, too) move with it.  Rare: only stacks
 * outgrow the slab's share.
 */
static int arena_grow(struct batch *b, size_t size)
{
	uintptr_t old = (uintptr_t)b->arena;
	char *a = malloc(size);
	unsigned int i;

	if (!a)
		return -1;
	if (b->used)
		memcpy(a, b->arena, b->used);
	for (i = 0; i <= b->n; i++) {
		struct lt_ev *ev = &b->ev[i];

		ev->str = rebase(ev->str, old, b->used, a);
		ev->str2 = rebase(ev->str2, old, b->used, a);
		/* elsewhere that word is a cookie, which may look like one */
		if (ev->kind == LT_EV_STACK)
			ev->frames = rebase(ev->frames, old, b->used, a);
	}
	/* the slab's share stays with the batch, unused */
	if (!b->arena_in_slab)
		free(b->arena);
	b->arena = a;
	b->arena_in_slab = false;
	b->size = size;
	return 0;
}

/*
 * A copy of @len bytes, aligned to @align, in @b's arena (with a NUL after
 * it); NULL when out of memory.
 */
static const void *stash(struct batch *b, const void *p, size_t len,
			 size_t align)
{
	size_t off = (b->used + align - 1) & ~(align - 1), end = off + len + 1;

	if (end > b->size) {
		size_t nsize = b->size ? b->size : 1 << 16;

		while (nsize < end)
			nsize *= 2;
		if (arena_grow(b, nsize) < 0)
			return NULL;
	}
	memcpy(b->arena + off, p, len);
	b->arena[off + len] = '\0';
	b->used = end;
	return b->arena + off;
}

/* Its frames stay in the decoder's stack pool: nothing to copy. */
static inline bool pooled(const struct lt_ev *ev)
{
	return ev->kind == LT_EV_STACK && ev->value;
}

/*
 * Event b->ev[b->n], decoded in place, joins the batch: the strings and
 * stack it points to are copied into the arena, and it points to the
 * copies.  The thread that fills a batch writes it, the one that merges
 * it only reads it (see batch_evict()).
 */
static int append(struct batch *b)
{
	struct lt_ev *ev = &b->ev[b->n];

	if (ev->str_len && !(ev->str = stash(b, ev->str, ev->str_len, 1)))
		return -1;
	if (ev->str2_len && !(ev->str2 = stash(b, ev->str2, ev->str2_len, 1)))
		return -1;
	if (ev->nr_frames && !pooled(ev) &&
	    !(ev->frames = stash(b, ev->frames,
				 ev->nr_frames * sizeof(*ev->frames), 8)))
		return -1;
	b->n++;
	return 0;
}

/* The batch's next event. */
static inline struct lt_ev *batch_next(struct batch *b)
{
	return &b->ev[b->next++];
}

/*
 * A batch's arena share of the slab: two task names an event, what the
 * scheduler events need.  Stacks outgrow it (into the heap).
 */
#define SLAB_ARENA_PER_EVENT	32

/*
 * Bytes of a batch's events and arena share, when carved from a slab:
 * whole cache lines, so that two threads filling neighbours never write
 * to one line.
 */
static size_t batch_bytes(unsigned int cap, size_t arena_per_event)
{
	size_t n = (size_t)cap * (sizeof(struct lt_ev) + arena_per_event);

	return (n + LT_CACHE_LINE - 1) & ~(size_t)(LT_CACHE_LINE - 1);
}

/* Filled on one thread, merged on another: lines of its own. */
static struct batch *batch_carve(unsigned int cap, size_t arena_per_event,
				 char **slab)
{
	struct batch *b = lt_thread_own_alloc(sizeof(*b));

	if (!b)
		return NULL;
	b->cap = cap;
	b->in_slab = true;
	b->ev = (struct lt_ev *)*slab;
	b->arena = *slab + (size_t)cap * sizeof(*b->ev);
	b->arena_in_slab = true;
	b->size = (size_t)cap * arena_per_event;
	*slab += batch_bytes(cap, arena_per_event);
	return b;
}

static struct batch *batch_new(unsigned int cap)
{
	struct batch *b = lt_thread_own_alloc(sizeof(*b));

	if (!b)
		return NULL;
	b->cap = cap;
	b->ev = malloc(cap * sizeof(*b->ev));
	if (!b->ev) {
		free(b);
		return NULL;
	}
	return b;
}

static void batch_free(struct batch *b)
{
	if (!b)
		return;
	if (!b->in_slab)
		free(b->ev);
	if (!b->arena_in_slab)
		free(b->arena);
	free(b);
}

static void batch_reset(struct batch *b)
{
	b->n = b->next = 0;
	b->used = 0;
	b->end = b->failed = false;
}

/*
 * Record @rec, counted by event id, decoded into @b: 0, or -1 when out of
 * memory (@b then failed, and ends).
 */
static int take_record(struct lt_decoder *dec, uint32_t *by_id,
		       unsigned int other, const struct lt_record *rec,
		       struct batch *b)
{
	if (rec->kind == LT_REC_EVENT)
		by_id[rec->id < other ? rec->id : other]++;
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

/*
 * Whether an event at @ts is past --to: nothing from then on counts, and
 * the result says the read was cut.
 */
static bool past_to(const struct lt_pipe_cfg *cfg, struct span *sp,
		    uint64_t ts, struct lt_input_result *res)
{
	if (!sp->have_first) {
		sp->have_first = true;
		sp->first_ts = ts;
	}
	if (cfg->run->to_ns < 0 || ts <= sp->first_ts + (uint64_t)cfg->run->to_ns)
		return false;
	res->cut = true;
	return true;
}

/*
 * With --partial, damage stops only its CPU: the first is told, the others
 * counted (those met before --to, if it cuts the read).
 */
static void note_damage(struct lt_input_result *res, const struct lt_error *e)
{
	res->nr_damaged++;
	if (!res->damaged) {
		res->damaged = true;
		res->damage = *e;
	}
}

/* ---- one thread: lt_trace_next() in batches ------------------------- */

/* Read and decode into @b until it is full or the trace ends. */
static void fill_merged(const struct lt_pipe_cfg *cfg, struct lt_input_result *res,
			struct batch *b, struct span *sp)
{
	unsigned int other = lt_trace_event_id_limit(cfg->trace);
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
			 * Running out of memory is not damage: it stops all.
			 */
			if (!cfg->run->partial || rerr.code == LT_E_NOMEM) {
				b->failed = true;
				b->err = rerr;
				break;
			}
			note_damage(res, &rerr);
			/* that CPU's data ends: a gap from its last record on */
			rec.kind = LT_REC_LOST;
			rec.cpu = lt_trace_failed_cpu(cfg->trace, &rec.ts);
			rec.lost = LT_REC_DATA_END;
			if (take_record(cfg->run->dec, cfg->run->by_id, other,
					&rec, b) < 0)
				break;
			continue;
		}
		if (!ret)
			break;
		if (rec.kind == LT_REC_EVENT) {
			if (past_to(cfg, sp, rec.ts, res))
				break;
			res->events++;
		}
		if (take_record(cfg->run->dec, cfg->run->by_id, other, &rec, b) < 0)
			break;
	}
	if (b->n < b->cap || b->failed)
		b->end = true;
}

/* AddressSanitizer sees each batch's bounds only in its own allocation. */
#ifdef LT_ASAN
#define USE_SLAB	0
#else
#define USE_SLAB	1
#endif

static int run_serial(const struct lt_pipe_cfg *cfg, const struct sink *sink,
		      struct lt_input_result *res, struct lt_error *err)
{
	/* a huge page for the one batch too: ~240 faults fewer */
	size_t slab_size = batch_bytes(SERIAL_EVENTS, SLAB_ARENA_PER_EVENT);
	char *slab = USE_SLAB ? lt_big_alloc(slab_size) : NULL, *carve = slab;
	struct batch *b = slab ? batch_carve(SERIAL_EVENTS, SLAB_ARENA_PER_EVENT,
					     &carve) :
				 batch_new(SERIAL_EVENTS);
	struct span sp = { false, 0 };
	uint64_t done, total;
	unsigned int i;
	int ret = 0;

	if (!b) {
		lt_big_free(slab, slab_size);
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
			if (sink->event(sink->ctx, batch_next(b)) < 0)
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
	lt_big_free(slab, slab_size);
	return ret;
}

/* ---- CPUs in parallel --------------------------------------------------- */

/*
 * Each CPU's data is read as a run of ranges (lt_trace_range_cut()) that
 * need nothing from each other, a few of them open at once, each with a
 * short queue of batches.  Any thread may fill any open range's next
 * batch, one thread per range at a time, so a range's records stay in
 * order.  Workers fill the most urgent (the range the merge is on first,
 * then the next ones); the caller's thread, when the batch it must merge
 * next is not ready, fills it or another itself rather than sleep.  So
 * several threads can decode one busy CPU, and T threads keep T cores
 * busy without waking each other for every batch.
 */
#define RANGE_BYTES	(1u << 20)	/* of data per range: ~15k events */
#define MAX_LOOKAHEAD	4		/* ranges of a CPU open at once */
#define RANGE_QUEUE	4		/* batches a range may have waiting */
#define POOL		(MAX_LOOKAHEAD * RANGE_QUEUE + 1)	/* + the merge's */
/*
 * Events in all batches (~3 MB with their arenas).  They are fresh memory,
 * first touched during the run, which on this project's VM is dear after
 * an idle spell: with 128k, len1x-v6 (0.5 M events) took 32.5 ms at -j2,
 * with 32k 29.3 (medians of 80 alternated runs, 0.6 s idle before each),
 * with 16k no less.  On big traces fewer events queued can starve the
 * merge: see the lookahead in run_parallel().
 */
#define QUEUED_EVENTS	32768

struct range_slot {
	struct lt_trace_range *r;
	struct batch *full[RANGE_QUEUE];
	unsigned int full_head, nr_full;
	bool busy;		/* a thread is filling a batch of it */
	bool ended;		/* its last batch is queued */
	bool last;		/* the CPU's last range */
	int stack_pid;		/* the decoder's state for this CPU, between batches */
};

/*
 * Shared by the threads, under the lock, then, in lines of their own, the
 * merge's: read for every event, they missed in the merging core's cache
 * whenever a worker had taken a batch from the pool beside them.  On a
 * 32-CPU trace that made -j2 slower than -j1 (see merge()).
 */
struct queue {
	int cpu;			/* as the records say */
	struct range_slot slot[MAX_LOOKAHEAD];
	unsigned int head, nr_open;	/* slot[head] is the merge's */
	unsigned int nr_cut;		/* ranges cut so far */
	bool cut_over;			/* no more ranges */
	bool cut_failed;		/* ... for want of memory */
	bool cutting;			/* a thread is cutting a range */
	bool stopped;			/* damaged: the merge reads no further */
	bool damaged;			/* its data ended in damage (--partial) */
	struct lt_trace_range *spare;	/* read: its buffers serve the next */
	struct batch *pool[POOL];	/* a ring: see pool_take() */
	unsigned int pool_head, nr_pool;

	/* being merged, from cur->next on */
	struct batch *cur __attribute__((aligned(LT_CACHE_LINE)));
	uint64_t done_base;		/* bytes of the ranges merged */
	uint64_t done;			/* ... and of the batch being merged */
	/* the last record merged, for stacks at range starts */
	enum lt_ev_kind last_kind;
	int last_pid;
	uint64_t last_ts;		/* ... and its time (losses are keyed so) */
};

/* What one thread decodes with. */
struct filler {
	struct lt_decoder dec;		/* a copy: its counters are its own */
	uint32_t *by_id;		/* as lt_pipe_cfg's */
	unsigned int other;		/* by_id's slot for ids of no format */
};

/* Whole lines each, from lt_thread_own_alloc(): its filler's counts. */
struct worker {
	pthread_t thread;
	struct par *par;
	struct filler f;
	bool started;
} __attribute__((aligned(LT_CACHE_LINE)));

struct par {
	const struct lt_pipe_cfg *cfg;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	struct queue *q;
	unsigned int nr, nr_live, lookahead;
	uint64_t range_bytes;
	bool evict;		/* batch_evict() before filling */
	bool spin;		/* par_wait() spins first: a CPU each */
	bool stop;
	unsigned int wakes;	/* par_wake() calls, for spinning waiters */
};

/*
 * A thread that sleeps leaves its CPU idle, and in a VM an idle vCPU is
 * halted: the waker then pays a futex call and an interrupt to the other
 * vCPU, and the sleeper waits for the host to run it again.  Most waits
 * are short (a worker that is ahead waits for the merge to give a batch
 * back), so where every thread has a CPU of its own, a waiter first
 * watches the wake-up count with the lock dropped, and the lock spins a
 * little before sleeping too.  The watch lasts 2 ms: with the wake-up
 * chains the merge gives a batch back less often, and at 200 us nearly
 * every wait of the worker timed out on big-v6 (about 800 a run), some
 * for 1-10 ms, while the merge decoded its next batches itself: its
 * median run took 0.435 s against 0.403 (big-zstd 0.514 against 0.480,
 * 9 alternated runs; the fastest and the CPU time alike).
 */
#define SPIN_NS		2000000

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static inline void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
	_mm_pause();
#endif
}

/* With the lock held: wake the waiters, spinning or asleep. */
static void par_wake(struct par *par)
{
	__atomic_store_n(&par->wakes, par->wakes + 1, __ATOMIC_RELAXED);
	pthread_cond_broadcast(&par->cond);
}

/* With the lock held, as pthread_cond_wait(): until a par_wake(), or not. */
static void par_wait(struct par *par)
{
	unsigned int seen = par->wakes;
	uint64_t until;

	if (par->spin) {
		pthread_mutex_unlock(&par->lock);
		until = now_ns() + SPIN_NS;
		while (__atomic_load_n(&par->wakes, __ATOMIC_RELAXED) == seen &&
		       now_ns() < until)
			cpu_relax();
		pthread_mutex_lock(&par->lock);
		if (par->wakes != seen)
			return;
	}
	pthread_cond_wait(&par->cond, &par->lock);
}

/*
 * Free batches are taken in turn, not the last one given back: every
 * batch is soon in use, so peak memory is the whole budget on any trace
 * longer than it holds, not however far the decoding once ran ahead.
 */
static struct batch *pool_take(struct queue *q)
{
	struct batch *b = q->pool[q->pool_head];

	q->pool_head = (q->pool_head + 1) % POOL;
	q->nr_pool--;
	return b;
}

static void pool_put(struct queue *q, struct batch *b)
{
	q->pool[(q->pool_head + q->nr_pool++) % POOL] = b;
}

/*
 * With the lock held, which it may drop: open ranges of CPU @s up to the
 * lookahead.  A cut of compressed data reads a chunk header every few KB
 * of the file and drops the pages behind: 40-60 us a range on this
 * project's VM.  With the lock held the other thread slept on it and,
 * its vCPU halted, woke up late (len1x-zstd at -j2: 14-20 context
 * switches a run, 4-5 since).  So the cut is made with the lock dropped,
 * by one thread at a time for each CPU, which keeps its ranges in order;
 * meanwhile the others may take and give back batches, but nobody cuts
 * that CPU nor calls it over.
 */
static void top_up(struct par *par, unsigned int s)
{
	struct queue *q = &par->q[s];
	struct range_slot *sl;
	struct lt_trace_range *r;
	bool last;
	int ret;

	while (!q->cut_over && !q->stopped && !q->cutting &&
	       q->nr_open < par->lookahead) {
		r = q->spare;
		q->spare = NULL;
		q->cutting = true;
		pthread_mutex_unlock(&par->lock);
		ret = lt_trace_range_cut(par->cfg->trace, s, par->range_bytes,
					 &r, &last);
		pthread_mutex_lock(&par->lock);
		q->cutting = false;
		par_wake(par);
		if (ret <= 0) {
			if (q->spare)
				lt_trace_range_free(par->cfg->trace, r);
			else
				q->spare = r;
			q->cut_over = true;
			q->cut_failed = ret < 0;
			break;
		}
		sl = &q->slot[(q->head + q->nr_open++) % MAX_LOOKAHEAD];
		memset(sl, 0, sizeof(*sl));
		sl->r = r;
		sl->last = last;
		/* the first range starts the CPU: no switch came before it */
		sl->stack_pid = q->nr_cut++ ? LT_DECODE_PID_UNKNOWN : -1;
		if (last)
			q->cut_over = true;
	}
}

/*
 * Where the two threads run on cores that share no cache (two core
 * complexes, two sockets, or a VM's vCPUs placed so), a batch the merging
 * thread has read is still in its caches when it comes back for filling,
 * and each store of the filling thread waits for that core to give the
 * line up: on this project's 2-vCPU VM, the worker then decoded at half
 * the merging thread's speed (80-110 vs 40 ns an event).  So the filling
 * thread first evicts the batch's lines from all caches with clflushopt,
 * which is not ordered and keeps many in flight, and its stores then find
 * them nowhere.  Where the cores do share a cache this costs the lines
 * a trip to memory: 5% with both threads on one CPU.
 */
#ifdef HAVE_CLFLUSHOPT
static bool evict_supported(void)
{
	unsigned int a, b, c, d;

	return __get_cpuid_count(7, 0, &a, &b, &c, &d) && (b & (1u << 23));
}

__attribute__((target("clflushopt")))
static void evict(const void *p, size_t len)
{
	uintptr_t c = (uintptr_t)p & ~(uintptr_t)(LT_CACHE_LINE - 1);
	uintptr_t end = (uintptr_t)p + len;

	for (; c < end; c += LT_CACHE_LINE)
		_mm_clflushopt((void *)c);
}

/*
 * Before @b is filled again: what the other thread read of it (the rest
 * of its lines it never saw).
 */
static void batch_evict(const struct batch *b)
{
	evict(b->ev, b->n * sizeof(*b->ev));
	if (b->arena)
		evict(b->arena, b->used);
}
#else
static bool evict_supported(void)
{
	return false;
}

static void batch_evict(const struct batch *b)
{
	(void)b;
}
#endif

/* Read and decode @sl's range into @b until it is full or the range ends. */
static void fill_range(const struct lt_pipe_cfg *cfg, struct filler *f,
		       int cpu, struct range_slot *sl, struct batch *b)
{
	bool track = cpu >= 0 && cpu < f->dec.nr_cpus;
	struct lt_record rec;
	int ret;

	batch_reset(b);
	if (track)
		f->dec.stack_pid[cpu] = sl->stack_pid;
	while (b->n < b->cap) {
		ret = lt_trace_range_next(cfg->trace, sl->r, &rec, &b->err);
		if (ret < 0) {
			/* damage ends this CPU: the merge decides what it means */
			b->failed = b->end = true;
			break;
		}
		if (!ret) {
			b->end = true;
			break;
		}
		if (take_record(&f->dec, f->by_id, f->other, &rec, b) < 0)
			break;
	}
	if (track)
		sl->stack_pid = f->dec.stack_pid[cpu];
	b->last = sl->last;
	b->done = lt_trace_range_done(sl->r);
}

/*
 * With the lock held: fill batch @b of slot @sl of CPU @s (claimed: busy)
 * with the lock dropped, then queue it.
 */
static void fill_locked(struct par *par, struct filler *f, unsigned int s,
			struct range_slot *sl, struct batch *b)
{
	pthread_mutex_unlock(&par->lock);
	if (par->evict)
		batch_evict(b);
	fill_range(par->cfg, f, par->q[s].cpu, sl, b);
	pthread_mutex_lock(&par->lock);
	sl->full[(sl->full_head + sl->nr_full++) % RANGE_QUEUE] = b;
	sl->busy = false;
	if (b->end)
		sl->ended = true;
	par_wake(par);
}

/*
 * With the lock held: claim a batch to fill in the most urgent open range
 * nobody is filling (the nearest to its CPU's merge, the emptiest); NULL
 * when there is none.
 */
static struct batch *claim(struct par *par, unsigned int *sp,
			   struct range_slot **slp)
{
	unsigned int s, i, score, best_score = UINT_MAX;
	struct range_slot *sl, *best = NULL;
	struct queue *q;

	/* first, as it may drop the lock: what is seen after holds */
	for (s = 0; s < par->nr; s++)
		if (!par->q[s].stopped && par->q[s].nr_pool)
			top_up(par, s);
	for (s = 0; s < par->nr; s++) {
		q = &par->q[s];
		if (q->stopped || !q->nr_pool)
			continue;
		for (i = 0; i < q->nr_open; i++) {
			sl = &q->slot[(q->head + i) % MAX_LOOKAHEAD];
			if (sl->busy || sl->ended || sl->nr_full >= RANGE_QUEUE)
				continue;
			score = i * RANGE_QUEUE + sl->nr_full;
			if (score < best_score) {
				best_score = score;
				best = sl;
				*sp = s;
			}
			break;	/* later ranges of this CPU are less urgent */
		}
	}
	if (!best)
		return NULL;
	best->busy = true;
	*slp = best;
	return pool_take(&par->q[*sp]);
}

/*
 * With the lock held: whether every range of every CPU is cut and read to
 * its end, so that nothing is left to fill, only batches to merge.
 */
static bool all_read(const struct par *par)
{
	const struct queue *q;
	unsigned int s, i;

	for (s = 0; s < par->nr; s++) {
		q = &par->q[s];
		if (q->stopped)
			continue;
		if (!q->cut_over)
			return false;
		for (i = 0; i < q->nr_open; i++)
			if (!q->slot[(q->head + i) % MAX_LOOKAHEAD].ended)
				return false;
	}
	return true;
}

static void *worker_main(void *arg)
{
	struct worker *w = arg;
	struct par *par = w->par;
	struct range_slot *sl;
	struct batch *b;
	unsigned int s;

	pthread_mutex_lock(&par->lock);
	while (!par->stop && par->nr_live) {
		b = claim(par, &s, &sl);
		if (b)
			fill_locked(par, &w->f, s, sl, b);
		else if (all_read(par))
			break;	/* gone before the merge ends: no wait to join */
		else
			par_wait(par);
	}
	pthread_mutex_unlock(&par->lock);
	return NULL;
}

/* With the lock held: CPU @s is over for the merge. */
static void cpu_over(struct par *par, struct queue *q)
{
	if (!q->stopped) {
		q->stopped = true;
		par->nr_live--;
		par_wake(par);
	}
}

/*
 * The next batch of CPU @s for the merge; NULL when the CPU is over (or,
 * with *@nomem set, when a range could not be cut).  The one it finished
 * goes back to the pool.  Rather than wait for a worker, the caller's
 * thread decodes: the range it needs when nobody is on it, else another;
 * it waits only while a worker fills the range it needs.
 */
static struct batch *next_batch(struct par *par, struct filler *f,
				unsigned int s, bool *nomem)
{
	struct queue *q = &par->q[s];
	struct range_slot *sl, *other;
	struct batch *b = NULL;
	unsigned int t, wakes;

	pthread_mutex_lock(&par->lock);
	if (q->cur) {
		pool_put(q, q->cur);
		q->cur = NULL;
		par_wake(par);
	}
	for (;;) {
		top_up(par, s);
		if (!q->nr_open && q->cutting) {
			par_wait(par);	/* another thread is cutting its range */
			continue;
		}
		if (!q->nr_open) {
			*nomem = q->cut_failed;
			cpu_over(par, q);
			break;
		}
		sl = &q->slot[q->head];
		if (sl->nr_full) {
			b = sl->full[sl->full_head];
			sl->full_head = (sl->full_head + 1) % RANGE_QUEUE;
			sl->nr_full--;
			break;
		}
		if (sl->ended) {
			/* all of it merged: the range's data is in the batches */
			q->done_base += lt_trace_range_done(sl->r);
			if (q->spare)
				lt_trace_range_free(par->cfg->trace, q->spare);
			q->spare = sl->r;
			sl->r = NULL;
			q->head = (q->head + 1) % MAX_LOOKAHEAD;
			q->nr_open--;
			par_wake(par);	/* room for a range */
			continue;
		}
		if (!sl->busy) {
			/* none waiting, none filling: the pool has a batch */
			sl->busy = true;
			fill_locked(par, f, s, sl, pool_take(q));
			continue;
		}
		wakes = par->wakes;
		if ((b = claim(par, &t, &other))) {
			fill_locked(par, f, t, other, b);
			b = NULL;
		} else if (par->wakes == wakes) {
			par_wait(par);
		}	/* else claim() dropped the lock: @sl may be ready now */
	}
	q->cur = b;
	pthread_mutex_unlock(&par->lock);
	if (b)
		q->done = q->done_base + b->done;
	return b;
}

/*
 * Position CPU @s on its next event.  Returns 1 with it ready, 0 when the
 * CPU is over, -1 when reading failed without --partial.
 */
static int advance(struct par *par, struct filler *f, unsigned int s,
		   struct lt_input_result *res, struct lt_error *err)
{
	struct queue *q = &par->q[s];
	bool nomem = false;

	while (!q->cur || q->cur->next >= q->cur->n) {
		if (q->cur && q->cur->failed) {
			if (!par->cfg->run->partial || q->cur->err.code == LT_E_NOMEM) {
				*err = q->cur->err;
				return -1;
			}
			note_damage(res, &q->cur->err);
			q->damaged = true;
			/* damage stops its CPU, whatever ranges follow */
			pthread_mutex_lock(&par->lock);
			cpu_over(par, q);
			pthread_mutex_unlock(&par->lock);
			return 0;
		}
		if (!next_batch(par, f, s, &nomem)) {
			if (nomem) {
				lt_error_set(err, LT_E_NOMEM, "out of memory");
				return -1;
			}
			return 0;
		}
	}
	return 1;
}

/*
 * A stack at the start of a range follows whatever ended the range
 * before: put right here, where each CPU's records pass in order.
 */
static void stitch(struct queue *q, struct lt_ev *ev)
{
	if (ev->kind == LT_EV_STACK && ev->check_prev &&
	    !(q->last_kind == LT_EV_SWITCH && q->last_pid == ev->pid)) {
		/* a wakeup's: its waker's stack; else none we know of */
		if (q->last_kind == LT_EV_WAKING || q->last_kind == LT_EV_WAKEUP)
			ev->waking_stack = 1;
		else
			ev->kind = LT_EV_OTHER;
	}
	q->last_kind = ev->kind;
	q->last_pid = ev->pid;
	q->last_ts = ev->ts;
}

/*
 * The time CPU @s is due at in the merge: its next record's, or for a
 * loss the time of the record before it, so that the gap is known before
 * anything of the other CPUs inside it goes by (lt_trace_next() does the
 * same).
 */
static inline uint64_t due_key(const struct queue *q)
{
	const struct lt_ev *due = &q->cur->ev[q->cur->next];

	return due->kind == LT_EV_LOST ? q->last_ts : due->ts;
}

/*
 * The loss due on CPU @s into @out, with any that follow it there with no
 * record between (one loss, as one reader sees it, though a range may end
 * between them), stamped with the time of the record after it as
 * lt_trace_next() stamps it.  Returns 1 with that record due, 0 with the
 * CPU over, -1 when reading failed.
 */
static int take_losses(struct par *par, struct filler *f, unsigned int s,
		       struct lt_ev *out, struct lt_input_result *res,
		       struct lt_error *err)
{
	struct queue *q = &par->q[s];
	const struct lt_ev *ev;
	int ret;

	*out = *batch_next(q->cur);
	for (;;) {
		if (q->cur->next >= q->cur->n) {
			ret = advance(par, f, s, res, err);
			if (ret <= 0)
				return ret;
		}
		ev = &q->cur->ev[q->cur->next];
		if (ev->kind != LT_EV_LOST) {
			out->ts = ev->ts;
			return 1;
		}
		out->value = out->value == UINT64_MAX || ev->value == UINT64_MAX ?
			     UINT64_MAX : out->value + ev->value;
		out->ts = ev->ts;
		q->cur->next++;
	}
}

/*
 * CPU @q is over: if damage ended it (--partial), the gap from its last
 * record on, fed where it begins.  0, or -1 when the sink stopped.
 */
static int data_end(struct queue *q, const struct sink *sink)
{
	struct lt_ev lost;

	if (!q->damaged)
		return 0;
	q->damaged = false;
	memset(&lost, 0, sizeof(lost));
	lost.kind = LT_EV_LOST;
	lost.cpu = (int16_t)q->cpu;
	lost.ts = q->last_ts;
	lost.value = LT_LOST_DATA_END;
	lost.state = LT_STATE_RUNNABLE;
	lost.origin = LT_EV_NO_ORIGIN;
	return sink->event(sink->ctx, &lost);
}

/* Merge the CPUs' batches into the sink, in time order. */
static int merge(struct par *par, struct filler *f, const struct sink *sink,
		 uint64_t total, struct lt_input_result *res,
		 struct lt_error *err)
{
	const struct lt_pipe_cfg *cfg = par->cfg;
	struct lt_tsheap_ent *heap;
	const struct lt_ev *due;
	struct span sp = { false, 0 };
	unsigned int len = 0, s, i, tick = 0;
	uint64_t done;
	int ret = 0;

	/* written at every event while the workers run */
	heap = lt_thread_own_alloc(par->nr * sizeof(*heap));
	if (!heap) {
		lt_error_set(err, LT_E_NOMEM, "out of memory");
		return -1;
	}
	for (s = 0; s < par->nr; s++) {
		ret = advance(par, f, s, res, err);
		if (ret < 0)
			goto out;
		if (ret) {
			heap[len].ts = due_key(&par->q[s]);
			heap[len++].idx = s;
		} else if (data_end(&par->q[s], sink) < 0) {
			ret = -1;	/* its data missing from the start */
			goto out;
		}
	}
	ret = 0;
	for (i = len / 2; i-- > 0;)
		lt_tsheap_down(heap, len, i);
	while (len) {
		struct queue *q = &par->q[heap[0].idx];
		struct lt_ev *ev = &q->cur->ev[q->cur->next];

		s = heap[0].idx;
		if (ev->kind == LT_EV_LOST) {
			struct lt_ev lost;

			ret = take_losses(par, f, s, &lost, res, err);
			if (ret < 0)
				goto out;
			if (sink->event(sink->ctx, &lost) < 0) {
				ret = -1;
				goto out;
			}
		} else {
			if (past_to(cfg, &sp, ev->ts, res))
				break;
			res->events++;
			q->cur->next++;
			stitch(q, ev);
			/* consumed before its batch can go back for refilling */
			if (sink->event(sink->ctx, ev) < 0) {
				ret = -1;
				goto out;
			}
			if (sink->progress && ++tick == PROGRESS_EVERY) {
				tick = 0;
				for (done = 0, i = 0; i < par->nr; i++)
					done += par->q[i].done;
				sink->progress(sink->ctx, done, total);
			}
			ret = q->cur->next < q->cur->n ? 1 :
			      advance(par, f, s, res, err);
			if (ret < 0)
				goto out;
		}
		if (!ret) {
			if (data_end(q, sink) < 0) {
				ret = -1;
				goto out;
			}
			heap[0] = heap[--len];
			lt_tsheap_down(heap, len, 0);
			continue;
		}
		ret = 0;
		due = &q->cur->ev[q->cur->next];
		heap[0].ts = due_key(q);
		/*
		 * A worker wrote the batch, on another core: with many CPUs
		 * merged, too many streams for the hardware to prefetch, every
		 * event missed here.  So this CPU's next two events, and the
		 * arena from the strings of the one now due on (the next
		 * ones' follow them), are fetched while the others go by.  A
		 * 32-CPU trace (1.9 M events, a CPU's events ~3 apart) at -j2
		 * took 145 ms, not 189, with one event and its strings; 107
		 * with two and the arena ahead (and the queue's lines apart).
		 */
		if (q->cur->next + 1 < q->cur->n)
			__builtin_prefetch(due + 1);
		if (q->cur->next + 2 < q->cur->n)
			__builtin_prefetch(due + 2);
		if (due->str) {
			uintptr_t a = (uintptr_t)due->str;	/* past it: no UB */

			__builtin_prefetch(due->str);
			__builtin_prefetch((const void *)(a + 64));
			__builtin_prefetch((const void *)(a + 128));
		}
		if (due->str2)
			__builtin_prefetch(due->str2);
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
	size_t n;

	f->dec = *cfg->run->dec;
	/* the pool is shared, the cache in front of it this thread's own */
	f->dec.spool_cache = f->dec.spool ? lt_spool_cache_new(f->dec.spool) :
					    NULL;
	memset(f->dec.counts, 0, sizeof(f->dec.counts));
	memset(f->dec.bad_by_src, 0, sizeof(f->dec.bad_by_src));
	f->dec.field_errors = f->dec.bad_records = 0;
	/*
	 * Its own: ranges of one CPU are decoded at once, each from its
	 * state.  It and the counts are written at every record.
	 */
	n = (size_t)(f->dec.nr_cpus > 0 ? f->dec.nr_cpus : 1) *
	    sizeof(*f->dec.stack_pid);
	f->dec.stack_pid = lt_thread_own_alloc(n);
	/* not 65536 counts: folding untouched pages faulted 190 times */
	f->other = lt_trace_event_id_limit(cfg->trace);
	f->by_id = lt_thread_own_alloc((f->other + 1) * sizeof(*f->by_id));
	return f->by_id && f->dec.stack_pid &&
	       (f->dec.spool_cache || !f->dec.spool) ? 0 : -1;
}

static void filler_free(struct filler *f)
{
	free(f->by_id);
	free(f->dec.stack_pid);
	lt_spool_cache_free(f->dec.spool_cache);
}

/* What a thread's decoder and counts saw, added as one reader would. */
static void filler_fold(struct filler *f, const struct lt_pipe_cfg *cfg)
{
	unsigned int k;

	for (k = 0; k < LT_SRC_NR; k++) {
		cfg->run->dec->counts[k] += f->dec.counts[k];
		cfg->run->dec->bad_by_src[k] += f->dec.bad_by_src[k];
	}
	cfg->run->dec->field_errors += f->dec.field_errors;
	cfg->run->dec->bad_records += f->dec.bad_records;
	for (k = 0; k <= f->other; k++)
		cfg->run->by_id[k] += f->by_id[k];
}

static int run_parallel(const struct lt_pipe_cfg *cfg, unsigned int nr_workers,
			const struct sink *sink, struct lt_input_result *res,
			struct lt_error *err)
{
	struct worker *workers;
	unsigned int nr = lt_trace_nr_streams(cfg->trace), cap, pool, i, s, k;
	char *slab = NULL, *carve;
	size_t slab_size = 0;
	pthread_mutexattr_t lock_attr;
	struct filler self;
	uint64_t done, total;
	struct par par;
	int ret = -1;

	memset(&par, 0, sizeof(par));
	memset(&self, 0, sizeof(self));
	workers = lt_thread_own_alloc(nr_workers * sizeof(*workers));	/* >= 1 */
	par.cfg = cfg;
	par.nr = par.nr_live = nr;
	/*
	 * LT_RANGE_BYTES: tests cut small ranges, so that every boundary
	 * case (a stack or a loss across it) occurs in small traces too.
	 */
	par.range_bytes = RANGE_BYTES;
	par.evict = evict_supported();
	if (getenv("LT_RANGE_BYTES"))
		par.range_bytes = strtoull(getenv("LT_RANGE_BYTES"), NULL, 0);
	par.spin = nr_workers < lt_thread_usable_cpus();
	pthread_mutexattr_init(&lock_attr);
	if (par.spin)
		pthread_mutexattr_settype(&lock_attr, PTHREAD_MUTEX_ADAPTIVE_NP);
	pthread_mutex_init(&par.lock, &lock_attr);
	pthread_mutexattr_destroy(&lock_attr);
	pthread_cond_init(&par.cond, NULL);
	/*
	 * Many CPUs are parallel enough by themselves: less read ahead.  And
	 * each open range is a read window and a stream in some core's cache:
	 * on a 2-CPU trace, 4 each rather than 8 made big-v6 20% faster.  With
	 * the budget at 32k events, 2 rather than 4 (batches of 1,820 events,
	 * not 963) left the merge waiting for a batch 0-296 times a run on
	 * big-zstd, not 87-1,184 times (up to 60 ms); with 128k, 0-1 times.
	 */
	par.lookahead = nr < MAX_LOOKAHEAD ? MAX_LOOKAHEAD / nr : 1;
	pool = par.lookahead * RANGE_QUEUE + 1;
	/* and smaller batches: QUEUED_EVENTS in all, whatever the CPUs */
	cap = QUEUED_EVENTS / (nr * pool);
	cap = cap < 256 ? 256 : cap > 4096 ? 4096 : cap;
	/* whole lines each (see struct queue) */
	par.q = lt_thread_own_alloc(nr * sizeof(*par.q));
	if (!par.q || !workers)
		goto nomem;
	/*
	 * One mapping for all batches' events and arenas, in huge pages
	 * (lt-bigmem.h): the batches are used in turn, and in 4 KiB pages
	 * their 3 MB would be ~800 page faults and as many TLB entries,
	 * for the decoding and the merging thread alike.  NULL: malloc each.
	 */
	if (USE_SLAB) {
		slab_size = (size_t)nr * pool *
			    batch_bytes(cap, SLAB_ARENA_PER_EVENT);
		slab = carve = lt_big_alloc(slab_size);
	}
	for (s = 0; s < nr; s++) {
		par.q[s].cpu = lt_trace_stream_cpu(cfg->trace, s);
		for (k = 0; k < pool; k++) {
			struct batch *b = slab ?
				batch_carve(cap, SLAB_ARENA_PER_EVENT, &carve) :
						 batch_new(cap);

			if (!b)
				goto nomem;
			pool_put(&par.q[s], b);
		}
	}
	if (filler_init(&self, cfg) < 0)
		goto nomem;
	for (i = 0; i < nr_workers; i++) {
		workers[i].par = &par;
		if (filler_init(&workers[i].f, cfg) < 0)
			goto nomem;
	}
	lt_trace_progress(cfg->trace, &done, &total);
	/*
	 * A worker that cannot start (no memory for its stack, a limit on
	 * threads) leaves its share to the others and this thread, which
	 * fills whatever the merge needs next: slower, the same report.
	 */
	for (i = 0; i < nr_workers; i++) {
		if (lt_thread_start(&workers[i].thread, worker_main,
				    &workers[i]))
			break;
		workers[i].started = true;
	}
	ret = merge(&par, &self, sink, total, res, err);
	pthread_mutex_lock(&par.lock);
	par.stop = true;
	par_wake(&par);
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
	filler_free(&self);
	for (i = 0; workers && i < nr_workers; i++)
		filler_free(&workers[i].f);
	free(workers);
	for (s = 0; par.q && s < nr; s++) {
		struct queue *q = &par.q[s];

		batch_free(q->cur);
		lt_trace_range_free(cfg->trace, q->spare);
		while (q->nr_pool)
			batch_free(pool_take(q));
		for (i = 0; i < q->nr_open; i++) {
			struct range_slot *sl = &q->slot[(q->head + i) % MAX_LOOKAHEAD];

			for (k = 0; k < sl->nr_full; k++)
				batch_free(sl->full[(sl->full_head + k) % RANGE_QUEUE]);
			lt_trace_range_free(cfg->trace, sl->r);
		}
	}
	free(par.q);
	lt_big_free(slab, slab_size);
	pthread_cond_destroy(&par.cond);
	pthread_mutex_destroy(&par.lock);
	return ret;
}

/*
 * Measured on 2 cores, medians of 41 alternated runs at bac15df's smaller
 * queue (its fresh memory was most of what a second thread cost):
 * scheduler traces of 47,000 events take 6.8 ms on two threads against
 * 7.3 on one (v6; zstd 7.9 against 8.7), 88,000 8.2 against 9.8 (9.3
 * against 11.8), 172,000 10.9 against 14.3 (12.9 against 17.6).  Traces
 * of 5,000 events lose 0.4-0.8 ms, and kernel stacks, which compress
 * less, are guessed more: samples of 35,000-45,000 events with stacks,
 * guessed 69,000-90,000, take about as long either way.  Events are
 * guessed from the data: ~54 bytes each as recorded, ~3-3.7
 * zstd-compressed (scheduler events).
 */
#define AUTO_MIN_EVENTS		80000
#define PLAIN_EVENT_BYTES	56
#define PACKED_EVENT_BYTES10	35	/* 3.5 bytes, in tenths */

unsigned int lt_pipe_auto_threads_for(uint64_t events, unsigned int cpus)
{
	uint64_t min = AUTO_MIN_EVENTS;

	/* LT_AUTO_MIN_EVENTS: tests make small traces count as large */
	if (getenv("LT_AUTO_MIN_EVENTS"))
		min = strtoull(getenv("LT_AUTO_MIN_EVENTS"), NULL, 0);
	return events < min ? 1 : cpus;
}

unsigned int lt_pipe_auto_threads(uint64_t data_bytes, bool compressed,
				  unsigned int cpus)
{
	uint64_t events;

	if (!compressed)
		events = data_bytes / PLAIN_EVENT_BYTES;
	else if (data_bytes > UINT64_MAX / 10)
		events = UINT64_MAX;
	else
		events = data_bytes * 10 / PACKED_EVENT_BYTES10;
	return lt_pipe_auto_threads_for(events, cpus);
}

int lt_pipe_run(const struct lt_pipe_cfg *cfg, lt_input_event_fn event,
		lt_input_progress_fn progress, void *ctx,
		struct lt_input_result *res, struct lt_error *err)
{
	struct sink sink = { event, progress, ctx };
	unsigned int threads = cfg->run->threads;

	memset(res, 0, sizeof(*res));
	/* ranges give threads work even on a trace of one CPU */
	if (threads < 2 || !lt_trace_nr_streams(cfg->trace))
		return run_serial(cfg, &sink, res, err);
	if (threads - 1 > MAX_WORKERS)
		threads = MAX_WORKERS + 1;
	return run_parallel(cfg, threads - 1, &sink, res, err);
}

/* ---- one stream, made on a thread of its own ------------------------------ */

/*
 * A perf.data is one stream of records, in time order only once its
 * reorder queue has sorted them: it cannot be cut into ranges that
 * threads read apart.  So one thread reads, orders and decodes it into
 * batches while the caller's replays them: a pipeline of two stages.
 * The batches go round a ring: the maker fills ring[made % N] while the
 * caller replays ring[used % N], and neither passes the other.
 */
/*
 * 8 batches of 1,024 events and 192 bytes of arena an event: 2 MB, one
 * huge page.  A perf.data's events carry their payload (~70 bytes for a
 * scheduler event), and with -g a switch its stack (~300 bytes), so the
 * trace pipe's 32 bytes an event filled a batch's arena at a third or a
 * tenth of its events, and the batches went round 3-10 times as often.
 * Beside a perf record -g -m 32M file's chunks (37 MB), 16 batches took
 * the peak over 64 MB; 8 keep the reading thread, the slower side, as far
 * ahead as it gets.
 */
#define STREAM_BATCHES	8
#define STREAM_EVENTS	1024
#define STREAM_ARENA_PER_EVENT	192
/*
 * A side that must sleep sleeps until this many more batches are there
 * for it than it needs: one wake-up (a futex call for the other side) per
 * two batches, not per batch.  The ring's slack (8) hides the wait.
 */
#define STREAM_SLACK	2

struct lt_pipe_out {
	/* counts of batches, each side writing its own, under the lock */
	uint64_t made __attribute__((aligned(LT_CACHE_LINE)));
	uint64_t used __attribute__((aligned(LT_CACHE_LINE)));
	bool stop;			/* the caller's side gave up */
	bool fin;			/* the maker's last batch is out */
	unsigned int sleepers;		/* threads in pthread_cond_wait() */
	pthread_mutex_t lock;
	pthread_cond_t cond;

	struct batch *ring[STREAM_BATCHES];
	char *slab;
	size_t slab_size;
	bool evict;

	/* the maker's */
	struct batch *cur __attribute__((aligned(LT_CACHE_LINE)));
	lt_pipe_make_fn make;
	void *make_ctx;
	struct lt_error err;		/* why make() failed */
	int ret;
	/*
	 * Threads off: lt_pipe_put() replays each event at once, and
	 * lt_pipe_progress() says it at once.
	 */
	bool direct;
	lt_input_event_fn event;
	lt_input_progress_fn progress;
	void *ctx;
};

/* Whether @n, read without the lock, has reached @want. */
static inline bool reached(const uint64_t *n, uint64_t want)
{
	return __atomic_load_n(n, __ATOMIC_ACQUIRE) >= want;
}

/*
 * Wait until *@n reaches @want, or the stream stops (@stop: whether to
 * watch for it).  Returns false when stopped.
 *
 * Unlike par_wait(), no spinning first.  One side is the slower, and the
 * faster waits for it at nearly every batch: its wake-up is off the
 * critical path (the ring's other batches cover it), while spinning on a
 * shared machine held a CPU the slower side needed.  Alternated with
 * spinning for 200 us, on the 353 MB perf.data on a loaded 2-vCPU VM: CPU
 * 0.58-0.62 -> 0.43-0.46 s, wall 1.04-1.18 -> 0.63-0.89 s (one thread:
 * 0.36-0.38 s of CPU, 0.63-0.79 s).
 */
static bool stream_wait(struct lt_pipe_out *s, const uint64_t *n,
			uint64_t want, bool stop)
{
	uint64_t more = want + STREAM_SLACK;
	bool ok;

	if (reached(n, want))
		return true;
	/* asleep, until there is more than one to do (or no more comes) */
	pthread_mutex_lock(&s->lock);
	while (*n < more && !(*n >= want && s->fin) && !(stop && s->stop)) {
		s->sleepers++;
		pthread_cond_wait(&s->cond, &s->lock);
		s->sleepers--;
	}
	ok = *n >= want;
	pthread_mutex_unlock(&s->lock);
	return ok;
}

/* *@n one more, and the other side woken if it sleeps. */
static void stream_count(struct lt_pipe_out *s, uint64_t *n)
{
	pthread_mutex_lock(&s->lock);
	__atomic_store_n(n, *n + 1, __ATOMIC_RELEASE);
	if (s->sleepers)
		pthread_cond_broadcast(&s->cond);
	pthread_mutex_unlock(&s->lock);
}

/* The maker's next batch to fill, once the caller has given it back. */
static struct batch *stream_take(struct lt_pipe_out *s)
{
	struct batch *b;

	/* ring[made % N] was replayed when used reaches made - N + 1 */
	if (s->made >= STREAM_BATCHES &&
	    !stream_wait(s, &s->used, s->made - STREAM_BATCHES + 1, true))
		return NULL;
	b = s->ring[s->made % STREAM_BATCHES];
	if (s->evict)
		batch_evict(b);
	batch_reset(b);
	b->said = false;
	return b;
}

/* The maker's batch goes to the caller; 0, or -1 when it gave up. */
static int stream_publish(struct lt_pipe_out *s)
{
	stream_count(s, &s->made);
	s->cur = NULL;
	return __atomic_load_n(&s->stop, __ATOMIC_RELAXED) ? -1 : 0;
}

int lt_pipe_put(struct lt_pipe_out *s, const struct lt_ev *ev)
{
	size_t need = 0;
	struct batch *b;

	if (s->direct)
		return s->event(s->ctx, ev) < 0 ? (s->stop = true, -1) : 0;
	/*
	 * A batch is full at its events, or at its arena's share of the
	 * slab (call chains): memory stays what the slab is.
	 */
	if (s->cur) {
		need = (size_t)ev->str_len + ev->str2_len + 2 +
		       (ev->nr_frames ? 8 + (size_t)ev->nr_frames * 8 : 0);
		if (s->cur->n == s->cur->cap ||
		    (s->cur->n && s->cur->used + need > s->cur->size)) {
			if (stream_publish(s) < 0)
				return -1;
		}
	}
	if (!s->cur && !(s->cur = stream_take(s)))
		return -1;
	b = s->cur;
	b->ev[b->n] = *ev;
	/* no bytes to copy, but not NULL: where it pointed is going */
	if (ev->str && !ev->str_len)
		b->ev[b->n].str = "";
	if (ev->str2 && !ev->str2_len)
		b->ev[b->n].str2 = "";
	if (append(b) < 0) {
		lt_error_set(&s->err, LT_E_NOMEM,
			     "out of memory while reading events");
		return -1;
	}
	return 0;
}

void lt_pipe_progress(struct lt_pipe_out *s, uint64_t done, uint64_t total)
{
	if (s->direct) {
		if (s->progress)
			s->progress(s->ctx, done, total);
		return;
	}
	if (!s->progress || (!s->cur && !(s->cur = stream_take(s))))
		return;
	/* said to the caller once the batch's events are replayed */
	s->cur->said = true;
	s->cur->done = done;
	s->cur->total = total;
}

static void *stream_main(void *arg)
{
	struct lt_pipe_out *s = arg;

	s->ret = s->make(s->make_ctx, s, &s->err);
	/* the last batch says how it ended, empty or not */
	if (!s->cur)
		s->cur = stream_take(s);
	if (s->cur) {
		s->cur->end = true;
		s->cur->failed = s->ret < 0;
		pthread_mutex_lock(&s->lock);
		s->fin = true;
		pthread_mutex_unlock(&s->lock);
		stream_publish(s);
	}
	return NULL;
}

/* The caller's side: replay the batches as they come. */
static int stream_replay(struct lt_pipe_out *s, bool *made_failed)
{
	struct batch *b;
	unsigned int i;

	for (;;) {
		stream_wait(s, &s->made, s->used + 1, false);
		b = s->ring[s->used % STREAM_BATCHES];
		for (i = 0; i < b->n; i++)
			if (s->event(s->ctx, batch_next(b)) < 0)
				return -1;
		if (b->said)
			s->progress(s->ctx, b->done, b->total);
		if (b->end) {
			*made_failed = b->failed;
			return 0;
		}
		stream_count(s, &s->used);
	}
}

static int stream_init(struct lt_pipe_out *s)
{
	unsigned int i, cap = STREAM_EVENTS;
	char *carve;

	/*
	 * LT_STREAM_EVENTS: tests make batches of a few events, so that a
	 * small file goes round the ring, and stacks outgrow an arena.
	 */
	if (getenv("LT_STREAM_EVENTS"))
		cap = strtoul(getenv("LT_STREAM_EVENTS"), NULL, 0);
	if (cap < 1 || cap > STREAM_EVENTS)
		cap = STREAM_EVENTS;
	s->slab_size = STREAM_BATCHES * batch_bytes(cap, STREAM_ARENA_PER_EVENT);
	if (USE_SLAB)
		s->slab = lt_big_alloc(s->slab_size);
	carve = s->slab;
	for (i = 0; i < STREAM_BATCHES; i++) {
		s->ring[i] = s->slab ?
			     batch_carve(cap, STREAM_ARENA_PER_EVENT, &carve) :
			     batch_new(cap);
		if (!s->ring[i])
			return -1;
		/* without a slab, the same share of arena */
		if (!s->slab) {
			s->ring[i]->size = (size_t)cap * STREAM_ARENA_PER_EVENT;
			s->ring[i]->arena = malloc(s->ring[i]->size);
			if (!s->ring[i]->arena)
				return -1;
		}
	}
	s->evict = evict_supported();
	return 0;
}

static void stream_free(struct lt_pipe_out *s)
{
	unsigned int i;

	for (i = 0; i < STREAM_BATCHES; i++)
		batch_free(s->ring[i]);
	lt_big_free(s->slab, s->slab_size);
	pthread_cond_destroy(&s->cond);
	pthread_mutex_destroy(&s->lock);
	free(s);
}

int lt_pipe_stream(lt_pipe_make_fn make, void *make_ctx, unsigned int threads,
		   lt_input_event_fn event, lt_input_progress_fn progress,
		   void *ctx, struct lt_error *err)
{
	struct lt_pipe_out *s = lt_thread_own_alloc(sizeof(*s));
	pthread_mutexattr_t lock_attr;
	pthread_t thread;
	bool failed = false;
	int ret;

	if (!s) {
		lt_error_set(err, LT_E_NOMEM, "out of memory");
		return -1;
	}
	s->make = make;
	s->make_ctx = make_ctx;
	s->event = event;
	s->progress = progress;
	s->ctx = ctx;
	pthread_mutexattr_init(&lock_attr);
	if (threads <= lt_thread_usable_cpus())
		pthread_mutexattr_settype(&lock_attr, PTHREAD_MUTEX_ADAPTIVE_NP);
	pthread_mutex_init(&s->lock, &lock_attr);
	pthread_mutexattr_destroy(&lock_attr);
	pthread_cond_init(&s->cond, NULL);
	/* one thread, or none to be had: made and replayed in turn */
	if (threads < 2 || stream_init(s) < 0 ||
	    lt_thread_start(&thread, stream_main, s)) {
		s->direct = true;
		ret = make(make_ctx, s, err);
		stream_free(s);
		return ret;
	}
	ret = stream_replay(s, &failed);
	if (ret < 0) {
		/* the replay failed: the maker stops at its next batch */
		pthread_mutex_lock(&s->lock);
		__atomic_store_n(&s->stop, true, __ATOMIC_RELAXED);
		pthread_cond_broadcast(&s->cond);
		pthread_mutex_unlock(&s->lock);
	}
	pthread_join(thread, NULL);
	if (!ret && failed) {
		*err = s->err;
		ret = -1;
	}
	stream_free(s);
	return ret;
}
