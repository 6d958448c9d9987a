# SPDX-License-Identifier: GPL-2.0
# Sources of the trace.dat reader (lt-trace.h), relative to analyzer/.
set(LT_TRACE_SOURCES
	lib/bigmem.c
	lib/thread.c
	lib/trace-file.c
	lib/trace-decomp.c
	lib/trace-format.c
	lib/trace-page.c
	lib/trace-merge.c
	lib/trace-range.c
	lib/trace-ksyms.c
)
