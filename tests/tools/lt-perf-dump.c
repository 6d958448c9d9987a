// SPDX-License-Identifier: GPL-2.0
/*
 * lt-perf-dump - print a perf.data through our reader (lt-perf.h).
 *
 *   lt-perf-dump [--info] [--all] [--chain] [--cgroup] [--stats] [--continue]
 *                [--queue BYTES] [--quiet] [--bench] FILE|-
 *
 * One line per sample, in the order the reader hands them out, the same
 * as perf-script-dump.py prints through `perf script -s`, so the two can
 * be diffed:
 *   <time ns> <cpu> <pid>/<tid> <event> <field>=<value> ...
 * A tracepoint's fields come from its format, common_* ones left out;
 * strings to their first NUL, numbers signed as the format says; a
 * control byte in a string as \xNN.
 * --chain    append " | 0x<ip>,..." : the callchain, kernel frames then
 *            user frames, context markers left out (when it has any)
 * --cgroup   append " cgroup=<id>" to a sample with a cgroup id
 * --all      also the other records: COMM, FORK, EXIT, MMAP, LOST,
 *            CGROUP
 * --info     first what the header and the feature sections say
 * --stats    last what reading counted
 * --continue go on after a damaged record (every error on stderr)
 * --queue N  the reorder queue's cap in bytes
 * --quiet    no record lines (with --bench: a bare read loop)
 * --bench    time the read loop; ns/record on stderr
 * Exit status: 0, or latency-analyze's status for the error.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "latencytop.h"
#include "lt-perf.h"
#include "lt-trace.h"

static bool opt_chain, opt_all, opt_cgroup;

/* @len bytes of @s (untrusted), control bytes as \xNN: one line stays one */
static void put(const char *s, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++) {
		unsigned char c = s[i];

		if (c < 0x20 || c == 0x7f || c == '\\')
			printf("\\x%02x", c);
		else
			putchar(c);
	}
}

static void puts_q(const char *s)
{
	putchar('"');
	put(s, strlen(s));
	putchar('"');
}

static void print_info(struct lt_perf *p)
{
	const struct lt_perf_info *in = lt_perf_info(p);
	unsigned int i;

	printf("# %s mode, %s endian, data 0x%" PRIx64 "+0x%" PRIx64 "\n",
	       in->pipe ? "pipe" : "file", in->big_endian ? "big" : "little",
	       in->data_offset, in->data_size);
	printf("# host ");
	puts_q(in->hostname);
	printf(", release ");
	puts_q(in->os_release);
	printf(", perf ");
	puts_q(in->perf_version);
	printf(", arch ");
	puts_q(in->arch);
	printf("\n# cpus online %d avail %d, desc ", in->nr_cpus_online,
	       in->nr_cpus_avail);
	puts_q(in->cpu_desc);
	printf(", cpuid ");
	puts_q(in->cpuid);
	printf(", mem %" PRIu64 " kB\n# cmdline ", in->total_mem_kb);
	puts_q(in->cmdline);
	printf("\n");
	printf("# clockid %d, res %" PRIu64 " ns, samples %" PRIu64 "..%" PRIu64 ", compression %s\n",
	       in->clockid, in->clock_res_ns, in->first_sample_ns,
	       in->last_sample_ns, in->compression);
	if (in->have_clock_data)
		printf("# clock data: tod %" PRIu64 " at %" PRIu64 "\n",
		       in->clock_tod_ns, in->clock_ref_ns);
	printf("# features %016" PRIx64 " %016" PRIx64 ", tracing data %s, %u event types\n",
	       in->features[0], in->features[1],
	       in->tracing_data ? "yes" : "no",
	       lt_perf_trace(p) ?
	       lt_trace_info(lt_perf_trace(p))->nr_event_types : 0);
	for (i = 0; i < lt_perf_nr_attrs(p); i++) {
		const struct lt_perf_attr *a = lt_perf_attr(p, i);

		printf("# event %u ", i);
		puts_q(a->name);
		printf(" type %u config %" PRIu64 " sample_type 0x%" PRIx64 " read_format 0x%" PRIx64 " flags 0x%" PRIx64 " ids %u%s\n",
		       a->type, a->config, a->sample_type,
		       a->read_format, a->flags, a->nr_ids,
		       a->sample_id_all ? " sample_id_all" : "");
	}
	for (i = 0; i < lt_perf_nr_build_ids(p); i++) {
		const struct lt_perf_build_id *b = lt_perf_build_id(p, i);
		unsigned int k;

		printf("# build-id pid %d mode %u ", b->pid, b->cpumode);
		for (k = 0; k < b->size; k++)
			printf("%02x", b->id[k]);
		putchar(' ');
		put(b->filename, strlen(b->filename));
		putchar('\n');
	}
}

