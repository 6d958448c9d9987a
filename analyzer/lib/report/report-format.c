// SPDX-License-Identifier: LGPL-2.1
/*
 * report-format.c - the options' defaults, the names of cause kinds, a
 * report's duration, and a row's cause and count as the tables show them.
 */
#include <inttypes.h>
#include <limits.h>
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

uint64_t lt_report_duration_ns(const struct lt_report *r)
{
	uint64_t sum = 0, d;
	size_t i;

	if (!r->nr_traces)
		return r->end_ns > r->start_ns ? r->end_ns - r->start_ns : 0;
	for (i = 0; i < r->nr_traces; i++) {
		d = r->traces[i].end_ns > r->traces[i].start_ns ?
		    r->traces[i].end_ns - r->traces[i].start_ns : 0;
		sum = sum + d < sum ? UINT64_MAX : sum + d;
	}
	return sum;
}

char *lt_format_cause(char *buf, size_t len, const struct lt_report_row *row,
		      size_t width)
{
	int most = len > INT_MAX ? INT_MAX : (int)len;
	const char *p, *c;
	char *cut = NULL;
	size_t cols = 0, n;

	if (len < 2) {
		if (len)
			buf[0] = '\0';
		return buf;
	}
	/* read no more than fits: a saved report's reason may be 100 MB */
	if (row->argument[0])
		n = (size_t)snprintf(buf, len, "%.*s (%.*s)", most, row->reason,
				     most, row->argument);
	else
		n = (size_t)snprintf(buf, len, "%.*s", most, row->reason);
	/*
	 * On a character's boundary, the '~' in the last column; or, cut
	 * by @len, in its last byte.
	 */
	for (p = buf; *p; ) {
		c = p;
		cols += (size_t)lt_text_cols(&p);
		if (!cut && ((width && cols > width - 1) ||
			     (n >= len && (size_t)(p - buf) > len - 2)))
			cut = (char *)c;
	}
	if (cut && ((width && cols > width) || n >= len)) {
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
