// SPDX-License-Identifier: LGPL-2.1
/*
 * report-read.c - a saved JSON report (latency-analyze --format=json,
 * schema "latencytop-report/1", docs/report-schema.md) back into the
 * report model, for the viewer.  Fields it does not know are ignored, as
 * the schema asks; a field of the wrong type is an error naming it.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "lt-hist.h"
#include "lt-json.h"
#include "lt-report.h"

#define MAX_JSON_BYTES	(256u << 20)

struct reader {
	struct lt_report_priv *priv;
	struct lt_error *err;
	const char *path;
};

static int bad(struct reader *rd, const char *where, const char *what)
{
	lt_error_set(rd->err, LT_E_CORRUPT, "%s: not a latencytop report: %s%s%s",
		     rd->path, where, *where ? ": " : "", what);
	return -1;
}

static int nomem(struct reader *rd)
{
	lt_error_set(rd->err, LT_E_NOMEM, "%s: out of memory reading the report",
		     rd->path);
	return -1;
}

/* "processes[3].reasons": where a field is, cut with "..." if very deep */
static const char *at(char *buf, size_t len, const char *where,
		      const char *key, long idx)
{
	int n;

	if (idx >= 0)
		n = snprintf(buf, len, "%s%s%s[%ld]", where, *where && key ? "." : "",
			     key ? key : "", idx);
	else
		n = snprintf(buf, len, "%s%s%s", where, *where ? "." : "", key);
	if (n < 0 || (size_t)n >= len)
		memcpy(buf + len - 4, "...", 4);
	return buf;
}

static int get_u64(struct reader *rd, const struct lt_json *o, const char *key,
		   const char *where, uint64_t *out)
{
	const struct lt_json *v = lt_json_get(o, key);
	char w[256];

	if (!v || v->type == LT_JSON_NULL)
		return 0;
	if (v->type != LT_JSON_NUMBER || !v->is_u64)
		return bad(rd, at(w, sizeof(w), where, key, -1),
			   "expected a whole number of 0 or more");
	*out = v->u64;
	return 0;
}

static int get_int(struct reader *rd, const struct lt_json *o, const char *key,
		   const char *where, int *out)
{
	const struct lt_json *v = lt_json_get(o, key);
	char w[256];

	if (!v || v->type == LT_JSON_NULL)
		return 0;
	/* pids as the writer prints them: %d, negative ones too; in range before the cast */
	if (v->type != LT_JSON_NUMBER || v->num < -2147483648.0 ||
	    v->num > 2147483647.0 || v->num != (double)(int)v->num)
		return bad(rd, at(w, sizeof(w), where, key, -1),
			   "expected a whole number that fits an int");
	*out = (int)v->num;
	return 0;
}

static int get_double(struct reader *rd, const struct lt_json *o,
		      const char *key, const char *where, double *out)
{
	const struct lt_json *v = lt_json_get(o, key);
	char w[256];

	if (!v || v->type == LT_JSON_NULL)
		return 0;
	if (v->type != LT_JSON_NUMBER)
		return bad(rd, at(w, sizeof(w), where, key, -1), "expected a number");
	*out = v->num;
	return 0;
}

static int get_bool(struct reader *rd, const struct lt_json *o, const char *key,
		    const char *where, bool *out)
{
	const struct lt_json *v = lt_json_get(o, key);
	char w[256];

	if (!v || v->type == LT_JSON_NULL)
		return 0;
	if (v->type != LT_JSON_BOOL)
		return bad(rd, at(w, sizeof(w), where, key, -1),
			   "expected true or false");
	*out = v->boolean;
	return 0;
}

/*
 * JSON value @v, member @key (element @idx, or -1) of @where, as a string
 * kept by the report.  Names and reasons are C strings: one cut at a NUL
 * would read as another.
 */
static int keep_str(struct reader *rd, const struct lt_json *v,
		    const char *where, const char *key, long idx, const char **out)
{
	char w[256];

	if (v->type != LT_JSON_STRING)
		return bad(rd, at(w, sizeof(w), where, key, idx), "expected a string");
	if (strlen(v->str) != v->str_len)
		return bad(rd, at(w, sizeof(w), where, key, idx),
			   "a NUL (\\u0000) in a string");
	*out = lt_report_strdup(rd->priv, v->str);
	return *out ? 0 : nomem(rd);
}

/*
 * A string kept by the report.  Absent or null: NULL if @nullable, else
 * what *@out held already (a default), else "".
 */
static int get_str(struct reader *rd, const struct lt_json *o, const char *key,
		   const char *where, const char **out, bool nullable)
{
	const struct lt_json *v = lt_json_get(o, key);

	if (!v || v->type == LT_JSON_NULL) {
		*out = nullable ? NULL : *out ? *out : "";
		return 0;
	}
	return keep_str(rd, v, where, key, -1, out);
}

/* Member @key as an array (absent: empty); NULL after an error. */
static const struct lt_json *get_array(struct reader *rd, const struct lt_json *o,
				       const char *key, const char *where,
				       bool *failed)
{
	const struct lt_json *v = lt_json_get(o, key);
	char w[256];

	*failed = false;
	if (!v || v->type == LT_JSON_NULL)
		return NULL;
	if (v->type != LT_JSON_ARRAY) {
		*failed = true;
		bad(rd, at(w, sizeof(w), where, key, -1), "expected an array");
		return NULL;
	}
	return v;
}

static int need_object(struct reader *rd, const struct lt_json *v,
		       const char *where)
{
	return v && v->type == LT_JSON_OBJECT ? 0 :
	       bad(rd, where, "expected an object");
}

static int get_strs(struct reader *rd, const struct lt_json *o, const char *key,
		    const char *where, const char *const **out, unsigned int *nr)
{
	const struct lt_json *a, *e;
	const char **v;
	bool failed;
	unsigned int i = 0;

	a = get_array(rd, o, key, where, &failed);
	if (failed)
		return -1;
	*nr = 0;
	*out = NULL;
	if (!a)
		return 0;
	if (!a->nr)
		return 0;
	v = lt_report_alloc(rd->priv, a->nr, sizeof(*v));
	if (!v)
		return nomem(rd);
	for (e = a->child; e; e = e->next, i++)
		if (keep_str(rd, e, where, key, i, &v[i]) < 0)
			return -1;
	*out = v;
	*nr = i;
	return 0;
}

