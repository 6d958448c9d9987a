// SPDX-License-Identifier: LGPL-2.1
/*
 * write-pprof.c - the report as a pprof profile (--format=pprof): a
 * gzipped perftools.profiles.Profile, as go tool pprof, Pyroscope and
 * Parca read it.  docs/pprof/profile.proto is the message, kept for
 * reference; lt-pb.h writes its wire format.
 *
 * A sample is the charged waits of one thread, under one cause, with one
 * distinct stack, ended by one waker: values [waits/count,
 * off_cpu/nanoseconds] (the count first, as profile.proto asks; off_cpu
 * is the default type), labels cause, argument (when there is one),
 * kind, process, pid, thread, tid (and trace, in a merged report;
 * cgroup, the process's, where the trace names one), waker and, for a
 * task, waker_tid.  waker is "comm (tid)" for a task, else what ended
 * the waits: hardirq, softirq, timer, unknown (a wait its switch-in
 * ended, say), lost (in a gap of lost events); "other wakers (past 8
 * per stack)" sums the waits of those past the ones a stack keeps
 * (lt_report_stack.wakers).  Each sample is those waits exactly, never a
 * share of the stack's: -tagfocus waker=... gives the true time.  There
 * is no waker where the report has none: with --no-chains, from a saved
 * or merged report, for a wait for a CPU (who ran instead woke nobody).
 * What a cause's waits have no stack for (a wait for a CPU; a trace
 * without stacks) is one more sample with one frame, "[cause]", so that
 * flame graphs show it.  The samples of a cause add up to its row of the
 * global table: kernel threads are left out unless -k, as there.  Only
 * the whole range is written.
 *
 * Frames are locations, leaf first: the kernel's, then the task's own
 * below them (perf.data's call chains).  Where the trace says where a
 * frame is, its location has an address in a mapping: kernel frames in
 * "[kernel.kallsyms]" (with perf.data's build-id of the kernel), user
 * frames in their binary (path and build-id, as perf recorded them), at
 * their offset in its file (the mapping starts at 0, as the file does).
 * Every location has its function's name already: mappings say
 * has_functions, and pprof looks for no binary.
 *
 * Saved and merged reports keep stacks per process, not per thread: a
 * process whose threads have fewer of them than it has gets samples per
 * process, without the thread labels.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "lt-map.h"
#include "lt-pb.h"
#include "lt-strtab.h"
#include "writers-local.h"

/* profile.proto's field numbers */
enum {
	PROFILE_SAMPLE_TYPE = 1,
	PROFILE_SAMPLE = 2,
	PROFILE_MAPPING = 3,
	PROFILE_LOCATION = 4,
	PROFILE_FUNCTION = 5,
	PROFILE_STRING_TABLE = 6,
	PROFILE_DURATION_NANOS = 10,
	PROFILE_COMMENT = 13,
	PROFILE_DEFAULT_SAMPLE_TYPE = 14,
};
enum { VALUE_TYPE_TYPE = 1, VALUE_TYPE_UNIT = 2 };
enum { SAMPLE_LOCATION_ID = 1, SAMPLE_VALUE = 2, SAMPLE_LABEL = 3 };
enum { LABEL_KEY = 1, LABEL_STR = 2, LABEL_NUM = 3 };
enum {
	MAPPING_ID = 1,
	MAPPING_MEMORY_START = 2,
	MAPPING_MEMORY_LIMIT = 3,
	MAPPING_FILENAME = 5,
	MAPPING_BUILD_ID = 6,
	MAPPING_HAS_FUNCTIONS = 7,
};
enum {
	LOCATION_ID = 1,
	LOCATION_MAPPING_ID = 2,
	LOCATION_ADDRESS = 3,
	LOCATION_LINE = 4,
};
enum { LINE_FUNCTION_ID = 1 };
enum { FUNCTION_ID = 1, FUNCTION_NAME = 2, FUNCTION_SYSTEM_NAME = 3 };

/* Mapping ids: the kernel's, then report binary i's is MAP_BINARY + i. */
#define MAP_KERNEL	1
#define MAP_BINARY	2

/* Compressed whenever this much of the profile is waiting. */
#define FLUSH_BYTES	(64 * 1024)

