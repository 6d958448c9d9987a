// SPDX-License-Identifier: LGPL-2.1
/*
 * record-util.c - notes, the shared lock and file helpers of the
 * recording library (ltr.h, record-local.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

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

