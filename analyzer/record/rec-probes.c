// SPDX-License-Identifier: GPL-2.0
/*
 * rec-probes.c - latency-record probes install|list|remove
 *
 * The latencytop events from kprobe events (ltr.h, probes.c): nothing to
 * compile, and trace-cmd record -e latencytop works as with the module.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "latencytop.h"
#include "rec.h"

static void usage(FILE *out, const struct cli_cmd *cmd)
{
	fprintf(out,
"Usage: %s probes install [--groups=LIST] [--maxactive=N] [--dry-run]\n"
"       %s probes list [--all]\n"
"       %s probes remove [--force]\n"
"Make the latencytop events (latency_reason_set and _restore) from kprobe\n"
"and kretprobe events, so that trace-cmd record -e latencytop and\n"
"latency-record record annotated causes on a stock kernel: nothing to\n"
"compile.  One probe point per function of the site table the module uses\n"
"(docs/probe-sites.md); functions this kernel inlined or lacks are skipped\n"
"and listed.  A second install adds nothing; remove takes away these two\n"
"events and leaves every other dynamic event.\n"
"\n", rec_prog, rec_prog, rec_prog);
	cli_opts_help(out, cmd);
	fputs(
"\n"
"Needs root and a kernel with CONFIG_KPROBE_EVENTS=y.  Exit status as for\n"
"recording: 0 done, 1 invalid arguments, 3 no kprobe events (or the events\n"
"exist already, from the module or the patched kernel), 4 busy.\n", out);
}

static const char *state_name(enum ltr_probe_state s)
{
	switch (s) {
	case LTR_PROBE_INSTALLED: return "installed";
	case LTR_PROBE_PARTIAL: return "partial";
	case LTR_PROBE_ABSENT: return "-";
	case LTR_PROBE_SKIPPED: return "skipped";
	}
	return "?";
}

static void print_skipped(struct ltr_probe_site *sites, size_t n,
			  const char *groups)
{
	struct lt_error err;
	size_t i;

	for (i = 0; i < n; i++)
		if (sites[i].state == LTR_PROBE_SKIPPED &&
		    ltr_probes_selected(sites[i].group, groups, &err) == 1)
			printf("skipped %s (%s, \"%s\"): %s\n", sites[i].symbol,
			       sites[i].group, sites[i].reason, sites[i].why);
}

static int do_list(struct ltr_probes *p, bool all)
{
	struct ltr_probe_site *sites;
	struct lt_error err;
	size_t i, n = ltr_probes_sites(p, &sites), installed = 0;

	if (!ltr_probes_supported(p))
		return rec_fail(LT_E_UNSUPPORTED,
				"this kernel has no kprobe events (no %s/kprobe_events: CONFIG_KPROBE_EVENTS is off)",
				ltr_probes_tracefs(p));
	if (ltr_probes_profile(p, &err))
		return rec_fail_err(&err);
	for (i = 0; i < n; i++)
		installed += sites[i].state == LTR_PROBE_INSTALLED;
	if (ltr_probes_static_events(p))
		printf("the latencytop events are the kernel's own (patched kernel or kernel/module): no probes\n");
	printf("latencytop probe events in %s: %zu of %zu sites installed\n",
	       ltr_probes_tracefs(p), installed, n);
	if (!installed && !all)
		return 0;
	printf("%-9s %-36s %-9s %9s %10s %8s  %s\n", "GROUP", "FUNCTION", "STATE",
	       "MAXACTIVE", "HITS", "MISSED", "REASON");
	for (i = 0; i < n; i++) {
		struct ltr_probe_site *s = &sites[i];

		if (!all && s->state == LTR_PROBE_ABSENT)
			continue;
		if (!all && s->state == LTR_PROBE_SKIPPED)
			continue;
		printf("%-9s %-36s %-9s %9u %10" PRIu64 " %8" PRIu64 "  %s\n",
		       s->group, s->symbol, state_name(s->state), s->maxactive,
		       s->hits_set, s->missed_set + s->missed_restore, s->reason);
	}
	print_skipped(sites, n, "all");
	return 0;
}

static int do_install(struct ltr_probes *p, const struct ltr_probes_opts *o,
		      bool dry_run)
{
	struct ltr_probe_site *sites;
	struct lt_error err;
	size_t i, n = ltr_probes_sites(p, &sites), before = 0, after = 0, wanted = 0;
	char set[512], restore[512];

	for (i = 0; i < n; i++) {
		int sel = ltr_probes_selected(sites[i].group, o->groups, &err);

		if (sel < 0)
			return rec_fail_err(&err);
		wanted += sel;
		before += sel && sites[i].state == LTR_PROBE_INSTALLED;
	}
	if (dry_run) {
		for (i = 0; i < n; i++) {
			if (ltr_probes_selected(sites[i].group, o->groups, &err) != 1 ||
			    sites[i].state == LTR_PROBE_INSTALLED ||
			    sites[i].state == LTR_PROBE_SKIPPED)
				continue;
			ltr_probe_lines(&sites[i], o->maxactive ? o->maxactive :
					ltr_probe_maxactive(&sites[i], ltr_probes_threads(p)),
					set, sizeof(set), restore, sizeof(restore));
			printf("%s\n%s\n", restore, set);
		}
		print_skipped(sites, n, o->groups);
		return 0;
	}
	if (ltr_probes_install(p, o, &err)) {
		print_skipped(sites, n, o->groups);
		return rec_fail_err(&err);
	}
	for (i = 0; i < n; i++)
		after += ltr_probes_selected(sites[i].group, o->groups, &err) == 1 &&
			 sites[i].state == LTR_PROBE_INSTALLED;
	print_skipped(sites, n, o->groups);
	if (after == before)
		rec_note("the %zu sites of --groups=%s this kernel has were installed already: nothing added",
			 after, o->groups);
	else
		rec_note("installed %zu of %zu sites (--groups=%s) as latencytop:latency_reason_set and latency_reason_restore; record with: latency-record -- COMMAND, or trace-cmd record -e latencytop ...",
			 after, wanted, o->groups);
	return 0;
}

/* what the command line of probes says, the word (install...) read apart */
static const struct cli_sub words[] = {
	{ "install" }, { "list" }, { "remove" }, { NULL }
};

