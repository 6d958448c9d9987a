// SPDX-License-Identifier: LGPL-2.1
/*
 * write-json.c - the report as JSON, schema "latencytop-report/1.3"
 * (docs/report-schema.md).  Fields are only ever added, never renamed.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "lt-hist.h"
#include "writers-local.h"

/*
 * Valid UTF-8 passes; control characters and stray bytes are escaped.
 * @script: the string goes inside an HTML <script> element, which ends
 * at the first "</script" and where "<!--" changes the parsing: so '<',
 * '>' and '&' are escaped too, and U+2028 and U+2029, which end a line
 * in JavaScript before ES2019.
 */
static void put_str_as(FILE *out, const char *s, bool script)
{
	const unsigned char *p = (const unsigned char *)(s ? s : "");

	fputc('"', out);
	while (*p) {
		size_t n;

		if (*p == '"' || *p == '\\') {
			fprintf(out, "\\%c", *p++);
			continue;
		}
		if (*p < 0x20 || *p == 0x7f ||
		    (script && (*p == '<' || *p == '>' || *p == '&'))) {
			fprintf(out, "\\u%04x", *p++);
			continue;
		}
		if (script && p[0] == 0xe2 && p[1] == 0x80 &&
		    (p[2] == 0xa8 || p[2] == 0xa9)) {
			fprintf(out, "\\u%04x", p[2] == 0xa8 ? 0x2028 : 0x2029);
			p += 3;
			continue;
		}
		if (*p < 0x80) {
			fputc(*p++, out);
			continue;
		}
		/* JSON is UTF-8: no surrogate, overlong form or stray byte */
		n = lt_utf8_len((const char *)p);
		if (!n) {
			fprintf(out, "\\u%04x", *p++);	/* not UTF-8: keep the byte visible */
			continue;
		}
		fwrite(p, 1, n, out);
		p += n;
	}
	fputc('"', out);
}

static void put_str(FILE *out, const char *s)
{
	put_str_as(out, s, false);
}

void lt_report_json_str(FILE *out, const char *s)
{
	put_str(out, s);
}

void lt_report_json_script_str(FILE *out, const char *s)
{
	put_str_as(out, s, true);
}

static void put_strs(FILE *out, const char *const *v, unsigned int n)
{
	unsigned int i;

	fputc('[', out);
	for (i = 0; i < n; i++) {
		if (i)
			fputc(',', out);
		put_str(out, v[i]);
	}
	fputc(']', out);
}

/* {"sub_buckets":16,"min_ns":..,"buckets":[[low_ns,count],...]} */
static void put_hist(FILE *out, const struct lt_report_row *row)
{
	size_t i;

	if (!row->buckets)
		return;
	fprintf(out, ",\"hist\":{\"sub_buckets\":%u,\"min_ns\":%" PRIu64
		",\"buckets\":[", LT_HIST_SUB, row->min_ns);
	for (i = 0; i < row->nr_buckets; i++)
		fprintf(out, "%s[%" PRIu64 ",%" PRIu64 "]", i ? "," : "",
			row->buckets[i].low_ns, row->buckets[i].count);
	fputs("]}", out);
}

static void put_chain_list(FILE *out, const struct lt_report_chain *v,
			   size_t nr);

static void put_tid(FILE *out, int tid)
{
	if (tid < 0)
		fputs("{\"tid\":null", out);
	else
		fprintf(out, "{\"tid\":%d", tid);
}

/* One node: {"tid","comm","what","ns","waited_for"}; ran_instead's has no what. */
static void put_chain(FILE *out, const struct lt_report_chain *n)
{
	put_tid(out, n->tid);
	fputs(",\"comm\":", out);
	put_str(out, n->comm);
	if (n->what) {
		fputs(",\"what\":", out);
		put_str(out, n->what);
	}
	fprintf(out, ",\"ns\":%" PRIu64, n->ns);
	if (n->nr_children) {
		fputs(",\"waited_for\":", out);
		put_chain_list(out, n->children, n->nr_children);
	}
	fputc('}', out);
}

/*
 * Nodes in their order, the first LT_REPORT_CHAIN_SHOWN of them; the rest
 * summed in one "other" node, which lists them under "rest" (so that a
 * merge adds them up exactly: the reader unfolds it).
 */
