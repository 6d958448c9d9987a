// SPDX-License-Identifier: LGPL-2.1
/*
 * perf-header.c - opening a perf.data: the file header, the attrs and
 * their ids, the feature table (file mode), or the header records that
 * come first in a stream (pipe mode); and the records perf itself writes
 * (types 64 and up), which describe rather than happen.
 *
 * File mode: a 104-byte header points to the attrs (each followed by
 * where its ids are), the data section, and, after the data, a table of
 * (offset, size) for each feature bit set in the header.  Pipe mode: a
 * 16-byte header, then records, the descriptions first.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "perf-local.h"

static const char magic_le[8] = { 'P', 'E', 'R', 'F', 'I', 'L', 'E', '2' };
static const char magic_be[8] = { '2', 'E', 'L', 'I', 'F', 'R', 'E', 'P' };
static const char magic_v1[8] = { 'P', 'E', 'R', 'F', 'F', 'I', 'L', 'E' };

static const char *const feat_names[] = {
	[FEAT_TRACING_DATA]	= "TRACING_DATA feature",
	[FEAT_BUILD_ID]		= "BUILD_ID feature",
	[FEAT_HOSTNAME]		= "HOSTNAME feature",
	[FEAT_OSRELEASE]	= "OSRELEASE feature",
	[FEAT_VERSION]		= "VERSION feature",
	[FEAT_ARCH]		= "ARCH feature",
	[FEAT_NRCPUS]		= "NRCPUS feature",
	[FEAT_CPUDESC]		= "CPUDESC feature",
	[FEAT_CPUID]		= "CPUID feature",
	[FEAT_TOTAL_MEM]	= "TOTAL_MEM feature",
	[FEAT_CMDLINE]		= "CMDLINE feature",
	[FEAT_EVENT_DESC]	= "EVENT_DESC feature",
	[FEAT_SAMPLE_TIME]	= "SAMPLE_TIME feature",
	[FEAT_CLOCKID]		= "CLOCKID feature",
	[FEAT_COMPRESSED]	= "COMPRESSED feature",
	[FEAT_CLOCK_DATA]	= "CLOCK_DATA feature",
};

static const char *feat_name(unsigned int feat)
{
	return feat < sizeof(feat_names) / sizeof(feat_names[0]) &&
	       feat_names[feat] ? feat_names[feat] : "feature section";
}

bool lt_perf_magic(const void *buf, size_t len)
{
	return len >= 8 && (!memcmp(buf, magic_le, 8) ||
			    !memcmp(buf, magic_be, 8));
}

/* ---- records perf writes (types 64 and up) ------------------------------ */

static int rec_attr(struct lt_perf *p, struct lt_error *err, struct pcur *c)
{
	uint32_t asize;

	if (lt_perf_cur_need(p, err, c, PERF_REC_HEADER + PERF_ATTR_SIZE_VER0,
			     "attr"))
		return -1;
	asize = pget32(c->p + PERF_REC_HEADER + 4, p->swap);
	if (!asize)
		asize = PERF_ATTR_SIZE_VER0;
	if (asize < PERF_ATTR_SIZE_VER0 || asize > c->len - PERF_REC_HEADER)
		return lt_perf_cur_fail(p, err, LT_E_CORRUPT, c,
					"attr size %u (64 to the record's %zu)", asize,
					c->len - PERF_REC_HEADER);
	if (lt_perf_attr_add(p, err, c, c->p + PERF_REC_HEADER, asize,
			     c->p + PERF_REC_HEADER + asize,
			     (c->len - PERF_REC_HEADER - asize) / 8))
		return -1;
	return lt_perf_attrs_check(p, err, c);
}

static int rec_id_index(struct lt_perf *p, struct lt_error *err,
			struct pcur *c)
{
	uint64_t nr, i, id, cpu;
	const unsigned char *e;

	c->pos = PERF_REC_HEADER;
	if (lt_perf_cur_u64(p, err, c, "entry count", &nr))
		return -1;
	/* id, idx, cpu, tid; newer perf adds a second array after them */
	if (nr > (c->len - c->pos) / 32)
		return lt_perf_cur_fail(p, err, LT_E_CORRUPT, c,
					"%llu entries cannot fit in %zu bytes",
					(unsigned long long)nr, c->len - c->pos);
	for (i = 0; i < nr; i++) {
		e = c->p + c->pos + 32 * i;
		id = pget64(e, p->swap);
		cpu = pget64(e + 16, p->swap);
		if (lt_perf_id_set_cpu(p, err, c, id, cpu < LT_TRACE_CPU_LIMIT ?
				       (int)cpu : -1))
			return -1;
	}
	return 0;
}

