// SPDX-License-Identifier: GPL-2.0
/*
 * test-format.c - event format and header_page texts, as the kernel
 * writes them (and as it wrote them in older versions), parsed into field
 * layouts.  No file needed.
 */
#include <stdlib.h>
#include <string.h>

#include "lt-test.h"
#include "tracedat-local.h"

#define COMMON								\
	"format:\n"							\
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n" \
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n" \
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n" \
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"

struct want_field {
	const char *name;
	uint32_t offset, size, elem, flags;
};

static const struct format_case {
	const char *name;
	const char *system;
	int klong;
	const char *text;
	int id;			/* -1: the text must be refused */
	const char *ev_name;
	const char *print_fmt;
	struct want_field fields[12];
} format_cases[] = {
	{ "sched_switch 6.x", "sched", 8,
	  "name: sched_switch\nID: 372\n" COMMON
	  "\tfield:char prev_comm[16];\toffset:8;\tsize:16;\tsigned:0;\n"
	  "\tfield:pid_t prev_pid;\toffset:24;\tsize:4;\tsigned:1;\n"
	  "\tfield:long prev_state;\toffset:32;\tsize:8;\tsigned:1;\n"
	  "\nprint fmt: \"prev_comm=%s\", REC->prev_comm\n",
	  372, "sched_switch", "\"prev_comm=%s\", REC->prev_comm",
	  { { "common_type", 0, 2, 2, 0 },
	    { "common_pid", 4, 4, 4, LT_FIELD_SIGNED },
	    { "prev_comm", 8, 16, 1, LT_FIELD_ARRAY | LT_FIELD_STRING },
	    { "prev_pid", 24, 4, 4, LT_FIELD_SIGNED },
	    { "prev_state", 32, 8, 8, LT_FIELD_SIGNED | LT_FIELD_LAST } } },
	{ "data_loc and rel_loc strings", "latencytop", 8,
	  "name: latency_reason_set\nID: 1000\n" COMMON
	  "\tfield:__data_loc char[] reason;\toffset:8;\tsize:4;\tsigned:0;\n"
	  "\tfield:__rel_loc char[] argument;\toffset:12;\tsize:4;\tsigned:0;\n"
	  "\tfield:u32 maxtime_us;\toffset:16;\tsize:4;\tsigned:0;\n"
	  "\tfield:unsigned long cookie;\toffset:24;\tsize:8;\tsigned:0;\n"
	  "\nprint fmt: \"reason=%s\", __get_str(reason)\n",
	  1000, "latency_reason_set", "\"reason=%s\", __get_str(reason)",
	  { { "reason", 8, 4, 1,
	      LT_FIELD_DYNAMIC | LT_FIELD_STRING },
	    { "argument", 12, 4, 1,
	      LT_FIELD_DYNAMIC | LT_FIELD_RELLOC | LT_FIELD_STRING },
	    { "maxtime_us", 16, 4, 4, 0 },
	    { "cookie", 24, 8, 8, LT_FIELD_LAST } } },
	{ "kernel_stack, 32-bit", "ftrace", 4,
	  "name: kernel_stack\nID: 4\n" COMMON
	  "\tfield:int size;\toffset:8;\tsize:4;\tsigned:1;\n"
	  "\tfield:unsigned long caller[8];\toffset:12;\tsize:32;\tsigned:0;\n"
	  "\nprint fmt: \"\\t=> %ps\\n\", (void *)REC->caller[0]\n",
	  4, "kernel_stack", NULL,
	  { { "size", 8, 4, 4, LT_FIELD_SIGNED },
	    { "caller", 12, 32, 4, LT_FIELD_ARRAY | LT_FIELD_LAST } } },
	{ "ftrace print: char buf[] of size 0", "ftrace", 8,
	  "name: print\nID: 5\n" COMMON
	  "\tfield:unsigned long ip;\toffset:8;\tsize:8;\tsigned:0;\n"
	  "\tfield:char buf[];\toffset:16;\tsize:0;\tsigned:0;\n"
	  "\nprint fmt: \"%ps: %s\", (void *)REC->ip, REC->buf\n",
	  5, "print", NULL,
	  { { "ip", 8, 8, 8, 0 },
	    { "buf", 16, 0, 1,
	      LT_FIELD_ARRAY | LT_FIELD_STRING | LT_FIELD_LAST } } },
	{ "old kernel: no signed:, symbolic array length, special", "sched", 4,
	  "name: sched_wakeup\nID: 45\nformat:\n"
	  "\tfield:unsigned short common_type;\toffset:0;\tsize:2;\n"
	  "\tfield special:char comm[TASK_COMM_LEN];\toffset:8;\tsize:16;\n"
	  "\tfield:pid_t pid;\toffset:24;\tsize:4;\n"
	  "\nprint fmt: \"task %s:%d\", REC->comm, REC->pid\n",
	  45, "sched_wakeup", NULL,
	  { { "common_type", 0, 2, 2, 0 },
	    { "comm", 8, 16, 1, LT_FIELD_ARRAY | LT_FIELD_STRING },
	    { "pid", 24, 4, 4, LT_FIELD_LAST } } },
	{ "dynamic array of longs, unsigned char array", "x", 8,
	  "name: x\nID: 7\n" COMMON
	  "\tfield:__data_loc unsigned long[] stack;\toffset:8;\tsize:4;\tsigned:0;\n"
	  "\tfield:unsigned char mac[6];\toffset:12;\tsize:6;\tsigned:0;\n"
	  "\nprint fmt: \"\"\n",
	  7, "x", "\"\"",
	  { { "stack", 8, 4, 8, LT_FIELD_DYNAMIC },
	    { "mac", 12, 6, 1, LT_FIELD_ARRAY | LT_FIELD_LAST } } },
	{ "a bad field line is skipped, the rest kept", "x", 8,
	  "name: y\nID: 8\n" COMMON
	  "\tfield:int ;\toffset:8;\tsize:4;\tsigned:1;\n"
	  "\tfield:int huge;\toffset:4294967200;\tsize:4;\tsigned:1;\n"
	  "\tfield:int ok;\toffset:8;\tsize:4;\tsigned:1;\n",
	  8, "y", "",
	  { { "ok", 8, 4, 4, LT_FIELD_SIGNED | LT_FIELD_LAST } } },
	{ "name and ID, then no fields: known by name, none to read", "x", 8,
	  "name: w\nID: 9\n\x01\x02garbage\n", 9, "w", "", { { NULL } } },
	{ "no ID", "x", 8, "name: z\n" COMMON, -1 },
	{ "ID out of range", "x", 8, "name: z\nID: 70000\n" COMMON, -1 },
	{ "ID with a letter in it", "x", 8, "name: z\nID: 2X1\n" COMMON, -1 },
	{ "ID followed by more", "x", 8, "name: z\nID: 221 5\n" COMMON, -1 },
	{ "no name", "x", 8, "ID: 3\n" COMMON, -1 },
	{ "not a format at all", "x", 8, "\x01\x02garbage\n\n", -1 },
	{ "empty", "x", 8, "", -1 },
};

