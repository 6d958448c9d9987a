// SPDX-License-Identifier: GPL-2.0
/*
 * test-page.c - ring-buffer page decoding on hand-built pages.
 *
 * Each case is a script of page items (events, time extends, absolute
 * time stamps, padding, missed-event flags, damaged commits) and the
 * records it must decode to.  Every case runs in both byte orders and
 * with 4- and 8-byte commit words, through the real stream code.
 */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "lt-test.h"
#include "tracedat-local.h"

#define PAGE_SIZE 4096

enum item_kind {
	END,
	PAGE,		/* a: page ts; b: MISSED / STORED flags; c: count */
	EV,		/* a: delta; b: payload bytes (<= 112, x4) */
	EV0,		/* a: delta; b: payload bytes, length in array[0] */
	EXT,		/* a: delta (>= 2^27 for real ones) */
	ABS,		/* a: absolute ts */
	PAD,		/* a: delta; b: total bytes */
	NULLPAD,
	RAW,		/* a: one raw 32-bit word */
	COMMIT,		/* a: commit of the current page, overriding */
	SHORT,		/* the data ends b bytes into the last page */
};

#define MISSED	1
#define STORED	2

struct item {
	enum item_kind kind;
	uint64_t a;
	uint32_t b;
	int64_t c;
};

enum out_kind { O_END, O_EV, O_LOST, O_ERR };

struct out {
	enum out_kind kind;
	uint64_t ts;
	int64_t val;		/* size, lost count, or error code */
};

struct page_case {
	const char *name;
	struct item items[16];
	struct out out[16];
};

