// SPDX-License-Identifier: LGPL-2.1
/*
 * trace-file.c - the trace.dat container: header, v6 metadata, v7 sections
 * and options, and lt_trace_open()/lt_trace_close().
 *
 * The file is mapped read-only.  Nothing is trusted: every size, offset
 * and count is checked against the bytes that are really there (struct rd)
 * before it is used, and options sections are followed with a visited list
 * so a cyclic chain cannot loop.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tracedat-local.h"

static const unsigned char trace_magic[10] = {
	0x17, 0x08, 0x44, 't', 'r', 'a', 'c', 'i', 'n', 'g'
};

static char *xstrndup(const char *s, size_t n)
{
	size_t len = strnlen(s, n);
	char *p = malloc(len + 1);

	if (!p)
		return NULL;
	memcpy(p, s, len);
	p[len] = '\0';
	return p;
}

static int nomem(const struct lt_trace *t, struct lt_error *err,
		 const char *what)
{
	return lt_trace_fail(t, err, LT_E_NOMEM, "%s: out of memory", what);
}

/* ---- header info: header_page, header_event -------------------------- */

static int read_header_info(struct lt_trace *t, struct lt_error *err,
			    struct rd *r)
{
	const unsigned char *magic;
	const char *text;
	size_t len;

	if (lt_trace_rd_bytes(t, err, r, "\"header_page\" tag", 12, &magic))
		return -1;
	if (memcmp(magic, "header_page", 12)) {
		r->pos -= 12;
		return lt_trace_rd_fail(t, err, LT_E_CORRUPT, r,
					"expected \"header_page\"");
	}
	if (lt_trace_rd_sized_text(t, err, r, 8, LT_MAX_FORMAT_SIZE, "header_page",
				   &text, &len))
		return -1;
	if (lt_trace_parse_header_page(t, err, text, len, t->info.long_size))
		return -1;

	if (lt_trace_rd_bytes(t, err, r, "\"header_event\" tag", 13, &magic))
		return -1;
	if (memcmp(magic, "header_event", 13)) {
		r->pos -= 13;
		return lt_trace_rd_fail(t, err, LT_E_CORRUPT, r,
					"expected \"header_event\"");
	}
	/* Fixed since 2.6.31; the page decoder knows it. */
	return lt_trace_rd_sized_text(t, err, r, 8, LT_MAX_FORMAT_SIZE, "header_event",
				      &text, &len);
}

/* Where the text lt_trace_rd_sized_text() just gave stays (not in the window). */
static inline const char *rd_kept(const struct rd *r, size_t len)
{
	return (const char *)r->p + r->pos - len;
}

/*
 * @count (@what, of system @sys if not NULL), just read, of items of at
 * least @each bytes: over @limit it is damage; more than the rest holds,
 * truncation or damage as lt_trace_rd_need() says (a file cut inside its formats
 * leaves a count that fits the limit but not the bytes left).
 */
static int rd_count(const struct lt_trace *t, struct lt_error *err,
		    struct rd *r, uint32_t count, uint32_t limit, size_t each,
		    const char *what, const char *sys)
{
	char item[128];

	if (count <= limit && count <= (r->len - r->pos) / each)
		return 0;
	if (sys)
		snprintf(item, sizeof(item), "%s %u of system \"%.64s\"",
			 what, count, sys);
	else
		snprintf(item, sizeof(item), "%s %u", what, count);
	r->pos -= 4;
	if (count > limit)
		return lt_trace_rd_fail(t, err, LT_E_CORRUPT, r, "%s is impossible",
					item);
	return lt_trace_rd_need(t, err, r, 4 + (size_t)count * each, item);
}

static int read_ftrace_formats(struct lt_trace *t, struct lt_error *err,
			       struct rd *r)
{
	const char *text;
	uint32_t count, i;
	size_t len;

	if (lt_trace_rd_u32(t, err, r, "ftrace format count", &count))
		return -1;
	/* Each format needs at least its 8-byte size. */
	if (rd_count(t, err, r, count, LT_MAX_EVENT_TYPES, 8,
		     "ftrace format count", NULL))
		return -1;
	for (i = 0; i < count; i++) {
		if (lt_trace_rd_sized_text(t, err, r, 8, LT_MAX_FORMAT_SIZE,
					   "ftrace event format", &text, &len))
			return -1;
		if (lt_trace_add_event_format(t, err, "ftrace", text, rd_kept(r, len),
					      len))
			return -1;
	}
	return 0;
}

static int read_event_formats(struct lt_trace *t, struct lt_error *err,
			      struct rd *r)
{
	uint32_t systems, count, s, i;
	const char *name, *text;
	size_t len, syslen;
	char sys[256];

	if (lt_trace_rd_u32(t, err, r, "event system count", &systems))
		return -1;
	/* A system needs at least a 1-byte name and a 4-byte count. */
	if (rd_count(t, err, r, systems, LT_MAX_SYSTEMS, 5,
		     "event system count", NULL))
		return -1;
	for (s = 0; s < systems; s++) {
		if (lt_trace_rd_str(t, err, r, "event system name", &name, &syslen))
			return -1;
		if (syslen > 255) {
			r->pos -= syslen + 1;
			return lt_trace_rd_fail(t, err, LT_E_CORRUPT, r,
						"event system name of %zu bytes", syslen);
		}
		/* a window's copy lasts until the next read */
		memcpy(sys, name, syslen + 1);
		if (lt_trace_rd_u32(t, err, r, "event count", &count))
			return -1;
		if (rd_count(t, err, r, count, LT_MAX_EVENT_TYPES, 8,
			     "event count", sys))
			return -1;
		for (i = 0; i < count; i++) {
			if (lt_trace_rd_sized_text(t, err, r, 8, LT_MAX_FORMAT_SIZE,
						   "event format", &text, &len))
				return -1;
			if (lt_trace_add_event_format(t, err, sys, text,
						      rd_kept(r, len), len))
				return -1;
		}
	}
	return 0;
}

/* Formats, read through a window when they are in the map. */
static int read_windowed(int (*fn)(struct lt_trace *, struct lt_error *,
				   struct rd *),
			 struct lt_trace *t, struct lt_error *err, struct rd *r)
{
	struct rd_win w;
	int ret;

	lt_trace_rd_win_start(t, r, &w);
	ret = fn(t, err, r);
	lt_trace_rd_win_end(r, &w);
	return ret;
}

/* ---- options --------------------------------------------------------- */

/* What the options point at, resolved after all options are read (v7). */
struct v7_sections {
	uint64_t off[OPT_BUFFER_TEXT + 1];
	bool have_top;
	uint64_t top_off;
	uint32_t top_page_size;
	uint32_t top_cpus;
	const unsigned char *top_cpu_table;	/* in an options buffer */
	struct rd top_rd;			/* for error messages */
	unsigned char **bufs;			/* decompressed options sections */
	unsigned int nr_bufs;
	uint64_t kept;				/* their bytes */
};

/* Copy an option's text (not trusted to be NUL-terminated). */
static char *opt_text(const unsigned char *data, uint32_t size)
{
	return xstrndup((const char *)data, size);
}

static void set_clock_from(struct lt_trace *t, const char *text)
{
	const char *open = strchr(text, '['), *close;
	char *clock;

	/* trace_clock lists all clocks with the current one in brackets. */
	if (open && (close = strchr(open, ']')))
		clock = xstrndup(open + 1, close - open - 1);
	else
		clock = xstrndup(text, strcspn(text, " \n"));
	if (!clock)
		return;
	if (*clock && !t->clock) {
		t->clock = clock;
		return;
	}
	free(clock);
}

