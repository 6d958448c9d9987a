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

#include "latencytop.h"

/*
 * The options that shape the analysis, the same in both executables:
 * CLI_ANALYSIS_SHORTOPTS and CLI_ANALYSIS_LONGOPTS go into each one's
 * getopt tables, its own long-only options numbered from CLI_OPT_OWN.
 */
enum {
	CLI_OPT_FROM = 256,
	CLI_OPT_TO,
	CLI_OPT_SLEEP_CUTOFF,
	CLI_OPT_NO_MAXTIME,
	CLI_OPT_TRANS,
	CLI_OPT_NO_DEFAULT_TRANS,
	CLI_OPT_PARTIAL,
	CLI_OPT_TID,
	CLI_OPT_KALLSYMS,
	CLI_OPT_CHARGE_STOPPED,
	CLI_OPT_BUFFER,
	CLI_OPT_OWN
};

#define CLI_ANALYSIS_SHORTOPTS "s:w:kj:p:c:P:"
#define CLI_ANALYSIS_LONGOPTS						\
	{ "sort",		required_argument, NULL, 's' },		\
	{ "window",		required_argument, NULL, 'w' },		\
	{ "from",		required_argument, NULL, CLI_OPT_FROM },	\
	{ "to",			required_argument, NULL, CLI_OPT_TO },	\
	{ "kernel-threads",	no_argument,	   NULL, 'k' },		\
	{ "sleep-cutoff",	required_argument, NULL, CLI_OPT_SLEEP_CUTOFF }, \
	{ "no-maxtime",		no_argument,	   NULL, CLI_OPT_NO_MAXTIME }, \
	{ "charge-stopped",	no_argument,	   NULL, CLI_OPT_CHARGE_STOPPED }, \
	{ "buffer",		required_argument, NULL, CLI_OPT_BUFFER },	\
	{ "trans",		required_argument, NULL, CLI_OPT_TRANS },	\
	{ "no-default-trans",	no_argument,	   NULL, CLI_OPT_NO_DEFAULT_TRANS }, \
	{ "partial",		no_argument,	   NULL, CLI_OPT_PARTIAL },	\
	{ "threads",		required_argument, NULL, 'j' },		\
	{ "pid",		required_argument, NULL, 'p' },		\
	{ "tid",		required_argument, NULL, CLI_OPT_TID },	\
	{ "kallsyms",		required_argument, NULL, CLI_OPT_KALLSYMS }, \
	{ "comm",		required_argument, NULL, 'c' },		\
	{ "max-processes",	required_argument, NULL, 'P' }

/* The lists repeated options build, which lt_options points into. */
struct cli_lists {
	const char **trans;	/* --trans files, in order */
	int *pids, *tids;	/* --pid, --tid */
	const char **comms;	/* --comm patterns */
};

/*
 * Option @c with value @val into @opts; repeated ones are kept in order in
 * @lists (cli_lists_free() them after @opts), which @opts then points to.
 * 1: taken; 0: not one of these; below 0: refused and said why on stderr,
 * exit with -ret.
 */
int cli_analysis_opt(const char *prog, int c, const char *val,
		     struct lt_options *opts, struct cli_lists *lists);
void cli_lists_free(struct cli_lists *lists);
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
 * --help's lines for --from and --to, for the accounting options, then
 * for the choice of tasks (--pid, --tid, --comm, --max-processes).
 */
void cli_usage_range(FILE *out);
void cli_usage_accounting(FILE *out);
void cli_usage_tasks(FILE *out);
/*
 * When --pid, --tid or --comm chose no task of @report, say so (a
 * warning, unless @quiet): an empty report is then no finding.
 */
void cli_warn_no_task(const char *prog, const struct lt_report *report,
		      bool quiet);

/* "Try 'PROG --help'..."; returns the usage exit status. */
int cli_try_help(const char *prog);
/* 0 when argv[@optind] is the one operand, else says what is wrong. */
int cli_one_trace(const char *prog, int optind, int argc);
/* Say what is wrong with @val; returns the usage exit status. */
int cli_bad_arg(const char *prog, const char *opt, const char *val,
		const char *what);
/* --window: a duration above 0.  0, or the usage exit status. */
int cli_parse_window(const char *prog, const char *val, uint64_t *ns);
/* --threads: 1 to 1024.  0, or the usage exit status. */
int cli_parse_threads(const char *prog, const char *val, unsigned int *n);

#endif /* CLI_ARGS_H */