/* EVENT_UPDATE of type NAME (2): an attr's name, in pipe mode */
static int rec_event_update(struct lt_perf *p, struct lt_error *err,
			    struct pcur *c)
{
	const struct id_ent *e;
	const char *name;
	uint64_t type, id;
	size_t len;

	c->pos = PERF_REC_HEADER;
	if (lt_perf_cur_u64(p, err, c, "update type", &type) ||
	    lt_perf_cur_u64(p, err, c, "event id", &id))
		return -1;
	if (type != 2)
		return 0;
	e = lt_perf_id_find(p, id);
	len = strnlen((const char *)c->p + c->pos, c->len - c->pos);
	if (!e || e->attr >= p->nr_attrs || !len)
		return 0;
	name = lt_perf_keep(p, (const char *)c->p + c->pos, len);
	if (!name)
		return lt_perf_cur_fail(p, err, LT_E_NOMEM, c, "out of memory");
	p->attrs[e->attr]->pub.name = name;
	return 0;
}

static int rec_feature(struct lt_perf *p, struct lt_error *err,
		       struct pcur *c)
{
	struct pcur body;
	uint64_t feat;

	c->pos = PERF_REC_HEADER;
	if (lt_perf_cur_u64(p, err, c, "feature id", &feat))
		return -1;
	/* the end-of-features one (HEADER_LAST_FEATURE) is unknown too */
	if (feat >= FEAT_BITS)
		return 0;
	body.p = c->p + c->pos;
	body.len = c->len - c->pos;
	body.pos = 0;
	body.off = c->off + c->pos;
	body.what = feat_name(feat);
	return lt_perf_feat_read(p, err, (unsigned int)feat, &body);
}

int lt_perf_user_record(struct lt_perf *p, struct lt_error *err, uint32_t type,
			uint64_t off, uint32_t size, uint64_t *extra, bool *fatal)
{
	const unsigned char *r, *data;
	struct pcur c;
	uint32_t tsize;
	uint16_t misc;

	*extra = 0;
	*fatal = false;
	r = perf_bytes(p, err, off, size, "record");
	if (!r) {
		*fatal = true;
		return -1;
	}
	c.p = r;
	c.len = size;
	c.pos = 0;
	c.off = off;
	misc = pget16(r + 4, p->swap);
	switch (type) {
	case PERF_RECORD_HEADER_ATTR:
		c.what = "HEADER_ATTR record";
		return rec_attr(p, err, &c);
	case PERF_RECORD_HEADER_TRACING_DATA:
		/* the tracing data follows the record, its size in it */
		c.what = "HEADER_TRACING_DATA record";
		c.pos = PERF_REC_HEADER;
		if (lt_perf_cur_u32(p, err, &c, "tracing data size", &tsize)) {
			*fatal = true;
			return -1;
		}
		*extra = tsize;
		if (!p->stream && tsize > p->end - off - size) {
			*fatal = true;
			return lt_perf_cur_fail(p, err, LT_E_CORRUPT, &c,
						"tracing data of %u bytes runs past the data section's end",
						tsize);
		}
		data = perf_bytes(p, err, off + size, tsize, "tracing data");
		if (!data) {
			*fatal = true;
			return -1;
		}
		return lt_perf_tracing_data_read(p, err, data, tsize, off + size);
	case PERF_RECORD_HEADER_BUILD_ID:
		c.what = "HEADER_BUILD_ID record";
		return lt_perf_build_id_add(p, err, &c, misc, size);
	case PERF_RECORD_ID_INDEX:
		c.what = "ID_INDEX record";
		return rec_id_index(p, err, &c);
	case PERF_RECORD_EVENT_UPDATE:
		c.what = "EVENT_UPDATE record";
		return rec_event_update(p, err, &c);
	case PERF_RECORD_HEADER_FEATURE:
		c.what = "HEADER_FEATURE record";
		return rec_feature(p, err, &c);
	case PERF_RECORD_AUXTRACE:
		/* AUX area data (Intel PT, ...) follows: passed over */
		c.what = "AUXTRACE record";
		c.pos = PERF_REC_HEADER;
		if (lt_perf_cur_u64(p, err, &c, "data size", extra)) {
			*fatal = true;
			return -1;
		}
		return 0;
	default:
		/* COMPRESSED ones are data: lt_perf_next() takes them */
		/* THREAD_MAP, CPU_MAP, TIME_CONV, STAT, ...: nothing needed */
		if (type >= PERF_RECORD_USER_MAX)
			p->stats.unknown++;
		return 0;
	}
}

