// SPDX-License-Identifier: LGPL-2.1
/*
 * input-perf.c - perf record's perf.data as an input (lt-input.h).
 *
 * The reader (perf/) hands out records in time order; tracepoint samples
 * go through the decoder as a trace.dat's records do, and the rest become
 * the events the replay knows: COMM a task's name (an exec too), FORK a
 * new task or thread, EXIT its end, LOST a gap on its CPU.  A
 * sched_switch sample's call chain is the switch-out stack of the task
 * leaving the CPU, as trace-cmd's -T stack is, with the task's own user
 * frames below the kernel's (lt-usym.h keeps where its binaries were
 * mapped, from MMAP records).
 *
 * perf.data carries no kernel symbols: they come from --kallsyms, perf's
 * build-id cache (~/.debug, which perf record fills), or /proc/kallsyms
 * when the running kernel is the one recorded.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lt-input.h"
#include "lt-perf.h"
#include "lt-pidtab.h"
#include "lt-pipe.h"
#include "lt-thread.h"
#include "lt-usym.h"

#define MAX_FRAMES	255	/* kernel, marker and user: a replay's stack */
#define PERF_MISC_KERNEL	1	/* PERF_RECORD_MISC_KERNEL */

/* Names perf synthesized before any record with a time: given then. */
struct early_comm {
	int tid;
	char comm[16];
};

/* A cgroup a CGROUP record named, or a sample's id no record named. */
struct perf_cgroup {
	uint64_t id;
	char *path;
};

struct perf_in {
	struct lt_perf *perf;
	struct lt_usym *usym;
	char uname[320];
	char clock[32];
	char sym_note[600];	/* why kernel frames stay addresses, or "" */
	uint64_t frames[MAX_FRAMES + 1];
	struct early_comm *early;
	size_t nr_early, cap_early;
	char *kallsyms;		/* --kallsyms, or NULL */
	bool ksyms_tried;
	/*
	 * perf record --all-cgroups: the cgroups named (CGROUP records)
	 * and, per thread, the one its last sample was in (an index of
	 * @cgroups), told to the replay when it changes.
	 */
	struct perf_cgroup *cgroups;
	uint32_t nr_cgroups, cap_cgroups;
	struct lt_pidtab task_cgroup;
};

static struct perf_in *priv_of(const struct lt_input *in)
{
	return in->priv;
}

static const char *clock_name(int clockid)
{
	switch (clockid) {
	case -1:
		return "perf";
	case 0:
		return "realtime";
	case 1:
		return "mono";
	case 4:
		return "mono_raw";
	case 7:
		return "boot";
	case 11:
		return "tai";
	default:
		return "other";
	}
}

