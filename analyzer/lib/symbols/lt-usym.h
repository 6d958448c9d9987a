/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * lt-usym.h - user-space frames: an address in a process, kept as a place
 * in a binary, and named from that binary (elfutils' libdwfl).
 *
 * perf records where each process mapped which file (MMAP, MMAP2, with
 * build-ids).  A frame is turned into (binary, file offset) as soon as it
 * is read, while the process's mappings are the ones it ran with: the same
 * code in two processes is then one frame, and an exec() later cannot
 * change what an earlier frame meant.  Names come at report time, once
 * per frame: the binary is opened where the trace says it was, or found
 * by its build-id in perf's cache (~/.debug) or the system's debug files;
 * a binary that cannot be found, or whose build-id differs from the one
 * recorded, leaves "file+0xoffset".
 *
 * Memory grows with the mappings and binaries the trace names, capped.
 */
#ifndef LT_USYM_H
#define LT_USYM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct lt_usym;

/*
 * An encoded frame: binary index + 1 in the top 16 bits, file offset in
 * the 48 below; 0: an address in no mapping.
 */
#define LT_USYM_OFF_BITS	48
#define LT_USYM_OFF_MASK	((1ULL << LT_USYM_OFF_BITS) - 1)

struct lt_usym *lt_usym_new(void);
void lt_usym_free(struct lt_usym *u);

/*
 * Process @pid mapped @len bytes of @file from file offset @pgoff at
 * @start (@build_id: @bid_len bytes, 0 when not recorded).  A mapping
 * over older ones replaces them where they overlap.  0, or -1 when out of
 * memory or past the caps (then counted, and the frames stay addresses).
 */
int lt_usym_map(struct lt_usym *u, int pid, uint64_t start, uint64_t len,
		uint64_t pgoff, const char *file, size_t file_len,
		const unsigned char *build_id, size_t bid_len);
/* @pid exec'd: its old mappings are gone. */
void lt_usym_exec(struct lt_usym *u, int pid);
/* @child is a new process forked from @parent: it starts with its maps. */
int lt_usym_fork(struct lt_usym *u, int parent, int child);

/* @addr of process @pid as an encoded frame (see above). */
uint64_t lt_usym_encode(const struct lt_usym *u, int pid, uint64_t addr);

/*
 * No frame will be encoded any more: the processes' mappings go (the
 * binaries stay, to name the frames encoded).
 */
void lt_usym_maps_done(struct lt_usym *u);

/* An encoded frame's binary (index + 1, 0: none) and file offset. */
static inline void lt_usym_place(uint64_t frame, uint32_t *binary,
				 uint64_t *offset)
{
	*binary = (uint32_t)(frame >> LT_USYM_OFF_BITS);
	*offset = *binary ? frame & LT_USYM_OFF_MASK : 0;
}

/*
 * The name of an encoded frame: "function", else "file+0xoffset" (the
 * file's last path component), or "[unknown]" (in no mapping, as perf
 * script says it); in @buf, which it returns.  Binaries are opened on
 * first use.
 */
const char *lt_usym_name(struct lt_usym *u, uint64_t frame, char *buf,
			 size_t len);

/*
 * Name @nr encoded frames at once, each as lt_usym_name() would, through
 * @fn (0 to go on, else stop: then -1), in their order.  A run of frames
 * of one binary is named in one pass over its symbols (where
 * dwfl_module_addrinfo() passes over them all, and reads every name, for
 * each frame), and the binary's files and tables are let go after it:
 * with @frames sorted (so grouped by binary), one binary is open at a
 * time, and of it mostly its symbol table is read.
 */
typedef int (*lt_usym_name_fn)(void *ctx, uint64_t frame, const char *name);
int lt_usym_name_all(struct lt_usym *u, const uint64_t *frames, size_t nr,
		     lt_usym_name_fn fn, void *ctx);

/* The number of binaries frames may name (those mapped so far). */
unsigned int lt_usym_nr_binaries(const struct lt_usym *u);
/*
 * Binary @i (from 0: an encoded frame's binary index) as the trace named
 * it, and its build-id as hex into @hex of 41 bytes ("" when not
 * recorded); NULL past the last.
 */
const char *lt_usym_binary(const struct lt_usym *u, unsigned int i, char *hex);

/*
 * Where to look for binaries by build-id besides the system's: perf's
 * cache (default $HOME/.debug); NULL: only the default.
 */
void lt_usym_set_cache(struct lt_usym *u, const char *dir);

/* What naming found, for the report to say (after lt_usym_name() calls). */
struct lt_usym_stats {
	uint64_t maps, binaries;
	uint64_t over_caps;		/* mappings not kept */
	uint64_t unmapped;		/* frames in no mapping */
	uint64_t binaries_missing;	/* not found, or another build-id */
	uint64_t binaries_no_symbols;	/* found, without a symbol table */
};
const struct lt_usym_stats *lt_usym_stats(const struct lt_usym *u);

#endif /* LT_USYM_H */
