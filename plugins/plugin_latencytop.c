// SPDX-License-Identifier: LGPL-2.1
/*
 * plugin_latencytop - print the latencytop trace events readably.
 *
 * latency_reason_set and latency_reason_restore come from the LatencyTOP
 * annotation patches or from the latencytop_probes module (kernel/ in this
 * project).  Their own print format shows every field; this plugin prints
 *
 *   latency_reason_set:     fsync system call #ffffc90000bb3d40
 *   latency_reason_set:     Evicting inode [vda] #ffffc90000bb3c18
 *   latency_reason_set:     Waiting for event (poll) max=5000us #ffffc900...
 *   latency_reason_restore: fsync system call #ffffc90000bb3d40
 *
 * so that the reason reads first and the cookie pairing a set with its
 * restore is easy to search for.  "-O latencytop:cookie=0" drops the
 * cookie.  Events with unexpected fields are printed field by field.
 */
#include <stdio.h>
#include <string.h>

#include <event-parse.h>
#include <trace-seq.h>

static struct tep_plugin_option latencytop_options[] = {
	{
		.name = "cookie",
		.plugin_alias = "latencytop",
		.description = "Print the cookie that pairs a set with its restore",
		.set = 1,
	},
	{
		.name = NULL,
	},
};

static struct tep_plugin_option *latencytop_cookie = &latencytop_options[0];

/* A __data_loc string field, or NULL.  *len excludes the terminator. */
static const char *string_field(struct tep_event *event,
				struct tep_record *record, const char *name,
				int *len)
{
	const char *str;
	int n;

	str = tep_get_field_raw(NULL, event, name, record, &n, 0);
	if (!str || n < 0)
		return NULL;
	*len = strnlen(str, n);
	return str;
}

static int print_reason(struct trace_seq *s, struct tep_record *record,
			struct tep_event *event, int with_details)
{
	unsigned long long cookie, maxtime = 0;
	const char *reason, *arg = NULL;
	int reason_len, arg_len = 0;

	reason = string_field(event, record, "reason", &reason_len);
	if (!reason || tep_get_field_val(NULL, event, "cookie", record,
					 &cookie, 0))
		goto raw;
	if (with_details) {
		arg = string_field(event, record, "argument", &arg_len);
		if (!arg ||
		    tep_get_field_val(NULL, event, "maxtime_us", record,
				      &maxtime, 0))
			goto raw;
	}

	trace_seq_printf(s, "%.*s", reason_len, reason);
	if (arg_len)
		trace_seq_printf(s, " [%.*s]", arg_len, arg);
	if (maxtime)
		trace_seq_printf(s, " max=%lluus", maxtime);
	if (latencytop_cookie->set)
		trace_seq_printf(s, " #%llx", cookie);
	return 0;

raw:
	tep_print_fields(s, record->data, record->size, event);
	return 0;
}

static int latency_reason_set_handler(struct trace_seq *s,
				      struct tep_record *record,
				      struct tep_event *event, void *context)
{
	return print_reason(s, record, event, 1);
}

static int latency_reason_restore_handler(struct trace_seq *s,
					  struct tep_record *record,
					  struct tep_event *event,
					  void *context)
{
	return print_reason(s, record, event, 0);
}

/* Found by name (dlsym) when libtraceevent loads the plugin. */
int TEP_PLUGIN_LOADER(struct tep_handle *tep);
int TEP_PLUGIN_UNLOADER(struct tep_handle *tep);

int TEP_PLUGIN_LOADER(struct tep_handle *tep)
{
	tep_register_event_handler(tep, -1, "latencytop", "latency_reason_set",
				   latency_reason_set_handler, NULL);
	tep_register_event_handler(tep, -1, "latencytop",
				   "latency_reason_restore",
				   latency_reason_restore_handler, NULL);
	tep_plugin_add_options("latencytop", latencytop_options);
	return 0;
}

int TEP_PLUGIN_UNLOADER(struct tep_handle *tep)
{
	tep_unregister_event_handler(tep, -1, "latencytop",
				     "latency_reason_set",
				     latency_reason_set_handler, NULL);
	tep_unregister_event_handler(tep, -1, "latencytop",
				     "latency_reason_restore",
				     latency_reason_restore_handler, NULL);
	tep_plugin_remove_options(latencytop_options);
	return 0;
}
