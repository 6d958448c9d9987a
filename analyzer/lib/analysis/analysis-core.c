// SPDX-License-Identifier: LGPL-2.1
/*
 * analysis-core.c - one analysis (lt-analysis.h): the translation tables,
 * the replay fed event by event, the stacks named, and the report's
 * header and views made of the replay as it stands.
 */
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lt-analysis.h"
#include "lt-thread.h"

/* ---- stacks ---------------------------------------------------------- */

static const char *symbol(void *ctx, uint64_t addr)
{
	struct lt_analysis *a = ctx;
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

const char *lt_analysis_symbol(void *ctx, uint64_t addr)
{
	return symbol(ctx, addr);
}

/* A user-space frame, named by the input that encoded it. */
static const char *user_symbol(void *ctx, uint64_t frame)
{
	struct lt_analysis *a = ctx;
	size_t lo = 0, hi = a->nr_named, mid;
	const char *name;
	char buf[512];
	uint32_t id;

	/* named already, with the others of its binary (name_frames()) */
	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (a->named[mid] < frame)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < a->nr_named && a->named[lo] == frame &&
	    a->named_ids[lo] != UINT32_MAX)
		return lt_strtab_get(&a->rp->strs, a->named_ids[lo]);
	name = a->in->ops->frame_name(a->in, frame, buf, sizeof(buf));
	id = lt_strtab_intern(&a->rp->strs, name, strlen(name));
	return id == UINT32_MAX ? "?" : lt_strtab_get(&a->rp->strs, id);
}

static int cmp_u64(const void *x, const void *y)
{
	uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;

	return a < b ? -1 : a > b;
}

struct naming {
	struct lt_analysis *a;
	size_t next;
};

static int named_one(void *ctx, uint64_t frame, const char *name)
{
	struct naming *n = ctx;
	struct lt_analysis *a = n->a;

	if (n->next >= a->nr_named || a->named[n->next] != frame)
		return -1;
	a->named_ids[n->next++] = lt_strtab_intern(&a->rp->strs, name,
						   strlen(name));
	return 0;
}

/*
 * The user frames of the stacks the report may show (its sub-rows'),
 * named before the report is built and in one go, binary by binary: each
 * binary's files are then let go before the next is opened, and before
 * the report takes its memory.  Frames left out are named one by one.
 */
static int name_frames(struct lt_analysis *a, struct lt_error *err)
{
	const struct lt_replay *rp = a->rp;
	uint8_t *used = NULL;
	const uint64_t *frames;
	struct naming n = { a, 0 };
	size_t nr = 0, cap = 0, i, k;
	uint32_t s, nf, f;
	uint64_t *v;

	if (!a->in->ops->frame_names || a->named || rp->nr_stacks <= 1)
		return 0;
	used = calloc(rp->nr_stacks, 1);
	if (!used)
		goto nomem;
	for (i = 0; i < rp->nr_subs; i++)
		if (rp->subs[i].stack < rp->nr_stacks)
			used[rp->subs[i].stack] = 1;
	for (s = 1; s < rp->nr_stacks; s++) {
		if (!used[s])
			continue;
		frames = lt_replay_stack_frames(rp, s, &nf);
		for (f = 0; f < nf && frames[f] != LT_FRAME_USER; f++)
			;
		for (f++; f < nf; f++) {
			if (nr == cap) {
				cap = cap ? 2 * cap : 1024;
				v = realloc(a->named, cap * sizeof(*v));
				if (!v)
					goto nomem;
				a->named = v;
			}
			a->named[nr++] = frames[f];
		}
	}
	free(used);
	used = NULL;
	if (!nr)
		return 0;
	qsort(a->named, nr, sizeof(*a->named), cmp_u64);
	for (i = 1, k = 1; i < nr; i++)
		if (a->named[i] != a->named[k - 1])
			a->named[k++] = a->named[i];
	a->nr_named = k;
	a->named_ids = malloc(k * sizeof(*a->named_ids));
	if (!a->named_ids)
		goto nomem;
	memset(a->named_ids, 0xff, k * sizeof(*a->named_ids));
	/* a name not kept (out of memory) is asked again, one by one */
	a->in->ops->frame_names(a->in, a->named, k, named_one, &n);
	return 0;
nomem:
	free(used);
	lt_error_set(err, LT_E_NOMEM, "out of memory");
	return -1;
}

