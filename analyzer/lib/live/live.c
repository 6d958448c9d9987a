// SPDX-License-Identifier: LGPL-2.1
/*
 * live.c - live mode (lt-live.h): lt_record's session and readers on one
 * side, lt-analysis.h's decoder and replay on the other, the merge
 * between.
 *
 * The replay needs the event formats before the first record: they are
 * read from tracefs once tracing is on (lt_record's meta) and written as
 * a trace.dat without CPU data into a memfd, which the trace.dat input
 * opens like any file: formats, kallsyms and saved cmdlines then come
 * from the one reader that knows them.  The readers start first, so
 * their pages wait in the merge until then.
 */
#define _GNU_SOURCE	/* memfd_create, asprintf */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "lt-analysis.h"
#include "lt-live-merge.h"
#include "lt-live.h"
#include "lt-outfile.h"
#include "ltr-dat.h"

#define DEFAULT_WINDOW_NS	(30 * 1000000000ULL)
#define MIN_STEP_NS		(100 * 1000000ULL)
/*
 * Taken off a watermark: an event still being written when its reader
 * found the buffer empty (a writer is preempted for microseconds; a
 * virtual CPU the host does not run, for longer).
 */
#define SLACK_NS		(20 * 1000000ULL)

struct lt_live {
	struct lt_live_config cfg;
	struct lt_options opts;		/* the analysis points here */
	struct ltr_session *s;
	struct ltr_stream *st;
	struct ltr_meta *meta;
	struct lt_live_merge *m;
	int fmt_fd;			/* the formats' trace.dat, in memory */
	struct lt_input *in;
	struct lt_input_ops ops;	/* trace.dat's, named "live" */
	struct lt_decoder dec;
	bool have_dec;
	struct lt_replay rp;
	struct lt_analysis a;
	bool have_analysis;
	uint64_t events;
	uint64_t started_ns;
	uint64_t step_ns, window_ns;
	bool stopped, finished, restored;
	struct lt_outfile out;		/* --save's trace.dat */
	struct ltr_journal *journal;	/* undone by the next run, if killed */
	long out_jid;
	struct ltr_cpu_files spill;	/* every page read, with an output */
	uint64_t *lost_per_cpu;		/* the stats' copy */
	uint64_t reader_cpu_ns;		/* the readers', once they are gone */
	char instance[64];
};

static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

void lt_live_config_init(struct lt_live_config *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	lt_options_init(&cfg->opts);
	cfg->stacks = LTR_STACKS_SWITCH;
}

/* ---- the readers' side ------------------------------------------------- */

/* A reader's pages: to disk (with an output), then to the merge. */
static int pages_in(void *ctx, int cpu, const void *pages, size_t len)
{
	struct lt_live *lv = ctx;
	int e;

	if (lv->spill.fds && (e = ltr_cpu_files_write(&lv->spill, cpu, pages, len)))
		return e;
	return lt_live_merge_pages(lv->m, cpu, pages, len);
}

static void drained(void *ctx, int cpu, uint64_t ts)
{
	struct lt_live *lv = ctx;

	lt_live_merge_drained(lv->m, cpu, ts);
}

/* ---- the formats ------------------------------------------------------- */

/*
 * The formats (and kallsyms, saved cmdlines) as a trace.dat of no CPU
 * data, in a memfd the trace.dat input opens by /proc/self/fd.
 */
