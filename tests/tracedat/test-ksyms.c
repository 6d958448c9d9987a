// SPDX-License-Identifier: GPL-2.0
/*
 * test-ksyms.c - kallsyms parsed in pieces, and compressed KALLSYMS
 * sections read with and without the helper thread.
 *
 * The pieces must give exactly the table the whole text gives, wherever
 * they cut it.  On the sample trace (5 MB of zstd-compressed kallsyms)
 * and a zlib one (run-ksyms-test.sh: 40,000 symbols, 1.7 MB), both
 * enough for the helper to start, helper or not must give one table, and
 * a section that decompresses to more or less than it claims must fail,
 * after some pieces were parsed, with no symbols left behind.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lt-test.h"
#include "tracedat-local.h"

/* A kallsyms text with what real ones hold, and a few oddities. */
static char *make_text(size_t *len)
{
	static const char types[] = "tTtTdDbBrRwWt";
	size_t cap = 1 << 20, n = 0, i;
	char *s = malloc(cap);
	uint64_t addr = 0xffffffff81000000ULL;

	for (i = 0; i < 20000; i++) {
		char type = types[i % (sizeof(types) - 1)];

		addr += (i * 7919) % 301;
		if (i % 997 == 0)
			addr -= 5000;	/* out of order: sorted after */
		if (i % 1009 == 0)
			n += snprintf(s + n, cap - n, "%016llx %c dup_of_%zu\n",
				      (unsigned long long)addr, type, i - 1);
		if (i % 1013 == 0)
			n += snprintf(s + n, cap - n, "%016llx t mod_fn_%zu\t[mod_%zu]\n",
				      (unsigned long long)addr, i, i % 7);
		else if (i % 211 == 0)
			n += snprintf(s + n, cap - n, "0000000000000000 T hidden_%zu\n", i);
		else if (i % 307 == 0)
			n += snprintf(s + n, cap - n, "%016llx T crlf_%zu\r\n",
				      (unsigned long long)addr, i);
		else if (i % 401 == 0)
			n += snprintf(s + n, cap - n, "garbage line %zu\n", i);
		else
			n += snprintf(s + n, cap - n, "%016llx %c sym_%zu_%.*s\n",
				      (unsigned long long)addr, type, i,
				      (int)(i % 40), "abcdefghijklmnopqrstuvwxyz0123456789ABCD");
		if (i == 12345) {
			/* a data symbol's line longer than the piece buffer */
			n += snprintf(s + n, cap - n, "%016llx d ",
				      (unsigned long long)addr);
			memset(s + n, 'x', 3000);
			n += 3000;
			s[n++] = '\n';
		}
	}
	/* the last line without its newline */
	n += snprintf(s + n, cap - n, "%016llx T the_last",
		      (unsigned long long)addr + 64);
	*len = n;
	return s;
}

static void trace_init(struct lt_trace *t)
{
	memset(t, 0, sizeof(*t));
	t->path = "test";
}

static void same_table(const struct lt_trace *a, const struct lt_trace *b)
{
	size_t i;

	CHECK_U64(b->nr_ksyms, a->nr_ksyms);
	if (a->nr_ksyms != b->nr_ksyms)
		return;
	for (i = 0; i < a->nr_ksyms; i++) {
		if (a->ksyms[i].addr != b->ksyms[i].addr ||
		    strcmp(a->ksym_names + a->ksyms[i].name,
			   b->ksym_names + b->ksyms[i].name)) {
			fprintf(stderr, "[%s] symbol %zu differs: %s vs %s\n",
				lt_test_case, i, a->ksym_names + a->ksyms[i].name,
				b->ksym_names + b->ksyms[i].name);
			lt_test_failures++;
			return;
		}
	}
}

static void test_pieces(void)
{
	static const size_t sizes[] = { 1, 2, 3, 7, 16, 17, 100, 1023, 1024,
					1025, 4096, 65536 };
	struct lt_trace whole, cut;
	struct lt_error err;
	struct ksym_parse kp;
	size_t len, i, off, n;
	char name[64];
	char *text = make_text(&len);

	lt_test_case = "whole";
	trace_init(&whole);
	CHECK(lt_trace_parse_kallsyms(&whole, &err, text, len) == 0);
	/* sym_ and crlf_ lines of t/T/w/W, mod_fn_ of any type */
	CHECK(whole.nr_ksyms > 8000 && whole.nr_ksyms < 12000);
	CHECK_STR(lt_trace_ksym(&whole, whole.ksyms[whole.nr_ksyms - 1].addr,
				NULL), "the_last");
	for (i = 1; i < whole.nr_ksyms; i++)
		CHECK(whole.ksyms[i - 1].addr < whole.ksyms[i].addr);

	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		snprintf(name, sizeof(name), "pieces of %zu", sizes[i]);
		lt_test_case = name;
		trace_init(&cut);
		CHECK(lt_trace_ksym_parse_begin(&cut, &err, &kp, len) == 0);
		for (off = 0; off < len; off += n) {
			n = len - off < sizes[i] ? len - off : sizes[i];
			CHECK(lt_trace_ksym_parse_feed(&cut, &err, &kp, text + off, n) == 0);
		}
		CHECK(lt_trace_ksym_parse_end(&cut, &err, &kp) == 0);
		same_table(&whole, &cut);
		lt_trace_ksym_free(&cut);
	}
	lt_trace_ksym_free(&whole);
	free(text);
}

