// SPDX-License-Identifier: LGPL-2.1
/*
 * decode.c - trace records to decoded events (lt-decode.h).
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "lt-decode.h"
#include "lt-probe-key.h"
#include "lt-thread.h"

/*
 * The stack pool is a cache for speed, not a store the results depend on:
 * past this, stacks travel as copies and the replay's own limits decide.
 */
#define POOL_MAX_FRAMES	(8u << 20)

const struct lt_src_desc lt_src_desc[LT_SRC_NR] = {
	[LT_SRC_SWITCH]		= { "sched", "sched_switch" },
	[LT_SRC_WAKEUP]		= { "sched", "sched_wakeup" },
	[LT_SRC_WAKEUP_NEW]	= { "sched", "sched_wakeup_new" },
	[LT_SRC_WAKING]		= { "sched", "sched_waking" },
	[LT_SRC_STAT_SLEEP]	= { "sched", "sched_stat_sleep" },
	[LT_SRC_STAT_BLOCKED]	= { "sched", "sched_stat_blocked" },
	[LT_SRC_STAT_IOWAIT]	= { "sched", "sched_stat_iowait" },
	[LT_SRC_REASON_SET]	= { "latencytop", "latency_reason_set" },
	[LT_SRC_REASON_RESTORE]	= { "latencytop", "latency_reason_restore" },
	[LT_SRC_FORK]		= { "sched", "sched_process_fork" },
	[LT_SRC_NEWTASK]	= { "task", "task_newtask" },
	[LT_SRC_EXEC]		= { "sched", "sched_process_exec" },
	[LT_SRC_EXIT]		= { "sched", "sched_process_exit" },
	[LT_SRC_RENAME]		= { "task", "task_rename" },
	[LT_SRC_STACK]		= { "ftrace", "kernel_stack" },
	[LT_SRC_CGROUP_ATTACH]	= { "cgroup", "cgroup_attach_task" },
	[LT_SRC_CGROUP_TRANSFER] = { "cgroup", "cgroup_transfer_tasks" },
};

/* Field names per source, in the order handlers read them (f[0], f[1], ...). */
static const char *const field_names[LT_SRC_NR][LT_DECODE_MAX_FIELDS] = {
	[LT_SRC_SWITCH]		= { "prev_comm", "prev_pid", "prev_state",
				    "next_comm", "next_pid" },
	[LT_SRC_WAKEUP]		= { "comm", "pid" },
	[LT_SRC_WAKEUP_NEW]	= { "comm", "pid" },
	[LT_SRC_WAKING]		= { "comm", "pid" },
	[LT_SRC_STAT_SLEEP]	= { "comm", "pid", "delay" },
	[LT_SRC_STAT_BLOCKED]	= { "comm", "pid", "delay" },
	[LT_SRC_STAT_IOWAIT]	= { "comm", "pid", "delay" },
	[LT_SRC_REASON_SET]	= { "reason", "argument", "maxtime_us", "cookie" },
	[LT_SRC_REASON_RESTORE]	= { "reason", "cookie" },
	[LT_SRC_FORK]		= { "parent_pid", "child_pid", "child_comm" },
	[LT_SRC_NEWTASK]	= { "pid", "comm", "clone_flags" },
	[LT_SRC_EXEC]		= { "filename", "pid", "old_pid" },
	[LT_SRC_EXIT]		= { "comm", "pid" },
	[LT_SRC_RENAME]		= { "pid", "newcomm" },
	[LT_SRC_STACK]		= { "size", "caller" },
	[LT_SRC_CGROUP_ATTACH]	= { "dst_root", "pid", "dst_path" },
	[LT_SRC_CGROUP_TRANSFER] = { "dst_root", "pid", "dst_path" },
};

