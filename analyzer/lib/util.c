// SPDX-License-Identifier: LGPL-2.1
/*
 * util.c - options defaults, durations, cause kind names.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "latencytop.h"
#include "lt-report-local.h"

#define LT_COUNT_W	7	/* the Count column at its narrowest */

void lt_options_init(struct lt_options *opts)
{
	memset(opts, 0, sizeof(*opts));
	/* LatencyTOP: interruptible waits over 5 ms are user requested */
	opts->sleep_cutoff_ns = 5000000;
	opts->honour_maxtime = true;
	opts->sort = LT_SORT_MAX;
	opts->from_ns = -1;
	opts->to_ns = -1;
}

const char *lt_cause_kind_name(enum lt_cause_kind kind)
{
	static const char *const names[LT_CAUSE_NR] = {
		[LT_CAUSE_ANNOTATED] = "annotated",
		[LT_CAUSE_TRANSLATED] = "translated",
		[LT_CAUSE_FUNCTION] = "function",
		[LT_CAUSE_UNKNOWN] = "unknown",
		[LT_CAUSE_SCHED] = "scheduler",
	};

	return (unsigned int)kind < LT_CAUSE_NR ? names[kind] : "unknown";
}

/*
 * Code points that terminals give two columns: the East Asian wide and
 * fullwidth blocks, as Markus Kuhn's wcwidth() has them, and the emoji.
 */
static bool wide(uint32_t cp)
{
	static const uint32_t ranges[][2] = {
		{ 0x1100, 0x115f }, { 0x2e80, 0x303e }, { 0x3041, 0x33ff },
		{ 0x3400, 0x4dbf }, { 0x4e00, 0x9fff }, { 0xa000, 0xa4cf },
		{ 0xac00, 0xd7a3 }, { 0xf900, 0xfaff }, { 0xfe30, 0xfe4f },
		{ 0xff00, 0xff60 }, { 0xffe0, 0xffe6 }, { 0x1f300, 0x1f64f },
		{ 0x1f900, 0x1f9ff }, { 0x20000, 0x3fffd },
	};
	size_t i;

	if (cp < ranges[0][0])
		return false;
	for (i = 0; i < sizeof(ranges) / sizeof(ranges[0]); i++)
		if (cp >= ranges[i][0] && cp <= ranges[i][1])
			return true;
	return false;
}

int lt_text_cols(const char **s)
{
	const unsigned char *p = (const unsigned char *)*s;
	uint32_t cp;
	int n, i;

	/* ASCII, or a byte that starts no character: one column */
	if (p[0] < 0xc2 || p[0] > 0xf4) {
		(*s)++;
		return 1;
	}
	n = p[0] < 0xe0 ? 2 : p[0] < 0xf0 ? 3 : 4;
	cp = p[0] & (0x7f >> n);
	for (i = 1; i < n; i++) {
		if ((p[i] & 0xc0) != 0x80) {	/* a NUL stops it too */
			(*s)++;
			return 1;
		}
		cp = cp << 6 | (p[i] & 0x3f);
	}
	*s += n;
	return wide(cp) ? 2 : 1;
}

size_t lt_text_width(const char *s)
{
	size_t cols = 0;

	while (*s)
		cols += (size_t)lt_text_cols(&s);
	return cols;
}

char *lt_format_cause(char *buf, size_t len, const struct lt_report_row *row,
		      size_t width)
{
	const char *p;
	char *q;

	if (row->argument[0])
		snprintf(buf, len, "%s (%s)", row->reason, row->argument);
	else
		snprintf(buf, len, "%s", row->reason);
	if (width && lt_text_width(buf) > width) {
		/* on a character's boundary, the '~' in the last column */
		size_t cols = 0;

		for (p = buf; ; ) {
			q = (char *)p;
			cols += (size_t)lt_text_cols(&p);
			if (cols > width - 1)
				break;
		}
		q[0] = '~';
		q[1] = '\0';
	}
	/* in columns: an escape sequence or a newline would break them */
	for (p = q = buf; *p; )
		*q++ = lt_shown(&p);	/* never ahead of p */
	*q = '\0';
	return buf;
}

