// SPDX-License-Identifier: LGPL-2.1
/*
 * probes.c - the latencytop events as kprobe and kretprobe events (ltr.h).
 *
 * For each site of kernel/include/latencytop-sites.h this kernel has, one
 * probe point on each of two events, both in system "latencytop":
 *
 *   r<N>:latencytop/latency_reason_restore SYMBOL reason=\"KEY":string
 *   p:latencytop/latency_reason_set SYMBOL reason=\"KEY":string maxtime_us=\M:u32
 *
 * The kernel appends probe points with the same arguments to one event,
 * so a recording enables two events as it would the module's.  KEY is the
 * reason with '_' for its blanks (an immediate string ends at a blank);
 * the analyzer maps it back (analyzer/lib/decode/probe-key.c).  The
 * restore is created before the set, so that a set is never without its
 * restore, and N (maxactive) is sized to the tasks alive: a kretprobe out
 * of instances misses returns, which the kernel counts in kprobe_profile.
 *
 * All through libtracefs's dynamic-event API, but one thing: libtracefs
 * (1.6 to 1.8 at least) writes "r64::latencytop/..." for a maxactive,
 * which the kernel refuses ("Group name must follow the same rules as C
 * identifiers"); that line is then written as the kernel wants it, through
 * tracefs_instance_file_append().
 */
#define _GNU_SOURCE	/* asprintf, pipe2, strsignal */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <tracefs.h>

#include "latencytop-sites.h"
#include "lt-probe-key.h"
#include "record-local.h"

#define SYSTEM "latencytop"
#define EV_SET "latency_reason_set"
#define EV_RESTORE "latency_reason_restore"

/* The running kernel's system call entry points. */
#if defined(__x86_64__)
#define LT_SYSCALL(name)	"__x64_sys_" name
#elif defined(__aarch64__)
#define LT_SYSCALL(name)	"__arm64_sys_" name
#elif defined(__riscv)
#define LT_SYSCALL(name)	"__riscv_sys_" name
#elif defined(__s390x__)
#define LT_SYSCALL(name)	"__s390x_sys_" name
#else
#define LT_SYSCALL(name)	"sys_" name
#endif

struct site_def {
	const char *group, *symbol, *reason;
	uint32_t maxtime_us;
};

