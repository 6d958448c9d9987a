// SPDX-License-Identifier: LGPL-2.1
/*
 * journal.c - what a run changed, on disk before each change, so that a
 * run killed by SIGKILL (or a crash) is undone by the next one (ltr.h).
 *
 * A journal is a file of its own per run in LTR_JOURNAL_DIR
 * ($LT_JOURNAL_DIR), held under flock() for the run's life: a journal
 * whose lock can be taken belongs to a run that is gone, whatever killed
 * it.  It is created under a temporary name, locked, then renamed into
 * place, so nobody ever finds it unlocked while its owner lives.  Lines,
 * each written with one write() before the change it undoes is made:
 *
 *   owner PID PROGRAM
 *   + ID KIND PATH [VALUE]     a change, and how to undo it
 *   - ID                       undone, or meant to stay
 *
 * Fields are tab-separated, with \t, \n and \\ escaped.  A run that ends
 * normally removes its journal; replaying a dead run's undoes what it
 * did not, newest first, then removes the file.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "record-local.h"

#define JOURNAL_PREFIX	"journal."

struct ltr_journal {
	int fd;
	char *path;
	long next_id;
};

static const char *const kind_names[] = {
	[LTR_UNDO_WRITE] = "write",
	[LTR_UNDO_APPEND] = "append",
	[LTR_UNDO_RMDIR] = "rmdir",
	[LTR_UNDO_UMOUNT] = "umount",
	[LTR_UNDO_UNLINK] = "unlink",
	[LTR_UNDO_RMTREE] = "rmtree",
};

const char *ltr_journal_dir(void)
{
	const char *env = getenv("LT_JOURNAL_DIR");

	return env && *env ? env : LTR_JOURNAL_DIR;
}

/* @s with tab, newline and backslash escaped, appended to @buf */
static size_t put_escaped(char *buf, size_t at, size_t size, const char *s)
{
	for (; *s && at + 2 < size; s++) {
		char c = *s == '\t' ? 't' : *s == '\n' ? 'n' : *s == '\\' ? '\\' : 0;

		if (c) {
			buf[at++] = '\\';
			buf[at++] = c;
		} else {
			buf[at++] = *s;
		}
	}
	return at;
}

/* One line, in one write(): the change is on disk before it is made. */
static int put_line(struct ltr_journal *j, const char *line, size_t len,
		    struct lt_error *err)
{
	if (ltr_write_all(j->fd, line, len) == 0)
		return 0;
	lt_error_set(err, LT_E_OUTPUT, "cannot write the journal %s: %s",
		     j->path, strerror(errno));
	return -1;
}

/*
 * The journal's directory, and its parent if that is missing: a minimal
 * system (an initramfs, a container) may have no /run at all.
 */
static int make_dir(const char *dir)
{
	char parent[PATH_MAX];
	char *slash;

	if (mkdir(dir, 0700) == 0 || errno == EEXIST)
		return 0;
	if (errno != ENOENT || strlen(dir) >= sizeof(parent))
		return -1;
	strcpy(parent, dir);
	slash = strrchr(parent, '/');
	if (!slash || slash == parent)
		return -1;
	*slash = '\0';
	if (mkdir(parent, 0755) < 0 && errno != EEXIST)
		return -1;
	return mkdir(dir, 0700) == 0 || errno == EEXIST ? 0 : -1;
}

int ltr_journal_open(const char *program, struct ltr_journal **out,
		     struct lt_error *err)
{
	const char *dir = ltr_journal_dir();
	struct ltr_journal *j;
	char *tmp = NULL, line[256];
	int n;

