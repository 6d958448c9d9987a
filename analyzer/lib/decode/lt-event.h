/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * lt-event.h - decoded events, the replay machine's only input.
 *
 * lt-decode.c turns trace records into these; unit tests write them by hand.
 * Strings point into the record (or the test) and are valid only for the
 * duration of lt_replay_feed().
 */
#ifndef LT_EVENT_H
#define LT_EVENT_H

#include <stddef.h>
#include <stdint.h>

enum lt_ev_kind {
	LT_EV_SWITCH,		/* pid -> pid2 on cpu; state = prev's state */
	LT_EV_WAKING,		/* sched_waking: pid */
	LT_EV_WAKEUP,		/* sched_wakeup: pid */
	LT_EV_WAKEUP_NEW,	/* sched_wakeup_new: pid, a new task */
	LT_EV_STAT_SLEEP,	/* sched_stat_sleep: pid slept value ns */
	LT_EV_STAT_BLOCKED,	/* sched_stat_blocked: pid blocked value ns */
	LT_EV_STAT_IOWAIT,	/* sched_stat_iowait: pid, value ns (subset of blocked) */
	LT_EV_REASON_SET,	/* pid entered str(argument str2), maxtime value us */
	LT_EV_REASON_RESTORE,	/* pid left str */
	LT_EV_FORK,		/* pid forked pid2 named str */
	LT_EV_NEWTASK,		/* pid created pid2 named str, clone flags value */
	LT_EV_EXEC,		/* pid (was pid2) exec'd str (filename) */
	LT_EV_EXIT,		/* pid exited */
	LT_EV_RENAME,		/* pid renamed itself str */
	LT_EV_STACK,		/* kernel stack of pid, after its switch-out
				 * (or, waking_stack, of the sched_waking or
				 * sched_wakeup just before it on its CPU:
				 * pid is then that event's current task);
				 * value: its id in the decoder's stack pool
				 * (frames then valid while the decoder is),
				 * or 0 */
	LT_EV_LOST,		/* value events lost on cpu (UINT64_MAX: unknown;
				 * LT_LOST_DATA_END: the CPU's data ends here,
				 * damaged or cut short, --partial), fed where
				 * the gap begins: after the CPU's record
				 * before it, before anything of other CPUs
				 * inside it.  The CPU's next record ends the
				 * gap.  ts: not in time order */
	LT_EV_CGROUP,		/* pid is in the cgroup at path str (from the
				 * hierarchy's root, as /proc/PID/cgroup and
				 * perf's CGROUP records say it); cpu -1 */
	LT_EV_OTHER,		/* any other event: only advances time */
};

/* What a task was doing when it was switched out. */
enum lt_task_state {
	LT_STATE_RUNNABLE,	/* preempted, still runnable */
	LT_STATE_SLEEP,		/* S: interruptible */
	LT_STATE_BLOCKED,	/* D: uninterruptible */
	LT_STATE_IDLE,		/* I: a kernel thread idle, waiting for work */
	LT_STATE_OTHER,		/* a state not known here (P, W, a number...),
				 * or in a note: not known at all */
	LT_STATE_STOPPED,	/* T: stopped by a signal (SIGSTOP, SIGTSTP) */
	LT_STATE_TRACED,	/* t: stopped for its tracer (ptrace) */
	LT_STATE_DEAD,		/* X, Z: its last switch-out */
};

#define LT_CLONE_THREAD 0x00010000ULL

/*
 * The interrupt context a record was written in, from its common_flags
 * (TRACE_FLAG_HARDIRQ 0x08, _SOFTIRQ 0x10, _NMI 0x40): a wakeup from an
 * interrupt was the interrupt's doing, not the task's it interrupted.
 * Hard (or NMI) wins when both are set.
 */
enum lt_ev_irq { LT_EV_IRQ_NONE, LT_EV_IRQ_SOFT, LT_EV_IRQ_HARD };

/* An LT_EV_LOST's value: its CPU has no data from here on (--partial). */
#define LT_LOST_DATA_END (UINT64_MAX - 1)

/*
 * In an LT_EV_STACK's frames, what follows this one is user space (an
 * input that has such frames encodes them; see lt-usym.h).  perf's own
 * PERF_CONTEXT_USER: no kernel address is this.
 */
#define LT_FRAME_USER	0xfffffffffffffe00ULL

/*
 * 64 bytes, one cache line: with threads, every event is written on one
 * core and read on another, and the batches of them are the pipe's memory
 * (lt-pipe.h).  At 96 bytes, ~4 MB more were touched for the first time on
 * every run with threads, and each event crossed cores in two lines.
 */
struct lt_ev {
	uint64_t ts;
	uint64_t value;
	union {
		uint64_t cookie;		/* LT_EV_REASON_* */
		const uint64_t *frames;		/* LT_EV_STACK, innermost first */
	};
	const char *str;		/* comm, reason, filename */
	const char *str2;		/* next_comm, argument */
	int current;		/* common_pid: the task running on cpu; 0 = none/unknown */
	int pid;
	int pid2;
	int16_t cpu;			/* < LT_EV_CPU_LIMIT */
	uint16_t str_len;		/* longer strings are cut */
	uint16_t str2_len;
	uint16_t nr_frames;
	enum lt_ev_kind kind : 8;
	enum lt_task_state state : 8;	/* LT_EV_SWITCH */
	uint8_t origin;			/* the decoder's source, for counting */
	/*
	 * LT_EV_STACK decoded with the record before it unknown (the start
	 * of a range): it stands only if that record was the switch-out of
	 * pid (or a wakeup: then waking_stack), which the one who sees the
	 * CPU's records in order checks.
	 */
	uint8_t check_prev : 1;
	uint8_t waking_stack : 1;	/* LT_EV_STACK of a wakeup (above) */
	uint8_t irq : 2;		/* enum lt_ev_irq: LT_EV_WAKING, _WAKEUP */
};

#define LT_EV_CPU_LIMIT	 32768	/* what cpu can hold */
#define LT_EV_STR_MAX	 UINT16_MAX

#define LT_EV_NO_ORIGIN 0xff

#endif /* LT_EVENT_H */
