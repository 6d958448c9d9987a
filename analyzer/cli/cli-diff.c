// SPDX-License-Identifier: GPL-2.0
/*
 * cli-diff.c - latency-analyze diff: what changed between two reports
 * (saved or traces analysed now), cause by cause, with --fail-on tests
 * whose crossing is the exit status, for CI.
 *
 * parse options (and the --fail-on expressions) -> load both sides ->
 * compare -> test -> write -> exit 8 if a test was crossed.
 */
#include <getopt.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "cli-args.h"
#include "cli-format.h"
#include "cli-load.h"
#include "cli-sub.h"

enum {
	OPT_NO_PROGRESS = CLI_OPT_OWN,
	OPT_BY,
	OPT_ALL,
	OPT_FAIL_ON,
};

#define MAX_FAIL_ON 32

static const struct option long_opts[] = {
	CLI_ANALYSIS_LONGOPTS,
	{ "format",		required_argument, NULL, 'f' },
	{ "output",		required_argument, NULL, 'o' },
	{ "by",			required_argument, NULL, OPT_BY },
	{ "all",		no_argument,	   NULL, OPT_ALL },
	{ "fail-on",		required_argument, NULL, OPT_FAIL_ON },
	{ "no-progress",	no_argument,	   NULL, OPT_NO_PROGRESS },
	{ "quiet",		no_argument,	   NULL, 'q' },
	{ "help",		no_argument,	   NULL, 'h' },
	{ NULL, 0, NULL, 0 }
};

