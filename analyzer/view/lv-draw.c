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
#include "lv-text.h"

#define MIN_COLS	40
#define MIN_LINES	10
#define MEDIUM		64	/* from here on, Total too */
#define WIDE		100	/* and Average and Count */
#define MAX_CAUSE	160

static const char *const kind_name[LT_CAUSE_NR] = {
	[LT_CAUSE_ANNOTATED] = "annotated by the kernel",
	[LT_CAUSE_TRANSLATED] = "translated from its kernel stack",
	[LT_CAUSE_FUNCTION] = "blocking function of its kernel stack",
	[LT_CAUSE_UNKNOWN] = "no annotation and no stack",
	[LT_CAUSE_SCHED] = "runnable, waiting for a CPU",
};

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

static void range_text(const struct lv_model *m, char *buf, size_t len)
{
	const struct lt_report *r = m->rep;
	const struct lt_report_view *v = lv_model_view(m);
	char d[32], a[32], b[32];

	if (m->view < 0 && (v->start_ns != r->start_ns || v->end_ns != r->end_ns))
		/* cut by --from or --to: where, as the windows say it */
		snprintf(buf, len, "range +%s .. +%s, %s",
			 v->start_ns == r->start_ns ? "0 s" :
			 dur(a, sizeof(a), v->start_ns - r->start_ns),
			 dur(b, sizeof(b), v->end_ns - r->start_ns),
			 dur(d, sizeof(d), v->end_ns - v->start_ns));
	else if (m->view < 0)
		snprintf(buf, len, "whole trace, %s",
			 dur(d, sizeof(d), v->end_ns - v->start_ns));
	else	/* numbered and written as latency-analyze --window does */
		snprintf(buf, len, "window %ld [0-%zu]: +%s .. +%s", m->view,
			 r->nr_windows - 1, v->start_ns == r->start_ns ? "0 s" :
			 dur(a, sizeof(a), v->start_ns - r->start_ns),
			 dur(b, sizeof(b), v->end_ns - r->start_ns));
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
 * Table @t in @height lines from line @y, its head first, rows in @sort's
 * order; the cursor row reversed when @focused, underlined when not;
 * @empty what it says without rows.
 */
static void table(struct lv_table *t, enum lt_sort sort, int y, int height,
		  bool focused, const char *empty)
{
	/* a cause cut to fit here is still wider than a cell: it gets its '~' */
	char cause[CELL_BYTES + 4], c[CELL_BYTES], line[CELL_BYTES + 128],
	     mx[32], avg[32], tot[32], cnt[24], pct[16];
	int cw = lt_format_count_width(t->rows, t->nr), cause_w, i;
	enum cols cols;
	size_t k;

	cols = COLS >= WIDE ? COLS_WIDE : COLS >= MEDIUM ? COLS_MEDIUM :
	       COLS_NARROW;
	cause_w = COLS - 1 - (cols == COLS_WIDE ? 11 + 11 + cw + 1 + 12 + 8 :
			      cols == COLS_MEDIUM ? 11 + 12 + 8 : 11 + 8);
	/* the numbers stay near their causes on a very wide terminal */
	if (cause_w > MAX_CAUSE)
		cause_w = MAX_CAUSE;
	row_text(line, sizeof(line), cols, sort, cw,
		 cell(c, sizeof(c), "Cause", cause_w), "Maximum", "Average",
		 "Count", "Total", "Percent");
	put(y, 0, A_BOLD, line);
	height--;
	if (height < 1)
		return;
	t->page = (size_t)height;
	/* no blank lines under the last row while rows are above the top */
	if (t->top + (size_t)height > t->nr)
		t->top = t->nr > (size_t)height ? t->nr - (size_t)height : 0;
	/* the cursor stays on screen */
	if (t->sel < t->top)
		t->top = t->sel;
	if (t->sel >= t->top + (size_t)height)
		t->top = t->sel - (size_t)height + 1;
	if (!t->nr)
		put(y + 1, 1, 0, empty);
	for (i = 0; i < height; i++) {
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
		put(y + 1 + i, 0, k == t->sel ? (focused ? A_REVERSE : A_UNDERLINE) : 0,
		    line);
	}
}

/*
 * A name in the bar, " comm " or "[comm]" for the cursor's, as drawn
 * (lv-text.h); a name longer than a few words (a saved report may hold
 * any) is cut with '~' so that its brackets stay.  Returns its columns.
 */
#define BAR_NAME_MAX	40
#define BAR_NAME_BYTES	(BAR_NAME_MAX * 4 + 4)	/* UTF-8, '~', brackets */

static int bar_name(char *buf, size_t len, const char *comm, bool cur)
{
	char name[BAR_NAME_MAX * 4 + 1];
	size_t used;
	int w = lv_text_fit(name, sizeof(name), comm, BAR_NAME_MAX, &used);
	bool cut = comm[used] != '\0';

	snprintf(buf, len, cur ? "[%s%s]" : " %s%s ", name, cut ? "~" : "");
	return w + cut + 2;
}

/* The process bar: names side by side, scrolled to keep the cursor's in sight. */
static void process_bar(const struct lv_model *m, int y)
{
	const struct lt_report_process *p;
	int x, start = 0, pos = 0, len, cur_x = 0, cur_len = 0, right;
	char prefix[32] = "";
	size_t i;

	if (m->filter)
		snprintf(prefix, sizeof(prefix), "s:%c ", m->filter);
	if (!m->nr_procs) {
		putf(y, 0, 0, "%s(no process)", prefix);
		return;
	}
	/* where the cursor's name falls, to scroll the bar (as drawn below) */
	for (i = 0; i < m->nr_procs; i++) {
		char name[BAR_NAME_BYTES];

		len = bar_name(name, sizeof(name), lv_model_proc_at(m, i)->comm,
			       false) + 1;
		if (i == m->proc) {
			cur_x = pos;
			cur_len = len;
		}
		pos += len;
	}
	x = (int)strlen(prefix);
	if (cur_x + cur_len > COLS - x)
		start = cur_x + cur_len - (COLS - x);
	/*
	 * Names beyond either edge: '<' and '>' take the edge columns, which
	 * the names then leave alone (a two-column character half under a
	 * marker would shift the rest of the terminal's line).
	 */
	right = pos - 1 - start > COLS - x ? COLS - 1 : COLS;
	put(y, 0, A_BOLD, prefix);
	for (pos = 0, i = 0; i < m->nr_procs; i++) {
		char name[BAR_NAME_BYTES];

		p = lv_model_proc_at(m, i);
		len = bar_name(name, sizeof(name), p->comm, i == m->proc) + 1;
		if (pos + len > start && pos - start + x < right) {
			int skip = pos < start ? start - pos : 0, over, col;
			const char *rest;

			if (start > 0 && pos <= start)
				skip++;		/* its first column is the '<' */
			rest = lv_text_skip(name, skip, &over);
			col = x + pos - start + skip + over;
			put_in(y, col, i == m->proc ? A_REVERSE : 0, rest,
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

static void main_screen(struct lv_model *m)
{
	const struct lt_report_view *v = lv_model_view(m);
	const struct lt_report_process *p = lv_model_process(m);
	bool selected = lt_task_filter_active(&m->rep->options.tasks);
	int body = LINES - 7, g, l, y;
	char d[32], tot[32], more[64], line[256], uncharged[96];
	const char *rows;

	/*
	 * Rows for the two tables: the process table what it needs up to
	 * half, the global table the rest, and back to the process table
	 * whatever the global one leaves.
	 */
	l = m->local.nr < (size_t)body / 2 ? (int)m->local.nr : body / 2;
	g = body - l;
	if ((size_t)g > m->global.nr)
		g = m->global.nr ? (int)m->global.nr : 1;
	l = body - g;
	table(&m->global, m->sort, 2, g + 1, m->focus == LV_FOCUS_GLOBAL,
	      lt_report_global_empty(m->rep, v));
	/* as latency-analyze words it, or shorter than the screen: the total shows */
	dur(d, sizeof(d), v->total_ns);
	rows = shown(more, sizeof(more), &m->global, g);
	if (snprintf(line, sizeof(line), "Global latencies%s%s: %s charged%s",
		     selected ? " of the selected tasks" : "",
		     m->rep->options.kernel_threads ? "" :
		     " (kernel threads excluded)", d, rows) > COLS)
		snprintf(line, sizeof(line), "Global%s%s: %s%s",
			 selected ? ", selected" : "",
			 m->rep->options.kernel_threads ? "" :
			 " (no kernel threads)", d, rows);
	put(1, 0, 0, line);
	y = 3 + g;
	process_bar(m, y++);
	table(&m->local, m->sort, y + 1, l + 1, m->focus == LV_FOCUS_PROCESS,
	      p && p->user_requested.count ?
	      "(none charged: its waits were user requested)" :
	      "(no latencies)");
	if (!p)
		return;
	/* waits it asked for (sleep, poll): not charged, but it waited */
	uncharged[0] = '\0';
	if (p->user_requested.count)
		snprintf(uncharged, sizeof(uncharged),
			 "  Not charged: %" PRIu64 " user-requested (%s)",
			 p->user_requested.count,
			 dur(d, sizeof(d), p->user_requested.total_ns));
	putf(y, 0, A_BOLD, "Process %s (%d)%s  Total: %s%s%s", p->comm, p->pid,
	     p->kernel_thread ? " [kernel thread]" : "",
	     dur(tot, sizeof(tot), p->total_ns),
	     shown(more, sizeof(more), &m->local, l), uncharged);
}

/* Lines of a scrolling screen, kept until drawn. */
struct text {
	char **line;
	size_t nr, cap;
};

static void __attribute__((format(printf, 2, 3)))
add(struct text *t, const char *fmt, ...)
{
	va_list ap;
	char *s;

	va_start(ap, fmt);
	if (vasprintf(&s, fmt, ap) < 0)
		s = NULL;
	va_end(ap);
	if (!s)
		return;		/* out of memory: a shorter screen */
	if (t->nr == t->cap) {
		size_t ncap = t->cap ? t->cap * 2 : 64;
		char **n = realloc(t->line, ncap * sizeof(*n));

		if (!n) {
			free(s);
			return;
		}
		t->line = n;
		t->cap = ncap;
	}
	t->line[t->nr++] = s;
}

#define WRAP_INDENT	4

/*
 * The screen line that starts at @s, to be drawn at column @x (a line's
 * first at 0, the rest indented), in @buf as drawn; returns what is left.
 * A word is not cut where a space before it can end the line: the "i"
 * screen's trace-cmd command must copy whole.  Stack frames have none.
 */
static const char *wrap_piece(char *buf, size_t size, const char *s, int x)
{
	size_t used, keep;
	char *piece;

	lv_text_fit(buf, size, s, COLS - x, &used);
	if (s[used] == ' ')
		return s + used + strspn(s + used, " ");
	if (!s[used])
		return s + used;
	for (keep = used; keep && s[keep - 1] != ' '; keep--)
		;
	/*
	 * A space ends the line (0x20 is never inside a UTF-8 character),
	 * but not the indent: the word would only move under it, and be cut.
	 */
	if (keep <= strspn(s, " ") || !(piece = strndup(s, keep)))
		return s + used;
	lv_text_fit(buf, size, piece, COLS - x, NULL);
	free(piece);
	return s + keep;
}

/* Where @line's wrapped pieces start: past its own indent, and then some. */
static int cont_x(const char *line)
{
	int lead = (int)strspn(line, " ");

	return lead < COLS / 2 ? lead + WRAP_INDENT : WRAP_INDENT;
}

/*
 * @t's lines from the scroll position, those wider than the screen
 * wrapped (the rest indented), so that no stack frame or reason path is
 * cut; @t is freed.
 */
static void text_show(struct lv_model *m, struct text *t, const char *title)
{
	size_t height = (size_t)(LINES - 2), rows = 0, i, row;
	const char *s;
	char buf[1024];
	int x, y;

	/* how many screen lines the text takes, wrapped as drawn below */
	for (i = 0; i < t->nr; i++)
		for (s = t->line[i], x = 0; !x || *s; x = cont_x(t->line[i]), rows++)
			s = wrap_piece(buf, sizeof(buf), s, x);
	if (m->scroll + height > rows)
		m->scroll = rows > height ? rows - height : 0;
	m->text_page = height;
	bar(0, A_REVERSE, title);
	for (row = 0, y = 1, i = 0; i < t->nr && y <= (int)height; i++) {
		for (s = t->line[i], x = 0; !x || *s; x = cont_x(t->line[i])) {
			s = wrap_piece(buf, sizeof(buf), s, x);
			if (row++ >= m->scroll && y <= (int)height)
				mvaddstr(y++, x, buf);
		}
	}
	for (i = 0; i < t->nr; i++)
		free(t->line[i]);
	free(t->line);
}

static void detail_screen(struct lv_model *m)
{
	const struct lt_report_row *r = lv_model_row(m);
	const struct lt_report_process *p = lv_model_process(m);
	/* whole, wrapped: a long UTF-8 cause (3 bytes a character) too */
	char cause[1024], a[32], b[32], c[32], d[32], range[96];
	struct text t = { 0 };
	size_t i;
	unsigned int k;

	if (!r) {
		m->screen = LV_SCREEN_MAIN;
		return;
	}
	lt_format_cause(cause, sizeof(cause), r, 0);
	range_text(m, range, sizeof(range));
	add(&t, "%s", cause);
	add(&t, "  %s", kind_name[r->kind < LT_CAUSE_NR ? r->kind : LT_CAUSE_UNKNOWN]);
	if (m->focus == LV_FOCUS_PROCESS && p)
		add(&t, "  in process %s (%d), %s", p->comm, p->pid, range);
	else
		add(&t, "  in the global table, %s", range);
	add(&t, "%s", "");
	add(&t, "Count %" PRIu64 "   Total %s   Maximum %s   Average %s", r->count,
	    dur(a, sizeof(a), r->total_ns), dur(b, sizeof(b), r->max_ns),
	    dur(c, sizeof(c), r->avg_ns));
	add(&t, "Median %s   90th percentile %s   99th percentile %s",
	    dur(a, sizeof(a), r->p50_ns), dur(b, sizeof(b), r->p90_ns),
	    dur(c, sizeof(c), r->p99_ns));
	add(&t, "%.1f%% of the table's time", r->percent);
	add(&t, "Longest ended at %s s, thread %d",
	    lt_format_stamp(d, sizeof(d), r->max_at_ns), r->max_tid);
	add(&t, "%s", "");
	add(&t, "Worst occurrences (%u)", r->nr_worst);
	for (k = 0; k < r->nr_worst; k++)
		add(&t, "  %10s   ended at %s s   thread %d",
		    dur(a, sizeof(a), r->worst[k].dur_ns),
		    lt_format_stamp(d, sizeof(d), r->worst[k].end_ns),
		    r->worst[k].tid);
	add(&t, "%s", "");
	add(&t, "Kernel stacks and reason paths (%zu distinct)", r->nr_stacks);
	for (i = 0; i < r->nr_stacks; i++) {
		const struct lt_report_stack *s = &r->stacks[i];
		char path[1024] = "";
		size_t used = 0;

		for (k = 0; k < s->path_depth && used < sizeof(path); k++)
			used += (size_t)snprintf(path + used, sizeof(path) - used,
						 "%s%s", k ? " > " : ", in ", s->path[k]);
		add(&t, "  %" PRIu64 " wait%s, %s, max %s%s", s->count,
		    s->count == 1 ? "" : "s", dur(a, sizeof(a), s->total_ns),
		    dur(b, sizeof(b), s->max_ns), s->path_depth > 1 ? path : "");
		for (k = 0; k < s->nr_frames; k++)
			add(&t, "      %s", s->frames[k]);
		if (!s->nr_frames)
			add(&t, "      (no kernel stack recorded)");
	}
	text_show(m, &t, " Details");
}

/* Lines of @fn's text output, added to @t (nothing when out of memory). */
static void add_output(struct text *t, const struct lv_model *m,
		       int (*fn)(const struct lt_report *,
				 const struct lt_report_view *, FILE *))
{
	char *buf = NULL, *line, *next;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		return;
	fn(m->rep, lv_model_view(m), f);
	if (fclose(f) == 0)
		for (line = buf; line && *line; line = next) {
			next = strchr(line, '\n');
			if (next)
				*next++ = '\0';
			add(t, "%s", line);
		}
	free(buf);
}

static int write_header(const struct lt_report *r,
			const struct lt_report_view *v, FILE *out)
{
	(void)v;
	return lt_report_write_header(r, out);
}

/* What latency-analyze says before its tables: sources, losses, drops. */
static void info_screen(struct lv_model *m)
{
	char range[96];
	struct text t = { 0 };

	add_output(&t, m, write_header);
	range_text(m, range, sizeof(range));
	add(&t, "%s", "");
	add(&t, "Shown: %s", range);
	add_output(&t, m, lt_report_write_view_head);
	text_show(m, &t, " Trace");
}

/* "q, Q": @info's keys as the help names them, in @buf */
static const char *key_list(char *buf, size_t len,
			    const struct lv_request_info *info)
{
	char name[16];
	size_t used = 0;
	int k;

	buf[0] = '\0';
	for (k = 0; k < LV_KEYS_MAX && info->keys[k] && used < len; k++)
		used += (size_t)snprintf(buf + used, len - used, "%s%s",
					 k ? ", " : "",
					 lv_key_name(info->keys[k], name, sizeof(name)));
	return buf;
}

#define HELP_KEYS_W	18	/* the keys' column of the help */

/*
 * The help rows of one screen, from the request table: a request's keys
 * and what they do (@text: on the details, trace and help screens);
 * requests that do the same there share a row.
 */
static void help_keys(struct text *t, bool text)
{
	const struct lv_request_info *info, *other;
	char keys[128];
	size_t used;
	int r, o;

	for (r = LV_REQ_NONE + 1; r < LV_REQ_NR; r++) {
		const char *what;

		info = lv_request_info((enum lv_request)r);
		what = text ? info->text_help : info->help;
		if (!what)
			continue;
		/* said with an earlier request's keys already */
		for (o = LV_REQ_NONE + 1; o < r; o++) {
			other = lv_request_info((enum lv_request)o);
			if ((text ? other->text_help : other->help) &&
			    !strcmp(text ? other->text_help : other->help, what))
				break;
		}
		if (o < r)
			continue;
		key_list(keys, sizeof(keys), info);
		used = strlen(keys);
		for (o = r + 1; o < LV_REQ_NR; o++) {
			other = lv_request_info((enum lv_request)o);
			if ((text ? other->text_help : other->help) &&
			    !strcmp(text ? other->text_help : other->help, what) &&
			    used + 2 < sizeof(keys)) {
				strcat(keys, ", ");
				key_list(keys + used + 2, sizeof(keys) - used - 2, other);
				used = strlen(keys);
			}
		}
		add(t, "  %-*s %s", HELP_KEYS_W - 3, keys, what);
	}
}

static void help_screen(struct lv_model *m)
{
	struct text t = { 0 };

	add(&t, "latency-view: LatencyTOP's screen over a recorded trace");
	add(&t, "%s", "");
	add(&t, "The top table is the global one (every user process; kernel "
	    "threads too with --kernel-threads); below the process bar, the "
	    "selected process's own table.");
	add(&t, "%s", "");
	add(&t, "Keys on the tables:");
	help_keys(&t, false);
	add(&t, "%s", "");
	add(&t, "Keys on the details, trace and help screens:");
	help_keys(&t, true);
	add(&t, "%s", "");
	add(&t, "The same numbers as latency-analyze given the same options.");
	text_show(m, &t, " Help");
}

/*
 * "q quit  ? help  Left/Right process": the requests with a word for the
 * status line of this screen (@text), each after its first key; a ""
 * word joins its key to the next item's.
 */
static void status_keys(char *buf, size_t len, bool text)
{
	const struct lv_request_info *info;
	char name[16];
	size_t used = 0;
	bool join = false;
	int r;

	buf[0] = '\0';
	for (r = LV_REQ_NONE + 1; r < LV_REQ_NR && used < len; r++) {
		const char *word;

		info = lv_request_info((enum lv_request)r);
		word = text ? info->text_status : info->status;
		if (!word)
			continue;
		used += (size_t)snprintf(buf + used, len - used, "%s%s%s",
					 used && !join ? "  " : join ? "/" : "",
					 lv_key_name(info->keys[0], name, sizeof(name)),
					 *word ? " " : "");
		if (used < len)
			used += (size_t)snprintf(buf + used, len - used, "%s", word);
		join = !*word;
	}
}

static void status_line(const struct lv_model *m)
{
	char buf[256];

	if (m->prompt)
		snprintf(buf, sizeof(buf), "/%.*s", (int)m->input_len, m->input);
	else if (m->msg[0])
		snprintf(buf, sizeof(buf), "%s", m->msg);
	else
		status_keys(buf, sizeof(buf), m->screen != LV_SCREEN_MAIN);
	bar(LINES - 1, A_REVERSE, buf);
}

void lv_draw(struct lv_model *m, const char *path)
{
	char title[512], range[96];
	const char *base;

	erase();
	if (COLS < MIN_COLS || LINES < MIN_LINES) {
		putf(0, 0, 0, "too small: %dx%d < %dx%d", COLS, LINES, MIN_COLS,
		     MIN_LINES);
		return;
	}
	if (m->screen == LV_SCREEN_HELP)
		help_screen(m);
	else if (m->screen == LV_SCREEN_INFO)
		info_screen(m);
	else if (m->screen == LV_SCREEN_DETAIL)
		detail_screen(m);	/* back to the main screen when no row */
	if (m->screen == LV_SCREEN_MAIN) {
		range_text(m, range, sizeof(range));
		base = strrchr(path, '/');
		/* what changes first: a long path is cut, not the range */
		snprintf(title, sizeof(title), " LatencyTOP  %s%s  sort: %s  %s",
			 m->rep->partial ? "PARTIAL  " : "", range,
			 lv_model_sort_name(m->sort), base ? base + 1 : path);
		bar(0, A_REVERSE, title);
		main_screen(m);
	}
	status_line(m);
}
