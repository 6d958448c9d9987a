// SPDX-License-Identifier: LGPL-2.1
/*
 * trace-read.c - bounded reads of the file, and errors that say where.
 *
 * Every other part of the reader reads the file through struct rd: each
 * size, offset and count is checked against the bytes that are really
 * there before it is used, and a failure names the file, the section or
 * item and its offset.  Nothing here knows what it reads.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tracedat-local.h"

/* ---- errors ---------------------------------------------------------- */

int lt_trace_fail(const struct lt_trace *t, struct lt_error *err,
		  enum lt_errcode code, const char *fmt, ...)
{
	char msg[LT_ERROR_MSG_MAX];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	lt_error_set(err, code, "%s: %s", t->path, msg);
	return -1;
}

int lt_trace_rd_fail(const struct lt_trace *t, struct lt_error *err,
		     enum lt_errcode code, const struct rd *r, const char *fmt, ...)
{
	char msg[LT_ERROR_MSG_MAX];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (r->packed)
		lt_error_set(err, code,
			     "%s: %s (compressed, at offset 0x%llx), at uncompressed offset 0x%zx: %s",
			     t->path, r->what, (unsigned long long)r->off,
			     r->pos, msg);
	else
		lt_error_set(err, code, "%s: %s at offset 0x%llx: %s",
			     t->path, r->what,
			     (unsigned long long)(r->off + r->pos), msg);
	return -1;
}

/* ---- bounded reads --------------------------------------------------- */

/*
 * A trace carries the formats of every event the system has, 2 MB of
 * them here, of which only the first lines of each are read at open: the
 * rest waits until a type is used.  Read through the map, that still maps
 * every page, and on this project's VM a page costs ~2 us.  Copied by
 * pread() into a window that stays mapped, opening len1x-v6 took 0.6 ms
 * less (2.3 -> 1.7 ms).  The window is only a cache: what it cannot serve
 * is read from the map, and the types keep their text there.
 */
#define WIN_BYTES	(64u << 10)


/* Reads of @r, a reader of the map, come through a window from here on. */
void lt_trace_rd_win_start(const struct lt_trace *t, struct rd *r,
			 struct rd_win *w)
{
	/* LT_WINDOW_BYTES: tests make it small, for texts that do not fit */
	const char *env = getenv("LT_WINDOW_BYTES");
	unsigned long v = env ? strtoul(env, NULL, 0) : 0;

	w->t = t;
	w->cap = v >= 16 && v < WIN_BYTES ? v : WIN_BYTES;
	/* a copy in memory has no file to pread() from */
	w->buf = r->packed || t->fd < 0 ? NULL : malloc(w->cap);
	w->off = 0;
	w->len = 0;
	r->win = w->buf ? w : NULL;
}

void lt_trace_rd_win_end(struct rd *r, struct rd_win *w)
{
	free(w->buf);
	r->win = NULL;
}

/*
 * @n bytes at @p, in the map: a copy in the window, valid until the next
 * read, or @p itself.
 */
static const unsigned char *win_get(struct rd_win *w, const unsigned char *p,
				    size_t n)
{
	uint64_t off = p - w->t->map;
	size_t want;
	ssize_t got;

	if (off >= w->off && off + n <= w->off + w->len)
		return w->buf + (off - w->off);
	if (n > w->cap)
		return p;
	want = w->t->size - off < w->cap ? w->t->size - off : w->cap;
	got = pread(w->t->fd, w->buf, want, off);
	if (got < 0 || (size_t)got < n) {
		w->len = 0;
		return p;
	}
	w->off = off;
	w->len = got;
	return w->buf;
}

/* The next @n bytes of @r, which lt_trace_rd_need() has found there. */
static inline const unsigned char *rd_at(const struct rd *r, size_t n)
{
	return r->win ? win_get(r->win, r->p + r->pos, n) : r->p + r->pos;
}

int lt_trace_rd_need(const struct lt_trace *t, struct lt_error *err,
		     const struct rd *r, size_t n, const char *item)
{
	size_t left = r->len - r->pos;

	if (n <= left)
		return 0;
	/*
	 * Running off the end of the file is truncation; off a section, or
	 * off tracing data whose size its container gave, damage.
	 */
	if (!r->packed && !t->blob && r->off + r->len >= t->size)
		return lt_trace_rd_fail(t, err, LT_E_TRUNCATED, r,
					"%s needs %zu bytes, the file ends after %zu",
					item, n, left);
	return lt_trace_rd_fail(t, err, LT_E_CORRUPT, r,
				"%s needs %zu bytes, only %zu left in the section",
				item, n, left);
}

int lt_trace_rd_u16(const struct lt_trace *t, struct lt_error *err, struct rd *r,
		    const char *item, uint16_t *v)
{
	if (lt_trace_rd_need(t, err, r, 2, item))
		return -1;
	*v = get16(rd_at(r, 2), t->swap);
	r->pos += 2;
	return 0;
}

int lt_trace_rd_u32(const struct lt_trace *t, struct lt_error *err, struct rd *r,
		    const char *item, uint32_t *v)
{
	if (lt_trace_rd_need(t, err, r, 4, item))
		return -1;
	*v = get32(rd_at(r, 4), t->swap);
	r->pos += 4;
	return 0;
}

