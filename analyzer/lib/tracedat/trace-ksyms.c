// SPDX-License-Identifier: LGPL-2.1
/*
 * trace-ksyms.c - kallsyms, saved cmdlines and per-CPU buffer statistics.
 *
 * All three are text written by the kernel and copied by trace-cmd.  Lines
 * that do not parse are skipped: a damaged symbol table should cost some
 * names, not the whole trace.  kallsyms come in pieces as they are
 * decompressed (trace-decomp.c), so their parser holds a line a piece
 * cuts until the next piece ends it.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lt-bigmem.h"
#include "tracedat-local.h"

/* ---- kallsyms -------------------------------------------------------- */

static int cmp_ksym(const void *a, const void *b)
{
	const struct ksym *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	/* Same address: keep file order, the first name wins. */
	return (x->name > y->name) - (x->name < y->name);
}

static const char *next_line(const char *s, const char *end,
			     const char **eol)
{
	*eol = memchr(s, '\n', end - s);
	if (!*eol)
		*eol = end;
	return s;
}

static inline int hexval(unsigned char c)
{
	if ((unsigned int)(c - '0') < 10)
		return c - '0';
	c |= 0x20;
	if ((unsigned int)(c - 'a') < 6)
		return c - 'a' + 10;
	return -1;
}

static bool parse_hex(const char **sp, const char *end, uint64_t *v)
{
	const unsigned char *s = (const unsigned char *)*sp;
	uint64_t n = 0;
	int digits = 0, d;

	while (s < (const unsigned char *)end && (d = hexval(*s)) >= 0) {
		if (++digits > 16)
			return false;
		n = n << 4 | d;
		s++;
	}
	*sp = (const char *)s;
	*v = n;
	return digits > 0;
}

/*
 * The arrays below are sized for the whole text and filled from the
 * start: pages are mapped in a step ahead of the writes, by one madvise()
 * each rather than a fault a page (a 10 MB kallsyms is ~1,200 pages, and
 * a fault costs 5-16 us in a VM: 13% of analyzing a small stacks trace).
 */
#define KSYM_PREFAULT	(256u << 10)

static void ahead(void *base, size_t end, size_t *ready, size_t size)
{
	size_t n;

	if (end <= *ready || *ready >= size)
		return;
	n = size - *ready < KSYM_PREFAULT ? size - *ready : KSYM_PREFAULT;
	lt_big_prefault((char *)base + *ready, n);
	*ready += n;
}

void lt_trace_ksym_free(struct lt_trace *t)
{
	lt_big_free(t->ksyms, t->ksyms_size);
	lt_big_free(t->ksym_names, t->ksym_names_size);
}

int lt_trace_ksym_parse_begin(struct lt_trace *t, struct lt_error *err,
			      struct ksym_parse *kp, size_t len)
{
	memset(kp, 0, sizeof(*kp));
	if (!len || t->ksyms)
		return 0;	/* nothing to do: the rest ignores all */
	kp->live = true;	/* from here abort frees */
	kp->len = len;
	/* About 40 bytes a line in practice; grown if needed. */
	kp->cap = len / 32 + 16;
	t->ksyms_size = kp->cap * sizeof(*t->ksyms);
	t->ksyms = lt_big_alloc(t->ksyms_size);
	/* Names are pieces of the text, so the text's size bounds the pool. */
	t->ksym_names_size = len + 1;
	t->ksym_names = lt_big_alloc(t->ksym_names_size);
	if (!t->ksyms || !t->ksym_names)
		return lt_trace_fail(t, err, LT_E_NOMEM, "kallsyms: out of memory");
	return 0;
}

