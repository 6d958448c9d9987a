// SPDX-License-Identifier: LGPL-2.1
/*
 * usym.c - user-space frames as (binary, file offset), named through
 * libdwfl (lt-usym.h).
 */
#include <elfutils/libdwfl.h>
#include <fcntl.h>
#include <gelf.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lt-map.h"
#include "lt-pidtab.h"
#include "lt-usym.h"

/* Caps a damaged or hostile file cannot push past. */
#define MAX_BINARIES	32767u		/* index + 1 fits 15 bits */
#define MAX_MAPS	(1u << 22)	/* mappings of all processes */
#define MAX_LOADS	16		/* PT_LOAD segments looked at */
#define BID_MAX		20

enum bin_state { BIN_UNOPENED, BIN_OPEN, BIN_MISSING, BIN_NO_SYMBOLS };

struct load {
	uint64_t off, filesz, vaddr;
};

struct binary {
	char *path;
	unsigned char bid[BID_MAX];
	uint8_t bid_len;
	enum bin_state state;
	bool counted;			/* in the stats already */
	Dwfl *dwfl;
	Dwfl_Module *mod;
	GElf_Addr bias;
	struct load loads[MAX_LOADS];
	unsigned int nr_loads;
};

struct map {
	uint64_t start, end, pgoff;
	uint32_t bin;
};

/* A process's mappings, sorted by start, none overlapping. */
struct space {
	struct map *maps;
	uint32_t nr, cap;
};

struct lt_usym {
	struct binary *bins;
	uint32_t nr_bins, cap_bins;
	struct lt_map bin_map;		/* (hash, probe) -> binary index */
	struct space *spaces;
	uint32_t nr_spaces, cap_spaces;
	struct lt_pidtab pids;		/* pid -> space index */
	uint64_t total_maps;
	char *cache;			/* perf's build-id cache */
	struct lt_usym_stats stats;
};

struct lt_usym *lt_usym_new(void)
{
	struct lt_usym *u = calloc(1, sizeof(*u));

	if (!u)
		return NULL;
	lt_map_init(&u->bin_map);
	lt_pidtab_init(&u->pids);
	return u;
}

void lt_usym_free(struct lt_usym *u)
{
	uint32_t i;

	if (!u)
		return;
	for (i = 0; i < u->nr_bins; i++) {
		free(u->bins[i].path);
		if (u->bins[i].dwfl)
			dwfl_end(u->bins[i].dwfl);
	}
	for (i = 0; i < u->nr_spaces; i++)
		free(u->spaces[i].maps);
	free(u->bins);
	free(u->spaces);
	lt_map_free(&u->bin_map);
	lt_pidtab_free(&u->pids);
	free(u->cache);
	free(u);
}

void lt_usym_set_cache(struct lt_usym *u, const char *dir)
{
	free(u->cache);
	u->cache = dir ? strdup(dir) : NULL;
}

const struct lt_usym_stats *lt_usym_stats(const struct lt_usym *u)
{
	return &u->stats;
}

/* ---- binaries ---------------------------------------------------------- */

static uint64_t bin_hash(const char *file, size_t len,
			 const unsigned char *bid, size_t bid_len)
{
	uint64_t h = lt_hash64(len ^ (uint64_t)bid_len << 32);
	size_t i;

	for (i = 0; i < len; i++)
		h = lt_hash64(h ^ (unsigned char)file[i]);
	for (i = 0; i < bid_len; i++)
		h = lt_hash64(h ^ bid[i] ^ 0x100);
	return h;
}

/* The index of binary (@file, @bid), added if new; UINT32_MAX past the caps. */
static uint32_t bin_get(struct lt_usym *u, const char *file, size_t len,
			const unsigned char *bid, size_t bid_len)
{
	uint64_t h, probe;
	struct binary *b;
	uint32_t *slot;
	int added;

	if (bid_len > BID_MAX)
		bid_len = BID_MAX;
	h = bin_hash(file, len, bid, bid_len);
	for (probe = 0;; probe++) {
		slot = lt_map_get(&u->bin_map, h, probe);
		if (!slot)
			break;
		b = &u->bins[*slot];
		if (strlen(b->path) == len && !memcmp(b->path, file, len) &&
		    b->bid_len == bid_len &&
		    (!bid_len || !memcmp(b->bid, bid, bid_len)))
			return *slot;
	}
	if (u->nr_bins >= MAX_BINARIES)
		return UINT32_MAX;
	if (u->nr_bins == u->cap_bins) {
		uint32_t cap = u->cap_bins ? u->cap_bins * 2 : 64;

		b = realloc(u->bins, (size_t)cap * sizeof(*b));
		if (!b)
			return UINT32_MAX;
		u->bins = b;
		u->cap_bins = cap;
	}
	b = &u->bins[u->nr_bins];
	memset(b, 0, sizeof(*b));
	b->path = strndup(file, len);
	if (!b->path ||
	    !lt_map_put(&u->bin_map, h, probe, u->nr_bins, &added)) {
		free(b->path);
		return UINT32_MAX;
	}
	if (bid_len)
		memcpy(b->bid, bid, bid_len);
	b->bid_len = (uint8_t)bid_len;
	u->stats.binaries++;
	return u->nr_bins++;
}

