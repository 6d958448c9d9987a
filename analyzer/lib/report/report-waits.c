// SPDX-License-Identifier: LGPL-2.1
/*
 * report-waits.c - every wait the replay saw, handed to lt_options.waits
 * once its cause is final, in constant memory.
 *
 * A wait's cause is not always known when it is charged: a kernel
 * stack's translation waits for lt_replay_finish() (the symbols load
 * meanwhile), and a provisional charge may move to an outer reason found
 * later (replay.c).  So the replay's notes go to a temporary file, 48
 * bytes a wait, in the order they came; what is kept in memory is per
 * task: its commit epoch, and its re-charges (at most a few each).  Once
 * the replay is finished, the file is read back and each wait handed
 * over with its final cause: a provisional wait took the cause of the
 * last re-charge of its task in the same epoch after it, if any, as the
 * report's rows did.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lt-report.h"

enum { F_START = 1, F_END = 2, F_PROVISIONAL = 4 };

struct rec {
	uint64_t start, end;
	uint32_t task, cause, stack, epoch;
	uint32_t waker_task, waker_stack;	/* what ended it (issue 48) */
	uint8_t state, drop, flags, waker_kind;
};

struct recharge {
	uint32_t task, epoch, cause;
	uint64_t seq;		/* records before it are its task's to move */
};

struct lt_waits_spill {
	FILE *f;
	char dir[4096];			/* where the file is, for messages */
	int failed;			/* errno of the first failed note */
	uint64_t nr;			/* records written */
	uint32_t *epoch;		/* per task: commits so far */
	uint32_t nr_epoch;
	struct recharge *rc;
	size_t nr_rc, cap_rc;
};

struct lt_waits_spill *lt_waits_spill_new(struct lt_error *err)
{
	const char *dir = getenv("TMPDIR");
	struct lt_waits_spill *s;
	char path[4096];
	int fd;

	if (!dir || !*dir)
		dir = "/tmp";
	snprintf(path, sizeof(path), "%s/latency-waits-XXXXXX", dir);
	s = calloc(1, sizeof(*s));
	if (!s) {
		lt_error_set(err, LT_E_NOMEM, "out of memory");
		return NULL;
	}
	snprintf(s->dir, sizeof(s->dir), "%s", dir);
	fd = mkstemp(path);
	if (fd < 0) {
		lt_error_set(err, LT_E_IO, "%s: cannot make a temporary file for "
			     "the waits: %s", dir, strerror(errno));
		free(s);
		return NULL;
	}
	/* gone with the process, whatever happens to it */
	unlink(path);
	s->f = fdopen(fd, "w+b");
	if (!s->f) {
		lt_error_set(err, LT_E_IO, "%s: %s", path, strerror(errno));
		close(fd);
		free(s);
		return NULL;
	}
	return s;
}

void lt_waits_spill_free(struct lt_waits_spill *s)
{
	if (!s)
		return;
	if (s->f)
		fclose(s->f);
	free(s->epoch);
	free(s->rc);
	free(s);
}

/* Task @task's epoch slot: 0, or -1 (errno ENOMEM). */
static int epoch_slot(struct lt_waits_spill *s, uint32_t task)
{
	uint32_t n;
	uint32_t *p;

	if (task < s->nr_epoch)
		return 0;
	n = s->nr_epoch ? s->nr_epoch : 256;
	while (n <= task)
		n *= 2;
	p = realloc(s->epoch, (size_t)n * sizeof(*p));
	if (!p) {
		errno = ENOMEM;
		return -1;
	}
	memset(p + s->nr_epoch, 0, (size_t)(n - s->nr_epoch) * sizeof(*p));
	s->epoch = p;
	s->nr_epoch = n;
	return 0;
}

/* The first failure, remembered for lt_waits_spill_failed(). */
static int note_failed(struct lt_waits_spill *s)
{
	if (!s->failed)
		s->failed = errno ? errno : EIO;
	errno = s->failed;
	return -1;
}

bool lt_waits_spill_failed(const struct lt_waits_spill *s, const char *path,
			   struct lt_error *err)
{
	if (!s || !s->failed)
		return false;
	lt_error_set(err, s->failed == ENOMEM ? LT_E_NOMEM : LT_E_IO,
		     "%s: cannot keep its waits in a temporary file in %s: %s",
		     path, s->dir, strerror(s->failed));
	return true;
}