#define P0 1000000
static const struct page_case cases[] = {
	{ "plain events",
	  { { PAGE, P0 }, { EV, 0, 8 }, { EV, 5, 16 }, { EV, 7, 112 } },
	  { { O_EV, P0, 8 }, { O_EV, P0 + 5, 16 }, { O_EV, P0 + 12, 112 },
	    { O_END } } },
	{ "length in array[0], ending exactly at the commit",
	  { { PAGE, P0 }, { EV0, 1, 13 }, { EV0, 2, 200 } },
	  { { O_EV, P0 + 1, 16 }, { O_EV, P0 + 3, 200 }, { O_END } } },
	{ "time extend",
	  { { PAGE, P0 }, { EV, 0, 8 }, { EXT, 1ULL << 30 }, { EV, 3, 8 } },
	  { { O_EV, P0, 8 }, { O_EV, P0 + (1ULL << 30) + 3, 8 }, { O_END } } },
	{ "absolute time stamp",
	  { { PAGE, P0 }, { EV, 0, 8 }, { ABS, 5000000 }, { EV, 2, 8 } },
	  { { O_EV, P0, 8 }, { O_EV, 5000002, 8 }, { O_END } } },
	{ "absolute time stamp keeps the top 5 bits",
	  { { PAGE, 0xf800000000000064ULL }, { ABS, 200 }, { EV, 0, 8 } },
	  { { O_EV, 0xf8000000000000c8ULL, 8 }, { O_END } } },
	{ "discarded event (padding) counts its delta",
	  { { PAGE, P0 }, { EV, 0, 8 }, { PAD, 4, 16 }, { EV, 1, 8 } },
	  { { O_EV, P0, 8 }, { O_EV, P0 + 5, 8 }, { O_END } } },
	{ "delta-0 padding ends the page",
	  { { PAGE, P0 }, { EV, 0, 8 }, { NULLPAD }, { RAW, 0xdeadbeef },
	    { RAW, 0 } },
	  { { O_EV, P0, 8 }, { O_END } } },
	{ "missed events, count stored",
	  { { PAGE, P0, MISSED | STORED, 7 }, { EV, 3, 8 }, { EV, 1, 8 } },
	  { { O_LOST, P0 + 3, 7 }, { O_EV, P0 + 3, 8 }, { O_EV, P0 + 4, 8 },
	    { O_END } } },
	{ "missed events, count unknown",
	  { { PAGE, P0, MISSED }, { EV, 0, 8 } },
	  { { O_LOST, P0, -1 }, { O_EV, P0, 8 }, { O_END } } },
	{ "missed events before a time extend",
	  { { PAGE, P0, MISSED | STORED, 2 }, { EXT, 1ULL << 28 },
	    { EV, 0, 8 } },
	  { { O_LOST, P0 + (1ULL << 28), 2 },
	    { O_EV, P0 + (1ULL << 28), 8 }, { O_END } } },
	{ "missed events on an empty page add up",
	  { { PAGE, P0, MISSED | STORED, 3 }, { PAGE, P0 + 50, MISSED | STORED, 4 },
	    { EV, 1, 8 } },
	  { { O_LOST, P0 + 51, 7 }, { O_EV, P0 + 51, 8 }, { O_END } } },
	{ "missed events after the last event",
	  { { PAGE, P0 }, { EV, 0, 8 }, { PAGE, P0 + 100, MISSED | STORED, 5 } },
	  { { O_EV, P0, 8 }, { O_LOST, P0 + 100, 5 }, { O_END } } },
	{ "each page starts from its own time",
	  { { PAGE, P0 }, { EV, 9, 8 }, { PAGE, 2 * P0 }, { EV, 1, 8 } },
	  { { O_EV, P0 + 9, 8 }, { O_EV, 2 * P0 + 1, 8 }, { O_END } } },
	{ "an empty page in between",
	  { { PAGE, P0 }, { EV, 0, 8 }, { PAGE, 0 }, { PAGE, 3 * P0 },
	    { EV, 0, 8 } },
	  { { O_EV, P0, 8 }, { O_EV, 3 * P0, 8 }, { O_END } } },
	{ "commit larger than the page",
	  { { PAGE, P0 }, { EV, 0, 8 }, { COMMIT, 5000 } },
	  { { O_ERR, 0, LT_E_CORRUPT } } },
	{ "event runs past the commit",
	  { { PAGE, P0 }, { EV, 0, 8 }, { EV, 0, 112 }, { COMMIT, 60 } },
	  { { O_EV, P0, 8 }, { O_ERR, 0, LT_E_CORRUPT } } },
	{ "array[0] length smaller than itself",
	  { { PAGE, P0 }, { EV, 0, 8 }, { RAW, 0 }, { RAW, 2 } },
	  { { O_EV, P0, 8 }, { O_ERR, 0, LT_E_CORRUPT } } },
	{ "array[0] length beyond the commit",
	  { { PAGE, P0 }, { RAW, 0 }, { RAW, 0x7fffffff } },
	  { { O_ERR, 0, LT_E_CORRUPT } } },
	{ "padding length beyond the commit",
	  { { PAGE, P0 }, { PAD, 1, 16 }, { COMMIT, 12 } },
	  { { O_ERR, 0, LT_E_CORRUPT } } },
	{ "time extend cut by the commit",
	  { { PAGE, P0 }, { EV, 0, 8 }, { EXT, 1 }, { COMMIT, 16 } },
	  { { O_EV, P0, 8 }, { O_ERR, 0, LT_E_CORRUPT } } },
	/* (with 8-byte longs this commit is also larger than the page) */
	{ "stored count with no room for it",
	  { { PAGE, P0, MISSED | STORED, 1 }, { EV, 0, 8 },
	    { COMMIT, PAGE_SIZE - 14 } },
	  { { O_ERR, 0, LT_E_CORRUPT } } },
	{ "data ends inside the page header",
	  { { PAGE, P0 }, { EV, 0, 8 }, { PAGE, P0 }, { EV, 0, 8 },
	    { SHORT, 0, 6 } },
	  { { O_EV, P0, 8 }, { O_ERR, 0, LT_E_TRUNCATED } } },
	{ "a short last page whose data fits is read",
	  { { PAGE, P0 }, { EV, 0, 8 }, { SHORT, 0, 64 } },
	  { { O_EV, P0, 8 }, { O_END } } },
};

struct builder {
	unsigned char *buf;
	size_t len;
	size_t page;		/* start of the current page */
	size_t pos;		/* write position */
	bool big;
	int klong;
	int64_t commit_override;
};

static void put32(struct builder *b, size_t at, uint32_t v)
{
	if (b->big)
		v = __builtin_bswap32(v);
	memcpy(b->buf + at, &v, 4);
}

static void put64(struct builder *b, size_t at, uint64_t v)
{
	if (b->big)
		v = __builtin_bswap64(v);
	memcpy(b->buf + at, &v, 8);
}

static void put_long(struct builder *b, size_t at, uint64_t v)
{
	if (b->klong == 8)
		put64(b, at, v);
	else
		put32(b, at, v);
}

