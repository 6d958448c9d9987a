// SPDX-License-Identifier: GPL-2.0
/*
 * lv-model.c - latency-view's state and what each key does to it
 * (lv-model.h).
 */
#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lv-layout.h"
#include "lv-model.h"
#include "lv-page.h"
#include "lv-text.h"

#define PAGE	10	/* rows a page key moves on a screen too small for any */
#define WHEEL	3	/* rows a turn of the mouse wheel scrolls */

static int key_request(struct lv_model *m, int key);

const char *lv_model_sort_name(enum lt_sort sort)
{
	switch (sort) {
	case LT_SORT_TOTAL:	return "total";
	case LT_SORT_COUNT:	return "count";
	case LT_SORT_AVG:	return "average";
	default:		return "maximum";
	}
}

const struct lt_report_view *lv_model_view(const struct lv_model *m)
{
	if (m->view >= 0 && (size_t)m->view < m->rep->nr_windows)
		return &m->rep->windows[m->view];
	return &m->rep->whole;
}

const struct lt_report_process *lv_model_proc_at(const struct lv_model *m,
						 size_t i)
{
	return i < m->nr_procs ? &lv_model_view(m)->processes[m->procs[i]] : NULL;
}

const struct lt_report_process *lv_model_process(const struct lv_model *m)
{
	return lv_model_proc_at(m, m->proc);
}

bool lv_model_name_shared(const struct lv_model *m, size_t i)
{
	return i < m->nr_procs && m->same_name[m->procs[i]];
}

static int by_comm(const void *a, const void *b)
{
	const struct lt_report_process *const *x = a, *const *y = b;

	return strcmp((*x)->comm, (*y)->comm);
}

/*
 * Which of @v's processes share a name: the view's, not the bar's, so
 * that a name reads the same whatever the filter.  0, or -1 (no memory).
 */
static int mark_same_names(struct lv_model *m, const struct lt_report_view *v)
{
	const struct lt_report_process **by;
	size_t i, j, k;

	if (!v->nr_processes)
		return 0;
	by = malloc(v->nr_processes * sizeof(*by));
	if (!by)
		return -1;
	for (i = 0; i < v->nr_processes; i++)
		by[i] = &v->processes[i];
	qsort(by, v->nr_processes, sizeof(*by), by_comm);
	for (i = 0; i < v->nr_processes; i = k) {
		for (k = i + 1; k < v->nr_processes &&
		     !strcmp(by[k]->comm, by[i]->comm); k++)
			;
		for (j = i; j < k; j++)
			m->same_name[by[j] - v->processes] = k - i > 1;
	}
	free(by);
	return 0;
}

static struct lv_table *focused(struct lv_model *m)
{
	return m->focus == LV_FOCUS_PROCESS ? &m->local : &m->global;
}

const struct lt_report_row *lv_model_row(const struct lv_model *m)
{
	const struct lv_table *t = m->focus == LV_FOCUS_PROCESS ? &m->local :
								   &m->global;

	return t->sel < t->nr ? &t->rows[t->sel] : NULL;
}

/* Whether @n is folded or unfolded against its default. */
static bool toggled(const struct lv_model *m, const struct lt_report_chain *n)
{
	size_t i;

	for (i = 0; i < m->nr_toggled; i++)
		if (m->toggled[i] == n)
			return true;
	return false;
}

static void chain_walk(const struct lv_model *m, const struct lt_report_chain *v,
		       size_t nr, unsigned int depth, bool ran,
		       struct lv_chain_line *out, size_t max, size_t *k)
{
	struct lv_chain_line l;
	uint64_t rest = 0;
	size_t i;

	for (i = 0; i < nr; i++) {
		if (i >= LT_REPORT_CHAIN_SHOWN) {
			rest += v[i].ns;
			continue;
		}
		l.node = &v[i];
		l.depth = depth;
		l.ran = ran;
		l.open = v[i].nr_children && (depth == 0) != toggled(m, &v[i]);
		l.ns = v[i].ns;
		l.others = 0;
		if (out && *k < max)
			out[*k] = l;
		(*k)++;
		if (l.open)
			chain_walk(m, v[i].children, v[i].nr_children, depth + 1,
				   ran, out, max, k);
	}
	if (nr <= LT_REPORT_CHAIN_SHOWN)
		return;
	memset(&l, 0, sizeof(l));
	l.depth = depth;
	l.ran = ran;
	l.ns = rest;
	l.others = nr - LT_REPORT_CHAIN_SHOWN;
	if (out && *k < max)
		out[*k] = l;
	(*k)++;
}

size_t lv_model_chain_lines(const struct lv_model *m, struct lv_chain_line *v,
			    size_t max)
{
	const struct lt_report_row *r = lv_model_row(m);
	size_t k = 0;

	if (!r)
		return 0;
	chain_walk(m, r->waited_for, r->nr_waited_for, 0, false, v, max, &k);
	chain_walk(m, r->ran_instead, r->nr_ran_instead, 0, true, v, max, &k);
	return k;
}

