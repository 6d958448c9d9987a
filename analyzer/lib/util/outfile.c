// SPDX-License-Identifier: LGPL-2.1
/*
 * outfile.c - output files written beside their path and renamed over it
 * when complete (lt-outfile.h).
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lt-outfile.h"

bool lt_outfile_is_stdout(const char *name)
{
	return name && !strcmp(name, "-");
}

/* "DIR/.BASE.SUFFIX" for @path, malloc()ed */
static char *beside(const char *path, const char *suffix)
{
	char *d = strdup(path), *b = strdup(path), *out = NULL;

	if (d && b && asprintf(&out, "%s/.%s.%s", dirname(d), basename(b),
			       suffix) < 0)
		out = NULL;
	free(d);
	free(b);
	if (!out)
		errno = ENOMEM;
	return out;
}

/*
 * The file a new output replaces: @name itself, or the regular file a
 * link names (kept as a link).  A link to nothing is refused: creating
 * its target would be following it.
 */
static char *target(const char *name, struct stat *st, bool *exists)
{
	struct stat lst;

	*exists = !stat(name, st);
	if (!*exists && errno != ENOENT)
		return NULL;
	/* a device or a pipe by any name (/dev/stdout) is written as named */
	if (*exists && !S_ISREG(st->st_mode))
		return strdup(name);
	if (lstat(name, &lst)) {
		if (errno != ENOENT)
			return NULL;
		return strdup(name);
	}
	if (!S_ISLNK(lst.st_mode))
		return strdup(name);
	if (!*exists) {
		errno = ELOOP;
		return NULL;
	}
	return realpath(name, NULL);
}

/*
 * Replace the trailing "XXXXXX" of @path with random letters and make it,
 * as mkostemp() and mkdtemp() do, but telling @hook of the name first.
 * The fd (a file), 0 (a directory), or -1 with errno.
 */
static int make_unique(char *path, bool dir, lt_outfile_hook hook, void *ctx)
{
	static const char chars[] = "abcdefghijklmnopqrstuvwxyz"
				    "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
	char *x = path + strlen(path) - 6;
	unsigned char rnd[6];
	int tries, i, fd;

	for (tries = 0; tries < 100; tries++) {
		if (getentropy(rnd, sizeof(rnd)) < 0)
			return -1;
		for (i = 0; i < 6; i++)
			x[i] = chars[rnd[i] % (sizeof(chars) - 1)];
		if (hook && hook(ctx, path) < 0)
			return -1;
		/* O_EXCL: never through a link planted there */
		if (dir)
			fd = mkdir(path, 0700);
		else
			fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW |
				  O_CLOEXEC, 0600);
		if (fd >= 0 || errno != EEXIST)
			return fd;
	}
	errno = EEXIST;
	return -1;
}

static mode_t new_file_mode(void)
{
	mode_t mask = umask(0);

	umask(mask);
	return 0666 & ~mask;
}

int lt_outfile_open(struct lt_outfile *o, const char *name)
{
	return lt_outfile_open_hook(o, name, NULL, NULL);
}

int lt_outfile_open_hook(struct lt_outfile *o, const char *name,
			 lt_outfile_hook hook, void *ctx)
{
	struct stat st;
	bool exists;

	memset(o, 0, sizeof(*o));
	o->fd = -1;
	if (lt_outfile_is_stdout(name)) {
		o->in_place = true;
		o->path = strdup("-");
		o->fd = o->path ? dup(STDOUT_FILENO) : -1;
		goto done;
	}
	o->path = target(name, &st, &exists);
	if (!o->path)
		return -1;
	if (exists && !S_ISREG(st.st_mode)) {
		/* a device, a FIFO, a terminal: theirs, written as it is */
		o->in_place = true;
		o->fd = open(o->path, O_WRONLY | O_NOCTTY | O_CLOEXEC);
		goto done;
	}
	o->tmp = beside(o->path, "XXXXXX");
	if (!o->tmp)
		goto done;
	o->fd = make_unique(o->tmp, false, hook, ctx);
	if (o->fd < 0) {
		free(o->tmp);
		o->tmp = NULL;
		goto done;
	}
	if (exists) {
		/* as the file it replaces; an owner we cannot give, we do not */
		if (fchown(o->fd, st.st_uid, st.st_gid)) {
			/* not root: the file stays ours */
		}
		fchmod(o->fd, st.st_mode & 07777);
	} else {
		fchmod(o->fd, new_file_mode());
	}
done:
	if (o->fd >= 0)
		return 0;
	{
		int e = errno;

		free(o->path);
		o->path = NULL;
		errno = e;
	}
	return -1;
}

int lt_outfile_fopen(struct lt_outfile *o, const char *name, FILE **f)
{
	if (lt_outfile_open(o, name))
		return -1;
	*f = fdopen(o->fd, "w");
	if (*f)
		return 0;
	{
		int e = errno;

		lt_outfile_abort(o, NULL);
		errno = e;
	}
	return -1;
}

static void release(struct lt_outfile *o)
{
	free(o->path);
	free(o->tmp);
	o->path = o->tmp = NULL;
	o->fd = -1;
}

int lt_outfile_commit(struct lt_outfile *o, FILE *f)
{
	int e = 0;

	if (f) {
		if (fflush(f) || ferror(f))
			e = errno ? errno : EIO;
		if (fclose(f) && !e)
			e = errno;
	} else if (o->fd >= 0 && close(o->fd)) {
		e = errno;
	}
	o->fd = -1;
	if (!e && o->tmp && rename(o->tmp, o->path))
		e = errno;
	if (e && o->tmp)
		unlink(o->tmp);
	release(o);
	if (!e)
		return 0;
	errno = e;
	return -1;
}

void lt_outfile_abort(struct lt_outfile *o, FILE *f)
{
	int e = errno;

	if (f)
		fclose(f);
	else if (o->fd >= 0)
		close(o->fd);
	if (o->tmp)
		unlink(o->tmp);
	release(o);
	errno = e;
}

char *lt_outfile_scratch_dir(const char *name)
{
	return lt_outfile_scratch_dir_hook(name, NULL, NULL);
}

char *lt_outfile_scratch_dir_hook(const char *name, lt_outfile_hook hook,
				  void *ctx)
{
	struct stat st;
	const char *tmpdir;
	char *dir;

	if (!lt_outfile_is_stdout(name) &&
	    (stat(name, &st) ? errno == ENOENT : S_ISREG(st.st_mode))) {
		dir = beside(name, "d.XXXXXX");
		if (dir && make_unique(dir, true, hook, ctx) < 0)
			goto fail;
		return dir;
	}
	/* a device or a pipe has no directory of ours beside it */
	tmpdir = getenv("TMPDIR");
	if (!tmpdir || !*tmpdir)
		tmpdir = "/tmp";
	if (asprintf(&dir, "%s/latencytop.XXXXXX", tmpdir) < 0) {
		errno = ENOMEM;
		return NULL;
	}
	if (make_unique(dir, true, hook, ctx) == 0)
		return dir;
fail:
	{
		int e = errno;

		free(dir);
		errno = e;
	}
	return NULL;
}

void lt_outfile_scratch_remove(const char *dir)
{
	struct dirent *de;
	struct stat st;
	DIR *d;

	if (!dir)
		return;
	d = opendir(dir);
	if (d) {
		while ((de = readdir(d))) {
			if (!fstatat(dirfd(d), de->d_name, &st, AT_SYMLINK_NOFOLLOW) &&
			    S_ISREG(st.st_mode))
				unlinkat(dirfd(d), de->d_name, 0);
		}
		closedir(d);
	}
	rmdir(dir);
}
