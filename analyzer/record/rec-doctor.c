// SPDX-License-Identifier: GPL-2.0
/*
 * rec-doctor.c - latency-record doctor: what this kernel offers for a
 * recording, what each missing part costs, and the command that fixes it.
 *
 * It looks by doing, in a throw-away instance of its own (created and
 * removed): what a recording would enable, whether the stack trigger and
 * options/stacktrace take, and the top level's and /proc's settings by
 * reading them.  The only write outside that instance writes
 * /proc/sys/kernel/ftrace_enabled's own value back to it, to see whether
 * trace-cmd record can run here.
 *
 * First it undoes what runs that were killed left (their journals, and
 * instances of ours without one), and says what it restored.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <tracefs.h>

#include "latencytop.h"
#include "rec.h"

static int gaps;
static int restored, not_restored;

static void usage(FILE *out, const struct cli_cmd *cmd)
{
	fprintf(out,
"Usage: %s doctor\n"
"Say what this kernel offers for recording latencies: tracefs, each event\n"
"latency-analyze uses and where it would come from, schedstats, kernel\n"
"stacks, kprobe events, buffer sizes, and whether trace-cmd record can run\n"
"here; for each gap, what it costs and the command that fixes it.\n"
"Exit status: 0 a recording can be made, 3 it cannot (the lines say why).\n",
		rec_prog);
}

static void line(const char *what, const char *status, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void line(const char *what, const char *status, const char *fmt, ...)
{
	va_list ap;

	printf("%-34s %-8s ", what, status);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
}

/* One line per change a killed run left, as it is undone. */
static void note_restored(void *ctx, const char *owner, const char *what,
			  const char *path, const char *value, int error)
{
	(void)ctx;
	if (error) {
		not_restored++;
		line("leftovers", "FAILED", "%s left %s %s%s%s%s: %s", owner, what,
		     path, value ? " \"" : "", value ? value : "",
		     value ? "\"" : "", strerror(error));
		return;
	}
	restored++;
	line("leftovers", "restored", "%s left %s %s%s%s%s: undone", owner, what,
	     path, value ? " \"" : "", value ? value : "", value ? "\"" : "");
}

static void more(const char *label, const char *text)
{
	if (text && *text)
		printf("%-34s %-8s %s: %s\n", "", "", label, text);
}

static void gap(const char *what, const char *status, const char *detail,
		const char *cost, const char *fix)
{
	gaps++;
	line(what, status, "%s", detail);
	more("costs", cost);
	more("fix", fix);
}

static char *read_line(const char *path)
{
	char buf[4096];
	ssize_t n;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return NULL;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n < 0)
		return NULL;
	buf[n] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	return strdup(buf);
}

static int write_str(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC);
	ssize_t n;
	int e;

	if (fd < 0)
		return -1;
	n = write(fd, s, strlen(s));
	e = errno;
	close(fd);
	errno = e;
	return n == (ssize_t)strlen(s) ? 0 : -1;
}

static void check_trace_cmd(void)
{
	const char *path = "/proc/sys/kernel/ftrace_enabled";
	char *v = read_line(path);

	/* writing the value it has changes nothing, and is what trace-cmd does first */
	if (!v) {
		line("trace-cmd record", "?", "no %s (no function tracer)", path);
	} else if (strcmp(v, "1")) {
		line("trace-cmd record", "?", "%s is %s: trace-cmd record would switch it on",
		     path, v);
	} else if (write_str(path, "1") < 0) {
		line("trace-cmd record", "fails", "%s cannot be written (%s): trace-cmd record says \"Can't enable ftrace\"",
		     path, strerror(errno));
		more("instead", "latency-record -o trace.dat -- COMMAND (it needs no function tracer)");
	} else {
		line("trace-cmd record", "ok", "the function tracer's switch can be written");
	}
	free(v);
}

