// SPDX-License-Identifier: GPL-2.0
/*
 * tc-dump - the test oracle: print every record of a trace.dat through
 * libtracecmd, in the same format as lt-dump.
 *
 *   tc-dump [--quiet] [--bench] FILE
 *
 *   <cpu> <ts> <id>(<system>:<name>) <size> <crc32 of the payload>
 *   <cpu> <ts> LOST <count>        (before the record that follows a loss)
 * Exit status 0, or 2 when libtracecmd cannot open or read the file.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <zlib.h>

#include <trace-cmd/trace-cmd.h>

struct ctx {
	struct tep_handle *tep;
	bool quiet;
	unsigned long long n, sum;
};

static int show(struct tracecmd_input *h, struct tep_record *rec, int cpu,
		void *data)
{
	struct ctx *c = data;
	struct tep_event *ev;
	int id;

	c->n++;
	id = tep_data_type(c->tep, rec);
	if (c->quiet) {
		c->sum += rec->ts + id + rec->size;
		return 0;
	}
	if (rec->missed_events)
		printf("%d %llu LOST %lld\n", rec->cpu, rec->ts,
		       rec->missed_events);
	ev = tep_find_event(c->tep, id);
	printf("%d %llu %d(%s:%s) %d %08lx\n", rec->cpu, rec->ts, id,
	       ev ? ev->system : "?", ev ? ev->name : "?", rec->size,
	       crc32(0, rec->data, rec->size));
	return 0;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	struct ctx c = { 0 };
	struct tracecmd_input *h;
	const char *path = NULL;
	bool bench = false;
	double t0 = 0;
	int i;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--quiet"))
			c.quiet = true;
		else if (!strcmp(argv[i], "--bench"))
			bench = true;
		else if (argv[i][0] == '-' || path)
			goto usage;
		else
			path = argv[i];
	}
	if (!path)
		goto usage;
	if (bench)
		t0 = now();
	tracecmd_set_loglevel(TEP_LOG_NONE);
	h = tracecmd_open(path, TRACECMD_FL_LOAD_NO_PLUGINS);
	if (!h) {
		fprintf(stderr, "tc-dump: libtracecmd cannot open %s\n", path);
		return 2;
	}
	c.tep = tracecmd_get_tep(h);
	if (tracecmd_iterate_events(h, NULL, 0, show, &c) < 0) {
		fprintf(stderr, "tc-dump: libtracecmd failed reading %s\n", path);
		tracecmd_close(h);
		return 2;
	}
	if (bench)
		fprintf(stderr, "tc-dump: %llu records in %.3f s: %.1f ns/record (%llx)\n",
			c.n, now() - t0, c.n ? (now() - t0) * 1e9 / c.n : 0.0,
			c.sum & 0xf);
	tracecmd_close(h);
	return 0;
usage:
	fprintf(stderr, "usage: tc-dump [--quiet] [--bench] FILE\n");
	return 1;
}
