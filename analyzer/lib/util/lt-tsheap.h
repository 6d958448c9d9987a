/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * lt-tsheap.h - a binary min-heap of (timestamp, stream), for merging
 * per-CPU streams in time order.  Ties go to the lower stream index (CPU
 * order), the order libtracecmd gives.  The keys live in the heap array,
 * so a comparison touches no stream; with two streams, stepping the top
 * one costs one comparison.
 */
#ifndef LT_TSHEAP_H
#define LT_TSHEAP_H

#include <stdbool.h>
#include <stdint.h>

struct lt_tsheap_ent {
	uint64_t ts;		/* of the stream's current record */
	unsigned int idx;	/* the stream */
};

static inline bool lt_tsheap_before(const struct lt_tsheap_ent *a,
				    const struct lt_tsheap_ent *b)
{
	return a->ts < b->ts || (a->ts == b->ts && a->idx < b->idx);
}

/* Restore the heap below @i, after h[i] grew later (or was replaced). */
static inline void lt_tsheap_down(struct lt_tsheap_ent *h, unsigned int n,
				  unsigned int i)
{
	struct lt_tsheap_ent e = h[i];
	unsigned int c;

	for (;; i = c) {
		c = 2 * i + 1;
		if (c >= n)
			break;
		if (c + 1 < n && lt_tsheap_before(&h[c + 1], &h[c]))
			c++;
		if (!lt_tsheap_before(&h[c], &e))
			break;
		h[i] = h[c];
	}
	h[i] = e;
}

/* Restore the heap above @i, after h[i] was added. */
static inline void lt_tsheap_up(struct lt_tsheap_ent *h, unsigned int i)
{
	struct lt_tsheap_ent e = h[i];
	unsigned int p;

	while (i) {
		p = (i - 1) / 2;
		if (!lt_tsheap_before(&e, &h[p]))
			break;
		h[i] = h[p];
		i = p;
	}
	h[i] = e;
}

#endif /* LT_TSHEAP_H */
