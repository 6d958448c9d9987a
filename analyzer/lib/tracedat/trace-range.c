// SPDX-License-Identifier: LGPL-2.1
/*
 * trace-range.c - one CPU's data cut into ranges read independently
 * (lt-trace.h), so that several threads can decode one busy CPU.
 *
 * A ring-buffer page carries its own base timestamp and missed-events
 * flag, and a compressed chunk holds whole pages: a cursor started at any
 * page (or chunk) reads exactly the records a sequential reader would from
 * there on.  A range is such a cursor with an end.  Plain data is cut by
 * arithmetic; compressed data by walking chunk headers (8 bytes a chunk),
 * one range at a time, so nothing grows with the length of the trace.  A
 * header that does not fit the file ends the cutting: the range holding
 * it fails on it when read, with the sequential reader's message.
 */
#include <stdlib.h>
#include <sys/mman.h>

#include "lt-thread.h"
#include "tracedat-local.h"

struct lt_trace_range {
	struct cpu_stream cs;
	struct cpu_stream *whole;	/* the CPU's stream, cut into ranges */
};

/*
 * A range is done with (reused for the next cut): drop the mapped file
 * pages of the CPU's ranges up to its end once they add up to
 * LT_RELEASE_STEP.  Ranges are done in their order (the merge's), so all
 * before it are done too; a compressed range holds some 60 KB of file,
 * and a release for each would be a TLB flush on every other CPU running
 * the process.
 */
static void range_release(struct lt_trace *t, struct lt_trace_range *r)
{
	struct cpu_stream *cs = &r->cs, *whole = r->whole;
	uint64_t end;

	/* plain data is read, not mapped: nothing to drop */
	if (!cs->released || t->comp == LT_COMP_NONE)
		return;
	end = cs->chunk_pos;	/* the first chunk not read */
	if (end > t->size)
		end = t->size;
	lt_trace_drop_mapped(t, &whole->range_released, cs->released, end,
			     LT_RELEASE_STEP);
}

/*
 * A cursor for the next range: @r (read to its end or not) when given,
 * keeping its chunk buffer.
 */
static struct lt_trace_range *range_new(struct lt_trace *t,
					struct cpu_stream *whole,
					struct lt_trace_range *r)
{
	unsigned char *zbuf = NULL;
	size_t zcap = 0;

	if (r) {
		range_release(t, r);
		zbuf = r->cs.zbuf;
		zcap = r->cs.zcap;
	} else {
		/* written at every record by the thread reading it */
		r = lt_thread_own_alloc(sizeof(*r));
		if (!r)
			return NULL;
	}
	lt_trace_stream_init(t, &r->cs, whole->cpu, whole->data_off, whole->data_size);
	r->whole = whole;
	r->cs.zbuf = zbuf;
	r->cs.zcap = zcap;
	return r;
}

static int cut_plain(struct lt_trace *t, struct cpu_stream *whole,
		     uint64_t bytes, struct lt_trace_range **out)
{
	struct lt_trace_range *r;
	uint64_t len;

	if (whole->cut_pos >= whole->data_size)
		return 0;
	len = (bytes + t->page_size - 1) / t->page_size * t->page_size;
	if (len > whole->data_size - whole->cut_pos)
		len = whole->data_size - whole->cut_pos;
	r = range_new(t, whole, *out);
	if (!r)
		return -1;
	r->cs.next_page = whole->cut_pos;
	r->cs.page_end = whole->cut_pos + len;
	whole->cut_pos += len;
	*out = r;
	return 1;
}

/*
 * Compressed data is read where it is mapped, and the cut touches it
 * first (a chunk header every 10-60 KB): one madvise() maps the next
 * LT_MAP_AHEAD of it rather than a fault every few chunks, each 5-20 us
 * in a VM, taken with the ranges' lock held.
 */
static void map_ahead(struct lt_trace *t, struct cpu_stream *whole,
		      uint64_t pos)
{
	uint64_t from, to;

	if (pos < whole->cut_mapped)
		return;
	from = pos & ~(t->sys_page - 1);
	to = from + LT_MAP_AHEAD;
	if (to > t->size)
		to = t->size;
	if (to > from)
		madvise((void *)(t->map + from), to - from, MADV_POPULATE_READ);
	whole->cut_mapped = to;
}

static int cut_chunks(struct lt_trace *t, struct cpu_stream *whole,
		      uint64_t bytes, struct lt_trace_range **out)
{
	struct lt_trace_range *r;
	uint64_t pos, got = 0;
	uint32_t n = 0, csize;

	if (!whole->cut_begun) {
		uint32_t count;

		whole->cut_begun = true;
		/*
		 * A count that cannot be right: one range reading the CPU
		 * from its start, which stops on it as lt_trace_next() would.
		 */
		if (whole->data_off + 4 > t->size ||
		    (count = get32(t->map + whole->data_off, t->swap)) >
		    (t->size - whole->data_off - 4) / 8) {
			whole->cut_end = true;
			r = range_new(t, whole, *out);
			if (!r)
				return -1;
			*out = r;
			return 1;
		}
		whole->cut_pos = whole->data_off + 4;
		whole->cut_chunks = count;
	}
	if (whole->cut_end || !whole->cut_chunks)
		return 0;
	pos = whole->cut_pos;
	while (whole->cut_chunks && got < bytes) {
		n++;
		whole->cut_chunks--;
		map_ahead(t, whole, pos);
		if (pos + 8 > t->size ||
		    (csize = get32(t->map + pos, t->swap)) > t->size - pos - 8) {
			whole->cut_end = true;	/* the range fails on it */
			break;
		}
		got += get32(t->map + pos + 4, t->swap);
		pos += 8 + (uint64_t)csize;
	}
	r = range_new(t, whole, *out);
	if (!r)
		return -1;
	r->cs.chunk_pos = whole->cut_pos;
	r->cs.chunks_left = n;
	r->cs.released = whole->cut_pos & ~(t->sys_page - 1);
	whole->cut_pos = pos;
	*out = r;
	return 1;
}

int lt_trace_range_cut(struct lt_trace *t, unsigned int s, uint64_t bytes,
		       struct lt_trace_range **range, bool *last)
{
	struct cpu_stream *whole;
	int ret;

	if (s >= t->nr_streams)
		return 0;
	whole = &t->streams[s];
	/* an empty range would never get the cut any further */
	if (!bytes)
		bytes = 1;
	if (t->comp == LT_COMP_NONE) {
		ret = cut_plain(t, whole, bytes, range);
		*last = whole->cut_pos >= whole->data_size;
	} else {
		ret = cut_chunks(t, whole, bytes, range);
		*last = whole->cut_end || !whole->cut_chunks;
	}
	return ret;
}

int lt_trace_range_next(struct lt_trace *t, struct lt_trace_range *r,
			struct lt_record *rec, struct lt_error *err)
{
	struct cpu_stream *cs = &r->cs;
	int ret;

	if (cs->failure_told)
		return 0;
	ret = cs->given ? stream_next(t, cs) : lt_trace_stream_fill(t, cs);
	if (ret < 0) {
		cs->failure_told = true;
		*err = cs->err;
		return -1;
	}
	if (!ret)
		return 0;
	cs->given = true;
	lt_trace_fill_record(t, cs, rec);
	return 1;
}

uint64_t lt_trace_range_done(const struct lt_trace_range *r)
{
	return r->cs.done;
}

void lt_trace_range_free(struct lt_trace *t, struct lt_trace_range *r)
{
	if (!r)
		return;
	lt_trace_stream_free(t, &r->cs);
	free(r);
}
