// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz-trace.c - the whole analyzer on an untrusted trace.dat.
 *
 * The bytes become a file (a memfd: the reader maps files), lt_analyze()
 * reads, decodes and replays it, and every writer prints the report.
 * Anything but a clean error or a report is a bug.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "latencytop.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct lt_report *report;
	struct lt_options opts;
	struct lt_error err;
	char path[64], *text;
	size_t len;
	int fd, f;
	FILE *out;

	fd = memfd_create("fuzz-trace", 0);
	if (fd < 0)
		return 0;
	if (write(fd, data, size) != (ssize_t)size) {
		close(fd);
		return 0;
	}
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	lt_options_init(&opts);
	opts.partial = size & 1;
	opts.window_ns = size & 2 ? 1000000000 : 0;
	opts.no_default_trans = true;	/* the table is not under test here */
	/* both readers, whatever the machine: left open, small inputs get one */
	opts.threads = size & 4 ? 2 : 1;
	if (!lt_analyze(path, &opts, &report, &err)) {
		out = open_memstream(&text, &len);
		if (out) {
			for (f = LT_FORMAT_TEXT; f <= LT_FORMAT_FOLDED; f++)
				lt_report_write(report, (enum lt_format)f, out, &err);
			fclose(out);
			free(text);
		}
		lt_report_free(report);
	} else if (!err.msg[0] || err.code == LT_E_OK) {
		abort();	/* a failure must say what failed */
	}
	close(fd);
	return 0;
}
