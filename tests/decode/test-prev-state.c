// SPDX-License-Identifier: GPL-2.0
/*
 * test-prev-state.c - sched_switch's prev_state read by each kernel's print fmt.
 *
 * The formats are cut to the part after "prev_state=%s%s": 4.14's and
 * 6.12's from real trace.dat files (tests/data/real, the samples), 4.9's
 * as its include/trace/events/sched.h prints it.
 */
#include <stdlib.h>

#include "lt-decode.h"
#include "lt-test.h"

/* Linux 4.9-4.13: bits, TASK_STATE_MAX (2048) for "+", no "I" */
static const char fmt_4_9[] =
	"REC->prev_state & (2048-1) ? __print_flags(REC->prev_state & (2048-1), "
	"\"|\", { 1, \"S\"} , { 2, \"D\" }, { 4, \"T\" }, { 8, \"t\" }, "
	"{ 16, \"Z\" }, { 32, \"X\" }, { 64, \"x\" }, { 128, \"K\" }, "
	"{ 256, \"W\" }, { 512, \"P\" }, { 1024, \"N\" }) : \"R\", "
	"REC->prev_state & 2048 ? \"+\" : \"\", REC->next_comm";

/* Linux 4.14 (desktop-4cpu-sched_switch.dat, 4.14.62): an index */
static const char fmt_4_14[] =
	"(REC->prev_state & ((((0x0000 | 0x0001 | 0x0002 | 0x0004 | 0x0008 | "
	"0x0010 | 0x0020 | 0x0040) + 1) << 1) - 1)) ? __print_flags(REC->prev_state "
	"& ((((0x0000 | 0x0001 | 0x0002 | 0x0004 | 0x0008 | 0x0010 | 0x0020 | "
	"0x0040) + 1) << 1) - 1), \"|\", { 0x01, \"S\" }, { 0x02, \"D\" }, "
	"{ 0x04, \"T\" }, { 0x08, \"t\" }, { 0x10, \"X\" }, { 0x20, \"Z\" }, "
	"{ 0x40, \"P\" }, { 0x80, \"I\" }) : \"R\", REC->prev_state & 0x1000 ? "
	"\"+\" : \"\", REC->next_comm, REC->next_pid, REC->next_prio";

/* Linux 4.15 on (here 6.12): bits again, TASK_REPORT_MAX for "+" */
static const char fmt_6_12[] =
	"(REC->prev_state & ((((0x00000000 | 0x00000001 | 0x00000002 | 0x00000004 "
	"| 0x00000008 | 0x00000010 | 0x00000020 | 0x00000040) + 1) << 1) - 1)) ? "
	"__print_flags(REC->prev_state & ((((0x00000000 | 0x00000001 | 0x00000002 "
	"| 0x00000004 | 0x00000008 | 0x00000010 | 0x00000020 | 0x00000040) + 1) "
	"<< 1) - 1), \"|\", { 0x00000001, \"S\" }, { 0x00000002, \"D\" }, "
	"{ 0x00000004, \"T\" }, { 0x00000008, \"t\" }, { 0x00000010, \"X\" }, "
	"{ 0x00000020, \"Z\" }, { 0x00000040, \"P\" }, { 0x00000080, \"I\" }) : "
	"\"R\", REC->prev_state & (((0x00000000 | 0x00000001 | 0x00000002 | "
	"0x00000004 | 0x00000008 | 0x00000010 | 0x00000020 | 0x00000040) + 1) << "
	"1) ? \"+\" : \"\", REC->next_comm, REC->next_pid, REC->next_prio";

struct want {
	uint64_t state;
	enum lt_task_state is;
};

static void check_states(const char *name, const char *fmt, bool index,
			 const struct want *w, size_t n)
{
	struct lt_decoder d;
	size_t i;

	lt_test_case = name;
	memset(&d, 0, sizeof(d));
	lt_decode_parse_states(&d, fmt);
	CHECK(d.state_is_index == index);
	for (i = 0; i < n; i++) {
		if (lt_decode_state(&d, w[i].state) != w[i].is) {
			fprintf(stderr, "%s: [%s] prev_state 0x%" PRIx64 " read as %d, want %d\n",
				__FILE__, name, w[i].state,
				lt_decode_state(&d, w[i].state), w[i].is);
			lt_test_failures++;
		}
	}
}

#define N(a) (sizeof(a) / sizeof((a)[0]))

