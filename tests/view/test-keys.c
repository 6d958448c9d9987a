// SPDX-License-Identifier: GPL-2.0
/*
 * test-keys.c - latency-view's request table driven directly, without a
 * terminal: every request does what its help says on a model of a real
 * trace, every key bound to it does the same, every key is in the help
 * (with its words) and no key is bound twice; an unbound key says so.
 * Then lv_draw() on every screen, on a curses screen written to
 * /dev/null: the model is the same bytes after as before.
 *
 * usage: test-view-keys TRACE.dat
 */
#include <curses.h>
#include <stdlib.h>
#include <string.h>

#include "lt-test.h"
#include "lv-draw.h"
#include "lv-keys.h"
#include "lv-model.h"
#include "lv-page.h"

static struct lt_report *rep;

/* What a request may change, to compare a key's effect with its request's. */
struct state {
	enum lv_screen screen;
	enum lv_focus focus;
	enum lt_sort sort;
	long view;
	size_t proc, gsel, lsel, scroll, chain_sel, nr_toggled;
	bool quit, prompt, want_letter, want_html;
	char filter, msg[256];
};

static struct state state(const struct lv_model *m)
{
	struct state s;

	memset(&s, 0, sizeof(s));
	s.screen = m->screen;
	s.focus = m->focus;
	s.sort = m->sort;
	s.view = m->view;
	s.proc = m->proc;
	s.gsel = m->global.sel;
	s.lsel = m->local.sel;
	s.scroll = m->scroll;
	s.chain_sel = m->chain_sel;
	s.nr_toggled = m->nr_toggled;
	s.quit = m->quit;
	s.prompt = m->prompt;
	s.want_letter = m->want_letter;
	s.want_html = m->want_html;
	s.filter = m->filter;
	memcpy(s.msg, m->msg, sizeof(s.msg));
	return s;
}

static void fresh(struct lv_model *m)
{
	lv_model_free(m);
	CHECK(lv_model_init(m, rep, LT_SORT_MAX) == 0);
	lv_model_resize(m, 100, 30);
}

/*
 * The details of the first global row whose first waker is a task's
 * own wait with wakers of its own: the tree's keys have work there.
 */
static void chain_details(struct lv_model *m)
{
	const struct lt_report_row *row;
	size_t i;

	for (i = 0; i < m->global.nr; i++) {
		row = &m->global.rows[i];
		if (row->nr_waited_for && row->waited_for[0].blocked &&
		    row->waited_for[0].nr_children &&
		    row->waited_for[0].tid > 0)
			break;
	}
	CHECK(i < m->global.nr);
	m->global.sel = i < m->global.nr ? i : 0;
	lv_model_request(m, LV_REQ_DETAILS);
}

/* Bring a fresh @m where request @r has something to do. */
static void before(struct lv_model *m, enum lv_request r)
{
	fresh(m);
	switch (r) {
	case LV_REQ_FOLD:
	case LV_REQ_WAKER:
		chain_details(m);
		break;
	case LV_REQ_PREV_PROC:
		lv_model_request(m, LV_REQ_NEXT_PROC);
		break;
	case LV_REQ_UP:
		lv_model_request(m, LV_REQ_DOWN);
		break;
	case LV_REQ_PAGE_UP:
	case LV_REQ_FIRST:
		lv_model_request(m, LV_REQ_LAST);
		break;
	case LV_REQ_BACK:
		lv_model_request(m, LV_REQ_DETAILS);
		break;
	case LV_REQ_WINDOW_PREV:
		lv_model_request(m, LV_REQ_WINDOW_NEXT);
		break;
	case LV_REQ_SEARCH_NEXT:
	case LV_REQ_SEARCH_PREV:
		/* a search typed: a piece of the second process's name */
		lv_model_request(m, LV_REQ_SEARCH);
		lv_model_key(m, 'b');
		lv_model_key(m, 'a');
		lv_model_key(m, 's');
		lv_model_key(m, 'h');
		lv_model_key(m, LV_KEY_ENTER);
		break;
	default:
		break;
	}
}