/* The tree's line under its cursor, in *@l: false when it has none. */
static bool chain_line(const struct lv_model *m, struct lv_chain_line *l)
{
	struct lv_chain_line *v;
	size_t n = lv_model_chain_lines(m, NULL, 0);
	bool ok = false;

	if (m->chain_sel >= n)
		return false;
	v = malloc(n * sizeof(*v));
	if (!v)
		return false;
	lv_model_chain_lines(m, v, n);
	*l = v[m->chain_sel];
	ok = true;
	free(v);
	return ok;
}

/* The cause under a table's cursor, by name: rows move when sorted. */
struct cause {
	const char *reason, *argument;	/* NULL: none */
};

static struct cause cursor_cause(const struct lv_table *t)
{
	struct cause c = { NULL, NULL };

	if (t->sel < t->nr) {
		c.reason = t->rows[t->sel].reason;
		c.argument = t->rows[t->sel].argument;
	}
	return c;
}

/*
 * Show @nr rows in @t (in the report's order); the cursor stays on the
 * cause @was when that cause is still there.
 */
static void table_fill(struct lv_table *t, const struct lt_report_row *rows,
		       size_t nr, struct cause was)
{
	size_t i;

	t->rows = rows;
	t->nr = nr;
	if (t->sel >= nr)
		t->sel = nr ? nr - 1 : 0;
	for (i = 0; was.reason && i < nr; i++)
		if (!strcmp(rows[i].reason, was.reason) &&
		    !strcmp(rows[i].argument, was.argument)) {
			t->sel = i;
			break;
		}
}

static bool passes(const struct lv_model *m, const struct lt_report_process *p)
{
	return !m->filter || tolower((unsigned char)p->comm[0]) == m->filter;
}

/* Another process's table: its cursor starts at the top. */
static void table_forget(struct lv_table *t)
{
	t->nr = t->sel = t->top = 0;
}

/*
 * The widest cause of @v's tables, so that the numbers stay next to the
 * causes on a wide screen, in the same columns for every process.
 */
static int view_cause_cols(const struct lt_report_view *v)
{
	char cause[1024];
	size_t i, k;
	int w = 0, c;

	for (i = 0; i < v->nr_global; i++) {
		lt_format_cause(cause, sizeof(cause), &v->global[i], 0);
		c = lv_text_fit(cause, sizeof(cause), cause, 1 << 20, NULL);
		w = c > w ? c : w;
	}
	for (k = 0; k < v->nr_processes; k++)
		for (i = 0; i < v->processes[k].nr_rows; i++) {
			lt_format_cause(cause, sizeof(cause), &v->processes[k].rows[i], 0);
			c = lv_text_fit(cause, sizeof(cause), cause, 1 << 20, NULL);
			w = c > w ? c : w;
		}
	return w;
}

/*
 * After the view, filter, sort or process changed: everything shown
 * again.  The chosen process is found again where it is; where it is
 * not, the bar's first one is shown, and the choice is kept for the
 * windows that have it.
 */
static int rebuild_keeping(struct lv_model *m, struct cause global,
			   struct cause local)
{
	const struct lt_report_view *v = lv_model_view(m);
	const struct lt_report_process *p;
	size_t i;

	/* the report in the order shown, as latency-analyze --sort makes it */
	if (m->sort != m->rep->options.sort)
		lt_report_sort(m->rep, m->sort);
	if (v->nr_processes > m->cap_procs) {
		size_t *n = realloc(m->procs, v->nr_processes * sizeof(*n));
		bool *same;

		if (!n)
			return -1;
		m->procs = n;
		same = realloc(m->same_name, v->nr_processes * sizeof(*same));
		if (!same)
			return -1;
		m->same_name = same;
		m->cap_procs = v->nr_processes;
	}
	if (mark_same_names(m, v) < 0)
		return -1;
	m->nr_procs = 0;
	m->proc = 0;
	/* --max-processes: the first that pass, as latency-analyze's sections */
	for (i = 0; i < v->nr_processes && (!m->rep->options.max_processes ||
					     m->nr_procs < m->rep->options.max_processes); i++)
		if (passes(m, &v->processes[i]))
			m->procs[m->nr_procs++] = i;
	for (i = 0; i < m->nr_procs; i++)
		if (lv_model_proc_at(m, i)->pid == m->pid)
			m->proc = i;
	p = lv_model_process(m);
	if (!p || p->pid != m->shown_pid) {
		table_forget(&m->local);
		local.reason = NULL;
	}
	m->shown_pid = p ? p->pid : -1;
	m->cause_cols = view_cause_cols(v);
	table_fill(&m->global, v->global, v->nr_global, global);
	table_fill(&m->local, p ? p->rows : NULL, p ? p->nr_rows : 0, local);
	if (!p && m->focus == LV_FOCUS_PROCESS)
		m->focus = LV_FOCUS_GLOBAL;
	return 0;
}

static int rebuild(struct lv_model *m)
{
	return rebuild_keeping(m, cursor_cause(&m->global),
			       cursor_cause(&m->local));
}

