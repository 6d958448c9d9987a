// SPDX-License-Identifier: LGPL-2.1
/*
 * write-text.c - LatencyTOP's tables as text, grown up: a header that
 * says what the trace could and could not tell, the global table, then a
 * section per process (and per thread on request).
 */
#define _GNU_SOURCE	/* qsort_r() */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "writers-local.h"

/* the cause column's narrowest when options.width cuts causes */
#define CAUSE_MIN 16

/* a cause cut to LT_CAUSE_COLS, with its '~' */
#define CAUSE_BYTES	LT_TEXT_CUT_BYTES(LT_CAUSE_COLS)

/*
 * A view's columns, each as wide as its widest value (or head) in any of
 * its tables, which so line up.  A cause is cut (with '~') to fit
 * options.width, a terminal's, and past LT_CAUSE_COLS: one long cause
 * (a saved report's may be megabytes) must not pad every row to it.
 */
struct widths {
	int cause;		/* where the cause column ends, indent included */
	int cut;		/* the columns a cause may take, indent
				   included */
	int max, avg, count, total;
};

/*
 * @s as text: control characters as '?'.  Names come from the trace (a
 * task may name itself with an escape sequence or a newline) or from a
 * saved report, and must neither reach the terminal nor break the lines.
 */
static void put_str(FILE *out, const char *s)
{
	const char *p;

	for (p = s; *p && !lt_control_len(p); p++)
		;
	if (!*p) {
		fputs(s, out);	/* as nearly every name is */
		return;
	}
	while (*s)
		fputc(lt_shown(&s), out);
}

static int dur_width(uint64_t ns)
{
	char buf[32];

	return (int)strlen(lt_format_duration(buf, sizeof(buf), ns));
}

static int widest(int w, int v)
{
	return v > w ? v : w;
}

static size_t rows_shown(const struct lt_report *r, size_t nr)
{
	return r->options.limit && nr > r->options.limit ? r->options.limit : nr;
}

/* A task's or a command's name in a title: LT_NAME_COLS at most. */
static void put_name(FILE *out, const char *s)
{
	char buf[LT_TEXT_CUT_BYTES(LT_NAME_COLS)];

	put_str(out, lt_text_cut(buf, sizeof(buf), s, LT_NAME_COLS));
}

/* @w widened to the @nr rows of a table at @indent, as put_rows() shows them */
static void widen(struct widths *w, const struct lt_report *r,
		  const struct lt_report_row *rows, size_t nr, int indent)
{
	char buf[CAUSE_BYTES];
	size_t i;

	nr = rows_shown(r, nr);
	w->cause = widest(w->cause, indent + (int)strlen("Cause"));
	for (i = 0; i < nr; i++) {
		w->count = widest(w->count, snprintf(buf, sizeof(buf),
						     "%" PRIu64, rows[i].count));
		/* cut as put_cause() cuts it, however wide the terminal */
		lt_format_cause(buf, sizeof(buf), &rows[i],
				(size_t)(LT_CAUSE_COLS - indent));
		w->cause = widest(w->cause, indent + (int)lt_text_width(buf));
		w->max = widest(w->max, dur_width(rows[i].max_ns));
		w->avg = widest(w->avg, dur_width(rows[i].avg_ns));
		w->total = widest(w->total, dur_width(rows[i].total_ns));
	}
}

/* The process sections a view shows: --max-processes cuts them. */
static size_t procs_shown(const struct lt_report *r,
			  const struct lt_report_view *v)
{
	unsigned int most = r->options.max_processes;

	return most && v->nr_processes > most ? most : v->nr_processes;
}

static void view_widths(const struct lt_report *r,
			const struct lt_report_view *v, struct widths *w)
{
	int numbers;
	size_t i, j;

	w->cause = 0;
	w->cut = LT_CAUSE_COLS;
	w->count = (int)strlen("Count");
	w->max = (int)strlen("Maximum");
	w->avg = (int)strlen("Average");
	w->total = (int)strlen("Total");
	widen(w, r, v->global, v->nr_global, 0);
	for (i = 0; i < v->nr_commands; i++)
		widen(w, r, v->commands[i].rows, v->commands[i].nr_rows, 0);
	for (i = 0; i < procs_shown(r, v); i++) {
		const struct lt_report_process *p = &v->processes[i];

		widen(w, r, p->rows, p->nr_rows, 0);
		for (j = 0; r->options.per_thread && j < p->nr_threads; j++)
			widen(w, r, p->threads[j].rows, p->threads[j].nr_rows, 2);
	}
	/* a terminal's width: the numbers keep theirs, causes take the rest */
	numbers = 2 + w->max + 2 + w->avg + 2 + w->count + 2 + w->total + 2 + 7;
	if (r->options.width && w->cause + numbers > (int)r->options.width) {
		w->cut = widest(CAUSE_MIN, (int)r->options.width - numbers);
		if (w->cut > LT_CAUSE_COLS)
			w->cut = LT_CAUSE_COLS;
		if (w->cause > w->cut)
			w->cause = w->cut;
	}
}

static void put_cause(FILE *out, const struct lt_report_row *row, int indent,
		      const struct widths *w)
{
	char cause[CAUSE_BYTES];

	lt_format_cause(cause, sizeof(cause), row, (size_t)(w->cut - indent));
	/* in columns, not bytes: UTF-8 (a file name in an argument) */
	fprintf(out, "%*s%s%*s", indent, "", cause,
		w->cause - indent - (int)lt_text_width(cause), "");
}

static void put_head(FILE *out, int indent, const struct widths *w)
{
	fprintf(out, "%*s%-*s  %*s  %*s  %*s  %*s  %7s\n", indent, "",
		w->cause - indent, "Cause", w->max, "Maximum", w->avg,
		"Average", w->count, "Count", w->total, "Total", "Percent");
}

static void put_stacks(FILE *out, const struct lt_report_row *row, int indent)
{
	char total[32], max[32];
	size_t i, shown = row->nr_stacks < 10 ? row->nr_stacks : 10;
	unsigned int k;

	for (i = 0; i < shown; i++) {
		const struct lt_report_stack *st = &row->stacks[i];

		fprintf(out, "%*s%" PRIu64 " wait%s, %s, max %s", indent + 4, "",
			st->count, st->count == 1 ? "" : "s",
			lt_format_duration(total, sizeof(total), st->total_ns),
			lt_format_duration(max, sizeof(max), st->max_ns));
		if (st->path_depth > 1) {
			fputs(", in ", out);
			for (k = 0; k < st->path_depth; k++) {
				fputs(k ? " > " : "", out);
				put_str(out, st->path[k]);
			}
		}
		fputc('\n', out);
		for (k = 0; k < st->nr_frames; k++) {
			fprintf(out, "%*s", indent + 6, "");
			put_str(out, st->frames[k]);
			fputc('\n', out);
		}
		if (!st->nr_frames)
			fprintf(out, "%*s(no kernel stack recorded)\n", indent + 6, "");
		if (st->nr_user_frames)
			fprintf(out, "%*s-- user space --\n", indent + 6, "");
		for (k = 0; k < st->nr_user_frames; k++) {
			fprintf(out, "%*s", indent + 6, "");
			put_str(out, st->user_frames[k]);
			fputc('\n', out);
		}
	}
	if (row->nr_stacks > shown)
		fprintf(out, "%*s... %zu more stacks\n", indent + 4, "",
			row->nr_stacks - shown);
}

/* ---- whom the waits waited for (issue 48) ------------------------------ */

