// SPDX-License-Identifier: LGPL-2.1
/*
 * stream.c - one reader per CPU, draining the ring buffer while the
 * workload runs (ltr.h).
 *
 * trace-cmd extract reads the buffers once, at the end: whatever did not
 * fit in them is lost.  Here each CPU's trace_pipe_raw is read through
 * libtracefs's tracefs_cpu (splice into a pipe, whole pages only) every
 * poll_ms, or sooner when the kernel says the buffer is filling
 * (buffer_percent), so the buffer only has to hold what a CPU writes in
 * between.  The pages go to the caller's callback as they are: the
 * recorder writes them to a file, a live view could decode them.
 *
 *   reader:  poll(trace_pipe_raw, stop pipe, poll_ms)
 *            -> tracefs_cpu_buffered_read() until EAGAIN -> pages()
 *   stop:    after tracing_on 0, tracefs_cpu_flush() until empty (the
 *            last, partly filled pages) -> pages(), and the thread ends
 */
#define _GNU_SOURCE	/* asprintf, pipe2, strsignal */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <event-parse.h>
#include <tracefs.h>

#include "record-local.h"

struct reader {
	struct ltr_stream *st;
	int cpu;
	int fd;
	struct tracefs_cpu *tcpu;
	pthread_t thread;
	bool running;
	char *buf;
	_Atomic uint64_t bytes;
	_Atomic uint64_t cpu_ns;	/* its CPU time, once it ended */
	atomic_bool ended;
	int error;		/* errno of the failure */
	const char *doing;	/* what failed */
};

struct ltr_stream {
	struct ltr_stream_opts o;
	int cpus;
	size_t page_size;
	struct reader *r;
	int stop_pipe[2];
	int fail_pipe[2];
	atomic_bool stopping;
	atomic_bool failed;
};

/* The ring buffer's page (sub-buffer) size, from events/header_page. */
static size_t page_size_of(const char *tracefs)
{
	char *path = ltr_path_join(tracefs, "events/header_page");
	size_t len, size = 0;
	struct tep_handle *tep;
	char *text;

	text = path ? ltr_read_file(path, &len) : NULL;
	free(path);
	tep = text ? tep_alloc() : NULL;
	if (tep && tep_parse_header_page(tep, text, len, sizeof(long)) == 0) {
		int sub = tep_get_sub_buffer_size(tep);

		if (sub > 0)
			size = (size_t)sub;
	}
	tep_free(tep);
	free(text);
	return size ? size : (size_t)sysconf(_SC_PAGESIZE);
}

static void reader_failed(struct reader *r, int e, const char *doing)
{
	char byte = 1;

	r->error = e ? e : EIO;
	r->doing = doing;
	if (!atomic_exchange(&r->st->failed, true))
		(void)!write(r->st->fail_pipe[1], &byte, 1);
}

static int deliver(struct reader *r, int n)
{
	int e = r->st->o.pages(r->st->o.ctx, r->cpu, r->buf, (size_t)n);

	if (e) {
		reader_failed(r, e, "storing");
		return -1;
	}
	atomic_fetch_add(&r->bytes, (uint64_t)n);
	return 0;
}

static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

/*
 * Partial mode: everything in the buffer at each poll, the page being
 * written too (read() copies out what it holds); then the watermark.
 * Woken early when the buffer fills to buffer_percent.
 */
static void *reader_partial(struct reader *r)
{
	struct ltr_stream *st = r->st;
	int timeout = st->o.poll_ms ? (int)st->o.poll_ms : 100;
	bool stopping;
	uint64_t before;
	int n;

	do {
		struct pollfd p[2];

		stopping = atomic_load(&st->stopping);
		before = mono_ns();
		while ((n = tracefs_cpu_read(r->tcpu, r->buf, true)) > 0)
			if (deliver(r, n))
				return NULL;
		if (n < 0 && errno != EAGAIN && errno != EINTR) {
			reader_failed(r, errno, "reading");
			return NULL;
		}
		if (st->o.drained)
			st->o.drained(st->o.ctx, r->cpu, before);
		if (stopping)
			break;
		p[0].fd = st->stop_pipe[0];
		p[0].events = POLLIN;
		p[1].fd = r->fd;
		p[1].events = POLLIN;
		poll(p, 2, timeout);
	} while (true);
	return NULL;
}

