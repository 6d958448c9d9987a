// SPDX-License-Identifier: GPL-2.0
/*
 * test-open.c - what the reader makes of whole files: header info,
 * options, kallsyms, cmdlines, CPU stats, event layouts and field values,
 * on the synthetic traces of tests/tracedat/data/ (*.trs) in every variant that
 * gen-traces.sh writes (v6/v7, both endians, 4/8-byte longs, zlib/zstd).
 *
 *   test-tracedat-open GEN_DIR
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lt-test.h"
#include "lt-trace.h"

static const char *gen_dir;

struct variant {
	int version;
	const char *endian;
	int long_size;
	const char *comp;
};

static const struct variant variants[] = {
	{ 6, "little", 4, "none" }, { 6, "little", 8, "none" },
	{ 6, "big", 4, "none" },    { 6, "big", 8, "none" },
	{ 7, "little", 4, "none" }, { 7, "little", 8, "none" },
	{ 7, "big", 4, "none" },    { 7, "big", 8, "none" },
	{ 7, "little", 4, "zlib" }, { 7, "little", 8, "zlib" },
	{ 7, "big", 4, "zlib" },    { 7, "big", 8, "zlib" },
	{ 7, "little", 4, "zstd" }, { 7, "little", 8, "zstd" },
};

static struct lt_trace *open_variant(const char *script,
				     const struct variant *v, char *path,
				     size_t size)
{
	struct lt_trace *t = NULL;
	struct lt_error err;

	snprintf(path, size, "%s/%s-v%d-%s-%d-%s.dat", gen_dir, script,
		 v->version, v->endian, v->long_size, v->comp);
	lt_test_case = path;
	if (access(path, R_OK))
		return NULL;	/* zstd copies need trace-cmd */
	if (lt_trace_open(&t, path, &err)) {
		fprintf(stderr, "%s\n", err.msg);
		CHECK(!"open failed");
		return NULL;
	}
	return t;
}

static int next_event(struct lt_trace *t, struct lt_record *rec)
{
	struct lt_error err;
	int ret = lt_trace_next(t, rec, &err);

	if (ret < 0)
		fprintf(stderr, "%s\n", err.msg);
	return ret;
}

static void check_str(struct lt_trace *t, const struct lt_record *rec,
		      const char *field, const char *want)
{
	struct lt_field f;
	const char *s;
	size_t len;

	CHECK(rec->type && lt_event_type_field(rec->type, field, &f) == 0);
	CHECK(lt_field_str(t, &f, rec, &s, &len) == 0);
	CHECK(len == strlen(want) && !memcmp(s, want, len));
}

static uint64_t get_u64(struct lt_trace *t, const struct lt_record *rec,
			const char *field)
{
	struct lt_field f;
	uint64_t v;

	CHECK(rec->type && lt_event_type_field(rec->type, field, &f) == 0);
	CHECK(lt_field_u64(t, &f, rec, &v) == 0);
	return v;
}

struct cmd_seen {
	int n;
	bool bash, prog;
};

static void cmdline_cb(void *ctx, int pid, const char *comm)
{
	struct cmd_seen *c = ctx;

	c->n++;
	c->bash |= pid == 42 && !strcmp(comm, "bash");
	c->prog |= pid == 43 && !strcmp(comm, "my prog");
}

