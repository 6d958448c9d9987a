// SPDX-License-Identifier: LGPL-2.1
/*
 * analysis.c - lt_analyze(): read, decode, replay, build the report.
 *
 * The only module that sees the reader, the decoder and the replay
 * together; each of them is usable (and tested) alone.
 */
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lt-analysis.h"
#include "lt-thread.h"

/* lt_analyze()'s: the input and the analysis die with the report. */
struct analysis {
	struct lt_analysis core;
	struct lt_input *in;
	struct lt_waits_spill *waits;	/* opts->waits or a timeline: the
					   replay's notes */
};

/* One line saying what the file holds instead of scheduler events. */
static void no_sched_error(struct lt_analysis *a, const struct lt_decoder *dec,
			   const char *path, uint64_t events, bool cut,
			   struct lt_error *err)
{
	const struct lt_trace *f = lt_input_formats(a->in);
	char held[256] = "", line[300];
	size_t len = 0;
	const char *why;
	int shown, id;

	/* the events are there, the file cannot say how to read them */
	why = lt_trace_skipped_format(f, "sched", "sched_switch");
	if (why) {
		lt_error_set(err, LT_E_CORRUPT,
			     "%s: the format of sched_switch in the file has %s: "
			     "its records cannot be read", path, why);
		return;
	}
	if (dec->unusable[LT_SRC_SWITCH] &&
	    a->by_id[dec->unusable_id[LT_SRC_SWITCH]]) {
		lt_error_set(err, LT_E_CORRUPT,
			     "%s: %u sched_switch records, but the event's format "
			     "in the file lacks common_pid, prev_pid, prev_state "
			     "or next_pid",
			     path, a->by_id[dec->unusable_id[LT_SRC_SWITCH]]);
		return;
	}
	if (dec->bad_records) {
		lt_error_set(err, LT_E_CORRUPT,
			     "%s: none of its scheduler events fit their format "
			     "(%" PRIu64 " damaged records)", path, dec->bad_records);
		return;
	}
	/*
	 * Cut by --to: what the file holds later is unknown (and what
	 * threads read ahead of the cut is not counted the same each run).
	 */
	if (cut) {
		lt_error_set(err, LT_E_NO_EVENTS,
			     "%s: no scheduler events (sched_switch or "
			     "sched_stat_*) among the %" PRIu64 " events up to "
			     "--to; a later --to may find some", path, events);
		return;
	}

	if (!events && !cut) {
		lt_error_set(err, LT_E_NO_EVENTS,
			     "%s: the file holds no events at all (nothing was "
			     "recorded, or its CPU data is missing)", path);
		return;
	}
	/* a damaged format section can leave them under another system */
	for (id = 0; id <= (int)lt_trace_event_id_limit(f); id++) {
		const struct lt_event_type *t =
			lt_trace_event_by_id(f, (uint16_t)id);

		if (a->by_id[id] && t &&
		    !strcmp(lt_event_type_name(t), "sched_switch")) {
			lt_error_set(err, LT_E_CORRUPT,
				     "%s: its %u sched_switch records are of a "
				     "system named \"%s\", not sched: the file's "
				     "event formats are damaged", path,
				     a->by_id[id], lt_event_type_system(t));
			return;
		}
	}
	for (shown = 0; shown < 4; shown++) {
		uint32_t best = 0;
		int best_id = -1;

		for (id = 0; id <= (int)lt_trace_event_id_limit(f); id++)
			if (a->by_id[id] > best) {
				best = a->by_id[id];
				best_id = id;
			}
		if (best_id < 0)
			break;
		{
			const struct lt_event_type *t =
				lt_trace_event_by_id(f, (uint16_t)best_id);

			/* an ID without a format: the formats or the record damaged */
			if (t)
				len += snprintf(held + len, sizeof(held) - len,
						"%s%s:%s %u", shown ? ", " : "",
						lt_event_type_system(t),
						lt_event_type_name(t), best);
			else
				len += snprintf(held + len, sizeof(held) - len,
						"%s%u of an ID the file has no "
						"format for", shown ? ", " : "",
						best);
		}
		a->by_id[best_id] = 0;
		if (len >= sizeof(held))
			break;
	}
	lt_analysis_record_line(line, sizeof(line), a->in->ops->recipe, "");
	lt_error_set(err, LT_E_NO_EVENTS,
		     "%s: no scheduler events (sched_switch or sched_stat_*) among "
		     "its %" PRIu64 " events%s%s%s; record with: %s",
		     path, events, held[0] ? " (it holds " : "", held,
		     held[0] ? ")" : "", line);
}