/* In the doctor's own instance: do the stack trigger and the option take? */
static void check_stacks(const char *dir)
{
	char trig[4096], opt[4096];
	bool trigger = false, option = false;

	snprintf(trig, sizeof(trig), "%s/events/sched/sched_switch/trigger", dir);
	snprintf(opt, sizeof(opt), "%s/options/stacktrace", dir);
	if (write_str(trig, "stacktrace if prev_state & 3") == 0) {
		trigger = true;
		write_str(trig, "!stacktrace if prev_state & 3");
	}
	if (write_str(opt, "1") == 0) {
		option = true;
		write_str(opt, "0");
	}
	if (trigger)
		line("kernel stacks", "ok", "the stacktrace trigger on sched_switch works: a stack per blocking switch%s",
		     option ? " (options/stacktrace too)" : "");
	else if (option)
		line("kernel stacks", "ok", "options/stacktrace works (a stack after every event); the sched_switch trigger does not");
	else
		gap("kernel stacks", "missing", "neither the stacktrace trigger nor options/stacktrace can be set",
		    "waits without a latencytop reason are \"Unknown reason\", not named from their stacks",
		    "a kernel with CONFIG_STACKTRACE=y");
}

static void check_events(struct ltr_session *s)
{
	const struct ltr_event *ev;
	size_t i, n = ltr_session_events(s, &ev);
	char what[96];

	printf("\nevents (what latency-record enables):\n");
	for (i = 0; i < n; i++) {
		const struct ltr_event *e = &ev[i];

		snprintf(what, sizeof(what), "  %s:%s", e->system, e->name);
		if (e->state != LTR_EVENT_MISSING) {
			line(what, "ok", "from %s", e->origin);
			continue;
		}
		gap(what, "missing", "not in this kernel", e->cost,
		    e->fix && *e->fix ? e->fix : "a newer kernel");
	}
	putchar('\n');
	if (!ltr_session_schedstats_exist(s))
		gap("schedstats", "missing", "no /proc/sys/kernel/sched_schedstats",
		    "the sched_stat events do not exist (see above)",
		    "a kernel built with CONFIG_SCHEDSTATS=y");
	else if (ltr_session_schedstats_off(s))
		gap("schedstats", "off", "kernel.sched_schedstats = 0: the sched_stat events stay silent",
		    "waits are timed from sched_switch to the wakeup",
		    "latency-record -S ... (on for the recording only), or sysctl kernel.sched_schedstats=1");
	else
		line("schedstats", "ok", "kernel.sched_schedstats = 1");
}

static void check_probes(void)
{
	struct ltr_probe_site *sites;
	struct ltr_probes *p;
	struct lt_error err;
	size_t i, n, inst = 0, skipped = 0;

	if (ltr_probes_scan(&p, &err)) {
		line("kprobe events", "?", "%s", err.msg);
		return;
	}
	n = ltr_probes_sites(p, &sites);
	for (i = 0; i < n; i++) {
		inst += sites[i].state == LTR_PROBE_INSTALLED;
		skipped += sites[i].state == LTR_PROBE_SKIPPED;
	}
	if (!ltr_probes_supported(p))
		gap("kprobe events", "missing", "no kprobe_events in tracefs: CONFIG_KPROBE_EVENTS is off",
		    "latency-record probes install cannot make the latencytop events",
		    "load kernel/module (CONFIG_KPROBES), boot the patched kernel, or a kernel with CONFIG_KPROBE_EVENTS=y");
	else if (ltr_probes_static_events(p))
		line("kprobe events", "ok", "available; the latencytop events are the kernel's own already");
	else if (inst)
		line("kprobe events", "ok", "%zu of %zu sites installed (latency-record probes list)",
		     inst, n);
	else
		line("kprobe events", "ok", "available, no probes installed; %zu of %zu sites can be probed (fix: latency-record probes install)",
		     n - skipped, n);
	ltr_probes_free(p);
}

