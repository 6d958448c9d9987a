/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * html-local.h - the HTML report's parts: the document and its tables
 * (write-html.c), the data its pictures are drawn from (write-html-data.c)
 * and the style and script it carries (html/report.css and html/ *.js,
 * embedded at build time by cmake/embed-html.cmake).
 *
 * Everything from the trace (names, causes, frames, the path) is escaped
 * where it lands: as HTML text, or as JSON inside a <script> element,
 * which the browser's JavaScript reads and puts on the page as text only.
 */
#ifndef LT_HTML_LOCAL_H
#define LT_HTML_LOCAL_H

#include <stdio.h>

#include "lt-map.h"
#include "lt-strtab.h"
#include "writers-local.h"

/*
 * The bounds that keep a report's size apart from its trace's length
 * (its timeline's are lt_options.timeline_*):
 * - a stack under 1/LT_HTML_STACK_SHARE of the flame graph's total is
 *   left to its cause's own width: at most that many stacks are drawn;
 * - windows are drawn in at most LT_HTML_COLUMNS columns (neighbours
 *   added up when there are more), each with its LT_HTML_COLUMN_CAUSES
 *   causes of most time and the rest as one.
 */
#define LT_HTML_STACK_SHARE	5000
/* Levels of a waited_for tree drawn (a walk stops at 8, a merge adds none). */
#define LT_HTML_CHAIN_DEPTH	12
#define LT_HTML_COLUMNS		500
#define LT_HTML_COLUMN_CAUSES	12

/* Schema of the data the page's script reads; its own, not a report's. */
#define LT_HTML_DATA_VERSION	2

struct lt_html {
	FILE *out;
	const struct lt_report *r;
	const struct lt_report_view *v;		/* the tables shown */
	const struct lt_html_options *o;
	struct lt_strtab strs;			/* the data's names, by index */
	struct lt_map causes;			/* (reason, argument) -> index */
	uint32_t (*cause_names)[2];		/* index -> their names' ids */
	uint8_t *cause_kinds;
	size_t nr_causes, cap_causes;
	bool nomem;
};

/* @s as HTML text (in an element or a quoted attribute): escaped. */
void lt_html_text(FILE *out, const char *s);
/* "fsync (ext4)": a cause as the tables show it, as HTML text. */
void lt_html_cause(FILE *out, const char *reason, const char *argument);
/* The id of @s in the data's names; sets h->nomem and gives 0 on failure. */
uint32_t lt_html_str(struct lt_html *h, const char *s);
/* The index of cause (@reason, @argument) in the data's causes. */
uint32_t lt_html_cause_index(struct lt_html *h, const char *reason,
			     const char *argument, enum lt_cause_kind kind);
/*
 * The <script type="application/json"> the pictures are drawn from: the
 * flame graph's stacks, the timeline and the windows.  0, or -1 when
 * out of memory.
 */
int lt_html_write_data(struct lt_html *h);

/* The style and the script, from analyzer/lib/writers/html/ */
extern const char lt_html_css[];
extern const size_t lt_html_css_len;
extern const char lt_html_js[];
extern const size_t lt_html_js_len;

#endif /* LT_HTML_LOCAL_H */
