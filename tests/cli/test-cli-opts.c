// SPDX-License-Identifier: GPL-2.0
/*
 * test-cli-opts - the options tables (analyzer/cli/cli-opts.h): a table
 * of every type, and a script of command lines with what each sets, the
 * status it leaves with and the exact words on stdout and stderr; then
 * --help's layout and --completion-helper's list from the same table.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli-opts.h"
#include "lt-test.h"

/* What the test table's options set. */
static struct vals {
	bool flag, on, live;
	const char *out, *save;
	unsigned int n;
	int cb_calls;
	const char *cb_arg;
} v;

static int cb_seen(const struct cli_cmd *cmd, const struct cli_opt *o,
		   const char *arg)
{
	struct vals *x = o->value;

	x->cb_calls++;
	x->cb_arg = arg;
	if (arg && !strcmp(arg, "bad"))
		return cli_bad_value(cmd, "--call-me-twelve", arg, "not that");
	return 0;
}

static int cb_exit(const struct cli_cmd *cmd, const struct cli_opt *o,
		   const char *arg)
{
	printf("exiting\n");
	return (int)o->defval;
}

static void usage(FILE *out, const struct cli_cmd *cmd)
{
	fprintf(out, "Usage: %s [OPTION]...\n", cmd->prog);
	cli_opts_help(out, cmd);
}

static int sub_main(const char *prog, int argc, char **argv)
{
	printf("%s: %d %s\n", prog, argc, argv[0]);
	return 3;
}

static const struct cli_sub subs[] = {
	{ "sub", "t sub", "FILE", "a subcommand", sub_main },
	{ NULL }
};

static const struct cli_needs needs_live = { "live", "not now" };

static void words(FILE *out, const struct cli_opt *o)
{
	fputs("x y", out);
}

static void more_help(FILE *out, const struct cli_opt *o)
{
	fprintf(out, "%25s(more)\n", "");
}

static const struct cli_opt opts[] = {
	CLI_GROUP("Output:"),
	CLI_BOOL('k', "flag", &v.flag, "a flag"),
	CLI_BOOL_SET(0, "no-on", &v.on, false, "turns on off"),
	CLI_STRING('o', "output", &v.out, "FILE", "a file,\nsaid on two lines",
		   .flags = CLI_OPT_FILE, .words = "dat"),
	CLI_UINT('n', "number", &v.n, "N", 2, 100, "expected 2 to 100",
		 "a number", .words = "2 3"),
	CLI_CALLBACK(0, "call-me-twelve", &v, "V", "a name exactly twenty-four", cb_seen,
		     .words_fn = words, .help_fn = more_help),
	CLI_CALLBACK(0, "opt-value-long", &v, "HOW", "long: two blanks", cb_seen,
		     .flags = CLI_OPT_OPTARG),
	CLI_CALLBACK(0, "exit", NULL, NULL, "exits 0", cb_exit,
		     .flags = CLI_OPT_EXIT),
	CLI_CALLBACK(0, "exit4", NULL, NULL, "exits 4", cb_exit,
		     .flags = CLI_OPT_EXIT, .defval = 4),
	CLI_GROUP(""),
	CLI_TEXT("Live:"),
	CLI_BOOL(0, "live", &v.live, "live"),
	CLI_STRING(0, "save", &v.save, "FILE", "with --live",
		   .needs = &needs_live),
	CLI_BOOL('S', "stats", &v.flag, "with --live", .needs = &needs_live),
	CLI_BOOL(0, "hidden", &v.flag, "never shown", .flags = CLI_OPT_HIDDEN),
	CLI_HELP("this help"),
	CLI_VERSION("version"),
	CLI_END()
};

/* latency-record's way: its own words for every refusal */
static int own_error(const struct cli_cmd *cmd, const char *msg)
{
	fprintf(stderr, "%s: %s (see %s --help)\n", cmd->prog, msg, cmd->prog);
	return 7;
}

static const struct cli_cmd cmd = {
	.prog = "t", .opts = opts, .subs = subs, .usage = usage,
};
static const struct cli_cmd own = {
	.prog = "t", .opts = opts, .usage = usage, .usage_error = own_error,
	.flags = CLI_CMD_STOP_AT_OPERAND,
};

/* A file's text, into @buf. */
static void slurp(FILE *f, char *buf, size_t size)
{
	size_t n;

	rewind(f);
	n = fread(buf, 1, size - 1, f);
	buf[n] = '\0';
	fclose(f);
}

/*
 * Parse @line (words split at blanks, argv[0] "t") by @c, stdout and
 * stderr caught in @out and @err: the status, *@first, and the operands
 * after the parse (getopt moves them to the end) in @rest.
 */
