// SPDX-License-Identifier: LGPL-2.1
/*
 * perf-zstd.c - the data of perf record -z.
 *
 * perf record -z writes what it reads from the ring buffers as
 * COMPRESSED records, whose payloads are pieces of one zstd stream; a
 * record of the stream may start in one and end in the next.  perf
 * decompresses each when it meets it and reads the records out of it
 * before the file's next one (session.c), and so do we: the data goes to
 * a window of its own (zwin), whose offsets carry PERF_ZFLAG, so queued
 * records point into it as they point into the file.
 */
#include <stdlib.h>
#include <zstd.h>

#include "perf-local.h"

/* decompressed into room of at least this */
#define ZSTEP	(256u << 10)

int lt_perf_zdata_add(struct lt_perf *p, struct lt_error *err,
		      const unsigned char *src, size_t n, uint64_t off)
{
	ZSTD_inBuffer in = { src, n, 0 };
	ZSTD_outBuffer out;
	size_t r, before;

	if (!p->zctx) {
		p->zctx = ZSTD_createDCtx();
		if (!p->zctx)
			return lt_perf_fail_at(p, err, LT_E_NOMEM,
					       "COMPRESSED record", off,
					       "out of memory for zstd");
		p->zwin.base = p->zwin.keep = p->zpos = PERF_ZFLAG;
	}
	p->zrec = off;
	for (;;) {
		if (lt_perf_win_room(p, err, &p->zwin, ZSTEP, "COMPRESSED record", off))
			return -1;
		out.dst = p->zwin.buf + p->zwin.len;
		out.size = p->zwin.cap - p->zwin.len;
		out.pos = 0;
		before = in.pos;
		r = ZSTD_decompressStream(p->zctx, &out, &in);
		if (ZSTD_isError(r))
			return lt_perf_fail_at(p, err, LT_E_CORRUPT,
					       "COMPRESSED record", off,
					       "zstd: %s", ZSTD_getErrorName(r));
		p->zwin.len += out.pos;
		/* all read, and all written out that could be */
		if (in.pos == in.size && out.pos < out.size)
			return 0;
		if (in.pos == before && !out.pos)
			return lt_perf_fail_at(p, err, LT_E_CORRUPT,
					       "COMPRESSED record", off,
					       "zstd makes no progress");
	}
}

void lt_perf_zdata_free(struct lt_perf *p)
{
	ZSTD_freeDCtx(p->zctx);
	free(p->zwin.buf);
	p->zctx = NULL;
	p->zwin.buf = NULL;
}
