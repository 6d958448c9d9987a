// SPDX-License-Identifier: LGPL-2.1
/*
 * session.c - tracefs set-up for a recording, and its restore (ltr.h).
 *
 * A session works in an instance of its own ("latency-record.<pid>") where
 * the kernel allows one, so that another tracer on the machine is neither
 * disturbed nor disturbs it; removing the instance takes everything set in
 * it along.  Otherwise (or with cfg->top_level) it works in the top-level
 * instance, holding the project's tracefs lock, and only if nobody else is
 * tracing there.
 *
 * Every change outside the instance (and the instance itself) is pushed
 * on a journal as "write this back" before it is made, in memory and on
 * disk (journal.c: a run killed by SIGKILL is undone by the next);
 * restore pops it, newest first, and tries every entry even when one
 * fails:
 *
 *   open:   [umount tracefs] [rmdir instance | release lock]
 *   start:  tracing_on, buffer_size_kb, schedstats, each event's enable,
 *           the stack trigger or options/stacktrace, in that order
 */
#define _GNU_SOURCE	/* asprintf, pipe2, strsignal */
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <tracefs.h>

#include "record-local.h"

#define SCHEDSTATS_PATH "/proc/sys/kernel/sched_schedstats"
#define INSTANCE_PREFIX "latency-record."
/* live mode's (lt-live.h), left too by an older run killed before journals */
#define LIVE_PREFIX "latencytop-live."
/* a blocking switch: TASK_INTERRUPTIBLE (S) or TASK_UNINTERRUPTIBLE (D) */
#define STACK_TRIGGER "stacktrace if prev_state & 3"

struct want {
	const char *system, *name;
	bool required;
	const char *cost, *fix;
};

#define LT_FIX "run \"latency-record probes install\" (kprobe events), load kernel/module, or boot the patched kernel"
#define SCHEDSTAT_FIX "a kernel built with CONFIG_SCHEDSTATS=y"

/* In enable order: a restore armed before its set, so no set dangles. */
static const struct want wanted[] = {
	{ "latencytop", "latency_reason_restore", false,
	  "no annotated causes: waits are named from their kernel stacks only", LT_FIX },
	{ "latencytop", "latency_reason_set", false,
	  "no annotated causes: waits are named from their kernel stacks only", LT_FIX },
	{ "sched", "sched_stat_sleep", false,
	  "sleeps are timed from sched_switch to the wakeup, not by the scheduler",
	  SCHEDSTAT_FIX },
	{ "sched", "sched_stat_blocked", false,
	  "blocked waits are timed from sched_switch to the wakeup, not by the scheduler",
	  SCHEDSTAT_FIX },
	{ "sched", "sched_stat_iowait", false,
	  "no I/O wait share of blocked time", SCHEDSTAT_FIX },
	{ "sched", "sched_switch", true,
	  "nothing to record: every wait begins at a sched_switch",
	  "a kernel with CONFIG_TRACING=y" },
	{ "sched", "sched_wakeup", false,
	  "a wait ends at the next switch-in: no \"waiting for cpu\" row", "" },
	{ "sched", "sched_waking", false,
	  "wakeups are timed at sched_wakeup, a little late, and one another CPU queued names no waker", "" },
	{ "sched", "sched_wakeup_new", false,
	  "a new task's first wait for a CPU is not seen", "" },
	{ "sched", "sched_process_fork", false,
	  "threads and processes are told apart by saved cmdlines only", "" },
	{ "sched", "sched_process_exec", false,
	  "a name after exec shows at the task's next switch only", "" },
	{ "sched", "sched_process_exit", false,
	  "exited tasks are not known to have exited", "" },
	{ "task", "task_newtask", false,
	  "thread groups are guessed from fork events only", "" },
	{ "task", "task_rename", false,
	  "a renamed thread keeps its old name until its next switch", "" },
	{ "cgroup", "cgroup_attach_task", false,
	  "a task moved to another cgroup while recording is in the one the start or end found it in",
	  "a kernel built with CONFIG_CGROUPS=y" },
	{ "cgroup", "cgroup_transfer_tasks", false,
	  "tasks moved all at once to another cgroup while recording are in the one the start or end found them in",
	  "a kernel built with CONFIG_CGROUPS=y" },
};

#define NR_WANTED LTR_ARRAY_SIZE(wanted)

