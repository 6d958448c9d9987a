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

/* Where file offset @off of @b is in its module: 0 when in no PT_LOAD. */
static int bin_addr(const struct binary *b, uint64_t off, GElf_Addr *addr)
{
	const struct load *ld;
	unsigned int i;

	for (i = 0; i < b->nr_loads; i++) {
		ld = &b->loads[i];
		if (off < ld->off || off - ld->off >= ld->filesz)
			continue;
		*addr = ld->vaddr + (off - ld->off) + b->bias;
		return 1;
	}
	return 0;
}

const char *lt_usym_name(struct lt_usym *u, uint64_t frame, char *buf,
			 size_t len)
{
	uint64_t bi = frame >> LT_USYM_OFF_BITS, off = frame & LT_USYM_OFF_MASK;
	struct binary *b;
	GElf_Off delta;
	GElf_Addr addr;
	GElf_Sym sym;
	const char *name;

	if (!bi || bi > u->nr_bins) {
		snprintf(buf, len, "[unknown]");
		return buf;
	}
	b = &u->bins[bi - 1];
	if (b->state == BIN_UNOPENED)
		bin_open(u, b);
	if (b->state == BIN_OPEN && bin_addr(b, off, &addr)) {
		name = dwfl_module_addrinfo(b->mod, addr, &delta, &sym, NULL,
					    NULL, NULL);
		if (name && *name) {
			snprintf(buf, len, "%s", name);
			return buf;
		}
	}
	snprintf(buf, len, "%s+0x%" PRIx64, base_name(b->path), off);
	return buf;
}

/* ---- many names at once ------------------------------------------------ */

/*
 * A frame of the binary being named, and the symbol chosen for it so far
 * by dwfl_module_addrinfo()'s rules (elfutils, libdwfl/dwfl_module_addrsym.c).
 */
struct want {
	GElf_Addr addr;
	size_t at;		/* its frame's index */
	const char *name;	/* the closest symbol with a size */
	GElf_Addr value;
	GElf_Xword size;
	int binding;
	bool sizeless;		/* one without a size may name it */
	bool locals;		/* the locals are looked at for it */
	size_t sec;		/* its section (secs_find()) */
};

static int cmp_want(const void *x, const void *y)
{
	const struct want *a = x, *b = y;

	return a->addr < b->addr ? -1 : a->addr > b->addr;
}

/* GELF_ST_BIND as dwfl ranks it: higher is better. */
static int binding_rank(const GElf_Sym *sym)
{
	switch (GELF_ST_BIND(sym->st_info)) {
	case STB_GLOBAL:
		return 3;
	case STB_WEAK:
		return 2;
	case STB_LOCAL:
		return 1;
	default:
		return 0;
	}
}

/* A symbol with a size that holds @w's address: dwfl's try_sym_value(). */
static void try_sized(struct want *w, const char *name, GElf_Addr value,
		      const GElf_Sym *sym)
{
	int rank = binding_rank(sym);

	if (!w->name || w->value < value || w->binding < rank ||
	    (w->value == value &&
	     ((w->size > sym->st_size && w->binding <= rank) ||
	      (w->size >= sym->st_size && w->binding < rank)))) {
		w->name = name;
		w->value = value;
		w->size = sym->st_size;
		w->binding = rank;
	}
}

/*
 * The module's allocated sections (of its main file) by address, as
 * dwfl's same_section() looks an address up for dwfl_module_addrinfo()
 * (libdwfl/derelocate.c: cache_sections(), find_section()).
 */
struct sec {
	GElf_Addr start, end;
	size_t ndx;
};

struct secs {
	struct sec *s;
	size_t n;
};

static int cmp_sec(const void *x, const void *y)
{
	const struct sec *a = x, *b = y;

	if (a->start != b->start)
		return a->start < b->start ? -1 : 1;
	if (a->end != b->end)
		return a->end < b->end ? -1 : 1;
	return a->ndx < b->ndx ? -1 : a->ndx > b->ndx;
}