int rec_probes_main(const char *prog, int argc, char *argv[])
{
	struct ltr_probes_opts o = { .groups = "default" };
	bool dry_run = false, all = false, force = false;
	const struct cli_opt options[] = {
		CLI_STRING(0, "groups", &o.groups, "LIST",
			   "install only these groups (comma separated), default\n"
			   "(all but atime) or all"),
		CLI_UINT(0, "maxactive", &o.maxactive, "N", 1, 4096, "1 to 4096",
			 "kretprobe instances per function (default: from the\n"
			 "tasks alive, 64 to 4096): calls beyond them are missed\n"
			 "and counted (list shows them)"),
		CLI_BOOL(0, "dry-run", &dry_run,
			 "print the lines install would write, write nothing"),
		CLI_BOOL(0, "all", &all,
			 "list every site of the table, not only those installed"),
		CLI_BOOL(0, "force", &force,
			 "remove even while a recording has the events enabled"),
		CLI_BOOL('q', "quiet", &rec_quiet, "no notes"),
		CLI_HELP("this help"),
		CLI_END()
	};
	const struct cli_cmd cmd = {
		.prog = rec_prog, .opts = options, .subs = words,
		.usage = usage, .usage_error = rec_cli_usage_error,
		.flags = CLI_CMD_NO_SHORT_COLUMN, .help_col = 20,
	};
	struct ltr_probes *p;
	struct lt_error err;
	const char *what;
	int first, status;

	if (argc >= 2 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help") ||
			  !strcmp(argv[1], "--completion-helper"))) {
		status = cli_parse(&cmd, argc, argv, &first);
		return status < 0 ? 0 : status;
	}
	if (argc < 2)
		return rec_usage_error("probes: install, list or remove?");
	what = argv[1];
	if (strcmp(what, "install") && strcmp(what, "list") && strcmp(what, "remove"))
		return rec_usage_error("probes: unknown command '%s' (install, list or remove)",
				       what);
	/* the options after the word */
	status = cli_parse(&cmd, argc - 1, argv + 1, &first);
	if (status >= 0)
		return status;
	first++;
	if (first < argc)
		return rec_usage_error("probes %s: unexpected argument '%s'", what,
				       argv[first]);
	if ((dry_run || o.maxactive || strcmp(o.groups, "default")) &&
	    strcmp(what, "install"))
		return rec_usage_error("probes %s: --groups, --maxactive and --dry-run are for install",
				       what);
	if ((all && strcmp(what, "list")) || (force && strcmp(what, "remove")))
		return rec_usage_error("probes %s: %s is for %s", what,
				       all ? "--all" : "--force", all ? "list" : "remove");
	if (ltr_probes_selected("sync", o.groups, &err) < 0)
		return rec_fail_err(&err);

	if (dry_run ? ltr_probes_table(&p, &err) : ltr_probes_scan(&p, &err))
		return rec_fail_err(&err);
	if (!strcmp(what, "list")) {
		status = do_list(p, all);
	} else if (!strcmp(what, "install")) {
		status = do_install(p, &o, dry_run);
	} else {
		bool had = ltr_probes_any(p);

		status = 0;
		if (ltr_probes_remove(p, force, &o, &err))
			status = rec_fail_err(&err);
		else if (had)
			rec_note("removed the latencytop probe events (other dynamic events untouched)");
		else
			rec_note("no latencytop probe events to remove");
	}
	ltr_probes_free(p);
	return status;
}