/* What the help says request @r does, checked on @m after it. */
static void did(const struct lv_model *m, enum lv_request r, const struct state *was)
{
	const struct lt_report_view *v = lv_model_view(m);

	switch (r) {
	case LV_REQ_QUIT:	CHECK(m->quit); break;
	case LV_REQ_HELP:	CHECK(m->screen == LV_SCREEN_HELP); break;
	case LV_REQ_INFO:	CHECK(m->screen == LV_SCREEN_INFO); break;
	case LV_REQ_DETAILS:	CHECK(m->screen == LV_SCREEN_DETAIL); break;
	case LV_REQ_BACK:	CHECK(m->screen == LV_SCREEN_MAIN && was->screen != LV_SCREEN_MAIN); break;
	case LV_REQ_NEXT_PROC:	CHECK_U64(m->proc, 1); break;
	case LV_REQ_PREV_PROC:	CHECK_U64(m->proc, 0); CHECK_U64(was->proc, 1); break;
	case LV_REQ_DOWN:	CHECK_U64(m->global.sel, 1); break;
	case LV_REQ_UP:		CHECK_U64(m->global.sel, 0); CHECK_U64(was->gsel, 1); break;
	case LV_REQ_LAST:	CHECK_U64(m->global.sel, v->nr_global - 1); break;
	case LV_REQ_FIRST:	CHECK_U64(m->global.sel, 0); break;
	case LV_REQ_PAGE_DOWN:
		/* a page: the rows the table shows at 100x30 */
		CHECK(m->global.page > 1);
		CHECK_U64(m->global.sel, m->global.page < v->nr_global ?
			  m->global.page : v->nr_global - 1);
		break;
	case LV_REQ_PAGE_UP:
		CHECK_U64(m->global.sel, v->nr_global - 1 > m->global.page ?
			  v->nr_global - 1 - m->global.page : 0);
		break;
	case LV_REQ_FOCUS:
	case LV_REQ_FOCUS_BACK:	CHECK(m->focus == LV_FOCUS_PROCESS); break;
	case LV_REQ_FOLD: {
		/* the first waker, unfolded by default, folded: one line */
		struct lv_chain_line l;

		CHECK(m->screen == LV_SCREEN_DETAIL && m->nr_toggled == 1);
		CHECK(lv_model_chain_lines(m, &l, 1) >= 1 && !l.open &&
		      l.node == &lv_model_row(m)->waited_for[0]);
		break;
	}
	case LV_REQ_WAKER: {
		/* the first waker's process, the cursor on its own wait */
		const struct lt_report_row *row = &m->global.rows[was->gsel];
		const struct lt_report_chain *w = &row->waited_for[0];
		const struct lt_report_process *p = lv_model_process(m);
		char cause[1024];
		size_t i;
		bool has = p->pid == w->tid;

		for (i = 0; p && i < p->nr_threads; i++)
			has |= p->threads[i].tid == w->tid;
		CHECK(m->screen == LV_SCREEN_MAIN && m->focus == LV_FOCUS_PROCESS);
		CHECK(has);
		CHECK(lv_model_row(m) != NULL);
		if (lv_model_row(m))
			CHECK_STR(lt_format_cause(cause, sizeof(cause),
						  lv_model_row(m), 0), w->what);
		break;
	}
	case LV_REQ_FILTER:	CHECK(m->want_letter); break;
	case LV_REQ_SORT:	CHECK(m->sort == LT_SORT_TOTAL); break;
	case LV_REQ_SEARCH:	CHECK(m->prompt); break;
	case LV_REQ_SEARCH_NEXT:
		/* no cause has "bash": the processes of that name, in turn */
		CHECK(strstr(lv_model_process(m)->comm, "bash"));
		CHECK(m->proc != was->proc);
		CHECK(!strncmp(was->msg, "match 1 of ", 11));
		CHECK(!strncmp(m->msg, "match 2 of ", 11));
		break;
	case LV_REQ_SEARCH_PREV:
		/* before the first: round to the last */
		CHECK(strstr(lv_model_process(m)->comm, "bash"));
		CHECK(m->proc > was->proc);
		CHECK(strstr(m->msg, ", from the end again: process bash ("));
		break;
	case LV_REQ_WINDOW_NEXT: CHECK(m->view == 0); break;
	case LV_REQ_WINDOW_PREV: CHECK(m->view == -1 && was->view == 0); break;
	case LV_REQ_HTML:	CHECK(m->want_html && !was->want_html); break;
	default:
		CHECK(!"a request the test does not know: say what it does");
	}
}