/* ---- file mode ---------------------------------------------------------- */

/*
 * [off, off + size) is in the file, else -1 with @err naming @what, and
 * @why after it ("" for nothing more).
 */
static int in_file_why(struct lt_perf *p, struct lt_error *err,
		       const char *what, uint64_t off, uint64_t size,
		       const char *why)
{
	if (off <= p->size && size <= p->size - off)
		return 0;
	return lt_perf_fail(p, err, LT_E_TRUNCATED,
			    "%s at offset 0x%llx of %llu bytes runs past the end of the file (size 0x%llx)%s",
			    what, (unsigned long long)off,
			    (unsigned long long)size, (unsigned long long)p->size,
			    why);
}

static int in_file(struct lt_perf *p, struct lt_error *err, const char *what,
		   uint64_t off, uint64_t size)
{
	return in_file_why(p, err, what, off, size, "");
}

static int read_attrs(struct lt_perf *p, struct lt_error *err,
		      uint64_t attr_size, uint64_t off, uint64_t size)
{
	uint64_t nr, i, ids_off, ids_size;
	const unsigned char *a;
	uint32_t asize;
	struct pcur c;

	if (attr_size < PERF_ATTR_SIZE_VER0 + 16 || attr_size > 65536)
		return lt_perf_fail_at(p, err, LT_E_CORRUPT, "header", 16,
				       "attr size %llu (80 to 65536)",
				       (unsigned long long)attr_size);
	/* no pointer into the map before the bytes are known to be there */
	if (in_file(p, err, "attrs section", off, size))
		return -1;
	c.what = "attrs section";
	c.p = p->map + off;
	c.len = size;
	c.pos = 0;
	c.off = off;
	if (size % attr_size || !size)
		return lt_perf_fail_at(p, err, LT_E_CORRUPT, "attrs section", off,
				       "%llu bytes are not a whole number of %llu-byte attrs",
				       (unsigned long long)size,
				       (unsigned long long)attr_size);
	nr = size / attr_size;
	if (nr > PERF_MAX_ATTRS)
		return lt_perf_fail_at(p, err, LT_E_LIMIT, "attrs section", off,
				       "%llu events, over the limit of %u",
				       (unsigned long long)nr, PERF_MAX_ATTRS);
	for (i = 0; i < nr; i++) {
		c.pos = i * attr_size;
		a = c.p + c.pos;
		/* the attr, then (perhaps after more) where its ids are */
		asize = pget32(a + 4, p->swap);
		if (!asize)
			asize = PERF_ATTR_SIZE_VER0;
		if (asize < PERF_ATTR_SIZE_VER0 || asize > attr_size - 16)
			return lt_perf_cur_fail(p, err, LT_E_CORRUPT, &c,
						"attr %llu: size %u, its entry has room for %llu",
						(unsigned long long)i, asize,
						(unsigned long long)attr_size - 16);
		ids_off = pget64(a + attr_size - 16, p->swap);
		ids_size = pget64(a + attr_size - 8, p->swap);
		if (ids_size % 8 || ids_size / 8 > PERF_MAX_IDS)
			return lt_perf_cur_fail(p, err, LT_E_CORRUPT, &c,
						"attr %llu: ids of %llu bytes",
						(unsigned long long)i,
						(unsigned long long)ids_size);
		if (in_file(p, err, "ids", ids_off, ids_size) ||
		    lt_perf_attr_add(p, err, &c, a, asize, p->map + ids_off,
				     ids_size / 8))
			return -1;
	}
	return lt_perf_attrs_check(p, err, &c);
}

