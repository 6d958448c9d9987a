// SPDX-License-Identifier: LGPL-2.1
/*
 * perf-sample.c - data records (SAMPLE, COMM, FORK, EXIT, MMAP, MMAP2,
 * LOST, LOST_SAMPLES, CGROUP) into struct lt_perf_record.
 *
 * A SAMPLE's fields follow its attr's sample_type in the order of
 * include/uapi/linux/perf_event.h; those up to RAW are read, and after
 * them the cgroup id when only fields of fixed size come between (branch
 * stacks, registers, user stacks and AUX data are of no use here: with
 * one of them the cgroup id is not looked for).
 * Other records end with the sample_id_all trailer when their attr has
 * it: the task, the time, the id and the CPU.  Each field is checked to
 * lie inside the record before it is read.
 */
#include <stdio.h>

#include "perf-local.h"

static const char *const names[] = {
	[PERF_RECORD_MMAP]		= "MMAP record",
	[PERF_RECORD_LOST]		= "LOST record",
	[PERF_RECORD_COMM]		= "COMM record",
	[PERF_RECORD_EXIT]		= "EXIT record",
	[PERF_RECORD_FORK]		= "FORK record",
	[PERF_RECORD_SAMPLE]		= "SAMPLE record",
	[PERF_RECORD_MMAP2]		= "MMAP2 record",
	[PERF_RECORD_LOST_SAMPLES]	= "LOST_SAMPLES record",
	[PERF_RECORD_CGROUP]		= "CGROUP record",
};

static const char *name_of(uint32_t type)
{
	return type < sizeof(names) / sizeof(names[0]) && names[type] ?
	       names[type] : "record";
}

static inline bool bit(uint64_t v, uint64_t b)
{
	return (v & b) != 0;
}

uint64_t lt_perf_record_time(struct lt_perf *p, const unsigned char *r,
			     uint32_t type, uint32_t size, struct perf_attr **attr)
{
	const struct perf_attr *a = *attr = attr_of(p, r, type, size);
	uint64_t ts;

	if (!a)
		return 0;
	if (type == PERF_RECORD_SAMPLE) {
		if (a->time_off < 0 || (uint32_t)a->time_off + 8 > size)
			return 0;
		ts = pget64(r + a->time_off, p->swap);
	} else {
		if (!a->trailer || a->tr_time < 0 ||
		    a->trailer + PERF_REC_HEADER > size)
			return 0;
		ts = pget64(r + size - a->trailer + a->tr_time, p->swap);
	}
	/* perf hands out at once what has no time: 0 or all ones */
	return ts == UINT64_MAX ? 0 : ts;
}

/* A CPU number from the file, or -1 with @err when out of range. */
static int cpu_of(struct lt_perf *p, struct lt_error *err, uint32_t cpu,
		  uint32_t type, uint64_t off)
{
	if (cpu < LT_TRACE_CPU_LIMIT)
		return (int)cpu;
	lt_perf_fail_at(p, err, LT_E_CORRUPT, name_of(type), off,
			"CPU %u, over the limit of %u", cpu, LT_TRACE_CPU_LIMIT);
	return -1;
}

static int short_record(struct lt_perf *p, struct lt_error *err,
			uint32_t type, uint64_t off, uint32_t size,
			const char *item, uint64_t at)
{
	return lt_perf_fail_at(p, err, LT_E_CORRUPT, name_of(type), off,
			       "%s at byte %llu runs past its end (%u bytes)",
			       item, (unsigned long long)at, size);
}

static bool known_context(uint64_t v)
{
	return v == PERF_CONTEXT_HV || v == PERF_CONTEXT_KERNEL ||
	       v == PERF_CONTEXT_USER || v == PERF_CONTEXT_USER_DEFERRED ||
	       v == PERF_CONTEXT_GUEST || v == PERF_CONTEXT_GUEST_KERNEL ||
	       v == PERF_CONTEXT_GUEST_USER;
}

/*
 * The @n frames at @ips, of a callchain, onto @to (NULL: only counted).
 * Kept apart for each byte order so that neither tests it per frame.
 */
static inline __attribute__((always_inline)) void
frames_copy(uint64_t *to, const unsigned char *ips, uint64_t n, bool swap)
{
	uint64_t i;

	if (!swap) {
		memcpy(to, ips, 8 * n);
		return;
	}
	for (i = 0; i < n; i++)
		to[i] = pget64(ips + 8 * i, true);
}