int lt_waits_spill_note(void *ctx, const struct lt_wait_note *n)
{
	struct lt_waits_spill *s = ctx;
	struct rec r;

	if (epoch_slot(s, n->task) < 0)
		return note_failed(s);
	switch (n->kind) {
	case LT_NOTE_COMMIT:
		s->epoch[n->task]++;
		return 0;
	case LT_NOTE_RECHARGE:
		if (s->nr_rc == s->cap_rc) {
			size_t ncap = s->cap_rc ? s->cap_rc * 2 : 64;
			struct recharge *p = realloc(s->rc, ncap * sizeof(*p));

			if (!p) {
				errno = ENOMEM;
				return note_failed(s);
			}
			s->rc = p;
			s->cap_rc = ncap;
		}
		s->rc[s->nr_rc++] = (struct recharge){ n->task, s->epoch[n->task],
						       n->cause, s->nr };
		return 0;
	case LT_NOTE_WAIT:
		break;
	}
	memset(&r, 0, sizeof(r));
	r.start = n->start_known ? n->start : 0;
	r.end = n->end_known ? n->end : 0;
	r.task = n->task;
	r.cause = n->cause;
	r.stack = n->stack;
	r.epoch = s->epoch[n->task];
	r.state = (uint8_t)n->state;
	r.drop = (uint8_t)n->drop;
	r.flags = (n->start_known ? F_START : 0) | (n->end_known ? F_END : 0) |
		  (n->provisional ? F_PROVISIONAL : 0);
	r.waker_kind = n->waker.kind;
	r.waker_task = n->waker.task;
	r.waker_stack = n->waker.stack;
	if (fwrite(&r, sizeof(r), 1, s->f) != 1)
		return note_failed(s);
	s->nr++;
	return 0;
}

static int cmp_rc(const void *pa, const void *pb)
{
	const struct recharge *a = pa, *b = pb;

	if (a->task != b->task)
		return a->task < b->task ? -1 : 1;
	if (a->epoch != b->epoch)
		return a->epoch < b->epoch ? -1 : 1;
	return (a->seq > b->seq) - (a->seq < b->seq);
}

/*
 * The cause record @seq ends with: its task's last re-charge in its
 * epoch, if that came after it, else its own.
 */
static uint32_t final_cause(const struct lt_waits_spill *s, const struct rec *r,
			    uint64_t seq)
{
	size_t lo = 0, hi = s->nr_rc;

	if (!(r->flags & F_PROVISIONAL) || r->drop != LT_DROP_NONE)
		return r->cause;
	/* the first entry past (task, epoch): the group's last is before it */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct recharge *m = &s->rc[mid];

		if (m->task < r->task || (m->task == r->task && m->epoch <= r->epoch))
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo && s->rc[lo - 1].task == r->task && s->rc[lo - 1].epoch == r->epoch &&
	    s->rc[lo - 1].seq > seq)
		return s->rc[lo - 1].cause;
	return r->cause;
}

static char state_letter(uint8_t state)
{
	switch (state) {
	case LT_STATE_SLEEP:
		return 'S';
	case LT_STATE_BLOCKED:
		return 'D';
	case LT_STATE_IDLE:
		return 'I';
	case LT_STATE_RUNNABLE:
		return 'R';
	case LT_STATE_STOPPED:
		return 'T';
	case LT_STATE_TRACED:
		return 't';
	default:
		return '?';
	}
}

static void cause_of(const struct lt_replay *rp, uint32_t cause,
		     struct lt_wait *w)
{
	uint32_t c = lt_replay_cause(rp, cause);

	if (!c) {
		w->reason = w->argument = "";
		w->kind = LT_CAUSE_UNKNOWN;
		return;
	}
	w->reason = lt_replay_str(rp, rp->causes[c].reason);
	w->argument = lt_replay_str(rp, rp->causes[c].argument);
	w->kind = rp->causes[c].kind;
}

/* What ended the wait, its stack said a timer's once resolved. */
static void waker_of(const struct lt_replay *rp, const struct rec *r,
		     struct lt_wait *w)
{
	struct lt_chain_waker k = { .kind = r->waker_kind,
				    .task = r->waker_task,
				    .stack = r->waker_stack };

	w->waker_tid = -1;
	if (!k.kind)
		return;
	w->waker_kind = lt_waker_kind_name(rp, &k);
	if (!strcmp(w->waker_kind, "task") && k.task < rp->nr_tasks) {
		w->waker_tid = rp->tasks[k.task].pid;
		w->waker_comm = lt_replay_task_comm(rp, k.task);
	}
}

static int failed(struct lt_error *err, const char *what)
{
	lt_error_set(err, LT_E_IO, "cannot %s the waits: %s", what,
		     strerror(errno ? errno : EIO));
	return -1;
}

