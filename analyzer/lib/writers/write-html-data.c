// SPDX-License-Identifier: LGPL-2.1
/*
 * write-html-data.c - what the HTML report's pictures are drawn from, as
 * JSON in a <script type="application/json"> element.
 *
 * Its own compact schema (LT_HTML_DATA_VERSION), read only by the
 * embedded script (html/ *.js): every name once, in "names", and referred
 * to by index; times relative to the range's start (a trace clock's
 * absolute nanoseconds can pass 2^53, past what a JavaScript number
 * holds exactly), durations in nanoseconds.
 *
 *   names    [string]
 *   causes   [[reason, argument, kind]]            names' indexes
 *   flame    {total, kt, procs: [[name, pid, kernel_thread, total,
 *             [[cause, total, [[ns, [kernel frame...], [user frame...]]]]]]]}
 *            frames outermost first; a cause's time past its stacks' is
 *            its own (no stack, or stacks under the bound)
 *   wfor     {procs: [[name, pid, kernel_thread, [[cause, total,
 *             [node...]]...]]]}: the rows' waited_for (ran_instead for a
 *             wait for a CPU), a node [label, kind, ns, [node...]], kind
 *             0 a wait of the waker's own, 1 running, 2 waiting for cpu,
 *             3 an interrupt or a timer, 4 unknown, lost or other, 5 ran
 *             instead; nodes under 1/LT_HTML_STACK_SHARE of the flame's
 *             total left to their parent's own width
 *   timeline null, or {threads, waits, slices, lanes: [[name, pid, tid,
 *             kernel_thread, count, total, [slice ns...],
 *             [[start delta, length, cause, worst(, waker(, name))]...]]]}:
 *             the waker a task's tid (then its name's index), or -1 -
 *             the index of its kind's name ("hardirq", "softirq",
 *             "timer", "unknown", "lost"); none where nothing is known
 *             (a wait for a CPU)
 *   windows  null, or {size, per, cols: [[start, end, total,
 *             [[cause, total, count, max]...]]]}
 *
 * The size bounds are html-local.h's and lt_options.timeline_*.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "html-local.h"

uint32_t lt_html_str(struct lt_html *h, const char *s)
{
	uint32_t id = lt_strtab_intern(&h->strs, s ? s : "", s ? strlen(s) : 0);

	if (id == UINT32_MAX) {
		h->nomem = true;
		return 0;
	}
	return id;
}

uint32_t lt_html_cause_index(struct lt_html *h, const char *reason,
			     const char *argument, enum lt_cause_kind kind)
{
	uint32_t rid = lt_html_str(h, reason), aid = lt_html_str(h, argument);
	uint32_t *slot;
	int added;

	slot = lt_map_put(&h->causes, rid, aid, (uint32_t)h->nr_causes, &added);
	if (!slot) {
		h->nomem = true;
		return 0;
	}
	if (!added)
		return *slot;
	if (h->nr_causes == h->cap_causes) {
		size_t ncap = h->cap_causes ? 2 * h->cap_causes : 32;
		uint32_t (*n)[2] = realloc(h->cause_names, ncap * sizeof(*n));
		uint8_t *k = realloc(h->cause_kinds, ncap);

		if (n)
			h->cause_names = n;
		if (k)
			h->cause_kinds = k;
		if (!n || !k) {
			h->nomem = true;
			lt_map_del(&h->causes, rid, aid);
			return 0;
		}
		h->cap_causes = ncap;
	}
	h->cause_names[h->nr_causes][0] = rid;
	h->cause_names[h->nr_causes][1] = aid;
	h->cause_kinds[h->nr_causes] = (uint8_t)kind;
	return (uint32_t)h->nr_causes++;
}

static uint32_t row_cause(struct lt_html *h, const struct lt_report_row *row)
{
	return lt_html_cause_index(h, row->reason, row->argument, row->kind);
}

/* Frames outermost first: @f is innermost first. */
static void put_frames(struct lt_html *h, const char *const *f,
		       unsigned int n)
{
	unsigned int k;

	fputc('[', h->out);
	for (k = n; k > 0; k--)
		fprintf(h->out, "%s%" PRIu32, k == n ? "" : ",",
			lt_html_str(h, f[k - 1]));
	fputc(']', h->out);
}

/* The charged time of the processes the global table counts. */
static uint64_t flame_total(const struct lt_html *h)
{
	const struct lt_report_view *v = h->v;
	uint64_t t = 0;
	size_t i;

	for (i = 0; i < v->nr_processes; i++)
		t += v->processes[i].total_ns;
	return t;
}

/*
 * Every process (kernel threads too: the page shows them on request),
 * its causes, and their stacks of at least 1/LT_HTML_STACK_SHARE of all
 * the time: a smaller one is thinner than a line on any screen.
 */