/* @t shows @rows rows: its top keeps the cursor in sight and no blank below. */
static void table_fit(struct lv_table *t, int rows)
{
	size_t h = rows > 0 ? (size_t)rows : 1;

	t->page = h;
	if (t->top + h > t->nr)
		t->top = t->nr > h ? t->nr - h : 0;
	if (t->sel < t->top)
		t->top = t->sel;
	if (t->sel >= t->top + h)
		t->top = t->sel - h + 1;
}

/*
 * Everything inside the screen as it will be drawn: the tables' pages
 * and tops, a text screen's scroll (stopped at its end), a detail screen
 * without a row left for the tables.
 */
static void fit(struct lv_model *m)
{
	struct lv_layout lay;
	struct lv_page pg;
	size_t rows, height;

	if (m->screen == LV_SCREEN_DETAIL && !lv_model_row(m))
		m->screen = LV_SCREEN_MAIN;
	if (m->cols < LV_MIN_COLS || m->lines < LV_MIN_LINES)
		return;		/* "too small": nothing drawn to fit */
	if (m->screen == LV_SCREEN_MAIN) {
		lv_layout_main(m, &lay);
		table_fit(&m->global, lay.global_rows);
		table_fit(&m->local, lay.local_rows);
		return;
	}
	height = (size_t)(m->lines - 2);
	if (m->screen == LV_SCREEN_DETAIL) {
		size_t n = lv_model_chain_lines(m, NULL, 0);

		if (m->chain_sel >= n)
			m->chain_sel = n ? n - 1 : 0;
	}
	lv_page_build(m, &pg);
	rows = lv_page_rows(&pg, m->cols);
	if (m->chain_show && pg.mark < pg.nr) {
		/* the tree's cursor moved: its line in sight */
		size_t at = lv_page_row_of(&pg, pg.mark, m->cols);

		if (at < m->scroll)
			m->scroll = at;
		else if (at >= m->scroll + height)
			m->scroll = at - height + 1;
	}
	m->chain_show = false;
	lv_page_free(&pg);
	if (m->scroll + height > rows)
		m->scroll = rows > height ? rows - height : 0;
	m->text_page = height;
}

void lv_model_resize(struct lv_model *m, int cols, int lines)
{
	m->cols = cols;
	m->lines = lines;
	fit(m);
}

int lv_model_init(struct lv_model *m, struct lt_report *rep, enum lt_sort sort)
{
	const struct lt_report_process *p;

	memset(m, 0, sizeof(*m));
	m->rep = rep;
	m->cols = 80;
	m->lines = 24;
	m->view = -1;
	m->sort = sort;
	m->pid = m->shown_pid = -1;
	/* a saved report's rows are in whatever order its file has them */
	lt_report_sort(rep, sort);
	if (rebuild(m) < 0)
		return -1;
	/* the bar's first process is the chosen one */
	p = lv_model_process(m);
	m->pid = p ? p->pid : -1;
	fit(m);
	return 0;
}

int lv_model_swap(struct lv_model *m, struct lt_report *rep)
{
	struct cause global = cursor_cause(&m->global);
	struct cause local = cursor_cause(&m->local);

	m->rep = rep;
	if (m->view >= 0 && (size_t)m->view >= rep->nr_windows)
		m->view = -1;
	lt_report_sort(rep, m->sort);
	/* the old rows die with the old report: the causes are looked up now */
	m->global.nr = m->local.nr = 0;
	m->nr_toggled = 0;		/* its trees' nodes too */
	if (rebuild_keeping(m, global, local) < 0)
		return -1;
	fit(m);
	return 0;
}

void lv_model_free(struct lv_model *m)
{
	free(m->procs);
	free(m->same_name);
	free(m->toggled);
	memset(m, 0, sizeof(*m));
}

static void move(struct lv_table *t, long by)
{
	long sel = (long)t->sel + by;

	if (!t->nr)
		return;
	if (sel < 0)
		sel = 0;
	if (sel >= (long)t->nr)
		sel = (long)t->nr - 1;
	t->sel = (size_t)sel;
}

static bool row_matches(const struct lt_report_row *r, const char *s)
{
	return lv_text_contains(r->reason, s) ||
	       lv_text_contains(r->argument, s);
}

/*
 * A process matches by its name, its pid (whole), "name(pid)" as the bar
 * writes it, or one of its threads' names or tids: that thread in
 * *@thread when the process itself did not match.
 */
static bool proc_matches(const struct lt_report_process *p, const char *s,
			 const struct lt_report_thread **thread)
{
	char id[32], both[512];
	size_t i;

	*thread = NULL;
	snprintf(id, sizeof(id), "%d", p->pid);
	snprintf(both, sizeof(both), "%s(%d)", p->comm, p->pid);
	if (lv_text_contains(p->comm, s) || !strcmp(id, s) ||
	    (strchr(s, '(') && lv_text_contains(both, s)))
		return true;
	for (i = 0; i < p->nr_threads; i++) {
		snprintf(id, sizeof(id), "%d", p->threads[i].tid);
		if (lv_text_contains(p->threads[i].comm, s) || !strcmp(id, s)) {
			*thread = &p->threads[i];
			return true;
		}
	}
	return false;
}

