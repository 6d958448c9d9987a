// SPDX-License-Identifier: LGPL-2.1
/*
 * meta.c - what a trace.dat carries besides the pages, read from the
 * session's tracefs (ltr-dat.h).
 */
#define _GNU_SOURCE	/* asprintf, strndup */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "latencytop.h"
#include "ltr-dat.h"
#include "record-local.h"

struct ltr_meta {
	struct ltr_dat_input in;
	char *header_page, *header_event;
	struct ltr_dat_format *formats;
	size_t nr_formats, cap_formats;
	char *kallsyms, *printk, *cmdlines, *uname, *clock;
	char **cpustats;
	int cpus;
	char *cgroups;		/* "TID PATH\n" lines (add_cgroups()) */
	size_t cgroups_len, cgroups_cap;
	bool cgroups_fresh;	/* read by ltr_meta_begin(), not yet again */
};

static int nomem(struct lt_error *err)
{
	lt_error_set(err, LT_E_NOMEM, "out of memory");
	return -1;
}

/* @rel under the tracing directory, whole; NULL with @err. */
static char *read_tracefs(const struct ltr_session *s, const char *base,
			  const char *rel, size_t *len, struct lt_error *err)
{
	char *path = ltr_path_join(base ? base : ltr_session_tracefs(s), rel);
	char *text;

	if (!path) {
		nomem(err);
		return NULL;
	}
	text = ltr_read_file(path, len);
	if (!text)
		lt_error_set(err, ltr_errno_code(errno), "cannot read %s: %s",
			      path, strerror(errno));
	free(path);
	return text;
}

/* "TID PATH\n" at the end of m->cgroups; -1 when out of memory. */
static int put_cgroup(struct ltr_meta *m, const char *tid, const char *path,
		      size_t len)
{
	size_t need = strlen(tid) + 1 + len + 1;
	char *p;

	if (m->cgroups_len + need + 1 > m->cgroups_cap) {
		size_t cap = m->cgroups_cap ? m->cgroups_cap * 2 : 16384;

		while (cap < m->cgroups_len + need + 1)
			cap *= 2;
		p = realloc(m->cgroups, cap);
		if (!p)
			return -1;
		m->cgroups = p;
		m->cgroups_cap = cap;
	}
	p = m->cgroups + m->cgroups_len;
	p += sprintf(p, "%s ", tid);
	memcpy(p, path, len);
	p[len] = '\n';
	m->cgroups_len += need;
	m->cgroups[m->cgroups_len] = '\0';
	return 0;
}

/*
 * Each task's cgroup: the v2 hierarchy's line ("0::PATH") of
 * /proc/PID/task/TID/cgroup, appended as "TID PATH\n".  Read when the
 * recording starts and again when it ends: a task that lived through it
 * is where its later line says, one that ended meanwhile where it was
 * (and a task born meanwhile in its parent's, for the analyzer).  Tasks
 * gone before their file is read, and a v1-only machine, add nothing.
 */
static void add_cgroups(struct ltr_meta *m)
{
	char path[64], buf[4096];
	struct dirent *p, *t;
	DIR *proc, *task;
	const char *line;
	ssize_t n;
	int fd;

	proc = opendir("/proc");
	if (!proc)
		return;
	while ((p = readdir(proc))) {
		if (p->d_name[0] < '1' || p->d_name[0] > '9' ||
		    snprintf(path, sizeof(path), "/proc/%s/task", p->d_name) >=
		    (int)sizeof(path))
			continue;
		task = opendir(path);
		if (!task)
			continue;
		while ((t = readdir(task))) {
			if (t->d_name[0] < '1' || t->d_name[0] > '9' ||
			    snprintf(path, sizeof(path), "/proc/%s/task/%s/cgroup",
				     p->d_name, t->d_name) >= (int)sizeof(path))
				continue;
			fd = open(path, O_RDONLY | O_CLOEXEC);
			if (fd < 0)
				continue;
			n = read(fd, buf, sizeof(buf) - 1);
			close(fd);
			if (n <= 0)
				continue;
			buf[n] = '\0';
			for (line = buf; line; line = strchr(line, '\n'),
			     line = line ? line + 1 : NULL) {
				size_t len;

				if (strncmp(line, "0::/", 4))
					continue;
				len = strcspn(line + 3, "\n");
				if (put_cgroup(m, t->d_name, line + 3, len) < 0) {
					closedir(task);
					closedir(proc);
					return;
				}
				break;
			}
		}
		closedir(task);
	}
	closedir(proc);
}

