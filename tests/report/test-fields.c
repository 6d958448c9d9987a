// SPDX-License-Identifier: GPL-2.0
/*
 * test-fields.c - the row-field table (lt_row_fields, report-fields.c):
 * every scalar statistic of struct lt_report_row in it once, the JSON
 * and CSV writers' columns and the reader's fields its own, merges by
 * its rules, and --fail-on's figures and a diff's keys from it.
 */
#define _GNU_SOURCE	/* open_memstream() */
#include <stdlib.h>
#include <string.h>

#include "lt-hist.h"
#include "lt-json.h"
#include "lt-report.h"
#include "lt-test.h"

#define NR(a)	(sizeof(a) / sizeof((a)[0]))

static size_t type_size(enum lt_rf_type t)
{
	return t == LT_RF_U64 ? sizeof(uint64_t) : t == LT_RF_INT ? sizeof(int) :
	       sizeof(double);
}

/* The members of a row that are not scalar statistics, with their layout. */
#define MEMBER(m) { #m, offsetof(struct lt_report_row, m),		\
		    sizeof(((struct lt_report_row *)0)->m),		\
		    __alignof__(((struct lt_report_row *)0)->m) }
static const struct {
	const char *name;
	size_t offset, size, align;
} others[] = {
	MEMBER(reason), MEMBER(argument), MEMBER(kind),	/* the cause */
	MEMBER(worst), MEMBER(nr_worst),		/* lists */
	MEMBER(stacks), MEMBER(nr_stacks),
	MEMBER(buckets), MEMBER(nr_buckets), MEMBER(min_ns),	/* the histogram */
	MEMBER(no_percentiles),				/* what nulls the percentiles */
	MEMBER(waited_for), MEMBER(nr_waited_for),	/* the trees (1.3) */
	MEMBER(ran_instead), MEMBER(nr_ran_instead),
};

/*
 * The table and the other members cover every byte of the struct once,
 * leaving only alignment padding: a statistic added to the struct and
 * not to the table (or not here) leaves bytes no padding explains.  (An
 * int in the hole after another int would pass: a limit of C.)
 */
static void test_coverage(void)
{
	unsigned char owner[sizeof(struct lt_report_row)];
	size_t align[sizeof(struct lt_report_row) + 1];
	const struct lt_row_field *f;
	size_t i, k, run;

	lt_test_case = "coverage";
	memset(owner, 0, sizeof(owner));
	memset(align, 0, sizeof(align));
	lt_for_each_row_field(f) {
		CHECK(f->offset + type_size(f->type) <= sizeof(owner));
		for (k = 0; k < type_size(f->type); k++)
			CHECK(!owner[f->offset + k]++);
		align[f->offset] = type_size(f->type);
	}
	for (i = 0; i < NR(others); i++) {
		for (k = 0; k < others[i].size; k++)
			if (owner[others[i].offset + k]++) {
				fprintf(stderr, "  %s overlaps a field\n", others[i].name);
				lt_test_failures++;
			}
		align[others[i].offset] = others[i].align;
	}
	align[sizeof(owner)] = __alignof__(struct lt_report_row);
	for (i = 0, run = 0; i <= sizeof(owner); i++) {
		if (i < sizeof(owner) && !owner[i]) {
			run++;
			continue;
		}
		/* padding is shorter than what the next member needs */
		if (run && run >= align[i]) {
			fprintf(stderr, "  %zu bytes at %zu are in no field: a "
				"statistic missing from lt_row_fields?\n", run, i - run);
			lt_test_failures++;
		}
		run = 0;
	}
}

