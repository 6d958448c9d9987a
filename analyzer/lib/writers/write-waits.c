// SPDX-License-Identifier: LGPL-2.1
/*
 * write-waits.c - the waits of an analysis as CSV or JSON lines,
 * a row each as it comes (lt_waits_writer), and the stacks they name in
 * a second file: what SQLite, DuckDB or ClickHouse load.  The columns are
 * documented in docs/report-schema.md; an empty CSV field (null in JSON)
 * is what the trace did not show.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "writers-local.h"

static const char waits_head[] = "trace_id,pid,tid,comm,kernel_thread,reason,"
	"argument,kind,state,start_ns,end_ns,dur_ns,dropped,stack_id,cgroup,"
	"waker_tid,waker_comm,waker_kind\n";
static const char stacks_head[] = "trace_id,stack_id,reason,kind,"
	"kernel_thread,frames\n";

struct lt_waits_writer {
	enum lt_format format;
	FILE *out, *stacks;
	bool head, stacks_head;
	uint64_t rows;
	lt_waits_row_fn row;		/* the writers table's, for @format */
	lt_waits_stack_fn stack;
};

/* Frames innermost first, ';' between, as one RFC 4180 field. */
static void csv_frames(FILE *out, const char *const *f, unsigned int n)
{
	bool quote = false;
	const char *p;
	unsigned int i;

	for (i = 0; i < n && !quote; i++)
		quote = strpbrk(f[i], ",\"\r\n") != NULL;
	if (quote)
		fputc('"', out);
	for (i = 0; i < n; i++) {
		if (i)
			fputc(';', out);
		for (p = f[i]; *p; p++) {
			if (*p == '"')
				fputc('"', out);
			fputc(*p, out);
		}
	}
	if (quote)
		fputc('"', out);
}

static void csv_opt_u64(FILE *out, bool known, uint64_t v)
{
	if (known)
		fprintf(out, "%" PRIu64, v);
}

static void json_opt_u64(FILE *out, const char *key, bool known, uint64_t v)
{
	if (known)
		fprintf(out, ",\"%s\":%" PRIu64, key, v);
	else
		fprintf(out, ",\"%s\":null", key);
}

int lt_waits_csv_row(struct lt_waits_writer *ww, const struct lt_wait *w)
{
	FILE *out = ww->out;

	if (!ww->head) {
		fputs(waits_head, out);
		ww->head = true;
	}
	lt_csv_str(out, w->trace_id);
	fprintf(out, ",%d,%d,", w->pid, w->tid);
	lt_csv_str(out, w->comm);
	fprintf(out, ",%d,", w->kernel_thread);
	lt_csv_str(out, w->reason);
	fputc(',', out);
	lt_csv_str(out, w->argument);
	fprintf(out, ",%s,%c,", lt_cause_kind_name(w->kind), w->state);
	csv_opt_u64(out, w->start_known, w->start_ns);
	fputc(',', out);
	csv_opt_u64(out, w->end_known, w->end_ns);
	fputc(',', out);
	csv_opt_u64(out, w->start_known && w->end_known, w->end_ns - w->start_ns);
	fputc(',', out);
	fputs(w->dropped ? w->dropped : "", out);
	fputc(',', out);
	csv_opt_u64(out, w->stack_id, w->stack_id);
	/* columns are only added at the end: empty when not known */
	fputc(',', out);
	if (w->cgroup)
		lt_csv_str(out, w->cgroup);
	/* what ended it: empty for a wait for a CPU, or none known */
	fputc(',', out);
	if (w->waker_tid >= 0)
		fprintf(out, "%d", w->waker_tid);
	fputc(',', out);
	if (w->waker_comm)
		lt_csv_str(out, w->waker_comm);
	fputc(',', out);
	fputs(w->waker_kind ? w->waker_kind : "", out);
	fputc('\n', out);
	return ferror(out) ? -1 : 0;
}