/*
 * The kernel's own symbols in order, then modules' out of order: the
 * table is in address order, and of two names at one address the first
 * listed wins, even when the second comes in the unsorted tail.
 */
static void test_order(void)
{
	static const char text[] =
		"ffffffff81000000 T a\n"
		"ffffffff81000010 T b\n"
		"ffffffff81000020 T c\n"
		"ffffffffc0001000 t m1\t[mod]\n"
		"ffffffff81000010 t b_again\t[mod2]\n"
		"ffffffff81000018 t between\t[mod2]\n"
		"ffffffffc0000000 t m0\t[mod]\n"
		"ffffffff80000000 T low\n";
	static const char *const want[] = { "low", "a", "b", "between", "c",
					    "m0", "m1" };
	struct lt_trace t;
	struct lt_error err;
	size_t i;

	lt_test_case = "order";
	trace_init(&t);
	CHECK(lt_trace_parse_kallsyms(&t, &err, text, sizeof(text) - 1) == 0);
	CHECK_U64(t.nr_ksyms, 7);
	for (i = 0; i < t.nr_ksyms && i < 7; i++)
		CHECK_STR(t.ksym_names + t.ksyms[i].name, want[i]);
	CHECK_STR(lt_trace_ksym(&t, 0xffffffff81000014ULL, NULL), "b");
	CHECK_STR(lt_trace_ksym(&t, 0xffffffff8100001cULL, NULL), "between");
	CHECK_STR(lt_trace_ksym(&t, 0xffffffffc0000fffULL, NULL), "m0");
	lt_trace_ksym_free(&t);
}

/* The sample's table read alone, to compare with. */
static struct lt_trace *open_sample(const char *path, bool helper)
{
	struct lt_error err;
	struct lt_trace *t;

	if (lt_trace_open(&t, path, &err)) {
		fprintf(stderr, "[%s] %s\n", lt_test_case, err.msg);
		lt_test_failures++;
		return NULL;
	}
	lt_trace_set_helper(t, helper);
	return t;
}

static void test_sample(const char *path, size_t want)
{
	struct lt_trace *alone, *helped;
	struct lt_error err;

	lt_test_case = path;
	alone = open_sample(path, false);
	if (!alone)
		return;
	CHECK(lt_trace_load_ksyms(alone, &err) == 0);
	/* a kernel's worth, so that the helper starts (1 MB and more) */
	CHECK(alone->ksym_names_size > (1u << 20));
	if (want)
		CHECK_U64(alone->nr_ksyms, want);
	else
		CHECK(alone->nr_ksyms > 20000);
	lt_test_case = "helped";
	helped = open_sample(path, true);
	if (helped) {
		CHECK(lt_trace_load_ksyms(helped, &err) == 0);
		same_table(alone, helped);
		lt_trace_close(helped);
	}
	lt_trace_close(alone);
}

/* Section header (16 bytes), then compressed and uncompressed sizes. */
#define SIZES_AT	16

static void test_damage(const char *path, const char *tmp)
{
	static const struct {
		const char *name;
		int at;		/* 0: compressed size, 4: uncompressed */
		int64_t add;
	} cases[] = {
		{ "frame cut short", 0, -1000 },
		{ "a byte more than it holds", 4, 1 },
		{ "a byte less than it holds", 4, -1 },
	};
	struct lt_trace *t;
	struct lt_error err;
	unsigned char *buf;
	char name[128];
	uint32_t v;
	uint64_t at;
	size_t len, i;
	FILE *f;
	int helper;

	f = fopen(path, "rb");
	if (!f || fseek(f, 0, SEEK_END)) {
		CHECK(!"cannot read the sample");
		return;
	}
	len = (size_t)ftell(f);
	rewind(f);
	buf = malloc(len);
	CHECK(buf && fread(buf, 1, len, f) == len);
	fclose(f);
	lt_test_case = "damage";
	t = open_sample(path, false);
	if (!t) {
		free(buf);
		return;
	}
	at = t->ksym_sec + SIZES_AT;
	lt_trace_close(t);
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		for (helper = 0; helper < 2; helper++) {
			snprintf(name, sizeof(name), "%s%s", cases[i].name,
				 helper ? ", helped" : "");
			lt_test_case = name;
			memcpy(&v, buf + at + cases[i].at, 4);
			v = (uint32_t)(v + cases[i].add);
			memcpy(buf + at + cases[i].at, &v, 4);
			f = fopen(tmp, "wb");
			CHECK(f && fwrite(buf, 1, len, f) == len);
			fclose(f);
			v = (uint32_t)(v - cases[i].add);
			memcpy(buf + at + cases[i].at, &v, 4);

			t = open_sample(tmp, helper);
			if (!t)
				continue;
			CHECK(lt_trace_load_ksyms(t, &err) < 0);
			CHECK_U64(err.code, LT_E_CORRUPT);
			CHECK(strstr(err.msg, "KALLSYMS section") &&
			      strstr(err.msg, "do not decompress"));
			/* nothing of what was parsed before the damage */
			CHECK_U64(lt_trace_nr_ksyms(t), 0);
			CHECK(lt_trace_ksym(t, 0xffffffff81000000ULL, NULL) == NULL);
			lt_trace_close(t);
		}
	}
	remove(tmp);
	free(buf);
}

