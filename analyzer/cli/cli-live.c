// SPDX-License-Identifier: GPL-2.0
/*
 * cli-live.c - --live's options and start, shared by latency-analyze and
 * latency-view (cli-live.h).
 */
#include <poll.h>
#include <time.h>
#include <unistd.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli-args.h"
#include "cli-live.h"

#define MIN_PERIOD_NS	(100 * 1000000ULL)

volatile sig_atomic_t cli_live_signal;

void cli_live_init(struct cli_live *l)
{
	memset(l, 0, sizeof(*l));
	lt_live_config_init(&l->cfg);
}

/* --duration, --refresh, --step: @min_ns or more */
static int duration(const char *prog, const char *opt, const char *val,
		    uint64_t min_ns, uint64_t *ns)
{
	int ret = lt_parse_duration(val, 1000000000ULL, ns);

	if (ret == -2)
		return cli_bad_arg(prog, opt, val, "too large a duration");
	if (ret < 0 || *ns < min_ns)
		return cli_bad_arg(prog, opt, val, min_ns > 1 ?
				   "expected a duration of 100ms or more, such as 1s" :
				   "expected a duration such as 60s or 5m");
	return 0;
}

const struct cli_needs cli_live_needs = {
	"live", "a trace file was recorded already"
};

int cli_opt_duration(const struct cli_cmd *cmd, const struct cli_opt *o,
		     const char *arg)
{
	struct cli_live *l = o->value;

	return duration(cmd->prog, "--duration", arg, 1, &l->duration_ns);
}

int cli_opt_refresh(const struct cli_cmd *cmd, const struct cli_opt *o,
		    const char *arg)
{
	struct cli_live *l = o->value;

	return duration(cmd->prog, "--refresh", arg, MIN_PERIOD_NS,
			&l->refresh_ns);
}

int cli_opt_step(const struct cli_cmd *cmd, const struct cli_opt *o,
		 const char *arg)
{
	struct cli_live *l = o->value;

	return duration(cmd->prog, "--step", arg, MIN_PERIOD_NS,
			&l->cfg.step_ns);
}

/* --kernel-stacks[=HOW], and --no-kernel-stacks (no value: off) */
int cli_opt_kernel_stacks(const struct cli_cmd *cmd, const struct cli_opt *o,
			  const char *arg)
{
	struct cli_live *l = o->value;

	if (!o->argh || (arg && !strcmp(arg, "off")))
		l->cfg.stacks = LTR_STACKS_OFF;
	else if (!arg || !strcmp(arg, "switch"))
		l->cfg.stacks = LTR_STACKS_SWITCH;
	else if (!strcmp(arg, "all"))
		l->cfg.stacks = LTR_STACKS_ALL;
	else
		return cli_bad_arg(cmd->prog, "--kernel-stacks", arg,
				   "expected switch, all or off");
	return 0;
}

static int refuse(const char *prog, const char *what)
{
	fprintf(stderr, "%s: %s\n", prog, what);
	return cli_try_help(prog);
}

int cli_live_check(const char *prog, const struct cli_live *l,
		   const struct lt_options *opts, int first, int argc,
		   char **argv)
{
	char msg[300];

	if (!l->live)
		return 0;
	if (first < argc) {
		snprintf(msg, sizeof(msg), "--live reads the running system, "
			 "not a file: '%.200s' given too", argv[first]);
		return refuse(prog, msg);
	}
	if (opts->from_ns >= 0 || opts->to_ns >= 0)
		return refuse(prog, "--from and --to cut a trace file; with "
			      "--live, --duration says how long");
	if (opts->partial)
		return refuse(prog, "--partial reads past damage in a file: "
			      "not with --live");
	if (opts->kallsyms)
		return refuse(prog, "--kallsyms names a file's symbols: with "
			      "--live they are this kernel's");
	if (opts->threads)
		return refuse(prog, "--threads reads a file on threads: with "
			      "--live, one reader per CPU reads");
	if (l->cfg.step_ns && opts->window_ns &&
	    l->cfg.step_ns > opts->window_ns)
		return refuse(prog, "--step is longer than --window: the "
			      "window moves by at most its length");
	return 0;
}

/* What this kernel lacks and what it costs, once per kind (as latency-record). */
static void say_missing(const char *prog, struct lt_live *lv)
{
	const struct ltr_event *ev;
	size_t i, n = lt_live_events(lv, &ev);
	bool lt_said = false, stat_said = false;

	for (i = 0; i < n; i++) {
		const struct ltr_event *e = &ev[i];
		bool lt = !strcmp(e->system, "latencytop");
		bool st = !strncmp(e->name, "sched_stat_", 11);

		if (e->state == LTR_EVENT_ENABLED) {
			lt_said |= lt;
			continue;
		}
		if (e->state != LTR_EVENT_MISSING || (lt && lt_said) ||
		    (st && stat_said))
			continue;
		lt_said |= lt;
		stat_said |= st;
		fprintf(stderr, "%s: not in this kernel: %s:%s%s (%s; fix: %s)\n",
			prog, e->system, lt ? "*" : e->name,
			st ? " (and the other sched_stat events)" : "",
			e->cost, e->fix && *e->fix ? e->fix : "a newer kernel");
	}
}

