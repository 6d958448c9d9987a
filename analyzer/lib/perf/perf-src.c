// SPDX-License-Identifier: LGPL-2.1
/*
 * perf-src.c - the bytes of a perf.data, and bounded reads of them.
 *
 * A regular file is mapped whole; the data section is faulted in a step
 * ahead of the reading (one madvise() instead of a fault per page, which
 * in a VM costs most of reading it) and dropped behind the oldest queued
 * record, so the resident set stays small on a huge file.
 *
 * A stream (pipe mode on a pipe) is read into a window that holds every
 * byte from the oldest record still queued to the last one read: records
 * are handed out later than read, and their bytes must still be there.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "lt-bigmem.h"
#include "perf-local.h"

#ifndef MADV_POPULATE_READ
#define MADV_POPULATE_READ	22
#endif

/* faulted in ahead, and dropped behind, in steps of this */
#define MAP_STEP	(1u << 20)
/* a stream is read this much at a time */
#define READ_CHUNK	(256u << 10)
/* one item (tracing data, a record and its AUX data) is at most this */
#define WIN_ITEM_MAX	(256u << 20)

/* ---- errors ---------------------------------------------------------- */

int lt_perf_fail(struct lt_perf *p, struct lt_error *err, enum lt_errcode code,
		 const char *fmt, ...)
{
	char msg[LT_ERROR_MSG_MAX];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	lt_error_set(err, code, "%s: %s", p->path, msg);
	return -1;
}

int lt_perf_fail_at(struct lt_perf *p, struct lt_error *err,
		    enum lt_errcode code, const char *what, uint64_t off,
		    const char *fmt, ...)
{
	char msg[LT_ERROR_MSG_MAX];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (off & PERF_ZFLAG)
		lt_error_set(err, code,
			     "%s: %s at offset 0x%llx of the data decompressed from the COMPRESSED records (the last at offset 0x%llx): %s",
			     p->path, what,
			     (unsigned long long)(off & ~PERF_ZFLAG),
			     (unsigned long long)p->zrec, msg);
	else
		lt_error_set(err, code, "%s: %s at offset 0x%llx: %s", p->path,
			     what, (unsigned long long)off, msg);
	return -1;
}

int lt_perf_cur_fail(struct lt_perf *p, struct lt_error *err, enum lt_errcode code,
		     const struct pcur *c, const char *fmt, ...)
{
	char msg[LT_ERROR_MSG_MAX];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return lt_perf_fail_at(p, err, code, c->what, c->off + c->pos, "%s", msg);
}

/* ---- bounded reads inside a section or record --------------------------- */

/* The bytes are known to be in the file: running off them is damage. */
int lt_perf_cur_need(struct lt_perf *p, struct lt_error *err, const struct pcur *c,
		     size_t n, const char *item)
{
	size_t left = c->len - c->pos;

	if (n <= left)
		return 0;
	return lt_perf_cur_fail(p, err, LT_E_CORRUPT, c,
				"%s needs %zu bytes, only %zu left", item, n, left);
}

int lt_perf_cur_u32(struct lt_perf *p, struct lt_error *err, struct pcur *c,
		    const char *item, uint32_t *v)
{
	if (lt_perf_cur_need(p, err, c, 4, item))
		return -1;
	*v = pget32(c->p + c->pos, p->swap);
	c->pos += 4;
	return 0;
}

int lt_perf_cur_u64(struct lt_perf *p, struct lt_error *err, struct pcur *c,
		    const char *item, uint64_t *v)
{
	if (lt_perf_cur_need(p, err, c, 8, item))
		return -1;
	*v = pget64(c->p + c->pos, p->swap);
	c->pos += 8;
	return 0;
}

int lt_perf_cur_string(struct lt_perf *p, struct lt_error *err, struct pcur *c,
		       const char *item, const char **s, size_t *len)
{
	uint32_t n;

	if (lt_perf_cur_u32(p, err, c, item, &n))
		return -1;
	if (n > PERF_MAX_STRING) {
		c->pos -= 4;
		return lt_perf_cur_fail(p, err, LT_E_CORRUPT, c,
					"%s of %u bytes is impossible", item, n);
	}
	if (lt_perf_cur_need(p, err, c, n, item))
		return -1;
	*s = (const char *)c->p + c->pos;
	/* perf pads it with NULs to 64; one is not there when damaged */
	*len = strnlen(*s, n);
	c->pos += n;
	return 0;
}