int main(void)
{
	static const struct want w_4_9[] = {
		{ 0, LT_STATE_RUNNABLE }, { 0x800, LT_STATE_RUNNABLE },
		{ 1, LT_STATE_SLEEP }, { 2, LT_STATE_BLOCKED },
		{ 0x82, LT_STATE_BLOCKED },	/* D|K: TASK_KILLABLE */
		{ 4, LT_STATE_STOPPED }, { 8, LT_STATE_TRACED },
		{ 0x88, LT_STATE_TRACED },	/* t|K: 4.9's TASK_TRACED */
		{ 0x10, LT_STATE_DEAD }, { 0x20, LT_STATE_DEAD },
		{ 0x40, LT_STATE_DEAD }, { 0x200, LT_STATE_OTHER },
		{ 0x100, LT_STATE_OTHER },
	};
	/* 1 S, 2 D, 3 T, 4 t, 5 X, 6 Z, 7 P, 8 I: what the 4.14 traces hold */
	static const struct want w_4_14[] = {
		{ 0, LT_STATE_RUNNABLE }, { 0x1000, LT_STATE_RUNNABLE },
		{ 1, LT_STATE_SLEEP }, { 2, LT_STATE_BLOCKED },
		{ 3, LT_STATE_STOPPED }, { 4, LT_STATE_TRACED },
		{ 5, LT_STATE_DEAD }, { 6, LT_STATE_DEAD },
		{ 7, LT_STATE_OTHER }, { 8, LT_STATE_IDLE },
		{ 9, LT_STATE_OTHER }, { 0x80, LT_STATE_OTHER },
		{ UINT64_MAX & ~0x1000ull, LT_STATE_OTHER },
	};
	/* 4.14's with only the letters up to t and I: X and Z not known */
	static const struct want w_4_14_short[] = {
		{ 0, LT_STATE_RUNNABLE }, { 0x1000, LT_STATE_RUNNABLE },
		{ 1, LT_STATE_SLEEP }, { 2, LT_STATE_BLOCKED },
		{ 3, LT_STATE_STOPPED }, { 4, LT_STATE_TRACED },
		{ 5, LT_STATE_OTHER }, { 6, LT_STATE_OTHER },
		{ 7, LT_STATE_OTHER }, { 8, LT_STATE_IDLE },
		{ 9, LT_STATE_OTHER }, { 0x80, LT_STATE_OTHER },
	};
	static const struct want w_6_12[] = {
		{ 0, LT_STATE_RUNNABLE }, { 0x100, LT_STATE_RUNNABLE },
		{ 1, LT_STATE_SLEEP }, { 2, LT_STATE_BLOCKED },
		{ 4, LT_STATE_STOPPED }, { 8, LT_STATE_TRACED },
		{ 0x10, LT_STATE_DEAD }, { 0x20, LT_STATE_DEAD },
		{ 0x40, LT_STATE_OTHER }, { 0x80, LT_STATE_IDLE },
	};
	/* a format without letters: S = 1, D = 2, T = 4, t = 8, as since 2.6 */
	static const struct want w_none[] = {
		{ 0, LT_STATE_RUNNABLE }, { 1, LT_STATE_SLEEP },
		{ 2, LT_STATE_BLOCKED }, { 4, LT_STATE_STOPPED },
		{ 8, LT_STATE_TRACED }, { 0x10, LT_STATE_OTHER },
	};

	check_states("4.9", fmt_4_9, false, w_4_9, N(w_4_9));
	check_states("4.14", fmt_4_14, true, w_4_14, N(w_4_14));
	check_states("6.12", fmt_6_12, false, w_6_12, N(w_6_12));
	check_states("no fmt", NULL, false, w_none, N(w_none));
	check_states("no letters", "\"prev_state=%ld\", REC->prev_state", false,
		     w_none, N(w_none));
	/* "+" on the bit just above the letters, written as a number: bits */
	check_states("bits, + as a number",
		     "__print_flags(REC->prev_state & 255, \"|\", { 0x01, \"S\" }, "
		     "{ 0x02, \"D\" }, { 0x04, \"T\" }, { 0x08, \"t\" }, { 0x10, \"X\" }, "
		     "{ 0x20, \"Z\" }, { 0x40, \"P\" }, { 0x80, \"I\" }) : \"R\", "
		     "REC->prev_state & 0x100 ? \"+\" : \"\"", false, w_6_12, N(w_6_12));
	/* 4.14's, its number with a suffix */
	check_states("4.14, 0x1000UL",
		     "__print_flags(REC->prev_state & 255, \"|\", { 0x01, \"S\" }, "
		     "{ 0x02, \"D\" }, { 0x04, \"T\" }, { 0x08, \"t\" }, { 0x80, \"I\" }) : "
		     "\"R\", REC->prev_state & 0x1000UL ? \"+\" : \"\"", true,
		     w_4_14_short, N(w_4_14_short));
	/* a plain number for "+" but no "I": before 4.14, bits */
	check_states("4.14 without I",
		     "__print_flags(REC->prev_state & 255, \"|\", { 0x01, \"S\" }, "
		     "{ 0x02, \"D\" }) : \"R\", REC->prev_state & 0x1000 ? \"+\" : \"\"",
		     false, w_none, 3);
	return lt_test_done("decode/prev-state");
}
