/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * lt-trace.h - the trace.dat reader.
 *
 * This is the only module that knows the trace-cmd file format (v6 and v7,
 * compressed or not, either endianness, 4- or 8-byte longs).  It hands out
 * raw event payloads merged across CPUs in timestamp order, plus the
 * metadata the analyzer needs (event layouts, kallsyms, saved cmdlines,
 * per-CPU overrun counts).  Every size and offset read from the file is
 * checked against the file before it is used: a damaged file gives an
 * error naming the section or CPU and the file offset, never a crash.
 *
 * Nothing here knows about scheduling or latency; see lt-decode.c for that.
 */
#ifndef LT_TRACE_H
#define LT_TRACE_H

#include <stddef.h>
#include <stdint.h>

#include "latencytop.h"

struct lt_trace;
struct lt_event_type;

/* Where a field lives inside an event payload, from the file's format text. */
enum lt_field_flags {
	LT_FIELD_SIGNED  = 1 << 0,
	LT_FIELD_ARRAY   = 1 << 1,	/* "type name[N]": size is the whole array */
	LT_FIELD_DYNAMIC = 1 << 2,	/* __data_loc: u32 (len << 16 | offset) */
	LT_FIELD_RELLOC  = 1 << 3,	/* __rel_loc: offset relative to field end */
	LT_FIELD_STRING  = 1 << 4,	/* char array or dynamic char[] */
	LT_FIELD_LAST    = 1 << 5,	/* last field: an array may run on to
					 * the record's end (kernel_stack's
					 * caller[] has "size" entries, not
					 * the 8 its format declares) */
};

struct lt_field {
	uint32_t offset;
	uint32_t size;		/* bytes; for arrays, the whole array */
	uint32_t elem_size;	/* bytes of one element (== size unless array) */
	uint32_t flags;		/* enum lt_field_flags */
};

enum lt_record_kind {
	LT_REC_EVENT,		/* an event payload in data/size */
	LT_REC_LOST,		/* events lost on @cpu before the next event */
};

/* Files of more CPUs are refused. */
#define LT_TRACE_CPU_LIMIT	4096

struct lt_record {
	enum lt_record_kind kind;
	int cpu;		/* 0 .. LT_TRACE_CPU_LIMIT - 1 */
	uint64_t ts;		/* ns, after the file's offset/TSC conversion */
	uint16_t id;		/* common_type; valid for LT_REC_EVENT */
	const struct lt_event_type *type;	/* NULL: id not in the file */
	const unsigned char *data;	/* payload, starting at common_type */
	uint32_t size;		/* payload bytes */
	int64_t lost;		/* LT_REC_LOST: count, or -1 if unknown, or
				   LT_REC_DATA_END: the CPU's data ends */
};

#define LT_REC_DATA_END	(-2)

/* What the file says about itself, filled by lt_trace_open(). */
struct lt_trace_info {
	const char *path;
	int version;		/* 6 or 7 */
	int big_endian;
	int long_size;		/* user-space long of the recording machine */
	int kernel_long_size;	/* from header_page's commit field */
	uint32_t page_size;
	const char *compression;	/* "none", "zstd", "zlib" */
	const char *uname;	/* "" if not recorded */
	const char *clock;	/* "local", "global", "x86-tsc", ... or "" */
	const char *tracecmd_version;	/* "" if not recorded */
	int cpus;		/* CPUs with data slots in the file */
	uint64_t file_size;
	unsigned int nr_event_types;
	unsigned int nr_buffers;	/* other instances' buffers; the top
					 * level's is read unless another is
					 * chosen (lt_trace_use_buffer()) */
};

/*
 * Open and validate the file's metadata.  On failure returns -1 with @err
 * filled (code and a one-line message naming the file, what is wrong and
 * where); *out is left NULL.
 */
int lt_trace_open(struct lt_trace **out, const char *path, struct lt_error *err);
void lt_trace_close(struct lt_trace *trace);