/*
 * A place a match puts the cursor, in the screen's order: the global
 * table's rows (part 0), then each process of the bar from the left
 * (part 1): the process itself (row -1), then its table's rows.
 */
struct spot {
	int part;
	size_t proc;
	long row;
};

static int spot_cmp(struct spot a, struct spot b)
{
	if (a.part != b.part)
		return a.part < b.part ? -1 : 1;
	if (a.proc != b.proc)
		return a.proc < b.proc ? -1 : 1;
	return a.row < b.row ? -1 : a.row > b.row;
}

/* The cursor as a search left it: while it is so, n goes on from there. */
static struct lv_search_at search_at(const struct lv_model *m)
{
	struct lv_search_at at;

	memset(&at, 0, sizeof(at));
	at.rep = m->rep;
	at.view = m->view;
	at.filter = m->filter;
	at.sort = m->sort;
	at.pid = m->pid;
	at.focus = m->focus;
	at.gsel = m->global.sel;
	at.lsel = m->local.sel;
	return at;
}

static bool same_at(const struct lv_search_at *a, const struct lv_search_at *b)
{
	return a->rep == b->rep && a->view == b->view && a->filter == b->filter &&
	       a->sort == b->sort && a->pid == b->pid && a->focus == b->focus &&
	       a->gsel == b->gsel && a->lsel == b->lsel;
}

/*
 * Where the search stands: the last match while the cursor is where it
 * put it, else the cursor (a process's name in the bar is before its
 * table's rows).
 */
static struct spot spot_now(const struct lv_model *m)
{
	struct lv_search_at now = search_at(m);
	struct spot sp = { 0, 0, (long)m->global.sel };

	if (m->found && same_at(&m->found_at, &now)) {
		sp.part = m->found_part;
		sp.proc = m->found_proc;
		sp.row = m->found_row;
	} else if (m->focus == LV_FOCUS_PROCESS) {
		sp.part = 1;
		sp.proc = m->proc;
		sp.row = m->local.nr ? (long)m->local.sel : -1;
	}
	return sp;
}

/* One pass over every match: how many, and those around the cursor. */
struct scan {
	struct spot cur;
	bool here;		/* a match at the cursor counts as after it */
	size_t n;
	struct spot first, last, after, before;
	size_t after_k, before_k;	/* their numbers from 1; 0: none */
};

static void visit(struct scan *sc, struct spot sp)
{
	int c = spot_cmp(sp, sc->cur);

	sc->n++;
	if (sc->n == 1)
		sc->first = sp;
	sc->last = sp;
	if (!sc->after_k && (c > 0 || (c == 0 && sc->here))) {
		sc->after = sp;
		sc->after_k = sc->n;
	}
	if (c < 0) {
		sc->before = sp;
		sc->before_k = sc->n;
	}
}

static void scan_matches(const struct lv_model *m, const char *s, struct scan *sc)
{
	const struct lt_report_thread *t;
	const struct lt_report_process *p;
	struct spot sp;
	size_t i, r;

	for (r = 0; r < m->global.nr; r++)
		if (row_matches(&m->global.rows[r], s)) {
			sp.part = 0;
			sp.proc = 0;
			sp.row = (long)r;
			visit(sc, sp);
		}
	for (i = 0; i < m->nr_procs; i++) {
		p = lv_model_proc_at(m, i);
		sp.part = 1;
		sp.proc = i;
		sp.row = -1;
		if (proc_matches(p, s, &t))
			visit(sc, sp);
		for (r = 0; r < p->nr_rows; r++)
			if (row_matches(&p->rows[r], s)) {
				sp.row = (long)r;
				visit(sc, sp);
			}
	}
}

/*
 * The match at @sp: the cursor goes there (the process shown, its row
 * under the cursor), and the status line says which of how many.
 */
static int go_to(struct lv_model *m, struct spot sp, size_t k, size_t n,
		 const char *wrapped)
{
	const struct lt_report_process *p;
	const struct lt_report_thread *t;
	/* what fits on the status line: the rest is cut */
	char cause[sizeof(m->msg)], what[sizeof(m->msg)];

	if (sp.part == 0) {
		m->global.sel = (size_t)sp.row;
		m->focus = LV_FOCUS_GLOBAL;
		snprintf(what, sizeof(what), "%s (global table)",
			 lt_format_cause(cause, sizeof(cause),
					 &m->global.rows[sp.row], 0));
	} else {
		p = lv_model_proc_at(m, sp.proc);
		m->proc = sp.proc;
		m->pid = p->pid;
		if (rebuild(m) < 0)
			return -1;
		/*
		 * p is shown now, its table's rows p's, in that order; the
		 * cursor goes into it (on top for the process itself), so
		 * that n goes on from wherever Left and Right take it
		 */
		m->focus = LV_FOCUS_PROCESS;
		m->local.sel = sp.row >= 0 ? (size_t)sp.row : 0;
		if (sp.row >= 0) {
			snprintf(what, sizeof(what), "%s in %s (%d)",
				 lt_format_cause(cause, sizeof(cause),
						 &p->rows[sp.row], 0),
				 p->comm, p->pid);
		} else if (proc_matches(p, m->search, &t) && t) {
			snprintf(what, sizeof(what), "process %s (%d), thread %s (%d)",
				 p->comm, p->pid, t->comm, t->tid);
		} else {
			snprintf(what, sizeof(what), "process %s (%d)", p->comm,
				 p->pid);
		}
	}
	snprintf(m->msg, sizeof(m->msg), "match %zu of %zu%s: %.*s", k, n,
		 wrapped, (int)(sizeof(m->msg) - 64), what);
	m->found = true;
	m->found_part = sp.part;
	m->found_proc = sp.proc;
	m->found_row = sp.row;
	m->found_at = search_at(m);
	return 0;
}

