// SPDX-License-Identifier: LGPL-2.1
/*
 * report-diff-check.c - lt_diff_check(): --fail-on expressions.
 *
 *   EXPR   := TEST { "," TEST }
 *   TEST   := [ SCOPE ":" ] METRIC OP VALUE [ "~" GLOB ]
 *   SCOPE  := global | command | process | any        (default: global)
 *   METRIC := count | total | max | avg | p50 | p90 | p99 | share
 *             (the figures of the field table, lt_row_fields)
 *   OP     := ">" | ">=" | "<" | "<="
 *   VALUE  := [ "+" | "-" ] NUMBER [ UNIT | "%" ]
 *   UNIT   := ns | us | ms | s                         (times only; needed
 *                                                       unless the number is 0)
 *
 * A signed VALUE compares the change from before to after ("p99>+20%",
 * "total>+5ms"), an unsigned one the after value ("max>50ms"); "%" is a
 * change relative to before, so it needs a sign.  share is in percentage
 * points.  GLOB (fnmatch) picks causes by their text as the tables show
 * it; it runs to the end of its TEST, so it cannot hold a comma.  Blanks
 * around the parts are ignored.  A cause that is new rose by an infinite
 * share of nothing: it crosses any "> +N%"; one that vanished fell 100%.
 * A percentile unknown on a side it needs is not tested.
 */
#include <fnmatch.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lt-report.h"

#define MAX_CHECKS	32
#define GLOB_MAX	256

enum op { OP_GT, OP_GE, OP_LT, OP_LE };

struct test {
	unsigned int scopes;
	const struct lt_row_field *metric;
	enum op op;
	bool change, relative;
	double value;		/* ns, waits, points or percent, signed */
	char glob[GLOB_MAX];	/* "" for every cause */
};

struct parser {
	const char *expr, *p;
	struct lt_error *err;
};

static int fail(struct parser *ps, const char *what)
{
	lt_error_set(ps->err, LT_E_USAGE, "--fail-on '%s': at column %d: %s",
		     ps->expr, (int)(ps->p - ps->expr) + 1, what);
	return -1;
}

static void blanks(struct parser *ps)
{
	while (*ps->p == ' ' || *ps->p == '\t')
		ps->p++;
}

/* A word of letters and digits; its length (0: none). */
static size_t word(struct parser *ps)
{
	size_t n = 0;

	while ((ps->p[n] >= 'a' && ps->p[n] <= 'z') ||
	       (ps->p[n] >= 'A' && ps->p[n] <= 'Z') ||
	       (ps->p[n] >= '0' && ps->p[n] <= '9') || ps->p[n] == '_')
		n++;
	return n;
}

static bool is(const char *s, size_t n, const char *w)
{
	return strlen(w) == n && !strncmp(s, w, n);
}

static int parse_scope_metric(struct parser *ps, struct test *t)
{
	static const struct { const char *name; unsigned int bits; } scopes[] = {
		{ "global", LT_DIFF_SCOPE_BIT(LT_DIFF_GLOBAL) },
		{ "command", LT_DIFF_SCOPE_BIT(LT_DIFF_COMMAND) },
		{ "process", LT_DIFF_SCOPE_BIT(LT_DIFF_PROCESS) },
		{ "any", ~0u },
	};
	size_t n, i, colon;

	blanks(ps);
	n = word(ps);
	t->scopes = LT_DIFF_SCOPE_BIT(LT_DIFF_GLOBAL);
	/* "command:p99...": a scope, then the metric (blanks around ':') */
	for (colon = n; ps->p[colon] == ' ' || ps->p[colon] == '\t'; colon++)
		;
	if (n && ps->p[colon] == ':') {
		for (i = 0; i < sizeof(scopes) / sizeof(scopes[0]); i++)
			if (is(ps->p, n, scopes[i].name))
				break;
		if (i == sizeof(scopes) / sizeof(scopes[0]))
			return fail(ps, "expected a scope: global, command, "
				    "process or any");
		t->scopes = scopes[i].bits;
		ps->p += colon + 1;
		blanks(ps);
		n = word(ps);
	}
	t->metric = lt_row_field_by_figure(ps->p, n);
	if (!t->metric) {
		char what[256], figures[200];

		snprintf(what, sizeof(what), "expected a figure: %s",
			 lt_row_field_figures(figures, sizeof(figures)));
		return fail(ps, what);
	}
	ps->p += n;
	return 0;
}

