// SPDX-License-Identifier: GPL-2.0
/*
 * cli-opts.c - a command's options from its table (cli-opts.h):
 * getopt_long()'s tables made from it, each option taken as its type
 * says, the options given only with another checked, --help's lines and
 * --completion-helper's list.
 */
#define _GNU_SOURCE	/* vasprintf */
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli-opts.h"
#include "latencytop.h"

/* getopt_long()'s value for entry i of a table that has no short name */
#define LONG_VAL(i)	(0x100 + (int)(i))

/* The parse goes on (else: an exit status). */
#define GO_ON		(-1)

int cli_try_help(const char *prog)
{
	fprintf(stderr, "Try '%s --help' for more information.\n", prog);
	return lt_error_exit_status(LT_E_USAGE);
}

int cli_bad_arg(const char *prog, const char *opt, const char *val,
		const char *what)
{
	fprintf(stderr, "%s: %s: invalid value '%s': %s\n", prog, opt, val, what);
	return cli_try_help(prog);
}

static int say(const struct cli_cmd *cmd, const char *msg)
{
	if (cmd->usage_error)
		return cmd->usage_error(cmd, msg);
	fprintf(stderr, "%s: %s\n", cmd->prog, msg);
	return cli_try_help(cmd->prog);
}

int cli_usage_errorf(const struct cli_cmd *cmd, const char *fmt, ...)
{
	va_list ap;
	char *msg;
	int ret;

	va_start(ap, fmt);
	ret = vasprintf(&msg, fmt, ap);
	va_end(ap);
	if (ret < 0) {
		fprintf(stderr, "%s: out of memory\n", cmd->prog);
		return lt_error_exit_status(LT_E_NOMEM);
	}
	ret = say(cmd, msg);
	free(msg);
	return ret;
}

int cli_bad_value(const struct cli_cmd *cmd, const char *opt, const char *val,
		  const char *what)
{
	return cli_usage_errorf(cmd, "%s: invalid value '%s': %s", opt, val, what);
}

static bool is_option(const struct cli_opt *o)
{
	return o->type != CLI_OPT_END && o->type != CLI_OPT_GROUP &&
	       o->type != CLI_OPT_TEXT;
}

static size_t count(const struct cli_opt *opts)
{
	size_t n = 0;

	while (opts[n].type != CLI_OPT_END)
		n++;
	return n;
}

/* The entry getopt_long() returned @c for, or NULL. */
static const struct cli_opt *entry(const struct cli_opt *opts, size_t n, int c)
{
	size_t i;

	if (c >= LONG_VAL(0) && c < LONG_VAL(n))
		return &opts[c - LONG_VAL(0)];
	for (i = 0; i < n; i++)
		if (is_option(&opts[i]) && opts[i].short_name == c)
			return &opts[i];
	return NULL;
}

/* "--name" (or "-n") of @o, for messages. */
static const char *dashed(const struct cli_opt *o, char *buf, size_t size)
{
	if (o->long_name)
		snprintf(buf, size, "--%s", o->long_name);
	else
		snprintf(buf, size, "-%c", o->short_name);
	return buf;
}

/* A whole number from o->min to o->max, as strtoul() reads it, no sign. */
static int take_uint(const struct cli_cmd *cmd, const struct cli_opt *o,
		     const char *arg)
{
	const char *p = arg;
	unsigned long v;
	char name[80], *end;

	while (isspace((unsigned char)*p))
		p++;
	errno = 0;
	v = strtoul(arg, &end, 10);
	if (*p == '-' || errno || end == arg || *end || v < o->min ||
	    v > o->max)
		return cli_bad_value(cmd, dashed(o, name, sizeof(name)), arg,
				     o->what);
	*(unsigned int *)o->value = (unsigned int)v;
	return GO_ON;
}

