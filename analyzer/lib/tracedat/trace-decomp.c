// SPDX-License-Identifier: LGPL-2.1
/*
 * trace-decomp.c - zstd and zlib blocks of v7 files.
 *
 * Metadata sections are one block, decompressed whole, or for kallsyms
 * (MBs of text parsed line by line) in pieces; CPU data is a series of
 * chunks that trace-page.c decompresses one at a time into a buffer it
 * reuses, so memory stays at one chunk per CPU whatever the trace length.
 * Output sizes come from the file, so they are capped before anything is
 * allocated, and a block must decompress to exactly the size it claims.
 */
#include <pthread.h>
#include <stdlib.h>
#include <zlib.h>
/* for ZSTD_createDCtx_advanced(), experimental but exported since 1.3 */
#define ZSTD_STATIC_LINKING_ONLY
#include <zstd.h>
#include <zstd_errors.h>

#include "lt-bigmem.h"
#include "lt-thread.h"
#include "tracedat-local.h"

static void *own_alloc(void *opaque, size_t size)
{
	(void)opaque;
	return lt_thread_own_alloc(size);
}

static void own_free(void *opaque, void *p)
{
	(void)opaque;
	free(p);
}

/*
 * A zstd context of the trace's not in use, or a new one (NULL: ENOMEM).
 * Any thread may use one another made: its state in lines of its own.
 */