int lt_trace_rd_u64(const struct lt_trace *t, struct lt_error *err, struct rd *r,
		    const char *item, uint64_t *v)
{
	if (lt_trace_rd_need(t, err, r, 8, item))
		return -1;
	*v = get64(rd_at(r, 8), t->swap);
	r->pos += 8;
	return 0;
}

int lt_trace_rd_bytes(const struct lt_trace *t, struct lt_error *err, struct rd *r,
		      const char *item, size_t n, const unsigned char **p)
{
	if (lt_trace_rd_need(t, err, r, n, item))
		return -1;
	*p = rd_at(r, n);
	r->pos += n;
	return 0;
}

/*
 * A NUL-terminated string that must end inside the reader.  Through a
 * window, one that ends in it is a copy (valid until the next read).
 */
int lt_trace_rd_str(const struct lt_trace *t, struct lt_error *err, struct rd *r,
		    const char *item, const char **s, size_t *len)
{
	/* the strings read through a window are system names, 255 at most */
	size_t left = r->len - r->pos, near = left < 256 ? left : 256;
	const unsigned char *start = rd_at(r, near);
	const unsigned char *nul = memchr(start, 0, near);

	if (!nul && left > near) {
		start = r->p + r->pos;
		nul = memchr(start, 0, left);
	}

	if (!nul) {
		lt_trace_rd_need(t, err, r, r->len - r->pos + 1, item);
		return -1;
	}
	*s = (const char *)start;
	if (len)
		*len = nul - start;
	r->pos += nul - start + 1;
	return 0;
}

/* A reader over [off, off + len) of the file, clipped to the file. */
void lt_trace_rd_file(const struct lt_trace *t, struct rd *r, uint64_t off,
		    uint64_t len, const char *what)
{
	if (off > t->size)
		off = t->size;
	if (len > t->size - off)
		len = t->size - off;
	r->p = t->map + off;
	r->len = len;
	r->pos = 0;
	r->off = off;
	r->packed = false;
	r->what = what;
	r->win = NULL;
}

/* A text blob of @size bytes: size first (4 or 8 bytes), then the text. */
int lt_trace_rd_sized_text(struct lt_trace *t, struct lt_error *err,
			 struct rd *r, int size_bytes, uint64_t cap,
			 const char *item, const char **text, size_t *len)
{
	const unsigned char *p;
	uint64_t size;
	uint32_t s32;

	if (size_bytes == 4) {
		if (lt_trace_rd_u32(t, err, r, item, &s32))
			return -1;
		size = s32;
	} else if (lt_trace_rd_u64(t, err, r, item, &size)) {
		return -1;
	}
	/* bigger than the file is damage; only a size that fits can be "too big" */
	if (size > r->len - r->pos) {
		r->pos -= size_bytes;
		/* saturate: a size near 2^64 must not wrap to a small need */
		lt_trace_rd_need(t, err, r, size > SIZE_MAX - size_bytes ? SIZE_MAX :
				 (size_t)size + size_bytes, item);
		return -1;
	}
	if (size > cap) {
		r->pos -= size_bytes;
		return lt_trace_rd_fail(t, err, LT_E_LIMIT, r,
					"%s of %llu bytes is over the limit of %llu",
					item, (unsigned long long)size,
					(unsigned long long)cap);
	}
	if (lt_trace_rd_bytes(t, err, r, item, size, &p))
		return -1;
	*text = (const char *)p;
	*len = size;
	return 0;
}

/* ---- v7 section headers ------------------------------------------------ */

int lt_trace_read_section_header(struct lt_trace *t, struct lt_error *err,
			       struct rd *r, uint16_t *id, uint16_t *flags,
			       uint64_t *size)
{
	uint32_t desc;

	return lt_trace_rd_u16(t, err, r, "section id", id) ||
	       lt_trace_rd_u16(t, err, r, "section flags", flags) ||
	       lt_trace_rd_u32(t, err, r, "section description", &desc) ||
	       lt_trace_rd_u64(t, err, r, "section size", size) ? -1 : 0;
}

/*
 * Read the header of the section at @off, expecting id @want: @r is left
 * just past it, over the rest of the file.
 */
int lt_trace_section_header(struct lt_trace *t, struct lt_error *err,
			  uint64_t off, uint16_t want, const char *what,
			  struct rd *r, uint16_t *flags, uint64_t *size)
{
	uint16_t id;

	if (off >= t->size)
		return lt_trace_fail(t, err, LT_E_TRUNCATED,
				     "%s at offset 0x%llx is past the end of the file (size 0x%llx): the file is cut short",
				     what, (unsigned long long)off,
				     (unsigned long long)t->size);
	lt_trace_rd_file(t, r, off, t->size - off, what);
	if (lt_trace_read_section_header(t, err, r, &id, flags, size))
		return -1;
	if (id != want) {
		r->pos = 0;
		return lt_trace_rd_fail(t, err, LT_E_CORRUPT, r,
					"section id is %u, expected %u", id, want);
	}
	return 0;
}
