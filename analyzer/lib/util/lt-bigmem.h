/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * lt-bigmem.h - large buffers written once, in huge pages where the
 * kernel gives them.
 *
 * Fresh memory is what large one-off buffers cost most: in 4 KiB pages a
 * 5 MB table is ~1,300 page faults, each 5-16 us in a VM, and even pages
 * mapped ahead (MADV_POPULATE_WRITE) were written at half the speed of
 * huge ones on this project's VM (kallsyms parsed in 13 vs 6 ms).  Where
 * transparent huge pages are off this is plain anonymous memory.
 */
#ifndef LT_BIGMEM_H
#define LT_BIGMEM_H

#include <stddef.h>

/*
 * Built with AddressSanitizer (gcc's or clang's), which checks bounds only
 * of what malloc() gave: then no huge pages, and nothing carved out of
 * one allocation.
 */
#if defined(__SANITIZE_ADDRESS__)
#define LT_ASAN		1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define LT_ASAN		1
#endif
#endif

/*
 * @size bytes, zeroed; from 512 KiB up, aligned to 2 MiB.  NULL when out
 * of memory.
 */
void *lt_big_alloc(size_t size);
/* To @new_size bytes, the contents kept (moved, maybe); NULL: unchanged. */
void *lt_big_realloc(void *p, size_t old_size, size_t new_size);
/* @p from lt_big_alloc() with its @size; NULL is ignored. */
void lt_big_free(void *p, size_t size);
/*
 * Map in the pages of fresh memory about to be written whole (a hint:
 * one madvise() rather than a fault per page).
 */
void lt_big_prefault(void *p, size_t n);

#endif /* LT_BIGMEM_H */