/* 0, or -1 out of memory (then every frame is left to dwfl). */
static int secs_load(struct secs *t, Elf *elf, GElf_Addr bias)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;
	size_t cap = 0;
	struct sec *ns;

	t->s = NULL;
	t->n = 0;
	while ((scn = elf_nextscn(elf, scn))) {
		if (!gelf_getshdr(scn, &sh) || !(sh.sh_flags & SHF_ALLOC))
			continue;
		if (t->n == cap) {
			cap = cap ? 2 * cap : 32;
			ns = realloc(t->s, cap * sizeof(*ns));
			if (!ns)
				return -1;
			t->s = ns;
		}
		t->s[t->n].start = sh.sh_addr + bias;
		t->s[t->n].end = t->s[t->n].start + sh.sh_size;
		t->s[t->n++].ndx = elf_ndxscn(scn);
	}
	qsort(t->s, t->n, sizeof(*t->s), cmp_sec);
	return 0;
}

/* The section holding @addr (its end too, unless the next starts there). */
static size_t secs_find(const struct secs *t, GElf_Addr addr)
{
	size_t l = 0, u = t->n, i;

	while (l < u) {
		i = (l + u) / 2;
		if (addr < t->s[i].start) {
			u = i;
		} else if (addr > t->s[i].end) {
			l = i + 1;
		} else {
			if (addr == t->s[i].end && i + 1 < t->n &&
			    addr == t->s[i + 1].start)
				i++;
			return t->s[i].ndx;
		}
	}
	return SHN_UNDEF;
}

/*
 * Symbols [@lo, @hi) of @mod's table, in dwfl's order, offered to the
 * frames of @w (@n, sorted by address) that are at or past them (in the
 * locals, @locals: only to those that look there): one pass for all of
 * them, where dwfl_module_addrinfo() passes over the whole table for each
 * frame and reads every symbol's name.  Of those without a size, only
 * whether one may name a frame is noted (see name_binary()).
 */
static void scan_symbols(Dwfl_Module *mod, const struct secs *secs, int lo,
			 int hi, struct want *w, size_t n, bool locals)
{
	size_t first, last, mid, j, sec;
	const char *name;
	GElf_Addr value;
	GElf_Word shndx;
	GElf_Sym sym;
	int i, type;

	for (i = lo; i < hi; i++) {
		name = dwfl_module_getsym_info(mod, i, &sym, &value, &shndx,
					       NULL, NULL);
		type = GELF_ST_TYPE(sym.st_info);
		if (!name || sym.st_shndx == SHN_UNDEF || type == STT_SECTION ||
		    type == STT_FILE || type == STT_TLS)
			continue;
		/* the first frame at or past the symbol */
		for (first = 0, last = n; first < last;) {
			mid = first + (last - first) / 2;
			if (w[mid].addr < value)
				first = mid + 1;
			else
				last = mid;
		}
		if (!sym.st_size) {
			/* same_section(); shndx -1: not allocated */
			sec = shndx >= SHN_LORESERVE ? SIZE_MAX :
			      secs_find(secs, value);
			for (j = first; j < n; j++)
				if ((!locals || w[j].locals) &&
				    (sec == SIZE_MAX ? w[j].addr == value :
				     sec == w[j].sec))
					w[j].sizeless = true;
			continue;
		}
		if (first == n || w[first].addr - value >= sym.st_size ||
		    !name[0])
			continue;
		for (j = first; j < n && w[j].addr - value < sym.st_size; j++)
			if (!locals || w[j].locals)
				try_sized(&w[j], name, value, &sym);
	}
}

/*
 * Names for frames @w (@n) of binary @b, open: the symbol of each, by
 * dwfl_module_addrinfo()'s rules.  For an address: of the globals with a
 * size that hold it, the closest (the highest start), a better binding
 * winning even over a closer one, in the table's order; failing that the
 * same of the locals, if no global without a size starts there; failing
 * that, one without a size in its section, chosen by where the others
 * end.  The first two are found here in two passes over the table for
 * all frames at once (each frame's symbol the one dwfl gives); a frame
 * for which a symbol without a size may count, rare (asm labels in
 * .text), is left to dwfl itself.
 */
