// SPDX-License-Identifier: GPL-2.0
/*
 * cli-output.c - the output file of latency-analyze and its subcommands
 * (cli-sub.h): written beside its path and renamed over it when complete
 * (lt-outfile.h), so a failed run leaves the old file as it was.
 */
#include <errno.h>
#include <string.h>
#include <sys/stat.h>

#include "cli-sub.h"

/* -o naming an input: refused, as a surprise more than a danger */
static bool same_file(const char *a, const char *b)
{
	struct stat sa, sb;

	return !stat(a, &sa) && !stat(b, &sb) && sa.st_dev == sb.st_dev &&
	       sa.st_ino == sb.st_ino;
}

FILE *cli_output_open(const char *prog, struct cli_output *o, const char *path,
		      char *const *inputs, int n, int *status)
{
	int i;

	memset(o, 0, sizeof(*o));
	o->file.fd = -1;
	o->path = path;
	if (!path || lt_outfile_is_stdout(path)) {
		o->path = NULL;
		return o->f = stdout;
	}
	for (i = 0; i < n; i++) {
		if (!same_file(path, inputs[i]))
			continue;
		fprintf(stderr, "%s: --output %s: that is a file being read\n",
			prog, path);
		*status = lt_error_exit_status(LT_E_USAGE);
		return NULL;
	}
	if (lt_outfile_fopen(&o->file, path, &o->f)) {
		fprintf(stderr, "%s: %s: cannot write: %s\n", prog, path,
			strerror(errno));
		*status = lt_error_exit_status(LT_E_IO);
		return o->f = NULL;
	}
	return o->f;
}

int cli_output_close(const char *prog, struct cli_output *o, bool complete,
		     int status)
{
	if (!o->path || !o->f)
		return status;
	if (!complete) {
		lt_outfile_abort(&o->file, o->f);
	} else if (lt_outfile_commit(&o->file, o->f) && !status) {
		fprintf(stderr, "%s: %s: write error: %s\n", prog, o->path,
			strerror(errno));
		status = lt_error_exit_status(LT_E_IO);
	}
	o->f = NULL;
	return status;
}
