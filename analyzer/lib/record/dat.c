// SPDX-License-Identifier: LGPL-2.1
/*
 * dat.c - the trace.dat (version 6) writer (ltr-dat.h).
 *
 * Numbers are written in the host's byte order, which the file's
 * endianness byte declares.  Sizes are 8 bytes except where the format
 * says 4 (section counts, kallsyms, printk formats, option sizes).
 */
#define _GNU_SOURCE	/* copy_file_range */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ltr-dat.h"
#include "record-local.h"

/* trace-cmd's option ids (lib/trace-cmd/include/private/trace-cmd-private.h) */
enum {
	OPT_DONE = 0,
	OPT_CPUSTAT = 2,
	OPT_TRACECLOCK = 4,
	OPT_UNAME = 5,
	OPT_VERSION = 9,
	/*
	 * Not trace-cmd's: the tasks' cgroups, which no option of trace-cmd
	 * carries.  trace-cmd report warns "unknown option 19540" and reads
	 * on; latency-analyze tells the replay (tracedat-local.h).
	 */
	OPT_LT_CGROUPS = 0x4c54,
};

struct out {
	int fd;
	const char *name;
	uint64_t pos;
	size_t used;
	char buf[1 << 16];
	int error;
};

static int flush_out(struct out *o)
{
	if (o->error)
		return -1;
	if (o->used && ltr_write_all(o->fd, o->buf, o->used) < 0) {
		o->error = errno;
		return -1;
	}
	o->used = 0;
	return 0;
}

static void put(struct out *o, const void *data, size_t len)
{
	const char *p = data;

	while (len && !o->error) {
		size_t n = sizeof(o->buf) - o->used;

		if (n > len)
			n = len;
		memcpy(o->buf + o->used, p, n);
		o->used += n;
		o->pos += n;
		p += n;
		len -= n;
		if (o->used == sizeof(o->buf))
			flush_out(o);
	}
}

static void put4(struct out *o, uint32_t v)
{
	put(o, &v, 4);
}

static void put8(struct out *o, uint64_t v)
{
	put(o, &v, 8);
}

static void put2(struct out *o, uint16_t v)
{
	put(o, &v, 2);
}

static void put_str0(struct out *o, const char *s)
{
	put(o, s, strlen(s) + 1);
}

static void put_option(struct out *o, uint16_t id, const char *text)
{
	size_t len = text ? strlen(text) + 1 : 0;

	put2(o, id);
	put4(o, (uint32_t)len);
	if (len)
		put(o, text, len);
}

/* Zeros up to the next multiple of @align. */
static void pad_to(struct out *o, uint64_t align)
{
	static const char zeros[4096];
	uint64_t n = (align - o->pos % align) % align;

	while (n) {
		size_t k = n > sizeof(zeros) ? sizeof(zeros) : (size_t)n;

		put(o, zeros, k);
		n -= k;
	}
}

/* Formats of one system in file order, and how many. */
static uint32_t count_system(const struct ltr_dat_input *in, const char *sys)
{
	uint32_t n = 0;
	size_t i;

	for (i = 0; i < in->nr_formats; i++)
		if (!strcmp(in->formats[i].system, sys))
			n++;
	return n;
}

static bool seen_before(const struct ltr_dat_input *in, size_t i)
{
	size_t j;

	for (j = 0; j < i; j++)
		if (!strcmp(in->formats[j].system, in->formats[i].system))
			return true;
	return false;
}

static void put_formats(struct out *o, const struct ltr_dat_input *in)
{
	uint32_t systems = 0;
	size_t i, j;

	/* ftrace's own events first */
	put4(o, count_system(in, "ftrace"));
	for (i = 0; i < in->nr_formats; i++)
		if (!strcmp(in->formats[i].system, "ftrace")) {
			put8(o, in->formats[i].len);
			put(o, in->formats[i].text, in->formats[i].len);
		}
	for (i = 0; i < in->nr_formats; i++)
		if (strcmp(in->formats[i].system, "ftrace") && !seen_before(in, i))
			systems++;
	put4(o, systems);
	for (i = 0; i < in->nr_formats; i++) {
		const char *sys = in->formats[i].system;

		if (!strcmp(sys, "ftrace") || seen_before(in, i))
			continue;
		put_str0(o, sys);
		put4(o, count_system(in, sys));
		for (j = i; j < in->nr_formats; j++)
			if (!strcmp(in->formats[j].system, sys)) {
				put8(o, in->formats[j].len);
				put(o, in->formats[j].text, in->formats[j].len);
			}
	}
}

/* @len bytes of @src from 0 to the output, which is flushed and at o->pos. */
static int copy_data(struct out *o, int src, uint64_t len)
{
	loff_t in_off = 0;
	char *buf = NULL;
	ssize_t r;

	while (len) {
		r = copy_file_range(src, &in_off, o->fd, NULL,
				    len > (1u << 30) ? (1u << 30) : (size_t)len, 0);
		if (r > 0) {
			len -= (uint64_t)r;
			o->pos += (uint64_t)r;
			continue;
		}
		if (r == 0) {
			o->error = EIO;
			return -1;
		}
		if (errno == EINTR)
			continue;
		if (errno != EXDEV && errno != ENOSYS && errno != EINVAL &&
		    errno != EOPNOTSUPP && errno != EBADF) {
			o->error = errno;
			return -1;
		}
		break;
	}
	if (!len)
		return 0;
	/* a file system copy_file_range() does not serve: by hand */
	buf = malloc(1 << 20);
	if (!buf) {
		o->error = ENOMEM;
		return -1;
	}
	while (len) {
		r = pread(src, buf, len > (1 << 20) ? (1 << 20) : (size_t)len,
			  in_off);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0) {
			o->error = r < 0 ? errno : EIO;
			free(buf);
			return -1;
		}
		if (ltr_write_all(o->fd, buf, (size_t)r) < 0) {
			o->error = errno;
			free(buf);
			return -1;
		}
		in_off += r;
		o->pos += (uint64_t)r;
		len -= (uint64_t)r;
	}
	free(buf);
	return 0;
}