/* Option @o given with @arg: GO_ON, or the exit status. */
static int take(const struct cli_cmd *cmd, const struct cli_opt *o,
		const char *arg)
{
	int ret;

	switch (o->type) {
	case CLI_OPT_BOOL:
		*(bool *)o->value = o->defval != 0;
		return GO_ON;
	case CLI_OPT_UINT:
		return take_uint(cmd, o, arg);
	case CLI_OPT_STRING:
		*(const char **)o->value = arg;
		return GO_ON;
	case CLI_OPT_CALLBACK:
		ret = o->cb(cmd, o, arg);
		return ret || (o->flags & CLI_OPT_EXIT) ? ret : GO_ON;
	case CLI_OPT_HELP:
		cmd->usage(stdout, cmd);
		return 0;
	case CLI_OPT_VERSION:
		printf("%s %s\n", cmd->prog, LT_VERSION_STRING);
		return 0;
	default:
		break;
	}
	fprintf(stderr, "%s: internal error: option entry of type %d\n",
		cmd->prog, (int)o->type);
	return lt_error_exit_status(LT_E_INTERNAL);
}

/*
 * What getopt_long() refused (@c '?' unknown, ':' no value), in the
 * command's words: the option as given, "-x" when it was a short one.
 */
static int bad_option(const struct cli_cmd *cmd, char **argv, int c)
{
	const char *arg = argv[optind - 1];

	if (!cmd->usage_error)
		return cli_try_help(cmd->prog);	/* getopt said it */
	if (optopt && (!arg || strncmp(arg, "--", 2)))
		return cli_usage_errorf(cmd, c == ':' ? "option '-%c' needs a value" :
					"unknown option '-%c'", optopt);
	return cli_usage_errorf(cmd, c == ':' ? "option '%s' needs a value" :
				"unknown option '%s'", arg ? arg : "?");
}

/*
 * Of the options given (@seen[i]: the order entry i was last given in, 0
 * not given) whose other option was not, the last: said.
 */
static int check_needs(const struct cli_cmd *cmd, size_t n, const int *seen)
{
	const struct cli_opt *o = cmd->opts, *bad = NULL;
	size_t i, j;
	int last = 0;

	for (i = 0; i < n; i++) {
		if (!seen[i] || !o[i].needs || seen[i] < last)
			continue;
		for (j = 0; j < n; j++)
			if (is_option(&o[j]) && o[j].long_name &&
			    !strcmp(o[j].long_name, o[i].needs->name))
				break;
		if (j < n && seen[j])
			continue;
		bad = &o[i];
		last = seen[i];
	}
	if (!bad)
		return GO_ON;
	return cli_usage_errorf(cmd, "--%s is for --%s: %s", bad->long_name,
				bad->needs->name, bad->needs->why);
}

int cli_parse(const struct cli_cmd *cmd, int argc, char **argv, int *first)
{
	const struct cli_sub *sub;
	const struct cli_opt *o;
	struct option *longs;
	size_t i, n = count(cmd->opts), nl = 0, ns = 0;
	char *shorts;
	int *seen, c, ret = GO_ON, order = 0;

	/* a trace called "merge" is ./merge */
	for (sub = cmd->subs; argc > 1 && sub && sub->name; sub++)
		if (sub->main && !strcmp(argv[1], sub->name))
			return sub->main(sub->prog, argc - 1, argv + 1);
	if (argc == 2 && !strcmp(argv[1], "--completion-helper")) {
		cli_opts_complete(stdout, cmd);
		return fflush(stdout) ? lt_error_exit_status(LT_E_IO) : 0;
	}

	longs = calloc(n + 1, sizeof(*longs));
	shorts = malloc(3 * n + 3);
	seen = calloc(n + 1, sizeof(*seen));
	if (!longs || !shorts || !seen) {
		fprintf(stderr, "%s: out of memory\n", cmd->prog);
		ret = lt_error_exit_status(LT_E_NOMEM);
		goto out;
	}
	if (cmd->flags & CLI_CMD_STOP_AT_OPERAND)
		shorts[ns++] = '+';
	if (cmd->usage_error)
		shorts[ns++] = ':';	/* a missing value apart from an unknown option */
	for (i = 0; i < n; i++) {
		o = &cmd->opts[i];
		if (!is_option(o))
			continue;
		if (o->short_name) {
			shorts[ns++] = (char)o->short_name;
			if (o->argh)
				shorts[ns++] = ':';
			if (o->argh && (o->flags & CLI_OPT_OPTARG))
				shorts[ns++] = ':';
		}
		if (!o->long_name)
			continue;
		longs[nl].name = o->long_name;
		longs[nl].has_arg = !o->argh ? no_argument :
				    o->flags & CLI_OPT_OPTARG ? optional_argument :
				    required_argument;
		longs[nl].val = o->short_name ? o->short_name : LONG_VAL(i);
		nl++;
	}
	shorts[ns] = '\0';

	/* getopt's own messages name argv[0]: the command, not the path */
	if (!cmd->usage_error)
		argv[0] = (char *)cmd->prog;
	opterr = !cmd->usage_error;
	optind = 0;	/* from the start, whatever was parsed before */
	while ((c = getopt_long(argc, argv, shorts, longs, NULL)) != -1) {
		if (c == '?' || c == ':') {
			ret = bad_option(cmd, argv, c);
			goto out;
		}
		o = entry(cmd->opts, n, c);
		if (!o) {
			fprintf(stderr, "%s: internal error: getopt returned %d\n",
				cmd->prog, c);
			ret = lt_error_exit_status(LT_E_INTERNAL);
			goto out;
		}
		seen[o - cmd->opts] = ++order;
		ret = take(cmd, o, optarg);
		if (ret != GO_ON)
			goto out;
	}
	ret = check_needs(cmd, n, seen);
	*first = optind;
out:
	free(longs);
	free(shorts);
	free(seen);
	return ret;
}