struct mapping {
	uint64_t lo, hi;	/* the addresses its locations have */
	bool used;
};

/*
 * A name a label gives each of many samples, looked up in the string
 * table at its first and kept: a saved report's may be megabytes.
 */
struct name {
	const char *s;
	uint64_t id;		/* NO_ID until looked up */
};

#define NO_ID	UINT64_MAX

/* The task samples are of. */
struct task {
	struct name process, thread;	/* thread.s NULL: per process */
	int pid, tid;
	struct name trace;		/* a merged report's, or s NULL */
	struct name cgroup;		/* the process's, or s NULL */
};

/* The row samples are of: its names. */
struct cause {
	const struct lt_report_row *row;
	struct name reason, argument, kind;
};

struct pprof {
	const struct lt_report *r;
	FILE *out;
	z_stream z;
	struct lt_pb pb;		/* the profile, not yet compressed */
	struct lt_pb locs, funcs;	/* written at the end */
	struct lt_strtab strs;		/* the string table: 0 is "" */
	struct lt_map func_map;		/* name's string -> function id */
	struct lt_map loc_map;		/* (mapping, address | function) -> id */
	uint32_t nr_funcs, nr_locs;
	struct mapping *maps;		/* by mapping id */
	size_t nr_maps;
	uint64_t *ids;			/* a sample's location ids */
	size_t cap_ids;
	char *clean;			/* a string made UTF-8 */
	size_t cap_clean;
	bool failed;			/* out of memory */
};

/* ---- strings -------------------------------------------------------- */

/*
 * Protocol buffers' strings are UTF-8 (Go's and C++'s decoders refuse
 * others): a byte that is not is taken for the Latin-1 character, as
 * the JSON report writes it.  @s itself when it is UTF-8.
 */
static const char *utf8(struct pprof *pp, const char *s, size_t *len)
{
	const unsigned char *p;
	size_t n = 0, k, need;

	for (p = (const unsigned char *)s; *p; p += k) {
		k = *p < 0x80 ? 1 : lt_utf8_len((const char *)p);
		if (!k)
			break;
	}
	if (!*p) {
		*len = (size_t)(p - (const unsigned char *)s);
		return s;
	}
	need = 2 * strlen(s) + 1;
	if (need > pp->cap_clean) {
		char *c = realloc(pp->clean, need);

		if (!c) {
			pp->failed = true;
			*len = 0;
			return "";
		}
		pp->clean = c;
		pp->cap_clean = need;
	}
	for (p = (const unsigned char *)s; *p; p += k) {
		k = *p < 0x80 ? 1 : lt_utf8_len((const char *)p);
		if (k) {
			memcpy(pp->clean + n, p, k);
			n += k;
			continue;
		}
		pp->clean[n++] = (char)(0xc0 | *p >> 6);
		pp->clean[n++] = (char)(0x80 | (*p & 0x3f));
		k = 1;
	}
	pp->clean[n] = '\0';
	*len = n;
	return pp->clean;
}

/* The string table's index of @s. */
static uint64_t str(struct pprof *pp, const char *s)
{
	size_t len;
	uint32_t id;

	s = utf8(pp, s ? s : "", &len);
	id = lt_strtab_intern(&pp->strs, s, len);
	if (id == UINT32_MAX) {
		pp->failed = true;
		return 0;
	}
	return id;
}

/* ---- functions and locations ------------------------------------------ */

static uint64_t function(struct pprof *pp, const char *name)
{
	uint64_t sid = str(pp, name);
	uint32_t *slot;
	size_t m;
	int added;

	slot = lt_map_put(&pp->func_map, sid, 0, pp->nr_funcs + 1, &added);
	if (!slot) {
		pp->failed = true;
		return 0;
	}
	if (added) {
		pp->nr_funcs++;
		m = lt_pb_open(&pp->funcs, PROFILE_FUNCTION);
		lt_pb_uint(&pp->funcs, FUNCTION_ID, *slot);
		lt_pb_uint(&pp->funcs, FUNCTION_NAME, sid);
		lt_pb_uint(&pp->funcs, FUNCTION_SYSTEM_NAME, sid);
		lt_pb_close(&pp->funcs, m);
	}
	return *slot;
}