static int add_format(const struct ltr_session *s, struct ltr_meta *m,
		      const char *system, const char *name,
		      struct lt_error *err)
{
	struct ltr_dat_format *f;
	char rel[512];
	size_t len;
	char *text;

	snprintf(rel, sizeof(rel), "events/%s/%s/format", system, name);
	text = read_tracefs(s, NULL, rel, &len, err);
	if (!text)
		return -1;
	if (m->nr_formats == m->cap_formats) {
		size_t cap = m->cap_formats ? m->cap_formats * 2 : 32;

		f = realloc(m->formats, cap * sizeof(*f));
		if (!f) {
			free(text);
			return nomem(err);
		}
		m->formats = f;
		m->cap_formats = cap;
	}
	f = &m->formats[m->nr_formats++];
	f->system = strcmp(system, "ftrace") ? strdup(system) : "ftrace";
	f->text = text;
	f->len = len;
	if (!f->system) {
		m->nr_formats--;
		free(text);
		return nomem(err);
	}
	return 0;
}

/* Every ftrace event's format, as trace-cmd stores them. */
static int add_ftrace_formats(const struct ltr_session *s, struct ltr_meta *m,
			      struct lt_error *err)
{
	char *dir = ltr_path_join(ltr_session_tracefs(s), "events/ftrace");
	struct dirent *de;
	char *fmt;
	DIR *d;
	int ret = 0;

	if (!dir)
		return nomem(err);
	d = opendir(dir);
	if (!d) {
		lt_error_set(err, ltr_errno_code(errno), "cannot read %s: %s",
			      dir, strerror(errno));
		free(dir);
		return -1;
	}
	while (!ret && (de = readdir(d)) != NULL) {
		if (de->d_name[0] == '.')
			continue;
		fmt = ltr_path_join(dir, de->d_name);
		if (!fmt) {
			ret = nomem(err);
			break;
		}
		if (strlen(fmt) < 1000) {
			char f[1100];

			snprintf(f, sizeof(f), "%s/format", fmt);
			if (access(f, R_OK) == 0)
				ret = add_format(s, m, "ftrace", de->d_name, err);
		}
		free(fmt);
	}
	closedir(d);
	free(dir);
	return ret;
}

/* "local" from "[local] global counter ...". */
static char *current_clock(const struct ltr_session *s)
{
	struct lt_error err;
	char *text = read_tracefs(s, ltr_session_dir(s), "trace_clock", NULL, &err);
	char *open, *close, *clock;

	if (!text)
		return NULL;
	open = strchr(text, '[');
	close = open ? strchr(open, ']') : NULL;
	clock = close ? strndup(open + 1, (size_t)(close - open - 1)) : NULL;
	free(text);
	return clock;
}

int ltr_meta_begin(struct ltr_session *s, struct ltr_meta **out,
		   struct lt_error *err)
{
	const struct ltr_event *ev;
	struct ltr_meta *m;
	size_t i, n;

	*out = NULL;
	m = calloc(1, sizeof(*m));
	if (!m)
		return nomem(err);
	m->header_page = read_tracefs(s, NULL, "events/header_page",
				      &m->in.header_page_len, err);
	if (!m->header_page)
		goto fail;
	m->header_event = read_tracefs(s, NULL, "events/header_event",
				       &m->in.header_event_len, err);
	if (!m->header_event || add_ftrace_formats(s, m, err))
		goto fail;
	n = ltr_session_events(s, &ev);
	for (i = 0; i < n; i++)
		if (ev[i].state == LTR_EVENT_ENABLED &&
		    add_format(s, m, ev[i].system, ev[i].name, err))
			goto fail;
	m->clock = current_clock(s);
	m->cpus = ltr_session_cpus(s);
	add_cgroups(m);
	m->cgroups_fresh = true;
	*out = m;
	return 0;
fail:
	ltr_meta_free(m);
	return -1;
}

