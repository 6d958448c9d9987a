// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz-trans.c - translation tables from untrusted files.
 *
 * The first byte picks table or skip list; the rest is the file.  Then,
 * or abort() (a crash to libFuzzer, a failure to the corpus replay):
 *
 *   - a file refused says why in one line that names it and the line
 *     ("fuzz:LINE: ..."), or that memory ran out;
 *   - every explanation of a stack is a translation the file holds (a
 *     table never makes one up), or a frame of that stack in brackets;
 *   - a skip list translates nothing.
 */
#include <stdlib.h>
#include <string.h>

#include "lt-trans.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char *const stack[] = {
	"__traceiter_sched_switch", "__schedule", "schedule",
	"anon_pipe_read.isra.0", "vfs_read", "__arm64_sys_read",
	"entry_SYSCALL_64_after_hwframe",
};
#define NR_FRAMES (sizeof(stack) / sizeof(stack[0]))

/* Whether @text (NUL-terminated) is a run of bytes of @data. */
static int in_file(const char *text, const uint8_t *data, size_t size)
{
	size_t n = strlen(text), i;

	for (i = 0; n && i + n <= size; i++)
		if (!memcmp(data + i, text, n))
			return 1;
	return 0;
}

/* Whether @name is "[frame]" for a frame of the first @nr, or "[?]". */
static int a_frame(const char *name, unsigned int nr)
{
	size_t n = strlen(name);
	unsigned int i;

	if (!nr)
		return !strcmp(name, "[?]");
	if (n < 2 || name[0] != '[' || name[n - 1] != ']')
		return 0;
	for (i = 0; i < nr; i++)
		if (strlen(stack[i]) == n - 2 && !memcmp(stack[i], name + 1, n - 2))
			return 1;
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	enum lt_cause_kind kind;
	struct lt_error err;
	struct lt_trans tr;
	const char *text;
	unsigned int i;
	char buf[64];
	int skip, ret;

	if (!size || lt_trans_init(&tr) < 0)
		return 0;
	skip = data[0] & 1;
	if (skip)
		ret = lt_trans_load_skip_buffer(&tr, "fuzz", (const char *)data + 1,
						size - 1, &err);
	else
		ret = lt_trans_load_buffer(&tr, "fuzz", (const char *)data + 1,
					   size - 1, &err);
	if (ret < 0 &&
	    !(err.code == LT_E_TABLE && !strncmp(err.msg, "fuzz:", 5) &&
	      !strpbrk(err.msg, "\r\n")) &&
	    !(err.code == LT_E_NOMEM && err.msg[0]))
		abort();	/* a refusal must say why, in one line */
	for (i = 0; i <= NR_FRAMES; i++) {
		text = lt_trans_explain(&tr, stack, i, &kind, buf, sizeof(buf));
		if (kind == LT_CAUSE_TRANSLATED) {
			if (skip || !in_file(text, data + 1, size - 1))
				abort();	/* a translation the file has not */
		} else if (kind != LT_CAUSE_FUNCTION || text != buf ||
			   !a_frame(text, i)) {
			abort();	/* a function the stack has not */
		}
	}
	lt_trans_free(&tr);
	return 0;
}