static int pf_open(struct lt_input *in, const char *path,
		   const struct lt_input_open *o, struct lt_error *err)
{
	const struct lt_perf_info *pi;
	struct perf_in *p = calloc(1, sizeof(*p));

	if (!p) {
		lt_error_set(err, LT_E_NOMEM, "%s: out of memory", path);
		return -1;
	}
	/* a perf.data has one stream of samples */
	if (o->buffer) {
		lt_error_set(err, LT_E_USAGE, "%s: --buffer: a perf.data has no "
			     "buffers to choose from (trace.dat instances only)",
			     path);
		free(p);
		return -1;
	}
	if (lt_perf_open(&p->perf, path, NULL, err) < 0) {
		free(p);
		return -1;
	}
	lt_pidtab_init(&p->task_cgroup);
	pi = lt_perf_info(p->perf);
	in->formats = lt_perf_trace(p->perf);
	if (!in->formats) {
		lt_error_set(err, LT_E_NO_EVENTS,
			     "%s: a perf.data with no tracepoints (its events "
			     "carry no scheduler data); record with: perf record "
			     "-e sched:sched_switch -e sched:sched_wakeup -g -a "
			     "-- <workload>, and -e 'latencytop:*' where the "
			     "kernel has those events (perf says \"unknown "
			     "tracepoint\" where it has not)", path);
		lt_perf_close(p->perf);
		free(p);
		return -1;
	}
	p->usym = lt_usym_new();
	if (!p->usym) {
		lt_error_set(err, LT_E_NOMEM, "%s: out of memory", path);
		lt_perf_close(p->perf);
		free(p);
		return -1;
	}
	if (pi->os_release[0])
		snprintf(p->uname, sizeof(p->uname), "Linux %s %s %s",
			 pi->hostname[0] ? pi->hostname : "?", pi->os_release,
			 pi->arch);
	snprintf(p->clock, sizeof(p->clock), "%s", clock_name(pi->clockid));
	if (o->kallsyms && !(p->kallsyms = strdup(o->kallsyms))) {
		lt_error_set(err, LT_E_NOMEM, "%s: out of memory", path);
		lt_usym_free(p->usym);
		lt_perf_close(p->perf);
		free(p);
		return -1;
	}
	in->priv = p;
	in->info.path = pi->path;
	in->info.format = "perf";
	in->info.version = 2;		/* PERFILE2, the only one perf writes */
	in->info.compression = pi->compression;
	in->info.uname = p->uname;
	in->info.clock = p->clock;
	in->info.cpus = pi->nr_cpus_avail > 0 ? pi->nr_cpus_avail :
			pi->nr_cpus_online > 0 ? pi->nr_cpus_online : 0;
	return 0;
}

static void pf_close(struct lt_input *in)
{
	struct perf_in *p = priv_of(in);

	uint32_t i;

	lt_usym_free(p->usym);
	lt_perf_close(p->perf);
	for (i = 0; i < p->nr_cgroups; i++)
		free(p->cgroups[i].path);
	free(p->cgroups);
	lt_pidtab_free(&p->task_cgroup);
	free(p->early);
	free(p->kallsyms);
	free(p);
}

/*
 * perf.data is one stream: one thread reads and decodes it while another
 * replays (lt_pipe_stream()), so two threads at most; on a small file,
 * where the second thread's start costs what it saves, one.  A stream's
 * size is not known: it is taken for a large one.
 */
#define PERF_EVENT_BYTES	100	/* a tracepoint's sample, no call chain */

static unsigned int pf_threads(struct lt_input *in, unsigned int asked)
{
	uint64_t done, total;

	if (asked)
		return asked > 2 ? 2 : asked;
	lt_perf_progress(priv_of(in)->perf, &done, &total);
	return lt_pipe_auto_threads_for(total ? total / PERF_EVENT_BYTES :
					UINT64_MAX,
					lt_thread_usable_cpus() > 1 ? 2 : 1);
}

/* ---- records to events -------------------------------------------------- */

/*
 * On two threads, one reads the records in time order and hands them on
 * through the pipe (lt_pipe_stream()) as they are; the caller's decodes
 * the samples and replays, so that the two share the work about evenly
 * (reading had 70% of the instructions when it decoded too).  What goes
 * through the pipe is a struct lt_ev, but for these two:
 */
#define PF_RAW		0xfe	/* origin: a tracepoint's payload, at str
				   (str_len bytes), id in pid2, its format
				   in value; frames: its stack, if a switch,
				   or its waker's kernel frames */
#define PF_LAST_TS	0xfd	/* origin: an event at the time of the last
				   one replayed (its record had none) */

struct pf_run {
	struct lt_input *in;
	struct perf_in *p;
	const struct lt_input_run *cfg;
	struct lt_input_result *res;
	unsigned int other;		/* by_id's slot for ids of no format */
	/* the reading thread's */
	struct lt_pipe_out *out;	/* where the records go */
	unsigned int switch_id;		/* sched_switch's, or UINT_MAX */
	unsigned int waking_id, wakeup_id;	/* sched_waking's, sched_wakeup's */
	bool have_first;
	uint64_t first_ts;
	/* the replaying thread's */
	lt_input_event_fn event;
	lt_input_progress_fn progress;
	void *ctx;
	uint64_t last_ts;		/* of the last event replayed */
};