/* One line, "addr type name [module]", without its newline. */
static int ksym_parse_line(struct lt_trace *t, struct lt_error *err,
			   struct ksym_parse *kp, const char *s,
			   const char *eol)
{
	const char *name, *e;
	uint64_t addr;
	struct ksym *k;
	size_t nlen;
	char type;

	if (!parse_hex(&s, eol, &addr) || s + 3 > eol || *s != ' ')
		return 0;
	type = s[1];
	if (s[2] != ' ' && s[2] != '\t')
		return 0;
	name = s + 3;
	for (e = name; e < eol && *e != ' ' && *e != '\t' && *e != '\r'; e++)
		;
	nlen = e - name;
	if (!nlen || addr == 0)
		return 0;	/* hidden addresses (kptr_restrict) */
	/* Text symbols, and module symbols (they carry [module]). */
	if (type != 't' && type != 'T' && type != 'w' && type != 'W' &&
	    !memchr(e, '[', eol - e))
		return 0;
	/* a name and its NUL take no more than its line: never reached */
	if (kp->pool + nlen + 1 > kp->len + 1)
		return 0;
	if (kp->n == kp->cap) {
		k = lt_big_realloc(t->ksyms, t->ksyms_size,
				   kp->cap * 2 * sizeof(*k));
		if (!k)
			return lt_trace_fail(t, err, LT_E_NOMEM,
					     "kallsyms: out of memory");
		t->ksyms = k;
		kp->cap *= 2;
		t->ksyms_size = kp->cap * sizeof(*k);
		kp->ready_k = kp->n * sizeof(*k);
	}
	ahead(t->ksyms, (kp->n + 1) * sizeof(*t->ksyms), &kp->ready_k,
	      kp->cap * sizeof(*t->ksyms));
	ahead(t->ksym_names, kp->pool + nlen + 1, &kp->ready_n, kp->len + 1);
	if (kp->sorted == kp->n && (!kp->n || t->ksyms[kp->n - 1].addr <= addr))
		kp->sorted++;
	t->ksyms[kp->n].addr = addr;
	t->ksyms[kp->n].name = kp->pool;
	memcpy(t->ksym_names + kp->pool, name, nlen);
	t->ksym_names[kp->pool + nlen] = '\0';
	kp->pool += nlen + 1;
	kp->n++;
	return 0;
}

int lt_trace_ksym_parse_feed(struct lt_trace *t, struct lt_error *err,
			     struct ksym_parse *kp, const char *text, size_t len)
{
	const char *s = text, *end, *eol;
	size_t take, room, n;

	if (!kp->live || !len)
		return 0;	/* (text may be NULL then) */
	end = text + len;
	if (kp->held) {
		/* finish the line the last piece left */
		eol = memchr(s, '\n', len);
		take = (size_t)((eol ? eol : end) - s);
		room = sizeof(kp->line) - kp->held;
		if (take > room)
			take = room;	/* a line longer than any symbol's: cut */
		memcpy(kp->line + kp->held, s, take);
		kp->held += take;
		if (!eol)
			return 0;
		n = kp->held;
		kp->held = 0;
		if (ksym_parse_line(t, err, kp, kp->line, kp->line + n))
			return -1;
		s = eol + 1;
	}
	for (; s < end; s = eol + 1) {
		eol = memchr(s, '\n', end - s);
		if (!eol) {
			/* kept for the next piece */
			kp->held = (size_t)(end - s) < sizeof(kp->line) ?
				   (size_t)(end - s) : sizeof(kp->line);
			memcpy(kp->line, s, kp->held);
			break;
		}
		if (ksym_parse_line(t, err, kp, s, eol))
			return -1;
	}
	return 0;
}

/*
 * @k's @n symbols by address, the first @sorted already so.
 * /proc/kallsyms lists the kernel's own symbols in address order, then the
 * modules' (each in its own order): only those are sorted, and merged in
 * from the back, with room for the tail alone.  A whole qsort was 7% of
 * analyzing samples/kernel-module-6.1.dat; it is still what is done
 * when that room cannot be had.
 */
static void sort_ksyms(struct ksym *k, size_t n, size_t sorted)
{
	size_t nt = n - sorted, i = sorted, j = nt, out = n;
	struct ksym *tail;

	if (nt == 0)
		return;
	qsort(k + sorted, nt, sizeof(*k), cmp_ksym);
	if (!sorted || cmp_ksym(&k[sorted - 1], &k[sorted]) <= 0)
		return;
	tail = malloc(nt * sizeof(*k));
	if (!tail) {
		qsort(k, n, sizeof(*k), cmp_ksym);
		return;
	}
	memcpy(tail, k + sorted, nt * sizeof(*k));
	/* the larger of the two ends goes last; ties keep file order */
	while (j) {
		if (i && cmp_ksym(&k[i - 1], &tail[j - 1]) > 0)
			k[--out] = k[--i];
		else
			k[--out] = tail[--j];
	}
	free(tail);
}