int ltr_dat_write(int fd, const char *name, const struct ltr_dat_input *in,
		  struct lt_error *err)
{
	static const char magic[] = { 0x17, 0x08, 0x44, 't', 'r', 'a', 'c',
				      'i', 'n', 'g' };
	uint64_t *sizes, *offs, pos;
	struct out *o;
	char clock[80];
	struct stat st;
	int cpu, ret = -1;

	if (in->cpus <= 0 || !in->page_size || (in->page_size & (in->page_size - 1)) ||
	    !in->header_page || !in->header_event || !in->cpu_fds ||
	    (in->long_size != 4 && in->long_size != 8)) {
		lt_error_set(err, LT_E_USAGE, "%s: nothing consistent to write", name);
		return -1;
	}
	o = malloc(sizeof(*o));
	sizes = calloc((size_t)in->cpus, sizeof(*sizes));
	offs = calloc((size_t)in->cpus, sizeof(*offs));
	if (!o || !sizes || !offs) {
		lt_error_set(err, LT_E_NOMEM, "out of memory");
		goto out;
	}
	o->fd = fd;
	o->name = name;
	o->pos = 0;
	o->used = 0;
	o->error = 0;
	for (cpu = 0; cpu < in->cpus; cpu++) {
		if (fstat(in->cpu_fds[cpu], &st) < 0) {
			lt_error_set(err, LT_E_OUTPUT,
				      "%s: cannot read CPU %d's data: %s", name,
				      cpu, strerror(errno));
			goto out;
		}
		sizes[cpu] = (uint64_t)st.st_size;
	}

	put(o, magic, sizeof(magic));
	put_str0(o, "6");
	put(o, &(char){ __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__ }, 1);
	put(o, &(char){ (char)in->long_size }, 1);
	put4(o, in->page_size);

	put_str0(o, "header_page");
	put8(o, in->header_page_len);
	put(o, in->header_page, in->header_page_len);
	put_str0(o, "header_event");
	put8(o, in->header_event_len);
	put(o, in->header_event, in->header_event_len);
	put_formats(o, in);

	put4(o, (uint32_t)in->kallsyms_len);
	put(o, in->kallsyms, in->kallsyms_len);
	put4(o, (uint32_t)in->printk_len);
	put(o, in->printk, in->printk_len);
	put8(o, in->cmdlines_len);
	put(o, in->cmdlines, in->cmdlines_len);

	put4(o, (uint32_t)in->cpus);
	put(o, "options  ", 10);
	if (in->uname)
		put_option(o, OPT_UNAME, in->uname);
	if (in->version)
		put_option(o, OPT_VERSION, in->version);
	/* v6: no data here; the clock follows the CPU table */
	if (in->clock)
		put_option(o, OPT_TRACECLOCK, NULL);
	for (cpu = 0; in->cpustats && cpu < in->cpus; cpu++)
		if (in->cpustats[cpu])
			put_option(o, OPT_CPUSTAT, in->cpustats[cpu]);
	if (in->cgroups)
		put_option(o, OPT_LT_CGROUPS, in->cgroups);
	put2(o, OPT_DONE);

	put(o, "flyrecord", 10);
	/* where each CPU's pages will be: after the table and the clock */
	snprintf(clock, sizeof(clock), "[%s]", in->clock ? in->clock : "");
	pos = o->pos + 16 * (uint64_t)in->cpus +
	      (in->clock ? 8 + strlen(clock) : 0);
	for (cpu = 0; cpu < in->cpus; cpu++) {
		pos = (pos + in->page_size - 1) & ~(uint64_t)(in->page_size - 1);
		offs[cpu] = pos;
		pos += sizes[cpu];
		put8(o, offs[cpu]);
		put8(o, sizes[cpu]);
	}
	if (in->clock) {
		put8(o, strlen(clock));
		put(o, clock, strlen(clock));
	}
	for (cpu = 0; cpu < in->cpus && !o->error; cpu++) {
		pad_to(o, in->page_size);
		if (flush_out(o) < 0)
			break;
		if (o->pos != offs[cpu]) {
			lt_error_set(err, LT_E_INTERNAL,
				      "%s: CPU %d's data at %llu, not %llu", name,
				      cpu, (unsigned long long)o->pos,
				      (unsigned long long)offs[cpu]);
			goto out;
		}
		if (copy_data(o, in->cpu_fds[cpu], sizes[cpu]) < 0)
			break;
	}
	if (flush_out(o) < 0 || o->error) {
		lt_error_set(err, LT_E_OUTPUT, "cannot write %s: %s", name,
			      strerror(o->error));
		goto out;
	}
	ret = 0;
out:
	free(sizes);
	free(offs);
	free(o);
	return ret;
}
