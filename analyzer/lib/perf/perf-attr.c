// SPDX-License-Identifier: LGPL-2.1
/*
 * perf-attr.c - the events (perf_event_attr) and the ids naming them.
 *
 * An attr's sample_type fixes the layout of its samples, and with
 * sample_id_all the trailer other records carry.  With more than one
 * attr, a record says whose it is by an id at a fixed place (perf's
 * id_pos / is_pos): the attrs must agree on that place, as perf requires.
 */
#include <stdio.h>
#include <stdlib.h>

#include "perf-local.h"

static inline int bit(uint64_t v, uint64_t b)
{
	return (v & b) != 0;
}

static uint8_t bitrev8(uint8_t b)
{
	b = (b & 0xf0) >> 4 | (b & 0x0f) << 4;
	b = (b & 0xcc) >> 2 | (b & 0x33) << 2;
	return (b & 0xaa) >> 1 | (b & 0x55) << 1;
}

/*
 * The bit field after read_format.  A big-endian compiler allocates bit
 * fields from the most significant bit of each byte, so a big-endian
 * file's bytes have their bits reversed, not the bytes swapped (perf's
 * swap_bitfield()).  Whatever this machine's order, bit n is flag n.
 */
static uint64_t attr_flags(const unsigned char *f, bool big_endian)
{
	uint64_t v = 0;
	unsigned int k;

	for (k = 0; k < 8; k++)
		v |= (uint64_t)(big_endian ? bitrev8(f[k]) : f[k]) << (8 * k);
	return v;
}

/* perf's __evsel__calc_id_pos(): the id's place in a SAMPLE, in u64s */
static int calc_id_pos(uint64_t st)
{
	if (st & PERF_SAMPLE_IDENTIFIER)
		return 0;
	if (!(st & PERF_SAMPLE_ID))
		return -1;
	return bit(st, PERF_SAMPLE_IP) + bit(st, PERF_SAMPLE_TID) +
	       bit(st, PERF_SAMPLE_TIME) + bit(st, PERF_SAMPLE_ADDR);
}

/* perf's __evsel__calc_is_pos(): from the end of other records */
static int calc_is_pos(uint64_t st)
{
	if (st & PERF_SAMPLE_IDENTIFIER)
		return 1;
	if (!(st & PERF_SAMPLE_ID))
		return -1;
	return 1 + bit(st, PERF_SAMPLE_CPU) + bit(st, PERF_SAMPLE_STREAM_ID);
}

/* The next fixed field's place, if @st has it (else -1). */
static int fixed(uint64_t st, uint64_t b, int *at)
{
	int off = *at;

	if (!(st & b))
		return -1;
	*at += 8;
	return off;
}

static void attr_layout(struct perf_attr *a)
{
	uint64_t st = a->pub.sample_type;
	int off = PERF_REC_HEADER;

	/* a SAMPLE: IDENTIFIER, IP, TID, TIME, ADDR, ID, STREAM_ID, CPU, PERIOD */
	a->id_off = fixed(st, PERF_SAMPLE_IDENTIFIER, &off);
	a->ip_off = fixed(st, PERF_SAMPLE_IP, &off);
	a->tid_off = fixed(st, PERF_SAMPLE_TID, &off);
	a->time_off = fixed(st, PERF_SAMPLE_TIME, &off);
	a->addr_off = fixed(st, PERF_SAMPLE_ADDR, &off);
	if (st & PERF_SAMPLE_ID)
		a->id_off = fixed(st, PERF_SAMPLE_ID, &off);
	fixed(st, PERF_SAMPLE_STREAM_ID, &off);
	a->cpu_off = fixed(st, PERF_SAMPLE_CPU, &off);
	a->period_off = fixed(st, PERF_SAMPLE_PERIOD, &off);
	a->fixed_end = off;
	off = 0;
	/* the sample_id_all trailer: TID, TIME, ID, STREAM_ID, CPU, IDENTIFIER */
	a->tr_tid = a->tr_time = a->tr_id = a->tr_cpu = -1;
	if (st & PERF_SAMPLE_TID) {
		a->tr_tid = off;
		off += 8;
	}
	if (st & PERF_SAMPLE_TIME) {
		a->tr_time = off;
		off += 8;
	}
	if (st & PERF_SAMPLE_ID) {
		a->tr_id = off;
		off += 8;
	}
	if (st & PERF_SAMPLE_STREAM_ID)
		off += 8;
	if (st & PERF_SAMPLE_CPU) {
		a->tr_cpu = off;
		off += 8;
	}
	if (st & PERF_SAMPLE_IDENTIFIER) {
		a->tr_id = off;
		off += 8;
	}
	a->trailer = a->pub.sample_id_all ? off : 0;
}

/* ---- ids ---------------------------------------------------------------- */