struct undo {
	enum ltr_undo kind;
	char *path;
	char *value;
	long jid;		/* in the journal on disk */
};

struct ltr_session {
	struct ltr_config cfg;
	char *tracefs;			/* the tracing directory */
	char *dir;			/* the instance's (or tracefs) */
	char *instance_name;		/* NULL: top level */
	struct tracefs_instance *inst;	/* NULL: top level */
	int lock_fd;
	int cpus;
	unsigned int buffer_kb;
	bool schedstats_exist, schedstats_on;
	bool stacks_on;
	bool started, restored;
	struct ltr_event events[NR_WANTED];
	char latencytop_fix[256];	/* what gives the latencytop events */
	struct undo *undo;
	size_t nr_undo, cap_undo;
	struct ltr_journal *journal;
	bool own_journal;
};

void ltr_config_init(struct ltr_config *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->stacks = LTR_STACKS_SWITCH;
}

static long mem_available_kb(void)
{
	char *text = ltr_read_file("/proc/meminfo", NULL);
	const char *p;
	long kb = -1;

	if (!text)
		return -1;
	p = strstr(text, "MemAvailable:");
	if (p)
		kb = strtol(p + 13, NULL, 10);
	free(text);
	return kb;
}

unsigned int ltr_buffer_kb_default(enum ltr_stacks stacks, int cpus)
{
	/*
	 * The readers drain the buffers every 100 ms (sooner when half
	 * full): the buffer only has to hold a burst, or a reader kept off
	 * its CPU.  A stack per event makes events ~5 times larger.
	 */
	unsigned int kb = stacks == LTR_STACKS_ALL ? 32768 :
			  stacks == LTR_STACKS_SWITCH ? 16384 : 8192;
	long avail = mem_available_kb();

	if (cpus < 1)
		cpus = 1;
	/* at most an eighth of what is available, in all */
	if (avail > 0 && (long)kb * cpus > avail / 8)
		kb = (unsigned int)(avail / 8 / cpus);
	return kb < 1024 ? 1024 : kb;
}

/* ---- the journal -------------------------------------------------------- */

static int push_undo(struct ltr_session *s, enum ltr_undo kind,
		     const char *path, const char *value, struct lt_error *err)
{
	struct undo *u;

	if (s->nr_undo == s->cap_undo) {
		size_t cap = s->cap_undo ? s->cap_undo * 2 : 16;

		u = realloc(s->undo, cap * sizeof(*u));
		if (!u)
			goto nomem;
		s->undo = u;
		s->cap_undo = cap;
	}
	u = &s->undo[s->nr_undo];
	u->kind = kind;
	u->path = strdup(path);
	u->value = value ? strdup(value) : NULL;
	if (!u->path || (value && !u->value)) {
		free(u->path);
		free(u->value);
		goto nomem;
	}
	/* on disk before the change is made */
	u->jid = ltr_journal_add(s->journal, kind, path, value, err);
	if (u->jid < 0) {
		free(u->path);
		free(u->value);
		return -1;
	}
	s->nr_undo++;
	return 0;
nomem:
	lt_error_set(err, LT_E_NOMEM, "out of memory");
	return -1;
}

static void pop_undo(struct ltr_session *s)
{
	s->nr_undo--;
	ltr_journal_done(s->journal, s->undo[s->nr_undo].jid);
	free(s->undo[s->nr_undo].path);
	free(s->undo[s->nr_undo].value);
}

/* A file of the session's instance: malloc'd absolute path. */
static char *ifile(const struct ltr_session *s, const char *rel)
{
	return ltr_path_join(s->dir, rel);
}

/* The file's first line, without the newline (malloc'd), or NULL. */
static char *read_line(const char *path)
{
	char *t = ltr_read_file(path, NULL);

	if (t)
		t[strcspn(t, "\n")] = '\0';
	return t;
}

/*
 * Write @value into the instance file @rel, after journaling what was
 * there (@old given, or read now).  In an instance of our own, the
 * instance's removal undoes it: no journal entry.
 */