static int parse(const struct cli_cmd *c, const char *line, int *first,
		 char *out, char *err, char *rest)
{
	char buf[512], *argv[32], *w;
	FILE *fo = tmpfile(), *fe = tmpfile();
	int argc = 0, so, se, ret, i;

	snprintf(buf, sizeof(buf), "t %s", line);
	for (w = strtok(buf, " "); w && argc < 31; w = strtok(NULL, " "))
		argv[argc++] = strcmp(w, "''") ? w : (char *)"";
	argv[argc] = NULL;
	memset(&v, 0, sizeof(v));
	v.on = true;
	*first = -7;
	fflush(stdout);
	fflush(stderr);
	so = dup(1);
	se = dup(2);
	dup2(fileno(fo), 1);
	dup2(fileno(fe), 2);
	ret = cli_parse(c, argc, argv, first);
	fflush(stdout);
	fflush(stderr);
	dup2(so, 1);
	dup2(se, 2);
	close(so);
	close(se);
	slurp(fo, out, 4096);
	slurp(fe, err, 4096);
	rest[0] = '\0';
	for (i = *first; ret < 0 && i >= 1 && i < argc; i++) {
		strcat(rest, i > *first ? " " : "");
		strcat(rest, argv[i]);
	}
	return ret;
}

/* One command line, what it leaves in v, and its words. */
static const struct {
	bool own;		/* parsed by `own', else by `cmd' */
	const char *line;
	int status;		/* -1: goes on */
	const char *rest;	/* the operands (status -1) */
	const char *out, *err;	/* exact; NULL: not checked */
	bool flag, on, live;
	const char *outv;
	unsigned int n;
	int cb_calls;
	const char *cb_arg;
} cases[] = {
	/* types */
	{ false, "-k", -1, "", "", "", .flag = true, .on = true },
	{ false, "--flag --no-on a b", -1, "a b", "", "", .flag = true },
	{ false, "a --fl b", -1, "a b", "", "", .flag = true, .on = true },
	{ false, "-o x -n 5", -1, "", "", "", .on = true, .outv = "x", .n = 5 },
	{ false, "-ox -n5 -kS --live", -1, "", "", "", .flag = true, .on = true,
	  .live = true, .outv = "x", .n = 5 },
	{ false, "--output=y --number 100", -1, "", "", "", .on = true,
	  .outv = "y", .n = 100 },
	{ false, "-n +7", -1, "", "", "", .on = true, .n = 7 },
	{ false, "-n 1", 1, NULL, "",
	  "t: --number: invalid value '1': expected 2 to 100\n"
	  "Try 't --help' for more information.\n", .on = true },
	{ false, "-n 101", 1, NULL, "", NULL, .on = true },
	{ false, "-n -3", 1, NULL, "", NULL, .on = true },
	/* strtoul() takes it as 5: a sign is refused */
	{ false, "-n -18446744073709551611", 1, NULL, "", NULL, .on = true },
	{ false, "-n 5x", 1, NULL, "", NULL, .on = true },
	{ false, "-n ''", 1, NULL, "",
	  "t: --number: invalid value '': expected 2 to 100\n"
	  "Try 't --help' for more information.\n", .on = true },
	{ false, "-n 99999999999999999999", 1, NULL, "", NULL, .on = true },
	{ false, "--call-me-twelve=a --call-me b", -1, "", "", "", .on = true, .cb_calls = 2,
	  .cb_arg = "b" },
	{ false, "--opt-value-long --opt-value-long=c", -1, "", "", "", .on = true,
	  .cb_calls = 2, .cb_arg = "c" },
	{ false, "--opt-value-long c", -1, "c", "", "", .on = true, .cb_calls = 1 },
	{ false, "--call-me-twelve bad -k", 1, NULL, "",
	  "t: --call-me-twelve: invalid value 'bad': not that\n"
	  "Try 't --help' for more information.\n", .on = true, .cb_calls = 1,
	  .cb_arg = "bad" },
	/* a callback that ends the parse, there and then */
	{ false, "--exit --bogus", 0, NULL, "exiting\n", "", .on = true },
	{ false, "-k --exit4 -n 1", 4, NULL, "exiting\n", "", .flag = true,
	  .on = true },
	{ false, "--hidden", -1, "", "", "", .flag = true, .on = true },
	{ false, "--version -k", 0, NULL, "t 0.1.0\n", "", .on = true },
	{ false, "-h --bogus", 0, NULL, NULL, "", .on = true },
	/* getopt's words, then where help is */
	{ false, "--bogus", 1, NULL, "",
	  "t: unrecognized option '--bogus'\n"
	  "Try 't --help' for more information.\n", .on = true },
	{ false, "-o", 1, NULL, "",
	  "t: option requires an argument -- 'o'\n"
	  "Try 't --help' for more information.\n", .on = true },
	/* options only with another: the last one given is named */
	{ false, "--save x -S", 1, NULL, "",
	  "t: --stats is for --live: not now\n"
	  "Try 't --help' for more information.\n", .flag = true, .on = true },
	{ false, "-S --save x", 1, NULL, "",
	  "t: --save is for --live: not now\n"
	  "Try 't --help' for more information.\n", .flag = true, .on = true },
	{ false, "-S --save x --live", -1, "", "", "", .flag = true, .on = true,
	  .live = true },
	/* the first argument, a subcommand; elsewhere an operand */
	{ false, "sub -k x", 3, NULL, "t sub: 3 sub\n", "", .on = true },
	{ false, "-k sub", -1, "sub", "", "", .flag = true, .on = true },
	/* a command's own words; the options end at the first operand */
	{ true, "--bogus", 7, NULL, "",
	  "t: unknown option '--bogus' (see t --help)\n", .on = true },
	{ true, "--bogus=3", 7, NULL, "",
	  "t: unknown option '--bogus=3' (see t --help)\n", .on = true },
	{ true, "-kZ", 7, NULL, "", "t: unknown option '-Z' (see t --help)\n",
	  .flag = true, .on = true },
	{ true, "-o", 7, NULL, "", "t: option '-o' needs a value (see t --help)\n",
	  .on = true },
	{ true, "--output", 7, NULL, "",
	  "t: option '--output' needs a value (see t --help)\n", .on = true },
	{ true, "-n 1", 7, NULL, "",
	  "t: --number: invalid value '1': expected 2 to 100 (see t --help)\n",
	  .on = true },
	{ true, "-S", 7, NULL, "", "t: --stats is for --live: not now (see t --help)\n",
	  .flag = true, .on = true },
	{ true, "-k cmd -n 5", -1, "cmd -n 5", "", "", .flag = true, .on = true },
	{ true, "sub", -1, "sub", "", "", .on = true },
	/* the completion's list, alone on the line only */
	{ false, "--completion-helper",	0, NULL,
	  "--flag -k flag\n"
	  "--no-on - flag\n"
	  "--output -o file dat\n"
	  "--number -n word 2 3\n"
	  "--call-me-twelve - word x y\n"
	  "--opt-value-long - value?\n"
	  "--exit - flag\n"
	  "--exit4 - flag\n"
	  "--live - flag\n"
	  "--save - value\n"
	  "--stats -S flag\n"
	  "--help -h flag\n"
	  "--version -V flag\n"
	  "sub - sub\n", "", .on = true },
	{ false, "-k --completion-helper", 1, NULL, "", NULL, .flag = true,
	  .on = true },
};

