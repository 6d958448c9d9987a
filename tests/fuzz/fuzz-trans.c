// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz-trans.c - translation tables from untrusted files.
 *
 * The first byte picks table or skip list; the rest is the file.  A table
 * that loads must then explain stacks without trouble.
 */
#include <stdlib.h>

#include "lt-trans.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const stack[] = {
		"__traceiter_sched_switch", "__schedule", "schedule",
		"anon_pipe_read.isra.0", "vfs_read", "__arm64_sys_read",
		"entry_SYSCALL_64_after_hwframe",
	};
	enum lt_cause_kind kind;
	struct lt_error err;
	struct lt_trans tr;
	char buf[64];
	unsigned int i;

	if (!size || lt_trans_init(&tr) < 0)
		return 0;
	if (data[0] & 1)
		lt_trans_load_skip_buffer(&tr, "fuzz", (const char *)data + 1,
					  size - 1, &err);
	else
		lt_trans_load_buffer(&tr, "fuzz", (const char *)data + 1,
				     size - 1, &err);
	for (i = 0; i <= 7; i++)
		lt_trans_explain(&tr, stack, i, &kind, buf, sizeof(buf));
	lt_trans_free(&tr);
	return 0;
}