/* ---- the run ------------------------------------------------------------- */

/* @text after @err's message, if it fits whole. */
static void append_msg(struct lt_error *err, const char *text)
{
	size_t len = strlen(err->msg), add = strlen(text);

	if (len + add < sizeof(err->msg))
		memcpy(err->msg + len, text, add + 1);
}

/* The replay does not know the file: say which one. */
static void replay_error(struct lt_error *err, const char *path,
			 const struct lt_error *rerr)
{
	lt_error_set(err, rerr->code, "%s: %s", path, rerr->msg);
}

/*
 * --from past the last event: the range holds nothing, which an empty
 * report would only hide (a time copied from trace-cmd report is
 * absolute, --from counts from the first event).
 */
static int range_past_end(const struct lt_replay *rp,
			  const struct lt_options *opts, bool cut,
			  const char *path, struct lt_error *err)
{
	const struct lt_replay_stats *st = &rp->stats;
	char from[32], span[32], start[32], end[32];

	if (opts->from_ns < 0 || cut || !st->have_ts ||
	    st->last_ts - st->first_ts >= (uint64_t)opts->from_ns)
		return 0;
	lt_error_set(err, LT_E_NO_EVENTS,
		     "%s: --from %s is past the trace's end: no event in the "
		     "range; the trace spans %s, from %s to %s (--from and --to "
		     "count from its first event)", path,
		     lt_format_duration(from, sizeof(from), opts->from_ns),
		     lt_format_duration(span, sizeof(span),
					st->last_ts - st->first_ts),
		     lt_format_stamp(start, sizeof(start), st->first_ts),
		     lt_format_stamp(end, sizeof(end), st->last_ts));
	return -1;
}


/* The input hands the events' context to progress too: the analysis. */
static void report_progress(void *ctx, uint64_t done, uint64_t total)
{
	const struct lt_analysis *core = ctx;

	core->opts->progress(core->opts->progress_ctx, done, total);
}

static void release(void *ctx)
{
	struct analysis *a = ctx;

	lt_analysis_free(&a->core);
	lt_waits_spill_free(a->waits);
	lt_input_close(a->in);
	free(a);
}

int lt_analyze(const char *path, const struct lt_options *opts,
	       struct lt_report **out, struct lt_error *err)
{
	struct lt_input_result pres;
	struct lt_report_priv *priv;
	struct lt_input_open oo;
	enum lt_input_kind kind;
	struct lt_input_run cfg;
	struct lt_decoder dec;
	struct lt_analysis *core;
	struct analysis *a;
	struct lt_error damage;
	uint64_t events = 0;
	bool have_dec = false;
	int ret;

	*out = NULL;
	memset(err, 0, sizeof(*err));
	if (lt_input_detect(path, &kind, err) < 0)
		return -1;
	/* "-" redirected from a trace.dat or a report: mapped as that file */
	if (!strcmp(path, "-") && kind != LT_INPUT_PERF)
		path = "/dev/stdin";
	/* made already: the analysis it was made with holds */
	if (kind == LT_INPUT_REPORT) {
		if (lt_report_read_json(path, out, err) < 0)
			return -1;
		(*out)->saved = true;
		return 0;
	}
	priv = calloc(1, sizeof(*priv));
	a = calloc(1, sizeof(*a));
	if (!priv || !a) {
		free(priv);
		free(a);
		lt_error_set(err, LT_E_NOMEM, "out of memory");
		return -1;
	}
	core = &a->core;
	priv->release = release;
	priv->release_ctx = a;
	priv->pub.options = *opts;