/* Room for one more buffer; the top level's is [0], made first. */
static struct trace_buffer *new_buffer(struct lt_trace *t,
				       struct lt_error *err)
{
	struct trace_buffer *b;
	unsigned int n = t->nr_buffers ? t->nr_buffers + 1 : 2;

	b = realloc(t->buffers, n * sizeof(*b));
	if (!b) {
		nomem(t, err, "buffers");
		return NULL;
	}
	t->buffers = b;
	if (!t->nr_buffers) {
		memset(&b[0], 0, sizeof(b[0]));
		t->nr_buffers = 1;
	}
	memset(&b[t->nr_buffers], 0, sizeof(*b));
	return &b[t->nr_buffers++];
}

/*
 * A v7 CPU table of @cpus entries (cpu u32, offset u64, size u64) at @r
 * into @b, validated as far as it can be without reading the data.
 */
static int read_cpu_table(struct lt_trace *t, struct lt_error *err,
			  struct rd *r, uint32_t cpus, struct trace_buffer *b)
{
	const unsigned char *p;
	uint32_t i;

	if (cpus > LT_MAX_CPUS)
		return lt_trace_rd_fail(t, err, LT_E_LIMIT, r,
					"%u CPUs, more than the limit of %u",
					cpus, LT_MAX_CPUS);
	if ((uint64_t)cpus * 20 > r->len - r->pos)
		return lt_trace_rd_fail(t, err, LT_E_CORRUPT, r,
					"CPU table of %u CPUs does not fit in the option",
					cpus);
	b->cpus = calloc(cpus ? cpus : 1, sizeof(*b->cpus));
	if (!b->cpus)
		return nomem(t, err, "CPU table");
	for (i = 0, p = r->p + r->pos; i < cpus; i++, p += 20) {
		b->cpus[i].cpu = (int)get32(p, t->swap);
		b->cpus[i].off = get64(p + 4, t->swap);
		b->cpus[i].size = get64(p + 12, t->swap);
		if ((uint32_t)b->cpus[i].cpu >= LT_MAX_CPUS)
			return lt_trace_rd_fail(t, err, LT_E_LIMIT, r,
						"CPU id %u is over the limit of %u",
						(uint32_t)b->cpus[i].cpu, LT_MAX_CPUS);
	}
	b->nr_cpus = cpus;
	return 0;
}

/*
 * An instance's BUFFER option, past its offset and name: kept.  v7 says
 * where each CPU's data is here; v6 at @off, read when it is chosen.
 */
static int add_instance(struct lt_trace *t, struct lt_error *err,
			struct rd *o, uint64_t off, const char *name)
{
	struct trace_buffer *b = new_buffer(t, err);
	const char *clock;
	uint32_t page_size, cpus;

	if (!b)
		return -1;
	b->off = off;
	b->name = strdup(name);
	if (!b->name)
		return nomem(t, err, "buffers");
	if (t->info.version < 7)
		return 0;
	if (lt_trace_rd_str(t, err, o, "trace clock", &clock, NULL) ||
	    lt_trace_rd_u32(t, err, o, "buffer page size", &page_size) ||
	    lt_trace_rd_u32(t, err, o, "buffer CPU count", &cpus) ||
	    read_cpu_table(t, err, o, cpus, b))
		return -1;
	b->page_size = page_size;
	b->ready = true;
	return 0;
}

/* CPU table of a v7 BUFFER option: validate it and keep where it is. */
static int opt_buffer(struct lt_trace *t, struct lt_error *err,
		      struct rd *r, uint16_t id, uint32_t size,
		      struct v7_sections *sec)
{
	struct rd o = *r;
	const char *name, *clock;
	uint32_t page_size, cpus;
	uint64_t off;

	o.len = o.pos + size;
	o.what = id == OPT_BUFFER ? "BUFFER option" : "BUFFER_TEXT option";
	if (lt_trace_rd_u64(t, err, &o, "buffer offset", &off) ||
	    lt_trace_rd_str(t, err, &o, "instance name", &name, NULL))
		return -1;
	if (*name) {
		/* Another instance: kept, read if chosen */
		if (++t->info.nr_buffers > LT_MAX_BUFFERS)
			return lt_trace_rd_fail(t, err, LT_E_LIMIT, r,
						"more than %u instance buffers",
						LT_MAX_BUFFERS);
		/* latency (text) data: nothing to replay */
		if (id == OPT_BUFFER_TEXT)
			return 0;
		return add_instance(t, err, &o, off, name);
	}
	if (t->info.version < 7)
		return 0;
	if (id == OPT_BUFFER_TEXT)
		return lt_trace_rd_fail(t, err, LT_E_VERSION, r,
					"the top instance holds latency (text) data, not flyrecord data; not supported");
	if (sec->have_top)
		return lt_trace_rd_fail(t, err, LT_E_CORRUPT, r,
					"a second BUFFER option for the top instance");
	if (lt_trace_rd_str(t, err, &o, "trace clock", &clock, NULL) ||
	    lt_trace_rd_u32(t, err, &o, "buffer page size", &page_size) ||
	    lt_trace_rd_u32(t, err, &o, "buffer CPU count", &cpus))
		return -1;
	if (cpus > LT_MAX_CPUS) {
		o.pos -= 4;
		return lt_trace_rd_fail(t, err, LT_E_LIMIT, &o,
					"%u CPUs, more than the limit of %u",
					cpus, LT_MAX_CPUS);
	}
	if ((uint64_t)cpus * 20 > o.len - o.pos)
		return lt_trace_rd_fail(t, err, LT_E_CORRUPT, &o,
					"CPU table of %u CPUs does not fit in the option",
					cpus);
	sec->have_top = true;
	sec->top_off = off;
	sec->top_page_size = page_size;
	sec->top_cpus = cpus;
	sec->top_cpu_table = o.p + o.pos;
	sec->top_rd = o;
	if (*clock) {
		free(t->clock);
		t->clock = xstrndup(clock, 64);
	}
	return 0;
}

/*
 * One option.  @r is positioned at its data, which has @size bytes inside
 * the reader (checked by the caller).  v6 and v7 share ids.
 */
static int handle_option(struct lt_trace *t, struct lt_error *err,
			 struct rd *r, uint16_t id, uint32_t size,
			 struct v7_sections *sec, unsigned int *nr_cpustat)
{
	const unsigned char *data = r->p + r->pos;
	char *text;
	int ret = 0;

