// SPDX-License-Identifier: GPL-2.0
/*
 * latency-analyze - LatencyTOP's report from a trace.dat.
 *
 * parse options -> analyze -> write -> exit with a status that says what
 * went wrong (see --help and latency-analyze(1)).
 */
#include <errno.h>
#include <getopt.h>
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

enum {
	OPT_STACKS = CLI_OPT_OWN,
	OPT_NO_PROGRESS,
	OPT_PRINT_TRANS,
	OPT_WAITS_STACKS,
};

static const struct option long_opts[] = {
	CLI_ANALYSIS_LONGOPTS,
	CLI_LIVE_LONGOPTS,
	{ "format",		required_argument, NULL, 'f' },
	{ "output",		required_argument, NULL, 'o' },
	{ "per-thread",		no_argument,	   NULL, 't' },
	{ "stacks",		no_argument,	   NULL, OPT_STACKS },
	{ "limit",		required_argument, NULL, 'n' },
	{ "waits-stacks",	required_argument, NULL, OPT_WAITS_STACKS },
	{ "no-progress",	no_argument,	   NULL, OPT_NO_PROGRESS },
	{ "print-trans",	no_argument,	   NULL, OPT_PRINT_TRANS },
	{ "quiet",		no_argument,	   NULL, 'q' },
	{ "help",		no_argument,	   NULL, 'h' },
	{ "version",		no_argument,	   NULL, 'V' },
	{ NULL, 0, NULL, 0 }
};

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
static int print_trans(void)
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
static const struct {
	const char *name, *prog, *args, *summary;
	int (*main)(const char *prog, int argc, char **argv);
} subcommands[] = {
	{ "merge", "latency-analyze merge", "FILE...",
	  "merge reports (or traces) exactly into one", cli_merge_main },
	{ "diff", "latency-analyze diff", "BEFORE AFTER",
	  "what changed, cause by cause (--fail-on for CI)", cli_diff_main },
};