static int set_file(struct ltr_session *s, const char *rel, const char *value,
		    const char *old, const char *what, struct lt_error *err)
{
	char *path = ifile(s, rel), *was = NULL;
	int ret = -1;

	if (!path) {
		lt_error_set(err, LT_E_NOMEM, "out of memory");
		return -1;
	}
	if (!s->inst) {
		was = old ? strdup(old) : read_line(path);
		/* "7 (expanded: 1410)": the value is what can be written back */
		if (was && !old)
			was[strcspn(was, " \t")] = '\0';
		if (!was) {
			lt_error_set(err, ltr_errno_code(errno),
				      "cannot read %s (%s): %s", path, what,
				      strerror(errno));
			goto out;
		}
		if (push_undo(s, LTR_UNDO_WRITE, path, was, err))
			goto out;
	}
	if (ltr_write_file(path, value) < 0) {
		lt_error_set(err, ltr_errno_code(errno),
			      "cannot set %s to \"%s\" (%s): %s", path, value,
			      what, strerror(errno));
		/* nothing changed: nothing to undo */
		if (!s->inst)
			pop_undo(s);
		goto out;
	}
	ret = 0;
out:
	free(was);
	free(path);
	return ret;
}

/* Write @value into the instance file @rel, not to be undone. */
static int write_rel(struct ltr_session *s, const char *rel, const char *value,
		     const char *what, struct lt_error *err)
{
	char *path = ifile(s, rel);

	if (!path) {
		lt_error_set(err, LT_E_NOMEM, "out of memory");
		return -1;
	}
	if (ltr_write_file(path, value) < 0) {
		lt_error_set(err, ltr_errno_code(errno),
			      "cannot set %s to \"%s\" (%s): %s", path, value,
			      what, strerror(errno));
		free(path);
		return -1;
	}
	free(path);
	return 0;
}

/* ---- open --------------------------------------------------------------- */

static int count_cpus(const char *dir)
{
	char *pc = ltr_path_join(dir, "per_cpu");
	struct dirent *de;
	int n = 0, cpu;
	DIR *d;

	if (!pc)
		return -1;
	d = opendir(pc);
	free(pc);
	if (!d)
		return -1;
	while ((de = readdir(d)) != NULL)
		if (sscanf(de->d_name, "cpu%d", &cpu) == 1 && cpu + 1 > n)
			n = cpu + 1;
	closedir(d);
	return n;
}

static int find_tracefs(struct ltr_session *s, struct lt_error *err)
{
	struct stat st;
	char *events;
	long mount_id;
	int r;

	s->tracefs = ltr_tracefs_find(s->cfg.tracefs_dir, s->journal, &mount_id,
				      err);
	if (!s->tracefs)
		return -1;
	if (mount_id) {
		/* unmounted at the end (journaled before it was mounted) */
		ltr_log(LTR_LOG_INFO, "mounted tracefs on %s (unmounted at the end)",
			s->tracefs);
		if (push_undo(s, LTR_UNDO_UMOUNT, s->tracefs, NULL, err)) {
			umount(s->tracefs);
			ltr_journal_done(s->journal, mount_id);
			return -1;
		}
		ltr_journal_done(s->journal, mount_id);
	}
	if (access(s->tracefs, R_OK | X_OK) < 0) {
		lt_error_set(err, errno == ENOENT ? LT_E_NO_TRACEFS : LT_E_PERM,
			      errno == ENOENT ? "no tracefs at %s: %s" :
			      "cannot read %s: %s (latency-record needs root)",
			      s->tracefs, strerror(errno));
		return -1;
	}
	events = ltr_path_join(s->tracefs, "events/header_page");
	r = events ? stat(events, &st) : -1;
	free(events);
	if (r < 0) {
		lt_error_set(err, LT_E_NO_TRACEFS,
			      "no tracefs at %s (it has no events/header_page)",
			      s->tracefs);
		return -1;
	}
	/* writing is what a recording needs; root can, others cannot */
	events = ltr_path_join(s->tracefs, "events/sched/sched_switch/enable");
	r = events ? access(events, W_OK) : 0;
	if (r < 0 && errno != ENOENT) {
		lt_error_set(err, LT_E_PERM, "cannot write %s: %s (latency-record needs root)",
			      events, strerror(errno));
		free(events);
		return -1;
	}
	free(events);
	return 0;
}

/*
 * What a killed run of ours left, told through the log: a warning, as
 * the user should know a run was killed, and what it had changed.
 */
