/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * lt-live-merge.h - the running system's ring-buffer pages, one queue per
 * CPU, merged into one stream of records in timestamp order.
 *
 * A file's CPUs are merged knowing all their records; a live reader gets
 * each CPU's pages as its reader thread reads them, and a quiet CPU sends
 * none.  So each CPU also has a watermark: the time before which all its
 * records have been queued (its reader found the buffer empty then, on
 * the "mono" trace clock).  A record goes out once every CPU with nothing
 * queued has a watermark past it: then no record can still come before
 * it.  Ties go in CPU order, as lt_trace_next() breaks them.
 *
 * A page flagged with lost events gives an LT_REC_LOST record keyed at
 * its CPU's record before it, where the gap begins: it goes out before
 * anything later, as a file's would.  A record that comes in behind what
 * went out (written after its reader last looked, stamped before) goes
 * out at once and is counted late; the replay takes it as "now".
 *
 * Readers call lt_live_merge_pages() and _drained() from their threads;
 * one consumer calls lt_live_merge_run().  Pages queued are bounded: a
 * reader waits (and its CPU's buffer fills, and the kernel counts what
 * it loses) rather than memory growing without end.
 */
#ifndef LT_LIVE_MERGE_H
#define LT_LIVE_MERGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "latencytop.h"
#include "lt-trace.h"

struct lt_live_merge;

/*
 * For @cpus CPUs, holding at most @limit bytes of pages queued (0: 64
 * MB).  Pages may be queued at once; they are decoded once
 * lt_live_merge_layout() said how.
 */
int lt_live_merge_new(int cpus, size_t limit, struct lt_live_merge **out,
		      struct lt_error *err);
/* Pages of @page_size bytes, laid out as @formats' header_page says. */
int lt_live_merge_layout(struct lt_live_merge *m, struct lt_trace *formats,
			 size_t page_size, struct lt_error *err);
void lt_live_merge_free(struct lt_live_merge *m);

/*
 * A reader's @len bytes of whole pages of @cpu, copied: 0, or ENOMEM.
 * Waits while the queue is full, unless lt_live_merge_unblock() was called.
 */
int lt_live_merge_pages(struct lt_live_merge *m, int cpu, const void *pages,
			size_t len);
/* Every record of @cpu stamped before @ts has been given. */
void lt_live_merge_drained(struct lt_live_merge *m, int cpu, uint64_t ts);
/* Readers never wait again (the end: what is queued will all be taken). */
void lt_live_merge_unblock(struct lt_live_merge *m);
/* Readable when pages or a watermark came in since the last run. */
int lt_live_merge_fd(const struct lt_live_merge *m);

/* Called for each record in order; rec->data lives until it returns. */
typedef int (*lt_live_record_fn)(void *ctx, const struct lt_record *rec);

/*
 * Hand out the records that can go out now, at most @max (0: all), each
 * to @fn; with @all, everything queued (the readers are done).  @slack is
 * taken off every watermark (a record still being written when its
 * reader looked).  The number handed out, or -1: @fn failed (its own
 * error), or out of memory (@err).
 */
int64_t lt_live_merge_run(struct lt_live_merge *m, uint64_t slack, bool all,
			  uint64_t max, lt_live_record_fn fn, void *ctx,
			  struct lt_error *err);

struct lt_live_merge_stats {
	uint64_t records;	/* handed out */
	uint64_t late;		/* of them, behind what had gone out */
	uint64_t chunks;	/* reads handed in (a page or more each) */
	uint64_t bytes;
	uint64_t damaged;	/* pages that did not decode (skipped) */
	size_t queued;		/* bytes waiting */
	size_t queued_peak;
	uint64_t waits;		/* times a reader waited for room */
	uint64_t frontier;	/* timestamp of the last record out */
};
void lt_live_merge_stats(struct lt_live_merge *m,
			 struct lt_live_merge_stats *st);
/* The first damage met, for a warning: "" if none. */
const char *lt_live_merge_damage(const struct lt_live_merge *m);

#endif /* LT_LIVE_MERGE_H */
