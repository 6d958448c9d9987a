// SPDX-License-Identifier: GPL-2.0
/*
 * test-json.c - the JSON reader (what latency-view opens saved reports
 * with) and the report read back from it: values, escapes, 64-bit
 * nanoseconds, errors that say where, limits, and a report's fields.
 */
#include <stdlib.h>
#include <string.h>

#include "lt-json.h"
#include "lt-report.h"
#include "lt-test.h"

static struct lt_json *parse(const char *text, char *msg, size_t len)
{
	return lt_json_parse(text, strlen(text), msg, len, NULL);
}

static void test_values(void)
{
	const struct lt_json *v;
	struct lt_json *root;
	char msg[256];

	lt_test_case = "values";
	root = parse(" {\"a\": [1, -2.5, 1e3, true, false, null],"
		     " \"big\": 18446744073709551615, \"s\": \"x\\\"\\\\\\/\\n\\u00e9\\ud83d\\ude00\\ud800z\","
		     " \"nested\": {\"k\": {}}, \"empty\": [] } ", msg, sizeof(msg));
	CHECK(root != NULL);
	if (!root) {
		fprintf(stderr, "  %s\n", msg);
		return;
	}
	CHECK(root->type == LT_JSON_OBJECT && root->nr == 5);
	v = lt_json_get(root, "a");
	CHECK(v && v->type == LT_JSON_ARRAY && v->nr == 6);
	if (v && v->nr == 6) {
		const struct lt_json *e = v->child;

		CHECK(e->type == LT_JSON_NUMBER && e->is_u64 && e->u64 == 1);
		e = e->next;
		CHECK(e->type == LT_JSON_NUMBER && !e->is_u64 && e->num == -2.5);
		e = e->next;
		CHECK(e->type == LT_JSON_NUMBER && !e->is_u64 && e->num == 1000);
		e = e->next;
		CHECK(e->type == LT_JSON_BOOL && e->boolean);
		e = e->next;
		CHECK(e->type == LT_JSON_BOOL && !e->boolean);
		e = e->next;
		CHECK(e->type == LT_JSON_NULL && !e->next);
	}
	/* nanoseconds need every bit of 64 */
	v = lt_json_get(root, "big");
	CHECK(v && v->is_u64 && v->u64 == UINT64_MAX);
	/* escapes, a surrogate pair, a lone half as U+FFFD */
	v = lt_json_get(root, "s");
	CHECK(v && v->type == LT_JSON_STRING);
	if (v)
		CHECK_STR(v->str, "x\"\\/\n\xc3\xa9\xf0\x9f\x98\x80\xef\xbf\xbdz");
	v = lt_json_get(lt_json_get(root, "nested"), "k");
	CHECK(v && v->type == LT_JSON_OBJECT && v->nr == 0);
	CHECK(lt_json_get(root, "missing") == NULL);
	CHECK(lt_json_get(lt_json_get(root, "a"), "x") == NULL);
	lt_json_free(root);

	lt_test_case = "edges";
	/* one past 2^64-1 is a number, not an exact whole one */
	root = parse("[18446744073709551616, 0, -0]", msg, sizeof(msg));
	CHECK(root && root->nr == 3);
	if (root && root->nr == 3) {
		CHECK(!root->child->is_u64);
		CHECK(root->child->next->is_u64 && root->child->next->u64 == 0);
		CHECK(!root->child->next->next->is_u64);
	}
	lt_json_free(root);
	/* a half of a pair alone is U+FFFD and what follows it stays */
	root = parse("[\"\\ud800\\u0041\", \"\\ud800\\ud800\", \"\\udc00x\"]",
		     msg, sizeof(msg));
	CHECK(root && root->nr == 3);
	if (root && root->nr == 3) {
		CHECK_STR(root->child->str, "\xef\xbf\xbd" "A");
		CHECK_STR(root->child->next->str, "\xef\xbf\xbd\xef\xbf\xbd");
		CHECK_STR(root->child->next->next->str, "\xef\xbf\xbdx");
	}
	lt_json_free(root);
	/* the text ends at len, whatever follows in memory */
	root = lt_json_parse("[1]]", 3, msg, sizeof(msg), NULL);
	CHECK(root && root->nr == 1);
	lt_json_free(root);
	root = lt_json_parse("\"ab\"", 3, msg, sizeof(msg), NULL);
	CHECK(root == NULL);
	CHECK_STR(msg, "line 1, column 4: a string without its closing quote");
	lt_json_free(root);
	root = lt_json_parse("12345", 2, msg, sizeof(msg), NULL);
	CHECK(root && root->is_u64 && root->u64 == 12);
	lt_json_free(root);
}

