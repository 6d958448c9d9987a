/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * lt-text.h - text as a terminal shows it: UTF-8 columns, control
 * characters made harmless, durations, stamps and percentages.
 */
#ifndef LT_TEXT_H
#define LT_TEXT_H

#include <stddef.h>
#include <stdint.h>

/*
 * The columns a terminal gives the UTF-8 character at *@s (not at its
 * end), moving *@s past it: 2 for an East Asian wide one or an emoji, 0
 * for a combining mark, else 1 (a byte that does not decode too, on its
 * own).  Text output pads and cuts names by it.
 */
int lt_text_cols(const char **s);
/* The length of the UTF-8 character of 2-4 bytes at @s (RFC 3629), or 0. */
size_t lt_utf8_len(const char *s);
/* The columns of @s, a character at a time. */
size_t lt_text_width(const char *s);

/*
 * Bytes a name cut to @cols columns may take: 4 a column (UTF-8), and a
 * character of no columns (a combining mark) still counts its bytes.
 */
#define LT_TEXT_CUT_BYTES(cols)	(4 * (size_t)(cols) + 1)

/*
 * @s as it fits in @cols > 0 columns and LT_TEXT_CUT_BYTES(@cols) bytes:
 * @s itself when it does, else its start to a character's boundary and a
 * '~' in the last column, in @buf of @size >= LT_TEXT_CUT_BYTES(@cols).
 * Reads no further than that: a name of any length costs what is shown.
 * Control characters are left as they are (lt_shown() shows them).
 */
const char *lt_text_cut(char *buf, size_t size, const char *s, size_t cols);

/*
 * How many bytes at @s (not at its end) text output shows as one '?': 1
 * for a C0 control or DEL, 2 for a C1 control in UTF-8 (U+0080-U+009F:
 * terminals take U+009B as CSI), 0 for anything else.
 */
static inline size_t lt_control_len(const char *s)
{
	unsigned char c = (unsigned char)s[0], n = (unsigned char)s[1];

	if (c < 0x20 || c == 0x7f)
		return 1;
	return c == 0xc2 && n >= 0x80 && n <= 0x9f ? 2 : 0;
}

/*
 * What text output shows for the character at *@s ('?' for a control);
 * *@s moves past it.
 */
static inline char lt_shown(const char **s)
{
	size_t n = lt_control_len(*s);
	char c = n ? '?' : **s;

	*s += n ? n : 1;
	return c;
}

/*
 * @s as text output shows it (lt_shown()), into @dst of @size > 0 bytes,
 * cut to fit; @dst may be @s itself (the copy is never ahead).
 */
static inline char *lt_shown_copy(char *dst, size_t size, const char *s)
{
	size_t n = 0;

	while (*s && n + 1 < size)
		dst[n++] = lt_shown(&s);
	dst[n] = '\0';
	return dst;
}

/* "84.2": @percent as "%.1f" writes it, faster (the Percent column). */
char *lt_format_percent(char *buf, size_t len, double percent);

#endif /* LT_TEXT_H */