/* basic.trs: every event kind; see the script for the records. */
static void test_basic(const struct variant *v)
{
	const uint64_t mask = v->long_size == 8 ? ~0ULL : 0xffffffffULL;
	const struct lt_trace_info *info;
	const struct lt_event_type *et;
	struct cmd_seen seen = { 0 };
	struct lt_record rec;
	struct lt_field f;
	char path[512];
	struct lt_trace *t;
	uint64_t off, val, done, total, elems[8];
	int64_t sval;
	int n = 0, lost = 0;

	t = open_variant("basic", v, path, sizeof(path));
	if (!t)
		return;
	info = lt_trace_info(t);
	CHECK_U64(info->version, v->version);
	CHECK_U64(info->big_endian, !strcmp(v->endian, "big"));
	/* trace-cmd convert writes its own long size; the kernel's stays */
	if (strcmp(v->comp, "zstd"))
		CHECK_U64(info->long_size, v->long_size);
	CHECK_U64(info->kernel_long_size, v->long_size);
	CHECK_U64(info->page_size, 4096);
	CHECK_STR(info->compression, v->version == 6 ? "none" : v->comp);
	CHECK_STR(info->uname, "Linux synth 6.1.0 x86_64");
	CHECK_STR(info->tracecmd_version, "3.1.6");
	CHECK_STR(info->clock, "local");
	CHECK_U64(info->cpus, 2);
	CHECK_U64(info->nr_buffers, 0);
	CHECK_U64(info->nr_event_types, 8);
	CHECK_STR(info->path, path);

	CHECK_U64(lt_trace_cpu_overrun(t, 0), 3);
	CHECK_U64(lt_trace_cpu_overrun(t, 1), 7);
	CHECK(lt_trace_cpu_overrun(t, 2) == -1);

	CHECK_U64(lt_trace_nr_ksyms(t), 4);
	CHECK_STR(lt_trace_ksym(t, 0xffffffff81000110ULL, &off), "schedule");
	CHECK_U64(off, 0x10);
	CHECK_STR(lt_trace_ksym(t, 0xffffffff81000200ULL, &off), "io_schedule");
	CHECK_U64(off, 0);
	CHECK_STR(lt_trace_ksym(t, 0xffffffffc0001010ULL, &off), "mod_fn");
	CHECK(lt_trace_ksym(t, 0xffffffff80000000ULL, &off) == NULL);

	lt_trace_for_each_cmdline(t, cmdline_cb, &seen);
	CHECK(seen.n == 6 && seen.bash && seen.prog);
	/* a pid saved twice: the later name */
	CHECK_STR(lt_trace_cmdline(t, 44), "new");
	CHECK_STR(lt_trace_cmdline(t, 42), "bash");
	CHECK_STR(lt_trace_cmdline(t, 43), "my prog");
	CHECK_STR(lt_trace_cmdline(t, 41), "first");
	CHECK(lt_trace_cmdline(t, 40) == NULL);
	CHECK(lt_trace_cmdline(t, 45) == NULL);
	/* cut to the kernel's 15 bytes: a hostile file cannot make it more */
	CHECK_STR(lt_trace_cmdline(t, 46), "averyveryverylo");
	CHECK(lt_trace_cmdline(t, -1) == NULL);

	et = lt_trace_find_event(t, "sched", "sched_switch");
	CHECK(et && lt_event_type_id(et) == 372);
	CHECK(et && lt_trace_event_by_id(t, 372) == et);
	CHECK(lt_trace_find_event(t, NULL, "kernel_stack") != NULL);
	CHECK(lt_trace_find_event(t, "sched", "nope") == NULL);
	CHECK(lt_trace_event_by_id(t, 65535) == NULL);

	while (next_event(t, &rec) > 0) {
		n++;
		if (rec.kind == LT_REC_LOST) {
			lost++;
			CHECK_U64(rec.cpu, 1);
			if (lost == 1) {
				CHECK_U64(rec.ts, 600);
				CHECK_U64(rec.lost, 25);
			} else {
				CHECK_U64(rec.ts, 1100);
				CHECK(rec.lost == -1);
			}
			continue;
		}
		CHECK(rec.type != NULL);
		if (!rec.type)
			continue;
		if (!strcmp(lt_event_type_name(rec.type), "sched_switch")) {
			CHECK_U64(rec.ts, 100);
			CHECK_U64(rec.cpu, 0);
			check_str(t, &rec, "prev_comm", "bash");
			check_str(t, &rec, "next_comm", "swapper/0");
			CHECK_U64(get_u64(t, &rec, "prev_pid"), 42);
			CHECK_U64(get_u64(t, &rec, "prev_state"), 1);
		} else if (!strcmp(lt_event_type_name(rec.type), "kernel_stack")) {
			CHECK(lt_event_type_field(rec.type, "caller", &f) == 0);
			CHECK_U64(lt_field_array_len(t, &f, &rec), 3);
			CHECK(lt_field_elem_u64(t, &f, &rec, 2, &val) == 0);
			CHECK_U64(val, 0xffffffffc0001010ULL & mask);
			CHECK(lt_field_elem_u64(t, &f, &rec, 3, &val) == -1);
			/* the bulk read: the same elements, bounded by @max */
			CHECK_U64(lt_field_elems_u64(t, &f, &rec, elems, 8), 3);
			CHECK_U64(elems[2], 0xffffffffc0001010ULL & mask);
			CHECK_U64(lt_field_elems_u64(t, &f, &rec, elems, 2), 2);
			CHECK_U64(get_u64(t, &rec, "size"), 3);
		} else if (!strcmp(lt_event_type_name(rec.type),
				   "latency_reason_set")) {
			CHECK_U64(rec.ts, 150);
			CHECK_U64(rec.cpu, 1);
			check_str(t, &rec, "reason", "Reading from a pipe");
			check_str(t, &rec, "argument", "");
			CHECK_U64(get_u64(t, &rec, "maxtime_us"), 5000);
			CHECK_U64(get_u64(t, &rec, "cookie"),
				  0xffff888001234560ULL & mask);
			CHECK_U64(get_u64(t, &rec, "common_pid"), 43);
		} else if (!strcmp(lt_event_type_name(rec.type),
				   "sched_process_exec")) {
			check_str(t, &rec, "filename", "/bin/true");
		} else if (!strcmp(lt_event_type_name(rec.type), "wide")) {
			CHECK(lt_event_type_field(rec.type, "a", &f) == 0);
			CHECK(lt_field_s64(t, &f, &rec, &sval) == 0);
			CHECK(sval == -5);
			CHECK_U64(get_u64(t, &rec, "b"), 0x1122334455667788ULL);
		} else if (!strcmp(lt_event_type_name(rec.type),
				   "sched_stat_sleep")) {
			CHECK_U64(get_u64(t, &rec, "delay"), 123456);
			CHECK_U64(get_u64(t, &rec, "pid"), 43);
		}
	}
	CHECK_U64(n, 18);
	CHECK_U64(lost, 2);
	lt_trace_progress(t, &done, &total);
	CHECK(total > 0 && done >= total - 8);
	lt_trace_close(t);
}

