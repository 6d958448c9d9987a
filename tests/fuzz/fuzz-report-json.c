// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz-report-json.c - saved JSON reports from untrusted files (what
 * latency-view opens).  A report that reads must then write as text and
 * JSON without trouble: every pointer the reader set is used.
 */
#include <stdio.h>
#include <stdlib.h>

#include "lt-report-local.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct lt_report *rep;
	struct lt_error err;
	FILE *out;

	if (lt_report_parse_json((const char *)data, size, "fuzz", &rep, &err) < 0)
		return 0;
	out = fopen("/dev/null", "w");
	if (out) {
		lt_report_write(rep, LT_FORMAT_TEXT, out, &err);
		lt_report_write(rep, LT_FORMAT_JSON, out, &err);
		lt_report_write(rep, LT_FORMAT_CSV, out, &err);
		lt_report_write(rep, LT_FORMAT_FOLDED, out, &err);
		fclose(out);
	}
	lt_report_free(rep);
	return 0;
}
