// SPDX-License-Identifier: GPL-2.0
/*
 * test-thread.c - helper threads queued on another CPU than their
 * creator's, and then free to run on any the process may use.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <string.h>

#include "lt-test.h"
#include "lt-thread.h"

struct seen {
	bool ran;
	cpu_set_t set;		/* the thread's CPUs as it starts */
	struct seen *child;	/* a thread it starts in turn, if any */
};

/*
 * Looks at once: the narrower set it was queued with must never show,
 * not even to a thread it starts before its creator has gone on.
 */
static void *look(void *arg)
{
	struct seen *s = arg;
	pthread_t t;

	s->ran = true;
	pthread_getaffinity_np(pthread_self(), sizeof(s->set), &s->set);
	if (s->child && lt_thread_start(&t, look, s->child) == 0)
		pthread_join(t, NULL);
	return NULL;
}

static void test_start_set(void)
{
	cpu_set_t allowed, out;

	lt_test_case = "start set";
	CPU_ZERO(&allowed);
	CPU_SET(3, &allowed);
	CHECK(!lt_thread_start_set(3, &allowed, &out));	/* nowhere else */
	CPU_SET(0, &allowed);
	CPU_SET(5, &allowed);
	CHECK(!lt_thread_start_set(-1, &allowed, &out));	/* CPU unknown */
	CHECK(!lt_thread_start_set(1, &allowed, &out));	/* not allowed */
	CHECK(!lt_thread_start_set(CPU_SETSIZE, &allowed, &out));
	CHECK(lt_thread_start_set(3, &allowed, &out));
	CHECK_U64(CPU_COUNT(&out), 2);
	CHECK(CPU_ISSET(0, &out) && CPU_ISSET(5, &out) && !CPU_ISSET(3, &out));
}

static void test_start(void)
{
	struct seen child, parent;
	cpu_set_t allowed;
	pthread_t t;
	int i;

	lt_test_case = "start";
	CHECK(sched_getaffinity(0, sizeof(allowed), &allowed) == 0);
	/* a race would show now and then: many times over */
	for (i = 0; i < 200; i++) {
		memset(&child, 0, sizeof(child));
		memset(&parent, 0, sizeof(parent));
		parent.child = &child;
		CHECK(lt_thread_start(&t, look, &parent) == 0);
		pthread_join(t, NULL);
		CHECK(parent.ran && child.ran);
		/* queued away from here, but every CPU from its first step */
		CHECK(CPU_EQUAL(&parent.set, &allowed));
		CHECK(CPU_EQUAL(&child.set, &allowed));
		if (lt_test_failures)
			break;
	}
	if (CPU_COUNT(&allowed) < 2)
		printf("test-thread: one CPU usable: nothing to place (skipped)\n");
}

int main(void)
{
	test_start_set();
	test_start();
	return lt_test_done("util/thread");
}