/* wakers a row's summary names, whats a waker's line names: the rest summed */
#define WAKERS_SHOWN	3
#define WHATS_SHOWN	4

/* How many of @n to show, @cap at most: one left over is named, not "1 others". */
static size_t shown_of(size_t n, size_t cap)
{
	return n == cap + 1 ? n : cap;
}

/* A line of text, cut where it would overflow its buffer. */
struct line {
	char buf[1024];
	size_t len;
};

static void __attribute__((format(printf, 2, 3)))
line_add(struct line *l, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (l->len + 1 >= sizeof(l->buf))
		return;
	va_start(ap, fmt);
	n = vsnprintf(l->buf + l->len, sizeof(l->buf) - l->len, fmt, ap);
	va_end(ap);
	if (n > 0)
		l->len += (size_t)n < sizeof(l->buf) - l->len ? (size_t)n :
			  sizeof(l->buf) - l->len - 1;
}

/*
 * @l written as a line: names from the trace made harmless, and cut with
 * '~' to options.width (a terminal's) as causes are.
 */
static void line_put(FILE *out, const struct lt_report *r, struct line *l)
{
	const char *p = lt_shown_copy(l->buf, sizeof(l->buf), l->buf), *c;
	size_t cols = 0, width = r->options.width;
	char *cut = NULL;

	for (; width && *p; ) {
		c = p;
		cols += (size_t)lt_text_cols(&p);
		if (!cut && cols > width - 1)
			cut = (char *)c;
	}
	if (width && cols > width) {
		cut[0] = '~';
		cut[1] = '\0';
	}
	fputs(l->buf, out);
	fputc('\n', out);
	l->len = 0;
	l->buf[0] = '\0';
}

/* "96%" of @whole, "<1%" for a part too small to round to one */
static void line_pct(struct line *l, uint64_t ns, uint64_t whole)
{
	uint64_t p = whole ? (uint64_t)(ns * 100.0 / whole + 0.5) : 0;

	if (!p && ns)
		line_add(l, "<1%%");
	else
		line_add(l, "%" PRIu64 "%%", p);
}

/* A node of a task (its running, its wait for a CPU, its cause), not of
 * an interrupt, a timer, what is unknown or lost, or the rest. */
static bool chain_is_task(const struct lt_report_chain *n)
{
	return n->blocked || (n->what && (!strcmp(n->what, "running") ||
					  !strcmp(n->what, "waiting for cpu")));
}

/* "cw-writer (4512)", "cw-writer" (several threads), "timer" */
static void line_who(struct line *l, const struct lt_report_chain *n)
{
	if (!chain_is_task(n))
		line_add(l, "%s", n->what ? n->what : n->comm);
	else if (n->tid >= 0)
		line_add(l, "%s (%d)", n->comm, n->tid);
	else
		line_add(l, "%s", n->comm);
}

/* whose node @n is, for the summary: a task's, or the kind's */
static int cmp_waker(const struct lt_report_chain *a,
		     const struct lt_report_chain *b)
{
	bool ta = chain_is_task(a), tb = chain_is_task(b);
	int c;

	if (ta != tb)
		return ta ? -1 : 1;
	if (!ta)
		return strcmp(a->what ? a->what : a->comm,
			      b->what ? b->what : b->comm);
	c = strcmp(a->comm, b->comm);
	return c ? c : (a->tid > b->tid) - (a->tid < b->tid);
}

/* Nodes by waker, then in their order (by time: the list's). */
static int cmp_by_waker(const void *pa, const void *pb)
{
	const struct lt_report_chain *a = *(const struct lt_report_chain *const *)pa;
	const struct lt_report_chain *b = *(const struct lt_report_chain *const *)pb;
	int c = cmp_waker(a, b);

	return c ? c : (a > b) - (a < b);
}

struct waker_group {
	const struct lt_report_chain *const *nodes;	/* of one waker */
	size_t nr;
	uint64_t ns;
};

static int cmp_group(const void *pa, const void *pb)
{
	const struct waker_group *a = pa, *b = pb;

	if (a->ns != b->ns)
		return a->ns > b->ns ? -1 : 1;
	return cmp_waker(a->nodes[0], b->nodes[0]);
}

/*
 * One line per top waker of @row, its share of the row's time by what it
 * was doing: "  <- cw-writer (4512): Sleeping (nanosleep) 96%, running
 * 3%, waiting for cpu 1%".  Out of memory: none.
 */
static void put_wakers(FILE *out, const struct lt_report *r,
		       const struct lt_report_row *row, int indent)
{
	const struct lt_report_chain **v;
	struct waker_group *g;
	struct line l = { .len = 0 };
	uint64_t whole = row->total_ns, rest = 0;
	size_t i, j, k, ng = 0, n = row->nr_waited_for, shown;

	v = malloc(n * sizeof(*v));
	g = malloc(n * sizeof(*g));
	if (!v || !g)
		goto out;
	for (i = 0; i < n; i++)
		v[i] = &row->waited_for[i];
	qsort(v, n, sizeof(*v), cmp_by_waker);
	for (i = 0; i < n; i = j) {
		g[ng].nodes = &v[i];
		g[ng].ns = 0;
		for (j = i; j < n && !cmp_waker(v[i], v[j]); j++)
			g[ng].ns += v[j]->ns;
		g[ng++].nr = j - i;
	}
	qsort(g, ng, sizeof(*g), cmp_group);
	shown = shown_of(ng, WAKERS_SHOWN);
	for (i = 0; i < ng; i++) {
		if (i >= shown) {
			rest += g[i].ns;
			continue;
		}
		line_add(&l, "%*s<- ", indent + 2, "");
		line_who(&l, g[i].nodes[0]);
		line_add(&l, ": ");
		if (!chain_is_task(g[i].nodes[0])) {
			line_pct(&l, g[i].ns, whole);
			line_put(out, r, &l);
			continue;
		}
		/* its whats, by time (qsort kept the list's order within) */
		for (k = 0; k < g[i].nr && k < WHATS_SHOWN; k++) {
			line_add(&l, "%s%s ", k ? ", " : "", g[i].nodes[k]->what);
			line_pct(&l, g[i].nodes[k]->ns, whole);
		}
		if (k < g[i].nr) {
			uint64_t more = 0;

			for (; k < g[i].nr; k++)
				more += g[i].nodes[k]->ns;
			line_add(&l, ", other ");
			line_pct(&l, more, whole);
		}
		line_put(out, r, &l);
	}
	if (ng > shown) {
		line_add(&l, "%*s<- %zu others: ", indent + 2, "", ng - shown);
		line_pct(&l, rest, whole);
		line_put(out, r, &l);
	}
out:
	free(v);
	free(g);
}

/* ", 747.4 ms (96.3%)": @ns, and its share of @whole */
static void line_time(struct line *l, uint64_t ns, uint64_t whole)
{
	char dur[32], pct[32];

	line_add(l, ", %s (%s%%)", lt_format_duration(dur, sizeof(dur), ns),
		 lt_format_percent(pct, sizeof(pct),
				   whole ? 100.0 * ns / whole : 0));
}

/*
 * The nodes @v[0..n) and below, a line each at @indent, the first
 * LT_REPORT_CHAIN_SHOWN of a level and the rest summed, as JSON has them.
 */