static void test_errors(void)
{
	static const struct {
		const char *text, *msg;
	} bad[] = {
		{ "", "line 1, column 1: the text ends where a value should be" },
		{ "{\"a\": 1,\n  \"b\" 2}", "line 2, column 7: ':' should follow a member name" },
		{ "[1, 2", "line 1, column 6: ',' or ']' expected" },
		{ "[01]", "line 1, column 2: a number with a leading zero" },
		{ "[1.]", "line 1, column 4: no digits after a decimal point" },
		{ "\"abc", "line 1, column 5: a string without its closing quote" },
		{ "\"a\\qb\"", "line 1, column 4: an unknown escape in a string" },
		{ "\"a\tb\"", "line 1, column 3: a control character in a string" },
		{ "\"a\x1f\"", "line 1, column 3: a control character in a string" },
		{ "\"\\u12g4\"", "line 1, column 4: 'g' in a \\u escape" },
		{ "tru", "line 1, column 1: an unknown word" },
		{ "{1: 2}", "line 1, column 2: a member name should be a string" },
		{ "[] []", "line 1, column 4: more text after the value" },
		{ "-", "line 1, column 2: a number without digits" },
		{ "[1,]", "line 1, column 4: ']' where a value should be" },
	};
	char msg[256], deep[200];
	struct lt_json *v;
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		lt_test_case = bad[i].text;
		v = parse(bad[i].text, msg, sizeof(msg));
		CHECK(v == NULL);
		lt_json_free(v);
		CHECK_STR(msg, bad[i].msg);
	}
	/* 64 levels read, 65 refused: no recursion runs away */
	lt_test_case = "depth";
	memset(deep, '[', 64);
	memset(deep + 64, ']', 64);
	deep[128] = '\0';
	v = parse(deep, msg, sizeof(msg));
	CHECK(v != NULL);
	lt_json_free(v);
	memset(deep, '[', 65);
	memset(deep + 65, ']', 65);
	deep[130] = '\0';
	v = parse(deep, msg, sizeof(msg));
	CHECK(v == NULL);
	lt_json_free(v);
	CHECK_STR(msg, "line 1, column 65: nested more than 64 deep");
}