	switch (id) {
	case OPT_DATE:
	case OPT_OFFSET:
		/* libtracecmd adds these to every timestamp; so do we. */
		text = opt_text(data, size);
		if (!text)
			return nomem(t, err, "option");
		/* Wrapping, not overflowing: hostile values must not be UB. */
		if (id == OPT_DATE)
			t->ts_offset += (uint64_t)strtoll(text, NULL, 0) * 1000;
		else
			t->ts_offset += (uint64_t)strtoll(text, NULL, 0);
		free(text);
		break;
	case OPT_CPUSTAT:
		text = opt_text(data, size);
		if (!text)
			return nomem(t, err, "CPUSTAT option");
		ret = lt_trace_parse_cpustat(t, err, text, strlen(text), (*nr_cpustat)++);
		free(text);
		break;
	case OPT_BUFFER:
	case OPT_BUFFER_TEXT:
		ret = opt_buffer(t, err, r, id, size, sec);
		break;
	case OPT_TRACECLOCK:
		t->have_traceclock = true;
		if (size) {
			text = opt_text(data, size);
			if (!text)
				return nomem(t, err, "TRACECLOCK option");
			set_clock_from(t, text);
			free(text);
		}
		break;
	case OPT_UNAME:
		free(t->uname);
		t->uname = opt_text(data, size);
		if (!t->uname)
			return nomem(t, err, "UNAME option");
		break;
	case OPT_VERSION:
		free(t->version);
		t->version = opt_text(data, size);
		if (!t->version)
			return nomem(t, err, "VERSION option");
		break;
	case OPT_CPUCOUNT:
		/* The machine's CPU count; the data slots are what we read. */
		break;
	case OPT_LT_CGROUPS:
		free(t->cgroups);
		t->cgroups = opt_text(data, size);
		if (!t->cgroups)
			return nomem(t, err, "cgroups option");
		break;
	case OPT_TSC2NSEC:
		if (size < 16)
			return lt_trace_rd_fail(t, err, LT_E_CORRUPT, r,
						"TSC2NSEC option of %u bytes, needs 16",
						size);
		t->tsc_mult = get32(data, t->swap);
		t->tsc_shift = get32(data + 4, t->swap);
		/*
		 * The offset is kept but not added: trace-cmd record writes
		 * 0 and libtracecmd does not apply it either.
		 */
		t->tsc_offset = get64(data + 8, t->swap);
		if (t->tsc_shift > 63)
			return lt_trace_rd_fail(t, err, LT_E_CORRUPT, r,
						"TSC2NSEC shift %u", t->tsc_shift);
		break;
	case OPT_HEADER_INFO:
	case OPT_FTRACE_EVENTS:
	case OPT_EVENT_FORMATS:
	case OPT_KALLSYMS:
	case OPT_PRINTK:
	case OPT_CMDLINES:
		if (t->info.version < 7)
			break;
		if (size < 8)
			return lt_trace_rd_fail(t, err, LT_E_CORRUPT, r,
						"section option %u of %u bytes, needs 8",
						id, size);
		sec->off[id] = get64(data, t->swap);
		break;
	default:
		/* STRINGS, HOOK, TRACEID, GUEST, PROCMAPS...: not needed. */
		break;
	}
	return ret;
}

/* v6: options after "options  \0", ended by id 0 without a size. */
static int read_options_v6(struct lt_trace *t, struct lt_error *err,
			   struct rd *r, struct v7_sections *sec)
{
	unsigned int nr_cpustat = 0;
	uint16_t id;
	uint32_t size;

	for (;;) {
		if (lt_trace_rd_u16(t, err, r, "option id", &id))
			return -1;
		if (id == OPT_DONE)
			return 0;
		if (lt_trace_rd_u32(t, err, r, "option size", &size))
			return -1;
		if (size > r->len - r->pos) {
			r->pos -= 6;
			lt_trace_rd_need(t, err, r, (uint64_t)size + 6, "option");
			return -1;
		}
		if (handle_option(t, err, r, id, size, sec, &nr_cpustat))
			return -1;
		r->pos += size;
	}
}

/* Open the section at @off, expecting @want; give a reader over its body. */
static int open_section(struct lt_trace *t, struct lt_error *err,
			uint64_t off, uint16_t want, const char *what,
			struct rd *body, unsigned char **buf)
{
	uint16_t flags;
	uint64_t size;
	struct rd r;

	*buf = NULL;
	if (lt_trace_section_header(t, err, off, want, what, &r, &flags, &size))
		return -1;
	return lt_trace_section_body(t, err, &r, off, size, flags & SEC_FL_COMPRESS,
				     what, body, buf);
}

/* The header of the section at @off is sane and its body in the file. */
static int check_section(struct lt_trace *t, struct lt_error *err,
			 uint64_t off, uint16_t want, const char *what)
{
	uint16_t flags;
	uint64_t size;
	struct rd r;

	if (lt_trace_section_header(t, err, off, want, what, &r, &flags, &size))
		return -1;
	if (size > r.len - r.pos) {
		r.pos -= 8;
		return lt_trace_rd_fail(t, err, LT_E_TRUNCATED, &r,
					"section size %llu runs past the end of the file (size 0x%llx)",
					(unsigned long long)size,
					(unsigned long long)t->size);
	}
	return 0;
}

void lt_trace_set_helper(struct lt_trace *t, bool allow)
{
	t->helper = allow;
}

/* v7: follow the chain of options sections, each visited once. */
static int read_options_v7(struct lt_trace *t, struct lt_error *err,
			   uint64_t first, struct v7_sections *sec)
{
	uint64_t visited[LT_MAX_OPTION_SECTIONS];
	unsigned int nr_visited = 0, nr_cpustat = 0, n, i;
	uint64_t off = first;
	unsigned char *buf;
	struct rd r;
	uint16_t id;
	uint32_t size;

	while (off) {
		for (i = 0; i < nr_visited; i++) {
			if (visited[i] == off)
				return lt_trace_fail(t, err, LT_E_CORRUPT,
						     "options sections form a loop at offset 0x%llx",
						     (unsigned long long)off);
		}
		if (nr_visited == LT_MAX_OPTION_SECTIONS)
			return lt_trace_fail(t, err, LT_E_LIMIT,
					     "more than %u options sections",
					     LT_MAX_OPTION_SECTIONS);
		visited[nr_visited++] = off;

		if (open_section(t, err, off, OPT_DONE, "options section",
				 &r, &buf))
			return -1;
		if (buf) {
			/* BUFFER options point into it: keep until open ends. */
			unsigned char **bufs;

			sec->kept += r.len;
			if (sec->kept > LT_MAX_OPTIONS_MEM) {
				lt_trace_section_buf_free(buf);
				return lt_trace_fail(t, err, LT_E_LIMIT,
						     "options section at offset 0x%llx: options take more than %u MB",
						     (unsigned long long)off,
						     LT_MAX_OPTIONS_MEM >> 20);
			}
			bufs = realloc(sec->bufs, (sec->nr_bufs + 1) * sizeof(*bufs));
			if (!bufs) {
				lt_trace_section_buf_free(buf);
				return nomem(t, err, "options section");
			}
			sec->bufs = bufs;
			sec->bufs[sec->nr_bufs++] = buf;
		}
		for (n = 0;; n++) {
			if (n == LT_MAX_OPTIONS)
				return lt_trace_rd_fail(t, err, LT_E_LIMIT, &r,
							"more than %u options",
							LT_MAX_OPTIONS);
			if (lt_trace_rd_u16(t, err, &r, "option id", &id) ||
			    lt_trace_rd_u32(t, err, &r, "option size", &size))
				return -1;
			if (size > r.len - r.pos) {
				r.pos -= 6;
				return lt_trace_rd_fail(t, err, LT_E_CORRUPT, &r,
							"option %u of %u bytes runs past the end of the section",
							id, size);
			}
			if (id == OPT_DONE) {
				if (size < 8)
					return lt_trace_rd_fail(t, err, LT_E_CORRUPT, &r,
								"DONE option of %u bytes, needs 8",
								size);
				off = get64(r.p + r.pos, t->swap);
				break;
			}
			if (handle_option(t, err, &r, id, size, sec,
					  &nr_cpustat))
				return -1;
			r.pos += size;
		}
	}
	return 0;
}