/* The reading thread's: an event, or a sample to decode, handed on. */
static int feed(struct pf_run *r, const struct lt_ev *ev)
{
	return lt_pipe_put(r->out, ev);
}

static void ev_clear(struct lt_ev *ev, uint64_t ts, int cpu)
{
	memset(ev, 0, sizeof(*ev));
	ev->ts = ts;
	ev->cpu = (int16_t)(cpu >= 0 && cpu < LT_EV_CPU_LIMIT ? cpu : -1);
	ev->origin = LT_EV_NO_ORIGIN;
}

/*
 * The switch-out stack in a sched_switch sample's call chain into
 * p->frames: the kernel's frames, then past LT_FRAME_USER the task's
 * own, encoded where its binaries are (as the mappings stand at the
 * sample, known to the reading thread).  Returns how many.
 */
static uint16_t stack_of(struct perf_in *p, const struct lt_perf_record *rec)
{
	uint32_t nk = rec->sample.nr_kernel_frames;
	uint32_t nu = rec->sample.nr_user_frames, i, n = 0;

	if (nk > MAX_FRAMES)
		nk = MAX_FRAMES;
	for (i = 0; i < nk; i++)
		p->frames[n++] = rec->sample.kernel_frames[i];
	if (nu && n + 1 < MAX_FRAMES) {
		p->frames[n++] = LT_FRAME_USER;
		for (i = 0; i < nu && n < MAX_FRAMES; i++)
			p->frames[n++] = lt_usym_encode(p->usym, rec->pid,
						       rec->sample.user_frames[i]);
	}
	return (uint16_t)n;
}

/*
 * The cgroup of @id: its index in p->cgroups, made (named @path, or
 * "[cgroup id N]" for NULL, when no CGROUP record named it) if new, or
 * renamed when @path is given; UINT32_MAX when out of memory.
 */
static uint32_t cgroup_of(struct perf_in *p, uint64_t id, const char *path,
			  size_t len)
{
	struct perf_cgroup *c;
	char buf[48];
	uint32_t i;
	char *name;

	for (i = 0; i < p->nr_cgroups; i++)
		if (p->cgroups[i].id == id)
			break;
	if (i < p->nr_cgroups && !path)
		return i;
	if (!path) {
		len = (size_t)snprintf(buf, sizeof(buf), "[cgroup id %llu]",
				       (unsigned long long)id);
		path = buf;
	}
	name = strndup(path, len);
	if (!name)
		return UINT32_MAX;
	if (i == p->nr_cgroups) {
		if (p->nr_cgroups == p->cap_cgroups) {
			uint32_t cap = p->cap_cgroups ? p->cap_cgroups * 2 : 16;

			c = cap > (1u << 24) ? NULL :
			    realloc(p->cgroups, cap * sizeof(*c));
			if (!c) {
				free(name);
				return UINT32_MAX;
			}
			p->cgroups = c;
			p->cap_cgroups = cap;
		}
		p->cgroups[p->nr_cgroups++].id = id;
	} else {
		free(p->cgroups[i].path);
	}
	p->cgroups[i].path = name;
	return i;
}

/* A sample's task in the cgroup it names: told when that changes. */
static int feed_cgroup(struct pf_run *r, const struct lt_perf_record *rec)
{
	struct perf_in *p = r->p;
	uint32_t was = lt_pidtab_get(&p->task_cgroup, rec->tid), i;
	struct lt_ev ev;

	if (was != LT_PIDTAB_NONE && p->cgroups[was].id == rec->sample.cgroup)
		return 0;
	i = cgroup_of(p, rec->sample.cgroup, NULL, 0);
	if (i == UINT32_MAX || lt_pidtab_set(&p->task_cgroup, rec->tid, i) < 0) {
		lt_error_set(&r->res->damage, LT_E_NOMEM, "out of memory");
		return -2;
	}
	ev_clear(&ev, rec->ts, -1);
	ev.kind = LT_EV_CGROUP;
	ev.pid = rec->tid;
	ev.str = p->cgroups[i].path;
	ev.str_len = (uint16_t)strnlen(ev.str, LT_EV_STR_MAX);
	return feed(r, &ev);
}