static void put_tree(FILE *out, const struct lt_report *r,
		     const struct lt_report_chain *v, size_t n, uint64_t whole,
		     int indent)
{
	struct line l = { .len = 0 };
	size_t i, shown = shown_of(n, LT_REPORT_CHAIN_SHOWN);
	uint64_t rest = 0;

	for (i = 0; i < n; i++) {
		if (i >= shown) {
			rest += v[i].ns;
			continue;
		}
		line_add(&l, "%*s<- ", indent, "");
		line_who(&l, &v[i]);
		if (chain_is_task(&v[i]))
			line_add(&l, ": %s", v[i].what);
		line_time(&l, v[i].ns, whole);
		line_put(out, r, &l);
		put_tree(out, r, v[i].children, v[i].nr_children, whole,
			 indent + 4);
	}
	if (n > shown) {
		line_add(&l, "%*s<- %zu others", indent, "", n - shown);
		line_time(&l, rest, whole);
		line_put(out, r, &l);
	}
}

/*
 * Who ran while the row's task waited for a CPU: "  ran instead: cc1
 * (4336) 17%, make 16%, 30 others 56%", or with --chains a line each.
 */
static void put_ran_instead(FILE *out, const struct lt_report *r,
			    const struct lt_report_row *row, int indent)
{
	const struct lt_report_chain *v = row->ran_instead;
	size_t i, n = row->nr_ran_instead;
	size_t shown = shown_of(n, r->options.chains ? LT_REPORT_CHAIN_SHOWN :
				     WAKERS_SHOWN);
	struct line l = { .len = 0 };
	uint64_t rest = 0;

	if (!r->options.chains)
		line_add(&l, "%*sran instead: ", indent + 2, "");
	for (i = 0; i < n; i++) {
		if (i >= shown) {
			rest += v[i].ns;
			continue;
		}
		if (r->options.chains) {
			line_add(&l, "%*sran instead: %s", indent + 4, "", v[i].comm);
			if (v[i].tid >= 0)
				line_add(&l, " (%d)", v[i].tid);
			line_time(&l, v[i].ns, row->total_ns);
			line_put(out, r, &l);
			continue;
		}
		line_add(&l, "%s%s", i ? ", " : "", v[i].comm);
		if (v[i].tid >= 0)
			line_add(&l, " (%d)", v[i].tid);
		line_add(&l, " ");
		line_pct(&l, v[i].ns, row->total_ns);
	}
	if (n > shown && r->options.chains) {
		line_add(&l, "%*sran instead: %zu others", indent + 4, "",
			 n - shown);
		line_time(&l, rest, row->total_ns);
	} else if (n > shown) {
		line_add(&l, ", %zu others ", n - shown);
		line_pct(&l, rest, row->total_ns);
	}
	if (l.len)
		line_put(out, r, &l);
}

/* Under a process's (or thread's) row: whom its waits waited for. */
static void put_chains(FILE *out, const struct lt_report *r,
		       const struct lt_report_row *row, int indent)
{
	if (row->nr_ran_instead)
		put_ran_instead(out, r, row, indent);
	if (!row->nr_waited_for)
		return;
	if (r->options.chains)
		put_tree(out, r, row->waited_for, row->nr_waited_for,
			 row->total_ns, indent + 4);
	else
		put_wakers(out, r, row, indent);
}

static void put_rows(FILE *out, const struct lt_report *r,
		     const struct lt_report_row *rows, size_t nr, int indent,
		     const struct widths *w, bool chains)
{
	char max[32], avg[32], total[32], pct[32];
	size_t i, shown = rows_shown(r, nr);

	put_head(out, indent, w);
	for (i = 0; i < shown; i++) {
		const struct lt_report_row *row = &rows[i];

		put_cause(out, row, indent, w);
		fprintf(out, "  %*s  %*s  %*" PRIu64 "  %*s  %6s%%\n",
			w->max, lt_format_duration(max, sizeof(max), row->max_ns),
			w->avg, lt_format_duration(avg, sizeof(avg), row->avg_ns),
			w->count, row->count,
			w->total, lt_format_duration(total, sizeof(total), row->total_ns),
			lt_format_percent(pct, sizeof(pct), row->percent));
		if (chains)
			put_chains(out, r, row, indent);
		if (r->options.stacks && row->kind != LT_CAUSE_SCHED)
			put_stacks(out, row, indent);
	}
	if (shown < nr)
		fprintf(out, "%*s... %zu more cause%s (--limit)\n", indent, "",
			nr - shown, nr - shown == 1 ? "" : "s");
}

/* "blocked 3.2 s: 80% annotated, 20% translated": only the kinds present */
static void put_coverage(FILE *out, const struct lt_report_coverage *c)
{
	static const char *const what[LT_CAUSE_NR] = {
		[LT_CAUSE_ANNOTATED] = "annotated",
		[LT_CAUSE_TRANSLATED] = "translated from stacks",
		[LT_CAUSE_FUNCTION] = "blocking function only",
		[LT_CAUSE_UNKNOWN] = "unknown",
	};
	uint64_t blocked = 0;
	char buf[32];
	int k, n = 0;

	/* not blocked: waiting for a CPU, stopped (--charge-stopped) */
	for (k = 0; k < LT_CAUSE_NR; k++)
		if (k != LT_CAUSE_SCHED && k != LT_CAUSE_STOPPED)
			blocked += c->ns[k];
	if (!blocked)
		return;
	fprintf(out, "  blocked %s:", lt_format_duration(buf, sizeof(buf), blocked));
	for (k = 0; k < LT_CAUSE_NR; k++)
		if (k != LT_CAUSE_SCHED && k != LT_CAUSE_STOPPED && c->ns[k])
			fprintf(out, "%s %.1f%% %s", n++ ? "," : "",
				100.0 * c->ns[k] / blocked, what[k]);
	fputc('\n', out);
}

const char *lt_report_global_empty(const struct lt_report *r,
				   const struct lt_report_view *v)
{
	size_t i;

	for (i = 0; !r->options.kernel_threads && i < v->nr_processes; i++)
		if (v->processes[i].kernel_thread && v->processes[i].nr_rows)
			return "(none outside kernel threads: -k counts them here)";
	return "(no latencies in this range)";
}

int lt_report_write_view_head(const struct lt_report *r,
			      const struct lt_report_view *v, FILE *out)
{
	char total[32];

	fprintf(out, "Global latencies%s%s: %s charged\n",
		lt_task_filter_active(&r->options.tasks) ?
		" of the selected tasks" : "",
		r->options.kernel_threads ? "" : " (kernel threads excluded)",
		lt_format_duration(total, sizeof(total), v->total_ns));
	put_coverage(out, &v->coverage);
	if (!v->nr_global)
		fprintf(out, "  %s\n", lt_report_global_empty(r, v));
	return ferror(out) ? -1 : 0;
}

/* "  user requested, not charged: 3 waits > 5.0 ms, 61.2 ms in all, ..." */
static void put_uncharged(FILE *out, const struct lt_report *r,
			  const struct lt_report_uncharged *u, int indent)
{
	char cut[32], total[32], max[32];

	if (!u->count)
		return;
	fprintf(out, "%*suser requested, not charged: %" PRIu64 " wait%s > %s, "
		"%s in all, longest %s\n",
		indent + 2, "", u->count, u->count == 1 ? "" : "s",
		lt_format_duration(cut, sizeof(cut), r->options.sleep_cutoff_ns),
		lt_format_duration(total, sizeof(total), u->total_ns),
		lt_format_duration(max, sizeof(max), u->max_ns));
}

