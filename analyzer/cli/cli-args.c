// SPDX-License-Identifier: GPL-2.0
/*
 * cli-args.c - option values shared by the executables (cli-args.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli-args.h"
#include "latencytop.h"

int cli_try_help(const char *prog)
{
	fprintf(stderr, "Try '%s --help' for more information.\n", prog);
	return lt_error_exit_status(LT_E_USAGE);
}

int cli_one_trace(const char *prog, int optind, int argc)
{
	if (optind == argc - 1)
		return 0;
	fprintf(stderr, "%s: %s\n", prog, optind >= argc ?
		"missing TRACE.dat argument" : "only one trace file at a time");
	return cli_try_help(prog);
}

int cli_bad_arg(const char *prog, const char *opt, const char *val,
		const char *what)
{
	fprintf(stderr, "%s: %s: invalid value '%s': %s\n", prog, opt, val, what);
	return cli_try_help(prog);
}

/* @val for @opt, which lt_parse_duration() refused with @ret */
static int bad_duration(const char *prog, const char *opt, const char *val,
			int ret, const char *what)
{
	return cli_bad_arg(prog, opt, val,
			   ret == -2 ? "too large a duration" : what);
}

int cli_parse_window(const char *prog, const char *val, uint64_t *ns)
{
	int ret = lt_parse_duration(val, 1000000000ULL, ns);

	if (ret < 0 || !*ns)
		return bad_duration(prog, "--window", val, ret,
				    "expected a duration such as 30s or 500ms");
	return 0;
}

int cli_parse_threads(const char *prog, const char *val, unsigned int *n)
{
	unsigned long v;
	char *end;

	errno = 0;
	v = strtoul(val, &end, 10);
	if (errno || *end || end == val || val[0] == '-' || !v || v > 1024)
		return cli_bad_arg(prog, "--threads", val, "expected 1 to 1024");
	*n = (unsigned int)v;
	return 0;
}

static int parse_time(const char *prog, const char *opt, const char *val,
		      int64_t *out)
{
	uint64_t ns;
	int ret = lt_parse_duration(val, 1000000000ULL, &ns);

	if (!ret && ns > INT64_MAX)
		ret = -2;
	if (ret < 0) {
		bad_duration(prog, opt, val, ret, "expected seconds from the "
			     "start of the trace, e.g. 12.5 or 1500ms");
		return -1;
	}
	*out = (int64_t)ns;
	return 0;
}

static int parse_sort(const char *prog, const char *val, enum lt_sort *sort)
{
	static const char *const names[] = {
		[LT_SORT_MAX] = "max", [LT_SORT_TOTAL] = "total",
		[LT_SORT_COUNT] = "count", [LT_SORT_AVG] = "avg",
	};
	/* the words the viewer's title uses */
	static const char *const long_names[] = {
		[LT_SORT_MAX] = "maximum", [LT_SORT_AVG] = "average",
	};
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(val, names[i]) ||
		    (i < sizeof(long_names) / sizeof(long_names[0]) &&
		     long_names[i] && !strcmp(val, long_names[i]))) {
			*sort = (enum lt_sort)i;
			return 0;
		}
	cli_bad_arg(prog, "--sort", val, "expected max, total, count or avg");
	return -1;
}

static int nomem(const char *prog)
{
	fprintf(stderr, "%s: out of memory\n", prog);
	return -lt_error_exit_status(LT_E_NOMEM);
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
		    (*end && *end != ',') || v > INT32_MAX) {
			cli_bad_arg(prog, opt, val, "expected a task id, or ids "
				    "separated by commas");
			return -1;
		}
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

static int parse_count(const char *prog, const char *opt, const char *val,
		       unsigned int *n)
{
	unsigned long v;
	char *end;

	errno = 0;
	v = strtoul(val, &end, 10);
	if (errno || *end || end == val || val[0] == '-' || v > UINT32_MAX) {
		cli_bad_arg(prog, opt, val, "expected a whole number, 0 for no limit");
		return -1;
	}
	*n = (unsigned int)v;
	return 0;
}

void cli_lists_free(struct cli_lists *lists)
{
	free(lists->trans);
	free(lists->pids);
	free(lists->tids);
	free(lists->comms);
	memset(lists, 0, sizeof(*lists));
}

int cli_analysis_opt(const char *prog, int c, const char *val,
		     struct lt_options *opts, struct cli_lists *lists)
{
	struct lt_task_filter *f = &opts->tasks;
	int ret = 0;

