// SPDX-License-Identifier: GPL-2.0
/*
 * cli-args.c - option values shared by the executables (cli-args.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "cli-args.h"
#include "latencytop.h"

int cli_try_help(const char *prog)
{
	fprintf(stderr, "Try '%s --help' for more information.\n", prog);
	return lt_error_exit_status(LT_E_USAGE);
}

int cli_one_trace(const char *prog, int optind, int argc)
{
	if (optind == argc - 1)
		return 0;
	fprintf(stderr, "%s: %s\n", prog, optind >= argc ?
		"missing TRACE.dat argument" : "only one trace file at a time");
	return cli_try_help(prog);
}

int cli_bad_arg(const char *prog, const char *opt, const char *val,
		const char *what)
{
	fprintf(stderr, "%s: %s: invalid value '%s': %s\n", prog, opt, val, what);
	return cli_try_help(prog);
}

int cli_parse_window(const char *prog, const char *val, uint64_t *ns)
{
	if (lt_parse_duration(val, 1000000000ULL, ns) < 0 || !*ns)
		return cli_bad_arg(prog, "--window", val,
				   "expected a duration such as 30s or 500ms");
	return 0;
}

int cli_parse_threads(const char *prog, const char *val, unsigned int *n)
{
	unsigned long v;
	char *end;

	errno = 0;
	v = strtoul(val, &end, 10);
	if (errno || *end || end == val || val[0] == '-' || !v || v > 1024)
		return cli_bad_arg(prog, "--threads", val, "expected 1 to 1024");
	*n = (unsigned int)v;
	return 0;
}