/* Fields an event cannot be used without (bit per field_names index). */
static const unsigned int required[LT_SRC_NR] = {
	[LT_SRC_SWITCH]		= 0x16,	/* prev_pid, prev_state, next_pid */
	[LT_SRC_WAKEUP]		= 0x2,
	[LT_SRC_WAKEUP_NEW]	= 0x2,
	[LT_SRC_WAKING]		= 0x2,
	[LT_SRC_STAT_SLEEP]	= 0x6,
	[LT_SRC_STAT_BLOCKED]	= 0x6,
	[LT_SRC_STAT_IOWAIT]	= 0x6,
	[LT_SRC_REASON_SET]	= 0x9,	/* reason, cookie */
	[LT_SRC_REASON_RESTORE]	= 0x3,
	[LT_SRC_FORK]		= 0x3,
	[LT_SRC_NEWTASK]	= 0x1,
	[LT_SRC_EXEC]		= 0x2,
	[LT_SRC_EXIT]		= 0x2,
	[LT_SRC_RENAME]		= 0x3,
	[LT_SRC_STACK]		= 0x2,
	[LT_SRC_CGROUP_ATTACH]	= 0x7,
	[LT_SRC_CGROUP_TRANSFER] = 0x7,
};

/*
 * Linux 4.14 stored task_state_index() in prev_state (1 for S, 2 for D,
 * ... 8 for I) but still printed it with the bit letters, so an idle
 * kernel thread read "t" and a dead task "S|T"; preempted was
 * TASK_STATE_MAX, 0x1000.  Fixed in 4.15 (3f5fe9fef5b2), which tests
 * TASK_REPORT_MAX for "+": the bit just above the letters.  So: letters
 * up to "I", and "+" tested on a plain number far above them.
 */
static void parse_state_index(struct lt_decoder *d, const char *fmt)
{
	const char *plus = strstr(fmt, "? \"+\"");
	uint64_t letters = d->state_sleep | d->state_blocked | d->state_idle |
			   d->state_stopped | d->state_traced | d->state_dead |
			   d->state_other;
	const char *amp, *p;
	unsigned long long v;
	uint64_t top;
	char *end;

	if (!d->state_idle || !plus)
		return;
	for (amp = plus; amp > fmt && *amp != '&'; amp--)
		;
	if (*amp != '&')
		return;
	for (p = amp + 1; isspace((unsigned char)*p); p++)
		;
	if (!isdigit((unsigned char)*p))
		return;
	v = strtoull(p, &end, 0);
	while (*end == 'u' || *end == 'U' || *end == 'l' || *end == 'L' ||
	       isspace((unsigned char)*end))
		end++;
	/* letters has a bit: state_idle's */
	top = 1ull << (63 - __builtin_clzll(letters));
	if (end != plus || top >> 62 || v <= 2 * top)
		return;
	d->state_is_index = true;
	d->state_preempt = v;
	/* an index past the letters is some state not known here */
	d->state_other = ~(d->state_sleep | d->state_blocked | d->state_idle |
			   d->state_stopped | d->state_traced | d->state_dead);
}

void lt_decode_parse_states(struct lt_decoder *d, const char *fmt)
{
	const char *p;

	/*
	 * Linux since 2.6.3x: S = 1, D = 2, T = 4, t = 8; other reportable
	 * states above, their letters and bits moved between versions
	 */
	d->state_sleep = 0x1;
	d->state_blocked = 0x2;
	d->state_stopped = 0x4;
	d->state_traced = 0x8;
	d->state_other = 0x70;
	d->state_idle = 0;
	d->state_dead = 0;
	d->state_is_index = false;
	d->state_preempt = 0;
	p = fmt ? strstr(fmt, "__print_flags(") : NULL;
	if (!p || !strstr(p, "prev_state"))
		return;
	d->state_sleep = d->state_blocked = d->state_other = d->state_idle = 0;
	d->state_stopped = d->state_traced = d->state_dead = 0;
	/*
	 * The letters are the one thing only the print fmt knows: the bit
	 * values moved between kernel versions.  Read "{ 0x01, "S" }" pairs.
	 */
	while ((p = strchr(p, '{')) != NULL) {
		unsigned long long bits;
		char *end;

		p++;
		while (isspace((unsigned char)*p))
			p++;
		bits = strtoull(p, &end, 0);
		if (end == p)
			continue;
		p = end;
		while (isspace((unsigned char)*p) || *p == ',')
			p++;
		if (*p != '"')
			continue;
		p++;
		if (p[0] == 'S' && p[1] == '"')
			d->state_sleep |= bits;
		else if (p[0] == 'D' && p[1] == '"')
			d->state_blocked |= bits;
		else if (p[0] == 'I' && p[1] == '"')
			d->state_idle |= bits;	/* TASK_IDLE: D|NOLOAD, no latency */
		else if (p[0] == 'T' && p[1] == '"')
			d->state_stopped |= bits;	/* __TASK_STOPPED */
		else if (p[0] == 't' && p[1] == '"')
			d->state_traced |= bits;	/* __TASK_TRACED */
		else if ((p[0] == 'X' || p[0] == 'Z' || p[0] == 'x') &&
			 p[1] == '"')
			d->state_dead |= bits;	/* EXIT_DEAD, EXIT_ZOMBIE, TASK_DEAD */
		else
			d->state_other |= bits;
	}
	if (!d->state_sleep || !d->state_blocked) {
		d->state_sleep = 0x1;
		d->state_blocked = 0x2;
	}
	d->state_other &= ~(d->state_sleep | d->state_blocked | d->state_idle |
			    d->state_stopped | d->state_traced | d->state_dead);
	parse_state_index(d, fmt);
}