static void test_requests(void)
{
	struct lv_model m, k;
	struct state was, by_req;
	int r, i;

	memset(&m, 0, sizeof(m));
	memset(&k, 0, sizeof(k));
	for (r = LV_REQ_NONE + 1; r < LV_REQ_NR; r++) {
		const struct lv_request_info *info = lv_request_info((enum lv_request)r);

		lt_test_case = info->name;
		before(&m, (enum lv_request)r);
		was = state(&m);
		CHECK(lv_model_request(&m, (enum lv_request)r) == 0);
		did(&m, (enum lv_request)r, &was);
		by_req = state(&m);
		/* each of its keys, from the same state, does the same */
		for (i = 0; i < LV_KEYS_MAX && info->keys[i]; i++) {
			struct state by_key;

			CHECK(lv_key_request(info->keys[i]) == (enum lv_request)r);
			before(&k, (enum lv_request)r);
			CHECK(lv_model_key(&k, info->keys[i]) == 0);
			by_key = state(&k);
			CHECK(!memcmp(&by_key, &by_req, sizeof(by_key)));
		}
	}
	lv_model_free(&m);
	lv_model_free(&k);
}

/* Every key in the help, on the line of its words; none bound twice. */
static void test_help(void)
{
	struct lv_model m;
	struct lv_page pg;
	char name[16], status[256], word[64];
	int r, o, i, j;
	size_t l;

	memset(&m, 0, sizeof(m));
	fresh(&m);
	lv_model_request(&m, LV_REQ_HELP);
	lv_page_build(&m, &pg);
	for (r = LV_REQ_NONE + 1; r < LV_REQ_NR; r++) {
		const struct lv_request_info *info = lv_request_info((enum lv_request)r);

		lt_test_case = info->name;
		for (i = 0; i < LV_KEYS_MAX && info->keys[i]; i++) {
			lv_key_name(info->keys[i], name, sizeof(name));
			/* the key's name as a word of a help line, its words after it */
			for (l = 0; l < pg.nr; l++) {
				const char *at = strstr(pg.line[l], name);
				size_t n = strlen(name);

				if (at && (at == pg.line[l] || at[-1] == ' ') &&
				    (at[n] == ',' || at[n] == ' ' || !at[n]))
					break;
			}
			CHECK(l < pg.nr);
			if (l == pg.nr)
				fprintf(stderr, "  key %s not in the help\n", name);
			/* its help words there or on the next line (keys on their own) */
			if (l < pg.nr && info->help)
				CHECK(strstr(pg.line[l], info->help) ||
				      (info->text_help && strstr(pg.line[l], info->text_help)) ||
				      (l + 1 < pg.nr && ((info->help && strstr(pg.line[l + 1], info->help)) ||
							 (info->text_help && strstr(pg.line[l + 1], info->text_help)))));
			for (o = LV_REQ_NONE + 1; o < LV_REQ_NR; o++)
				for (j = 0; o != r && j < LV_KEYS_MAX &&
					    lv_request_info((enum lv_request)o)->keys[j]; j++)
					CHECK(lv_request_info((enum lv_request)o)->keys[j] !=
					      info->keys[i]);
		}
	}
	lv_page_free(&pg);
	/* the status line: each request's word, after its first key */
	lv_model_request(&m, LV_REQ_QUIT);	/* back from help */
	fresh(&m);
	lv_page_status(&m, status, sizeof(status));
	for (r = LV_REQ_NONE + 1; r < LV_REQ_NR; r++) {
		const struct lv_request_info *info = lv_request_info((enum lv_request)r);

		lt_test_case = info->name;
		if (!info->status || !*info->status)
			continue;
		snprintf(word, sizeof(word), "%s %s",
			 lv_key_name(info->keys[0], name, sizeof(name)), info->status);
		CHECK(strstr(status, word));
	}
	/* a key bound to nothing: said, and nothing else changes */
	lt_test_case = "unbound key";
	fresh(&m);
	CHECK(lv_key_request('x') == LV_REQ_NONE);
	lv_model_key(&m, 'x');
	CHECK_STR(m.msg, "unknown key x: ? or F1 lists the keys");
	CHECK(m.screen == LV_SCREEN_MAIN && !m.quit && m.global.sel == 0);
	lv_model_free(&m);
}