static int read_stack(struct reader *rd, const struct lt_json *o,
		      const char *where, struct lt_report_stack *st)
{
	if (need_object(rd, o, where) < 0 ||
	    get_u64(rd, o, "count", where, &st->count) < 0 ||
	    get_u64(rd, o, "total_ns", where, &st->total_ns) < 0 ||
	    get_u64(rd, o, "max_ns", where, &st->max_ns) < 0 ||
	    get_u64(rd, o, "max_at_ns", where, &st->max_at_ns) < 0 ||
	    get_strs(rd, o, "path", where, &st->path, &st->path_depth) < 0 ||
	    get_strs(rd, o, "frames", where, &st->frames, &st->nr_frames) < 0 ||
	    get_strs(rd, o, "user_frames", where, &st->user_frames,
		     &st->nr_user_frames) < 0)
		return -1;
	return 0;
}

/* One [low_ns, count] pair of a histogram: 0, or -1 (said). */
static int read_bucket(struct reader *rd, const struct lt_json *e,
		       const char *where, struct lt_report_bucket *b)
{
	const struct lt_json *lo, *n;

	if (e->type != LT_JSON_ARRAY || e->nr != 2)
		return bad(rd, where, "expected [low_ns, count]");
	lo = e->child;
	n = lo->next;
	if (lo->type != LT_JSON_NUMBER || !lo->is_u64 ||
	    n->type != LT_JSON_NUMBER || !n->is_u64)
		return bad(rd, where, "expected two whole numbers of 0 or more");
	/* a bucket's own bound, or the percentiles would be made up */
	if (lt_hist_bucket_low(lt_hist_bucket(lo->u64)) != lo->u64)
		return bad(rd, where, "low_ns is no bucket's lower bound "
			   "(16 buckets per power of two)");
	if (!n->u64)
		return bad(rd, where, "an empty bucket (only those hit are listed)");
	b->low_ns = lo->u64;
	b->count = n->u64;
	return 0;
}

/*
 * A row's histogram (schema 1.1): it must hold the row's waits exactly,
 * its shortest in the first bucket and its longest in the last, or a
 * merge would carry the damage into percentiles nobody can check.
 */
static int read_hist(struct reader *rd, const struct lt_json *o,
		     const char *where, struct lt_report_row *r)
{
	const struct lt_json *h = lt_json_get(o, "hist"), *a, *e;
	struct lt_report_bucket *bk;
	uint64_t sub = 0, sum = 0;
	char w[256], wb[300];
	bool failed;
	size_t i;

	if (!h || h->type == LT_JSON_NULL)
		return 0;
	at(w, sizeof(w), where, "hist", -1);
	if (need_object(rd, h, w) < 0 ||
	    get_u64(rd, h, "sub_buckets", w, &sub) < 0 ||
	    get_u64(rd, h, "min_ns", w, &r->min_ns) < 0)
		return -1;
	if (sub != LT_HIST_SUB)
		return bad(rd, w, "sub_buckets is not 16, the only layout read");
	a = get_array(rd, h, "buckets", w, &failed);
	if (failed)
		return -1;
	if (!a || !a->nr) {
		if (r->count)
			return bad(rd, w, "no buckets for the row's waits");
		return 0;
	}
	bk = lt_report_alloc(rd->priv, a->nr, sizeof(*bk));
	if (!bk)
		return nomem(rd);
	for (i = 0, e = a->child; e; e = e->next, i++) {
		at(wb, sizeof(wb), w, "buckets", (long)i);
		if (read_bucket(rd, e, wb, &bk[i]) < 0)
			return -1;
		if (i && bk[i].low_ns <= bk[i - 1].low_ns)
			return bad(rd, wb, "buckets out of ascending order");
		sum += bk[i].count;
		if (sum < bk[i].count)
			return bad(rd, wb, "counts overflow 64 bits");
	}
	if (sum != r->count)
		return bad(rd, w, "its buckets do not add up to the row's count");
	if (r->min_ns > r->max_ns ||
	    lt_hist_bucket(r->min_ns) != lt_hist_bucket(bk[0].low_ns) ||
	    lt_hist_bucket(r->max_ns) != lt_hist_bucket(bk[i - 1].low_ns))
		return bad(rd, w, "min_ns and the row's max_ns are not in its "
			   "first and last buckets");
	r->buckets = bk;
	r->nr_buckets = i;
	return 0;
}

#define MAX_CHAIN_DEPTH	(LT_CHAIN_LEVELS + 2)

/* The names a node's what has when it is no cause (lt_chain_what_name). */
static bool chain_kind_name(const char *what)
{
	static const char *const names[] = {
		"running", "waiting for cpu", "hardirq", "softirq", "timer",
		"unknown", "lost", "other",
	};
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(what, names[i]))
			return true;
	return false;
}

/* Nodes a list holds, an "other" with "rest" counted as what it lists. */
static int count_chain(struct reader *rd, const struct lt_json *a,
		       const char *where, size_t *n, unsigned int depth)
{
	const struct lt_json *e, *rest;

	if (depth > 2 * MAX_CHAIN_DEPTH)
		return bad(rd, where, "\"rest\" nested too deep");
	for (e = a->child; e; e = e->next) {
		rest = e->type == LT_JSON_OBJECT ? lt_json_get(e, "rest") : NULL;
		if (rest && rest->type == LT_JSON_ARRAY) {
			if (count_chain(rd, rest, where, n, depth + 1) < 0)
				return -1;
		} else {
			(*n)++;
		}
	}
	return 0;
}

static int read_chain_into(struct reader *rd, const struct lt_json *a,
			   const char *where, bool ran, unsigned int depth,
			   struct lt_report_chain *v, size_t *i, uint64_t *sum);

/*
 * A list of nodes (@ran: ran_instead's, with no what) at @depth, its
 * "other" nodes that list the rest unfolded: the model holds every node,
 * the writer folds them again.  Each node's children add up to it.
 */
static int read_chain_list(struct reader *rd, const struct lt_json *o,
			   const char *key, const char *where, bool ran,
			   unsigned int depth, struct lt_report_chain **out,
			   size_t *nr, uint64_t *sum)
{
	const struct lt_json *a;
	size_t n = 0, i = 0;
	bool failed;
	char w[256];

	*out = NULL;
	*nr = 0;
	*sum = 0;
	a = get_array(rd, o, key, where, &failed);
	if (failed)
		return -1;
	if (!a || !a->nr)
		return 0;
	at(w, sizeof(w), where, key, -1);
	if (depth > MAX_CHAIN_DEPTH)
		return bad(rd, w, "nested deeper than a walk goes");
	if (count_chain(rd, a, w, &n, 0) < 0)
		return -1;
	*out = lt_report_alloc(rd->priv, n ? n : 1, sizeof(**out));
	if (!*out)
		return nomem(rd);
	if (read_chain_into(rd, a, w, ran, depth, *out, &i, sum) < 0)
		return -1;
	*nr = i;
	return 0;
}