/*
 * The location of frame @name at @addr in mapping @map (0: where it is is
 * not known, and @addr is not used): one per place, or per name where
 * there is no place.
 */
static uint64_t location(struct pprof *pp, const char *name, size_t map,
			 uint64_t addr)
{
	uint64_t fid = function(pp, name);
	uint32_t *slot;
	size_t m, l;
	int added;

	slot = lt_map_put(&pp->loc_map, map, map ? addr : fid,
			  pp->nr_locs + 1, &added);
	if (!slot) {
		pp->failed = true;
		return 0;
	}
	if (!added)
		return *slot;
	pp->nr_locs++;
	m = lt_pb_open(&pp->locs, PROFILE_LOCATION);
	lt_pb_uint(&pp->locs, LOCATION_ID, *slot);
	if (map) {
		struct mapping *mp = &pp->maps[map];

		if (!mp->used || addr < mp->lo)
			mp->lo = addr;
		if (!mp->used || addr > mp->hi)
			mp->hi = addr;
		mp->used = true;
		lt_pb_uint(&pp->locs, LOCATION_MAPPING_ID, map);
		lt_pb_uint(&pp->locs, LOCATION_ADDRESS, addr);
	}
	l = lt_pb_open(&pp->locs, LOCATION_LINE);
	lt_pb_uint(&pp->locs, LINE_FUNCTION_ID, fid);
	lt_pb_close(&pp->locs, l);
	lt_pb_close(&pp->locs, m);
	return *slot;
}

/* Room for @n location ids in pp->ids. */
static bool ids_room(struct pprof *pp, size_t n)
{
	uint64_t *ids;

	if (n <= pp->cap_ids)
		return true;
	ids = realloc(pp->ids, n * sizeof(*ids));
	if (!ids) {
		pp->failed = true;
		return false;
	}
	pp->ids = ids;
	pp->cap_ids = n;
	return true;
}

/* The locations of @st's frames into pp->ids, leaf first: how many. */
static size_t stack_ids(struct pprof *pp, const struct lt_report_stack *st)
{
	size_t n = st->nr_frames + st->nr_user_frames, i, k = 0;
	uint32_t bin;

	if (!ids_room(pp, n))
		return 0;
	for (i = 0; i < st->nr_frames; i++)
		pp->ids[k++] = location(pp, st->frames[i],
					st->addrs ? MAP_KERNEL : 0,
					st->addrs ? st->addrs[i] : 0);
	for (i = 0; i < st->nr_user_frames; i++) {
		bin = st->user_binaries ? st->user_binaries[i] : 0;
		if (bin > pp->r->nr_binaries)
			bin = 0;
		pp->ids[k++] = location(pp, st->user_frames[i],
					bin ? MAP_BINARY + bin - 1 : 0,
					bin ? st->user_offsets[i] : 0);
	}
	return k;
}

/* ---- samples ---------------------------------------------------------- */

/* A label of string @val, looked up once. */
static void label_str(struct pprof *pp, const char *key, struct name *val)
{
	size_t m = lt_pb_open(&pp->pb, SAMPLE_LABEL);

	lt_pb_uint(&pp->pb, LABEL_KEY, str(pp, key));
	if (val->id == NO_ID)
		val->id = str(pp, val->s);
	lt_pb_uint(&pp->pb, LABEL_STR, val->id);
	lt_pb_close(&pp->pb, m);
}

static void label_num(struct pprof *pp, const char *key, int64_t val)
{
	size_t m = lt_pb_open(&pp->pb, SAMPLE_LABEL);

	lt_pb_uint(&pp->pb, LABEL_KEY, str(pp, key));
	lt_pb_uint(&pp->pb, LABEL_NUM, (uint64_t)val);
	lt_pb_close(&pp->pb, m);
}

/* Compress what is waiting (all of it with @flush Z_FINISH). */
static int deflate_out(struct pprof *pp, const uint8_t *p, size_t len,
		       int flush)
{
	unsigned char buf[16384];
	size_t have;
	uInt step;

	do {
		step = len > (1u << 30) ? 1u << 30 : (uInt)len;
		pp->z.next_in = (Bytef *)p;
		pp->z.avail_in = step;
		/* the final flush has nothing: no arithmetic on a null pointer */
		if (step)
			p += step;
		len -= step;
		do {
			pp->z.next_out = buf;
			pp->z.avail_out = sizeof(buf);
			if (deflate(&pp->z, len ? Z_NO_FLUSH : flush) ==
			    Z_STREAM_ERROR)
				return -1;
			have = sizeof(buf) - pp->z.avail_out;
			if (have && fwrite(buf, 1, have, pp->out) != have)
				return -1;
		} while (!pp->z.avail_out);
	} while (len);
	return 0;
}