/*
 * The search's next match (@dir 1, n), the one before (-1, N), or the
 * first from the cursor on (0, Enter), in the screen's order, round
 * from the last to the first (and back).
 */
static int find_match(struct lv_model *m, int dir)
{
	struct scan sc;

	if (!m->search[0]) {
		snprintf(m->msg, sizeof(m->msg), "no search yet: type / and a name");
		return 0;
	}
	memset(&sc, 0, sizeof(sc));
	sc.cur = spot_now(m);
	sc.here = dir == 0;
	scan_matches(m, m->search, &sc);
	if (!sc.n) {
		if (m->filter)	/* the bar holds only some: the rest may */
			snprintf(m->msg, sizeof(m->msg), "'%s': no match among "
				 "the processes starting with '%c' (s Space: all)",
				 m->search, m->filter);
		else
			snprintf(m->msg, sizeof(m->msg), "'%s': no process, "
				 "thread or cause has it", m->search);
		m->found = false;
		return 0;
	}
	if (dir >= 0)
		return sc.after_k ? go_to(m, sc.after, sc.after_k, sc.n, "") :
		       go_to(m, sc.first, 1, sc.n, ", from the top again");
	return sc.before_k ? go_to(m, sc.before, sc.before_k, sc.n, "") :
	       go_to(m, sc.last, sc.n, sc.n, ", from the end again");
}

static int prompt_key(struct lv_model *m, int key)
{
	size_t n;

	switch (key) {
	case LV_KEY_ENTER:
		m->prompt = false;
		m->input[m->input_len] = '\0';
		if (m->input_len)
			memcpy(m->search, m->input, m->input_len + 1);
		return find_match(m, 0);
	case LV_KEY_ESC:
		m->prompt = false;
		return 0;
	case LV_KEY_BACKSPACE:
		if (!m->input_len) {
			m->prompt = false;
			return 0;
		}
		/* a whole UTF-8 character: its continuation bytes, its lead */
		while (m->input_len > 1 && lv_text_utf8() &&
		       ((unsigned char)m->input[m->input_len - 1] & 0xc0) == 0x80)
			m->input_len--;
		m->input_len--;
		return 0;
	default:
		/* a UTF-8 name comes a byte at a time, each a key */
		if (!((key >= 0x20 && key < 0x7f) || (key >= 0x80 && key <= 0xff)))
			return 0;
		/* the rest of a UTF-8 character that did not fit */
		if (m->input_skip && (key & 0xc0) == 0x80) {
			m->input_skip--;
			return 0;
		}
		m->input_skip = 0;
		/* a lead byte keeps room for its character's others */
		n = lv_text_char_len((unsigned char)key);
		if (m->input_len + n < sizeof(m->input))
			m->input[m->input_len++] = (char)key;
		else
			m->input_skip = (unsigned int)n - 1;
		return 0;
	}
}

/* 's' and then a letter: LatencyTOP's filter of the process bar. */
static int letter_key(struct lv_model *m, int key)
{
	const struct lt_report_view *v = lv_model_view(m);
	char was = m->filter;
	size_t i;

	m->want_letter = false;
	if (key == LV_KEY_ESC)
		return 0;	/* changed its mind: the filter stays */
	if (key != ' ' && !(key < 0x7f && isalnum(key)))
		/* not a filter: the key itself */
		return key_request(m, key);
	if (key != ' ') {
		m->filter = (char)tolower(key);
		for (i = 0; i < v->nr_processes; i++)
			if (passes(m, &v->processes[i]))
				break;
		if (i == v->nr_processes) {
			snprintf(m->msg, sizeof(m->msg),
				 "no process name starts with '%c'", key);
			m->filter = was;
			return 0;
		}
		snprintf(m->msg, sizeof(m->msg),
			 "processes starting with '%c' (s, space: all)",
			 m->filter);
	} else {
		m->filter = 0;
		snprintf(m->msg, sizeof(m->msg), "all processes");
	}
	return rebuild(m);
}

static int lv_request_main_or_text(struct lv_model *m, enum lv_request req);