static void note_undone(void *ctx, const char *owner, const char *what,
			const char *path, const char *value, int error)
{
	(void)ctx;
	if (error)
		ltr_log(LTR_LOG_WARN, "cannot undo what %s left (%s %s): %s",
			owner, what, path, strerror(error));
	else
		ltr_log(LTR_LOG_WARN, "restored what %s left: %s %s%s%s%s", owner,
			what, path, value ? " \"" : "", value ? value : "",
			value ? "\"" : "");
}

/*
 * Instances of a run that is gone and left no journal (one of an older
 * version, killed): named with its pid, which no process has now.
 */
static int remove_stale_instances(const char *tracefs, ltr_journal_note_fn note,
				  void *ctx)
{
	static const char *const prefixes[] = { INSTANCE_PREFIX, LIVE_PREFIX };
	char *dir = ltr_path_join(tracefs, "instances");
	struct dirent *de;
	int removed = 0;
	size_t i;
	DIR *d;

	if (!dir)
		return 0;
	d = opendir(dir);
	while (d && (de = readdir(d)) != NULL) {
		char *end, *path;
		long pid = 0;

		for (i = 0; i < LTR_ARRAY_SIZE(prefixes); i++)
			if (!strncmp(de->d_name, prefixes[i], strlen(prefixes[i]))) {
				pid = strtol(de->d_name + strlen(prefixes[i]), &end, 10);
				break;
			}
		if (pid <= 0 || *end || kill((pid_t)pid, 0) == 0 || errno != ESRCH)
			continue;
		path = ltr_path_join(dir, de->d_name);
		if (path) {
			int r = ltr_undo(LTR_UNDO_RMDIR, path, NULL);

			if (note)
				note(ctx, "a run that is gone", "rmdir", path, NULL,
				     r < 0 ? errno : 0);
			removed += r == 0;
		}
		free(path);
	}
	if (d)
		closedir(d);
	free(dir);
	return removed;
}

int ltr_restore_stale(const char *tracefs, ltr_journal_note_fn note, void *ctx)
{
	int n = ltr_journal_replay_stale(note, ctx);

	if (tracefs)
		n += remove_stale_instances(tracefs, note, ctx);
	return n;
}

/* Someone else tracing in the top-level instance: what, or NULL. */
static char *top_level_user(const struct ltr_session *s)
{
	char *tracer, *events, *path, *msg = NULL;
	size_t n = 0;
	char *p;

	path = ifile(s, "current_tracer");
	tracer = path ? read_line(path) : NULL;
	free(path);
	path = ifile(s, "set_event");
	events = path ? ltr_read_file(path, NULL) : NULL;
	free(path);
	for (p = events; p && *p; p++)
		if (*p == '\n')
			n++;
	if ((tracer && strcmp(tracer, "nop")) || n) {
		if (asprintf(&msg, "current_tracer %s, %zu events enabled",
			     tracer ? tracer : "?", n) < 0)
			msg = NULL;
		if (!msg)
			msg = strdup("in use");
	}
	free(tracer);
	free(events);
	return msg;
}

static int open_top_level(struct ltr_session *s, struct lt_error *err)
{
	const char *lock = ltr_lock_path(s->cfg.lock_path);
	char *user;

	s->dir = strdup(s->tracefs);
	if (!s->dir) {
		lt_error_set(err, LT_E_NOMEM, "out of memory");
		return -1;
	}
	s->lock_fd = ltr_lock_take(lock, err);
	if (s->lock_fd < 0)
		return -1;
	user = top_level_user(s);
	if (user) {
		lt_error_set(err, LT_E_BUSY,
			      "tracefs busy: the top-level instance of %s is in use (%s); stop that tracer, or record without --top-level",
			      s->tracefs, user);
		free(user);
		return -1;
	}
	return 0;
}

