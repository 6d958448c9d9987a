// SPDX-License-Identifier: LGPL-2.1
/*
 * write-html.c - the report as one self-contained HTML file.
 *
 * The document, top to bottom: the text report's header as it is (trace,
 * sources, what is missing and how to record it, losses, what was not
 * charged), the pictures (flame graphs, timeline, windows: drawn by the
 * embedded script from the data write-html-data.c writes), the global
 * table, and a table per process.  The tables are plain HTML written
 * here, so they read and print without the script; the script only sorts
 * and filters them.  Nothing is fetched when the file is opened: the
 * style and the script are inside, and the Content-Security-Policy
 * forbids the browser any other source.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "html-local.h"

/* Processes open at first when the viewer does not choose one. */
#define OPEN_PROCESSES	3

/* @lines: newlines kept (text output's own lines, in a <pre>). */
static void put_text(FILE *out, const char *s, bool lines)
{
	static const char bad_utf8[] = "\xef\xbf\xbd";	/* U+FFFD */
	const char *p = s ? s : "";
	size_t n;

	while (*p) {
		if (lines && *p == '\n') {
			fputc(*p++, out);
			continue;
		}
		switch (*p) {
		case '&': fputs("&amp;", out); p++; continue;
		case '<': fputs("&lt;", out); p++; continue;
		case '>': fputs("&gt;", out); p++; continue;
		case '"': fputs("&quot;", out); p++; continue;
		case '\'': fputs("&#39;", out); p++; continue;
		}
		/* as text output shows them: a task may name itself "\e[2J" */
		if (lt_control_len(p)) {
			fputc(lt_shown(&p), out);
			continue;
		}
		if ((unsigned char)*p < 0x80) {
			fputc(*p++, out);
			continue;
		}
		n = lt_utf8_len(p);
		if (!n) {
			fputs(bad_utf8, out);
			p++;
			continue;
		}
		fwrite(p, 1, n, out);
		p += n;
	}
}

void lt_html_text(FILE *out, const char *s)
{
	put_text(out, s, false);
}

/*
 * A name in a table or a title, past LT_FLAT_COLS cut with '~': the
 * page shows a name in several places (the list, the section, its data
 * attribute), and the data keeps it whole once.
 */
static void put_name(FILE *out, const char *s)
{
	char buf[LT_TEXT_CUT_BYTES(LT_FLAT_COLS)];

	lt_html_text(out, lt_text_cut(buf, sizeof(buf), s ? s : "", LT_FLAT_COLS));
}

void lt_html_cause(FILE *out, const char *reason, const char *argument)
{
	put_name(out, reason);
	if (argument && argument[0]) {
		fputs(" (", out);
		put_name(out, argument);
		fputc(')', out);
	}
}

/* What a function writes to a FILE, as HTML text: the text report's parts. */
static int put_captured(struct lt_html *h, int (*fn)(void *ctx, FILE *f),
			void *ctx)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&buf, &len);
	int ret;

	if (!mem) {
		h->nomem = true;
		return -1;
	}
	ret = fn(ctx, mem);
	if (fclose(mem) || ret < 0) {
		free(buf);
		h->nomem = true;
		return -1;
	}
	put_text(h->out, buf, true);
	free(buf);
	return 0;
}

static int header_fn(void *ctx, FILE *f)
{
	return lt_report_write_header(ctx, f);
}

struct view_head {
	const struct lt_report *r;
	const struct lt_report_view *v;
};

static int view_head_fn(void *ctx, FILE *f)
{
	struct view_head *vh = ctx;

	return lt_report_write_view_head(vh->r, vh->v, f);
}

struct task_head {
	const struct lt_report *r;
	const struct lt_report_coverage *c;
	const struct lt_report_uncharged *u;
	const struct lt_report_stopped *st;
};

static int task_head_fn(void *ctx, FILE *f)
{
	struct task_head *th = ctx;

	return lt_report_text_task_head(th->r, th->c, th->u, th->st, 0, f);
}

