// SPDX-License-Identifier: GPL-2.0
/*
 * latency-view - LatencyTOP's screen over a recorded trace.dat.
 *
 * parse options -> analyze (as latency-analyze, with 30-second windows)
 * -> browse with curses.  --keys and --dump play keys without a terminal
 * and print the screen they lead to: for scripts and the tests.
 */
#include <curses.h>
#include <errno.h>
#include <locale.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include "cli-args.h"
#include "cli-live.h"
#include "cli-load.h"
#include "latencytop.h"
#include "lv-draw.h"
#include "lv-html.h"
#include "lv-live.h"
#include "lv-model.h"
#include "lv-term.h"

#define DEFAULT_WINDOW_NS	(30 * 1000000000ULL)	/* LatencyTOP's 30 s */

static const char *prog = "latency-view";
/* -q: no notes on stderr (the live summary at the end) */
static bool a_quiet;

static void usage(FILE *out, const struct cli_cmd *cmd)
{
	fprintf(out,
"Usage: %s [OPTION]... TRACE.dat|PERF.data|REPORT.json\n"
"       %s --live [OPTION]...\n"
"Browse the latencies of a trace recorded with trace-cmd (or a report saved\n"
"by latency-analyze --format=json), on LatencyTOP's screen: the global\n"
"table, the process bar, the selected process's table;\n"
"Enter on a row shows its percentiles, worst occurrences and kernel stacks.\n"
"Press ? in the viewer for every key.  The options up to -j are\n"
"latency-analyze's: the same options give the same numbers.\n"
"\n", prog, prog);
	cli_opts_help(out, cmd);
	fputs(
"\n"
"Exit status: 0 ok, 1 usage, 2 cannot read the file, 3 corrupt trace,\n"
"4 no scheduler events, 5 partial (--partial), 6 resource limit or out\n"
"of memory, 9 cannot trace this system (--live), 70 internal error.\n"
"See latency-view(1) and latency-analyze(1).\n", out);
}

static const char *term_name(bool to_dump)
{
	const char *term = getenv("TERM");

	return term && *term ? term : to_dump ? "vt100" : NULL;
}

/* Terminal keys as the model knows them; -1 for none. */
static int map_key(int ch)
{
	switch (ch) {
	case KEY_UP:		return LV_KEY_UP;
	case KEY_DOWN:		return LV_KEY_DOWN;
	case KEY_LEFT:		return LV_KEY_LEFT;
	case KEY_RIGHT:		return LV_KEY_RIGHT;
	case KEY_PPAGE:		return LV_KEY_PGUP;
	case KEY_NPAGE:		return LV_KEY_PGDN;
	case KEY_HOME:		return LV_KEY_HOME;
	case KEY_END:		return LV_KEY_END;
	case KEY_ENTER: case '\n': case '\r':
				return LV_KEY_ENTER;
	case 27:		return LV_KEY_ESC;
	case KEY_BACKSPACE: case 127: case 8:
				return LV_KEY_BACKSPACE;
	case '\t':		return LV_KEY_TAB;
	case KEY_BTAB:		return LV_KEY_BTAB;
	case KEY_F(1): case KEY_F(2): case KEY_F(3): case KEY_F(4):
	case KEY_F(5): case KEY_F(6): case KEY_F(7): case KEY_F(8):
	case KEY_F(9): case KEY_F(10): case KEY_F(11): case KEY_F(12):
				return LV_KEY_F(ch - KEY_F0);
	default:		/* a UTF-8 character's bytes too (lv-model.h) */
				return (ch >= 0x20 && ch < 0x7f) ||
				       (ch >= 0x80 && ch <= 0xff) ? ch : -1;
	}
}

/*
 * The next key of a --keys string at *@s: its code, RESIZE with *@cols
 * and *@lines for <Size=CxL>, a MOUSE_ code with *@cols and *@lines the
 * column and line (from 0) for <Click=X,Y>, <WheelUp=X,Y> and
 * <WheelDown=X,Y>, 0 at the end, -1 (with *@s at the bad token) for a
 * name it does not know.
 */
#define RESIZE		0x2000
#define MOUSE_CLICK	0x2001
#define MOUSE_UP	0x2002
#define MOUSE_DOWN	0x2003