enum lt_task_state lt_decode_state(const struct lt_decoder *d, uint64_t state)
{
	if (d->state_is_index) {
		if (state & d->state_preempt)
			return LT_STATE_RUNNABLE;
		if (state > 64)
			return LT_STATE_OTHER;
		state = state ? 1ull << (state - 1) : 0;
	}
	if (state & d->state_blocked)
		return LT_STATE_BLOCKED;
	if (state & d->state_idle)
		return LT_STATE_IDLE;
	if (state & d->state_sleep)
		return LT_STATE_SLEEP;
	if (state & d->state_stopped)
		return LT_STATE_STOPPED;
	if (state & d->state_traced)
		return LT_STATE_TRACED;
	if (state & d->state_dead)
		return LT_STATE_DEAD;
	if (state & d->state_other)
		return LT_STATE_OTHER;
	/* 0, or only the "preempted" bit */
	return LT_STATE_RUNNABLE;
}

int lt_decode_init(struct lt_decoder *d, const struct lt_trace *trace,
		   struct lt_error *err)
{
	const struct lt_trace_info *info = lt_trace_info(trace);
	unsigned int need;
	int s, i;

	memset(d, 0, sizeof(*d));
	d->trace = trace;
	/* read at every record by every thread: no write beside it */
	d->by_id = lt_thread_own_alloc(65536 * sizeof(*d->by_id));
	if (!d->by_id) {
		lt_error_set(err, LT_E_NOMEM, "out of memory");
		return -1;
	}
	lt_decode_parse_states(d, NULL);
	for (s = 0; s < LT_SRC_NR; s++) {
		const struct lt_event_type *type;
		struct lt_decode_type *t = &d->types[s];

		t->src = s;
		type = lt_trace_find_event(trace, lt_src_desc[s].system,
					   lt_src_desc[s].name);
		if (!type)
			continue;
		for (i = 0; i < LT_DECODE_MAX_FIELDS && field_names[s][i]; i++)
			if (!lt_event_type_field(type, field_names[s][i], &t->f[i]))
				t->have |= 1u << i;
		need = required[s];
		/* latency-record's kprobe events: a key and no cookie to need */
		if ((s == LT_SRC_REASON_SET || s == LT_SRC_REASON_RESTORE) &&
		    lt_probe_event_keyed(type)) {
			t->keyed = true;
			need &= s == LT_SRC_REASON_SET ? ~0x8u : ~0x2u;
		}
		/* a damaged format may lack even the common fields */
		if (lt_event_type_field(type, "common_pid", &t->common_pid) < 0 ||
		    (t->have & need) != need) {
			/* said in the report when such records turn up */
			d->unusable[s] = true;
			d->unusable_id[s] = lt_event_type_id(type);
			continue;
		}
		d->present[s] = true;
		d->by_id[lt_event_type_id(type)] = (uint16_t)(s + 1);
		/* the common fields are laid out alike in every event */
		if (!d->have_common_pid) {
			d->common_pid = t->common_pid;
			d->have_common_pid = true;
		}
		if (!d->have_common_flags &&
		    !lt_event_type_field(type, "common_flags", &d->common_flags))
			d->have_common_flags = true;
		if (s == LT_SRC_SWITCH)
			lt_decode_parse_states(d, lt_event_type_print_fmt(type));
	}
	d->swap = !!info->big_endian != (__BYTE_ORDER__ == __ORDER_BIG_ENDIAN__);
	d->nr_cpus = info->cpus > 0 ? info->cpus : 1;
	d->stack_pid = malloc(d->nr_cpus * sizeof(*d->stack_pid));
	if (!d->stack_pid) {
		lt_decode_free(d);
		lt_error_set(err, LT_E_NOMEM, "out of memory");
		return -1;
	}
	for (i = 0; i < d->nr_cpus; i++)
		d->stack_pid[i] = -1;
	d->spool = lt_spool_new(POOL_MAX_FRAMES);
	d->spool_cache = d->spool ? lt_spool_cache_new(d->spool) : NULL;
	if (!d->spool_cache) {
		lt_decode_free(d);
		lt_error_set(err, LT_E_NOMEM, "out of memory");
		return -1;
	}
	return 0;
}