static const char help[] =
"Usage: t [OPTION]...\n"
"\n"
"Output:\n"
"  -k, --flag             a flag\n"
"      --no-on            turns on off\n"
"  -o, --output=FILE      a file,\n"
"                         said on two lines\n"
"  -n, --number=N         a number\n"
"      --call-me-twelve=V a name exactly twenty-four\n"
"                         (more)\n"
"      --opt-value-long[=HOW]  long: two blanks\n"
"      --exit             exits 0\n"
"      --exit4            exits 4\n"
"\n"
"Live:\n"
"      --live             live\n"
"      --save=FILE        with --live\n"
"  -S, --stats            with --live\n"
"  -h, --help             this help\n"
"  -V, --version          version\n";

/* the help of a command whose options have no room for short names */
static const struct cli_opt compact_opts[] = {
	CLI_STRING(0, "groups", &v.out, "LIST", "install only these groups\n"
		   "(comma separated)"),
	CLI_BOOL(0, "a-name-of-eighteen", &v.flag, "one blank"),
	CLI_BOOL('q', "quiet", &v.flag, "no notes"),
	CLI_END()
};

static const char compact_help[] =
"  --groups=LIST     install only these groups\n"
"                    (comma separated)\n"
"  --a-name-of-eighteen  one blank\n"
"  -q, --quiet       no notes\n";

int main(void)
{
	char out[4096], err[4096], rest[512];
	struct cli_cmd compact = {
		.prog = "c", .opts = compact_opts, .usage = usage, .help_col = 20,
		.flags = CLI_CMD_NO_SHORT_COLUMN,
	};
	size_t i;
	int first, ret;
	FILE *f;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		lt_test_case = cases[i].line;
		ret = parse(cases[i].own ? &own : &cmd, cases[i].line, &first,
			    out, err, rest);
		CHECK_U64(ret, cases[i].status);
		if (ret < 0 && cases[i].rest)
			CHECK_STR(rest, cases[i].rest);
		if (cases[i].out)
			CHECK_STR(out, cases[i].out);
		if (cases[i].err)
			CHECK_STR(err, cases[i].err);
		CHECK(v.flag == cases[i].flag);
		CHECK(v.on == cases[i].on);
		CHECK(v.live == cases[i].live);
		if (cases[i].outv)
			CHECK_STR(v.out, cases[i].outv);
		else
			CHECK(!v.out);
		CHECK_U64(v.n, cases[i].n);
		CHECK_U64(v.cb_calls, cases[i].cb_calls);
		if (cases[i].cb_arg)
			CHECK_STR(v.cb_arg, cases[i].cb_arg);
	}

	lt_test_case = "--help";
	ret = parse(&cmd, "--help", &first, out, err, rest);
	CHECK_U64(ret, 0);
	CHECK_STR(out, help);
	CHECK_STR(err, "");

	lt_test_case = "the help, without short names' room, at column 20";
	f = tmpfile();
	cli_opts_help(f, &compact);
	slurp(f, out, sizeof(out));
	CHECK_STR(out, compact_help);

	return lt_test_done("test-cli-opts");
}
