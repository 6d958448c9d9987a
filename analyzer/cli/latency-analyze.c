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
#include <sys/stat.h>
#include <unistd.h>

#include "cli-args.h"
#include "cli-progress.h"
#include "latencytop.h"

static const char *prog = "latency-analyze";
static bool quiet;
static struct cli_progress progress_line;

enum {
	OPT_FROM = 256,
	OPT_TO,
	OPT_SLEEP_CUTOFF,
	OPT_NO_MAXTIME,
	OPT_TRANS,
	OPT_NO_DEFAULT_TRANS,
	OPT_STACKS,
	OPT_PARTIAL,
	OPT_NO_PROGRESS,
};

static const struct option long_opts[] = {
	{ "format",		required_argument, NULL, 'f' },
	{ "output",		required_argument, NULL, 'o' },
	{ "sort",		required_argument, NULL, 's' },
	{ "per-thread",		no_argument,	   NULL, 't' },
	{ "window",		required_argument, NULL, 'w' },
	{ "from",		required_argument, NULL, OPT_FROM },
	{ "to",			required_argument, NULL, OPT_TO },
	{ "kernel-threads",	no_argument,	   NULL, 'k' },
	{ "sleep-cutoff",	required_argument, NULL, OPT_SLEEP_CUTOFF },
	{ "no-maxtime",		no_argument,	   NULL, OPT_NO_MAXTIME },
	{ "trans",		required_argument, NULL, OPT_TRANS },
	{ "no-default-trans",	no_argument,	   NULL, OPT_NO_DEFAULT_TRANS },
	{ "stacks",		no_argument,	   NULL, OPT_STACKS },
	{ "limit",		required_argument, NULL, 'n' },
	{ "partial",		no_argument,	   NULL, OPT_PARTIAL },
	{ "threads",		required_argument, NULL, 'j' },
	{ "no-progress",	no_argument,	   NULL, OPT_NO_PROGRESS },
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
"                         LatencyTOP's 30-second views\n"
"      --from=T           start T after the first event (seconds, or 500ms, 2m)\n"
"      --to=T             stop T after the first event\n"
"\n"
"Accounting:\n"
"  -k, --kernel-threads   include kernel threads in the global table\n"
"      --sleep-cutoff=DUR interruptible waits longer than DUR are user\n"
"                         requested and not charged (default 5ms; 0 = keep all)\n"
"      --no-maxtime       charge waits longer than their reason's maxtime too\n"
"      --trans=FILE       add a translation table (latencytop.trans format);\n"
"                         may be repeated, later tables override\n"
"      --no-default-trans use only --trans tables\n"
"      --partial          on a damaged trace, report what was read before the\n"
"                         damage (marked partial, exit status 5)\n"
"\n"
"  -j, --threads=N        read and decode the trace on N threads, one of which\n"
"                         also replays (default: one per usable core; one\n"
"                         for traces under ~250,000 events)\n"
"  -q, --quiet            no progress and no warnings on stderr\n"
"      --no-progress      no progress display\n"
"  -h, --help             this help\n"
"  -V, --version          version\n"
"\n"
"Exit status:\n"
"  0  report written          4  trace has no scheduler events\n"
"  1  invalid arguments       5  partial report (--partial on a damaged trace)\n"
"  2  cannot read a file      6  resource limit or out of memory\n"
"  3  not a trace, or damaged\n"
"\n"
"See latency-analyze(1).\n", prog);
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
			   unsigned int limit)
{
	static const struct {
		enum lt_format format;
		const char *name, *stacks, *per_thread, *limit;
	} why[] = {
		{ LT_FORMAT_JSON, "json", "JSON always lists stacks",
		  "JSON always lists threads", "JSON has every row" },
		{ LT_FORMAT_CSV, "csv", "CSV has no stacks (--format=folded has)",
		  "CSV always has thread rows", "CSV has every row" },
		{ LT_FORMAT_FOLDED, "folded", "folded output is stacks",
		  "folded output is per process", "folded output has every stack" },
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
	}
}

/* Whether an option that shapes the analysis (not the output) was given. */
static bool analysis_changed(const struct lt_options *o)
{
	struct lt_options d;

	lt_options_init(&d);
	return o->sleep_cutoff_ns != d.sleep_cutoff_ns ||
	       o->honour_maxtime != d.honour_maxtime ||
	       o->kernel_threads != d.kernel_threads || o->sort != d.sort ||
	       o->window_ns != d.window_ns || o->from_ns != d.from_ns ||
	       o->to_ns != d.to_ns || o->nr_trans_files ||
	       o->no_default_trans != d.no_default_trans ||
	       o->partial != d.partial || o->threads != d.threads;
}

static int parse_time(const char *opt, const char *val, int64_t *out)
{
	uint64_t ns;

	if (lt_parse_duration(val, 1000000000ULL, &ns) < 0 || ns > INT64_MAX)
		return bad_arg(opt, val, "expected seconds from the start of the "
			       "trace, e.g. 12.5 or 1500ms");
	*out = (int64_t)ns;
	return 0;
}

