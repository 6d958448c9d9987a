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
 *
 * A perf.data, one stream, goes through lt_pipe_stream() instead: one
 * thread reads it, the caller's replays.
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
/* The same for an input of about @events events. */
unsigned int lt_pipe_auto_threads_for(uint64_t events, unsigned int cpus);

/*
 * Read the whole trace through @event.  0 at the end; -1 when reading
 * failed (@err set) or @event returned -1 (@err untouched).
 */
int lt_pipe_run(const struct lt_pipe_cfg *cfg, lt_input_event_fn event,
		lt_input_progress_fn progress, void *ctx,
		struct lt_input_result *res, struct lt_error *err);

/*
 * A stream of events made in time order by one reader (a perf.data's),
 * which cannot be cut into ranges: on two threads or more the reader
 * runs on a thread of its own, into batches (strings and stacks copied),
 * while the caller's thread replays them; on one, each event is replayed
 * as it is made.
 */
struct lt_pipe_out;

/*
 * The reader: every event through lt_pipe_put(), in order.  0 at the
 * end; -1 when lt_pipe_put() failed (then @err is not looked at), or
 * with @err set when reading failed.
 */
typedef int (*lt_pipe_make_fn)(void *ctx, struct lt_pipe_out *out,
			       struct lt_error *err);

/*
 * @ev handed on (what it points to may go once this returns): 0, or -1
 * when the replay stopped or memory ran out; the reader then returns -1.
 */
int lt_pipe_put(struct lt_pipe_out *out, const struct lt_ev *ev);
/* Progress, said to the caller's progress function after the events put. */
void lt_pipe_progress(struct lt_pipe_out *out, uint64_t done, uint64_t total);

/*
 * Run @make on @threads threads in all (2 at most are used) and the
 * events through @event, in the caller's thread.  0 at the end; -1 when
 * reading failed (@err set) or @event returned -1 (@err untouched).
 */
int lt_pipe_stream(lt_pipe_make_fn make, void *make_ctx, unsigned int threads,
		   lt_input_event_fn event, lt_input_progress_fn progress,
		   void *ctx, struct lt_error *err);

#endif /* LT_PIPE_H */