static void test_formats(void)
{
	unsigned int i, j;

	for (i = 0; i < sizeof(format_cases) / sizeof(format_cases[0]); i++) {
		const struct format_case *c = &format_cases[i];
		struct lt_event_type *et;
		struct lt_field f;
		const char *why;

		lt_test_case = c->name;
		et = lt_trace_parse_event_format(c->system, c->text, strlen(c->text),
						 c->klong, &why);
		if (c->id < 0) {
			CHECK(et == NULL);
			CHECK(why != NULL);
			lt_trace_free_event_type(et);
			continue;
		}
		CHECK(et != NULL);
		if (!et)
			continue;
		CHECK_U64(lt_event_type_id(et), c->id);
		CHECK_STR(lt_event_type_name(et), c->ev_name);
		CHECK_STR(lt_event_type_system(et), c->system);
		if (c->print_fmt)
			CHECK_STR(lt_event_type_print_fmt(et), c->print_fmt);
		for (j = 0; c->fields[j].name; j++) {
			const struct want_field *w = &c->fields[j];

			lt_test_case = w->name;
			CHECK(lt_event_type_field(et, w->name, &f) == 0);
			CHECK_U64(f.offset, w->offset);
			CHECK_U64(f.size, w->size);
			CHECK_U64(f.elem_size, w->elem);
			CHECK_U64(f.flags, w->flags);
		}
		lt_test_case = c->name;
		CHECK(lt_event_type_field(et, "no_such_field", &f) == -1);
		lt_trace_free_event_type(et);
	}
}

static const struct header_case {
	const char *name;
	const char *text;
	int file_long;
	int code;		/* LT_E_OK or the error */
	uint32_t commit_size, data_off;
} header_cases[] = {
	{ "64-bit kernel",
	  "\tfield: u64 timestamp;\toffset:0;\tsize:8;\tsigned:0;\n"
	  "\tfield: local_t commit;\toffset:8;\tsize:8;\tsigned:1;\n"
	  "\tfield: int overwrite;\toffset:8;\tsize:1;\tsigned:1;\n"
	  "\tfield: char data;\toffset:16;\tsize:4080;\tsigned:0;\n",
	  8, LT_E_OK, 8, 16 },
	{ "32-bit kernel, 64-bit user space",
	  "\tfield: u64 timestamp;\toffset:0;\tsize:8;\tsigned:0;\n"
	  "\tfield: local_t commit;\toffset:8;\tsize:4;\tsigned:1;\n"
	  "\tfield: char data;\toffset:12;\tsize:4084;\tsigned:0;\n",
	  8, LT_E_OK, 4, 12 },
	{ "no commit line: the file's long", "\tfield: u64 timestamp;\toffset:0;\tsize:8;\n",
	  4, LT_E_OK, 4, 12 },
	{ "commit of 2 bytes",
	  "\tfield: local_t commit;\toffset:8;\tsize:2;\tsigned:1;\n",
	  8, LT_E_CORRUPT },
	{ "data not after commit",
	  "\tfield: local_t commit;\toffset:8;\tsize:8;\tsigned:1;\n"
	  "\tfield: char data;\toffset:32;\tsize:4064;\tsigned:0;\n",
	  8, LT_E_CORRUPT },
	{ "4-byte timestamp",
	  "\tfield: u32 timestamp;\toffset:0;\tsize:4;\tsigned:0;\n",
	  8, LT_E_CORRUPT },
	{ "empty (Linux < 2.6.31)", "", 8, LT_E_VERSION },
};

static void test_header_page(void)
{
	unsigned int i;

	for (i = 0; i < sizeof(header_cases) / sizeof(header_cases[0]); i++) {
		const struct header_case *c = &header_cases[i];
		struct lt_trace t = { .path = (char *)"hp.dat" };
		struct lt_error err = { 0 };
		int ret;

		lt_test_case = c->name;
		ret = lt_trace_parse_header_page(&t, &err, c->text, strlen(c->text),
						 c->file_long);
		if (c->code == LT_E_OK) {
			CHECK(ret == 0);
			CHECK_U64(t.commit_size, c->commit_size);
			CHECK_U64(t.data_off, c->data_off);
		} else {
			CHECK(ret == -1);
			CHECK_U64(err.code, c->code);
			CHECK(!strncmp(err.msg, "hp.dat: header_page", 19));
		}
	}
}

int main(void)
{
	test_formats();
	test_header_page();
	return lt_test_done("tracedat/format");
}
