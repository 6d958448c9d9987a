// SPDX-License-Identifier: GPL-2.0
/*
 * tc-loop - the benchmark's floor: a bare libtracecmd read loop that does
 * what a minimal real consumer must do per event and nothing else.
 *
 *   tc-loop FILE
 *
 * Opens FILE with libtracecmd, walks every record in timestamp order across
 * CPUs (tracecmd_iterate_events, as trace-cmd report does) and reads three
 * numeric fields of each through libtraceevent: common_pid and the first two
 * plain numeric fields of the event's format (sched_switch: prev_pid and
 * prev_prio; sched_wakeup: pid and prio; ftrace:kernel_stack: size).
 * Field descriptors are looked up once per event type, not per record.
 * No output per record; at the end one line on stdout:
 *
 *   events <records> lost <missed events reported> sum <checksum>
 *
 * Exit status 0, or 2 when libtracecmd cannot open or read the file.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <trace-cmd/trace-cmd.h>

#define MAX_ID 65536

struct evcache {
	struct tep_format_field *f[3];
	int n;
};

struct ctx {
	struct tep_handle *tep;
	struct evcache *cache[MAX_ID];
	unsigned long long n, lost, sum;
};

static bool plain_number(const struct tep_format_field *f)
{
	return !(f->flags & (TEP_FIELD_IS_ARRAY | TEP_FIELD_IS_STRING |
			     TEP_FIELD_IS_DYNAMIC)) &&
	       f->size > 0 && f->size <= 8;
}

static struct evcache *lookup(struct ctx *c, int id)
{
	struct tep_format_field *f;
	struct tep_event *ev;
	struct evcache *e;

	e = calloc(1, sizeof(*e));
	if (!e)
		exit(2);
	ev = tep_find_event(c->tep, id);
	if (ev) {
		f = tep_find_common_field(ev, "common_pid");
		if (f)
			e->f[e->n++] = f;
		for (f = ev->format.fields; f && e->n < 3; f = f->next)
			if (plain_number(f))
				e->f[e->n++] = f;
	}
	c->cache[id] = e;
	return e;
}

static int visit(struct tracecmd_input *h, struct tep_record *rec, int cpu,
		 void *data)
{
	struct ctx *c = data;
	struct evcache *e;
	unsigned long long v;
	int id, i;

	c->n++;
	if (rec->missed_events > 0)
		c->lost += rec->missed_events;
	id = tep_data_type(c->tep, rec);
	if (id < 0 || id >= MAX_ID)
		return 0;
	e = c->cache[id];
	if (!e)
		e = lookup(c, id);
	for (i = 0; i < e->n; i++)
		if (tep_read_number_field(e->f[i], rec->data, &v) == 0)
			c->sum += v;
	c->sum += rec->ts;
	return 0;
}

int main(int argc, char **argv)
{
	struct tracecmd_input *h;
	struct ctx *c;
	int i, rc = 0;

	if (argc != 2 || argv[1][0] == '-') {
		fprintf(stderr, "usage: tc-loop FILE\n");
		return 1;
	}
	c = calloc(1, sizeof(*c));
	if (!c)
		return 2;
	tracecmd_set_loglevel(TEP_LOG_NONE);
	h = tracecmd_open(argv[1], TRACECMD_FL_LOAD_NO_PLUGINS);
	if (!h) {
		fprintf(stderr, "tc-loop: libtracecmd cannot open %s\n", argv[1]);
		return 2;
	}
	c->tep = tracecmd_get_tep(h);
	if (tracecmd_iterate_events(h, NULL, 0, visit, c) < 0) {
		fprintf(stderr, "tc-loop: libtracecmd failed reading %s\n", argv[1]);
		rc = 2;
	} else {
		printf("events %llu lost %llu sum %llx\n", c->n, c->lost, c->sum);
	}
	tracecmd_close(h);
	for (i = 0; i < MAX_ID; i++)
		free(c->cache[i]);
	free(c);
	return rc;
}