/* The reading thread's: a tracepoint's sample, with its stack if any. */
static int on_sample(struct pf_run *r, const struct lt_perf_record *rec)
{
	const struct lt_record *raw = &rec->sample.raw;
	struct lt_ev it;
	int ret;

	if (rec->sample.cgroup && rec->tid > 0 && rec->ts &&
	    (ret = feed_cgroup(r, rec)) < 0)
		return ret;
	if (!raw->size)
		return 0;	/* not a tracepoint's: nothing for the replay */
	memset(&it, 0, sizeof(it));
	it.kind = LT_EV_OTHER;
	it.origin = PF_RAW;
	it.ts = raw->ts;
	it.cpu = (int16_t)raw->cpu;	/* < LT_TRACE_CPU_LIMIT, or -1 */
	it.pid2 = raw->id;
	it.value = (uintptr_t)raw->type;
	it.str = (const char *)raw->data;
	it.str_len = (uint16_t)raw->size;	/* a record is < 64 KB */
	if (!rec->sample.callchain || rec->sample.bad_callchain)
		return feed(r, &it);
	/* a switch-out's stack, taken in the context of the task leaving */
	if (raw->id == r->switch_id) {
		it.nr_frames = stack_of(r->p, rec);
	} else if (raw->id == r->waking_id || raw->id == r->wakeup_id) {
		/* the waker's kernel frames: a timer's expiry, or not */
		it.nr_frames = (uint16_t)(rec->sample.nr_kernel_frames < MAX_FRAMES ?
					  rec->sample.nr_kernel_frames : MAX_FRAMES);
		memcpy(r->p->frames, rec->sample.kernel_frames,
		       it.nr_frames * sizeof(uint64_t));
	}
	if (it.nr_frames)
		it.frames = r->p->frames;
	return feed(r, &it);
}

/* The replaying thread's: an event replayed. */
static int deliver(struct pf_run *r, const struct lt_ev *ev)
{
	if (ev->ts)
		r->last_ts = ev->ts;
	return r->event(r->ctx, ev);
}

/* The replaying thread's: a sample decoded and replayed. */
static int replay_sample(struct pf_run *r, const struct lt_ev *it)
{
	const struct lt_record raw = {
		.kind = LT_REC_EVENT,
		.cpu = it->cpu,
		.ts = it->ts,
		.id = (uint16_t)it->pid2,
		.type = (const struct lt_event_type *)(uintptr_t)it->value,
		.data = (const unsigned char *)it->str,
		.size = it->str_len,
	};
	struct lt_ev ev, st;

	r->cfg->by_id[raw.id < r->other ? raw.id : r->other]++;
	r->res->events++;
	if (!lt_decode_record(r->cfg->dec, &raw, &ev))
		return 0;
	if (deliver(r, &ev) < 0)
		return -1;
	/* the stack of the task leaving the CPU, taken in its context */
	if (!it->nr_frames)
		return 0;
	/* a wakeup's kernel stack: whether a timer's expiry did it */
	if (ev.kind == LT_EV_WAKING || ev.kind == LT_EV_WAKEUP) {
		ev_clear(&st, ev.ts, ev.cpu);
		st.kind = LT_EV_STACK;
		st.waking_stack = 1;
		st.pid = ev.current;
		st.frames = it->frames;
		st.nr_frames = it->nr_frames;
		return deliver(r, &st);
	}
	if (ev.kind != LT_EV_SWITCH || ev.pid <= 0)
		return 0;
	ev_clear(&st, ev.ts, ev.cpu);
	st.kind = LT_EV_STACK;
	st.origin = LT_SRC_STACK;	/* counted as the source of stacks */
	st.pid = ev.pid;
	st.frames = it->frames;
	st.nr_frames = it->nr_frames;
	return deliver(r, &st);
}

