/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perf-build.h - write small perf.data files for the reader's tests.
 *
 * A file is described as its events (struct tattr) and its records in
 * file order (struct trec), and written in file or pipe mode, in either
 * byte order, the way perf record lays them out: file mode as header,
 * ids, attrs, data, feature table, feature sections; pipe mode as the
 * 16-byte header, HEADER_ATTR, HEADER_FEATURE and HEADER_TRACING_DATA
 * records, then the data.  Where each part landed is kept (struct
 * tlayout) for tests that damage it.
 *
 * Two tracepoints are known: sched:sched_switch (ID 372) and
 * sched:sched_wakeup (374), with the layouts of Linux 6.x on x86_64.
 */
#ifndef PERF_BUILD_H
#define PERF_BUILD_H

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <zstd.h>

#define T_IP		(1u << 0)
#define T_TID		(1u << 1)
#define T_TIME		(1u << 2)
#define T_ADDR		(1u << 3)
#define T_READ		(1u << 4)
#define T_CALLCHAIN	(1u << 5)
#define T_ID		(1u << 6)
#define T_CPU		(1u << 7)
#define T_PERIOD	(1u << 8)
#define T_STREAM_ID	(1u << 9)
#define T_RAW		(1u << 10)
#define T_WEIGHT	(1u << 14)
#define T_IDENTIFIER	(1u << 16)
#define T_CGROUP	(1u << 21)

#define F_TTE		1u
#define F_TTR		2u
#define F_ID		4u
#define F_GROUP		8u
#define F_LOST		16u

#define SWITCH_ID	372
#define WAKEUP_ID	374

/* what perf record asks for, for tracepoints with -a */
#define T_DEFAULT	(T_IDENTIFIER | T_IP | T_TID | T_TIME | T_CPU | \
			 T_PERIOD | T_RAW)

struct tattr {
	uint32_t type;		/* 2: tracepoint, 1: software (dummy) */
	uint64_t config;
	uint64_t sample_type;
	uint64_t read_format;
	bool sample_id_all;
	uint64_t ids[4];
	unsigned int nr_ids;
	uint32_t size;		/* of the attr; 0: 128 */
};

enum tkind {
	R_SAMPLE, R_COMM, R_FORK, R_EXIT, R_MMAP, R_MMAP2, R_LOST,
	R_LOST_SAMPLES, R_ROUND, R_INIT, R_OTHER, R_CGROUP,
};

struct trec {
	enum tkind kind;
	unsigned int attr;	/* the event; its id is ids[cpu % nr_ids] */
	uint64_t ts;
	int cpu, pid, tid;
	int ev;			/* R_SAMPLE: 0 switch, 1 wakeup, -1 no RAW */
	int a, b;		/* switch: prev_pid, next_pid; wakeup: pid */
	const char *str;	/* comm, filename, cgroup path */
	uint64_t count;		/* lost count; R_OTHER: the type; R_CGROUP
				   and a T_CGROUP sample: the cgroup id */
	const uint64_t *chain;	/* callchain, context markers and all */
	unsigned int nr_chain;
	bool exec;
};

struct tfile {
	const struct tattr *attrs;
	unsigned int nr_attrs;
	const struct trec *recs;
	unsigned int nr_recs;
	bool pipe, be;
	bool no_features;	/* file mode: none (and no tracing data) */
	bool no_tracing_data;
	bool zstd;		/* perf record -z: the data records between
				   rounds zstd'd into COMPRESSED records of
				   at most 96 bytes, cut anywhere */
};

#define T_MAX_RECS 4096

struct tlayout {
	size_t attrs, ids, data, data_end, table, tracing_data, hostname;
	size_t rec[T_MAX_RECS];	/* each record's offset */
	size_t rec_size[T_MAX_RECS];
};

struct pb {
	unsigned char *p;
	size_t len, cap;
	bool be;
};

static void pb_put(struct pb *b, const void *d, size_t n)
{
	if (b->len + n > b->cap) {
		b->cap = (b->len + n) * 2 + 4096;
		b->p = realloc(b->p, b->cap);
		if (!b->p)
			abort();
	}
	memcpy(b->p + b->len, d, n);
	b->len += n;
}

static void pb_n(struct pb *b, uint64_t v, unsigned int n)
{
	unsigned char x[8];
	unsigned int i;

	for (i = 0; i < n; i++)
		x[b->be ? n - 1 - i : i] = (unsigned char)(v >> (8 * i));
	pb_put(b, x, n);
}

