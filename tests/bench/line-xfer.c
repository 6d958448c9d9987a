// SPDX-License-Identifier: GPL-2.0
/*
 * line-xfer - how long one cache line takes to pass between two CPUs.
 *
 *   line-xfer [CPU_A CPU_B]        (default 0 1)
 *
 * Two threads, pinned to CPU_A and CPU_B, hand a counter back and forth
 * 200,000 times; prints the nanoseconds of one hand-over:
 *
 *   xfer_ns <ns>
 *
 * Why the benchmark needs it: latency-analyze's two threads pass every
 * decoded event from one core to the other.  Where the two CPUs share a
 * cache (~70 ns here) that is cheap; where a virtual machine's two CPUs sit
 * on different core complexes (~220 ns here), the same run uses a third
 * more CPU time.  A hypervisor may move them between runs, so the bench
 * measures this next to each round, to tell the two cases apart.
 *
 * Exit status 0, or 2 when a thread cannot be started or pinned.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define HANDOVERS	200000L

static _Alignas(64) atomic_long turn;
static atomic_int b_state;	/* 0 starting, 1 pinned, -1 could not pin */
static int cpu_b;

static int pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
}

/* Wait for @mine, pass on @mine + 1: odd numbers on one side, even on the other. */
static void play(long first)
{
	long i;

	for (i = first; i < HANDOVERS; i += 2) {
		while (atomic_load_explicit(&turn, memory_order_acquire) != i)
			;
		atomic_store_explicit(&turn, i + 1, memory_order_release);
	}
}

/* A CPU number, or -1. */
static int cpu_arg(const char *s)
{
	char *end;
	long v = strtol(s, &end, 10);

	return *s && !*end && v >= 0 && v < CPU_SETSIZE ? (int)v : -1;
}

static void *side_b(void *arg)
{
	(void)arg;
	if (pin(cpu_b)) {
		atomic_store(&b_state, -1);
		return NULL;
	}
	atomic_store(&b_state, 1);
	play(1);
	return NULL;
}

int main(int argc, char **argv)
{
	struct timespec t0, t1;
	int cpu_a = 0;
	pthread_t t;

	cpu_b = 1;
	if (argc == 3) {
		cpu_a = cpu_arg(argv[1]);
		cpu_b = cpu_arg(argv[2]);
	}
	/* on one CPU the two sides would take turns a time slice at a time */
	if ((argc != 1 && argc != 3) || cpu_a < 0 || cpu_b < 0 || cpu_a == cpu_b) {
		fprintf(stderr, "usage: line-xfer [CPU_A CPU_B] (two different CPU numbers)\n");
		return 2;
	}
	if (pin(cpu_a)) {
		fprintf(stderr, "line-xfer: cannot run on CPU %d\n", cpu_a);
		return 2;
	}
	if (pthread_create(&t, NULL, side_b, NULL)) {
		fprintf(stderr, "line-xfer: cannot start a thread\n");
		return 2;
	}
	while (!atomic_load(&b_state))
		;
	if (atomic_load(&b_state) < 0) {
		fprintf(stderr, "line-xfer: cannot run on CPU %d\n", cpu_b);
		return 2;
	}
	clock_gettime(CLOCK_MONOTONIC, &t0);
	play(0);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	pthread_join(t, NULL);
	printf("xfer_ns %.1f\n", ((t1.tv_sec - t0.tv_sec) * 1e9 +
				  (t1.tv_nsec - t0.tv_nsec)) / HANDOVERS);
	return 0;
}