/* @key's request; a key bound to none says so, and where the keys are. */
static int key_request(struct lv_model *m, int key)
{
	enum lv_request req = lv_key_request(key);
	char name[16];

	if (req == LV_REQ_NONE) {
		if (key >= 0x80 && key <= 0xff)
			snprintf(m->msg, sizeof(m->msg), "unknown key: ? or F1 lists the keys");
		else
			snprintf(m->msg, sizeof(m->msg), "unknown key %s: ? or F1 "
				 "lists the keys", lv_key_name(key, name, sizeof(name)));
		return 0;
	}
	return lv_request_main_or_text(m, req);
}

static int window_key(struct lv_model *m, int by)
{
	long n = (long)m->rep->nr_windows, view = m->view + by;

	if (!n) {
		snprintf(m->msg, sizeof(m->msg),
			 "no windows: the report was made without --window");
		return 0;
	}

	if (view < -1 || view >= n) {
		snprintf(m->msg, sizeof(m->msg), view < -1 ?
			 "the whole trace is first" : "that was the last window");
		return 0;
	}
	m->view = view;
	return rebuild(m);
}

/* Fold or unfold the tree's node under the cursor. */
static int chain_fold(struct lv_model *m)
{
	struct lv_chain_line l;
	size_t i;

	if (!chain_line(m, &l) || !l.node || !l.node->nr_children) {
		snprintf(m->msg, sizeof(m->msg), "nothing to fold: the cursor "
			 "(Tab) on a line with + or -");
		return 0;
	}
	m->chain_show = true;
	for (i = 0; i < m->nr_toggled; i++)
		if (m->toggled[i] == l.node) {
			m->toggled[i] = m->toggled[--m->nr_toggled];
			return 0;
		}
	if (m->nr_toggled == m->cap_toggled) {
		size_t ncap = m->cap_toggled ? 2 * m->cap_toggled : 16;
		const struct lt_report_chain **n;

		n = realloc(m->toggled, ncap * sizeof(*n));
		if (!n)
			return -1;
		m->toggled = n;
		m->cap_toggled = ncap;
	}
	m->toggled[m->nr_toggled++] = l.node;
	return 0;
}

/* Whether @p is task @tid's process: its pid, or one of its threads'. */
static bool has_task(const struct lt_report_process *p, int tid)
{
	size_t i;

	if (p->pid == tid)
		return true;
	for (i = 0; i < p->nr_threads; i++)
		if (p->threads[i].tid == tid)
			return true;
	return false;
}

/* Whether process @p is the one a node names: by its tid, else its name. */
static bool is_nodes(const struct lt_report_process *p,
		     const struct lt_report_chain *n)
{
	return n->tid >= 0 ? has_task(p, n->tid) : !strcmp(p->comm, n->comm);
}

/*
 * The process of the waker (or of the task that ran instead) under the
 * tree's cursor: its table shown, the cursor on the waker's own wait --
 * its cause, or its waits for a CPU -- where it has it.
 */
static int chain_go(struct lv_model *m)
{
	const struct lt_report_view *v = lv_model_view(m);
	const struct lt_report_process *p;
	const struct lt_report_chain *n;
	struct lv_chain_line l;
	char who[80], cause[1024];
	size_t i;

	if (!chain_line(m, &l) || !l.node) {
		snprintf(m->msg, sizeof(m->msg), "no waker under the cursor: "
			 "Tab moves it to one");
		return 0;
	}
	n = l.node;
	if (n->tid >= 0)
		snprintf(who, sizeof(who), "%.48s (%d)", n->comm, n->tid);
	else
		snprintf(who, sizeof(who), "%.48s", n->comm);
	if ((n->what && !strcmp(n->comm, n->what)) || n->tid == 0 ||
	    (l.ran && !strcmp(n->comm, "unknown"))) {
		snprintf(m->msg, sizeof(m->msg), "%s: no process of its own", who);
		return 0;
	}
	for (i = 0; i < m->nr_procs; i++)
		if (is_nodes(lv_model_proc_at(m, i), n))
			break;
	if (i == m->nr_procs) {
		for (i = 0; i < v->nr_processes; i++)
			if (is_nodes(&v->processes[i], n))
				break;
		snprintf(m->msg, sizeof(m->msg), i < v->nr_processes ?
			 "%s: not in the bar (%s)" :
			 "%s: no wait of its own in this range%s", who,
			 i >= v->nr_processes ? "" : m->filter ? "s Space: all" :
			 v->processes[i].kernel_thread ?
			 "a kernel thread: latency-view -k shows them" :
			 "past --max-processes");
		return 0;
	}
	m->proc = i;
	p = lv_model_proc_at(m, i);
	m->pid = p->pid;
	if (rebuild(m) < 0)
		return -1;
	m->screen = LV_SCREEN_MAIN;
	m->focus = LV_FOCUS_PROCESS;
	m->local.sel = 0;
	for (i = 0; !l.ran && n->what && i < m->local.nr; i++) {
		const struct lt_report_row *r = &m->local.rows[i];

		if (n->blocked ?
		    !strcmp(lt_format_cause(cause, sizeof(cause), r, 0), n->what) :
		    !strcmp(n->what, "waiting for cpu") && r->kind == LT_CAUSE_SCHED) {
			m->local.sel = i;
			snprintf(m->msg, sizeof(m->msg), "%s, its wait: %.150s",
				 who, n->what);
			return 0;
		}
	}
	if (n->blocked)		/* a wait charged to no row: user requested, ... */
		snprintf(m->msg, sizeof(m->msg), "%s, its wait: %.100s: not in "
			 "its table (not charged: i says why waits are not)",
			 who, n->what);
	else
		snprintf(m->msg, sizeof(m->msg), "%s%s", who, l.ran ?
			 ", which ran instead" : ", which was running or runnable");
	return 0;
}

