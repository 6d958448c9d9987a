// SPDX-License-Identifier: GPL-2.0
/*
 * test-usym.c - user frames named from the binary that held them.
 *
 * The test names frames of its own process: where its functions are, the
 * kernel says (/proc/self/maps), and its build-id its own program headers
 * (dl_iterate_phdr), none of it through the code under test.
 */
#define _GNU_SOURCE
#include <elf.h>
#include <fcntl.h>
#include <gelf.h>
#include <inttypes.h>
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lt-test.h"
#include "lt-usym.h"

/* A function the test names: not inlined, not static (in .symtab either way) */
int lt_usym_probe_fn(int x);
__attribute__((noinline)) int lt_usym_probe_fn(int x)
{
	return x * 3 + 1;
}

struct mapping {
	uint64_t start, end, off;
	char path[4096];
};

/* The mapping of /proc/self/maps that holds @addr. */
static int find_mapping(uint64_t addr, struct mapping *m)
{
	char line[4400];
	FILE *f = fopen("/proc/self/maps", "r");
	int found = -1;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		unsigned long long s, e, o;
		char perms[8], path[4096] = "";

		if (sscanf(line, "%llx-%llx %7s %llx %*s %*s %4095s", &s, &e,
			   perms, &o, path) < 4)
			continue;
		if (addr >= s && addr < e) {
			m->start = s;
			m->end = e;
			m->off = o;
			snprintf(m->path, sizeof(m->path), "%s", path);
			found = 0;
			break;
		}
	}
	fclose(f);
	return found;
}

struct bid {
	unsigned char id[20];
	size_t len;
};

/* The main program's NT_GNU_BUILD_ID, from its program headers. */
static int note_cb(struct dl_phdr_info *info, size_t size, void *data)
{
	struct bid *b = data;
	int i;

	if (info->dlpi_name && info->dlpi_name[0])
		return 0;	/* not the main program */
	for (i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		const char *p, *end;

		if (ph->p_type != PT_NOTE)
			continue;
		p = (const char *)(info->dlpi_addr + ph->p_vaddr);
		end = p + ph->p_memsz;
		while (p + sizeof(ElfW(Nhdr)) <= end) {
			const ElfW(Nhdr) *n = (const void *)p;
			const char *name = p + sizeof(*n);
			const char *desc = name + ((n->n_namesz + 3) & ~3u);

			if (n->n_type == NT_GNU_BUILD_ID && n->n_namesz == 4 &&
			    !memcmp(name, "GNU", 4) && n->n_descsz <= 20) {
				memcpy(b->id, desc, n->n_descsz);
				b->len = n->n_descsz;
				return 1;
			}
			p = desc + ((n->n_descsz + 3) & ~3u);
		}
	}
	return 0;
}

/* Every name lt_usym_name_all() gave, by the frame's place in @frames. */
struct names_all {
	const uint64_t *frames;
	char **name;
	size_t n, nr;
};

static int keep_all(void *ctx, uint64_t frame, const char *name)
{
	struct names_all *g = ctx;

	if (g->nr >= g->n || g->frames[g->nr] != frame)
		return -1;
	g->name[g->nr++] = strdup(name);
	return 0;
}

static int cmp_frames(const void *x, const void *y)
{
	uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;

	return a < b ? -1 : a > b;
}

/* What lt_usym_name_all() named, in order. */
struct names {
	uint64_t frame[8];
	char name[8][256];
	unsigned int nr, stop_at;
};

static int keep_name(void *ctx, uint64_t frame, const char *name)
{
	struct names *n = ctx;

	if (n->nr >= 8)
		return -1;
	n->frame[n->nr] = frame;
	snprintf(n->name[n->nr], sizeof(n->name[0]), "%s", name);
	n->nr++;
	return n->stop_at && n->nr == n->stop_at;
}

