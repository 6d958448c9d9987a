// SPDX-License-Identifier: GPL-2.0
/*
 * rec-common.c - what latency-record's commands share: their messages
 * (errors with the exit status, notes, usage errors) and the library's
 * notes on stderr.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rec.h"

const char *rec_prog = "latency-record";
bool rec_quiet;

int rec_fail(enum lt_errcode code, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", rec_prog);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return lt_error_record_status(code);
}

int rec_fail_err(const struct lt_error *err)
{
	return rec_fail(err->code, "%s", err->msg);
}

void rec_note(const char *fmt, ...)
{
	va_list ap;

	if (rec_quiet)
		return;
	fprintf(stderr, "%s: ", rec_prog);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

int rec_usage_error(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", rec_prog);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, " (see %s --help)\n", rec_prog);
	return lt_error_record_status(LT_E_USAGE);
}

int rec_cli_usage_error(const struct cli_cmd *cmd, const char *msg)
{
	return rec_usage_error("%s", msg);
}

void rec_log_to_stderr(void *ctx, enum ltr_log_level level, const char *msg)
{
	(void)ctx;
	if (level == LTR_LOG_INFO && rec_quiet)
		return;
	fprintf(stderr, "%s: %s%s\n", rec_prog,
		level == LTR_LOG_WARN ? "warning: " : "", msg);
}