/*
 * "  stopped, not charged: 5 waits by a signal (150.2 ms, longest 31.3
 * ms), 5 for a tracer (...)"
 */
static void put_stopped(FILE *out, const struct lt_report_stopped *st,
			int indent)
{
	const struct lt_report_uncharged *u[2] = { &st->signal, &st->tracer };
	static const char *const how[2] = { "by a signal", "for a tracer" };
	char total[32], max[32];
	int k, n = 0;

	if (!st->signal.count && !st->tracer.count)
		return;
	fprintf(out, "%*sstopped, not charged:", indent + 2, "");
	for (k = 0; k < 2; k++) {
		if (!u[k]->count)
			continue;
		/* "5 waits by a signal (...), 5 for a tracer (...)" */
		fprintf(out, "%s %" PRIu64 "%s %s (%s, longest %s)", n ? "," : "",
			u[k]->count, n ? "" : u[k]->count == 1 ? " wait" : " waits",
			how[k], lt_format_duration(total, sizeof(total), u[k]->total_ns),
			lt_format_duration(max, sizeof(max), u[k]->max_ns));
		n++;
	}
	fputc('\n', out);
}

int lt_report_text_task_head(const struct lt_report *r,
			     const struct lt_report_coverage *c,
			     const struct lt_report_uncharged *u,
			     const struct lt_report_stopped *st, int indent,
			     FILE *out)
{
	if (c)
		put_coverage(out, c);
	put_uncharged(out, r, u, indent);
	if (st)
		put_stopped(out, st, indent);
	return ferror(out) ? -1 : 0;
}

static void put_process(FILE *out, const struct lt_report *r,
			const struct lt_report_process *p,
			const struct widths *w)
{
	char total[32];
	size_t j;

	fputs("\nProcess ", out);
	put_name(out, p->comm);
	fprintf(out, " (%d)%s", p->pid,
		p->kernel_thread ? " [kernel thread]" : "");
	/* a merge's processes of different traces may share a pid */
	if (p->trace && r->nr_traces > 1) {
		fputs(" in ", out);
		put_name(out, p->trace);
	}
	fprintf(out, ": %s\n",
		lt_format_duration(total, sizeof(total), p->total_ns));
	put_coverage(out, &p->coverage);
	put_uncharged(out, r, &p->user_requested, 0);
	put_stopped(out, &p->stopped, 0);
	if (p->nr_rows)
		put_rows(out, r, p->rows, p->nr_rows, 0, w, true);
	if (!r->options.per_thread)
		return;
	for (j = 0; j < p->nr_threads; j++) {
		const struct lt_report_thread *t = &p->threads[j];

		fputs("\n  Thread ", out);
		put_name(out, t->comm);
		fprintf(out, " (%d): %s\n", t->tid,
			lt_format_duration(total, sizeof(total), t->total_ns));
		put_uncharged(out, r, &t->user_requested, 2);
		put_stopped(out, &t->stopped, 2);
		if (t->nr_rows)
			put_rows(out, r, t->rows, t->nr_rows, 2, w, true);
	}
}

/* ---- --by cgroup ---------------------------------------------------------- */

/*
 * The processes of one cgroup, and its table: their rows added up cause
 * by cause (counts, totals, the longest; the average made again, the
 * share of the cgroup's total).  Percentiles and worst waits are not
 * made again here: JSON and merge keep every process's histograms.
 */
struct cg_group {
	const char *path;		/* NULL: the trace does not say */
	const struct lt_report_process **procs;
	size_t nr_procs;
	uint64_t total_ns;
	struct lt_report_row *rows;
	size_t nr_rows;
};

static int cmp_path(const char *a, const char *b)
{
	/* processes of no known cgroup last */
	if (!a || !b)
		return a ? -1 : b ? 1 : 0;
	return strcmp(a, b);
}

static int cmp_procs_by_cgroup(const void *pa, const void *pb)
{
	const struct lt_report_process *a = *(const struct lt_report_process *const *)pa;
	const struct lt_report_process *b = *(const struct lt_report_process *const *)pb;
	int c = cmp_path(a->cgroup, b->cgroup);

	/* else as the view has them: the pointers are in its order */
	return c ? c : a < b ? -1 : a > b;
}

static int cmp_row_cause(const void *pa, const void *pb)
{
	const struct lt_report_row *a = *(const struct lt_report_row *const *)pa;
	const struct lt_report_row *b = *(const struct lt_report_row *const *)pb;
	int c;

	if (a->kind != b->kind)
		return a->kind < b->kind ? -1 : 1;
	c = strcmp(a->reason, b->reason);
	return c ? c : strcmp(a->argument, b->argument);
}

static uint64_t row_key(enum lt_sort by, const struct lt_report_row *r)
{
	switch (by) {
	case LT_SORT_TOTAL:
		return r->total_ns;
	case LT_SORT_COUNT:
		return r->count;
	case LT_SORT_AVG:
		return r->avg_ns;
	case LT_SORT_MAX:
	default:
		return r->max_ns;
	}
}

static int cmp_rows_by(const void *pa, const void *pb, void *arg)
{
	const struct lt_report_row *a = pa, *b = pb;
	enum lt_sort by = *(const enum lt_sort *)arg;
	uint64_t ka = row_key(by, a), kb = row_key(by, b);

	if (ka != kb)
		return ka > kb ? -1 : 1;
	if (a->total_ns != b->total_ns)
		return a->total_ns > b->total_ns ? -1 : 1;
	return cmp_row_cause(&a, &b);
}

static int cmp_groups(const void *pa, const void *pb)
{
	const struct cg_group *a = pa, *b = pb;

	if (!a->path || !b->path)
		return cmp_path(a->path, b->path);
	if (a->total_ns != b->total_ns)
		return a->total_ns > b->total_ns ? -1 : 1;
	return strcmp(a->path, b->path);
}

/* @g's table from its processes' rows: 0, or -1 out of memory. */
static int group_rows(struct cg_group *g, enum lt_sort by)
{
	const struct lt_report_row **all;
	struct lt_report_row *o = NULL;
	size_t n = 0, i, k;

	for (i = 0; i < g->nr_procs; i++)
		n += g->procs[i]->nr_rows;
	all = malloc((n ? n : 1) * sizeof(*all));
	g->rows = calloc(n ? n : 1, sizeof(*g->rows));
	if (!all || !g->rows) {
		free(all);
		return -1;
	}
	for (i = 0, n = 0; i < g->nr_procs; i++)
		for (k = 0; k < g->procs[i]->nr_rows; k++)
			all[n++] = &g->procs[i]->rows[k];
	qsort(all, n, sizeof(*all), cmp_row_cause);
	for (i = 0; i < n; i++) {
		if (!o || cmp_row_cause(&all[i], &all[i - 1])) {
			o = &g->rows[g->nr_rows++];
			o->reason = all[i]->reason;
			o->argument = all[i]->argument;
			o->kind = all[i]->kind;
		}
		o->count += all[i]->count;
		o->total_ns += all[i]->total_ns;
		if (all[i]->max_ns > o->max_ns)
			o->max_ns = all[i]->max_ns;
	}
	for (i = 0; i < g->nr_rows; i++) {
		o = &g->rows[i];
		g->total_ns += o->total_ns;
		o->avg_ns = o->count ? o->total_ns / o->count : 0;
		o->no_percentiles = true;
	}
	for (i = 0; i < g->nr_rows; i++)
		g->rows[i].percent = g->total_ns ?
			100.0 * (double)g->rows[i].total_ns / (double)g->total_ns : 0;
	if (g->nr_rows > 1)
		qsort_r(g->rows, g->nr_rows, sizeof(*g->rows), cmp_rows_by, &by);
	free(all);
	return 0;
}

