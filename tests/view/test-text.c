// SPDX-License-Identifier: GPL-2.0
/*
 * test-text.c - latency-view's names in columns (lv-text.h): what is
 * drawn, what shows as '?', where a cut falls.
 */
#include <locale.h>

#include "lt-test.h"
#include "lv-text.h"

/* lv_text_fit() of @s in @cols columns: the text, its columns, bytes used. */
static void fit(const char *s, int cols, size_t size, const char *want,
		int want_cols, size_t want_used)
{
	char buf[64];
	size_t used = 0;
	int w;

	lt_test_case = s;
	memset(buf, 'Z', sizeof(buf));
	w = lv_text_fit(buf, size, s, cols, &used);
	CHECK_STR(buf, want);
	CHECK_U64(w, want_cols);
	CHECK_U64(used, want_used);
}

/* lv_text_skip() of @cols columns of @s: what is left, and the overhang. */
static void skip(const char *s, int cols, const char *want, int want_over)
{
	int over = -1;

	lt_test_case = s;
	CHECK_STR(lv_text_skip(s, cols, &over), want);
	CHECK_U64(over, want_over);
}

static void test_utf8(void)
{
	fit("hello", 3, 64, "hel", 3, 3);
	fit("hello", 0, 64, "", 0, 0);
	/* controls, C1 (U+009B, a CSI) included, one '?' a character */
	fit("a\nb\x1b[", 10, 64, "a?b?[", 5, 5);
	fit("x\xc2\x9by\x7f", 10, 64, "x?y?", 4, 5);
	/* two columns a CJK character; not split, '?' when none fits */
	fit("数据", 3, 64, "数", 2, 3);
	fit("数据", 4, 64, "数据", 4, 6);
	fit("数据", 1, 64, "?", 1, 3);
	fit("café", 4, 64, "café", 4, 5);
	/* invalid and cut sequences: a '?' a byte, the next tried afresh */
	fit("\xff\xfe" "A", 10, 64, "??A", 3, 3);
	fit("ab\xe6\x95", 10, 64, "ab??", 4, 4);
	fit("\xc3" "e", 10, 64, "?e", 2, 2);
	/* zero-width and bidirectional marks */
	fit("a\xe2\x80\x8b" "b\xe2\x80\xae" "c", 10, 64, "a?b?c", 5, 9);
	/* the buffer is full before the columns are */
	fit("数据", 10, 4, "数", 2, 3);
	fit("数据", 10, 3, "?", 1, 3);		/* still a character taken */
	fit("abc", 10, 3, "ab", 2, 2);
	fit("abc", 10, 1, "", 0, 0);

	/* past whole characters: one straddling the cut is skipped whole */
	skip("数据ab", 1, "据ab", 1);
	skip("数据ab", 2, "据ab", 0);
	skip("数据ab", 5, "b", 0);
	skip("ab", 9, "", 0);
}

/* A terminal that is not UTF-8: every byte over 0x7e is a '?'. */
static void test_c_locale(void)
{
	fit("café", 10, 64, "caf??", 5, 5);
	fit("数", 10, 64, "???", 3, 3);
	fit("ok", 10, 64, "ok", 2, 2);
}

int main(void)
{
	/* built into glibc since 2.35 */
	lt_test_case = "setlocale";
	CHECK(setlocale(LC_CTYPE, "C.UTF-8") != NULL);
	test_utf8();
	CHECK(setlocale(LC_CTYPE, "C") != NULL);
	test_c_locale();
	return lt_test_done("view/text");
}
