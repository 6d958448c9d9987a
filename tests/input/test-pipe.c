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
	const uint64_t min = 80000ULL * 56;	/* bytes of ~80,000 events */

	lt_test_case = "auto threads";
	CHECK_U64(lt_pipe_auto_threads(0, false, 2), 1);
	CHECK_U64(lt_pipe_auto_threads(min - 1, false, 2), 1);
	CHECK_U64(lt_pipe_auto_threads(min, false, 2), 2);
	CHECK_U64(lt_pipe_auto_threads(min, false, 8), 8);
	/* compressed, 3.5 bytes an event: len1x-zstd's 1.54 MB are 0.5 M */
	CHECK_U64(lt_pipe_auto_threads(80000ULL * 35 / 10 - 1, true, 2), 1);
	CHECK_U64(lt_pipe_auto_threads(80000ULL * 35 / 10, true, 2), 2);
	CHECK_U64(lt_pipe_auto_threads(1544715, true, 2), 2);
	/* 169,238 events in 543,607 bytes of zstd data, guessed 155,316 */
	CHECK_U64(lt_pipe_auto_threads(543607, true, 2), 2);
	/* kernel-patched-6.1.dat: 35,130 events, stacks, guessed 68,872 */
	CHECK_U64(lt_pipe_auto_threads(241052, true, 2), 1);
	/* 87,886 scheduler events in 307,161 bytes, guessed 87,760 */
	CHECK_U64(lt_pipe_auto_threads(307161, true, 2), 2);
	CHECK_U64(lt_pipe_auto_threads(UINT64_MAX, true, 4), 4);
	/* one core: one thread, however large */
	CHECK_U64(lt_pipe_auto_threads(UINT64_MAX, false, 1), 1);
	return lt_test_done("input/pipe");
}