static void free_groups(struct cg_group *g, size_t nr,
			const struct lt_report_process **procs)
{
	size_t i;

	for (i = 0; g && i < nr; i++)
		free(g[i].rows);
	free(g);
	free(procs);
}

/*
 * The view's processes grouped by cgroup, each group with its table:
 * *@out and *@procs to free_groups(); the number of groups, or -1 when
 * out of memory.
 */
static long make_groups(const struct lt_report *r, const struct lt_report_view *v,
			struct cg_group **out, const struct lt_report_process ***procs)
{
	const struct lt_report_process **ps;
	struct cg_group *g;
	size_t i, n = 0;

	*out = NULL;
	ps = malloc((v->nr_processes ? v->nr_processes : 1) * sizeof(*ps));
	g = calloc(v->nr_processes ? v->nr_processes : 1, sizeof(*g));
	*procs = ps;
	*out = g;
	if (!ps || !g)
		return -1;
	for (i = 0; i < v->nr_processes; i++)
		ps[i] = &v->processes[i];
	qsort(ps, v->nr_processes, sizeof(*ps), cmp_procs_by_cgroup);
	for (i = 0; i < v->nr_processes; i++) {
		if (!i || cmp_path(ps[i]->cgroup, ps[i - 1]->cgroup)) {
			g[n].path = ps[i]->cgroup;
			g[n++].procs = &ps[i];
		}
		g[n - 1].nr_procs++;
	}
	for (i = 0; i < n; i++)
		if (group_rows(&g[i], r->options.sort) < 0)
			return -1;
	if (n > 1)
		qsort(g, n, sizeof(*g), cmp_groups);
	return (long)n;
}

/* The view by cgroup: a section per cgroup, its table, its processes. */
static void put_by_cgroup(FILE *out, const struct lt_report *r,
			  const struct widths *w, const struct cg_group *g,
			  size_t nr)
{
	unsigned int most = r->options.max_processes;
	char total[32];
	size_t i, k, shown;

	for (i = 0; i < nr; i++) {
		fputs("\n=== Cgroup ", out);
		if (g[i].path)
			put_name(out, g[i].path);
		else
			fputs("(not known)", out);
		fprintf(out, ": %zu process%s, %s ===\n", g[i].nr_procs,
			g[i].nr_procs == 1 ? "" : "es",
			lt_format_duration(total, sizeof(total), g[i].total_ns));
		if (g[i].nr_rows)
			put_rows(out, r, g[i].rows, g[i].nr_rows, 0, w, false);
		shown = most && g[i].nr_procs > most ? most : g[i].nr_procs;
		for (k = 0; k < shown; k++)
			put_process(out, r, g[i].procs[k], w);
		if (shown < g[i].nr_procs)
			fprintf(out, "\n... %zu more process%s in this cgroup "
				"(--max-processes)\n", g[i].nr_procs - shown,
				g[i].nr_procs - shown == 1 ? "" : "es");
	}
}

static void put_view(FILE *out, const struct lt_report *r,
		     const struct lt_report_view *v)
{
	const struct lt_report_process **ps = NULL;
	struct cg_group *g = NULL;
	char total[32];
	struct widths w;
	size_t i, k, shown = procs_shown(r, v);
	long n = 0;

	view_widths(r, v, &w);
	if (r->options.by_cgroup) {
		n = make_groups(r, v, &g, &ps);
		for (i = 0; n > 0 && i < (size_t)n; i++) {
			widen(&w, r, g[i].rows, g[i].nr_rows, 0);
			for (k = 0; k < g[i].nr_procs; k++)
				widen(&w, r, g[i].procs[k]->rows,
				      g[i].procs[k]->nr_rows, 0);
		}
	}
	lt_report_write_view_head(r, v, out);
	if (v->nr_global)
		put_rows(out, r, v->global, v->nr_global, 0, &w, false);

	/* a merged report's "all postgres processes" */
	for (i = 0; i < v->nr_commands; i++) {
		const struct lt_report_command *c = &v->commands[i];

		fputs("\nCommand ", out);
		put_name(out, c->comm);
		fprintf(out, "%s, %" PRIu64 " process%s: %s\n",
			c->kernel_thread ? " [kernel thread]" : "", c->processes,
			c->processes == 1 ? "" : "es",
			lt_format_duration(total, sizeof(total), c->total_ns));
		put_coverage(out, &c->coverage);
		put_uncharged(out, r, &c->user_requested, 0);
		put_stopped(out, &c->stopped, 0);
		if (c->nr_rows)
			put_rows(out, r, c->rows, c->nr_rows, 0, &w, false);
	}

	if (r->options.by_cgroup) {
		if (n < 0)
			fputs("\n(out of memory for the tables by cgroup)\n", out);
		else
			put_by_cgroup(out, r, &w, g, (size_t)n);
		free_groups(g, v->nr_processes, ps);
		return;
	}
	for (i = 0; i < shown; i++)
		put_process(out, r, &v->processes[i], &w);
	if (shown < v->nr_processes)
		fprintf(out, "\n... %zu more process%s (--max-processes)\n",
			v->nr_processes - shown,
			v->nr_processes - shown == 1 ? "" : "es");
}

#define WRAP_COLS 80
#define HEAD_W 10

/*
 * Words of @text, wrapped at WRAP_COLS under a HEAD_W indent; *col is the
 * current column.  Words never break; a '\x01' joins two words as a space
 * that does not wrap.
 */
static void put_words(FILE *out, int *col, const char *text)
{
	const char *p = text, *e;
	int len;

	while (*p) {
		while (*p == ' ')
			p++;
		/* its columns (lt_text_cols()), for the wrap */
		for (e = p, len = 0; *e && *e != ' '; len += lt_text_cols(&e))
			;
		if (!len)
			break;
		if (*col > HEAD_W && *col + 1 + len > WRAP_COLS) {
			fprintf(out, "\n%*s", HEAD_W, "");
			*col = HEAD_W;
		} else if (*col > HEAD_W) {
			fputc(' ', out);
			(*col)++;
		}
		while (p < e) {
			if (*p == '\x01') {
				fputc(' ', out);
				p++;
			} else {
				fputc(lt_shown(&p), out);
			}
		}
		*col += len;
	}
}

/*
 * "Tasks:    pid 143, comm sync* (2 processes): the tables count only
 * these", when --pid, --tid or --comm chose them.
 */
static void put_tasks(FILE *out, const struct lt_report *r)
{
	const struct lt_task_filter *f = &r->options.tasks;
	char item[160], name[128];
	int col = HEAD_W;
	size_t i, n = 0, total = lt_task_filter_active(f) ?
		f->nr_pids + f->nr_tids + f->nr_comms : 0;

	if (!total)
		return;
	fprintf(out, "%-*s", HEAD_W, "Tasks:");
	for (i = 0; i < f->nr_pids; i++, n++) {
		snprintf(item, sizeof(item), "pid\x01%d%s", f->pids[i],
			 n + 1 < total ? "," : "");
		put_words(out, &col, item);
	}
	for (i = 0; i < f->nr_tids; i++, n++) {
		snprintf(item, sizeof(item), "tid\x01%d%s", f->tids[i],
			 n + 1 < total ? "," : "");
		put_words(out, &col, item);
	}
	for (i = 0; i < f->nr_comms; i++, n++) {
		/* a pattern's own blanks must not wrap or vanish */
		lt_shown_copy(name, sizeof(name), f->comms[i]);
		for (char *c = name; *c; c++)
			if (*c == ' ')
				*c = '\x01';
		snprintf(item, sizeof(item), "comm\x01%s%s", name,
			 n + 1 < total ? "," : "");
		put_words(out, &col, item);
	}
	snprintf(item, sizeof(item), "(%zu process%s): the tables count only these",
		 r->whole.nr_processes, r->whole.nr_processes == 1 ? "" : "es");
	put_words(out, &col, item);
	fputc('\n', out);
}

