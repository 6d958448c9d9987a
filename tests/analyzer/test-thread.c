// SPDX-License-Identifier: GPL-2.0
/*
 * test-thread.c - helper threads queued on another CPU than their
 * creator's, and then free to run on any the process may use.
 */
#define _GNU_SOURCE
#include <stdio.h>

#include "lt-test.h"
#include "lt-thread.h"

struct seen {
	pthread_mutex_t lock;
	pthread_cond_t cond;
	bool go;
	bool ran;
	cpu_set_t set;		/* the thread's CPUs once told to look */
};

static void *look(void *arg)
{
	struct seen *s = arg;

	pthread_mutex_lock(&s->lock);
	s->ran = true;
	while (!s->go)
		pthread_cond_wait(&s->cond, &s->lock);
	pthread_getaffinity_np(pthread_self(), sizeof(s->set), &s->set);
	pthread_mutex_unlock(&s->lock);
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
	struct seen s = { PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER };
	cpu_set_t allowed;
	pthread_t t;

	lt_test_case = "start";
	CHECK(sched_getaffinity(0, sizeof(allowed), &allowed) == 0);
	CHECK(lt_thread_start(&t, look, &s) == 0);
	pthread_mutex_lock(&s.lock);
	s.go = true;
	pthread_cond_signal(&s.cond);
	pthread_mutex_unlock(&s.lock);
	pthread_join(t, NULL);
	CHECK(s.ran);
	/* queued away from here, then given back every CPU */
	CHECK(CPU_EQUAL(&s.set, &allowed));
	if (CPU_COUNT(&allowed) < 2)
		printf("test-thread: one CPU usable: nothing to place (skipped)\n");
}

int main(void)
{
	test_start_set();
	test_start();
	return lt_test_done("test-thread");
}
