// SPDX-License-Identifier: GPL-2.0
/*
 * lv-html.c - the page of what latency-view shows (lv-html.h).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "lt-outfile.h"
#include "lv-html.h"

char *lv_html_name(const struct lv_model *m, const char *path, char *buf,
		   size_t len)
{
	const char *base = strrchr(path, '/');
	const char *dot;
	size_t stem;

	base = base ? base + 1 : path;
	/* "-" (a pipe) or a name that is all extension: the tool's */
	if (!*base || !strcmp(base, "-") || base[0] == '.')
		base = "latency-view";
	dot = strrchr(base, '.');
	stem = dot && dot != base ? (size_t)(dot - base) : strlen(base);
	if (m->view >= 0)
		snprintf(buf, len, "%.*s-window%ld.html", (int)stem, base, m->view);
	else
		snprintf(buf, len, "%.*s.html", (int)stem, base);
	return buf;
}

/* Writing @name would replace the file being read: never. */
static bool is_input(const char *name, const char *path)
{
	struct stat a, b;

	return !stat(name, &a) && !stat(path, &b) && a.st_dev == b.st_dev &&
	       a.st_ino == b.st_ino;
}

int lv_html_write(struct lv_model *m, const char *path)
{
	struct lt_html_options o;
	struct lt_error err = { 0 };
	struct lt_outfile out;
	char name[256], filter[4];
	FILE *f;
	int ret;

	m->want_html = false;
	lv_html_name(m, path, name, sizeof(name));
	if (is_input(name, path)) {
		snprintf(m->msg, sizeof(m->msg), "%.200s: that is the file shown", name);
		return -1;
	}
	lt_html_options_init(&o);
	o.view = m->view;
	/* 's' and a letter: the processes starting with it */
	if (m->filter) {
		snprintf(filter, sizeof(filter), "^%c", m->filter);
		o.filter = filter;
	}
	o.focus_pid = m->shown_pid > 0 ? m->shown_pid : 0;
	/* beside ./STEM.html and renamed over it: never through a link */
	if (lt_outfile_fopen(&out, name, &f)) {
		snprintf(m->msg, sizeof(m->msg), "cannot write %.120s: %.120s", name,
			 strerror(errno));
		return -1;
	}
	ret = lt_report_write_html(m->rep, &o, f, &err);
	if (ret < 0)
		lt_outfile_abort(&out, f);
	else if (lt_outfile_commit(&out, f)) {
		snprintf(err.msg, sizeof(err.msg), "%s", strerror(errno));
		ret = -1;
	}
	if (ret < 0) {
		snprintf(m->msg, sizeof(m->msg), "cannot write %.120s: %.120s", name,
			 err.msg);
		return -1;
	}
	snprintf(m->msg, sizeof(m->msg), "wrote %.150s%s", name,
		 m->rep->timeline ? "" : " (no timeline: the waits were not kept)");
	return 0;
}