/* The replaying thread's end of the pipe (lt_input_event_fn). */
static int pf_consume(void *ctx, const struct lt_ev *it)
{
	struct pf_run *r = ctx;
	struct lt_ev ev;

	if (it->origin == PF_RAW)
		return replay_sample(r, it);
	if (it->origin != PF_LAST_TS)
		return deliver(r, it);
	ev = *it;
	ev.ts = r->last_ts;
	ev.origin = LT_EV_NO_ORIGIN;
	return deliver(r, &ev);
}

static void pf_progress(void *ctx, uint64_t done, uint64_t total)
{
	struct pf_run *r = ctx;

	r->progress(r->ctx, done, total);
}

/* A task's name before any record with a time: held until there is one. */
static int hold_comm(struct perf_in *p, const struct lt_perf_record *rec)
{
	struct early_comm *e;
	size_t n = rec->comm.len < 15 ? rec->comm.len : 15;

	if (p->nr_early == p->cap_early) {
		size_t cap = p->cap_early ? p->cap_early * 2 : 256;

		/* a name a possible pid at most: Linux's 4M */
		if (cap > (4u << 20))
			return 0;
		e = realloc(p->early, cap * sizeof(*e));
		if (!e)
			return -1;
		p->early = e;
		p->cap_early = cap;
	}
	e = &p->early[p->nr_early++];
	e->tid = rec->tid;
	memcpy(e->comm, rec->comm.comm, n);
	e->comm[n] = '\0';
	return 0;
}

static int feed_early(struct pf_run *r, uint64_t ts)
{
	struct perf_in *p = r->p;
	struct lt_ev ev;
	size_t i;

	for (i = 0; i < p->nr_early; i++) {
		ev_clear(&ev, ts, -1);
		ev.kind = LT_EV_RENAME;
		ev.pid = p->early[i].tid;
		ev.str = p->early[i].comm;
		ev.str_len = (uint16_t)strlen(p->early[i].comm);
		if (feed(r, &ev) < 0)
			return -1;
	}
	free(p->early);
	p->early = NULL;
	p->nr_early = p->cap_early = 0;
	return 0;
}

static int on_side(struct pf_run *r, const struct lt_perf_record *rec)
{
	struct perf_in *p = r->p;
	struct lt_ev ev;

	switch (rec->kind) {
	case LT_PERF_MMAP:
		/* the kernel's own maps name no user binary */
		if (rec->pid < 0 || (rec->misc & 7) == PERF_MISC_KERNEL)
			return 0;
		lt_usym_map(p->usym, rec->pid, rec->mmap.addr, rec->mmap.len,
			    rec->mmap.pgoff, rec->mmap.filename,
			    rec->mmap.filename_len,
			    rec->mmap.has_build_id ? rec->mmap.build_id : NULL,
			    rec->mmap.has_build_id ? rec->mmap.build_id_size : 0);
		return 0;
	case LT_PERF_COMM:
		if (rec->tid <= 0)
			return 0;
		if (!rec->ts && !r->have_first)
			return hold_comm(p, rec) < 0 ?
			       (lt_error_set(&r->res->damage, LT_E_NOMEM,
					     "out of memory"), -2) : 0;
		ev_clear(&ev, rec->ts, rec->cpu);
		if (!rec->ts)
			ev.origin = PF_LAST_TS;
		ev.pid = rec->tid;
		ev.str = rec->comm.comm;
		ev.str_len = (uint16_t)(rec->comm.len < LT_EV_STR_MAX ?
					rec->comm.len : LT_EV_STR_MAX);
		if (rec->comm.exec) {
			/* a new program: the old mappings are gone */
			lt_usym_exec(p->usym, rec->pid);
			ev.kind = LT_EV_EXEC;
			ev.pid2 = rec->tid;
		} else {
			ev.kind = LT_EV_RENAME;
		}
		return feed(r, &ev);
	case LT_PERF_FORK:
		if (rec->tid <= 0 || (!rec->ts && !r->have_first))
			return 0;
		if (rec->pid != rec->task.ppid)
			lt_usym_fork(p->usym, rec->task.ppid, rec->pid);
		ev_clear(&ev, rec->ts, rec->cpu);
		if (!rec->ts)
			ev.origin = PF_LAST_TS;
		ev.kind = LT_EV_NEWTASK;
		ev.pid = rec->task.ptid;
		ev.pid2 = rec->tid;
		/* a thread shares its parent's pid (its thread group) */
		ev.value = rec->pid == rec->task.ppid ? LT_CLONE_THREAD : 0;
		return feed(r, &ev);
	case LT_PERF_EXIT:
		if (rec->tid <= 0 || (!rec->ts && !r->have_first))
			return 0;
		ev_clear(&ev, rec->ts, rec->cpu);
		if (!rec->ts)
			ev.origin = PF_LAST_TS;
		ev.kind = LT_EV_EXIT;
		ev.pid = rec->tid;
		return feed(r, &ev);
	case LT_PERF_CGROUP:
		if (cgroup_of(p, rec->cgroup.id, rec->cgroup.path,
			      rec->cgroup.path_len) == UINT32_MAX) {
			lt_error_set(&r->res->damage, LT_E_NOMEM, "out of memory");
			return -2;
		}
		return 0;
	case LT_PERF_LOST:
		/* LOST_SAMPLES counts the LOST records' losses again */
		if (rec->lost.samples || rec->cpu < 0)
			return 0;
		ev_clear(&ev, rec->ts, rec->cpu);
		ev.kind = LT_EV_LOST;
		ev.value = rec->lost.count;
		return feed(r, &ev);
	default:
		return 0;
	}
}