static int read_features(struct lt_perf *p, struct lt_error *err,
			 const unsigned char *bits, uint64_t table)
{
	unsigned int feat, n = 0, i = 0;
	uint64_t word[4], off, size;
	struct pcur c;

	for (feat = 0; feat < 4; feat++) {
		word[feat] = pget64(bits + 8 * feat, p->swap);
		n += __builtin_popcountll(word[feat]);
	}
	if (in_file(p, err, "feature table", table, 16ULL * n))
		return -1;
	for (feat = 0; feat < FEAT_BITS; feat++) {
		if (!(word[feat / 64] >> (feat % 64) & 1))
			continue;
		off = pget64(p->map + table + 16 * i, p->swap);
		size = pget64(p->map + table + 16 * i + 8, p->swap);
		i++;
		if (in_file(p, err, feat_name(feat), off, size))
			return -1;
		if (size > PERF_MAX_FEATURE)
			return lt_perf_fail_at(p, err, LT_E_LIMIT, feat_name(feat),
					       off, "%llu bytes, over the limit of %u MB",
					       (unsigned long long)size,
					       PERF_MAX_FEATURE >> 20);
		c.p = p->map + off;
		c.len = size;
		c.pos = 0;
		c.off = off;
		c.what = feat_name(feat);
		if (lt_perf_feat_read(p, err, feat, &c))
			return -1;
	}
	return 0;
}

static int read_file_header(struct lt_perf *p, struct lt_error *err,
			    uint64_t hsize)
{
	const unsigned char *h = p->map;
	uint64_t attr_size, attrs_off, attrs_size, data_off, data_size;

	if (hsize != PERF_FILE_HEADER_SIZE && hsize != PERF_FILE_HEADER_OLD)
		return lt_perf_fail_at(p, err, LT_E_CORRUPT, "header", 8,
				       "header size %llu (104; 72 before 2.6.39; 16 in pipe mode)",
				       (unsigned long long)hsize);
	if (p->size < hsize)
		return lt_perf_fail(p, err, LT_E_TRUNCATED,
				    "the header needs %llu bytes, the file has %llu",
				    (unsigned long long)hsize,
				    (unsigned long long)p->size);
	attr_size = pget64(h + 16, p->swap);
	attrs_off = pget64(h + 24, p->swap);
	attrs_size = pget64(h + 32, p->swap);
	data_off = pget64(h + 40, p->swap);
	data_size = pget64(h + 48, p->swap);

	if (data_off < hsize)
		return lt_perf_fail_at(p, err, LT_E_CORRUPT, "header", 40,
				       "data section at offset 0x%llx, inside the header",
				       (unsigned long long)data_off);
	if (!data_size)
		return lt_perf_fail_at(p, err, LT_E_TRUNCATED, "header", 48,
				       "the data section's size is 0: perf record did not finish the file (it writes the sizes and features last)");
	/* a cut one is lost whole: say why */
	if (in_file_why(p, err, "data section", data_off, data_size,
			": cut short, or a damaged header; perf writes the event formats after the data, so --partial cannot read it either"))
		return -1;
	p->info.data_offset = data_off;
	p->info.data_size = data_size;
	p->pos = data_off;
	p->end = data_off + data_size;

	if (read_attrs(p, err, attr_size, attrs_off, attrs_size))
		return -1;
	if (hsize == PERF_FILE_HEADER_SIZE &&
	    read_features(p, err, h + 72, p->end))
		return -1;
	return 0;
}

/* ---- pipe mode ---------------------------------------------------------- */

/*
 * The records perf writes first (attrs, features, tracing data, ...), up
 * to the first data record, which is left for lt_perf_next().
 */
static int read_pipe_headers(struct lt_perf *p, struct lt_error *err)
{
	const unsigned char *h;
	uint64_t extra;
	uint32_t type;
	uint16_t size;
	bool fatal;
	int more;

	for (;;) {
		more = lt_perf_more(p, err, p->pos);
		if (more <= 0)
			return more;
		h = perf_bytes(p, err, p->pos, PERF_REC_HEADER,
			       "record header");
		if (!h)
			return -1;
		type = pget32(h, p->swap);
		size = pget16(h + 6, p->swap);
		if (type < PERF_RECORD_USER_START ||
		    type == PERF_RECORD_FINISHED_ROUND ||
		    type == PERF_RECORD_FINISHED_INIT ||
		    type == PERF_RECORD_COMPRESSED ||
		    type == PERF_RECORD_COMPRESSED2)
			return 0;
		if (size < PERF_REC_HEADER)
			return lt_perf_fail_at(p, err, LT_E_CORRUPT, "record",
					       p->pos, "size %u (at least 8)", size);
		if (!p->stream && size > p->end - p->pos)
			return lt_perf_fail_at(p, err, LT_E_TRUNCATED, "record",
					       p->pos,
					       "%u bytes, the file ends after %llu",
					       size,
					       (unsigned long long)(p->end - p->pos));
		p->stats.records++;
		if (lt_perf_user_record(p, err, type, p->pos, size, &extra, &fatal))
			return -1;
		if (!p->stream && extra > p->end - p->pos - size)
			return lt_perf_fail_at(p, err, LT_E_TRUNCATED, "record",
					       p->pos,
					       "its %llu bytes of data run past the end of the file",
					       (unsigned long long)extra);
		if (extra && lt_perf_skip(p, err, p->pos + size, extra,
					  UINT64_MAX, "record data"))
			return -1;
		p->pos += size + extra;
		lt_perf_release(p, p->pos);
	}
}