/* Tab, BTab, Space, g on the details: the tree's cursor and nodes. */
static int chain_request(struct lv_model *m, enum lv_request req)
{
	size_t n = lv_model_chain_lines(m, NULL, 0);

	if (req == LV_REQ_FOLD)
		return chain_fold(m);
	if (req == LV_REQ_WAKER)
		return chain_go(m);
	if (!n) {
		snprintf(m->msg, sizeof(m->msg), "this row has no tree of wakers");
		return 0;
	}
	m->chain_show = true;
	if (req == LV_REQ_FOCUS)
		m->chain_sel = m->chain_sel + 1 < n ? m->chain_sel + 1 : 0;
	else
		m->chain_sel = m->chain_sel ? m->chain_sel - 1 : n - 1;
	return 0;
}

/* @req on the details, trace and help screens: scroll, or back. */
static void text_request(struct lv_model *m, enum lv_request req)
{
	const struct lv_request_info *info = lv_request_info(req);
	size_t page = m->text_page ? m->text_page : PAGE;

	switch (req) {
	case LV_REQ_FOCUS:
	case LV_REQ_FOCUS_BACK:
	case LV_REQ_FOLD:
	case LV_REQ_WAKER:
		break;		/* the details' (chain_request()), or nothing */
	case LV_REQ_UP:
		if (m->scroll)
			m->scroll--;
		break;
	case LV_REQ_DOWN:
		m->scroll++;	/* fit() stops it at the end */
		break;
	case LV_REQ_PAGE_UP:
		m->scroll = m->scroll > page ? m->scroll - page : 0;
		break;
	case LV_REQ_PAGE_DOWN:
		m->scroll += page;
		break;
	case LV_REQ_FIRST:
		m->scroll = 0;
		break;
	case LV_REQ_LAST:
		m->scroll = (size_t)-1 / 2;
		break;
	default:
		/* the table says which requests lead back from here */
		if (info && info->text_help)
			m->screen = LV_SCREEN_MAIN;
		break;
	}
}

static int next_process(struct lv_model *m, bool left)
{
	const struct lt_report_process *p;

	if (!m->nr_procs)
		return 0;
	if (left ? !m->proc : m->proc + 1 >= m->nr_procs)
		return 0;
	if (left)
		m->proc--;
	else
		m->proc++;
	p = lv_model_process(m);
	m->pid = p->pid;
	return rebuild(m);
}

/* @req on the tables. */
static int main_request(struct lv_model *m, enum lv_request req)
{
	struct lv_table *t = focused(m);

	switch (req) {
	case LV_REQ_QUIT:
		m->quit = true;
		return 0;
	case LV_REQ_HELP:
		m->screen = LV_SCREEN_HELP;
		m->scroll = 0;
		return 0;
	case LV_REQ_INFO:
		m->screen = LV_SCREEN_INFO;
		m->scroll = 0;
		return 0;
	case LV_REQ_PREV_PROC:
	case LV_REQ_NEXT_PROC:
		return next_process(m, req == LV_REQ_PREV_PROC);
	case LV_REQ_UP:
		move(t, -1);
		return 0;
	case LV_REQ_DOWN:
		move(t, 1);
		return 0;
	case LV_REQ_PAGE_UP:	move(t, -(long)(t->page ? t->page : PAGE)); return 0;
	case LV_REQ_PAGE_DOWN:	move(t, (long)(t->page ? t->page : PAGE)); return 0;
	case LV_REQ_FIRST:	move(t, -(long)t->nr); return 0;
	case LV_REQ_LAST:	move(t, (long)t->nr); return 0;
	case LV_REQ_FOCUS:
	case LV_REQ_FOCUS_BACK:
		if (m->focus == LV_FOCUS_GLOBAL && m->nr_procs)
			m->focus = LV_FOCUS_PROCESS;
		else
			m->focus = LV_FOCUS_GLOBAL;
		return 0;
	case LV_REQ_DETAILS:
		if (lv_model_row(m)) {
			m->screen = LV_SCREEN_DETAIL;
			m->scroll = 0;
			m->chain_sel = 0;
			m->nr_toggled = 0;
		}
		return 0;
	case LV_REQ_FOLD:
	case LV_REQ_WAKER:
		snprintf(m->msg, sizeof(m->msg), "%s works in a row's details "
			 "(Enter), on its tree of wakers",
			 req == LV_REQ_FOLD ? "folding" : "going to a waker");
		return 0;
	case LV_REQ_FILTER:
		m->want_letter = true;
		snprintf(m->msg, sizeof(m->msg),
			 "filter: the first letter of a process name (space: all)");
		return 0;
	case LV_REQ_SORT:
		m->sort = m->sort == LT_SORT_AVG ? LT_SORT_MAX : m->sort + 1;
		snprintf(m->msg, sizeof(m->msg), "sorted by %s",
			 lv_model_sort_name(m->sort));
		return rebuild(m);
	case LV_REQ_SEARCH:
		m->prompt = true;
		m->input_len = 0;
		m->input_skip = 0;
		return 0;
	case LV_REQ_SEARCH_NEXT:
		return find_match(m, 1);
	case LV_REQ_SEARCH_PREV:
		return find_match(m, -1);
	case LV_REQ_WINDOW_NEXT:
		return window_key(m, 1);
	case LV_REQ_WINDOW_PREV:
		return window_key(m, -1);
	case LV_REQ_HTML:
		/* a file to write: the model only asks (lv-html.h) */
		m->want_html = true;
		return 0;
	default:
		return 0;
	}
}

