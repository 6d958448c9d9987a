// SPDX-License-Identifier: LGPL-2.1
/*
 * bigmem.c - large buffers in huge pages (lt-bigmem.h).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "lt-bigmem.h"

#ifdef LT_ASAN
void *lt_big_alloc(size_t size)
{
	return calloc(1, size ? size : 1);
}

void *lt_big_realloc(void *p, size_t old_size, size_t new_size)
{
	(void)old_size;
	return realloc(p, new_size ? new_size : 1);
}

void lt_big_free(void *p, size_t size)
{
	(void)size;
	free(p);
}
#else
#define HUGE_PAGE	((size_t)2 << 20)
/* Below this, a huge page would cost more to clear than it saves. */
#define BIG_MIN		((size_t)512 << 10)

static size_t rounded(size_t size)
{
	return (size + HUGE_PAGE - 1) & ~(HUGE_PAGE - 1);
}

void *lt_big_alloc(size_t size)
{
	size_t len = rounded(size);
	char *p, *start;

	if (size < BIG_MIN)
		return calloc(1, size ? size : 1);
	if (len < size)
		return NULL;
	/* one huge page more, to start on a boundary */
	p = mmap(NULL, len + HUGE_PAGE, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return NULL;
	start = (char *)(((uintptr_t)p + HUGE_PAGE - 1) & ~(uintptr_t)(HUGE_PAGE - 1));
	if (start > p)
		munmap(p, start - p);
	munmap(start + len, p + HUGE_PAGE - start);
#ifdef MADV_HUGEPAGE
	madvise(start, len, MADV_HUGEPAGE);
#endif
	return start;
}

void *lt_big_realloc(void *p, size_t old_size, size_t new_size)
{
	void *n;

	if (!p)
		return lt_big_alloc(new_size);
	if (old_size >= BIG_MIN && new_size >= BIG_MIN &&
	    rounded(new_size) <= rounded(old_size))
		return p;
	if (old_size < BIG_MIN && new_size < BIG_MIN)
		return realloc(p, new_size ? new_size : 1);
	n = lt_big_alloc(new_size);
	if (!n)
		return NULL;
	memcpy(n, p, old_size < new_size ? old_size : new_size);
	lt_big_free(p, old_size);
	return n;
}

void lt_big_free(void *p, size_t size)
{
	if (!p)
		return;
	if (size < BIG_MIN)
		free(p);
	else
		munmap(p, rounded(size));
}
#endif

/*
 * Map in the pages of a fresh buffer that is about to be written whole:
 * one madvise() instead of a fault per page (5-16 us each in a VM).  Only
 * a hint: before 5.14 the kernel refuses it and the pages fault as before.
 */
void lt_big_prefault(void *p, size_t n)
{
	uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
	uintptr_t from = ((uintptr_t)p + page - 1) & ~(page - 1);
	uintptr_t to = ((uintptr_t)p + n) & ~(page - 1);

	if (to > from + (64u << 10))
		madvise((void *)from, to - from, MADV_POPULATE_WRITE);
}