/* A file's kallsyms in place of the trace's (as perf.data needs them). */
static void test_file(const char *sample, const char *dir)
{
	char path[4200];
	struct lt_trace *t;
	struct lt_error err;
	FILE *f;

	lt_test_case = "kallsyms from a file";
	t = open_sample(sample, false);
	if (!t)
		return;
	snprintf(path, sizeof(path), "%s/kallsyms.txt", dir);
	f = fopen(path, "w");
	CHECK(f != NULL);
	if (!f)
		return;
	fputs("ffffffffa0000000 T first_fn\n"
	      "ffffffffa0000100 t second_fn\t[a_module]\n"
	      "ffffffffa0000040 T between_fn\n", f);
	fclose(f);
	CHECK(lt_trace_load_kallsyms_file(t, path, &err) == 0);
	CHECK_U64(lt_trace_nr_ksyms(t), 3);
	CHECK_STR(lt_trace_ksym(t, 0xffffffffa0000010ULL, NULL), "first_fn");
	CHECK_STR(lt_trace_ksym(t, 0xffffffffa0000050ULL, NULL), "between_fn");
	CHECK_STR(lt_trace_ksym(t, 0xffffffffa0000200ULL, NULL), "second_fn");
	CHECK(lt_trace_ksym(t, 0xffffffff81000000ULL, NULL) == NULL);

	lt_test_case = "kallsyms file with hidden addresses";
	f = fopen(path, "w");
	if (f) {
		fputs("0000000000000000 T a\n0000000000000000 T b\n", f);
		fclose(f);
	}
	CHECK(lt_trace_load_kallsyms_file(t, path, &err) == -1);
	CHECK(err.code == LT_E_IO && strstr(err.msg, "kallsyms.txt: every address reads 0"));
	/* the symbols loaded before stay */
	CHECK_U64(lt_trace_nr_ksyms(t), 3);

	lt_test_case = "kallsyms file missing";
	CHECK(lt_trace_load_kallsyms_file(t, "/nonexistent/kallsyms", &err) == -1);
	CHECK(err.code == LT_E_IO &&
	      !strcmp(err.msg, "/nonexistent/kallsyms: cannot open: No such file or directory"));
	lt_trace_close(t);
	remove(path);
}

int main(int argc, char **argv)
{
	char tmp[4096];

	struct lt_trace *t;
	struct lt_error err;

	if (argc != 4) {
		fprintf(stderr, "usage: test-tracedat-ksyms ZSTD.dat ZLIB.dat TMPDIR\n");
		return 2;
	}
	snprintf(tmp, sizeof(tmp), "%s/test-ksyms.dat", argv[3]);
	test_pieces();
	test_order();
	test_sample(argv[1], 0);
	test_damage(argv[1], tmp);
	test_sample(argv[2], 40000);
	test_damage(argv[2], tmp);
	/*
	 * Pieces of 1000 bytes: zstd has read all its input while blocks
	 * decoded from it still come out, a piece at a time.
	 */
	setenv("LT_PIECE_BYTES", "1000", 1);
	test_sample(argv[1], 0);
	test_sample(argv[2], 40000);
	unsetenv("LT_PIECE_BYTES");
	/* the zlib trace's symbols, helped, where run-ksyms-test.sh put them */
	lt_test_case = "zlib symbols";
	t = open_sample(argv[2], true);
	if (t) {
		CHECK(lt_trace_load_ksyms(t, &err) == 0);
		CHECK_STR(lt_trace_ksym(t, 0xffffffff81000000ULL + 123 * 48 + 5,
					NULL), "sym_123_xxxxxxxx");
		CHECK_STR(lt_trace_ksym(t, 0xffffffff81000000ULL + 39999 * 48,
					NULL), "sym_39999_xx");
		lt_trace_close(t);
	}
	test_file(argv[2], argv[3]);
	return lt_test_done("tracedat/ksyms");
}
