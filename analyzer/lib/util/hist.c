// SPDX-License-Identifier: LGPL-2.1
/*
 * hist.c - log-linear histogram (lt-hist.h).
 */
#include <stdlib.h>
#include <string.h>

#include "lt-hist.h"

unsigned int lt_hist_bucket(uint64_t v)
{
	unsigned int e;

	if (v < LT_HIST_SUB)
		return (unsigned int)v;
	e = 63 - __builtin_clzll(v);
	return (e - LT_HIST_SUB_BITS + 1) * LT_HIST_SUB +
	       (unsigned int)((v >> (e - LT_HIST_SUB_BITS)) - LT_HIST_SUB);
}

uint64_t lt_hist_bucket_low(unsigned int b)
{
	unsigned int g = b / LT_HIST_SUB, sub = b % LT_HIST_SUB;

	if (!g)
		return b;
	return (uint64_t)(LT_HIST_SUB + sub) << (g - 1);
}

uint64_t lt_hist_bucket_high(unsigned int b)
{
	unsigned int g = b / LT_HIST_SUB;

	if (!g)
		return b;
	return lt_hist_bucket_low(b) + ((uint64_t)1 << (g - 1)) - 1;
}

void lt_hist_init(struct lt_hist *h)
{
	memset(h, 0, sizeof(*h));
}

void lt_hist_free(struct lt_hist *h)
{
	free(h->counts);
	lt_hist_init(h);
}

/* Make the span cover bucket b. */
static int hist_cover(struct lt_hist *h, unsigned int b)
{
	unsigned int lo, hi;
	uint32_t *c;

	if (h->n && b >= h->lo && b < (unsigned int)h->lo + h->n)
		return 0;
	lo = h->n && h->lo < b ? h->lo : b;
	hi = h->n && (unsigned int)h->lo + h->n - 1 > b ?
		(unsigned int)h->lo + h->n - 1 : b;
	c = calloc(hi - lo + 1, sizeof(*c));
	if (!c)
		return -1;
	if (h->n)
		memcpy(c + (h->lo - lo), h->counts, h->n * sizeof(*c));
	free(h->counts);
	h->counts = c;
	h->lo = (uint16_t)lo;
	h->n = (uint16_t)(hi - lo + 1);
	return 0;
}

int lt_hist_add(struct lt_hist *h, uint64_t v)
{
	unsigned int b = lt_hist_bucket(v);

	if (hist_cover(h, b) < 0)
		return -1;
	h->counts[b - h->lo]++;
	if (!h->total || v < h->min)
		h->min = v;
	if (!h->total || v > h->max)
		h->max = v;
	h->total++;
	return 0;
}

int lt_hist_merge(struct lt_hist *dst, const struct lt_hist *src)
{
	unsigned int i;

	if (!src->total)
		return 0;
	if (hist_cover(dst, src->lo) < 0 ||
	    hist_cover(dst, src->lo + src->n - 1) < 0)
		return -1;
	for (i = 0; i < src->n; i++)
		dst->counts[src->lo + i - dst->lo] += src->counts[i];
	if (!dst->total || src->min < dst->min)
		dst->min = src->min;
	if (!dst->total || src->max > dst->max)
		dst->max = src->max;
	dst->total += src->total;
	return 0;
}

uint64_t lt_hist_rank(uint64_t total, double q)
{
	uint64_t rank;

	if (!total || q <= 0)
		return 0;
	if (q >= 1)
		return total;
	/* the smallest value with at least q of the values at or below it */
	rank = (uint64_t)(q * (double)total);
	if ((double)rank < q * (double)total)
		rank++;
	return rank ? rank : 1;
}

uint64_t lt_hist_bucket_value(unsigned int b, uint64_t min, uint64_t max)
{
	uint64_t lo = lt_hist_bucket_low(b), hi = lt_hist_bucket_high(b), v;

	/* the middle of what the bucket can hold: min and max bound it too */
	if (lo < min)
		lo = min;
	if (hi > max)
		hi = max;
	v = lo / 2 + hi / 2;
	return v < lo ? lo : v;
}

uint64_t lt_hist_quantile(const struct lt_hist *h, double q)
{
	uint64_t rank = lt_hist_rank(h->total, q), seen = 0;
	unsigned int i;

	if (!h->total)
		return 0;
	if (!rank)
		return h->min;
	/* the last value is the maximum, known exactly: "p99 < max" misleads */
	if (rank >= h->total)
		return h->max;
	for (i = 0; i < h->n; i++) {
		seen += h->counts[i];
		if (seen >= rank)
			break;
	}
	if (i == h->n)
		return h->max;
	return lt_hist_bucket_value(h->lo + i, h->min, h->max);
}

size_t lt_hist_bytes(const struct lt_hist *h)
{
	return h->n * sizeof(*h->counts);
}
