# SPDX-License-Identifier: GPL-2.0
# Sources of the trace.dat reader (lt-trace.h), relative to analyzer/.
set(LT_TRACE_SOURCES
)