static const struct {
	const char *name;
	int code;
	enum lv_mouse what;
} mouse_names[] = {
	{ "Click", MOUSE_CLICK, LV_MOUSE_CLICK },
	{ "WheelUp", MOUSE_UP, LV_MOUSE_WHEEL_UP },
	{ "WheelDown", MOUSE_DOWN, LV_MOUSE_WHEEL_DOWN },
};

static int next_key(const char **s, int *cols, int *lines)
{
	const char *p = *s, *end;
	int key;

	if (!*p)
		return 0;
	if (*p != '<' || !(end = strchr(p, '>'))) {
		*s = p + 1;
		/* a newline, tab or escape as the terminal would give it */
		return map_key((unsigned char)*p) >= 0 ?
		       map_key((unsigned char)*p) : (unsigned char)*p;
	}
	key = lv_key_by_name(p + 1, (size_t)(end - p - 1));
	if (key >= 0) {
		*s = end + 1;
		return key;
	}
	{
		size_t i, len;
		int n = 0;

		if (sscanf(p, "<Size=%dx%d>%n", cols, lines, &n) == 2 &&
		    p + n == end + 1 && *cols > 0 && *lines > 0 &&
		    *cols <= 1000 && *lines <= 1000) {
			*s = end + 1;
			return RESIZE;
		}
		for (i = 0; i < sizeof(mouse_names) / sizeof(mouse_names[0]); i++) {
			len = strlen(mouse_names[i].name);
			if (strncmp(p + 1, mouse_names[i].name, len) || p[len + 1] != '=')
				continue;
			n = 0;
			if (sscanf(p + len + 2, "%d,%d>%n", cols, lines, &n) == 2 &&
			    p + len + 2 + n == end + 1 &&
			    *cols >= 0 && *lines >= 0 && *cols < 1000 && *lines < 1000) {
				*s = end + 1;
				return mouse_names[i].code;
			}
		}
	}
	return -1;
}

/*
 * Every --keys token known, before the trace is read; a size only with
 * --dump (a real terminal has the size it has).
 */
static int check_keys(const char *keys, bool to_dump)
{
	const char *s = keys;
	char names[512], what[600];
	int c, l, k;

	while ((k = next_key(&s, &c, &l)) > 0)
		if (k == RESIZE && !to_dump)
			return cli_bad_arg(prog, "--keys", keys,
					   "<Size=...> needs --dump");
	if (k < 0 && !strncmp(s, "<Size=", 6))
		return cli_bad_arg(prog, "--keys", s,
				   "expected <Size=COLSxLINES>, each 1 to 1000");
	if (k < 0) {
		snprintf(what, sizeof(what), "expected a character or %s "
			 "<Size=COLSxLINES> <Click=X,Y> <WheelUp=X,Y> <WheelDown=X,Y>",
			 lv_key_names(names, sizeof(names)));
		return cli_bad_arg(prog, "--keys", s, what);
	}
	return 0;
}

/*
 * A key to the model, and what it asked of the world: 'w' writes a page
 * (lv_html_write() says on the status line where, or why not).  0, or -1
 * when out of memory.
 */
static int key(struct lv_model *m, int k, const char *path)
{
	if (lv_model_key(m, k) < 0)
		return -1;
	if (m->want_html)
		lv_html_write(m, path);
	return 0;
}

/* Play @keys into @m: 0, or -1 when out of memory. */
static int play(struct lv_model *m, const char *keys, const char *path)
{
	const char *s = keys ? keys : "";
	int k, cols, lines;

	while (!m->quit && (k = next_key(&s, &cols, &lines)) > 0) {
		if (k == RESIZE) {
			resizeterm(lines, cols);
			lv_model_resize(m, COLS, LINES);
			continue;
		}
		if (k >= MOUSE_CLICK && k <= MOUSE_DOWN) {
			if (lv_model_mouse(m, mouse_names[k - MOUSE_CLICK].what,
					   lines, cols) < 0)
				return -1;
			continue;
		}
		if (key(m, k, path) < 0)
			return -1;
	}
	return 0;
}

/*
 * The screen as text, trailing blanks cut, on stdout: 0, or the errno of
 * the first write that failed.
 */
