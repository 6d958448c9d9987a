/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * lt-pipe.h - the trace's CPUs read and decoded on several threads, merged
 * and replayed on the caller's.
 *
 * Reading pages and decoding records costs about twice what replaying
 * them does, so worker threads decode the file's CPUs into batches of
 * events (strings and stacks copied out of the records) while the
 * caller's thread merges them in time order, consumes them, and decodes
 * too whenever the batch it needs is not ready.  With one thread the same
 * batches are made and consumed in turn.
 */
#ifndef LT_PIPE_H
#define LT_PIPE_H

#include <stdbool.h>
#include <stdint.h>

#include "latencytop.h"
#include "lt-decode.h"
#include "lt-trace.h"

struct lt_pipe_cfg {
	struct lt_trace *trace;
	struct lt_decoder *dec;
	/*
	 * Records per event id, counted here: the file's ids below
	 * lt_trace_event_id_limit(), then one count for all others.
	 */
	uint32_t *by_id;
	bool partial;		/* read past damage (it stops only its CPU) */
	int64_t to_ns;		/* stop after first event + to_ns; -1 = never */
	unsigned int threads;	/* in all, ours included; 0 or 1: ours only */
};

struct lt_pipe_result {
	uint64_t events;	/* event records read */
	bool cut;		/* --to stopped it before the trace's end */
	bool damaged;		/* --partial read past damage */
	struct lt_error damage;	/* the first damage */
	unsigned int nr_damaged;	/* CPUs it stopped, that one included */
};

/* Called in the caller's thread for each event, in order; -1 stops. */
typedef int (*lt_pipe_event_fn)(void *ctx, const struct lt_ev *ev);
/* Called now and then in the caller's thread. */
typedef void (*lt_pipe_progress_fn)(void *ctx, uint64_t done, uint64_t total);

/* CPUs this process may run on (its affinity), at least 1. */
unsigned int lt_pipe_usable_cpus(void);
/*
 * Threads worth using on a trace of @data_bytes of CPU data (@compressed:
 * as stored, zstd or zlib) with @cpus usable: 1 below ~80,000 events,
 * where a second thread's start and its queue's fresh memory cost about
 * what it saves, or more; else @cpus.
 */
unsigned int lt_pipe_auto_threads(uint64_t data_bytes, bool compressed,
				  unsigned int cpus);

/*
 * Read the whole trace through @event.  0 at the end; -1 when reading
 * failed (@err set) or @event returned -1 (@err untouched).
 */
int lt_pipe_run(const struct lt_pipe_cfg *cfg, lt_pipe_event_fn event,
		lt_pipe_progress_fn progress, void *ctx,
		struct lt_pipe_result *res, struct lt_error *err);

#endif /* LT_PIPE_H */