static void bid_hex(const struct binary *b, char *hex)
{
	unsigned int i;

	for (i = 0; i < b->bid_len; i++)
		sprintf(hex + 2 * i, "%02x", b->bid[i]);
	hex[2 * b->bid_len] = '\0';
}

/* The build-id of the ELF module, compared with the one recorded. */
static bool bid_matches(const struct binary *b, Dwfl_Module *mod)
{
	const unsigned char *bits;
	GElf_Addr vaddr;
	int n;

	if (!b->bid_len)
		return true;	/* nothing recorded to hold it to */
	n = dwfl_module_build_id(mod, &bits, &vaddr);
	/* perf pads a shorter id with zeros to 20 bytes */
	return n > 0 && n <= b->bid_len && !memcmp(bits, b->bid, n);
}

static const Dwfl_Callbacks offline_callbacks = {
	.find_elf = dwfl_build_id_find_elf,
	.find_debuginfo = dwfl_standard_find_debuginfo,
	.section_address = dwfl_offline_section_address,
};

/* Report @path as the binary's one module: true if it is the binary. */
static bool bin_try(struct binary *b, const char *path)
{
	GElf_Phdr ph;
	size_t nph, i;
	Elf *elf;

	if (access(path, R_OK))
		return false;
	b->dwfl = dwfl_begin(&offline_callbacks);
	if (!b->dwfl)
		return false;
	dwfl_report_begin(b->dwfl);
	/* an ET_DYN at its own p_vaddr: file offsets map as in its headers */
	b->mod = dwfl_report_elf(b->dwfl, b->path, path, -1, 0, true);
	dwfl_report_end(b->dwfl, NULL, NULL);
	elf = b->mod ? dwfl_module_getelf(b->mod, &b->bias) : NULL;
	if (!elf || !bid_matches(b, b->mod) || elf_getphdrnum(elf, &nph)) {
		dwfl_end(b->dwfl);
		b->dwfl = NULL;
		b->mod = NULL;
		return false;
	}
	for (i = 0; i < nph && b->nr_loads < MAX_LOADS; i++) {
		if (!gelf_getphdr(elf, (int)i, &ph) || ph.p_type != PT_LOAD)
			continue;
		b->loads[b->nr_loads].off = ph.p_offset;
		b->loads[b->nr_loads].filesz = ph.p_filesz;
		b->loads[b->nr_loads].vaddr = ph.p_vaddr;
		b->nr_loads++;
	}
	return true;
}

/*
 * Open the binary: where the trace says it was, else by build-id in
 * perf's cache and the system's debug files.
 */
static void bin_open(struct lt_usym *u, struct binary *b)
{
	char path[4096], hex[2 * BID_MAX + 1];
	const char *home = getenv("HOME");

	b->state = BIN_MISSING;
	if (b->path[0] == '/' && bin_try(b, b->path))
		goto found;
	if (!b->bid_len)
		goto missing;
	bid_hex(b, hex);
	if (u->cache)
		snprintf(path, sizeof(path), "%s/.build-id/%.2s/%s/elf",
			 u->cache, hex, hex + 2);
	else
		snprintf(path, sizeof(path), "%s/.debug/.build-id/%.2s/%s/elf",
			 home ? home : "/root", hex, hex + 2);
	if (bin_try(b, path))
		goto found;
	snprintf(path, sizeof(path), "/usr/lib/debug/.build-id/%.2s/%s.debug",
		 hex, hex + 2);
	if (bin_try(b, path))
		goto found;
missing:
	if (!b->counted)
		u->stats.binaries_missing++;
	b->counted = true;
	return;
found:
	b->state = BIN_OPEN;
	if (dwfl_module_getsymtab(b->mod) <= 0) {
		b->state = BIN_NO_SYMBOLS;
		if (!b->counted)
			u->stats.binaries_no_symbols++;
	}
	b->counted = true;
}

