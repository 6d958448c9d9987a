// SPDX-License-Identifier: LGPL-2.1
/*
 * stackpool.c - distinct kernel stacks shared by decoding threads
 * (lt-stackpool.h).
 */
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "lt-map.h"
#include "lt-stackpool.h"
#include "lt-thread.h"

#define CACHE_SLOTS	4096	/* direct-mapped, by hash */

struct lt_spool {
	pthread_mutex_t lock;
	struct lt_map map;		/* (hash, probe) -> uid */
	struct lt_spool_ent **ents;	/* by uid - 1 */
	uint32_t nr, cap;
	uint64_t nr_frames, max_frames;
};

struct lt_spool_cache {
	struct lt_spool *pool;
	const struct lt_spool_ent *slot[CACHE_SLOTS];
};

static bool same(const struct lt_spool_ent *e, uint64_t h,
		 const uint64_t *f, uint32_t n)
{
	return e->hash == h && e->nr == n &&
	       !memcmp(e->frames, f, (size_t)n * sizeof(*f));
}

struct lt_spool *lt_spool_new(uint64_t max_words)
{
	struct lt_spool *pool = calloc(1, sizeof(*pool));

	if (!pool)
		return NULL;
	/* ids and the entry vector count in 32 bits: one frame an entry */
	pool->max_frames = max_words < (1u << 30) ? max_words : 1u << 30;
	pthread_mutex_init(&pool->lock, NULL);
	lt_map_init(&pool->map);
	return pool;
}

void lt_spool_free(struct lt_spool *pool)
{
	uint32_t i;

	if (!pool)
		return;
	for (i = 0; i < pool->nr; i++)
		free(pool->ents[i]);
	free(pool->ents);
	lt_map_free(&pool->map);
	pthread_mutex_destroy(&pool->lock);
	free(pool);
}

struct lt_spool_cache *lt_spool_cache_new(struct lt_spool *pool)
{
	/* read at every stack, written at every miss, by its thread */
	struct lt_spool_cache *c = lt_thread_own_alloc(sizeof(*c));

	if (c)
		c->pool = pool;
	return c;
}

void lt_spool_cache_free(struct lt_spool_cache *cache)
{
	free(cache);
}

/* With the lock held: the entry for these frames, added if new. */
static const struct lt_spool_ent *pool_get(struct lt_spool *pool, uint64_t h,
					   const uint64_t *f, uint32_t n)
{
	struct lt_spool_ent *e;
	uint32_t *slot;
	uint64_t probe;
	int added;

	/* equal hashes of different stacks take the next probe */
	for (probe = 0;; probe++) {
		slot = lt_map_get(&pool->map, h, probe);
		if (!slot)
			break;
		if (same(pool->ents[*slot - 1], h, f, n))
			return pool->ents[*slot - 1];
	}
	if (pool->nr_frames + n > pool->max_frames)
		return NULL;
	if (pool->nr == pool->cap) {
		uint32_t ncap = pool->cap ? pool->cap * 2 : 1024;
		struct lt_spool_ent **p = realloc(pool->ents, ncap * sizeof(*p));

		if (!p)
			return NULL;
		pool->ents = p;
		pool->cap = ncap;
	}
	e = malloc(sizeof(*e) + (size_t)n * sizeof(*f));
	if (!e)
		return NULL;
	e->hash = h;
	e->uid = pool->nr + 1;
	e->nr = n;
	memcpy(e->frames, f, (size_t)n * sizeof(*f));
	if (!lt_map_put(&pool->map, h, probe, e->uid, &added)) {
		free(e);
		return NULL;
	}
	pool->ents[pool->nr++] = e;
	pool->nr_frames += n;
	return e;
}

const struct lt_spool_ent *lt_spool_get(struct lt_spool_cache *c,
					const uint64_t *f, uint32_t n)
{
	uint64_t h = lt_hash64_words(f, n);
	const struct lt_spool_ent **slot = &c->slot[h % CACHE_SLOTS];
	const struct lt_spool_ent *e = *slot;

	if (e && same(e, h, f, n))
		return e;
	pthread_mutex_lock(&c->pool->lock);
	e = pool_get(c->pool, h, f, n);
	pthread_mutex_unlock(&c->pool->lock);
	if (e)
		*slot = e;
	return e;
}