static void print_stats(struct lt_perf *p)
{
	const struct lt_perf_stats *s = lt_perf_stats(p);

	printf("# records %" PRIu64 " samples %" PRIu64 " rounds %" PRIu64
	       " lost_records %" PRIu64 " lost_events %" PRIu64
	       " lost_samples %" PRIu64 " no_time %" PRIu64
	       " unordered %" PRIu64 " forced_flushes %" PRIu64
	       " skipped %" PRIu64 " unknown %" PRIu64 " damaged %" PRIu64
	       " bad_callchains %" PRIu64 " queue_peak %" PRIu64 "\n",
	       s->records, s->samples, s->rounds, s->lost_records,
	       s->lost_events, s->lost_samples, s->no_time, s->unordered,
	       s->forced_flushes, s->skipped, s->unknown, s->damaged,
	       s->bad_callchains, s->queue_peak);
}

static void print_fields(const struct lt_trace *t, const struct lt_record *raw)
{
	const char *name, *ctype, *s;
	struct lt_field f;
	unsigned int i;
	uint64_t u;
	int64_t v;
	size_t len;

	for (i = 0; (name = lt_event_type_field_at(raw->type, i, &f, &ctype));
	     i++) {
		if (!strncmp(name, "common_", 7))
			continue;
		if (f.flags & LT_FIELD_STRING) {
			lt_field_str(t, &f, raw, &s, &len);
			printf(" %s=", name);
			put(s, len);
		} else if (f.flags & (LT_FIELD_ARRAY | LT_FIELD_DYNAMIC)) {
			uint32_t n = lt_field_array_len(t, &f, raw), k;

			printf(" %s=[", name);
			for (k = 0; k < n; k++) {
				lt_field_elem_u64(t, &f, raw, k, &u);
				printf("%s%" PRIu64, k ? "," : "", u);
			}
			printf("]");
		} else if (f.flags & LT_FIELD_SIGNED) {
			lt_field_s64(t, &f, raw, &v);
			printf(" %s=%" PRId64, name, v);
		} else {
			lt_field_u64(t, &f, raw, &u);
			printf(" %s=%" PRIu64, name, u);
		}
	}
}

