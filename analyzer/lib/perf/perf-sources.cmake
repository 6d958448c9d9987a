# SPDX-License-Identifier: GPL-2.0
# Sources of the perf.data reader (lt-perf.h), relative to analyzer/.  It
# uses the trace.dat reader's format parser for the tracing data, so a
# target taking these takes LT_TRACE_SOURCES too, and includes lib/perf.
set(LT_PERF_SOURCES
	lib/perf/perf-attr.c
	lib/perf/perf-feat.c
	lib/perf/perf-header.c
	lib/perf/perf-order.c
	lib/perf/perf-read.c
	lib/perf/perf-sample.c
	lib/perf/perf-src.c
	lib/perf/perf-zstd.c
)