static void pb_at(struct pb *b, size_t off, uint64_t v, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		b->p[off + (b->be ? n - 1 - i : i)] = (unsigned char)(v >> (8 * i));
}

static void pb_zero(struct pb *b, size_t n)
{
	static const unsigned char z[64];

	while (n) {
		size_t k = n < sizeof(z) ? n : sizeof(z);

		pb_put(b, z, k);
		n -= k;
	}
}

static void pb_align(struct pb *b, size_t from, size_t a)
{
	pb_zero(b, (a - (b->len - from) % a) % a);
}

/* ---- the tracing data ---------------------------------------------------- */

#define TB_COMMON							\
	"format:\n"							\
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n" \
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n" \
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n" \
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"

static const char tb_switch[] =
	"name: sched_switch\nID: 372\n" TB_COMMON
	"\tfield:char prev_comm[16];\toffset:8;\tsize:16;\tsigned:0;\n"
	"\tfield:pid_t prev_pid;\toffset:24;\tsize:4;\tsigned:1;\n"
	"\tfield:int prev_prio;\toffset:28;\tsize:4;\tsigned:1;\n"
	"\tfield:long prev_state;\toffset:32;\tsize:8;\tsigned:1;\n"
	"\tfield:char next_comm[16];\toffset:40;\tsize:16;\tsigned:0;\n"
	"\tfield:pid_t next_pid;\toffset:56;\tsize:4;\tsigned:1;\n"
	"\tfield:int next_prio;\toffset:60;\tsize:4;\tsigned:1;\n"
	"\nprint fmt: \"prev_comm=%s prev_pid=%d\", REC->prev_comm, REC->prev_pid\n";

static const char tb_wakeup[] =
	"name: sched_wakeup\nID: 374\n" TB_COMMON
	"\tfield:char comm[16];\toffset:8;\tsize:16;\tsigned:0;\n"
	"\tfield:pid_t pid;\toffset:24;\tsize:4;\tsigned:1;\n"
	"\tfield:int prio;\toffset:28;\tsize:4;\tsigned:1;\n"
	"\tfield:int target_cpu;\toffset:32;\tsize:4;\tsigned:1;\n"
	"\nprint fmt: \"comm=%s pid=%d\", REC->comm, REC->pid\n";

static const char tb_header_page[] =
	"\tfield: u64 timestamp;\toffset:0;\tsize:8;\tsigned:0;\n"
	"\tfield: local_t commit;\toffset:8;\tsize:8;\tsigned:1;\n"
	"\tfield: int overwrite;\toffset:8;\tsize:1;\tsigned:1;\n"
	"\tfield: char data;\toffset:16;\tsize:4080;\tsigned:0;\n";

static const char tb_header_event[] =
	"# compressed entry header\n\ttype_len    :    5 bits\n";

static const char tb_cmdlines[] = "42 worker\n7 kworker/0:1\n";

/* perf's tracing data, version @version ("0.6"; "0.5": no cmdlines) */
static void tb_tracing_data(struct pb *b, const char *version)
{
	pb_put(b, "\x17\x08\x44tracing", 10);
	pb_put(b, version, strlen(version) + 1);
	pb_n(b, b->be, 1);
	pb_n(b, 8, 1);
	pb_n(b, 4096, 4);
	pb_put(b, "header_page", 12);
	pb_n(b, sizeof(tb_header_page) - 1, 8);
	pb_put(b, tb_header_page, sizeof(tb_header_page) - 1);
	pb_put(b, "header_event", 13);
	pb_n(b, sizeof(tb_header_event) - 1, 8);
	pb_put(b, tb_header_event, sizeof(tb_header_event) - 1);
	pb_n(b, 0, 4);				/* ftrace formats */
	pb_n(b, 1, 4);				/* systems */
	pb_put(b, "sched", 6);
	pb_n(b, 2, 4);
	pb_n(b, sizeof(tb_switch) - 1, 8);
	pb_put(b, tb_switch, sizeof(tb_switch) - 1);
	pb_n(b, sizeof(tb_wakeup) - 1, 8);
	pb_put(b, tb_wakeup, sizeof(tb_wakeup) - 1);
	pb_n(b, 0, 4);				/* kallsyms: none, as perf */
	pb_n(b, 0, 4);				/* printk */
	if (strcmp(version, "0.5")) {
		pb_n(b, sizeof(tb_cmdlines) - 1, 8);
		pb_put(b, tb_cmdlines, sizeof(tb_cmdlines) - 1);
	}
}