static int dump(void)
{
	/* up to 4 bytes a column in UTF-8: n counts bytes, and stops at the edge */
	char line[4096];
	int y, n, error = 0;

	for (y = 0; y < LINES; y++) {
		n = mvinnstr(y, 0, line, (int)sizeof(line) - 1);
		if (n < 0)
			n = 0;
		line[n] = '\0';
		while (n > 0 && line[n - 1] == ' ')
			line[--n] = '\0';
		if (puts(line) < 0 && !error)
			error = errno;
	}
	if (fflush(stdout) && !error)
		error = errno;
	if (!error && ferror(stdout))
		error = EIO;
	return error;
}

/*
 * The screen --dump draws on (COLUMNS x LINES, of @term), writing to
 * *@out and reading *@in (/dev/null both); NULL, said why, if curses
 * cannot make it.  The streams are the caller's to close, set or not.
 */
static SCREEN *dump_screen(const char *term, FILE **out, FILE **in)
{
	SCREEN *scr;

	*out = fopen("/dev/null", "w");
	*in = fopen("/dev/null", "r");
	scr = *out && *in ? newterm(term, *out, *in) : NULL;
	if (!scr)
		fprintf(stderr, "%s: --dump: curses cannot draw a %sx%s screen "
			"of terminal type '%s'\n", prog,
			getenv("COLUMNS") ? getenv("COLUMNS") : "80",
			getenv("LINES") ? getenv("LINES") : "24", term);
	return scr;
}

static void close_both(FILE *out, FILE *in)
{
	if (out)
		fclose(out);
	if (in)
		fclose(in);
}

static volatile sig_atomic_t stop_signal;

static void on_stop(int sig)
{
	stop_signal = sig;
}

/*
 * Ctrl-C or kill: curses' own handler gives the screen back and exits 1,
 * "invalid arguments" here.  Ours stops the loop (no SA_RESTART: getch()
 * returns), and once the screen is back the signal kills as the shell
 * expects (status 130 for Ctrl-C).
 */
static void catch_stop(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_stop;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	/* the terminal gone: stop as for a kill (live: tracefs put back) */
	sigaction(SIGHUP, &sa, NULL);
}

static void die_of_stop(void)
{
	if (!stop_signal)
		return;
	signal(stop_signal, SIG_DFL);
	raise(stop_signal);
}

/*
 * --dump --live: trace for --duration (or until a signal), with a report
 * every refresh as on a terminal, then the final one is the screen.
 */
static int live_dump(struct lv_live *l, struct lv_model *m)
{
	catch_stop();
	while (!lv_live_stopped(l) && !stop_signal) {
		struct pollfd p = { .fd = lv_live_fd(l), .events = POLLIN };
		int wait = lv_live_wait_ms(l);

		poll(&p, 1, wait < 100 ? wait : 100);
		if (lv_live_tick(l, m) < 0)
			return -1;
	}
	return lv_live_stop(l, m, true);
}

static int run_dump(struct lv_model *m, const char *keys, const char *path,
		    struct lv_live *live)
{
	FILE *out, *in;
	SCREEN *scr = dump_screen(term_name(true), &out, &in);
	int ret = 0, error;

	if (!scr) {
		ret = lt_error_exit_status(LT_E_USAGE);
		goto out;
	}
	if (live && live_dump(live, m) < 0) {
		endwin();
		fprintf(stderr, "%s: %s\n", prog, lv_live_error(live)->msg);
		ret = lt_error_exit_status(lv_live_error(live)->code);
		goto free;
	}
	lv_draw_colors();
	lv_model_resize(m, COLS, LINES);
	if (play(m, keys, path) < 0) {
		endwin();
		fprintf(stderr, "%s: out of memory\n", prog);
		ret = lt_error_exit_status(LT_E_NOMEM);
		goto free;
	}
	lv_draw(m, path);
	error = dump();
	if (error) {
		fprintf(stderr, "%s: stdout: cannot write the screen: %s\n",
			prog, strerror(error));
		ret = lt_error_exit_status(LT_E_IO);
	}
	endwin();
free:
	delscreen(scr);
out:
	close_both(out, in);
	return ret;
}


/* A mouse event curses read, to the model: 0, or -1 when out of memory. */
static int mouse(struct lv_model *m)
{
	MEVENT ev;

	if (getmouse(&ev) != OK)
		return 0;
	if (ev.bstate & (BUTTON1_PRESSED | BUTTON1_CLICKED))
		return lv_model_mouse(m, LV_MOUSE_CLICK, ev.y, ev.x);
	if (ev.bstate & BUTTON4_PRESSED)
		return lv_model_mouse(m, LV_MOUSE_WHEEL_UP, ev.y, ev.x);
	if (ev.bstate & BUTTON5_PRESSED)
		return lv_model_mouse(m, LV_MOUSE_WHEEL_DOWN, ev.y, ev.x);
	return 0;
}

