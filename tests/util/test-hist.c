// SPDX-License-Identifier: GPL-2.0
/*
 * test-hist - percentiles of the log-linear histogram (lt-hist.h): within
 * a bucket's width of the true value, and never past what was seen.
 */
#include "lt-hist.h"
#include "lt-test.h"

static void fill(struct lt_hist *h, const uint64_t *v, unsigned int n)
{
	unsigned int i;

	lt_hist_init(h);
	for (i = 0; i < n; i++)
		CHECK(lt_hist_add(h, v[i]) == 0);
}

/* |got - want| within 1/32 of want: the histogram's promise */
static int near(uint64_t got, uint64_t want)
{
	uint64_t d = got > want ? got - want : want - got;

	return d * 32 <= want;
}

static void test_few_values(void)
{
	/* the README's "sync system call": three waits, the worst 22.8 ms */
	static const uint64_t v[] = { 2400000, 2700000, 22800000 };
	struct lt_hist h;

	lt_test_case = "three values";
	fill(&h, v, 3);
	/* nearest rank: p90 and p99 of three values are the third, the max */
	CHECK_U64(lt_hist_quantile(&h, 0.90), 22800000);
	CHECK_U64(lt_hist_quantile(&h, 0.99), 22800000);
	CHECK(near(lt_hist_quantile(&h, 0.50), 2700000));
	CHECK_U64(lt_hist_quantile(&h, 0), 2400000);
	CHECK_U64(lt_hist_quantile(&h, 1), 22800000);
	lt_hist_free(&h);

	lt_test_case = "one value";
	fill(&h, v + 2, 1);
	CHECK_U64(lt_hist_quantile(&h, 0.50), 22800000);
	CHECK_U64(lt_hist_quantile(&h, 0.99), 22800000);
	lt_hist_free(&h);
}

static void test_spread(void)
{
	uint64_t v[1000], q;
	struct lt_hist h;
	unsigned int i;

	lt_test_case = "1..1000 us";
	for (i = 0; i < 1000; i++)
		v[i] = (i + 1) * 1000ull;
	fill(&h, v, 1000);
	CHECK(near(lt_hist_quantile(&h, 0.50), 500000));
	CHECK(near(lt_hist_quantile(&h, 0.90), 900000));
	CHECK(near(lt_hist_quantile(&h, 0.99), 990000));
	/* a bucket's middle may lie past the largest value in it: not here */
	q = lt_hist_quantile(&h, 0.999);
	CHECK(q <= 1000000 && near(q, 999000));
	lt_hist_free(&h);

	/*
	 * One bucket, [983040, 1015807], holds all ten; every value lies
	 * between min and max, so the middle of that span is taken: off by
	 * at most half of it, where the bucket's middle clamped to max could
	 * be off by all of it
	 */
	lt_test_case = "min and max bound the bucket";
	v[0] = 983040;
	for (i = 1; i < 10; i++)
		v[i] = 990000;
	fill(&h, v, 10);
	CHECK_U64(lt_hist_quantile(&h, 0.50), 986520);
	CHECK(near(lt_hist_quantile(&h, 0.50), 990000));
	lt_hist_free(&h);

	lt_test_case = "all equal";
	for (i = 0; i < 100; i++)
		v[i] = 123457;
	fill(&h, v, 100);
	CHECK_U64(lt_hist_quantile(&h, 0.50), 123457);
	CHECK_U64(lt_hist_quantile(&h, 0.90), 123457);
	lt_hist_free(&h);
}

int main(void)
{
	test_few_values();
	test_spread();
	return lt_test_done("util/hist");
}