/* ---- CPU data -------------------------------------------------------- */

static int cmp_stream(const void *a, const void *b)
{
	const struct cpu_stream *x = a, *y = b;

	return (x->cpu > y->cpu) - (x->cpu < y->cpu);
}

static int alloc_streams(struct lt_trace *t, struct lt_error *err,
			 unsigned int n)
{
	t->streams = calloc(n ? n : 1, sizeof(*t->streams));
	t->heap = calloc(n ? n : 1, sizeof(*t->heap));
	if (!t->streams || !t->heap)
		return nomem(t, err, "CPU streams");
	return 0;
}

static int add_stream(struct lt_trace *t, struct lt_error *err,
		      const struct rd *r, int cpu, uint64_t off, uint64_t size)
{
	struct cpu_stream *cs = &t->streams[t->nr_streams];

	/*
	 * Data past the end of the file is reported when that CPU is read,
	 * so a file cut short still gives what it holds (--partial).
	 */
	if (size > UINT64_MAX - off)
		return lt_trace_rd_fail(t, err, LT_E_CORRUPT, r,
					"CPU %d data size 0x%llx overflows",
					cpu, (unsigned long long)size);
	lt_trace_stream_init(t, cs, cpu, off, size);
	t->nr_streams++;
	t->data_total += size;
	return 0;
}

static int read_flyrecord_v6(struct lt_trace *t, struct lt_error *err,
			     struct rd *r, uint32_t cpus)
{
	uint64_t off, size;
	const char *text;
	size_t len;
	uint32_t i;
	char *clock;

	if (alloc_streams(t, err, cpus))
		return -1;
	for (i = 0; i < cpus; i++) {
		if (lt_trace_rd_u64(t, err, r, "CPU data offset", &off) ||
		    lt_trace_rd_u64(t, err, r, "CPU data size", &size))
			return -1;
		if (add_stream(t, err, r, i, off, size))
			return -1;
	}
	t->info.cpus = cpus;

	/*
	 * With TRACECLOCK, v6 stores "[clock] others" after the table.  Old
	 * writers had bugs there, so a bad one is ignored, as libtracecmd does.
	 */
	if (t->have_traceclock && !t->clock &&
	    lt_trace_rd_sized_text(t, NULL, r, 8, 4096, "trace clock", &text, &len) == 0) {
		clock = xstrndup(text, len);
		if (clock) {
			set_clock_from(t, clock);
			free(clock);
		}
	}
	return 0;
}

static int read_flyrecord_v7(struct lt_trace *t, struct lt_error *err,
			     struct v7_sections *sec)
{
	const unsigned char *p = sec->top_cpu_table;
	uint16_t id, flags;
	uint64_t size, off;
	unsigned int i;
	int max_cpu = -1;
	struct rd r;
	uint32_t cpu;

	if (!sec->have_top) {
		/* Only other instances were recorded: nothing to read here. */
		t->info.cpus = 0;
		return alloc_streams(t, err, 0);
	}
	if (sec->top_off >= t->size)
		return lt_trace_fail(t, err, LT_E_TRUNCATED,
				     "flyrecord section at offset 0x%llx is past the end of the file (size 0x%llx)",
				     (unsigned long long)sec->top_off,
				     (unsigned long long)t->size);
	lt_trace_rd_file(t, &r, sec->top_off, t->size - sec->top_off,
			 "flyrecord section");
	if (lt_trace_read_section_header(t, err, &r, &id, &flags, &size))
		return -1;
	if (id != OPT_BUFFER) {
		r.pos = 0;
		return lt_trace_rd_fail(t, err, LT_E_CORRUPT, &r,
					"section id is %u, expected %u (BUFFER)",
					id, OPT_BUFFER);
	}
	if (flags & SEC_FL_COMPRESS) {
		if (t->comp == LT_COMP_NONE) {
			r.pos = 0;
			return lt_trace_rd_fail(t, err, LT_E_CORRUPT, &r,
						"compressed CPU data in a file without compression");
		}
	} else {
		/* CPU data is stored plain even in a compressing file. */
		t->comp = LT_COMP_NONE;
	}

	/* A different sub-buffer size is only said here. */
	if (sec->top_page_size != t->page_size) {
		uint32_t ps = sec->top_page_size;

		if (ps < LT_MIN_PAGE_SIZE || ps > LT_MAX_PAGE_SIZE ||
		    (ps & (ps - 1)))
			return lt_trace_rd_fail(t, err, LT_E_CORRUPT, &sec->top_rd,
						"buffer page size %u is not a power of two in 4 KiB..1 MiB",
						ps);
		t->page_size = ps;
		t->info.page_size = ps;
	}

	if (alloc_streams(t, err, sec->top_cpus))
		return -1;
	for (i = 0; i < sec->top_cpus; i++, p += 20) {
		cpu = get32(p, t->swap);
		off = get64(p + 4, t->swap);
		size = get64(p + 12, t->swap);
		if (cpu >= LT_MAX_CPUS)
			return lt_trace_rd_fail(t, err, LT_E_LIMIT, &sec->top_rd,
						"CPU id %u is over the limit of %u",
						cpu, LT_MAX_CPUS);
		if (add_stream(t, err, &sec->top_rd, cpu, off, size))
			return -1;
		if ((int)cpu > max_cpu)
			max_cpu = cpu;
	}
	qsort(t->streams, t->nr_streams, sizeof(*t->streams), cmp_stream);
	for (i = 1; i < t->nr_streams; i++) {
		if (t->streams[i].cpu == t->streams[i - 1].cpu)
			return lt_trace_rd_fail(t, err, LT_E_CORRUPT, &sec->top_rd,
						"CPU %d is listed twice",
						t->streams[i].cpu);
	}
	t->info.cpus = max_cpu + 1;
	return 0;
}

/* ---- instance buffers ------------------------------------------------ */

unsigned int lt_trace_nr_buffers(const struct lt_trace *t)
{
	return t->nr_buffers ? t->nr_buffers : 1;
}

const char *lt_trace_buffer_name(const struct lt_trace *t, unsigned int i)
{
	return i < t->nr_buffers && t->buffers[i].name ? t->buffers[i].name : "";
}

/*
 * A v6 instance's CPU table, at its offset: a tag ("options  ", its
 * options, then "flyrecord") and the file's CPU count of (offset, size).
 * Its options (its own ring-buffer stats) are not used.
 */
static int prepare_v6(struct lt_trace *t, struct lt_error *err,
		      struct trace_buffer *b)
{
	uint32_t cpus = t->buffers[0].nr_cpus, i, size;
	const unsigned char *tag;
	uint16_t id;
	struct rd r;

