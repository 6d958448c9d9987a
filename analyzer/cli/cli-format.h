/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cli-format.h - --format from the library's table of writers: the value
 * parsed, the help lines, and the warnings for options a format ignores.
 */
#ifndef CLI_FORMAT_H
#define CLI_FORMAT_H

#include <stdbool.h>
#include <stdio.h>

#include "latencytop.h"

/* A set of the writers' inputs: CLI_INPUT(LT_WRITE_REPORT) | ... */
#define CLI_INPUT(input)	(1u << (input))

/*
 * --format @val among the writers of @inputs: 0 and *@w, or (said on
 * stderr, with the names the table has) the usage exit status.
 */
int cli_parse_format(const char *prog, unsigned int inputs, const char *val,
		     const struct lt_writer **w);
/*
 * "text, json, csv or folded": the writers of @inputs, into @buf.
 */
const char *cli_format_names(unsigned int inputs, char *buf, size_t size);
/*
 * --help's lines for the formats of @inputs, under an --format line;
 * a "(the default)" in a summary is kept only for the writer named @dflt.
 */
void cli_usage_formats(FILE *out, unsigned int inputs, const char *dflt);
/*
 * The options given (@given[LT_WOPT_*]) that writer @w ignores, each
 * warned about through @warn with the reason the table gives.
 */
void cli_warn_ignored(const struct lt_writer *w, const bool *given,
		      void (*warn)(const char *fmt, ...));

/*
 * Writer @w's output would go to a terminal (no @output, stdout is one)
 * and it writes bytes, not text: said on stderr, and true.
 */
bool cli_binary_to_terminal(const char *prog, const struct lt_writer *w,
			    const char *output);

#endif /* CLI_FORMAT_H */
