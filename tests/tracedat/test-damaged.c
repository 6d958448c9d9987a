// SPDX-License-Identifier: GPL-2.0
/*
 * test-damaged.c - damaged files give the right error, never a crash.
 *
 * Each case takes a synthetic trace (tests/tracedat/data/, written by
 * gen-traces.sh with a map of where everything is), damages it at a named
 * place (overwrite some bytes, or cut the file there), then opens and
 * reads it.  The first error must have the expected code, a message that
 * starts with the file's path and says what is wrong.
 *
 *   test-tracedat-damaged GEN_DIR
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lt-test.h"
#include "lt-trace.h"

static const char *gen_dir;

enum op {
	CUT,		/* cut the file at the place */
	PUT,		/* overwrite bytes there */
	PUT16,		/* a value in the file's byte order (little) */
	PUT32,
	PUT64,
	PUT64_AT,	/* the offset of another place, as u64 */
};

struct bad_case {
	const char *name;
	const char *file;	/* basename in GEN_DIR, without .dat */
	const char *place;	/* map name; "" = offset 0 */
	long delta;		/* bytes from the start (negative: from its end) */
	enum op op;
	const char *bytes;	/* PUT */
	uint64_t value;		/* PUT16/32/64 */
	const char *other;	/* PUT64_AT: the place whose offset is written */
	enum lt_errcode code;
	const char *says;	/* in the message */
};

#define V6 "basic-v6-little-8-none"
#define V7 "basic-v7-little-8-none"
#define V7Z "basic-v7-little-8-zlib"
/* v7 header: magic 10, "7\0", endian, long, page size 4, "none\0\0" */
#define V7_OPT_PTR (10 + 2 + 2 + 4 + 6)

