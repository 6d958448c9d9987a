// SPDX-License-Identifier: LGPL-2.1
/*
 * report-diff.c - lt_diff_make(): two reports compared cause by cause.
 *
 * Each side is first put in merged form (lt_report_merge_as() of it
 * alone): its global table made from its processes, a table per command,
 * percentiles from histograms.  Then every cause of every table compared
 * (the global one, per command, per process) is paired with the other
 * side's, and the pairs are ordered by how much worse they got: by the
 * rise of their total, the tables by their worst cause's.
 */
#define _GNU_SOURCE	/* qsort_r() */
#include <stdlib.h>
#include <string.h>

#include "lt-report.h"

/* One cause of one table of one side, to be paired. */
struct entry {
	enum lt_diff_scope scope;
	const char *comm;
	int pid;
	bool kthread;
	const struct lt_report_row *row;
	int side;		/* 0 before, 1 after */
};

static int scmp(const char *a, const char *b)
{
	return strcmp(a ? a : "", b ? b : "");
}

/* The table an entry is in: scope, then command or process. */
static int cmp_table(enum lt_diff_scope sa, const char *ca, int pa, bool ka,
		     enum lt_diff_scope sb, const char *cb, int pb, bool kb)
{
	int c = (int)sa - (int)sb;

	if (c)
		return c;
	c = scmp(ca, cb);
	if (c)
		return c;
	c = (pa > pb) - (pa < pb);
	return c ? c : (int)ka - (int)kb;
}

static int cmp_cause(const char *ra, const char *aa, enum lt_cause_kind ka,
		     const char *rb, const char *ab, enum lt_cause_kind kb)
{
	int c = scmp(ra, rb);

	if (c)
		return c;
	c = scmp(aa, ab);
	return c ? c : (int)ka - (int)kb;
}

static int cmp_entries(const void *pa, const void *pb)
{
	const struct entry *a = pa, *b = pb;
	int c = cmp_table(a->scope, a->comm, a->pid, a->kthread,
			  b->scope, b->comm, b->pid, b->kthread);

	if (c)
		return c;
	c = cmp_cause(a->row->reason, a->row->argument, a->row->kind,
		      b->row->reason, b->row->argument, b->row->kind);
	return c ? c : a->side - b->side;
}

static bool same_key(const struct entry *a, const struct entry *b)
{
	return !cmp_table(a->scope, a->comm, a->pid, a->kthread,
			  b->scope, b->comm, b->pid, b->kthread) &&
	       !cmp_cause(a->row->reason, a->row->argument, a->row->kind,
			  b->row->reason, b->row->argument, b->row->kind);
}

static int add_rows(struct entry **v, size_t *n, size_t *cap,
		    enum lt_diff_scope scope, const char *comm, int pid,
		    bool kthread, const struct lt_report_row *rows, size_t nr,
		    int side)
{
	size_t i;

	for (i = 0; i < nr; i++) {
		if (*n == *cap) {
			size_t ncap = *cap ? *cap * 2 : 256;
			struct entry *p = realloc(*v, ncap * sizeof(*p));

			if (!p)
				return -1;
			*v = p;
			*cap = ncap;
		}
		(*v)[(*n)++] = (struct entry){ scope, comm, pid, kthread,
					       &rows[i], side };
	}
	return 0;
}

static int gather(const struct lt_report *r, unsigned int scopes, int side,
		  struct entry **v, size_t *n, size_t *cap)
{
	const struct lt_report_view *w = &r->whole;
	size_t i;

	if ((scopes & LT_DIFF_SCOPE_BIT(LT_DIFF_GLOBAL)) &&
	    add_rows(v, n, cap, LT_DIFF_GLOBAL, NULL, 0, false, w->global,
		     w->nr_global, side) < 0)
		return -1;
	for (i = 0; (scopes & LT_DIFF_SCOPE_BIT(LT_DIFF_COMMAND)) &&
		    i < w->nr_commands; i++)
		if (add_rows(v, n, cap, LT_DIFF_COMMAND, w->commands[i].comm, 0,
			     w->commands[i].kernel_thread, w->commands[i].rows,
			     w->commands[i].nr_rows, side) < 0)
			return -1;
	for (i = 0; (scopes & LT_DIFF_SCOPE_BIT(LT_DIFF_PROCESS)) &&
		    i < w->nr_processes; i++)
		if (add_rows(v, n, cap, LT_DIFF_PROCESS, w->processes[i].comm,
			     w->processes[i].pid, w->processes[i].kernel_thread,
			     w->processes[i].rows, w->processes[i].nr_rows,
			     side) < 0)
			return -1;
	return 0;
}