/*
 * A key, or ERR after at most @ms (live: the next refresh, or a while to
 * replay what the readers brought).  *@early tells an ERR that came
 * before its time: a terminal that is gone says so at once, every time.
 */
static int next_ch(struct lv_live *live, bool *early)
{
	struct timespec a, b;
	int ms, ch;

	*early = false;
	if (!live)
		return getch();
	ms = lv_live_wait_ms(live);
	if (ms > 100)
		ms = 100;
	timeout(ms);
	clock_gettime(CLOCK_MONOTONIC, &a);
	ch = getch();
	clock_gettime(CLOCK_MONOTONIC, &b);
	*early = ch == ERR && ms > 1 &&
		 (b.tv_sec - a.tv_sec) * 1000 + (b.tv_nsec - a.tv_nsec) / 1000000 <
		 ms / 2;
	return ch;
}

static int run_terminal(struct lv_model *m, const char *keys, const char *path,
			struct lv_live *live)
{
	int ch, k, errors = 0;
	bool early;

	/* before initscr(), which takes the signals left at their default */
	catch_stop();
	/* main() checked the terminal and its type */
	initscr();
	cbreak();
	noecho();
	keypad(stdscr, TRUE);
	curs_set(0);
	/* Esc alone leaves a screen: do not wait a second to tell it from a key */
	set_escdelay(50);
	lv_draw_colors();
	/* a click (press) and the wheel, at once: no wait to tell a click */
	mousemask(BUTTON1_PRESSED | BUTTON1_CLICKED | BUTTON4_PRESSED |
		  BUTTON5_PRESSED, NULL);
	mouseinterval(0);
	lv_model_resize(m, COLS, LINES);
	if (play(m, keys, path) < 0)
		goto nomem;
	while (!m->quit && !stop_signal) {
		lv_draw(m, path);
		refresh();
		/*
		 * A signal while drawing interrupts no read: seen here.  One
		 * in the instant before getch() reads waits for a key (or
		 * another ^C).
		 */
		if (stop_signal)
			break;
		ch = next_ch(live, &early);
		if (live && lv_live_tick(live, m) < 0)
			goto live_failed;
		if (ch == ERR) {
			/* a signal, or the terminal is gone: then stop */
			if ((!live || early) && errno != EINTR && ++errors > 100)
				break;
			continue;
		}
		errors = 0;
		if (ch == KEY_RESIZE) {
			/* drawn again at the new size, the model fitted to it */
			lv_model_resize(m, COLS, LINES);
			continue;
		}
		if (ch == KEY_MOUSE) {
			if (mouse(m) < 0)
				goto nomem;
			continue;
		}
		k = map_key(ch);
		if (k >= 0 && key(m, k, path) < 0)
			goto nomem;
	}
	endwin();
	/* q, Ctrl-C: what was read goes to --save, tracefs is put back */
	if (live && lv_live_stop(live, m, false) < 0)
		goto live_said;
	if (live && lv_live_restore(live) < 0)
		goto live_said;
	if (live && !a_quiet) {
		char sum[320];

		fprintf(stderr, "%s: live: %s\n", prog,
			lv_live_summary(live, sum, sizeof(sum)));
	}
	die_of_stop();
	return 0;
nomem:
	endwin();
	fprintf(stderr, "%s: out of memory\n", prog);
	return lt_error_exit_status(LT_E_NOMEM);
live_failed:
	endwin();
live_said:
	fprintf(stderr, "%s: %s\n", prog, lv_live_error(live)->msg);
	return lt_error_exit_status(lv_live_error(live)->code);
}

/*
 * A terminal type curses knows, and for --dump a screen of the size asked,
 * said before the trace is read.
 */
