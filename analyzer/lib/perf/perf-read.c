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

/*
 * Bytes before the oldest queued record of each space (the file or
 * stream, the decompressed data) are not needed any more.  Records are
 * queued in the order read, so the oldest queued is the oldest of its
 * space; of the other space, all are out when it has none queued.
 */
static void release(struct lt_perf *p)
{
	uint64_t low = lt_perf_queue_low(&p->q);

	if (!p->q_file)
		lt_perf_release(p, p->pos);
	else if (!(low & PERF_ZFLAG))
		lt_perf_release(p, low < p->pos ? low : p->pos);
	if (!p->q_zdata)
		p->zwin.keep = p->zpos;
	else if (low & PERF_ZFLAG)
		p->zwin.keep = low;
}

/*
 * Whether the queue is at its cap (@half: half of it): in entries or
 * runs, and in the bytes its records keep in a window (a stream's, the
 * decompressed data's).
 */
static bool over_cap(struct lt_perf *p, bool half)
{
	uint64_t bytes = half ? p->queue_bytes / 2 : p->queue_bytes, low;

	if (lt_perf_queue_over(&p->q, half))
		return true;
	if (!p->stream && !p->zctx)
		return false;
	low = lt_perf_queue_low(&p->q);
	if (low == UINT64_MAX)
		return false;
	if (low & PERF_ZFLAG)
		return p->zpos - low > bytes;
	return p->stream && p->pos - low > bytes;
}

static void note_peak(struct lt_perf *p)
{
	uint64_t bytes = lt_perf_queue_bytes(&p->q) + p->win.cap + p->zwin.cap;

	p->stats.queue_peak = p->q.nr;
	if (bytes > p->stats.queue_peak_bytes)
		p->stats.queue_peak_bytes = bytes;
}