static int read_chain_into(struct reader *rd, const struct lt_json *a,
			   const char *where, bool ran, unsigned int depth,
			   struct lt_report_chain *v, size_t *i, uint64_t *sum)
{
	const struct lt_json *e, *rest;
	uint64_t below;
	char w[256];
	long k = 0;

	for (e = a->child; e; e = e->next, k++) {
		struct lt_report_chain *n = &v[*i];

		at(w, sizeof(w), where, NULL, k);
		if (need_object(rd, e, w) < 0)
			return -1;
		rest = lt_json_get(e, "rest");
		if (rest && rest->type != LT_JSON_NULL) {
			uint64_t ns = 0, got = 0;
			char wr[300];

			/* "other", listing what it sums: unfolded here */
			at(wr, sizeof(wr), w, "rest", -1);
			if (rest->type != LT_JSON_ARRAY)
				return bad(rd, wr, "expected an array");
			if (get_u64(rd, e, "ns", w, &ns) < 0 ||
			    read_chain_into(rd, rest, wr, ran, depth, v, i,
					    &got) < 0)
				return -1;
			if (got != ns)
				return bad(rd, wr, "does not add up to its ns");
			*sum += got;
			continue;
		}
		n->tid = -1;
		if (get_int(rd, e, "tid", w, &n->tid) < 0 ||
		    get_str(rd, e, "comm", w, &n->comm, false) < 0 ||
		    get_u64(rd, e, "ns", w, &n->ns) < 0)
			return -1;
		if (!ran) {
			if (get_str(rd, e, "what", w, &n->what, false) < 0)
				return -1;
			if (!*n->what)
				return bad(rd, w, "a node without what");
			n->blocked = !chain_kind_name(n->what);
			if (read_chain_list(rd, e, "waited_for", w, false,
					    depth + 1, &n->children,
					    &n->nr_children, &below) < 0)
				return -1;
			if (n->nr_children && below != n->ns)
				return bad(rd, w, "its waited_for does not add "
					   "up to its ns");
		}
		*sum += n->ns;
		if (*sum < n->ns)
			return bad(rd, w, "ns overflow 64 bits");
		(*i)++;
	}
	return 0;
}

/* A row's waited_for and ran_instead (schema 1.3): within its total. */
static int read_row_chains(struct reader *rd, const struct lt_json *o,
			   const char *where, struct lt_report_row *r)
{
	uint64_t sum;
	int ret;

	ret = read_chain_list(rd, o, "waited_for", where, false, 1,
			      &r->waited_for, &r->nr_waited_for, &sum);
	if (!ret && sum > r->total_ns)
		ret = bad(rd, where, "waited_for adds up to more than the row");
	if (!ret)
		ret = read_chain_list(rd, o, "ran_instead", where, true, 1,
				      &r->ran_instead, &r->nr_ran_instead, &sum);
	if (!ret && sum > r->total_ns)
		ret = bad(rd, where, "ran_instead adds up to more than the row");
	return ret;
}

/*
 * A row's statistics, as the field table has them: all as saved but the
 * share, which read_rows() makes again.  Absent or null: 0.
 */
static int read_fields(struct reader *rd, const struct lt_json *o,
		       const char *where, struct lt_report_row *r)
{
	const struct lt_row_field *f;
	const struct lt_json *v;
	int ret;

	lt_for_each_row_field(f) {
		void *p = (char *)r + f->offset;

		if (f->merge == LT_RF_SHARE)
			continue;
		switch (f->type) {
		case LT_RF_U64:
			ret = get_u64(rd, o, f->key, where, p);
			break;
		case LT_RF_INT:
			ret = get_int(rd, o, f->key, where, p);
			break;
		default:
			ret = get_double(rd, o, f->key, where, p);
			break;
		}
		if (ret < 0)
			return -1;
	}
	/*
	 * Percentiles null: merged from a row without a histogram, so not
	 * known.  The first of them says, as the writer nulls all or none.
	 */
	lt_for_each_row_field(f) {
		if (!f->nullable)
			continue;
		v = lt_json_get(o, f->key);
		r->no_percentiles = v && v->type == LT_JSON_NULL;
		break;
	}
	return 0;
}

static int read_row(struct reader *rd, const struct lt_json *o,
		    const char *where, struct lt_report_row *r)
{
	const struct lt_json *a, *e;
	const char *kind = NULL;
	uint64_t sum = 0;
	bool failed;
	char w[256];
	unsigned int k;
	size_t i;

	if (need_object(rd, o, where) < 0 ||
	    get_str(rd, o, "reason", where, &r->reason, false) < 0 ||
	    get_str(rd, o, "argument", where, &r->argument, false) < 0 ||
	    get_str(rd, o, "kind", where, &kind, false) < 0 ||
	    read_fields(rd, o, where, r) < 0 ||
	    read_hist(rd, o, where, r) < 0)
		return -1;
	/* the names the JSON writer gives */
	for (k = 0; k < LT_CAUSE_NR && strcmp(kind, lt_cause_kind_name(k)); k++)
		;
	if (k == LT_CAUSE_NR)
		return bad(rd, at(w, sizeof(w), where, "kind", -1),
			   "not annotated, translated, function, unknown or scheduler");
	r->kind = k;

	a = get_array(rd, o, "worst", where, &failed);
	if (failed)
		return -1;
	for (e = a ? a->child : NULL; e; e = e->next) {
		struct lt_report_occurrence *oc = &r->worst[r->nr_worst];

		at(w, sizeof(w), where, "worst", r->nr_worst);
		if (r->nr_worst == LT_REPORT_WORST)
			return bad(rd, w, "more than the five worst");
		if (need_object(rd, e, w) < 0 ||
		    get_u64(rd, e, "dur_ns", w, &oc->dur_ns) < 0 ||
		    get_u64(rd, e, "end_ns", w, &oc->end_ns) < 0 ||
		    get_int(rd, e, "tid", w, &oc->tid) < 0)
			return -1;
		r->nr_worst++;
	}
	if (read_row_chains(rd, o, where, r) < 0)
		return -1;

	a = get_array(rd, o, "stacks", where, &failed);
	if (failed)
		return -1;
	if (!a || !a->nr)
		return 0;
	r->stacks = lt_report_alloc(rd->priv, a->nr, sizeof(*r->stacks));
	if (!r->stacks)
		return nomem(rd);
	for (i = 0, e = a->child; e; e = e->next, i++) {
		if (read_stack(rd, e, at(w, sizeof(w), where, "stacks", (long)i),
			       &r->stacks[i]) < 0)
			return -1;
		/* the folded writer charges the rest of the row to no stack */
		sum += r->stacks[i].total_ns;
		if (sum < r->stacks[i].total_ns || sum > r->total_ns)
			return bad(rd, w, "the stacks add up to more than the row");
	}
	r->nr_stacks = i;
	return 0;
}

