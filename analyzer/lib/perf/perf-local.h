/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * perf-local.h - internals of the perf.data reader (lt-perf.h).
 *
 * Layout of the module:
 *   perf-src.c     the bytes: a mapped file, or a window over a stream;
 *                  bounded reads (struct pcur) and error messages
 *   perf-header.c  open/close: the file header, attrs and ids, the
 *                  feature table; pipe mode's header records
 *   perf-feat.c    feature sections (the same bytes as pipe mode's
 *                  HEADER_FEATURE records), build-ids, tracing data
 *   perf-attr.c    attrs: their sample layout, the id -> attr table
 *   perf-sample.c  data records -> struct lt_perf_record
 *   perf-order.c   the reorder queue (perf's ordered-events, bounded)
 *   perf-read.c    lt_perf_next(): read, queue, flush, hand out
 *   perf-zstd.c    perf record -z: COMPRESSED records' data
 *
 * Records are read twice: once when read, for their type, size and time
 * (to queue them), and once when handed out, whole.  In between, the
 * queue keeps a record's time and offset only: its bytes stay in the
 * map, or in the stream window, which keeps everything from the oldest
 * queued record on.
 *
 * The format: tools/perf/Documentation/perf.data-file-format.txt,
 * include/uapi/linux/perf_event.h and tools/perf/util/header.c,
 * session.c, ordered-events.c in the kernel tree.
 */
#ifndef LT_PERF_LOCAL_H
#define LT_PERF_LOCAL_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "lt-perf.h"

/* ---- the format ------------------------------------------------------ */

#define PERF_FILE_HEADER_SIZE	104	/* with the features bitmap */
#define PERF_FILE_HEADER_OLD	72	/* before the features bitmap */
#define PERF_PIPE_HEADER_SIZE	16
#define PERF_ATTR_SIZE_VER0	64
#define PERF_REC_HEADER		8	/* u32 type, u16 misc, u16 size */

enum {
	PERF_RECORD_MMAP		= 1,
	PERF_RECORD_LOST		= 2,
	PERF_RECORD_COMM		= 3,
	PERF_RECORD_EXIT		= 4,
	PERF_RECORD_FORK		= 7,
	PERF_RECORD_SAMPLE		= 9,
	PERF_RECORD_MMAP2		= 10,
	PERF_RECORD_CGROUP		= 19,
	PERF_RECORD_LOST_SAMPLES	= 13,
	PERF_RECORD_KERNEL_MAX		= 23,	/* kernel types known below */
	PERF_RECORD_USER_START		= 64,
	PERF_RECORD_HEADER_ATTR		= 64,
	PERF_RECORD_HEADER_EVENT_TYPE	= 65,
	PERF_RECORD_HEADER_TRACING_DATA	= 66,
	PERF_RECORD_HEADER_BUILD_ID	= 67,
	PERF_RECORD_FINISHED_ROUND	= 68,
	PERF_RECORD_ID_INDEX		= 69,
	PERF_RECORD_AUXTRACE_INFO	= 70,
	PERF_RECORD_AUXTRACE		= 71,
	PERF_RECORD_EVENT_UPDATE	= 78,
	PERF_RECORD_HEADER_FEATURE	= 80,
	PERF_RECORD_COMPRESSED		= 81,
	PERF_RECORD_FINISHED_INIT	= 82,
	PERF_RECORD_COMPRESSED2		= 83,
	PERF_RECORD_USER_MAX		= 84,	/* user types known below */
};

enum {
	PERF_SAMPLE_IP			= 1U << 0,
	PERF_SAMPLE_TID			= 1U << 1,
	PERF_SAMPLE_TIME		= 1U << 2,
	PERF_SAMPLE_ADDR		= 1U << 3,
	PERF_SAMPLE_READ		= 1U << 4,
	PERF_SAMPLE_CALLCHAIN		= 1U << 5,
	PERF_SAMPLE_ID			= 1U << 6,
	PERF_SAMPLE_CPU			= 1U << 7,
	PERF_SAMPLE_PERIOD		= 1U << 8,
	PERF_SAMPLE_STREAM_ID		= 1U << 9,
	PERF_SAMPLE_RAW			= 1U << 10,
	PERF_SAMPLE_BRANCH_STACK	= 1U << 11,
	PERF_SAMPLE_REGS_USER		= 1U << 12,
	PERF_SAMPLE_STACK_USER		= 1U << 13,
	PERF_SAMPLE_WEIGHT		= 1U << 14,
	PERF_SAMPLE_DATA_SRC		= 1U << 15,
	PERF_SAMPLE_IDENTIFIER		= 1U << 16,
	PERF_SAMPLE_TRANSACTION		= 1U << 17,
	PERF_SAMPLE_REGS_INTR		= 1U << 18,
	PERF_SAMPLE_PHYS_ADDR		= 1U << 19,
	PERF_SAMPLE_AUX			= 1U << 20,
	PERF_SAMPLE_CGROUP		= 1U << 21,
	PERF_SAMPLE_WEIGHT_STRUCT	= 1U << 24,
};

enum {
	PERF_FORMAT_TOTAL_TIME_ENABLED	= 1U << 0,
	PERF_FORMAT_TOTAL_TIME_RUNNING	= 1U << 1,
	PERF_FORMAT_ID			= 1U << 2,
	PERF_FORMAT_GROUP		= 1U << 3,
	PERF_FORMAT_LOST		= 1U << 4,
};

/* attr flag bits (the bit field after read_format), little-endian order */
#define ATTR_FLAG_SAMPLE_ID_ALL	18
#define ATTR_FLAG_USE_CLOCKID	25

#define PERF_RECORD_MISC_CPUMODE_MASK	7
#define PERF_RECORD_MISC_KERNEL		1
#define PERF_RECORD_MISC_USER		2
#define PERF_RECORD_MISC_COMM_EXEC	(1U << 13)
#define PERF_RECORD_MISC_MMAP_BUILD_ID	(1U << 14)
#define PERF_RECORD_MISC_BUILD_ID_SIZE	(1U << 15)

/* callchain context markers: (u64)-N */
#define PERF_CONTEXT_HV			((uint64_t)-32)
#define PERF_CONTEXT_KERNEL		((uint64_t)-128)
#define PERF_CONTEXT_USER		((uint64_t)-512)
#define PERF_CONTEXT_USER_DEFERRED	((uint64_t)-640)
#define PERF_CONTEXT_GUEST		((uint64_t)-2048)
#define PERF_CONTEXT_GUEST_KERNEL	((uint64_t)-2176)
#define PERF_CONTEXT_GUEST_USER		((uint64_t)-2560)
#define PERF_CONTEXT_MAX		((uint64_t)-4095)

enum {
	FEAT_TRACING_DATA	= 1,
	FEAT_BUILD_ID		= 2,
	FEAT_HOSTNAME		= 3,
	FEAT_OSRELEASE		= 4,
	FEAT_VERSION		= 5,
	FEAT_ARCH		= 6,
	FEAT_NRCPUS		= 7,
	FEAT_CPUDESC		= 8,
	FEAT_CPUID		= 9,
	FEAT_TOTAL_MEM		= 10,
	FEAT_CMDLINE		= 11,
	FEAT_EVENT_DESC		= 12,
	FEAT_SAMPLE_TIME	= 21,
	FEAT_CLOCKID		= 23,
	FEAT_COMPRESSED		= 27,
	FEAT_CLOCK_DATA		= 29,
	FEAT_BITS		= 256,
};

/* ---- caps on values read from the file -------------------------------- */

#define PERF_MAX_ATTRS		65536u
#define PERF_MAX_IDS		(1u << 20)	/* in all: attrs x CPUs x threads */
#define PERF_MAX_FEATURE	(256u << 20)	/* one feature section */
#define PERF_MAX_BUILD_IDS	(1u << 20)
#define PERF_MAX_STRING		(1u << 20)	/* one perf_header_string */
#define PERF_QUEUE_DEFAULT	(16u << 20)
#define PERF_QUEUE_MIN		(64u << 10)

/* ---- byte order ---------------------------------------------------------- */

static inline uint16_t pget16(const void *p, bool swap)
{
	uint16_t v;

	memcpy(&v, p, 2);
	return swap ? __builtin_bswap16(v) : v;
}

static inline uint32_t pget32(const void *p, bool swap)
{
	uint32_t v;

	memcpy(&v, p, 4);
	return swap ? __builtin_bswap32(v) : v;
}

static inline uint64_t pget64(const void *p, bool swap)
{
	uint64_t v;

	memcpy(&v, p, 8);
	return swap ? __builtin_bswap64(v) : v;
}

/* ---- attrs ------------------------------------------------------------ */

/* Where a sample's fields are, from its attr's sample_type. */
struct perf_attr {
	struct lt_perf_attr pub;
	/*
	 * A SAMPLE's fields up to PERIOD have fixed places (from the
	 * record's start; -1: not there), and end at fixed_end: read
	 * straight from there when the record is that long.
	 */
	int id_off, ip_off, tid_off, time_off, addr_off, cpu_off, period_off;
	uint32_t fixed_end;
	uint32_t trailer;	/* bytes of the sample_id_all trailer */
	int tr_tid, tr_time, tr_id, tr_cpu;	/* offsets in it, -1 none */
	/* a tracepoint's common_type, read from its payload */
	uint32_t type_off, type_size;
};

struct id_ent {
	uint64_t id;		/* 0: free slot */
	uint32_t attr;		/* index, or UINT32_MAX: only ID_INDEX said */
	int32_t cpu;		/* from ID_INDEX, -1 unknown */
};

/* ---- the reorder queue -------------------------------------------------- */

/*
 * A queued record: its time, and its offset << 16 | its attr's index (so
 * that it is not looked up again; offsets stay below 2^48).  The second
 * breaks ties in time: file order.
 */
struct q_ent {
	uint64_t ts;
	uint64_t ref;
};

#define Q_REF(off, attr)	((off) << 16 | (attr))
#define Q_OFF(ref)		((ref) >> 16)
#define Q_ATTR(ref)		((unsigned int)((ref) & 0xffff))

/* A run: queued records whose times do not go down, entries [head, end). */
struct q_run {
	uint64_t ts, ref;	/* of its head entry: the heap's key */
	uint64_t head, end;	/* entry numbers (ring index = n & mask) */
};

/*
 * perf queues every record with a time and, at FINISHED_ROUND, hands out
 * those up to the largest time of the round before (the kernel writes
 * each CPU's buffer in order, a round at a time, so nothing older can
 * come).  Here the records are queued as they come, in runs of times
 * that do not go down (a round is one run per CPU buffer), and merged
 * with a heap of runs: cheap for few runs, and memory is 16 bytes a
 * record.  A run stops where a time goes down; the last one stays out of
 * the heap while it grows.
 */
struct perf_queue {
	struct q_ent *ents;
	uint64_t mask;		/* ring size - 1 */
	uint64_t front;		/* no live entry before (a lower bound) */
	uint64_t tail;		/* next entry number */
	struct q_run *heap;
	uint32_t nr_runs, runs_cap;
	bool open;		/* @cur takes more entries */
	struct q_run cur;
	uint64_t cur_last;	/* time of @cur's last entry */
	uint64_t nr;		/* records queued */
	uint64_t max_ts;	/* largest queued since the queue was empty */
	uint64_t next_flush;	/* a round hands out up to this */
	uint64_t last_flush;	/* time of the last record handed out */
	uint64_t limit;		/* this flush hands out up to this */
	uint64_t max_ents;	/* the cap, in entries */
};

/*
 * A window over a stream of bytes: buf holds [base, base + len); what is
 * before keep is no longer needed and is moved out when room is wanted.
 */
struct pwin {
	unsigned char *buf;
	size_t cap, len;
	uint64_t base, keep;
};

/* decompressed data's offsets: above any file's, below Q_REF's 2^48 */
#define PERF_ZFLAG		(1ULL << 47)

/*
 * A regular file's data is read with pread() into chunks, not through its
 * map.  In a VM every page of a map read once costs a nested page walk
 * when it is first touched: on this project's 2-vCPU VM, touching each
 * cache line of a 353 MB perf.data through the map took 0.25-0.29 s of
 * CPU (faulted in ahead or not), and copying it into reused buffers with
 * pread() 0.06-0.08 s.  Chunk k holds the records that start in
 * [start + k * PERF_CHUNK, + PERF_CHUNK), whole: its bytes go on past
 * that by PERF_CHUNK_OVER, more than a record's 64 KB.
 *
 * The chunks from the oldest queued record's to the one being read,
 * [lo, hi), may hold queued records, and each counts its own: a chunk
 * none of whose records is queued any more is let go at once.  At most
 * @keep of them (PERF_CHUNKS_KEEP: 8 MB) are in memory, each in a slot
 * (two slots to a huge page, allocated when first needed and kept until
 * the data ends).  Past that, a chunk is let go though records of it are
 * queued: of those in memory, the one read last that holds no run's next
 * record (perf-order.c); and a record handed out of a chunk let go reads
 * its chunk again.  So a round larger than the slots (perf record -m 32M
 * -g's reach 37 MB) is read twice in part, not kept whole.  Slots are
 * taken past @keep only while every chunk in memory holds a run's next
 * record (many CPUs in a round), up to PERF_SLOTS_MAX, past which the
 * map serves.
 */
#define PERF_CHUNK_OVER		(64u << 10)
#define PERF_CHUNK_STRIDE	(1u << 20)
#define PERF_CHUNK		(PERF_CHUNK_STRIDE - PERF_CHUNK_OVER)
#define PERF_CHUNKS_KEEP	8
#define PERF_SLOTS_MAX		128	/* a multiple of 64 */
#define PERF_CHUNK_PIECE	(128u << 10)	/* read at a time */
#define PERF_NO_SLOT		0xffffu

struct pchunk {
	unsigned char *at;	/* its bytes, in a slot; NULL: let go */
	uint32_t queued;	/* records starting in it, queued */
	uint16_t slot;		/* PERF_NO_SLOT: none */
};

struct pchunks {
	bool on;		/* the data is read so */
	unsigned char *pages[PERF_SLOTS_MAX / 2];	/* two slots each */
	uint64_t used[PERF_SLOTS_MAX / 64];	/* slots in use, a bit */
	uint64_t slot_chunk[PERF_SLOTS_MAX];	/* the chunk in each */
	unsigned int nr_used;	/* slots in use */
	unsigned int keep;	/* ... at most, but for runs' next records */
	struct pchunk *ch;	/* chunk k at ch[k & mask], k in [lo, hi) */
	uint64_t mask;
	uint64_t start;		/* file offset of chunk 0 */
	uint64_t lo, hi;	/* chunks [lo, hi) are read, hi - 1 up to */
	uint64_t filled;	/* ... this file offset */
	uint64_t lo_off, hi_off;	/* records starting in [lo_off, hi_off)
					   are in them, if in memory (0, 0:
					   none, or no chunks at all) */
	bool out_pending;	/* the record handed out last, of ... */
	uint64_t out_off;	/* ... this offset, is counted off its
				   chunk at the next call (its bytes stay
				   till then) */
};

/* Where the byte at @off, of a chunk in [lo, hi), is; NULL: not in memory. */
static inline const unsigned char *chunk_at(const struct pchunks *ck,
					    uint64_t off)
{
	uint64_t rel = off - ck->start, k = rel / PERF_CHUNK;
	const unsigned char *at = ck->ch[k & ck->mask].at;

	return at ? at + (rel - k * PERF_CHUNK) : NULL;
}

/* ---- the reader ------------------------------------------------------- */

enum perf_state {
	ST_READ,		/* reading records */
	ST_FLUSH,		/* handing out queued ones up to q.limit */
	ST_FORCED,		/* handing out the oldest until under the cap */
	ST_END,			/* nothing more */
};

struct lt_perf {
	struct lt_perf_info info;
	struct lt_perf_stats stats;
	char *path;
	bool swap;			/* the file's byte order is not ours */

	/* the bytes: a mapped file, or a window over a stream */
	int fd;
	bool own_fd;
	bool stream;
	const unsigned char *map;
	uint64_t size;			/* of the file (map) */
	uint64_t sys_page;
	uint64_t released;		/* map: pages dropped up to here */
	uint64_t populated;		/* map: pages faulted in up to here
					   (the data read so far: at most size) */
	bool populate_off;		/* madvise() cannot (Linux < 5.14) */
	struct pchunks ck;		/* file: the data section's bytes */
	struct pwin win;		/* stream: the bytes read */
	size_t win_max;			/* a window's cap */
	bool eof;			/* stream: read() said the end */
	/*
	 * perf record -z: COMPRESSED records hold one zstd stream of records,
	 * which are read from zwin at zpos (offsets with PERF_ZFLAG) before
	 * the next record of the file.
	 */
	void *zctx;			/* ZSTD_DCtx, once there is compressed data */
	struct pwin zwin;
	uint64_t zpos;			/* next record in the decompressed data */
	uint64_t zrec;			/* file offset of the last COMPRESSED record */
	uint64_t last_out;		/* latest time handed out */
	uint64_t pos;			/* next record to read */
	uint64_t next_check;		/* look at the queue's size here */
	uint64_t end;			/* file: the data section's end */

	/* events */
	struct perf_attr **attrs;	/* each its own: pointers stay valid */
	unsigned int nr_attrs, attrs_cap;
	struct id_ent *ids;
	uint64_t ids_mask;		/* size - 1; 0: no table */
	uint32_t nr_ids;
	int id_pos, is_pos;		/* in u64s: the id in a SAMPLE from its
					   start, in others from their end */
	bool sample_id_all;
	/* ids looked up lately: a direct-mapped cache of id -> attr */
	struct {
		uint64_t id;
		struct perf_attr *attr;
	} idc[64];	/* attr_of() knows the size */

	struct lt_trace *trace;		/* the tracing data's formats */
	struct lt_perf_build_id *build_ids;
	unsigned int nr_build_ids, build_ids_cap;
	char **strs;			/* owned strings, freed at close */
	unsigned int nr_strs, strs_cap;

	struct perf_queue q;
	uint64_t q_file, q_zdata;	/* records queued of each space */
	size_t queue_bytes;
	unsigned int chunks_keep;	/* chunks in memory (pchunks) */
	enum perf_state state;
	enum perf_state after;		/* ST_FLUSH goes on to this */
	/* a sample's call chain: its kernel frames, and its user frames */
	uint64_t frames[LT_PERF_MAX_FRAMES];
	uint64_t uframes[LT_PERF_MAX_FRAMES];
};

/* A bounded cursor over bytes of the file (a section, a record). */
struct pcur {
	const unsigned char *p;
	size_t len, pos;
	uint64_t off;			/* file offset of p[0] */
	const char *what;		/* "HOSTNAME feature", "SAMPLE record" */
};

/* perf-src.c */
int lt_perf_fail(struct lt_perf *p, struct lt_error *err, enum lt_errcode code,
		 const char *fmt, ...) __attribute__((format(printf, 4, 5)));
int lt_perf_fail_at(struct lt_perf *p, struct lt_error *err,
		    enum lt_errcode code, const char *what, uint64_t off,
		    const char *fmt, ...) __attribute__((format(printf, 6, 7)));
int lt_perf_cur_fail(struct lt_perf *p, struct lt_error *err, enum lt_errcode code,
		     const struct pcur *c, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
int lt_perf_cur_need(struct lt_perf *p, struct lt_error *err, const struct pcur *c,
		     size_t n, const char *item);
int lt_perf_cur_u32(struct lt_perf *p, struct lt_error *err, struct pcur *c,
		    const char *item, uint32_t *v);
int lt_perf_cur_u64(struct lt_perf *p, struct lt_error *err, struct pcur *c,
		    const char *item, uint64_t *v);
/* A perf_header_string: u32 length, then that many bytes, NUL in them. */
int lt_perf_cur_string(struct lt_perf *p, struct lt_error *err, struct pcur *c,
		       const char *item, const char **s, size_t *len);
/*
 * @n bytes at stream offset @off: in the map, or read into the window
 * (which keeps everything from the oldest queued record on).  NULL with
 * @err at the end of the file or stream (LT_E_TRUNCATED, naming @what) or
 * on a read error.  Valid until the next perf_bytes().
 */
const unsigned char *lt_perf_bytes_slow(struct lt_perf *p, struct lt_error *err,
					uint64_t off, size_t n, const char *what);

/* Whether the @n bytes at @off are in a chunk read already. */
static inline bool perf_in_chunk(const struct lt_perf *p, uint64_t off,
				 size_t n)
{
	return off >= p->ck.lo_off && off < p->ck.hi_off &&
	       n <= PERF_CHUNK_OVER && off + n <= p->ck.filled;
}

static inline const unsigned char *perf_bytes(struct lt_perf *p,
					      struct lt_error *err,
					      uint64_t off, size_t n,
					      const char *what)
{
	/* the hot path: a record of a chunk read already */
	const unsigned char *b;

	if (perf_in_chunk(p, off, n) && (b = chunk_at(&p->ck, off)))
		return b;
	if ((off & PERF_ZFLAG) && off >= p->zwin.base &&
	    n <= p->zwin.base + p->zwin.len - off)
		return p->zwin.buf + (off - p->zwin.base);
	return lt_perf_bytes_slow(p, err, off, n, what);
}
/*
 * The record at @off fetched into the caches, if it is in a chunk (a
 * hint: not through the map, whose pages may not be there).
 */
static inline void perf_prefetch(const struct lt_perf *p, uint64_t off)
{
	const unsigned char *b;

	if (off >= p->ck.lo_off && off < p->ck.hi_off &&
	    (b = chunk_at(&p->ck, off)))
		__builtin_prefetch(b);
}
/*
 * @n bytes at @off passed over (AUXTRACE data); in a stream they are read
 * and kept only as far as something before @keep is still queued.
 */
int lt_perf_skip(struct lt_perf *p, struct lt_error *err, uint64_t off,
		 uint64_t n, uint64_t keep, const char *what);
/* Bytes before @off are no longer needed: drop or reuse them. */
void lt_perf_release(struct lt_perf *p, uint64_t off);
/* A file's data from @off on is read in chunks (not for a stream). */
void lt_perf_chunks_init(struct lt_perf *p, uint64_t off);
void lt_perf_chunks_free(struct lt_perf *p);
/*
 * A file record at @off was queued: its chunk counts it.  It was handed
 * out (lt_perf_chunk_out()): counted off at the next call of the reader,
 * when its bytes are done with; a chunk with none queued any more goes.
 */
void lt_perf_chunk_in(struct lt_perf *p, uint64_t off);
void lt_perf_chunk_out(struct lt_perf *p, uint64_t off);
void lt_perf_chunk_out_done(struct lt_perf *p);
/* Whether a record at @off (of at least 8 bytes) may be read: not the end */
int lt_perf_more(struct lt_perf *p, struct lt_error *err, uint64_t off);
/* A string the reader keeps until it is closed; NULL out of memory. */
char *lt_perf_keep(struct lt_perf *p, const char *s, size_t len);

/* perf-attr.c */
/*
 * Add an attr read from @a (@size bytes, the attr's own size), with
 * @nr_ids ids at @ids (u64s in file order).  @c is for messages.
 */
int lt_perf_attr_add(struct lt_perf *p, struct lt_error *err, const struct pcur *c,
		     const unsigned char *a, uint32_t size, const unsigned char *ids,
		     uint64_t nr_ids);
/* The attrs agree on how records name them (perf's rules): 0 or -1. */
int lt_perf_attrs_check(struct lt_perf *p, struct lt_error *err,
			const struct pcur *c);
/* After the tracing data: the tracepoints' formats and names. */
void lt_perf_attrs_bind_formats(struct lt_perf *p);
/* id -> cpu from an ID_INDEX record */
int lt_perf_id_set_cpu(struct lt_perf *p, struct lt_error *err,
		       const struct pcur *c, uint64_t id, int cpu);
struct id_ent *lt_perf_id_find(const struct lt_perf *p, uint64_t id);
/* The attr of the record @r of @size bytes, or NULL if it names none. */
struct perf_attr *lt_perf_attr_of_slow(struct lt_perf *p, const unsigned char *r,
				       uint32_t type, uint32_t size);

static inline struct perf_attr *attr_of(struct lt_perf *p,
					const unsigned char *r, uint32_t type,
					uint32_t size)
{
	uint64_t id, where;

	if (p->nr_attrs == 1)
		return p->attrs[0];
	/* a SAMPLE whose id was looked up lately */
	if (type == PERF_RECORD_SAMPLE && p->nr_attrs &&
	    (where = PERF_REC_HEADER + 8 * (uint64_t)p->id_pos) + 8 <= size) {
		id = pget64(r + where, p->swap);
		if (id && p->idc[id % 64].id == id)
			return p->idc[id % 64].attr;
	}
	return lt_perf_attr_of_slow(p, r, type, size);
}
void lt_perf_attrs_free(struct lt_perf *p);

/* The room for @need more bytes at the end of @w: 0, or -1 with @err. */
int lt_perf_win_room(struct lt_perf *p, struct lt_error *err, struct pwin *w,
		     size_t need, const char *what, uint64_t off);

/* perf-zstd.c */
/*
 * The @n bytes at @src of a COMPRESSED record at @off, decompressed onto
 * the end of zwin: 0, or -1 with @err (the stream cannot go on).
 */
int lt_perf_zdata_add(struct lt_perf *p, struct lt_error *err,
		      const unsigned char *src, size_t n, uint64_t off);
void lt_perf_zdata_free(struct lt_perf *p);

/* perf-header.c */
/*
 * A record perf writes (type 64 and up) at @off, of @size bytes, taken
 * in: 0, or -1 with @err.  *@extra: bytes after it that are its own
 * (tracing data, AUX data); *@fatal: the stream cannot be followed on.
 */
int lt_perf_user_record(struct lt_perf *p, struct lt_error *err, uint32_t type,
			uint64_t off, uint32_t size, uint64_t *extra, bool *fatal);

/* perf-feat.c */
/* Feature @feat's bytes @c (a file section, or a pipe FEATURE record). */
int lt_perf_feat_read(struct lt_perf *p, struct lt_error *err, unsigned int feat,
		      struct pcur *c);
int lt_perf_tracing_data_read(struct lt_perf *p, struct lt_error *err,
			      const unsigned char *data, size_t len, uint64_t off);
/* One build_id_event (feature section entry or HEADER_BUILD_ID record). */
int lt_perf_build_id_add(struct lt_perf *p, struct lt_error *err, struct pcur *c,
			 uint16_t misc, uint16_t size);

/* perf-sample.c */
/*
 * A record's time for the queue: 0 when it has none (or when it does not
 * hold one where its attr says: then it is handed out at once, and its
 * damage said then).
 */
uint64_t lt_perf_record_time(struct lt_perf *p, const unsigned char *r,
			     uint32_t type, uint32_t size, struct perf_attr **attr);
/*
 * Record @r at @off whole into @rec: 1, or -1 with @err (damage).  @a is
 * its attr (lt_perf_record_time() found it), or NULL: looked up.
 */
int lt_perf_record_parse(struct lt_perf *p, const unsigned char *r, uint64_t off,
			 struct perf_attr *a, struct lt_perf_record *rec,
			 struct lt_error *err);
/* Whether records of @type are handed out (else skipped). */
static inline bool record_wanted(uint32_t type)
{
	return type == PERF_RECORD_SAMPLE || type == PERF_RECORD_COMM ||
	       type == PERF_RECORD_FORK || type == PERF_RECORD_EXIT ||
	       type == PERF_RECORD_MMAP || type == PERF_RECORD_MMAP2 ||
	       type == PERF_RECORD_LOST || type == PERF_RECORD_LOST_SAMPLES ||
	       type == PERF_RECORD_CGROUP;
}

/* perf-order.c */
int lt_perf_queue_init(struct perf_queue *q, uint64_t max_ents);
void lt_perf_queue_free(struct perf_queue *q);
/* 1 queued, 0 full (hand some out first), -1 out of memory */
int lt_perf_queue_add_slow(struct perf_queue *q, uint64_t ts, uint64_t ref);

static inline int queue_add(struct perf_queue *q, uint64_t ts, uint64_t ref)
{
	/* the common case: room in the ring, and the last run goes on */
	if (q->open && ts >= q->cur_last && q->tail - q->front <= q->mask) {
		/* the ring is larger than the caches: ask for lines ahead */
		__builtin_prefetch(&q->ents[(q->tail + 16) & q->mask], 1);
		q->ents[q->tail & q->mask] = (struct q_ent){ ts, ref };
		if (ts > q->max_ts)
			q->max_ts = ts;
		q->nr++;
		q->cur_last = ts;
		q->cur.end = ++q->tail;
		return 1;
	}
	return lt_perf_queue_add_slow(q, ts, ref);
}
/* Start handing out up to @limit (UINT64_MAX: everything): 0, -1 ENOMEM */
int lt_perf_queue_flush_to(struct perf_queue *q, uint64_t limit);
static inline bool run_before(const struct q_run *a, const struct q_run *b)
{
	return a->ts < b->ts || (a->ts == b->ts && a->ref < b->ref);
}

/* Restore the heap after h[0] grew later (or was replaced). */
static inline void queue_sift(struct q_run *h, uint32_t n)
{
	struct q_run e = h[0];
	uint32_t c, i = 0;

	for (;; i = c) {
		c = 2 * i + 1;
		if (c >= n)
			break;
		if (c + 1 < n && run_before(&h[c + 1], &h[c]))
			c++;
		if (!run_before(&h[c], &e))
			break;
		h[i] = h[c];
	}
	h[i] = e;
}


/* The next record of the flush: 1 with *@ref, 0 none left up to the limit */
static inline int queue_pop(struct perf_queue *q, uint64_t *ts, uint64_t *ref)
{
	struct q_run *top = q->heap;
	const struct q_ent *e;

	if (!q->nr_runs || top->ts > q->limit)
		return 0;
	*ts = top->ts;
	*ref = top->ref;
	q->last_flush = top->ts;
	q->nr--;
	/* handed out: the front may pass it (live_front()) */
	q->ents[top->head & q->mask].ts = 0;
	if (++top->head < top->end) {
		e = &q->ents[top->head & q->mask];
		top->ts = e->ts;
		top->ref = e->ref;
		/* still before its children: no need to sift */
		if ((q->nr_runs < 2 || run_before(top, &top[1])) &&
		    (q->nr_runs < 3 || run_before(top, &top[2])))
			return 1;
	} else {
		*top = q->heap[--q->nr_runs];
		if (!q->nr && !q->open)
			q->front = q->tail;
	}
	if (q->nr_runs > 1)
		queue_sift(q->heap, q->nr_runs);
	return 1;
}
/* The oldest queued record's offset, or UINT64_MAX when empty. */
uint64_t lt_perf_queue_low(struct perf_queue *q);
/* Entries the ring holds now, handed out or not (what caps it). */
uint64_t lt_perf_queue_used(struct perf_queue *q);
/*
 * Whether the queue is at its cap, in entries or in runs (@half: half of
 * it).  queue_add() says full only when this is true at the whole cap, so
 * handing out until it is false at half the cap always makes progress.
 */
bool lt_perf_queue_over(struct perf_queue *q, bool half);
/* Bytes the queue's entries take now. */
uint64_t lt_perf_queue_bytes(const struct perf_queue *q);

#endif /* LT_PERF_LOCAL_H */