static int parse_op(struct parser *ps, struct test *t)
{
	blanks(ps);
	if (*ps->p != '>' && *ps->p != '<')
		return fail(ps, "expected >, >=, < or <=");
	t->op = *ps->p == '>' ? OP_GT : OP_LT;
	ps->p++;
	if (*ps->p == '=') {
		t->op = t->op == OP_GT ? OP_GE : OP_LE;
		ps->p++;
	}
	return 0;
}

static int parse_value(struct parser *ps, struct test *t)
{
	static const struct { const char *unit; double ns; } units[] = {
		{ "ns", 1 }, { "us", 1e3 }, { "ms", 1e6 }, { "s", 1e9 },
	};
	bool time = t->metric->unit == LT_RF_NS;
	double sign = 1;
	const char *start;
	char num[64];
	size_t n, i;

	blanks(ps);
	if (*ps->p == '+' || *ps->p == '-') {
		t->change = true;
		sign = *ps->p == '-' ? -1 : 1;
		ps->p++;
	}
	start = ps->p;
	while (*ps->p >= '0' && *ps->p <= '9')
		ps->p++;
	if (*ps->p == '.' && ps->p > start) {
		ps->p++;
		if (!(*ps->p >= '0' && *ps->p <= '9'))
			return fail(ps, "expected a digit after the point");
		while (*ps->p >= '0' && *ps->p <= '9')
			ps->p++;
	}
	if (ps->p == start)
		return fail(ps, "expected a number");
	if ((size_t)(ps->p - start) >= sizeof(num)) {
		ps->p = start;
		return fail(ps, "too long a number");
	}
	memcpy(num, start, (size_t)(ps->p - start));
	num[ps->p - start] = '\0';
	t->value = strtod(num, NULL);
	if (*ps->p == '%') {
		if (!t->change) {
			ps->p = start;
			return fail(ps, "a change relative to before needs its "
				    "sign: +N% or -N%");
		}
		t->relative = true;
		ps->p++;
	} else if ((n = word(ps))) {
		for (i = 0; i < sizeof(units) / sizeof(units[0]); i++)
			if (is(ps->p, n, units[i].unit))
				break;
		if (!time) {
			char what[128];

			if (t->metric->unit == LT_RF_POINTS)
				snprintf(what, sizeof(what), "%s is in percentage "
					 "points: no unit", t->metric->figure);
			else
				snprintf(what, sizeof(what), "a %s takes no unit",
					 t->metric->figure);
			return fail(ps, what);
		}
		if (i == sizeof(units) / sizeof(units[0]))
			return fail(ps, "expected a unit: ns, us, ms or s");
		t->value *= units[i].ns;
		ps->p += n;
	} else if (time && t->value != 0) {
		return fail(ps, "expected a unit (ns, us, ms or s) or %");
	}
	t->value *= sign;
	return 0;
}

static int parse_glob(struct parser *ps, struct test *t)
{
	const char *start, *end;

	blanks(ps);
	t->glob[0] = '\0';
	if (*ps->p != '~')
		return 0;
	start = ++ps->p;
	end = strchr(start, ',');
	if (!end)
		end = start + strlen(start);
	ps->p = end;
	while (end > start && (end[-1] == ' ' || end[-1] == '\t'))
		end--;
	while (start < end && (*start == ' ' || *start == '\t'))
		start++;
	if (end == start) {
		ps->p = start;
		return fail(ps, "expected a cause pattern after ~");
	}
	if ((size_t)(end - start) >= sizeof(t->glob)) {
		ps->p = start;
		return fail(ps, "too long a cause pattern");
	}
	memcpy(t->glob, start, (size_t)(end - start));
	t->glob[end - start] = '\0';
	return 0;
}

/* The figure @f on one side; NAN when it is not known. */
static double figure(const struct lt_report_row *s, const struct lt_row_field *f)
{
	/* a side without the cause has no waits, so no percentile to lack */
	if (f->nullable && s->no_percentiles && s->count)
		return NAN;
	return lt_row_field_value(f, s);
}