static void test_report(void)
{
	static const char text[] =
		"{\"schema\": \"latencytop-report/1\", \"future\": [1, {\"x\": 2}],"
		" \"trace\": {\"path\": \"t.dat\", \"cpus\": 2, \"start_ns\": 5,"
		"  \"end_ns\": 18446744073709551000, \"uname\": \"Linux x\","
		"  \"lost_events\": 9, \"lost_events_per_cpu\": [0, 9],"
		"  \"overruns_per_cpu\": [null, 3],"
		"  \"sources\": [{\"event\": \"sched:sched_switch\", \"count\": 40}],"
		"  \"missing\": [{\"what\": \"w\", \"effect\": \"e\", \"option\": \"-T\"}]},"
		" \"options\": {\"sort\": \"total\", \"kernel_threads\": true,"
		"  \"window_ns\": 30000000000, \"from_ns\": null, \"to_ns\": 77,"
		"  \"sleep_cutoff_ns\": 0},"
		" \"dropped\": {\"unfinished\": 20, \"damaged_records\": 1},"
		" \"partial\": true, \"partial_reason\": \"cut\","
		" \"start_ns\": 5, \"end_ns\": 9, \"total_ns\": 7,"
		" \"global\": [{\"reason\": \"fsync\", \"argument\": \"\","
		"  \"kind\": \"annotated\", \"count\": 2, \"max_ns\": 4, \"percent\": 57.1,"
		"  \"total_ns\": 7,"
		"  \"worst\": [{\"dur_ns\": 4, \"end_ns\": 8, \"tid\": 7}],"
		"  \"stacks\": [{\"count\": 2, \"path\": [\"fsync\"],"
		"   \"max_at_ns\": 8, \"frames\": [\"a\", \"b\"]}]}],"
		" \"processes\": [{\"pid\": -7, \"comm\": \"db\", \"kernel_thread\": false,"
		"  \"reasons\": [{\"reason\": \"r\", \"kind\": \"scheduler\", \"max_ns\": 3,"
		"    \"total_ns\": 1},"
		"   {\"reason\": \"s\", \"kind\": \"unknown\", \"max_ns\": 6, \"total_ns\": 3}],"
		"  \"threads\": [{\"tid\": 8, \"comm\": \"w\", \"total_ns\": 3, \"reasons\":"
		"   [{\"reason\": \"s\", \"kind\": \"unknown\", \"total_ns\": 3}]}]}],"
		" \"windows\": [{\"index\": 0, \"start_ns\": 5, \"end_ns\": 9,"
		"  \"global\": [], \"processes\": []}]}";
	struct lt_error err = { 0 };
	struct lt_report *r;

	lt_test_case = "report";
	CHECK(lt_report_parse_json(text, strlen(text), "r.json", &r, &err) == 0);
	if (!r) {
		fprintf(stderr, "  %s\n", err.msg);
		return;
	}
	CHECK_STR(r->path, "t.dat");
	CHECK_STR(r->compression, "none");
	CHECK_STR(r->uname, "Linux x");
	CHECK_U64(r->cpus, 2);
	CHECK_U64(r->end_ns, 18446744073709551000ULL);
	CHECK_U64(r->lost_events, 9);
	CHECK(r->nr_lost_cpus == 2 && r->lost_per_cpu[1] == 9);
	CHECK(r->overrun_per_cpu && r->overrun_per_cpu[0] == -1 &&
	      r->overrun_per_cpu[1] == 3);
	CHECK(r->nr_sources == 1 && r->sources[0].count == 40);
	CHECK(r->nr_missing == 1);
	if (r->nr_missing == 1)
		CHECK_STR(r->missing[0].option, "-T");
	CHECK_U64(r->unfinished, 20);
	CHECK_U64(r->damaged_records, 1);
	CHECK(r->options.sort == LT_SORT_TOTAL && r->options.kernel_threads);
	CHECK_U64(r->options.window_ns, 30000000000ULL);
	CHECK_U64(r->options.sleep_cutoff_ns, 0);
	CHECK(r->options.from_ns == -1 && r->options.to_ns == 77);
	CHECK(r->partial);
	CHECK_STR(r->partial_reason, "cut");
	CHECK_U64(r->whole.total_ns, 7);
	CHECK_U64(r->whole.nr_global, 1);
	if (r->whole.nr_global == 1) {
		const struct lt_report_row *g = &r->whole.global[0];

		CHECK_STR(g->reason, "fsync");
		CHECK(g->kind == LT_CAUSE_ANNOTATED);
		CHECK_U64(g->count, 2);
		/* shares computed again from the totals, not read */
		CHECK(g->percent == 100.0);
		CHECK_U64(g->nr_worst, 1);
		CHECK_U64(g->worst[0].tid, 7);
		CHECK_U64(g->nr_stacks, 1);
		if (g->nr_stacks == 1) {
			CHECK_U64(g->stacks[0].nr_frames, 2);
			CHECK_STR(g->stacks[0].frames[1], "b");
			CHECK_STR(g->stacks[0].path[0], "fsync");
			CHECK_U64(g->stacks[0].max_at_ns, 8);
		}
	}
	CHECK_U64(r->whole.nr_processes, 1);
	if (r->whole.nr_processes == 1) {
		const struct lt_report_process *p = &r->whole.processes[0];

		CHECK_STR(p->comm, "db");
		CHECK(p->pid == -7);	/* as a hostile trace may leave it */
		CHECK_U64(p->nr_rows, 2);
		/* the longest wait of any row */
		CHECK_U64(p->max_ns, 6);
		CHECK_U64(p->nr_threads, 1);
		if (p->nr_threads == 1) {
			CHECK_U64(p->threads[0].tid, 8);
			CHECK_STR(p->threads[0].comm, "w");
			CHECK_U64(p->threads[0].total_ns, 3);
			CHECK(p->threads[0].nr_rows == 1 &&
			      p->threads[0].rows[0].total_ns == 3);
		}
		CHECK_STR(p->rows[1].argument, "");
		CHECK(p->rows[0].percent == 25.0 && p->rows[1].percent == 75.0);
	}
	CHECK_U64(r->nr_windows, 1);
	lt_report_free(r);
}

