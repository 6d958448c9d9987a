// SPDX-License-Identifier: LGPL-2.1
/*
 * report-format.c - the options' defaults, the names of cause kinds, and
 * a row's cause and count as the tables show them.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "latencytop.h"
#include "lt-report.h"

#define LT_COUNT_W	7	/* the Count column at its narrowest */

void lt_options_init(struct lt_options *opts)
{
	memset(opts, 0, sizeof(*opts));
	/* LatencyTOP: interruptible waits over 5 ms are user requested */
	opts->sleep_cutoff_ns = 5000000;
	opts->honour_maxtime = true;
	opts->sort = LT_SORT_MAX;
	opts->from_ns = -1;
	opts->to_ns = -1;
}

const char *lt_cause_kind_name(enum lt_cause_kind kind)
{
	static const char *const names[LT_CAUSE_NR] = {
		[LT_CAUSE_ANNOTATED] = "annotated",
		[LT_CAUSE_TRANSLATED] = "translated",
		[LT_CAUSE_FUNCTION] = "function",
		[LT_CAUSE_UNKNOWN] = "unknown",
		[LT_CAUSE_SCHED] = "scheduler",
		[LT_CAUSE_STOPPED] = "stopped",
	};

	return (unsigned int)kind < LT_CAUSE_NR ? names[kind] : "unknown";
}

char *lt_format_cause(char *buf, size_t len, const struct lt_report_row *row,
		      size_t width)
{
	const char *p, *c;
	char *cut = NULL;
	size_t cols = 0;

	if (row->argument[0])
		snprintf(buf, len, "%s (%s)", row->reason, row->argument);
	else
		snprintf(buf, len, "%s", row->reason);
	/* on a character's boundary, the '~' in the last column */
	for (p = buf; width && *p; ) {
		c = p;
		cols += (size_t)lt_text_cols(&p);
		if (!cut && cols > width - 1)
			cut = (char *)c;
	}
	if (cols > width && width) {
		cut[0] = '~';
		cut[1] = '\0';
	}
	/* in columns: an escape sequence or a newline would break them */
	return lt_shown_copy(buf, len, buf);
}

int lt_format_count_width(const struct lt_report_row *rows, size_t nr)
{
	uint64_t most = 0;
	char buf[24];
	size_t i;
	int w;

	for (i = 0; i < nr; i++)
		if (rows[i].count > most)
			most = rows[i].count;
	w = snprintf(buf, sizeof(buf), "%" PRIu64, most);
	return w > LT_COUNT_W ? w : LT_COUNT_W;
}

static int str_cmp0(const char *a, const char *b)
{
	return strcmp(a ? a : "", b ? b : "");
}

int lt_report_chain_cmp(const struct lt_report_chain *a,
			const struct lt_report_chain *b)
{
	int c;

	if (a->ns != b->ns)
		return a->ns > b->ns ? -1 : 1;
	c = str_cmp0(a->what, b->what);
	if (c)
		return c;
	c = str_cmp0(a->comm, b->comm);
	if (c)
		return c;
	return (a->tid > b->tid) - (a->tid < b->tid);
}
