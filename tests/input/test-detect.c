// SPDX-License-Identifier: GPL-2.0
/*
 * test-detect.c - a file known by its first bytes (lt_input_detect()), and
 * a trace.dat through the input interface: the same info the reader gives.
 *
 *   test-input-detect SAMPLE.dat
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lt-input.h"
#include "lt-test.h"

static char dir[] = "/tmp/lt-test-input.XXXXXX";

/* A file of @len bytes of @data, named @name in the test's directory. */
static const char *file(const char *name, const void *data, size_t len)
{
	static char path[256];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "wb");
	if (!f || fwrite(data, 1, len, f) != len) {
		perror(path);
		exit(1);
	}
	fclose(f);
	return path;
}

static void detect(const char *what, const char *path, int want_ret,
		   enum lt_input_kind want, enum lt_errcode code,
		   const char *says)
{
	enum lt_input_kind kind = (enum lt_input_kind)-1;
	struct lt_error err = { 0 };
	int ret = lt_input_detect(path, &kind, &err);

	lt_test_case = what;
	CHECK(ret == want_ret);
	if (!ret)
		CHECK(kind == want);
	else
		CHECK(err.code == code && strstr(err.msg, says));
}

int main(int argc, char **argv)
{
	static const unsigned char magic[] = {
		0x17, 0x08, 0x44, 't', 'r', 'a', 'c', 'i', 'n', 'g', '6', 0
	};
	const struct lt_trace_info *ti;
	struct lt_input *in;
	struct lt_error err;
	struct lt_trace *t;
	char cmd[128];

	if (argc != 2 || !mkdtemp(dir)) {
		fprintf(stderr, "usage: test-input-detect SAMPLE.dat\n");
		return 2;
	}
	detect("trace-cmd magic", file("a.dat", magic, sizeof(magic)), 0,
	       LT_INPUT_TRACEDAT, 0, NULL);
	detect("a saved report", file("r.json", "\n  {\"schema\": 1}", 15), 0,
	       LT_INPUT_REPORT, 0, NULL);
	/* the reader says what is wrong with these, in its own words */
	detect("empty", file("e.dat", "", 0), 0, LT_INPUT_TRACEDAT, 0, NULL);
	detect("cut in the magic", file("c.dat", magic, 5), 0,
	       LT_INPUT_TRACEDAT, 0, NULL);
	detect("missing", "/nonexistent/x.dat", 0, LT_INPUT_TRACEDAT, 0, NULL);
	detect("garbage", file("g.dat", "root:x:0:0:root:/root:/bin/sh\n", 30),
	       -1, 0, LT_E_NOT_TRACE,
	       "g.dat: not a trace.dat (no trace-cmd magic at offset 0), a "
	       "perf.data (no PERFILE2) nor a saved JSON report: it starts "
	       "72 6f 6f 74 3a 78 3a 30");

	/* through the interface, a trace.dat says what its reader says */
	lt_test_case = "trace.dat input";
	CHECK(lt_input_open(&in, argv[1], LT_INPUT_TRACEDAT, NULL, &err) == 0);
	CHECK(lt_trace_open(&t, argv[1], &err) == 0);
	if (in && t) {
		ti = lt_trace_info(t);
		CHECK_STR(in->info.format, "trace-cmd");
		CHECK_STR(in->info.path, ti->path);
		CHECK_U64(in->info.version, ti->version);
		CHECK_STR(in->info.compression, ti->compression);
		CHECK_U64(in->info.cpus, ti->cpus);
		CHECK(lt_input_formats(in) != NULL &&
		      lt_trace_find_event(lt_input_formats(in), "sched",
					  "sched_switch") != NULL);
		CHECK(lt_input_threads(in, 3) == 3);
		CHECK_U64(lt_input_cpu_overrun(in, 0), lt_trace_cpu_overrun(t, 0));
		lt_input_close(in);
		lt_trace_close(t);
	}
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd) != 0)
		perror("rm");
	return lt_test_done("input/detect");
}
