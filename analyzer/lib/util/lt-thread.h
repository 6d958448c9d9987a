/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * lt-thread.h - helper threads started where they can run at once.
 *
 * Linux often queues a new thread on its creator's CPU, busy, while
 * another is idle, and the two then share one CPU for milliseconds until
 * the balancer moves one: on this project's 2-vCPU VM the pipe's worker
 * started on its creator's CPU in 7 of 12 runs, up to 4.5 ms late, and
 * len1x-v6 took 34.8 ms with two threads, 31.9 ms once the worker started
 * elsewhere (medians of 41 alternated runs).
 */
#ifndef LT_THREAD_H
#define LT_THREAD_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>

#define LT_CACHE_LINE	64

/*
 * pthread_create(), but on a CPU other than the caller's when the process
 * may use one: queued there, then free to go anywhere it may.
 */
int lt_thread_start(pthread_t *thread, void *(*fn)(void *), void *arg);
/* CPUs this process may run on (its affinity), at least 1. */
unsigned int lt_thread_usable_cpus(void);

/*
 * @size bytes, zeroed, in cache lines of their own (freed with free()),
 * for what a thread writes or reads at every record while another runs.
 * From the heap, such a block could share a line with what another
 * thread writes as often, moving it between cores at every write; and
 * whether it did hung on earlier allocations and frees, down to another
 * thread's start and exit.
 */
void *lt_thread_own_alloc(size_t size);

#ifdef _GNU_SOURCE	/* cpu_set_t */
#include <sched.h>

/*
 * Where lt_thread_start() queues a thread created on @cpu by a process
 * allowed @allowed: @allowed without @cpu, or false to leave it to the
 * scheduler (@cpu unknown or not allowed, or nowhere else to go).
 */
bool lt_thread_start_set(int cpu, const cpu_set_t *allowed, cpu_set_t *out);
#endif

#endif /* LT_THREAD_H */