/* ---- records --------------------------------------------------------------- */

static uint64_t tb_id(const struct tfile *f, const struct trec *r)
{
	const struct tattr *a = &f->attrs[r->attr];

	return a->nr_ids ? a->ids[(r->cpu < 0 ? 0 : r->cpu) % a->nr_ids] : 0;
}

static void tb_comm16(struct pb *b, const char *s)
{
	char c[16] = { 0 };

	strncpy(c, s, 15);
	pb_put(b, c, 16);
}

static void tb_payload(struct pb *b, const struct trec *r)
{
	if (r->ev == 0) {
		pb_n(b, SWITCH_ID, 2);
		pb_n(b, 0, 2);
		pb_n(b, (uint32_t)r->pid, 4);
		tb_comm16(b, "prev");
		pb_n(b, (uint32_t)r->a, 4);
		pb_n(b, 120, 4);
		pb_n(b, 1, 8);
		tb_comm16(b, "next");
		pb_n(b, (uint32_t)r->b, 4);
		pb_n(b, 120, 4);
	} else {
		pb_n(b, WAKEUP_ID, 2);
		pb_n(b, 0, 2);
		pb_n(b, (uint32_t)r->pid, 4);
		tb_comm16(b, "woken");
		pb_n(b, (uint32_t)r->a, 4);
		pb_n(b, 120, 4);
		pb_n(b, (uint32_t)r->cpu, 4);
	}
}

/* the sample_id_all trailer of a record of @a */
static void tb_trailer(struct pb *b, const struct tfile *f,
		       const struct trec *r)
{
	const struct tattr *a = &f->attrs[r->attr];
	uint64_t st = a->sample_type;

	if (!a->sample_id_all)
		return;
	if (st & T_TID) {
		pb_n(b, (uint32_t)r->pid, 4);
		pb_n(b, (uint32_t)r->tid, 4);
	}
	if (st & T_TIME)
		pb_n(b, r->ts, 8);
	if (st & T_ID)
		pb_n(b, tb_id(f, r), 8);
	if (st & T_STREAM_ID)
		pb_n(b, 0, 8);
	if (st & T_CPU) {
		pb_n(b, (uint32_t)r->cpu, 4);
		pb_n(b, 0, 4);
	}
	if (st & T_IDENTIFIER)
		pb_n(b, tb_id(f, r), 8);
}

static void tb_read_values(struct pb *b, uint64_t rf, uint64_t id)
{
	if (rf & F_GROUP) {
		pb_n(b, 2, 8);
		if (rf & F_TTE)
			pb_n(b, 11, 8);
		if (rf & F_TTR)
			pb_n(b, 12, 8);
		for (int i = 0; i < 2; i++) {
			pb_n(b, 100 + i, 8);
			if (rf & F_ID)
				pb_n(b, id + i, 8);
			if (rf & F_LOST)
				pb_n(b, 0, 8);
		}
		return;
	}
	pb_n(b, 100, 8);
	if (rf & F_TTE)
		pb_n(b, 11, 8);
	if (rf & F_TTR)
		pb_n(b, 12, 8);
	if (rf & F_ID)
		pb_n(b, id, 8);
	if (rf & F_LOST)
		pb_n(b, 0, 8);
}

static void tb_record(struct pb *b, const struct tfile *f, const struct trec *r,
		      struct tlayout *L, unsigned int idx)
{
	const struct tattr *a = &f->attrs[r->attr];
	uint64_t st = a->sample_type, id = tb_id(f, r);
	size_t start = b->len, n;
	uint32_t type = 0;
	uint16_t misc = 0;
	unsigned int i;

