// SPDX-License-Identifier: LGPL-2.1
/*
 * write-diff.c - a diff (lt_diff_make()) as text, one table per
 * global/command/process scope with its causes by how much worse they
 * got, and as JSON, schema "latencytop-diff/1" (docs/report-schema.md).
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "writers-local.h"

/* The Cause column: as wide as the widest shown, within these. */
#define CAUSE_MIN_W 20
#define CAUSE_MAX_W 40

static const char *const scope_names[LT_DIFF_SCOPES] = {
	[LT_DIFF_GLOBAL] = "global",
	[LT_DIFF_COMMAND] = "command",
	[LT_DIFF_PROCESS] = "process",
};

static const char *const status_names[] = {
	[LT_DIFF_SAME] = "same",
	[LT_DIFF_CHANGED] = "changed",
	[LT_DIFF_NEW] = "new",
	[LT_DIFF_VANISHED] = "vanished",
};

static bool shown(const struct lt_diff *d, const struct lt_diff_row *r)
{
	return d->all || r->status != LT_DIFF_SAME;
}

static bool same_table(const struct lt_diff_row *a, const struct lt_diff_row *b)
{
	return a->scope == b->scope && a->pid == b->pid &&
	       a->kernel_thread == b->kernel_thread &&
	       !strcmp(a->comm ? a->comm : "", b->comm ? b->comm : "");
}

static void text_str(FILE *out, const char *s)
{
	while (s && *s)
		fputc(lt_shown(&s), out);
}

/* ---- text ----------------------------------------------------------- */

/* "+12.3 ms", "-1.0 s", "=" */
static char *fmt_time_change(char *buf, size_t len, uint64_t b, uint64_t a)
{
	char d[32];

	if (a == b)
		return snprintf(buf, len, "="), buf;
	snprintf(buf, len, "%c%s", a > b ? '+' : '-',
		 lt_format_duration(d, sizeof(d), a > b ? a - b : b - a));
	return buf;
}

/* "+20.5%", "new", "gone", "=" */
static char *fmt_rel_change(char *buf, size_t len, const struct lt_diff_row *r,
			    uint64_t b, uint64_t a)
{
	if (r->status == LT_DIFF_NEW)
		snprintf(buf, len, "new");
	else if (r->status == LT_DIFF_VANISHED)
		snprintf(buf, len, "gone");
	else if (a == b)
		snprintf(buf, len, "=");
	else if (!b)
		snprintf(buf, len, "+inf");
	else
		snprintf(buf, len, "%+.1f%%", ((double)a - (double)b) / (double)b * 100);
	return buf;
}

static bool pct_unknown(const struct lt_report_row *s)
{
	return s->no_percentiles && s->count;
}

static void put_pct(FILE *out, const struct lt_diff_row *r, uint64_t b,
		    uint64_t a)
{
	char v[32], c[32];

	if (pct_unknown(&r->before) || pct_unknown(&r->after)) {
		fprintf(out, " %9s %7s", pct_unknown(&r->after) ? "?" :
			lt_format_duration(v, sizeof(v), a), "?");
		return;
	}
	fprintf(out, " %9s %7s", lt_format_duration(v, sizeof(v), a),
		fmt_rel_change(c, sizeof(c), r, b, a));
}

static const char *tag_of(const struct lt_diff_row *r)
{
	return r->status == LT_DIFF_NEW ? " (new)" :
	       r->status == LT_DIFF_VANISHED ? " (gone)" : "";
}

static int cause_width(const struct lt_diff *d)
{
	struct lt_report_row row = { 0 };
	char cause[256];
	size_t i, w, widest = CAUSE_MIN_W;

	for (i = 0; i < d->nr_rows; i++) {
		if (!shown(d, &d->rows[i]))
			continue;
		row.reason = d->rows[i].reason;
		row.argument = d->rows[i].argument;
		w = lt_text_width(lt_format_cause(cause, sizeof(cause), &row, 0)) +
		    strlen(tag_of(&d->rows[i]));
		if (w > widest)
			widest = w;
	}
	return widest > CAUSE_MAX_W ? CAUSE_MAX_W : (int)widest;
}