/* The table's own rules: each column as its users rely on it. */
static void test_table(void)
{
	const struct lt_row_field *f, *g;
	unsigned int nmax = 0;

	lt_test_case = "table";
	CHECK(lt_nr_row_fields >= 10);
	lt_for_each_row_field(f) {
		for (g = lt_row_fields; g < f; g++) {
			CHECK(strcmp(f->key, g->key));
			CHECK(f->offset != g->offset);
			CHECK(!f->figure || !g->figure || strcmp(f->figure, g->figure));
		}
		/* the percentiles, and only they, are null without a histogram */
		CHECK(f->nullable == (f->merge == LT_RF_QUANTILE));
		if (f->merge == LT_RF_QUANTILE)
			CHECK(f->q > 0 && f->q < 1);
		/* what merging adds, compares or makes again is a uint64_t */
		if (f->merge == LT_RF_SUM || f->merge == LT_RF_MAX ||
		    f->merge == LT_RF_AVG || f->merge == LT_RF_QUANTILE)
			CHECK(f->type == LT_RF_U64);
		if (f->merge == LT_RF_SHARE)
			CHECK(f->type == LT_RF_DOUBLE && f->unit == LT_RF_POINTS);
		nmax += f->merge == LT_RF_MAX;
		/* a figure has a diff key; a change is of a figure */
		CHECK(!f->figure == !f->diff_key);
		CHECK(!f->change || f->figure);
		if (f->unit == LT_RF_NS || f->unit == LT_RF_WAITS)
			CHECK(f->type == LT_RF_U64);
		CHECK(lt_row_field_by_figure(f->figure ? f->figure : "", f->figure ?
					     strlen(f->figure) : 0) ==
		      (f->figure ? f : NULL));
	}
	CHECK(nmax == 1);	/* the longest wait */
	/* a diff orders causes by these */
	CHECK(lt_row_field_by_figure("total", 5) != NULL);
	CHECK(lt_row_field_by_figure("p99", 3) != NULL);
	CHECK(lt_row_field_by_figure("count", 5) != NULL);
	CHECK(lt_row_field_by_figure("p9", 2) == NULL);
}

/* ---- reports made by hand ------------------------------------------- */

static const char skeleton[] =
	"{\"schema\":\"latencytop-report/1.1\","
	"\"trace\":{\"id\":\"t1\",\"path\":\"t.dat\",\"cpus\":1,\"start_ns\":0,"
	"\"end_ns\":100000},"
	"\"options\":{\"sort\":\"max\",\"sleep_cutoff_ns\":5000000},"
	"\"start_ns\":0,\"end_ns\":100000,\"global\":[],"
	"\"processes\":[{\"pid\":10,\"comm\":\"a\",\"kernel_thread\":false,"
	"\"reasons\":[{\"reason\":\"X\",\"argument\":\"\",\"kind\":\"annotated\"},"
	"{\"reason\":\"Y\",\"argument\":\"\",\"kind\":\"unknown\"}]}]}";

static struct lt_report *parse_report(const char *text, const char *name)
{
	struct lt_error err = { 0 };
	struct lt_report *r = NULL;

	if (lt_report_parse_json(text, strlen(text), name, &r, &err) < 0) {
		fprintf(stderr, "  %s: %s\n", name, err.msg);
		lt_test_failures++;
		return NULL;
	}
	return r;
}

/* Room for a row's histogram made by hand. */
struct hist_buf {
	struct lt_report_bucket b[64];
};

/*
 * Row @row made of the waits @ns[0..n) as report.c makes one (count,
 * total, longest, average, percentiles, histogram), its longest wait at
 * @at by @tid; no histogram if !@hb.
 */
static void make_row(struct lt_report_row *row, const uint64_t *ns, size_t n,
		     uint64_t at, int tid, struct hist_buf *hb)
{
	const struct lt_row_field *f;
	struct lt_hist h;
	unsigned int i, k = 0;

	lt_hist_init(&h);
	row->count = row->total_ns = row->max_ns = 0;
	for (i = 0; i < n; i++) {
		CHECK(lt_hist_add(&h, ns[i]) == 0);
		row->count++;
		row->total_ns += ns[i];
		if (ns[i] > row->max_ns)
			row->max_ns = ns[i];
	}
	row->avg_ns = row->count ? row->total_ns / row->count : 0;
	row->max_at_ns = at;
	row->max_tid = tid;
	lt_for_each_row_field(f)
		if (f->merge == LT_RF_QUANTILE)
			lt_row_field_set_u64(f, row, lt_hist_quantile(&h, f->q));
	row->buckets = NULL;
	row->nr_buckets = 0;
	if (hb) {
		for (i = 0; i < h.n; i++)
			if (h.counts[i]) {
				hb->b[k].low_ns = lt_hist_bucket_low(h.lo + i);
				hb->b[k++].count = h.counts[i];
			}
		row->buckets = hb->b;
		row->nr_buckets = k;
		row->min_ns = h.min;
	}
	lt_hist_free(&h);
}

