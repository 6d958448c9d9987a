/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * lt-strtab.h - interned strings.
 *
 * Reasons, arguments, comms and symbol names repeat millions of times in a
 * trace; rows and stacks refer to them by a small id instead.  Id 0 is "".
 * Strings never move once interned.
 */
#ifndef LT_STRTAB_H
#define LT_STRTAB_H

#include <stddef.h>
#include <stdint.h>

#include "lt-map.h"

struct lt_strtab {
	struct lt_map map;
	const char **strs;	/* id -> string */
	uint32_t len, cap;
	char *chunk;		/* current arena chunk */
	size_t chunk_used, chunk_size;
	void **chunks;		/* every chunk, for freeing */
	size_t nr_chunks;
	size_t bytes;
};

int lt_strtab_init(struct lt_strtab *tab);
void lt_strtab_free(struct lt_strtab *tab);
/* Id of @s (@len bytes, need not be NUL-terminated); UINT32_MAX on ENOMEM. */
uint32_t lt_strtab_intern(struct lt_strtab *tab, const char *s, size_t len);
/* Id of @s if interned, else UINT32_MAX. */
uint32_t lt_strtab_find(const struct lt_strtab *tab, const char *s, size_t len);
static inline const char *lt_strtab_get(const struct lt_strtab *tab, uint32_t id)
{
	return id < tab->len ? tab->strs[id] : "";
}

#endif /* LT_STRTAB_H */