static bool crosses(const struct test *t, const struct lt_diff_row *r)
{
	double b = figure(&r->before, t->metric), a = figure(&r->after, t->metric);
	double v;
	char cause[512];

	if (!(t->scopes & LT_DIFF_SCOPE_BIT(r->scope)))
		return false;
	if (t->glob[0]) {
		struct lt_report_row shown = { .reason = r->reason,
					       .argument = r->argument };

		if (fnmatch(t->glob, lt_format_cause(cause, sizeof(cause), &shown, 0), 0))
			return false;
	}
	if (isnan(a) || (t->change && isnan(b)))
		return false;
	if (!t->change)
		v = a;
	else if (!t->relative)
		v = a - b;
	else if (b != 0)
		v = (a - b) / b * 100;
	else
		v = a > 0 ? INFINITY : 0;	/* new: risen from nothing */
	switch (t->op) {
	case OP_GT:
		return v > t->value;
	case OP_GE:
		return v >= t->value;
	case OP_LT:
		return v < t->value;
	default:
		return v <= t->value;
	}
}

int lt_diff_check(struct lt_diff *d, const char *expr, size_t *crossed,
		  struct lt_error *err)
{
	struct lt_diff_check *checks;
	struct test tests[8];
	struct parser ps = { expr, expr, err };
	size_t nt = 0, i, k;
	char *copy;

	*crossed = 0;
	if (d && d->nr_checks >= MAX_CHECKS) {
		lt_error_set(err, LT_E_USAGE, "--fail-on '%s': more than %d "
			     "expressions", expr, MAX_CHECKS);
		return -1;
	}
	for (;;) {
		if (nt == sizeof(tests) / sizeof(tests[0]))
			return fail(&ps, "more than 8 tests in one expression");
		memset(&tests[nt], 0, sizeof(tests[nt]));
		if (parse_scope_metric(&ps, &tests[nt]) < 0 ||
		    parse_op(&ps, &tests[nt]) < 0 ||
		    parse_value(&ps, &tests[nt]) < 0 ||
		    parse_glob(&ps, &tests[nt]) < 0)
			return -1;
		nt++;
		blanks(&ps);
		if (!*ps.p)
			break;
		if (*ps.p != ',')
			return fail(&ps, "expected , or the end");
		ps.p++;
	}
	/* parsed only: a command line checked before its long analysis */
	if (!d)
		return 0;
	/* a test of a table not compared could never cross: CI would pass */
	for (k = 0; k < nt; k++) {
		static const char *const by[LT_DIFF_SCOPES] = {
			[LT_DIFF_GLOBAL] = "global",
			[LT_DIFF_COMMAND] = "command",
			[LT_DIFF_PROCESS] = "process",
		};

		if (tests[k].scopes & d->scopes)
			continue;
		for (i = 0; i + 1 < LT_DIFF_SCOPES; i++)
			if (tests[k].scopes == LT_DIFF_SCOPE_BIT(i))
				break;
		lt_error_set(err, LT_E_USAGE, "--fail-on '%s': %s: the %s "
			     "table%s not compared (add %s to --by)", expr,
			     by[i], by[i], i == LT_DIFF_GLOBAL ? " is" : "s are",
			     by[i]);
		return -1;
	}
	checks = realloc(d->checks, (d->nr_checks + 1) * sizeof(*checks));
	copy = strdup(expr);
	if (!checks || !copy) {
		if (checks)
			d->checks = checks;
		free(copy);
		lt_error_set(err, LT_E_NOMEM, "out of memory");
		return -1;
	}
	d->checks = checks;
	for (i = 0; i < d->nr_rows; i++) {
		for (k = 0; k < nt && !crosses(&tests[k], &d->rows[i]); k++)
			;
		if (k == nt)
			continue;
		d->rows[i].crossed |= 1u << d->nr_checks;
		(*crossed)++;
	}
	d->checks[d->nr_checks].expr = copy;
	d->checks[d->nr_checks++].crossed = *crossed;
	return 0;
}
