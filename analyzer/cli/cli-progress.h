/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cli-progress.h - "reading trace.dat:  42%" on stderr while a long
 * analysis runs, shared by latency-analyze and latency-view.
 */
#ifndef CLI_PROGRESS_H
#define CLI_PROGRESS_H

#include <stdbool.h>
#include <stdint.h>
#include <time.h>

struct cli_progress {
	const char *prog, *path;
	struct timespec start;
	long delay_ms;
	int shown;		/* the percentage on screen, -1 for none */
	bool quiet;		/* no warnings */
};

/*
 * Hook @p into @opts when stderr is a terminal (and @show): the line
 * shows once a run has lasted a second (LT_PROGRESS_DELAY_MS for tests).
 * The library's warnings go through it too, so that none starts
 * mid-line; @quiet drops them.
 */
struct lt_options;
void cli_progress_init(struct cli_progress *p, const char *prog,
		       const char *path, struct lt_options *opts, bool show,
		       bool quiet);
void cli_progress_clear(struct cli_progress *p);

#endif /* CLI_PROGRESS_H */
