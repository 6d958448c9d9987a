// SPDX-License-Identifier: LGPL-2.1
/*
 * writers.c - every output format as a row of one table: its name, what
 * it writes, the function that writes it, and which of the options that
 * shape output it honours (and why not, for the others).  The command
 * line's --format, its help, its warnings and the man page's list of
 * formats are all made from this table, so a new format is a new row.
 */
#include <errno.h>
#include <string.h>

#include "writers-local.h"

/*
 * The functions for the writer's input (pub.input) are set: a waits
 * writer's write a row of a wait and one of a stack, as lt_waits_writer
 * is handed them by the analysis.
 */
struct writer_row {
	struct lt_writer pub;
	int (*report)(const struct lt_report *r, FILE *out);
	int (*diff)(const struct lt_diff *d, FILE *out);
	lt_waits_row_fn wait;
	lt_waits_stack_fn stack;
};

static const struct writer_row writers[] = {
	{ { "text", LT_WRITE_REPORT, LT_FORMAT_TEXT,
	    "LatencyTOP's tables (the default)", { NULL } },
	  lt_report_write_text },
	{ { "json", LT_WRITE_REPORT, LT_FORMAT_JSON,
	    "the report as JSON (" LT_REPORT_SCHEMA ")",
	    { [LT_WOPT_STACKS] = "JSON always lists stacks",
	      [LT_WOPT_PER_THREAD] = "JSON always lists threads",
	      [LT_WOPT_LIMIT] = "JSON has every row",
	      [LT_WOPT_CHAINS] = "JSON always has the whole trees",
	      [LT_WOPT_MAX_PROCESSES] = "JSON has every process (--pid, --comm "
					"choose them)" } },
	  lt_report_write_json },
	{ { "csv", LT_WRITE_REPORT, LT_FORMAT_CSV,
	    "one line per row of every table",
	    { [LT_WOPT_STACKS] = "CSV has no stacks (--format=folded has)",
	      [LT_WOPT_PER_THREAD] = "CSV always has thread rows",
	      [LT_WOPT_LIMIT] = "CSV has every row",
	      [LT_WOPT_CHAINS] = "CSV has no trees (--format=json has)",
	      [LT_WOPT_MAX_PROCESSES] = "CSV has every process (--pid, --comm "
					"choose them)" } },
	  lt_report_write_csv },
	{ { "folded", LT_WRITE_REPORT, LT_FORMAT_FOLDED,
	    "flame graph input: process;cause;frames us",
	    { [LT_WOPT_STACKS] = "folded output is stacks",
	      [LT_WOPT_PER_THREAD] = "folded output is per process",
	      [LT_WOPT_LIMIT] = "folded output has every stack",
	      [LT_WOPT_WINDOW] = "folded output covers the whole trace "
				 "(--from and --to cut it)",
	      [LT_WOPT_MAX_PROCESSES] = "folded output has every process "
					"(--pid, --comm choose them)" } },
	  lt_report_write_folded },
	{ { "html", LT_WRITE_REPORT, LT_FORMAT_HTML,
	    "one self-contained page: tables, flame graph, timeline",
	    { [LT_WOPT_STACKS] = "the flame graph has the stacks",
	      [LT_WOPT_LIMIT] = "HTML has every row (sort and filter them)",
	      [LT_WOPT_CHAINS] = "HTML always has the whole trees (the "
				 "\"waiting for\" graph)",
	      [LT_WOPT_MAX_PROCESSES] = "HTML has every process (filter "
					"them; --pid, --comm choose them)" },
	    true },
	  lt_report_write_html_table },
	{ { "pprof", LT_WRITE_REPORT, LT_FORMAT_PPROF,
	    "gzipped profile.proto: go tool pprof, Pyroscope, Parca",
	    { [LT_WOPT_STACKS] = "pprof output is stacks",
	      [LT_WOPT_PER_THREAD] = "pprof samples are per thread (labels)",
	      [LT_WOPT_LIMIT] = "pprof output has every stack",
	      [LT_WOPT_CHAINS] = "pprof labels samples with their wakers, "
				 "not chains (--format=folded has them)",
	      [LT_WOPT_WINDOW] = "pprof output covers the whole trace "
				 "(--from and --to cut it)",
	      [LT_WOPT_MAX_PROCESSES] = "pprof output has every process "
					"(--pid, --comm choose them)" },
	    false, true },
	  lt_report_write_pprof },
	{ { "waits", LT_WRITE_WAITS, LT_FORMAT_WAITS_CSV,
	    "a CSV row per wait, charged or dropped (SQL)",
	    { [LT_WOPT_STACKS] = "--waits-stacks=FILE writes them",
	      [LT_WOPT_PER_THREAD] = "every row is a thread's",
	      [LT_WOPT_LIMIT] = "every wait is a row",
	      [LT_WOPT_CHAINS] = "each row has its waker",
	      [LT_WOPT_WINDOW] = "each row has its times",
	      [LT_WOPT_MAX_PROCESSES] = "every wait is a row (--pid, --comm "
					"choose them)" } },
	  NULL, NULL, lt_waits_csv_row, lt_waits_csv_stack },
	{ { "waits-jsonl", LT_WRITE_WAITS, LT_FORMAT_WAITS_JSONL,
	    "the waits as JSON lines, one object a line",
	    { [LT_WOPT_STACKS] = "--waits-stacks=FILE writes them",
	      [LT_WOPT_PER_THREAD] = "every row is a thread's",
	      [LT_WOPT_LIMIT] = "every wait is a row",
	      [LT_WOPT_CHAINS] = "each row has its waker",
	      [LT_WOPT_WINDOW] = "each row has its times",
	      [LT_WOPT_MAX_PROCESSES] = "every wait is a row (--pid, --comm "
					"choose them)" } },
	  NULL, NULL, lt_waits_jsonl_row, lt_waits_jsonl_stack },
	{ { "text", LT_WRITE_DIFF, LT_FORMAT_TEXT,
	    "a table per scope, causes by how much worse (the default)",
	    { [LT_WOPT_WINDOW] = "a diff compares the whole ranges",
	      [LT_WOPT_MAX_PROCESSES] = "a diff compares every process "
					"(--pid, --comm choose them)" } },
	  NULL, lt_diff_write_text },
	{ { "json", LT_WRITE_DIFF, LT_FORMAT_JSON,
	    "the changes as JSON (" LT_DIFF_SCHEMA ")",
	    { [LT_WOPT_WINDOW] = "a diff compares the whole ranges",
	      [LT_WOPT_MAX_PROCESSES] = "a diff compares every process "
					"(--pid, --comm choose them)" } },
	  NULL, lt_diff_write_json },
};

