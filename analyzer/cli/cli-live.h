/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cli-live.h - --live and its options, the same in latency-analyze and
 * latency-view: parsed, checked against the rest, and the session opened
 * with what it lacks said on stderr.
 */
#ifndef CLI_LIVE_H
#define CLI_LIVE_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "cli-opts.h"
#include "latencytop.h"
#include "lt-live.h"

struct cli_live {
	bool live;
	uint64_t duration_ns;	/* 0: until stopped */
	uint64_t refresh_ns;	/* the viewer's (0: its default) */
	struct lt_live_config cfg;	/* opts filled by cli_live_open() */
};

void cli_live_init(struct cli_live *l);

/*
 * --live's options as entries of a command's table (cli-opts.h), over a
 * struct cli_live *@l: the same words in both programs but for those
 * whose help @h is the command's.  Each but --live is refused without it
 * (cli_live_needs).
 */
extern const struct cli_needs cli_live_needs;
cli_opt_cb cli_opt_duration, cli_opt_kernel_stacks, cli_opt_refresh,
	   cli_opt_step;

#define CLI_OPT_LIVE(l, h)	CLI_BOOL(0, "live", &(l)->live, h)
#define CLI_OPT_DURATION(l, h)						\
	CLI_CALLBACK('a', "duration", (l), "DUR", h, cli_opt_duration,	\
		     .needs = &cli_live_needs)
/* -o in the viewer, which writes no report */
#define CLI_OPT_SAVE(l, s, h)						\
	CLI_STRING(s, "save", &(l)->cfg.output, "FILE", h,		\
		   .flags = CLI_OPT_FILE, .needs = &cli_live_needs)
/* the tracing: -b, --kernel-stacks, --no-kernel-stacks, -S, --top-level */
#define CLI_OPTS_LIVE_TRACING(l)					\
	CLI_UINT('b', "buffer-size", &(l)->cfg.buffer_kb, "KB", 1,	\
		 1u << 22, "expected kB per CPU, 1 to 4194304",		\
		 "ring buffer per CPU (default: latency-record's)",	\
		 .needs = &cli_live_needs),				\
	CLI_CALLBACK(0, "kernel-stacks", (l), "HOW",			\
		     "switch (default: after each blocking switch),\n"	\
		     "all (after every event) or off", cli_opt_kernel_stacks, \
		     .flags = CLI_OPT_OPTARG, .words = "switch all off",	\
		     .needs = &cli_live_needs),				\
	CLI_CALLBACK(0, "no-kernel-stacks", (l), NULL,			\
		     "the same as --kernel-stacks=off", cli_opt_kernel_stacks, \
		     .needs = &cli_live_needs),				\
	CLI_BOOL('S', "schedstats", &(l)->cfg.schedstats,		\
		 "switch kernel.sched_schedstats on meanwhile",		\
		 .needs = &cli_live_needs),				\
	CLI_BOOL(0, "top-level", &(l)->cfg.top_level,			\
		 "trace in tracefs's top-level instance, not one of\n"	\
		 "its own", .needs = &cli_live_needs)
/* the viewer's: how it shows a window that moves */
#define CLI_OPTS_LIVE_VIEW(l)						\
	CLI_CALLBACK(0, "refresh", (l), "DUR", "redraw every DUR (default 1s)", \
		     cli_opt_refresh, .needs = &cli_live_needs),		\
	CLI_CALLBACK(0, "step", (l), "DUR",				\
		     "the window moves by DUR (default: window / 30)",	\
		     cli_opt_step, .needs = &cli_live_needs)
/*
 * After the options (argv[first], the first operand): with --live, no
 * trace and none of the options that need one (that --live's are not
 * given without it, the table said).  0, or the usage exit status (said
 * why).
 */
int cli_live_check(const char *prog, const struct cli_live *l,
		   const struct lt_options *opts, int first, int argc,
		   char **argv);

/*
 * Start: the session opened with @opts, what the kernel lacks said on
 * stderr (unless @quiet).  0, or the exit status (said why).
 */
int cli_live_open(const char *prog, struct cli_live *l,
		  const struct lt_options *opts, bool quiet,
		  struct lt_live **out);

/*
 * SIGINT, SIGTERM and SIGHUP stop a live run (tracefs is then put back)
 * instead of killing it; cli_live_signal says which came, 0 none.
 */
extern volatile sig_atomic_t cli_live_signal;
void cli_live_catch(void);
/* Once tracefs is back: die of the signal that stopped the run, as the shell expects. */
void cli_live_die_of_signal(void);

/*
 * latency-analyze --live: trace until --duration or a signal, then stop
 * and make the report.  -1 with *@report (and *@lv, to close after the
 * report: it holds its names), or the exit status (said why; *@lv, if
 * set, to close).
 */
int cli_live_analyze(const char *prog, struct cli_live *l,
		     const struct lt_options *opts, bool progress, bool quiet,
		     struct lt_live **lv, struct lt_report **report);

/* "12.3 s, 45678 events, 0 lost" into @buf: what a live run has seen. */
const char *cli_live_status(struct lt_live *lv, char *buf, size_t len);
/* "readers 0.31% of a core (0.90 us per event), 1.20% in all": its cost. */
const char *cli_live_cost(struct lt_live *lv, char *buf, size_t len);

#endif /* CLI_LIVE_H */
