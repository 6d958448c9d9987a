// SPDX-License-Identifier: LGPL-2.1
/*
 * write-csv.c - flat exports: CSV (one line per row of every table) and
 * folded stacks for flame graphs.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "writers-local.h"

void lt_csv_str(FILE *out, const char *s)
{
	const char *p;

	if (!strpbrk(s, ",\"\r\n")) {
		fputs(s, out);
		return;
	}
	fputc('"', out);
	for (p = s; *p; p++) {
		if (*p == '"')
			fputc('"', out);
		fputc(*p, out);
	}
	fputc('"', out);
}

/* The row's statistics of the field table that CSV puts at @where. */
static void csv_fields(FILE *out, const struct lt_report_row *r,
		       enum lt_rf_csv where)
{
	const struct lt_row_field *f;

	lt_for_each_row_field(f) {
		if (f->csv != where)
			continue;
		fputc(',', out);
		/* unknown (merged from a report without histograms): empty */
		if (!(f->nullable && r->no_percentiles))
			lt_row_field_put(out, f, r);
	}
}

/* @kthread: 1 or 0 for a process's (or thread's) rows, -1 for the global */
static void csv_rows(FILE *out, const char *view, const struct lt_report_view *v,
		     const char *scope, int pid, int tid, const char *comm,
		     int kthread, const struct lt_report_row *rows, size_t nr)
{
	size_t i;

	for (i = 0; i < nr; i++) {
		const struct lt_report_row *r = &rows[i];

		fprintf(out, "%s,%" PRIu64 ",%" PRIu64 ",%s,", view, v->start_ns,
			v->end_ns, scope);
		if (pid >= 0)
			fprintf(out, "%d", pid);
		fputc(',', out);
		if (tid >= 0)
			fprintf(out, "%d", tid);
		fputc(',', out);
		lt_csv_str(out, comm);
		fputc(',', out);
		lt_csv_str(out, r->reason);
		fputc(',', out);
		lt_csv_str(out, r->argument);
		fprintf(out, ",%s", lt_cause_kind_name(r->kind));
		csv_fields(out, r, LT_RF_CSV_ROW);
		fputc(',', out);
		if (kthread >= 0)
			fputc(kthread ? '1' : '0', out);
		/* added at the end, as the schema promises columns are */
		csv_fields(out, r, LT_RF_CSV_END);
		fputc('\n', out);
	}
}

static void csv_head(FILE *out, enum lt_rf_csv where)
{
	const struct lt_row_field *f;

	lt_for_each_row_field(f)
		if (f->csv == where)
			fprintf(out, ",%s", f->key);
}

static void csv_view(FILE *out, const char *view, const struct lt_report_view *v)
{
	size_t i, j;

	csv_rows(out, view, v, "global", -1, -1, "", -1, v->global,
		 v->nr_global);
	for (i = 0; i < v->nr_processes; i++) {
		const struct lt_report_process *p = &v->processes[i];

		csv_rows(out, view, v, "process", p->pid, -1, p->comm,
			 p->kernel_thread, p->rows, p->nr_rows);
		for (j = 0; j < p->nr_threads; j++)
			csv_rows(out, view, v, "thread", p->pid, p->threads[j].tid,
				 p->threads[j].comm, p->kernel_thread,
				 p->threads[j].rows, p->threads[j].nr_rows);
	}
}

int lt_report_write_csv(const struct lt_report *r, FILE *out)
{
	char view[32];
	size_t w;

	fputs("view,start_ns,end_ns,scope,pid,tid,comm,reason,argument,kind", out);
	csv_head(out, LT_RF_CSV_ROW);
	fputs(",kernel_thread", out);
	csv_head(out, LT_RF_CSV_END);
	fputc('\n', out);
	csv_view(out, "all", &r->whole);
	for (w = 0; w < r->nr_windows; w++) {
		snprintf(view, sizeof(view), "%zu", w);
		csv_view(out, view, &r->windows[w]);
	}
	return ferror(out) ? -1 : 0;
}

/*
 * Folded-stack frames may not hold ';' (the separator) or a newline; and
 * like text, no other control character (a task names itself anything).
 */
static void folded_name(FILE *out, const char *s)
{
	char c;

	while (*s) {
		c = lt_shown(&s);
		fputc(c == ';' ? ':' : c, out);
	}
}

static void folded_line(FILE *out, const struct lt_report_process *p,
			const struct lt_report_row *row,
			const struct lt_report_stack *st, uint64_t ns)
{
	unsigned int k;
	/* rounded without ns + 500, which wraps near 2^64 (a saved report's) */
	uint64_t us = ns / 1000 + (ns % 1000 >= 500);

	if (!us)
		return;		/* flame graphs take integer counts */
	folded_name(out, p->comm);
	fprintf(out, " (%d);", p->pid);
	folded_name(out, row->reason);
	if (row->argument[0]) {
		fputs(" (", out);
		folded_name(out, row->argument);
		fputc(')', out);
	}
	/*
	 * outermost frame first, as flame graphs grow from the root: the
	 * task's own code (perf.data call chains), then the kernel's
	 */
	for (k = st ? st->nr_user_frames : 0; k > 0; k--) {
		fputc(';', out);
		folded_name(out, st->user_frames[k - 1]);
	}
	for (k = st ? st->nr_frames : 0; k > 0; k--) {
		fputc(';', out);
		folded_name(out, st->frames[k - 1]);
	}
	fprintf(out, " %" PRIu64 "\n", us);
}

int lt_report_write_folded(const struct lt_report *r, FILE *out)
{
	const struct lt_report_view *v = &r->whole;
	size_t i, j, k;

	for (i = 0; i < v->nr_processes; i++) {
		const struct lt_report_process *p = &v->processes[i];

		for (j = 0; j < p->nr_rows; j++) {
			const struct lt_report_row *row = &p->rows[j];
			uint64_t rest = row->total_ns;

			for (k = 0; k < row->nr_stacks; k++) {
				folded_line(out, p, row, &row->stacks[k],
					    row->stacks[k].total_ns);
				rest -= row->stacks[k].total_ns;
			}
			/* time with no stack (or waiting for a CPU) */
			if (rest)
				folded_line(out, p, row, NULL, rest);
		}
	}
	return ferror(out) ? -1 : 0;
}
