/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lv-term.h - whether curses can drive a terminal type, asked before
 * the trace is read (term.h's macros named like every capability, lines
 * and columns among them, stay in lv-term.c).
 */
#ifndef LV_TERM_H
#define LV_TERM_H

#include <stdbool.h>

enum {
	LV_TERM_UNKNOWN = -1,		/* no such terminal type */
	LV_TERM_NO_DATABASE = -2,	/* no terminfo at all */
	LV_TERM_NO_CURSOR = -3,		/* cannot move the cursor (dumb) */
};

/* 0 when curses can draw on @term (moving the cursor: @need_cursor). */
int lv_term_check(const char *term, int fd, bool need_cursor);

#endif /* LV_TERM_H */
