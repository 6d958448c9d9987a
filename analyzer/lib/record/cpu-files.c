// SPDX-License-Identifier: LGPL-2.1
/*
 * cpu-files.c - each CPU's ring-buffer pages in a file of its own while
 * tracing runs (latency-record always, --live with --save), until the
 * trace.dat writer copies them in.
 *
 * They live in a private directory (mode 0700) beside the output, made
 * for the run: nothing of anybody else's can be named like them, and a
 * link planted there could not be followed (O_EXCL | O_NOFOLLOW).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lt-outfile.h"
#include "record-local.h"

int ltr_cpu_files_open(struct ltr_cpu_files *f, const char *out, int cpus,
		       struct ltr_journal *j, struct lt_error *err)
{
	struct ltr_journal_file jf = { j, LTR_UNDO_RMTREE, 0, { 0 } };
	int i;

	f->cpus = cpus;
	f->fds = calloc((size_t)cpus, sizeof(*f->fds));
	f->paths = calloc((size_t)cpus, sizeof(*f->paths));
	if (!f->fds || !f->paths) {
		lt_error_set(err, LT_E_NOMEM, "out of memory");
		return -1;
	}
	for (i = 0; i < cpus; i++)
		f->fds[i] = -1;
	/* journaled before it is made: a kill leaves none of it */
	f->dir = lt_outfile_scratch_dir_hook(out, ltr_journal_file_hook, &jf);
	f->journal = j;
	f->dir_id = jf.id;
	if (!f->dir && jf.err.code) {
		*err = jf.err;
		return -1;
	}
	if (!f->dir) {
		lt_error_set(err, LT_E_OUTPUT, "cannot make a directory for %s's per-CPU pages: %s",
			      out, strerror(errno));
		return -1;
	}
	for (i = 0; i < cpus; i++) {
		if (asprintf(&f->paths[i], "%s/cpu%d", f->dir, i) < 0) {
			f->paths[i] = NULL;
			lt_error_set(err, LT_E_NOMEM, "out of memory");
			return -1;
		}
		f->fds[i] = open(f->paths[i], O_RDWR | O_CREAT | O_EXCL |
				 O_NOFOLLOW | O_CLOEXEC, 0600);
		if (f->fds[i] < 0) {
			lt_error_set(err, LT_E_OUTPUT, "cannot write %s: %s",
				      f->paths[i], strerror(errno));
			return -1;
		}
	}
	return 0;
}

int ltr_cpu_files_write(void *files, int cpu, const void *pages, size_t len)
{
	struct ltr_cpu_files *f = files;
	int e, zero = 0;

	if (!ltr_write_all(f->fds[cpu], pages, len))
		return 0;
	e = errno;
	if (atomic_compare_exchange_strong(&f->error, &zero, e))
		atomic_store(&f->error_cpu, cpu);
	return e;
}

void ltr_cpu_files_close(struct ltr_cpu_files *f)
{
	int i;

	for (i = 0; f->fds && i < f->cpus; i++) {
		if (f->fds[i] >= 0)
			close(f->fds[i]);
		if (f->paths[i])
			unlink(f->paths[i]);
		free(f->paths[i]);
	}
	free(f->fds);
	free(f->paths);
	f->fds = NULL;
	f->paths = NULL;
	if (f->dir)
		lt_outfile_scratch_remove(f->dir);
	ltr_journal_done(f->journal, f->dir_id);
	f->dir_id = 0;
	free(f->dir);
	f->dir = NULL;
}