	if (b->off >= t->size)
		return lt_trace_fail(t, err, LT_E_TRUNCATED,
				     "buffer %s at offset 0x%llx is past the end of the file (size 0x%llx)",
				     b->name, (unsigned long long)b->off,
				     (unsigned long long)t->size);
	lt_trace_rd_file(t, &r, b->off, t->size - b->off, "instance buffer");
	if (lt_trace_rd_bytes(t, err, &r, "data type tag", 10, &tag))
		return -1;
	if (!memcmp(tag, "options  ", 10)) {
		for (;;) {
			if (lt_trace_rd_u16(t, err, &r, "option id", &id))
				return -1;
			if (id == OPT_DONE)
				break;
			if (lt_trace_rd_u32(t, err, &r, "option size", &size))
				return -1;
			if (size > r.len - r.pos)
				return lt_trace_rd_need(t, err, &r, size, "option");
			r.pos += size;
		}
		if (lt_trace_rd_bytes(t, err, &r, "data type tag", 10, &tag))
			return -1;
	}
	if (memcmp(tag, "flyrecord", 10)) {
		r.pos -= 10;
		return lt_trace_rd_fail(t, err, LT_E_CORRUPT, &r,
					"expected \"flyrecord\" (buffer %s)", b->name);
	}
	if ((uint64_t)cpus * 16 > r.len - r.pos)
		return lt_trace_rd_need(t, err, &r, (uint64_t)cpus * 16, "CPU table");
	b->cpus = calloc(cpus ? cpus : 1, sizeof(*b->cpus));
	if (!b->cpus)
		return nomem(t, err, "CPU table");
	for (i = 0; i < cpus; i++) {
		b->cpus[i].cpu = (int)i;
		b->cpus[i].off = get64(r.p + r.pos, t->swap);
		b->cpus[i].size = get64(r.p + r.pos + 8, t->swap);
		r.pos += 16;
	}
	b->nr_cpus = cpus;
	b->plain = true;
	b->ready = true;
	return 0;
}

/* A v7 instance's section: a BUFFER one, compressed or not. */
static int check_v7(struct lt_trace *t, struct lt_error *err,
		    struct trace_buffer *b)
{
	uint16_t id, flags;
	uint64_t size;
	uint32_t ps = b->page_size;
	struct rd r;

	if (b->off >= t->size)
		return lt_trace_fail(t, err, LT_E_TRUNCATED,
				     "buffer %s at offset 0x%llx is past the end of the file (size 0x%llx)",
				     b->name, (unsigned long long)b->off,
				     (unsigned long long)t->size);
	lt_trace_rd_file(t, &r, b->off, t->size - b->off, "instance buffer");
	if (lt_trace_read_section_header(t, err, &r, &id, &flags, &size))
		return -1;
	if (id != OPT_BUFFER) {
		r.pos = 0;
		return lt_trace_rd_fail(t, err, LT_E_CORRUPT, &r,
					"section id is %u, expected %u (BUFFER)",
					id, OPT_BUFFER);
	}
	if ((flags & SEC_FL_COMPRESS) && t->file_comp == LT_COMP_NONE) {
		r.pos = 0;
		return lt_trace_rd_fail(t, err, LT_E_CORRUPT, &r,
					"compressed CPU data in a file without compression");
	}
	b->plain = !(flags & SEC_FL_COMPRESS);
	if (ps < LT_MIN_PAGE_SIZE || ps > LT_MAX_PAGE_SIZE || (ps & (ps - 1)))
		return lt_trace_fail(t, err, LT_E_CORRUPT,
				     "buffer %s: page size %u is not a power of two in 4 KiB..1 MiB",
				     b->name, ps);
	return 0;
}

int lt_trace_use_buffer(struct lt_trace *t, unsigned int i,
			struct lt_error *err)
{
	struct trace_buffer *b;
	unsigned int k;
	int max_cpu = -1;
	struct rd r;

	if (i >= t->nr_buffers)
		return i ? lt_trace_fail(t, err, LT_E_USAGE, "no buffer %u", i) : 0;
	b = &t->buffers[i];
	if (!b->ready && prepare_v6(t, err, b) < 0)
		return -1;
	if (i && t->info.version >= 7 && check_v7(t, err, b) < 0)
		return -1;
	for (k = 0; k < t->nr_streams; k++)
		lt_trace_stream_free(t, &t->streams[k]);
	free(t->streams);
	free(t->heap);
	t->streams = NULL;
	t->heap = NULL;
	t->nr_streams = 0;
	t->data_total = 0;
	t->heap_len = 0;
	t->nr_primed = 0;
	t->last = -1;
	t->cur_buffer = 0;
	t->comp = b->plain ? LT_COMP_NONE : t->file_comp;
	t->page_size = b->page_size ? b->page_size : t->buffers[0].page_size;
	t->info.page_size = t->page_size;
	if (alloc_streams(t, err, b->nr_cpus))
		return -1;
	lt_trace_rd_file(t, &r, b->off, 0, "instance buffer");
	for (k = 0; k < b->nr_cpus; k++) {
		if (add_stream(t, err, &r, b->cpus[k].cpu, b->cpus[k].off,
			       b->cpus[k].size))
			return -1;
		if (b->cpus[k].cpu > max_cpu)
			max_cpu = b->cpus[k].cpu;
	}
	qsort(t->streams, t->nr_streams, sizeof(*t->streams), cmp_stream);
	for (k = 1; k < t->nr_streams; k++)
		if (t->streams[k].cpu == t->streams[k - 1].cpu)
			return lt_trace_fail(t, err, LT_E_CORRUPT,
					     "buffer %s: CPU %d is listed twice",
					     b->name, t->streams[k].cpu);
	/* v6 keeps a slot per CPU, with or without data */
	t->info.cpus = t->info.version < 7 ? (int)b->nr_cpus : max_cpu + 1;
	t->cur_buffer = i;
	return 0;
}

int lt_trace_buffer_has(struct lt_trace *t, unsigned int i, const bool *ids,
			unsigned int nr, struct lt_error *err)
{
	struct lt_record rec;
	struct lt_error skip;
	int ret, found = 0;

	if (lt_trace_use_buffer(t, i, err) < 0)
		return -1;
	/* damage stops a CPU only: the others may still have them */
	while ((ret = lt_trace_next(t, &rec, &skip)) != 0) {
		if (ret > 0 && rec.kind == LT_REC_EVENT && rec.id < nr &&
		    ids[rec.id]) {
			found = 1;
			break;
		}
	}
	return lt_trace_use_buffer(t, i, err) < 0 ? -1 : found;
}

/* ---- v7 metadata sections -------------------------------------------- */

static int read_v7_sections(struct lt_trace *t, struct lt_error *err,
			    struct v7_sections *sec)
{
	static const struct {
		uint16_t id;
		const char *name;
	} order[] = {
		{ OPT_HEADER_INFO,	"HEADER_INFO section" },
		{ OPT_FTRACE_EVENTS,	"FTRACE_EVENTS section" },
		{ OPT_EVENT_FORMATS,	"EVENT_FORMATS section" },
		{ OPT_KALLSYMS,		"KALLSYMS section" },
		{ OPT_CMDLINES,		"CMDLINES section" },
	};
	unsigned char *buf;
	const char *text;
	unsigned int i;
	size_t len;
	struct rd r;
	int ret;

	if (!sec->off[OPT_HEADER_INFO])
		return lt_trace_fail(t, err, LT_E_CORRUPT,
				     "no HEADER_INFO option: the ring-buffer layout is unknown");