static void user_place(void *ctx, uint64_t frame, uint32_t *binary,
		       uint64_t *offset)
{
	struct lt_analysis *a = ctx;

	a->in->ops->frame_place(a->in, frame, binary, offset);
}

/* The binaries user frames are in, and the kernel's build-id. */
static int report_binaries(struct lt_report_priv *priv, struct lt_input *in)
{
	struct lt_report *r = &priv->pub;
	struct lt_report_binary *bins;
	const char *path;
	unsigned int n = 0, i;
	char hex[41];

	if (in->ops->kernel_build_id) {
		in->ops->kernel_build_id(in, hex);
		if (hex[0] && !(r->kernel_build_id = lt_report_strdup(priv, hex)))
			return -1;
	}
	if (!in->ops->binary)
		return 0;
	while (in->ops->binary(in, n, hex))
		n++;
	if (!n)
		return 0;
	bins = lt_report_alloc(priv, n, sizeof(*bins));
	if (!bins)
		return -1;
	for (i = 0; i < n; i++) {
		path = in->ops->binary(in, i, hex);
		bins[i].path = lt_report_strdup(priv, path);
		bins[i].build_id = lt_report_strdup(priv, hex);
		if (!bins[i].path || !bins[i].build_id)
			return -1;
	}
	r->binaries = bins;
	r->nr_binaries = n;
	return 0;
}

static int resolve(void *ctx, const uint64_t *frames, unsigned int nr,
		   struct lt_stack_info *out)
{
	struct lt_analysis *a = ctx;
	const char *names[256] = { NULL };
	unsigned int i, n;

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
	/*
	 * a wakeup's stack: a timer's expiry, or the run of wakeups another
	 * CPU queued, among its first frames
	 */
	out->timer = out->remote = false;
	for (i = lt_chain_after_tracepoint(names, nr), n = 0;
	     i < nr && n < LT_CHAIN_TIMER_DEPTH && !out->timer && !out->remote;
	     i++, n++) {
		out->timer = lt_chain_timer_frame(names[i]);
		out->remote = lt_chain_remote_frame(names[i]);
	}
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

static void start_symbols(struct lt_analysis *a)
{
	a->load_beside = false;
	a->loading = !lt_thread_start(&a->loader, load_symbols, a->in);
}

void lt_analysis_symbols_join(struct lt_analysis *a)
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
int lt_analysis_symbols_needed(struct lt_analysis *a, struct lt_error *err)
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

static int load_tables(struct lt_analysis *a, const struct lt_options *opts,
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
	struct lt_analysis *a = ctx;

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

void lt_analysis_record_line(char *buf, size_t len,
			     const struct lt_input_recipe *rc, const char *extra)
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
			"blocked time runs to the next switch-in and includes waiting for a CPU, and no waker is named",
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
			"(the events come from latency-record probes install "
			"where the kernel has kprobe events, kernel/module where "
			"it loads modules, or the patched kernel: latency-record "
			"doctor says which)",
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
	lt_analysis_record_line(hint, sizeof(hint), rc, extra);
	r->record_hint = lt_report_strdup(priv, hint);
	return r->record_hint ? 0 : -1;
}

/* ---- the run ------------------------------------------------------------- */

int lt_analysis_event(void *ctx, const struct lt_ev *ev)
{
	struct lt_analysis *a = ctx;

	/* counted here, not by the decoders: they may read past --to */
	if (ev->origin < LT_SRC_NR)
		a->src_counts[ev->origin]++;
	if (ev->kind == LT_EV_STACK && a->load_beside)
		start_symbols(a);
	return lt_replay_feed(a->rp, ev);
}

int lt_analysis_record(struct lt_analysis *a, struct lt_decoder *dec,
		       const struct lt_record *rec)
{
	struct lt_ev ev;

	if (rec->kind == LT_REC_EVENT)
		a->by_id[rec->id < a->other_id ? rec->id : a->other_id]++;
	if (!lt_decode_record(dec, rec, &ev))
		return 0;
	return lt_analysis_event(a, &ev);
}

int lt_analysis_init(struct lt_analysis *a, struct lt_input *in,
		     struct lt_replay *rp, const struct lt_options *opts,
		     uint64_t window_ns, const char *path,
		     struct lt_error *err)
{
	struct lt_replay_opts ro = { 0 };

