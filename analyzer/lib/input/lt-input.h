/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * lt-input.h - what feeds the replay: one interface for every file format.
 *
 * A file is known by what it starts with: a trace-cmd trace.dat, a
 * perf.data, or a saved JSON report (no events: a report made already).
 * An event source, opened, says what it is (struct lt_input_info), lends
 * the decoder its event formats, hands out decoded events in time order,
 * names kernel addresses and tasks, and closes.  analysis.c knows no more
 * of a format than this; the replay, the reports and the viewer know
 * nothing of it at all.
 *
 * Like perf's struct perf_tool and trace-cmd's tracecmd_input, each format
 * is a table of operations (struct lt_input_ops) behind one object.
 */
#ifndef LT_INPUT_H
#define LT_INPUT_H

#include <stdbool.h>
#include <stdint.h>

#include "latencytop.h"
#include "lt-decode.h"
#include "lt-event.h"
#include "lt-trace.h"

enum lt_input_kind {
	LT_INPUT_TRACEDAT,	/* trace-cmd's trace.dat, v6 or v7 */
	LT_INPUT_PERF,		/* perf record's perf.data, file or pipe */
	LT_INPUT_REPORT,	/* a report saved with --format=json */
};

/* What the file says about itself. */
struct lt_input_info {
	const char *path;
	const char *format;	/* "trace-cmd", "perf" */
	int version;		/* of that format's files */
	const char *compression;	/* "none", "zstd", "zlib" */
	const char *uname;	/* "" if not recorded */
	const char *clock;	/* "" if not recorded */
	int cpus;
	/*
	 * A trace.dat's buffer read: NULL for the top level, else an
	 * instance's name; the others with scheduler events (", " between),
	 * or NULL.
	 */
	const char *buffer;
	const char *other_buffers;
};

/* How to read the events, for one run. */
struct lt_input_run {
	struct lt_decoder *dec;	/* over lt_input_formats() */
	/*
	 * Records per event id, counted while reading: the formats' ids
	 * below lt_trace_event_id_limit(), then one count for all others.
	 */
	uint32_t *by_id;
	bool partial;		/* read past damage (it stops only its CPU) */
	int64_t to_ns;		/* stop after first event + to_ns; -1 = never */
	unsigned int threads;	/* in all, the caller's included (see
				   lt_input_threads()) */
};

struct lt_input_result {
	uint64_t events;	/* event records read */
	bool cut;		/* --to stopped it before the end */
	bool damaged;		/* --partial read past damage */
	struct lt_error damage;	/* the first damage */
	unsigned int nr_damaged;	/* CPUs it stopped, that one included */
};

/* Called in the caller's thread for each event, in order; -1 stops. */
typedef int (*lt_input_event_fn)(void *ctx, const struct lt_ev *ev);
/* Called now and then in the caller's thread. */
typedef void (*lt_input_progress_fn)(void *ctx, uint64_t done, uint64_t total);

/* How to open an input. */
struct lt_input_open {
	bool helper;		/* a thread of its own may help (compressed
				   symbols decompressed beside the parse) */
	const char *kallsyms;	/* kernel symbols from this file, for inputs
				   that carry none (perf.data); NULL: find them */
	const char *buffer;	/* a trace.dat's buffer: an instance's name,
				   "" the top level; NULL: the one with
				   scheduler events (the top level first) */
};

/*
 * How the tool that writes the format records what a report lacks: the
 * header's "record them with" line is spelled in its words.
 */
struct lt_input_recipe {
	const char *record;	/* "trace-cmd record" */
	bool qualified;		/* events named system:event ("sched:sched_switch") */
	const char *all_latencytop;	/* "latencytop", "'latencytop:*'" */
	const char *stacks;	/* its option for kernel stacks: "-T", "-g" */
	const char *stack_source;	/* what Sources: calls the stacks */
	const char *workload;	/* what ends the line: " <workload>" */
	bool forks;		/* threads grouped without task:task_newtask */
};

struct lt_input;

/* A frame's name, valid during the call: 0 to go on. */
typedef int (*lt_frame_name_fn)(void *ctx, uint64_t frame, const char *name);

