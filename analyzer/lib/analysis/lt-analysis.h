/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * lt-analysis.h - one analysis: an input's events decoded and replayed,
 * and the report made of the replay.
 *
 * lt_analyze() drives it over a file; live mode (analyzer/live/) over
 * the running system's ring buffers, looking at it every so often.  Both
 * go through the same decoder, replay, stack resolution and report
 * header: there is no second accounting.
 */
#ifndef LT_ANALYSIS_H
#define LT_ANALYSIS_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include "latencytop.h"
#include "lt-decode.h"
#include "lt-input.h"
#include "lt-replay.h"
#include "lt-report.h"
#include "lt-trans.h"

struct lt_analysis {
	struct lt_input *in;		/* the caller's */
	struct lt_replay *rp;		/* the caller's storage */
	bool have_replay;		/* rp needs lt_replay_free() */
	struct lt_trans trans;
	uint32_t *by_id;		/* records per event id (lt_input_run) */
	unsigned int other_id;		/* by_id's slot for ids without a format */
	char cause[256];		/* "[func]" handed to the replay */
	const struct lt_options *opts;
	uint64_t src_counts[LT_SRC_NR];	/* events replayed, by source */
	char ksym_note[LT_ERROR_MSG_MAX];	/* why stacks are not named, or "" */
	bool load_beside;		/* symbols may load on a thread of their own */
	bool loading;			/* ... and are: join @loader */
	pthread_t loader;
	/* user frames named before the report, sorted by frame */
	uint64_t *named;
	uint32_t *named_ids;		/* their names: rp->strs ids */
	size_t nr_named;
};

/*
 * Set up @a to replay @in's events into @rp as @opts say, in windows of
 * @window_ns (0: one): translation tables loaded, the replay made.  0, or
 * -1 with @err (naming @path); lt_analysis_free() either way.
 */
int lt_analysis_init(struct lt_analysis *a, struct lt_input *in,
		     struct lt_replay *rp, const struct lt_options *opts,
		     uint64_t window_ns, const char *path,
		     struct lt_error *err);
/* Joins the symbol loader; frees neither the input nor the replay. */
void lt_analysis_free(struct lt_analysis *a);

/* One decoded event into the replay (an lt_input_event_fn): 0 or -1. */
int lt_analysis_event(void *a, const struct lt_ev *ev);
/* One raw record: counted by id, decoded with @dec, replayed.  0 or -1. */
int lt_analysis_record(struct lt_analysis *a, struct lt_decoder *dec,
		       const struct lt_record *rec);

/*
 * A kernel address's name, as the report shows it (@ctx: the analysis),
 * kept as long as the replay's strings: for the waits' stacks.
 */
const char *lt_analysis_symbol(void *ctx, uint64_t addr);

/* Wait for symbols loading beside the replay, if they are. */
void lt_analysis_symbols_join(struct lt_analysis *a);
/*
 * The symbols, if there are stacks to name: damaged ones are a warning
 * (and a line of the report's header), out of memory an error.
 */
int lt_analysis_symbols_needed(struct lt_analysis *a, struct lt_error *err);

/*
 * The report of the replay as it stands, into @priv (made by the caller,
 * its pub.options set): the header from @in and the replay's counts,
 * what the input lacks, every view.  The report's names point into the
 * replay's strings: it must not outlive them.  0, or -1 with @err.
 */
int lt_analysis_report(struct lt_analysis *a, struct lt_report_priv *priv,
		       const struct lt_decoder *dec, uint64_t events,
		       struct lt_error *err);

/* The line recording everything, as the input's tool spells it. */
void lt_analysis_record_line(char *buf, size_t len,
			     const struct lt_input_recipe *rc,
			     const char *extra);

#endif /* LT_ANALYSIS_H */