	memset(a, 0, sizeof(*a));
	a->in = in;
	a->rp = rp;
	a->opts = opts;
	a->other_id = lt_trace_event_id_limit(lt_input_formats(in));
	a->by_id = calloc(a->other_id + 1, sizeof(*a->by_id));
	if (!a->by_id) {
		lt_error_set(err, LT_E_NOMEM, "out of memory");
		return -1;
	}
	if (load_tables(a, opts, err) < 0)
		return -1;
	ro.sleep_cutoff_ns = opts->sleep_cutoff_ns;
	ro.honour_maxtime = opts->honour_maxtime;
	ro.charge_stopped = opts->charge_stopped;
	ro.no_chains = opts->no_chains;
	ro.window_ns = window_ns;
	ro.from_ns = opts->from_ns;
	ro.to_ns = opts->to_ns;
	ro.resolve = resolve;
	ro.resolve_ctx = a;
	ro.cmdline = cmdline;
	ro.cmdline_ctx = a;
	a->have_replay = true;
	if (lt_replay_init(rp, &ro) < 0) {
		/* the replay does not know the file: say which one */
		lt_error_set(err, rp->err.code, "%s: %s", path, rp->err.msg);
		return -1;
	}
	return 0;
}

void lt_analysis_free(struct lt_analysis *a)
{
	lt_analysis_symbols_join(a);
	lt_trans_free(&a->trans);
	free(a->by_id);
	a->by_id = NULL;
	free(a->named);
	free(a->named_ids);
	a->named = NULL;
	a->named_ids = NULL;
	a->nr_named = 0;
}

/* ---- the report ---------------------------------------------------------- */

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
	r->buffer = info->buffer ? copy(priv, info->buffer, "") : NULL;
	r->other_buffers = info->other_buffers ?
			   copy(priv, info->other_buffers, "") : NULL;
	r->cpus = info->cpus;
	r->start_ns = st->first_ts;
	r->end_ns = st->last_ts;
	r->events = events;
	r->lost_events = st->lost_events;
	r->lost_gaps_unknown = st->lost_unknown;
	/* the replay's array grows while a live one goes on: a copy */
	if (st->nr_cpus_lost > 0) {
		uint64_t *l = lt_report_alloc(priv, st->nr_cpus_lost,
					      sizeof(*l));

		if (l) {
			memcpy(l, st->lost_per_cpu,
			       st->nr_cpus_lost * sizeof(*l));
			r->lost_per_cpu = l;
			r->nr_lost_cpus = st->nr_cpus_lost;
		}
	}
	/* --partial: the CPUs whose data ends early, and where */
	if (st->nr_cpu_data_end > 0 && info->cpus > 0 && info->cpus <= 65536) {
		uint64_t *e = lt_report_alloc(priv, info->cpus, sizeof(*e));

		if (e) {
			for (int cpu = 0; cpu < st->nr_cpu_data_end &&
					  cpu < info->cpus; cpu++)
				if (st->cpu_data_end[cpu])
					e[cpu] = st->cpu_data_end[cpu] < st->first_ts ?
						 st->first_ts : st->cpu_data_end[cpu];
			r->cpu_data_end = e;
		}
	}
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
	r->lower_bound = st->lower_bound;
	r->lower_bound_ns = st->lower_bound_ns;
	r->stopped_signal = st->stopped[0];
	r->stopped_signal_ns = st->stopped_ns[0];
	r->stopped_tracer = st->stopped[1];
	r->stopped_tracer_ns = st->stopped_ns[1];
	r->unknown_state = st->unknown_state;
	r->unknown_state_ns = st->unknown_state_ns;
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
	r->cgroup_events = st->cgroups;
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

int lt_analysis_report(struct lt_analysis *a, struct lt_report_priv *priv,
		       const struct lt_decoder *dec, uint64_t events,
		       struct lt_error *err)
{
	/* first, while the report has taken no memory yet */
	if (name_frames(a, err) < 0)
		return -1;
	fill_report(priv, a->in, a->rp, events);
	priv->pub.damaged_records = dec->bad_records;
	if (describe_sources(priv, a->in->ops->recipe, dec, a->by_id,
			     a->src_counts, a->ksym_note) < 0 ||
	    report_binaries(priv, a->in) < 0) {
		lt_error_set(err, LT_E_NOMEM, "out of memory");
		return -1;
	}
	if (a->in->ops->frame_place)
		priv->user_place = user_place;
	return lt_report_build_from(priv, a->rp, symbol,
				    a->in->ops->frame_name ? user_symbol : NULL,
				    a, err);
}