int lt_trace_ksym_parse_end(struct lt_trace *t, struct lt_error *err,
			    struct ksym_parse *kp)
{
	size_t i, out;

	if (!kp->live)
		return 0;
	/* the last line, with no newline after it */
	if (kp->held && ksym_parse_line(t, err, kp, kp->line,
					kp->line + kp->held))
		return -1;
	kp->held = 0;
	kp->live = false;
	sort_ksyms(t->ksyms, kp->n, kp->sorted);
	/* One name per address: the first listed. */
	for (i = 0, out = 0; i < kp->n; i++) {
		if (out && t->ksyms[out - 1].addr == t->ksyms[i].addr)
			continue;
		t->ksyms[out++] = t->ksyms[i];
	}
	t->nr_ksyms = out;
	return 0;
}

void lt_trace_ksym_parse_abort(struct lt_trace *t, struct ksym_parse *kp)
{
	if (!kp->live)
		return;
	lt_trace_ksym_free(t);
	t->ksyms = NULL;
	t->ksym_names = NULL;
	t->nr_ksyms = 0;
	kp->live = false;
}

int lt_trace_parse_kallsyms(struct lt_trace *t, struct lt_error *err,
			    const char *text, size_t len)
{
	struct ksym_parse kp;

	if (lt_trace_ksym_parse_begin(t, err, &kp, len) ||
	    lt_trace_ksym_parse_feed(t, err, &kp, text, len) ||
	    lt_trace_ksym_parse_end(t, err, &kp)) {
		lt_trace_ksym_parse_abort(t, &kp);
		return -1;
	}
	return 0;
}

/*
 * A kallsyms text from a file of its own (/proc/kallsyms, perf's cache, a
 * copy): for files that carry none, perf.data's formats among them.  Read
 * whole first: /proc files say no size.
 */
int lt_trace_load_kallsyms_file(struct lt_trace *t, const char *path,
				struct lt_error *err)
{
	size_t len = 0, cap = 1 << 20, i;
	char *buf = malloc(cap), *nb;
	int fd, ret;
	ssize_t n;

	if (!buf) {
		lt_error_set(err, LT_E_NOMEM, "%s: out of memory", path);
		return -1;
	}
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		lt_error_set(err, LT_E_IO, "%s: cannot open: %s", path,
			     strerror(errno));
		free(buf);
		return -1;
	}
	while ((n = read(fd, buf + len, cap - len)) > 0) {
		len += (size_t)n;
		if (len < cap)
			continue;
		if (cap >= LT_MAX_META_SIZE) {
			close(fd);
			free(buf);
			lt_error_set(err, LT_E_LIMIT, "%s: kallsyms of more "
				     "than %u MB", path, LT_MAX_META_SIZE >> 20);
			return -1;
		}
		nb = realloc(buf, cap * 2);
		if (!nb) {
			close(fd);
			free(buf);
			lt_error_set(err, LT_E_NOMEM, "%s: out of memory", path);
			return -1;
		}
		buf = nb;
		cap *= 2;
	}
	close(fd);
	if (n < 0) {
		lt_error_set(err, LT_E_IO, "%s: cannot read: %s", path,
			     strerror(errno));
		free(buf);
		return -1;
	}
	/* kptr_restrict shows every address as 0 to most users */
	for (i = 0; i < len && buf[i] == '0'; i++)
		;
	if (i >= 8 && i < len && buf[i] == ' ') {
		free(buf);
		lt_error_set(err, LT_E_IO, "%s: every address reads 0 (hidden "
			     "by kernel.kptr_restrict: read it as root)", path);
		return -1;
	}
	lt_trace_ksym_free(t);
	t->ksyms = NULL;
	t->ksym_names = NULL;
	t->nr_ksyms = 0;
	ret = lt_trace_parse_kallsyms(t, &t->ksym_err, buf, len);
	free(buf);
	if (ret) {
		lt_error_set(err, t->ksym_err.code, "%s: %s", path,
			     t->ksym_err.msg);
	} else if (!t->nr_ksyms) {
		ret = -1;
		lt_error_set(err, LT_E_CORRUPT, "%s: no kernel symbols in it",
			     path);
	}
	t->ksym_state = ret ? -1 : 1;
	t->ksym_told = true;	/* the caller has the error */
	return ret;
}

