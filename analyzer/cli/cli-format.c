// SPDX-License-Identifier: GPL-2.0
/*
 * cli-format.c - --format from the writers table (cli-format.h).
 */
#include <string.h>
#include <unistd.h>

#include "cli-args.h"
#include "cli-format.h"

const char *cli_format_names(unsigned int inputs, char *buf, size_t size)
{
	const struct lt_writer *w;
	size_t i, n = 0, k = 0, len = 0;

	for (i = 0; (w = lt_writer_at(i)); i++)
		n += (inputs & CLI_INPUT(w->input)) != 0;
	buf[0] = '\0';
	for (i = 0; (w = lt_writer_at(i)) && len < size; i++) {
		if (!(inputs & CLI_INPUT(w->input)))
			continue;
		k++;
		len += snprintf(buf + len, size - len, "%s%s",
				k == 1 ? "" : k == n ? " or " : ", ", w->name);
	}
	return buf;
}

int cli_parse_format(const char *prog, unsigned int inputs, const char *val,
		     const struct lt_writer **w)
{
	char names[256], what[300];
	int i;

	for (i = 0; i < 32; i++)
		if ((inputs & (1u << i)) &&
		    (*w = lt_writer_find((enum lt_writer_input)i, val)))
			return 0;
	snprintf(what, sizeof(what), "expected %s",
		 cli_format_names(inputs, names, sizeof(names)));
	return cli_bad_arg(prog, "--format", val, what);
}

void cli_usage_formats(FILE *out, unsigned int inputs, const char *dflt)
{
	static const char mark[] = " (the default)";
	const struct lt_writer *w;
	size_t i, n;

	for (i = 0; (w = lt_writer_at(i)); i++) {
		if (!(inputs & CLI_INPUT(w->input)))
			continue;
		/* the table's default is latency-analyze's: not merge's */
		n = strlen(w->summary);
		if (n > sizeof(mark) - 1 && strcmp(w->name, dflt) &&
		    !strcmp(w->summary + n - (sizeof(mark) - 1), mark))
			n -= sizeof(mark) - 1;
		fprintf(out, "%25s%-12s %.*s\n", "", w->name, (int)n, w->summary);
	}
}

void cli_format_init(struct cli_format *f, unsigned int inputs,
		     const char *dflt)
{
	int i;

	f->writer = NULL;
	f->inputs = inputs;
	f->dflt = dflt;
	for (i = 0; i < 32 && !f->writer; i++)
		if (inputs & (1u << i))
			f->writer = lt_writer_find((enum lt_writer_input)i, dflt);
}

int cli_opt_format(const struct cli_cmd *cmd, const struct cli_opt *o,
		   const char *arg)
{
	struct cli_format *f = o->value;

	return cli_parse_format(cmd->prog, f->inputs, arg, &f->writer);
}

void cli_format_help(FILE *out, const struct cli_opt *o)
{
	const struct cli_format *f = o->value;

	cli_usage_formats(out, f->inputs, f->dflt);
}

void cli_format_words(FILE *out, const struct cli_opt *o)
{
	const struct cli_format *f = o->value;
	const struct lt_writer *w;
	size_t i, k = 0;

	for (i = 0; (w = lt_writer_at(i)); i++)
		if (f->inputs & CLI_INPUT(w->input))
			fprintf(out, "%s%s", k++ ? " " : "", w->name);
}

void cli_warn_ignored(const struct lt_writer *w, const bool *given,
		      void (*warn)(const char *fmt, ...))
{
	int o;

	for (o = 0; o < LT_WOPT_NR; o++)
		if (given[o] && w->ignores[o])
			warn("%s has no effect with --format=%s: %s",
			     lt_writer_opt_name(o), w->name, w->ignores[o]);
}

bool cli_binary_to_terminal(const char *prog, const struct lt_writer *w,
			    const char *output)
{
	if (!w->binary || (output && strcmp(output, "-")) ||
	    !isatty(STDOUT_FILENO))
		return false;
	fprintf(stderr, "%s: --format=%s writes binary data: not to a terminal "
		"(-o FILE, or redirect it)\n", prog, w->name);
	return true;
}