static const char *log_prog;
static bool log_quiet;

/* The recording library's notes: what it restored, what it could not do. */
static void log_note(void *ctx, enum ltr_log_level level, const char *msg)
{
	(void)ctx;
	if (level == LTR_LOG_INFO && log_quiet)
		return;
	fprintf(stderr, "%s: %s%s\n", log_prog,
		level == LTR_LOG_WARN ? "warning: " : "", msg);
}

int cli_live_open(const char *prog, struct cli_live *l,
		  const struct lt_options *opts, bool quiet,
		  struct lt_live **out)
{
	struct lt_error err = { 0 };

	log_prog = prog;
	log_quiet = quiet;
	ltr_set_log_fn(log_note, NULL);
	l->cfg.opts = *opts;
	if (lt_live_open(&l->cfg, out, &err) < 0) {
		fprintf(stderr, "%s: %s\n", prog, err.msg);
		return lt_error_exit_status(err.code);
	}
	if (!quiet)
		say_missing(prog, *out);
	return 0;
}

static void on_signal(int sig)
{
	cli_live_signal = sig;
}

void cli_live_catch(void)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP };
	struct sigaction sa;
	size_t i;

	memset(&sa, 0, sizeof(sa));
	/* no SA_RESTART: a wait in poll() or getch() returns at once */
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	for (i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		sigaction(sigs[i], &sa, NULL);
	/* a terminal gone mid-write: an error to handle, not a death */
	signal(SIGPIPE, SIG_IGN);
}

void cli_live_die_of_signal(void)
{
	int sig = cli_live_signal;

	if (!sig)
		return;
	signal(sig, SIG_DFL);
	raise(sig);
}

const char *cli_live_status(struct lt_live *lv, char *buf, size_t len)
{
	struct lt_live_stats st;
	double secs;

	lt_live_stats(lv, &st);
	secs = (double)(st.now_ns - st.started_ns) / 1e9;
	snprintf(buf, len, "%.1f s, %" PRIu64 " events, %" PRIu64 " lost%s",
		 secs, st.events, st.lost, st.lost_gaps && !st.lost ?
		 " (some, uncounted)" : "");
	return buf;
}

const char *cli_live_cost(struct lt_live *lv, char *buf, size_t len)
{
	struct lt_live_stats st;
	double secs;

	lt_live_stats(lv, &st);
	secs = (double)(st.now_ns - st.started_ns) / 1e9;
	if (secs <= 0)
		secs = 1e-9;
	snprintf(buf, len, "readers %.2f%% of a core (%.2f us per event), "
		 "%.2f%% in all", (double)st.reader_cpu_ns / 1e7 / secs,
		 st.events ? (double)st.reader_cpu_ns / 1e3 / (double)st.events : 0,
		 (double)st.cpu_ns / 1e7 / secs);
	return buf;
}

static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

int cli_live_analyze(const char *prog, struct cli_live *l,
		     const struct lt_options *opts, bool progress, bool quiet,
		     struct lt_live **lvp, struct lt_report **report)
{
	bool show = progress && isatty(STDERR_FILENO);
	uint64_t start, now, deadline = 0, shown = 0;
	struct lt_error err = { 0 };
	struct lt_live *lv;
	char status[160];
	int ret;

	*lvp = NULL;
	*report = NULL;
	l->cfg.sliding = false;
	cli_live_catch();
	ret = cli_live_open(prog, l, opts, quiet, &lv);
	if (ret)
		return ret;
	*lvp = lv;
	start = mono_ns();
	if (l->duration_ns)
		deadline = start + l->duration_ns;
	while (!cli_live_signal) {
		struct pollfd p = { .fd = lt_live_fd(lv), .events = POLLIN };
		int timeout = 200;

		now = mono_ns();
		if (deadline && now >= deadline)
			break;
		if (deadline && (deadline - now) / 1000000 < (uint64_t)timeout)
			timeout = (int)((deadline - now) / 1000000) + 1;
		poll(&p, 1, timeout);
		if (lt_live_pump(lv, LT_LIVE_PUMP_BATCH, &err) < 0)
			goto fail;
		now = mono_ns();
		if (show && now - shown >= 1000000000ULL) {
			fprintf(stderr, "\r%s: live: %s (%s)\033[K", prog,
				cli_live_status(lv, status, sizeof(status)),
				deadline ? "Ctrl-C stops it sooner" :
				"Ctrl-C to stop");
			shown = now;
		}
	}
	if (shown)
		fputs("\r\033[K", stderr);
	if (lt_live_stop(lv, report, &err) < 0)
		goto fail;
	if (!quiet) {
		char cost[160];

		fprintf(stderr, "%s: live: %s; %s%s%s\n", prog,
			cli_live_status(lv, status, sizeof(status)),
			cli_live_cost(lv, cost, sizeof(cost)),
			l->cfg.output ? "; saved in " : "",
			l->cfg.output ? l->cfg.output : "");
	}
	return -1;
fail:
	if (shown)
		fputs("\r\033[K", stderr);
	fprintf(stderr, "%s: %s\n", prog, err.msg);
	return lt_error_exit_status(err.code);
}
