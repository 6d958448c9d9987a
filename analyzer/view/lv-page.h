/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lv-page.h - the text of latency-view's scrolling screens (details of a
 * row, the trace, the help) and of its status line, and how a long line
 * wraps: plain text, no curses, so that the model can measure a page and
 * tests can read it.  lv-draw.c paints what these give.
 */
#ifndef LV_PAGE_H
#define LV_PAGE_H

#include <stddef.h>

#include "lv-model.h"

/* A screen's lines, each with the column its wrapped pieces start at. */
struct lv_page {
	const char *title;
	char **line;
	int *hang;		/* -1: past the line's own indent, and then some */
	size_t nr, cap;
	size_t mark;		/* the details' line of the tree's cursor;
				   past nr: none */
};

/* The text of @m's screen (details, trace or help) into @pg: 0 or -1 (no memory). */
int lv_page_build(const struct lv_model *m, struct lv_page *pg);
void lv_page_free(struct lv_page *pg);

/*
 * The screen line that line @i of @pg makes from *@s on, drawn at column
 * *@x of a screen @cols wide, in @buf as drawn (lv_text_fit()); *@s and
 * *@x move to the next piece.  Start with *@s at the line, *@x 0; the
 * line is done when a call leaves **@s at its end.
 */
void lv_page_piece(const struct lv_page *pg, size_t i, const char **s, int *x,
		   int cols, char *buf, size_t size);
/* Screen lines @pg takes at @cols columns, its long lines wrapped. */
size_t lv_page_rows(const struct lv_page *pg, int cols);
/* The screen line, of those, that line @i of @pg starts on. */
size_t lv_page_row_of(const struct lv_page *pg, size_t i, int cols);

/* "whole trace, 642.8 ms", "window 2 [0-9]: +60.00 s .. +90.00 s" */
void lv_page_range(const struct lv_model *m, char *buf, size_t len);
/* The status line of @m's screen when no message or prompt takes it. */
void lv_page_status(const struct lv_model *m, char *buf, size_t len);

#endif /* LV_PAGE_H */
