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
