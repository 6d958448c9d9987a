/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lv-layout.h - where things are on latency-view's main screen at a size:
 * the two tables' lines, the process bar's names.  The model keeps its
 * cursors and scroll positions inside them (lv_model_resize()), a mouse
 * click is found in them, and lv-draw.c paints by them, changing nothing.
 * No curses here.
 */
#ifndef LV_LAYOUT_H
#define LV_LAYOUT_H

#include "lv-model.h"

#define LV_MIN_COLS	40
#define LV_MIN_LINES	10

struct lv_layout {
	int title_y;			/* the global line */
	int global_y, global_rows;	/* its table's head, and rows under it */
	int bar_y;
	int proc_y;			/* the process's title */
	int local_y, local_rows;	/* its table's head, and rows */
};

/* The main screen of @m at its size (m->cols x m->lines). */
void lv_layout_main(const struct lv_model *m, struct lv_layout *lay);

/*
 * The bar's name @i, " comm " or "[comm]" for the cursor's, as drawn
 * (lv-text.h), "comm(pid)" where another process of the view has the
 * same name (pstree -p's way: the pid tells them apart and costs no
 * column where the name alone does); a name longer than a few words (a
 * saved report may hold any) is cut with '~' so that its brackets and
 * pid stay.  Returns its columns.
 */
#define LV_BAR_NAME_MAX		40
/* UTF-8, '~', "(-2147483648)", [] */
#define LV_BAR_NAME_BYTES	(LV_BAR_NAME_MAX * 4 + 1 + 13 + 2 + 1)
int lv_bar_name(char *buf, size_t len, const struct lv_model *m, size_t i);

/*
 * The bar at m->cols: *@x where the names begin (after the filter's
 * "s:a "), *@start the bar's columns scrolled out on the left to keep the
 * cursor's name in sight, *@right the column the names stop at ('>' past
 * it when more follow).  Name i takes [pos_i - start + x, + its columns).
 */
void lv_bar_geometry(const struct lv_model *m, int *x, int *start, int *right);
/* The bar's process at screen column @col, or -1. */
long lv_bar_at(const struct lv_model *m, int col);

#endif /* LV_LAYOUT_H */