/* options.trs: OFFSET, DATE, TSC2NSEC, an instance, odd kallsyms/cmdlines. */
static void test_options(const struct variant *v)
{
	const struct lt_trace_info *info;
	struct cmd_seen seen = { 0 };
	struct lt_record rec;
	struct lt_trace *t;
	char path[512];
	uint64_t off;

	t = open_variant("options", v, path, sizeof(path));
	if (!t)
		return;
	info = lt_trace_info(t);
	CHECK_STR(info->clock, "x86-tsc");
	if (strcmp(v->comp, "zstd"))	/* convert drops empty instances */
		CHECK_U64(info->nr_buffers, 1);
	CHECK_U64(lt_trace_cpu_overrun(t, 0), 13);
	/* 100 * 3 >> 1, + OFFSET 1000000, + DATE 0x10 us */
	CHECK(next_event(t, &rec) == 1);
	CHECK_U64(rec.ts, 1016150);
	CHECK(next_event(t, &rec) == 1);
	CHECK_U64(rec.ts, 1016151);
	CHECK(next_event(t, &rec) == 0);
	/* only text and weak symbols with real addresses, one per address */
	CHECK_U64(lt_trace_nr_ksyms(t), 3);
	CHECK_STR(lt_trace_ksym(t, 0xffffffff81000000ULL, &off), "first");
	CHECK_STR(lt_trace_ksym(t, 0xffffffff81000025ULL, &off), "weak_fn");
	CHECK_U64(off, 0x15);
	CHECK_STR(lt_trace_ksym(t, ~0ULL, &off), "last");
	lt_trace_for_each_cmdline(t, cmdline_cb, &seen);
	CHECK_U64(seen.n, 1);
	lt_trace_close(t);
}