	*out = NULL;
	j = calloc(1, sizeof(*j));
	if (!j) {
		lt_error_set(err, LT_E_NOMEM, "out of memory");
		return -1;
	}
	j->fd = -1;
	if (make_dir(dir) < 0) {
		lt_error_set(err, ltr_errno_code(errno),
			     "cannot make the journal directory %s: %s%s", dir,
			     strerror(errno), errno == EACCES || errno == EPERM ?
			     " (latency-record needs root)" : "");
		goto fail;
	}
	if (asprintf(&tmp, "%s/.new.XXXXXX", dir) < 0 ||
	    asprintf(&j->path, "%s/" JOURNAL_PREFIX "%d", dir, (int)getpid()) < 0) {
		tmp = NULL;
		lt_error_set(err, LT_E_NOMEM, "out of memory");
		goto fail;
	}
	j->fd = mkostemp(tmp, O_CLOEXEC | O_APPEND);
	if (j->fd < 0 || flock(j->fd, LOCK_EX) < 0 || rename(tmp, j->path) < 0) {
		lt_error_set(err, ltr_errno_code(errno),
			     "cannot make a journal in %s: %s%s", dir,
			     strerror(errno), errno == EACCES || errno == EPERM ?
			     " (latency-record needs root)" : "");
		if (j->fd >= 0)
			unlink(tmp);
		goto fail;
	}
	free(tmp);
	n = snprintf(line, sizeof(line), "owner\t%d\t%s\n", (int)getpid(),
		     program);
	if (put_line(j, line, (size_t)n, err) < 0) {
		ltr_journal_close(j);
		return -1;
	}
	*out = j;
	return 0;
fail:
	free(tmp);
	if (j->fd >= 0)
		close(j->fd);
	free(j->path);
	free(j);
	return -1;
}

long ltr_journal_add(struct ltr_journal *j, enum ltr_undo kind,
		     const char *path, const char *value, struct lt_error *err)
{
	char line[8192];
	size_t at;
	long id;

	if (!j)
		return 0;
	id = ++j->next_id;
	at = (size_t)snprintf(line, sizeof(line), "+\t%ld\t%s\t", id,
			      kind_names[kind]);
	at = put_escaped(line, at, sizeof(line), path);
	if (value) {
		line[at++] = '\t';
		at = put_escaped(line, at, sizeof(line), value);
	}
	line[at++] = '\n';
	return put_line(j, line, at, err) < 0 ? -1 : id;
}

int ltr_journal_file_hook(void *ctx, const char *path)
{
	struct ltr_journal_file *f = ctx;

	/* a name tried before was somebody else's: not ours to remove */
	ltr_journal_done(f->j, f->id);
	f->id = ltr_journal_add(f->j, f->kind, path, NULL, &f->err);
	if (f->id >= 0)
		return 0;
	f->id = 0;
	errno = EIO;
	return -1;
}

void ltr_journal_done(struct ltr_journal *j, long id)
{
	char line[32];
	int n;

	if (!j || id <= 0)
		return;
	n = snprintf(line, sizeof(line), "-\t%ld\n", id);
	/* at worst, a replay undoes again what is undone: harmless */
	(void)!ltr_write_all(j->fd, line, (size_t)n);
}

void ltr_journal_close(struct ltr_journal *j)
{
	if (!j)
		return;
	unlink(j->path);
	close(j->fd);
	free(j->path);
	free(j);
}

/* ---- undoing -------------------------------------------------------------- */

/* Remove @dir's regular files (not below), then @dir. */
static int rmtree(const char *dir)
{
	struct dirent *de;
	struct stat st;
	DIR *d = opendir(dir);

	if (!d)
		return errno == ENOENT ? 0 : -1;
	while ((de = readdir(d)) != NULL)
		if (!fstatat(dirfd(d), de->d_name, &st, AT_SYMLINK_NOFOLLOW) &&
		    S_ISREG(st.st_mode))
			unlinkat(dirfd(d), de->d_name, 0);
	closedir(d);
	return rmdir(dir) < 0 && errno != ENOENT ? -1 : 0;
}

/* @text appended to @path (dynamic_events: O_TRUNC would clear them all) */
static int append_file(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_APPEND | O_CLOEXEC), e;
	int r;

	if (fd < 0)
		return -1;
	r = ltr_write_all(fd, text, strlen(text));
	e = errno;
	close(fd);
	errno = e;
	return r;
}

int ltr_undo(enum ltr_undo kind, const char *path, const char *value)
{
	int tries;

	switch (kind) {
	case LTR_UNDO_WRITE:
		return ltr_write_file(path, value ? value : "");
	case LTR_UNDO_APPEND:
		return append_file(path, value ? value : "");
	case LTR_UNDO_RMDIR:
		/* EBUSY while a reader of ours still closes its files */
		for (tries = 0; tries < 50; tries++) {
			struct timespec ts = { 0, 20 * 1000 * 1000 };

			if (rmdir(path) == 0 || errno == ENOENT)
				return 0;
			if (errno != EBUSY)
				return -1;
			nanosleep(&ts, NULL);
		}
		return -1;
	case LTR_UNDO_UMOUNT:
		return umount(path) < 0 && errno != EINVAL ? -1 : 0;
	case LTR_UNDO_UNLINK:
		return unlink(path) < 0 && errno != ENOENT ? -1 : 0;
	case LTR_UNDO_RMTREE:
		return rmtree(path);
	}
	errno = EINVAL;
	return -1;
}

