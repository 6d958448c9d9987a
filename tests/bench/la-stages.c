// SPDX-License-Identifier: GPL-2.0
/*
 * la-stages - latency-analyze's reading alone, on one thread: what each
 * stage costs above the floor (cat of the file), for the benchmark.
 *
 *   la-stages read|decode FILE
 *
 * read:   every record of a trace.dat (lt_trace_next(): the CPUs merged
 *         in time order) or a perf.data (lt_perf_next(): through the
 *         reorder queue), and nothing else;
 * decode: the same, each record decoded into the replay's event
 *         (lt_decode_record()), as latency-analyze does before replaying.
 *
 * Damage is counted and passed over (as --partial).  One line on stdout:
 *
 *   records <n> events <decoded> damaged <n>
 *
 * Exit status 0, or 2 when the file cannot be opened.
 */
#include <stdio.h>
#include <string.h>

#include "lt-decode.h"
#include "lt-input.h"
#include "lt-perf.h"
#include "lt-trace.h"

struct count {
	unsigned long long records, events, damaged;
};

static int run_trace(const char *path, bool decode, struct count *c)
{
	struct lt_decoder dec;
	struct lt_record rec;
	struct lt_error err;
	struct lt_trace *t;
	struct lt_ev ev;
	int ret;

	if (lt_trace_open(&t, path, &err) < 0) {
		fprintf(stderr, "la-stages: %s\n", err.msg);
		return 2;
	}
	if (decode && lt_decode_init(&dec, t, &err) < 0) {
		fprintf(stderr, "la-stages: %s\n", err.msg);
		lt_trace_close(t);
		return 2;
	}
	while ((ret = lt_trace_next(t, &rec, &err)) != 0) {
		if (ret < 0) {
			c->damaged++;
			continue;
		}
		c->records++;
		if (decode && lt_decode_record(&dec, &rec, &ev))
			c->events++;
	}
	if (decode)
		lt_decode_free(&dec);
	lt_trace_close(t);
	return 0;
}

static int run_perf(const char *path, bool decode, struct count *c)
{
	struct lt_perf_record rec;
	struct lt_decoder dec;
	struct lt_error err;
	struct lt_perf *p;
	struct lt_ev ev;
	int ret;

	if (lt_perf_open(&p, path, NULL, &err) < 0) {
		fprintf(stderr, "la-stages: %s\n", err.msg);
		return 2;
	}
	if (decode && (!lt_perf_trace(p) ||
		       lt_decode_init(&dec, lt_perf_trace(p), &err) < 0)) {
		fprintf(stderr, "la-stages: %s: no tracepoint formats to decode with\n",
			path);
		lt_perf_close(p);
		return 2;
	}
	while ((ret = lt_perf_next(p, &rec, &err)) != 0) {
		if (ret < 0) {
			c->damaged++;
			continue;
		}
		c->records++;
		if (decode && rec.kind == LT_PERF_SAMPLE &&
		    rec.sample.raw.size &&
		    lt_decode_record(&dec, &rec.sample.raw, &ev))
			c->events++;
	}
	if (decode)
		lt_decode_free(&dec);
	lt_perf_close(p);
	return 0;
}

int main(int argc, char **argv)
{
	enum lt_input_kind kind;
	struct count c = { 0, 0, 0 };
	struct lt_error err;
	bool decode;
	int ret;

	if (argc != 3 || (strcmp(argv[1], "read") && strcmp(argv[1], "decode"))) {
		fprintf(stderr, "usage: la-stages read|decode FILE\n");
		return 2;
	}
	decode = !strcmp(argv[1], "decode");
	if (lt_input_detect(argv[2], &kind, &err) < 0) {
		fprintf(stderr, "la-stages: %s\n", err.msg);
		return 2;
	}
	if (kind == LT_INPUT_PERF)
		ret = run_perf(argv[2], decode, &c);
	else if (kind == LT_INPUT_TRACEDAT)
		ret = run_trace(argv[2], decode, &c);
	else {
		fprintf(stderr, "la-stages: %s: a report, not a trace\n", argv[2]);
		return 2;
	}
	if (!ret)
		printf("records %llu events %llu damaged %llu\n", c.records,
		       c.events, c.damaged);
	return ret;
}