static void text_row(FILE *out, const struct lt_diff_row *r, int cause_w)
{
	struct lt_report_row shown_row = { .reason = r->reason,
					   .argument = r->argument };
	const char *tag = tag_of(r);
	char cause[256], v[32], c[32];
	size_t w;
	int64_t dc;

	/* the tag is part of the cause's column: the name is cut to fit */
	w = (size_t)cause_w - strlen(tag);
	lt_format_cause(cause, sizeof(cause), &shown_row, w);
	fprintf(out, "%c %s%s%*s", r->crossed ? '!' : ' ', cause, tag,
		(int)(w - lt_text_width(cause)), "");
	fprintf(out, " %9s %9s", lt_format_duration(v, sizeof(v), r->after.total_ns),
		fmt_time_change(c, sizeof(c), r->before.total_ns, r->after.total_ns));
	dc = (int64_t)r->after.count - (int64_t)r->before.count;
	if (dc)
		snprintf(c, sizeof(c), "%+" PRId64, dc);
	else
		snprintf(c, sizeof(c), "=");
	fprintf(out, " %7" PRIu64 " %7s", r->after.count, c);
	fprintf(out, " %9s %7s", lt_format_duration(v, sizeof(v), r->after.max_ns),
		fmt_rel_change(c, sizeof(c), r, r->before.max_ns, r->after.max_ns));
	put_pct(out, r, r->before.p50_ns, r->after.p50_ns);
	put_pct(out, r, r->before.p99_ns, r->after.p99_ns);
	if (r->after.percent == r->before.percent)
		snprintf(c, sizeof(c), "=");
	else
		snprintf(c, sizeof(c), "%+.1f", r->after.percent - r->before.percent);
	fprintf(out, " %5.1f%% %6s\n", r->after.percent, c);
}

static void text_table_head(FILE *out, const struct lt_diff *d,
			    const struct lt_diff_row *first, size_t n,
			    int cause_w)
{
	uint64_t b = 0, a = 0;
	char vb[32], va[32], c[32];
	size_t i;

	for (i = 0; i < n; i++) {
		b += first[i].before.total_ns;
		a += first[i].after.total_ns;
	}
	fputc('\n', out);
	switch (first->scope) {
	case LT_DIFF_GLOBAL:
		fprintf(out, "Global latencies (kernel threads %s)",
			d->after->options.kernel_threads ? "included" : "excluded");
		break;
	case LT_DIFF_COMMAND:
		fputs("Command ", out);
		text_str(out, first->comm);
		fputs(first->kernel_thread ? " [kernel thread]" : "", out);
		break;
	default:
		fputs("Process ", out);
		text_str(out, first->comm);
		fprintf(out, " (%d)%s", first->pid,
			first->kernel_thread ? " [kernel thread]" : "");
		break;
	}
	fprintf(out, ": %s -> %s (%s)\n", lt_format_duration(vb, sizeof(vb), b),
		lt_format_duration(va, sizeof(va), a),
		fmt_time_change(c, sizeof(c), b, a));
	fprintf(out, "  %-*s %9s %9s %7s %7s %9s %7s %9s %7s %9s %7s %6s %6s\n",
		cause_w, "Cause", "Total", "Change", "Count", "Change", "Maximum",
		"Change", "p50", "Change", "p99", "Change", "Share", "Change");
}

static void text_side(FILE *out, const char *head, const char *name,
		      const struct lt_report *r)
{
	char dur[32], at[32];

	fprintf(out, "%-10s", head);
	text_str(out, name);
	/* traces of many machines: one's start to another's end is no span */
	if (r->nr_traces > 1)
		fprintf(out, ": %" PRIu64 " reports of %zu traces, %" PRIu64
			" events, trace %s", r->merged_reports, r->nr_traces,
			r->events, r->id);
	else
		fprintf(out, ": %s from %s, %" PRIu64 " events, trace %s",
			lt_format_duration(dur, sizeof(dur),
					   r->whole.end_ns - r->whole.start_ns),
			lt_format_stamp(at, sizeof(at), r->whole.start_ns),
			r->events, r->id);
	if (r->nr_traces <= 1 && r->merged_reports > 1)
		fprintf(out, " (%" PRIu64 " reports merged)", r->merged_reports);
	/* a damaged trace read up to its damage: its side is not all of it */
	if (r->partial) {
		fputs(", PARTIAL: ", out);
		text_str(out, r->partial_reason ? r->partial_reason : "damaged");
	}
	fputc('\n', out);
}