/*
 * The callchain's frames by context (kernel, user; the rest counted),
 * innermost first, into p->frames and p->uframes, a run of one context
 * at a time: frames up to the next context marker are copied whole.  A
 * marker no kernel writes (the user stack walk ended in -1, seen here)
 * makes it corrupt for perf, which then drops it whole: so do we.
 */
static inline __attribute__((always_inline)) void
split_frames(struct lt_perf *p, const unsigned char *ips, uint64_t nr,
	     uint16_t misc, struct lt_perf_record *rec, bool swap)
{
	unsigned int mode = misc & PERF_RECORD_MISC_CPUMODE_MASK;
	uint64_t *kf = p->frames, *uf = p->uframes, *to;
	uint64_t nk = 0, nu = 0, no = 0, i = 0, j, v;

	/* frames of another context (guest, hypervisor) are only counted */
	to = mode == PERF_RECORD_MISC_KERNEL ? kf :
	     mode == PERF_RECORD_MISC_USER ? uf : NULL;
	while (i < nr) {
		v = pget64(ips + 8 * i, swap);
		if (v >= PERF_CONTEXT_MAX) {
			if (!known_context(v))
				goto bad;	/* perf: "corrupted. Discard all." */
			to = v == PERF_CONTEXT_KERNEL ? kf :
			     v == PERF_CONTEXT_USER ? uf : NULL;
			/* a deferred user stack: a cookie follows */
			i += v == PERF_CONTEXT_USER_DEFERRED ? 2 : 1;
			continue;
		}
		for (j = i + 1; j < nr && pget64(ips + 8 * j, swap) <
				    PERF_CONTEXT_MAX; j++)
			;
		if (to == kf) {
			frames_copy(kf + nk, ips + 8 * i, j - i, swap);
			nk += j - i;
		} else if (to == uf) {
			frames_copy(uf + nu, ips + 8 * i, j - i, swap);
			nu += j - i;
		} else {
			no += j - i;
		}
		i = j;
	}
	rec->sample.kernel_frames = kf;
	rec->sample.nr_kernel_frames = (uint32_t)nk;
	rec->sample.user_frames = uf;
	rec->sample.nr_user_frames = (uint32_t)nu;
	rec->sample.nr_other_frames = (uint32_t)no;
	return;
bad:
	rec->sample.kernel_frames = rec->sample.user_frames = p->frames;
	rec->sample.nr_kernel_frames = rec->sample.nr_user_frames = 0;
	rec->sample.nr_other_frames = 0;
	rec->sample.bad_callchain = true;
	p->stats.bad_callchains++;
}

static void split_callchain(struct lt_perf *p, const unsigned char *ips,
			    uint64_t nr, uint16_t misc,
			    struct lt_perf_record *rec)
{
	if (p->swap)
		split_frames(p, ips, nr, misc, rec, true);
	else
		split_frames(p, ips, nr, misc, rec, false);
}