static void usage(const char *prog, FILE *out)
{
	fprintf(out,
"Usage: %s [OPTION]... BEFORE AFTER\n"
"Compare two reports cause by cause: per cause of the global table (and per\n"
"command, or per process), the change in count, total, maximum, p50, p99\n"
"and share, new and vanished causes; each table's causes by how much worse\n"
"they got (the rise of their total).  BEFORE and AFTER are reports saved\n"
"with --format=json (merged ones too) or traces, analysed first.\n"
"\n"
"  -f, --format=FMT       one of:\n", prog);
	cli_usage_formats(out, CLI_INPUT(LT_WRITE_DIFF), "text");
	fputs(
"  -o, --output=FILE      write to FILE instead of stdout\n"
"      --by=SCOPES        the tables compared, a comma-separated list of\n"
"                         global, command and process (default:\n"
"                         global,command; process: by name and pid, for two\n"
"                         reports of one run)\n"
"      --all              list the causes that did not change too\n"
"      --fail-on=EXPR     exit with status 8 when a cause crosses EXPR (may\n"
"                         be repeated), e.g. 'p99>+20%', 'total>+10ms',\n"
"                         'max>50ms', 'command:count>+50%~fsync*':\n"
"                           [SCOPE:]FIGURE OP [+|-]NUMBER[UNIT|%][~GLOB]\n"
"                         SCOPE global (default), command, process or any;\n"
"                         FIGURE count, total, max, avg, p50, p90, p99 or\n"
"                         share (in points); OP >, >=, < or <=; a sign\n"
"                         compares the change, none the after value; %\n"
"                         the change relative to before; UNIT ns, us, ms, s;\n"
"                         GLOB the causes it applies to; tests separated by\n"
"                         commas: any one crossed fails\n"
"  -q, --quiet            no progress and no warnings on stderr\n"
"      --no-progress      no progress display\n"
"\n"
"Traces given are analysed with latency-analyze's options:\n", out);
	cli_usage_range(out);
	cli_usage_accounting(out);
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
static int parse_by(const char *prog, const char *val, unsigned int *scopes)
{
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

int cli_diff_main(const char *prog, int argc, char **argv)
{
	const struct lt_writer *writer = lt_writer_find(LT_WRITE_DIFF, "text");
	unsigned int scopes = LT_DIFF_SCOPE_BIT(LT_DIFF_GLOBAL) |
			      LT_DIFF_SCOPE_BIT(LT_DIFF_COMMAND);
	struct cli_lists lists = { 0 };
	const char *output = NULL, *fail_on[MAX_FAIL_ON];
	struct lt_report *side[2] = { NULL, NULL };
	struct lt_options opts, defaults;
	struct lt_error err = { 0 };
	struct lt_diff *d = NULL;
	bool progress = true, quiet = false, all = false, saved, crossed = false;
	int c, ret, i, nfail = 0, status = 0;
	size_t n;
	struct cli_output o;
	FILE *out;

	lt_options_init(&opts);
	argv[0] = (char *)prog;
	optind = 1;
	while ((c = getopt_long(argc, argv, CLI_ANALYSIS_SHORTOPTS "f:o:qh",
				long_opts, NULL)) != -1) {
		ret = cli_analysis_opt(prog, c, optarg, &opts, &lists);
		if (ret < 0) {
			status = -ret;
			goto out;
		}
		if (ret)
			continue;
		switch (c) {
		case 'f':
			if (cli_parse_format(prog, CLI_INPUT(LT_WRITE_DIFF), optarg, &writer))
				goto usage;
			break;
		case 'o':
			output = optarg;
			break;
		case OPT_BY:
			if (parse_by(prog, optarg, &scopes))
				goto usage;
			break;
		case OPT_ALL:
			all = true;
			break;
		case OPT_FAIL_ON:
			/* malformed: said now, not after a long analysis */
			if (nfail == MAX_FAIL_ON) {
				fprintf(stderr, "%s: more than %d --fail-on\n",
					prog, MAX_FAIL_ON);
				goto usage;
			}
			if (lt_diff_check(NULL, optarg, &n, &err) < 0) {
				fprintf(stderr, "%s: %s\n", prog, err.msg);
				goto usage;
			}
			fail_on[nfail++] = optarg;
			break;
		case OPT_NO_PROGRESS:
			progress = false;
			break;
		case 'q':
			quiet = true;
			progress = false;
			break;
		case 'h':
			usage(prog, stdout);
			goto out;
		default:
			status = cli_try_help(prog);
			goto out;
		}
	}
	if (argc - optind != 2) {
		fprintf(stderr, "%s: %s\n", prog, argc - optind < 2 ?
			"expected BEFORE and AFTER" : "only BEFORE and AFTER");
		status = cli_try_help(prog);
		goto out;
	}
	if (cli_analysis_check(prog, &opts))
		goto usage;
	/* a test of a scope --by leaves out: said now, before the analysis */
	if (nfail) {
		struct lt_diff *probe = calloc(1, sizeof(*probe));

		if (!probe) {
			fprintf(stderr, "%s: out of memory\n", prog);
			status = lt_error_exit_status(LT_E_NOMEM);
			goto out;
		}
		probe->scopes = scopes;
		ret = 0;
		for (i = 0; i < nfail && !ret; i++)
			ret = lt_diff_check(probe, fail_on[i], &n, &err);
		lt_diff_free(probe);
		if (ret < 0) {
			fprintf(stderr, "%s: %s\n", prog, err.msg);
			goto usage;
		}
	}
	if (!quiet) {
		bool given[LT_WOPT_NR] = {
			[LT_WOPT_WINDOW] = opts.window_ns != 0,
			[LT_WOPT_MAX_PROCESSES] = opts.max_processes != 0,
		};

		cli_warn_ignored(writer, given, warnf);
	}
	lt_options_init(&defaults);
	for (i = 0; i < 2; i++) {
		if (cli_load_report(prog, argv[optind + i], &opts, &defaults,
				    progress, quiet, &side[i], &err, &saved) < 0) {
			fprintf(stderr, "%s: %s\n", prog, err.msg);
			status = lt_error_exit_status(err.code);
			goto out;
		}
	}
	if (lt_diff_make(side[0], argv[optind], side[1], argv[optind + 1],
			 scopes, &d, &err) < 0) {
		fprintf(stderr, "%s: %s\n", prog, err.msg);
		status = lt_error_exit_status(err.code);
		goto out;
	}
	d->all = all;
	for (i = 0; i < nfail; i++) {
		if (lt_diff_check(d, fail_on[i], &n, &err) < 0) {
			fprintf(stderr, "%s: %s\n", prog, err.msg);
			status = lt_error_exit_status(err.code);
			goto out;
		}
		crossed |= n > 0;
	}
	out = cli_output_open(prog, &o, output, argv + optind, 2, &status);
	if (!out)
		goto out;
	if (lt_diff_write(d, writer->format, out, &err) < 0) {
		fprintf(stderr, "%s: %s: %s\n", prog, output ? output : "stdout",
			err.msg);
		status = lt_error_exit_status(LT_E_IO);
	}
	status = cli_output_close(prog, &o, !status, status);
	/* the diff is written either way: CI shows it, then fails */
	if (!status && crossed) {
		if (!quiet)
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
			argv[optind + i], i ? "after" : "before");
		if (!status)
			status = lt_error_exit_status(LT_E_PARTIAL);
	}
	goto out;
usage:
	status = lt_error_exit_status(LT_E_USAGE);
out:
	lt_diff_free(d);
	lt_report_free(side[0]);
	lt_report_free(side[1]);
	cli_lists_free(&lists);
	return status;
}
