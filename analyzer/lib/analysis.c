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

#include "lt-decode.h"
#include "lt-input.h"
#include "lt-replay.h"
#include "lt-report-local.h"
#include "lt-thread.h"
#include "lt-trans.h"


struct analysis {
	struct lt_input *in;
	struct lt_trans trans;
	struct lt_replay *rp;
	uint32_t *by_id;		/* records per event id (lt_input_run) */
	char cause[256];		/* "[func]" handed to the replay */
	const struct lt_options *opts;
	uint64_t src_counts[LT_SRC_NR];	/* events replayed, by source */
	char ksym_note[LT_ERROR_MSG_MAX];	/* why stacks are not named, or "" */
	bool load_beside;		/* symbols may load on a thread of their own */
	bool loading;			/* ... and are: join @loader */
	pthread_t loader;
	struct lt_waits_spill *waits;	/* opts->waits: the replay's notes */
};

/* ---- stacks ---------------------------------------------------------- */

static const char *symbol(void *ctx, uint64_t addr)
{
	struct analysis *a = ctx;
	const char *name = lt_input_ksym(a->in, addr);
	char buf[32];
	uint32_t id;

	if (!name) {
		snprintf(buf, sizeof(buf), "0x%" PRIx64, addr);
		name = buf;
	}
	/* the replay's string table outlives the trace: the report keeps it */
	id = lt_strtab_intern(&a->rp->strs, name, strlen(name));
	return id == UINT32_MAX ? "?" : lt_strtab_get(&a->rp->strs, id);
}

/* A user-space frame, named by the input that encoded it. */
static const char *user_symbol(void *ctx, uint64_t frame)
{
	struct analysis *a = ctx;
	char buf[512];
	const char *name = a->in->ops->frame_name(a->in, frame, buf,
						  sizeof(buf));
	uint32_t id = lt_strtab_intern(&a->rp->strs, name, strlen(name));

	return id == UINT32_MAX ? "?" : lt_strtab_get(&a->rp->strs, id);
}

static int resolve(void *ctx, const uint64_t *frames, unsigned int nr,
		   struct lt_stack_info *out)
{
	struct analysis *a = ctx;
	const char *names[256];
	unsigned int i;

	if (nr > 256)
		nr = 256;
	/* the cause is the kernel's: its frames come before the user's */
	for (i = 0; i < nr && frames[i] != LT_FRAME_USER; i++)
		;
	nr = i;
	out->kernel_thread = false;
	for (i = 0; i < nr; i++) {
		names[i] = symbol(a, frames[i]);
		/* every kernel thread runs under kthread(); user tasks never do */
		if (!strcmp(names[i], "kthread"))
			out->kernel_thread = true;
	}
	out->cause = lt_trans_explain(&a->trans, names, nr, &out->kind,
				      a->cause, sizeof(a->cause));
	return 0;
}

/*
 * Stacks are resolved after the replay, so with cores to spare the
 * symbols load meanwhile, from the first stack on: most traces without -T
 * still carry a kallsyms worth 5-10 ms that is then never read.
 */
static void *load_symbols(void *in)
{
	lt_input_load_ksyms(in, NULL);	/* failure: warned on first use */
	return NULL;
}

static void start_symbols(struct analysis *a)
{
	a->load_beside = false;
	a->loading = !lt_thread_start(&a->loader, load_symbols, a->in);
}

static void symbols_loaded(struct analysis *a)
{
	if (a->loading)
		pthread_join(a->loader, NULL);
	a->loading = false;
}

/*
 * Damaged symbols leave stacks to their blocking function (warned once);
 * symbols that did not fit in memory would give a report that only looks
 * damaged, so they fail the analysis as out of memory.
 */
static int symbols_needed(struct analysis *a, struct lt_error *err)
{
	struct lt_error kerr;

	if (a->rp->nr_stacks <= 1 || !lt_input_load_ksyms(a->in, &kerr))
		return 0;
	if (kerr.code == LT_E_NOMEM) {
		*err = kerr;
		return -1;
	}
	lt_warning("%s", kerr.msg);
	/* the header says it too, where the report is read */
	snprintf(a->ksym_note, sizeof(a->ksym_note), "%s", kerr.msg);
	return 0;
}

/* ---- setup ------------------------------------------------------------ */

static int load_tables(struct analysis *a, const struct lt_options *opts,
		       struct lt_error *err)
{
	size_t i;

