// SPDX-License-Identifier: GPL-2.0
/*
 * cli-merge.c - latency-analyze merge: reports (saved, or traces analysed
 * now) as one, exactly (lt_report_merge()).
 *
 * parse options -> load every input -> merge -> write, as JSON unless
 * asked otherwise: what a fleet merges again later.
 */
#include <stdlib.h>
#include <string.h>

#include "cli-args.h"
#include "cli-format.h"
#include "cli-load.h"
#include "cli-sub.h"

static void usage(FILE *out, const struct cli_cmd *cmd)
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
"\n", cmd->prog);
	cli_opts_help(out, cmd);
	fputs(
"\n"
"Reports made with different accounting options (--sleep-cutoff,\n"
"--no-maxtime, --kernel-threads) do not merge: exit status 7.  Reports\n"
"saved before schema latencytop-report/1.1 have no histograms: they merge,\n"
"but their percentiles cannot (a warning names them).\n"
"Exit status as latency-analyze's (see latency-analyze(1)).\n", out);
}

/* What the command line asks for. */
struct args {
	struct cli_analysis an;
	struct cli_format format;
	const char *output;
	bool progress, quiet;
	char **files;
	int nr_files;
};

/* -1 to go on, else the exit status to leave with. */
static int parse_args(const char *prog, int argc, char **argv, struct args *a)
{
	struct cli_analysis *an = &a->an;
	struct cli_opt options[] = {
		CLI_OPT_FORMAT(&a->format, "one of (json, the default, is what "
			       "merges again):"),
		CLI_STRING('o', "output", &a->output, "FILE",
			   "write to FILE instead of stdout",
			   .flags = CLI_OPT_FILE),
		CLI_OPT_SORT(an, "order rows by max, total, count or avg"),
		CLI_OPT_MAX_PROCESSES(an),
		CLI_BOOL('q', "quiet", &a->quiet,
			 "no progress and no warnings on stderr"),
		CLI_BOOL_SET(0, "no-progress", &a->progress, false,
			     "no progress display"),
		CLI_HELP("this help"),
		CLI_GROUP("Traces given are analysed with latency-analyze's options:"),
		CLI_OPTS_RANGE(an),
		CLI_OPTS_ACCOUNTING(an),
		CLI_OPTS_TASKS(an),
		CLI_OPT_THREADS(an, CLI_THREADS_HELP),
		/* windows are not merged */
		CLI_OPT_WINDOW(an, NULL, .flags = CLI_OPT_HIDDEN),
		CLI_END()
	};
	const struct cli_cmd cmd = {
		.prog = prog, .opts = options, .usage = usage,
	};
	int ret, first;

	cli_analysis_init(an);
	cli_format_init(&a->format, CLI_INPUT(LT_WRITE_REPORT), "json");
	a->progress = true;
	ret = cli_parse(&cmd, argc, argv, &first);
	if (ret >= 0)
		return ret;
	if (a->quiet)
		a->progress = false;
	if (first >= argc) {
		fprintf(stderr, "%s: no FILE to merge\n", prog);
		return cli_try_help(prog);
	}
	if (cli_analysis_check(prog, &an->opts) ||
	    cli_binary_to_terminal(prog, a->format.writer, a->output))
		return lt_error_exit_status(LT_E_USAGE);
	a->files = argv + first;
	a->nr_files = argc - first;
	return -1;
}

/*
 * They did merge: two reports of one trace whose ranges overlap (a file
 * given twice, the whole trace and a slice of it) added their common
 * waits twice.  Merged inputs keep only their ranges' span, so only
 * plain reports are compared - never a false alarm.
 */
static void warn_overlaps(const char *prog, struct lt_report **in,
			  char **files, int n)
{
	int i, j;

	for (i = 0; i < n; i++) {
		for (j = i + 1; j < n; j++) {
			const struct lt_report *a = in[i], *b = in[j];

			if (a->merged_reports > 1 || b->merged_reports > 1 ||
			    !a->id || !b->id || strcmp(a->id, b->id) ||
			    a->whole.start_ns >= b->whole.end_ns ||
			    b->whole.start_ns >= a->whole.end_ns)
				continue;
			fprintf(stderr, "%s: warning: %s and %s: ranges of one "
				"trace (%s) that overlap: the waits in both are "
				"counted twice\n", prog, files[i], files[j], a->id);
		}
	}
}

/* @merged where -o says: the exit status. */
static int write_merged(const char *prog, struct args *a,
			struct lt_report *merged)
{
	struct lt_error err = { 0 };
	struct cli_output o;
	int status = 0;
	FILE *out;

	out = cli_output_open(prog, &o, a->output, a->files, a->nr_files,
			      &status);
	if (!out)
		return status;
	if (lt_report_write(merged, a->format.writer->format, out, &err) < 0) {
		fprintf(stderr, "%s: %s: %s\n", prog,
			a->output ? a->output : "stdout", err.msg);
		return cli_output_close(prog, &o, false,
					lt_error_exit_status(LT_E_IO));
	}
	if (merged->partial) {
		fprintf(stderr, "%s: %s (the merged report is partial)\n", prog,
			merged->partial_reason);
		status = lt_error_exit_status(LT_E_PARTIAL);
	}
	return cli_output_close(prog, &o, true, status);
}

int cli_merge_main(const char *prog, int argc, char **argv)
{
	struct lt_report **in = NULL, *merged = NULL;
	struct args a = { 0 };
	struct lt_options defaults;
	struct lt_error err = { 0 };
	int i, n = 0, status;
	bool saved;

	status = parse_args(prog, argc, argv, &a);
	if (status >= 0)
		goto out;
	in = calloc((size_t)a.nr_files, sizeof(*in));
	if (!in) {
		fprintf(stderr, "%s: out of memory\n", prog);
		status = lt_error_exit_status(LT_E_NOMEM);
		goto out;
	}
	lt_options_init(&defaults);
	for (n = 0; n < a.nr_files; n++) {
		if (cli_load_report(prog, a.files[n], &a.an.opts, &defaults,
				    a.progress, a.quiet, &in[n], &err, &saved) < 0) {
			fprintf(stderr, "%s: %s\n", prog, err.msg);
			status = lt_error_exit_status(err.code);
			goto out;
		}
	}
	/* asked for: the merge orders by it (with ties broken its way) */
	for (i = 0; a.an.sort_given && i < n; i++)
		in[i]->options.sort = a.an.opts.sort;
	if (lt_report_merge((const struct lt_report *const *)in,
			    (const char *const *)a.files, (size_t)n,
			    &merged, &err) < 0) {
		fprintf(stderr, "%s: %s\n", prog, err.msg);
		status = lt_error_exit_status(err.code);
		goto out;
	}
	if (!a.quiet)
		warn_overlaps(prog, in, a.files, n);
	/* what shapes the text is this run's to say, as for a saved report */
	merged->options.max_processes = a.an.opts.max_processes;
	status = write_merged(prog, &a, merged);
out:
	lt_report_free(merged);
	for (i = 0; i < n; i++)
		lt_report_free(in[i]);
	free(in);
	cli_analysis_free(&a.an);
	return status;
}
