/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rec.h - latency-record's commands, and what they share (rec-common.c).
 */
#ifndef REC_H
#define REC_H

#include <stdbool.h>
#include <stdio.h>

#include "cli-opts.h"
#include "ltr.h"

extern const char *rec_prog;
extern bool rec_quiet;

/* "latency-record: MSG" on stderr; returns the exit status of @code. */
int rec_fail(enum lt_errcode code, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
int rec_fail_err(const struct lt_error *err);
/* A note on stderr (not with -q). */
void rec_note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* One line for a bad command line, and the usage exit status. */
int rec_usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* A command's options table's refusals (struct cli_cmd's usage_error). */
int rec_cli_usage_error(const struct cli_cmd *cmd, const char *msg);
/* The library's notes (ltr_set_log_fn()): warnings, and notes unless -q. */
void rec_log_to_stderr(void *ctx, enum ltr_log_level level, const char *msg);

/*
 * Record (or run one of @commands, named first); doctor and probes
 * (@prog unused: their messages start with rec_prog).  The exit status.
 */
int rec_record_main(int argc, char *argv[], const struct cli_sub *commands);
int rec_doctor_main(const char *prog, int argc, char *argv[]);
int rec_probes_main(const char *prog, int argc, char *argv[]);

#endif /* REC_H */