	if (lt_trans_init(&a->trans) < 0) {
		lt_error_set(err, LT_E_NOMEM, "out of memory");
		return -1;
	}
	if (!opts->no_default_trans && lt_trans_load_defaults(&a->trans, err) < 0)
		return -1;
	/* without the defaults, still look past scheduler frames */
	if (opts->no_default_trans &&
	    lt_trans_load_skip_buffer(&a->trans, "built-in latencytop.skip",
				      lt_builtin_skip, lt_builtin_skip_len, err) < 0)
		return -1;
	for (i = 0; i < opts->nr_trans_files; i++)
		if (lt_trans_load_file(&a->trans, opts->trans_files[i], err) < 0)
			return -1;
	return 0;
}

/* Asked only for tasks no event named: most never are. */
static const char *cmdline(void *ctx, int pid)
{
	struct analysis *a = ctx;

	return lt_input_task_name(a->in, pid);
}

/* ---- what the trace lacks ---------------------------------------------- */

static void add_source(struct lt_report *r, const char *event, uint64_t count)
{
	if (!count)
		return;
	r->sources[r->nr_sources].event = event;
	r->sources[r->nr_sources].count = count;
	r->nr_sources++;
}

static void add_missing(struct lt_report *r, const char *what,
			const char *effect, const char *option)
{
	r->missing[r->nr_missing].what = what;
	r->missing[r->nr_missing].effect = effect;
	r->missing[r->nr_missing].option = option;
	r->nr_missing++;
}

/*
 * Nothing usable came from source @s.  If the file has records of it that
 * were damaged (or a format without the fields needed), say so instead of
 * advising to record what was recorded.
 */
static void missing(struct lt_report_priv *priv, const struct lt_decoder *d,
		    const uint32_t *by_id, int s, const char *what,
		    const char *effect, const char *option)
{
	uint64_t bad = d->bad_by_src[s] +
		       (d->unusable[s] ? by_id[d->unusable_id[s]] : 0);
	char buf[200];
	const char *e;

	if (bad) {
		snprintf(buf, sizeof(buf), "its %" PRIu64 " records %s and were ignored",
			 bad, d->unusable[s] ? "have a format without the fields "
			 "needed (a damaged file)" : "did not fit their format "
			 "(a damaged file)");
		e = lt_report_strdup(priv, buf);
		if (e) {
			effect = e;
			option = "";
		}
	}
	add_missing(&priv->pub, what, effect, option);
}

/*
 * "-e sched_stat_sleep -e sched_stat_blocked": the options recording
 * events @names (sched:... unless another system is named), as the
 * input's tool spells them.
 */
static const char *event_opts(struct lt_report_priv *priv,
			      const struct lt_input_recipe *rc,
			      const char *const *names, size_t n)
{
	char buf[256];
	size_t len = 0, i;

	buf[0] = '\0';
	for (i = 0; i < n && len < sizeof(buf); i++) {
		const char *colon = strchr(names[i], ':');
		const char *ev = colon ? colon + 1 : names[i];

		len += snprintf(buf + len, sizeof(buf) - len, "%s-e %s%s",
				i ? " " : "", rc->qualified && !colon ?
				"sched:" : "", rc->qualified ? names[i] : ev);
	}
	return lt_report_strdup(priv, buf);
}

/* The line recording everything, as the input's tool spells it. */
static void record_line(char *buf, size_t len, const struct lt_input_recipe *rc,
			const char *extra)
{
	static const char *const all[] = { "sched_stat_sleep",
					   "sched_stat_blocked",
					   "sched_switch", "sched_wakeup" };
	size_t off, i;

	off = (size_t)snprintf(buf, len, "%s -e %s", rc->record,
			       rc->all_latencytop);
	for (i = 0; i < sizeof(all) / sizeof(all[0]) && off < len; i++)
		off += (size_t)snprintf(buf + off, len - off, " -e %s%s",
					rc->qualified ? "sched:" : "", all[i]);
	if (off < len)
		snprintf(buf + off, len - off, " %s%s%s", rc->stacks, extra,
			 rc->workload);
}