/* A report's first members, and those without which it is none. */
#define SCHEMA		"\"schema\": \"latencytop-report/1\", "
#define HAS_TRACE	"\"trace\": {}, "
#define HAS_GLOBAL	"\"global\": [], "
#define HAS_PROCESSES	"\"processes\": [], "

/* What lt_analyze() would leave, where the file says less. */
static void test_report_defaults(void)
{
	static const char partial[] =
		"{" SCHEMA HAS_TRACE HAS_GLOBAL HAS_PROCESSES
		"\"options\": null, \"partial\": true, \"partial_reason\": null}";
	static const char whole[] =
		"{" SCHEMA HAS_TRACE HAS_GLOBAL HAS_PROCESSES
		"\"partial\": false, \"partial_reason\": \"stale\"}";
	struct lt_error err = { 0 };
	struct lt_report *r;

	lt_test_case = "defaults";
	CHECK(lt_report_parse_json(partial, strlen(partial), "p.json", &r, &err) == 0);
	if (r) {
		CHECK(r->partial);
		CHECK_STR(r->partial_reason, "the saved report does not say why");
		CHECK_STR(r->path, "");
		CHECK(r->options.sort == LT_SORT_MAX);
		CHECK(r->whole.nr_global == 0 && r->nr_windows == 0);
		lt_report_free(r);
	}
	CHECK(lt_report_parse_json(whole, strlen(whole), "w.json", &r, &err) == 0);
	if (r) {
		CHECK(!r->partial && r->partial_reason == NULL);
		lt_report_free(r);
	}
}

/*
 * Schema 1.1's histograms: read as written; a row without one (1.0) still
 * reads, and a null percentile says it is not known.  Bucket bounds by
 * hand: 992 = 31 << 5 holds 992..1023 (1000 with them), 2048 = 16 << 7
 * holds 2048..2175.
 */
#define HIST_ROW(count, max, min, buckets)				\
	"{\"kind\": \"unknown\", \"count\": " #count ", \"max_ns\": " #max \
	", \"hist\": {\"sub_buckets\": 16, \"min_ns\": " #min		\
	", \"buckets\": " buckets "}}"

