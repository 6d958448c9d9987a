/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lv-draw.h - latency-view's screens painted with curses, at any size
 * from 40x10 up, in attributes only (reverse, bold, underline): a
 * monochrome terminal shows everything.
 */
#ifndef LV_DRAW_H
#define LV_DRAW_H

#include "lv-model.h"

/*
 * Paint @m on stdscr (not refreshed), as it is: the model fits its
 * cursors and scroll positions to the screen (lv_model_resize()), the
 * drawing changes nothing.  stdscr must be m->cols x m->lines.
 */
void lv_draw(const struct lv_model *m, const char *path);

#endif /* LV_DRAW_H */