/*
 * Symbols load on first use; a failure nobody was told of is warned about
 * once, here (another thread may have loaded them).
 */
static void need_ksyms(const struct lt_trace *ct)
{
	struct lt_trace *t = (struct lt_trace *)ct;

	if (t->ksym_state > 0 || t->ksym_told)
		return;
	if (lt_trace_load_ksyms(t, NULL) < 0) {
		t->ksym_told = true;
		lt_warning("%s", t->ksym_err.msg);
	}
}

const char *lt_trace_ksym(const struct lt_trace *t, uint64_t addr,
			  uint64_t *offset)
{
	size_t lo, hi, mid;

	need_ksyms(t);
	lo = 0;
	hi = t->nr_ksyms;

	/* The last symbol at or below addr. */
	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (t->ksyms[mid].addr <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo) {
		if (offset)
			*offset = 0;
		return NULL;
	}
	if (offset)
		*offset = addr - t->ksyms[lo - 1].addr;
	return t->ksym_names + t->ksyms[lo - 1].name;
}

size_t lt_trace_nr_ksyms(const struct lt_trace *t)
{
	need_ksyms(t);
	return t->nr_ksyms;
}

/* ---- saved cmdlines -------------------------------------------------- */

/*
 * A pid has one name that counts (the last saved), and the kernel keeps
 * at most 32768 (its saved_cmdlines_size limit): past a name for every
 * pid Linux can have, lines only cost memory, which a damaged or hostile
 * file could make gigabytes of.
 */
#define MAX_CMDLINES	(1u << 22)

/* Line @s..@eol as "pid comm" (comm may hold spaces: it is the rest). */
static bool cmdline_line(const char *s, const char *eol, int *pid,
			 const char **comm, size_t *clen)
{
	char num[16], *e;
	size_t nl = 0;
	long v;

	while (s + nl < eol && nl < sizeof(num) - 1 &&
	       isdigit((unsigned char)s[nl]))
		nl++;
	if (!nl || s + nl >= eol || s[nl] != ' ')
		return false;
	memcpy(num, s, nl);
	num[nl] = '\0';
	v = strtol(num, &e, 10);
	if (v < 0 || v > 0x7fffffff)
		return false;
	*comm = s + nl + 1;
	*clen = eol - *comm;
	while (*clen && ((*comm)[*clen - 1] == '\r' || (*comm)[*clen - 1] == ' '))
		(*clen)--;
	if (!*clen || memchr(*comm, 0, *clen))
		return false;
	/* a task name, as the kernel keeps it: the report copies it */
	if (*clen > LT_TRACE_COMM_MAX)
		*clen = LT_TRACE_COMM_MAX;
	*pid = (int)v;
	return true;
}

int lt_trace_parse_cmdlines(struct lt_trace *t, struct lt_error *err,
			    const char *text, size_t len)
{
	const char *s, *end = text + len, *eol, *comm;
	size_t n = 0, pool = 0, clen;
	int pid;

	if (!len || t->cmdlines)
		return 0;
	for (s = text; s < end && n < MAX_CMDLINES; s = eol + 1) {
		next_line(s, end, &eol);
		if (cmdline_line(s, eol, &pid, &comm, &clen)) {
			n++;
			pool += clen + 1;
		}
	}
	if (!n)
		return 0;
	t->cmdlines = malloc(n * sizeof(*t->cmdlines));
	t->cmdline_names = malloc(pool);
	if (!t->cmdlines || !t->cmdline_names)
		return lt_trace_fail(t, err, LT_E_NOMEM,
				     "saved cmdlines: out of memory");
	n = pool = 0;
	for (s = text; s < end && n < MAX_CMDLINES; s = eol + 1) {
		next_line(s, end, &eol);
		if (!cmdline_line(s, eol, &pid, &comm, &clen))
			continue;
		t->cmdlines[n].pid = pid;
		t->cmdlines[n].comm = pool;
		memcpy(t->cmdline_names + pool, comm, clen);
		t->cmdline_names[pool + clen] = '\0';
		pool += clen + 1;
		n++;
	}
	t->nr_cmdlines = n;
	return 0;
}