static int flush_pb(struct pprof *pp, struct lt_pb *pb, int flush)
{
	if (pb->failed) {
		pp->failed = true;
		return -1;
	}
	if (deflate_out(pp, pb->buf, pb->len, flush) < 0)
		return -1;
	lt_pb_reset(pb);
	return 0;
}

/* The waker label of @w: "comm (tid)", the kind, or the rest's. */
static void waker_label(struct pprof *pp, const struct lt_report_waker *w)
{
	char name[256];
	struct name v = { name, NO_ID };

	if (w->comm)
		snprintf(name, sizeof(name), "%s (%d)", w->comm, w->tid);
	else if (!strcmp(w->kind, "other"))
		snprintf(name, sizeof(name), "other wakers (past %d per stack)",
			 LT_REPORT_STACK_WAKERS);
	else
		snprintf(name, sizeof(name), "%s", w->kind);
	label_str(pp, "waker", &v);
	if (w->comm)
		label_num(pp, "waker_tid", w->tid);
}

/* @count waits of @st (NULL: none) for @ns, ended by @w (NULL: not known) */
static int sample(struct pprof *pp, struct task *t, struct cause *c,
		  const struct lt_report_stack *st,
		  const struct lt_report_waker *w, uint64_t count, uint64_t ns)
{
	uint64_t values[2] = { count, ns };
	size_t n = 0, m;

	if (st)
		n = stack_ids(pp, st);
	if (!n) {
		char name[512];

		/* the function's name, cut as the buffer cuts it */
		snprintf(name, sizeof(name), "[%.*s]", (int)sizeof(name) - 3,
			 c->row->reason);
		if (!ids_room(pp, 1))
			return -1;
		pp->ids[n++] = location(pp, name, 0, 0);
	}
	m = lt_pb_open(&pp->pb, PROFILE_SAMPLE);
	lt_pb_packed(&pp->pb, SAMPLE_LOCATION_ID, pp->ids, n);
	lt_pb_packed(&pp->pb, SAMPLE_VALUE, values, 2);
	label_str(pp, "cause", &c->reason);
	if (c->row->argument[0])
		label_str(pp, "argument", &c->argument);
	label_str(pp, "kind", &c->kind);
	label_str(pp, "process", &t->process);
	label_num(pp, "pid", t->pid);
	if (t->thread.s) {
		label_str(pp, "thread", &t->thread);
		label_num(pp, "tid", t->tid);
	}
	if (t->trace.s)
		label_str(pp, "trace", &t->trace);
	if (t->cgroup.s)
		label_str(pp, "cgroup", &t->cgroup);
	if (w)
		waker_label(pp, w);
	lt_pb_close(&pp->pb, m);
	if (pp->failed || pp->pb.failed)
		return -1;
	return pp->pb.len >= FLUSH_BYTES ? flush_pb(pp, &pp->pb, Z_NO_FLUSH) : 0;
}

/* A stack's samples: one per waker, one for what none is known of. */
static int stack_samples(struct pprof *pp, struct task *t, struct cause *c,
			 const struct lt_report_stack *st)
{
	uint64_t count = 0, ns = 0;
	size_t k;

	for (k = 0; k < st->nr_wakers; k++) {
		const struct lt_report_waker *w = &st->wakers[k];

		if (sample(pp, t, c, st, w, w->count, w->total_ns) < 0)
			return -1;
		count += w->count;
		ns += w->total_ns;
	}
	count = st->count > count ? st->count - count : 0;
	ns = st->total_ns > ns ? st->total_ns - ns : 0;
	if ((count || ns || !st->nr_wakers) &&
	    sample(pp, t, c, st, NULL, count, ns) < 0)
		return -1;
	return 0;
}

