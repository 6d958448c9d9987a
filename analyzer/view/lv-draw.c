// SPDX-License-Identifier: GPL-2.0
/*
 * lv-draw.c - latency-view's screens (lv-draw.h).
 */
#define _GNU_SOURCE	/* vasprintf */
#include <curses.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lv-draw.h"
#include "lv-layout.h"
#include "lv-page.h"
#include "lv-text.h"

/*
 * What stands out, and how: in colour where the terminal has it (and
 * NO_COLOR is not set), else in attributes alone, which any terminal
 * curses can drive shows.  The text is the same either way.
 */
enum look { LOOK_BAR, LOOK_WORST, LOOK_PROC, LOOK_TITLE, LOOK_NR };

static attr_t looks[LOOK_NR] = {
	[LOOK_BAR] = A_REVERSE,		/* the title and status bars */
	[LOOK_WORST] = A_BOLD,		/* rows whose maximum is near the table's worst */
	[LOOK_PROC] = A_REVERSE,	/* the chosen process in the bar */
	[LOOK_TITLE] = A_BOLD,		/* the process's title */
};

bool lv_draw_colors(void)
{
	const char *no = getenv("NO_COLOR");

	/* no-color.org: set and not empty */
	if ((no && *no) || !has_colors() || start_color() != OK)
		return false;
	use_default_colors();
	/* htop's: black on cyan bars, red for the worst, the choice in green */
	init_pair(1, COLOR_BLACK, COLOR_CYAN);
	init_pair(2, COLOR_RED, -1);
	init_pair(3, COLOR_BLACK, COLOR_GREEN);
	init_pair(4, COLOR_CYAN, -1);
	looks[LOOK_BAR] = COLOR_PAIR(1);
	looks[LOOK_WORST] = COLOR_PAIR(2) | A_BOLD;
	looks[LOOK_PROC] = COLOR_PAIR(3) | A_BOLD;
	looks[LOOK_TITLE] = COLOR_PAIR(4) | A_BOLD;
	return true;
}

#define MEDIUM		64	/* from here on, Total too */
#define WIDE		100	/* and Average and Count */
#define MAX_CAUSE	1000	/* a cell's columns at most */

/*
 * @s at (y, x), cut to the screen's width.  What cannot be drawn (a task
 * may name itself anything) shows as '?' (lv-text.h): a newline or an
 * escape must not break the layout.
 */
static void put_in(int y, int x, int attr, const char *s, int room)
{
	char buf[1024];

	if (room > COLS - x)
		room = COLS - x;
	if (room <= 0 || y >= LINES)
		return;
	lv_text_fit(buf, sizeof(buf), s, room, NULL);
	attron(attr);
	mvaddstr(y, x, buf);
	attroff(attr);
}

static void put(int y, int x, int attr, const char *s)
{
	put_in(y, x, attr, s, COLS - x);
}

