// SPDX-License-Identifier: LGPL-2.1
/*
 * trace-decomp.c - zstd and zlib blocks of v7 files.
 *
 * Metadata sections are one block; CPU data is a series of chunks that
 * trace-page.c decompresses one at a time into a buffer it reuses, so
 * memory stays at one chunk per CPU whatever the trace length.  Output
 * sizes come from the file, so they are capped before anything is
 * allocated, and a block must decompress to exactly the size it claims.
 */
#include <stdlib.h>
#include <zlib.h>
#include <zstd.h>

#include "trace-local.h"

/* A zstd context of the trace's not in use, or a new one (NULL: ENOMEM). */
static ZSTD_DCtx *zctx_take(struct lt_trace *t)
{
	ZSTD_DCtx *z = NULL;

	pthread_mutex_lock(&t->zctx_lock);
	if (t->nr_zctx_free)
		z = t->zctx_free[--t->nr_zctx_free];
	pthread_mutex_unlock(&t->zctx_lock);
	return z ? z : ZSTD_createDCtx();
}

static void zctx_give(struct lt_trace *t, ZSTD_DCtx *z)
{
	pthread_mutex_lock(&t->zctx_lock);
	if (t->nr_zctx_free < LT_ZCTX_KEEP) {
		t->zctx_free[t->nr_zctx_free++] = z;
		z = NULL;
	}
	pthread_mutex_unlock(&t->zctx_lock);
	ZSTD_freeDCtx(z);
}

/*
 * Returns 0, or -1 when the data does not decompress to exactly @dstlen.
 * Any thread: each call takes a context of its own.
 */
int decomp_block(struct lt_trace *t, const void *src,
		 size_t srclen, void *dst, size_t dstlen)
{
	ZSTD_DCtx *z;
	size_t ret;

	switch (t->comp) {
	case LT_COMP_ZSTD:
		z = zctx_take(t);
		if (!z)
			return -1;
		ret = ZSTD_decompressDCtx(z, dst, dstlen, src, srclen);
		zctx_give(t, z);
		if (ZSTD_isError(ret) || ret != dstlen)
			return -1;
		return 0;
	case LT_COMP_ZLIB: {
		uLongf out = dstlen;

		if (srclen > (uLong)-1 ||
		    uncompress(dst, &out, src, srclen) != Z_OK ||
		    out != dstlen)
			return -1;
		return 0;
	}
	default:
		return -1;
	}
}

void decomp_free_ctxs(struct lt_trace *t)
{
	while (t->nr_zctx_free)
		ZSTD_freeDCtx(t->zctx_free[--t->nr_zctx_free]);
}

int section_body(struct lt_trace *t, struct lt_error *err, struct rd *r,
		 uint64_t sec_off, uint64_t sec_size, bool compressed,
		 const char *what, struct rd *body, unsigned char **buf)
{
	const unsigned char *src;
	uint32_t csize, usize;
	unsigned char *out;
	int ret;

	*buf = NULL;
	r->what = what;
	if (sec_size > r->len - r->pos) {
		r->pos -= 8;
		return rd_fail(t, err, LT_E_TRUNCATED, r,
			       "section size %llu runs past the end of the file (size 0x%llx)",
			       (unsigned long long)sec_size,
			       (unsigned long long)t->size);
	}
	if (!compressed) {
		*body = *r;
		body->p = r->p + r->pos;
		body->off = r->off + r->pos;
		body->len = sec_size;
		body->pos = 0;
		return 0;
	}
	if (t->comp == LT_COMP_NONE)
		return rd_fail(t, err, LT_E_CORRUPT, r,
			       "compressed section in a file without compression");
	if (sec_size < 8)
		return rd_fail(t, err, LT_E_CORRUPT, r,
			       "compressed section of %llu bytes",
			       (unsigned long long)sec_size);
	if (rd_u32(t, err, r, "compressed size", &csize) ||
	    rd_u32(t, err, r, "uncompressed size", &usize))
		return -1;
	if (csize > sec_size - 8) {
		r->pos -= 8;
		return rd_fail(t, err, LT_E_CORRUPT, r,
			       "compressed size %u is larger than the section (%llu)",
			       csize, (unsigned long long)sec_size - 8);
	}
	if (usize > LT_MAX_META_SIZE) {
		r->pos -= 4;
		return rd_fail(t, err, LT_E_LIMIT, r,
			       "uncompressed size %u is over the limit of %u",
			       usize, LT_MAX_META_SIZE);
	}
	src = r->p + r->pos;
	out = malloc(usize ? usize : 1);
	if (!out)
		return rd_fail(t, err, LT_E_NOMEM, r,
			       "out of memory for %u bytes", usize);
	prefault_write(out, usize);
	ret = decomp_block(t, src, csize, out, usize);
	if (ret) {
		free(out);
		return rd_fail(t, err, LT_E_CORRUPT, r,
			       "%u compressed bytes do not decompress to %u bytes",
			       csize, usize);
	}
	body->p = out;
	body->len = usize;
	body->pos = 0;
	body->off = sec_off;
	body->packed = true;
	body->what = what;
	*buf = out;
	return 0;
}
