/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * lt-outfile.h - writing an output file without harming what was there.
 *
 * The programs run as root on machines people care about, so an output
 * never truncates, removes or follows what the run did not create:
 *
 *   "-"                      standard output
 *   an existing non-regular  written in place, never truncated by us nor
 *   file (/dev/null, a FIFO, removed: what the user named is theirs
 *   a terminal)
 *   anything else            a temporary file beside it (O_EXCL, so never
 *                            through a planted link), renamed over it by
 *                            lt_outfile_commit() once complete; until then
 *                            (and after lt_outfile_abort()) the old file
 *                            is exactly as it was
 *
 * A symbolic link naming a regular file is followed once, at open: the
 * file it names is replaced, the link kept, as cp(1) would.
 */
#ifndef LT_OUTFILE_H
#define LT_OUTFILE_H

#include <stdbool.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

struct lt_outfile {
	char *path;	/* where the output ends up */
	char *tmp;	/* the temporary beside it, or NULL: written in place */
	int fd;
	bool in_place;	/* standard output or a non-regular file */
};

/*
 * Open @name for writing, as above.  0, or -1 with errno set.  @o's fd
 * is the one to write; @o must be committed or aborted.
 */
int lt_outfile_open(struct lt_outfile *o, const char *name);

/*
 * Told the path of a temporary before it is created (a journal that
 * removes it after a kill): 0, or -1 (errno set) not to create it.
 */
typedef int (*lt_outfile_hook)(void *ctx, const char *path);

/* lt_outfile_open(), with @hook (may be NULL) told of the temporary. */
int lt_outfile_open_hook(struct lt_outfile *o, const char *name,
			 lt_outfile_hook hook, void *ctx);

/* As lt_outfile_open(), with a stdio stream on it in *@f. */
int lt_outfile_fopen(struct lt_outfile *o, const char *name, FILE **f);

/*
 * The output is complete: rename the temporary over the path.  @f, if
 * not NULL, is the stream of lt_outfile_fopen(), flushed and closed here
 * (a write error then fails the commit).  0, or -1 with errno set and the
 * old file left as it was.
 */
int lt_outfile_commit(struct lt_outfile *o, FILE *f);

/* Give up: remove the temporary (only it), close @f or the fd. */
void lt_outfile_abort(struct lt_outfile *o, FILE *f);

/* Whether @name names standard output. */
bool lt_outfile_is_stdout(const char *name);

/*
 * A private directory for scratch files that belong with @name (a
 * recording's per-CPU pages): beside it where @name is a regular file
 * or new, else under $TMPDIR.  Mode 0700, so nothing inside can be
 * planted.  A malloc()ed path, or NULL with errno set.
 */
char *lt_outfile_scratch_dir(const char *name);
/* ... with @hook (may be NULL) told of the directory before it is made */
char *lt_outfile_scratch_dir_hook(const char *name, lt_outfile_hook hook,
				  void *ctx);

/* Remove @dir and the regular files in it (not below), as made above. */
void lt_outfile_scratch_remove(const char *dir);

#ifdef __cplusplus
}
#endif

#endif /* LT_OUTFILE_H */
