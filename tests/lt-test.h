/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lt-test.h - the assertions every C test of tests/ uses (tests/README.md).
 *
 * A failed check prints where and what, counts, and the test goes on so
 * one run shows every broken case.  main() ends with
 *
 *	return lt_test_done("folder/name");
 *
 * which says how many checks passed and failed and gives the exit status:
 * 0 when every check passed, 1 when one failed, and 1 too when none ran
 * (a test that checked nothing cannot fail, so it did not pass either).
 *
 *   CHECK(cond)                  cond holds
 *   CHECK_MSG(cond, fmt, ...)    the same, saying in printf's words what
 *                                was found instead
 *   CHECK_U64(got, want)         two integers, both printed when they differ
 *   CHECK_STR(got, want)         two strings (got may be NULL: a failure)
 *   lt_test_case = "..."         named in front of every failure after it
 *
 * A failure found some other way is printed by the test and counted with
 * lt_test_failures++.
 */
#ifndef LT_TEST_H
#define LT_TEST_H

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

static int lt_test_failures;
static int lt_test_passes;
static const char *lt_test_case = "";

#define LT_TEST_FAILED(what)						\
	fprintf(stderr, "%s:%d: [%s] check failed: %s\n",		\
		__FILE__, __LINE__, lt_test_case, what)

#define CHECK(cond)							\
	do {								\
		if (cond) {						\
			lt_test_passes++;				\
		} else {						\
			LT_TEST_FAILED(#cond);				\
			lt_test_failures++;				\
		}							\
	} while (0)

#define CHECK_MSG(cond, ...)						\
	do {								\
		if (cond) {						\
			lt_test_passes++;				\
		} else {						\
			fprintf(stderr, "%s:%d: [%s] check failed: %s: ", \
				__FILE__, __LINE__, lt_test_case, #cond); \
			fprintf(stderr, __VA_ARGS__);			\
			fputc('\n', stderr);				\
			lt_test_failures++;				\
		}							\
	} while (0)

#define CHECK_U64(got, want)						\
	do {								\
		uint64_t g_ = (uint64_t)(got), w_ = (uint64_t)(want);	\
		if (g_ == w_) {						\
			lt_test_passes++;				\
		} else {						\
			fprintf(stderr, "%s:%d: [%s] %s = %" PRIu64	\
				", want %" PRIu64 "\n", __FILE__, __LINE__,	\
				lt_test_case, #got, g_, w_);		\
			lt_test_failures++;				\
		}							\
	} while (0)

#define CHECK_STR(got, want)						\
	do {								\
		const char *g_ = (got), *w_ = (want);			\
		if (g_ && !strcmp(g_, w_)) {				\
			lt_test_passes++;				\
		} else {						\
			fprintf(stderr, "%s:%d: [%s] %s = \"%s\", want \"%s\"\n", \
				__FILE__, __LINE__, lt_test_case, #got,	\
				g_ ? g_ : "(null)", w_);		\
			lt_test_failures++;				\
		}							\
	} while (0)

/* The exit status of a test: main() returns it. */
static inline int lt_test_done(const char *name)
{
	if (lt_test_failures) {
		fprintf(stderr, "%s: %d checks failed, %d passed\n", name,
			lt_test_failures, lt_test_passes);
		return 1;
	}
	if (!lt_test_passes) {
		fprintf(stderr, "%s: no check ran\n", name);
		return 1;
	}
	printf("%s: all %d checks passed\n", name, lt_test_passes);
	return 0;
}

#endif /* LT_TEST_H */