static char *written(const struct lt_report *r, enum lt_format fmt)
{
	struct lt_error err = { 0 };
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		return NULL;
	CHECK(lt_report_write(r, fmt, f, &err) == 0);
	fclose(f);
	return buf;
}

static const struct lt_report_row *find_row(const struct lt_report_row *rows,
					    size_t nr, const char *reason)
{
	size_t i;

	for (i = 0; i < nr; i++)
		if (!strcmp(rows[i].reason, reason))
			return &rows[i];
	return NULL;
}

/* ---- writers and reader ----------------------------------------------- */

/*
 * A row's JSON: its scalar members are the table's keys, in its order,
 * null where the table says when percentiles are unknown; read back,
 * every field but the share (made again) is as written.
 */
static void check_json_row(const struct lt_json *o, const struct lt_report_row *want,
			   const struct lt_report_row *back)
{
	const struct lt_row_field *f = lt_row_fields;
	const struct lt_json *m;

	for (m = o->child; m; m = m->next) {
		if (m->type != LT_JSON_NUMBER && m->type != LT_JSON_NULL)
			continue;
		CHECK(f < lt_row_fields + lt_nr_row_fields);
		if (f == lt_row_fields + lt_nr_row_fields)
			break;
		CHECK_STR(m->key, f->key);
		CHECK((m->type == LT_JSON_NULL) == (f->nullable && want->no_percentiles));
		f++;
	}
	CHECK(f == lt_row_fields + lt_nr_row_fields);
	lt_for_each_row_field(f) {
		if (f->merge == LT_RF_SHARE || (f->nullable && want->no_percentiles))
			continue;
		if (lt_row_field_cmp(f, want, back)) {
			fprintf(stderr, "  %s not read back as written\n", f->key);
			lt_test_failures++;
		}
	}
	CHECK(back->no_percentiles == want->no_percentiles);
}