static const struct bad_case cases[] = {
	/* the header */
	{ "empty file", V6, "", 0, CUT, .code = LT_E_NOT_TRACE,
	  .says = "empty file" },
	{ "cut in the magic", V6, "", 5, CUT, .code = LT_E_NOT_TRACE,
	  .says = "no trace-cmd magic" },
	{ "32 bytes of a trace", V6, "", 32, CUT, .code = LT_E_TRUNCATED,
	  .says = "the file ends" },
	{ "version 9", V6, "", 10, PUT, "9", .code = LT_E_VERSION,
	  .says = "version 9" },
	{ "version not a number", V6, "", 10, PUT, "x", .code = LT_E_NOT_TRACE,
	  .says = "bad version string" },
	{ "long size 3", V6, "", 13, PUT, "\x03", .code = LT_E_CORRUPT,
	  .says = "long size 3" },
	{ "page size 0", V6, "", 14, PUT32, .value = 0,
	  .code = LT_E_CORRUPT, .says = "page size 0" },
	{ "page size not a power of two", V6, "", 14, PUT32, .value = 5000,
	  .code = LT_E_CORRUPT, .says = "page size 5000" },

	/* v6 metadata */
	{ "header_page tag", V6, "header_info", 0, PUT, "X",
	  .code = LT_E_CORRUPT, .says = "expected \"header_page\"" },
	{ "header_page size huge", V6, "header_info", 12, PUT64,
	  .value = 1ULL << 40, .code = LT_E_TRUNCATED, .says = "header_page needs" },
	{ "ftrace format count", V6, "ftrace_events", 0, PUT32,
	  .value = 0xffffffff, .code = LT_E_CORRUPT, .says = "impossible" },
	{ "event system count", V6, "event_formats", 0, PUT32,
	  .value = 100000, .code = LT_E_CORRUPT, .says = "impossible" },
	/* a count within the limits, with the file cut after it */
	{ "cut after the ftrace format count", V6, "ftrace_events", 4, CUT,
	  .code = LT_E_TRUNCATED,
	  .says = "ftrace format count 1 needs 12 bytes, the file ends after 4" },
	{ "event system count past the section", V7, "section.EVENT_FORMATS",
	  16, PUT32, .value = 60000, .code = LT_E_CORRUPT,
	  .says = "event system count 60000 needs 300004 bytes, only" },
	{ "format size past the end", V6, "format.sched", 0, PUT64,
	  .value = 1ULL << 19, .code = LT_E_TRUNCATED,
	  .says = "event format needs" },
	{ "kallsyms size 0xffffffff", V6, "kallsyms", 0, PUT32,
	  .value = 0xffffffff, .code = LT_E_TRUNCATED, .says = "kallsyms needs" },
	{ "kallsyms cut", V6, "kallsyms", 20, CUT, .code = LT_E_TRUNCATED,
	  .says = "kallsyms" },
	{ "cmdlines size huge", V6, "cmdlines", 0, PUT64,
	  .value = 1ULL << 62, .code = LT_E_TRUNCATED, .says = "saved cmdlines needs" },
	{ "CPU count 5000", V6, "cpu_count", 0, PUT32, .value = 5000,
	  .code = LT_E_LIMIT, .says = "5000 CPUs" },
	{ "CPU count larger than the table", V6, "cpu_count", 0, PUT32,
	  .value = 4000, .code = LT_E_TRUNCATED, .says = "CPU table" },
	{ "options tag", V6, "options", 0, PUT, "XXXXXXXXX",
	  .code = LT_E_CORRUPT, .says = "expected \"flyrecord\"" },
	{ "latency trace", V6, "options", 0, PUT, "latency  ",
	  .code = LT_E_VERSION, .says = "latency (text) trace" },
	{ "option size past the end", V6, "option.2", 2, PUT32,
	  .value = 0xffffff00, .code = LT_E_TRUNCATED, .says = "option needs" },
	{ "CPU data past the end", V6, "flyrecord", 0, PUT64,
	  .value = 1ULL << 40, .code = LT_E_TRUNCATED,
	  .says = "CPU 0 data: the file ends at offset" },

	/* v6 CPU data: the file opens, reading stops at the damage */
	{ "file cut in a page", V6, "cpu0.page0", 100, CUT,
	  .code = LT_E_TRUNCATED, .says = "CPU 0 data: page at offset" },
	{ "file cut between pages", V6, "cpu1.page1", 0, CUT,
	  .code = LT_E_TRUNCATED, .says = ", inside its CPU data (0x" },
	{ "file cut before a CPU's data", V6, "cpu1.page0", 0, CUT,
	  .code = LT_E_TRUNCATED,
	  .says = "CPU 1 data: the file ends at offset 0x5000, before its CPU data (0x5000.." },
	{ "commit larger than the page", V6, "cpu0.page0", 8, PUT64,
	  .value = 5000, .code = LT_E_CORRUPT,
	  .says = "CPU 0 data: page at offset 0x" },
	{ "event length past the commit", V6, "cpu1.page0", 16, PUT64,
	  .value = 0x7fffffff00000000ULL, .code = LT_E_CORRUPT, .says = "runs past the commit" },

	/* v7 sections and options */
	{ "no options section", V7, "", V7_OPT_PTR, PUT64, .value = 0,
	  .code = LT_E_CORRUPT, .says = "no options section" },
	{ "options past the end", V7, "", V7_OPT_PTR, PUT64,
	  .value = 1ULL << 40, .code = LT_E_TRUNCATED,
	  .says = "options section at offset 0x10000000000" },
	{ "options sections in a loop", V7, "options2", -8, PUT64_AT,
	  .other = "options1", .code = LT_E_CORRUPT, .says = "loop" },
	{ "options section id", V7, "options1", 0, PUT16, .value = 7,
	  .code = LT_E_CORRUPT, .says = "section id is 7" },
	{ "option size past the section", V7, "options1", 18, PUT32,
	  .value = 1 << 30, .code = LT_E_CORRUPT,
	  .says = "runs past the end of the section" },
	{ "no HEADER_INFO", V7, "options1", 16, PUT16, .value = 99,
	  .code = LT_E_CORRUPT, .says = "no HEADER_INFO" },
	{ "section id", V7, "section.EVENT_FORMATS", 0, PUT16, .value = 3,
	  .code = LT_E_CORRUPT, .says = "section id is 3, expected 18" },
	{ "section size past the end", V7, "section.KALLSYMS", 8, PUT64,
	  .value = 1ULL << 40, .code = LT_E_TRUNCATED, .says = "section size" },
	{ "compression lz4", V7, "", 18, PUT, "lz4\0", .code = LT_E_COMPRESSION,
	  .says = "\"lz4\" is not supported" },
	{ "cut before the second options section", V7, "options2", 0, CUT,
	  .code = LT_E_TRUNCATED, .says = "options section" },
	{ "BUFFER CPU count", V7, "options2", 16 + 6 + 8 + 1 + 6 + 4, PUT32,
	  .value = 5000, .code = LT_E_LIMIT, .says = "5000 CPUs" },
	{ "BUFFER CPU count beyond the option", V7, "options2",
	  16 + 6 + 8 + 1 + 6 + 4, PUT32, .value = 100,
	  .code = LT_E_CORRUPT, .says = "does not fit" },

	/* v7 compressed */
	{ "compressed section garbage", V7Z, "section.EVENT_FORMATS", 26, PUT,
	  "garbage!", .code = LT_E_CORRUPT, .says = "do not decompress" },
	{ "compressed section too big", V7Z, "section.EVENT_FORMATS", 20,
	  PUT32, .value = 0xfffffff0, .code = LT_E_LIMIT,
	  .says = "over the limit" },
	{ "compressed size beyond the section", V7Z, "section.KALLSYMS", 16,
	  PUT32, .value = 0x7fffffff, .code = LT_E_CORRUPT,
	  .says = "larger than the section" },
	{ "kallsyms section garbage", V7Z, "section.KALLSYMS", 26, PUT,
	  "garbage!", .code = LT_E_CORRUPT, .says = "KALLSYMS section" },
	{ "kallsyms section id", V7, "section.KALLSYMS", 0, PUT16, .value = 5,
	  .code = LT_E_CORRUPT, .says = "section id is 5, expected 19" },
	{ "chunk count", V7Z, "cpu0.data", 0, PUT32, .value = 0xffffffff,
	  .code = LT_E_CORRUPT, .says = "cannot fit in the file" },
	{ "chunk uncompressed size", V7Z, "cpu0.data", 8, PUT32,
	  .value = 0x7fffffff, .code = LT_E_LIMIT, .says = "claims" },
	{ "chunk past the end", V7Z, "cpu0.data", 4, PUT32,
	  .value = 0x7fffffff, .code = LT_E_TRUNCATED,
	  .says = "runs past the end of the file" },
	{ "chunk garbage", V7Z, "cpu1.data", 14, PUT, "garbage!",
	  .code = LT_E_CORRUPT, .says = "do not decompress" },
};