/*
 * "Buffer:   instance NAME", or "Buffer:   the top level; with scheduler
 * events too: NAME (--buffer NAME reads one)".
 */
static void put_buffer(FILE *out, const struct lt_report *r)
{
	char item[160], name[128];
	int col = HEAD_W;

	if (!r->buffer && !r->other_buffers)
		return;
	fprintf(out, "%-*s", HEAD_W, "Buffer:");
	/* names from the file: as put_str() shows them */
	if (r->buffer)
		snprintf(item, sizeof(item), "instance %s%s",
			 lt_shown_copy(name, sizeof(name), r->buffer),
			 r->other_buffers ? ";" : "");
	else
		snprintf(item, sizeof(item), "the top level%s",
			 r->other_buffers ? ";" : "");
	put_words(out, &col, item);
	if (r->other_buffers) {
		put_words(out, &col, "with scheduler events too:");
		lt_shown_copy(item, sizeof(item), r->other_buffers);
		put_words(out, &col, item);
		put_words(out, &col, "(--buffer\x01NAME reads one)");
	}
	fputc('\n', out);
}

static void put_sources(FILE *out, const struct lt_report *r)
{
	char item[160], name[128];
	int col;
	size_t i;

	fputs("Sources:  ", out);
	col = HEAD_W;
	if (!r->nr_sources)
		put_words(out, &col, "none");
	for (i = 0; i < r->nr_sources; i++) {
		/* shown first, so that a '\x01' of its own shows as '?' too */
		snprintf(item, sizeof(item), "%s\x01%" PRIu64 "%s",
			 lt_shown_copy(name, sizeof(name), r->sources[i].event),
			 r->sources[i].count, i + 1 < r->nr_sources ? "," : "");
		put_words(out, &col, item);
	}
	fputc('\n', out);
	for (i = 0; i < r->nr_missing; i++) {
		fprintf(out, "%-*s", HEAD_W, i ? "" : "Missing:");
		col = HEAD_W;
		snprintf(item, sizeof(item), "%s:", r->missing[i].what);
		put_words(out, &col, item);
		put_words(out, &col, r->missing[i].effect);
		fputc('\n', out);
	}
	/* one line, to copy and paste */
	if (r->nr_missing && r->record_hint) {
		fprintf(out, "%*srecord them with:\n%*s", HEAD_W, "", HEAD_W, "");
		put_str(out, r->record_hint);
		fputc('\n', out);
		/*
		 * The recorder refuses to start on an event the kernel
		 * lacks, in its own words: perf's for a perf record line,
		 * else trace-cmd's.
		 */
		if (!strncmp(r->record_hint, "perf ", 5))
			fprintf(out, "%*s(where perf says \"unknown tracepoint\" under -e X, this kernel lacks X:\n",
				HEAD_W, "");
		else
			fprintf(out, "%*s(where trace-cmd says \"No events enabled with X\", this kernel lacks X:\n",
				HEAD_W, "");
		fprintf(out, "%*sleave -e X out; latency-record -- <workload> enables what the kernel has)\n",
			HEAD_W, "");
	}
}

static void put_lost(FILE *out, const struct lt_report *r)
{
	char item[80];
	int cpu, last, col = HEAD_W;
	bool overruns = false, ends = false, first;

	/* any, not a sum: a damaged file's counts add up past 64 bits */
	for (cpu = 0; r->overrun_per_cpu && cpu < r->cpus; cpu++)
		if (r->overrun_per_cpu[cpu] > 0)
			overruns = true;
	for (cpu = 0; r->cpu_data_end && cpu < r->cpus; cpu++)
		if (r->cpu_data_end[cpu])
			ends = true;
	fputs("Lost:     ", out);
	if (!r->lost_events && !r->lost_gaps_unknown && !overruns && !ends) {
		put_words(out, &col, "no events lost");
		fputc('\n', out);
		return;
	}
	/* --partial: a CPU's data cut short is a gap from where it ends */
	for (cpu = 0, last = -1; ends && cpu < r->cpus; cpu++)
		if (r->cpu_data_end[cpu])
			last = cpu;
	for (cpu = 0; ends && cpu <= last; cpu++) {
		char at[32];

		if (!r->cpu_data_end[cpu])
			continue;
		if (r->cpu_data_end[cpu] <= r->start_ns)
			snprintf(item, sizeof(item), "CPU\x01%d's data is "
				 "missing%s", cpu, cpu < last ? ";" : "");
		else
			snprintf(item, sizeof(item), "CPU\x01%d's data ends at "
				 "%s%s", cpu, lt_format_stamp(at, sizeof(at),
							   r->cpu_data_end[cpu]),
				 cpu < last ? ";" : "");
		put_words(out, &col, item);
	}
	if (ends) {
		put_words(out, &col, "(the file is cut short or damaged there):"
			  " a gap of lost events from there to the end");
		if (!r->lost_events && !r->lost_gaps_unknown && !overruns) {
			fputc('\n', out);
			return;
		}
		put_words(out, &col, "and");
	}
	if (r->lost_events || r->lost_gaps_unknown) {
		/* the kernel's counts: a loss it did not count adds to them */
		snprintf(item, sizeof(item), "at least %" PRIu64 " events in "
			 "the data%s", r->lost_events,
			 r->lost_gaps_unknown ? " and" : "");
		put_words(out, &col, item);
		if (r->lost_gaps_unknown) {
			snprintf(item, sizeof(item), "%" PRIu64 " gap%s of unknown size",
				 r->lost_gaps_unknown,
				 r->lost_gaps_unknown == 1 ? "" : "s");
			put_words(out, &col, item);
		}
		for (last = r->nr_lost_cpus - 1; last >= 0; last--)
			if (r->lost_per_cpu[last])
				break;
		for (cpu = 0, first = true; cpu <= last; cpu++) {
			if (!r->lost_per_cpu[cpu])
				continue;
			snprintf(item, sizeof(item), "%sCPU\x01%d:\x01%" PRIu64 "%s",
				 first ? "(" : "", cpu, r->lost_per_cpu[cpu],
				 cpu == last ? ")" : ";");
			put_words(out, &col, item);
			first = false;
		}
	}
	/* overwritten or dropped by the kernel before trace-cmd saved them */
	if (overruns) {
		put_words(out, &col, "ring-buffer overruns");
		for (cpu = 0; cpu < r->cpus; cpu++) {
			if (r->overrun_per_cpu[cpu] <= 0)
				continue;
			snprintf(item, sizeof(item), "CPU\x01%d:\x01%" PRId64 "", cpu,
				 r->overrun_per_cpu[cpu]);
			put_words(out, &col, item);
		}
	}
	fputc('\n', out);
}

/*
 * From when the trace shows every CPU: waits begun before that, or across
 * a gap of lost events, are dropped (put_not_charged() counts them).
 */
