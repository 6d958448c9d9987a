// SPDX-License-Identifier: GPL-2.0
/*
 * cli-args.c - the analysis options shared by the executables, as the
 * callbacks of their tables' entries (cli-args.h).  Each returns 0, or
 * the exit status of a value it refused and said why.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli-args.h"
#include "latencytop.h"

int cli_one_trace(const char *prog, int optind, int argc)
{
	if (optind == argc - 1)
		return 0;
	fprintf(stderr, "%s: %s\n", prog, optind >= argc ?
		"missing TRACE.dat argument" : "only one trace file at a time");
	return cli_try_help(prog);
}

void cli_analysis_init(struct cli_analysis *a)
{
	memset(a, 0, sizeof(*a));
	lt_options_init(&a->opts);
}

void cli_analysis_free(struct cli_analysis *a)
{
	free(a->lists.trans);
	free(a->lists.pids);
	free(a->lists.tids);
	free(a->lists.comms);
	memset(&a->lists, 0, sizeof(a->lists));
}

/* @val for @opt, which lt_parse_duration() refused with @ret */
static int bad_duration(const char *prog, const char *opt, const char *val,
			int ret, const char *what)
{
	return cli_bad_arg(prog, opt, val,
			   ret == -2 ? "too large a duration" : what);
}

static int nomem(const char *prog)
{
	fprintf(stderr, "%s: out of memory\n", prog);
	return lt_error_exit_status(LT_E_NOMEM);
}

/* @val at the end of *@list of *@nr strings, which *@seen then shows */
static int add_str(const char *prog, const char *val, const char ***list,
		   size_t *nr, const char *const **seen)
{
	const char **t = realloc(*list, (*nr + 1) * sizeof(*t));

	if (!t)
		return nomem(prog);
	t[(*nr)++] = val;
	*list = t;
	*seen = t;
	return 0;
}

/*
 * --pid and --tid: "143", "143,150" (as perf takes them), repeatable,
 * onto *@list of *@nr, which *@seen then shows.
 */
static int add_ids(const char *prog, const char *opt, const char *val,
		   int **list, size_t *nr, const int **seen)
{
	const char *p = val;
	unsigned long v;
	char *end;
	int *t;

	do {
		errno = 0;
		v = strtoul(p, &end, 10);
		if (errno || end == p || *p == '-' || *p == '+' || *p == ' ' ||
		    (*end && *end != ',') || v > INT32_MAX)
			return cli_bad_arg(prog, opt, val, "expected a task id, "
					   "or ids separated by commas");
		t = realloc(*list, (*nr + 1) * sizeof(*t));
		if (!t)
			return nomem(prog);
		t[(*nr)++] = (int)v;
		*list = t;
		*seen = t;
		p = end + 1;
	} while (*end);
	return 0;
}

/* --from, --to: a time from the start of the trace */
static int parse_time(const char *prog, const char *opt, const char *val,
		      int64_t *out)
{
	uint64_t ns;
	int ret = lt_parse_duration(val, 1000000000ULL, &ns);

	if (!ret && ns > INT64_MAX)
		ret = -2;
	if (ret < 0)
		return bad_duration(prog, opt, val, ret, "expected seconds from "
				    "the start of the trace, e.g. 12.5 or 1500ms");
	*out = (int64_t)ns;
	return 0;
}

int cli_opt_sort(const struct cli_cmd *cmd, const struct cli_opt *o,
		 const char *arg)
{
	static const char *const names[] = {
		[LT_SORT_MAX] = "max", [LT_SORT_TOTAL] = "total",
		[LT_SORT_COUNT] = "count", [LT_SORT_AVG] = "avg",
	};
	/* the words the viewer's title uses */
	static const char *const long_names[] = {
		[LT_SORT_MAX] = "maximum", [LT_SORT_AVG] = "average",
	};
	struct cli_analysis *a = o->value;
	size_t i;

	a->sort_given = true;
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(arg, names[i]) ||
		    (i < sizeof(long_names) / sizeof(long_names[0]) &&
		     long_names[i] && !strcmp(arg, long_names[i]))) {
			a->opts.sort = (enum lt_sort)i;
			return 0;
		}
	return cli_bad_arg(cmd->prog, "--sort", arg,
			   "expected max, total, count or avg");
}

int cli_opt_window(const struct cli_cmd *cmd, const struct cli_opt *o,
		   const char *arg)
{
	struct cli_analysis *a = o->value;
	int ret = lt_parse_duration(arg, 1000000000ULL, &a->opts.window_ns);

	if (ret < 0 || !a->opts.window_ns)
		return bad_duration(cmd->prog, "--window", arg, ret,
				    "expected a duration such as 30s or 500ms");
	return 0;
}

int cli_opt_from(const struct cli_cmd *cmd, const struct cli_opt *o,
		 const char *arg)
{
	struct cli_analysis *a = o->value;

	return parse_time(cmd->prog, "--from", arg, &a->opts.from_ns);
}