	switch (r->kind) {
	case R_SAMPLE: type = 9; misc = 1; break;
	case R_COMM: type = 3; misc = r->exec ? 1u << 13 : 0; break;
	case R_FORK: type = 7; break;
	case R_EXIT: type = 4; break;
	case R_MMAP: type = 1; break;
	case R_MMAP2: type = 10; misc = 2; break;
	case R_LOST: type = 2; break;
	case R_LOST_SAMPLES: type = 13; break;
	case R_ROUND: type = 68; break;
	case R_INIT: type = 82; break;
	case R_OTHER: type = (uint32_t)r->count; break;
	case R_CGROUP: type = 19; break;
	}
	pb_n(b, type, 4);
	pb_n(b, misc, 2);
	pb_n(b, 0, 2);		/* the size, below */
	switch (r->kind) {
	case R_SAMPLE:
		if (st & T_IDENTIFIER)
			pb_n(b, id, 8);
		if (st & T_IP)
			pb_n(b, 0xffffffff81000000ULL + idx, 8);
		if (st & T_TID) {
			pb_n(b, (uint32_t)r->pid, 4);
			pb_n(b, (uint32_t)r->tid, 4);
		}
		if (st & T_TIME)
			pb_n(b, r->ts, 8);
		if (st & T_ADDR)
			pb_n(b, 0xadd, 8);
		if (st & T_ID)
			pb_n(b, id, 8);
		if (st & T_STREAM_ID)
			pb_n(b, 0, 8);
		if (st & T_CPU) {
			pb_n(b, (uint32_t)r->cpu, 4);
			pb_n(b, 0, 4);
		}
		if (st & T_PERIOD)
			pb_n(b, 1, 8);
		if (st & T_READ)
			tb_read_values(b, a->read_format, id);
		if (st & T_CALLCHAIN) {
			pb_n(b, r->nr_chain, 8);
			for (i = 0; i < r->nr_chain; i++)
				pb_n(b, r->chain[i], 8);
		}
		if (st & T_RAW) {
			size_t at = b->len;

			pb_n(b, 0, 4);
			if (r->ev >= 0)
				tb_payload(b, r);
			/* the kernel pads size + data to 8 bytes */
			pb_align(b, at, 8);
			pb_at(b, at, b->len - at - 4, 4);
		}
		if (st & T_WEIGHT)
			pb_n(b, 3, 8);
		if (st & T_CGROUP)
			pb_n(b, r->count, 8);
		break;
	case R_CGROUP:
		pb_n(b, r->count, 8);
		pb_put(b, r->str, strlen(r->str) + 1);
		pb_align(b, start, 8);
		tb_trailer(b, f, r);
		break;
	case R_COMM:
		pb_n(b, (uint32_t)r->pid, 4);
		pb_n(b, (uint32_t)r->tid, 4);
		pb_put(b, r->str, strlen(r->str) + 1);
		pb_align(b, start, 8);
		tb_trailer(b, f, r);
		break;
	case R_FORK:
	case R_EXIT:
		pb_n(b, (uint32_t)r->pid, 4);
		pb_n(b, (uint32_t)r->a, 4);
		pb_n(b, (uint32_t)r->tid, 4);
		pb_n(b, (uint32_t)r->b, 4);
		pb_n(b, r->ts, 8);
		tb_trailer(b, f, r);
		break;
	case R_MMAP:
	case R_MMAP2:
		pb_n(b, (uint32_t)r->pid, 4);
		pb_n(b, (uint32_t)r->tid, 4);
		pb_n(b, 0x400000, 8);
		pb_n(b, 0x1000, 8);
		pb_n(b, 0, 8);
		if (r->kind == R_MMAP2) {
			pb_n(b, 8, 4);		/* maj */
			pb_n(b, 1, 4);		/* min */
			pb_n(b, 1234, 8);	/* ino */
			pb_n(b, 5, 8);		/* ino_generation */
			pb_n(b, 5, 4);		/* PROT_READ | PROT_EXEC */
			pb_n(b, 2, 4);		/* MAP_PRIVATE */
		}
		pb_put(b, r->str, strlen(r->str) + 1);
		pb_align(b, start, 8);
		tb_trailer(b, f, r);
		break;
	case R_LOST:
		pb_n(b, id, 8);
		pb_n(b, r->count, 8);
		tb_trailer(b, f, r);
		break;
	case R_LOST_SAMPLES:
		pb_n(b, r->count, 8);
		tb_trailer(b, f, r);
		break;
	case R_ROUND:
	case R_INIT:
		break;
	case R_OTHER:
		pb_n(b, 0, 8);
		break;
	}
	n = b->len - start;
	pb_at(b, start + 6, n, 2);
	if (L && idx < T_MAX_RECS) {
		L->rec[idx] = start;
		L->rec_size[idx] = n;
	}
}