static int parse_sample(struct lt_perf *p, struct lt_error *err,
			const unsigned char *r, uint32_t size, uint64_t off,
			const struct perf_attr *a, struct lt_perf_record *rec)
{
	uint64_t st = a->pub.sample_type, rf = a->pub.read_format;
	uint64_t c = PERF_REC_HEADER, nr, each, head;
	struct lt_record *raw = &rec->sample.raw;
	uint32_t rsize, cpu;

#define NEED(n, item)							\
	do {								\
		if (c + (n) > size)					\
			return short_record(p, err, PERF_RECORD_SAMPLE,	\
					    off, size, item, c);	\
	} while (0)

	rec->kind = LT_PERF_SAMPLE;
	/*
	 * Field by field: memset() of the 112 bytes became "rep stos", whose
	 * start-up was most of what clearing them cost, per sample.
	 */
	raw->kind = LT_REC_EVENT;
	raw->cpu = 0;
	raw->ts = 0;
	raw->id = 0;
	raw->type = NULL;
	raw->data = NULL;
	raw->size = 0;
	raw->lost = 0;
	rec->sample.ip = rec->sample.addr = rec->sample.period = 0;
	rec->sample.id = rec->sample.cgroup = 0;
	rec->sample.kernel_frames = rec->sample.user_frames = NULL;
	rec->sample.nr_kernel_frames = rec->sample.nr_user_frames = 0;
	rec->sample.nr_other_frames = 0;
	rec->sample.callchain = rec->sample.bad_callchain = false;
	if (size >= a->fixed_end) {
		/* the fixed fields all there: read from their places */
		if (a->id_off >= 0)
			rec->sample.id = pget64(r + a->id_off, p->swap);
		if (a->ip_off >= 0)
			rec->sample.ip = pget64(r + a->ip_off, p->swap);
		if (a->tid_off >= 0) {
			rec->pid = (int32_t)pget32(r + a->tid_off, p->swap);
			rec->tid = (int32_t)pget32(r + a->tid_off + 4, p->swap);
		}
		if (a->time_off >= 0) {
			rec->ts = pget64(r + a->time_off, p->swap);
			if (rec->ts == UINT64_MAX)
				rec->ts = 0;
		}
		if (a->addr_off >= 0)
			rec->sample.addr = pget64(r + a->addr_off, p->swap);
		if (a->cpu_off >= 0) {
			cpu = pget32(r + a->cpu_off, p->swap);
			rec->cpu = cpu_of(p, err, cpu, PERF_RECORD_SAMPLE, off);
			if (rec->cpu < 0)
				return -1;
		}
		if (a->period_off >= 0)
			rec->sample.period = pget64(r + a->period_off, p->swap);
		c = a->fixed_end;
		goto variable;
	}
	/* one by one, to say which does not fit */
	if (st & PERF_SAMPLE_IDENTIFIER) {
		NEED(8, "IDENTIFIER");
		rec->sample.id = pget64(r + c, p->swap);
		c += 8;
	}
	if (st & PERF_SAMPLE_IP) {
		NEED(8, "IP");
		rec->sample.ip = pget64(r + c, p->swap);
		c += 8;
	}
	if (st & PERF_SAMPLE_TID) {
		NEED(8, "TID");
		rec->pid = (int32_t)pget32(r + c, p->swap);
		rec->tid = (int32_t)pget32(r + c + 4, p->swap);
		c += 8;
	}
	if (st & PERF_SAMPLE_TIME) {
		NEED(8, "TIME");
		rec->ts = pget64(r + c, p->swap);
		if (rec->ts == UINT64_MAX)
			rec->ts = 0;
		c += 8;
	}
	if (st & PERF_SAMPLE_ADDR) {
		NEED(8, "ADDR");
		rec->sample.addr = pget64(r + c, p->swap);
		c += 8;
	}
	if (st & PERF_SAMPLE_ID) {
		NEED(8, "ID");
		rec->sample.id = pget64(r + c, p->swap);
		c += 8;
	}
	if (st & PERF_SAMPLE_STREAM_ID) {
		NEED(8, "STREAM_ID");
		c += 8;
	}
	if (st & PERF_SAMPLE_CPU) {
		NEED(8, "CPU");
		cpu = pget32(r + c, p->swap);
		rec->cpu = cpu_of(p, err, cpu, PERF_RECORD_SAMPLE, off);
		if (rec->cpu < 0)
			return -1;
		c += 8;
	}
	if (st & PERF_SAMPLE_PERIOD) {
		NEED(8, "PERIOD");
		rec->sample.period = pget64(r + c, p->swap);
		c += 8;
	}
variable:
	if (st & PERF_SAMPLE_READ) {
		each = 8 * (1 + bit(rf, PERF_FORMAT_ID) +
			    bit(rf, PERF_FORMAT_LOST));
		head = 8 * (bit(rf, PERF_FORMAT_TOTAL_TIME_ENABLED) +
			    bit(rf, PERF_FORMAT_TOTAL_TIME_RUNNING));
		if (rf & PERF_FORMAT_GROUP) {
			NEED(8 + head, "READ");
			nr = pget64(r + c, p->swap);
			c += 8 + head;
			if (nr > (size - c) / each)
				return short_record(p, err, PERF_RECORD_SAMPLE,
						    off, size, "READ group", c);
			c += nr * each;
		} else {
			NEED(head + each, "READ");
			c += head + each;
		}
	}
	if (st & PERF_SAMPLE_CALLCHAIN) {
		NEED(8, "CALLCHAIN");
		nr = pget64(r + c, p->swap);
		c += 8;
		if (nr > (size - c) / 8)
			return short_record(p, err, PERF_RECORD_SAMPLE, off,
					    size, "CALLCHAIN", c);
		rec->sample.callchain = true;
		/* a record of 64 KB holds fewer than LT_PERF_MAX_FRAMES */
		split_callchain(p, r + c, nr, rec->misc, rec);
		c += 8 * nr;
	}
	raw->kind = LT_REC_EVENT;
	raw->cpu = rec->cpu;
	raw->ts = rec->ts;
	if (st & PERF_SAMPLE_RAW) {
		NEED(4, "RAW size");
		rsize = pget32(r + c, p->swap);
		c += 4;
		NEED(rsize, "RAW data");
		raw->data = r + c;
		raw->size = rsize;
		/* the payload is in the recording machine's order too */
		if (a->pub.tp && a->type_off + a->type_size <= rsize) {
			const unsigned char *t = raw->data + a->type_off;

			raw->id = a->type_size == 1 ? t[0] :
				  a->type_size == 2 ? pget16(t, p->swap) :
				  (uint16_t)pget32(t, p->swap);
			/* its own event's, but for damage */
			raw->type = raw->id == a->pub.config ? a->pub.tp :
				    lt_trace_event_by_id(p->trace, raw->id);
		}
		c += rsize;
	}
	if ((st & PERF_SAMPLE_CGROUP) &&
	    !(st & (PERF_SAMPLE_BRANCH_STACK | PERF_SAMPLE_REGS_USER |
		    PERF_SAMPLE_STACK_USER | PERF_SAMPLE_REGS_INTR |
		    PERF_SAMPLE_AUX))) {
		/* u64 each, in this order, before the cgroup's */
		c += 8 * (bit(st, PERF_SAMPLE_WEIGHT | PERF_SAMPLE_WEIGHT_STRUCT) +
			  bit(st, PERF_SAMPLE_DATA_SRC) +
			  bit(st, PERF_SAMPLE_TRANSACTION) +
			  bit(st, PERF_SAMPLE_PHYS_ADDR));
		NEED(8, "CGROUP");
		rec->sample.cgroup = pget64(r + c, p->swap);
	}
#undef NEED
	return 1;
}