static void *reader_main(void *arg)
{
	struct reader *r = arg;
	struct ltr_stream *st = r->st;
	int timeout = st->o.poll_ms ? (int)st->o.poll_ms : 100;
	bool idle_wait = false;
	int n;

	if (st->o.partial)
		return reader_partial(r);
	for (;;) {
		bool stopping = atomic_load(&st->stopping);
		struct pollfd p[2];

		n = tracefs_cpu_buffered_read(r->tcpu, r->buf, true);
		if (n > 0) {
			if (deliver(r, n))
				return NULL;
			idle_wait = false;
			continue;
		}
		if (n < 0 && errno != EAGAIN && errno != EINTR) {
			reader_failed(r, errno, "reading");
			return NULL;
		}
		if (stopping)
			break;
		/*
		 * Readable but no whole page yet (buffer_percent 0): wait on
		 * the stop pipe only, not to spin on the partial page.
		 */
		p[0].fd = st->stop_pipe[0];
		p[0].events = POLLIN;
		p[1].fd = r->fd;
		p[1].events = POLLIN;
		if (poll(p, idle_wait ? 1 : 2, timeout) > 0 && !idle_wait &&
		    (p[1].revents & POLLIN))
			idle_wait = true;
		else
			idle_wait = false;
	}
	/* tracing is off: the rest, partly filled pages included */
	while ((n = tracefs_cpu_flush(r->tcpu, r->buf)) > 0)
		if (deliver(r, n))
			return NULL;
	if (n < 0 && errno != EAGAIN)
		reader_failed(r, errno, "reading the rest of");
	return NULL;
}

/* The reader, and its CPU time kept for after the join. */
static void *reader_thread(void *arg)
{
	struct reader *r = arg;
	struct timespec ts;

	reader_main(r);
	if (!clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts))
		atomic_store(&r->cpu_ns, (uint64_t)ts.tv_sec * 1000000000ULL +
					 (uint64_t)ts.tv_nsec);
	atomic_store(&r->ended, true);
	return NULL;
}

static void close_readers(struct ltr_stream *st)
{
	int i;

	for (i = 0; i < st->cpus; i++) {
		struct reader *r = &st->r[i];

		if (r->tcpu)
			tracefs_cpu_free_fd(r->tcpu);
		if (r->fd >= 0)
			close(r->fd);
		free(r->buf);
		r->tcpu = NULL;
		r->fd = -1;
		r->buf = NULL;
	}
}

void ltr_stream_free(struct ltr_stream *st)
{
	struct lt_error err;
	int i;

	if (!st)
		return;
	for (i = 0; i < st->cpus; i++)
		if (st->r[i].running) {
			ltr_stream_stop(st, &err);
			break;
		}
	close_readers(st);
	for (i = 0; i < 2; i++) {
		if (st->stop_pipe[i] >= 0)
			close(st->stop_pipe[i]);
		if (st->fail_pipe[i] >= 0)
			close(st->fail_pipe[i]);
	}
	free(st->r);
	free(st);
}

int ltr_stream_start(struct ltr_session *s, const struct ltr_stream_opts *o,
		     struct ltr_stream **out, struct lt_error *err)
{
	const char *dir = ltr_session_dir(s);
	sigset_t all, old;
	struct ltr_stream *st;
	char rel[64], *path;
	int i, e;