/* Hand out the rest of the queue, then the end. */
static void finish(struct lt_perf *p)
{
	if (lt_perf_queue_flush_to(&p->q, UINT64_MAX)) {
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
	if (lt_perf_queue_flush_to(&p->q, UINT64_MAX)) {
		lt_perf_fail(p, err, LT_E_NOMEM, "out of memory for the reorder queue");
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
	/* whole in its chunk already (the usual case): the same bytes */
	if (!perf_in_chunk(p, off, size))
		r = perf_bytes(p, err, off, size, "record");
	if (!r || lt_perf_record_parse(p, r, off, a, rec, err) < 0) {
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

/*
 * One record perf wrote, at @off (*@cur: where the next one is): taken
 * in; -1 after an error (told once).
 */
static int user(struct lt_perf *p, struct lt_error *err, uint32_t type,
		uint64_t off, uint32_t size, uint64_t *cur)
{
	const unsigned char *r;
	uint64_t extra;
	size_t n;
	bool fatal;
	int ret;

	switch (type) {
	case PERF_RECORD_FINISHED_ROUND:
		p->stats.rounds++;
		/* up to the largest time queued when the last round ended */
		if (lt_perf_queue_flush_to(&p->q, p->q.next_flush)) {
			lt_perf_fail(p, err, LT_E_NOMEM,
				     "out of memory for the reorder queue");
			return broken(p);
		}
		p->q.next_flush = p->q.max_ts;
		p->state = ST_FLUSH;
		p->after = ST_READ;
		return 0;
	case PERF_RECORD_FINISHED_INIT:
		return 0;
	case PERF_RECORD_COMPRESSED:
	case PERF_RECORD_COMPRESSED2:
		/* records of perf record -z: its ring buffers, zstd'd */
		if (off & PERF_ZFLAG) {
			lt_perf_fail_at(p, err, LT_E_CORRUPT, "COMPRESSED record",
					off, "inside compressed data");
			return broken(p);
		}
		r = perf_bytes(p, err, off, size, "COMPRESSED record");
		if (!r)
			return broken(p);
		n = size - PERF_REC_HEADER;
		if (type == PERF_RECORD_COMPRESSED2) {
			/* the data's size, then the data padded to 8 */
			if (size < PERF_REC_HEADER + 8 ||
			    pget64(r + 8, p->swap) > (uint64_t)size - 16) {
				lt_perf_fail_at(p, err, LT_E_CORRUPT,
						"COMPRESSED2 record", off,
						"data size does not fit its %u bytes",
						size);
				return broken(p);
			}
			n = pget64(r + 8, p->swap);
			r += 8;
		}
		release(p);
		if (lt_perf_zdata_add(p, err, r + PERF_REC_HEADER, n, off))
			return broken(p);
		return 0;
	}
	ret = lt_perf_user_record(p, err, type, off, size, &extra, &fatal);
	if (ret < 0 && fatal)
		return broken(p);
	if (extra) {
		if ((off & PERF_ZFLAG) ||
		    (!p->stream && extra > p->end - off - size)) {
			lt_perf_fail_at(p, err, LT_E_CORRUPT, "record", off,
					"its %llu bytes of data run past the data section's end",
					(unsigned long long)extra);
			return broken(p);
		}
		if (lt_perf_skip(p, err, off + size, extra, lt_perf_queue_low(&p->q),
				 "record data"))
			return broken(p);
		*cur = off + size + extra;
	}
	if (ret < 0)
		p->stats.damaged++;
	return ret;
}

/*
 * The record at @off (*@cur already past it), of @type and @size: taken
 * in, queued, or handed out into @rec (1); 0 to read on; -1 on damage.
 */
static int take(struct lt_perf *p, uint64_t off, uint32_t type,
		uint16_t size, uint64_t *cur, struct lt_perf_record *rec,
		struct lt_error *err)
{
	const unsigned char *h;
	struct perf_attr *a;
	uint64_t ts;
	int ret;

	p->stats.records++;
	if (type >= PERF_RECORD_USER_START)
		return user(p, err, type, off, size, cur) < 0 ? -1 : 0;
	if (!record_wanted(type)) {
		if (type < PERF_RECORD_KERNEL_MAX)
			p->stats.skipped++;
		else
			p->stats.unknown++;
		return 0;
	}
	h = perf_bytes(p, err, off, size, "record");
	if (!h)
		return broken(p);
	ts = lt_perf_record_time(p, h, type, size, &a);
	if (!ts) {
		p->stats.no_time++;
		return hand_out(p, off, a, rec, err);
	}
	/* offsets past 2^47 do not fit a queue entry: 128 TB */
	if ((off & ~PERF_ZFLAG) >> 47) {
		lt_perf_fail_at(p, err, LT_E_LIMIT, "record", off,
				"past 128 TB of data");
		return broken(p);
	}
	ret = queue_add(&p->q, ts, Q_REF(off, a->pub.index));
	if (ret < 0) {
		lt_perf_fail(p, err, LT_E_NOMEM,
			     "out of memory for the reorder queue");
		return broken(p);
	}
	if (ret == 0) {
		/* full: make room, then read this record again */
		*cur = off;
		p->stats.records--;
		return start_forced(p, err);
	}
	if (off & PERF_ZFLAG) {
		p->q_zdata++;
	} else {
		p->q_file++;
		lt_perf_chunk_in(p, off);
	}
	if (p->q.nr > p->stats.queue_peak)
		note_peak(p);
	return 0;
}

/*
 * The next record of the data decompressed so far, into *@off, @type,
 * @size: 1, or 0 when none is there whole (more comes with the next
 * COMPRESSED record).
 */
static int zdata_next(struct lt_perf *p, uint64_t *off, uint32_t *type,
		      uint16_t *size)
{
	uint64_t end = p->zwin.base + p->zwin.len;
	const unsigned char *h;

	if (!p->zctx || end - p->zpos < PERF_REC_HEADER)
		return 0;
	h = p->zwin.buf + (p->zpos - p->zwin.base);
	*type = pget32(h, p->swap);
	*size = pget16(h + 6, p->swap);
	if (*size >= PERF_REC_HEADER && *size > end - p->zpos)
		return 0;
	*off = p->zpos;
	return 1;
}

int lt_perf_next(struct lt_perf *p, struct lt_perf_record *rec,
		 struct lt_error *err)
{
	const unsigned char *h;
	uint64_t ts, off, ref;
	uint32_t type;
	uint16_t size;
	int ret;

	/* the record handed out last is done with */
	if (p->ck.out_pending)
		lt_perf_chunk_out_done(p);
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
				if (p->q.nr_runs)
					perf_prefetch(p, Q_OFF(p->q.heap[0].ref));
				if (Q_OFF(ref) & PERF_ZFLAG) {
					p->q_zdata--;
				} else {
					p->q_file--;
					lt_perf_chunk_out(p, Q_OFF(ref));
				}
				return hand_out(p, Q_OFF(ref),
						p->attrs[Q_ATTR(ref)], rec, err);
			}
			p->state = p->state == ST_FLUSH ? p->after : ST_READ;
			release(p);
			continue;
		}
		if (p->state == ST_END) {
			/*
			 * the records handed out are done with: the chunks
			 * and the queue go (before the report is made)
			 */
			if (p->ck.on)
				lt_perf_chunks_free(p);
			lt_perf_queue_free(&p->q);
			return 0;
		}

		if (p->pos >= p->next_check) {
			p->next_check = p->pos + CHECK_STEP;
			release(p);
			if (over_cap(p, false)) {
				if (start_forced(p, err))
					return -1;
				continue;
			}
		}
		/* what was decompressed comes before the file's next record */
		if (zdata_next(p, &off, &type, &size)) {
			if (size < PERF_REC_HEADER) {
				lt_perf_fail_at(p, err, LT_E_CORRUPT, "record", off,
						"size %u (at least 8): the records cannot be followed on",
						size);
				return broken(p);
			}
			p->zpos = off + size;
			ret = take(p, off, type, size, &p->zpos, rec, err);
			if (ret)
				return ret;
			continue;
		}
		ret = !p->stream ? p->pos < p->end : lt_perf_more(p, err, p->pos);
		if (ret == 0) {
			if (p->zctx && p->zpos < p->zwin.base + p->zwin.len) {
				lt_perf_fail_at(p, err, LT_E_TRUNCATED, "record",
						p->zpos,
						"the compressed data ends inside it");
				p->zpos = p->zwin.base + p->zwin.len;
				return broken(p);
			}
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
			lt_perf_fail_at(p, err, LT_E_CORRUPT, "record", off,
					"size %u (at least 8): the records cannot be followed on",
					size);
			return broken(p);
		}
		if (!p->stream && size > p->end - off) {
			lt_perf_fail_at(p, err, LT_E_CORRUPT, "record", off,
					"%u bytes run past the data section's end (0x%llx)",
					size, (unsigned long long)p->end);
			return broken(p);
		}
		p->pos = off + size;
		ret = take(p, off, type, size, &p->pos, rec, err);
		if (ret)
			return ret;
	}
}