int rec_doctor_main(const char *prog, int argc, char *argv[])
{
	/* no option but --help, which the usage need not list */
	const struct cli_opt options[] = {
		CLI_HELP("this help"),
		CLI_END()
	};
	const struct cli_cmd cmd = {
		.prog = rec_prog, .opts = options, .usage = usage,
		.usage_error = rec_cli_usage_error,
	};
	const char *mounted = NULL;
	char *mounted_dir;
	struct ltr_session *s = NULL;
	struct ltr_config cfg;
	struct lt_error err;
	unsigned int kb;
	char *top_kb, path[4096];
	int ret, first;

	ret = cli_parse(&cmd, argc, argv, &first);
	if (ret >= 0)
		return ret;
	if (first < argc)
		return rec_usage_error("doctor: unexpected argument '%s'",
				       argv[first]);

	printf("%s doctor: what this machine offers for recording latencies\n\n",
	       rec_prog);
	if (getenv("LT_TRACEFS") && *getenv("LT_TRACEFS")) {
		mounted = getenv("LT_TRACEFS");
		line("tracefs", "ok", "%s ($LT_TRACEFS)", mounted);
	} else if ((mounted_dir = ltr_tracefs_mounted()) != NULL) {
		/* not libtracefs's tracefs_tracing_dir(): it would mount one */
		line("tracefs", "ok", "mounted at %s", mounted_dir);
		free(mounted_dir);
	} else {
		gap("tracefs", "missing", "not mounted",
		    "latency-record mounts it for a recording (and unmounts it after), as root",
		    "mount -t tracefs nodev /sys/kernel/tracing");
	}
	if (geteuid() != 0)
		gap("permissions", "no", "not root: tracefs is root's",
		    "nothing can be recorded or checked further", "sudo latency-record doctor");
	else
		line("permissions", "ok", "root");
	if (geteuid() == 0) {
		char *tracefs = ltr_tracefs_mounted();

		ltr_restore_stale(tracefs, note_restored, NULL);
		free(tracefs);
		if (!restored && !not_restored)
			line("leftovers", "ok", "nothing left by a run that was killed (%s)",
			     ltr_journal_dir());
		else if (not_restored)
			gaps++;
	}

	ltr_config_init(&cfg);
	if (ltr_session_open(&cfg, &s, &err)) {
		gap("recording", "no", err.msg, "no recording is possible",
		    err.code == LT_E_BUSY ? "wait for the other recording" : "");
		printf("\n%d gap%s: latency-record cannot record here\n", gaps,
		       gaps == 1 ? "" : "s");
		return lt_error_record_status(err.code == LT_E_BUSY ? LT_E_BUSY :
				       LT_E_UNSUPPORTED);
	}
	if (ltr_session_instance_name(s))
		line("instances", "ok", "an instance of its own works (%s/instances/...): another tracer is not disturbed",
		     ltr_session_tracefs(s));
	else
		line("instances", "no", "no instance could be made: latency-record records in the top-level instance, holding %s",
		     LTR_LOCK_PATH);
	check_stacks(ltr_session_dir(s));
	snprintf(path, sizeof(path), "%s/buffer_size_kb", ltr_session_tracefs(s));
	top_kb = read_line(path);
	kb = ltr_buffer_kb_default(LTR_STACKS_SWITCH, ltr_session_cpus(s));
	line("buffers", "ok", "%d CPUs; top level %s kB per CPU; latency-record takes %u kB per CPU in its instance, read while it fills (-b to change)",
	     ltr_session_cpus(s), top_kb ? top_kb : "?", kb);
	free(top_kb);
	check_trace_cmd();
	check_probes();
	check_events(s);
	ltr_session_close(s);

	if (gaps)
		printf("%d gap%s (above, each with its fix); latency-record can record here: latency-record -o trace.dat -- COMMAND\n",
		       gaps, gaps == 1 ? "" : "s");
	else
		printf("no gaps: latency-record -o trace.dat -- COMMAND\n");
	return 0;
}