void lt_decode_free(struct lt_decoder *d)
{
	free(d->stack_pid);
	free(d->by_id);
	lt_spool_cache_free(d->spool_cache);
	lt_spool_free(d->spool);
	d->stack_pid = NULL;
	d->by_id = NULL;
	d->spool_cache = NULL;
	d->spool = NULL;
}

/*
 * The hot path reads a few ints per event: 4- and 8-byte scalars inside
 * the record are read here directly, anything else (and anything out of
 * bounds) through the reader's general accessors.
 */
static inline bool fast_scalar(const struct lt_decoder *d,
			       const struct lt_field *f,
			       const struct lt_record *rec, uint64_t *v)
{
	uint32_t v32;

	if ((f->flags & (LT_FIELD_ARRAY | LT_FIELD_DYNAMIC)) ||
	    (uint64_t)f->offset + f->size > rec->size)
		return false;
	if (f->size == 4) {
		memcpy(&v32, rec->data + f->offset, 4);
		*v = d->swap ? __builtin_bswap32(v32) : v32;
		return true;
	}
	if (f->size == 8) {
		memcpy(v, rec->data + f->offset, 8);
		if (d->swap)
			*v = __builtin_bswap64(*v);
		return true;
	}
	return false;
}

static int64_t get_s(struct lt_decoder *d, const struct lt_field *f,
		     const struct lt_record *rec)
{
	uint64_t u;
	int64_t v;

	if (fast_scalar(d, f, rec, &u))
		return f->size == 4 ? (int32_t)u : (int64_t)u;
	if (lt_field_s64(d->trace, f, rec, &v) < 0)
		d->field_errors++;
	return v;
}

static uint64_t get_u(struct lt_decoder *d, const struct lt_field *f,
		      const struct lt_record *rec)
{
	uint64_t v;

	if (fast_scalar(d, f, rec, &v))
		return v;
	if (lt_field_u64(d->trace, f, rec, &v) < 0)
		d->field_errors++;
	return v;
}

static void get_str(struct lt_decoder *d, const struct lt_decode_type *t,
		    unsigned int i, const struct lt_record *rec,
		    const char **s, uint16_t *len)
{
	const struct lt_field *f = &t->f[i];
	size_t n;

	*s = "";
	*len = 0;
	if (!(t->have & (1u << i)))
		return;
	/* a fixed char array (comm): its bytes as they are, NUL and all */
	if ((f->flags & (LT_FIELD_ARRAY | LT_FIELD_DYNAMIC)) == LT_FIELD_ARRAY &&
	    f->elem_size == 1 && (uint64_t)f->offset + f->size <= rec->size) {
		*s = (const char *)rec->data + f->offset;
		n = f->size;
	} else if (lt_field_str(d->trace, f, rec, s, &n) < 0) {
		d->field_errors++;
		*s = "";
		return;
	}
	/* __data_loc lengths are 16 bits; only a made-up char array is longer */
	*len = n < LT_EV_STR_MAX ? n : LT_EV_STR_MAX;
}