/* A row's samples: its stacks', one for the rest. */
static int row_samples(struct pprof *pp, struct task *t,
		       const struct lt_report_row *row)
{
	struct cause c = { row, { row->reason, NO_ID },
			   { row->argument, NO_ID },
			   { lt_cause_kind_name(row->kind), NO_ID } };
	uint64_t count = 0, ns = 0;
	size_t k;

	for (k = 0; k < row->nr_stacks; k++) {
		const struct lt_report_stack *st = &row->stacks[k];

		if (stack_samples(pp, t, &c, st) < 0)
			return -1;
		count += st->count;
		ns += st->total_ns;
	}
	count = row->count > count ? row->count - count : 0;
	ns = row->total_ns > ns ? row->total_ns - ns : 0;
	if ((count || ns) && sample(pp, t, &c, NULL, NULL, count, ns) < 0)
		return -1;
	return 0;
}

static uint64_t stacks_ns(const struct lt_report_row *rows, size_t n)
{
	uint64_t ns = 0;
	size_t i, k;

	for (i = 0; i < n; i++)
		for (k = 0; k < rows[i].nr_stacks; k++)
			ns += rows[i].stacks[k].total_ns;
	return ns;
}

static int process_samples(struct pprof *pp, const struct lt_report_process *p)
{
	struct task t = { { p->comm, NO_ID }, { NULL, NO_ID }, p->pid, 0,
			  { p->trace, NO_ID }, { p->cgroup, NO_ID } };
	uint64_t threads_ns = 0;
	size_t i, j;

	for (i = 0; i < p->nr_threads; i++)
		threads_ns += stacks_ns(p->threads[i].rows,
					p->threads[i].nr_rows);
	/* per thread, unless only the process has the stacks (saved) */
	if (threads_ns < stacks_ns(p->rows, p->nr_rows)) {
		for (j = 0; j < p->nr_rows; j++)
			if (row_samples(pp, &t, &p->rows[j]) < 0)
				return -1;
		return 0;
	}
	for (i = 0; i < p->nr_threads; i++) {
		const struct lt_report_thread *th = &p->threads[i];

		t.thread.s = th->comm;
		t.thread.id = NO_ID;
		t.tid = th->tid;
		for (j = 0; j < th->nr_rows; j++)
			if (row_samples(pp, &t, &th->rows[j]) < 0)
				return -1;
	}
	return 0;
}

/* ---- the profile -------------------------------------------------------- */

static void value_type(struct pprof *pp, unsigned int field, const char *type,
		       const char *unit)
{
	size_t m = lt_pb_open(&pp->pb, field);

	lt_pb_uint(&pp->pb, VALUE_TYPE_TYPE, str(pp, type));
	lt_pb_uint(&pp->pb, VALUE_TYPE_UNIT, str(pp, unit));
	lt_pb_close(&pp->pb, m);
}

static void mapping(struct pprof *pp, size_t id, uint64_t start,
		    const char *file, const char *build_id)
{
	const struct mapping *mp = &pp->maps[id];
	size_t m;

	if (!mp->used)
		return;
	m = lt_pb_open(&pp->pb, PROFILE_MAPPING);
	lt_pb_uint(&pp->pb, MAPPING_ID, id);
	lt_pb_uint(&pp->pb, MAPPING_MEMORY_START, start);
	lt_pb_uint(&pp->pb, MAPPING_MEMORY_LIMIT, mp->hi + 1);
	lt_pb_uint(&pp->pb, MAPPING_FILENAME, str(pp, file));
	if (build_id && build_id[0])
		lt_pb_uint(&pp->pb, MAPPING_BUILD_ID, str(pp, build_id));
	lt_pb_uint(&pp->pb, MAPPING_HAS_FUNCTIONS, 1);
	lt_pb_close(&pp->pb, m);
}