/* @n bytes of records at @src as COMPRESSED records, flushed at the end */
static void tb_compress(struct pb *b, ZSTD_CCtx *z, const unsigned char *src,
			size_t n)
{
	unsigned char out[4096];
	ZSTD_inBuffer in = { src, n, 0 };
	ZSTD_outBuffer o;
	size_t left, k, at;

	do {
		o = (ZSTD_outBuffer){ out, sizeof(out), 0 };
		left = ZSTD_compressStream2(z, &o, &in, ZSTD_e_flush);
		if (ZSTD_isError(left))
			abort();
		for (at = 0; at < o.pos; at += k) {
			k = o.pos - at < 96 ? o.pos - at : 96;
			pb_n(b, 81, 4);
			pb_n(b, 0, 2);
			pb_n(b, 8 + k, 2);
			pb_put(b, out + at, k);
		}
	} while (left || in.pos < in.size);
}

/* The data records, compressed or not. */
static void tb_data(struct pb *b, const struct tfile *f, struct tlayout *L)
{
	struct pb seg = { NULL, 0, 0, b->be };
	ZSTD_CCtx *z;
	unsigned int i;

	if (!f->zstd) {
		for (i = 0; i < f->nr_recs; i++)
			tb_record(b, f, &f->recs[i], L, i);
		return;
	}
	z = ZSTD_createCCtx();
	for (i = 0; i <= f->nr_recs; i++) {
		/* a round's records go out compressed before its end */
		if (i == f->nr_recs || f->recs[i].kind == R_ROUND) {
			if (seg.len)
				tb_compress(b, z, seg.p, seg.len);
			seg.len = 0;
			if (i < f->nr_recs)
				tb_record(b, f, &f->recs[i], NULL, i);
			continue;
		}
		tb_record(&seg, f, &f->recs[i], NULL, i);
	}
	ZSTD_freeCCtx(z);
	free(seg.p);
}

/* ---- attrs and features --------------------------------------------------- */

static void tb_attr(struct pb *b, const struct tattr *a)
{
	uint32_t size = a->size ? a->size : 128;
	size_t start = b->len;
	unsigned char flags[8] = { 0 };

	pb_n(b, a->type, 4);
	pb_n(b, size, 4);
	pb_n(b, a->config, 8);
	pb_n(b, 1, 8);				/* sample_period */
	pb_n(b, a->sample_type, 8);
	pb_n(b, a->read_format, 8);
	/* bit 18, sample_id_all: byte 2's bit 2, from the top when big-endian */
	if (a->sample_id_all)
		flags[2] = b->be ? 0x20 : 0x04;
	flags[0] = b->be ? 0x80 : 0x01;		/* disabled */
	pb_put(b, flags, 8);
	pb_zero(b, size - (b->len - start));
}

static void tb_string(struct pb *b, const char *s)
{
	size_t n = strlen(s) + 1, padded = (n + 63) / 64 * 64;

	pb_n(b, padded, 4);
	pb_put(b, s, n);
	pb_zero(b, padded - n);
}

static const char *tb_names[] = { "sched:sched_switch", "sched:sched_wakeup",
				  "dummy:HG", "e3" };

/* feature @feat's bytes */
static void tb_feature(struct pb *b, const struct tfile *f, unsigned int feat)
{
	unsigned int i, j;

	switch (feat) {
	case 12:
		/* EVENT_DESC: the attrs again, with their names */
		pb_n(b, f->nr_attrs, 4);
		pb_n(b, f->nr_attrs && f->attrs[0].size ? f->attrs[0].size : 128,
		     4);
		for (i = 0; i < f->nr_attrs; i++) {
			tb_attr(b, &f->attrs[i]);
			pb_n(b, f->attrs[i].nr_ids, 4);
			tb_string(b, tb_names[i < 4 ? i : 3]);
			for (j = 0; j < f->attrs[i].nr_ids; j++)
				pb_n(b, f->attrs[i].ids[j], 8);
		}
		break;
	case 1:
		tb_tracing_data(b, "0.6");
		break;
	case 3:
		tb_string(b, "testhost");
		break;
	case 6:
		tb_string(b, "x86_64");
		break;
	case 7:
		pb_n(b, 4, 4);		/* available */
		pb_n(b, 2, 4);		/* online */
		break;
	case 11:
		pb_n(b, 2, 4);
		tb_string(b, "perf");
		tb_string(b, "record");
		break;
	}
}

static const unsigned int tb_feats[] = { 1, 3, 6, 7, 11, 12 };

/* ---- the file ------------------------------------------------------------ */

