// SPDX-License-Identifier: GPL-2.0
/*
 * latency-record - record a trace for latency-analyze where trace-cmd
 * record cannot run, and make the latencytop events from kprobes.
 *
 *   latency-record [OPTION]... [-- COMMAND [ARG]...]   record (rec-record.c)
 *   latency-record doctor                             what this kernel offers
 *   latency-record probes install|list|remove         kprobe latencytop events
 *
 * Each command is parse -> validate -> work -> clean up, and exits with
 * the status its failure's code has in LT_ERRORS' last column
 * (latencytop.h, latency-record(1)).
 */
#include <tracefs.h>

#include "rec.h"

static const struct cli_sub commands[] = {
	{ "doctor", "latency-record doctor", "", "what this kernel offers",
	  rec_doctor_main },
	{ "probes", "latency-record probes", "install|list|remove",
	  "kprobe latencytop events", rec_probes_main },
	{ NULL }
};

int main(int argc, char *argv[])
{
	/* libtracefs speaks through our notes only */
	tracefs_set_loglevel(TEP_LOG_NONE);
	ltr_set_log_fn(rec_log_to_stderr, NULL);
	/* doctor and probes, named first, from record's options table */
	return rec_record_main(argc, argv, commands);
}
