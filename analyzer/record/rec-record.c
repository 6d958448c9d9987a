// SPDX-License-Identifier: GPL-2.0
/*
 * rec-record.c - latency-record [OPTION]... [-- COMMAND [ARG]...]
 *
 *   parse, validate (the output can be written, the command exists)
 *   -> session: instance, events, stacks, buffers   (ltr.h)
 *   -> one reader per CPU streams pages to OUT.cpuN
 *   -> run COMMAND / wait DURATION / until Ctrl-C or SIGTERM
 *   -> stop, flush, read the stats, restore tracefs
 *   -> write OUT (ltr-dat.h), remove OUT.cpuN
 *   -> the report (latency-analyze's library), or the command for it
 *
 * Every way out after the session opened goes through one clean-up that
 * restores tracefs and removes the per-CPU files.
 */
#define _GNU_SOURCE	/* asprintf, pipe2, strsignal */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <poll.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "latencytop.h"
#include "ltr-dat.h"
#include "lt-outfile.h"
#include "rec.h"

static void usage(FILE *out, const struct cli_cmd *cmd)
{
	fprintf(out,
"Usage: %s [OPTION]... [--] [COMMAND [ARG]...]\n"
"       %s doctor\n"
"       %s probes install|list|remove [OPTION]...\n"
"Record the events latency-analyze needs through tracefs, in an instance of\n"
"its own, while COMMAND runs (or for DURATION, or until Ctrl-C), streaming\n"
"every CPU's buffer to disk so that nothing is lost; write a trace.dat that\n"
"trace-cmd and latency-analyze read, put tracefs back as it was, and print\n"
"the report.  Works where trace-cmd record cannot enable ftrace.\n"
"\n", rec_prog, rec_prog, rec_prog);
	cli_opts_help(out, cmd);
	fputs(
"\n"
"Exit status: 0 trace written, 1 invalid arguments, 2 the output cannot be\n"
"written, 3 this system cannot record (no tracefs, not root, no events),\n"
"4 tracefs busy, 5 COMMAND cannot be run, 6 out of memory, 7 tracefs\n"
"refused a setting (or could not be restored), 8 interrupted before\n"
"tracing began, 70 internal error.  COMMAND's own status is reported, not\n"
"returned.\n", out);
}

/* ---- signals ------------------------------------------------------------- */

static int self_pipe[2] = { -1, -1 };
static volatile sig_atomic_t got_signal;

static void on_signal(int sig)
{
	int e = errno;
	char byte = (char)sig;

	if (sig != SIGCHLD)
		got_signal = sig;
	(void)!write(self_pipe[1], &byte, 1);
	errno = e;
}