struct lt_input_ops {
	const char *name;	/* "trace.dat" */
	const struct lt_input_recipe *recipe;
	/*
	 * Open @path as @o says, fill in->info and in->formats: 0, or -1
	 * with @err naming the file.
	 */
	int (*open)(struct lt_input *in, const char *path,
		    const struct lt_input_open *o, struct lt_error *err);
	void (*close)(struct lt_input *in);
	/* Threads to read with: @asked, or for 0 as many as are worth it. */
	unsigned int (*threads)(struct lt_input *in, unsigned int asked);
	/* Every event through @event, in time order: 0, or -1 (@err set
	   unless @event stopped it). */
	int (*run)(struct lt_input *in, const struct lt_input_run *cfg,
		   lt_input_event_fn event, lt_input_progress_fn progress,
		   void *ctx, struct lt_input_result *res,
		   struct lt_error *err);
	/*
	 * Kernel symbols: loaded now (0, or -1 with @err; NULL @err: a
	 * warning on first use instead), and looked up (NULL: unknown).
	 * Loading may run on a thread of its own while events are read.
	 */
	int (*load_ksyms)(struct lt_input *in, struct lt_error *err);
	const char *(*ksym)(struct lt_input *in, uint64_t addr);
	/*
	 * A user-space frame as the input encoded it in a stack (after
	 * LT_FRAME_USER), named into @buf; NULL for inputs with none.
	 */
	const char *(*frame_name)(struct lt_input *in, uint64_t frame,
				  char *buf, size_t len);
	/*
	 * @nr such frames named at once, each as frame_name() would, through
	 * @fn (0 to go on; else it stops, -1): sorted, they are named binary
	 * by binary, each let go after its last (the memory is then one
	 * binary's).  NULL: one at a time only.
	 */
	int (*frame_names)(struct lt_input *in, const uint64_t *frames,
			   size_t nr, lt_frame_name_fn fn, void *ctx);
	/*
	 * Where such a frame is: *@binary (binary() index + 1, 0: in no
	 * mapping) and *@offset in that file; the @i-th binary (from 0),
	 * its build-id as hex into @hex of 41 bytes ("" unknown), NULL past
	 * the last; the recorded kernel's build-id into @hex ("" unknown).
	 * NULL for inputs that do not know.
	 */
	void (*frame_place)(struct lt_input *in, uint64_t frame,
			    uint32_t *binary, uint64_t *offset);
	const char *(*binary)(struct lt_input *in, unsigned int i, char *hex);
	void (*kernel_build_id)(struct lt_input *in, char *hex);
	/* A name for @pid that no event gave, or NULL. */
	const char *(*task_name)(struct lt_input *in, int pid);
	/* Events the kernel lost on @cpu by its own count, -1 unknown. */
	int64_t (*cpu_overrun)(struct lt_input *in, int cpu);
};

struct lt_input {
	const struct lt_input_ops *ops;
	struct lt_input_info info;
	const struct lt_trace *formats;	/* the events' formats */
	void *priv;
};

/*
 * What @path is, by its first bytes: 0 and *@kind, or -1 with @err (it
 * cannot be read, or it is none of them: LT_E_NOT_TRACE).  A stream ("-",
 * standard input, or a pipe) is taken for a perf.data in pipe mode, the
 * one format that is written to a pipe; "-" redirected from a file is
 * looked at as that file (open it as "/dev/stdin", but a perf.data as "-").
 */
int lt_input_detect(const char *path, enum lt_input_kind *kind,
		    struct lt_error *err);
/* Open @path as an event source of @kind (not LT_INPUT_REPORT); @o NULL: defaults. */
int lt_input_open(struct lt_input **out, const char *path,
		  enum lt_input_kind kind, const struct lt_input_open *o,
		  struct lt_error *err);
void lt_input_close(struct lt_input *in);

static inline int lt_input_run(struct lt_input *in,
			       const struct lt_input_run *cfg,
			       lt_input_event_fn event,
			       lt_input_progress_fn progress, void *ctx,
			       struct lt_input_result *res,
			       struct lt_error *err)
{
	return in->ops->run(in, cfg, event, progress, ctx, res, err);
}

static inline unsigned int lt_input_threads(struct lt_input *in,
					    unsigned int asked)
{
	return in->ops->threads(in, asked);
}

static inline int lt_input_load_ksyms(struct lt_input *in,
				      struct lt_error *err)
{
	return in->ops->load_ksyms(in, err);
}

static inline const char *lt_input_ksym(struct lt_input *in, uint64_t addr)
{
	return in->ops->ksym(in, addr);
}

static inline const char *lt_input_task_name(struct lt_input *in, int pid)
{
	return in->ops->task_name(in, pid);
}

static inline int64_t lt_input_cpu_overrun(struct lt_input *in, int cpu)
{
	return in->ops->cpu_overrun(in, cpu);
}

/* The formats: trace.dat's reader parses them for every input. */
static inline const struct lt_trace *lt_input_formats(const struct lt_input *in)
{
	return in->formats;
}

/*
 * The tasks' cgroups in @text ("TID PATH\n" lines, as latency-record
 * saves them: lt_trace_cgroups()), each an LT_EV_CGROUP at @ts to @event;
 * lines of another shape are skipped.  0, or -1 when @event stopped it.
 */
int lt_input_tell_cgroups(const char *text, uint64_t ts,
			  lt_input_event_fn event, void *ctx);

extern const struct lt_input_ops lt_input_tracedat;
extern const struct lt_input_ops lt_input_perf;

#endif /* LT_INPUT_H */