static void put_chain_list(FILE *out, const struct lt_report_chain *v,
			   size_t nr)
{
	uint64_t rest = 0;
	bool ran = nr && !v[0].what;
	size_t i;

	fputc('[', out);
	for (i = 0; i < nr && i < LT_REPORT_CHAIN_SHOWN; i++) {
		if (i)
			fputc(',', out);
		put_chain(out, &v[i]);
	}
	if (nr > LT_REPORT_CHAIN_SHOWN) {
		for (i = LT_REPORT_CHAIN_SHOWN; i < nr; i++)
			rest += v[i].ns;
		fprintf(out, ",{\"tid\":null,\"comm\":\"other\"%s,\"ns\":%"
			PRIu64 ",\"rest\":", ran ? "" : ",\"what\":\"other\"",
			rest);
		fputc('[', out);
		for (i = LT_REPORT_CHAIN_SHOWN; i < nr; i++) {
			if (i > LT_REPORT_CHAIN_SHOWN)
				fputc(',', out);
			put_chain(out, &v[i]);
		}
		fputs("]}", out);
	}
	fputc(']', out);
}

/* Whom the row's waits waited for, who ran instead (schema 1.3). */
static void put_chains(FILE *out, const struct lt_report_row *row)
{
	if (row->nr_waited_for) {
		fputs(",\"waited_for\":", out);
		put_chain_list(out, row->waited_for, row->nr_waited_for);
	}
	if (row->nr_ran_instead) {
		fputs(",\"ran_instead\":", out);
		put_chain_list(out, row->ran_instead, row->nr_ran_instead);
	}
}

static void put_row(FILE *out, const struct lt_report_row *row, bool stacks)
{
	const struct lt_row_field *f;
	size_t i;

	fputs("{\"reason\":", out);
	put_str(out, row->reason);
	fputs(",\"argument\":", out);
	put_str(out, row->argument);
	fprintf(out, ",\"kind\":\"%s\"", lt_cause_kind_name(row->kind));
	/* the statistics, as the field table has them */
	lt_for_each_row_field(f) {
		fprintf(out, ",\"%s\":", f->key);
		/* merged from rows without histograms: not known, not 0 */
		if (f->nullable && row->no_percentiles)
			fputs("null", out);
		else
			lt_row_field_put(out, f, row);
	}
	put_hist(out, row);
	fputs(",\"worst\":[", out);
	for (i = 0; i < row->nr_worst; i++)
		fprintf(out, "%s{\"dur_ns\":%" PRIu64 ",\"end_ns\":%" PRIu64
			",\"tid\":%d}", i ? "," : "", row->worst[i].dur_ns,
			row->worst[i].end_ns, row->worst[i].tid);
	fputc(']', out);
	if (stacks) {
		fputs(",\"stacks\":[", out);
		for (i = 0; i < row->nr_stacks; i++) {
			const struct lt_report_stack *st = &row->stacks[i];

			fprintf(out, "%s{\"count\":%" PRIu64 ",\"total_ns\":%" PRIu64
				",\"max_ns\":%" PRIu64 ",\"max_at_ns\":%" PRIu64
				",\"path\":", i ? "," : "", st->count, st->total_ns,
				st->max_ns, st->max_at_ns);
			put_strs(out, st->path, st->path_depth);
			fputs(",\"frames\":", out);
			put_strs(out, st->frames, st->nr_frames);
			/* perf.data's call chains: the task's own code too */
			if (st->nr_user_frames) {
				fputs(",\"user_frames\":", out);
				put_strs(out, st->user_frames, st->nr_user_frames);
			}
			fputc('}', out);
		}
		fputc(']', out);
	}
	put_chains(out, row);
	fputc('}', out);
}

static void put_rows(FILE *out, const struct lt_report_row *rows, size_t nr,
		     bool stacks, const char *indent)
{
	size_t i;

	fputc('[', out);
	for (i = 0; i < nr; i++) {
		fprintf(out, "%s\n%s", i ? "," : "", indent);
		put_row(out, &rows[i], stacks);
	}
	fputc(']', out);
}

static void put_coverage(FILE *out, const struct lt_report_coverage *c)
{
	int k;

	fputs("{", out);
	for (k = 0; k < LT_CAUSE_NR; k++)
		fprintf(out, "%s\"%s_ns\":%" PRIu64, k ? "," : "",
			lt_cause_kind_name(k), c->ns[k]);
	fputs("}", out);
}

static void put_uncharged(FILE *out, const struct lt_report_uncharged *u)
{
	fprintf(out, ",\"user_requested\":{\"count\":%" PRIu64
		",\"total_ns\":%" PRIu64 ",\"max_ns\":%" PRIu64 "}",
		u->count, u->total_ns, u->max_ns);
}