static int describe_sources(struct lt_report_priv *priv,
			    const struct lt_input_recipe *rc,
			    const struct lt_decoder *d, const uint32_t *by_id,
			    const uint64_t *c, const char *ksym_note)
{
	static const char *const sw[] = { "sched_switch" };
	static const char *const wk[] = { "sched_wakeup" };
	static const char *const stat[] = { "sched_stat_sleep",
					    "sched_stat_blocked" };
	static const char *const nt[] = { "task:task_newtask" };
	struct lt_report *r = &priv->pub;
	char hint[LT_ERROR_MSG_MAX + 64], extra[160] = "";
	const char *opt;
	int s;

	r->sources = lt_report_alloc(priv, LT_SRC_NR, sizeof(*r->sources));
	r->missing = lt_report_alloc(priv, 8 + LT_SRC_NR, sizeof(*r->missing));
	if (!r->sources || !r->missing)
		return -1;
	for (s = 0; s < LT_SRC_NR; s++) {
		const char *name;

		if (!c[s])
			continue;
		if (s == LT_SRC_STACK)
			snprintf(hint, sizeof(hint), "%s", rc->stack_source);
		else
			snprintf(hint, sizeof(hint), "%s:%s",
				 lt_src_desc[s].system, lt_src_desc[s].name);
		name = lt_report_strdup(priv, hint);
		if (!name)
			return -1;
		add_source(r, name, c[s]);
	}

	if (!c[LT_SRC_SWITCH] && (opt = event_opts(priv, rc, sw, 1)))
		missing(priv, d, by_id, LT_SRC_SWITCH, "sched_switch",
			"no run-queue waits, and without sched_stat_* no blocked time",
			opt);
	else if (!c[LT_SRC_WAKEUP] && !c[LT_SRC_WAKING] &&
		 (opt = event_opts(priv, rc, wk, 1)))
		missing(priv, d, by_id, LT_SRC_WAKEUP, "sched_wakeup",
			"blocked time runs to the next switch-in and includes waiting for a CPU",
			opt);
	if (!c[LT_SRC_STAT_SLEEP] && !c[LT_SRC_STAT_BLOCKED] &&
	    (opt = event_opts(priv, rc, stat, 2)))
		missing(priv, d, by_id, LT_SRC_STAT_BLOCKED,
			"sched_stat_sleep/sched_stat_blocked",
			"blocked time is derived from sched_switch "
			"(the kernel needs CONFIG_SCHEDSTATS and kernel.sched_schedstats=1)",
			opt);
	if (!c[LT_SRC_REASON_SET]) {
		snprintf(hint, sizeof(hint), "-e %s", rc->all_latencytop);
		opt = lt_report_strdup(priv, hint);
		if (!opt)
			return -1;
		missing(priv, d, by_id, LT_SRC_REASON_SET, "latencytop events",
			"no kernel annotations: causes come from kernel stacks "
			"(latency-record probes install makes them from kprobes; "
			"or load kernel/module, or boot the patched kernel)",
			opt);
	}
	if (!c[LT_SRC_STACK])
		missing(priv, d, by_id, LT_SRC_STACK, "kernel stacks",
			"unannotated waits show as \"Unknown reason\"",
			rc->stacks);
	if (!c[LT_SRC_NEWTASK] && !rc->forks &&
	    (opt = event_opts(priv, rc, nt, 1)))
		missing(priv, d, by_id, LT_SRC_NEWTASK, "task_newtask",
			"threads are not grouped into their processes", opt);
	/* not a recording option: it goes on no record line */
	if (ksym_note[0]) {
		snprintf(hint, sizeof(hint), "stacks and their causes show "
			 "addresses (%s)", ksym_note);
		opt = lt_report_strdup(priv, hint);
		if (!opt)
			return -1;
		add_missing(r, "kernel symbols", opt, "--kallsyms FILE");
	}
	if (!r->nr_missing || (r->nr_missing == 1 && ksym_note[0]))
		return 0;
	if (!rc->forks)
		snprintf(extra, sizeof(extra), "%s%s",
			 c[LT_SRC_NEWTASK] ? "" : " -e task_newtask",
			 c[LT_SRC_FORK] && c[LT_SRC_EXEC] ? "" :
			 " -e sched_process_fork -e sched_process_exec -e sched_process_exit");
	record_line(hint, sizeof(hint), rc, extra);
	r->record_hint = lt_report_strdup(priv, hint);
	return r->record_hint ? 0 : -1;
}