static int read_rows(struct reader *rd, const struct lt_json *o, const char *key,
		     const char *where, struct lt_report_row **rows, size_t *nr)
{
	const struct lt_json *a, *e;
	uint64_t total = 0;
	bool failed;
	char w[256];
	size_t i;

	a = get_array(rd, o, key, where, &failed);
	if (failed)
		return -1;
	*nr = 0;
	*rows = NULL;
	if (!a || !a->nr)
		return 0;
	*rows = lt_report_alloc(rd->priv, a->nr, sizeof(**rows));
	if (!*rows)
		return nomem(rd);
	for (i = 0, e = a ? a->child : NULL; e; e = e->next, i++) {
		if (read_row(rd, e, at(w, sizeof(w), where, key, (long)i),
			     &(*rows)[i]) < 0)
			return -1;
		total += (*rows)[i].total_ns;
	}
	*nr = i;
	/*
	 * Shares computed again as the report computes them: the JSON's
	 * three decimals would round differently in the text's one.
	 */
	for (i = 0; i < *nr; i++)
		(*rows)[i].percent = total ? 100.0 * (double)(*rows)[i].total_ns /
					     (double)total : 0;
	return 0;
}

static int read_coverage(struct reader *rd, const struct lt_json *o,
			 const char *where, struct lt_report_coverage *c)
{
	const struct lt_json *v = lt_json_get(o, "coverage");
	char w[256], name[32];
	int k;

	if (!v || v->type == LT_JSON_NULL)
		return 0;
	at(w, sizeof(w), where, "coverage", -1);
	if (need_object(rd, v, w) < 0)
		return -1;
	/* "annotated_ns" ...: the kind's name, as the writer puts it */
	for (k = 0; k < LT_CAUSE_NR; k++) {
		snprintf(name, sizeof(name), "%s_ns", lt_cause_kind_name(k));
		if (get_u64(rd, v, name, w, &c->ns[k]) < 0)
			return -1;
	}
	return 0;
}

/* Absent from reports saved before it: none. */
static int read_uncharged_as(struct reader *rd, const struct lt_json *o,
			     const char *where, const char *key,
			     struct lt_report_uncharged *u)
{
	const struct lt_json *v = lt_json_get(o, key);
	char w[256];

	if (!v || v->type == LT_JSON_NULL)
		return 0;
	at(w, sizeof(w), where, key, -1);
	if (need_object(rd, v, w) < 0 ||
	    get_u64(rd, v, "count", w, &u->count) < 0 ||
	    get_u64(rd, v, "total_ns", w, &u->total_ns) < 0 ||
	    get_u64(rd, v, "max_ns", w, &u->max_ns) < 0)
		return -1;
	if (u->max_ns > u->total_ns || (u->count && !u->total_ns) ||
	    (!u->count && u->total_ns))
		return bad(rd, w, "count, total_ns and max_ns do not agree");
	return 0;
}

static int read_uncharged(struct reader *rd, const struct lt_json *o,
			  const char *where, struct lt_report_uncharged *u)
{
	return read_uncharged_as(rd, o, where, "user_requested", u);
}

/* "stopped": {"signal": {...}, "tracer": {...}}, schema 1.2 on */
static int read_stopped(struct reader *rd, const struct lt_json *o,
			const char *where, struct lt_report_stopped *st)
{
	const struct lt_json *v = lt_json_get(o, "stopped");
	char w[256];

	if (!v || v->type == LT_JSON_NULL)
		return 0;
	at(w, sizeof(w), where, "stopped", -1);
	if (need_object(rd, v, w) < 0 ||
	    read_uncharged_as(rd, v, w, "signal", &st->signal) < 0 ||
	    read_uncharged_as(rd, v, w, "tracer", &st->tracer) < 0)
		return -1;
	return 0;
}

static bool find_trace(const struct lt_report *r, const char *id)
{
	size_t i;

	for (i = 0; i < r->nr_traces; i++)
		if (!strcmp(r->traces[i].id, id))
			return true;
	return false;
}

static int read_process(struct reader *rd, const struct lt_json *o,
			const char *where, struct lt_report_process *p)
{
	const struct lt_json *a, *e;
	bool failed;
	char w[256];
	size_t i;

	if (need_object(rd, o, where) < 0 ||
	    get_int(rd, o, "pid", where, &p->pid) < 0 ||
	    get_str(rd, o, "trace", where, &p->trace, true) < 0 ||
	    get_u64(rd, o, "as_of_ns", where, &p->as_of_ns) < 0 ||
	    get_str(rd, o, "comm", where, &p->comm, false) < 0 ||
	    get_bool(rd, o, "kernel_thread", where, &p->kernel_thread) < 0 ||
	    get_u64(rd, o, "total_ns", where, &p->total_ns) < 0 ||
	    read_coverage(rd, o, where, &p->coverage) < 0 ||
	    read_uncharged(rd, o, where, &p->user_requested) < 0 ||
	    read_stopped(rd, o, where, &p->stopped) < 0 ||
	    read_rows(rd, o, "reasons", where, &p->rows, &p->nr_rows) < 0)
		return -1;
	for (i = 0; i < p->nr_rows; i++)
		if (p->rows[i].max_ns > p->max_ns)
			p->max_ns = p->rows[i].max_ns;
	/* a merged report's: one of its traces, or merges would mix them */
	if (p->trace && !find_trace(&rd->priv->pub, p->trace))
		return bad(rd, at(w, sizeof(w), where, "trace", -1),
			   "not the id of one of the report's traces");
	a = get_array(rd, o, "threads", where, &failed);
	if (failed)
		return -1;
	if (!a || !a->nr)
		return 0;
	p->threads = lt_report_alloc(rd->priv, a->nr, sizeof(*p->threads));
	if (!p->threads)
		return nomem(rd);
	for (i = 0, e = a ? a->child : NULL; e; e = e->next, i++) {
		struct lt_report_thread *t = &p->threads[i];

		at(w, sizeof(w), where, "threads", (long)i);
		if (need_object(rd, e, w) < 0 ||
		    get_int(rd, e, "tid", w, &t->tid) < 0 ||
		    get_str(rd, e, "comm", w, &t->comm, false) < 0 ||
		    get_u64(rd, e, "total_ns", w, &t->total_ns) < 0 ||
		    read_uncharged(rd, e, w, &t->user_requested) < 0 ||
		    read_stopped(rd, e, w, &t->stopped) < 0 ||
		    read_rows(rd, e, "reasons", w, &t->rows, &t->nr_rows) < 0)
			return -1;
	}
	p->nr_threads = i;
	return 0;
}

