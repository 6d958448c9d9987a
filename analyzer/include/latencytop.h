/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * latencytop.h - the latency analyzer library.
 *
 * Replays a trace.dat recorded with trace-cmd and builds LatencyTOP's
 * tables: which task waited, how long, and why.  The library never prints
 * to stdout and never exits; problems come back as an lt_error, warnings
 * through lt_set_warning_fn().
 */
#ifndef LATENCYTOP_H
#define LATENCYTOP_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

#define LT_VERSION_STRING "0.1.0"

/*
 * Error codes.  The third column is the exit status latency-analyze uses,
 * so one table documents both.
 */
#define LT_ERRORS(_)							\
	_(OK,		"success",				0)	\
	_(USAGE,	"invalid argument",			1)	\
	_(IO,		"cannot read file",			2)	\
	_(NOT_TRACE,	"not a trace-cmd trace.dat file",	3)	\
	_(VERSION,	"unsupported trace.dat version",	3)	\
	_(COMPRESSION,	"unsupported compression",		3)	\
	_(TRUNCATED,	"trace file is truncated",		3)	\
	_(CORRUPT,	"trace file is damaged",		3)	\
	_(NO_EVENTS,	"trace has no scheduler events",	4)	\
	_(LIMIT,	"resource limit exceeded",		6)	\
	_(NOMEM,	"out of memory",			6)	\
	_(INTERNAL,	"internal error",			70)

#define LT_ERR_ENUM(name, msg, status) LT_E_##name,
enum lt_errcode { LT_ERRORS(LT_ERR_ENUM) LT_E_MAX };
#undef LT_ERR_ENUM

#define LT_ERROR_MSG_MAX 512

/* A failure: its code and one line of text naming the file, what and where. */
struct lt_error {
	enum lt_errcode code;
	char msg[LT_ERROR_MSG_MAX];
};

const char *lt_strerror(enum lt_errcode code);
/* Exit status for a failure with this code (see LT_ERRORS). */
int lt_error_exit_status(enum lt_errcode code);
void lt_error_set(struct lt_error *err, enum lt_errcode code,
		  const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* Warnings (recoverable oddities in a trace).  Default: none printed. */
typedef void (*lt_warning_fn)(void *ctx, const char *msg);
void lt_set_warning_fn(lt_warning_fn fn, void *ctx);
void lt_warning(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#ifdef __cplusplus
}
#endif

#endif /* LATENCYTOP_H */