static ZSTD_DCtx *zctx_take(struct lt_trace *t)
{
	ZSTD_customMem mem = { own_alloc, own_free, NULL };
	ZSTD_DCtx *z = NULL;

	pthread_mutex_lock(&t->zctx_lock);
	if (t->nr_zctx_free)
		z = t->zctx_free[--t->nr_zctx_free];
	pthread_mutex_unlock(&t->zctx_lock);
	return z ? z : ZSTD_createDCtx_advanced(mem);
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

/* zstd's own allocations failing is the machine's fault, not the file's */
static int zstd_status(size_t ret)
{
	if (!ZSTD_isError(ret))
		return DECOMP_OK;
	return ZSTD_getErrorCode(ret) == ZSTD_error_memory_allocation ?
	       DECOMP_NOMEM : DECOMP_BAD;
}

/*
 * DECOMP_OK, DECOMP_BAD when the data does not decompress to exactly
 * @dstlen, or DECOMP_NOMEM.  Any thread: each call takes a context of its
 * own.
 */
int lt_trace_decomp_block(struct lt_trace *t, const void *src,
			  size_t srclen, void *dst, size_t dstlen)
{
	ZSTD_DCtx *z;
	size_t ret;
	int zret;

	switch (t->comp) {
	case LT_COMP_ZSTD:
		z = zctx_take(t);
		if (!z)
			return DECOMP_NOMEM;
		ret = ZSTD_decompressDCtx(z, dst, dstlen, src, srclen);
		zctx_give(t, z);
		if (zstd_status(ret) != DECOMP_OK)
			return zstd_status(ret);
		return ret == dstlen ? DECOMP_OK : DECOMP_BAD;
	case LT_COMP_ZLIB: {
		uLongf out = dstlen;

		if (srclen > (uLong)-1)
			return DECOMP_BAD;
		zret = uncompress(dst, &out, src, srclen);
		if (zret == Z_MEM_ERROR)
			return DECOMP_NOMEM;
		return zret == Z_OK && out == dstlen ? DECOMP_OK : DECOMP_BAD;
	}
	default:
		return DECOMP_BAD;
	}
}

void lt_trace_decomp_free_ctxs(struct lt_trace *t)
{
	while (t->nr_zctx_free)
		ZSTD_freeDCtx(t->zctx_free[--t->nr_zctx_free]);
}

/*
 * Blocks that know their size, from lt_big_alloc(): the large ones (a
 * decompressed section, a streaming zstd context's window: MBs written
 * from the start) get huge pages, the rest plain heap.
 */
#define BLK_HEAD	64		/* keeps zstd's and malloc's alignment */

static void *blk_alloc(void *opaque, size_t size)
{
	size_t n = size + BLK_HEAD;
	char *p;

	(void)opaque;
	if (n < size)
		return NULL;
	p = lt_big_alloc(n);
	if (!p)
		return NULL;
	memcpy(p, &n, sizeof(n));
	return p + BLK_HEAD;
}

static void blk_free(void *opaque, void *ptr)
{
	char *p;
	size_t n;

	(void)opaque;
	if (!ptr)
		return;
	p = (char *)ptr - BLK_HEAD;
	memcpy(&n, p, sizeof(n));
	lt_big_free(p, n);
}

void lt_trace_section_buf_free(unsigned char *buf)
{
	blk_free(NULL, buf);
}

/*
 * A compressed section body's sizes, checked: @r is positioned after the
 * section header, and is left after the two sizes.
 */
static int section_packed(struct lt_trace *t, struct lt_error *err,
			  struct rd *r, uint64_t sec_size, uint32_t *csize,
			  uint32_t *usize)
{
	if (t->comp == LT_COMP_NONE)
		return lt_trace_rd_fail(t, err, LT_E_CORRUPT, r,
					"compressed section in a file without compression");
	if (sec_size < 8)
		return lt_trace_rd_fail(t, err, LT_E_CORRUPT, r,
					"compressed section of %llu bytes",
					(unsigned long long)sec_size);
	if (lt_trace_rd_u32(t, err, r, "compressed size", csize) ||
	    lt_trace_rd_u32(t, err, r, "uncompressed size", usize))
		return -1;
	if (*csize > sec_size - 8) {
		r->pos -= 8;
		return lt_trace_rd_fail(t, err, LT_E_CORRUPT, r,
					"compressed size %u is larger than the section (%llu)",
					*csize, (unsigned long long)sec_size - 8);
	}
	if (*usize > LT_MAX_META_SIZE) {
		r->pos -= 4;
		return lt_trace_rd_fail(t, err, LT_E_LIMIT, r,
					"uncompressed size %u is over the limit of %u",
					*usize, LT_MAX_META_SIZE);
	}
	return 0;
}

static int section_in_file(struct lt_trace *t, struct lt_error *err,
			   struct rd *r, uint64_t sec_size)
{
	if (sec_size <= r->len - r->pos)
		return 0;
	r->pos -= 8;
	return lt_trace_rd_fail(t, err, LT_E_TRUNCATED, r,
				"section size %llu runs past the end of the file (size 0x%llx)",
				(unsigned long long)sec_size,
				(unsigned long long)t->size);
}

static int undecompressible(struct lt_trace *t, struct lt_error *err,
			    struct rd *r, uint32_t csize, uint32_t usize)
{
	return lt_trace_rd_fail(t, err, LT_E_CORRUPT, r,
				"%u compressed bytes do not decompress to %u bytes",
				csize, usize);
}

static int out_of_memory(struct lt_trace *t, struct lt_error *err,
			 struct rd *r, uint32_t usize)
{
	return lt_trace_rd_fail(t, err, LT_E_NOMEM, r,
				"out of memory for decompressing %u bytes", usize);
}

int lt_trace_section_body(struct lt_trace *t, struct lt_error *err, struct rd *r,
			  uint64_t sec_off, uint64_t sec_size, bool compressed,
			  const char *what, struct rd *body, unsigned char **buf)
{
	uint32_t csize, usize;
	unsigned char *out;
	int status;

	*buf = NULL;
	r->what = what;
	if (section_in_file(t, err, r, sec_size))
		return -1;
	if (!compressed) {
		*body = *r;
		body->p = r->p + r->pos;
		body->off = r->off + r->pos;
		body->len = sec_size;
		body->pos = 0;
		return 0;
	}
	if (section_packed(t, err, r, sec_size, &csize, &usize))
		return -1;
	out = blk_alloc(NULL, usize);
	if (!out)
		return lt_trace_rd_fail(t, err, LT_E_NOMEM, r,
					"out of memory for %u bytes", usize);
	lt_big_prefault(out, usize);
	status = lt_trace_decomp_block(t, r->p + r->pos, csize, out, usize);
	if (status != DECOMP_OK) {
		lt_trace_section_buf_free(out);
		if (status == DECOMP_NOMEM)
			return out_of_memory(t, err, r, usize);
		return undecompressible(t, err, r, csize, usize);
	}
	body->p = out;
	body->len = usize;
	body->pos = 0;
	body->off = sec_off;
	body->packed = true;
	body->what = what;
	body->win = NULL;
	*buf = out;
	return 0;
}

/* ---- a section body in pieces ------------------------------------------ */

/*
 * Decompressing a large section in one block writes it all to fresh
 * memory, and on this project's VM that, not zstd, is most of the cost:
 * kallsyms (5.4 MB) took 10 ms into a new buffer and 3.5 ms in pieces
 * that stay in cache.  Pieces also let a helper thread decompress the
 * next ones while the caller consumes these.
 */
#define PIECE_SIZE	(128u << 10)
#define PIECES		4		/* ahead of the consumer, with a helper */
#define HELPER_MIN	(1u << 20)	/* less gains nothing from a thread */

/*
 * LT_PIECE_BYTES: tests read in small pieces, so that a block decoded
 * after the last input was read still comes out whole.
 */
static size_t piece_size(void)
{
	const char *env = getenv("LT_PIECE_BYTES");
	unsigned long v = env ? strtoul(env, NULL, 0) : 0;

	return v && v < PIECE_SIZE ? v : PIECE_SIZE;
}

struct unpack {
	ZSTD_DCtx *z;
	z_stream zs;
	bool zs_live;
	size_t left;		/* bytes still to come out */
	ZSTD_inBuffer in;
	bool frame_open;	/* zstd: a frame has begun and not ended */
};

static int unpack_init(struct unpack *u, struct lt_trace *t,
		       const void *src, size_t srclen, size_t dstlen)
{
	memset(u, 0, sizeof(*u));
	u->left = dstlen;
	if (t->comp == LT_COMP_ZSTD) {
		ZSTD_customMem mem = { blk_alloc, blk_free, NULL };

		/* its own context: a streaming one keeps a window buffer */
		u->z = ZSTD_createDCtx_advanced(mem);
		u->in.src = src;
		u->in.size = srclen;
		return u->z ? DECOMP_OK : DECOMP_NOMEM;
	}
	if (t->comp != LT_COMP_ZLIB || srclen > (uInt)-1)
		return DECOMP_BAD;
	u->zs.next_in = (Bytef *)src;
	u->zs.avail_in = (uInt)srclen;
	if (inflateInit(&u->zs) != Z_OK)
		return DECOMP_NOMEM;
	u->zs_live = true;
	return DECOMP_OK;
}

static void unpack_end(struct unpack *u)
{
	ZSTD_freeDCtx(u->z);
	if (u->zs_live)
		inflateEnd(&u->zs);
	u->z = NULL;
	u->zs_live = false;
}

/*
 * Up to @cap bytes of the body into @dst: *@n of them (0 at the end).
 * DECOMP_BAD when the data holds more or less than it claimed, or is
 * not what its compression says.
 */
static int unpack_read(struct unpack *u, unsigned char *dst, size_t cap,
		       size_t *n)
{
	/* one byte more than is due: a body that runs long is seen */
	size_t want = cap < u->left + 1 ? cap : u->left + 1;

	*n = 0;
	if (u->z) {
		ZSTD_outBuffer out = { dst, want, 0 };
		size_t ret, in0, out0;

		/* with the input all read, it may still hold output: ask on */
		while (out.pos < out.size) {
			in0 = u->in.pos;
			out0 = out.pos;
			ret = ZSTD_decompressStream(u->z, &out, &u->in);
			if (zstd_status(ret) != DECOMP_OK)
				return zstd_status(ret);
			if (u->in.pos == in0 && out.pos == out0)
				break;	/* the end, or the input cut short */
			u->frame_open = ret != 0;
		}
		*n = out.pos;
		if (*n > u->left ||
		    (!*n && (u->left || u->frame_open)))
			return DECOMP_BAD;
		u->left -= *n;
		return DECOMP_OK;
	}
	u->zs.next_out = dst;
	u->zs.avail_out = (uInt)want;
	while (u->zs.avail_out) {
		int ret = inflate(&u->zs, Z_NO_FLUSH);

		if (ret == Z_STREAM_END)
			break;
		if (ret != Z_OK)
			return ret == Z_MEM_ERROR ? DECOMP_NOMEM : DECOMP_BAD;
	}
	*n = want - u->zs.avail_out;
	if (*n > u->left || (!*n && u->left))
		return DECOMP_BAD;
	u->left -= *n;
	return DECOMP_OK;
}

/* The helper's side: pieces decompressed into a ring, PIECES ahead. */
struct ahead {
	struct unpack *u;
	size_t size;		/* of a piece */
	pthread_mutex_t lock;
	pthread_cond_t cond;
	unsigned char *buf[PIECES];
	size_t len[PIECES];
	unsigned int head, nr;	/* filled pieces, from buf[head] */
	bool done, stop;
	int status;
};

static void *ahead_main(void *arg)
{
	struct ahead *a = arg;
	unsigned int slot;
	size_t n;
	int ret;

	pthread_mutex_lock(&a->lock);
	for (;;) {
		while (a->nr == PIECES && !a->stop)
			pthread_cond_wait(&a->cond, &a->lock);
		if (a->stop)
			break;
		slot = (a->head + a->nr) % PIECES;
		pthread_mutex_unlock(&a->lock);
		ret = unpack_read(a->u, a->buf[slot], a->size, &n);
		pthread_mutex_lock(&a->lock);
		if (ret != DECOMP_OK || !n) {
			a->status = ret;
			break;
		}
		a->len[slot] = n;
		a->nr++;
		pthread_cond_signal(&a->cond);
	}
	a->done = true;
	pthread_cond_signal(&a->cond);
	pthread_mutex_unlock(&a->lock);
	return NULL;
}

/* With a helper: its pieces through @fn in order.  -1 when @fn stopped. */
static int pieces_ahead(struct unpack *u, unsigned char *mem, size_t size,
			section_piece_fn fn, void *ctx, int *status)
{
	struct ahead a;
	pthread_t thread;
	unsigned int i;
	int ret = 0;

	memset(&a, 0, sizeof(a));
	a.u = u;
	a.size = size;
	for (i = 0; i < PIECES; i++)
		a.buf[i] = mem + (size_t)i * size;
	pthread_mutex_init(&a.lock, NULL);
	pthread_cond_init(&a.cond, NULL);
	if (lt_thread_start(&thread, ahead_main, &a)) {
		pthread_cond_destroy(&a.cond);
		pthread_mutex_destroy(&a.lock);
		return 1;	/* no helper: the caller reads alone */
	}
	pthread_mutex_lock(&a.lock);
	for (;;) {
		while (!a.nr && !a.done)
			pthread_cond_wait(&a.cond, &a.lock);
		if (!a.nr)
			break;
		pthread_mutex_unlock(&a.lock);
		ret = fn(ctx, a.buf[a.head], a.len[a.head]);
		pthread_mutex_lock(&a.lock);
		if (ret < 0) {
			a.stop = true;
			break;
		}
		a.head = (a.head + 1) % PIECES;
		a.nr--;
		pthread_cond_signal(&a.cond);
	}
	pthread_cond_signal(&a.cond);
	pthread_mutex_unlock(&a.lock);
	pthread_join(thread, NULL);
	*status = a.status;
	pthread_cond_destroy(&a.cond);
	pthread_mutex_destroy(&a.lock);
	return ret < 0 ? -1 : 0;
}

int lt_trace_section_pieces(struct lt_trace *t, struct lt_error *err, struct rd *r,
			    uint64_t sec_size, bool compressed, const char *what,
			    bool helper, section_piece_fn fn, void *ctx)
{
	uint32_t csize, usize;
	struct unpack u;
	unsigned char *mem;
	int status, ret;
	size_t n, size;

	r->what = what;
	if (section_in_file(t, err, r, sec_size))
		return -1;
	if (!compressed)
		return fn(ctx, r->p + r->pos, sec_size) < 0 ? -1 : 0;
	if (section_packed(t, err, r, sec_size, &csize, &usize))
		return -1;
	size = piece_size();
	if (usize < HELPER_MIN)
		helper = false;
	mem = malloc((helper ? PIECES : 1) * size);
	if (!mem)
		return lt_trace_rd_fail(t, err, LT_E_NOMEM, r, "out of memory");
	status = unpack_init(&u, t, r->p + r->pos, csize, usize);
	ret = status != DECOMP_OK ? 0 :
	      helper ? pieces_ahead(&u, mem, size, fn, ctx, &status) : 1;
	while (ret == 1) {
		/* alone: decompress a piece, consume it, and again */
		status = unpack_read(&u, mem, size, &n);
		if (status != DECOMP_OK || !n)
			ret = 0;
		else if (fn(ctx, mem, n) < 0)
			ret = -1;
	}
	unpack_end(&u);
	free(mem);
	if (ret < 0)
		return -1;
	if (status == DECOMP_NOMEM)
		return out_of_memory(t, err, r, usize);
	if (status == DECOMP_BAD)
		return undecompressible(t, err, r, csize, usize);
	return 0;
}
