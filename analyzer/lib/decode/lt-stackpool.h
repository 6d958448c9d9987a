/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * lt-stackpool.h - distinct kernel stacks, interned as they are decoded.
 *
 * A trace with stacks (-T) has one after nearly every switch, yet only a
 * few thousand distinct ones.  Decoding threads intern each into one pool
 * and hand on a pointer to the pooled frames and a small id, so that the
 * frames are neither copied into the event batches nor hashed again by
 * the replay.  Entries never move or change once added.  Each thread
 * looks up through its own cache and takes the pool's lock only for a
 * stack its cache has not seen.
 */
#ifndef LT_STACKPOOL_H
#define LT_STACKPOOL_H

#include <stdint.h>

struct lt_spool_ent {
	uint64_t hash;
	uint32_t uid;		/* 1, 2, ...: dense, for direct lookup */
	uint32_t nr;
	uint64_t frames[];
};

struct lt_spool;
struct lt_spool_cache;

/* At most @max_words frames in all entries (then lt_spool_get() says NULL). */
struct lt_spool *lt_spool_new(uint64_t max_words);
void lt_spool_free(struct lt_spool *pool);
/* One per thread. */
struct lt_spool_cache *lt_spool_cache_new(struct lt_spool *pool);
void lt_spool_cache_free(struct lt_spool_cache *cache);
/*
 * The pooled copy of @nr frames; NULL when the pool is full or memory ran
 * out: the caller then keeps its own copy.
 */
const struct lt_spool_ent *lt_spool_get(struct lt_spool_cache *cache,
					const uint64_t *frames, uint32_t nr);

#endif /* LT_STACKPOOL_H */
