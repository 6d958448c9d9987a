// SPDX-License-Identifier: GPL-2.0
/*
 * lv-term.c - the terminal type check (lv-term.h).
 */
#include <curses.h>
#include <term.h>

#include "lv-term.h"

int lv_term_check(const char *term, int fd, bool need_cursor)
{
	char cup[] = "cup";
	const char *move;
	int err = 0;

	/* with &err, setupterm() reports instead of exiting */
	if (setupterm(term, fd, &err) != OK)
		return err == 0 ? LV_TERM_UNKNOWN : LV_TERM_NO_DATABASE;
	/* initscr() would exit on a terminal that cannot (dumb) */
	move = tigetstr(cup);
	del_curterm(cur_term);
	if (need_cursor && (!move || move == (char *)-1))
		return LV_TERM_NO_CURSOR;
	return 0;
}