static int catch_signals(void)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGCHLD };
	struct sigaction sa;
	size_t i;

	if (pipe2(self_pipe, O_CLOEXEC | O_NONBLOCK) < 0)
		return -1;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = SA_RESTART;
	for (i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		sigaction(sigs[i], &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
	return 0;
}

/* ---- the per-CPU files ---------------------------------------------------- */

/* ---- the command ----------------------------------------------------------- */

/* Whether @cmd can be run: with a '/', that file; else found in $PATH. */
static bool command_found(const char *cmd)
{
	const char *path = getenv("PATH"), *p;
	char buf[4096];

	if (strchr(cmd, '/'))
		return access(cmd, X_OK) == 0;
	if (!path)
		path = "/usr/local/bin:/usr/bin:/bin";
	for (p = path; ; ) {
		size_t n = strcspn(p, ":");
		struct stat st;

		snprintf(buf, sizeof(buf), "%.*s/%s", (int)n, n ? p : ".", cmd);
		if (!stat(buf, &st) && S_ISREG(st.st_mode) && !access(buf, X_OK))
			return true;
		if (!p[n])
			return false;
		p += n + 1;
	}
}

/*
 * Start @argv; its exec's failure comes back through a close-on-exec
 * pipe as an errno.  The pid, or -1 (and *exec_errno).
 */
static pid_t start_command(char *const argv[], bool stdout_is_trace,
			   int *exec_errno)
{
	int errp[2], e = 0;
	sigset_t none;
	ssize_t r;
	pid_t pid;

	*exec_errno = 0;
	if (pipe2(errp, O_CLOEXEC) < 0) {
		*exec_errno = errno;
		return -1;
	}
	pid = fork();
	if (pid < 0) {
		*exec_errno = errno;
		close(errp[0]);
		close(errp[1]);
		return -1;
	}
	if (pid == 0) {
		sigemptyset(&none);
		sigprocmask(SIG_SETMASK, &none, NULL);
		signal(SIGPIPE, SIG_DFL);
		/* -o -: the command's output must not run into the trace */
		if (stdout_is_trace && dup2(STDERR_FILENO, STDOUT_FILENO) < 0)
			_exit(127);
		execvp(argv[0], argv);
		e = errno;
		(void)!write(errp[1], &e, sizeof(e));
		_exit(127);
	}
	close(errp[1]);
	do
		r = read(errp[0], &e, sizeof(e));
	while (r < 0 && errno == EINTR);
	close(errp[0]);
	if (r == sizeof(e)) {
		waitpid(pid, NULL, 0);
		*exec_errno = e;
		return -1;
	}
	return pid;
}

/* ---- the recording ---------------------------------------------------------- */

struct rec {
	const char *out;
	uint64_t duration_ns;
	unsigned int buffer_kb;
	enum ltr_stacks stacks;
	int schedstats;		/* 1 on, 0 never, -1 ask on a terminal */
	bool top_level, report;
	char **cmd;

	struct lt_outfile out_file;	/* a temporary until the trace is complete */
	struct ltr_journal *journal;	/* what to undo if we are killed */
	long out_jid;
	struct ltr_session *s;
	struct ltr_stream *st;
	struct ltr_meta *meta;
	struct ltr_cpu_files sink;
	struct ltr_probes *probes;
	uint64_t *missed_before;
	pid_t child;
	int child_status;
	bool child_done;
};

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static int opt_output(const struct cli_cmd *cmd, const struct cli_opt *o,
		      const char *arg)
{
	struct rec *r = o->value;

	if (!*arg)
		return cli_usage_errorf(cmd, "--output: an empty file name");
	r->out = arg;
	return 0;
}

static int opt_duration(const struct cli_cmd *cmd, const struct cli_opt *o,
			const char *arg)
{
	struct rec *r = o->value;

	if (lt_parse_duration(arg, 1000000000ull, &r->duration_ns) ||
	    !r->duration_ns)
		return cli_bad_value(cmd, "--duration", arg, "a duration such as "
				     "20s, 2m or 1.5 is needed");
	return 0;
}

/* --stacks[=HOW], and --no-stacks (no value: off) */
static int opt_stacks(const struct cli_cmd *cmd, const struct cli_opt *o,
		      const char *arg)
{
	struct rec *r = o->value;

	if (!o->argh || (arg && !strcmp(arg, "off")))
		r->stacks = LTR_STACKS_OFF;
	else if (!arg || !strcmp(arg, "switch"))
		r->stacks = LTR_STACKS_SWITCH;
	else if (!strcmp(arg, "all"))
		r->stacks = LTR_STACKS_ALL;
	else
		return cli_bad_value(cmd, "--stacks", arg, "switch, all or off");
	return 0;
}

/* -S 1, --no-schedstats 0 (the entry's defval) */
static int opt_schedstats(const struct cli_cmd *cmd, const struct cli_opt *o,
			  const char *arg)
{
	struct rec *r = o->value;

	r->schedstats = (int)o->defval;
	return 0;
}

/* -1 to go on, else the exit status to leave with. */
static int parse_args(struct rec *r, int argc, char *argv[],
		      const struct cli_sub *commands)
{
	struct cli_opt options[] = {
		CLI_CALLBACK('o', "output", r, "FILE",
			     "the trace.dat to write (default trace.dat)",
			     opt_output, .flags = CLI_OPT_FILE, .words = "dat"),
		CLI_CALLBACK('a', "duration", r, "DUR",
			     "record the whole system for DUR (30s, 2m, 1.5);\n"
			     "with COMMAND, at most that long", opt_duration),
		CLI_UINT('b', "buffer-size", &r->buffer_kb, "KB", 64, 1u << 24,
			 "kilobytes per CPU, 64 to 16777216",
			 "ring buffer per CPU (default: 16384, at most an\n"
			 "eighth of the available memory in all)"),
		CLI_CALLBACK(0, "stacks", r, "HOW",
			     "kernel stacks: switch (default: after each\n"
			     "blocking sched_switch), all (after every event,\n"
			     "as trace-cmd -T), off", opt_stacks,
			     .flags = CLI_OPT_OPTARG, .words = "switch all off"),
		CLI_CALLBACK(0, "no-stacks", r, NULL, "the same as --stacks=off",
			     opt_stacks),
		CLI_CALLBACK('S', "schedstats", r, NULL,
			     "switch kernel.sched_schedstats on for the\n"
			     "recording, off again after (asked on a terminal)",
			     opt_schedstats, .defval = 1),
		CLI_CALLBACK(0, "no-schedstats", r, NULL,
			     "never switch it on, never ask", opt_schedstats,
			     .defval = 0),
		CLI_BOOL(0, "top-level", &r->top_level,
			 "record in tracefs's top-level instance (holding\n"
			 LTR_LOCK_PATH ") instead of an instance of its own"),
		CLI_BOOL_SET(0, "no-report", &r->report, false,
			     "print the latency-analyze command, not the report"),
		CLI_BOOL('q', "quiet", &rec_quiet,
			 "no notes, only errors and the report"),
		CLI_HELP("this help;  latency-record doctor --help, "
			 "latency-record probes --help"),
		CLI_VERSION("the version"),
		CLI_END()
	};
	const struct cli_cmd cmd = {
		.prog = rec_prog, .opts = options, .subs = commands,
		.usage = usage, .usage_error = rec_cli_usage_error,
		/* COMMAND's own options are its */
		.flags = CLI_CMD_STOP_AT_OPERAND,
	};
	int ret, first;

	r->out = "trace.dat";
	r->stacks = LTR_STACKS_SWITCH;
	r->schedstats = -1;
	r->report = true;
	ret = cli_parse(&cmd, argc, argv, &first);
	if (ret >= 0)
		return ret;
	if (first < argc) {
		r->cmd = &argv[first];
		if (!command_found(r->cmd[0]))
			return rec_fail(LT_E_COMMAND, "cannot run '%s': %s",
					r->cmd[0], strchr(r->cmd[0], '/') ?
					strerror(errno) : "not found in PATH");
	}
	return -1;
}

/* Say what this recording lacks, and what it costs: once per kind. */
static void say_missing(const struct rec *r)
{
	const struct ltr_event *ev;
	size_t i, n = ltr_session_events(r->s, &ev);
	bool lt_said = false, stat_said = false;

	for (i = 0; i < n; i++) {
		const struct ltr_event *e = &ev[i];
		bool lt = !strcmp(e->system, "latencytop");
		bool st = !strncmp(e->name, "sched_stat_", 11);

		if (e->state == LTR_EVENT_ENABLED) {
			if (lt && !lt_said) {
				rec_note("latencytop events from %s", e->origin);
				lt_said = true;
			}
			continue;
		}
		if (e->state != LTR_EVENT_MISSING)
			continue;	/* failures were said as they happened */
		if ((lt && lt_said) || (st && stat_said))
			continue;
		lt_said |= lt;
		stat_said |= st;
		rec_note("not in this kernel: %s:%s%s (%s; fix: %s)", e->system,
			 lt ? "*" : e->name, st ? " (and the other sched_stat events)" : "",
			 e->cost, e->fix && *e->fix ? e->fix : "a newer kernel");
	}
	if (ltr_session_schedstats_off(r->s))
		rec_note("kernel.sched_schedstats is 0: the sched_stat events stay silent, so waits are timed from sched_switch to the wakeup (-S switches it on for the recording)");
}

/* On a terminal, ask before switching schedstats on. */
static void decide_schedstats(struct rec *r)
{
	char line[16];

	if (!ltr_session_schedstats_off(r->s) || r->schedstats == 0)
		return;
	if (r->schedstats < 0) {
		if (!isatty(STDIN_FILENO) || !isatty(STDERR_FILENO) || rec_quiet)
			return;
		fprintf(stderr,
			"%s: kernel.sched_schedstats is off; switch it on for this recording (and back off after)? [Y/n] ",
			rec_prog);
		if (!fgets(line, sizeof(line), stdin) ||
		    (line[0] != '\n' && line[0] != 'y' && line[0] != 'Y'))
			return;
	}
	ltr_session_want_schedstats(r->s, true);
}

/* Probe misses so far, to tell what this recording missed. */
static void probes_snapshot(struct rec *r, bool after)
{
	struct ltr_probe_site *sites;
	struct lt_error err;
	size_t i, n;
	uint64_t missed = 0;

	if (!after) {
		const struct ltr_event *ev;

		ltr_session_events(r->s, &ev);
		if (ev[0].state != LTR_EVENT_ENABLED || !strstr(ev[0].origin, "kprobe") ||
		    ltr_probes_scan(&r->probes, &err))
			return;
	}
	if (!r->probes || ltr_probes_profile(r->probes, &err))
		return;
	n = ltr_probes_sites(r->probes, &sites);
	if (!after) {
		r->missed_before = calloc(n, sizeof(*r->missed_before));
		for (i = 0; r->missed_before && i < n; i++)
			r->missed_before[i] = sites[i].missed_set + sites[i].missed_restore;
		return;
	}
	for (i = 0; r->missed_before && i < n; i++) {
		uint64_t m = sites[i].missed_set + sites[i].missed_restore -
			     r->missed_before[i];

		if (!m)
			continue;
		missed += m;
		rec_note("warning: %" PRIu64 " calls of %s missed their latencytop event (kretprobe maxactive %u): a wait after one may be charged to \"%s\"; reinstall with a larger --maxactive",
			 m, sites[i].symbol, sites[i].maxactive, sites[i].reason);
	}
	if (!missed)
		rec_note("no latencytop probe missed a call (kprobe_profile)");
}

/* Wait for the command, DURATION, a signal or a failed reader. */
static int wait_for_end(struct rec *r)
{
	uint64_t start = now_ns(), deadline = r->duration_ns ? start + r->duration_ns : 0;
	struct pollfd p[2];
	char buf[64];

	p[0].fd = self_pipe[0];
	p[0].events = POLLIN;
	p[1].fd = ltr_stream_failed_fd(r->st);
	p[1].events = POLLIN;
	for (;;) {
		int timeout = -1, st;

		if (r->child > 0 && !r->child_done &&
		    waitpid(r->child, &st, WNOHANG) == r->child) {
			r->child_done = true;
			r->child_status = st;
			return 0;
		}
		if (got_signal || ltr_stream_failed(r->st))
			return 0;
		if (deadline) {
			uint64_t t = now_ns();

			if (t >= deadline)
				return 0;
			timeout = (int)((deadline - t + 999999) / 1000000);
		}
		if (poll(p, 2, timeout) > 0 && (p[0].revents & POLLIN))
			while (read(self_pipe[0], buf, sizeof(buf)) > 0)
				;
	}
}

static void say_command_end(struct rec *r)
{
	int st = r->child_status;

	if (!r->cmd)
		return;
	if (!r->child_done) {
		rec_note("%s (pid %d) is still running: the recording stopped without it",
			 r->cmd[0], (int)r->child);
		return;
	}
	if (WIFEXITED(st) && WEXITSTATUS(st))
		rec_note("%s exited with status %d", r->cmd[0], WEXITSTATUS(st));
	else if (WIFSIGNALED(st))
		rec_note("%s was killed by signal %d (%s)", r->cmd[0],
			 WTERMSIG(st), strsignal(WTERMSIG(st)));
}

/* Lost events per CPU from the ring buffers' own counts. */
static uint64_t say_stats(struct rec *r, uint64_t *events)
{
	struct ltr_dat_input *in = ltr_meta_input(r->meta);
	uint64_t lost = 0;
	int cpu;

	*events = 0;
	for (cpu = 0; cpu < in->cpus; cpu++) {
		struct ltr_cpu_stats cs;
		const char *text = in->cpustats && in->cpustats[cpu] ?
				   strchr(in->cpustats[cpu], '\n') : NULL;

		if (!text || ltr_parse_cpu_stats(text + 1, &cs))
			continue;
		*events += cs.read;
		lost += cs.overrun + cs.dropped + cs.commit_overrun;
		if (cs.overrun + cs.dropped + cs.commit_overrun)
			rec_note("warning: CPU %d lost %" PRIu64 " events (overrun %" PRIu64 ", dropped %" PRIu64 "): raise --buffer-size",
				 cpu, cs.overrun + cs.dropped + cs.commit_overrun,
				 cs.overrun, cs.dropped + cs.commit_overrun);
	}
	return lost;
}

static int print_report(const char *path)
{
	struct lt_options opts;
	struct lt_report *rep;
	struct lt_error err;

	lt_options_init(&opts);
	fflush(stderr);
	if (lt_analyze(path, &opts, &rep, &err)) {
		rec_note("no report: %s (latency-analyze %s)", err.msg, path);
		return 0;
	}
	if (lt_report_write(rep, LT_FORMAT_TEXT, stdout, &err))
		rec_note("cannot write the report: %s", err.msg);
	lt_report_free(rep);
	fflush(stdout);
	return 0;
}

static int record(struct rec *r)
{
	struct ltr_stream_opts so = { 0 };
	struct ltr_config cfg;
	struct lt_error err = { 0 }, rerr;
	uint64_t t0, t1, events, lost, bytes = 0;
	int status = 0, e, cpu;
	bool restored = false;

	ltr_config_init(&cfg);
	cfg.top_level = r->top_level;
	cfg.buffer_kb = r->buffer_kb;
	cfg.stacks = r->stacks;
	cfg.journal = r->journal;
	if (catch_signals() < 0)
		return rec_fail(LT_E_INTERNAL, "pipe: %s", strerror(errno));
	if (ltr_session_open(&cfg, &r->s, &err))
		return rec_fail_err(&err);
	decide_schedstats(r);
	if (ltr_cpu_files_open(&r->sink, r->out, ltr_session_cpus(r->s),
			       r->journal, &err)) {
		status = rec_fail_err(&err);
		goto out;
	}
	if (got_signal) {
		status = rec_fail(LT_E_INTERRUPTED, "interrupted before tracing began");
		goto out;
	}
	so.pages = ltr_cpu_files_write;
	so.ctx = &r->sink;
	if (ltr_stream_start(r->s, &so, &r->st, &err) ||
	    ltr_session_start(r->s, &err) || ltr_meta_begin(r->s, &r->meta, &err)) {
		status = rec_fail_err(&err);
		goto out;
	}
	say_missing(r);
	probes_snapshot(r, false);
	rec_note("recording %d CPUs into %s (buffer %u kB per CPU, stacks %s, %s)%s",
		 ltr_session_cpus(r->s), r->out, ltr_session_buffer_kb(r->s),
		 !ltr_session_stacks_enabled(r->s) ? "off" :
		 r->stacks == LTR_STACKS_ALL ? "after every event" : "at each blocking switch",
		 ltr_session_instance_name(r->s) ? "in an instance of its own" :
		 "in the top-level instance",
		 r->cmd ? "" : r->duration_ns ? "" : ": Ctrl-C to stop");
	t0 = now_ns();
	if (r->cmd) {
		r->child = start_command(r->cmd, lt_outfile_is_stdout(r->out), &e);
		if (r->child < 0) {
			status = rec_fail(LT_E_COMMAND, "cannot run '%s': %s",
					  r->cmd[0], strerror(e));
			goto out;
		}
	}
	wait_for_end(r);
	t1 = now_ns();
	if (got_signal)
		rec_note("%s: stopping", strsignal(got_signal));
	/* SIGTERM and SIGHUP are for the command too; the terminal's SIGINT reached it */
	if (r->child > 0 && !r->child_done &&
	    (got_signal == SIGTERM || got_signal == SIGHUP))
		kill(r->child, got_signal);

	if (ltr_session_stop(r->s, &err) || ltr_stream_stop(r->st, &err)) {
		int we = atomic_load(&r->sink.error);

		if (we)
			status = rec_fail(LT_E_OUTPUT, "cannot write %s: %s (CPU %d's pages, kept in %s)",
					  r->out, strerror(we),
					  atomic_load(&r->sink.error_cpu), r->sink.dir);
		else
			status = rec_fail_err(&err);
		goto out;
	}
	if (ltr_meta_end(r->s, r->meta, &err)) {
		status = rec_fail_err(&err);
		goto out;
	}
	probes_snapshot(r, true);
	restored = true;
	if (ltr_session_restore(r->s, &rerr))
		status = rec_fail_err(&rerr);
	if (r->child > 0 && !r->child_done &&
	    waitpid(r->child, &r->child_status, WNOHANG) == r->child)
		r->child_done = true;
	say_command_end(r);

	{
		struct ltr_dat_input *in = ltr_meta_input(r->meta);

		in->page_size = (uint32_t)ltr_stream_page_size(r->st);
		in->cpu_fds = r->sink.fds;
		if (ltr_dat_write(r->out_file.fd, r->out, in, &err) ||
		    lt_outfile_commit(&r->out_file, NULL)) {
			int s2 = err.code ? rec_fail_err(&err) :
				 rec_fail(LT_E_OUTPUT, "cannot write %s: %s",
					  r->out, strerror(errno));

			status = status ? status : s2;
			goto out;
		}
	}
	for (cpu = 0; cpu < ltr_session_cpus(r->s); cpu++)
		bytes += ltr_stream_bytes(r->st, cpu);
	lost = say_stats(r, &events);
	rec_note("wrote %s: %.1f s, %" PRIu64 " events, %.1f MB of ring buffer pages, %s",
		 r->out, (double)(t1 - t0) / 1e9, events, (double)bytes / 1e6,
		 lost ? "events LOST (above)" : "no events lost");
	if (r->out_file.in_place) {
		/* standard output, a device, a FIFO: nothing to read back */
	} else if (r->report) {
		print_report(r->out);
		rec_note("again: latency-analyze %s;  browse: latency-view %s", r->out, r->out);
	} else {
		printf("latency-analyze %s\n", r->out);
	}
out:
	ltr_stream_free(r->st);
	r->st = NULL;
	if (!restored && r->s && ltr_session_restore(r->s, &rerr)) {
		int s2 = rec_fail_err(&rerr);

		status = status ? status : s2;
	}
	ltr_session_close(r->s);
	r->s = NULL;
	ltr_meta_free(r->meta);
	ltr_probes_free(r->probes);
	free(r->missed_before);
	ltr_cpu_files_close(&r->sink);
	return status;
}

int rec_record_main(int argc, char *argv[], const struct cli_sub *commands)
{
	struct ltr_journal_file jf = { NULL, LTR_UNDO_UNLINK, 0, { 0 } };
	struct lt_error err = { 0 };
	struct rec r;
	int status;

	memset(&r, 0, sizeof(r));
	r.out_file.fd = -1;
	status = parse_args(&r, argc, argv, commands);
	if (status >= 0)
		return status;
	/*
	 * The journal first: every change after it, this run's temporary
	 * files too, is written there before it is made, and undone by the
	 * next run if this one is killed (ltr.h).
	 */
	if (ltr_journal_open("latency-record", &r.journal, &err))
		return rec_fail_err(&err);
	/*
	 * Then the output: a path that cannot be written fails before
	 * tracefs is touched.  The trace goes to a temporary beside it,
	 * renamed over it when complete: an older trace there stays as it
	 * was if this one fails, and what is not a regular file (-o
	 * /dev/null, a FIFO) is written as it is, never removed.
	 */
	jf.j = r.journal;
	if (lt_outfile_open_hook(&r.out_file, r.out, ltr_journal_file_hook, &jf)) {
		status = jf.err.code ? rec_fail_err(&jf.err) :
			 rec_fail(LT_E_OUTPUT, "cannot write %s: %s", r.out,
				  strerror(errno));
	} else {
		status = record(&r);
	}
	/* after a commit, nothing: else the temporary goes, only it */
	lt_outfile_abort(&r.out_file, NULL);
	ltr_journal_done(r.journal, jf.id);
	ltr_journal_close(r.journal);
	return status;
}