/*
 * Let go of the binary's files, maps and symbol tables (it is opened
 * again if named again); one that could not be found stays so.
 */
static void bin_close(struct binary *b)
{
	if (b->dwfl)
		dwfl_end(b->dwfl);
	b->dwfl = NULL;
	b->mod = NULL;
	b->nr_loads = 0;
	if (b->state != BIN_MISSING)
		b->state = BIN_UNOPENED;
}

/* ---- mappings ---------------------------------------------------------- */

static struct space *space_of(struct lt_usym *u, int pid, bool create)
{
	uint32_t i = lt_pidtab_get(&u->pids, pid);
	struct space *s;

	if (i != LT_PIDTAB_NONE)
		return &u->spaces[i];
	if (!create)
		return NULL;
	if (u->nr_spaces == u->cap_spaces) {
		uint32_t cap = u->cap_spaces ? u->cap_spaces * 2 : 64;

		s = realloc(u->spaces, (size_t)cap * sizeof(*s));
		if (!s)
			return NULL;
		u->spaces = s;
		u->cap_spaces = cap;
	}
	if (lt_pidtab_set(&u->pids, pid, u->nr_spaces) < 0)
		return NULL;
	s = &u->spaces[u->nr_spaces++];
	memset(s, 0, sizeof(*s));
	return s;
}

/* Room for @n more mappings in @s. */
static int space_reserve(struct lt_usym *u, struct space *s, uint32_t n)
{
	struct map *m;
	uint32_t cap;

	if (u->total_maps + n > MAX_MAPS)
		return -1;
	if (s->nr + n <= s->cap)
		return 0;
	cap = s->cap ? s->cap * 2 : 16;
	while (cap < s->nr + n)
		cap *= 2;
	m = realloc(s->maps, (size_t)cap * sizeof(*m));
	if (!m)
		return -1;
	s->maps = m;
	s->cap = cap;
	return 0;
}

int lt_usym_map(struct lt_usym *u, int pid, uint64_t start, uint64_t len,
		uint64_t pgoff, const char *file, size_t file_len,
		const unsigned char *build_id, size_t bid_len)
{
	uint64_t end = start + len;
	struct map nm, *m, *tmp;
	uint32_t bin, i, n, k, old;
	struct space *s;

	if (!len || end < start)
		return 0;
	bin = bin_get(u, file, file_len, build_id, bid_len);
	s = bin == UINT32_MAX ? NULL : space_of(u, pid, true);
	/* at most one split in two: room for it and the new one */
	if (!s || space_reserve(u, s, 2) < 0) {
		u->stats.over_caps++;
		return -1;
	}
	nm.start = start;
	nm.end = end;
	nm.pgoff = pgoff;
	nm.bin = bin;
	old = s->nr;
	tmp = malloc((old + 2) * sizeof(*tmp));
	if (!tmp) {
		u->stats.over_caps++;
		return -1;
	}
	/* what the new one covers is cut out of the old ones */
	for (i = 0, n = 0; i < old; i++) {
		m = &s->maps[i];
		if (m->end <= start || m->start >= end) {
			tmp[n++] = *m;
			continue;
		}
		if (m->start < start) {
			tmp[n] = *m;
			tmp[n++].end = start;
		}
		if (m->end > end) {
			tmp[n] = *m;
			tmp[n].pgoff += end - m->start;
			tmp[n++].start = end;
		}
	}
	/* sorted, none overlapping: the new one goes before the first after it */
	for (i = 0, k = 0; i < n && tmp[i].start < start; i++)
		s->maps[k++] = tmp[i];
	s->maps[k++] = nm;
	for (; i < n; i++)
		s->maps[k++] = tmp[i];
	free(tmp);
	s->nr = k;
	u->total_maps += (uint64_t)k - old;
	u->stats.maps++;
	return 0;
}

void lt_usym_maps_done(struct lt_usym *u)
{
	uint32_t i;

	for (i = 0; i < u->nr_spaces; i++)
		free(u->spaces[i].maps);
	free(u->spaces);
	u->spaces = NULL;
	u->nr_spaces = u->cap_spaces = 0;
	u->total_maps = 0;
	lt_pidtab_free(&u->pids);
	lt_pidtab_init(&u->pids);
}

