// SPDX-License-Identifier: GPL-2.0
/*
 * lv-live.c - latency-view --live's session (lv-live.h).
 *
 * Reports point into the live replay's strings, and the model into the
 * report shown: the report before stays until the next one is in the
 * model, and all go before the session.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "lv-live.h"

#define DEFAULT_REFRESH_NS	1000000000ULL

struct lv_live {
	struct cli_live *cl;
	struct lt_live *lv;
	struct lt_report *shown;
	uint64_t refresh_ns, next_ns, end_ns;
	bool stopped;
	struct lt_error err;
	/* the rate over the last refresh */
	uint64_t last_ns, last_events, last_cpu, last_reader;
	double rate, cpu_share, reader_share, reader_per_event;
	char title[192];
	char info[1024];
};

static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

/* What the title and the trace screen say, from the session's counts. */
static void describe(struct lv_live *l)
{
	struct lt_live_stats st;
	uint64_t dt;
	size_t n = 0;
	char lost[256] = "";
	int c;

	lt_live_stats(l->lv, &st);
	dt = st.now_ns - l->last_ns;
	if (dt >= 100000000ULL) {
		uint64_t ev = st.events - l->last_events;

		l->rate = (double)ev * 1e9 / (double)dt;
		l->cpu_share = (double)(st.cpu_ns - l->last_cpu) / (double)dt;
		l->reader_share = (double)(st.reader_cpu_ns - l->last_reader) /
				  (double)dt;
		l->reader_per_event = ev ? (double)(st.reader_cpu_ns -
						    l->last_reader) / (double)ev : 0;
		l->last_ns = st.now_ns;
		l->last_events = st.events;
		l->last_cpu = st.cpu_ns;
		l->last_reader = st.reader_cpu_ns;
	}
	for (c = 0; st.lost_per_cpu && c < st.cpus && n < sizeof(lost); c++)
		n += (size_t)snprintf(lost + n, sizeof(lost) - n, "%s%" PRIu64,
				      c ? " " : "", st.lost_per_cpu[c]);
	snprintf(l->title, sizeof(l->title), "live%s: %.0f events/s, %" PRIu64
		 " lost%s", l->stopped ? " (stopped)" : "", l->rate, st.lost,
		 st.lost_gaps && !st.lost ? " (uncounted)" : "");
	snprintf(l->info, sizeof(l->info),
		 "\nLive:     %.1f s, %" PRIu64 " events, %.0f events/s now\n"
		 "Tracing:  %d CPUs, %s, %u kB of buffer per CPU, kernel stacks %s\n"
		 "Lost:     per CPU %s (%" PRIu64 " gaps)\n"
		 "Readers:  %.2f%% of a core, %.2f us per event; pages waiting %zu kB "
		 "(at most %zu kB), readers held back %" PRIu64 " times\n"
		 "This:     %.2f%% of a core in all (readers, replay, screen)\n"
		 "Merge:    %" PRIu64 " records came late, %" PRIu64 " pages did not decode",
		 (double)(st.now_ns - st.started_ns) / 1e9, st.events, l->rate,
		 st.cpus, st.instance ? "in an instance of its own" :
		 "in the top-level instance", st.buffer_kb,
		 st.stacks ? "on" : "off", lost, st.lost_gaps,
		 l->reader_share * 100, l->reader_per_event / 1000,
		 st.queued / 1024, st.queued_peak / 1024, st.reader_waits,
		 l->cpu_share * 100, st.late, st.damaged);
}

int lv_live_start(const char *prog, struct cli_live *cl,
		  const struct lt_options *opts, bool quiet,
		  struct lv_live **out)
{
	struct lv_live *l = calloc(1, sizeof(*l));
	uint64_t now;
	int ret;

