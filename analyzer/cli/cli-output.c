// SPDX-License-Identifier: GPL-2.0
/*
 * cli-output.c - the output file of latency-analyze's subcommands
 * (cli-sub.h).
 */
#include <errno.h>
#include <string.h>
#include <sys/stat.h>

#include "cli-sub.h"

/* -o naming an input would truncate it before it is read. */
static bool same_file(const char *a, const char *b)
{
	struct stat sa, sb;

	return !stat(a, &sa) && !stat(b, &sb) && sa.st_dev == sb.st_dev &&
	       sa.st_ino == sb.st_ino;
}

FILE *cli_output_open(const char *prog, const char *path,
		      char *const *inputs, int n, int *status)
{
	FILE *out;
	int i;

	if (!path)
		return stdout;
	for (i = 0; i < n; i++) {
		if (!same_file(path, inputs[i]))
			continue;
		fprintf(stderr, "%s: --output %s: that is a file being read\n",
			prog, path);
		*status = lt_error_exit_status(LT_E_USAGE);
		return NULL;
	}
	out = fopen(path, "w");
	if (!out) {
		fprintf(stderr, "%s: %s: cannot write: %s\n", prog, path,
			strerror(errno));
		*status = lt_error_exit_status(LT_E_IO);
	}
	return out;
}

int cli_output_close(const char *prog, const char *path, FILE *out,
		     int status)
{
	if (!path || !out)
		return status;
	if (fclose(out) && !status) {
		fprintf(stderr, "%s: %s: write error: %s\n", prog, path,
			strerror(errno));
		status = lt_error_exit_status(LT_E_IO);
	}
	return status;
}
