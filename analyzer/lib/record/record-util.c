// SPDX-License-Identifier: LGPL-2.1
/*
 * util.c - errors, notes, the shared lock and file helpers of the
 * recording library (ltr.h, record-local.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include <tracefs.h>

#include "record-local.h"

static ltr_log_fn log_fn;
static void *log_ctx;

void ltr_set_log_fn(ltr_log_fn fn, void *ctx)
{
	log_fn = fn;
	log_ctx = ctx;
}

void ltr_log(enum ltr_log_level level, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	if (!log_fn)
		return;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	log_fn(log_ctx, level, msg);
}

const char *ltr_lock_path(const char *path)
{
	const char *env = getenv("LT_LOCK");

	if (path && *path)
		return path;
	return env && *env ? env : LTR_LOCK_PATH;
}

int ltr_lock_take(const char *path, struct lt_error *err)
{
	int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);

	if (fd < 0)
		fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		lt_error_set(err, ltr_errno_code(errno),
			      "cannot open the tracefs lock %s: %s", path,
			      strerror(errno));
		return -1;
	}
	if (flock(fd, LOCK_EX | LOCK_NB) < 0) {
		int e = errno;

		close(fd);
		if (e == EWOULDBLOCK)
			lt_error_set(err, LT_E_BUSY,
				      "tracefs busy: %s is held by another recording of the top-level instance",
				      path);
		else
			lt_error_set(err, LT_E_TRACEFS,
				      "cannot lock %s: %s", path, strerror(e));
		return -1;
	}
	return fd;
}

void ltr_lock_release(int fd)
{
	if (fd >= 0) {
		flock(fd, LOCK_UN);
		close(fd);
	}
}

char *ltr_read_file(const char *path, size_t *len)
{
	size_t cap = 4096, n = 0;
	char *buf, *nb;
	ssize_t r;
	int fd, e;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	buf = malloc(cap);
	if (!buf)
		goto fail;
	for (;;) {
		if (cap - n < 2) {
			nb = realloc(buf, cap * 2);
			if (!nb)
				goto fail;
			buf = nb;
			cap *= 2;
		}
		r = read(fd, buf + n, cap - n - 1);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			goto fail;
		if (r == 0)
			break;
		n += (size_t)r;
	}
	close(fd);
	buf[n] = '\0';
	if (len)
		*len = n;
	return buf;
fail:
	e = errno;
	free(buf);
	close(fd);
	errno = e;
	return NULL;
}

int ltr_write_file(const char *path, const char *text)
{
	size_t len = strlen(text);
	ssize_t r;
	int fd, e;

	fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC);
	if (fd < 0)
		return -1;
	do
		r = write(fd, text, len);
	while (r < 0 && errno == EINTR);
	e = errno;
	close(fd);
	if (r < 0) {
		errno = e;
		return -1;
	}
	if ((size_t)r != len) {
		errno = EIO;
		return -1;
	}
	return 0;
}

int ltr_write_all(int fd, const void *buf, size_t len)
{
	const char *p = buf;
	ssize_t r;

	while (len) {
		r = write(fd, p, len);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return -1;
		if (r == 0) {
			errno = ENOSPC;
			return -1;
		}
		p += r;
		len -= (size_t)r;
	}
	return 0;
}

char *ltr_path_join(const char *dir, const char *name)
{
	size_t a = strlen(dir), b = strlen(name);
	char *p = malloc(a + b + 2);

	if (!p)
		return NULL;
	memcpy(p, dir, a);
	p[a] = '/';
	memcpy(p + a + 1, name, b + 1);
	return p;
}

enum lt_errcode ltr_errno_code(int e)
{
	switch (e) {
	case EACCES:
	case EPERM:
	case EROFS:
		return LT_E_PERM;
	case ENOENT:
	case ENOTDIR:
		return LT_E_UNSUPPORTED;
	case EBUSY:
		return LT_E_BUSY;
	case ENOMEM:
		return LT_E_NOMEM;
	default:
		return LT_E_TRACEFS;
	}
}

char *ltr_tracefs_mounted(void)
{
	char *text = ltr_read_file("/proc/self/mounts", NULL), *line, *next;
	char *found = NULL;

	/*
	 * tracefs itself only: debugfs's tracing/ would mount one when
	 * looked into, which is what is avoided here
	 */
	for (line = text; line && *line && !found; line = next) {
		char dev[64], dir[4096], type[64];

		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		/* mount points escape blanks as \040: the usual ones have none */
		if (sscanf(line, "%63s %4095s %63s", dev, dir, type) == 3 &&
		    !strcmp(type, "tracefs"))
			found = strdup(dir);
	}
	free(text);
	return found;
}

char *ltr_tracefs_find(const char *want, struct ltr_journal *j, long *mount_id,
		       struct lt_error *err)
{
	static const char default_dir[] = "/sys/kernel/tracing";
	const char *env = getenv("LT_TRACEFS");
	char *dir = NULL;

	if (mount_id)
		*mount_id = 0;
	if (!want && env && *env)
		want = env;
	if (want) {
		dir = strdup(want);
	} else {
		/*
		 * Found in the mount table, not by libtracefs: its
		 * tracefs_tracing_dir() mounts tracefs when none is, and
		 * never says so.  A mount of ours is journaled first.
		 */
		dir = ltr_tracefs_mounted();
		if (!dir && !mount_id) {
			lt_error_set(err, LT_E_NO_TRACEFS,
				      "tracefs is not mounted (mount -t tracefs nodev %s)",
				      default_dir);
			return NULL;
		}
		if (!dir) {
			long id = ltr_journal_add(j, LTR_UNDO_UMOUNT, default_dir,
						  NULL, err);

			if (id < 0)
				return NULL;
			if (mount("nodev", default_dir, "tracefs", 0, NULL) < 0) {
				lt_error_set(err, errno == EPERM || errno == EACCES ?
					      LT_E_PERM : LT_E_NO_TRACEFS,
					      "tracefs is not mounted and cannot be mounted on %s: %s (mount -t tracefs nodev %s, as root)",
					      default_dir, strerror(errno), default_dir);
				ltr_journal_done(j, id);
				return NULL;
			}
			*mount_id = id ? id : -1;
			dir = strdup(default_dir);
		}
	}
	/* libtracefs is to use it too, and to look for no other */
	if (!dir || tracefs_set_tracing_dir(dir) < 0) {
		free(dir);
		lt_error_set(err, LT_E_NOMEM, "out of memory");
		return NULL;
	}
	return dir;
}