static char map_name[4096][64];
static uint64_t map_off[4096], map_size[4096];
static unsigned int map_len;

static int load_map(const char *base)
{
	char path[512], name[64];
	unsigned long long off, size;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s.map", gen_dir, base);
	f = fopen(path, "r");
	if (!f)
		return -1;
	map_len = 0;
	while (map_len < 4096 &&
	       fscanf(f, "%63s %llu %llu", name, &off, &size) == 3) {
		strcpy(map_name[map_len], name);
		map_off[map_len] = off;
		map_size[map_len++] = size;
	}
	fclose(f);
	return 0;
}

static int find_place(const char *place, uint64_t *off, uint64_t *size)
{
	unsigned int i;

	if (!*place) {
		*off = 0;
		*size = 0;
		return 0;
	}
	for (i = 0; i < map_len; i++) {
		if (!strcmp(map_name[i], place)) {
			*off = map_off[i];
			*size = map_size[i];
			return 0;
		}
	}
	return -1;
}

static unsigned char *read_file(const char *path, size_t *len)
{
	unsigned char *buf;
	struct stat st;
	FILE *f = fopen(path, "rb");

	if (!f || fstat(fileno(f), &st)) {
		if (f)
			fclose(f);
		return NULL;
	}
	buf = malloc(st.st_size + 64);
	*len = fread(buf, 1, st.st_size, f);
	fclose(f);
	return buf;
}