int lt_format_count_width(const struct lt_report_row *rows, size_t nr)
{
	uint64_t most = 0;
	char buf[24];
	size_t i;
	int w;

	for (i = 0; i < nr; i++)
		if (rows[i].count > most)
			most = rows[i].count;
	w = snprintf(buf, sizeof(buf), "%" PRIu64, most);
	return w > LT_COUNT_W ? w : LT_COUNT_W;
}

/* @n in decimal, ending at @end (no NUL): where it starts. */
static char *decimal(char *end, uint64_t n)
{
	do
		*--end = (char)('0' + n % 10);
	while (n /= 10);
	return end;
}

/* @n bytes at @s, then @unit, into @buf of @len, cut as snprintf() cuts. */
static char *put_cut(char *buf, size_t len, const char *s, size_t n,
		     const char *unit)
{
	size_t u = strlen(unit);

	if (!len)
		return buf;
	if (n >= len)
		n = len - 1;
	memcpy(buf, s, n);
	if (u > len - 1 - n)
		u = len - 1 - n;
	memcpy(buf + n, unit, u);
	buf[n + u] = '\0';
	return buf;
}

/*
 * snprintf(@buf, @len, "%.<@dec>f<@unit>", @v), @dec 1 or 2.  printf
 * converts @v's binary value exactly, which took a third of writing a
 * report: here @v is scaled and rounded by the fraction left.  Scaling
 * errs by under 2e-5 below 1e9, so only a fraction within 1e-4 of a half,
 * where @v's last bits decide (0.15 is 0.1499..., "0.1"), and values out
 * of that range (-0.0 too) go to printf after all.
 */
static char *format_fixed(char *buf, size_t len, double v, unsigned int dec,
			  const char *unit)
{
	char digits[24], *end = digits + sizeof(digits), *p = end;
	double scaled, frac;
	unsigned int i;
	uint64_t k;

	if (v >= 0 && v < 1e9 && !signbit(v)) {
		scaled = v * (dec == 2 ? 100.0 : 10.0);
		k = (uint64_t)scaled;
		frac = scaled - (double)k;
		if (frac < 0.5 - 1e-4 || frac > 0.5 + 1e-4) {
			k += frac > 0.5;
			for (i = 0; i < dec; i++, k /= 10)
				*--p = (char)('0' + k % 10);
			*--p = '.';
			p = decimal(p, k);
			return put_cut(buf, len, p, (size_t)(end - p), unit);
		}
	}
	snprintf(buf, len, "%.*f%s", (int)dec, v, unit);
	return buf;
}

char *lt_format_duration(char *buf, size_t len, uint64_t ns)
{
	char digits[24], *end = digits + sizeof(digits), *p;

	if (ns < 1000) {
		p = decimal(end, ns);
		return put_cut(buf, len, p, (size_t)(end - p), " ns");
	}
	if (ns < 1000000)
		return format_fixed(buf, len, ns / 1e3, 1, " us");
	if (ns < 1000000000)
		return format_fixed(buf, len, ns / 1e6, 1, " ms");
	return format_fixed(buf, len, ns / 1e9, 2, " s");
}

char *lt_format_percent(char *buf, size_t len, double percent)
{
	return format_fixed(buf, len, percent, 1, "");
}

int lt_parse_duration(const char *s, uint64_t unit_ns, uint64_t *ns)
{
	static const struct { const char *suffix; uint64_t ns; } units[] = {
		{ "ns", 1 }, { "us", 1000 }, { "ms", 1000000 },
		{ "s", 1000000000ULL }, { "m", 60000000000ULL },
		{ "min", 60000000000ULL }, { "h", 3600000000000ULL },
	};
	double v;
	char *end;
	size_t i;

	if (!s || !*s)
		return -1;
	errno = 0;
	v = strtod(s, &end);
	if (errno || end == s || !isfinite(v) || v < 0)
		return -1;
	/* decimal only: strtod also takes " +5", "1e3", "0x10" and "inf" */
	if (strspn(s, "0123456789.") != (size_t)(end - s))
		return -1;
	if (*end) {
		for (i = 0; i < sizeof(units) / sizeof(units[0]); i++)
			if (!strcmp(end, units[i].suffix))
				break;
		if (i == sizeof(units) / sizeof(units[0]))
			return -1;
		unit_ns = units[i].ns;
	}
	v *= (double)unit_ns;
	if (v >= 18446744073709551615.0)
		return -1;
	*ns = (uint64_t)(v + 0.5);
	return 0;
}
