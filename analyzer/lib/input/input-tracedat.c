// SPDX-License-Identifier: LGPL-2.1
/*
 * input-tracedat.c - trace-cmd's trace.dat as an input (lt-input.h): the
 * reader (tracedat/) for the file, the pipe for its events.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lt-input.h"
#include "lt-pipe.h"
#include "lt-thread.h"

struct td {
	struct lt_trace *t;
	char *others;		/* in->info.other_buffers */
};

static struct lt_trace *trace_of(const struct lt_input *in)
{
	return ((const struct td *)in->priv)->t;
}

/* What the header calls buffer @i. */
static const char *buffer_title(const struct lt_trace *t, unsigned int i)
{
	return i ? lt_trace_buffer_name(t, i) : "the top level";
}

/* "the top level, NAME, ...": the file's buffers, for a message. */
static void list_buffers(const struct lt_trace *t, char *buf, size_t len)
{
	unsigned int i;
	size_t n = 0;

	buf[0] = '\0';
	for (i = 0; i < lt_trace_nr_buffers(t) && n < len; i++)
		n += snprintf(buf + n, len - n, "%s%s", i ? ", " : "",
			      buffer_title(t, i));
}

/*
 * The buffer to read: @want's (an instance's name, "" the top level), else
 * the one with scheduler events, the top level first; the others that have
 * some are named in d->others.  A file of the top level alone is not read
 * for that.
 */
static int choose_buffer(struct lt_input *in, struct td *d, const char *path,
			 const char *want, struct lt_error *err)
{
	static const char *const sched[] = {
		"sched_switch", "sched_wakeup", "sched_waking",
		"sched_wakeup_new", "sched_stat_sleep", "sched_stat_blocked",
	};
	unsigned int n = lt_trace_nr_buffers(d->t), nr_ids, i, pick = 0, found = 0;
	const struct lt_event_type *type;
	struct lt_error skip;
	size_t len = 0, k;
	char names[512];
	bool *ids;
	int ret;

	if (want) {
		for (i = 0; i < n && strcmp(lt_trace_buffer_name(d->t, i), want); i++)
			;
		if (i == n) {
			list_buffers(d->t, names, sizeof(names));
			lt_error_set(err, LT_E_USAGE, "%s: --buffer: no buffer "
				     "'%s' in the file (it has %s)", path, want,
				     names);
			return -1;
		}
		if (lt_trace_use_buffer(d->t, i, err) < 0)
			return -1;
		in->info.buffer = i ? lt_trace_buffer_name(d->t, i) : NULL;
		return 0;
	}
	if (n < 2)
		return 0;
	nr_ids = lt_trace_event_id_limit(d->t);
	ids = calloc(nr_ids ? nr_ids : 1, sizeof(*ids));
	d->others = malloc(n * 64 + 1);
	if (!ids || !d->others) {
		free(ids);
		lt_error_set(err, LT_E_NOMEM, "%s: out of memory", path);
		return -1;
	}
	d->others[0] = '\0';
	for (k = 0; k < sizeof(sched) / sizeof(sched[0]); k++) {
		type = lt_trace_find_event(d->t, "sched", sched[k]);
		if (type && lt_event_type_id(type) < nr_ids)
			ids[lt_event_type_id(type)] = true;
	}
	for (i = 0; i < n; i++) {
		/* an instance the file cannot say where is has none */
		ret = lt_trace_buffer_has(d->t, i, ids, nr_ids, &skip);
		if (ret <= 0)
			continue;
		if (!found++) {
			pick = i;
			continue;
		}
		len += snprintf(d->others + len, n * 64 + 1 - len, "%s%.60s",
				len ? ", " : "", buffer_title(d->t, i));
	}
	free(ids);
	if (lt_trace_use_buffer(d->t, pick, err) < 0)
		return -1;
	in->info.buffer = pick ? lt_trace_buffer_name(d->t, pick) : NULL;
	in->info.other_buffers = len ? d->others : NULL;
	return 0;
}

static int td_open(struct lt_input *in, const char *path,
		   const struct lt_input_open *o, struct lt_error *err)
{
	const struct lt_trace_info *ti;
	struct td *d = calloc(1, sizeof(*d));

	if (!d) {
		lt_error_set(err, LT_E_NOMEM, "%s: out of memory", path);
		return -1;
	}
	if (lt_trace_open(&d->t, path, err) < 0) {
		free(d);
		return -1;
	}
	in->priv = d;
	if (choose_buffer(in, d, path, o->buffer, err) < 0) {
		lt_trace_close(d->t);
		free(d->others);
		free(d);
		in->priv = NULL;
		return -1;
	}
	/* kallsyms: decompressed on a second core while this one parses */
	lt_trace_set_helper(d->t, o->helper);
	ti = lt_trace_info(d->t);
	in->formats = d->t;
	in->info.path = ti->path;
	in->info.format = "trace-cmd";
	in->info.version = ti->version;
	in->info.compression = ti->compression;
	in->info.uname = ti->uname;
	in->info.clock = ti->clock;
	in->info.cpus = ti->cpus;
	return 0;
}