/* Open and read everything; the first error, or LT_E_OK. */
static enum lt_errcode read_all(const char *path, struct lt_error *err)
{
	struct lt_record rec;
	struct lt_trace *t;
	int ret;

	memset(err, 0, sizeof(*err));
	if (lt_trace_open(&t, path, err))
		return err->code;
	/* kallsyms are parsed on demand, as an analysis of stacks does */
	if (lt_trace_load_ksyms(t, err)) {
		lt_trace_close(t);
		return err->code;
	}
	while ((ret = lt_trace_next(t, &rec, err)) > 0)
		;
	lt_trace_close(t);
	return ret < 0 ? err->code : LT_E_OK;
}

static void run_case(const struct bad_case *c, const char *out)
{
	char path[512];
	unsigned char *buf;
	uint64_t off, size, v;
	struct lt_error err;
	size_t len, n;
	FILE *f;

	lt_test_case = c->name;
	snprintf(path, sizeof(path), "%s/%s.dat", gen_dir, c->file);
	if (load_map(c->file) || !(buf = read_file(path, &len))) {
		CHECK(!"no synthetic trace (built by the target tracedat-traces)");
		return;
	}
	if (find_place(c->place, &off, &size)) {
		CHECK(!"no such place in the map");
		free(buf);
		return;
	}
	off = c->delta < 0 ? off + size + c->delta : off + c->delta;
	switch (c->op) {
	case CUT:
		len = off;
		break;
	case PUT:
		n = strlen(c->bytes);
		if (!n)
			n = 1;
		if (!strcmp(c->bytes, "lz4"))
			n = 4;
		memcpy(buf + off, c->bytes, n);
		break;
	case PUT16:
		buf[off] = c->value;
		buf[off + 1] = c->value >> 8;
		break;
	case PUT32:
	case PUT64:
	case PUT64_AT:
		v = c->value;
		if (c->op == PUT64_AT && find_place(c->other, &v, &size))
			CHECK(!"no such other place");
		for (n = 0; n < (c->op == PUT32 ? 4u : 8u); n++)
			buf[off + n] = v >> (8 * n);
		break;
	}
	f = fopen(out, "wb");
	fwrite(buf, 1, len, f);
	fclose(f);
	free(buf);

	CHECK_U64(read_all(out, &err), c->code);
	CHECK(!strncmp(err.msg, out, strlen(out)) &&
	      !strncmp(err.msg + strlen(out), ": ", 2));
	CHECK(strstr(err.msg, c->says) != NULL);
	CHECK(!strchr(err.msg, '\n'));
	if (lt_test_failures)
		fprintf(stderr, "  message: %s\n", err.msg);
}

/* Things that are not trace files at all. */
static void test_not_files(const char *out)
{
	struct lt_error err;
	FILE *f;

	lt_test_case = "missing file";
	CHECK_U64(read_all("/nonexistent/trace.dat", &err), LT_E_IO);
	CHECK(strstr(err.msg, "/nonexistent/trace.dat: cannot open") != NULL);

	lt_test_case = "a directory";
	CHECK_U64(read_all(gen_dir, &err), LT_E_IO);
	CHECK(strstr(err.msg, "not a regular file") != NULL);

	lt_test_case = "text";
	f = fopen(out, "w");
	fputs("hello, world\n", f);
	fclose(f);
	CHECK_U64(read_all(out, &err), LT_E_NOT_TRACE);
}

int main(int argc, char **argv)
{
	char out[512];
	unsigned int i;

	if (argc != 2) {
		fprintf(stderr, "usage: test-tracedat-damaged GEN_DIR\n");
		return 2;
	}
	gen_dir = argv[1];
	snprintf(out, sizeof(out), "%s/damaged.dat", gen_dir);
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		run_case(&cases[i], out);
	test_not_files(out);
	unlink(out);
	return lt_test_done("tracedat/damaged");
}
