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
#include "lt-input.h"
#include "lt-trace.h"

/* A trace.dat read as @run says (its threads: 0 or 1, the caller's only). */
struct lt_pipe_cfg {
	struct lt_trace *trace;
	const struct lt_input_run *run;
};

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
int lt_pipe_run(const struct lt_pipe_cfg *cfg, lt_input_event_fn event,
		lt_input_progress_fn progress, void *ctx,
		struct lt_input_result *res, struct lt_error *err);

#endif /* LT_PIPE_H */
