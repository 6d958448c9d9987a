/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * tracedat-local.h - internals of the trace.dat reader (lt-trace.h).
 *
 * Layout of the module:
 *   trace-file.c    container: v6 header, v7 sections, options, open/close
 *   trace-decomp.c  zstd/zlib blocks, sections whole or in pieces
 *   trace-format.c  header_page, event format text, field access
 *   trace-page.c    per-CPU streams: ring-buffer pages -> records
 *   trace-merge.c   lt_trace_next(): CPUs merged by timestamp
 *   trace-ksyms.c   kallsyms, saved cmdlines, CPU stats
 *
 * Everything read from the file is untrusted: each size, offset and count
 * is checked against what is really there before it is used.
 *
 * Threading: a cpu_stream owns all state needed to decode its CPU (page
 * cursor, decompression context and buffer, its own error), and only
 * reads the shared struct lt_trace (file map, layout constants).  So a
 * later version can decode streams ahead in worker threads and keep only
 * the merge in the caller's thread.
 */
#ifndef LT_TRACE_LOCAL_H
#define LT_TRACE_LOCAL_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "lt-trace.h"
#include "lt-tsheap.h"

/* Caps on values read from the file; beyond them the file is refused. */
#define LT_MAX_CPUS		LT_TRACE_CPU_LIMIT
#define LT_MIN_PAGE_SIZE	4096u
#define LT_MAX_PAGE_SIZE	(1u << 20)
#define LT_MAX_META_SIZE	(128u << 20)	/* one metadata section; real
						 * kallsyms are 5-30 MB */
#define LT_MAX_FORMAT_SIZE	(1u << 20)	/* one event format text */
#define LT_MAX_EVENT_TYPES	65536u
#define LT_MAX_SYSTEMS		65536u
#define LT_MAX_FIELDS		1024u		/* per event */
#define LT_MAX_OPTION_SECTIONS	1024u
#define LT_MAX_OPTIONS		100000u		/* per options section */
#define LT_MAX_OPTIONS_MEM	(64u << 20)	/* compressed options, in all */
#define LT_MAX_BUFFERS		4096u
#define LT_MAX_CHUNK_SIZE	(16u << 20)	/* one decompressed CPU chunk
						 * (trace-cmd: 10 pages) */
#define LT_MAX_CHUNK_MEM	(512ULL << 20)	/* all CPUs' chunk buffers */
#define LT_ZCTX_KEEP		32		/* zstd contexts kept: > threads */

/* Ring-buffer page commit word. */
#define RB_MISSED_EVENTS	(1ULL << 31)
#define RB_MISSED_STORED	(1ULL << 30)
#define RB_COMMIT_MASK		((1ULL << 27) - 1)
/* Event header type_len values. */
#define RB_TYPE_PADDING		29
#define RB_TYPE_TIME_EXTEND	30
#define RB_TYPE_TIME_STAMP	31
#define RB_TS_SHIFT		27
/* An absolute time stamp lacks the 5 MSBs; they come from the current ts. */
#define RB_TS_MSB		(0xf8ULL << 56)

/* v7 option / section ids (trace-cmd.dat.v7(5)). */
enum {
	OPT_DONE		= 0,
	OPT_DATE		= 1,
	OPT_CPUSTAT		= 2,
	OPT_BUFFER		= 3,
	OPT_TRACECLOCK		= 4,
	OPT_UNAME		= 5,
	OPT_HOOK		= 6,
	OPT_OFFSET		= 7,
	OPT_CPUCOUNT		= 8,
	OPT_VERSION		= 9,
	OPT_PROCMAPS		= 10,
	OPT_TRACEID		= 11,
	OPT_TIME_SHIFT		= 12,
	OPT_GUEST		= 13,
	OPT_TSC2NSEC		= 14,
	OPT_STRINGS		= 15,
	OPT_HEADER_INFO		= 16,
	OPT_FTRACE_EVENTS	= 17,
	OPT_EVENT_FORMATS	= 18,
	OPT_KALLSYMS		= 19,
	OPT_PRINTK		= 20,
	OPT_CMDLINES		= 21,
	OPT_BUFFER_TEXT		= 22,
	/*
	 * Not trace-cmd's: latency-record's tasks' cgroups, "TID PATH\n"
	 * lines as saved_cmdlines' (trace-cmd warns of an option it does not
	 * know, and reads on).  "LT", far from trace-cmd's own ids.
	 */
	OPT_LT_CGROUPS		= 0x4c54,
};

