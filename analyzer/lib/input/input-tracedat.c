// SPDX-License-Identifier: LGPL-2.1
/*
 * input-tracedat.c - trace-cmd's trace.dat as an input (lt-input.h): the
 * reader (tracedat/) for the file, the pipe for its events.
 */
#include <string.h>

#include "lt-input.h"
#include "lt-pipe.h"
#include "lt-thread.h"

static struct lt_trace *trace_of(const struct lt_input *in)
{
	return in->priv;
}

static int td_open(struct lt_input *in, const char *path,
		   const struct lt_input_open *o, struct lt_error *err)
{
	const struct lt_trace_info *ti;
	struct lt_trace *t;

	if (lt_trace_open(&t, path, err) < 0)
		return -1;
	/* kallsyms: decompressed on a second core while this one parses */
	lt_trace_set_helper(t, o->helper);
	ti = lt_trace_info(t);
	in->priv = t;
	in->formats = t;
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
	lt_trace_close(trace_of(in));
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

static int td_run(struct lt_input *in, const struct lt_input_run *run,
		  lt_input_event_fn event, lt_input_progress_fn progress,
		  void *ctx, struct lt_input_result *res,
		  struct lt_error *err)
{
	struct lt_pipe_cfg cfg = { trace_of(in), run };

	return lt_pipe_run(&cfg, event, progress, ctx, res, err);
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