static int open_instance(struct ltr_session *s, struct lt_error *err)
{
	char name[64];
	const char *n = s->cfg.instance;
	char *dir;
	int e;

	if (!n) {
		snprintf(name, sizeof(name), INSTANCE_PREFIX "%d", (int)getpid());
		n = name;
	}
	if (tracefs_instance_exists(n)) {
		lt_error_set(err, LT_E_BUSY,
			      "tracefs busy: the instance %s/instances/%s exists already (another recording?)",
			      s->tracefs, n);
		return -1;
	}
	/* journaled before it exists: a kill in between leaves nothing */
	if (asprintf(&dir, "%s/instances/%s", s->tracefs, n) < 0)
		dir = NULL;
	if (!dir || push_undo(s, LTR_UNDO_RMDIR, dir, NULL, err)) {
		if (!dir)
			lt_error_set(err, LT_E_NOMEM, "out of memory");
		free(dir);
		return -1;
	}
	free(dir);
	errno = 0;
	s->inst = tracefs_instance_create(n);
	if (!s->inst || !tracefs_instance_is_new(s->inst)) {
		e = errno ? errno : EEXIST;
		/* not ours: nothing to remove */
		pop_undo(s);
		tracefs_instance_free(s->inst);
		s->inst = NULL;
		if (e == EACCES || e == EPERM) {
			lt_error_set(err, LT_E_PERM,
				      "cannot create %s/instances/%s: %s (latency-record needs root)",
				      s->tracefs, n, strerror(e));
			return -1;
		}
		ltr_log(LTR_LOG_WARN,
			"cannot create a tracefs instance (%s): recording in the top-level instance",
			strerror(e));
		return 1;
	}
	s->instance_name = strdup(n);
	dir = tracefs_instance_get_dir(s->inst);
	if (!s->instance_name || !dir) {
		free(dir);
		tracefs_instance_destroy(s->inst);
		lt_error_set(err, LT_E_NOMEM, "out of memory");
		return -1;
	}
	s->dir = dir;
	return 0;
}

/* Where the latencytop events of this kernel come from. */
static const char *latencytop_origin(const struct ltr_session *s)
{
	char *path = ltr_path_join(s->tracefs, "dynamic_events");
	char *dyn = path ? ltr_read_file(path, NULL) : NULL;
	bool kprobes = dyn && strstr(dyn, "latencytop/latency_reason_set");
	struct stat st;

	free(dyn);
	free(path);
	if (kprobes)
		return "kprobe events (latency-record probes install)";
	if (stat("/sys/module/latencytop_probes", &st) == 0)
		return "module latencytop_probes";
	return "the kernel (annotation patches)";
}

/* Whether the kernel has symbol @name (T or t), by /proc/kallsyms. */
static bool kernel_has(const char *name)
{
	char line[512], *sp;
	bool found = false;
	FILE *f = fopen("/proc/kallsyms", "re");

	if (!f)
		return true;	/* not known: not ruled out */
	while (!found && fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\t\n")] = '\0';
		sp = strrchr(line, ' ');
		found = sp && !strcmp(sp + 1, name);
	}
	fclose(f);
	return found;
}

const char *ltr_latencytop_fix(bool kprobe_events, char *buf, size_t size)
{
	struct stat st;
	bool module;

	if (kprobe_events)
		return LT_FIX;
	module = stat("/proc/modules", &st) == 0 &&
		 kernel_has("register_kretprobe");
	snprintf(buf, size, "%sboot the patched kernel (this kernel has no "
		 "kprobe events, so \"latency-record probes install\" cannot "
		 "make them%s)", module ? "load kernel/module, or " : "",
		 module ? "" : "; nor module loading and kretprobes, which "
		 "kernel/module needs");
	return buf;
}

static const char *latencytop_fix(struct ltr_session *s)
{
	char *path = ltr_path_join(s->tracefs, "kprobe_events");
	struct stat st;
	bool kprobe_events = path && stat(path, &st) == 0;

	free(path);
	return ltr_latencytop_fix(kprobe_events, s->latencytop_fix,
				  sizeof(s->latencytop_fix));
}

static void look_at_events(struct ltr_session *s)
{
	const char *origin = NULL, *fix = NULL;
	size_t i;

	for (i = 0; i < NR_WANTED; i++) {
		const struct want *w = &wanted[i];
		struct ltr_event *e = &s->events[i];

		e->system = w->system;
		e->name = w->name;
		e->cost = w->cost;
		e->fix = w->fix;
		e->state = tracefs_event_file_exists(s->inst, w->system, w->name,
						     "enable") ?
			   LTR_EVENT_PRESENT : LTR_EVENT_MISSING;
		e->origin = "the kernel";
		if (!strcmp(w->system, "latencytop") &&
		    e->state == LTR_EVENT_PRESENT) {
			if (!origin)
				origin = latencytop_origin(s);
			e->origin = origin;
		} else if (!strcmp(w->system, "latencytop")) {
			if (!fix)
				fix = latencytop_fix(s);
			e->fix = fix;
		}
	}
}