	*out = NULL;
	if (!dir || !o->pages) {
		lt_error_set(err, LT_E_INTERNAL, "no session or no page callback to stream");
		return -1;
	}
	st = calloc(1, sizeof(*st));
	if (!st)
		goto nomem;
	st->o = *o;
	st->stop_pipe[0] = st->stop_pipe[1] = -1;
	st->fail_pipe[0] = st->fail_pipe[1] = -1;
	st->cpus = ltr_session_cpus(s);
	st->page_size = page_size_of(ltr_session_tracefs(s));
	st->r = calloc((size_t)st->cpus, sizeof(*st->r));
	if (!st->r)
		goto nomem;
	for (i = 0; i < st->cpus; i++)
		st->r[i].fd = -1;
	if (pipe2(st->stop_pipe, O_CLOEXEC) < 0 ||
	    pipe2(st->fail_pipe, O_CLOEXEC | O_NONBLOCK) < 0) {
		lt_error_set(err, LT_E_INTERNAL, "pipe: %s", strerror(errno));
		goto fail;
	}
	for (i = 0; i < st->cpus; i++) {
		struct reader *r = &st->r[i];

		r->st = st;
		r->cpu = i;
		snprintf(rel, sizeof(rel), "per_cpu/cpu%d/trace_pipe_raw", i);
		path = ltr_path_join(dir, rel);
		if (!path)
			goto nomem;
		r->fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
		if (r->fd < 0) {
			lt_error_set(err, ltr_errno_code(errno), "cannot open %s: %s",
				      path, strerror(errno));
			free(path);
			goto fail;
		}
		free(path);
		r->buf = malloc(st->page_size);
		r->tcpu = r->buf ? tracefs_cpu_alloc_fd(r->fd, (int)st->page_size,
							true) : NULL;
		if (!r->tcpu)
			goto nomem;
	}
	/* the readers take no signal: the caller's thread handles them */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	for (i = 0; i < st->cpus; i++) {
		e = pthread_create(&st->r[i].thread, NULL, reader_thread, &st->r[i]);
		if (e) {
			pthread_sigmask(SIG_SETMASK, &old, NULL);
			lt_error_set(err, LT_E_INTERNAL,
				      "cannot start the reader of CPU %d: %s", i,
				      strerror(e));
			goto fail;
		}
		st->r[i].running = true;
	}
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	*out = st;
	return 0;
nomem:
	lt_error_set(err, LT_E_NOMEM, "out of memory");
fail:
	ltr_stream_free(st);
	return -1;
}

size_t ltr_stream_page_size(const struct ltr_stream *st)
{
	return st->page_size;
}

int ltr_stream_failed_fd(const struct ltr_stream *st)
{
	return st->fail_pipe[0];
}

bool ltr_stream_failed(const struct ltr_stream *st)
{
	return atomic_load(&st->failed);
}

int ltr_stream_stop(struct ltr_stream *st, struct lt_error *err)
{
	char byte = 1;
	int i, ret = 0;

	atomic_store(&st->stopping, true);
	(void)!write(st->stop_pipe[1], &byte, 1);
	for (i = 0; i < st->cpus; i++) {
		struct reader *r = &st->r[i];

		if (!r->running)
			continue;
		pthread_join(r->thread, NULL);
		r->running = false;
	}
	for (i = 0; i < st->cpus; i++) {
		struct reader *r = &st->r[i];

		if (r->error && !ret) {
			ret = -1;
			lt_error_set(err, r->error == ENOSPC || r->error == EDQUOT ||
					   !strcmp(r->doing, "storing") ?
				      LT_E_OUTPUT : LT_E_TRACEFS,
				      "%s CPU %d's trace data: %s", r->doing,
				      r->cpu, strerror(r->error));
		}
	}
	close_readers(st);
	return ret;
}

uint64_t ltr_stream_cpu_ns(const struct ltr_stream *st)
{
	uint64_t ns = 0;
	int i;

	for (i = 0; i < st->cpus; i++) {
		const struct reader *r = &st->r[i];
		struct timespec ts;
		clockid_t clk;

		/* a thread that ended left its time behind */
		if (r->running && !atomic_load(&r->ended) &&
		    !pthread_getcpuclockid(r->thread, &clk) &&
		    !clock_gettime(clk, &ts))
			ns += (uint64_t)ts.tv_sec * 1000000000ULL +
			      (uint64_t)ts.tv_nsec;
		else
			ns += atomic_load(&r->cpu_ns);
	}
	return ns;
}

uint64_t ltr_stream_bytes(const struct ltr_stream *st, int cpu)
{
	if (cpu < 0 || cpu >= st->cpus)
		return 0;
	return atomic_load(&st->r[cpu].bytes);
}