int lt_waits_jsonl_row(struct lt_waits_writer *ww, const struct lt_wait *w)
{
	FILE *out = ww->out;

	fputs("{\"trace_id\":", out);
	lt_report_json_str(out, w->trace_id);
	fprintf(out, ",\"pid\":%d,\"tid\":%d,\"comm\":", w->pid, w->tid);
	lt_report_json_str(out, w->comm);
	fprintf(out, ",\"kernel_thread\":%s,\"reason\":",
		w->kernel_thread ? "true" : "false");
	lt_report_json_str(out, w->reason);
	fputs(",\"argument\":", out);
	lt_report_json_str(out, w->argument);
	fprintf(out, ",\"kind\":\"%s\",\"state\":\"%c\"",
		lt_cause_kind_name(w->kind), w->state);
	json_opt_u64(out, "start_ns", w->start_known, w->start_ns);
	json_opt_u64(out, "end_ns", w->end_known, w->end_ns);
	json_opt_u64(out, "dur_ns", w->start_known && w->end_known,
		     w->end_ns - w->start_ns);
	fputs(",\"dropped\":", out);
	if (w->dropped)
		fprintf(out, "\"%s\"", w->dropped);
	else
		fputs("null", out);
	json_opt_u64(out, "stack_id", w->stack_id, w->stack_id);
	fputs(",\"cgroup\":", out);
	if (w->cgroup)
		lt_report_json_str(out, w->cgroup);
	else
		fputs("null", out);
	if (w->waker_tid >= 0)
		fprintf(out, ",\"waker_tid\":%d,\"waker_comm\":", w->waker_tid);
	else
		fputs(",\"waker_tid\":null,\"waker_comm\":", out);
	if (w->waker_comm)
		lt_report_json_str(out, w->waker_comm);
	else
		fputs("null", out);
	if (w->waker_kind)
		fprintf(out, ",\"waker_kind\":\"%s\"", w->waker_kind);
	else
		fputs(",\"waker_kind\":null", out);
	fputs("}\n", out);
	return ferror(out) ? -1 : 0;
}

static int on_wait(void *ctx, const struct lt_wait *w)
{
	struct lt_waits_writer *ww = ctx;

	ww->rows++;
	return ww->row(ww, w);
}

int lt_waits_jsonl_stack(struct lt_waits_writer *ww, const struct lt_wait_stack *st)
{
	FILE *out = ww->stacks;
	unsigned int i;

	fputs("{\"trace_id\":", out);
	lt_report_json_str(out, st->trace_id);
	fprintf(out, ",\"stack_id\":%u,\"reason\":", st->id);
	lt_report_json_str(out, st->reason);
	fprintf(out, ",\"kind\":\"%s\",\"kernel_thread\":%s,\"frames\":[",
		lt_cause_kind_name(st->kind), st->kernel_thread ? "true" : "false");
	for (i = 0; i < st->nr_frames; i++) {
		fputs(i ? "," : "", out);
		lt_report_json_str(out, st->frames[i]);
	}
	fputs("]}\n", out);
	return ferror(out) ? -1 : 0;
}

int lt_waits_csv_stack(struct lt_waits_writer *ww, const struct lt_wait_stack *st)
{
	FILE *out = ww->stacks;

	if (!ww->stacks_head) {
		fputs(stacks_head, out);
		ww->stacks_head = true;
	}
	lt_csv_str(out, st->trace_id);
	fprintf(out, ",%u,", st->id);
	lt_csv_str(out, st->reason);
	fprintf(out, ",%s,%d,", lt_cause_kind_name(st->kind), st->kernel_thread);
	csv_frames(out, st->frames, st->nr_frames);
	fputc('\n', out);
	return ferror(out) ? -1 : 0;
}

static int on_stack(void *ctx, const struct lt_wait_stack *st)
{
	struct lt_waits_writer *ww = ctx;

	return ww->stack(ww, st);
}

struct lt_waits_writer *lt_waits_writer_new(enum lt_format format, FILE *out,
					    FILE *stacks)
{
	struct lt_waits_writer *ww = calloc(1, sizeof(*ww));

	if (!ww)
		return NULL;
	/* an unknown format writes CSV, as lt_report_write() writes text */
	if (lt_writer_waits_fns(format, &ww->row, &ww->stack) < 0)
		lt_writer_waits_fns(LT_FORMAT_WAITS_CSV, &ww->row, &ww->stack);
	ww->format = format == LT_FORMAT_WAITS_JSONL ? format : LT_FORMAT_WAITS_CSV;
	ww->out = out;
	ww->stacks = stacks;
	return ww;
}

void lt_waits_writer_attach(struct lt_waits_writer *ww, struct lt_options *opts)
{
	opts->waits = on_wait;
	opts->wait_stacks = ww->stacks ? on_stack : NULL;
	opts->waits_ctx = ww;
}

uint64_t lt_waits_writer_rows(const struct lt_waits_writer *ww)
{
	return ww->rows;
}

int lt_waits_writer_close(struct lt_waits_writer *ww, struct lt_error *err)
{
	bool bad;

	if (!ww)
		return 0;
	/* no wait at all: still a CSV with its header, to load */
	if (ww->format == LT_FORMAT_WAITS_CSV && !ww->head) {
		fputs(waits_head, ww->out);
		ww->head = true;
	}
	if (ww->stacks && ww->format == LT_FORMAT_WAITS_CSV && !ww->stacks_head)
		fputs(stacks_head, ww->stacks);
	bad = fflush(ww->out) || ferror(ww->out) ||
	      (ww->stacks && (fflush(ww->stacks) || ferror(ww->stacks)));
	free(ww);
	if (bad) {
		lt_error_set(err, LT_E_IO, "cannot write the waits");
		return -1;
	}
	return 0;
}
