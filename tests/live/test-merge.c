// SPDX-License-Identifier: GPL-2.0
/*
 * test-merge.c - the live merge against the file reader.
 *
 * Each trace.dat given (v6, uncompressed: its CPU data is the kernel's
 * pages as they were read) is read twice: by lt_trace_next(), and by
 * handing its pages to lt_live_merge as per-CPU readers would, in a
 * random order of CPUs, a few pages at a time, each CPU's watermark
 * moved to the last record it has handed over, with the consumer
 * running now and then and taking a random number of records.  Every
 * order must give the same records in the same order: events, and lost
 * events where their gaps begin.
 */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>

#include "lt-live-merge.h"
#include "lt-test.h"
#include "tracedat-local.h"

struct rec {
	enum lt_record_kind kind;
	int cpu;
	uint64_t ts;
	uint32_t size;
	int64_t lost;
	uint64_t hash;
};

struct seq {
	struct rec *r;
	size_t n, cap;
};

static uint64_t fnv(const unsigned char *p, size_t n)
{
	uint64_t h = 0xcbf29ce484222325ULL;

	while (n--)
		h = (h ^ *p++) * 0x100000001b3ULL;
	return h;
}

static int add(void *ctx, const struct lt_record *rec)
{
	struct seq *s = ctx;
	struct rec *r;

	if (s->n == s->cap) {
		s->cap = s->cap ? s->cap * 2 : 1024;
		s->r = realloc(s->r, s->cap * sizeof(*s->r));
		if (!s->r)
			abort();
	}
	r = &s->r[s->n++];
	r->kind = rec->kind;
	r->cpu = rec->cpu;
	r->ts = rec->kind == LT_REC_EVENT ? rec->ts : 0;
	r->size = rec->kind == LT_REC_EVENT ? rec->size : 0;
	r->lost = rec->kind == LT_REC_LOST ? rec->lost : 0;
	r->hash = rec->kind == LT_REC_EVENT ? fnv(rec->data, rec->size) : 0;
	return 0;
}

/* One CPU's pages, and the last event stamp of each (0: none). */
struct cpu_pages {
	int cpu;
	const unsigned char *data;
	size_t size, nr, next;
	uint64_t *last_ts;
};

static void page_stamps(struct lt_trace *t, struct cpu_pages *cp)
{
	struct lt_trace_pages *pg;
	struct lt_error err;
	struct lt_record rec;
	size_t i;

	cp->nr = (cp->size + t->page_size - 1) / t->page_size;
	cp->last_ts = calloc(cp->nr ? cp->nr : 1, sizeof(*cp->last_ts));
	CHECK(lt_trace_pages_new(t, cp->cpu, &pg, &err) == 0);
	for (i = 0; i < cp->nr; i++) {
		size_t len = cp->size - i * t->page_size;

		if (len > t->page_size)
			len = t->page_size;
		if (lt_trace_pages_load(pg, cp->data + i * t->page_size, len,
					&err) < 0)
			continue;
		while (lt_trace_pages_next(pg, &rec, &err) > 0)
			if (rec.kind == LT_REC_EVENT)
				cp->last_ts[i] = rec.ts;
	}
	lt_trace_pages_free(pg);
}

static int check_same(const struct seq *want, const struct seq *got,
		      const char *how)
{
	size_t i;

	CHECK_U64(got->n, want->n);
	for (i = 0; i < want->n && i < got->n; i++) {
		const struct rec *a = &want->r[i], *b = &got->r[i];

		if (a->kind != b->kind || a->cpu != b->cpu || a->ts != b->ts ||
		    a->size != b->size || a->hash != b->hash ||
		    a->lost != b->lost) {
			fprintf(stderr, "[%s] %s: record %zu differs: want %s cpu %d "
				"ts %" PRIu64 " (lost %" PRId64 "), got %s cpu %d ts %"
				PRIu64 " (lost %" PRId64 ")\n", lt_test_case, how, i,
				a->kind == LT_REC_LOST ? "LOST" : "event", a->cpu,
				a->ts, a->lost,
				b->kind == LT_REC_LOST ? "LOST" : "event", b->cpu,
				b->ts, b->lost);
			lt_test_failures++;
			return -1;
		}
	}
	return 0;
}

