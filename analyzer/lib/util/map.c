// SPDX-License-Identifier: LGPL-2.1
/*
 * map.c - linear-probing hash map (lt-map.h).
 */
#include <stdlib.h>
#include <string.h>

#include "lt-map.h"

#define MAP_MIN_CAP 16

static inline size_t slot_of(const struct lt_map *map, uint64_t k1, uint64_t k2)
{
	return lt_hash64(k1 ^ lt_hash64(k2 + 0x9e3779b97f4a7c15ULL)) &
	       (map->cap - 1);
}

void lt_map_init(struct lt_map *map)
{
	memset(map, 0, sizeof(*map));
}

void lt_map_free(struct lt_map *map)
{
	free(map->slots);
	lt_map_init(map);
}

uint32_t *lt_map_get(const struct lt_map *map, uint64_t k1, uint64_t k2)
{
	size_t i;

	if (!map->cap)
		return NULL;
	for (i = slot_of(map, k1, k2);; i = (i + 1) & (map->cap - 1)) {
		struct lt_map_slot *s = &map->slots[i];

		if (!s->used)
			return NULL;
		if (s->k1 == k1 && s->k2 == k2)
			return &s->val;
	}
}

static int map_grow(struct lt_map *map)
{
	size_t ncap = map->cap ? map->cap * 2 : MAP_MIN_CAP;
	struct lt_map_slot *old = map->slots;
	size_t ocap = map->cap, i;

	if (ncap > SIZE_MAX / sizeof(*old) / 2)
		return -1;
	map->slots = calloc(ncap, sizeof(*old));
	if (!map->slots) {
		map->slots = old;
		return -1;
	}
	map->cap = ncap;
	for (i = 0; i < ocap; i++) {
		size_t j;

		if (!old[i].used)
			continue;
		for (j = slot_of(map, old[i].k1, old[i].k2); map->slots[j].used;
		     j = (j + 1) & (ncap - 1))
			;
		map->slots[j] = old[i];
	}
	free(old);
	return 0;
}

uint32_t *lt_map_put(struct lt_map *map, uint64_t k1, uint64_t k2,
		     uint32_t val, int *added)
{
	uint32_t *found = lt_map_get(map, k1, k2);
	size_t i;

	*added = 0;
	if (found)
		return found;
	/* keep the load under 3/4 so probes stay short */
	if ((map->len + 1) * 4 > map->cap * 3 && map_grow(map) < 0)
		return NULL;
	for (i = slot_of(map, k1, k2); map->slots[i].used;
	     i = (i + 1) & (map->cap - 1))
		;
	map->slots[i].k1 = k1;
	map->slots[i].k2 = k2;
	map->slots[i].val = val;
	map->slots[i].used = 1;
	map->len++;
	*added = 1;
	return &map->slots[i].val;
}

int lt_map_del(struct lt_map *map, uint64_t k1, uint64_t k2)
{
	size_t i, j;

	if (!map->cap)
		return -1;
	for (i = slot_of(map, k1, k2);; i = (i + 1) & (map->cap - 1)) {
		if (!map->slots[i].used)
			return -1;
		if (map->slots[i].k1 == k1 && map->slots[i].k2 == k2)
			break;
	}
	/* backward-shift deletion keeps probe chains intact without tombstones */
	map->slots[i].used = 0;
	for (j = (i + 1) & (map->cap - 1); map->slots[j].used;
	     j = (j + 1) & (map->cap - 1)) {
		size_t home = slot_of(map, map->slots[j].k1, map->slots[j].k2);

		/* can the entry at j move to the hole at i? */
		if ((j > i && (home <= i || home > j)) ||
		    (j < i && (home <= i && home > j))) {
			map->slots[i] = map->slots[j];
			map->slots[j].used = 0;
			i = j;
		}
	}
	map->len--;
	return 0;
}

size_t lt_map_bytes(const struct lt_map *map)
{
	return map->cap * sizeof(*map->slots);
}
