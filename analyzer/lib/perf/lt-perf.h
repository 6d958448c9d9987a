/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * lt-perf.h - the perf.data reader.
 *
 * Reads what `perf record` writes: a file (mapped) or, in pipe mode
 * (`perf record -o -`), a stream read from a pipe or standard input;
 * compressed (perf record -z) or not.  It
 * hands out the data records one at a time, in time order as perf's
 * ordered-events gives them (FINISHED_ROUND bounds how far back a record
 * may go), through a reorder queue of bounded size: memory does not grow
 * with the file.  A tracepoint sample comes as an lt_record over the
 * event's raw payload, to be decoded with the formats of the file's
 * tracing data (lt_perf_trace()) as a trace.dat's records are.
 *
 * Every size, offset and count read from the file is checked against the
 * file before it is used: damage is a one-line lt_error naming the file,
 * the section or record, and its file offset; never a crash.  Files of
 * either byte order are read.
 *
 * The library never prints: oddities are counted (struct lt_perf_stats).
 *
 * To the analyzer's decoder, a tracepoint sample is a trace record:
 *
 *	lt_perf_open(&p, path, NULL, &err);
 *	lt_decode_init(&d, lt_perf_trace(p), &err);
 *	while ((ret = lt_perf_next(p, &r, &err)) != 0)
 *		if (ret > 0 && r.kind == LT_PERF_SAMPLE && r.sample.raw.data)
 *			lt_decode_record(&d, &r.sample.raw, &ev);
 *
 * with r.sample.kernel_frames for a stack (innermost first, as
 * ftrace:kernel_stack's), and the other kinds for names, tasks, mappings
 * and losses.
 */
#ifndef LT_PERF_H
#define LT_PERF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "latencytop.h"
#include "lt-trace.h"

struct lt_perf;

/* perf_event_attr.type of a tracepoint, whose config is its format's ID */
#define LT_PERF_TYPE_TRACEPOINT	2

/* An event the file was recorded with (a perf_event_attr and its ids). */
struct lt_perf_attr {
	unsigned int index;		/* in the file's order */
	uint32_t type;			/* PERF_TYPE_* */
	uint64_t config;
	uint64_t sample_type;		/* PERF_SAMPLE_* */
	uint64_t read_format;		/* PERF_FORMAT_* */
	uint64_t flags;			/* the attr's bit field (disabled = bit 0,
					   sample_id_all = bit 18, ...), in this
					   machine's bit order */
	bool sample_id_all;		/* other records carry the sample's ids */
	int clockid;			/* -1: perf's default clock */
	const char *name;		/* "sched:sched_switch"; "" unknown */
	const struct lt_event_type *tp;	/* a tracepoint's format, or NULL */
	unsigned int nr_ids;
	uint64_t samples;		/* samples of it handed out so far */
};

/* A build-id the file records for a binary (BUILD_ID feature, records). */
struct lt_perf_build_id {
	int pid;			/* -1: the host kernel */
	uint16_t cpumode;		/* PERF_RECORD_MISC_KERNEL (1), _USER (2), ... */
	uint8_t size;			/* bytes of id used (20 for SHA-1) */
	unsigned char id[20];
	const char *filename;		/* "[kernel.kallsyms]", "/usr/bin/ls" */
};

struct lt_perf_info {
	const char *path;
	bool pipe;			/* pipe-mode layout */
	bool big_endian;		/* the recording machine's byte order */
	uint64_t file_size;		/* 0 for a stream */
	uint64_t data_offset, data_size;	/* file mode: the data section */
	/* from the feature sections; "" when not recorded */
	const char *hostname;
	const char *os_release;		/* uname -r */
	const char *perf_version;
	const char *arch;		/* uname -m */
	const char *cpu_desc;
	const char *cpuid;
	const char *cmdline;		/* perf's command line, words joined */
	int nr_cpus_online;		/* -1 when not recorded */
	int nr_cpus_avail;
	uint64_t total_mem_kb;		/* 0 when not recorded */
	uint64_t first_sample_ns, last_sample_ns;	/* SAMPLE_TIME; 0 if not */
	int clockid;			/* the events' clock; -1: perf's default
					   (the kernel's local clock) */
	uint64_t clock_res_ns;		/* CLOCKID feature; 0 if not recorded */
	bool have_clock_data;		/* CLOCK_DATA: the wall-clock time */
	uint64_t clock_tod_ns;		/* ... clock_tod_ns at */
	uint64_t clock_ref_ns;		/* ... this time of the events' clock */
	const char *compression;	/* "none", or "zstd" (perf record -z:
					   the COMPRESSED feature says so) */
	uint64_t features[4];		/* bit n: feature n is in the file */
	bool tracing_data;		/* the tracepoints' formats are there */
	unsigned int nr_attrs;
	unsigned int nr_build_ids;
};

/* What reading met, counted (they grow while records are read). */
struct lt_perf_stats {
	uint64_t records;		/* records read, of every type */
	uint64_t samples;		/* SAMPLE records handed out */
	uint64_t rounds;		/* FINISHED_ROUND records */
	uint64_t lost_records;		/* LOST and LOST_SAMPLES records */
	uint64_t lost_events;		/* LOST: events the kernel dropped */
	uint64_t lost_samples;		/* LOST_SAMPLES: samples dropped */
	uint64_t no_time;		/* handed out at once: no time stamp */
	uint64_t unordered;		/* handed out after a later record: the
					   queue had gone past their time */
	uint64_t forced_flushes;	/* the queue was full before a round
					   ended and gave out its oldest */
	uint64_t skipped;		/* kernel records of no use here (THROTTLE,
					   SWITCH, KSYMBOL, ...), not handed out */
	uint64_t unknown;		/* records of types not known, skipped */
	uint64_t damaged;		/* records skipped after an error */
	uint64_t bad_callchains;	/* callchains dropped as corrupt */
	uint64_t queue_peak;		/* most records queued at once */
	uint64_t queue_peak_bytes;	/* most memory the queue held */
	/*
	 * A file's data, read in chunks of ~1 MB: most in memory at once,
	 * and how many were read again (let go with records still queued)
	 */
	uint64_t chunks_peak;
	uint64_t chunks_reread;
};

enum lt_perf_kind {
	LT_PERF_SAMPLE,			/* SAMPLE: an event fired */
	LT_PERF_COMM,			/* COMM: a task's name (exec: by exec()) */
	LT_PERF_FORK,			/* FORK: pid/tid created by ppid/ptid */
	LT_PERF_EXIT,			/* EXIT: pid/tid ended (ppid/ptid: its parent) */
	LT_PERF_MMAP,			/* MMAP, MMAP2: a file mapped */
	LT_PERF_LOST,			/* LOST, LOST_SAMPLES: records dropped */
	LT_PERF_CGROUP,			/* CGROUP: a cgroup's id and path */
};

#define LT_PERF_MAX_FRAMES	8192	/* a record of 64 KB holds no more */

/*
 * One record.  Pointers are into the file or the reader and stay valid
 * until the next lt_perf_next() or lt_perf_close().
 */
struct lt_perf_record {
	enum lt_perf_kind kind;
	uint32_t type;			/* PERF_RECORD_* as in the file */
	uint16_t misc;			/* header misc: cpumode in the low 3 bits */
	int cpu;			/* -1: the record does not say */
	uint64_t ts;			/* ns on the events' clock; 0: no time
					   (perf hands those out at once) */
	int pid, tid;			/* -1: not said */
	bool late;			/* earlier than a record handed out before
					   (stats.unordered) */
	uint64_t offset;		/* of the record in the file or stream */
	const struct lt_perf_attr *attr;	/* its event; NULL if not known */
	union {
		struct {
			/*
			 * A tracepoint's payload: kind LT_REC_EVENT, cpu (-1
			 * when the sample has none, unlike a trace.dat's), ts,
			 * id = its common_type, type = that format (NULL if
			 * the file lacks it), data/size = the raw data (NULL,
			 * 0 when the sample has none), padded by the kernel
			 * to 8 bytes with its size field.
			 */
			struct lt_record raw;
			uint64_t ip, addr, period, id;
			/* CALLCHAIN, innermost first, context markers taken out */
			const uint64_t *kernel_frames;
			const uint64_t *user_frames;
			uint32_t nr_kernel_frames, nr_user_frames;
			uint32_t nr_other_frames;	/* guest, hypervisor: dropped */
			/*
			 * PERF_SAMPLE_CGROUP (perf record --all-cgroups):
			 * the id of the current task's cgroup (of the v2
			 * hierarchy: the directory's inode), which a CGROUP
			 * record names; 0 when the sample has none or what
			 * comes before it in the sample is not read here.
			 */
			uint64_t cgroup;
			bool callchain;		/* the sample has one */
			bool bad_callchain;	/* with a marker no kernel writes:
						   dropped whole, as perf does */
		} sample;
		struct {
			const char *comm;	/* not NUL-terminated */
			size_t len;
			bool exec;
		} comm;
		struct {
			int ppid, ptid;		/* FORK, EXIT */
			uint64_t time;		/* the record's own time field */
		} task;
		struct {
			uint64_t addr, len, pgoff;
			const char *filename;	/* not NUL-terminated */
			size_t filename_len;
			bool mmap2;
			bool has_build_id;	/* MMAP2 with a build-id, not an inode */
			uint8_t build_id_size;
			const unsigned char *build_id;
			uint32_t maj, min;	/* MMAP2 without build-id */
			uint64_t ino, ino_generation;
			uint32_t prot, flags;	/* MMAP2 */
		} mmap;
		/*
		 * LOST: the kernel dropped @count records of the ring buffer
		 * of @cpu.  LOST_SAMPLES: an event's own count of samples it
		 * dropped, which perf record writes at the end (no time, the
		 * CPU from ID_INDEX): the same losses again, not more.
		 */
		struct {
			uint64_t count;
			bool samples;		/* LOST_SAMPLES */
			uint64_t id;		/* the event's id (on one CPU) */
		} lost;
		/*
		 * CGROUP: the cgroup of @id is at @path (from the hierarchy's
		 * root: "/", "/system.slice/ssh.service").  perf writes one
		 * for each cgroup there is when it starts (no time), the
		 * kernel one for each made while it records.
		 */
		struct {
			uint64_t id;
			const char *path;	/* not NUL-terminated */
			size_t path_len;
		} cgroup;
	};
};

struct lt_perf_options {
	size_t queue_bytes;		/* the reorder queue's cap: records, and
					   in pipe mode their bytes; 0 = 16 MB */
	unsigned int chunks_keep;	/* a file's chunks of ~1 MB in memory
					   at most, but for what the runs
					   being merged need; 0 = 8 */
};

/* Whether @buf starts like a perf.data (either byte order, file or pipe). */
bool lt_perf_magic(const void *buf, size_t len);

/*
 * Open @path ("-": standard input).  A regular file is mapped; a pipe, a
 * FIFO or a terminal is read as a stream, which must be in pipe mode.
 * The header, attrs, ids and feature sections (in pipe mode: the records
 * before the first data record) are read now.  -1 with @err on failure
 * (*out NULL).  @opts may be NULL.
 */
int lt_perf_open(struct lt_perf **out, const char *path,
		 const struct lt_perf_options *opts, struct lt_error *err);
/* The same on an open descriptor, named @name in messages; not closed. */
int lt_perf_open_fd(struct lt_perf **out, int fd, const char *name,
		    const struct lt_perf_options *opts, struct lt_error *err);
void lt_perf_close(struct lt_perf *perf);

/*
 * The next record in time order: 1 with @rec filled, 0 at the end, -1 on
 * damage (@err says what and where).  A damaged record is returned as -1
 * once and skipped: calling again goes on.  When the file itself can no
 * longer be followed (a bad record size, the file ending inside a
 * record), the records queued before the damage are handed out next, then
 * 0.  So stop at the first -1 for all or nothing, or go on to 0 to use
 * everything readable.
 */
int lt_perf_next(struct lt_perf *perf, struct lt_perf_record *rec,
		 struct lt_error *err);

const struct lt_perf_info *lt_perf_info(const struct lt_perf *perf);
const struct lt_perf_stats *lt_perf_stats(const struct lt_perf *perf);
/*
 * The tracepoints' formats (and perf's saved cmdlines) from the tracing
 * data, or NULL when the file has none; owned by @perf.  In pipe mode it
 * is there after lt_perf_open() when perf wrote it before the data, as it
 * does.
 */
const struct lt_trace *lt_perf_trace(const struct lt_perf *perf);

unsigned int lt_perf_nr_attrs(const struct lt_perf *perf);
const struct lt_perf_attr *lt_perf_attr(const struct lt_perf *perf,
					unsigned int i);
unsigned int lt_perf_nr_build_ids(const struct lt_perf *perf);
const struct lt_perf_build_id *lt_perf_build_id(const struct lt_perf *perf,
						unsigned int i);

/* Bytes of data read so far and in all (0 for a stream), for progress. */
void lt_perf_progress(const struct lt_perf *perf, uint64_t *done,
		      uint64_t *total);

#endif /* LT_PERF_H */