int ltr_session_open(const struct ltr_config *cfg, struct ltr_session **out,
		     struct lt_error *err)
{
	struct ltr_session *s;
	char *v;
	int r;

	*out = NULL;
	s = calloc(1, sizeof(*s));
	if (!s) {
		lt_error_set(err, LT_E_NOMEM, "out of memory");
		return -1;
	}
	s->cfg = *cfg;
	s->lock_fd = -1;
	s->journal = cfg->journal;
	if (!s->journal) {
		if (ltr_journal_open(cfg->program ? cfg->program : "latency-record",
				     &s->journal, err))
			goto fail;
		s->own_journal = true;
	}
	/* what a run that was killed left: before anything is looked at */
	ltr_restore_stale(NULL, note_undone, NULL);
	if (find_tracefs(s, err))
		goto fail;
	remove_stale_instances(s->tracefs, note_undone, NULL);
	if (s->cfg.top_level) {
		r = 1;
	} else {
		r = open_instance(s, err);
		if (r < 0)
			goto fail;
	}
	if (r > 0 && open_top_level(s, err))
		goto fail;
	s->cpus = count_cpus(s->dir);
	if (s->cpus <= 0) {
		lt_error_set(err, LT_E_NO_TRACEFS,
			      "no per_cpu directories in %s", s->dir);
		goto fail;
	}
	look_at_events(s);
	if (s->events[5].state == LTR_EVENT_MISSING) {
		lt_error_set(err, LT_E_UNSUPPORTED,
			      "this kernel has no sched:sched_switch event in %s: nothing to record",
			      s->tracefs);
		goto fail;
	}
	v = read_line(SCHEDSTATS_PATH);
	s->schedstats_exist = v != NULL;
	s->schedstats_on = v && strcmp(v, "0");
	free(v);
	*out = s;
	return 0;
fail:
	ltr_session_close(s);
	return -1;
}

size_t ltr_session_events(const struct ltr_session *s,
			  const struct ltr_event **events)
{
	*events = s->events;
	return NR_WANTED;
}

bool ltr_session_schedstats_off(const struct ltr_session *s)
{
	size_t i;

	if (!s->schedstats_exist || s->schedstats_on)
		return false;
	for (i = 0; i < NR_WANTED; i++)
		if (!strncmp(wanted[i].name, "sched_stat_", 11) &&
		    s->events[i].state != LTR_EVENT_MISSING)
			return true;
	return false;
}

void ltr_session_want_schedstats(struct ltr_session *s, bool on)
{
	s->cfg.schedstats = on;
}

bool ltr_session_schedstats_exist(const struct ltr_session *s)
{
	return s->schedstats_exist;
}

/* ---- start and stop ----------------------------------------------------- */

static int set_buffer(struct ltr_session *s, struct lt_error *err)
{
	unsigned int kb = s->cfg.buffer_kb;
	char val[32];
	int ret;

	if (!kb)
		kb = ltr_buffer_kb_default(s->cfg.stacks, s->cpus);
	for (;;) {
		snprintf(val, sizeof(val), "%u", kb);
		ret = set_file(s, "buffer_size_kb", val, NULL,
			       "the per-CPU buffer size", err);
		if (!ret || err->code != LT_E_NOMEM || kb <= 1024)
			break;
		/* the kernel could not allocate it: ask for less */
		ltr_log(LTR_LOG_WARN, "no memory for %u kB per CPU: trying %u kB",
			kb, kb / 2);
		kb /= 2;
	}
	if (ret)
		return -1;
	s->buffer_kb = kb;
	return 0;
}

static int enable_events(struct ltr_session *s, struct lt_error *err)
{
	struct lt_error e2;
	char rel[256];
	size_t i;

	for (i = 0; i < NR_WANTED; i++) {
		struct ltr_event *e = &s->events[i];

		if (e->state != LTR_EVENT_PRESENT)
			continue;
		snprintf(rel, sizeof(rel), "events/%s/%s/enable", e->system,
			 e->name);
		if (set_file(s, rel, "1", "0", "an event", &e2) == 0) {
			e->state = LTR_EVENT_ENABLED;
			continue;
		}
		e->state = LTR_EVENT_FAILED;
		e->error = errno;
		if (wanted[i].required) {
			*err = e2;
			return -1;
		}
		ltr_log(LTR_LOG_WARN, "%s:%s not enabled (%s): %s", e->system,
			e->name, e2.msg, e->cost);
	}
	return 0;
}