	switch (c) {
	case 's':
		ret = parse_sort(prog, val, &opts->sort);
		break;
	case 'w':
		ret = cli_parse_window(prog, val, &opts->window_ns) ? -1 : 0;
		break;
	case CLI_OPT_FROM:
		ret = parse_time(prog, "--from", val, &opts->from_ns);
		break;
	case CLI_OPT_TO:
		ret = parse_time(prog, "--to", val, &opts->to_ns);
		break;
	case 'k':
		opts->kernel_threads = true;
		break;
	case CLI_OPT_SLEEP_CUTOFF:
		ret = lt_parse_duration(val, 1000000ULL, &opts->sleep_cutoff_ns);
		if (ret < 0) {
			bad_duration(prog, "--sleep-cutoff", val, ret,
				     "expected a duration such as 5ms, or 0");
			ret = -1;
		}
		break;
	case CLI_OPT_NO_MAXTIME:
		opts->honour_maxtime = false;
		break;
	case CLI_OPT_CHARGE_STOPPED:
		opts->charge_stopped = true;
		break;
	case CLI_OPT_BUFFER:
		opts->buffer = val;
		break;
	case CLI_OPT_TRANS:
		ret = add_str(prog, val, &lists->trans, &opts->nr_trans_files,
			      &opts->trans_files);
		break;
	case CLI_OPT_KALLSYMS:
		opts->kallsyms = val;
		break;
	case CLI_OPT_NO_DEFAULT_TRANS:
		opts->no_default_trans = true;
		break;
	case CLI_OPT_PARTIAL:
		opts->partial = true;
		break;
	case 'j':
		ret = cli_parse_threads(prog, val, &opts->threads) ? -1 : 0;
		break;
	case 'p':
		ret = add_ids(prog, "--pid", val, &lists->pids, &f->nr_pids,
			      &f->pids);
		break;
	case CLI_OPT_TID:
		ret = add_ids(prog, "--tid", val, &lists->tids, &f->nr_tids,
			      &f->tids);
		break;
	case 'c':
		ret = add_str(prog, val, &lists->comms, &f->nr_comms, &f->comms);
		break;
	case 'P':
		ret = parse_count(prog, "--max-processes", val,
				  &opts->max_processes);
		break;
	default:
		return 0;
	}
	return ret == -1 ? -lt_error_exit_status(LT_E_USAGE) : ret < 0 ? ret : 1;
}

int cli_analysis_check(const char *prog, const struct lt_options *opts)
{
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

void cli_usage_range(FILE *out)
{
	fputs(
"      --from=T           start T after the first event (seconds, or 500ms, 2m)\n"
"      --to=T             stop T after the first event\n", out);
}

void cli_usage_accounting(FILE *out)
{
	fputs(
"  -k, --kernel-threads   include kernel threads in the global table\n"
"      --sleep-cutoff=DUR interruptible waits longer than DUR are user\n"
"                         requested and not charged (default 5ms; 0 = keep all)\n"
"      --no-maxtime       charge waits longer than their reason's maxtime too\n"
"      --charge-stopped   charge the time tasks were stopped (by a signal, T,\n"
"                         or for a tracer, t), as its own causes\n"
"      --trans=FILE       add a translation table (latencytop.trans format);\n"
"                         may be repeated, later tables override\n"
"      --no-default-trans use only --trans tables\n"
"      --kallsyms=FILE    kernel symbols for a perf.data (a copy of the\n"
"                         recording machine's /proc/kallsyms); by default\n"
"                         perf's build-id cache, or this kernel's if it is\n"
"                         the one recorded\n"
"      --partial          on a damaged trace, report what was read before the\n"
"                         damage (marked partial, exit status 5)\n"
"      --buffer=NAME      a trace.dat's instance buffer to read ('' for the\n"
"                         top level); by default the one with scheduler\n"
"                         events, the top level when several have\n", out);
}

void cli_usage_tasks(FILE *out)
{
	fputs(
"  -p, --pid=PID[,PID]    only these processes (all their threads)\n"
"      --tid=TID[,TID]    only these threads\n"
"  -c, --comm=PATTERN     only tasks named so, or in a process named so:\n"
"                         a shell pattern ('kworker/*'); --pid, --tid and\n"
"                         --comm may be repeated, and a task any of them\n"
"                         names is counted (the global table is theirs)\n"
"  -P, --max-processes=N  at most N process sections, the first by --sort\n", out);
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
