/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cli-args.h - option values both executables take, parsed and refused
 * alike: "PROG: --opt: invalid value 'x': what was expected".
 */
#ifndef CLI_ARGS_H
#define CLI_ARGS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "cli-opts.h"
#include "latencytop.h"

/* The lists repeated options build, which lt_options points into. */
struct cli_lists {
	const char **trans;	/* --trans files, in order */
	int *pids, *tids;	/* --pid, --tid */
	const char **comms;	/* --comm patterns */
};

/* What the analysis options set (the options tables' entries below). */
struct cli_analysis {
	struct lt_options opts;
	struct cli_lists lists;	/* opts points into them */
	bool sort_given;	/* --sort was given */
};

/* lt_options_init()'s defaults, no lists. */
void cli_analysis_init(struct cli_analysis *a);
/* The lists, after the options are done with. */
void cli_analysis_free(struct cli_analysis *a);

/*
 * The analysis options as entries of a command's table (cli-opts.h), over
 * a struct cli_analysis *@a; the same words in every command's --help but
 * for those whose help @h is the command's.  What follows is more fields
 * (.flags = CLI_OPT_HIDDEN).  Values are refused as
 * "PROG: --opt: invalid value 'x': what was expected".
 */
cli_opt_cb cli_opt_sort, cli_opt_window, cli_opt_from, cli_opt_to,
	   cli_opt_sleep_cutoff, cli_opt_trans, cli_opt_pid, cli_opt_tid,
	   cli_opt_comm;

#define CLI_OPT_SORT(a, h, ...)						\
	CLI_CALLBACK('s', "sort", (a), "KEY", h, cli_opt_sort,		\
		     .words = "max total count avg", __VA_ARGS__)
#define CLI_OPT_WINDOW(a, h, ...)					\
	CLI_CALLBACK('w', "window", (a), "DUR", h, cli_opt_window, __VA_ARGS__)
/* --from, --to */
#define CLI_OPTS_RANGE(a)						\
	CLI_CALLBACK(0, "from", (a), "T",				\
		     "start T after the first event (seconds, or 500ms, 2m)", \
		     cli_opt_from),						\
	CLI_CALLBACK(0, "to", (a), "T", "stop T after the first event",	\
		     cli_opt_to)
/*
 * -k, --sleep-cutoff, --no-maxtime, --charge-stopped, --trans,
 * --no-default-trans, --kallsyms, --partial, --buffer
 */
#define CLI_OPTS_ACCOUNTING(a)						\
	CLI_BOOL('k', "kernel-threads", &(a)->opts.kernel_threads,	\
		 "include kernel threads in the global table"),		\
	CLI_CALLBACK(0, "sleep-cutoff", (a), "DUR",			\
		     "interruptible waits longer than DUR are user\n"	\
		     "requested and not charged (default 5ms; 0 = keep all)", \
		     cli_opt_sleep_cutoff),					\
	CLI_BOOL_SET(0, "no-maxtime", &(a)->opts.honour_maxtime, false,	\
		     "charge waits longer than their reason's maxtime too"), \
	CLI_BOOL(0, "charge-stopped", &(a)->opts.charge_stopped,	\
		 "charge the time tasks were stopped (by a signal, T,\n" \
		 "or for a tracer, t), as its own causes"),		\
	CLI_CALLBACK(0, "trans", (a), "FILE",				\
		     "add a translation table (latencytop.trans format);\n" \
		     "may be repeated, later tables override", cli_opt_trans, \
		     .flags = CLI_OPT_FILE, .words = "trans"),		\
	CLI_BOOL(0, "no-default-trans", &(a)->opts.no_default_trans,	\
		 "use only --trans tables"),				\
	CLI_STRING(0, "kallsyms", &(a)->opts.kallsyms, "FILE",		\
		   "kernel symbols for a perf.data (a copy of the\n"	\
		   "recording machine's /proc/kallsyms); by default\n"	\
		   "perf's build-id cache, or this kernel's if it is\n"	\
		   "the one recorded", .flags = CLI_OPT_FILE),		\
	CLI_BOOL(0, "partial", &(a)->opts.partial,			\
		 "on a damaged trace, report what was read before the\n" \
		 "damage (marked partial, exit status 5)"),		\
	CLI_STRING(0, "buffer", &(a)->opts.buffer, "NAME",		\
		   "a trace.dat's instance buffer to read ('' for the\n" \
		   "top level); by default the one with scheduler\n"	\
		   "events, the top level when several have")
/* --pid, --tid, --comm */
#define CLI_OPTS_TASKS(a)						\
	CLI_CALLBACK('p', "pid", (a), "PID[,PID]",			\
		     "only these processes (all their threads)", cli_opt_pid), \
	CLI_CALLBACK(0, "tid", (a), "TID[,TID]", "only these threads",	\
		     cli_opt_tid),						\
	CLI_CALLBACK('c', "comm", (a), "PATTERN",			\
		     "only tasks named so, or in a process named so:\n"	\
		     "a shell pattern ('kworker/*'); --pid, --tid and\n"	\
		     "--comm may be repeated, and a task any of them\n"	\
		     "names is counted (the global table is theirs)",	\
		     cli_opt_comm)
#define CLI_OPT_MAX_PROCESSES(a, ...)					\
	CLI_UINT('P', "max-processes", &(a)->opts.max_processes, "N", 0,	\
		 UINT32_MAX, "expected a whole number, 0 for no limit",	\
		 "at most N process sections, the first by --sort", __VA_ARGS__)
#define CLI_THREADS_HELP						\
	"read and decode the trace on N threads, one of which\n"	\
	"also replays (default: one per usable core; one\n"		\
	"for traces under ~80,000 events)"
#define CLI_OPT_THREADS(a, h, ...)					\
	CLI_UINT('j', "threads", &(a)->opts.threads, "N", 1, 1024,	\
		 "expected 1 to 1024", h, __VA_ARGS__)

/* After the options: 0, or -1 when --from and --to cannot hold (said). */
int cli_analysis_check(const char *prog, const struct lt_options *opts);
/*
 * The options by which @opts shape the analysis differently from @base,
 * named in @buf ("--window, --from"), or NULL when none do.
 */
const char *cli_analysis_changed(const struct lt_options *opts,
				 const struct lt_options *base, char *buf,
				 size_t size);
/*
 * When --pid, --tid or --comm chose no task of @report, say so (a
 * warning, unless @quiet): an empty report is then no finding.
 */
void cli_warn_no_task(const char *prog, const struct lt_report *report,
		      bool quiet);

/* 0 when argv[@optind] is the one operand, else says what is wrong. */
int cli_one_trace(const char *prog, int optind, int argc);

#endif /* CLI_ARGS_H */