/*
 * Every record, in time order, through the pipe (lt_pipe_make_fn): on a
 * thread of its own when there are two.  Only it touches the reader, the
 * user-space mappings and the decoder until it returns.
 */
static int pf_make(void *arg, struct lt_pipe_out *out, struct lt_error *err)
{
	struct pf_run *r = arg;
	const struct lt_input_run *cfg = r->cfg;
	struct lt_input_result *res = r->res;
	struct lt_perf_record rec;
	struct lt_error rerr;
	uint64_t done, total, n = 0;
	int ret;

	r->out = out;
	for (;;) {
		ret = lt_perf_next(r->p->perf, &rec, &rerr);
		if (ret < 0) {
			/* damage: stop, or with --partial go on past it */
			if (!cfg->partial || rerr.code == LT_E_NOMEM) {
				*err = rerr;
				return -1;
			}
			res->nr_damaged++;
			if (!res->damaged) {
				res->damaged = true;
				res->damage = rerr;
			}
			continue;
		}
		if (!ret)
			break;
		if (rec.ts && !r->have_first) {
			r->have_first = true;
			r->first_ts = rec.ts;
			if (feed_early(r, rec.ts) < 0)
				return -1;
		}
		if (cfg->to_ns >= 0 && r->have_first && rec.ts &&
		    rec.ts > r->first_ts + (uint64_t)cfg->to_ns) {
			res->cut = true;
			break;
		}
		ret = rec.kind == LT_PERF_SAMPLE ? on_sample(r, &rec) :
						   on_side(r, &rec);
		if (ret == -2) {
			*err = res->damage;
			return -1;
		}
		if (ret < 0)
			return -1;
		if (!(++n & 0xffff)) {
			lt_perf_progress(r->p->perf, &done, &total);
			lt_pipe_progress(out, done, total);
		}
	}
	lt_perf_progress(r->p->perf, &done, &total);
	lt_pipe_progress(out, total, total);
	return 0;
}

/* The id of the scheduler's event @name in @in, or UINT_MAX. */
static unsigned int event_id(const struct lt_input *in, const char *name)
{
	const struct lt_event_type *t =
		lt_trace_find_event(in->formats, "sched", name);

	return t ? lt_event_type_id(t) : UINT_MAX;
}

