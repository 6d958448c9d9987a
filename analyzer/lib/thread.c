// SPDX-License-Identifier: LGPL-2.1
/*
 * thread.c - helper threads started on another CPU (lt-thread.h).
 */
#define _GNU_SOURCE
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

int lt_thread_start(pthread_t *thread, void *(*fn)(void *), void *arg)
{
	cpu_set_t allowed, start;
	pthread_attr_t attr;
	int ret;

	/* a mask too small for the machine fails: then no placing */
	if (sched_getaffinity(0, sizeof(allowed), &allowed) ||
	    !lt_thread_start_set(sched_getcpu(), &allowed, &start) ||
	    pthread_attr_init(&attr))
		return pthread_create(thread, NULL, fn, arg);
	if (pthread_attr_setaffinity_np(&attr, sizeof(start), &start))
		ret = pthread_create(thread, NULL, fn, arg);
	else
		ret = pthread_create(thread, &attr, fn, arg);
	pthread_attr_destroy(&attr);
	/*
	 * Placed by now (glibc sets a new thread's CPUs before it runs), and
	 * on a CPU it keeps: the balancer may move it from here as it likes.
	 */
	if (!ret)
		pthread_setaffinity_np(*thread, sizeof(allowed), &allowed);
	return ret;
}