static void put_dur_cell(FILE *out, uint64_t ns)
{
	char buf[32];

	fprintf(out, "<td data-v=\"%" PRIu64 "\">%s</td>", ns,
		lt_format_duration(buf, sizeof(buf), ns));
}

/*
 * A table of causes: LatencyTOP's columns and p99, each number with its
 * exact value (data-v) for sorting and for the tests.
 */
static void put_rows(FILE *out, const struct lt_report_row *rows, size_t nr)
{
	char pct[32], buf[32], stamp[32];
	size_t i;

	fputs("<table class=\"rows sortable\">\n<thead><tr>"
	      "<th data-t=\"s\">Cause</th><th data-t=\"n\">Maximum</th>"
	      "<th data-t=\"n\">Average</th><th data-t=\"n\">p99</th>"
	      "<th data-t=\"n\">Count</th><th data-t=\"n\">Total</th>"
	      "<th data-t=\"n\">Percent</th></tr></thead>\n<tbody>\n", out);
	for (i = 0; i < nr; i++) {
		const struct lt_report_row *row = &rows[i];

		fprintf(out, "<tr class=\"k-%s\"><td>",
			lt_cause_kind_name(row->kind));
		lt_html_cause(out, row->reason, row->argument);
		fputs("</td>", out);
		/* when the longest ended, to find it in trace-cmd report */
		fprintf(out, "<td data-v=\"%" PRIu64 "\" title=\"the longest "
			"ended at %s (thread %d)\">%s</td>", row->max_ns,
			lt_format_stamp(stamp, sizeof(stamp), row->max_at_ns),
			row->max_tid, lt_format_duration(buf, sizeof(buf),
							 row->max_ns));
		put_dur_cell(out, row->avg_ns);
		if (row->no_percentiles)
			fputs("<td data-v=\"-1\">?</td>", out);
		else
			put_dur_cell(out, row->p99_ns);
		fprintf(out, "<td data-v=\"%" PRIu64 "\">%" PRIu64 "</td>",
			row->count, row->count);
		put_dur_cell(out, row->total_ns);
		fprintf(out, "<td data-v=\"%.3f\">%s%%</td></tr>\n", row->percent,
			lt_format_percent(pct, sizeof(pct), row->percent));
	}
	fputs("</tbody></table>\n", out);
}

static uint64_t proc_count(const struct lt_report_process *p)
{
	uint64_t n = 0;
	size_t i;

	for (i = 0; i < p->nr_rows; i++)
		n += p->rows[i].count;
	return n;
}

/* The row with the most time: what a process mostly waited for. */
static const struct lt_report_row *top_row(const struct lt_report_row *rows,
					   size_t nr)
{
	const struct lt_report_row *top = NULL;
	size_t i;

	for (i = 0; i < nr; i++)
		if (!top || rows[i].total_ns > top->total_ns)
			top = &rows[i];
	return top;
}

static void put_name_attrs(FILE *out, const struct lt_report_process *p)
{
	fputs(" data-name=\"", out);
	put_name(out, p->comm);
	fprintf(out, "\" data-pid=\"%d\"", p->pid);
}

static int by_comm(const void *a, const void *b)
{
	const struct lt_report_process *const *x = a, *const *y = b;

	return strcmp((*x)->comm, (*y)->comm);
}

/*
 * Which of the view's processes share their name with another (a dozen
 * "sync"), by index: NULL when out of memory (h->nomem).
 */