static void test_report_hist(void)
{
	static const char v11[] =
		"{\"schema\": \"latencytop-report/1.1\", "
		"\"trace\": {\"id\": \"host-a\"}, " HAS_PROCESSES
		"\"global\": [" HIST_ROW(3, 2100, 1000, "[[992, 2], [2048, 1]]") ","
		" {\"kind\": \"unknown\", \"count\": 1, \"p50_ns\": null}]}";
	static const char v10a[] =
		"{" SCHEMA "\"trace\": {\"uname\": \"Linux a\", \"start_ns\": 5, "
		"\"cpus\": 2}, " HAS_GLOBAL HAS_PROCESSES "\"p\": 1}";
	static const char v10b[] =
		"{" SCHEMA "\"trace\": {\"uname\": \"Linux a\", \"start_ns\": 6, "
		"\"cpus\": 2}, " HAS_GLOBAL HAS_PROCESSES "\"p\": 1}";
	struct lt_error err = { 0 };
	struct lt_report *r, *a, *b;

	lt_test_case = "histograms";
	CHECK(lt_report_parse_json(v11, strlen(v11), "h.json", &r, &err) == 0);
	if (r) {
		const struct lt_report_row *row = &r->whole.global[0];

		CHECK_STR(r->schema, "latencytop-report/1.1");
		CHECK_STR(r->id, "host-a");
		CHECK_U64(row->nr_buckets, 2);
		if (row->nr_buckets == 2) {
			CHECK_U64(row->buckets[0].low_ns, 992);
			CHECK_U64(row->buckets[0].count, 2);
			CHECK_U64(row->buckets[1].low_ns, 2048);
			CHECK_U64(row->buckets[1].count, 1);
		}
		CHECK_U64(row->min_ns, 1000);
		CHECK(!row->no_percentiles);
		CHECK(r->whole.global[1].buckets == NULL);
		CHECK(r->whole.global[1].no_percentiles);
		lt_report_free(r);
	}

	/* a 1.0 report gets the id its trace would: the same trace, the same */
	lt_test_case = "ids of 1.0 reports";
	CHECK(lt_report_parse_json(v10a, strlen(v10a), "a.json", &a, &err) == 0);
	CHECK(lt_report_parse_json(v10a, strlen(v10a), "a2.json", &r, &err) == 0);
	CHECK(lt_report_parse_json(v10b, strlen(v10b), "b.json", &b, &err) == 0);
	if (a && b && r) {
		CHECK_U64(strlen(a->id), 16);
		CHECK_STR(a->id, r->id);
		CHECK(strcmp(a->id, b->id) != 0);
		CHECK(a->whole.nr_global == 0);
	}
	lt_report_free(a);
	lt_report_free(b);
	lt_report_free(r);

	lt_test_case = "another major version";
	{
		static const char v2[] = "{\"schema\": \"latencytop-report/2\"}";

		memset(&err, 0, sizeof(err));
		CHECK(lt_report_parse_json(v2, strlen(v2), "v2.json", &r, &err) < 0);
		CHECK_U64(err.code, LT_E_SCHEMA);
		CHECK_STR(err.msg, "v2.json: report schema \"latencytop-report/2\": "
			  "this version reads latencytop-report/1 and its minor "
			  "versions (1.x) only");
		CHECK(lt_error_exit_status(err.code) == 3);
	}
}