int lt_waits_spill_each(struct lt_waits_spill *s, const struct lt_replay *rp,
			const char *trace_id, const struct lt_task_filter *tasks,
			lt_wait_fn fn, void *ctx, struct lt_error *err)
{
	bool *sel = NULL;
	signed char *kthread;
	struct rec r;
	struct lt_wait w;
	uint64_t seq;
	int ret = -1;

	/* the last records are written by this flush: a full disk shows here */
	if (fflush(s->f) || fseek(s->f, 0, SEEK_SET)) {
		note_failed(s);
		return -1;
	}
	/*
	 * each task's kind, once: telling a kernel thread by its name and
	 * its parents took a third of the time of a million waits
	 */
	kthread = malloc(rp->nr_tasks ? rp->nr_tasks : 1);
	if (!kthread) {
		lt_error_set(err, LT_E_NOMEM, "out of memory");
		return -1;
	}
	memset(kthread, -1, rp->nr_tasks);
	/* the tasks the report counts (--pid, --tid, --comm), no others */
	if (lt_task_filter_active(tasks)) {
		sel = lt_report_select_tasks(rp, tasks);
		if (!sel) {
			lt_error_set(err, LT_E_NOMEM, "out of memory");
			free(kthread);
			return -1;
		}
	}
	/* none at all is the common case: qsort() must not see NULL */
	if (s->nr_rc > 1)
		qsort(s->rc, s->nr_rc, sizeof(*s->rc), cmp_rc);
	for (seq = 0; seq < s->nr; seq++) {
		if (fread(&r, sizeof(r), 1, s->f) != 1) {
			note_failed(s);
			goto out;
		}
		if (sel && !sel[r.task])
			continue;
		memset(&w, 0, sizeof(w));
		w.trace_id = trace_id;
		w.tid = rp->tasks[r.task].pid;
		w.pid = rp->tasks[rp->tasks[r.task].leader].pid;
		w.comm = lt_replay_task_comm(rp, r.task);
		w.cgroup = lt_replay_task_cgroup(rp, r.task);
		if (!w.cgroup)
			w.cgroup = lt_replay_task_cgroup(rp,
					rp->tasks[r.task].leader);
		if (kthread[r.task] < 0)
			kthread[r.task] = lt_replay_task_is_kthread(rp, r.task);
		w.kernel_thread = kthread[r.task];
		cause_of(rp, final_cause(s, &r, seq), &w);
		w.state = state_letter(r.state);
		w.start_known = r.flags & F_START;
		w.end_known = r.flags & F_END;
		w.start_ns = r.start;
		w.end_ns = r.end;
		w.dropped = lt_wait_drop_name((enum lt_wait_drop)r.drop);
		w.stack_id = r.stack;
		waker_of(rp, &r, &w);
		errno = 0;
		if (fn(ctx, &w) < 0) {
			failed(err, "write");
			goto out;
		}
	}
	ret = 0;
out:
	free(sel);
	free(kthread);
	return ret;
}

/* Every stack, symbolised as the report shows it. */
static int emit_stacks(const struct lt_replay *rp, const char *trace_id,
		       lt_symbol_fn sym, void *sym_ctx,
		       const struct lt_options *opts, struct lt_error *err)
{
	struct lt_wait_stack st;
	const char **names = NULL;
	uint32_t id, nr, k, cap = 0;
	const uint64_t *frames;
	int ret = -1;

	for (id = 1; id < rp->nr_stacks; id++) {
		uint32_t c = rp->stacks[id].cause;

		frames = lt_replay_stack_frames(rp, id, &nr);
		if (nr > cap) {
			const char **p = realloc(names, nr * sizeof(*p));

			if (!p) {
				lt_error_set(err, LT_E_NOMEM, "out of memory");
				goto out;
			}
			names = p;
			cap = nr;
		}
		for (k = 0; k < nr; k++)
			names[k] = sym(sym_ctx, frames[k]);
		memset(&st, 0, sizeof(st));
		st.trace_id = trace_id;
		st.id = id;
		st.reason = c < rp->nr_causes ? lt_replay_str(rp, rp->causes[c].reason) : "";
		st.kind = c < rp->nr_causes ? rp->causes[c].kind : LT_CAUSE_UNKNOWN;
		st.kernel_thread = rp->stacks[id].kernel_thread;
		/* the tracer's own frames above the scheduler, as the report */
		for (k = 0; k < nr && strcmp(names[k], "__schedule"); k++)
			;
		if (k == nr)
			k = 0;
		st.frames = names + k;
		st.nr_frames = nr - k;
		errno = 0;
		if (opts->wait_stacks(opts->waits_ctx, &st) < 0) {
			failed(err, "write the stacks of");
			goto out;
		}
	}
	ret = 0;
out:
	free(names);
	return ret;
}

int lt_waits_spill_emit(struct lt_waits_spill *s, const struct lt_replay *rp,
			const char *trace_id, lt_symbol_fn sym, void *sym_ctx,
			const struct lt_options *opts, struct lt_error *err)
{
	if (lt_waits_spill_each(s, rp, trace_id, &opts->tasks, opts->waits,
				opts->waits_ctx, err) < 0)
		return -1;
	return opts->wait_stacks ?
	       emit_stacks(rp, trace_id, sym, sym_ctx, opts, err) : 0;
}