/*
 * The formats alone, from perf.data's tracing data (the start of a v6
 * trace.dat: header_page, event formats, kallsyms, printk formats, saved
 * cmdlines): a trace with no CPU data, whose event lookups, fields, saved
 * cmdlines and symbols (if any) work as for a trace.dat, and which
 * lt_decode_init() takes.  info->version is 6, cpus 0.
 *
 * From @len bytes at @data (copied), which sat at @file_off of @path (for
 * messages), or from @size bytes at @off of the file @path.  Overrunning
 * the given bytes is damage (LT_E_CORRUPT), not truncation: the container
 * said how long they are.
 */
int lt_trace_from_tracing_data(struct lt_trace **out, const char *path,
			       const void *data, size_t len,
			       uint64_t file_off, struct lt_error *err);
int lt_trace_open_tracing_data(struct lt_trace **out, const char *path,
			       uint64_t off, uint64_t size,
			       struct lt_error *err);

const struct lt_trace_info *lt_trace_info(const struct lt_trace *trace);

/*
 * The file's buffers: 0 is the top level's (named ""), then each instance
 * (trace-cmd record -B NAME) in file order.  lt_trace_use_buffer() makes
 * @buffer's CPU data the one read, from its start (info->cpus and the
 * page size follow it); no records may be held then.  0, or -1 with @err
 * (its CPU table damaged).
 */
unsigned int lt_trace_nr_buffers(const struct lt_trace *trace);
const char *lt_trace_buffer_name(const struct lt_trace *trace,
				 unsigned int buffer);
int lt_trace_use_buffer(struct lt_trace *trace, unsigned int buffer,
			struct lt_error *err);
/*
 * Whether @buffer holds a record of an event whose id has @ids[id] set
 * (ids below @nr): 1, 0, or -1 with @err.  It is read through for that,
 * and left as the one read, from its start again.
 */
int lt_trace_buffer_has(struct lt_trace *trace, unsigned int buffer,
			const bool *ids, unsigned int nr, struct lt_error *err);

/* Event layouts.  NULL / -1 when the file does not have it. */
const struct lt_event_type *lt_trace_find_event(const struct lt_trace *trace,
						const char *system,
						const char *name);
const struct lt_event_type *lt_trace_event_by_id(const struct lt_trace *trace,
						 uint16_t id);
/*
 * Why the file's format of @system:@name was skipped as damaged (so its
 * records are unknown events), or NULL: not skipped, or past the first 8.
 */
const char *lt_trace_skipped_format(const struct lt_trace *trace,
				    const char *system, const char *name);
/* One more than the highest id of the file's event formats (0: none). */
unsigned int lt_trace_event_id_limit(const struct lt_trace *trace);
const char *lt_event_type_system(const struct lt_event_type *type);
const char *lt_event_type_name(const struct lt_event_type *type);
uint16_t lt_event_type_id(const struct lt_event_type *type);
/* The raw "print fmt:" text, for the few tables only it carries (prev_state letters). */
const char *lt_event_type_print_fmt(const struct lt_event_type *type);
int lt_event_type_field(const struct lt_event_type *type, const char *name,
			struct lt_field *out);
/* All fields in file order (for dumps): name, or NULL past the last. */
unsigned int lt_event_type_nr_fields(const struct lt_event_type *type);
const char *lt_event_type_field_at(const struct lt_event_type *type,
				   unsigned int i, struct lt_field *out,
				   const char **ctype);

/*
 * Field access on a record of that type.  Bounds are checked against the
 * record: a field that does not fit reads as 0 / "" and returns -1.
 */
int lt_field_u64(const struct lt_trace *trace, const struct lt_field *field,
		 const struct lt_record *rec, uint64_t *val);
int lt_field_s64(const struct lt_trace *trace, const struct lt_field *field,
		 const struct lt_record *rec, int64_t *val);
/*
 * Elements of an array field present in this record: for a dynamic array
 * its data length, for the last field what the record holds, else at most
 * the declared size.  Divided by elem_size.
 */
uint32_t lt_field_array_len(const struct lt_trace *trace,
			    const struct lt_field *field,
			    const struct lt_record *rec);
