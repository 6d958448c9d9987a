/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * ltr.h - recording latencytop traces through tracefs (libtracefs).
 *
 * The tracefs side of latency-record, kept apart from the file writer
 * (ltr-dat.h) and from the programs, so that a second consumer (live mode,
 * issue 42) sets tracing up the same way:
 *
 *   session  an instance of our own (or the top-level one, locked), the
 *            events this kernel has, stacks, buffer sizes, schedstats;
 *            every change journaled and undone by ltr_session_restore()
 *   stream   one reader per CPU, handing whole ring-buffer pages to a
 *            callback while the workload runs
 *   probes   the latencytop events as kprobe/kretprobe events, from the
 *            site table in kernel/include/latencytop-sites.h
 *   meta     what a trace.dat needs besides the pages (formats, kallsyms)
 *
 * Nothing here exits or prints: failures come back as an lt_error (one
 * line naming the file, what and why), notes through ltr_set_log_fn().
 */
#ifndef LTR_H
#define LTR_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "latencytop.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Failures are latencytop.h's struct lt_error, codes and exit statuses
 * from its one table (LT_ERRORS: latency-record's are its last column).
 */

/* Notes on what was done or could not be: default, none shown. */
enum ltr_log_level { LTR_LOG_INFO, LTR_LOG_WARN };
typedef void (*ltr_log_fn)(void *ctx, enum ltr_log_level level,
			   const char *msg);
void ltr_set_log_fn(ltr_log_fn fn, void *ctx);

/* The lock the project's tracefs users share (tests/golden/record-lib.sh). */
#define LTR_LOCK_PATH	"/tmp/lt-tracefs.lock"

/*
 * Where tracefs is mounted, from /proc/self/mounts (malloc'd), or NULL:
 * what libtracefs's tracefs_tracing_dir() finds, without the mount it
 * makes silently when there is none.
 */
char *ltr_tracefs_mounted(void);

/* ---- journal: every change, on disk before it is made ------------------ */

/*
 * Where the journals are ($LT_JOURNAL_DIR overrides): cleared by a reboot,
 * as what they undo is.
 */
#define LTR_JOURNAL_DIR	"/run/latencytop"

/* How a change is undone. */
enum ltr_undo {
	LTR_UNDO_WRITE,		/* write VALUE back into PATH */
	LTR_UNDO_APPEND,	/* append VALUE to PATH (dynamic_events) */
	LTR_UNDO_RMDIR,		/* remove the directory PATH (an instance) */
	LTR_UNDO_UMOUNT,	/* unmount PATH (a tracefs we mounted) */
	LTR_UNDO_UNLINK,	/* remove the file PATH (a temporary) */
	LTR_UNDO_RMTREE,	/* remove PATH and the files in it (scratch) */
};

/*
 * A run's journal (journal.c): opened before the first change, each
 * change added (an id) before it is made and done with once undone (or
 * meant to stay), closed (the file removed) at the end.  A run that is
 * killed leaves it, and the next run, or latency-record doctor, replays
 * it: whatever tool wrote it.  NULL journals are allowed (nothing kept).
 */
struct ltr_journal;
const char *ltr_journal_dir(void);
int ltr_journal_open(const char *program, struct ltr_journal **out,
		     struct lt_error *err);
long ltr_journal_add(struct ltr_journal *j, enum ltr_undo kind,
		     const char *path, const char *value, struct lt_error *err);
void ltr_journal_done(struct ltr_journal *j, long id);
void ltr_journal_close(struct ltr_journal *j);
/*
 * An lt_outfile_hook (lt-outfile.h) journaling a temporary file or
 * directory before it is made: @ctx is a struct ltr_journal_file, whose
 * id is then the entry's (done with once the temporary is gone).
 */
struct ltr_journal_file {
	struct ltr_journal *j;
	enum ltr_undo kind;	/* LTR_UNDO_UNLINK or LTR_UNDO_RMTREE */
	long id;
	struct lt_error err;
};
int ltr_journal_file_hook(void *ctx, const char *path);

/* Carry out one undo: 0, or -1 with errno (what is gone already is 0). */
int ltr_undo(enum ltr_undo kind, const char *path, const char *value);
/*
 * Undo what every run that is gone left in its journal, newest change
 * first; @note (may be NULL) hears of each (@error: 0, or the errno of
 * the failure).  How many were undone.
 */
typedef void (*ltr_journal_note_fn)(void *ctx, const char *owner,
				    const char *what, const char *path,
				    const char *value, int error);
int ltr_journal_replay_stale(ltr_journal_note_fn note, void *ctx);
/*
 * The same, and the instances of ours in @tracefs (NULL: none looked
 * at) whose run is gone and left no journal (an older version's): what
 * every session does first, and latency-record doctor.  How many.
 */
int ltr_restore_stale(const char *tracefs, ltr_journal_note_fn note, void *ctx);

/* ---- session: set-up and restore -------------------------------------- */

enum ltr_stacks {
	LTR_STACKS_OFF,
	LTR_STACKS_SWITCH,	/* a stack after each blocking sched_switch
				   (the stacktrace trigger) */
	LTR_STACKS_ALL,		/* after every event (options/stacktrace, -T) */
};

struct ltr_config {
	const char *tracefs_dir;	/* NULL: the mounted tracefs ($LT_TRACEFS) */
	const char *instance;		/* NULL: "latency-record.<pid>" */
	bool top_level;			/* the top-level instance, under the lock */
	const char *lock_path;		/* NULL: $LT_LOCK or LTR_LOCK_PATH */
	unsigned int buffer_kb;		/* per CPU; 0: ltr_buffer_kb_default() */
	enum ltr_stacks stacks;
	bool schedstats;		/* switch kernel.sched_schedstats on, and back */
	const char *clock;		/* trace_clock ("mono"); NULL: as it is */
	struct ltr_journal *journal;	/* the run's; NULL: the session's own */
	const char *program;		/* its journal's owner; NULL: latency-record */
};

void ltr_config_init(struct ltr_config *cfg);
/* The per-CPU buffer latency-record asks for: sized by memory and stacks. */
unsigned int ltr_buffer_kb_default(enum ltr_stacks stacks, int cpus);

/* An event the recorder wants, and what this kernel has of it. */
enum ltr_event_state {
	LTR_EVENT_MISSING,	/* not in this kernel */
	LTR_EVENT_PRESENT,	/* there, not (yet) enabled */
	LTR_EVENT_ENABLED,
	LTR_EVENT_FAILED,	/* there, but enabling it failed */
};

struct ltr_event {
	const char *system, *name;
	enum ltr_event_state state;
	int error;		/* errno of a failed enable */
	const char *origin;	/* where this one comes from ("kprobes", ...) */
	const char *cost;	/* what a report lacks without it */
	const char *fix;	/* how to get it */
};

struct ltr_session;

/*
 * Find tracefs, take what the session needs (its own instance, or the
 * lock and the idle top-level instance) and look at the events.  Changes
 * nothing else yet.  The first thing that stops it is the error.
 */
int ltr_session_open(const struct ltr_config *cfg, struct ltr_session **out,
		     struct lt_error *err);
/* The events and what is known of them (after start: which were enabled). */
size_t ltr_session_events(const struct ltr_session *s,
			  const struct ltr_event **events);
/*
 * Whether the sched_stat events are there but silent: kernel.sched_schedstats
 * is 0.  ltr_session_want_schedstats() changes cfg->schedstats before start.
 */
bool ltr_session_schedstats_off(const struct ltr_session *s);
void ltr_session_want_schedstats(struct ltr_session *s, bool on);
/* Whether the kernel has kernel.sched_schedstats at all (CONFIG_SCHEDSTATS). */
bool ltr_session_schedstats_exist(const struct ltr_session *s);
/*
 * Size the buffers, enable the events (those that fail are noted, not
 * fatal, but sched_switch is), the stacks and schedstats, start tracing.
 */
int ltr_session_start(struct ltr_session *s, struct lt_error *err);
/* Stop writing into the buffers (tracing_on 0): the readers flush after. */
int ltr_session_stop(struct ltr_session *s, struct lt_error *err);
/*
 * Undo every change, newest first: events, options, triggers, buffer
 * sizes, tracing_on, schedstats, the instance, the lock.  Safe to call
 * twice and after any failure; 0, or -1 with the first setting it could
 * not restore (the rest were still tried).
 */
int ltr_session_restore(struct ltr_session *s, struct lt_error *err);
/* Restore (quietly: call ltr_session_restore() to hear of failures) and free. */
void ltr_session_close(struct ltr_session *s);

int ltr_session_cpus(const struct ltr_session *s);
unsigned int ltr_session_buffer_kb(const struct ltr_session *s);
const char *ltr_session_instance_name(const struct ltr_session *s); /* NULL: top */
/* The tracing directory, and the instance's in it (NULL once restored). */
const char *ltr_session_tracefs(const struct ltr_session *s);
const char *ltr_session_dir(const struct ltr_session *s);
bool ltr_session_stacks_enabled(const struct ltr_session *s);
/* "per_cpu/cpuN/stats" as the kernel prints it (malloc'd), or NULL. */
char *ltr_session_cpu_stats(const struct ltr_session *s, int cpu);

/* From a per_cpu stats text: what the ring buffer lost and how many events went by. */
struct ltr_cpu_stats {
	uint64_t entries, overrun, commit_overrun, dropped, read;
};
int ltr_parse_cpu_stats(const char *text, struct ltr_cpu_stats *st);

/* ---- stream: the per-CPU readers -------------------------------------- */

/*
 * Called from CPU @cpu's reader thread with @len bytes of whole ring
 * buffer pages (sub-buffers of ltr_stream_page_size()).  Return 0, or an
 * errno: that reader stops and ltr_stream_failed() turns true.
 */
typedef int (*ltr_pages_fn)(void *ctx, int cpu, const void *pages, size_t len);
/*
 * Called from CPU @cpu's reader thread when it found the CPU's buffer
 * empty: every event stamped before @mono_ns (CLOCK_MONOTONIC, read
 * before the reads that emptied it) has gone to pages().  With the
 * "mono" trace clock that is a watermark a live reader merges by.
 */
typedef void (*ltr_drained_fn)(void *ctx, int cpu, uint64_t mono_ns);

struct ltr_stream;

struct ltr_stream_opts {
	ltr_pages_fn pages;
	void *ctx;
	unsigned int poll_ms;	/* longest sleep between reads (0: 100 ms) */
	/*
	 * Partly filled pages too, at every poll (a live view must not
	 * wait for a quiet CPU's page to fill): read(), not splice().
	 */
	bool partial;
	ltr_drained_fn drained;	/* NULL: not told */
};

/* Open every CPU's trace_pipe_raw and start a reader on each. */
int ltr_stream_start(struct ltr_session *s, const struct ltr_stream_opts *o,
		     struct ltr_stream **out, struct lt_error *err);
size_t ltr_stream_page_size(const struct ltr_stream *st);
/* Readable once a reader failed: for the caller's poll(). */
int ltr_stream_failed_fd(const struct ltr_stream *st);
bool ltr_stream_failed(const struct ltr_stream *st);
/*
 * After ltr_session_stop(): each reader reads what is left and ends.
 * 0, or -1 with the first reader's failure.
 */
int ltr_stream_stop(struct ltr_stream *st, struct lt_error *err);
uint64_t ltr_stream_bytes(const struct ltr_stream *st, int cpu);
/* CPU time the readers have used, in all (their own cost), in ns. */
uint64_t ltr_stream_cpu_ns(const struct ltr_stream *st);
void ltr_stream_free(struct ltr_stream *st);

/* ---- probes: latencytop events from kprobes ---------------------------- */

enum ltr_probe_state {
	LTR_PROBE_INSTALLED,	/* both events have this site */
	LTR_PROBE_PARTIAL,	/* only one of the two */
	LTR_PROBE_ABSENT,	/* not installed */
	LTR_PROBE_SKIPPED,	/* the install found it cannot be probed */
};

struct ltr_probe_site {
	const char *group, *symbol, *reason;
	char key[64];		/* what the event's "reason" holds */
	uint32_t maxtime_us;
	bool in_default;	/* its group is in "default" */
	/* filled by ltr_probes_scan() and ltr_probes_install() */
	enum ltr_probe_state state;
	unsigned int maxactive;	/* of its kretprobe, 0 unknown */
	uint64_t hits_set, hits_restore;
	uint64_t missed_set, missed_restore;
	char why[160];		/* why it was skipped */
};

struct ltr_probes;

struct ltr_probes_opts {
	const char *groups;	/* "default", "all" or "sync,pipe,..." */
	unsigned int maxactive;	/* 0: sized per site by ltr */
	const char *lock_path;	/* NULL: $LT_LOCK or LTR_LOCK_PATH */
};

/*
 * The site table for this machine, and what tracefs says of it: kprobe
 * events supported, the latencytop events static (patch, module) or
 * dynamic, each site installed or not.  Needs tracefs (and root).
 */
int ltr_probes_scan(struct ltr_probes **out, struct lt_error *err);
/* The site table only, without tracefs (for --dry-run): every site absent. */
int ltr_probes_table(struct ltr_probes **out, struct lt_error *err);
/* Whether latencytop kprobe events exist (after a scan, install or remove). */
bool ltr_probes_any(const struct ltr_probes *p);
/* Whether tracefs has kprobe events (after ltr_probes_scan()). */
bool ltr_probes_supported(const struct ltr_probes *p);
/*
 * What would give a kernel without them the latencytop events, naming
 * only what works on this one (issue 49): "latency-record probes install"
 * where it has @kprobe_events, kernel/module where modules load and it
 * has kretprobes, else the patched kernel.  A constant, or @buf.
 */
const char *ltr_latencytop_fix(bool kprobe_events, char *buf, size_t size);
/* Whether a site's group is selected by a --groups list; -1: a bad list. */
int ltr_probes_selected(const char *group, const char *list,
			struct lt_error *err);
const char *ltr_probes_tracefs(const struct ltr_probes *p);
size_t ltr_probes_sites(const struct ltr_probes *p,
			struct ltr_probe_site **sites);
/* Whether the latencytop events exist and are not ours (patch, module). */
bool ltr_probes_static_events(const struct ltr_probes *p);
/*
 * Create the events for the selected sites not installed yet (a second
 * install adds nothing).  Sites the kernel will not probe (missing,
 * inlined, blacklisted) are skipped with why; an error only if none
 * could be made.
 */
int ltr_probes_install(struct ltr_probes *p, const struct ltr_probes_opts *o,
		       struct lt_error *err);
/*
 * Remove our two events (all their probe points) and nothing else; busy
 * (enabled in some instance) unless @force, which disables them first.
 */
int ltr_probes_remove(struct ltr_probes *p, bool force,
		      const struct ltr_probes_opts *o, struct lt_error *err);
/* Read kprobe_profile into each site's hits and missed counts. */
int ltr_probes_profile(struct ltr_probes *p, struct lt_error *err);
void ltr_probes_free(struct ltr_probes *p);

/* Tasks alive when the table was made (/proc/loadavg), for maxactive. */
unsigned int ltr_probes_threads(const struct ltr_probes *p);
/* The maxactive ltr gives a site's kretprobe with @threads tasks alive. */
unsigned int ltr_probe_maxactive(const struct ltr_probe_site *site,
				 unsigned int threads);
/*
 * The definitions written to dynamic_events for @site (for --dry-run and
 * tests): "p:latencytop/latency_reason_set SYMBOL reason=...".
 */
int ltr_probe_lines(const struct ltr_probe_site *site, unsigned int maxactive,
		    char *set_line, size_t set_len,
		    char *restore_line, size_t restore_len);

/* ---- each CPU's pages in a file of its own, DIR/cpuN ---------------------- */

struct ltr_cpu_files {
	int cpus;
	char *dir;		/* private, beside the output (lt-outfile.h) */
	struct ltr_journal *journal;
	long dir_id;		/* the journal's entry that removes it */
	int *fds;		/* the trace.dat writer reads them back */
	char **paths;
	atomic_int error;	/* errno of the first write that failed */
	atomic_int error_cpu;
};

/*
 * Create cpu0 .. cpuN-1 in a new private directory beside @out (under
 * $TMPDIR where @out is not a regular file), journaled in @j (may be
 * NULL) before it is made: 0, or -1 with @err.
 */
int ltr_cpu_files_open(struct ltr_cpu_files *f, const char *out, int cpus,
		       struct ltr_journal *j, struct lt_error *err);
/*
 * Append @cpu's pages to the files @files (an ltr_cpu_files: the stream's
 * pages callback as it is), from that CPU's reader thread: 0, or the
 * errno, the first failure's kept in error and error_cpu.
 */
int ltr_cpu_files_write(void *files, int cpu, const void *pages, size_t len);
/* Close and remove the files and their directory; again does nothing. */
void ltr_cpu_files_close(struct ltr_cpu_files *f);

#ifdef __cplusplus
}
#endif

#endif /* LTR_H */