static void hdr(struct builder *b, uint32_t type_len, uint32_t delta)
{
	put32(b, b->pos, b->big ? type_len << 27 | delta :
	      type_len | delta << 5);
	b->pos += 4;
}

/* Finish the current page: its commit and a stored missed count. */
static void close_page(struct builder *b, const struct item *page)
{
	size_t data = b->page + 8 + b->klong;
	uint64_t commit = b->pos - data;
	uint64_t flags;

	if (b->commit_override >= 0)
		commit = b->commit_override;
	flags = commit;
	if (page->b & MISSED)
		flags |= 1ULL << 31;
	if (page->b & STORED) {
		flags |= 1ULL << 30;
		if (data + commit + b->klong <= b->page + PAGE_SIZE)
			put_long(b, data + commit, page->c);
	}
	put_long(b, b->page + 8, flags);
	b->commit_override = -1;
}

static size_t build(struct builder *b, const struct item *items)
{
	const struct item *page = NULL;
	size_t end = 0;
	unsigned int i;
	uint32_t n;

	memset(b->buf, 0, b->len);
	b->commit_override = -1;
	for (i = 0; items[i].kind != END; i++) {
		const struct item *it = &items[i];

		switch (it->kind) {
		case PAGE:
			if (page)
				close_page(b, page);
			b->page = page ? b->page + PAGE_SIZE : 0;
			page = it;
			put64(b, b->page, it->a);
			b->pos = b->page + 8 + b->klong;
			end = b->page + PAGE_SIZE;
			break;
		case EV:
			hdr(b, it->b / 4, it->a);
			memset(b->buf + b->pos, 0x5a, it->b);
			b->pos += it->b;
			break;
		case EV0:
			hdr(b, 0, it->a);
			put32(b, b->pos, it->b + 4);
			b->pos += 4;
			n = (it->b + 3) & ~3u;
			memset(b->buf + b->pos, 0xa5, n);
			b->pos += n;
			break;
		case EXT:
		case ABS:
			hdr(b, it->kind == EXT ? 30 : 31,
			    it->a & ((1u << 27) - 1));
			put32(b, b->pos, it->a >> 27);
			b->pos += 4;
			break;
		case PAD:
			hdr(b, 29, it->a);
			put32(b, b->pos, it->b - 4);
			b->pos += it->b - 4;
			break;
		case NULLPAD:
			hdr(b, 29, 0);
			break;
		case RAW:
			put32(b, b->pos, it->a);
			b->pos += 4;
			break;
		case COMMIT:
			b->commit_override = it->a;
			break;
		case SHORT:
			end = b->page + it->b;
			break;
		case END:
			break;
		}
	}
	if (page)
		close_page(b, page);
	return end;
}

static void run_case(const struct page_case *c, bool big, int klong)
{
	static unsigned char buf[PAGE_SIZE * 8];
	struct builder b = { .buf = buf, .len = sizeof(buf), .big = big,
			     .klong = klong };
	struct lt_trace t;
	struct cpu_stream cs;
	unsigned int i;
	size_t len;
	int ret;

	memset(&t, 0, sizeof(t));
	len = build(&b, c->items);
	t.path = (char *)"page.dat";
	t.map = buf;
	t.size = len;
	/* plain data is read from the file, metadata from the mapping */
	t.fd = memfd_create("page.dat", MFD_CLOEXEC);
	CHECK(t.fd >= 0 && write(t.fd, buf, len) == (ssize_t)len);
	t.swap = big != (__BYTE_ORDER__ == __ORDER_BIG_ENDIAN__);
	t.info.big_endian = big;
	t.commit_size = klong;
	t.data_off = 8 + klong;
	t.page_size = PAGE_SIZE;
	t.sys_page = 4096;
	t.comp = LT_COMP_NONE;
	lt_trace_stream_init(&t, &cs, 3, 0, len);

	for (i = 0; i < 16; i++) {
		const struct out *o = &c->out[i];
		const struct rb_rec *r;

		ret = i ? stream_next(&t, &cs) : lt_trace_stream_fill(&t, &cs);
		if (o->kind == O_END) {
			CHECK(ret == 0);
			break;
		}
		if (o->kind == O_ERR) {
			CHECK(ret == -1);
			CHECK_U64(cs.err.code, o->val);
			CHECK(!strncmp(cs.err.msg, "page.dat: CPU 3 data: ", 22));
			/* A failed stream stays failed. */
			CHECK(stream_next(&t, &cs) == -1);
			break;
		}
		CHECK(ret == 1);
		if (ret != 1)
			break;
		r = stream_cur(&cs);
		CHECK_U64(r->ts, o->ts);
		if (o->kind == O_LOST) {
			CHECK(r->lost);
			CHECK_U64(r->nlost, o->val);
		} else {
			CHECK(!r->lost);
			CHECK_U64(r->size, o->val);
		}
	}
	lt_trace_stream_free(&t, &cs);
	lt_trace_stream_free_kept(&t);
	close(t.fd);
}