#define SEC_FL_COMPRESS		1

enum lt_compress {
	LT_COMP_NONE,
	LT_COMP_ZLIB,
	LT_COMP_ZSTD,
};

/* Byte order helpers: @swap is true when the file's order is not ours. */
static inline uint16_t get16(const void *p, bool swap)
{
	uint16_t v;

	memcpy(&v, p, 2);
	return swap ? __builtin_bswap16(v) : v;
}

static inline uint32_t get32(const void *p, bool swap)
{
	uint32_t v;

	memcpy(&v, p, 4);
	return swap ? __builtin_bswap32(v) : v;
}

static inline uint64_t get64(const void *p, bool swap)
{
	uint64_t v;

	memcpy(&v, p, 8);
	return swap ? __builtin_bswap64(v) : v;
}

/*
 * A bounded reader over file bytes or over a decompressed section.
 * @off is the file offset of p[0] for plain data; for a decompressed
 * section it is the section's file offset and @packed is set, so errors
 * can say both where the section is and where inside it things broke.
 */
/* A window the map's bytes come copied through (trace-read.c). */
struct rd_win {
	const struct lt_trace *t;
	unsigned char *buf;
	size_t cap;
	uint64_t off;		/* of buf[0] in the file */
	size_t len;		/* bytes in buf */
};

struct rd {
	const unsigned char *p;
	size_t len;
	size_t pos;
	uint64_t off;
	bool packed;
	const char *what;	/* "options section", "EVENT_FORMATS", ... */
	struct rd_win *win;	/* the map's bytes come copied (trace-file.c) */
};

struct ev_field {
	const char *name;
	const char *type;
	struct lt_field f;
};

/*
 * An event format: its name and ID are read when the file is opened, the
 * rest on first use (type_parse()), as a file holds some 2,000 formats of
 * which a report needs a dozen.  Not to be used from two threads at once.
 */
struct lt_event_type {
	uint16_t id;
	const char *system;	/* system and name follow the struct */
	const char *name;
	/* the format's text, until parsed: the file's, not a copy */
	const char *text;
	size_t len;
	int kernel_long;
	bool parsed;
	const char *print_fmt;
	unsigned int nr_fields;
	struct ev_field *fields;
	/* print_fmt and the fields' strings live in this one allocation */
	char *pool;
};

struct ksym {
	uint64_t addr;
	uint32_t name;		/* offset into ksym_names */
};

struct cmdline {
	int pid;
	uint32_t comm;		/* offset into cmdline_names */
};

/* One decoded record, as a stream hands it to the merge. */
struct rb_rec {
	uint64_t ts;			/* converted */
	const unsigned char *data;	/* payload; NULL for a loss */
	uint32_t size;
	bool lost;			/* an LT_REC_LOST record */
	int64_t nlost;
};

/* Records decoded per refill; a batch never spans two pages. */
#define STREAM_BATCH		64

enum cs_state {
	CS_IDLE,		/* not primed yet */
	CS_ACTIVE,		/* next_* holds a record */
	CS_DONE,		/* end of data */
	CS_FAILED,		/* damaged; stopped */
};

/* Decoding state of one CPU's ring-buffer data. */
struct cpu_stream {
	int cpu;			/* CPU id as recorded */
	enum cs_state state;
	uint64_t data_off;		/* the CPU's data in the file */
	uint64_t data_size;
	uint64_t done;			/* bytes of file data consumed */

	/* plain data: offset (from data_off) of the next page, and the end */
	uint64_t next_page;
	uint64_t page_end;		/* data_size, or where a range ends */
	uint64_t released;		/* file offset mapped pages are dropped to */
	uint64_t win_off;		/* plain: file offset of zbuf[0] */
	size_t win_len;