static unsigned int get_frames(struct lt_decoder *d,
			       const struct lt_decode_type *t,
			       const struct lt_record *rec)
{
	const struct lt_field *caller = &t->f[1];
	uint64_t n, avail, v, ulong_max;
	unsigned int i, nr = 0;

	if (!caller->elem_size || caller->offset > rec->size)
		return 0;
	/* newer kernels size the event to the stack; older ones pad to [8] */
	avail = (rec->size - caller->offset) / caller->elem_size;
	n = t->have & 1 ? get_u(d, &t->f[0], rec) : avail;
	if (n > avail)
		n = avail;
	if (n > LT_DECODE_MAX_FRAMES)
		n = LT_DECODE_MAX_FRAMES;
	ulong_max = caller->elem_size >= 8 ? UINT64_MAX :
		    (1ULL << (caller->elem_size * 8)) - 1;
	n = lt_field_elems_u64(d->trace, caller, rec, d->frames, n);
	for (i = 0; i < n; i++) {
		v = d->frames[i];
		if (v == ulong_max)	/* old kernels end short stacks so */
			break;
		if (v)
			d->frames[nr++] = v;
	}
	return nr;
}

/* A stack record's frames into @ev, pooled (lt-event.h: value). */
static void decode_frames(struct lt_decoder *d, const struct lt_decode_type *t,
			  const struct lt_record *rec, struct lt_ev *ev)
{
	ev->nr_frames = get_frames(d, t, rec);
	ev->frames = d->frames;
	if (ev->nr_frames && d->spool_cache) {
		const struct lt_spool_ent *e;

		e = lt_spool_get(d->spool_cache, d->frames, ev->nr_frames);
		if (e) {
			ev->frames = e->frames;
			ev->value = e->uid;
		}
	}
}

/* The interrupt context of @rec, from its common_flags. */
static enum lt_ev_irq irq_of(const struct lt_decoder *d,
			     const struct lt_record *rec)
{
	const struct lt_field *f = &d->common_flags;
	uint64_t v;

	if (!d->have_common_flags)
		return LT_EV_IRQ_NONE;
	if (f->size == 1 && !(f->flags & (LT_FIELD_ARRAY | LT_FIELD_DYNAMIC)) &&
	    f->offset < rec->size)
		v = rec->data[f->offset];
	else if (lt_field_u64(d->trace, f, rec, &v) < 0)
		return LT_EV_IRQ_NONE;
	if (v & (0x08 | 0x40))		/* TRACE_FLAG_HARDIRQ, _NMI */
		return LT_EV_IRQ_HARD;
	return v & 0x10 ? LT_EV_IRQ_SOFT : LT_EV_IRQ_NONE;	/* _SOFTIRQ */
}

/* The event's fields into @ev; a field that does not fit counts an error. */
static void decode_fields(struct lt_decoder *d, const struct lt_decode_type *t,
			  unsigned int src, const struct lt_record *rec,
			  struct lt_ev *ev)
{
	int cpu = rec->cpu;

