// SPDX-License-Identifier: LGPL-2.1
/*
 * trace-page.c - one CPU's ring-buffer data, page by page.
 *
 * Page layout (kernel ring_buffer.c, libtraceevent kbuffer-parse.c):
 *   u64 timestamp; long commit (flags in bits 30/31); event data.
 * Each event starts with a u32 holding type_len (5 bits) and time_delta
 * (27 bits); which end holds type_len depends on the file's byte order.
 *
 * Plain data is read a window at a time, compressed data a chunk at a
 * time, into a buffer reused for the whole stream.  Nothing is
 * allocated per event.  Every read is checked against the page's commit,
 * and the commit against the page: a damaged page stops this CPU with an
 * error naming the CPU and offset; other CPUs are not affected.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "lt-bigmem.h"
#include "tracedat-local.h"

void lt_trace_stream_init(struct lt_trace *t, struct cpu_stream *cs, int cpu,
			  uint64_t off, uint64_t size)
{
	memset(cs, 0, sizeof(*cs));
	cs->cpu = cpu;
	cs->data_off = off;
	cs->data_size = size;
	cs->page_end = size;
	cs->state = CS_IDLE;
	(void)t;
}

void lt_trace_stream_free(struct lt_trace *t, struct cpu_stream *cs)
{
	/* kept for another stream: its bytes stay counted in t->zmem */
	pthread_mutex_lock(&t->zctx_lock);
	if (cs->zbuf && t->nr_zbuf_free < LT_ZCTX_KEEP) {
		t->zbuf_free[t->nr_zbuf_free] = cs->zbuf;
		t->zbuf_free_cap[t->nr_zbuf_free++] = cs->zcap;
		cs->zbuf = NULL;
		cs->zcap = 0;
	}
	pthread_mutex_unlock(&t->zctx_lock);
	__atomic_sub_fetch(&t->zmem, cs->zcap, __ATOMIC_RELAXED);
	cs->zcap = 0;
	free(cs->zbuf);
	cs->zbuf = NULL;
}

void lt_trace_stream_free_kept(struct lt_trace *t)
{
	while (t->nr_zbuf_free) {
		t->nr_zbuf_free--;
		__atomic_sub_fetch(&t->zmem, t->zbuf_free_cap[t->nr_zbuf_free],
				   __ATOMIC_RELAXED);
		free(t->zbuf_free[t->nr_zbuf_free]);
	}
}

