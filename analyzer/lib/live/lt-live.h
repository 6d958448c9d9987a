/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * lt-live.h - live mode: the running system's latencies as they happen.
 *
 * A tracefs instance of its own is set up as latency-record sets one up
 * (lt_record: events, stacks, buffer sizes, schedstats, everything undone
 * at the end), one reader per CPU reads the ring buffer while it fills,
 * the CPUs' records are merged by timestamp (lt-live-merge.h) and go
 * through the decoder and the replay a trace.dat goes through
 * (lt-analysis.h).  Every so often the caller asks for the report of the
 * replay as it stands:
 *
 *   sliding   (latency-view --live) the last @window_ns, in steps of
 *             @step_ns: older steps are dropped, memory stays bounded
 *   whole     (latency-analyze --live) everything since the start, in
 *             the windows of opts.window_ns, as an analysis of the same
 *             events saved with @output would give
 *
 * With @output, every page read is kept on disk and written as a
 * trace.dat at the end, for the offline tools.
 *
 *   lt_live_open()    set up, start tracing and reading
 *   lt_live_pump()    replay what can be (call often: it is bounded)
 *   lt_live_report()  the report as it stands
 *   lt_live_stop()    stop tracing, replay the rest, the final report,
 *                     write @output
 *   lt_live_close()   tracefs as it was
 *
 * Reports point into the live replay's strings: free them before
 * lt_live_close().  Nothing here prints or exits.
 */
#ifndef LT_LIVE_H
#define LT_LIVE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "latencytop.h"
#include "ltr.h"

struct lt_live;

struct lt_live_config {
	/* accounting and task filters, as latency-analyze takes them */
	struct lt_options opts;
	bool sliding;		/* the last window_ns only (else everything) */
	uint64_t window_ns;	/* sliding: its length (0: 30 s) */
	uint64_t step_ns;	/* sliding: it moves by (0: window / 30) */
	const char *output;	/* a trace.dat of every page read; NULL none */
	/* tracefs, as latency-record's options say */
	enum ltr_stacks stacks;
	unsigned int buffer_kb;	/* per CPU; 0: lt_record's default */
	bool top_level;
	bool schedstats;	/* kernel.sched_schedstats on while it runs */
	unsigned int poll_ms;	/* readers' longest sleep (0: 100 ms) */
	size_t queue_limit;	/* bytes of pages waiting (0: 64 MB) */
	const char *program;	/* its journal's owner (0: latency-analyze --live) */
};

void lt_live_config_init(struct lt_live_config *cfg);

/*
 * Set up tracing, start the readers.  0, or -1 with @err (a tracing code,
 * exit status 9: not root, no tracefs, sched_switch missing, tracefs busy;
 * LT_E_IO or LT_E_OUTPUT: @output cannot be written), tracefs left as it was.
 */
int lt_live_open(const struct lt_live_config *cfg, struct lt_live **out,
		 struct lt_error *err);

/* The events asked for and what this kernel has of them (lt_record's). */
size_t lt_live_events(const struct lt_live *lv, const struct ltr_event **events);

/* Readable when there is something to pump, or a reader failed. */
int lt_live_fd(const struct lt_live *lv);

/*
 * Replay the records that can be, at most @max (0: all): the number
 * replayed, or -1 with @err (a reader failed, out of memory).
 */
int64_t lt_live_pump(struct lt_live *lv, uint64_t max, struct lt_error *err);
/*
 * A caller's @max: "all" never ends while the readers bring records faster
 * than the replay takes them, and between calls a caller looks at its
 * clock, its signals and its keys.
 */
#define LT_LIVE_PUMP_BATCH	200000

/* The report as it stands (see above); lt_report_free() it. */
int lt_live_report(struct lt_live *lv, struct lt_report **out,
		   struct lt_error *err);

/*
 * Stop tracing, replay everything read, close the books: the final
 * report (NULL @out: none), and @output written.  Then only
 * lt_live_stats() and lt_live_close().
 */
int lt_live_stop(struct lt_live *lv, struct lt_report **out,
		 struct lt_error *err);

/* tracefs as it was; 0, or -1 with @err naming what could not be undone. */
int lt_live_restore(struct lt_live *lv, struct lt_error *err);
/* Restore (quietly) and free. */
void lt_live_close(struct lt_live *lv);

struct lt_live_stats {
	uint64_t started_ns, now_ns;	/* CLOCK_MONOTONIC, the trace clock */
	uint64_t events;		/* records replayed */
	uint64_t bytes;			/* of pages read */
	uint64_t lost;			/* events the kernel lost, that it counted */
	uint64_t lost_gaps;		/* pages that said events were lost */
	int cpus;
	const uint64_t *lost_per_cpu;	/* cpus entries */
	uint64_t late;			/* records that came behind the merge */
	uint64_t damaged;		/* pages that did not decode */
	size_t queued, queued_peak;	/* bytes of pages waiting */
	uint64_t reader_waits;		/* times a reader waited for room */
	uint64_t reader_cpu_ns;		/* the readers' CPU time */
	uint64_t cpu_ns;		/* the process's, readers included */
	uint64_t window_start_ns;	/* sliding: the window shown */
	unsigned int buffer_kb;
	bool stacks;
	const char *instance;		/* NULL: the top level */
};
void lt_live_stats(struct lt_live *lv, struct lt_live_stats *st);

#endif /* LT_LIVE_H */