static void test_writers(void)
{
	static const uint64_t wx[] = { 1000, 2500, 40000 }, wy[] = { 7 };
	struct hist_buf hx;
	struct lt_report *r, *back;
	struct lt_report_process *p;
	const struct lt_row_field *f;
	struct lt_json *root;
	char *json, *csv, msg[256], head[512];
	size_t n = 0;
	int pass;

	lt_test_case = "writers";
	for (pass = 0; pass < 2; pass++) {
		r = parse_report(skeleton, "w.json");
		if (!r)
			return;
		p = &r->whole.processes[0];
		CHECK(p->nr_rows == 2);
		make_row(&p->rows[0], wx, NR(wx), 99000, 11, &hx);
		make_row(&p->rows[1], wy, NR(wy), 12, 12, NULL);
		p->rows[0].percent = 12.3456;
		/* the second pass: percentiles unknown (a merge without histograms) */
		p->rows[1].no_percentiles = pass;
		json = written(r, LT_FORMAT_JSON);
		root = json ? lt_json_parse(json, strlen(json), msg, sizeof(msg), NULL) : NULL;
		CHECK(root != NULL);
		back = json ? parse_report(json, "back.json") : NULL;
		if (root && back) {
			const struct lt_json *rows = lt_json_get(
				lt_json_get(root, "processes")->child, "reasons");
			const struct lt_report_process *bp = &back->whole.processes[0];

			CHECK(rows && rows->nr == 2 && bp->nr_rows == 2);
			if (rows && rows->nr == 2 && bp->nr_rows == 2) {
				/* sorted by max: X first */
				check_json_row(rows->child, &p->rows[0], &bp->rows[0]);
				check_json_row(rows->child->next, &p->rows[1], &bp->rows[1]);
			}
		}
		lt_json_free(root);
		lt_report_free(back);
		free(json);

		/* CSV: the row's columns, kernel_thread, then those added since */
		csv = written(r, LT_FORMAT_CSV);
		n = (size_t)snprintf(head, sizeof(head), "view,start_ns,end_ns,scope,"
				     "pid,tid,comm,reason,argument,kind");
		lt_for_each_row_field(f)
			if (f->csv == LT_RF_CSV_ROW)
				n += (size_t)snprintf(head + n, sizeof(head) - n, ",%s", f->key);
		n += (size_t)snprintf(head + n, sizeof(head) - n, ",kernel_thread");
		lt_for_each_row_field(f)
			if (f->csv == LT_RF_CSV_END)
				n += (size_t)snprintf(head + n, sizeof(head) - n, ",%s", f->key);
		snprintf(head + n, sizeof(head) - n, "\n");
		CHECK(csv && !strncmp(csv, head, strlen(head)));
		/* the row without percentiles: three empty columns */
		if (pass)
			CHECK(csv && strstr(csv, ",Y,,unknown,1,7,7,7,,,,12,"));
		else
			CHECK(csv && strstr(csv, ",Y,,unknown,1,7,7,7,7,7,7,12,"));
		free(csv);
		lt_report_free(r);
	}
	/* the order the schema documents, columns only ever added at the end */
	CHECK_STR(head, "view,start_ns,end_ns,scope,pid,tid,comm,reason,argument,kind,"
		  "count,total_ns,max_ns,avg_ns,p50_ns,p90_ns,p99_ns,max_at_ns,"
		  "percent,kernel_thread,max_tid\n");
}

/* ---- merge ------------------------------------------------------------ */

/*
 * Two reports of one trace, each with process 10's cause X of the waits
 * @a and @b, their longest at @at_a, @at_b by @tid_a, @tid_b, merged:
 * each field of the merged row by its rule, @a's or @b's longest wait
 * (@want_b) with its own fields.
 */
static void check_merge(const char *name, const uint64_t *a, size_t na,
			uint64_t at_a, int tid_a, const uint64_t *b, size_t nb,
			uint64_t at_b, int tid_b, bool hist_b, bool want_b)
{
	static const uint64_t wy[] = { 3000 };
	struct hist_buf ha, hb, hy;
	struct lt_report *in[2], *m = NULL;
	struct lt_report_row all = { 0 }, *ra, *rb;
	const struct lt_report_row *got, *gy, *longest;
	const struct lt_report_process *p;
	const struct lt_row_field *f;
	struct lt_error err = { 0 };
	uint64_t every[16];

	lt_test_case = name;
	in[0] = parse_report(skeleton, "a.json");
	in[1] = parse_report(skeleton, "b.json");
	if (!in[0] || !in[1])
		goto out;
	ra = &in[0]->whole.processes[0].rows[0];
	rb = &in[1]->whole.processes[0].rows[0];
	make_row(ra, a, na, at_a, tid_a, &ha);
	make_row(rb, b, nb, at_b, tid_b, hist_b ? &hb : NULL);
	make_row(&in[0]->whole.processes[0].rows[1], wy, 1, 5, 3, &hy);
	in[1]->whole.processes[0].nr_rows = 1;
	/* what one analysis of all the waits would give */
	CHECK(na + nb <= NR(every));
	memcpy(every, a, na * sizeof(*a));
	memcpy(every + na, b, nb * sizeof(*b));
	make_row(&all, every, na + nb, 0, 0, NULL);

	CHECK(lt_report_merge_as((const struct lt_report *const *)in, NULL, 2,
				 false, &m, &err) == 0);
	if (!m) {
		fprintf(stderr, "  %s\n", err.msg);
		goto out;
	}
	CHECK(m->whole.nr_processes == 1);
	p = &m->whole.processes[0];
	got = find_row(p->rows, p->nr_rows, "X");
	gy = find_row(p->rows, p->nr_rows, "Y");
	CHECK(got && gy);
	if (!got || !gy)
		goto out;
	longest = want_b ? rb : ra;
	lt_for_each_row_field(f) {
		switch (f->merge) {
		case LT_RF_SUM:
			CHECK_U64(lt_row_field_u64(f, got),
				  lt_row_field_u64(f, ra) + lt_row_field_u64(f, rb));
			break;
		case LT_RF_MAX:
		case LT_RF_OF_MAX:
			if (lt_row_field_cmp(f, got, longest)) {
				fprintf(stderr, "  %s: %s not the longest wait's\n",
					name, f->key);
				lt_test_failures++;
			}
			break;
		case LT_RF_AVG:
			CHECK_U64(lt_row_field_u64(f, got), got->total_ns / got->count);
			break;
		case LT_RF_QUANTILE:
			/* from the histograms added up: one analysis's */
			if (hist_b)
				CHECK_U64(lt_row_field_u64(f, got),
					  lt_row_field_u64(f, &all));
			break;
		case LT_RF_SHARE:
			CHECK(lt_row_field_value(f, got) ==
			      100.0 * (double)got->total_ns /
			      (double)(got->total_ns + gy->total_ns));
			break;
		}
	}
	/* a row without a histogram: the merged percentiles are not known */
	CHECK(got->no_percentiles == !hist_b);
	CHECK(!gy->no_percentiles);
out:
	lt_report_free(m);
	lt_report_free(in[0]);
	lt_report_free(in[1]);
}