/* multi.trs: 16 CPUs, one empty; merged order with ties by CPU. */
static void test_multi(const struct variant *v)
{
	struct lt_record rec;
	struct lt_trace *t;
	uint64_t last_ts = 0;
	int last_cpu = -1, n = 0;
	char path[512];

	t = open_variant("multi", v, path, sizeof(path));
	if (!t)
		return;
	CHECK_U64(lt_trace_info(t)->cpus, 16);
	while (next_event(t, &rec) > 0) {
		CHECK(rec.ts > last_ts || (rec.ts == last_ts && rec.cpu > last_cpu));
		CHECK(rec.cpu != 5);
		last_ts = rec.ts;
		last_cpu = rec.cpu;
		n++;
	}
	CHECK_U64(n, 400 * 15);
	lt_trace_close(t);
}

/* bigev.trs: array[0] events, stacks longer than declared, char buf[]. */
static void test_bigev(const struct variant *v)
{
	struct lt_record rec;
	struct lt_trace *t;
	struct lt_field f;
	char path[512], want[32];
	const char *s;
	size_t len;
	uint64_t val, elems[64];
	int stacks = 0, prints = 0;

	t = open_variant("bigev", v, path, sizeof(path));
	if (!t)
		return;
	while (next_event(t, &rec) > 0) {
		if (!strcmp(lt_event_type_name(rec.type), "kernel_stack")) {
			CHECK(lt_event_type_field(rec.type, "caller", &f) == 0);
			CHECK_U64(lt_field_array_len(t, &f, &rec), 20);
			CHECK(lt_field_elem_u64(t, &f, &rec, 19, &val) == 0);
			CHECK_U64(val, 20);
			CHECK_U64(lt_field_elems_u64(t, &f, &rec, elems, 64), 20);
			CHECK_U64(elems[19], 20);
			stacks++;
		} else {
			CHECK(lt_event_type_field(rec.type, "buf", &f) == 0);
			CHECK(lt_field_str(t, &f, &rec, &s, &len) == 0);
			snprintf(want, sizeof(want), "hello %d", prints);
			CHECK(len == strlen(want) && !memcmp(s, want, len));
			prints++;
		}
	}
	CHECK_U64(stacks, 300);
	CHECK_U64(prints, 300);
	lt_trace_close(t);
}

int main(int argc, char **argv)
{
	unsigned int i;

	if (argc != 2) {
		fprintf(stderr, "usage: test-tracedat-open GEN_DIR\n");
		return 2;
	}
	gen_dir = argv[1];
	for (i = 0; i < sizeof(variants) / sizeof(variants[0]); i++) {
		test_basic(&variants[i]);
		test_options(&variants[i]);
		test_multi(&variants[i]);
		test_bigev(&variants[i]);
	}
	/*
	 * Formats in the map are read through a window: one too small for
	 * most texts (read from the map), then one they cross the end of.
	 */
	for (i = 0; i < sizeof(variants) / sizeof(variants[0]); i++) {
		setenv("LT_WINDOW_BYTES", "16", 1);
		test_basic(&variants[i]);
		setenv("LT_WINDOW_BYTES", "700", 1);
		test_basic(&variants[i]);
		test_multi(&variants[i]);
	}
	unsetenv("LT_WINDOW_BYTES");
	return lt_test_done("tracedat/open");
}