	switch (src) {
	case LT_SRC_SWITCH:
		ev->kind = LT_EV_SWITCH;
		get_str(d, t, 0, rec, &ev->str, &ev->str_len);
		ev->pid = (int)get_s(d, &t->f[1], rec);
		ev->state = lt_decode_state(d, get_u(d, &t->f[2], rec));
		get_str(d, t, 3, rec, &ev->str2, &ev->str2_len);
		ev->pid2 = (int)get_s(d, &t->f[4], rec);
		if (cpu >= 0 && cpu < d->nr_cpus)
			d->stack_pid[cpu] = ev->pid;
		return;
	case LT_SRC_WAKEUP:
	case LT_SRC_WAKEUP_NEW:
	case LT_SRC_WAKING:
		ev->kind = src == LT_SRC_WAKING ? LT_EV_WAKING :
			   src == LT_SRC_WAKEUP_NEW ? LT_EV_WAKEUP_NEW : LT_EV_WAKEUP;
		get_str(d, t, 0, rec, &ev->str, &ev->str_len);
		ev->pid = (int)get_s(d, &t->f[1], rec);
		if (src == LT_SRC_WAKEUP_NEW)
			return;
		ev->irq = irq_of(d, rec);
		/* its kernel stack (options/stacktrace) may follow: the waker's */
		if (cpu >= 0 && cpu < d->nr_cpus)
			d->stack_pid[cpu] = LT_DECODE_PID_WAKING;
		return;
	case LT_SRC_STAT_SLEEP:
	case LT_SRC_STAT_BLOCKED:
	case LT_SRC_STAT_IOWAIT:
		ev->kind = src == LT_SRC_STAT_SLEEP ? LT_EV_STAT_SLEEP :
			   src == LT_SRC_STAT_BLOCKED ? LT_EV_STAT_BLOCKED :
			   LT_EV_STAT_IOWAIT;
		get_str(d, t, 0, rec, &ev->str, &ev->str_len);
		/* the sleeper is "pid"; common_pid is whoever woke it */
		ev->pid = (int)get_s(d, &t->f[1], rec);
		ev->value = get_u(d, &t->f[2], rec);
		return;
	case LT_SRC_REASON_SET:
		ev->kind = LT_EV_REASON_SET;
		get_str(d, t, 0, rec, &ev->str, &ev->str_len);
		get_str(d, t, 1, rec, &ev->str2, &ev->str2_len);
		ev->value = t->have & 4 ? get_u(d, &t->f[2], rec) : 0;
		if (t->keyed)
			lt_probe_key_decode(ev);
		else
			ev->cookie = get_u(d, &t->f[3], rec);
		return;
	case LT_SRC_REASON_RESTORE:
		ev->kind = LT_EV_REASON_RESTORE;
		get_str(d, t, 0, rec, &ev->str, &ev->str_len);
		if (t->keyed)
			lt_probe_key_decode(ev);
		else
			ev->cookie = get_u(d, &t->f[1], rec);
		return;
	case LT_SRC_FORK:
		ev->kind = LT_EV_FORK;
		ev->pid = (int)get_s(d, &t->f[0], rec);
		ev->pid2 = (int)get_s(d, &t->f[1], rec);
		get_str(d, t, 2, rec, &ev->str, &ev->str_len);
		return;
	case LT_SRC_NEWTASK:
		/* common_pid is the parent, "pid" the new task */
		ev->kind = LT_EV_NEWTASK;
		ev->pid2 = (int)get_s(d, &t->f[0], rec);
		get_str(d, t, 1, rec, &ev->str, &ev->str_len);
		ev->value = t->have & 4 ? get_u(d, &t->f[2], rec) : 0;
		return;
	case LT_SRC_EXEC:
		ev->kind = LT_EV_EXEC;
		get_str(d, t, 0, rec, &ev->str, &ev->str_len);
		ev->pid = (int)get_s(d, &t->f[1], rec);
		ev->pid2 = t->have & 4 ? (int)get_s(d, &t->f[2], rec) : ev->pid;
		return;
	case LT_SRC_EXIT:
		ev->kind = LT_EV_EXIT;
		get_str(d, t, 0, rec, &ev->str, &ev->str_len);
		ev->pid = (int)get_s(d, &t->f[1], rec);
		return;
	case LT_SRC_RENAME:
		ev->kind = LT_EV_RENAME;
		ev->pid = (int)get_s(d, &t->f[0], rec);
		get_str(d, t, 1, rec, &ev->str, &ev->str_len);
		return;
	case LT_SRC_CGROUP_ATTACH:
	case LT_SRC_CGROUP_TRANSFER:
		/*
		 * Root 0 is the v2 hierarchy's (cgrp_dfl_root); a v1
		 * controller's moves are not what /proc/PID/cgroup's
		 * "0::" line, and so the analyzer, calls the task's cgroup.
		 */
		if (get_s(d, &t->f[0], rec) != 0) {
			ev->kind = LT_EV_OTHER;
			return;
		}
		ev->kind = LT_EV_CGROUP;
		ev->pid = (int)get_s(d, &t->f[1], rec);
		get_str(d, t, 2, rec, &ev->str, &ev->str_len);
		return;
	case LT_SRC_STACK:
		/*
		 * Written in the context of the event before it: after a
		 * switch, common_pid is the task that just left the CPU;
		 * after a wakeup, the waker (0: an interrupt of the idle task).
		 */
		ev->current = 0;
		if (cpu >= 0 && cpu < d->nr_cpus &&
		    d->stack_pid[cpu] == LT_DECODE_PID_WAKING) {
			d->stack_pid[cpu] = -1;
			ev->kind = LT_EV_STACK;
			ev->waking_stack = 1;
			decode_frames(d, t, rec, ev);
			return;
		}
		/*
		 * Only the switch-out stack of the task that just left this
		 * CPU; or, where the event before is not known (a range's
		 * first record), any, for the reader to tell by that event:
		 * a wakeup's from the idle task has pid 0.
		 */
		if (cpu < 0 || cpu >= d->nr_cpus ||
		    (d->stack_pid[cpu] != LT_DECODE_PID_UNKNOWN &&
		     (ev->pid <= 0 || d->stack_pid[cpu] != ev->pid))) {
			ev->kind = LT_EV_OTHER;
			return;
		}
		ev->check_prev = d->stack_pid[cpu] == LT_DECODE_PID_UNKNOWN;
		d->stack_pid[cpu] = -1;
		ev->kind = LT_EV_STACK;
		decode_frames(d, t, rec, ev);
		return;
	}
	ev->kind = LT_EV_OTHER;
	return;
}