static int lv_request_main_or_text(struct lv_model *m, enum lv_request req)
{
	if (m->screen == LV_SCREEN_MAIN)
		return main_request(m, req);
	if (m->screen == LV_SCREEN_DETAIL &&
	    (req == LV_REQ_FOCUS || req == LV_REQ_FOCUS_BACK ||
	     req == LV_REQ_FOLD || req == LV_REQ_WAKER))
		return chain_request(m, req);
	text_request(m, req);
	return 0;
}

int lv_model_request(struct lv_model *m, enum lv_request req)
{
	int ret = lv_request_main_or_text(m, req);

	fit(m);
	return ret;
}

int lv_model_key(struct lv_model *m, int key)
{
	int ret;

	if (m->prompt) {
		ret = prompt_key(m, key);
	} else {
		m->msg[0] = '\0';
		ret = m->want_letter ? letter_key(m, key) : key_request(m, key);
	}
	fit(m);
	return ret;
}

/* The wheel on a table: its rows scroll, the cursor kept in sight. */
static void wheel_table(struct lv_table *t, int by)
{
	long top = (long)t->top + by, last = (long)t->nr - (long)t->page;

	if (top > last)
		top = last;
	if (top < 0)
		top = 0;
	t->top = (size_t)top;
	if (t->sel < t->top)
		t->sel = t->top;
	if (t->page && t->sel >= t->top + t->page)
		t->sel = t->top + t->page - 1;
}

/* A click or the wheel on the main screen at (@y, @x). */
static int main_mouse(struct lv_model *m, enum lv_mouse what, int y, int x)
{
	struct lv_layout lay;
	struct lv_table *t = NULL;
	enum lv_focus focus = LV_FOCUS_GLOBAL;
	int first = 0;
	long i;

	lv_layout_main(m, &lay);
	if (y > lay.global_y && y <= lay.global_y + lay.global_rows) {
		t = &m->global;
		first = lay.global_y + 1;
	} else if (y > lay.local_y && y <= lay.local_y + lay.local_rows) {
		t = &m->local;
		first = lay.local_y + 1;
		focus = LV_FOCUS_PROCESS;
	}
	if (what != LV_MOUSE_CLICK) {
		if (t)
			wheel_table(t, what == LV_MOUSE_WHEEL_UP ? -WHEEL : WHEEL);
		else	/* elsewhere: the bar's processes go by */
			return main_request(m, what == LV_MOUSE_WHEEL_UP ?
					    LV_REQ_PREV_PROC : LV_REQ_NEXT_PROC);
		return 0;
	}
	if (y == lay.bar_y) {
		i = lv_bar_at(m, x);
		if (i < 0 || (size_t)i == m->proc)
			return 0;
		m->proc = (size_t)i;
		m->pid = lv_model_process(m)->pid;
		return rebuild(m);
	}
	if (!t || t->top + (size_t)(y - first) >= t->nr)
		return 0;
	/* a second click on the cursor's row: as Enter */
	if (m->focus == focus && t->sel == t->top + (size_t)(y - first))
		return main_request(m, LV_REQ_DETAILS);
	m->focus = focus;
	t->sel = t->top + (size_t)(y - first);
	return 0;
}

int lv_model_mouse(struct lv_model *m, enum lv_mouse what, int y, int x)
{
	int ret = 0;

	if (m->prompt || m->cols < LV_MIN_COLS || m->lines < LV_MIN_LINES)
		return 0;
	m->msg[0] = '\0';
	m->want_letter = false;
	if (m->screen == LV_SCREEN_MAIN)
		ret = main_mouse(m, what, y, x);
	else if (what == LV_MOUSE_WHEEL_UP)
		m->scroll = m->scroll > WHEEL ? m->scroll - WHEEL : 0;
	else if (what == LV_MOUSE_WHEEL_DOWN)
		m->scroll += WHEEL;
	fit(m);
	return ret;
}
