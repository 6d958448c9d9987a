/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * lt-hist.h - log-linear latency histogram.
 *
 * 16 linear sub-buckets per power of two: any percentile is within 1/32
 * (3.1%) of the true value, whatever the range.  Only the span of buckets
 * actually hit is allocated, so a row costs a few hundred bytes at most.
 */
#ifndef LT_HIST_H
#define LT_HIST_H

#include <stddef.h>
#include <stdint.h>

#define LT_HIST_SUB_BITS 4
#define LT_HIST_SUB (1u << LT_HIST_SUB_BITS)

struct lt_hist {
	uint32_t *counts;	/* counts[i] is bucket lo + i */
	uint16_t lo, n;		/* bucket span held in counts */
	uint64_t total;		/* number of values */
	uint64_t min, max;
};

unsigned int lt_hist_bucket(uint64_t v);
uint64_t lt_hist_bucket_low(unsigned int b);
uint64_t lt_hist_bucket_high(unsigned int b);	/* inclusive */

void lt_hist_init(struct lt_hist *h);
void lt_hist_free(struct lt_hist *h);
int lt_hist_add(struct lt_hist *h, uint64_t v);
int lt_hist_merge(struct lt_hist *dst, const struct lt_hist *src);
/*
 * Value at quantile q (0..1), nearest rank: the middle of its bucket as
 * bounded by min and max; the maximum exactly for the last rank.
 */
uint64_t lt_hist_quantile(const struct lt_hist *h, double q);
/*
 * Its parts, for a copy of the buckets kept elsewhere (a saved report's):
 * the nearest rank of @q among @total values (0 when the answer is the
 * minimum, @total when it is the maximum), and the value a rank falling
 * in bucket @b stands for, given the smallest and largest values.
 */
uint64_t lt_hist_rank(uint64_t total, double q);
uint64_t lt_hist_bucket_value(unsigned int b, uint64_t min, uint64_t max);
size_t lt_hist_bytes(const struct lt_hist *h);

#endif /* LT_HIST_H */
