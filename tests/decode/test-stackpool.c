// SPDX-License-Identifier: GPL-2.0
/*
 * test-stackpool.c - the decoders' shared pool of distinct stacks: one
 * entry per distinct stack whichever thread or cache meets it first,
 * entries that stay put, dense ids.
 */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>

#include "lt-stackpool.h"
#include "lt-test.h"

#define DISTINCT 3000	/* most of the cache's 4096 slots collide */
#define ROUNDS 20

/* Stack @k: 1 to 24 frames, none equal to another stack's. */
static unsigned int make(unsigned int k, uint64_t *f)
{
	unsigned int n = 1 + k % 24, i;

	for (i = 0; i < n; i++)
		f[i] = 0xffffffff81000000ULL + k * 64 + i;
	return n;
}

struct thr {
	struct lt_spool *pool;
	unsigned int stride;
	const struct lt_spool_ent *seen[DISTINCT];
	int bad;
};

static void *intern_all(void *arg)
{
	struct thr *t = arg;
	struct lt_spool_cache *c = lt_spool_cache_new(t->pool);
	const struct lt_spool_ent *e;
	unsigned int r, i, k, n;
	uint64_t f[24];

	if (!c) {
		t->bad++;
		return NULL;
	}
	for (r = 0; r < ROUNDS; r++) {
		for (i = 0; i < DISTINCT; i++) {
			/* each thread its own order */
			k = (i * t->stride + r) % DISTINCT;
			n = make(k, f);
			e = lt_spool_get(c, f, n);
			if (!e || e->nr != n || memcmp(e->frames, f, n * 8) ||
			    (t->seen[k] && t->seen[k] != e))
				t->bad++;
			else
				t->seen[k] = e;
		}
	}
	lt_spool_cache_free(c);
	return NULL;
}

static void test_threads(void)
{
	static struct thr thr[3];
	struct lt_spool *pool = lt_spool_new(1 << 20);
	static char uid_seen[DISTINCT + 1];
	pthread_t id[3];
	unsigned int i, k;

	lt_test_case = "three threads";
	CHECK(pool != NULL);
	if (!pool)
		return;
	for (i = 0; i < 3; i++) {
		thr[i].pool = pool;
		thr[i].stride = (unsigned int[]){ 1, 7, 2999 }[i];
		CHECK(pthread_create(&id[i], NULL, intern_all, &thr[i]) == 0);
	}
	for (i = 0; i < 3; i++)
		pthread_join(id[i], NULL);
	for (i = 0; i < 3; i++)
		CHECK_U64(thr[i].bad, 0);
	/* every thread met the very same entry for a stack; ids are 1..N */
	for (k = 0; k < DISTINCT; k++) {
		const struct lt_spool_ent *e = thr[0].seen[k];

		CHECK(e && e == thr[1].seen[k] && e == thr[2].seen[k]);
		if (!e || e->uid < 1 || e->uid > DISTINCT || uid_seen[e->uid]++) {
			CHECK(!"uid out of range or repeated");
			break;
		}
	}
	lt_spool_free(pool);
}

static void test_one_cache(void)
{
	static const uint64_t a[] = { 1, 2, 3 }, b[] = { 1, 2 }, c[] = { 1, 2, 4 };
	struct lt_spool *pool = lt_spool_new(8);
	struct lt_spool_cache *c1, *c2;
	const struct lt_spool_ent *ea, *eb, *ec;

	lt_test_case = "one cache";
	CHECK(pool != NULL);
	if (!pool)
		return;
	c1 = lt_spool_cache_new(pool);
	c2 = lt_spool_cache_new(pool);
	ea = lt_spool_get(c1, a, 3);
	eb = lt_spool_get(c1, b, 2);	/* a prefix is another stack */
	ec = lt_spool_get(c2, c, 3);
	CHECK(ea && eb && ec);
	if (ea && eb && ec) {
		CHECK_U64(ea->uid, 1);
		CHECK_U64(eb->uid, 2);
		CHECK_U64(ec->uid, 3);
		CHECK_U64(eb->nr, 2);
		CHECK(lt_spool_get(c2, a, 3) == ea);
		CHECK(lt_spool_get(c1, a, 3) == ea);
		CHECK(lt_spool_get(c1, c, 3) == ec);
		/* full (8 words): a new one is refused, known ones found */
		CHECK(lt_spool_get(c1, a, 1) == NULL);
		CHECK(lt_spool_get(c2, b, 2) == eb);
	}
	lt_spool_cache_free(c1);
	lt_spool_cache_free(c2);
	lt_spool_free(pool);
}

int main(void)
{
	test_one_cache();
	test_threads();
	return lt_test_done("decode/stackpool");
}