static bool *same_names(struct lt_html *h)
{
	const struct lt_report_view *v = h->v;
	const struct lt_report_process **by;
	bool *same;
	size_t i, j, k;

	by = malloc((v->nr_processes ? v->nr_processes : 1) * sizeof(*by));
	same = calloc(v->nr_processes ? v->nr_processes : 1, sizeof(*same));
	if (!by || !same) {
		free(by);
		free(same);
		h->nomem = true;
		return NULL;
	}
	for (i = 0; i < v->nr_processes; i++)
		by[i] = &v->processes[i];
	qsort(by, v->nr_processes, sizeof(*by), by_comm);
	for (i = 0; i < v->nr_processes; i = k) {
		for (k = i + 1; k < v->nr_processes &&
		     !strcmp(by[k]->comm, by[i]->comm); k++)
			;
		for (j = i; j < k; j++)
			same[by[j] - v->processes] = k - i > 1;
	}
	free(by);
	return same;
}

/*
 * One line per process, to sort, filter and jump from.  A name that
 * another process has too reads "sync(22910)", as latency-view's bar
 * shows it: no two links of the list read the same.
 */
static void put_process_list(struct lt_html *h)
{
	const struct lt_report_view *v = h->v;
	FILE *out = h->out;
	bool *same = same_names(h);
	char buf[32];
	size_t i;

	fputs("<table class=\"procs sortable\" id=\"proc-list\">\n<thead><tr>"
	      "<th data-t=\"s\">Process</th><th data-t=\"n\">PID</th>"
	      "<th data-t=\"n\">Total</th><th data-t=\"n\">Maximum</th>"
	      "<th data-t=\"n\">Waits</th><th data-t=\"s\">Most time in</th>"
	      "</tr></thead>\n<tbody>\n", out);
	for (i = 0; i < v->nr_processes; i++) {
		const struct lt_report_process *p = &v->processes[i];
		const struct lt_report_row *top = top_row(p->rows, p->nr_rows);
		uint64_t n = proc_count(p);

		fprintf(out, "<tr data-p=\"%zu\"", i);
		put_name_attrs(out, p);
		fprintf(out, "><td data-v=\"%zu\"><a href=\"#p%zu\">", i, i);
		put_name(out, p->comm);
		if (same && same[i])
			fprintf(out, "(%d)", p->pid);
		fprintf(out, "</a>%s</td><td data-v=\"%d\">%d</td>",
			p->kernel_thread ? " <span class=\"kt\">[kernel thread]"
			"</span>" : "", p->pid, p->pid);
		fprintf(out, "<td data-v=\"%" PRIu64 "\">%s</td>", p->total_ns,
			lt_format_duration(buf, sizeof(buf), p->total_ns));
		fprintf(out, "<td data-v=\"%" PRIu64 "\">%s</td>", p->max_ns,
			lt_format_duration(buf, sizeof(buf), p->max_ns));
		fprintf(out, "<td data-v=\"%" PRIu64 "\">%" PRIu64 "</td><td>",
			n, n);
		if (top)
			lt_html_cause(out, top->reason, top->argument);
		fputs("</td></tr>\n", out);
	}
	fputs("</tbody></table>\n", out);
	free(same);
}

static void put_threads(struct lt_html *h, const struct lt_report_process *p)
{
	FILE *out = h->out;
	struct task_head th = { h->r, NULL, NULL, NULL };
	char buf[32];
	size_t j;

	for (j = 0; j < p->nr_threads; j++) {
		const struct lt_report_thread *t = &p->threads[j];

		fputs("<h4>Thread ", out);
		put_name(out, t->comm);
		fprintf(out, " (%d): %s</h4>\n", t->tid,
			lt_format_duration(buf, sizeof(buf), t->total_ns));
		if (t->user_requested.count || t->stopped.signal.count ||
		    t->stopped.tracer.count) {
			th.u = &t->user_requested;
			th.st = &t->stopped;
			fputs("<pre class=\"head\">", out);
			put_captured(h, task_head_fn, &th);
			fputs("</pre>\n", out);
		}
		if (t->nr_rows)
			put_rows(out, t->rows, t->nr_rows);
	}
}