	for (i = 0; i < sizeof(order) / sizeof(order[0]); i++) {
		uint16_t id = order[i].id;

		if (!sec->off[id])
			continue;
		buf = NULL;
		if (id == OPT_KALLSYMS) {
			if (check_section(t, err, sec->off[id], id,
					  order[i].name))
				return -1;
		} else if (open_section(t, err, sec->off[id], id,
					order[i].name, &r, &buf)) {
			return -1;
		}
		switch (id) {
		case OPT_HEADER_INFO:
			ret = read_header_info(t, err, &r);
			break;
		case OPT_FTRACE_EVENTS:
			/* the formats keep their text where it is */
			t->format_bufs[0] = buf;
			buf = NULL;
			ret = read_windowed(read_ftrace_formats, t, err, &r);
			break;
		case OPT_EVENT_FORMATS:
			t->format_bufs[1] = buf;
			buf = NULL;
			ret = read_windowed(read_event_formats, t, err, &r);
			break;
		case OPT_KALLSYMS:
			/* Seen to be there; parsed when first needed. */
			t->ksym_sec = sec->off[id];
			ret = 0;
			break;
		default:
			ret = lt_trace_rd_sized_text(t, err, &r, 8, LT_MAX_META_SIZE,
						     "saved cmdlines", &text, &len);
			if (!ret)
				ret = lt_trace_parse_cmdlines(t, err, text, len);
			break;
		}
		lt_trace_section_buf_free(buf);
		if (ret)
			return -1;
	}
	return 0;
}

/* ---- the file -------------------------------------------------------- */

static int read_v6(struct lt_trace *t, struct lt_error *err, struct rd *r,
		   struct v7_sections *sec)
{
	const unsigned char *tag;
	const char *text;
	uint32_t cpus;
	size_t len;

	if (read_header_info(t, err, r) ||
	    read_windowed(read_ftrace_formats, t, err, r) ||
	    read_windowed(read_event_formats, t, err, r))
		return -1;
	r->what = "kallsyms";
	if (lt_trace_rd_sized_text(t, err, r, 4, LT_MAX_META_SIZE, "kallsyms",
				   &text, &len))
		return -1;
	/* Parsed when first needed: many analyses never need symbols. */
	t->ksym_text = text;
	t->ksym_len = len;
	r->what = "printk formats";
	if (lt_trace_rd_sized_text(t, err, r, 4, LT_MAX_META_SIZE, "printk formats",
				   &text, &len))
		return -1;
	r->what = "saved cmdlines";
	if (lt_trace_rd_sized_text(t, err, r, 8, LT_MAX_META_SIZE, "saved cmdlines",
				   &text, &len) ||
	    lt_trace_parse_cmdlines(t, err, text, len))
		return -1;
	r->what = "header";
	if (lt_trace_rd_u32(t, err, r, "CPU count", &cpus))
		return -1;
	if (cpus > LT_MAX_CPUS) {
		r->pos -= 4;
		return lt_trace_rd_fail(t, err, LT_E_LIMIT, r,
					"%u CPUs, more than the limit of %u",
					cpus, LT_MAX_CPUS);
	}

	if (lt_trace_rd_bytes(t, err, r, "data type tag", 10, &tag))
		return -1;
	if (!memcmp(tag, "options  ", 10)) {
		r->what = "options";
		if (read_options_v6(t, err, r, sec))
			return -1;
		r->what = "header";
		if (lt_trace_rd_bytes(t, err, r, "data type tag", 10, &tag))
			return -1;
	}
	if (!memcmp(tag, "latency  ", 10)) {
		r->pos -= 10;
		return lt_trace_rd_fail(t, err, LT_E_VERSION, r,
					"latency (text) trace, not flyrecord data; not supported");
	}
	if (memcmp(tag, "flyrecord", 10)) {
		r->pos -= 10;
		return lt_trace_rd_fail(t, err, LT_E_CORRUPT, r,
					"expected \"flyrecord\" or \"options\"");
	}
	r->what = "flyrecord CPU table";
	if ((uint64_t)cpus * 16 > r->len - r->pos) {
		lt_trace_rd_need(t, err, r, (uint64_t)cpus * 16, "CPU table");
		return -1;
	}
	return read_flyrecord_v6(t, err, r, cpus);
}

/* The top level's CPU data as buffer [0], to come back to. */
static int keep_top_buffer(struct lt_trace *t, struct lt_error *err)
{
	struct trace_buffer *b;
	unsigned int i;

	if (!t->nr_buffers) {
		t->buffers = calloc(1, sizeof(*t->buffers));
		if (!t->buffers)
			return nomem(t, err, "buffers");
		t->nr_buffers = 1;
	}
	b = &t->buffers[0];
	b->name = strdup("");
	b->cpus = calloc(t->nr_streams ? t->nr_streams : 1, sizeof(*b->cpus));
	if (!b->name || !b->cpus)
		return nomem(t, err, "buffers");
	for (i = 0; i < t->nr_streams; i++) {
		b->cpus[i].cpu = t->streams[i].cpu;
		b->cpus[i].off = t->streams[i].data_off;
		b->cpus[i].size = t->streams[i].data_size;
	}
	b->nr_cpus = t->nr_streams;
	b->page_size = t->page_size;
	b->plain = t->comp == LT_COMP_NONE;
	b->ready = true;
	return 0;
}

static int read_file(struct lt_trace *t, struct lt_error *err)
{
	struct v7_sections sec;
	const unsigned char *p;
	const char *s, *zver;
	uint64_t opt_off;
	uint32_t page_size;
	unsigned int i;
	struct rd r;
	size_t len;
	int ret;

	memset(&sec, 0, sizeof(sec));
	lt_trace_rd_file(t, &r, 0, t->size, "header");
	if (t->size < sizeof(trace_magic) ||
	    memcmp(t->map, trace_magic, sizeof(trace_magic)))
		return lt_trace_fail(t, err, LT_E_NOT_TRACE,
				     "no trace-cmd magic at offset 0 (not a trace.dat file)");
	r.pos = sizeof(trace_magic);
	if (lt_trace_rd_str(t, err, &r, "version string", &s, &len))
		return -1;
	if (len == 0 || len > 8 || strspn(s, "0123456789") != len) {
		r.pos -= len + 1;
		return lt_trace_rd_fail(t, err, LT_E_NOT_TRACE, &r,
					"bad version string");
	}
	t->info.version = atoi(s);
	if (t->info.version != 6 && t->info.version != 7) {
		r.pos -= len + 1;
		return lt_trace_rd_fail(t, err, LT_E_VERSION, &r,
					"file format version %d; only 6 and 7 are supported",
					t->info.version);
	}
	if (lt_trace_rd_bytes(t, err, &r, "endianness and long size", 2, &p))
		return -1;
	if (p[0] > 1 || (p[1] != 4 && p[1] != 8)) {
		r.pos -= 2;
		return lt_trace_rd_fail(t, err, LT_E_CORRUPT, &r,
					"endianness %u / long size %u (expected 0|1 and 4|8)",
					p[0], p[1]);
	}
	t->info.big_endian = p[0];
	t->info.long_size = p[1];
	t->swap = (p[0] != 0) != (__BYTE_ORDER__ == __ORDER_BIG_ENDIAN__);
	if (lt_trace_rd_u32(t, err, &r, "page size", &page_size))
		return -1;
	if (page_size < LT_MIN_PAGE_SIZE || page_size > LT_MAX_PAGE_SIZE ||
	    (page_size & (page_size - 1))) {
		r.pos -= 4;
		return lt_trace_rd_fail(t, err, LT_E_CORRUPT, &r,
					"page size %u is not a power of two in 4 KiB..1 MiB",
					page_size);
	}
	t->page_size = page_size;
	t->info.page_size = page_size;

	if (t->info.version == 6) {
		t->compression = strdup("none");
		if (!t->compression)
			return nomem(t, err, "header");
		ret = read_v6(t, err, &r, &sec);
		goto out;
	}

	if (lt_trace_rd_str(t, err, &r, "compression name", &s, &len) ||
	    lt_trace_rd_str(t, err, &r, "compression version", &zver, NULL))
		return -1;
	if (!strcmp(s, "none")) {
		t->comp = LT_COMP_NONE;
	} else if (!strcmp(s, "zstd")) {
		t->comp = LT_COMP_ZSTD;
	} else if (!strcmp(s, "zlib")) {
		t->comp = LT_COMP_ZLIB;
	} else {
		r.pos -= len + 1;
		return lt_trace_rd_fail(t, err, LT_E_COMPRESSION, &r,
					"compression \"%.32s\" is not supported (only zstd and zlib)",
					s);
	}
	t->file_comp = t->comp;
	t->compression = strdup(s);
	if (!t->compression)
		return nomem(t, err, "header");
	if (lt_trace_rd_u64(t, err, &r, "options offset", &opt_off))
		return -1;
	if (!opt_off) {
		r.pos -= 8;
		return lt_trace_rd_fail(t, err, LT_E_CORRUPT, &r,
					"no options section");
	}
	ret = read_options_v7(t, err, opt_off, &sec);
	if (!ret)
		ret = read_v7_sections(t, err, &sec);
	if (!ret)
		ret = read_flyrecord_v7(t, err, &sec);
out:
	for (i = 0; i < sec.nr_bufs; i++)
		lt_trace_section_buf_free(sec.bufs[i]);
	free(sec.bufs);
	if (ret)
		return -1;
	if (!t->commit_size)
		return lt_trace_fail(t, err, LT_E_CORRUPT, "no header_page");
	if (keep_top_buffer(t, err) < 0)
		return -1;
	return lt_trace_finish_event_formats(t, err);
}

