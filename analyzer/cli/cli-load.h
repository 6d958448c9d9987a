/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cli-load.h - the report latency-analyze and latency-view show: a trace
 * analysed (with the progress line), or a report saved as JSON read back.
 */
#ifndef CLI_LOAD_H
#define CLI_LOAD_H

#include <stdbool.h>

#include "latencytop.h"

/*
 * Analyse @path with @opts, or read it when it is a saved report
 * (*@saved): the options that shape an analysis cannot change one, and a
 * warning says so (unless @quiet, or @base is NULL) when they differ from
 * @base, the executable's defaults.  @progress: the progress line, when stderr is a
 * terminal.  0 with *@report, or -1 with @err set.
 */
int cli_load_report(const char *prog, const char *path,
		    struct lt_options *opts, const struct lt_options *base,
		    bool progress, bool quiet, struct lt_report **report,
		    struct lt_error *err, bool *saved);

#endif /* CLI_LOAD_H */