/* lv_draw() of @m: the model's bytes, and its process list, unchanged. */
static void drawn_unchanged(const struct lv_model *m, const char *what)
{
	struct lv_model copy = *m;
	size_t *procs = malloc((m->nr_procs ? m->nr_procs : 1) * sizeof(*procs));

	lt_test_case = what;
	if (m->nr_procs)
		memcpy(procs, m->procs, m->nr_procs * sizeof(*procs));
	lv_draw(m, "trace.dat");
	CHECK(!memcmp(&copy, m, sizeof(copy)));
	CHECK(!m->nr_procs || !memcmp(procs, m->procs, m->nr_procs * sizeof(*procs)));
	free(procs);
}

static void test_draw(void)
{
	static const int walks[][8] = {
		{ 0 }, { LV_KEY_END, 0 }, { LV_KEY_TAB, LV_KEY_PGDN, 0 },
		{ LV_KEY_RIGHT, LV_KEY_RIGHT, LV_KEY_ENTER, 0 },
		{ LV_KEY_ENTER, LV_KEY_END, 0 }, { '?', LV_KEY_PGDN, 0 },
		{ 'i', LV_KEY_END, 0 }, { ']', ']', 'o', 0 }, { 's', 'b', 0 },
		{ '/', 'x', 0 }, { '/', 'b', 'a', LV_KEY_ENTER, 'n', 'N', 0 },
		{ '/', 'f', 's', LV_KEY_ENTER, 'n', 'n', 0 },
		{ LV_KEY_ENTER, LV_KEY_TAB, ' ', LV_KEY_BTAB, 0 },
	};
	FILE *out = fopen("/dev/null", "w"), *in = fopen("/dev/null", "r");
	struct lv_model m;
	SCREEN *scr;
	size_t w;
	int i;

	setenv("COLUMNS", "100", 1);
	setenv("LINES", "30", 1);
	scr = newterm("vt100", out, in);
	CHECK(scr != NULL);
	if (!scr)
		return;
	memset(&m, 0, sizeof(m));
	for (w = 0; w < sizeof(walks) / sizeof(walks[0]); w++) {
		fresh(&m);
		lv_model_resize(&m, COLS, LINES);
		for (i = 0; walks[w][i]; i++)
			lv_model_key(&m, walks[w][i]);
		drawn_unchanged(&m, "a walk of keys");
		/* and after the wheel, where a table or a page scrolls */
		lv_model_mouse(&m, LV_MOUSE_WHEEL_DOWN, 5, 5);
		drawn_unchanged(&m, "after the wheel");
	}
	lv_model_free(&m);
	endwin();
	delscreen(scr);
	fclose(out);
	fclose(in);
}

int main(int argc, char **argv)
{
	struct lt_options opts;
	struct lt_error err;

	if (argc != 2) {
		fprintf(stderr, "usage: test-view-keys TRACE.dat\n");
		return 2;
	}
	lt_options_init(&opts);
	opts.window_ns = 100000000;	/* windows, for [ and ] */
	opts.threads = 1;
	if (lt_analyze(argv[1], &opts, &rep, &err) < 0) {
		fprintf(stderr, "test-keys: %s\n", err.msg);
		return 1;
	}
	test_requests();
	test_help();
	test_draw();
	lt_report_free(rep);
	return lt_test_done("view/keys");
}