/*
 * Binary @path mapped whole at pgoff 0: many places of it named at once
 * (lt_usym_name_all(), one pass over its symbols for all) and one by
 * one (lt_usym_name(), dwfl_module_addrinfo() for each), which must
 * agree: dwfl's rules are the oracle.  Places: spread over each PT_LOAD,
 * odd steps, and the first bytes after each of its symbols' starts.
 */
static void same_names(const char *path)
{
	enum { SPREAD = 1500 };
	struct lt_usym *all = lt_usym_new(), *one = lt_usym_new();
	uint64_t *frames = NULL;
	struct names_all got = { 0 };
	size_t n = 0, cap = 0, i, named = 0, differ = 0;
	char buf[512];
	GElf_Phdr ph;
	struct stat st;
	size_t nph, k;
	Elf *elf;
	int fd;

	if (stat(path, &st) || (fd = open(path, O_RDONLY)) < 0) {
		fprintf(stderr, "test-usym: %s: not here, not checked\n", path);
		lt_usym_free(all);
		lt_usym_free(one);
		return;
	}
	elf_version(EV_CURRENT);
	elf = elf_begin(fd, ELF_C_READ, NULL);
	CHECK(elf && !elf_getphdrnum(elf, &nph));
	for (k = 0; elf && k < nph; k++) {
		if (!gelf_getphdr(elf, (int)k, &ph) || ph.p_type != PT_LOAD ||
		    !ph.p_filesz)
			continue;
		for (i = 0; i < SPREAD; i++) {
			if (n == cap) {
				cap = cap ? 2 * cap : 4096;
				frames = realloc(frames, cap * sizeof(*frames));
			}
			frames[n++] = 1ULL << LT_USYM_OFF_BITS |
				      (ph.p_offset + (i * 7919 + i * i * 13) %
				       ph.p_filesz);
		}
	}
	if (elf)
		elf_end(elf);
	close(fd);
	qsort(frames, n, sizeof(*frames), cmp_frames);
	CHECK(all && one &&
	      lt_usym_map(all, 1, 0x10000000, (uint64_t)st.st_size, 0, path,
			  strlen(path), NULL, 0) == 0 &&
	      lt_usym_map(one, 1, 0x10000000, (uint64_t)st.st_size, 0, path,
			  strlen(path), NULL, 0) == 0);
	got.name = calloc(n, sizeof(*got.name));
	got.frames = frames;
	got.n = n;
	CHECK(lt_usym_name_all(all, frames, n, keep_all, &got) == 0);
	CHECK_U64(got.nr, n);
	for (i = 0; i < got.nr; i++) {
		const char *want = lt_usym_name(one, frames[i], buf, sizeof(buf));

		if (!strchr(want, '+'))
			named++;
		if (!got.name[i] || strcmp(got.name[i], want)) {
			if (differ++ < 5)
				fprintf(stderr, "test-usym: %s+%#llx: %s at once, "
					"%s alone\n", path,
					(unsigned long long)(frames[i] &
							     LT_USYM_OFF_MASK),
					got.name[i] ? got.name[i] : "(none)",
					want);
		}
		free(got.name[i]);
	}
	CHECK_MSG(!differ, "%s: %zu of %zu places named otherwise at once",
		  path, differ, got.nr);
	/* the names were looked for */
	CHECK_MSG(named > 0, "%s: none of %zu places named", path, n);
	free(got.name);
	free(frames);
	lt_usym_free(all);
	lt_usym_free(one);
}