int main(int argc, char **argv)
{
	const char **trans = NULL;
	const char *output = NULL;
	enum lt_format format = LT_FORMAT_TEXT;
	struct lt_options opts;
	struct lt_report *report;
	struct lt_error err = { 0 };
	bool progress = true;
	FILE *out = stdout;
	int c, ret, status;
	char *end;

	lt_options_init(&opts);
	/* getopt's own messages name argv[0]: the name, not the path */
	argv[0] = (char *)prog;
	while ((c = getopt_long(argc, argv, "f:o:s:tw:kn:j:qhV", long_opts,
				NULL)) != -1) {
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
		case 's':
			if (!strcmp(optarg, "max"))
				opts.sort = LT_SORT_MAX;
			else if (!strcmp(optarg, "total"))
				opts.sort = LT_SORT_TOTAL;
			else if (!strcmp(optarg, "count"))
				opts.sort = LT_SORT_COUNT;
			else if (!strcmp(optarg, "avg"))
				opts.sort = LT_SORT_AVG;
			else
				return bad_arg("--sort", optarg,
					       "expected max, total, count or avg");
			break;
		case 't':
			opts.per_thread = true;
			break;
		case 'w':
			if (cli_parse_window(prog, optarg, &opts.window_ns))
				return lt_error_exit_status(LT_E_USAGE);
			break;
		case OPT_FROM:
			if (parse_time("--from", optarg, &opts.from_ns))
				return lt_error_exit_status(LT_E_USAGE);
			break;
		case OPT_TO:
			if (parse_time("--to", optarg, &opts.to_ns))
				return lt_error_exit_status(LT_E_USAGE);
			break;
		case 'k':
			opts.kernel_threads = true;
			break;
		case OPT_SLEEP_CUTOFF:
			if (lt_parse_duration(optarg, 1000000ULL, &opts.sleep_cutoff_ns) < 0)
				return bad_arg("--sleep-cutoff", optarg,
					       "expected a duration such as 5ms, or 0");
			break;
		case OPT_NO_MAXTIME:
			opts.honour_maxtime = false;
			break;
		case OPT_TRANS: {
			const char **t = realloc(trans, (opts.nr_trans_files + 1) *
						 sizeof(*t));

			if (!t) {
				fprintf(stderr, "%s: out of memory\n", prog);
				return lt_error_exit_status(LT_E_NOMEM);
			}
			trans = t;
			trans[opts.nr_trans_files++] = optarg;
			break;
		}
		case OPT_NO_DEFAULT_TRANS:
			opts.no_default_trans = true;
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
		case OPT_PARTIAL:
			opts.partial = true;
			break;
		case 'j':
			if (cli_parse_threads(prog, optarg, &opts.threads))
				return lt_error_exit_status(LT_E_USAGE);
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
		default:
			return cli_try_help(prog);
		}
	}
	if (cli_one_trace(prog, optind, argc))
		return lt_error_exit_status(LT_E_USAGE);
	if (opts.to_ns >= 0 && opts.to_ns <= (opts.from_ns > 0 ? opts.from_ns : 0)) {
		fprintf(stderr, "%s: --to must be later than %s\n", prog,
			opts.from_ns > 0 ? "--from" : "the first event (0)");
		return lt_error_exit_status(LT_E_USAGE);
	}
	if (output && same_file(output, argv[optind])) {
		fprintf(stderr, "%s: --output %s: that is the trace being read\n",
			prog, output);
		return lt_error_exit_status(LT_E_USAGE);
	}
	opts.trans_files = trans;

	warn_text_only(format, opts.stacks, opts.per_thread, opts.limit);
	cli_progress_init(&progress_line, prog, argv[optind], &opts, progress,
			  quiet);

	if (lt_report_file_is_json(argv[optind])) {
		/* a saved report, written again: it keeps what it was made with */
		if (analysis_changed(&opts))
			warnf("%s is a saved report: the options that shape the "
			      "analysis do not change it", argv[optind]);
		ret = lt_report_read_json(argv[optind], &report, &err);
		if (!ret) {
			/* what shapes the text is this run's to say */
			report->options.stacks = opts.stacks;
			report->options.per_thread = opts.per_thread;
			report->options.limit = opts.limit;
		}
	} else {
		ret = lt_analyze(argv[optind], &opts, &report, &err);
	}
	/* a run cut by --to, or failed, stops short of 100% */
	cli_progress_clear(&progress_line);
	if (ret < 0) {
		fprintf(stderr, "%s: %s\n", prog, err.msg);
		free(trans);
		return lt_error_exit_status(err.code);
	}
	/* a time copied from trace-cmd report is absolute: say so */
	if (opts.from_ns >= 0 &&
	    report->end_ns - report->start_ns < (uint64_t)opts.from_ns)
		warnf("--from %.6g s is past the end of the trace, %.6g s long (--from and --to count from its first event)",
		      opts.from_ns / 1e9,
		      (report->end_ns - report->start_ns) / 1e9);
	if (output) {
		out = fopen(output, "w");
		if (!out) {
			fprintf(stderr, "%s: %s: cannot write: %s\n", prog, output,
				strerror(errno));
			lt_report_free(report);
			free(trans);
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
	free(trans);
	return status;
}