/* ---- open and close ------------------------------------------------------ */

static int open_bytes(struct lt_perf *p, struct lt_error *err)
{
	const unsigned char *h;
	struct stat st;
	uint64_t hsize;
	void *map;

	if (fstat(p->fd, &st) < 0)
		return lt_perf_fail(p, err, LT_E_IO, "cannot stat: %s",
				    strerror(errno));
	if (S_ISDIR(st.st_mode))
		return lt_perf_fail(p, err, LT_E_IO, "not a regular file");
	p->sys_page = sysconf(_SC_PAGESIZE) > 0 ? sysconf(_SC_PAGESIZE) : 4096;
	if (S_ISREG(st.st_mode)) {
		if (st.st_size == 0)
			return lt_perf_fail(p, err, LT_E_NOT_TRACE, "empty file");
		if ((uint64_t)st.st_size > SIZE_MAX)
			return lt_perf_fail(p, err, LT_E_LIMIT,
					    "file too large to map");
		p->size = st.st_size;
		p->info.file_size = p->size;
		map = mmap(NULL, p->size, PROT_READ, MAP_PRIVATE, p->fd, 0);
		if (map == MAP_FAILED)
			return lt_perf_fail(p, err, errno == ENOMEM ?
					    LT_E_NOMEM : LT_E_IO,
					    "cannot map: %s", strerror(errno));
		p->map = map;
		/* the header and the feature sections are read at random */
		madvise(map, p->size, MADV_RANDOM);
	} else {
		p->stream = true;
	}
	/* a stream's window, and decompressed data's, grow to about this */
	p->win_max = p->queue_bytes;

	h = perf_bytes(p, NULL, 0, PERF_PIPE_HEADER_SIZE, "header");
	if (!h) {
		if (p->stream && !p->win.len)
			return lt_perf_fail(p, err, LT_E_NOT_TRACE, "empty input");
		h = p->stream ? p->win.buf : p->map;
		if (lt_perf_magic(h, p->stream ? p->win.len : p->size))
			return lt_perf_fail(p, err, LT_E_TRUNCATED,
					    "the file ends inside its header");
		return lt_perf_fail(p, err, LT_E_NOT_TRACE,
				    "too short for a perf.data or trace.dat file");
	}
	if (!memcmp(h, magic_v1, 8))
		return lt_perf_fail(p, err, LT_E_VERSION,
				    "perf.data version 1 (\"PERFFILE\", perf before Linux 2.6.39): not supported");
	/* a stream's first bytes say what it is: a trace.dat cannot stream */
	if (!lt_perf_magic(h, 8) && p->stream && !memcmp(h, "\x17\x08\x44tracing", 10))
		return lt_perf_fail(p, err, LT_E_IO,
				    "not a regular file (a trace is mapped, not streamed: save it first)");
	if (!lt_perf_magic(h, 8) && p->stream)
		return lt_perf_fail(p, err, LT_E_IO,
				    "not a regular file, nor a perf.data in pipe mode (no \"PERFILE2\" at its start): save a trace first, or record with \"perf record -o -\"");
	if (!lt_perf_magic(h, 8))
		return lt_perf_fail(p, err, LT_E_NOT_TRACE,
				    "no perf.data magic (\"PERFILE2\") at offset 0");
	p->info.big_endian = !memcmp(h, magic_be, 8);
	p->swap = p->info.big_endian != (__BYTE_ORDER__ == __ORDER_BIG_ENDIAN__);
	hsize = pget64(h + 8, p->swap);
	if (hsize == PERF_PIPE_HEADER_SIZE) {
		p->info.pipe = true;
		p->pos = PERF_PIPE_HEADER_SIZE;
		p->end = p->stream ? UINT64_MAX : p->size;
		if (read_pipe_headers(p, err))
			return -1;
		/* a pipe's records saved to a file: read as a file's */
		if (!p->stream)
			lt_perf_chunks_init(p, p->pos);
		return 0;
	}
	if (p->stream)
		return lt_perf_fail(p, err, LT_E_IO,
				    "a perf.data in file mode cannot be read from a pipe (its header points to its end): give the file, or record with \"perf record -o -\"");
	if (read_file_header(p, err, hsize))
		return -1;
	lt_perf_chunks_init(p, p->pos);
	return 0;
}