/* One line saying what the file holds instead of scheduler events. */
static void no_sched_error(struct analysis *a, const struct lt_decoder *dec,
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
	record_line(line, sizeof(line), a->in->ops->recipe, "");
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

/* The events, as the input hands them out. */
static int replay_event(void *ctx, const struct lt_ev *ev)
{
	struct analysis *a = ctx;

	/* counted here, not by the decoders: they may read past --to */
	if (ev->origin < LT_SRC_NR)
		a->src_counts[ev->origin]++;
	if (ev->kind == LT_EV_STACK && a->load_beside)
		start_symbols(a);
	return lt_replay_feed(a->rp, ev);
}

static void report_progress(void *ctx, uint64_t done, uint64_t total)
{
	struct analysis *a = ctx;

	if (a->opts->progress)
		a->opts->progress(a->opts->progress_ctx, done, total);
}

static void release(void *ctx)
{
	struct analysis *a = ctx;

	symbols_loaded(a);
	lt_waits_spill_free(a->waits);
	lt_trans_free(&a->trans);
	lt_input_close(a->in);
	free(a->by_id);
	free(a);
}

static const char *copy(struct lt_report_priv *priv, const char *s,
			const char *dflt)
{
	const char *c = lt_report_strdup(priv, s ? s : dflt);

	return c ? c : dflt;
}

/* Copies what it needs from the trace: the trace is closed after. */
static void fill_report(struct lt_report_priv *priv, struct lt_input *in,
			const struct lt_replay *rp, uint64_t events)
{
	const struct lt_input_info *info = &in->info;
	const struct lt_replay_stats *st = &rp->stats;
	struct lt_report *r = &priv->pub;
	char id[LT_REPORT_ID_LEN];

	r->schema = LT_REPORT_SCHEMA;
	r->path = copy(priv, info->path, "");
	r->format = copy(priv, info->format, "trace-cmd");
	r->file_version = info->version;
	r->compression = copy(priv, info->compression, "none");
	r->uname = copy(priv, info->uname, "");
	r->clock = copy(priv, info->clock, "");
	r->cpus = info->cpus;
	r->start_ns = st->first_ts;
	r->end_ns = st->last_ts;
	r->events = events;
	r->lost_events = st->lost_events;
	r->lost_gaps_unknown = st->lost_unknown;
	r->lost_per_cpu = st->lost_per_cpu;
	r->nr_lost_cpus = st->nr_cpus_lost;
	if (info->cpus > 0 && info->cpus <= 65536) {
		int64_t *o = lt_report_alloc(priv, info->cpus, sizeof(*o));

		if (o) {
			for (int cpu = 0; cpu < info->cpus; cpu++)
				o[cpu] = lt_input_cpu_overrun(in, cpu);
			r->overrun_per_cpu = o;
		}
	}
	r->dropped_interruptible = st->dropped_interruptible;
	r->dropped_interruptible_ns = st->dropped_interruptible_ns;
	r->dropped_maxtime = st->dropped_maxtime;
	r->dropped_maxtime_ns = st->dropped_maxtime_ns;
	r->began_before_trace = st->began_before_trace;
	r->unfinished = st->unfinished;
	r->no_switch_in = st->no_switch_in;
	r->cpu_waits_no_switch_in = st->cpu_waits_no_switch_in;
	r->cpu_waits_unwoken = st->cpu_waits_unwoken;
	r->cpu_waits_unwoken_ns = st->cpu_waits_unwoken_ns;
	r->complete_from_ns = st->complete_from > st->first_ts ?
			      st->complete_from : st->first_ts;
	r->lost_gaps = st->gaps;
	r->dropped_incomplete = st->dropped_incomplete;
	r->dropped_incomplete_ns = st->dropped_incomplete_ns;
	r->dropped_gap = st->dropped_gap;
	r->dropped_gap_ns = st->dropped_gap_ns;
	r->discarded_lost = st->discarded_lost;
	r->resync = st->resync;
	r->unmatched_restore = st->unmatched_restore;
	r->inconsistent = st->inconsistent;
	r->unordered = st->unordered;
	/* from what is filled in above: the same for every range of the trace */
	r->id = copy(priv, lt_report_id_of(r, id, sizeof(id)), "");
	r->whole.start_ns = rp->origin_ns;
	r->whole.end_ns = st->last_ts;
	if (r->options.to_ns >= 0 &&
	    st->first_ts + (uint64_t)r->options.to_ns < r->whole.end_ns)
		r->whole.end_ns = st->first_ts + (uint64_t)r->options.to_ns;
	if (r->whole.end_ns < r->whole.start_ns)
		r->whole.end_ns = r->whole.start_ns;
}

int lt_analyze(const char *path, const struct lt_options *opts,
	       struct lt_report **out, struct lt_error *err)
{
	struct lt_replay_opts ro = { 0 };
	struct lt_input_result pres;
	struct lt_report_priv *priv;
	struct lt_input_open oo;
	enum lt_input_kind kind;
	struct lt_input_run cfg;
	struct lt_decoder dec;
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
	priv->release = release;
	priv->release_ctx = a;
	priv->pub.options = *opts;
	a->rp = &priv->replay;
	a->opts = opts;

	/* a helper thread for the input, on a second core */
	oo.helper = opts->threads != 1 && lt_thread_usable_cpus() > 1;
	oo.kallsyms = opts->kallsyms;
	if (lt_input_open(&a->in, path, kind, &oo, err) < 0)
		goto fail;
	a->by_id = calloc(lt_trace_event_id_limit(lt_input_formats(a->in)) + 1,
			  sizeof(*a->by_id));
	if (!a->by_id) {
		lt_error_set(err, LT_E_NOMEM, "out of memory");
		goto fail;
	}
	if (load_tables(a, opts, err) < 0)
		goto fail;
	if (lt_decode_init(&dec, lt_input_formats(a->in), err) < 0)
		goto fail;
	have_dec = true;

	ro.sleep_cutoff_ns = opts->sleep_cutoff_ns;
	ro.honour_maxtime = opts->honour_maxtime;
	ro.window_ns = opts->window_ns;
	ro.from_ns = opts->from_ns;
	ro.to_ns = opts->to_ns;
	ro.resolve = resolve;
	ro.resolve_ctx = a;
	ro.cmdline = cmdline;
	ro.cmdline_ctx = a;
	/* every wait, to be handed over once its cause is final */
	if (opts->waits) {
		a->waits = lt_waits_spill_new(err);
		if (!a->waits)
			goto fail;
		ro.on_note = lt_waits_spill_note;
		ro.note_ctx = a->waits;
	}
	if (lt_replay_init(a->rp, &ro) < 0) {
		replay_error(err, path, &a->rp->err);
		priv->have_replay = true;
		goto fail;
	}
	priv->have_replay = true;

	cfg.dec = &dec;
	cfg.by_id = a->by_id;
	cfg.partial = opts->partial;
	cfg.to_ns = opts->to_ns;
	cfg.threads = lt_input_threads(a->in, opts->threads);
	a->load_beside = cfg.threads > 1;
	ret = lt_input_run(a->in, &cfg, replay_event,
			   opts->progress ? report_progress : NULL, a, &pres,
			   err);
	symbols_loaded(a);
	if (ret < 0) {
		if (a->rp->err.code)
			replay_error(err, path, &a->rp->err);
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
	if (range_past_end(a->rp, opts, pres.cut, path, err) < 0)
		goto fail;
	if (!a->src_counts[LT_SRC_SWITCH] && !a->src_counts[LT_SRC_STAT_SLEEP] &&
	    !a->src_counts[LT_SRC_STAT_BLOCKED]) {
		no_sched_error(a, &dec, path, events, pres.cut, err);
		goto fail;
	}
	if (symbols_needed(a, err) < 0)
		goto fail;
	if (lt_replay_finish(a->rp) < 0) {
		replay_error(err, path, &a->rp->err);
		goto fail;
	}
	fill_report(priv, a->in, a->rp, events);
	priv->pub.damaged_records = dec.bad_records;
	if (a->waits) {
		if (lt_waits_spill_emit(a->waits, a->rp, priv->pub.id, symbol, a,
					opts, err) < 0)
			goto fail;
		lt_waits_spill_free(a->waits);
		a->waits = NULL;
	}
	if (describe_sources(priv, a->in->ops->recipe, &dec, a->by_id,
			     a->src_counts, a->ksym_note) < 0) {
		lt_error_set(err, LT_E_NOMEM, "out of memory");
		goto fail;
	}
	if (lt_report_build(priv, symbol, a->in->ops->frame_name ? user_symbol : NULL,
			    a, err) < 0)
		goto fail;
	lt_decode_free(&dec);
	/* the report holds its own copy of every name: the input can go */
	lt_input_close(a->in);
	a->in = NULL;
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