/*
 * lt_decode_record() clears an event field by field: a field added to
 * struct lt_ev must be cleared there too (this size says it was not).
 */
#if UINTPTR_MAX == UINT64_MAX
_Static_assert(sizeof(struct lt_ev) == 64,
	       "struct lt_ev changed: clear the new field in lt_decode_record()");
#endif
_Static_assert(LT_TRACE_CPU_LIMIT <= LT_EV_CPU_LIMIT,
	       "a record's CPU must fit an event's");

int lt_decode_record(struct lt_decoder *d, const struct lt_record *rec,
		     struct lt_ev *ev)
{
	const struct lt_decode_type *t;
	unsigned int src;
	uint64_t errors;
	int cpu = rec->cpu;

	/*
	 * Field by field: a memset of the struct becomes "rep stos", whose
	 * start-up cost was a tenth of decoding a record.
	 */
	ev->kind = LT_EV_OTHER;
	ev->cpu = cpu;
	ev->ts = rec->ts;
	ev->current = ev->pid = ev->pid2 = 0;
	ev->state = LT_STATE_RUNNABLE;
	ev->value = ev->cookie = 0;	/* frames = NULL too */
	ev->str = ev->str2 = NULL;
	ev->str_len = ev->str2_len = 0;
	ev->nr_frames = 0;
	ev->origin = LT_EV_NO_ORIGIN;
	ev->check_prev = 0;
	ev->waking_stack = 0;
	ev->irq = LT_EV_IRQ_NONE;
	if (rec->kind == LT_REC_LOST) {
		ev->kind = LT_EV_LOST;
		ev->value = rec->lost == LT_REC_DATA_END ? LT_LOST_DATA_END :
			    rec->lost < 0 ? UINT64_MAX : (uint64_t)rec->lost;
		return 1;
	}
	src = d->by_id[rec->id];
	/* every event names the task running on its CPU */
	if (d->have_common_pid)
		ev->current = (int)get_s(d, &d->common_pid, rec);
	if (!src) {
		ev->kind = LT_EV_OTHER;
		/* a stack follows only the event just before it on that CPU */
		if (cpu >= 0 && cpu < d->nr_cpus)
			d->stack_pid[cpu] = -1;
		return 1;
	}
	src--;
	t = &d->types[src];
	errors = d->field_errors;
	if (src != LT_SRC_STACK && src != LT_SRC_SWITCH && cpu >= 0 &&
	    cpu < d->nr_cpus)
		d->stack_pid[cpu] = -1;
	ev->pid = ev->current;

	decode_fields(d, t, src, rec, ev);
	/*
	 * A record whose fields do not fit it (damage) is dropped whole: a
	 * half-read reason or pid would be charged as if it were true.
	 */
	if (d->field_errors != errors) {
		d->bad_records++;
		d->bad_by_src[src]++;
		ev->kind = LT_EV_OTHER;
		if (cpu >= 0 && cpu < d->nr_cpus)
			d->stack_pid[cpu] = -1;
		return 1;
	}
	d->counts[src]++;
	ev->origin = (uint8_t)src;
	return 1;
}