static void put_complete(FILE *out, const struct lt_report *r)
{
	char item[200], at[32], in[32];
	int col = HEAD_W;

	if (r->complete_from_ns <= r->start_ns && !r->lost_gaps)
		return;
	fprintf(out, "%-*s", HEAD_W, "Complete:");
	if (r->complete_from_ns > r->start_ns) {
		snprintf(item, sizeof(item), "from %s (%s in): before it some "
			 "CPU's oldest data was lost, so waits begun there are "
			 "not charged%s",
			 lt_format_stamp(at, sizeof(at), r->complete_from_ns),
			 lt_format_duration(in, sizeof(in),
					    r->complete_from_ns - r->start_ns),
			 r->lost_gaps ? ";" : "");
		put_words(out, &col, item);
	}
	if (r->lost_gaps) {
		snprintf(item, sizeof(item), "%" PRIu64 " gap%s of lost events "
			 "later: waits across %s are not charged", r->lost_gaps,
			 r->lost_gaps == 1 ? "" : "s",
			 r->lost_gaps == 1 ? "it" : "them");
		put_words(out, &col, item);
	}
	fputc('\n', out);
}

/*
 * "Stopped:  10 waits by a signal (302.3 ms), 5 for a tracer (150.8 ms),
 * not charged (--charge-stopped charges them)"
 */
static void put_stopped_total(FILE *out, const struct lt_report *r)
{
	char buf[32], buf2[32], item[200];
	int col = HEAD_W;

	if (!r->stopped_signal && !r->stopped_tracer)
		return;
	fprintf(out, "%-*s", HEAD_W, "Stopped:");
	if (r->stopped_signal && r->stopped_tracer)
		snprintf(item, sizeof(item), "%" PRIu64 " wait%s by a signal (%s),"
			 " %" PRIu64 " for a tracer (%s),", r->stopped_signal,
			 r->stopped_signal == 1 ? "" : "s",
			 lt_format_duration(buf, sizeof(buf), r->stopped_signal_ns),
			 r->stopped_tracer,
			 lt_format_duration(buf2, sizeof(buf2), r->stopped_tracer_ns));
	else
		snprintf(item, sizeof(item), "%" PRIu64 " wait%s %s (%s),",
			 r->stopped_signal + r->stopped_tracer,
			 r->stopped_signal + r->stopped_tracer == 1 ? "" : "s",
			 r->stopped_signal ? "by a signal" : "for a tracer",
			 lt_format_duration(buf, sizeof(buf), r->stopped_signal_ns +
					    r->stopped_tracer_ns));
	put_words(out, &col, item);
	put_words(out, &col, "not charged (--charge-stopped charges them)");
	fputc('\n', out);
}

static void put_not_charged(FILE *out, const struct lt_report *r)
{
	uint64_t whole = r->no_switch_in - r->cpu_waits_no_switch_in;
	char buf[32], cut[32], item[200];
	int col = HEAD_W;

	fprintf(out, "%-*s", HEAD_W, "Dropped:");
	if (r->options.sleep_cutoff_ns)
		snprintf(item, sizeof(item), "%" PRIu64 " interruptible waits > %s "
			 "(user requested, %s),", r->dropped_interruptible,
			 lt_format_duration(cut, sizeof(cut), r->options.sleep_cutoff_ns),
			 lt_format_duration(buf, sizeof(buf), r->dropped_interruptible_ns));
	else
		snprintf(item, sizeof(item), "no interruptible cut-off,");
	put_words(out, &col, item);
	if (r->options.honour_maxtime) {
		snprintf(item, sizeof(item), "%" PRIu64 " over their reason's maxtime,",
			 r->dropped_maxtime);
		put_words(out, &col, item);
	}
	snprintf(item, sizeof(item), "%" PRIu64 " begun before the trace, %" PRIu64
		 " unfinished at its end%s", r->began_before_trace, r->unfinished,
		 r->discarded_lost || r->no_switch_in || r->dropped_incomplete ||
		 r->dropped_gap || r->unknown_state ? "," : "");
	put_words(out, &col, item);
	if (r->dropped_incomplete) {
		snprintf(item, sizeof(item), "%" PRIu64 " begun before every CPU "
			 "had data (%s)%s", r->dropped_incomplete,
			 lt_format_duration(buf, sizeof(buf),
					    r->dropped_incomplete_ns),
			 r->discarded_lost || r->no_switch_in || r->dropped_gap ||
			 r->unknown_state ? "," : "");
		put_words(out, &col, item);
	}
	if (r->dropped_gap) {
		snprintf(item, sizeof(item), "%" PRIu64 " across gaps of lost "
			 "events (%s)%s", r->dropped_gap,
			 lt_format_duration(buf, sizeof(buf), r->dropped_gap_ns),
			 r->discarded_lost || r->no_switch_in ||
			 r->unknown_state ? "," : "");
		put_words(out, &col, item);
	}
	if (whole) {
		snprintf(item, sizeof(item), "%" PRIu64
			 " whole wait%s whose end (a switch-in) the trace lacks%s",
			 whole, whole > 1 ? "s" : "",
			 r->discarded_lost || r->cpu_waits_no_switch_in ||
			 r->unknown_state ? "," : "");
		put_words(out, &col, item);
	}
	if (r->cpu_waits_no_switch_in) {
		/* the blocked part is charged: only the run-queue part is not */
		snprintf(item, sizeof(item), "%" PRIu64
			 " waits for cpu after a wakeup whose end (a switch-in)"
			 " the trace lacks%s",
			 r->cpu_waits_no_switch_in,
			 r->discarded_lost || r->unknown_state ? "," : "");
		put_words(out, &col, item);
	}
	if (r->discarded_lost) {
		snprintf(item, sizeof(item), "%" PRIu64
			 " lost track of after lost events%s", r->discarded_lost,
			 r->unknown_state ? "," : "");
		put_words(out, &col, item);
	}
	/* off CPU in a state this analyzer does not know: counted by it */
	if (r->unknown_state) {
		snprintf(item, sizeof(item), "%" PRIu64 " in a state not known "
			 "here (%s)", r->unknown_state,
			 lt_format_duration(buf, sizeof(buf), r->unknown_state_ns));
		put_words(out, &col, item);
	}
	fputc('\n', out);
	put_stopped_total(out, r);
	if (r->lower_bound) {
		col = HEAD_W;
		snprintf(item, sizeof(item), "%" PRIu64 " wait%s for cpu whose "
			 "switch-in the trace lacks, charged up to the last "
			 "record showing %s CPU run another task (%s): lower "
			 "bounds", r->lower_bound, r->lower_bound == 1 ? "" : "s",
			 r->lower_bound == 1 ? "its" : "their",
			 lt_format_duration(buf, sizeof(buf), r->lower_bound_ns));
		fprintf(out, "%-*s", HEAD_W, "Bounded:");
		put_words(out, &col, item);
		fputc('\n', out);
	}
	/* rule 6 charges a wait for a CPU after a wakeup: say what it leaves */
	if (r->cpu_waits_unwoken) {
		col = HEAD_W;
		snprintf(item, sizeof(item), "%" PRIu64 " wait%s for cpu after a "
			 "preemption or a fork (%s), not charged: only waits "
			 "after a wakeup are", r->cpu_waits_unwoken,
			 r->cpu_waits_unwoken == 1 ? "" : "s",
			 lt_format_duration(buf, sizeof(buf),
					    r->cpu_waits_unwoken_ns));
		fprintf(out, "%-*s", HEAD_W, "Runnable:");
		put_words(out, &col, item);
		fputc('\n', out);
	}
}