static void test_report_errors(void)
{
	static const struct {
		const char *text, *msg;
	} bad[] = {
		{ "[]", "r.json: not a latencytop report: the top level: expected an object" },
		{ "{\"schema\": \"other/2\"}",
		  "r.json: not a latencytop report: schema: not \"latencytop-report/1\" "
		  "or \"latencytop-report/1.x\"" },
		{ "{\"schema\": \"latencytop-report/1\"}",
		  "r.json: not a latencytop report: trace: missing" },
		{ "{" SCHEMA HAS_TRACE HAS_GLOBAL "\"processes\": null}",
		  "r.json: not a latencytop report: processes: missing" },
		{ "{" SCHEMA HAS_GLOBAL HAS_PROCESSES "\"trace\": []}",
		  "r.json: not a latencytop report: trace: expected an object" },
		{ "{" SCHEMA HAS_TRACE HAS_PROCESSES
		  "\"global\": [{\"count\": -1}]}",
		  "r.json: not a latencytop report: global[0].count: expected a whole number of 0 or more" },
		{ "{" SCHEMA HAS_TRACE HAS_GLOBAL
		  "\"processes\": [{\"reasons\": [{\"kind\": \"odd\"}]}]}",
		  "r.json: not a latencytop report: processes[0].reasons[0].kind: not annotated, translated, function, unknown or scheduler" },
		{ "{" SCHEMA HAS_TRACE HAS_GLOBAL HAS_PROCESSES
		  "\"windows\": {}}",
		  "r.json: not a latencytop report: windows: expected an array" },
		{ "{" SCHEMA HAS_TRACE HAS_PROCESSES
		  "\"global\": [{\"kind\": \"unknown\","
		  " \"worst\": [{}, {}, {}, {}, {}, {}]}]}",
		  "r.json: not a latencytop report: global[0].worst[5]: more than the five worst" },
		{ "{" SCHEMA HAS_TRACE HAS_GLOBAL HAS_PROCESSES
		  "\"start_ns\": 9, \"end_ns\": 5}",
		  "r.json: not a latencytop report: end_ns: it ends before it starts" },
		{ "{" SCHEMA HAS_TRACE HAS_PROCESSES
		  "\"global\": [{\"kind\": \"unknown\","
		  " \"total_ns\": 5, \"stacks\": [{\"total_ns\": 4}, {\"total_ns\": 2}]}]}",
		  "r.json: not a latencytop report: global[0].stacks[1]: the stacks add up to more than the row" },
		{ "{" SCHEMA HAS_TRACE HAS_GLOBAL HAS_PROCESSES
		  "\"options\": {\"sort\": \"size\"}}",
		  "r.json: not a latencytop report: options.sort: not max, total, count or avg" },
		{ "{" SCHEMA HAS_TRACE HAS_GLOBAL
		  "\"processes\": [{\"pid\": 1.5}]}",
		  "r.json: not a latencytop report: processes[0].pid: expected a whole number that fits an int" },
		/* past what a cast to an integer may be given (fuzzing) */
		{ "{" SCHEMA HAS_GLOBAL HAS_PROCESSES "\"trace\": {\"cpus\": 2.248e39}}",
		  "r.json: not a latencytop report: trace.cpus: expected a whole number that fits an int" },
		/* names are C strings: not cut short where a NUL was */
		{ "{" SCHEMA HAS_TRACE HAS_GLOBAL
		  "\"processes\": [{\"comm\": \"ab\\u0000cd\"}]}",
		  "r.json: not a latencytop report: processes[0].comm: a NUL (\\u0000) in a string" },
		{ "{" SCHEMA HAS_TRACE HAS_PROCESSES
		  "\"global\": [{\"kind\": \"unknown\", \"stacks\": [{\"frames\": [\"f\", \"\\u0000\"]}]}]}",
		  "r.json: not a latencytop report: global[0].stacks[0].frames[1]: a NUL (\\u0000) in a string" },
		/* histograms: nothing a merge would carry on unchecked */
		{ "{" SCHEMA HAS_TRACE HAS_PROCESSES "\"global\": ["
		  HIST_ROW(3, 2100, 1000, "[[1000, 2], [2048, 1]]") "]}",
		  "r.json: not a latencytop report: global[0].hist.buckets[0]: low_ns is no bucket's lower bound (16 buckets per power of two)" },
		{ "{" SCHEMA HAS_TRACE HAS_PROCESSES "\"global\": ["
		  HIST_ROW(3, 2100, 1000, "[[2048, 1], [992, 2]]") "]}",
		  "r.json: not a latencytop report: global[0].hist.buckets[1]: buckets out of ascending order" },
		{ "{" SCHEMA HAS_TRACE HAS_PROCESSES "\"global\": ["
		  HIST_ROW(3, 2100, 1000, "[[992, 3], [2048, 0]]") "]}",
		  "r.json: not a latencytop report: global[0].hist.buckets[1]: an empty bucket (only those hit are listed)" },
		{ "{" SCHEMA HAS_TRACE HAS_PROCESSES "\"global\": ["
		  HIST_ROW(4, 2100, 1000, "[[992, 2], [2048, 1]]") "]}",
		  "r.json: not a latencytop report: global[0].hist: its buckets do not add up to the row's count" },
		{ "{" SCHEMA HAS_TRACE HAS_PROCESSES "\"global\": ["
		  HIST_ROW(3, 5000, 1000, "[[992, 2], [2048, 1]]") "]}",
		  "r.json: not a latencytop report: global[0].hist: min_ns and the row's max_ns are not in its first and last buckets" },
		{ "{" SCHEMA HAS_TRACE HAS_PROCESSES "\"global\": ["
		  HIST_ROW(3, 2100, 10, "[[992, 2], [2048, 1]]") "]}",
		  "r.json: not a latencytop report: global[0].hist: min_ns and the row's max_ns are not in its first and last buckets" },
		{ "{" SCHEMA HAS_TRACE HAS_PROCESSES "\"global\": ["
		  HIST_ROW(3, 2100, 1000, "[[992, 2, 0]]") "]}",
		  "r.json: not a latencytop report: global[0].hist.buckets[0]: expected [low_ns, count]" },
		{ "{" SCHEMA HAS_TRACE HAS_PROCESSES "\"global\": ["
		  HIST_ROW(3, 2100, 1000, "[[992, 2], [2048, -1]]") "]}",
		  "r.json: not a latencytop report: global[0].hist.buckets[1]: expected two whole numbers of 0 or more" },
		{ "{" SCHEMA HAS_TRACE HAS_PROCESSES "\"global\": ["
		  HIST_ROW(2, 992, 992, "[[992, 18446744073709551615], [2048, 1]]") "]}",
		  "r.json: not a latencytop report: global[0].hist.buckets[1]: counts overflow 64 bits" },
		{ "{" SCHEMA HAS_TRACE HAS_PROCESSES "\"global\": [{\"kind\": \"unknown\","
		  " \"hist\": {\"sub_buckets\": 32, \"buckets\": []}}]}",
		  "r.json: not a latencytop report: global[0].hist: sub_buckets is not 16, the only layout read" },
		{ "{\"schema\": \"latencytop-report/1\",\n\"global\": [}",
		  "r.json: not valid JSON: line 2, column 12: '}' where a value should be" },
	};
	struct lt_error err;
	struct lt_report *r;
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		lt_test_case = bad[i].text;
		memset(&err, 0, sizeof(err));
		CHECK(lt_report_parse_json(bad[i].text, strlen(bad[i].text), "r.json",
					   &r, &err) < 0);
		CHECK(r == NULL);
		CHECK(err.code == LT_E_CORRUPT);
		CHECK_STR(err.msg, bad[i].msg);
	}
}

