// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz-write-json.c - saved JSON reports from untrusted files (what
 * latency-view opens, what merge and diff read).  A report that reads
 * must then write in every format of the writers table without trouble:
 * every pointer the reader set is used; merged with itself (histograms,
 * traces, commands), the merge must write too, and what it writes must
 * read back, or fail with a message; diffed with itself, nothing changed
 * (in every scope), and the diff writes in every format.
 */
#include <stdio.h>
#include <stdlib.h>

#include "lt-report.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void write_all(const struct lt_report *rep, FILE *out)
{
	const struct lt_writer *w;
	struct lt_error err;
	size_t i;

	for (i = 0; (w = lt_writer_at(i)); i++)
		if (w->input == LT_WRITE_REPORT)
			lt_report_write(rep, w->format, out, &err);
}

/* What a merge wrote reads back, or fails saying why. */
static void reread(const struct lt_report *m)
{
	struct lt_report *back;
	struct lt_error err;
	char *text = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&text, &len);

	if (!mem)
		return;
	lt_report_write(m, LT_FORMAT_JSON, mem, &err);
	fclose(mem);
	if (lt_report_parse_json(text, len, "merged", &back, &err) < 0) {
		if (!err.msg[0])
			abort();
	} else {
		lt_report_free(back);
	}
	free(text);
}

/* A report against itself: no cause changed, whatever it holds. */
static void self_diff(const struct lt_report *rep, FILE *out)
{
	static const char *const checks[] = {
		"p99>+20%", "any:max>=0", "command:count<-1%~*a*", "share>+0.5",
	};
	const struct lt_writer *w;
	struct lt_error err;
	struct lt_diff *d;
	size_t i, n;

	if (lt_diff_make(rep, "a", rep, "b", ~0u, &d, &err) < 0) {
		if (!err.msg[0])
			abort();
		return;
	}
	if (d->nr_by_status[LT_DIFF_CHANGED] || d->nr_by_status[LT_DIFF_NEW] ||
	    d->nr_by_status[LT_DIFF_VANISHED])
		abort();
	for (i = 0; i < sizeof(checks) / sizeof(checks[0]); i++)
		if (lt_diff_check(d, checks[i], &n, &err) < 0)
			abort();
	d->all = true;
	for (i = 0; out && (w = lt_writer_at(i)); i++)
		if (w->input == LT_WRITE_DIFF)
			lt_diff_write(d, w->format, out, &err);
	lt_diff_free(d);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const struct lt_report *pair[2];
	struct lt_report *rep, *m;
	struct lt_error err;
	FILE *out;

	if (lt_report_parse_json((const char *)data, size, "fuzz", &rep, &err) < 0)
		return 0;
	out = fopen("/dev/null", "w");
	if (out)
		write_all(rep, out);
	pair[0] = pair[1] = rep;
	if (lt_report_merge(pair, NULL, 2, &m, &err) == 0) {
		if (out)
			write_all(m, out);
		reread(m);
		lt_report_free(m);
	} else if (!err.msg[0]) {
		abort();
	}
	self_diff(rep, out);
	if (out)
		fclose(out);
	lt_report_free(rep);
	return 0;
}