static int enable_stacks(struct ltr_session *s, struct lt_error *err)
{
	static const char trigger_rel[] = "events/sched/sched_switch/trigger";
	static const char *const triggers[] = { STACK_TRIGGER, "stacktrace" };
	enum ltr_stacks how = s->cfg.stacks;
	char *path, undo[64];
	size_t i;

	if (how == LTR_STACKS_OFF)
		return 0;
	if (how == LTR_STACKS_SWITCH) {
		path = ifile(s, trigger_rel);
		if (!path) {
			lt_error_set(err, LT_E_NOMEM, "out of memory");
			return -1;
		}
		for (i = 0; i < LTR_ARRAY_SIZE(triggers); i++) {
			/* removed before the instance goes, and in the top level */
			snprintf(undo, sizeof(undo), "!%s", triggers[i]);
			if (push_undo(s, LTR_UNDO_WRITE, path, undo, err)) {
				free(path);
				return -1;
			}
			if (ltr_write_file(path, triggers[i]) < 0) {
				pop_undo(s);
				continue;
			}
			free(path);
			s->stacks_on = true;
			return 0;
		}
		ltr_log(LTR_LOG_WARN,
			"the stacktrace trigger of sched_switch was refused (%s): a stack after every event instead (options/stacktrace)",
			strerror(errno));
		free(path);
	}
	if (set_file(s, "options/stacktrace", "1", NULL, "kernel stacks", err)) {
		ltr_log(LTR_LOG_WARN, "%s: no kernel stacks, so waits without a latencytop reason are \"Unknown reason\"",
			err->msg);
		return 0;
	}
	s->stacks_on = true;
	return 0;
}

/* Whether @clock is a word of trace_clock's text, cut in two at the '[...]'. */
static bool has_clock(const char *before, const char *after, const char *clock)
{
	const char *parts[2] = { before, after };
	size_t len = strlen(clock);
	int i;

	for (i = 0; i < 2; i++) {
		const char *p = parts[i];

		while (*p) {
			size_t n;

			p += strspn(p, " \t\n[");
			n = strcspn(p, " \t\n]");
			if (n == len && !strncmp(p, clock, len))
				return true;
			p += n;
			if (*p == ']')
				p++;
		}
	}
	return false;
}

/*
 * The trace clock asked for: "[local] global mono ..." names the one in
 * use, which is what goes back.
 */
static int set_clock(struct ltr_session *s, struct lt_error *err)
{
	char *path, *text, *open, *close;
	int ret;

	if (!s->cfg.clock)
		return 0;
	path = ifile(s, "trace_clock");
	text = path ? ltr_read_file(path, NULL) : NULL;
	if (!text) {
		lt_error_set(err, path ? ltr_errno_code(errno) : LT_E_NOMEM,
			      "cannot read %s (the trace clock): %s",
			      path ? path : "trace_clock", strerror(errno));
		free(path);
		return -1;
	}
	open = strchr(text, '[');
	close = open ? strchr(open, ']') : NULL;
	if (close)
		*close = '\0';
	if (!close || !has_clock(text, close + 1, s->cfg.clock)) {
		lt_error_set(err, LT_E_UNSUPPORTED,
			      "%s: this kernel has no \"%s\" trace clock",
			      path, s->cfg.clock);
		ret = -1;
	} else {
		ret = set_file(s, "trace_clock", s->cfg.clock, open + 1,
			       "the trace clock", err);
	}
	free(text);
	free(path);
	return ret;
}

