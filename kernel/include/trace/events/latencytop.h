/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Latency reason events: LatencyTOP's annotations as trace events.
 *
 * A code path that may block for a reason worth naming is bracketed by
 * latency_reason_set and latency_reason_restore.  The kernel keeps no
 * accounting state; a consumer recording these events together with the
 * sched_stat_sleep/sched_stat_blocked events charges each blocked interval
 * to the outermost reason active in the blocked task.
 *
 * The cookie identifies one set/restore pair; the annotation API uses the
 * address of the caller's struct latency_entry.  It lets a consumer
 * resynchronise a task's reason stack after lost events or when a trace
 * starts inside an annotated region.
 *
 * This header builds both in-tree and out of tree (kernel/module/ in the
 * LatencyTOP-on-ftrace project), on 6.1 and on current mainline.
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM latencytop

#if !defined(_TRACE_LATENCYTOP_H) || defined(TRACE_HEADER_MULTI_READ)
#define _TRACE_LATENCYTOP_H

#include <linux/tracepoint.h>
#include <linux/types.h>

/*
 * Fill the __string() field @dst from @src.  This is __assign_str()
 * open-coded: its arguments changed in Linux 6.10, and this header is
 * shared with an out-of-tree module that builds on kernels from before
 * and after that change.  The length was fixed when the event was
 * reserved, "(null)" included.
 */
#ifndef __latencytop_assign_str
#define __latencytop_assign_str(dst, src)				\
	do {								\
		const char *__lt_src = (src);				\
		char *__lt_dst = __get_str(dst);			\
		u32 __lt_len = __get_dynamic_array_len(dst);		\
									\
		if (!__lt_src)						\
			__lt_src = "(null)";				\
		memcpy(__lt_dst, __lt_src, __lt_len - 1);		\
		__lt_dst[__lt_len - 1] = '\0';				\
	} while (0)
#endif

/*
 * latency_reason_set - a task entered an annotated region
 * @reason:	static text naming the operation ("fsync system call")
 * @argument:	optional detail splitting the reason (a lock name), or ""
 * @maxtime_us:	waits longer than this are user requested (select, futex);
 *		0 means no limit
 * @cookie:	identifies this set/restore pair
 */
TRACE_EVENT(latency_reason_set,

	TP_PROTO(const char *reason, const char *argument, u32 maxtime_us,
		 unsigned long cookie),

	TP_ARGS(reason, argument, maxtime_us, cookie),

	TP_STRUCT__entry(
		__string(reason, reason)
		__string(argument, argument)
		__field(u32, maxtime_us)
		__field(unsigned long, cookie)
	),

	TP_fast_assign(
		__latencytop_assign_str(reason, reason);
		__latencytop_assign_str(argument, argument);
		__entry->maxtime_us = maxtime_us;
		__entry->cookie = cookie;
	),

	/* Not double quotes: tracefs prints the format unescaped. */
	TP_printk("reason='%s' argument='%s' maxtime_us=%u cookie=0x%lx",
		  __get_str(reason), __get_str(argument),
		  __entry->maxtime_us, __entry->cookie)
);

/*
 * latency_reason_restore - a task left the region entered with @cookie
 * @reason:	the reason given to the matching latency_reason_set
 * @cookie:	the cookie given to the matching latency_reason_set
 */
TRACE_EVENT(latency_reason_restore,

	TP_PROTO(const char *reason, unsigned long cookie),

	TP_ARGS(reason, cookie),

	TP_STRUCT__entry(
		__string(reason, reason)
		__field(unsigned long, cookie)
	),

	TP_fast_assign(
		__latencytop_assign_str(reason, reason);
		__entry->cookie = cookie;
	),

	TP_printk("reason='%s' cookie=0x%lx",
		  __get_str(reason), __entry->cookie)
);

#endif /* _TRACE_LATENCYTOP_H */

/* This part must be outside protection */
#include <trace/define_trace.h>
