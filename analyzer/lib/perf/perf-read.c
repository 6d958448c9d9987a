// SPDX-License-Identifier: LGPL-2.1
/*
 * perf-read.c - lt_perf_next(): records read, queued and handed out.
 *
 * As perf_session__process_event() does: records perf writes (types 64
 * and up) are taken in when read; a data record without a time is handed
 * out at once; one with a time is queued, and FINISHED_ROUND hands out
 * the queue up to the time perf's rule allows (perf-order.c); the end
 * hands out the rest.  When the queue reaches its cap before a round
 * ends, its oldest records go out until it is half full: a record that
 * comes later with an earlier time is then handed out late, and counted.
 */
#include "perf-local.h"

/* the oldest queued record is looked for this often, in bytes read */
#define CHECK_STEP	(256u << 10)

static void release(struct lt_perf *p)
{
	uint64_t low = queue_low(&p->q);

	perf_release(p, low < p->pos ? low : p->pos);
}

/*
 * Whether the queue is at its cap (@half: half of it): in entries or
 * runs, and for a stream in the bytes its records keep in the window.
 */
static bool over_cap(struct lt_perf *p, bool half)
{
	uint64_t bytes = half ? p->queue_bytes / 2 : p->queue_bytes, low;

	if (queue_over(&p->q, half))
		return true;
	if (!p->stream)
		return false;
	low = queue_low(&p->q);
	return low != UINT64_MAX && p->pos - low > bytes;
}

static void note_peak(struct lt_perf *p)
{
	uint64_t bytes = queue_bytes(&p->q) + p->win_cap;

	p->stats.queue_peak = p->q.nr;
	if (bytes > p->stats.queue_peak_bytes)
		p->stats.queue_peak_bytes = bytes;
}

/* Hand out the rest of the queue, then the end. */
static void finish(struct lt_perf *p)
{
	if (queue_flush_to(&p->q, UINT64_MAX)) {
		/* no room to close the last run: what is queued is lost */
		p->state = ST_END;
		return;
	}
	p->state = ST_FLUSH;
	p->after = ST_END;
}

/* The data cannot be followed on: @err is set; the queue goes out next. */
static int broken(struct lt_perf *p)
{
	p->stats.damaged++;
	finish(p);
	return -1;
}

static int start_forced(struct lt_perf *p, struct lt_error *err)
{
	p->stats.forced_flushes++;
	if (queue_flush_to(&p->q, UINT64_MAX)) {
		perf_fail(p, err, LT_E_NOMEM, "out of memory for the reorder queue");
		return broken(p);
	}
	p->state = ST_FORCED;
	return 0;
}

/* The record at @off, of attr @a (NULL: to be looked up), handed out. */
static int hand_out(struct lt_perf *p, uint64_t off, struct perf_attr *a,
		    struct lt_perf_record *rec, struct lt_error *err)
{
	const unsigned char *r;
	uint16_t size;

	r = perf_bytes(p, err, off, PERF_REC_HEADER, "record");
	if (!r)
		return -1;
	size = pget16(r + 6, p->swap);
	r = perf_bytes(p, err, off, size, "record");
	if (!r || record_parse(p, r, off, a, rec, err) < 0) {
		p->stats.damaged++;
		return -1;
	}
	if (rec->ts) {
		if (rec->ts < p->last_out) {
			rec->late = true;
			p->stats.unordered++;
		} else {
			p->last_out = rec->ts;
		}
	}
	if (rec->kind == LT_PERF_SAMPLE) {
		p->stats.samples++;
		p->attrs[rec->attr->index]->pub.samples++;
	} else if (rec->kind == LT_PERF_LOST) {
		p->stats.lost_records++;
		if (rec->lost.samples)
			p->stats.lost_samples += rec->lost.count;
		else
			p->stats.lost_events += rec->lost.count;
	}
	return 1;
}

