// SPDX-License-Identifier: LGPL-2.1
/*
 * thread.c - helper threads started on another CPU (lt-thread.h).
 */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lt-thread.h"

bool lt_thread_start_set(int cpu, const cpu_set_t *allowed, cpu_set_t *out)
{
	if (cpu < 0 || cpu >= CPU_SETSIZE || !CPU_ISSET(cpu, allowed) ||
	    CPU_COUNT(allowed) < 2)
		return false;
	*out = *allowed;
	CPU_CLR(cpu, out);
	return true;
}

struct start {
	void *(*fn)(void *);
	void *arg;
	cpu_set_t allowed;
};

/*
 * Queued by now away from its creator (glibc sets a new thread's CPUs
 * before it runs): given all of them back before doing anything, so that
 * neither it nor a thread it starts ever sees the narrower set, and the
 * balancer may move it from here as it likes.
 */
static void *started(void *p)
{
	struct start st = *(struct start *)p;

	free(p);
	pthread_setaffinity_np(pthread_self(), sizeof(st.allowed), &st.allowed);
	return st.fn(st.arg);
}

int lt_thread_start(pthread_t *thread, void *(*fn)(void *), void *arg)
{
	struct start *st = malloc(sizeof(*st));
	pthread_attr_t attr;
	cpu_set_t away;
	int ret = -1;

	/* a mask too small for the machine fails: then no placing */
	if (!st || sched_getaffinity(0, sizeof(st->allowed), &st->allowed) ||
	    !lt_thread_start_set(sched_getcpu(), &st->allowed, &away) ||
	    pthread_attr_init(&attr)) {
		free(st);
		return pthread_create(thread, NULL, fn, arg);
	}
	st->fn = fn;
	st->arg = arg;
	if (!pthread_attr_setaffinity_np(&attr, sizeof(away), &away))
		ret = pthread_create(thread, &attr, started, st);
	pthread_attr_destroy(&attr);
	if (!ret)
		return 0;
	/* refused (a CPU gone since, say): anywhere will do */
	free(st);
	return pthread_create(thread, NULL, fn, arg);
}

void *lt_thread_own_alloc(size_t size)
{
	size_t n = (size + LT_CACHE_LINE - 1) & ~(size_t)(LT_CACHE_LINE - 1);
	void *p;

	if (n < size)
		return NULL;
	if (!n)
		n = LT_CACHE_LINE;
	p = aligned_alloc(LT_CACHE_LINE, n);
	if (p)
		memset(p, 0, n);
	return p;
}

unsigned int lt_thread_usable_cpus(void)
{
	cpu_set_t set;
	long n;

	/* what taskset and cgroups leave us, not what the machine has */
	if (!sched_getaffinity(0, sizeof(set), &set))
		return CPU_COUNT(&set) > 0 ? (unsigned int)CPU_COUNT(&set) : 1;
	n = sysconf(_SC_NPROCESSORS_ONLN);
	return n > 0 ? (unsigned int)n : 1;
}