/*
 * The sample_id_all trailer of a non-SAMPLE record, into @rec's task,
 * time and CPU; *@body_end is where it starts.
 */
static int parse_trailer(struct lt_perf *p, struct lt_error *err,
			 const unsigned char *r, uint32_t type, uint32_t size,
			 uint64_t off, const struct perf_attr *a,
			 uint32_t *body_end, struct lt_perf_record *rec,
			 uint64_t *id)
{
	const unsigned char *t;
	uint64_t ts;

	*body_end = size;
	*id = 0;
	if (!a->trailer)
		return 0;
	if (a->trailer > size - PERF_REC_HEADER)
		return lt_perf_fail_at(p, err, LT_E_CORRUPT, name_of(type), off,
				       "%u bytes cannot hold its sample_id trailer of %u",
				       size, a->trailer);
	*body_end = size - a->trailer;
	t = r + *body_end;
	if (a->tr_tid >= 0) {
		rec->pid = (int32_t)pget32(t + a->tr_tid, p->swap);
		rec->tid = (int32_t)pget32(t + a->tr_tid + 4, p->swap);
	}
	if (a->tr_time >= 0) {
		ts = pget64(t + a->tr_time, p->swap);
		rec->ts = ts == UINT64_MAX ? 0 : ts;
	}
	if (a->tr_cpu >= 0) {
		rec->cpu = cpu_of(p, err, pget32(t + a->tr_cpu, p->swap),
				  type, off);
		if (rec->cpu < 0)
			return -1;
	}
	if (a->tr_id >= 0)
		*id = pget64(t + a->tr_id, p->swap);
	return 0;
}

int lt_perf_record_parse(struct lt_perf *p, const unsigned char *r, uint64_t off,
			 struct perf_attr *a, struct lt_perf_record *rec,
			 struct lt_error *err)
{
	uint32_t type = pget32(r, p->swap);
	uint32_t size = pget16(r + 6, p->swap), end;
	const struct id_ent *e;
	const char *s;
	uint64_t id;

	rec->type = type;
	rec->misc = pget16(r + 4, p->swap);
	rec->cpu = -1;
	rec->ts = 0;
	rec->pid = rec->tid = -1;
	rec->late = false;
	rec->offset = off;
	if (!a)
		a = attr_of(p, r, type, size);
	if (!a)
		return lt_perf_fail_at(p, err, LT_E_CORRUPT, name_of(type), off,
				       "its event id is none of the file's events");
	rec->attr = &a->pub;
	if (type == PERF_RECORD_SAMPLE)
		return parse_sample(p, err, r, size, off, a, rec);

	if (parse_trailer(p, err, r, type, size, off, a, &end, rec, &id))
		return -1;

#define NEED(n, item)							\
	do {								\
		if ((n) > end)						\
			return short_record(p, err, type, off, end, item, \
					    PERF_REC_HEADER);		\
	} while (0)