int ltr_session_start(struct ltr_session *s, struct lt_error *err)
{
	if (s->started || s->restored) {
		lt_error_set(err, LT_E_INTERNAL, "session started twice");
		return -1;
	}
	s->started = true;
	if (set_file(s, "tracing_on", "0", NULL, "tracing on/off", err) ||
	    set_clock(s, err) || set_buffer(s, err))
		return -1;
	if (s->cfg.schedstats && ltr_session_schedstats_off(s)) {
		if (push_undo(s, LTR_UNDO_WRITE, SCHEDSTATS_PATH, "0", err))
			return -1;
		if (ltr_write_file(SCHEDSTATS_PATH, "1") < 0) {
			ltr_log(LTR_LOG_WARN, "cannot switch %s on: %s",
				SCHEDSTATS_PATH, strerror(errno));
			pop_undo(s);
		} else {
			s->schedstats_on = true;
			ltr_log(LTR_LOG_INFO,
				"kernel.sched_schedstats switched on for the recording (off again after)");
		}
	}
	if (enable_events(s, err) || enable_stacks(s, err))
		return -1;
	/* what an earlier user of the top level left in its buffers */
	if (!s->inst && write_rel(s, "trace", "", "the buffers' content", err))
		return -1;
	return write_rel(s, "tracing_on", "1", "tracing on/off", err);
}

int ltr_session_stop(struct ltr_session *s, struct lt_error *err)
{
	if (!s->started || s->restored)
		return 0;
	return write_rel(s, "tracing_on", "0", "tracing on/off", err);
}

/* ---- restore ------------------------------------------------------------ */

int ltr_session_restore(struct ltr_session *s, struct lt_error *err)
{
	int ret = 0;

	if (!s)
		return 0;
	while (s->nr_undo) {
		struct undo *u = &s->undo[s->nr_undo - 1];

		if (ltr_undo(u->kind, u->path, u->value) < 0 && !ret) {
			ret = -1;
			if (u->kind == LTR_UNDO_WRITE)
				lt_error_set(err, ltr_errno_code(errno),
					      "cannot restore %s to \"%s\": %s",
					      u->path, u->value, strerror(errno));
			else
				lt_error_set(err, ltr_errno_code(errno),
					      "cannot remove %s: %s%s", u->path,
					      strerror(errno),
					      errno == EBUSY ? " (a reader has it open; rmdir it once that ends)" : "");
		}
		pop_undo(s);
	}
	if (s->inst) {
		tracefs_instance_free(s->inst);
		s->inst = NULL;
	}
	ltr_lock_release(s->lock_fd);
	s->lock_fd = -1;
	s->restored = true;
	return ret;
}

void ltr_session_close(struct ltr_session *s)
{
	struct lt_error err;

	if (!s)
		return;
	ltr_session_restore(s, &err);
	if (s->own_journal)
		ltr_journal_close(s->journal);
	free(s->undo);
	free(s->tracefs);
	free(s->dir);
	free(s->instance_name);
	free(s);
}

int ltr_session_cpus(const struct ltr_session *s)
{
	return s->cpus;
}

unsigned int ltr_session_buffer_kb(const struct ltr_session *s)
{
	return s->buffer_kb;
}

const char *ltr_session_instance_name(const struct ltr_session *s)
{
	return s->instance_name;
}

bool ltr_session_stacks_enabled(const struct ltr_session *s)
{
	return s->stacks_on;
}

const char *ltr_session_dir(const struct ltr_session *s)
{
	return s->restored ? NULL : s->dir;
}

const char *ltr_session_tracefs(const struct ltr_session *s)
{
	return s->tracefs;
}

char *ltr_session_cpu_stats(const struct ltr_session *s, int cpu)
{
	char rel[64], *path, *text;

	if (s->restored)
		return NULL;
	snprintf(rel, sizeof(rel), "per_cpu/cpu%d/stats", cpu);
	path = ifile(s, rel);
	text = path ? ltr_read_file(path, NULL) : NULL;
	free(path);
	return text;
}

static uint64_t stat_field(const char *text, const char *name)
{
	size_t n = strlen(name);
	const char *p;

	for (p = text; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL)
		if (!strncmp(p, name, n) && p[n] == ':')
			return strtoull(p + n + 1, NULL, 10);
	return 0;
}

int ltr_parse_cpu_stats(const char *text, struct ltr_cpu_stats *st)
{
	memset(st, 0, sizeof(*st));
	if (!text || !strstr(text, "entries:"))
		return -1;
	st->entries = stat_field(text, "entries");
	st->overrun = stat_field(text, "overrun");
	st->commit_overrun = stat_field(text, "commit overrun");
	st->dropped = stat_field(text, "dropped events");
	st->read = stat_field(text, "read events");
	return 0;
}