static void put_processes(struct lt_html *h)
{
	const struct lt_report_view *v = h->v;
	const struct lt_report *r = h->r;
	FILE *out = h->out;
	struct task_head th = { r, NULL, NULL, NULL };
	char buf[32];
	size_t i;

	fputs("<section id=\"processes\">\n<h2>Processes</h2>\n"
	      "<p class=\"controls\"><label>Filter by name or pid "
	      "<input id=\"filter\" type=\"search\" size=\"24\" "
	      "placeholder=\"name or pid (^ for its start)\"", out);
	if (h->o->filter && h->o->filter[0]) {
		fputs(" value=\"", out);
		lt_html_text(out, h->o->filter);
		fputc('"', out);
	}
	fprintf(out, "></label> <span id=\"filter-count\">%zu process%s</span>"
		"</p>\n", v->nr_processes, v->nr_processes == 1 ? "" : "es");
	if (!v->nr_processes)
		fputs("<p>(no process waited in this range)</p>\n", out);
	else
		put_process_list(h);
	for (i = 0; i < v->nr_processes; i++) {
		const struct lt_report_process *p = &v->processes[i];
		bool open = h->o->focus_pid ? p->pid == h->o->focus_pid :
			    i < OPEN_PROCESSES;

		fprintf(out, "<details class=\"proc\" id=\"p%zu\"%s", i,
			open ? " open" : "");
		put_name_attrs(out, p);
		fputs("><summary>Process ", out);
		put_name(out, p->comm);
		fprintf(out, " (%d)%s", p->pid,
			p->kernel_thread ? " [kernel thread]" : "");
		if (p->trace && r->nr_traces > 1) {
			fputs(" in ", out);
			put_name(out, p->trace);
		}
		fprintf(out, ": %s</summary>\n",
			lt_format_duration(buf, sizeof(buf), p->total_ns));
		th.c = &p->coverage;
		th.u = &p->user_requested;
		th.st = &p->stopped;
		fputs("<pre class=\"head\">", out);
		put_captured(h, task_head_fn, &th);
		fputs("</pre>\n", out);
		if (p->nr_rows)
			put_rows(out, p->rows, p->nr_rows);
		if (r->options.per_thread)
			put_threads(h, p);
		fputs("</details>\n", out);
	}
	fputs("</section>\n", out);
}

/* A merged report's "all postgres processes". */
static void put_commands(struct lt_html *h)
{
	const struct lt_report_view *v = h->v;
	FILE *out = h->out;
	struct task_head th = { h->r, NULL, NULL, NULL };
	char buf[32];
	size_t i;

	if (!v->nr_commands)
		return;
	fputs("<section id=\"commands\">\n<h2>Commands</h2>\n", out);
	for (i = 0; i < v->nr_commands; i++) {
		const struct lt_report_command *c = &v->commands[i];

		fputs("<details class=\"cmd\"><summary>Command ", out);
		put_name(out, c->comm);
		fprintf(out, "%s, %" PRIu64 " process%s: %s</summary>\n",
			c->kernel_thread ? " [kernel thread]" : "", c->processes,
			c->processes == 1 ? "" : "es",
			lt_format_duration(buf, sizeof(buf), c->total_ns));
		th.c = &c->coverage;
		th.u = &c->user_requested;
		th.st = &c->stopped;
		fputs("<pre class=\"head\">", out);
		put_captured(h, task_head_fn, &th);
		fputs("</pre>\n", out);
		if (c->nr_rows)
			put_rows(out, c->rows, c->nr_rows);
		fputs("</details>\n", out);
	}
	fputs("</section>\n", out);
}

/* "Window 3: +1.50 s .. +2.00 s", as text output titles it. */
static void put_range_title(struct lt_html *h)
{
	const struct lt_report *r = h->r;
	const struct lt_report_view *v = h->v;
	char a[32], b[32];

	if (v == &r->whole)
		return;
	if (v->start_ns == r->start_ns)
		snprintf(a, sizeof(a), "0 s");
	else
		lt_format_duration(a, sizeof(a), v->start_ns - r->start_ns);
	lt_format_duration(b, sizeof(b), v->end_ns - r->start_ns);
	fprintf(h->out, "<p class=\"range\">Window %ld: +%s .. +%s.  The "
		"tables and the flame graph are of this window; the timeline "
		"opens on it, the windows chart has them all.</p>\n",
		h->o->view, a, b);
}