static inline uint64_t id_hash(uint64_t id, uint64_t mask)
{
	return (id * 0x9e3779b97f4a7c15ULL >> 17) & mask;
}

struct id_ent *lt_perf_id_find(const struct lt_perf *p, uint64_t id)
{
	uint64_t i;

	if (!p->ids_mask || !id)
		return NULL;
	for (i = id_hash(id, p->ids_mask);; i = (i + 1) & p->ids_mask) {
		if (p->ids[i].id == id)
			return &p->ids[i];
		if (!p->ids[i].id)
			return NULL;
	}
}

static int id_grow(struct lt_perf *p)
{
	uint64_t size = p->ids_mask ? 2 * (p->ids_mask + 1) : 64, i, j;
	struct id_ent *ids = calloc(size, sizeof(*ids));

	if (!ids)
		return -1;
	for (i = 0; p->ids_mask && i <= p->ids_mask; i++) {
		if (!p->ids[i].id)
			continue;
		for (j = id_hash(p->ids[i].id, size - 1); ids[j].id;
		     j = (j + 1) & (size - 1))
			;
		ids[j] = p->ids[i];
	}
	free(p->ids);
	p->ids = ids;
	p->ids_mask = size - 1;
	return 0;
}

/* The entry of @id, added if new; NULL with @err. */
static struct id_ent *id_get(struct lt_perf *p, struct lt_error *err,
			     const struct pcur *c, uint64_t id)
{
	struct id_ent *e = lt_perf_id_find(p, id);
	uint64_t i;

	if (e)
		return e;
	if (p->nr_ids >= PERF_MAX_IDS) {
		lt_perf_cur_fail(p, err, LT_E_LIMIT, c, "more than %u event ids",
				 PERF_MAX_IDS);
		return NULL;
	}
	if ((uint64_t)(p->nr_ids + 1) * 2 > p->ids_mask + 1 && id_grow(p)) {
		lt_perf_cur_fail(p, err, LT_E_NOMEM, c, "out of memory for event ids");
		return NULL;
	}
	for (i = id_hash(id, p->ids_mask); p->ids[i].id;
	     i = (i + 1) & p->ids_mask)
		;
	p->ids[i].id = id;
	p->ids[i].attr = UINT32_MAX;
	p->ids[i].cpu = -1;
	p->nr_ids++;
	return &p->ids[i];
}

int lt_perf_id_set_cpu(struct lt_perf *p, struct lt_error *err, const struct pcur *c,
		       uint64_t id, int cpu)
{
	struct id_ent *e;

	if (!id)
		return 0;
	e = id_get(p, err, c, id);
	if (!e)
		return -1;
	e->cpu = cpu;
	return 0;
}

/* ---- attrs ------------------------------------------------------------ */

static void attr_bind(struct lt_perf *p, struct perf_attr *a)
{
	const struct lt_event_type *tp;
	struct lt_field f;
	char name[160];

	if (!p->trace || a->pub.type != LT_PERF_TYPE_TRACEPOINT ||
	    a->pub.config > UINT16_MAX)
		return;
	tp = lt_trace_event_by_id(p->trace, (uint16_t)a->pub.config);
	a->pub.tp = tp;
	if (!tp)
		return;
	if (!lt_event_type_field(tp, "common_type", &f) &&
	    (f.size == 1 || f.size == 2 || f.size == 4)) {
		a->type_off = f.offset;
		a->type_size = f.size;
	}
	if (!*a->pub.name) {
		snprintf(name, sizeof(name), "%s:%s", lt_event_type_system(tp),
			 lt_event_type_name(tp));
		a->pub.name = lt_perf_keep(p, name, strlen(name));
		if (!a->pub.name)
			a->pub.name = "";
	}
}

void lt_perf_attrs_bind_formats(struct lt_perf *p)
{
	unsigned int i;

	for (i = 0; i < p->nr_attrs; i++)
		attr_bind(p, p->attrs[i]);
}