/* Stops not charged, by a signal and for a tracer: schema 1.2. */
static void put_stopped(FILE *out, const struct lt_report_stopped *st)
{
	fprintf(out, ",\"stopped\":{\"signal\":{\"count\":%" PRIu64
		",\"total_ns\":%" PRIu64 ",\"max_ns\":%" PRIu64 "},"
		"\"tracer\":{\"count\":%" PRIu64 ",\"total_ns\":%" PRIu64
		",\"max_ns\":%" PRIu64 "}}", st->signal.count,
		st->signal.total_ns, st->signal.max_ns, st->tracer.count,
		st->tracer.total_ns, st->tracer.max_ns);
}

/* A merged report's tables per command. */
static void put_commands(FILE *out, const struct lt_report_view *v)
{
	size_t i;

	fputs(",\n\"commands\":[", out);
	for (i = 0; i < v->nr_commands; i++) {
		const struct lt_report_command *c = &v->commands[i];

		fprintf(out, "%s\n {\"comm\":", i ? "," : "");
		put_str(out, c->comm);
		fprintf(out, ",\"kernel_thread\":%s,\"processes\":%" PRIu64
			",\"total_ns\":%" PRIu64 ",\"coverage\":",
			c->kernel_thread ? "true" : "false", c->processes,
			c->total_ns);
		put_coverage(out, &c->coverage);
		put_uncharged(out, &c->user_requested);
		put_stopped(out, &c->stopped);
		fputs(",\"reasons\":", out);
		put_rows(out, c->rows, c->nr_rows, true, "  ");
		fputc('}', out);
	}
	fputc(']', out);
}

/* A merged report's traces, by id. */
static void put_traces(FILE *out, const struct lt_report *r)
{
	size_t i;

	fprintf(out, "\"merged_reports\":%" PRIu64 ",\"traces\":[",
		r->merged_reports);
	for (i = 0; i < r->nr_traces; i++) {
		const struct lt_report_trace *t = &r->traces[i];

		fprintf(out, "%s\n {\"id\":", i ? "," : "");
		put_str(out, t->id);
		fputs(",\"path\":", out);
		put_str(out, t->path);
		fputs(",\"format\":", out);
		put_str(out, t->format);
		fputs(",\"uname\":", out);
		put_str(out, t->uname);
		fputs(",\"clock\":", out);
		put_str(out, t->clock);
		fprintf(out, ",\"cpus\":%d,\"start_ns\":%" PRIu64 ",\"end_ns\":%"
			PRIu64 ",\"events\":%" PRIu64 ",\"lost_events\":%" PRIu64
			",\"reports\":%" PRIu64 "}", t->cpus, t->start_ns,
			t->end_ns, t->events, t->lost_events, t->reports);
	}
	fputs("],\n", out);
}

/* The tables of one view, as members of the enclosing object. */
static void put_view(FILE *out, const struct lt_report_view *v)
{
	size_t i, j;

	fprintf(out, "\"start_ns\":%" PRIu64 ",\"end_ns\":%" PRIu64
		",\"total_ns\":%" PRIu64 ",\"coverage\":", v->start_ns, v->end_ns,
		v->total_ns);
	put_coverage(out, &v->coverage);
	fputs(",\n\"global\":", out);
	put_rows(out, v->global, v->nr_global, true, " ");
	fputs(",\n\"processes\":[", out);
	for (i = 0; i < v->nr_processes; i++) {
		const struct lt_report_process *p = &v->processes[i];

		fprintf(out, "%s\n {\"pid\":%d,", i ? "," : "", p->pid);
		/* merged: whose, and as of when its names are */
		if (p->trace) {
			fputs("\"trace\":", out);
			put_str(out, p->trace);
			fprintf(out, ",\"as_of_ns\":%" PRIu64 ",", p->as_of_ns);
		}
		fputs("\"comm\":", out);
		put_str(out, p->comm);
		fprintf(out, ",\"kernel_thread\":%s,\"total_ns\":%" PRIu64
			",\"coverage\":", p->kernel_thread ? "true" : "false",
			p->total_ns);
		put_coverage(out, &p->coverage);
		put_uncharged(out, &p->user_requested);
		put_stopped(out, &p->stopped);
		fputs(",\"reasons\":", out);
		put_rows(out, p->rows, p->nr_rows, true, "  ");
		fputs(",\"threads\":[", out);
		for (j = 0; j < p->nr_threads; j++) {
			const struct lt_report_thread *t = &p->threads[j];

			fprintf(out, "%s\n  {\"tid\":%d,\"comm\":", j ? "," : "", t->tid);
			put_str(out, t->comm);
			fprintf(out, ",\"total_ns\":%" PRIu64, t->total_ns);
			put_uncharged(out, &t->user_requested);
			put_stopped(out, &t->stopped);
			fputs(",\"reasons\":", out);
			put_rows(out, t->rows, t->nr_rows, false, "   ");
			fputc('}', out);
		}
		fputs("]}", out);
	}
	fputs("]", out);
	if (v->nr_commands)
		put_commands(out, v);
}

