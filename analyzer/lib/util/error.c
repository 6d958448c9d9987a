// SPDX-License-Identifier: LGPL-2.1
/*
 * error.c - error codes, their text and exit status, and the warning hook.
 */
#include <stdarg.h>
#include <stdio.h>

#include "latencytop.h"
#include "lt-text.h"

#define LT_ERR_MSG(name, msg, analyze, record) [LT_E_##name] = msg,
static const char *const lt_err_msgs[] = { LT_ERRORS(LT_ERR_MSG) };
#undef LT_ERR_MSG

/* a code the program never meets: it exits as for INTERNAL */
#define NA 70
#define LT_ERR_STATUS(name, msg, analyze, record) [LT_E_##name] = analyze,
static const int lt_err_status[] = { LT_ERRORS(LT_ERR_STATUS) };
#undef LT_ERR_STATUS
#define LT_ERR_STATUS(name, msg, analyze, record) [LT_E_##name] = record,
static const int lt_err_record_status[] = { LT_ERRORS(LT_ERR_STATUS) };
#undef LT_ERR_STATUS
#undef NA

const char *lt_strerror(enum lt_errcode code)
{
	if ((unsigned int)code >= LT_E_MAX)
		return "unknown error";
	return lt_err_msgs[code];
}

int lt_error_exit_status(enum lt_errcode code)
{
	if ((unsigned int)code >= LT_E_MAX)
		return lt_err_status[LT_E_INTERNAL];
	return lt_err_status[code];
}

int lt_error_record_status(enum lt_errcode code)
{
	if ((unsigned int)code >= LT_E_MAX)
		return lt_err_record_status[LT_E_INTERNAL];
	return lt_err_record_status[code];
}

void lt_error_set(struct lt_error *err, enum lt_errcode code,
		  const char *fmt, ...)
{
	va_list ap;

	if (!err)
		return;
	err->code = code;
	va_start(ap, fmt);
	vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
	va_end(ap);
	/*
	 * Messages quote the file (a compression name, a path, a saved
	 * report's text): a newline or an escape sequence from it must
	 * neither split the one line nor reach the terminal.
	 */
	lt_shown_copy(err->msg, sizeof(err->msg), err->msg);
}

static lt_warning_fn warning_fn;
static void *warning_ctx;

void lt_set_warning_fn(lt_warning_fn fn, void *ctx)
{
	warning_fn = fn;
	warning_ctx = ctx;
}

void lt_warning(const char *fmt, ...)
{
	char buf[LT_ERROR_MSG_MAX];
	va_list ap;

	if (!warning_fn)
		return;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	warning_fn(warning_ctx, lt_shown_copy(buf, sizeof(buf), buf));
}