int lt_diff_write_text(const struct lt_diff *d, FILE *out)
{
	const struct lt_options *ob = &d->before->options, *oa = &d->after->options;
	size_t i, j, k, shown_rows = 0;
	int cause_w = cause_width(d);

	fprintf(out, "latency-analyze %s: diff\n", LT_VERSION_STRING);
	text_side(out, "Before:", d->before_name, d->before);
	text_side(out, "After:", d->after_name, d->after);
	if (ob->sleep_cutoff_ns != oa->sleep_cutoff_ns ||
	    ob->honour_maxtime != oa->honour_maxtime ||
	    ob->kernel_threads != oa->kernel_threads)
		fputs("Options:  the two were made with different accounting "
		      "options: some changes are theirs\n", out);
	fprintf(out, "Causes:   %zu changed, %zu new, %zu vanished, %zu the same\n",
		d->nr_by_status[LT_DIFF_CHANGED], d->nr_by_status[LT_DIFF_NEW],
		d->nr_by_status[LT_DIFF_VANISHED], d->nr_by_status[LT_DIFF_SAME]);
	for (i = 0; i < d->nr_checks; i++)
		fprintf(out, "%-10s%s: %s (%zu cause%s, marked !)\n",
			i ? "" : "Fail-on:", d->checks[i].expr,
			d->checks[i].crossed ? "CROSSED" : "not crossed",
			d->checks[i].crossed, d->checks[i].crossed == 1 ? "" : "s");
	for (i = 0; i < d->nr_rows; i = j) {
		size_t n = 0;

		for (j = i; j < d->nr_rows && same_table(&d->rows[i], &d->rows[j]); j++)
			n += shown(d, &d->rows[j]);
		if (!n)
			continue;
		text_table_head(out, d, &d->rows[i], j - i, cause_w);
		for (k = i; k < j; k++)
			if (shown(d, &d->rows[k]))
				text_row(out, &d->rows[k], cause_w);
		shown_rows += n;
	}
	if (!shown_rows)
		fputs("\nNo change.\n", out);
	return ferror(out) ? -1 : 0;
}

/* ---- JSON ------------------------------------------------------------- */

/* A side's figures, as the field table has them. */
static void json_side(FILE *out, const struct lt_report_row *s)
{
	const struct lt_row_field *f;
	const char *sep = "{";

	lt_for_each_row_field(f) {
		if (!f->figure)
			continue;
		fprintf(out, "%s\"%s\":", sep, f->diff_key);
		sep = ",";
		if (f->nullable && pct_unknown(s))
			fputs("null", out);
		else
			lt_row_field_put(out, f, s);
	}
	fputc('}', out);
}

/* after - before, exact in JSON's integers (a string would do no better) */
static void json_delta(FILE *out, const char *key, uint64_t b, uint64_t a,
		       bool unknown)
{
	if (unknown)
		fprintf(out, "\"%s\":null", key);
	else if (a >= b)
		fprintf(out, "\"%s\":%" PRIu64, key, a - b);
	else
		fprintf(out, "\"%s\":-%" PRIu64, key, b - a);
}

static void json_rel(FILE *out, const char *key, uint64_t b, uint64_t a,
		     bool unknown)
{
	if (unknown || !b)
		fprintf(out, ",\"%s\":null", key);
	else
		fprintf(out, ",\"%s\":%.3f", key, ((double)a - (double)b) / (double)b * 100);
}

/*
 * The figures of the field table a change has: after - before (a
 * percent's in points), then relative to before, in percent, as
 * FIGURE_pct (not a percent's: its points say it).
 */
static void json_change(FILE *out, const struct lt_diff_row *r)
{
	bool pu = pct_unknown(&r->before) || pct_unknown(&r->after);
	const struct lt_row_field *f;
	const char *sep = "";
	char key[64];

	fputc('{', out);
	lt_for_each_row_field(f) {
		if (!f->change)
			continue;
		fputs(sep, out);
		sep = ",";
		if (f->type == LT_RF_U64)
			json_delta(out, f->diff_key, lt_row_field_u64(f, &r->before),
				   lt_row_field_u64(f, &r->after), f->nullable && pu);
		else
			fprintf(out, "\"%s\":%.3f", f->diff_key,
				lt_row_field_value(f, &r->after) -
				lt_row_field_value(f, &r->before));
	}
	lt_for_each_row_field(f) {
		if (!f->change || f->type != LT_RF_U64)
			continue;
		snprintf(key, sizeof(key), "%s_pct", f->figure);
		json_rel(out, key, lt_row_field_u64(f, &r->before),
			 lt_row_field_u64(f, &r->after), f->nullable && pu);
	}
	fputc('}', out);
}

