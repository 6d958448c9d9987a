// SPDX-License-Identifier: GPL-2.0
/*
 * cli-load.c - a trace analysed or a saved report read (cli-load.h).
 */
#include <stdio.h>

#include "cli-args.h"
#include "cli-load.h"
#include "cli-progress.h"

int cli_load_report(const char *prog, const char *path,
		    struct lt_options *opts, const struct lt_options *base,
		    bool progress, bool quiet, struct lt_report **report,
		    struct lt_error *err, bool *saved)
{
	/* static: the library's warning hook keeps pointing at it */
	static struct cli_progress line;
	int ret;

	*saved = lt_report_file_is_json(path);
	if (*saved) {
		/* made already: the options it was made with hold */
		if (!quiet && cli_analysis_changed(opts, base))
			fprintf(stderr, "%s: warning: %s is a saved report: the "
				"options that shape the analysis do not change it\n",
				prog, path);
		return lt_report_read_json(path, report, err);
	}
	cli_progress_init(&line, prog, path, opts, progress && !quiet, quiet);
	ret = lt_analyze(path, opts, report, err);
	/* a run cut by --to, or failed, stops short of 100% */
	cli_progress_clear(&line);
	return ret;
}