/*
 * By pid, then by place in the file (names are stored in file order): of
 * a pid saved twice, the last is the one that counts.
 */
static int cmp_cmdline(const void *a, const void *b)
{
	const struct cmdline *x = a, *y = b;

	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	return x->comm < y->comm ? -1 : x->comm > y->comm;
}

const char *lt_trace_cgroups(const struct lt_trace *t)
{
	return t->cgroups && t->cgroups[0] ? t->cgroups : NULL;
}

const char *lt_trace_cmdline(struct lt_trace *t, int pid)
{
	const struct cmdline *by_pid = t->cmdline_by_pid;
	size_t lo = 0, hi = t->nr_cmdlines, mid;

	if (!t->nr_cmdlines)
		return NULL;
	if (!by_pid) {
		t->cmdline_by_pid = malloc(t->nr_cmdlines * sizeof(*by_pid));
		if (!t->cmdline_by_pid)
			return NULL;	/* a name the report can do without */
		memcpy(t->cmdline_by_pid, t->cmdlines,
		       t->nr_cmdlines * sizeof(*by_pid));
		qsort(t->cmdline_by_pid, t->nr_cmdlines, sizeof(*by_pid),
		      cmp_cmdline);
		by_pid = t->cmdline_by_pid;
	}
	/* past the last entry of @pid: the one before it, if it is @pid's */
	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (by_pid[mid].pid <= pid)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo || by_pid[lo - 1].pid != pid)
		return NULL;
	return t->cmdline_names + by_pid[lo - 1].comm;
}

void lt_trace_for_each_cmdline(const struct lt_trace *t, lt_cmdline_fn fn,
			       void *ctx)
{
	size_t i;

	for (i = 0; i < t->nr_cmdlines; i++)
		fn(ctx, t->cmdlines[i].pid,
		   t->cmdline_names + t->cmdlines[i].comm);
}

/* ---- CPU stats ------------------------------------------------------- */

static bool stat_value(const char *s, const char *eol, const char *key,
		       int64_t *v)
{
	size_t kl = strlen(key);
	long long n = 0;
	int digits = 0;

	if ((size_t)(eol - s) < kl || memcmp(s, key, kl))
		return false;
	s += kl;
	while (s < eol && *s == ' ')
		s++;
	while (s < eol && isdigit((unsigned char)*s) && digits < 18) {
		n = n * 10 + (*s++ - '0');
		digits++;
	}
	if (!digits)
		return false;
	*v = n;
	return true;
}

/*
 * The text of per_cpu/cpuN/stats.  Newer trace-cmd starts it with
 * "CPU: N"; older ones wrote one option per CPU in order, @nth.
 */
int lt_trace_parse_cpustat(struct lt_trace *t, struct lt_error *err,
			   const char *text, size_t len, unsigned int nth)
{
	const char *s, *end = text + len, *eol;
	struct cpu_stat st = { .cpu = nth, .overrun = -1, .dropped = -1 };
	struct cpu_stat *stats;
	int64_t v;
	unsigned int i;

	for (s = text; s < end; s = eol + 1) {
		next_line(s, end, &eol);
		if (stat_value(s, eol, "CPU:", &v))
			st.cpu = v < LT_MAX_CPUS ? v : -1;
		else if (stat_value(s, eol, "overrun:", &v))
			st.overrun = v;
		else if (stat_value(s, eol, "dropped events:", &v))
			st.dropped = v;
	}
	if (st.cpu < 0 || (st.overrun < 0 && st.dropped < 0))
		return 0;
	for (i = 0; i < t->nr_stats; i++) {
		if (t->stats[i].cpu == st.cpu)
			return 0;	/* instances repeat CPUs; first wins */
	}
	if (t->nr_stats >= LT_MAX_CPUS)
		return 0;
	stats = realloc(t->stats, (t->nr_stats + 1) * sizeof(*stats));
	if (!stats)
		return lt_trace_fail(t, err, LT_E_NOMEM, "CPUSTAT: out of memory");
	t->stats = stats;
	t->stats[t->nr_stats++] = st;
	return 0;
}

