// SPDX-License-Identifier: LGPL-2.1
/*
 * perf-feat.c - the feature sections: what the file says about the
 * machine, the run and the events.  In file mode each is a section the
 * table after the data points to; in pipe mode the same bytes come as
 * HEADER_FEATURE records (and the tracing data and build-ids as records
 * of their own).  Byte order is the file's, as everywhere.
 */
#include <stdio.h>
#include <stdlib.h>

#include "perf-local.h"

/* build_id_event: header, pid, 24 bytes of id (20, its size, padding) */
#define BUILD_ID_EVENT_MIN	(PERF_REC_HEADER + 4 + 24)

static int keep_string(struct lt_perf *p, struct lt_error *err,
		       struct pcur *c, const char *item, const char **out)
{
	const char *s;
	size_t len;

	if (lt_perf_cur_string(p, err, c, item, &s, &len))
		return -1;
	*out = lt_perf_keep(p, s, len);
	if (!*out)
		return lt_perf_cur_fail(p, err, LT_E_NOMEM, c, "out of memory");
	return 0;
}

int lt_perf_tracing_data_read(struct lt_perf *p, struct lt_error *err,
			      const unsigned char *data, size_t len, uint64_t off)
{
	struct lt_error e;
	const char *msg;
	size_t plen = strlen(p->path);

	/* perf inject may send it again: the first one stays */
	if (p->trace)
		return 0;
	if (lt_trace_from_tracing_data(&p->trace, p->path, data, len, off,
				       &e) == 0) {
		p->info.tracing_data = true;
		/* in pipe mode a record of its own: the bit says it too */
		p->info.features[0] |= 1ULL << FEAT_TRACING_DATA;
		lt_perf_attrs_bind_formats(p);
		return 0;
	}
	/* the trace reader's message names the file; add where, if it does not */
	msg = e.msg;
	if (!strncmp(msg, p->path, plen) && !strncmp(msg + plen, ": ", 2))
		msg += plen + 2;
	if (strstr(msg, " at offset "))
		return lt_perf_fail(p, err, e.code, "%s", msg);
	return lt_perf_fail_at(p, err, e.code, "tracing data", off, "%s", msg);
}

int lt_perf_build_id_add(struct lt_perf *p, struct lt_error *err, struct pcur *c,
			 uint16_t misc, uint16_t size)
{
	struct lt_perf_build_id *b;
	const unsigned char *e = c->p + c->pos;
	const char *name;
	uint8_t n = 20;

	if (size < BUILD_ID_EVENT_MIN || size > c->len - c->pos)
		return lt_perf_cur_fail(p, err, LT_E_CORRUPT, c,
					"build-id entry of %u bytes (%u to %zu)", size,
					BUILD_ID_EVENT_MIN, c->len - c->pos);
	if (misc & PERF_RECORD_MISC_BUILD_ID_SIZE) {
		n = e[PERF_REC_HEADER + 4 + 20];
		if (n > 20)
			return lt_perf_cur_fail(p, err, LT_E_CORRUPT, c,
						"build-id of %u bytes (at most 20)", n);
	}
	if (p->nr_build_ids >= PERF_MAX_BUILD_IDS)
		return lt_perf_cur_fail(p, err, LT_E_LIMIT, c,
					"more than %u build-ids", PERF_MAX_BUILD_IDS);
	if (p->nr_build_ids == p->build_ids_cap) {
		unsigned int cap = p->build_ids_cap ? 2 * p->build_ids_cap : 32;

		b = realloc(p->build_ids, cap * sizeof(*b));
		if (!b)
			return lt_perf_cur_fail(p, err, LT_E_NOMEM, c, "out of memory");
		p->build_ids = b;
		p->build_ids_cap = cap;
	}
	name = lt_perf_keep(p, (const char *)e + BUILD_ID_EVENT_MIN,
			    strnlen((const char *)e + BUILD_ID_EVENT_MIN,
				    size - BUILD_ID_EVENT_MIN));
	if (!name)
		return lt_perf_cur_fail(p, err, LT_E_NOMEM, c, "out of memory");
	b = &p->build_ids[p->nr_build_ids++];
	b->pid = (int32_t)pget32(e + PERF_REC_HEADER, p->swap);
	b->cpumode = misc & PERF_RECORD_MISC_CPUMODE_MASK;
	b->size = n;
	memset(b->id, 0, sizeof(b->id));
	memcpy(b->id, e + PERF_REC_HEADER + 4, n);
	b->filename = name;
	p->info.nr_build_ids = p->nr_build_ids;
	p->info.features[0] |= 1ULL << FEAT_BUILD_ID;
	return 0;
}