static void one_order(struct lt_trace *t, struct cpu_pages *cp, int nstreams,
		      int cpus, unsigned int seed, const struct seq *want)
{
	struct lt_live_merge *m;
	struct lt_live_merge_stats st;
	struct lt_error err;
	struct seq got = { 0 };
	char how[64];
	int i, left;

	snprintf(how, sizeof(how), "seed %u", seed);
	srand(seed);
	CHECK(lt_live_merge_new(cpus, 0, &m, &err) == 0);
	if (!m)
		return;
	CHECK(lt_live_merge_layout(m, t, t->page_size, &err) == 0);
	for (i = 0; i < nstreams; i++)
		cp[i].next = 0;
	for (;;) {
		left = 0;
		for (i = 0; i < nstreams; i++)
			left += cp[i].next < cp[i].nr;
		if (!left)
			break;
		if (rand() % 3) {
			struct cpu_pages *c;
			size_t k, n;

			do
				c = &cp[rand() % nstreams];
			while (c->next >= c->nr);
			n = 1 + (size_t)rand() % 3;
			if (n > c->nr - c->next)
				n = c->nr - c->next;
			size_t off = c->next * t->page_size;
			size_t len = n * t->page_size;

			if (off + len > c->size)
				len = c->size - off;
			CHECK(lt_live_merge_pages(m, c->cpu, c->data + off, len) == 0);
			c->next += n;
			/* the mark: the last stamp handed over */
			for (k = c->next; k-- > 0;)
				if (c->last_ts[k]) {
					lt_live_merge_drained(m, c->cpu, c->last_ts[k]);
					break;
				}
		} else {
			CHECK(lt_live_merge_run(m, 0, false, 1 + rand() % 500,
						add, &got, &err) >= 0);
		}
	}
	CHECK(lt_live_merge_run(m, 0, true, 0, add, &got, &err) >= 0);
	check_same(want, &got, how);
	lt_live_merge_stats(m, &st);
	CHECK_U64(st.late, 0);
	CHECK_U64(st.queued, 0);
	CHECK_U64(st.records, got.n);
	lt_live_merge_free(m);
	free(got.r);
}

static void one_trace(const char *path)
{
	struct lt_trace *t;
	struct lt_error err;
	struct lt_record rec;
	struct seq want = { 0 };
	struct cpu_pages *cp;
	int i, n, cpus = 0, ret;
	unsigned int seed;

	lt_test_case = path;
	if (lt_trace_open(&t, path, &err) < 0) {
		fprintf(stderr, "%s\n", err.msg);
		lt_test_failures++;
		return;
	}
	CHECK(t->comp == LT_COMP_NONE);
	n = (int)lt_trace_nr_streams(t);
	cp = calloc((size_t)n, sizeof(*cp));
	for (i = 0; i < n; i++) {
		cp[i].cpu = lt_trace_stream_cpu(t, (unsigned int)i);
		cp[i].data = t->map + t->streams[i].data_off;
		cp[i].size = t->streams[i].data_size;
		if (cp[i].cpu + 1 > cpus)
			cpus = cp[i].cpu + 1;
		page_stamps(t, &cp[i]);
	}
	while ((ret = lt_trace_next(t, &rec, &err)) > 0)
		add(&want, &rec);
	CHECK(ret == 0);
	printf("%s: %zu records on %d CPUs\n", path, want.n, n);
	for (seed = 1; seed <= 20; seed++)
		one_order(t, cp, n, cpus, seed, &want);
	for (i = 0; i < n; i++)
		free(cp[i].last_ts);
	free(cp);
	free(want.r);
	lt_trace_close(t);
}

int main(int argc, char **argv)
{
	int i;

	if (argc < 2) {
		fprintf(stderr, "usage: test-live-merge TRACE.dat...\n");
		return 2;
	}
	for (i = 1; i < argc; i++)
		one_trace(argv[i]);
	return lt_test_done("live/merge");
}