int64_t lt_trace_cpu_overrun(const struct lt_trace *t, int cpu)
{
	unsigned int i;
	int64_t sum;

	/* the stats saved are the top level's: an instance's are not known */
	if (t->cur_buffer)
		return -1;
	for (i = 0; i < t->nr_stats; i++) {
		if (t->stats[i].cpu != cpu)
			continue;
		/* Overwrite mode loses old events, the other mode new ones. */
		sum = t->stats[i].overrun > 0 ? t->stats[i].overrun : 0;
		if (t->stats[i].dropped > 0)
			sum += t->stats[i].dropped;
		return sum;
	}
	return -1;
}

/* ---- loading: on first use ---------------------------------------- */

/*
 * The KALLSYMS section's body, as it comes: a 4-byte size, then that much
 * text, parsed piece by piece.  The size is checked against the body once
 * all of it has come (lt_trace_rd_sized_text(), as for a body read whole).
 */
struct ksym_body {
	struct lt_trace *t;
	struct ksym_parse kp;
	unsigned char head[4];
	size_t nhead;
	uint64_t total;		/* body bytes come so far */
	uint64_t text_left;	/* text still to parse (0: none to parse) */
};

static int ksym_piece(void *ctx, const unsigned char *p, size_t n)
{
	struct ksym_body *b = ctx;
	struct lt_trace *t = b->t;
	size_t take;
	uint32_t size;

	b->total += n;
	if (b->nhead < 4) {
		take = 4 - b->nhead < n ? 4 - b->nhead : n;
		memcpy(b->head + b->nhead, p, take);
		b->nhead += take;
		p += take;
		n -= take;
		if (b->nhead < 4)
			return 0;
		size = get32(b->head, t->swap);
		/* over the limit: an error at the end, nothing to parse */
		if (size > LT_MAX_META_SIZE)
			return 0;
		if (lt_trace_ksym_parse_begin(t, &t->ksym_err, &b->kp, size))
			return -1;
		b->text_left = size;
	}
	if (!b->text_left)
		return 0;
	take = n < b->text_left ? n : (size_t)b->text_left;
	b->text_left -= take;
	return lt_trace_ksym_parse_feed(t, &t->ksym_err, &b->kp, (const char *)p, take);
}

/* v7: the section decompressed and parsed in pieces. */
static int load_ksym_section(struct lt_trace *t)
{
	struct ksym_body b;
	const char *text;
	uint16_t flags;
	uint64_t size;
	struct rd r;
	size_t len;
	int ret;

	memset(&b, 0, sizeof(b));
	b.t = t;
	if (lt_trace_section_header(t, &t->ksym_err, t->ksym_sec, OPT_KALLSYMS,
				    "KALLSYMS section", &r, &flags, &size))
		return -1;
	ret = lt_trace_section_pieces(t, &t->ksym_err, &r, size,
				      flags & SEC_FL_COMPRESS, "KALLSYMS section",
				      t->helper, ksym_piece, &b);
	if (!ret) {
		/* the body as the reader of a whole one sees it, to check it */
		r.off = flags & SEC_FL_COMPRESS ? t->ksym_sec : r.off + r.pos;
		r.p = b.head;
		r.len = b.total;
		r.pos = 0;
		r.packed = flags & SEC_FL_COMPRESS;
		ret = lt_trace_rd_sized_text(t, &t->ksym_err, &r, 4, LT_MAX_META_SIZE,
					     "kallsyms", &text, &len);
	}
	if (!ret)
		ret = lt_trace_ksym_parse_end(t, &t->ksym_err, &b.kp);
	if (ret)
		lt_trace_ksym_parse_abort(t, &b.kp);
	return ret;
}

int lt_trace_load_ksyms(struct lt_trace *t, struct lt_error *err)
{
	int ret;

	if (!t->ksym_state) {
		if (t->ksym_sec)
			ret = load_ksym_section(t);
		else
			ret = lt_trace_parse_kallsyms(t, &t->ksym_err, t->ksym_text,
						      t->ksym_len);
		t->ksym_state = ret ? -1 : 1;
	}
	if (t->ksym_state > 0)
		return 0;
	if (err) {
		*err = t->ksym_err;
		t->ksym_told = true;
	}
	return -1;
}
