// SPDX-License-Identifier: GPL-2.0
/*
 * lv-layout.c - the main screen's geometry (lv-layout.h).
 */
#include <stdio.h>
#include <string.h>

#include "lv-layout.h"
#include "lv-text.h"

void lv_layout_main(const struct lv_model *m, struct lv_layout *lay)
{
	int body = m->lines - 7, g, l;

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
	lay->title_y = 1;
	lay->global_y = 2;
	lay->global_rows = g;
	lay->bar_y = 3 + g;
	lay->proc_y = 4 + g;
	lay->local_y = 5 + g;
	lay->local_rows = l;
}

int lv_bar_name(char *buf, size_t len, const struct lv_model *m, size_t i)
{
	const struct lt_report_process *p = lv_model_proc_at(m, i);
	char name[LV_BAR_NAME_MAX * 4 + 1], pid[16] = "";
	size_t used;
	int w = lv_text_fit(name, sizeof(name), p->comm, LV_BAR_NAME_MAX, &used);
	bool cut = p->comm[used] != '\0';

	if (lv_model_name_shared(m, i))
		w += snprintf(pid, sizeof(pid), "(%d)", p->pid);
	snprintf(buf, len, i == m->proc ? "[%s%s%s]" : " %s%s%s ", name,
		 cut ? "~" : "", pid);
	return w + cut + 2;
}

/* Name @i's columns in the bar, the blank after it included. */
static int name_cols(const struct lv_model *m, size_t i)
{
	char name[LV_BAR_NAME_BYTES];

	return lv_bar_name(name, sizeof(name), m, i) + 1;
}

void lv_bar_geometry(const struct lv_model *m, int *x, int *start, int *right)
{
	int pos = 0, len, cur_x = 0, cur_len = 0;
	size_t i;

	*x = m->filter ? (int)strlen("s:a ") : 0;
	*start = 0;
	for (i = 0; i < m->nr_procs; i++) {
		len = name_cols(m, i);
		if (i == m->proc) {
			cur_x = pos;
			cur_len = len;
		}
		pos += len;
	}
	if (cur_x + cur_len > m->cols - *x)
		*start = cur_x + cur_len - (m->cols - *x);
	/*
	 * Names beyond either edge: '<' and '>' take the edge columns, which
	 * the names then leave alone (a two-column character half under a
	 * marker would shift the rest of the terminal's line).
	 */
	*right = pos - 1 - *start > m->cols - *x ? m->cols - 1 : m->cols;
}

long lv_bar_at(const struct lv_model *m, int col)
{
	int x, start, right, pos = 0, len, from;
	size_t i;

	lv_bar_geometry(m, &x, &start, &right);
	if (col >= right || (start > 0 && col <= x))
		return -1;	/* a marker, or past the names */
	for (i = 0; i < m->nr_procs; i++, pos += len) {
		len = name_cols(m, i);
		from = x + pos - start;
		/* the name and its brackets, not the blank after them */
		if (col >= from && col < from + len - 1)
			return (long)i;
	}
	return -1;
}