int ltr_meta_end(struct ltr_session *s, struct ltr_meta *m,
		 struct lt_error *err)
{
	struct utsname u;
	size_t len;
	int i;

	/* kallsyms names the frames of stacks; without it, addresses */
	free(m->kallsyms);
	m->kallsyms = ltr_read_file("/proc/kallsyms", &len);
	if (!m->kallsyms) {
		ltr_log(LTR_LOG_WARN, "cannot read /proc/kallsyms (%s): stacks will show addresses",
			strerror(errno));
		len = 0;
	}
	m->in.kallsyms_len = len;
	free(m->printk);
	m->printk = read_tracefs(s, NULL, "printk_formats", &m->in.printk_len, err);
	free(m->cmdlines);
	m->cmdlines = m->printk ? read_tracefs(s, NULL, "saved_cmdlines",
					       &m->in.cmdlines_len, err) : NULL;
	if (!m->cmdlines)
		return -1;
	/* again at the end of a live session: what the start read goes */
	free(m->uname);
	m->uname = NULL;
	for (i = 0; m->cpustats && i < m->cpus; i++)
		free(m->cpustats[i]);
	free(m->cpustats);
	if (uname(&u) == 0 &&
	    asprintf(&m->uname, "%s %s %s %s %s", u.sysname, u.nodename,
		     u.release, u.version, u.machine) < 0)
		m->uname = NULL;
	m->cpustats = calloc((size_t)m->cpus, sizeof(*m->cpustats));
	if (!m->cpustats)
		return nomem(err);
	/* live mode's first call, right after the start: read already */
	if (!m->cgroups_fresh)
		add_cgroups(m);
	m->cgroups_fresh = false;
	for (i = 0; i < m->cpus; i++) {
		char *stats = ltr_session_cpu_stats(s, i);

		if (stats && asprintf(&m->cpustats[i], "CPU: %d\n%s", i, stats) < 0)
			m->cpustats[i] = NULL;
		free(stats);
	}
	return 0;
}

struct ltr_dat_input *ltr_meta_input(struct ltr_meta *m)
{
	struct ltr_dat_input *in = &m->in;

	in->page_size = 0;	/* the caller's: its stream knows */
	in->long_size = (int)sizeof(long);
	in->header_page = m->header_page;
	in->header_event = m->header_event;
	in->formats = m->formats;
	in->nr_formats = m->nr_formats;
	in->kallsyms = m->kallsyms ? m->kallsyms : "";
	in->printk = m->printk ? m->printk : "";
	in->cmdlines = m->cmdlines ? m->cmdlines : "";
	in->cgroups = m->cgroups_len ? m->cgroups : NULL;
	in->uname = m->uname;
	in->version = "latency-record " LT_VERSION_STRING;
	in->clock = m->clock ? m->clock : "local";
	in->cpus = m->cpus;
	in->cpustats = (const char *const *)m->cpustats;
	return in;
}

void ltr_meta_free(struct ltr_meta *m)
{
	size_t i;

	if (!m)
		return;
	for (i = 0; i < m->nr_formats; i++) {
		free((char *)m->formats[i].text);
		if (strcmp(m->formats[i].system, "ftrace"))
			free((char *)m->formats[i].system);
	}
	free(m->formats);
	for (i = 0; m->cpustats && i < (size_t)m->cpus; i++)
		free(m->cpustats[i]);
	free(m->cpustats);
	free(m->header_page);
	free(m->header_event);
	free(m->kallsyms);
	free(m->printk);
	free(m->cmdlines);
	free(m->cgroups);
	free(m->uname);
	free(m->clock);
	free(m);
}