char *lt_perf_keep(struct lt_perf *p, const char *s, size_t len)
{
	char **strs, *copy;

	if (p->nr_strs == p->strs_cap) {
		unsigned int cap = p->strs_cap ? 2 * p->strs_cap : 16;

		strs = realloc(p->strs, cap * sizeof(*strs));
		if (!strs)
			return NULL;
		p->strs = strs;
		p->strs_cap = cap;
	}
	copy = malloc(len + 1);
	if (!copy)
		return NULL;
	memcpy(copy, s, len);
	copy[len] = '\0';
	p->strs[p->nr_strs++] = copy;
	return copy;
}

/* ---- the mapped file ------------------------------------------------- */

/*
 * Fault in the map from @off to past @end, a step at a time (a hint);
 * p->populated (never past the file's end) is what perf_bytes() then
 * hands out without a call.
 */
static void populate(struct lt_perf *p, uint64_t off, uint64_t end)
{
	uint64_t from = off > p->populated ? off : p->populated;
	uint64_t to;

	from &= ~(p->sys_page - 1);
	if (from >= p->size)
		return;
	to = from + MAP_STEP < p->size ? from + MAP_STEP : p->size;
	if (to < end)
		to = end;
	/* before Linux 5.14 faults will do */
	if (!p->populate_off &&
	    madvise((void *)(p->map + from), to - from, MADV_POPULATE_READ))
		p->populate_off = true;
	p->populated = to;
}

static const unsigned char *map_bytes(struct lt_perf *p, struct lt_error *err,
				      uint64_t off, size_t n, const char *what)
{
	if (off > p->size || n > p->size - off)
		return lt_perf_fail_at(p, err, LT_E_TRUNCATED, what, off,
				       "needs %zu bytes, the file ends after %llu",
				       n, (unsigned long long)(off < p->size ?
							       p->size - off : 0)),
		       NULL;
	if (off + n > p->populated && off >= p->info.data_offset)
		populate(p, off, off + n);
	return p->map + off;
}

/* ---- the file's data in chunks -------------------------------------------- */

static void chunks_span(struct pchunks *ck)
{
	ck->lo_off = ck->start + ck->lo * PERF_CHUNK;
	ck->hi_off = ck->start + ck->hi * PERF_CHUNK;
}

void lt_perf_chunks_init(struct lt_perf *p, uint64_t off)
{
	struct pchunks *ck = &p->ck;

	memset(ck, 0, sizeof(*ck));
	ck->on = true;
	ck->start = off;
	ck->keep = p->chunks_keep ? p->chunks_keep : PERF_CHUNKS_KEEP;
	/* what the kernel reads ahead for pread() */
	posix_fadvise(p->fd, off, 0, POSIX_FADV_SEQUENTIAL);
}

void lt_perf_chunks_free(struct lt_perf *p)
{
	unsigned int i;

	for (i = 0; i < PERF_SLOTS_MAX / 2; i++)
		lt_big_free(p->ck.pages[i], 2 * (size_t)PERF_CHUNK_STRIDE);
	free(p->ck.ch);
	memset(&p->ck, 0, sizeof(p->ck));
}

/* The lowest free slot, taken for chunk @k: its bytes, or NULL. */
static unsigned char *slot_take(struct lt_perf *p, uint64_t k)
{
	struct pchunks *ck = &p->ck;
	struct pchunk *c = &ck->ch[k & ck->mask];
	unsigned int w, s;

	if (ck->nr_used >= PERF_SLOTS_MAX)
		return NULL;
	for (w = 0; !~ck->used[w]; w++)
		;
	s = w * 64 + __builtin_ctzll(~ck->used[w]);
	if (!ck->pages[s / 2] &&
	    !(ck->pages[s / 2] = lt_big_alloc(2 * (size_t)PERF_CHUNK_STRIDE)))
		return NULL;
	ck->used[w] |= 1ULL << (s % 64);
	ck->slot_chunk[s] = k;
	if (++ck->nr_used > p->stats.chunks_peak)
		p->stats.chunks_peak = ck->nr_used;
	c->slot = (uint16_t)s;
	c->at = ck->pages[s / 2] + (s % 2) * (size_t)PERF_CHUNK_STRIDE;
	return c->at;
}