/* A merged report's tables per command. */
static int read_commands(struct reader *rd, const struct lt_json *o,
			 const char *where, struct lt_report_view *v)
{
	const struct lt_json *a, *e;
	bool failed;
	char w[256];
	size_t i, k;

	a = get_array(rd, o, "commands", where, &failed);
	if (failed)
		return -1;
	if (!a || !a->nr)
		return 0;
	v->commands = lt_report_alloc(rd->priv, a->nr, sizeof(*v->commands));
	if (!v->commands)
		return nomem(rd);
	for (i = 0, e = a->child; e; e = e->next, i++) {
		struct lt_report_command *c = &v->commands[i];

		at(w, sizeof(w), where, "commands", (long)i);
		if (need_object(rd, e, w) < 0 ||
		    get_str(rd, e, "comm", w, &c->comm, false) < 0 ||
		    get_bool(rd, e, "kernel_thread", w, &c->kernel_thread) < 0 ||
		    get_u64(rd, e, "processes", w, &c->processes) < 0 ||
		    get_u64(rd, e, "total_ns", w, &c->total_ns) < 0 ||
		    read_coverage(rd, e, w, &c->coverage) < 0 ||
		    read_uncharged(rd, e, w, &c->user_requested) < 0 ||
		    read_stopped(rd, e, w, &c->stopped) < 0 ||
		    read_rows(rd, e, "reasons", w, &c->rows, &c->nr_rows) < 0)
			return -1;
		for (k = 0; k < c->nr_rows; k++)
			if (c->rows[k].max_ns > c->max_ns)
				c->max_ns = c->rows[k].max_ns;
	}
	v->nr_commands = i;
	return 0;
}

static int read_view(struct reader *rd, const struct lt_json *o,
		     const char *where, struct lt_report_view *v)
{
	const struct lt_json *a, *e;
	bool failed;
	char w[256];
	size_t i;

	if (need_object(rd, o, *where ? where : "the top level") < 0 ||
	    get_u64(rd, o, "start_ns", where, &v->start_ns) < 0 ||
	    get_u64(rd, o, "end_ns", where, &v->end_ns) < 0 ||
	    get_u64(rd, o, "total_ns", where, &v->total_ns) < 0 ||
	    read_coverage(rd, o, where, &v->coverage) < 0 ||
	    read_rows(rd, o, "global", where, &v->global, &v->nr_global) < 0)
		return -1;
	if (v->end_ns < v->start_ns)
		return bad(rd, *where ? where : "end_ns", "it ends before it starts");
	a = get_array(rd, o, "processes", where, &failed);
	if (failed)
		return -1;
	if (a && a->nr) {
		v->processes = lt_report_alloc(rd->priv, a->nr,
					       sizeof(*v->processes));
		if (!v->processes)
			return nomem(rd);
		for (i = 0, e = a->child; e; e = e->next, i++)
			if (read_process(rd, e, at(w, sizeof(w), where,
						   "processes", (long)i),
					 &v->processes[i]) < 0)
				return -1;
		v->nr_processes = i;
	}
	return read_commands(rd, o, where, v);
}

/* options.pids or .tids: task ids, into *@out of *@nr */
static int read_ids(struct reader *rd, const struct lt_json *o, const char *key,
		    const int **out, size_t *nr)
{
	const struct lt_json *a, *e;
	bool failed;
	char w[64];
	size_t i;
	int *ids;

	a = get_array(rd, o, key, "options", &failed);
	if (failed)
		return -1;
	if (!a || !a->nr)
		return 0;
	ids = lt_report_alloc(rd->priv, a->nr, sizeof(*ids));
	if (!ids)
		return nomem(rd);
	for (i = 0, e = a->child; e; e = e->next, i++) {
		if (e->type != LT_JSON_NUMBER || e->num < 0 ||
		    e->num > 2147483647.0 || e->num != (double)(int)e->num)
			return bad(rd, at(w, sizeof(w), "options", key, (long)i),
				   "expected a task id");
		ids[i] = (int)e->num;
	}
	*out = ids;
	*nr = i;
	return 0;
}

/* options.pids, .tids, .comms: the tasks counted (absent: all) */
static int read_tasks(struct reader *rd, const struct lt_json *o,
		      struct lt_task_filter *f)
{
	unsigned int nr = 0;

	if (read_ids(rd, o, "pids", &f->pids, &f->nr_pids) < 0 ||
	    read_ids(rd, o, "tids", &f->tids, &f->nr_tids) < 0 ||
	    get_strs(rd, o, "comms", "options", &f->comms, &nr) < 0)
		return -1;
	f->nr_comms = nr;
	return 0;
}

static int read_options(struct reader *rd, const struct lt_json *root,
			struct lt_options *opt)
{
	static const char *const sorts[] = {
		[LT_SORT_MAX] = "max", [LT_SORT_TOTAL] = "total",
		[LT_SORT_COUNT] = "count", [LT_SORT_AVG] = "avg",
	};
	const struct lt_json *o = lt_json_get(root, "options"), *v;
	const char *sort = NULL;
	unsigned int k;
	uint64_t u;

	lt_options_init(opt);
	if (!o || o->type == LT_JSON_NULL)
		return 0;
	if (need_object(rd, o, "options") < 0 ||
	    get_str(rd, o, "sort", "options", &sort, false) < 0 ||
	    get_u64(rd, o, "sleep_cutoff_ns", "options", &opt->sleep_cutoff_ns) < 0 ||
	    get_bool(rd, o, "honour_maxtime", "options", &opt->honour_maxtime) < 0 ||
	    get_bool(rd, o, "charge_stopped", "options", &opt->charge_stopped) < 0 ||
	    get_bool(rd, o, "kernel_threads", "options", &opt->kernel_threads) < 0 ||
	    get_u64(rd, o, "window_ns", "options", &opt->window_ns) < 0)
		return -1;
	for (k = 0; k < sizeof(sorts) / sizeof(sorts[0]); k++)
		if (!strcmp(sort, sorts[k]))
			break;
	if (k < sizeof(sorts) / sizeof(sorts[0]))
		opt->sort = k;
	else if (*sort)
		return bad(rd, "options.sort", "not max, total, count or avg");
	/* from and to: null is open, -1 here */
	v = lt_json_get(o, "from_ns");
	if (v && v->type != LT_JSON_NULL) {
		u = 0;
		if (get_u64(rd, o, "from_ns", "options", &u) < 0)
			return -1;
		opt->from_ns = u > INT64_MAX ? INT64_MAX : (int64_t)u;
	}
	v = lt_json_get(o, "to_ns");
	if (v && v->type != LT_JSON_NULL) {
		u = 0;
		if (get_u64(rd, o, "to_ns", "options", &u) < 0)
			return -1;
		opt->to_ns = u > INT64_MAX ? INT64_MAX : (int64_t)u;
	}
	return read_tasks(rd, o, &opt->tasks);
}