/* A side's figures: the row's statistics, zeros if it is absent. */
static void side_of(const struct lt_report_row *r, struct lt_report_row *s)
{
	const struct lt_row_field *f;

	memset(s, 0, sizeof(*s));
	if (!r)
		return;
	lt_for_each_row_field(f)
		lt_row_field_copy(f, s, r);
	s->no_percentiles = r->no_percentiles;
}

/*
 * The figures a diff compares, but the share: a cause's share changes
 * with the other causes of its table, not a change of its own.
 */
static bool same_figures(const struct lt_report_row *a, const struct lt_report_row *b)
{
	const struct lt_row_field *f;

	lt_for_each_row_field(f)
		if (f->figure && f->merge != LT_RF_SHARE &&
		    lt_row_field_cmp(f, a, b))
			return false;
	return a->no_percentiles == b->no_percentiles;
}

/* after - before, as a signed number that cannot wrap */
static int64_t rise(uint64_t before, uint64_t after)
{
	if (after >= before)
		return after - before > INT64_MAX ? INT64_MAX : (int64_t)(after - before);
	return before - after > INT64_MAX ? INT64_MIN + 1 : -(int64_t)(before - after);
}

static int cmp_i64_desc(int64_t a, int64_t b)
{
	return (a < b) - (a > b);
}

/*
 * What "worse" is within a table: the greater rise of these figures, the
 * first that differs (lt_diff_make() finds them in the field table).
 */
static const char *const worse_by[] = { "total", "p99", "count" };
#define NR_WORSE	(sizeof(worse_by) / sizeof(worse_by[0]))

static int cmp_worse(const struct lt_diff_row *a, const struct lt_diff_row *b,
		     const struct lt_row_field *const *by)
{
	size_t i;
	int c;

	for (i = 0; i < NR_WORSE; i++) {
		c = cmp_i64_desc(rise(lt_row_field_u64(by[i], &a->before),
				      lt_row_field_u64(by[i], &a->after)),
				 rise(lt_row_field_u64(by[i], &b->before),
				      lt_row_field_u64(by[i], &b->after)));
		if (c)
			return c;
	}
	return cmp_cause(a->reason, a->argument, a->kind,
			 b->reason, b->argument, b->kind);
}

struct sort_item {
	struct lt_diff_row row;
	int64_t table_worst;
};

static int cmp_items(const void *pa, const void *pb, void *by)
{
	const struct sort_item *a = pa, *b = pb;
	int c = (int)a->row.scope - (int)b->row.scope;

	if (c)
		return c;
	c = cmp_i64_desc(a->table_worst, b->table_worst);
	if (c)
		return c;
	c = cmp_table(a->row.scope, a->row.comm, a->row.pid, a->row.kernel_thread,
		      b->row.scope, b->row.comm, b->row.pid, b->row.kernel_thread);
	return c ? c : cmp_worse(&a->row, &b->row, by);
}

static int pair_up(struct lt_diff *d, struct entry *e, size_t n,
		   struct lt_error *err)
{
	const struct lt_row_field *by[NR_WORSE];
	struct sort_item *items;
	size_t i, j, k = 0, t;

