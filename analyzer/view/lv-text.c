// SPDX-License-Identifier: GPL-2.0
/*
 * lv-text.c - names measured in terminal columns, and searched (lv-text.h).
 */
#define _GNU_SOURCE	/* wcwidth */
#include <langinfo.h>
#include <string.h>
#include <wchar.h>
#include <wctype.h>

#include "lv-text.h"

/*
 * The character the locale decodes at @s (@n > 0 bytes left) in *@wc:
 * its bytes, or 0 when none starts there (an invalid or cut sequence).
 */
static size_t decode(const char *s, size_t n, wchar_t *wc)
{
	mbstate_t st;
	size_t k;

	memset(&st, 0, sizeof(st));
	k = mbrtowc(wc, s, n, &st);
	return k == (size_t)-1 || k == (size_t)-2 ? 0 : k;
}

/*
 * The character at @s (@n > 0 bytes left): its bytes in *@len, and the
 * columns it draws in, 1 or 2; 0 when it draws as '?'.  An invalid byte
 * is one '?' on its own, so the next one is tried afresh.
 */
static int glyph(const char *s, size_t n, size_t *len)
{
	unsigned char c = (unsigned char)*s;
	wchar_t wc;
	size_t k;
	int w;

	*len = 1;
	if (c < 0x80)	/* nearly every name: no locale call */
		return c >= 0x20 && c < 0x7f;
	k = decode(s, n, &wc);
	if (!k)
		return 0;
	*len = k;
	w = wcwidth(wc);
	return w == 1 || w == 2 ? w : 0;
}

int lv_text_fit(char *buf, size_t size, const char *s, int cols, size_t *used)
{
	size_t n = strlen(s), i = 0, o = 0, len;
	int col = 0, w;

	while (i < n && col < cols) {
		w = glyph(s + i, n - i, &len);
		if (w > cols - col || (w && o + len >= size)) {
			if (col)
				break;
			w = 0;	/* wider than the whole room, or the buffer */
		}
		if (w) {
			memcpy(buf + o, s + i, len);
			o += len;
			col += w;
		} else {
			if (o + 1 >= size)
				break;
			buf[o++] = '?';
			col++;
		}
		i += len;
	}
	if (size)
		buf[o] = '\0';
	if (used)
		*used = i;
	return col;
}

/*
 * The character at @s (@n > 0 bytes left) in lower case, its bytes in
 * *@len; a byte that starts no character is itself, above any character.
 */
static wint_t folded(const char *s, size_t n, size_t *len)
{
	unsigned char c = (unsigned char)*s;
	wchar_t wc;
	size_t k;

	*len = 1;
	if (c < 0x80)
		return c >= 'A' && c <= 'Z' ? c + ('a' - 'A') : c;
	k = decode(s, n, &wc);
	if (!k)
		return 0x110000 + c;
	*len = k;
	return towlower(wc);
}

bool lv_text_contains(const char *hay, const char *needle)
{
	size_t hn = strlen(hay), nn = strlen(needle), i, h, n, step, hl, nl;

	if (!nn)
		return true;
	/* from each character of @hay on */
	for (i = 0; i < hn; i += step) {
		folded(hay + i, hn - i, &step);
		for (h = i, n = 0; h < hn && n < nn; h += hl, n += nl)
			if (folded(hay + h, hn - h, &hl) !=
			    folded(needle + n, nn - n, &nl))
				break;
		if (n == nn)
			return true;
	}
	return false;
}

bool lv_text_utf8(void)
{
	return !strcmp(nl_langinfo(CODESET), "UTF-8");
}

size_t lv_text_char_len(unsigned char lead)
{
	if (!lv_text_utf8())
		return 1;
	if (lead >= 0xf0 && lead <= 0xf4)
		return 4;
	if (lead >= 0xe0 && lead <= 0xef)
		return 3;
	if (lead >= 0xc2 && lead <= 0xdf)
		return 2;
	return 1;
}

const char *lv_text_skip(const char *s, int cols, int *over)
{
	size_t n = strlen(s), i = 0, len;
	int col = 0, w;

	while (i < n && col < cols) {
		w = glyph(s + i, n - i, &len);
		col += w ? w : 1;
		i += len;
	}
	*over = col > cols;
	return s + i;
}