static void json_report(FILE *out, const char *name, const struct lt_report *r)
{
	fputs("{\"name\":", out);
	lt_report_json_str(out, name);
	fputs(",\"schema\":", out);
	lt_report_json_str(out, r->schema);
	fputs(",\"trace_id\":", out);
	lt_report_json_str(out, r->id);
	fprintf(out, ",\"start_ns\":%" PRIu64 ",\"end_ns\":%" PRIu64
		",\"events\":%" PRIu64 ",\"merged_reports\":%" PRIu64
		",\"options\":{\"sleep_cutoff_ns\":%" PRIu64
		",\"honour_maxtime\":%s,\"kernel_threads\":%s}",
		r->whole.start_ns, r->whole.end_ns, r->events,
		r->merged_reports ? r->merged_reports : 1,
		r->options.sleep_cutoff_ns,
		r->options.honour_maxtime ? "true" : "false",
		r->options.kernel_threads ? "true" : "false");
	fprintf(out, ",\"partial\":%s,\"partial_reason\":",
		r->partial ? "true" : "false");
	if (r->partial && r->partial_reason)
		lt_report_json_str(out, r->partial_reason);
	else
		fputs("null", out);
	fputc('}', out);
}

int lt_diff_write_json(const struct lt_diff *d, FILE *out)
{
	size_t i, k, n = 0;
	int s;

	fprintf(out, "{\"schema\":\"%s\",\"generator\":\"latency-analyze %s\",\n"
		"\"before\":", LT_DIFF_SCHEMA, LT_VERSION_STRING);
	json_report(out, d->before_name, d->before);
	fputs(",\n\"after\":", out);
	json_report(out, d->after_name, d->after);
	fputs(",\n\"scopes\":[", out);
	for (s = 0, k = 0; s < LT_DIFF_SCOPES; s++)
		if (d->scopes & LT_DIFF_SCOPE_BIT(s))
			fprintf(out, "%s\"%s\"", k++ ? "," : "", scope_names[s]);
	fprintf(out, "],\n\"summary\":{\"changed\":%zu,\"new\":%zu,\"vanished\":%zu,"
		"\"same\":%zu},\n\"fail_on\":[", d->nr_by_status[LT_DIFF_CHANGED],
		d->nr_by_status[LT_DIFF_NEW], d->nr_by_status[LT_DIFF_VANISHED],
		d->nr_by_status[LT_DIFF_SAME]);
	for (i = 0; i < d->nr_checks; i++) {
		fprintf(out, "%s{\"expr\":", i ? "," : "");
		lt_report_json_str(out, d->checks[i].expr);
		fprintf(out, ",\"crossed\":%zu}", d->checks[i].crossed);
	}
	fputs("],\n\"changes\":[", out);
	for (i = 0; i < d->nr_rows; i++) {
		const struct lt_diff_row *r = &d->rows[i];

		if (!shown(d, r))
			continue;
		fprintf(out, "%s\n{\"scope\":\"%s\",\"comm\":", n++ ? "," : "",
			scope_names[r->scope]);
		if (r->comm)
			lt_report_json_str(out, r->comm);
		else
			fputs("null", out);
		if (r->scope == LT_DIFF_PROCESS)
			fprintf(out, ",\"pid\":%d", r->pid);
		else
			fputs(",\"pid\":null", out);
		fprintf(out, ",\"kernel_thread\":%s,\"reason\":",
			r->kernel_thread ? "true" : "false");
		lt_report_json_str(out, r->reason);
		fputs(",\"argument\":", out);
		lt_report_json_str(out, r->argument);
		fprintf(out, ",\"kind\":\"%s\",\"status\":\"%s\",\"before\":",
			lt_cause_kind_name(r->kind), status_names[r->status]);
		json_side(out, &r->before);
		fputs(",\"after\":", out);
		json_side(out, &r->after);
		fputs(",\"change\":", out);
		json_change(out, r);
		fputs(",\"crossed\":[", out);
		for (k = 0, s = 0; k < d->nr_checks; k++)
			if (r->crossed & (1u << k)) {
				fputs(s++ ? "," : "", out);
				lt_report_json_str(out, d->checks[k].expr);
			}
		fputs("]}", out);
	}
	fputs("]}\n", out);
	return ferror(out) ? -1 : 0;
}