static int open_formats(struct lt_live *lv, struct lt_error *err)
{
	struct ltr_dat_input *in = ltr_meta_input(lv->meta);
	struct lt_input_open oo = { 0 };
	int cpus = ltr_session_cpus(lv->s), *null_fds, i, ret = -1;
	char path[64];

	null_fds = calloc((size_t)cpus, sizeof(*null_fds));
	if (!null_fds) {
		lt_error_set(err, LT_E_NOMEM, "out of memory");
		return -1;
	}
	for (i = 0; i < cpus; i++)
		null_fds[i] = -1;
	for (i = 0; i < cpus; i++) {
		null_fds[i] = open("/dev/null", O_RDONLY | O_CLOEXEC);
		if (null_fds[i] < 0) {
			lt_error_set(err, LT_E_INTERNAL, "/dev/null: %s",
				     strerror(errno));
			goto out;
		}
	}
	lv->fmt_fd = memfd_create("latencytop-live-formats", MFD_CLOEXEC);
	if (lv->fmt_fd < 0) {
		lt_error_set(err, LT_E_INTERNAL, "memfd_create: %s",
			     strerror(errno));
		goto out;
	}
	in->page_size = (uint32_t)ltr_stream_page_size(lv->st);
	in->cpu_fds = null_fds;
	/* the buffers' counts now say nothing of the hours to come */
	in->cpustats = NULL;
	if (ltr_dat_write(lv->fmt_fd, "live formats", in, err))
		goto out;
	snprintf(path, sizeof(path), "/proc/self/fd/%d", lv->fmt_fd);
	if (lt_input_open(&lv->in, path, LT_INPUT_TRACEDAT, &oo, err) < 0)
		goto out;
	/* said as where the events come from, and how to get what is missing */
	lv->ops = *lv->in->ops;
	lv->ops.name = "live";
	lv->in->ops = &lv->ops;
	lv->in->info.path = "live";
	lv->in->info.format = "live";
	ret = 0;
out:
	for (i = 0; i < cpus; i++)
		if (null_fds[i] >= 0)
			close(null_fds[i]);
	free(null_fds);
	return ret;
}

/*
 * A task the replay meets for the first time is alive now (or was a
 * moment ago): /proc says whose thread it is and whether it is the
 * kernel's, which a file can only guess from fork events and names.
 */