/* Chunk @k's bytes are let go (it is read again if needed). */
static void chunk_drop(struct pchunks *ck, uint64_t k)
{
	struct pchunk *c = &ck->ch[k & ck->mask];

	if (!c->at)
		return;
	ck->used[c->slot / 64] &= ~(1ULL << (c->slot % 64));
	ck->nr_used--;
	c->at = NULL;
	c->slot = PERF_NO_SLOT;
}

/* Room for chunks up to @k in the ring: 0, or -1 out of memory. */
static int chunks_room(struct pchunks *ck, uint64_t k)
{
	uint64_t size = ck->ch ? ck->mask + 1 : 0, nsize, i;
	struct pchunk *ch;

	if (k - ck->lo < size)
		return 0;
	for (nsize = size ? 2 * size : 64; k - ck->lo >= nsize; nsize *= 2)
		;
	ch = malloc(nsize * sizeof(*ch));
	if (!ch)
		return -1;
	for (i = 0; i < nsize; i++)
		ch[i] = (struct pchunk){ NULL, 0, PERF_NO_SLOT };
	/* chunk numbers stay; their places move */
	for (i = ck->lo; ck->ch && i < ck->hi; i++)
		ch[i & (nsize - 1)] = ck->ch[i & ck->mask];
	free(ck->ch);
	ck->ch = ch;
	ck->mask = nsize - 1;
	return 0;
}

/* The chunk of @off, or UINT64_MAX outside [lo, hi). */
static uint64_t chunk_of(const struct pchunks *ck, uint64_t off)
{
	uint64_t k;

	if (!ck->on || off < ck->start || (off & PERF_ZFLAG))
		return UINT64_MAX;
	k = (off - ck->start) / PERF_CHUNK;
	return k >= ck->lo && k < ck->hi ? k : UINT64_MAX;
}

/*
 * Chunks in memory that hold the next record of a run being merged (a
 * bit per slot in @heads): what the merge reads next.  Runs past the
 * flush's limit wait for a later round.
 */
static void merge_heads(const struct lt_perf *p, uint64_t *heads)
{
	const struct perf_queue *q = &p->q;
	const struct pchunk *c;
	uint64_t k;
	uint32_t i;

	memset(heads, 0, PERF_SLOTS_MAX / 8);
	for (i = 0; i < q->nr_runs; i++) {
		if (q->heap[i].ts > q->limit)
			continue;
		k = chunk_of(&p->ck, Q_OFF(q->heap[i].ref));
		if (k == UINT64_MAX)
			continue;
		c = &p->ck.ch[k & p->ck.mask];
		if (c->at)
			heads[c->slot / 64] |= 1ULL << (c->slot % 64);
	}
}

/*
 * A slot for chunk @k, another chunk let go if @keep are in use: the last
 * in the file (needed last, as the runs go on), but the one being read
 * (@reading) and, while merging (@merging), those holding a merged run's
 * next record: in their place another slot is taken (up to
 * PERF_SLOTS_MAX), so that the merge never reads a chunk twice at once.
 * Its bytes, or NULL.
 */
static unsigned char *slot_for(struct lt_perf *p, uint64_t k, uint64_t reading,
			       bool merging)
{
	struct pchunks *ck = &p->ck;
	uint64_t heads[PERF_SLOTS_MAX / 64], best = UINT64_MAX, c;
	unsigned int s;

	if (ck->nr_used >= ck->keep) {
		if (merging)
			merge_heads(p, heads);
		else
			memset(heads, 0, sizeof(heads));
		for (s = 0; s < PERF_SLOTS_MAX; s++) {
			if (!(ck->used[s / 64] >> (s % 64) & 1) ||
			    heads[s / 64] >> (s % 64) & 1)
				continue;
			c = ck->slot_chunk[s];
			if (c != reading && (best == UINT64_MAX || c > best))
				best = c;
		}
		if (best != UINT64_MAX)
			chunk_drop(ck, best);
	}
	return slot_take(p, k);
}

/* The end of chunk @k's bytes: its records' and PERF_CHUNK_OVER more. */
static uint64_t chunk_end(const struct lt_perf *p, uint64_t k)
{
	uint64_t base = p->ck.start + k * PERF_CHUNK;

	return p->size - base < PERF_CHUNK_STRIDE ? p->size :
	       base + PERF_CHUNK_STRIDE;
}

