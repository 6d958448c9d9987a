/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cli-args.h - option values both executables take, parsed and refused
 * alike: "PROG: --opt: invalid value 'x': what was expected".
 */
#ifndef CLI_ARGS_H
#define CLI_ARGS_H

#include <stdint.h>

/* "Try 'PROG --help'..."; returns the usage exit status. */
int cli_try_help(const char *prog);
/* 0 when argv[@optind] is the one operand, else says what is wrong. */
int cli_one_trace(const char *prog, int optind, int argc);
/* Say what is wrong with @val; returns the usage exit status. */
int cli_bad_arg(const char *prog, const char *opt, const char *val,
		const char *what);
/* --window: a duration above 0.  0, or the usage exit status. */
int cli_parse_window(const char *prog, const char *val, uint64_t *ns);
/* --threads: 1 to 1024.  0, or the usage exit status. */
int cli_parse_threads(const char *prog, const char *val, unsigned int *n);

#endif /* CLI_ARGS_H */
