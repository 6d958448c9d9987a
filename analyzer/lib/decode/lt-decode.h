/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * lt-decode.h - from trace records to decoded events.
 *
 * The one place that knows which trace events matter and what their
 * fields are called.  Fields are looked up once per event type through
 * the formats stored in the file.
 */
#ifndef LT_DECODE_H
#define LT_DECODE_H

#include <stdbool.h>
#include <stdint.h>

#include "lt-event.h"
#include "lt-stackpool.h"
#include "lt-trace.h"

enum lt_src {
	LT_SRC_SWITCH,
	LT_SRC_WAKEUP,
	LT_SRC_WAKEUP_NEW,
	LT_SRC_WAKING,
	LT_SRC_STAT_SLEEP,
	LT_SRC_STAT_BLOCKED,
	LT_SRC_STAT_IOWAIT,
	LT_SRC_REASON_SET,
	LT_SRC_REASON_RESTORE,
	LT_SRC_FORK,
	LT_SRC_NEWTASK,
	LT_SRC_EXEC,
	LT_SRC_EXIT,
	LT_SRC_RENAME,
	LT_SRC_STACK,
	LT_SRC_CGROUP_ATTACH,	/* a task moved to another cgroup */
	LT_SRC_CGROUP_TRANSFER,	/* ... all of one cgroup's tasks moved */
	LT_SRC_NR
};

struct lt_src_desc {
	const char *system, *name;
};
extern const struct lt_src_desc lt_src_desc[LT_SRC_NR];

#define LT_DECODE_MAX_FIELDS 6
#define LT_DECODE_MAX_FRAMES 256

struct lt_decode_type {
	enum lt_src src;
	struct lt_field common_pid;
	struct lt_field f[LT_DECODE_MAX_FIELDS];
	unsigned int have;	/* bit per field found */
	bool keyed;		/* latencytop from kprobes: a key, no cookie
				   (lt-probe-key.h) */
};

/* stack_pid at the start of a range: what came before is not known here */
#define LT_DECODE_PID_UNKNOWN	(-2)
/* stack_pid after a sched_waking or sched_wakeup: its stack may follow */
#define LT_DECODE_PID_WAKING	(-3)

struct lt_decoder {
	const struct lt_trace *trace;
	struct lt_decode_type types[LT_SRC_NR];
	bool present[LT_SRC_NR];	/* the file has this event's format */
	struct lt_field common_pid;	/* of any event: they share the header */
	struct lt_field common_flags;	/* irq context (lt_ev.irq) */
	bool swap;			/* file byte order is not ours */
	bool have_common_pid;
	bool have_common_flags;
	/* id -> src + 1, 0 = not ours; shared by copies (read only) */
	uint16_t *by_id;
	/* prev_state letters, read from sched_switch's print fmt */
	uint64_t state_sleep, state_blocked, state_idle, state_other;
	uint64_t state_stopped, state_traced, state_dead;
	/*
	 * Linux 4.14's prev_state: an index into the letters (1 = the first),
	 * or state_preempt when preempted (see lt_decode_parse_states()).
	 */
	bool state_is_index;
	uint64_t state_preempt;
	int *stack_pid;			/* per CPU: pid switched out last, -1, or
					   LT_DECODE_PID_UNKNOWN */
	int nr_cpus;
	uint64_t frames[LT_DECODE_MAX_FRAMES];
	struct lt_spool *spool;		/* distinct stacks: shared by copies */
	struct lt_spool_cache *spool_cache;	/* each copy its own */
	uint64_t counts[LT_SRC_NR];	/* records seen per source */
	uint64_t field_errors;		/* fields that did not fit their record */
	uint64_t bad_records;		/* records dropped for it */
	uint64_t bad_by_src[LT_SRC_NR];
	bool unusable[LT_SRC_NR];	/* in the file, but without fields we need */
	uint16_t unusable_id[LT_SRC_NR];
};

int lt_decode_init(struct lt_decoder *d, const struct lt_trace *trace,
		   struct lt_error *err);
void lt_decode_free(struct lt_decoder *d);
/* Map prev_state to a state using the letters from a print fmt (exposed for tests). */
void lt_decode_parse_states(struct lt_decoder *d, const char *print_fmt);
enum lt_task_state lt_decode_state(const struct lt_decoder *d, uint64_t state);
/*
 * Decode one record into @ev.  Returns 1 if @ev is an event for the replay,
 * 0 when the record means nothing to us.
 */
int lt_decode_record(struct lt_decoder *d, const struct lt_record *rec,
		     struct lt_ev *ev);

#endif /* LT_DECODE_H */
