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
