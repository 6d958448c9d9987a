// SPDX-License-Identifier: GPL-2.0
/*
 * test-trans.c - translation tables: parsing, priorities, ties, merging,
 * and the errors a malformed line gets.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lt-trans.h"
#include "lt-test.h"

static void load(struct lt_trans *tr, const char *name, const char *text)
{
	struct lt_error err = { 0 };

	if (lt_trans_load_buffer(tr, name, text, strlen(text), &err) < 0) {
		fprintf(stderr, "unexpected error: %s\n", err.msg);
		lt_test_failures++;
	}
}

static const char *explain(struct lt_trans *tr, const char *const *f,
			   unsigned int n, enum lt_cause_kind *kind)
{
	static char buf[128];

	return lt_trans_explain(tr, f, n, kind, buf, sizeof(buf));
}

static void test_priorities(void)
{
	static const char table[] =
		"# comment\n"
		"\n"
		"1\tvfs_read\t\tReading from file\n"
		"5\tanon_pipe_read\tReading from a pipe\n"
		"5\tpipe_read\tReading from a pipe (old)\n"
		"3   do_fsync   fsync() on a file  \r\n"
		"3\tfile_write_and_wait_range\tWaiting for writeback\n";
	const char *pipe[] = { "schedule", "anon_pipe_read", "vfs_read", "ksys_read" };
	const char *tie[] = { "file_write_and_wait_range", "do_fsync", "x64_sys_call" };
	const char *none[] = { "schedule", "io_schedule", "folio_wait_bit", "mystery" };
	const char *only_sched[] = { "schedule", "io_schedule" };
	enum lt_cause_kind kind;
	struct lt_trans tr;
	unsigned int prio;

	lt_test_case = "priorities";
	CHECK(lt_trans_init(&tr) == 0);
	load(&tr, "skip", "");
	{
		struct lt_error err;
		static const char skip[] = "schedule\nio_schedule\n# x\n";

		CHECK(lt_trans_load_skip_buffer(&tr, "skip", skip, strlen(skip),
						&err) == 0);
	}
	load(&tr, "table", table);
	CHECK_STR(lt_trans_lookup(&tr, "do_fsync", &prio), "fsync() on a file");
	CHECK_U64(prio, 3);
	/* the highest priority frame wins over the outer, generic one */
	CHECK_STR(explain(&tr, pipe, 4, &kind), "Reading from a pipe");
	CHECK(kind == LT_CAUSE_TRANSLATED);
	/* equal priorities: the outer frame wins */
	CHECK_STR(explain(&tr, tie, 3, &kind), "fsync() on a file");
	/* no match: the innermost frame that is not a scheduler frame */
	CHECK_STR(explain(&tr, none, 4, &kind), "[folio_wait_bit]");
	CHECK(kind == LT_CAUSE_FUNCTION);
	CHECK_STR(explain(&tr, only_sched, 2, &kind), "[schedule]");
	{
		/* tracer frames above __schedule, clone suffixes, other arches */
		const char *traced[] = { "__traceiter_sched_switch", "__schedule",
					 "schedule", "do_fsync.isra.0", "x64_sys_call" };
		const char *arm[] = { "schedule", "mystery", "__arm64_sys_fdatasync" };
		const char *cut[] = { "ftrace_stack", "__schedule", "schedule",
				      "wait_woken.part.0", "el0_svc" };

		CHECK_STR(explain(&tr, traced, 5, &kind), "fsync() on a file");
		load(&tr, "arch", "4\t__x64_sys_fdatasync\tfdatasync() on a file\n");
		CHECK_STR(explain(&tr, arm, 3, &kind), "fdatasync() on a file");
		CHECK_STR(explain(&tr, cut, 5, &kind), "[wait_woken.part.0]");
	}
	lt_trans_free(&tr);
}

static void test_merge(void)
{
	const char *f[] = { "anon_pipe_read" };
	enum lt_cause_kind kind;
	struct lt_trans tr;
	unsigned int prio;

	lt_test_case = "merge";
	CHECK(lt_trans_init(&tr) == 0);
	load(&tr, "first", "5\tanon_pipe_read\tReading from a pipe\n"
			   "2\tvfs_write\tWriting\n");
	/* a later table overrides both text and priority */
	load(&tr, "second", "9\tanon_pipe_read\tPipe read (site table)\n");
	CHECK_STR(lt_trans_lookup(&tr, "anon_pipe_read", &prio),
		  "Pipe read (site table)");
	CHECK_U64(prio, 9);
	CHECK_STR(lt_trans_lookup(&tr, "vfs_write", NULL), "Writing");
	CHECK_STR(explain(&tr, f, 1, &kind), "Pipe read (site table)");
	CHECK_U64(tr.nr_entries, 2);
	lt_trans_free(&tr);
}