int lt_trace_open(struct lt_trace **out, const char *path,
		  struct lt_error *err)
{
	struct lt_trace *t;
	struct stat st;
	void *map;

	*out = NULL;
	t = calloc(1, sizeof(*t));
	if (!t) {
		lt_error_set(err, LT_E_NOMEM, "%s: out of memory", path);
		return -1;
	}
	t->fd = -1;
	t->last = -1;
	pthread_mutex_init(&t->zctx_lock, NULL);
	t->path = strdup(path);
	if (!t->path) {
		lt_error_set(err, LT_E_NOMEM, "%s: out of memory", path);
		pthread_mutex_destroy(&t->zctx_lock);
		free(t);
		return -1;
	}
	t->info.path = t->path;

	t->fd = open(path, O_RDONLY | O_CLOEXEC);
	if (t->fd < 0) {
		/* "-" is a file name here, but the user likely meant stdin */
		lt_trace_fail(t, err, LT_E_IO, "cannot open: %s%s", strerror(errno),
			      errno == ENOENT && !strcmp(path, "-") ?
			      " (standard input is not read: a trace is mapped, not streamed: save it first)" : "");
		goto fail;
	}
	if (fstat(t->fd, &st) < 0) {
		lt_trace_fail(t, err, LT_E_IO, "cannot stat: %s", strerror(errno));
		goto fail;
	}
	if (!S_ISREG(st.st_mode)) {
		lt_trace_fail(t, err, LT_E_IO, S_ISDIR(st.st_mode) ?
			      "not a regular file" :
			      "not a regular file (a trace is mapped, not streamed: save it first)");
		goto fail;
	}
	if (st.st_size == 0) {
		lt_trace_fail(t, err, LT_E_NOT_TRACE, "empty file");
		goto fail;
	}
	if ((uint64_t)st.st_size > SIZE_MAX) {
		lt_trace_fail(t, err, LT_E_LIMIT, "file too large to map");
		goto fail;
	}
	t->size = st.st_size;
	map = mmap(NULL, t->size, PROT_READ, MAP_PRIVATE, t->fd, 0);
	if (map == MAP_FAILED) {
		/* no room in the address space is a limit, not a bad file */
		if (errno == ENOMEM)
			lt_trace_fail(t, err, LT_E_NOMEM,
				      "out of memory to map its %llu bytes",
				      (unsigned long long)t->size);
		else
			lt_trace_fail(t, err, LT_E_IO, "cannot map: %s",
				      strerror(errno));
		goto fail;
	}
	t->map = map;
	t->info.file_size = t->size;
	t->sys_page = sysconf(_SC_PAGESIZE) > 0 ? sysconf(_SC_PAGESIZE) : 4096;

	if (read_file(t, err))
		goto fail;

	t->info.kernel_long_size = t->commit_size;
	t->info.compression = t->compression;
	t->info.uname = t->uname ? t->uname : "";
	t->info.clock = t->clock ? t->clock : "";
	t->info.tracecmd_version = t->version ? t->version : "";
	t->info.nr_event_types = t->nr_types;
	*out = t;
	return 0;
fail:
	lt_trace_close(t);
	return -1;
}

void lt_trace_close(struct lt_trace *t)
{
	unsigned int i;

	if (!t)
		return;
	for (i = 0; i < t->nr_streams; i++)
		lt_trace_stream_free(t, &t->streams[i]);
	free(t->streams);
	for (i = 0; i < t->nr_buffers; i++) {
		free(t->buffers[i].name);
		free(t->buffers[i].cpus);
	}
	free(t->buffers);
	lt_trace_stream_free_kept(t);
	free(t->heap);
	lt_trace_decomp_free_ctxs(t);
	pthread_mutex_destroy(&t->zctx_lock);
	lt_trace_free_event_formats(t);
	lt_trace_ksym_free(t);
	free(t->cmdlines);
	free(t->cmdline_names);
	free(t->cmdline_by_pid);
	free(t->stats);
	free(t->uname);
	free(t->clock);
	free(t->version);
	free(t->cgroups);
	free(t->compression);
	if (t->blob)
		free((void *)t->map);
	else if (t->map)
		munmap((void *)t->map, t->size);
	if (t->fd >= 0)
		close(t->fd);
	free(t->path);
	free(t);
}

const struct lt_trace_info *lt_trace_info(const struct lt_trace *t)
{
	return &t->info;
}

void lt_trace_progress(const struct lt_trace *t, uint64_t *done,
		       uint64_t *total)
{
	uint64_t sum = 0;
	unsigned int i;

	for (i = 0; i < t->nr_streams; i++)
		sum += t->streams[i].done;
	/* trace-cmd 3.1 writes compressed sizes 4 bytes short */
	*done = sum < t->data_total ? sum : t->data_total;
	*total = t->data_total;
}

/* ---- perf's tracing data ------------------------------------------- */

/*
 * perf.data keeps the event formats as "tracing data" (its
 * HEADER_TRACING_DATA feature, or a record of that name in pipe mode),
 * written by perf's trace-event-info.c: a v6 trace.dat's metadata from
 * the magic to the saved cmdlines, with a version of its own ("0.5",
 * "0.6": cmdlines from 0.6 on), and no CPU data.  Bytes after the
 * cmdlines (perf pads the record to 8) are not looked at.
 */
static int read_tracing_data(struct lt_trace *t, struct lt_error *err,
			     struct rd *r)
{
	unsigned int major = 0, minor = 0;
	const unsigned char *p;
	const char *s, *text;
	uint32_t page_size;
	size_t len;