	for (i = 0; i < NR_WORSE; i++) {
		by[i] = lt_row_field_by_figure(worse_by[i], strlen(worse_by[i]));
		if (!by[i] || by[i]->type != LT_RF_U64) {
			lt_error_set(err, LT_E_INTERNAL, "diff: no figure %s",
				     worse_by[i]);
			return -1;
		}
	}
	items = calloc(n ? n : 1, sizeof(*items));
	if (!items) {
		lt_error_set(err, LT_E_NOMEM, "out of memory comparing the reports");
		return -1;
	}
	if (n > 1)
		qsort(e, n, sizeof(*e), cmp_entries);
	for (i = 0; i < n; i = j) {
		struct lt_diff_row *r = &items[k++].row;
		const struct lt_report_row *b = NULL, *a = NULL;

		/*
		 * A table holds a cause once; a pid reused under the same name
		 * within one trace makes two: the larger is compared.
		 */
		for (j = i; j < n && same_key(&e[i], &e[j]); j++) {
			const struct lt_report_row **side = e[j].side ? &a : &b;

			if (!*side || e[j].row->total_ns > (*side)->total_ns)
				*side = e[j].row;
		}
		r->scope = e[i].scope;
		r->comm = e[i].comm;
		r->pid = e[i].pid;
		r->kernel_thread = e[i].kthread;
		r->reason = e[i].row->reason;
		r->argument = e[i].row->argument;
		r->kind = e[i].row->kind;
		side_of(b, &r->before);
		side_of(a, &r->after);
		r->status = !b ? LT_DIFF_NEW : !a ? LT_DIFF_VANISHED :
			    same_figures(&r->before, &r->after) ? LT_DIFF_SAME :
			    LT_DIFF_CHANGED;
		d->nr_by_status[r->status]++;
	}
	/* each table's worst rise, for the order of the tables */
	for (i = 0; i < k; i = j) {
		int64_t worst = INT64_MIN;

		for (j = i; j < k && !cmp_table(items[i].row.scope, items[i].row.comm,
						items[i].row.pid,
						items[i].row.kernel_thread,
						items[j].row.scope, items[j].row.comm,
						items[j].row.pid,
						items[j].row.kernel_thread); j++) {
			int64_t r = rise(items[j].row.before.total_ns,
					 items[j].row.after.total_ns);

			if (r > worst)
				worst = r;
		}
		for (t = i; t < j; t++)
			items[t].table_worst = worst;
	}
	qsort_r(items, k, sizeof(*items), cmp_items, by);
	d->rows = calloc(k ? k : 1, sizeof(*d->rows));
	if (!d->rows) {
		free(items);
		lt_error_set(err, LT_E_NOMEM, "out of memory comparing the reports");
		return -1;
	}
	for (i = 0; i < k; i++)
		d->rows[i] = items[i].row;
	d->nr_rows = k;
	free(items);
	return 0;
}

int lt_diff_make(const struct lt_report *before, const char *before_name,
		 const struct lt_report *after, const char *after_name,
		 unsigned int scopes, struct lt_diff **out, struct lt_error *err)
{
	struct lt_report *mb = NULL, *ma = NULL;
	struct entry *e = NULL;
	size_t n = 0, cap = 0;
	struct lt_diff *d;

	*out = NULL;
	memset(err, 0, sizeof(*err));
	d = calloc(1, sizeof(*d));
	if (!d) {
		lt_error_set(err, LT_E_NOMEM, "out of memory comparing the reports");
		return -1;
	}
	d->before_name = before_name;
	d->after_name = after_name;
	d->scopes = scopes;
	/* each side alone in merged form: commands, and nothing merges */
	if (lt_report_merge_as(&before, &before_name, 1, false, &mb, err) < 0)
		goto fail;
	d->before = mb;
	if (lt_report_merge_as(&after, &after_name, 1, false, &ma, err) < 0)
		goto fail;
	d->after = ma;
	if (gather(mb, scopes, 0, &e, &n, &cap) < 0 ||
	    gather(ma, scopes, 1, &e, &n, &cap) < 0) {
		lt_error_set(err, LT_E_NOMEM, "out of memory comparing the reports");
		goto fail;
	}
	if (pair_up(d, e, n, err) < 0)
		goto fail;
	free(e);
	*out = d;
	return 0;
fail:
	free(e);
	lt_diff_free(d);	/* and the sides made so far */
	return -1;
}

void lt_diff_free(struct lt_diff *d)
{
	size_t i;

	if (!d)
		return;
	lt_report_free((struct lt_report *)d->before);
	lt_report_free((struct lt_report *)d->after);
	for (i = 0; i < d->nr_checks; i++)
		free((char *)d->checks[i].expr);
	free(d->checks);
	free(d->rows);
	free(d);
}
