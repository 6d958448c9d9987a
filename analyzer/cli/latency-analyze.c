// SPDX-License-Identifier: GPL-2.0
/*
 * latency-analyze - LatencyTOP's report from a trace.dat.
 *
 * parse options -> analyze -> write -> exit with a status that says what
 * went wrong (see --help and latency-analyze(1)).
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli-args.h"
#include "cli-format.h"
#include "cli-live.h"
#include "cli-load.h"
#include "cli-sub.h"
#include "latencytop.h"

static const char *prog = "latency-analyze";
static bool quiet;

/* -o naming the trace itself would truncate it before it is read. */
static bool same_file(const char *a, const char *b)
{
	struct stat sa, sb;

	return !stat(a, &sa) && !stat(b, &sb) && sa.st_dev == sb.st_dev &&
	       sa.st_ino == sb.st_ino;
}

/*
 * The columns of the terminal on stdout, which text output then fits
 * (cutting causes with '~'); 0 when stdout is a file or a pipe, where
 * nothing is cut: COLUMNS when it is set, else what the terminal says.
 */
static unsigned int terminal_width(void)
{
	const char *env = getenv("COLUMNS");
	struct winsize ws;
	unsigned long cols;
	char *end;

	if (!isatty(STDOUT_FILENO))
		return 0;
	if (env && *env) {
		errno = 0;
		cols = strtoul(env, &end, 10);
		if (!errno && !*end && cols > 0 && cols <= 100000)
			return (unsigned int)cols;
	}
	if (!ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) && ws.ws_col)
		return ws.ws_col;
	return 80;
}

/* --print-trans: the table built in, as a file a user could start from. */
static int print_trans(const struct cli_cmd *cmd, const struct cli_opt *o,
		       const char *arg)
{
	size_t len;
	const char *text = lt_builtin_trans_text(&len);

	if (fwrite(text, 1, len, stdout) != len || fflush(stdout)) {
		fprintf(stderr, "%s: stdout: cannot write the table: %s\n", prog,
			strerror(errno));
		return lt_error_exit_status(LT_E_IO);
	}
	return 0;
}

/* latency-analyze SUBCOMMAND ...: what does not read one trace */
static const struct cli_sub subcommands[] = {
	{ "merge", "latency-analyze merge", "FILE...",
	  "merge reports (or traces) exactly into one", cli_merge_main },
	{ "diff", "latency-analyze diff", "BEFORE AFTER",
	  "what changed, cause by cause (--fail-on for CI)", cli_diff_main },
	{ NULL }
};

static void usage(FILE *out, const struct cli_cmd *cmd)
{
	const struct cli_sub *sub;

	fprintf(out,
"Usage: %s [OPTION]... TRACE.dat|PERF.data|REPORT.json\n"
"       %s --live [OPTION]...\n"
"       %s SUBCOMMAND [OPTION]... FILE...\n"
"Replay a trace recorded by trace-cmd and report, LatencyTOP style, which\n"
"processes waited, how long, and why.  A report saved with --format=json\n"
"can be given instead of the trace, to write it again in another format.\n"
"\n"
"Subcommands (SUBCOMMAND --help for theirs):\n", prog, prog, prog);
	for (sub = cmd->subs; sub->name; sub++)
		fprintf(out, "  %-6s %-13s %s\n", sub->name, sub->args,
			sub->summary);
	fputs("\n"
"Record with:\n"
"  trace-cmd record -e latencytop -e sched_stat_sleep -e sched_stat_blocked \\\n"
"                   -e sched_switch -e sched_wakeup -T <workload>\n", out);
	cli_opts_help(out, cmd);
	fputs("\n"
"Exit status:\n"
"  0  report written          4  trace has no scheduler events\n"
"  1  invalid arguments       5  partial report (--partial on a damaged trace)\n"
"  2  cannot read a file      6  resource limit or out of memory\n"
"  3  not a trace or report, or damaged   7  reports do not merge (merge)\n"
"  8  diff: a --fail-on test crossed      9  cannot trace this system (--live)\n"
" 70  internal error (a bug: please report it)\n"
"\n"
"See latency-analyze(1).\n", out);
}

