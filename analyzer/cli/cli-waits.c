// SPDX-License-Identifier: GPL-2.0
/*
 * cli-waits.c - latency-analyze --format=waits (or waits-jsonl): one row
 * per wait the analysis saw, and with --waits-stacks=FILE the stacks
 * they name, for SQL engines (cli-sub.h).
 *
 * The rows are written by the analysis itself, as it hands them over:
 * so the files are opened first, and a saved report, which holds no
 * waits, is refused before anything is read.  No report, no file: a
 * failed analysis leaves no --output (nor --waits-stacks) behind, as the
 * other formats create none, rather than a CSV of only its header that
 * a loader would take for a trace without waits; an older file there
 * stays as it was (cli-output.c).
 */
#include <errno.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli-load.h"
#include "cli-sub.h"

int cli_waits_main(const char *prog, const struct lt_writer *w,
		   const char *path, const char *output, const char *stacks,
		   struct lt_options *opts, bool progress, bool quiet)
{
	char *const inputs[] = { (char *)path };
	struct lt_waits_writer *ww = NULL;
	struct lt_options defaults;
	struct lt_report *report = NULL;
	struct lt_error err = { 0 };
	struct cli_output o, so = { 0 };
	FILE *out = NULL, *sout = NULL;
	int status = 0;
	bool saved, failed = false;

	if (w->input != LT_WRITE_WAITS) {
		fprintf(stderr, "%s: --waits-stacks: only with --format=waits or "
			"waits-jsonl\n", prog);
		return lt_error_exit_status(LT_E_USAGE);
	}
	if (lt_report_file_is_json(path)) {
		fprintf(stderr, "%s: %s: a saved report holds no waits: "
			"--format=%s needs the trace\n", prog, path, w->name);
		return lt_error_exit_status(LT_E_USAGE);
	}
	if (stacks && output && !strcmp(stacks, output)) {
		fprintf(stderr, "%s: --waits-stacks %s: the same file as --output\n",
			prog, stacks);
		return lt_error_exit_status(LT_E_USAGE);
	}
	out = cli_output_open(prog, &o, output, inputs, 1, &status);
	if (!out)
		return status;
	if (stacks) {
		sout = cli_output_open(prog, &so, stacks, inputs, 1, &status);
		if (!sout) {
			failed = true;
			goto out;
		}
	}
	ww = lt_waits_writer_new(w->format, out, sout);
	if (!ww) {
		fprintf(stderr, "%s: out of memory\n", prog);
		status = lt_error_exit_status(LT_E_NOMEM);
		failed = true;
		goto out;
	}
	lt_waits_writer_attach(ww, opts);
	lt_options_init(&defaults);
	if (cli_load_report(prog, path, opts, &defaults, progress, quiet,
			    &report, &err, &saved) < 0) {
		/* the rows could not be written: say where to */
		if (err.code == LT_E_IO && (ferror(out) || (sout && ferror(sout))))
			fprintf(stderr, "%s: %s: %s\n", prog, ferror(out) ?
				(output ? output : "stdout") : stacks, err.msg);
		else
			fprintf(stderr, "%s: %s\n", prog, err.msg);
		status = lt_error_exit_status(err.code);
		failed = true;
	} else if (report->partial) {
		fprintf(stderr, "%s: %s (the waits are those read before it)\n",
			prog, report->partial_reason);
		status = lt_error_exit_status(LT_E_PARTIAL);
	}
	if (lt_waits_writer_close(ww, &err) < 0 && !status) {
		fprintf(stderr, "%s: %s: %s\n", prog, output ? output : "stdout",
			err.msg);
		status = lt_error_exit_status(LT_E_IO);
		failed = true;
	}
out:
	lt_report_free(report);
	if (stacks)
		status = cli_output_close(prog, &so, sout && !failed, status);
	return cli_output_close(prog, &o, !failed, status);
}