/* trace.sources, .missing, .lost_events_per_cpu, .overruns_per_cpu */
static int read_trace_lists(struct reader *rd, const struct lt_json *t,
			    struct lt_report *r)
{
	const struct lt_json *a, *e;
	uint64_t *lost;
	int64_t *over;
	bool failed;
	char w[64];
	size_t i;

	a = get_array(rd, t, "sources", "trace", &failed);
	if (failed)
		return -1;
	if (a && a->nr) {
		r->sources = lt_report_alloc(rd->priv, a->nr, sizeof(*r->sources));
		if (!r->sources)
			return nomem(rd);
		for (i = 0, e = a->child; e; e = e->next, i++) {
			at(w, sizeof(w), "trace", "sources", (long)i);
			if (need_object(rd, e, w) < 0 ||
			    get_str(rd, e, "event", w, &r->sources[i].event, false) < 0 ||
			    get_u64(rd, e, "count", w, &r->sources[i].count) < 0)
				return -1;
		}
		r->nr_sources = i;
	}
	a = get_array(rd, t, "missing", "trace", &failed);
	if (failed)
		return -1;
	if (a && a->nr) {
		r->missing = lt_report_alloc(rd->priv, a->nr, sizeof(*r->missing));
		if (!r->missing)
			return nomem(rd);
		for (i = 0, e = a->child; e; e = e->next, i++) {
			struct lt_report_missing *m = &r->missing[i];

			at(w, sizeof(w), "trace", "missing", (long)i);
			if (need_object(rd, e, w) < 0 ||
			    get_str(rd, e, "what", w, &m->what, false) < 0 ||
			    get_str(rd, e, "effect", w, &m->effect, false) < 0 ||
			    get_str(rd, e, "option", w, &m->option, false) < 0)
				return -1;
		}
		r->nr_missing = i;
	}
	a = get_array(rd, t, "lost_events_per_cpu", "trace", &failed);
	if (failed)
		return -1;
	if (a && a->nr) {
		if (a->nr > 1u << 16)
			return bad(rd, "trace.lost_events_per_cpu", "more than 65536 CPUs");
		lost = lt_report_alloc(rd->priv, a->nr, sizeof(*lost));
		if (!lost)
			return nomem(rd);
		for (i = 0, e = a->child; e; e = e->next, i++)
			if (e->type != LT_JSON_NUMBER || !e->is_u64)
				return bad(rd, at(w, sizeof(w), "trace",
						  "lost_events_per_cpu", (long)i),
					   "expected a whole number of 0 or more");
			else
				lost[i] = e->u64;
		r->lost_per_cpu = lost;
		r->nr_lost_cpus = (int)i;
	}
	/* --partial's CPUs cut short: one per CPU, 0 where read whole */
	a = get_array(rd, t, "cpu_data_end_ns", "trace", &failed);
	if (failed)
		return -1;
	if (a && a->nr && a->nr == (size_t)r->cpus) {
		uint64_t *end = lt_report_alloc(rd->priv, a->nr, sizeof(*end));

		if (!end)
			return nomem(rd);
		for (i = 0, e = a->child; e; e = e->next, i++)
			if (e->type != LT_JSON_NUMBER || !e->is_u64)
				return bad(rd, at(w, sizeof(w), "trace",
						  "cpu_data_end_ns", (long)i),
					   "expected a whole number of 0 or more");
			else
				end[i] = e->u64;
		r->cpu_data_end = end;
	}
	/* one per CPU, null where unknown: kept only when they match cpus */
	a = get_array(rd, t, "overruns_per_cpu", "trace", &failed);
	if (failed)
		return -1;
	if (a && a->nr && a->nr == (size_t)r->cpus) {
		over = lt_report_alloc(rd->priv, a->nr, sizeof(*over));
		if (!over)
			return nomem(rd);
		for (i = 0, e = a->child; e; e = e->next, i++) {
			if (e->type == LT_JSON_NULL)
				over[i] = -1;
			else if (e->type == LT_JSON_NUMBER && e->is_u64 &&
				 e->u64 <= INT64_MAX)
				over[i] = (int64_t)e->u64;
			else
				return bad(rd, at(w, sizeof(w), "trace",
						  "overruns_per_cpu", (long)i),
					   "expected a whole number or null");
		}
		r->overrun_per_cpu = over;
	}
	return 0;
}

static int read_dropped(struct reader *rd, const struct lt_json *root,
			struct lt_report *r)
{
	const struct {
		const char *key;
		uint64_t *field;
	} f[] = {
		{ "interruptible_over_cutoff", &r->dropped_interruptible },
		{ "interruptible_over_cutoff_ns", &r->dropped_interruptible_ns },
		{ "over_maxtime", &r->dropped_maxtime },
		{ "over_maxtime_ns", &r->dropped_maxtime_ns },
		{ "began_before_trace", &r->began_before_trace },
		{ "unfinished", &r->unfinished },
		{ "no_switch_in", &r->no_switch_in },
		{ "cpu_waits_no_switch_in", &r->cpu_waits_no_switch_in },
		{ "cpu_waits_preempted_or_new", &r->cpu_waits_unwoken },
		{ "cpu_waits_preempted_or_new_ns", &r->cpu_waits_unwoken_ns },
		{ "before_complete", &r->dropped_incomplete },
		{ "before_complete_ns", &r->dropped_incomplete_ns },
		{ "across_lost_events", &r->dropped_gap },
		{ "across_lost_events_ns", &r->dropped_gap_ns },
		{ "discarded_after_lost_events", &r->discarded_lost },
		{ "stopped_by_signal", &r->stopped_signal },
		{ "stopped_by_signal_ns", &r->stopped_signal_ns },
		{ "stopped_for_tracer", &r->stopped_tracer },
		{ "stopped_for_tracer_ns", &r->stopped_tracer_ns },
		{ "unknown_state", &r->unknown_state },
		{ "unknown_state_ns", &r->unknown_state_ns },
		{ "charged_lower_bound", &r->lower_bound },
		{ "charged_lower_bound_ns", &r->lower_bound_ns },
		{ "reason_stack_resyncs", &r->resync },
		{ "unmatched_restores", &r->unmatched_restore },
		{ "inconsistent_transitions", &r->inconsistent },
		{ "unordered_timestamps", &r->unordered },
		{ "damaged_records", &r->damaged_records },
	};
	const struct lt_json *d = lt_json_get(root, "dropped");
	size_t i;