static void put_global(struct lt_html *h)
{
	struct view_head vh = { h->r, h->v };
	FILE *out = h->out;

	fputs("<section id=\"global\">\n<h2>Global latencies</h2>\n", out);
	put_range_title(h);
	fputs("<pre class=\"head\">", out);
	put_captured(h, view_head_fn, &vh);
	fputs("</pre>\n", out);
	if (h->v->nr_global)
		put_rows(out, h->v->global, h->v->nr_global);
	fputs("</section>\n", out);
}

/* The pictures' places; the script draws them from the data. */
static void put_pictures(struct lt_html *h)
{
	FILE *out = h->out;

	fputs("<section id=\"flame\">\n<h2>Off-CPU flame graph</h2>\n", out);
	put_range_title(h);
	fputs("<p class=\"controls\"><label>Search <input id=\"flame-search\" "
	      "type=\"search\" size=\"24\" placeholder=\"a frame, cause or "
	      "process\"></label> <button type=\"button\" id=\"flame-reset\">"
	      "Whole graph</button> <label><input type=\"checkbox\" "
	      "id=\"flame-kt\"> kernel threads</label> <span id=\"flame-info\">"
	      "</span></p>\n<div id=\"flame-chart\" class=\"chart\"></div>\n"
	      "<p class=\"note\">Charged time by process, then cause, then "
	      "stack (the task's own frames below the kernel's, outermost "
	      "first).  Click a frame to zoom, hover for its total.</p>\n"
	      "</section>\n", out);
	fputs("<section id=\"wfor\">\n<h2>Waiting for</h2>\n", out);
	put_range_title(h);
	fputs("<p class=\"controls\"><label>Search <input id=\"wfor-search\" "
	      "type=\"search\" size=\"24\" placeholder=\"a task, cause or "
	      "process\"></label> <button type=\"button\" id=\"wfor-reset\">"
	      "Whole graph</button> <label><input type=\"checkbox\" "
	      "id=\"wfor-kt\"> kernel threads</label> <span id=\"wfor-info\">"
	      "</span></p>\n<div id=\"wfor-chart\" class=\"chart\"></div>\n"
	      "<p class=\"note\">Whom the waits waited for: charged time by "
	      "process and cause at the bottom, and above each cause the tasks "
	      "that woke its waits, each split into what it did until the "
	      "wakeup (running, waiting for a CPU, or a wait of its own, and "
	      "above that whom it waited for in turn); above a wait for a CPU, "
	      "who ran instead.  Blue: a waker's own wait; red: on a CPU; "
	      "yellow: runnable; violet: an interrupt or a timer; grey: not "
	      "known.</p>\n</section>\n", out);
	fputs("<section id=\"timeline\">\n<h2>Timeline</h2>\n"
	      "<p class=\"controls\"><button type=\"button\" id=\"tl-in\">"
	      "Zoom in</button> <button type=\"button\" id=\"tl-out\">Zoom out"
	      "</button> <button type=\"button\" id=\"tl-reset\">Whole range"
	      "</button> <span id=\"tl-info\"></span></p>\n"
	      "<div id=\"tl-chart\" class=\"chart\"></div>\n"
	      "<p class=\"note\" id=\"tl-note\"></p>\n</section>\n", out);
	if (h->r->nr_windows)
		fputs("<section id=\"windows\">\n<h2>Windows</h2>\n"
		      "<div id=\"win-chart\" class=\"chart\"></div>\n"
		      "<div id=\"win-table\"></div>\n</section>\n", out);
}