static void test_errors(void)
{
	static const struct {
		const char *text;
		const char *msg;	/* expected error message */
	} cases[] = {
		{ "1\tok\tfine\nx\tfunc\ttext\n",
		  "bad.trans:2: expected \"priority<TAB>function<TAB>text\", priority is not a number" },
		{ "\n\n7\n", "bad.trans:3: expected a tab after the priority" },
		{ "7\t\n", "bad.trans:1: expected a tab after the priority" },
		{ "7\tfunc\n", "bad.trans:1: missing text after the function name 'func'" },
		{ "7\tfunc\t\t\n", "bad.trans:1: missing text after the function name 'func'" },
		{ "5\t\tText\n", "bad.trans:1: missing text after the function name 'Text'" },
		{ "99999999\tf\tt\n", "bad.trans:1: priority is out of range" },
	};
	struct lt_error err;
	struct lt_trans tr;
	size_t i;

	lt_test_case = "malformed lines";
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		CHECK(lt_trans_init(&tr) == 0);
		memset(&err, 0, sizeof(err));
		CHECK(lt_trans_load_buffer(&tr, "bad.trans", cases[i].text,
					   strlen(cases[i].text), &err) < 0);
		CHECK(err.code == LT_E_TABLE);
		CHECK_STR(err.msg, cases[i].msg);
		lt_trans_free(&tr);
	}

	CHECK(lt_trans_init(&tr) == 0);
	CHECK(lt_trans_load_buffer(&tr, "nul.trans", "1\tf\tt\0x\n", 8, &err) < 0);
	CHECK_STR(err.msg, "nul.trans:1: contains a NUL byte");
	CHECK(lt_trans_load_file(&tr, "/nonexistent/x.trans", &err) < 0);
	CHECK(err.code == LT_E_IO);	/* exit 2, as for a missing trace */
	CHECK(strstr(err.msg, "/nonexistent/x.trans: cannot open") == err.msg);
	CHECK(lt_trans_load_skip_buffer(&tr, "s", "two words\n", 10, &err) < 0);
	CHECK_STR(err.msg, "s:1: expected one function name per line");
	lt_trans_free(&tr);
}

/* Tables saved on other systems: a byte order mark, CR and CR LF ends. */
static void test_line_ends(void)
{
	static const char bom_crlf[] =
		"\xef\xbb\xbf# made elsewhere\r\n"
		"4\tdo_fsync\tfsync() on a file\r\n"
		"\r\n"
		"2\tvfs_read\tReading from file\r\n";
	static const char cr[] =
		"4\tdo_fsync\tfsync() on a file\r"
		"2\tvfs_read\tReading from file\r"
		"x\tf\tt\r";
	static const char skip[] = "\xef\xbb\xbfschedule\rio_schedule\r\n";
	struct lt_error err = { 0 };
	struct lt_trans tr;
	unsigned int prio;

	lt_test_case = "line ends";
	CHECK(lt_trans_init(&tr) == 0);
	load(&tr, "crlf.trans", bom_crlf);
	CHECK_U64(tr.nr_entries, 2);
	CHECK_STR(lt_trans_lookup(&tr, "do_fsync", &prio), "fsync() on a file");
	CHECK_U64(prio, 4);
	CHECK_STR(lt_trans_lookup(&tr, "vfs_read", &prio), "Reading from file");
	CHECK(lt_trans_load_skip_buffer(&tr, "skip", skip, strlen(skip),
					&err) == 0);
	CHECK(lt_trans_skipped(&tr, "schedule"));
	CHECK(lt_trans_skipped(&tr, "io_schedule"));
	lt_trans_free(&tr);

	/* each CR ends a line: the third one is the bad one */
	CHECK(lt_trans_init(&tr) == 0);
	CHECK(lt_trans_load_buffer(&tr, "cr.trans", cr, strlen(cr), &err) < 0);
	CHECK_STR(err.msg, "cr.trans:3: expected \"priority<TAB>function<TAB>text\", priority is not a number");
	lt_trans_free(&tr);
}

/* The built-in table is well formed and knows today's pipe reads. */
static void test_builtin(void)
{
	struct lt_error err = { 0 };
	struct lt_trans tr;

	lt_test_case = "built-in tables";
	CHECK(lt_trans_init(&tr) == 0);
	CHECK(lt_trans_load_buffer(&tr, "builtin", lt_builtin_trans,
				   lt_builtin_trans_len, &err) == 0);
	CHECK(lt_trans_load_skip_buffer(&tr, "builtin skip", lt_builtin_skip,
					lt_builtin_skip_len, &err) == 0);
	CHECK(tr.nr_entries >= 50);
	CHECK(lt_trans_skipped(&tr, "__schedule"));
	CHECK(lt_trans_lookup(&tr, "anon_pipe_read", NULL) ||
	      lt_trans_lookup(&tr, "pipe_read", NULL));
	lt_trans_free(&tr);
}

int main(void)
{
	test_priorities();
	test_merge();
	test_errors();
	test_line_ends();
	test_builtin();
	return lt_test_done("decode/trans");
}