/* time going backwards bends every wait around it: never silently */
static void put_unordered(FILE *out, const struct lt_report *r)
{
	char item[160];
	int col = HEAD_W;

	snprintf(item, sizeof(item), "%" PRIu64 " event%s earlier than the "
		 "event before %s, taken as at its time (CPU clocks out of "
		 "step, or a damaged file)", r->unordered,
		 r->unordered == 1 ? "" : "s", r->unordered == 1 ? "it" : "them");
	fprintf(out, "%-*s", HEAD_W, "Time:");
	put_words(out, &col, item);
	fputc('\n', out);
}

/* A merged report: its traces, then what was lost and not charged. */
static int put_merged_header(const struct lt_report *r, FILE *out)
{
	char dur[32], from[32], item[400];
	size_t i;
	int col;

	fprintf(out, "latency-analyze %s: merged from %" PRIu64 " report%s of "
		"%zu trace%s%s\n", LT_VERSION_STRING, r->merged_reports,
		r->merged_reports == 1 ? "" : "s", r->nr_traces,
		r->nr_traces == 1 ? "" : "s",
		r->partial ? "  ** PARTIAL REPORT **" : "");
	/* one trace's start to another's end is no span: each trace's, added */
	fprintf(out, "%-*s%s", HEAD_W, "Traced:",
		lt_format_duration(dur, sizeof(dur), lt_report_duration_ns(r)));
	if (r->nr_traces == 1)
		fputs(", the span of its one trace\n", out);
	else
		fprintf(out, ", the spans of its %zu traces added up\n",
			r->nr_traces);
	for (i = 0; i < r->nr_traces; i++) {
		const struct lt_report_trace *t = &r->traces[i];

		fprintf(out, "%-*s", HEAD_W, i ? "" : "Traces:");
		col = HEAD_W;
		snprintf(item, sizeof(item), "%s %s: %s from %s, %d CPU%s, %" PRIu64
			 " events, %" PRIu64 " report%s%s%s", t->id, t->path,
			 lt_format_duration(dur, sizeof(dur), t->end_ns - t->start_ns),
			 lt_format_stamp(from, sizeof(from), t->start_ns), t->cpus,
			 t->cpus == 1 ? "" : "s", t->events, t->reports,
			 t->reports == 1 ? "" : "s", t->uname[0] ? ", " : "",
			 t->uname);
		put_words(out, &col, item);
		fputc('\n', out);
	}
	if (r->partial) {
		fputs("Partial:  ", out);
		put_str(out, r->partial_reason);
		fputc('\n', out);
	}
	put_lost(out, r);
	put_not_charged(out, r);
	return ferror(out) ? -1 : 0;
}

/* Whether the trace names cgroups, and how many its processes are in. */
static void put_cgroups(FILE *out, const struct lt_report *r)
{
	const struct lt_report_view *v = &r->whole;
	const char **seen;
	size_t i, k, procs = 0, groups = 0;

	if (!r->cgroup_events) {
		fputs("Cgroups:  none in this trace (latency-record and perf "
		      "record --all-cgroups save them)\n", out);
		return;
	}
	seen = malloc((v->nr_processes ? v->nr_processes : 1) * sizeof(*seen));
	for (i = 0; i < v->nr_processes; i++) {
		if (!v->processes[i].cgroup)
			continue;
		procs++;
		for (k = 0; seen && k < groups; k++)
			if (!strcmp(seen[k], v->processes[i].cgroup))
				break;
		if (seen && k == groups)
			seen[groups++] = v->processes[i].cgroup;
	}
	fprintf(out, "Cgroups:  %zu of %zu processes named in ", procs,
		v->nr_processes);
	if (seen)
		fprintf(out, "%zu cgroup%s", groups, groups == 1 ? "" : "s");
	else
		fputs("cgroups", out);
	free(seen);
	fputs(r->options.by_cgroup ? "\n" : " (--by cgroup: a table each)\n",
	      out);
}

int lt_report_write_header(const struct lt_report *r, FILE *out)
{
	char dur[32], from[32], to[32];

	if (r->nr_traces)
		return put_merged_header(r, out);

	fprintf(out, "latency-analyze %s: ", LT_VERSION_STRING);
	put_str(out, r->path);
	fputs(r->partial ? "  ** PARTIAL REPORT **\n" : "\n", out);
	if (r->partial) {
		fputs("Partial:  ", out);
		put_str(out, r->partial_reason);
		fputc('\n', out);
	}
	fprintf(out, "Trace:    %s from %s to %s, %d CPU%s, %" PRIu64 " event%s\n",
		lt_format_duration(dur, sizeof(dur), r->end_ns - r->start_ns),
		lt_format_stamp(from, sizeof(from), r->start_ns),
		lt_format_stamp(to, sizeof(to), r->end_ns),
		r->cpus, r->cpus == 1 ? "" : "s",
		r->events, r->events == 1 ? "" : "s");
	fputs("File:     ", out);
	put_str(out, lt_report_format(r));
	fprintf(out, " v%d, ", r->file_version);
	put_str(out, strcmp(r->compression, "none") ? r->compression : "uncompressed");
	fputs(r->clock[0] ? ", clock " : "", out);
	put_str(out, r->clock);
	fputs(r->uname[0] ? ", " : "", out);
	put_str(out, r->uname);
	fputc('\n', out);
	put_buffer(out, r);
	/* "Trace:" is what was read: say when the file goes on past it */
	if (r->whole.start_ns != r->start_ns || r->whole.end_ns != r->end_ns ||
	    r->stopped_at_to)
		fprintf(out, "Range:    %s to %s%s\n",
			lt_format_stamp(from, sizeof(from), r->whole.start_ns),
			lt_format_stamp(to, sizeof(to), r->whole.end_ns),
			r->stopped_at_to ? " (--to: the file goes on)" : "");
	put_tasks(out, r);
	put_cgroups(out, r);
	put_sources(out, r);
	put_lost(out, r);
	put_complete(out, r);
	if (r->damaged_records)
		fprintf(out, "Damaged:  %" PRIu64 " records did not fit their event "
			"format and were ignored\n", r->damaged_records);
	if (r->unordered)
		put_unordered(out, r);
	put_not_charged(out, r);
	return ferror(out) ? -1 : 0;
}

int lt_report_write_text(const struct lt_report *r, FILE *out)
{
	char win[32];
	size_t w;

	lt_report_write_header(r, out);
	fputc('\n', out);
	if (!r->options.window_ns) {
		put_view(out, r, &r->whole);
		return ferror(out) ? -1 : 0;
	}
	for (w = 0; w < r->nr_windows; w++) {
		const struct lt_report_view *v = &r->windows[w];

		/* "+0 ns" would read as a precision the start does not need */
		if (v->start_ns == r->start_ns)
			snprintf(win, sizeof(win), "0 s");
		else
			lt_format_duration(win, sizeof(win),
					   v->start_ns - r->start_ns);
		fprintf(out, "%s=== Window %zu: +%s", w ? "\n" : "", w, win);
		fprintf(out, " .. +%s ===\n",
			lt_format_duration(win, sizeof(win), v->end_ns - r->start_ns));
		put_view(out, r, v);
	}
	if (!r->nr_windows)
		fputs("(no latencies in this range)\n", out);
	return ferror(out) ? -1 : 0;
}
