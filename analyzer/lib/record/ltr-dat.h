/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * ltr-dat.h - writing a trace-cmd trace.dat (version 6) file.
 *
 * libtracecmd 1.3 reads trace.dat files but its public API cannot write
 * them, so latency-record has its own writer.  It knows nothing of
 * tracefs: it is given the texts a trace.dat carries (ring-buffer header
 * formats, event formats, kallsyms, printk formats, saved cmdlines,
 * options) and one file of raw ring-buffer pages per CPU, and lays them
 * out as Documentation/trace-cmd/trace-cmd.dat.v6.5.txt describes:
 *
 *   magic, "6", endianness, long size, page size
 *   header_page, header_event
 *   ftrace formats, then event formats by system
 *   kallsyms, printk formats, saved cmdlines
 *   CPU count, options (UNAME, VERSION, TRACECLOCK, a CPUSTAT per CPU)
 *   "flyrecord": each CPU's offset and size, then the trace clock
 *   each CPU's pages, page aligned
 *
 * Read back by trace-cmd report, libtracecmd and latency-analyze.
 */
#ifndef LTR_DAT_H
#define LTR_DAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ltr.h"

/* One event's format file, as tracefs prints it. */
struct ltr_dat_format {
	const char *system;	/* "ftrace" ones go to the ftrace section */
	const char *text;
	size_t len;
};

struct ltr_dat_input {
	uint32_t page_size;	/* of the ring buffer's pages (sub-buffers) */
	int long_size;		/* user space's, 4 or 8 */
	const char *header_page;
	size_t header_page_len;
	const char *header_event;
	size_t header_event_len;
	const struct ltr_dat_format *formats;	/* grouped by system or not */
	size_t nr_formats;
	const char *kallsyms;
	size_t kallsyms_len;
	const char *printk;
	size_t printk_len;
	const char *cmdlines;
	size_t cmdlines_len;
	/*
	 * The tasks' cgroups, "TID PATH\n" lines (a later line of a TID
	 * wins), in an option of latency-record's own; NULL: none.
	 */
	const char *cgroups;
	const char *uname;	/* NULL: no UNAME option */
	const char *version;	/* NULL: no VERSION option */
	const char *clock;	/* "local"; NULL: no TRACECLOCK option */
	int cpus;
	const char *const *cpustats;	/* cpus entries (NULL ones skipped) or NULL */
	const int *cpu_fds;	/* cpus files of whole pages, read from 0 */
};

/*
 * Write the trace.dat to @fd (positioned at 0, empty); @name only for
 * messages.  0, or -1 with @err (LT_E_OUTPUT: a write failed, e.g. the
 * disk is full; LT_E_USAGE: the input is inconsistent).
 */
int ltr_dat_write(int fd, const char *name, const struct ltr_dat_input *in,
		  struct lt_error *err);

/* ---- the input, read from a tracefs session ----------------------------- */

struct ltr_session;
struct ltr_meta;

/*
 * Read what stays put during a recording: the header formats and the
 * formats of the events the session enabled (and all of ftrace's).
 * After ltr_session_start().
 */
int ltr_meta_begin(struct ltr_session *s, struct ltr_meta **out,
		   struct lt_error *err);
/*
 * Read what a recording changes: kallsyms (modules loaded meanwhile),
 * saved cmdlines, printk formats and each CPU's ring-buffer stats.
 * After ltr_session_stop() and before ltr_session_restore(); live mode
 * also reads them at the start, and again at the end (what the first
 * read goes).
 */
int ltr_meta_end(struct ltr_session *s, struct ltr_meta *m,
		 struct lt_error *err);
/* The writer's input; cpu_fds are the caller's to set. */
struct ltr_dat_input *ltr_meta_input(struct ltr_meta *m);
void ltr_meta_free(struct ltr_meta *m);

#endif /* LTR_DAT_H */
