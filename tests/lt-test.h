/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lt-test.h - the few assertions the analyzer's unit tests need.
 *
 * A failed check prints where and what, counts, and the test goes on so
 * one run shows every broken case.
 */
#ifndef LT_TEST_H
#define LT_TEST_H

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

static int lt_test_failures;
static const char *lt_test_case = "";

#define CHECK(cond)							\
	do {								\
		if (!(cond)) {						\
			fprintf(stderr, "%s:%d: [%s] check failed: %s\n",	\
				__FILE__, __LINE__, lt_test_case, #cond);	\
			lt_test_failures++;				\
		}							\
	} while (0)

#define CHECK_U64(got, want)						\
	do {								\
		uint64_t g_ = (uint64_t)(got), w_ = (uint64_t)(want);	\
		if (g_ != w_) {						\
			fprintf(stderr, "%s:%d: [%s] %s = %" PRIu64	\
				", want %" PRIu64 "\n", __FILE__, __LINE__,	\
				lt_test_case, #got, g_, w_);		\
			lt_test_failures++;				\
		}							\
	} while (0)

#define CHECK_STR(got, want)						\
	do {								\
		const char *g_ = (got), *w_ = (want);			\
		if (!g_ || strcmp(g_, w_)) {				\
			fprintf(stderr, "%s:%d: [%s] %s = \"%s\", want \"%s\"\n", \
				__FILE__, __LINE__, lt_test_case, #got,	\
				g_ ? g_ : "(null)", w_);		\
			lt_test_failures++;				\
		}							\
	} while (0)

static inline int lt_test_done(const char *name)
{
	if (lt_test_failures)
		fprintf(stderr, "%s: %d checks failed\n", name, lt_test_failures);
	else
		printf("%s: all checks passed\n", name);
	return lt_test_failures ? 1 : 0;
}

#endif /* LT_TEST_H */