static void tb_build(const struct tfile *f, struct pb *b, struct tlayout *L)
{
	size_t hdr, ids_at[8], attrs_at, tab;
	unsigned int i, j, nf = 0;
	uint64_t bits = 0;
	uint32_t asize;

	memset(b, 0, sizeof(*b));
	b->be = f->be;
	memset(L, 0, sizeof(*L));
	pb_put(b, f->be ? "2ELIFREP" : "PERFILE2", 8);
	if (f->pipe) {
		pb_n(b, 16, 8);
		for (i = 0; i < f->nr_attrs; i++) {
			const struct tattr *a = &f->attrs[i];
			size_t at = b->len;

			if (!i)
				L->attrs = at;
			pb_n(b, 64, 4);
			pb_n(b, 0, 4);
			tb_attr(b, a);
			for (j = 0; j < a->nr_ids; j++)
				pb_n(b, a->ids[j], 8);
			pb_at(b, at + 6, b->len - at, 2);
		}
		/* HEADER_FEATURE: HOSTNAME */
		L->hostname = b->len;
		pb_n(b, 80, 4);
		pb_n(b, 0, 4);
		pb_n(b, 3, 8);
		tb_string(b, "testhost");
		pb_at(b, L->hostname + 6, b->len - L->hostname, 2);
		if (!f->no_tracing_data) {
			size_t at = b->len, data;

			pb_n(b, 66, 4);
			pb_n(b, 0, 2);
			pb_n(b, 16, 2);
			pb_n(b, 0, 8);		/* size, padding */
			data = b->len;
			L->tracing_data = data;
			tb_tracing_data(b, "0.6");
			pb_align(b, data, 8);
			pb_at(b, at + 8, b->len - data, 4);
		}
		/* EVENT_UPDATE names */
		for (i = 0; i < f->nr_attrs && i < 4; i++) {
			size_t at = b->len;

			if (!f->attrs[i].nr_ids)
				continue;
			pb_n(b, 78, 4);
			pb_n(b, 0, 4);
			pb_n(b, 2, 8);
			pb_n(b, f->attrs[i].ids[0], 8);
			pb_put(b, tb_names[i], strlen(tb_names[i]) + 1);
			pb_align(b, at, 8);
			pb_at(b, at + 6, b->len - at, 2);
		}
		L->data = b->len;
		tb_data(b, f, L);
		L->data_end = b->len;
		return;
	}

	hdr = b->len - 8;
	pb_zero(b, 104 - 8);
	L->ids = b->len;
	for (i = 0; i < f->nr_attrs && i < 8; i++) {
		ids_at[i] = b->len;
		for (j = 0; j < f->attrs[i].nr_ids; j++)
			pb_n(b, f->attrs[i].ids[j], 8);
	}
	asize = f->nr_attrs && f->attrs[0].size ? f->attrs[0].size : 128;
	attrs_at = b->len;
	L->attrs = attrs_at;
	for (i = 0; i < f->nr_attrs; i++) {
		tb_attr(b, &f->attrs[i]);
		pb_n(b, ids_at[i], 8);
		pb_n(b, 8 * f->attrs[i].nr_ids, 8);
	}
	L->data = b->len;
	tb_data(b, f, L);
	L->data_end = b->len;
	/* the header */
	pb_at(b, hdr + 8, 104, 8);
	pb_at(b, hdr + 16, asize + 16, 8);
	pb_at(b, hdr + 24, attrs_at, 8);
	pb_at(b, hdr + 32, (asize + 16) * (uint64_t)f->nr_attrs, 8);
	pb_at(b, hdr + 40, L->data, 8);
	pb_at(b, hdr + 48, L->data_end - L->data, 8);
	if (f->no_features)
		return;
	/* the feature table, then the sections */
	tab = b->len;
	L->table = tab;
	for (i = 0; i < sizeof(tb_feats) / sizeof(tb_feats[0]); i++)
		if (!(tb_feats[i] == 1 && f->no_tracing_data))
			nf++;
	pb_zero(b, 16 * nf);
	for (i = 0, j = 0; i < sizeof(tb_feats) / sizeof(tb_feats[0]); i++) {
		size_t at = b->len;

		if (tb_feats[i] == 1 && f->no_tracing_data)
			continue;
		if (tb_feats[i] == 1)
			L->tracing_data = at;
		if (tb_feats[i] == 3)
			L->hostname = at;
		tb_feature(b, f, tb_feats[i]);
		pb_at(b, tab + 16 * j, at, 8);
		pb_at(b, tab + 16 * j + 8, b->len - at, 8);
		j++;
		bits |= 1ULL << tb_feats[i];
	}
	pb_at(b, hdr + 72, bits, 8);
}

#endif /* PERF_BUILD_H */