	switch (type) {
	case PERF_RECORD_COMM:
		NEED(16, "pid, tid");
		rec->kind = LT_PERF_COMM;
		rec->pid = (int32_t)pget32(r + 8, p->swap);
		rec->tid = (int32_t)pget32(r + 12, p->swap);
		s = (const char *)r + 16;
		rec->comm.comm = s;
		rec->comm.len = strnlen(s, end - 16);
		rec->comm.exec = rec->misc & PERF_RECORD_MISC_COMM_EXEC;
		return 1;
	case PERF_RECORD_FORK:
	case PERF_RECORD_EXIT:
		NEED(32, "pid, ppid, tid, ptid, time");
		rec->kind = type == PERF_RECORD_FORK ? LT_PERF_FORK :
			    LT_PERF_EXIT;
		rec->pid = (int32_t)pget32(r + 8, p->swap);
		rec->task.ppid = (int32_t)pget32(r + 12, p->swap);
		rec->tid = (int32_t)pget32(r + 16, p->swap);
		rec->task.ptid = (int32_t)pget32(r + 20, p->swap);
		rec->task.time = pget64(r + 24, p->swap);
		return 1;
	case PERF_RECORD_MMAP:
	case PERF_RECORD_MMAP2:
		memset(&rec->mmap, 0, sizeof(rec->mmap));
		rec->kind = LT_PERF_MMAP;
		NEED(type == PERF_RECORD_MMAP ? 40 : 72, "mapping");
		rec->pid = (int32_t)pget32(r + 8, p->swap);
		rec->tid = (int32_t)pget32(r + 12, p->swap);
		rec->mmap.addr = pget64(r + 16, p->swap);
		rec->mmap.len = pget64(r + 24, p->swap);
		rec->mmap.pgoff = pget64(r + 32, p->swap);
		s = (const char *)r + (type == PERF_RECORD_MMAP ? 40 : 72);
		rec->mmap.filename = s;
		rec->mmap.filename_len = strnlen(s, end - (s - (const char *)r));
		if (type == PERF_RECORD_MMAP)
			return 1;
		rec->mmap.mmap2 = true;
		if (rec->misc & PERF_RECORD_MISC_MMAP_BUILD_ID) {
			rec->mmap.has_build_id = true;
			rec->mmap.build_id_size = r[40];
			if (rec->mmap.build_id_size > 20)
				return lt_perf_fail_at(p, err, LT_E_CORRUPT,
						       name_of(type), off,
						       "build-id of %u bytes (at most 20)",
						       r[40]);
			rec->mmap.build_id = r + 44;
		} else {
			rec->mmap.maj = pget32(r + 40, p->swap);
			rec->mmap.min = pget32(r + 44, p->swap);
			rec->mmap.ino = pget64(r + 48, p->swap);
			rec->mmap.ino_generation = pget64(r + 56, p->swap);
		}
		rec->mmap.prot = pget32(r + 64, p->swap);
		rec->mmap.flags = pget32(r + 68, p->swap);
		return 1;
	case PERF_RECORD_LOST:
		NEED(24, "id, count");
		rec->kind = LT_PERF_LOST;
		rec->lost.samples = false;
		rec->lost.id = pget64(r + 8, p->swap);
		rec->lost.count = pget64(r + 16, p->swap);
		/* without a CPU in the trailer, ID_INDEX may say whose */
		if (rec->cpu < 0 && (e = lt_perf_id_find(p, rec->lost.id)))
			rec->cpu = e->cpu;
		return 1;
	case PERF_RECORD_LOST_SAMPLES:
		NEED(16, "count");
		rec->kind = LT_PERF_LOST;
		rec->lost.samples = true;
		rec->lost.id = id;
		rec->lost.count = pget64(r + 8, p->swap);
		/*
		 * perf record writes these at the end, from each event's
		 * own count (read_format LOST): no time, no task, CPU 0;
		 * the id is the event on one CPU, which ID_INDEX names.
		 */
		if (!rec->ts) {
			e = lt_perf_id_find(p, id);
			rec->cpu = e ? e->cpu : -1;
			rec->pid = rec->tid = -1;
		}
		return 1;
	case PERF_RECORD_CGROUP:
		NEED(16, "id");
		rec->kind = LT_PERF_CGROUP;
		rec->cgroup.id = pget64(r + 8, p->swap);
		s = (const char *)r + 16;
		rec->cgroup.path = s;
		rec->cgroup.path_len = strnlen(s, end - 16);
		return 1;
	}
#undef NEED
	return lt_perf_fail_at(p, err, LT_E_INTERNAL, name_of(type), off,
			       "type %u is not handed out", type);
}