static void name_binary(struct binary *b, struct want *w, size_t n)
{
	int syms = dwfl_module_getsymtab(b->mod);
	int globals = dwfl_module_getsymtab_first_global(b->mod);
	struct secs secs = { NULL, 0 };
	GElf_Ehdr eh;
	GElf_Addr bias;
	GElf_Off delta;
	GElf_Sym sym;
	Elf *elf;
	size_t j;

	elf = dwfl_module_getelf(b->mod, &bias);
	/* ppc64's function descriptors: dwfl tries two values a symbol */
	if (syms > 0 && globals >= 0 && elf && gelf_getehdr(elf, &eh) &&
	    eh.e_machine != EM_PPC64 && !secs_load(&secs, elf, bias)) {
		qsort(w, n, sizeof(*w), cmp_want);
		for (j = 0; j < n; j++)
			w[j].sec = secs_find(&secs, w[j].addr);
		scan_symbols(b->mod, &secs, globals ? globals : 1, syms, w, n,
			     false);
		for (j = 0; j < n; j++)
			w[j].locals = !w[j].name && !w[j].sizeless &&
				      globals > 1;
		if (globals > 1)
			scan_symbols(b->mod, &secs, 1, globals, w, n, true);
	} else {
		for (j = 0; j < n; j++)
			w[j].sizeless = true;
	}
	free(secs.s);
	/* no symbol holds the others: dwfl finds none either */
	for (j = 0; j < n; j++)
		if (!w[j].name && w[j].sizeless)
			w[j].name = dwfl_module_addrinfo(b->mod, w[j].addr,
							 &delta, &sym, NULL,
							 NULL, NULL);
}

static int cmp_at(const void *x, const void *y)
{
	const struct want *a = x, *b = y;

	return a->at < b->at ? -1 : a->at > b->at;
}

int lt_usym_name_all(struct lt_usym *u, const uint64_t *frames, size_t nr,
		     lt_usym_name_fn fn, void *ctx)
{
	struct want *w = NULL, *nw;
	size_t i, end, n, k, cap = 0;
	struct binary *b;
	char buf[512];
	uint64_t bi;
	int ret = 0;

	for (i = 0; i < nr && !ret; i = end) {
		bi = frames[i] >> LT_USYM_OFF_BITS;
		for (end = i + 1; end < nr &&
		     frames[end] >> LT_USYM_OFF_BITS == bi; end++)
			;
		if (!bi || bi > u->nr_bins) {
			for (; i < end && !ret; i++)
				ret = fn(ctx, frames[i], "[unknown]");
			continue;
		}
		/* the run of frames of one binary, named at once */
		b = &u->bins[bi - 1];
		if (b->state == BIN_UNOPENED)
			bin_open(u, b);
		n = 0;
		if (b->state == BIN_OPEN) {
			if (end - i > cap) {
				nw = realloc(w, (end - i) * sizeof(*w));
				if (nw) {
					w = nw;
					cap = end - i;
				}
			}
			for (k = i; k < end && end - i <= cap; k++) {
				memset(&w[n], 0, sizeof(w[n]));
				w[n].at = k;
				if (bin_addr(b, frames[k] & LT_USYM_OFF_MASK,
					     &w[n].addr))
					n++;
			}
			if (end - i <= cap) {
				name_binary(b, w, n);
				qsort(w, n, sizeof(*w), cmp_at);
			} else {
				n = 0;	/* out of memory: one at a time */
			}
		}
		for (k = 0; i < end && !ret; i++) {
			const char *name = NULL;

			if (k < n && w[k].at == i)
				name = w[k++].name;
			else if (!n && b->state == BIN_OPEN)
				name = lt_usym_name(u, frames[i], buf,
						    sizeof(buf));
			if (!name || !*name) {
				snprintf(buf, sizeof(buf), "%s+0x%" PRIx64,
					 base_name(b->path),
					 (uint64_t)(frames[i] &
						    LT_USYM_OFF_MASK));
				name = buf;
			}
			ret = fn(ctx, frames[i], name);
		}
		/* its files go before the next binary's are opened */
		bin_close(b);
	}
	free(w);
	return ret ? -1 : 0;
}
