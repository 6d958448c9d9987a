// SPDX-License-Identifier: LGPL-2.1
/*
 * text.c - text as a terminal shows it (lt-text.h): the columns of UTF-8
 * characters; durations, stamps and percentages written and read.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "latencytop.h"
#include "lt-text.h"

static bool in_ranges(uint32_t cp, const uint32_t (*r)[2], size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (cp >= r[i][0] && cp <= r[i][1])
			return true;
	return false;
}

/*
 * Columns a terminal gives code point @cp: 2 for the East Asian wide and
 * fullwidth blocks (Markus Kuhn's wcwidth()) and the emoji blocks, 0 for
 * the common combining and zero-width ones, else 1.  An approximation of
 * glibc's tables, which the library must not take from the locale.
 */
static int cp_cols(uint32_t cp)
{
	static const uint32_t wide[][2] = {
		{ 0x1100, 0x115f }, { 0x231a, 0x231b }, { 0x23e9, 0x23ec },
		{ 0x23f0, 0x23f0 }, { 0x23f3, 0x23f3 }, { 0x25fd, 0x25fe },
		{ 0x2614, 0x2615 }, { 0x2648, 0x2653 }, { 0x267f, 0x267f },
		{ 0x2693, 0x2693 }, { 0x26a1, 0x26a1 }, { 0x26aa, 0x26ab },
		{ 0x26bd, 0x26be }, { 0x26c4, 0x26c5 }, { 0x26ce, 0x26ce },
		{ 0x26d4, 0x26d4 }, { 0x26ea, 0x26ea }, { 0x26f2, 0x26f5 },
		{ 0x26fa, 0x26fd }, { 0x2705, 0x2705 }, { 0x270a, 0x270b },
		{ 0x2728, 0x2728 }, { 0x274c, 0x274c }, { 0x274e, 0x274e },
		{ 0x2753, 0x2755 }, { 0x2757, 0x2757 }, { 0x2795, 0x2797 },
		{ 0x27b0, 0x27b0 }, { 0x27bf, 0x27bf }, { 0x2b1b, 0x2b1c },
		{ 0x2b50, 0x2b50 }, { 0x2b55, 0x2b55 }, { 0x2e80, 0x303e },
		{ 0x3041, 0x33ff }, { 0x3400, 0x4dbf }, { 0x4e00, 0x9fff },
		{ 0xa000, 0xa4cf }, { 0xac00, 0xd7a3 }, { 0xf900, 0xfaff },
		{ 0xfe10, 0xfe19 }, { 0xfe30, 0xfe6b }, { 0xff00, 0xff60 },
		{ 0xffe0, 0xffe6 }, { 0x1f300, 0x1f64f }, { 0x1f680, 0x1f6ff },
		{ 0x1f900, 0x1f9ff }, { 0x1fa70, 0x1faff }, { 0x20000, 0x3fffd },
	};
	static const uint32_t zero[][2] = {
		{ 0x0300, 0x036f }, { 0x200b, 0x200f }, { 0x20d0, 0x20ff },
		{ 0xfe00, 0xfe0f }, { 0xfe20, 0xfe2f },
	};

	if (cp < 0x300)
		return 1;
	if (in_ranges(cp, zero, sizeof(zero) / sizeof(zero[0])))
		return 0;
	return in_ranges(cp, wide, sizeof(wide) / sizeof(wide[0])) ? 2 : 1;
}

/*
 * The UTF-8 character at @p of more than one byte: its length, and code
 * point in *@cp; 0 when none starts there (ASCII, a stray byte, a cut or
 * invalid sequence).
 */
static int utf8_decode(const unsigned char *p, uint32_t *cp)
{
	unsigned char lo = 0x80, hi = 0xbf;
	int n, i;

	if (p[0] < 0xc2 || p[0] > 0xf4)
		return 0;
	n = p[0] < 0xe0 ? 2 : p[0] < 0xf0 ? 3 : 4;
	/* RFC 3629: no overlong form, no surrogate, nothing past U+10FFFF */
	if (p[0] == 0xe0)
		lo = 0xa0;
	else if (p[0] == 0xed)
		hi = 0x9f;
	else if (p[0] == 0xf0)
		lo = 0x90;
	else if (p[0] == 0xf4)
		hi = 0x8f;
	*cp = p[0] & (0x7f >> n);
	for (i = 1; i < n; i++) {
		/* a NUL stops it too */
		if ((p[i] & 0xc0) != 0x80 || (i == 1 && (p[1] < lo || p[1] > hi)))
			return 0;
		*cp = *cp << 6 | (p[i] & 0x3f);
	}
	return n;
}

size_t lt_utf8_len(const char *s)
{
	uint32_t cp;

	return (size_t)utf8_decode((const unsigned char *)s, &cp);
}

int lt_text_cols(const char **s)
{
	uint32_t cp;
	int n = utf8_decode((const unsigned char *)*s, &cp);

	/* ASCII, or a byte that starts no character: one column */
	if (!n) {
		(*s)++;
		return 1;
	}
	*s += n;
	return cp_cols(cp);
}

size_t lt_text_width(const char *s)
{
	size_t cols = 0;

	while (*s)
		cols += (size_t)lt_text_cols(&s);
	return cols;
}

const char *lt_text_cut(char *buf, size_t size, const char *s, size_t cols)
{
	size_t used = 0, bytes = LT_TEXT_CUT_BYTES(cols) - 1, keep = 0, n;
	const char *p = s;

	if (size > bytes + 1)
		size = bytes + 1;
	/* keep: what is kept if it is cut (a column and a byte left for '~') */
	while (*p) {
		used += (size_t)lt_text_cols(&p);
		if (used > cols || (size_t)(p - s) > bytes)
			break;
		if (used <= cols - 1 && (size_t)(p - s) <= size - 2)
			keep = (size_t)(p - s);
	}
	if (!*p && used <= cols && (size_t)(p - s) <= bytes)
		return s;
	n = keep;
	memcpy(buf, s, n);
	buf[n++] = '~';
	buf[n] = '\0';
	return buf;
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

char *lt_format_stamp(char *buf, size_t len, uint64_t ns)
{
	/* libtraceevent rounds (tep_print_event()'s "%6.1000d") */
	uint64_t us = ns / 1000 + (ns % 1000 >= 500);

	snprintf(buf, len, "%" PRIu64 ".%06" PRIu64, us / 1000000,
		 us % 1000000);
	return buf;
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
	if (end == s || v < 0 || (errno && errno != ERANGE))
		return -1;
	/* decimal only: strtod also takes " +5", "1e3", "0x10" and "inf" */
	if (strspn(s, "0123456789.") != (size_t)(end - s))
		return -1;
	/* hundreds of digits: a number, too large for a double */
	if (!isfinite(v))
		return -2;
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
		return -2;
	*ns = (uint64_t)(v + 0.5);
	return 0;
}
