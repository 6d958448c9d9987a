/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * latencytop.h - the latency analyzer library.
 *
 * Replays a trace.dat recorded with trace-cmd and builds LatencyTOP's
 * tables: which task waited, how long, and why.  The library never prints
 * to stdout and never exits; problems come back as an lt_error, warnings
 * through lt_set_warning_fn().  Threads may analyze, sort and write
 * different traces and reports at once; the warning hook is the process's.
 */
#ifndef LATENCYTOP_H
#define LATENCYTOP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

#define LT_VERSION_STRING "0.1.0"

/*
 * Error codes, one table for the library and every program: the name,
 * its text, and the exit status of latency-analyze (and latency-view) and
 * of latency-record for it, so the table documents all three (their man
 * pages list the statuses).  NA marks a code the program never meets
 * (it would exit as for INTERNAL).  Tracing that cannot be set up is one
 * status for latency-analyze --live (9) and several for latency-record.
 */
#define LT_ERRORS(_)							\
	_(OK,		"success",				0,	0)	\
	_(USAGE,	"invalid argument",			1,	1)	\
	_(PARTIAL,	"report is partial",			5,	NA)	\
	_(IO,		"cannot read file",			2,	2)	\
	_(OUTPUT,	"cannot write the output",		2,	2)	\
	_(NOT_TRACE,	"not a trace.dat or perf.data file",	3,	NA)	\
	_(SCHEMA,	"unsupported report schema",		3,	NA)	\
	_(VERSION,	"unsupported trace file version or layout", 3,	NA)	\
	_(COMPRESSION,	"unsupported compression",		3,	NA)	\
	_(TRUNCATED,	"trace file is truncated",		3,	NA)	\
	_(CORRUPT,	"trace file is damaged",		3,	NA)	\
	_(NO_EVENTS,	"trace has no scheduler events",	4,	NA)	\
	_(TABLE,	"invalid translation table",		1,	NA)	\
	_(LIMIT,	"resource limit exceeded",		6,	6)	\
	_(MISMATCH,	"reports do not match",			7,	NA)	\
	_(CROSSED,	"a --fail-on threshold was crossed",	8,	NA)	\
	_(NOMEM,	"out of memory",			6,	6)	\
	_(TRACING,	"cannot trace the running system",	9,	3)	\
	_(NO_TRACEFS,	"tracefs is not available",		9,	3)	\
	_(PERM,		"permission denied",			9,	3)	\
	_(UNSUPPORTED,	"not supported by this kernel",		9,	3)	\
	_(BUSY,		"tracefs busy",				9,	4)	\
	_(COMMAND,	"cannot run the command",		9,	5)	\
	_(TRACEFS,	"tracefs refused a setting",		9,	7)	\
	_(INTERRUPTED,	"interrupted",				9,	8)	\
	_(INTERNAL,	"internal error",			70,	70)

#define LT_ERR_ENUM(name, msg, analyze, record) LT_E_##name,
enum lt_errcode { LT_ERRORS(LT_ERR_ENUM) LT_E_MAX };
#undef LT_ERR_ENUM

#define LT_ERROR_MSG_MAX 512

/* A failure: its code and one line of text naming the file, what and where. */
struct lt_error {
	enum lt_errcode code;
	char msg[LT_ERROR_MSG_MAX];
};