	/* a helper thread for the input, on a second core */
	memset(&oo, 0, sizeof(oo));
	oo.helper = opts->threads != 1 && lt_thread_usable_cpus() > 1;
	oo.kallsyms = opts->kallsyms;
	oo.buffer = opts->buffer;
	if (lt_input_open(&a->in, path, kind, &oo, err) < 0)
		goto fail;
	ret = lt_analysis_init(core, a->in, &priv->replay, opts, opts->window_ns,
			       path, err);
	priv->have_replay = core->have_replay;
	if (ret < 0)
		goto fail;
	/*
	 * Every wait, to be handed over once its cause is final, or for the
	 * timeline to choose from: the replay's watcher, set before any
	 * event is fed.
	 */
	if (opts->waits || opts->timeline_threads) {
		a->waits = lt_waits_spill_new(err);
		if (!a->waits)
			goto fail;
		core->rp->opts.on_note = lt_waits_spill_note;
		core->rp->opts.note_ctx = a->waits;
	}
	if (lt_decode_init(&dec, lt_input_formats(a->in), err) < 0)
		goto fail;
	have_dec = true;

	cfg.dec = &dec;
	cfg.by_id = core->by_id;
	cfg.partial = opts->partial;
	cfg.to_ns = opts->to_ns;
	cfg.threads = lt_input_threads(a->in, opts->threads);
	core->load_beside = cfg.threads > 1;
	ret = lt_input_run(a->in, &cfg, lt_analysis_event,
			   opts->progress ? report_progress : NULL, core, &pres,
			   err);
	lt_analysis_symbols_join(core);
	if (ret < 0) {
		if (core->rp->err.code)
			replay_error(err, path, &core->rp->err);
		/*
		 * damage in a CPU's data: --partial reports what precedes it
		 * and the other CPUs, which the message alone does not say
		 */
		else if (!opts->partial && (err->code == LT_E_TRUNCATED ||
					    err->code == LT_E_CORRUPT))
			append_msg(err, " (try --partial for what can be read)");
		goto fail;
	}
	events = pres.events;
	priv->pub.stopped_at_to = pres.cut;
	if (pres.damaged) {
		/* the first damage says where; the others are counted */
		char why[LT_ERROR_MSG_MAX + 64];

		snprintf(why, sizeof(why), "%s", pres.damage.msg);
		if (pres.nr_damaged > 1)
			snprintf(why + strlen(why), sizeof(why) - strlen(why),
				 "; the data of %u more CPU%s is damaged too",
				 pres.nr_damaged - 1,
				 pres.nr_damaged > 2 ? "s" : "");
		priv->pub.partial = true;
		priv->pub.partial_reason = lt_report_strdup(priv, why);
		damage = pres.damage;
	}
	/* nothing readable before the damage: no report to speak of */
	if (priv->pub.partial && !events) {
		*err = damage;
		append_msg(err, " (--partial: no event could be read before it)");
		goto fail;
	}
	if (range_past_end(core->rp, opts, pres.cut, path, err) < 0)
		goto fail;
	if (!core->src_counts[LT_SRC_SWITCH] &&
	    !core->src_counts[LT_SRC_STAT_SLEEP] &&
	    !core->src_counts[LT_SRC_STAT_BLOCKED]) {
		no_sched_error(core, &dec, path, events, pres.cut, err);
		goto fail;
	}
	if (lt_analysis_symbols_needed(core, err) < 0)
		goto fail;
	if (lt_replay_finish(core->rp) < 0) {
		replay_error(err, path, &core->rp->err);
		goto fail;
	}
	if (lt_analysis_report(core, priv, &dec, events, err) < 0)
		goto fail;
	/* the trace's id is the report's: known now */
	if (opts->waits && lt_waits_spill_emit(a->waits, core->rp, priv->pub.id,
					       lt_analysis_symbol, core, opts,
					       err) < 0)
		goto fail;
	/* the busiest threads are known once the tables are */
	if (opts->timeline_threads && lt_timeline_build(priv, a->waits, err) < 0)
		goto fail;
	lt_waits_spill_free(a->waits);
	a->waits = NULL;
	lt_decode_free(&dec);
	/* the report holds its own copy of every name: the input can go */
	lt_input_close(a->in);
	a->in = NULL;
	core->in = NULL;
	*out = &priv->pub;
	return 0;
fail:
	/* the waits set aside, not the trace, failed: say where */
	lt_waits_spill_failed(a->waits, path, err);
	/* a failure always says what failed, and never exits 0 */
	if (err->code == LT_E_OK || !err->msg[0])
		lt_error_set(err, LT_E_INTERNAL,
			     "%s: internal error: the analysis failed without a reason",
			     path);
	if (have_dec)
		lt_decode_free(&dec);
	lt_report_free(&priv->pub);
	return -1;
}
