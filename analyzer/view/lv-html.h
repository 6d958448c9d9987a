/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lv-html.h - latency-view's 'w': the HTML report of what the model
 * shows (its range, its sort, its filter, its process), written next to
 * where the viewer runs.  No curses here.
 */
#ifndef LV_HTML_H
#define LV_HTML_H

#include <stddef.h>

#include "lv-model.h"

/*
 * The file the page goes to for trace (or report) @path: its name
 * without its directory and extension, "-window3" when a window is
 * shown, ".html"; in @buf of @len.
 */
char *lv_html_name(const struct lv_model *m, const char *path, char *buf,
		   size_t len);
/*
 * Write the page m->want_html asks for (lt_report_write_html()) and
 * clear it; m->msg says where, or why it could not: 0, or -1.
 */
int lv_html_write(struct lv_model *m, const char *path);

#endif /* LV_HTML_H */