static void test_merge(void)
{
	static const uint64_t a[] = { 100, 2000, 50000, 7 }, b[] = { 300, 70000 },
			      b_eq[] = { 300, 50000 };

	/* b's longer */
	check_merge("merge", a, NR(a), 900, 5, b, NR(b), 2000, 6, true, true);
	check_merge("merge, other order", b, NR(b), 2000, 6, a, NR(a), 900, 5,
		    true, false);
	/* equal longest waits: the earliest, then the lower tid */
	check_merge("merge, equal max", a, NR(a), 900, 5, b_eq, NR(b_eq), 800, 9,
		    true, true);
	check_merge("merge, equal max and time", a, NR(a), 900, 7, b_eq, NR(b_eq),
		    900, 4, true, true);
	check_merge("merge, equal max and time, a's tid", a, NR(a), 900, 3, b_eq,
		    NR(b_eq), 900, 4, true, false);
	/* b saved before histograms */
	check_merge("merge, no histogram", a, NR(a), 900, 5, b, NR(b), 2000, 6,
		    false, true);
}

/* ---- diff and --fail-on --------------------------------------------- */

static void test_fail_on(void)
{
	const struct lt_row_field *f;
	struct lt_error err = { 0 };
	char expr[64], want[512], figures[256];
	size_t crossed;

	lt_test_case = "fail-on";
	/* the grammar's figures are the table's, in its order */
	snprintf(want, sizeof(want), "--fail-on 'bogus>1': at column 1: "
		 "expected a figure: %s", lt_row_field_figures(figures, sizeof(figures)));
	CHECK(lt_diff_check(NULL, "bogus>1", &crossed, &err) < 0);
	CHECK_STR(err.msg, want);
	CHECK_STR(lt_row_field_figures(figures, sizeof(figures)),
		  "count, total, max, avg, p50, p90, p99 or share");
	/* each figure parses; times take a unit, the others none */
	lt_for_each_row_field(f) {
		if (!f->figure)
			continue;
		snprintf(expr, sizeof(expr), "any:%s>+5%%", f->figure);
		CHECK(lt_diff_check(NULL, expr, &crossed, &err) == 0);
		snprintf(expr, sizeof(expr), "%s>2ms", f->figure);
		CHECK((lt_diff_check(NULL, expr, &crossed, &err) == 0) ==
		      (f->unit == LT_RF_NS));
	}
	CHECK(lt_diff_check(NULL, "share>1ms", &crossed, &err) < 0);
	CHECK_STR(err.msg, "--fail-on 'share>1ms': at column 8: share is in "
		  "percentage points: no unit");
	CHECK(lt_diff_check(NULL, "count>1ms", &crossed, &err) < 0);
	CHECK_STR(err.msg, "--fail-on 'count>1ms': at column 8: a count takes no unit");
}