int main(void)
{
	uint64_t fn = (uint64_t)(uintptr_t)&lt_usym_probe_fn, frame;
	char buf[256], dir[] = "/tmp/lt-test-usym.XXXXXX", path[4200], cmd[8600];
	struct lt_usym *u;
	struct mapping m;
	struct bid bid = { { 0 }, 0 }, wrong;

	if (find_mapping(fn, &m) < 0 || m.path[0] != '/') {
		fprintf(stderr, "test-usym: no file mapping holds the test's code\n");
		return 1;
	}
	dl_iterate_phdr(note_cb, &bid);

	lt_test_case = "a frame in a mapped binary";
	u = lt_usym_new();
	CHECK(u && lt_usym_map(u, 100, m.start, m.end - m.start, m.off,
			       m.path, strlen(m.path), bid.id, bid.len) == 0);
	frame = lt_usym_encode(u, 100, fn);
	CHECK_U64(frame >> LT_USYM_OFF_BITS, 1);
	CHECK_U64(frame & LT_USYM_OFF_MASK, fn - m.start + m.off);
	CHECK_STR(lt_usym_name(u, frame, buf, sizeof(buf)), "lt_usym_probe_fn");
	/* the same code in another process is the same frame */
	CHECK(lt_usym_fork(u, 100, 200) == 0);
	CHECK_U64(lt_usym_encode(u, 200, fn), frame);

	lt_test_case = "no mapping holds it";
	CHECK_U64(lt_usym_encode(u, 300, fn), 0);
	CHECK_STR(lt_usym_name(u, lt_usym_encode(u, 300, fn), buf, sizeof(buf)),
		  "[unknown]");
	CHECK_U64(lt_usym_stats(u)->unmapped, 2);

	lt_test_case = "exec forgets the mappings";
	lt_usym_exec(u, 100);
	CHECK_U64(lt_usym_encode(u, 100, fn), 0);
	CHECK_U64(lt_usym_encode(u, 200, fn), frame);

	lt_test_case = "a mapping over another replaces it there";
	CHECK(lt_usym_map(u, 200, fn & ~0xfffULL, 0x1000, 0x5000,
			  "/nonexistent/libother.so", 24, NULL, 0) == 0);
	frame = lt_usym_encode(u, 200, fn);
	CHECK_U64(frame >> LT_USYM_OFF_BITS, 2);
	CHECK_U64(frame & LT_USYM_OFF_MASK, 0x5000 + (fn & 0xfff));
	snprintf(path, sizeof(path), "libother.so+0x%" PRIx64,
		 (uint64_t)0x5000 + (fn & 0xfff));
	CHECK_STR(lt_usym_name(u, frame, buf, sizeof(buf)), path);
	/* the rest of the old mapping is still the test's binary */
	if (fn + 0x1000 < m.end)
		CHECK_U64(lt_usym_encode(u, 200, fn + 0x1000) >> LT_USYM_OFF_BITS,
			  1);
	CHECK_U64(lt_usym_stats(u)->binaries_missing, 1);

	lt_test_case = "named at once, binary by binary";
	{
		uint64_t frames[4];
		struct names got = { 0 };
		char want[256];

		frames[0] = 0;				/* [unknown] */
		frames[1] = lt_usym_encode(u, 100 + 100, fn + 0x1000 < m.end ?
					   fn + 0x1000 : fn);
		frames[2] = (1ULL << LT_USYM_OFF_BITS) |
			    (fn - m.start + m.off);	/* the probe, binary 1 */
		frames[3] = frame;			/* libother.so, binary 2 */
		if (frames[1] > frames[2]) {
			uint64_t t = frames[1];

			frames[1] = frames[2];
			frames[2] = t;
		}
		CHECK(lt_usym_name_all(u, frames, 4, keep_name, &got) == 0);
		CHECK_U64(got.nr, 4);
		CHECK_STR(got.name[0], "[unknown]");
		for (int i = 1; i < 4; i++) {
			CHECK_U64(got.frame[i], frames[i]);
			/* the same name as one at a time, the binary opened again */
			CHECK_STR(got.name[i], lt_usym_name(u, frames[i], want,
							    sizeof(want)));
		}
		CHECK_STR(got.name[3], path);
		/* and again, after each binary was let go */
		got.nr = 0;
		CHECK(lt_usym_name_all(u, frames, 4, keep_name, &got) == 0);
		CHECK_U64(got.nr, 4);
		CHECK(strcmp(got.name[1], "lt_usym_probe_fn") == 0 ||
		      strcmp(got.name[2], "lt_usym_probe_fn") == 0);
		/* a binary opened again is not counted again */
		CHECK_U64(lt_usym_stats(u)->binaries_missing, 1);
		CHECK_U64(lt_usym_stats(u)->binaries, 2);
		/* the callback stops it */
		got.nr = 0;
		got.stop_at = 2;
		CHECK(lt_usym_name_all(u, frames, 4, keep_name, &got) == -1);
		CHECK_U64(got.nr, 2);
	}

	lt_test_case = "at once as one by one, dwfl's rules";
	{
		char self[4096];
		ssize_t len = readlink("/proc/self/exe", self, sizeof(self) - 1);

		if (len > 0) {
			self[len] = '\0';
			same_names(self);	/* .symtab: globals and locals */
		}
		same_names("/lib/x86_64-linux-gnu/libc.so.6");	/* .dynsym, or
								   libc6-dbg's */
		same_names("/lib/x86_64-linux-gnu/libstdc++.so.6");
		/* __ehdr_start: no size, outside every section: dwfl's */
		same_names("/lib64/ld-linux-x86-64.so.2");
		same_names("/lib/x86_64-linux-gnu/libelf.so.1");
		same_names("/lib/x86_64-linux-gnu/libdw.so.1");
	}

	lt_test_case = "no more mappings: frames encoded before are still named";
	lt_usym_maps_done(u);
	CHECK_U64(lt_usym_encode(u, 200, fn), 0);
	CHECK_STR(lt_usym_name(u, frame, buf, sizeof(buf)), path);
	/* and a process can map again */
	CHECK(lt_usym_map(u, 200, m.start, m.end - m.start, m.off, m.path,
			  strlen(m.path), bid.id, bid.len) == 0);
	CHECK_U64(lt_usym_encode(u, 200, fn) >> LT_USYM_OFF_BITS, 1);
	lt_usym_free(u);

	lt_test_case = "another build-id: not the binary that ran";
	wrong = bid;
	wrong.id[0] ^= 0xff;
	u = lt_usym_new();
	CHECK(u && lt_usym_map(u, 100, m.start, m.end - m.start, m.off, m.path,
			       strlen(m.path), wrong.id, bid.len) == 0);
	snprintf(path, sizeof(path), "%s+0x%" PRIx64, strrchr(m.path, '/') + 1,
		 fn - m.start + m.off);
	CHECK_STR(lt_usym_name(u, lt_usym_encode(u, 100, fn), buf, sizeof(buf)),
		  bid.len ? path : "lt_usym_probe_fn");
	lt_usym_free(u);

	lt_test_case = "found by build-id in perf's cache";
	if (!bid.len || !mkdtemp(dir)) {
		fprintf(stderr, "test-usym: no build-id in the test binary: "
			"the cache case is not checked\n");
		return lt_test_done("symbols/usym");
	}
	{
		char hex[41];
		size_t i;

		for (i = 0; i < bid.len; i++)
			sprintf(hex + 2 * i, "%02x", bid.id[i]);
		snprintf(cmd, sizeof(cmd),
			 "mkdir -p '%s/.build-id/%.2s/%s' && cp '%s' '%s/.build-id/%.2s/%s/elf'",
			 dir, hex, hex + 2, m.path, dir, hex, hex + 2);
		CHECK(system(cmd) == 0);
	}
	u = lt_usym_new();
	lt_usym_set_cache(u, dir);
	CHECK(u && lt_usym_map(u, 100, m.start, m.end - m.start, m.off,
			       "/gone/test-usym", 15, bid.id, bid.len) == 0);
	CHECK_STR(lt_usym_name(u, lt_usym_encode(u, 100, fn), buf, sizeof(buf)),
		  "lt_usym_probe_fn");
	CHECK_U64(lt_usym_stats(u)->binaries_missing, 0);
	lt_usym_free(u);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd) != 0)
		perror("rm");
	return lt_test_done("symbols/usym");
}
