/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cli-format.h - --format from the library's table of writers: the value
 * parsed, the help lines, and the warnings for options a format ignores.
 */
#ifndef CLI_FORMAT_H
#define CLI_FORMAT_H

#include <stdbool.h>
#include <stdio.h>

#include "cli-opts.h"
#include "latencytop.h"

/* A set of the writers' inputs: CLI_INPUT(LT_WRITE_REPORT) | ... */
#define CLI_INPUT(input)	(1u << (input))

/* --format's value: a writer of the inputs a command writes. */
struct cli_format {
	const struct lt_writer *writer;	/* the one chosen, else the default */
	unsigned int inputs;		/* CLI_INPUT()s */
	const char *dflt;		/* the default's name */
};

/* Before the options: the writer named @dflt among those of @inputs. */
void cli_format_init(struct cli_format *f, unsigned int inputs,
		     const char *dflt);

/*
 * -f, --format as an entry of a command's table (cli-opts.h), over a
 * struct cli_format *@f; @h is the line that the writers' names and
 * summaries follow in --help, and the completion offers their names.
 */
cli_opt_cb cli_opt_format;
void cli_format_help(FILE *out, const struct cli_opt *o);
void cli_format_words(FILE *out, const struct cli_opt *o);
#define CLI_OPT_FORMAT(f, h)						\
	CLI_CALLBACK('f', "format", (f), "FMT", h, cli_opt_format,	\
		     .help_fn = cli_format_help, .words_fn = cli_format_words)

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