/* @n bytes at @off of the file into @buf: 0, or -1 (@err). */
static int read_at(struct lt_perf *p, struct lt_error *err, unsigned char *buf,
		   size_t n, uint64_t off)
{
	ssize_t got;

	while (n) {
		got = pread(p->fd, buf, n, off);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0)
			return lt_perf_fail(p, err, LT_E_IO, "cannot read: %s",
					    strerror(errno));
		if (!got)
			return lt_perf_fail_at(p, err, LT_E_TRUNCATED, "data",
					       off,
					       "the file ends there, not after %llu bytes: it shrank while read",
					       (unsigned long long)p->size);
		buf += got;
		n -= got;
		off += got;
	}
	return 0;
}

/*
 * The chunk being read (hi - 1) read on to at least @want, a piece at a
 * time: pieces copied just before they are parsed are still in this
 * core's cache, a whole chunk's first lines no longer.  0, or -1 (@err).
 */
static int chunk_fill(struct lt_perf *p, struct lt_error *err, uint64_t want)
{
	struct pchunks *ck = &p->ck;
	uint64_t base = ck->start + (ck->hi - 1) * PERF_CHUNK;
	uint64_t end = chunk_end(p, ck->hi - 1), to;
	unsigned char *slot = ck->ch[(ck->hi - 1) & ck->mask].at;

	if (want > end)
		want = end;
	while (ck->filled < want) {
		to = ck->filled + PERF_CHUNK_PIECE < end ?
		     ck->filled + PERF_CHUNK_PIECE : end;
		if (read_at(p, err, slot + (ck->filled - base), to - ck->filled,
			    ck->filled))
			return -1;
		ck->filled = to;
	}
	return 0;
}

/*
 * Chunk @k started in a slot, the one before it read whole: 1, 0 when
 * the map must serve (no memory for a slot, or its place in the ring),
 * -1 (@err).
 */
static int chunk_start(struct lt_perf *p, struct lt_error *err, uint64_t k)
{
	struct pchunks *ck = &p->ck;

	/* (not in memory: read whole already, then let go) */
	if (ck->hi > ck->lo && ck->ch[(ck->hi - 1) & ck->mask].at) {
		if (chunk_fill(p, err, chunk_end(p, ck->hi - 1)))
			return -1;
		/* read past, and none of its records queued: not needed */
		if (!ck->ch[(ck->hi - 1) & ck->mask].queued)
			chunk_drop(ck, ck->hi - 1);
	}
	if (ck->lo == ck->hi)
		ck->lo = ck->hi = k;	/* none kept: start here */
	if (chunks_room(ck, k))
		return 0;
	ck->ch[k & ck->mask] = (struct pchunk){ NULL, 0, PERF_NO_SLOT };
	if (!slot_for(p, k, UINT64_MAX, false))
		return 0;
	ck->hi = k + 1;
	ck->filled = ck->start + k * PERF_CHUNK;
	chunks_span(ck);
	return 1;
}

/*
 * Chunk @k, let go with records of it still queued, read again whole
 * into a slot: 1, 0 when the map must serve, -1 (@err).
 */
static int chunk_reread(struct lt_perf *p, struct lt_error *err, uint64_t k)
{
	struct pchunks *ck = &p->ck;
	uint64_t base = ck->start + k * PERF_CHUNK;
	unsigned char *at = slot_for(p, k, ck->hi - 1, true);

	if (!at)
		return 0;
	if (read_at(p, err, at, chunk_end(p, k) - base, base)) {
		chunk_drop(ck, k);
		return -1;
	}
	p->stats.chunks_reread++;
	return 1;
}

/*
 * @n bytes at @off, a record (at most PERF_CHUNK_OVER bytes) of the data
 * section, in the file: from its chunk, read now (or again) if need be.
 * A chunk before the oldest kept is read through the map.
 */
static const unsigned char *chunk_bytes(struct lt_perf *p, struct lt_error *err,
					uint64_t off, size_t n, const char *what)
{
	struct pchunks *ck = &p->ck;
	uint64_t k = (off - ck->start) / PERF_CHUNK;
	int ret;

	if (k < ck->lo)
		return map_bytes(p, err, off, n, what);
	while (k >= ck->hi) {
		/* those between are read whole: records may be queued there */
		ret = chunk_start(p, err, ck->lo == ck->hi ? k : ck->hi);
		if (ret < 0)
			return NULL;
		if (!ret)
			return map_bytes(p, err, off, n, what);
	}
	if (!ck->ch[k & ck->mask].at) {
		ret = chunk_reread(p, err, k);
		if (ret < 0)
			return NULL;
		if (!ret)
			return map_bytes(p, err, off, n, what);
	}
	if (k == ck->hi - 1 && off + n > ck->filled &&
	    chunk_fill(p, err, off + n + PERF_CHUNK_PIECE / 2))
		return NULL;
	return chunk_at(ck, off);
}