/*
 * How many values a text may hold grows with it (a report written with
 * short windows has millions), so that what latency-analyze writes is
 * read back; past that, a limit (exit 6), not "not JSON".
 */
static void test_value_limits(void)
{
	size_t n, i, len, per;
	struct lt_report *r;
	enum lt_json_fail why;
	struct lt_json *v;
	struct lt_error err;
	char msg[256], *text;

	/* "[0,0,...,0]": 1 value every 2 bytes, the floor holds */
	lt_test_case = "value floor";
	n = LT_JSON_MIN_VALUES;		/* the array is a value too */
	len = 2 * n + 1;
	text = malloc(len + 1);
	if (!text)
		abort();
	text[0] = '[';
	for (i = 0; i < n - 1; i++)
		memcpy(text + 1 + 2 * i, i + 2 < n ? "0," : "0]", 2);
	len = 2 * (n - 1) + 1;
	v = lt_json_parse(text, len, msg, sizeof(msg), &why);
	CHECK(v != NULL);
	CHECK_U64(v ? v->nr : 0, n - 1);
	lt_json_free(v);
	/* one more value is over it */
	memcpy(text + len - 1, ",0]", 3);
	v = lt_json_parse(text, len + 2, msg, sizeof(msg), &why);
	CHECK(v == NULL);
	CHECK_U64(why, LT_JSON_LIMIT);
	CHECK(strstr(msg, "more than 1000000 values in 2000001 bytes") != NULL);
	lt_json_free(v);
	free(text);

	/* values 8 bytes apart: 1.5 M of them, over the floor, are read */
	lt_test_case = "values with the text";
	n = LT_JSON_MIN_VALUES * 3 / 2;
	per = 8;
	len = 1 + per * n;
	text = malloc(len + 1);
	if (!text)
		abort();
	text[0] = '[';
	for (i = 0; i < n; i++)
		memcpy(text + 1 + per * i, i + 1 < n ? "0,      " : "0]      ", per);
	v = lt_json_parse(text, len, msg, sizeof(msg), &why);
	CHECK(v != NULL);
	CHECK_U64(v ? v->nr : 0, n);
	lt_json_free(v);
	/* ... and as a report: over the limit is LT_E_LIMIT, not corrupt */
	memset(&err, 0, sizeof(err));
	len = 2 * LT_JSON_MIN_VALUES + 3;
	for (i = 0; i + 1 < len; i += 2)
		memcpy(text + 1 + i, "0,", 2);
	text[len - 1] = ']';
	CHECK(lt_report_parse_json(text, len, "big.json", &r, &err) < 0);
	CHECK_U64(err.code, LT_E_LIMIT);
	CHECK(strncmp(err.msg, "big.json: line 1, column ", 25) == 0);
	free(text);
}

int main(void)
{
	test_values();
	test_errors();
	test_value_limits();
	test_report();
	test_report_defaults();
	test_report_hist();
	test_report_errors();
	return lt_test_done("report/json");
}