	if (r->len < sizeof(trace_magic) ||
	    memcmp(r->p, trace_magic, sizeof(trace_magic)))
		return lt_trace_rd_fail(t, err, LT_E_CORRUPT, r,
					"no tracing data magic");
	r->pos = sizeof(trace_magic);
	if (lt_trace_rd_str(t, err, r, "version string", &s, &len))
		return -1;
	if (len == 0 || len > 8 || strspn(s, "0123456789.") != len ||
	    sscanf(s, "%u.%u", &major, &minor) < 1) {
		r->pos -= len + 1;
		return lt_trace_rd_fail(t, err, LT_E_CORRUPT, r, "bad version string");
	}
	if (lt_trace_rd_bytes(t, err, r, "endianness and long size", 2, &p))
		return -1;
	if (p[0] > 1 || (p[1] != 4 && p[1] != 8)) {
		r->pos -= 2;
		return lt_trace_rd_fail(t, err, LT_E_CORRUPT, r,
					"endianness %u / long size %u (expected 0|1 and 4|8)",
					p[0], p[1]);
	}
	t->info.big_endian = p[0];
	t->info.long_size = p[1];
	t->swap = (p[0] != 0) != (__BYTE_ORDER__ == __ORDER_BIG_ENDIAN__);
	if (lt_trace_rd_u32(t, err, r, "page size", &page_size))
		return -1;
	/* perf writes the machine's page size: 4 KiB to 64 KiB */
	if (page_size < LT_MIN_PAGE_SIZE || page_size > LT_MAX_PAGE_SIZE ||
	    (page_size & (page_size - 1))) {
		r->pos -= 4;
		return lt_trace_rd_fail(t, err, LT_E_CORRUPT, r,
					"page size %u is not a power of two in 4 KiB..1 MiB",
					page_size);
	}
	t->page_size = page_size;
	t->info.page_size = page_size;
	t->info.version = 6;
	t->compression = strdup("none");
	if (!t->compression)
		return nomem(t, err, "tracing data");

	if (read_header_info(t, err, r) ||
	    read_windowed(read_ftrace_formats, t, err, r) ||
	    read_windowed(read_event_formats, t, err, r))
		return -1;
	/* recent perf writes an empty one: it resolves symbols itself */
	r->what = "tracing data kallsyms";
	if (lt_trace_rd_sized_text(t, err, r, 4, LT_MAX_META_SIZE, "kallsyms",
				   &text, &len))
		return -1;
	t->ksym_text = text;
	t->ksym_len = len;
	r->what = "tracing data printk formats";
	if (lt_trace_rd_sized_text(t, err, r, 4, LT_MAX_META_SIZE, "printk formats",
				   &text, &len))
		return -1;
	if (major > 0 || minor >= 6) {
		r->what = "tracing data saved cmdlines";
		if (lt_trace_rd_sized_text(t, err, r, 8, LT_MAX_META_SIZE,
					   "saved cmdlines", &text, &len) ||
		    lt_trace_parse_cmdlines(t, err, text, len))
			return -1;
	}
	if (!t->commit_size)
		return lt_trace_fail(t, err, LT_E_CORRUPT, "no header_page");
	return lt_trace_finish_event_formats(t, err);
}

/*
 * A trace of formats only over @buf (malloc()ed, @len bytes, taken over
 * whatever happens), which sat at @file_off of @path.
 */
static int open_blob(struct lt_trace **out, const char *path,
		     unsigned char *buf, size_t len, uint64_t file_off,
		     struct lt_error *err)
{
	struct lt_trace *t;
	struct rd r;

	*out = NULL;
	t = calloc(1, sizeof(*t));
	if (!t || !(t->path = strdup(path))) {
		free(t);
		free(buf);
		lt_error_set(err, LT_E_NOMEM, "%s: out of memory", path);
		return -1;
	}
	t->fd = -1;
	t->last = -1;
	pthread_mutex_init(&t->zctx_lock, NULL);
	t->info.path = t->path;
	t->blob = true;
	t->map = buf;
	t->size = len;
	t->info.file_size = len;
	t->sys_page = sysconf(_SC_PAGESIZE) > 0 ? sysconf(_SC_PAGESIZE) : 4096;
	memset(&r, 0, sizeof(r));
	r.p = buf;
	r.len = len;
	r.off = file_off;
	r.what = "tracing data";
	if (read_tracing_data(t, err, &r) || alloc_streams(t, err, 0)) {
		lt_trace_close(t);
		return -1;
	}
	t->info.kernel_long_size = t->commit_size;
	t->info.compression = t->compression;
	t->info.uname = "";
	t->info.clock = "";
	t->info.tracecmd_version = "";
	t->info.nr_event_types = t->nr_types;
	*out = t;
	return 0;
}

int lt_trace_from_tracing_data(struct lt_trace **out, const char *path,
			       const void *data, size_t len,
			       uint64_t file_off, struct lt_error *err)
{
	unsigned char *buf;

	*out = NULL;
	if (len > LT_MAX_META_SIZE) {
		lt_error_set(err, LT_E_LIMIT,
			     "%s: tracing data at offset 0x%llx: %zu bytes, over the limit of %u",
			     path, (unsigned long long)file_off, len,
			     LT_MAX_META_SIZE);
		return -1;
	}
	buf = malloc(len ? len : 1);
	if (!buf) {
		lt_error_set(err, LT_E_NOMEM, "%s: tracing data: out of memory",
			     path);
		return -1;
	}
	memcpy(buf, data, len);
	return open_blob(out, path, buf, len, file_off, err);
}

int lt_trace_open_tracing_data(struct lt_trace **out, const char *path,
			       uint64_t off, uint64_t size,
			       struct lt_error *err)
{
	unsigned char *buf;
	struct stat st;
	size_t got = 0;
	ssize_t n;
	int fd;

	*out = NULL;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &st) < 0) {
		lt_error_set(err, LT_E_IO, "%s: cannot open: %s", path,
			     strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	if (off > (uint64_t)st.st_size || size > (uint64_t)st.st_size - off) {
		lt_error_set(err, LT_E_TRUNCATED,
			     "%s: tracing data at offset 0x%llx of %llu bytes runs past the end of the file (size 0x%llx)",
			     path, (unsigned long long)off,
			     (unsigned long long)size,
			     (unsigned long long)st.st_size);
		close(fd);
		return -1;
	}
	if (size > LT_MAX_META_SIZE) {
		lt_error_set(err, LT_E_LIMIT,
			     "%s: tracing data at offset 0x%llx: %llu bytes, over the limit of %u",
			     path, (unsigned long long)off,
			     (unsigned long long)size, LT_MAX_META_SIZE);
		close(fd);
		return -1;
	}
	buf = malloc(size ? size : 1);
	if (!buf) {
		lt_error_set(err, LT_E_NOMEM, "%s: tracing data: out of memory",
			     path);
		close(fd);
		return -1;
	}
	while (got < size) {
		n = pread(fd, buf + got, size - got, off + got);
		if (n <= 0) {
			lt_error_set(err, LT_E_IO, "%s: cannot read: %s", path,
				     n < 0 ? strerror(errno) : "end of file");
			free(buf);
			close(fd);
			return -1;
		}
		got += n;
	}
	close(fd);
	return open_blob(out, path, buf, size, off, err);
}
