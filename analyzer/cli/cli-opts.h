/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cli-opts.h - a command's options in one table, in the manner of git's
 * and perf's parse-options.  The table parses the command line, prints
 * the option lines of --help, answers --completion-helper (the list the
 * bash completion reads) and is what the man pages are checked against
 * (tests/analyzer/test-man-options.py).
 *
 * Each command builds its table where it parses, over the variables its
 * options set, and hands it to cli_parse() in a struct cli_cmd:
 *
 *	struct cli_opt opts[] = {
 *		CLI_GROUP("Output:"),
 *		CLI_STRING('o', "output", &output, "FILE",
 *			   "write the report to FILE instead of stdout",
 *			   .flags = CLI_OPT_FILE),
 *		CLI_BOOL('t', "per-thread", &per_thread,
 *			 "a section per thread under each process (text)"),
 *		CLI_HELP("this help"),
 *		CLI_END()
 *	};
 *	struct cli_cmd cmd = { .prog = "latency-analyze", .opts = opts,
 *			       .usage = usage };
 *
 *	ret = cli_parse(&cmd, argc, argv, &first);
 *	if (ret >= 0)
 *		return ret;	(--help, or a refusal said on stderr)
 *
 * The options the programs share come as macros that expand to entries
 * (cli-args.h: the analysis; cli-live.h: --live's; cli-format.h:
 * --format).  getopt_long() parses underneath: long options may be
 * abbreviated, short ones bundled, and its messages are the default
 * ones; a command that words its refusals its own way gives usage_error.
 *
 * --help: each entry's names, then its help from column 25 (help_col),
 * the lines after its first ('\n' splits them) under it; names that reach
 * that column are followed by two blanks.  Groups and text lines are
 * printed in their place; hidden options are not.
 *
 * --completion-helper, alone on the command line (as git's
 * --git-completion-helper), prints a line per option that --help shows,
 * then one per subcommand:
 *
 *	--format -f word text json csv folded
 *	--output -o file
 *	--trans - file trans
 *	--window -w value
 *	--per-thread -t flag
 *	--kernel-stacks - word? switch all off
 *	merge - sub
 *
 * the long name, the short one (or -), and what follows it: nothing
 * (flag), a value to type (value), a file (file, then the extension
 * completed), one of the words listed (word); '?' when the value may be
 * left out (then only --opt=VALUE gives one).
 */
#ifndef CLI_OPTS_H
#define CLI_OPTS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

enum cli_opt_type {
	CLI_OPT_END,
	CLI_OPT_GROUP,		/* --help: a blank line, then help (if any) */
	CLI_OPT_TEXT,		/* --help: help's lines, as they are */
	CLI_OPT_BOOL,		/* *(bool *)value = defval */
	CLI_OPT_UINT,		/* *(unsigned int *)value, from min to max */
	CLI_OPT_STRING,		/* *(const char **)value = the value */
	CLI_OPT_CALLBACK,	/* cb(cmd, opt, the value or NULL) */
	CLI_OPT_HELP,		/* the command's usage on stdout, exit 0 */
	CLI_OPT_VERSION,	/* "PROG VERSION" on stdout, exit 0 */
};

/* struct cli_opt's flags */
#define CLI_OPT_OPTARG	(1u << 0)	/* the value may be left out: --opt[=V] */
#define CLI_OPT_HIDDEN	(1u << 1)	/* taken, but not in --help, completion or the man page */
#define CLI_OPT_EXIT	(1u << 2)	/* a callback that ends the parse: its return is the exit status */
#define CLI_OPT_FILE	(1u << 3)	/* the value names a file (words: its extension) */

struct cli_cmd;
struct cli_opt;

/*
 * An option given only with another: --duration without --live is
 * refused with "--duration is for --live: WHY".
 */
struct cli_needs {
	const char *name;	/* the other option's long name */
	const char *why;
};

/*
 * A callback's value is NULL for an option without one.  It returns 0 to
 * go on, or the exit status of a refusal it said (cli_bad_value()); one
 * flagged CLI_OPT_EXIT returns the exit status in any case.
 */
typedef int cli_opt_cb(const struct cli_cmd *cmd, const struct cli_opt *opt,
		       const char *arg);

struct cli_opt {
	enum cli_opt_type type;
	int short_name;			/* 'f', or 0 */
	const char *long_name;		/* "format" */
	void *value;			/* what it sets (a callback's: its own) */
	const char *argh;		/* the value's name in --help; NULL: none */
	const char *help;		/* --help's lines, split at '\n' */
	unsigned int flags;		/* CLI_OPT_* */
	intptr_t defval;		/* BOOL: the value set; else the callback's */
	unsigned int min, max;		/* UINT: the values taken */
	const char *what;		/* UINT: said of a value refused */
	cli_opt_cb *cb;
	const struct cli_needs *needs;	/* given only with this other option */
	/* completion: the words it takes, blank separated (FILE: the extension) */
	const char *words;
	/* ... or printed by words_fn; more --help lines after its own */
	void (*words_fn)(FILE *out, const struct cli_opt *opt);
	void (*help_fn)(FILE *out, const struct cli_opt *opt);
};

/*
 * The entries.  What follows the fixed arguments are more fields:
 * CLI_BOOL('k', "kernel-threads", &k, "...", .flags = CLI_OPT_HIDDEN).
 */