/* ---- replaying a dead run's journal ---------------------------------------- */

struct entry {
	long id;
	enum ltr_undo kind;
	char *path, *value;
	bool done;
};

/* Unescape the field at @s (ends at a tab or the end), in place. */
static char *field(char **s)
{
	char *start = *s, *w = *s, *r = *s;

	if (!r)
		return NULL;
	for (; *r && *r != '\t'; r++) {
		if (*r == '\\' && r[1]) {
			r++;
			*w++ = *r == 't' ? '\t' : *r == 'n' ? '\n' : *r;
		} else {
			*w++ = *r;
		}
	}
	*s = *r ? r + 1 : NULL;
	*w = '\0';
	return start;
}

static int kind_of(const char *name, enum ltr_undo *kind)
{
	size_t i;

	for (i = 0; i < LTR_ARRAY_SIZE(kind_names); i++)
		if (kind_names[i] && !strcmp(name, kind_names[i])) {
			*kind = (enum ltr_undo)i;
			return 0;
		}
	return -1;
}

/* Undo what a dead run's journal @text holds: how many were undone. */
static int replay(char *text, const char *file, ltr_journal_note_fn note,
		  void *ctx)
{
	struct entry *e = NULL, *grown;
	size_t n = 0, cap = 0, i;
	char *line, *next, owner[128] = "a run";
	int undone = 0;

	for (line = text; line && *line; line = next) {
		char *f, *p;

		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		p = line;
		f = field(&p);
		if (!strcmp(f, "owner")) {
			char *pid = field(&p), *prog = field(&p);

			snprintf(owner, sizeof(owner), "%s (pid %s)",
				 prog ? prog : "?", pid ? pid : "?");
		} else if (!strcmp(f, "+")) {
			char *id = field(&p), *kind = field(&p), *path = field(&p);
			char *value = field(&p);
			enum ltr_undo k;

			if (!id || !kind || !path || kind_of(kind, &k) < 0)
				continue;	/* a line cut by the kill */
			if (n == cap) {
				cap = cap ? cap * 2 : 32;
				grown = realloc(e, cap * sizeof(*e));
				if (!grown)
					break;
				e = grown;
			}
			e[n++] = (struct entry){ strtol(id, NULL, 10), k, path,
						 value, false };
		} else if (!strcmp(f, "-")) {
			char *id = field(&p);
			long v = id ? strtol(id, NULL, 10) : 0;

			for (i = n; i-- > 0; )
				if (e[i].id == v) {
					e[i].done = true;
					break;
				}
		}
	}
	for (i = n; i-- > 0; ) {
		int r;

		if (e[i].done)
			continue;
		r = ltr_undo(e[i].kind, e[i].path, e[i].value);
		if (note)
			note(ctx, owner, kind_names[e[i].kind], e[i].path,
			     e[i].value, r < 0 ? errno : 0);
		undone += r == 0;
	}
	free(e);
	(void)file;
	return undone;
}

int ltr_journal_replay_stale(ltr_journal_note_fn note, void *ctx)
{
	const char *dir = ltr_journal_dir();
	struct dirent *de;
	int total = 0;
	DIR *d = opendir(dir);

	if (!d)
		return 0;
	while ((de = readdir(d)) != NULL) {
		char *path, *text;
		int fd;

		if (strncmp(de->d_name, JOURNAL_PREFIX, strlen(JOURNAL_PREFIX)))
			continue;
		path = ltr_path_join(dir, de->d_name);
		fd = path ? open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW) : -1;
		/* held: its run is alive */
		if (fd < 0 || flock(fd, LOCK_EX | LOCK_NB) < 0) {
			if (fd >= 0)
				close(fd);
			free(path);
			continue;
		}
		text = ltr_read_file(path, NULL);
		if (text)
			total += replay(text, path, note, ctx);
		free(text);
		unlink(path);
		close(fd);
		free(path);
	}
	closedir(d);
	return total;
}
