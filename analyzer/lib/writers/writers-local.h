/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * writers-local.h - what the writers share: each format's entry points
 * (the table in writers.c calls them) and the quoting of strings.
 */
#ifndef LT_WRITERS_LOCAL_H
#define LT_WRITERS_LOCAL_H

#include <stdio.h>

#include "latencytop.h"
#include "lt-report.h"
#include "lt-text.h"

/*
 * What a writer writes is bounded by what it read (issue 49): a saved
 * report may hold a cause or a task name of any length (a trace's are
 * short: a kernel's task names are 15 bytes), and no name is padded to
 * or repeated at its whole length more often than the report holds it.
 *
 *   LT_CAUSE_COLS  a text table's cause column at its widest: a longer
 *                  cause is cut with '~' (lt_format_cause()), and no
 *                  other row is padded past it
 *   LT_NAME_COLS   a task's or a command's name in a title of text
 *                  output or of a diff
 *   LT_FLAT_COLS   a name a format writes again on each line where the
 *                  report holds it once: CSV's comm on each of a task's
 *                  rows, folded's comm and cause on each stack; and the
 *                  names shown in HTML's tables (its data keeps them
 *                  whole).  JSON, and CSV's reason and argument (one a
 *                  row, as in the report), keep every name whole.
 */
#define LT_CAUSE_COLS	72
#define LT_NAME_COLS	64
#define LT_FLAT_COLS	255

/* A row of waits, and of their stacks, in one format: the writers table's. */
typedef int (*lt_waits_row_fn)(struct lt_waits_writer *ww, const struct lt_wait *w);
typedef int (*lt_waits_stack_fn)(struct lt_waits_writer *ww,
				 const struct lt_wait_stack *st);
int lt_waits_csv_row(struct lt_waits_writer *ww, const struct lt_wait *w);
int lt_waits_jsonl_row(struct lt_waits_writer *ww, const struct lt_wait *w);
int lt_waits_csv_stack(struct lt_waits_writer *ww, const struct lt_wait_stack *st);
int lt_waits_jsonl_stack(struct lt_waits_writer *ww, const struct lt_wait_stack *st);
/* The writers table's functions for waits in @format: 0, or -1 if none. */
int lt_writer_waits_fns(enum lt_format format, lt_waits_row_fn *row,
			lt_waits_stack_fn *stack);

int lt_report_write_text(const struct lt_report *r, FILE *out);
/*
 * The lines text output has under a process's (or thread's) title: how
 * its blocked time was explained (@c; NULL: not said), what it asked
 * for and was not charged (@u), its stops not charged (@st; NULL: none),
 * @indent columns in.  0, or -1 (a write error).
 */
int lt_report_text_task_head(const struct lt_report *r,
			     const struct lt_report_coverage *c,
			     const struct lt_report_uncharged *u,
			     const struct lt_report_stopped *st, int indent,
			     FILE *out);
int lt_report_write_json(const struct lt_report *r, FILE *out);
int lt_report_write_csv(const struct lt_report *r, FILE *out);
/* @s as one CSV field, RFC 4180: quoted only when it must be. */
void lt_csv_str(FILE *out, const char *s);
int lt_report_write_folded(const struct lt_report *r, FILE *out);
/* A gzipped pprof profile (profile.proto) of the whole range. */
int lt_report_write_pprof(const struct lt_report *r, FILE *out);
/* lt_report_write_html() of the whole range, for the writers table. */
int lt_report_write_html_table(const struct lt_report *r, FILE *out);
int lt_diff_write_text(const struct lt_diff *d, FILE *out);
/* @s as a JSON string: quoted, escaped, valid UTF-8. */
void lt_report_json_str(FILE *out, const char *s);
/* The same, safe inside an HTML <script> element: no '<', '>', '&'. */
void lt_report_json_script_str(FILE *out, const char *s);
int lt_diff_write_json(const struct lt_diff *d, FILE *out);

#endif /* LT_WRITERS_LOCAL_H */
