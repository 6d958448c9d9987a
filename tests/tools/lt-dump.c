// SPDX-License-Identifier: GPL-2.0
/*
 * lt-dump - print every record of a trace.dat through our own reader.
 *
 *   lt-dump [--info] [--continue] [--quiet] [--bench] FILE
 *
 * One line per record, the same as tc-dump prints through libtracecmd so
 * the two can be diffed:
 *   <cpu> <ts> <id>(<system>:<name>) <size> <crc32 of the payload>
 *   <cpu> <ts> LOST <count, -1 if unknown>
 * A loss is printed where libtracecmd shows it, just before the next
 * record of its CPU (our reader returns it earlier, where the gap begins);
 * losses no record follows, at the end.
 * --info     first print what lt_trace_info() and the metadata say
 * --continue after an error on one CPU, keep reading the others
 * --quiet    no record lines (with --bench: a bare read loop)
 * --bench    time the read loop; ns/record on stderr
 * Exit status: 0, or latency-analyze's status for the error.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <zlib.h>

#include "latencytop.h"
#include "lt-trace.h"

static void print_info(struct lt_trace *t)
{
	const struct lt_trace_info *info = lt_trace_info(t);
	int cpu;

	printf("# version %d, %s endian, long %d, kernel long %d, page %u\n",
	       info->version, info->big_endian ? "big" : "little",
	       info->long_size, info->kernel_long_size, info->page_size);
	printf("# compression %s, clock \"%s\", cpus %d, buffers %u\n",
	       info->compression, info->clock, info->cpus, info->nr_buffers);
	printf("# uname \"%s\", trace-cmd \"%s\"\n", info->uname,
	       info->tracecmd_version);
	printf("# %u event types, %zu kernel symbols\n", info->nr_event_types,
	       lt_trace_nr_ksyms(t));
	for (cpu = 0; cpu < info->cpus; cpu++) {
		int64_t o = lt_trace_cpu_overrun(t, cpu);

		if (o >= 0)
			printf("# cpu %d overrun %lld\n", cpu, (long long)o);
	}
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	bool info = false, cont = false, quiet = false, bench = false;
	const char *path = NULL;
	struct lt_record rec;
	struct lt_error err;
	struct lt_trace *t;
	unsigned long long n = 0, sum = 0;
	struct lt_record *held;
	int status = 0, ret, i;
	double t0 = 0, t1 = 0;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--info"))
			info = true;
		else if (!strcmp(argv[i], "--continue"))
			cont = true;
		else if (!strcmp(argv[i], "--quiet"))
			quiet = true;
		else if (!strcmp(argv[i], "--bench"))
			bench = true;
		else if (argv[i][0] == '-' || path)
			goto usage;
		else
			path = argv[i];
	}
	if (!path)
		goto usage;

	if (bench)
		t0 = now();
	if (lt_trace_open(&t, path, &err)) {
		fprintf(stderr, "lt-dump: %s\n", err.msg);
		return lt_error_exit_status(err.code);
	}
	if (bench)
		t1 = now();
	if (info)
		print_info(t);
	held = calloc(LT_TRACE_CPU_LIMIT, sizeof(*held));
	if (!held) {
		fprintf(stderr, "lt-dump: out of memory\n");
		return 6;
	}
	for (;;) {
		ret = lt_trace_next(t, &rec, &err);
		if (ret == 0)
			break;
		if (ret < 0) {
			fprintf(stderr, "lt-dump: %s\n", err.msg);
			status = lt_error_exit_status(err.code);
			if (cont)
				continue;
			break;
		}
		n++;
		if (quiet) {
			/* Touch the record as a consumer would. */
			sum += rec.ts + rec.id + rec.size;
			continue;
		}
		if (rec.kind == LT_REC_LOST) {
			held[rec.cpu] = rec;
			continue;
		}
		if (held[rec.cpu].kind == LT_REC_LOST) {
			printf("%d %llu LOST %lld\n", rec.cpu,
			       (unsigned long long)held[rec.cpu].ts,
			       (long long)held[rec.cpu].lost);
			held[rec.cpu].kind = LT_REC_EVENT;
		}
		printf("%d %llu %u(%s:%s) %u %08lx\n", rec.cpu,
		       (unsigned long long)rec.ts, rec.id,
		       rec.type ? lt_event_type_system(rec.type) : "?",
		       rec.type ? lt_event_type_name(rec.type) : "?",
		       rec.size, crc32(0, rec.data, rec.size));
	}
	for (i = 0; i < LT_TRACE_CPU_LIMIT; i++)
		if (held[i].kind == LT_REC_LOST)
			printf("%d %llu LOST %lld\n", i,
			       (unsigned long long)held[i].ts,
			       (long long)held[i].lost);
	free(held);
	if (bench) {
		double el = now() - t0;

		fprintf(stderr, "lt-dump: %llu records in %.3f s: %.1f ns/record; open %.1f ms, loop %.1f ns/record (%llx)\n",
			n, el, n ? el * 1e9 / n : 0.0, (t1 - t0) * 1e3,
			n ? (now() - t1) * 1e9 / n : 0.0, sum & 0xf);
	}
	lt_trace_close(t);
	return status;
usage:
	fprintf(stderr, "usage: lt-dump [--info] [--continue] [--quiet] [--bench] FILE\n");
	return 1;
}
