/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * record-local.h - what the recording library's files share, and nobody else.
 */
#ifndef LTR_LOCAL_H
#define LTR_LOCAL_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>

#include "ltr.h"

#define LTR_ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

void ltr_log(enum ltr_log_level level, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* $LT_LOCK, else LTR_LOCK_PATH (or @path when given). */
const char *ltr_lock_path(const char *path);
/*
 * Take the shared tracefs lock without waiting: its fd, or -1 with
 * LT_E_BUSY (held by someone) or LT_E_PERM/LT_E_TRACEFS.
 */
int ltr_lock_take(const char *path, struct lt_error *err);
void ltr_lock_release(int fd);

/*
 * The whole of a file (procfs and tracefs files have no size): malloc'd,
 * NUL-terminated, its length in *len; NULL with errno.
 */
char *ltr_read_file(const char *path, size_t *len);
/* Write @text to @path as one write(); 0, or -1 with errno. */
int ltr_write_file(const char *path, const char *text);
/* Every byte of @buf to @fd (EINTR retried); 0, or -1 with errno. */
int ltr_write_all(int fd, const void *buf, size_t len);

/* "x" joined to "y" as "x/y", malloc'd (NULL: out of memory). */
char *ltr_path_join(const char *dir, const char *name);

/*
 * The tracing directory (malloc'd): @want, else $LT_TRACEFS, else the
 * mounted tracefs; with @mount_id, one mounted on /sys/kernel/tracing
 * if none is, journaled in @j first (*@mount_id: its journal id, -1
 * without a journal; 0 when nothing was mounted).  libtracefs is set to
 * use it.  NULL with @err.
 */
char *ltr_tracefs_find(const char *want, struct ltr_journal *j, long *mount_id,
		       struct lt_error *err);

/* What a failed open or write of a tracefs file means, as an error code. */
enum lt_errcode ltr_errno_code(int e);

#endif /* LTR_LOCAL_H */