static void put_i64_or_null(FILE *out, int64_t v)
{
	if (v < 0)
		fputs("null", out);
	else
		fprintf(out, "%" PRId64, v);
}

static const char *sort_name(enum lt_sort s)
{
	switch (s) {
	case LT_SORT_TOTAL:
		return "total";
	case LT_SORT_COUNT:
		return "count";
	case LT_SORT_AVG:
		return "avg";
	default:
		return "max";
	}
}

int lt_report_write_json(const struct lt_report *r, FILE *out)
{
	const struct lt_options *o = &r->options;
	char id[LT_REPORT_ID_LEN];
	size_t i;
	int cpu;

	fprintf(out, "{\"schema\":\"%s\",\"generator\":\"latency-analyze %s\",\n",
		LT_REPORT_SCHEMA, LT_VERSION_STRING);
	fprintf(out, "\"trace\":{\"id\":\"%s\",\"path\":",
		lt_report_id_of(r, id, sizeof(id)));
	put_str(out, r->path);
	fputs(",\"format\":", out);
	put_str(out, lt_report_format(r));
	fprintf(out, ",\"file_version\":%d,\"compression\":", r->file_version);
	put_str(out, r->compression);
	/* the buffer read (null: the top level) and the others (null: none) */
	fputs(",\"buffer\":", out);
	if (r->buffer)
		put_str(out, r->buffer);
	else
		fputs("null", out);
	fputs(",\"other_buffers\":", out);
	if (r->other_buffers)
		put_str(out, r->other_buffers);
	else
		fputs("null", out);
	fputs(",\"uname\":", out);
	put_str(out, r->uname);
	fputs(",\"clock\":", out);
	put_str(out, r->clock);
	fprintf(out, ",\"cpus\":%d,\"start_ns\":%" PRIu64 ",\"end_ns\":%" PRIu64
		",\"duration_ns\":%" PRIu64 ",\"events\":%" PRIu64
		",\"stopped_at_to\":%s"
		",\"lost_events\":%" PRIu64 ",\"lost_gaps_unknown\":%" PRIu64
		",\"lost_gaps\":%" PRIu64 ",\"complete_from_ns\":%" PRIu64
		",\"lost_events_per_cpu\":[", r->cpus, r->start_ns, r->end_ns,
		r->end_ns - r->start_ns, r->events,
		r->stopped_at_to ? "true" : "false", r->lost_events,
		r->lost_gaps_unknown, r->lost_gaps, r->complete_from_ns);
	for (cpu = 0; cpu < r->nr_lost_cpus; cpu++)
		fprintf(out, "%s%" PRIu64, cpu ? "," : "", r->lost_per_cpu[cpu]);
	fputs("],\"overruns_per_cpu\":[", out);
	for (cpu = 0; r->overrun_per_cpu && cpu < r->cpus; cpu++) {
		if (cpu)
			fputc(',', out);
		if (r->overrun_per_cpu[cpu] < 0)
			fputs("null", out);
		else
			fprintf(out, "%" PRId64, r->overrun_per_cpu[cpu]);
	}
	/* --partial: where each CPU's data ends early, 0 for none */
	fputs("],\"cpu_data_end_ns\":[", out);
	for (cpu = 0; r->cpu_data_end && cpu < r->cpus; cpu++)
		fprintf(out, "%s%" PRIu64, cpu ? "," : "", r->cpu_data_end[cpu]);
	fputs("],\"sources\":[", out);
	for (i = 0; i < r->nr_sources; i++) {
		fprintf(out, "%s{\"event\":", i ? "," : "");
		put_str(out, r->sources[i].event);
		fprintf(out, ",\"count\":%" PRIu64 "}", r->sources[i].count);
	}
	fputs("],\"missing\":[", out);
	for (i = 0; i < r->nr_missing; i++) {
		fprintf(out, "%s{\"what\":", i ? "," : "");
		put_str(out, r->missing[i].what);
		fputs(",\"effect\":", out);
		put_str(out, r->missing[i].effect);
		fputs(",\"option\":", out);
		put_str(out, r->missing[i].option);
		fputc('}', out);
	}
	fputs("],\"record_hint\":", out);
	if (r->record_hint)
		put_str(out, r->record_hint);
	else
		fputs("null", out);
	fputs("},\n", out);

	fprintf(out, "\"options\":{\"sort\":\"%s\",\"sleep_cutoff_ns\":%" PRIu64
		",\"honour_maxtime\":%s,\"charge_stopped\":%s,\"kernel_threads\":%s,"
		"\"window_ns\":%" PRIu64 ",\"from_ns\":", sort_name(o->sort),
		o->sleep_cutoff_ns, o->honour_maxtime ? "true" : "false",
		o->charge_stopped ? "true" : "false",
		o->kernel_threads ? "true" : "false", o->window_ns);
	put_i64_or_null(out, o->from_ns);
	fputs(",\"to_ns\":", out);
	put_i64_or_null(out, o->to_ns);
	/* --pid, --tid, --comm: the tables count only the tasks they chose */
	fputs(",\"pids\":[", out);
	for (i = 0; i < o->tasks.nr_pids; i++)
		fprintf(out, "%s%d", i ? "," : "", o->tasks.pids[i]);
	fputs("],\"tids\":[", out);
	for (i = 0; i < o->tasks.nr_tids; i++)
		fprintf(out, "%s%d", i ? "," : "", o->tasks.tids[i]);
	fputs("],\"comms\":[", out);
	for (i = 0; i < o->tasks.nr_comms; i++) {
		fputs(i ? "," : "", out);
		put_str(out, o->tasks.comms[i]);
	}
	fputs("]},\n", out);

	fprintf(out, "\"dropped\":{\"interruptible_over_cutoff\":%" PRIu64
		",\"interruptible_over_cutoff_ns\":%" PRIu64
		",\"over_maxtime\":%" PRIu64 ",\"over_maxtime_ns\":%" PRIu64
		",\"began_before_trace\":%" PRIu64 ",\"unfinished\":%" PRIu64
		",\"no_switch_in\":%" PRIu64
		",\"cpu_waits_no_switch_in\":%" PRIu64
		",\"cpu_waits_preempted_or_new\":%" PRIu64
		",\"cpu_waits_preempted_or_new_ns\":%" PRIu64
		",\"before_complete\":%" PRIu64
		",\"before_complete_ns\":%" PRIu64
		",\"across_lost_events\":%" PRIu64
		",\"across_lost_events_ns\":%" PRIu64
		",\"discarded_after_lost_events\":%" PRIu64
		",\"stopped\":%" PRIu64 ",\"stopped_ns\":%" PRIu64
		",\"stopped_by_signal\":%" PRIu64
		",\"stopped_by_signal_ns\":%" PRIu64
		",\"stopped_for_tracer\":%" PRIu64
		",\"stopped_for_tracer_ns\":%" PRIu64
		",\"unknown_state\":%" PRIu64 ",\"unknown_state_ns\":%" PRIu64
		",\"charged_lower_bound\":%" PRIu64
		",\"charged_lower_bound_ns\":%" PRIu64
		",\"reason_stack_resyncs\":%" PRIu64
		",\"unmatched_restores\":%" PRIu64
		",\"inconsistent_transitions\":%" PRIu64
		",\"unordered_timestamps\":%" PRIu64
		",\"damaged_records\":%" PRIu64 "},\n",
		r->dropped_interruptible, r->dropped_interruptible_ns,
		r->dropped_maxtime, r->dropped_maxtime_ns, r->began_before_trace,
		r->unfinished, r->no_switch_in, r->cpu_waits_no_switch_in,
		r->cpu_waits_unwoken, r->cpu_waits_unwoken_ns,
		r->dropped_incomplete, r->dropped_incomplete_ns,
		r->dropped_gap, r->dropped_gap_ns,
		r->discarded_lost,
		r->stopped_signal + r->stopped_tracer,
		r->stopped_signal_ns + r->stopped_tracer_ns,
		r->stopped_signal, r->stopped_signal_ns,
		r->stopped_tracer, r->stopped_tracer_ns,
		r->unknown_state, r->unknown_state_ns,
		r->lower_bound, r->lower_bound_ns, r->resync,
		r->unmatched_restore, r->inconsistent, r->unordered,
		r->damaged_records);
	fprintf(out, "\"partial\":%s,\"partial_reason\":", r->partial ? "true" : "false");
	if (r->partial)
		put_str(out, r->partial_reason);
	else
		fputs("null", out);
	fputs(",\n", out);

	if (r->nr_traces)
		put_traces(out, r);
	put_view(out, &r->whole);
	fputs(",\n\"windows\":[", out);
	for (i = 0; i < r->nr_windows; i++) {
		fprintf(out, "%s\n{\"index\":%zu,", i ? "," : "", i);
		put_view(out, &r->windows[i]);
		fputc('}', out);
	}
	fputs("]}\n", out);
	return ferror(out) ? -1 : 0;
}