/* --help: "  -f, --format=FMT" (or "      --stacks"); its width. */
static int print_names(FILE *out, const struct cli_cmd *cmd,
		       const struct cli_opt *o)
{
	int n = fprintf(out, "  ");

	if (o->short_name)
		n += fprintf(out, "-%c%s", o->short_name, o->long_name ? ", " : "");
	else if (!(cmd->flags & CLI_CMD_NO_SHORT_COLUMN))
		n += fprintf(out, "    ");
	if (o->long_name)
		n += fprintf(out, "--%s", o->long_name);
	if (o->argh)
		n += fprintf(out, o->flags & CLI_OPT_OPTARG ? "[%s%s]" : "%s%s",
			     o->long_name ? "=" : " ", o->argh);
	return n;
}

void cli_opts_help(FILE *out, const struct cli_cmd *cmd)
{
	int col = cmd->help_col ? cmd->help_col : CLI_HELP_COL;
	const struct cli_opt *o;
	const char *p, *nl;
	int n;

	for (o = cmd->opts; o->type != CLI_OPT_END; o++) {
		if (o->flags & CLI_OPT_HIDDEN)
			continue;
		if (o->type == CLI_OPT_GROUP) {
			fprintf(out, "\n%s%s", o->help ? o->help : "",
				o->help && *o->help ? "\n" : "");
			continue;
		}
		if (o->type == CLI_OPT_TEXT) {
			fprintf(out, "%s\n", o->help);
			continue;
		}
		n = print_names(out, cmd, o);
		/* the first line after the names, the others under it */
		for (p = o->help ? o->help : ""; ; p = nl + 1) {
			nl = strchr(p, '\n');
			if (p == o->help || !o->help)
				fprintf(out, "%*s", n < col ? col - n : 2, "");
			else
				fprintf(out, "%*s", col, "");
			fprintf(out, "%.*s\n", nl ? (int)(nl - p) : (int)strlen(p), p);
			if (!nl)
				break;
		}
		if (o->help_fn)
			o->help_fn(out, o);
	}
}

void cli_opts_complete(FILE *out, const struct cli_cmd *cmd)
{
	const struct cli_sub *sub;
	const struct cli_opt *o;
	const char *kind;

	for (o = cmd->opts; o->type != CLI_OPT_END; o++) {
		if (!is_option(o) || !o->long_name || (o->flags & CLI_OPT_HIDDEN))
			continue;
		kind = !o->argh ? "flag" : o->flags & CLI_OPT_FILE ? "file" :
		       o->words || o->words_fn ? "word" : "value";
		fprintf(out, "--%s -", o->long_name);
		if (o->short_name)
			fputc(o->short_name, out);
		fprintf(out, " %s%s", kind,
			o->argh && (o->flags & CLI_OPT_OPTARG) ? "?" : "");
		if (o->words)
			fprintf(out, " %s", o->words);
		if (o->words_fn) {
			fputc(' ', out);
			o->words_fn(out, o);
		}
		fputc('\n', out);
	}
	for (sub = cmd->subs; sub && sub->name; sub++)
		fprintf(out, "%s - sub\n", sub->name);
}
