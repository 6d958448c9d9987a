// SPDX-License-Identifier: GPL-2.0
/*
 * cli-merge.c - latency-analyze merge: reports (saved, or traces analysed
 * now) as one, exactly (lt_report_merge()).
 *
 * parse options -> load every input -> merge -> write, as JSON unless
 * asked otherwise: what a fleet merges again later.
 */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "cli-args.h"
#include "cli-format.h"
#include "cli-load.h"
#include "cli-sub.h"

enum { OPT_NO_PROGRESS = CLI_OPT_OWN };

static const struct option long_opts[] = {
	CLI_ANALYSIS_LONGOPTS,
	{ "format",		required_argument, NULL, 'f' },
	{ "output",		required_argument, NULL, 'o' },
	{ "no-progress",	no_argument,	   NULL, OPT_NO_PROGRESS },
	{ "quiet",		no_argument,	   NULL, 'q' },
	{ "help",		no_argument,	   NULL, 'h' },
	{ NULL, 0, NULL, 0 }
};

static void usage(const char *prog, FILE *out)
{
	fprintf(out,
"Usage: %s [OPTION]... FILE...\n"
"Merge reports into one, as one analysis of all their data would give it:\n"
"counts, totals, maxima and worst waits exactly, percentiles from the rows'\n"
"histograms added bucket by bucket.  A FILE is a report saved with\n"
"--format=json (merged ones too) or a trace, analysed first.  Processes\n"
"stay apart per trace (its id: host, kernel and start); the global table\n"
"and a table per command combine them.  The order of the FILEs does not\n"
"matter, nor how merges are grouped: the output is the same, byte for byte.\n"
"\n"
"  -f, --format=FMT       one of (json, the default, is what merges again):\n", prog);
	cli_usage_formats(out, CLI_INPUT(LT_WRITE_REPORT), "json");
	fputs(
"  -o, --output=FILE      write to FILE instead of stdout\n"
"  -s, --sort=KEY         order rows by max, total, count or avg\n"
"  -q, --quiet            no progress and no warnings on stderr\n"
"      --no-progress      no progress display\n"
"\n"
"Traces given are analysed with latency-analyze's options:\n", out);
	cli_usage_range(out);
	cli_usage_accounting(out);
	fputs(
"\n"
"Reports made with different accounting options (--sleep-cutoff,\n"
"--no-maxtime, --kernel-threads) do not merge: exit status 7.  Reports\n"
"saved before schema latencytop-report/1.1 have no histograms: they merge,\n"
"but their percentiles cannot (a warning names them).\n"
"Exit status as latency-analyze's (see latency-analyze(1)).\n", out);
}

int cli_merge_main(const char *prog, int argc, char **argv)
{
	const struct lt_writer *writer = lt_writer_find(LT_WRITE_REPORT, "json");
	struct lt_report **in = NULL, *merged = NULL;
	struct cli_lists lists = { 0 };
	const char *output = NULL;
	struct lt_options opts, defaults;
	struct lt_error err = { 0 };
	bool progress = true, quiet = false, sort_given = false, saved;
	int c, ret, i, n = 0, status = 0;
	struct cli_output o;
	FILE *out;
	bool complete = true;

	lt_options_init(&opts);
	argv[0] = (char *)prog;
	optind = 1;
	while ((c = getopt_long(argc, argv, CLI_ANALYSIS_SHORTOPTS "f:o:qh",
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
			if (cli_parse_format(prog, CLI_INPUT(LT_WRITE_REPORT), optarg, &writer)) {
				cli_lists_free(&lists);
				return lt_error_exit_status(LT_E_USAGE);
			}
			break;
		case 'o':
			output = optarg;
			break;
		case OPT_NO_PROGRESS:
			progress = false;
			break;
		case 'q':
			quiet = true;
			progress = false;
			break;
		case 'h':
			usage(prog, stdout);
			cli_lists_free(&lists);
			return 0;
		default:
			cli_lists_free(&lists);
			return cli_try_help(prog);
		}
	}
	if (optind >= argc) {
		fprintf(stderr, "%s: no FILE to merge\n", prog);
		cli_lists_free(&lists);
		return cli_try_help(prog);
	}
	if (cli_analysis_check(prog, &opts) ||
	    cli_binary_to_terminal(prog, writer, output)) {
		cli_lists_free(&lists);
		return lt_error_exit_status(LT_E_USAGE);
	}
	in = calloc((size_t)(argc - optind), sizeof(*in));
	if (!in) {
		fprintf(stderr, "%s: out of memory\n", prog);
		cli_lists_free(&lists);
		return lt_error_exit_status(LT_E_NOMEM);
	}
	lt_options_init(&defaults);
	for (i = optind; i < argc; i++) {
		if (cli_load_report(prog, argv[i], &opts, &defaults, progress,
				    quiet, &in[n], &err, &saved) < 0) {
			fprintf(stderr, "%s: %s\n", prog, err.msg);
			status = lt_error_exit_status(err.code);
			goto out;
		}
		n++;
	}
	/* asked for: the merge orders by it (with ties broken its way) */
	for (i = 0; sort_given && i < n; i++)
		in[i]->options.sort = opts.sort;
	if (lt_report_merge((const struct lt_report *const *)in,
			    (const char *const *)argv + optind, (size_t)n,
			    &merged, &err) < 0) {
		fprintf(stderr, "%s: %s\n", prog, err.msg);
		status = lt_error_exit_status(err.code);
		goto out;
	}
	/*
	 * They did merge: two reports of one trace whose ranges overlap (a
	 * file given twice, the whole trace and a slice of it) added their
	 * common waits twice.  Merged inputs keep only their ranges' span,
	 * so only plain reports are compared - never a false alarm.
	 */
	for (i = 0; !quiet && i < n; i++) {
		int j;

		for (j = i + 1; j < n; j++) {
			const struct lt_report *a = in[i], *b = in[j];

			if (a->merged_reports > 1 || b->merged_reports > 1 ||
			    !a->id || !b->id || strcmp(a->id, b->id) ||
			    a->whole.start_ns >= b->whole.end_ns ||
			    b->whole.start_ns >= a->whole.end_ns)
				continue;
			fprintf(stderr, "%s: warning: %s and %s: ranges of one "
				"trace (%s) that overlap: the waits in both are "
				"counted twice\n", prog, argv[optind + i],
				argv[optind + j], a->id);
		}
	}
	/* what shapes the text is this run's to say, as for a saved report */
	merged->options.max_processes = opts.max_processes;
	out = cli_output_open(prog, &o, output, argv + optind, argc - optind,
			      &status);
	if (!out)
		goto out;
	if (lt_report_write(merged, writer->format, out, &err) < 0) {
		fprintf(stderr, "%s: %s: %s\n", prog, output ? output : "stdout",
			err.msg);
		status = lt_error_exit_status(LT_E_IO);
		complete = false;
	} else if (merged->partial) {
		fprintf(stderr, "%s: %s (the merged report is partial)\n", prog,
			merged->partial_reason);
		status = lt_error_exit_status(LT_E_PARTIAL);
	}
	status = cli_output_close(prog, &o, complete, status);
out:
	lt_report_free(merged);
	for (i = 0; i < n; i++)
		lt_report_free(in[i]);
	free(in);
	cli_lists_free(&lists);
	return status;
}