static int pf_run(struct lt_input *in, const struct lt_input_run *cfg,
		  lt_input_event_fn event, lt_input_progress_fn progress,
		  void *ctx, struct lt_input_result *res, struct lt_error *err)
{
	const struct lt_event_type *sw =
		lt_trace_find_event(in->formats, "sched", "sched_switch");
	struct pf_run r;
	int ret;

	memset(&r, 0, sizeof(r));
	r.in = in;
	r.p = priv_of(in);
	r.cfg = cfg;
	r.res = res;
	r.other = lt_trace_event_id_limit(in->formats);
	r.switch_id = sw ? lt_event_type_id(sw) : UINT_MAX;
	r.waking_id = event_id(in, "sched_waking");
	r.wakeup_id = event_id(in, "sched_wakeup");
	r.event = event;
	r.progress = progress;
	r.ctx = ctx;
	memset(res, 0, sizeof(*res));
	ret = lt_pipe_stream(pf_make, &r, cfg->threads, pf_consume,
			     progress ? pf_progress : NULL, &r, err);
	/* every frame is encoded: the mappings go before the report */
	lt_usym_maps_done(r.p->usym);
	return ret;
}

/* ---- symbols -------------------------------------------------------------- */

/* The build-id perf recorded for the kernel, as hex, or "". */
static void kernel_bid(const struct lt_perf *perf, char *hex)
{
	unsigned int i, k;

	hex[0] = '\0';
	for (i = 0; i < lt_perf_nr_build_ids(perf); i++) {
		const struct lt_perf_build_id *b = lt_perf_build_id(perf, i);

		if (strcmp(b->filename, "[kernel.kallsyms]"))
			continue;
		for (k = 0; k < b->size && k < 20; k++)
			sprintf(hex + 2 * k, "%02x", b->id[k]);
		return;
	}
}

/* The running kernel's build-id, from its ELF notes, as hex, or "". */
static void running_bid(char *hex)
{
	unsigned char buf[4096];
	ssize_t n;
	size_t off = 0;
	int fd = open("/sys/kernel/notes", O_RDONLY | O_CLOEXEC);

	hex[0] = '\0';
	if (fd < 0)
		return;
	n = read(fd, buf, sizeof(buf));
	close(fd);
	while (n > 0 && off + 12 <= (size_t)n) {
		uint32_t namesz, descsz, type, k;

		memcpy(&namesz, buf + off, 4);
		memcpy(&descsz, buf + off + 4, 4);
		memcpy(&type, buf + off + 8, 4);
		off += 12;
		if (namesz > (size_t)n || descsz > (size_t)n ||
		    off + ((namesz + 3) & ~3u) + descsz > (size_t)n)
			return;
		if (type == 3 && namesz == 4 && !memcmp(buf + off, "GNU", 4) &&
		    descsz <= 20) {
			off += 4;
			for (k = 0; k < descsz; k++)
				sprintf(hex + 2 * k, "%02x", buf[off + k]);
			return;
		}
		off += ((namesz + 3) & ~3u) + ((descsz + 3) & ~3u);
	}
}

static int pf_load_ksyms(struct lt_input *in, struct lt_error *err)
{
	struct perf_in *p = priv_of(in);
	struct lt_trace *t = (struct lt_trace *)in->formats;
	char want[41], now[41], path[4200];
	const char *home = getenv("HOME"), *kfile = p->kallsyms;
	struct lt_error kerr;

	/* tried already (on the loader thread): the same answer again */
	if (p->ksyms_tried) {
		if (!p->sym_note[0])
			return 0;
		goto none;
	}
	p->ksyms_tried = true;
	/* --kallsyms, then perf's cache, then /proc for the running kernel */
	if (kfile && *kfile) {
		if (!lt_trace_load_kallsyms_file(t, kfile, &kerr))
			return 0;
		snprintf(p->sym_note, sizeof(p->sym_note), "%s", kerr.msg);
		goto none;
	}
	kernel_bid(p->perf, want);
	if (want[0]) {
		snprintf(path, sizeof(path), "%s/.debug/.build-id/%.2s/%s/kallsyms",
			 home ? home : "/root", want, want + 2);
		if (!lt_trace_load_kallsyms_file(t, path, &kerr))
			return 0;
	}
	running_bid(now);
	if (want[0] && strcmp(want, now)) {
		snprintf(p->sym_note, sizeof(p->sym_note),
			 "the recorded kernel (build-id %.12s...) is not the one "
			 "running, and perf's cache has not its symbols", want);
		goto none;
	}
	if (!lt_trace_load_kallsyms_file(t, "/proc/kallsyms", &kerr))
		return 0;
	snprintf(p->sym_note, sizeof(p->sym_note), "%s", kerr.msg);
none:
	if (err)
		lt_error_set(err, LT_E_IO, "%s: no kernel symbols: %s",
			     in->info.path, p->sym_note);
	return -1;
}