static int feat_build_ids(struct lt_perf *p, struct lt_error *err,
			  struct pcur *c)
{
	uint16_t misc, size;

	while (c->len - c->pos >= PERF_REC_HEADER) {
		misc = pget16(c->p + c->pos + 4, p->swap);
		size = pget16(c->p + c->pos + 6, p->swap);
		if (lt_perf_build_id_add(p, err, c, misc, size))
			return -1;
		c->pos += size;
	}
	/* perf pads nothing here: a few bytes left over are damage */
	if (c->pos != c->len)
		return lt_perf_cur_fail(p, err, LT_E_CORRUPT, c,
					"%zu bytes after the last build-id",
					c->len - c->pos);
	return 0;
}

static int feat_cmdline(struct lt_perf *p, struct lt_error *err,
			struct pcur *c)
{
	size_t len, total = 0, at;
	const char *s;
	uint32_t nr, i;
	size_t start;
	char *line;

	if (lt_perf_cur_u32(p, err, c, "argument count", &nr))
		return -1;
	/* each argument takes at least its 4-byte length */
	if (nr > (c->len - c->pos) / 4)
		return lt_perf_cur_fail(p, err, LT_E_CORRUPT, c,
					"%u arguments cannot fit in %zu bytes", nr,
					c->len - c->pos);
	start = c->pos;
	for (i = 0; i < nr; i++) {
		if (lt_perf_cur_string(p, err, c, "argument", &s, &len))
			return -1;
		total += len + 1;
	}
	line = malloc(total + 1);
	if (!line)
		return lt_perf_cur_fail(p, err, LT_E_NOMEM, c, "out of memory");
	c->pos = start;
	for (i = 0, at = 0; i < nr; i++) {
		lt_perf_cur_string(p, NULL, c, "argument", &s, &len);
		if (i)
			line[at++] = ' ';
		memcpy(line + at, s, len);
		at += len;
	}
	p->info.cmdline = lt_perf_keep(p, line, at);
	free(line);
	if (!p->info.cmdline) {
		p->info.cmdline = "";
		return lt_perf_cur_fail(p, err, LT_E_NOMEM, c, "out of memory");
	}
	return 0;
}

/* EVENT_DESC: the events again, with their names (by index, as perf) */
static int feat_event_desc(struct lt_perf *p, struct lt_error *err,
			   struct pcur *c)
{
	uint32_t nr, asize, nr_ids, i;
	const char *name;
	size_t len;

	if (lt_perf_cur_u32(p, err, c, "event count", &nr) ||
	    lt_perf_cur_u32(p, err, c, "attr size", &asize))
		return -1;
	if (asize < PERF_ATTR_SIZE_VER0 || asize > 4096) {
		c->pos -= 4;
		return lt_perf_cur_fail(p, err, LT_E_CORRUPT, c,
					"attr size %u (64 to 4096)", asize);
	}
	if (nr > (c->len - c->pos) / (asize + 8))
		return lt_perf_cur_fail(p, err, LT_E_CORRUPT, c,
					"%u events cannot fit in %zu bytes", nr,
					c->len - c->pos);
	for (i = 0; i < nr; i++) {
		if (lt_perf_cur_need(p, err, c, asize, "attr"))
			return -1;
		c->pos += asize;
		if (lt_perf_cur_u32(p, err, c, "id count", &nr_ids) ||
		    lt_perf_cur_string(p, err, c, "event name", &name, &len))
			return -1;
		if (nr_ids > (c->len - c->pos) / 8)
			return lt_perf_cur_fail(p, err, LT_E_CORRUPT, c,
						"%u ids cannot fit in %zu bytes",
						nr_ids, c->len - c->pos);
		c->pos += 8 * (size_t)nr_ids;
		if (i < p->nr_attrs && len) {
			const char *kept = lt_perf_keep(p, name, len);

			if (!kept)
				return lt_perf_cur_fail(p, err, LT_E_NOMEM, c,
							"out of memory");
			p->attrs[i]->pub.name = kept;
		}
	}
	return 0;
}