static void put_flame(struct lt_html *h)
{
	const struct lt_report_view *v = h->v;
	uint64_t all = flame_total(h), least = all / LT_HTML_STACK_SHARE;
	FILE *out = h->out;
	size_t i, j, k;

	fprintf(out, "\"flame\":{\"total\":%" PRIu64 ",\"kt\":%s,\"procs\":[",
		h->v->total_ns, h->r->options.kernel_threads ? "true" : "false");
	for (i = 0; i < v->nr_processes; i++) {
		const struct lt_report_process *p = &v->processes[i];

		fprintf(out, "%s\n[%" PRIu32 ",%d,%d,%" PRIu64 ",[", i ? "," : "",
			lt_html_str(h, p->comm), p->pid, p->kernel_thread,
			p->total_ns);
		for (j = 0; j < p->nr_rows; j++) {
			const struct lt_report_row *row = &p->rows[j];
			bool first = true;

			fprintf(out, "%s[%" PRIu32 ",%" PRIu64 ",[", j ? "," : "",
				row_cause(h, row), row->total_ns);
			for (k = 0; k < row->nr_stacks; k++) {
				const struct lt_report_stack *st = &row->stacks[k];

				if (st->total_ns < least || !st->total_ns ||
				    (!st->nr_frames && !st->nr_user_frames))
					continue;
				fprintf(out, "%s[%" PRIu64 ",", first ? "" : ",",
					st->total_ns);
				put_frames(h, st->frames, st->nr_frames);
				fputc(',', out);
				put_frames(h, st->user_frames, st->nr_user_frames);
				fputc(']', out);
				first = false;
			}
			fputs("]]", out);
		}
		fputs("]]", out);
	}
	fputs("]}", out);
}

/* A node's kind, as the page's script knows it (the data's wfor). */
static int chain_kind(const struct lt_report_chain *n, bool ran)
{
	if (ran)
		return 5;
	if (n->blocked)
		return 0;
	if (!strcmp(n->what, "running"))
		return 1;
	if (!strcmp(n->what, "waiting for cpu"))
		return 2;
	if (!strcmp(n->what, "hardirq") || !strcmp(n->what, "softirq") ||
	    !strcmp(n->what, "timer"))
		return 3;
	return 4;
}

/* "cw-writer (4512): Sleeping (nanosleep)": a node as the viewer says it. */
static uint32_t chain_label(struct lt_html *h, const struct lt_report_chain *n,
			    bool ran)
{
	char buf[1200], tid[24] = "";

	if (n->tid >= 0)
		snprintf(tid, sizeof(tid), " (%d)", n->tid);
	if (ran || !n->what)
		snprintf(buf, sizeof(buf), "%s%s", n->comm, tid);
	else if (!strcmp(n->comm, n->what))
		snprintf(buf, sizeof(buf), "%s", n->what);
	else
		snprintf(buf, sizeof(buf), "%s%s: %s", n->comm, tid, n->what);
	return lt_html_str(h, buf);
}

/* Nodes @v[0..nr) of at least @least ns, and theirs, as the data has them. */
static void put_chain(struct lt_html *h, const struct lt_report_chain *v,
		      size_t nr, bool ran, uint64_t least, unsigned int depth)
{
	bool first = true;
	size_t i;

	fputc('[', h->out);
	for (i = 0; i < nr; i++) {
		if (v[i].ns < least || !v[i].ns)
			continue;
		fprintf(h->out, "%s[%" PRIu32 ",%d,%" PRIu64, first ? "" : ",",
			chain_label(h, &v[i], ran), chain_kind(&v[i], ran),
			v[i].ns);
		/* a walk stops at its depth: a bound all the same */
		if (v[i].nr_children && depth < LT_HTML_CHAIN_DEPTH) {
			fputc(',', h->out);
			put_chain(h, v[i].children, v[i].nr_children, ran, least,
				  depth + 1);
		}
		fputc(']', h->out);
		first = false;
	}
	fputc(']', h->out);
}

/*
 * Whom each process's rows waited for: the rows with a tree, each its
 * nodes of at least 1/LT_HTML_STACK_SHARE of the flame graph's total.
 */
