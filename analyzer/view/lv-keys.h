/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lv-keys.h - latency-view's requests and the keys bound to them, declared
 * once (as tig's request list): the model acts on a request, the help
 * screen and the status line are written from the same rows, and --keys
 * names keys as the help does.  No curses here.
 */
#ifndef LV_KEYS_H
#define LV_KEYS_H

#include <stdbool.h>
#include <stddef.h>

/*
 * Keys besides printable characters (curses' are mapped to these).  The
 * bytes of a UTF-8 character (0x80-0xff) come as keys of their own, one
 * after another, as curses' getch() reads them: a search may hold them.
 */
enum {
	LV_KEY_UP = 0x1000,
	LV_KEY_DOWN,
	LV_KEY_LEFT,
	LV_KEY_RIGHT,
	LV_KEY_PGUP,
	LV_KEY_PGDN,
	LV_KEY_HOME,
	LV_KEY_END,
	LV_KEY_ENTER,
	LV_KEY_ESC,
	LV_KEY_BACKSPACE,
	LV_KEY_TAB,
	LV_KEY_BTAB,		/* Shift-Tab */
	LV_KEY_F0 = 0x1100,	/* LV_KEY_F(1) .. LV_KEY_F(12): F1 .. F12 */
};
#define LV_KEY_F(n)	(LV_KEY_F0 + (n))

#define LV_KEYS_MAX	4	/* keys one request may have */

/*
 * F-keys where htop has them: F1 help, F3 search, F4 filter, F6 sort,
 * F10 quit.
 *
 * request, its keys, then on the tables: its word on the status line
 * (NULL: not there; "": its first key joins the next item's, "Left/Right
 * process"), what the help says; then the same on the details, trace and
 * help screens (NULL: the key does nothing there).  Help rows of a screen
 * that say the same are one line.
 */
#define LV_REQUESTS(_)							\
	_(QUIT,		LV_K('q', 'Q', LV_KEY_F(10)),						\
	  "quit", "quit",						\
	  "back", "back to the tables")					\
	_(HELP,		LV_K('?', LV_KEY_F(1)),						\
	  "help", "this help",						\
	  NULL, "back to the tables")					\
	_(PREV_PROC,	LV_K(LV_KEY_LEFT, 'h'),					\
	  "", "walk the process bar to the left",			\
	  NULL, "back to the tables")					\
	_(NEXT_PROC,	LV_K(LV_KEY_RIGHT, 'l'),				\
	  "process", "walk the process bar to the right",		\
	  NULL, NULL)							\
	_(UP,		LV_K(LV_KEY_UP, 'k'),					\
	  NULL, "move the cursor (>) up in its table",			\
	  "", "scroll up a line")					\
	_(DOWN,		LV_K(LV_KEY_DOWN, 'j'),					\
	  NULL, "move the cursor down",					\
	  "", "scroll down a line")					\
	_(PAGE_UP,	LV_K(LV_KEY_PGUP),					\
	  NULL, "a page up",						\
	  "", "a page up")						\
	_(PAGE_DOWN,	LV_K(LV_KEY_PGDN),					\
	  NULL, "a page down",						\
	  "", "a page down")						\
	_(FIRST,	LV_K(LV_KEY_HOME),					\
	  NULL, "the first row",					\
	  "", "the top")						\
	_(LAST,		LV_K(LV_KEY_END),					\
	  NULL, "the last row",						\
	  "scroll", "the end")						\
	_(FOCUS,	LV_K(LV_KEY_TAB),					\
	  NULL, "move the cursor to the other table",			\
	  "", "in the details: the cursor (>) to the next line of "	\
	  "\"Waiting for\" (a waker) or \"Ran instead\"")			\
	_(FOCUS_BACK,	LV_K(LV_KEY_BTAB),					\
	  NULL, "move the cursor to the other table",			\
	  "waker", "in the details: the cursor to the line before")	\
	_(DETAILS,	LV_K(LV_KEY_ENTER),					\
	  "details", "details of the row: percentiles, the worst "	\
	  "occurrences (when they ended), whom its waits waited for "	\
	  "(the wakers, and what they did meanwhile: their own waits, "	\
	  "folded, and theirs) or who ran instead, kernel stacks and "	\
	  "reason paths",						\
	  NULL, "back to the tables")					\
	_(FOLD,		LV_K(' ', 'f'),						\
	  NULL, NULL,							\
	  "fold", "in the details: unfold the waker under the cursor "	\
	  "(+) to what it waited for in turn, or fold it (-)")		\
	_(WAKER,	LV_K('g'),						\
	  NULL, NULL,							\
	  "go to", "in the details: go to the process of the waker (or "	\
	  "of the task that ran instead) under the cursor: its table, "	\
	  "the cursor on the waker's own wait (Enter: its details)")	\
	_(BACK,		LV_K(LV_KEY_ESC, LV_KEY_BACKSPACE),			\
	  NULL, NULL,							\
	  NULL, "back to the tables")					\
	_(FILTER,	LV_K('s', LV_KEY_F(4)),						\
	  NULL, "then a letter: only processes whose name starts with " \
	  "it (then space: all again; Esc: as it was)",			\
	  NULL, NULL)							\
	_(SORT,		LV_K('o', LV_KEY_F(6)),						\
	  NULL, "sort by maximum, total, count, average",		\
	  NULL, NULL)							\
	_(SEARCH,	LV_K('/', LV_KEY_F(3)),						\
	  "search", "search (any case) every table: the global "	\
	  "table's causes, then each process of the bar: its name, "	\
	  "pid, threads' names and tids, and its table's causes "	\
	  "(its threads' are among them); Enter: the first match "	\
	  "from the cursor on",						\
	  NULL, NULL)							\
	_(SEARCH_NEXT,	LV_K('n'),						\
	  NULL, "the next match in the screen's order (the global "	\
	  "table, then the bar from the left, each process before its " \
	  "table), round to the first; the status line says \"match k "	\
	  "of n\"",							\
	  NULL, NULL)							\
	_(SEARCH_PREV,	LV_K('N'),						\
	  NULL, "the match before, round to the last",			\
	  NULL, NULL)							\
	_(WINDOW_PREV,	LV_K('['),						\
	  "", "the previous window of --window (30 s by default); "	\
	  "before the first: the whole trace",				\
	  NULL, NULL)							\
	_(WINDOW_NEXT,	LV_K(']'),						\
	  "window", "the next window",					\
	  NULL, NULL)							\
	_(INFO,		LV_K('i'),						\
	  "info", "the trace: its sources, what it lacks, what was "	\
	  "lost and what was not charged",				\
	  NULL, "back to the tables")					\
	_(HTML,		LV_K('w'),						\
	  NULL, "write what is shown as one HTML page, with a flame "	\
	  "graph and a timeline: TRACE.html in the current directory "	\
	  "(TRACE-windowN.html for a window)",				\
	  NULL, NULL)

#define LV_K(...)	{ __VA_ARGS__ }

enum lv_request {
	LV_REQ_NONE,
#define LV_REQ_ENUM(req, keys, st, help, text_st, text_help) LV_REQ_##req,
	LV_REQUESTS(LV_REQ_ENUM)
#undef LV_REQ_ENUM
	LV_REQ_NR
};

struct lv_request_info {
	const char *name;		/* "NEXT_PROC" */
	int keys[LV_KEYS_MAX];		/* 0 ends them */
	const char *status, *help;	/* on the tables */
	const char *text_status, *text_help;	/* on the other screens */
};

/* @req's row; NULL for LV_REQ_NONE or out of range. */
const struct lv_request_info *lv_request_info(enum lv_request req);
/* The request @key is bound to, or LV_REQ_NONE. */
enum lv_request lv_key_request(int key);

/*
 * "Up", "Enter", "q": @key as the help, the status line and --keys name
 * it (" " is "Space", '<' "lt"), in @buf.
 */
const char *lv_key_name(int key, char *buf, size_t len);
/* The key named by the @len bytes at @name (lv_key_name()'s), or -1. */
int lv_key_by_name(const char *name, size_t len);
/* Every name lv_key_by_name() knows, as "<Up> <Down> ...", in @buf. */
const char *lv_key_names(char *buf, size_t len);

#endif /* LV_KEYS_H */