#define CLI_END()	{ .type = CLI_OPT_END }
#define CLI_GROUP(h)	{ .type = CLI_OPT_GROUP, .help = (h) }
#define CLI_TEXT(h)	{ .type = CLI_OPT_TEXT, .help = (h) }
#define CLI_BOOL(s, l, v, h, ...)					\
	{ .type = CLI_OPT_BOOL, .short_name = (s), .long_name = (l),	\
	  .value = (v), .help = (h), .defval = 1, __VA_ARGS__ }
/* sets *v to val: false for a --no-... that turns off what is on */
#define CLI_BOOL_SET(s, l, v, val, h, ...)				\
	{ .type = CLI_OPT_BOOL, .short_name = (s), .long_name = (l),	\
	  .value = (v), .help = (h), .defval = (val), __VA_ARGS__ }
#define CLI_STRING(s, l, v, a, h, ...)					\
	{ .type = CLI_OPT_STRING, .short_name = (s), .long_name = (l),	\
	  .value = (v), .argh = (a), .help = (h), __VA_ARGS__ }
/* a whole number from lo to hi, or "--l: invalid value 'x': what" */
#define CLI_UINT(s, l, v, a, lo, hi, w, h, ...)				\
	{ .type = CLI_OPT_UINT, .short_name = (s), .long_name = (l),	\
	  .value = (v), .argh = (a), .help = (h), .min = (lo),		\
	  .max = (hi), .what = (w), __VA_ARGS__ }
/* a: the value's name, NULL for an option without one */
#define CLI_CALLBACK(s, l, v, a, h, f, ...)				\
	{ .type = CLI_OPT_CALLBACK, .short_name = (s), .long_name = (l),	\
	  .value = (v), .argh = (a), .help = (h), .cb = (f), __VA_ARGS__ }
#define CLI_HELP(h)							\
	{ .type = CLI_OPT_HELP, .short_name = 'h', .long_name = "help",	\
	  .help = (h) }
#define CLI_VERSION(h)							\
	{ .type = CLI_OPT_VERSION, .short_name = 'V',			\
	  .long_name = "version", .help = (h) }

/*
 * latency-analyze's subcommands, latency-record's commands; one without
 * a main() is a word the command reads itself (probes' install), which
 * only the completion lists.
 */
struct cli_sub {
	const char *name;	/* "merge" */
	const char *prog;	/* what its messages start with: "latency-analyze merge" */
	const char *args;	/* "FILE..." (for the usage) */
	const char *summary;
	int (*main)(const char *prog, int argc, char **argv);
};

/* struct cli_cmd's flags */
#define CLI_CMD_STOP_AT_OPERAND	(1u << 0)	/* options end at the first operand */
#define CLI_CMD_NO_SHORT_COLUMN	(1u << 1)	/* --help: no room for a short name before a long one */

#define CLI_HELP_COL	25

struct cli_cmd {
	const char *prog;		/* messages start with it */
	const struct cli_opt *opts;	/* ended by CLI_END() */
	const struct cli_sub *subs;	/* its subcommands, ended by a NULL name */
	/* --help: the usage, which prints the option lines with cli_opts_help() */
	void (*usage)(FILE *out, const struct cli_cmd *cmd);
	unsigned int flags;		/* CLI_CMD_* */
	int help_col;			/* where --help's texts start (0: CLI_HELP_COL) */
	/*
	 * A refusal, said as @msg and the exit status it returns.  NULL:
	 * "PROG: MSG" and "Try 'PROG --help' ...", and getopt's own words for
	 * an unknown option or a missing value; else those are said through
	 * it too ("unknown option '--x'", "option '-o' needs a value").
	 */
	int (*usage_error)(const struct cli_cmd *cmd, const char *msg);
};

/*
 * Parse @argv (@argv[0] the command's name) by @cmd's table.  A first
 * argument that names one of @cmd's subcommands runs it instead.
 * Returns -1 to go on, with *@first the index of the first operand; else
 * the exit status to leave with: 0 after --help, --version,
 * --completion-helper, a subcommand that succeeded or a CLI_OPT_EXIT
 * callback's 0; that of a refusal, said on stderr.
 */
int cli_parse(const struct cli_cmd *cmd, int argc, char **argv, int *first);

/* The table's lines of --help (groups, text, options), in its order. */
void cli_opts_help(FILE *out, const struct cli_cmd *cmd);
/* --completion-helper's lines (above). */
void cli_opts_complete(FILE *out, const struct cli_cmd *cmd);

/*
 * "@opt: invalid value '@val': @what", said as @cmd says refusals; the
 * exit status.
 */
int cli_bad_value(const struct cli_cmd *cmd, const char *opt, const char *val,
		  const char *what);
/* A refusal in @cmd's words ("PROG: MSG" ...): the exit status. */
int cli_usage_errorf(const struct cli_cmd *cmd, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* "Try 'PROG --help'..."; returns the usage exit status. */
int cli_try_help(const char *prog);
/* "PROG: @opt: invalid value '@val': @what", then cli_try_help(). */
int cli_bad_arg(const char *prog, const char *opt, const char *val,
		const char *what);

#endif /* CLI_OPTS_H */
