# SPDX-License-Identifier: GPL-2.0
# Sources of the trace.dat reader (lt-trace.h), relative to analyzer/.
set(LT_TRACE_SOURCES
	lib/util/bigmem.c
	lib/util/thread.c
	lib/tracedat/trace-read.c
	lib/tracedat/trace-file.c
	lib/tracedat/trace-decomp.c
	lib/tracedat/trace-format.c
	lib/tracedat/trace-page.c
	lib/tracedat/trace-merge.c
	lib/tracedat/trace-range.c
	lib/tracedat/trace-ksyms.c
)
