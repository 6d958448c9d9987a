// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz-perf.c - the perf.data reader on untrusted bytes.
 *
 * The bytes are read as a file (a memfd, mapped) or, when they fit a
 * pipe's buffer, as a stream through a pipe; with the default queue or
 * the smallest one.  Every record is read to the end (on past damage),
 * each tracepoint sample decoded as the analyzer would, and each field
 * a record points to touched.  Anything but records and clean errors is
 * a bug: a crash, a sanitizer report, an error without a message, or a
 * pointer out of the record.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "latencytop.h"
#include "lt-decode.h"
#include "lt-perf.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static volatile uint64_t sink;

static void touch(const void *p, size_t n)
{
	const unsigned char *c = p;
	size_t i;

	for (i = 0; i < n; i++)
		sink += c[i];
}

static void check_error(const struct lt_error *err)
{
	if (!err->msg[0] || err->code == LT_E_OK || err->code >= LT_E_MAX)
		abort();	/* a failure must say what failed */
}

static void read_records(struct lt_perf *p)
{
	const struct lt_trace *t = lt_perf_trace(p);
	struct lt_perf_record rec;
	struct lt_decoder d;
	struct lt_error err;
	struct lt_ev ev;
	bool decode;
	unsigned long n = 0;
	int ret;

	decode = t && lt_decode_init(&d, t, &err) == 0;
	while ((ret = lt_perf_next(p, &rec, &err)) != 0) {
		/* each call reads a record or more: it cannot go on for ever */
		if (++n > (1ul << 24))
			abort();
		if (ret < 0) {
			check_error(&err);
			continue;
		}
		switch (rec.kind) {
		case LT_PERF_SAMPLE:
			touch(rec.sample.raw.data, rec.sample.raw.size);
			touch(rec.sample.kernel_frames,
			      8 * rec.sample.nr_kernel_frames);
			touch(rec.sample.user_frames,
			      8 * rec.sample.nr_user_frames);
			if (decode && rec.sample.raw.data &&
			    rec.sample.raw.cpu >= 0)
				lt_decode_record(&d, &rec.sample.raw, &ev);
			break;
		case LT_PERF_COMM:
			touch(rec.comm.comm, rec.comm.len);
			break;
		case LT_PERF_MMAP:
			touch(rec.mmap.filename, rec.mmap.filename_len);
			if (rec.mmap.has_build_id)
				touch(rec.mmap.build_id, rec.mmap.build_id_size);
			break;
		default:
			break;
		}
		if (rec.attr)
			touch(rec.attr->name, strlen(rec.attr->name));
	}
	if (decode)
		lt_decode_free(&d);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct lt_perf_options opts = { .queue_bytes = size & 2 ? 1 : 0 };
	const struct lt_perf_info *in;
	struct lt_error err;
	struct lt_perf *p;
	unsigned int i;
	int fd, pfd[2];
	bool stream = (size & 1) && size <= 65536;

	if (stream) {
		if (pipe2(pfd, O_CLOEXEC))
			return 0;
		/* a pipe holds 64 KB: all of it goes in before any is read */
		if (write(pfd[1], data, size) != (ssize_t)size) {
			close(pfd[0]);
			close(pfd[1]);
			return 0;
		}
		close(pfd[1]);
		fd = pfd[0];
	} else {
		fd = memfd_create("fuzz-perf", MFD_CLOEXEC);
		if (fd < 0)
			return 0;
		if (write(fd, data, size) != (ssize_t)size) {
			close(fd);
			return 0;
		}
	}
	if (lt_perf_open_fd(&p, fd, "fuzz.data", &opts, &err)) {
		check_error(&err);
		close(fd);
		return 0;
	}
	in = lt_perf_info(p);
	touch(in->hostname, strlen(in->hostname));
	touch(in->cmdline, strlen(in->cmdline));
	for (i = 0; i < lt_perf_nr_build_ids(p); i++)
		touch(lt_perf_build_id(p, i)->filename,
		      strlen(lt_perf_build_id(p, i)->filename));
	read_records(p);
	lt_perf_close(p);
	close(fd);
	return 0;
}