/* One record perf wrote: taken in; -1 after an error (told once). */
static int user(struct lt_perf *p, struct lt_error *err, uint32_t type,
		uint64_t off, uint32_t size)
{
	uint64_t extra;
	bool fatal;
	int ret;

	if (type == PERF_RECORD_FINISHED_ROUND) {
		p->stats.rounds++;
		/* up to the largest time queued when the last round ended */
		if (queue_flush_to(&p->q, p->q.next_flush)) {
			perf_fail(p, err, LT_E_NOMEM,
				  "out of memory for the reorder queue");
			return broken(p);
		}
		p->q.next_flush = p->q.max_ts;
		p->state = ST_FLUSH;
		p->after = ST_READ;
		return 0;
	}
	if (type == PERF_RECORD_FINISHED_INIT)
		return 0;
	ret = user_record(p, err, type, off, size, &extra, &fatal);
	if (ret < 0 && fatal)
		return broken(p);
	if (extra) {
		if (!p->stream && extra > p->end - off - size) {
			perf_fail_at(p, err, LT_E_CORRUPT, "record", off,
				     "its %llu bytes of data run past the data section's end",
				     (unsigned long long)extra);
			return broken(p);
		}
		if (perf_skip(p, err, off + size, extra, queue_low(&p->q),
			      "record data"))
			return broken(p);
		p->pos = off + size + extra;
	}
	if (ret < 0)
		p->stats.damaged++;
	return ret;
}

int lt_perf_next(struct lt_perf *p, struct lt_perf_record *rec,
		 struct lt_error *err)
{
	const unsigned char *h;
	struct perf_attr *a;
	uint64_t ts, off, ref;
	uint32_t type;
	uint16_t size;
	int ret;

	for (;;) {
		if (p->state == ST_FORCED && !over_cap(p, true))
			p->state = ST_READ;
		if (p->state == ST_FLUSH || p->state == ST_FORCED) {
			if (queue_pop(&p->q, &ts, &ref)) {
				/*
				 * The next one out is likely the heap's top:
				 * its bytes were read a round ago, and are
				 * out of the caches by now.
				 */
				if (!p->stream && p->q.nr_runs)
					__builtin_prefetch(p->map +
							   Q_OFF(p->q.heap[0].ref));
				return hand_out(p, Q_OFF(ref),
						p->attrs[Q_ATTR(ref)], rec, err);
			}
			p->state = p->state == ST_FLUSH ? p->after : ST_READ;
			release(p);
			continue;
		}
		if (p->state == ST_END)
			return 0;

		if (p->pos >= p->next_check) {
			p->next_check = p->pos + CHECK_STEP;
			release(p);
			if (over_cap(p, false)) {
				if (start_forced(p, err))
					return -1;
				continue;
			}
		}
		ret = !p->stream ? p->pos < p->end : perf_more(p, err, p->pos);
		if (ret == 0) {
			finish(p);
			continue;
		}
		if (ret < 0)
			return broken(p);
		off = p->pos;
		h = perf_bytes(p, err, off, PERF_REC_HEADER, "record header");
		if (!h)
			return broken(p);
		type = pget32(h, p->swap);
		size = pget16(h + 6, p->swap);
		if (size < PERF_REC_HEADER) {
			perf_fail_at(p, err, LT_E_CORRUPT, "record", off,
				     "size %u (at least 8): the records cannot be followed on",
				     size);
			return broken(p);
		}
		if (!p->stream && size > p->end - off) {
			perf_fail_at(p, err, LT_E_CORRUPT, "record", off,
				     "%u bytes run past the data section's end (0x%llx)",
				     size, (unsigned long long)p->end);
			return broken(p);
		}
		p->pos = off + size;
		p->stats.records++;
		if (type >= PERF_RECORD_USER_START) {
			if (user(p, err, type, off, size) < 0)
				return -1;
			continue;
		}
		if (!record_wanted(type)) {
			if (type < PERF_RECORD_KERNEL_MAX)
				p->stats.skipped++;
			else
				p->stats.unknown++;
			continue;
		}
		h = perf_bytes(p, err, off, size, "record");
		if (!h)
			return broken(p);
		ts = record_time(p, h, type, size, &a);
		if (!ts) {
			p->stats.no_time++;
			return hand_out(p, off, a, rec, err);
		}
		/* offsets past 2^48 do not fit a queue entry: 256 TB */
		if (off >> 48) {
			perf_fail_at(p, err, LT_E_LIMIT, "record", off,
				     "past 256 TB of data");
			return broken(p);
		}
		ret = queue_add(&p->q, ts, Q_REF(off, a->pub.index));
		if (ret < 0) {
			perf_fail(p, err, LT_E_NOMEM,
				  "out of memory for the reorder queue");
			return broken(p);
		}
		if (ret == 0) {
			/* full: make room, then read this record again */
			p->pos = off;
			p->stats.records--;
			if (start_forced(p, err))
				return -1;
			continue;
		}
		if (p->q.nr > p->stats.queue_peak)
			note_peak(p);
	}
}
