// SPDX-License-Identifier: LGPL-2.1
/*
 * report-fields.c - the row-field table: each scalar statistic of a
 * report's row, with how it is written (JSON, CSV), merged, compared by
 * a diff and named by --fail-on.
 *
 * A new statistic is a member of struct lt_report_row and a row here;
 * what computes it from the waits (report.c) and what shows it (text,
 * HTML, the viewer) say so themselves.  JSON writes the fields in the
 * table's order, CSV in the same order but those of LT_RF_CSV_END after
 * kernel_thread (CSV's columns are only added at the end), a diff's
 * sides those with a figure, its change those with .change.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "lt-report.h"

/* The member's JSON key (its name), offset and type. */
#define ROW(m)								\
	.key = #m, .offset = offsetof(struct lt_report_row, m),	\
	.type = _Generic(((struct lt_report_row *)0)->m,		\
			 uint64_t: LT_RF_U64, int: LT_RF_INT,		\
			 double: LT_RF_DOUBLE)

const struct lt_row_field lt_row_fields[] = {
	{ ROW(count), .unit = LT_RF_WAITS, .merge = LT_RF_SUM,
	  .figure = "count", .diff_key = "count", .change = true },
	{ ROW(total_ns), .unit = LT_RF_NS, .merge = LT_RF_SUM,
	  .figure = "total", .diff_key = "total_ns", .change = true },
	{ ROW(max_ns), .unit = LT_RF_NS, .merge = LT_RF_MAX,
	  .figure = "max", .diff_key = "max_ns", .change = true },
	{ ROW(avg_ns), .unit = LT_RF_NS, .merge = LT_RF_AVG,
	  .figure = "avg", .diff_key = "avg_ns" },
	{ ROW(p50_ns), .unit = LT_RF_NS, .merge = LT_RF_QUANTILE, .q = 0.50,
	  .nullable = true, .figure = "p50", .diff_key = "p50_ns", .change = true },
	{ ROW(p90_ns), .unit = LT_RF_NS, .merge = LT_RF_QUANTILE, .q = 0.90,
	  .nullable = true, .figure = "p90", .diff_key = "p90_ns" },
	{ ROW(p99_ns), .unit = LT_RF_NS, .merge = LT_RF_QUANTILE, .q = 0.99,
	  .nullable = true, .figure = "p99", .diff_key = "p99_ns", .change = true },
	{ ROW(max_at_ns), .unit = LT_RF_NS, .merge = LT_RF_OF_MAX },
	{ ROW(max_tid), .unit = LT_RF_TASK, .merge = LT_RF_OF_MAX,
	  .csv = LT_RF_CSV_END },
	{ ROW(percent), .unit = LT_RF_POINTS, .merge = LT_RF_SHARE,
	  .figure = "share", .diff_key = "share", .change = true },
};

const size_t lt_nr_row_fields = sizeof(lt_row_fields) / sizeof(lt_row_fields[0]);

uint64_t lt_row_field_u64(const struct lt_row_field *f,
			  const struct lt_report_row *row)
{
	uint64_t v;

	memcpy(&v, lt_row_field_ptr(f, row), sizeof(v));
	return v;
}

void lt_row_field_set_u64(const struct lt_row_field *f,
			  struct lt_report_row *row, uint64_t v)
{
	memcpy((char *)row + f->offset, &v, sizeof(v));
}

static int int_of(const struct lt_row_field *f, const struct lt_report_row *row)
{
	int v;

	memcpy(&v, lt_row_field_ptr(f, row), sizeof(v));
	return v;
}

static double double_of(const struct lt_row_field *f,
			const struct lt_report_row *row)
{
	double v;

	memcpy(&v, lt_row_field_ptr(f, row), sizeof(v));
	return v;
}

double lt_row_field_value(const struct lt_row_field *f,
			  const struct lt_report_row *row)
{
	switch (f->type) {
	case LT_RF_U64:
		return (double)lt_row_field_u64(f, row);
	case LT_RF_INT:
		return int_of(f, row);
	default:
		return double_of(f, row);
	}
}

int lt_row_field_cmp(const struct lt_row_field *f, const struct lt_report_row *a,
		     const struct lt_report_row *b)
{
	uint64_t ua, ub;
	double da, db;
	int ia, ib;

	switch (f->type) {
	case LT_RF_U64:
		ua = lt_row_field_u64(f, a);
		ub = lt_row_field_u64(f, b);
		return (ua > ub) - (ua < ub);
	case LT_RF_INT:
		ia = int_of(f, a);
		ib = int_of(f, b);
		return (ia > ib) - (ia < ib);
	default:
		da = double_of(f, a);
		db = double_of(f, b);
		return (da > db) - (da < db);
	}
}

void lt_row_field_copy(const struct lt_row_field *f, struct lt_report_row *dst,
		       const struct lt_report_row *src)
{
	static const size_t size[] = {
		[LT_RF_U64] = sizeof(uint64_t),
		[LT_RF_INT] = sizeof(int),
		[LT_RF_DOUBLE] = sizeof(double),
	};

	memcpy((char *)dst + f->offset, lt_row_field_ptr(f, src), size[f->type]);
}

void lt_row_field_put(FILE *out, const struct lt_row_field *f,
		      const struct lt_report_row *row)
{
	switch (f->type) {
	case LT_RF_U64:
		fprintf(out, "%" PRIu64, lt_row_field_u64(f, row));
		break;
	case LT_RF_INT:
		fprintf(out, "%d", int_of(f, row));
		break;
	default:
		fprintf(out, "%.3f", double_of(f, row));
		break;
	}
}

const struct lt_row_field *lt_row_field_by_figure(const char *name, size_t len)
{
	const struct lt_row_field *f;

	lt_for_each_row_field(f)
		if (f->figure && strlen(f->figure) == len &&
		    !strncmp(f->figure, name, len))
			return f;
	return NULL;
}

char *lt_row_field_figures(char *buf, size_t size)
{
	const struct lt_row_field *f, *last = NULL;
	size_t n = 0;

	lt_for_each_row_field(f)
		if (f->figure)
			last = f;
	buf[0] = '\0';
	lt_for_each_row_field(f) {
		if (!f->figure)
			continue;
		if (n < size)
			n += (size_t)snprintf(buf + n, size - n, "%s%s",
					      !n ? "" : f == last ? " or " : ", ",
					      f->figure);
	}
	return buf;
}
