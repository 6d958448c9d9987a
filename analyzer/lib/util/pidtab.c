// SPDX-License-Identifier: LGPL-2.1
/*
 * pidtab.c - pid -> task index (lt-pidtab.h).
 */
#include <stdlib.h>
#include <string.h>

#include "lt-pidtab.h"

#define CHUNK (1u << LT_PIDTAB_CHUNK_BITS)

void lt_pidtab_init(struct lt_pidtab *pt)
{
	memset(pt, 0, sizeof(*pt));
	lt_map_init(&pt->other);
}

void lt_pidtab_free(struct lt_pidtab *pt)
{
	unsigned int i;

	for (i = 0; i < LT_PIDTAB_TOP; i++)
		free(pt->chunks[i]);
	lt_map_free(&pt->other);
	memset(pt, 0, sizeof(*pt));
}

int lt_pidtab_set(struct lt_pidtab *pt, int pid, uint32_t val)
{
	uint32_t u = (uint32_t)pid, **c, *slot;
	unsigned int i;
	int added;

	if (u >= LT_PIDTAB_TOP * CHUNK) {
		slot = lt_map_put(&pt->other, u, 0, val, &added);
		if (!slot)
			return -1;
		*slot = val;
		return 0;
	}
	c = &pt->chunks[u / CHUNK];
	if (!*c) {
		*c = malloc(CHUNK * sizeof(**c));
		if (!*c)
			return -1;
		for (i = 0; i < CHUNK; i++)
			(*c)[i] = LT_PIDTAB_NONE;
	}
	(*c)[u % CHUNK] = val;
	return 0;
}

void lt_pidtab_del(struct lt_pidtab *pt, int pid)
{
	uint32_t u = (uint32_t)pid;

	if (u >= LT_PIDTAB_TOP * CHUNK)
		lt_map_del(&pt->other, u, 0);
	else if (pt->chunks[u / CHUNK])
		pt->chunks[u / CHUNK][u % CHUNK] = LT_PIDTAB_NONE;
}