static void __attribute__((format(printf, 4, 5)))
putf(int y, int x, int attr, const char *fmt, ...)
{
	char buf[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	put(y, x, attr, buf);
}

/* A whole line in @attr (a bar): padded to the width. */
static void bar(int y, int attr, const char *s)
{
	char buf[1024];
	int x;

	lv_text_fit(buf, sizeof(buf), s, COLS, NULL);
	attron(attr);
	mvaddstr(y, 0, buf);
	for (x = getcurx(stdscr); x >= 0 && x < COLS; x++)
		addch(' ');	/* the last cell of the screen may refuse: fine */
	attroff(attr);
}

static const char *dur(char *buf, size_t len, uint64_t ns)
{
	return lt_format_duration(buf, len, ns);
}

/*
 * Which columns fit: the cause keeps room first (LatencyTOP showed only
 * Cause, Maximum and Percentage), then come Total, Average and Count.
 */
enum cols { COLS_NARROW, COLS_MEDIUM, COLS_WIDE };

/* Bytes of a cell of MAX_CAUSE columns: UTF-8 takes up to 4 a column. */
#define CELL_BYTES	(MAX_CAUSE * 4 + 1)

/*
 * @s in a cell of @cols columns (as drawn, lv-text.h): cut with '~' when
 * longer, padded with blanks when shorter, so that the numbers after it
 * line up whatever the bytes of its characters.
 */
static const char *cell(char *buf, size_t size, const char *s, int cols)
{
	size_t used, n;
	int w;

	buf[0] = '\0';
	if (cols < 1)
		return buf;
	w = lv_text_fit(buf, size, s, cols, &used);
	if (s[used]) {
		w = lv_text_fit(buf, size - 1, s, cols - 1, NULL);
		n = strlen(buf);
		buf[n++] = '~';
		w++;
	} else {
		n = strlen(buf);
	}
	while (w++ < cols && n + 1 < size)
		buf[n++] = ' ';
	buf[n] = '\0';
	return buf;
}

/*
 * One row (or the head) in the columns that fit, its cause a cell() of
 * the width the numbers leave.  Narrower, a column the rows are sorted by
 * takes the place of Total (or of Maximum): the order must show.
 */
static void row_text(char *line, size_t len, enum cols cols, enum lt_sort sort,
		     int cw, const char *cause, const char *mx,
		     const char *avg, const char *count, const char *tot,
		     const char *pct)
{
	const char *key = sort == LT_SORT_COUNT ? count :
			  sort == LT_SORT_AVG ? avg : NULL;

	switch (cols) {
	case COLS_WIDE:
		snprintf(line, len, " %s %10s %10s %*s %11s %7s", cause, mx,
			 avg, cw, count, tot, pct);
		break;
	case COLS_MEDIUM:
		snprintf(line, len, " %s %10s %11s %7s", cause, mx,
			 key ? key : tot, pct);
		break;
	default:
		snprintf(line, len, " %s %10s %7s", cause, key ? key : mx, pct);
	}
}

/*
 * Table @t in @rows rows under its head at line @y, rows in @sort's
 * order from its top (the model keeps the cursor in sight); the cursor
 * row reversed when @focused, underlined when not; @empty what it says
 * without rows.  The cause column is as wide as @cause_cols (the view's
 * widest) where the screen has room, so the numbers stay by the causes.
 */
static void table(const struct lv_table *t, enum lt_sort sort, int y, int rows,
		  bool focused, int cause_cols, const char *empty)
{
	/* a cause cut to fit here is still wider than a cell: it gets its '~' */
	char cause[CELL_BYTES + 4], c[CELL_BYTES], line[CELL_BYTES + 128],
	     mx[32], avg[32], tot[32], cnt[24], pct[16];
	int cw = lt_format_count_width(t->rows, t->nr), cause_w, i, attr;
	uint64_t worst = 0;
	enum cols cols;
	size_t k;

	for (k = 0; k < t->nr; k++)
		if (t->rows[k].max_ns > worst)
			worst = t->rows[k].max_ns;
	cols = COLS >= WIDE ? COLS_WIDE : COLS >= MEDIUM ? COLS_MEDIUM :
	       COLS_NARROW;
	cause_w = COLS - 1 - (cols == COLS_WIDE ? 11 + 11 + cw + 1 + 12 + 8 :
			      cols == COLS_MEDIUM ? 11 + 12 + 8 : 11 + 8);
	if (cause_w > cause_cols)
		cause_w = cause_cols > (int)strlen("Cause") ? cause_cols :
			  (int)strlen("Cause");
	if (cause_w > MAX_CAUSE)
		cause_w = MAX_CAUSE;
	row_text(line, sizeof(line), cols, sort, cw,
		 cell(c, sizeof(c), "Cause", cause_w), "Maximum", "Average",
		 "Count", "Total", "Percent");
	put(y, 0, A_BOLD, line);
	if (!t->nr)
		put(y + 1, 1, 0, empty);
	for (i = 0; i < rows; i++) {
		const struct lt_report_row *r;

		k = t->top + (size_t)i;
		if (k >= t->nr)
			break;
		r = &t->rows[k];
		lt_format_cause(cause, sizeof(cause), r, 0);
		snprintf(cnt, sizeof(cnt), "%" PRIu64, r->count);
		snprintf(pct, sizeof(pct), "%6.1f%%", r->percent);
		row_text(line, sizeof(line), cols, sort, cw,
			 cell(c, sizeof(c), cause, cause_w),
			 dur(mx, sizeof(mx), r->max_ns),
			 dur(avg, sizeof(avg), r->avg_ns), cnt,
			 dur(tot, sizeof(tot), r->total_ns), pct);
		/* '>' too: the cursor shows in --dump and on any terminal */
		if (k == t->sel && focused)
			line[0] = '>';
		/* the worst stand out: a maximum at least half the table's */
		attr = r->max_ns >= worst / 2 + worst % 2 ? (int)looks[LOOK_WORST] : 0;
		if (k == t->sel)
			attr |= focused ? A_REVERSE : A_UNDERLINE;
		put(y + 1 + i, 0, attr, line);
	}
}

/* The process bar: names side by side, scrolled to keep the cursor's in sight. */
static void process_bar(const struct lv_model *m, int y)
{
	int x, start, pos = 0, len, right;
	char prefix[32] = "";
	size_t i;

	if (m->filter)
		snprintf(prefix, sizeof(prefix), "s:%c ", m->filter);
	if (!m->nr_procs) {
		putf(y, 0, 0, "%s(no process)", prefix);
		return;
	}
	lv_bar_geometry(m, &x, &start, &right);
	put(y, 0, A_BOLD, prefix);
	for (pos = 0, i = 0; i < m->nr_procs; i++) {
		char name[LV_BAR_NAME_BYTES];

		len = lv_bar_name(name, sizeof(name), m, i) + 1;
		if (pos + len > start && pos - start + x < right) {
			int skip = pos < start ? start - pos : 0, over, col;
			const char *rest;

			if (start > 0 && pos <= start)
				skip++;		/* its first column is the '<' */
			rest = lv_text_skip(name, skip, &over);
			col = x + pos - start + skip + over;
			put_in(y, col, i == m->proc ? (int)looks[LOOK_PROC] : 0, rest,
			       right - col);
		}
		pos += len;
	}
	if (start > 0)
		put(y, x, A_BOLD, "<");
	if (right < COLS)
		put(y, COLS - 1, A_BOLD, ">");
}

/* " rows 9-16 of 20" when a table does not fit, else "". */
static const char *shown(char *buf, size_t len, const struct lv_table *t,
			 int height)
{
	size_t last = t->top + (size_t)height;

	if (t->nr <= (size_t)height)
		return "";
	snprintf(buf, len, "  (rows %zu-%zu of %zu)", t->top + 1,
		 last < t->nr ? last : t->nr, t->nr);
	return buf;
}

static void main_screen(const struct lv_model *m)
{
	const struct lt_report_view *v = lv_model_view(m);
	const struct lt_report_process *p = lv_model_process(m);
	bool selected = lt_task_filter_active(&m->rep->options.tasks);
	char d[32], tot[32], more[64], line[256], uncharged[128];
	uint64_t stops;
	struct lv_layout lay;
	const char *rows;

	lv_layout_main(m, &lay);
	table(&m->global, m->sort, lay.global_y, lay.global_rows,
	      m->focus == LV_FOCUS_GLOBAL, m->cause_cols,
	      lt_report_global_empty(m->rep, v));
	/* as latency-analyze words it, or shorter than the screen: the total shows */
	dur(d, sizeof(d), v->total_ns);
	rows = shown(more, sizeof(more), &m->global, lay.global_rows);
	if (snprintf(line, sizeof(line), "Global latencies%s%s: %s charged%s",
		     selected ? " of the selected tasks" : "",
		     m->rep->options.kernel_threads ? "" :
		     " (kernel threads excluded)", d, rows) > COLS)
		snprintf(line, sizeof(line), "Global%s%s: %s%s",
			 selected ? ", selected" : "",
			 m->rep->options.kernel_threads ? "" :
			 " (no kernel threads)", d, rows);
	put(lay.title_y, 0, 0, line);
	process_bar(m, lay.bar_y);
	table(&m->local, m->sort, lay.local_y, lay.local_rows,
	      m->focus == LV_FOCUS_PROCESS, m->cause_cols,
	      p && p->user_requested.count ?
	      "(none charged: its waits were user requested)" :
	      "(no latencies)");
	if (!p)
		return;
	/* waits it asked for (sleep, poll), stops: not charged, but it waited */
	uncharged[0] = '\0';
	stops = p->stopped.signal.count + p->stopped.tracer.count;
	if (p->user_requested.count || stops) {
		char st[32], sd[32];

		st[0] = '\0';
		if (stops)
			snprintf(st, sizeof(st), "%" PRIu64 " stopped (%s)", stops,
				 dur(sd, sizeof(sd), p->stopped.signal.total_ns +
				     p->stopped.tracer.total_ns));
		if (p->user_requested.count)
			snprintf(uncharged, sizeof(uncharged),
				 "  Not charged: %" PRIu64 " user-requested (%s)%s%s",
				 p->user_requested.count,
				 dur(d, sizeof(d), p->user_requested.total_ns),
				 stops ? ", " : "", st);
		else
			snprintf(uncharged, sizeof(uncharged),
				 "  Not charged: %s", st);
	}
	putf(lay.proc_y, 0, (int)looks[LOOK_TITLE], "Process %s (%d)%s  Total: %s%s%s", p->comm,
	     p->pid, p->kernel_thread ? " [kernel thread]" : "",
	     dur(tot, sizeof(tot), p->total_ns),
	     shown(more, sizeof(more), &m->local, lay.local_rows), uncharged);
}

/*
 * A scrolling screen's text from the model's scroll position, lines
 * wider than the screen wrapped (lv-page.h), so that no stack frame or
 * reason path is cut.  The line of the details' tree under its cursor
 * stands out as the chosen process does.
 */
static void text_screen(const struct lv_model *m)
{
	size_t height = (size_t)(LINES - 2), row = 0, i;
	struct lv_page pg;
	const char *s;
	char buf[1024];
	int x, px, y = 1;

	lv_page_build(m, &pg);
	bar(0, (int)looks[LOOK_BAR], pg.title ? pg.title : "");
	for (i = 0; i < pg.nr && y <= (int)height; i++) {
		s = pg.line[i];
		x = 0;
		do {
			px = x;
			lv_page_piece(&pg, i, &s, &x, COLS, buf, sizeof(buf));
			if (row++ < m->scroll || y > (int)height)
				continue;
			if (i == pg.mark)
				attron(looks[LOOK_PROC]);
			mvaddstr(y++, px, buf);
			if (i == pg.mark)
				attroff(looks[LOOK_PROC]);
		} while (*s);
	}
	lv_page_free(&pg);
}

static void status_line(const struct lv_model *m)
{
	char buf[256];

	if (m->prompt)
		snprintf(buf, sizeof(buf), "/%.*s", (int)m->input_len, m->input);
	else if (m->msg[0])
		snprintf(buf, sizeof(buf), "%s", m->msg);
	else
		lv_page_status(m, buf, sizeof(buf));
	bar(LINES - 1, (int)looks[LOOK_BAR], buf);
}

void lv_draw(const struct lv_model *m, const char *path)
{
	char title[512], range[96];
	const char *base;

	erase();
	if (COLS < LV_MIN_COLS || LINES < LV_MIN_LINES) {
		putf(0, 0, 0, "too small: %dx%d < %dx%d", COLS, LINES, LV_MIN_COLS,
		     LV_MIN_LINES);
		return;
	}
	if (m->screen != LV_SCREEN_MAIN) {
		text_screen(m);
	} else {
		lv_page_range(m, range, sizeof(range));
		/* live: what is read, as it goes, instead of a file */
		base = m->live ? NULL : strrchr(path, '/');
		if (m->live)
			path = m->live;
		/* what changes first: a long path is cut, not the range */
		snprintf(title, sizeof(title), " LatencyTOP  %s%s  sort: %s  %s",
			 m->rep->partial ? "PARTIAL  " : "", range,
			 lv_model_sort_name(m->sort), base ? base + 1 : path);
		bar(0, (int)looks[LOOK_BAR], title);
		main_screen(m);
	}
	status_line(m);
}
