// SPDX-License-Identifier: LGPL-2.1
/*
 * mount.c - where tracefs is, and mounting it when it is nowhere
 * (record-local.h): found in the mount table, never by libtracefs's
 * tracefs_tracing_dir(), which mounts one silently when none is.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>

#include <tracefs.h>

#include "record-local.h"

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