static const char *pf_ksym(struct lt_input *in, uint64_t addr)
{
	if (!priv_of(in)->ksyms_tried)
		pf_load_ksyms(in, NULL);
	return lt_trace_ksym(in->formats, addr, NULL);
}

static const char *pf_frame_name(struct lt_input *in, uint64_t frame,
				 char *buf, size_t len)
{
	return lt_usym_name(priv_of(in)->usym, frame, buf, len);
}

static int pf_frame_names(struct lt_input *in, const uint64_t *frames,
			  size_t nr, lt_frame_name_fn fn, void *ctx)
{
	return lt_usym_name_all(priv_of(in)->usym, frames, nr, fn, ctx);
}

static void pf_frame_place(struct lt_input *in, uint64_t frame,
			   uint32_t *binary, uint64_t *offset)
{
	(void)in;
	lt_usym_place(frame, binary, offset);
}

/*
 * A binary, with the build-id its mappings had, else the one perf wrote
 * at the end for the file (its BUILD_ID feature: the binaries sampled).
 */
static const char *pf_binary(struct lt_input *in, unsigned int i, char *hex)
{
	const struct lt_perf *perf = priv_of(in)->perf;
	const char *path = lt_usym_binary(priv_of(in)->usym, i, hex);
	unsigned int k, n;

	for (k = 0; path && !hex[0] && k < lt_perf_nr_build_ids(perf); k++) {
		const struct lt_perf_build_id *b = lt_perf_build_id(perf, k);

		if (strcmp(b->filename, path))
			continue;
		for (n = 0; n < b->size && n < 20; n++)
			sprintf(hex + 2 * n, "%02x", b->id[n]);
	}
	return path;
}

static void pf_kernel_build_id(struct lt_input *in, char *hex)
{
	kernel_bid(priv_of(in)->perf, hex);
}

static const char *pf_task_name(struct lt_input *in, int pid)
{
	return lt_trace_cmdline((struct lt_trace *)in->formats, pid);
}

static int64_t pf_cpu_overrun(struct lt_input *in, int cpu)
{
	(void)in;
	(void)cpu;
	return -1;	/* perf counts losses in LOST records alone */
}

static const struct lt_input_recipe pf_recipe = {
	.record = "perf record",
	.qualified = true,
	.all_latencytop = "'latencytop:*'",
	.stacks = "-g",
	.stack_source = "perf:callchain",
	.workload = " -a -- <workload>",
	/* FORK records tell threads from processes */
	.forks = true,
};

const struct lt_input_ops lt_input_perf = {
	.name = "perf.data",
	.recipe = &pf_recipe,
	.open = pf_open,
	.close = pf_close,
	.threads = pf_threads,
	.run = pf_run,
	.load_ksyms = pf_load_ksyms,
	.ksym = pf_ksym,
	.frame_name = pf_frame_name,
	.frame_names = pf_frame_names,
	.frame_place = pf_frame_place,
	.binary = pf_binary,
	.kernel_build_id = pf_kernel_build_id,
	.task_name = pf_task_name,
	.cpu_overrun = pf_cpu_overrun,
};
