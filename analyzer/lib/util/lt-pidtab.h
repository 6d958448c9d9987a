/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * lt-pidtab.h - pid -> task index, looked up for nearly every event.
 *
 * Linux pids stay below PID_MAX_LIMIT (4M): a two-level table answers
 * those with two loads and allocates only the 4 KiB chunks in use.  Any
 * other value a damaged trace may hold goes to a hash map.
 */
#ifndef LT_PIDTAB_H
#define LT_PIDTAB_H

#include <stdint.h>

#include "lt-map.h"

#define LT_PIDTAB_CHUNK_BITS 10
#define LT_PIDTAB_TOP (1u << 12)	/* 4096 chunks x 1024 pids = 4M */
#define LT_PIDTAB_NONE UINT32_MAX

struct lt_pidtab {
	uint32_t *chunks[LT_PIDTAB_TOP];
	struct lt_map other;
};

void lt_pidtab_init(struct lt_pidtab *pt);
void lt_pidtab_free(struct lt_pidtab *pt);
/* -1 on ENOMEM. */
int lt_pidtab_set(struct lt_pidtab *pt, int pid, uint32_t val);
void lt_pidtab_del(struct lt_pidtab *pt, int pid);

static inline uint32_t lt_pidtab_get(const struct lt_pidtab *pt, int pid)
{
	uint32_t u = (uint32_t)pid, *c;
	const uint32_t *slot;

	if (u < LT_PIDTAB_TOP << LT_PIDTAB_CHUNK_BITS) {
		c = pt->chunks[u >> LT_PIDTAB_CHUNK_BITS];
		return c ? c[u & ((1u << LT_PIDTAB_CHUNK_BITS) - 1)] : LT_PIDTAB_NONE;
	}
	slot = lt_map_get(&pt->other, u, 0);
	return slot ? *slot : LT_PIDTAB_NONE;
}

#endif /* LT_PIDTAB_H */
