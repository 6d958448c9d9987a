/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lv-model.h - what latency-view shows and where the user is in it: the
 * time range (whole trace or one window), the process bar and its filter,
 * the two tables and their cursors, the detail and help screens.  Keys
 * change it; lv-draw.c paints it.  No curses here, so tests can drive it.
 */
#ifndef LV_MODEL_H
#define LV_MODEL_H

#include <stdbool.h>
#include <stddef.h>

#include "latencytop.h"
#include "lv-keys.h"

enum lv_screen {
	LV_SCREEN_MAIN,
	LV_SCREEN_DETAIL,	/* of the row under the cursor */
	LV_SCREEN_INFO,		/* the trace: what latency-analyze's header says */
	LV_SCREEN_HELP,
};
enum lv_focus { LV_FOCUS_GLOBAL, LV_FOCUS_PROCESS };

/* A table as shown: the report's rows (sorted as shown), and a cursor. */
struct lv_table {
	const struct lt_report_row *rows;
	size_t nr;
	size_t sel, top;	/* selected row; first row on screen */
	size_t page;		/* rows on screen, as last drawn */
};

/* The cursor as a search's match left it (lv-model.c compares them). */
struct lv_search_at {
	const struct lt_report *rep;
	long view;
	char filter;
	enum lt_sort sort;
	int pid;
	enum lv_focus focus;
	size_t gsel, lsel;
};

struct lv_model {
	struct lt_report *rep;		/* sorted as shown: 'o' reorders it */
	long view;			/* -1: the whole trace; else a window */
	enum lt_sort sort;
	char filter;			/* processes starting with it; 0: all */
	size_t *procs;			/* the view's processes passing the filter */
	size_t nr_procs, cap_procs;
	bool *same_name;		/* by the view's process: another of the
					   view has its name (the bar adds pids) */
	size_t proc;			/* selected, in procs */
	int pid;			/* the user's choice, kept across windows
					   and filters even where it is absent */
	int shown_pid;			/* the process whose table is shown */
	struct lv_table global, local;	/* the global and the process table */
	enum lv_focus focus;
	enum lv_screen screen;
	size_t scroll;			/* of the detail and help screens */
	/*
	 * The details' tree of wakers (lv_model_chain_lines()): the line
	 * under its cursor, and the nodes folded or unfolded against their
	 * default (the first level unfolded, the rest folded).
	 */
	size_t chain_sel;
	const struct lt_report_chain **toggled;
	size_t nr_toggled, cap_toggled;
	bool chain_show;		/* its cursor moved: to be scrolled into
					   sight (by fit()) */
	size_t text_page;		/* their lines on screen, as last drawn */
	bool want_letter;		/* 's' was typed: a letter follows */
	bool prompt;			/* '/' was typed: a search is typed */
	bool want_html;			/* 'w' was typed: the page of what is
					   shown is to be written (lv-html.h),
					   by whoever holds the file */
	char input[64];
	size_t input_len;
	unsigned int input_skip;	/* bytes left of a character that did
					   not fit: dropped, not cut */
	char search[64];
	/*
	 * The search's last match, in the screen's order (the global
	 * table's rows, then each process of the bar: itself, then its
	 * rows): n and N go on from it while the cursor stays where it
	 * put it (found_at), else from the cursor.
	 */
	bool found;
	int found_part;			/* 0: the global table; 1: a process */
	size_t found_proc;		/* in procs */
	long found_row;			/* -1: the process itself */
	struct lv_search_at found_at;
	char msg[256];			/* a one-line answer on the status line */
	bool quit;
	int cols, lines;		/* the screen's size (lv_model_resize()) */
	int cause_cols;			/* the view's widest cause, in columns */
	/*
	 * Live mode (the caller's strings, NULL offline): what the title
	 * says instead of a file ("live: 4520 events/s, 0 lost"), and the
	 * lines the trace screen adds (the session and its cost).
	 */
	const char *live;
	const char *live_info;
};

/*
 * Rows ordered by @sort (the report's own, or another: a saved report's
 * rows are reordered), the cursor on the first: 0, or -1 (out of memory).
 */
int lv_model_init(struct lv_model *m, struct lt_report *rep, enum lt_sort sort);
void lv_model_free(struct lv_model *m);
/*
 * Live mode: @rep is shown instead (free the one before only after: the
 * cursors are found again by its causes); the chosen process, the causes
 * under the cursors, the screen and its scroll stay.  0, or -1 (out of
 * memory).
 */
int lv_model_swap(struct lv_model *m, struct lt_report *rep);
/*
 * Act on one key: a search or filter being typed takes it, else the
 * request it is bound to (lv-keys.h).  0, or -1 when out of memory.
 */
int lv_model_key(struct lv_model *m, int key);
/* Act on @req as its keys do on the screen shown: 0, or -1 (no memory). */
int lv_model_request(struct lv_model *m, enum lv_request req);
/*
 * The screen is @cols x @lines now: pages, cursors and scroll positions
 * fit it (what is drawn is then exactly the model: lv_draw() changes
 * nothing).  80x24 until told.
 */
void lv_model_resize(struct lv_model *m, int cols, int lines);

/* Mouse buttons as the model knows them (curses' are mapped to these). */
enum lv_mouse { LV_MOUSE_CLICK, LV_MOUSE_WHEEL_UP, LV_MOUSE_WHEEL_DOWN };
/*
 * A click or a turn of the wheel at screen line @y, column @x: a click
 * on a table's row puts the cursor there (on the cursor's row: details),
 * on a name in the bar chooses that process; the wheel scrolls the table
 * or the screen under it.  0, or -1 when out of memory.
 */
int lv_model_mouse(struct lv_model *m, enum lv_mouse what, int y, int x);

const struct lt_report_view *lv_model_view(const struct lv_model *m);
/* The process in the bar's cursor; NULL when none passes the filter. */
const struct lt_report_process *lv_model_process(const struct lv_model *m);
const struct lt_report_process *lv_model_proc_at(const struct lv_model *m,
						 size_t i);
/*
 * Whether the bar's process @i shares its name with another process of
 * the view (a dozen "sh"): the bar tells them apart by their pids.
 */
bool lv_model_name_shared(const struct lv_model *m, size_t i);
/* The row under the focused table's cursor, or NULL. */
const struct lt_report_row *lv_model_row(const struct lv_model *m);

/*
 * A line of the details' "Waiting for" (the row's waited_for, each
 * unfolded node's children under it) or "Ran instead" (ran_instead): at
 * most LT_REPORT_CHAIN_SHOWN nodes of a level, the rest summed in one
 * "other" line, as latency-analyze's JSON has them.
 */
struct lv_chain_line {
	const struct lt_report_chain *node;	/* NULL: "other" */
	unsigned int depth;		/* 0: the row's own */
	bool ran;			/* of ran_instead */
	bool open;			/* its children shown */
	uint64_t ns;			/* the node's, or the others' */
	size_t others;			/* "other": how many it sums */
};

/*
 * The lines of the tree of the row under the cursor, as shown (the
 * first @max of them in @v, which may be NULL): how many it has.
 */
size_t lv_model_chain_lines(const struct lv_model *m, struct lv_chain_line *v,
			    size_t max);
const char *lv_model_sort_name(enum lt_sort sort);

#endif /* LV_MODEL_H */
