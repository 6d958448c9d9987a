// SPDX-License-Identifier: GPL-2.0
/*
 * cli-diff.c - latency-analyze diff: what changed between two reports
 * (saved or traces analysed now), cause by cause, with --fail-on tests
 * whose crossing is the exit status, for CI.
 *
 * parse options (and the --fail-on expressions) -> load both sides ->
 * compare -> test -> write -> exit 8 if a test was crossed.
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "cli-args.h"
#include "cli-format.h"
#include "cli-load.h"
#include "cli-sub.h"

#define MAX_FAIL_ON 32

static void usage(FILE *out, const struct cli_cmd *cmd)
{
	fprintf(out,
"Usage: %s [OPTION]... BEFORE AFTER\n"
"Compare two reports cause by cause: per cause of the global table (and per\n"
"command, or per process), the change in count, total, maximum, p50, p99\n"
"and share, new and vanished causes; each table's causes by how much worse\n"
"they got (the rise of their total).  BEFORE and AFTER are reports saved\n"
"with --format=json (merged ones too) or traces, analysed first.\n"
"\n", cmd->prog);
	cli_opts_help(out, cmd);
	fputs(
"\n"
"Exit status:\n"
"  0  written, no --fail-on crossed   8  written, a --fail-on test crossed\n"
"  1  invalid arguments or a malformed --fail-on expression\n"
"  2  cannot read a file              3  not a trace or report, damaged, or\n"
"  4  no scheduler events                a report schema not read (not 1.x)\n"
"  5  written, a side is partial (--partial, or a partial report), and\n"
"     no --fail-on crossed\n"
"  6  resource limit or out of memory\n"
"See latency-analyze(1).\n", out);
}

static void __attribute__((format(printf, 1, 2))) warnf(const char *fmt, ...)
{
	va_list ap;

	fputs("latency-analyze diff: warning: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

/* --by global,command,process */
static int opt_by(const struct cli_cmd *cmd, const struct cli_opt *o,
		  const char *val)
{
	const char *prog = cmd->prog;
	unsigned int *scopes = o->value;
	static const char *const names[LT_DIFF_SCOPES] = {
		[LT_DIFF_GLOBAL] = "global",
		[LT_DIFF_COMMAND] = "command",
		[LT_DIFF_PROCESS] = "process",
	};
	const char *p = val, *e;
	int s;

	*scopes = 0;
	while (*p) {
		e = strchr(p, ',');
		if (!e)
			e = p + strlen(p);
		for (s = 0; s < LT_DIFF_SCOPES; s++)
			if (strlen(names[s]) == (size_t)(e - p) &&
			    !strncmp(p, names[s], (size_t)(e - p)))
				break;
		if (s == LT_DIFF_SCOPES)
			return cli_bad_arg(prog, "--by", val, "expected a comma-"
					   "separated list of global, command "
					   "and process");
		*scopes |= LT_DIFF_SCOPE_BIT(s);
		p = *e ? e + 1 : e;
	}
	if (!*scopes)
		return cli_bad_arg(prog, "--by", val, "expected global, command "
				   "or process");
	return 0;
}

/* What the command line asks for. */
struct args {
	struct cli_analysis an;
	struct cli_format format;
	unsigned int scopes;		/* LT_DIFF_SCOPE_BIT()s */
	const char *output, *fail_on[MAX_FAIL_ON];
	int nr_fail_on;
	bool progress, quiet, all;
	char **sides;			/* BEFORE, AFTER */
};

/* --fail-on EXPR: a malformed one said now, not after a long analysis */
static int opt_fail_on(const struct cli_cmd *cmd, const struct cli_opt *o,
		       const char *val)
{
	struct args *a = o->value;
	struct lt_error err = { 0 };
	size_t n;

	if (a->nr_fail_on == MAX_FAIL_ON) {
		fprintf(stderr, "%s: more than %d --fail-on\n", cmd->prog,
			MAX_FAIL_ON);
		return lt_error_exit_status(LT_E_USAGE);
	}
	if (lt_diff_check(NULL, val, &n, &err) < 0) {
		fprintf(stderr, "%s: %s\n", cmd->prog, err.msg);
		return lt_error_exit_status(LT_E_USAGE);
	}
	a->fail_on[a->nr_fail_on++] = val;
	return 0;
}

/* A --fail-on test of a scope --by leaves out: said before the analysis. */
static int check_scopes(const char *prog, const struct args *a)
{
	struct lt_diff *probe;
	struct lt_error err = { 0 };
	int i, ret = 0;
	size_t n;

	if (!a->nr_fail_on)
		return 0;
	probe = calloc(1, sizeof(*probe));
	if (!probe) {
		fprintf(stderr, "%s: out of memory\n", prog);
		return lt_error_exit_status(LT_E_NOMEM);
	}
	probe->scopes = a->scopes;
	for (i = 0; i < a->nr_fail_on && !ret; i++)
		ret = lt_diff_check(probe, a->fail_on[i], &n, &err);
	lt_diff_free(probe);
	if (ret < 0) {
		fprintf(stderr, "%s: %s\n", prog, err.msg);
		return lt_error_exit_status(LT_E_USAGE);
	}
	return 0;
}

