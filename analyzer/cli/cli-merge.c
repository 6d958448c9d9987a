// SPDX-License-Identifier: GPL-2.0
/*
 * cli-merge.c - latency-analyze merge: reports (saved, or traces analysed
 * now) as one, exactly (lt_report_merge()).
 *
 * parse options -> each input read, added to the merge and freed ->
 * write, as JSON unless asked otherwise: what a fleet merges again later.
 * What is held is the merge so far and one input, however many there are.
 */
#include <inttypes.h>
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

/* Warnings of one kind past which the rest are counted, not printed. */
#define WARN_SHOWN	3

/* A plain report's range of its trace, for the overlap warning. */
struct range {
	char *id;
	uint64_t start_ns, end_ns;
	int file;		/* the FILE it was read from */
};

struct ranges {
	struct range *v;
	size_t nr, cap;
};

/*
 * Keep @r's range if it is a plain report's: merged inputs keep only
 * their ranges' span, so comparing them could only give false alarms.
 * 0, or -1 out of memory.
 */
static int keep_range(struct ranges *rs, const struct lt_report *r, int file)
{
	struct range *g;

	if (r->merged_reports > 1 || !r->id)
		return 0;
	if (rs->nr == rs->cap) {
		size_t ncap = rs->cap ? rs->cap * 2 : 64;

		g = realloc(rs->v, ncap * sizeof(*g));
		if (!g)
			return -1;
		rs->v = g;
		rs->cap = ncap;
	}
	g = &rs->v[rs->nr];
	g->id = strdup(r->id);
	if (!g->id)
		return -1;
	g->start_ns = r->whole.start_ns;
	g->end_ns = r->whole.end_ns;
	g->file = file;
	rs->nr++;
	return 0;
}

static int cmp_ranges(const void *pa, const void *pb)
{
	const struct range *a = pa, *b = pb;
	int c = strcmp(a->id, b->id);

	if (c)
		return c;
	if (a->start_ns != b->start_ns)
		return a->start_ns < b->start_ns ? -1 : 1;
	return a->file - b->file;
}

/*
 * They did merge: two reports of one trace whose ranges overlap (a file
 * given twice, the whole trace and a slice of it) added their common
 * waits twice.  The first pairs are named, the others counted: n files
 * given alike make n(n-1)/2 pairs.
 */
static void warn_overlaps(const char *prog, struct ranges *rs, char **files)
{
	uint64_t pairs = 0;
	size_t i, j;

	qsort(rs->v, rs->nr, sizeof(*rs->v), cmp_ranges);
	for (i = 0; i < rs->nr; i++) {
		const struct range *a = &rs->v[i];

		/* by start: those after @a that start before it ends */
		for (j = i + 1; j < rs->nr && !strcmp(rs->v[j].id, a->id) &&
			     rs->v[j].start_ns < a->end_ns; j++) {
			const struct range *b = &rs->v[j];

			if (a->start_ns >= b->end_ns)
				continue;
			if (++pairs > WARN_SHOWN)
				continue;
			fprintf(stderr, "%s: warning: %s and %s: ranges of one "
				"trace (%s) that overlap: the waits in both are "
				"counted twice\n", prog,
				files[a->file < b->file ? a->file : b->file],
				files[a->file < b->file ? b->file : a->file], a->id);
		}
	}
	if (pairs > WARN_SHOWN)
		fprintf(stderr, "%s: warning: ... and %" PRIu64 " more pairs of "
			"ranges of one trace that overlap: their common waits "
			"are counted twice too\n", prog, pairs - WARN_SHOWN);
}

static void free_ranges(struct ranges *rs)
{
	size_t i;

	for (i = 0; i < rs->nr; i++)
		free(rs->v[i].id);
	free(rs->v);
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

/*
 * Each FILE read and added to @mg, then freed: what is held is the merge
 * so far and one input.  The exit status, or -1 to go on.
 */
static int fold(const char *prog, struct args *a, struct lt_report_merger *mg,
		struct ranges *rs)
{
	struct lt_options defaults;
	struct lt_error err = { 0 };
	struct lt_report *in;
	int n, said = 0, unsaid = 0;
	bool saved, hush;
	char names[256];

	lt_options_init(&defaults);
	for (n = 0; n < a->nr_files; n++) {
		/* that the options cannot change a saved report: said of
		   the first few, then counted */
		hush = said >= WARN_SHOWN && lt_report_file_is_json(a->files[n]);
		if (cli_load_report(prog, a->files[n], &a->an.opts,
				    hush ? NULL : &defaults, a->progress, a->quiet,
				    &in, &err, &saved) < 0) {
			fprintf(stderr, "%s: %s\n", prog, err.msg);
			return lt_error_exit_status(err.code);
		}
		if (saved && hush)
			unsaid++;
		else if (saved)
			said++;
		/* asked for: the merge orders by it (with ties broken its way) */
		if (a->an.sort_given)
			in->options.sort = a->an.opts.sort;
		if (lt_report_merger_add(mg, in, a->files[n], &err) < 0 ||
		    (!a->quiet && keep_range(rs, in, n) < 0)) {
			lt_report_free(in);
			if (!err.code)
				lt_error_set(&err, LT_E_NOMEM, "out of memory");
			fprintf(stderr, "%s: %s\n", prog, err.msg);
			return lt_error_exit_status(err.code);
		}
		lt_report_free(in);
	}
	if (unsaid && !a->quiet &&
	    cli_analysis_changed(&a->an.opts, &defaults, names, sizeof(names)))
		fprintf(stderr, "%s: warning: ... and %d more saved reports, "
			"which %s cannot change either\n", prog, unsaid, names);
	return -1;
}

int cli_merge_main(const char *prog, int argc, char **argv)
{
	struct lt_report_merger *mg = NULL;
	struct lt_report *merged = NULL;
	struct ranges rs = { 0 };
	struct args a = { 0 };
	struct lt_error err = { 0 };
	int status;

	status = parse_args(prog, argc, argv, &a);
	if (status >= 0)
		goto out;
	mg = lt_report_merger_new(true, &err);
	if (!mg) {
		fprintf(stderr, "%s: %s\n", prog, err.msg);
		status = lt_error_exit_status(err.code);
		goto out;
	}
	status = fold(prog, &a, mg, &rs);
	if (status >= 0)
		goto out;
	status = lt_report_merger_finish(mg, &merged, &err);
	if (status < 0) {
		fprintf(stderr, "%s: %s\n", prog, err.msg);
		status = lt_error_exit_status(err.code);
		goto out;
	}
	if (!a.quiet)
		warn_overlaps(prog, &rs, a.files);
	/* what shapes the text is this run's to say, as for a saved report */
	merged->options.max_processes = a.an.opts.max_processes;
	status = write_merged(prog, &a, merged);
out:
	lt_report_free(merged);
	lt_report_merger_free(mg);
	free_ranges(&rs);
	cli_analysis_free(&a.an);
	return status;
}