/* Everything but the samples, once they are written. */
static int tail(struct pprof *pp)
{
	const struct lt_report *r = pp->r;
	char line[600];
	size_t i;

	mapping(pp, MAP_KERNEL, pp->maps[MAP_KERNEL].lo, "[kernel.kallsyms]",
		r->kernel_build_id);
	for (i = 0; i < r->nr_binaries; i++)
		mapping(pp, MAP_BINARY + i, 0, r->binaries[i].path,
			r->binaries[i].build_id);
	lt_pb_uint(&pp->pb, PROFILE_DEFAULT_SAMPLE_TYPE, str(pp, "off_cpu"));
	/* one trace's clock: a merge's traces have each their own */
	if (!r->nr_traces && r->whole.end_ns > r->whole.start_ns)
		lt_pb_uint(&pp->pb, PROFILE_DURATION_NANOS,
			   r->whole.end_ns - r->whole.start_ns);
	if (r->path && r->path[0]) {
		snprintf(line, sizeof(line), "trace: %s", r->path);
		lt_pb_uint(&pp->pb, PROFILE_COMMENT, str(pp, line));
	}
	if (r->uname && r->uname[0]) {
		snprintf(line, sizeof(line), "uname: %s", r->uname);
		lt_pb_uint(&pp->pb, PROFILE_COMMENT, str(pp, line));
	}
	snprintf(line, sizeof(line), "latency-analyze: charged waits%s",
		 r->options.kernel_threads ? ", kernel threads included" :
		 " of user tasks (kernel threads with -k)");
	lt_pb_uint(&pp->pb, PROFILE_COMMENT, str(pp, line));
	if (flush_pb(pp, &pp->pb, Z_NO_FLUSH) < 0 ||
	    flush_pb(pp, &pp->locs, Z_NO_FLUSH) < 0 ||
	    flush_pb(pp, &pp->funcs, Z_NO_FLUSH) < 0 || pp->failed)
		return -1;
	/* the last: every string is in it by now */
	for (i = 0; i < pp->strs.len; i++) {
		const char *s = lt_strtab_get(&pp->strs, (uint32_t)i);

		lt_pb_bytes(&pp->pb, PROFILE_STRING_TABLE, s, strlen(s));
		if (pp->pb.len >= FLUSH_BYTES &&
		    flush_pb(pp, &pp->pb, Z_NO_FLUSH) < 0)
			return -1;
	}
	return flush_pb(pp, &pp->pb, Z_FINISH);
}

static int write_profile(struct pprof *pp)
{
	const struct lt_report_view *v = &pp->r->whole;
	size_t i;

	/* the count first, as profile.proto asks of one */
	value_type(pp, PROFILE_SAMPLE_TYPE, "waits", "count");
	value_type(pp, PROFILE_SAMPLE_TYPE, "off_cpu", "nanoseconds");
	for (i = 0; i < v->nr_processes; i++) {
		const struct lt_report_process *p = &v->processes[i];

		/* the global table's waits: kernel threads' with -k */
		if (p->kernel_thread && !pp->r->options.kernel_threads)
			continue;
		if (process_samples(pp, p) < 0)
			return -1;
	}
	return tail(pp);
}

int lt_report_write_pprof(const struct lt_report *r, FILE *out)
{
	struct pprof pp;
	int ret = -1;

	memset(&pp, 0, sizeof(pp));
	pp.r = r;
	pp.out = out;
	lt_pb_init(&pp.pb);
	lt_pb_init(&pp.locs);
	lt_pb_init(&pp.funcs);
	lt_map_init(&pp.func_map);
	lt_map_init(&pp.loc_map);
	pp.nr_maps = MAP_BINARY + r->nr_binaries;
	pp.maps = calloc(pp.nr_maps, sizeof(*pp.maps));
	/* gzip's wrapper (15 + 16): what pprof files are on disk */
	if (!pp.maps || lt_strtab_init(&pp.strs) < 0 ||
	    deflateInit2(&pp.z, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 15 + 16, 8,
			 Z_DEFAULT_STRATEGY) != Z_OK) {
		free(pp.maps);
		lt_strtab_free(&pp.strs);
		errno = ENOMEM;
		return -1;
	}
	ret = write_profile(&pp);
	if (ret < 0 && pp.failed)
		errno = ENOMEM;
	deflateEnd(&pp.z);
	lt_pb_free(&pp.pb);
	lt_pb_free(&pp.locs);
	lt_pb_free(&pp.funcs);
	lt_map_free(&pp.func_map);
	lt_map_free(&pp.loc_map);
	lt_strtab_free(&pp.strs);
	free(pp.maps);
	free(pp.ids);
	free(pp.clean);
	return ret < 0 || ferror(out) ? -1 : 0;
}