static void task_info(void *ctx, int pid, int *tgid, bool *kthread)
{
	char path[64], buf[1024];
	const char *p;
	ssize_t n;
	int fd;

	(void)ctx;
	snprintf(path, sizeof(path), "/proc/%d/status", pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return;
	buf[n] = '\0';
	p = strstr(buf, "\nTgid:");
	if (p)
		*tgid = atoi(p + 6);
	p = strstr(buf, "\nKthread:");
	if (p)
		*kthread = atoi(p + 9) == 1;
}

/* ---- open --------------------------------------------------------------- */

static int start_tracing(struct lt_live *lv, struct lt_error *err)
{
	struct ltr_stream_opts so = { 0 };
	struct ltr_config rc;

	ltr_config_init(&rc);
	/* told apart from a recording's by ls instances */
	snprintf(lv->instance, sizeof(lv->instance), "latencytop-live.%d",
		 (int)getpid());
	rc.instance = lv->instance;
	rc.top_level = lv->cfg.top_level;
	rc.buffer_kb = lv->cfg.buffer_kb;
	rc.stacks = lv->cfg.stacks;
	/* watermarks are CLOCK_MONOTONIC: the events' stamps must be too */
	rc.clock = "mono";
	rc.journal = lv->journal;
	if (ltr_session_open(&rc, &lv->s, err))
		return -1;
	if (lv->cfg.schedstats && ltr_session_schedstats_off(lv->s))
		ltr_session_want_schedstats(lv->s, true);
	if (lt_live_merge_new(ltr_session_cpus(lv->s), lv->cfg.queue_limit,
			      &lv->m, err) < 0)
		return -1;
	if (lv->cfg.output &&
	    ltr_cpu_files_open(&lv->spill, lv->cfg.output,
			       ltr_session_cpus(lv->s), lv->journal, err))
		return -1;
	so.pages = pages_in;
	so.ctx = lv;
	so.poll_ms = lv->cfg.poll_ms;
	so.partial = true;
	so.drained = drained;
	if (ltr_stream_start(lv->s, &so, &lv->st, err) ||
	    ltr_session_start(lv->s, err) ||
	    ltr_meta_begin(lv->s, &lv->meta, err) ||
	    ltr_meta_end(lv->s, lv->meta, err))
		return -1;
	lv->started_ns = mono_ns();
	return 0;
}

int lt_live_open(const struct lt_live_config *cfg, struct lt_live **out,
		 struct lt_error *err)
{
	struct lt_live *lv;
	uint64_t replay_window;

	*out = NULL;
	memset(err, 0, sizeof(*err));
	lv = calloc(1, sizeof(*lv));
	if (!lv) {
		lt_error_set(err, LT_E_NOMEM, "out of memory");
		return -1;
	}
	lv->cfg = *cfg;
	lv->opts = cfg->opts;
	lv->fmt_fd = -1;
	lv->out.fd = -1;
	lv->window_ns = cfg->window_ns ? cfg->window_ns : DEFAULT_WINDOW_NS;
	lv->step_ns = cfg->step_ns ? cfg->step_ns : lv->window_ns / 30;
	if (lv->step_ns < MIN_STEP_NS)
		lv->step_ns = MIN_STEP_NS;
	if (lv->step_ns > lv->window_ns)
		lv->step_ns = lv->window_ns;
	/* the live replay has no end: a range from its start means nothing */
	lv->opts.from_ns = lv->opts.to_ns = -1;
	/* every change from here on is journaled before it is made */
	if (ltr_journal_open(cfg->program ? cfg->program : "latency-analyze --live",
			     &lv->journal, err))
		goto fail;
	/* a temporary beside the output until the trace.dat is complete */
	if (cfg->output) {
		struct ltr_journal_file jf = { lv->journal, LTR_UNDO_UNLINK, 0, { 0 } };

		if (lt_outfile_open_hook(&lv->out, cfg->output,
					 ltr_journal_file_hook, &jf)) {
			if (jf.err.code)
				*err = jf.err;
			else
				lt_error_set(err, LT_E_IO, "cannot write %s: %s",
					     cfg->output, strerror(errno));
			goto fail;
		}
		lv->out_jid = jf.id;
	}
	if (start_tracing(lv, err) < 0 || open_formats(lv, err) < 0)
		goto fail;
	if (lt_decode_init(&lv->dec, lt_input_formats(lv->in), err) < 0)
		goto fail;
	lv->have_dec = true;
	replay_window = cfg->sliding ? lv->step_ns : lv->opts.window_ns;
	lv->have_analysis = true;
	if (lt_analysis_init(&lv->a, lv->in, &lv->rp, &lv->opts, replay_window,
			     "live", err) < 0)
		goto fail;
	lv->rp.opts.task_info = task_info;
	if (lt_live_merge_layout(lv->m, (struct lt_trace *)lt_input_formats(lv->in),
				 ltr_stream_page_size(lv->st), err) < 0)
		goto fail;
	*out = lv;
	return 0;
fail:
	lt_live_close(lv);
	return -1;
}

size_t lt_live_events(const struct lt_live *lv, const struct ltr_event **events)
{
	return ltr_session_events(lv->s, events);
}

int lt_live_fd(const struct lt_live *lv)
{
	return lt_live_merge_fd(lv->m);
}

/* ---- the consumer's side ------------------------------------------------ */



static int record_out(void *ctx, const struct lt_record *rec)
{
	struct lt_live *lv = ctx;
	const char *cgroups;

	/* the tasks' cgroups as the start read them, before anything */
	if (rec->kind == LT_REC_EVENT && !lv->events++ &&
	    (cgroups = ltr_meta_input(lv->meta)->cgroups) &&
	    lt_input_tell_cgroups(cgroups, rec->ts, lt_analysis_event, &lv->a) < 0)
		return -1;
	return lt_analysis_record(&lv->a, &lv->dec, rec);
}

/* A reader that failed: why, from lt_record, as ours. */
static int reader_failed(struct lt_live *lv, struct lt_error *err)
{
	int e = atomic_load(&lv->spill.error);

	lt_live_merge_unblock(lv->m);
	if (e) {
		lt_error_set(err, LT_E_IO, "cannot write %s: %s (CPU %d's pages, kept in %s)",
			     lv->cfg.output, strerror(e),
			     atomic_load(&lv->spill.error_cpu), lv->spill.dir);
		return -1;
	}
	if (ltr_stream_stop(lv->st, err))
		return -1;
	lt_error_set(err, LT_E_TRACING, "a reader of the ring buffers stopped");
	return -1;
}

static int replay_failed(struct lt_live *lv, struct lt_error *err)
{
	if (lv->rp.err.code)
		lt_error_set(err, lv->rp.err.code, "live: %s", lv->rp.err.msg);
	else if (!err->code)
		lt_error_set(err, LT_E_INTERNAL, "live: the replay failed");
	return -1;
}

int64_t lt_live_pump(struct lt_live *lv, uint64_t max, struct lt_error *err)
{
	int64_t n;

	if (lv->stopped)
		return 0;
	if (ltr_stream_failed(lv->st))
		return reader_failed(lv, err);
	n = lt_live_merge_run(lv->m, SLACK_NS, false, max, record_out, lv, err);
	if (n < 0)
		return replay_failed(lv, err);
	return n;
}

/*
 * The sliding window: the steps before the last window_ns go.  Measured
 * from the last event replayed, never from the clock: a wait still to be
 * replayed ends after it, so in a step that is kept.
 */
static int slide(struct lt_live *lv)
{
	const struct lt_replay_stats *st = &lv->rp.stats;
	uint64_t steps = lv->window_ns / lv->step_ns, cur;

	if (!st->have_ts || st->last_ts < lv->rp.origin_ns)
		return 0;
	cur = (st->last_ts - lv->rp.origin_ns) / lv->step_ns;
	if (cur + 1 <= steps)
		return 0;
	return lt_replay_drop_windows(&lv->rp, (uint32_t)(cur + 1 - steps));
}

static int make_report(struct lt_live *lv, struct lt_report **out,
		       struct lt_error *err)
{
	struct lt_report_priv *priv;

	*out = NULL;
	if ((lv->cfg.sliding && slide(lv) < 0) ||
	    (!lv->finished && lt_replay_snapshot(&lv->rp) < 0))
		return replay_failed(lv, err);
	priv = calloc(1, sizeof(*priv));
	if (!priv) {
		lt_error_set(err, LT_E_NOMEM, "out of memory");
		return -1;
	}
	priv->pub.options = lv->opts;
	/* the window shown is the whole view; its steps are the windows */
	if (lv->cfg.sliding)
		priv->pub.options.window_ns = lv->step_ns;
	if (lt_analysis_report(&lv->a, priv, &lv->dec, lv->events, err) < 0) {
		lt_report_free(&priv->pub);
		return -1;
	}
	/* the kernel lacks what is missing: no recording line would bring it */
	priv->pub.record_hint = NULL;
	*out = &priv->pub;
	return 0;
}

int lt_live_report(struct lt_live *lv, struct lt_report **out,
		   struct lt_error *err)
{
	return make_report(lv, out, err);
}

/* The pages kept, as a trace.dat with what the session says now. */
static int write_output(struct lt_live *lv, struct lt_error *err)
{
	struct ltr_dat_input *in = ltr_meta_input(lv->meta);

	in->page_size = (uint32_t)ltr_stream_page_size(lv->st);
	in->cpu_fds = lv->spill.fds;
	if (ltr_dat_write(lv->out.fd, lv->cfg.output, in, err))
		return -1;
	if (lt_outfile_commit(&lv->out, NULL)) {
		lt_error_set(err, LT_E_IO, "cannot write %s: %s", lv->cfg.output,
			     strerror(errno));
		return -1;
	}
	return 0;
}

int lt_live_stop(struct lt_live *lv, struct lt_report **out,
		 struct lt_error *err)
{
	int64_t n;

	if (out)
		*out = NULL;
	if (lv->stopped) {
		lt_error_set(err, LT_E_INTERNAL, "live: stopped twice");
		return -1;
	}
	lv->stopped = true;
	/* the readers read what is left, and never wait for room again */
	lt_live_merge_unblock(lv->m);
	if (ltr_session_stop(lv->s, err) || ltr_stream_stop(lv->st, err)) {
		if (atomic_load(&lv->spill.error))
			return reader_failed(lv, err);
		return -1;
	}
	n = lt_live_merge_run(lv->m, 0, true, 0, record_out, lv, err);
	if (n < 0)
		return replay_failed(lv, err);
	if (lv->cfg.output && ltr_meta_end(lv->s, lv->meta, err))
		return -1;
	if (lt_analysis_symbols_needed(&lv->a, err) < 0)
		return -1;
	if (lt_replay_finish(&lv->rp) < 0)
		return replay_failed(lv, err);
	lv->finished = true;
	if (lv->cfg.output && write_output(lv, err) < 0)
		return -1;
	if (lt_live_restore(lv, err) < 0)
		return -1;
	return out ? make_report(lv, out, err) : 0;
}

int lt_live_restore(struct lt_live *lv, struct lt_error *err)
{
	struct lt_error le = { 0 };

	if (lv->restored || !lv->s)
		return 0;
	lv->restored = true;
	/* readers first: they read the instance that is about to go */
	if (lv->st) {
		ltr_session_stop(lv->s, &le);
		lt_live_merge_unblock(lv->m);
		ltr_stream_stop(lv->st, &le);
		lv->reader_cpu_ns = ltr_stream_cpu_ns(lv->st);
		ltr_stream_free(lv->st);
		lv->st = NULL;
	}
	if (ltr_session_restore(lv->s, err))
		return -1;
	return 0;
}

void lt_live_close(struct lt_live *lv)
{
	struct lt_error err;

	if (!lv)
		return;
	lt_live_restore(lv, &err);
	ltr_session_close(lv->s);
	if (lv->have_analysis) {
		lt_analysis_free(&lv->a);
		if (lv->a.have_replay)
			lt_replay_free(&lv->rp);
	}
	if (lv->have_dec)
		lt_decode_free(&lv->dec);
	lt_input_close(lv->in);
	lt_live_merge_free(lv->m);
	ltr_meta_free(lv->meta);
	if (lv->fmt_fd >= 0)
		close(lv->fmt_fd);
	ltr_cpu_files_close(&lv->spill);
	/* a trace.dat never finished is no trace.dat: its temporary goes */
	lt_outfile_abort(&lv->out, NULL);
	ltr_journal_done(lv->journal, lv->out_jid);
	ltr_journal_close(lv->journal);
	free(lv->lost_per_cpu);
	free(lv);
}

void lt_live_stats(struct lt_live *lv, struct lt_live_stats *st)
{
	const struct lt_replay_stats *rs = &lv->rp.stats;
	struct lt_live_merge_stats ms;
	struct rusage ru;
	int cpus = lv->s ? ltr_session_cpus(lv->s) : 0;

	memset(st, 0, sizeof(*st));
	lt_live_merge_stats(lv->m, &ms);
	st->started_ns = lv->started_ns;
	st->now_ns = mono_ns();
	st->events = lv->events;
	st->bytes = ms.bytes;
	st->lost = rs->lost_events;
	st->lost_gaps = rs->gaps;
	st->cpus = cpus;
	if (!lv->lost_per_cpu && cpus > 0)
		lv->lost_per_cpu = calloc((size_t)cpus, sizeof(*lv->lost_per_cpu));
	if (lv->lost_per_cpu) {
		memset(lv->lost_per_cpu, 0, (size_t)cpus * sizeof(*lv->lost_per_cpu));
		for (int c = 0; c < cpus && c < rs->nr_cpus_lost; c++)
			lv->lost_per_cpu[c] = rs->lost_per_cpu[c];
		st->lost_per_cpu = lv->lost_per_cpu;
	}
	st->late = ms.late;
	st->damaged = ms.damaged;
	st->queued = ms.queued;
	st->queued_peak = ms.queued_peak;
	st->reader_waits = ms.waits;
	st->reader_cpu_ns = lv->st ? ltr_stream_cpu_ns(lv->st) : lv->reader_cpu_ns;
	if (!getrusage(RUSAGE_SELF, &ru))
		st->cpu_ns = ((uint64_t)ru.ru_utime.tv_sec + (uint64_t)ru.ru_stime.tv_sec) *
			     1000000000ULL + ((uint64_t)ru.ru_utime.tv_usec +
			     (uint64_t)ru.ru_stime.tv_usec) * 1000ULL;
	st->window_start_ns = lv->rp.origin_ns;
	st->buffer_kb = lv->s ? ltr_session_buffer_kb(lv->s) : 0;
	st->stacks = lv->s && ltr_session_stacks_enabled(lv->s);
	st->instance = lv->s ? ltr_session_instance_name(lv->s) : NULL;
}