#define MAXTIME_PLAIN	0
#define MAXTIME_USER	LT_SITE_USER_MAX_US
#define MAXTIME_INODE	0
#define LT_SITE_DEF(group, symbol, reason, kind) \
	{ group, symbol, reason, MAXTIME_##kind },
static const struct site_def site_defs[] = { LT_SITES(LT_SITE_DEF) };
#undef LT_SITE_DEF

struct group_def {
	const char *name;
	bool in_default;
};
#define LT_GROUP_DEF(name, in_default, what) { name, in_default },
static const struct group_def group_defs[] = { LT_SITE_GROUPS(LT_GROUP_DEF) };
#undef LT_GROUP_DEF

#define NR_SITES LTR_ARRAY_SIZE(site_defs)

struct ltr_probes {
	char *tracefs;
	bool kprobes;		/* kprobe_events exists */
	bool static_events;	/* latencytop events that are not ours */
	bool ours;		/* latencytop kprobe events exist */
	struct ltr_probe_site sites[NR_SITES];
	unsigned int threads;	/* tasks alive, for maxactive */
	bool tracefs_bug_noted;
	struct ltr_journal *journal;	/* a mount, an install cut short */
	long mount_id;		/* tracefs mounted by us: unmounted at the end */
};

static int nomem(struct lt_error *err)
{
	lt_error_set(err, LT_E_NOMEM, "out of memory");
	return -1;
}

static bool group_in_default(const char *group)
{
	size_t i;

	for (i = 0; i < LTR_ARRAY_SIZE(group_defs); i++)
		if (!strcmp(group_defs[i].name, group))
			return group_defs[i].in_default;
	return false;
}

static bool group_known(const char *group, size_t len)
{
	size_t i;

	for (i = 0; i < LTR_ARRAY_SIZE(group_defs); i++)
		if (strlen(group_defs[i].name) == len &&
		    !strncmp(group_defs[i].name, group, len))
			return true;
	return false;
}

/* Whether @group is selected by @list ("default", "all", "sync,pipe"). */
static bool group_selected(const char *group, const char *list)
{
	size_t glen = strlen(group);
	const char *p = list;

	while (*p) {
		size_t n = strcspn(p, ",");

		if ((n == 3 && !strncmp(p, "all", 3)) ||
		    (n == 7 && !strncmp(p, "default", 7) && group_in_default(group)) ||
		    (n == glen && !strncmp(p, group, n)))
			return true;
		p += n;
		if (*p == ',')
			p++;
	}
	return false;
}

static int check_groups(const char *list, struct lt_error *err)
{
	const char *p = list;

	if (!*p) {
		lt_error_set(err, LT_E_USAGE, "--groups: empty list");
		return -1;
	}
	while (*p) {
		size_t n = strcspn(p, ",");

		if (!(n == 3 && !strncmp(p, "all", 3)) &&
		    !(n == 7 && !strncmp(p, "default", 7)) && !group_known(p, n)) {
			lt_error_set(err, LT_E_USAGE,
				      "--groups: no group \"%.*s\" (groups: see latency-record probes list --all)",
				      (int)n, p);
			return -1;
		}
		p += n;
		if (*p == ',')
			p++;
	}
	return 0;
}

unsigned int ltr_probe_maxactive(const struct ltr_probe_site *site,
				 unsigned int threads)
{
	static const char *const anyone[] = { "poll", "futex", "sleep",
					      "wait", "pipe", "fault" };
	unsigned int n;
	size_t i;

	/* where any task of the system may sit: room for all, twice */
	for (i = 0; i < LTR_ARRAY_SIZE(anyone); i++)
		if (!strcmp(site->group, anyone[i])) {
			n = threads * 2;
			return n < 128 ? 128 : n > 4096 ? 4096 : n;
		}
	n = threads / 2;
	return n < 64 ? 64 : n > 1024 ? 1024 : n;
}

int ltr_probe_lines(const struct ltr_probe_site *site, unsigned int maxactive,
		    char *set_line, size_t set_len,
		    char *restore_line, size_t restore_len)
{
	int a, b;

	a = snprintf(set_line, set_len,
		     "p:" SYSTEM "/" EV_SET " %s reason=\\\"%s\":string maxtime_us=\\%u:u32",
		     site->symbol, site->key, site->maxtime_us);
	if (maxactive)
		b = snprintf(restore_line, restore_len,
			     "r%u:" SYSTEM "/" EV_RESTORE " %s reason=\\\"%s\":string",
			     maxactive, site->symbol, site->key);
	else
		b = snprintf(restore_line, restore_len,
			     "r:" SYSTEM "/" EV_RESTORE " %s reason=\\\"%s\":string",
			     site->symbol, site->key);
	return a < 0 || b < 0 || (size_t)a >= set_len || (size_t)b >= restore_len ?
	       -1 : 0;
}

/* ---- what is there ------------------------------------------------------ */

static unsigned int threads_alive(void)
{
	char *t = ltr_read_file("/proc/loadavg", NULL);
	unsigned int n = 0;
	char *slash;

	/* "0.00 0.01 0.05 1/263 12345": 263 tasks */
	slash = t ? strchr(t, '/') : NULL;
	if (slash)
		n = (unsigned int)strtoul(slash + 1, NULL, 10);
	free(t);
	return n;
}

/* The sites whose symbol is in /proc/kallsyms (as a function). */
static void find_symbols(struct ltr_probes *p, bool *found)
{
	char *text = ltr_read_file("/proc/kallsyms", NULL);
	char *line, *next;
	size_t i;

	if (!text) {
		/* unknown: let the kernel say */
		for (i = 0; i < NR_SITES; i++)
			found[i] = true;
		return;
	}
	for (line = text; line && *line; line = next) {
		char *type, *name;
		size_t n;

		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		type = strchr(line, ' ');
		if (!type || !type[1] || type[2] != ' ')
			continue;
		if (type[1] != 't' && type[1] != 'T')
			continue;
		name = type + 3;
		n = strcspn(name, " \t");
		for (i = 0; i < NR_SITES; i++)
			if (!found[i] && strlen(p->sites[i].symbol) == n &&
			    !strncmp(p->sites[i].symbol, name, n))
				found[i] = true;
	}
	free(text);
}

static const char *file_in(const struct ltr_probes *p, const char *rel,
			   char *buf, size_t len)
{
	snprintf(buf, len, "%s/%s", p->tracefs, rel);
	return buf;
}

/* The site of a probe point on @symbol, or NULL. */
static struct ltr_probe_site *site_of(struct ltr_probes *p, const char *symbol)
{
	size_t n = strcspn(symbol, "+");
	size_t i;

	for (i = 0; i < NR_SITES; i++)
		if (strlen(p->sites[i].symbol) == n &&
		    !strncmp(p->sites[i].symbol, symbol, n))
			return &p->sites[i];
	return NULL;
}

/* Each site's state from the probe points that exist now. */
static int read_installed(struct ltr_probes *p, struct lt_error *err)
{
	struct tracefs_dynevent **all;
	bool set[NR_SITES] = { false }, restore[NR_SITES] = { false };
	unsigned int maxact[NR_SITES] = { 0 };
	size_t i;

	p->ours = false;
	errno = 0;
	all = tracefs_dynevent_get_all(TRACEFS_DYNEVENT_KPROBE |
				       TRACEFS_DYNEVENT_KRETPROBE, SYSTEM);
	if (!all && errno == ENOMEM)
		return nomem(err);
	for (i = 0; all && all[i]; i++) {
		char *event = NULL, *prefix = NULL, *addr = NULL;
		struct ltr_probe_site *site;
		enum tracefs_dynevent_type type;

		type = tracefs_dynevent_info(all[i], NULL, &event, &prefix,
					     &addr, NULL);
		p->ours = true;
		site = addr ? site_of(p, addr) : NULL;
		if (site && event) {
			size_t k = (size_t)(site - p->sites);

			if (type == TRACEFS_DYNEVENT_KPROBE && !strcmp(event, EV_SET))
				set[k] = true;
			if (type == TRACEFS_DYNEVENT_KRETPROBE &&
			    !strcmp(event, EV_RESTORE)) {
				restore[k] = true;
				if (prefix && isdigit((unsigned char)prefix[1]))
					maxact[k] = (unsigned int)strtoul(prefix + 1, NULL, 10);
			}
		}
		free(event);
		free(prefix);
		free(addr);
	}
	tracefs_dynevent_list_free(all);
	for (i = 0; i < NR_SITES; i++) {
		struct ltr_probe_site *s = &p->sites[i];

		if (set[i] && restore[i])
			s->state = LTR_PROBE_INSTALLED;
		else if (set[i] || restore[i])
			s->state = LTR_PROBE_PARTIAL;
		else if (s->state != LTR_PROBE_SKIPPED)
			s->state = LTR_PROBE_ABSENT;
		s->maxactive = maxact[i];
	}
	return 0;
}

static int find_tracefs(struct ltr_probes *p, struct lt_error *err)
{
	char path[4096];
	struct stat st;

	if (ltr_journal_open("latency-record probes", &p->journal, err))
		return -1;
	ltr_restore_stale(NULL, NULL, NULL);
	/* mounted if need be, and unmounted at the end: the probes stay */
	p->tracefs = ltr_tracefs_find(NULL, p->journal, &p->mount_id, err);
	if (!p->tracefs)
		return -1;
	if (p->mount_id)
		ltr_log(LTR_LOG_INFO, "mounted tracefs on %s (unmounted at the end)",
			p->tracefs);
	if (access(p->tracefs, R_OK | X_OK) < 0) {
		lt_error_set(err, errno == ENOENT ? LT_E_NO_TRACEFS : LT_E_PERM,
			      "cannot read %s: %s%s", p->tracefs, strerror(errno),
			      errno == ENOENT ? "" : " (latency-record needs root)");
		return -1;
	}
	if (stat(file_in(p, "events/header_page", path, sizeof(path)), &st) < 0) {
		lt_error_set(err, LT_E_NO_TRACEFS, "no tracefs at %s", p->tracefs);
		return -1;
	}
	p->kprobes = stat(file_in(p, "kprobe_events", path, sizeof(path)), &st) == 0;
	return 0;
}

int ltr_probes_table(struct ltr_probes **out, struct lt_error *err)
{
	struct ltr_probes *p;
	size_t i;

	*out = NULL;
	p = calloc(1, sizeof(*p));
	if (!p)
		return nomem(err);
	for (i = 0; i < NR_SITES; i++) {
		struct ltr_probe_site *s = &p->sites[i];

		s->group = site_defs[i].group;
		s->symbol = site_defs[i].symbol;
		s->reason = site_defs[i].reason;
		s->maxtime_us = site_defs[i].maxtime_us;
		s->in_default = group_in_default(s->group);
		if (!lt_probe_key_of(s->reason, s->key, sizeof(s->key))) {
			lt_error_set(err, LT_E_INTERNAL,
				      "the reason \"%s\" of %s cannot be a probe's key",
				      s->reason, s->symbol);
			ltr_probes_free(p);
			return -1;
		}
		s->state = LTR_PROBE_ABSENT;
	}
	p->threads = threads_alive();
	*out = p;
	return 0;
}

int ltr_probes_scan(struct ltr_probes **out, struct lt_error *err)
{
	bool found[NR_SITES] = { false };
	struct ltr_probes *p;
	char path[4096];
	struct stat st;
	size_t i;

	if (ltr_probes_table(&p, err))
		return -1;
	if (find_tracefs(p, err))
		goto fail;
	if (p->kprobes) {
		if (read_installed(p, err))
			goto fail;
		find_symbols(p, found);
		for (i = 0; i < NR_SITES; i++) {
			struct ltr_probe_site *s = &p->sites[i];

			if (found[i] || s->state != LTR_PROBE_ABSENT)
				continue;
			s->state = LTR_PROBE_SKIPPED;
			snprintf(s->why, sizeof(s->why), !strcmp(s->group, "jbd2") ?
				 "not in /proc/kallsyms (module jbd2 not loaded?)" :
				 "not in /proc/kallsyms (inlined or renamed in this kernel)");
		}
	}
	p->static_events = !p->ours &&
		stat(file_in(p, "events/" SYSTEM "/" EV_SET, path, sizeof(path)), &st) == 0;
	*out = p;
	return 0;
fail:
	ltr_probes_free(p);
	return -1;
}

size_t ltr_probes_sites(const struct ltr_probes *p,
			struct ltr_probe_site **sites)
{
	*sites = (struct ltr_probe_site *)p->sites;
	return NR_SITES;
}

bool ltr_probes_static_events(const struct ltr_probes *p)
{
	return p->static_events;
}

unsigned int ltr_probes_threads(const struct ltr_probes *p)
{
	return p->threads;
}

bool ltr_probes_any(const struct ltr_probes *p)
{
	return p->ours;
}

bool ltr_probes_supported(const struct ltr_probes *p)
{
	return p->kprobes;
}

const char *ltr_probes_tracefs(const struct ltr_probes *p)
{
	return p->tracefs ? p->tracefs : "";
}

int ltr_probes_selected(const char *group, const char *list,
			struct lt_error *err)
{
	if (check_groups(list, err))
		return -1;
	return group_selected(group, list);
}

void ltr_probes_free(struct ltr_probes *p)
{
	if (!p)
		return;
	if (p->mount_id) {
		if (ltr_undo(LTR_UNDO_UMOUNT, p->tracefs, NULL) < 0)
			ltr_log(LTR_LOG_WARN, "cannot unmount %s: %s", p->tracefs,
				strerror(errno));
		ltr_journal_done(p->journal, p->mount_id);
	}
	ltr_journal_close(p->journal);
	free(p->tracefs);
	free(p);
}

/* ---- install ------------------------------------------------------------ */

static int usable(const struct ltr_probes *p, struct lt_error *err)
{
	if (!p->kprobes) {
		lt_error_set(err, LT_E_UNSUPPORTED,
			      "this kernel has no kprobe events (no %s/kprobe_events: CONFIG_KPROBE_EVENTS is off); use kernel/module or the patched kernel",
			      p->tracefs);
		return -1;
	}
	if (p->static_events) {
		lt_error_set(err, LT_E_UNSUPPORTED,
			      "the latencytop events exist already, from the patched kernel or kernel/module: no probes needed");
		return -1;
	}
	return 0;
}

/* The kernel's word on the last failed write to dynamic_events. */
static void last_error(struct ltr_probe_site *site, int e)
{
	char *log = tracefs_error_last(NULL);
	char *msg = log ? strstr(log, "error: ") : NULL;

	if (msg) {
		msg += 7;
		msg[strcspn(msg, "\n")] = '\0';
		snprintf(site->why, sizeof(site->why), "%s", msg);
	} else {
		snprintf(site->why, sizeof(site->why), "%s", strerror(e));
	}
	free(log);
}

/* The line that removes one probe point (@event on @symbol), the others kept. */
static void remove_line(char *line, size_t len, const char *event,
			const char *symbol)
{
	snprintf(line, len, "-:" SYSTEM "/%s %s", event, symbol);
}

static int remove_point(const char *event, const char *symbol)
{
	char line[512];

	remove_line(line, sizeof(line), event, symbol);
	return tracefs_instance_file_append(NULL, "kprobe_events", line) < 0 ? -1 : 0;
}

/*
 * Journal the removal of a point before it is made: an install killed
 * half way is undone by the next run (the points that were made whole
 * are then done with: they are meant to stay).  The id, 0 without a
 * journal, or -1 with @err.
 */
static long journal_point(struct ltr_probes *p, const char *event,
			  const char *symbol, struct lt_error *err)
{
	char line[512], path[4096];

	remove_line(line, sizeof(line), event, symbol);
	return ltr_journal_add(p->journal, LTR_UNDO_APPEND,
			       file_in(p, "kprobe_events", path, sizeof(path)),
			       line, err);
}

static int create_restore(struct ltr_probes *p, struct ltr_probe_site *s,
			  unsigned int maxactive)
{
	char fmt[160], set_line[512], line[512];
	struct tracefs_dynevent *dev;
	int ret;

	snprintf(fmt, sizeof(fmt), "reason=\\\"%s\":string", s->key);
	dev = tracefs_kretprobe_alloc(SYSTEM, EV_RESTORE, s->symbol, fmt, maxactive);
	if (!dev)
		return -1;
	tracefs_error_clear(NULL);
	ret = tracefs_dynevent_create(dev);
	tracefs_dynevent_free(dev);
	if (ret == 0 || !maxactive)
		return ret;
	/* libtracefs's "r64::latencytop/..." (see the top): as the kernel wants it */
	if (ltr_probe_lines(s, maxactive, set_line, sizeof(set_line), line,
			    sizeof(line)))
		return -1;
	tracefs_error_clear(NULL);
	ret = tracefs_instance_file_append(NULL, "kprobe_events", line) < 0 ? -1 : 0;
	if (ret == 0 && !p->tracefs_bug_noted) {
		p->tracefs_bug_noted = true;
		ltr_log(LTR_LOG_INFO,
			"libtracefs's kretprobe with maxactive was refused (\"r%u::\"): written directly",
			maxactive);
	}
	return ret;
}

static int create_set(struct ltr_probe_site *s)
{
	struct tracefs_dynevent *dev;
	char fmt[200];
	int ret;

	snprintf(fmt, sizeof(fmt), "reason=\\\"%s\":string maxtime_us=\\%u:u32",
		 s->key, s->maxtime_us);
	dev = tracefs_kprobe_alloc(SYSTEM, EV_SET, s->symbol, fmt);
	if (!dev)
		return -1;
	tracefs_error_clear(NULL);
	ret = tracefs_dynevent_create(dev);
	tracefs_dynevent_free(dev);
	return ret;
}

static int take_lock(const char *path, struct lt_error *err)
{
	int tries, fd = -1;

	/* another recording holds it for its length: wait a little */
	for (tries = 0; tries < 100; tries++) {
		struct timespec ts = { 0, 100 * 1000 * 1000 };

		fd = ltr_lock_take(ltr_lock_path(path), err);
		if (fd >= 0 || err->code != LT_E_BUSY)
			break;
		nanosleep(&ts, NULL);
	}
	return fd;
}

int ltr_probes_install(struct ltr_probes *p, const struct ltr_probes_opts *o,
		       struct lt_error *err)
{
	const char *groups = o->groups ? o->groups : "default";
	unsigned int made = 0, wanted = 0;
	long jr, js;
	int lock, ret = 0;
	size_t i;

	if (check_groups(groups, err) || usable(p, err))
		return -1;
	lock = take_lock(o->lock_path, err);
	if (lock < 0)
		return -1;
	/* what another install may have done meanwhile */
	if (read_installed(p, err)) {
		ltr_lock_release(lock);
		return -1;
	}
	for (i = 0; i < NR_SITES; i++) {
		struct ltr_probe_site *s = &p->sites[i];
		unsigned int maxactive;
		int e;

		if (!group_selected(s->group, groups))
			continue;
		wanted++;
		if (s->state == LTR_PROBE_INSTALLED || s->state == LTR_PROBE_SKIPPED) {
			made += s->state == LTR_PROBE_INSTALLED;
			continue;
		}
		if (s->state == LTR_PROBE_PARTIAL) {
			/* half of a site (an install cut short): made whole again */
			remove_point(EV_SET, s->symbol);
			remove_point(EV_RESTORE, s->symbol);
		}
		maxactive = o->maxactive ? o->maxactive :
			    ltr_probe_maxactive(s, p->threads);
		jr = journal_point(p, EV_RESTORE, s->symbol, err);
		js = jr < 0 ? -1 : journal_point(p, EV_SET, s->symbol, err);
		if (js < 0) {
			ret = -1;
			break;
		}
		if (create_restore(p, s, maxactive) < 0) {
			e = errno;
			last_error(s, e);
			s->state = LTR_PROBE_SKIPPED;
			ltr_journal_done(p->journal, js);
			ltr_journal_done(p->journal, jr);
			if (e == EACCES || e == EPERM) {
				lt_error_set(err, LT_E_PERM,
					      "cannot write %s/kprobe_events: %s (latency-record needs root)",
					      p->tracefs, strerror(e));
				ret = -1;
				break;
			}
			continue;
		}
		if (create_set(s) < 0) {
			last_error(s, errno);
			remove_point(EV_RESTORE, s->symbol);
			s->state = LTR_PROBE_SKIPPED;
			ltr_journal_done(p->journal, js);
			ltr_journal_done(p->journal, jr);
			continue;
		}
		s->state = LTR_PROBE_INSTALLED;
		s->maxactive = maxactive;
		made++;
		/* whole: meant to stay */
		ltr_journal_done(p->journal, js);
		ltr_journal_done(p->journal, jr);
	}
	if (!ret && !made && wanted) {
		lt_error_set(err, LT_E_UNSUPPORTED,
			      "no site of --groups=%s could be probed on this kernel (see latency-record probes list)",
			      groups);
		ret = -1;
	}
	if (!ret)
		read_installed(p, err);
	ltr_lock_release(lock);
	p->ours = p->ours || made;
	return ret;
}

/* ---- remove ------------------------------------------------------------- */

/* Where our events are enabled: "the top level" or an instance's name. */
static char *enabled_where(const struct ltr_probes *p)
{
	char **list = tracefs_instances(NULL);
	char *where = NULL;
	int i;

	for (i = -1; !where && (i < 0 || (list && list[i])); i++) {
		struct tracefs_instance *inst = NULL;
		int k;

		if (i >= 0) {
			inst = tracefs_instance_alloc(p->tracefs, list[i]);
			if (!inst)
				continue;
		}
		for (k = 0; k < 2 && !where; k++) {
			char *v = tracefs_event_file_read(inst, SYSTEM,
							  k ? EV_RESTORE : EV_SET,
							  "enable", NULL);

			if (v && v[0] == '1')
				where = strdup(i < 0 ? "the top-level instance" : list[i]);
			free(v);
		}
		tracefs_instance_free(inst);
	}
	tracefs_list_free(list);
	return where;
}

int ltr_probes_remove(struct ltr_probes *p, bool force,
		      const struct ltr_probes_opts *o, struct lt_error *err)
{
	static const enum tracefs_dynevent_type types[] = {
		TRACEFS_DYNEVENT_KPROBE, TRACEFS_DYNEVENT_KRETPROBE };
	static const char *const events[] = { EV_SET, EV_RESTORE };
	char *where;
	int lock, ret = 0;
	size_t i;

	if (!p->kprobes) {
		lt_error_set(err, LT_E_UNSUPPORTED,
			      "this kernel has no kprobe events (no %s/kprobe_events): nothing to remove",
			      p->tracefs);
		return -1;
	}
	lock = take_lock(o ? o->lock_path : NULL, err);
	if (lock < 0)
		return -1;
	where = force ? NULL : enabled_where(p);
	if (where) {
		lt_error_set(err, LT_E_BUSY,
			      "tracefs busy: the latencytop probe events are enabled in %s (a recording?); stop it, or remove with --force",
			      where);
		free(where);
		ltr_lock_release(lock);
		return -1;
	}
	/* the set first: no set is left without its restore */
	for (i = 0; i < 2 && !ret; i++) {
		struct tracefs_dynevent *dev;
		size_t round;

		/* "-:latencytop/EVENT" takes all its probe points at once */
		for (round = 0; round <= NR_SITES; round++) {
			dev = tracefs_dynevent_get(types[i], SYSTEM, events[i]);
			if (!dev)
				break;
			if (tracefs_dynevent_destroy(dev, force) < 0) {
				lt_error_set(err, ltr_errno_code(errno),
					      "cannot remove " SYSTEM "/%s from %s/dynamic_events: %s",
					      events[i], p->tracefs, strerror(errno));
				ret = -1;
				tracefs_dynevent_free(dev);
				break;
			}
			tracefs_dynevent_free(dev);
		}
	}
	if (read_installed(p, err) == 0 && p->ours && !ret) {
		lt_error_set(err, LT_E_TRACEFS,
			      "latencytop probe points are left in %s/dynamic_events after removing them",
			      p->tracefs);
		ret = -1;
	}
	ltr_lock_release(lock);
	return ret;
}

/* ---- kprobe_profile ----------------------------------------------------- */

int ltr_probes_profile(struct ltr_probes *p, struct lt_error *err)
{
	char pe[4096], pp[4096];
	char *events, *profile, *el, *pl, *en, *pn;
	size_t i;

	if (!p->kprobes)
		return 0;
	for (i = 0; i < NR_SITES; i++) {
		p->sites[i].hits_set = p->sites[i].hits_restore = 0;
		p->sites[i].missed_set = p->sites[i].missed_restore = 0;
	}
	events = ltr_read_file(file_in(p, "kprobe_events", pe, sizeof(pe)), NULL);
	profile = ltr_read_file(file_in(p, "kprobe_profile", pp, sizeof(pp)), NULL);
	if (!events || !profile) {
		lt_error_set(err, ltr_errno_code(errno), "cannot read %s: %s",
			      events ? pp : pe, strerror(errno));
		free(events);
		free(profile);
		return -1;
	}
	/*
	 * Both list the kprobes in the same order, one a line: the profile
	 * says only the event's name, kprobe_events which function it is.
	 */
	for (el = events, pl = profile; el && *el && pl && *pl; el = en, pl = pn) {
		char name[128], symbol[256], event[128];
		unsigned long long hits, missed;
		struct ltr_probe_site *s;
		bool ret_probe;

		en = strchr(el, '\n');
		if (en)
			*en++ = '\0';
		pn = strchr(pl, '\n');
		if (pn)
			*pn++ = '\0';
		if (sscanf(pl, " %127s %llu %llu", name, &hits, &missed) != 3 ||
		    sscanf(el, "%*[pr0-9]:" SYSTEM "/%127s %255s", event, symbol) != 2)
			continue;
		if (strcmp(name, event))
			continue;	/* out of step: the lists changed meanwhile */
		s = site_of(p, symbol);
		if (!s)
			continue;
		ret_probe = el[0] == 'r';
		if (ret_probe && !strcmp(event, EV_RESTORE)) {
			s->hits_restore = hits;
			s->missed_restore = missed;
		} else if (!ret_probe && !strcmp(event, EV_SET)) {
			s->hits_set = hits;
			s->missed_set = missed;
		}
	}
	free(events);
	free(profile);
	return 0;
}
