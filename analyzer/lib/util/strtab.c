// SPDX-License-Identifier: LGPL-2.1
/*
 * strtab.c - interned strings in an append-only arena (lt-strtab.h).
 */
#include <stdlib.h>
#include <string.h>

#include "lt-strtab.h"

#define CHUNK_MIN (64 * 1024)

static uint64_t str_hash(const char *s, size_t len)
{
	uint64_t h = 0xcbf29ce484222325ULL;	/* FNV-1a */
	size_t i;

	for (i = 0; i < len; i++) {
		h ^= (unsigned char)s[i];
		h *= 0x100000001b3ULL;
	}
	return h;
}

static char *arena_alloc(struct lt_strtab *tab, size_t n)
{
	char *p;

	if (!tab->chunk || tab->chunk_size - tab->chunk_used < n) {
		size_t size = n > CHUNK_MIN ? n : CHUNK_MIN;
		void **chunks = realloc(tab->chunks,
					(tab->nr_chunks + 1) * sizeof(*chunks));

		if (!chunks)
			return NULL;
		tab->chunks = chunks;
		tab->chunk = malloc(size);
		if (!tab->chunk)
			return NULL;
		tab->chunks[tab->nr_chunks++] = tab->chunk;
		tab->chunk_size = size;
		tab->chunk_used = 0;
		tab->bytes += size;
	}
	p = tab->chunk + tab->chunk_used;
	tab->chunk_used += n;
	return p;
}

int lt_strtab_init(struct lt_strtab *tab)
{
	memset(tab, 0, sizeof(*tab));
	lt_map_init(&tab->map);
	return lt_strtab_intern(tab, "", 0) == 0 ? 0 : -1;
}

void lt_strtab_free(struct lt_strtab *tab)
{
	size_t i;

	for (i = 0; i < tab->nr_chunks; i++)
		free(tab->chunks[i]);
	free(tab->chunks);
	free(tab->strs);
	lt_map_free(&tab->map);
	memset(tab, 0, sizeof(*tab));
}

/* Id of the string, or UINT32_MAX with *probe_out the free probe slot. */
static uint32_t find(const struct lt_strtab *tab, const char *s, size_t len,
		     uint64_t h, uint64_t *probe_out)
{
	uint64_t probe;
	uint32_t *slot;

	/* a hash collision moves on to the next probe key, so equal hashes never merge strings */
	for (probe = 0;; probe++) {
		slot = lt_map_get(&tab->map, h, len | probe << 32);
		if (!slot)
			break;
		if (!memcmp(tab->strs[*slot], s, len) && !tab->strs[*slot][len])
			return *slot;
	}
	*probe_out = probe;
	return UINT32_MAX;
}

uint32_t lt_strtab_find(const struct lt_strtab *tab, const char *s, size_t len)
{
	uint64_t probe;

	return find(tab, s, len, str_hash(s, len), &probe);
}

uint32_t lt_strtab_intern(struct lt_strtab *tab, const char *s, size_t len)
{
	uint64_t h = str_hash(s, len);
	uint64_t probe;
	uint32_t id;
	char *copy;
	int added;

	id = find(tab, s, len, h, &probe);
	if (id != UINT32_MAX)
		return id;
	if (tab->len == UINT32_MAX - 1)
		return UINT32_MAX;
	if (tab->len == tab->cap) {
		uint32_t ncap = tab->cap ? tab->cap * 2 : 256;
		const char **strs = realloc(tab->strs, ncap * sizeof(*strs));

		if (!strs)
			return UINT32_MAX;
		tab->strs = strs;
		tab->cap = ncap;
	}
	copy = arena_alloc(tab, len + 1);
	if (!copy)
		return UINT32_MAX;
	memcpy(copy, s, len);
	copy[len] = '\0';
	if (!lt_map_put(&tab->map, h, len | probe << 32, tab->len, &added))
		return UINT32_MAX;
	tab->strs[tab->len] = copy;
	return tab->len++;
}