	/* compressed data: chunk walk and the current chunk's bytes */
	uint32_t chunks_left;
	uint64_t chunk_pos;		/* file offset of the next chunk header */
	uint64_t chunk_off;		/* file offset of the current chunk */
	unsigned char *zbuf;		/* (plain data: the read window) */
	size_t zcap, zlen, zpos;	/* capacity, bytes, next page in it */

	/* current page */
	const unsigned char *page;
	uint64_t page_off;		/* file offset (plain) or offset in chunk */
	const unsigned char *ev;	/* page event data */
	uint32_t commit;		/* bytes of event data */
	uint32_t cur;			/* offset of the next event header */
	uint64_t ts;			/* raw ring-buffer clock */
	bool lost_pending;
	int64_t lost;
	uint64_t prev_ts;		/* of the last event record handed out */

	/* decoded records; batch[bi] is the one offered to the merge */
	unsigned int bi, bn;
	bool given;			/* batch[bi] went out (stream reading) */
	bool failure_told;		/* its damage was returned once */
	struct rb_rec batch[STREAM_BATCH];

	struct lt_error err;

	/* lt_trace_range_cut(): where the next range starts */
	bool cut_begun, cut_end;
	uint64_t cut_pos;		/* plain: offset from data_off; else chunk */
	uint32_t cut_chunks;		/* compressed: chunks not yet cut */
	uint64_t range_released;	/* file offset ranges' pages are dropped to */
	uint64_t cut_mapped;		/* file offset pages are mapped ahead to */
};

/*
 * Mapped file pages read (compressed chunks) are dropped in steps of this
 * (a stream behind itself, ranges behind the CPU's last one done): a small
 * resident set on a huge file, without a TLB flush for every few pages.
 * A stream dropped 1 MB at a time until 60d867e: one thread then peaked at
 * 9.0 MB on len1x-zstd and 9.6 MB on len10x-zstd and big-zstd, now 8.0,
 * 8.5 and 8.2 MB.
 */
#define LT_RELEASE_STEP		(256u << 10)
/*
 * Compressed data mapped ahead of the cut, per CPU: resident until the
 * ranges behind it are done, so part of the peak that a longer trace
 * fills up to.  With 1 MB, len1x-zstd (a 2.7 MB file) peaked at 10.9 MB
 * and len10x-zstd at 12.3 MB at -j2; 256 KB is as fast on len10x-zstd
 * and big-zstd (perf stat, alternated).
 */
#define LT_MAP_AHEAD		(256u << 10)

/* Plain data is read (pread) this much at a time: see read_window(). */
#define LT_READ_WINDOW		(64u << 10)

struct cpu_stat {
	int cpu;
	int64_t overrun;
	int64_t dropped;
};

/*
 * A buffer of the file: the top level's (first) or an instance's (trace-cmd
 * record -B, extract -B): where its CPU data is.
 */
struct trace_buffer_cpu {
	int cpu;
	uint64_t off, size;
};

struct trace_buffer {
	char *name;			/* "" for the top level */
	uint64_t off;			/* v6: its data's tag; v7: its section */
	uint32_t page_size;		/* v7: its sub-buffer size; 0: the file's */
	bool ready;			/* @cpus below read */
	bool plain;			/* v7: its CPU data stored uncompressed */
	struct trace_buffer_cpu *cpus;
	uint32_t nr_cpus;
};

struct lt_trace {
	struct lt_trace_info info;
	char *path;
	int fd;
	const unsigned char *map;
	uint64_t size;
	uint64_t sys_page;		/* for madvise() alignment */
	bool swap;

	/* ring buffer layout */
	uint32_t page_size;
	uint32_t commit_size;		/* kernel long: 4 or 8 */
	uint32_t data_off;		/* event data offset in a page */
	enum lt_compress comp;

	/* time conversion, as libtracecmd does it */
	uint32_t tsc_mult;
	uint32_t tsc_shift;
	uint64_t tsc_offset;		/* kept, not applied (see trace-file.c) */
	uint64_t ts_offset;		/* OFFSET + DATE options (may wrap) */