#define NR_WRITERS (sizeof(writers) / sizeof(writers[0]))

const struct lt_writer *lt_writer_at(size_t i)
{
	return i < NR_WRITERS ? &writers[i].pub : NULL;
}

const struct lt_writer *lt_writer_find(enum lt_writer_input input,
				       const char *name)
{
	size_t i;

	for (i = 0; i < NR_WRITERS; i++)
		if (writers[i].pub.input == input &&
		    !strcmp(writers[i].pub.name, name))
			return &writers[i].pub;
	return NULL;
}

const char *lt_writer_opt_name(enum lt_writer_opt opt)
{
	static const char *const names[LT_WOPT_NR] = {
		[LT_WOPT_STACKS] = "--stacks",
		[LT_WOPT_PER_THREAD] = "--per-thread",
		[LT_WOPT_LIMIT] = "--limit",
		[LT_WOPT_WINDOW] = "--window",
		[LT_WOPT_MAX_PROCESSES] = "--max-processes",
		[LT_WOPT_CHAINS] = "--chains",
	};

	return (unsigned int)opt < LT_WOPT_NR ? names[opt] : "?";
}

static const struct writer_row *row_of(enum lt_writer_input input,
				       enum lt_format format)
{
	size_t i;

	for (i = 0; i < NR_WRITERS; i++)
		if (writers[i].pub.input == input &&
		    writers[i].pub.format == format)
			return &writers[i];
	return NULL;
}

int lt_writer_waits_fns(enum lt_format format, lt_waits_row_fn *row,
			lt_waits_stack_fn *stack)
{
	const struct writer_row *w = row_of(LT_WRITE_WAITS, format);

	if (!w)
		return -1;
	*row = w->wait;
	*stack = w->stack;
	return 0;
}

/* Write, and say why not: a short write is only seen at the flush. */
static int written(int ret, FILE *out, struct lt_error *err)
{
	if (ret < 0 || fflush(out)) {
		lt_error_set(err, LT_E_IO, "cannot write the report: %s",
			     strerror(errno ? errno : EIO));
		return -1;
	}
	return 0;
}

int lt_diff_write(const struct lt_diff *d, enum lt_format format, FILE *out,
		  struct lt_error *err)
{
	const struct writer_row *w = row_of(LT_WRITE_DIFF, format);

	if (!w)
		w = row_of(LT_WRITE_DIFF, LT_FORMAT_TEXT);
	errno = 0;
	return written(w->diff(d, out), out, err);
}

int lt_report_write(const struct lt_report *report, enum lt_format format,
		    FILE *out, struct lt_error *err)
{
	const struct writer_row *w = row_of(LT_WRITE_REPORT, format);

	/* an unknown format writes text, as it always did */
	if (!w)
		w = row_of(LT_WRITE_REPORT, LT_FORMAT_TEXT);
	errno = 0;
	return written(w->report(report, out), out, err);
}