int lt_perf_attr_add(struct lt_perf *p, struct lt_error *err, const struct pcur *c,
		     const unsigned char *a, uint32_t size, const unsigned char *ids,
		     uint64_t nr_ids)
{
	struct perf_attr *pa, **attrs;
	struct id_ent *e;
	uint64_t i, id;

	if (p->nr_attrs >= PERF_MAX_ATTRS)
		return lt_perf_cur_fail(p, err, LT_E_LIMIT, c, "more than %u events",
					PERF_MAX_ATTRS);
	if (p->nr_attrs == p->attrs_cap) {
		unsigned int cap = p->attrs_cap ? 2 * p->attrs_cap : 8;

		attrs = realloc(p->attrs, cap * sizeof(*attrs));
		if (!attrs)
			return lt_perf_cur_fail(p, err, LT_E_NOMEM, c, "out of memory");
		p->attrs = attrs;
		p->attrs_cap = cap;
	}
	pa = calloc(1, sizeof(*pa));
	if (!pa)
		return lt_perf_cur_fail(p, err, LT_E_NOMEM, c, "out of memory");
	p->attrs[p->nr_attrs] = pa;
	pa->pub.index = p->nr_attrs++;
	pa->pub.type = pget32(a, p->swap);
	pa->pub.config = pget64(a + 8, p->swap);
	pa->pub.sample_type = pget64(a + 24, p->swap);
	pa->pub.read_format = pget64(a + 32, p->swap);
	pa->pub.flags = attr_flags(a + 40, p->info.big_endian);
	pa->pub.sample_id_all = pa->pub.flags >> ATTR_FLAG_SAMPLE_ID_ALL & 1;
	pa->pub.clockid = -1;
	/* clockid is at 92, in the attrs of 96 bytes and more (VER3) */
	if (size >= 96 && (pa->pub.flags >> ATTR_FLAG_USE_CLOCKID & 1))
		pa->pub.clockid = (int32_t)pget32(a + 92, p->swap);
	pa->pub.name = "";
	pa->type_size = 2;	/* common_type, until the format says */
	attr_layout(pa);
	for (i = 0; i < nr_ids; i++) {
		id = pget64(ids + 8 * i, p->swap);
		/* 0 names no event: such records belong to the first */
		if (!id)
			continue;
		e = id_get(p, err, c, id);
		if (!e)
			return -1;
		e->attr = pa->pub.index;
		pa->pub.nr_ids++;
	}
	memset(p->idc, 0, sizeof(p->idc));
	if (pa->pub.clockid >= 0 && p->info.clockid < 0)
		p->info.clockid = pa->pub.clockid;
	attr_bind(p, pa);
	p->info.nr_attrs = p->nr_attrs;
	return 0;
}

int lt_perf_attrs_check(struct lt_perf *p, struct lt_error *err, const struct pcur *c)
{
	const struct perf_attr *first;
	unsigned int i;

	if (!p->nr_attrs)
		return 0;
	first = p->attrs[0];
	p->sample_id_all = first->pub.sample_id_all;
	p->id_pos = calc_id_pos(first->pub.sample_type);
	p->is_pos = calc_is_pos(first->pub.sample_type);
	for (i = 1; i < p->nr_attrs; i++) {
		const struct perf_attr *a = p->attrs[i];

		if (a->pub.sample_id_all != p->sample_id_all)
			return lt_perf_cur_fail(p, err, LT_E_VERSION, c,
						"events %u and 0 disagree on sample_id_all (perf: \"non matching sample_id_all\")",
						i);
		if (p->id_pos < 0 || p->is_pos < 0 ||
		    calc_id_pos(a->pub.sample_type) != p->id_pos ||
		    calc_is_pos(a->pub.sample_type) != p->is_pos)
			return lt_perf_cur_fail(p, err, LT_E_VERSION, c,
						"%u events, and their records do not name theirs at one place (perf: \"non matching sample_type\")",
						p->nr_attrs);
	}
	return 0;
}

struct perf_attr *lt_perf_attr_of_slow(struct lt_perf *p, const unsigned char *r,
				       uint32_t type, uint32_t size)
{
	const struct id_ent *e;
	uint64_t id, where, slot;

	if (p->nr_attrs <= 1)
		return p->nr_attrs ? p->attrs[0] : NULL;
	if (type != PERF_RECORD_SAMPLE && !p->sample_id_all)
		return p->attrs[0];
	if (type == PERF_RECORD_SAMPLE) {
		where = PERF_REC_HEADER + 8 * (uint64_t)p->id_pos;
		if (where + 8 > size)
			return NULL;
	} else {
		where = 8 * (uint64_t)p->is_pos;
		if (where + PERF_REC_HEADER > size)
			return NULL;
		where = size - where;
	}
	id = pget64(r + where, p->swap);
	/* perf: "synthesized events have an id of zero" */
	if (!id)
		return p->attrs[0];
	/* ids are small numbers, a few per event and CPU */
	slot = id % 64;
	if (p->idc[slot].id == id)
		return p->idc[slot].attr;
	e = lt_perf_id_find(p, id);
	if (!e || e->attr >= p->nr_attrs)
		return NULL;
	p->idc[slot].id = id;
	p->idc[slot].attr = p->attrs[e->attr];
	return p->idc[slot].attr;
}

void lt_perf_attrs_free(struct lt_perf *p)
{
	unsigned int i;

	for (i = 0; i < p->nr_attrs; i++)
		free(p->attrs[i]);
	free(p->attrs);
	free(p->ids);
	p->attrs = NULL;
	p->ids = NULL;
	p->nr_attrs = 0;
}