int cli_opt_to(const struct cli_cmd *cmd, const struct cli_opt *o,
	       const char *arg)
{
	struct cli_analysis *a = o->value;

	return parse_time(cmd->prog, "--to", arg, &a->opts.to_ns);
}

int cli_opt_sleep_cutoff(const struct cli_cmd *cmd, const struct cli_opt *o,
			 const char *arg)
{
	struct cli_analysis *a = o->value;
	/* a bare number is milliseconds */
	int ret = lt_parse_duration(arg, 1000000ULL, &a->opts.sleep_cutoff_ns);

	if (ret < 0)
		return bad_duration(cmd->prog, "--sleep-cutoff", arg, ret,
				    "expected a duration such as 5ms, or 0");
	return 0;
}

int cli_opt_trans(const struct cli_cmd *cmd, const struct cli_opt *o,
		  const char *arg)
{
	struct cli_analysis *a = o->value;

	return add_str(cmd->prog, arg, &a->lists.trans, &a->opts.nr_trans_files,
		       &a->opts.trans_files);
}

int cli_opt_pid(const struct cli_cmd *cmd, const struct cli_opt *o,
		const char *arg)
{
	struct cli_analysis *a = o->value;

	return add_ids(cmd->prog, "--pid", arg, &a->lists.pids,
		       &a->opts.tasks.nr_pids, &a->opts.tasks.pids);
}

int cli_opt_tid(const struct cli_cmd *cmd, const struct cli_opt *o,
		const char *arg)
{
	struct cli_analysis *a = o->value;

	return add_ids(cmd->prog, "--tid", arg, &a->lists.tids,
		       &a->opts.tasks.nr_tids, &a->opts.tasks.tids);
}

int cli_opt_comm(const struct cli_cmd *cmd, const struct cli_opt *o,
		 const char *arg)
{
	struct cli_analysis *a = o->value;

	return add_str(cmd->prog, arg, &a->lists.comms, &a->opts.tasks.nr_comms,
		       &a->opts.tasks.comms);
}

int cli_analysis_check(const char *prog, const struct lt_options *opts)
{
	if (opts->chains && opts->no_chains) {
		fprintf(stderr, "%s: --chains (print the trees of whom the waits "
			"waited for) and --no-chains (do not build them) "
			"contradict each other: give one of them\n", prog);
		cli_try_help(prog);
		return -1;
	}
	if (opts->to_ns < 0 ||
	    opts->to_ns > (opts->from_ns > 0 ? opts->from_ns : 0))
		return 0;
	fprintf(stderr, "%s: --to must be later than %s\n", prog,
		opts->from_ns > 0 ? "--from" : "the first event (0)");
	return -1;
}

const char *cli_analysis_changed(const struct lt_options *o,
				 const struct lt_options *base, char *buf,
				 size_t size)
{
	const struct {
		bool changed;
		const char *name;
	} opt[] = {
		{ o->sleep_cutoff_ns != base->sleep_cutoff_ns, "--sleep-cutoff" },
		{ o->honour_maxtime != base->honour_maxtime, "--no-maxtime" },
		{ o->charge_stopped != base->charge_stopped, "--charge-stopped" },
		{ o->buffer != base->buffer, "--buffer" },
		{ o->kernel_threads != base->kernel_threads, "--kernel-threads" },
		{ o->window_ns != base->window_ns, "--window" },
		{ o->from_ns != base->from_ns, "--from" },
		{ o->to_ns != base->to_ns, "--to" },
		{ o->nr_trans_files != 0, "--trans" },
		{ o->no_default_trans != base->no_default_trans, "--no-default-trans" },
		{ o->kallsyms != base->kallsyms, "--kallsyms" },
		{ o->partial != base->partial, "--partial" },
		{ o->threads != base->threads, "--threads" },
		{ o->tasks.nr_pids != 0, "--pid" },
		{ o->tasks.nr_tids != 0, "--tid" },
		{ o->tasks.nr_comms != 0, "--comm" },
	};
	size_t i, len = 0;

	if (size)
		buf[0] = '\0';
	for (i = 0; i < sizeof(opt) / sizeof(opt[0]); i++) {
		if (!opt[i].changed)
			continue;
		len += snprintf(buf + len, len < size ? size - len : 0, "%s%s",
				len ? ", " : "", opt[i].name);
		if (len >= size)
			len = size;
	}
	return len ? buf : NULL;
}

void cli_warn_no_task(const char *prog, const struct lt_report *r, bool quiet)
{
	size_t i;

	if (quiet || !lt_task_filter_active(&r->options.tasks) ||
	    r->whole.nr_processes)
		return;
	for (i = 0; i < r->nr_windows; i++)
		if (r->windows[i].nr_processes)
			return;
	fprintf(stderr, "%s: warning: %s: no task that --pid, --tid or --comm "
		"chose waited in the range: the tables are empty\n", prog, r->path);
}