/* A diff's sides and change: the figures' keys, in the table's order. */
static void test_diff(void)
{
	static const uint64_t wa[] = { 1000, 2000 }, wb[] = { 1000, 9000 };
	struct hist_buf ha, hb;
	struct lt_report *a, *b;
	struct lt_diff *d = NULL;
	struct lt_error err = { 0 };
	const struct lt_row_field *f;
	const struct lt_json *c, *m, *side;
	struct lt_json *root = NULL;
	char *buf = NULL, msg[256], key[64];
	size_t len = 0, crossed = 0;
	FILE *out;

	lt_test_case = "diff";
	a = parse_report(skeleton, "a.json");
	b = parse_report(skeleton, "b.json");
	if (!a || !b)
		goto out;
	make_row(&a->whole.processes[0].rows[0], wa, NR(wa), 5, 1, &ha);
	make_row(&b->whole.processes[0].rows[0], wb, NR(wb), 5, 1, &hb);
	a->whole.processes[0].nr_rows = b->whole.processes[0].nr_rows = 1;
	CHECK(lt_diff_make(a, "a", b, "b", LT_DIFF_SCOPE_BIT(LT_DIFF_PROCESS),
			   &d, &err) == 0);
	if (!d)
		goto out;
	CHECK(d->nr_rows == 1 && d->rows[0].status == LT_DIFF_CHANGED);
	/* each side is the row's figures */
	lt_for_each_row_field(f)
		if (f->figure && f->merge != LT_RF_SHARE)
			CHECK(!lt_row_field_cmp(f, &d->rows[0].after,
						&b->whole.processes[0].rows[0]));
	CHECK(lt_diff_check(d, "process:p99>+50%", &crossed, &err) == 0 &&
	      crossed == 1);
	CHECK(lt_diff_check(d, "process:count>+0", &crossed, &err) == 0 &&
	      crossed == 0);
	out = open_memstream(&buf, &len);
	CHECK(out && lt_diff_write(d, LT_FORMAT_JSON, out, &err) == 0);
	if (out)
		fclose(out);
	root = buf ? lt_json_parse(buf, len, msg, sizeof(msg), NULL) : NULL;
	CHECK(root != NULL);
	c = root ? lt_json_get(root, "changes") : NULL;
	CHECK(c && c->nr == 1);
	if (!c || c->nr != 1)
		goto out;
	side = lt_json_get(c->child, "after");
	m = side ? side->child : NULL;
	lt_for_each_row_field(f) {
		if (!f->figure)
			continue;
		CHECK(m && !strcmp(m->key, f->diff_key));
		m = m ? m->next : NULL;
	}
	CHECK(!m);
	/* the change: after - before of each, then _pct of those not a percent */
	m = lt_json_get(c->child, "change")->child;
	lt_for_each_row_field(f) {
		if (!f->change)
			continue;
		CHECK(m && !strcmp(m->key, f->diff_key));
		m = m ? m->next : NULL;
	}
	lt_for_each_row_field(f) {
		if (!f->change || f->type != LT_RF_U64)
			continue;
		snprintf(key, sizeof(key), "%s_pct", f->figure);
		CHECK(m && !strcmp(m->key, key));
		m = m ? m->next : NULL;
	}
	CHECK(!m);
	m = lt_json_get(lt_json_get(c->child, "change"), "p99_ns");
	CHECK(m && m->is_u64 && m->u64 == 9000 - 2000);
out:
	lt_json_free(root);
	free(buf);
	lt_diff_free(d);
	lt_report_free(a);
	lt_report_free(b);
}

int main(void)
{
	test_coverage();
	test_table();
	test_writers();
	test_merge();
	test_fail_on();
	test_diff();
	return lt_test_done("test-fields");
}