	/* event formats */
	struct lt_event_type **types;
	unsigned int nr_types;
	struct lt_event_type **by_id;
	unsigned int by_id_len;
	unsigned char *format_bufs[2];	/* v7: the sections the texts are in */
	/* formats skipped as damaged, the first few, and why */
	struct {
		char system[32];
		char name[64];
		const char *why;
	} skipped[8];
	unsigned int nr_skipped;
	uint32_t type_field_off;	/* common_type, from the formats */
	uint32_t type_field_size;

	/* metadata; kallsyms are parsed on first use */
	int ksym_state;			/* 0 not yet, 1 loaded, -1 failed */
	bool ksym_told;			/* the failure was returned or warned */
	bool helper;			/* lt_trace_set_helper() */
	uint64_t ksym_sec;		/* v7: the KALLSYMS section */
	const char *ksym_text;		/* v6: the text in the map */
	size_t ksym_len;
	struct lt_error ksym_err;
	struct ksym *ksyms;		/* lt_big_alloc()ed, of ksyms_size */
	size_t nr_ksyms, ksyms_size;
	char *ksym_names;		/* ... of ksym_names_size */
	size_t ksym_names_size;
	struct cmdline *cmdlines;
	size_t nr_cmdlines;
	char *cmdline_names;
	struct cmdline *cmdline_by_pid;	/* sorted copy, on first lookup */
	struct cpu_stat *stats;
	unsigned int nr_stats;
	char *uname;
	char *clock;
	char *version;
	char *cgroups;		/* OPT_LT_CGROUPS' text, or NULL */
	char *compression;
	bool have_traceclock;
	/*
	 * Formats only, parsed from a copy in memory (perf.data's tracing
	 * data): map is that malloc()ed copy, fd is -1, and offsets in
	 * messages are the copy's place in its file.
	 */
	bool blob;

	/* every buffer (the top level's first), and the one read */
	struct trace_buffer *buffers;
	unsigned int nr_buffers;
	unsigned int cur_buffer;
	enum lt_compress file_comp;	/* the file's, before a buffer's */

	/* CPU data of the buffer read (the top level's unless chosen) */
	struct cpu_stream *streams;
	unsigned int nr_streams;
	uint64_t data_total;
	uint64_t zmem;			/* bytes of chunk buffers, all CPUs */
	/*
	 * zstd contexts not in use: a chunk is one call, so a context serves
	 * whichever stream or range a thread decompresses next.
	 */
	pthread_mutex_t zctx_lock;
	void *zctx_free[LT_ZCTX_KEEP];
	unsigned int nr_zctx_free;
	/*
	 * Stream buffers given back, for the next range (under zctx_lock):
	 * fresh ones would be fresh pages, each a page fault.
	 */
	unsigned char *zbuf_free[LT_ZCTX_KEEP];
	size_t zbuf_free_cap[LT_ZCTX_KEEP];
	unsigned int nr_zbuf_free;

	/* merge: min-heap of streams by (timestamp, stream index) */
	struct lt_tsheap_ent *heap;
	unsigned int heap_len;
	unsigned int nr_primed;
	int last;			/* stream whose record was returned last */
	int failed_cpu;			/* of the last -1 lt_trace_next() gave */
	uint64_t failed_ts;		/* ... and that CPU's last record */
};