static void put_wfor(struct lt_html *h)
{
	const struct lt_report_view *v = h->v;
	uint64_t least = flame_total(h) / LT_HTML_STACK_SHARE;
	FILE *out = h->out;
	bool pfirst = true;
	size_t i, j;

	fputs("\"wfor\":{\"procs\":[", out);
	for (i = 0; i < v->nr_processes; i++) {
		const struct lt_report_process *p = &v->processes[i];
		bool first = true;

		for (j = 0; j < p->nr_rows; j++) {
			const struct lt_report_row *row = &p->rows[j];
			bool ran = !row->nr_waited_for;

			if ((!row->nr_waited_for && !row->nr_ran_instead) ||
			    row->total_ns < least || !row->total_ns)
				continue;
			if (first)
				fprintf(out, "%s\n[%" PRIu32 ",%d,%d,[",
					pfirst ? "" : ",", lt_html_str(h, p->comm),
					p->pid, p->kernel_thread);
			fprintf(out, "%s[%" PRIu32 ",%" PRIu64 ",", first ? "" : ",",
				row_cause(h, row), row->total_ns);
			put_chain(h, ran ? row->ran_instead : row->waited_for,
				  ran ? row->nr_ran_instead : row->nr_waited_for,
				  ran, least, 0);
			fputc(']', out);
			first = false;
			pfirst = false;
		}
		if (!first)
			fputs("]]", out);
	}
	fputs("]}", out);
}

static void put_timeline(struct lt_html *h)
{
	const struct lt_report_timeline *tl = h->r->timeline;
	FILE *out = h->out;
	uint64_t at;
	size_t i, j;

	if (!tl) {
		fputs("\"timeline\":null", out);
		return;
	}
	fprintf(out, "\"timeline\":{\"threads\":%u,\"waits\":%u,\"slices\":%u,"
		"\"start\":%" PRIu64 ",\"lanes\":[", tl->max_threads,
		tl->max_waits, tl->nr_slices,
		tl->start_ns > h->r->whole.start_ns ?
		tl->start_ns - h->r->whole.start_ns : 0);
	for (i = 0; i < tl->nr_lanes; i++) {
		const struct lt_report_lane *l = &tl->lanes[i];

		fprintf(out, "%s\n[%" PRIu32 ",%d,%d,%d,%" PRIu64 ",%" PRIu64 ",[",
			i ? "," : "", lt_html_str(h, l->comm), l->pid, l->tid,
			l->kernel_thread, l->count, l->total_ns);
		for (j = 0; j < tl->nr_slices; j++)
			fprintf(out, "%s%" PRIu64, j ? "," : "", l->slice_ns[j]);
		fputs("],[", out);
		/* starts as deltas: sorted, they are short numbers */
		at = h->r->whole.start_ns;
		for (j = 0; j < l->nr_spans; j++) {
			const struct lt_report_span *s = &l->spans[j];
			const struct lt_report_cause *c = &tl->causes[s->cause];
			int64_t d = (int64_t)(s->start_ns - at);

			fprintf(out, "%s[%" PRId64 ",%" PRIu64 ",%" PRIu32 ",%d",
				j ? "," : "", d, s->end_ns - s->start_ns,
				lt_html_cause_index(h, c->reason, c->argument,
						    c->kind), s->worst);
			if (s->waker_tid >= 0)
				fprintf(out, ",%d,%" PRIu32, s->waker_tid,
					lt_html_str(h, s->waker_comm));
			else if (s->waker_kind && *s->waker_kind)
				fprintf(out, ",%" PRId64, -1 - (int64_t)lt_html_str(h,
							s->waker_kind));
			fputc(']', out);
			at = s->start_ns;
		}
		fputs("]]", out);
	}
	fputs("]}", out);
}

/* One column's causes, added up over the windows it holds. */
struct col_cause {
	uint32_t cause;
	uint64_t total, count, max;
};

static int cmp_col_cause(const void *pa, const void *pb)
{
	const struct col_cause *a = pa, *b = pb;

	if (a->total != b->total)
		return a->total > b->total ? -1 : 1;
	return (a->cause > b->cause) - (a->cause < b->cause);
}

static struct col_cause *col_add(struct col_cause *cc, size_t *nr,
				 size_t *cap, const struct lt_report_row *row,
				 uint32_t cause)
{
	size_t i;

	for (i = 0; i < *nr; i++)
		if (cc[i].cause == cause)
			break;
	if (i == *nr) {
		if (*nr == *cap) {
			size_t ncap = *cap ? 2 * *cap : 16;
			struct col_cause *p = realloc(cc, ncap * sizeof(*p));

			if (!p)
				return NULL;
			cc = p;
			*cap = ncap;
		}
		cc[(*nr)++] = (struct col_cause){ cause, 0, 0, 0 };
	}
	cc[i].total += row->total_ns;
	cc[i].count += row->count;
	if (row->max_ns > cc[i].max)
		cc[i].max = row->max_ns;
	return cc;
}

/*
 * The windows' global tables, side by side: at most LT_HTML_COLUMNS
 * columns, each its LT_HTML_COLUMN_CAUSES causes of most time and the
 * rest as one (cause -1).
 */