const char *lt_strerror(enum lt_errcode code);
/* latency-analyze's exit status for a failure with this code (LT_ERRORS) */
int lt_error_exit_status(enum lt_errcode code);
/* ... and latency-record's */
int lt_error_record_status(enum lt_errcode code);
void lt_error_set(struct lt_error *err, enum lt_errcode code,
		  const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/*
 * Warnings (recoverable oddities in a trace).  Default: none printed.
 * Called only in the thread that called lt_analyze(), as the progress
 * callback is: the two may share state without a lock.
 */
typedef void (*lt_warning_fn)(void *ctx, const char *msg);
void lt_set_warning_fn(lt_warning_fn fn, void *ctx);
void lt_warning(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* ---- analysis ------------------------------------------------------- */

/* Where a row's blocked time was explained from. */
enum lt_cause_kind {
	LT_CAUSE_ANNOTATED,	/* a latencytop reason emitted by the kernel */
	LT_CAUSE_TRANSLATED,	/* the kernel stack matched a translation */
	LT_CAUSE_FUNCTION,	/* a kernel stack without translation: "[func]" */
	LT_CAUSE_UNKNOWN,	/* no reason and no stack */
	LT_CAUSE_SCHED,		/* runnable, waiting for a CPU */
	LT_CAUSE_STOPPED,	/* stopped by a signal or for a tracer */
	LT_CAUSE_NR
};
const char *lt_cause_kind_name(enum lt_cause_kind kind);

enum lt_sort { LT_SORT_MAX, LT_SORT_TOTAL, LT_SORT_COUNT, LT_SORT_AVG };
enum lt_format {
	LT_FORMAT_TEXT, LT_FORMAT_JSON, LT_FORMAT_CSV, LT_FORMAT_FOLDED,
	LT_FORMAT_WAITS_CSV, LT_FORMAT_WAITS_JSONL, LT_FORMAT_HTML,
	LT_FORMAT_PPROF,
};

typedef void (*lt_progress_fn)(void *ctx, uint64_t done, uint64_t total);

/*
 * The tasks the tables count (--pid, --tid, --comm): a thread is selected
 * when its process's pid is in @pids, its own in @tids, or its name or
 * its process's matches a shell pattern of @comms (fnmatch(3)); nothing
 * given, every task.  The global table is then that of the selected tasks,
 * and a process's section that of its selected threads.
 */
struct lt_task_filter {
	const int *pids;
	size_t nr_pids;
	const int *tids;
	size_t nr_tids;
	const char *const *comms;
	size_t nr_comms;
};

static inline bool lt_task_filter_active(const struct lt_task_filter *f)
{
	return f->nr_pids || f->nr_tids || f->nr_comms;
}

/*
 * One wait the analysis saw, charged or dropped (lt_options.waits): a row
 * for an engine built for many (SQLite, DuckDB, ClickHouse...).  Strings
 * are valid during the call only.
 */
struct lt_wait {
	const char *trace_id;		/* the report's trace.id */
	int pid, tid;			/* process (thread-group leader), thread */
	const char *comm;		/* the thread's name, as the report's */
	const char *cgroup;		/* its cgroup's path, NULL: not known */
	bool kernel_thread;		/* the thread is one: the global table
					   leaves its waits out unless -k */
	const char *reason, *argument;	/* its cause, as charged or as it would
					   have been ("" when nothing is known) */
	enum lt_cause_kind kind;
	char state;			/* 'S', 'D', 'I' blocked, 'R' waiting
					   for a CPU, 'T' stopped by a signal,
					   't' for a tracer, '?' not known */
	uint64_t start_ns, end_ns;	/* absolute trace timestamps */
	bool start_known, end_known;	/* else the trace did not show it */
	const char *dropped;		/* NULL: charged; else why not, the
					   report's "dropped" counter it adds to */
	uint32_t stack_id;		/* its kernel stack at switch-out, 0 none */
	/*
	 * What ended it (issue 48): "task" (then @waker_tid and
	 * @waker_comm), "hardirq", "softirq", "timer", "unknown", "lost";
	 * NULL for a wait for a CPU, or where nothing is known
	 */
	const char *waker_kind;
	int waker_tid;
	const char *waker_comm;
};

/* A kernel stack the waits name (its id is the trace's, from 1). */
struct lt_wait_stack {
	const char *trace_id;
	uint32_t id;
	const char *reason;		/* what it translates to */
	enum lt_cause_kind kind;
	bool kernel_thread;		/* a kernel thread's (kthread() in it) */
	const char *const *frames;	/* symbolised, innermost first */
	unsigned int nr_frames;
};

/* 0, or -1 (errno set) to stop the analysis with LT_E_IO. */
typedef int (*lt_wait_fn)(void *ctx, const struct lt_wait *w);
typedef int (*lt_wait_stack_fn)(void *ctx, const struct lt_wait_stack *s);

struct lt_options {
	uint64_t sleep_cutoff_ns;	/* interruptible waits longer: not charged (5 ms; 0 = keep) */
	bool honour_maxtime;		/* drop waits longer than a reason's maxtime_us */
	bool charge_stopped;		/* charge stopped tasks' waits (T, t) */
	bool kernel_threads;		/* kernel threads in the global table too */
	bool per_thread;		/* per-thread sections in text output */
	bool stacks;			/* distinct stacks under each row in text output */
	bool by_cgroup;			/* text output: a table per cgroup, its
					   processes under it (--by cgroup) */
	bool chains;			/* whom waits waited for, the whole tree,
					   in text and folded output */
	bool no_chains;			/* no such trees at all, nor the waits'
					   wakers: less work */
	enum lt_sort sort;
	uint64_t window_ns;		/* 0: the whole range as one view */
	int64_t from_ns, to_ns;		/* from the first event; -1 = open */
	const char *kallsyms;		/* kernel symbols for a file that has
					   none (perf.data); NULL: found */
	const char *buffer;		/* a trace.dat's buffer to read: an
					   instance's name, "" the top level;
					   NULL: the one with scheduler events */
	const char *const *trans_files;	/* extra translation tables, later override */
	size_t nr_trans_files;
	bool no_default_trans;		/* skip the built-in and system tables */
	bool partial;			/* report what was read before damage */
	unsigned int limit;		/* rows per table in text output; 0 = all */
	unsigned int max_processes;	/* process sections in text output; 0 = all */
	unsigned int width;		/* columns text output fits, cutting
					   causes (a terminal's); 0: never cut */
	struct lt_task_filter tasks;	/* the tasks counted; none: all */
	unsigned int threads;		/* threads in all; 0: one per usable core
					   (one for a small trace), 1:
					   everything on the caller's */
	lt_progress_fn progress;	/* called now and then while reading,
					   in the caller's thread */
	void *progress_ctx;
	/*
	 * Every wait the analysis saw, then every stack they name, called
	 * once the trace is read (a wait's cause may be known only at the
	 * end), in the caller's thread, in constant memory: they wait in a
	 * temporary file ($TMPDIR or /tmp) meanwhile.  NULL: none.
	 */
	lt_wait_fn waits;
	lt_wait_stack_fn wait_stacks;
	void *waits_ctx;
	/*
	 * A timeline in the report (lt_report.timeline): the
	 * @timeline_threads threads with the most charged time, each with
	 * its @timeline_waits longest waits, and those of its waits that
	 * the global table names as worst occurrences.  Its size is bounded
	 * by the two, never by the trace's length; the waits are kept aside
	 * in a temporary file while the trace is read, as for @waits.  0:
	 * no timeline.
	 */
	unsigned int timeline_threads;
	unsigned int timeline_waits;
};

/* The timeline an HTML report has by default: 20 threads, 1000 waits each. */
#define LT_TIMELINE_THREADS	20
#define LT_TIMELINE_WAITS	1000
/* A timeline's thread's waiting time, in this many slices of its range. */
#define LT_TIMELINE_SLICES	200

void lt_options_init(struct lt_options *opts);

/* ---- the report: plain read-only data ---------------------------------- */

/*
 * The JSON schema written; within major version 1, minor versions only
 * add fields, and the reader takes "latencytop-report/1" and any 1.x.
 * 1.1 added each row's histogram and the trace's id (the keys of an
 * exact merge); 1.2 the stopped waits, waits in states not known,
 * waits charged at a lower bound, the buffer read and the CPUs whose
 * data ends early; 1.3 each process's cgroup and the trace's
 * cgroup_events, a merged report's duration as the time its traces
 * span, added up, and each row's waited_for tree and ran_instead.
 */
#define LT_REPORT_SCHEMA "latencytop-report/1.3"
#define LT_REPORT_SCHEMA_MAJOR "latencytop-report/1"
#define LT_REPORT_WORST 5

struct lt_report_occurrence {
	uint64_t dur_ns;
	uint64_t end_ns;		/* absolute trace timestamp of the wakeup */
	int tid;
};

/*
 * What ended some of a stack's waits (issue 50): a task, an interrupt, a
 * timer, or what the trace cannot say; how many and their time.
 */
struct lt_report_waker {
	/*
	 * "task", "hardirq", "softirq", "timer", "unknown", "lost" (as the
	 * waits export's waker_kind), or "other": the waits of the wakers
	 * past those kept (LT_REPORT_STACK_WAKERS, LT_SUB_WAKERS), summed
	 */
	const char *kind;
	int tid;			/* a task's; -1 */
	const char *comm;		/* a task's; NULL */
	uint64_t count, total_ns;
};

/* At most this many wakers a stack names; the rest summed in "other". */
#define LT_REPORT_STACK_WAKERS 8

/* One distinct kernel stack (and reason path) under a row. */
struct lt_report_stack {
	const char *const *frames;	/* symbolised, innermost first */
	unsigned int nr_frames;
	/* the task's user-space stack below them (perf.data), innermost first */
	const char *const *user_frames;
	unsigned int nr_user_frames;
	const char *const *path;	/* reasons, outermost first */
	unsigned int path_depth;
	uint64_t count, total_ns, max_ns, max_at_ns;
	/*
	 * Where the frames are, as the trace says (NULL where it does not,
	 * as in a saved or merged report): each kernel frame's address, and
	 * each user frame's binary (an index of lt_report.binaries plus one;
	 * 0: in no mapping the trace shows) and offset in that binary's
	 * file.  Of stacks that read the same, one's.
	 */
	const uint64_t *addrs;
	const uint32_t *user_binaries;
	const uint64_t *user_offsets;
	/*
	 * Who ended its waits, the most time first, "other" last; they add
	 * up to its count and total_ns.  Only in the thread rows of the
	 * whole range of a report made from a trace with chains (not
	 * --no-chains); NULL elsewhere: windows, process and global rows,
	 * saved and merged reports.
	 */
	const struct lt_report_waker *wakers;
	size_t nr_wakers;
};

/* A binary user frames are in (perf.data's mappings). */
struct lt_report_binary {
	const char *path;		/* as the trace names it */
	const char *build_id;		/* hex; "" when not recorded */
};

/*
 * One bucket of a row's histogram: @count waits from @low_ns up to the
 * next bucket's low bound (log-linear, 16 buckets per power of two:
 * lt-hist.h's, whose bounds the schema documents).
 */
struct lt_report_bucket {
	uint64_t low_ns, count;
};

/*
 * Whom a row's waits waited for (issue 48): one node of its tree.  A
 * wait's waker did this for @ns of it: ran ("running"), waited for a
 * CPU ("waiting for cpu"), waited itself (@what: its own wait's cause,
 * and under it whom that wait waited for), or the wait was ended by an
 * interrupt ("hardirq", "softirq"), a timer ("timer"), or what the trace
 * cannot say ("unknown", "lost").  "other": what the replay's bounds
 * folded.  At every level the children add up to their parent, and a
 * row's top level to its total.  Thread rows key nodes by (tid, what);
 * process, command and global rows by (the waker's process's comm,
 * what), with @tid -1 where several threads fold into one.  A row of
 * waits for a CPU has instead ran_instead: who ran on the CPU meanwhile
 * (@what NULL there).
 */
struct lt_report_chain {
	int tid;			/* -1: none, or several */
	const char *comm;		/* the task's (its process's), or
					   @what where it is no task's */
	const char *what;
	uint64_t ns;
	bool blocked;			/* @what is a cause */
	struct lt_report_chain *children;	/* by ns, descending */
	size_t nr_children;
};

/* At most this many children a node shows; the rest summed in "other". */
#define LT_REPORT_CHAIN_SHOWN 8

struct lt_report_row {
	const char *reason;
	const char *argument;		/* "" when none */
	enum lt_cause_kind kind;
	uint64_t count, total_ns, max_ns, avg_ns;
	uint64_t p50_ns, p90_ns, p99_ns;
	uint64_t max_at_ns;		/* absolute trace timestamp */
	int max_tid;
	double percent;			/* of this table's total */
	struct lt_report_occurrence worst[LT_REPORT_WORST];
	unsigned int nr_worst;
	struct lt_report_stack *stacks;	/* by total, descending */
	size_t nr_stacks;
	/*
	 * The histogram the percentiles come from: the buckets hit, in
	 * ascending order, and the shortest wait.  What makes reports merge
	 * exactly; NULL in a report saved before schema 1.1.
	 */
	const struct lt_report_bucket *buckets;
	size_t nr_buckets;
	uint64_t min_ns;
	bool no_percentiles;		/* p50..p99 unknown: merged from a row
					   without a histogram */
	/* whom its waits waited for; for a CPU, who ran instead (1.3) */
	struct lt_report_chain *waited_for;	/* by ns, descending */
	size_t nr_waited_for;
	struct lt_report_chain *ran_instead;
	size_t nr_ran_instead;
};

/* A cause as a timeline names it. */
struct lt_report_cause {
	const char *reason, *argument;
	enum lt_cause_kind kind;
};

/* One charged wait of a timeline's thread. */
struct lt_report_span {
	uint64_t start_ns, end_ns;	/* absolute trace timestamps */
	uint32_t cause;			/* in lt_report_timeline.causes */
	bool worst;			/* a worst occurrence of the whole
					   range's global table */
	/* what ended it: lt_wait's waker_kind (a static name), tid, comm */
	const char *waker_kind;
	int waker_tid;
	char waker_comm[16];		/* "" for none */
};

/* A thread on the timeline. */
struct lt_report_lane {
	int pid, tid;			/* its process's and its own */
	const char *comm;
	bool kernel_thread;
	uint64_t count, total_ns;	/* every charged wait of it */
	struct lt_report_span *spans;	/* the longest and the worst, by start */
	size_t nr_spans;
	/* time it waited in each of the timeline's slices, every wait's */
	uint64_t *slice_ns;
};

/*
 * The busiest threads' waits over the whole range (lt_options.timeline_*):
 * what a picture of a trace's time can show in a size that does not grow
 * with its length.
 */
struct lt_report_timeline {
	uint64_t start_ns, end_ns;	/* the whole range's */
	unsigned int max_threads, max_waits;	/* the bounds it was made with */
	unsigned int nr_slices;		/* of [start_ns, end_ns), equal */
	struct lt_report_cause *causes;
	size_t nr_causes;
	struct lt_report_lane *lanes;	/* the most charged time first */
	size_t nr_lanes;
};

/* Blocked time split by how it was explained. */
struct lt_report_coverage {
	uint64_t ns[LT_CAUSE_NR];
};

/*
 * Interruptible waits over the cut-off: user requested (select, poll,
 * sleep), so not charged, but shown with their task.
 */
struct lt_report_uncharged {
	uint64_t count, total_ns, max_ns;
};

/* Time stopped (not charged unless asked): by a signal, for a tracer. */
struct lt_report_stopped {
	struct lt_report_uncharged signal, tracer;
};

struct lt_report_thread {
	int tid;
	const char *comm;		/* as of @as_of_ns, else its process's */
	/*
	 * In a merged report, the end of the range its comm is of (a thread
	 * named in an earlier range than its process); else 0.
	 */
	uint64_t as_of_ns;
	uint64_t total_ns;
	struct lt_report_row *rows;
	size_t nr_rows;
	struct lt_report_uncharged user_requested;
	struct lt_report_stopped stopped;
};

struct lt_report_process {
	int pid;
	const char *comm;
	/*
	 * Its cgroup's path from the hierarchy's root ("/system.slice/
	 * ssh.service"), as the trace last names it for its leader (or a
	 * thread); NULL when the trace does not say (see cgroup_events).
	 */
	const char *cgroup;
	bool kernel_thread;
	uint64_t total_ns;		/* all rows, waiting for cpu included */
	uint64_t max_ns;		/* its longest wait, in any row */
	struct lt_report_coverage coverage;
	struct lt_report_row *rows;
	size_t nr_rows;
	struct lt_report_thread *threads;
	size_t nr_threads;
	struct lt_report_uncharged user_requested;
	struct lt_report_stopped stopped;
	/*
	 * In a merged report: the trace it ran in (processes of different
	 * traces stay apart), and the end of the range its names are as of
	 * (a merge names it as the latest range does).  NULL and 0 in a
	 * report of one trace: its own, as of its view's end.
	 */
	const char *trace;
	uint64_t as_of_ns;
};

/* A merged report's processes of one name ("all postgres processes"). */
struct lt_report_command {
	const char *comm;
	bool kernel_thread;
	uint64_t processes;		/* how many were merged */
	uint64_t total_ns, max_ns;
	struct lt_report_coverage coverage;
	struct lt_report_row *rows;
	size_t nr_rows;
	struct lt_report_uncharged user_requested;
	struct lt_report_stopped stopped;
};

/* The tables for one time range: the whole trace, or one window. */
struct lt_report_view {
	uint64_t start_ns, end_ns;	/* absolute trace timestamps */
	uint64_t total_ns;
	struct lt_report_coverage coverage;	/* of the global table */
	struct lt_report_row *global;
	size_t nr_global;
	struct lt_report_process *processes;	/* by total, descending */
	size_t nr_processes;
	struct lt_report_command *commands;	/* merged reports only */
	size_t nr_commands;
};

/* One trace of a merged report: what its reports said of it. */
struct lt_report_trace {
	const char *id, *path, *format, *uname, *clock;
	int cpus;
	uint64_t start_ns, end_ns;	/* the earliest and latest read */
	uint64_t events, lost_events;	/* the most any of its reports read */
	uint64_t reports;		/* reports (ranges) of it merged */
};

struct lt_report_source {
	const char *event;		/* "sched:sched_switch" */
	uint64_t count;
};

struct lt_report_missing {
	const char *what;		/* what is missing */
	const char *effect;		/* what the report lacks because of it */
	const char *option;		/* trace-cmd record option adding it */
};

struct lt_report {
	const char *schema;		/* as saved; LT_REPORT_SCHEMA when made */
	/* the trace */
	const char *id;			/* 16 hex digits: format, uname, clock,
					   first event and CPUs hashed; the
					   same for every range of one trace */
	const char *path;
	const char *format;		/* "trace-cmd", "perf" */
	int file_version;		/* of that format */
	const char *compression;
	/*
	 * The trace.dat's buffer read: NULL the top level (the only one, or
	 * perf.data); else an instance's name.  @other_buffers names the
	 * others holding scheduler events (", " between), or is NULL.
	 */
	const char *buffer;
	const char *other_buffers;
	const char *uname;
	const char *clock;
	int cpus;
	uint64_t start_ns, end_ns;
	uint64_t events;
	bool stopped_at_to;		/* --to stopped the reading: the file goes on */
	uint64_t lost_events;		/* known counts */
	uint64_t lost_gaps_unknown;	/* gaps of unknown size */
	const uint64_t *lost_per_cpu;	/* nr_lost_cpus entries */
	int nr_lost_cpus;
	/* trace-cmd's saved ring-buffer stats: overrun + dropped, -1 unknown */
	const int64_t *overrun_per_cpu;	/* cpus entries */
	/*
	 * --partial: where each CPU's data ends early (the file cut short,
	 * or a CPU's data damaged): 0 for a CPU read whole; NULL when none.
	 * From there on that CPU is a gap of lost events to the end.
	 */
	const uint64_t *cpu_data_end;	/* cpus entries */
	struct lt_report_source *sources;
	size_t nr_sources;
	struct lt_report_missing *missing;
	size_t nr_missing;
	const char *record_hint;	/* a trace-cmd record line that adds them */

	/* what was not charged, and why */
	uint64_t dropped_interruptible, dropped_interruptible_ns;
	uint64_t dropped_maxtime, dropped_maxtime_ns;
	uint64_t began_before_trace, unfinished;
	uint64_t no_switch_in;		/* waits whose end (a switch-in) is missing */
	uint64_t cpu_waits_no_switch_in;	/* of which waits for a CPU */
	uint64_t cpu_waits_unwoken, cpu_waits_unwoken_ns;	/* for a CPU
					   after a preemption or a fork */
	/*
	 * Waits for a CPU whose switch-in the trace lacks, charged up to
	 * the last record that shows their CPU running something else: a
	 * lower bound.
	 */
	uint64_t lower_bound, lower_bound_ns;
	/* stops not charged (options.charge_stopped off): by a signal, for
	   a tracer; waits in a state not known here, never charged */
	uint64_t stopped_signal, stopped_signal_ns;
	uint64_t stopped_tracer, stopped_tracer_ns;
	uint64_t unknown_state, unknown_state_ns;
	/*
	 * Waits that a CPU's missing data may hide a part of: begun before
	 * every CPU had data (@complete_from_ns: the oldest pages of some
	 * CPU were overwritten), or across one of @lost_gaps gaps of lost
	 * events after it.  Dropped, never guessed.
	 */
	uint64_t complete_from_ns;	/* start_ns when complete throughout */
	uint64_t lost_gaps;
	uint64_t dropped_incomplete, dropped_incomplete_ns;
	uint64_t dropped_gap, dropped_gap_ns;
	uint64_t discarded_lost, resync, unmatched_restore, inconsistent;
	uint64_t unordered;		/* events whose time went backwards */
	uint64_t damaged_records;	/* records not fitting their format: ignored */
	/*
	 * Tasks' cgroups the trace told (perf record --all-cgroups samples,
	 * latency-record's saved cgroups): 0 when it has none, and no
	 * process has a cgroup.
	 */
	uint64_t cgroup_events;

	struct lt_options options;	/* as used */
	bool saved;			/* read from a saved report, not made
					   now: @options are its own */
	bool partial;			/* damage stopped the reading early */
	const char *partial_reason;

	struct lt_report_view whole;
	struct lt_report_view *windows;
	size_t nr_windows;

	/* a merged report: its traces, by id, and how many reports it holds */
	struct lt_report_trace *traces;
	size_t nr_traces;
	uint64_t merged_reports;

	/* options.timeline_threads: the busiest threads' waits; else NULL */
	struct lt_report_timeline *timeline;

	/* what the stacks' frames are in (lt_report_stack.addrs...) */
	const struct lt_report_binary *binaries;
	size_t nr_binaries;
	const char *kernel_build_id;	/* hex; NULL or "" when not recorded */
};

/*
 * Read @path, replay it and build the report.  Returns 0 and *out, or -1
 * with @err (and exit status lt_error_exit_status(err->code)).  With
 * opts->partial, damage after some data was read gives a report marked
 * partial instead of an error.  A file is known by its first bytes: a
 * trace-cmd trace.dat, or a report saved as JSON, which is read back
 * (report->saved; @opts then change nothing).
 */
int lt_analyze(const char *path, const struct lt_options *opts,
	       struct lt_report **out, struct lt_error *err);
void lt_report_free(struct lt_report *report);
/*
 * A report saved by lt_report_write(LT_FORMAT_JSON) read back: 0 and
 * *out, or -1 with @err (LT_E_CORRUPT naming the field that is wrong).
 */
int lt_report_read_json(const char *path, struct lt_report **out,
			struct lt_error *err);
/*
 * Whether @path holds a saved JSON report rather than a trace: its first
 * byte past blanks (and a UTF-8 byte-order mark) is '{' or '[', which no
 * trace.dat's is.  False when it cannot be read.
 */
bool lt_report_file_is_json(const char *path);

int lt_report_write(const struct lt_report *report, enum lt_format format,
		    FILE *out, struct lt_error *err);
/*
 * The time @report's trace spans, its first event read to its last; for
 * a merged report, its traces' spans added up (each trace once, from the
 * earliest start to the latest end of its ranges): traces on different
 * clocks have no span in common.
 */
uint64_t lt_report_duration_ns(const struct lt_report *report);

/* ---- diff: what changed between two reports, cause by cause ------------ */

/* Where a cause is compared: the tables of each side. */
enum lt_diff_scope {
	LT_DIFF_GLOBAL,		/* the global table */
	LT_DIFF_COMMAND,	/* the processes of one name, added up */
	LT_DIFF_PROCESS,	/* one process, by name and pid */
	LT_DIFF_SCOPES
};
#define LT_DIFF_SCOPE_BIT(s)	(1u << (s))

enum lt_diff_status {
	LT_DIFF_SAME,		/* the same figures on both sides */
	LT_DIFF_CHANGED,
	LT_DIFF_NEW,		/* only after */
	LT_DIFF_VANISHED,	/* only before */
};

struct lt_diff_row {
	enum lt_diff_scope scope;
	const char *comm;		/* command and process scopes, else NULL */
	int pid;			/* process scope, else 0 */
	bool kernel_thread;
	const char *reason, *argument;
	enum lt_cause_kind kind;
	enum lt_diff_status status;
	/*
	 * The cause's figures on each side: its row's statistics (percent
	 * the share of its table's total) and no_percentiles, without its
	 * names, lists or histogram; all zeros where it is absent.
	 */
	struct lt_report_row before, after;
	unsigned int crossed;		/* --fail-on tests it crossed: a bit each */
	/*
	 * Whom its waits waited for most (issue 48), on each side [0]
	 * before, [1] after: the top waker of its waited_for tree (a task
	 * by its command, an interrupt, a timer, unknown by its kind; NULL:
	 * no tree) and the time its nodes have.  @waker_changed: both sides
	 * name one, not the same; shown even when the figures are the same.
	 */
	const char *top_waker[2];
	uint64_t top_waker_ns[2];
	bool waker_changed;
};

/* A --fail-on expression and the causes that crossed it. */
struct lt_diff_check {
	const char *expr;
	size_t crossed;			/* rows that crossed it */
};

struct lt_diff {
	const char *before_name, *after_name;
	const struct lt_report *before, *after;	/* as compared (merged form) */
	unsigned int scopes;		/* LT_DIFF_SCOPE_BIT()s compared */
	struct lt_diff_row *rows;	/* every cause compared, by scope, then
					   by how much worse (total's rise) */
	size_t nr_rows;
	size_t nr_by_status[LT_DIFF_VANISHED + 1];
	size_t nr_waker_changed;	/* rows whose top waker changed */
	struct lt_diff_check *checks;
	size_t nr_checks;
	bool all;			/* write unchanged causes too */
};

/*
 * Compare @before and @after (each analysed or read, of any schema 1.x)
 * in the @scopes (LT_DIFF_SCOPE_BIT()s), named @before_name and
 * @after_name.  The reports may be freed after.  0 and *@out, or -1.
 */
int lt_diff_make(const struct lt_report *before, const char *before_name,
		 const struct lt_report *after, const char *after_name,
		 unsigned int scopes, struct lt_diff **out, struct lt_error *err);
/*
 * Test the --fail-on expression @expr on @d's causes (grammar in
 * latency-analyze(1)): 0 and the number of causes that crossed it in
 * *@crossed, marked in their rows and added to d->checks; -1 with
 * LT_E_USAGE and where @expr is malformed.  At most 32 per diff.  With
 * @d NULL, @expr is only parsed.
 */
int lt_diff_check(struct lt_diff *d, const char *expr, size_t *crossed,
		  struct lt_error *err);
void lt_diff_free(struct lt_diff *d);
/* @d as text or JSON (schema "latencytop-diff/1"), through the table. */
int lt_diff_write(const struct lt_diff *d, enum lt_format format, FILE *out,
		  struct lt_error *err);
#define LT_DIFF_SCHEMA "latencytop-diff/1"

/* ---- waits: one row per wait, for SQL engines ------------------------ */

/*
 * The waits of an analysis written as they come, in @format
 * (LT_FORMAT_WAITS_CSV: a header line and RFC 4180 rows;
 * LT_FORMAT_WAITS_JSONL: one JSON object a line) to @out, and the stacks
 * they name to @stacks (NULL: not written), once attached to the options
 * of lt_analyze().  Columns: docs/report-schema.md.
 */
struct lt_waits_writer;
struct lt_waits_writer *lt_waits_writer_new(enum lt_format format, FILE *out,
					    FILE *stacks);
void lt_waits_writer_attach(struct lt_waits_writer *w, struct lt_options *opts);
/* The rows written so far. */
uint64_t lt_waits_writer_rows(const struct lt_waits_writer *w);
/* Flush and free: 0, or -1 with @err when a write failed. */
int lt_waits_writer_close(struct lt_waits_writer *w, struct lt_error *err);

/* ---- writers: every output format is a row of one table ---------------- */

/* The options that shape some formats and not others. */
enum lt_writer_opt {
	LT_WOPT_STACKS,			/* --stacks */
	LT_WOPT_PER_THREAD,		/* --per-thread */
	LT_WOPT_LIMIT,			/* --limit */
	LT_WOPT_WINDOW,			/* --window */
	LT_WOPT_MAX_PROCESSES,		/* --max-processes */
	LT_WOPT_CHAINS,			/* --chains */
	LT_WOPT_NR
};

/* What a writer writes: a report (the tables), a diff of two, the waits. */
enum lt_writer_input { LT_WRITE_REPORT, LT_WRITE_DIFF, LT_WRITE_WAITS };

struct lt_writer {
	const char *name;		/* --format's word: "json" */
	enum lt_writer_input input;
	enum lt_format format;
	const char *summary;		/* what it writes, for --help and the man page */
	/*
	 * per option its command takes: NULL when the writer honours it,
	 * else why it does not (diff takes no --stacks, --per-thread or
	 * --limit: NULL there)
	 */
	const char *ignores[LT_WOPT_NR];
	/* its report shows a timeline: analyse with lt_options.timeline_* */
	bool timeline;
	/* it writes bytes, not text: not for a terminal */
	bool binary;
};

/* The @i-th writer (from 0), or NULL past the last: in --help's order. */
const struct lt_writer *lt_writer_at(size_t i);
/* The writer of @input called @name, or NULL. */
const struct lt_writer *lt_writer_find(enum lt_writer_input input,
				       const char *name);
/* "--stacks": the option as the command line spells it. */
const char *lt_writer_opt_name(enum lt_writer_opt opt);
/*
 * The report as one self-contained HTML file (--format=html): the text
 * report's header, the tables (sortable, filtered by process name), an
 * off-CPU flame graph, the timeline (lt_report.timeline) and, with
 * windows, each window's charged time by cause.  It loads nothing when
 * opened; names from the trace are escaped.  @o says what a viewer shows
 * (NULL: the whole range, every process).  0, or -1 with @err.
 */
struct lt_html_options {
	long view;			/* -1: the whole range's tables; else
					   window @view's */
	const char *filter;		/* processes shown at first: a name
					   (or pid) holding it, or with a
					   leading '^' starting with it; NULL
					   or "": all */
	int focus_pid;			/* the process open and in sight; 0: none */
};
void lt_html_options_init(struct lt_html_options *o);
int lt_report_write_html(const struct lt_report *report,
			 const struct lt_html_options *o, FILE *out,
			 struct lt_error *err);
/*
 * Parts of the text report, for a viewer to show: its header (trace,
 * file, range, sources, what is missing or lost, what was not charged)
 * and the lines above a view's global table (its total, how much of it
 * is explained, why it is empty).  0, or -1 on a write error.
 */
int lt_report_write_header(const struct lt_report *report, FILE *out);
int lt_report_write_view_head(const struct lt_report *report,
			      const struct lt_report_view *view, FILE *out);
/*
 * Order @report's tables and process sections by @sort, as lt_analyze()
 * with that option would have (for a saved report read back).
 */
void lt_report_sort(struct lt_report *report, enum lt_sort sort);

/*
 * Merge @nr reports (analysed traces, saved reports, merged ones) into
 * *@out, as exactly as one analysis of all their data: counts, totals,
 * maxima, worst waits and stacks add up, histograms add up bucket by
 * bucket and the percentiles come from them.  Processes are keyed by
 * (trace id, pid): the ranges of one trace combine, different traces'
 * stay apart; the global table is made again from them, and a table per
 * command ("all postgres processes") is added.  Associative and order
 * independent, down to the bytes written.  Rows of reports without
 * histograms (schema 1.0) merge, but with unknown percentiles, and each
 * such report is named through lt_warning().  Reports made with different
 * accounting options (cut-off, maxtime, kernel threads) do not merge:
 * -1 with LT_E_MISMATCH.  @names (NULL: each report's path) name the
 * inputs in messages.  Windows are not merged.  The inputs may be
 * freed after.
 */
int lt_report_merge(const struct lt_report *const *in, const char *const *names,
		    size_t nr, struct lt_report **out, struct lt_error *err);

/*
 * The same merge, one report at a time: what it holds is the merged
 * processes so far (and the traces and counts), never the reports added,
 * which may be freed as soon as they are.  Its result is lt_report_merge()'s
 * of all the reports added, in any order.  new: NULL with @err (out of
 * memory); @warn: name reports without histograms through lt_warning().
 * add: 0, or -1 with @err (LT_E_MISMATCH, LT_E_NOMEM), after which the
 * merger can only be freed; @name (NULL: the report's path) names it in
 * messages.  finish: the merged report (0 and *@out), or -1 with @err
 * (LT_E_USAGE when nothing was added); the merger is spent either way.
 */
struct lt_report_merger;
struct lt_report_merger *lt_report_merger_new(bool warn, struct lt_error *err);
int lt_report_merger_add(struct lt_report_merger *merger,
			 const struct lt_report *report, const char *name,
			 struct lt_error *err);
int lt_report_merger_finish(struct lt_report_merger *merger,
			    struct lt_report **out, struct lt_error *err);
void lt_report_merger_free(struct lt_report_merger *merger);

/*
 * "fsync (ext4)": a row's cause as the tables show it, at most @width
 * columns (0: any; UTF-8, two an East Asian wide character) and @len
 * bytes with its NUL, cut on a character and ending in '~' so it is
 * never taken for a whole name; control characters as '?'.  Reads no
 * more of the names than @len.
 */
char *lt_format_cause(char *buf, size_t len, const struct lt_report_row *row,
		      size_t width);
/*
 * Characters the Count column of @nr rows takes: 7, or the widest count's
 * (a long trace's 123456789 widens the column instead of shifting a row).
 */
int lt_format_count_width(const struct lt_report_row *rows, size_t nr);
/*
 * What stands for @v's global table when it has no rows: that it leaves
 * the kernel threads out, when only they waited.
 */
const char *lt_report_global_empty(const struct lt_report *report,
				   const struct lt_report_view *v);
/*
 * The translation table built in (latencytop.trans format), @len bytes:
 * to show a user the lines a table of their own may override.
 */
const char *lt_builtin_trans_text(size_t *len);

/* "12.3 ms", "1.23 s": a duration in LatencyTOP's units. */
char *lt_format_duration(char *buf, size_t len, uint64_t ns);
/*
 * "1234.567890": a trace time in seconds, rounded to the microsecond as
 * trace-cmd report prints it, so that it can be searched for there.
 */
char *lt_format_stamp(char *buf, size_t len, uint64_t ns);
/*
 * Parse "30s", "500ms", "1.5", "2m", "10us", "100ns" (default unit:
 * @unit_ns): 0, -1 when it is no such duration, -2 when it is too large
 * for 64 bits of nanoseconds.
 */
int lt_parse_duration(const char *s, uint64_t unit_ns, uint64_t *ns);

#ifdef __cplusplus
}
#endif

#endif /* LATENCYTOP_H */