/* trace-read.c */
int lt_trace_fail(const struct lt_trace *t, struct lt_error *err,
	       enum lt_errcode code, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
int lt_trace_rd_fail(const struct lt_trace *t, struct lt_error *err,
	    enum lt_errcode code, const struct rd *r, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
int lt_trace_rd_need(const struct lt_trace *t, struct lt_error *err,
	    const struct rd *r, size_t n, const char *item);
int lt_trace_rd_u16(const struct lt_trace *t, struct lt_error *err, struct rd *r,
	   const char *item, uint16_t *v);
int lt_trace_rd_u32(const struct lt_trace *t, struct lt_error *err, struct rd *r,
	   const char *item, uint32_t *v);
int lt_trace_rd_u64(const struct lt_trace *t, struct lt_error *err, struct rd *r,
	   const char *item, uint64_t *v);
int lt_trace_rd_str(const struct lt_trace *t, struct lt_error *err, struct rd *r,
	   const char *item, const char **s, size_t *len);
int lt_trace_rd_bytes(const struct lt_trace *t, struct lt_error *err, struct rd *r,
	     const char *item, size_t n, const unsigned char **p);
/* A reader over [off, off + len) of the file, clipped to the file. */
void lt_trace_rd_file(const struct lt_trace *t, struct rd *r, uint64_t off,
	     uint64_t len, const char *what);
/* Reads of @r, a reader of the map, through window @w until lt_trace_rd_win_end(). */
void lt_trace_rd_win_start(const struct lt_trace *t, struct rd *r, struct rd_win *w);
void lt_trace_rd_win_end(struct rd *r, struct rd_win *w);
/* A text blob: its size (@size_bytes, 4 or 8), then the text; over @cap: LIMIT. */
int lt_trace_rd_sized_text(struct lt_trace *t, struct lt_error *err, struct rd *r,
		  int size_bytes, uint64_t cap, const char *item,
		  const char **text, size_t *len);
/* A v7 section header (id, flags, description, size) at @r. */
int lt_trace_read_section_header(struct lt_trace *t, struct lt_error *err,
			struct rd *r, uint16_t *id, uint16_t *flags,
			uint64_t *size);
/*
 * The header of the section at @off, expecting id @want: @r is left just
 * past it, over the rest of the file.
 */
int lt_trace_section_header(struct lt_trace *t, struct lt_error *err, uint64_t off,
		   uint16_t want, const char *what, struct rd *r,
		   uint16_t *flags, uint64_t *size);

/* trace-decomp.c */
/* what decompressing gave: out of memory is not damage (exit 6, not 3) */
enum { DECOMP_OK, DECOMP_BAD, DECOMP_NOMEM };
int lt_trace_decomp_block(struct lt_trace *t, const void *src,
		 size_t srclen, void *dst, size_t dstlen);
void lt_trace_decomp_free_ctxs(struct lt_trace *t);
/*
 * Read the section body at @r (positioned after the section header):
 * compressed or not, return a reader over the (decompressed) body.
 * *@buf is set to memory the caller frees with lt_trace_section_buf_free() (NULL
 * when not compressed).
 */
int lt_trace_section_body(struct lt_trace *t, struct lt_error *err, struct rd *r,
		 uint64_t sec_off, uint64_t sec_size, bool compressed,
		 const char *what, struct rd *body, unsigned char **buf);
void lt_trace_section_buf_free(unsigned char *buf);
/* A piece of a section body, in order; -1 stops the reading. */
typedef int (*section_piece_fn)(void *ctx, const unsigned char *p, size_t n);
/*
 * The same body through @fn in pieces, never whole in memory when
 * compressed; with @helper, a thread decompresses the next pieces while
 * @fn runs (in the caller's thread).  0, or -1 with @err set, or -1 when
 * @fn stopped (@err untouched).  On -1, @fn may have seen part of it.
 */
int lt_trace_section_pieces(struct lt_trace *t, struct lt_error *err, struct rd *r,
		   uint64_t sec_size, bool compressed, const char *what,
		   bool helper, section_piece_fn fn, void *ctx);

/* trace-format.c */
int lt_trace_parse_header_page(struct lt_trace *t, struct lt_error *err,
		      const char *text, size_t len, int file_long);
/* @text is read now; @kept, the same bytes, stays for the type (below) */
int lt_trace_add_event_format(struct lt_trace *t, struct lt_error *err,
		     const char *system, const char *text, const char *kept,
		     size_t len);
int lt_trace_finish_event_formats(struct lt_trace *t, struct lt_error *err);
void lt_trace_free_event_formats(struct lt_trace *t);
/*
 * One format text as a new type (its name and ID now, the rest when first
 * asked for); NULL with @why set if unusable, or NULL alone on ENOMEM.
 * @text is not copied: it must last as long as the type.
 */
struct lt_event_type *lt_trace_parse_event_format(const char *system,
					 const char *text, size_t len,
					 int kernel_long, const char **why);
void lt_trace_free_event_type(struct lt_event_type *type);

/* trace-page.c */
void lt_trace_stream_init(struct lt_trace *t, struct cpu_stream *cs, int cpu,
		 uint64_t off, uint64_t size);
void lt_trace_stream_free(struct lt_trace *t, struct cpu_stream *cs);
/* Free the stream buffers lt_trace_stream_free() kept for reuse. */
void lt_trace_stream_free_kept(struct lt_trace *t);
/*
 * Drop the mapped file pages from *@released (or @start, the first time)
 * to @end, once they are @step or more, and move *@released on.  Safe
 * whatever else points there: the mapping stays and pages fault back in
 * from the file.
 */
void lt_trace_drop_mapped(struct lt_trace *t, uint64_t *released, uint64_t start,
		 uint64_t end, uint64_t step);
/*
 * Decode the next batch of records (from the current page, or the next
 * page that has any): 1, 0 at the end, -1 on damage (cs->err).  Records
 * decoded before damage are delivered first; the error comes next time.
 */
int lt_trace_stream_fill(struct lt_trace *t, struct cpu_stream *cs);

/* Move to the next record: 1, 0 at the end, -1 on damage. */
static inline int stream_next(struct lt_trace *t, struct cpu_stream *cs)
{
	if (cs->bi + 1 < cs->bn) {
		cs->bi++;
		return 1;
	}
	return lt_trace_stream_fill(t, cs);
}

static inline const struct rb_rec *stream_cur(const struct cpu_stream *cs)
{
	return &cs->batch[cs->bi];
}

/* The stream's current record, as lt_trace_next() hands it out. */
void lt_trace_fill_record(const struct lt_trace *t, const struct cpu_stream *cs,
		       struct lt_record *rec);
/*
 * Decode one page in memory (for tests and the stream): set up
 * the page cursor on @cs.  Returns 0 or -1 with cs->err set.
 */
int lt_trace_page_load(struct lt_trace *t, struct cpu_stream *cs,
	      const unsigned char *page, size_t avail, uint64_t where);

/* trace-ksyms.c */
/* kallsyms text parsed as it comes, in pieces cut anywhere */
struct ksym_parse {
	bool live;		/* begun, and neither ended nor aborted */
	size_t sorted;		/* symbols in address order from the start */
	size_t len;		/* of the whole text */
	size_t n, cap, pool;	/* symbols, their room, name bytes */
	size_t ready_k, ready_n;	/* bytes mapped ahead (ahead()) */
	size_t held;		/* of a line the last piece cut: */
	char line[1024];	/* longer than any symbol's line (cut) */
};
int lt_trace_ksym_parse_begin(struct lt_trace *t, struct lt_error *err,
		     struct ksym_parse *kp, size_t len);
int lt_trace_ksym_parse_feed(struct lt_trace *t, struct lt_error *err,
		    struct ksym_parse *kp, const char *text, size_t len);
int lt_trace_ksym_parse_end(struct lt_trace *t, struct lt_error *err,
		   struct ksym_parse *kp);
/* The symbol table's memory (lt_trace_close()). */
void lt_trace_ksym_free(struct lt_trace *t);
/* After a failure: the symbols parsed so far dropped. */
void lt_trace_ksym_parse_abort(struct lt_trace *t, struct ksym_parse *kp);
/* begin, feed and end at once */
int lt_trace_parse_kallsyms(struct lt_trace *t, struct lt_error *err,
		   const char *text, size_t len);
int lt_trace_parse_cmdlines(struct lt_trace *t, struct lt_error *err,
		   const char *text, size_t len);
int lt_trace_parse_cpustat(struct lt_trace *t, struct lt_error *err,
		  const char *text, size_t len, unsigned int nth);

#endif /* LT_TRACE_LOCAL_H */