static void td_close(struct lt_input *in)
{
	struct td *d = in->priv;

	lt_trace_close(d->t);
	free(d->others);
	free(d);
}

/* Threads: as asked, else one per core we may run on, if worth it. */
static unsigned int td_threads(struct lt_input *in, unsigned int asked)
{
	struct lt_trace *t = trace_of(in);
	uint64_t done, total;

	if (asked)
		return asked;
	lt_trace_progress(t, &done, &total);
	return lt_pipe_auto_threads(total,
				    strcmp(lt_trace_info(t)->compression, "none"),
				    lt_thread_usable_cpus());
}

/*
 * The cgroups latency-record saved (lt_trace_cgroups()), told before the
 * first event, at its time: the caller's event function behind this one.
 */
struct td_cgroups {
	const char *text;	/* NULL once told */
	lt_input_event_fn event;
	lt_input_progress_fn progress;
	void *ctx;
};

int lt_input_tell_cgroups(const char *text, uint64_t ts,
			  lt_input_event_fn event, void *ctx)
{
	const char *p = text, *nl, *path;
	struct lt_ev ev;
	char *end;
	long tid;

	for (; *p; p = *nl ? nl + 1 : nl) {
		nl = strchr(p, '\n');
		if (!nl)
			nl = p + strlen(p);
		tid = strtol(p, &end, 10);
		if (end == p || *end != ' ' || tid <= 0 || tid > INT32_MAX)
			continue;	/* not a line of ours: skipped */
		path = end + 1;
		if (path >= nl || *path != '/')
			continue;
		memset(&ev, 0, sizeof(ev));
		ev.kind = LT_EV_CGROUP;
		ev.ts = ts;
		ev.cpu = -1;
		ev.origin = LT_EV_NO_ORIGIN;
		ev.pid = (int)tid;
		ev.str = path;
		ev.str_len = (uint16_t)(nl - path < LT_EV_STR_MAX ?
					nl - path : LT_EV_STR_MAX);
		if (event(ctx, &ev) < 0)
			return -1;
	}
	return 0;
}

static int on_event_cgroups(void *ctx, const struct lt_ev *ev)
{
	struct td_cgroups *c = ctx;
	const char *text = c->text;

	if (text && ev->kind != LT_EV_LOST) {
		c->text = NULL;
		if (lt_input_tell_cgroups(text, ev->ts, c->event, c->ctx) < 0)
			return -1;
	}
	return c->event(c->ctx, ev);
}

static void on_progress_cgroups(void *ctx, uint64_t done, uint64_t total)
{
	struct td_cgroups *c = ctx;

	c->progress(c->ctx, done, total);
}

static int td_run(struct lt_input *in, const struct lt_input_run *run,
		  lt_input_event_fn event, lt_input_progress_fn progress,
		  void *ctx, struct lt_input_result *res,
		  struct lt_error *err)
{
	struct lt_pipe_cfg cfg = { trace_of(in), run };
	struct td_cgroups c = { lt_trace_cgroups(trace_of(in)), event,
				progress, ctx };

	/* none saved (trace-cmd's files): nothing between */
	if (!c.text)
		return lt_pipe_run(&cfg, event, progress, ctx, res, err);
	return lt_pipe_run(&cfg, on_event_cgroups,
			   progress ? on_progress_cgroups : NULL, &c, res, err);
}

static int td_load_ksyms(struct lt_input *in, struct lt_error *err)
{
	return lt_trace_load_ksyms(trace_of(in), err);
}

static const char *td_ksym(struct lt_input *in, uint64_t addr)
{
	return lt_trace_ksym(trace_of(in), addr, NULL);
}

static const char *td_task_name(struct lt_input *in, int pid)
{
	return lt_trace_cmdline(trace_of(in), pid);
}

static int64_t td_cpu_overrun(struct lt_input *in, int cpu)
{
	return lt_trace_cpu_overrun(trace_of(in), cpu);
}

static const struct lt_input_recipe td_recipe = {
	.record = "trace-cmd record",
	.qualified = false,
	.all_latencytop = "latencytop",
	.stacks = "-T",
	.stack_source = "ftrace:kernel_stack",
	.workload = " <workload>",
	.forks = false,
};

const struct lt_input_ops lt_input_tracedat = {
	.name = "trace.dat",
	.recipe = &td_recipe,
	.open = td_open,
	.close = td_close,
	.threads = td_threads,
	.run = td_run,
	.load_ksyms = td_load_ksyms,
	.ksym = td_ksym,
	.task_name = td_task_name,
	.cpu_overrun = td_cpu_overrun,
};