/* Chunks before the one of @off are no longer needed. */
static void chunks_release(struct pchunks *ck, uint64_t off)
{
	uint64_t k;

	if (!ck->on || off < ck->start)
		return;
	k = (off - ck->start) / PERF_CHUNK;
	/* all of them: the next read starts where it is */
	for (; ck->lo < k && ck->lo < ck->hi; ck->lo++)
		chunk_drop(ck, ck->lo);
	chunks_span(ck);
}

void lt_perf_chunk_in(struct lt_perf *p, uint64_t off)
{
	uint64_t k = chunk_of(&p->ck, off);

	if (k != UINT64_MAX)
		p->ck.ch[k & p->ck.mask].queued++;
}

void lt_perf_chunk_out(struct lt_perf *p, uint64_t off)
{
	p->ck.out_pending = p->ck.on && !(off & PERF_ZFLAG);
	p->ck.out_off = off;
}

void lt_perf_chunk_out_done(struct lt_perf *p)
{
	struct pchunks *ck = &p->ck;
	uint64_t k = chunk_of(ck, ck->out_off);
	struct pchunk *c;

	ck->out_pending = false;
	if (k == UINT64_MAX)
		return;
	c = &ck->ch[k & ck->mask];
	if (!c->queued || --c->queued || k + 1 >= ck->hi)
		return;
	/* its last queued record is out: the chunk is done with */
	chunk_drop(ck, k);
	while (ck->lo + 1 < ck->hi && !ck->ch[ck->lo & ck->mask].queued) {
		chunk_drop(ck, ck->lo);
		ck->lo++;
	}
	chunks_span(ck);
}

/* ---- the stream window -------------------------------------------------- */

/*
 * Room for @need more bytes after the window's end: 0, or -1 (@err).
 * What is no longer needed moves out first; the window then grows until
 * half of it is free, so each byte moves a bounded number of times.
 */
int lt_perf_win_room(struct lt_perf *p, struct lt_error *err, struct pwin *w,
		     size_t need, const char *what, uint64_t off)
{
	size_t drop, cap;
	unsigned char *b;

	if (w->cap - w->len >= need)
		return 0;
	drop = w->keep > w->base ? w->keep - w->base : 0;
	if (drop > w->len)
		drop = w->len;
	if (drop) {
		memmove(w->buf, w->buf + drop, w->len - drop);
		w->len -= drop;
		w->base += drop;
		if (w->cap - w->len >= need && w->len <= w->cap / 2)
			return 0;
	}
	cap = w->cap ? w->cap : READ_CHUNK;
	while (cap - w->len < need || w->len > cap / 2)
		cap *= 2;
	if (cap == w->cap)
		return 0;
	if (cap > 2 * p->win_max + WIN_ITEM_MAX)
		return lt_perf_fail_at(p, err, LT_E_LIMIT, what, off,
				       "the stream's window would grow to %zu MB",
				       cap >> 20);
	b = realloc(w->buf, cap);
	if (!b)
		return lt_perf_fail_at(p, err, LT_E_NOMEM, what, off,
				       "out of memory for %zu bytes of the stream",
				       cap);
	w->buf = b;
	w->cap = cap;
	return 0;
}

/* Read at least @want more bytes: 0, or -1 (@err; the end is not one). */
static int win_fill(struct lt_perf *p, struct lt_error *err, size_t want,
		    const char *what, uint64_t off)
{
	size_t ask = want > READ_CHUNK ? want : READ_CHUNK;
	ssize_t n;

	if (lt_perf_win_room(p, err, &p->win, ask, what, off))
		return -1;
	ask = p->win.cap - p->win.len;
	while (want && !p->eof) {
		n = read(p->fd, p->win.buf + p->win.len, ask);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return lt_perf_fail(p, err, LT_E_IO, "cannot read: %s",
					    strerror(errno));
		if (n == 0) {
			p->eof = true;
			break;
		}
		p->win.len += n;
		ask -= n;
		want = (size_t)n >= want ? 0 : want - n;
	}
	return 0;
}

