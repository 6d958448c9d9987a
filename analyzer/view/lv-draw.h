/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lv-draw.h - latency-view's screens painted with curses, at any size
 * from 40x10 up; in colour where the terminal has it, and what colour
 * marks is marked by attributes too (reverse, bold, underline): a
 * monochrome terminal shows everything.
 */
#ifndef LV_DRAW_H
#define LV_DRAW_H

#include <stdbool.h>

#include "lv-model.h"

/*
 * Colours, when the terminal has them and NO_COLOR is not set: the bars,
 * the worst rows and the chosen process then stand out in colour, else in
 * reverse video and bold.  After initscr(); true when in colour.
 */
bool lv_draw_colors(void);

/*
 * Paint @m on stdscr (not refreshed), as it is: the model fits its
 * cursors and scroll positions to the screen (lv_model_resize()), the
 * drawing changes nothing.  stdscr must be m->cols x m->lines.
 */
void lv_draw(const struct lv_model *m, const char *path);

#endif /* LV_DRAW_H */
