/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cli-sub.h - latency-analyze's subcommands (merge, diff), and the output
 * file that every one of them writes the same way.
 */
#ifndef CLI_SUB_H
#define CLI_SUB_H

#include <stdbool.h>
#include <stdio.h>

#include "latencytop.h"
#include "lt-outfile.h"

/*
 * A subcommand's main(): @argv[0] is its name, @prog what messages start
 * with ("latency-analyze merge").  Returns the exit status.
 */
int cli_merge_main(const char *prog, int argc, char **argv);
int cli_diff_main(const char *prog, int argc, char **argv);
/*
 * latency-analyze --format=waits(-jsonl): the waits of the trace at @path
 * written by @w to @output (NULL: stdout), their stacks to @stacks (NULL:
 * none); @opts are the analysis options.  Returns the exit status.
 */
int cli_waits_main(const char *prog, const struct lt_writer *w,
		   const char *path, const char *output, const char *stacks,
		   struct lt_options *opts, bool progress, bool quiet);

/* -o FILE: a temporary beside it until complete (lt-outfile.h) */
struct cli_output {
	const char *path;	/* NULL: standard output */
	struct lt_outfile file;
	FILE *f;
};

/*
 * -o @path (NULL or "-": stdout), never one of the @n files being read,
 * into @o: the stream, or NULL with the reason said and *@status set.
 */
FILE *cli_output_open(const char *prog, struct cli_output *o, const char *path,
		      char *const *inputs, int n, int *status);
/*
 * Put the output in place if @complete, else leave the old file as it
 * was: @status, or the I/O exit status (said) if writing failed and
 * nothing else had.
 */
int cli_output_close(const char *prog, struct cli_output *o, bool complete,
		     int status);

#endif /* CLI_SUB_H */