static void put_nav(struct lt_html *h)
{
	fputs("<nav><a href=\"#summary\">Trace</a> <a href=\"#flame\">Flame "
	      "graph</a> <a href=\"#wfor\">Waiting for</a> <a href=\"#timeline\">"
	      "Timeline</a> ", h->out);
	if (h->r->nr_windows)
		fputs("<a href=\"#windows\">Windows</a> ", h->out);
	fputs("<a href=\"#global\">Global table</a> <a href=\"#processes\">"
	      "Processes</a></nav>\n", h->out);
}

static void put_head(struct lt_html *h)
{
	FILE *out = h->out;

	/*
	 * default-src 'none': no request of any kind leaves the page, even
	 * if something in it asked for one; inline style and script only.
	 */
	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n"
	      "<meta charset=\"utf-8\">\n"
	      "<meta http-equiv=\"Content-Security-Policy\" content=\""
	      "default-src 'none'; script-src 'unsafe-inline'; "
	      "style-src 'unsafe-inline'; img-src data:\">\n"
	      "<meta name=\"viewport\" content=\"width=device-width, "
	      "initial-scale=1\">\n"
	      "<meta name=\"generator\" content=\"latency-analyze "
	      LT_VERSION_STRING "\">\n<title>Latencies: ", out);
	lt_html_text(out, h->r->nr_traces ? "merged report" : h->r->path);
	fputs("</title>\n<style>\n", out);
	fwrite(lt_html_css, 1, lt_html_css_len, out);
	fputs("</style>\n</head>\n<body>\n<header>\n<h1>Latencies: <span "
	      "class=\"path\">", out);
	lt_html_text(out, h->r->nr_traces ? "merged report" : h->r->path);
	fputs("</span></h1>\n", out);
	put_nav(h);
	fputs("</header>\n<main>\n<section id=\"summary\">\n<h2>Trace</h2>\n"
	      "<pre class=\"head\">", out);
	put_captured(h, header_fn, (void *)h->r);
	fputs("</pre>\n<noscript><p>The pictures need JavaScript; the tables "
	      "below are all here.</p></noscript>\n</section>\n", out);
}

void lt_html_options_init(struct lt_html_options *o)
{
	memset(o, 0, sizeof(*o));
	o->view = -1;
}

int lt_report_write_html(const struct lt_report *r,
			 const struct lt_html_options *o, FILE *out,
			 struct lt_error *err)
{
	struct lt_html_options dflt;
	struct lt_html h;
	int ret = 0;

	if (!o) {
		lt_html_options_init(&dflt);
		o = &dflt;
	}
	memset(&h, 0, sizeof(h));
	h.out = out;
	h.r = r;
	h.o = o;
	h.v = o->view >= 0 && (size_t)o->view < r->nr_windows ?
	      &r->windows[o->view] : &r->whole;
	if (lt_strtab_init(&h.strs) < 0) {
		lt_error_set(err, LT_E_NOMEM, "out of memory");
		return -1;
	}
	lt_map_init(&h.causes);
	put_head(&h);
	put_pictures(&h);
	put_global(&h);
	put_commands(&h);
	put_processes(&h);
	fputs("</main>\n", out);
	if (lt_html_write_data(&h) < 0)
		h.nomem = true;
	fputs("<script>\n", out);
	fwrite(lt_html_js, 1, lt_html_js_len, out);
	fputs("</script>\n</body>\n</html>\n", out);
	if (h.nomem) {
		lt_error_set(err, LT_E_NOMEM, "out of memory");
		ret = -1;
	} else if (ferror(out)) {
		lt_error_set(err, LT_E_IO, "cannot write the report");
		ret = -1;
	}
	lt_strtab_free(&h.strs);
	lt_map_free(&h.causes);
	free(h.cause_names);
	free(h.cause_kinds);
	return ret;
}

/* The writers table's: the whole range, every process. */
int lt_report_write_html_table(const struct lt_report *r, FILE *out)
{
	struct lt_error err;

	return lt_report_write_html(r, NULL, out, &err);
}
