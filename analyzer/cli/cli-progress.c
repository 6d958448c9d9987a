// SPDX-License-Identifier: GPL-2.0
/*
 * cli-progress.c - the progress line of the executables (cli-progress.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "cli-progress.h"
#include "latencytop.h"

#define PROGRESS_DELAY_MS	1000

void cli_progress_clear(struct cli_progress *p)
{
	if (p->shown < 0)
		return;
	fputs("\r\033[K", stderr);
	p->shown = -1;
}

/* Redrawn only when its percentage changes. */
static void on_progress(void *ctx, uint64_t done, uint64_t total)
{
	struct cli_progress *p = ctx;
	struct timespec now;
	int pct;

	if (done >= total) {
		cli_progress_clear(p);
		return;
	}
	pct = (int)(done * 100 / total);
	if (pct == p->shown)
		return;
	if (p->shown < 0) {
		/* only for runs long enough to wonder about */
		clock_gettime(CLOCK_MONOTONIC, &now);
		if ((now.tv_sec - p->start.tv_sec) * 1000 +
		    (now.tv_nsec - p->start.tv_nsec) / 1000000 < p->delay_ms)
			return;
	}
	fprintf(stderr, "\r%s: reading %s: %3d%%", p->prog, p->path, pct);
	p->shown = pct;
}

static void on_warning(void *ctx, const char *msg)
{
	struct cli_progress *p = ctx;

	if (p->quiet)
		return;
	cli_progress_clear(p);
	fprintf(stderr, "%s: warning: %s\n", p->prog, msg);
}

void cli_progress_init(struct cli_progress *p, const char *prog,
		       const char *path, struct lt_options *opts, bool show,
		       bool quiet)
{
	const char *delay = getenv("LT_PROGRESS_DELAY_MS");

	p->prog = prog;
	p->path = path;
	p->shown = -1;
	p->quiet = quiet;
	lt_set_warning_fn(on_warning, p);
	clock_gettime(CLOCK_MONOTONIC, &p->start);
	p->delay_ms = delay ? atol(delay) : PROGRESS_DELAY_MS;
	if (show && isatty(STDERR_FILENO)) {
		opts->progress = on_progress;
		opts->progress_ctx = p;
	}
}