static void print_record(struct lt_perf *p, const struct lt_perf_record *r)
{
	const struct lt_trace *t = lt_perf_trace(p);
	uint32_t i;

	if (r->kind != LT_PERF_SAMPLE && !opt_all)
		return;
	printf("%" PRIu64 " %d %d/%d", r->ts, r->cpu, r->pid, r->tid);
	switch (r->kind) {
	case LT_PERF_SAMPLE:
		putchar(' ');
		if (r->attr->name[0])
			put(r->attr->name, strlen(r->attr->name));
		else
			putchar('?');
		if (r->sample.raw.type)
			print_fields(t, &r->sample.raw);
		else if (r->sample.raw.data)
			printf(" raw=%u", r->sample.raw.size);
		if (opt_cgroup && r->sample.cgroup)
			printf(" cgroup=%" PRIu64, r->sample.cgroup);
		if (opt_chain && r->sample.nr_kernel_frames +
				 r->sample.nr_user_frames) {
			printf(" |");
			for (i = 0; i < r->sample.nr_kernel_frames; i++)
				printf("%s0x%" PRIx64, i ? "," : " ",
				       r->sample.kernel_frames[i]);
			for (i = 0; i < r->sample.nr_user_frames; i++)
				printf("%s0x%" PRIx64,
				       i || r->sample.nr_kernel_frames ? "," : " ",
				       r->sample.user_frames[i]);
		}
		break;
	case LT_PERF_COMM:
		printf(" COMM ");
		put(r->comm.comm, r->comm.len);
		printf("%s", r->comm.exec ? " exec" : "");
		break;
	case LT_PERF_FORK:
	case LT_PERF_EXIT:
		printf(" %s %d/%d", r->kind == LT_PERF_FORK ? "FORK" : "EXIT",
		       r->task.ppid, r->task.ptid);
		break;
	case LT_PERF_MMAP:
		printf(" %s 0x%" PRIx64 "+0x%" PRIx64 " @0x%" PRIx64 " ",
		       r->mmap.mmap2 ? "MMAP2" : "MMAP", r->mmap.addr,
		       r->mmap.len, r->mmap.pgoff);
		put(r->mmap.filename, r->mmap.filename_len);
		break;
	case LT_PERF_LOST:
		printf(" %s %" PRIu64, r->lost.samples ? "LOST_SAMPLES" : "LOST",
		       r->lost.count);
		break;
	case LT_PERF_CGROUP:
		printf(" CGROUP %" PRIu64 " ", r->cgroup.id);
		put(r->cgroup.path, r->cgroup.path_len);
		break;
	}
	printf("%s\n", r->late ? " LATE" : "");
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	bool info = false, stats = false, cont = false, quiet = false;
	bool bench = false;
	struct lt_perf_options opts = { 0 };
	unsigned long long n = 0, sum = 0;
	struct lt_perf_record rec;
	const char *path = NULL;
	struct lt_error err;
	struct lt_perf *p;
	double t0 = 0, t1 = 0;
	int status = 0, ret, i;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--info"))
			info = true;
		else if (!strcmp(argv[i], "--all"))
			opt_all = true;
		else if (!strcmp(argv[i], "--chain"))
			opt_chain = true;
		else if (!strcmp(argv[i], "--cgroup"))
			opt_cgroup = true;
		else if (!strcmp(argv[i], "--stats"))
			stats = true;
		else if (!strcmp(argv[i], "--continue"))
			cont = true;
		else if (!strcmp(argv[i], "--quiet"))
			quiet = true;
		else if (!strcmp(argv[i], "--bench"))
			bench = true;
		else if (!strcmp(argv[i], "--queue") && i + 1 < argc)
			opts.queue_bytes = strtoull(argv[++i], NULL, 0);
		else if ((argv[i][0] == '-' && argv[i][1]) || path)
			goto usage;
		else
			path = argv[i];
	}
	if (!path)
		goto usage;

	if (bench)
		t0 = now();
	if (lt_perf_open(&p, path, &opts, &err)) {
		fprintf(stderr, "lt-perf-dump: %s\n", err.msg);
		return lt_error_exit_status(err.code);
	}
	if (bench)
		t1 = now();
	if (info)
		print_info(p);
	for (;;) {
		ret = lt_perf_next(p, &rec, &err);
		if (ret == 0)
			break;
		if (ret < 0) {
			fprintf(stderr, "lt-perf-dump: %s\n", err.msg);
			status = lt_error_exit_status(err.code);
			if (cont)
				continue;
			break;
		}
		n++;
		if (quiet) {
			/* touch the record as a consumer would */
			sum += rec.ts + rec.cpu + rec.sample.raw.size;
			continue;
		}
		print_record(p, &rec);
	}
	if (stats)
		print_stats(p);
	if (bench) {
		double el = now() - t0;

		fprintf(stderr, "lt-perf-dump: %llu records in %.3f s: %.1f ns/record; open %.1f ms (%llx)\n",
			n, el, n ? el * 1e9 / n : 0.0, (t1 - t0) * 1e3,
			sum & 0xf);
	}
	lt_perf_close(p);
	return status;
usage:
	fprintf(stderr, "usage: lt-perf-dump [--info] [--all] [--chain] [--stats] [--continue] [--queue BYTES] [--quiet] [--bench] FILE|-\n");
	return 1;
}