static const unsigned char *win_bytes(struct lt_perf *p, struct lt_error *err,
				      uint64_t off, size_t n, const char *what)
{
	uint64_t have_end = p->win.base + p->win.len;

	if (off < p->win.base) {
		lt_perf_fail_at(p, err, LT_E_INTERNAL, what, off,
				"bytes already dropped from the stream's window");
		return NULL;
	}
	if (n > WIN_ITEM_MAX) {
		lt_perf_fail_at(p, err, LT_E_LIMIT, what, off,
				"%zu bytes, over the limit of %u MB", n,
				WIN_ITEM_MAX >> 20);
		return NULL;
	}
	if (off + n > have_end) {
		if (win_fill(p, err, off + n - have_end, what, off))
			return NULL;
		have_end = p->win.base + p->win.len;
		if (off + n > have_end) {
			lt_perf_fail_at(p, err, LT_E_TRUNCATED, what, off,
					"needs %zu bytes, the stream ends after %llu",
					n, (unsigned long long)(have_end > off ?
								have_end - off : 0));
			return NULL;
		}
	}
	return p->win.buf + (off - p->win.base);
}

/* Decompressed data: all of it is in zwin already, or it is cut short. */
static const unsigned char *zwin_bytes(struct lt_perf *p, struct lt_error *err,
				       uint64_t off, size_t n, const char *what)
{
	uint64_t end = p->zwin.base + p->zwin.len;

	if (off < p->zwin.base) {
		lt_perf_fail_at(p, err, LT_E_INTERNAL, what, off,
				"bytes already dropped from the decompressed data");
		return NULL;
	}
	if (off > end || n > end - off) {
		lt_perf_fail_at(p, err, LT_E_CORRUPT, what, off,
				"needs %zu bytes, the compressed data holds %llu",
				n, (unsigned long long)(off < end ? end - off : 0));
		return NULL;
	}
	return p->zwin.buf + (off - p->zwin.base);
}

/* ---- either ------------------------------------------------------------ */

const unsigned char *lt_perf_bytes_slow(struct lt_perf *p, struct lt_error *err,
					uint64_t off, size_t n, const char *what)
{
	if (off & PERF_ZFLAG)
		return zwin_bytes(p, err, off, n, what);
	if (p->stream)
		return win_bytes(p, err, off, n, what);
	if (p->ck.on && off >= p->ck.start && off < p->end &&
	    n <= PERF_CHUNK_OVER && off <= p->size && n <= p->size - off)
		return chunk_bytes(p, err, off, n, what);
	return map_bytes(p, err, off, n, what);
}

int lt_perf_skip(struct lt_perf *p, struct lt_error *err, uint64_t off,
		 uint64_t n, uint64_t keep, const char *what)
{
	uint64_t done, step;

	/* in the file: nothing to read (the map says when it is not) */
	if (!p->stream)
		return off <= p->size && n <= p->size - off ? 0 :
		       (map_bytes(p, err, off, n, what), -1);
	for (done = 0; done < n; done += step) {
		step = n - done < READ_CHUNK ? n - done : READ_CHUNK;
		if (!win_bytes(p, err, off + done, step, what))
			return -1;
		lt_perf_release(p, keep < off + done + step ? keep :
				off + done + step);
	}
	return 0;
}

void lt_perf_release(struct lt_perf *p, uint64_t off)
{
	uint64_t to;

	if (p->stream) {
		p->win.keep = off;
		return;
	}
	chunks_release(&p->ck, off);
	/* what was read through the map */
	to = off & ~(p->sys_page - 1);
	if (to < p->released + MAP_STEP || to > p->size)
		return;
	if (p->released < p->info.data_offset)
		p->released = p->info.data_offset & ~(p->sys_page - 1);
	if (to > p->populated)
		to = p->populated & ~(p->sys_page - 1);
	if (to > p->released)
		madvise((void *)(p->map + p->released), to - p->released,
			MADV_DONTNEED);
	if (to > p->released)
		p->released = to;
}

int lt_perf_more(struct lt_perf *p, struct lt_error *err, uint64_t off)
{
	if (!p->stream)
		return off < p->end;
	if (off < p->win.base + p->win.len)
		return 1;
	if (win_fill(p, err, 1, "record", off))
		return -1;
	return off < p->win.base + p->win.len;
}
