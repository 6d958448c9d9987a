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

/*
 * A task's name is on each of its rows, where the report holds it once:
 * past LT_FLAT_COLS (a kernel's are 15 bytes), cut with '~'.
 */
static void csv_view(FILE *out, const char *view, const struct lt_report_view *v)
{
	char comm[LT_TEXT_CUT_BYTES(LT_FLAT_COLS)];
	size_t i, j;

	csv_rows(out, view, v, "global", -1, -1, "", -1, v->global,
		 v->nr_global);
	for (i = 0; i < v->nr_processes; i++) {
		const struct lt_report_process *p = &v->processes[i];

		csv_rows(out, view, v, "process", p->pid, -1,
			 lt_text_cut(comm, sizeof(comm), p->comm, LT_FLAT_COLS),
			 p->kernel_thread, p->rows, p->nr_rows);
		for (j = 0; j < p->nr_threads; j++)
			csv_rows(out, view, v, "thread", p->pid, p->threads[j].tid,
				 lt_text_cut(comm, sizeof(comm),
					     p->threads[j].comm, LT_FLAT_COLS),
				 p->kernel_thread, p->threads[j].rows,
				 p->threads[j].nr_rows);
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

/*
 * The same, of a name on each of a row's stacks where the report holds
 * it once (the task's, the cause's, a waker's): past LT_FLAT_COLS, cut
 * with '~'.
 */
static void folded_flat(FILE *out, const char *s)
{
	char buf[LT_TEXT_CUT_BYTES(LT_FLAT_COLS)];

	folded_name(out, lt_text_cut(buf, sizeof(buf), s, LT_FLAT_COLS));
}

/* "cw-main (1607);Reading from a pipe": the line's start */
static void folded_cause(FILE *out, const struct lt_report_process *p,
			 const struct lt_report_row *row)
{
	folded_flat(out, p->comm);
	fprintf(out, " (%d);", p->pid);
	folded_flat(out, row->reason);
	if (row->argument[0]) {
		fputs(" (", out);
		folded_flat(out, row->argument);
		fputc(')', out);
	}
}

/*
 * @st's frames, outermost first, as flame graphs grow from the root: the
 * task's own code (perf.data call chains), then the kernel's
 */
static void folded_frames(FILE *out, const struct lt_report_stack *st)
{
	unsigned int k;

	for (k = st ? st->nr_user_frames : 0; k > 0; k--) {
		fputc(';', out);
		folded_name(out, st->user_frames[k - 1]);
	}
	for (k = st ? st->nr_frames : 0; k > 0; k--) {
		fputc(';', out);
		folded_name(out, st->frames[k - 1]);
	}
}

/* @ns in whole microseconds, 0 when it rounds to none */
static uint64_t folded_us(uint64_t ns)
{
	/* rounded without ns + 500, which wraps near 2^64 (a saved report's) */
	return ns / 1000 + (ns % 1000 >= 500);
}

static void folded_line(FILE *out, const struct lt_report_process *p,
			const struct lt_report_row *row,
			const struct lt_report_stack *st, uint64_t ns)
{
	uint64_t us = folded_us(ns);

	if (!us)
		return;		/* flame graphs take integer counts */
	folded_cause(out, p, row);
	folded_frames(out, st);
	fprintf(out, " %" PRIu64 "\n", us);
}

/* ---- --chains: the wakers above a "--" frame (issue 48) ---------------- */

/* a chain's frames at most: a walk's levels, each a node and its waker's */
#define FOLDED_DEPTH	32

struct folded_chain {
	FILE *out;
	const struct lt_report_process *p;
	const struct lt_report_row *row;
	const struct lt_report_stack *st;	/* the row's one stack, or NULL */
	const struct lt_report_chain *path[FOLDED_DEPTH];
};

/* "cw-main (4367): Application requested delay", "timer" */
static void folded_node(FILE *out, const struct lt_report_chain *n)
{
	bool task = n->blocked || (n->what && (!strcmp(n->what, "running") ||
				   !strcmp(n->what, "waiting for cpu")));

	if (!task) {
		folded_flat(out, n->what ? n->what : n->comm);
		return;
	}
	folded_flat(out, n->comm);
	if (n->tid >= 0)
		fprintf(out, " (%d)", n->tid);
	fputs(": ", out);
	folded_flat(out, n->what);
}

/* the waiter, "--", then path[0..depth): @ns of it */
static void folded_path(struct folded_chain *c, unsigned int depth, uint64_t ns)
{
	uint64_t us = folded_us(ns);
	unsigned int k;

	if (!us)
		return;
	folded_cause(c->out, c->p, c->row);
	folded_frames(c->out, c->st);
	fputs(";--", c->out);
	for (k = 0; k < depth; k++) {
		fputc(';', c->out);
		folded_node(c->out, c->path[k]);
	}
	fprintf(c->out, " %" PRIu64 "\n", us);
}

/* Node @n at @depth: a line per leaf below it, and for what they leave. */
static void folded_tree(struct folded_chain *c, const struct lt_report_chain *n,
			unsigned int depth)
{
	uint64_t below = 0;
	size_t i;

	c->path[depth++] = n;
	for (i = 0; depth < FOLDED_DEPTH && i < n->nr_children; i++) {
		folded_tree(c, &n->children[i], depth);
		below += n->children[i].ns;
	}
	if (below < n->ns)
		folded_path(c, depth, n->ns - below);
}

/*
 * A row as waiter, "--" and waker chains, a line per leaf of its tree
 * (for a wait for a CPU, per task that ran instead), then what the tree
 * does not explain as the plain line.  The trees are per row, not per
 * stack: the waiter's frames are there only when the row has one stack.
 */
static void folded_chains(FILE *out, const struct lt_report_process *p,
			  const struct lt_report_row *row)
{
	struct folded_chain c = {
		.out = out, .p = p, .row = row,
		.st = row->nr_stacks == 1 ? &row->stacks[0] : NULL,
	};
	uint64_t rest = row->total_ns, ns;
	size_t k;

	for (k = 0; k < row->nr_waited_for; k++) {
		folded_tree(&c, &row->waited_for[k], 0);
		ns = row->waited_for[k].ns;
		rest -= ns < rest ? ns : rest;
	}
	for (k = 0; k < row->nr_ran_instead; k++) {
		const struct lt_report_chain *n = &row->ran_instead[k];
		uint64_t us = folded_us(n->ns);

		rest -= n->ns < rest ? n->ns : rest;
		if (!us)
			continue;
		folded_cause(out, p, row);
		folded_frames(out, c.st);
		fputs(";--;ran instead: ", out);
		folded_name(out, n->comm);
		if (n->tid >= 0)
			fprintf(out, " (%d)", n->tid);
		fprintf(out, " %" PRIu64 "\n", us);
	}
	if (rest)
		folded_line(out, p, row, c.st, rest);
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

			if (r->options.chains) {
				folded_chains(out, p, row);
				continue;
			}
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
