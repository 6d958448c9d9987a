// SPDX-License-Identifier: GPL-2.0
/*
 * test-pipe.c - the pipe's choice of threads when the user left it open:
 * one on a small trace, one per core on a large one.
 */
#include <stdint.h>

#include "lt-pipe.h"
#include "lt-test.h"

int main(void)
{
	const uint64_t min = 1500000ULL * 64;	/* bytes of ~1.5 M events */

	lt_test_case = "auto threads";
	CHECK_U64(lt_pipe_auto_threads(0, false, 2), 1);
	CHECK_U64(lt_pipe_auto_threads(min - 1, false, 2), 1);
	CHECK_U64(lt_pipe_auto_threads(min, false, 2), 2);
	CHECK_U64(lt_pipe_auto_threads(min, false, 8), 8);
	/* compressed data holds ~10x the events of its size */
	CHECK_U64(lt_pipe_auto_threads(min / 10 - 64, true, 2), 1);
	CHECK_U64(lt_pipe_auto_threads(min / 10, true, 2), 2);
	CHECK_U64(lt_pipe_auto_threads(UINT64_MAX, true, 4), 4);
	/* one core: one thread, however large */
	CHECK_U64(lt_pipe_auto_threads(UINT64_MAX, false, 1), 1);
	return lt_test_done("test-pipe");
}