int lt_perf_open_fd(struct lt_perf **out, int fd, const char *name,
		    const struct lt_perf_options *opts, struct lt_error *err)
{
	struct lt_perf *p;

	*out = NULL;
	p = calloc(1, sizeof(*p));
	if (!p || !(p->path = strdup(name))) {
		free(p);
		lt_error_set(err, LT_E_NOMEM, "%s: out of memory", name);
		return -1;
	}
	p->fd = fd;
	p->info.path = p->path;
	p->info.hostname = p->info.os_release = p->info.perf_version = "";
	p->info.arch = p->info.cpu_desc = p->info.cpuid = "";
	p->info.cmdline = "";
	p->info.compression = "none";
	p->info.nr_cpus_online = p->info.nr_cpus_avail = -1;
	p->info.clockid = -1;
	p->queue_bytes = opts && opts->queue_bytes ? opts->queue_bytes :
			 PERF_QUEUE_DEFAULT;
	if (p->queue_bytes < PERF_QUEUE_MIN)
		p->queue_bytes = PERF_QUEUE_MIN;
	lt_perf_queue_init(&p->q, p->queue_bytes / 2 / sizeof(struct q_ent));
	p->chunks_keep = opts && opts->chunks_keep ? opts->chunks_keep :
			 PERF_CHUNKS_KEEP;
	if (p->chunks_keep > PERF_SLOTS_MAX)
		p->chunks_keep = PERF_SLOTS_MAX;
	p->state = ST_READ;
	if (open_bytes(p, err)) {
		p->fd = -1;
		lt_perf_close(p);
		return -1;
	}
	*out = p;
	return 0;
}

int lt_perf_open(struct lt_perf **out, const char *path,
		 const struct lt_perf_options *opts, struct lt_error *err)
{
	int fd, ret;

	*out = NULL;
	if (!strcmp(path, "-"))
		return lt_perf_open_fd(out, STDIN_FILENO, "standard input",
				       opts, err);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		lt_error_set(err, LT_E_IO, "%s: cannot open: %s", path,
			     strerror(errno));
		return -1;
	}
	ret = lt_perf_open_fd(out, fd, path, opts, err);
	if (ret)
		close(fd);
	else
		(*out)->own_fd = true;
	return ret;
}

void lt_perf_close(struct lt_perf *p)
{
	unsigned int i;

	if (!p)
		return;
	lt_trace_close(p->trace);
	lt_perf_attrs_free(p);
	lt_perf_queue_free(&p->q);
	free(p->build_ids);
	for (i = 0; i < p->nr_strs; i++)
		free(p->strs[i]);
	free(p->strs);
	free(p->win.buf);
	lt_perf_zdata_free(p);
	lt_perf_chunks_free(p);
	if (p->map)
		munmap((void *)p->map, p->size);
	if (p->own_fd && p->fd >= 0)
		close(p->fd);
	free(p->path);
	free(p);
}

/* ---- what it holds ------------------------------------------------------- */

const struct lt_perf_info *lt_perf_info(const struct lt_perf *p)
{
	return &p->info;
}

const struct lt_perf_stats *lt_perf_stats(const struct lt_perf *p)
{
	return &p->stats;
}

const struct lt_trace *lt_perf_trace(const struct lt_perf *p)
{
	return p->trace;
}

unsigned int lt_perf_nr_attrs(const struct lt_perf *p)
{
	return p->nr_attrs;
}

const struct lt_perf_attr *lt_perf_attr(const struct lt_perf *p,
					unsigned int i)
{
	return i < p->nr_attrs ? &p->attrs[i]->pub : NULL;
}

unsigned int lt_perf_nr_build_ids(const struct lt_perf *p)
{
	return p->nr_build_ids;
}

const struct lt_perf_build_id *lt_perf_build_id(const struct lt_perf *p,
						unsigned int i)
{
	return i < p->nr_build_ids ? &p->build_ids[i] : NULL;
}

void lt_perf_progress(const struct lt_perf *p, uint64_t *done,
		      uint64_t *total)
{
	if (p->stream) {
		*done = p->pos;
		*total = 0;
		return;
	}
	*total = p->end - p->info.data_offset;
	*done = p->pos > p->end ? *total : p->pos - p->info.data_offset;
}