static int check_term(bool to_dump)
{
	const char *term = term_name(to_dump);
	int ret;

	if (!term) {
		fprintf(stderr, "%s: TERM is not set\n", prog);
		return -1;
	}
	ret = lv_term_check(term, to_dump ? -1 : STDOUT_FILENO, !to_dump);
	if (ret < 0) {
		fprintf(stderr, "%s: TERM=%s: %s\n", prog, term,
			ret == LV_TERM_UNKNOWN ? "unknown terminal type" :
			ret == LV_TERM_NO_DATABASE ? "no terminfo database" :
			"this terminal cannot move the cursor");
		return -1;
	}
	if (to_dump) {
		/* COLUMNS x LINES: made once now, to see */
		FILE *out, *in;
		SCREEN *scr = dump_screen(term, &out, &in);

		if (scr) {
			endwin();
			delscreen(scr);
		}
		close_both(out, in);
		if (!scr)
			return -1;
	}
	return 0;
}

/* What the command line asks for. */
struct args {
	struct cli_analysis an;
	struct lt_options base;		/* the viewer's defaults */
	const char *keys;
	const char *path;
	bool quiet, no_progress, to_dump;
	struct cli_live live;
};

/* -1 to go on, else the exit status to leave with. */
static int parse_args(int argc, char **argv, struct args *a)
{
	struct cli_analysis *an = &a->an;
	struct lt_options *opts = &an->opts;
	struct cli_live *l = &a->live;
	struct cli_opt options[] = {
		CLI_OPT_SORT(an, "order rows by max (default), total, count or avg\n"
			     "at first (o changes it)"),
		CLI_OPT_WINDOW(an, "the windows [ and ] step through (default 30s);\n"
			       "live, the window shown"),
		CLI_OPTS_RANGE(an),
		CLI_OPTS_ACCOUNTING(an),
		CLI_OPTS_TASKS(an),
		CLI_OPT_MAX_PROCESSES(an),
		CLI_TEXT("  Live (root; this machine's tracefs, left as it was):"),
		CLI_OPT_LIVE(l, "trace the running system: the last --window (30s)\n"
			     "of it, refreshed; no TRACE"),
		CLI_OPTS_LIVE_VIEW(l),
		CLI_OPT_DURATION(l, "stop tracing after DUR (the screen stays)"),
		/* -o: the viewer writes no report, so it is --save's */
		CLI_OPT_SAVE(l, 'o', "keep every event seen in FILE, a trace.dat"),
		CLI_OPTS_LIVE_TRACING(l),
		CLI_OPT_THREADS(an, "threads reading the trace (default: one per core,\n"
				"one for a small trace)"),
		CLI_STRING(0, "keys", &a->keys, "KEYS",
			   "play these keys first: characters, and <Up>\n"
			   "<Down> <Left> <Right> <PgUp> <PgDn> <Home> <End>\n"
			   "<Enter> <Esc> <BS> <Tab> <BTab> <Space> <lt>\n"
			   "<F1>..<F12> <Size=COLSxLINES>, and the mouse at\n"
			   "column X, line Y from 0: <Click=X,Y>\n"
			   "<WheelUp=X,Y> <WheelDown=X,Y>"),
		CLI_BOOL(0, "dump", &a->to_dump,
			 "no terminal: play --keys, print the screen they\n"
			 "lead to (COLUMNS x LINES, default 80x24), exit"),
		CLI_BOOL('q', "quiet", &a->quiet,
			 "no progress and no warnings on stderr"),
		CLI_BOOL(0, "no-progress", &a->no_progress,
			 "no progress display while reading"),
		CLI_HELP("this help"),
		CLI_VERSION("version"),
		CLI_END()
	};
	const struct cli_cmd cmd = {
		.prog = prog, .opts = options, .usage = usage,
	};
	int ret, first;

	cli_analysis_init(an);
	cli_live_init(l);
	opts->window_ns = DEFAULT_WINDOW_NS;
	/* for the page 'w' writes: its timeline's waits */
	opts->timeline_threads = LT_TIMELINE_THREADS;
	opts->timeline_waits = LT_TIMELINE_WAITS;
	a->base = *opts;
	ret = cli_parse(&cmd, argc, argv, &first);
	if (ret >= 0)
		return ret;
	a_quiet = a->quiet;
	if (cli_live_check(prog, l, opts, first, argc, argv) ||
	    (!l->live && cli_one_trace(prog, first, argc)) ||
	    cli_analysis_check(prog, opts))
		return lt_error_exit_status(LT_E_USAGE);
	/* --dump draws once: live, at the end of a --duration */
	if (l->live && a->to_dump && !l->duration_ns) {
		fprintf(stderr, "%s: --dump --live needs --duration: the screen "
			"is printed when it ends\n", prog);
		return cli_try_help(prog);
	}
	a->path = l->live ? "live" : argv[first];
	if (a->keys && check_keys(a->keys, a->to_dump))
		return lt_error_exit_status(LT_E_USAGE);
	/* before minutes of reading, not after */
	if (!a->to_dump && (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO))) {
		fprintf(stderr, "%s: needs a terminal (--dump prints a screen "
			"without one)\n", prog);
		return lt_error_exit_status(LT_E_USAGE);
	}
	if (check_term(a->to_dump))
		return lt_error_exit_status(LT_E_USAGE);
	return -1;
}