/* -1 to go on, else the exit status to leave with. */
static int parse_args(const char *prog, int argc, char **argv, struct args *a)
{
	struct cli_analysis *an = &a->an;
	struct cli_opt options[] = {
		CLI_OPT_FORMAT(&a->format, "one of:"),
		CLI_STRING('o', "output", &a->output, "FILE",
			   "write to FILE instead of stdout",
			   .flags = CLI_OPT_FILE),
		CLI_CALLBACK(0, "by", &a->scopes, "SCOPES",
			     "the tables compared, a comma-separated list of\n"
			     "global, command and process (default:\n"
			     "global,command; process: by name and pid, for two\n"
			     "reports of one run)", opt_by,
			     .words = "global command process global,command "
				      "global,command,process"),
		CLI_BOOL(0, "all", &a->all,
			 "list the causes that did not change too"),
		CLI_CALLBACK(0, "fail-on", a, "EXPR",
			     "exit with status 8 when a cause crosses EXPR (may\n"
			     "be repeated), e.g. 'p99>+20%', 'total>+10ms',\n"
			     "'max>50ms', 'command:count>+50%~fsync*':\n"
			     "  [SCOPE:]FIGURE OP [+|-]NUMBER[UNIT|%][~GLOB]\n"
			     "SCOPE global (default), command, process or any;\n"
			     "FIGURE count, total, max, avg, p50, p90, p99 or\n"
			     "share (in points); OP >, >=, < or <=; a sign\n"
			     "compares the change, none the after value; %\n"
			     "the change relative to before; UNIT ns, us, ms, s;\n"
			     "GLOB the causes it applies to; tests separated by\n"
			     "commas: any one crossed fails", opt_fail_on),
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
		/* a diff orders its own way, of the whole ranges, every process */
		CLI_OPT_SORT(an, NULL, .flags = CLI_OPT_HIDDEN),
		CLI_OPT_WINDOW(an, NULL, .flags = CLI_OPT_HIDDEN),
		CLI_OPT_MAX_PROCESSES(an, .flags = CLI_OPT_HIDDEN),
		CLI_END()
	};
	const struct cli_cmd cmd = {
		.prog = prog, .opts = options, .usage = usage,
	};
	int ret, first;

	cli_analysis_init(an);
	cli_format_init(&a->format, CLI_INPUT(LT_WRITE_DIFF), "text");
	a->scopes = LT_DIFF_SCOPE_BIT(LT_DIFF_GLOBAL) |
		    LT_DIFF_SCOPE_BIT(LT_DIFF_COMMAND);
	a->progress = true;
	ret = cli_parse(&cmd, argc, argv, &first);
	if (ret >= 0)
		return ret;
	if (a->quiet)
		a->progress = false;
	if (argc - first != 2) {
		fprintf(stderr, "%s: %s\n", prog, argc - first < 2 ?
			"expected BEFORE and AFTER" : "only BEFORE and AFTER");
		return cli_try_help(prog);
	}
	if (cli_analysis_check(prog, &an->opts))
		return lt_error_exit_status(LT_E_USAGE);
	a->sides = argv + first;
	ret = check_scopes(prog, a);
	return ret ? ret : -1;
}

/* @d where -o says: the exit status. */
static int write_diff(const char *prog, struct args *a, struct lt_diff *d)
{
	struct lt_error err = { 0 };
	struct cli_output o;
	int status = 0;
	FILE *out;

	out = cli_output_open(prog, &o, a->output, a->sides, 2, &status);
	if (!out)
		return status;
	if (lt_diff_write(d, a->format.writer->format, out, &err) < 0) {
		fprintf(stderr, "%s: %s: %s\n", prog,
			a->output ? a->output : "stdout", err.msg);
		status = lt_error_exit_status(LT_E_IO);
	}
	return cli_output_close(prog, &o, !status, status);
}

int cli_diff_main(const char *prog, int argc, char **argv)
{
	struct lt_report *side[2] = { NULL, NULL };
	struct args a = { 0 };
	struct lt_options defaults;
	struct lt_error err = { 0 };
	struct lt_diff *d = NULL;
	bool saved, crossed = false;
	int i, status;
	size_t n;

	status = parse_args(prog, argc, argv, &a);
	if (status >= 0)
		goto out;
	if (!a.quiet) {
		bool given[LT_WOPT_NR] = {
			[LT_WOPT_WINDOW] = a.an.opts.window_ns != 0,
			[LT_WOPT_MAX_PROCESSES] = a.an.opts.max_processes != 0,
		};

		cli_warn_ignored(a.format.writer, given, warnf);
	}
	lt_options_init(&defaults);
	for (i = 0; i < 2; i++) {
		if (cli_load_report(prog, a.sides[i], &a.an.opts, &defaults,
				    a.progress, a.quiet, &side[i], &err,
				    &saved) < 0)
			goto failed;
	}
	if (lt_diff_make(side[0], a.sides[0], side[1], a.sides[1], a.scopes,
			 &d, &err) < 0)
		goto failed;
	d->all = a.all;
	for (i = 0; i < a.nr_fail_on; i++) {
		if (lt_diff_check(d, a.fail_on[i], &n, &err) < 0)
			goto failed;
		crossed |= n > 0;
	}
	status = write_diff(prog, &a, d);
	/* the diff is written either way: CI shows it, then fails */
	if (!status && crossed) {
		if (!a.quiet)
			fprintf(stderr, "%s: a --fail-on threshold was crossed\n",
				prog);
		status = lt_error_exit_status(LT_E_CROSSED);
	}
	/* a side read only up to its damage (--partial) is not all the data */
	for (i = 0; i < 2; i++) {
		if (!side[i]->partial)
			continue;
		fprintf(stderr, "%s: %s (the diff's %s side is partial)\n",
			prog, side[i]->partial_reason ? side[i]->partial_reason :
			a.sides[i], i ? "after" : "before");
		if (!status)
			status = lt_error_exit_status(LT_E_PARTIAL);
	}
	goto out;
failed:
	fprintf(stderr, "%s: %s\n", prog, err.msg);
	status = lt_error_exit_status(err.code);
out:
	lt_diff_free(d);
	lt_report_free(side[0]);
	lt_report_free(side[1]);
	cli_analysis_free(&a.an);
	return status;
}
