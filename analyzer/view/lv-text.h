/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lv-text.h - names from a trace or a saved report as the viewer draws
 * them, measured in terminal columns, not bytes; and as it searches them.
 *
 * A task may name itself anything: UTF-8 (two columns a CJK character),
 * an escape sequence, a C1 control (U+009B starts one too), bytes of no
 * character set.  A character is drawn when the locale (LC_CTYPE) decodes
 * it and calls it printable with a width of 1 or 2; anything else draws
 * as one '?': a control, an invalid or cut sequence, a zero-width or
 * bidirectional mark, and in the C locale every byte over 0x7e.  So what
 * these functions give never moves the cursor, and its width is known.
 */
#ifndef LV_TEXT_H
#define LV_TEXT_H

#include <stdbool.h>
#include <stddef.h>

/*
 * @s as drawn, in @buf (@size bytes, NUL-terminated), cut to @cols columns
 * on a character's boundary.  Returns the columns written; *@used (when
 * not NULL) is how many bytes of @s they took.  A character wider than
 * all of @cols (a CJK one in 1), or longer than all of @buf, draws as
 * '?', so that any @cols > 0 and @size > 1 take a character and a loop
 * over the rest moves on.
 */
int lv_text_fit(char *buf, size_t size, const char *s, int cols, size_t *used);

/*
 * @s (as drawn already: lv_text_fit()'s output) past its first @cols
 * columns; *@over is 1 when a two-column character straddled them (then
 * skipped whole, and the rest starts a column later), else 0.
 */
const char *lv_text_skip(const char *s, int cols, int *over);

/*
 * Whether @needle is in @hay, letters of either case alike: ASCII's
 * always, others' where the locale decodes them (the terminal's charset,
 * in which the search was typed).  A byte that is no character matches
 * only itself.  An empty @needle is in everything.
 */
bool lv_text_contains(const char *hay, const char *needle);

/*
 * Whether the locale's charset (the terminal's, and the search's) is
 * UTF-8.  Other charsets are taken a byte a character when typed.
 */
bool lv_text_utf8(void);

/*
 * The bytes of the character that @lead starts, as the terminal sends
 * them: in UTF-8, 2-4 for a lead byte, else 1 (ASCII, a continuation
 * byte, a byte UTF-8 never has); in any other charset 1.  For a search
 * typed a byte at a time.
 */
size_t lv_text_char_len(unsigned char lead);

#endif /* LV_TEXT_H */