/* Element @i of an array field (e.g. kernel_stack's caller[]). */
int lt_field_elem_u64(const struct lt_trace *trace, const struct lt_field *field,
		      const struct lt_record *rec, uint32_t i, uint64_t *val);
/* Up to @max elements of an array field into @out: how many were read. */
uint32_t lt_field_elems_u64(const struct lt_trace *trace,
			    const struct lt_field *field,
			    const struct lt_record *rec, uint64_t *out,
			    uint32_t max);
/*
 * A string field (char[N] or __data_loc char[]): pointer into the record and
 * its length up to the first NUL or the field's end.  Not NUL-terminated.
 */
int lt_field_str(const struct lt_trace *trace, const struct lt_field *field,
		 const struct lt_record *rec, const char **str, size_t *len);

/*
 * The next record of the top instance, all CPUs merged by timestamp (ties
 * keep CPU order, records of one CPU keep file order).  Returns 1 with @rec
 * filled, 0 at the end, -1 on damage (@err says where).  rec->data is valid
 * until the next call.
 *
 * Damage in one CPU's data (a bad page, a bad chunk, the file ending inside
 * it) returns -1 once and stops that CPU only: every record before the
 * damage has been returned, and calling again continues with the other
 * CPUs.  Stop at the first -1 for an all-or-nothing answer, or keep going
 * until 0 to use everything readable (--partial).
 *
 * A page flagged with missed events gives an LT_REC_LOST record on its CPU,
 * stamped with the time of the page's first event (or with the page's time
 * if no event follows on that CPU), and returned where the gap begins:
 * right after that CPU's record before it (first of all if there is none),
 * so before the records of other CPUs that fall inside the gap.  Its
 * stamp is then later than theirs; the records of one CPU keep their
 * order.
 */
int lt_trace_next(struct lt_trace *trace, struct lt_record *rec,
		  struct lt_error *err);
/*
 * After lt_trace_next() returned -1: the CPU its damage stopped, and the
 * time of that CPU's last record (0: none).
 */
int lt_trace_failed_cpu(const struct lt_trace *trace, uint64_t *last_ts);

/*
 * The same records one CPU (stream) at a time, for decoding in parallel:
 * each CPU's data is cut into ranges of whole pages (or whole compressed
 * chunks), which need nothing from the ranges before them, so several
 * threads can read ranges of one CPU at once.  Streams are in CPU order,
 * the order lt_trace_next() breaks timestamp ties in; lt_trace_next() must
 * not be used on a trace read this way.
 *
 * What does cross a range boundary is the reader's to stitch: a
 * missed-events record left at the end of a range belongs in front of the
 * next record of that CPU (records of one CPU in range order then equal
 * what lt_trace_next() gives for it), and a stack record at the start of
 * a range follows whatever ended the range before.
 */
struct lt_trace_range;

unsigned int lt_trace_nr_streams(const struct lt_trace *trace);
/* The CPU id stream @stream's records carry. */
int lt_trace_stream_cpu(const struct lt_trace *trace, unsigned int stream);
/*
 * Cut stream @stream's next range, about @bytes of (uncompressed) data but
 * at least one page or chunk, from where the last cut ended: 1 with
 * *@range set, 0 when the stream has no more, -1 out of memory.  A range
 * in *@range (of any stream, read or not) is reused: its buffers are kept.
 * Cuts of one stream are made one at a time.  @last tells whether this is
 * the stream's final range.
 */
int lt_trace_range_cut(struct lt_trace *trace, unsigned int stream,
		       uint64_t bytes, struct lt_trace_range **range,
		       bool *last);
/* A range's next record: 1, 0 at its end, or -1 once on damage (then 0). */
int lt_trace_range_next(struct lt_trace *trace, struct lt_trace_range *range,
			struct lt_record *rec, struct lt_error *err);
/* Bytes of file data the range has consumed, for progress. */
uint64_t lt_trace_range_done(const struct lt_trace_range *range);
/*
 * Reusing a range in a cut says it is done with: the mapped file pages of
 * its stream up to its end are dropped, every 256 KB or so.  Done with in
 * the order cut, so no range still read loses its pages (they would fault
 * back in, slower).  Freeing one drops none (the next cut or the close
 * does), so it may come at once with a cut of the same stream.
 */