	*out = NULL;
	if (!l) {
		fprintf(stderr, "%s: out of memory\n", prog);
		return lt_error_exit_status(LT_E_NOMEM);
	}
	l->cl = cl;
	cl->cfg.sliding = true;
	cl->cfg.window_ns = opts->window_ns;
	ret = cli_live_open(prog, cl, opts, quiet, &l->lv);
	if (ret) {
		free(l);
		return ret;
	}
	now = mono_ns();
	l->refresh_ns = cl->refresh_ns ? cl->refresh_ns : DEFAULT_REFRESH_NS;
	l->next_ns = now + l->refresh_ns;
	l->end_ns = cl->duration_ns ? now + cl->duration_ns : 0;
	l->last_ns = now;
	if (lt_live_pump(l->lv, LT_LIVE_PUMP_BATCH, &l->err) < 0 ||
	    lt_live_report(l->lv, &l->shown, &l->err) < 0) {
		fprintf(stderr, "%s: %s\n", prog, l->err.msg);
		ret = lt_error_exit_status(l->err.code);
		lv_live_free(l);
		return ret;
	}
	describe(l);
	*out = l;
	return 0;
}

struct lt_report *lv_live_report(struct lv_live *l)
{
	return l->shown;
}

void lv_live_attach(struct lv_live *l, struct lv_model *m)
{
	m->live = l->title;
	m->live_info = l->info;
}

int lv_live_fd(struct lv_live *l)
{
	return lt_live_fd(l->lv);
}

int lv_live_wait_ms(struct lv_live *l)
{
	uint64_t now = mono_ns(), next = l->next_ns;

	if (l->stopped)
		return 1000;
	if (l->end_ns && l->end_ns < next)
		next = l->end_ns;
	return next <= now ? 0 : (int)((next - now) / 1000000) + 1;
}

/* @rep into the model; the one shown before goes (its rows were found). */
static int show(struct lv_live *l, struct lv_model *m, struct lt_report *rep)
{
	if (lv_model_swap(m, rep) < 0) {
		lt_report_free(rep);
		lt_error_set(&l->err, LT_E_NOMEM, "out of memory");
		return -1;
	}
	lt_report_free(l->shown);
	l->shown = rep;
	return 0;
}

int lv_live_stop(struct lv_live *l, struct lv_model *m, bool final)
{
	struct lt_report *rep = NULL;

	if (l->stopped)
		return 0;
	l->stopped = true;
	if (lt_live_stop(l->lv, final ? &rep : NULL, &l->err) < 0)
		return -1;
	describe(l);
	return rep ? show(l, m, rep) : 0;
}

int lv_live_tick(struct lv_live *l, struct lv_model *m)
{
	struct lt_report *rep;
	uint64_t now;

	if (l->stopped)
		return 0;
	if (lt_live_pump(l->lv, LT_LIVE_PUMP_BATCH, &l->err) < 0)
		return -1;
	now = mono_ns();
	if (l->end_ns && now >= l->end_ns)
		return lv_live_stop(l, m, true);
	if (now < l->next_ns)
		return 0;
	l->next_ns = now + l->refresh_ns;
	if (lt_live_report(l->lv, &rep, &l->err) < 0)
		return -1;
	describe(l);
	return show(l, m, rep);
}

bool lv_live_stopped(const struct lv_live *l)
{
	return l->stopped;
}

const struct lt_error *lv_live_error(const struct lv_live *l)
{
	return &l->err;
}

const char *lv_live_summary(struct lv_live *l, char *buf, size_t len)
{
	char status[128], cost[160];

	snprintf(buf, len, "%s; %s", cli_live_status(l->lv, status, sizeof(status)),
		 cli_live_cost(l->lv, cost, sizeof(cost)));
	return buf;
}

int lv_live_restore(struct lv_live *l)
{
	return lt_live_restore(l->lv, &l->err);
}

void lv_live_free(struct lv_live *l)
{
	if (!l)
		return;
	lt_report_free(l->shown);
	lt_live_close(l->lv);
	free(l);
}