static void usage(FILE *out)
{
	size_t i;

	fprintf(out,
"Usage: %s [OPTION]... TRACE.dat|PERF.data|REPORT.json\n"
"       %s --live [OPTION]...\n"
"       %s SUBCOMMAND [OPTION]... FILE...\n"
"Replay a trace recorded by trace-cmd and report, LatencyTOP style, which\n"
"processes waited, how long, and why.  A report saved with --format=json\n"
"can be given instead of the trace, to write it again in another format.\n"
"\n"
"Subcommands (SUBCOMMAND --help for theirs):\n", prog, prog, prog);
	for (i = 0; i < sizeof(subcommands) / sizeof(subcommands[0]); i++)
		fprintf(out, "  %-6s %-13s %s\n", subcommands[i].name,
			subcommands[i].args, subcommands[i].summary);
	fputs("\n"
"Record with:\n"
"  trace-cmd record -e latencytop -e sched_stat_sleep -e sched_stat_blocked \\\n"
"                   -e sched_switch -e sched_wakeup -T <workload>\n"
"\n"
"Output:\n"
"  -f, --format=FMT       one of:\n", out);
	cli_usage_formats(out, CLI_INPUT(LT_WRITE_REPORT) | CLI_INPUT(LT_WRITE_WAITS),
			  "text");
	fputs(
"  -o, --output=FILE      write the report to FILE instead of stdout\n"
"  -s, --sort=KEY         order rows by max (default, LatencyTOP's order),\n"
"                         total, count or avg\n"
"  -t, --per-thread       a section per thread under each process (text)\n"
"      --stacks           list each cause's distinct kernel stacks (text)\n"
"  -n, --limit=N          at most N rows per table in text output\n"
"      --waits-stacks=FILE  with --format=waits(-jsonl): the kernel stacks\n"
"                         the rows' stack_id name, into FILE\n"
"\n"
"Time:\n"
"  -w, --window=DUR       one report per window of DUR (e.g. 30s), like\n"
"                         LatencyTOP's 30-second views\n", out);
	cli_usage_range(out);
	fputs("\n", out);
	cli_usage_live(out, false);
	fputs("\nTasks:\n", out);
	cli_usage_tasks(out);
	fputs("\nAccounting:\n", out);
	cli_usage_accounting(out);
	fputs("\n"
"  -j, --threads=N        read and decode the trace on N threads, one of which\n"
"                         also replays (default: one per usable core; one\n"
"                         for traces under ~80,000 events)\n"
"  -q, --quiet            no progress and no warnings on stderr\n"
"      --no-progress      no progress display\n"
"      --print-trans      print the built-in translation table and exit\n"
"                         (a --trans table or /etc/latencytop/*.trans\n"
"                         overrides its lines)\n"
"  -h, --help             this help\n"
"  -V, --version          version\n"
"\n"
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

static int bad_arg(const char *opt, const char *val, const char *what)
{
	return cli_bad_arg(prog, opt, val, what);
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

int main(int argc, char **argv)
{
	struct cli_lists lists = { 0 };
	struct cli_live live;
	struct lt_live *lv = NULL;
	const char *output = NULL, *waits_stacks = NULL;
	const struct lt_writer *writer = lt_writer_find(LT_WRITE_REPORT, "text");
	bool given[LT_WOPT_NR];
	struct lt_options opts, defaults;
	struct lt_report *report;
	struct lt_error err = { 0 };
	bool progress = true, sort_given = false, saved;
	struct cli_output o;
	FILE *out;
	bool complete = true;
	int c, ret, status = 0;
	char *end;

	/* a trace called "merge" is ./merge */
	for (c = 0; argc > 1 && c < (int)(sizeof(subcommands) /
					   sizeof(subcommands[0])); c++)
		if (!strcmp(argv[1], subcommands[c].name))
			return subcommands[c].main(subcommands[c].prog, argc - 1,
						   argv + 1);
	lt_options_init(&opts);
	cli_live_init(&live);
	/* getopt's own messages name argv[0]: the name, not the path */
	argv[0] = (char *)prog;
	while ((c = getopt_long(argc, argv, CLI_ANALYSIS_SHORTOPTS
				CLI_LIVE_SHORTOPTS "f:o:tn:qhV",
				long_opts, NULL)) != -1) {
		ret = cli_analysis_opt(prog, c, optarg, &opts, &lists);
		if (!ret)
			ret = cli_live_opt(prog, c, optarg, &live);
		if (ret < 0) {
			cli_lists_free(&lists);
			return -ret;
		}
		sort_given |= c == 's';
		if (ret)
			continue;
		switch (c) {
		case 'f':
			if (cli_parse_format(prog, CLI_INPUT(LT_WRITE_REPORT) |
					     CLI_INPUT(LT_WRITE_WAITS), optarg,
					     &writer))
				return lt_error_exit_status(LT_E_USAGE);
			break;
		case 'o':
			output = optarg;
			break;
		case 't':
			opts.per_thread = true;
			break;
		case OPT_STACKS:
			opts.stacks = true;
			break;
		case 'n':
			errno = 0;
			opts.limit = (unsigned int)strtoul(optarg, &end, 10);
			if (errno || *end || end == optarg || optarg[0] == '-')
				return bad_arg("--limit", optarg,
					       "expected a whole number, 0 for no limit");
			break;
		case OPT_WAITS_STACKS:
			waits_stacks = optarg;
			break;
		case OPT_NO_PROGRESS:
			progress = false;
			break;
		case 'q':
			quiet = true;
			progress = false;
			break;
		case 'h':
			usage(stdout);
			return 0;
		case 'V':
			printf("latency-analyze %s\n", LT_VERSION_STRING);
			return 0;
		case OPT_PRINT_TRANS:
			cli_lists_free(&lists);
			return print_trans();
		default:
			return cli_try_help(prog);
		}
	}
	if (cli_live_check(prog, &live, &opts, optind, argc, argv))
		return lt_error_exit_status(LT_E_USAGE);
	if (!live.live && cli_one_trace(prog, optind, argc))
		return lt_error_exit_status(LT_E_USAGE);
	if (cli_analysis_check(prog, &opts))
		return lt_error_exit_status(LT_E_USAGE);
	if (output && !live.live && same_file(output, argv[optind])) {
		fprintf(stderr, "%s: --output %s: that is the file being read\n",
			prog, output);
		return lt_error_exit_status(LT_E_USAGE);
	}

	if (cli_binary_to_terminal(prog, writer, output)) {
		cli_lists_free(&lists);
		return lt_error_exit_status(LT_E_USAGE);
	}
	if (!output)
		opts.width = terminal_width();
	given[LT_WOPT_STACKS] = opts.stacks;
	given[LT_WOPT_PER_THREAD] = opts.per_thread;
	given[LT_WOPT_LIMIT] = opts.limit;
	given[LT_WOPT_WINDOW] = opts.window_ns;
	given[LT_WOPT_MAX_PROCESSES] = opts.max_processes;
	cli_warn_ignored(writer, given, warnf);
	if (writer->input == LT_WRITE_WAITS || waits_stacks) {
		/* the rows come from a trace's replay, read whole */
		if (live.live) {
			fprintf(stderr, "%s: --format=%s: not with --live: record a "
				"trace, then export its waits\n", prog, writer->name);
			cli_lists_free(&lists);
			return lt_error_exit_status(LT_E_USAGE);
		}
		status = cli_waits_main(prog, writer, argv[optind], output,
					waits_stacks, &opts, progress, quiet);
		cli_lists_free(&lists);
		return status;
	}
	/* its pictures' timeline: the busiest threads' waits, bounded */
	if (writer->timeline) {
		opts.timeline_threads = LT_TIMELINE_THREADS;
		opts.timeline_waits = LT_TIMELINE_WAITS;
	}
	lt_options_init(&defaults);
	if (live.live) {
		saved = false;
		status = cli_live_analyze(prog, &live, &opts, progress, quiet,
					  &lv, &report);
		if (status >= 0) {
			lt_live_close(lv);
			cli_lists_free(&lists);
			return status;
		}
	} else {
		ret = cli_load_report(prog, argv[optind], &opts, &defaults,
				      progress, quiet, &report, &err, &saved);
		if (ret < 0) {
			fprintf(stderr, "%s: %s\n", prog, err.msg);
			cli_lists_free(&lists);
			return lt_error_exit_status(err.code);
		}
	}
	cli_warn_no_task(prog, report, quiet);
	if (saved) {
		/* what shapes the output is this run's to say */
		report->options.stacks = opts.stacks;
		report->options.per_thread = opts.per_thread;
		report->options.limit = opts.limit;
		report->options.max_processes = opts.max_processes;
		report->options.width = opts.width;
		if (sort_given)
			lt_report_sort(report, opts.sort);
	}
	/* -o naming the trace would replace it with its own report */
	out = cli_output_open(prog, &o, output, lv ? NULL : argv + optind,
			      lv ? 0 : 1, &status);
	if (!out) {
		lt_report_free(report);
		lt_live_close(lv);
		cli_lists_free(&lists);
		return status;
	}
	status = 0;
	if (lt_report_write(report, writer->format, out, &err) < 0) {
		fprintf(stderr, "%s: %s: %s\n", prog, output ? output : "stdout",
			err.msg);
		status = lt_error_exit_status(LT_E_IO);
		complete = false;
	} else if (report->partial) {
		/* the reason names the file, and where the damage is */
		fprintf(stderr, "%s: %s (the report is partial)\n", prog,
			report->partial_reason);
		status = lt_error_exit_status(LT_E_PARTIAL);
	}
	status = cli_output_close(prog, &o, complete, status);
	lt_report_free(report);
	/* the report's names were the live replay's: it goes after */
	lt_live_close(lv);
	cli_lists_free(&lists);
	return status;
}