static void __attribute__((format(printf, 1, 2))) warnf(const char *fmt, ...)
{
	va_list ap;

	if (quiet)
		return;
	fprintf(stderr, "%s: warning: ", prog);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

/* --by process (the default) or cgroup: how text groups the processes */
static int opt_by(const struct cli_cmd *cmd, const struct cli_opt *o,
		  const char *val)
{
	bool *by_cgroup = o->value;

	if (!strcmp(val, "cgroup") || !strcmp(val, "process")) {
		*by_cgroup = !strcmp(val, "cgroup");
		return 0;
	}
	return cli_bad_arg(cmd->prog, "--by", val, "expected process or cgroup");
}

/* What the command line asks for. */
struct args {
	struct cli_analysis an;
	struct cli_format format;
	struct cli_live live;
	const char *output, *waits_stacks;
	const char *trace;		/* NULL: --live */
	bool progress;
};

/* -1 to go on, else the exit status to leave with. */
static int parse_args(int argc, char **argv, struct args *a)
{
	struct cli_analysis *an = &a->an;
	struct cli_live *l = &a->live;
	struct cli_opt options[] = {
		CLI_GROUP("Output:"),
		CLI_OPT_FORMAT(&a->format, "one of:"),
		CLI_STRING('o', "output", &a->output, "FILE",
			   "write the report to FILE instead of stdout",
			   .flags = CLI_OPT_FILE),
		CLI_OPT_SORT(an, "order rows by max (default, LatencyTOP's order),\n"
			     "total, count or avg"),
		CLI_BOOL('t', "per-thread", &an->opts.per_thread,
			 "a section per thread under each process (text)"),
		CLI_BOOL(0, "stacks", &an->opts.stacks,
			 "list each cause's distinct kernel stacks (text)"),
		CLI_CALLBACK(0, "by", &an->opts.by_cgroup, "WHAT",
			     "process (default), or cgroup: a table per cgroup\n"
			     "with its processes under it (text)", opt_by,
			     .words = "process cgroup"),
		CLI_BOOL(0, "chains", &an->opts.chains,
			 "under each process's row, the whole tree of whom\n"
			 "its waits waited for (text); the wakers' chains\n"
			 "above each cause (folded: its stack too where it\n"
			 "had one)"),
		CLI_BOOL(0, "no-chains", &an->opts.no_chains,
			 "no trees of whom waits waited for (JSON's\n"
			 "waited_for, ran_instead; the waits' wakers): less\n"
			 "work"),
		CLI_UINT('n', "limit", &an->opts.limit, "N", 0, UINT_MAX,
			 "expected a whole number, 0 for no limit",
			 "at most N rows per table in text output"),
		CLI_STRING(0, "waits-stacks", &a->waits_stacks, "FILE",
			   "with --format=waits(-jsonl): the kernel stacks\n"
			   "the rows' stack_id name, into FILE",
			   .flags = CLI_OPT_FILE),
		CLI_GROUP("Time:"),
		CLI_OPT_WINDOW(an, "one report per window of DUR (e.g. 30s), like\n"
			       "LatencyTOP's 30-second views"),
		CLI_OPTS_RANGE(an),
		CLI_GROUP("Live (root; this machine's tracefs, left as it was):"),
		CLI_OPT_LIVE(l, "trace the running system instead of reading a\n"
			     "file: the report of what it did, until --duration\n"
			     "or Ctrl-C (with -w, in windows)"),
		CLI_OPT_DURATION(l, "stop after DUR (60s, 5m)"),
		CLI_OPT_SAVE(l, 0, "keep every event seen in FILE, a trace.dat"),
		CLI_OPTS_LIVE_TRACING(l),
		CLI_GROUP("Tasks:"),
		CLI_OPTS_TASKS(an),
		CLI_OPT_MAX_PROCESSES(an),
		CLI_GROUP("Accounting:"),
		CLI_OPTS_ACCOUNTING(an),
		CLI_GROUP(""),
		CLI_OPT_THREADS(an, CLI_THREADS_HELP),
		CLI_BOOL('q', "quiet", &quiet,
			 "no progress and no warnings on stderr"),
		CLI_BOOL_SET(0, "no-progress", &a->progress, false,
			     "no progress display"),
		CLI_CALLBACK(0, "print-trans", NULL, NULL,
			     "print the built-in translation table and exit\n"
			     "(a --trans table or /etc/latencytop/*.trans\n"
			     "overrides its lines)", print_trans,
			     .flags = CLI_OPT_EXIT),
		CLI_HELP("this help"),
		CLI_VERSION("version"),
		CLI_END()
	};
	const struct cli_cmd cmd = {
		.prog = prog, .opts = options, .subs = subcommands,
		.usage = usage,
	};
	int ret, first;

	cli_analysis_init(an);
	cli_format_init(&a->format, CLI_INPUT(LT_WRITE_REPORT) |
			CLI_INPUT(LT_WRITE_WAITS), "text");
	cli_live_init(l);
	a->progress = true;
	ret = cli_parse(&cmd, argc, argv, &first);
	if (ret >= 0)
		return ret;
	if (quiet)
		a->progress = false;
	if (cli_live_check(prog, l, &an->opts, first, argc, argv) ||
	    (!l->live && cli_one_trace(prog, first, argc)) ||
	    cli_analysis_check(prog, &an->opts))
		return lt_error_exit_status(LT_E_USAGE);
	a->trace = l->live ? NULL : argv[first];
	if (a->output && a->trace && same_file(a->output, a->trace)) {
		fprintf(stderr, "%s: --output %s: that is the file being read\n",
			prog, a->output);
		return lt_error_exit_status(LT_E_USAGE);
	}
	if (cli_binary_to_terminal(prog, a->format.writer, a->output))
		return lt_error_exit_status(LT_E_USAGE);
	return -1;
}

/* The report of @a's trace (or of the live system) into *@report. */
static int analyze(struct args *a, struct lt_live **lv,
		   struct lt_report **report)
{
	struct lt_options *opts = &a->an.opts, defaults;
	const struct lt_writer *writer = a->format.writer;
	struct lt_error err = { 0 };
	bool saved = false;
	int status;

	/* its pictures' timeline: the busiest threads' waits, bounded */
	if (writer->timeline) {
		opts->timeline_threads = LT_TIMELINE_THREADS;
		opts->timeline_waits = LT_TIMELINE_WAITS;
	}
	lt_options_init(&defaults);
	if (!a->trace) {
		status = cli_live_analyze(prog, &a->live, opts, a->progress,
					  quiet, lv, report);
		if (status >= 0)
			return status;
	} else if (cli_load_report(prog, a->trace, opts, &defaults, a->progress,
				   quiet, report, &err, &saved) < 0) {
		fprintf(stderr, "%s: %s\n", prog, err.msg);
		return lt_error_exit_status(err.code);
	}
	cli_warn_no_task(prog, *report, quiet);
	if (saved) {
		/* what shapes the output is this run's to say */
		(*report)->options.stacks = opts->stacks;
		(*report)->options.chains = opts->chains;
		(*report)->options.per_thread = opts->per_thread;
		(*report)->options.limit = opts->limit;
		(*report)->options.max_processes = opts->max_processes;
		(*report)->options.width = opts->width;
		if (a->an.sort_given)
			lt_report_sort(*report, opts->sort);
	}
	return -1;
}

/* Write @report where -o says: the exit status. */
static int write_report(struct args *a, struct lt_report *report)
{
	struct lt_error err = { 0 };
	struct cli_output o;
	int status = 0;
	FILE *out;

	/* -o naming the trace would replace it with its own report */
	out = cli_output_open(prog, &o, a->output, (char **)&a->trace,
			      a->trace ? 1 : 0, &status);
	if (!out)
		return status;
	if (lt_report_write(report, a->format.writer->format, out, &err) < 0) {
		fprintf(stderr, "%s: %s: %s\n", prog,
			a->output ? a->output : "stdout", err.msg);
		return cli_output_close(prog, &o, false,
					lt_error_exit_status(LT_E_IO));
	}
	if (report->partial) {
		/* the reason names the file, and where the damage is */
		fprintf(stderr, "%s: %s (the report is partial)\n", prog,
			report->partial_reason);
		status = lt_error_exit_status(LT_E_PARTIAL);
	}
	return cli_output_close(prog, &o, true, status);
}

int main(int argc, char **argv)
{
	struct args a = { 0 };
	struct lt_options *opts = &a.an.opts;
	const struct lt_writer *writer;
	struct lt_report *report = NULL;
	struct lt_live *lv = NULL;
	bool given[LT_WOPT_NR];
	int status;

	status = parse_args(argc, argv, &a);
	if (status >= 0)
		goto out;
	writer = a.format.writer;
	if (!a.output)
		opts->width = terminal_width();
	given[LT_WOPT_STACKS] = opts->stacks;
	given[LT_WOPT_PER_THREAD] = opts->per_thread;
	given[LT_WOPT_LIMIT] = opts->limit;
	given[LT_WOPT_WINDOW] = opts->window_ns;
	given[LT_WOPT_MAX_PROCESSES] = opts->max_processes;
	given[LT_WOPT_CHAINS] = opts->chains;
	cli_warn_ignored(writer, given, warnf);
	if (writer->input == LT_WRITE_WAITS || a.waits_stacks) {
		/* the rows come from a trace's replay, read whole */
		if (!a.trace) {
			fprintf(stderr, "%s: --format=%s: not with --live: record a "
				"trace, then export its waits\n", prog, writer->name);
			status = lt_error_exit_status(LT_E_USAGE);
			goto out;
		}
		status = cli_waits_main(prog, writer, a.trace, a.output,
					a.waits_stacks, opts, a.progress, quiet);
		goto out;
	}
	status = analyze(&a, &lv, &report);
	if (status < 0)
		status = write_report(&a, report);
out:
	lt_report_free(report);
	/* the report's names were the live replay's: it goes after */
	lt_live_close(lv);
	cli_analysis_free(&a.an);
	return status;
}