/* Read the trace (or saved report), or trace live, and show it: the exit status. */
static int browse(struct args *a)
{
	struct lt_error err = { 0 };
	struct lt_report *report;
	struct lv_live *live = NULL;
	struct lv_model m;
	bool saved = false;
	int ret;

	if (a->live.live) {
		/* a signal from here on stops tracing and puts tracefs back */
		catch_stop();
		ret = lv_live_start(prog, &a->live, &a->an.opts, a->quiet, &live);
		if (ret)
			return ret;
		report = lv_live_report(live);
	} else {
		ret = cli_load_report(prog, a->path, &a->an.opts, &a->base,
				      !a->no_progress, a->quiet, &report, &err,
				      &saved);
		if (ret < 0) {
			fprintf(stderr, "%s: %s\n", prog, err.msg);
			return lt_error_exit_status(err.code);
		}
		cli_warn_no_task(prog, report, a->quiet);
	}
	/* how many processes the bar shows is this run's to say */
	if (saved)
		report->options.max_processes = a->an.opts.max_processes;
	/* -s orders a saved report's rows too: that is the viewer's to say */
	if (lv_model_init(&m, report, a->an.sort_given ? a->an.opts.sort :
					    report->options.sort) < 0) {
		fprintf(stderr, "%s: out of memory\n", prog);
		lv_model_free(&m);
		if (!live)
			lt_report_free(report);
		lv_live_free(live);
		return lt_error_exit_status(LT_E_NOMEM);
	}
	if (live)
		lv_live_attach(live, &m);
	ret = a->to_dump ? run_dump(&m, a->keys, a->path, live) :
			   run_terminal(&m, a->keys, a->path, live);
	if (!ret && m.rep->partial) {
		/* said after the screen is gone; the reason names the damage */
		fprintf(stderr, "%s: %s (the report is partial)\n", prog,
			m.rep->partial_reason);
		ret = lt_error_exit_status(LT_E_PARTIAL);
	}
	if (!ret && live && a->to_dump && !a->quiet) {
		char sum[320];

		fprintf(stderr, "%s: live: %s\n", prog,
			lv_live_summary(live, sum, sizeof(sum)));
	}
	lv_model_free(&m);
	/* the live reports go with the session, after the model */
	if (live)
		lv_live_free(live);
	else
		lt_report_free(report);
	/* a --dump stopped by a signal printed its screen: now it dies of it */
	if (live && a->to_dump)
		die_of_stop();
	return ret;
}

/*
 * The terminal's character set, so that curses draws UTF-8 names
 * (lv-text.h).  Only LC_CTYPE: numbers keep their '.' everywhere.  A
 * UTF-8 locale that is not installed (LANG=en_US.UTF-8 in a container
 * without it) still means a UTF-8 terminal: then glibc's built-in one.
 */
static void use_terminal_charset(void)
{
	const char *names[] = { "LC_ALL", "LC_CTYPE", "LANG" }, *l = NULL;
	const char *set;
	size_t i;

	if (setlocale(LC_CTYPE, ""))
		return;
	/* the variable that decides, as setlocale() reads them */
	for (i = 0; i < sizeof(names) / sizeof(names[0]) && !(l && *l); i++)
		l = getenv(names[i]);
	/* language_TERRITORY.codeset@modifier */
	set = l ? strchr(l, '.') : NULL;
	if (set && (!strncasecmp(set + 1, "utf-8", 5) ||
		    !strncasecmp(set + 1, "utf8", 4)))
		setlocale(LC_CTYPE, "C.UTF-8");
}

int main(int argc, char **argv)
{
	struct args a = { 0 };
	int ret;

	use_terminal_charset();
	ret = parse_args(argc, argv, &a);

	if (ret < 0)
		ret = browse(&a);
	cli_analysis_free(&a.an);
	return ret;
}
