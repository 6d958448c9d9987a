/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lv-text.h - names from a trace or a saved report as the viewer draws
 * them, measured in terminal columns, not bytes.
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

#endif /* LV_TEXT_H */