static int put_windows(struct lt_html *h)
{
	const struct lt_report *r = h->r;
	size_t per, col, w, i, nr, cap = 0;
	struct col_cause *cc = NULL, *p;
	struct col_cause rest;
	FILE *out = h->out;

	if (!r->nr_windows) {
		fputs("\"windows\":null", out);
		return 0;
	}
	per = (r->nr_windows + LT_HTML_COLUMNS - 1) / LT_HTML_COLUMNS;
	fprintf(out, "\"windows\":{\"size\":%" PRIu64 ",\"per\":%zu,\"cols\":[",
		r->options.window_ns, per);
	for (col = 0, w = 0; w < r->nr_windows; col++) {
		const struct lt_report_view *first = &r->windows[w], *last;
		uint64_t total = 0;

		nr = 0;
		for (last = first; w < r->nr_windows && w < (col + 1) * per; w++) {
			last = &r->windows[w];
			total += last->total_ns;
			for (i = 0; i < last->nr_global; i++) {
				p = col_add(cc, &nr, &cap, &last->global[i],
					    row_cause(h, &last->global[i]));
				if (!p) {
					free(cc);
					return -1;
				}
				cc = p;
			}
		}
		if (nr > 1)
			qsort(cc, nr, sizeof(*cc), cmp_col_cause);
		fprintf(out, "%s\n[%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",[",
			col ? "," : "", first->start_ns - r->whole.start_ns,
			last->end_ns - r->whole.start_ns, total);
		memset(&rest, 0, sizeof(rest));
		for (i = 0; i < nr; i++) {
			if (i >= LT_HTML_COLUMN_CAUSES) {
				rest.total += cc[i].total;
				rest.count += cc[i].count;
				if (cc[i].max > rest.max)
					rest.max = cc[i].max;
				continue;
			}
			fprintf(out, "%s[%" PRIu32 ",%" PRIu64 ",%" PRIu64 ",%"
				PRIu64 "]", i ? "," : "", cc[i].cause,
				cc[i].total, cc[i].count, cc[i].max);
		}
		if (rest.count)
			fprintf(out, ",[-1,%" PRIu64 ",%" PRIu64 ",%" PRIu64 "]",
				rest.total, rest.count, rest.max);
		fputs("]]", out);
	}
	fputs("]}", out);
	free(cc);
	return 0;
}

static void put_names(struct lt_html *h)
{
	uint32_t i;

	fputs(",\n\"names\":[", h->out);
	for (i = 0; i < h->strs.len; i++) {
		fputs(i ? "," : "", h->out);
		lt_report_json_script_str(h->out, lt_strtab_get(&h->strs, i));
	}
	fputs("],\n\"causes\":[", h->out);
	for (i = 0; i < h->nr_causes; i++)
		fprintf(h->out, "%s[%" PRIu32 ",%" PRIu32 ",\"%s\"]", i ? "," : "",
			h->cause_names[i][0], h->cause_names[i][1],
			lt_cause_kind_name(h->cause_kinds[i]));
	fputc(']', h->out);
}

static void put_focus(struct lt_html *h)
{
	size_t i;

	for (i = 0; h->o->focus_pid && i < h->v->nr_processes; i++)
		if (h->v->processes[i].pid == h->o->focus_pid) {
			fprintf(h->out, ",\"focus\":%zu", i);
			return;
		}
}

int lt_html_write_data(struct lt_html *h)
{
	const struct lt_report *r = h->r;
	char stamp[32];
	size_t i;

	/* the global table's causes first: they get the first colours */
	lt_html_str(h, "");
	for (i = 0; i < h->v->nr_global; i++)
		row_cause(h, &h->v->global[i]);
	fprintf(h->out, "<script type=\"application/json\" id=\"lt-data\">\n"
		"{\"version\":%d,\"start\":\"%s\",\"span\":%" PRIu64
		",\"view\":[%" PRIu64 ",%" PRIu64 "]", LT_HTML_DATA_VERSION,
		lt_format_stamp(stamp, sizeof(stamp), r->whole.start_ns),
		r->whole.end_ns - r->whole.start_ns,
		h->v->start_ns - r->whole.start_ns,
		h->v->end_ns - r->whole.start_ns);
	put_focus(h);
	fputs(",\n", h->out);
	put_flame(h);
	fputs(",\n", h->out);
	put_wfor(h);
	fputs(",\n", h->out);
	put_timeline(h);
	fputs(",\n", h->out);
	if (put_windows(h) < 0)
		h->nomem = true;
	/* last: every name and cause above is known by now */
	put_names(h);
	fputs("}\n</script>\n", h->out);
	return h->nomem ? -1 : 0;
}
