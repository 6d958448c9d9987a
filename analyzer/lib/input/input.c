// SPDX-License-Identifier: LGPL-2.1
/*
 * input.c - a file known by its first bytes, opened as its kind of input
 * (lt-input.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lt-input.h"
#include "lt-perf.h"

static const unsigned char tracedat_magic[10] = {
	0x17, 0x08, 0x44, 't', 'r', 'a', 'c', 'i', 'n', 'g'
};

static const struct {
	enum lt_input_kind kind;
	const struct lt_input_ops *ops;
} inputs[] = {
	{ LT_INPUT_TRACEDAT, &lt_input_tracedat },
	{ LT_INPUT_PERF, &lt_input_perf },
};

/* "17 08 44 74 ...": the first bytes, for a message about them. */
static void hex_head(char *buf, size_t len, const unsigned char *p, size_t n)
{
	size_t i, off = 0;

	buf[0] = '\0';
	for (i = 0; i < n && i < 8 && off + 4 < len; i++)
		off += snprintf(buf + off, len - off, "%s%02x", i ? " " : "",
				p[i]);
}

int lt_input_detect(const char *path, enum lt_input_kind *kind,
		    struct lt_error *err)
{
	unsigned char head[16];
	char hex[40];
	struct stat st;
	ssize_t n;
	int fd;

	/*
	 * Standard input: a file redirected to it is looked at as any file;
	 * a stream cannot be, and only perf writes one.
	 */
	if (!strcmp(path, "-")) {
		if (fstat(0, &st) < 0 || !S_ISREG(st.st_mode)) {
			*kind = LT_INPUT_PERF;
			return 0;
		}
		path = "/dev/stdin";
	}
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0) {
		/* the reader of the format says why, in its own words */
		*kind = LT_INPUT_TRACEDAT;
		return 0;
	}
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		*kind = !fstat(fd, &st) && (S_ISFIFO(st.st_mode) ||
					    S_ISCHR(st.st_mode)) ?
			LT_INPUT_PERF : LT_INPUT_TRACEDAT;
		close(fd);
		return 0;
	}
	n = pread(fd, head, sizeof(head), 0);
	close(fd);
	if (!strcmp(path, "/dev/stdin") && n >= 0 && lt_perf_magic(head, (size_t)n)) {
		*kind = LT_INPUT_PERF;	/* its reader takes "-" itself */
		return 0;
	}
	if (n < 0) {
		lt_error_set(err, LT_E_IO, "%s: cannot read: %s", path,
			     strerror(errno));
		return -1;
	}
	if ((size_t)n >= sizeof(tracedat_magic) &&
	    !memcmp(head, tracedat_magic, sizeof(tracedat_magic))) {
		*kind = LT_INPUT_TRACEDAT;
		return 0;
	}
	if (lt_perf_magic(head, (size_t)n)) {
		*kind = LT_INPUT_PERF;
		return 0;
	}
	if (lt_report_file_is_json(path)) {
		*kind = LT_INPUT_REPORT;
		return 0;
	}
	/* empty, or a trace.dat cut inside its magic: the reader says which */
	if (!n || (size_t)n < sizeof(tracedat_magic)) {
		*kind = LT_INPUT_TRACEDAT;
		return 0;
	}
	hex_head(hex, sizeof(hex), head, (size_t)n);
	lt_error_set(err, LT_E_NOT_TRACE,
		     "%s: not a trace.dat (no trace-cmd magic at offset 0), a "
		     "perf.data (no PERFILE2) nor a saved JSON report: it "
		     "starts %s", path, hex);
	return -1;
}

int lt_input_open(struct lt_input **out, const char *path,
		  enum lt_input_kind kind, const struct lt_input_open *o,
		  struct lt_error *err)
{
	static const struct lt_input_open defaults;
	struct lt_input *in;
	size_t i;

	*out = NULL;
	if (!o)
		o = &defaults;
	for (i = 0; i < sizeof(inputs) / sizeof(inputs[0]); i++)
		if (inputs[i].kind == kind)
			break;
	if (i == sizeof(inputs) / sizeof(inputs[0])) {
		lt_error_set(err, LT_E_INTERNAL,
			     "%s: internal error: no input of kind %d", path,
			     (int)kind);
		return -1;
	}
	in = calloc(1, sizeof(*in));
	if (!in) {
		lt_error_set(err, LT_E_NOMEM, "%s: out of memory", path);
		return -1;
	}
	in->ops = inputs[i].ops;
	if (in->ops->open(in, path, o, err) < 0) {
		free(in);
		return -1;
	}
	*out = in;
	return 0;
}

void lt_input_close(struct lt_input *in)
{
	if (!in)
		return;
	in->ops->close(in);
	free(in);
}