int lt_perf_feat_read(struct lt_perf *p, struct lt_error *err, unsigned int feat,
		      struct pcur *c)
{
	struct lt_perf_info *in = &p->info;
	uint32_t a, b;

	/* pipe mode's end-of-features record has no bytes: not a feature */
	if (feat < FEAT_BITS && c->len)
		in->features[feat / 64] |= 1ULL << (feat % 64);
	switch (feat) {
	case FEAT_TRACING_DATA:
		return lt_perf_tracing_data_read(p, err, c->p, c->len, c->off);
	case FEAT_BUILD_ID:
		return feat_build_ids(p, err, c);
	case FEAT_HOSTNAME:
		return keep_string(p, err, c, "host name", &in->hostname);
	case FEAT_OSRELEASE:
		return keep_string(p, err, c, "os release", &in->os_release);
	case FEAT_VERSION:
		return keep_string(p, err, c, "perf version",
				   &in->perf_version);
	case FEAT_ARCH:
		return keep_string(p, err, c, "arch", &in->arch);
	case FEAT_CPUDESC:
		return keep_string(p, err, c, "cpu description",
				   &in->cpu_desc);
	case FEAT_CPUID:
		return keep_string(p, err, c, "cpuid", &in->cpuid);
	case FEAT_NRCPUS:
		/* available first, then online (perf's process_nrcpus()) */
		if (lt_perf_cur_u32(p, err, c, "available CPUs", &a) ||
		    lt_perf_cur_u32(p, err, c, "online CPUs", &b))
			return -1;
		in->nr_cpus_avail = a > INT32_MAX ? -1 : (int)a;
		in->nr_cpus_online = b > INT32_MAX ? -1 : (int)b;
		return 0;
	case FEAT_TOTAL_MEM:
		return lt_perf_cur_u64(p, err, c, "total memory", &in->total_mem_kb);
	case FEAT_CMDLINE:
		return feat_cmdline(p, err, c);
	case FEAT_EVENT_DESC:
		return feat_event_desc(p, err, c);
	case FEAT_SAMPLE_TIME:
		return lt_perf_cur_u64(p, err, c, "first sample time",
				       &in->first_sample_ns) ||
		       lt_perf_cur_u64(p, err, c, "last sample time",
				       &in->last_sample_ns) ? -1 : 0;
	case FEAT_CLOCKID:
		return lt_perf_cur_u64(p, err, c, "clock resolution",
				       &in->clock_res_ns);
	case FEAT_CLOCK_DATA:
		if (lt_perf_cur_u32(p, err, c, "clock data version", &a))
			return -1;
		/* only version 1 is known; a later one is left alone */
		if (a != 1)
			return 0;
		if (lt_perf_cur_u32(p, err, c, "clock id", &b) ||
		    lt_perf_cur_u64(p, err, c, "wall-clock time", &in->clock_tod_ns) ||
		    lt_perf_cur_u64(p, err, c, "clock time", &in->clock_ref_ns))
			return -1;
		in->have_clock_data = true;
		return 0;
	case FEAT_COMPRESSED:
		/* only zstd has ever been written (type 1) */
		if (lt_perf_cur_u32(p, err, c, "compression version", &a) ||
		    lt_perf_cur_u32(p, err, c, "compression type", &b))
			return -1;
		in->compression = b == 1 ? "zstd" : "unknown";
		return 0;
	default:
		/* topology, caches, PMUs, BPF, ...: not needed */
		return 0;
	}
}
