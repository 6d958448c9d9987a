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
#include "cli-load.h"
#include "latencytop.h"

static const char *prog = "latency-analyze";
static bool quiet;

enum {
	OPT_STACKS = CLI_OPT_OWN,
	OPT_NO_PROGRESS,
	OPT_PRINT_TRANS,
};

static const struct option long_opts[] = {
	CLI_ANALYSIS_LONGOPTS,
	{ "format",		required_argument, NULL, 'f' },
	{ "output",		required_argument, NULL, 'o' },
	{ "per-thread",		no_argument,	   NULL, 't' },
	{ "stacks",		no_argument,	   NULL, OPT_STACKS },
	{ "limit",		required_argument, NULL, 'n' },
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

static void usage(FILE *out)
{
	fprintf(out,
"Usage: %s [OPTION]... TRACE.dat|REPORT.json\n"
"Replay a trace recorded by trace-cmd and report, LatencyTOP style, which\n"
"processes waited, how long, and why.  A report saved with --format=json\n"
"can be given instead of the trace, to write it again in another format.\n"
"\n"
"Record with:\n"
"  trace-cmd record -e latencytop -e sched_stat_sleep -e sched_stat_blocked \\\n"
"                   -e sched_switch -e sched_wakeup -T <workload>\n"
"\n"
"Output:\n"
"  -f, --format=FMT       text (default), json (schema latencytop-report/1),\n"
"                         csv, or folded (flame graph input)\n"
"  -o, --output=FILE      write the report to FILE instead of stdout\n"
"  -s, --sort=KEY         order rows by max (default, LatencyTOP's order),\n"
"                         total, count or avg\n"
"  -t, --per-thread       a section per thread under each process (text)\n"
"      --stacks           list each cause's distinct kernel stacks (text)\n"
"  -n, --limit=N          at most N rows per table in text output\n"
"\n"
"Time:\n"
"  -w, --window=DUR       one report per window of DUR (e.g. 30s), like\n"
"                         LatencyTOP's 30-second views\n", prog);
	cli_usage_range(out);
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
"  3  not a trace, or damaged\n"
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

/*
 * --stacks, --per-thread and --limit shape the text report only: say so,
 * rather than leave a user to wonder why the JSON or CSV did not change.
 */
static void warn_text_only(enum lt_format format, bool stacks, bool per_thread,
			   unsigned int limit, unsigned int max_processes)
{
	static const struct {
		enum lt_format format;
		const char *name, *stacks, *per_thread, *limit, *procs;
	} why[] = {
		{ LT_FORMAT_JSON, "json", "JSON always lists stacks",
		  "JSON always lists threads", "JSON has every row",
		  "JSON has every process (--pid, --comm choose them)" },
		{ LT_FORMAT_CSV, "csv", "CSV has no stacks (--format=folded has)",
		  "CSV always has thread rows", "CSV has every row",
		  "CSV has every process (--pid, --comm choose them)" },
		{ LT_FORMAT_FOLDED, "folded", "folded output is stacks",
		  "folded output is per process", "folded output has every stack",
		  "folded output has every process (--pid, --comm choose them)" },
	};
	unsigned int i;

	for (i = 0; i < sizeof(why) / sizeof(why[0]); i++) {
		if (why[i].format != format)
			continue;
		if (stacks)
			warnf("--stacks has no effect with --format=%s: %s",
				   why[i].name, why[i].stacks);
		if (per_thread)
			warnf("--per-thread has no effect with --format=%s: %s",
				   why[i].name, why[i].per_thread);
		if (limit)
			warnf("--limit has no effect with --format=%s: %s",
				   why[i].name, why[i].limit);
		if (max_processes)
			warnf("--max-processes has no effect with --format=%s: %s",
			      why[i].name, why[i].procs);
	}
}

int main(int argc, char **argv)
{
	struct cli_lists lists = { 0 };
	const char *output = NULL;
	enum lt_format format = LT_FORMAT_TEXT;
	struct lt_options opts, defaults;
	struct lt_report *report;
	struct lt_error err = { 0 };
	bool progress = true, sort_given = false, saved;
	FILE *out = stdout;
	int c, ret, status;
	char *end;

	lt_options_init(&opts);
	/* getopt's own messages name argv[0]: the name, not the path */
	argv[0] = (char *)prog;
	while ((c = getopt_long(argc, argv, CLI_ANALYSIS_SHORTOPTS "f:o:tn:qhV",
				long_opts, NULL)) != -1) {
		ret = cli_analysis_opt(prog, c, optarg, &opts, &lists);
		if (ret < 0) {
			cli_lists_free(&lists);
			return -ret;
		}
		sort_given |= c == 's';
		if (ret)
			continue;
		switch (c) {
		case 'f':
			if (!strcmp(optarg, "text"))
				format = LT_FORMAT_TEXT;
			else if (!strcmp(optarg, "json"))
				format = LT_FORMAT_JSON;
			else if (!strcmp(optarg, "csv"))
				format = LT_FORMAT_CSV;
			else if (!strcmp(optarg, "folded"))
				format = LT_FORMAT_FOLDED;
			else
				return bad_arg("--format", optarg,
					       "expected text, json, csv or folded");
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
	if (cli_one_trace(prog, optind, argc))
		return lt_error_exit_status(LT_E_USAGE);
	if (cli_analysis_check(prog, &opts))
		return lt_error_exit_status(LT_E_USAGE);
	if (output && same_file(output, argv[optind])) {
		fprintf(stderr, "%s: --output %s: that is the file being read\n",
			prog, output);
		return lt_error_exit_status(LT_E_USAGE);
	}

	if (!output)
		opts.width = terminal_width();
	warn_text_only(format, opts.stacks, opts.per_thread, opts.limit,
		       opts.max_processes);
	if (format == LT_FORMAT_FOLDED && opts.window_ns)
		warnf("--window has no effect with --format=folded: folded "
		      "output covers the whole trace (--from and --to cut it)");
	lt_options_init(&defaults);
	ret = cli_load_report(prog, argv[optind], &opts, &defaults, progress,
			      quiet, &report, &err, &saved);
	if (ret < 0) {
		fprintf(stderr, "%s: %s\n", prog, err.msg);
		cli_lists_free(&lists);
		return lt_error_exit_status(err.code);
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
	if (output) {
		out = fopen(output, "w");
		if (!out) {
			fprintf(stderr, "%s: %s: cannot write: %s\n", prog, output,
				strerror(errno));
			lt_report_free(report);
			cli_lists_free(&lists);
			return lt_error_exit_status(LT_E_IO);
		}
	}
	status = 0;
	if (lt_report_write(report, format, out, &err) < 0) {
		fprintf(stderr, "%s: %s: %s\n", prog, output ? output : "stdout",
			err.msg);
		status = lt_error_exit_status(LT_E_IO);
	} else if (report->partial) {
		/* the reason names the file, and where the damage is */
		fprintf(stderr, "%s: %s (the report is partial)\n", prog,
			report->partial_reason);
		status = lt_error_exit_status(LT_E_PARTIAL);
	}
	if (output && fclose(out) && !status) {
		fprintf(stderr, "%s: %s: write error: %s\n", prog, output,
			strerror(errno));
		status = lt_error_exit_status(LT_E_IO);
	}
	lt_report_free(report);
	cli_lists_free(&lists);
	return status;
}
