// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz-replay.c - the replay state machine fed random event scripts.
 *
 * Every 12 bytes make one event over a handful of pids, CPUs, reasons and
 * cookies, so the fuzzer quickly reaches nesting, lost events, pid reuse
 * and stat/switch interleavings.  After the replay it checks what must
 * hold whatever the input: no negative or overlapping waits (a task's
 * charged time never exceeds the trace's span), histograms that agree with
 * their rows, nothing left provisional, and every wait told to a watcher
 * (the waits export) once, as the counters count it; then builds and
 * writes the report.
 */
#include <stdlib.h>
#include <string.h>

#include "lt-report.h"

static const int pids[] = { 0, 1, 2, 100, 101, 102, 103, 104, 105, 200, 201, 300 };
static const char *const strs[] = { "fsync", "Reading from a pipe", "",
				    "kworker/0:1",
				    ("a very long reason string that goes on and "
				     "on past any column"), "x" };
static const uint64_t frames[][4] = {
	{ 0x10, 0x20, 0x30, 0x40 }, { 0x11, 0x99, 0x30, 0x40 },
	{ 0x10, 0x20, 0x31, 0x41 }, { 0x12, 0x12, 0x12, 0x12 },
};

#define NPIDS (sizeof(pids) / sizeof(pids[0]))
#define NSTRS (sizeof(strs) / sizeof(strs[0]))
#define EV_BYTES 12

static int resolve(void *ctx, const uint64_t *f, unsigned int nr,
		   struct lt_stack_info *out)
{
	out->kind = f[0] & 1 ? LT_CAUSE_TRANSLATED : LT_CAUSE_FUNCTION;
	out->cause = f[0] & 2 ? "Reading from a pipe" : "[f]";
	out->kernel_thread = nr > 1 && f[1] == 0x99;
	return 0;
}

static const char *sym(void *ctx, uint64_t addr)
{
	return addr & 1 ? "odd_frame" : "even_frame";
}

static void decode(const uint8_t *b, uint64_t *ts, struct lt_ev *ev)
{
	uint16_t dt = (uint16_t)(b[2] | b[3] << 8);
	size_t len;

	memset(ev, 0, sizeof(*ev));
	ev->kind = (enum lt_ev_kind)(b[0] % (LT_EV_OTHER + 1));
	ev->cpu = b[1] & 3;
	/* mostly forward, sometimes backwards */
	if (dt & 0x8000 && *ts > (uint64_t)(dt & 0x7fff) * 100)
		*ts -= (uint64_t)(dt & 0x7fff) * 100;
	else
		*ts += (uint64_t)(dt & 0x7fff) * 1000;
	ev->ts = *ts;
	ev->pid = pids[b[4] % NPIDS];
	ev->pid2 = pids[b[5] % NPIDS];
	ev->state = (enum lt_task_state)(b[6] % (LT_STATE_DEAD + 1));
	ev->value = (uint64_t)b[7] * 50000;
	if (ev->kind == LT_EV_REASON_SET)
		ev->value = b[7] * 100;		/* maxtime in us */
	if (ev->kind == LT_EV_NEWTASK && b[7] & 1)
		ev->value = LT_CLONE_THREAD;
	if (ev->kind == LT_EV_LOST && b[7] == 255)
		ev->value = UINT64_MAX;
	if (ev->kind == LT_EV_LOST && b[7] == 254)
		ev->value = LT_LOST_DATA_END;	/* --partial: its data ends */
	ev->cookie = b[8] % 6;
	ev->str = strs[b[9] % NSTRS];
	len = strlen(ev->str);
	/* sometimes a string without its terminator in range */
	ev->str_len = b[1] & 0x80 && len ? len - 1 : len;
	ev->str2 = strs[b[10] % NSTRS];
	ev->str2_len = strlen(ev->str2);
	ev->current = pids[b[11] % NPIDS];
	if (ev->kind == LT_EV_STACK) {
		ev->frames = frames[b[9] % 4];
		ev->nr_frames = b[10] % 5;
		/* as the decoder's pool would: one id per distinct stack, or none */
		ev->value = b[7] & 1 && ev->nr_frames ?
			    (b[9] % 4) * 5 + ev->nr_frames : 0;
	}
}

static void check(const struct lt_replay *rp)
{
	uint64_t span = rp->stats.last_ts - rp->stats.first_ts;
	uint32_t i;

	for (i = 0; i < rp->nr_tasks; i++)
		if (rp->tasks[i].charged_ns > span)
			abort();	/* waits overlapped or went negative */
	for (i = 0; i < rp->nr_rows; i++) {
		const struct lt_row_acc *r = &rp->rows[i];

		if (!r->count)
			continue;
		if (r->provisional || r->hist.total != r->count ||
		    r->max_ns > r->total_ns || r->max_ns > span ||
		    lt_hist_quantile(&r->hist, 0.5) > r->max_ns ||
		    lt_hist_quantile(&r->hist, 0.5) >
		    lt_hist_quantile(&r->hist, 0.99))
			abort();
	}
}

/* The notes a watcher of the replay is told, by why not charged. */
struct notes {
	uint64_t by_drop[LT_DROP_NR];
	uint64_t cpu_no_switch_in;
};

static int count_note(void *ctx, const struct lt_wait_note *n)
{
	struct notes *c = ctx;

	if (n->kind != LT_NOTE_WAIT)
		return 0;
	if (n->drop >= LT_DROP_NR || (n->start_known && n->end_known &&
				      n->end < n->start))
		abort();
	c->by_drop[n->drop]++;
	c->cpu_no_switch_in += n->drop == LT_DROP_NO_SWITCH_IN &&
			       n->state == LT_STATE_RUNNABLE;
	return 0;
}

/* One note per wait each counter counts: the export adds up to the report. */
static void check_notes(const struct lt_replay *rp, const struct notes *c)
{
	const struct lt_replay_stats *st = &rp->stats;

	if (c->by_drop[LT_DROP_NONE] != st->charged_count ||
	    c->by_drop[LT_DROP_USER_REQUESTED] != st->dropped_interruptible ||
	    c->by_drop[LT_DROP_MAXTIME] != st->dropped_maxtime ||
	    c->by_drop[LT_DROP_BEFORE_COMPLETE] != st->dropped_incomplete ||
	    c->by_drop[LT_DROP_ACROSS_LOST] != st->dropped_gap ||
	    c->by_drop[LT_DROP_PREEMPTED_OR_NEW] != st->cpu_waits_unwoken ||
	    c->by_drop[LT_DROP_BEGAN_BEFORE] != st->began_before_trace ||
	    c->by_drop[LT_DROP_UNFINISHED] != st->unfinished ||
	    c->by_drop[LT_DROP_NO_SWITCH_IN] != st->no_switch_in ||
	    c->by_drop[LT_DROP_LOST_TRACK] != st->discarded_lost ||
	    c->cpu_no_switch_in != st->cpu_waits_no_switch_in)
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct lt_replay_opts ro = { 0 };
	struct notes notes = { { 0 } };
	struct lt_report_priv *priv;
	struct lt_error err;
	uint64_t ts = 1000000000;
	struct lt_ev ev;
	char *text;
	size_t len, i;
	FILE *out;

	if (size < 2)
		return 0;
	priv = calloc(1, sizeof(*priv));
	if (!priv)
		return 0;
	lt_options_init(&priv->pub.options);
	ro.sleep_cutoff_ns = data[0] & 1 ? 5000000 : 0;
	ro.honour_maxtime = data[0] & 2;
	ro.window_ns = data[0] & 4 ? 1000000 : 0;
	ro.from_ns = data[0] & 8 ? 500000 : -1;
	ro.to_ns = data[0] & 16 ? 50000000 : -1;
	ro.resolve = data[0] & 32 ? resolve : NULL;
	ro.on_note = count_note;
	ro.note_ctx = &notes;
	priv->pub.options.window_ns = ro.window_ns;
	priv->pub.options.from_ns = ro.from_ns;
	priv->pub.options.to_ns = ro.to_ns;
	priv->pub.options.kernel_threads = data[1] & 1;
	priv->pub.options.sort = (enum lt_sort)(data[1] >> 1 & 3);
	priv->pub.options.per_thread = data[1] & 8;
	priv->pub.options.stacks = data[1] & 16;
	if (lt_replay_init(&priv->replay, &ro) < 0)
		goto out;
	priv->have_replay = true;
	for (i = 2; i + EV_BYTES <= size; i += EV_BYTES) {
		decode(data + i, &ts, &ev);
		if (lt_replay_feed(&priv->replay, &ev) < 0)
			goto out;
	}
	if (lt_replay_finish(&priv->replay) < 0)
		goto out;
	check(&priv->replay);
	check_notes(&priv->replay, &notes);

	priv->pub.path = "fuzz";
	priv->pub.compression = "none";
	priv->pub.uname = priv->pub.clock = "";
	priv->pub.start_ns = priv->replay.stats.first_ts;
	priv->pub.end_ns = priv->replay.stats.last_ts;
	priv->pub.whole.start_ns = priv->replay.origin_ns;
	priv->pub.whole.end_ns = priv->replay.stats.last_ts;
	if (lt_report_build(priv, sym, NULL, NULL, &err) < 0)
		goto out;
	out = open_memstream(&text, &len);
	if (out) {
		for (i = 0; i <= LT_FORMAT_FOLDED; i++)
			lt_report_write(&priv->pub, (enum lt_format)i, out, &err);
		fclose(out);
		free(text);
	}
out:
	lt_report_free(&priv->pub);
	return 0;
}