void lt_usym_exec(struct lt_usym *u, int pid)
{
	struct space *s = space_of(u, pid, false);

	if (s) {
		u->total_maps -= s->nr;
		s->nr = 0;
	}
}

int lt_usym_fork(struct lt_usym *u, int parent, int child)
{
	struct space *p = space_of(u, parent, false), *c;
	uint32_t pi;

	if (!p || parent == child)
		return 0;
	pi = (uint32_t)(p - u->spaces);
	c = space_of(u, child, true);
	if (!c || space_reserve(u, c, u->spaces[pi].nr) < 0) {
		u->stats.over_caps++;
		return -1;
	}
	p = &u->spaces[pi];	/* space_of() may have moved them */
	u->total_maps -= c->nr;
	if (p->nr)
		memcpy(c->maps, p->maps, p->nr * sizeof(*p->maps));
	c->nr = p->nr;
	u->total_maps += c->nr;
	return 0;
}

uint64_t lt_usym_encode(const struct lt_usym *u, int pid, uint64_t addr)
{
	uint32_t i = lt_pidtab_get(&u->pids, pid), lo, hi, mid;
	const struct space *s;
	const struct map *m;
	uint64_t off;

	if (i == LT_PIDTAB_NONE)
		goto raw;
	s = &u->spaces[i];
	lo = 0;
	hi = s->nr;
	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (s->maps[mid].start <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo)
		goto raw;
	m = &s->maps[lo - 1];
	if (addr >= m->end)
		goto raw;
	off = addr - m->start + m->pgoff;
	if (off > LT_USYM_OFF_MASK)
		goto raw;
	return (uint64_t)(m->bin + 1) << LT_USYM_OFF_BITS | off;
raw:
	((struct lt_usym *)u)->stats.unmapped++;
	/*
	 * In no mapping: a frame-pointer walk gone astray, mostly.  One
	 * frame for all, "[unknown]" as perf script says it: their
	 * addresses would only split stacks that are one.
	 */
	return 0;
}

unsigned int lt_usym_nr_binaries(const struct lt_usym *u)
{
	return u->nr_bins;
}

const char *lt_usym_binary(const struct lt_usym *u, unsigned int i, char *hex)
{
	if (i >= u->nr_bins)
		return NULL;
	bid_hex(&u->bins[i], hex);
	return u->bins[i].path;
}

/* ---- names ------------------------------------------------------------- */

static const char *base_name(const char *path)
{
	const char *s = strrchr(path, '/');

	return s && s[1] ? s + 1 : path;
}

const char *lt_usym_name(struct lt_usym *u, uint64_t frame, char *buf,
			 size_t len)
{
	uint64_t bi = frame >> LT_USYM_OFF_BITS, off = frame & LT_USYM_OFF_MASK;
	const struct load *ld;
	struct binary *b;
	GElf_Off delta;
	GElf_Sym sym;
	const char *name;
	unsigned int i;

	if (!bi || bi > u->nr_bins) {
		snprintf(buf, len, "[unknown]");
		return buf;
	}
	b = &u->bins[bi - 1];
	if (b->state == BIN_UNOPENED)
		bin_open(u, b);
	if (b->state == BIN_OPEN) {
		for (i = 0; i < b->nr_loads; i++) {
			ld = &b->loads[i];
			if (off < ld->off || off - ld->off >= ld->filesz)
				continue;
			name = dwfl_module_addrinfo(b->mod, ld->vaddr +
						    (off - ld->off) + b->bias,
						    &delta, &sym, NULL, NULL,
						    NULL);
			if (name && *name) {
				snprintf(buf, len, "%s", name);
				return buf;
			}
			break;
		}
	}
	snprintf(buf, len, "%s+0x%" PRIx64, base_name(b->path), off);
	return buf;
}

int lt_usym_name_all(struct lt_usym *u, const uint64_t *frames, size_t nr,
		     lt_usym_name_fn fn, void *ctx)
{
	char buf[512];
	uint64_t bi;
	size_t i;
	int ret = 0;

	for (i = 0; i < nr && !ret; i++) {
		ret = fn(ctx, frames[i], lt_usym_name(u, frames[i], buf,
						      sizeof(buf)));
		/* the binary's last frame: its files go before the next's */
		bi = frames[i] >> LT_USYM_OFF_BITS;
		if (bi && bi <= u->nr_bins &&
		    (i + 1 == nr || frames[i + 1] >> LT_USYM_OFF_BITS != bi))
			bin_close(&u->bins[bi - 1]);
	}
	return ret ? -1 : 0;
}
