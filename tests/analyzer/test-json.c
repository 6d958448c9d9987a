// SPDX-License-Identifier: GPL-2.0
/*
 * test-json.c - the JSON reader (what latency-view opens saved reports
 * with) and the report read back from it: values, escapes, 64-bit
 * nanoseconds, errors that say where, limits, and a report's fields.
 */
#include <stdlib.h>
#include <string.h>

#include "lt-json.h"
#include "lt-report-local.h"
#include "lt-test.h"

static struct lt_json *parse(const char *text, char *msg, size_t len)
{
	return lt_json_parse(text, strlen(text), msg, len);
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
		" \"trace\": {\"path\": \"t.dat\", \"cpus\": 4, \"start_ns\": 5,"
		"  \"end_ns\": 18446744073709551000},"
		" \"options\": {\"sort\": \"total\", \"kernel_threads\": true,"
		"  \"window_ns\": 30000000000, \"from_ns\": null},"
		" \"partial\": true, \"partial_reason\": \"cut\","
		" \"start_ns\": 5, \"end_ns\": 9, \"total_ns\": 7,"
		" \"global\": [{\"reason\": \"fsync\", \"argument\": \"\","
		"  \"kind\": \"annotated\", \"count\": 2, \"max_ns\": 4, \"percent\": 57.1,"
		"  \"worst\": [{\"dur_ns\": 4, \"end_ns\": 8, \"tid\": 7}],"
		"  \"stacks\": [{\"count\": 2, \"path\": [\"fsync\"],"
		"   \"frames\": [\"a\", \"b\"]}]}],"
		" \"processes\": [{\"pid\": 7, \"comm\": \"db\", \"kernel_thread\": false,"
		"  \"reasons\": [{\"reason\": \"r\", \"kind\": \"scheduler\", \"max_ns\": 3},"
		"   {\"reason\": \"s\", \"kind\": \"unknown\", \"max_ns\": 6}],"
		"  \"threads\": [{\"tid\": 8, \"comm\": \"w\", \"reasons\": []}]}],"
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
	CHECK_U64(r->cpus, 4);
	CHECK_U64(r->end_ns, 18446744073709551000ULL);
	CHECK(r->options.sort == LT_SORT_TOTAL && r->options.kernel_threads);
	CHECK_U64(r->options.window_ns, 30000000000ULL);
	CHECK(r->options.from_ns == -1 && r->options.to_ns == -1);
	CHECK(r->partial);
	CHECK_STR(r->partial_reason, "cut");
	CHECK_U64(r->whole.total_ns, 7);
	CHECK_U64(r->whole.nr_global, 1);
	if (r->whole.nr_global == 1) {
		const struct lt_report_row *g = &r->whole.global[0];

		CHECK_STR(g->reason, "fsync");
		CHECK(g->kind == LT_CAUSE_ANNOTATED);
		CHECK_U64(g->count, 2);
		CHECK(g->percent > 57.09 && g->percent < 57.11);
		CHECK_U64(g->nr_worst, 1);
		CHECK_U64(g->worst[0].tid, 7);
		CHECK_U64(g->nr_stacks, 1);
		if (g->nr_stacks == 1) {
			CHECK_U64(g->stacks[0].nr_frames, 2);
			CHECK_STR(g->stacks[0].frames[1], "b");
			CHECK_STR(g->stacks[0].path[0], "fsync");
		}
	}
	CHECK_U64(r->whole.nr_processes, 1);
	if (r->whole.nr_processes == 1) {
		const struct lt_report_process *p = &r->whole.processes[0];

		CHECK_STR(p->comm, "db");
		CHECK_U64(p->nr_rows, 2);
		/* the longest wait of any row */
		CHECK_U64(p->max_ns, 6);
		CHECK_U64(p->nr_threads, 1);
		CHECK_STR(p->rows[1].argument, "");
	}
	CHECK_U64(r->nr_windows, 1);
	lt_report_free(r);
}

static void test_report_errors(void)
{
	static const struct {
		const char *text, *msg;
	} bad[] = {
		{ "[]", "r.json: not a latencytop report: the top level: expected an object" },
		{ "{\"schema\": \"other/2\"}",
		  "r.json: not a latencytop report: schema: not \"latencytop-report/1\"" },
		{ "{\"schema\": \"latencytop-report/1\", \"global\": [{\"count\": -1}]}",
		  "r.json: not a latencytop report: global[0].count: expected a whole number of 0 or more" },
		{ "{\"schema\": \"latencytop-report/1\", \"processes\": [{\"reasons\":"
		  " [{\"kind\": \"odd\"}]}]}",
		  "r.json: not a latencytop report: processes[0].reasons[0].kind: not annotated, translated, function, unknown or scheduler" },
		{ "{\"schema\": \"latencytop-report/1\", \"windows\": {}}",
		  "r.json: not a latencytop report: windows: expected an array" },
		{ "{\"schema\": \"latencytop-report/1\", \"global\": [{\"kind\": \"unknown\","
		  " \"worst\": [{}, {}, {}, {}, {}, {}]}]}",
		  "r.json: not a latencytop report: global[0].worst[5]: more than the five worst" },
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

int main(void)
{
	test_values();
	test_errors();
	test_report();
	test_report_errors();
	return lt_test_done("test-json");
}
