/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * lt-map.h - open-addressing hash map from a 128-bit key to a u32 value.
 *
 * Every table in the analyzer (pids, rows, stacks, strings) is keyed by a
 * pair of integers, so one small map serves them all.
 */
#ifndef LT_MAP_H
#define LT_MAP_H

#include <stddef.h>
#include <stdint.h>

struct lt_map_slot {
	uint64_t k1, k2;
	uint32_t val;
	uint32_t used;
};

struct lt_map {
	struct lt_map_slot *slots;
	size_t cap;		/* power of two, 0 when empty */
	size_t len;
};

static inline uint64_t lt_hash64(uint64_t x)
{
	/* splitmix64 finaliser: cheap and mixes all bits */
	x ^= x >> 30;
	x *= 0xbf58476d1ce4e5b9ULL;
	x ^= x >> 27;
	x *= 0x94d049bb133111ebULL;
	x ^= x >> 31;
	return x;
}

/* A run of words, e.g. a kernel stack's frames. */
static inline uint64_t lt_hash64_words(const uint64_t *w, uint32_t n)
{
	uint64_t h = n;
	uint32_t i;

	for (i = 0; i < n; i++)
		h = lt_hash64(h ^ w[i]);
	return h;
}

void lt_map_init(struct lt_map *map);
void lt_map_free(struct lt_map *map);
/* Pointer to the value, or NULL. */
uint32_t *lt_map_get(const struct lt_map *map, uint64_t k1, uint64_t k2);
/*
 * Insert @val unless the key exists.  Returns the value slot (existing or
 * new) and sets *added; NULL on allocation failure.
 */
uint32_t *lt_map_put(struct lt_map *map, uint64_t k1, uint64_t k2,
		     uint32_t val, int *added);
/* Remove a key; returns 0 if it was there, -1 if not. */
int lt_map_del(struct lt_map *map, uint64_t k1, uint64_t k2);
size_t lt_map_bytes(const struct lt_map *map);

#endif /* LT_MAP_H */
