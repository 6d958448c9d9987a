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
#include <string.h>

#include <tracefs.h>

#include "rec.h"

int main(int argc, char *argv[])
{
	/* libtracefs speaks through our notes only */
	tracefs_set_loglevel(TEP_LOG_NONE);
	ltr_set_log_fn(rec_log_to_stderr, NULL);
	if (argc > 1 && !strcmp(argv[1], "doctor"))
		return rec_doctor_main(argc - 1, argv + 1);
	if (argc > 1 && !strcmp(argv[1], "probes"))
		return rec_probes_main(argc - 1, argv + 1);
	return rec_record_main(argc, argv);
}
