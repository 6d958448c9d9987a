// SPDX-License-Identifier: GPL-2.0
/*
 * cli-load.c - a trace analysed or a saved report read (cli-load.h).
 */
#include <malloc.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "cli-args.h"
#include "cli-load.h"
#include "cli-progress.h"

#define HEAP_STEP	((size_t)32 << 20)
#define HUGE_PAGE	((uintptr_t)2 << 20)

/*
 * The analysis makes many small allocations, and on a VM each fresh
 * 4 KiB page of heap costs a 5-16 us fault: len1x-v6 took ~300 of them.
 * So the heap grows 32 MB at a time, keeps what it has, and that much is
 * marked for transparent huge pages now (a hint: without THP, nothing
 * changes).  Measured: page faults 456 -> 140-290 on len1x-v6, 1065 ->
 * 550-600 on stacks-zstd; 1-7% faster, 0.2-2 MB more resident.
 *
 * Only whole, aligned 2 MB pages can be huge, and the heap rarely starts
 * on one: the allocations would fill its first, unaligned stretch (up to
 * 2 MB of 4 KiB faults) before reaching them.  That stretch is taken by
 * one allocation that is never touched, so never resident: page faults on
 * len1x-v6 448 -> 76, 7% faster.
 *
 * And one arena for all threads: glibc gives a second thread a heap of
 * its own, fresh 4 KiB pages again.  A thread's allocations are few (a
 * zstd context, buffers), so sharing the arena's lock costs nothing
 * measurable, and a -j2 run of len1x-zstd took 49 page faults every time
 * rather than 51-100, and 0.1-0.3 ms less (of 27); traces 10x larger
 * took the same.
 */
static void heap_in_huge_pages(void)
{
	static void *unaligned_head;
	uintptr_t start, end;
	size_t head;
	void *p;

	mallopt(M_ARENA_MAX, 1);
	mallopt(M_MMAP_THRESHOLD, 2 * HEAP_STEP);
	mallopt(M_TOP_PAD, HEAP_STEP);
	mallopt(M_TRIM_THRESHOLD, 4 * HEAP_STEP);
	/* grows the heap (by it and the pad), whose end is then known */
	p = malloc(HEAP_STEP / 2);
	if (!p)
		return;
	start = ((uintptr_t)p + HUGE_PAGE - 1) & ~(HUGE_PAGE - 1);
	end = (uintptr_t)sbrk(0) & ~(HUGE_PAGE - 1);
	head = start - (uintptr_t)p;
	/* freed, it stays in the heap: the trim threshold is above it */
	free(p);
	if (end <= start)
		return;
	madvise((void *)start, end - start, MADV_HUGEPAGE);
	/*
	 * From where @p was, up to @start: glibc puts the next allocation
	 * there, its 8-byte size word before it, so the one after begins on
	 * @start.  Elsewhere (another allocator) it is only a hole.
	 */
	if (head > 8 && !unaligned_head)
		unaligned_head = malloc(head - 8);
}

int cli_load_report(const char *prog, const char *path,
		    struct lt_options *opts, const struct lt_options *base,
		    bool progress, bool quiet, struct lt_report **report,
		    struct lt_error *err, bool *saved)
{
	/* static: the library's warning hook keeps pointing at it */
	static struct cli_progress line;
	const char *changed;
	char names[256];
	int ret;

	cli_progress_init(&line, prog, path, opts, progress && !quiet, quiet);
	heap_in_huge_pages();
	ret = lt_analyze(path, opts, report, err);
	/* a run cut by --to, or failed, stops short of 100% */
	cli_progress_clear(&line);
	*saved = !ret && (*report)->saved;
	if (*saved) {
		/* made already: the options it was made with hold */
		changed = base ? cli_analysis_changed(opts, base, names,
						      sizeof(names)) : NULL;
		if (!quiet && changed)
			fprintf(stderr, "%s: warning: %s is a saved report: %s "
				"cannot change it (its analysis was fixed when it was saved)\n",
				prog, path, changed);
	}
	return ret;
}