/*
 * The same pages handed in one at a time (lt_trace_pages, as a live
 * reader gets them): the same records, losses included, but a loss on a
 * page of no records comes at once, not added to the next page's (the
 * losses with no record between them are added up here, and stamped with
 * the record after them, as the stream does); damage stops the page it
 * is on (the test stops there).
 */
static void run_case_pages(const struct page_case *c, bool big, int klong)
{
	static unsigned char buf[PAGE_SIZE * 8];
	struct builder b = { .buf = buf, .len = sizeof(buf), .big = big,
			     .klong = klong };
	struct out got[32];
	struct lt_trace_pages *pages;
	struct lt_record rec;
	struct lt_error err;
	struct lt_trace t;
	unsigned int n = 0, i;
	size_t len, off = 0;
	bool failed = false;
	int ret;

	memset(&t, 0, sizeof(t));
	len = build(&b, c->items);
	t.path = (char *)"page.dat";
	t.swap = big != (__BYTE_ORDER__ == __ORDER_BIG_ENDIAN__);
	t.info.big_endian = big;
	t.commit_size = klong;
	t.data_off = 8 + klong;
	t.page_size = PAGE_SIZE;
	CHECK(lt_trace_pages_new(&t, 3, &pages, &err) == 0);
	while (n < 31) {
		ret = lt_trace_pages_next(pages, &rec, &err);
		if (!ret && off < len) {
			size_t sz = len - off < PAGE_SIZE ? len - off : PAGE_SIZE;

			ret = lt_trace_pages_load(pages, buf + off, sz, &err);
			off += sz;
			if (!ret)
				continue;
		}
		if (ret <= 0) {
			failed = ret < 0;
			break;
		}
		CHECK_U64(rec.cpu, 3);
		if (rec.kind == LT_REC_LOST && n && got[n - 1].kind == O_LOST) {
			got[n - 1].val = rec.lost < 0 || got[n - 1].val < 0 ? -1 :
					 got[n - 1].val + rec.lost;
			got[n - 1].ts = rec.ts;
			continue;
		}
		if (rec.kind != LT_REC_LOST && n && got[n - 1].kind == O_LOST)
			got[n - 1].ts = rec.ts;
		got[n].kind = rec.kind == LT_REC_LOST ? O_LOST : O_EV;
		got[n].ts = rec.ts;
		got[n++].val = rec.kind == LT_REC_LOST ? rec.lost : rec.size;
	}
	for (i = 0; i < 16; i++) {
		const struct out *o = &c->out[i];

		if (o->kind == O_END) {
			CHECK(!failed && n == i);
			break;
		}
		if (o->kind == O_ERR) {
			CHECK(failed && n == i);
			if (failed)
				CHECK_U64(err.code, o->val);
			break;
		}
		CHECK(i < n);
		if (i >= n)
			break;
		CHECK(got[i].kind == o->kind);
		CHECK_U64(got[i].ts, o->ts);
		CHECK_U64(got[i].val, o->val);
	}
	lt_trace_pages_free(pages);
}

int main(void)
{
	static const char *const order[] = { "little", "big" };
	char name[160];
	unsigned int i;
	int big, klong;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		for (big = 0; big < 2; big++) {
			for (klong = 4; klong <= 8; klong += 4) {
				snprintf(name, sizeof(name), "%s (%s, long %d)",
					 cases[i].name, order[big], klong);
				lt_test_case = name;
				run_case(&cases[i], big, klong);
				run_case_pages(&cases[i], big, klong);
			}
		}
	}
	return lt_test_done("tracedat/page");
}