static int stream_fail(struct lt_trace *t, struct cpu_stream *cs,
		       enum lt_errcode code, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static int stream_fail(struct lt_trace *t, struct cpu_stream *cs,
		       enum lt_errcode code, const char *fmt, ...)
{
	char msg[LT_ERROR_MSG_MAX];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	lt_error_set(&cs->err, code, "%s: CPU %d data: %s", t->path, cs->cpu,
		     msg);
	cs->state = CS_FAILED;
	return -1;
}

/* "page at offset 0x..." or, in compressed data, where in which chunk. */
static const char *page_where(struct lt_trace *t, struct cpu_stream *cs,
			      char *buf, size_t size)
{
	if (t->comp == LT_COMP_NONE)
		snprintf(buf, size, "page at offset 0x%llx",
			 (unsigned long long)cs->page_off);
	else
		snprintf(buf, size,
			 "page at uncompressed offset 0x%llx of the chunk at offset 0x%llx",
			 (unsigned long long)cs->page_off,
			 (unsigned long long)cs->chunk_off);
	return buf;
}

static inline uint64_t read_long(const struct lt_trace *t,
				 const unsigned char *p)
{
	return t->commit_size == 8 ? get64(p, t->swap) : get32(p, t->swap);
}

int lt_trace_page_load(struct lt_trace *t, struct cpu_stream *cs,
		       const unsigned char *page, size_t avail, uint64_t where)
{
	uint64_t flags, commit, room;
	char w[128];

	cs->page_off = where;
	cs->page = page;
	cs->commit = 0;
	cs->cur = 0;
	if (avail < t->data_off)
		return stream_fail(t, cs, LT_E_TRUNCATED,
				   "%s has only %zu bytes, not even a page header",
				   page_where(t, cs, w, sizeof(w)), avail);
	flags = read_long(t, page + 8);
	commit = flags & RB_COMMIT_MASK;
	room = avail - t->data_off;
	if (commit > room && avail < t->page_size)
		return stream_fail(t, cs, LT_E_TRUNCATED,
				   "%s is cut short: it holds %llu bytes of events, only %llu are there",
				   page_where(t, cs, w, sizeof(w)),
				   (unsigned long long)commit,
				   (unsigned long long)room);
	if (commit > room)
		return stream_fail(t, cs, LT_E_CORRUPT,
				   "%s has commit %llu > page size %llu",
				   page_where(t, cs, w, sizeof(w)),
				   (unsigned long long)commit,
				   (unsigned long long)room);
	if (flags & RB_MISSED_EVENTS) {
		int64_t lost = -1;

		if (flags & RB_MISSED_STORED) {
			/* The kernel stores the count after the data if it fits. */
			if (room - commit < t->commit_size)
				return stream_fail(t, cs, LT_E_CORRUPT,
						   "%s says a missed-events count follows the data, but there is no room for it",
						   page_where(t, cs, w, sizeof(w)));
			lost = read_long(t, page + t->data_off + commit);
		}
		if (!cs->lost_pending)
			cs->lost = lost;
		else if (cs->lost >= 0)
			cs->lost = lost < 0 ? -1 : cs->lost + lost;
		cs->lost_pending = true;
	}
	cs->ts = get64(page, t->swap);
	cs->ev = page + t->data_off;
	cs->commit = commit;
	return 0;
}

void lt_trace_drop_mapped(struct lt_trace *t, uint64_t *released, uint64_t start,
			  uint64_t end, uint64_t step)
{
	uint64_t to = end & ~(t->sys_page - 1);

	if (!*released)
		*released = start & ~(t->sys_page - 1);
	if (to <= *released || to - *released < step)
		return;
	madvise((void *)(t->map + *released), to - *released, MADV_DONTNEED);
	*released = to;
}

/* Drop the mapped pages this stream has read, every LT_RELEASE_STEP. */
static void release_behind(struct lt_trace *t, struct cpu_stream *cs,
			   uint64_t page)
{
	lt_trace_drop_mapped(t, &cs->released, cs->data_off, page, LT_RELEASE_STEP);
}

/*
 * cs->zbuf to hold @size bytes: 0, -1 over LT_MAX_CHUNK_MEM (zip bombs on
 * every CPU must not add up to all memory; CPUs may be read from several
 * threads, so the sum is kept atomically), -2 out of memory.
 */
static int zbuf_reserve(struct lt_trace *t, struct cpu_stream *cs,
			size_t size)
{
	unsigned char *nb;

	if (!cs->zbuf) {
		pthread_mutex_lock(&t->zctx_lock);
		if (t->nr_zbuf_free) {
			cs->zbuf = t->zbuf_free[--t->nr_zbuf_free];
			cs->zcap = t->zbuf_free_cap[t->nr_zbuf_free];
		}
		pthread_mutex_unlock(&t->zctx_lock);
	}
	if (size <= cs->zcap)
		return 0;
	if (__atomic_add_fetch(&t->zmem, size - cs->zcap,
			       __ATOMIC_RELAXED) > LT_MAX_CHUNK_MEM) {
		__atomic_sub_fetch(&t->zmem, size - cs->zcap, __ATOMIC_RELAXED);
		return -1;
	}
	nb = realloc(cs->zbuf, size);
	if (!nb) {
		__atomic_sub_fetch(&t->zmem, size - cs->zcap, __ATOMIC_RELAXED);
		return -2;
	}
	lt_big_prefault(nb + cs->zcap, size - cs->zcap);
	cs->zbuf = nb;
	cs->zcap = size;
	return 0;
}

/*
 * The next chunk of compressed data into cs->zbuf: 1, 0 at end, -1.
 * Chunks are bounded by the file, not by the CPU data size in the BUFFER
 * option: trace-cmd 3.1 writes that size 4 bytes short (it leaves out the
 * chunk count), and libtracecmd never looks at it.
 */
static int next_chunk(struct lt_trace *t, struct cpu_stream *cs)
{
	uint32_t count, csize, usize;
	const unsigned char *p;
	int ret;

	if (!cs->chunk_pos) {
		/* First call: the chunk count. */
		if (cs->data_off + 4 > t->size)
			return stream_fail(t, cs, LT_E_TRUNCATED,
					   "the file ends before the chunk count at offset 0x%llx",
					   (unsigned long long)cs->data_off);
		count = get32(t->map + cs->data_off, t->swap);
		/* Each chunk takes at least its 8-byte header. */
		if (count > (t->size - cs->data_off - 4) / 8)
			return stream_fail(t, cs, LT_E_CORRUPT,
					   "%u chunks at offset 0x%llx cannot fit in the file",
					   count, (unsigned long long)cs->data_off);
		cs->chunks_left = count;
		cs->chunk_pos = cs->data_off + 4;
		cs->done += 4;
	}
	if (!cs->chunks_left)
		return 0;

	cs->chunk_off = cs->chunk_pos;
	/* compressed data too: what is decompressed need not stay resident */
	release_behind(t, cs, cs->chunk_pos);
	if (cs->chunk_pos + 8 > t->size)
		return stream_fail(t, cs, LT_E_TRUNCATED,
				   "the file ends inside the chunk header at offset 0x%llx",
				   (unsigned long long)cs->chunk_pos);
	p = t->map + cs->chunk_pos;
	csize = get32(p, t->swap);
	usize = get32(p + 4, t->swap);
	if (csize > t->size - cs->chunk_pos - 8)
		return stream_fail(t, cs, LT_E_TRUNCATED,
				   "chunk at offset 0x%llx of %u compressed bytes runs past the end of the file",
				   (unsigned long long)cs->chunk_pos, csize);
	if (usize == 0 || usize > LT_MAX_CHUNK_SIZE)
		return stream_fail(t, cs, usize ? LT_E_LIMIT : LT_E_CORRUPT,
				   "chunk at offset 0x%llx claims %u uncompressed bytes (limit %u)",
				   (unsigned long long)cs->chunk_pos, usize,
				   LT_MAX_CHUNK_SIZE);
	/* Chunks are all the same size but the last: grows once. */
	ret = zbuf_reserve(t, cs, usize);
	if (ret == -1)
		return stream_fail(t, cs, LT_E_LIMIT,
				   "chunk at offset 0x%llx: %u bytes would take chunk buffers over %llu MB",
				   (unsigned long long)cs->chunk_pos,
				   usize, LT_MAX_CHUNK_MEM >> 20);
	if (ret < 0)
		return stream_fail(t, cs, LT_E_NOMEM,
				   "out of memory for a chunk of %u bytes",
				   usize);
	ret = lt_trace_decomp_block(t, p + 8, csize, cs->zbuf, usize);
	if (ret == DECOMP_NOMEM)
		return stream_fail(t, cs, LT_E_NOMEM,
				   "out of memory decompressing a chunk of %u bytes",
				   usize);
	if (ret != DECOMP_OK)
		return stream_fail(t, cs, LT_E_CORRUPT,
				   "chunk at offset 0x%llx: %u compressed bytes do not decompress to %u",
				   (unsigned long long)cs->chunk_pos, csize,
				   usize);
	cs->zlen = usize;
	cs->zpos = 0;
	cs->chunk_pos += 8 + (uint64_t)csize;
	cs->chunks_left--;
	cs->done += 8 + (uint64_t)csize;
	return 1;
}

/*
 * Plain data: read the window of the file from @off (up to @end) into
 * cs->zbuf.  Read rather than mapped: each mapped page costs a page-table
 * entry to fill and, to keep the resident set small, one to flush, which
 * in a VM is most of reading the file; a window read lands in cache,
 * where the decoder then finds it.
 */
static int read_window(struct lt_trace *t, struct cpu_stream *cs,
		       uint64_t off, uint64_t end)
{
	size_t want = LT_READ_WINDOW > t->page_size ? LT_READ_WINDOW :
						       t->page_size;
	size_t got = 0;
	ssize_t n;
	int ret;

	ret = zbuf_reserve(t, cs, want);
	if (ret < 0)
		return stream_fail(t, cs, ret == -1 ? LT_E_LIMIT : LT_E_NOMEM,
				   "no memory for a read buffer of %zu bytes%s",
				   want, ret == -1 ?
				   " (over the limit for all CPUs)" : "");
	if (end > t->size)
		end = t->size;
	if (want > end - off)
		want = end - off;
	while (got < want) {
		n = pread(t->fd, cs->zbuf + got, want - got, off + got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return stream_fail(t, cs, n ? LT_E_IO : LT_E_TRUNCATED,
					   "cannot read offset 0x%llx: %s",
					   (unsigned long long)(off + got),
					   n ? strerror(errno) :
					   "the file has shrunk");
		got += (size_t)n;
	}
	cs->win_off = off;
	cs->win_len = got;
	return 0;
}

/* Load the next page of the stream: 1, 0 at end, -1 on damage. */
static int next_page(struct lt_trace *t, struct cpu_stream *cs)
{
	uint64_t end, off, avail;
	int ret;

	if (!cs->data_size)
		return 0;
	if (t->comp != LT_COMP_NONE) {
		while (cs->zpos >= cs->zlen) {
			ret = next_chunk(t, cs);
			if (ret <= 0)
				return ret;
		}
		avail = cs->zlen - cs->zpos;
		if (avail > t->page_size)
			avail = t->page_size;
		off = cs->zpos;
		cs->zpos += avail;
		return lt_trace_page_load(t, cs, cs->zbuf + off, avail, off) ? -1 : 1;
	}

	if (cs->next_page >= cs->page_end)
		return 0;
	off = cs->data_off + cs->next_page;
	end = cs->data_off + cs->data_size;
	if (off >= t->size)
		return stream_fail(t, cs, LT_E_TRUNCATED,
				   "the file ends at offset 0x%llx, %s its CPU data (0x%llx..0x%llx)",
				   (unsigned long long)t->size,
				   t->size <= cs->data_off ? "before" : "inside",
				   (unsigned long long)cs->data_off,
				   (unsigned long long)end);
	avail = end - off;
	if (avail > t->page_size)
		avail = t->page_size;
	if (avail > t->size - off)
		avail = t->size - off;
	cs->next_page += t->page_size;
	cs->done += avail;
	end = cs->data_off + cs->page_end;
	if ((off < cs->win_off || off + avail > cs->win_off + cs->win_len) &&
	    read_window(t, cs, off, end > off + avail ? end : off + avail) < 0)
		return -1;
	return lt_trace_page_load(t, cs, cs->zbuf + (off - cs->win_off), avail, off) ?
	       -1 : 1;
}

static inline uint64_t ts_convert(const struct lt_trace *t, uint64_t ts)
{
	/* libtracecmd's order: TSC to ns, then the file's offset. */
	if (t->tsc_mult)
		ts = (uint64_t)(((unsigned __int128)ts * t->tsc_mult) >>
				t->tsc_shift);
	return ts + t->ts_offset;
}

/* Decode the current page from cs->cur into the batch, until it is full. */
static void decode_page(struct lt_trace *t, struct cpu_stream *cs)
{
	const bool swap = t->swap, big = t->info.big_endian;
	const unsigned char *ev = cs->ev, *p, *data;
	uint32_t cur = cs->cur, commit = cs->commit;
	uint32_t hdr, type_len = 0, delta, left = 0, len;
	struct rb_rec *b = cs->batch;
	uint64_t ts = cs->ts, ext, cts;
	unsigned int n = 0;
	char w[128];

	/* One slot spare: a loss record goes in front of its event. */
	while (cur < commit && n < STREAM_BATCH - 1) {
		p = ev + cur;
		left = commit - cur;
		if (left < 4)
			goto bad_event;
		hdr = get32(p, swap);
		if (big) {
			type_len = hdr >> 27;
			delta = hdr & ((1u << 27) - 1);
		} else {
			type_len = hdr & 31;
			delta = hdr >> 5;
		}
		switch (type_len) {
		case RB_TYPE_PADDING:
			/* Delta 0: the rest of the page is empty. */
			if (!delta) {
				cur = commit;
				continue;
			}
			/* A discarded event; kbuffer counts its delta. */
			if (left < 8)
				goto bad_event;
			len = get32(p + 4, swap);
			if (len > left - 4)
				goto bad_event;
			ts += delta;
			cur += 4 + len;
			continue;
		case RB_TYPE_TIME_EXTEND:
			if (left < 8)
				goto bad_event;
			ext = (uint64_t)get32(p + 4, swap) << RB_TS_SHIFT;
			ts += ext + delta;
			cur += 8;
			continue;
		case RB_TYPE_TIME_STAMP:
			if (left < 8)
				goto bad_event;
			ext = (uint64_t)get32(p + 4, swap) << RB_TS_SHIFT;
			ts = (ext + delta) | (ts & RB_TS_MSB);
			cur += 8;
			continue;
		case 0:
			/* Length in array[0], counting array[0] itself. */
			if (left < 8)
				goto bad_event;
			len = get32(p + 4, swap);
			if (len < 4 || (((uint64_t)len - 4 + 3) & ~3ULL) > left - 8)
				goto bad_event;
			len = (len - 4 + 3) & ~3u;
			data = p + 8;
			cur += 8 + len;
			break;
		default:
			len = type_len * 4;
			if (len > left - 4)
				goto bad_event;
			data = p + 4;
			cur += 4 + len;
			break;
		}
		ts += delta;
		cts = ts_convert(t, ts);
		if (cs->lost_pending) {
			/* The loss comes first, at the time of this event. */
			cs->lost_pending = false;
			b[n].ts = cts;
			b[n].data = NULL;
			b[n].size = 0;
			b[n].lost = true;
			b[n].nlost = cs->lost;
			n++;
		}
		b[n].ts = cts;
		b[n].data = data;
		b[n].size = len;
		b[n].lost = false;
		n++;
	}
	cs->cur = cur;
	cs->ts = ts;
	cs->bn = n;
	return;

bad_event:
	cs->cur = cur;
	cs->ts = ts;
	cs->bn = n;
	stream_fail(t, cs, LT_E_CORRUPT,
		    "%s: event at data offset %u (type_len %u) runs past the commit (%u bytes)",
		    page_where(t, cs, w, sizeof(w)), cur,
		    left >= 4 ? type_len : 0, commit);
}

int lt_trace_stream_fill(struct lt_trace *t, struct cpu_stream *cs)
{
	struct rb_rec *b = cs->batch;
	int ret;

	cs->bi = 0;
	cs->bn = 0;
	for (;;) {
		if (cs->state == CS_FAILED)
			return -1;
		if (cs->state == CS_DONE)
			return 0;
		if (cs->cur >= cs->commit) {
			ret = next_page(t, cs);
			if (ret < 0)
				return -1;
			if (ret == 0) {
				cs->state = CS_DONE;
				if (!cs->lost_pending)
					return 0;
				/* Events lost after the last one we have. */
				cs->lost_pending = false;
				b[0].ts = ts_convert(t, cs->ts);
				b[0].data = NULL;
				b[0].size = 0;
				b[0].lost = true;
				b[0].nlost = cs->lost;
				cs->bn = 1;
				return 1;
			}
		}
		decode_page(t, cs);
		if (cs->bn) {
			/* Damage after these records is reported next time. */
			if (cs->state != CS_FAILED)
				cs->state = CS_ACTIVE;
			return 1;
		}
	}
}

/* ---- pages handed in one at a time (live readers) --------------------- */

struct lt_trace_pages {
	struct lt_trace *t;
	struct cpu_stream cs;
	uint64_t where;		/* bytes of pages loaded before: "offsets" */
	bool loaded;
};

int lt_trace_pages_new(struct lt_trace *t, int cpu,
		       struct lt_trace_pages **out, struct lt_error *err)
{
	struct lt_trace_pages *p = calloc(1, sizeof(*p));

	*out = NULL;
	if (!p) {
		lt_error_set(err, LT_E_NOMEM, "%s: out of memory", t->path);
		return -1;
	}
	p->t = t;
	lt_trace_stream_init(t, &p->cs, cpu, 0, 0);
	*out = p;
	return 0;
}

void lt_trace_pages_free(struct lt_trace_pages *p)
{
	free(p);
}

int lt_trace_pages_load(struct lt_trace_pages *p, const void *page,
			size_t len, struct lt_error *err)
{
	struct cpu_stream *cs = &p->cs;

	/* a loss flagged on a page of no records waits for the next one's */
	cs->state = CS_ACTIVE;
	cs->bi = cs->bn = 0;
	cs->given = false;
	if (lt_trace_page_load(p->t, cs, page, len, p->where) < 0) {
		*err = cs->err;
		cs->state = CS_IDLE;
		p->loaded = false;
		return -1;
	}
	p->where += len;
	p->loaded = true;
	return 0;
}

int lt_trace_pages_next(struct lt_trace_pages *p, struct lt_record *rec,
			struct lt_error *err)
{
	struct cpu_stream *cs = &p->cs;

	if (!p->loaded)
		return 0;
	if (cs->given && cs->bi + 1 < cs->bn) {
		cs->bi++;
	} else {
		cs->bi = cs->bn = 0;
		if (cs->cur < cs->commit)
			decode_page(p->t, cs);
		if (cs->state == CS_FAILED && !cs->bn) {
			*err = cs->err;
			p->loaded = false;
			cs->state = CS_IDLE;
			return -1;
		}
		if (!cs->bn && cs->lost_pending) {
			/* a page of no records said events were lost: now */
			cs->lost_pending = false;
			cs->batch[0].ts = ts_convert(p->t, cs->ts);
			cs->batch[0].data = NULL;
			cs->batch[0].size = 0;
			cs->batch[0].lost = true;
			cs->batch[0].nlost = cs->lost;
			cs->bn = 1;
		}
		if (!cs->bn) {
			p->loaded = false;
			return 0;
		}
	}
	cs->given = true;
	lt_trace_fill_record(p->t, cs, rec);
	return 1;
}