void lt_trace_range_free(struct lt_trace *trace, struct lt_trace_range *range);

/*
 * Ring-buffer pages handed in one at a time, as a live reader gets them
 * (trace_pipe_raw): each page's records in order, with an LT_REC_LOST
 * record before them when the page says events were missed (on a page
 * with no records, the loss alone, stamped with the page's time: a live
 * reader must hear of a gap when it begins).  @trace gives the
 * layout (its header_page); @cpu goes into the records.  Damage in a
 * page is -1 with @err, and that page is done with.
 */
struct lt_trace_pages;

int lt_trace_pages_new(struct lt_trace *trace, int cpu,
		       struct lt_trace_pages **out, struct lt_error *err);
/* @len bytes of one page (at most the trace's page size): its records next. */
int lt_trace_pages_load(struct lt_trace_pages *pages, const void *page,
			size_t len, struct lt_error *err);
/* The loaded page's next record: 1, 0 when it has no more, -1 on damage. */
int lt_trace_pages_next(struct lt_trace_pages *pages, struct lt_record *rec,
			struct lt_error *err);
void lt_trace_pages_free(struct lt_trace_pages *pages);

/* Bytes of CPU data consumed so far and in total, for progress display. */
void lt_trace_progress(const struct lt_trace *trace, uint64_t *done,
		       uint64_t *total);

/*
 * Kernel symbols from the file's kallsyms: name of the function holding
 * @addr.  They are parsed on first use (a few ms for a 5 MB table); call
 * lt_trace_load_ksyms() first to get a damaged table as an error, else it
 * is a warning and there are no symbols.  Loading touches nothing but the
 * symbols: it may run on a thread of its own while others read CPU data,
 * as long as no one looks a symbol up before it returns.
 */
int lt_trace_load_ksyms(struct lt_trace *trace, struct lt_error *err);
/*
 * Allow a helper thread for work that can overlap with the caller's:
 * compressed kallsyms are then decompressed on it while the caller
 * parses them.  Off by default.
 */
void lt_trace_set_helper(struct lt_trace *trace, bool allow);
/*
 * The kernel symbols from a kallsyms text in a file of its own
 * (/proc/kallsyms, perf's build-id cache, a copy), in place of the
 * trace's: for traces that carry none.  0, or -1 with @err naming the
 * file (a /proc/kallsyms whose addresses are hidden included).
 */
int lt_trace_load_kallsyms_file(struct lt_trace *trace, const char *path,
				struct lt_error *err);
const char *lt_trace_ksym(const struct lt_trace *trace, uint64_t addr,
			  uint64_t *offset);
size_t lt_trace_nr_ksyms(const struct lt_trace *trace);

/* Saved cmdlines (pid -> comm) recorded with the trace, for naming tasks. */
typedef void (*lt_cmdline_fn)(void *ctx, int pid, const char *comm);
void lt_trace_for_each_cmdline(const struct lt_trace *trace, lt_cmdline_fn fn,
			       void *ctx);
/*
 * The name saved last for @pid, or NULL; valid until the trace is closed.
 * Names are cut to LT_TRACE_COMM_MAX bytes, as long as the kernel's.
 * Indexes the table on first use (not thread-safe then).
 */
#define LT_TRACE_COMM_MAX 15
const char *lt_trace_cmdline(struct lt_trace *trace, int pid);

/*
 * The tasks' cgroups latency-record saved with the trace (an option of
 * its own): "TID PATH\n" lines, PATH from the cgroup v2 hierarchy's root;
 * NULL when the file has none.
 */
const char *lt_trace_cgroups(const struct lt_trace *trace);

/*
 * Per-CPU ring-buffer statistics stored by trace-cmd (CPUSTAT option):
 * "overrun" plus "dropped events" (events lost in overwrite and in
 * non-overwrite mode).  -1 when the file has none for @cpu.
 */
int64_t lt_trace_cpu_overrun(const struct lt_trace *trace, int cpu);

#endif /* LT_TRACE_H */