	if (!d || d->type == LT_JSON_NULL)
		return 0;
	if (need_object(rd, d, "dropped") < 0)
		return -1;
	for (i = 0; i < sizeof(f) / sizeof(f[0]); i++)
		if (get_u64(rd, d, f[i].key, "dropped", f[i].field) < 0)
			return -1;
	return 0;
}

/* A merged report's traces: ids unique and in order, as merges make them. */
static int read_traces(struct reader *rd, const struct lt_json *root,
		       struct lt_report *r)
{
	const struct lt_json *a, *e;
	bool failed;
	char w[64];
	size_t i;

	if (get_u64(rd, root, "merged_reports", "", &r->merged_reports) < 0)
		return -1;
	a = get_array(rd, root, "traces", "", &failed);
	if (failed)
		return -1;
	if (!a || !a->nr)
		return 0;
	r->traces = lt_report_alloc(rd->priv, a->nr, sizeof(*r->traces));
	if (!r->traces)
		return nomem(rd);
	for (i = 0, e = a->child; e; e = e->next, i++) {
		struct lt_report_trace *t = &r->traces[i];

		at(w, sizeof(w), "", "traces", (long)i);
		t->reports = 1;
		if (need_object(rd, e, w) < 0 ||
		    get_str(rd, e, "id", w, &t->id, false) < 0 ||
		    get_str(rd, e, "path", w, &t->path, false) < 0 ||
		    get_str(rd, e, "format", w, &t->format, false) < 0 ||
		    get_str(rd, e, "uname", w, &t->uname, false) < 0 ||
		    get_str(rd, e, "clock", w, &t->clock, false) < 0 ||
		    get_int(rd, e, "cpus", w, &t->cpus) < 0 ||
		    get_u64(rd, e, "start_ns", w, &t->start_ns) < 0 ||
		    get_u64(rd, e, "end_ns", w, &t->end_ns) < 0 ||
		    get_u64(rd, e, "events", w, &t->events) < 0 ||
		    get_u64(rd, e, "lost_events", w, &t->lost_events) < 0 ||
		    get_u64(rd, e, "reports", w, &t->reports) < 0)
			return -1;
		if (i && strcmp(r->traces[i - 1].id, t->id) >= 0)
			return bad(rd, w, "ids not unique and in ascending order");
	}
	r->nr_traces = i;
	if (!r->merged_reports)
		r->merged_reports = 1;
	return 0;
}

/*
 * "latencytop-report/1" and "latencytop-report/1.N" (minor versions only
 * add fields); another major version is a report this one cannot read,
 * which says so apart from a file that is no report at all.
 */
static int check_schema(struct reader *rd, const struct lt_json *v)
{
	static const char family[] = "latencytop-report/";
	const char *s, *p;

	if (!v || v->type != LT_JSON_STRING || strlen(v->str) != v->str_len)
		return bad(rd, "schema", "not \"" LT_REPORT_SCHEMA_MAJOR
			   "\" or \"" LT_REPORT_SCHEMA_MAJOR ".x\"");
	s = v->str;
	if (!strncmp(s, LT_REPORT_SCHEMA_MAJOR, strlen(LT_REPORT_SCHEMA_MAJOR))) {
		p = s + strlen(LT_REPORT_SCHEMA_MAJOR);
		if (!*p)
			return 0;
		if (*p++ == '.' && *p >= '0' && *p <= '9') {
			while (*p >= '0' && *p <= '9')
				p++;
			if (!*p)
				return 0;
		}
	}
	if (!strncmp(s, family, strlen(family))) {
		char shown[64];

		lt_shown_copy(shown, sizeof(shown), s);
		lt_error_set(rd->err, LT_E_SCHEMA, "%s: report schema \"%s\": this "
			     "version reads " LT_REPORT_SCHEMA_MAJOR " and its "
			     "minor versions (1.x) only", rd->path, shown);
		return -1;
	}
	return bad(rd, "schema", "not \"" LT_REPORT_SCHEMA_MAJOR "\" or \""
		   LT_REPORT_SCHEMA_MAJOR ".x\"");
}

