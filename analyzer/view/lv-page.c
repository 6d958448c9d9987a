// SPDX-License-Identifier: GPL-2.0
/*
 * lv-page.c - the scrolling screens' text and the status line (lv-page.h).
 */
#define _GNU_SOURCE	/* vasprintf, open_memstream */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lv-page.h"
#include "lv-text.h"

#define WRAP_INDENT	4	/* a wrapped line's pieces, past its indent */
#define HELP_KEYS_W	18	/* the help's column of what a key does */

static const char *const kind_name[LT_CAUSE_NR] = {
	[LT_CAUSE_ANNOTATED] = "annotated by the kernel",
	[LT_CAUSE_TRANSLATED] = "translated from its kernel stack",
	[LT_CAUSE_FUNCTION] = "blocking function of its kernel stack",
	[LT_CAUSE_UNKNOWN] = "no annotation and no stack",
	[LT_CAUSE_SCHED] = "runnable, waiting for a CPU",
	[LT_CAUSE_STOPPED] = "stopped, by a signal or for a tracer",
};

static const char *dur(char *buf, size_t len, uint64_t ns)
{
	return lt_format_duration(buf, len, ns);
}

void lv_page_range(const struct lv_model *m, char *buf, size_t len)
{
	const struct lt_report *r = m->rep;
	const struct lt_report_view *v = lv_model_view(m);
	char d[32], a[32], b[32];

	if (m->live && m->view < 0)
		/* the sliding window, as far as it has come */
		snprintf(buf, len, "last %s",
			 dur(d, sizeof(d), v->end_ns - v->start_ns));
	else if (m->view < 0 && r->nr_traces)
		/* traces on their own clocks: their spans, added up */
		snprintf(buf, len, "merged, %s in %zu trace%s",
			 dur(d, sizeof(d), lt_report_duration_ns(r)),
			 r->nr_traces, r->nr_traces == 1 ? "" : "s");
	else if (m->view < 0 && (v->start_ns != r->start_ns || v->end_ns != r->end_ns))
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

/* A line of @pg whose pieces start at column @hang (-1: the default). */
static void __attribute__((format(printf, 3, 4)))
add_hang(struct lv_page *pg, int hang, const char *fmt, ...)
{
	va_list ap;
	char *s;

	va_start(ap, fmt);
	if (vasprintf(&s, fmt, ap) < 0)
		s = NULL;
	va_end(ap);
	if (!s)
		return;		/* out of memory: a shorter screen */
	if (pg->nr == pg->cap) {
		size_t ncap = pg->cap ? pg->cap * 2 : 64;
		char **n = realloc(pg->line, ncap * sizeof(*n));
		int *h = n ? realloc(pg->hang, ncap * sizeof(*h)) : NULL;

		if (n)
			pg->line = n;
		if (!n || !h) {
			free(s);
			return;
		}
		pg->hang = h;
		pg->cap = ncap;
	}
	pg->hang[pg->nr] = hang;
	pg->line[pg->nr++] = s;
}

#define add(pg, ...)	add_hang(pg, -1, __VA_ARGS__)

void lv_page_free(struct lv_page *pg)
{
	size_t i;

	for (i = 0; i < pg->nr; i++)
		free(pg->line[i]);
	free(pg->line);
	free(pg->hang);
	memset(pg, 0, sizeof(*pg));
}

/*
 * The screen line that starts at @s, drawn at column @x of @cols, in
 * @buf as drawn; returns what is left.  A word is not cut where a space
 * before it can end the line: the "i" screen's trace-cmd command must
 * copy whole.  Stack frames have none.
 */
static const char *wrap_piece(char *buf, size_t size, const char *s, int x,
			      int cols)
{
	size_t used, keep;
	char *piece;

	lv_text_fit(buf, size, s, cols - x, &used);
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
	lv_text_fit(buf, size, piece, cols - x, NULL);
	free(piece);
	return s + keep;
}

/*
 * Where line @i's wrapped pieces start: its hang when it has one that
 * leaves room (the help's column of what a key does: pieces line up
 * under it at any width), else past its own indent, and then some.
 */
static int cont_x(const struct lv_page *pg, size_t i, int cols)
{
	int lead = (int)strspn(pg->line[i], " ");

	if (pg->hang[i] >= 0 && pg->hang[i] <= cols / 2)
		return pg->hang[i];
	return lead + WRAP_INDENT < cols / 2 ? lead + WRAP_INDENT : WRAP_INDENT;
}

void lv_page_piece(const struct lv_page *pg, size_t i, const char **s, int *x,
		   int cols, char *buf, size_t size)
{
	*s = wrap_piece(buf, size, *s, *x, cols);
	*x = cont_x(pg, i, cols);
}

size_t lv_page_rows(const struct lv_page *pg, int cols)
{
	return lv_page_row_of(pg, pg->nr, cols);
}

size_t lv_page_row_of(const struct lv_page *pg, size_t line, int cols)
{
	size_t rows = 0, i;
	const char *s;
	char buf[1024];
	int x;

	for (i = 0; i < line && i < pg->nr; i++) {
		s = pg->line[i];
		x = 0;
		do {
			lv_page_piece(pg, i, &s, &x, cols, buf, sizeof(buf));
			rows++;
		} while (*s);
	}
	return rows;
}

/* "cw-writer (4512): Sleeping (nanosleep)": a tree's node as a line says it. */
static void node_name(char *buf, size_t len, const struct lv_chain_line *l)
{
	const struct lt_report_chain *n = l->node;
	char tid[24] = "";

	if (!n) {
		snprintf(buf, len, "other (%zu more)", l->others);
		return;
	}
	if (n->tid >= 0)
		snprintf(tid, sizeof(tid), " (%d)", n->tid);
	if (l->ran || !n->what)
		snprintf(buf, len, "%s%s", n->comm, tid);
	else if (!strcmp(n->comm, n->what))	/* no task's: an interrupt, ... */
		snprintf(buf, len, "%s", n->what);
	else
		snprintf(buf, len, "%s%s: %s", n->comm, tid, n->what);
}

/*
 * Whom the row's waits waited for, or who ran instead: a line a node,
 * under its parent, its share of the row's time and how long; + marks a
 * folded node, - an unfolded one, > the tree's cursor.
 */
static void chain_section(const struct lv_model *m, const struct lt_report_row *r,
			  struct lv_page *pg)
{
	size_t n = lv_model_chain_lines(m, NULL, 0), i;
	struct lv_chain_line *v;
	char name[1200], a[32];
	bool ran = false;

	if (!n)
		return;
	v = malloc(n * sizeof(*v));
	if (!v)
		return;		/* out of memory: a shorter screen */
	lv_model_chain_lines(m, v, n);
	for (i = 0; i < n; i++) {
		if (!i || v[i].ran != ran) {
			ran = v[i].ran;
			add(pg, "%s", "");
			add_hang(pg, 0, "%s", ran ?
				 "Ran instead (on the CPU it was switched in on, "
				 "while it was runnable; g: its process)" :
				 "Waiting for (what each wait's waker did until "
				 "the wakeup; Tab: the cursor, Space: fold, "
				 "g: the waker's process)");
		}
		node_name(name, sizeof(name), &v[i]);
		if (i == m->chain_sel)
			pg->mark = pg->nr;
		add(pg, "%c%6.1f%% %9s  %*s%c %s", i == m->chain_sel ? '>' : ' ',
		    r->total_ns ? 100.0 * (double)v[i].ns / (double)r->total_ns : 0.0,
		    dur(a, sizeof(a), v[i].ns), (int)(2 * v[i].depth), "",
		    !v[i].node || !v[i].node->nr_children ? ' ' :
		    v[i].open ? '-' : '+', name);
	}
	free(v);
}

static void detail_page(const struct lv_model *m, struct lv_page *pg)
{
	const struct lt_report_row *r = lv_model_row(m);
	const struct lt_report_process *p = lv_model_process(m);
	/* whole, wrapped: a long UTF-8 cause (3 bytes a character) too */
	char cause[1024], a[32], b[32], c[32], d[32], range[96];
	size_t i;
	unsigned int k;

	pg->title = " Details";
	if (!r)
		return;
	lt_format_cause(cause, sizeof(cause), r, 0);
	lv_page_range(m, range, sizeof(range));
	add(pg, "%s", cause);
	add(pg, "  %s", kind_name[r->kind < LT_CAUSE_NR ? r->kind : LT_CAUSE_UNKNOWN]);
	if (m->focus == LV_FOCUS_PROCESS && p)
		add(pg, "  in process %s (%d), %s", p->comm, p->pid, range);
	else
		add(pg, "  in the global table, %s", range);
	add(pg, "%s", "");
	add(pg, "Count %" PRIu64 "   Total %s   Maximum %s   Average %s", r->count,
	    dur(a, sizeof(a), r->total_ns), dur(b, sizeof(b), r->max_ns),
	    dur(c, sizeof(c), r->avg_ns));
	add(pg, "Median %s   90th percentile %s   99th percentile %s",
	    dur(a, sizeof(a), r->p50_ns), dur(b, sizeof(b), r->p90_ns),
	    dur(c, sizeof(c), r->p99_ns));
	add(pg, "%.1f%% of the table's time", r->percent);
	add(pg, "Longest ended at %s s, thread %d",
	    lt_format_stamp(d, sizeof(d), r->max_at_ns), r->max_tid);
	add(pg, "%s", "");
	add(pg, "Worst occurrences (%u)", r->nr_worst);
	for (k = 0; k < r->nr_worst; k++)
		add(pg, "  %10s   ended at %s s   thread %d",
		    dur(a, sizeof(a), r->worst[k].dur_ns),
		    lt_format_stamp(d, sizeof(d), r->worst[k].end_ns),
		    r->worst[k].tid);
	chain_section(m, r, pg);
	add(pg, "%s", "");
	/* a heading over nothing reads as a bug: say why there is none */
	if (!r->nr_stacks) {
		add(pg, "Kernel stacks and reason paths: none, %s",
		    r->kind == LT_CAUSE_SCHED ?
		    "a wait for a CPU is spent runnable, not in the kernel's "
		    "sleep (its stack is the preempted task's)" :
		    "the trace recorded no kernel stack for these waits "
		    "(trace-cmd record -T) and no reason path");
		return;
	}
	add(pg, "Kernel stacks and reason paths (%zu distinct)", r->nr_stacks);
	for (i = 0; i < r->nr_stacks; i++) {
		const struct lt_report_stack *s = &r->stacks[i];
		char path[1024] = "";
		size_t used = 0;

		for (k = 0; k < s->path_depth && used < sizeof(path); k++)
			used += (size_t)snprintf(path + used, sizeof(path) - used,
						 "%s%s", k ? " > " : ", in ", s->path[k]);
		add(pg, "  %" PRIu64 " wait%s, %s, max %s%s", s->count,
		    s->count == 1 ? "" : "s", dur(a, sizeof(a), s->total_ns),
		    dur(b, sizeof(b), s->max_ns), s->path_depth > 1 ? path : "");
		for (k = 0; k < s->nr_frames; k++)
			add(pg, "      %s", s->frames[k]);
		if (!s->nr_frames)
			add(pg, "      (no kernel stack recorded)");
		if (s->nr_user_frames)
			add(pg, "      -- user space --");
		for (k = 0; k < s->nr_user_frames; k++)
			add(pg, "      %s", s->user_frames[k]);
	}
}

/* Lines of @fn's text output, added to @pg (nothing when out of memory). */
static void add_output(struct lv_page *pg, const struct lv_model *m,
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
			add(pg, "%s", line);
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
static void info_page(const struct lv_model *m, struct lv_page *pg)
{
	char range[96];

	const char *l, *nl;

	pg->title = m->live ? " Live" : " Trace";
	add_output(pg, m, write_header);
	/* the session, its readers and what they cost */
	for (l = m->live_info; l && *l; l = nl ? nl + 1 : l + strlen(l)) {
		nl = strchr(l, '\n');
		add(pg, "%.*s", (int)(nl ? nl - l : (long)strlen(l)), l);
	}
	lv_page_range(m, range, sizeof(range));
	add(pg, "%s", "");
	add(pg, "Shown: %s", range);
	add_output(pg, m, lt_report_write_view_head);
}

/* "q, Q": @info's keys as the help names them, after @used bytes of @buf */
static size_t key_list(char *buf, size_t len, size_t used,
		       const struct lv_request_info *info)
{
	char name[16];
	int k;

	for (k = 0; k < LV_KEYS_MAX && info->keys[k] && used < len; k++)
		used += (size_t)snprintf(buf + used, len - used, "%s%s",
					 used ? ", " : "",
					 lv_key_name(info->keys[k], name, sizeof(name)));
	return used < len ? used : len - 1;
}

static const char *help_of(const struct lv_request_info *info, bool text)
{
	return text ? info->text_help : info->help;
}

/*
 * The help rows of one screen, from the request table: a request's keys
 * and what they do (@text: on the details, trace and help screens);
 * requests that do the same share a row.  What a key does starts at
 * HELP_KEYS_W, and its wrapped lines too: keys too many for their
 * column take a line of their own.
 */
static void help_keys(struct lv_page *pg, bool text)
{
	const struct lv_request_info *info;
	char keys[128];
	size_t used;
	int r, o;

	for (r = LV_REQ_NONE + 1; r < LV_REQ_NR; r++) {
		const char *what;

		info = lv_request_info((enum lv_request)r);
		what = help_of(info, text);
		if (!what)
			continue;
		/* said with an earlier request's keys already */
		for (o = LV_REQ_NONE + 1; o < r; o++)
			if (help_of(lv_request_info((enum lv_request)o), text) &&
			    !strcmp(help_of(lv_request_info((enum lv_request)o), text),
				    what))
				break;
		if (o < r)
			continue;
		keys[0] = '\0';
		used = key_list(keys, sizeof(keys), 0, info);
		for (o = r + 1; o < LV_REQ_NR; o++)
			if (help_of(lv_request_info((enum lv_request)o), text) &&
			    !strcmp(help_of(lv_request_info((enum lv_request)o), text),
				    what))
				used = key_list(keys, sizeof(keys), used,
						lv_request_info((enum lv_request)o));
		if (used + 3 > HELP_KEYS_W) {
			add_hang(pg, 2, "  %s", keys);
			add_hang(pg, HELP_KEYS_W, "%*s%s", HELP_KEYS_W, "", what);
		} else {
			add_hang(pg, HELP_KEYS_W, "  %-*s %s", HELP_KEYS_W - 3, keys,
				 what);
		}
	}
}

static void help_page(struct lv_page *pg)
{
	pg->title = " Help";
	add(pg, "latency-view: LatencyTOP's screen over a recorded trace");
	add(pg, "%s", "");
	add_hang(pg, 0, "The top table is the global one (every user process; "
		 "kernel threads too with --kernel-threads); below the process "
		 "bar, the selected process's own table.  Processes that share "
		 "a name carry their pid in the bar: sh(22423).");
	add(pg, "%s", "");
	add(pg, "Keys on the tables:");
	help_keys(pg, false);
	add(pg, "%s", "");
	add(pg, "Keys on the details, trace and help screens:");
	help_keys(pg, true);
	add(pg, "%s", "");
	add_hang(pg, 0, "The same numbers as latency-analyze given the same "
		 "options.");
}

int lv_page_build(const struct lv_model *m, struct lv_page *pg)
{
	memset(pg, 0, sizeof(*pg));
	pg->mark = (size_t)-1;
	switch (m->screen) {
	case LV_SCREEN_DETAIL:
		detail_page(m, pg);
		break;
	case LV_SCREEN_INFO:
		info_page(m, pg);
		break;
	case LV_SCREEN_HELP:
		help_page(pg);
		break;
	default:
		break;
	}
	return 0;
}

/*
 * "q quit  ? help  Left/Right process": the requests with a word for the
 * status line of this screen, each after its first key; a "" word joins
 * its key to the next item's.
 */
void lv_page_status(const struct lv_model *m, char *buf, size_t len)
{
	bool text = m->screen != LV_SCREEN_MAIN, join = false;
	const struct lv_request_info *info;
	char name[16];
	size_t used = 0;
	int r;

	buf[0] = '\0';
	for (r = LV_REQ_NONE + 1; r < LV_REQ_NR && used < len; r++) {
		const char *word;

		info = lv_request_info((enum lv_request)r);
		word = text ? info->text_status : info->status;
		if (!word)
			continue;
		/* the tree's keys where there is a tree */
		if (text && (r == LV_REQ_FOCUS || r == LV_REQ_FOCUS_BACK ||
			     r == LV_REQ_FOLD || r == LV_REQ_WAKER) &&
		    (m->screen != LV_SCREEN_DETAIL ||
		     !lv_model_chain_lines(m, NULL, 0)))
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