static int read_report(struct reader *rd, const struct lt_json *root)
{
	static const char *const core[] = { "trace", "global", "processes" };
	struct lt_report *r = &rd->priv->pub;
	const struct lt_json *t, *a, *e, *schema;
	bool failed;
	char w[64];
	size_t i;

	if (need_object(rd, root, "the top level") < 0)
		return -1;
	/* what the writers print when the file does not say */
	r->path = r->uname = r->clock = "";
	r->compression = "none";
	r->format = "trace-cmd";	/* reports saved before it say none */
	schema = lt_json_get(root, "schema");
	if (check_schema(rd, schema) < 0)
		return -1;
	r->schema = lt_report_strdup(rd->priv, schema->str);
	if (!r->schema)
		return nomem(rd);
	/* the schema's core: a file without them is no report, however valid */
	for (i = 0; i < sizeof(core) / sizeof(core[0]); i++) {
		e = lt_json_get(root, core[i]);
		if (!e || e->type == LT_JSON_NULL)
			return bad(rd, core[i], "missing");
	}
	t = lt_json_get(root, "trace");
	if (need_object(rd, t, "trace") < 0 ||
	    get_str(rd, t, "id", "trace", &r->id, true) < 0 ||
	    get_str(rd, t, "path", "trace", &r->path, false) < 0 ||
	    get_str(rd, t, "format", "trace", &r->format, false) < 0 ||
	    get_int(rd, t, "file_version", "trace", &r->file_version) < 0 ||
	    get_str(rd, t, "compression", "trace", &r->compression, false) < 0 ||
	    get_str(rd, t, "buffer", "trace", &r->buffer, true) < 0 ||
	    get_str(rd, t, "other_buffers", "trace", &r->other_buffers, true) < 0 ||
	    get_str(rd, t, "uname", "trace", &r->uname, false) < 0 ||
	    get_str(rd, t, "clock", "trace", &r->clock, false) < 0 ||
	    get_int(rd, t, "cpus", "trace", &r->cpus) < 0 ||
	    get_u64(rd, t, "start_ns", "trace", &r->start_ns) < 0 ||
	    get_u64(rd, t, "end_ns", "trace", &r->end_ns) < 0 ||
	    get_u64(rd, t, "events", "trace", &r->events) < 0 ||
	    get_bool(rd, t, "stopped_at_to", "trace", &r->stopped_at_to) < 0 ||
	    get_u64(rd, t, "lost_events", "trace", &r->lost_events) < 0 ||
	    get_u64(rd, t, "lost_gaps_unknown", "trace",
		    &r->lost_gaps_unknown) < 0 ||
	    get_u64(rd, t, "lost_gaps", "trace", &r->lost_gaps) < 0 ||
	    get_u64(rd, t, "complete_from_ns", "trace",
		    &r->complete_from_ns) < 0 ||
	    get_str(rd, t, "record_hint", "trace", &r->record_hint, true) < 0 ||
	    read_trace_lists(rd, t, r) < 0)
		return -1;
	/* a report saved before 1.1: the id lt_analyze() would have given */
	if (!r->id || !*r->id) {
		char id[LT_REPORT_ID_LEN];

		r->id = lt_report_strdup(rd->priv, lt_report_id_of(r, id, sizeof(id)));
		if (!r->id)
			return nomem(rd);
	}
	if (read_dropped(rd, root, r) < 0)
		return -1;
	if (read_traces(rd, root, r) < 0)
		return -1;
	if (read_options(rd, root, &r->options) < 0 ||
	    get_bool(rd, root, "partial", "", &r->partial) < 0 ||
	    get_str(rd, root, "partial_reason", "", &r->partial_reason, false) < 0 ||
	    read_view(rd, root, "", &r->whole) < 0)
		return -1;
	if (!r->partial)
		r->partial_reason = NULL;	/* as lt_analyze() leaves it */
	else if (!*r->partial_reason)
		r->partial_reason = "the saved report does not say why";
	else	/* printed as a line on stderr too: as lt_analyze() makes it */
		lt_shown_copy((char *)r->partial_reason,
			      strlen(r->partial_reason) + 1, r->partial_reason);
	a = get_array(rd, root, "windows", "", &failed);
	if (failed)
		return -1;
	if (!a || !a->nr)
		return 0;
	r->windows = lt_report_alloc(rd->priv, a->nr, sizeof(*r->windows));
	if (!r->windows)
		return nomem(rd);
	for (i = 0, e = a ? a->child : NULL; e; e = e->next, i++)
		if (read_view(rd, e, at(w, sizeof(w), "", "windows", (long)i),
			      &r->windows[i]) < 0)
			return -1;
	r->nr_windows = i;
	return 0;
}

int lt_report_parse_json(const char *text, size_t len, const char *path,
			 struct lt_report **out, struct lt_error *err)
{
	struct lt_report_priv *priv;
	char msg[LT_ERROR_MSG_MAX / 2];
	enum lt_json_fail why;
	struct lt_json *root;
	struct reader rd;
	int ret;

	*out = NULL;
	root = lt_json_parse(text, len, msg, sizeof(msg), &why);
	if (!root) {
		if (why == LT_JSON_NOMEM)
			lt_error_set(err, LT_E_NOMEM, "%s: out of memory", path);
		else if (why == LT_JSON_LIMIT)
			lt_error_set(err, LT_E_LIMIT, "%s: %s", path, msg);
		else
			lt_error_set(err, LT_E_CORRUPT, "%s: not valid JSON: %s",
				     path, msg);
		return -1;
	}
	priv = calloc(1, sizeof(*priv));
	if (!priv) {
		lt_json_free(root);
		lt_error_set(err, LT_E_NOMEM, "%s: out of memory", path);
		return -1;
	}
	rd.priv = priv;
	rd.err = err;
	rd.path = path;
	ret = read_report(&rd, root);
	lt_json_free(root);
	if (ret < 0) {
		lt_report_free(&priv->pub);
		return -1;
	}
	*out = &priv->pub;
	return 0;
}

int lt_report_read_json(const char *path, struct lt_report **out,
			struct lt_error *err)
{
	struct stat st;
	char *text;
	FILE *f;
	size_t n;
	int ret;

	*out = NULL;
	memset(err, 0, sizeof(*err));
	f = fopen(path, "rb");
	if (!f) {
		lt_error_set(err, LT_E_IO, "%s: cannot open: %s", path, strerror(errno));
		return -1;
	}
	if (fstat(fileno(f), &st) < 0 || !S_ISREG(st.st_mode)) {
		lt_error_set(err, LT_E_IO, "%s: not a regular file", path);
		fclose(f);
		return -1;
	}
	if ((uint64_t)st.st_size > MAX_JSON_BYTES) {
		lt_error_set(err, LT_E_LIMIT, "%s: a report of %lld bytes: more "
			     "than the %u MB read", path, (long long)st.st_size,
			     MAX_JSON_BYTES >> 20);
		fclose(f);
		return -1;
	}
	text = malloc((size_t)st.st_size ? (size_t)st.st_size : 1);
	if (!text) {
		fclose(f);
		lt_error_set(err, LT_E_NOMEM, "%s: out of memory", path);
		return -1;
	}
	n = fread(text, 1, (size_t)st.st_size, f);
	if (ferror(f)) {
		lt_error_set(err, LT_E_IO, "%s: read error: %s", path, strerror(errno));
		fclose(f);
		free(text);
		return -1;
	}
	fclose(f);
	/* a byte-order mark some editors add */
	if (n >= 3 && !memcmp(text, "\xef\xbb\xbf", 3))
		ret = lt_report_parse_json(text + 3, n - 3, path, out, err);
	else
		ret = lt_report_parse_json(text, n, path, out, err);
	free(text);
	return ret;
}

bool lt_report_file_is_json(const char *path)
{
	unsigned char head[4096];
	FILE *f = fopen(path, "rb");
	uint64_t seen = 0;
	bool first = true;
	struct stat st;
	size_t n, i;
	int c = EOF;

	if (!f)
		return false;
	/* a pipe could stream white space for ever: the trace path says why */
	if (fstat(fileno(f), &st) < 0 || !S_ISREG(st.st_mode)) {
		fclose(f);
		return false;
	}
	/* however much white space a writer put first: the first other byte */
	while (c == EOF && seen < MAX_JSON_BYTES &&
	       (n = fread(head, 1, sizeof(head), f)) > 0) {
		seen += n;
		i = 0;
		if (first && n >= 3 && !memcmp(head, "\xef\xbb\xbf", 3))
			i = 3;
		first = false;
		while (i < n && (head[i] == ' ' || head[i] == '\n' ||
				 head[i] == '\r' || head[i] == '\t'))
			i++;
		if (i < n)
			c = head[i];
	}
	fclose(f);
	/* '[' too: an array is no report, and says so better as JSON */
	return c == '{' || c == '[';
}
